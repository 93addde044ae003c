/* random.c - the `random` baseline: a uniform choice among legal actions. */
#include "ai.h"

#include <string.h>

int mk_ai_random(const mk_ruleset *rs, const mk_scenario *sc, const void *st, mk_rng *rng,
                 mk_action *out)
{
    mk_action acts[MK_MAX_ACTIONS];
    int n = rs->legal(st, sc, acts, MK_MAX_ACTIONS);
    if (n <= 0)
        return -1;
    *out = acts[mk_rng_below(rng, (uint32_t)n)];
    return 0;
}

int mk_ai_choose(const mk_game *g, json_t *args, mk_action *out, mk_error *err)
{
    json_t *ej = json_object_get(args, "engine");
    json_t *sj = json_object_get(args, "seed");
    const char *engine = json_is_string(ej) ? json_string_value(ej) : "random";
    if (ej && !json_is_string(ej))
        return mk_error_set(err, "bad_arg", "ai: \"engine\" must be a string");
    if (sj && !json_is_integer(sj))
        return mk_error_set(err, "bad_arg", "ai: \"seed\" must be an integer");
    if (strcmp(engine, "random") != 0)
        return mk_error_set(err, "bad_arg",
                            "ai: engine '%s' is not available in this build (available: random)",
                            engine);
    mk_rng rng;
    /* Without a seed, the choice follows the position: the same position
     * gives the same move, which keeps protocol sessions reproducible. */
    mk_rng_seed(&rng, sj ? (uint64_t)json_integer_value(sj) : mk_game_hash(g));
    if (mk_ai_random(g->rs, g->sc, g->st, &rng, out) != 0)
        return mk_error_set(err, "illegal_action", "ai: no legal action");
    return 0;
}
