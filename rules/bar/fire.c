/* fire.c - the Fire Combat Segment (Monmouth 6.3-6.6 with the series Fire
 * Combat Table as charts.json data): fire strength (SPs up to the
 * formation's maximum firing, 2.1e, times the row's multiple at the range,
 * 1.2b; artillery brackets 2.7, heat 2.8 F, hedgerow 5.3c, uphill slope
 * 5.3d), the column against the target hex's fire defence (2.1f), the
 * percentile roll with the special results 00-09 (6.3-6.5: a column shift
 * and a re-roll, a Leader Loss check on the even rolls), the SPs lost and
 * the Morale Check the result calls for (6.4e), light limits (2.7 C-D).
 *
 * A unit fires through its front (series facing) at a hex with an enemy
 * combat unit in line of sight (5.4b, bar_los). Ours (docs/bar.md): the SPs
 * are lost by the target hex's strongest unit, which also takes the check;
 * a Disordered or Shaken firer is halved (series.json); the special results
 * other than the column shifts are reported, not applied. */
#include <stdlib.h>

#include "rules/bar/bar_int.h"

typedef struct los_ctx {
    const bar_state *s;
    const mk_scenario *sc;
    const bar_occ *o;   /* the caller's index, or NULL: scan the pieces */
    mk_hex from, to;
} los_ctx;

static bool blocks(mk_hex h, const void *vctx)
{
    const los_ctx *c = vctx;
    if (h == c->from || h == c->to)
        return false;
    if (!c->o)
        return bar_unit_at(c->s, c->sc, h, -1, false);
    const bar_ext *x = bar_x(c->sc);
    BAR_OCC_EACH(c->o, h, i)
        if (!bar_is_leader(&x->p[i]))
            return true;
    return false;
}

static bool can_fire(const bar_state *s, const mk_scenario *sc, int i)
{
    const bar_ext *x = bar_x(sc);
    const bar_pc *p = &s->pc[i];
    /* the cheap tests first: most pieces are not in the activation */
    return p->hex != MK_NO_HEX && !bar_is_leader(&x->p[i]) && bar_fire_row_now(s, sc, i) >= 0 &&
           !(p->status & BS_ROUTED) && !(p->flags & BF_FIRED) && !(p->more2 & BM2_BATTERY) &&
           bar_max_sps_firing(&x->ch, p->form) > 0 && bar_piece_active(s, sc, i) &&
           bar_rgt_may_fire(s, sc, i);   /* Monmouth 2.2d E ii, iv */
}

/* bar_fire_strength_of, with the caller's index o (or NULL); listing
 * (legal) skips the line of sight where the strength is below the table,
 * as such a fire is not listed whatever the line. */
static int strength_at(const bar_state *s, const mk_scenario *sc, const bar_occ *o, bool listing, int i,
                       mk_hex at, int sps, mk_hex target, int *column)
{
    const bar_ext *x = bar_x(sc);
    const bar_pc *p = &s->pc[i];
    *column = -1;
    if (at == MK_NO_HEX || target == MK_NO_HEX)
        return -1;
    int row = bar_fire_row_now(s, sc, i);   /* 4.1b E, 7.4a C */
    if (row < 0)
        return -1;
    bool art = bar_fire_row_artillery(row);
    int range = mk_hex_distance(&sc->map.grid, at, target);
    bar_light light = bar_light_of(s->turn);
    int lim = bar_fire_range_limit(light, art);
    if (range < 1 || (lim != BAR_RANGE_CHART && range > lim) || range > x->ch.row[row].range)
        return -1;
    if (at == p->hex ? !bar_is_front(s, sc, i, target) : !bar_faces(s, i, bar_bearing12(&sc->map.grid, at, target)))
        return -1;
    int most = bar_max_sps_firing(&x->ch, p->form);
    /* 2.1e: "For Hook, see the diagrams on the 'Fire Combat Card'" (we do
     * not have them; ours, docs/bar.md "Hook"): the Line's 6 at a hex both
     * arms bear on, hook_one_arm_sps (series.json) at a hex one arm does */
    if (p->form == BAR_FM_HOOK && bar_hook_arms(s, i, bar_bearing12(&sc->map.grid, p->hex, target)) != 3)
        most = x->se.hook_arm_sps;
    if (most >= 0 && sps > most)
        sps = most;
    unsigned flags = 0;
    if (art && bar_artillery_bracketed(light, range))
        flags |= BAR_FSF_BRACKETED;
    if (art && bar_artillery_halved(s->turn))
        flags |= BAR_FSF_HEAT;
    if (range == 1) {
        unsigned side = bar_hexside(&x->map, at, target);
        if (side & BAR_HS_HEDGEROW)
            flags |= BAR_FSF_HEDGEROW;
        if ((side & (BAR_HS_REGULAR_SLOPE | BAR_HS_GENTLE_SLOPE)) &&
            x->map.elevation[target] > x->map.elevation[at])
            flags |= BAR_FSF_UPHILL_SLOPE;
    }
    int str = bar_fire_strength(&x->ch, row, sps, range, flags);
    if (str < 0)
        return -1;
    if (x->se.fire_disordered_halved && (p->status & (BS_DISORDERED | BS_SHAKEN)))
        str = bar_fire_strength_halved(str);
    int col = bar_fire_column(&x->ch, str, bar_fire_defence(&x->ch, x->map.terrain[target], false));
    if (listing && col < 0)
        return -1;
    if (range > 1) {
        los_ctx c = {s, sc, o, at, target};
        bar_los_result r;
        mk_error err;
        if (bar_los(&x->map, at, target, blocks, &c, &r, &err) < 0 || !r.clear)
            return -1;
    }
    *column = col;
    return str;
}

static int strength(const bar_state *s, const mk_scenario *sc, const bar_occ *o, bool listing, int i,
                    mk_hex target, int *column)
{
    const bar_ext *x = bar_x(sc);
    const bar_pc *p = &s->pc[i];
    mk_hex t2 = p->form == BAR_FM_LINE ? bar_tail_hex(s, sc, i) : MK_NO_HEX;
    if (t2 == MK_NO_HEX)
        return strength_at(s, sc, o, listing, i, p->hex, p->sp, target, column);
    /* Monmouth 2.1a (ours, docs/bar.md "Two-hex Line"): a two-hex Line
     * fires once, each hex that bears on the target (range, front, line of
     * sight) with up to 6 of its own SPs, the strengths added */
    int c1, c2;
    int a = strength_at(s, sc, o, false, i, p->hex, bar_sp_in(s, sc, i, p->hex), target, &c1);
    int b = strength_at(s, sc, o, false, i, t2, bar_sp_in(s, sc, i, t2), target, &c2);
    *column = -1;
    if (a < 0 && b < 0)
        return -1;
    int str = (a > 0 ? a : 0) + (b > 0 ? b : 0);
    int col = bar_fire_column(&x->ch, str, bar_fire_defence(&x->ch, x->map.terrain[target], false));
    if (listing && col < 0)
        return -1;
    *column = col;
    return str;
}

int bar_fire_strength_of(const bar_state *s, const mk_scenario *sc, int i, mk_hex target, int *column)
{
    return strength(s, sc, NULL, false, i, target, column);
}

/* 2.2d E iv: infantry unit i and its regimental guns g at target, one
 * fire: the two strengths added (the guns' SPs count as zero towards the
 * infantry's maximum firing), the column of the sum; -1 if either cannot
 * fire at it. */
static int combined(const bar_state *s, const mk_scenario *sc, const bar_occ *o, int i, int g, mk_hex target,
                    int *column)
{
    const bar_ext *x = bar_x(sc);
    int c1, c2;
    int a = strength(s, sc, o, false, i, target, &c1), b = strength(s, sc, o, false, g, target, &c2);
    *column = -1;
    if (a < 0 || b < 0)
        return -1;
    *column = bar_fire_column(&x->ch, a + b, bar_fire_defence(&x->ch, x->map.terrain[target], false));
    return a + b;
}

int bar_fire_strength_with(const bar_state *s, const mk_scenario *sc, int i, int guns, mk_hex target, int *column)
{
    return guns >= 0 ? combined(s, sc, NULL, i, guns, target, column) : strength(s, sc, NULL, false, i, target, column);
}

int bar_legal_fire(const bar_state *s, const mk_scenario *sc, const mk_action *want, mk_action *out,
                   int n, int cap)
{
    const bar_ext *x = bar_x(sc);
    bar_occ occ;
    bar_occ_build(&occ, s, sc);
    int lo, hi;
    bar_want_range(s, want, &lo, &hi);
    if (n < cap)
        out[n++] = (mk_action){.type = BA_NEXT, .unit = -1, .other = -1, .target = -1};
    for (int i = lo; i < hi && n < cap; i++) {
        if (!can_fire(s, sc, i))
            continue;
        int reach = x->ch.row[bar_fire_row_now(s, sc, i)].range;
        mk_hex seen[64];
        int nseen = 0;
        for (int jj = 0; jj < 2 * s->npieces && n < cap; jj++) {
            int j = jj >> 1;   /* each piece's hex, then its trailing hex (2.1c) */
            mk_hex h = jj & 1 ? bar_tail_hex(s, sc, j) : s->pc[j].hex;
            mk_hex i2 = bar_tail_hex(s, sc, i);   /* 2.1a: a two-hex Line reaches from either hex */
            if (h == MK_NO_HEX || x->p[j].side == x->p[i].side || bar_is_leader(&x->p[j]) ||
                (mk_hex_distance(&sc->map.grid, s->pc[i].hex, h) > reach &&
                 (i2 == MK_NO_HEX || mk_hex_distance(&sc->map.grid, i2, h) > reach)))
                continue;
            bool dup = false;
            for (int k = 0; k < nseen; k++)
                dup |= seen[k] == h;
            if (dup || nseen == 64)
                continue;
            seen[nseen++] = h;
            if (want && h != want->target)
                continue;   /* apply's check: only the hex fired at */
            int col;
            if (strength(s, sc, &occ, true, i, h, &col) >= 0 && col >= 0)
                out[n++] = (mk_action){.type = BA_FIRE, .unit = (int16_t)i, .other = -1, .target = h};
            /* Monmouth 2.2d E iv: with its regimental guns, one fire */
            int g = bar_rgt_guns_with(s, sc, i);
            if (g >= 0 && n < cap && combined(s, sc, &occ, i, g, h, &col) >= 0 && col >= 0)
                out[n++] = (mk_action){.type = BA_FIRE, .flags = BAF_GUNS, .unit = (int16_t)i, .other = (int16_t)g,
                                       .target = h};
        }
    }
    /* 3.2b C-D, 4.2b D: artillery not yet activated fires with a Special
     * Leader's battery */
    return bar_legal_battery(s, sc, lo, hi, out, n, cap);
}

/* The unit of hex h that takes the losses: the most SPs (then the first). */
static int top_unit(const bar_state *s, const mk_scenario *sc, mk_hex h)
{
    const bar_ext *x = bar_x(sc);
    int best = -1;
    for (int j = 0; j < s->npieces; j++)
        if (bar_in_hex(s, sc, j, h) && !bar_is_leader(&x->p[j]) && !bar_rgt_spared(s, sc, j) &&   /* 2.2d E vi */
            (best < 0 || s->pc[j].sp > s->pc[best].sp))
            best = j;
    return best;
}

int bar_apply_fire(bar_state *s, const mk_scenario *sc, const mk_action *a, mk_events *ev, mk_error *err)
{
    int i = a->unit, guns = a->flags & BAF_GUNS ? a->other : -1;
    if (!bar_piece_active(s, sc, i)) {   /* 3.2b C-D, 4.2b D: with the battery */
        const bar_ext *x = bar_x(sc);
        s->pc[i].flags |= BF_FIRED;
        s->pc[i].more2 |= BM2_BATTERY;
        mk_event *e = bar_ev(ev, "battery_fire", s->bat_leader == x->pc_art[2] ? "Monmouth 4.2b D"
                                                 : s->bat_leader == x->pc_art[1] ? "Monmouth 3.2b D"
                                                                                 : "Monmouth 3.2b C");
        e->unit = (int16_t)i;
        e->other = s->bat_leader;
        e->target = a->target;
        bar_resolve_fire(s, sc, i, a->target, false, ev);
        return 0;
    }
    s->pc[i].flags |= BF_FIRED | BF_MOVED;
    if (guns >= 0) {
        s->pc[guns].flags |= BF_FIRED | BF_MOVED;
        mk_event *e = bar_ev(ev, "combined_fire", "Monmouth 2.2d E iv");
        e->unit = (int16_t)i;
        e->other = (int16_t)guns;
        e->target = a->target;
    }
    bar_resolve_fire_with(s, sc, i, guns, a->target, false, ev);
    bar_battery_note(s, sc, i, a->target);
    (void)err;
    return 0;
}

/* One fire of unit i at hex target (defensive: the defender's fire before
 * a Close Combat, with the chart's Defensive Fire special results). */
void bar_resolve_fire(bar_state *s, const mk_scenario *sc, int i, mk_hex target, bool defensive, mk_events *ev)
{
    bar_resolve_fire_with(s, sc, i, -1, target, defensive, ev);
}

/* The same with infantry unit i's regimental guns (2.2d E iv; -1 none):
 * one roll on the infantry's table at the column of the added strengths. */
void bar_resolve_fire_with(bar_state *s, const mk_scenario *sc, int i, int guns, mk_hex target, bool defensive,
                           mk_events *ev)
{
    const bar_ext *x = bar_x(sc);
    int col;
    int str = bar_fire_strength_with(s, sc, i, guns, target, &col);
    if (str < 0 || col < 0)
        return;
    bool art = bar_fire_row_artillery(bar_fire_row_now(s, sc, i));
    int roll = mk_rng_d100(&s->head.rng);
    mk_event *e = bar_ev(ev, "roll", defensive ? "Series (Defensive Fire; our reading: docs/bar.md), Monmouth 6.3-6.4"
                                               : "Monmouth 6.3-6.5 (Fire Combat Table)");
    e->purpose = defensive ? "defensive_fire" : "fire";
    e->unit = (int16_t)i;
    e->target = target;
    e->die = 100;
    e->value = (int16_t)roll;
    e->points = (int16_t)(str / 100);
    e->text = x->ch.fire.col[col].name;
    bool leader = false;
    int special = bar_fire_special_of(&x->ch, defensive ? BAR_FIRE_DEFENSIVE : art ? BAR_FIRE_ARTILLERY : BAR_FIRE_INFANTRY,
                                      roll, false, &leader);
    if (special >= 0) {
        /* 6.3-6.5: the special result, then the roll again for the fire */
        mk_event *sp = bar_ev(ev, "special", art ? "Monmouth 6.5" : "Monmouth 6.3-6.4");
        sp->unit = (int16_t)i;
        sp->text = bar_fire_special_name(special);
        int shift = bar_fire_special_shift(special);
        if (shift)
            mk_event_mod(sp, shift, "column shift");
        col = bar_fire_column_shift(&x->ch, col, shift);
        if (leader)
            bar_leader_check(s, sc, target, roll, ev);
        roll = mk_rng_d100(&s->head.rng);
        mk_event_value(e, roll);
    }
    bar_fire_result r = {0, 0};
    if (col >= 0)
        bar_fire_result_of(&x->ch, col, roll, roll, &r);
    e->hits = (int16_t)r.sp;
    int t = top_unit(s, sc, target);
    if (t < 0)
        return;
    if (r.sp > 0)
        bar_lose_sp(s, sc, t, r.sp, ev);
    if (r.morale && bar_alive(s, t) && !(s->pc[t].status & BS_ROUTED)) {
        int mod = x->map.terrain[target] == BAR_T_WOODS || x->map.terrain[target] == BAR_T_MARSH_WOODS
                      ? x->ch.er_woods_morale
                      : 0;
        bar_do_check(s, sc, t, 'M', r.morale, mod, "Monmouth 6.4e, 6.9 (Morale Check)", ev);
    }
}

/* --- Opportunity Fire: 2.2d D against Road Movement; the series' general
 * Op Fire (Standard 12.8, reconstructed: docs/bar.md) ----------------- */

static bool fired_at(const bar_state *s, int j, int i)
{
    for (int k = 0; k < s->nof; k++)
        if (s->of[k][0] == j && s->of[k][1] == i)
            return true;
    return false;
}

/* General Op Fires into hex h this activation (12.8e: at most two). */
static int opx_count(const bar_state *s, mk_hex h)
{
    int c = 0;
    for (int k = 0; k < s->nopx; k++)
        c += s->opx[k] == h;
    return c;
}

/* 2.2d D: can reactive artillery piece j fire at mover i on the road?
 * Unlimbered, not routed, the mover in its range (the chart's; not its
 * minimum), through its front, in line of sight. */
static bool may_road(const bar_state *s, const mk_scenario *sc, int j, int i)
{
    const bar_ext *x = bar_x(sc);
    const bar_pc *p = &s->pc[j];
    int col;
    return x->p[j].kind == BK_ARTILLERY && p->form == BAR_FM_ARTILLERY &&
           bar_fire_strength_of(s, sc, j, s->pc[i].hex, &col) >= 0 && col >= 0;
}

/* Series 12.8 (ours): reactive unit j, next to mover i and facing its hex
 * (the mover is in its ZOC), fires at it; at most twice into a hex an
 * activation (12.8e). */
static bool may_close(const bar_state *s, const mk_scenario *sc, int j, int i)
{
    const bar_ext *x = bar_x(sc);
    const bar_pc *p = &s->pc[j];
    mk_hex h = s->pc[i].hex;
    if (mk_hex_distance(&sc->map.grid, p->hex, h) != 1 || bar_max_sps_firing(&x->ch, p->form) <= 0 ||
        p->form == BAR_FM_SKIRMISH || p->form == BAR_FM_ROAD_COLUMN || opx_count(s, h) >= 2 ||
        s->nopx >= (int)(sizeof s->opx / sizeof s->opx[0]))
        return false;
    int col;
    return bar_fire_strength_of(s, sc, j, h, &col) >= 0 && col >= 0;
}

/* Can reactive piece j fire at mover i now (the pending kinds)? Once per
 * activation per (reactive unit, mover) pair (2.2d D; ours for 12.8). */
static bool may_opfire(const bar_state *s, const mk_scenario *sc, int j, int i)
{
    const bar_ext *x = bar_x(sc);
    const bar_pc *p = &s->pc[j];
    if (p->hex == MK_NO_HEX || bar_is_leader(&x->p[j]) || x->p[j].side == x->p[i].side ||
        (p->status & BS_ROUTED) || bar_fire_row_now(s, sc, j) < 0 || (p->flags & BF_ELIM) ||
        !bar_rgt_may_fire(s, sc, j) ||   /* 2.2d E ii, iv */
        fired_at(s, j, i))
        return false;
    return ((s->of_kind & BOF_ROAD) && may_road(s, sc, j, i)) || ((s->of_kind & BOF_CLOSE) && may_close(s, sc, j, i));
}

/* After mover's step (kinds: BOF_ROAD after Road Movement, BOF_CLOSE into
 * or in an enemy front hex): is there a unit to fire? Then the reactive
 * side decides ("Halt", 2.2d D). */
bool bar_opfire_offered(bar_state *s, const mk_scenario *sc, int mover, unsigned kinds)
{
    if (!(s->opts & BO_OPFIRE))
        kinds &= ~(unsigned)BOF_CLOSE;   /* the general Op Fire is an optional rule (ours) */
    if (s->nof >= 16 || !kinds || bar_is_leader(&bar_x(sc)->p[mover]) || s->pc[mover].hex == MK_NO_HEX)
        return false;
    s->of_kind = (uint8_t)kinds;
    for (int j = 0; j < s->npieces; j++)
        if (may_opfire(s, sc, j, mover)) {
            s->of_unit = (int16_t)mover;
            return true;
        }
    s->of_kind = 0;
    return false;
}

int bar_legal_opfire(const bar_state *s, const mk_scenario *sc, mk_action *out, int cap)
{
    int n = 0;
    if (n < cap)   /* let it pass */
        out[n++] = (mk_action){.type = BA_OPFIRE, .unit = -1, .other = s->of_unit, .target = -1};
    for (int j = 0; j < s->npieces && n < cap; j++)
        if (may_opfire(s, sc, j, s->of_unit))
            out[n++] = (mk_action){.type = BA_OPFIRE, .unit = (int16_t)j, .other = s->of_unit,
                                   .target = s->pc[s->of_unit].hex};
    return n;
}

/* Fire, then (2.2d D) "if the target suffers no adverse result, it may
 * continue its Road Movement and may undergo Opportunity Fire again from
 * other reactive units": the decision comes back while artillery remains;
 * an adverse result (a loss or a worse state) ends its movement. */
int bar_apply_opfire(bar_state *s, const mk_scenario *sc, const mk_action *a, mk_events *ev)
{
    int i = s->of_unit;
    unsigned kinds = s->of_kind;
    s->of_unit = -1;
    s->of_kind = 0;
    if (a->unit < 0) {
        bar_declined(sc, i, s->pc[i].hex, "opportunity_fire",   /* i goes on */
                     kinds & BOF_ROAD ? "Monmouth 2.2d D" : "Series 12.8 (our reading: docs/bar.md)", ev);
        bar_opcharge_offered(s, sc, i);   /* then the Opportunity Charge (melee.c) */
        return 0;
    }
    /* a fire 2.2d D allows does not count against 12.8e's limit */
    bool road = (kinds & BOF_ROAD) && may_road(s, sc, a->unit, i);
    if (!road)
        s->opx[s->nopx++] = s->pc[i].hex;
    s->of[s->nof][0] = a->unit;
    s->of[s->nof][1] = (int16_t)i;
    s->nof++;
    bar_pc before = s->pc[i];
    mk_event *e = bar_ev(ev, "opportunity_fire", road ? "Monmouth 2.2d D" : "Series 12.8 (our reading: docs/bar.md)");
    e->unit = a->unit;
    e->other = (int16_t)i;
    bar_resolve_fire(s, sc, a->unit, s->pc[i].hex, false, ev);
    bar_pc *p = &s->pc[i];
    if (p->hex == MK_NO_HEX || p->sp < before.sp || p->status != before.status) {
        p->mp = 0;
        bar_opcharge_offered(s, sc, i);
        return 0;
    }
    if (!bar_opfire_offered(s, sc, i, kinds))
        bar_opcharge_offered(s, sc, i);
    return 0;
}
