/* close_combat.c - Hold the Line infantry close combat (HtL 8.4): the
 * defenders' morale checks, the attack, and the combat driver that runs a
 * fire or close combat to its end, stopping at each decision. */
#include <string.h>

#include "htl_int.h"

/* Appends every legal close combat of the active side: an infantry-type
 * unit that has not acted, adjacent to a hex with an enemy combat unit,
 * 2 AP (HtL 6.2.2, 8.4.1). */
int htl_legal_close(const htl_state *s, const mk_scenario *sc, mk_action *out, int n, int cap)
{
    if (s->ap < 2)
        return n;
    const mk_grid *g = &sc->map.grid;
    for (int u = 0; u < s->nunits && n < cap; u++) {
        if (sc->units[u].side != s->active || s->u[u].hex < 0 ||
            !htl_is_infantry(sc->units[u].kind) || (s->u[u].flags & HU_ACTED))
            continue;
        mk_hex nb[6];
        mk_hex_neighbors(g, (mk_hex)s->u[u].hex, nb);
        for (int d = 0; d < 6 && n < cap; d++) {
            if (nb[d] == MK_NO_HEX || !htl_enemy_combat_in(s, sc, nb[d], s->active))
                continue;
            mk_action *a = &out[n++];
            memset(a, 0, sizeof *a);
            a->type = HA_CLOSE;
            a->unit = (int16_t)u;
            a->other = -1;
            a->target = nb[d];
            a->cost = 2;
        }
    }
    return n;
}

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
    }
    cb->chosen = -1;
    return 0;
}

/* Runs the combat in s->cb until it needs a decision (then to_move is the
 * deciding side) or ends (then the action is done, HtL 6.2.7). */
void htl_combat_run(htl_state *s, const mk_scenario *sc, mk_events *ev)
{
    htl_combat *cb = &s->cb;
    for (;;) {
        switch (cb->stage) {
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
            cb->stage = cb->close ? CB_ADVANCE : CB_DONE;
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

/* Checks and applies a close combat (HtL 8.4): each defending combat unit
 * checks morale first (infantry before artillery, 8.5.4), then the
 * attacker rolls 3 dice hitting on 4-6 shifted by terrain (8.4.3), a leader
 * checks once per natural 1 (9.3.1), hits are applied, failed survivors
 * retreat (8.5), and the attacker may advance (8.4.4). */
int htl_apply_close(htl_state *s, const mk_scenario *sc, const mk_action *a, mk_events *ev,
                    mk_error *err)
{
    const mk_grid *g = &sc->map.grid;
    int u = a->unit, h = a->target, side = sc->units[u].side;
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
    if (s->ap < 2)
        return mk_error_set(err, "illegal_action", "HtL 8.4.1: close combat costs 2 AP, %d left",
                            s->ap);
    if (h < 0 || h >= mk_grid_size(g) || !mk_hex_adjacent(g, (mk_hex)s->u[u].hex, (mk_hex)h) ||
        !htl_enemy_combat_in(s, sc, h, side))
        return mk_error_set(err, "illegal_action",
                            "HtL 8.4.1: close combat needs an adjacent enemy unit");

    s->ap = (int8_t)(s->ap - 2);
    s->dragoon_fire = -1;
    s->u[u].flags |= HU_ACTED | HU_CLOSE;
    int def = 1 - side;
    htl_combat *cb = &s->cb;
    memset(cb, 0, sizeof *cb);
    cb->on = 1;
    cb->close = 1;
    cb->stage = CB_HITS;
    cb->attacker = (int16_t)u;
    cb->hex = (int16_t)h;
    cb->chosen = -1;
    cb->retreat_to = -1;
    cb->first_retreat = -1;
    cb->defender = (uint8_t)def;

    /* HtL 8.4.2 morale, infantry first (8.5.4) */
    int units[4];
    int n = htl_combat_units_in(s, sc, h, def, units);
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

    int ones, hits = htl_roll_attack(s, sc, u, h, htl_hit_number(sc->units[u].kind, 0),
                                     "close_combat", "HtL 8.4.3", ev, &ones);
    int ld = htl_leader_in(s, sc, h, def);
    /* HtL 9.3.1: close combat: one check per natural 1 */
    if (ld >= 0 && ones > 0)
        htl_leader_casualty(s, sc, ld, ones, ev);
    cb->leader = (int16_t)(ld >= 0 && s->u[ld].hex == h ? ld : -1);
    cb->hits_left = (int8_t)hits;
    htl_combat_run(s, sc, ev);
    return 0;
}
