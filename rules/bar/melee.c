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
 * hex. Routed defenders alone in the hex are overrun (eliminated). */
#include <string.h>

#include "rules/bar/bar_int.h"

static bool can_attack(const bar_state *s, const mk_scenario *sc, int i)
{
    const bar_ext *x = bar_x(sc);
    const bar_pc *p = &s->pc[i];
    return bar_piece_active(s, sc, i) && p->hex != MK_NO_HEX && !bar_is_leader(&x->p[i]) &&
           x->p[i].kind != BK_ARTILLERY && !(p->status & BS_ROUTED) && !(p->flags & (BF_CC | BF_OOC)) &&
           p->form != BAR_FM_SQUARE && p->form != BAR_FM_SKIRMISH && p->form != BAR_FM_ROAD_COLUMN;
}

int bar_legal_cc(const bar_state *s, const mk_scenario *sc, mk_action *out, int n, int cap)
{
    const bar_ext *x = bar_x(sc);
    if (n < cap)
        out[n++] = (mk_action){.type = BA_NEXT, .unit = -1, .other = -1, .target = -1};
    for (int i = 0; i < s->npieces && n < cap; i++) {
        if (!can_attack(s, sc, i))
            continue;
        for (int d = 0; d < 6 && n < cap; d++) {
            mk_hex h = mk_hex_neighbor(&sc->map.grid, s->pc[i].hex, d);
            if (h == MK_NO_HEX || !bar_unit_at(s, sc, h, bar_other(x->p[i].side), false) ||
                !bar_is_front(s, sc, i, h))
                continue;
            unsigned side = bar_hexside(&x->map, s->pc[i].hex, h);
            if (side & BAR_HS_LAKE)
                continue;
            if (x->p[i].kind == BK_CAVALRY && (side & (BAR_HS_HEDGEROW | BAR_HS_CREEK)))
                continue;   /* 5.3b-c */
            out[n++] = (mk_action){.type = BA_CC, .unit = (int16_t)i, .other = -1, .target = h};
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
static void retreat_hex(bar_state *s, const mk_scenario *sc, mk_hex h, int side, mk_events *ev)
{
    const bar_ext *x = bar_x(sc);
    const mk_grid *g = &sc->map.grid;
    mk_hex best = MK_NO_HEX;
    int bestv = 1 << 30;
    for (int d = 0; d < 6; d++) {
        mk_hex nb = mk_hex_neighbor(g, h, d);
        if (nb == MK_NO_HEX || x->map.terrain[nb] == BAR_T_LAKE || bar_unit_at(s, sc, nb, bar_other(side), false))
            continue;
        int v = mk_hex_distance(g, nb, x->home[side]) * 4 + (bar_in_ezoc(s, sc, side, nb) ? 20 : 0);
        if (v < bestv)
            bestv = v, best = nb;
    }
    for (int j = 0; j < s->npieces; j++) {
        if (s->pc[j].hex != h || x->p[j].side != side)
            continue;
        if (bar_is_leader(&x->p[j])) {
            s->pc[j].hex = best != MK_NO_HEX ? best : s->pc[j].hex;
            continue;
        }
        if (best == MK_NO_HEX) {
            bar_lose_sp(s, sc, j, 1, ev);
            continue;
        }
        mk_event *e = bar_ev(ev, "retreat", "Series 14 (Close Combat retreat)");
        e->unit = (int16_t)j;
        e->from = h;
        e->to = best;
        s->pc[j].hex = best;
        s->pc[j].status |= BS_DISORDERED;
        if (!(s->pc[j].status & BS_ROUTED))
            bar_do_check(s, sc, j, 'M', x->se.cc_letter, 0, "Monmouth 6.9 (Morale Check after Close Combat)", ev);
    }
}

static int defender_of(const bar_state *s, const mk_scenario *sc, mk_hex h, bool *all_routed)
{
    const bar_ext *x = bar_x(sc);
    int best = -1;
    *all_routed = true;
    for (int j = 0; j < s->npieces; j++) {
        if (s->pc[j].hex != h || bar_is_leader(&x->p[j]))
            continue;
        if (!(s->pc[j].status & BS_ROUTED))
            *all_routed = false;
        if (best < 0 || x->p[j].cv + status_mod(&x->se, &s->pc[j]) > x->p[best].cv + status_mod(&x->se, &s->pc[best]))
            best = j;
    }
    return best;
}

int bar_apply_cc(bar_state *s, const mk_scenario *sc, const mk_action *a, mk_events *ev, mk_error *err)
{
    const bar_ext *x = bar_x(sc);
    int i = a->unit, side = x->p[i].side;
    bar_pc *p = &s->pc[i];
    mk_hex from = p->hex, to = a->target;
    p->flags |= BF_CC | BF_MOVED;
    bool routed;
    int d = defender_of(s, sc, to, &routed);
    mk_event *e = bar_ev(ev, "close_combat", "Series 14, Monmouth 5.2-5.3");
    e->unit = (int16_t)i;
    e->other = (int16_t)d;
    e->target = to;
    if (routed) {   /* ours: routed units alone are overrun */
        e->text = "overrun";
        for (int j = 0; j < s->npieces; j++)
            if (s->pc[j].hex == to && !bar_is_leader(&x->p[j]))
                bar_lose_sp(s, sc, j, s->pc[j].sp, ev);
        retreat_hex(s, sc, to, bar_other(side), ev);   /* leaders left there */
        p->hex = to;
        return 0;
    }
    unsigned hs = bar_hexside(&x->map, from, to);
    bool uphill = x->map.elevation[to] > x->map.elevation[from];
    int att = x->p[i].cv + status_mod(&x->se, p) + leader_bonus(s, sc, from, side) +
              (p->form == BAR_FM_ATTACK_COLUMN ? x->se.cc_attack_column : 0);
    int tmod = bar_cv_modifier(&x->ch, x->map.terrain[from], x->map.terrain[to], hs, uphill,
                               x->p[d].kind == BK_CAVALRY);
    int def = x->p[d].cv + status_mod(&x->se, &s->pc[d]) + leader_bonus(s, sc, to, bar_other(side));
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
    if ((loser == 1 || loser == -2) && bar_alive(s, i) && s->pc[i].hex == from &&
        !bar_unit_at(s, sc, to, bar_other(side), false)) {
        for (int j = 0; j < s->npieces; j++)   /* enemy leaders left alone go too */
            if (s->pc[j].hex == to && x->p[j].side != side)
                s->pc[j].hex = MK_NO_HEX, s->pc[j].flags |= BF_ELIM;
        s->pc[i].hex = to;
        mk_event *adv = bar_ev(ev, "advance", "Series 14 (advance after Close Combat)");
        adv->unit = (int16_t)i;
        adv->to = to;
    }
    (void)err;
    return 0;
}
