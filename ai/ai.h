/* ai.h - computer players. They see a game only through the ruleset
 * interface (core/ruleset.h), so they play every ruleset unchanged. */
#ifndef MK_AI_H
#define MK_AI_H

#include "core/game.h"

/* Picks uniformly among the legal actions of state st, drawing from rng.
 * Returns 0, or -1 if there is no legal action. Allocates nothing. */
int mk_ai_random(const mk_ruleset *rs, const mk_scenario *sc, const void *st, mk_rng *rng,
                 mk_action *out);

/* The protocol's "ai" command (mk_ai_choose_fn): args carries "engine"
 * ("random"; "greedy" and "mcts" are refused until they exist) and "seed". */
int mk_ai_choose(const mk_game *g, json_t *args, mk_action *out, mk_error *err);

#endif
