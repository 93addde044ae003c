/* game.c - the games the server holds: the table, seats and tokens, one
 * change at a time under the game's own lock (checked, stored, published
 * to live watchers), the AI seats' workers, and the janitor that unloads
 * finished and idle games (they stay in the database). */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ai/ai.h"
#include "server_int.h"

long long sv_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int sv_random_hex(char *buf, int n)
{
    unsigned char raw[64];
    int bytes = (n + 1) / 2;
    if (bytes > (int)sizeof raw)
        return -1;
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    int got = 0;
    while (got < bytes) {
        ssize_t r = read(fd, raw + got, (size_t)(bytes - got));
        if (r <= 0) {
            close(fd);
            return -1;
        }
        got += (int)r;
    }
    close(fd);
    static const char hexd[] = "0123456789abcdef";
    for (int i = 0; i < n; i++)
        buf[i] = hexd[(raw[i / 2] >> ((i & 1) ? 0 : 4)) & 15];
    buf[n] = 0;
    return 0;
}

sv_game *sv_game_alloc(void)
{
    sv_game *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    pthread_mutex_init(&g->lock, NULL);
    pthread_cond_init(&g->changed, NULL);
    g->last_side = -1;
    atomic_init(&g->refs, 0);
    atomic_init(&g->last_used, sv_now_ms());
    return g;
}

void sv_game_free(sv_game *g)
{
    if (!g)
        return;
    mk_session_free(&g->sess);
    for (int i = 0; i < MK_MAX_SIDES; i++)
        json_decref(g->seats[i].ai);
    for (int i = 0; i < SV_RING; i++)
        free(g->ring[i].text);
    json_decref(g->options);
    free(g->record);
    pthread_mutex_destroy(&g->lock);
    pthread_cond_destroy(&g->changed);
    free(g);
}

/* Appends g to the table (games_lock held) with a reference for the
 * caller; false (g untouched) when memory runs out. */
static bool table_append(sv_server *s, sv_game *g)
{
    if (s->ngames == s->cap) {
        int cap = s->cap ? s->cap * 2 : 64;
        sv_game **more = realloc(s->games, sizeof *more * (size_t)cap);
        if (!more)
            return false;
        s->games = more;
        s->cap = cap;
    }
    atomic_fetch_add(&g->refs, 1);
    s->games[s->ngames++] = g;
    return true;
}

sv_game *sv_games_add(sv_server *s, sv_game *g)
{
    pthread_mutex_lock(&s->games_lock);
    bool ok = table_append(s, g);
    pthread_mutex_unlock(&s->games_lock);
    if (!ok) {
        sv_game_free(g);
        return NULL;
    }
    return g;
}

void sv_game_put(sv_game *g)
{
    if (!g)
        return;
    /* last_used first: the janitor, once it sees no holder, sees the time
     * the last one let go. */
    atomic_store(&g->last_used, sv_now_ms());
    atomic_fetch_sub(&g->refs, 1);
}

static bool valid_id(const char *id)
{
    if (strlen(id) != SV_ID_LEN)
        return false;
    for (const char *p = id; *p; p++)
        if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
            return false;
    return true;
}

sv_game *sv_games_find(sv_server *s, const char *id)
{
    if (!valid_id(id))
        return NULL;
    sv_game *found = NULL;
    pthread_mutex_lock(&s->games_lock);
    for (int i = 0; i < s->ngames && !found; i++)
        if (strcmp(s->games[i]->id, id) == 0)
            found = s->games[i];
    if (found) {
        atomic_fetch_add(&found->refs, 1);
    } else {
        /* Not in memory (unloaded, or finished before this server started):
         * the database has it. */
        sv_game **loaded = NULL;
        int n = sv_store_load(s, id, &loaded);
        for (int i = 0; i < n; i++) {
            if (found || !table_append(s, loaded[i])) {
                sv_game_free(loaded[i]);
                continue;
            }
            found = loaded[i];
            fprintf(stderr, "musket serve: game %s loaded from the database (%d in memory)\n",
                    id, s->ngames);
            /* An AI seat to move plays on, as at start-up (lock order:
             * the table, then the game). */
            pthread_mutex_lock(&found->lock);
            sv_ai_kick(s, found);
            pthread_mutex_unlock(&found->lock);
        }
        free(loaded);
    }
    pthread_mutex_unlock(&s->games_lock);
    return found;
}

int sv_games_sweep(sv_server *s, long long now)
{
    int n = 0;
    pthread_mutex_lock(&s->games_lock);
    for (int i = 0; i < s->ngames;) {
        sv_game *g = s->games[i];
        /* No holder: no request, stream or AI job has it, and none can
         * take it while we hold the table (lifetime rule, server_int.h). */
        bool unload = false;
        const char *why = "";
        if (atomic_load(&g->refs) == 0) {
            long long idle = now - atomic_load(&g->last_used);
            pthread_mutex_lock(&g->lock);
            bool over = g->sess.game && mk_game_over(g->sess.game);
            if (!g->ai_busy && over && idle >= s->keep_over_ms)
                unload = true, why = "finished";
            else if (!g->ai_busy && idle >= s->keep_idle_ms)
                unload = true, why = "idle";
            pthread_mutex_unlock(&g->lock);
        }
        if (!unload) {
            i++;
            continue;
        }
        s->games[i] = s->games[--s->ngames];
        fprintf(stderr, "musket serve: game %s unloaded (%s; it stays in the database; %d in "
                "memory)\n", g->id, why, s->ngames);
        sv_game_free(g);
        n++;
    }
    pthread_mutex_unlock(&s->games_lock);
    return n;
}

static void *janitor(void *arg)
{
    sv_server *s = arg;
    long long keep = s->keep_over_ms < s->keep_idle_ms ? s->keep_over_ms : s->keep_idle_ms;
    long long period = keep / 4 < 1000 ? (keep / 4 > 50 ? keep / 4 : 50) : 1000;
    pthread_mutex_lock(&s->janitor_lock);
    while (!s->stopping) {
        long long wake = sv_now_ms() + period;
        struct timespec ts = {(time_t)(wake / 1000), (long)(wake % 1000) * 1000000};
        pthread_cond_timedwait(&s->janitor_cond, &s->janitor_lock, &ts);
        if (s->stopping)
            break;
        pthread_mutex_unlock(&s->janitor_lock);
        sv_games_sweep(s, sv_now_ms());
        pthread_mutex_lock(&s->janitor_lock);
    }
    pthread_mutex_unlock(&s->janitor_lock);
    return NULL;
}

void sv_janitor_start(sv_server *s)
{
    s->janitor_on = pthread_create(&s->janitor, NULL, janitor, s) == 0;
}

void sv_janitor_stop(sv_server *s)
{
    if (!s->janitor_on)
        return;
    pthread_mutex_lock(&s->janitor_lock);
    s->stopping = 1;
    pthread_cond_broadcast(&s->janitor_cond);
    pthread_mutex_unlock(&s->janitor_lock);
    pthread_join(s->janitor, NULL);
    s->janitor_on = false;
}

/* Compares two tokens in time that does not depend on where they differ. */
static bool token_equal(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la != lb || la == 0)
        return false;
    unsigned char d = 0;
    for (size_t i = 0; i < la; i++)
        d |= (unsigned char)(a[i] ^ b[i]);
    return d == 0;
}

int sv_game_seat_of(const sv_game *g, const char *token)
{
    if (!token)
        return -1;
    int found = -1;
    for (int i = 0; i < g->nseats; i++)
        if (token_equal(g->seats[i].token, token))
            found = i;
    if (token_equal(g->spectator, token))
        found = SV_SPECTATOR;
    return found;
}

void sv_game_publish(sv_game *g, json_t *update)
{
    g->seq++;
    json_object_set_new(update, "seq", json_integer((json_int_t)g->seq));
    char *data = json_dumps(update, JSON_COMPACT);
    json_decref(update);
    if (!data)
        return;
    size_t n = strlen(data) + 64;
    char *text = malloc(n);
    if (text)
        snprintf(text, n, "id: %llu\nevent: update\ndata: %s\n\n", (unsigned long long)g->seq,
                 data);
    free(data);
    sv_update *u = &g->ring[g->seq % SV_RING];
    free(u->text);
    u->seq = g->seq;
    u->text = text;
    pthread_cond_broadcast(&g->changed);
}

/* Takes the game back to the record last stored (after the store refused a
 * change): replays it into a fresh session. */
static void restore(sv_server *s, sv_game *g)
{
    json_t *rec = g->record ? json_loads(g->record, 0, NULL) : NULL;
    mk_session fresh;
    mk_session_init(&fresh, s->rulesets, s->nrulesets, NULL);
    fresh.networked = true;
    json_t *req = json_pack("{s:s, s:o*}", "cmd", "replay", "record", rec);
    json_t *ans = mk_session_request(&fresh, req);
    json_decref(req);
    if (json_is_true(json_object_get(ans, "ok"))) {
        mk_session_free(&g->sess);
        g->sess = fresh;
    } else {
        mk_session_free(&fresh);
        g->broken = true;
        fprintf(stderr, "musket serve: game %s: cannot restore; refusing further changes\n", g->id);
    }
    json_decref(ans);
}

static json_t *error_answer(const char *code, const char *msg)
{
    return json_pack("{s:b, s:{s:s, s:s}}", "ok", 0, "error", "code", code, "message", msg);
}

/* Stores the change the session just made and publishes it. kind is "act"
 * or "undo". Returns 0, or -1 after restoring the game as it was. */
static int commit(sv_server *s, sv_game *g, const char *kind, int side, json_t *action,
                  json_t *events, const char *by)
{
    mk_game *mg = g->sess.game;
    json_t *rec = mk_game_record(mg);
    char *rtext = json_dumps(rec, JSON_COMPACT);
    json_decref(rec);
    char hash[17];
    mk_hash_hex(mk_game_hash(mg), hash);
    char *atext = action ? json_dumps(action, JSON_COMPACT) : NULL;
    char *etext = events ? json_dumps(events, JSON_COMPACT) : NULL;
    const char *sidename = side >= 0 ? mg->sc->sides[side].id : NULL;
    int old_last = g->last_side;
    g->last_side = strcmp(kind, "undo") == 0 ? -1 : side;
    int rc = rtext ? sv_store_change(s, g, kind, sidename, atext, etext, rtext, hash,
                                     mk_game_over(mg))
                   : -1;
    free(atext);
    free(etext);
    if (rc != 0) {
        free(rtext);
        g->last_side = old_last;
        restore(s, g);
        return -1;
    }
    free(g->record);
    g->record = rtext;
    json_t *up = json_object();
    json_object_set_new(up, "kind", json_string(kind));
    json_object_set_new(up, "side", sidename ? json_string(sidename) : json_null());
    json_object_set_new(up, "by", json_string(by));
    if (action)
        json_object_set(up, "action", action);
    json_object_set_new(up, "events", events ? json_incref(events) : json_array());
    json_object_set_new(up, "state", mk_game_state_json(mg));
    sv_game_publish(g, up);
    return 0;
}

json_t *sv_game_act(sv_server *s, sv_game *g, int side, json_t *action, const char *by)
{
    mk_game *mg = g->sess.game;
    if (g->broken)
        return error_answer("internal", "this game's storage failed; it is read-only");
    if (mk_game_over(mg))
        return error_answer("illegal_action", "the game is over");
    if (mg->rs->to_move(mg->st) != side)
        return error_answer("not_your_turn", "it is not this seat's decision now (see state.to_move)");
    if (!json_is_object(action))
        return error_answer("bad_arg", "act: \"action\" must be an ACTION object as listed by legal");
    /* The action as legal lists it (its text and cost), for the log. */
    json_t *shown = NULL;
    mk_error err;
    mk_action a;
    mk_error_clear(&err);
    if (mg->rs->action_parse(mg->st, mg->sc, action, &a, &err) == 0) {
        mk_action *all = malloc(sizeof *all * MK_MAX_ACTIONS);
        int n = all ? mk_game_legal(mg, all, MK_MAX_ACTIONS) : 0;
        for (int i = 0; i < n && !shown; i++)
            if (mk_action_equal(&all[i], &a))
                shown = mk_game_action_json(mg, &all[i]);
        free(all);
    }
    json_t *req = json_pack("{s:s, s:O}", "cmd", "act", "action", action);
    json_t *ans = mk_session_request(&g->sess, req);
    json_decref(req);
    if (!json_is_true(json_object_get(ans, "ok"))) {
        json_decref(shown);
        return ans;
    }
    if (!shown)
        shown = json_deep_copy(action);
    if (commit(s, g, "act", side, shown, json_object_get(ans, "events"), by) != 0) {
        json_decref(shown);
        json_decref(ans);
        return error_answer("internal", "the action could not be stored; the game is unchanged");
    }
    json_decref(shown);
    json_object_set_new(ans, "seq", json_integer((json_int_t)g->seq));
    sv_ai_kick(s, g);
    return ans;
}

json_t *sv_game_undo(sv_server *s, sv_game *g, int side)
{
    if (g->broken)
        return error_answer("internal", "this game's storage failed; it is read-only");
    if (g->last_side != side)
        return error_answer("not_undoable",
                            "only the seat that made the last action may take it back");
    json_t *req = json_pack("{s:s}", "cmd", "undo");
    json_t *ans = mk_session_request(&g->sess, req);
    json_decref(req);
    if (!json_is_true(json_object_get(ans, "ok")))
        return ans;
    if (commit(s, g, "undo", side, NULL, NULL, "human") != 0) {
        json_decref(ans);
        return error_answer("internal", "the undo could not be stored; the game is unchanged");
    }
    json_object_set_new(ans, "seq", json_integer((json_int_t)g->seq));
    sv_ai_kick(s, g);
    return ans;
}

/* ---- AI seats ------------------------------------------------------------
 * A queue of games whose side to move is an AI, served by a few worker
 * threads. A job plays one action and queues the game again if the AI is
 * still to move, so that one long AI turn never holds a worker for long and
 * games take turns. The AI thinks on a private copy of the state, without
 * the game's lock, so watchers and the other seat are never blocked. */

typedef struct ai_job {
    sv_game *g;
    long long not_before;   /* ms: the --ai-delay pause */
    struct ai_job *next;
} ai_job;

/* Queues an AI job for g after delay_ms if an AI seat is to move. */
static void ai_queue(sv_server *s, sv_game *g, long long delay_ms)
{
    mk_game *mg = g->sess.game;
    if (g->ai_busy || g->broken || !mg || mk_game_over(mg) || s->stopping)
        return;
    int side = mg->rs->to_move(mg->st);
    if (side < 0 || side >= g->nseats || g->seats[side].kind != SEAT_AI)
        return;
    ai_job *j = calloc(1, sizeof *j);
    if (!j)
        return;
    /* The job holds the game in memory until it has run (our caller holds
     * a reference already, so this one may be taken without the table). */
    atomic_fetch_add(&g->refs, 1);
    g->ai_busy = true;
    j->g = g;
    j->not_before = sv_now_ms() + delay_ms;
    pthread_mutex_lock(&s->ai_lock);
    ai_job **p = &s->jobs;
    while (*p)
        p = &(*p)->next;
    *p = j;
    pthread_cond_signal(&s->ai_cond);
    pthread_mutex_unlock(&s->ai_lock);
}

void sv_ai_kick(sv_server *s, sv_game *g) { ai_queue(s, g, s->ai_delay_ms); }

/* A copy of g that shares its scenario and ruleset (read-only) and owns
 * its states: enough for the AI, which only reads a game. */
static mk_game *ai_copy(const mk_game *g)
{
    mk_game *c = malloc(sizeof *c);
    if (!c)
        return NULL;
    *c = *g;
    size_t n = g->rs->state_size;
    c->st = malloc(n);
    c->prev = malloc(n);
    c->scratch = malloc(n);
    c->log = json_array();
    if (!c->st || !c->prev || !c->scratch) {
        free(c->st), free(c->prev), free(c->scratch), json_decref(c->log), free(c);
        return NULL;
    }
    memcpy(c->st, g->st, n);
    memcpy(c->prev, g->prev, n);
    mk_events_init(&c->sink, c->events, MK_EVENTS_MAX);
    return c;
}

static void ai_copy_free(mk_game *c)
{
    if (!c)
        return;
    free(c->st), free(c->prev), free(c->scratch), json_decref(c->log), free(c);
}

static void ai_step(sv_server *s, sv_game *g)
{
    pthread_mutex_lock(&g->lock);
    mk_game *mg = g->sess.game;
    int side = mg ? mg->rs->to_move(mg->st) : -1;
    if (!mg || mk_game_over(mg) || g->broken || side < 0 || side >= g->nseats ||
        g->seats[side].kind != SEAT_AI) {
        g->ai_busy = false;
        pthread_mutex_unlock(&g->lock);
        return;
    }
    uint64_t hash = mk_game_hash(mg);
    /* The AI's own dice: from the secret seed and the position, so a game
     * replays the same and no one can foresee the AI from outside. */
    uint64_t seed = (mg->seed * 0x9e3779b97f4a7c15ull) ^ hash;
    json_t *args = json_object();
    const char *key;
    json_t *v;
    json_object_foreach(g->seats[side].ai, key, v)
        json_object_set(args, strcmp(key, "ai") == 0 ? "engine" : key, v);
    json_object_set_new(args, "cmd", json_string("ai"));
    json_object_set_new(args, "seed", json_integer((json_int_t)(seed >> 11)));
    mk_game *c = ai_copy(mg);
    pthread_mutex_unlock(&g->lock);

    mk_action a;
    mk_error err;
    mk_error_clear(&err);
    int rc = c ? mk_ai_choose(c, args, &a, &err) : -1;
    if (rc != 0 && c) {
        fprintf(stderr, "musket serve: game %s: AI '%s' refused (%s); playing a random move\n",
                g->id, json_string_value(json_object_get(args, "engine")), err.msg);
        json_object_set_new(args, "engine", json_string("random"));
        json_object_del(args, "difficulty");
        rc = mk_ai_choose(c, args, &a, &err);
    }
    ai_copy_free(c);
    json_decref(args);

    pthread_mutex_lock(&g->lock);
    mg = g->sess.game;
    bool retry = false;
    if (rc == 0 && mk_game_hash(mg) == hash) {
        json_t *action = mk_game_action_json(mg, &a);
        json_t *ans = sv_game_act(s, g, side, action, "ai");
        if (!json_is_true(json_object_get(ans, "ok"))) {
            char *t = json_dumps(ans, JSON_COMPACT);
            fprintf(stderr, "musket serve: game %s: AI action refused: %s\n", g->id, t ? t : "");
            free(t);
            rc = -1;
            /* The store failed (a full disk): the game is as it was; try
             * again in a second rather than leave the AI's seat stuck. */
            const char *code =
                json_string_value(json_object_get(json_object_get(ans, "error"), "code"));
            retry = code && strcmp(code, "internal") == 0 && !g->broken;
        }
        json_decref(ans);
        json_decref(action);
    }
    g->ai_busy = false;
    if (rc == 0)
        sv_ai_kick(s, g);
    else if (retry)
        ai_queue(s, g, 1000);
    pthread_mutex_unlock(&g->lock);
}

static void *ai_worker(void *arg)
{
    sv_server *s = arg;
    pthread_mutex_lock(&s->ai_lock);
    while (!s->stopping) {
        long long now = sv_now_ms(), wake = now + 1000;
        ai_job **p = &s->jobs, *job = NULL;
        for (; *p; p = &(*p)->next) {
            if ((*p)->not_before <= now) {
                job = *p;
                *p = job->next;
                break;
            }
            if ((*p)->not_before < wake)
                wake = (*p)->not_before;
        }
        if (!job) {
            struct timespec ts = {(time_t)(wake / 1000), (long)(wake % 1000) * 1000000};
            pthread_cond_timedwait(&s->ai_cond, &s->ai_lock, &ts);
            continue;
        }
        pthread_mutex_unlock(&s->ai_lock);
        ai_step(s, job->g);
        sv_game_put(job->g);
        free(job);
        pthread_mutex_lock(&s->ai_lock);
    }
    pthread_mutex_unlock(&s->ai_lock);
    return NULL;
}

void sv_ai_start(sv_server *s)
{
    s->nai_threads = 0;
    for (int i = 0; i < (int)(sizeof s->ai_threads / sizeof s->ai_threads[0]); i++)
        if (pthread_create(&s->ai_threads[i], NULL, ai_worker, s) == 0)
            s->nai_threads++;
}

void sv_ai_stop(sv_server *s)
{
    pthread_mutex_lock(&s->ai_lock);
    s->stopping = 1;
    pthread_cond_broadcast(&s->ai_cond);
    pthread_mutex_unlock(&s->ai_lock);
    for (int i = 0; i < s->nai_threads; i++)
        pthread_join(s->ai_threads[i], NULL);
    while (s->jobs) {
        ai_job *j = s->jobs;
        s->jobs = j->next;
        sv_game_put(j->g);
        free(j);
    }
}
