/* ai_int.h - what the engines of ai/ share: seed mixing and the one-ply
 * expected value of an action (greedy, and mcts's ordering at the root). */
#ifndef MK_AI_INT_H
#define MK_AI_INT_H

#include "ai.h"
#include "core/rng.h"

/* splitmix64 (Steele, Lea, Flood): a well-mixed 64-bit value from x. */
static inline uint64_t mk_ai_mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* A random step through a list of n >= 2 items that visits each once: in
 * [1, n - 1] and coprime to n, so that (start + j * stride) % n for
 * j < n are all different. mcts spreads a rollout step's candidates over
 * the legal list with it (docs/ai.md, "The candidates of a rollout
 * step"). */
static inline int mk_ai_stride(mk_rng *r, int n)
{
    int stride = 1 + (int)mk_rng_below(r, (uint32_t)(n - 1));
    for (;;) {
        int a = stride, b = n;
        while (b) {
            int t = a % b;
            a = b;
            b = t;
        }
        if (a == 1)
            return stride;
        stride = stride % (n - 1) + 1;   /* 1 is coprime to n: this ends */
    }
}

/* The expected value for side `mover` of applying each of acts[0..n-1] to
 * st, averaged over `samples` dice samples (common random numbers: sample
 * k uses the same dice seed for every action; an action that rolled no die
 * is sampled once). Decisions that then fall to the other side in the
 * middle of the action are answered by that side's best one-ply reply, so
 * a fire whose hit waits on the defender's choice is still counted.
 * work is a buffer of rs->state_size bytes, acts/n the legal actions as
 * rs->legal(st) listed them (they are applied by mk_apply_listed).
 * Writes values[i] (-2 for an action that apply refused) and returns the
 * number of apply calls made. Allocates nothing. */
long mk_ai_one_ply(const mk_ruleset *rs, const mk_scenario *sc, const void *st, int mover,
                   const mk_action *acts, int n, int samples, uint64_t seed, void *work,
                   double *values);

#endif
