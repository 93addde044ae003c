/* test_scenario.c - the scenario loader against a small fake ruleset: the
 * good fixtures load with every field right, each bad one is refused with
 * a message naming the file, the JSON path and the offending value. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/ruleset.h"
#include "core/scenario.h"

#define DIR "tests/data/scenarios/"

static const char *const terrains[] = {"clear", "forest", "hill"};
static const char *const kinds[] = {"regular", "leader"};
enum { T_CLEAR, T_FOREST, T_HILL };
enum { K_REGULAR, K_LEADER };

/* The fake ruleset's own check: at most one regular per hex at set-up. */
static int fake_check(const mk_scenario *sc, mk_error *err)
{
    for (int i = 0; i < sc->nunits; i++)
        for (int j = 0; j < i; j++)
            if (sc->units[i].kind == K_REGULAR && sc->units[j].kind == K_REGULAR &&
                sc->units[i].hex != MK_NO_HEX && sc->units[i].hex == sc->units[j].hex) {
                char label[MK_HEX_LABEL_MAX];
                return mk_error_set(err, "scenario_invalid",
                                    "units[%d].hex: two regulars in %s (stacking)", i,
                                    mk_hex_label(&sc->map.grid, sc->units[i].hex, label));
            }
    return 0;
}

static const mk_ruleset fake = {
    .id = "test",
    .name = "Test",
    .terrains = terrains,
    .nterrains = 3,
    .kinds = kinds,
    .nkinds = 2,
    .check_scenario = fake_check,
};
static const mk_ruleset other = {.id = "other", .name = "Other"};
static const mk_ruleset *const rulesets[] = {&other, &fake};

static mk_hex hex_of(const mk_scenario *sc, const char *label)
{
    mk_hex h = MK_NO_HEX;
    char e[128];
    CHECK(mk_hex_parse(&sc->map.grid, label, &h, e, sizeof e) == 0);
    return h;
}

static void test_good(void)
{
    mk_error err = {0};
    mk_scenario *sc = mk_scenario_load_file(DIR "good.json", rulesets, 2, &err);
    CHECK(sc != NULL);
    if (!sc) {
        fprintf(stderr, "good.json: %s\n", err.msg);
        return;
    }
    CHECK_STR(sc->source, DIR "good.json");
    CHECK(sc->rs == &fake);
    CHECK_STR(sc->id, "test/good");
    CHECK_STR(sc->title, "A good scenario");
    CHECK_EQ(sc->map.grid.orient, MK_POINTY);
    CHECK_EQ(sc->map.grid.shifted_even, 1);
    CHECK_EQ(sc->map.grid.cols, 13);
    CHECK_EQ(sc->map.grid.rows, 9);
    CHECK_EQ(sc->map.grid.nsheets, 0);
    CHECK_EQ(sc->map.terrain[hex_of(sc, "F5")], T_FOREST);
    CHECK_EQ(sc->map.terrain[hex_of(sc, "G5")], T_HILL);
    CHECK_EQ(sc->map.terrain[hex_of(sc, "M9")], T_FOREST);   /* given as "m9" */
    CHECK_EQ(sc->map.terrain[hex_of(sc, "A1")], T_CLEAR);
    int forest = 0;
    for (int h = 0; h < mk_grid_size(&sc->map.grid); h++)
        forest += sc->map.terrain[h] != T_CLEAR;
    CHECK_EQ(forest, 3);

    CHECK_EQ(sc->nsides, 2);
    CHECK_STR(sc->sides[0].id, "american");
    CHECK_EQ(sc->sides[0].cap, 4);
    CHECK_EQ(sc->sides[0].home, MK_EDGE_SOUTH);
    CHECK_STR(sc->sides[1].id, "british");
    CHECK_EQ(sc->sides[1].cap, 5);
    CHECK_EQ(sc->sides[1].home, MK_EDGE_NORTH);
    CHECK_EQ(sc->first, 1);
    CHECK_EQ(sc->turns, 12);

    CHECK_EQ(sc->nunits, 4);
    const mk_sc_unit *u = sc->units;
    CHECK_STR(u[0].id, "A-4-1");
    CHECK_STR(u[0].name, "");
    CHECK_EQ(u[0].side, 0);
    CHECK_EQ(u[0].kind, K_REGULAR);
    CHECK_EQ(u[0].mp, 4);
    CHECK_EQ(u[0].mp_start, 4);
    CHECK_EQ(u[0].hex, hex_of(sc, "E3"));
    CHECK_EQ(u[0].hex, 2 * 13 + 4);   /* row 3, column E, 0-based */
    CHECK_EQ(u[0].nrating, 0);
    CHECK_STR(u[1].name, "Washington");
    CHECK_EQ(u[1].kind, K_LEADER);
    CHECK_EQ(u[1].mp, 0);
    CHECK_EQ(u[1].mp_start, 0);
    CHECK_EQ(u[1].nrating, 2);
    CHECK_EQ(u[1].rating[0], 2);
    CHECK_EQ(u[1].rating[1], 2);
    CHECK_EQ(u[1].hex, u[0].hex);
    CHECK_EQ(u[2].side, 1);
    CHECK_EQ(u[2].mp, 3);
    CHECK_EQ(u[2].mp_start, 4);
    CHECK_EQ(u[2].hex, 0);
    CHECK_EQ(u[3].hex, MK_NO_HEX);
    CHECK_EQ(u[3].nrating, 1);
    CHECK_EQ(u[3].rating[0], 1);

    CHECK_EQ(mk_scenario_unit(sc, "B-1"), 2);
    CHECK_EQ(mk_scenario_unit(sc, "nobody"), -1);
    CHECK_EQ(mk_scenario_side(sc, "british"), 1);
    CHECK_EQ(mk_scenario_side(sc, "french"), -1);
    json_t *uj = mk_scenario_unit_json(sc, 1);
    CHECK(uj && strcmp(json_string_value(json_object_get(uj, "name")), "Washington") == 0);
    CHECK(mk_scenario_unit_json(sc, 4) == NULL);
    CHECK(json_object_get(sc->json, "victory") != NULL);
    mk_scenario_free(sc);
}

static void test_sheets(void)
{
    mk_error err = {0};
    mk_scenario *sc = mk_scenario_load_file(DIR "good_sheets.json", rulesets, 2, &err);
    CHECK(sc != NULL);
    if (!sc) {
        fprintf(stderr, "good_sheets.json: %s\n", err.msg);
        return;
    }
    const mk_grid *g = &sc->map.grid;
    CHECK_EQ(g->orient, MK_FLAT);
    CHECK_EQ(g->nsheets, 2);
    CHECK_EQ(g->sheets[0].id, 'W');
    CHECK_EQ(g->sheets[1].id, 'E');
    CHECK_EQ(g->cols, 20);
    CHECK_EQ(g->rows, 8);
    /* W0201: sheet W column 2 row 1; E0305: global column 10 + 3, row 5. */
    CHECK_EQ(hex_of(sc, "W0201"), 1);
    CHECK_EQ(hex_of(sc, "E0305"), 4 * 20 + 12);
    CHECK_EQ(sc->map.terrain[1], T_FOREST);
    CHECK_EQ(sc->map.terrain[4 * 20 + 12], T_HILL);
    CHECK_EQ(sc->units[0].hex, 0);
    CHECK_EQ(sc->units[1].hex, 7 * 20 + 19);
    char label[MK_HEX_LABEL_MAX];
    CHECK_STR(mk_hex_label(g, sc->units[1].hex, label), "E1008");
    CHECK_EQ(sc->sides[0].home, MK_EDGE_WEST);
    CHECK_EQ(sc->sides[1].home, MK_EDGE_EAST);
    CHECK_EQ(sc->first, 0);
    mk_scenario_free(sc);
}

/* Each bad fixture and what its message must contain (besides the file). */
static const struct {
    const char *file;
    const char *want[3];
} bad[] = {
    {"bad_syntax.json", {"bad_syntax.json:3:", NULL}},
    {"bad_dup_key.json", {"bad_dup_key.json:3:", "duplicate"}},
    {"bad_not_object.json", {"bad_not_object.json: ", "scenario object", "[\"ruleset\",\"test\"]"}},
    {"bad_missing_cols.json", {"bad_missing_cols.json: map.cols: missing"}},
    {"bad_missing_id.json", {"bad_missing_id.json: id: missing"}},
    {"bad_type_rows.json", {": map.rows: ", "integer", "\"9\""}},
    {"bad_ruleset.json", {": ruleset: ", "unknown ruleset 'chess'", "other, test"}},
    {"bad_terrain.json",
     {": map.terrain.F5: unknown terrain 'lava' (known: clear, forest, hill)"}},
    {"bad_terrain_label.json", {": map.terrain.Z99: ", "Z99"}},
    {"bad_kind.json", {": units[1].kind: unknown kind 'cavalry'", "regular, leader"}},
    {"bad_hex_off.json", {": units[0].hex: ", "N4"}},
    {"bad_hex_malformed.json", {": units[0].hex: ", "5F"}},
    {"bad_hex_type.json", {": units[0].hex: ", "5"}},
    {"bad_dup_unit.json", {": units[2].id: 'A-4-1' is already units[0]"}},
    {"bad_side.json", {": units[0].side: unknown side 'french'"}},
    {"bad_first.json", {": first: unknown side 'french'"}},
    {"bad_turns.json", {": turns: 0 "}},
    {"bad_sides_count.json", {": sides: 3 sides"}},
    {"bad_home.json", {": sides[1].home: ", "\"up\""}},
    {"bad_cap.json", {": sides[0].cap: -1 "}},
    {"bad_mp.json", {": units[0].mp: 12 "}},
    {"bad_mp_start.json", {": units[0].mp_start: 3 is below mp 4"}},
    {"bad_rating.json", {": units[1].rating: ", "[1,2,3]"}},
    {"bad_orientation.json", {": map.orientation: ", "\"diagonal\""}},
    {"bad_map_too_big.json", {": map: 100 x 100 "}},
    {"bad_long_id.json", {": units[0].id: 'XXXX", "too long"}},
    {"bad_long_title.json", {": title: 'TTTT", "too long"}},
    {"bad_stacking.json", {"bad_stacking.json: units[2].hex: two regulars in E3"}},
    {"bad_sheets_pointy.json", {": map.sheets: ", "flat"}},
    {"bad_too_many_units.json", {": units: 257 units", "256"}},
    {"bad_sheet_cols.json", {": map.cols: 30, ", "20 columns"}},
    {"bad_sheet_dup.json", {": map.sheets[1].id: 'W' is already map.sheets[0]"}},
    {"bad_sheet_hex.json", {": units[1].hex: ", "X0101"}},
    {"bad_terrain_twice.json", {": map.terrain.f5: 'f5' is F5, ", "already given"}},
    {"bad_side_dup.json", {": sides[1].id: 'american' is already sides[0]"}},
};

static void test_bad(void)
{
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char path[256];
        snprintf(path, sizeof path, DIR "%s", bad[i].file);
        mk_error err = {0};
        mk_scenario *sc = mk_scenario_load_file(path, rulesets, 2, &err);
        CHECK(sc == NULL);
        mk_scenario_free(sc);
        CHECK_STR(err.code, "scenario_invalid");
        int ok = strncmp(err.msg, path, strlen(path)) == 0;
        for (int k = 0; k < 3 && bad[i].want[k]; k++)
            ok = ok && strstr(err.msg, bad[i].want[k]) != NULL;
        CHECK(ok);
        if (!ok)
            fprintf(stderr, "  %s: got \"%s\"\n", bad[i].file, err.msg);
    }
}

static void test_misc(void)
{
    mk_error err = {0};
    CHECK(mk_scenario_load_file(DIR "no_such.json", rulesets, 2, &err) == NULL);
    CHECK_STR(err.code, "scenario_invalid");
    CHECK(strstr(err.msg, "cannot open '" DIR "no_such.json': No such file or directory") != NULL);

    /* Inline text, no source name, not NUL-terminated after len. */
    const char text[] = "{\"ruleset\": \"test\"} trailing";
    mk_error_clear(&err);
    CHECK(mk_scenario_parse(text, 19, NULL, rulesets, 2, &err) == NULL);
    CHECK(strncmp(err.msg, "(inline): id: missing", 21) == 0);
    mk_error_clear(&err);
    CHECK(mk_scenario_parse("", 0, "empty", rulesets, 2, &err) == NULL);
    CHECK(strncmp(err.msg, "empty:1:", 8) == 0);

    /* No rulesets known at all. */
    mk_error_clear(&err);
    CHECK(mk_scenario_load_file(DIR "good.json", NULL, 0, &err) == NULL);
    CHECK(strstr(err.msg, "ruleset: unknown ruleset 'test'") != NULL);

    /* from_json keeps its own reference. */
    json_error_t je;
    json_t *obj = json_load_file(DIR "good.json", 0, &je);
    CHECK(obj != NULL);
    mk_scenario *sc = mk_scenario_from_json(obj, "x", rulesets, 2, &err);
    CHECK(sc != NULL);
    CHECK(sc && sc->json == obj);
    CHECK_EQ(obj->refcount, 2);
    mk_scenario_free(sc);
    CHECK_EQ(obj->refcount, 1);
    json_decref(obj);
    mk_scenario_free(NULL);
}

static void test_ruleset_helpers(void)
{
    CHECK_EQ(mk_ruleset_terrain(&fake, "hill"), T_HILL);
    CHECK_EQ(mk_ruleset_terrain(&fake, "lava"), -1);
    CHECK_EQ(mk_ruleset_kind(&fake, "leader"), K_LEADER);
    CHECK_EQ(mk_ruleset_kind(&other, "leader"), -1);
    static const mk_option opts[] = {{"test.1", "one"}, {"test.2", "two"}};
    mk_ruleset r = fake;
    r.options = opts;
    r.noptions = 2;
    CHECK_EQ(mk_ruleset_option(&r, "test.2"), 1);
    CHECK_EQ(mk_ruleset_option(&r, "test.3"), -1);
    CHECK_EQ(mk_ruleset_option(&fake, "test.1"), -1);

    mk_action a = {.type = 1, .flags = 2, .cost = 3, .npath = 2, .unit = 4, .other = -1,
                   .target = 5, .path = {10, 11, 99}};
    mk_action b = a;
    b.cost = 7;
    b.path[2] = 42;   /* past npath: not part of the choice */
    CHECK(mk_action_equal(&a, &b));
    b.path[1] = 12;
    CHECK(!mk_action_equal(&a, &b));
    b = a;
    b.npath = 1;
    CHECK(!mk_action_equal(&a, &b));
    b = a;
    b.other = 0;
    CHECK(!mk_action_equal(&a, &b));

    /* FNV-1a 64 known answers (the FNV authors' test vectors). */
    CHECK(mk_hash_bytes(MK_HASH_INIT, "", 0) == 0xcbf29ce484222325ull);
    CHECK(mk_hash_bytes(MK_HASH_INIT, "a", 1) == 0xaf63dc4c8601ec8cull);
    CHECK(mk_hash_bytes(MK_HASH_INIT, "foobar", 6) == 0x85944171f73967e8ull);
    CHECK(mk_hash_bytes(mk_hash_bytes(MK_HASH_INIT, "foo", 3), "bar", 3) == 0x85944171f73967e8ull);
}

int main(void)
{
    test_good();
    test_sheets();
    test_bad();
    test_misc();
    test_ruleset_helpers();
    return check_done("test_scenario");
}
