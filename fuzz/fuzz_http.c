/* fuzz_http.c - libFuzzer target for the web server's HTTP API, without
 * sockets: each input is a short session of requests answered by sv_api
 * (server/serve.c) on a fresh server with an in-memory database.
 *
 * Input: requests separated by lines "###". A request's first line is
 * "METHOD PATH [TOKEN]", the rest its body. In PATH and TOKEN, "$G" is the
 * id of the last game created, "$A" / "$B" its seats' tokens and "$S" its
 * spectator's. A missing first line or an unknown method is sent as given.
 *
 * Checked after every request (any failure aborts): the answer is a JSON
 * object with a boolean "ok"; an error has a string code and message and a
 * 4xx/5xx status; a refused change leaves the game's hash and seq as they
 * were; an accepted change adds exactly one to seq and the database holds
 * the game's new hash and seq (an acknowledged action is stored). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/server_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MUST(c)                                                                     \
    do {                                                                            \
        if (!(c)) {                                                                 \
            fprintf(stderr, "fuzz_http: %s:%d: %s\n", __FILE__, __LINE__, #c);      \
            abort();                                                                \
        }                                                                           \
    } while (0)

typedef struct names {
    char game[SV_ID_LEN + 1];
    char a[SV_TOKEN_LEN + 1], b[SV_TOKEN_LEN + 1], spec[SV_TOKEN_LEN + 1];
} names;

/* Copies src (n bytes) to dst (room for cap) with $G $A $B $S replaced. */
static void expand(const names *nm, const char *src, size_t n, char *dst, size_t cap)
{
    size_t o = 0;
    for (size_t i = 0; i < n && o + 1 < cap; i++) {
        const char *rep = NULL;
        if (src[i] == '$' && i + 1 < n) {
            char k = src[i + 1];
            rep = k == 'G' ? nm->game : k == 'A' ? nm->a : k == 'B' ? nm->b : k == 'S' ? nm->spec : NULL;
        }
        if (rep) {
            size_t l = strlen(rep);
            if (o + l + 1 >= cap)
                break;
            memcpy(dst + o, rep, l);
            o += l;
            i++;
        } else {
            dst[o++] = src[i];
        }
    }
    dst[o] = 0;
}

/* The game's hash and seq now (0 and UINT64_MAX when there is none). */
static void game_now(sv_server *s, const char *id, uint64_t *hash, uint64_t *seq)
{
    *hash = 0;
    *seq = UINT64_MAX;
    sv_game *g = id[0] ? sv_games_find(s, id) : NULL;
    if (!g)
        return;
    pthread_mutex_lock(&g->lock);
    *hash = mk_game_hash(g->sess.game);
    *seq = g->seq;
    pthread_mutex_unlock(&g->lock);
    sv_game_put(g);
}

/* The hash and seq the database holds for game id. */
static void game_stored(sv_server *s, const char *id, char hash[17], uint64_t *seq)
{
    sqlite3_stmt *st = NULL;
    hash[0] = 0;
    *seq = UINT64_MAX;
    MUST(sqlite3_prepare_v2(s->db, "SELECT hash, seq FROM games WHERE id = ?", -1, &st, NULL) ==
         SQLITE_OK);
    sqlite3_bind_text(st, 1, id, -1, SQLITE_TRANSIENT);
    if (sqlite3_step(st) == SQLITE_ROW) {
        snprintf(hash, 17, "%s", (const char *)sqlite3_column_text(st, 0));
        *seq = (uint64_t)sqlite3_column_int64(st, 1);
    }
    sqlite3_finalize(st);
}

static void one_request(sv_server *s, names *nm, const char *req, size_t n)
{
    const char *nl = memchr(req, '\n', n);
    size_t head = nl ? (size_t)(nl - req) : n;
    const char *body = nl ? nl + 1 : req + n;
    size_t blen = nl ? n - head - 1 : 0;
    char line[512], method[16] = "", path[400] = "", token[128] = "";
    expand(nm, req, head < sizeof line ? head : sizeof line - 1, line, sizeof line);
    /* Split "METHOD PATH [TOKEN]" by hand: the bytes may be anything. */
    char *p = line, *fields[3] = {method, path, token};
    size_t caps[3] = {sizeof method, sizeof path, sizeof token};
    for (int f = 0; f < 3; f++) {
        while (*p == ' ')
            p++;
        size_t k = 0;
        while (*p && *p != ' ') {
            if (k + 1 < caps[f])
                fields[f][k++] = *p;
            p++;
        }
        fields[f][k] = 0;
    }
    /* A query string is the HTTP side's: only ?since= reaches the API. */
    const char *since = NULL;
    char *q = strchr(path, '?');
    if (q) {
        *q = 0;
        char *si = strstr(q + 1, "since=");
        since = si ? si + 6 : NULL;
    }
    /* Which game a change is for, to check what it did. */
    char gid[SV_ID_LEN + 1] = "";
    bool change = strcmp(method, "POST") == 0 && strncmp(path, "/api/games/", 11) == 0 &&
                  strlen(path) > 11 + SV_ID_LEN && path[11 + SV_ID_LEN] == '/';
    if (change) {
        memcpy(gid, path + 11, SV_ID_LEN);
        gid[SV_ID_LEN] = 0;
    }
    uint64_t h0, seq0, h1, seq1;
    game_now(s, gid, &h0, &seq0);

    int status = 0;
    json_t *ans = sv_api(s, method, path, token[0] ? token : NULL, since, body, blen, &status);
    MUST(json_is_object(ans));
    json_t *okj = json_object_get(ans, "ok");
    MUST(json_is_boolean(okj));
    if (json_is_true(okj)) {
        MUST(status == 200 || status == 201);
    } else {
        json_t *e = json_object_get(ans, "error");
        MUST(json_is_string(json_object_get(e, "code")));
        MUST(json_is_string(json_object_get(e, "message")));
        MUST(status >= 400 && status < 600);
    }
    /* A text answer must be printable as the HTTP side does. */
    char *text = json_dumps(ans, JSON_COMPACT);
    MUST(text != NULL);
    if (getenv("MUSKET_FUZZ_VERBOSE"))   /* to see what a corpus file does */
        fprintf(stderr, "%s %s -> %d %.150s\n", method, path, status, text);
    free(text);

    game_now(s, gid, &h1, &seq1);
    if (change && seq0 != UINT64_MAX) {
        if (json_is_true(okj)) {
            MUST(seq1 == seq0 + 1);
            char stored[17], mine[17];
            uint64_t sseq;
            game_stored(s, gid, stored, &sseq);
            mk_hash_hex(h1, mine);
            MUST(sseq == seq1 && strcmp(stored, mine) == 0);
        } else {
            MUST(seq1 == seq0 && h1 == h0);
        }
    }
    /* Remember a new game's names for the requests that follow. */
    if (status == 201 && json_is_string(json_object_get(ans, "game"))) {
        json_t *seats = json_object_get(ans, "seats");
        snprintf(nm->game, sizeof nm->game, "%s", json_string_value(json_object_get(ans, "game")));
        snprintf(nm->a, sizeof nm->a, "%s",
                 json_string_value(json_object_get(json_array_get(seats, 0), "token")));
        snprintf(nm->b, sizeof nm->b, "%s",
                 json_string_value(json_object_get(json_array_get(seats, 1), "token")));
        snprintf(nm->spec, sizeof nm->spec, "%s",
                 json_string_value(json_object_get(ans, "spectator")));
    }
    json_decref(ans);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static sv_server srv;
    char err[300];
    if (sv_server_init(&srv, ":memory:", err, sizeof err) != 0) {
        fprintf(stderr, "fuzz_http: %s\n", err);
        abort();
    }
    srv.stopping = 1;   /* no AI workers: computer seats wait */
    names nm;
    memset(&nm, 0, sizeof nm);
    const char *in = (const char *)data;
    size_t at = 0;
    for (int nreq = 0; nreq < 24; nreq++) {
        size_t stop = at;   /* the next "\n###\n", or the end */
        while (stop < size && !(stop + 5 <= size && memcmp(in + stop, "\n###\n", 5) == 0))
            stop++;
        one_request(&srv, &nm, in + at, stop - at);
        if (stop >= size)
            break;
        at = stop + 5;
    }
    sv_ai_stop(&srv);
    sv_server_free(&srv);
    return 0;
}
