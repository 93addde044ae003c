/* fire.c - Hold the Line fire combat (HtL 8.2, 8.3): line of sight, hit
 * numbers, the attack roll, and allocating hits (HtL 8.2.2, 3.4.2). */
#include <string.h>

#include "core/los.h"
#include "htl_int.h"

typedef struct los_ctx {
    const htl_state *s;
    const mk_scenario *sc;
    const htl_occ *o;   /* the occupancy of s, or NULL: scan the units */
} los_ctx;

/* HtL 8.3: forest, hills, town, entrenchment and units (friendly or enemy)
 * block. AMB-HTL-12: a lone leader does not block (leaders do not block
 * movement either, 7.2.1); VP counters are markers and do not block. */
static bool blocks(mk_hex h, const void *ctx)
{
    const los_ctx *c = ctx;
    if (htl_terrain(c->sc, h)->blocks_los)
        return true;
    if (c->o) /* combat units are the foot and artillery classes */
        return c->o->h[h].foot >= 0 || c->o->h[h].art >= 0;
    for (int i = 0; i < c->s->nunits; i++)
        if (c->s->u[i].hex == h && htl_is_combat(c->sc->units[i].kind))
            return true;
    return false;
}

/* Is the line of sight from `from` to `to` clear (HtL 8.3)? Adjacent hexes
 * always see each other. */
bool htl_los(const htl_state *s, const mk_scenario *sc, int from, int to)
{
    const mk_grid *g = &sc->map.grid;
    if (mk_hex_distance(g, (mk_hex)from, (mk_hex)to) <= 1)
        return true;
    los_ctx c = {s, sc, NULL};
    return mk_los_clear(g, (mk_hex)from, (mk_hex)to, blocks, &c, NULL);
}

/* The same, with the units read from the occupancy o. At range 2 (most
 * fire) the line is worked out here, as core/los.c would: straight along a
 * direction it crosses the middle hex, which blocks alone; between two
 * directions it runs along the spine between the two hexes next to both
 * ends, blocked only if both block (an off-map one does not).
 * tests/test_ai.c checks it against mk_los_clear on every pair. */
bool htl_los_occ(const mk_scenario *sc, const htl_occ *o, int from, int to)
{
    const mk_grid *g = &sc->map.grid;
    mk_cube a = mk_hex_cube(g, (mk_hex)from), b = mk_hex_cube(g, (mk_hex)to);
    int d[3] = {b.q - a.q, b.r - a.r, b.s - a.s};
    int dist = ((d[0] < 0 ? -d[0] : d[0]) + (d[1] < 0 ? -d[1] : d[1]) +
                (d[2] < 0 ? -d[2] : d[2])) / 2;
    if (dist <= 1)
        return true;
    los_ctx c = {NULL, sc, o};
    if (dist == 2) {
        int i = d[0] == 2 || d[0] == -2 ? 0 : d[1] == 2 || d[1] == -2 ? 1 : 2;
        int j = (i + 1) % 3, k = (i + 2) % 3;
        if (d[j] == 0 || d[k] == 0) {   /* straight: the middle hex */
            mk_cube m = {a.q + d[0] / 2, a.r + d[1] / 2, a.s + d[2] / 2};
            mk_hex mh = mk_hex_from_cube(g, m);
            return mh == MK_NO_HEX || !blocks(mh, &c);
        }
        int sgn = d[i] / 2, u[3], v[3];
        u[i] = v[i] = sgn;
        u[j] = -sgn, u[k] = 0;
        v[j] = 0, v[k] = -sgn;
        mk_hex h1 = mk_hex_from_cube(g, (mk_cube){a.q + u[0], a.r + u[1], a.s + u[2]});
        mk_hex h2 = mk_hex_from_cube(g, (mk_cube){a.q + v[0], a.r + v[1], a.s + v[2]});
        return h1 == MK_NO_HEX || h2 == MK_NO_HEX || !blocks(h1, &c) || !blocks(h2, &c);
    }
    return mk_los_clear(g, (mk_hex)from, (mk_hex)to, blocks, &c, NULL);
}

/* The hit number (before terrain) for `unit` firing at hex target, and the
 * range in *range; 0 if out of range or the unit cannot fire (HtL 8.2.1,
 * 8.2.3). */
int htl_fire_need(const htl_state *s, const mk_scenario *sc, int unit, int target, int *range)
{
    int kind = sc->units[unit].kind;
    int r = mk_hex_distance(&sc->map.grid, (mk_hex)s->u[unit].hex, (mk_hex)target);
    int max = htl_fire_range(kind);
    *range = r;
    /* 11.15: range -1 for all units, but adjacent units may always fire (8.3, AMB-HTL-15) */
    if (HTL_OPT(s, 15) && max > 1)
        max--;
    /* 11.4: artillery on a hill: +1 range, hitting on 6 at the extra hex */
    if (HTL_OPT(s, 4) && kind == HK_ARTILLERY && sc->map.terrain[s->u[unit].hex] == HT_HILL &&
        r == max + 1)
        return 6;
    if (r < 1 || r > max)
        return 0;
    return htl_hit_number(kind, r);
}

static bool may_fire(const htl_state *s, const mk_scenario *sc, int u)
{
    if (!htl_is_combat(sc->units[u].kind) || s->u[u].hex < 0 || sc->units[u].side != s->active)
        return false;
    if (!(s->u[u].flags & HU_ACTED))
        return true;
    /* HtL 6.2.3: a dragoon fires after its move; 11.1: a unit that failed
     * its attack morale may fire instead */
    return s->dragoon_fire == u || s->free_fire == u;
}

/* Appends every legal fire action of the active side (o: the occupancy of
 * s). Targets are the hexes of enemy combat units, in the order of the
 * units' indices. */
int htl_legal_fire(const htl_state *s, const mk_scenario *sc, const htl_occ *o, mk_action *out,
                   int n, int cap)
{
    if (s->ap < 1 && s->free_fire < 0)
        return n;
    const mk_grid *g = &sc->map.grid;
    int16_t targets[HTL_MAX_UNITS];
    mk_cube tc[HTL_MAX_UNITS];
    int nt = 0;
    for (int i = 0; i < s->nunits; i++) {
        int h = s->u[i].hex;
        if (h < 0 || sc->units[i].side == s->active || !htl_is_combat(sc->units[i].kind))
            continue;
        bool dup = false;
        for (int j = 0; j < nt && !dup; j++)
            dup = targets[j] == h;
        if (!dup) {
            tc[nt] = mk_hex_cube(g, (mk_hex)h);
            targets[nt++] = (int16_t)h;
        }
    }
    if (nt == 0)
        return n;
    /* the longest range any unit may have: artillery 3, +1 on a hill (11.4) */
    int reach = 3 + (HTL_OPT(s, 4) ? 1 : 0);
    for (int u = 0; u < s->nunits && n < cap; u++) {
        if (!may_fire(s, sc, u) || (s->ap < 1 && s->free_fire != u))
            continue;
        mk_cube uc = mk_hex_cube(g, (mk_hex)s->u[u].hex);
        for (int t = 0; t < nt && n < cap; t++) {
            int dq = uc.q - tc[t].q, dr = uc.r - tc[t].r, ds = uc.s - tc[t].s;
            int dist = ((dq < 0 ? -dq : dq) + (dr < 0 ? -dr : dr) + (ds < 0 ? -ds : ds)) / 2;
            int range;
            if (dist > reach || !htl_fire_need(s, sc, u, targets[t], &range) ||
                !htl_los_occ(sc, o, s->u[u].hex, targets[t]))
                continue;
            mk_action *a = &out[n++];
            memset(a, 0, sizeof *a);
            a->type = HA_FIRE;
            a->unit = (int16_t)u;
            a->other = -1;
            a->target = targets[t];
            a->cost = s->free_fire == u ? 0 : 1;
        }
    }
    return n;
}

/* Rolls the 3 attack dice (HtL 8.2.3) against hex, adding the defender's
 * terrain modifier to each die (HtL 2.2.1, 8.2.1, 8.4.3); a die hits when
 * its modified value reaches need. No automatic hit on a 6 (AMB-HTL-3).
 * Returns the hits and puts the natural 1s in *ones (HtL 9.3.1, AMB-HTL-4). */
int htl_roll_attack(htl_state *s, const mk_scenario *sc, int attacker, int hex, int need,
                    int extra_dice, int flank, const char *purpose, const char *rule,
                    mk_events *ev, int *ones)
{
    const char *why;
    int mod = htl_attack_mod(s, sc, attacker, hex, strcmp(purpose, "fire") != 0, &why);
    /* 11.3: elite at 3 or 4 MP roll 4 dice */
    int dice = HTL_DICE;
    if (HTL_OPT(s, 3) && sc->units[attacker].kind == HK_ELITE && s->u[attacker].mp >= 3)
        dice = 4;
    mk_event *e = mk_events_add(ev, "roll");
    e->purpose = purpose;
    e->rule = rule;
    e->unit = (int16_t)attacker;
    e->target = (int16_t)hex;
    e->die = 6;
    e->need = (int16_t)need;
    if (mod)
        mk_event_mod(e, (int16_t)mod, why);
    if (dice == 4)
        mk_event_mod(e, 0, "elite rolls 4 dice (HtL 11.3)");
    if (extra_dice) {
        dice += extra_dice;
        mk_event_mod(e, 0, "leader's combat dice (HtL 11.6)");
    }
    if (flank) {
        mod += 1;
        mk_event_mod(e, 1, "flank attack (HtL 11.14)");
    }
    int hits = 0;
    *ones = 0;
    for (int i = 0; i < dice; i++) {
        int d = mk_rng_d6(&s->head.rng);
        mk_event_value(e, d);
        if (d == 1)
            (*ones)++;
        if (d + mod >= need)
            hits++;
    }
    e->hits = (int16_t)hits;
    return hits;
}

/* 11.14 (AMB-HTL-14): the attacker at a hex adjacent to hex gets the flank
 * bonus when a friendly unit directly opposite, across hex, has already
 * attacked hex this turn (the first attacker cannot know; the bonus goes to
 * the attack that completes the pair). */
int htl_flank(const htl_state *s, const mk_scenario *sc, int attacker, int hex)
{
    if (!HTL_OPT(s, 14))
        return 0;
    const mk_grid *g = &sc->map.grid;
    int dir = mk_hex_direction(g, (mk_hex)hex, (mk_hex)s->u[attacker].hex);
    if (dir < 0)
        return 0;
    mk_hex opp = mk_hex_neighbor(g, (mk_hex)hex, (dir + 3) % 6);
    if (opp == MK_NO_HEX)
        return 0;
    for (int i = 0; i < s->nunits; i++)
        if (i != attacker && s->u[i].hex == opp && s->att_hex[i] == hex &&
            sc->units[i].side == sc->units[attacker].side)
            return 1;
    return 0;
}

/* Removes `unit` from the game (HtL 8.2.2 and others): a leader costs its
 * side 1 command AP (HtL 9.3.2); the other side scores 1 VP (HtL 10.A,
 * AMB-HTL-19). */
void htl_eliminate(htl_state *s, const mk_scenario *sc, int unit, const char *rule, mk_events *ev)
{
    int side = sc->units[unit].side;
    mk_event *e = mk_events_add(ev, "eliminated");
    e->rule = rule;
    e->unit = (int16_t)unit;
    e->hex = s->u[unit].hex;
    s->u[unit].hex = -1;
    if (htl_is_combat(sc->units[unit].kind))
        s->u[unit].mp = 0;
    if (sc->units[unit].kind == HK_LEADER)
        s->leaders_lost[side]++;
    htl_award_vp(s, sc, 1 - side, unit, "HtL 10.A", ev);
}

/* The defending units that may take the next hit: those with the highest
 * current MP (HtL 8.2.2, applied one hit at a time, AMB-HTL-5). */
int htl_tie_options(const htl_state *s, const mk_scenario *sc, int16_t *out)
{
    int units[4];
    int n = htl_combat_units_in(s, sc, s->cb.hex, s->cb.defender, units), best = 0, m = 0;
    for (int i = 0; i < n; i++)
        if (s->u[units[i]].mp > best)
            best = s->u[units[i]].mp;
    for (int i = 0; i < n; i++)
        if (s->u[units[i]].mp == best)
            out[m++] = (int16_t)units[i];
    return m;
}

/* Applies the hits left, one at a time, each to the unit with the highest
 * current MP; the owner chooses between tied units (HtL 8.2.2). Hits left
 * when the hex is empty are lost. Returns 1 when waiting for a decision. */
int htl_hits_step(htl_state *s, const mk_scenario *sc, mk_events *ev)
{
    htl_combat *cb = &s->cb;
    while (cb->hits_left > 0) {
        int16_t opts[4];
        int n = htl_tie_options(s, sc, opts), v;
        if (n == 0) {
            cb->hits_left = 0;
            break;
        }
        if (n == 1) {
            v = opts[0];
        } else if (cb->chosen >= 0) {
            v = cb->chosen;
            cb->chosen = -1;
        } else {
            cb->pending = HP_TIE;
            cb->decider = (int8_t)cb->defender;
            return 1;
        }
        cb->hits_left--;
        if (s->u[v].mp > 1) {
            s->u[v].mp--;
            mk_event *e = mk_events_add(ev, "hit");
            e->rule = "HtL 8.2.2";
            e->unit = (int16_t)v;
            e->mp = s->u[v].mp;
        } else if (sc->units[v].kind == HK_ELITE) {
            /* HtL 3.4.2: an elite at 1 MP rolls per hit: 1-3 stays, 4-6 eliminated */
            int d = mk_rng_d6(&s->head.rng);
            mk_event *e = mk_events_add(ev, "roll");
            e->purpose = "elite_absorb";
            e->rule = "HtL 3.4.2";
            e->unit = (int16_t)v;
            e->die = 6;
            mk_event_value(e, d);
            e->need = 4;
            e->hits = d >= 4 ? 1 : 0;
            if (d >= 4) {
                s->u[v].mp = 0;
                htl_eliminate(s, sc, v, "HtL 3.4.2", ev);
                cb->vacated = 1;
            }
        } else {
            s->u[v].mp = 0;
            mk_event *e = mk_events_add(ev, "hit");
            e->rule = "HtL 8.2.2";
            e->unit = (int16_t)v;
            e->mp = 0;
            htl_eliminate(s, sc, v, "HtL 8.2.2", ev);
            cb->vacated = 1;
        }
    }
    return 0;
}

/* Checks and applies a fire action (HtL 8.2). */
int htl_apply_fire(htl_state *s, const mk_scenario *sc, const mk_action *a, mk_events *ev,
                   mk_error *err)
{
    const mk_grid *g = &sc->map.grid;
    int u = a->unit, h = a->target;
    const char *id = sc->units[u].id;
    if (!htl_is_combat(sc->units[u].kind) || s->u[u].hex < 0)
        return mk_error_set(err, "illegal_action", "HtL 8.1: %s cannot fire", id);
    if (!may_fire(s, sc, u))
        return mk_error_set(err, "illegal_action",
                            sc->units[u].kind == HK_DRAGOON && (s->u[u].flags & HU_MOVED)
                                ? "HtL 6.2.3: %s may fire after its move only straight after it"
                                : "HtL 6.1.4: %s has already acted this turn",
                            id);
    int cost = s->free_fire == u ? 0 : 1; /* 11.1, AMB-HTL-8 (a) */
    if (s->ap < cost)
        return mk_error_set(err, "illegal_action", "HtL 8.2.1: fire costs 1 AP, none left");
    if (h < 0 || h >= mk_grid_size(g) || !htl_enemy_combat_in(s, sc, h, sc->units[u].side))
        return mk_error_set(err, "illegal_action", "HtL 8.1: no enemy unit to fire at there");
    int range, need = htl_fire_need(s, sc, u, h, &range);
    if (!need)
        return mk_error_set(err, "illegal_action", "HtL 8.2.3: %s has range %d, target at %d",
                            id, htl_fire_range(sc->units[u].kind), range);
    if (!htl_los(s, sc, s->u[u].hex, h))
        return mk_error_set(err, "illegal_action", "HtL 8.3: no clear line of sight");

    s->ap = (int8_t)(s->ap - cost);
    s->dragoon_fire = -1;
    s->free_fire = -1;
    s->u[u].flags |= HU_ACTED | HU_FIRED;
    for (int i = 0; i < s->nunits; i++) /* 11.2: remember who was fired on */
        if (s->u[i].hex == h && sc->units[i].side != sc->units[u].side)
            s->fired_on[i / 8] |= (uint8_t)(1u << (i % 8));
    int flank = htl_flank(s, sc, u, h);
    s->att_hex[u] = (int16_t)h;
    int ones, hits = htl_roll_attack(s, sc, u, h, need, 0, flank, "fire", "HtL 8.2.1", ev, &ones);
    int def = 1 - sc->units[u].side;
    int ld = htl_leader_in(s, sc, h, def);
    /* HtL 9.3.1, AMB-HTL-4: fire: one check if any natural 1 was rolled */
    if (ld >= 0 && ones > 0)
        htl_leader_casualty(s, sc, ld, 1, ev);
    htl_combat *cb = &s->cb;
    memset(cb, 0, sizeof *cb);
    cb->on = 1;
    cb->close = 0;
    cb->stage = CB_HITS;
    cb->hits_left = (int8_t)hits;
    cb->attacker = (int16_t)u;
    cb->hex = (int16_t)h;
    cb->leader = (int16_t)(ld >= 0 && s->u[ld].hex == h ? ld : -1);
    cb->chosen = -1;
    cb->retreat_to = -1;
    cb->first_retreat = -1;
    cb->defender = (uint8_t)def;
    cb->att_leader = -1;
    htl_combat_run(s, sc, ev);
    return 0;
}
