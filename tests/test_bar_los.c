/* test_bar_los.c - the Monmouth map (rules/bar/map.c) and 5.4b line of
 * sight (rules/bar/los.c): Examples 1-6 of 5.4b on elevation maps built
 * for each example with the examples' own hex labels (the published map
 * is a picture we do not have: the levels below are the ones the
 * examples' intersection hexes imply), blocking terrain, units and
 * leaders, spines, and the map parser's errors. */
#include "core/los.h"
#include "rules/bar/bar.h"
#include "tests/check.h"

#include <jansson.h>
#include <stdlib.h>

static mk_grid grid;     /* W and E sheets, 39 columns, 51 rows (Example 4: E3451) */
static bar_map map;      /* about 55 KiB: static */

static void make_grid(void)
{
    mk_sheet sh[2] = {{'W', 39}, {'E', 39}};
    char err[160];
    /* Shifted "even": the examples' lines (E2920-E2821-E2721-E2622-E2522,
     * E3303-E3404-E3504-E3605) are straight only with the even columns
     * half a hex lower. */
    if (mk_grid_init_sheets(&grid, true, sh, 2, 51, err, sizeof err) < 0)
        fprintf(stderr, "grid: %s\n", err);
}

static mk_hex at(const char *label)
{
    mk_hex h = MK_NO_HEX;
    char err[160];
    if (mk_hex_parse(&grid, label, &h, err, sizeof err) < 0)
        fprintf(stderr, "parse %s: %s\n", label, err);
    return h;
}

/* Parses a map object's text into `map`; returns 0 or -1 with err. */
static int load(const char *text, mk_error *err)
{
    json_error_t je;
    json_t *j = json_loads(text, JSON_REJECT_DUPLICATES, &je);
    if (!j) {
        fprintf(stderr, "bad test JSON: %s: %s\n", je.text, text);
        return mk_error_set(err, "bad_json", "%s", je.text);
    }
    int rc = bar_map_parse(&map, &grid, j, err);
    json_decref(j);
    return rc;
}

static void load_ok(const char *text)
{
    mk_error err = {0};
    int rc = load(text, &err);
    if (rc < 0)
        fprintf(stderr, "load: %s\n", err.msg);
    CHECK_EQ(rc, 0);
}

/* Expects the map text to be refused with a message containing want. */
static void load_bad(const char *text, const char *want)
{
    mk_error err = {0};
    CHECK_EQ(load(text, &err), -1);
    CHECK_STR(err.code, "scenario_invalid");
    if (!strstr(err.msg, want)) {
        fprintf(stderr, "  message \"%s\" lacks \"%s\"\n", err.msg, want);
        CHECK(false);
    }
}

static bar_los_result los(const char *a, const char *b, const bar_los_units *u)
{
    bar_los_result r;
    mk_error err = {0};
    int rc = bar_los(&map, at(a), at(b), u ? bar_los_units_block : NULL, u, &r, &err);
    if (rc < 0)
        fprintf(stderr, "bar_los %s %s: %s\n", a, b, err.msg);
    CHECK_EQ(rc, 0);
    return r;
}

/* The feature whose intersection hexes are x and y (either order), or NULL. */
static const bar_los_feature *feature(const bar_los_result *r, const char *x, const char *y)
{
    mk_hex hx = at(x), hy = at(y);
    for (int i = 0; i < r->nfeatures; i++) {
        const bar_los_feature *f = &r->features[i];
        if ((f->first == hx && f->last == hy) || (f->first == hy && f->last == hx))
            return f;
    }
    fprintf(stderr, "  no feature %s-%s\n", x, y);
    return NULL;
}

static bool is_hilltop(const bar_los_feature *f, const char *h)
{
    return f && !f->crest && f->top == at(h) && f->top2 == MK_NO_HEX;
}

static bool is_crest(const bar_los_feature *f, const char *x, const char *y)
{
    mk_hex hx = at(x), hy = at(y);
    return f && f->crest &&
           ((f->top == hx && f->top2 == hy) || (f->top == hy && f->top2 == hx));
}

static bool same_side(mk_hex a, mk_hex b, const char *x, const char *y)
{
    mk_hex hx = at(x), hy = at(y);
    return (a == hx && b == hy) || (a == hy && b == hx);
}

/* Example 1: E2920-E2522; intersection hexes E2920 and E2721, 3 hexes
 * (E2920, E2821, E2721): a hilltop at E2821; no LOS (opposite sides). */
static void example_1(void)
{
    load_ok("{\"elevation\": {\"E2920\": 1, \"E2821\": 1, \"E2721\": 1}}");
    bar_los_result r = los("E2920", "E2522", NULL);
    CHECK(!r.clear);
    CHECK_EQ(r.why, BAR_LOS_HILLTOP);
    CHECK_EQ(r.hex, at("E2821"));
    CHECK_EQ(r.nfeatures, 1);
    const bar_los_feature *f = feature(&r, "E2920", "E2721");
    CHECK_EQ(f ? f->count : 0, 3);
    CHECK(is_hilltop(f, "E2821"));
    CHECK_EQ(r.feature, 0);
    /* A3: seen from E2522, the unit on E2920 is on the reverse slope. */
    CHECK_EQ(f ? f->slope[0] : -1, BAR_SLOPE_REVERSE);
    CHECK_EQ(f ? f->slope[1] : -1, BAR_SLOPE_OFF);
    /* The same from the other side. */
    bar_los_result q = los("E2522", "E2920", NULL);
    CHECK(!q.clear);
    CHECK_EQ(q.why, BAR_LOS_HILLTOP);
    CHECK_EQ(q.hex, at("E2821"));
    /* A unit on the hilltop itself sees both: into, not through. */
    CHECK(los("E2821", "E2522", NULL).clear);
    CHECK(los("E2821", "E3020", NULL).clear);
}

/* Example 2: E2207-E2804; pairs E1908-E2306 (5: hilltop E2107),
 * E1908-E2406 (6: crest E2107/E2207), E2804-E2903 (2: crest
 * E2804/E2903); both units on forward slopes: LOS. E1908 holds two
 * contour lines (levels 1 and 2: 5.4a A puts it at the higher). */
static void example_2(void)
{
    load_ok("{\"elevation\": {\"E1908\": 2, \"E2008\": 2, \"E2107\": 2, \"E2207\": 2,"
            " \"E2306\": 2, \"E2406\": 1, \"E2804\": 1, \"E2903\": 1}}");
    bar_los_result r = los("E2207", "E2804", NULL);
    CHECK(r.clear);
    CHECK_EQ(r.why, BAR_LOS_CLEAR);
    CHECK_EQ(r.nfeatures, 3);
    const bar_los_feature *f1 = feature(&r, "E1908", "E2306");
    const bar_los_feature *f2 = feature(&r, "E1908", "E2406");
    const bar_los_feature *f3 = feature(&r, "E2804", "E2903");
    CHECK_EQ(f1 ? f1->count : 0, 5);
    CHECK_EQ(f1 ? f1->level : 0, 2);
    CHECK(is_hilltop(f1, "E2107"));
    CHECK_EQ(f2 ? f2->count : 0, 6);
    CHECK_EQ(f2 ? f2->level : 0, 1);
    CHECK(is_crest(f2, "E2107", "E2207"));
    CHECK_EQ(f3 ? f3->count : 0, 2);
    CHECK(is_crest(f3, "E2804", "E2903"));
    /* "each of them is on the forward slope sides" */
    CHECK_EQ(f1 ? f1->slope[0] : -1, BAR_SLOPE_FORWARD);
    CHECK_EQ(f2 ? f2->slope[0] : -1, BAR_SLOPE_FORWARD);
    CHECK_EQ(f3 ? f3->slope[1] : -1, BAR_SLOPE_FORWARD);
    CHECK_EQ(f1 ? f1->slope[1] : -1, BAR_SLOPE_OFF);
    /* In order along the line from E2207 (west to east). */
    CHECK(r.nfeatures == 3 && r.features[2].first == at("E2804"));
    CHECK(los("E2804", "E2207", NULL).clear);
    /* Moved to the far side of the ridge (E2008): the crest E2107/E2207
     * and the hilltop E2107 now lie between: no LOS, the first blocker
     * from E2008 is the hilltop. */
    bar_los_result q = los("E2008", "E2804", NULL);
    CHECK(!q.clear);
    CHECK_EQ(q.why, BAR_LOS_HILLTOP);
    CHECK_EQ(q.hex, at("E2107"));
}

/* Example 3: E3504-E3509; pairs E3501-E3506 (crest E3503/E3504),
 * E3503-E3505 (hilltop E3504), E3509-E3511 (hilltop E3510); none lies
 * between the units: LOS. E3501 is on the north edge: the contour closes
 * there only because map.edge_elevation gives the ground beyond. */
static void example_3(void)
{
    const char *hill = "\"E3501\": 1, \"E3502\": 1, \"E3503\": 2, \"E3504\": 2, \"E3505\": 2,"
                       " \"E3506\": 1, \"E3509\": 1, \"E3510\": 1, \"E3511\": 1,"
                       /* a hill beyond E3509, on the extended line but
                        * neither between the units nor under one: ignored */
                       " \"E3514\": 1, \"E3515\": 1";
    char text[512];
    snprintf(text, sizeof text, "{\"elevation\": {%s}, \"edge_elevation\": {\"north\": 0}}", hill);
    load_ok(text);
    bar_los_result r = los("E3504", "E3509", NULL);
    CHECK(r.clear);
    CHECK_EQ(r.nfeatures, 3);
    const bar_los_feature *f1 = feature(&r, "E3501", "E3506");
    const bar_los_feature *f2 = feature(&r, "E3503", "E3505");
    const bar_los_feature *f3 = feature(&r, "E3509", "E3511");
    CHECK(is_crest(f1, "E3503", "E3504"));
    CHECK_EQ(f1 ? f1->count : 0, 6);
    CHECK(is_hilltop(f2, "E3504"));
    CHECK(is_hilltop(f3, "E3510"));
    CHECK_EQ(f2 ? f2->slope[0] : -1, BAR_SLOPE_HILLTOP);
    CHECK_EQ(f1 ? f1->slope[0] : -1, BAR_SLOPE_FORWARD);
    CHECK_EQ(f3 ? f3->slope[1] : -1, BAR_SLOPE_FORWARD);

    /* Without the edge's level the north end is open: E3501-E3506 gives
     * one intersection hex and is ignored (A1); the rest stands. */
    snprintf(text, sizeof text, "{\"elevation\": {%s}}", hill);
    load_ok(text);
    r = los("E3504", "E3509", NULL);
    CHECK(r.clear);
    CHECK_EQ(r.nfeatures, 2);
    CHECK(is_hilltop(feature(&r, "E3503", "E3505"), "E3504"));

    /* AMB-BAR-4: a single hex crossed by the same contour twice (E3509
     * alone at level 1) is not a pair: no feature, no hilltop there. */
    load_ok("{\"elevation\": {\"E3509\": 1}}");
    r = los("E3504", "E3512", NULL);
    CHECK(r.clear);
    CHECK_EQ(r.nfeatures, 0);
}

/* Example 4 ("E335J": E3351, AMB-BAR-3): E3351-E3849; intersection hexes
 * E3451 (contour 1) and E3749 (contour 2) are on different contour lines,
 * no pairs: LOS. The high ground runs on to the east edge. */
static void example_4(void)
{
    const char *slope = "\"E3451\": 1, \"E3550\": 1, \"E3650\": 1, \"E3749\": 2, \"E3849\": 2,"
                        " \"E3945\": 2, \"E3946\": 2, \"E3947\": 2, \"E3948\": 2, \"E3949\": 2,"
                        " \"E3950\": 2, \"E3951\": 2";
    char text[512];
    snprintf(text, sizeof text, "{\"elevation\": {%s}}", slope);
    load_ok(text);
    bar_los_result r = los("E3351", "E3849", NULL);
    CHECK(r.clear);
    CHECK_EQ(r.nfeatures, 0);
    CHECK(los("E3849", "E3351", NULL).clear);

    /* Were the ground beyond the east edge low, each contour would close
     * at the edge and make a pair: the contour 1 pair E3451-E39xx (6
     * hexes) has its crest at E3650/E3749, between the units. */
    snprintf(text, sizeof text, "{\"elevation\": {%s}, \"edge_elevation\": {\"east\": 0}}", slope);
    load_ok(text);
    r = los("E3351", "E3849", NULL);
    CHECK(!r.clear);
    CHECK_EQ(r.why, BAR_LOS_CREST);
    CHECK(same_side(r.hex, r.hex2, "E3650", "E3749"));
    CHECK_EQ(r.nfeatures, 2);
}

/* Example 5: E2810-E3513; intersection hexes E3011 and E3111: a crest at
 * hexside E3011/E3111 (the text's "hilltop" is a slip: AMB-BAR-2); no
 * LOS. */
static void example_5(void)
{
    load_ok("{\"elevation\": {\"E3011\": 1, \"E3111\": 1}}");
    bar_los_result r = los("E2810", "E3513", NULL);
    CHECK(!r.clear);
    CHECK_EQ(r.why, BAR_LOS_CREST);
    CHECK(same_side(r.hex, r.hex2, "E3011", "E3111"));
    CHECK_EQ(r.nfeatures, 1);
    const bar_los_feature *f = feature(&r, "E3011", "E3111");
    CHECK(is_crest(f, "E3011", "E3111"));
    CHECK_EQ(f ? f->count : 0, 2);
    CHECK_EQ(f ? f->slope[0] : -1, BAR_SLOPE_OFF);
    CHECK(!los("E3513", "E2810", NULL).clear);
}

/* Example 6: E3404-E3504; intersection hexes E3303 and E3605: a crest
 * hexside between the units; both on reverse slopes, but adjacent along
 * the crest hexside: LOS (5.4b B exception). */
static void example_6(void)
{
    load_ok("{\"elevation\": {\"E3303\": 1, \"E3404\": 1, \"E3504\": 1, \"E3605\": 1}}");
    bar_los_result r = los("E3404", "E3504", NULL);
    CHECK(r.clear);
    CHECK(r.crest_adjacent);
    const bar_los_feature *f = feature(&r, "E3303", "E3605");
    CHECK(is_crest(f, "E3404", "E3504"));
    CHECK_EQ(f ? f->count : 0, 4);
    CHECK_EQ(f ? f->slope[0] : -1, BAR_SLOPE_REVERSE);
    CHECK_EQ(f ? f->slope[1] : -1, BAR_SLOPE_REVERSE);
    /* Not adjacent to it: E3303 and E3605, on the same line, do not see
     * each other across that crest. */
    bar_los_result q = los("E3303", "E3605", NULL);
    CHECK(!q.clear);
    CHECK(!q.crest_adjacent);
    CHECK_EQ(q.why, BAR_LOS_CREST);
    CHECK(same_side(q.hex, q.hex2, "E3404", "E3504"));
}

/* 5.4b B and 5.2: terrain that blocks, and what does not. */
static void terrain(void)
{
    static const struct {
        const char *name;
        bool blocks;
    } cases[] = {
        {"open", false}, {"grade", false},  {"orchard", true},     {"woods", true},
        {"marsh", false}, {"lake", false}, {"marsh/woods", true},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[128];
        snprintf(text, sizeof text, "{\"terrain\": {\"E1007\": \"%s\"}}", cases[i].name);
        load_ok(text);
        CHECK_EQ(bar_terrain_blocks_los(bar_terrain_parse(cases[i].name)), cases[i].blocks);
        bar_los_result r = los("E1005", "E1009", NULL);
        CHECK_EQ(r.clear, !cases[i].blocks);
        if (cases[i].blocks) {
            CHECK_EQ(r.why, BAR_LOS_TERRAIN);
            CHECK_EQ(r.hex, at("E1007"));
            CHECK_EQ(r.hex2, MK_NO_HEX);
        }
        /* Into a woods hex, not through: the end hexes never block. */
        CHECK(los("E1007", "E1009", NULL).clear);
        CHECK(los("E1005", "E1007", NULL).clear);
    }
    /* Hexside terrain never blocks (5.3a-e). */
    load_ok("{\"elevation\": {\"E1007\": 1}, \"hexsides\": {\"E1006/E1007\": \"regular slope\","
            " \"E1007/E1008\": [\"creek\", \"bridge\"]}}");
    CHECK(los("E1005", "E1009", NULL).clear);

    /* First blocker from the viewer: the hilltop E2821 comes before the
     * woods at E2622 seen from E2920, the woods first from E2522. */
    load_ok("{\"elevation\": {\"E2920\": 1, \"E2821\": 1, \"E2721\": 1},"
            " \"terrain\": {\"E2622\": \"woods\"}}");
    bar_los_result r = los("E2920", "E2522", NULL);
    CHECK_EQ(r.why, BAR_LOS_HILLTOP);
    r = los("E2522", "E2920", NULL);
    CHECK_EQ(r.why, BAR_LOS_TERRAIN);
    CHECK_EQ(r.hex, at("E2622"));
    CHECK_EQ(r.feature, -1);
}

/* A line along a spine: blocked only if the hexes on both sides block. */
static void spine(void)
{
    mk_hex a = at("E1010");
    mk_cube c = mk_hex_cube(&grid, a);
    mk_hex b = mk_hex_from_cube(&grid, (mk_cube){c.q + 2, c.r - 1, c.s - 1});
    mk_hex s1 = mk_hex_from_cube(&grid, (mk_cube){c.q + 1, c.r - 1, c.s});
    mk_hex s2 = mk_hex_from_cube(&grid, (mk_cube){c.q + 1, c.r, c.s - 1});
    char la[8], lb[8], l1[8], l2[8], text[200];
    mk_hex_label(&grid, a, la);
    mk_hex_label(&grid, b, lb);
    mk_hex_label(&grid, s1, l1);
    mk_hex_label(&grid, s2, l2);
    snprintf(text, sizeof text, "{\"terrain\": {\"%s\": \"woods\"}}", l1);
    load_ok(text);
    CHECK(los(la, lb, NULL).clear);
    snprintf(text, sizeof text, "{\"terrain\": {\"%s\": \"woods\", \"%s\": \"orchard\"}}", l1, l2);
    load_ok(text);
    bar_los_result r = los(la, lb, NULL);
    CHECK(!r.clear);
    CHECK_EQ(r.why, BAR_LOS_TERRAIN);
    CHECK(same_side(r.hex, r.hex2, l1, l2));
    /* Woods on one side, a combat unit on the other: both block. */
    snprintf(text, sizeof text, "{\"terrain\": {\"%s\": \"woods\"}}", l1);
    load_ok(text);
    bar_los_piece p[1] = {{s2, false}};
    bar_los_units u = {1, p};
    r = los(la, lb, &u);
    CHECK(!r.clear);
    CHECK_EQ(r.why, BAR_LOS_UNIT);
    p[0].leader = true;
    CHECK(los(la, lb, &u).clear);
    /* A spine on high ground is high only if both sides are: one high side
     * alone makes no hilltop there. */
    snprintf(text, sizeof text, "{\"elevation\": {\"%s\": 1}}", l1);
    load_ok(text);
    r = los(la, lb, NULL);
    CHECK(r.clear);
    CHECK_EQ(r.nfeatures, 0);
    snprintf(text, sizeof text, "{\"elevation\": {\"%s\": 1, \"%s\": 1}}", l1, l2);
    load_ok(text);
    r = los(la, lb, NULL);
    CHECK_EQ(r.nfeatures, 0);   /* one position: a single "hex" (AMB-BAR-4) */
}

/* 5.4b B: combat units block, leaders do not; units in the end hexes do
 * not. */
static void units(void)
{
    load_ok("{}");
    bar_los_piece p[3] = {{at("E1007"), false}, {at("E1005"), false}, {at("E1009"), false}};
    bar_los_units u = {3, p};
    bar_los_result r = los("E1005", "E1009", &u);
    CHECK(!r.clear);
    CHECK_EQ(r.why, BAR_LOS_UNIT);
    CHECK_EQ(r.hex, at("E1007"));
    p[0].leader = true;   /* a leader alone in E1007 */
    CHECK(los("E1005", "E1009", &u).clear);
    /* A leader stacked with a combat unit: the unit still blocks. */
    bar_los_piece q[2] = {{at("E1007"), true}, {at("E1007"), false}};
    bar_los_units v = {2, q};
    CHECK(!los("E1005", "E1009", &v).clear);
    CHECK(!bar_los_units_block(at("E1008"), &v));
    CHECK(bar_los_units_block(at("E1007"), &v));
    /* Adjacent units always see each other; a hex sees itself. */
    bar_los_piece all[1] = {{at("E1006"), false}};
    bar_los_units w = {1, all};
    CHECK(los("E1006", "E1007", &w).clear);
    CHECK(los("E1006", "E1006", &w).clear);
    /* Off the map: an error, not an answer. */
    bar_los_result x;
    mk_error err = {0};
    CHECK_EQ(bar_los(&map, MK_NO_HEX, at("E1006"), NULL, NULL, &x, &err), -1);
    CHECK_STR(err.code, "bad_arg");
    /* The longest lines of this map fit: corner to corner, both ways. */
    CHECK(los("W0101", "E3951", NULL).clear);
    CHECK(los("E3901", "W0151", NULL).clear);
}

/* The map's data: hexsides, roads, features, and the parser's checks. */
static void parser(void)
{
    load_ok("{\"orientation\": \"flat\", \"shifted\": \"even\", \"rows\": 51,"
            " \"terrain\": {\"W2314\": \"orchard\", \"W1919\": \"marsh/woods\"},"
            " \"features\": {\"W2220\": [\"building\"], \"W1306\": [\"stream\", \"building\"]},"
            " \"elevation\": {\"W2314\": 2, \"W2315\": 1},"
            " \"edge_elevation\": {\"south\": 0, \"west\": 1},"
            " \"hexsides\": {\"W1725/W1726\": \"hedgerow\", \"W2315-W2314\": \"regular slope\","
            "   \"E0426/E0427\": [\"creek\", \"bridge\"]},"
            " \"roads\": {\"W0201/W0301\": \"major\", \"W0301/W0302\": \"minor\"}}");
    CHECK_EQ(map.terrain[at("W2314")], BAR_T_ORCHARD);
    CHECK_EQ(map.terrain[at("W1919")], BAR_T_MARSH_WOODS);
    CHECK_EQ(map.terrain[at("W1920")], BAR_T_OPEN);
    CHECK_EQ(map.features[at("W1306")], BAR_HF_STREAM | BAR_HF_BUILDING);
    CHECK_EQ(map.elevation[at("W2314")], 2);
    CHECK_EQ(map.edge_elevation[MK_EDGE_SOUTH], 0);
    CHECK_EQ(map.edge_elevation[MK_EDGE_WEST], 1);
    CHECK_EQ(map.edge_elevation[MK_EDGE_NORTH], BAR_EDGE_OPEN);
    /* A hexside reads the same from either side. */
    CHECK_EQ(bar_hexside(&map, at("W1725"), at("W1726")), BAR_HS_HEDGEROW);
    CHECK_EQ(bar_hexside(&map, at("W1726"), at("W1725")), BAR_HS_HEDGEROW);
    CHECK_EQ(bar_hexside(&map, at("W2314"), at("W2315")), BAR_HS_REGULAR_SLOPE);
    CHECK_EQ(bar_hexside(&map, at("E0427"), at("E0426")), BAR_HS_CREEK | BAR_HS_BRIDGE);
    CHECK_EQ(bar_hexside(&map, at("W1725"), at("W1727")), 0);   /* not adjacent */
    CHECK_EQ(bar_road(&map, at("W0301"), at("W0201")), BAR_ROAD_MAJOR);
    CHECK_EQ(bar_road(&map, at("W0302"), at("W0301")), BAR_ROAD_MINOR);
    CHECK_EQ(bar_road(&map, at("W0201"), at("W0302")), 0);
    CHECK_EQ(map.features[at("W0301")], BAR_HF_MAJOR_ROAD | BAR_HF_MINOR_ROAD);
    CHECK_EQ(map.features[at("W0201")], BAR_HF_MAJOR_ROAD);
    char buf[BAR_HEXSIDE_LABEL_MAX];
    CHECK_STR(bar_hexside_label(&grid, at("E3111"), at("E3011"), buf), "E3011/E3111");
    CHECK_STR(bar_terrain_name(BAR_T_MARSH_WOODS), "marsh/woods");
    CHECK_STR(bar_hexside_name(BAR_HS_GENTLE_SLOPE), "gentle slope");
    CHECK(bar_hexside_name(BAR_HS_MAJOR_ROAD) == NULL);

    load_bad("{\"terrain\": {\"W2314\": \"lava\"}}",
             "map.terrain.W2314: unknown terrain \"lava\" (known: open, grade, orchard");
    load_bad("{\"terrain\": {\"W4014\": \"woods\"}}", "map.terrain.W4014: 'W4014': sheet W has columns 01-39");
    load_bad("{\"terrain\": {\"X0101\": \"woods\"}}", "map.terrain.X0101: 'X0101' is off the map");
    load_bad("{\"terrain\": {\"E0152\": \"woods\"}}", "map.terrain.E0152: 'E0152': rows are 01-51");
    load_bad("{\"terrain\": [\"woods\"]}", "map.terrain: expected an object");
    load_bad("{\"elevation\": {\"W2314\": 31}}", "map.elevation.W2314: 31 is not a level: an integer 0..30");
    load_bad("{\"elevation\": {\"W2314\": \"high\"}}", "map.elevation.W2314: \"high\" is not a level");
    load_bad("{\"elevation\": {\"W2314\": -1}}", "map.elevation.W2314: -1 is not a level");
    load_bad("{\"edge_elevation\": {\"up\": 0}}", "map.edge_elevation.up: 'up' is not an edge");
    load_bad("{\"features\": {\"W2220\": [\"church\"]}}", "map.features.W2220[0]: unknown feature \"church\"");
    load_bad("{\"features\": {\"W2220\": [\"building\", \"building\"]}}",
             "map.features.W2220[1]: \"building\" is given twice");
    load_bad("{\"features\": {\"W2220\": \"building\"}}", "map.features.W2220: expected a list");
    load_bad("{\"hexsides\": {\"W1725/W1727\": \"hedgerow\"}}",
             "map.hexsides.W1725/W1727: W1725 and W1727 are not adjacent");
    load_bad("{\"hexsides\": {\"W1725\": \"hedgerow\"}}", "map.hexsides.W1725: 'W1725' is not a hexside");
    load_bad("{\"hexsides\": {\"W1725/\": \"hedgerow\"}}", "is not a hexside");
    load_bad("{\"hexsides\": {\"W1725/W1726/W1727\": \"hedgerow\"}}", "is not a hexside");
    load_bad("{\"hexsides\": {\"W1725/Q1726\": \"hedgerow\"}}", "map.hexsides.W1725/Q1726: 'Q1726' is off the map");
    load_bad("{\"hexsides\": {\"W1725/W1726\": \"hedgerow\", \"W1726/W1725\": \"creek\"}}",
             "map.hexsides.W1726/W1725: this hexside is already given");
    load_bad("{\"hexsides\": {\"W1725/W1726\": \"wall\"}}",
             "map.hexsides.W1725/W1726: unknown hexside terrain \"wall\" (known: bridge, creek");
    load_bad("{\"hexsides\": {\"W1725/W1726\": []}}", "map.hexsides.W1725/W1726: expected a hexside terrain");
    load_bad("{\"hexsides\": {\"W1725/W1726\": [\"creek\", \"creek\"]}}", "\"creek\" is given twice");
    load_bad("{\"elevation\": {\"W1725\": 1}, \"hexsides\": {\"W1725/W1726\": [\"regular slope\", \"gentle slope\"]}}",
             "map.hexsides.W1725/W1726: a slope is regular or gentle, not both");
    load_bad("{\"hexsides\": {\"W1725/W1726\": \"gentle slope\"}}",
             "map.hexsides.W1725/W1726: a slope between two hexes of the same elevation (0)");
    load_bad("{\"roads\": {\"W0201/W0301\": \"paved\"}}", "map.roads.W0201/W0301: \"paved\" is not \"major\" or \"minor\"");
    load_bad("{\"roads\": {\"W0201/W0301\": \"major\", \"W0301/W0201\": \"minor\"}}",
             "map.roads.W0301/W0201: this hexside's road is already given");
    load_bad("{\"hexside\": {}}", "map.hexside: unknown field");
    load_bad("[]", "map: expected an object");

    mk_grid pointy;
    char gerr[100];
    mk_error err = {0};
    CHECK_EQ(mk_grid_init(&pointy, MK_POINTY, true, 5, 5, gerr, sizeof gerr), 0);
    json_t *j = json_object();
    CHECK_EQ(bar_map_parse(&map, &pointy, j, &err), -1);
    CHECK(strstr(err.msg, "map.orientation") != NULL);
    json_decref(j);
}

/* Random maps (fixed seed): the answer does not depend on which unit looks
 * (the walk, the features and the blockers are the same both ways), and
 * a unit on a reverse slope never sees the other (A3) unless both are at
 * the same crest hexside (B exception). */
static uint32_t rnd_state = 12345;
static uint32_t rnd(uint32_t n)
{
    rnd_state = rnd_state * 1103515245u + 12345u;
    return (rnd_state >> 8) % n;
}

static void random_lines(void)
{
    int size = mk_grid_size(&grid);
    int asym = 0, a3 = 0, blocked = 0, features = 0, bad_feature = 0;
    for (int round = 0; round < 20; round++) {
        memset(&map, 0, sizeof map);
        map.grid = grid;
        for (int e = 0; e < 4; e++)
            map.edge_elevation[e] = (int8_t)(rnd(3) == 0 ? BAR_EDGE_OPEN : (int)rnd(2));
        for (int h = 0; h < size; h++) {
            map.elevation[h] = (int8_t)(rnd(4) == 0 ? rnd(4) : 0);
            map.terrain[h] = (uint8_t)(rnd(25) == 0 ? BAR_T_WOODS : BAR_T_OPEN);
        }
        for (int i = 0; i < 100; i++) {
            mk_hex a = (mk_hex)rnd((uint32_t)size), b;
            if (i % 2) {   /* short lines, where features and units meet */
                int col = mk_hex_col(&grid, a) + (int)rnd(13) - 6;
                int row = mk_hex_row(&grid, a) + (int)rnd(13) - 6;
                b = mk_hex_at(&grid, col, row);
                if (b == MK_NO_HEX)
                    continue;
            } else {
                b = (mk_hex)rnd((uint32_t)size);
            }
            bar_los_result r, q;
            mk_error err = {0};
            if (bar_los(&map, a, b, NULL, NULL, &r, &err) < 0 ||
                bar_los(&map, b, a, NULL, NULL, &q, &err) < 0) {
                fprintf(stderr, "bar_los: %s\n", err.msg);
                CHECK(false);
                continue;
            }
            if (r.clear != q.clear || r.nfeatures != q.nfeatures ||
                r.crest_adjacent != q.crest_adjacent)
                asym++;
            blocked += !r.clear;
            features += r.nfeatures;
            for (int f = 0; f < r.nfeatures; f++) {
                const bar_los_feature *ft = &r.features[f];
                if (ft->count < 2 || map.elevation[ft->first] < ft->level ||
                    map.elevation[ft->last] < ft->level || (ft->crest != (ft->count % 2 == 0)))
                    bad_feature++;
                if ((ft->slope[0] == BAR_SLOPE_REVERSE || ft->slope[1] == BAR_SLOPE_REVERSE) &&
                    r.clear && !r.crest_adjacent)
                    a3++;
            }
        }
    }
    CHECK_EQ(asym, 0);
    CHECK_EQ(a3, 0);
    CHECK_EQ(bad_feature, 0);
    /* The sample exercises both answers and many features. */
    CHECK(blocked > 100 && blocked < 1900);
    CHECK(features > 200);
}

/* core/los mk_los_walk (added for 5.4b A1): between two hexes of the map
 * it gives exactly mk_los_trace's steps; from off the map it gives the
 * same steps in the same order once it is on the map. */
typedef struct steps {
    int n;
    mk_los_step st[MK_LOS_MAX];
} steps;

static bool keep(mk_los_step st, void *user)
{
    steps *s = user;
    if (s->n < MK_LOS_MAX)
        s->st[s->n++] = st;
    return true;
}

static void walk(void)
{
    const char *pairs[][2] = {{"E2920", "E2522"}, {"E2810", "E3513"}, {"W0101", "W3930"},
                              {"E1010", "E1211"}, {"W3905", "E0105"}};
    int mismatch = 0;
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        mk_hex a = at(pairs[i][0]), b = at(pairs[i][1]);
        mk_los_path p;
        steps s = {0};
        CHECK(mk_los_trace(&grid, a, b, &p) >= 0);
        mk_los_walk(&grid, mk_hex_cube(&grid, a), mk_hex_cube(&grid, b), keep, &s);
        mismatch += s.n != p.n;
        for (int k = 0; k < s.n && k < p.n; k++)
            mismatch += s.st[k].a != p.step[k].a || s.st[k].b != p.step[k].b;
    }
    CHECK_EQ(mismatch, 0);
    /* E3501 to E3511 extended north off the map: E3501 (the on-map end)
     * comes first, then E3502. */
    mk_cube c = mk_hex_cube(&grid, at("E3501"));
    steps s = {0};
    mk_los_walk(&grid, (mk_cube){c.q, c.r - 3, c.s + 3}, mk_hex_cube(&grid, at("E3511")), keep, &s);
    CHECK_EQ(s.n, 10);
    CHECK(s.n > 1 && s.st[0].a == at("E3501") && s.st[1].a == at("E3502"));
    /* Not a cube coordinate: nothing. */
    s.n = 0;
    mk_los_walk(&grid, (mk_cube){0, 0, 1}, c, keep, &s);
    CHECK_EQ(s.n, 0);
}

int main(void)
{
    make_grid();
    walk();
    example_1();
    example_2();
    example_3();
    example_4();
    example_5();
    example_6();
    terrain();
    spine();
    units();
    parser();
    random_lines();
    return check_done("test_bar_los");
}
