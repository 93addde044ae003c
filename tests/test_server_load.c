/* test_server_load.c - a load client for `musket serve`: 50 games on
 * loopback, each played by its own thread, moves arriving in parallel;
 * checks that every action is answered 200 and that none is lost (each
 * game's seq equals the actions accepted). Bounded to 20 s.
 *
 * Usage: test_server_load [http://127.0.0.1:PORT]
 * With a URL it loads that server (tests/server.sh does this); without, it
 * starts `musket serve` itself (the musket next to this program) on a
 * scratch database and stops it at the end. */
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <jansson.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define GAMES 50
#define MOVES 12
#define DEADLINE_S 20

static int port;
static double t_start;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One HTTP/1.1 request with Connection: close. Returns the status (0 when
 * the connection failed) and the parsed JSON body in *out (or NULL). */
static int http(const char *method, const char *path, const char *token, const char *body,
                json_t **out)
{
    *out = NULL;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return 0;
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        close(fd);
        return 0;
    }
    size_t blen = body ? strlen(body) : 0;
    size_t cap = blen + 512;
    char *req = malloc(cap);
    int n = snprintf(req, cap,
                     "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                     "%s%s%sContent-Type: application/json\r\nContent-Length: %zu\r\n\r\n",
                     method, path, token ? "Authorization: Bearer " : "", token ? token : "",
                     token ? "\r\n" : "", blen);
    if (body)
        memcpy(req + n, body, blen);
    size_t total = (size_t)n + blen, sent = 0;
    while (sent < total) {
        ssize_t w = send(fd, req + sent, total - sent, MSG_NOSIGNAL);
        if (w <= 0)
            break;
        sent += (size_t)w;
    }
    free(req);
    size_t rcap = 1 << 16, rlen = 0;
    char *resp = malloc(rcap);
    for (;;) {
        if (rlen + 4096 > rcap)
            resp = realloc(resp, rcap *= 2);
        ssize_t r = recv(fd, resp + rlen, rcap - rlen - 1, 0);
        if (r <= 0)
            break;
        rlen += (size_t)r;
    }
    close(fd);
    resp[rlen] = 0;
    int status = 0;
    if (sscanf(resp, "HTTP/1.%*d %d", &status) != 1)
        status = 0;
    char *b = strstr(resp, "\r\n\r\n");
    if (b)
        *out = json_loads(b + 4, 0, NULL);
    free(resp);
    return status;
}

typedef struct player {
    int index;
    char game[40], tok[2][40];
    int accepted, failed;
    long long seq;
    unsigned rnd;
    char why[200];
} player;

static void *play(void *arg)
{
    player *p = arg;
    json_t *ans;
    int st = http("POST", "/api/games", NULL,
                  "{\"scenario\": \"htl/tutorial\", \"seats\": [\"human\", \"human\"]}", &ans);
    if (st != 201) {
        snprintf(p->why, sizeof p->why, "POST /api/games: %d", st);
        p->failed++;
        json_decref(ans);
        return NULL;
    }
    snprintf(p->game, sizeof p->game, "%s", json_string_value(json_object_get(ans, "game")));
    for (int i = 0; i < 2; i++)
        snprintf(p->tok[i], sizeof p->tok[i], "%s",
                 json_string_value(json_object_get(json_array_get(json_object_get(ans, "seats"), i),
                                                   "token")));
    json_decref(ans);
    char path[128];
    for (int m = 0; m < MOVES && now_s() - t_start < DEADLINE_S; m++) {
        /* Ask with one seat; if the other is to move, ask again with its token. */
        int seat = 0;
        json_t *legal = NULL;
        for (int tries = 0; tries < 2; tries++) {
            snprintf(path, sizeof path, "/api/games/%s/legal", p->game);
            json_decref(legal);
            st = http("GET", path, p->tok[seat], NULL, &legal);
            if (st == 200 && json_array_size(json_object_get(legal, "actions")) > 0)
                break;
            seat = 1 - seat;
        }
        json_t *acts = json_object_get(legal, "actions");
        size_t n = json_array_size(acts);
        if (st != 200 || n == 0) {
            snprintf(p->why, sizeof p->why, "GET legal: %d with %zu actions", st, n);
            p->failed++;
            json_decref(legal);
            break;
        }
        /* Prefer anything but end_turn, which rolls dice; end one time in six. */
        size_t pick = 0;
        p->rnd = p->rnd * 1103515245u + 12345u;
        if (n > 1 && (p->rnd >> 16) % 6 != 0)
            pick = 1 + (p->rnd >> 8) % (n - 1);
        json_t *body = json_pack("{s:O}", "action", json_array_get(acts, pick));
        char *text = json_dumps(body, JSON_COMPACT);
        json_decref(body);
        json_decref(legal);
        snprintf(path, sizeof path, "/api/games/%s/act", p->game);
        st = http("POST", path, p->tok[seat], text, &ans);
        free(text);
        if (st == 200) {
            p->accepted++;
        } else {
            p->failed++;
            char *t = ans ? json_dumps(ans, JSON_COMPACT) : NULL;
            snprintf(p->why, sizeof p->why, "act: %d %s", st, t ? t : "");
            free(t);
        }
        json_decref(ans);
    }
    snprintf(path, sizeof path, "/api/games/%s/state", p->game);
    st = http("GET", path, p->tok[0], NULL, &ans);
    p->seq = st == 200 ? (long long)json_integer_value(json_object_get(ans, "seq")) : -1;
    json_decref(ans);
    return NULL;
}

/* Starts the musket beside this program on a scratch database. */
static pid_t start_server(char *dbdir)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 20);
    if (n <= 0)
        return -1;
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    strcpy(slash + 1, "musket");
    if (!mkdtemp(dbdir))
        return -1;
    char db[600], portarg[16];
    snprintf(db, sizeof db, "%s/load.db", dbdir);
    port = 19000 + (int)(getpid() % 1000);
    snprintf(portarg, sizeof portarg, "%d", port);
    char logpath[600];
    snprintf(logpath, sizeof logpath, "%s/server.log", dbdir);
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen(logpath, "w", stderr))
            _exit(127);
        execl(exe, exe, "serve", "--port", portarg, "--db", db, "--ai-delay", "0", (char *)NULL);
        _exit(127);
    }
    /* Ours is up once it says where it listens (another program may hold
     * the port: then ours exits and we give up). */
    for (int i = 0; i < 100; i++) {
        char line[400] = "";
        bool up = false;
        FILE *f = fopen(logpath, "r");
        while (f && !up && fgets(line, sizeof line, f))
            up = strstr(line, "musket serve: http://") != NULL;
        if (f)
            fclose(f);
        if (up)
            return pid;
        if (waitpid(pid, NULL, WNOHANG) == pid) {
            fprintf(stderr, "test_server_load: musket serve exited: %s", line);
            return -1;
        }
        nanosleep(&(struct timespec){0, 50000000}, NULL);
    }
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    return -1;
}

int main(int argc, char **argv)
{
    pid_t server = 0;
    char dbdir[] = "/tmp/musket-load-XXXXXX";
    if (argc > 1) {
        if (sscanf(argv[1], "http://127.0.0.1:%d", &port) != 1) {
            fprintf(stderr, "usage: test_server_load [http://127.0.0.1:PORT]\n");
            return 2;
        }
    } else {
        server = start_server(dbdir);
        if (server < 0) {
            fprintf(stderr, "test_server_load: could not start musket serve\n");
            return 1;
        }
    }
    static player players[GAMES];
    pthread_t th[GAMES];
    t_start = now_s();
    for (int i = 0; i < GAMES; i++) {
        players[i].index = i;
        players[i].rnd = 2654435761u * (unsigned)(i + 1);
        pthread_create(&th[i], NULL, play, &players[i]);
    }
    int accepted = 0, failed = 0, lost = 0;
    for (int i = 0; i < GAMES; i++) {
        pthread_join(th[i], NULL);
        player *p = &players[i];
        accepted += p->accepted;
        failed += p->failed;
        if (p->seq != p->accepted) {
            lost++;
            fprintf(stderr, "game %s: %d actions accepted but seq %lld\n", p->game, p->accepted,
                    p->seq);
        }
        if (p->why[0])
            fprintf(stderr, "game %d: %s\n", i, p->why);
    }
    double took = now_s() - t_start;
    printf("test_server_load: %d games, %d actions accepted, %d failed, %d games with lost "
           "actions, %.1f s (%.0f actions/s)\n",
           GAMES, accepted, failed, lost, took, accepted / took);
    if (server > 0) {
        kill(server, SIGTERM);
        waitpid(server, NULL, 0);
        char cmd[200];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dbdir);
        if (system(cmd) != 0)
            fprintf(stderr, "test_server_load: could not remove %s\n", dbdir);
    }
    bool ok = failed == 0 && lost == 0 && accepted >= GAMES * MOVES && took <= DEADLINE_S + 5;
    return ok ? 0 : 1;
}
