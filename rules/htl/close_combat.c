/* close_combat.c - Hold the Line infantry close combat (HtL 8.4): the
 * defenders' morale checks, the attack, and the combat driver that runs a
 * fire or close combat to its end, stopping at each decision. */
#include <string.h>

#include "htl_int.h"

/* The most a defender's morale die may show and pass (HtL 8.4.2): current
 * MP + 1 with a leader (9.2) + the terrain's morale modifier (2.3) + 1 for
 * elite (3.4.2, 8.4.5). AMB-HTL-1, -2: modifiers are added to MP. Adds the
 * modifiers to e when e is not NULL. */
int htl_morale_threshold(const htl_state *s, const mk_scenario *sc, int unit, mk_event *e)
{
    int h = s->u[unit].hex, v = s->u[unit].mp;
    if (e)
        mk_event_mod(e, (int16_t)v, "current MP (HtL 8.4.2)");
    if (htl_leader_in(s, sc, h, sc->units[unit].side) >= 0) {
        v += 1;
        if (e)
            mk_event_mod(e, 1, "leader in the hex (HtL 9.2)");
    }
    const htl_terrain_fx *t = htl_terrain(sc, h);
    if (t->morale) {
        v += t->morale;
        if (e)
            mk_event_mod(e, t->morale, t->morale_why);
    }
    if (sc->units[unit].kind == HK_ELITE) {
        v += 1;
        if (e)
            mk_event_mod(e, 1, "elite (HtL 3.4.2, 8.4.5)");
    }
    return v;
}

/* HtL 8.4.4: the attacker may advance into the vacated hex. Returns 1 when
 * waiting for the attacker's decision. */
static int advance_step(htl_state *s, const mk_scenario *sc, mk_events *ev)
{
    htl_combat *cb = &s->cb;
    int a = cb->attacker, side = sc->units[a].side;
    if (s->u[a].hex < 0 || !cb->vacated)
        return 0;
    for (int i = 0; i < s->nunits; i++)
        if (s->u[i].hex == cb->hex && sc->units[i].side != side && sc->units[i].kind != HK_VP)
            return 0; /* not vacated */
    if (htl_terrain(sc, cb->hex)->impassable)
        return 0;
    if (cb->chosen < 0) {
        cb->pending = HP_ADVANCE;
        cb->decider = (int8_t)side;
        return 1;
    }
    if (cb->chosen == HC_ADVANCE) {
        int from = s->u[a].hex;
        htl_enter_hex(s, sc, a, cb->hex, ev);
        s->u[a].hex = cb->hex;
        mk_event *e = mk_events_add(ev, "advance");
        e->rule = "HtL 8.4.4";
        e->unit = (int16_t)a;
        e->from = (int16_t)from;
        e->to = cb->hex;
    } else { /* declined: logged too (docs/ai.md) */
        mk_events_decline(ev, a, s->u[a].hex, "advance", "HtL 8.4.4");
    }
    cb->chosen = -1;
    return 0;
}

/* 11.11: a defending dragoon may withdraw before the close combat, by the
 * retreat rules of 8.5, if it has somewhere to go. Returns the dragoon in
 * the target hex that may, or -1. */
static int withdrawing_dragoon(const htl_state *s, const mk_scenario *sc)
{
    const htl_combat *cb = &s->cb;
    if (!HTL_OPT(s, 11))
        return -1;
    int units[4], n = htl_combat_units_in(s, sc, cb->hex, cb->defender, units);
    for (int i = 0; i < n; i++) {
        int16_t opts[6];
        if (sc->units[units[i]].kind == HK_DRAGOON && htl_retreat_options(s, sc, units[i], opts) > 0)
            return units[i];
    }
    return -1;
}

static int withdraw_step(htl_state *s, const mk_scenario *sc)
{
    htl_combat *cb = &s->cb;
    int d = withdrawing_dragoon(s, sc);
    if (d < 0) {
        cb->stage = CB_ATTACK;
        return 0;
    }
    if (cb->chosen < 0) {
        cb->pending = HP_WITHDRAW;
        cb->decider = (int8_t)cb->defender;
        return 1;
    }
    if (cb->chosen == HC_WITHDRAW) {
        cb->failed[0] = (int16_t)d;
        cb->nfailed = 1;
        cb->fi = 0;
        cb->stage = CB_WRETREAT;
    } else {
        cb->stage = CB_ATTACK;
    }
    cb->chosen = -1;
    return 0;
}

/* The close combat itself (HtL 8.4.2, 8.4.3, 8.5.4, 9.3.1): the defenders'
 * morale, the attack roll, leader casualty checks. */
static void attack_step(htl_state *s, const mk_scenario *sc, mk_events *ev)
{
    htl_combat *cb = &s->cb;
    int u = cb->attacker, h = cb->hex, def = cb->defender;
    cb->nfailed = 0;
    cb->fi = 0;
    cb->retreat_to = -1;
    int units[4];
    int n = htl_combat_units_in(s, sc, h, def, units);
    if (n == 0) { /* all withdrew (11.11): nothing left to attack */
        cb->stage = CB_LEADER;
        return;
    }
    int inf_passed = 0;
    for (int i = 0; i < n; i++) {
        int v = units[i], k = sc->units[v].kind;
        mk_event *e = mk_events_add(ev, "morale");
        e->rule = "HtL 8.4.2";
        e->unit = (int16_t)v;
        if (k == HK_ARTILLERY && inf_passed) {
            e->text = "passes with the infantry (HtL 8.5.4)";
            e->passed = 1;
            continue;
        }
        int need = htl_morale_threshold(s, sc, v, e);
        if (cb->flank) { /* 11.14: -1 to the defender's MP (AMB-HTL-14) */
            need--;
            mk_event_mod(e, -1, "flank attack (HtL 11.14)");
        }
        int d = mk_rng_d6(&s->head.rng);
        e->die = 6;
        e->value = (int16_t)d;
        mk_event_value(e, d);
        e->need = (int16_t)need;
        bool pass = d <= need && d != 6; /* a natural 6 always fails */
        e->passed = pass;
        if (htl_is_infantry(k) && pass)
            inf_passed = 1;
        if (!pass)
            cb->failed[cb->nfailed++] = (int16_t)v;
    }
    int extra = 0, L = cb->att_leader;
    if (L >= 0)
        extra = sc->units[L].nrating >= 1 && sc->units[L].rating[0] > 0 ? sc->units[L].rating[0] : 1;
    int ones, hits = htl_roll_attack(s, sc, u, h, htl_hit_number(sc->units[u].kind, 0), extra,
                                     cb->flank, "close_combat", "HtL 8.4.3", ev, &ones);
    int ld = htl_leader_in(s, sc, h, def);
    /* HtL 9.3.1: close combat: one check per natural 1 */
    if (ld >= 0 && ones > 0)
        htl_leader_casualty(s, sc, ld, ones, ev);
    /* 11.6: the 1s also put the attacking leader at risk */
    if (L >= 0 && ones > 0 && s->u[L].hex >= 0)
        htl_leader_casualty(s, sc, L, ones, ev);
    cb->leader = (int16_t)(ld >= 0 && s->u[ld].hex == h ? ld : -1);
    cb->hits_left = (int8_t)hits;
    cb->stage = CB_HITS;
}

/* Runs the combat in s->cb until it needs a decision (then to_move is the
 * deciding side) or ends (then the action is done, HtL 6.2.7). */
void htl_combat_run(htl_state *s, const mk_scenario *sc, mk_events *ev)
{
    htl_combat *cb = &s->cb;
    for (;;) {
        switch (cb->stage) {
        case CB_WITHDRAW:
            if (withdraw_step(s, sc))
                goto wait;
            break;
        case CB_WRETREAT:
            if (htl_retreat_step(s, sc, ev))
                goto wait;
            cb->stage = CB_ATTACK;
            break;
        case CB_ATTACK:
            attack_step(s, sc, ev);
            break;
        case CB_HITS:
            if (htl_hits_step(s, sc, ev))
                goto wait;
            cb->stage = cb->close ? CB_RETREAT : CB_LEADER;
            break;
        case CB_RETREAT:
            if (htl_retreat_step(s, sc, ev))
                goto wait;
            cb->stage = CB_LEADER;
            break;
        case CB_LEADER:
            if (htl_leader_step(s, sc, ev))
                goto wait;
            /* 11.7: an adjacent firer may advance into a hex it emptied */
            cb->stage = cb->close || (HTL_OPT(s, 7) && s->u[cb->attacker].hex >= 0 &&
                                      mk_hex_adjacent(&sc->map.grid, (mk_hex)s->u[cb->attacker].hex,
                                                      (mk_hex)cb->hex))
                            ? CB_ADVANCE
                            : CB_DONE;
            break;
        case CB_ADVANCE:
            if (advance_step(s, sc, ev))
                goto wait;
            cb->stage = CB_DONE;
            break;
        default:
            htl_action_done(s, sc, ev);
            return;
        }
    }
wait:
    s->to_move = cb->decider;
}

/* The leader that may add his combat dice to u's close combat (11.6): in
 * u's hex, not yet acted. -1 if none or the rule is off. */
static int combat_leader(const htl_state *s, const mk_scenario *sc, int u)
{
    if (!HTL_OPT(s, 6))
        return -1;
    int L = htl_leader_in(s, sc, s->u[u].hex, sc->units[u].side);
    return L >= 0 && !(s->u[L].flags & HU_ACTED) ? L : -1;
}

/* Appends every legal close combat of the active side: an infantry-type
 * unit that has not acted, adjacent to a hex with an enemy combat unit,
 * 2 AP (HtL 6.2.2, 8.4.1); with 11.6 also with its leader's dice, 3 AP. */
int htl_legal_close(const htl_state *s, const mk_scenario *sc, const htl_occ *o, mk_action *out,
                    int n, int cap)
{
    if (s->ap < 2)
        return n;
    const mk_grid *g = &sc->map.grid;
    for (int u = 0; u < s->nunits && n < cap; u++) {
        if (sc->units[u].side != s->active || s->u[u].hex < 0 ||
            !htl_is_infantry(sc->units[u].kind) || (s->u[u].flags & HU_ACTED))
            continue;
        int16_t nb[6];
        htl_neighbors(g, s->u[u].hex, nb);
        int L = -2;   /* the leader's dice (11.6), looked up at the first target */
        for (int d = 0; d < 6 && n < cap; d++) {
            if (nb[d] < 0 || !htl_occ_enemy_combat(o, sc, nb[d], s->active))
                continue;
            if (L == -2)
                L = s->ap >= 3 ? combat_leader(s, sc, u) : -1;
            for (int with = 0; with < (L >= 0 ? 2 : 1) && n < cap; with++) {
                mk_action *a = &out[n++];
                memset(a, 0, sizeof *a);
                a->type = HA_CLOSE;
                a->unit = (int16_t)u;
                a->other = (int16_t)(with ? L : -1);
                a->target = nb[d];
                a->cost = (uint8_t)(with ? 3 : 2);
            }
        }
    }
    return n;
}

/* Checks and applies a close combat (HtL 8.4): optional attacker morale
 * (11.1), an optional dragoon withdrawal (11.11), each defending combat
 * unit's morale (infantry before artillery, 8.5.4), the attacker's 3 dice
 * hitting on 4-6 shifted by terrain (8.4.3), leader checks per natural 1
 * (9.3.1), hits, retreats of failed survivors (8.5), advance (8.4.4). */
int htl_apply_close(htl_state *s, const mk_scenario *sc, const mk_action *a, mk_events *ev,
                    mk_error *err)
{
    const mk_grid *g = &sc->map.grid;
    int u = a->unit, h = a->target, side = sc->units[u].side, L = a->other;
    const char *id = sc->units[u].id;
    if (!htl_is_infantry(sc->units[u].kind))
        return mk_error_set(err, "illegal_action",
                            "HtL 8.4.1, 6.2.3: only infantry-type units close combat (%s is %s)",
                            id, htl_kind_names[sc->units[u].kind]);
    if (s->u[u].hex < 0)
        return mk_error_set(err, "illegal_action", "%s is not on the map", id);
    if (s->u[u].flags & HU_ACTED)
        return mk_error_set(err, "illegal_action", "HtL 6.1.4: %s has already acted this turn",
                            id);
    if (L >= 0 && (L >= s->nunits || combat_leader(s, sc, u) != L))
        return mk_error_set(err, "illegal_action",
                            HTL_OPT(s, 6) ? "HtL 11.6: the leader must be with %s and not have acted"
                                          : "HtL 11.6: leader combat dice are an optional rule not "
                                            "in use (%s)",
                            id);
    int cost = L >= 0 ? 3 : 2;
    if (s->ap < cost)
        return mk_error_set(err, "illegal_action", "HtL 8.4.1: close combat costs %d AP, %d left",
                            cost, s->ap);
    if (h < 0 || h >= mk_grid_size(g) || !mk_hex_adjacent(g, (mk_hex)s->u[u].hex, (mk_hex)h) ||
        !htl_enemy_combat_in(s, sc, h, side))
        return mk_error_set(err, "illegal_action",
                            "HtL 8.4.1: close combat needs an adjacent enemy unit");

    s->ap = (int8_t)(s->ap - cost);
    s->dragoon_fire = -1;
    s->u[u].flags |= HU_ACTED | HU_CLOSE;
    if (L >= 0)
        s->u[L].flags |= HU_ACTED;
    int flank = htl_flank(s, sc, u, h);
    s->att_hex[u] = (int16_t)h;
    if (HTL_OPT(s, 1)) {
        /* 11.1: the attacker checks morale after paying; leaders +1, elite
         * +1 (3.4.2 "all morale checks"); a natural 6 fails (as 8.4.2). On a
         * failure the AP are lost and the unit may only fire, for no
         * further AP (AMB-HTL-8 (a)), as its very next action. */
        mk_event *e = mk_events_add(ev, "morale");
        e->rule = "HtL 11.1";
        e->purpose = "attack";
        e->unit = (int16_t)u;
        int need = s->u[u].mp;
        mk_event_mod(e, (int16_t)need, "current MP (HtL 11.1)");
        if (htl_leader_in(s, sc, s->u[u].hex, side) >= 0) {
            need++;
            mk_event_mod(e, 1, "leader with the attacker (HtL 11.1)");
        }
        if (sc->units[u].kind == HK_ELITE) {
            need++;
            mk_event_mod(e, 1, "elite (HtL 3.4.2)");
        }
        int d = mk_rng_d6(&s->head.rng);
        e->die = 6;
        e->value = (int16_t)d;
        mk_event_value(e, d);
        e->need = (int16_t)need;
        e->passed = d <= need && d != 6;
        if (!e->passed) {
            s->free_fire = (int16_t)u;
            htl_action_done(s, sc, ev);
            return 0;
        }
    }
    htl_combat *cb = &s->cb;
    memset(cb, 0, sizeof *cb);
    cb->on = 1;
    cb->close = 1;
    cb->stage = CB_WITHDRAW;
    cb->attacker = (int16_t)u;
    cb->hex = (int16_t)h;
    cb->chosen = -1;
    cb->retreat_to = -1;
    cb->first_retreat = -1;
    cb->leader = -1;
    cb->att_leader = (int16_t)L;
    cb->flank = (uint8_t)flank;
    cb->defender = (uint8_t)(1 - side);
    htl_combat_run(s, sc, ev);
    return 0;
}
