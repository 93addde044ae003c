/* game.c - one game: state, record, undo, and the JSON views the programs
 * show. Every action is tried on a scratch copy of the state, so a refused
 * action (or a forced die that does not fit) leaves the game untouched. */
#include "game.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mk_options_parse(const mk_ruleset *rs, json_t *obj, uint64_t *mask, mk_error *err)
{
    *mask = 0;
    if (!obj || json_is_null(obj))
        return 0;
    if (!json_is_object(obj))
        return mk_error_set(err, "bad_arg", "options: expected an object of rule ids to true/false");
    const char *key;
    json_t *val;
    json_object_foreach(obj, key, val) {
        int i = mk_ruleset_option(rs, key);
        if (i < 0 || i >= 64) {
            /* a rule split into several switches (htl.11.12): name them */
            char hint[256] = "";
            size_t n = strlen(key), used = 0;
            for (int k = 0; k < rs->noptions && used + 40 < sizeof hint; k++)
                if (strncmp(rs->options[k].id, key, n) == 0 && rs->options[k].id[n] == '.')
                    used += (size_t)snprintf(hint + used, sizeof hint - used, "%s%s",
                                             used ? ", " : " (one of: ", rs->options[k].id);
            if (used)
                snprintf(hint + used, sizeof hint - used, ")");
            return mk_error_set(err, "bad_arg", "options.%s: unknown optional rule for %s%s", key,
                                rs->id, hint);
        }
        if (!json_is_boolean(val))
            return mk_error_set(err, "bad_arg", "options.%s: expected true or false", key);
        if (json_is_true(val))
            *mask |= 1ull << i;
    }
    if (rs->check_options && rs->check_options(*mask, err) != 0)
        return -1;
    return 0;
}

json_t *mk_options_json(const mk_ruleset *rs, uint64_t mask)
{
    json_t *o = json_object();
    for (int i = 0; i < rs->noptions && i < 64; i++)
        if (mask & (1ull << i))
            json_object_set_new(o, rs->options[i].id, json_true());
    return o;
}

mk_game *mk_game_new(mk_scenario *sc, uint64_t options, uint64_t seed, mk_error *err)
{
    if (!sc)
        return NULL;
    const mk_ruleset *rs = sc->rs;
    mk_game *g = calloc(1, sizeof *g);
    if (g) {
        g->st = calloc(1, rs->state_size);
        g->prev = calloc(1, rs->state_size);
        g->scratch = calloc(1, rs->state_size);
        g->log = json_array();
    }
    if (!g || !g->st || !g->prev || !g->scratch || !g->log) {
        mk_error_set(err, "internal", "out of memory");
        if (g)
            g->sc = sc;
        mk_game_free(g);
        if (!g)
            mk_scenario_free(sc);
        return NULL;
    }
    g->rs = rs;
    g->sc = sc;
    g->options = options;
    g->seed = seed;
    mk_events_init(&g->sink, g->events, MK_EVENTS_MAX);
    if (rs->check_options && rs->check_options(options, err) != 0) {
        mk_game_free(g);
        return NULL;
    }
    /* The set-up's events (an opening roll) are the game's first events. */
    if (rs->init(g->st, sc, options, seed, &g->sink, err) != 0) {
        if (err && !err->code)
            mk_error_set(err, "scenario_invalid", "the ruleset could not set up the scenario");
        mk_game_free(g);
        return NULL;
    }
    return g;
}

void mk_game_free(mk_game *g)
{
    if (!g)
        return;
    mk_scenario_free(g->sc);
    free(g->st);
    free(g->prev);
    free(g->scratch);
    json_decref(g->log);
    free(g);
}

/* Applies a on a scratch copy; on success the copy becomes the state, the
 * old state is kept for undo, and the action joins the log. */
int mk_game_act(mk_game *g, const mk_action *a, mk_error *err)
{
    const mk_ruleset *rs = g->rs;
    if (rs->over(g->st))
        return mk_error_set(err, "illegal_action", "the game is over");
    memcpy(g->scratch, g->st, rs->state_size);
    mk_events_init(&g->sink, g->events, MK_EVENTS_MAX);
    mk_error_clear(err);
    uint32_t rolls = mk_state_head_c(g->scratch)->rng.rolls;
    if (rs->apply(g->scratch, g->sc, a, &g->sink, err) != 0) {
        if (err && !err->code)
            mk_error_set(err, "illegal_action", "the action was refused");
        mk_events_init(&g->sink, g->events, MK_EVENTS_MAX);
        return -1;
    }
    mk_head *h = mk_state_head(g->scratch);
    if (h->rng.bad) {
        int v = h->rng.bad_value, faces = h->rng.bad_die;
        mk_events_init(&g->sink, g->events, MK_EVENTS_MAX);
        /* The bad value would refuse every later action: the queue is
         * emptied, and the record says so, so that a replay does the same. */
        mk_rng_clear_forced(&mk_state_head(g->st)->rng);
        json_t *entry = json_object();
        json_object_set_new(entry, "dice_cleared", json_true());
        json_array_append_new(g->log, entry);
        g->can_undo = false;
        return mk_error_set(err, "bad_arg",
                            "forced die value %d is impossible for the die rolled (%s); "
                            "the action was not taken and the forced dice were cleared",
                            v, faces == 10 ? "0-9" : faces == 100 ? "0-99" :
                               faces == 3 ? "1-3" : "1-6");
    }
    /* The record keeps the action as it was listed, before it was applied. */
    json_t *aj = rs->action_json(g->st, g->sc, a);
    if (!aj)
        return mk_error_set(err, "internal", "out of memory");
    json_object_del(aj, "text");
    json_object_del(aj, "cost");
    g->log_at_prev = json_array_size(g->log);
    json_array_append_new(g->log, aj);
    /* Undo is allowed only when the action rolled no dice and revealed
     * nothing (PROTOCOL.md "undo"). */
    g->can_undo = (h->rng.rolls == rolls);
    void *t = g->prev;
    g->prev = g->st;
    g->st = g->scratch;
    g->scratch = t;
    return 0;
}

int mk_game_act_json(mk_game *g, json_t *action, mk_error *err)
{
    mk_action a;
    memset(&a, 0, sizeof a);
    if (!json_is_object(action))
        return mk_error_set(err, "bad_arg", "action: expected an object with \"type\"");
    if (g->rs->action_parse(g->st, g->sc, action, &a, err) != 0) {
        if (err && !err->code)
            err->code = "bad_arg";
        return -1;
    }
    /* Every field must be one the action has as legal lists it: a field
     * the ruleset does not read is refused, not silently dropped. */
    json_t *canon = g->rs->action_json(g->st, g->sc, &a);
    const char *key;
    json_t *val;
    json_object_foreach(action, key, val) {
        if (canon && !json_object_get(canon, key)) {
            mk_error_set(err, "bad_arg", "action.%.40s: unknown field for a '%.40s' action", key,
                         json_string_value(json_object_get(canon, "type")));
            json_decref(canon);
            return -1;
        }
    }
    json_decref(canon);
    return mk_game_act(g, &a, err);
}

int mk_game_force_dice(mk_game *g, const int *values, int n, mk_error *err)
{
    if (g->networked)
        return mk_error_set(err, "bad_arg", "forced dice are refused in a networked game: only the server rolls");
    for (int i = 0; i < n; i++)
        if (values[i] < 0 || values[i] > 99)
            return mk_error_set(err, "bad_arg", "values[%d]: %d is not a face of any die (0-99)", i,
                                values[i]);
    mk_head *h = mk_state_head(g->st);
    if (mk_rng_force(&h->rng, values, n) != 0)
        return mk_error_set(err, "bad_arg", "too many forced dice queued (at most %d)",
                            MK_RNG_FORCED_MAX);
    json_t *vals = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(vals, json_integer(values[i]));
    json_t *entry = json_object();
    json_object_set_new(entry, "dice", vals);
    json_array_append_new(g->log, entry);
    /* The queue changed: taking back the action before it would leave the
     * record out of step with the state. */
    g->can_undo = false;
    return 0;
}

int mk_game_undo(mk_game *g, mk_error *err)
{
    if (!g->can_undo)
        return mk_error_set(err, "not_undoable",
                            json_array_size(g->log) == 0
                                ? "nothing to undo"
                                : "the last action rolled dice or revealed something, or was "
                                  "already undone; it stands");
    void *t = g->st;
    g->st = g->prev;
    g->prev = t;
    while (json_array_size(g->log) > g->log_at_prev)
        json_array_remove(g->log, json_array_size(g->log) - 1);
    g->can_undo = false;
    mk_events_init(&g->sink, g->events, MK_EVENTS_MAX);
    return 0;
}

int mk_game_legal(const mk_game *g, mk_action *out, int cap)
{
    return g->rs->legal(g->st, g->sc, out, cap);
}

bool mk_game_over(const mk_game *g) { return g->rs->over(g->st); }

uint64_t mk_game_hash(const mk_game *g) { return g->rs->hash(g->st, g->sc); }

void mk_hash_hex(uint64_t h, char out[17]) { snprintf(out, 17, "%016" PRIx64, h); }

json_t *mk_game_state_json(const mk_game *g)
{
    json_t *s = g->rs->state_json(g->st, g->sc);
    if (!s)
        return NULL;
    char hex[17];
    mk_hash_hex(mk_game_hash(g), hex);
    json_object_set_new(s, "hash", json_string(hex));
    json_object_set_new(s, "undoable", json_boolean(g->can_undo));
    return s;
}

json_t *mk_game_action_json(const mk_game *g, const mk_action *a)
{
    return g->rs->action_json(g->st, g->sc, a);
}

json_t *mk_game_legal_json(const mk_game *g)
{
    mk_action *acts = malloc(sizeof *acts * MK_MAX_ACTIONS);
    json_t *list = json_array();
    if (!acts || !list) {
        free(acts);
        json_decref(list);
        return NULL;
    }
    int n = mk_game_legal(g, acts, MK_MAX_ACTIONS);
    for (int i = 0; i < n; i++)
        json_array_append_new(list, mk_game_action_json(g, &acts[i]));
    free(acts);
    return list;
}

static void set_unit(json_t *o, const char *key, int u, const mk_scenario *sc)
{
    if (u >= 0 && u < sc->nunits)
        json_object_set_new(o, key, json_string(sc->units[u].id));
}

static void set_hex(json_t *o, const char *key, int h, const mk_scenario *sc)
{
    if (h >= 0 && h < mk_grid_size(&sc->map.grid)) {
        char buf[MK_HEX_LABEL_MAX];
        json_object_set_new(o, key, json_string(mk_hex_label(&sc->map.grid, (mk_hex)h, buf)));
    }
}

static void set_int(json_t *o, const char *key, int v)
{
    if (v != MK_UNSET)
        json_object_set_new(o, key, json_integer(v));
}

/* An EVENT object with only the fields the ruleset set. */
json_t *mk_event_json(const mk_event *e, const mk_scenario *sc)
{
    json_t *o = json_object();
    json_object_set_new(o, "type", json_string(e->type ? e->type : "event"));
    if (e->purpose)
        json_object_set_new(o, "purpose", json_string(e->purpose));
    set_unit(o, "unit", e->unit, sc);
    set_unit(o, "other", e->other, sc);
    set_hex(o, "hex", e->hex, sc);
    set_hex(o, "from", e->from, sc);
    set_hex(o, "to", e->to, sc);
    set_hex(o, "target", e->target, sc);
    if (e->side >= 0 && e->side < sc->nsides)
        json_object_set_new(o, "side", json_string(sc->sides[e->side].id));
    if (e->die > 0)
        json_object_set_new(o, "die", json_integer(e->die));
    if (e->nvalues > 0 || e->die > 0) {
        json_t *v = json_array();
        for (int i = 0; i < e->nvalues; i++)
            json_array_append_new(v, json_integer(e->values[i]));
        json_object_set_new(o, "values", v);
    }
    if (e->nmods > 0 || e->die > 0) {
        json_t *m = json_array();
        for (int i = 0; i < e->nmods; i++) {
            json_t *mo = json_object();
            json_object_set_new(mo, "value", json_integer(e->mods[i].value));
            json_object_set_new(mo, "why", json_string(e->mods[i].why ? e->mods[i].why : ""));
            json_array_append_new(m, mo);
        }
        json_object_set_new(o, "mods", m);
    }
    set_int(o, "value", e->value);
    set_int(o, "need", e->need);
    set_int(o, "hits", e->hits);
    set_int(o, "mp", e->mp);
    set_int(o, "points", e->points);
    if (e->passed >= 0)
        json_object_set_new(o, "passed", json_boolean(e->passed));
    if (e->text)
        json_object_set_new(o, "text", json_string(e->text));
    if (e->rule)
        json_object_set_new(o, "rule", json_string(e->rule));
    return o;
}

json_t *mk_game_events_json(const mk_game *g)
{
    json_t *list = json_array();
    int n = g->sink.n < g->sink.cap ? g->sink.n : g->sink.cap;
    for (int i = 0; i < n; i++)
        json_array_append_new(list, mk_event_json(&g->sink.ev[i], g->sc));
    if (g->sink.dropped > 0) {
        json_t *o = json_object();
        json_object_set_new(o, "type", json_string("truncated"));
        json_object_set_new(o, "dropped", json_integer(g->sink.dropped));
        json_array_append_new(list, o);
    }
    return list;
}

json_t *mk_game_record(const mk_game *g)
{
    json_t *r = json_object();
    char hex[17];
    mk_hash_hex(mk_game_hash(g), hex);
    json_object_set_new(r, "musket_record", json_integer(1));
    json_object_set_new(r, "ruleset", json_string(g->rs->id));
    json_object_set_new(r, "scenario_id", json_string(g->sc->id));
    json_object_set(r, "scenario", g->sc->json);
    json_object_set_new(r, "options", mk_options_json(g->rs, g->options));
    /* Seeds are unsigned 64-bit; JSON integers in jansson are signed, so
     * the record keeps the bit pattern (mk_game_replay reads it back). */
    json_object_set_new(r, "seed", json_integer((json_int_t)g->seed));
    json_object_set_new(r, "actions", json_deep_copy(g->log));
    json_object_set_new(r, "hash", json_string(hex));
    return r;
}

mk_game *mk_game_replay(json_t *record, const mk_ruleset *const *rulesets, int nrulesets,
                        mk_error *err)
{
    if (!json_is_object(record))
        return mk_error_set(err, "bad_arg", "record: expected an object"), NULL;
    json_t *scj = json_object_get(record, "scenario");
    json_t *seedj = json_object_get(record, "seed");
    json_t *acts = json_object_get(record, "actions");
    json_t *hashj = json_object_get(record, "hash");
    if (!json_is_object(scj))
        return mk_error_set(err, "bad_arg", "record.scenario: missing or not an object"), NULL;
    if (seedj && !json_is_integer(seedj))
        return mk_error_set(err, "bad_arg", "record.seed: expected an integer"), NULL;
    if (acts && !json_is_array(acts))
        return mk_error_set(err, "bad_arg", "record.actions: expected a list"), NULL;
    if (hashj && !json_is_string(hashj))
        return mk_error_set(err, "bad_arg", "record.hash: expected a string of 16 hex digits"), NULL;
    mk_scenario *sc = mk_scenario_from_json(scj, "record.scenario", rulesets, nrulesets, err);
    if (!sc)
        return NULL;
    uint64_t opts;
    if (mk_options_parse(sc->rs, json_object_get(record, "options"), &opts, err) != 0) {
        mk_error_prefix(err, "record.");
        mk_scenario_free(sc);
        return NULL;
    }
    uint64_t seed = seedj ? (uint64_t)json_integer_value(seedj) : 0;
    mk_game *g = mk_game_new(sc, opts, seed, err);
    if (!g)
        return NULL;
    size_t i;
    json_t *entry;
    json_array_foreach(acts, i, entry) {
        /* A forced-dice entry has no "type"; an action may have fields of
         * its own named like anything. */
        bool is_action = json_is_object(entry) && json_object_get(entry, "type");
        json_t *dice = json_is_object(entry) && !is_action ? json_object_get(entry, "dice") : NULL;
        int rc;
        if (json_is_object(entry) && json_is_true(json_object_get(entry, "dice_cleared"))) {
            mk_rng_clear_forced(&mk_state_head(g->st)->rng);
            rc = 0;
        } else if (dice) {
            int vals[MK_RNG_FORCED_MAX];
            size_t n = json_array_size(dice), k;
            json_t *v;
            rc = json_is_array(dice) && n <= MK_RNG_FORCED_MAX ? 0 : -1;
            if (rc)
                mk_error_set(err, "bad_arg", "expected a list of at most %d dice", MK_RNG_FORCED_MAX);
            json_array_foreach(dice, k, v) {
                if (rc == 0 && !json_is_integer(v))
                    rc = mk_error_set(err, "bad_arg", "dice[%zu]: expected an integer", k);
                /* Checked before the cast: 4294967302 must not become 6. */
                if (rc == 0 && (json_integer_value(v) < 0 || json_integer_value(v) > 99))
                    rc = mk_error_set(err, "bad_arg", "dice[%zu]: %" JSON_INTEGER_FORMAT
                                      " is not a face of any die (0-99)", k, json_integer_value(v));
                if (rc == 0)
                    vals[k] = (int)json_integer_value(v);
            }
            if (rc == 0)
                rc = mk_game_force_dice(g, vals, (int)n, err);
        } else {
            rc = mk_game_act_json(g, entry, err);
        }
        if (rc != 0) {
            mk_error_prefix(err, "record.actions[%zu]: ", i);
            mk_game_free(g);
            return NULL;
        }
    }
    if (hashj) {
        char hex[17];
        mk_hash_hex(mk_game_hash(g), hex);
        if (strcmp(hex, json_string_value(hashj)) != 0) {
            mk_error_set(err, "replay_mismatch",
                         "record.hash: the replay ends at hash %s, the record says %s", hex,
                         json_string_value(hashj));
            mk_game_free(g);
            return NULL;
        }
    }
    return g;
}
