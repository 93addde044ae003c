/* turn.c - the turn: initiative for the first activation, Command
 * activation with the leader's Initiative roll and its special results
 * (6.2), Wing Activations as two Commands (2.4a), the End Turn track (1.2d,
 * 7.x A), the Rally Phase, the hourly Army Morale Check (1.2a C), wounded
 * leaders' return (6.6e), reinforcements (7.0c: they enter by the `enter`
 * action during their Command's activation) and victory (7.1d-7.4d).
 *
 * Ours (docs/bar.md "The game"; numbers in data/bar/series.json): who
 * activates first (each side d10 + its Army Leader's Command Rating,
 * re-rolling ties), then the sides alternate; the End Turn roll; the
 * Initiative roll (the natural 00-99 roll's special range is the chart's,
 * otherwise the tens die at most the leader's Initiative passes; a Command
 * Leader within his Army Leader's Command Range needs no roll); the Wing
 * Activation roll (a d10 at least the Army Leader's WAN: WAN 7 for
 * Washington and Clinton, 9 for a replacement, 3.2a B, 4.2a B). */
#include <stdio.h>
#include <string.h>

#include "rules/bar/bar_int.h"

static bool leader_ready(const bar_state *s, int l)
{
    return l >= 0 && bar_alive(s, l) && s->pc[l].hex != MK_NO_HEX;
}

static bool can_enter_now(const bar_state *s, const bar_ext *x, int i)
{
    if (s->pc[i].more & BM_OFFMAP)   /* 3.4c */
        return s->turn >= s->pc[i].back && !(s->pc[i].flags & BF_ELIM);
    return x->p[i].arrive >= 0 && x->p[i].arrive <= s->turn && !(s->pc[i].flags & (BF_ON | BF_ELIM)) &&
           !(s->pc[i].more & BM_GUARD);   /* 7.4a F i: the guard never enters */
}

bool bar_org_can_activate(const bar_state *s, const mk_scenario *sc, int side, int org)
{
    const bar_ext *x = bar_x(sc);
    if (org < 0 || org >= x->oob.norgs || (s->acted[side] >> org) & 1)
        return false;
    int k = x->oob.org[org].kind;
    if (x->oob.org[org].side != side)
        return false;
    if (k == BAR_ORG_ARMY) {
        /* Monmouth 4.2b A: in the 10:00 and 10:20 AM turns Clinton
         * activates himself and the Independents on the map */
        if (side != BAR_BRITISH || s->turn > x->first_turn + 1 ||
            !x->sw_clinton ||
            !leader_ready(s, bar_army_leader(s, side)))
            return false;
        for (int i = 0; i < s->npieces; i++)
            if (x->p[i].side == side && x->p[i].independent && s->pc[i].hex != MK_NO_HEX &&
                !(s->pc[i].flags & BF_ACTED))
                return true;
        return false;
    }
    if (k != BAR_ORG_COMMAND && k != BAR_ORG_INDEPENDENT_COMMAND)
        return false;
    for (int i = 0; i < s->npieces; i++) {
        if (x->p[i].org != org || bar_is_leader(&x->p[i]) || !bar_alive(s, i))
            continue;
        /* 3.4c B: a Command wholly off the map still activates */
        if (s->pc[i].hex != MK_NO_HEX || can_enter_now(s, x, i) || (s->pc[i].more & BM_OFFMAP))
            return true;
    }
    return false;
}

static bool side_can_activate(const bar_state *s, const mk_scenario *sc, int side)
{
    for (int o = 0; o < bar_x(sc)->oob.norgs; o++)
        if (bar_org_can_activate(s, sc, side, o))
            return true;
    return false;
}

/* 3.3, 4.3: may leader w head a Detachment now? A Wing Leader (American:
 * also Wayne and von Steuben) outside the Army Leader's Command Range, in
 * a scenario that allows it, with none in play (Lee's counts, 3.3). */
static bool may_detach(const bar_state *s, const mk_scenario *sc, int side, int w)
{
    const bar_ext *x = bar_x(sc);
    const bar_pinfo *p = &x->p[w];
    int army = bar_army_leader(s, side);
    if (!bar_is_leader(p) || p->side != side || !leader_ready(s, w) || !leader_ready(s, army) || w == army ||
        s->det[side] >= 0 || p->org < 0 ||
        !x->sw_det[side])
        return false;
    if (side == BAR_AMERICAN && bar_lee_commands(s, sc, -2))
        return false;   /* Lee's Detachment is in play */
    bool wing = p->role == BAR_LR_WING || p->role == BAR_LR_DETACHMENT ||
                (side == BAR_AMERICAN && p->role == BAR_LR_SPECIAL &&
                 (w == x->pc_way || w == x->pc_ste));
    return wing && mk_hex_distance(&sc->map.grid, s->pc[w].hex, s->pc[army].hex) >
                       bar_leader_values_of(s, sc, army).range;
}

int bar_legal_activate(const bar_state *s, const mk_scenario *sc, mk_action *out, int cap)
{
    const bar_ext *x = bar_x(sc);
    int n = 0, norgs = 0;
    for (int w = 0; w < s->npieces && n < cap; w++)   /* 3.3, 4.3 */
        if (may_detach(s, sc, s->side, w))
            out[n++] = (mk_action){.type = BA_DETACH, .unit = (int16_t)w, .other = -1, .target = -1};
    bool can[BAR_OOB_MAX_ORGS];   /* asked once per Command: each asks every piece */
    for (int o = 0; o < x->oob.norgs; o++)
        norgs += can[o] = bar_org_can_activate(s, sc, s->side, o);
    int army = bar_army_leader(s, s->side);
    bool wing = norgs > 1 && s->bonus == 0 && leader_ready(s, army) && bar_leader_values_of(s, sc, army).wan > 0;
    for (int o = 0; o < x->oob.norgs && n < cap; o++) {
        if (!can[o])
            continue;
        out[n++] = (mk_action){.type = BA_ACTIVATE, .unit = -1, .other = (int16_t)o, .target = -1};
        if (wing && n < cap)
            out[n++] = (mk_action){.type = BA_ACTIVATE, .flags = BAF_WING, .unit = -1, .other = (int16_t)o,
                                   .target = -1};
    }
    return n;
}

/* 1.2a C, 6.2a: the Army Morale Check of a side: the loss level its Army
 * Loss Record has reached and a die (less the Army Leader's Command
 * Rating) give the modifier every check of that side carries from now. */
static void army_morale(bar_state *s, const mk_scenario *sc, int side, int extra, mk_events *ev)
{
    const bar_ext *x = bar_x(sc);
    int boxes = s->loss[side] + bar_artillery_loss_boxes(s->art_lost[side][0], s->art_lost[side][1]);
    int level = bar_army_loss_level(&x->ch, side, boxes);
    if (level < 0)
        return;
    int army = bar_army_leader(s, side);
    int die = mk_rng_d10(&s->head.rng);
    int mod = die + extra - (leader_ready(s, army) ? bar_leader_values_of(s, sc, army).cr : 0);
    mk_event *e = bar_ev(ev, "roll", "Monmouth 1.2a C, 6.2a");
    e->purpose = "army_morale";
    e->side = (int16_t)side;
    e->die = 10;
    e->value = (int16_t)die;
    e->points = (int16_t)boxes;
    s->army_mod[side] = (int8_t)bar_army_morale_modifier(&x->ch, level, mod);
    e->need = s->army_mod[side];
    if (extra)
        mk_event_mod(e, extra, "Initiative special result: Army Morale (6.2a A)");
}

static void set_activation_mp(bar_state *s, const mk_scenario *sc)
{
    const bar_ext *x = bar_x(sc);
    bool limits = x->initial_limits && !s->limits_off &&
                  s->turn <= x->first_turn + 2;
    for (int i = 0; i < s->npieces; i++) {
        bar_pc *p = &s->pc[i];
        p->flags &= (uint8_t)~(BF_FIRED | BF_CC | BF_OOC | BF_MOVED | BF_FULL);
        p->mp = 0;
        p->road = 0;
        p->spent = 0;
        p->more &= (uint8_t)~BM_OFF_ROAD;
        if (!bar_piece_active(s, sc, i))
            continue;
        const bar_pinfo *pi = &x->p[i];
        int mp = bar_is_leader(pi) ? x->se.leader_mp_half : pi->mp_half;
        if (!bar_is_leader(pi) && !s->in_command && !(p->status & BS_ROUTED)) {
            mp = mp * x->se.ooc_mp_pct / 100;
            p->flags |= BF_OOC;
        }
        if (pi->arrive == s->turn && !(p->flags & BF_ON) && pi->entry_mp_half >= 0 && mp > pi->entry_mp_half)
            mp = pi->entry_mp_half;
        /* Monmouth 7.1a (the scenario switch): British units on the map at
         * the start have 2 MPs (cavalry 4) in the first three turns. */
        if (limits && pi->side == BAR_BRITISH && pi->arrive < 0 && !bar_is_leader(pi)) {
            int lim = pi->kind == BK_CAVALRY ? 8 : 4;
            if (mp > lim)
                mp = lim;
        }
        p->mp = (int8_t)(mp > 127 ? 127 : mp);
        p->flags |= BF_FULL;
    }
}

static bool org_under(const bar_oob *o, int org, int anc)
{
    for (int k = 0; org >= 0 && k < BAR_OOB_MAX_ORGS; k++, org = o->org[org].parent)
        if (org == anc)
            return true;
    return false;
}

/* Did a unit of org arrive at that time (a reinforcement group)? */
static bool org_arrives(const bar_ext *x, const mk_scenario *sc, int org, int turn)
{
    for (int i = 0; i < sc->nunits; i++)
        if (x->p[i].org == org && !bar_is_leader(&x->p[i]) && x->p[i].arrive == turn)
            return true;
    return false;
}

/* Series 7.4: is Command Leader l in his Army Leader's Line of Command?
 * Within the Army Leader's Command Range, or within the range of a Wing
 * Leader of his (a Wing above his Command) who is within the Army
 * Leader's; and Monmouth 3.2b A-B: Lafayette (scenarios 2, 3) for the
 * 3:00 PM reinforcements and the New Jersey Brigade, von Steuben for the
 * 6:00 PM ones. Returns the leader that was enough (the Army Leader or the
 * extender), -1 for none. */
static int in_army_loc(const bar_state *s, const mk_scenario *sc, int org, int l)
{
    const bar_ext *x = bar_x(sc);
    const mk_grid *g = &sc->map.grid;
    int side = x->oob.org[org].side, army = bar_army_leader(s, side);
    int det = s->det[side];   /* 3.3, 4.3: a Detachment traces to its own leader */
    if (det >= 0 && leader_ready(s, det) && leader_ready(s, l) && org_under(&x->oob, org, x->p[det].org) &&
        mk_hex_distance(g, s->pc[l].hex, s->pc[det].hex) <= bar_leader_values_of(s, sc, det).range)
        return det;
    if (!leader_ready(s, army) || !leader_ready(s, l))
        return -1;
    int range = bar_leader_values_of(s, sc, army).range;
    if (mk_hex_distance(g, s->pc[l].hex, s->pc[army].hex) <= range)
        return army;
    int laf = x->pc_laf, ste = x->pc_ste;
    for (int w = 0; w < s->npieces; w++) {
        const bar_pinfo *p = &x->p[w];
        if (!bar_is_leader(p) || p->side != side || w == army || !leader_ready(s, w) ||
            mk_hex_distance(g, s->pc[w].hex, s->pc[army].hex) > range ||
            mk_hex_distance(g, s->pc[l].hex, s->pc[w].hex) > bar_leader_values_of(s, sc, w).range)
            continue;
        bool wing = (p->role == BAR_LR_WING || p->role == BAR_LR_DETACHMENT) && p->org >= 0 &&
                    org_under(&x->oob, org, p->org);
        bool laf_ok = w == laf && x->sw_laf &&
                      (org_arrives(x, sc, org, bar_turn_of(28, 15, 0)) || !strcmp(x->oob.org[org].id, "NJB"));
        bool ste_ok = w == ste && x->sw_ste &&
                      org_arrives(x, sc, org, bar_turn_of(28, 18, 0));
        if (wing || laf_ok || ste_ok)
            return w;
    }
    return -1;
}

int bar_apply_activate(bar_state *s, const mk_scenario *sc, const mk_action *a, mk_events *ev,
                       mk_error *err)
{
    const bar_ext *x = bar_x(sc);
    int side = s->side, org = a->other;
    s->acted[side] |= 1ull << org;
    s->org = (int16_t)org;
    mk_event *e = bar_ev(ev, "activate", "Monmouth 2.4a");
    e->side = (int16_t)side;
    e->text = x->oob.org[org].id;
    int army = bar_army_leader(s, side);
    s->nsnipe = 0;
    s->nof = 0;
    if (a->flags & BAF_WING) {   /* 2.4a: a Wing Activation is two Commands */
        int die = mk_rng_d10(&s->head.rng);
        mk_event *w = bar_ev(ev, "roll", "Monmouth 2.4a (WAN 3.2a B, 4.2a B)");
        w->purpose = "wing_activation";
        w->unit = (int16_t)army;
        w->die = 10;
        w->value = (int16_t)die;
        int wan = bar_leader_values_of(s, sc, army).wan;
        w->need = (int16_t)wan;
        w->passed = die >= wan;
        if (die >= wan)
            s->bonus = 1;
    }
    /* 6.2: the Command Leader's Initiative */
    int l = bar_org_leader(sc, org);
    bool lee = bar_lee_commands(s, sc, org);   /* 3.2b G: Lee's Detachment */
    int via;
    s->in_command = 0;
    if (!leader_ready(s, l)) {
        mk_event *r = bar_ev(ev, "out_of_command", "Series 7.6c (no Command Leader on the map)");
        r->side = (int16_t)side;
    } else if (lee && bar_lee_activation(s, sc, org, ev)) {
        s->in_command = 1;
        mk_event *r = bar_ev(ev, "in_command", "Monmouth 3.2b G ii-iii (in Lee's LOC)");
        r->unit = (int16_t)l;
    } else if (!lee && (via = in_army_loc(s, sc, org, l)) >= 0) {
        s->in_command = 1;
        mk_event *r = bar_ev(ev, "in_command", via == army ? "Series 7.4 (within the Army Leader's Command Range)"
                                                           : "Series 7.4, Monmouth 3.2b A-B (LOC through a Wing "
                                                             "or Special Leader)");
        r->unit = (int16_t)l;
        r->other = (int16_t)via;
    } else {
        int roll = mk_rng_d100(&s->head.rng);
        int special = bar_initiative_special(&x->ch, side, roll);
        mk_event *r = bar_ev(ev, "roll", "Monmouth 6.2");
        r->purpose = "initiative";
        r->unit = (int16_t)l;
        r->die = 100;
        r->value = (int16_t)roll;
        r->need = (int16_t)bar_leader_values_of(s, sc, l).initiative;
        mk_event_mod(r, r->need, "Initiative: the tens die must be at most this (00-09 special)");
        if (special >= 0) {
            static const char *const names[BAR_NINI] = {"army_morale", "leader_lapse", "confusion",
                                                        "free_combat", "special_rally",
                                                        "leader_initiative", "battle_tempo"};
            r->text = names[special];
            switch (special) {
            case BAR_INI_ARMY_MORALE:   /* 2.2b, 6.2a: both sides check, -1 */
                army_morale(s, sc, BAR_AMERICAN, -1, ev);
                army_morale(s, sc, BAR_BRITISH, -1, ev);
                s->in_command = 1;
                break;
            case BAR_INI_LEADER_LAPSE:   /* 6.2b: our reduction: this Command is Out of Command */
            case BAR_INI_CONFUSION:      /* 6.2c: our reduction: Out of Command (half MPs) */
                break;
            case BAR_INI_BATTLE_TEMPO:   /* 6.2g: the End Turn marker moves a box */
                s->marker++;
                s->in_command = 1;
                break;
            default:   /* free combat, special rally, leader initiative: the Command acts */
                s->in_command = 1;
                break;
            }
        } else {
            s->in_command = roll / 10 <= bar_leader_values_of(s, sc, l).initiative;
        }
        r->passed = s->in_command;
    }
    s->phase = BP_MOVE;
    set_activation_mp(s, sc);
    if (lee && !s->in_command && leader_ready(s, l))
        bar_lee_ooc_penalty(s, sc, org, ev);   /* 3.2b G iv */
    (void)err;
    return 0;
}

/* The Rally Phase (2.5, series): a routed unit not next to a formed enemy
 * rallies to Shaken and Disordered on a Morale Check; Disorder Recovery and
 * a Shaken unit's recovery the same way. A failed roll changes nothing. */
static void rally_phase(bar_state *s, const mk_scenario *sc, mk_events *ev)
{
    const bar_ext *x = bar_x(sc);
    for (int i = 0; i < s->npieces; i++) {
        bar_pc *p = &s->pc[i];
        if (p->hex == MK_NO_HEX || bar_is_leader(&x->p[i]) || !p->status)
            continue;
        mk_hex nb[6];
        mk_hex_neighbors(&sc->map.grid, p->hex, nb);
        bool near = false;
        for (int d = 0; d < 6; d++)
            near |= nb[d] != MK_NO_HEX && bar_unit_at(s, sc, nb[d], bar_other(x->p[i].side), true);
        if (near)
            continue;
        int roll = mk_rng_d100(&s->head.rng), need = bar_check_target(s, sc, i, 0);
        mk_event *e = bar_ev(ev, "roll", "Monmouth 2.5 (Rally Phase)");
        e->unit = (int16_t)i;
        e->die = 100;
        e->value = (int16_t)roll;
        e->need = (int16_t)need;
        bool pass = roll >= need;
        e->passed = pass;
        if (p->status & BS_ROUTED) {
            e->purpose = "rally";
            if (pass)
                p->status = BS_SHAKEN | BS_DISORDERED;
        } else if (p->status & BS_DISORDERED) {
            e->purpose = "disorder_recovery";
            if (pass)
                p->status &= (uint8_t)~BS_DISORDERED;
        } else {
            e->purpose = "shaken_recovery";
            if (pass)
                p->status &= (uint8_t)~BS_SHAKEN;
        }
    }
}

/* Wounded leaders come back (6.6e) with a unit of their Command, or any
 * unit of their side. */
static void leaders_return(bar_state *s, const mk_scenario *sc, mk_events *ev)
{
    const bar_ext *x = bar_x(sc);
    for (int j = 0; j < s->npieces; j++) {
        if (!s->pc[j].wounded || --s->pc[j].wounded)
            continue;
        mk_hex h = MK_NO_HEX;
        for (int i = 0; i < s->npieces && h == MK_NO_HEX; i++)
            if (!bar_is_leader(&x->p[i]) && s->pc[i].hex != MK_NO_HEX && x->p[i].org == x->p[j].org)
                h = s->pc[i].hex;
        for (int i = 0; i < s->npieces && h == MK_NO_HEX; i++)
            if (!bar_is_leader(&x->p[i]) && s->pc[i].hex != MK_NO_HEX && x->p[i].side == x->p[j].side)
                h = s->pc[i].hex;
        s->pc[j].hex = h;
        mk_event *e = bar_ev(ev, "returns", "Monmouth 6.6e");
        e->unit = (int16_t)j;
        e->hex = h;
    }
}

static void decide(bar_state *s, const mk_scenario *sc, mk_events *ev)
{
    const bar_ext *x = bar_x(sc);
    bar_victory_in in;
    bar_victory_out out;
    mk_error err;
    bar_victory_input(s, sc, &in);
    s->phase = BP_OVER;
    if (bar_victory(x->scenario, &in, &out, &err) < 0) {
        s->winner = -1;
        s->level = BAR_LEVEL_DRAW;
        return;
    }
    s->winner = (int8_t)out.winner;
    s->level = (int8_t)out.level;
    mk_event *e = bar_ev(ev, "game_over", x->scenario == 1 ? "Monmouth 7.1d" : x->scenario == 2 ? "Monmouth 7.2d"
                                                          : x->scenario == 3 ? "Monmouth 7.3d" : "Monmouth 7.4d");
    e->side = (int16_t)out.winner;
    e->value = (int16_t)out.ratio;
}

/* The activation phase's other choice: 3.3, 4.3 create a Detachment. */
int bar_apply_detach(bar_state *s, const mk_scenario *sc, const mk_action *a, mk_events *ev)
{
    s->det[s->side] = a->unit;
    mk_event *e = bar_ev(ev, "detachment", s->side == BAR_AMERICAN ? "Monmouth 3.3" : "Monmouth 4.3");
    e->unit = a->unit;
    (void)sc;
    return 0;
}

int bar_turn_init(bar_state *s, const mk_scenario *sc, mk_events *ev)
{
    for (int side = 0; side < 2; side++) {   /* Series 24.3 (ours): back within range, it rejoins */
        int d = s->det[side], army = bar_army_leader(s, side);
        if (d >= 0 && (!leader_ready(s, d) ||
                       (leader_ready(s, army) && mk_hex_distance(&sc->map.grid, s->pc[d].hex, s->pc[army].hex) <=
                                                     bar_leader_values_of(s, sc, army).range))) {
            s->det[side] = -1;
            mk_event *e = bar_ev(ev, "detachment_rejoins", "Series 24.3 (our reading: docs/bar.md)");
            e->unit = (int16_t)d;
        }
    }
    s->acted[0] = s->acted[1] = 0;
    s->marker = 0;
    s->bonus = 0;
    for (int i = 0; i < s->npieces; i++)
        s->pc[i].flags &= (uint8_t)~BF_ACTED;
    bar_raids(s, sc, ev);   /* 7.4a F ii: before any other activity */
    if (bar_x(sc)->sw_relief_turn == s->turn)
        for (int side = 0; side < 2; side++) {   /* 7.4a D: -5, not below 0 */
            s->army_mod[side] = (int8_t)(s->army_mod[side] > 5 ? s->army_mod[side] - 5 : 0);
            mk_event *e = bar_ev(ev, "army_morale_relief", "Monmouth 7.4a D");
            e->side = (int16_t)side;
            e->value = s->army_mod[side];
        }
    if (bar_guard_turn(s, sc)) {   /* 7.4a F: the British designate the guard first */
        s->phase = BP_GUARD;
        s->side = BAR_BRITISH;
        return 0;
    }
    bar_turn_start(s, sc, ev);
    return 0;
}

/* The turn's activations begin. */
void bar_turn_start(bar_state *s, const mk_scenario *sc, mk_events *ev)
{
    /* Who activates first: d10 + the Army Leader's Command Rating. */
    int r[2];
    for (int tries = 0; tries < 20; tries++) {
        for (int side = 0; side < 2; side++) {
            int a = bar_army_leader(s, side);
            r[side] = mk_rng_d10(&s->head.rng) + (leader_ready(s, a) ? bar_leader_values_of(s, sc, a).cr : 0);
        }
        if (r[0] != r[1])
            break;
    }
    s->first = (int8_t)(r[1] > r[0] ? BAR_BRITISH : BAR_AMERICAN);
    mk_event *e = bar_ev(ev, "first_activation", "Series (our reconstruction: docs/bar.md)");
    e->side = s->first;
    mk_event_value(e, r[0]);
    mk_event_value(e, r[1]);
    s->side = s->first;
    s->phase = BP_ACTIVATE;
    if (!side_can_activate(s, sc, s->side))
        s->side = (int8_t)bar_other(s->side);
    if (!side_can_activate(s, sc, s->side))
        bar_end_activation(s, sc, ev);   /* nothing to do: the turn passes */
}

static void note_objectives(bar_state *s, const mk_scenario *sc)
{
    const bar_ext *x = bar_x(sc);
    const bar_sc_victory *v = &x->scen.victory;
    for (int i = 0; i < s->npieces; i++) {
        const bar_pc *p = &s->pc[i];
        if (p->hex == MK_NO_HEX || bar_is_leader(&x->p[i]) || (p->status & BS_ROUTED))
            continue;
        mk_hex t2 = bar_tail_hex(s, sc, i);   /* 2.1c: a column's trailing hex counts too */
        if (x->p[i].side == BAR_AMERICAN && v->threat_hex != MK_NO_HEX &&
            (mk_hex_distance(&sc->map.grid, p->hex, v->threat_hex) <= 1 ||
             (t2 != MK_NO_HEX && mk_hex_distance(&sc->map.grid, t2, v->threat_hex) <= 1)))
            s->american_e3915 = true;   /* 7.1d E */
        for (int k = 0; k < v->norchard; k++)   /* 7.1d B: who entered last */
            if (p->hex == v->orchard[k] || t2 == v->orchard[k])
                s->orchard = (uint8_t)(x->p[i].side == BAR_BRITISH ? s->orchard | 1u << k : s->orchard & ~(1u << k));
        if (x->p[i].side == BAR_BRITISH)
            for (int k = 0; k < v->nadvance; k++)
                if (p->hex == v->advance[k] || t2 == v->advance[k])
                    s->advance |= (uint16_t)(1u << k);
    }
}

void bar_end_activation(bar_state *s, const mk_scenario *sc, mk_events *ev)
{
    const bar_ext *x = bar_x(sc);
    note_objectives(s, sc);
    for (int i = 0; i < s->npieces; i++) {
        s->pc[i].mp = 0;
        s->pc[i].flags &= (uint8_t)~(BF_FIRED | BF_CC | BF_OOC | BF_MOVED | BF_FULL);
    }
    s->phase = BP_ACTIVATE;
    bool more = side_can_activate(s, sc, 0) || side_can_activate(s, sc, 1);
    bool end = !more;
    if (more) {
        /* the End Turn track: a box per activation, then a roll each time */
        s->marker++;
        int etn = bar_end_turn_number(x->scenario, s->turn);
        if (s->marker > etn) {
            int die = mk_rng_d10(&s->head.rng);
            int need = (s->marker - etn) * x->se.end_turn_pct / 10;
            mk_event *e = bar_ev(ev, "roll", "Monmouth 1.2d, 7.x A (End Turn Number; our roll)");
            e->purpose = "end_turn";
            e->die = 10;
            e->value = (int16_t)die;
            e->need = (int16_t)need;
            e->points = s->marker;
            e->passed = die < need;
            end = die < need;
        }
    }
    if (!end) {
        int next = s->bonus ? s->side : bar_other(s->side);
        s->bonus = 0;
        if (!side_can_activate(s, sc, next))
            next = bar_other(next);
        s->side = (int8_t)next;
        return;
    }
    /* the end of the turn */
    rally_phase(s, sc, ev);
    if (s->turn % 3 == 2) {   /* the last turn of an hour: Army Morale Check Phase */
        army_morale(s, sc, BAR_AMERICAN, 0, ev);
        army_morale(s, sc, BAR_BRITISH, 0, ev);
    }
    mk_event *e = bar_ev(ev, "turn_end", "Monmouth 1.2d");
    e->value = s->turn;
    if (s->turn >= x->victory_turn) {
        decide(s, sc, ev);
        return;
    }
    s->turn++;
    leaders_return(s, sc, ev);
    bar_turn_init(s, sc, ev);
}

/* 7.1d C-D: the British line of communications, road hexes from W2220 to
 * E3915, is interdicted when a non-Routed American unit or its ZOC is on
 * one of them (our reduction: the fire clause is not checked). */
static bool interdicted(const bar_state *s, const mk_scenario *sc)
{
    const bar_ext *x = bar_x(sc);
    const mk_grid *g = &sc->map.grid;
    mk_hex from = x->scen.victory.hold_hex, to = x->scen.victory.threat_hex;
    if (from == MK_NO_HEX || to == MK_NO_HEX)
        return false;
    int16_t prev[MK_MAX_HEX];
    mk_hex q[MK_MAX_HEX];
    for (int h = 0; h < mk_grid_size(g); h++)
        prev[h] = -2;
    int qh = 0, qt = 0;
    q[qt++] = from;
    prev[from] = -1;
    while (qh < qt && prev[to] == -2) {
        mk_hex h = q[qh++];
        for (int d = 0; d < 6; d++) {
            mk_hex nb = mk_hex_neighbor(g, h, d);
            if (nb != MK_NO_HEX && prev[nb] == -2 && bar_road(&x->map, h, nb)) {
                prev[nb] = h;
                q[qt++] = nb;
            }
        }
    }
    if (prev[to] == -2)
        return true;   /* no road at all: cut */
    for (mk_hex h = to; h != -1; h = prev[h])
        if (bar_unit_at(s, sc, h, BAR_AMERICAN, true) || bar_in_ezoc(s, sc, BAR_BRITISH, h))
            return true;
    return false;
}

void bar_victory_input(const bar_state *s, const mk_scenario *sc, bar_victory_in *in)
{
    const bar_ext *x = bar_x(sc);
    const bar_sc_victory *v = &x->scen.victory;
    memset(in, 0, sizeof *in);
    for (int side = 0; side < 2; side++) {
        in->loss[side] = s->loss[side] + bar_artillery_loss_boxes(s->art_lost[side][0], s->art_lost[side][1]);
        in->sp_lost[side] = s->sp_lost[side];
    }
    in->orchard = v->norchard > 0 && s->orchard == (1u << v->norchard) - 1;
    for (int i = 0; i < s->npieces; i++) {
        const bar_pc *p = &s->pc[i];
        if (p->hex == MK_NO_HEX || bar_is_leader(&x->p[i]) || x->p[i].side != BAR_BRITISH)
            continue;
        in->british_on_map++;
        if (!(p->status & BS_ROUTED) && v->hold_hex != MK_NO_HEX &&
            mk_hex_distance(&sc->map.grid, p->hex, v->hold_hex) <= 1)
            in->w2220 = true;
    }
    in->interdicted = in->w2220 && interdicted(s, sc);
    in->american_e3915 = s->american_e3915;
    in->advance = s->advance;
    in->baggage = s->baggage;
}

void bar_result(const void *st, const mk_scenario *sc, mk_result *out)
{
    const bar_state *s = st;
    const bar_ext *x = bar_x(sc);
    static const char *const levels[] = {"draw", "marginal", "minor", "major"};
    out->winner = s->phase == BP_OVER ? s->winner : -1;
    out->level = s->phase != BP_OVER ? "none" : levels[s->level >= 0 && s->level <= 3 ? s->level : 0];
    if (s->phase != BP_OVER) {
        snprintf(out->reason, sizeof out->reason, "not over");
        return;
    }
    bar_victory_in in;
    bar_victory_out v;
    mk_error err;
    bar_victory_input(s, sc, &in);
    if (bar_victory(x->scenario, &in, &v, &err) < 0) {
        snprintf(out->reason, sizeof out->reason, "%s", err.msg);
        return;
    }
    if (v.auto_draw)
        snprintf(out->reason, sizeof out->reason, "automatic draw: losses American %d, British %d (Monmouth 7.%dd)",
                 in.loss[0], in.loss[1], x->scenario);
    else if (x->scenario == 1)   /* hundredths, either sign */
        snprintf(out->reason, sizeof out->reason,
                 "victory ratio %s%d.%02d (American %d / British %d, modifiers %s%d.%02d; Monmouth 7.1d)",
                 v.ratio < 0 ? "-" : "", abs(v.ratio) / 100, abs(v.ratio) % 100, v.am_total, v.br_total,
                 v.modifier < 0 ? "-" : "+", abs(v.modifier) / 100, abs(v.modifier) % 100);
    else
        snprintf(out->reason, sizeof out->reason, "victory ratio %d.%d (American %d, British %d; Monmouth 7.%dd)",
                 v.ratio / 10, v.ratio % 10, v.am_total, v.br_total, x->scenario);
}
