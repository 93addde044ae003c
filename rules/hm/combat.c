/* combat.c - H&M 8: Fire Combat, Close Combat, Charge Combat (with their
 * special cases, the charge sequencing and Retreat & Withdraw), 7 Skirmish,
 * 9 Rally; 12 Special Scenario Rules that change dice and DRMs; and the
 * pending decisions of an action in progress (the `choose` actions). */
#include <string.h>

#include "hm_int.h"

/* Stages of a combat in progress. */
enum {
    ST_REACT,
    ST_MORALE,
    ST_DF,
    ST_WITHDRAW,
    ST_ATTACK,
    ST_RETREAT,
    ST_ADVANCE,
    ST_DONE,
    ST_R1_ORDER,
    ST_R1_FIRE,
    ST_ATTACK2,
    ST_HITS,
    /* the second half of a roll that 15 Leader Re-Rolls may pause: its
     * hits (cb->rr_hits, re-rolls counted) are applied here */
    ST_DF_HITS,
    ST_R1_HITS,
    ST_SIMUL,
    ST_SIMUL_HITS,
    ST_LEADER_HITS
};

/* hm_combat.rr_col for the die of 15 Leaders in Combat (it hits on <= the
 * leader's rating, not on the chart). */
#define RR_LEADER (-1)

typedef struct mods {
    int n, sum;
    int16_t v[MK_EV_MODS];
    const char *why[MK_EV_MODS];
} mods;

static void mod_add(mods *m, int v, const char *why)
{
    if (!v)
        return;
    m->sum += v;
    if (m->n < MK_EV_MODS) {
        m->v[m->n] = (int16_t)v;
        m->why[m->n++] = why;
    }
}

/* H&M 8 Combat in General: three dice; two at 1 MP (1-2 MP for Infantry
 * class; not Highlanders); Elite +1 at R1 and in close combat; a blue/gray
 * box one at most; the SSRs of rule 12 and optional rules take dice away.
 * Never fewer than one. df: Defensive Fire. */
static int dice_for(const hm_state *s, const mk_scenario *sc, int unit, int col, int range, int df)
{
    int k = sc->units[unit].kind, cls = hm_class(k), mp = s->u[unit].mp;
    int ssr = s->u[unit].ssr;
    int n = 3;
    if (k != HK_HIGHLANDER && (mp <= 1 || (cls == HC_INF && mp <= 2)))
        n = 2;
    if (k == HK_ELITE && (col == COL_CLOSE || (col == COL_FIRE && range == 1)))
        n++;
    if ((ssr & SSR_INF_ART) && cls == HC_CANNON && col == COL_FIRE)
        n--; /* Inferior Artillery (play example: two dice, not three) */
    if ((ssr & SSR_MATCHLOCKS) && (cls == HC_INF || cls == HC_LIGHT) && col != COL_CHARGE)
        n--; /* Matchlocks: fire and close combat (AMB-HM-10) */
    if ((ssr & SSR_INF_HORSE) && cls == HC_HORSE && df)
        n--; /* Inferior Horsemen: defensive fire */
    if (HM_OPT(s, HO_AMMUNITION) && col == COL_FIRE && (s->u[unit].flags & HU_AMMO))
        n--;
    if (HM_OPT(s, HO_HI_STACKING) && (cls == HC_INF || cls == HC_HORSE)) {
        int in[HM_STACK_MAX], m = hm_units_in(s, sc, s->u[unit].hex, in);
        for (int i = 0; i < m && i < HM_STACK_MAX; i++)
            if (in[i] != unit &&
                hm_class(sc->units[in[i]].kind) == (cls == HC_INF ? HC_HORSE : HC_INF))
                n--;
    }
    if ((s->ch.k[k].one_die >> col) & 1)
        n = n > 1 ? 1 : n;
    n = hm_event_dice(s, sc, unit, col, n < 1 ? 1 : n); /* 15 Random Events 4, 7 */
    return n < 1 ? 1 : n > HM_MAX_DICE ? HM_MAX_DICE : n;
}

/* H&M 8: a natural 9 always hits, a natural 0 always misses, else
 * modified >= need. */
static bool die_hits(int d, int drm, int need)
{
    return d == 9 || (d != 0 && d + drm >= need);
}

/* 15 Retreat in R1 Fire Combat: unit rolled a natural 0 at R1. In a Fire
 * Combat (the firer's roll, and under Combat at R1 the target's return
 * fire; not the Defensive Fire of a close combat or charge) an Infantry,
 * Light Footman or Horseman that does must retreat, but "if both sides
 * roll natural '0' results, only the first to do so Retreats". */
static void r1_zero(hm_state *s, const mk_scenario *sc, int unit, int col, int range)
{
    hm_combat *cb = &s->cb;
    if (col != COL_FIRE || range != 1 || !cb->on || cb->kind != HA_FIRE ||
        !HM_OPT(s, HO_R1_RETREAT) || hm_class(sc->units[unit].kind) == HC_CANNON)
        return;
    int side = unit == cb->attacker ? 1 : 2;
    if (cb->r1_zero && cb->r1_zero != side)
        return; /* the other side rolled its 0 first */
    cb->r1_zero = (int8_t)side;
    if (side == 1 && !cb->r1_retreat)
        cb->r1_retreat = 1;
    for (int i = 0; side == 2 && i < cb->ndef; i++)
        if (cb->def[i] == unit)
            cb->r1_def |= (uint8_t)(1u << i);
}

/* What one die of unit's combat roll does besides hitting: a natural 5
 * checks the leaders (H&M 9, counted into *fives), a natural 1 in fire
 * runs it short of ammunition (15 Ammunition). */
static void die_effects(hm_state *s, int unit, int col, int d, int *fives)
{
    if (d == 5 && fives)
        (*fives)++;
    if (d == 1 && col == COL_FIRE && HM_OPT(s, HO_AMMUNITION))
        s->u[unit].flags |= HU_AMMO; /* 15 Ammunition */
}

/* Rolls the dice of unit: a natural 9 always hits, a natural 0 always
 * misses, else modified >= need (H&M 8). Returns hits; counts natural 5s
 * (leader casualties, H&M 9) into *fives. */
static int roll_mods(hm_state *s, const mk_scenario *sc, int unit, int col, int range, int need,
                     const mods *m, int dice, int df, const char *purpose, const char *rule,
                     int target_hex, mk_events *ev, int *fives)
{
    int zeros = 0;
    if (dice < 0)
        dice = dice_for(s, sc, unit, col, range, df);
    mk_event *e = mk_events_add(ev, "roll");
    e->purpose = purpose;
    e->rule = rule;
    e->unit = (int16_t)unit;
    e->hex = s->u[unit].hex;
    e->target = (int16_t)target_hex;
    e->die = 10;
    e->need = (int16_t)need;
    if (range > 0)
        e->value = (int16_t)range;
    for (int i = 0; m && i < m->n; i++)
        mk_event_mod(e, m->v[i], m->why[i]);
    int hits = 0, drm = m ? m->sum : 0;
    for (int i = 0; i < dice; i++) {
        int d = mk_rng_d10(&s->head.rng);
        mk_event_value(e, d);
        die_effects(s, unit, col, d, fives);
        hits += die_hits(d, drm, need);
        zeros += d == 0;
    }
    e->hits = (int16_t)hits;
    if (zeros) /* 15 Retreat in R1 Fire Combat */
        r1_zero(s, sc, unit, col, range);
    return hits;
}

int hm_roll(hm_state *s, const mk_scenario *sc, int unit, int col, int range, int need, int drm,
            int dice, const char *purpose, const char *rule, int target_hex, mk_events *ev,
            int *fives)
{
    mods m = {0};
    mod_add(&m, drm, "terrain Combat In (H&M 2, 8)");
    return roll_mods(s, sc, unit, col, range, need, &m, dice, 0, purpose, rule, target_hex, ev,
                     fives);
}

static bool reroll_offer(hm_state *s, const mk_scenario *sc, int unit, int col, int range, int need,
                         int drm, int hits, int miss);

/* H&M 7 Ambush: the ambusher's close combat dice against the mover (in no
 * combat: s->cb is idle during a move). The roll waits in cb->rr_* (hits)
 * and cb->fives for hm_ambush_finish; returns true when the ambusher's
 * player is asked for 15 Leader Re-Rolls first. */
bool hm_ambush_dice(hm_state *s, const mk_scenario *sc, int amb, int mover, int need, int drm,
                    mk_events *ev)
{
    int f = 0, nd = dice_for(s, sc, amb, COL_CLOSE, 1, 0);
    int hits = hm_roll(s, sc, amb, COL_CLOSE, 1, need, drm, nd, "ambush", "H&M 7 Ambush",
                       s->u[mover].hex, ev, &f);
    s->cb.on = 0;
    s->cb.fives = (uint8_t)f;
    return reroll_offer(s, sc, amb, COL_CLOSE, 1, need, drm, hits, nd - hits);
}

/* H&M 8 Terrain Modifiers. Fire at R2/R3: Combat Out of the firer's hex
 * plus Combat In of the target's. Otherwise only the Combat In of the
 * inactive side's hex: the target hex for the active side's dice, the
 * defender's own hex for Defensive Fire and simultaneous dice (AMB-HM-3,
 * the rules text's reading), with no modifier for defensive fire out of an
 * Entrenchment or Fort. H&M 2: each hex's effects as seen across the
 * hexside toward the other hex (an Entrenchment's only across its three
 * hexsides; a Hill's not toward a Hill when the scenario says so). */
static void terrain_mods(const hm_state *s, const mk_scenario *sc, int from, int to, int range,
                         bool defender, mods *m)
{
    if (range >= 2) {
        mod_add(m, hm_fx_from(s, sc, from, to)->combat_out,
                "Combat Out of the firer's hex (H&M 8)");
        mod_add(m, hm_fx_from(s, sc, to, from)->combat_in, "Combat In of the target's hex (H&M 8)");
        return;
    }
    int h = defender ? from : to, other = defender ? to : from;
    int t = hm_terrain(s, sc, h);
    if (defender && (t == HT_ENTRENCHMENT || t == HT_FORT))
        return;
    mod_add(m, hm_fx_from(s, sc, h, other)->combat_in,
            defender ? "Combat In of the defender's own hex (H&M 8, AMB-HM-3)"
                     : "Combat In of the target's hex (H&M 8)");
}

static void ssr_mods(const hm_state *s, const mk_scenario *sc, int unit, int col, mods *m)
{
    int ssr = s->u[unit].ssr;
    if ((ssr & SSR_PIKES) && hm_class(sc->units[unit].kind) == HC_INF && col == COL_FIRE)
        mod_add(m, -1, "Pikes SSR (H&M 12, play example)");
    mod_add(m, hm_event_drm(s, sc, unit), "Cannon: the enemy's Random Event 3 (H&M 15)");
}

/* 13 Line & Column: the modifiers of the roller's formation and of the
 * target hex's (the worst for the defenders when two units differ). */
static void form_mods(const hm_state *s, const mk_scenario *sc, int roller, int target, int col,
                      mods *m)
{
    if (!HM_OPT(s, HO_LINE_COLUMN))
        return;
    int k = sc->units[roller].kind, cls = hm_class(k);
    bool column = s->u[roller].column;
    int in[HM_STACK_MAX], n = hm_units_in(s, sc, target, in);
    bool t_col = false, t_horse_line = false, t_horse = false;
    for (int i = 0; i < n && i < HM_STACK_MAX; i++) {
        int tc = hm_class(sc->units[in[i]].kind);
        t_col |= s->u[in[i]].column != 0;
        t_horse |= tc == HC_HORSE;
        t_horse_line |= tc == HC_HORSE && !s->u[in[i]].column;
    }
    if (col == COL_FIRE) {
        if (cls == HC_INF && !column)
            mod_add(m, 1, "Infantry in Line firing (H&M 13)");
        if (cls == HC_HORSE && !column)
            mod_add(m, -1, "Horsemen in Line firing (H&M 13)");
        if (cls == HC_HORSE && column && t_horse)
            mod_add(m, 1, "Horsemen in Column firing on Horsemen (H&M 13)");
        if (t_col)
            mod_add(m, 1, "target hex holds a unit in Column (H&M 13)");
        else if (t_horse_line)
            mod_add(m, -1, "target hex holds Horsemen in Line (H&M 13)");
    } else if (col == COL_CLOSE) {
        if (cls == HC_INF && column)
            mod_add(m, 1, "Infantry in Column in close combat (H&M 13)");
        if ((cls == HC_INF || cls == HC_HORSE) && !column)
            mod_add(m, -1, "Line in close combat (H&M 13)");
    } else if (col == COL_CHARGE && cls == HC_HORSE && column) {
        mod_add(m, 1, "Horsemen in Column charging (H&M 13)");
    }
}

/* A decision answered "no" (an advance, a skirmisher's second half, a
 * re-roll, a charge's momentum, an ambush, a Seize the Initiative, a
 * second AC Replacement roll, another target after a Withdraw): logged, so that every choice, the
 * computer's too, reads in the event log with its rule (docs/ai.md). A
 * side's decline without a unit names the side. */
static mk_event *declined(const hm_state *s, int unit, const char *what, const char *rule, mk_events *ev)
{
    mk_event *e = mk_events_decline(ev, unit, unit >= 0 ? s->u[unit].hex : MK_NO_HEX, what, rule);
    if (unit < 0)
        e->side = s->decider;   /* (hm_choose has not cleared it) */
    return e;
}

static void set_pending(hm_state *s, int p, int side)
{
    s->pending = (int8_t)p;
    s->decider = (int8_t)side;
    s->to_move = (int8_t)side;
}

/* 15 Leaders in Combat: the leader rolls a combat die into event e; it
 * hits on <= his rating (a natural 0 included, AMB-HM-7); a 9 rolls
 * another die, and 0-2 on it eliminates him. Returns 1 for a hit. */
static int leader_die(hm_state *s, const mk_scenario *sc, int L, mk_event *e, mk_events *ev)
{
    int d = mk_rng_d10(&s->head.rng);
    e->unit = (int16_t)L;
    e->die = 10;
    mk_event_value(e, d);
    e->need = s->u[L].mp;
    e->hits = (int16_t)(d <= s->u[L].mp);
    if (d == 9) {
        int d2 = mk_rng_d10(&s->head.rng);
        mk_event_value(e, d2);
        if (d2 <= 2) { /* 0-2 on the second die: eliminated */
            int side = sc->units[L].side;
            s->u[L].hex = -1;
            s->leaders_lost[side]++;
            s->vp2[1 - side] = (int16_t)(s->vp2[1 - side] + (s->u[L].mp >= 3 ? 4 : 2));
            mk_events_add(ev, "eliminated")->unit = (int16_t)L;
            if (s->ac[side] == L) {
                s->ac[side] = -1;
                s->ac_lost[side] = 1;
                s->rerolls[side] = 0;
            }
        }
    }
    return d <= s->u[L].mp;
}

/* 15 Leader Re-Rolls: "each player may re-roll a combat die that misses,
 * doing so a number of times equal to the AC's Rating". Records unit's
 * roll (the attacker's, a defensive fire, a return fire, a countercharge or
 * a Highlander's simultaneous dice: every combat roll of a combat) for the
 * stage that applies its hits; if it missed and its player (the one who
 * decides for it) has re-rolls left, asks him (`reroll`, one die at a
 * time). Returns true when that decision is now pending. */
static bool reroll_offer(hm_state *s, const mk_scenario *sc, int unit, int col, int range, int need,
                         int drm, int hits, int miss)
{
    hm_combat *cb = &s->cb;
    cb->rr_unit = (int16_t)unit;
    cb->rr_hits = (int8_t)hits;
    cb->rr_miss = (int8_t)(miss > 0 ? miss : 0);
    cb->rr_need = (int8_t)need;
    cb->rr_drm = (int8_t)drm;
    cb->rr_col = (int8_t)col;
    cb->rr_range = (int8_t)range;
    int side = hm_ctl_side(s, sc, unit); /* 15 Random Events 12: the roller decides */
    if (!HM_OPT(s, HO_REROLLS) || cb->rr_miss <= 0 || s->rerolls[side] <= 0)
        return false;
    set_pending(s, HP_REROLL, side);
    return true;
}

/* The rule named on each hit of the attacker's roll (the event's purpose). */
static const char *hit_rule(const hm_combat *cb)
{
    return cb->kind == HA_FIRE ? "fire" : cb->kind == HA_CLOSE ? "close_combat" : "charge";
}

/* H&M 8: the units of the target hex that may take the next hit: those at
 * the current highest MP (1 MP units ignore hits at R3, R2 Grand). */
static int hit_candidates(const hm_state *s, const mk_scenario *sc, int *out)
{
    const hm_combat *cb = &s->cb;
    int in[HM_STACK_MAX], n = hm_units_in(s, sc, cb->hex, in), top = 0, m = 0;
    for (int i = 0; i < n && i < HM_STACK_MAX; i++)
        if (!(cb->hits_immune && s->u[in[i]].mp <= 1) && s->u[in[i]].mp > top)
            top = s->u[in[i]].mp;
    for (int i = 0; i < n && i < HM_STACK_MAX && top > 0; i++)
        if (s->u[in[i]].mp == top)
            out[m++] = in[i];
    return m;
}

/* H&M 8: "hits are applied one at a time to the current highest MP
 * (owning player decides if tied)". Applies cb->hits_left hits to the
 * target hex; returns true when it stops for the owner's choice between
 * tied units (HP_HIT_TIE). Units at 1 MP ignore hits at R3 (R2 Grand). */
static bool run_hits(hm_state *s, const mk_scenario *sc, mk_events *ev)
{
    hm_combat *cb = &s->cb;
    while (cb->hits_left > 0) {
        int in[HM_STACK_MAX], n = hm_units_in(s, sc, cb->hex, in);
        int cand[HM_STACK_MAX], nc = hit_candidates(s, sc, cand);
        int best = nc ? cand[0] : -1, tied = nc > 1;
        if (best < 0) {
            if (n > 0 && cb->hits_immune) {
                mk_event *e = mk_events_add(ev, "immune");
                e->hex = (int16_t)cb->hex;
                e->rule = "H&M 8: at R3 (R2 Grand) a 1 MP target ignores hits";
            }
            cb->hits_left = 0;
            break;
        }
        if (tied) {
            set_pending(s, HP_HIT_TIE, sc->units[best].side);
            return true;
        }
        cb->hits_left--;
        hm_hit(s, sc, best, hit_rule(cb), ev);
    }
    return false;
}

/* H&M 8 Fire Combat: the hexes unit may fire at from its hex, with their
 * ranges: enemy units (or leaders alone) within the chart's ranges and in
 * LOS; except for Cannon, only the nearest unit targets. */
int hm_fire_targets(const hm_state *s, const mk_scenario *sc, int unit, int from, int16_t *out,
                    int8_t *range)
{
    const mk_grid *g = &sc->map.grid;
    int k = sc->units[unit].kind, side = hm_ctl_side(s, sc, unit), n = 0; /* 15 Events 12 */
    if (from < 0 || !hm_is_unit(k))
        return 0;
    int16_t hx[32];
    int8_t rg[32], lone[32];
    int m = 0, nearest = 9;
    mk_cube cf = mk_hex_cube(g, (mk_hex)from);
    for (int i = 0; i < s->nunits && m < 32; i++) {
        int h = s->u[i].hex;
        if (h < 0 || sc->units[i].side == side || sc->units[i].kind == HK_VP)
            continue;
        int d = mk_cube_distance(cf, mk_hex_cube(g, (mk_hex)h));
        if (d < 1 || d > 3 || s->ch.k[k].fire[d - 1] <= 0)
            continue;
        if (HM_OPT(s, HO_FACING) && !hm_face_front_of(s->u[unit].facing, sc, from, h))
            continue; /* 13 Facing: only inside the frontal arc (docs/hm.md) */
        bool dup = false;
        for (int j = 0; j < m; j++)
            if (hx[j] == h) {
                dup = true;
                if (hm_is_unit(sc->units[i].kind))
                    lone[j] = 0;
            }
        if (dup)
            continue;
        if (d >= 2 && !hm_los(s, sc, from, h))
            continue;
        hx[m] = (int16_t)h;
        rg[m] = (int8_t)d;
        lone[m] = !hm_is_unit(sc->units[i].kind);
        m++;
    }
    for (int j = 0; j < m; j++)
        if (!lone[j] && rg[j] < nearest)
            nearest = rg[j];
    bool cannon = hm_class(k) == HC_CANNON;
    for (int j = 0; j < m; j++) {
        if (!cannon && rg[j] > nearest)
            continue;
        out[n] = hx[j];
        if (range)
            range[n] = rg[j];
        n++;
    }
    return n;
}

/* H&M 8 Charge Combat: can unit charge target via path (each hex entered
 * free of stop terrain and enemies, stacking kept, the last adjacent to
 * the target, at most the charge range)? */
static bool can_charge_from(const hm_state *s, const mk_scenario *sc, int unit)
{
    int k = sc->units[unit].kind;
    return (hm_class(k) == HC_HORSE || k == HK_HIGHLANDER) && s->ch.k[k].charge > 0 &&
           s->ch.k[k].charge_range > 0 &&
           !hm_adjacent_enemy(s, sc, s->u[unit].hex, hm_ctl_side(s, sc, unit));
}

static int legal_charges(const hm_state *s, const mk_scenario *sc, int u, mk_action *out, int n,
                         int cap)
{
    const mk_grid *g = &sc->map.grid;
    int k = sc->units[u].kind, side = hm_ctl_side(s, sc, u), range = s->ch.k[k].charge_range;
    if (!can_charge_from(s, sc, u) || hm_held(s, sc, u))
        return n;
    /* targets: enemy unit hexes in LOS within range + 1 */
    int16_t tg[24];
    int nt = 0;
    for (int i = 0; i < s->nunits && nt < 24; i++) {
        int h = s->u[i].hex;
        if (h < 0 || sc->units[i].side == side || !hm_is_unit(sc->units[i].kind))
            continue;
        int d = mk_hex_distance(g, (mk_hex)s->u[u].hex, (mk_hex)h);
        bool dup = false;
        for (int j = 0; j < nt; j++)
            dup |= tg[j] == h;
        if (dup || d > range + 1 || !hm_los(s, sc, s->u[u].hex, h))
            continue;
        tg[nt++] = (int16_t)h;
    }
    if (!nt)
        return n;
    /* breadth-first over hexes free of stop terrain (and, under 13 Facing,
     * over the facings: frontal steps, turns within the clicks, the target
     * in front at the end); one path per end hex and target */
    hm_reach r; /* on the stack: the AI calls legal() from several threads */
    uint32_t done[HM_MAX_HEX];
    memset(done, 0, sizeof done);
    hm_reach_find(s, sc, u, hm_move_mask(s, sc, u, false), range, true, &r);
    bool facing = HM_OPT(s, HO_FACING);
    for (int i = r.nstart; i < r.n && n < cap; i++)
        for (int t = 0; t < nt && n < cap; t++) {
            int h = r.hex[i];
            if ((done[h] >> t) & 1 || mk_hex_distance(g, (mk_hex)h, (mk_hex)tg[t]) != 1 ||
                (facing && !hm_face_front_of(r.face[i], sc, h, tg[t])))
                continue;
            mk_action a;
            memset(&a, 0, sizeof a);
            a.type = HA_CHARGE;
            a.unit = (int16_t)u;
            a.other = -1;
            a.target = tg[t];
            int np = hm_reach_path(&r, i, a.path);
            if (np < 1)
                continue;
            done[h] |= 1u << t;
            a.npath = (uint8_t)np;
            n = hm_add_variants(s, sc, &a, s->ch.cost_charge, out, n, cap);
        }
    return n;
}

int hm_sk_move_options(const hm_state *s, const mk_scenario *sc, int unit, int16_t *out)
{
    int n = 0;
    mk_hex nb[6];
    if (s->u[unit].hex < 0 || hm_held(s, sc, unit))
        return 0;
    mk_hex_neighbors(&sc->map.grid, (mk_hex)s->u[unit].hex, nb);
    for (int d = 0; d < 6; d++) /* 13 Facing: through a frontal hex */
        if (nb[d] >= 0 && hm_can_stack(s, sc, unit, nb[d], -1) && hm_front(s, sc, unit, nb[d]))
            out[n++] = nb[d];
    return n;
}

static bool can_skirmish(int k)
{
    return k == HK_IRREGULAR || k == HK_HIGHLANDER || k == HK_SKIRMISHER || hm_class(k) == HC_HORSE;
}

int hm_legal_combat(const hm_state *s, const mk_scenario *sc, mk_action *out, int n, int cap,
                    int only)
{
    const mk_grid *g = &sc->map.grid;
    for (int u = 0; u < s->nunits && n < cap; u++) {
        if (only >= 0 && u != only)
            continue;
        int k = sc->units[u].kind;
        if (!hm_is_unit(k) || !hm_activation(s, sc, u))
            continue;
        int16_t tg[32];
        int nt = hm_fire_targets(s, sc, u, s->u[u].hex, tg, NULL);
        mk_action a;
        memset(&a, 0, sizeof a);
        a.unit = (int16_t)u;
        a.other = -1;
        for (int t = 0; t < nt && n < cap; t++) {
            a.type = HA_FIRE;
            a.target = tg[t];
            n = hm_add_variants(s, sc, &a, s->ch.cost_fire, out, n, cap);
        }
        /* close combat: adjacent enemy units (H&M 8) */
        if (s->ch.k[k].cc_cost > 0 && s->ch.k[k].close > 0) {
            int16_t done[6];
            int nd = 0;
            mk_cube cu = mk_hex_cube(g, (mk_hex)s->u[u].hex);
            for (int i = 0; i < s->nunits && n < cap; i++) {
                int h = s->u[i].hex;
                if (h < 0 || sc->units[i].side == hm_ctl_side(s, sc, u) ||
                    !hm_is_unit(sc->units[i].kind) ||
                    mk_cube_distance(mk_hex_cube(g, (mk_hex)h), cu) != 1 ||
                    !hm_front(s, sc, u, h)) /* 13 Facing: a frontal hex */
                    continue;
                bool dup = false;
                for (int j = 0; j < nd; j++)
                    dup |= done[j] == h;
                if (dup)
                    continue;
                done[nd++] = (int16_t)h;
                a.type = HA_CLOSE;
                a.target = (int16_t)h;
                n = hm_add_variants(s, sc, &a, s->ch.k[k].cc_cost, out, n, cap);
            }
        }
        n = legal_charges(s, sc, u, out, n, cap);
        if (can_skirmish(k) && !hm_held(s, sc, u)) {
            a.type = HA_SKIRMISH;
            for (int t = 0; t < nt && n < cap; t++) { /* fire, then move */
                a.flags = HF_FIRE_FIRST;
                a.target = tg[t];
                a.npath = 0;
                n = hm_add_variants(s, sc, &a, s->ch.cost_skirmish, out, n, cap);
            }
            int16_t mv[6];
            int nm = hm_sk_move_options(s, sc, u, mv);
            for (int t = 0; t < nm && n < cap; t++) { /* move, then fire */
                a.flags = 0;
                a.target = mv[t];
                a.npath = 1;
                a.path[0] = mv[t];
                n = hm_add_variants(s, sc, &a, s->ch.cost_skirmish, out, n, cap);
            }
            a.npath = 0;
            a.flags = 0;
        }
        if (HM_OPT(s, HO_AMMUNITION) && (s->u[u].flags & HU_AMMO)) {
            a.type = HA_RESUPPLY;
            a.target = -1;
            n = hm_add_variants(s, sc, &a, s->ch.cost_resupply, out, n, cap);
        }
    }
    /* H&M 9 Rally: a leader and a reduced unit that both began the turn in
     * this hex, the unit not a Cannon, not acted, not adjacent to enemies. */
    for (int l = 0; l < s->nunits && n < cap; l++) {
        if (sc->units[l].kind != HK_LEADER || s->u[l].hex < 0 || sc->units[l].side != s->active ||
            (s->u[l].flags & (HU_MOVED | HU_RALLIED)) || s->u[l].start != s->u[l].hex)
            continue;
        int cost = s->u[l].charisma ? 0 : s->ch.cost_rally;
        if (cost > s->cap)
            continue;
        for (int u = 0; u < s->nunits && n < cap; u++) {
            if ((only >= 0 && u != only) || s->u[u].hex != s->u[l].hex ||
                !hm_is_unit(sc->units[u].kind) ||
                sc->units[u].side != s->active || hm_class(sc->units[u].kind) == HC_CANNON ||
                s->u[u].acts || s->u[u].start != s->u[u].hex ||
                s->u[u].mp >= sc->units[u].mp_start || s->u[u].nat != s->u[l].nat ||
                hm_adjacent_enemy(s, sc, s->u[u].hex, s->active))
                continue;
            mk_action *a = &out[n++];
            memset(a, 0, sizeof *a);
            a->type = HA_RALLY;
            a->unit = (int16_t)u;
            a->other = (int16_t)l;
            a->target = -1;
            a->cost = (uint8_t)cost;
        }
    }
    return n;
}

/* ---------------------------------------------------------------------- */
/* The combat driver. */

void hm_combat_start(hm_state *s, const mk_scenario *sc, int kind, int unit, int hex, mk_events *ev)
{
    hm_combat *cb = &s->cb;
    memset(cb, 0, sizeof *cb);
    cb->on = 1;
    cb->kind = (uint8_t)kind;
    cb->attacker = (int16_t)unit;
    cb->att_hex = s->u[unit].hex;
    cb->hex = (int16_t)hex;
    cb->lead = s->lic;
    s->lic = -1;
    cb->range = (uint8_t)mk_hex_distance(&sc->map.grid, (mk_hex)cb->att_hex, (mk_hex)hex);
    int in[HM_STACK_MAX];
    int n = hm_units_in(s, sc, hex, in);
    /* Infantry class first (H&M 8 Close Combat: it checks before Cannon);
     * more than two only in a hex that began over-stacked (H&M 4) */
    for (int i = 1; i < n && i < HM_STACK_MAX; i++)
        for (int j = i; j > 0 && hm_class(sc->units[in[j]].kind) == HC_INF &&
                        hm_class(sc->units[in[j - 1]].kind) != HC_INF;
             j--) {
            int t = in[j];
            in[j] = in[j - 1];
            in[j - 1] = t;
        }
    cb->ndef = (int8_t)(n > HM_STACK_MAX ? HM_STACK_MAX : n);
    for (int i = 0; i < cb->ndef; i++) {
        cb->def[i] = (int16_t)in[i];
        cb->mode[i] = HW_STAND;
        cb->passed[i] = -1;
    }
    mk_event *e = mk_events_add(ev, kind == HA_FIRE    ? "fire"
                                    : kind == HA_CLOSE ? "close_combat"
                                                       : "charge");
    e->unit = (int16_t)unit;
    e->from = cb->att_hex;
    e->target = (int16_t)hex;
    e->value = cb->range;
    e->rule = "H&M 8";
    for (int i = 0; i < cb->ndef; i++) { /* 13 Facing: attacked in the flank or rear */
        int asp = hm_aspect(s, sc, cb->def[i], cb->att_hex);
        if (asp == HM_FRONT)
            continue;
        mk_event *f = mk_events_add(ev, "flank_attack");
        f->unit = cb->def[i];
        f->other = (int16_t)unit;
        f->text = asp == HM_REAR ? "rear" : "flank";
        f->value = (int16_t)asp; /* the attacker's extra dice */
        f->rule = asp == HM_REAR ? "H&M 13 Facing: attacked in the rear: no defensive fire, "
                                   "countercharge or withdraw; the attacker rolls 2 extra dice"
                                 : "H&M 13 Facing: attacked in the flank: no defensive fire, "
                                   "countercharge or withdraw; the attacker rolls 1 extra die";
    }
    cb->stage = ST_REACT;
    hm_combat_run(s, sc, ev);
}

/* 13 Facing: the attacker's extra dice, +1 through a flank, +2 through the
 * rear; with two defenders the worst for them (H&M 4). */
static int flank_dice(const hm_state *s, const mk_scenario *sc)
{
    const hm_combat *cb = &s->cb;
    int extra = 0;
    for (int i = 0; i < cb->ndef; i++) {
        int d = cb->def[i];
        if (s->u[d].hex != cb->hex)
            continue;
        int asp = hm_aspect(s, sc, d, cb->att_hex);
        if (asp > extra)
            extra = asp; /* HM_FLANK 1, HM_REAR 2 */
    }
    return extra;
}

/* May defender i choose between two reactions? Returns the second word
 * (HW_STAND or HW_COUNTER), or 0 if it has no choice. */
static int react_choice(const hm_state *s, const mk_scenario *sc, int i)
{
    const hm_combat *cb = &s->cb;
    int d = cb->def[i], k = sc->units[d].kind, cls = hm_class(k);
    int ak = sc->units[cb->attacker].kind;
    if (s->u[d].flags & HU_NOWD)
        return 0;
    if (hm_aspect(s, sc, d, cb->att_hex) != HM_FRONT)
        return 0; /* 13 Facing: no withdraw or countercharge through a flank or rear */
    switch (cb->kind) {
    case HA_FIRE:
        return (k == HK_DRAGOON || k == HK_HUSSAR) ? HW_STAND : 0;
    case HA_CLOSE:
        return hm_class(ak) == HC_INF && (cls == HC_LIGHT || cls == HC_HORSE) ? HW_STAND : 0;
    case HA_CHARGE:
        return cls == HC_HORSE ? HW_COUNTER : k == HK_HIGHLANDER ? HW_STAND : 0;
    }
    return 0;
}


/* 15 Charge Momentum: hexes of enemy units next to the charger. */
static int hm_momentum_targets(const hm_state *s, const mk_scenario *sc, int16_t *out)
{
    int att = s->cb.attacker, n = 0;
    if (s->u[att].hex < 0 || s->ch.k[sc->units[att].kind].close <= 0)
        return 0;
    mk_hex nb[6];
    mk_hex_neighbors(&sc->map.grid, (mk_hex)s->u[att].hex, nb);
    for (int d = 0; d < 6; d++) /* 13 Facing: a frontal hex */
        if (nb[d] >= 0 && hm_enemy_units_in(s, sc, nb[d], hm_ctl_side(s, sc, att)) &&
            hm_front(s, sc, att, nb[d]))
            out[n++] = nb[d];
    return n;
}

/* 15 Combat at R1: the defenders who fire back: not against Cannon; only
 * Natives, Skirmishers and Hussars against Natives or Skirmishers firing
 * from Swamp, Woods, Hill or Town. */
static int r1_returners(const hm_state *s, const mk_scenario *sc, int16_t *out)
{
    const hm_combat *cb = &s->cb;
    int ak = sc->units[cb->attacker].kind, n = 0;
    if (hm_class(ak) != HC_INF && hm_class(ak) != HC_LIGHT && hm_class(ak) != HC_HORSE)
        return 0;
    int t = hm_terrain(s, sc, cb->att_hex);
    bool hidden = (ak == HK_NATIVE || ak == HK_SKIRMISHER) &&
                  (t == HT_SWAMP || t == HT_WOODS || t == HT_HILL || t == HT_TOWN);
    for (int i = 0; i < cb->ndef; i++) {
        int d = cb->def[i], k = sc->units[d].kind;
        if (s->u[d].hex != cb->hex || s->ch.k[k].fire[0] <= 0)
            continue;
        if (hidden && k != HK_NATIVE && k != HK_SKIRMISHER && k != HK_HUSSAR)
            continue;
        if (hm_aspect(s, sc, d, cb->att_hex) == HM_REAR)
            continue; /* 13 Facing: no defensive fire through the rear (docs/hm.md) */
        out[n++] = (int16_t)d;
    }
    return n;
}

/* H&M 9, AMB-HM-9: natural 5s on any die of the combat check the leaders
 * in both hexes, once each. */
static void r1_casualties(hm_state *s, const mk_scenario *sc, mk_events *ev)
{
    hm_combat *cb = &s->cb;
    if (!cb->fives)
        return;
    cb->fives = 0;
    for (int i = 0; i < s->nunits; i++)
        if (sc->units[i].kind == HK_LEADER && s->u[i].hex >= 0 &&
            (s->u[i].hex == cb->hex || s->u[i].hex == cb->att_hex))
            hm_leader_casualty(s, sc, i, ev);
}

/* Runs the combat on until it needs a decision or ends. */
void hm_combat_run(hm_state *s, const mk_scenario *sc, mk_events *ev)
{
    hm_combat *cb = &s->cb;
    int att = cb->attacker, aside = hm_ctl_side(s, sc, att), dside = 1 - aside; /* 15 Events 12 */
    while (cb->on) {
        switch (cb->stage) {
        case ST_REACT:
            while (cb->cur < cb->ndef) {
                int i = cb->cur;
                if (react_choice(s, sc, i) && cb->mode[i] == HW_STAND && !cb->eq[i]) {
                    cb->eq[i] = 2; /* asked (reset below) */
                    set_pending(s, HP_REACT, dside);
                    return;
                }
                cb->cur++;
            }
            for (int i = 0; i < HM_STACK_MAX; i++)
                cb->eq[i] = 0;
            cb->cur = 0;
            cb->stage = ST_MORALE;
            break;
        case ST_MORALE: {
            bool infantry_passed = false;
            for (int i = 0; i < cb->ndef; i++) {
                int d = cb->def[i], k = sc->units[d].kind, cls = hm_class(k);
                bool wd = cb->mode[i] == HW_WITHDRAW;
                int mp = 0, drm = 0;
                const char *why = NULL;
                if (cb->kind == HA_FIRE) {
                    if (!wd)
                        continue;
                    mp = 4; /* as for close combat: dragoons and hussars have 4 MP */
                } else if (cb->kind == HA_CLOSE) {
                    if (cls == HC_CANNON && infantry_passed) {
                        cb->passed[i] = 1; /* H&M 8: passes with its infantry */
                        continue;
                    }
                    if (wd && (k == HK_DRAGOON || k == HK_HUSSAR))
                        mp = 4;
                } else { /* charge: the per-class reactions */
                    if ((cls == HC_LIGHT && k != HK_HIGHLANDER) || cls == HC_CANNON) {
                        cb->passed[i] = 0; /* automatically fails, no roll */
                        mk_event *e = mk_events_add(ev, "morale");
                        e->unit = (int16_t)d;
                        e->purpose = "charge";
                        e->passed = 0;
                        e->rule = "H&M 8 Charge: Light Footmen and Cannon fail automatically";
                        continue;
                    }
                    if (k == HK_HIGHLANDER)
                        mp = 4;
                    if (wd && (k == HK_DRAGOON || k == HK_HUSSAR)) {
                        mp = 4;
                        drm = k == HK_DRAGOON ? -1 : -2;
                        why = k == HK_DRAGOON ? "Dragoons withdrawing from a charge -1 (H&M 8)"
                                              : "Hussars withdrawing from a charge -2 (H&M 8)";
                    }
                }
                if (HM_OPT(s, HO_LINE_COLUMN) && s->u[d].column && !wd &&
                    (cb->kind == HA_CLOSE || (cb->kind == HA_CHARGE && cls == HC_HORSE))) {
                    drm -= 1; /* 13: Column -1 in close combat / countercharge checks */
                    why = cb->kind == HA_CLOSE ? "unit in Column, close combat (H&M 13)"
                                               : "Horsemen in Column countercharging (H&M 13)";
                }
                int roll, thr;
                int p = hm_morale(s, sc, d, mp, drm, cb->att_hex, why,
                                  wd                          ? "withdraw"
                                  : cb->mode[i] == HW_COUNTER ? "countercharge"
                                                              : "defensive_fire",
                                  ev, &roll, &thr);
                cb->passed[i] = (int8_t)p;
                /* 13 Disorderly Retreat: a failure rolled at least double its MP
                 * (the modified roll, as AMB-HM-11; its own current MP) */
                cb->bad[i] = (int8_t)(!p && HM_OPT(s, HO_DISORDERLY) && roll >= 2 * s->u[d].mp);
                if (p && wd && cb->kind == HA_CHARGE && roll == thr)
                    cb->eq[i] = 1; /* AMB-HM-11: modified roll equal to modified morale */
                if (p && cls == HC_INF)
                    infantry_passed = true;
            }
            cb->stage = ST_DF;
            break;
        }
        case ST_DF: /* each defender that passed, one at a time (cb->cur) */
            while (cb->kind != HA_FIRE && cb->cur < cb->ndef && s->u[att].hex >= 0) {
                int i = cb->cur, d = cb->def[i], k = sc->units[d].kind;
                int need = s->ch.k[k].fire[0];
                if (cb->passed[i] != 1 || cb->mode[i] != HW_STAND || s->u[d].hex != cb->hex ||
                    (cb->kind == HA_CHARGE && hm_class(k) == HC_CANNON) /* not from artillery */
                    || hm_aspect(s, sc, d, cb->att_hex) != HM_FRONT /* 13 Facing: flank, rear */
                    || need <= 0) {
                    cb->cur++;
                    continue;
                }
                mods m = {0};
                terrain_mods(s, sc, cb->hex, cb->att_hex, 1, true, &m);
                ssr_mods(s, sc, d, COL_FIRE, &m);
                form_mods(s, sc, d, cb->att_hex, COL_FIRE, &m);
                int f = 0, nd = dice_for(s, sc, d, COL_FIRE, 1, 1);
                int hits = roll_mods(s, sc, d, COL_FIRE, 1, need, &m, nd, 1, "defensive_fire",
                                     "H&M 8 Defensive Fire", cb->att_hex, ev, &f);
                cb->fives = (uint8_t)(cb->fives + f);
                cb->stage = ST_DF_HITS;
                if (reroll_offer(s, sc, d, COL_FIRE, 1, need, m.sum, hits, nd - hits))
                    return;
                break;
            }
            if (cb->stage == ST_DF) {
                cb->stage = ST_WITHDRAW;
                cb->cur = 0;
            }
            break;
        case ST_DF_HITS: /* the defensive fire's hits, its re-rolls counted */
            for (int h = 0; h < cb->rr_hits; h++)
                hm_hit(s, sc, att, "H&M 8 Defensive Fire", ev);
            cb->cur++;
            cb->stage = ST_DF;
            break;
        case ST_WITHDRAW:
            while (cb->cur < cb->ndef) {
                int i = cb->cur, d = cb->def[i];
                if (cb->mode[i] == HW_WITHDRAW && cb->passed[i] == 1 && s->u[d].hex == cb->hex) {
                    if (cb->eq[i] == 1) {
                        cb->eq[i] = 0;
                        hm_hit(s, sc, d, "H&M 8: withdraw roll equal to morale, one hit", ev);
                        if (s->u[d].hex < 0) {
                            cb->cur++;
                            continue;
                        }
                    }
                    int16_t o[6];
                    if (hm_retreat_options(s, sc, d, cb->att_hex, o) > 0) {
                        set_pending(s, HP_WD_HEX, dside);
                        return;
                    }
                    cb->passed[i] = 0; /* nowhere to go: it stays and must retreat */
                }
                cb->cur++;
            }
            cb->cur = 0;
            {
                int in[HM_STACK_MAX];
                int left = hm_units_in(s, sc, cb->hex, in);
                bool withdrew = false;
                for (int i = 0; i < cb->ndef; i++)
                    withdrew |= cb->mode[i] == HW_WITHDRAW && cb->passed[i] == 1;
                if (cb->kind == HA_FIRE && withdrew) {
                    int16_t tg[32];
                    (void)left;
                    if (s->u[att].hex >= 0 && hm_fire_targets(s, sc, att, s->u[att].hex, tg, NULL))
                        set_pending(s, HP_RETARGET, aside);
                    else
                        cb->on = 0; /* no target: the CAP is wasted */
                    if (!cb->on)
                        break;
                    return;
                }
                if (left == 0 && withdrew) {
                    cb->stage = ST_ADVANCE;
                    break;
                }
            }
            cb->stage = ST_R1_ORDER;
            break;
        case ST_R1_ORDER: { /* 15 Combat at R1: who fires first */
            cb->stage = ST_ATTACK;
            int16_t ret[HM_STACK_MAX];
            if (!HM_OPT(s, HO_COMBAT_R1) || cb->kind != HA_FIRE || cb->range != 1 ||
                s->u[att].hex < 0 || r1_returners(s, sc, ret) == 0)
                break;
            if (hm_event_take(s, 10)) { /* 15 Random Events 10: the attacker chooses */
                set_pending(s, HP_R1_ORDER, aside);
                return;
            }
            if (!HM_OPT(s, HO_RANDOM_R1)) {
                set_pending(s, HP_R1_ORDER, dside);
                return;
            }
            int da = mk_rng_d6(&s->head.rng), dd = mk_rng_d6(&s->head.rng);
            int ma = s->u[att].natmod, md = 0, seen = -99;
            for (int i = 0; i < cb->ndef; i++) {
                int d = cb->def[i];
                if (s->u[d].hex != cb->hex || s->u[d].nat == seen)
                    continue;
                seen = s->u[d].nat;
                md += s->u[d].natmod;
            }
            mk_event *e = mk_events_add(ev, "roll");
            e->purpose = "r1_order";
            e->rule = "H&M 15 Randomized Combat at R1 (a tie: the inactive side first)";
            e->die = 6;
            mk_event_value(e, da);
            mk_event_value(e, dd);
            mk_event_mod(e, (int16_t)ma, "the attacker's nationality");
            mk_event_mod(e, (int16_t)md, "the defenders' nationalities");
            cb->r1 = (int8_t)(da + ma > dd + md ? 1 : 2);
            e->passed = (int16_t)(cb->r1 == 1);
            if (cb->r1 == 2)
                cb->stage = ST_R1_FIRE;
            break;
        }
        case ST_R1_FIRE: { /* 15 Combat at R1: the defenders fire, one at a time (cb->ri) */
            int16_t ret[HM_STACK_MAX];
            int nr = s->u[att].hex >= 0 ? r1_returners(s, sc, ret) : 0;
            if (cb->ri < nr) {
                int d = ret[cb->ri], need = s->ch.k[sc->units[d].kind].fire[0];
                mods m = {0};
                terrain_mods(s, sc, cb->hex, cb->att_hex, 1, true, &m);
                ssr_mods(s, sc, d, COL_FIRE, &m);
                form_mods(s, sc, d, cb->att_hex, COL_FIRE, &m);
                if (cb->r1 == 1)
                    mod_add(&m, 1, "fires second (15 Combat at R1)");
                if (hm_aspect(s, sc, d, cb->att_hex) == HM_FLANK)
                    mod_add(&m, -1, "attacked in the flank (15 Combat at R1, H&M 13 Facing)");
                int f = 0, nd = dice_for(s, sc, d, COL_FIRE, 1, 1);
                int h = roll_mods(s, sc, d, COL_FIRE, 1, need, &m, nd, 1, "r1_fire",
                                  "H&M 15 Combat at R1", cb->att_hex, ev, &f);
                cb->fives = (uint8_t)(cb->fives + f);
                cb->stage = ST_R1_HITS;
                if (reroll_offer(s, sc, d, COL_FIRE, 1, need, m.sum, h, nd - h))
                    return;
                break;
            }
            int hits = cb->r1_hits;
            if (cb->r1 == 2) {
                cb->r1_skip = (int8_t)(hits >= 2);
                cb->r1_bonus = (int8_t)(hits < 2);
                cb->r1 = 3; /* done: the attacker fires (or not) */
                cb->stage = ST_ATTACK;
                break;
            }
            cb->r1 = 3;
            r1_casualties(s, sc, ev);
            cb->stage = ST_RETREAT;
            cb->cur = 0;
            break;
        }
        case ST_R1_HITS: /* a return fire's hits, its re-rolls counted */
            cb->r1_hits = (int8_t)(cb->r1_hits + cb->rr_hits);
            for (int k = 0; k < cb->rr_hits; k++)
                hm_hit(s, sc, att, "H&M 15 Combat at R1", ev);
            cb->ri++;
            cb->stage = ST_R1_FIRE;
            break;
        case ST_ATTACK: {
            int ak = sc->units[att].kind;
            if (s->u[att].hex < 0) {
                cb->stage = ST_RETREAT;
                break;
            }
            int col = cb->kind == HA_FIRE    ? COL_FIRE
                      : cb->kind == HA_CLOSE ? COL_CLOSE
                                             : COL_CHARGE;
            int need = col == COL_FIRE    ? s->ch.k[ak].fire[cb->range - 1]
                       : col == COL_CLOSE ? s->ch.k[ak].close
                                          : s->ch.k[ak].charge;
            mods m = {0};
            terrain_mods(s, sc, cb->att_hex, cb->hex, col == COL_FIRE ? cb->range : 1, false, &m);
            ssr_mods(s, sc, att, col, &m);
            form_mods(s, sc, att, cb->hex, col, &m);
            if (col == COL_CHARGE && hm_class(ak) == HC_HORSE &&
                hm_terrain_from(s, sc, cb->hex, cb->att_hex) == HT_CLEAR) /* H&M 2 */
                mod_add(&m, 1, "Horsemen Clear Terrain Bonus (H&M 8)");
            int f = 0;
            const char *purpose = col == COL_FIRE    ? "fire"
                                  : col == COL_CLOSE ? "close_combat"
                                                     : "charge";
            if (cb->r1_bonus)
                mod_add(&m, 1, "fires second (15 Combat at R1)");
            int nd = dice_for(s, sc, att, col, col == COL_FIRE ? cb->range : 0, 0);
            nd += flank_dice(s, sc); /* 13 Facing: after the chart's limits (docs/hm.md) */
            if (nd > HM_MAX_DICE)
                nd = HM_MAX_DICE;
            int hits = cb->r1_skip ? 0
                                   : roll_mods(s, sc, att, col, col == COL_FIRE ? cb->range : 0,
                                               need, &m, nd, 0, purpose, "H&M 8", cb->hex, ev, &f);
            if (!cb->r1_skip && nd > hits && col == COL_FIRE && hm_event_take(s, 6))
                hits +=
                    roll_mods(s, sc, att, col, cb->range, need, &m, nd - hits, 0, "event_reroll",
                              "H&M 15 Random Events 6: re-roll all misses", cb->hex, ev, &f);
            cb->fives = (uint8_t)(cb->fives + f);
            cb->stage = ST_ATTACK2;
            if (reroll_offer(s, sc, att, col, col == COL_FIRE ? cb->range : 0, need, m.sum, hits,
                             cb->r1_skip ? 0 : nd - hits))
                return; /* 15 Leader Re-Rolls */
            break;
        }
        case ST_ATTACK2: {
            cb->tot_hits = cb->rr_hits; /* the attacker's, its re-rolls counted */
            cb->back = 0;
            cb->cur = 0;
            cb->stage = ST_LEADER_HITS;
            if (cb->lead >= 0 && s->u[cb->lead].hex >= 0) { /* 15 Leaders in Combat */
                int L = cb->lead;
                mk_event *e = mk_events_add(ev, "roll");
                e->purpose = "leader_combat";
                e->rule = "H&M 15 Leaders in Combat: a hit on <= rating (0 included, AMB-HM-7)";
                int h = leader_die(s, sc, L, e, ev);
                if (s->u[L].hex >= 0 && /* 15 Leader Re-Rolls: his die is a combat die */
                    reroll_offer(s, sc, L, RR_LEADER, 0, s->u[L].mp, 0, h, 1 - h))
                    return;
                cb->rr_hits = (int8_t)h;
            } else {
                cb->rr_hits = 0;
            }
            break;
        }
        case ST_LEADER_HITS: /* the leader's hit (re-roll counted) joins the attacker's */
            cb->tot_hits = (int8_t)(cb->tot_hits + cb->rr_hits);
            cb->stage = ST_SIMUL;
            break;
        case ST_SIMUL: /* simultaneous: countercharge, Highlanders (H&M 8), one at a time */
            while (cb->kind != HA_FIRE && cb->cur < cb->ndef) {
                int i = cb->cur, d = cb->def[i], k = sc->units[d].kind;
                int dneed = 0, dcol = COL_CLOSE;
                if (s->u[d].hex != cb->hex) {
                    /* gone (withdrawn): rolls nothing */
                } else if (cb->kind == HA_CHARGE && cb->mode[i] == HW_COUNTER &&
                           cb->passed[i] == 1) {
                    dneed = s->ch.k[k].charge;
                    dcol = COL_CHARGE;
                } else if (k == HK_HIGHLANDER && cb->mode[i] == HW_STAND &&
                           hm_aspect(s, sc, d, cb->att_hex) == HM_FRONT) { /* 13 Facing */
                    dneed = cb->kind == HA_CHARGE ? 7 : s->ch.k[k].close;
                }
                if (dneed <= 0) {
                    cb->cur++;
                    continue;
                }
                mods dm = {0};
                terrain_mods(s, sc, cb->hex, cb->att_hex, 1, true, &dm);
                form_mods(s, sc, d, cb->att_hex, dcol, &dm);
                int f = 0, nd = dice_for(s, sc, d, dcol, 0, 0);
                int h = roll_mods(s, sc, d, dcol, 0, dneed, &dm, nd, 0,
                                  dcol == COL_CHARGE ? "countercharge" : "highlander",
                                  "H&M 8: simultaneous", cb->att_hex, ev, &f);
                cb->fives = (uint8_t)(cb->fives + f);
                cb->stage = ST_SIMUL_HITS;
                if (reroll_offer(s, sc, d, dcol, 0, dneed, dm.sum, h, nd - h))
                    return;
                break;
            }
            if (cb->stage == ST_SIMUL) {
                int in[HM_STACK_MAX], n = hm_units_in(s, sc, cb->hex, in);
                cb->hits_left = (uint8_t)(n > 0 ? cb->tot_hits : 0);
                cb->hits_immune = cb->kind == HA_FIRE && cb->range >= s->ch.immune_range;
                cb->stage = ST_HITS;
            }
            break;
        case ST_SIMUL_HITS: /* held until the attacker's hits are applied (ST_HITS) */
            cb->back = (uint8_t)(cb->back + cb->rr_hits);
            cb->cur++;
            cb->stage = ST_SIMUL;
            break;
        case ST_HITS: /* the hits on the hex, then the simultaneous ones (H&M 8) */
            if (run_hits(s, sc, ev))
                return;
            for (; cb->back > 0; cb->back--)
                hm_hit(s, sc, att, "H&M 8: simultaneous", ev);
            if (cb->r1 == 1 && cb->tot_hits <= 1) { /* 15 Combat at R1: they fire second */
                cb->stage = ST_R1_FIRE;
                break;
            }
            r1_casualties(s, sc, ev);
            cb->stage = ST_RETREAT;
            cb->cur = 0;
            break;
        case ST_RETREAT:
            if (cb->kind == HA_FIRE && cb->r1_retreat == 1 && s->u[att].hex >= 0) {
                int16_t o[6];
                cb->r1_retreat = 2;
                if (hm_retreat_options(s, sc, att, cb->hex, o) > 0) {
                    set_pending(s, HP_R1_RETREAT, aside);
                    return;
                }
                hm_hit(s, sc, att, "H&M 8 No Retreat (15 Retreat in R1 Fire Combat)", ev);
            }
            /* 15 Retreat in R1 Fire Combat: the defenders whose return fire
             * rolled a natural 0 first, after both sides fired */
            while (cb->kind == HA_FIRE && cb->cur < cb->ndef) {
                int i = cb->cur, d = cb->def[i];
                if (((cb->r1_def >> i) & 1) && s->u[d].hex == cb->hex) {
                    int16_t o[6];
                    if (hm_retreat_options(s, sc, d, cb->att_hex, o) > 0) {
                        set_pending(s, HP_R1_RETREAT, hm_ctl_side(s, sc, d));
                        return; /* retreat_done clears its bit */
                    }
                    mk_event *e = mk_events_add(ev, "no_retreat");
                    e->unit = (int16_t)d;
                    e->rule = "H&M 8 No Retreat: loses 1 MP (15 Retreat in R1 Fire Combat)";
                    hm_hit(s, sc, d, "H&M 8 No Retreat (15 Retreat in R1 Fire Combat)", ev);
                }
                cb->r1_def &= (uint8_t)~(1u << i);
                cb->cur++;
            }
            while (cb->kind != HA_FIRE && cb->cur < cb->ndef) {
                int i = cb->cur, d = cb->def[i];
                if (cb->passed[i] == 0 && s->u[d].hex == cb->hex) {
                    int16_t o[6];
                    if (hm_retreat_options(s, sc, d, cb->att_hex, o) > 0) {
                        set_pending(s, HP_RETREAT, dside);
                        return;
                    }
                    mk_event *e = mk_events_add(ev, "no_retreat");
                    e->unit = (int16_t)d;
                    e->rule = "H&M 8 No Retreat: loses 1 MP";
                    hm_hit(s, sc, d, "H&M 8 No Retreat", ev);
                }
                cb->cur++;
            }
            cb->stage = ST_ADVANCE;
            break;
        case ST_ADVANCE:
            cb->stage = ST_DONE;
            if (s->u[att].hex < 0 || hm_enemy_units_in(s, sc, cb->hex, aside) ||
                hm_class(sc->units[att].kind) == HC_CANNON || cb->ndef == 0 ||
                cb->r1_retreat == 2 || !hm_can_stack(s, sc, att, cb->hex, -1))
                break;
            if (cb->kind == HA_FIRE) {
                if (cb->range == 1) {
                    set_pending(s, HP_ADVANCE, aside); /* may advance (H&M 8) */
                    return;
                }
                break;
            }
            { /* must advance (H&M 8) */
                mk_event *e = mk_events_add(ev, "advance");
                e->unit = (int16_t)att;
                e->from = s->u[att].hex;
                e->to = cb->hex;
                e->rule = "H&M 8: the acting unit must enter the vacated hex";
                hm_enter(s, sc, att, cb->hex, ev);
            }
            { /* 15 Charge Momentum: close combat from the new hex for 1 CAP */
                int16_t o[6];
                if (cb->kind == HA_CHARGE && HM_OPT(s, HO_MOMENTUM) && s->cap >= 1 &&
                    hm_class(sc->units[att].kind) == HC_HORSE &&
                    hm_momentum_targets(s, sc, o) > 0) {
                    set_pending(s, HP_MOMENTUM, aside);
                    return;
                }
            }
            break;
        case ST_DONE:
        default:
            cb->on = 0;
            break;
        }
    }
    /* leaders present took part in a combat (CAP storage, H&M 9) */
    for (int i = 0; i < s->nunits; i++)
        if (sc->units[i].kind == HK_LEADER && s->u[i].hex >= 0 &&
            (s->u[i].hex == cb->hex || s->u[i].hex == cb->att_hex))
            s->u[i].flags |= HU_COMBAT;
    for (int i = 0; i < s->nunits; i++)
        s->u[i].flags &= (uint8_t)~HU_NOWD;
    if (s->sk_unit == att && s->sk_phase == 2) {
        int16_t o[6];
        if (s->u[att].hex >= 0 && hm_sk_move_options(s, sc, att, o) > 0) {
            set_pending(s, HP_SK_MOVE, aside);
            return;
        }
        s->sk_unit = -1;
        s->sk_phase = 0;
    } else if (s->sk_unit == att) {
        s->sk_unit = -1;
        s->sk_phase = 0;
    }
}

/* H&M 8 Displacement: the friendly units in `to` that could make room for
 * unit (retreating from `from`'s attack) and, for a given one (pick >= 0),
 * the hexes it may go to: away from the attacker, not into enemy units,
 * within stacking. Returns the number written to out. */
int hm_displace_options(const hm_state *s, const mk_scenario *sc, int unit, int to, int from,
                        int pick, int16_t *out)
{
    const mk_grid *g = &sc->map.grid;
    int side = sc->units[unit].side, hex = s->u[unit].hex, n = 0;
    int d1 = mk_hex_distance(g, (mk_hex)to, (mk_hex)from);
    for (int j = 0; j < s->nunits; j++) {
        if ((pick >= 0 && j != pick) || s->u[j].hex != to || !hm_is_unit(sc->units[j].kind) ||
            !hm_can_stack(s, sc, unit, to, j))
            continue;
        mk_hex nb[6];
        mk_hex_neighbors(g, (mk_hex)to, nb);
        for (int q = 0; q < 6; q++) {
            int h2 = nb[q];
            if (h2 < 0 || h2 == hex || mk_hex_distance(g, (mk_hex)h2, (mk_hex)from) <= d1 ||
                hm_fx(s, sc, h2)->impassable || hm_enemy_units_in(s, sc, h2, side) ||
                !hm_can_stack(s, sc, j, h2, -1))
                continue;
            if (pick >= 0) {
                out[n++] = (int16_t)h2;
            } else {
                out[n++] = (int16_t)j;
                break;
            }
        }
    }
    return n;
}

/* H&M 8 Retreat & Withdraw: unit moves to `to`; `displaced` (or -1), a
 * friendly unit that would break stacking, goes to `dhex` first (both check
 * morale; failing costs 1 MP); a unit ending next to an enemy checks morale
 * too (1 MP). */
static void retreat_hex(hm_state *s, const mk_scenario *sc, int unit, int to, const char *what,
                        int displaced, int dhex, mk_events *ev)
{
    int side = sc->units[unit].side, hex = s->u[unit].hex;
    if (displaced >= 0) {
        mk_event *e = mk_events_add(ev, "displaced");
        e->unit = (int16_t)displaced;
        e->from = (int16_t)to;
        e->to = (int16_t)dhex;
        e->rule = "H&M 8 Displacement";
        hm_enter(s, sc, displaced, dhex, ev);
    }
    mk_event *e = mk_events_add(ev, "retreat");
    e->unit = (int16_t)unit;
    e->from = (int16_t)hex;
    e->to = (int16_t)to;
    e->text = what;
    e->rule = "H&M 8 Retreat & Withdraw";
    hm_enter(s, sc, unit, to, ev); /* an enemy leader alone there moves off (H&M 7) */
    s->u[unit].flags |= HU_NOWD;
    /* leaders alone in the hex left behind go with it (H&M 9) */
    for (int i = 0; i < s->nunits; i++)
        if (sc->units[i].kind == HK_LEADER && s->u[i].hex == hex && sc->units[i].side == side) {
            int in[HM_STACK_MAX], n = hm_units_in(s, sc, hex, in);
            if (n == 0) {
                s->u[i].hex = (int16_t)to;
                mk_event *l = mk_events_add(ev, "leader_follows");
                l->unit = (int16_t)i;
                l->to = (int16_t)to;
            }
        }
    if (displaced >= 0) {
        if (!hm_morale(s, sc, unit, 0, 0, -1, NULL, "displacement", ev, NULL, NULL))
            hm_hit(s, sc, unit, "H&M 8 Displacement", ev);
        if (!hm_morale(s, sc, displaced, 0, 0, -1, NULL, "displacement", ev, NULL, NULL))
            hm_hit(s, sc, displaced, "H&M 8 Displacement", ev);
        if (s->u[displaced].hex >= 0 && hm_adjacent_enemy(s, sc, s->u[displaced].hex, side) &&
            !hm_morale(s, sc, displaced, 0, 0, -1, NULL, "adjacent_enemy", ev, NULL, NULL))
            hm_hit(s, sc, displaced, "H&M 8: retreat next to an enemy", ev);
    }
    if (s->u[unit].hex >= 0 && hm_adjacent_enemy(s, sc, s->u[unit].hex, side) &&
        !hm_morale(s, sc, unit, 0, 0, -1, NULL, "adjacent_enemy", ev, NULL, NULL))
        hm_hit(s, sc, unit, "H&M 8: retreat next to an enemy", ev);
}

void hm_sk_fire_prompt(hm_state *s, const mk_scenario *sc)
{
    int u = s->sk_unit;
    int16_t tg[32];
    if (u >= 0 && s->u[u].hex >= 0 && hm_fire_targets(s, sc, u, s->u[u].hex, tg, NULL) > 0) {
        s->sk_phase = 1;
        set_pending(s, HP_SK_FIRE, sc->units[u].side);
        return;
    }
    s->sk_unit = -1;
    s->sk_phase = 0;
}

/* The choices of the pending decision. */
int hm_choices(const hm_state *s, const mk_scenario *sc, mk_action *out, int cap)
{
    const hm_combat *cb = &s->cb;
    int16_t o[32];
    uint8_t w[4];
    int n = 0, nw = 0;
    switch (s->pending) {
    case HP_SEIZE:
    case HP_AC_RETRY:
    case HP_ADVANCE:
        w[nw++] = HW_YES;
        w[nw++] = HW_NO;
        break;
    case HP_AMBUSH:
        n = hm_ambush_options(s, sc, o);
        w[nw++] = HW_NO;
        break;
    case HP_REACT:
        w[nw++] = HW_WITHDRAW;
        w[nw++] = (uint8_t)react_choice(s, sc, cb->cur);
        break;
    case HP_WD_HEX:
        n = hm_retreat_options(s, sc, cb->def[cb->cur], cb->att_hex, o);
        break;
    case HP_RETREAT:
        n = hm_retreat_options(s, sc, cb->def[cb->cur], cb->att_hex, o);
        break;
    case HP_RETARGET:
        n = hm_fire_targets(s, sc, cb->attacker, s->u[cb->attacker].hex, o, NULL);
        w[nw++] = HW_NO;
        break;
    case HP_SK_MOVE:
        n = hm_sk_move_options(s, sc, s->sk_unit, o);
        w[nw++] = HW_NO;
        break;
    case HP_SK_FIRE:
        n = hm_fire_targets(s, sc, s->sk_unit, s->u[s->sk_unit].hex, o, NULL);
        w[nw++] = HW_NO;
        break;
    case HP_MOMENTUM:
        n = hm_momentum_targets(s, sc, o);
        w[nw++] = HW_NO;
        break;
    case HP_R1_RETREAT: {
        int from, u = hm_r1_retreater(s, &from);
        n = hm_retreat_options(s, sc, u, from, o);
        break;
    }
    case HP_R1_ORDER:
        w[nw++] = HW_FIRST;
        w[nw++] = HW_SECOND;
        break;
    case HP_REROLL:
        w[nw++] = HW_YES;
        w[nw++] = HW_NO;
        break;
    case HP_FACE: /* 13 Facing: each facing the unit may take */
        for (int f = 0; f < 12 && n < cap; f++)
            if ((s->mv.fmask >> f) & 1) {
                mk_action *a = &out[n++];
                memset(a, 0, sizeof *a);
                a->type = HA_CHOOSE;
                a->unit = a->other = -1;
                a->flags = HW_FACE;
                a->target = (int16_t)f;
            }
        return n;
    case HP_EVENT_HEX:
    case HP_EVENT_UNIT:
        return hm_event_choices(s, sc, out, cap); /* 15 Random Events 2, 8 */
    case HP_HIT_TIE: { /* H&M 8: the units tied at the highest MP */
        int in[HM_STACK_MAX], k = hit_candidates(s, sc, in);
        for (int i = 0; i < k; i++)
            o[n++] = (int16_t)in[i];
        break;
    }
    case HP_DISPLACE_UNIT:
        n = hm_displace_options(s, sc, cb->dsp_unit, cb->dsp_to, cb->dsp_from, -1, o);
        break;
    case HP_DISPLACE_HEX:
        n = hm_displace_options(s, sc, cb->dsp_unit, cb->dsp_to, cb->dsp_from, cb->dsp_pick, o);
        break;
    default:
        return 0;
    }
    int m = 0;
    for (int i = 0; i < n && m < cap; i++) {
        mk_action *a = &out[m++];
        memset(a, 0, sizeof *a);
        a->type = HA_CHOOSE;
        a->unit = a->other = a->target = -1;
        if (s->pending == HP_AMBUSH || s->pending == HP_HIT_TIE ||
            s->pending == HP_DISPLACE_UNIT) {
            a->flags = HW_UNIT;
            a->other = o[i];
        } else {
            a->flags = HW_HEX;
            a->target = o[i];
        }
    }
    for (int i = 0; i < nw && m < cap; i++) {
        mk_action *a = &out[m++];
        memset(a, 0, sizeof *a);
        a->type = HA_CHOOSE;
        a->unit = a->other = a->target = -1;
        a->flags = w[i];
    }
    return m;
}

/* 15 Retreat in R1 Fire Combat: the unit whose retreat is asked now (the
 * attacker, or the defender def[cur] whose return fire rolled the first
 * 0) and the hex it retreats away from. */
int hm_r1_retreater(const hm_state *s, int *from)
{
    const hm_combat *cb = &s->cb;
    if (cb->r1_def && cb->cur < cb->ndef) {
        *from = cb->att_hex;
        return cb->def[cb->cur];
    }
    *from = cb->hex;
    return cb->attacker;
}

/* After a retreat (or withdraw) and its displacement: what is left of the
 * decision p that chose the hex. */
static void retreat_done(hm_state *s, const mk_scenario *sc, int p, mk_events *ev)
{
    hm_combat *cb = &s->cb;
    if (p == HP_R1_RETREAT) { /* a defender's: done (the attacker's is marked 2) */
        for (int i = 0; i < cb->ndef; i++)
            if (cb->def[i] == cb->dsp_unit)
                cb->r1_def &= (uint8_t)~(1u << i);
        return;
    }
    if (p == HP_RETREAT) {
        int d = cb->def[cb->cur];
        if (cb->bad[cb->cur] && s->u[d].hex >= 0) { /* 13 Disorderly Retreat */
            bool col = hm_can_column(sc->units[d].kind);
            hm_face_set(s, d, hm_face_away(sc, col, s->u[d].hex, cb->att_hex, s->u[d].facing));
            s->u[d].column = (int8_t)col;
            mk_event *e = mk_events_add(ev, "disorderly_retreat");
            e->unit = (int16_t)d;
            e->value = (int16_t)hm_face_deg(s->u[d].facing);
            e->text = col ? "column" : "line";
            e->rule = "H&M 13 Disorderly Retreat: a morale roll at least double its MP: it "
                      "retreats in Column, its front turned directly away from the attacker";
        }
    }
    cb->cur++;
}

/* Ends a retreat waiting on its displacement: the friendly unit dsp_pick
 * goes to dhex, then the retreating unit moves in. */
static void retreat_finish(hm_state *s, const mk_scenario *sc, int dhex, mk_events *ev)
{
    hm_combat *cb = &s->cb;
    retreat_hex(s, sc, cb->dsp_unit, cb->dsp_to, cb->dsp_after == HP_WD_HEX ? "withdraw" : "retreat",
                cb->dsp_pick, dhex, ev);
    retreat_done(s, sc, cb->dsp_after, ev);
}

/* The retreat hex `to` chosen in decision p (a withdraw, a retreat, a
 * retreat after R1 fire). If a friendly unit must make room (H&M 8
 * Displacement), its owner picks which one and where, when there is more
 * than one way: returns true when such a decision is now pending. */
static bool retreat_begin(hm_state *s, const mk_scenario *sc, int p, int to, mk_events *ev)
{
    hm_combat *cb = &s->cb;
    int from = cb->att_hex,
        unit = p == HP_R1_RETREAT ? hm_r1_retreater(s, &from) : cb->def[cb->cur];
    cb->dsp_unit = (int16_t)unit;
    cb->dsp_to = (int16_t)to;
    cb->dsp_from = (int16_t)from;
    cb->dsp_after = (int8_t)p;
    cb->dsp_pick = -1;
    if (hm_can_stack(s, sc, unit, to, -1)) {
        retreat_finish(s, sc, -1, ev);
        return false;
    }
    int16_t who[HM_MAX_UNITS], where[6];
    int nw = hm_displace_options(s, sc, unit, to, from, -1, who);
    cb->dsp_pick = nw == 1 ? who[0] : -1;
    int nh = nw == 1 ? hm_displace_options(s, sc, unit, to, from, cb->dsp_pick, where) : 0;
    if (nw > 1 || nh > 1) {
        /* the retreat waits for the owner's choice: the log says so */
        mk_event *e = mk_events_add(ev, "displacement");
        e->unit = (int16_t)unit;
        e->from = s->u[unit].hex;
        e->to = (int16_t)to;
        e->text = nw > 1 ? "owner_chooses_who_makes_room" : "owner_chooses_where";
        e->rule = "H&M 8 Displacement";
        set_pending(s, nw > 1 ? HP_DISPLACE_UNIT : HP_DISPLACE_HEX, sc->units[unit].side);
        return true;
    }
    retreat_finish(s, sc, nh == 1 ? where[0] : -1, ev);
    return false;
}

/* Applies a listed choice (hm.c checked it is one). */
void hm_choose(hm_state *s, const mk_scenario *sc, const mk_action *a, mk_events *ev)
{
    hm_combat *cb = &s->cb;
    int p = s->pending;
    s->pending = HP_NONE;
    s->to_move = s->active;
    switch (p) {
    case HP_EVENT_HEX:
    case HP_EVENT_UNIT:
        hm_event_choose(s, sc, a, p, ev); /* 15 Random Events 2, 8 */
        return;
    case HP_SEIZE:
        if (a->flags != HW_YES)
            declined(s, -1, "seize_the_initiative", "H&M 9 Seize the Initiative", ev);
        hm_seize_resolve(s, sc, a->flags == HW_YES, ev);
        return;
    case HP_AC_RETRY:
        if (a->flags == HW_YES) {
            s->cap--;
            hm_ac_attempt(s, sc, ev);
        } else {
            declined(s, -1, "retry_ac_replacement", "H&M 9 AC Replacement", ev);
        }
        return;
    case HP_AMBUSH:
        if (a->flags == HW_UNIT && hm_ambush(s, sc, a->other, ev))
            return; /* 15 Leader Re-Rolls of the ambusher's dice first */
        if (a->flags != HW_UNIT)
            declined(s, -1, "ambush", "H&M 7 Ambush", ev)->other = s->mv.unit;
        hm_move_run(s, sc, ev);
        return;
    case HP_REACT: {
        /* announced before the Morale Check (H&M 8: Fire, Close Combat and
         * Charge reactions); logged, as the checks may wait for the next
         * defender's choice */
        mk_event *e = mk_events_add(ev, "reaction");
        e->unit = cb->def[cb->cur];
        e->other = cb->attacker;
        e->text = a->flags == HW_WITHDRAW ? "withdraw" : a->flags == HW_COUNTER ? "countercharge" : "stand";
        e->rule = "H&M 8: the defender announces its reaction";
        cb->mode[cb->cur] = a->flags;
        if (a->flags == HW_STAND)
            cb->eq[cb->cur] = 2;
        cb->cur++;
        break;
    }
    case HP_WD_HEX:
    case HP_RETREAT:
    case HP_R1_RETREAT:
        if (retreat_begin(s, sc, p, a->target, ev))
            return; /* the owner decides the displacement first */
        break;
    case HP_DISPLACE_UNIT: {
        int16_t o[6];
        cb->dsp_pick = a->other;
        if (hm_displace_options(s, sc, cb->dsp_unit, cb->dsp_to, cb->dsp_from, cb->dsp_pick, o) > 1) {
            mk_event *e = mk_events_add(ev, "displacement");   /* the owner's next choice: where */
            e->unit = cb->dsp_unit;    /* retreating */
            e->other = cb->dsp_pick;   /* making room */
            e->to = cb->dsp_to;
            e->text = "owner_chooses_where";
            e->rule = "H&M 8 Displacement";
            set_pending(s, HP_DISPLACE_HEX, sc->units[cb->dsp_unit].side);
            return;
        }
        retreat_finish(s, sc, o[0], ev);
        break;
    }
    case HP_DISPLACE_HEX:
        retreat_finish(s, sc, a->target, ev);
        break;
    case HP_HIT_TIE: /* H&M 8: the owner's pick takes this hit */
        cb->hits_left--;
        hm_hit(s, sc, a->other, hit_rule(cb), ev);
        break;
    case HP_RETARGET: {
        int att = cb->attacker;
        cb->on = 0;
        if (a->flags == HW_HEX) {
            hm_combat_start(s, sc, HA_FIRE, att, a->target, ev);
            return;
        }
        declined(s, att, "fire_at_another_target", "H&M 8: after a Withdraw, another target", ev);
        for (int i = 0; i < s->nunits; i++)
            s->u[i].flags &= (uint8_t)~HU_NOWD;
        if (s->sk_unit == att && s->sk_phase == 2) {
            int16_t o[6];
            if (s->u[att].hex >= 0 && hm_sk_move_options(s, sc, att, o) > 0) {
                set_pending(s, HP_SK_MOVE, sc->units[att].side);
                return;
            }
        }
        s->sk_unit = -1;
        s->sk_phase = 0;
        return;
    }
    case HP_ADVANCE:
        if (a->flags == HW_YES) {
            mk_event *e = mk_events_add(ev, "advance");
            e->unit = cb->attacker;
            e->from = s->u[cb->attacker].hex;
            e->to = cb->hex;
            e->rule = "H&M 8: advance after R1 fire";
            hm_enter(s, sc, cb->attacker, cb->hex, ev);
        } else {
            declined(s, cb->attacker, "advance", "H&M 8: advance after R1 fire", ev);
        }
        break;
    case HP_MOMENTUM:
        if (a->flags == HW_HEX) {
            int att = cb->attacker;
            s->cap--;
            cb->on = 0;
            mk_event *e = mk_events_add(ev, "charge_momentum");
            e->unit = (int16_t)att;
            e->rule = "H&M 15 Charge Momentum";
            e->points = 1;
            hm_combat_start(s, sc, HA_CLOSE, att, a->target, ev);
            return;
        }
        declined(s, cb->attacker, "charge_again", "H&M 15 Charge Momentum", ev);
        break;
    case HP_FACE: { /* 13 Facing: the chosen facing; a skirmish fires next */
        int u = s->mv.unit;
        hm_face_set(s, u, a->target);
        mk_event *e = mk_events_add(ev, "facing");
        e->unit = (int16_t)u;
        e->value = (int16_t)hm_face_deg(a->target);
        e->text = hm_face_column(a->target) ? "column" : "line";
        e->rule = "H&M 13 Facing";
        if (s->sk_unit == u && s->sk_phase == 1)
            hm_sk_fire_prompt(s, sc);
        return;
    }
    case HP_REROLL: /* 15 Leader Re-Rolls: one missed die of the roll again */
        if (a->flags == HW_YES) {
            int u = cb->rr_unit, side = hm_ctl_side(s, sc, u), f = 0;
            s->rerolls[side]--;
            cb->rr_miss--;
            mk_event *e = mk_events_add(ev, "roll");
            e->purpose = "reroll";
            e->rule = "H&M 15 Leader Re-Rolls";
            e->hex = s->u[u].hex;
            e->side = (int16_t)side;
            bool hit;
            if (cb->rr_col == RR_LEADER) { /* the die of 15 Leaders in Combat */
                hit = leader_die(s, sc, u, e, ev);
            } else {
                int d = mk_rng_d10(&s->head.rng);
                hit = die_hits(d, cb->rr_drm, cb->rr_need);
                e->unit = (int16_t)u;
                e->die = 10;
                e->need = cb->rr_need;
                mk_event_value(e, d);
                /* the re-rolled die counts like any combat die (docs/hm.md) */
                die_effects(s, u, cb->rr_col, d, &f);
                cb->fives = (uint8_t)(cb->fives + f);
                if (d == 0)
                    r1_zero(s, sc, u, cb->rr_col, cb->rr_range);
            }
            cb->rr_hits = (int8_t)(cb->rr_hits + hit);
            e->hits = hit;
            e->points = s->rerolls[side];
            if (cb->rr_miss > 0 && s->rerolls[side] > 0 && s->u[u].hex >= 0) {
                set_pending(s, HP_REROLL, side);
                return;
            }
        }
        if (a->flags != HW_YES)
            declined(s, cb->rr_unit, "reroll", "H&M 15 Leader Re-Rolls", ev);
        if (!cb->on) { /* an ambush's dice (H&M 7): its hits, then the move goes on */
            hm_ambush_finish(s, sc, ev);
            hm_move_run(s, sc, ev);
            return;
        }
        break;
    case HP_R1_ORDER: /* the inactive player (15 Random Events 10: the attacker): first or
                       * second, for the deciding side */
        cb->r1 = (int8_t)((a->flags == HW_FIRST) == (s->decider != hm_ctl_side(s, sc, cb->attacker))
                              ? 2
                              : 1);
        if (cb->r1 == 2)
            cb->stage = ST_R1_FIRE;
        break;
    case HP_SK_MOVE: {
        int u = s->sk_unit;
        s->sk_unit = -1;
        s->sk_phase = 0;
        if (a->flags == HW_HEX) {
            mk_action m;
            memset(&m, 0, sizeof m);
            m.type = HA_MOVE;
            m.unit = (int16_t)u;
            m.target = a->target;
            m.npath = 1;
            m.path[0] = a->target;
            hm_move_start(s, sc, &m, ev);
        } else {
            declined(s, u, "move_after_firing", "H&M 7 Skirmish Action: move a hex after firing", ev);
        }
        return;
    }
    case HP_SK_FIRE: {
        int u = s->sk_unit;
        s->sk_unit = -1;
        s->sk_phase = 0;
        if (a->flags == HW_HEX)
            hm_combat_start(s, sc, HA_FIRE, u, a->target, ev);
        else
            declined(s, u, "fire_after_moving", "H&M 7 Skirmish Action: fire after moving", ev);
        return;
    }
    default:
        return;
    }
    hm_combat_run(s, sc, ev);
}
