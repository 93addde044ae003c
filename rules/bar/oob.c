/* oob.c - Monmouth orders of battle and scenario set-ups (Monmouth 7.0c,
 * 7.1-7.4; units and leaders of 3, 4): reads data/bar/oob.json and
 * data/bar/scenarios/<n>-<name>.json into the plain fixed-size structs of
 * bar.h and checks them. Every refusal names the file, the JSON path and
 * the value ("oob.json: units[12].command: unknown organisation \"XX\"").
 *
 * Hexes are checked with core/hex on the Monmouth map geometry (two
 * sheets W, E of 39 columns and 51 rows: docs/scenario-format.md); times
 * with the turn clock of clock.c, and the file's first/last turns, End
 * Turn Numbers and victory turn must agree with clock.c, so the data and
 * the code cannot drift apart unnoticed. JSON objects are parsed with
 * jansson and released before returning; nothing is kept allocated. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "bar.h"
#include "core/catalog.h"

typedef struct ctx {
    const char *file;
    mk_error *err;
    mk_grid g;
} ctx;

static int fail(ctx *c, const char *path, const char *fmt, ...) MK_PRINTF(3, 4);
static int fail(ctx *c, const char *path, const char *fmt, ...)
{
    char msg[MK_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return mk_error_set(c->err, "scenario_invalid", "%s: %s: %s", c->file, path, msg);
}

/* A short rendering of a JSON value for messages. */
static const char *show(const json_t *v, char *buf, size_t n)
{
    if (!v)
        snprintf(buf, n, "(missing)");
    else if (json_is_string(v))
        snprintf(buf, n, "\"%.40s\"", json_string_value(v));
    else if (json_is_integer(v))
        snprintf(buf, n, "%lld", (long long)json_integer_value(v));
    else if (json_is_real(v))
        snprintf(buf, n, "%g", json_real_value(v));
    else if (json_is_boolean(v))
        snprintf(buf, n, "%s", json_is_true(v) ? "true" : "false");
    else if (json_is_null(v))
        snprintf(buf, n, "null");
    else
        snprintf(buf, n, json_is_array(v) ? "(an array)" : "(an object)");
    return buf;
}

/* Unknown fields are refused: a misspelt "formations" would otherwise
 * silently drop what the text states. */
static int check_keys(ctx *c, json_t *obj, const char *path, const char *const *known)
{
    const char *k;
    json_t *v;
    json_object_foreach(obj, k, v) {
        int ok = 0;
        for (int i = 0; known[i]; i++)
            ok |= strcmp(known[i], k) == 0;
        if (!ok) {
            char p[160];
            snprintf(p, sizeof p, "%s.%.40s", path, k);
            return fail(c, p, "unknown field");
        }
    }
    return 0;
}

static int get_str(ctx *c, json_t *obj, const char *key, const char *path, bool required,
                   char *out, size_t n)
{
    json_t *v = json_object_get(obj, key);
    char p[160], b[64];
    snprintf(p, sizeof p, "%s.%s", path, key);
    if (!v || (json_is_null(v) && !required)) {
        if (required)
            return fail(c, p, "required");
        if (out)
            out[0] = 0;
        return 0;
    }
    if (!json_is_string(v))
        return fail(c, p, "a string needed, not %s", show(v, b, sizeof b));
    if (strlen(json_string_value(v)) >= n || !*json_string_value(v))
        return fail(c, p, "%s: empty or longer than %zu characters", show(v, b, sizeof b),
                    n - 1);
    if (out)
        snprintf(out, n, "%s", json_string_value(v));
    return 0;
}

/* An integer in lo..hi; def when missing and not required. */
static int get_int(ctx *c, json_t *obj, const char *key, const char *path, bool required,
                   int lo, int hi, int def, int *out)
{
    json_t *v = json_object_get(obj, key);
    char p[160], b[64];
    snprintf(p, sizeof p, "%s.%s", path, key);
    if (!v) {
        if (required)
            return fail(c, p, "required");
        *out = def;
        return 0;
    }
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
        return fail(c, p, "%s: an integer %d..%d needed", show(v, b, sizeof b), lo, hi);
    *out = (int)json_integer_value(v);
    return 0;
}

/* MPs in 1/2 steps ("mp": 5, "mp_limit": 2.5) -> half MPs. */
static int get_half(ctx *c, json_t *obj, const char *key, const char *path, bool required,
                    int hi, int *out)
{
    json_t *v = json_object_get(obj, key);
    char p[160], b[64];
    snprintf(p, sizeof p, "%s.%s", path, key);
    if (!v) {
        if (required)
            return fail(c, p, "required");
        *out = -1;
        return 0;
    }
    double d = json_is_number(v) ? json_number_value(v) * 2 : -1;
    if (d < 0 || d > 2 * hi || d != (double)(int)d)
        return fail(c, p, "%s: MPs 0..%d in steps of 1/2 needed", show(v, b, sizeof b), hi);
    *out = (int)d;
    return 0;
}

static int get_bool(ctx *c, json_t *obj, const char *key, const char *path, bool *out)
{
    json_t *v = json_object_get(obj, key);
    char p[160], b[64];
    if (!v) {
        *out = false;
        return 0;
    }
    snprintf(p, sizeof p, "%s.%s", path, key);
    if (!json_is_boolean(v))
        return fail(c, p, "%s: true or false needed", show(v, b, sizeof b));
    *out = json_is_true(v);
    return 0;
}

/* Index of s in names[0..n-1], -1 if none. */
static int lookup(const char *s, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (names[i] && strcmp(s, names[i]) == 0)
            return i;
    return -1;
}

static int get_enum(ctx *c, json_t *obj, const char *key, const char *path, bool required,
                    const char *const *names, int n, int def, int *out)
{
    char s[48];
    if (get_str(c, obj, key, path, required, s, sizeof s))
        return -1;
    if (!s[0]) {
        *out = def;
        return 0;
    }
    *out = lookup(s, names, n);
    if (*out < 0) {
        char p[160], known[400] = "";
        snprintf(p, sizeof p, "%s.%s", path, key);
        for (int i = 0; i < n; i++)
            if (names[i])
                snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s",
                         known[0] ? ", " : "", names[i]);
        return fail(c, p, "unknown value \"%s\" (known: %s)", s, known);
    }
    return 0;
}

static const char *const side_names[] = {"american", "british"};
static const char *const nation_names[] = {"American", "British", "Hessian", "Anspach"};
static const char *const type_names[BAR_NUNIT_TYPES] = {
    "foot",  "grenadier", "guard",   "militia",         "line",           "light",
    "rifle", "jaeger",    "chasseur", "cavalry",        "artillery field", "artillery light",
    "artillery regimental",
};
static const char *const org_kind_names[] = {"army",    "wing",  "detachment", "command",
                                             "independent command", "group"};
static const char *const role_names[] = {"army", "wing", "detachment", "special", "command"};
static const char *const mode_names[] = {"none", "mounted", "dismounted"};
/* charts.c's BAR_FR_* rows, by name (4.1b D: "fire just as normal Foot"). */
static const char *const fire_row_names[BAR_NFIRE_ROWS] = {
    [BAR_FR_FOOT] = "foot",   [BAR_FR_GRENADIER] = "grenadier", [BAR_FR_GUARD] = "guard",
    [BAR_FR_MILITIA] = "militia", [BAR_FR_LINE] = "line",       [BAR_FR_LIGHT] = "light",
    [BAR_FR_RIFLE] = "rifle", [BAR_FR_JAEGER] = "jaeger",       [BAR_FR_FIELD] = "field",
    [BAR_FR_LIGHT_ARTILLERY] = "light artillery", [BAR_FR_REGIMENTAL] = "regimental",
};

/* The chart row of a type: 4.1b D puts Jaegers and Chasseurs on one row;
 * cavalry has none of its own here (-1). */
static int default_fire_row(int type)
{
    static const int8_t row[BAR_NUNIT_TYPES] = {
        BAR_FR_FOOT,  BAR_FR_GRENADIER, BAR_FR_GUARD, BAR_FR_MILITIA, BAR_FR_LINE,
        BAR_FR_LIGHT, BAR_FR_RIFLE,     BAR_FR_JAEGER, BAR_FR_JAEGER, -1,
        BAR_FR_FIELD, BAR_FR_LIGHT_ARTILLERY, BAR_FR_REGIMENTAL,
    };
    return row[type];
}

static bool is_artillery(int type)
{
    return type == BAR_UT_ART_FIELD || type == BAR_UT_ART_LIGHT || type == BAR_UT_ART_REGIMENTAL;
}

static const struct {
    const char *name;
    uint16_t bit;
} est_names[] = {
    {"sp", BAR_EST_SP},          {"er", BAR_EST_ER},           {"cv", BAR_EST_CV},
    {"mp", BAR_EST_MP},          {"type", BAR_EST_TYPE},       {"id", BAR_EST_ID},
    {"command_rating", BAR_EST_CR}, {"initiative", BAR_EST_INIT},
    {"command_range", BAR_EST_RANGE}, {"er_bonus", BAR_EST_ER_BONUS},
    {"cv_bonus", BAR_EST_CV_BONUS}, {"wan", BAR_EST_WAN},      {"loss_value", BAR_EST_LOSS},
    {"leads", BAR_EST_LEADS},    {"parent", BAR_EST_PARENT},
};

/* "estimate": the list of fields that are ours, not the text's. */
static int get_estimate(ctx *c, json_t *obj, const char *path, bool required, uint16_t *out)
{
    json_t *a = json_object_get(obj, "estimate");
    char p[160], b[64];
    snprintf(p, sizeof p, "%s.estimate", path);
    *out = 0;
    if (!a) {
        if (required)
            return fail(c, p, "required: the list of fields that are our estimates ([] if none)");
        return 0;
    }
    if (!json_is_array(a))
        return fail(c, p, "a list of field names needed");
    size_t i;
    json_t *v;
    json_array_foreach(a, i, v) {
        int k = -1;
        for (size_t j = 0; json_is_string(v) && j < sizeof est_names / sizeof est_names[0]; j++)
            if (strcmp(est_names[j].name, json_string_value(v)) == 0)
                k = (int)j;
        if (k < 0) {
            snprintf(p, sizeof p, "%s.estimate[%zu]", path, i);
            return fail(c, p, "unknown field %s", show(v, b, sizeof b));
        }
        *out |= est_names[k].bit;
    }
    return 0;
}

/* ---- the map geometry ---------------------------------------------------- */

void bar_oob_grid(mk_grid *g)
{
    static const mk_sheet sheets[2] = {{'W', 39}, {'E', 39}};
    char e[64];
    /* Cannot fail: the sizes are constants within MK_MAX_HEX. */
    if (mk_grid_init_sheets(g, true, sheets, 2, 51, e, sizeof e))
        memset(g, 0, sizeof *g);
}

static int parse_hex(ctx *c, json_t *v, const char *path, mk_hex *out)
{
    char b[64], e[160];
    if (!json_is_string(v))
        return fail(c, path, "a hex label needed, not %s", show(v, b, sizeof b));
    if (mk_hex_parse(&c->g, json_string_value(v), out, e, sizeof e))
        return fail(c, path, "%s is not a hex of the map sheets: %s", show(v, b, sizeof b), e);
    return 0;
}

/* ---- times ---------------------------------------------------------------- */

/* "10:20 AM 28 June" -> turn (clock.c), -1 if malformed. */
static int parse_time(const char *s)
{
    int h, m, d, n = 0;
    char ampm[3], month[5];
    if (sscanf(s, "%d:%d %2[APM] %d %4s%n", &h, &m, ampm, &d, month, &n) != 5 ||
        s[n] != 0 || strcmp(month, "June") != 0 || h < 1 || h > 12)
        return -1;
    if (strcmp(ampm, "AM") == 0)
        h = h == 12 ? 0 : h;
    else if (strcmp(ampm, "PM") == 0)
        h = h == 12 ? 12 : h + 12;
    else
        return -1;
    return bar_turn_of(d, h, m);
}

/* A time inside the scenario (lo..hi turns; lo < 0: any time of the two
 * days). */
static int get_time(ctx *c, json_t *obj, const char *key, const char *path, bool required,
                    int lo, int hi, int *out)
{
    char s[40], p[160], a[32], z[32];
    snprintf(p, sizeof p, "%s.%s", path, key);
    if (get_str(c, obj, key, path, required, s, sizeof s))
        return -1;
    if (!s[0]) {
        *out = -1;
        return 0;
    }
    int t = parse_time(s);
    if (t < 0)
        return fail(c, p, "\"%s\" is not a turn (\"10:20 AM 28 June\": a 20-minute mark, "
                          "28 or 29 June)", s);
    if (lo >= 0 && (t < lo || t > hi)) {
        bar_turn_format(lo, a, sizeof a);
        bar_turn_format(hi, z, sizeof z);
        return fail(c, p, "\"%s\" is outside the scenario (%s to %s)", s, a, z);
    }
    *out = t;
    return 0;
}

/* ---- the order of battle ------------------------------------------------ */

int bar_oob_find_unit(const bar_oob *o, const char *id)
{
    for (int i = 0; i < o->nunits; i++)
        if (strcmp(o->unit[i].id, id) == 0)
            return i;
    return -1;
}

int bar_oob_find_leader(const bar_oob *o, const char *id)
{
    for (int i = 0; i < o->nleaders; i++)
        if (strcmp(o->leader[i].id, id) == 0)
            return i;
    return -1;
}

int bar_oob_find_org(const bar_oob *o, int side, const char *id)
{
    for (int i = 0; i < o->norgs; i++)
        if (o->org[i].side == side && strcmp(o->org[i].id, id) == 0)
            return i;
    return -1;
}

/* An organisation reference of a side: NULL/missing gives -1 unless
 * required. */
static int get_org_ref(ctx *c, const bar_oob *o, json_t *obj, const char *key, const char *path,
                       int side, bool required, int16_t *out)
{
    char s[BAR_OOB_ID], p[160];
    if (get_str(c, obj, key, path, required, s, sizeof s))
        return -1;
    *out = -1;
    if (!s[0])
        return 0;
    snprintf(p, sizeof p, "%s.%s", path, key);
    int i = bar_oob_find_org(o, side, s);
    if (i < 0)
        return fail(c, p, "unknown organisation \"%s\" of the %s side", s, side_names[side]);
    *out = (int16_t)i;
    return 0;
}

static const char *const org_keys[] = {"id", "side", "kind", "name", "parent", "leader",
                                       "units_named", "section", "estimate", NULL};
static const char *const leader_keys[] = {
    "id", "side", "rank", "name", "role", "leads", "command_rating", "initiative",
    "command_range", "er_bonus", "cv_bonus", "wan", "loss_value", "replacement_set", "section",
    "estimate", "note", NULL};
static const char *const unit_keys[] = {
    "id", "side", "nationality", "type", "fire_row", "command", "wing", "independent", "sp",
    "er", "cv", "mp", "parent", "owner", "mode", "skirmish", "section", "estimate", "note", NULL};

/* Ids are one namespace for units and leaders: a set-up names either. */
static int check_new_id(ctx *c, const bar_oob *o, const char *id, const char *path)
{
    char p[160];
    snprintf(p, sizeof p, "%s.id", path);
    int u = bar_oob_find_unit(o, id), l = bar_oob_find_leader(o, id);
    if (u >= 0)
        return fail(c, p, "\"%s\" is already units[%d]", id, u);
    if (l >= 0)
        return fail(c, p, "\"%s\" is already leaders[%d]", id, l);
    return 0;
}

static int parse_orgs(ctx *c, bar_oob *o, json_t *arr)
{
    size_t i;
    json_t *v;
    char p[64];
    if (!json_is_array(arr))
        return fail(c, "organizations", "a list needed");
    if (json_array_size(arr) > BAR_OOB_MAX_ORGS)
        return fail(c, "organizations", "more than %d", BAR_OOB_MAX_ORGS);
    /* First pass: ids, so parents may come later in the list. */
    json_array_foreach(arr, i, v) {
        bar_org *g = &o->org[i];
        int side, kind;
        snprintf(p, sizeof p, "organizations[%zu]", i);
        if (!json_is_object(v))
            return fail(c, p, "an object needed");
        if (check_keys(c, v, p, org_keys) || get_str(c, v, "id", p, true, g->id, sizeof g->id) ||
            get_str(c, v, "name", p, true, g->name, sizeof g->name) ||
            get_enum(c, v, "side", p, true, side_names, 2, 0, &side) ||
            get_enum(c, v, "kind", p, true, org_kind_names, BAR_NORG_KINDS, 0, &kind) ||
            get_estimate(c, v, p, false, &g->estimate))
            return -1;
        g->side = (int8_t)side;
        g->kind = (int8_t)kind;
        if (bar_oob_find_org(o, side, g->id) >= 0) {
            char q[80];
            snprintf(q, sizeof q, "%s.id", p);
            return fail(c, q, "\"%s\" is already organizations[%d]", g->id,
                        bar_oob_find_org(o, side, g->id));
        }
        json_t *un = json_object_get(v, "units_named");
        g->units_named = !un || json_is_true(un);
        o->norgs = (int)i + 1;
    }
    json_array_foreach(arr, i, v) {
        snprintf(p, sizeof p, "organizations[%zu]", i);
        if (get_org_ref(c, o, v, "parent", p, o->org[i].side, false, &o->org[i].parent))
            return -1;
        o->org[i].leader = -1;
    }
    return 0;
}

static int parse_leaders(ctx *c, bar_oob *o, json_t *arr)
{
    size_t i;
    json_t *v;
    char p[64], q[96];
    if (!json_is_array(arr))
        return fail(c, "leaders", "a list needed");
    if (json_array_size(arr) > BAR_OOB_MAX_LEADERS)
        return fail(c, "leaders", "more than %d", BAR_OOB_MAX_LEADERS);
    json_array_foreach(arr, i, v) {
        bar_leader *l = &o->leader[i];
        int side, role, x[7];
        char set[4];
        snprintf(p, sizeof p, "leaders[%zu]", i);
        memset(l, 0, sizeof *l);
        if (!json_is_object(v))
            return fail(c, p, "an object needed");
        if (check_keys(c, v, p, leader_keys) || get_str(c, v, "id", p, true, l->id, sizeof l->id) ||
            check_new_id(c, o, l->id, p) ||
            get_enum(c, v, "side", p, true, side_names, 2, 0, &side) ||
            get_str(c, v, "rank", p, true, l->rank, sizeof l->rank) ||
            get_str(c, v, "name", p, false, l->name, sizeof l->name) ||
            get_enum(c, v, "role", p, true, role_names, BAR_NLR, 0, &role) ||
            get_int(c, v, "command_rating", p, true, -3, 5, 0, &x[0]) ||
            get_int(c, v, "initiative", p, true, 0, 9, 0, &x[1]) ||
            get_int(c, v, "command_range", p, true, 0, 20, 0, &x[2]) ||
            get_int(c, v, "er_bonus", p, true, -5, 0, 0, &x[3]) ||
            get_int(c, v, "cv_bonus", p, true, 0, 5, 0, &x[4]) ||
            get_int(c, v, "wan", p, false, 0, 12, -1, &x[5]) ||
            get_int(c, v, "loss_value", p, true, 0, 20, 0, &x[6]) ||
            get_str(c, v, "replacement_set", p, true, set, sizeof set) ||
            get_estimate(c, v, p, true, &l->estimate))
            return -1;
        if (strcmp(set, "A") != 0 && strcmp(set, "B") != 0) {
            snprintf(q, sizeof q, "%s.replacement_set", p);
            return fail(c, q, "\"%s\": \"A\" or \"B\" needed (Monmouth 2.4b A)", set);
        }
        l->side = (int8_t)side;
        l->role = (int8_t)role;
        l->command_rating = (int8_t)x[0];
        l->initiative = (int8_t)x[1];
        l->command_range = (int8_t)x[2];
        l->er_bonus = (int8_t)x[3];
        l->cv_bonus = (int8_t)x[4];
        l->wan = (int8_t)x[5];
        l->loss_value = (int8_t)x[6];
        l->loss_set = set[0];
        /* A leader's command must exist, and he must be its only leader. */
        if (get_org_ref(c, o, v, "leads", p, side, false, &l->leads))
            return -1;
        o->nleaders = (int)i + 1;
        if (l->leads >= 0) {
            bar_org *g = &o->org[l->leads];
            snprintf(q, sizeof q, "%s.leads", p);
            if (g->leader >= 0)
                return fail(c, q, "\"%s\" is already led by leaders[%d] \"%s\"", g->id, g->leader,
                            o->leader[g->leader].id);
            g->leader = (int16_t)i;
        } else if (role != BAR_LR_SPECIAL) {
            snprintf(q, sizeof q, "%s.leads", p);
            return fail(c, q, "required for a leader who is not a Special Leader");
        }
    }
    return 0;
}

/* The organisations' "leader" fields must agree with the leaders' "leads". */
static int check_org_leaders(ctx *c, bar_oob *o, json_t *arr)
{
    size_t i;
    json_t *v;
    char p[96];
    json_array_foreach(arr, i, v) {
        char id[BAR_OOB_ID];
        snprintf(p, sizeof p, "organizations[%zu]", i);
        if (get_str(c, v, "leader", p, false, id, sizeof id))
            return -1;
        snprintf(p, sizeof p, "organizations[%zu].leader", i);
        int l = id[0] ? bar_oob_find_leader(o, id) : -1;
        if (id[0] && l < 0)
            return fail(c, p, "unknown leader \"%s\"", id);
        if (l != o->org[i].leader)
            return fail(c, p, "\"%s\" but the leader who leads \"%s\" is %s", id[0] ? id : "none",
                        o->org[i].id,
                        o->org[i].leader >= 0 ? o->leader[o->org[i].leader].id : "nobody");
    }
    return 0;
}

static int parse_units(ctx *c, bar_oob *o, json_t *arr)
{
    size_t i;
    json_t *v;
    char p[64], q[96];
    if (!json_is_array(arr))
        return fail(c, "units", "a list needed");
    if (json_array_size(arr) > BAR_OOB_MAX_UNITS)
        return fail(c, "units", "more than %d", BAR_OOB_MAX_UNITS);
    json_array_foreach(arr, i, v) {
        bar_unit *u = &o->unit[i];
        int side, nat, type, x[3], mp, mode, row;
        snprintf(p, sizeof p, "units[%zu]", i);
        memset(u, 0, sizeof *u);
        if (!json_is_object(v))
            return fail(c, p, "an object needed");
        if (check_keys(c, v, p, unit_keys) || get_str(c, v, "id", p, true, u->id, sizeof u->id) ||
            check_new_id(c, o, u->id, p) ||
            get_enum(c, v, "side", p, true, side_names, 2, 0, &side) ||
            get_enum(c, v, "nationality", p, true, nation_names, BAR_NNAT, 0, &nat) ||
            get_enum(c, v, "type", p, true, type_names, BAR_NUNIT_TYPES, 0, &type) ||
            get_enum(c, v, "fire_row", p, false, fire_row_names, BAR_NFIRE_ROWS,
                     default_fire_row(type), &row) ||
            get_org_ref(c, o, v, "command", p, side, false, &u->command) ||
            get_org_ref(c, o, v, "wing", p, side, false, &u->wing) ||
            get_bool(c, v, "independent", p, &u->independent) ||
            get_bool(c, v, "skirmish", p, &u->skirmish) ||
            get_int(c, v, "sp", p, true, 1, 16, 0, &x[0]) ||   /* 2.1c: none above 16 */
            get_int(c, v, "er", p, true, 0, 20, 0, &x[1]) ||
            get_int(c, v, "cv", p, true, 0, 20, 0, &x[2]) ||
            get_half(c, v, "mp", p, true, 16, &mp) ||
            get_enum(c, v, "mode", p, false, mode_names, 3, BAR_MODE_NONE, &mode) ||
            get_estimate(c, v, p, true, &u->estimate))
            return -1;
        if ((side == BAR_AMERICAN) != (nat == BAR_NAT_AMERICAN)) {
            snprintf(q, sizeof q, "%s.nationality", p);
            return fail(c, q, "\"%s\" does not fight for the %s side", nation_names[nat],
                        side_names[side]);
        }
        if (u->command < 0 && !u->independent) {
            snprintf(q, sizeof q, "%s.command", p);
            return fail(c, q, "required unless the unit is independent");
        }
        u->side = (int8_t)side;
        u->nation = (int8_t)nat;
        u->type = (int8_t)type;
        u->fire_row = (int8_t)row;
        u->sp = (int8_t)x[0];
        u->er = (int8_t)x[1];
        u->cv = (int8_t)x[2];
        u->mp_half = (int8_t)mp;
        u->mode = (int8_t)mode;
        u->parent = u->owner = -1;
        o->nunits = (int)i + 1;
    }
    /* Second pass: links to units anywhere in the list. */
    json_array_foreach(arr, i, v) {
        bar_unit *u = &o->unit[i];
        char id[BAR_OOB_ID];
        snprintf(p, sizeof p, "units[%zu]", i);
        if (get_str(c, v, "parent", p, false, id, sizeof id))
            return -1;
        if (id[0]) {
            int k = bar_oob_find_unit(o, id);
            snprintf(q, sizeof q, "%s.parent", p);
            if (k < 0 || k == (int)i || o->unit[k].side != u->side || o->unit[k].parent >= 0)
                return fail(c, q, "\"%s\" is not another unit of the same side that is a parent", id);
            u->parent = (int16_t)k;
        }
        if (get_str(c, v, "owner", p, false, id, sizeof id))
            return -1;
        snprintf(q, sizeof q, "%s.owner", p);
        if (id[0]) {
            int k = bar_oob_find_unit(o, id);
            /* 2.2d E: a regimental gun belongs to an infantry regiment. */
            if (u->type != BAR_UT_ART_REGIMENTAL)
                return fail(c, q, "\"%s\": only regimental guns have an owner", id);
            if (k < 0 || o->unit[k].side != u->side || is_artillery(o->unit[k].type) ||
                o->unit[k].type == BAR_UT_CAVALRY)
                return fail(c, q, "\"%s\" is not an infantry unit of the same side", id);
            u->owner = (int16_t)k;
        } else if (u->type == BAR_UT_ART_REGIMENTAL) {
            return fail(c, q, "required for regimental guns (Monmouth 2.2d E)");
        }
    }
    return 0;
}

static int oob_parse(bar_oob *o, json_t *root, ctx *c)
{
    static const char *const keys[] = {"about", "source", "estimate", "organizations",
                                       "leaders", "units", NULL};
    if (!json_is_object(root))
        return fail(c, "(top)", "an object needed");
    json_t *est = json_object_get(root, "estimate");
    if (check_keys(c, root, "(top)", keys) || get_str(c, root, "source", "(top)", true, NULL, 4096))
        return -1;
    if (!json_is_boolean(est))
        return fail(c, "estimate", "true or false needed (does the file hold our estimates?)");
    o->estimate = json_is_true(est);
    json_t *orgs = json_object_get(root, "organizations");
    if (parse_orgs(c, o, orgs) || parse_leaders(c, o, json_object_get(root, "leaders")) ||
        check_org_leaders(c, o, orgs) || parse_units(c, o, json_object_get(root, "units")))
        return -1;
    return 0;
}

static json_t *load_json(ctx *c, const char *path, const char *text)
{
    json_error_t je;
    json_t *root = text ? json_loads(text, JSON_REJECT_DUPLICATES, &je)
                        : json_load_file(path, JSON_REJECT_DUPLICATES, &je);
    if (!root)
        mk_error_set(c->err, "scenario_invalid", "%s:%d:%d: %s", c->file, je.line, je.column,
                     je.text);
    return root;
}

static int oob_common(bar_oob *o, const char *path, const char *text, const char *file,
                      mk_error *err)
{
    ctx c = {.file = file, .err = err};
    bar_oob_grid(&c.g);
    memset(o, 0, sizeof *o);
    json_t *root = load_json(&c, path, text);
    if (!root)
        return -1;
    int rc = oob_parse(o, root, &c);
    json_decref(root);
    if (rc)
        memset(o, 0, sizeof *o);
    return rc;
}

int bar_oob_load(bar_oob *o, const char *path, mk_error *err)
{
    char def[600];
    if (!path) {
        snprintf(def, sizeof def, "%s/data/bar/oob.json", mk_data_dir());
        path = def;
    }
    return oob_common(o, path, NULL, path, err);
}

int bar_oob_parse_text(bar_oob *o, const char *text, const char *file, mk_error *err)
{
    return oob_common(o, NULL, text, file ? file : "(text)", err);
}

/* ---- scenarios ---------------------------------------------------------- */

static const char *const formation_names[] = {
    "line",       "hook",     "march column", "road column", "attack column", "general order",
    "skirmish",   "square",   "limbered",     "unlimbered",  "any",
};
static const struct {
    const char *name;
    int deg;
} facing_names[] = {
    {"north", 0},  {"northeast", 60},  {"east", 90},  {"southeast", 120},
    {"south", 180}, {"southwest", 240}, {"west", 270}, {"northwest", 300},
};

/* A string or a list of strings -> formation bits. */
static int get_formations(ctx *c, json_t *obj, const char *key, const char *path, uint16_t *out)
{
    json_t *a = json_object_get(obj, key);
    char p[160], b[64];
    *out = 0;
    if (!a)
        return 0;
    snprintf(p, sizeof p, "%s.%s", path, key);
    if (!json_is_array(a) || json_array_size(a) == 0)
        return fail(c, p, "a non-empty list of formations needed");
    size_t i;
    json_t *v;
    json_array_foreach(a, i, v) {
        int k = json_is_string(v) ? lookup(json_string_value(v), formation_names, 11) : -1;
        if (k < 0) {
            snprintf(p, sizeof p, "%s.%s[%zu]", path, key, i);
            return fail(c, p, "unknown formation %s (known: line, hook, march column, road "
                              "column, attack column, general order, skirmish, square, "
                              "limbered, unlimbered, any)", show(v, b, sizeof b));
        }
        *out |= k == 10 ? (uint16_t)BAR_F_ANY : (uint16_t)(1u << k);
    }
    return 0;
}

static int get_facings(ctx *c, json_t *obj, const char *path, bar_place *pl)
{
    json_t *a = json_object_get(obj, "facing");
    char p[160], b[64];
    if (!a)
        return 0;
    snprintf(p, sizeof p, "%s.facing", path);
    if (!json_is_array(a) || json_array_size(a) == 0)
        return fail(c, p, "a non-empty list of facings needed");
    size_t i;
    json_t *v;
    json_array_foreach(a, i, v) {
        const char *s = json_is_string(v) ? json_string_value(v) : "";
        int deg = -1;
        for (size_t j = 0; j < sizeof facing_names / sizeof facing_names[0]; j++)
            if (strcmp(s, facing_names[j].name) == 0)
                deg = facing_names[j].deg;
        if (strcmp(s, "any") == 0)
            pl->facings |= BAR_FACE_ANY;
        else if (strcmp(s, "easternmost road hexside") == 0)
            pl->face_road_east = true;   /* 7.1b: needs the map's roads */
        else if (deg >= 0)
            pl->facings |= (uint16_t)BAR_FACE(deg);
        else {
            snprintf(p, sizeof p, "%s.facing[%zu]", path, i);
            return fail(c, p, "unknown facing %s (known: north, northeast, east, southeast, "
                              "south, southwest, west, northwest, any, easternmost road hexside)",
                        show(v, b, sizeof b));
        }
    }
    return 0;
}

/* A unit or leader id -> *unit / *leader (the other -1). */
static int piece_ref(ctx *c, const bar_oob *o, json_t *v, const char *path, int16_t *unit,
                     int16_t *leader)
{
    char b[64];
    *unit = *leader = -1;
    if (json_is_string(v)) {
        *unit = (int16_t)bar_oob_find_unit(o, json_string_value(v));
        if (*unit < 0)
            *leader = (int16_t)bar_oob_find_leader(o, json_string_value(v));
    }
    if (*unit < 0 && *leader < 0)
        return fail(c, path, "unknown unit or leader %s", show(v, b, sizeof b));
    return 0;
}

static int piece_side(const bar_oob *o, int unit, int leader)
{
    return unit >= 0 ? o->unit[unit].side : o->leader[leader].side;
}

static const char *piece_id(const bar_oob *o, int unit, int leader)
{
    return unit >= 0 ? o->unit[unit].id : o->leader[leader].id;
}

/* Is this piece already placed (in the same variant)? */
static int find_place(const bar_scen *s, int unit, int leader, int variant)
{
    for (int i = 0; i < s->nplaces; i++)
        if (s->place[i].variant == variant &&
            ((unit >= 0 && s->place[i].unit == unit) || (leader >= 0 && s->place[i].leader == leader)))
            return i;
    return -1;
}

static int add_place(ctx *c, const bar_oob *o, bar_scen *s, const bar_place *tmpl, int unit,
                     int leader, const char *path)
{
    int prev = find_place(s, unit, leader, tmpl->variant);
    if (prev >= 0)
        return fail(c, path, "\"%s\" is placed twice (also by %s)", piece_id(o, unit, leader),
                    s->place[prev].section);
    if (s->nplaces >= BAR_SC_MAX_PLACES)
        return fail(c, path, "more than %d placements", BAR_SC_MAX_PLACES);
    bar_place *pl = &s->place[s->nplaces++];
    *pl = *tmpl;
    pl->unit = (int16_t)unit;
    pl->leader = (int16_t)leader;
    return 0;
}

/* The "with" fields shared by set-up entries and reinforcement leaders. */
static int parse_with(ctx *c, const bar_oob *o, json_t *e, const char *path, int side,
                      bar_place *pl)
{
    char p[200];
    json_t *w = json_object_get(e, "with");
    pl->with_org = -1;
    pl->with_side = -1;
    if (w) {
        snprintf(p, sizeof p, "%s.with", path);
        if (!json_is_array(w) || json_array_size(w) == 0 ||
            json_array_size(w) > BAR_PLACE_MAX_WITH)
            return fail(c, p, "a list of 1..%d unit or leader ids needed", BAR_PLACE_MAX_WITH);
        size_t i;
        json_t *v;
        json_array_foreach(w, i, v) {
            snprintf(p, sizeof p, "%s.with[%zu]", path, i);
            if (piece_ref(c, o, v, p, &pl->with_unit[i], &pl->with_leader[i]))
                return -1;
            if (piece_side(o, pl->with_unit[i], pl->with_leader[i]) != side)
                return fail(c, p, "\"%s\" is of the other side", json_string_value(v));
        }
        pl->nwith = (int8_t)json_array_size(w);
    }
    if (get_org_ref(c, o, e, "with_org", path, side, false, &pl->with_org))
        return -1;
    int ws;
    if (get_enum(c, e, "with_side", path, false, side_names, 2, -1, &ws))
        return -1;
    pl->with_side = (int8_t)ws;
    return 0;
}

static const char *const setup_keys[] = {
    "pieces", "hex", "hexes", "within", "of", "except", "max_column", "terrain", "with",
    "with_org", "with_side", "formation", "facing", "as_independent", "section", "text", NULL};

/* One set-up entry (7.0c A): the pieces, then where, then how. */
static int parse_setup_entry(ctx *c, const bar_oob *o, bar_scen *s, json_t *e, const char *path,
                             int variant)
{
    char p[200], b[64];
    bar_place pl;
    memset(&pl, 0, sizeof pl);
    pl.variant = (int8_t)variant;
    pl.group = -1;
    pl.order = -1;
    pl.max_col = -1;
    pl.terrain = -1;
    if (!json_is_object(e))
        return fail(c, path, "an object needed");
    if (check_keys(c, e, path, setup_keys) ||
        get_str(c, e, "section", path, true, pl.section, sizeof pl.section) ||
        get_formations(c, e, "formation", path, &pl.formations) || get_facings(c, e, path, &pl) ||
        get_bool(c, e, "as_independent", path, &pl.as_independent))
        return -1;
    json_t *pieces = json_object_get(e, "pieces");
    snprintf(p, sizeof p, "%s.pieces", path);
    if (!json_is_array(pieces) || json_array_size(pieces) == 0)
        return fail(c, p, "a non-empty list of unit and leader ids needed");
    int16_t u0, l0;
    snprintf(p, sizeof p, "%s.pieces[0]", path);
    if (piece_ref(c, o, json_array_get(pieces, 0), p, &u0, &l0))
        return -1;
    int side = piece_side(o, u0, l0);

    json_t *hex = json_object_get(e, "hex"), *hexes = json_object_get(e, "hexes");
    json_t *of = json_object_get(e, "of");
    int nwhere = !!hex + !!hexes + !!of + (json_object_get(e, "with") || json_object_get(e, "with_org") ||
                                           json_object_get(e, "with_side"));
    if (nwhere != 1)
        return fail(c, path, "exactly one of hex, hexes, within/of, with/with_org/with_side needed");
    if (hex) {
        pl.at = BAR_AT_HEX;
        pl.nhex = 1;
        snprintf(p, sizeof p, "%s.hex", path);
        if (parse_hex(c, hex, p, &pl.hex[0]))
            return -1;
    } else if (hexes) {
        pl.at = BAR_AT_HEXES;
        snprintf(p, sizeof p, "%s.hexes", path);
        if (!json_is_array(hexes) || json_array_size(hexes) < 2 ||
            json_array_size(hexes) > BAR_PLACE_MAX_HEX)
            return fail(c, p, "a list of 2..%d hexes needed", BAR_PLACE_MAX_HEX);
        size_t i;
        json_t *v;
        json_array_foreach(hexes, i, v) {
            snprintf(p, sizeof p, "%s.hexes[%zu]", path, i);
            if (parse_hex(c, v, p, &pl.hex[i]))
                return -1;
        }
        pl.nhex = (int8_t)json_array_size(hexes);
    } else if (of) {
        int r;
        pl.at = BAR_AT_WITHIN;
        pl.nhex = 1;
        snprintf(p, sizeof p, "%s.of", path);
        if (parse_hex(c, of, p, &pl.hex[0]) || get_int(c, e, "within", path, true, 1, 20, 0, &r))
            return -1;
        pl.radius = (int8_t)r;
        json_t *ex = json_object_get(e, "except");
        if (ex) {
            snprintf(p, sizeof p, "%s.except", path);
            if (!json_is_array(ex) || json_array_size(ex) > 2)
                return fail(c, p, "a list of at most 2 hexes needed");
            size_t i;
            json_t *v;
            json_array_foreach(ex, i, v) {
                snprintf(p, sizeof p, "%s.except[%zu]", path, i);
                if (parse_hex(c, v, p, &pl.except[i]))
                    return -1;
            }
            pl.nexcept = (int8_t)json_array_size(ex);
        }
        json_t *mc = json_object_get(e, "max_column");
        if (mc) {
            /* "no farther east than the E08xx hex row": a sheet and column. */
            char lab[16];
            mk_hex h;
            snprintf(p, sizeof p, "%s.max_column", path);
            if (!json_is_string(mc) || strlen(json_string_value(mc)) != 3)
                return fail(c, p, "%s: a sheet and column needed (\"E08\")", show(mc, b, sizeof b));
            snprintf(lab, sizeof lab, "%s01", json_string_value(mc));
            char er[120];
            if (mk_hex_parse(&c->g, lab, &h, er, sizeof er))
                return fail(c, p, "%s is not a column of the map sheets: %s", show(mc, b, sizeof b), er);
            pl.max_col = (int16_t)mk_hex_col(&c->g, h);
        }
        json_t *te = json_object_get(e, "terrain");
        if (te) {
            snprintf(p, sizeof p, "%s.terrain", path);
            int t = json_is_string(te) ? bar_terrain_parse(json_string_value(te)) : -1;
            if (t < 0)
                return fail(c, p, "unknown terrain %s", show(te, b, sizeof b));
            pl.terrain = (int8_t)t;
        }
    } else {
        pl.at = BAR_AT_WITH;
    }
    if (!of && (json_object_get(e, "within") || json_object_get(e, "except") ||
                json_object_get(e, "max_column") || json_object_get(e, "terrain")))
        return fail(c, path, "within, except, max_column and terrain go with \"of\"");
    if (parse_with(c, o, e, path, side, &pl))
        return -1;
    size_t i;
    json_t *v;
    json_array_foreach(pieces, i, v) {
        int16_t u, l;
        snprintf(p, sizeof p, "%s.pieces[%zu]", path, i);
        if (piece_ref(c, o, v, p, &u, &l))
            return -1;
        if (piece_side(o, u, l) != side)
            return fail(c, p, "\"%s\" is not of the %s side like the entry's first piece",
                        piece_id(o, u, l), side_names[side]);
        if (add_place(c, o, s, &pl, u, l, p))
            return -1;
    }
    return 0;
}

static const char *const group_keys[] = {
    "group", "section", "side", "from", "until", "entry", "entry_edge", "formation",
    "not_formation", "mp_limit", "no_leader_initiative", "order", "whole_command", "items",
    "text", NULL};
static const char *const item_keys[] = {"unit", "leader", "org", "less_artillery", "with",
                                        "with_org", "with_group", "text", NULL};
static const char *const order_names[] = {"any", "exact", "as listed"};

static int parse_group(ctx *c, const bar_oob *o, bar_scen *s, json_t *e, const char *path)
{
    char p[200];
    int gi = s->ngroups;
    if (gi >= BAR_SC_MAX_GROUPS)
        return fail(c, path, "more than %d reinforcement groups", BAR_SC_MAX_GROUPS);
    bar_group *g = &s->group[gi];
    memset(g, 0, sizeof *g);
    int side, first, last, order, mp;
    if (!json_is_object(e))
        return fail(c, path, "an object needed");
    if (check_keys(c, e, path, group_keys) || get_str(c, e, "group", path, true, g->name, sizeof g->name) ||
        get_str(c, e, "section", path, true, g->section, sizeof g->section) ||
        get_enum(c, e, "side", path, true, side_names, 2, 0, &side) ||
        get_time(c, e, "from", path, true, s->first_turn, s->last_turn, &first) ||
        get_time(c, e, "until", path, false, s->first_turn, s->last_turn, &last) ||
        get_formations(c, e, "formation", path, &g->formations) ||
        get_formations(c, e, "not_formation", path, &g->not_formations) ||
        get_half(c, e, "mp_limit", path, false, 16, &mp) ||
        get_bool(c, e, "no_leader_initiative", path, &g->no_leader_initiative) ||
        get_bool(c, e, "whole_command", path, &g->whole_command) ||
        get_enum(c, e, "order", path, true, order_names, 3, 0, &order))
        return -1;
    if (last >= 0 && last < first) {
        snprintf(p, sizeof p, "%s.until", path);
        return fail(c, p, "before \"from\"");
    }
    g->side = (int8_t)side;
    g->first_turn = (int16_t)first;
    g->last_turn = (int16_t)(last >= 0 ? last : first);
    g->mp_limit_half = (int8_t)mp;
    g->order = (int8_t)order;
    g->edge = MK_EDGE_NONE;
    json_t *entry = json_object_get(e, "entry"), *edge = json_object_get(e, "entry_edge");
    if (!entry == !edge)
        return fail(c, path, "one of entry (hexes) or entry_edge needed");
    if (entry) {
        snprintf(p, sizeof p, "%s.entry", path);
        if (!json_is_array(entry) || json_array_size(entry) == 0 ||
            json_array_size(entry) > BAR_PLACE_MAX_HEX)
            return fail(c, p, "a list of 1..%d hexes needed", BAR_PLACE_MAX_HEX);
        size_t i;
        json_t *v;
        json_array_foreach(entry, i, v) {
            snprintf(p, sizeof p, "%s.entry[%zu]", path, i);
            if (parse_hex(c, v, p, &g->entry[i]))
                return -1;
            if (!mk_hex_on_map_edge(&c->g, g->entry[i]))
                return fail(c, p, "\"%s\" is not a map edge hex", json_string_value(v));
        }
        g->nentry = (int8_t)json_array_size(entry);
    } else {
        static const char *const ek[] = {"sheet", "edge", "within", NULL};
        char sheet[4], ename[8];
        int w;
        snprintf(p, sizeof p, "%s.entry_edge", path);
        if (!json_is_object(edge))
            return fail(c, p, "an object needed");
        if (check_keys(c, edge, p, ek) || get_str(c, edge, "sheet", p, false, sheet, sizeof sheet) ||
            get_str(c, edge, "edge", p, true, ename, sizeof ename) ||
            get_int(c, edge, "within", p, false, 0, 20, 0, &w))
            return -1;
        g->edge = (int8_t)mk_edge_parse(ename);
        if (g->edge == MK_EDGE_NONE || (sheet[0] && sheet[0] != 'W' && sheet[0] != 'E') || sheet[1])
            return fail(c, p, "edge \"%s\" / sheet \"%s\": north, south, west or east; W or E", ename,
                        sheet);
        g->edge_sheet = sheet[0];
        g->edge_within = (int8_t)w;
    }
    s->ngroups++;

    json_t *items = json_object_get(e, "items");
    snprintf(p, sizeof p, "%s.items", path);
    if (!json_is_array(items) || json_array_size(items) == 0)
        return fail(c, p, "a non-empty list needed");
    size_t i;
    json_t *it;
    json_array_foreach(items, i, it) {
        char ip[200];
        bar_place pl;
        memset(&pl, 0, sizeof pl);
        pl.at = BAR_AT_GROUP;
        pl.group = (int8_t)gi;
        pl.order = order == BAR_ORDER_ANY ? -1 : (int16_t)i;
        pl.max_col = -1;
        pl.terrain = -1;
        snprintf(pl.section, sizeof pl.section, "%s", g->section);
        snprintf(ip, sizeof ip, "%s.items[%zu]", path, i);
        if (!json_is_object(it))
            return fail(c, ip, "an object needed");
        json_t *un = json_object_get(it, "unit"), *ld = json_object_get(it, "leader"),
               *og = json_object_get(it, "org");
        if (check_keys(c, it, ip, item_keys))
            return -1;
        if (!!un + !!ld + !!og != 1)
            return fail(c, ip, "exactly one of unit, leader, org needed");
        if (un || ld) {
            int16_t u, l;
            snprintf(p, sizeof p, "%s.%s", ip, un ? "unit" : "leader");
            if (piece_ref(c, o, un ? un : ld, p, &u, &l))
                return -1;
            if ((un && u < 0) || (ld && l < 0))
                return fail(c, p, "\"%s\" is not a %s", json_string_value(un ? un : ld),
                            un ? "unit" : "leader");
            if (piece_side(o, u, l) != side)
                return fail(c, p, "\"%s\" is not of the %s side", piece_id(o, u, l), side_names[side]);
            if (parse_with(c, o, it, ip, side, &pl) ||
                get_bool(c, it, "with_group", ip, &pl.with_group))
                return -1;
            if (u >= 0 && (pl.nwith || pl.with_org >= 0 || pl.with_group))
                return fail(c, ip, "with, with_org and with_group are for leaders");
            if (add_place(c, o, s, &pl, u, l, p))
                return -1;
            continue;
        }
        /* A whole organisation: its units (less artillery if so said) and
         * its leader, who enters with any of them. */
        int16_t org;
        bool less = false;
        if (get_org_ref(c, o, it, "org", ip, side, true, &org) ||
            get_bool(c, it, "less_artillery", ip, &less))
            return -1;
        if (g->norgs >= BAR_GROUP_MAX_ORGS)
            return fail(c, ip, "more than %d organisations in a group", BAR_GROUP_MAX_ORGS);
        g->org_less_artillery[g->norgs] = less;
        g->org[g->norgs++] = org;
        snprintf(p, sizeof p, "%s.org", ip);
        for (int u = 0; u < o->nunits; u++)
            if (o->unit[u].command == org && !(less && is_artillery(o->unit[u].type)) &&
                add_place(c, o, s, &pl, u, -1, p))
                return -1;
        if (o->org[org].leader >= 0) {
            pl.with_org = org;
            if (add_place(c, o, s, &pl, -1, o->org[org].leader, p))
                return -1;
        }
    }
    return 0;
}

/* 7.1a-7.4a: the special rules as switches. */
typedef enum { SW_BOOL, SW_TIME, SW_COLUMN } sw_kind;
static const struct {
    const char *name;
    sw_kind kind;
} switch_names[] = {
    {"lee_detachment", SW_BOOL},             /* 3.2b G, 3.3 */
    {"lee_ooc_roll", SW_BOOL},               /* 3.2b G iv-vi */
    {"wayne_wing", SW_BOOL},                 /* 3.2b E */
    {"clinton_commands_independents", SW_BOOL},   /* 4.2b A */
    {"british_initial_limits", SW_BOOL},     /* 4.4b */
    {"nj_brigade_holds", SW_BOOL},           /* 3.4b */
    {"limited_american_vol_rout", SW_BOOL},  /* 3.4a */
    {"line_may_hook", SW_BOOL},              /* 7.1a B, 7.2a B, ... */
    {"west_limit_column", SW_COLUMN},        /* 7.1a A: no movement west of W21xx */
    {"american_exit_west", SW_BOOL},         /* 7.1a A */
    {"morgan_variant", SW_BOOL},             /* 7.1a C (optional, off by default) */
    {"british_detachments", SW_BOOL},        /* 4.3 */
    {"american_detachments", SW_BOOL},       /* 3.3 */
    {"off_map_movement", SW_BOOL},           /* 3.4c */
    {"lafayette_extends", SW_BOOL},          /* 3.2b A */
    {"steuben_extends", SW_BOOL},            /* 3.2b B */
    {"steuben_wing", SW_BOOL},               /* 3.2b B, 7.4a H */
    {"dismount_from", SW_TIME},              /* 7.4a C */
    {"army_morale_relief", SW_TIME},         /* 7.4a D */
    {"baggage_guard_turn", SW_TIME},         /* 7.4a F */
    {"baggage_raids_from", SW_TIME},         /* 7.4a F ii */
    {"reorganize_advanced_corps", SW_BOOL},  /* 7.4a G */
    {"loyalist_initiative", SW_BOOL},        /* 7.4a I */
    {"jaeger_corps", SW_BOOL},               /* 7.4a J */
    {"british_vol_rout_29_free", SW_BOOL},   /* 4.4a last line */
};

static int parse_switches(ctx *c, bar_scen *s, json_t *obj)
{
    const char *k;
    json_t *v;
    char p[96], b[64];
    if (!json_is_object(obj))
        return fail(c, "rules", "an object needed");
    json_object_foreach(obj, k, v) {
        int kind = -1;
        for (size_t i = 0; i < sizeof switch_names / sizeof switch_names[0]; i++)
            if (strcmp(switch_names[i].name, k) == 0)
                kind = (int)switch_names[i].kind;
        snprintf(p, sizeof p, "rules.%.40s", k);
        if (kind < 0)
            return fail(c, p, "unknown special-rule switch");
        if (s->nswitches >= BAR_SC_MAX_SWITCHES)
            return fail(c, p, "more than %d switches", BAR_SC_MAX_SWITCHES);
        bar_switch *w = &s->sw[s->nswitches];
        snprintf(w->name, sizeof w->name, "%s", k);
        if (kind == SW_BOOL) {
            if (!json_is_boolean(v))
                return fail(c, p, "%s: true or false needed", show(v, b, sizeof b));
            w->value = json_is_true(v);
        } else if (kind == SW_TIME) {
            int t;
            if (get_time(c, obj, k, "rules", true, s->first_turn, s->last_turn, &t))
                return -1;
            w->value = (int16_t)t;
        } else {
            char lab[16], er[120];
            mk_hex h;
            if (!json_is_string(v) || strlen(json_string_value(v)) != 3)
                return fail(c, p, "%s: a sheet and column needed (\"W21\")", show(v, b, sizeof b));
            snprintf(lab, sizeof lab, "%s01", json_string_value(v));
            if (mk_hex_parse(&c->g, lab, &h, er, sizeof er))
                return fail(c, p, "%s is not a column of the map sheets: %s", show(v, b, sizeof b), er);
            w->value = (int16_t)mk_hex_col(&c->g, h);
        }
        s->nswitches++;
    }
    return 0;
}

static int parse_hex_list(ctx *c, json_t *obj, const char *key, const char *path, int max,
                          mk_hex *out, int8_t *n)
{
    json_t *a = json_object_get(obj, key);
    char p[160];
    *n = 0;
    if (!a)
        return 0;
    snprintf(p, sizeof p, "%s.%s", path, key);
    if (!json_is_array(a) || json_array_size(a) > (size_t)max)
        return fail(c, p, "a list of at most %d hexes needed", max);
    size_t i;
    json_t *v;
    json_array_foreach(a, i, v) {
        snprintf(p, sizeof p, "%s.%s[%zu]", path, key, i);
        if (parse_hex(c, v, p, &out[i]))
            return -1;
    }
    *n = (int8_t)json_array_size(a);
    return 0;
}

static int opt_hex(ctx *c, json_t *obj, const char *key, const char *path, mk_hex *out)
{
    json_t *v = json_object_get(obj, key);
    char p[160];
    *out = MK_NO_HEX;
    if (!v)
        return 0;
    snprintf(p, sizeof p, "%s.%s", path, key);
    return parse_hex(c, v, p, out);
}

static int parse_victory(ctx *c, bar_scen *s, json_t *v)
{
    static const char *const keys[] = {"section", "turn", "auto_draw", "orchard", "hold_hex",
                                       "line_end", "threat_hex", "on_map_loss", "exit_hex",
                                       "exit_within", "exit_light", "advance", "baggage", "text",
                                       NULL};
    bar_sc_victory *w = &s->victory;
    int t, ad, ml, ew;
    if (!json_is_object(v))
        return fail(c, "victory", "an object needed");
    if (check_keys(c, v, "victory", keys) ||
        get_time(c, v, "turn", "victory", true, s->first_turn, s->last_turn, &t) ||
        get_int(c, v, "auto_draw", "victory", true, 0, 100, 0, &ad) ||
        get_int(c, v, "on_map_loss", "victory", false, 0, 10, 0, &ml) ||
        get_int(c, v, "exit_within", "victory", false, 0, 20, 0, &ew) ||
        parse_hex_list(c, v, "orchard", "victory", 4, w->orchard, &w->norchard) ||
        opt_hex(c, v, "hold_hex", "victory", &w->hold_hex) ||
        opt_hex(c, v, "line_end", "victory", &w->line_end) ||
        opt_hex(c, v, "threat_hex", "victory", &w->threat_hex) ||
        opt_hex(c, v, "exit_hex", "victory", &w->exit_hex) ||
        get_bool(c, v, "baggage", "victory", &w->baggage))
        return -1;
    /* The file and clock.c must agree (7.1d A ... 7.4d A, AMB-BAR-6). */
    if (t != bar_scenario_victory_turn(s->scenario)) {
        char a[32];
        bar_turn_format(bar_scenario_victory_turn(s->scenario), a, sizeof a);
        return fail(c, "victory.turn", "scenario %d is decided at the end of %s (clock.c)",
                    s->scenario, a);
    }
    w->turn = (int16_t)t;
    w->auto_draw = (int8_t)ad;
    w->on_map_loss = (int8_t)ml;
    w->exit_within = (int8_t)ew;
    json_t *el = json_object_get(v, "exit_light");
    if (el) {
        static const char *const lights[] = {"day", "dawn", "dusk", "moonlit", "night"};
        size_t i;
        json_t *x;
        if (!json_is_array(el))
            return fail(c, "victory.exit_light", "a list needed");
        json_array_foreach(el, i, x) {
            int k = json_is_string(x) ? lookup(json_string_value(x), lights, 5) : -1;
            char p[64], b[64];
            snprintf(p, sizeof p, "victory.exit_light[%zu]", i);
            if (k < 0)
                return fail(c, p, "unknown light %s", show(x, b, sizeof b));
            w->exit_light |= (uint8_t)(1u << k);
        }
    }
    json_t *adv = json_object_get(v, "advance");
    if (adv) {
        size_t i;
        json_t *x;
        if (!json_is_array(adv) || json_array_size(adv) > 10)
            return fail(c, "victory.advance", "a list of at most 10 [hex, modifier] needed");
        json_array_foreach(adv, i, x) {
            char p[64];
            snprintf(p, sizeof p, "victory.advance[%zu]", i);
            json_t *m = json_array_get(x, 1);
            if (!json_is_array(x) || json_array_size(x) != 2 || !json_is_integer(m) ||
                json_integer_value(m) < -50 || json_integer_value(m) > 50)
                return fail(c, p, "[hex, modifier -50..50] needed");
            if (parse_hex(c, json_array_get(x, 0), p, &w->advance[i]))
                return -1;
            w->advance_mod[i] = (int8_t)json_integer_value(m);
        }
        w->nadvance = (int8_t)json_array_size(adv);
    }
    return 0;
}

static int parse_variants(ctx *c, const bar_oob *o, bar_scen *s, json_t *arr)
{
    static const char *const keys[] = {"id", "section", "text", "setup", "british_choice", NULL};
    static const char *const ck[] = {"section", "max_sp", "from_orgs", "within", "of", "text", NULL};
    size_t i, j;
    json_t *v, *e;
    char p[96], q[160];
    if (!json_is_array(arr))
        return fail(c, "variants", "a list needed");
    json_array_foreach(arr, i, v) {
        snprintf(p, sizeof p, "variants[%zu]", i);
        if (!json_is_object(v) || check_keys(c, v, p, keys) ||
            get_str(c, v, "id", p, true, NULL, 32) || get_str(c, v, "section", p, true, NULL, 40))
            return json_is_object(v) ? -1 : fail(c, p, "an object needed");
        json_t *su = json_object_get(v, "setup");
        snprintf(q, sizeof q, "%s.setup", p);
        if (!json_is_array(su))
            return fail(c, q, "a list needed");
        json_array_foreach(su, j, e) {
            snprintf(q, sizeof q, "%s.setup[%zu]", p, j);
            if (parse_setup_entry(c, o, s, e, q, (int)i + 1))
                return -1;
        }
        json_t *ch = json_object_get(v, "british_choice");
        if (ch) {
            int sp, w;
            char lid[BAR_OOB_ID];
            snprintf(q, sizeof q, "%s.british_choice", p);
            if (!json_is_object(ch) || check_keys(c, ch, q, ck) ||
                get_int(c, ch, "max_sp", q, true, 1, 200, 0, &sp) ||
                get_int(c, ch, "within", q, true, 1, 20, 0, &w) ||
                get_str(c, ch, "of", q, true, lid, sizeof lid))
                return json_is_object(ch) ? -1 : fail(c, q, "an object needed");
            s->choice_max_sp = (int16_t)sp;
            s->choice_within = (int8_t)w;
            s->choice_leader = (int16_t)bar_oob_find_leader(o, lid);
            if (s->choice_leader < 0) {
                char r[200];
                snprintf(r, sizeof r, "%s.of", q);
                return fail(c, r, "unknown leader \"%s\"", lid);
            }
            json_t *fo = json_object_get(ch, "from_orgs");
            json_t *x;
            size_t k;
            if (!json_is_array(fo) || json_array_size(fo) > 4)
                return fail(c, q, "from_orgs: a list of at most 4 organisations needed");
            json_array_foreach(fo, k, x) {
                char r[200], b[64];
                snprintf(r, sizeof r, "%s.from_orgs[%zu]", q, k);
                int g = json_is_string(x) ? bar_oob_find_org(o, BAR_BRITISH, json_string_value(x)) : -1;
                if (g < 0)
                    return fail(c, r, "unknown British organisation %s", show(x, b, sizeof b));
                s->choice_org[k] = (int16_t)g;
            }
            s->choice_norgs = (int8_t)json_array_size(fo);
        }
        s->nvariants++;
    }
    return 0;
}

static int scen_parse(bar_scen *s, const bar_oob *o, json_t *root, ctx *c)
{
    static const char *const keys[] = {
        "ruleset", "id", "scenario", "title", "section", "source", "first_turn", "last_turn",
        "end_turn_number", "deploys_first", "rules", "setup", "reinforcements", "victory",
        "variants", NULL};
    char rs[8], a[32];
    int n, first, last, dep;
    if (!json_is_object(root))
        return fail(c, "(top)", "an object needed");
    if (check_keys(c, root, "(top)", keys) || get_str(c, root, "ruleset", "(top)", true, rs, sizeof rs))
        return -1;
    if (strcmp(rs, "bar") != 0)
        return fail(c, "ruleset", "\"%s\": \"bar\" needed", rs);
    if (get_str(c, root, "id", "(top)", true, s->id, sizeof s->id) ||
        get_str(c, root, "title", "(top)", true, s->title, sizeof s->title) ||
        get_str(c, root, "source", "(top)", true, NULL, 4096) ||
        get_int(c, root, "scenario", "(top)", true, 1, 4, 0, &n))
        return -1;
    s->scenario = n;
    /* The clock (7.1a A, ...) is the authority for the span. */
    if (get_time(c, root, "first_turn", "(top)", true, -1, 0, &first) ||
        get_time(c, root, "last_turn", "(top)", true, -1, 0, &last) ||
        get_enum(c, root, "deploys_first", "(top)", true, side_names, 2, 0, &dep))
        return -1;
    if (first != bar_scenario_first_turn(n)) {
        bar_turn_format(bar_scenario_first_turn(n), a, sizeof a);
        return fail(c, "first_turn", "scenario %d starts on %s (clock.c)", n, a);
    }
    if (last != bar_scenario_last_turn(n)) {
        bar_turn_format(bar_scenario_last_turn(n), a, sizeof a);
        return fail(c, "last_turn", "scenario %d ends with %s (clock.c)", n, a);
    }
    s->first_turn = (int16_t)first;
    s->last_turn = (int16_t)last;
    s->deploys_first = (int8_t)dep;

    json_t *etn = json_object_get(root, "end_turn_number");
    if (!json_is_array(etn) || json_array_size(etn) == 0 || json_array_size(etn) > BAR_SC_MAX_ETN)
        return fail(c, "end_turn_number", "a list of 1..%d {from, value} needed", BAR_SC_MAX_ETN);
    size_t i;
    json_t *v;
    json_array_foreach(etn, i, v) {
        char p[64];
        int t, val;
        snprintf(p, sizeof p, "end_turn_number[%zu]", i);
        if (!json_is_object(v) ||
            get_time(c, v, "from", p, true, s->first_turn, s->last_turn, &t) ||
            get_int(c, v, "value", p, true, 1, 20, 0, &val))
            return json_is_object(v) ? -1 : fail(c, p, "an object needed");
        if ((i == 0 && t != first) || (i > 0 && t <= s->etn_from[i - 1]))
            return fail(c, p, "the first must start with the scenario, the others in order");
        s->etn_from[i] = (int16_t)t;
        s->etn_value[i] = (int8_t)val;
        s->netn = (int8_t)(i + 1);
    }
    /* Every turn's number must be clock.c's (AMB-BAR-12). */
    for (int t = first, k = 0; t <= last; t++) {
        while (k + 1 < s->netn && s->etn_from[k + 1] <= t)
            k++;
        if (s->etn_value[k] != bar_end_turn_number(n, t)) {
            bar_turn_format(t, a, sizeof a);
            return fail(c, "end_turn_number", "%d on %s, but clock.c says %d", s->etn_value[k], a,
                        bar_end_turn_number(n, t));
        }
    }

    if (parse_switches(c, s, json_object_get(root, "rules")))
        return -1;
    json_t *setup = json_object_get(root, "setup");
    if (!json_is_array(setup))
        return fail(c, "setup", "a list needed");
    json_array_foreach(setup, i, v) {
        char p[64];
        snprintf(p, sizeof p, "setup[%zu]", i);
        if (parse_setup_entry(c, o, s, v, p, 0))
            return -1;
    }
    json_t *re = json_object_get(root, "reinforcements");
    if (re && !json_is_array(re))
        return fail(c, "reinforcements", "a list needed");
    json_array_foreach(re, i, v) {
        char p[64];
        snprintf(p, sizeof p, "reinforcements[%zu]", i);
        if (parse_group(c, o, s, v, p))
            return -1;
    }
    /* A leader who arrives "with" units: they must arrive too. */
    for (int k = 0; k < s->nplaces; k++) {
        const bar_place *pl = &s->place[k];
        for (int w = 0; pl->at == BAR_AT_GROUP && w < pl->nwith; w++) {
            int u = pl->with_unit[w], l = pl->with_leader[w];
            int q = find_place(s, u, l, 0);
            if (q < 0 || s->place[q].at != BAR_AT_GROUP)
                return fail(c, pl->section, "\"%s\" arrives with \"%s\", which is not a reinforcement",
                            piece_id(o, pl->unit, pl->leader), piece_id(o, u, l));
        }
    }
    json_t *var = json_object_get(root, "variants");
    if (var && parse_variants(c, o, s, var))
        return -1;
    return parse_victory(c, s, json_object_get(root, "victory"));
}

static int scen_common(bar_scen *s, const bar_oob *o, const char *path, const char *text,
                       const char *file, mk_error *err)
{
    ctx c = {.file = file, .err = err};
    bar_oob_grid(&c.g);
    memset(s, 0, sizeof *s);
    s->choice_leader = -1;
    json_t *root = load_json(&c, path, text);
    if (!root)
        return -1;
    int rc = scen_parse(s, o, root, &c);
    json_decref(root);
    if (rc)
        memset(s, 0, sizeof *s);
    return rc;
}

int bar_scen_load(bar_scen *s, const bar_oob *o, int n, const char *path, mk_error *err)
{
    static const char *const files[] = {"1-lees-repulse", "2-washingtons-stand",
                                        "3-grand-battle", "4-general-engagement"};
    char def[600];
    if (!path) {
        if (n < 1 || n > 4)
            return mk_error_set(err, "bad_arg", "scenario %d: 1-4 needed", n);
        snprintf(def, sizeof def, "%s/data/bar/scenarios/%s.json", mk_data_dir(), files[n - 1]);
        path = def;
    }
    return scen_common(s, o, path, NULL, path, err);
}

int bar_scen_parse_text(bar_scen *s, const bar_oob *o, const char *text, const char *file,
                        mk_error *err)
{
    return scen_common(s, o, NULL, text, file ? file : "(text)", err);
}

const bar_place *bar_scen_unit_place(const bar_scen *s, int unit)
{
    int i = unit >= 0 ? find_place(s, unit, -1, 0) : -1;
    return i >= 0 ? &s->place[i] : NULL;
}

const bar_place *bar_scen_leader_place(const bar_scen *s, int leader)
{
    int i = leader >= 0 ? find_place(s, -1, leader, 0) : -1;
    return i >= 0 ? &s->place[i] : NULL;
}

int bar_scen_switch(const bar_scen *s, const char *name, int def)
{
    for (int i = 0; i < s->nswitches; i++)
        if (strcmp(s->sw[i].name, name) == 0)
            return s->sw[i].value;
    return def;
}
