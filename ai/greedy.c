/* greedy.c - the `greedy` baseline: one ply. Each legal action is applied
 * to copies of the state with sampled dice; the action with the best mean
 * evaluation for the side to move wins, ties broken by the seeded rng. */
#include "ai_int.h"

#include <stdlib.h>
#include <string.h>

#define REPLY_STEPS 4   /* opponent decisions answered inside one action */

/* Answers the other side's decisions that interrupt `mover`'s action
 * (active side unchanged, to_move the other side): each time, the reply
 * that is worst for mover by a one-sample look. Returns apply calls. */
static long answer_replies(const mk_ruleset *rs, const mk_scenario *sc, void *work, int mover,
                           int active, void *tmp)
{
    long applies = 0;
    mk_action acts[64];
    mk_events sink;
    mk_error err;
    for (int step = 0; step < REPLY_STEPS; step++) {
        if (rs->over(work) || rs->active(work) != active || rs->to_move(work) == mover)
            break;
        int n = rs->legal(work, sc, acts, 64);
        if (n <= 0)
            break;
        int best = 0;
        double worst = 2.0;
        if (n > 1) {
            for (int i = 0; i < n; i++) {
                memcpy(tmp, work, rs->state_size);
                mk_events_init(&sink, NULL, 0);
                applies++;
                if (mk_apply_listed(rs, tmp, sc, &acts[i], &sink, &err) != 0)
                    continue;
                double v = mk_ai_value0(rs, sc, tmp);
                if (mover)
                    v = -v;
                if (v < worst) {
                    worst = v;
                    best = i;
                }
            }
        }
        mk_events_init(&sink, NULL, 0);
        applies++;
        if (mk_apply_listed(rs, work, sc, &acts[best], &sink, &err) != 0)
            break;
    }
    return applies;
}

long mk_ai_one_ply(const mk_ruleset *rs, const mk_scenario *sc, const void *st, int mover,
                   const mk_action *acts, int n, int samples, uint64_t seed, void *work,
                   double *values)
{
    long applies = 0;
    int active = rs->active(st);
    /* A second buffer for the replies, right after work (caller gives 2x). */
    void *tmp = (char *)work + rs->state_size;
    mk_events sink;
    mk_error err;
    if (samples < 1)
        samples = 1;
    for (int i = 0; i < n; i++) {
        double sum = 0;
        int done = 0;
        values[i] = -2;
        for (int k = 0; k < samples; k++) {
            memcpy(work, st, rs->state_size);
            mk_head *h = mk_state_head(work);
            mk_rng_seed(&h->rng, mk_ai_mix(seed ^ (0x5851f42d4c957f2dull * (uint64_t)(k + 1))));
            mk_events_init(&sink, NULL, 0);
            applies++;
            if (mk_apply_listed(rs, work, sc, &acts[i], &sink, &err) != 0)
                break;
            bool rolled = h->rng.rolls != 0;
            applies += answer_replies(rs, sc, work, mover, active, tmp);
            rolled = rolled || h->rng.rolls != 0;
            double v = mk_ai_value0(rs, sc, work);
            sum += mover ? -v : v;
            done++;
            if (!rolled)
                break;   /* no dice: every sample would be the same */
        }
        if (done)
            values[i] = sum / done;
    }
    return applies;
}

/* greedy: see ai.h. cfg->samples dice samples per action. */
int mk_ai_greedy(const mk_ruleset *rs, const mk_scenario *sc, const void *st,
                 const mk_ai_config *cfg, mk_action *out, mk_ai_stats *stats)
{
    /* Everything on the stack: choosing allocates nothing (issue 4), unless
     * a ruleset's state is larger than 8 KiB. */
    mk_action acts[MK_MAX_ACTIONS];
    double values[MK_MAX_ACTIONS];
    _Alignas(16) unsigned char buf[2 * 8192];
    void *work = 2 * rs->state_size <= sizeof buf ? (void *)buf : malloc(2 * rs->state_size);
    int rc = -1;
    if (!work)
        goto done;
    int n = rs->legal(st, sc, acts, MK_MAX_ACTIONS);
    if (n <= 0)
        goto done;
    int mover = rs->to_move(st);
    long applies = mk_ai_one_ply(rs, sc, st, mover, acts, n, cfg->samples, cfg->seed, work,
                                 values);
    mk_rng rng;
    mk_rng_seed(&rng, mk_ai_mix(cfg->seed ^ 0x6772656564790000ull));
    int best = -1, ties = 0;
    for (int i = 0; i < n; i++) {
        if (best >= 0 && values[i] < values[best] - 1e-9)
            continue;
        if (best < 0 || values[i] > values[best] + 1e-9) {
            best = i;
            ties = 1;
        } else if (mk_rng_below(&rng, (uint32_t)++ties) == 0) {
            best = i;   /* reservoir sampling: each tied action equally likely */
        }
    }
    *out = acts[best];
    if (stats) {
        stats->iterations = applies;
        stats->value = values[best];
    }
    rc = 0;
done:
    if (work != (void *)buf)
        free(work);
    return rc;
}
