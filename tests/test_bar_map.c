/* test_bar_map.c - data/bar/map.json, our original schematic of the
 * Monmouth map (made by data/bar/tools/make-map.mjs; we do not have the
 * published map), read through bar_data_read and bar_map_parse: it says it
 * is an estimate; it holds what the Monmouth exclusive rules say of the
 * ground - the main road from E3915 through W2220 to W0201 (7.1d C, 7.0c B),
 * the 3.4c exits W0114 and W0124, Maxwell's road hexes (7.1b), the orchard
 * (7.1d B), the one Hedgerow from W1725 to W2422 (5.3c), Dickinson's woods
 * (7.2b), the Mill Pond (5.2i); every hex the scenario files name is a hex
 * a unit can stand in; and the placements that are ours (bridges where
 * roads cross creeks, Perrine's Hill and Combs Hill above the ravine). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "check.h"
#include "core/catalog.h"
#include "rules/bar/bar.h"

static mk_grid grid;
static bar_map map;   /* about 55 KiB: static */
static json_t *root;  /* the whole file */

static mk_hex H(const char *label)
{
    mk_hex h = MK_NO_HEX;
    char e[160];
    if (mk_hex_parse(&grid, label, &h, e, sizeof e) < 0)
        fprintf(stderr, "bad test hex %s: %s\n", label, e);
    return h;
}

/* Reads data/bar/map.json; the grid comes from its own map fields, which
 * must be the two 39-column sheets of 51 rows the text's labels need. */
static bool load(void)
{
    const char *path = NULL;
    char buf[512];
    mk_error err = {0};
    root = bar_data_read(&path, "map.json", buf, sizeof buf, &err);
    if (!root) {
        fprintf(stderr, "map.json: %s\n", err.msg);
        CHECK(false);
        return false;
    }
    json_t *m = json_object_get(root, "map");
    json_t *sheets = json_object_get(m, "sheets");
    CHECK_STR(json_string_value(json_object_get(m, "orientation")), "flat");
    CHECK_STR(json_string_value(json_object_get(m, "shifted")), "even");
    CHECK_EQ(json_integer_value(json_object_get(m, "rows")), 51);
    CHECK_EQ(json_array_size(sheets), 2);
    mk_sheet sh[2];
    for (size_t i = 0; i < 2; i++) {
        json_t *s = json_array_get(sheets, i);
        const char *sid = json_string_value(json_object_get(s, "id"));
        sh[i].id = sid ? sid[0] : '?';
        sh[i].cols = (int16_t)json_integer_value(json_object_get(s, "cols"));
        CHECK_EQ(sh[i].cols, 39);
    }
    CHECK_EQ(sh[0].id, 'W');
    CHECK_EQ(sh[1].id, 'E');
    char gerr[160];
    if (mk_grid_init_sheets(&grid, true, sh, 2, 51, gerr, sizeof gerr) < 0) {
        fprintf(stderr, "grid: %s\n", gerr);
        CHECK(false);
        return false;
    }
    int rc = bar_map_parse(&map, &grid, m, &err);
    if (rc < 0)
        fprintf(stderr, "bar_map_parse: %s\n", err.msg);
    CHECK_EQ(rc, 0);
    return rc == 0;
}

/* The file says what it is: an estimate, our drawing, not the published map. */
static void test_provenance(void)
{
    CHECK(json_is_true(json_object_get(root, "estimate")));
    const char *src = json_string_value(json_object_get(root, "source"));
    CHECK(src && strstr(src, "ORIGINAL"));
    CHECK(src && strstr(src, "NOT the published map"));
    CHECK(json_array_size(json_object_get(root, "notes")) >= 3);
}

/* ---- roads ------------------------------------------------------------- */

enum { ANY_ROAD = 3 };   /* mask of (1 << BAR_ROAD_MAJOR) ... */
#define KIND_BIT(k) (1 << ((k) - 1))

/* Least road hexsides from a to b over roads of the kinds in mask (bit
 * BAR_ROAD_MAJOR-1, BAR_ROAD_MINOR-1), never entering avoid; -1 if none. */
static int road_steps(mk_hex a, mk_hex b, int mask, mk_hex avoid)
{
    static int16_t dist[MK_MAX_HEX];
    static mk_hex queue[MK_MAX_HEX];
    int n = mk_grid_size(&grid), head = 0, tail = 0;
    for (int i = 0; i < n; i++)
        dist[i] = -1;
    if (a == MK_NO_HEX || b == MK_NO_HEX || a == avoid)
        return -1;
    dist[a] = 0;
    queue[tail++] = a;
    while (head < tail) {
        mk_hex h = queue[head++];
        if (h == b)
            return dist[h];
        for (int d = 0; d < 6; d++) {
            mk_hex x = mk_hex_neighbor(&grid, h, d);
            int k = x == MK_NO_HEX ? 0 : bar_road(&map, h, x);
            if (!k || !(mask & KIND_BIT(k)) || x == avoid || dist[x] >= 0)
                continue;
            dist[x] = (int16_t)(dist[h] + 1);
            queue[tail++] = x;
        }
    }
    return -1;
}

static bool road_hex(mk_hex h)
{
    return h != MK_NO_HEX && (map.features[h] & (BAR_HF_MAJOR_ROAD | BAR_HF_MINOR_ROAD));
}

static void test_roads(void)
{
    mk_hex e3915 = H("E3915"), w2220 = H("W2220"), w0201 = H("W0201");
    int major = KIND_BIT(BAR_ROAD_MAJOR);
    /* 7.1d C: continuous road hexes from W2220 to E3915; the main
     * road goes on to W0201 (the American entry, 7.2b-7.4b). */
    CHECK(road_steps(e3915, w2220, major, MK_NO_HEX) > 0);
    CHECK(road_steps(w2220, w0201, major, MK_NO_HEX) > 0);
    /* ... through W2220: without it the major road does not join them. */
    CHECK(road_steps(e3915, w0201, major, MK_NO_HEX) > 0);
    CHECK_EQ(road_steps(e3915, w0201, major, w2220), -1);
    /* The entries are on the map's edge (east, north). */
    CHECK_EQ(mk_hex_edge_distance(&grid, e3915, MK_EDGE_EAST), 0);
    CHECK_EQ(mk_hex_edge_distance(&grid, w0201, MK_EDGE_NORTH), 0);

    /* 3.4c A: W0114 and W0124 are road hexes on the west edge, joined to
     * the road network. */
    const char *exits[] = {"W0114", "W0124"};
    for (int i = 0; i < 2; i++) {
        mk_hex h = H(exits[i]);
        CHECK(road_hex(h));
        CHECK_EQ(mk_hex_edge_distance(&grid, h, MK_EDGE_WEST), 0);
        CHECK(road_steps(h, w0201, ANY_ROAD, MK_NO_HEX) > 0);
        CHECK(road_steps(h, e3915, ANY_ROAD, MK_NO_HEX) > 0);
    }

    /* 7.1b: Maxwell's column faces "the easternmost road hexside in their
     * hex": each hex has a road hexside to the east (NE or SE). */
    const char *nj[] = {"E0623", "E0723", "E0823", "E0923", "E1023"};
    for (int i = 0; i < 5; i++) {
        mk_hex h = H(nj[i]);
        CHECK(road_hex(h));
        CHECK(bar_road(&map, h, mk_hex_neighbor(&grid, h, 0)) ||
              bar_road(&map, h, mk_hex_neighbor(&grid, h, 1)));
    }

    /* Ours: the 7.3d B advance track lies along the main road, in order
     * (each hex farther from E3915 by road than the one before). */
    const char *track[] = {"E1623", "E0623", "E0627", "W3425", "W2823",
                           "W2018", "W1615", "W1212", "W1306", "W0201"};
    int last = 0;
    for (int i = 0; i < 10; i++) {
        mk_hex h = H(track[i]);
        CHECK(map.features[h] & BAR_HF_MAJOR_ROAD);
        int s = road_steps(e3915, h, major, MK_NO_HEX);
        CHECK(s > last);
        last = s;
    }

    /* Roads run hex to hex; a road across a creek has a bridge (5.3a), and a
     * bridge is a road crossing a creek. Road hexes are never lake or marsh
     * (5.2e, 5.2i). */
    int bridges = 0, road_sides = 0;
    for (mk_hex h = 0; h < mk_grid_size(&grid); h++) {
        if (road_hex(h)) {
            CHECK(map.terrain[h] != BAR_T_LAKE && map.terrain[h] != BAR_T_MARSH &&
                  map.terrain[h] != BAR_T_MARSH_WOODS);
        }
        for (int d = 0; d < 3; d++) {
            mk_hex x = mk_hex_neighbor(&grid, h, d);
            if (x == MK_NO_HEX)
                continue;
            unsigned s = bar_hexside(&map, h, x);
            bool road = bar_road(&map, h, x) != 0;
            road_sides += road;
            if (road)
                CHECK(road_hex(h) && road_hex(x));
            if (road && (s & BAR_HS_CREEK))
                CHECK(s & BAR_HS_BRIDGE);
            if (s & BAR_HS_BRIDGE) {
                CHECK(road && (s & BAR_HS_CREEK));
                bridges++;
            }
        }
    }
    CHECK(road_sides > 100);
    CHECK(bridges >= 3);   /* the West, Middle and East ravines */
    /* The West Ravine bridge at W2220 and the East Ravine bridge at
     * Maxwell's head (ours). */
    CHECK((bar_hexside(&map, H("W2120"), w2220) & (BAR_HS_CREEK | BAR_HS_BRIDGE)) ==
          (BAR_HS_CREEK | BAR_HS_BRIDGE));
    CHECK((bar_hexside(&map, H("E1023"), H("E1123")) & (BAR_HS_CREEK | BAR_HS_BRIDGE)) ==
          (BAR_HS_CREEK | BAR_HS_BRIDGE));
}

/* ---- the orchard (5.2c, 7.1d B) ---------------------------------------- */

static void test_orchard(void)
{
    const char *path = NULL;
    char buf[512];
    mk_error err = {0};
    json_t *s1 = bar_data_read(&path, "scenarios/1-lees-repulse.json", buf, sizeof buf, &err);
    CHECK(s1 != NULL);
    json_t *list = json_object_get(json_object_get(s1, "victory"), "orchard");
    CHECK_EQ(json_array_size(list), 4);
    for (size_t i = 0; i < json_array_size(list); i++) {
        mk_hex h = H(json_string_value(json_array_get(list, i)));
        CHECK(h != MK_NO_HEX && map.terrain[h] == BAR_T_ORCHARD);
    }
    json_decref(s1);
    /* 7.1d B: "all the hexes comprising the orchard": those four, no more. */
    int n = 0;
    for (mk_hex h = 0; h < mk_grid_size(&grid); h++)
        n += map.terrain[h] == BAR_T_ORCHARD;
    CHECK_EQ(n, 4);
}

/* ---- the Hedgerow (5.3c) ----------------------------------------------- */

#define MAX_HEDGE 64

/* Two hexsides (a0|a1, b0|b1) meet at a corner: they share one hex and
 * their other two hexes are neighbours (the three meet at that corner). */
static bool sides_touch(mk_hex a0, mk_hex a1, mk_hex b0, mk_hex b1)
{
    mk_hex x, y;   /* the two hexes that are not shared */
    if (a0 == b0 && a1 != b1) {
        x = a1;
        y = b1;
    } else if (a0 == b1 && a1 != b0) {
        x = a1;
        y = b0;
    } else if (a1 == b0 && a0 != b1) {
        x = a0;
        y = b1;
    } else if (a1 == b1 && a0 != b0) {
        x = a0;
        y = b0;
    } else {
        return false;
    }
    return mk_hex_adjacent(&grid, x, y);
}

static void test_hedgerow(void)
{
    mk_hex a[MAX_HEDGE], b[MAX_HEDGE];
    int n = 0;
    for (mk_hex h = 0; h < mk_grid_size(&grid); h++)
        for (int d = 0; d < 3; d++) {
            mk_hex x = mk_hex_neighbor(&grid, h, d);
            if (x == MK_NO_HEX || !(bar_hexside(&map, h, x) & BAR_HS_HEDGEROW))
                continue;
            CHECK(n < MAX_HEDGE);
            if (n < MAX_HEDGE) {
                a[n] = h;
                b[n] = x;
                n++;
            }
        }
    CHECK(n >= 7);   /* W1725 to W2422 is 7 columns */
    /* Every hedgerow hexside is one chain: two ends, the rest joined to
     * exactly two others, and all reached from one end. So there is no
     * hedgerow anywhere else (5.3c: "the only hedgerow hexsides"). */
    int deg[MAX_HEDGE] = {0}, ends[2] = {-1, -1}, nends = 0;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++)
            if (i != j && sides_touch(a[i], b[i], a[j], b[j]))
                deg[i]++;
        CHECK(deg[i] == 1 || deg[i] == 2);
        if (deg[i] == 1) {
            if (nends < 2)
                ends[nends] = i;
            nends++;
        }
    }
    CHECK_EQ(nends, 2);
    if (nends != 2)
        return;
    bool seen[MAX_HEDGE] = {false};
    int stack[MAX_HEDGE], top = 0, reached = 0;
    stack[top++] = ends[0];
    seen[ends[0]] = true;
    while (top > 0) {
        int i = stack[--top];
        reached++;
        for (int j = 0; j < n; j++)
            if (!seen[j] && sides_touch(a[i], b[i], a[j], b[j])) {
                seen[j] = true;
                stack[top++] = j;
            }
    }
    CHECK_EQ(reached, n);
    /* One end is a side of W1725, the other a side of W2422. */
    mk_hex w1725 = H("W1725"), w2422 = H("W2422");
    int e0 = ends[0], e1 = ends[1];
    bool e0_1725 = a[e0] == w1725 || b[e0] == w1725, e1_1725 = a[e1] == w1725 || b[e1] == w1725;
    bool e0_2422 = a[e0] == w2422 || b[e0] == w2422, e1_2422 = a[e1] == w2422 || b[e1] == w2422;
    CHECK((e0_1725 && e1_2422) || (e1_1725 && e0_2422));
    /* The hedgerow is a hedge, not a creek or a road crossing. */
    for (int i = 0; i < n; i++) {
        CHECK(!(bar_hexside(&map, a[i], b[i]) & BAR_HS_CREEK));
        CHECK(bar_road(&map, a[i], b[i]) == 0);
    }
}

/* ---- every hex the scenario files name --------------------------------- */

#define MAX_NAMED 256
static mk_hex named[MAX_NAMED];
static int nnamed;

static bool is_label(const char *s)
{
    return s && strlen(s) == 5 && (s[0] == 'W' || s[0] == 'E') && s[1] >= '0' && s[1] <= '9' &&
           s[2] >= '0' && s[2] <= '9' && s[3] >= '0' && s[3] <= '9' && s[4] >= '0' && s[4] <= '9';
}

static void add_named(const char *label)
{
    mk_hex h = H(label);
    CHECK(h != MK_NO_HEX);   /* on the two sheets */
    for (int i = 0; i < nnamed; i++)
        if (named[i] == h)
            return;
    if (h != MK_NO_HEX && nnamed < MAX_NAMED)
        named[nnamed++] = h;
}

/* Every string in v that is a hex label (set-up hexes, "of", "except",
 * entries, victory hexes, the advance track). */
static void collect(json_t *v)
{
    if (json_is_string(v) && is_label(json_string_value(v))) {
        add_named(json_string_value(v));
    } else if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v); i++)
            collect(json_array_get(v, i));
    } else if (json_is_object(v)) {
        const char *k;
        json_t *x;
        json_object_foreach(v, k, x) collect(x);
    }
}

static void test_named_hexes(void)
{
    char dir[512];
    snprintf(dir, sizeof dir, "%s/data/bar/scenarios", mk_data_dir());
    DIR *d = opendir(dir);
    CHECK(d != NULL);
    int files = 0;
    struct dirent *e;
    while (d && (e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 5, ".json") != 0)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        json_error_t je;
        json_t *s = json_load_file(path, 0, &je);
        CHECK(s != NULL);
        if (!s)
            continue;
        files++;
        const char *parts[] = {"setup", "reinforcements", "victory", "variants"};
        for (int i = 0; i < 4; i++)
            collect(json_object_get(s, parts[i]));
        json_decref(s);
    }
    if (d)
        closedir(d);
    CHECK(files >= 4);
    CHECK(nnamed >= 80);
    /* Named by the text outside the scenario files: 3.4c's exits, 5.3c's
     * hedgerow ends. */
    const char *text[] = {"W0114", "W0124", "W1725", "W2422"};
    for (int i = 0; i < 4; i++)
        add_named(text[i]);
    /* A unit can stand there: not the Mill Pond (5.2i), and not marsh,
     * which artillery may not enter (5.2e) and which the set-ups (often
     * artillery, "Unlimbered") never mention. */
    for (int i = 0; i < nnamed; i++) {
        int t = map.terrain[named[i]];
        if (t == BAR_T_LAKE || t == BAR_T_MARSH || t == BAR_T_MARSH_WOODS) {
            char l[MK_HEX_LABEL_MAX];
            fprintf(stderr, "  %s is %s\n", mk_hex_label(&grid, named[i], l), bar_terrain_name(t));
            CHECK(false);
        }
    }
    /* 7.2b: Dickinson's four militia units set up "in a woods hex within 1
     * hex of W2208": room for all four in woods. */
    mk_hex w2208 = H("W2208");
    int woods = 0;
    for (mk_hex h = 0; h < mk_grid_size(&grid); h++)
        woods += mk_hex_distance(&grid, h, w2208) <= 1 && map.terrain[h] == BAR_T_WOODS;
    CHECK(map.terrain[w2208] == BAR_T_WOODS);
    CHECK(woods >= 4);
}

/* ---- ground: the pond, the ravines, the hills --------------------------- */

static void test_ground(void)
{
    int lake = 0, marsh = 0, woods = 0, creek = 0, slopes = 0;
    for (mk_hex h = 0; h < mk_grid_size(&grid); h++) {
        lake += map.terrain[h] == BAR_T_LAKE;
        marsh += map.terrain[h] == BAR_T_MARSH || map.terrain[h] == BAR_T_MARSH_WOODS;
        woods += map.terrain[h] == BAR_T_WOODS;
        for (int d = 0; d < 3; d++) {
            mk_hex x = mk_hex_neighbor(&grid, h, d);
            if (x == MK_NO_HEX)
                continue;
            unsigned s = bar_hexside(&map, h, x);
            creek += (s & BAR_HS_CREEK) != 0;
            if (s & (BAR_HS_REGULAR_SLOPE | BAR_HS_GENTLE_SLOPE)) {
                slopes++;
                CHECK(map.elevation[h] != map.elevation[x]);   /* 5.3d-e */
            }
        }
    }
    CHECK(lake >= 4);     /* 5.2i the Mill Pond */
    CHECK(marsh >= 50);   /* the ravines' floors */
    CHECK(woods >= 50);
    CHECK(creek >= 100);  /* three ravines across the map */
    CHECK(slopes >= 20);
    /* Ours: Washington's line of 7.2b stands on Perrine's Hill, above the
     * West Ravine bridge; Combs Hill (Greene, W1527) is higher still and
     * above the British cavalry facing it (W2328). */
    const char *line[] = {"W1408", "W1409", "W1613", "W1717", "W1817", "W1818", "W1917",
                          "W1620", "W1719", "W1518", "W1419", "W1619", "W1718", "W1819",
                          "W1918", "W2018", "W2016", "W2017"};
    mk_hex w2220 = H("W2220");
    for (int i = 0; i < 18; i++)
        CHECK(map.elevation[H(line[i])] >= 3 && map.elevation[H(line[i])] > map.elevation[w2220]);
    CHECK(map.elevation[H("W1527")] > map.elevation[H("W1918")]);
    CHECK(map.elevation[H("W1527")] > map.elevation[H("W2328")]);
    /* The line of sight model accepts the map: Knox's guns (W1918) see the
     * British guns before the hedgerow (W2222), and a line from the
     * American line down to the bridge is traced without error. */
    bar_los_result r;
    mk_error err = {0};
    CHECK_EQ(bar_los(&map, H("W1918"), H("W2222"), NULL, NULL, &r, &err), 0);
    CHECK(r.clear);
    CHECK_EQ(bar_los(&map, H("W1620"), w2220, NULL, NULL, &r, &err), 0);
}

int main(void)
{
    if (load()) {
        test_provenance();
        test_roads();
        test_orchard();
        test_hedgerow();
        test_named_hexes();
        test_ground();
    }
    json_decref(root);
    return check_done("test_bar_map");
}
