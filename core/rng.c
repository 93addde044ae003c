/* rng.c - the dice: PCG32 (XSH RR variant, 64-bit state; M. E. O'Neill,
 * "PCG: A Family of Simple Fast Space-Efficient Statistically Good
 * Algorithms for Random Number Generation", 2014) and the forced queue. */
#include "rng.h"

#include <assert.h>
#include <string.h>

#define PCG_MULT 6364136223846793005ull   /* the standard 64-bit LCG multiplier */

/* splitmix64 (Steele, Lea, Flood 2014): spreads a seed over 64 bits, so that
 * nearby seeds give unrelated PCG states and streams. */
static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Seeds r from seed and clears everything else (rolls, forced queue, bad).
 * The state and the stream (the odd increment) both come from the seed, the
 * way pcg32_srandom_r takes initstate and initseq. */
void mk_rng_seed(mk_rng *r, uint64_t seed)
{
    uint64_t x = seed;
    uint64_t initstate = splitmix64(&x);
    uint64_t initseq = splitmix64(&x);
    memset(r, 0, sizeof *r);
    r->state = 0;
    r->inc = (initseq << 1) | 1u;
    (void)mk_rng_next(r);
    r->state += initstate;
    (void)mk_rng_next(r);
    r->rolls = 0;
}

/* One PCG32 step: advance the LCG, output a rotated xorshift of the old
 * state (XSH RR). Returns 32 random bits; never forced. */
uint32_t mk_rng_next(mk_rng *r)
{
    uint64_t old = r->state;
    r->state = old * PCG_MULT + r->inc;
    uint32_t xorshifted = (uint32_t)(((old >> 18) ^ old) >> 27);
    uint32_t rot = (uint32_t)(old >> 59);
    return (xorshifted >> rot) | (xorshifted << ((32u - rot) & 31u));
}

/* Uniform in [0, n) for n > 0, without modulo bias: draws below 2^32 mod n
 * are rejected so that every residue is equally likely. Never forced. */
uint32_t mk_rng_below(mk_rng *r, uint32_t n)
{
    assert(n > 0);
    if (n == 0)
        return 0;
    uint32_t threshold = (uint32_t)(0u - n) % n;   /* 2^32 mod n */
    for (;;) {
        uint32_t x = mk_rng_next(r);
        if (x >= threshold)
            return x % n;
    }
}

/* A roll of a die with faces lo..hi. Takes the next forced value if one is
 * queued; a forced value outside lo..hi sets bad (keeping the first bad
 * value and the die's face count for the message) and gives lo. Counts the
 * roll either way. */
int mk_rng_die(mk_rng *r, int lo, int hi)
{
    assert(lo <= hi);
    if (hi < lo)
        hi = lo;
    r->rolls++;
    if (r->next < r->nforced) {
        int v = r->forced[r->next++];
        if (r->next == r->nforced)
            r->next = r->nforced = 0;   /* queue empty: reuse its room */
        if (v < lo || v > hi) {
            if (!r->bad) {
                int faces = hi - lo + 1;
                r->bad = 1;
                r->bad_value = (int8_t)v;
                r->bad_die = (int8_t)(faces > INT8_MAX ? INT8_MAX : faces);
            }
            return lo;
        }
        return v;
    }
    return lo + (int)mk_rng_below(r, (uint32_t)(hi - lo) + 1u);
}

int mk_rng_d6(mk_rng *r) { return mk_rng_die(r, 1, 6); }
int mk_rng_d3(mk_rng *r) { return mk_rng_die(r, 1, 3); }
int mk_rng_d10(mk_rng *r) { return mk_rng_die(r, 0, 9); }
int mk_rng_d100(mk_rng *r) { return mk_rng_die(r, 0, 99); }

/* Queues n forced values after those already waiting. Returns 0, or -1 with
 * nothing queued if they would not fit in MK_RNG_FORCED_MAX or a value does
 * not fit the queue's int8 slots (no die has such a face). */
int mk_rng_force(mk_rng *r, const int *values, int n)
{
    if (n < 0 || (n > 0 && !values))
        return -1;
    int left = r->nforced - r->next;
    if (left + n > MK_RNG_FORCED_MAX)
        return -1;
    for (int i = 0; i < n; i++)
        if (values[i] < INT8_MIN || values[i] > INT8_MAX)
            return -1;
    /* Move the waiting values to the front, then append. */
    memmove(r->forced, r->forced + r->next, (size_t)left);
    r->next = 0;
    r->nforced = (uint8_t)left;
    for (int i = 0; i < n; i++)
        r->forced[r->nforced++] = (int8_t)values[i];
    return 0;
}

/* Forced values still waiting. */
int mk_rng_forced_left(const mk_rng *r)
{
    return r->nforced - r->next;
}

/* Drops the forced queue and the bad flag. */
void mk_rng_clear_forced(mk_rng *r)
{
    r->nforced = r->next = 0;
    r->bad = 0;
    r->bad_value = r->bad_die = 0;
}
