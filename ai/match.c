/* match.c - games of one engine against another (see match.h). */
#define _POSIX_C_SOURCE 200809L
#include "match.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ai_int.h"

uint64_t mk_match_seed(uint64_t study_seed, int number)
{
    /* 63 bits, so that the seed is a JSON integer (the protocol's "new"). */
    return mk_ai_mix(study_seed ^ mk_ai_mix((uint64_t)number * 0x9e3779b97f4a7c15ull + 1)) >> 1;
}

void mk_wilson(long k, long n, double z, double *lo, double *hi)
{
    if (n <= 0) {
        *lo = 0;
        *hi = 1;
        return;
    }
    double p = (double)k / n, z2 = z * z;
    double den = 1 + z2 / n;
    double mid = (p + z2 / (2.0 * n)) / den;
    double half = z * sqrt(p * (1 - p) / n + z2 / (4.0 * n * n)) / den;
    *lo = mid - half < 0 ? 0 : mid - half;
    *hi = mid + half > 1 ? 1 : mid + half;
}

/* The final state's per-side numbers from its JSON view (not hot). */
static void read_tail(const mk_ruleset *rs, const mk_scenario *sc, const void *st,
                      mk_match_game *g)
{
    json_t *j = rs->state_json ? rs->state_json(st, sc) : NULL;
    if (!j)
        return;
    json_t *t = json_object_get(j, "turn");
    if (json_is_integer(t))
        g->turns = (int)json_integer_value(t);
    json_t *vp = json_object_get(j, "vp");
    if (json_is_object(vp)) {
        for (int s = 0; s < sc->nsides && s < 2; s++) {
            json_t *v = json_object_get(vp, sc->sides[s].id);
            g->vp[s] = json_is_number(v) ? (int)json_number_value(v) : 0;
        }
    } else {
        json_t *score = json_object_get(j, "score");
        for (int s = 0; s < 2 && json_is_array(score); s++)
            g->vp[s] = (int)json_integer_value(json_array_get(score, (size_t)s));
    }
    json_decref(j);
}

int mk_match_play(const mk_ruleset *rs, const mk_scenario *sc, uint64_t options,
                  const mk_ai_config cfg[2], uint64_t study_seed, int number, long max_actions,
                  const volatile sig_atomic_t *abandon, mk_match_game *out, mk_error *err)
{
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    memset(out, 0, sizeof *out);
    out->number = number;
    out->seed = mk_match_seed(study_seed, number);
    out->a_side = number & 1;
    out->winner = -1;
    if (max_actions <= 0)
        max_actions = MK_MATCH_MAX_ACTIONS;
    void *st = calloc(1, rs->state_size);
    if (!st)
        return mk_error_set(err, "internal", "out of memory");
    if (rs->init(st, sc, options, out->seed, NULL, err) != 0) {
        free(st);
        return -1;
    }
    /* The engines' memory, before the first move: choosing then
     * allocates nothing (a failure here only means the moves allocate). */
    mk_ai_reserve(rs, &cfg[0]);
    mk_ai_reserve(rs, &cfg[1]);
    mk_events sink;
    int rc = 0;
    while (!rs->over(st) && out->actions < max_actions) {
        if (abandon && *abandon) {
            free(st);
            return MK_MATCH_ABANDONED;
        }
        int side = rs->to_move(st);
        mk_ai_config c = cfg[side == out->a_side ? 0 : 1];
        c.seed = mk_ai_mix(out->seed ^ mk_ai_mix((uint64_t)out->actions + 0x51ed27));
        mk_action a;
        if (mk_ai_pick(rs, sc, st, &c, &a) != 0) {
            rc = mk_error_set(err, "internal", "game %d: %s found no action at action %ld",
                              number, mk_ai_engine_name(c.engine), out->actions);
            break;
        }
        mk_events_init(&sink, NULL, 0);
        if (rs->apply(st, sc, &a, &sink, err) != 0) {
            rc = -1;
            break;
        }
        out->actions++;
    }
    out->finished = rs->over(st);
    if (out->finished) {
        mk_result r;
        memset(&r, 0, sizeof r);
        rs->result(st, sc, &r);
        out->winner = r.winner;
        snprintf(out->level, sizeof out->level, "%s", r.level ? r.level : "");
    } else {
        snprintf(out->level, sizeof out->level, "unfinished");
    }
    read_tail(rs, sc, st, out);
    free(st);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    out->seconds = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
    return rc;
}
