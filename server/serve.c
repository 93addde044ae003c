/* serve.c - `musket serve`: the command line, the HTTP side on
 * libmicrohttpd (the JSON API under /api/, live updates as Server-Sent
 * Events, the web page's files) and start-up (the database, the games to
 * bring back). The API's objects are the engine protocol's (PROTOCOL.md):
 * every game is a networked protocol session. docs/web.md lists the routes. */
#define _POSIX_C_SOURCE 200809L
#include "serve.h"

#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "core/catalog.h"
#include "rules/rules.h"
#include "server_int.h"

static void serve_usage(FILE *out)
{
    fputs("usage: musket serve [--port N] [--bind ADDR] [--db PATH] [--web DIR]\n"
          "                    [--ai-delay MS] [--keep-finished S] [--keep-idle S]\n"
          "\n"
          "Serves the web page and the JSON API (docs/web.md) over HTTP, with the games\n"
          "kept in an SQLite database. Open http://ADDR:PORT/ in a browser. Games that\n"
          "were not finished are brought back when the server starts; finished and idle\n"
          "games leave memory (not the database) and come back when asked for. Stop it\n"
          "with Ctrl-C (SIGINT) or SIGTERM.\n"
          "\n"
          "options:\n"
          "  --port N       TCP port (default 8080)\n"
          "  --bind ADDR    address to listen on (default 127.0.0.1, this machine only;\n"
          "                 0.0.0.0 or :: to let other machines in)\n"
          "  --db PATH      the database file (default $XDG_DATA_HOME/musket/musket.db,\n"
          "                 or ~/.local/share/musket/musket.db); its folder is created\n"
          "  --web DIR      the page's files (default: the data folder's web/)\n"
          "  --ai-delay MS  pause before each computer move, so people can follow\n"
          "                 (default 300; 0 for tests)\n"
          "  --keep-finished S  seconds a finished game stays in memory after its last\n"
          "                 request or watcher (default 60)\n"
          "  --keep-idle S  seconds any game stays in memory with no request, watcher\n"
          "                 or computer move (default 3600)\n"
          "  --help         print this text\n",
          out);
}

/* ---- replies ------------------------------------------------------------ */

static int status_of(const char *code)
{
    static const struct {
        const char *code;
        int status;
    } map[] = {
        {"bad_json", 400},       {"bad_arg", 400},        {"unknown_cmd", 400},
        {"scenario_invalid", 400}, {"replay_mismatch", 422}, {"no_game", 404},
        {"not_found", 404},      {"unauthorized", 401},   {"forbidden", 403},
        {"not_your_turn", 403},  {"dice_refused", 403},   {"record_hidden", 403},
        {"illegal_action", 409}, {"not_undoable", 409},   {"method", 405},
        {"too_large", 413},      {"internal", 500},
    };
    for (size_t i = 0; code && i < sizeof map / sizeof map[0]; i++)
        if (strcmp(map[i].code, code) == 0)
            return map[i].status;
    return code ? 400 : 200;
}

static void common_headers(struct MHD_Response *r)
{
    MHD_add_response_header(r, "Cache-Control", "no-store");
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(r, "Referrer-Policy", "no-referrer");
}

/* Sends a JSON answer (consumed); the status follows its error code. */
static enum MHD_Result reply(struct MHD_Connection *c, json_t *ans, int status)
{
    if (!status) {
        json_t *e = json_object_get(ans, "error");
        status = json_is_true(json_object_get(ans, "ok"))
                     ? 200
                     : status_of(json_string_value(json_object_get(e, "code")));
    }
    char *text = json_dumps(ans, JSON_COMPACT);
    json_decref(ans);
    if (!text)
        return MHD_NO;
    size_t n = strlen(text);
    text[n] = 0;
    char *body = realloc(text, n + 2);
    if (body) {
        body[n] = '\n';
        body[n + 1] = 0;
        n++;
    } else {
        body = text;
    }
    struct MHD_Response *r = MHD_create_response_from_buffer(n, body, MHD_RESPMEM_MUST_FREE);
    MHD_add_response_header(r, "Content-Type", "application/json");
    common_headers(r);
    enum MHD_Result ret = MHD_queue_response(c, (unsigned)status, r);
    MHD_destroy_response(r);
    return ret;
}

static json_t *err_json(const char *code, const char *fmt, ...) MK_PRINTF(2, 3);
static json_t *err_json(const char *code, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return json_pack("{s:b, s:{s:s, s:s}}", "ok", 0, "error", "code", code, "message", msg);
}

static enum MHD_Result fail(struct MHD_Connection *c, const char *code, const char *msg)
{
    return reply(c, err_json(code, "%s", msg), 0);
}

/* ---- the page's files ----------------------------------------------------- */

static const char *mime_of(const char *path)
{
    const char *dot = strrchr(path, '.');
    if (!dot)
        return "application/octet-stream";
    if (!strcmp(dot, ".html"))
        return "text/html; charset=utf-8";
    if (!strcmp(dot, ".js") || !strcmp(dot, ".mjs"))
        return "text/javascript; charset=utf-8";
    if (!strcmp(dot, ".css"))
        return "text/css; charset=utf-8";
    if (!strcmp(dot, ".svg"))
        return "image/svg+xml";
    if (!strcmp(dot, ".png"))
        return "image/png";
    if (!strcmp(dot, ".json"))
        return "application/json";
    if (!strcmp(dot, ".ico"))
        return "image/x-icon";
    return "application/octet-stream";
}

/* Serves a file under the web folder. Only plain names (letters, digits,
 * '-', '_', '.', '/', no "..") are looked up, so nothing outside it is
 * reachable. */
static enum MHD_Result serve_file(sv_server *s, struct MHD_Connection *c, const char *url)
{
    const char *rel = strcmp(url, "/") == 0 ? "index.html" : url + 1;
    bool ok = strlen(rel) < 200 && !strstr(rel, "..") && rel[0] != '/';
    for (const char *p = rel; ok && *p; p++)
        ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
             *p == '-' || *p == '_' || *p == '.' || *p == '/';
    char path[800];
    snprintf(path, sizeof path, "%s/%s", s->web_dir, rel);
    FILE *f = ok ? fopen(path, "rb") : NULL;
    struct stat sb;
    if (!f || fstat(fileno(f), &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_size > (16 << 20)) {
        if (f)
            fclose(f);
        return fail(c, "not_found", "no such page or API route");
    }
    char *buf = malloc((size_t)sb.st_size + 1);
    size_t n = buf ? fread(buf, 1, (size_t)sb.st_size, f) : 0;
    fclose(f);
    if (!buf)
        return MHD_NO;
    struct MHD_Response *r = MHD_create_response_from_buffer(n, buf, MHD_RESPMEM_MUST_FREE);
    MHD_add_response_header(r, "Content-Type", mime_of(rel));
    common_headers(r);
    MHD_add_response_header(r, "Content-Security-Policy",
                            "default-src 'self'; img-src 'self' data:; style-src 'self' "
                            "'unsafe-inline'; frame-ancestors 'none'");
    enum MHD_Result ret = MHD_queue_response(c, MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    return ret;
}

/* ---- live updates (Server-Sent Events) ------------------------------------ */

typedef struct sse_stream {
    sv_server *s;
    sv_game *g;
    uint64_t sent;       /* the last update sent */
    char *pending;       /* text not yet handed to MHD */
    size_t len, off;
} sse_stream;

/* Content reader for /events: hands MHD the next update, waiting for one
 * (at most keepalive_ms, 15 s by default, then a comment line keeps the
 * connection alive and finds a closed one). The connection has its own
 * thread, so waiting here blocks no one else. */
static ssize_t sse_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    sse_stream *st = cls;
    sv_game *g = st->g;
    if (st->off >= st->len) {
        free(st->pending);
        st->pending = NULL;
        st->len = st->off = 0;
        pthread_mutex_lock(&g->lock);
        long long wake = sv_now_ms() + st->s->keepalive_ms;
        struct timespec until = {(time_t)(wake / 1000), (long)(wake % 1000) * 1000000};
        for (;;) {
            if (st->s->stopping) {
                pthread_mutex_unlock(&g->lock);
                return MHD_CONTENT_READER_END_OF_STREAM;
            }
            if (g->seq > st->sent) {
                uint64_t next = st->sent + 1;
                sv_update *u = &g->ring[next % SV_RING];
                if (g->seq - next < SV_RING && u->seq == next && u->text) {
                    st->pending = strdup(u->text);
                    st->sent = next;
                } else {
                    /* Fell too far behind: a fresh snapshot instead. */
                    json_t *up = json_pack("{s:s, s:I, s:o}", "kind", "snapshot", "seq",
                                           (json_int_t)g->seq, "state",
                                           mk_game_state_json(g->sess.game));
                    char *d = json_dumps(up, JSON_COMPACT);
                    json_decref(up);
                    size_t n = d ? strlen(d) + 64 : 0;
                    st->pending = d ? malloc(n) : NULL;
                    if (st->pending)
                        snprintf(st->pending, n, "id: %llu\nevent: update\ndata: %s\n\n",
                                 (unsigned long long)g->seq, d);
                    free(d);
                    st->sent = g->seq;
                }
                break;
            }
            if (pthread_cond_timedwait(&g->changed, &g->lock, &until) == ETIMEDOUT) {
                st->pending = strdup(": keep-alive\n\n");
                break;
            }
        }
        pthread_mutex_unlock(&g->lock);
        if (!st->pending)
            return MHD_CONTENT_READER_END_WITH_ERROR;
        st->len = strlen(st->pending);
    }
    size_t n = st->len - st->off < max ? st->len - st->off : max;
    memcpy(buf, st->pending + st->off, n);
    st->off += n;
    return (ssize_t)n;
}

static void sse_free(void *cls)
{
    sse_stream *st = cls;
    sv_game_put(st->g);   /* the stream held the game in memory */
    free(st->pending);
    free(st);
}

/* Takes over the caller's reference to g: the stream holds it until the
 * connection ends (sse_free). */
static enum MHD_Result serve_events(sv_server *s, struct MHD_Connection *c, sv_game *g,
                                    int seat)
{
    sse_stream *st = calloc(1, sizeof *st);
    if (!st) {
        sv_game_put(g);
        return MHD_NO;
    }
    st->s = s;
    st->g = g;
    /* The first message: the state now (or, after a reconnection with
     * Last-Event-ID, the updates missed, while the ring still holds them). */
    const char *last = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Last-Event-ID");
    pthread_mutex_lock(&g->lock);
    char *end = NULL;
    unsigned long long since = last ? strtoull(last, &end, 10) : 0;
    if (last && end && *end == 0 && since <= g->seq && g->seq - since < SV_RING) {
        st->sent = since;
    } else {
        json_t *up = json_pack("{s:s, s:I, s:s, s:o}", "kind", "snapshot", "seq",
                               (json_int_t)g->seq, "you",
                               seat == SV_SPECTATOR ? "spectator" : g->seats[seat].side, "state",
                               mk_game_state_json(g->sess.game));
        char *d = json_dumps(up, JSON_COMPACT);
        json_decref(up);
        size_t n = d ? strlen(d) + 80 : 0;
        st->pending = d ? malloc(n) : NULL;
        if (st->pending)
            snprintf(st->pending, n, "retry: 2000\nid: %llu\nevent: update\ndata: %s\n\n",
                     (unsigned long long)g->seq, d);
        free(d);
        st->len = st->pending ? strlen(st->pending) : 0;
        st->sent = g->seq;
    }
    pthread_mutex_unlock(&g->lock);
    struct MHD_Response *r =
        MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 4096, sse_read, st, sse_free);
    if (!r) {
        sse_free(st);
        return MHD_NO;
    }
    MHD_add_response_header(r, "Content-Type", "text/event-stream");
    common_headers(r);
    MHD_add_response_header(r, "X-Accel-Buffering", "no");
    enum MHD_Result ret = MHD_queue_response(c, MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    return ret;
}

/* ---- the API --------------------------------------------------------------- */

/* A request's body as read so far. */
typedef struct api_body {
    char *body;
    size_t len;
    bool too_large;
} api_body;

static json_t *scenario_list(sv_server *s)
{
    mk_error err;
    mk_catalog_entry *all = malloc(sizeof *all * MK_CATALOG_MAX);
    int n = all ? mk_catalog_list(all, MK_CATALOG_MAX, &err) : -1;
    if (n < 0) {
        free(all);
        return err_json("internal", "%s", all ? err.msg : "out of memory");
    }
    json_t *list = json_array();
    for (int i = 0; i < n; i++) {
        json_t *o = json_pack("{s:s, s:s, s:s}", "id", all[i].id, "ruleset", all[i].ruleset,
                              "title", all[i].title);
        mk_error e2;
        mk_scenario *sc = mk_catalog_load(all[i].id, s->rulesets, s->nrulesets, &e2);
        if (sc) {
            json_t *sides = json_array();
            for (int k = 0; k < sc->nsides; k++)
                json_array_append_new(sides, json_string(sc->sides[k].id));
            json_object_set_new(o, "sides", sides);
            json_object_set_new(o, "first", json_string(sc->sides[sc->first].id));
            json_object_set_new(o, "turns", json_integer(sc->turns));
            mk_scenario_free(sc);
        } else {
            json_object_set_new(o, "error", json_string(e2.msg));
        }
        json_array_append_new(list, o);
    }
    free(all);
    json_t *rsl = json_array();
    for (int i = 0; i < s->nrulesets; i++) {
        const mk_ruleset *rs = s->rulesets[i];
        json_t *opts = json_array(), *ter = json_array(), *kinds = json_array();
        for (int k = 0; k < rs->noptions; k++)
            json_array_append_new(opts, json_pack("{s:s, s:s}", "id", rs->options[k].id, "title",
                                                  rs->options[k].title));
        for (int k = 0; k < rs->nterrains; k++)
            json_array_append_new(ter, json_string(rs->terrains[k]));
        for (int k = 0; k < rs->nkinds; k++)
            json_array_append_new(kinds, json_string(rs->kinds[k]));
        json_array_append_new(rsl, json_pack("{s:s, s:s, s:o, s:o, s:o}", "id", rs->id, "name",
                                             rs->name, "options", opts, "terrains", ter, "kinds",
                                             kinds));
    }
    json_t *ai = json_pack("[s, s, s]", "random", "greedy", "mcts");
    return json_pack("{s:b, s:o, s:o, s:o}", "ok", 1, "scenarios", list, "rulesets", rsl,
                     "ai_engines", ai);
}

static bool ai_engine_known(const char *e)
{
    return !strcmp(e, "random") || !strcmp(e, "greedy") || !strcmp(e, "mcts");
}

/* Reads one seat's description: "human", or {"ai": ENGINE, "difficulty":
 * ..., "budget_ms": N, "iterations": N, "rollout_k": K}. Returns NULL or an
 * error answer. */
static json_t *parse_seat(json_t *v, const char *side, sv_seat *seat)
{
    snprintf(seat->side, sizeof seat->side, "%s", side);
    if (!v || (json_is_string(v) && strcmp(json_string_value(v), "human") == 0)) {
        seat->kind = SEAT_HUMAN;
        return NULL;
    }
    if (!json_is_object(v))
        return err_json("bad_arg", "seats.%s: \"human\" or {\"ai\": \"random\"|\"greedy\"|\"mcts\", "
                        "\"difficulty\": ...}", side);
    json_t *e = json_object_get(v, "ai");
    if (!json_is_string(e) || !ai_engine_known(json_string_value(e)))
        return err_json("bad_arg", "seats.%s.ai: one of \"random\", \"greedy\", \"mcts\"", side);
    const char *key;
    json_t *x;
    json_object_foreach(v, key, x) {
        if (!strcmp(key, "ai"))
            continue;
        const char *d = json_string_value(x);
        if (!strcmp(key, "difficulty") && d &&
            (!strcmp(d, "easy") || !strcmp(d, "normal") || !strcmp(d, "hard")))
            continue;
        /* Limits: a seat cannot make the server think for long. */
        if (!strcmp(key, "budget_ms") && json_is_integer(x) && json_integer_value(x) > 0 &&
            json_integer_value(x) <= 5000)
            continue;
        if (!strcmp(key, "iterations") && json_is_integer(x) && json_integer_value(x) > 0 &&
            json_integer_value(x) <= 200000)
            continue;
        /* candidates per rollout step (mk_ai_args); each costs an
         * evaluation, so fewer than the protocol's 1024 */
        if (!strcmp(key, "rollout_k") && json_is_integer(x) && json_integer_value(x) > 0 &&
            json_integer_value(x) <= 64)
            continue;
        return err_json("bad_arg", "seats.%s.%.40s: unknown or out of range (difficulty: easy, "
                        "normal or hard; budget_ms: 1-5000; iterations: 1-200000; rollout_k: 1-64)",
                        side, key);
    }
    seat->kind = SEAT_AI;
    seat->ai = json_deep_copy(v);
    return NULL;
}

static json_t *seat_info(const sv_game *g, int i, bool with_token)
{
    const sv_seat *seat = &g->seats[i];
    json_t *o = json_pack("{s:s, s:s}", "side", seat->side, "kind",
                          seat->kind == SEAT_AI ? "ai" : "human");
    if (seat->ai)
        json_object_set(o, "ai", seat->ai);
    if (with_token) {
        char link[128];
        snprintf(link, sizeof link, "/?game=%s&token=%s", g->id, seat->token);
        json_object_set_new(o, "token", json_string(seat->token));
        json_object_set_new(o, "link", json_string(link));
    }
    return o;
}

static json_t *create_game(sv_server *s, const char *body, size_t len)
{
    json_error_t je;
    json_t *req = json_loadb(body, len, JSON_REJECT_DUPLICATES, &je);
    if (!json_is_object(req)) {
        json_decref(req);
        return err_json("bad_json", "the body must be a JSON object (%s at line %d column %d)",
                        req ? "not an object" : je.text, je.line, je.column);
    }
    const char *key;
    json_t *v;
    json_object_foreach(req, key, v) {
        if (strcmp(key, "scenario") && strcmp(key, "options") && strcmp(key, "seed") &&
            strcmp(key, "seats")) {
            /* The message first: key lives in req. */
            json_t *ans = err_json("bad_arg",
                                   "unknown field '%.40s' (known: scenario, options, seed, seats)",
                                   key);
            json_decref(req);
            return ans;
        }
    }
    sv_game *g = sv_game_alloc();
    if (!g) {
        json_decref(req);
        return err_json("internal", "out of memory");
    }
    mk_session_init(&g->sess, s->rulesets, s->nrulesets, NULL);
    g->sess.networked = true;
    json_t *newreq = json_pack("{s:s}", "cmd", "new");
    json_object_foreach(req, key, v)
        if (strcmp(key, "seats"))
            json_object_set(newreq, key, v);
    json_t *ans = mk_session_request(&g->sess, newreq);
    json_decref(newreq);
    if (!json_is_true(json_object_get(ans, "ok"))) {
        json_decref(req);
        sv_game_free(g);
        return ans;
    }
    json_decref(ans);
    mk_game *mg = g->sess.game;
    json_t *seats = json_object_get(req, "seats");
    json_t *bad = NULL;
    if (seats && !json_is_object(seats) && !json_is_array(seats))
        bad = err_json("bad_arg", "seats: an object of side id to seat, or a list in side order");
    if (!bad && json_is_array(seats) && json_array_size(seats) != (size_t)mg->sc->nsides)
        bad = err_json("bad_arg", "seats: %d seats wanted, one per side", mg->sc->nsides);
    if (!bad && json_is_object(seats)) {
        json_object_foreach(seats, key, v)
            if (mk_scenario_side(mg->sc, key) < 0 && !bad)
                bad = err_json("bad_arg", "seats.%.40s: no such side in this scenario", key);
    }
    g->nseats = mg->sc->nsides;
    for (int i = 0; !bad && i < mg->sc->nsides; i++) {
        const char *side = mg->sc->sides[i].id;
        json_t *sv = json_is_array(seats) ? json_array_get(seats, (size_t)i)
                                          : json_object_get(seats, side);
        bad = parse_seat(sv, side, &g->seats[i]);
    }
    if (bad) {
        json_decref(req);
        sv_game_free(g);
        return bad;
    }
    bool tokens_ok = sv_random_hex(g->id, SV_ID_LEN) == 0 &&
                     sv_random_hex(g->spectator, SV_TOKEN_LEN) == 0;
    for (int i = 0; i < g->nseats; i++)
        tokens_ok = tokens_ok && sv_random_hex(g->seats[i].token, SV_TOKEN_LEN) == 0;
    if (!tokens_ok) {
        json_decref(req);
        sv_game_free(g);
        return err_json("internal", "cannot read /dev/urandom");
    }
    snprintf(g->scenario_id, sizeof g->scenario_id, "%s", mg->sc->id);
    g->options = mk_options_json(mg->rs, mg->options);
    g->seed_fixed = json_object_get(req, "seed") != NULL;
    g->created = sv_now_ms();
    json_decref(req);
    json_t *rec = mk_game_record(mg);
    g->record = json_dumps(rec, JSON_COMPACT);
    json_decref(rec);
    char hash[17];
    mk_hash_hex(mk_game_hash(mg), hash);
    if (!g->record || sv_store_create(s, g, g->record, hash) != 0) {
        sv_game_free(g);
        return err_json("internal", "the game could not be stored");
    }
    json_t *out = json_pack("{s:b, s:s, s:[], s:s, s:s, s:o, s:I}", "ok", 1, "game", g->id,
                            "seats", "spectator", g->spectator, "spectator_link", "", "state",
                            mk_game_state_json(mg), "seq", (json_int_t)0);
    char link[128];
    snprintf(link, sizeof link, "/?game=%s&token=%s", g->id, g->spectator);
    json_object_set_new(out, "spectator_link", json_string(link));
    for (int i = 0; i < g->nseats; i++)
        json_array_append_new(json_object_get(out, "seats"), seat_info(g, i, true));
    if (!sv_games_add(s, g)) {
        /* It is stored: a later request loads it. */
        json_decref(out);
        return err_json("internal", "out of memory");
    }
    pthread_mutex_lock(&g->lock);
    sv_ai_kick(s, g);
    pthread_mutex_unlock(&g->lock);
    sv_game_put(g);
    return out;
}

/* Replays a record step by step for the replay viewer: the state at the
 * start and after each action, with that action's events. */
static json_t *replay_steps(sv_server *s, json_t *rec)
{
    if (!json_is_object(rec))
        return err_json("bad_arg", "a record object is needed (see GET /api/games/ID/record)");
    mk_error err;
    mk_error_clear(&err);
    json_t *scj = json_object_get(rec, "scenario"), *acts = json_object_get(rec, "actions");
    json_t *seedj = json_object_get(rec, "seed");
    if (!json_is_object(scj) || !json_is_array(acts) || !json_is_integer(seedj))
        return err_json("bad_arg", "record: \"scenario\" (object), \"seed\" and \"actions\" are needed");
    mk_scenario *sc = mk_scenario_from_json(scj, "record.scenario", s->rulesets, s->nrulesets, &err);
    uint64_t opts = 0;
    if (sc && mk_options_parse(sc->rs, json_object_get(rec, "options"), &opts, &err) != 0) {
        mk_scenario_free(sc);
        sc = NULL;
    }
    mk_game *g = sc ? mk_game_new(sc, opts, (uint64_t)json_integer_value(seedj), &err) : NULL;
    if (!g)
        return err_json(err.code ? err.code : "bad_arg", "%s", err.msg);
    json_t *steps = json_array();
    json_t *first = mk_game_state_json(g);
    size_t i;
    json_t *a;
    json_array_foreach(acts, i, a) {
        /* Forced dice and their clearing, as mk_game_replay reads them. */
        if (json_is_true(json_object_get(a, "dice_cleared"))) {
            mk_rng_clear_forced(&mk_state_head(g->st)->rng);
            continue;
        }
        json_t *d = json_object_get(a, "dice");
        if (d) {
            int vals[MK_RNG_FORCED_MAX];
            size_t n = json_array_size(d);
            int rc = json_is_array(d) && n <= MK_RNG_FORCED_MAX ? 0 : -1;
            for (size_t k = 0; rc == 0 && k < n; k++) {
                json_t *v = json_array_get(d, k);
                if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > 99)
                    rc = -1;
                else
                    vals[k] = (int)json_integer_value(v);
            }
            if (rc != 0)
                mk_error_set(&err, "bad_arg", "dice: a list of at most %d faces, 0-99",
                             MK_RNG_FORCED_MAX);
            else
                rc = mk_game_force_dice(g, vals, (int)n, &err);
            if (rc != 0) {
                json_decref(steps);
                json_decref(first);
                mk_game_free(g);
                return err_json(err.code ? err.code : "bad_arg", "actions[%zu]: %s", i, err.msg);
            }
            continue;
        }
        mk_action pa;
        json_t *shown = NULL;
        if (g->rs->action_parse(g->st, g->sc, a, &pa, &err) == 0) {
            mk_action *all = malloc(sizeof *all * MK_MAX_ACTIONS);
            int n = all ? mk_game_legal(g, all, MK_MAX_ACTIONS) : 0;
            for (int k = 0; k < n && !shown; k++)
                if (mk_action_equal(&all[k], &pa))
                    shown = mk_game_action_json(g, &all[k]);
            free(all);
        }
        if (mk_game_act_json(g, a, &err) != 0) {
            json_decref(shown);
            json_decref(steps);
            json_decref(first);
            mk_game_free(g);
            return err_json(err.code ? err.code : "bad_arg", "actions[%zu]: %s", i, err.msg);
        }
        json_array_append_new(steps, json_pack("{s:o, s:o, s:o}", "action",
                                               shown ? shown : json_deep_copy(a), "events",
                                               mk_game_events_json(g), "state",
                                               mk_game_state_json(g)));
    }
    char hash[17];
    mk_hash_hex(mk_game_hash(g), hash);
    json_t *rh = json_object_get(rec, "hash");
    bool match = !json_is_string(rh) || strcmp(json_string_value(rh), hash) == 0;
    mk_game_free(g);
    return json_pack("{s:b, s:o, s:o, s:s, s:b}", "ok", 1, "start", first, "steps", steps, "hash",
                     hash, "hash_matches", match);
}

static json_t *game_log(sv_server *s, sv_game *g, long long since)
{
    json_t *list = json_array();
    sqlite3_stmt *st = NULL;
    pthread_mutex_lock(&s->db_lock);
    if (sqlite3_prepare_v2(s->db,
                           "SELECT seq, kind, side, action, events, at FROM log WHERE game = ?"
                           " AND seq > ? ORDER BY seq LIMIT 2000",
                           -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, g->id, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(st, 2, since);
        while (sqlite3_step(st) == SQLITE_ROW) {
            json_t *row = json_object();
            json_object_set_new(row, "seq", json_integer(sqlite3_column_int64(st, 0)));
            json_object_set_new(row, "kind", json_string((const char *)sqlite3_column_text(st, 1)));
            const unsigned char *side = sqlite3_column_text(st, 2);
            json_object_set_new(row, "side", side ? json_string((const char *)side) : json_null());
            const unsigned char *act = sqlite3_column_text(st, 3);
            const unsigned char *ev = sqlite3_column_text(st, 4);
            json_object_set_new(row, "action", act ? json_loads((const char *)act, 0, NULL) : json_null());
            json_object_set_new(row, "events", ev ? json_loads((const char *)ev, 0, NULL) : json_array());
            json_object_set_new(row, "at", json_integer(sqlite3_column_int64(st, 5)));
            json_array_append_new(list, row);
        }
    }
    sqlite3_finalize(st);
    pthread_mutex_unlock(&s->db_lock);
    return json_pack("{s:b, s:o}", "ok", 1, "log", list);
}

static const char *token_of(struct MHD_Connection *c)
{
    const char *auth = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Authorization");
    if (auth && strncmp(auth, "Bearer ", 7) == 0)
        return auth + 7;
    return MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "token");
}

static json_t *game_info(sv_game *g, int seat)
{
    mk_game *mg = g->sess.game;
    json_t *seats = json_array();
    for (int i = 0; i < g->nseats; i++)
        json_array_append_new(seats, seat_info(g, i, false));
    json_t *info = json_pack("{s:s, s:s, s:s, s:O, s:b, s:I, s:o, s:b, s:I}", "id", g->id,
                             "scenario", g->scenario_id, "title", mg->sc->title, "options",
                             g->options, "seed_fixed", g->seed_fixed, "created",
                             (json_int_t)g->created, "seats", seats, "over", mk_game_over(mg),
                             "seq", (json_int_t)g->seq);
    return json_pack("{s:b, s:o, s:s, s:O}", "ok", 1, "game", info, "you",
                     seat == SV_SPECTATOR ? "spectator" : g->seats[seat].side, "scenario",
                     mg->sc->json);
}

static json_t *body_json(const api_body *rq, json_t **out)
{
    json_error_t je;
    *out = json_loadb(rq->body ? rq->body : "", rq->len, JSON_REJECT_DUPLICATES, &je);
    if (!json_is_object(*out)) {
        json_decref(*out);
        *out = NULL;
        return err_json("bad_json", "the body must be a JSON object (%s at line %d column %d)",
                        je.text[0] ? je.text : "not an object", je.line, je.column);
    }
    return NULL;
}

static json_t *game_request(sv_server *s, sv_game *g, bool post, const char *what,
                            const char *token, const char *since, const api_body *rq,
                            sv_game **events_game, int *events_seat);

/* /api/games/ID[/what]: the route, the game (held in memory for the
 * request), token checks, then the game's lock. For the live updates
 * (/events), which need the connection, it sets *events_game (handing over
 * its reference to the game) and *events_seat and answers NULL once the
 * token is checked. */
static json_t *game_route(sv_server *s, const char *method, const char *rest, const char *token,
                          const char *since, const api_body *rq,
                          sv_game **events_game, int *events_seat)
{
    char id[SV_ID_LEN + 2] = "";
    const char *slash = strchr(rest, '/');
    size_t idlen = slash ? (size_t)(slash - rest) : strlen(rest);
    const char *what = slash ? slash + 1 : "";
    if (idlen > SV_ID_LEN)
        return err_json("not_found", "no such game");
    memcpy(id, rest, idlen);
    id[idlen] = 0;
    bool get = strcmp(method, "GET") == 0, post = strcmp(method, "POST") == 0;
    static const char *const gets[] = {"", "state", "legal", "record", "events", "log", "replay"};
    static const char *const posts[] = {"act", "undo", "dice"};
    bool known = false, method_ok = false;
    for (size_t i = 0; i < sizeof gets / sizeof gets[0]; i++)
        if (!strcmp(what, gets[i]))
            known = true, method_ok = get;
    for (size_t i = 0; i < sizeof posts / sizeof posts[0]; i++)
        if (!strcmp(what, posts[i]))
            known = true, method_ok = post;
    if (!known)
        return err_json("not_found", "no such route (see docs/web.md)");
    if (!method_ok)
        return err_json("method", "%s", get ? "this route takes POST" : "this route takes GET");
    if (rq->too_large)
        return err_json("too_large", "the body is larger than the limit of %d bytes", SV_BODY_MAX);
    sv_game *g = sv_games_find(s, id);
    if (!g)
        return err_json("not_found", "no such game");
    json_t *ans = game_request(s, g, post, what, token, since, rq, events_game, events_seat);
    if (ans || !events_game || *events_game != g)
        sv_game_put(g);
    return ans;
}

static json_t *game_request(sv_server *s, sv_game *g, bool post, const char *what,
                            const char *token, const char *since, const api_body *rq,
                            sv_game **events_game, int *events_seat)
{
    if (!token || !*token)
        return err_json("unauthorized",
                        "a seat or spectator token is needed (Authorization: Bearer TOKEN, or ?token=)");
    int seat = sv_game_seat_of(g, token);
    if (seat < 0)
        return err_json("forbidden", "this token does not belong to this game");
    if (!strcmp(what, "events")) {
        if (!events_game)
            return err_json("not_found", "live updates need a connection");
        *events_game = g;
        *events_seat = seat;
        return NULL;
    }
    if (post && seat == SV_SPECTATOR)
        return err_json("forbidden", "a spectator token can only watch");
    if (post && g->seats[seat].kind == SEAT_AI)
        return err_json("forbidden", "this seat is played by the computer; its token can only watch");

    json_t *body = NULL, *ans = NULL;
    if (post && strcmp(what, "undo") != 0) {
        ans = body_json(rq, &body);
        if (ans)
            return ans;
    }
    if (!strcmp(what, "log"))
        return game_log(s, g, since ? atoll(since) : 0);
    pthread_mutex_lock(&g->lock);
    mk_game *mg = g->sess.game;
    const char *you = seat == SV_SPECTATOR ? "spectator" : g->seats[seat].side;
    json_t *rec_for_replay = NULL;
    if (!strcmp(what, "")) {
        ans = game_info(g, seat);
    } else if (!strcmp(what, "state")) {
        ans = json_pack("{s:b, s:o, s:I, s:s}", "ok", 1, "state", mk_game_state_json(mg), "seq",
                        (json_int_t)g->seq, "you", you);
    } else if (!strcmp(what, "legal")) {
        if (seat == SV_SPECTATOR) {
            ans = err_json("forbidden", "a spectator has no legal actions");
        } else {
            int tm = mg->rs->to_move(mg->st);
            bool mine = !mk_game_over(mg) && tm == seat;
            ans = json_pack("{s:b, s:o, s:s, s:s, s:I}", "ok", 1, "actions",
                            mine ? mk_game_legal_json(mg) : json_array(), "to_move",
                            mg->sc->sides[tm].id, "you", you, "seq", (json_int_t)g->seq);
        }
    } else if (!strcmp(what, "record") || !strcmp(what, "replay")) {
        /* The record holds the seed, and so every die to come: it is
         * shown only once the game is over. */
        if (!mk_game_over(mg))
            ans = err_json("record_hidden", "the record (with the dice seed) is shown once the game "
                                            "is over");
        else if (!strcmp(what, "record"))
            ans = json_pack("{s:b, s:o}", "ok", 1, "record", mk_game_record(mg));
        else
            rec_for_replay = mk_game_record(mg);
    } else if (!strcmp(what, "act") && json_object_get(body, "action") &&
               json_object_size(body) != 1) {
        ans = err_json("bad_arg", "act: the body is {\"action\": ACTION} and nothing else");
    } else if (!strcmp(what, "act")) {
        json_t *a = json_object_get(body, "action");
        ans = sv_game_act(s, g, seat, a ? a : body, "human");
    } else if (!strcmp(what, "undo")) {
        ans = sv_game_undo(s, g, seat);
    } else if (!strcmp(what, "dice")) {
        /* Through the protocol session, which refuses it (networked). */
        json_t *req = json_pack("{s:s, s:O*}", "cmd", "dice", "values",
                                json_object_get(body, "values"));
        ans = mk_session_request(&g->sess, req);
        json_decref(req);
        json_t *e = json_object_get(ans, "error");
        if (e)
            json_object_set_new(e, "code", json_string("dice_refused"));
    }
    pthread_mutex_unlock(&g->lock);
    json_decref(body);
    if (rec_for_replay) {
        ans = replay_steps(s, rec_for_replay);
        json_decref(rec_for_replay);
    }
    return ans ? ans : err_json("internal", "no answer");
}

/* The API without sockets (server_int.h): every route under /api/ but the
 * live updates. */
static json_t *api_route(sv_server *s, const char *method, const char *url, const char *token,
                         const char *since, const api_body *rq, sv_game **events_game,
                         int *events_seat, int *status)
{
    bool get = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
    bool post = strcmp(method, "POST") == 0;
    *status = 0;
    if (rq->too_large && strncmp(url, "/api/games/", 11) != 0)
        return err_json("too_large", "the body is larger than the limit of %d bytes", SV_BODY_MAX);
    if (!strcmp(url, "/api/scenarios")) {
        if (!get)
            return err_json("method", "this route takes GET");
        return scenario_list(s);
    }
    if (!strcmp(url, "/api/hello")) {
        mk_session tmp;
        mk_session_init(&tmp, s->rulesets, s->nrulesets, NULL);
        json_t *req = json_pack("{s:s}", "cmd", "hello");
        json_t *ans = mk_session_request(&tmp, req);
        json_decref(req);
        mk_session_free(&tmp);
        return ans;
    }
    if (!strcmp(url, "/api/games")) {
        if (!post)
            return err_json("method", "this route takes POST (a game is created with POST)");
        json_t *ans = create_game(s, rq->body ? rq->body : "", rq->len);
        if (json_is_true(json_object_get(ans, "ok")))
            *status = 201;
        return ans;
    }
    if (!strcmp(url, "/api/replay")) {
        if (!post)
            return err_json("method", "this route takes POST");
        json_t *body = NULL, *ans = body_json(rq, &body);
        if (!ans) {
            json_t *rec = json_object_get(body, "record");
            ans = replay_steps(s, rec ? rec : body);
        }
        json_decref(body);
        return ans;
    }
    if (!strncmp(url, "/api/games/", 11))
        return game_route(s, method, url + 11, token, since, rq, events_game, events_seat);
    return err_json("not_found", "no such API route (see docs/web.md)");
}

json_t *sv_api(sv_server *s, const char *method, const char *url, const char *token,
               const char *since, const char *body, size_t len, int *status)
{
    api_body rq = {(char *)body, len, len > SV_BODY_MAX};
    json_t *ans = api_route(s, method, url, token, since, &rq, NULL, NULL, status);
    if (!ans)
        ans = err_json("internal", "no answer");
    if (!*status) {
        json_t *e = json_object_get(ans, "error");
        *status = json_is_true(json_object_get(ans, "ok"))
                      ? 200
                      : status_of(json_string_value(json_object_get(e, "code")));
    }
    return ans;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url,
                              const char *method, const char *version, const char *upload,
                              size_t *upload_size, void **con_cls)
{
    sv_server *s = cls;
    api_body *rq = *con_cls;
    if (!rq) {
        rq = calloc(1, sizeof *rq);
        if (!rq)
            return MHD_NO;
        *con_cls = rq;
        return MHD_YES;
    }
    if (*upload_size) {
        /* Keep at most SV_BODY_MAX bytes; read and drop the rest so that the
         * client still gets its 413 answer. */
        if (!rq->too_large && rq->len + *upload_size <= SV_BODY_MAX) {
            char *more = realloc(rq->body, rq->len + *upload_size + 1);
            if (!more)
                return MHD_NO;
            rq->body = more;
            memcpy(rq->body + rq->len, upload, *upload_size);
            rq->len += *upload_size;
            rq->body[rq->len] = 0;
        } else {
            rq->too_large = true;
            free(rq->body);
            rq->body = NULL;
            rq->len = 0;
        }
        *upload_size = 0;
        return MHD_YES;
    }
    bool get = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
    if (strncmp(url, "/api/", 5) != 0) {
        if (!get)
            return fail(c, "method", "pages are read with GET");
        return serve_file(s, c, url);
    }
    sv_game *events_game = NULL;
    int events_seat = -1, status = 0;
    const char *since = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "since");
    json_t *ans = api_route(s, method, url, token_of(c), since, rq, &events_game, &events_seat,
                            &status);
    if (!ans && events_game)
        return serve_events(s, c, events_game, events_seat);
    return reply(c, ans ? ans : err_json("internal", "no answer"), status);
}

static void completed(void *cls, struct MHD_Connection *c, void **con_cls,
                      enum MHD_RequestTerminationCode toe)
{
    api_body *rq = *con_cls;
    if (rq) {
        free(rq->body);
        free(rq);
    }
    *con_cls = NULL;
}

static void log_mhd(void *cls, const char *fmt, va_list ap)
{
    fputs("musket serve: http: ", stderr);
    vfprintf(stderr, fmt, ap);
}

/* ---- start-up ----------------------------------------------------------- */

/* Creates each missing folder of path's parent (mkdir -p). */
static int make_parent(const char *path)
{
    char buf[PATH_MAX];
    snprintf(buf, sizeof buf, "%s", path);
    char *slash = strrchr(buf, '/');
    if (!slash || slash == buf)
        return 0;
    *slash = 0;
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = 0;
        if (mkdir(buf, 0700) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    return mkdir(buf, 0700) != 0 && errno != EEXIST ? -1 : 0;
}

static void default_db(char *out, size_t n)
{
    const char *xdg = getenv("XDG_DATA_HOME");
    const char *home = getenv("HOME");
    if (xdg && xdg[0] == '/')
        snprintf(out, n, "%s/musket/musket.db", xdg);
    else
        snprintf(out, n, "%s/.local/share/musket/musket.db", home && *home ? home : ".");
}

int sv_server_init(sv_server *s, const char *dbpath, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    s->rulesets = mk_rulesets(&s->nrulesets);
    pthread_mutex_init(&s->games_lock, NULL);
    pthread_mutex_init(&s->db_lock, NULL);
    pthread_mutex_init(&s->ai_lock, NULL);
    pthread_cond_init(&s->ai_cond, NULL);
    pthread_mutex_init(&s->janitor_lock, NULL);
    pthread_cond_init(&s->janitor_cond, NULL);
    s->keep_over_ms = SV_KEEP_OVER_MS;
    s->keep_idle_ms = SV_KEEP_IDLE_MS;
    s->keepalive_ms = 15000;
    snprintf(s->web_dir, sizeof s->web_dir, "%s/web", mk_data_dir());
    return sv_store_open(s, dbpath, err, errlen);
}

void sv_server_free(sv_server *s)
{
    for (int i = 0; i < s->ngames; i++)
        sv_game_free(s->games[i]);
    free(s->games);
    s->games = NULL;
    s->ngames = s->cap = 0;
    sv_store_close(s);
    pthread_mutex_destroy(&s->games_lock);
    pthread_mutex_destroy(&s->db_lock);
    pthread_mutex_destroy(&s->ai_lock);
    pthread_cond_destroy(&s->ai_cond);
    pthread_mutex_destroy(&s->janitor_lock);
    pthread_cond_destroy(&s->janitor_cond);
}

int mk_cli_serve(int argc, char **argv)
{
    long port = 8080;
    const char *bind = "127.0.0.1", *db = NULL, *web = NULL;
    long delay = 300, keep_over = SV_KEEP_OVER_MS / 1000, keep_idle = SV_KEEP_IDLE_MS / 1000;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has = i + 1 < argc;
        char *end;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            serve_usage(stdout);
            return 0;
        } else if (!strcmp(a, "--port") && has) {
            port = strtol(argv[++i], &end, 10);
            if (*end || port < 0 || port > 65535) {
                fprintf(stderr, "musket serve: --port: '%s' is not a port number (0-65535)\n",
                        argv[i]);
                return 2;
            }
        } else if (!strcmp(a, "--bind") && has) {
            bind = argv[++i];
        } else if (!strcmp(a, "--db") && has) {
            db = argv[++i];
        } else if (!strcmp(a, "--web") && has) {
            web = argv[++i];
        } else if (!strcmp(a, "--ai-delay") && has) {
            delay = strtol(argv[++i], &end, 10);
            if (*end || delay < 0 || delay > 60000) {
                fprintf(stderr, "musket serve: --ai-delay: '%s' is not 0-60000 ms\n", argv[i]);
                return 2;
            }
        } else if ((!strcmp(a, "--keep-finished") || !strcmp(a, "--keep-idle")) && has) {
            long v = strtol(argv[++i], &end, 10);
            if (*end || !*argv[i] || v < 0 || v > 30L * 24 * 3600) {
                fprintf(stderr, "musket serve: %s: '%s' is not 0-2592000 seconds\n", a, argv[i]);
                return 2;
            }
            *(!strcmp(a, "--keep-idle") ? &keep_idle : &keep_over) = v;
        } else {
            fprintf(stderr, "musket serve: unknown or incomplete option '%s' (see musket serve --help)\n", a);
            return 2;
        }
    }

    union {
        struct sockaddr_in v4;
        struct sockaddr_in6 v6;
    } addr;
    memset(&addr, 0, sizeof addr);
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION |
                     MHD_USE_ERROR_LOG;
    if (inet_pton(AF_INET, bind, &addr.v4.sin_addr) == 1) {
        addr.v4.sin_family = AF_INET;
        addr.v4.sin_port = htons((uint16_t)port);
    } else if (inet_pton(AF_INET6, bind, &addr.v6.sin6_addr) == 1) {
        addr.v6.sin6_family = AF_INET6;
        addr.v6.sin6_port = htons((uint16_t)port);
        flags |= MHD_USE_IPv6;
    } else {
        fprintf(stderr, "musket serve: --bind: '%s' is not an IPv4 or IPv6 address\n", bind);
        return 2;
    }
    static sv_server srv;
    sv_server *s = &srv;
    memset(s, 0, sizeof *s);
    s->rulesets = mk_rulesets(&s->nrulesets);
    s->ai_delay_ms = (int)delay;
    s->keep_over_ms = keep_over * 1000LL;
    s->keep_idle_ms = keep_idle * 1000LL;
    s->keepalive_ms = 15000;
    if (s->keepalive_ms > s->keep_over_ms / 2)
        s->keepalive_ms = s->keep_over_ms / 2;
    if (s->keepalive_ms > s->keep_idle_ms / 2)
        s->keepalive_ms = s->keep_idle_ms / 2;
    if (s->keepalive_ms < 500)
        s->keepalive_ms = 500;
    pthread_mutex_init(&s->games_lock, NULL);
    pthread_mutex_init(&s->db_lock, NULL);
    pthread_mutex_init(&s->ai_lock, NULL);
    pthread_cond_init(&s->ai_cond, NULL);
    pthread_mutex_init(&s->janitor_lock, NULL);
    pthread_cond_init(&s->janitor_cond, NULL);
    if (web)
        snprintf(s->web_dir, sizeof s->web_dir, "%s", web);
    else
        snprintf(s->web_dir, sizeof s->web_dir, "%s/web", mk_data_dir());

    char dbpath[PATH_MAX], msg[600];
    if (db)
        snprintf(dbpath, sizeof dbpath, "%s", db);
    else
        default_db(dbpath, sizeof dbpath);
    if (make_parent(dbpath) != 0) {
        fprintf(stderr, "musket serve: cannot create the folder of %s: %s\n", dbpath,
                strerror(errno));
        return 1;
    }
    if (sv_store_open(s, dbpath, msg, sizeof msg) != 0) {
        fprintf(stderr, "musket serve: database %s\n", msg);
        return 1;
    }

    /* Signals are taken by sigwait below: block them in every thread. */
    sigset_t sigs;
    sigemptyset(&sigs);
    sigaddset(&sigs, SIGINT);
    sigaddset(&sigs, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &sigs, NULL);
    signal(SIGPIPE, SIG_IGN);

    sv_game **loaded = NULL;
    int n = sv_store_load(s, NULL, &loaded);
    if (n < 0) {
        sv_store_close(s);
        return 1;
    }
    sv_ai_start(s);
    for (int i = 0; i < n; i++) {
        sv_game *g = sv_games_add(s, loaded[i]);
        if (!g)
            continue;
        pthread_mutex_lock(&g->lock);
        sv_ai_kick(s, g);
        pthread_mutex_unlock(&g->lock);
        sv_game_put(g);
    }
    free(loaded);
    sv_janitor_start(s);
    struct MHD_Daemon *d = MHD_start_daemon(
        flags, (uint16_t)port, NULL, NULL, handle, s, MHD_OPTION_EXTERNAL_LOGGER, log_mhd, NULL,
        MHD_OPTION_SOCK_ADDR, &addr, MHD_OPTION_NOTIFY_COMPLETED, completed, s,
        MHD_OPTION_CONNECTION_LIMIT, 512u, MHD_OPTION_PER_IP_CONNECTION_LIMIT, 256u,
        MHD_OPTION_CONNECTION_TIMEOUT, 60u, MHD_OPTION_END);
    if (!d) {
        fprintf(stderr, "musket serve: cannot listen on %s port %ld: %s\n", bind, port,
                strerror(errno));
        sv_janitor_stop(s);
        sv_ai_stop(s);
        sv_store_close(s);
        return 1;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    fprintf(stderr, "musket serve: http://%s:%u/ (database %s, %d unfinished games loaded)\n",
            strchr(bind, ':') ? "[::1]" : bind, info ? info->port : (unsigned)port, dbpath, n);
    fflush(stderr);

    int sig = 0;
    sigwait(&sigs, &sig);
    fprintf(stderr, "musket serve: stopping (signal %d)\n", sig);
    sv_janitor_stop(s);
    sv_ai_stop(s);   /* sets stopping: live streams end at their next wake-up */
    pthread_mutex_lock(&s->games_lock);
    for (int i = 0; i < s->ngames; i++) {
        pthread_mutex_lock(&s->games[i]->lock);
        pthread_cond_broadcast(&s->games[i]->changed);
        pthread_mutex_unlock(&s->games[i]->lock);
    }
    pthread_mutex_unlock(&s->games_lock);
    MHD_stop_daemon(d);
    sv_server_free(s);
    return 0;
}
