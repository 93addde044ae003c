/* hex.h - hex grids: labels, neighbours, distance and map edges.
 *
 * Two layouts (PROTOCOL.md, "Scenario objects"):
 *  - MK_POINTY: pointy-topped hexes in horizontal rows. Labels are a column
 *    letter and a row number from 1 at the top ("A1" top-left, "AA3" after
 *    "Z3"). shifted_even: the rows whose printed number is even sit half a
 *    hex to the right of the odd ones; otherwise the odd rows do.
 *  - MK_FLAT: flat-topped hexes in vertical columns. shifted_even: the
 *    columns whose number is even sit half a hex lower than the odd ones.
 *    A flat map may be made of sheets joined west to east (BAR: "W0201" is
 *    sheet W, column 02, row 01); the shift then follows the global column
 *    number, counted from 1 across all sheets. A flat map without sheets is
 *    labelled like a pointy one (letter + row).
 *
 * A hex is a small integer index, row * cols + col with 0-based global
 * column and row, so that game states can hold hexes in int16 fields.
 * Directions are numbered 0..5 clockwise; for MK_POINTY 0 is east
 * (E, SE, SW, W, NW, NE); for MK_FLAT 0 is north-east (NE, SE, S, SW, NW, N).
 */
#ifndef MK_HEX_H
#define MK_HEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MK_MAX_HEX 6144     /* two BAR sheets fit */
#define MK_MAX_SHEETS 4
#define MK_NO_HEX ((mk_hex)-1)
#define MK_HEX_LABEL_MAX 8   /* "W3915" or "AB12" plus NUL */

typedef int16_t mk_hex;

enum { MK_POINTY = 0, MK_FLAT = 1 };

/* Map edges, for a side's "home" (the edge it retreats toward). */
enum { MK_EDGE_NORTH = 0, MK_EDGE_SOUTH, MK_EDGE_WEST, MK_EDGE_EAST, MK_EDGE_NONE = -1 };

typedef struct mk_sheet {
    char id;        /* 'W', 'E', ... */
    int16_t cols;   /* columns on this sheet */
} mk_sheet;

typedef struct mk_grid {
    uint8_t orient;        /* MK_POINTY or MK_FLAT */
    uint8_t shifted_even;  /* 1: even rows (pointy) / columns (flat) shifted */
    int16_t cols, rows;    /* over all sheets */
    uint8_t nsheets;       /* 0: letter+number labels; else sheet labels */
    mk_sheet sheets[MK_MAX_SHEETS];  /* west to east */
} mk_grid;

/* Cube coordinates (q + r + s == 0): distance and line of sight work here. */
typedef struct mk_cube {
    int q, r, s;
} mk_cube;

/* Sets up a one-sheet grid. Returns 0, or -1 (with err filled in) if the
 * size is out of range (at least 1x1, at most MK_MAX_HEX hexes). */
int mk_grid_init(mk_grid *g, int orient, bool shifted_even, int cols, int rows,
                 char *err, size_t errlen);
/* Sets up a flat-topped grid of sheets joined west to east, all with the
 * same number of rows. Returns 0 or -1 with err. */
int mk_grid_init_sheets(mk_grid *g, bool shifted_even, const mk_sheet *sheets,
                        int nsheets, int rows, char *err, size_t errlen);

static inline int mk_grid_size(const mk_grid *g) { return g->cols * g->rows; }

/* The hex at 0-based global column and row, or MK_NO_HEX if off the map. */
mk_hex mk_hex_at(const mk_grid *g, int col, int row);
static inline int mk_hex_col(const mk_grid *g, mk_hex h) { return h % g->cols; }
static inline int mk_hex_row(const mk_grid *g, mk_hex h) { return h / g->cols; }

/* The neighbour of h in direction dir (0..5), or MK_NO_HEX off the map. */
mk_hex mk_hex_neighbor(const mk_grid *g, mk_hex h, int dir);
/* Fills out[6] with the neighbours in direction order (MK_NO_HEX where off
 * the map) and returns how many are on the map. */
int mk_hex_neighbors(const mk_grid *g, mk_hex h, mk_hex out[6]);
/* The table of every hex's neighbours that a ruleset keeps for its hot
 * paths: nb[h] is mk_hex_neighbors' out for h, for h below n (rows past
 * the map all MK_NO_HEX). */
void mk_hex_neighbor_table(const mk_grid *g, mk_hex (*nb)[6], int n);
/* The direction from a to its neighbour b, or -1 if not adjacent. */
int mk_hex_direction(const mk_grid *g, mk_hex a, mk_hex b);
bool mk_hex_adjacent(const mk_grid *g, mk_hex a, mk_hex b);

/* The cube coordinates of h (which must be on the map). Inline, with the
 * distance: the rulesets' legal lists measure a distance for each pair of
 * a unit and an enemy, most of the calls on mcts's hot path (a tenth of a
 * Horse & Musket search when they were calls into hex.c, docs/ai.md). */
static inline mk_cube mk_hex_cube(const mk_grid *g, mk_hex h)
{
    int col = mk_hex_col(g, h), row = mk_hex_row(g, h);
    mk_cube c;
    if (g->orient == MK_POINTY) {
        c.r = row;
        c.q = g->shifted_even ? col - (row - (row & 1)) / 2 : col - (row + (row & 1)) / 2;
    } else {
        c.q = col;
        c.r = g->shifted_even ? row - (col - (col & 1)) / 2 : row - (col + (col & 1)) / 2;
    }
    c.s = -c.q - c.r;
    return c;
}
/* The column and row of cube coordinates c, on the map or not. */
void mk_cube_offset(const mk_grid *g, mk_cube c, int *col, int *row);
/* The hex at cube coordinates c, or MK_NO_HEX if off the map. */
mk_hex mk_hex_from_cube(const mk_grid *g, mk_cube c);
/* The number of hex steps between two cube coordinates. */
static inline int mk_cube_distance(mk_cube a, mk_cube b)
{
    int dq = a.q - b.q, dr = a.r - b.r, ds = a.s - b.s;
    return ((dq < 0 ? -dq : dq) + (dr < 0 ? -dr : dr) + (ds < 0 ? -ds : ds)) / 2;
}
/* The number of hex steps from a to b (both on the map). */
static inline int mk_hex_distance(const mk_grid *g, mk_hex a, mk_hex b)
{
    return mk_cube_distance(mk_hex_cube(g, a), mk_hex_cube(g, b));
}

/* How many hexes h lies from the given edge (0 on the edge itself): rows
 * from the top for MK_EDGE_NORTH, and so on. */
int mk_hex_edge_distance(const mk_grid *g, mk_hex h, int edge);
bool mk_hex_on_map_edge(const mk_grid *g, mk_hex h);
/* "north", "south", "west", "east" -> MK_EDGE_*, else MK_EDGE_NONE. */
int mk_edge_parse(const char *name);
const char *mk_edge_name(int edge);

/* Parses a label ("F5", "W0201"; letters in either case). Returns 0 and sets
 * *out, or -1 with a message in err that names the label and what is wrong
 * ("'N4' is off the map: columns are A-M"). */
int mk_hex_parse(const mk_grid *g, const char *label, mk_hex *out, char *err, size_t errlen);
/* Writes the label of h into buf (at least MK_HEX_LABEL_MAX bytes); returns buf.
 * MK_NO_HEX is written as "-". */
char *mk_hex_label(const mk_grid *g, mk_hex h, char *buf);

/* The centre of h in the map's own doubled-integer coordinates: for
 * MK_POINTY x counts half hex widths and y whole rows (a row is 3/4 of a hex
 * high); for MK_FLAT y counts half hex heights and x whole columns. For
 * drawing; exact geometry uses cube coordinates. */
void mk_hex_center(const mk_grid *g, mk_hex h, int *x, int *y);

#endif
