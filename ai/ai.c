/* ai.c - choosing an engine: configuration, difficulty levels, the plain-C
 * entry mk_ai_pick and the protocol's "ai" command. */
#define _POSIX_C_SOURCE 200809L
#include "ai.h"

#include <string.h>
#include <time.h>

static const char *const engine_names[MK_AI_NENGINES] = {"random", "greedy", "mcts"};

void mk_ai_config_init(mk_ai_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->engine = MK_AI_RANDOM;
    cfg->seed = 1;
    cfg->threads = 1;
    cfg->samples = 8;
    cfg->rollout_depth = -1;   /* the ruleset's */
    cfg->exploration = MK_MCTS_C;
    cfg->tree_depth = -1;
    cfg->rollout_k = -1;       /* the ruleset's */
}

int mk_ai_engine_parse(const char *name)
{
    for (int i = 0; i < MK_AI_NENGINES; i++)
        if (name && strcmp(name, engine_names[i]) == 0)
            return i;
    return -1;
}

const char *mk_ai_engine_name(int engine)
{
    return engine >= 0 && engine < MK_AI_NENGINES ? engine_names[engine] : "?";
}

/* Difficulty levels are time budgets for mcts; hard is the most any level
 * thinks (issue 4: at most 1 s a move). */
int mk_ai_difficulty(mk_ai_config *cfg, const char *name)
{
    static const struct { const char *name; int ms; } levels[] = {
        {"easy", 100}, {"normal", 300}, {"hard", 1000}};
    for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++)
        if (name && strcmp(name, levels[i].name) == 0) {
            cfg->engine = MK_AI_MCTS;
            cfg->budget_ms = levels[i].ms;
            cfg->iterations = 0;
            return 0;
        }
    return -1;
}

double mk_ai_value0(const mk_ruleset *rs, const mk_scenario *sc, const void *st)
{
    if (rs->over(st)) {
        mk_result r;
        memset(&r, 0, sizeof r);
        rs->result(st, sc, &r);
        return r.winner < 0 ? 0.0 : r.winner == 0 ? 1.0 : -1.0;
    }
    if (!rs->evaluate)
        return 0.0;
    return 0.5 * (rs->evaluate(st, sc, 0) - rs->evaluate(st, sc, 1));
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int mk_ai_pick_stats(const mk_ruleset *rs, const mk_scenario *sc, const void *st,
                     const mk_ai_config *cfg, mk_action *out, mk_ai_stats *stats)
{
    mk_ai_stats local;
    if (!stats)
        stats = &local;
    memset(stats, 0, sizeof *stats);
    double t0 = now_s();
    int rc;
    switch (cfg->engine) {
    case MK_AI_GREEDY:
        rc = mk_ai_greedy(rs, sc, st, cfg, out, stats);
        break;
    case MK_AI_MCTS:
        rc = mk_ai_mcts(rs, sc, st, cfg, out, stats);
        break;
    default: {
        mk_rng rng;
        mk_rng_seed(&rng, cfg->seed);
        rc = mk_ai_random(rs, sc, st, &rng, out);
        break;
    }
    }
    stats->seconds = now_s() - t0;
    return rc;
}

int mk_ai_pick(const mk_ruleset *rs, const mk_scenario *sc, const void *st,
               const mk_ai_config *cfg, mk_action *out)
{
    return mk_ai_pick_stats(rs, sc, st, cfg, out, NULL);
}

/* An optional non-negative integer argument no larger than max. */
static int int_arg(json_t *args, const char *key, long long max, long long *v, mk_error *err)
{
    json_t *j = json_object_get(args, key);
    if (!j)
        return 0;
    if (!json_is_integer(j) || json_integer_value(j) < 0 || json_integer_value(j) > max)
        return mk_error_set(err, "bad_arg", "ai: \"%s\" must be an integer from 0 to %lld",
                            key, max);
    *v = json_integer_value(j);
    return 0;
}

int mk_ai_args(const mk_game *g, json_t *args, mk_ai_config *out, mk_error *err)
{
    json_t *ej = json_object_get(args, "engine");
    json_t *dj = json_object_get(args, "difficulty");
    json_t *sj = json_object_get(args, "seed");
    if (ej && !json_is_string(ej))
        return mk_error_set(err, "bad_arg", "ai: \"engine\" must be a string");
    if (dj && !json_is_string(dj))
        return mk_error_set(err, "bad_arg", "ai: \"difficulty\" must be a string");
    if (sj && !json_is_integer(sj))
        return mk_error_set(err, "bad_arg", "ai: \"seed\" must be an integer");
    mk_ai_config cfg;
    mk_ai_config_init(&cfg);
    if (dj && mk_ai_difficulty(&cfg, json_string_value(dj)) != 0)
        return mk_error_set(err, "bad_arg",
                            "ai: unknown difficulty '%s' (easy, normal or hard)",
                            json_string_value(dj));
    if (ej) {
        int e = mk_ai_engine_parse(json_string_value(ej));
        if (e < 0)
            return mk_error_set(err, "bad_arg",
                                "ai: unknown engine '%s' (available: random, greedy, mcts)",
                                json_string_value(ej));
        cfg.engine = e;
    }
    long long budget = -1, iters = -1, threads = 1;
    if (int_arg(args, "budget_ms", 60000, &budget, err) ||
        int_arg(args, "iterations", 10000000, &iters, err) ||
        int_arg(args, "threads", MK_AI_THREADS_MAX, &threads, err))
        return -1;
    json_t *kj = json_object_get(args, "rollout_k");   /* absent: the ruleset's (docs/ai.md) */
    if (kj && (!json_is_integer(kj) || json_integer_value(kj) < 1 ||
               json_integer_value(kj) > MK_MAX_ACTIONS))
        return mk_error_set(err, "bad_arg", "ai: \"rollout_k\" must be an integer from 1 to %d",
                            MK_MAX_ACTIONS);
    if (kj)
        cfg.rollout_k = (int)json_integer_value(kj);
    if (budget >= 0) {
        cfg.budget_ms = (int)budget;
        if (iters < 0)
            cfg.iterations = 0;
    }
    if (iters >= 0) {
        cfg.iterations = (int)iters;
        if (budget < 0)
            cfg.budget_ms = 0;
    }
    cfg.threads = threads > 0 ? (int)threads : 1;
    /* Without a seed, the choice follows the position: the same position
     * gives the same move, which keeps protocol sessions reproducible. */
    cfg.seed = sj ? (uint64_t)json_integer_value(sj) : mk_game_hash(g);
    *out = cfg;
    return 0;
}

int mk_ai_choose(const mk_game *g, json_t *args, mk_action *out, mk_error *err)
{
    mk_ai_config cfg;
    if (mk_ai_args(g, args, &cfg, err) != 0)
        return -1;
    if (mk_ai_pick(g->rs, g->sc, g->st, &cfg, out) != 0)
        return mk_error_set(err, "illegal_action", "ai: no legal action");
    return 0;
}
