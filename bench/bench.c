/* bench.c - `musket-bench`: speed figures per built-in scenario (a
 * benchmark, not a test): random playouts and actions per second on one
 * core, bytes per game state, MCTS iterations per second; and a fixed
 * workload for callgrind (instructions per applied action).
 *
 *   musket-bench [--runs R] [--seconds S] [--scenario ID]
 *   valgrind --tool=callgrind --toggle-collect=callgrind_actions \
 *       musket-bench --callgrind ID N
 * Figures are medians of R runs (default 5) of S seconds each (0.5). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ai/ai.h"
#include "core/catalog.h"
#include "rules/rules.h"

#define MAX_RUNS 31
#define GAME_CAP 100000   /* actions: a game longer than this is cut */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* One random playout from init (a memcpy clone, fresh dice from seed) to
 * the end of the game. Returns the actions applied. */
static long playout(const mk_ruleset *rs, const mk_scenario *sc, const void *init, void *st,
                    mk_action *acts, uint64_t seed)
{
    memcpy(st, init, rs->state_size);
    mk_rng_seed(&mk_state_head(st)->rng, seed);
    mk_rng pick;
    mk_rng_seed(&pick, ~seed);
    mk_events sink;
    mk_error err;
    long n = 0;
    while (!rs->over(st) && n < GAME_CAP) {
        int k = rs->legal(st, sc, acts, MK_MAX_ACTIONS);
        if (k <= 0)
            break;
        mk_events_init(&sink, NULL, 0);
        if (rs->apply(st, sc, &acts[mk_rng_below(&pick, (uint32_t)k)], &sink, &err) != 0)
            break;
        n++;
    }
    return n;
}

/* The callgrind workload: random playouts until `actions` actions have
 * been applied. Not inlined, so that --toggle-collect can name it. */
__attribute__((noinline)) long callgrind_actions(const mk_ruleset *rs, const mk_scenario *sc,
                                                 const void *init, void *st, mk_action *acts,
                                                 long actions);
__attribute__((noinline)) long callgrind_actions(const mk_ruleset *rs, const mk_scenario *sc,
                                                 const void *init, void *st, mk_action *acts,
                                                 long actions)
{
    memcpy(st, init, rs->state_size);
    mk_rng pick;
    mk_rng_seed(&pick, 12345);
    mk_events sink;
    mk_error err;
    long n = 0, games = 0;
    while (n < actions) {
        int k = rs->over(st) ? 0 : rs->legal(st, sc, acts, MK_MAX_ACTIONS);
        if (k <= 0) {
            memcpy(st, init, rs->state_size);
            mk_rng_seed(&mk_state_head(st)->rng, (uint64_t)++games);
            continue;
        }
        mk_events_init(&sink, NULL, 0);
        if (rs->apply(st, sc, &acts[mk_rng_below(&pick, (uint32_t)k)], &sink, &err) != 0)
            break;
        n++;
    }
    return n;
}

/* --digest: the same workload as --callgrind, hashing every legal list and
 * every state reached (FNV-1a), so that a faster ruleset can be checked to
 * list and apply exactly what the slower one did. */
static uint64_t digest_actions(const mk_ruleset *rs, const mk_scenario *sc, const void *init,
                               void *st, mk_action *acts, long actions)
{
    memcpy(st, init, rs->state_size);
    mk_rng pick;
    mk_rng_seed(&pick, 12345);
    mk_events sink;
    mk_error err;
    uint64_t h = MK_HASH_INIT;
    long n = 0, games = 0;
    while (n < actions) {
        int k = rs->over(st) ? 0 : rs->legal(st, sc, acts, MK_MAX_ACTIONS);
        h = mk_hash_bytes(h, &k, sizeof k);
        for (int i = 0; i < k; i++) {
            mk_action a = acts[i];
            for (int j = a.npath; j < MK_PATH_MAX; j++)
                a.path[j] = 0;
            h = mk_hash_bytes(h, &a, sizeof a);
        }
        if (k <= 0) {
            memcpy(st, init, rs->state_size);
            mk_rng_seed(&mk_state_head(st)->rng, (uint64_t)++games);
            continue;
        }
        mk_events_init(&sink, NULL, 0);
        if (rs->apply(st, sc, &acts[mk_rng_below(&pick, (uint32_t)k)], &sink, &err) != 0)
            break;
        uint64_t sh = rs->hash(st, sc);
        h = mk_hash_bytes(h, &sh, sizeof sh);
        n++;
    }
    return h;
}

/* --move-time: a game of `level` (a difficulty's config) against greedy
 * from the opening, greedy playing both sides for the first `after`
 * actions; then `level` plays the side to move and the first `moves` of
 * its moves with a choice (2 or more legal actions: one is answered
 * without a search) are timed, wall clock, the engine's memory reserved
 * beforehand as `musket sim` and `musket play` do. Returns how many were
 * timed (fewer if the game ends first), or -1 on an engine's or apply's
 * failure (err filled). */
static int move_times(const mk_ruleset *rs, const mk_scenario *sc, const mk_ai_config *level,
                      int moves, long after, mk_action *acts, double *secs, mk_error *err)
{
    void *st = calloc(1, rs->state_size);
    if (!st || rs->init(st, sc, 0, 7, NULL, err) != 0) {
        if (!st)
            mk_error_set(err, "internal", "out of memory");
        free(st);
        return -1;
    }
    mk_ai_config greedy;
    mk_ai_config_init(&greedy);
    greedy.engine = MK_AI_GREEDY;
    mk_ai_reserve(rs, level);
    int timed = 0, side = -1;
    for (long n = 0; !rs->over(st) && timed < moves; n++) {
        int to_move = rs->to_move(st);
        if (n >= after && side < 0)
            side = to_move;
        bool ours = to_move == side;
        mk_ai_config c = ours ? *level : greedy;
        c.seed = 7 + (uint64_t)n * 0x9e3779b97f4a7c15ull;   /* a seed per move, as musket sim gives */
        bool choice = ours && rs->legal(st, sc, acts, MK_MAX_ACTIONS) > 1;
        mk_action a;
        double t0 = now_s();
        if (mk_ai_pick(rs, sc, st, &c, &a) != 0) {
            mk_error_set(err, "internal", "%s found no action at action %ld", mk_ai_engine_name(c.engine), n);
            timed = -1;
            break;
        }
        if (choice)
            secs[timed++] = now_s() - t0;
        mk_events sink;
        mk_events_init(&sink, NULL, 0);
        if (rs->apply(st, sc, &a, &sink, err) != 0) {
            timed = -1;
            break;
        }
    }
    free(st);
    return timed;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: musket-bench [--runs R] [--seconds S] [--scenario ID] [--mcts-iterations I]\n"
            "       musket-bench --callgrind ID ACTIONS\n"
            "       musket-bench --digest ID ACTIONS [--options MASK]\n"
            "       musket-bench --move-time LEVEL [--moves N] [--after A] [--scenario ID]\n\n"
            "Per built-in scenario: random playouts per second and actions per second on\n"
            "one core (raw states, memcpy clones), bytes per game state, and MCTS\n"
            "iterations per second from the opening position; medians of R runs (5) of\n"
            "S seconds (0.5). --callgrind plays ACTIONS random actions of scenario ID for\n"
            "  valgrind --tool=callgrind --toggle-collect=callgrind_actions \\\n"
            "      musket-bench --callgrind htl/tutorial 200000\n"
            "instructions per applied action = callgrind's total (Ir) / ACTIONS.\n"
            "--digest plays the same actions and prints a hash of every legal list and\n"
            "state (two builds that print the same digest list and apply alike).\n"
            "--move-time times how long difficulty LEVEL (easy, normal, hard) thinks: per\n"
            "scenario, a game of LEVEL against greedy, the first N (10) of its moves with\n"
            "a choice, after A (0) actions of greedy against greedy; the longest and\n"
            "median seconds, and how many went past the level's budget.\n");
}

/* The number that is all of s, in [lo, hi] and whole if asked, or a
 * message naming opt and s and false (atoi reads "abc" as 0, "12x" as 12). */
static bool number(const char *opt, const char *s, double lo, double hi, bool whole, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !(v >= lo && v <= hi) || (whole && v != (double)(long long)v)) {
        fprintf(stderr, "musket-bench: %s: '%s' is not a %s from %.15g to %.15g\n", opt, s,
                whole ? "whole number" : "number", lo, hi);
        return false;
    }
    *out = v;
    return true;
}

int main(int argc, char **argv)
{
    int runs = 5, mcts_iterations = 2000;
    double seconds = 0.5;
    const char *only = NULL, *cg_id = NULL;
    int digest = 0;
    uint64_t options = 0;
    long cg_actions = 0, after = 0;
    const char *level_name = NULL;
    int moves = 10;
    bool move_opts = false;   /* --moves or --after given */
    for (int i = 1; i < argc; i++) {
        double v;
        if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
            if (!number("--runs", argv[++i], 1, MAX_RUNS, true, &v))
                return 2;
            runs = (int)v;
        } else if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) {
            if (!number("--seconds", argv[++i], 0.001, 3600, false, &seconds))
                return 2;
        } else if (strcmp(argv[i], "--scenario") == 0 && i + 1 < argc) {
            only = argv[++i];
        } else if (strcmp(argv[i], "--options") == 0 && i + 1 < argc) {
            char *end;
            errno = 0;
            const char *o = argv[++i];
            options = strtoull(o, &end, 0);
            if (errno || end == o || *end || *o == '-') {
                fprintf(stderr, "musket-bench: --options: '%s' is not a mask (e.g. 0x7ffff)\n", o);
                return 2;
            }
        } else if (strcmp(argv[i], "--mcts-iterations") == 0 && i + 1 < argc) {
            if (!number("--mcts-iterations", argv[++i], 1, 100000000, true, &v))
                return 2;
            mcts_iterations = (int)v;
        } else if ((strcmp(argv[i], "--callgrind") == 0 || strcmp(argv[i], "--digest") == 0) &&
                   i + 2 < argc) {
            digest = argv[i][2] == 'd';
            cg_id = argv[++i];
            if (!number("ACTIONS", argv[++i], 1, 1e12, true, &v))
                return 2;
            cg_actions = (long)v;
        } else if (strcmp(argv[i], "--move-time") == 0 && i + 1 < argc) {
            level_name = argv[++i];
        } else if (strcmp(argv[i], "--moves") == 0 && i + 1 < argc) {
            if (!number("--moves", argv[++i], 1, 10000, true, &v))
                return 2;
            moves = (int)v;
            move_opts = true;
        } else if (strcmp(argv[i], "--after") == 0 && i + 1 < argc) {
            if (!number("--after", argv[++i], 0, 1e9, true, &v))
                return 2;
            after = (long)v;
            move_opts = true;
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        } else {
            usage(stderr);
            return 2;
        }
    }
    if ((move_opts && !level_name) || (level_name && cg_id)) {
        if (level_name)
            fprintf(stderr, "musket-bench: --move-time and --%s are two runs: give one\n",
                    digest ? "digest" : "callgrind");
        else
            fprintf(stderr, "musket-bench: --moves and --after go with --move-time LEVEL\n");
        return 2;
    }
    mk_ai_config level;
    mk_ai_config_init(&level);
    if (level_name && mk_ai_difficulty(&level, level_name) != 0) {
        fprintf(stderr, "musket-bench: --move-time: '%s' is not a difficulty (easy, normal, hard)\n",
                level_name);
        return 2;
    }
    int nrs;
    const mk_ruleset *const *rss = mk_rulesets(&nrs);
    mk_action *acts = malloc(sizeof *acts * MK_MAX_ACTIONS);
    mk_error err;

    if (cg_id) {
        mk_scenario *sc = mk_catalog_load(cg_id, rss, nrs, &err);
        if (!sc) {
            fprintf(stderr, "musket-bench: %s\n", err.msg);
            free(acts);
            return 2;
        }
        const mk_ruleset *rs = sc->rs;
        void *init = calloc(1, rs->state_size), *st = calloc(1, rs->state_size);
        if (rs->init(init, sc, options, 1, NULL, &err) != 0) {
            fprintf(stderr, "musket-bench: %s\n", err.msg);
            free(init);
            free(st);
            free(acts);
            mk_scenario_free(sc);
            return 1;
        }
        if (digest) {
            printf("%s: digest of %ld random actions: %016llx\n", cg_id, cg_actions,
                   (unsigned long long)digest_actions(rs, sc, init, st, acts, cg_actions));
            free(init);
            free(st);
            free(acts);
            mk_scenario_free(sc);
            return 0;
        }
        long n = callgrind_actions(rs, sc, init, st, acts, cg_actions);
        printf("%s: %ld random actions applied (instructions per action = callgrind Ir of "
               "callgrind_actions / %ld)\n", cg_id, n, n);
        free(init);
        free(st);
        free(acts);
        mk_scenario_free(sc);
        return 0;
    }

    mk_catalog_entry *cat = malloc(sizeof *cat * MK_CATALOG_MAX);
    int ncat = mk_catalog_list(cat, MK_CATALOG_MAX, &err);
    bool known = only == NULL;
    for (int c = 0; c < ncat && !known; c++)
        known = strcmp(only, cat[c].id) == 0;
    if (ncat < 0 || !known) {
        if (ncat < 0)
            fprintf(stderr, "musket-bench: %s\n", err.msg);
        else
            fprintf(stderr, "musket-bench: --scenario: no built-in scenario '%s' (musket list names them)\n",
                    only);
        free(cat);
        free(acts);
        return ncat < 0 ? 1 : 2;
    }
    if (level_name) {
        double *secs = malloc(sizeof *secs * (size_t)moves);
        if (!secs) {
            fprintf(stderr, "musket-bench: out of memory\n");
            free(cat);
            free(acts);
            return 1;
        }
        printf("musket-bench: %s (mcts, %d ms a move, one thread) against greedy, its first %d moves "
               "with a choice after %ld actions\n", level_name, level.budget_ms, moves, after);
        printf("%-26s %6s %10s %10s %12s\n", "scenario", "moves", "longest s", "median s", "over budget");
        int rc = 0;
        for (int c = 0; c < ncat; c++) {
            if (only && strcmp(only, cat[c].id) != 0)
                continue;
            mk_scenario *sc = mk_catalog_load(cat[c].id, rss, nrs, &err);
            int k = sc ? move_times(sc->rs, sc, &level, moves, after, acts, secs, &err) : -1;
            if (k < 0) {
                printf("%-26s (%s)\n", cat[c].id, err.msg);
                rc = 1;
            } else {
                double longest = 0;
                int over = 0;
                for (int j = 0; j < k; j++) {
                    longest = secs[j] > longest ? secs[j] : longest;
                    over += secs[j] > level.budget_ms / 1000.0;
                }
                printf("%-26s %6d %10.4f %10.4f %12d\n", cat[c].id, k, longest, k ? median(secs, k) : 0.0, over);
            }
            fflush(stdout);
            mk_scenario_free(sc);
        }
        mk_ai_release();
        free(secs);
        free(cat);
        free(acts);
        return rc;
    }
    printf("musket-bench: medians of %d runs of %.2f s, one core\n", runs, seconds);
    printf("%-22s %12s %14s %8s %12s %12s %9s %9s\n", "scenario", "playouts/s", "actions/s",
           "state B", "act/game", "mcts it/s", "roll/it", "horizon");
    for (int c = 0; c < ncat; c++) {
        if (only && strcmp(only, cat[c].id) != 0)
            continue;
        mk_scenario *sc = mk_catalog_load(cat[c].id, rss, nrs, &err);
        if (!sc) {
            printf("%-22s (does not load: %s)\n", cat[c].id, err.msg);
            continue;
        }
        const mk_ruleset *rs = sc->rs;
        void *init = calloc(1, rs->state_size), *st = calloc(1, rs->state_size);
        if (rs->init(init, sc, 0, 1, NULL, &err) != 0) {
            printf("%-22s (does not start: %s)\n", cat[c].id, err.msg);
            mk_scenario_free(sc);
            continue;
        }
        /* MCTS is timed at the first position with a choice: an opening
         * with one legal action (Monmouth's first Command to activate
         * when one side has one) is answered without a search. */
        memcpy(st, init, rs->state_size);
        mk_action one[2];
        for (int k = 0; k < 64 && !rs->over(st) && rs->legal(st, sc, one, 2) == 1; k++) {
            mk_events sink;
            mk_events_init(&sink, NULL, 0);
            if (rs->apply(st, sc, &one[0], &sink, &err) != 0)
                break;
        }
        void *choice = calloc(1, rs->state_size);
        memcpy(choice, st, rs->state_size);
        double games_s[MAX_RUNS], actions_s[MAX_RUNS], per_game[MAX_RUNS], mcts_s[MAX_RUNS];
        double roll[MAX_RUNS], at[MAX_RUNS];   /* rollout actions an iteration, % at the horizon */
        uint64_t seed = 1;
        for (int r = 0; r < runs; r++) {
            long games = 0, actions = 0;
            double t0 = now_s(), t;
            do {
                actions += playout(rs, sc, init, st, acts, seed++);
                games++;
            } while ((t = now_s() - t0) < seconds);
            games_s[r] = games / t;
            actions_s[r] = actions / t;
            per_game[r] = (double)actions / games;
            mk_ai_config cfg;
            mk_ai_config_init(&cfg);
            cfg.engine = MK_AI_MCTS;
            cfg.iterations = mcts_iterations;
            cfg.seed = (uint64_t)r + 1;
            mk_ai_stats stats;
            mk_action a;
            mcts_s[r] = roll[r] = at[r] = 0;
            if (mk_ai_pick_stats(rs, sc, choice, &cfg, &a, &stats) == 0 && stats.seconds > 0) {
                mcts_s[r] = stats.iterations / stats.seconds;
                roll[r] = stats.iterations ? (double)stats.rollout_actions / stats.iterations : 0;
                at[r] = stats.iterations ? 100.0 * stats.horizon_leaves / stats.iterations : 0;
            }
        }
        printf("%-22s %12.0f %14.0f %8zu %12.1f %12.0f %9.1f %8.1f%%\n", cat[c].id,
               median(games_s, runs), median(actions_s, runs), rs->state_size,
               median(per_game, runs), median(mcts_s, runs), median(roll, runs), median(at, runs));
        fflush(stdout);
        free(init);
        free(choice);
        free(st);
        mk_scenario_free(sc);
    }
    free(cat);
    free(acts);
    return 0;
}
