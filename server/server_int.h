/* server_int.h - what the files of server/ share: the games the server
 * holds (sv_game), the SQLite store, and the HTTP side's helpers.
 *
 * Locking (one rule, no cycles): the games table has one mutex (sv_server
 * .games_lock) held only to find or add a game; each game has its own mutex
 * held while it is read or changed; the database has one mutex held only
 * around a statement or a transaction. A thread may take a game's lock and
 * then the database's, or the table's and then the database's; never the
 * other way round, and never two games at once.
 *
 * Lifetime: a game stays in memory while someone holds a reference to it
 * (sv_game.refs: a request between sv_games_find and sv_game_put, a live
 * update stream, a queued AI job). The janitor thread unloads a game that
 * no one holds once it is finished and idle for keep_over_ms, or idle for
 * keep_idle_ms; it stays in the database, and sv_games_find loads it again
 * on demand. A reference is taken only under games_lock or by someone who
 * already holds one, so a game seen with refs == 0 under games_lock has no
 * other user and may be freed. */
#ifndef MK_SERVER_INT_H
#define MK_SERVER_INT_H

#include <jansson.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/protocol.h"

#define SV_TOKEN_LEN 32         /* hex digits of a seat token (128 random bits) */
#define SV_ID_LEN 16            /* hex digits of a game id (64 random bits) */
#define SV_BODY_MAX (64 * 1024) /* the largest request body accepted */
#define SV_RING 64              /* recent updates kept per game for live watchers */

enum { SEAT_HUMAN = 0, SEAT_AI = 1 };

typedef struct sv_seat {
    char side[MK_ID_MAX];
    char token[SV_TOKEN_LEN + 1];
    int kind;          /* SEAT_HUMAN or SEAT_AI */
    json_t *ai;        /* for an AI seat: {"ai": "random", "difficulty": ...} (owned) */
} sv_seat;

/* One update as live watchers receive it: an SSE message's text. */
typedef struct sv_update {
    uint64_t seq;
    char *text;        /* "id: N\nevent: update\ndata: {...}\n\n" (owned) */
} sv_update;

/* A game the server holds. Invariant: sess.game is the game, replayable
 * from the record in the database; seq counts the changes (actions and
 * undos) stored for it, and ring[seq % SV_RING] is the newest update. The
 * fields below `lock` are read and written only with it held; id, seats
 * and the spectator token never change after creation. */
typedef struct sv_game {
    char id[SV_ID_LEN + 1];
    int nseats;
    sv_seat seats[MK_MAX_SIDES];      /* in the scenario's side order */
    char spectator[SV_TOKEN_LEN + 1];
    char scenario_id[MK_ID_MAX * 2];
    json_t *options;                  /* as given at creation (owned) */
    bool seed_fixed;                  /* the creator chose the seed */
    long long created;

    pthread_mutex_t lock;
    pthread_cond_t changed;           /* signalled on every update */
    mk_session sess;                  /* networked: forced dice refused */
    uint64_t seq;
    int last_side;                    /* side index that made the last change, -1 */
    sv_update ring[SV_RING];
    bool ai_busy;                     /* an AI job for this game is queued or running */
    bool broken;                      /* the store failed: refuse changes */
    char *record;                     /* the record last stored (JSON text, owned) */

    atomic_int refs;                  /* holders (see "Lifetime" above) */
    _Atomic long long last_used;      /* ms: when the last holder let go */
} sv_game;

typedef struct sv_server {
    const mk_ruleset *const *rulesets;
    int nrulesets;
    char web_dir[512];
    int ai_delay_ms;                  /* pause before each AI action */
    atomic_int stopping;              /* set once, at shutdown */

    pthread_mutex_t games_lock;
    sv_game **games;
    int ngames, cap;

    pthread_mutex_t db_lock;
    sqlite3 *db;

    /* AI jobs: games whose seat to move is an AI. */
    pthread_mutex_t ai_lock;
    pthread_cond_t ai_cond;
    struct ai_job *jobs;
    pthread_t ai_threads[4];
    int nai_threads;

    /* Unloading (the janitor): finished games idle this long (ms), and any
     * game idle this long, leave memory; they stay in the database. */
    long long keep_over_ms, keep_idle_ms;
    /* A live update stream sends a comment line after this much silence:
     * that is how a closed one is found, and lets go of its game. At most
     * 15 s, and at most half the keep times (a closed watcher does not keep
     * a game in memory much longer than the keep time). */
    long long keepalive_ms;
    pthread_mutex_t janitor_lock;
    pthread_cond_t janitor_cond;
    pthread_t janitor;
    bool janitor_on;
} sv_server;

#define SV_KEEP_OVER_MS (60 * 1000LL)        /* default --keep-finished: 60 s */
#define SV_KEEP_IDLE_MS (60 * 60 * 1000LL)   /* default --keep-idle: 1 hour */

/* store.c: the SQLite database. Every function takes db_lock itself. */
int sv_store_open(sv_server *s, const char *path, char *err, size_t errlen);
void sv_store_close(sv_server *s);
/* Writes a new game, its seats and its first record in one transaction. */
int sv_store_create(sv_server *s, sv_game *g, const char *record, const char *hash);
/* Writes one change (an action or an undo) in one transaction: the log
 * row and the game's record, hash, seq and state. 0 or -1. */
int sv_store_change(sv_server *s, sv_game *g, const char *kind, const char *side,
                    const char *action, const char *events, const char *record,
                    const char *hash, bool over);
/* Loads games from the database (all unfinished ones, or the one with that
 * id) into *out, a new array the caller frees (the games are the caller's).
 * Returns how many, -1 on a database error. Each is rebuilt by replaying
 * its record and its hash checked; a game that fails is reported on stderr
 * and left out. */
int sv_store_load(sv_server *s, const char *only_id, sv_game ***out);

/* game.c: the games. */
sv_game *sv_game_alloc(void);
void sv_game_free(sv_game *g);
/* Adds g to the table (which takes it over) and returns it with a
 * reference held for the caller (sv_game_put it), or NULL (g freed) when
 * memory runs out. */
sv_game *sv_games_add(sv_server *s, sv_game *g);
/* Finds a game by id and takes a reference to it (the caller lets go with
 * sv_game_put). A game not in memory (unloaded, or finished before the
 * server started) is loaded from the store, and its AI seat, if one is to
 * move, set to play. NULL if there is no such game. */
sv_game *sv_games_find(sv_server *s, const char *id);
/* Lets go of a reference taken by sv_games_find or sv_games_add. */
void sv_game_put(sv_game *g);
/* Unloads every game that no one holds and that is finished and idle for
 * keep_over_ms, or idle for keep_idle_ms, at time now (ms). Returns how
 * many it unloaded. The janitor calls it; tests may too. */
int sv_games_sweep(sv_server *s, long long now);
/* The janitor: a thread that sweeps about once a second (at most every
 * quarter of the shorter keep time). */
void sv_janitor_start(sv_server *s);
void sv_janitor_stop(sv_server *s);
/* Fills buf with n random hex digits from /dev/urandom (0, or -1). */
int sv_random_hex(char *buf, int n);
/* The seat index whose token this is, SV_SPECTATOR, or -1 (constant time
 * per comparison). */
#define SV_SPECTATOR 100
int sv_game_seat_of(const sv_game *g, const char *token);
/* Records an update (with g->lock held): bumps seq, keeps the message for
 * watchers and wakes them. update is the JSON payload (consumed). */
void sv_game_publish(sv_game *g, json_t *update);
/* Queues an AI job for g if its side to move is an AI seat (g->lock held). */
void sv_ai_kick(sv_server *s, sv_game *g);
void sv_ai_start(sv_server *s);
void sv_ai_stop(sv_server *s);

/* Applies an action for side (g->lock held): checks it, plays it through
 * the protocol session, stores it, publishes it. Returns the protocol's
 * answer (with "seq" when it was played), ok or not. */
json_t *sv_game_act(sv_server *s, sv_game *g, int side, json_t *action, const char *by);

/* Takes back side's last action (g->lock held); the same kind of answer. */
json_t *sv_game_undo(sv_server *s, sv_game *g, int side);

long long sv_now_ms(void);

/* serve.c: the API without sockets (for tests and fuzzing): answers one
 * request to a route under /api/ (all but the live updates) as the HTTP
 * side would: method "GET" or "POST", url the path without the query,
 * token the seat's (or NULL), since the log's ?since= (or NULL), the body
 * (len bytes; over SV_BODY_MAX is refused as too_large). Sets *status to
 * the HTTP status. Returns the answer (a new reference, never NULL). */
json_t *sv_api(sv_server *s, const char *method, const char *url, const char *token,
               const char *since, const char *body, size_t len, int *status);
/* Sets up a server's tables, locks and database (":memory:" for none on
 * disk) without sockets or AI threads; 0, or -1 with err. */
int sv_server_init(sv_server *s, const char *dbpath, char *err, size_t errlen);
/* Frees what sv_server_init and the requests since made (after sv_ai_stop
 * and the HTTP daemon are stopped). */
void sv_server_free(sv_server *s);

#endif
