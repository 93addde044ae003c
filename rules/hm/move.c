/* move.c - H&M 7: movement, leaders moving, Ambush reactions; the retreat
 * and withdraw hexes of H&M 8 (Retreat & Withdraw). */
#include <string.h>

#include "hm_int.h"

/* H&M 6 and 9: the AC's one-CAP reduction; 15 Subordinate Leadership. */
int hm_unit_cost(const hm_state *s, const mk_scenario *sc, int unit, int base, int flags)
{
    int c = base - ((flags & HF_DISCOUNT) ? 1 : 0) - ((flags & HF_SUBORD) ? 1 : 0);
    return c < 0 ? 0 : c;
}

/* SSR: a side's units of the held kinds may not move yet (Sedgemoor: the
 * Royalist militia, the first two turns). */
bool hm_held(const hm_state *s, const mk_scenario *sc, int unit)
{
    int side = sc->units[unit].side, k = sc->units[unit].kind;
    return s->turn <= s->hold_turns[side] && ((s->hold_kinds[side] >> k) & 1u);
}

typedef struct reach {
    int n;
    int16_t hex[64], parent[64];
    int8_t depth[64];
} reach;

/* Hexes unit can reach in up to maxlen steps (H&M 7): never into enemy
 * units, never breaking stacking even in passing, stopping on entering
 * stop terrain. */
static void reach_find(const hm_state *s, const mk_scenario *sc, int unit, int maxlen, reach *r)
{
    const mk_grid *g = &sc->map.grid;
    r->n = 1;
    r->hex[0] = s->u[unit].hex;
    r->parent[0] = -1;
    r->depth[0] = 0;
    for (int i = 0; i < r->n; i++) {
        if (r->depth[i] >= maxlen || (i > 0 && hm_fx(s, sc, r->hex[i])->stop))
            continue;
        mk_hex nb[6];
        mk_hex_neighbors(g, (mk_hex)r->hex[i], nb);
        for (int d = 0; d < 6; d++) {
            int h = nb[d];
            if (h < 0)
                continue;
            bool seen = false;
            for (int j = 0; j < r->n && !seen; j++)
                seen = r->hex[j] == h;
            if (seen || r->n >= 64 || !hm_can_stack(s, sc, unit, h, -1))
                continue;
            r->hex[r->n] = (int16_t)h;
            r->parent[r->n] = (int16_t)i;
            r->depth[r->n] = (int8_t)(r->depth[i] + 1);
            r->n++;
        }
    }
}

/* 13 Line & Column: Horsemen, Infantry and Militia may be in Column. */
bool hm_can_column(int kind)
{
    return hm_class(kind) == HC_INF || hm_class(kind) == HC_HORSE || kind == HK_MILITIA;
}

/* Can unit be activated now? 0: no; 1: its first action; 2: a second
 * (15 Second Order). */
int hm_activation(const hm_state *s, const mk_scenario *sc, int unit)
{
    if (s->u[unit].hex < 0 || sc->units[unit].side != s->active)
        return 0;
    if (s->u[unit].acts == 0)
        return 1;
    if (HM_OPT(s, HO_SECOND_ORDER) && s->u[unit].acts == 1 && hm_is_unit(sc->units[unit].kind))
        return 2;
    return 0;
}

/* Adds the action in its cost variants: plain, with the AC's reduction
 * (H&M 6: once a turn, a unit that begins its action in the AC's hex,
 * while at least 1 CAP is left), with a subordinate's (15). */
int hm_add_variants(const hm_state *s, const mk_scenario *sc, const mk_action *a, int base,
                    mk_action *out, int n, int cap)
{
    int act =
        a->unit >= 0 && hm_is_unit(sc->units[a->unit].kind) ? hm_activation(s, sc, a->unit) : 1;
    uint8_t fl = act == 2 ? HF_SECOND : 0;
    if (n < cap && base <= s->cap) {
        out[n] = *a;
        out[n].flags |= fl;
        out[n].cost = (uint8_t)base;
        n++;
    }
    if (base < 1 || a->unit < 0 || !hm_is_unit(sc->units[a->unit].kind))
        return n;
    int ac = s->ac[s->active];
    if (!s->discount_used && ac >= 0 && s->u[ac].hex == s->u[a->unit].hex && s->cap >= 1 &&
        s->u[ac].nat == s->u[a->unit].nat && base - 1 <= s->cap && n < cap) {
        out[n] = *a;
        out[n].flags |= fl | HF_DISCOUNT;
        out[n].cost = (uint8_t)(base - 1);
        n++;
    }
    if (HM_OPT(s, HO_LEADERS_COMBAT) && base + 1 <= s->cap && n < cap &&
        (a->type == HA_FIRE || a->type == HA_CLOSE || a->type == HA_CHARGE)) {
        for (int i = 0; i < s->nunits; i++)
            if (sc->units[i].kind == HK_LEADER && s->u[i].hex == s->u[a->unit].hex &&
                sc->units[i].side == s->active && s->u[i].nat == s->u[a->unit].nat) {
                out[n] = *a;
                out[n].flags |= fl | HF_LEADER;
                out[n].cost = (uint8_t)(base + 1);
                n++;
                break;
            }
    }
    if (HM_OPT(s, HO_SUBORDINATE) && base <= s->cap && n < cap) {
        for (int i = 0; i < s->nunits; i++)
            if (sc->units[i].kind == HK_LEADER && i != ac && s->u[i].hex == s->u[a->unit].hex &&
                s->u[i].nat == s->u[a->unit].nat && sc->units[i].side == s->active) {
                out[n] = *a;
                out[n].flags |= fl | HF_SUBORD;
                out[n].other = (int16_t)i;
                out[n].cost = (uint8_t)(base - 1);
                n++;
                break;
            }
    }
    return n;
}

int hm_legal_moves(const hm_state *s, const mk_scenario *sc, mk_action *out, int n, int cap)
{
    for (int u = 0; u < s->nunits && n < cap; u++) {
        int k = sc->units[u].kind;
        if (k == HK_VP && s->u[u].charisma && hm_activation(s, sc, u)) {
            /* H&M 11 Baggage/Supply Train: one hex for 2 CAP, never into
             * swamp or river (a bridge is fine) */
            mk_hex nb[6];
            mk_hex_neighbors(&sc->map.grid, (mk_hex)s->u[u].hex, nb);
            for (int d = 0; d < 6 && n < cap && 2 <= s->cap; d++) {
                int h = nb[d];
                if (h < 0 || sc->map.terrain[h] == HT_SWAMP || sc->map.terrain[h] == HT_RIVER ||
                    !hm_can_stack(s, sc, u, h, -1))
                    continue;
                bool other_vp = false;
                for (int j = 0; j < s->nunits; j++)
                    other_vp |= j != u && s->u[j].hex == h && sc->units[j].kind == HK_VP;
                if (other_vp)
                    continue;
                mk_action *a = &out[n++];
                memset(a, 0, sizeof *a);
                a->type = HA_MOVE;
                a->unit = (int16_t)u;
                a->other = -1;
                a->target = (int16_t)h;
                a->npath = 1;
                a->path[0] = (int16_t)h;
                a->cost = 2;
            }
            continue;
        }
        if (k == HK_VP || !hm_activation(s, sc, u) || hm_held(s, sc, u))
            continue;
        int mr = s->ch.k[k].mr;
        if (mr <= 0)
            continue;
        bool leader = k == HK_LEADER;
        if (leader && (s->u[u].flags & (HU_MOVED | HU_RALLIED)))
            continue;
        reach r;
        bool bonus = false;
        if (HM_OPT(s, HO_LEADER_BONUS) && !leader && s->u[u].hex == s->u[u].start)
            for (int i = 0; i < s->nunits && !bonus; i++)
                bonus = sc->units[i].kind == HK_LEADER && s->u[i].start == s->u[u].start &&
                        sc->units[i].side == s->active && s->u[i].nat == s->u[u].nat;
        reach_find(s, sc, u, mr + (bonus ? 1 : 0), &r);
        for (int i = 1; i < r.n && n < cap; i++) {
            mk_action a;
            memset(&a, 0, sizeof a);
            a.type = HA_MOVE;
            a.unit = (int16_t)u;
            a.other = -1;
            a.target = r.hex[i];
            a.npath = (uint8_t)r.depth[i];
            for (int j = i, d = r.depth[i] - 1; j > 0 && d >= 0; j = r.parent[j], d--)
                a.path[d] = r.hex[j];
            if (r.depth[i] > mr) { /* 15 Leader Bonus Movement: the extra hex */
                if (r.depth[i] > MK_PATH_MAX)
                    continue;
                a.flags = HF_BONUS;
                if (n < cap && s->ch.cost_move <= s->cap) {
                    out[n] = a;
                    out[n].flags |= hm_activation(s, sc, u) == 2 ? HF_SECOND : 0;
                    out[n].cost = (uint8_t)s->ch.cost_move;
                    n++;
                }
                continue;
            }
            n = hm_add_variants(s, sc, &a, leader ? 0 : s->ch.cost_move, out, n, cap);
        }
        if (HM_OPT(s, HO_LINE_COLUMN) && hm_can_column(k) && n < cap) { /* 13: in place */
            mk_action a;
            memset(&a, 0, sizeof a);
            a.type = HA_FORMATION;
            a.unit = (int16_t)u;
            a.other = a.target = -1;
            n = hm_add_variants(s, sc, &a, s->ch.cost_move, out, n, cap);
        }
    }
    return n;
}

/* H&M 7 Ambush: enemy Light Footmen (not Militia) or Hussars in Woods,
 * Hill or Swamp adjacent to hex, that have not tried this turn. */
static int ambushers(const hm_state *s, const mk_scenario *sc, int mover, int hex, int16_t *out)
{
    int n = 0, side = sc->units[mover].side;
    for (int i = 0; i < s->nunits; i++) {
        int k = sc->units[i].kind, h = s->u[i].hex;
        if (h < 0 || sc->units[i].side == side || (s->u[i].flags & HU_AMBUSHED))
            continue;
        if (!((hm_class(k) == HC_LIGHT && k != HK_MILITIA) || k == HK_HUSSAR))
            continue;
        int t = sc->map.terrain[h];
        if (t != HT_WOODS && t != HT_HILL && t != HT_SWAMP)
            continue;
        if (mk_hex_distance(&sc->map.grid, (mk_hex)h, (mk_hex)hex) == 1 && n < 4)
            out[n++] = (int16_t)i;
    }
    return n;
}

int hm_ambush_options(const hm_state *s, const mk_scenario *sc, int16_t *out)
{
    if (!s->mv.on || s->u[s->mv.unit].hex < 0)
        return 0;
    return ambushers(s, sc, s->mv.unit, s->u[s->mv.unit].hex, out);
}

/* Carries the move in progress on, hex by hex, pausing for an ambush. */
void hm_move_run(hm_state *s, const mk_scenario *sc, mk_events *ev)
{
    hm_move *m = &s->mv;
    while (m->on && m->idx < m->npath && s->u[m->unit].hex >= 0) {
        int u = m->unit, to = m->path[m->idx];
        mk_event *e = mk_events_add(ev, "move");
        e->unit = (int16_t)u;
        e->from = s->u[u].hex;
        e->to = (int16_t)to;
        e->rule = m->kind == HA_CHARGE ? "H&M 8 Charge Combat" : "H&M 7";
        hm_enter(s, sc, u, to, ev);
        m->idx++;
        /* 13 Line Formation & Terrain: a unit in Line at 2+ MP entering a terrain tile */
        if (HM_OPT(s, HO_LINE_TERRAIN) && hm_is_unit(sc->units[u].kind) && !s->u[u].column &&
            s->u[u].mp >= 2 && sc->map.terrain[to] != HT_CLEAR &&
            !hm_morale(s, sc, u, 0, 0, NULL, "line_terrain", ev, NULL, NULL))
            hm_hit(s, sc, u, "H&M 13 Line Formation & Terrain", ev);
        int16_t amb[4];
        if (hm_is_unit(sc->units[u].kind) && ambushers(s, sc, u, to, amb) > 0) {
            s->pending = HP_AMBUSH;
            s->decider = (int8_t)(1 - sc->units[u].side);
            s->to_move = s->decider;
            return;
        }
    }
    if (!m->on)
        return;
    m->on = 0;
    int u = m->unit;
    if (s->u[u].hex < 0) { /* lost to an ambush */
        if (s->sk_unit == u) {
            s->sk_unit = -1;
            s->sk_phase = 0;
        }
        return;
    }
    if (m->kind == HA_CHARGE)
        hm_combat_start(s, sc, HA_CHARGE, u, m->target, ev);
    else if (m->kind == HA_SKIRMISH && s->sk_unit == u)
        hm_sk_fire_prompt(s, sc);
}

/* H&M 7 Ambush resolution: d6 1-2 the ambusher rolls its Close Combat dice
 * against the moving unit (no morale check, no defensive fire); 6: the
 * ambusher loses 1 MP. */
void hm_ambush(hm_state *s, const mk_scenario *sc, int amb, mk_events *ev)
{
    int mover = s->mv.unit;
    s->u[amb].flags |= HU_AMBUSHED;
    int d = mk_rng_d6(&s->head.rng);
    mk_event *e = mk_events_add(ev, "roll");
    e->purpose = "ambush";
    e->rule = "H&M 7 Ambush Reaction: 1-2 succeeds, 6 costs 1 MP";
    e->unit = (int16_t)amb;
    e->other = (int16_t)mover;
    e->die = 6;
    mk_event_value(e, d);
    e->passed = (int16_t)(d <= 2);
    if (d == 6) {
        hm_hit(s, sc, amb, "H&M 7: failed ambush", ev);
        return;
    }
    if (d > 2)
        return;
    int k = sc->units[amb].kind, need = s->ch.k[k].close;
    if (need <= 0)
        need = 9;
    int drm = hm_fx(s, sc, s->u[mover].hex)->combat_in;
    int fives = 0, mh = s->u[mover].hex, ah = s->u[amb].hex;
    int hits =
        hm_roll(s, sc, amb, COL_CLOSE, 1, need, drm, -1, "ambush", "H&M 7 Ambush", mh, ev, &fives);
    for (int i = 0; i < hits; i++)
        hm_hit(s, sc, mover, "H&M 7 Ambush", ev);
    if (fives)
        for (int i = 0; i < s->nunits; i++)
            if (sc->units[i].kind == HK_LEADER && (s->u[i].hex == mh || s->u[i].hex == ah))
                hm_leader_casualty(s, sc, i, ev);
}

int hm_move_start(hm_state *s, const mk_scenario *sc, const mk_action *a, mk_events *ev)
{
    hm_move *m = &s->mv;
    memset(m, 0, sizeof *m);
    m->on = 1;
    m->kind = a->type == HA_MOVE ? HA_MOVE : a->type;
    m->unit = a->unit;
    m->target = a->target;
    m->leader = -1;
    m->npath = a->npath;
    for (int i = 0; i < a->npath; i++)
        m->path[i] = a->path[i];
    if (sc->units[a->unit].kind == HK_LEADER)
        s->u[a->unit].flags |= HU_MOVED;
    else
        s->u[a->unit].flags |= HU_MOVED;
    hm_move_run(s, sc, ev);
    return 0;
}

/* H&M 8 Retreat & Withdraw: hexes one step from unit's hex, farther from
 * `from` (the attacker's hex), without enemy units; where stacking would
 * break, only if a friendly unit there can itself step away (displacement). */
int hm_retreat_options(const hm_state *s, const mk_scenario *sc, int unit, int from, int16_t *out)
{
    const mk_grid *g = &sc->map.grid;
    int hex = s->u[unit].hex, n = 0, side = sc->units[unit].side;
    if (hex < 0)
        return 0;
    int d0 = mk_hex_distance(g, (mk_hex)hex, (mk_hex)from);
    mk_hex nb[6];
    mk_hex_neighbors(g, (mk_hex)hex, nb);
    for (int i = 0; i < 6; i++) {
        int h = nb[i];
        if (h < 0 || mk_hex_distance(g, (mk_hex)h, (mk_hex)from) <= d0 ||
            hm_fx(s, sc, h)->impassable || hm_enemy_units_in(s, sc, h, side))
            continue;
        if (hm_can_stack(s, sc, unit, h, -1)) {
            out[n++] = (int16_t)h;
            continue;
        }
        /* displacement: a friendly unit in h that can retreat on */
        for (int j = 0; j < s->nunits; j++) {
            if (s->u[j].hex != h || !hm_is_unit(sc->units[j].kind) || j == unit)
                continue;
            if (!hm_can_stack(s, sc, unit, h, j))
                continue;
            int m = 0;
            mk_hex nb2[6];
            mk_hex_neighbors(g, (mk_hex)h, nb2);
            int d1 = mk_hex_distance(g, (mk_hex)h, (mk_hex)from);
            for (int q = 0; q < 6; q++) {
                int h2 = nb2[q];
                if (h2 < 0 || h2 == hex || mk_hex_distance(g, (mk_hex)h2, (mk_hex)from) <= d1 ||
                    hm_enemy_units_in(s, sc, h2, side) || !hm_can_stack(s, sc, j, h2, -1))
                    continue;
                m++;
            }
            if (m > 0) {
                out[n++] = (int16_t)h;
                break;
            }
        }
    }
    return n;
}

/* Is path a way for unit to its end hex (H&M 7: adjacent steps, stacking
 * kept in passing, no enemy units, stop terrain only as the last hex; for a
 * charge (H&M 8) no stop terrain at all), at most maxlen hexes? legal()
 * lists one shortest path per destination; any other valid path to the
 * same hex is the same choice. */
bool hm_path_ok(const hm_state *s, const mk_scenario *sc, int unit, const int16_t *path, int npath,
                int maxlen, bool charge)
{
    const mk_grid *g = &sc->map.grid;
    if (npath < 1 || npath > maxlen || npath > MK_PATH_MAX)
        return false;
    int at = s->u[unit].hex;
    for (int i = 0; i < npath; i++) {
        int h = path[i];
        if (h < 0 || h >= mk_grid_size(g) || !mk_hex_adjacent(g, (mk_hex)at, (mk_hex)h) ||
            h == s->u[unit].hex || !hm_can_stack(s, sc, unit, h, -1))
            return false;
        if (hm_fx(s, sc, h)->stop && (charge || i < npath - 1))
            return false;
        for (int j = 0; j < i; j++)
            if (path[j] == h)
                return false;
        at = h;
    }
    return true;
}
