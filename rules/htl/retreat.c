/* retreat.c - Hold the Line close combat retreats (HtL 8.5): where a unit
 * that failed its morale check may go, displacement of one friendly unit
 * (8.5.3), and elimination when blocked (8.5.2). */
#include "htl_int.h"

/* HtL 8.5.1, AMB-HTL-17 (strict): the hex must be nearer the side's home
 * edge than the hex left. A side without a home edge retreats away from
 * the attacker instead. */
static bool towards_home(const mk_scenario *sc, int side, int from, int to, int ah)
{
    const mk_grid *g = &sc->map.grid;
    int home = sc->sides[side].home;
    if (home == MK_EDGE_NONE)
        return mk_hex_distance(g, (mk_hex)to, (mk_hex)ah) >
               mk_hex_distance(g, (mk_hex)from, (mk_hex)ah);
    return mk_hex_edge_distance(g, (mk_hex)to, home) < mk_hex_edge_distance(g, (mk_hex)from, home);
}

/* The hexes `unit` at `from` may retreat into, away from the attacker at ah.
 * Rank (lower is better, only the best rank is returned):
 *   0 not adjacent to the attacker, free       1 same, displacing a friend
 *   2 adjacent to the attacker, free           3 same, displacing a friend
 * (HtL 8.5.1: not closer to nor adjacent to the attacker if possible;
 * 8.5.3: one friendly unit may be displaced, if it can itself retreat into
 * a free hex; 8.5.2: impassable terrain, the board edge and enemy units
 * block). free_only: no displacement (for the displaced unit itself). */
static int candidates(const htl_state *s, const mk_scenario *sc, const htl_occ *o, int unit,
                      int from, int ah, bool free_only, int16_t *out)
{
    const mk_grid *g = &sc->map.grid;
    int side = sc->units[unit].side, slot = htl_slot(sc->units[unit].kind);
    int best = 99, n = 0;
    mk_hex nb[6];
    mk_hex_neighbors(g, (mk_hex)from, nb);
    int dfrom = mk_hex_distance(g, (mk_hex)from, (mk_hex)ah);
    for (int d = 0; d < 6; d++) {
        int h = nb[d];
        if (h == MK_NO_HEX || htl_terrain(sc, h)->impassable)
            continue;
        if ((o->h[h].foot >= 0 && sc->units[o->h[h].foot].side != side) ||
            (o->h[h].art >= 0 && sc->units[o->h[h].art].side != side))
            continue; /* enemy units block (HtL 8.5.2) */
        if (!towards_home(sc, side, from, h, ah))
            continue;
        int dh = mk_hex_distance(g, (mk_hex)h, (mk_hex)ah);
        if (dh < dfrom)
            continue; /* never closer to the attacker (HtL 8.5.1) */
        int mine = slot == HS_ART ? o->h[h].art : o->h[h].foot;
        int disp = 0;
        if (mine >= 0 && mine != unit) {
            int16_t tmp[6];
            if (free_only || candidates(s, sc, o, mine, h, ah, true, tmp) == 0)
                continue;
            disp = 1;
        }
        int rank = (dh <= 1 ? 2 : 0) + disp;
        if (rank < best) {
            best = rank;
            n = 0;
        }
        if (rank == best)
            out[n++] = (int16_t)h;
    }
    return n;
}

static int attacker_hex(const htl_state *s)
{
    return s->u[s->cb.attacker].hex;
}

/* Where `unit` may retreat now (the best rank of candidates); 0: nowhere. */
int htl_retreat_options(const htl_state *s, const mk_scenario *sc, int unit, int16_t *out)
{
    htl_occ o;
    htl_occ_build(&o, s, sc);
    return candidates(s, sc, &o, unit, s->u[unit].hex, attacker_hex(s), false, out);
}

/* Where a displaced `blocker` may go: free hexes only (HtL 8.5.3). */
int htl_displace_options(const htl_state *s, const mk_scenario *sc, int blocker, int16_t *out)
{
    htl_occ o;
    htl_occ_build(&o, s, sc);
    return candidates(s, sc, &o, blocker, s->u[blocker].hex, attacker_hex(s), true, out);
}

/* The friendly unit in hex that `unit` would have to displace, or -1. */
int htl_blocker(const htl_state *s, const mk_scenario *sc, int unit, int hex)
{
    int slot = htl_slot(sc->units[unit].kind);
    for (int i = 0; i < s->nunits; i++)
        if (i != unit && s->u[i].hex == hex && htl_slot(sc->units[i].kind) == slot &&
            sc->units[i].side == sc->units[unit].side)
            return i;
    return -1;
}

static void move_unit(htl_state *s, const mk_scenario *sc, int unit, int to, const char *text,
                      const char *rule, mk_events *ev)
{
    int from = s->u[unit].hex;
    htl_enter_hex(s, sc, unit, to, ev);
    s->u[unit].hex = (int16_t)to;
    mk_event *e = mk_events_add(ev, "retreat");
    e->rule = rule;
    e->text = text;
    e->unit = (int16_t)unit;
    e->from = (int16_t)from;
    e->to = (int16_t)to;
}

/* Retreats each unit that failed its morale check and survived the hits,
 * in order. Returns 1 when waiting for the owner's choice of hex. */
int htl_retreat_step(htl_state *s, const mk_scenario *sc, mk_events *ev)
{
    htl_combat *cb = &s->cb;
    while (cb->fi < cb->nfailed) {
        int u = cb->failed[cb->fi];
        if (s->u[u].hex != cb->hex) { /* eliminated by the hits */
            cb->fi++;
            continue;
        }
        int16_t opts[6];
        if (cb->retreat_to < 0) {
            int n = htl_retreat_options(s, sc, u, opts);
            if (n == 0) {
                htl_eliminate(s, sc, u, "HtL 8.5.2", ev); /* AMB-HTL-19: scores */
                cb->vacated = 1;
                cb->fi++;
                continue;
            }
            if (n == 1) {
                cb->retreat_to = opts[0];
            } else if (cb->chosen >= 0) {
                cb->retreat_to = cb->chosen;
                cb->chosen = -1;
            } else {
                cb->pending = HP_RETREAT;
                cb->decider = (int8_t)sc->units[u].side;
                return 1;
            }
        }
        int b = htl_blocker(s, sc, u, cb->retreat_to);
        if (b >= 0) {
            int n = htl_displace_options(s, sc, b, opts), to;
            if (n == 1) {
                to = opts[0];
            } else if (cb->chosen >= 0) {
                to = cb->chosen;
                cb->chosen = -1;
            } else if (n == 0) { /* cannot happen: candidates checked it */
                htl_eliminate(s, sc, u, "HtL 8.5.3", ev);
                cb->vacated = 1;
                cb->retreat_to = -1;
                cb->fi++;
                continue;
            } else {
                cb->pending = HP_DISPLACE;
                cb->decider = (int8_t)sc->units[u].side;
                return 1;
            }
            move_unit(s, sc, b, to, "displaced", "HtL 8.5.3", ev);
        }
        move_unit(s, sc, u, cb->retreat_to, NULL, "HtL 8.5.1", ev);
        if (cb->first_retreat < 0)
            cb->first_retreat = cb->retreat_to;
        cb->vacated = 1;
        cb->retreat_to = -1;
        cb->fi++;
    }
    return 0;
}
