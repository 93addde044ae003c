/* rng.h - the dice: one seeded PCG32 generator per game, with a queue of
 * forced results in front of it for tests and the rulebooks' examples.
 *
 * The generator lives inside the game state (plain data), so cloning a game
 * clones its dice, and replaying a record from its seed rolls the same
 * numbers. Forced values are used in order by the next rolls of any die; a
 * forced value that is impossible for the die being rolled sets `bad`, and
 * the roll returns the lowest face so the caller can carry on and report. */
#ifndef MK_RNG_H
#define MK_RNG_H

#include <stdbool.h>
#include <stdint.h>

#define MK_RNG_FORCED_MAX 64

typedef struct mk_rng {
    uint64_t state, inc;       /* PCG32 (O'Neill, pcg-random.org), XSH RR */
    uint32_t rolls;            /* dice rolled so far, forced ones included */
    uint8_t nforced, next;     /* forced[next .. nforced-1] are still queued */
    uint8_t bad;               /* a forced value did not fit its die */
    int8_t bad_value, bad_die; /* which one, for the error message */
    int8_t forced[MK_RNG_FORCED_MAX];
} mk_rng;

/* Seeds the generator; equal seeds give equal sequences on every machine. */
void mk_rng_seed(mk_rng *r, uint64_t seed);
/* 32 random bits (never forced). */
uint32_t mk_rng_next(mk_rng *r);
/* Uniform in [0, n), unbiased, n > 0 (never forced: for AI and tie breaks). */
uint32_t mk_rng_below(mk_rng *r, uint32_t n);

/* A die roll, forced if the queue holds a value. */
int mk_rng_d6(mk_rng *r);    /* 1..6 */
int mk_rng_d3(mk_rng *r);    /* 1..3: HtL's random action die */
int mk_rng_d10(mk_rng *r);   /* 0..9, as H&M's combat dice are read */
int mk_rng_d100(mk_rng *r);  /* 0..99: percentile, "00" is 0 */
/* Any die with faces lo..hi (both included). */
int mk_rng_die(mk_rng *r, int lo, int hi);

/* Queues forced values; returns 0, or -1 if the queue would overflow
 * (nothing is queued then). */
int mk_rng_force(mk_rng *r, const int *values, int n);
/* Forced values still waiting. */
int mk_rng_forced_left(const mk_rng *r);
void mk_rng_clear_forced(mk_rng *r);

#endif
