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
    char text[16];       /* "AR4", "b*", "AR3'" once acted */
    int next;            /* the next unit in the same hex, -1 for none */
} drawn_unit;

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
    drawn_unit *du = calloc(count, sizeof *du);
    if (!du)
        return NULL;
    for (size_t i = 0; i < count; i++) {
        drawn_unit *d = &du[*n];
        const char *kind = NULL, *label = NULL;
        long mp = -1;
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
            json_t *jmp = json_object_get(u, "mp");
            if (json_is_integer(jmp))
                mp = (long)json_integer_value(jmp);
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
        int len = snprintf(d->text, sizeof d->text, "%c%c", side_letter(sc, d->side),
                           mk_draw_kind_code(sc->rs, kind));
        if (mp > 0)
            len += snprintf(d->text + len, sizeof d->text - (size_t)len, "%ld", mp);
        if (acted && len < (int)sizeof d->text - 1)
            d->text[len] = '\'';
        (*n)++;
    }
    return du;
}

/* The map's text layout: pointy maps draw one line of cells per map row;
 * flat maps are transposed, one line of cells per map column. */
typedef struct layout {
    const mk_grid *g;
    int nlines, ncells;
    int labelw;     /* the longest hex label */
    bool compact;   /* "F5*F": no brackets, for narrow terminals */
    int cw;         /* characters inside a cell, between its bars */
    int half;       /* the indent of a shifted line */
    int rulerw;     /* the left ruler, with its space */
} layout;

static mk_hex layout_hex(const layout *L, int line, int cell)
{
    return L->g->orient == MK_FLAT ? mk_hex_at(L->g, line, cell) : mk_hex_at(L->g, cell, line);
}

/* Is this line of cells one of the shifted rows (pointy) or columns (flat)?
 * Printed numbers count from 1. */
static bool layout_shifted(const layout *L, int line)
{
    bool even = (line + 1) % 2 == 0;
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

static void layout_init(layout *L, const mk_grid *g, int width)
{
    char buf[MK_HEX_LABEL_MAX];
    L->g = g;
    L->nlines = g->orient == MK_FLAT ? g->cols : g->rows;
    L->ncells = g->orient == MK_FLAT ? g->rows : g->cols;
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

static void draw_legend(FILE *out, const mk_scenario *sc, const drawn_unit *du, int nu,
                        const char *tcodes, int ntcodes, bool any_highlight, bool compact)
{
    const mk_ruleset *rs = sc->rs;
    char items[MAX_CODES + MK_MAX_SIDES][64];
    int n = 0, nhex = mk_grid_size(&sc->map.grid);

    /* Terrain present on the map, in the ruleset's order. */
    for (int t = 0; t < rs->nterrains && t < ntcodes; t++) {
        bool present = false;
        for (int h = 0; h < nhex && !present; h++)
            present = sc->map.terrain[h] == t;
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
    for (int k = 0; k < rs->nkinds && n < MAX_CODES; k++) {
        char code = mk_draw_kind_code(rs, rs->kinds[k]);
        bool present = false;
        for (int i = 0; i < nu && !present; i++)
            present = du[i].hex != MK_NO_HEX && du[i].text[1] == code;
        if (present)
            snprintf(items[n++], sizeof items[0], "%c %s", code, rs->kinds[k]);
    }
    if (n > 0)
        wrap_list(out, "         then kind ", items, n, ";");
    fputs("         then MP (none shown: 0); ' after it: acted this turn.\n", out);
    if (any_highlight)
        fputs(compact ? "F5*:     a hex where something just happened.\n"
                      : "[F5]:    a hex where something just happened.\n",
              out);

    /* Stacks, so that every unit's id can be found on the map. */
    wrapper w;
    char item[96];
    bool any = false;
    for (int i = 0; i < nu; i++) {
        if (du[i].hex == MK_NO_HEX || du[i].next < 0)
            continue;
        bool first = true;   /* the head of its hex's chain? */
        for (int j = 0; j < i && first; j++)
            first = du[j].hex != du[i].hex;
        if (!first)
            continue;
        if (!any)
            wrap_start(&w, out, "Stacks:  ");
        any = true;
        char lab[MK_HEX_LABEL_MAX];
        size_t len = (size_t)snprintf(item, sizeof item, "%s", mk_hex_label(&sc->map.grid, du[i].hex, lab));
        for (int j = i; j >= 0 && len < sizeof item; j = du[j].next)
            len += (size_t)snprintf(item + len, sizeof item - len, "%s%s", j == i ? " " : " + ",
                                    du[j].id);
        if (len < sizeof item - 1)
            strcat(item, ";");
        wrap_word(&w, item);
    }
    if (any)
        fputc('\n', out);
    if (sc->map.grid.orient == MK_FLAT)
        fputs("(A flat map, drawn transposed: each line of cells is one map column.)\n", out);
}

/* Draws the map of sc with the units of state (NULL: the set-up), marking
 * the highlight hexes; writes only to out and frees what it allocates. */
void mk_draw_map(FILE *out, const mk_scenario *sc, json_t *state, const mk_hex *highlight,
                 int nhighlight, bool color)
{
    layout L;
    const mk_grid *g = &sc->map.grid;
    int nhex = mk_grid_size(g), nu = 0;
    char tcodes[MAX_CODES];
    int ntcodes = sc->rs->nterrains < MAX_CODES ? sc->rs->nterrains : MAX_CODES;
    assign_codes(sc->rs->terrains, ntcodes, terrain_glyphs,
                 sizeof terrain_glyphs / sizeof terrain_glyphs[0], true, tcodes);
    layout_init(&L, g, mk_draw_width(out));

    /* Chains of units per hex, in the order the units are listed. */
    drawn_unit *du = collect_units(sc, state, &nu);
    int *head = malloc((size_t)nhex * sizeof *head), *tail = malloc((size_t)nhex * sizeof *tail);
    if (!head || !tail) {
        free(head);
        free(tail);
        free(du);
        fputs("(out of memory drawing the map)\n", out);
        return;
    }
    for (int h = 0; h < nhex; h++)
        head[h] = tail[h] = -1;
    for (int i = 0; i < nu; i++) {
        mk_hex h = du[i].hex;
        if (h == MK_NO_HEX || h < 0 || h >= nhex)
            continue;
        if (tail[h] < 0)
            head[h] = i;
        else
            du[tail[h]].next = i;
        tail[h] = i;
    }

    /* The top ruler over the unshifted lines' cells. */
    char ruler[MK_HEX_LABEL_MAX];
    fprintf(out, "%*s", L.rulerw, "");
    for (int c = 0; c < L.ncells; c++) {
        ruler_text(&L, false, c, ruler);
        int pad = (L.cw - (int)strlen(ruler)) / 2;
        fprintf(out, " %*s%s%*s", pad, "", ruler, L.cw - pad - (int)strlen(ruler), "");
    }
    fputc('\n', out);

    bool any_highlight = false;
    for (int line = 0; line < L.nlines; line++) {
        int most = 0;
        for (int c = 0; c < L.ncells; c++) {
            mk_hex h = layout_hex(&L, line, c);
            int k = 0;
            for (int i = h == MK_NO_HEX ? -1 : head[h]; i >= 0; i = du[i].next)
                k++;
            if (k > most)
                most = k;
        }
        int nunit_lines = most < 1 ? 1 : most > MAX_UNIT_LINES ? MAX_UNIT_LINES : most;
        int indent = layout_shifted(&L, line) ? L.half : 0;
        for (int k = 0; k <= nunit_lines; k++) {
            if (k == 0) {
                ruler_text(&L, true, line, ruler);
                fprintf(out, "%*s ", L.rulerw - 1, ruler);
            } else {
                fprintf(out, "%*s", L.rulerw, "");
            }
            fprintf(out, "%*s", indent, "");
            for (int c = 0; c < L.ncells; c++) {
                mk_hex h = layout_hex(&L, line, c);
                fputc('|', out);
                if (h == MK_NO_HEX) {
                    fprintf(out, "%*s", L.cw, "");
                    continue;
                }
                if (k == 0) {
                    bool hl = is_highlighted(h, highlight, nhighlight);
                    any_highlight |= hl;
                    draw_label_line(out, &L, sc, h, tcodes, hl, color);
                    continue;
                }
                /* Unit line k: the k-th unit, or "+N" for the rest. */
                int i = head[h], skip = k - 1, rest = 0;
                while (i >= 0 && skip-- > 0)
                    i = du[i].next;
                for (int j = i; j >= 0; j = du[j].next)
                    rest++;
                if (i < 0) {
                    fprintf(out, "%*s", L.cw, "");
                } else if (k == nunit_lines && rest > 1) {
                    char more[16];
                    snprintf(more, sizeof more, "+%d", rest);
                    fprintf(out, "%-*s", L.cw, more);
                } else {
                    bool on = sgr(out, color, side_color(du[i].side));
                    fputs(du[i].text, out);
                    sgr_end(out, on);
                    fprintf(out, "%*s", L.cw - (int)strlen(du[i].text), "");
                }
            }
            fputs("|\n", out);
        }
    }
    draw_legend(out, sc, du, nu, tcodes, ntcodes, any_highlight, L.compact);
    free(head);
    free(tail);
    free(du);
}

/* The unit fields every ruleset writes (PROTOCOL.md UNIT); the table lists
 * any others as notes. */
static const char *const common_unit_fields[] = {"id", "side", "kind", "hex", "mp", "mp_start",
                                                 "acted"};

static bool is_common_field(const char *key)
{
    for (size_t i = 0; i < sizeof common_unit_fields / sizeof common_unit_fields[0]; i++)
        if (strcmp(common_unit_fields[i], key) == 0)
            return true;
    return false;
}

/* One row of the units table. */
typedef struct unit_row {
    char id[MK_ID_MAX], side[MK_ID_MAX], kind[MK_ID_MAX], mp[16], hex[MK_HEX_LABEL_MAX];
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
        char *text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
        if (text)
            len += (size_t)snprintf(r->notes + len, sizeof r->notes - len, "%s%s %s",
                                    len ? ", " : "", key, text);
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
    int w_id = 2, w_side = 4, w_kind = 4, w_mp = 2, w_hex = 3;
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
#undef WIDEN
    }
    fprintf(out, "  %-*s  %-*s  %-*s  %*s  %-*s  %s\n", w_id, "ID", w_side, "SIDE", w_kind, "KIND",
            w_mp, "MP", w_hex, "HEX", "NAME / RATING / NOTES");
    for (int i = 0; i < n; i++) {
        unit_row *r = &rows[i];
        fprintf(out, "  %-*s  ", w_id, r->id);
        bool on = sgr(out, color, side_color(r->sidei));
        fprintf(out, "%-*s", w_side, r->side);
        sgr_end(out, on);
        fprintf(out, "  %-*s  %*s  %-*s  %s\n", w_kind, r->kind, w_mp, r->mp, w_hex, r->hex,
                r->notes);
    }
    free(rows);
}
