/* draw.c - the terminal's pictures of a game: the hex map drawn in text
 * (brick rows, shifted rows indented by half a cell), its legend, and the
 * table of units. Reads only the scenario and the STATE object. */
#define _POSIX_C_SOURCE 200809L

#include "draw.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define MAX_UNIT_LINES 3   /* unit lines in one cell; more show as "+N" */
#define LEGEND_WIDTH 78
#define DEFAULT_WIDTH 120  /* the width assumed when out is not a terminal */
#define MAX_CODES 64       /* terrains or kinds given a code of their own */
#define VIEW_UNIT_LINES 2  /* unit lines in a cell of an upright window */
#define VIEW_ROWS_DEFAULT 8   /* window rows when the terminal's height is unknown */
#define VIEW_ROWS_MAX 20
#define VIEW_MIN 6         /* the smallest window, in columns and rows */
#define VIEW_LINES_KEPT 16 /* lines of a screen left for the legend, status and actions */

/* The fixed glyphs of names the rulebooks share; any other name gets a
 * letter of its own (see assign_codes). */
typedef struct glyph {
    const char *name;
    char code;
    const char *color;   /* ANSI SGR parameters, "" for none */
} glyph;

static const glyph terrain_glyphs[] = {
    {"clear", ' ', ""},        {"forest", 'F', "32"},     {"hill", 'H', "33"},
    {"town", 'T', "1"},        {"waterway", '~', "36"},   {"bridge", '=', "1;36"},
    {"ford", 'f', "36"},       {"swamp", '%', "35"},      {"fence", '#', "33"},
    {"entrenchment", 'E', "1;33"},
};

static const glyph kind_glyphs[] = {
    {"regular", 'R', ""},  {"elite", 'E', ""},     {"light", 'L', ""},
    {"militia", 'M', ""},  {"dragoon", 'D', ""},   {"artillery", 'A', ""},
    {"leader", '*', ""},   {"vp", 'V', ""},
};

static const char *const side_colors[] = {"1;34", "1;31", "1;35", "1;32"};

static const glyph *find_glyph(const glyph *table, size_t n, const char *name)
{
    for (size_t i = 0; name && i < n; i++)
        if (strcmp(table[i].name, name) == 0)
            return &table[i];
    return NULL;
}

/* Fills codes[0..n) with one character per name: the table's glyph for a
 * known name, else the first letter of the name (upper case, then lower
 * case, then the following letters) that no other name of the list uses.
 * blank0 makes index 0 (a ruleset's default terrain) a blank. */
static void assign_codes(const char *const *names, int n, const glyph *table, size_t ntable,
                         bool blank0, char *codes)
{
    bool used[256] = {false};
    for (int i = 0; i < n; i++) {
        const glyph *gl = find_glyph(table, ntable, names[i]);
        codes[i] = 0;
        if (blank0 && i == 0)
            codes[i] = ' ';
        else if (gl)
            codes[i] = gl->code;
        if (codes[i])
            used[(unsigned char)codes[i]] = true;
    }
    for (int i = 0; i < n; i++) {
        if (codes[i])
            continue;
        const char *s = names[i] ? names[i] : "?";
        for (const char *p = s; *p && !codes[i]; p++) {
            if (!isalnum((unsigned char)*p))
                continue;
            int up = toupper((unsigned char)*p), low = tolower((unsigned char)*p);
            if (!used[up])
                codes[i] = (char)up;
            else if (!used[low])
                codes[i] = (char)low;
        }
        if (!codes[i])
            codes[i] = (char)toupper((unsigned char)s[0] ? (unsigned char)s[0] : '?');
        used[(unsigned char)codes[i]] = true;
    }
}

/* See draw.h: ' ' for index 0, a fixed glyph, or a free letter. */
char mk_draw_terrain_code(const mk_ruleset *rs, int t)
{
    char codes[MAX_CODES];
    if (!rs || t < 0 || t >= rs->nterrains)
        return '?';
    if (t >= MAX_CODES)
        return rs->terrains[t] ? (char)toupper((unsigned char)rs->terrains[t][0]) : '?';
    assign_codes(rs->terrains, rs->nterrains < MAX_CODES ? rs->nterrains : MAX_CODES,
                 terrain_glyphs, sizeof terrain_glyphs / sizeof terrain_glyphs[0], true, codes);
    return codes[t];
}

/* See draw.h: a fixed glyph, a free letter among rs's kinds, or the
 * first letter in upper case. */
char mk_draw_kind_code(const mk_ruleset *rs, const char *kind)
{
    char codes[MAX_CODES];
    int k = rs && kind ? mk_ruleset_kind(rs, kind) : -1;
    if (k >= 0 && k < MAX_CODES) {
        assign_codes(rs->kinds, rs->nkinds < MAX_CODES ? rs->nkinds : MAX_CODES, kind_glyphs,
                     sizeof kind_glyphs / sizeof kind_glyphs[0], false, codes);
        return codes[k];
    }
    const glyph *gl = find_glyph(kind_glyphs, sizeof kind_glyphs / sizeof kind_glyphs[0], kind);
    if (gl)
        return gl->code;
    return kind && kind[0] ? (char)toupper((unsigned char)kind[0]) : '?';
}

/* $COLUMNS if it holds a sane number, else the terminal's width when out
 * is one, else DEFAULT_WIDTH. */
int mk_draw_width(FILE *out)
{
    const char *env = getenv("COLUMNS");
    if (env && *env) {
        char *end;
        long w = strtol(env, &end, 10);
        if (!*end && w >= 20 && w <= 1000)
            return (int)w;
    }
#ifdef TIOCGWINSZ
    struct winsize ws;
    if (isatty(fileno(out)) && ioctl(fileno(out), TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
        return ws.ws_col;
#endif
    return DEFAULT_WIDTH;
}

/* $LINES if set, else the terminal's height when out is one, else 0. */
int mk_draw_height(FILE *out)
{
    const char *env = getenv("LINES");
    if (env && *env) {
        char *end;
        long h = strtol(env, &end, 10);
        if (!*end && h >= 10 && h <= 1000)
            return (int)h;
    }
#ifdef TIOCGWINSZ
    struct winsize ws;
    if (isatty(fileno(out)) && ioctl(fileno(out), TIOCGWINSZ, &ws) == 0 && ws.ws_row >= 10)
        return ws.ws_row;
#endif
    return 0;
}

/* True when out is a terminal and NO_COLOR is not set (whatever its value). */
bool mk_draw_want_color(FILE *out)
{
    return getenv("NO_COLOR") == NULL && isatty(fileno(out));
}

/* Starts colour params on out when color is on and params is not empty;
 * returns whether it did, so that the caller ends it with sgr_end. */
static bool sgr(FILE *out, bool color, const char *params)
{
    if (!color || !params || !params[0])
        return false;
    fprintf(out, "\033[%sm", params);
    return true;
}

static void sgr_end(FILE *out, bool on)
{
    if (on)
        fputs("\033[0m", out);
}

static const char *side_color(int side)
{
    return side >= 0 ? side_colors[side % (int)(sizeof side_colors / sizeof side_colors[0])] : "";
}

/* The letter of a side on the map: the first letter of its id, upper case
 * for the first side and lower case for the second, so that two sides
 * whose ids start alike still differ. */
static char side_letter(const mk_scenario *sc, int side)
{
    if (side < 0 || side >= sc->nsides || !sc->sides[side].id[0])
        return '?';
    unsigned char c = (unsigned char)sc->sides[side].id[0];
    return (char)(side == 1 ? tolower(c) : toupper(c));
}

/* A unit as the map shows it. */
typedef struct drawn_unit {
    const char *id;      /* borrowed from the state or the scenario */
    int side;            /* side index, -1 if unknown */
    mk_hex hex;          /* MK_NO_HEX: off the map */
    char text[16];       /* "AR4", "b*", "AR3'" once acted, "bI5d" disordered */
    bool leader;         /* drawn after the other units of its hex */
    bool has_sp;         /* the number is its strength points */
    const char *status;  /* the state's "status" when not "good", else NULL */
    int next;            /* the next unit in the same hex, -1 for none */
} drawn_unit;

/* The one-character code of a unit's status (STATE "status", e.g. BAR's
 * "disordered"): 0 for none or "good", else the status's first letter,
 * upper case for a combined status ("shaken_disordered" 'S'). */
static char status_code(const char *status)
{
    if (!status || !status[0] || strcmp(status, "good") == 0)
        return 0;
    unsigned char c = (unsigned char)status[0];
    return (char)(strchr(status, '_') ? toupper(c) : tolower(c));
}

/* The units to draw, from the state's "units" or the scenario's set-up.
 * Returns a malloc'd array (caller frees) and sets *n; NULL when there are
 * none or memory ran out. */
static drawn_unit *collect_units(const mk_scenario *sc, json_t *state, int *n)
{
    json_t *units = state ? json_object_get(state, "units") : NULL;
    size_t count = units && json_is_array(units) ? json_array_size(units) : (size_t)sc->nunits;
    *n = 0;
    if (count == 0)
        return NULL;
    /* twice: a unit in two hexes (bar's "hex2", Monmouth 2.1a/2.1c) is
     * drawn in both */
    drawn_unit *du = calloc(2 * count, sizeof *du);
    if (!du)
        return NULL;
    for (size_t i = 0; i < count; i++) {
        drawn_unit *d = &du[*n];
        const char *kind = NULL, *label = NULL, *label2 = NULL;
        long mp = -1, sp = -1, sp2 = -1;
        bool acted = false;
        d->hex = MK_NO_HEX;
        d->next = -1;
        if (units && json_is_array(units)) {
            json_t *u = json_array_get(units, i);
            d->id = json_string_value(json_object_get(u, "id"));
            const char *side = json_string_value(json_object_get(u, "side"));
            d->side = side ? mk_scenario_side(sc, side) : -1;
            kind = json_string_value(json_object_get(u, "kind"));
            label = json_string_value(json_object_get(u, "hex"));
            json_t *jmp = json_object_get(u, "mp"), *jsp = json_object_get(u, "sp");
            if (json_is_integer(jmp))
                mp = (long)json_integer_value(jmp);
            if (json_is_integer(jsp))
                sp = (long)json_integer_value(jsp);
            /* a unit in two hexes: each hex's SPs */
            label2 = json_string_value(json_object_get(u, "hex2"));
            json_t *jh1 = json_object_get(u, "sp_hex"), *jh2 = json_object_get(u, "sp_hex2");
            if (json_is_integer(jh1))
                sp = (long)json_integer_value(jh1);
            if (json_is_integer(jh2))
                sp2 = (long)json_integer_value(jh2);
            d->status = json_string_value(json_object_get(u, "status"));
            if (!status_code(d->status))
                d->status = NULL;
            acted = json_is_true(json_object_get(u, "acted"));
            char err[128];
            if (!label || mk_hex_parse(&sc->map.grid, label, &d->hex, err, sizeof err) != 0)
                d->hex = MK_NO_HEX;
        } else {
            const mk_sc_unit *su = &sc->units[i];
            d->id = su->id;
            d->side = su->side;
            d->hex = su->hex;
            kind = su->kind >= 0 && su->kind < sc->rs->nkinds ? sc->rs->kinds[su->kind] : NULL;
            mp = su->mp;
        }
        if (!d->id)
            d->id = "?";
        d->leader = kind && strcmp(kind, "leader") == 0;
        d->has_sp = sp >= 0;
        /* Side, kind, then the strength where the state gives one (what a
         * player weighs most), else the MP left; status; acted. */
        int len = snprintf(d->text, sizeof d->text, "%c%c", side_letter(sc, d->side),
                           mk_draw_kind_code(sc->rs, kind));
        if (sp >= 0 && sp < 1000)
            len += snprintf(d->text + len, sizeof d->text - (size_t)len, "%ld", sp);
        else if (mp > 0 && mp < 1000)
            len += snprintf(d->text + len, sizeof d->text - (size_t)len, "%ld", mp);
        if (d->status && len < (int)sizeof d->text - 1)
            d->text[len++] = status_code(d->status);
        if (acted && len < (int)sizeof d->text - 1)
            d->text[len] = '\'';
        (*n)++;
        mk_hex h2 = MK_NO_HEX;
        char err2[128];
        if (label2 && d->hex != MK_NO_HEX && mk_hex_parse(&sc->map.grid, label2, &h2, err2, sizeof err2) == 0) {
            drawn_unit *d2 = &du[*n];   /* the second hex: the same counter, that hex's SPs */
            *d2 = *d;
            d2->hex = h2;
            d2->next = -1;
            int l2 = snprintf(d2->text, sizeof d2->text, "%c%c", side_letter(sc, d->side),
                              mk_draw_kind_code(sc->rs, kind));
            if (sp2 >= 0 && sp2 < 1000)
                l2 += snprintf(d2->text + l2, sizeof d2->text - (size_t)l2, "%ld", sp2);
            if (d->status && l2 < (int)sizeof d2->text - 1)
                d2->text[l2++] = status_code(d->status);
            if (acted && l2 < (int)sizeof d2->text - 1)
                d2->text[l2] = '\'';
            (*n)++;
        }
    }
    return du;
}

/* The map's text layout: pointy maps draw one line of cells per map row;
 * flat maps are transposed, one line of cells per map column. */
typedef struct layout {
    const mk_grid *g;
    int line0, cell0;   /* the first line and cell drawn (a window) */
    int nlines, ncells;
    int labelw;     /* the longest hex label */
    bool compact;   /* "F5*F": no brackets, for narrow terminals */
    int cw;         /* characters inside a cell, between its bars */
    int half;       /* the indent of a shifted line */
    int rulerw;     /* the left ruler, with its space */
} layout;

static mk_hex layout_hex(const layout *L, int line, int cell)
{
    line += L->line0;
    cell += L->cell0;
    return L->g->orient == MK_FLAT ? mk_hex_at(L->g, line, cell) : mk_hex_at(L->g, cell, line);
}

/* Is this line of cells one of the shifted rows (pointy) or columns (flat)?
 * Printed numbers count from 1. */
static bool layout_shifted(const layout *L, int line)
{
    bool even = (L->line0 + line + 1) % 2 == 0;
    return L->g->shifted_even ? even : !even;
}

/* Splits a label into its column part and its row part: "F5" -> "F", "5";
 * a sheet label "W0201" -> "W02", "01". */
static void label_parts(const mk_grid *g, mk_hex h, char *colpart, char *rowpart)
{
    char lab[MK_HEX_LABEL_MAX];
    mk_hex_label(g, h, lab);
    size_t len = strlen(lab), cut = len;
    if (g->nsheets > 0)
        cut = len >= 2 ? len - 2 : 0;
    else
        while (cut > 0 && isdigit((unsigned char)lab[cut - 1]))
            cut--;
    memcpy(colpart, lab, cut);
    colpart[cut] = '\0';
    strcpy(rowpart, lab + cut);
}

/* The ruler text of a line (left) or a cell (top). */
static void ruler_text(const layout *L, bool of_line, int i, char *out)
{
    char colpart[MK_HEX_LABEL_MAX], rowpart[MK_HEX_LABEL_MAX];
    bool flat = L->g->orient == MK_FLAT;
    mk_hex h = of_line ? layout_hex(L, i, 0) : layout_hex(L, 0, i);
    label_parts(L->g, h, colpart, rowpart);
    /* A pointy line is a map row; a flat one is a map column. */
    strcpy(out, (of_line != flat) ? rowpart : colpart);
}

/* Lays out the part v of g (the whole map when v is NULL; v is a pointy
 * map's window, as flat windows are drawn upright) for width characters. */
static void layout_init(layout *L, const mk_grid *g, int width, const mk_draw_view *v)
{
    char buf[MK_HEX_LABEL_MAX];
    L->g = g;
    L->line0 = L->cell0 = 0;
    L->nlines = g->orient == MK_FLAT ? g->cols : g->rows;
    L->ncells = g->orient == MK_FLAT ? g->rows : g->cols;
    if (v && g->orient == MK_POINTY) {
        L->line0 = v->row0;
        L->cell0 = v->col0;
        L->nlines = v->rows;
        L->ncells = v->cols;
    }
    L->labelw = 1;
    for (int h = 0; h < mk_grid_size(g); h++) {
        int w = (int)strlen(mk_hex_label(g, (mk_hex)h, buf));
        if (w > L->labelw)
            L->labelw = w;
    }
    L->rulerw = 1;
    for (int i = 0; i < L->nlines; i++) {
        ruler_text(L, true, i, buf);
        if ((int)strlen(buf) > L->rulerw)
            L->rulerw = (int)strlen(buf);
    }
    L->rulerw += 1;
    /* Roomy: "[F5] F", a highlighted label in brackets, a space, the
     * terrain. Compact, when that is wider than the terminal: "F5*F". */
    L->compact = false;
    L->cw = L->labelw + 4 > 6 ? L->labelw + 4 : 6;
    L->half = (L->cw + 1) / 2;
    if (L->rulerw + L->half + L->ncells * (L->cw + 1) + 1 > width) {
        L->compact = true;
        L->cw = L->labelw + 2 > 4 ? L->labelw + 2 : 4;
        L->half = (L->cw + 1) / 2;
    }
}

static const char *terrain_color(const mk_ruleset *rs, int t)
{
    if (t < 0 || t >= rs->nterrains)
        return "";
    const glyph *gl = find_glyph(terrain_glyphs, sizeof terrain_glyphs / sizeof terrain_glyphs[0],
                                 rs->terrains[t]);
    return gl ? gl->color : "";
}

static bool is_highlighted(mk_hex h, const mk_hex *highlight, int n)
{
    for (int i = 0; highlight && i < n; i++)
        if (highlight[i] == h)
            return true;
    return false;
}

/* Writes the top line of a cell: its label (in brackets when highlighted)
 * and its terrain code. */
static void draw_label_line(FILE *out, const layout *L, const mk_scenario *sc, mk_hex h,
                            const char *tcodes, bool hl, bool color)
{
    char lab[MK_HEX_LABEL_MAX], text[MK_HEX_LABEL_MAX + 4];
    mk_hex_label(L->g, h, lab);
    int t = sc->map.terrain[h];
    char code = t < MAX_CODES && t < sc->rs->nterrains ? tcodes[t] : '?';
    if (L->compact)
        snprintf(text, sizeof text, "%-*s%c", L->labelw, lab, hl ? '*' : ' ');
    else
        snprintf(text, sizeof text, hl ? "[%s]" : "%s", lab);
    bool on = sgr(out, color && hl, "7");
    fputs(text, out);
    sgr_end(out, on);
    fprintf(out, "%*s", L->cw - 1 - (int)strlen(text), "");
    on = sgr(out, color, terrain_color(sc->rs, t));
    fputc(code, out);
    sgr_end(out, on);
}

/* Appends words to a legend line, wrapping at LEGEND_WIDTH with an indent. */
typedef struct wrapper {
    FILE *out;
    int col, indent;
} wrapper;

static void wrap_word(wrapper *w, const char *word)
{
    int len = (int)strlen(word);
    if (w->col > w->indent && w->col + 1 + len > LEGEND_WIDTH) {
        fprintf(w->out, "\n%*s", w->indent, "");
        w->col = w->indent;
    } else if (w->col > w->indent) {
        fputc(' ', w->out);
        w->col++;
    }
    fputs(word, w->out);
    w->col += len;
}

static void wrap_start(wrapper *w, FILE *out, const char *head)
{
    w->out = out;
    fputs(head, out);
    w->col = w->indent = (int)strlen(head);
}

/* Writes "head a, b, c." wrapped: items[0..n) joined by commas. */
static void wrap_list(FILE *out, const char *head, char items[][64], int n, const char *end)
{
    wrapper w;
    char word[80];
    wrap_start(&w, out, head);
    for (int i = 0; i < n; i++) {
        snprintf(word, sizeof word, "%s%s", items[i], i + 1 < n ? "," : end);
        wrap_word(&w, word);
    }
    fputc('\n', out);
}

/* Is h inside v (NULL: the whole map)? */
static bool in_view(const mk_grid *g, const mk_draw_view *v, mk_hex h)
{
    if (h == MK_NO_HEX)
        return false;
    if (!v)
        return true;
    int c = mk_hex_col(g, h), r = mk_hex_row(g, h);
    return c >= v->col0 && c < v->col0 + v->cols && r >= v->row0 && r < v->row0 + v->rows;
}

/* The legend of what lies in v (NULL: the whole map): terrain, the unit
 * codes, the statuses shown, and the stacks with their ids. */
static void draw_legend(FILE *out, const mk_scenario *sc, const drawn_unit *du, int nu,
                        const char *tcodes, int ntcodes, bool any_highlight, bool compact,
                        const mk_draw_view *v, bool transposed)
{
    const mk_ruleset *rs = sc->rs;
    const mk_grid *g = &sc->map.grid;
    char items[MAX_CODES + MK_MAX_SIDES][64];
    int n = 0, nhex = mk_grid_size(g);

    /* Terrain present in the view, in the ruleset's order. */
    for (int t = 0; t < rs->nterrains && t < ntcodes; t++) {
        bool present = false;
        for (int h = 0; h < nhex && !present; h++)
            present = sc->map.terrain[h] == t && in_view(g, v, (mk_hex)h);
        if (!present)
            continue;
        if (tcodes[t] == ' ')
            snprintf(items[n++], sizeof items[0], "blank %s", rs->terrains[t]);
        else
            snprintf(items[n++], sizeof items[0], "%c %s", tcodes[t], rs->terrains[t]);
    }
    wrap_list(out, "Terrain: ", items, n, ".");

    n = 0;
    for (int s = 0; s < sc->nsides && s < MK_MAX_SIDES; s++)
        snprintf(items[n++], sizeof items[0], "%c %s", side_letter(sc, s), sc->sides[s].id);
    wrap_list(out, "Units:   side letter ", items, n, ";");
    n = 0;
    bool any_sp = false;
    for (int i = 0; i < nu; i++)
        any_sp |= du[i].has_sp && in_view(g, v, du[i].hex);
    for (int k = 0; k < rs->nkinds && n < MAX_CODES; k++) {
        char code = mk_draw_kind_code(rs, rs->kinds[k]);
        bool present = false;
        for (int i = 0; i < nu && !present; i++)
            present = in_view(g, v, du[i].hex) && du[i].text[1] == code;
        if (present)
            snprintf(items[n++], sizeof items[0], "%c %s", code, rs->kinds[k]);
    }
    if (n > 0)
        wrap_list(out, "         then kind ", items, n, ";");
    /* Statuses shown, each once, in the order met. */
    n = 0;
    for (int i = 0; i < nu && n < MAX_CODES; i++) {
        if (!du[i].status || !in_view(g, v, du[i].hex))
            continue;
        char item[64];
        snprintf(item, sizeof item, "%c %s", status_code(du[i].status), du[i].status);
        bool seen = false;
        for (int j = 0; j < n && !seen; j++)
            seen = strcmp(items[j], item) == 0;
        if (!seen)
            snprintf(items[n++], sizeof items[0], "%s", item);
    }
    if (any_sp)
        fputs("         then SP (pieces without SP: MP, none shown: 0)", out);
    else
        fputs("         then MP (none shown: 0)", out);
    if (n > 0) {
        fputs(";\n", out);
        wrap_list(out, "         then status ", items, n, ";");
        fputs("         ' after it: acted this turn.\n", out);
    } else {
        fputs("; ' after it: acted this turn.\n", out);
    }
    if (any_highlight)
        fputs(compact ? "F5*:     a hex where something just happened.\n"
                      : "[F5]:    a hex where something just happened.\n",
              out);

    /* Stacks, so that every unit's id can be found on the map. */
    wrapper w;
    char item[96];
    bool any = false;
    for (int i = 0; i < nu; i++) {
        if (!in_view(g, v, du[i].hex) || du[i].next < 0)
            continue;
        bool first = true;   /* the head of its hex's chain? */
        for (int j = 0; j < nu && first; j++)
            first = du[j].next != i;
        if (!first)
            continue;
        if (!any)
            wrap_start(&w, out, "Stacks:  ");
        any = true;
        char lab[MK_HEX_LABEL_MAX];
        size_t len = (size_t)snprintf(item, sizeof item, "%s", mk_hex_label(g, du[i].hex, lab));
        for (int j = i; j >= 0 && len < sizeof item; j = du[j].next)
            len += (size_t)snprintf(item + len, sizeof item - len, "%s%s", j == i ? " " : " + ",
                                    du[j].id);
        if (len < sizeof item - 1)
            strcat(item, ";");
        wrap_word(&w, item);
    }
    if (any)
        fputc('\n', out);
    if (transposed)
        fputs("(A flat map, drawn transposed: each line of cells is one map column.)\n", out);
}

/* Chains the units of each hex into head[hex] -> du[].next, the leaders
 * after the other units (a stack shows its fighting units first). Returns
 * head (nhex entries, caller frees) or NULL when memory ran out. */
static int *chain_units(drawn_unit *du, int nu, int nhex)
{
    int *head = malloc((size_t)nhex * sizeof *head), *tail = malloc((size_t)nhex * sizeof *tail);
    if (!head || !tail) {
        free(head);
        free(tail);
        return NULL;
    }
    for (int h = 0; h < nhex; h++)
        head[h] = tail[h] = -1;
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < nu; i++) {
            mk_hex h = du[i].hex;
            if (h == MK_NO_HEX || h < 0 || h >= nhex || du[i].leader != (pass == 1))
                continue;
            if (tail[h] < 0)
                head[h] = i;
            else
                du[tail[h]].next = i;
            tail[h] = i;
        }
    }
    free(tail);
    return head;
}

/* Writes unit line k (1-based) of hex h in a cell cw wide: the k-th unit,
 * or "+N" on the last line (nunit_lines) for it and the rest. */
static void draw_unit_line(FILE *out, const drawn_unit *du, const int *head, mk_hex h, int k,
                           int nunit_lines, int cw, bool color)
{
    int i = head[h], skip = k - 1, rest = 0;
    while (i >= 0 && skip-- > 0)
        i = du[i].next;
    for (int j = i; j >= 0; j = du[j].next)
        rest++;
    if (i < 0) {
        fprintf(out, "%*s", cw, "");
    } else if (k == nunit_lines && rest > 1) {
        char more[16];
        snprintf(more, sizeof more, "+%d", rest);
        fprintf(out, "%-*s", cw, more);
    } else {
        bool on = sgr(out, color, side_color(du[i].side));
        fputs(du[i].text, out);
        sgr_end(out, on);
        fprintf(out, "%*s", cw - (int)strlen(du[i].text), "");
    }
}

/* Draws the cells of layout L (brick rows; flat maps transposed). Returns
 * whether a highlighted hex was drawn. */
static bool draw_bricks(FILE *out, const layout *L, const mk_scenario *sc, const drawn_unit *du,
                        const int *head, const char *tcodes, const mk_hex *highlight,
                        int nhighlight, bool color)
{
    /* The top ruler over the unshifted lines' cells. */
    char ruler[MK_HEX_LABEL_MAX];
    fprintf(out, "%*s", L->rulerw, "");
    for (int c = 0; c < L->ncells; c++) {
        ruler_text(L, false, c, ruler);
        int pad = (L->cw - (int)strlen(ruler)) / 2;
        fprintf(out, " %*s%s%*s", pad, "", ruler, L->cw - pad - (int)strlen(ruler), "");
    }
    fputc('\n', out);

    bool any_highlight = false;
    for (int line = 0; line < L->nlines; line++) {
        int most = 0;
        for (int c = 0; c < L->ncells; c++) {
            mk_hex h = layout_hex(L, line, c);
            int k = 0;
            for (int i = h == MK_NO_HEX ? -1 : head[h]; i >= 0; i = du[i].next)
                k++;
            if (k > most)
                most = k;
        }
        int nunit_lines = most < 1 ? 1 : most > MAX_UNIT_LINES ? MAX_UNIT_LINES : most;
        int indent = layout_shifted(L, line) ? L->half : 0;
        for (int k = 0; k <= nunit_lines; k++) {
            if (k == 0) {
                ruler_text(L, true, line, ruler);
                fprintf(out, "%*s ", L->rulerw - 1, ruler);
            } else {
                fprintf(out, "%*s", L->rulerw, "");
            }
            fprintf(out, "%*s", indent, "");
            for (int c = 0; c < L->ncells; c++) {
                mk_hex h = layout_hex(L, line, c);
                fputc('|', out);
                if (h == MK_NO_HEX) {
                    fprintf(out, "%*s", L->cw, "");
                } else if (k == 0) {
                    bool hl = is_highlighted(h, highlight, nhighlight);
                    any_highlight |= hl;
                    draw_label_line(out, L, sc, h, tcodes, hl, color);
                } else {
                    draw_unit_line(out, du, head, h, k, nunit_lines, L->cw, color);
                }
            }
            fputs("|\n", out);
        }
    }
    return any_highlight;
}

/* The upright drawing of a flat map's window v: one strip of cells per map
 * column, the shifted columns half a cell lower, as on the printed map.
 * Each cell is a rule, its label with the highlight mark and terrain code
 * ("E1525*W"), and VIEW_UNIT_LINES lines of units. Returns whether a
 * highlighted hex was drawn. */
static bool draw_upright(FILE *out, const mk_scenario *sc, const drawn_unit *du, const int *head,
                         const char *tcodes, const mk_hex *highlight, int nhighlight, bool color,
                         const mk_draw_view *v)
{
    const mk_grid *g = &sc->map.grid;
    char lab[MK_HEX_LABEL_MAX], colpart[MK_HEX_LABEL_MAX], rowpart[MK_HEX_LABEL_MAX];
    int labelw = 1;
    for (int c = v->col0; c < v->col0 + v->cols; c++)
        for (int r = v->row0; r < v->row0 + v->rows; r++) {
            int w = (int)strlen(mk_hex_label(g, mk_hex_at(g, c, r), lab));
            labelw = w > labelw ? w : labelw;
        }
    int cw = labelw + 2;
    int most = 0;
    for (int c = v->col0; c < v->col0 + v->cols; c++)
        for (int r = v->row0; r < v->row0 + v->rows; r++) {
            mk_hex h = mk_hex_at(g, c, r);
            int k = 0;
            for (int i = h == MK_NO_HEX ? -1 : head[h]; i >= 0; i = du[i].next)
                k++;
            most = k > most ? k : most;
        }
    int nunit = most < 1 ? 1 : most > VIEW_UNIT_LINES ? VIEW_UNIT_LINES : most;
    int height = 2 + nunit, shift = height / 2;

    /* The ruler: each column's part of the label ("E15"). */
    fputs(" ", out);
    for (int c = v->col0; c < v->col0 + v->cols; c++) {
        label_parts(g, mk_hex_at(g, c, v->row0), colpart, rowpart);
        int pad = (cw - (int)strlen(colpart)) / 2;
        fprintf(out, " %*s%s%*s", pad, "", colpart, cw - pad - (int)strlen(colpart), "");
    }
    fputc('\n', out);

    bool any_highlight = false;
    int nlines = v->rows * height + shift + 1;
    for (int y = 0; y < nlines; y++) {
        fputs(" ", out);
        for (int c = v->col0; c < v->col0 + v->cols; c++) {
            bool shifted = g->shifted_even ? (c + 1) % 2 == 0 : (c + 1) % 2 == 1;
            int yy = y - (shifted ? shift : 0);
            int k = yy >= 0 ? yy / height : -1, sub = yy >= 0 ? yy % height : -1;
            fputc('|', out);
            if (k < 0 || k > v->rows || (k == v->rows && sub != 0)) {
                fprintf(out, "%*s", cw, "");
                continue;
            }
            if (sub == 0) {   /* the rule above a cell, or under the last */
                for (int i = 0; i < cw; i++)
                    fputc('-', out);
                continue;
            }
            mk_hex h = mk_hex_at(g, c, v->row0 + k);
            if (h == MK_NO_HEX) {
                fprintf(out, "%*s", cw, "");
            } else if (sub == 1) {
                bool hl = is_highlighted(h, highlight, nhighlight);
                any_highlight |= hl;
                int t = sc->map.terrain[h];
                char code = t < MAX_CODES && t < sc->rs->nterrains ? tcodes[t] : '?';
                bool on = sgr(out, color && hl, "7");
                fprintf(out, "%-*s%c", labelw, mk_hex_label(g, h, lab), hl ? '*' : ' ');
                sgr_end(out, on);
                on = sgr(out, color, terrain_color(sc->rs, t));
                fputc(code, out);
                sgr_end(out, on);
            } else {
                draw_unit_line(out, du, head, h, sub - 1, nunit, cw, color);
            }
        }
        fputs("|\n", out);
    }
    return any_highlight;
}

/* Draws the part v of the map (NULL: all of it) with the units of state
 * (NULL: the set-up); upright is for flat maps: windows are drawn upright,
 * the whole map by mk_draw_map transposed. Writes only to out and frees
 * what it allocates. */
static void draw_map(FILE *out, const mk_scenario *sc, json_t *state, const mk_hex *highlight,
                     int nhighlight, bool color, const mk_draw_view *v, bool upright)
{
    const mk_grid *g = &sc->map.grid;
    int nu = 0;
    char tcodes[MAX_CODES];
    int ntcodes = sc->rs->nterrains < MAX_CODES ? sc->rs->nterrains : MAX_CODES;
    assign_codes(sc->rs->terrains, ntcodes, terrain_glyphs,
                 sizeof terrain_glyphs / sizeof terrain_glyphs[0], true, tcodes);
    drawn_unit *du = collect_units(sc, state, &nu);
    int *head = chain_units(du, nu, mk_grid_size(g));
    if (!head) {
        free(du);
        fputs("(out of memory drawing the map)\n", out);
        return;
    }
    bool flat_upright = g->orient == MK_FLAT && upright;
    mk_draw_view all = {0, 0, g->cols, g->rows};
    bool any_highlight, compact = true;
    if (flat_upright) {
        any_highlight = draw_upright(out, sc, du, head, tcodes, highlight, nhighlight, color,
                                     v ? v : &all);
    } else {
        layout L;
        layout_init(&L, g, mk_draw_width(out), v);
        compact = L.compact;
        any_highlight = draw_bricks(out, &L, sc, du, head, tcodes, highlight, nhighlight, color);
    }
    draw_legend(out, sc, du, nu, tcodes, ntcodes, any_highlight, compact, v,
                g->orient == MK_FLAT && !flat_upright);
    free(head);
    free(du);
}

/* See draw.h: the whole map, flat maps transposed. */
void mk_draw_map(FILE *out, const mk_scenario *sc, json_t *state, const mk_hex *highlight,
                 int nhighlight, bool color)
{
    draw_map(out, sc, state, highlight, nhighlight, color, NULL, false);
}

/* See draw.h: the window v (NULL: the whole map), flat maps upright. */
void mk_draw_map_view(FILE *out, const mk_scenario *sc, json_t *state, const mk_hex *highlight,
                      int nhighlight, bool color, const mk_draw_view *v)
{
    mk_draw_view clipped;
    if (v) {
        clipped = *v;
        mk_draw_view_clip(&sc->map.grid, &clipped);
        v = &clipped;
    }
    draw_map(out, sc, state, highlight, nhighlight, color, v, true);
}

/* The longest hex label of g. */
static int label_width(const mk_grid *g)
{
    char lab[MK_HEX_LABEL_MAX];
    int labelw = 1;
    for (int h = 0; h < mk_grid_size(g); h++) {
        int w = (int)strlen(mk_hex_label(g, (mk_hex)h, lab));
        labelw = w > labelw ? w : labelw;
    }
    return labelw;
}

/* The characters a picture of cols columns takes (*base) and each column
 * adds (*per) in the layout mk_draw_map_view uses, the narrow one where
 * the roomy one would not fit in width. */
static void view_metrics(const mk_grid *g, int cols, int width, int *base, int *per)
{
    int labelw = label_width(g);
    if (g->orient == MK_FLAT) {   /* upright: a bar and "E1525*W" per column */
        *base = 2;
        *per = labelw + 3;
        return;
    }
    int roomy = labelw + 4 > 6 ? labelw + 4 : 6, tight = labelw + 2 > 4 ? labelw + 2 : 4;
    int ruler = 4;   /* the row numbers and a space */
    *base = ruler + (roomy + 1) / 2 + 1;
    *per = roomy + 1;
    if (*base + cols * *per > width) {
        *base = ruler + (tight + 1) / 2 + 1;
        *per = tight + 1;
    }
}

/* See draw.h. */
bool mk_draw_map_fits(const mk_scenario *sc, int width, int max_rows)
{
    const mk_grid *g = &sc->map.grid;
    int base, per;
    view_metrics(g, g->cols, width, &base, &per);
    return base + g->cols * per <= width && g->rows <= max_rows;
}

/* See draw.h: as many columns as fit in width, rows to about height lines
 * (a default when height is 0), both at most the map's. */
void mk_draw_view_fit(const mk_scenario *sc, int width, int height, mk_draw_view *v)
{
    const mk_grid *g = &sc->map.grid;
    int base, per;
    view_metrics(g, g->cols, width, &base, &per);
    v->cols = (width - base) / per;
    /* a flat row is a rule, a label and VIEW_UNIT_LINES lines; a pointy
     * row a label and up to MAX_UNIT_LINES lines. Room is left for the
     * legend, the status and the actions. */
    int row_lines = g->orient == MK_FLAT ? 2 + VIEW_UNIT_LINES : 1 + MAX_UNIT_LINES;
    v->rows = height > 0 ? (height - VIEW_LINES_KEPT) / row_lines : VIEW_ROWS_DEFAULT;
    if (v->cols < VIEW_MIN)
        v->cols = VIEW_MIN;
    if (v->rows < VIEW_MIN)
        v->rows = VIEW_MIN;
    if (v->rows > VIEW_ROWS_MAX)
        v->rows = VIEW_ROWS_MAX;
    mk_draw_view_clip(g, v);
}

/* See draw.h: the size at most the map's, the corner moved onto it. */
void mk_draw_view_clip(const mk_grid *g, mk_draw_view *v)
{
    v->cols = v->cols < 1 ? 1 : v->cols > g->cols ? g->cols : v->cols;
    v->rows = v->rows < 1 ? 1 : v->rows > g->rows ? g->rows : v->rows;
    v->col0 = v->col0 < 0 ? 0 : v->col0 + v->cols > g->cols ? g->cols - v->cols : v->col0;
    v->row0 = v->row0 < 0 ? 0 : v->row0 + v->rows > g->rows ? g->rows - v->rows : v->row0;
}

/* See draw.h: the middle of the hexes' bounding box, then clipped. */
void mk_draw_view_centre(const mk_grid *g, mk_draw_view *v, const mk_hex *hexes, int n)
{
    int c0 = g->cols, c1 = -1, r0 = g->rows, r1 = -1;
    for (int i = 0; i < n; i++) {
        if (hexes[i] == MK_NO_HEX || hexes[i] < 0 || hexes[i] >= mk_grid_size(g))
            continue;
        int c = mk_hex_col(g, hexes[i]), r = mk_hex_row(g, hexes[i]);
        c0 = c < c0 ? c : c0;
        c1 = c > c1 ? c : c1;
        r0 = r < r0 ? r : r0;
        r1 = r > r1 ? r : r1;
    }
    if (c1 < 0)
        return;
    v->col0 = (c0 + c1 + 1) / 2 - v->cols / 2;
    v->row0 = (r0 + r1 + 1) / 2 - v->rows / 2;
    mk_draw_view_clip(g, v);
}

/* See draw.h: one character a hex, a unit's side letter over terrain. */
void mk_draw_overview(FILE *out, const mk_scenario *sc, json_t *state, bool color,
                      const mk_draw_view *frame)
{
    const mk_grid *g = &sc->map.grid;
    int nu = 0;
    char tcodes[MAX_CODES];
    int ntcodes = sc->rs->nterrains < MAX_CODES ? sc->rs->nterrains : MAX_CODES;
    assign_codes(sc->rs->terrains, ntcodes, terrain_glyphs,
                 sizeof terrain_glyphs / sizeof terrain_glyphs[0], true, tcodes);
    drawn_unit *du = collect_units(sc, state, &nu);
    int *head = chain_units(du, nu, mk_grid_size(g));
    if (!head) {
        free(du);
        fputs("(out of memory drawing the map)\n", out);
        return;
    }
    /* Two ruler lines: the column part of the labels, a character each,
     * read downwards ("E" then "1" then "5" for sheet E's column 15 where
     * the labels are sheet letter and two digits). */
    char colpart[MK_HEX_LABEL_MAX], rowpart[MK_HEX_LABEL_MAX];
    int depth = 0;
    for (int c = 0; c < g->cols; c++) {
        label_parts(g, mk_hex_at(g, c, 0), colpart, rowpart);
        depth = (int)strlen(colpart) > depth ? (int)strlen(colpart) : depth;
    }
    for (int k = 0; k < depth; k++) {
        fputs("    ", out);
        for (int c = 0; c < g->cols; c++) {
            label_parts(g, mk_hex_at(g, c, 0), colpart, rowpart);
            int len = (int)strlen(colpart);
            int at = k - (depth - len);   /* right-aligned: the units digit last */
            fputc(at >= 0 ? colpart[at] : ' ', out);
        }
        fputc('\n', out);
    }
    for (int r = 0; r < g->rows; r++) {
        label_parts(g, mk_hex_at(g, 0, r), colpart, rowpart);
        bool in_rows = frame && r >= frame->row0 && r < frame->row0 + frame->rows;
        fprintf(out, "%3s%c", rowpart, in_rows ? '>' : ' ');
        for (int c = 0; c < g->cols; c++) {
            mk_hex h = mk_hex_at(g, c, r);
            bool framed = frame && in_rows && c >= frame->col0 && c < frame->col0 + frame->cols;
            int i = h == MK_NO_HEX ? -1 : head[h];
            char ch;
            const char *params;
            if (i >= 0) {
                ch = du[i].text[0];
                params = side_color(du[i].side);
            } else {
                int t = h == MK_NO_HEX ? -1 : sc->map.terrain[h];
                ch = t >= 0 && t < ntcodes ? tcodes[t] : '?';
                if (ch == ' ')
                    ch = framed && !color ? ':' : '.';
                params = t >= 0 && t < ntcodes ? terrain_color(sc->rs, t) : "";
            }
            bool on = sgr(out, color, framed ? "7" : params);
            fputc(ch, out);
            sgr_end(out, on);
        }
        fputc('\n', out);
    }
    char items[MK_MAX_SIDES + MAX_CODES][64];
    int n = 0;
    for (int t = 0; t < ntcodes; t++) {
        bool present = false;
        for (int h = 0; h < mk_grid_size(g) && !present; h++)
            present = sc->map.terrain[h] == t;
        if (present)
            snprintf(items[n++], sizeof items[0], "%c %s", tcodes[t] == ' ' ? '.' : tcodes[t],
                     sc->rs->terrains[t]);
    }
    wrap_list(out, "Terrain: ", items, n, ".");
    n = 0;
    for (int s = 0; s < sc->nsides && s < MK_MAX_SIDES; s++)
        snprintf(items[n++], sizeof items[0], "%c %s", side_letter(sc, s), sc->sides[s].id);
    wrap_list(out, "Units:   ", items, n, " (a hex with units shows its first unit's side).");
    if (frame)
        fputs(color ? "The window is shown reversed; > marks its rows.\n"
                    : "The window is shown with : for open ground; > marks its rows.\n",
              out);
    if (g->orient == MK_FLAT)
        fputs("(One character a hex: the shifted columns are not drawn half a hex lower.)\n", out);
    free(head);
    free(du);
}

/* The unit fields every ruleset writes (PROTOCOL.md UNIT), and the
 * "name" the NAME column shows; the table lists any others as notes, but
 * the column_fields get a column of their own when some unit has them. */
static const char *const common_unit_fields[] = {"id", "side", "kind", "hex", "mp", "mp_start",
                                                 "acted", "name"};
enum { COL_SP, COL_FORMATION, COL_STATUS, COL_FACING, NCOLS };
static const char *const column_fields[NCOLS] = {"sp", "formation", "status", "facing"};
static const char *const column_heads[NCOLS] = {"SP", "FORMATION", "STATUS", "FACING"};

static bool is_common_field(const char *key)
{
    for (size_t i = 0; i < sizeof common_unit_fields / sizeof common_unit_fields[0]; i++)
        if (strcmp(common_unit_fields[i], key) == 0)
            return true;
    for (int i = 0; i < NCOLS; i++)
        if (strcmp(column_fields[i], key) == 0)
            return true;
    return false;
}

/* One row of the units table. */
typedef struct unit_row {
    char id[MK_ID_MAX], side[MK_ID_MAX], kind[MK_ID_MAX], mp[16], hex[MK_HEX_LABEL_MAX];
    char col[NCOLS][24];   /* column_fields' values, "" where the unit has none */
    char notes[160];
    int sidei;
} unit_row;

static void row_notes(unit_row *r, const mk_scenario *sc, json_t *u)
{
    size_t len = 0;
    int i = mk_scenario_unit(sc, r->id);
    r->notes[0] = '\0';
    if (i >= 0 && sc->units[i].name[0])
        len += (size_t)snprintf(r->notes + len, sizeof r->notes - len, "%s", sc->units[i].name);
    if (i >= 0 && sc->units[i].nrating > 0 && len < sizeof r->notes) {
        len += (size_t)snprintf(r->notes + len, sizeof r->notes - len, "%srating %d", len ? ", " : "",
                                sc->units[i].rating[0]);
        if (sc->units[i].nrating > 1 && len < sizeof r->notes)
            len += (size_t)snprintf(r->notes + len, sizeof r->notes - len, "-%d",
                                    sc->units[i].rating[1]);
    }
    if (!u)
        return;
    if (json_is_true(json_object_get(u, "acted")) && len < sizeof r->notes)
        len += (size_t)snprintf(r->notes + len, sizeof r->notes - len, "%sacted", len ? ", " : "");
    const char *key;
    json_t *v;
    json_object_foreach(u, key, v) {
        if (is_common_field(key) || json_is_null(v) || json_is_false(v) || len >= sizeof r->notes)
            continue;
        if (json_is_true(v)) {
            len += (size_t)snprintf(r->notes + len, sizeof r->notes - len, "%s%s", len ? ", " : "", key);
            continue;
        }
        char *text = json_is_string(v) ? NULL : json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
        const char *shown = json_is_string(v) ? json_string_value(v) : text;
        if (shown)
            len += (size_t)snprintf(r->notes + len, sizeof r->notes - len, "%s%s %s",
                                    len ? ", " : "", key, shown);
        free(text);
    }
}

/* Prints the units table of state (NULL: the set-up) to out. */
void mk_draw_units(FILE *out, const mk_scenario *sc, json_t *state, bool color)
{
    json_t *units = state ? json_object_get(state, "units") : NULL;
    bool from_state = units && json_is_array(units);
    int n = from_state ? (int)json_array_size(units) : sc->nunits;
    unit_row *rows = calloc(n > 0 ? (size_t)n : 1, sizeof *rows);
    if (!rows)
        return;
    int w_id = 2, w_side = 4, w_kind = 4, w_mp = 2, w_hex = 3, w_col[NCOLS] = {0};
    for (int i = 0; i < n; i++) {
        unit_row *r = &rows[i];
        if (from_state) {
            json_t *u = json_array_get(units, (size_t)i);
            const char *s;
            snprintf(r->id, sizeof r->id, "%s", (s = json_string_value(json_object_get(u, "id"))) ? s : "?");
            snprintf(r->side, sizeof r->side, "%s",
                     (s = json_string_value(json_object_get(u, "side"))) ? s : "?");
            snprintf(r->kind, sizeof r->kind, "%s",
                     (s = json_string_value(json_object_get(u, "kind"))) ? s : "?");
            snprintf(r->hex, sizeof r->hex, "%s", (s = json_string_value(json_object_get(u, "hex"))) ? s : "-");
            json_t *mp = json_object_get(u, "mp"), *start = json_object_get(u, "mp_start");
            if (json_is_integer(mp) && json_is_integer(start) &&
                json_integer_value(start) != json_integer_value(mp))
                snprintf(r->mp, sizeof r->mp, "%d/%d", (int)json_integer_value(mp),
                         (int)json_integer_value(start));
            else if (json_is_integer(mp))
                snprintf(r->mp, sizeof r->mp, "%d", (int)json_integer_value(mp));
            else
                strcpy(r->mp, "-");
            for (int c = 0; c < NCOLS; c++) {
                json_t *v = json_object_get(u, column_fields[c]);
                if (json_is_string(v))
                    snprintf(r->col[c], sizeof r->col[c], "%s", json_string_value(v));
                else if (json_is_integer(v))
                    snprintf(r->col[c], sizeof r->col[c], "%lld", (long long)json_integer_value(v));
            }
            r->sidei = mk_scenario_side(sc, r->side);
            row_notes(r, sc, u);
        } else {
            const mk_sc_unit *su = &sc->units[i];
            snprintf(r->id, sizeof r->id, "%s", su->id);
            snprintf(r->side, sizeof r->side, "%s",
                     su->side >= 0 && su->side < sc->nsides ? sc->sides[su->side].id : "?");
            snprintf(r->kind, sizeof r->kind, "%s",
                     su->kind >= 0 && su->kind < sc->rs->nkinds ? sc->rs->kinds[su->kind] : "?");
            mk_hex_label(&sc->map.grid, su->hex, r->hex);
            if (su->mp_start > su->mp)
                snprintf(r->mp, sizeof r->mp, "%d/%d", su->mp, su->mp_start);
            else
                snprintf(r->mp, sizeof r->mp, "%d", su->mp);
            r->sidei = su->side;
            row_notes(r, sc, NULL);
        }
#define WIDEN(w, s) if ((int)strlen(s) > (w)) (w) = (int)strlen(s)
        WIDEN(w_id, r->id);
        WIDEN(w_side, r->side);
        WIDEN(w_kind, r->kind);
        WIDEN(w_mp, r->mp);
        WIDEN(w_hex, r->hex);
        for (int c = 0; c < NCOLS; c++)
            WIDEN(w_col[c], r->col[c]);
#undef WIDEN
    }
    /* A column only where some unit has the field, at least as wide as its head. */
    for (int c = 0; c < NCOLS; c++)
        if (w_col[c] > 0 && w_col[c] < (int)strlen(column_heads[c]))
            w_col[c] = (int)strlen(column_heads[c]);
    fprintf(out, "  %-*s  %-*s  %-*s  %*s  %-*s", w_id, "ID", w_side, "SIDE", w_kind, "KIND", w_mp,
            "MP", w_hex, "HEX");
    for (int c = 0; c < NCOLS; c++)
        if (w_col[c] > 0)
            fprintf(out, "  %-*s", w_col[c], column_heads[c]);
    fprintf(out, "  %s\n", "NAME / RATING / NOTES");
    for (int i = 0; i < n; i++) {
        unit_row *r = &rows[i];
        fprintf(out, "  %-*s  ", w_id, r->id);
        bool on = sgr(out, color, side_color(r->sidei));
        fprintf(out, "%-*s", w_side, r->side);
        sgr_end(out, on);
        fprintf(out, "  %-*s  %*s  %-*s", w_kind, r->kind, w_mp, r->mp, w_hex, r->hex);
        for (int c = 0; c < NCOLS; c++)
            if (w_col[c] > 0)
                fprintf(out, "  %-*s", w_col[c], r->col[c]);
        fprintf(out, "  %s\n", r->notes);
    }
    free(rows);
}
