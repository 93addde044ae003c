/* ai.h - computer players. They see a game only through the ruleset
 * interface (core/ruleset.h), so they play every ruleset unchanged.
 *
 * Engines (docs/ai.md explains each):
 *   random  a uniform choice among the legal actions;
 *   greedy  one ply: the action whose expected evaluation (ruleset's
 *           evaluate hook, averaged over sampled dice) is best;
 *   mcts    open-loop Monte Carlo tree search over sampled dice, with
 *           cut-off rollouts scored by the evaluate hook.
 * Every engine plays for the side that decides now (rs->to_move), which is
 * not always the side whose turn it is. None of them allocates while it
 * applies actions; mcts keeps its buffers (node pools, states) for the
 * thread that called it, so after that thread's first move (or one with a
 * larger state, more threads or a larger budget) choosing allocates
 * nothing, and after mk_ai_reserve not the first move either. They are
 * freed when the thread exits, or by mk_ai_release. */
#ifndef MK_AI_H
#define MK_AI_H

#include "core/game.h"

/* Picks uniformly among the legal actions of state st, drawing from rng.
 * Returns 0, or -1 if there is no legal action. Allocates nothing. */
int mk_ai_random(const mk_ruleset *rs, const mk_scenario *sc, const void *st, mk_rng *rng,
                 mk_action *out);

enum { MK_AI_RANDOM, MK_AI_GREEDY, MK_AI_MCTS, MK_AI_NENGINES };

/* How an engine plays. Fill with mk_ai_config_init, then set fields.
 * Budget: budget_ms > 0 thinks for that long (wall clock; not
 * reproducible); else iterations > 0 runs that many MCTS iterations in all
 * (split over the threads); both 0: the engine's default (mcts: 1000
 * iterations). The same seed and an iteration budget give the same action
 * every time, with any number of threads. */
typedef struct mk_ai_config {
    int engine;          /* MK_AI_* */
    int budget_ms;       /* mcts: time per move, 0 = use iterations */
    int iterations;      /* mcts: iterations per move (all threads together) */
    uint64_t seed;       /* tie breaks, sampled dice, rollouts */
    int threads;         /* mcts: root-parallel threads (1..64), default 1 */
    int samples;         /* greedy: dice samples per action (default 8) */
    int rollout_depth;   /* mcts: how far a rollout goes after the tree, each action the
                          * best of rollout_k random ones by the evaluation.
                          * MK_ROLLOUT_HORIZON: to the horizon, the start of
                          * the next turn of the side whose turn it is at the root (the
                          * rest of its turn and the other side's whole turn; the tree
                          * then stays within the root's turn); D >= 0: D actions (0 =
                          * evaluate at once), the tree unbounded by turns; -1
                          * (default): the ruleset's (rs->ai_rollout_depth: the
                          * horizon, or Monmouth's 2) */
    double exploration;  /* mcts: UCB constant (default MK_MCTS_C) */
    int tree_depth;      /* mcts: the most actions an iteration follows in the tree before
                          * its rollout; 1: the root's children only (a flat search whose
                          * rollouts do the rest); 0: no limit; -1 (default): the
                          * ruleset's (rs->ai_tree_depth) */
    int rollout_k;       /* mcts: random actions a rollout step looks at, K > 0; -1
                          * (default): the ruleset's (rs->ai_rollout_k, else 10) to the
                          * horizon, 3 at a fixed depth */
} mk_ai_config;

#define MK_MCTS_DEFAULT_ITERATIONS 1000
#define MK_ROLLOUT_HORIZON (-2)      /* rollout_depth: to the horizon */
#define MK_MCTS_ROLLOUT_MAX 96       /* a rollout to the horizon plays at most this many actions */
#define MK_MCTS_C 0.15
#define MK_AI_THREADS_MAX 64

/* Defaults: engine random, seed 1, one thread, the defaults above. */
void mk_ai_config_init(mk_ai_config *cfg);
/* "random", "greedy", "mcts" -> MK_AI_*, or -1. */
int mk_ai_engine_parse(const char *name);
const char *mk_ai_engine_name(int engine);
/* Sets engine mcts and the budget of a difficulty a player understands:
 *   easy   mcts, 100 ms a move
 *   normal mcts, 300 ms a move
 *   hard   mcts, 1000 ms a move (the most any level thinks)
 * Returns 0, or -1 for an unknown name (cfg unchanged). */
int mk_ai_difficulty(mk_ai_config *cfg, const char *name);

/* What a search did, for benchmarks and the curious (may be NULL). */
typedef struct mk_ai_stats {
    long iterations;     /* mcts iterations (all threads), greedy: applies */
    long nodes;          /* tree nodes used */
    double seconds;      /* wall time of the choice */
    double value;        /* the chosen action's estimated value for the mover, in [-1, 1] */
    long horizon_leaves; /* mcts: iterations scored at the horizon: at the start of the
                          * root's active side's next turn (the state before the last
                          * action was the other side's turn), or with the game over */
    long rollout_actions;/* mcts: actions played by the rollouts, all iterations */
} mk_ai_stats;

/* The plain-C entry for programs (terminal play, sim, bench): chooses an
 * action for the side that decides now in state st (rs->state_size bytes,
 * not changed) of scenario sc, by cfg->engine. Example, from a game g:
 *
 *     mk_ai_config cfg;
 *     mk_ai_config_init(&cfg);
 *     mk_ai_difficulty(&cfg, "normal");    // or cfg.engine = MK_AI_MCTS; cfg.budget_ms = 200;
 *     cfg.seed = seed_of_this_move;
 *     mk_action a;
 *     if (mk_ai_pick(g->rs, g->sc, g->st, &cfg, &a) == 0)
 *         mk_game_act(g, &a, &err);        // events explain the move as for anyone
 *
 * Returns 0 with *out one of rs->legal's actions, or -1 when there is no
 * legal action (game over) or memory for the search cannot be had.
 * Thread-safe: keeps no state between calls. */
int mk_ai_pick(const mk_ruleset *rs, const mk_scenario *sc, const void *st,
               const mk_ai_config *cfg, mk_action *out);
/* The same, reporting what the search did in *stats (may be NULL). */
int mk_ai_pick_stats(const mk_ruleset *rs, const mk_scenario *sc, const void *st,
                     const mk_ai_config *cfg, mk_action *out, mk_ai_stats *stats);

/* Sets up, before a game, what the calling thread's moves by cfg on
 * rulesets of rs's state size will need (mcts: the node pools and states
 * of every search thread), so that choosing them allocates nothing, the
 * first included (issue 4's target). Call it where a game is set up, on
 * the thread that will choose; once per engine configuration (a larger
 * budget or more threads need more). Returns 0 (also for engines that
 * keep nothing: random, greedy), or -1 when the memory cannot be had or
 * kept for the thread (the moves still work, allocating as they go). */
int mk_ai_reserve(const mk_ruleset *rs, const mk_ai_config *cfg);

/* Frees the memory mcts keeps for the calling thread's next move (it is
 * otherwise freed when the thread exits). Harmless when there is none. */
void mk_ai_release(void);

/* The engines themselves (mk_ai_pick dispatches to them). */
int mk_ai_greedy(const mk_ruleset *rs, const mk_scenario *sc, const void *st,
                 const mk_ai_config *cfg, mk_action *out, mk_ai_stats *stats);
int mk_ai_mcts(const mk_ruleset *rs, const mk_scenario *sc, const void *st,
               const mk_ai_config *cfg, mk_action *out, mk_ai_stats *stats);

/* The protocol's "ai" command (mk_ai_choose_fn): args may carry "engine"
 * ("random", "greedy", "mcts"; default random, or mcts when "difficulty"
 * is given), "difficulty" ("easy", "normal", "hard"), "budget_ms",
 * "iterations", "seed" (default: the position's hash, so the same position
 * gives the same answer), "threads", "rollout_k" (mcts: candidates per
 * rollout step, 1 to MK_MAX_ACTIONS; default the ruleset's). Returns 0,
 * or -1 with err (bad_arg). */
int mk_ai_choose(const mk_game *g, json_t *args, mk_action *out, mk_error *err);

/* The engine mk_ai_choose would use for args: *out set, or -1 with err
 * (bad_arg) and *out untouched. */
int mk_ai_args(const mk_game *g, json_t *args, mk_ai_config *out, mk_error *err);

/* The value of a state for side 0 in [-1, 1]: the result (+1 win, -1
 * loss, 0 draw) once the game is over, else the ruleset's evaluation made
 * zero-sum ((e(0) - e(1)) / 2). Shared by the engines. */
double mk_ai_value0(const mk_ruleset *rs, const mk_scenario *sc, const void *st);

#endif
