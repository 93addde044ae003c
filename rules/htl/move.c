/* move.c - Hold the Line movement (HtL 7, 6.2.1-6.2.6, 9.1): reachable
 * hexes, move legality, and what entering a hex does (HtL 7.3: lone enemy
 * leaders are eliminated; HtL 10.B: enemy VP counters are taken). */
#include <stdio.h>
#include <string.h>

#include "htl_int.h"

/* Can `unit` (moving with `leader`, or -1) enter hex h, and may it end
 * there? Encodes HtL 2.3.2 (swamp impassable), 4.3 / 6.2.6 / 7.2 (hex
 * limits while passing and at the end), 7.2.1 (leaders never block), 7.3
 * (a lone enemy leader does not stop or block a combat unit) and 9.1
 * (a leader alone passes friendly units; we let it enter no hex that holds
 * any enemy piece). */
static inline bool can_pass_k(const mk_scenario *sc, const htl_occ *o, int unit, int side,
                              int kind, int leader, int h, bool *can_end)
{
    const htl_occ_hex *x = &o->h[h];
    *can_end = false;
    if (htl_terrain(sc, h)->impassable)
        return false;
    int enemy = 1 - side;
    if (kind == HK_LEADER) {
        /* HtL 9.1: through friendly units; never into an enemy piece */
        if (o->side[h] & HO_PIECE(enemy))
            return false;
        *can_end = x->leader < 0 || x->leader == unit; /* HtL 4.3: never two leaders */
        return true;
    }
    if (o->side[h] & HO_COMBAT(enemy))
        return false; /* never into an enemy combat unit */
    int mine = htl_slot(kind) == HS_ART ? x->art : x->foot;
    if (mine >= 0 && mine != unit)
        return false; /* HtL 4.3, 6.2.6, 7.2: not even passing through */
    *can_end = true;
    int ld = x->leader;
    if (leader >= 0 && ld >= 0 && ld != leader && sc->units[ld].side == side)
        *can_end = false; /* the accompanying leader may not end with another (HtL 4.3) */
    return true;
}

static bool can_pass(const mk_scenario *sc, const htl_occ *o, int unit, int leader, int h,
                     bool *can_end)
{
    return can_pass_k(sc, o, unit, sc->units[unit].side, sc->units[unit].kind, leader, h,
                      can_end);
}

/* Breadth-first search of the hexes `unit` (with `leader`, or -1) can reach
 * in at most maxlen steps, stopping on stop terrain (HtL 2.2.1, 2.3.3-2.3.9).
 * r->hex[0] is the start; every other node records its parent (a shortest
 * legal path) and whether the move may end there. Neighbours are taken in
 * direction order, so the path to each hex is the same from call to call. */
static void reach_bfs(const htl_state *s, const mk_scenario *sc, const htl_occ *o, int unit,
                      int leader, int maxlen, htl_reach *r, int ld2)
{
    const mk_grid *g = &sc->map.grid;
    uint8_t seen[HTL_MAX_HEX];
    int size = mk_grid_size(g);
    memset(seen, 0, (size_t)(size < HTL_MAX_HEX ? size : HTL_MAX_HEX));
    r->n = 1;
    r->hex[0] = s->u[unit].hex;
    r->parent[0] = -1;
    r->depth[0] = 0;
    r->can_end[0] = r->can_end_ld[0] = 0;
    seen[r->hex[0]] = 1;
    int side = sc->units[unit].side, kind = sc->units[unit].kind;
    for (int i = 0; i < r->n; i++) {
        if (r->depth[i] >= maxlen)
            continue;
        if (i > 0 && htl_stops(s, sc, r->hex[i]))
            continue;
        int16_t nb[6];
        htl_neighbors(g, r->hex[i], nb);
        for (int d = 0; d < 6; d++) {
            int h = nb[d];
            if (h < 0 || seen[h])
                continue;
            bool end;
            if (!can_pass_k(sc, o, unit, side, kind, leader, h, &end) || r->n >= HTL_MAX_REACH)
                continue;
            seen[h] = 1;
            r->hex[r->n] = (int16_t)h;
            r->parent[r->n] = (int16_t)i;
            r->depth[r->n] = (int8_t)(r->depth[i] + 1);
            r->can_end[r->n] = end;
            if (ld2 >= 0) { /* whether passing is allowed does not depend on the leader */
                bool end2;
                can_pass_k(sc, o, unit, side, kind, ld2, h, &end2);
                r->can_end_ld[r->n] = end2;
            }
            r->n++;
        }
    }
}

void htl_reach_find(const htl_state *s, const mk_scenario *sc, const htl_occ *o, int unit,
                    int leader, int maxlen, htl_reach *r)
{
    reach_bfs(s, sc, o, unit, leader, maxlen, r, -1);
}

/* The leader that may move with `unit` this turn (HtL 6.2.5, 9.1.1: both
 * began the turn in this hex, neither has acted), or -1. */
int htl_leader_with(const htl_state *s, const mk_scenario *sc, int unit)
{
    const htl_unit *u = &s->u[unit];
    if (u->hex < 0 || u->start != u->hex || !htl_is_combat(sc->units[unit].kind))
        return -1;
    for (int i = 0; i < s->nunits; i++)
        if (sc->units[i].kind == HK_LEADER && sc->units[i].side == sc->units[unit].side &&
            s->u[i].hex == u->hex && s->u[i].start == u->hex && !(s->u[i].flags & HU_ACTED))
            return i;
    return -1;
}

/* The leader that may move with `unit` (as htl_leader_with), read from the
 * occupancy: at most one leader stands in a hex (HtL 4.3), and an enemy
 * leader never shares a hex with a combat unit (HtL 7.3). */
static int leader_with_occ(const htl_state *s, const mk_scenario *sc, const htl_occ *o, int unit)
{
    const htl_unit *u = &s->u[unit];
    if (u->hex < 0 || u->start != u->hex || !htl_is_combat(sc->units[unit].kind))
        return -1;
    int i = o->h[u->hex].leader;
    if (i >= 0 && sc->units[i].side == sc->units[unit].side && s->u[i].start == u->hex &&
        !(s->u[i].flags & HU_ACTED))
        return i;
    return -1;
}

static int list_reach(const htl_reach *r, const uint8_t *can_end, int unit, int leader,
                      int minlen, int maxlen, int cost, mk_action *out, int n, int cap)
{
    for (int i = 1; i < r->n && n < cap; i++) {
        int depth = r->depth[i];
        if (!can_end[i] || depth < minlen || depth > maxlen)
            continue;
        mk_action *a = &out[n++];
        memset(a, 0, sizeof *a);
        a->type = HA_MOVE;
        a->unit = (int16_t)unit;
        a->other = (int16_t)leader;
        a->cost = (uint8_t)cost;
        /* the path: the parents back to the start, written from the end */
        int np = depth < MK_PATH_MAX ? depth : MK_PATH_MAX, k = np;
        for (int j = i; j > 0 && k > 0; j = r->parent[j])
            a->path[--k] = r->hex[j];
        a->npath = (uint8_t)np;
        a->target = a->path[np - 1];
    }
    return n;
}

/* Appends every legal move of the active side to out[n..cap): one action
 * per reachable end hex (a shortest legal path), alone and, where a leader
 * may go along, with the leader at 1 AP or with the bonus hex at 2 AP
 * (HtL 6.2.4, 9.1.2). o: the occupancy of s. Returns the new count. */
int htl_legal_moves(const htl_state *s, const mk_scenario *sc, const htl_occ *o, mk_action *out,
                    int n, int cap)
{
    if (s->ap < 1)
        return n;
    htl_reach r;
    int active = s->active;
    for (int u = 0; u < s->nunits && n < cap; u++) {
        int kind = sc->units[u].kind, rate = htl_move_rate(kind);
        if (sc->units[u].side != active || s->u[u].hex < 0 || rate == 0 ||
            (s->u[u].flags & HU_ACTED))
            continue;
        int ld = kind == HK_LEADER ? -1 : leader_with_occ(s, sc, o, u);
        /* HtL 9.1.2: no bonus hex for artillery */
        int bonus = ld >= 0 && kind != HK_ARTILLERY && s->ap >= 2 ? 1 : 0;
        /* one search serves the unit alone and with its leader: the leader
         * changes only where the move may end, and breadth-first order puts
         * the bonus hex's nodes after all the others */
        reach_bfs(s, sc, o, u, -1, rate + bonus, &r, ld);
        n = list_reach(&r, r.can_end, u, -1, 1, rate, 1, out, n, cap);
        if (ld < 0)
            continue;
        n = list_reach(&r, r.can_end_ld, u, ld, 1, rate, 1, out, n, cap);
        if (bonus)
            n = list_reach(&r, r.can_end_ld, u, ld, rate + 1, rate + 1, 2, out, n, cap);
    }
    /* 11.8: infantry types may force march one extra hex for 2 AP */
    if (HTL_OPT(s, 8) && s->ap >= 2)
        for (int u = 0; u < s->nunits && n < cap; u++) {
            int kind = sc->units[u].kind, rate = htl_move_rate(kind), n0 = n;
            if (sc->units[u].side != active || s->u[u].hex < 0 || !htl_is_infantry(kind) ||
                (s->u[u].flags & HU_ACTED))
                continue;
            htl_reach_find(s, sc, o, u, -1, rate + 1, &r);
            n = list_reach(&r, r.can_end, u, -1, rate + 1, rate + 1, 2, out, n, cap);
            for (int i = n0; i < n; i++)
                out[i].type = HA_FORCE;
        }
    return n;
}

/* Entering hex h (moving, retreating, advancing): a combat unit eliminates
 * a lone enemy leader there (HtL 7.3) and takes an enemy VP counter
 * (HtL 3.4.8, 10.B; "taking" = an enemy combat unit entering its hex). */
void htl_enter_hex(htl_state *s, const mk_scenario *sc, int unit, int h, mk_events *ev)
{
    int side = sc->units[unit].side;
    if (!htl_is_combat(sc->units[unit].kind))
        return;
    for (int i = 0; i < s->nunits; i++) {
        if (s->u[i].hex != h || sc->units[i].side == side)
            continue;
        if (sc->units[i].kind == HK_LEADER) {
            htl_eliminate(s, sc, i, "HtL 7.3", ev);
        } else if (sc->units[i].kind == HK_VP) {
            s->u[i].hex = -1;
            mk_event *e = mk_events_add(ev, "vp_taken");
            e->rule = "HtL 3.4.8";
            e->unit = (int16_t)i;
            e->other = (int16_t)unit;
            e->hex = (int16_t)h;
            htl_award_vp(s, sc, side, i, "HtL 10.B", ev);
        }
    }
}

/* Checks and applies a move (HtL 6.2.1, 7, 9.1). */
int htl_apply_move(htl_state *s, const mk_scenario *sc, const mk_action *a, mk_events *ev,
                   mk_error *err)
{
    const mk_grid *g = &sc->map.grid;
    int u = a->unit;
    const char *id = sc->units[u].id;
    int kind = sc->units[u].kind, rate = htl_move_rate(kind);
    if (rate == 0)
        return mk_error_set(err, "illegal_action", "HtL 3.4.8: %s cannot move", id);
    if (s->u[u].flags & HU_ACTED)
        return mk_error_set(err, "illegal_action",
                            "HtL 6.1.4, 7.1.1: %s has already acted this turn", id);
    if (a->npath < 1 || a->npath > MK_PATH_MAX)
        return mk_error_set(err, "illegal_action", "HtL 7.1: a move enters 1 to %d hexes",
                            MK_PATH_MAX);
    int ld = a->other;
    if (ld >= 0) {
        if (ld >= s->nunits || kind == HK_LEADER || htl_leader_with(s, sc, u) != ld)
            return mk_error_set(err, "illegal_action",
                                "HtL 6.2.5, 9.1.1: that leader did not begin the turn with %s "
                                "or has already acted", id);
    }
    bool force = a->type == HA_FORCE;
    if (force && (!HTL_OPT(s, 8) || !htl_is_infantry(kind) || ld >= 0))
        return mk_error_set(err, "illegal_action",
                            !HTL_OPT(s, 8) ? "HtL 11.8: force march is an optional rule not in use"
                            : ld >= 0      ? "HtL 11.9: no force march with the leader bonus"
                                           : "HtL 11.8: only infantry-type units force march");
    int max = rate;
    if ((ld >= 0 && kind != HK_ARTILLERY) || force)
        max = rate + 1;
    if (force && a->npath != rate + 1)
        return mk_error_set(err, "illegal_action",
                            "HtL 11.8: a force march moves exactly %d hexes", rate + 1);
    if (a->npath > max)
        return mk_error_set(err, "illegal_action",
                            kind == HK_ARTILLERY && ld >= 0
                                ? "HtL 9.1.2: artillery may not use the leader bonus (%s moves %d)"
                                : "HtL 7.1: %s moves at most %d hexes",
                            id, max);
    int cost = a->npath > rate || a->type == HA_FORCE ? 2 : 1;
    if (s->ap < cost)
        return mk_error_set(err, "illegal_action", "HtL 6.2.7: %d AP needed, %d left", cost,
                            s->ap);
    htl_occ o;
    htl_occ_build(&o, s, sc);
    int prev = s->u[u].hex;
    for (int i = 0; i < a->npath; i++) {
        int h = a->path[i];
        char lb[MK_HEX_LABEL_MAX];
        bool end;
        /* labels are written only on the way to an error: legal moves
         * format nothing (the AI applies millions of them) */
        if (h < 0 || h >= mk_grid_size(g) || !mk_hex_adjacent(g, (mk_hex)prev, (mk_hex)h)) {
            char pb[MK_HEX_LABEL_MAX], hb[MK_HEX_LABEL_MAX];
            mk_hex_label(g, (mk_hex)prev, pb);
            if (h >= 0 && h < mk_grid_size(g))
                mk_hex_label(g, (mk_hex)h, hb);
            else
                snprintf(hb, sizeof hb, "?");
            return mk_error_set(err, "illegal_action",
                                "HtL 7.1: a move goes from hex to adjacent hex (%s to %s is not)",
                                pb, hb);
        }
        if (!can_pass(sc, &o, u, ld, h, &end)) {
            mk_hex_label(g, (mk_hex)h, lb);
            return mk_error_set(err, "illegal_action",
                                htl_terrain(sc, h)->impassable
                                    ? "HtL 2.3.2: %s is impassable"
                                    : "HtL 4.3, 6.2.6, 7.2: %s cannot enter %s (hex limits or enemy units)",
                                htl_terrain(sc, h)->impassable ? lb : id, lb);
        }
        if (i + 1 < a->npath && htl_stops(s, sc, h)) {
            mk_hex_label(g, (mk_hex)h, lb);
            return mk_error_set(err, "illegal_action",
                                "HtL 2.2.1: %s must stop on entering %s (%s)", id, lb,
                                htl_terrain_names[sc->map.terrain[h]]);
        }
        if (i + 1 == a->npath && !end) {
            mk_hex_label(g, (mk_hex)h, lb);
            return mk_error_set(err, "illegal_action",
                                "HtL 4.3: leaders may not end in the same hex as another leader (%s)",
                                lb);
        }
        if (h == s->u[u].hex)
            return mk_error_set(err, "illegal_action", "HtL 7.1: a move must leave its hex");
        prev = h;
    }

    /* apply */
    int from = s->u[u].hex;
    s->ap = (int8_t)(s->ap - cost);
    int len = a->npath;
    bool fatigue = false;
    if (force) {
        /* 11.8: a die at most the unit's MP (+1 elite, 3.4.2) moves the
         * extra hex; else the AP are spent and the unit moves its normal
         * rate along the path, if it may end there (else it stays) */
        mk_event *e = mk_events_add(ev, "morale");
        e->rule = "HtL 11.8";
        e->purpose = "force_march";
        e->unit = (int16_t)u;
        int need = s->u[u].mp + (kind == HK_ELITE ? 1 : 0);
        mk_event_mod(e, (int16_t)s->u[u].mp, "current MP (HtL 11.8)");
        if (kind == HK_ELITE)
            mk_event_mod(e, 1, "elite (HtL 3.4.2)");
        int d = mk_rng_d6(&s->head.rng);
        e->die = 6;
        e->value = (int16_t)d;
        mk_event_value(e, d);
        e->need = (int16_t)need;
        e->passed = d <= need;
        if (!e->passed) {
            bool end;
            len = rate;
            if (!can_pass(sc, &o, u, -1, a->path[len - 1], &end) || !end)
                len = 0;
        } else {
            fatigue = HTL_OPT(s, 9);
        }
    }
    if (len == 0) {
        s->u[u].flags |= HU_ACTED | HU_MOVED;
        htl_action_done(s, sc, ev);
        return 0;
    }
    for (int i = 0; i < len; i++)
        htl_enter_hex(s, sc, u, a->path[i], ev);
    int to = a->path[len - 1];
    s->u[u].hex = (int16_t)to;
    s->u[u].flags |= HU_ACTED | HU_MOVED | (cost == 2 ? HU_BONUS : 0);
    if (ld >= 0) {
        s->u[ld].hex = (int16_t)to;
        s->u[ld].flags |= HU_ACTED | HU_MOVED | (cost == 2 ? HU_BONUS : 0);
    }
    mk_event *e = mk_events_add(ev, "move");
    e->rule = cost == 2 ? "HtL 6.2.4" : "HtL 6.2.1";
    e->unit = (int16_t)u;
    e->other = (int16_t)ld;
    e->from = (int16_t)from;
    e->to = (int16_t)to;
    e->points = (int16_t)cost;
    if (fatigue) {
        /* 11.9: 4-6 costs 1 MP of fatigue; never below 1 (AMB-HTL-9: it is
         * not a combat loss, 10.A) */
        int d = mk_rng_d6(&s->head.rng);
        mk_event *f = mk_events_add(ev, "roll");
        f->purpose = "fatigue";
        f->rule = "HtL 11.9";
        f->unit = (int16_t)u;
        f->die = 6;
        mk_event_value(f, d);
        f->need = 4;
        f->hits = d >= 4 && s->u[u].mp > 1;
        if (f->hits) {
            s->u[u].mp--;
            mk_event *h = mk_events_add(ev, "hit");
            h->rule = "HtL 11.9";
            h->unit = (int16_t)u;
            h->mp = s->u[u].mp;
        }
    }
    /* HtL 6.2.3: a dragoon may fire after moving for 1 more AP, but not
     * after the leader bonus (9.1.2) nor after entering a waterway (2.3.3) */
    if (kind == HK_DRAGOON && cost == 1 && sc->map.terrain[to] != HT_WATERWAY && !force)
        s->dragoon_fire = (int16_t)u;
    htl_action_done(s, sc, ev);
    return 0;
}
