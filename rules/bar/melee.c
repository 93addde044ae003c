/* melee.c - the Close Combat Segment (Series 14, Monmouth 5.2-5.3, 6.8):
 * an activated unit attacks an adjacent enemy hex through its front; the
 * attacker's Combat Value with the terrain and hexside modifiers of
 * 5.2b-5.3e (bar_cv_modifier) against the defender's; the difference moves
 * the percentile roll on the Close Combat table (charts.json), whose natural
 * 00-09 are its special results; the bands give SPs lost and who retreats.
 *
 * Ours (docs/bar.md; numbers in series.json): the hex's strongest-CV unit
 * defends; Disordered/Shaken/Attack Column/leader modifiers; Out of Command
 * units, Squares, Skirmishers and artillery do not attack; cavalry may not
 * attack across a creek or hedgerow (5.3b-c: no Charge); the loser retreats
 * a hex Disordered and takes a Morale Check (a hex that cannot retreat
 * loses an SP instead), and a victorious attacker advances into an emptied
 * hex. Routed defenders alone in the hex are overrun (eliminated).
 * Also the reactive side's Countercharge and Opportunity Charge (2.3b; the
 * procedure is ours, at the end of the file). */
#include <string.h>

#include "rules/bar/bar_int.h"

static mk_hex charge_end(const bar_state *s, const mk_scenario *sc, int i, mk_hex target);
static void finish_charge(bar_state *s, const mk_scenario *sc, int i, mk_hex to, mk_events *ev);
static bool may_retreat_before(const bar_state *s, const mk_scenario *sc, int i, mk_hex to);
static bool countercharge_offered(bar_state *s, const mk_scenario *sc, int i, mk_hex to);

/* The hex unit i attacks hex h from: its own, or for a two-hex Line
 * (2.1a, ours) its first hex if h is next to it and in its front, else
 * its second hex. */
static mk_hex attack_from(const bar_state *s, const mk_scenario *sc, int i, mk_hex h)
{
    const bar_pc *p = &s->pc[i];
    mk_hex i2 = p->form == BAR_FM_LINE ? bar_tail_hex(s, sc, i) : MK_NO_HEX;
    if (i2 == MK_NO_HEX || (mk_hex_adjacent(&sc->map.grid, p->hex, h) && bar_is_front(s, sc, i, h)))
        return p->hex;
    return i2;
}

static bool can_attack(const bar_state *s, const mk_scenario *sc, int i)
{
    const bar_ext *x = bar_x(sc);
    const bar_pc *p = &s->pc[i];
    /* the cheap tests first: most pieces are not in the activation */
    if (s->in_command == BIC_LIMITED)
        return false;   /* Monmouth 6.2c A: it may not initiate Close Combat */
    return p->hex != MK_NO_HEX && !bar_is_leader(&x->p[i]) && x->p[i].kind != BK_ARTILLERY &&
           !(p->status & BS_ROUTED) && !(p->flags & (BF_CC | BF_OOC)) && p->form != BAR_FM_SQUARE &&
           p->form != BAR_FM_SKIRMISH && p->form != BAR_FM_ROAD_COLUMN && p->form != BAR_FM_HOOK &&
           bar_piece_active(s, sc, i);   /* ours: a Hook holds (docs/bar.md "Hook") */
}

/* A combat unit of side in hex h (bar_unit_at, formed_only false). */
static bool unit_in(const bar_occ *o, const bar_ext *x, mk_hex h, int side)
{
    BAR_OCC_EACH(o, h, j)
        if (!bar_is_leader(&x->p[j]) && x->p[j].side == side)
            return true;
    return false;
}

int bar_legal_cc(const bar_state *s, const mk_scenario *sc, const mk_action *want, mk_action *out,
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
        if (!can_attack(s, sc, i))
            continue;
        /* 2.1a (ours): a two-hex Line attacks from either hex (from
         * its first hex where both reach the same enemy hex) */
        mk_hex i2 = s->pc[i].form == BAR_FM_LINE ? bar_tail_hex(s, sc, i) : MK_NO_HEX;
        for (int dd = 0; dd < (i2 != MK_NO_HEX ? 12 : 6) && n < cap; dd++) {
            int d = dd % 6;
            mk_hex at = dd < 6 ? s->pc[i].hex : i2;
            mk_hex h = x->nb[at][d];
            if (h == MK_NO_HEX || h == s->pc[i].hex || h == i2 || !unit_in(&occ, x, h, bar_other(x->p[i].side)) ||
                !bar_faces(s, i, bar_dir_step(d)))
                continue;
            if (dd >= 6 && attack_from(s, sc, i, h) != i2)
                continue;   /* listed from the first hex already */
            unsigned side = bar_hexside(&x->map, at, h);
            if (side & BAR_HS_LAKE)
                continue;
            if (bar_charges(s, sc, i))
                continue;   /* mounted cavalry charges (below) */
            out[n++] = (mk_action){.type = BA_CC, .unit = (int16_t)i, .other = -1, .target = h};
        }
        /* 2.3d: mounted cavalry charges an enemy within its Charge Range + 1 */
        if (!bar_charges(s, sc, i) || (s->pc[i].status & BS_DISORDERED))
            continue;   /* 4.1b E, 7.4a C: not the Mounted Jaegers, nor dismounted cavalry */
        for (int jj = 0; jj < 2 * s->npieces && n < cap; jj++) {
            int j = jj >> 1;   /* each piece's hex, then its trailing hex (2.1c) */
            mk_hex h = jj & 1 ? bar_tail_hex(s, sc, j) : s->pc[j].hex;
            if (h == MK_NO_HEX || x->p[j].side == x->p[i].side || bar_is_leader(&x->p[j]) ||
                mk_hex_distance(&sc->map.grid, s->pc[i].hex, h) > 3)
                continue;
            bool dup = (jj & 1) == 0 && bar_tail_hex(s, sc, j) == h;
            for (int k = 0; k < j; k++)
                dup |= bar_in_hex(s, sc, k, h) && x->p[k].side == x->p[j].side && !bar_is_leader(&x->p[k]);
            mk_hex end = dup ? MK_NO_HEX : charge_end(s, sc, i, h);
            if (end == MK_NO_HEX)
                continue;
            if (!bar_is_front(s, sc, i, end == s->pc[i].hex ? h : end))
                continue;   /* the charge goes out through the front */
            out[n++] = (mk_action){.type = BA_CC, .flags = BAF_CHARGE, .npath = 1, .unit = (int16_t)i,
                                   .other = -1, .target = h, .path = {end}};
        }
    }
    return n;
}

static int leader_bonus(const bar_state *s, const mk_scenario *sc, mk_hex h, int side)
{
    const bar_ext *x = bar_x(sc);
    int best = 0;
    if (!x->se.cc_leader)
        return 0;
    for (int j = 0; j < s->npieces; j++)
        if (s->pc[j].hex == h && bar_is_leader(&x->p[j]) && x->p[j].side == side &&
            bar_leader_values_of(s, sc, j).cv_bonus > best)
            best = bar_leader_values_of(s, sc, j).cv_bonus;
    return best;
}

static int status_mod(const bar_series *se, const bar_pc *p)
{
    return (p->status & BS_DISORDERED ? se->cc_disordered : 0) + (p->status & BS_SHAKEN ? se->cc_shaken : 0);
}

/* The losers in hex h retreat a hex toward their rally hex, Disordered,
 * and check morale; units that cannot retreat lose an SP. */
/* The hex side's units in h fall back to: toward their rally hex, away
 * from enemy fronts; MK_NO_HEX if none. */
static mk_hex retreat_to_but(const bar_state *s, const mk_scenario *sc, mk_hex h, int side, mk_hex but);
static mk_hex retreat_to(const bar_state *s, const mk_scenario *sc, mk_hex h, int side)
{
    return retreat_to_but(s, sc, h, side, MK_NO_HEX);
}

/* retreat_to, never into hex `but` (a two-hex column's own tail, 2.1c) */
static mk_hex retreat_to_but(const bar_state *s, const mk_scenario *sc, mk_hex h, int side, mk_hex but)
{
    const bar_ext *x = bar_x(sc);
    const mk_grid *g = &sc->map.grid;
    mk_hex best = MK_NO_HEX;
    int bestv = 1 << 30;
    for (int d = 0; d < 6; d++) {
        mk_hex nb = mk_hex_neighbor(g, h, d);
        if (nb == MK_NO_HEX || nb == but || x->map.terrain[nb] == BAR_T_LAKE ||
            bar_unit_at(s, sc, nb, bar_other(side), false))
            continue;
        int v = mk_hex_distance(g, nb, x->home[side]) * 4 + (bar_in_ezoc(s, sc, side, nb) ? 20 : 0);
        if (v < bestv)
            bestv = v, best = nb;
    }
    return best;
}

static void retreat_hex(bar_state *s, const mk_scenario *sc, mk_hex h, int side, mk_events *ev)
{
    const bar_ext *x = bar_x(sc);
    mk_hex best = retreat_to(s, sc, h, side);
    for (int j = 0; j < s->npieces; j++) {
        if (!bar_in_hex(s, sc, j, h) || x->p[j].side != side)
            continue;
        if (bar_is_leader(&x->p[j])) {
            s->pc[j].hex = best != MK_NO_HEX ? best : s->pc[j].hex;
            continue;
        }
        /* 2.1c (ours): a two-hex Road Column beaten in either hex retreats
         * head first, from its head's hex but not into its own tail; the
         * tail follows into the head's hex */
        mk_hex tail = bar_tail_hex(s, sc, j), to = best;
        if (tail != MK_NO_HEX)
            to = retreat_to_but(s, sc, s->pc[j].hex, side, tail);
        if (to == MK_NO_HEX) {
            bar_lose_sp(s, sc, j, 1, ev);
            continue;
        }
        mk_event *e = bar_ev(ev, "retreat", "Series 14 (Close Combat retreat)");
        e->unit = (int16_t)j;
        e->from = s->pc[j].hex;
        e->to = to;
        bar_put(s, sc, j, to);
        s->pc[j].status |= BS_DISORDERED;
        if (!(s->pc[j].status & BS_ROUTED))
            bar_do_check(s, sc, j, 'M', x->se.cc_letter, 0, "Monmouth 6.9 (Morale Check after Close Combat)", ev);
    }
}

/* Monmouth 2.1a: "For all Line/Hook Formations, the average (rounded) of
 * the Combat Value of the units that contribute the top 6 (not 4) SPs for
 * each hex of the Line/Hook is used when calculating a stack's final
 * Combat Value." Ours (docs/bar.md "Hook"): the top of the stack is its
 * best CV (the owner stacks his best on top), ties in piece order; each
 * unit counts once however many of the 6 SPs it gives (AMB-BAR-11: the
 * text averages "the units"); each with its status modifier; .5 rounds up
 * (AMB-BAR-8). */
int bar_line_cv(const bar_state *s, const mk_scenario *sc, mk_hex h, int side)
{
    const bar_ext *x = bar_x(sc);
    int cand[32], val[32], nc = 0;
    for (int j = 0; j < s->npieces && nc < 32; j++)
        if (bar_in_hex(s, sc, j, h) && !bar_is_leader(&x->p[j]) && x->p[j].side == side &&
            (s->pc[j].form == BAR_FM_LINE || s->pc[j].form == BAR_FM_HOOK))   /* a two-hex Line: its SPs here */
            cand[nc] = j, val[nc++] = x->p[j].cv + status_mod(&x->se, &s->pc[j]);
    if (!nc)
        return -99;
    int sum = 0, n = 0, sps = 0;
    bool used[32] = {false};
    while (sps < 6 && n < nc) {
        int b = -1;
        for (int k = 0; k < nc; k++)
            if (!used[k] && (b < 0 || val[k] > val[b]))
                b = k;
        used[b] = true;
        sum += val[b];
        sps += bar_sp_in(s, sc, cand[b], h);   /* 2.1a: "the top 6 SPs for each hex" */
        n++;
    }
    /* round(sum / n), .5 up, for negative sums too */
    int num = 2 * sum + n, den = 2 * n;
    return num >= 0 ? num / den : -((-num + den - 1) / den);
}

static int defender_of(const bar_state *s, const mk_scenario *sc, mk_hex h, bool *all_routed)
{
    const bar_ext *x = bar_x(sc);
    int best = -1;
    *all_routed = true;
    for (int j = 0; j < s->npieces; j++) {
        if (!bar_in_hex(s, sc, j, h) || bar_is_leader(&x->p[j]))
            continue;
        if (!(s->pc[j].status & BS_ROUTED))
            *all_routed = false;
        if (best < 0 || x->p[j].cv + status_mod(&x->se, &s->pc[j]) > x->p[best].cv + status_mod(&x->se, &s->pc[best]))
            best = j;
    }
    return best;
}

/* One Close Combat of unit i against hex to, bonus added to the
 * attacker's CV. Returns who lost: 0 the attacker, 1 the defender (it
 * retreated), 2 the defender broke or was overrun, -1 nobody. */
static int resolve(bar_state *s, const mk_scenario *sc, int i, mk_hex to, int bonus, mk_events *ev)
{
    const bar_ext *x = bar_x(sc);
    int side = x->p[i].side;
    bar_pc *p = &s->pc[i];
    mk_hex from = attack_from(s, sc, i, to);
    bool routed;
    int d = defender_of(s, sc, to, &routed);
    mk_event *e = bar_ev(ev, "close_combat", "Series 14, Monmouth 5.2-5.3");
    e->unit = (int16_t)i;
    e->other = (int16_t)d;
    e->target = to;
    if (routed) {   /* ours: routed units alone are overrun */
        e->text = "overrun";
        for (int j = 0; j < s->npieces; j++)
            if (bar_in_hex(s, sc, j, to) && !bar_is_leader(&x->p[j]))
                bar_lose_sp(s, sc, j, s->pc[j].sp, ev);
        retreat_hex(s, sc, to, bar_other(side), ev);   /* leaders left there */
        bar_put(s, sc, i, to);   /* (a two-hex Line advances into one hex: 2.1a, ours) */
        return 2;
    }
    /* Defensive Fire (series; ours: the defending hex's strongest fire that
     * bears on the attacker, always taken): an attacker it routs, shakes or
     * destroys does not close */
    int best = -1, bstr = -1;
    for (int j = 0; j < s->npieces; j++) {
        int col;
        if (!bar_in_hex(s, sc, j, to) || bar_is_leader(&x->p[j]) || bar_fire_row_now(s, sc, j) < 0 || (s->pc[j].status & BS_ROUTED) ||
            bar_max_sps_firing(&x->ch, s->pc[j].form) <= 0)
            continue;
        int str = bar_fire_strength_of(s, sc, j, from, &col);
        if (col >= 0 && str > bstr)
            bstr = str, best = j;
    }
    if (best >= 0) {
        uint8_t before = p->status;
        bar_resolve_fire(s, sc, best, from, true, ev);
        if (!bar_alive(s, i) || !bar_in_hex(s, sc, i, from) || (p->status & BS_ROUTED) ||
            ((p->status & BS_SHAKEN) && !(before & BS_SHAKEN))) {
            mk_event *st = bar_ev(ev, "attack_stopped", "Series (Defensive Fire)");
            st->unit = (int16_t)i;
            return -1;
        }
    }
    unsigned hs = bar_hexside(&x->map, from, to);
    bool uphill = x->map.elevation[to] > x->map.elevation[from];
    int att = x->p[i].cv + status_mod(&x->se, p) + leader_bonus(s, sc, from, side) +
              (p->form == BAR_FM_ATTACK_COLUMN ? x->se.cc_attack_column : 0) + bonus;
    int tmod = bar_cv_modifier(&x->ch, x->map.terrain[from], x->map.terrain[to], hs, uphill,
                               bar_charges(s, sc, d));
    int def = x->p[d].cv + status_mod(&x->se, &s->pc[d]);
    if (s->pc[d].form == BAR_FM_LINE || s->pc[d].form == BAR_FM_HOOK)
        def = bar_line_cv(s, sc, to, bar_other(side));   /* 2.1a */
    def += leader_bonus(s, sc, to, bar_other(side));
    int diff = att + tmod - def;
    int roll = mk_rng_d100(&s->head.rng);
    mk_event *r = bar_ev(ev, "roll", "Series 14.8 (Close Combat table, charts.json)");
    r->purpose = "close_combat";
    r->unit = (int16_t)i;
    r->other = (int16_t)d;
    r->die = 100;
    r->value = (int16_t)roll;
    r->points = (int16_t)diff;
    if (tmod)
        mk_event_mod(r, tmod, "terrain and hexside (Monmouth 5.2-5.3)");
    int band = bar_cc_band(&x->ch, roll, diff);
    int att_sp = 0, def_sp = 0, loser = -1;   /* loser: 0 attacker, 1 defender */
    if (band >= 0) {
        att_sp = x->ch.cc.band[band].att_sp;
        def_sp = x->ch.cc.band[band].def_sp;
        loser = x->ch.cc.band[band].retreat == 1 ? 0 : x->ch.cc.band[band].retreat == 2 ? 1 : -1;
    } else {
        int idx = x->ch.cc.special.result[roll - x->ch.cc.special.lo];
        const char *name = idx >= 0 && idx < x->ch.cc.nnames ? x->ch.cc.name[idx] : "";
        r->text = name;
        if (!strcmp(name, "leader_casualty")) {
            bar_leader_check(s, sc, from, roll, ev);
            bar_leader_check(s, sc, to, roll, ev);
        } else if (!strcmp(name, "attacker_hesitates")) {
            p->status |= BS_DISORDERED;
        } else if (!strcmp(name, "defender_stands")) {
            loser = 0;
        } else if (!strcmp(name, "melee")) {
            att_sp = def_sp = 1;
        } else if (!strcmp(name, "defender_breaks")) {
            bar_rout_unit(s, sc, d, ev);
            loser = -2;
        }
    }
    if (att_sp)
        bar_lose_sp(s, sc, i, att_sp, ev);
    if (def_sp && bar_alive(s, d))
        bar_lose_sp(s, sc, d, def_sp, ev);
    if (loser == 0 && bar_alive(s, i))
        retreat_hex(s, sc, from, side, ev);
    else if (loser == 1)
        retreat_hex(s, sc, to, bar_other(side), ev);
    /* the winner advances into an emptied hex */
    if (loser == -2)
        loser = 2;
    if ((loser == 1 || loser == 2) && bar_alive(s, i) && bar_in_hex(s, sc, i, from) &&
        !bar_unit_at(s, sc, to, bar_other(side), false)) {
        for (int j = 0; j < s->npieces; j++)   /* enemy leaders left alone go too */
            if (s->pc[j].hex == to && x->p[j].side != side)
                s->pc[j].hex = MK_NO_HEX, s->pc[j].flags |= BF_ELIM;
        bar_put(s, sc, i, to);   /* (a two-hex Line advances into one hex: 2.1a, ours) */
        mk_event *adv = bar_ev(ev, "advance", "Series 14 (advance after Close Combat)");
        adv->unit = (int16_t)i;
        adv->to = to;
    }
    return loser;
}

/* 6.7 Pursuit, after a charge that made the defender retreat or break
 * (not at Night, 2.3d; not against woods, 2.3e; not across a hedgerow or
 * creek, 5.3b-c): a die for Pursuit Points (its special roll: a second die
 * on the pursuit special results); ours (series.json): every
 * pursuit_pp_per_sp points ride down an SP of the beaten unit, No Quarter
 * one more; then the Recall, a Disorder Check (F). */
static void pursuit(bar_state *s, const mk_scenario *sc, int i, mk_hex target, int beaten, mk_events *ev)
{
    const bar_ext *x = bar_x(sc);
    int die = mk_rng_d10(&s->head.rng);
    int pp = bar_pursuit_points(&x->ch, die, false), special = -1;
    mk_event *e = bar_ev(ev, "roll", "Monmouth 6.7 (Pursuit)");
    e->purpose = "pursuit";
    e->unit = (int16_t)i;
    e->die = 10;
    e->value = (int16_t)die;
    if (pp == -1) {
        int d2 = mk_rng_d10(&s->head.rng);
        special = bar_pursuit_special_of(&x->ch, d2);
        mk_event_value(e, d2);
        static const char *const names[BAR_NPU] = {"no_quarter", "no_control", "hesitation", "no_pursuit"};
        e->text = special >= 0 && special < BAR_NPU ? names[special] : NULL;
        pp = 0;
        if (special == BAR_PU_NO_CONTROL || special == BAR_PU_NO_QUARTER) {
            int d3 = mk_rng_d10(&s->head.rng);
            mk_event_value(e, d3);
            pp = bar_pursuit_points(&x->ch, d3, true) +
                 (special == BAR_PU_NO_CONTROL ? x->ch.pursuit.no_control_add : 0);   /* 6.7b */
        }
    }
    e->points = (int16_t)pp;
    if (beaten >= 0 && bar_alive(s, beaten) && x->se.pursuit_pp_per_sp > 0) {
        int sp = pp / x->se.pursuit_pp_per_sp + (special == BAR_PU_NO_QUARTER);
        if (sp > 0)
            bar_lose_sp(s, sc, beaten, sp, ev);
    }
    (void)target;
    if (bar_alive(s, i) && s->pc[i].hex != MK_NO_HEX)
        bar_do_check(s, sc, i, 'D', 'F', 0, "Monmouth 6.7 (Recall: Disorder Check F)", ev);
}

/* 2.3d-e: the hex a charging cavalry unit i ends its charge movement in,
 * next to target: itself when adjacent; else the first reached (breadth
 * first, core direction order) within its Charge Range, never into woods,
 * marsh or an occupied hex, nor across what bars SCM (2.3b), nor on from an
 * enemy's front hex; the last hexside must not bar SCM either. MK_NO_HEX:
 * no charge. */
static mk_hex charge_end(const bar_state *s, const mk_scenario *sc, int i, mk_hex target)
{
    const bar_ext *x = bar_x(sc);
    const mk_grid *g = &sc->map.grid;
    mk_hex from = s->pc[i].hex;
    bool woods_from = x->map.terrain[from] == BAR_T_WOODS || x->map.terrain[from] == BAR_T_MARSH_WOODS;
    bool woods_to = x->map.terrain[target] == BAR_T_WOODS || x->map.terrain[target] == BAR_T_MARSH_WOODS;
    int range = bar_charge_range(bar_light_of(s->turn), woods_from || woods_to);
    int dist = mk_hex_distance(g, from, target);
    if (dist < 1 || dist > range + 1)
        return MK_NO_HEX;
    mk_hex q[64];
    int8_t depth[64];
    int qh = 0, qt = 0;
    q[qt] = from;
    depth[qt++] = 0;
    while (qh < qt) {
        mk_hex h = q[qh];
        int dep = depth[qh++];
        if (mk_hex_adjacent(g, h, target)) {
            unsigned side = bar_hexside(&x->map, h, target);
            bool barred = false;
            for (int b = 0; b < BAR_HS_NTERRAIN; b++)
                barred |= (side & (1u << b)) && x->ch.side[b].cost[BAR_MV_SCM] == BAR_COST_PROHIBITED;
            if (!barred)
                return h;
        }
        if (dep >= range || (h != from && bar_in_ezoc(s, sc, x->p[i].side, h)))
            continue;   /* a charge ends in the first enemy front hex it enters */
        for (int d = 0; d < 6 && qt < 64; d++) {
            mk_hex nb = mk_hex_neighbor(g, h, d);
            bool seen = false;
            for (int k = 0; k < qt; k++)
                seen |= q[k] == nb;
            if (nb == MK_NO_HEX || seen || x->map.terrain[nb] == BAR_T_WOODS ||
                x->map.terrain[nb] == BAR_T_MARSH_WOODS ||
                x->ch.hex[x->map.terrain[nb]].cost[BAR_MV_SCM] == BAR_COST_PROHIBITED ||
                bar_unit_at(s, sc, nb, -1, false))
                continue;
            unsigned side = bar_hexside(&x->map, h, nb);
            bool barred = false;
            for (int b = 0; b < BAR_HS_NTERRAIN; b++)
                barred |= (side & (1u << b)) && x->ch.side[b].cost[BAR_MV_SCM] == BAR_COST_PROHIBITED;
            if (barred)
                continue;
            q[qt] = nb;
            depth[qt++] = (int8_t)(dep + 1);
        }
    }
    return MK_NO_HEX;
}

mk_hex bar_charge_end(const bar_state *s, const mk_scenario *sc, int i, mk_hex target)
{
    return charge_end(s, sc, i, target);
}

/* 2.8 C-D: a Heat turn's Disorder Check (A) after an Advance After
 * Combat or a Retreat Before Close Combat (C), or at the end of a Charge
 * and its Pursuit (D): +1 ER per hex entered for the British, per 2 hexes
 * (rounded) for the Americans (bar_heat_hex_modifier). Ours: our Pursuit
 * rides down SPs without moving, so it adds no hexes; a charger that wins
 * and advances into the defender's hex has entered one more (2.8 D's check
 * covers that advance: one check, not two). */
static void heat_after(bar_state *s, const mk_scenario *sc, int i, int hexes, const char *rule, mk_events *ev)
{
    if (hexes > 0)
        bar_heat_check(s, sc, i, bar_heat_hex_modifier(bar_x(sc)->p[i].side, hexes), rule, ev);
}

static void heat_after_advance(bar_state *s, const mk_scenario *sc, int i, mk_hex to, mk_events *ev)
{
    if (bar_alive(s, i) && s->pc[i].hex == to)
        heat_after(s, sc, i, 1, "Monmouth 2.8 C (Heat: Advance After Combat)", ev);
}

static void heat_after_charge(bar_state *s, const mk_scenario *sc, int i, mk_hex to, int hexes, mk_events *ev)
{
    if (bar_alive(s, i) && s->pc[i].hex != MK_NO_HEX)
        heat_after(s, sc, i, hexes + (s->pc[i].hex == to), "Monmouth 2.8 D (Heat: Charge and Pursuit)", ev);
}

/* A Close Combat or Charge declared that waits for the other side's
 * decision (2.3b Countercharge, 2.3f Retreat Before Close Combat):
 * logged, since nothing else is until that decision. */
static void declared(int i, mk_hex to, bool charge, const char *rule, mk_events *ev)
{
    mk_event *e = bar_ev(ev, "declare", rule);
    e->unit = (int16_t)i;
    e->target = to;
    e->text = charge ? "charge" : "close_combat";
}

int bar_apply_cc(bar_state *s, const mk_scenario *sc, const mk_action *a, mk_events *ev, mk_error *err)
{
    const bar_ext *x = bar_x(sc);
    int i = a->unit;
    bar_pc *p = &s->pc[i];
    mk_hex to = a->target;
    p->flags |= BF_CC | BF_MOVED;
    if (!(a->flags & BAF_CHARGE)) {
        if (may_retreat_before(s, sc, i, to)) {   /* the defender decides first */
            declared(i, to, false, "Monmouth 2.3f: the defender may Retreat Before Close Combat", ev);
            s->rb_unit = (int16_t)i;
            s->rb_target = to;
            s->rb_flags = a->flags;
            return 0;
        }
        resolve(s, sc, i, to, 0, ev);
        heat_after_advance(s, sc, i, to, ev);
        return 0;
    }
    /* 2.3: the charge movement, its Disorder Check (2.3a), the combat */
    mk_hex from = p->hex, end = a->path[0];
    bool rough = false;
    s->charge_hexes = (int8_t)mk_hex_distance(&sc->map.grid, from, end);   /* 2.8 D */
    if (end != from) {
        mk_event *m = bar_ev(ev, "charge", "Monmouth 2.3d (Charge Range)");
        m->unit = (int16_t)i;
        m->from = from;
        m->to = end;
        p->hex = end;
        rough = x->ch.hex[x->map.terrain[end]].charge_check;
    }
    p->facing = (uint8_t)bar_bearing12(&sc->map.grid, p->hex, to);
    unsigned side = bar_hexside(&x->map, p->hex, to);
    for (int b = 0; b < BAR_HS_NTERRAIN; b++)
        rough |= (side & (1u << b)) && x->ch.side[b].charge_check;
    if (rough)
        bar_do_check(s, sc, i, 'D', 'A', 0, "Monmouth 2.3a (charge Disorder Check A)", ev);
    if (!bar_alive(s, i) || p->hex == MK_NO_HEX || (p->status & BS_ROUTED))
        return 0;
    if (countercharge_offered(s, sc, i, to)) {   /* 2.3b: the reactive cavalry decides first */
        declared(i, to, true, "Monmouth 2.3b, ours: the reactive cavalry may Countercharge", ev);
        return 0;
    }
    if (may_retreat_before(s, sc, i, to)) {   /* the defender decides first */
        declared(i, to, true, "Monmouth 2.3f: the defender may Retreat Before Close Combat", ev);
        s->rb_unit = (int16_t)i;
        s->rb_target = to;
        s->rb_flags = a->flags;
        return 0;
    }
    finish_charge(s, sc, i, to, ev);
    (void)err;
    return 0;
}

static void finish_charge(bar_state *s, const mk_scenario *sc, int i, mk_hex to, mk_events *ev)
{
    const bar_ext *x = bar_x(sc);
    unsigned side = bar_hexside(&x->map, s->pc[i].hex, to);
    bool dummy;
    int beaten = defender_of(s, sc, to, &dummy);
    int loser = resolve(s, sc, i, to, x->se.cc_charge, ev);
    bool woods = x->map.terrain[to] == BAR_T_WOODS || x->map.terrain[to] == BAR_T_MARSH_WOODS;
    if ((loser == 1 || loser == 2) && bar_pursuit_allowed(bar_light_of(s->turn), woods) &&
        !(side & (BAR_HS_HEDGEROW | BAR_HS_CREEK)))
        pursuit(s, sc, i, to, beaten, ev);
    heat_after_charge(s, sc, i, to, s->charge_hexes, ev);
}

/* Retreat Before Close Combat (2.3f: cavalry attacked by infantry; ours,
 * from the series: units in Skirmish formation): offered when every
 * defending unit may, none is routed, and there is a hex to fall back to. */
static bool may_retreat_before(const bar_state *s, const mk_scenario *sc, int i, mk_hex to)
{
    const bar_ext *x = bar_x(sc);
    int n = 0;
    for (int j = 0; j < s->npieces; j++) {
        if (!bar_in_hex(s, sc, j, to) || bar_is_leader(&x->p[j]))
            continue;
        /* (mounted cavalry; the attacker infantry, the Mounted Jaegers and
         * dismounted cavalry included: 4.1b E, 7.4a C) */
        bool ok = (bar_charges(s, sc, j) && !bar_charges(s, sc, i) && x->p[i].kind != BK_ARTILLERY) ||
                  s->pc[j].form == BAR_FM_SKIRMISH;
        if (!ok || (s->pc[j].status & BS_ROUTED))
            return false;
        n++;
    }
    return n > 0 && retreat_to(s, sc, to, bar_other(x->p[i].side)) != MK_NO_HEX;
}

int bar_legal_rbcc(const bar_state *s, const mk_scenario *sc, mk_action *out, int cap)
{
    int n = 0;
    for (int f = 1; f >= 0 && n < cap; f--)
        out[n++] = (mk_action){.type = BA_RBCC, .flags = (uint8_t)f, .unit = -1, .other = -1, .target = -1};
    (void)s;
    (void)sc;
    return n;
}

int bar_apply_rbcc(bar_state *s, const mk_scenario *sc, const mk_action *a, mk_events *ev)
{
    const bar_ext *x = bar_x(sc);
    int i = s->rb_unit;
    mk_hex to = s->rb_target;
    uint8_t flags = s->rb_flags;
    s->rb_unit = -1;
    if (!a->flags) {   /* they stand */
        bar_declined(sc, i, to, "retreat_before_close_combat", "Monmouth 2.3f", ev);   /* i attacks */
        if (flags & BAF_CHARGE) {
            finish_charge(s, sc, i, to, ev);
        } else {
            resolve(s, sc, i, to, 0, ev);
            heat_after_advance(s, sc, i, to, ev);
        }
        return 0;
    }
    int side = bar_other(x->p[i].side);
    mk_hex back = retreat_to(s, sc, to, side);
    for (int j = 0; j < s->npieces; j++)
        if (bar_in_hex(s, sc, j, to) && x->p[j].side == side) {
            mk_event *e = bar_ev(ev, "retreat_before_close_combat", "Monmouth 2.3f, Series");
            e->unit = (int16_t)j;
            e->from = to;
            e->to = back;
            bar_put(s, sc, j, back);
            heat_after(s, sc, j, 1, "Monmouth 2.8 C (Heat: Retreat Before Close Combat)", ev);
        }
    mk_event *adv = bar_ev(ev, "advance", "Series 14 (advance after Close Combat)");
    adv->unit = (int16_t)i;
    adv->to = to;
    bar_put(s, sc, i, to);   /* (a two-hex Line advances into one hex: 2.1a, ours) */
    if (flags & BAF_CHARGE)
        heat_after_charge(s, sc, i, to, s->charge_hexes, ev);
    else
        heat_after_advance(s, sc, i, to, ev);
    return 0;
}

/* --- Countercharge and Opportunity Charge (Monmouth 2.3b names them; the
 * procedure is ours, docs/bar.md) -------------------------------------------
 *
 * Both are decisions of the reactive side in the middle of an activation,
 * as Retreat Before Close Combat (2.3f) and 2.2d D's Opportunity Fire are:
 * a mounted cavalry unit of the reactive side (not Routed nor Disordered,
 * as a charger, and not one that has charged this activation) whose own
 * Charge would reach the enemy unit (bar_charge_end: its Charge Range, out
 * through its front, never into or across what bars SCM: 2.3b "A
 * Countercharge/Op Charge cannot be triggered if it would require the
 * cavalry to enter/cross terrain prohibited to SCM", nor into woods,
 * 2.3e) may charge it:
 * - Countercharge: an enemy cavalry unit has made its charge movement (and
 *   its Disorder Check, 2.3a) against a hex; before the defender's Retreat
 *   Before Close Combat, the reactive side may meet it with a cavalry unit.
 *   The countercharger makes its charge movement and check; the charger
 *   has cc_countercharged instead of cc_charge (series.json: 0, the two
 *   charges cancel): the charger's Close Combat is
 *   against the countercharger's hex instead of its target, and a charger
 *   that wins may pursue (6.7); the countercharger does not pursue.
 * - Opportunity Charge (6.2d C: "Any such advance is subject to Op Fire
 *   and Op Charge"): an active unit (not a leader) has moved a hex in the
 *   Movement Segment; the reactive side may charge it there as a Charge
 *   (2.3: charge movement, its Disorder Check, cc_charge, Pursuit), without
 *   Retreat Before Close Combat (the mover is caught moving); the mover's
 *   movement ends. After 2.2d D's Opportunity Fire when both apply. */

static bool may_xcharge(const bar_state *s, const mk_scenario *sc, int c, int enemy)
{
    const bar_ext *x = bar_x(sc);
    const bar_pc *p = &s->pc[c];
    mk_hex h = s->pc[enemy].hex;
    if (p->hex == MK_NO_HEX || h == MK_NO_HEX || x->p[c].side == x->p[enemy].side || !bar_charges(s, sc, c) ||
        (p->status & (BS_ROUTED | BS_DISORDERED)) || (p->flags & BF_CC) || !bar_alive(s, c) ||
        mk_hex_distance(&sc->map.grid, p->hex, h) > 3)
        return false;
    mk_hex end = charge_end(s, sc, c, h);
    return end != MK_NO_HEX && bar_is_front(s, sc, c, end == p->hex ? h : end);
}

static bool any_xcharge(const bar_state *s, const mk_scenario *sc, int enemy)
{
    for (int c = 0; c < s->npieces; c++)
        if (may_xcharge(s, sc, c, enemy))
            return true;
    return false;
}

static bool countercharge_offered(bar_state *s, const mk_scenario *sc, int i, mk_hex to)
{
    if (!any_xcharge(s, sc, i))
        return false;
    s->cx_kind = BX_COUNTER;
    s->cx_unit = (int16_t)i;
    s->cx_target = to;
    return true;
}

/* After mover's move into a hex (move.c, fire.c after Opportunity Fire). */
bool bar_opcharge_offered(bar_state *s, const mk_scenario *sc, int mover)
{
    const bar_ext *x = bar_x(sc);
    if (bar_is_leader(&x->p[mover]) || !bar_alive(s, mover) || s->pc[mover].hex == MK_NO_HEX ||
        !any_xcharge(s, sc, mover))
        return false;
    s->cx_kind = BX_OPPORTUNITY;
    s->cx_unit = (int16_t)mover;
    s->cx_target = s->pc[mover].hex;
    return true;
}

int bar_legal_xcharge(const bar_state *s, const mk_scenario *sc, mk_action *out, int cap)
{
    int n = 0, type = s->cx_kind == BX_COUNTER ? BA_COUNTERCHARGE : BA_OPCHARGE;
    if (n < cap)   /* let it be */
        out[n++] = (mk_action){.type = (uint8_t)type, .unit = -1, .other = s->cx_unit, .target = -1};
    for (int c = 0; c < s->npieces && n < cap; c++)
        if (may_xcharge(s, sc, c, s->cx_unit))
            out[n++] = (mk_action){.type = (uint8_t)type, .unit = (int16_t)c, .other = s->cx_unit,
                                   .target = s->pc[s->cx_unit].hex};
    return n;
}

/* The reactive cavalry c's charge movement toward hex h and its Disorder
 * Check (2.3a); false if it cannot go on to the combat. */
static bool react_move(bar_state *s, const mk_scenario *sc, int c, mk_hex h, const char *type, const char *rule,
                       int enemy, mk_events *ev)
{
    const bar_ext *x = bar_x(sc);
    bar_pc *p = &s->pc[c];
    mk_hex from = p->hex, end = charge_end(s, sc, c, h);
    p->flags |= BF_CC;   /* once an activation */
    s->charge_hexes = (int8_t)(end == MK_NO_HEX ? 0 : mk_hex_distance(&sc->map.grid, from, end));   /* 2.8 D */
    mk_event *m = bar_ev(ev, type, rule);
    m->unit = (int16_t)c;
    m->other = (int16_t)enemy;
    m->from = from;
    m->to = end;
    m->target = h;
    bool rough = false;
    if (end != from) {
        p->hex = end;
        rough = x->ch.hex[x->map.terrain[end]].charge_check;
    }
    p->facing = (uint8_t)bar_bearing12(&sc->map.grid, p->hex, h);
    unsigned side = bar_hexside(&x->map, p->hex, h);
    for (int b = 0; b < BAR_HS_NTERRAIN; b++)
        rough |= (side & (1u << b)) && x->ch.side[b].charge_check;
    if (rough)
        bar_do_check(s, sc, c, 'D', 'A', 0, "Monmouth 2.3a (charge Disorder Check A)", ev);
    return bar_alive(s, c) && p->hex != MK_NO_HEX && !(p->status & BS_ROUTED);
}

int bar_apply_xcharge(bar_state *s, const mk_scenario *sc, const mk_action *a, mk_events *ev)
{
    const bar_ext *x = bar_x(sc);
    int i = s->cx_unit, kind = s->cx_kind;
    mk_hex target = s->cx_target;
    s->cx_unit = -1;
    s->cx_kind = 0;
    if (kind == BX_COUNTER) {
        if (a->unit < 0) {   /* no Countercharge: the charge goes on */
            bar_declined(sc, i, target, "countercharge", "Monmouth 2.3b (Countercharge; ours)", ev);
            if (may_retreat_before(s, sc, i, target)) {
                s->rb_unit = (int16_t)i;
                s->rb_target = target;
                s->rb_flags = BAF_CHARGE;
                return 0;
            }
            finish_charge(s, sc, i, target, ev);
            return 0;
        }
        int c = a->unit, hexes_i = s->charge_hexes;
        if (!react_move(s, sc, c, s->pc[i].hex, "countercharge", "Monmouth 2.3b (Countercharge; ours)", i, ev)) {
            heat_after_charge(s, sc, i, MK_NO_HEX, hexes_i, ev);   /* the charge is spent on the countercharge */
            heat_after_charge(s, sc, c, MK_NO_HEX, s->charge_hexes, ev);
            return 0;
        }
        mk_hex ch = s->pc[c].hex;
        int hexes_c = s->charge_hexes;
        bool woods = x->map.terrain[ch] == BAR_T_WOODS || x->map.terrain[ch] == BAR_T_MARSH_WOODS;
        unsigned side = bar_hexside(&x->map, s->pc[i].hex, ch);
        int loser = resolve(s, sc, i, ch, x->se.cc_countercharged, ev);   /* (0: the charges cancel) */
        if ((loser == 1 || loser == 2) && bar_pursuit_allowed(bar_light_of(s->turn), woods) &&
            !(side & (BAR_HS_HEDGEROW | BAR_HS_CREEK)) && bar_alive(s, i))
            pursuit(s, sc, i, ch, c, ev);
        heat_after_charge(s, sc, i, ch, hexes_i, ev);
        heat_after_charge(s, sc, c, MK_NO_HEX, hexes_c, ev);
        return 0;
    }
    if (a->unit < 0) {   /* no Opportunity Charge: the mover goes on */
        bar_declined(sc, i, target, "opportunity_charge", "Monmouth 2.3b (Opportunity Charge; ours)",
                     ev);
        return 0;
    }
    s->pc[i].mp = 0;   /* charged: the mover's movement ends whatever comes */
    int c = a->unit;
    if (react_move(s, sc, c, target, "opportunity_charge", "Monmouth 2.3b, 6.2d C (Opportunity Charge; ours)", i, ev))
        finish_charge(s, sc, c, target, ev);
    return 0;
}
