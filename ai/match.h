/* match.h - games of one engine against another, the core of `musket sim`
 * (and of the tests that check it): game seeds, one whole game on raw
 * states, and the statistics of a study. */
#ifndef MK_MATCH_H
#define MK_MATCH_H

#include <signal.h>

#include "ai.h"

#define MK_MATCH_MAX_ACTIONS 200000  /* a game longer than this is stopped (unfinished); a random
                                         * Monmouth scenario 4 takes 20-50 thousand */

/* One game's outcome. Engine A (cfg[0]) plays side a_side: 0 in even
 * games, 1 in odd ones. */
typedef struct mk_match_game {
    int number;
    uint64_t seed;          /* the game's seed (dice and both engines' seeds) */
    int a_side;             /* side that engine A played */
    int winner;             /* side index, -1 for a draw or an unfinished game */
    int finished;           /* 0: stopped at max_actions */
    int vp[2];              /* the state's "vp" (or "score") per side, 0 if absent */
    int turns;              /* the state's "turn" at the end */
    long actions;           /* actions applied */
    double seconds;
    char level[24];         /* the result's level ("decisive", "draw", ...) */
} mk_match_game;

/* The seed of game `number` of a study: splitmix64 of the study seed and
 * the number, so each game is reproducible on its own, in any order.
 * Below 2^63, so that it is a JSON integer. */
uint64_t mk_match_seed(uint64_t study_seed, int number);

/* Plays game `number` of a study from the scenario's start with options:
 * engine A is cfg[0], engine B cfg[1] (their seed fields are replaced by
 * seeds derived from the game's seed, per move). Stops after max_actions
 * (<= 0: MK_MATCH_MAX_ACTIONS). Uses raw states: no allocation per action
 * beyond the engines' own. `abandon` (or NULL) is read between actions:
 * once it is set the game is given up (a study stopped at once: a
 * Monmouth game takes many minutes). Returns 0, MK_MATCH_ABANDONED (out
 * is no result), or -1 if the ruleset refuses to set up the game or an
 * engine fails (err filled). */
#define MK_MATCH_ABANDONED 1
int mk_match_play(const mk_ruleset *rs, const mk_scenario *sc, uint64_t options,
                  const mk_ai_config cfg[2], uint64_t study_seed, int number, long max_actions,
                  const volatile sig_atomic_t *abandon, mk_match_game *out, mk_error *err);

/* The Wilson score interval of k successes in n trials at normal quantile
 * z (1.96 for 95%): *lo, *hi in [0, 1]; n == 0 gives [0, 1]. */
void mk_wilson(long k, long n, double z, double *lo, double *hi);

#endif
