/* hex.c - hex grids: offset <-> cube coordinates, neighbours, distance,
 * map edges and labels ("F5", "AA3", "W0201"). No globals, no allocation.
 *
 * The invariant everything here rests on: a hex index is row * cols + col
 * with 0-based GLOBAL column and row, and its cube coordinates (q, r, s)
 * follow from (col, row) and the layout alone:
 *  - MK_POINTY: r = row, and q = col - (row - (row & 1)) / 2 when the rows of
 *    odd index (printed even) are shifted right ("odd-r"), or
 *    q = col - (row + (row & 1)) / 2 when the rows of even index (printed
 *    odd) are ("even-r"). r grows southward, q eastward.
 *  - MK_FLAT: q = col, and r = row - (col - (col & 1)) / 2 when the columns
 *    of odd index (printed even) sit half a hex lower ("odd-q"), or
 *    r = row - (col + (col & 1)) / 2 otherwise ("even-q").
 * The division is always exact (the numerator is even), so negative rows and
 * columns just off the map convert correctly too.
 */
#include "hex.h"

#include <stdio.h>
#include <string.h>

/* Cube steps in hex.h's direction order. MK_POINTY: E, SE, SW, W, NW, NE. */
static const int pointy_dir[6][3] = {
    {1, 0, -1}, {0, 1, -1}, {-1, 1, 0}, {-1, 0, 1}, {0, -1, 1}, {1, -1, 0},
};
/* MK_FLAT: NE, SE, S, SW, NW, N. */
static const int flat_dir[6][3] = {
    {1, -1, 0}, {1, 0, -1}, {0, 1, -1}, {-1, 1, 0}, {-1, 0, 1}, {0, -1, 1},
};

static void set_err(char *err, size_t errlen, const char *msg)
{
    if (err && errlen > 0)
        snprintf(err, errlen, "%s", msg);
}

/* Sets up a one-sheet grid. Returns 0, or -1 with a message in err (which may
 * be NULL) if the layout is unknown or the size out of range. */
int mk_grid_init(mk_grid *g, int orient, bool shifted_even, int cols, int rows,
                 char *err, size_t errlen)
{
    char msg[160];
    if (orient != MK_POINTY && orient != MK_FLAT) {
        snprintf(msg, sizeof msg, "unknown hex layout %d", orient);
        set_err(err, errlen, msg);
        return -1;
    }
    if (cols < 1 || rows < 1 || (long)cols * rows > MK_MAX_HEX) {
        snprintf(msg, sizeof msg,
                 "a map of %d x %d hexes is out of range (at least 1 x 1, at most %d hexes)",
                 cols, rows, MK_MAX_HEX);
        set_err(err, errlen, msg);
        return -1;
    }
    memset(g, 0, sizeof *g);
    g->orient = (uint8_t)orient;
    g->shifted_even = shifted_even ? 1 : 0;
    g->cols = (int16_t)cols;
    g->rows = (int16_t)rows;
    g->nsheets = 0;
    return 0;
}

/* Sets up a flat-topped grid of 1..MK_MAX_SHEETS sheets joined west to east,
 * each with 1..99 columns (labels give the column in two digits) and all
 * with `rows` rows (1..99). Sheet ids must be distinct letters; they are
 * stored in upper case. Returns 0 or -1 with a message in err. */
int mk_grid_init_sheets(mk_grid *g, bool shifted_even, const mk_sheet *sheets,
                        int nsheets, int rows, char *err, size_t errlen)
{
    char msg[160];
    if (nsheets < 1 || nsheets > MK_MAX_SHEETS) {
        snprintf(msg, sizeof msg, "%d sheets: a map has 1 to %d", nsheets, MK_MAX_SHEETS);
        set_err(err, errlen, msg);
        return -1;
    }
    if (rows < 1 || rows > 99) {
        snprintf(msg, sizeof msg, "%d rows: a map of sheets has 1 to 99", rows);
        set_err(err, errlen, msg);
        return -1;
    }
    mk_grid tmp;
    memset(&tmp, 0, sizeof tmp);
    long cols = 0;
    for (int i = 0; i < nsheets; i++) {
        char id = sheets[i].id;
        if (id >= 'a' && id <= 'z')
            id = (char)(id - 'a' + 'A');
        if (id < 'A' || id > 'Z') {
            snprintf(msg, sizeof msg, "sheet %d: its id is not a letter", i);
            set_err(err, errlen, msg);
            return -1;
        }
        for (int j = 0; j < i; j++) {
            if (tmp.sheets[j].id == id) {
                snprintf(msg, sizeof msg, "sheet %c is given twice", id);
                set_err(err, errlen, msg);
                return -1;
            }
        }
        if (sheets[i].cols < 1 || sheets[i].cols > 99) {
            snprintf(msg, sizeof msg, "sheet %c has %d columns: a sheet has 1 to 99", id,
                     sheets[i].cols);
            set_err(err, errlen, msg);
            return -1;
        }
        tmp.sheets[i].id = id;
        tmp.sheets[i].cols = sheets[i].cols;
        cols += sheets[i].cols;
    }
    if (cols * rows > MK_MAX_HEX) {
        snprintf(msg, sizeof msg, "a map of %ld x %d hexes is out of range (at most %d hexes)",
                 cols, rows, MK_MAX_HEX);
        set_err(err, errlen, msg);
        return -1;
    }
    tmp.orient = MK_FLAT;
    tmp.shifted_even = shifted_even ? 1 : 0;
    tmp.cols = (int16_t)cols;
    tmp.rows = (int16_t)rows;
    tmp.nsheets = (uint8_t)nsheets;
    *g = tmp;
    return 0;
}

static bool valid(const mk_grid *g, mk_hex h)
{
    return h >= 0 && h < mk_grid_size(g);
}

/* The hex at 0-based global column and row, or MK_NO_HEX if off the map. */
mk_hex mk_hex_at(const mk_grid *g, int col, int row)
{
    if (col < 0 || row < 0 || col >= g->cols || row >= g->rows)
        return MK_NO_HEX;
    return (mk_hex)(row * g->cols + col);
}

void mk_cube_offset(const mk_grid *g, mk_cube c, int *col, int *row)
{
    if (g->orient == MK_POINTY) {
        *row = c.r;
        *col = g->shifted_even ? c.q + (c.r - (c.r & 1)) / 2 : c.q + (c.r + (c.r & 1)) / 2;
    } else {
        *col = c.q;
        *row = g->shifted_even ? c.r + (c.q - (c.q & 1)) / 2 : c.r + (c.q + (c.q & 1)) / 2;
    }
}

/* The hex at cube coordinates c, or MK_NO_HEX if off the map or if c is not
 * a cube coordinate (q + r + s != 0). */
mk_hex mk_hex_from_cube(const mk_grid *g, mk_cube c)
{
    if (c.q + c.r + c.s != 0)
        return MK_NO_HEX;
    int col, row;
    mk_cube_offset(g, c, &col, &row);
    return mk_hex_at(g, col, row);
}

/* Offset steps (column, row) to the six neighbours, by layout and by
 * whether the hex's own row (pointy) or column (flat) is the shifted kind:
 * the same directions as pointy_dir / flat_dir, without going through cube
 * coordinates (neighbours are on the hot path of every ruleset). */
static const int8_t step_of[2][2][6][2] = {
    /* MK_POINTY: E, SE, SW, W, NW, NE */
    {{{1, 0}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}},    /* row not shifted */
     {{1, 0}, {1, 1}, {0, 1}, {-1, 0}, {0, -1}, {1, -1}}},     /* row shifted right */
    /* MK_FLAT: NE, SE, S, SW, NW, N */
    {{{1, -1}, {1, 0}, {0, 1}, {-1, 0}, {-1, -1}, {0, -1}},    /* column not shifted */
     {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {0, -1}}},     /* column shifted down */
};

/* The neighbour of h in direction dir (0..5), or MK_NO_HEX off the map (or
 * for a bad h or dir). */
mk_hex mk_hex_neighbor(const mk_grid *g, mk_hex h, int dir)
{
    if (!valid(g, h) || dir < 0 || dir > 5)
        return MK_NO_HEX;
    int col = mk_hex_col(g, h), row = mk_hex_row(g, h);
    /* 0-based index i is printed i + 1: "even" shifts the odd indices. */
    int line = g->orient == MK_POINTY ? row : col;
    int shifted = (line & 1) == (g->shifted_even ? 1 : 0);
    const int8_t *d = step_of[g->orient == MK_POINTY ? 0 : 1][shifted][dir];
    return mk_hex_at(g, col + d[0], row + d[1]);
}

/* Fills out[6] with the neighbours in direction order (MK_NO_HEX where off
 * the map) and returns how many are on the map. */
int mk_hex_neighbors(const mk_grid *g, mk_hex h, mk_hex out[6])
{
    if (!valid(g, h)) {
        for (int d = 0; d < 6; d++)
            out[d] = MK_NO_HEX;
        return 0;
    }
    /* mk_hex_neighbor's steps, with the column and row worked out once:
     * Horse & Musket's reach search asks this of every hex it visits, and
     * six calls of mk_hex_neighbor made twelve divisions (a fifth of an
     * H&M search's time, perf). */
    int col = mk_hex_col(g, h), row = mk_hex_row(g, h), n = 0;
    int line = g->orient == MK_POINTY ? row : col;
    int shifted = (line & 1) == (g->shifted_even ? 1 : 0);
    const int8_t(*step)[2] = step_of[g->orient == MK_POINTY ? 0 : 1][shifted];
    for (int d = 0; d < 6; d++) {
        int c = col + step[d][0], r = row + step[d][1];
        bool on = c >= 0 && r >= 0 && c < g->cols && r < g->rows;
        out[d] = on ? (mk_hex)(r * g->cols + c) : MK_NO_HEX;
        n += on;
    }
    return n;
}

void mk_hex_neighbor_table(const mk_grid *g, mk_hex (*nb)[6], int n)
{
    int size = mk_grid_size(g);
    for (int h = 0; h < n; h++)
        if (h < size)
            mk_hex_neighbors(g, (mk_hex)h, nb[h]);
        else
            for (int d = 0; d < 6; d++)
                nb[h][d] = MK_NO_HEX;
}

/* The direction from a to its neighbour b, or -1 if they are not adjacent
 * (or either is off the map). */
int mk_hex_direction(const mk_grid *g, mk_hex a, mk_hex b)
{
    if (!valid(g, a) || !valid(g, b))
        return -1;
    mk_cube ca = mk_hex_cube(g, a), cb = mk_hex_cube(g, b);
    int dq = cb.q - ca.q, dr = cb.r - ca.r, ds = cb.s - ca.s;
    for (int d = 0; d < 6; d++) {
        const int *v = g->orient == MK_POINTY ? pointy_dir[d] : flat_dir[d];
        if (v[0] == dq && v[1] == dr && v[2] == ds)
            return d;
    }
    return -1;
}

bool mk_hex_adjacent(const mk_grid *g, mk_hex a, mk_hex b)
{
    return mk_hex_direction(g, a, b) >= 0;
}

/* How many hexes h lies from the given edge (0 on the edge itself), counted
 * in rows for north and south and in columns for west and east; -1 for a bad
 * edge or hex. */
int mk_hex_edge_distance(const mk_grid *g, mk_hex h, int edge)
{
    if (!valid(g, h))
        return -1;
    int col = mk_hex_col(g, h), row = mk_hex_row(g, h);
    switch (edge) {
    case MK_EDGE_NORTH: return row;
    case MK_EDGE_SOUTH: return g->rows - 1 - row;
    case MK_EDGE_WEST: return col;
    case MK_EDGE_EAST: return g->cols - 1 - col;
    default: return -1;
    }
}

/* True if h is in the first or last row or column. */
bool mk_hex_on_map_edge(const mk_grid *g, mk_hex h)
{
    if (!valid(g, h))
        return false;
    int col = mk_hex_col(g, h), row = mk_hex_row(g, h);
    return col == 0 || row == 0 || col == g->cols - 1 || row == g->rows - 1;
}

static const char *const edge_names[4] = {"north", "south", "west", "east"};

static char lower(char c) { return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c; }
static char upper(char c) { return (c >= 'a' && c <= 'z') ? (char)(c - 'a' + 'A') : c; }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_letter(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }

/* "north", "south", "west", "east" (any case) -> MK_EDGE_*, else
 * MK_EDGE_NONE (also for NULL). */
int mk_edge_parse(const char *name)
{
    if (!name)
        return MK_EDGE_NONE;
    for (int e = 0; e < 4; e++) {
        const char *a = name, *b = edge_names[e];
        while (*a && *b && lower(*a) == *b) {
            a++;
            b++;
        }
        if (!*a && !*b)
            return e;
    }
    return MK_EDGE_NONE;
}

/* The edge's name, or "none" for MK_EDGE_NONE and anything else. */
const char *mk_edge_name(int edge)
{
    return edge >= 0 && edge < 4 ? edge_names[edge] : "none";
}

/* Writes the column letters of 0-based column col (A..Z, AA..AZ, BA.., a
 * bijective base 26) into buf; returns the number of letters. */
static int col_letters(int col, char *buf)
{
    char rev[8];
    int n = 0;
    for (int v = col + 1; v > 0 && n < 7; v = (v - 1) / 26)
        rev[n++] = (char)('A' + (v - 1) % 26);
    for (int i = 0; i < n; i++)
        buf[i] = rev[n - 1 - i];
    buf[n] = '\0';
    return n;
}

/* The sheet holding global column col, and the sheet's first global column. */
static int sheet_of(const mk_grid *g, int col, int *first)
{
    int start = 0;
    for (int i = 0; i < g->nsheets; i++) {
        if (col < start + g->sheets[i].cols) {
            *first = start;
            return i;
        }
        start += g->sheets[i].cols;
    }
    *first = start;
    return -1;
}

/* Writes the label of h into buf (at least MK_HEX_LABEL_MAX bytes) and
 * returns buf: "F5" / "AA3" for letter maps, "W0201" (sheet, column within
 * the sheet, row) for maps of sheets. MK_NO_HEX is "-", any other hex not
 * on the map "?". */
char *mk_hex_label(const mk_grid *g, mk_hex h, char *buf)
{
    if (h == MK_NO_HEX) {
        strcpy(buf, "-");
        return buf;
    }
    if (!valid(g, h)) {
        strcpy(buf, "?");
        return buf;
    }
    int col = mk_hex_col(g, h), row = mk_hex_row(g, h);
    if (g->nsheets > 0) {
        int first, s = sheet_of(g, col, &first);
        /* Sheets have at most 99 columns and 99 rows (mk_grid_init_sheets). */
        int lcol = col - first + 1, lrow = row + 1;
        buf[0] = g->sheets[s].id;
        buf[1] = (char)('0' + lcol / 10 % 10);
        buf[2] = (char)('0' + lcol % 10);
        buf[3] = (char)('0' + lrow / 10 % 10);
        buf[4] = (char)('0' + lrow % 10);
        buf[5] = '\0';
        return buf;
    }
    /* At most 6144 hexes: 3 letters and 4 digits at worst. */
    int n = col_letters(col, buf);
    snprintf(buf + n, (size_t)(MK_HEX_LABEL_MAX - n), "%d", row + 1);
    return buf;
}

/* Parses a sheet label ("W0201": letter, two-digit column within the sheet,
 * two-digit row). */
static int parse_sheet_label(const mk_grid *g, const char *label, mk_hex *out, char *err,
                             size_t errlen)
{
    char msg[200];
    size_t len = strlen(label);
    if (len != 5 || !is_letter(label[0]) || !is_digit(label[1]) || !is_digit(label[2]) ||
        !is_digit(label[3]) || !is_digit(label[4])) {
        snprintf(msg, sizeof msg,
                 "'%.20s': not a hex label (a sheet letter and four digits, e.g. %c0101)", label,
                 g->sheets[0].id);
        set_err(err, errlen, msg);
        return -1;
    }
    char id = upper(label[0]);
    int lcol = (label[1] - '0') * 10 + (label[2] - '0');
    int row = (label[3] - '0') * 10 + (label[4] - '0');
    int first = 0, s = -1;
    for (int i = 0; i < g->nsheets; i++) {
        if (g->sheets[i].id == id) {
            s = i;
            break;
        }
        first += g->sheets[i].cols;
    }
    if (s < 0) {
        char ids[3 * MK_MAX_SHEETS + 1];
        int n = 0;
        for (int i = 0; i < g->nsheets; i++) {
            if (i > 0) {
                ids[n++] = ',';
                ids[n++] = ' ';
            }
            ids[n++] = g->sheets[i].id;
        }
        ids[n] = '\0';
        snprintf(msg, sizeof msg, "'%s' is off the map: there is no sheet %c (sheets: %s)",
                 label, id, ids);
        set_err(err, errlen, msg);
        return -1;
    }
    if (lcol < 1 || lcol > g->sheets[s].cols) {
        snprintf(msg, sizeof msg, "'%s': sheet %c has columns 01-%02d", label, id,
                 g->sheets[s].cols);
        set_err(err, errlen, msg);
        return -1;
    }
    if (row < 1 || row > g->rows) {
        snprintf(msg, sizeof msg, "'%s': rows are 01-%02d", label, g->rows);
        set_err(err, errlen, msg);
        return -1;
    }
    *out = mk_hex_at(g, first + lcol - 1, row - 1);
    return 0;
}

/* Parses a label ("F5", "W0201"; letters in either case). Returns 0 and sets
 * *out, or -1 with a message in err that names the label and what is wrong
 * ("'N4' is off the map: columns are A-M", "'F0': rows are 1-9",
 * "'Q': not a hex label"). *out is left alone on failure. */
int mk_hex_parse(const mk_grid *g, const char *label, mk_hex *out, char *err, size_t errlen)
{
    char msg[200];
    if (!label)
        label = "";
    if (g->nsheets > 0)
        return parse_sheet_label(g, label, out, err, errlen);

    const char *p = label;
    int nletters = 0, ndigits = 0;
    long col = 0, row = 0;
    for (; is_letter(*p); p++, nletters++)
        if (nletters < 6)
            col = col * 26 + (upper(*p) - 'A' + 1);
    for (; is_digit(*p); p++, ndigits++)
        if (ndigits < 9)
            row = row * 10 + (*p - '0');
    if (nletters == 0 || ndigits == 0 || *p != '\0') {
        snprintf(msg, sizeof msg, "'%.20s': not a hex label (a column letter and a row, e.g. A1)",
                 label);
        set_err(err, errlen, msg);
        return -1;
    }
    char last[8];
    col_letters(g->cols - 1, last);
    if (nletters > 6 || col > g->cols) {
        snprintf(msg, sizeof msg, "'%.20s' is off the map: columns are A-%s", label, last);
        set_err(err, errlen, msg);
        return -1;
    }
    if (row < 1 || ndigits > 9 || row > g->rows) {
        snprintf(msg, sizeof msg, "'%.20s'%s: rows are 1-%d", label,
                 row < 1 && ndigits <= 9 ? "" : " is off the map", g->rows);
        set_err(err, errlen, msg);
        return -1;
    }
    *out = mk_hex_at(g, (int)col - 1, (int)row - 1);
    return 0;
}

/* The centre of h in the map's own doubled-integer coordinates, with (0, 0)
 * the centre of the first hex of an unshifted row (pointy) or column (flat):
 * MK_POINTY: x = 2 * col (+1 in a shifted row), y = row;
 * MK_FLAT:   x = col, y = 2 * row (+1 in a shifted column). */
void mk_hex_center(const mk_grid *g, mk_hex h, int *x, int *y)
{
    int col = mk_hex_col(g, h), row = mk_hex_row(g, h);
    if (g->orient == MK_POINTY) {
        /* shifted_even: rows of odd index (printed even) are shifted. */
        int shifted = g->shifted_even ? (row & 1) : !(row & 1);
        *x = 2 * col + shifted;
        *y = row;
    } else {
        int shifted = g->shifted_even ? (col & 1) : !(col & 1);
        *x = col;
        *y = 2 * row + shifted;
    }
}
