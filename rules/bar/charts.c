/* charts.c - the BAR series charts Monmouth relies on (Fire Combat Table,
 * Fire Combat Multiples & Ranges, Terrain Effects Chart, Morale and
 * Disorder Checks, Leader Loss, Close Combat, Pursuit, Initiative, Army
 * Morale), loaded from data/bar/charts.json into a plain bar_charts, and
 * pure lookups over it. We do not have the published charts: most values in
 * the file are our estimates and say so (a "source" per table or entry);
 * the values the Monmouth text fixes are cited there and tested. The
 * meaning of each result (what Poor Discipline does, 6.3d) is the text's and
 * lives here; the numbers live in the file. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "bar.h"
#include "core/catalog.h"

#define N(a) ((int)(sizeof a / sizeof a[0]))

static const char *const row_names[BAR_NFIRE_ROWS] = {
    "foot", "grenadier", "guard", "militia", "line", "light",
    "rifle", "jaeger", "field", "light_artillery", "regimental",
};
static const char *const form_names[BAR_NFORM] = {
    "line", "attack_column", "march_column", "road_column", "general_order",
    "skirmish", "square", "artillery", "artillery_road_column", "cavalry", "hook",
};
static const char *const move_names[BAR_NMOVE] = {"line", "column", "cavalry", "artillery", "scm"};
static const char *const fs_names[BAR_NFIRE_SPECIAL] = {
    "free_fire", "full_volley", "poor_discipline", "blowing_smoke", "ammo_low", "rapid_fire",
    "accurate_fire", "wild_fire", "caisson_explosion", "ammo_exhausted", "whites_of_eyes",
    "premature_fire",
};
/* Which results belong to which table (6.3, 6.4, 6.5). */
static const unsigned fs_kind_mask[3] = {
    1u << BAR_FS_FREE_FIRE | 1u << BAR_FS_FULL_VOLLEY | 1u << BAR_FS_POOR_DISCIPLINE |
        1u << BAR_FS_BLOWING_SMOKE | 1u << BAR_FS_AMMO_LOW,
    1u << BAR_FS_RAPID_FIRE | 1u << BAR_FS_ACCURATE_FIRE | 1u << BAR_FS_WILD_FIRE |
        1u << BAR_FS_CAISSON_EXPLOSION | 1u << BAR_FS_BLOWING_SMOKE | 1u << BAR_FS_AMMO_LOW |
        1u << BAR_FS_AMMO_EXHAUSTED,
    1u << BAR_FS_WHITES_OF_EYES | 1u << BAR_FS_PREMATURE_FIRE | 1u << BAR_FS_BLOWING_SMOKE,
};
static const char *const ce_names[BAR_NCHECK_EFFECT] = {
    "no_effect", "pass", "fail", "disordered", "shaken", "shaken_disordered", "rout", "lose_sp",
    "reroll",
};
static const char *const cond_names[] = {
    "always", "disordered", "shaken", "good_order", "in_woods", "skirmish", "cavalry",
    "artillery", "leader",
};
static const char *const ll_names[BAR_NLL] = {"fate", "lucky_shot", "line_of_fire", "braving_fire"};
static const char *const ini_names[BAR_NINI] = {
    "army_morale", "leader_lapse", "confusion", "free_combat", "special_rally",
    "leader_initiative", "battle_tempo",
};
static const char *const pu_names[BAR_NPU] = {"no_quarter", "no_control", "hesitation", "no_pursuit"};

bool bar_fire_row_artillery(int row)
{
    return row == BAR_FR_FIELD || row == BAR_FR_LIGHT_ARTILLERY || row == BAR_FR_REGIMENTAL;
}
const char *bar_formation_name(int f)
{
    return f >= 0 && f < BAR_NFORM ? form_names[f] : NULL;
}
const char *bar_fire_special_name(int s)
{
    return s >= 0 && s < BAR_NFIRE_SPECIAL ? fs_names[s] : NULL;
}
const char *bar_check_effect_name(int e)
{
    return e >= 0 && e < BAR_NCHECK_EFFECT ? ce_names[e] : NULL;
}

/* ---- loading ---------------------------------------------------------- */

typedef struct ld {
    const char *file;
    mk_error *err;
} ld;

/* "<file>: <path>: <what> needed, got <value>" (the value as JSON, cut). */
static int bad(ld *l, const char *path, json_t *v, const char *what)
{
    char got[64] = "nothing";
    if (v) {
        char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
        if (s) {
            snprintf(got, sizeof got, "%.60s", s);
            free(s);
        }
    }
    return mk_error_set(l->err, "scenario_invalid", "%s: %s: %s needed, got %s", l->file, path,
                        what, got);
}

static int get_int(ld *l, json_t *o, const char *key, const char *path, int lo, int hi, int *out)
{
    char p[160];
    snprintf(p, sizeof p, "%s.%s", path, key);
    json_t *v = json_object_get(o, key);
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi) {
        char what[48];
        snprintf(what, sizeof what, "an integer %d..%d", lo, hi);
        return bad(l, p, v, what);
    }
    *out = (int)json_integer_value(v);
    return 0;
}

static int int_at(ld *l, json_t *v, const char *path, int lo, int hi, int *out)
{
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi) {
        char what[48];
        snprintf(what, sizeof what, "an integer %d..%d", lo, hi);
        return bad(l, path, v, what);
    }
    *out = (int)json_integer_value(v);
    return 0;
}

static json_t *get_obj(ld *l, json_t *o, const char *key, const char *path, int *rc)
{
    char p[160];
    snprintf(p, sizeof p, "%s%s%s", path, *path ? "." : "", key);
    json_t *v = json_object_get(o, key);
    if (!json_is_object(v)) {
        *rc = bad(l, p, v, "an object");
        return NULL;
    }
    return v;
}

static json_t *get_arr(ld *l, json_t *o, const char *key, const char *path, size_t lo, size_t hi,
                       int *rc)
{
    char p[160], what[48];
    snprintf(p, sizeof p, "%s.%s", path, key);
    json_t *v = json_object_get(o, key);
    if (!json_is_array(v) || json_array_size(v) < lo || json_array_size(v) > hi) {
        snprintf(what, sizeof what, "an array of %zu-%zu", lo, hi);
        *rc = bad(l, p, v, what);
        return NULL;
    }
    return v;
}

/* Every table says where its numbers come from. */
static int get_source(ld *l, json_t *o, const char *path, bool *estimate)
{
    char p[160];
    snprintf(p, sizeof p, "%s.source", path);
    const char *s = json_string_value(json_object_get(o, "source"));
    if (!s || !*s)
        return bad(l, p, json_object_get(o, "source"),
                   "a string (\"Monmouth <section>\", \"estimate...\" or the chart's name)");
    *estimate = strncmp(s, "estimate", 8) == 0;
    return 0;
}

static int name_index(const char *const *names, int n, const char *s)
{
    for (int i = 0; s && i < n; i++)
        if (strcmp(names[i], s) == 0)
            return i;
    return -1;
}

/* A decimal in hundredths, 0..hi_x100, exactly (no third decimal). */
static int x100_at(ld *l, json_t *v, const char *path, int hi_x100, int16_t *out)
{
    double d = json_number_value(v);
    double r = round(d * 100);
    if (!json_is_number(v) || d < 0 || r > hi_x100 || fabs(d * 100 - r) > 1e-6) {
        char what[64];
        snprintf(what, sizeof what, "a number 0-%d in steps of 0.01", hi_x100 / 100);
        return bad(l, path, v, what);
    }
    *out = (int16_t)r;
    return 0;
}

/* [{from, to, result}] covering lo..hi exactly, results from names (and
 * allowed by mask, when mask is not 0). */
static int load_ranges(ld *l, json_t *a, const char *path, int lo, int hi,
                       const char *const *names, int nnames, unsigned mask, int8_t *result)
{
    char p[160];
    if (!json_is_array(a) || json_array_size(a) == 0 || json_array_size(a) > 10)
        return bad(l, path, a, "an array of 1-10 {from, to, result}");
    int next = lo;
    for (size_t i = 0; i < json_array_size(a); i++) {
        json_t *e = json_array_get(a, i);
        snprintf(p, sizeof p, "%s[%zu]", path, i);
        int from, to;
        if (!json_is_object(e))
            return bad(l, p, e, "an object {from, to, result}");
        if (get_int(l, e, "from", p, lo, hi, &from) || get_int(l, e, "to", p, from, hi, &to))
            return -1;
        if (from != next) {
            char what[64];
            snprintf(what, sizeof what, "ranges without gaps or overlaps: from %d", next);
            snprintf(p, sizeof p, "%s[%zu].from", path, i);
            return bad(l, p, json_object_get(e, "from"), what);
        }
        json_t *r = json_object_get(e, "result");
        int k = name_index(names, nnames, json_string_value(r));
        if (k < 0 || (mask && !(mask & (1u << k)))) {
            snprintf(p, sizeof p, "%s[%zu].result", path, i);
            return bad(l, p, r, "a result name of this table");
        }
        for (int x = from; x <= to; x++)
            result[x - lo] = (int8_t)k;
        next = to + 1;
    }
    if (next != hi + 1) {
        char what[48];
        snprintf(what, sizeof what, "ranges up to %d", hi);
        return bad(l, path, a, what);
    }
    return 0;
}

static int load_pair(ld *l, json_t *o, const char *key, const char *path, int lo, int hi,
                     int8_t *out)
{
    char p[160];
    int rc = 0, a = 0, b = 0;
    json_t *v = get_arr(l, o, key, path, 2, 2, &rc);
    if (!v)
        return rc;
    snprintf(p, sizeof p, "%s.%s[0]", path, key);
    if (int_at(l, json_array_get(v, 0), p, lo, hi, &a))
        return -1;
    snprintf(p, sizeof p, "%s.%s[1]", path, key);
    if (int_at(l, json_array_get(v, 1), p, a, hi, &b))
        return -1;
    out[0] = (int8_t)a;
    out[1] = (int8_t)b;
    return 0;
}

static int load_fire(ld *l, bar_charts *c, json_t *root)
{
    int rc = 0;
    const char *P = "fire_combat_table";
    json_t *t = get_obj(l, root, P, "", &rc);
    if (!t || get_source(l, t, P, &c->fire.estimate))
        return -1;
    json_t *cols = get_arr(l, t, "columns", P, 1, BAR_CH_MAX_COLUMNS, &rc);
    json_t *bands = cols ? get_arr(l, t, "bands", P, json_array_size(cols),
                                   json_array_size(cols), &rc)
                         : NULL;
    if (!bands)
        return -1;
    c->fire.ncolumns = (int)json_array_size(cols);
    char p[160];
    for (int i = 0; i < c->fire.ncolumns; i++) {
        json_t *v = json_array_get(cols, (size_t)i);
        const char *s = json_string_value(v);
        int num = 0, den = 0, used = 0;
        snprintf(p, sizeof p, "%s.columns[%d]", P, i);
        if (!s || sscanf(s, "%d-%d%n", &num, &den, &used) != 2 || s[used] || num < 1 ||
            num > 99 || den < 1 || den > 99)
            return bad(l, p, v, "odds \"a-b\" (1-99 each)");
        if (i > 0 && num * c->fire.col[i - 1].den <= c->fire.col[i - 1].num * den)
            return bad(l, p, v, "odds higher than the column before");
        c->fire.col[i].num = (int16_t)num;
        c->fire.col[i].den = (int16_t)den;
        snprintf(c->fire.col[i].name, sizeof c->fire.col[i].name, "%s", s);
        json_t *b = json_array_get(bands, (size_t)i);
        snprintf(p, sizeof p, "%s.bands[%d]", P, i);
        if (!json_is_array(b) || json_array_size(b) < 1 || json_array_size(b) > BAR_CH_MAX_BANDS)
            return bad(l, p, b, "an array of 1-8 [min, sp] pairs");
        c->fire.nbands[i] = (int)json_array_size(b);
        for (int k = 0; k < c->fire.nbands[i]; k++) {
            json_t *pr = json_array_get(b, (size_t)k);
            int mn = 0, sp = 0;
            snprintf(p, sizeof p, "%s.bands[%d][%d]", P, i, k);
            if (!json_is_array(pr) || json_array_size(pr) != 2)
                return bad(l, p, pr, "a [min, sp] pair");
            int lo = k ? c->fire.band[i][k - 1].min + 1 : 0;
            snprintf(p, sizeof p, "%s.bands[%d][%d][0]", P, i, k);
            if (int_at(l, json_array_get(pr, 0), p, lo, 99, &mn))
                return -1;
            snprintf(p, sizeof p, "%s.bands[%d][%d][1]", P, i, k);
            if (int_at(l, json_array_get(pr, 1), p, 0, 20, &sp))
                return -1;
            c->fire.band[i][k].min = (int16_t)mn;
            c->fire.band[i][k].sp = (int8_t)sp;
        }
    }
    snprintf(p, sizeof p, "%s.morale_check", P);
    json_t *mc = get_obj(l, t, "morale_check", P, &rc);
    if (!mc)
        return -1;
    const char *letter = json_string_value(json_object_get(mc, "letter"));
    const char *on = json_string_value(json_object_get(mc, "on"));
    if (!letter || strlen(letter) != 1 || letter[0] < 'A' || letter[0] > 'Z')
        return bad(l, "fire_combat_table.morale_check.letter", json_object_get(mc, "letter"),
                   "a letter A-Z");
    if (!on || strcmp(on, "even_roll_with_loss") != 0)
        return bad(l, "fire_combat_table.morale_check.on", json_object_get(mc, "on"),
                   "\"even_roll_with_loss\"");
    c->fire.morale_letter = letter[0];
    return 0;
}

static int load_fire_special(ld *l, bar_charts *c, json_t *root)
{
    int rc = 0;
    const char *P = "fire_special";
    json_t *t = get_obj(l, root, P, "", &rc);
    int8_t r[2];
    if (!t || get_source(l, t, P, &c->fire_special.estimate) || load_pair(l, t, "range", P, 0, 9, r))
        return -1;
    c->fire_special.lo = r[0];
    c->fire_special.hi = r[1];
    json_t *a = get_arr(l, t, "leader_loss_rolls", P, 0, 10, &rc);
    if (!a)
        return -1;
    char p[160];
    for (size_t i = 0; i < json_array_size(a); i++) {
        int x;
        snprintf(p, sizeof p, "%s.leader_loss_rolls[%zu]", P, i);
        if (int_at(l, json_array_get(a, i), p, r[0], r[1], &x))
            return -1;
        c->fire_special.leader_rolls |= (uint16_t)(1u << x);
    }
    static const char *const kinds[3] = {"infantry", "artillery", "defensive"};
    for (int k = 0; k < 3; k++) {
        snprintf(p, sizeof p, "%s.%s", P, kinds[k]);
        if (load_ranges(l, json_object_get(t, kinds[k]), p, r[0], r[1], fs_names,
                        BAR_NFIRE_SPECIAL, fs_kind_mask[k], c->fire_special.result[k]))
            return -1;
    }
    return 0;
}

static int load_multiples(ld *l, bar_charts *c, json_t *root)
{
    int rc = 0;
    const char *P = "fire_multiples";
    bool est;
    json_t *t = get_obj(l, root, P, "", &rc);
    if (!t || get_source(l, t, P, &est))
        return -1;
    json_t *rows = get_arr(l, t, "rows", P, BAR_NFIRE_ROWS, BAR_NFIRE_ROWS, &rc);
    if (!rows)
        return -1;
    bool seen[BAR_NFIRE_ROWS] = {0};
    char p[160], q[180];
    for (int i = 0; i < BAR_NFIRE_ROWS; i++) {
        json_t *e = json_array_get(rows, (size_t)i);
        snprintf(p, sizeof p, "%s.rows[%d]", P, i);
        if (!json_is_object(e))
            return bad(l, p, e, "an object {type, multiples, source}");
        json_t *ty = json_object_get(e, "type");
        int k = name_index(row_names, BAR_NFIRE_ROWS, json_string_value(ty));
        snprintf(q, sizeof q, "%s.type", p);
        if (k < 0)
            return bad(l, q, ty, "a row type (foot ... regimental)");
        if (seen[k])
            return bad(l, q, ty, "each type once");
        seen[k] = true;
        if (get_source(l, e, p, &c->row[k].estimate))
            return -1;
        bool art = bar_fire_row_artillery(k);
        json_t *m = get_arr(l, e, "multiples", p, 1, BAR_CH_MAX_RANGE, &rc);
        json_t *br = art && m ? get_arr(l, e, "bracketed", p, json_array_size(m),
                                        json_array_size(m), &rc)
                              : NULL;
        if (!m || (art && !br))
            return -1;
        c->row[k].range = (int8_t)json_array_size(m);
        for (int r = 0; r < c->row[k].range; r++) {
            snprintf(q, sizeof q, "%s.multiples[%d]", p, r);
            if (x100_at(l, json_array_get(m, (size_t)r), q, 2000, &c->row[k].mult[r]))
                return -1;
            c->row[k].bracketed[r] = c->row[k].mult[r];
            if (art) {
                snprintf(q, sizeof q, "%s.bracketed[%d]", p, r);
                if (x100_at(l, json_array_get(br, (size_t)r), q, 2000, &c->row[k].bracketed[r]))
                    return -1;
            }
        }
        int mr = 1;
        if (art && get_int(l, e, "min_range", p, 1, c->row[k].range, &mr))
            return -1;
        c->row[k].min_range = (int8_t)mr;
    }
    return 0;
}

/* A TEC cost: a multiple of 0.5 MP (0-10), "P" or "all". */
static int load_cost(ld *l, json_t *v, const char *path, int8_t *out)
{
    const char *s = json_string_value(v);
    if (s && strcmp(s, "P") == 0) {
        *out = BAR_COST_PROHIBITED;
        return 0;
    }
    if (s && strcmp(s, "all") == 0) {
        *out = BAR_COST_ALL;
        return 0;
    }
    double d = json_number_value(v);
    if (!json_is_number(v) || d < 0 || d > 10 || d * 2 != floor(d * 2))
        return bad(l, path, v, "MPs 0-10 in steps of 0.5, \"P\" or \"all\"");
    *out = (int8_t)(d * 2);
    return 0;
}

static int load_tec_entry(ld *l, json_t *o, const char *path, bar_tec_entry *e)
{
    char p[160];
    if (!json_is_object(o))
        return bad(l, path, o, "an object");
    for (int m = 0; m < BAR_NMOVE; m++) {
        snprintf(p, sizeof p, "%s.%s", path, move_names[m]);
        if (load_cost(l, json_object_get(o, move_names[m]), p, &e->cost[m]))
            return -1;
    }
    static const char *const flags[3] = {"disorder_check", "no_prolonge", "charge_check"};
    bool *dst[3] = {&e->disorder_check, &e->no_prolonge, &e->charge_check};
    for (int f = 0; f < 3; f++) {
        json_t *v = json_object_get(o, flags[f]);
        snprintf(p, sizeof p, "%s.%s", path, flags[f]);
        if (!json_is_boolean(v))
            return bad(l, p, v, "true or false");
        *dst[f] = json_is_true(v);
    }
    return get_source(l, o, path, &e->estimate);
}

static int load_tec(ld *l, bar_charts *c, json_t *root)
{
    int rc = 0;
    const char *P = "terrain_effects";
    bool est;
    char p[160];
    json_t *t = get_obj(l, root, P, "", &rc);
    if (!t || get_source(l, t, P, &est))
        return -1;
    json_t *hexes = get_obj(l, t, "hexes", P, &rc);
    if (!hexes)
        return -1;
    for (int i = 0; i < BAR_NTERRAIN; i++) {
        snprintf(p, sizeof p, "%s.hexes.%s", P, bar_terrain_name(i));
        if (load_tec_entry(l, json_object_get(hexes, bar_terrain_name(i)), p, &c->hex[i]))
            return -1;
    }
    json_t *sides = get_obj(l, t, "hexsides", P, &rc);
    if (!sides)
        return -1;
    for (int b = 0; b < BAR_HS_NTERRAIN; b++) {
        const char *name = bar_hexside_name(1 << b);
        snprintf(p, sizeof p, "%s.hexsides.%s", P, name);
        if (load_tec_entry(l, json_object_get(sides, name), p, &c->side[b]))
            return -1;
    }
    json_t *st = get_obj(l, t, "stacking", P, &rc);
    if (!st)
        return -1;
    for (int f = 0; f < BAR_NFORM; f++) {
        if (f == BAR_FM_HOOK)
            continue;   /* stacks as Line (below) */
        snprintf(p, sizeof p, "%s.stacking.%s", P, form_names[f]);
        json_t *e = json_object_get(st, form_names[f]);
        int v;
        if (!json_is_object(e))
            return bad(l, p, e, "an object {sp, source}");
        if (get_int(l, e, "sp", p, 1, 40, &v) || get_source(l, e, p, &c->stacking_estimate[f]))
            return -1;
        c->stacking[f] = (int8_t)v;
    }
    /* Monmouth 2.1: a Hook is a Line (bent): it stacks as Line; the file
     * has no entry of its own (docs/bar.md "Hook") */
    c->stacking[BAR_FM_HOOK] = c->stacking[BAR_FM_LINE];
    c->stacking_estimate[BAR_FM_HOOK] = c->stacking_estimate[BAR_FM_LINE];
    return 0;
}

/* An object of named integers, every name required, unknown names refused
 * (a misspelt key must not fall back silently). */
static int load_named(ld *l, json_t *root, const char *P, const char *const *names,
                      int8_t *const *dst, int n, int lo, int hi, bool *estimate)
{
    int rc = 0;
    char p[160];
    json_t *t = get_obj(l, root, P, "", &rc);
    if (!t || get_source(l, t, P, estimate))
        return -1;
    const char *key;
    json_t *v;
    json_object_foreach(t, key, v)
    {
        if (strcmp(key, "source") && strcmp(key, "optional_double") && name_index(names, n, key) < 0) {
            snprintf(p, sizeof p, "%s.%s", P, key);
            return bad(l, p, v, "a known key (no such entry)");
        }
    }
    for (int i = 0; i < n; i++) {
        int x;
        if (get_int(l, t, names[i], P, lo, hi, &x))
            return -1;
        *dst[i] = (int8_t)x;
    }
    return 0;
}

static int load_simple(ld *l, bar_charts *c, json_t *root)
{
    bool est;
    int8_t *mf[6] = {&c->max_firing[BAR_FM_ARTILLERY], &c->max_firing[BAR_FM_ATTACK_COLUMN],
                     &c->max_firing[BAR_FM_GENERAL_ORDER], &c->max_firing[BAR_FM_LINE],
                     &c->max_firing[BAR_FM_SKIRMISH], &c->max_firing[BAR_FM_SQUARE]};
    static const char *const mfn[6] = {"artillery", "attack_column", "general_order",
                                       "line", "skirmish", "square"};
    memset(c->max_firing, -1, sizeof c->max_firing);
    if (load_named(l, root, "max_sps_firing", mfn, mf, 6, 1, 40, &est))
        return -1;
    /* 2.1e "For Hook, see the diagrams on the 'Fire Combat Card'": we lack
     * them; a Hook fires as much as a Line where both its arms bear, less
     * where one does (series.json hook_one_arm_sps, fire.c) */
    c->max_firing[BAR_FM_HOOK] = c->max_firing[BAR_FM_LINE];
    int rc = 0;
    json_t *fd = get_obj(l, root, "fire_defence", "", &rc);
    if (!fd || get_source(l, fd, "fire_defence", &c->fire_defence_estimate))
        return -1;
    int8_t *fdd[BAR_NTERRAIN];
    const char *fdn[BAR_NTERRAIN];
    for (int i = 0; i < BAR_NTERRAIN; i++) {
        fdd[i] = &c->fire_defence[i];
        fdn[i] = bar_terrain_name(i);
    }
    json_t *wrap = json_object();   /* terrain with the table's source */
    json_object_set(wrap, "terrain", json_object_get(fd, "terrain"));
    json_t *terr = json_object_get(fd, "terrain");
    int r = json_is_object(terr) ? 0 : bad(l, "fire_defence.terrain", terr, "an object");
    if (!r) {
        json_t *tw = json_deep_copy(terr);
        json_object_set_new(tw, "source", json_string("-"));
        json_object_set_new(wrap, "fire_defence.terrain", tw);
        r = load_named(l, wrap, "fire_defence.terrain", fdn, fdd, BAR_NTERRAIN, 1, 20, &est);
    }
    json_decref(wrap);
    if (r)
        return -1;
    static const char *const ftn[2] = {"hedgerow", "regular_slope_uphill"};
    int8_t *ftd[2] = {&c->hedgerow_pct, &c->slope_pct};
    if (load_named(l, root, "fire_terrain", ftn, ftd, 2, 1, 100, &est))
        return -1;
    static const char *const cvn[7] = {"woods_defending", "grade_to_grade", "bridge", "creek",
                                       "hedgerow", "regular_slope_uphill", "gentle_slope_uphill"};
    int8_t *cvd[7] = {&c->cv_woods_defending, &c->cv_grade, &c->cv_bridge, &c->cv_creek,
                      &c->cv_hedgerow, &c->cv_regular_slope, &c->cv_gentle_slope};
    if (load_named(l, root, "cv_modifiers", cvn, cvd, 7, -9, 9, &est))
        return -1;
    static const char *const ern[5] = {"woods_morale", "disorder_terrain_normal",
                                       "disorder_terrain_american_british_light", "moonlit_move",
                                       "night_move"};
    int8_t *erd[5] = {&c->er_woods_morale, &c->er_terrain_normal, &c->er_terrain_light,
                      &c->er_moonlit_move, &c->er_night_move};
    return load_named(l, root, "er_modifiers", ern, erd, 5, -50, 50, &est);
}

static int load_checks(ld *l, bar_charts *c, json_t *root)
{
    int rc = 0;
    const char *P = "checks";
    bool est;
    char p[160], q[200];
    json_t *t = get_obj(l, root, P, "", &rc);
    if (!t || get_source(l, t, P, &est))
        return -1;
    json_t *pa = json_object_get(t, "pass_at_or_above_er");
    if (!json_is_boolean(pa))
        return bad(l, "checks.pass_at_or_above_er", pa, "true or false");
    c->pass_at_or_above = json_is_true(pa);
    json_t *tabs = get_arr(l, t, "tables", P, 1, BAR_CH_MAX_CHECKS, &rc);
    if (!tabs)
        return -1;
    c->nchecks = (int)json_array_size(tabs);
    for (int i = 0; i < c->nchecks; i++) {
        bar_check_table *ct = &c->check[i];
        json_t *e = json_array_get(tabs, (size_t)i);
        snprintf(p, sizeof p, "%s.tables[%d]", P, i);
        if (!json_is_object(e))
            return bad(l, p, e, "an object {kind, letter, special, source}");
        const char *kind = json_string_value(json_object_get(e, "kind"));
        const char *letter = json_string_value(json_object_get(e, "letter"));
        snprintf(q, sizeof q, "%s.kind", p);
        if (!kind || (strcmp(kind, "morale") && strcmp(kind, "disorder")))
            return bad(l, q, json_object_get(e, "kind"), "\"morale\" or \"disorder\"");
        snprintf(q, sizeof q, "%s.letter", p);
        if (!letter || strlen(letter) != 1 || letter[0] < 'A' || letter[0] > 'Z')
            return bad(l, q, json_object_get(e, "letter"), "a letter A-Z");
        ct->kind = kind[0] == 'm' ? 'M' : 'D';
        ct->letter = letter[0];
        for (int j = 0; j < i; j++)
            if (c->check[j].kind == ct->kind && c->check[j].letter == ct->letter)
                return bad(l, q, json_object_get(e, "letter"), "each kind and letter once");
        if (get_source(l, e, p, &ct->estimate))
            return -1;
        json_t *sp = get_arr(l, e, "special", p, 0, BAR_CH_MAX_SPECIAL, &rc);
        if (!sp)
            return -1;
        ct->nspecial = (int)json_array_size(sp);
        int next = 0;
        for (int s = 0; s < ct->nspecial; s++) {
            json_t *se = json_array_get(sp, (size_t)s);
            int from, to;
            snprintf(q, sizeof q, "%s.special[%d]", p, s);
            if (!json_is_object(se))
                return bad(l, q, se, "an object {from, to, hierarchy}");
            if (get_int(l, se, "from", q, next, 99, &from) || get_int(l, se, "to", q, from, 99, &to))
                return -1;
            next = to + 1;
            ct->special[s].from = (int8_t)from;
            ct->special[s].to = (int8_t)to;
            json_t *h = get_arr(l, se, "hierarchy", q, 1, BAR_CH_MAX_STEPS, &rc);
            if (!h)
                return -1;
            ct->special[s].nsteps = (int)json_array_size(h);
            for (int k = 0; k < ct->special[s].nsteps; k++) {
                json_t *he = json_array_get(h, (size_t)k);
                bar_check_step *step = &ct->special[s].step[k];
                char r[240];
                int n;
                snprintf(r, sizeof r, "%s.hierarchy[%d]", q, k);
                if (!json_is_object(he))
                    return bad(l, r, he, "an object {n, if, effect}");
                if (get_int(l, he, "n", r, k + 1, k + 1, &n))
                    return -1;   /* numbered 1, 2, 3 in order (6.9a) */
                json_t *cv = json_object_get(he, "if");
                int ci = name_index(cond_names, N(cond_names), json_string_value(cv));
                if (ci < 0) {
                    snprintf(r, sizeof r, "%s.hierarchy[%d].if", q, k);
                    return bad(l, r, cv, "a condition (always, disordered, shaken, ...)");
                }
                step->cond = (uint16_t)(ci ? 1u << (ci - 1) : 0);
                json_t *ev = json_object_get(he, "effect");
                int ei = name_index(ce_names, BAR_NCHECK_EFFECT, json_string_value(ev));
                if (ei < 0) {
                    snprintf(r, sizeof r, "%s.hierarchy[%d].effect", q, k);
                    return bad(l, r, ev, "an effect (no_effect, pass, fail, ..., reroll)");
                }
                step->effect = (uint8_t)ei;
                json_t *rr = json_object_get(he, "reroll");
                if (ei == BAR_CE_REROLL) {
                    int m;
                    snprintf(r, sizeof r, "%s.hierarchy[%d]", q, k);
                    if (get_int(l, he, "reroll", r, -50, 50, &m))
                        return -1;
                    step->reroll = (int8_t)m;
                } else if (rr) {
                    snprintf(r, sizeof r, "%s.hierarchy[%d].reroll", q, k);
                    return bad(l, r, rr, "no reroll modifier unless the effect is \"reroll\"");
                }
                json_t *lv = json_object_get(he, "leader_loss");
                if (lv && !json_is_boolean(lv)) {
                    snprintf(r, sizeof r, "%s.hierarchy[%d].leader_loss", q, k);
                    return bad(l, r, lv, "true or false");
                }
                step->leader_loss = json_is_true(lv);
            }
        }
    }
    return 0;
}

static int load_special_col(ld *l, json_t *t, const char *P, const char *key, int8_t lo, int8_t hi,
                            const char *const *names, int n, bar_special_col *out)
{
    char p[160];
    snprintf(p, sizeof p, "%s.%s", P, key);
    out->lo = lo;
    out->hi = hi;
    return load_ranges(l, json_object_get(t, key), p, lo, hi, names, n, 0, out->result);
}

static int load_others(ld *l, bar_charts *c, json_t *root)
{
    int rc = 0, x;
    char p[160];
    int8_t r[2];
    /* Leader Loss Table (6.6) */
    const char *P = "leader_loss_table";
    json_t *t = get_obj(l, root, P, "", &rc);
    if (!t || get_source(l, t, P, &c->leader_loss.estimate) ||
        get_int(l, t, "modifier", P, -9, 9, &x))
        return -1;
    c->leader_loss.modifier = (int8_t)x;
    memset(c->leader_loss.kind, -1, sizeof c->leader_loss.kind);
    json_t *kinds = get_arr(l, t, "kinds", P, 1, 10, &rc);
    if (!kinds)
        return -1;
    for (size_t i = 0; i < json_array_size(kinds); i++) {
        json_t *e = json_array_get(kinds, i);
        int roll;
        snprintf(p, sizeof p, "%s.kinds[%zu]", P, i);
        if (!json_is_object(e))
            return bad(l, p, e, "an object {roll, kind}");
        if (get_int(l, e, "roll", p, 0, 9, &roll))
            return -1;
        int kk = name_index(ll_names, BAR_NLL, json_string_value(json_object_get(e, "kind")));
        snprintf(p, sizeof p, "%s.kinds[%zu].kind", P, i);
        if (kk < 0)
            return bad(l, p, json_object_get(e, "kind"), "fate, lucky_shot, line_of_fire or braving_fire");
        c->leader_loss.kind[roll] = (int8_t)kk;
    }
    snprintf(p, sizeof p, "%s.subrolls", P);
    json_t *sr = get_obj(l, t, "subrolls", P, &rc);
    if (!sr)
        return -1;
    for (int i = 0; i < BAR_NLL; i++) {
        char q[200];
        snprintf(q, sizeof q, "%s.%s", p, ll_names[i]);
        json_t *e = json_object_get(sr, ll_names[i]);
        if (!json_is_object(e))
            return bad(l, q, e, "an object {killed, wounded}");
        if (load_pair(l, e, "killed", q, 0, 9, c->leader_loss.killed[i]) ||
            load_pair(l, e, "wounded", q, 0, 9, c->leader_loss.wounded[i]))
            return -1;
    }
    /* Close Combat */
    P = "close_combat";
    t = get_obj(l, root, P, "", &rc);
    if (!t || get_source(l, t, P, &c->cc.estimate) || get_int(l, t, "step", P, 0, 50, &x) ||
        load_pair(l, t, "special", P, 0, 9, r))
        return -1;
    c->cc.step = (int8_t)x;
    json_t *b = get_arr(l, t, "bands", P, 1, BAR_CH_MAX_BANDS, &rc);
    if (!b)
        return -1;
    c->cc.nbands = (int)json_array_size(b);
    static const char *const ret[3] = {"none", "attacker", "defender"};
    for (int i = 0; i < c->cc.nbands; i++) {
        json_t *e = json_array_get(b, (size_t)i);
        int v[3];
        snprintf(p, sizeof p, "%s.bands[%d]", P, i);
        if (!json_is_array(e) || json_array_size(e) != 4)
            return bad(l, p, e, "[min, att_sp, def_sp, retreat]");
        for (int f = 0; f < 3; f++) {
            char q[200];
            snprintf(q, sizeof q, "%s[%d]", p, f);
            if (int_at(l, json_array_get(e, (size_t)f), q,
                       f == 0 ? (i ? c->cc.band[i - 1].min + 1 : -999) : 0, f == 0 ? 999 : 20, &v[f]))
                return -1;
        }
        int rt = name_index(ret, 3, json_string_value(json_array_get(e, 3)));
        if (rt < 0) {
            char q[200];
            snprintf(q, sizeof q, "%s[3]", p);
            return bad(l, q, json_array_get(e, 3), "\"none\", \"attacker\" or \"defender\"");
        }
        c->cc.band[i].min = (int16_t)v[0];
        c->cc.band[i].att_sp = (int8_t)v[1];
        c->cc.band[i].def_sp = (int8_t)v[2];
        c->cc.band[i].retreat = (int8_t)rt;
    }
    /* Close Combat Special Results: names are the file's (Series 14.8 is
     * not ours), each [a-z_] and used by the future ruleset by name. */
    json_t *csr = get_arr(l, t, "special_results", P, 1, 10, &rc);
    if (!csr)
        return -1;
    const char *names[10];
    c->cc.nnames = 0;
    for (size_t i = 0; i < json_array_size(csr); i++) {
        json_t *rv = json_object_get(json_array_get(csr, i), "result");
        const char *s = json_string_value(rv);
        snprintf(p, sizeof p, "%s.special_results[%zu].result", P, i);
        if (!s || !*s || strlen(s) >= BAR_CH_NAME || strspn(s, "abcdefghijklmnopqrstuvwxyz_") != strlen(s))
            return bad(l, p, rv, "a name of 1-23 characters a-z and _");
        if (name_index(names, c->cc.nnames, s) < 0) {
            snprintf(c->cc.name[c->cc.nnames], BAR_CH_NAME, "%s", s);
            names[c->cc.nnames] = c->cc.name[c->cc.nnames];
            c->cc.nnames++;
        }
    }
    if (load_special_col(l, t, P, "special_results", r[0], r[1], names, c->cc.nnames, &c->cc.special))
        return -1;
    /* Pursuit (6.7) */
    P = "pursuit";
    t = get_obj(l, root, P, "", &rc);
    if (!t || get_source(l, t, P, &c->pursuit.estimate) ||
        get_int(l, t, "special_roll", P, -1, 9, &x))
        return -1;
    c->pursuit.special_roll = (int8_t)x;
    if (get_int(l, t, "no_control_add", P, 0, 20, &x))
        return -1;
    c->pursuit.no_control_add = (int8_t)x;
    json_t *pp = get_arr(l, t, "pp", P, 10, 10, &rc);
    if (!pp)
        return -1;
    for (int i = 0; i < 10; i++) {
        snprintf(p, sizeof p, "%s.pp[%d]", P, i);
        if (int_at(l, json_array_get(pp, (size_t)i), p, 0, 20, &x))
            return -1;
        c->pursuit.pp[i] = (int8_t)x;
    }
    if (load_special_col(l, t, P, "special", 0, 9, pu_names, BAR_NPU, &c->pursuit.special))
        return -1;
    /* Initiative (6.2, 2.2b) */
    P = "initiative";
    t = get_obj(l, root, P, "", &rc);
    if (!t || get_source(l, t, P, &c->initiative.estimate) || load_pair(l, t, "special", P, 0, 9, r) ||
        load_special_col(l, t, P, "american", r[0], r[1], ini_names, BAR_NINI, &c->initiative.side[0]) ||
        load_special_col(l, t, P, "british", r[0], r[1], ini_names, BAR_NINI, &c->initiative.side[1]))
        return -1;
    /* Army Morale (1.2a C, 6.2a) */
    P = "army_morale";
    t = get_obj(l, root, P, "", &rc);
    if (!t || get_source(l, t, P, &c->army_morale.estimate) ||
        get_int(l, t, "special_00_modifier", P, -9, 9, &x))
        return -1;
    c->army_morale.special_00 = (int8_t)x;
    if (get_int(l, t, "natural_0_reduction", P, -20, 0, &x))
        return -1;
    c->army_morale.natural_0 = (int8_t)x;
    json_t *lv = get_obj(l, t, "loss_levels", P, &rc);
    if (!lv)
        return -1;
    static const char *const sides[2] = {"american", "british"};
    int maxlev = 0;
    for (int s = 0; s < 2; s++) {
        char q[200];
        snprintf(q, sizeof q, "%s.loss_levels", P);
        json_t *a = get_arr(l, lv, sides[s], q, 1, BAR_CH_MAX_LEVELS, &rc);
        if (!a)
            return -1;
        c->army_morale.nlevels[s] = (int)json_array_size(a);
        if (c->army_morale.nlevels[s] > maxlev)
            maxlev = c->army_morale.nlevels[s];
        for (int i = 0; i < c->army_morale.nlevels[s]; i++) {
            snprintf(q, sizeof q, "%s.loss_levels.%s[%d]", P, sides[s], i);
            if (int_at(l, json_array_get(a, (size_t)i), q, i ? c->army_morale.level[s][i - 1] + 1 : 1,
                       999, &x))
                return -1;
            c->army_morale.level[s][i] = (int16_t)x;
        }
    }
    json_t *tab = get_arr(l, t, "table", P, (size_t)maxlev, (size_t)maxlev, &rc);
    if (!tab)
        return -1;
    for (int i = 0; i < maxlev; i++) {
        json_t *col = json_array_get(tab, (size_t)i);
        snprintf(p, sizeof p, "%s.table[%d]", P, i);
        if (!json_is_array(col) || json_array_size(col) < 1 || json_array_size(col) > BAR_CH_MAX_BANDS)
            return bad(l, p, col, "an array of 1-8 [min, modifier] pairs");
        c->army_morale.nbands[i] = (int)json_array_size(col);
        for (int k = 0; k < c->army_morale.nbands[i]; k++) {
            json_t *pr = json_array_get(col, (size_t)k);
            char q[200];
            int mn, md;
            snprintf(q, sizeof q, "%s[%d]", p, k);
            if (!json_is_array(pr) || json_array_size(pr) != 2)
                return bad(l, q, pr, "a [min, modifier] pair");
            snprintf(q, sizeof q, "%s[%d][0]", p, k);
            if (int_at(l, json_array_get(pr, 0), q, k ? c->army_morale.band[i][k - 1].min + 1 : -20, 20, &mn))
                return -1;
            snprintf(q, sizeof q, "%s[%d][1]", p, k);
            if (int_at(l, json_array_get(pr, 1), q, 0, 50, &md))
                return -1;
            c->army_morale.band[i][k].min = (int8_t)mn;
            c->army_morale.band[i][k].modifier = (int8_t)md;
        }
    }
    return 0;
}

int bar_charts_load(bar_charts *out, const char *path, mk_error *err)
{
    char def[600];
    memset(out, 0, sizeof *out);
    json_t *root = bar_data_read(&path, "charts.json", def, sizeof def, err);
    if (!root)
        return -1;
    ld l = {path, err};
    int rc = -1;
    json_t *est = json_object_get(root, "estimate");
    if (!json_is_object(root))
        bad(&l, "(top)", root, "an object");
    else if (!json_is_boolean(est))
        bad(&l, "estimate", est, "true or false (does the file hold estimates?)");
    else if (load_fire(&l, out, root) == 0 && load_fire_special(&l, out, root) == 0 &&
             load_multiples(&l, out, root) == 0 && load_simple(&l, out, root) == 0 &&
             load_tec(&l, out, root) == 0 && load_checks(&l, out, root) == 0 &&
             load_others(&l, out, root) == 0) {
        out->estimate = json_is_true(est);
        rc = 0;
    }
    json_decref(root);
    if (rc)
        memset(out, 0, sizeof *out);
    return rc;
}

/* ---- lookups ----------------------------------------------------------- */

/* The highest column whose odds a:b the fire reaches: s/d >= a/b, in
 * integers (s in hundredths). */
int bar_fire_column(const bar_charts *c, int strength_x100, int defence)
{
    if (strength_x100 <= 0 || defence <= 0)
        return -1;
    int col = -1;
    for (int i = 0; i < c->fire.ncolumns; i++)
        if ((long long)strength_x100 * c->fire.col[i].den >= (long long)defence * 100 * c->fire.col[i].num)
            col = i;
    return col;
}

/* 6.3d, 6.4c, 6.5b move one column; the table has ends, so a shift stops
 * at the last column (our reading: a shift never leaves the table), and
 * a fire below the first column is not moved onto it by a left shift. */
int bar_fire_column_shift(const bar_charts *c, int col, int shift)
{
    if (c->fire.ncolumns == 0)
        return -1;
    if (col < 0)
        return shift > 0 ? shift - 1 < c->fire.ncolumns ? shift - 1 : c->fire.ncolumns - 1 : -1;
    int n = col + shift;
    if (n < 0)
        return 0;
    return n >= c->fire.ncolumns ? c->fire.ncolumns - 1 : n;
}

int bar_fire_special_shift(int special)
{
    switch (special) {
    case BAR_FS_POOR_DISCIPLINE:
        return -1;   /* 6.3d */
    case BAR_FS_ACCURATE_FIRE:   /* 6.4c */
    case BAR_FS_WHITES_OF_EYES:  /* 6.5b */
        return 1;
    default:
        return 0;
    }
}

int bar_fire_result_of(const bar_charts *c, int col, int modified_roll, int natural_roll,
                       bar_fire_result *out)
{
    *out = (bar_fire_result){0, '\0'};
    if (col < -1 || col >= c->fire.ncolumns || natural_roll < 0 || natural_roll > 99)
        return -1;
    if (col < 0)
        return 0;   /* below the table: no effect */
    int r = modified_roll > 99 ? 99 : modified_roll;
    for (int k = 0; k < c->fire.nbands[col]; k++)
        if (r >= c->fire.band[col][k].min)
            out->sp = c->fire.band[col][k].sp;
    /* 6.4e: Morale Check (A) after a loss, on an even roll. */
    if (out->sp > 0 && natural_roll % 2 == 0)
        out->morale = c->fire.morale_letter;
    return 0;
}

int bar_fire_special_of(const bar_charts *c, bar_fire_kind kind, int natural_roll, bool reroll,
                        bool *leader)
{
    if (leader)
        *leader = false;
    if ((int)kind < 0 || kind > BAR_FIRE_DEFENSIVE || natural_roll < c->fire_special.lo ||
        natural_roll > c->fire_special.hi || c->fire_special.hi == 0 || reroll)
        return BAR_FS_NONE;   /* 6.3-6.5: "rolls of 00-09 are not Special Results" on re-rolls */
    if (leader)
        *leader = (c->fire_special.leader_rolls >> natural_roll) & 1;
    return c->fire_special.result[kind][natural_roll - c->fire_special.lo];
}

int bar_fire_strength(const bar_charts *c, int row, int sps, int range, unsigned flags)
{
    if (row < 0 || row >= BAR_NFIRE_ROWS || sps < 0 || range < 1 || range > c->row[row].range ||
        range < c->row[row].min_range)
        return -1;
    bool art = bar_fire_row_artillery(row);
    int m = art && (flags & BAR_FSF_BRACKETED) ? c->row[row].bracketed[range - 1]
                                               : c->row[row].mult[range - 1];
    long s = (long)sps * m;   /* hundredths */
    if (art && (flags & BAR_FSF_HEAT))
        s = s / 2;   /* 2.8 F: fractions kept (a hundredth at most is lost) */
    if (flags & BAR_FSF_HEDGEROW)
        s = (s * c->hedgerow_pct + 50) / 100;   /* 5.3c: x .75, to the nearest hundredth */
    if (flags & BAR_FSF_UPHILL_SLOPE)   /* 5.3d: halved (rounded): whole, .5 up (AMB-BAR-8) */
        s = (s * c->slope_pct + 5000) / 10000 * 100;
    return (int)s;
}

int bar_fire_strength_halved(int strength_x100)
{
    if (strength_x100 <= 0)
        return 0;
    /* half, then .5 up: round(x / 200) in whole strength points */
    return (strength_x100 + 100) / 200 * 100;
}

int bar_max_sps_firing(const bar_charts *c, int f)
{
    return f >= 0 && f < BAR_NFORM ? c->max_firing[f] : -1;
}

int bar_fire_defence(const bar_charts *c, int terrain, bool optional_double)
{
    if (terrain < 0 || terrain >= BAR_NTERRAIN)
        return -1;
    return c->fire_defence[terrain] * (optional_double ? 2 : 1);
}

int bar_cv_modifier(const bar_charts *c, int att_terrain, int def_terrain, unsigned side,
                    bool uphill, bool def_cavalry)
{
    int m = 0;
    /* 5.2d (marsh/woods counts as woods for combat); 2.3e: not cavalry. */
    if ((def_terrain == BAR_T_WOODS || def_terrain == BAR_T_MARSH_WOODS) && !def_cavalry)
        m += c->cv_woods_defending;
    /* 5.2b: grade to grade without a slope hexside. */
    if (att_terrain == BAR_T_GRADE && def_terrain == BAR_T_GRADE &&
        !(side & (BAR_HS_REGULAR_SLOPE | BAR_HS_GENTLE_SLOPE)))
        m += c->cv_grade;
    /* 5.3a: a bridge "instead of the usual -3 for a creek". */
    if (side & BAR_HS_BRIDGE)
        m += c->cv_bridge;
    else if (side & BAR_HS_CREEK)
        m += c->cv_creek;
    if (side & BAR_HS_HEDGEROW)
        m += c->cv_hedgerow;   /* 5.3c */
    if (uphill && (side & BAR_HS_REGULAR_SLOPE))
        m += c->cv_regular_slope;   /* 5.3d */
    else if (uphill && (side & BAR_HS_GENTLE_SLOPE))
        m += c->cv_gentle_slope;    /* 5.3e */
    return m;
}

int bar_check(const bar_charts *c, char kind, char letter, int natural_roll, int er,
              unsigned cond, bar_check_out *out)
{
    *out = (bar_check_out){.special = -1};
    if (natural_roll < 0 || natural_roll > 99)
        return -1;
    const bar_check_table *t = NULL;
    for (int i = 0; i < c->nchecks; i++)
        if (c->check[i].kind == kind && c->check[i].letter == letter)
            t = &c->check[i];
    if (!t)
        return -1;
    out->pass = c->pass_at_or_above ? natural_roll >= er : natural_roll > er;
    out->effect = out->pass ? BAR_CE_PASS : BAR_CE_FAIL;
    for (int s = 0; s < t->nspecial; s++) {
        if (natural_roll < t->special[s].from || natural_roll > t->special[s].to)
            continue;
        /* 6.9a: result #1 if it applies, else #2, else #3. */
        for (int k = 0; k < t->special[s].nsteps; k++) {
            const bar_check_step *st = &t->special[s].step[k];
            if ((cond & st->cond) != st->cond)
                continue;
            out->special = s;
            out->step = k + 1;
            out->effect = st->effect;
            out->reroll = st->effect == BAR_CE_REROLL ? st->reroll : 0;
            out->leader_loss = st->leader_loss;
            return 0;
        }
    }
    return 0;
}

int bar_leader_loss_kind(const bar_charts *c, int natural_roll)
{
    return natural_roll >= 0 && natural_roll <= 9 ? c->leader_loss.kind[natural_roll] : -1;
}

int bar_leader_loss_subroll(const bar_charts *c, int kind, int die, bool mod)
{
    if (kind < 0 || kind >= BAR_NLL || die < 0 || die > 9)
        return -1;
    /* 6.6: the -1 never applies to Fate (nor to the wound roll, 6.6e). */
    int r = die + (mod && kind != BAR_LL_FATE ? c->leader_loss.modifier : 0);
    if (r < 0)
        r = 0;
    if (r >= c->leader_loss.killed[kind][0] && r <= c->leader_loss.killed[kind][1])
        return 1;
    if (r >= c->leader_loss.wounded[kind][0] && r <= c->leader_loss.wounded[kind][1])
        return 2;
    return 0;
}

int bar_pursuit_points(const bar_charts *c, int die, bool reroll)
{
    if (die < 0 || die > 9)
        return -2;
    if (!reroll && die == c->pursuit.special_roll)
        return -1;
    return c->pursuit.pp[die];   /* 6.7: a re-rolled '0' is read off the table (zero PPs) */
}

int bar_pursuit_special_of(const bar_charts *c, int die)
{
    return die >= 0 && die <= 9 ? c->pursuit.special.result[die] : -1;
}

int bar_initiative_special(const bar_charts *c, int side, int natural_roll)
{
    if (side != BAR_AMERICAN && side != BAR_BRITISH)
        return -1;
    const bar_special_col *s = &c->initiative.side[side];
    if (natural_roll < s->lo || natural_roll > s->hi)
        return -1;
    return s->result[natural_roll - s->lo];
}

int bar_cc_band(const bar_charts *c, int natural_roll, int cv_diff)
{
    if (natural_roll < 0 || natural_roll > 99 || c->cc.nbands == 0)
        return -1;
    if (natural_roll >= c->cc.special.lo && natural_roll <= c->cc.special.hi)
        return -1;
    int r = natural_roll + c->cc.step * cv_diff, band = 0;
    for (int k = 0; k < c->cc.nbands; k++)
        if (r >= c->cc.band[k].min)
            band = k;
    return band;
}

int bar_army_loss_level(const bar_charts *c, int side, int losses)
{
    if (side != BAR_AMERICAN && side != BAR_BRITISH)
        return -1;
    int lv = -1;
    for (int i = 0; i < c->army_morale.nlevels[side]; i++)
        if (losses >= c->army_morale.level[side][i])
            lv = i;
    return lv;
}

int bar_army_morale_modifier(const bar_charts *c, int level, int modified_die)
{
    if (level < 0 || level >= BAR_CH_MAX_LEVELS || c->army_morale.nbands[level] == 0)
        return -1;
    int m = c->army_morale.band[level][0].modifier;
    for (int k = 0; k < c->army_morale.nbands[level]; k++)
        if (modified_die >= c->army_morale.band[level][k].min)
            m = c->army_morale.band[level][k].modifier;
    return m;
}
