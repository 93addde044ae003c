/* random.c - the `random` baseline: a uniform choice among legal actions. */
#include "ai.h"

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
