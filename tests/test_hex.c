/* test_hex.c - hex grids: the H&M play example's map, neighbours against
 * drawn centres, distance against breadth-first search, labels both ways. */
#include "core/hex.h"
#include "tests/check.h"

#include <stdlib.h>

static mk_hex at(const mk_grid *g, const char *label)
{
    mk_hex h = MK_NO_HEX;
    char err[128];
    if (mk_hex_parse(g, label, &h, err, sizeof err) < 0) {
        fprintf(stderr, "parse %s: %s\n", label, err);
        return MK_NO_HEX;
    }
    return h;
}

/* H&M play example (Sedgemoor): 13 columns A-M, 9 rows, pointy-topped,
 * even rows shifted right. */
static void test_hm_map(void)
{
    mk_grid g;
    char err[128];
    CHECK_EQ(mk_grid_init(&g, MK_POINTY, true, 13, 9, err, sizeof err), 0);
    CHECK(mk_hex_adjacent(&g, at(&g, "E3"), at(&g, "D4")));
    CHECK(mk_hex_adjacent(&g, at(&g, "F6"), at(&g, "G5")));
    CHECK(mk_hex_adjacent(&g, at(&g, "H6"), at(&g, "I5")));
    CHECK(mk_hex_adjacent(&g, at(&g, "G4"), at(&g, "G5")));
    CHECK(mk_hex_adjacent(&g, at(&g, "H7"), at(&g, "H6")));
    CHECK(mk_hex_adjacent(&g, at(&g, "I5"), at(&g, "I4")));
    CHECK_EQ(mk_hex_distance(&g, at(&g, "F4"), at(&g, "F6")), 2);
    CHECK(!mk_hex_adjacent(&g, at(&g, "E3"), at(&g, "F4")));
    CHECK(!mk_hex_adjacent(&g, at(&g, "F6"), at(&g, "E5")));
    /* The opposite layout would make these adjacent instead. */
    CHECK(mk_hex_adjacent(&g, at(&g, "F4"), at(&g, "G5")));
    CHECK(mk_hex_adjacent(&g, at(&g, "F4"), at(&g, "F5")));
    CHECK(!mk_hex_adjacent(&g, at(&g, "F4"), at(&g, "E5")));
    CHECK_EQ(mk_hex_distance(&g, at(&g, "A1"), at(&g, "M9")), 16);
    CHECK_EQ(mk_hex_distance(&g, at(&g, "A9"), at(&g, "M1")), 12 + 4);
    CHECK_EQ(mk_hex_distance(&g, at(&g, "A1"), at(&g, "A9")), 8);
    CHECK_EQ(mk_hex_distance(&g, at(&g, "F5"), at(&g, "F5")), 0);

    /* Directions E, SE, SW, W, NW, NE. */
    mk_hex f5 = at(&g, "F5"), n[6];
    CHECK_EQ(mk_hex_neighbors(&g, f5, n), 6);
    CHECK_EQ(n[0], at(&g, "G5"));
    CHECK_EQ(n[1], at(&g, "F6"));
    CHECK_EQ(n[2], at(&g, "E6"));
    CHECK_EQ(n[3], at(&g, "E5"));
    CHECK_EQ(n[4], at(&g, "E4"));
    CHECK_EQ(n[5], at(&g, "F4"));
    mk_hex f4 = at(&g, "F4"); /* an even, shifted row */
    CHECK_EQ(mk_hex_neighbors(&g, f4, n), 6);
    CHECK_EQ(n[0], at(&g, "G4"));
    CHECK_EQ(n[1], at(&g, "G5"));
    CHECK_EQ(n[2], at(&g, "F5"));
    CHECK_EQ(n[3], at(&g, "E4"));
    CHECK_EQ(n[4], at(&g, "F3"));
    CHECK_EQ(n[5], at(&g, "G3"));
    CHECK_EQ(mk_hex_direction(&g, f4, at(&g, "G5")), 1);
    CHECK_EQ(mk_hex_direction(&g, at(&g, "G5"), f4), 4);
    CHECK_EQ(mk_hex_direction(&g, f4, at(&g, "F6")), -1);
    CHECK_EQ(mk_hex_direction(&g, f4, f4), -1);

    /* Corners and edges. */
    CHECK_EQ(mk_hex_neighbors(&g, at(&g, "A1"), n), 2);
    CHECK_EQ(n[0], at(&g, "B1"));
    CHECK_EQ(n[1], at(&g, "A2"));
    CHECK_EQ(n[2], MK_NO_HEX);
    CHECK_EQ(n[3], MK_NO_HEX);
    CHECK_EQ(n[4], MK_NO_HEX);
    CHECK_EQ(n[5], MK_NO_HEX);
    CHECK_EQ(mk_hex_neighbors(&g, at(&g, "M1"), n), 3);
    CHECK_EQ(n[0], MK_NO_HEX);
    CHECK_EQ(n[1], at(&g, "M2"));
    CHECK_EQ(n[2], at(&g, "L2"));
    CHECK_EQ(n[3], at(&g, "L1"));
    CHECK_EQ(mk_hex_neighbors(&g, at(&g, "A9"), n), 2);
    CHECK_EQ(n[0], at(&g, "B9"));
    CHECK_EQ(n[5], at(&g, "A8"));
    CHECK_EQ(n[4], MK_NO_HEX);
    CHECK_EQ(mk_hex_neighbors(&g, at(&g, "M9"), n), 3);
    CHECK_EQ(n[3], at(&g, "L9"));
    CHECK_EQ(n[4], at(&g, "L8"));
    CHECK_EQ(n[5], at(&g, "M8"));
    CHECK_EQ(mk_hex_neighbors(&g, at(&g, "A2"), n), 5);
    CHECK_EQ(n[0], at(&g, "B2"));
    CHECK_EQ(n[1], at(&g, "B3"));
    CHECK_EQ(n[2], at(&g, "A3"));
    CHECK_EQ(n[3], MK_NO_HEX);
    CHECK_EQ(n[4], at(&g, "A1"));
    CHECK_EQ(n[5], at(&g, "B1"));
    CHECK_EQ(mk_hex_neighbors(&g, at(&g, "M2"), n), 3);
    CHECK_EQ(mk_hex_neighbors(&g, at(&g, "M3"), n), 5);
    CHECK_EQ(mk_hex_neighbors(&g, at(&g, "F1"), n), 4);
    CHECK_EQ(mk_hex_neighbors(&g, at(&g, "F9"), n), 4);
    CHECK_EQ(mk_hex_neighbor(&g, MK_NO_HEX, 0), MK_NO_HEX);
    CHECK_EQ(mk_hex_neighbor(&g, f5, 6), MK_NO_HEX);
    CHECK_EQ(mk_hex_neighbor(&g, f5, -1), MK_NO_HEX);

    /* Edges (HtL/H&M retreat toward a side's home edge). */
    CHECK_EQ(mk_hex_edge_distance(&g, f5, MK_EDGE_NORTH), 4);
    CHECK_EQ(mk_hex_edge_distance(&g, f5, MK_EDGE_SOUTH), 4);
    CHECK_EQ(mk_hex_edge_distance(&g, f5, MK_EDGE_WEST), 5);
    CHECK_EQ(mk_hex_edge_distance(&g, f5, MK_EDGE_EAST), 7);
    CHECK_EQ(mk_hex_edge_distance(&g, at(&g, "M9"), MK_EDGE_EAST), 0);
    CHECK_EQ(mk_hex_edge_distance(&g, at(&g, "M9"), MK_EDGE_SOUTH), 0);
    CHECK_EQ(mk_hex_edge_distance(&g, f5, MK_EDGE_NONE), -1);
    CHECK(!mk_hex_on_map_edge(&g, f5));
    CHECK(mk_hex_on_map_edge(&g, at(&g, "A5")));
    CHECK(mk_hex_on_map_edge(&g, at(&g, "F1")));
    CHECK(mk_hex_on_map_edge(&g, at(&g, "M5")));
    CHECK(mk_hex_on_map_edge(&g, at(&g, "F9")));
    CHECK(!mk_hex_on_map_edge(&g, at(&g, "B2")));

    /* Centres: even rows half a hex right. */
    int x, y;
    mk_hex_center(&g, at(&g, "A1"), &x, &y);
    CHECK(x == 0 && y == 0);
    mk_hex_center(&g, at(&g, "A2"), &x, &y);
    CHECK(x == 1 && y == 1);
    mk_hex_center(&g, at(&g, "F5"), &x, &y);
    CHECK(x == 10 && y == 4);
    mk_hex_center(&g, at(&g, "F4"), &x, &y);
    CHECK(x == 11 && y == 3);
}

static void test_parse_and_labels(void)
{
    mk_grid g;
    char err[128], buf[MK_HEX_LABEL_MAX];
    mk_hex h = 77;
    CHECK_EQ(mk_grid_init(&g, MK_POINTY, true, 13, 9, err, sizeof err), 0);
    CHECK_EQ(mk_hex_parse(&g, "A1", &h, err, sizeof err), 0);
    CHECK_EQ(h, 0);
    CHECK_EQ(mk_hex_parse(&g, "m9", &h, err, sizeof err), 0);
    CHECK_EQ(h, 13 * 9 - 1);
    CHECK_EQ(mk_hex_parse(&g, "f5", &h, err, sizeof err), 0);
    CHECK_EQ(h, 4 * 13 + 5);
    CHECK_STR(mk_hex_label(&g, h, buf), "F5");
    CHECK_STR(mk_hex_label(&g, MK_NO_HEX, buf), "-");
    CHECK_STR(mk_hex_label(&g, 13 * 9, buf), "?");

    h = 77;
    CHECK_EQ(mk_hex_parse(&g, "N4", &h, err, sizeof err), -1);
    CHECK_STR(err, "'N4' is off the map: columns are A-M");
    CHECK_EQ(h, 77);
    CHECK_EQ(mk_hex_parse(&g, "F0", &h, err, sizeof err), -1);
    CHECK_STR(err, "'F0': rows are 1-9");
    CHECK_EQ(mk_hex_parse(&g, "F10", &h, err, sizeof err), -1);
    CHECK_STR(err, "'F10' is off the map: rows are 1-9");
    CHECK_EQ(mk_hex_parse(&g, "Q", &h, err, sizeof err), -1);
    CHECK(strncmp(err, "'Q': not a hex label", 20) == 0);
    CHECK_EQ(mk_hex_parse(&g, "AA1", &h, err, sizeof err), -1);
    CHECK_STR(err, "'AA1' is off the map: columns are A-M");
    const char *bad[] = {"", "5", "5F", "F5x", "F 5", " F5", "F-5", "F+5", "W0201x", "é5"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        CHECK_EQ(mk_hex_parse(&g, bad[i], &h, err, sizeof err), -1);
        CHECK(strstr(err, "not a hex label") != NULL);
        CHECK(err[0] == '\'');
    }
    CHECK_EQ(mk_hex_parse(&g, NULL, &h, err, sizeof err), -1);
    CHECK_EQ(mk_hex_parse(&g, "F99999999999999", &h, err, sizeof err), -1);
    CHECK(strstr(err, "rows are 1-9") != NULL);
    CHECK_EQ(mk_hex_parse(&g, "ZZZZZZZZZZ1", &h, err, sizeof err), -1);
    CHECK(strstr(err, "columns are A-M") != NULL);
    CHECK_EQ(mk_hex_parse(&g, "F00005", &h, err, sizeof err), 0);
    CHECK_EQ(h, at(&g, "F5"));
    CHECK_EQ(mk_hex_parse(&g, "F5", &h, NULL, 0), 0); /* err may be NULL */
    CHECK_EQ(mk_hex_parse(&g, "N5", &h, NULL, 0), -1);
    CHECK_EQ(mk_hex_parse(&g, "N5", &h, err, 8), -1); /* truncated, still a string */
    CHECK_EQ(strlen(err), 7);

    /* Wide maps: "AA3" after "Z3", bijective base 26. */
    mk_grid w;
    CHECK_EQ(mk_grid_init(&w, MK_POINTY, false, 60, 5, err, sizeof err), 0);
    CHECK_STR(mk_hex_label(&w, mk_hex_at(&w, 25, 2), buf), "Z3");
    CHECK_STR(mk_hex_label(&w, mk_hex_at(&w, 26, 2), buf), "AA3");
    CHECK_STR(mk_hex_label(&w, mk_hex_at(&w, 51, 0), buf), "AZ1");
    CHECK_STR(mk_hex_label(&w, mk_hex_at(&w, 52, 4), buf), "BA5");
    CHECK_EQ(mk_hex_parse(&w, "ab3", &h, err, sizeof err), 0);
    CHECK_EQ(h, mk_hex_at(&w, 27, 2));
    CHECK_EQ(mk_hex_parse(&w, "BI1", &h, err, sizeof err), -1);
    CHECK_STR(err, "'BI1' is off the map: columns are A-BH");
    mk_grid thin;
    CHECK_EQ(mk_grid_init(&thin, MK_FLAT, false, 6144, 1, err, sizeof err), 0);
    CHECK_STR(mk_hex_label(&thin, 6143, buf), "IBH1");
    CHECK_EQ(mk_hex_parse(&thin, "ibh1", &h, err, sizeof err), 0);
    CHECK_EQ(h, 6143);
    CHECK_EQ(mk_grid_init(&thin, MK_POINTY, false, 1, 6144, err, sizeof err), 0);
    CHECK_STR(mk_hex_label(&thin, 6143, buf), "A6144");

    /* BAR sheets: W (39 columns) west of E (39 columns), 30 rows. */
    mk_grid b;
    mk_sheet sh[2] = {{'w', 39}, {'E', 39}};
    CHECK_EQ(mk_grid_init_sheets(&b, true, sh, 2, 30, err, sizeof err), 0);
    CHECK_EQ(b.cols, 78);
    CHECK_EQ(b.orient, MK_FLAT);
    CHECK_EQ(mk_hex_parse(&b, "W0201", &h, err, sizeof err), 0);
    CHECK_EQ(h, mk_hex_at(&b, 1, 0));
    CHECK_EQ(mk_hex_parse(&b, "e0101", &h, err, sizeof err), 0);
    CHECK_EQ(h, mk_hex_at(&b, 39, 0));
    CHECK_STR(mk_hex_label(&b, h, buf), "E0101");
    CHECK_EQ(mk_hex_parse(&b, "E3915", &h, err, sizeof err), 0);
    CHECK_EQ(h, mk_hex_at(&b, 77, 14));
    CHECK_STR(mk_hex_label(&b, mk_hex_at(&b, 38, 29), buf), "W3930");
    CHECK_EQ(mk_hex_parse(&b, "W9901", &h, err, sizeof err), -1);
    CHECK_STR(err, "'W9901': sheet W has columns 01-39");
    CHECK_EQ(mk_hex_parse(&b, "W0001", &h, err, sizeof err), -1);
    CHECK_STR(err, "'W0001': sheet W has columns 01-39");
    CHECK_EQ(mk_hex_parse(&b, "W0131", &h, err, sizeof err), -1);
    CHECK_STR(err, "'W0131': rows are 01-30");
    CHECK_EQ(mk_hex_parse(&b, "W0100", &h, err, sizeof err), -1);
    CHECK_STR(err, "'W0100': rows are 01-30");
    CHECK_EQ(mk_hex_parse(&b, "X0101", &h, err, sizeof err), -1);
    CHECK_STR(err, "'X0101' is off the map: there is no sheet X (sheets: W, E)");
    CHECK_EQ(mk_hex_parse(&b, "W201", &h, err, sizeof err), -1);
    CHECK(strncmp(err, "'W201': not a hex label", 23) == 0);
    CHECK_EQ(mk_hex_parse(&b, "A1", &h, err, sizeof err), -1);
    CHECK(strncmp(err, "'A1': not a hex label", 21) == 0);
    /* The half-hex shift follows the global column counted from 1: E01 is
     * global column 40, even, so it sits lower than W39 (column 39). */
    int x, y;
    mk_hex_center(&b, mk_hex_at(&b, 38, 0), &x, &y);
    CHECK(x == 38 && y == 0);
    mk_hex_center(&b, mk_hex_at(&b, 39, 0), &x, &y);
    CHECK(x == 39 && y == 1);
    CHECK(mk_hex_adjacent(&b, at(&b, "W3901"), at(&b, "E0101")));
    CHECK(mk_hex_adjacent(&b, at(&b, "W3902"), at(&b, "E0101")));
    CHECK(mk_hex_adjacent(&b, at(&b, "W3902"), at(&b, "E0102")));
    CHECK(!mk_hex_adjacent(&b, at(&b, "W3901"), at(&b, "E0102")));
    CHECK_EQ(mk_hex_direction(&b, at(&b, "W3901"), at(&b, "E0101")), 1); /* SE */
    CHECK_EQ(mk_hex_direction(&b, at(&b, "W3902"), at(&b, "E0101")), 0); /* NE */
}

static void test_init_errors(void)
{
    mk_grid g;
    char err[128];
    CHECK_EQ(mk_grid_init(&g, MK_POINTY, true, 0, 9, err, sizeof err), -1);
    CHECK(strstr(err, "0 x 9") != NULL);
    CHECK_EQ(mk_grid_init(&g, MK_POINTY, true, 13, -1, err, sizeof err), -1);
    CHECK_EQ(mk_grid_init(&g, MK_FLAT, true, 100, 62, err, sizeof err), -1);
    CHECK(strstr(err, "6144") != NULL);
    CHECK_EQ(mk_grid_init(&g, 7, true, 13, 9, err, sizeof err), -1);
    CHECK_EQ(mk_grid_init(&g, MK_FLAT, true, 96, 64, NULL, 0), 0);
    CHECK_EQ(mk_grid_size(&g), MK_MAX_HEX);
    mk_sheet sh[3] = {{'W', 39}, {'E', 39}, {'w', 10}};
    CHECK_EQ(mk_grid_init_sheets(&g, true, sh, 3, 30, err, sizeof err), -1);
    CHECK_STR(err, "sheet W is given twice");
    CHECK_EQ(mk_grid_init_sheets(&g, true, sh, 0, 30, err, sizeof err), -1);
    CHECK_EQ(mk_grid_init_sheets(&g, true, sh, MK_MAX_SHEETS + 1, 30, err, sizeof err), -1);
    CHECK_EQ(mk_grid_init_sheets(&g, true, sh, 2, 100, err, sizeof err), -1);
    CHECK_EQ(mk_grid_init_sheets(&g, true, sh, 2, 79, err, sizeof err), -1);
    CHECK(strstr(err, "6144") != NULL);
    mk_sheet bad[2] = {{'W', 100}, {'3', 4}};
    CHECK_EQ(mk_grid_init_sheets(&g, true, bad, 1, 10, err, sizeof err), -1);
    CHECK_STR(err, "sheet W has 100 columns: a sheet has 1 to 99");
    CHECK_EQ(mk_grid_init_sheets(&g, true, bad + 1, 1, 10, err, sizeof err), -1);
    CHECK_STR(err, "sheet 0: its id is not a letter");

    CHECK_EQ(mk_edge_parse("north"), MK_EDGE_NORTH);
    CHECK_EQ(mk_edge_parse("South"), MK_EDGE_SOUTH);
    CHECK_EQ(mk_edge_parse("west"), MK_EDGE_WEST);
    CHECK_EQ(mk_edge_parse("EAST"), MK_EDGE_EAST);
    CHECK_EQ(mk_edge_parse("eas"), MK_EDGE_NONE);
    CHECK_EQ(mk_edge_parse("easter"), MK_EDGE_NONE);
    CHECK_EQ(mk_edge_parse(""), MK_EDGE_NONE);
    CHECK_EQ(mk_edge_parse(NULL), MK_EDGE_NONE);
    for (int e = 0; e < 4; e++)
        CHECK_EQ(mk_edge_parse(mk_edge_name(e)), e);
    CHECK_STR(mk_edge_name(MK_EDGE_NONE), "none");
}

/* The centre offset of each direction, in mk_hex_center's units: the
 * drawing is the independent witness for neighbours and shifts. */
static const int pointy_step[6][2] = {{2, 0}, {1, 1}, {-1, 1}, {-2, 0}, {-1, -1}, {1, -1}};
static const int flat_step[6][2] = {{1, -1}, {1, 1}, {0, 2}, {-1, 1}, {-1, -1}, {0, -2}};

/* Every whole-map property on grid g. */
static void check_grid(const mk_grid *g, bool complete)
{
    int size = mk_grid_size(g);
    const int(*step)[2] = g->orient == MK_POINTY ? pointy_step : flat_step;
    int *cx = malloc(sizeof(int) * (size_t)size), *cy = malloc(sizeof(int) * (size_t)size);
    for (mk_hex h = 0; h < size; h++)
        mk_hex_center(g, h, &cx[h], &cy[h]);
    int bad_adj = 0, bad_label = 0, bad_cube = 0;
    /* the rulesets' neighbour table: mk_hex_neighbors row by row, and
     * nothing in the rows past the map */
    mk_hex(*table)[6] = malloc(sizeof *table * (size_t)(size + 3));
    mk_hex_neighbor_table(g, table, size + 3);
    for (int h = 0; h < size + 3; h++) {
        mk_hex want[6] = {MK_NO_HEX, MK_NO_HEX, MK_NO_HEX, MK_NO_HEX, MK_NO_HEX, MK_NO_HEX};
        if (h < size)
            mk_hex_neighbors(g, (mk_hex)h, want);
        if (memcmp(want, table[h], sizeof want) != 0)
            bad_adj++;
    }
    free(table);
    /* The witness off the map: the same layout 2 larger on every side
     * (2 keeps the shifted rows' or columns' parity), where g's hex (0, 0)
     * is (2, 2) and every cube lies `shift` away. */
    mk_grid big;
    char gerr[128];
    bool have_big = (g->cols + 4) * (g->rows + 4) <= MK_MAX_HEX &&
                    mk_grid_init(&big, g->orient, g->shifted_even, g->cols + 4, g->rows + 4, gerr, sizeof gerr) == 0;
    mk_cube b0 = have_big ? mk_hex_cube(&big, mk_hex_at(&big, 2, 2)) : (mk_cube){0, 0, 0}, g0 = mk_hex_cube(g, 0);
    mk_cube shift = {b0.q - g0.q, b0.r - g0.r, b0.s - g0.s};
    for (mk_hex h = 0; h < size; h++) {
        char buf[MK_HEX_LABEL_MAX], err[128];
        mk_hex back = MK_NO_HEX;
        if (mk_hex_parse(g, mk_hex_label(g, h, buf), &back, err, sizeof err) != 0 || back != h)
            bad_label++;
        mk_cube c = mk_hex_cube(g, h);
        if (c.q + c.r + c.s != 0 || mk_hex_from_cube(g, c) != h)
            bad_cube++;
        /* mk_cube_offset, here and one step away in each cube direction
         * (on the map or off it): a step moves the column and the row by 1
         * at most (core/los.c skips the line's batches 2 outside) */
        static const int cdir[6][2] = {{1, -1}, {1, 0}, {0, 1}, {-1, 1}, {-1, 0}, {0, -1}};
        int col, row;
        mk_cube_offset(g, c, &col, &row);
        if (col != mk_hex_col(g, h) || row != mk_hex_row(g, h))
            bad_cube++;
        for (int d = 0; d < 6; d++) {
            mk_cube nc = {c.q + cdir[d][0], c.r + cdir[d][1], -(c.q + cdir[d][0]) - (c.r + cdir[d][1])};
            int ncol, nrow;
            mk_cube_offset(g, nc, &ncol, &nrow);
            bool on_map = ncol >= 0 && ncol < g->cols && nrow >= 0 && nrow < g->rows;
            if (abs(ncol - col) > 1 || abs(nrow - row) > 1 ||
                mk_hex_from_cube(g, nc) != (on_map ? mk_hex_at(g, ncol, nrow) : MK_NO_HEX))
                bad_cube++;
            mk_hex w = have_big ? mk_hex_from_cube(&big, (mk_cube){nc.q + shift.q, nc.r + shift.r, nc.s + shift.s})
                                : MK_NO_HEX;
            if (have_big && (w == MK_NO_HEX || mk_hex_col(&big, w) - 2 != ncol || mk_hex_row(&big, w) - 2 != nrow))
                bad_cube++;
        }
        mk_hex n[6];
        int on = mk_hex_neighbors(g, h, n), count = 0;
        for (int d = 0; d < 6; d++) {
            if (n[d] != mk_hex_neighbor(g, h, d))   /* the two agree (hex.c works them apart) */
                bad_adj++;
            if (n[d] == MK_NO_HEX)
                continue;
            count++;
            if (mk_hex_neighbor(g, n[d], (d + 3) % 6) != h || mk_hex_direction(g, h, n[d]) != d ||
                mk_hex_direction(g, n[d], h) != (d + 3) % 6 || !mk_hex_adjacent(g, n[d], h) ||
                mk_hex_distance(g, h, n[d]) != 1 || cx[n[d]] - cx[h] != step[d][0] ||
                cy[n[d]] - cy[h] != step[d][1])
                bad_adj++;
        }
        if (on != count)
            bad_adj++;
        /* Completeness: every hex drawn one step away is a neighbour. */
        for (mk_hex o = 0; o < size && complete; o++) {
            int dx = cx[o] - cx[h], dy = cy[o] - cy[h], want = -1;
            for (int d = 0; d < 6; d++)
                if (dx == step[d][0] && dy == step[d][1])
                    want = d;
            if (mk_hex_direction(g, h, o) != want || (want >= 0 && n[want] != o))
                bad_adj++;
        }
    }
    /* Off the map: no neighbours. */
    mk_hex off[] = {MK_NO_HEX, (mk_hex)size, (mk_hex)-7};
    for (size_t i = 0; i < sizeof off / sizeof off[0]; i++) {
        mk_hex n[6] = {0, 0, 0, 0, 0, 0};
        if (mk_hex_neighbors(g, off[i], n) != 0)
            bad_adj++;
        for (int d = 0; d < 6; d++)
            if (n[d] != MK_NO_HEX)
                bad_adj++;
    }
    CHECK_EQ(bad_adj, 0);
    CHECK_EQ(bad_label, 0);
    CHECK_EQ(bad_cube, 0);
    free(cx);
    free(cy);
}

/* Distance against breadth-first search over neighbours, every pair. */
static void check_bfs(const mk_grid *g)
{
    int size = mk_grid_size(g), bad = 0;
    int *dist = malloc(sizeof(int) * (size_t)size), *queue = malloc(sizeof(int) * (size_t)size);
    for (mk_hex a = 0; a < size; a++) {
        for (int i = 0; i < size; i++)
            dist[i] = -1;
        int head = 0, tail = 0;
        dist[a] = 0;
        queue[tail++] = a;
        while (head < tail) {
            mk_hex h = (mk_hex)queue[head++], n[6];
            mk_hex_neighbors(g, h, n);
            for (int d = 0; d < 6; d++)
                if (n[d] != MK_NO_HEX && dist[n[d]] < 0) {
                    dist[n[d]] = dist[h] + 1;
                    queue[tail++] = n[d];
                }
        }
        for (mk_hex b = 0; b < size; b++)
            if (mk_hex_distance(g, a, b) != dist[b])
                bad++;
    }
    CHECK_EQ(bad, 0);
    free(dist);
    free(queue);
}

static void test_whole_maps(void)
{
    mk_grid g;
    char err[128];
    for (int orient = 0; orient < 2; orient++)
        for (int shifted = 0; shifted < 2; shifted++) {
            int dims[][2] = {{13, 9}, {7, 8}, {8, 7}, {1, 1}, {1, 6}, {6, 1}, {2, 2}, {30, 4}};
            for (size_t i = 0; i < sizeof dims / sizeof dims[0]; i++) {
                CHECK_EQ(mk_grid_init(&g, orient, shifted, dims[i][0], dims[i][1], err,
                                      sizeof err),
                         0);
                check_grid(&g, true);
                check_bfs(&g);
            }
        }
    /* Two sheets, both shifts, odd sheet widths so the shift of the second
     * sheet's first column depends on the global column. */
    for (int shifted = 0; shifted < 2; shifted++) {
        mk_sheet sh[2] = {{'W', 5}, {'E', 4}};
        CHECK_EQ(mk_grid_init_sheets(&g, shifted, sh, 2, 6, err, sizeof err), 0);
        check_grid(&g, true);
        check_bfs(&g);
        mk_sheet sh3[3] = {{'A', 3}, {'B', 2}, {'C', 3}};
        CHECK_EQ(mk_grid_init_sheets(&g, shifted, sh3, 3, 5, err, sizeof err), 0);
        check_grid(&g, true);
        check_bfs(&g);
    }
    /* A full-size BAR map: labels and neighbours (no BFS, for speed). */
    mk_sheet bar[2] = {{'W', 39}, {'E', 39}};
    CHECK_EQ(mk_grid_init_sheets(&g, true, bar, 2, 78, err, sizeof err), 0);
    check_grid(&g, false);
}

/* Flat-topped directions NE, SE, S, SW, NW, N, and the column shift. */
static void test_flat(void)
{
    mk_grid g;
    char err[128];
    mk_hex n[6];
    CHECK_EQ(mk_grid_init(&g, MK_FLAT, true, 6, 5, err, sizeof err), 0);
    /* Column B (2, even) sits lower: B1 is SE of A1, A2 is SW of B1. */
    CHECK_EQ(mk_hex_neighbors(&g, at(&g, "A1"), n), 2);
    CHECK_EQ(n[0], MK_NO_HEX);
    CHECK_EQ(n[1], at(&g, "B1"));
    CHECK_EQ(n[2], at(&g, "A2"));
    CHECK_EQ(mk_hex_neighbors(&g, at(&g, "B1"), n), 5);
    CHECK_EQ(n[0], at(&g, "C1"));
    CHECK_EQ(n[1], at(&g, "C2"));
    CHECK_EQ(n[2], at(&g, "B2"));
    CHECK_EQ(n[3], at(&g, "A2"));
    CHECK_EQ(n[4], at(&g, "A1"));
    CHECK_EQ(n[5], MK_NO_HEX);
    CHECK_EQ(mk_grid_init(&g, MK_FLAT, false, 6, 5, err, sizeof err), 0);
    /* Now column A (1, odd) sits lower: B1 is NE of A1. */
    CHECK_EQ(mk_hex_neighbor(&g, at(&g, "A1"), 0), at(&g, "B1"));
    CHECK_EQ(mk_hex_neighbor(&g, at(&g, "A1"), 1), at(&g, "B2"));
    CHECK_EQ(mk_hex_neighbors(&g, at(&g, "B1"), n), 3);
    CHECK_EQ(mk_hex_distance(&g, at(&g, "A1"), at(&g, "F1")), 5);
    CHECK_EQ(mk_hex_distance(&g, at(&g, "A1"), at(&g, "A5")), 4);
    CHECK_EQ(mk_hex_distance(&g, at(&g, "A5"), at(&g, "F1")), 7);
}

/* The pointy layout without the even shift: odd rows sit to the right. */
static void test_pointy_odd(void)
{
    mk_grid g;
    char err[128];
    CHECK_EQ(mk_grid_init(&g, MK_POINTY, false, 13, 9, err, sizeof err), 0);
    CHECK(mk_hex_adjacent(&g, at(&g, "F4"), at(&g, "E5")));
    CHECK(mk_hex_adjacent(&g, at(&g, "F4"), at(&g, "F5")));
    CHECK(!mk_hex_adjacent(&g, at(&g, "F4"), at(&g, "G5")));
    CHECK(!mk_hex_adjacent(&g, at(&g, "E3"), at(&g, "D4")));
    CHECK_EQ(mk_hex_neighbor(&g, at(&g, "A1"), 2), at(&g, "A2"));
    CHECK_EQ(mk_hex_neighbor(&g, at(&g, "A1"), 1), at(&g, "B2"));
    int x, y;
    mk_hex_center(&g, at(&g, "A1"), &x, &y);
    CHECK(x == 1 && y == 0);
    mk_cube c = {0, 0, 1};
    CHECK_EQ(mk_hex_from_cube(&g, c), MK_NO_HEX);
    c = (mk_cube){-3, 0, 3};
    CHECK_EQ(mk_hex_from_cube(&g, c), MK_NO_HEX);
}

int main(void)
{
    test_hm_map();
    test_parse_and_labels();
    test_init_errors();
    test_whole_maps();
    test_flat();
    test_pointy_odd();
    return check_done("test_hex");
}
