/* sim.c - `musket sim`: AI-against-AI studies. Parses the command line,
 * plays the games on worker threads (each plays whole games, ai/match.c),
 * shows progress, and writes the report, JSON, CSV and an SVG chart.
 * Built with MUSKET_MPI (musket-mpi), the games are played across MPI
 * ranks instead (sim_mpi.c) and rank 0 writes the same outputs.
 * No rule of any game lives here. */
#define _POSIX_C_SOURCE 200809L
#include "sim.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ai/match.h"
#include "core/catalog.h"
#include "rules/rules.h"
#ifdef MUSKET_MPI
#include "sim_mpi.h"
#endif

#define SIM_MAX_GAMES 1000000
#define SIM_MAX_THREADS 64
#define SIM_RANK_TIMEOUT 60   /* musket-mpi: seconds of silence before a rank is lost */

/* A Ctrl-C sets `interrupted`: no game is started. A second one sets
 * `abandon`: the games in progress are given up between two actions and
 * what finished is reported (a Monmouth game at 200 ms a move takes 15-30
 * minutes); a third ends the program. Under musket-mpi (no `abandon_ok`:
 * its ranks answer mpirun, docs/sim-mpi.md) the second ends the program. */
static volatile sig_atomic_t interrupted, abandon, abandon_ok;

static void on_sigint(int sig)
{
    (void)sig;
    if (interrupted && abandon_ok)
        abandon = 1;
    if (!abandon_ok || abandon)
        signal(SIGINT, SIG_DFL);
    interrupted = 1;
}

typedef struct study {
    const mk_ruleset *rs;
    mk_scenario *sc;
    uint64_t options, seed;
    char option_ids[512];    /* the optional rules on, their ids joined by '+' (the CSV's) */
    mk_ai_config cfg[2];
    char label[2][64];
    int n;
    long max_actions;
    mk_match_game *games;
    unsigned char *done;
    /* shared, under lock */
    pthread_mutex_t lock;
    int next, finished, failed;
    int resumed;             /* of `finished`, read by --resume, not played here */
    int wins_a, wins_b, draws;
    char error[256];
    double t0, last_line;
    int last_count;          /* games finished at the last line (or bar) drawn */
    bool drawn;              /* a bar is on the terminal's line */
    bool tty, quiet;
    /* The ticker (its own thread, under lock): redraws the progress while
     * games are under way, since one game can take minutes (Monmouth at
     * 200 ms a move: about 6) and a bar drawn only when a game ends would
     * look hung. */
    pthread_cond_t tick;
    bool ticker_stop;
    bool said_stopping;      /* the Ctrl-C notice is out */
    bool said_abandon;       /* and the second one's */
    /* --csv: written a line per game as games finish (completion order),
     * so that a study killed outright (mpirun's SIGKILL soon after
     * Ctrl-C, a lost host, the OOM killer) keeps every finished game; at
     * the end it is replaced by the file in game order. */
    FILE *csv_live;
} study;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void fmt_time(double s, char *out, size_t n)
{
    long t = (long)(s + 0.5);
    if (t >= 3600)
        snprintf(out, n, "%ldh%02ldm", t / 3600, t / 60 % 60);
    else if (t >= 60)
        snprintf(out, n, "%ldm%02lds", t / 60, t % 60);
    else
        snprintf(out, n, "%lds", t);
}

/* Progress on stderr, under the lock: a redrawn bar on a terminal (when a
 * game ends and every second), else a line every 10% of the games or
 * 60 s. `tick`: called by the ticker, not for a finished game. The ETA is
 * "?" until a game has finished. */
static void progress(study *s, bool final, bool tick)
{
    if (s->quiet || (final && !s->tty && s->last_count == s->finished))
        return;
    double el = now_s() - s->t0;
    int played = s->finished - s->resumed;   /* this run's: the ETA's pace */
    double eta = played ? el / played * (s->n - s->finished) : 0;
    char e1[16], e2[16];
    fmt_time(el, e1, sizeof e1);
    if (final)
        snprintf(e2, sizeof e2, "0s");
    else if (played)
        fmt_time(eta, e2, sizeof e2);
    else
        snprintf(e2, sizeof e2, "?");
    if (s->tty && final && s->drawn && s->last_count == s->finished) {
        fputc('\n', stderr);   /* the bar shows the end already: not drawn again */
        fflush(stderr);
        return;
    }
    if (s->tty) {
        int w = 30, fill = s->n ? s->finished * w / s->n : w;
        char bar[64];
        for (int i = 0; i < w; i++)
            bar[i] = i < fill ? '#' : '.';
        bar[w] = 0;
        fprintf(stderr, "\r[%s] %d/%d games  A %d  B %d  draws %d  %s elapsed  ETA %s   %s",
                bar, s->finished, s->n, s->wins_a, s->wins_b, s->draws, e1, e2,
                final ? "\n" : "");
        fflush(stderr);
        s->drawn = !final;
        s->last_count = s->finished;
        return;
    }
    int step = s->n >= 10 ? s->n / 10 : 1;
    if (final || (!tick && s->finished % step == 0) || el - s->last_line >= 60) {
        s->last_line = el;
        s->last_count = s->finished;
        fprintf(stderr, "sim: %d/%d games, A %d, B %d, draws %d, %s elapsed, ETA %s\n",
                s->finished, s->n, s->wins_a, s->wins_b, s->draws, e1, e2);
    }
}

/* The Ctrl-C notices, each once, under the lock: from the ticker within a
 * second of the key; the second also when the study `ending`, since a
 * second Ctrl-C can end every game before the ticker wakes (the first is
 * moot then: nothing is left to wait for). */
static void say_notices(study *s, bool ending)
{
    if (interrupted && !s->said_stopping && !ending) {
        /* The games in progress may take minutes to finish, and nothing
         * else would show that the key was heard. */
        s->said_stopping = true;
        s->drawn = false;
        fprintf(stderr, "%smusket sim: stopping after the games in progress (Ctrl-C again %s)\n",
                s->tty ? "\n" : "", abandon_ok ? "stops now, leaving them out" : "ends at once");
    }
    if (abandon && !s->said_abandon) {
        s->said_abandon = true;
        s->drawn = false;
        fprintf(stderr, "%smusket sim: stopping now: the games in progress are left out\n",
                s->tty ? "\n" : "");
    }
}

/* The ticker thread: progress every second until ticker_stop. */
static void *ticker(void *p)
{
    study *s = p;
    pthread_mutex_lock(&s->lock);
    while (!s->ticker_stop) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_sec += 1;
        pthread_cond_timedwait(&s->tick, &s->lock, &ts);
        if (s->ticker_stop)
            break;
        say_notices(s, false);
        progress(s, false, true);
    }
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

/* Plays game g of the study (any thread). */
static int play_game(void *p, int g, mk_match_game *r, char *msg, size_t len)
{
    study *s = p;
    mk_error err;
    mk_error_clear(&err);
    int rc = mk_match_play(s->rs, s->sc, s->options, s->cfg, s->seed, g, s->max_actions,
                           abandon_ok ? &abandon : NULL, r, &err);
    if (rc < 0)
        snprintf(msg, len, "game %d: %s", g, err.msg);
    return rc;
}

static void csv_line(const study *s, FILE *f, const mk_match_game *r);

/* Game r counted among the finished (under the lock, or before threads). */
static void keep_game(study *s, const mk_match_game *r)
{
    s->games[r->number] = *r;
    s->done[r->number] = 1;
    s->finished++;
    if (r->winner < 0)
        s->draws++;
    else if (r->winner == r->a_side)
        s->wins_a++;
    else
        s->wins_b++;
}

/* A finished game, from any thread (or, under MPI, any rank). */
static void record_game(void *p, const mk_match_game *r)
{
    study *s = p;
    pthread_mutex_lock(&s->lock);
    if (!s->done[r->number]) {
        keep_game(s, r);
        if (s->csv_live) {
            csv_line(s, s->csv_live, r);
            fflush(s->csv_live);
        }
        progress(s, false, false);
    }
    pthread_mutex_unlock(&s->lock);
}

/* A failed game (or rank): the first message is kept, the study stops. */
static void record_failure(void *p, const char *msg)
{
    study *s = p;
    pthread_mutex_lock(&s->lock);
    if (!s->failed)
        snprintf(s->error, sizeof s->error, "%s", msg);
    s->failed = 1;
    pthread_mutex_unlock(&s->lock);
}

static void *worker(void *p)
{
    study *s = p;
    for (;;) {
        pthread_mutex_lock(&s->lock);
        while (s->next < s->n && s->done[s->next])
            s->next++;   /* read by --resume */
        int g = (interrupted || s->failed) ? s->n : s->next++;
        pthread_mutex_unlock(&s->lock);
        if (g >= s->n)
            break;
        mk_match_game r;
        char msg[256];
        int rc = play_game(s, g, &r, msg, sizeof msg);
        if (rc < 0)
            record_failure(s, msg);
        else if (rc == 0)
            record_game(s, &r);   /* (else given up at a second Ctrl-C) */
    }
    return NULL;
}

/* ---- statistics ---- */

typedef struct summary {
    double mean, median, min, max, sd;
} summary;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static summary summarize(double *v, int n)
{
    summary s = {0, 0, 0, 0, 0};
    if (n == 0)
        return s;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    double sum = 0, sq = 0;
    for (int i = 0; i < n; i++)
        sum += v[i];
    s.mean = sum / n;
    for (int i = 0; i < n; i++)
        sq += (v[i] - s.mean) * (v[i] - s.mean);
    s.sd = n > 1 ? sqrt(sq / (n - 1)) : 0;
    s.median = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    s.min = v[0];
    s.max = v[n - 1];
    return s;
}

/* Wins, draws and losses of one engine (who = 0: A, 1: B) or one side
 * (who = 2 + side). */
typedef struct tally {
    long wins, draws, losses, games;
} tally;

static tally count(const study *s, int who)
{
    tally t = {0, 0, 0, 0};
    for (int g = 0; g < s->n; g++) {
        if (!s->done[g])
            continue;
        const mk_match_game *r = &s->games[g];
        int side = who < 2 ? (who == 0 ? r->a_side : 1 - r->a_side) : who - 2;
        t.games++;
        if (r->winner < 0)
            t.draws++;
        else if (r->winner == side)
            t.wins++;
        else
            t.losses++;
    }
    return t;
}

static json_t *tally_json(tally t)
{
    double lo, hi, dlo, dhi;
    mk_wilson(t.wins, t.games, 1.96, &lo, &hi);
    mk_wilson(t.wins, t.wins + t.losses, 1.96, &dlo, &dhi);
    return json_pack("{s:I, s:I, s:I, s:I, s:f, s:[f,f], s:f, s:[f,f]}", "games",
                     (json_int_t)t.games, "wins", (json_int_t)t.wins, "draws",
                     (json_int_t)t.draws, "losses", (json_int_t)t.losses, "win_rate",
                     t.games ? (double)t.wins / t.games : 0.0, "win_rate_ci95", lo, hi,
                     "decisive_win_rate",
                     t.wins + t.losses ? (double)t.wins / (t.wins + t.losses) : 0.0,
                     "decisive_win_rate_ci95", dlo, dhi);
}

static void print_tally(const char *name, tally t)
{
    double lo, hi, dlo, dhi;
    mk_wilson(t.wins, t.games, 1.96, &lo, &hi);
    mk_wilson(t.wins, t.wins + t.losses, 1.96, &dlo, &dhi);
    printf("  %-22s %4ld %5ld %6ld   %5.1f%% [%5.1f%%, %5.1f%%]   %5.1f%% [%5.1f%%, %5.1f%%]\n",
           name, t.wins, t.draws, t.losses, t.games ? 100.0 * t.wins / t.games : 0.0,
           100 * lo, 100 * hi,
           t.wins + t.losses ? 100.0 * t.wins / (t.wins + t.losses) : 0.0, 100 * dlo, 100 * dhi);
}

/* Values of one quantity over the finished games. what: 0 actions, 1
 * turns, 2 + side: that side's VP. */
static int collect(const study *s, int what, double *out)
{
    int k = 0;
    for (int g = 0; g < s->n; g++)
        if (s->done[g])
            out[k++] = what == 0   ? (double)s->games[g].actions
                       : what == 1 ? (double)s->games[g].turns
                                   : (double)s->games[g].vp[what - 2];
    return k;
}

static json_t *summary_json(summary m)
{
    return json_pack("{s:f, s:f, s:f, s:f, s:f}", "mean", m.mean, "median", m.median, "min",
                     m.min, "max", m.max, "sd", m.sd);
}

/* ---- outputs ---- */

static const char *engine_of_side(const study *s, const mk_match_game *r, int side)
{
    return s->label[side == r->a_side ? 0 : 1];
}

static int write_json(const study *s, const char *path)
{
    json_t *games = json_array();
    for (int g = 0; g < s->n; g++) {
        if (!s->done[g])
            continue;
        const mk_match_game *r = &s->games[g];
        json_t *vp = json_object(), *eng = json_object();
        for (int side = 0; side < s->sc->nsides; side++) {
            json_object_set_new(vp, s->sc->sides[side].id, json_integer(r->vp[side]));
            json_object_set_new(eng, s->sc->sides[side].id,
                                json_string(engine_of_side(s, r, side)));
        }
        json_array_append_new(
            games, json_pack("{s:i, s:I, s:o, s:s, s:o, s:s, s:o, s:i, s:I, s:b, s:f}", "number",
                             r->number, "seed", (json_int_t)r->seed, "engines", eng, "engine_a",
                             s->sc->sides[r->a_side].id, "winner",
                             r->winner >= 0 ? json_string(s->sc->sides[r->winner].id)
                                            : json_null(),
                             "level", r->level, "vp", vp, "turns", r->turns, "actions",
                             (json_int_t)r->actions, "finished", r->finished, "seconds",
                             r->seconds));
    }
    double *v = malloc(sizeof *v * (size_t)(s->n + 1));
    json_t *sides = json_object();
    for (int side = 0; side < s->sc->nsides; side++) {
        int k = collect(s, 2 + side, v);
        json_t *o = tally_json(count(s, 2 + side));
        json_object_set_new(o, "vp", summary_json(summarize(v, k)));
        json_object_set_new(sides, s->sc->sides[side].id, o);
    }
    int k = collect(s, 0, v);
    json_t *len_actions = summary_json(summarize(v, k));
    k = collect(s, 1, v);
    json_t *len_turns = summary_json(summarize(v, k));
    free(v);
    json_t *a = tally_json(count(s, 0)), *b = tally_json(count(s, 1));
    json_object_set_new(a, "engine", json_string(s->label[0]));
    json_object_set_new(b, "engine", json_string(s->label[1]));
    json_t *root = json_pack(
        "{s:s, s:I, s:i, s:i, s:b, s:o, s:{s:o, s:o}, s:o, s:{s:o, s:o}, s:o}", "scenario",
        s->sc->id, "seed", (json_int_t)s->seed, "games_requested", s->n, "games_played",
        s->finished, "interrupted", (int)interrupted, "options",
        mk_options_json(s->rs, s->options), "engines", "a", a, "b", b, "sides", sides, "length",
        "actions", len_actions, "turns", len_turns, "games", games);
    json_object_set_new(root, "games_resumed", json_integer(s->resumed));
    int rc = json_dump_file(root, path, JSON_INDENT(1));
    json_decref(root);
    return rc;
}

static void csv_header_text(const study *s, char *out, size_t n)
{
    const char *s0 = s->sc->sides[0].id, *s1 = s->sc->nsides > 1 ? s->sc->sides[1].id : "side1";
    snprintf(out, n,
             "number,seed,engine_%s,engine_%s,winner,level,vp_%s,vp_%s,turns,actions,seconds,"
             "scenario,options\n", s0, s1, s0, s1);
}

static void csv_header(const study *s, FILE *f)
{
    char h[512];
    csv_header_text(s, h, sizeof h);
    fputs(h, f);
}

static void csv_line(const study *s, FILE *f, const mk_match_game *r)
{
    fprintf(f, "%d,%llu,%s,%s,%s,%s,%d,%d,%d,%ld,%.3f,%s,%s\n", r->number,
            (unsigned long long)r->seed, engine_of_side(s, r, 0), engine_of_side(s, r, 1),
            r->winner >= 0 ? s->sc->sides[r->winner].id : "", r->level, r->vp[0], r->vp[1],
            r->turns, r->actions, r->seconds, s->sc->id, s->option_ids);
}

/* The finished games in game order, written beside the file and renamed
 * over it, so that the file holds every finished game at every moment. */
static int write_csv(study *s, const char *path)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.part", path) >= (int)sizeof tmp) {
        errno = ENAMETOOLONG;
        return -1;
    }
    FILE *f = fopen(tmp, "w");
    if (!f)
        return -1;
    csv_header(s, f);
    for (int g = 0; g < s->n; g++)
        if (s->done[g])
            csv_line(s, f, &s->games[g]);
    if (fclose(f) != 0) {
        int e = errno;
        remove(tmp);
        errno = e;
        return -1;
    }
    if (s->csv_live) {
        fclose(s->csv_live);
        s->csv_live = NULL;
    }
    return rename(tmp, path);
}

static void svg_text(FILE *f, double x, double y, const char *anchor, int size, const char *fill,
                     const char *text)
{
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\" fill=\"%s\">",
            x, y, anchor, size, fill);
    for (const char *p = text; *p; p++) {
        if (*p == '<')
            fputs("&lt;", f);
        else if (*p == '>')
            fputs("&gt;", f);
        else if (*p == '&')
            fputs("&amp;", f);
        else
            fputc(*p, f);
    }
    fputs("</text>\n", f);
}

/* The chart: win rates with 95% whiskers (left), game lengths as a
 * histogram coloured by who won (right). Hand-written SVG. */
static int write_svg(const study *s, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    const int W = 960, H = 420;
    const char *col_a = "#2b6cb0", *col_b = "#c05621", *col_d = "#a0aec0";
    char buf[256];
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
               "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n", W, H, W, H);
    fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", W, H);
    snprintf(buf, sizeof buf, "%s: %s (A) vs %s (B), %d games%s, seed %llu", s->sc->id,
             s->label[0], s->label[1], s->finished, interrupted ? " (interrupted)" : "",
             (unsigned long long)s->seed);
    svg_text(f, W / 2.0, 28, "middle", 18, "#1a202c", buf);

    /* Left panel: win rate bars. */
    double px = 190, pw = 250, py = 70, rowh = 52;
    svg_text(f, px + pw / 2, 56, "middle", 14, "#2d3748", "win rate, 95% interval (Wilson)");
    struct { char name[64]; tally t; const char *col; } rows[4];
    int nrows = 0;
    snprintf(rows[nrows].name, 64, "A: %s", s->label[0]);
    rows[nrows].t = count(s, 0);
    rows[nrows++].col = col_a;
    snprintf(rows[nrows].name, 64, "B: %s", s->label[1]);
    rows[nrows].t = count(s, 1);
    rows[nrows++].col = col_b;
    for (int side = 0; side < s->sc->nsides && side < 2; side++) {
        snprintf(rows[nrows].name, 64, "side %s", s->sc->sides[side].id);
        rows[nrows].t = count(s, 2 + side);
        rows[nrows++].col = "#4a5568";
    }
    for (int i = 0; i <= 4; i++) {
        double x = px + pw * i / 4.0;
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                   "stroke-width=\"%s\"/>\n", x, py - 4, x, py + rowh * nrows,
                i == 2 ? "#718096" : "#e2e8f0", i == 2 ? "1.5" : "1");
        snprintf(buf, sizeof buf, "%d%%", i * 25);
        svg_text(f, x, py + rowh * nrows + 16, "middle", 11, "#4a5568", buf);
    }
    for (int i = 0; i < nrows; i++) {
        tally t = rows[i].t;
        double rate = t.games ? (double)t.wins / t.games : 0, lo, hi;
        double draw = t.games ? (double)t.draws / t.games : 0;
        mk_wilson(t.wins, t.games, 1.96, &lo, &hi);
        double y = py + rowh * i + 8;
        svg_text(f, px - 8, y + 18, "end", 13, "#1a202c", rows[i].name);
        fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"26\" fill=\"%s\"/>\n", px,
                y, pw * rate, rows[i].col);
        if (draw > 0)
            fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"26\" fill=\"%s\" "
                       "opacity=\"0.6\"/>\n", px + pw * rate, y, pw * draw, col_d);
        double cy = y + 13;
        fprintf(f, "<g stroke=\"#1a202c\" stroke-width=\"1.5\"><line x1=\"%.1f\" y1=\"%.1f\" "
                   "x2=\"%.1f\" y2=\"%.1f\"/><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
                   "y2=\"%.1f\"/><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/></g>\n",
                px + pw * lo, cy, px + pw * hi, cy, px + pw * lo, cy - 6, px + pw * lo, cy + 6,
                px + pw * hi, cy - 6, px + pw * hi, cy + 6);
        snprintf(buf, sizeof buf, "%.0f%% (%ld-%ld-%ld)", 100 * rate, t.wins, t.draws, t.losses);
        svg_text(f, px + pw + 8, y + 18, "start", 12, "#2d3748", buf);
    }
    svg_text(f, px, py + rowh * nrows + 36, "start", 11, "#718096",
             "bar: wins; grey: draws; whiskers: 95% interval of the win rate");

    /* Right panel: histogram of game length in actions. */
    double hx = 600, hw = 330, hy = 70, hh = 250;
    svg_text(f, hx + hw / 2, 56, "middle", 14, "#2d3748", "game length (actions)");
    double *v = malloc(sizeof *v * (size_t)(s->n + 1));
    int k = v ? collect(s, 0, v) : 0;
    summary m = summarize(v, k);
    free(v);
    enum { BINS = 16 };
    int ha[BINS] = {0}, hb[BINS] = {0}, hd[BINS] = {0}, top = 1;
    double lo = m.min, span = m.max > m.min ? m.max - m.min : 1;
    for (int g = 0; g < s->n; g++) {
        if (!s->done[g])
            continue;
        const mk_match_game *r = &s->games[g];
        int b = (int)((r->actions - lo) / span * BINS);
        b = b < 0 ? 0 : b >= BINS ? BINS - 1 : b;
        (r->winner < 0 ? hd : r->winner == r->a_side ? ha : hb)[b]++;
        if (ha[b] + hb[b] + hd[b] > top)
            top = ha[b] + hb[b] + hd[b];
    }
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#4a5568\"/>\n", hx,
            hy + hh, hx + hw, hy + hh);
    for (int b = 0; b < BINS; b++) {
        double bw = hw / BINS, x = hx + b * bw, base = hy + hh;
        int parts[3] = {ha[b], hb[b], hd[b]};
        const char *cols[3] = {col_a, col_b, col_d};
        for (int p = 0; p < 3; p++) {
            double h = hh * parts[p] / top;
            if (h <= 0)
                continue;
            fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                       "fill=\"%s\"/>\n", x + 1, base - h, bw - 2, h, cols[p]);
            base -= h;
        }
    }
    snprintf(buf, sizeof buf, "%.0f", m.min);
    svg_text(f, hx, hy + hh + 16, "start", 11, "#4a5568", buf);
    snprintf(buf, sizeof buf, "%.0f", m.max);
    svg_text(f, hx + hw, hy + hh + 16, "end", 11, "#4a5568", buf);
    snprintf(buf, sizeof buf, "%d", top);
    svg_text(f, hx - 6, hy + 10, "end", 11, "#4a5568", buf);
    snprintf(buf, sizeof buf, "median %.0f actions, mean %.1f", m.median, m.mean);
    svg_text(f, hx + hw / 2, hy + hh + 34, "middle", 12, "#2d3748", buf);
    double lx = hx;
    const char *names[3] = {"A won", "B won", "draw"};
    const char *cols[3] = {col_a, col_b, col_d};
    for (int p = 0; p < 3; p++, lx += 100) {
        fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" fill=\"%s\"/>\n", lx,
                hy + hh + 48, cols[p]);
        svg_text(f, lx + 16, hy + hh + 59, "start", 12, "#2d3748", names[p]);
    }
    fputs("</svg>\n", f);
    return fclose(f) == 0 ? 0 : -1;
}

static void print_report(const study *s)
{
    printf("%s: %d of %d games%s, A = %s, B = %s, seed %llu\n", s->sc->id, s->finished, s->n,
           interrupted ? " (interrupted)" : "", s->label[0], s->label[1],
           (unsigned long long)s->seed);
    printf("  %-22s %4s %5s %6s   %-25s %s\n", "", "wins", "draws", "losses",
           "win rate [95% CI]", "of decisive games [95% CI]");
    char name[80];
    snprintf(name, sizeof name, "A %s", s->label[0]);
    print_tally(name, count(s, 0));
    snprintf(name, sizeof name, "B %s", s->label[1]);
    print_tally(name, count(s, 1));
    for (int side = 0; side < s->sc->nsides; side++) {
        snprintf(name, sizeof name, "side %s", s->sc->sides[side].id);
        print_tally(name, count(s, 2 + side));
    }
    double *v = malloc(sizeof *v * (size_t)(s->n + 1));
    if (!v)
        return;
    for (int side = 0; side < s->sc->nsides; side++) {
        summary m = summarize(v, collect(s, 2 + side, v));
        printf("  VP %-19s mean %.2f  median %.1f  min %.0f  max %.0f  sd %.2f\n",
               s->sc->sides[side].id, m.mean, m.median, m.min, m.max, m.sd);
    }
    summary m = summarize(v, collect(s, 0, v));
    printf("  length (actions)       mean %.1f  median %.1f  min %.0f  max %.0f  sd %.1f\n", m.mean,
           m.median, m.min, m.max, m.sd);
    m = summarize(v, collect(s, 1, v));
    printf("  length (turns)         mean %.2f  median %.1f  min %.0f  max %.0f\n", m.mean,
           m.median, m.min, m.max);
    int unfinished = 0;
    double secs = 0;
    for (int g = 0; g < s->n; g++)
        if (s->done[g]) {
            unfinished += !s->games[g].finished;
            secs += s->games[g].seconds;
        }
    if (unfinished)
        printf("  %d game(s) stopped unfinished at %ld actions (counted as draws)\n", unfinished,
               s->max_actions);
    printf("  %.1f s of play in all, %.2f s a game\n", secs, s->finished ? secs / s->finished : 0);
    free(v);
}

static void usage(FILE *f)
{
    fprintf(f,
        "usage: musket sim SCENARIO -n N --a ENGINE --b ENGINE [options]\n"
        "\n"
        "Plays N games of engine A against engine B, A on the first side in even\n"
        "games and on the second in odd ones, and reports each engine's and each\n"
        "side's wins, draws and win rate with a 95%% Wilson interval, the VP and\n"
        "game-length distributions. Each game's seed comes from the study seed and\n"
        "the game's number, so a study is reproducible in any order and with any\n"
        "number of threads (with iteration budgets). Ctrl-C stops after the games in\n"
        "progress and reports what finished; twice, it stops at once, the games in\n"
        "progress left out.\n"
        "\n"
        "ENGINE: random, greedy, mcts, or a difficulty: easy, normal, hard (mcts\n"
        "  at 100, 300, 1000 ms a move).\n"
        "options:\n"
        "  --seed S            study seed (default 1)\n"
        "  --budget-ms B       mcts time per move, both engines\n"
        "  --iterations I      mcts iterations per move, both engines (default %d)\n"
        "  --a-budget-ms B, --a-iterations I, --b-budget-ms B, --b-iterations I\n"
        "                      the same for one engine (e.g. 4x against 1x)\n"
        "  --samples K         greedy's dice samples per action (default 8)\n"
        "  --rollout-depth D   mcts: D guided actions after the tree, then the evaluation,\n"
        "                      or 'horizon': to the start of the next turn of the side\n"
        "                      whose turn it is (default: the ruleset's, docs/ai.md)\n"
        "  --rollout-k K       mcts: random actions a rollout step looks at, the best by\n"
        "                      the evaluation played (default: the ruleset's, docs/ai.md)\n"
        "  --exploration P     mcts: UCB constant in hundredths (default %.0f)\n"
        "  --tree-depth D      mcts: most tree actions before a rollout (1: flat, 0: no\n"
        "                      limit; default: the ruleset's, docs/ai.md)\n"
        "  --threads T         games played at once, one per thread (default 1)\n"
        "  --search-threads T  mcts: each move searched on T threads at once (root\n"
        "                      parallelism; default 1), so a game uses T cores\n"
        "  --option ID         turn an optional rule on (repeatable)\n"
        "  --max-actions M     stop a game after M actions, as a draw (default %d)\n"
        "  --json F, --csv F   every game's number, seed, engines, winner, VP, length\n"
        "  --svg F             a chart: win rates with intervals, game-length histogram\n"
        "  --resume F          go on with the study whose --csv is F (the same command):\n"
        "                      its games are counted, not played again, and F goes on\n"
        "                      with the rest (unless --csv names another file)\n"
        "  --quiet             no progress on stderr\n"
        "example:\n"
        "  musket sim htl/tutorial -n 100 --a mcts --b greedy --budget-ms 200 --threads 2 \\\n"
        "      --svg study.svg --json study.json\n",
        MK_MCTS_DEFAULT_ITERATIONS, MK_MCTS_C * 100,
        MK_MATCH_MAX_ACTIONS);
#ifdef MUSKET_MPI
    fprintf(f,
        "\n"
        "This is musket-mpi: under mpirun (or srun) the games are shared among the\n"
        "ranks, rank 0 handing out game numbers on request and playing too, and\n"
        "rank 0 writes the outputs, the same game by game as the one-process sim.\n"
        "--threads T then plays T games at once on each rank. Ctrl-C on mpirun (or\n"
        "a rank that dies) reports the games finished so far at once; SIGINT sent\n"
        "to rank 0 alone lets the games in progress finish first.\n"
        "  --rank-timeout S    a rank silent this long is lost: report, end (default %d)\n"
        "example:\n"
        "  mpirun -np 8 musket-mpi sim htl/trenton -n 1000 --a mcts --b greedy \\\n"
        "      --iterations 2000 --csv study.csv\n"
        "docs/sim-mpi.md: one machine, a hostfile, Slurm.\n",
        SIM_RANK_TIMEOUT);
#endif
}

static int parse_engine(const char *name, mk_ai_config *cfg)
{
    mk_ai_config_init(cfg);
    int e = mk_ai_engine_parse(name);
    if (e >= 0) {
        cfg->engine = e;
        return 0;
    }
    return mk_ai_difficulty(cfg, name);
}

static bool parse_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

/* Setup messages go to stderr, except on MPI ranks other than 0: they
 * keep theirs (every rank parses the same command line, so rank 0 says it
 * once) and print them only when rank 0's setup went through, as when a
 * scenario file is missing on one host. */
static bool hold_errors;
static char held_error[512];

static void errf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (hold_errors) {
        size_t k = strlen(held_error);
        vsnprintf(held_error + k, sizeof held_error - k, fmt, ap);
    } else {
        vfprintf(stderr, fmt, ap);
    }
    va_end(ap);
}

/* Splits a CSV line (its newline cut off) at its commas, in place; returns
 * the number of fields, at most max (more: max + 1). */
static int csv_fields(char *line, char **field, int max)
{
    int k = 0;
    for (char *p = line;;) {
        if (k == max)
            return max + 1;
        field[k++] = p;
        p = strchr(p, ',');
        if (!p)
            return k;
        *p++ = 0;
    }
}

/* --resume F: the games of an earlier run of this same study, read from
 * the CSV it wrote (--csv; a run stopped with Ctrl-C, killed, or lost with
 * its machine keeps every game that finished), counted and not played
 * again. Each game's line is checked against this command: its scenario
 * and optional rules, its seed (the study seed's for that number), its
 * engines (A on the first side in even games: the engines, their budgets
 * and the knobs given, as the engine's label names them) and its length
 * against --max-actions. Every line must pass or
 * nothing is read, and the file is not touched until the study starts. A
 * last line without its newline (a run killed as it wrote) is left out and
 * its game played again. Returns 0 or 2 (said). */
static int resume_read(study *s, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        errf("musket sim: --resume: cannot read %s: %s\n", path, strerror(errno));
        return 2;
    }
    char line[1024], want[512];
    csv_header_text(s, want, sizeof want);
    if (!fgets(line, sizeof line, f) || strcmp(line, want) != 0) {
        want[strcspn(want, "\n")] = 0;
        errf("musket sim: --resume: %s is not a CSV of a study of %s (its first line should be "
             "'%s')\n", path, s->sc->id, want);
        fclose(f);
        return 2;
    }
    int at = 1, rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        at++;
        size_t len = strlen(line);   /* (0 only for a NUL byte: not a game's line, below) */
        if (len && line[len - 1] != '\n') {
            if (len < sizeof line - 1 && feof(f)) {
                fprintf(stderr, "musket sim: --resume: %s: line %d is cut short (the run was "
                                "stopped as it wrote it): left out, its game played again\n",
                        path, at);
                break;
            }
            errf("musket sim: --resume: %s: line %d is too long\n", path, at);
            rc = 2;
            break;
        }
        if (len)
            line[len - 1] = 0;
        char *fl[13], *end, *secs_end = NULL;
        long number, vp0, vp1, turns, actions;
        mk_match_game r;
        memset(&r, 0, sizeof r);
        if (csv_fields(line, fl, 13) != 13 || !parse_long(fl[0], 0, 0x7fffffff, &number) ||
            !parse_long(fl[6], -1000000, 1000000, &vp0) ||
            !parse_long(fl[7], -1000000, 1000000, &vp1) ||
            !parse_long(fl[8], 0, 1000000, &turns) ||
            !parse_long(fl[9], 0, 0x7fffffffL, &actions) || strlen(fl[5]) >= sizeof r.level ||
            (r.seconds = strtod(fl[10], &secs_end), secs_end == fl[10] || *secs_end)) {
            errf("musket sim: --resume: %s: line %d is not a game's line of this CSV\n", path,
                 at);
            rc = 2;
            break;
        }
        r.number = (int)number;
        errno = 0;
        r.seed = strtoull(fl[1], &end, 10);
        r.a_side = r.number & 1;   /* as mk_match_play */
        r.winner = -1;
        for (int side = 0; side < s->sc->nsides && fl[4][0]; side++)
            if (strcmp(fl[4], s->sc->sides[side].id) == 0)
                r.winner = side;
        snprintf(r.level, sizeof r.level, "%s", fl[5]);
        r.finished = strcmp(r.level, "unfinished") != 0;
        r.vp[0] = (int)vp0;
        r.vp[1] = (int)vp1;
        r.turns = (int)turns;
        r.actions = actions;
        if (strcmp(fl[11], s->sc->id) != 0 || strcmp(fl[12], s->option_ids) != 0) {
            errf("musket sim: --resume: %s: line %d: game %d is of %s%s%s, this study of %s%s%s\n",
                 path, at, r.number, fl[11], fl[12][0] ? " with " : "", fl[12], s->sc->id,
                 s->option_ids[0] ? " with " : "", s->option_ids);
            rc = 2;
        } else if (r.number >= s->n) {
            errf("musket sim: --resume: %s: line %d is game %d, and this study has %d (-n)\n",
                 path, at, r.number, s->n);
            rc = 2;
        } else if (errno || *end || r.seed != mk_match_seed(s->seed, r.number)) {
            errf("musket sim: --resume: %s: line %d: game %d's seed %s is not that of game %d "
                 "of --seed %llu (the CSV is of another study)\n", path, at, r.number, fl[1],
                 r.number, (unsigned long long)s->seed);
            rc = 2;
        } else if (strcmp(fl[2], engine_of_side(s, &r, 0)) != 0 ||
                   strcmp(fl[3], engine_of_side(s, &r, 1)) != 0) {
            errf("musket sim: --resume: %s: line %d: game %d was played by %s against %s, "
                 "not by this study's engines (%s against %s)\n", path, at, r.number, fl[2],
                 fl[3], engine_of_side(s, &r, 0), engine_of_side(s, &r, 1));
            rc = 2;
        } else if (r.finished ? r.actions > s->max_actions : r.actions != s->max_actions) {
            /* A game is played alike under any --max-actions it finished
             * within, and one stopped unfinished only under the same. */
            errf("musket sim: --resume: %s: line %d: game %d %s after %ld actions, which "
                 "--max-actions %ld would not give (the CSV is of another study)\n", path, at,
                 r.number, r.finished ? "ended" : "was stopped", r.actions, s->max_actions);
            rc = 2;
        } else if (r.winner < 0 && fl[4][0]) {
            errf("musket sim: --resume: %s: line %d: no side '%s' in %s\n", path, at, fl[4],
                 s->sc->id);
            rc = 2;
        } else if (s->done[r.number]) {
            errf("musket sim: --resume: %s: line %d: game %d twice\n", path, at, r.number);
            rc = 2;
        } else {
            keep_game(s, &r);
        }
    }
    if (rc == 0 && ferror(f)) {
        errf("musket sim: --resume: cannot read %s: %s\n", path, strerror(errno));
        rc = 2;
    }
    fclose(f);
    s->resumed = s->finished;
    return rc;
}

typedef struct sim_args {
    const char *json, *csv, *svg, *resume;
    long threads, rank_timeout;
} sim_args;

#define SIM_HELP (-1)

static void study_free(study *s)
{
    if (!s)
        return;
    free(s->games);
    free(s->done);
    if (s->csv_live)
        fclose(s->csv_live);
    if (s->sc)
        mk_scenario_free(s->sc);
    free(s);
}

/* Appends to an engine's name (cut to its buffer, as every message). */
static void label_add(char *label, size_t cap, const char *fmt, ...)
{
    size_t l = strlen(label);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(label + l, cap - l, fmt, ap);
    va_end(ap);
}

/* Parses the command line and sets up the study. root: this process
 * writes the outputs (and talks). Returns 0 with *out set, SIM_HELP once
 * the help is shown, 2 for a usage error, 1 for a failure. */
static int setup(int argc, char **argv, bool root, study **out, sim_args *o)
{
    const char *scenario = NULL;
    const char *eng[2] = {NULL, NULL};
    long rollout = -1, explore_pct = -1, tree_depth = -1, rollout_k = -1, search_threads = 1;
    long n = 0, seed = 1, max_actions = MK_MATCH_MAX_ACTIONS, samples = 8;
    long budget[2] = {-1, -1}, iters[2] = {-1, -1}, all_budget = -1, all_iters = -1;
    const char *option_ids[MK_MAX_OPTIONS];
    int noptions = 0;
    bool quiet = false;
    memset(o, 0, sizeof *o);
    o->threads = 1;
    o->rank_timeout = SIM_RANK_TIMEOUT;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        long *target = NULL, lo = 0, hi = 0;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            if (root)
                usage(stdout);
            return SIM_HELP;
        } else if (strcmp(a, "--quiet") == 0) {
            quiet = true;
            continue;
        } else if (a[0] != '-') {
            if (scenario) {
                errf("musket sim: unexpected argument '%s'\n", a);
                return 2;
            }
            scenario = a;
            continue;
        }
        if (!v) {
            errf("musket sim: %s needs a value (see musket sim --help)\n", a);
            return 2;
        }
        i++;
        if (strcmp(a, "--a") == 0 || strcmp(a, "--b") == 0)
            eng[a[2] == 'b'] = v;
        else if (strcmp(a, "--json") == 0)
            o->json = v;
        else if (strcmp(a, "--csv") == 0)
            o->csv = v;
        else if (strcmp(a, "--svg") == 0)
            o->svg = v;
        else if (strcmp(a, "--resume") == 0) {
#ifdef MUSKET_MPI
            errf("musket sim: --resume is for the one-process musket sim, not musket-mpi\n");
            return 2;
#else
            o->resume = v;
#endif
        }
        else if (strcmp(a, "--option") == 0) {
            if (noptions < MK_MAX_OPTIONS)
                option_ids[noptions++] = v;
        } else if (strcmp(a, "-n") == 0)
            target = &n, lo = 1, hi = SIM_MAX_GAMES;
        else if (strcmp(a, "--seed") == 0)
            target = &seed, lo = 0, hi = 0x7fffffffffffffffL;
        else if (strcmp(a, "--threads") == 0)
            target = &o->threads, lo = 1, hi = SIM_MAX_THREADS;
        else if (strcmp(a, "--search-threads") == 0)
            target = &search_threads, lo = 1, hi = MK_AI_THREADS_MAX;
        else if (strcmp(a, "--max-actions") == 0)
            target = &max_actions, lo = 1, hi = 100000000;
        else if (strcmp(a, "--rollout-depth") == 0 && strcmp(v, "horizon") == 0)
            rollout = MK_ROLLOUT_HORIZON;
        else if (strcmp(a, "--rollout-depth") == 0)
            target = &rollout, lo = 0, hi = 10000;
        else if (strcmp(a, "--rollout-k") == 0)
            target = &rollout_k, lo = 1, hi = MK_MAX_ACTIONS;
        else if (strcmp(a, "--exploration") == 0)
            target = &explore_pct, lo = 0, hi = 1000;
        else if (strcmp(a, "--tree-depth") == 0)
            target = &tree_depth, lo = 0, hi = 10000;
        else if (strcmp(a, "--samples") == 0)
            target = &samples, lo = 1, hi = 1000;
        else if (strcmp(a, "--budget-ms") == 0)
            target = &all_budget, lo = 1, hi = 600000;
        else if (strcmp(a, "--iterations") == 0)
            target = &all_iters, lo = 1, hi = 100000000;
        else if (strcmp(a, "--a-budget-ms") == 0 || strcmp(a, "--b-budget-ms") == 0)
            target = &budget[a[2] == 'b'], lo = 1, hi = 600000;
        else if (strcmp(a, "--a-iterations") == 0 || strcmp(a, "--b-iterations") == 0)
            target = &iters[a[2] == 'b'], lo = 1, hi = 100000000;
#ifdef MUSKET_MPI
        else if (strcmp(a, "--rank-timeout") == 0)
            target = &o->rank_timeout, lo = 1, hi = 7 * 86400;
#endif
        else {
            errf("musket sim: unknown option '%s' (see musket sim --help)\n", a);
            return 2;
        }
        if (target && !parse_long(v, lo, hi, target)) {
            errf("musket sim: %s: '%s' is not a whole number from %ld to %ld%s\n", a, v, lo, hi,
                 target == &rollout ? " (or 'horizon')" : "");
            return 2;
        }
    }
    if (!scenario || n < 1 || !eng[0] || !eng[1]) {
        errf("musket sim: needs SCENARIO, -n N, --a ENGINE and --b ENGINE\n\n");
        if (!hold_errors)
            usage(stderr);
        return 2;
    }
    study *s = calloc(1, sizeof *s);
    if (!s)
        return 1;
    for (int k = 0; k < 2; k++) {
        if (parse_engine(eng[k], &s->cfg[k]) != 0) {
            errf("musket sim: --%c: unknown engine '%s' (random, greedy, mcts, easy, "
                 "normal, hard)\n", 'a' + k, eng[k]);
            free(s);
            return 2;
        }
        mk_ai_config *c = &s->cfg[k];
        /* One engine's own budget first, then the one for both. */
        if (budget[k] > 0 || (iters[k] <= 0 && all_budget > 0)) {
            c->budget_ms = (int)(budget[k] > 0 ? budget[k] : all_budget);
            c->iterations = 0;
        } else if (iters[k] > 0 || all_iters > 0) {
            c->iterations = (int)(iters[k] > 0 ? iters[k] : all_iters);
            c->budget_ms = 0;
        }
        c->samples = (int)samples;
        if (rollout >= 0 || rollout == MK_ROLLOUT_HORIZON)
            c->rollout_depth = (int)rollout;
        if (explore_pct >= 0)
            c->exploration = explore_pct / 100.0;
        if (tree_depth >= 0)
            c->tree_depth = (int)tree_depth;
        if (rollout_k > 0)
            c->rollout_k = (int)rollout_k;
        c->threads = c->engine == MK_AI_MCTS ? (int)search_threads : 1;   /* (only mcts searches) */
        /* The engine's name says its budget and every knob given, so that
         * the report tells studies apart and --resume can check them. */
        char *lb = s->label[k];
        size_t cap = sizeof s->label[k];
        lb[0] = 0;
        if (c->engine == MK_AI_MCTS) {
            if (c->budget_ms > 0)
                label_add(lb, cap, "mcts %d ms", c->budget_ms);
            else
                label_add(lb, cap, "mcts %d it",
                          c->iterations > 0 ? c->iterations : MK_MCTS_DEFAULT_ITERATIONS);
            if (c->tree_depth == 0 || c->tree_depth == 1)
                label_add(lb, cap, c->tree_depth ? " flat" : " full tree");
            else if (c->tree_depth > 1)
                label_add(lb, cap, " tree %d", c->tree_depth);
            if (c->rollout_depth >= 0)
                label_add(lb, cap, " rollout %d", c->rollout_depth);
            else if (c->rollout_depth == MK_ROLLOUT_HORIZON)
                label_add(lb, cap, " horizon");
            if (c->rollout_k > 0)
                label_add(lb, cap, " k %d", c->rollout_k);
            if (explore_pct >= 0)
                label_add(lb, cap, " exploration %ld", explore_pct);
            if (c->threads > 1)
                label_add(lb, cap, " %d threads", c->threads);
        } else {
            mk_ai_config dflt;
            mk_ai_config_init(&dflt);
            label_add(lb, cap, "%s", mk_ai_engine_name(c->engine));
            if (c->engine == MK_AI_GREEDY && c->samples != dflt.samples)
                label_add(lb, cap, " samples %d", c->samples);
        }
    }
    int nrs;
    const mk_ruleset *const *rss = mk_rulesets(&nrs);
    mk_error err;
    mk_error_clear(&err);
    s->sc = mk_catalog_load(scenario, rss, nrs, &err);
    if (!s->sc) {
        errf("musket sim: %s\n", err.msg);
        free(s);
        return 2;
    }
    s->rs = s->sc->rs;
    for (int k = 0; k < noptions; k++) {
        int opt = mk_ruleset_option(s->rs, option_ids[k]);
        if (opt < 0) {
            errf("musket sim: --option: '%s' is not an optional rule of %s\n", option_ids[k],
                 s->rs->id);
            study_free(s);
            return 2;
        }
        s->options |= 1ull << opt;
    }
    for (int i = 0; i < s->rs->noptions && i < 64; i++)
        if (s->options >> i & 1) {
            size_t l = strlen(s->option_ids);
            snprintf(s->option_ids + l, sizeof s->option_ids - l, "%s%s", l ? "+" : "",
                     s->rs->options[i].id);
        }
    if (s->rs->check_options && s->rs->check_options(s->options, &err) != 0) {
        errf("musket sim: %s\n", err.msg);
        study_free(s);
        return 2;
    }
    s->seed = (uint64_t)seed;
    s->n = (int)n;
    s->max_actions = max_actions;
    /* Only the process that reports keeps every game (other MPI ranks
     * send theirs on). */
    size_t keep = root ? (size_t)n : 1;
    s->games = calloc(keep, sizeof *s->games);
    s->done = calloc(keep, 1);
    if (!s->games || !s->done) {
        errf("musket sim: out of memory\n");
        study_free(s);
        return 1;
    }
    s->quiet = quiet || !root;
    s->tty = !s->quiet && isatty(STDERR_FILENO);
    if (root && o->resume) {
        if (resume_read(s, o->resume) != 0) {
            study_free(s);
            return 2;
        }
        if (!o->csv)
            o->csv = o->resume;   /* the study goes on in its own file */
        if (!s->quiet)
            fprintf(stderr, "musket sim: resuming: %d of the %d games read from %s, %d to play\n",
                    s->resumed, s->n, o->resume, s->n - s->resumed);
    }
    /* The CSV is opened now: a path that cannot be written is said before
     * hours of games, not after them. With resumed games it starts with
     * them, written whole beside it and renamed over it (the file may be
     * the one they were read from). */
    if (root && o->csv) {
        if (s->resumed && write_csv(s, o->csv) != 0) {
            errf("musket sim: --csv: cannot write %s: %s\n", o->csv, strerror(errno));
            study_free(s);
            return 2;
        }
        s->csv_live = fopen(o->csv, s->resumed ? "a" : "w");
        if (!s->csv_live) {
            errf("musket sim: --csv: cannot write %s: %s\n", o->csv, strerror(errno));
            study_free(s);
            return 2;
        }
        if (!s->resumed)
            csv_header(s, s->csv_live);
        fflush(s->csv_live);
    }
    *out = s;
    return 0;
}

int mk_cli_sim(int argc, char **argv)
{
    int rank = 0, size = 1;
#ifdef MUSKET_MPI
    int how = MK_SIM_MPI_DONE;
    if (mk_sim_mpi_init(&rank, &size) != 0)
        return 1;
#else
    (void)size;
#endif
    hold_errors = rank != 0;
    held_error[0] = 0;
    study *s = NULL;
    sim_args o;
    int rc = setup(argc, argv, rank == 0, &s, &o);
#ifdef MUSKET_MPI
    /* Every rank must be able to play, or none starts. */
    int rc0 = rc, all = mk_sim_mpi_agree(rc, &rc0);
    if (all != 0) {
        if (rank != 0 && rc > 0 && rc0 <= 0)
            fprintf(stderr, "[rank %d] %s", rank, held_error);
        if (rank == 0 && rc == 0)
            fprintf(stderr, "musket sim: another rank could not set up the study (its message "
                            "is above or below)\n");
        study_free(s);
        return mk_sim_mpi_end(MK_SIM_MPI_DONE, all > 0 ? all : 0);
    }
#endif
    if (rc != 0) {
        study_free(s);
        return rc == SIM_HELP ? 0 : rc;
    }
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->tick, NULL);
    s->t0 = now_s();
    interrupted = abandon = abandon_ok = 0;
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old);
    pthread_t tick_tid;
    bool ticking = !s->quiet && pthread_create(&tick_tid, NULL, ticker, s) == 0;
    if (ticking) {
        pthread_mutex_lock(&s->lock);
        progress(s, false, false);   /* 0/N at once: the study has started */
        pthread_mutex_unlock(&s->lock);
    }

#ifdef MUSKET_MPI
    if (size > 1) {
        mk_sim_mpi_hooks h = {.ctx = s,
                              .n = s->n,
                              .players = (int)o.threads,
                              .rank_timeout = (double)o.rank_timeout,
                              .quiet = s->quiet,
                              .interrupted = &interrupted,
                              .play = play_game,
                              .record = record_game,
                              .fail = record_failure};
        how = mk_sim_mpi_run(&h);
        if (rank != 0) {
            sigaction(SIGINT, &old, NULL);   /* (quiet: no ticker on this rank) */
            if (how == MK_SIM_MPI_DONE) {
                pthread_mutex_destroy(&s->lock);
                pthread_cond_destroy(&s->tick);
                study_free(s);
            }
            return mk_sim_mpi_end(how, 0);
        }
        if (how != MK_SIM_MPI_DONE)
            interrupted = 1;   /* the study ended early: the outputs say so */
    } else
#endif
    {
        long threads = o.threads > s->n ? s->n : o.threads;
        abandon_ok = 1;
        pthread_t tid[SIM_MAX_THREADS];
        int started = 0;
        for (int t = 1; t < threads; t++)
            if (pthread_create(&tid[started], NULL, worker, s) == 0)
                started++;
        worker(s);
        for (int t = 0; t < started; t++)
            pthread_join(tid[t], NULL);
    }
    sigaction(SIGINT, &old, NULL);
    if (ticking) {
        pthread_mutex_lock(&s->lock);
        s->ticker_stop = true;
        pthread_cond_signal(&s->tick);
        pthread_mutex_unlock(&s->lock);
        pthread_join(tick_tid, NULL);
    }
    /* Held to the end: under MPI, when the study ends early, players of
     * this rank may still be finishing a game. */
    pthread_mutex_lock(&s->lock);
    if (!s->quiet)
        say_notices(s, true);
    progress(s, true, false);
    rc = 0;
    if (s->failed) {
        fprintf(stderr, "musket sim: %s\n", s->error);
        rc = 1;
    }
    const char *games = s->finished == 1 ? "game" : "games";
#ifdef MUSKET_MPI
    if (how == MK_SIM_MPI_TERMINATED)
        fprintf(stderr, "musket sim: mpirun is ending the job (Ctrl-C, or a rank died): "
                        "reporting the %d %s that finished\n", s->finished, games);
    else if (how == MK_SIM_MPI_LOST)
        fprintf(stderr, "musket sim: ending the job: reporting the %d %s that finished\n",
                s->finished, games);
    else
#endif
    if (interrupted)
        fprintf(stderr, "musket sim: interrupted: reporting the %d %s that finished%s\n",
                s->finished, games, abandon ? " (those in progress left out)" : "");
    /* The report first, flushed: when mpirun ends the job it kills this
     * process a few seconds after its SIGTERM (docs/sim-mpi.md), and on a
     * loaded machine they can run out. The CSV needs no hurry: it already
     * holds every finished game, a line each. */
    print_report(s);
    fflush(stdout);
    if (o.json && write_json(s, o.json) != 0) {
        fprintf(stderr, "musket sim: cannot write %s\n", o.json);
        rc = 1;
    }
    if (o.csv && write_csv(s, o.csv) != 0) {
        fprintf(stderr, "musket sim: cannot write %s: %s\n", o.csv, strerror(errno));
        rc = 1;
    }
    if (o.svg && write_svg(s, o.svg) != 0) {
        fprintf(stderr, "musket sim: cannot write %s: %s\n", o.svg, strerror(errno));
        rc = 1;
    }
    rc = rc ? rc : interrupted ? 130 : 0;
#ifdef MUSKET_MPI
    if (how != MK_SIM_MPI_DONE)
        return mk_sim_mpi_end(how, rc);   /* does not return */
#endif
    pthread_mutex_unlock(&s->lock);
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->tick);
    study_free(s);
#ifdef MUSKET_MPI
    return mk_sim_mpi_end(MK_SIM_MPI_DONE, rc);
#else
    return rc;
#endif
}
