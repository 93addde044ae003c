/* evaluate.c - Hold the Line's evaluation for the AI (the ruleset's
 * evaluate hook): a cheap estimate in [-1, 1] of how well a side stands,
 * used at every MCTS cut-off and by greedy's one-ply look. It reads the
 * state only; no rule depends on it.
 *
 * Victory (victory.c, HtL 10): a side at or above its VP target after a
 * player's turn wins; when the last turn ends, the time-limit winner wins,
 * or else the side with more VP. VP come from eliminated enemy units and
 * leaders (10.A) and taken enemy VP counters (10.B). So the estimate is
 * built from each side's *expected* VP:
 *
 *   E[side] = VP now
 *           + the enemy combat units it threatens (expected hits, in range
 *             and line of sight of its combat units, over the target's MP:
 *             a 1-MP unit under two muskets is nearly a VP)
 *           + the enemy VP counters its combat units can reach soon
 *           + the enemy leaders standing alone near its combat units;
 *
 * the side whose turn it is gets its threats in full, the other half (it
 * moves second). Then, for side 0 (side 1 is the negation: zero-sum):
 *
 *   progress  g(E0 / T0) - g(E1 / T1)   T: VP targets, g(p) = (p + p^2)/2
 *             (the last VP toward the target weigh most)
 *   material  MP on the map over the side's MP at set-up, side 0 - side 1
 *             (it is what wins the VP still to come)
 *   time      the time-limit winner's edge (the named side, else the
 *             side ahead in expected VP), growing as (elapsed fraction)^2
 *
 * weighted W_PROGRESS, W_MATERIAL, W_TIME and clamped to [-1, 1]. A game
 * that is over is worth +1 / -1 / 0. Allocates nothing. */
#include <string.h>

#include "htl_int.h"

#define W_PROGRESS 0.50
#define W_MATERIAL 0.30
#define W_TIME 0.35
#define THREAT_SECOND 0.5   /* weight of the threats of the side that moves next */
#define VPC_NEAR 0.5        /* an enemy VP counter an enemy combat unit can enter now */
#define LEADER_ALONE 0.5    /* a lone leader an enemy combat unit can reach */

/* Probability that one attack die hits: a die d hits when d + mod >= need. */
static double die_p(int need, int mod)
{
    int n = 7 - (need - mod);   /* faces that hit */
    return n <= 0 ? 0.0 : n >= 6 ? 1.0 : n / 6.0;
}

/* The expected hits of the best attack `unit` can make on hex h now or
 * after one step: fire in range and line of sight (HtL 8.2, 8.3), or close
 * combat for infantry types next to it (8.4). 0 if none. */
static double attack_hits(const htl_state *s, const mk_scenario *sc, const htl_occ *o, int unit,
                          int h, int dist)
{
    int kind = sc->units[unit].kind;
    double best = 0;
    if (dist == 1 && htl_is_infantry(kind)) {
        const char *why;
        int mod = htl_attack_mod(s, sc, unit, h, true, &why);
        best = HTL_DICE * die_p(htl_hit_number(kind, 0), mod);
    }
    int range;
    int need = htl_fire_need(s, sc, unit, h, &range);
    if (need && (dist <= 1 || htl_los_occ(sc, o, s->u[unit].hex, h))) {
        const char *why;
        int mod = htl_attack_mod(s, sc, unit, h, false, &why);
        double e = HTL_DICE * die_p(need, mod);
        if (e > best)
            best = e;
    }
    return best;
}

static double g(double p)
{
    if (p > 1)
        p = 1;
    if (p < 0)
        p = 0;
    return 0.5 * (p + p * p);
}

double htl_evaluate(const void *st, const mk_scenario *sc, int side)
{
    const htl_state *s = st;
    if (s->over)
        return s->winner < 0 ? 0.0 : s->winner == side ? 1.0 : -1.0;
    const mk_grid *g0 = &sc->map.grid;
    htl_occ o;
    htl_occ_build(&o, s, sc);

    double mp_now[2] = {0, 0}, mp_set[2] = {0, 0};
    double exp_vp[2] = {s->vp[0], s->vp[1]};
    int combat[HTL_MAX_UNITS], ncombat = 0;
    mk_cube cube[HTL_MAX_UNITS];
    for (int i = 0; i < s->nunits; i++) {
        int k = sc->units[i].kind, sd = sc->units[i].side;
        if (!htl_is_combat(k))
            continue;
        mp_set[sd] += sc->units[i].mp;
        if (s->u[i].hex < 0)
            continue;
        mp_now[sd] += s->u[i].mp;
        cube[ncombat] = mk_hex_cube(g0, (mk_hex)s->u[i].hex);
        combat[ncombat++] = i;
    }

    /* Threats: for each enemy combat unit, the best attack on it and half
     * of the next best, over its MP (at most 1: an elimination, 1 VP). */
    for (int a = 0; a < ncombat; a++) {
        int t = combat[a], tside = sc->units[t].side, th = s->u[t].hex;
        double best = 0, second = 0;
        for (int b = 0; b < ncombat; b++) {
            int u = combat[b];
            if (sc->units[u].side == tside)
                continue;
            int dq = cube[a].q - cube[b].q, dr = cube[a].r - cube[b].r, ds = cube[a].s - cube[b].s;
            int dist = ((dq < 0 ? -dq : dq) + (dr < 0 ? -dr : dr) + (ds < 0 ? -ds : ds)) / 2;
            if (dist > 4)
                continue;
            double e = attack_hits(s, sc, &o, u, th, dist);
            if (e > best) {
                second = best;
                best = e;
            } else if (e > second) {
                second = e;
            }
        }
        double x = (best + 0.5 * second) / (s->u[t].mp > 0 ? s->u[t].mp : 1);
        if (x > 1)
            x = 1;
        exp_vp[1 - tside] += x * (1 - tside == s->active ? 1.0 : THREAT_SECOND);
    }

    /* VP counters and lone leaders within reach of enemy combat units. */
    for (int i = 0; i < s->nunits; i++) {
        int k = sc->units[i].kind, sd = sc->units[i].side, h = s->u[i].hex;
        if (h < 0 || (k != HK_VP && k != HK_LEADER))
            continue;
        if (k == HK_LEADER && (o.h[h].foot >= 0 || o.h[h].art >= 0))
            continue;   /* stacked: safe from being overrun (HtL 7.3) */
        if (k == HK_VP && htl_occ_enemy_combat(&o, sc, h, 1 - sd))
            continue;   /* held by its own side's combat unit */
        mk_cube c = mk_hex_cube(g0, (mk_hex)h);
        double near = 0;
        for (int b = 0; b < ncombat; b++) {
            int u = combat[b];
            if (sc->units[u].side == sd)
                continue;
            int dq = c.q - cube[b].q, dr = c.r - cube[b].r, ds = c.s - cube[b].s;
            int dist = ((dq < 0 ? -dq : dq) + (dr < 0 ? -dr : dr) + (ds < 0 ? -ds : ds)) / 2;
            int rate = htl_move_rate(sc->units[u].kind);
            /* reachable this turn: full; each turn further away halves it */
            double v = dist <= rate ? 1.0 : 1.0 / (double)(1 << (dist - rate < 6 ? dist - rate : 6));
            if (v > near)
                near = v;
        }
        double w = k == HK_VP ? VPC_NEAR : LEADER_ALONE;
        exp_vp[1 - sd] += w * near * (1 - sd == s->active ? 1.0 : THREAT_SECOND);
    }

    double prog[2];
    for (int i = 0; i < 2; i++) {
        int t = s->vp_target[i];
        /* a side without a target wins only on time: measure it against
         * the other side's target (or 5) */
        int tt = t > 0 ? t : s->vp_target[1 - i] > 0 ? s->vp_target[1 - i] : 5;
        prog[i] = g(exp_vp[i] / tt);
        if (t == 0)
            prog[i] *= 0.5;
    }
    double mat[2];
    for (int i = 0; i < 2; i++)
        mat[i] = mp_set[i] > 0 ? mp_now[i] / mp_set[i] : 0;

    /* Elapsed fraction of the game: player turns played over all of them. */
    int second = s->active != s->first;
    double elapsed = ((s->turn - 1) * 2.0 + second) / (2.0 * (s->turns > 0 ? s->turns : 1));
    if (elapsed > 1)
        elapsed = 1;
    double tw;
    if (s->time_winner >= 0) {
        tw = s->time_winner == 0 ? 1.0 : -1.0;
    } else {
        double d = exp_vp[0] - exp_vp[1];
        tw = d / (1.0 + (d < 0 ? -d : d));   /* a soft sign */
    }
    double v = W_PROGRESS * (prog[0] - prog[1]) + W_MATERIAL * (mat[0] - mat[1]) +
               W_TIME * elapsed * elapsed * tw;
    if (v > 1)
        v = 1;
    if (v < -1)
        v = -1;
    return side == 0 ? v : -v;
}
