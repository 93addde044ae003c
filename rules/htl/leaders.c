/* leaders.c - Hold the Line leaders (HtL 9.2-9.4, 8.4.2, 8.5.5): casualty
 * checks, following retreating units, escaping when left alone, rally. */
#include <string.h>

#include "htl_int.h"

/* HtL 9.3.1: the leader rolls `checks` dice (fire: 1, AMB-HTL-4; close
 * combat: one per natural 1); any 1 eliminates him, which costs his side
 * 1 command AP for the rest of the game (9.3.2, in htl_eliminate). */
void htl_leader_casualty(htl_state *s, const mk_scenario *sc, int leader, int checks,
                         mk_events *ev)
{
    mk_event *e = mk_events_add(ev, "roll");
    e->purpose = "leader_casualty";
    e->rule = "HtL 9.3.1";
    e->unit = (int16_t)leader;
    e->die = 6;
    e->need = 1;
    bool hit = false;
    for (int i = 0; i < checks; i++) {
        int d = mk_rng_d6(&s->head.rng);
        mk_event_value(e, d);
        if (d == 1)
            hit = true;
    }
    e->hits = hit;
    mk_event *c = mk_events_add(ev, "leader_casualty");
    c->rule = "HtL 9.3.1";
    c->unit = (int16_t)leader;
    c->passed = !hit;
    if (hit && HTL_OPT(s, 6) && s->u[leader].mp > 1) {
        /* 11.6: a leader rated 2 for hits is flipped by the first */
        s->u[leader].mp--;
        c->text = "flipped (HtL 11.6)";
        c->mp = s->u[leader].mp;
        return;
    }
    c->text = hit ? "eliminated" : "unhurt";
    if (hit)
        htl_eliminate(s, sc, leader, "HtL 9.3.1", ev);
}

/* Where a leader left alone may escape (HtL 8.5.5, AMB-HTL-18): 1 to 3
 * hexes by leader movement (9.1: through friendly units, never into enemy
 * units or impassable terrain, stopping on stop terrain). */
int htl_escape_options(const htl_state *s, const mk_scenario *sc, int leader, int16_t *out)
{
    htl_occ o;
    htl_occ_build(&o, s, sc);
    htl_reach r;
    htl_reach_find(s, sc, &o, leader, -1, 3, &r);
    int n = 0;
    for (int i = 1; i < r.n; i++)
        if (r.can_end[i])
            out[n++] = r.hex[i];
    return n;
}

static void move_leader(htl_state *s, int leader, int to, const char *text, const char *rule,
                        mk_events *ev)
{
    mk_event *e = mk_events_add(ev, "retreat");
    e->rule = rule;
    e->text = text;
    e->unit = (int16_t)leader;
    e->from = s->u[leader].hex;
    e->to = (int16_t)to;
    s->u[leader].hex = (int16_t)to;
}

/* After the hits and retreats: a defending leader left without combat
 * units goes with the units that retreated (HtL 8.4.2), else escapes
 * (8.5.5), else is eliminated. Returns 1 when waiting for the choice. */
int htl_leader_step(htl_state *s, const mk_scenario *sc, mk_events *ev)
{
    htl_combat *cb = &s->cb;
    int L = cb->leader;
    if (L < 0 || s->u[L].hex != cb->hex)
        return 0;
    int units[4];
    if (htl_combat_units_in(s, sc, cb->hex, cb->defender, units) > 0)
        return 0; /* still stacked with a unit */
    if (cb->chosen >= 0) {
        move_leader(s, L, cb->chosen, "escapes", "HtL 8.5.5", ev);
        cb->chosen = -1;
        return 0;
    }
    if (cb->first_retreat >= 0 && htl_leader_in(s, sc, cb->first_retreat, cb->defender) < 0) {
        move_leader(s, L, cb->first_retreat, "with its units", "HtL 8.4.2", ev);
        return 0;
    }
    int16_t opts[HTL_MAX_REACH];
    int n = htl_escape_options(s, sc, L, opts);
    if (n == 0) {
        htl_eliminate(s, sc, L, "HtL 8.5.5", ev);
        return 0;
    }
    if (n == 1) {
        move_leader(s, L, opts[0], "escapes", "HtL 8.5.5", ev);
        return 0;
    }
    cb->pending = HP_ESCAPE;
    cb->decider = (int8_t)cb->defender;
    return 1;
}

/* HtL 9.4: a leader rallies the damaged infantry or dragoon unit in his hex
 * (never artillery) for 1 AP, 1 MP, never above its starting MP; both began
 * the turn there and have not acted (they may not move or fire this turn). */
static const char *rally_refusal(const htl_state *s, const mk_scenario *sc, int L, int u)
{
    if (L < 0 || L >= s->nunits || sc->units[L].kind != HK_LEADER)
        return "HtL 9.4: only a leader rallies";
    if (u < 0 || u >= s->nunits || sc->units[u].side != sc->units[L].side ||
        sc->units[L].side != s->active)
        return "HtL 9.4: a leader rallies his own side's units";
    int k = sc->units[u].kind;
    if (k == HK_ARTILLERY || !htl_is_combat(k))
        return "HtL 9.4: artillery cannot be rallied";
    if (s->u[L].hex < 0 || s->u[u].hex != s->u[L].hex)
        return "HtL 9.4: the unit must be in the leader's hex";
    if (s->u[L].start != s->u[L].hex || s->u[u].start != s->u[u].hex)
        return "HtL 9.4: unit and leader must begin the turn in that hex";
    if (s->u[L].flags & HU_ACTED)
        return "HtL 9.4, 6.1.4: the leader has already acted this turn";
    if (s->u[u].flags & HU_ACTED)
        return "HtL 9.4: a rallied unit may not move or fire this turn (it has acted)";
    if (HTL_OPT(s, 2) && (s->fired_on[u / 8] >> (u % 8) & 1))
        return "HtL 11.2: a unit fired on this turn cannot be rallied";
    if (s->u[u].mp >= sc->units[u].mp_start)
        return "HtL 9.4: rallied units never exceed their starting MP";
    if (s->ap < 1)
        return "HtL 9.4: rally costs 1 AP";
    return NULL;
}

/* Appends every legal rally (o: the occupancy of s). Only an infantry-type
 * or dragoon unit can be rallied, and that is the hex's foot occupant. */
int htl_legal_rally(const htl_state *s, const mk_scenario *sc, const htl_occ *o, mk_action *out,
                    int n, int cap)
{
    if (s->ap < 1)
        return n;
    for (int L = 0; L < s->nunits && n < cap; L++) {
        if (sc->units[L].kind != HK_LEADER || sc->units[L].side != s->active ||
            s->u[L].hex < 0)
            continue;
        int u = o->h[s->u[L].hex].foot;
        if (u < 0 || rally_refusal(s, sc, L, u))
            continue;
        mk_action *a = &out[n++];
        memset(a, 0, sizeof *a);
        a->type = HA_RALLY;
        a->unit = (int16_t)u;
        a->other = (int16_t)L;
        a->target = -1;
        a->cost = 1;
    }
    return n;
}

int htl_apply_rally(htl_state *s, const mk_scenario *sc, const mk_action *a, mk_events *ev,
                    mk_error *err)
{
    const char *why = rally_refusal(s, sc, a->other, a->unit);
    if (why)
        return mk_error_set(err, "illegal_action", "%s", why);
    s->ap--;
    s->dragoon_fire = -1;
    s->free_fire = -1;
    s->u[a->unit].mp++;
    s->u[a->unit].flags |= HU_ACTED | HU_RALLIED;
    s->u[a->other].flags |= HU_ACTED | HU_RALLIED;
    mk_event *e = mk_events_add(ev, "rally");
    e->rule = "HtL 9.4";
    e->unit = a->unit;
    e->other = a->other;
    e->mp = s->u[a->unit].mp;
    e->points = 1;
    htl_action_done(s, sc, ev);
    return 0;
}
