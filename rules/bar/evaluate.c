/* evaluate.c - the Monmouth (BAR) position estimate for the computer
 * players (the ruleset's evaluate hook; docs/ai.md "Monmouth (BAR)"): how
 * the victory conditions would judge the game if it ended soon; and the
 * tables it and the generators read (neighbours, cube coordinates,
 * distances and bearings to the objectives, the Fire Combat Table's means),
 * built once per scenario.
 *
 * Losses are the victory currency (7.1d-7.4d: Army Loss Record boxes), so
 * the estimate starts from each side's boxes and adds the losses its units
 * are about to suffer: the expected SPs of the enemy fire that can reach
 * them (next to them, or in range of guns and rifles), counted half
 * against the side acting now, which fires first; routed and shaken SPs.
 * Then it reads them as the scenario does:
 *  - 7.1d: the American total over the British, in hundredths, plus the
 *    objectives (B the orchard +25, C W2220 held +100 or +25 with the road
 *    to E3915 cut, E an American unit at E3915 -100), a British win from
 *    2.25, an American one to 1.75;
 *  - 7.2d-7.4d: the higher total over the lower (British units on the map
 *    count, 7.2d B; in the last turns of scenarios 2-3, by the chance that
 *    they cannot reach the exit edge in time, stays(); the advance track
 *    of 7.3d B / 7.4d B modifies the American total), the lower total
 *    winning from 1.1;
 * both damped toward the automatic draw (7.1d G, 7.2d D, 7.3d E, 7.4d E:
 * the larger loss below 8, 10 or 15 boxes is a draw). An objective not yet
 * taken counts in part as units close on it. A material term (losses
 * inflicted against losses taken, at the exchange rate the scenario asks
 * for) keeps every loss worth something where the victory reading is flat,
 * and a march term (each side's units along the road to the other's rally
 * hex, facing it) gives a one-ply search a reason to close with the enemy.
 *
 * Cost: one pass over the pieces, a bitmap of each side's hexes, the
 * neighbour table; no line of sight, no allocation. Zero-sum: side 1's
 * value is minus side 0's. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rules/bar/bar_int.h"

static uint8_t cap255(int d) { return (uint8_t)(d < 0 ? 255 : d > 255 ? 255 : d); }

/* The distance from every hex to the nearest of targets[0..n) (255 when
 * there is none or it is farther). */
static void distances(const mk_grid *g, const mk_hex *targets, int n, uint8_t *out)
{
    int size = mk_grid_size(g);
    for (int h = 0; h < MK_MAX_HEX; h++) {
        int best = -1;
        for (int k = 0; h < size && k < n; k++) {
            if (targets[k] == MK_NO_HEX)
                continue;
            int d = mk_hex_distance(g, (mk_hex)h, targets[k]);
            if (best < 0 || d < best)
                best = d;
        }
        out[h] = cap255(best);
    }
}

/* The Fire Combat Table's mean: expected SPs lost (and a little for the
 * Morale Check, 6.4e) by a hex of each terrain under a fire of each row,
 * range and SPs, over the 100 rolls (special results left out); and how
 * much of an open hex's loss a hex of each terrain takes. */
static void fire_means(bar_ext *x)
{
    const bar_charts *c = &x->ch;
    float col_mean[64];
    int ncol = c->fire.ncolumns < 64 ? c->fire.ncolumns : 64;
    for (int k = 0; k < ncol; k++) {
        double sum = 0;
        for (int roll = 0; roll < 100; roll++) {
            bar_fire_result r;
            if (bar_fire_result_of(c, k, roll, roll, &r) == 0)
                sum += r.sp + (r.morale ? 0.2 : 0);
        }
        col_mean[k] = (float)(sum / 100);
    }
    for (int row = 0; row < BAR_NFIRE_ROWS; row++)
        for (int range = 0; range <= BAR_CH_MAX_RANGE; range++)
            for (int sps = 0; sps <= BAR_EVAL_SPS; sps++)
                for (int t = 0; t < BAR_NTERRAIN; t++) {
                    int str = range >= 1 && range <= c->row[row].range ? bar_fire_strength(c, row, sps, range, 0) : -1;
                    int col = str > 0 ? bar_fire_column(c, str, bar_fire_defence(c, t, false)) : -1;
                    x->hits[row][range][sps][t] = col >= 0 && col < ncol ? col_mean[col] : 0;
                }
    /* a line of 4 SPs at range 1 as the yardstick */
    for (int t = 0; t < BAR_NTERRAIN; t++) {
        float open = x->hits[BAR_FR_LINE][1][4][BAR_T_OPEN];
        x->open_to[t] = open > 0 ? x->hits[BAR_FR_LINE][1][4][t] / open : 1;
    }
}

/* exit_cost (bar_int.h): the cheapest way from each hex to the British
 * exit edge (Dijkstra's, from the exit hexes outward over the reversed
 * steps). Roads at 5.2g's day rates: 3 major road hexes, or 2 minor, a
 * half MP. Runs once per scenario; the heap is the only allocation. */
_Static_assert(MK_MAX_HEX <= 8192, "exit_costs keeps a hex in 13 bits");
static void exit_costs(bar_ext *x, const mk_grid *g)
{
    const bar_sc_victory *v = &x->scen.victory;
    for (int h = 0; h < MK_MAX_HEX; h++) {
        x->exit_cost[h] = BAR_NO_EXIT;
        x->exit_dir[h] = 0;
    }
    if (v->exit_hex == MK_NO_HEX)
        return;
    int size = mk_grid_size(g), cap = 6 * size + 64, n = 0;
    uint32_t *heap = malloc((size_t)cap * sizeof *heap);   /* cost << 13 | hex */
    if (!heap)
        return;   /* the evaluation then reads no exit */
    for (int h = 0; h < size; h++)
        if (mk_hex_on_map_edge(g, (mk_hex)h) && mk_hex_distance(g, (mk_hex)h, v->exit_hex) <= v->exit_within &&
            x->map.terrain[h] != BAR_T_LAKE) {
            x->exit_cost[h] = 6;   /* the exit: a half MP (move.c BA_EXIT) */
            heap[n++] = 6u << 13 | (uint32_t)h;
        }
    while (n > 0) {
        uint32_t top = heap[0];
        heap[0] = heap[--n];
        for (int k = 0;;) {   /* sift down */
            int c = 2 * k + 1;
            if (c >= n)
                break;
            if (c + 1 < n && heap[c + 1] < heap[c])
                c++;
            if (heap[k] <= heap[c])
                break;
            uint32_t t = heap[k];
            heap[k] = heap[c];
            heap[c] = t;
            k = c;
        }
        mk_hex u = (mk_hex)(top & 8191);
        uint32_t cu = top >> 13;
        if (cu != x->exit_cost[u])
            continue;   /* a stale entry */
        for (int d = 0; d < 6; d++) {
            mk_hex w = x->nb[u][d];   /* a unit at w steps into u */
            if (w == MK_NO_HEX)
                continue;
            int road = bar_road(&x->map, w, u);
            /* off the road, a column of foot's cost (5.2, 5.3; "all its
             * MPs" read as 8 half MPs, a turn: an estimate) */
            int c = x->map.terrain[u] == BAR_T_LAKE
                        ? BAR_COST_PROHIBITED
                        : bar_terrain_step(x, BAR_MV_COLUMN, false, w, u, bar_hexside(&x->map, w, u));
            int step = road == BAR_ROAD_MAJOR ? 2
                       : road == BAR_ROAD_MINOR ? 3
                       : c == BAR_COST_PROHIBITED ? -1
                       : 6 * (c == BAR_COST_ALL ? 8 : c);
            if (step < 0 || cu + (uint32_t)step >= BAR_NO_EXIT || cu + (uint32_t)step >= x->exit_cost[w] || n == cap)
                continue;
            x->exit_cost[w] = (uint16_t)(cu + (uint32_t)step);
            x->exit_dir[w] = (uint8_t)((d + 3) % 6);   /* from w back to u */
            int k = n++;   /* sift up */
            heap[k] = (cu + (uint32_t)step) << 13 | (uint32_t)w;
            while (k > 0 && heap[(k - 1) / 2] > heap[k]) {
                uint32_t t = heap[k];
                heap[k] = heap[(k - 1) / 2];
                heap[(k - 1) / 2] = t;
                k = (k - 1) / 2;
            }
        }
    }
    free(heap);
}

void bar_eval_prepare(bar_ext *x, const mk_grid *g)
{
    int size = mk_grid_size(g);
    mk_hex_neighbor_table(g, x->nb, MK_MAX_HEX);
    for (int h = 0; h < MK_MAX_HEX; h++) {
        mk_cube c = h < size ? mk_hex_cube(g, (mk_hex)h) : (mk_cube){0, 0, 0};
        x->cq[h] = (int16_t)c.q;
        x->cr[h] = (int16_t)c.r;
    }
    fire_means(x);
    const bar_sc_victory *v = &x->scen.victory;
    distances(g, &x->home[BAR_AMERICAN], 1, x->dist_home[BAR_AMERICAN]);
    distances(g, &x->home[BAR_BRITISH], 1, x->dist_home[BAR_BRITISH]);
    x->home_span = mk_hex_distance(g, x->home[0], x->home[1]);
    for (int h = 0; h < MK_MAX_HEX; h++)
        for (int side = 0; side < 2; side++)
            x->bear_home[side][h] = (uint8_t)(h < size && h != x->home[side] ? bar_bearing12(g, (mk_hex)h, x->home[side]) : 0);
    distances(g, &v->threat_hex, 1, x->dist_threat);
    distances(g, &v->hold_hex, 1, x->dist_hold);
    distances(g, v->orchard, v->norchard, x->dist_orchard);
    for (int k = 0; k < 10; k++)
        distances(g, k < v->nadvance ? &v->advance[k] : NULL, k < v->nadvance, x->dist_advance[k]);
    exit_costs(x, g);   /* after the neighbours */
}

/* Weights (ours, docs/ai.md): the share of its SPs a routed unit is
 * expected to lose, the weight of the march and of objectives not taken. */
#define ROUTED 0.25      /* a routed unit */
#define ROUTED_NEAR 0.6  /* a routed unit next to formed enemies (close combat overruns it) */
#define SHAKEN 0.04      /* Shaken or Disordered: weaker in every combat, per SP */
#define REACH 12.0       /* hexes: an objective counts from this close */
#define MARCH 0.1        /* the advance on the enemy's rally hex */
#define FACING 0.5       /* hexes of the advance a unit facing the enemy's rally hex is worth */
#define MAX_SLOTS 255    /* hexes with units (uint8_t indices; a two-hex unit fills two; past it, left out) */
#define BITS ((MK_MAX_HEX + 63) / 64)
#define MAX_LONG 128     /* firers with a range beyond LONG hexes */
#define LONG 2           /* longer ranges (guns, rifles) reach every enemy hex in range; shorter ones
                          * only the hexes next to the firer */

static double sq(double v) { return v * v; }

/* The part of an objective's value a unit `d` hexes away earns. */
static double closeness(int d) { return d >= REACH ? 0 : 0.3 * sq(1.0 - d / REACH); }

/* A hex with units (one side's: a hex never holds both sides' units,
 * tests/test_bar_game.c) and what they face. */
typedef struct slot {
    mk_hex hex;
    int8_t side;
    bool formed;       /* a unit not routed */
    bool engaged;      /* next to formed enemy units */
    float sp, routed_sp;
    float fire1;       /* expected SPs its fire takes from an adjacent open hex (ranges to LONG) */
    float threat;      /* expected SPs the enemy's fire takes from it */
} slot;

/* Fire that may come: each formed firer's expected hits (the Fire Combat
 * Table's mean, bar_eval_prepare) shared among the enemy hexes it can
 * reach; a unit in a formation that cannot fire does not threaten (but
 * limbered artillery, at half: it can unlimber and fire next time). */
static void fire_threats(const bar_state *s, const bar_ext *x, slot *sl, int nsl, const uint8_t *slot_of,
                         const uint64_t (*used)[BITS], const int16_t *lng, int nlong)
{
    uint8_t by_side[2][MAX_SLOTS];
    int16_t bq[2][MAX_SLOTS], br[2][MAX_SLOTS];   /* by_side's cube q and r, side by side for the scan below */
    int nby[2] = {0, 0}, qlo[2] = {1 << 14, 1 << 14}, qhi[2] = {-(1 << 14), -(1 << 14)};
    int rlo[2] = {1 << 14, 1 << 14}, rhi[2] = {-(1 << 14), -(1 << 14)};
    int slo[2] = {1 << 14, 1 << 14}, shi[2] = {-(1 << 14), -(1 << 14)};
    for (int k = 0; k < nsl; k++) {
        int side = sl[k].side, q = x->cq[sl[k].hex], r = x->cr[sl[k].hex];
        bq[side][nby[side]] = (int16_t)q;
        br[side][nby[side]] = (int16_t)r;
        by_side[side][nby[side]++] = (uint8_t)k;
        qlo[side] = q < qlo[side] ? q : qlo[side];   /* the columns each side spans */
        qhi[side] = q > qhi[side] ? q : qhi[side];
        rlo[side] = r < rlo[side] ? r : rlo[side];   /* and the other two cube axes */
        rhi[side] = r > rhi[side] ? r : rhi[side];
        slo[side] = -q - r < slo[side] ? -q - r : slo[side];
        shi[side] = -q - r > shi[side] ? -q - r : shi[side];
    }
    /* short range: each formed hex next to enemy hexes (none where the
     * hex lies 2 or more outside the enemy's span on a cube axis: a
     * neighbour differs by 1 at most on each) */
    for (int k = 0; k < nsl; k++) {
        if (!sl[k].formed)
            continue;
        int f = 1 - sl[k].side, q = x->cq[sl[k].hex], r = x->cr[sl[k].hex];
        if (q < qlo[f] - 1 || q > qhi[f] + 1 || r < rlo[f] - 1 || r > rhi[f] + 1 || -q - r < slo[f] - 1 ||
            -q - r > shi[f] + 1)
            continue;
        const uint64_t *foe = used[1 - sl[k].side];
        const mk_hex *nb = x->nb[sl[k].hex];
        int in[6], n = 0;
        for (int d = 0; d < 6; d++)
            if (nb[d] != MK_NO_HEX && (foe[nb[d] >> 6] >> (nb[d] & 63) & 1))
                in[n++] = slot_of[nb[d]];
        for (int t = 0; t < n; t++) {
            sl[in[t]].engaged = true;
            sl[in[t]].threat += sl[k].fire1 * x->open_to[x->map.terrain[sl[in[t]].hex]] / n;
        }
    }
    for (int j = 0; j < nlong; j++) {
        const bar_pc *p = &s->pc[lng[j]];
        const bar_pinfo *pi = &x->p[lng[j]];
        int reach = x->ch.row[pi->fire_row].range, form = p->form, n = 0, foe_side = 1 - pi->side;
        if (x->cq[p->hex] + reach < qlo[foe_side] || x->cq[p->hex] - reach > qhi[foe_side])
            continue;   /* no enemy within reach (flat-topped: q is the column) */
        float half = 1;
        if (form == BAR_FM_ARTILLERY_ROAD_COLUMN)
            form = BAR_FM_ARTILLERY, half = 0.5f;
        int sps = p->sp < x->ch.max_firing[form] ? p->sp : x->ch.max_firing[form];
        if (sps > BAR_EVAL_SPS)
            sps = BAR_EVAL_SPS;
        if ((p->status & (BS_DISORDERED | BS_SHAKEN)) && x->se.fire_disordered_halved)
            half *= 0.5f;
        uint8_t in[MAX_SLOTS];
        int8_t at[MAX_SLOTS];
        const uint8_t *foe = by_side[foe_side];
        const int16_t *fq = bq[foe_side], *fr = br[foe_side];
        int q = x->cq[p->hex], r = x->cr[p->hex];
        int16_t dist[MAX_SLOTS];   /* every distance first, in a loop the compiler vectorises */
        for (int k = 0; k < nby[foe_side]; k++) {
            int dq = fq[k] - q, dr = fr[k] - r, ds = dq + dr;
            dist[k] = (int16_t)(((dq < 0 ? -dq : dq) + (dr < 0 ? -dr : dr) + (ds < 0 ? -ds : ds)) / 2);
        }
        for (int k = 0; k < nby[foe_side]; k++)
            if (dist[k] <= reach) {
                in[n] = foe[k];
                at[n++] = (int8_t)dist[k];
            }
        for (int k = 0; k < n; k++)
            sl[in[k]].threat += half * x->hits[pi->fire_row][at[k]][sps][x->map.terrain[sl[in[k]].hex]] / n;
    }
}

/* 7.2d B, 7.3d C: how likely British unit i, on the map, is to be on it
 * still at the end (a British loss) rather than gone by the exit edge:
 * from its slack, the turns of marching to spare once it has paid the
 * way there (exit_cost; a unit out of Road Column changes formation
 * first), counting the MPs it has left now, a turn not yet activated,
 * each turn to come (weights: docs/ai.md "Monmouth's exit"). */
#define EXIT_FORM 12      /* sixths of a half MP: the change to Road Column (an estimate) */
#define EXIT_RELY 0.35    /* the turns of marching a turn to come is worth: a Command is
                           * not activated in every turn (the End Turn marker), and a
                           * column moves no faster than the unit at its head, which
                           * may be holding the road (measured, docs/ai.md) */
#define EXIT_NIGHT 0.33   /* a Night turn's march (5.2g: a half MP a road hex, not a third) */
#define EXIT_SPREAD 0.8   /* turns of slack: the chance falls by e each */
#define EXIT_WEIGHT 0.3   /* every British unit gone by the end against every one left */
#define EXIT_TURNS 20     /* turns before the last: the British turn for the exit (over 3 turns) */
static double stays(const bar_state *s, const mk_scenario *sc, int i, double turns_after)
{
    const bar_ext *x = bar_x(sc);
    const bar_pc *p = &s->pc[i];
    int per = 6 * x->p[i].mp_half;
    if (per <= 0 || x->exit_cost[p->hex] == BAR_NO_EXIT || x->p[i].independent)
        return 1;   /* an Independent moves only with a Command whose leader has it in range
                     * (game.c bar_piece_active): a march out one-ply play does not plan */
    double w = s->turn >= x->first_night ? EXIT_NIGHT : 1, now = 0;
    if (s->phase == BP_MOVE && bar_piece_active(s, sc, i)) {
        /* its MPs left, and the road hexes the half MP it is marching on
         * still pays for (5.2g): a step toward the exit is worth what it
         * costs, and ending the activation with MPs to spare loses them */
        bool night = s->turn >= x->first_night;
        int kinds = p->road >> 2 & 3, free = bar_road_hexes_per_half_mp(kinds, night) - (p->road & 3);
        now = w * 6 * p->mp + (free > 0 ? free * (night ? 6 : kinds == BAR_ROAD_MAJOR ? 2 : 3) : 0);
    } else if (!(p->flags & BF_ACTED) && !bar_org_acted(s, BAR_BRITISH, x->p[i].org)) {
        now = w * EXIT_RELY * per;   /* its Command not yet activated this turn */
    }
    int cost = x->exit_cost[p->hex] +
               (p->form == BAR_FM_ROAD_COLUMN || p->form == BAR_FM_ARTILLERY_ROAD_COLUMN ? 0 : EXIT_FORM);
    /* a unit moves through its front: turning to face the first step costs
     * (move.c's BA_FACE: face_half each 60 degrees past the front's 60) */
    int off = abs(bar_dir_step(x->exit_dir[p->hex]) - p->facing) % 12;
    off = (off > 6 ? 12 - off : off) - 2;
    if (off > 0 && p->form != BAR_FM_SQUARE)
        cost += 6 * x->se.face_half * ((off + 1) / 2);
    double slack = (now - cost) / per + turns_after;
    return 1 / (1 + exp(slack / EXIT_SPREAD));
}

/* The American view, in [-1, 1]. */
static double american_value(const bar_state *s, const mk_scenario *sc)
{
    const bar_ext *x = bar_x(sc);
    const bar_sc_victory *v = &x->scen.victory;
    uint64_t used[2][BITS];   /* hexes with each side's units */
    uint8_t slot_of[MK_MAX_HEX];   /* read only where `used` has the hex */
    slot sl[MAX_SLOTS];
    int16_t lng[MAX_LONG];
    int nsl = 0, nlong = 0;
    memset(used, 0, sizeof used);
    double loss[2], near_threat = 255, near_hold = 255, near_orchard = 255, march[2] = {0, 0};
    int units[2] = {0, 0}, next_adv = 0, near_adv = 255;
    double on_map_br = 0;
    /* 7.2d B, 7.3d C: the turns of marching left after this one; late,
     * the British stop marching on the American rally hex (lambda) and
     * go for the exit */
    bool exits = v->exit_hex != MK_NO_HEX;
    double turns_after = 0, lambda = 0;
    if (exits) {
        for (int k = s->turn + 1; k <= x->last_turn; k++)
            turns_after += EXIT_RELY * (k >= x->first_night ? EXIT_NIGHT : 1);
        lambda = (s->turn - (x->last_turn - EXIT_TURNS)) / 3.0;
        lambda = lambda < 0 ? 0 : lambda > 1 ? 1 : lambda;
    }
    while (next_adv < v->nadvance && (s->advance >> next_adv & 1))
        next_adv++;
    for (int side = 0; side < 2; side++)
        loss[side] = s->loss[side] + s->art_lost[side][0] / 2.0 + s->art_lost[side][1] / 4.0;
    loss[BAR_BRITISH] += s->baggage;   /* 7.4a F iii: each baggage loss is a British SP */
    for (int i = 0; i < s->npieces; i++) {
        const bar_pc *p = &s->pc[i];
        const bar_pinfo *pi = &x->p[i];
        if (bar_is_leader(pi) || (p->flags & BF_ELIM) || (p->more2 & BM2_OUT))
            continue;
        int side = pi->side;
        units[side]++;
        /* 7.2d B: on the map at the end (reinforcements will be), unless
         * it can still leave */
        double late = side == BAR_BRITISH ? lambda : 0;
        if (side == BAR_BRITISH && pi->arrive <= x->last_turn && !(p->more & BM_EXITED))
            on_map_br += exits && lambda > 0 && p->hex != MK_NO_HEX ? stays(s, sc, i, turns_after) : 1;
        /* each side marches on the other's rally hex (7.0 B): the
         * objectives of every scenario lie on the road between them; a
         * reinforcement counts from its entry hex */
        mk_hex at = p->hex != MK_NO_HEX ? p->hex : pi->entry;
        if (at != MK_NO_HEX)
            march[side] += (1 - late) * x->dist_home[1 - side][at] + late * x->home_span;
        if (p->hex != MK_NO_HEX && !(p->status & BS_ROUTED) && p->form != BAR_FM_HOOK &&
            bar_faces(s, i, x->bear_home[1 - side][p->hex]))
            march[side] -= (1 - late) * FACING;   /* a Line moves through its front only (so turning toward
                                                   * the enemy counts); a Hook does not move (docs/bar.md
                                                   * "Hook") */
        /* each hex of the unit (2.1a, 2.1c: a two-hex unit's second hex
         * with its share of the SPs) */
        for (int part = 0; part < 2; part++) {
            mk_hex h = part ? bar_tail_hex(s, sc, i) : p->hex;
            if (h == MK_NO_HEX || nsl == MAX_SLOTS)
                continue;
            int psp = part == 0 && p->tail < 1 ? p->sp : bar_sp_in(s, sc, i, h);   /* (one hex: all its SPs) */
            if (!(used[side][h >> 6] >> (h & 63) & 1)) {
                used[side][h >> 6] |= 1ull << (h & 63);
                slot_of[h] = (uint8_t)nsl;
                sl[nsl++] = (slot){.hex = h, .side = (int8_t)side};
            }
            slot *t = &sl[slot_of[h]];
            t->sp += psp;
            if (p->status & BS_ROUTED) {
                t->routed_sp += psp;
                continue;
            }
            t->formed = true;
            if (p->status & (BS_SHAKEN | BS_DISORDERED))
                loss[side] += SHAKEN * psp;
            int most = x->ch.max_firing[p->form];
            int row = bar_fire_row_now(s, sc, i);   /* (mounted or dismounted: 4.1b E, 7.4a C) */
            if (row >= 0 && x->ch.row[row].range > LONG) {
                if (part == 0 && nlong < MAX_LONG && (most > 0 || p->form == BAR_FM_ARTILLERY_ROAD_COLUMN))
                    lng[nlong++] = (int16_t)i;
            } else if (row >= 0 && most > 0) {
                int sps = psp < most ? psp : most;
                float e = x->hits[row][1][sps > BAR_EVAL_SPS ? BAR_EVAL_SPS : sps][BAR_T_OPEN];
                if ((p->status & (BS_DISORDERED | BS_SHAKEN)) && x->se.fire_disordered_halved)
                    e *= 0.5f;
                t->fire1 += e;
            }
            /* objectives reached by formed units */
            if (side == BAR_AMERICAN) {
                if (x->dist_threat[h] < near_threat)
                    near_threat = x->dist_threat[h];
            } else {
                if (x->dist_hold[h] < near_hold)
                    near_hold = x->dist_hold[h];
                if (x->dist_orchard[h] < near_orchard)
                    near_orchard = x->dist_orchard[h];
                if (next_adv < v->nadvance && x->dist_advance[next_adv][h] < near_adv)
                    near_adv = x->dist_advance[next_adv][h];
            }
        }
    }
    fire_threats(s, x, sl, nsl, slot_of, used, lng, nlong);
    /* the side acting now fires first: the threats to it count half */
    bool acting = s->phase == BP_MOVE || s->phase == BP_FIRE || s->phase == BP_CC;
    for (int k = 0; k < nsl; k++) {
        const slot *t = &sl[k];
        double w = !acting ? 0.75 : t->side == s->side ? 0.5 : 1.0;
        double formed_sp = t->sp - t->routed_sp;
        double lost = w * t->threat;
        loss[t->side] += lost < formed_sp ? lost : formed_sp;
        if (t->routed_sp > 0)
            loss[t->side] += t->routed_sp * (t->engaged ? ROUTED_NEAR : ROUTED);
    }
    double am = loss[BAR_AMERICAN], br = loss[BAR_BRITISH];
    double decisive = (am > br ? am : br) / (v->auto_draw > 0 ? v->auto_draw : 8);
    if (decisive > 1)
        decisive = 1;
    double outcome, material;
    if (x->scenario == 1) {
        /* 7.1d: British-favoured modifiers, in hundredths of the ratio */
        double mod = 0;
        if (v->norchard > 0) {
            int bits = 0;
            for (int k = 0; k < v->norchard; k++)
                bits += s->orchard >> k & 1;
            mod += bits == v->norchard ? 25 : 25 * (0.5 * bits / v->norchard + closeness((int)near_orchard));
        }
        if (v->hold_hex != MK_NO_HEX) {
            if (near_hold <= 1) {
                bar_victory_in in;   /* the road to E3915 (its search only runs here) */
                bar_victory_input(s, sc, &in);
                mod += in.interdicted ? 25 : 100;
            } else {
                mod += 100 * closeness((int)near_hold);
            }
        }
        if (v->threat_hex != MK_NO_HEX)
            mod -= s->american_e3915 ? 100 : 100 * closeness((int)near_threat);
        double ratio = 100 * (am + 0.5) / (br + 0.5) + mod;
        outcome = -tanh((ratio - 200) / 75);   /* the draw band 1.75-2.25 */
        material = -tanh((am - 2 * br) / 8 + mod / 200);
    } else {
        /* 7.2d-7.4d: the lower total wins */
        if (x->scenario >= 3 && v->nadvance > 0) {
            int cur = bar_advance_modifier(s->advance);
            double mod = cur;
            if (next_adv < v->nadvance)
                mod += (v->advance_mod[next_adv] - cur) * closeness(near_adv);
            am = mod < 0 ? fmax(am + mod, fmin(am, 1)) : am + mod;
        }
        double total_br = br + on_map_br;   /* as bar_victory counts them */
        outcome = tanh(log((total_br + 0.5) / (am + 0.5)) / 0.4);
        material = tanh((loss[BAR_BRITISH] - loss[BAR_AMERICAN]) / 8);
    }
    /* the share of the road between the rally hexes covered, per unit */
    double span = x->home_span > 0 ? x->home_span : 1, adv = 0;
    for (int side = 0; side < 2; side++)
        if (units[side])
            adv += (side == BAR_AMERICAN ? 1 : -1) * (1 - march[side] / units[side] / span);
    /* 7.2d B: the British units expected to be gone (0 until the exit
     * nears), against the Americans; then back to [-1, 1] (the evaluate
     * hook's range) by the weights' sum, and clamped, since the march's
     * share can pass 1 a little (a unit beyond the far rally hex) */
    double left = exits && units[BAR_BRITISH] ? EXIT_WEIGHT * (on_map_br / units[BAR_BRITISH] - 1) : 0;
    double val = (0.7 * decisive * outcome + 0.2 * material + MARCH * adv + left) / (exits ? 1 + EXIT_WEIGHT : 1);
    return val > 1 ? 1 : val < -1 ? -1 : val;
}

double bar_evaluate(const void *st, const mk_scenario *sc, int side)
{
    const bar_state *s = st;
    if (s->phase == BP_OVER)
        return s->winner < 0 ? 0 : s->winner == side ? 1 : -1;
    double v = american_value(s, sc);
    return side == BAR_AMERICAN ? v : -v;
}
