/* protocol.c - the engine protocol's commands (PROTOCOL.md), each a small
 * function from request to response. */
#include "protocol.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "catalog.h"

void mk_session_init(mk_session *s, const mk_ruleset *const *rulesets, int nrulesets,
                     mk_ai_choose_fn ai)
{
    memset(s, 0, sizeof *s);
    s->rulesets = rulesets;
    s->nrulesets = nrulesets;
    s->ai = ai;
}

void mk_session_free(mk_session *s)
{
    mk_game_free(s->game);
    s->game = NULL;
}

static json_t *fail(const mk_error *err)
{
    json_t *r = json_object();
    json_object_set_new(r, "ok", json_false());
    json_object_set_new(r, "error",
                        json_pack("{s:s, s:s}", "code", err->code ? err->code : "internal",
                                  "message", err->msg));
    return r;
}

static json_t *failf(const char *code, const char *msg)
{
    mk_error e;
    mk_error_set(&e, code, "%s", msg);
    return fail(&e);
}

static json_t *ok(void)
{
    json_t *r = json_object();
    json_object_set_new(r, "ok", json_true());
    return r;
}

static json_t *cmd_hello(mk_session *s, json_t *req)
{
    json_t *r = ok(), *ids = json_array();
    for (int i = 0; i < s->nrulesets; i++)
        json_array_append_new(ids, json_string(s->rulesets[i]->id));
    json_object_set_new(r, "engine", json_string("musket"));
    json_object_set_new(r, "version", json_string(MUSKET_VERSION));
    json_object_set_new(r, "protocol", json_integer(MK_PROTOCOL_VERSION));
    json_object_set_new(r, "rulesets", ids);
    return r;
}

static json_t *cmd_scenarios(mk_session *s, json_t *req)
{
    mk_error err;
    mk_catalog_entry *all = malloc(sizeof *all * MK_CATALOG_MAX);
    if (!all)
        return failf("internal", "out of memory");
    int n = mk_catalog_list(all, MK_CATALOG_MAX, &err);
    if (n < 0) {
        free(all);
        return fail(&err);
    }
    json_t *list = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(list, json_pack("{s:s, s:s, s:s}", "id", all[i].id, "ruleset",
                                              all[i].ruleset, "title", all[i].title));
    free(all);
    json_t *r = ok();
    json_object_set_new(r, "scenarios", list);
    return r;
}

/* A seed when the request gives none: different on every run. */
static uint64_t fresh_seed(void)
{
    uint64_t x = 0;
    FILE *f = fopen("/dev/urandom", "rb");
    if (f) {
        if (fread(&x, sizeof x, 1, f) != 1)
            x = 0;
        fclose(f);
    }
    if (x == 0)
        x = (uint64_t)time(NULL) * 0x9e3779b97f4a7c15ull;
    return x >> 11;   /* keep it a plain positive JSON integer */
}

static json_t *state_answer(mk_session *s)
{
    json_t *r = ok();
    json_object_set_new(r, "state", mk_game_state_json(s->game));
    return r;
}

static json_t *cmd_new(mk_session *s, json_t *req)
{
    mk_error err;
    mk_error_clear(&err);
    json_t *scj = json_object_get(req, "scenario");
    json_t *seedj = json_object_get(req, "seed");
    if (!scj)
        return failf("bad_arg", "new: \"scenario\" is required (a built-in id or a scenario object)");
    if (seedj && !json_is_integer(seedj))
        return failf("bad_arg", "new: \"seed\" must be an integer");
    mk_scenario *sc;
    if (json_is_string(scj))
        sc = mk_catalog_load(json_string_value(scj), s->rulesets, s->nrulesets, &err);
    else if (json_is_object(scj))
        sc = mk_scenario_from_json(scj, "scenario", s->rulesets, s->nrulesets, &err);
    else
        return failf("bad_arg", "new: \"scenario\" must be a built-in id or a scenario object");
    if (!sc) {
        if (err.code && strcmp(err.code, "internal") != 0 && strcmp(err.code, "bad_arg") != 0)
            err.code = "scenario_invalid";
        return fail(&err);
    }
    uint64_t opts;
    if (mk_options_parse(sc->rs, json_object_get(req, "options"), &opts, &err) != 0) {
        mk_scenario_free(sc);
        return fail(&err);
    }
    uint64_t seed = seedj ? (uint64_t)json_integer_value(seedj) : fresh_seed();
    mk_game *g = mk_game_new(sc, opts, seed, &err);
    if (!g)
        return fail(&err);
    g->networked = s->networked;
    mk_game_free(s->game);
    s->game = g;
    json_t *r = state_answer(s);
    json_object_set_new(r, "seed", json_integer((json_int_t)seed));
    json_object_set_new(r, "events", mk_game_events_json(g));
    return r;
}

static json_t *cmd_state(mk_session *s, json_t *req) { return state_answer(s); }

static json_t *cmd_legal(mk_session *s, json_t *req)
{
    json_t *r = ok();
    json_object_set_new(r, "actions", mk_game_legal_json(s->game));
    return r;
}

static json_t *cmd_act(mk_session *s, json_t *req)
{
    mk_error err;
    mk_error_clear(&err);
    json_t *a = json_object_get(req, "action");
    if (!json_is_object(a))
        return failf("bad_arg", "act: \"action\" must be an ACTION object as listed by legal");
    if (mk_game_act_json(s->game, a, &err) != 0)
        return fail(&err);
    json_t *r = ok();
    json_object_set_new(r, "events", mk_game_events_json(s->game));
    json_object_set_new(r, "state", mk_game_state_json(s->game));
    return r;
}

static json_t *cmd_dice(mk_session *s, json_t *req)
{
    mk_error err;
    json_t *v = json_object_get(req, "values");
    if (s->networked)
        return failf("bad_arg", "dice: forced dice are refused in a networked game: only the server rolls");
    if (!json_is_array(v) || json_array_size(v) == 0)
        return failf("bad_arg", "dice: \"values\" must be a non-empty list of integers");
    if (json_array_size(v) > MK_RNG_FORCED_MAX)
        return failf("bad_arg", "dice: at most 64 values at a time");
    int vals[MK_RNG_FORCED_MAX];
    size_t i;
    json_t *x;
    json_array_foreach(v, i, x) {
        if (!json_is_integer(x) || json_integer_value(x) < 0 || json_integer_value(x) > 99) {
            mk_error_set(&err, "bad_arg", "dice: values[%zu] must be an integer face, 0-99", i);
            return fail(&err);
        }
        vals[i] = (int)json_integer_value(x);
    }
    if (mk_game_force_dice(s->game, vals, (int)i, &err) != 0)
        return fail(&err);
    json_t *r = ok();
    json_object_set_new(r, "queued", json_integer(mk_rng_forced_left(&mk_state_head(s->game->st)->rng)));
    return r;
}

static json_t *cmd_undo(mk_session *s, json_t *req)
{
    mk_error err;
    if (mk_game_undo(s->game, &err) != 0)
        return fail(&err);
    return state_answer(s);
}

static json_t *cmd_ai(mk_session *s, json_t *req)
{
    mk_error err;
    mk_error_clear(&err);
    if (!s->ai)
        return failf("bad_arg", "ai: no AI engine in this build");
    if (mk_game_over(s->game))
        return failf("illegal_action", "ai: the game is over");
    mk_action a;
    if (s->ai(s->game, req, &a, &err) != 0)
        return fail(&err);
    json_t *r = ok();
    json_object_set_new(r, "action", mk_game_action_json(s->game, &a));
    return r;
}

static json_t *cmd_record(mk_session *s, json_t *req)
{
    json_t *r = ok();
    json_object_set_new(r, "record", mk_game_record(s->game));
    return r;
}

static json_t *cmd_replay(mk_session *s, json_t *req)
{
    mk_error err;
    mk_error_clear(&err);
    json_t *rec = json_object_get(req, "record");
    if (!json_is_object(rec))
        return failf("bad_arg", "replay: \"record\" must be a record object (see the record command)");
    mk_game *g = mk_game_replay(rec, s->rulesets, s->nrulesets, &err);
    if (!g)
        return fail(&err);
    g->networked = s->networked;
    mk_game_free(s->game);
    s->game = g;
    return state_answer(s);
}

static json_t *cmd_quit(mk_session *s, json_t *req)
{
    s->quit = true;
    return ok();
}

typedef struct command {
    const char *name;
    bool needs_game;
    json_t *(*run)(mk_session *s, json_t *req);
    const char *args;   /* the fields it reads besides "cmd" and "id", space-separated */
} command;

static const command commands[] = {
    {"hello", false, cmd_hello, ""},
    {"scenarios", false, cmd_scenarios, ""},
    {"new", false, cmd_new, "scenario options seed"},
    {"state", true, cmd_state, ""},
    {"legal", true, cmd_legal, ""},
    {"act", true, cmd_act, "action"},
    {"dice", true, cmd_dice, "values"},
    {"undo", true, cmd_undo, ""},
    {"ai", true, cmd_ai, "engine difficulty budget_ms iterations seed threads rollout_k"},
    {"record", true, cmd_record, ""},
    {"replay", false, cmd_replay, "record"},
    {"quit", false, cmd_quit, ""},
};

/* The first field of req that c does not read, or NULL: a misspelt
 * argument is refused rather than silently ignored. */
static const char *unknown_field(const command *c, json_t *req)
{
    const char *key;
    json_t *v;
    json_object_foreach(req, key, v) {
        if (!strcmp(key, "cmd") || !strcmp(key, "id"))
            continue;
        size_t n = strlen(key);
        bool known = false;
        for (const char *p = c->args; *p && !known;) {
            size_t w = strcspn(p, " ");
            known = w == n && strncmp(p, key, n) == 0;
            p += w;
            p += strspn(p, " ");
        }
        if (!known)
            return key;
    }
    return NULL;
}

json_t *mk_session_request(mk_session *s, json_t *req)
{
    json_t *r;
    json_t *id = json_is_object(req) ? json_object_get(req, "id") : NULL;
    json_t *cmd = json_is_object(req) ? json_object_get(req, "cmd") : NULL;
    if (!json_is_object(req)) {
        r = failf("bad_json", "a request must be a JSON object with \"cmd\"");
    } else if (!json_is_string(cmd)) {
        r = failf("bad_arg", "a request needs \"cmd\": a string such as \"hello\"");
    } else {
        const command *c = NULL;
        for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
            if (strcmp(commands[i].name, json_string_value(cmd)) == 0)
                c = &commands[i];
        if (!c) {
            char msg[200];
            snprintf(msg, sizeof msg,
                     "unknown command '%.60s' (known: hello, scenarios, new, state, legal, act, "
                     "dice, undo, ai, record, replay, quit)",
                     json_string_value(cmd));
            r = failf("unknown_cmd", msg);
        } else if (unknown_field(c, req)) {
            char msg[200];
            snprintf(msg, sizeof msg, "%s: unknown field '%.60s'%s%s", c->name,
                     unknown_field(c, req), c->args[0] ? " (known: " : " (it takes none)",
                     c->args[0] ? c->args : "");
            if (c->args[0])
                strncat(msg, ")", sizeof msg - strlen(msg) - 1);
            r = failf("bad_arg", msg);
        } else if (c->needs_game && !s->game) {
            r = failf("no_game", "no game yet: start one with {\"cmd\": \"new\", \"scenario\": ...}");
        } else {
            r = c->run(s, req);
        }
    }
    if (!r)
        r = failf("internal", "out of memory");
    if (id)
        json_object_set(r, "id", id);
    return r;
}

char *mk_session_line(mk_session *s, const char *line, size_t len)
{
    json_t *r;
    if (len > MK_LINE_MAX) {
        char msg[120];
        snprintf(msg, sizeof msg, "request line of %zu bytes is longer than the limit of %d bytes",
                 len, MK_LINE_MAX);
        r = failf("bad_json", msg);
    } else {
        json_error_t je;
        json_t *req = json_loadb(line, len, JSON_REJECT_DUPLICATES, &je);
        if (!req) {
            char msg[300];
            snprintf(msg, sizeof msg, "not JSON at column %d: %s", je.column, je.text);
            r = failf("bad_json", msg);
        } else {
            r = mk_session_request(s, req);
            json_decref(req);
        }
    }
    char *text = json_dumps(r, JSON_COMPACT | JSON_ENSURE_ASCII);
    json_decref(r);
    return text;
}
