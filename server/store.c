/* store.c - the server's SQLite database: games, their seats, and the log
 * of every change. WAL journal with synchronous=FULL: a change is on disk
 * when its transaction commits, before the HTTP answer goes out, so a
 * server killed with SIGKILL loses nothing it has answered. A game is
 * rebuilt at start by replaying its record and checking the hash. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "server_int.h"

static const char schema[] =
    "CREATE TABLE IF NOT EXISTS games ("
    " id TEXT PRIMARY KEY, scenario TEXT NOT NULL, options TEXT NOT NULL,"
    " seed INTEGER NOT NULL, seed_fixed INTEGER NOT NULL, created INTEGER NOT NULL,"
    " updated INTEGER NOT NULL, spectator TEXT NOT NULL,"
    " record TEXT NOT NULL, hash TEXT NOT NULL, seq INTEGER NOT NULL DEFAULT 0,"
    " last_side INTEGER NOT NULL DEFAULT -1, over INTEGER NOT NULL DEFAULT 0);"
    "CREATE TABLE IF NOT EXISTS seats ("
    " game TEXT NOT NULL REFERENCES games(id), idx INTEGER NOT NULL, side TEXT NOT NULL,"
    " token TEXT NOT NULL, kind TEXT NOT NULL, ai TEXT, PRIMARY KEY (game, idx));"
    "CREATE TABLE IF NOT EXISTS log ("
    " game TEXT NOT NULL REFERENCES games(id), seq INTEGER NOT NULL, kind TEXT NOT NULL,"
    " side TEXT, action TEXT, events TEXT, hash TEXT NOT NULL, at INTEGER NOT NULL,"
    " PRIMARY KEY (game, seq));"
    "CREATE INDEX IF NOT EXISTS games_over ON games(over);";

int sv_store_open(sv_server *s, const char *path, char *err, size_t errlen)
{
    /* The file holds seat tokens and dice seeds: readable by its owner only
     * (SQLite gives the -wal and -shm files the same mode). */
    int fd = strcmp(path, ":memory:") != 0 ? open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600) : -1;
    if (fd >= 0)
        close(fd);
    int rc = sqlite3_open_v2(path, &s->db,
                             SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                             NULL);
    if (rc != SQLITE_OK) {
        snprintf(err, errlen, "%s: %s", path, s->db ? sqlite3_errmsg(s->db) : "cannot open");
        sqlite3_close(s->db);
        s->db = NULL;
        return -1;
    }
    sqlite3_busy_timeout(s->db, 5000);
    char *msg = NULL;
    if (sqlite3_exec(s->db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
                            "PRAGMA foreign_keys=ON;", NULL, NULL, &msg) != SQLITE_OK ||
        sqlite3_exec(s->db, schema, NULL, NULL, &msg) != SQLITE_OK) {
        snprintf(err, errlen, "%s: %s", path, msg ? msg : sqlite3_errmsg(s->db));
        sqlite3_free(msg);
        sqlite3_close(s->db);
        s->db = NULL;
        return -1;
    }
    return 0;
}

void sv_store_close(sv_server *s)
{
    if (s->db)
        sqlite3_close(s->db);
    s->db = NULL;
}

static int exec(sv_server *s, const char *sql)
{
    char *msg = NULL;
    if (sqlite3_exec(s->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        fprintf(stderr, "musket serve: database: %s: %s\n", sql, msg ? msg : "?");
        sqlite3_free(msg);
        return -1;
    }
    return 0;
}

/* Prepares sql, binds the texts ("t", NULL binds null) and integers ("i",
 * long long) given by fmt, and steps it to the end. 0 or -1. */
static int run(sv_server *s, const char *sql, const char *fmt, ...)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) {
        fprintf(stderr, "musket serve: database: %s\n", sqlite3_errmsg(s->db));
        return -1;
    }
    va_list ap;
    va_start(ap, fmt);
    for (int i = 0; fmt[i]; i++) {
        if (fmt[i] == 'i') {
            sqlite3_bind_int64(st, i + 1, va_arg(ap, long long));
        } else {
            const char *t = va_arg(ap, const char *);
            if (t)
                sqlite3_bind_text(st, i + 1, t, -1, SQLITE_TRANSIENT);
            else
                sqlite3_bind_null(st, i + 1);
        }
    }
    va_end(ap);
    int rc = sqlite3_step(st);
    if (rc != SQLITE_DONE)
        fprintf(stderr, "musket serve: database: %s\n", sqlite3_errmsg(s->db));
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

int sv_store_create(sv_server *s, sv_game *g, const char *record, const char *hash)
{
    char *opts = json_dumps(g->options, JSON_COMPACT);
    json_t *rec = json_loads(record, 0, NULL);
    long long seed = (long long)json_integer_value(json_object_get(rec, "seed"));
    json_decref(rec);
    pthread_mutex_lock(&s->db_lock);
    int rc = exec(s, "BEGIN IMMEDIATE");
    if (rc == 0)
        rc = run(s,
                 "INSERT INTO games (id, scenario, options, seed, seed_fixed, created, updated,"
                 " spectator, record, hash, seq, last_side, over)"
                 " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, -1, 0)",
                 "tttiiiittt", g->id, g->scenario_id, opts ? opts : "{}", seed,
                 (long long)g->seed_fixed, g->created, g->created, g->spectator, record, hash);
    for (int i = 0; rc == 0 && i < g->nseats; i++) {
        char *ai = g->seats[i].ai ? json_dumps(g->seats[i].ai, JSON_COMPACT) : NULL;
        rc = run(s, "INSERT INTO seats (game, idx, side, token, kind, ai) VALUES (?, ?, ?, ?, ?, ?)",
                 "titttt", g->id, (long long)i, g->seats[i].side, g->seats[i].token,
                 g->seats[i].kind == SEAT_AI ? "ai" : "human", ai);
        free(ai);
    }
    if (rc == 0)
        rc = exec(s, "COMMIT");
    if (rc != 0)
        exec(s, "ROLLBACK");
    pthread_mutex_unlock(&s->db_lock);
    free(opts);
    return rc;
}

int sv_store_change(sv_server *s, sv_game *g, const char *kind, const char *side,
                    const char *action, const char *events, const char *record,
                    const char *hash, bool over)
{
    long long now = sv_now_ms();
    pthread_mutex_lock(&s->db_lock);
    int rc = exec(s, "BEGIN IMMEDIATE");
    if (rc == 0)
        rc = run(s,
                 "INSERT INTO log (game, seq, kind, side, action, events, hash, at)"
                 " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                 "tittttti", g->id, (long long)g->seq + 1, kind, side, action, events, hash, now);
    if (rc == 0)
        rc = run(s,
                 "UPDATE games SET record = ?, hash = ?, seq = ?, last_side = ?, over = ?,"
                 " updated = ? WHERE id = ?",
                 "ttiiiit", record, hash, (long long)g->seq + 1, (long long)g->last_side,
                 (long long)over, now, g->id);
    if (rc == 0)
        rc = exec(s, "COMMIT");
    if (rc != 0)
        exec(s, "ROLLBACK");
    pthread_mutex_unlock(&s->db_lock);
    return rc;
}

static const char *col(sqlite3_stmt *st, int i)
{
    const unsigned char *t = sqlite3_column_text(st, i);
    return t ? (const char *)t : "";
}

/* Rebuilds one game from its row: replays the record through a networked
 * protocol session and checks the hash against the stored one. */
static sv_game *load_row(sv_server *s, sqlite3_stmt *st)
{
    const char *id = col(st, 0);
    json_error_t je;
    json_t *rec = json_loads(col(st, 1), JSON_REJECT_DUPLICATES, &je);
    if (!rec) {
        fprintf(stderr, "musket serve: game %s: record is not JSON: %s\n", id, je.text);
        return NULL;
    }
    sv_game *g = sv_game_alloc();
    if (!g) {
        json_decref(rec);
        return NULL;
    }
    mk_session_init(&g->sess, s->rulesets, s->nrulesets, NULL);
    g->sess.networked = true;
    json_t *req = json_pack("{s:s, s:o}", "cmd", "replay", "record", rec);
    json_t *ans = mk_session_request(&g->sess, req);
    json_decref(req);
    const char *want = col(st, 2);
    char got[17] = "";
    if (json_is_true(json_object_get(ans, "ok")))
        snprintf(got, sizeof got, "%s",
                 json_string_value(json_object_get(json_object_get(ans, "state"), "hash")));
    if (!json_is_true(json_object_get(ans, "ok")) || strcmp(got, want) != 0) {
        json_t *e = json_object_get(ans, "error");
        fprintf(stderr, "musket serve: game %s not loaded: %s\n", id,
                e ? json_string_value(json_object_get(e, "message"))
                  : "the replayed hash differs from the stored one");
        json_decref(ans);
        sv_game_free(g);
        return NULL;
    }
    json_decref(ans);
    snprintf(g->id, sizeof g->id, "%s", id);
    g->record = strdup(col(st, 1));
    g->seq = (uint64_t)sqlite3_column_int64(st, 3);
    g->last_side = sqlite3_column_int(st, 4);
    g->options = json_loads(col(st, 5), 0, NULL);
    if (!g->options)
        g->options = json_object();
    g->seed_fixed = sqlite3_column_int(st, 6) != 0;
    g->created = sqlite3_column_int64(st, 7);
    snprintf(g->spectator, sizeof g->spectator, "%s", col(st, 8));
    snprintf(g->scenario_id, sizeof g->scenario_id, "%s", col(st, 9));

    sqlite3_stmt *q = NULL;
    sqlite3_prepare_v2(s->db, "SELECT idx, side, token, kind, ai FROM seats WHERE game = ? ORDER BY idx",
                       -1, &q, NULL);
    sqlite3_bind_text(q, 1, id, -1, SQLITE_TRANSIENT);
    while (q && sqlite3_step(q) == SQLITE_ROW) {
        int i = sqlite3_column_int(q, 0);
        if (i < 0 || i >= MK_MAX_SIDES)
            continue;
        sv_seat *seat = &g->seats[i];
        snprintf(seat->side, sizeof seat->side, "%s", col(q, 1));
        snprintf(seat->token, sizeof seat->token, "%s", col(q, 2));
        seat->kind = strcmp(col(q, 3), "ai") == 0 ? SEAT_AI : SEAT_HUMAN;
        seat->ai = sqlite3_column_type(q, 4) == SQLITE_NULL ? NULL : json_loads(col(q, 4), 0, NULL);
        if (i + 1 > g->nseats)
            g->nseats = i + 1;
    }
    sqlite3_finalize(q);
    return g;
}

int sv_store_load(sv_server *s, const char *only_id, sv_game ***out)
{
    *out = NULL;
    sqlite3_stmt *st = NULL;
    const char *sql =
        only_id ? "SELECT id, record, hash, seq, last_side, options, seed_fixed, created,"
                  " spectator, scenario FROM games WHERE id = ?"
                : "SELECT id, record, hash, seq, last_side, options, seed_fixed, created,"
                  " spectator, scenario FROM games WHERE over = 0 ORDER BY created";
    pthread_mutex_lock(&s->db_lock);
    if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) {
        fprintf(stderr, "musket serve: database: %s\n", sqlite3_errmsg(s->db));
        pthread_mutex_unlock(&s->db_lock);
        return -1;
    }
    if (only_id)
        sqlite3_bind_text(st, 1, only_id, -1, SQLITE_TRANSIENT);
    int n = 0, cap = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        sv_game *g = load_row(s, st);
        if (!g)
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            sv_game **more = realloc(*out, sizeof *more * (size_t)cap);
            if (!more) {
                sv_game_free(g);
                break;
            }
            *out = more;
        }
        (*out)[n++] = g;
    }
    sqlite3_finalize(st);
    pthread_mutex_unlock(&s->db_lock);
    return n;
}
