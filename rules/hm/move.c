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

/* The facings a move of unit starts with (13 Facing): its own; after a
 * formation change first (13 Line & Column), either facing 30 degrees
 * away, of the other parity. Without hm.facing a dummy mask of one bit. */
uint16_t hm_move_mask(const hm_state *s, const mk_scenario *sc, int unit, bool form_first)
{
    if (!HM_OPT(s, HO_FACING) || !hm_is_unit(sc->units[unit].kind))
        return 1;
    int f = s->u[unit].facing;
    if (!form_first)
        return (uint16_t)(1u << f);
    return (uint16_t)((1u << ((f + 1) % 12)) | (1u << ((f + 11) % 12)));
}

/* States (hex, facing) unit can reach in up to maxlen steps, breadth
 * first from the facings of `start` (H&M 7): never into enemy units, never
 * breaking stacking even in passing, stopping on entering stop terrain (a
 * charge never enters it, H&M 8), never back into its own hex; under 13
 * Facing each step goes into a frontal hex and the unit may then turn
 * within its clicks. Without hm.facing one state per hex (facing 0).
 * H&M 2: an Entrenchment stops only a unit that crosses one of its three
 * hexsides, so a hex reached across them (stopped) is reached again if a
 * later path comes in by an open side (and may go on). */
void hm_reach_find(const hm_state *s, const mk_scenario *sc, int unit, uint16_t start, int maxlen,
                   bool charge, hm_reach *r)
{
    bool facing = HM_OPT(s, HO_FACING) && hm_is_unit(sc->units[unit].kind);
    int home = s->u[unit].hex, clicks = hm_face_clicks(sc->units[unit].kind);
    uint16_t seen[HM_MAX_HEX], seen_stop[HM_MAX_HEX]; /* reached and may go on / stopped */
    memset(seen, 0, sizeof seen);
    memset(seen_stop, 0, sizeof seen_stop);
    hm_stack_view stack; /* stacking, per hex: a hex is tried from each neighbour */
    hm_stack_view_init(s, sc, unit, &stack);
    uint8_t stopped[HM_REACH_MAX]; /* state i entered stop terrain */
    r->n = 0;
    for (int f = 0; f < 12 && r->n < HM_REACH_MAX; f++) {
        if (!((start >> f) & 1) || (!facing && r->n > 0))
            continue;
        r->hex[r->n] = (int16_t)home;
        r->parent[r->n] = -1;
        r->depth[r->n] = 0;
        r->face[r->n] = (int8_t)(facing ? f : 0);
        stopped[r->n] = 0;
        r->n++;
    }
    r->nstart = r->n;
    for (int i = 0; i < r->n; i++) {
        if (r->depth[i] >= maxlen || stopped[i])
            continue;
        int at = r->hex[i];
        const mk_hex *nb = ((const hm_ext *)sc->ext)->nb[at];
        for (int d = 0; d < 6; d++) {
            int h = nb[d];
            if (h < 0 || h == home || !hm_stack_view_ok(s, sc, &stack, h))
                continue;
            bool stop = hm_stop_entering(s, sc, at, h);
            if (charge && stop)
                continue;
            uint16_t to = 1;
            if (facing) {
                if (!hm_face_front_of(r->face[i], sc, at, h))
                    continue;
                to = hm_face_turns((uint16_t)(1u << r->face[i]), clicks);
            }
            for (int f = 0; (to >> f) != 0 && r->n < HM_REACH_MAX; f++) { /* up to to's top bit */
                uint16_t got = (uint16_t)(seen[h] | (stop ? seen_stop[h] : 0));
                if (!((to >> f) & 1) || ((got >> f) & 1) || (!facing && got))
                    continue;
                if (stop)
                    seen_stop[h] |= (uint16_t)(1u << f);
                else
                    seen[h] |= (uint16_t)(1u << f);
                r->hex[r->n] = (int16_t)h;
                r->parent[r->n] = (int16_t)i;
                r->depth[r->n] = (int8_t)(r->depth[i] + 1);
                r->face[r->n] = (int8_t)f;
                stopped[r->n] = stop;
                r->n++;
            }
        }
    }
}

/* The path to state i of r (the hexes entered, in order), or -1 if it
 * passes a hex twice (hm_path_ok refuses that). */
int hm_reach_path(const hm_reach *r, int i, int16_t *path)
{
    int d = r->depth[i];
    if (d < 1 || d > MK_PATH_MAX)
        return -1;
    for (int j = i, q = d - 1; j >= r->nstart && q >= 0; j = r->parent[j], q--)
        path[q] = r->hex[j];
    for (int a = 0; a < d; a++)
        for (int b = 0; b < a; b++)
            if (path[a] == path[b])
                return -1;
    return d;
}

/* Lists one move (or formation change with a path) per hex reached,
 * along the first path found to it (a shortest one). */
static int list_reach(const hm_state *s, const mk_scenario *sc, const hm_reach *r,
                      const mk_action *proto, int mr, int cost, mk_action *out, int n, int cap)
{
    uint8_t listed[HM_MAX_HEX];
    memset(listed, 0, sizeof listed);
    int u = proto->unit;
    for (int i = r->nstart; i < r->n && n < cap; i++) {
        mk_action a = *proto;
        if (listed[r->hex[i]])
            continue;
        int np = hm_reach_path(r, i, a.path);
        if (np < 1)
            continue;
        listed[r->hex[i]] = 1;
        a.target = r->hex[i];
        a.npath = (uint8_t)np;
        if (np > mr) { /* 15 Leader Bonus Movement: the extra hex */
            a.flags |= HF_BONUS;
            if (n < cap && s->ch.cost_move <= s->cap) {
                out[n] = a;
                out[n].flags |= hm_activation(s, sc, u) == 2 ? HF_SECOND : 0;
                out[n].cost = (uint8_t)s->ch.cost_move;
                n++;
            }
            continue;
        }
        n = hm_add_variants(s, sc, &a, cost, out, n, cap);
    }
    return n;
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
    if (s->u[unit].hex < 0 || hm_ctl_side(s, sc, unit) != s->active ||
        hm_event_frozen(s, unit)) /* 15 Random Events 12, 8 */
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

int hm_legal_moves(const hm_state *s, const mk_scenario *sc, mk_action *out, int n, int cap,
                   int only)
{
    for (int u = 0; u < s->nunits && n < cap; u++) {
        if (only >= 0 && u != only)
            continue;
        int k = sc->units[u].kind;
        if (k == HK_VP && s->u[u].charisma && hm_activation(s, sc, u)) {
            /* H&M 11 Baggage/Supply Train: one hex for 2 CAP, never into
             * swamp or river (a bridge is fine) */
            mk_hex nb[6];
            mk_hex_neighbors(&sc->map.grid, (mk_hex)s->u[u].hex, nb);
            for (int d = 0; d < 6 && n < cap && 2 <= s->cap; d++) {
                int h = nb[d], t = hm_terrain(s, sc, h);
                if (h < 0 || t == HT_SWAMP || t == HT_RIVER || !hm_can_stack(s, sc, u, h, -1))
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
        int mr = hm_move_rate(s, sc, u); /* 15 Random Events 4: Bad Weather */
        if (mr <= 0)
            continue;
        bool leader = k == HK_LEADER;
        if (leader && (s->u[u].flags & (HU_MOVED | HU_RALLIED)))
            continue;
        hm_reach r; /* on the stack: the AI calls legal() from several threads */
        bool bonus = false;
        if (HM_OPT(s, HO_LEADER_BONUS) && !leader && s->u[u].hex == s->u[u].start)
            for (int i = 0; i < s->nunits && !bonus; i++)
                bonus = sc->units[i].kind == HK_LEADER && s->u[i].start == s->u[u].start &&
                        sc->units[i].side == s->active && s->u[i].nat == s->u[u].nat;
        mk_action a;
        memset(&a, 0, sizeof a);
        a.type = HA_MOVE;
        a.unit = (int16_t)u;
        a.other = -1;
        hm_reach_find(s, sc, u, hm_move_mask(s, sc, u, false), mr + (bonus ? 1 : 0), false, &r);
        n = list_reach(s, sc, &r, &a, mr, leader ? 0 : s->ch.cost_move, out, n, cap);
        if (HM_OPT(s, HO_LINE_COLUMN) && hm_can_column(k) && n < cap) {
            /* 13 Line & Column: in place (with hm.facing: any facing of the
             * new formation, chosen after) ... */
            a.type = HA_FORMATION;
            a.target = -1;
            n = hm_add_variants(s, sc, &a, s->ch.cost_move, out, n, cap);
            /* ... or for one point of movement of a longer move: first or last */
            for (int first = 1; first >= 0 && mr >= 2; first--) {
                a.flags = first ? HF_FORM_FIRST : 0;
                hm_reach_find(s, sc, u, hm_move_mask(s, sc, u, first), mr - 1, false, &r);
                n = list_reach(s, sc, &r, &a, mr - 1, s->ch.cost_move, out, n, cap);
            }
        }
        if (HM_OPT(s, HO_FACING) && !leader && hm_face_clicks(k) > 0 && n < cap) {
            /* 13 Facing: a Move activation that turns in place */
            memset(&a, 0, sizeof a);
            a.type = HA_FACE;
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
    const hm_ext *x = sc->ext;
    int n = 0, enemy = 1 - sc->units[mover].side;
    for (int j = 0; j < x->namb[enemy]; j++) {
        int i = x->amb[enemy][j], h = s->u[i].hex;
        if (h < 0 || (s->u[i].flags & HU_AMBUSHED))
            continue;
        int t = hm_terrain(s, sc, h);
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

/* The facing of mask nearest to prefer (ties: the lower). */
static int mask_pick(uint16_t mask, int prefer)
{
    int best = -1, bd = 99;
    for (int f = 0; f < 12; f++) {
        int d = (f - prefer + 24) % 12;
        d = d > 6 ? 12 - d : d;
        if (((mask >> f) & 1) && d < bd) {
            bd = d;
            best = f;
        }
    }
    return best;
}

/* 13 Facing: unit may now hold any facing of mask. One: it takes it. More:
 * its owner chooses (HP_FACE); meanwhile it shows the nearest one of the
 * right formation. Returns true if a decision is now pending. */
bool hm_face_prompt(hm_state *s, const mk_scenario *sc, int unit, uint16_t mask)
{
    if (!HM_OPT(s, HO_FACING) || !hm_is_unit(sc->units[unit].kind) || s->u[unit].hex < 0 || !mask)
        return false;
    int cur = s->u[unit].facing;
    if (!(mask & (mask - 1))) {
        hm_face_set(s, unit, mask_pick(mask, cur));
        return false;
    }
    if (!(mask & (hm_face_column(cur) ? 0x555 : 0xaaa)))
        hm_face_set(s, unit, mask_pick(mask, cur));
    s->mv.unit = (int16_t)unit;
    s->mv.fmask = mask;
    s->pending = HP_FACE;
    s->decider = (int8_t)hm_ctl_side(s, sc, unit); /* its owner, or 15 Random Events 12 */
    s->to_move = s->decider;
    return true;
}

/* 13 Line & Column: a formation change inside a move ("one point of
 * movement"); under Facing the counter turns 30 degrees either way. */
static void change_formation(hm_state *s, const mk_scenario *sc, int u, mk_events *ev)
{
    s->u[u].column = (int8_t)!s->u[u].column;
    if (HM_OPT(s, HO_FACING)) {
        s->mv.fmask = (uint16_t)(((s->mv.fmask << 1) | (s->mv.fmask >> 1) | (s->mv.fmask << 11) |
                                  (s->mv.fmask >> 11)) &
                                 (s->u[u].column ? 0x555 : 0xaaa));
        hm_face_set(s, u, mask_pick(s->mv.fmask, s->u[u].facing));
    }
    mk_event *f = mk_events_add(ev, "formation");
    f->unit = (int16_t)u;
    f->text = s->u[u].column ? "column" : "line";
    f->rule = "H&M 13 Line & Column: one point of movement";
}

/* Carries the move in progress on, hex by hex, pausing for an ambush. */
void hm_move_run(hm_state *s, const mk_scenario *sc, mk_events *ev)
{
    hm_move *m = &s->mv;
    while (m->on && m->idx < m->npath && s->u[m->unit].hex >= 0) {
        int u = m->unit, to = m->path[m->idx];
        int from = s->u[u].hex;
        mk_event *e = mk_events_add(ev, "move");
        e->unit = (int16_t)u;
        e->from = (int16_t)from;
        e->to = (int16_t)to;
        e->rule = m->kind == HA_CHARGE ? "H&M 8 Charge Combat" : "H&M 7";
        if (HM_OPT(s, HO_FACING) && hm_is_unit(sc->units[u].kind)) {
            /* 13 Facing: through a frontal hex, then a turn within its clicks */
            int dir = mk_hex_direction(&sc->map.grid, (mk_hex)s->u[u].hex, (mk_hex)to);
            m->fmask = hm_face_step(s, sc, u, m->fmask, s->u[u].hex, to);
            if (!((m->fmask >> s->u[u].facing) & 1))
                hm_face_set(s, u, mask_pick(m->fmask, dir >= 0 ? hm_face_dir_angle(dir) : 0));
        }
        hm_enter(s, sc, u, to, ev);
        m->idx++;
        /* 13 Line Formation & Terrain: a unit in Line at 2+ MP entering a
         * terrain tile (H&M 2: an Entrenchment only across its hexsides) */
        if (HM_OPT(s, HO_LINE_TERRAIN) && hm_is_unit(sc->units[u].kind) && !s->u[u].column &&
            s->u[u].mp >= 2 && hm_terrain_from(s, sc, to, from) != HT_CLEAR &&
            !hm_morale(s, sc, u, 0, 0, -1, NULL, "line_terrain", ev, NULL, NULL))
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
    if (m->kind == HA_CHARGE) {
        if (HM_OPT(s, HO_FACING)) { /* 13 Facing: it ends facing its target */
            int f = hm_face_toward(sc, m->fmask, s->u[u].hex, m->target, s->u[u].facing);
            if (f >= 0)
                hm_face_set(s, u, f);
        }
        hm_combat_start(s, sc, HA_CHARGE, u, m->target, ev);
        return;
    }
    if (m->kind == HA_FORMATION) /* 13 Line & Column: the change comes last */
        change_formation(s, sc, u, ev);
    if (hm_face_prompt(s, sc, u, m->fmask))
        return; /* the skirmish fire (if any) comes after the choice */
    if (m->kind == HA_SKIRMISH && s->sk_unit == u)
        hm_sk_fire_prompt(s, sc);
}

/* H&M 7 Ambush resolution: d6 1-2 the ambusher rolls its Close Combat dice
 * against the moving unit (no morale check, no defensive fire); 6: the
 * ambusher loses 1 MP. Returns true when the ambusher's player is asked
 * for 15 Leader Re-Rolls (hm_ambush_finish then applies the hits). */
bool hm_ambush(hm_state *s, const mk_scenario *sc, int amb, mk_events *ev)
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
        return false;
    }
    if (d > 2)
        return false;
    int k = sc->units[amb].kind, need = s->ch.k[k].close;
    if (need <= 0)
        need = 9;
    /* H&M 8: the Combat In of the mover's hex, from the ambusher's (H&M 2) */
    int drm = hm_fx_from(s, sc, s->u[mover].hex, s->u[amb].hex)->combat_in;
    if (hm_ambush_dice(s, sc, amb, mover, need, drm, ev))
        return true;
    hm_ambush_finish(s, sc, ev);
    return false;
}

/* H&M 7 Ambush: the hits of the ambusher's roll (cb->rr_hits, re-rolls
 * counted) on the mover; natural 5s check the leaders of both hexes. */
void hm_ambush_finish(hm_state *s, const mk_scenario *sc, mk_events *ev)
{
    int mover = s->mv.unit, amb = s->cb.rr_unit;
    int mh = s->u[mover].hex, ah = s->u[amb].hex;
    for (int i = 0; i < s->cb.rr_hits; i++)
        hm_hit(s, sc, mover, "H&M 7 Ambush", ev);
    if (s->cb.fives)
        for (int i = 0; i < s->nunits; i++)
            if (sc->units[i].kind == HK_LEADER && (s->u[i].hex == mh || s->u[i].hex == ah))
                hm_leader_casualty(s, sc, i, ev);
    s->cb.fives = 0;
    s->cb.rr_hits = 0;
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
    s->u[a->unit].flags |= HU_MOVED;
    m->fmask = hm_move_mask(s, sc, a->unit, false);
    if (a->type == HA_FORMATION && (a->flags & HF_FORM_FIRST)) {
        change_formation(s, sc, a->unit, ev); /* 13 Line & Column: first */
        m->kind = HA_MOVE;
    }
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
        /* displacement: a friendly unit in h that can retreat on (H&M 8) */
        int16_t who[HM_MAX_UNITS];
        if (hm_displace_options(s, sc, unit, h, from, -1, who) > 0)
            out[n++] = (int16_t)h;
    }
    return n;
}

/* Is the path of a (a move, a formation change with a path, a charge) a
 * way for its unit to its end hex (H&M 7: adjacent steps, stacking kept in
 * passing, no enemy units, stop terrain only as the last hex; for a charge
 * (H&M 8) no stop terrain at all; 13 Facing: each step through a frontal
 * hex, turns within the clicks, a charge ending with its target in front),
 * at most maxlen hexes? legal() lists one shortest path per destination;
 * any other valid path to the same hex is the same choice. */
bool hm_path_ok(const hm_state *s, const mk_scenario *sc, const mk_action *a, int maxlen)
{
    const mk_grid *g = &sc->map.grid;
    int unit = a->unit, npath = a->npath;
    const int16_t *path = a->path;
    bool charge = a->type == HA_CHARGE;
    if (npath < 1 || npath > maxlen || npath > MK_PATH_MAX)
        return false;
    int at = s->u[unit].hex;
    for (int i = 0; i < npath; i++) {
        int h = path[i];
        if (h < 0 || h >= mk_grid_size(g) || !mk_hex_adjacent(g, (mk_hex)at, (mk_hex)h) ||
            h == s->u[unit].hex || !hm_can_stack(s, sc, unit, h, -1))
            return false;
        if (hm_stop_entering(s, sc, at, h) && (charge || i < npath - 1))
            return false;
        for (int j = 0; j < i; j++)
            if (path[j] == h)
                return false;
        at = h;
    }
    uint16_t mask = /* 13 Facing */
        hm_move_mask(s, sc, unit, a->type == HA_FORMATION && (a->flags & HF_FORM_FIRST));
    mask = hm_face_path(s, sc, unit, mask, path, npath);
    if (!mask)
        return false;
    return !charge || !HM_OPT(s, HO_FACING) || a->target < 0 ||
           hm_face_toward(sc, mask, path[npath - 1], a->target, 0) >= 0;
}
