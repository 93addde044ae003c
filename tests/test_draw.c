/* test_draw.c - the terminal map (cli/draw.c): labels, terrain codes,
 * units and stacks, shifted rows, the compact layout, and drawing from a
 * STATE object. Uses the toy ruleset, so it needs no rulebook. */
#define _POSIX_C_SOURCE 200809L

#include "check.h"
#include "toy_ruleset.h"

#include "cli/draw.c"

static const char scenario_text[] =
    "{\"ruleset\": \"toy\", \"id\": \"toy/draw\", \"title\": \"Drawing\","
    " \"map\": {\"orientation\": \"pointy\", \"shifted\": \"even\", \"cols\": 13, \"rows\": 9,"
    "          \"terrain\": {\"C2\": \"forest\", \"M9\": \"forest\"}},"
    " \"sides\": [{\"id\": \"blue\", \"cap\": 1, \"home\": \"south\"},"
    "           {\"id\": \"brown\", \"cap\": 1, \"home\": \"north\"}],"
    " \"first\": \"blue\", \"turns\": 3,"
    " \"units\": [{\"id\": \"B1\", \"side\": \"blue\", \"kind\": \"soldier\", \"mp\": 2, \"hex\": \"A4\"},"
    "           {\"id\": \"B2\", \"side\": \"blue\", \"kind\": \"soldier\", \"mp\": 3, \"hex\": \"A4\"},"
    "           {\"id\": \"R1\", \"side\": \"brown\", \"kind\": \"soldier\", \"mp\": 4, \"hex\": \"E1\"}]}";

/* Draws into a string (caller frees). */
static char *draw(const mk_scenario *sc, json_t *state, const mk_hex *hl, int nhl)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    mk_draw_map(f, sc, state, hl, nhl, false);
    fclose(f);
    return buf;
}

/* The line of text that holds needle, copied into out; false if none. */
static bool line_with(const char *text, const char *needle, char *out, size_t size)
{
    const char *p = strstr(text, needle);
    if (!p)
        return false;
    const char *start = p, *end = p;
    while (start > text && start[-1] != '\n')
        start--;
    while (*end && *end != '\n')
        end++;
    size_t n = (size_t)(end - start) < size - 1 ? (size_t)(end - start) : size - 1;
    memcpy(out, start, n);
    out[n] = '\0';
    return true;
}

static void test_codes(void)
{
    CHECK_EQ(mk_draw_kind_code(NULL, "regular"), 'R');
    CHECK_EQ(mk_draw_kind_code(NULL, "leader"), '*');
    CHECK_EQ(mk_draw_kind_code(NULL, "vp"), 'V');
    CHECK_EQ(mk_draw_kind_code(NULL, "zouave"), 'Z');

    static const char *const terrains[] = {"clear", "forest", "field", "fen", "waterway"};
    static const char *const kinds[] = {"line", "light", "hussar", "highlander"};
    mk_ruleset rs = {.id = "x", .terrains = terrains, .nterrains = 5, .kinds = kinds, .nkinds = 4};
    CHECK_EQ(mk_draw_terrain_code(&rs, 0), ' ');
    CHECK_EQ(mk_draw_terrain_code(&rs, 1), 'F');
    CHECK_EQ(mk_draw_terrain_code(&rs, 2), 'f');   /* F is forest's */
    CHECK_EQ(mk_draw_terrain_code(&rs, 3), 'E');   /* F and f are taken */
    CHECK_EQ(mk_draw_terrain_code(&rs, 4), '~');
    CHECK_EQ(mk_draw_kind_code(&rs, "light"), 'L');   /* a fixed glyph wins */
    CHECK_EQ(mk_draw_kind_code(&rs, "line"), 'l');
    CHECK_EQ(mk_draw_kind_code(&rs, "hussar"), 'H');
    CHECK_EQ(mk_draw_kind_code(&rs, "highlander"), 'h');
}

static void test_map(const mk_scenario *sc)
{
    char line[512], lab[MK_HEX_LABEL_MAX];
    setenv("COLUMNS", "120", 1);
    char *text = draw(sc, NULL, NULL, 0);
    CHECK(text != NULL);
    if (!text)
        return;
    /* Every hex's label is on the map. */
    int missing = 0;
    for (int h = 0; h < mk_grid_size(&sc->map.grid); h++) {
        char cell[16];
        snprintf(cell, sizeof cell, "|%s", mk_hex_label(&sc->map.grid, (mk_hex)h, lab));
        missing += strstr(text, cell) == NULL;
    }
    CHECK_EQ(missing, 0);
    /* Terrain codes and the legend. */
    CHECK(strstr(text, "|C2   F|") != NULL);
    CHECK(strstr(text, "|M9   F|") != NULL);
    CHECK(strstr(text, "F forest") != NULL);
    /* Both units of the stack in A4 are drawn, and listed. */
    CHECK(strstr(text, "|BS2   |") != NULL);
    CHECK(strstr(text, "|BS3   |") != NULL);
    CHECK(strstr(text, "A4 B1 + B2") != NULL);
    /* The second side in lower case. */
    CHECK(strstr(text, "|bS4   |") != NULL);
    /* Even rows are indented by half a cell more than odd ones. */
    char row1[512], row2[512];
    CHECK(line_with(text, "|A1 ", row1, sizeof row1));
    CHECK(line_with(text, "|A2 ", row2, sizeof row2));
    CHECK_EQ((int)(strstr(row2, "|A2") - row2) - (int)(strstr(row1, "|A1") - row1), 3);
    /* Lines fit in 120 columns. */
    CHECK(line_with(text, "|M2 ", line, sizeof line));
    CHECK(strlen(line) <= 120);
    free(text);

    /* Narrow terminal: the compact layout fits 80 columns. */
    setenv("COLUMNS", "80", 1);
    mk_hex hl = MK_NO_HEX;
    mk_hex_parse(&sc->map.grid, "C2", &hl, line, sizeof line);
    text = draw(sc, NULL, &hl, 1);
    CHECK(line_with(text, "|M2", line, sizeof line));
    CHECK(strlen(line) <= 80);
    CHECK(strstr(text, "|C2*F|") != NULL);
    free(text);

    /* Highlight in the roomy layout. */
    setenv("COLUMNS", "120", 1);
    text = draw(sc, NULL, &hl, 1);
    CHECK(strstr(text, "|[C2] F|") != NULL);
    free(text);
}

static void test_state(const mk_scenario *sc)
{
    json_t *state = json_pack("{s:[{s:s,s:s,s:s,s:s,s:i,s:b},{s:s,s:s,s:s,s:n,s:i}]}", "units",
                              "id", "B1", "side", "blue", "kind", "soldier", "hex", "B2", "mp", 1,
                              "acted", 1, "id", "R1", "side", "brown", "kind", "soldier", "hex",
                              "mp", 4);
    char *text = draw(sc, state, NULL, 0);
    CHECK(strstr(text, "|BS1'  |") != NULL);   /* moved, reduced, acted */
    CHECK(strstr(text, "bS4") == NULL);        /* off the map */
    CHECK(strstr(text, "Stacks") == NULL);
    free(text);

    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    mk_draw_units(f, sc, state, false);
    fclose(f);
    CHECK(strstr(buf, "acted") != NULL);
    CHECK(strstr(buf, "R1") != NULL);
    free(buf);
    json_decref(state);
}

static void test_flat(void)
{
    static const char flat[] =
        "{\"ruleset\": \"toy\", \"id\": \"toy/flat\", \"title\": \"Flat\","
        " \"map\": {\"orientation\": \"flat\", \"shifted\": \"even\", \"cols\": 4, \"rows\": 3},"
        " \"sides\": [{\"id\": \"blue\", \"cap\": 1, \"home\": \"south\"},"
        "           {\"id\": \"red\", \"cap\": 1, \"home\": \"north\"}],"
        " \"first\": \"blue\", \"turns\": 3,"
        " \"units\": [{\"id\": \"B1\", \"side\": \"blue\", \"kind\": \"soldier\", \"mp\": 2, \"hex\": \"B3\"}]}";
    const mk_ruleset *rs[] = {&toy_ruleset};
    mk_error err = {0};
    mk_scenario *sc = mk_scenario_parse(flat, sizeof flat - 1, "(flat)", rs, 1, &err);
    CHECK(sc != NULL);
    if (!sc) {
        fprintf(stderr, "%s\n", err.msg);
        return;
    }
    char *text = draw(sc, NULL, NULL, 0);
    char a[256], b[256];
    CHECK(line_with(text, "|A1", a, sizeof a));
    CHECK(line_with(text, "|B1", b, sizeof b));
    CHECK(strstr(a, "|A3") != NULL);   /* a column of the map is a line */
    CHECK(strstr(b, "|A1") == NULL);
    CHECK(strstr(b, "|B1") - b > strstr(a, "|A1") - a);   /* even columns shifted */
    CHECK(strstr(text, "transposed") != NULL);
    CHECK(strstr(text, "BS2") != NULL);
    free(text);
    mk_scenario_free(sc);
}

int main(void)
{
    test_codes();
    const mk_ruleset *rs[] = {&toy_ruleset};
    mk_error err = {0};
    mk_scenario *sc = mk_scenario_parse(scenario_text, sizeof scenario_text - 1, "(draw)", rs, 1, &err);
    CHECK(sc != NULL);
    if (!sc) {
        fprintf(stderr, "%s\n", err.msg);
        return check_done("draw");
    }
    test_map(sc);
    test_state(sc);
    test_flat();
    mk_scenario_free(sc);
    return check_done("draw");
}
