/* scenario.c - loading and checking scenario objects: the common shape of
 * PROTOCOL.md "Scenario objects" (map, sides, first, turns, units), with
 * every error naming the source, the JSON path and the offending value. */
#include "scenario.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ruleset.h"

#define MAX_FILE_BYTES (16 * 1024 * 1024)   /* a scenario is a few KiB */
#define MAX_TURNS 9999
#define MAX_MP 9                             /* MP are one digit on a counter */
#define MAX_RATING 99

/* What every check needs: where the text came from, where errors go. */
typedef struct ctx {
    const char *src;
    mk_error *err;
} ctx;

/* Fills err with "src: path: message" (or "src: message" for an empty path)
 * and code "scenario_invalid". Returns -1. */
static int bad(const ctx *c, const char *path, const char *fmt, ...) MK_PRINTF(3, 4);
static int bad(const ctx *c, const char *path, const char *fmt, ...)
{
    char msg[MK_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (path && path[0])
        return mk_error_set(c->err, "scenario_invalid", "%s: %s: %s", c->src, path, msg);
    return mk_error_set(c->err, "scenario_invalid", "%s: %s", c->src, msg);
}

/* Writes a short JSON rendering of v into buf (cut with "..." when long)
 * and returns buf, for messages that quote the offending value. */
static const char *show(const json_t *v, char *buf, size_t n)
{
    char *s = v ? json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;
    if (!s) {
        snprintf(buf, n, "%s", v ? "(unprintable)" : "nothing");
        return buf;
    }
    if (strlen(s) >= n && n > 4)
        snprintf(buf, n, "%.*s...", (int)(n - 4), s);
    else
        snprintf(buf, n, "%s", s);
    free(s);
    return buf;
}

static const char *type_name(json_type t)
{
    switch (t) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    case JSON_REAL: return "a number";
    case JSON_TRUE:
    case JSON_FALSE: return "true or false";
    case JSON_NULL: return "null";
    }
    return "a value";
}

/* Looks up obj[key] (path names it in messages) and checks its type.
 * Returns 0 with *out set (NULL when absent and not required), or -1. */
static int field(const ctx *c, json_t *obj, const char *key, const char *path, json_type type,
                 bool required, json_t **out)
{
    json_t *v = json_object_get(obj, key);
    *out = NULL;
    if (!v) {
        if (required)
            return bad(c, path, "missing");
        return 0;
    }
    if (json_typeof(v) != type) {
        char buf[64];
        return bad(c, path, "expected %s, got %s", type_name(type), show(v, buf, sizeof buf));
    }
    *out = v;
    return 0;
}

/* Reads an integer field in [lo, hi] into *out (dflt when absent and not
 * required). Returns 0 or -1. */
static int get_int(const ctx *c, json_t *obj, const char *key, const char *path, bool required,
                   int dflt, int lo, int hi, int *out)
{
    json_t *v;
    if (field(c, obj, key, path, JSON_INTEGER, required, &v) < 0)
        return -1;
    if (!v) {
        *out = dflt;
        return 0;
    }
    json_int_t i = json_integer_value(v);
    if (i < lo || i > hi)
        return bad(c, path, "%lld is out of range: must be %d..%d", (long long)i, lo, hi);
    *out = (int)i;
    return 0;
}

/* Reads a string field into dst (cap bytes, NUL included); an empty string
 * is refused when nonempty is set. Returns 0 (dst untouched when absent and
 * not required) or -1. */
static int get_str(const ctx *c, json_t *obj, const char *key, const char *path, bool required,
                   bool nonempty, char *dst, size_t cap)
{
    json_t *v;
    if (field(c, obj, key, path, JSON_STRING, required, &v) < 0)
        return -1;
    if (!v)
        return 0;
    size_t len = json_string_length(v);
    const char *s = json_string_value(v);
    if (nonempty && len == 0)
        return bad(c, path, "must not be empty");
    if (len >= cap)
        return bad(c, path, "'%.40s...' is too long: at most %zu characters", s, cap - 1);
    if (strlen(s) != len)
        return bad(c, path, "contains a NUL character");
    memcpy(dst, s, len + 1);
    return 0;
}

/* Writes "a, b, c" from names[0..n) into buf, cut to fit. */
static const char *name_list(const char *const *names, int n, char *buf, size_t cap)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && names && used + 1 < cap; i++) {
        int w = snprintf(buf + used, cap - used, "%s%s", i ? ", " : "", names[i] ? names[i] : "?");
        if (w < 0)
            break;
        used += (size_t)w;
    }
    if (used >= cap && cap > 4)
        memcpy(buf + cap - 4, "...", 4);
    return buf;
}

/* The map (PROTOCOL.md "Scenario objects": orientation, shifted, cols, rows,
 * terrain; a flat map may give sheets instead of cols). */
static int read_map(const ctx *c, json_t *root, const mk_ruleset *rs, mk_map *map)
{
    json_t *m, *v;
    char buf[64], gerr[200];
    if (field(c, root, "map", "map", JSON_OBJECT, true, &m) < 0)
        return -1;

    if (field(c, m, "orientation", "map.orientation", JSON_STRING, true, &v) < 0)
        return -1;
    int orient;
    if (strcmp(json_string_value(v), "pointy") == 0)
        orient = MK_POINTY;
    else if (strcmp(json_string_value(v), "flat") == 0)
        orient = MK_FLAT;
    else
        return bad(c, "map.orientation", "%s is not \"pointy\" or \"flat\"", show(v, buf, sizeof buf));

    if (field(c, m, "shifted", "map.shifted", JSON_STRING, true, &v) < 0)
        return -1;
    bool shifted_even;
    if (strcmp(json_string_value(v), "even") == 0)
        shifted_even = true;
    else if (strcmp(json_string_value(v), "odd") == 0)
        shifted_even = false;
    else
        return bad(c, "map.shifted", "%s is not \"even\" or \"odd\"", show(v, buf, sizeof buf));

    int rows, cols = 0;
    if (get_int(c, m, "rows", "map.rows", true, 0, 1, MK_MAX_HEX, &rows) < 0)
        return -1;

    json_t *sheets;
    if (field(c, m, "sheets", "map.sheets", JSON_ARRAY, false, &sheets) < 0)
        return -1;
    if (sheets) {
        /* Multi-sheet maps (BAR "W0201") are flat-topped only (hex.h). */
        if (orient != MK_FLAT)
            return bad(c, "map.sheets", "sheets need \"orientation\": \"flat\"");
        size_t n = json_array_size(sheets);
        if (n < 1 || n > MK_MAX_SHEETS)
            return bad(c, "map.sheets", "%zu sheets: must be 1..%d", n, MK_MAX_SHEETS);
        mk_sheet sh[MK_MAX_SHEETS];
        int total = 0;
        for (size_t i = 0; i < n; i++) {
            char path[64];
            json_t *s = json_array_get(sheets, i), *id;
            snprintf(path, sizeof path, "map.sheets[%zu]", i);
            if (!json_is_object(s))
                return bad(c, path, "expected an object, got %s", show(s, buf, sizeof buf));
            snprintf(path, sizeof path, "map.sheets[%zu].id", i);
            if (field(c, s, "id", path, JSON_STRING, true, &id) < 0)
                return -1;
            const char *ids = json_string_value(id);
            if (json_string_length(id) != 1 || !((ids[0] >= 'A' && ids[0] <= 'Z') ||
                                                  (ids[0] >= 'a' && ids[0] <= 'z')))
                return bad(c, path, "%s is not one letter", show(id, buf, sizeof buf));
            char letter = (char)(ids[0] >= 'a' ? ids[0] - 'a' + 'A' : ids[0]);
            for (size_t j = 0; j < i; j++)
                if (sh[j].id == letter)
                    return bad(c, path, "'%c' is already map.sheets[%zu]", letter, j);
            sh[i].id = letter;
            int sc;
            snprintf(path, sizeof path, "map.sheets[%zu].cols", i);
            if (get_int(c, s, "cols", path, true, 0, 1, 99, &sc) < 0)
                return -1;
            sh[i].cols = (int16_t)sc;
            total += sc;
        }
        json_t *jc = json_object_get(m, "cols");
        if (jc) {
            if (get_int(c, m, "cols", "map.cols", true, 0, 1, MK_MAX_HEX, &cols) < 0)
                return -1;
            if (cols != total)
                return bad(c, "map.cols", "%d, but the sheets have %d columns in all", cols, total);
        }
        cols = total;
        if ((long)cols * rows > MK_MAX_HEX)
            return bad(c, "map", "%d x %d is %ld hexes: at most %d", cols, rows,
                       (long)cols * rows, MK_MAX_HEX);
        if (mk_grid_init_sheets(&map->grid, shifted_even, sh, (int)n, rows, gerr, sizeof gerr) < 0)
            return bad(c, "map.sheets", "%s", gerr);
    } else {
        if (get_int(c, m, "cols", "map.cols", true, 0, 1, MK_MAX_HEX, &cols) < 0)
            return -1;
        if ((long)cols * rows > MK_MAX_HEX)
            return bad(c, "map", "%d x %d is %ld hexes: at most %d", cols, rows,
                       (long)cols * rows, MK_MAX_HEX);
        if (mk_grid_init(&map->grid, orient, shifted_even, cols, rows, gerr, sizeof gerr) < 0)
            return bad(c, "map", "%s", gerr);
    }

    /* Terrain: hexes not named are the ruleset's default, index 0. */
    json_t *terrain;
    if (field(c, m, "terrain", "map.terrain", JSON_OBJECT, false, &terrain) < 0)
        return -1;
    memset(map->terrain, 0, sizeof map->terrain);
    if (!terrain)
        return 0;
    uint8_t given[MK_MAX_HEX];
    memset(given, 0, sizeof given);
    const char *label;
    json_t *t;
    json_object_foreach(terrain, label, t) {
        char path[96];
        snprintf(path, sizeof path, "map.terrain.%.32s", label);
        mk_hex h;
        if (mk_hex_parse(&map->grid, label, &h, gerr, sizeof gerr) < 0)
            return bad(c, path, "%s", gerr);
        if (h < 0 || h >= mk_grid_size(&map->grid))
            return bad(c, path, "'%.32s' is off the map", label);
        if (!json_is_string(t))
            return bad(c, path, "expected a terrain name, got %s", show(t, buf, sizeof buf));
        int ti = mk_ruleset_terrain(rs, json_string_value(t));
        if (ti < 0) {
            char known[256];
            return bad(c, path, "unknown terrain '%.40s' (known: %s)", json_string_value(t),
                       name_list(rs->terrains, rs->nterrains, known, sizeof known));
        }
        if (ti > UINT8_MAX)
            return bad(c, path, "terrain index %d does not fit", ti);
        if (given[h]) {
            char lb[MK_HEX_LABEL_MAX];
            return bad(c, path, "'%.32s' is %s, whose terrain is already given", label,
                       mk_hex_label(&map->grid, h, lb));
        }
        given[h] = 1;
        map->terrain[h] = (uint8_t)ti;
    }
    return 0;
}

/* The two sides (PROTOCOL.md: id, cap, home). */
static int read_sides(const ctx *c, json_t *root, mk_scenario *sc)
{
    json_t *sides, *v;
    char buf[64], path[64];
    if (field(c, root, "sides", "sides", JSON_ARRAY, true, &sides) < 0)
        return -1;
    if (json_array_size(sides) != MK_MAX_SIDES)
        return bad(c, "sides", "%zu sides: a scenario has exactly %d", json_array_size(sides),
                   MK_MAX_SIDES);
    for (int i = 0; i < MK_MAX_SIDES; i++) {
        json_t *s = json_array_get(sides, (size_t)i);
        mk_sc_side *side = &sc->sides[i];
        snprintf(path, sizeof path, "sides[%d]", i);
        if (!json_is_object(s))
            return bad(c, path, "expected an object, got %s", show(s, buf, sizeof buf));
        snprintf(path, sizeof path, "sides[%d].id", i);
        if (get_str(c, s, "id", path, true, true, side->id, sizeof side->id) < 0)
            return -1;
        for (int j = 0; j < i; j++)
            if (strcmp(sc->sides[j].id, side->id) == 0)
                return bad(c, path, "'%s' is already sides[%d]", side->id, j);
        snprintf(path, sizeof path, "sides[%d].cap", i);
        if (get_int(c, s, "cap", path, true, 0, 0, 999, &side->cap) < 0)
            return -1;
        snprintf(path, sizeof path, "sides[%d].home", i);
        if (field(c, s, "home", path, JSON_STRING, true, &v) < 0)
            return -1;
        side->home = mk_edge_parse(json_string_value(v));
        if (side->home == MK_EDGE_NONE)
            return bad(c, path, "%s is not north, south, west or east", show(v, buf, sizeof buf));
    }
    sc->nsides = MK_MAX_SIDES;
    return 0;
}

/* A side reference (a side's id) at path; returns its index or -1. */
static int side_ref(const ctx *c, const mk_scenario *sc, json_t *obj, const char *key,
                    const char *path)
{
    json_t *v;
    if (field(c, obj, key, path, JSON_STRING, true, &v) < 0)
        return -1;
    int s = mk_scenario_side(sc, json_string_value(v));
    if (s < 0)
        return bad(c, path, "unknown side '%.40s' (sides are %s and %s)", json_string_value(v),
                   sc->sides[0].id, sc->sides[1].id);
    return s;
}

/* A unit's rating: [combat, hits] or one integer (HtL 11.6; H&M 0-4). */
static int read_rating(const ctx *c, json_t *u, const char *path, mk_sc_unit *unit)
{
    json_t *r = json_object_get(u, "rating");
    char buf[64];
    if (!r)
        return 0;
    if (json_is_integer(r)) {
        json_int_t i = json_integer_value(r);
        if (i < 0 || i > MAX_RATING)
            return bad(c, path, "%lld is out of range: must be 0..%d", (long long)i, MAX_RATING);
        unit->nrating = 1;
        unit->rating[0] = (int)i;
        return 0;
    }
    if (!json_is_array(r) || json_array_size(r) != 2)
        return bad(c, path, "expected [a, b] or an integer, got %s", show(r, buf, sizeof buf));
    for (int k = 0; k < 2; k++) {
        json_t *e = json_array_get(r, (size_t)k);
        if (!json_is_integer(e) || json_integer_value(e) < 0 ||
            json_integer_value(e) > MAX_RATING)
            return bad(c, path, "%s: each number must be an integer 0..%d",
                       show(r, buf, sizeof buf), MAX_RATING);
        unit->rating[k] = (int)json_integer_value(e);
    }
    unit->nrating = 2;
    return 0;
}

/* One unit (PROTOCOL.md: id, side, kind, mp, hex, name, rating, mp_start). */
static int read_unit(const ctx *c, mk_scenario *sc, json_t *u, int i)
{
    mk_sc_unit *unit = &sc->units[i];
    char path[64], buf[64], gerr[200];
    json_t *v;
    snprintf(path, sizeof path, "units[%d]", i);
    if (!json_is_object(u))
        return bad(c, path, "expected an object, got %s", show(u, buf, sizeof buf));

    snprintf(path, sizeof path, "units[%d].id", i);
    if (get_str(c, u, "id", path, true, true, unit->id, sizeof unit->id) < 0)
        return -1;
    for (int j = 0; j < i; j++)
        if (strcmp(sc->units[j].id, unit->id) == 0)
            return bad(c, path, "'%s' is already units[%d]", unit->id, j);

    snprintf(path, sizeof path, "units[%d].name", i);
    if (get_str(c, u, "name", path, false, false, unit->name, sizeof unit->name) < 0)
        return -1;

    snprintf(path, sizeof path, "units[%d].side", i);
    if ((unit->side = side_ref(c, sc, u, "side", path)) < 0)
        return -1;

    snprintf(path, sizeof path, "units[%d].kind", i);
    if (field(c, u, "kind", path, JSON_STRING, true, &v) < 0)
        return -1;
    unit->kind = mk_ruleset_kind(sc->rs, json_string_value(v));
    if (unit->kind < 0) {
        char known[256];
        return bad(c, path, "unknown kind '%.40s' (known: %s)", json_string_value(v),
                   name_list(sc->rs->kinds, sc->rs->nkinds, known, sizeof known));
    }

    /* A leader or VP counter may leave mp out: it is then 0. */
    snprintf(path, sizeof path, "units[%d].mp", i);
    if (get_int(c, u, "mp", path, false, 0, 0, MAX_MP, &unit->mp) < 0)
        return -1;
    /* mp_start: the most the unit may rally back to; never below mp. */
    snprintf(path, sizeof path, "units[%d].mp_start", i);
    if (get_int(c, u, "mp_start", path, false, unit->mp, 0, MAX_MP, &unit->mp_start) < 0)
        return -1;
    if (unit->mp_start < unit->mp)
        return bad(c, path, "%d is below mp %d", unit->mp_start, unit->mp);

    /* hex: a label, or null for a unit not on the map at set-up. */
    snprintf(path, sizeof path, "units[%d].hex", i);
    v = json_object_get(u, "hex");
    if (!v)
        return bad(c, path, "missing (give null for a unit not on the map)");
    if (json_is_null(v)) {
        unit->hex = MK_NO_HEX;
    } else if (json_is_string(v)) {
        mk_hex h;
        if (mk_hex_parse(&sc->map.grid, json_string_value(v), &h, gerr, sizeof gerr) < 0)
            return bad(c, path, "%s", gerr);
        if (h < 0 || h >= mk_grid_size(&sc->map.grid))
            return bad(c, path, "'%.20s' is off the map", json_string_value(v));
        unit->hex = h;
    } else {
        return bad(c, path, "expected a hex label or null, got %s", show(v, buf, sizeof buf));
    }

    snprintf(path, sizeof path, "units[%d].rating", i);
    return read_rating(c, u, path, unit);
}

/* Checks obj against the common shape and then the ruleset's own checks.
 * Returns a new scenario holding its own reference to obj (free it with
 * mk_scenario_free), or NULL with err->code "scenario_invalid". */
mk_scenario *mk_scenario_from_json(json_t *obj, const char *source,
                                   const struct mk_ruleset *const *rulesets, int nrulesets,
                                   mk_error *err)
{
    ctx cx = {source ? source : "(inline)", err};
    const ctx *c = &cx;
    char buf[64];
    json_t *v;
    if (!json_is_object(obj)) {
        bad(c, "", "expected a scenario object, got %s", show(obj, buf, sizeof buf));
        return NULL;
    }
    mk_scenario *sc = calloc(1, sizeof *sc);
    if (!sc) {
        bad(c, "", "out of memory");
        return NULL;
    }
    snprintf(sc->source, sizeof sc->source, "%s", cx.src);

    /* The ruleset first: terrain and kinds are its names. */
    if (field(c, obj, "ruleset", "ruleset", JSON_STRING, true, &v) < 0)
        goto fail;
    for (int i = 0; i < nrulesets && rulesets; i++)
        if (rulesets[i] && rulesets[i]->id && strcmp(rulesets[i]->id, json_string_value(v)) == 0)
            sc->rs = rulesets[i];
    if (!sc->rs) {
        char known[256];
        size_t used = 0;
        known[0] = '\0';
        for (int i = 0; i < nrulesets && rulesets && used + 1 < sizeof known; i++) {
            int w = snprintf(known + used, sizeof known - used, "%s%s", used ? ", " : "",
                             rulesets[i] && rulesets[i]->id ? rulesets[i]->id : "?");
            if (w < 0)
                break;
            used += (size_t)w;
        }
        bad(c, "ruleset", "unknown ruleset '%.40s' (known: %s)", json_string_value(v), known);
        goto fail;
    }
    if (get_str(c, obj, "id", "id", true, true, sc->id, sizeof sc->id) < 0 ||
        get_str(c, obj, "title", "title", true, false, sc->title, sizeof sc->title) < 0)
        goto fail;
    if (read_map(c, obj, sc->rs, &sc->map) < 0 || read_sides(c, obj, sc) < 0)
        goto fail;
    if ((sc->first = side_ref(c, sc, obj, "first", "first")) < 0)
        goto fail;
    if (get_int(c, obj, "turns", "turns", true, 0, 1, MAX_TURNS, &sc->turns) < 0)
        goto fail;

    json_t *units;
    if (field(c, obj, "units", "units", JSON_ARRAY, true, &units) < 0)
        goto fail;
    if (json_array_size(units) > MK_MAX_UNITS) {
        bad(c, "units", "%zu units: at most %d", json_array_size(units), MK_MAX_UNITS);
        goto fail;
    }
    for (size_t i = 0; i < json_array_size(units); i++) {
        if (read_unit(c, sc, json_array_get(units, i), (int)i) < 0)
            goto fail;
        sc->nunits = (int)i + 1;
    }

    sc->json = json_incref(obj);
    if ((sc->rs->check_scenario && sc->rs->check_scenario(sc, err) < 0) ||
        (sc->rs->prepare && sc->rs->prepare(sc, err) < 0)) {
        /* The ruleset names the JSON path; the file name is ours to add. */
        if (err) {
            err->code = "scenario_invalid";
            size_t sl = strlen(cx.src);
            if (!(strncmp(err->msg, cx.src, sl) == 0 && err->msg[sl] == ':'))
                mk_error_prefix(err, "%s: ", cx.src);
        }
        goto fail;
    }
    return sc;
fail:
    mk_scenario_free(sc);
    return NULL;
}

/* Parses len bytes of JSON text (duplicate keys refused) and checks it as
 * a scenario. A syntax error is reported as "source:line:column: text".
 * Returns a new scenario or NULL with err->code "scenario_invalid". */
mk_scenario *mk_scenario_parse(const char *text, size_t len, const char *source,
                               const struct mk_ruleset *const *rulesets, int nrulesets,
                               mk_error *err)
{
    const char *src = source ? source : "(inline)";
    json_error_t je;
    if (!text) {
        mk_error_set(err, "scenario_invalid", "%s: no text", src);
        return NULL;
    }
    json_t *obj = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    if (!obj) {
        mk_error_set(err, "scenario_invalid", "%s:%d:%d: %s", src, je.line, je.column, je.text);
        return NULL;
    }
    mk_scenario *sc = mk_scenario_from_json(obj, src, rulesets, nrulesets, err);
    json_decref(obj);
    return sc;
}

/* Reads the file at path and parses it as a scenario named by its path.
 * Returns a new scenario, or NULL with err->code "scenario_invalid" (also
 * when the file cannot be read: "cannot open 'x': reason"). */
mk_scenario *mk_scenario_load_file(const char *path, const struct mk_ruleset *const *rulesets,
                                   int nrulesets, mk_error *err)
{
    if (!path) {
        mk_error_set(err, "scenario_invalid", "no scenario file named");
        return NULL;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        mk_error_set(err, "scenario_invalid", "cannot open '%s': %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 4096, n = 0;
    char *text = malloc(cap);
    while (text) {
        if (n == cap) {
            if (cap >= MAX_FILE_BYTES) {
                free(text);
                fclose(f);
                mk_error_set(err, "scenario_invalid", "%s: more than %d bytes: not a scenario",
                             path, MAX_FILE_BYTES);
                return NULL;
            }
            char *t = realloc(text, cap * 2);
            if (!t) {
                free(text);
                text = NULL;
                break;
            }
            text = t;
            cap *= 2;
        }
        size_t got = fread(text + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    int rerr = ferror(f);
    fclose(f);
    if (!text) {
        mk_error_set(err, "scenario_invalid", "%s: out of memory", path);
        return NULL;
    }
    if (rerr) {
        free(text);
        mk_error_set(err, "scenario_invalid", "cannot read '%s'", path);
        return NULL;
    }
    mk_scenario *sc = mk_scenario_parse(text, n, path, rulesets, nrulesets, err);
    free(text);
    return sc;
}

/* Drops the scenario's reference to its JSON and frees it (NULL is fine). */
void mk_scenario_free(mk_scenario *sc)
{
    if (!sc)
        return;
    if (sc->ext && sc->rs && sc->rs->release)
        sc->rs->release(sc);
    json_decref(sc->json);
    free(sc);
}

/* The unit index with that id, or -1. */
int mk_scenario_unit(const mk_scenario *sc, const char *id)
{
    if (!sc || !id)
        return -1;
    for (int i = 0; i < sc->nunits; i++)
        if (strcmp(sc->units[i].id, id) == 0)
            return i;
    return -1;
}

/* The side index with that id, or -1. */
int mk_scenario_side(const mk_scenario *sc, const char *id)
{
    if (!sc || !id)
        return -1;
    for (int i = 0; i < sc->nsides; i++)
        if (strcmp(sc->sides[i].id, id) == 0)
            return i;
    return -1;
}

/* The scenario's units[i] object (borrowed), or NULL. */
json_t *mk_scenario_unit_json(const mk_scenario *sc, int i)
{
    if (!sc || !sc->json || i < 0 || i >= sc->nunits)
        return NULL;
    return json_array_get(json_object_get(sc->json, "units"), (size_t)i);
}
