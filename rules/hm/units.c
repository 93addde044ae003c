/* units.c - H&M 3 (units and classes), 4 (stacking), 8 (morale checks, LOS,
 * hits), 9 (leaders in combat, casualties, leaders left alone), 10 (VP for
 * eliminations), 11 (Elite / Skirmisher survival roll); the state check. */
#include <stdio.h>
#include <string.h>

#include "hm_int.h"

/* H&M 3: each unit type belongs to a class. */
int hm_class(int kind)
{
    switch (kind) {
    case HK_LINE:
    case HK_ELITE:
        return HC_INF;
    case HK_HIGHLANDER:
    case HK_MILITIA:
    case HK_IRREGULAR:
    case HK_SKIRMISHER:
    case HK_NATIVE:
        return HC_LIGHT;
    case HK_DRAGOON:
    case HK_CAVALRY:
    case HK_HUSSAR:
        return HC_HORSE;
    case HK_ARTILLERY:
    case HK_SIEGE:
        return HC_CANNON;
    case HK_LEADER:
        return HC_LEADER;
    default:
        return HC_VP;
    }
}

bool hm_may_ambush(int kind)
{
    return (hm_class(kind) == HC_LIGHT && kind != HK_MILITIA) || kind == HK_HUSSAR;
}

int hm_kind(const mk_scenario *sc, int u)
{
    return sc->units[u].kind;
}
int hm_side(const mk_scenario *sc, int u)
{
    return sc->units[u].side;
}
const char *hm_unit_id(const mk_scenario *sc, int u)
{
    return u >= 0 && u < sc->nunits ? sc->units[u].id : "-";
}

const hm_terrain_fx *hm_fx(const hm_state *s, const mk_scenario *sc, int hex)
{
    return &s->ch.t[hm_terrain(s, sc, hex)]; /* 15 Random Events 2: placed tiles */
}

/* The combat units in hex (any side); out holds HM_STACK_MAX (two but in a
 * hex that began over-stacked, H&M 4; more only if the state is broken). */
int hm_units_in(const hm_state *s, const mk_scenario *sc, int hex, int *out)
{
    int n = 0;
    for (int i = 0; i < s->nunits; i++)
        if (s->u[i].hex == hex && hm_is_unit(sc->units[i].kind)) {
            if (n < HM_STACK_MAX)
                out[n] = i;
            n++;
        }
    return n;
}

int hm_enemy_units_in(const hm_state *s, const mk_scenario *sc, int hex, int side)
{
    int n = 0;
    for (int i = 0; i < s->nunits; i++)
        if (s->u[i].hex == hex && hm_is_unit(sc->units[i].kind) && sc->units[i].side != side)
            n++;
    return n;
}

/* H&M 4: what piece i, in the hex unit would enter, does to it: 0
 * nothing (unit itself, a leader or VP counter; any friendly unit when
 * unit is a leader, which may stack with any number), 1 shares the hex
 * (a friendly unit of another class), 2 forbids it (an enemy unit, or a
 * friendly one of the same class). hm_can_stack and hm_stack_view both
 * count through it. */
static int stack_effect(const mk_scenario *sc, int unit, int i)
{
    if (i == unit || !hm_is_unit(sc->units[i].kind))
        return 0;
    if (sc->units[i].side != sc->units[unit].side)
        return 2;
    if (!hm_is_unit(sc->units[unit].kind))
        return 0;
    return hm_class(sc->units[i].kind) == hm_class(sc->units[unit].kind) ? 2 : 1;
}

/* H&M 4: may unit stand in hex (ignoring unit `ignore`, -1)? At most the
 * terrain's limit, of different classes, no enemy units. Every unit that
 * enters a hex (moving, in passing, retreating, displaced, advancing) is
 * held to these regular limits, an over-stacked hex's too: H&M 4 lets only
 * the units that began there breach them (hm_state_ok). */
bool hm_can_stack(const hm_state *s, const mk_scenario *sc, int unit, int hex, int ignore)
{
    const hm_terrain_fx *fx = hm_fx(s, sc, hex);
    if (fx->impassable)
        return false;
    int n = 1;
    for (int i = 0; i < s->nunits; i++) {
        if (i == ignore || s->u[i].hex != hex)
            continue;
        int e = stack_effect(sc, unit, i);
        if (e == 2)
            return false;
        n += e;
    }
    return !hm_is_unit(sc->units[unit].kind) || n <= fx->stack;
}

void hm_stack_view_init(const hm_state *s, const mk_scenario *sc, int unit, hm_stack_view *v)
{
    memset(v, 0, sizeof *v);
    v->leader = !hm_is_unit(sc->units[unit].kind);
    for (int i = 0; i < s->nunits; i++) {
        int h = s->u[i].hex, e = h >= 0 ? stack_effect(sc, unit, i) : 0;
        if (e == 2)
            v->blocked[h] = 1;
        else if (e == 1 && v->others[h] < 255)
            v->others[h]++;
    }
}

bool hm_stack_view_ok(const hm_state *s, const mk_scenario *sc, const hm_stack_view *v, int hex)
{
    const hm_terrain_fx *fx = hm_fx(s, sc, hex);
    if (fx->impassable || v->blocked[hex])
        return false;
    return v->leader || 1 + v->others[hex] <= fx->stack; /* as hm_can_stack */
}

bool hm_adjacent_enemy(const hm_state *s, const mk_scenario *sc, int hex, int side)
{
    for (int i = 0; i < s->nunits; i++)
        if (s->u[i].hex >= 0 && sc->units[i].side != side && hm_is_unit(sc->units[i].kind) &&
            mk_hex_distance(&sc->map.grid, (mk_hex)hex, (mk_hex)s->u[i].hex) == 1)
            return true;
    return false;
}

/* H&M 9: the highest rating of the leaders of its own nationality (Foreign
 * Leaders) stacked with unit, or -1 for none. */
int hm_best_leader(const hm_state *s, const mk_scenario *sc, int unit)
{
    int best = -1, hex = s->u[unit].hex;
    for (int i = 0; i < s->nunits; i++)
        if (sc->units[i].kind == HK_LEADER && s->u[i].hex == hex && hex >= 0 &&
            sc->units[i].side == sc->units[unit].side && s->u[i].nat == s->u[unit].nat &&
            s->u[i].mp > best)
            best = s->u[i].mp;
    return best;
}

/* H&M 8 Morale Checks: d6; fails if the modified roll exceeds the MP
 * (raised by terrain and leaders, AMB-HM-1 (a)) or on a natural 6.
 * mp: the MP to check against (0: the unit's own). Returns 1 passed, 0 failed. */
int hm_morale(hm_state *s, const mk_scenario *sc, int unit, int mp, int drm, int from,
              const char *why, const char *purpose, mk_events *ev, int *roll_out, int *thr_out)
{
    int kind = sc->units[unit].kind;
    int thr = mp > 0 ? mp : s->u[unit].mp;
    /* H&M 2: the terrain's bonus as seen from `from`, the attacker's hex (-1
     * for a check no attack causes: an Entrenchment gives none then) */
    const hm_terrain_fx *fx = hm_fx_from(s, sc, s->u[unit].hex, from);
    int lead = hm_best_leader(s, sc, unit);
    int nat = mk_rng_d6(&s->head.rng);
    mk_event *e = mk_events_add(ev, "morale");
    e->purpose = purpose;
    e->rule = "H&M 8 Morale Checks";
    e->unit = (int16_t)unit;
    e->hex = s->u[unit].hex;
    e->die = 6;
    mk_event_value(e, nat);
    if (fx->morale) {
        thr += fx->morale;
        mk_event_mod(e, fx->morale, "terrain morale bonus, added to MP (H&M 2, AMB-HM-1)");
    }
    if (lead > 0) {
        thr += lead;
        mk_event_mod(e, lead, "leader's rating added to MP (H&M 9)");
    }
    int roll = nat + drm;
    if (drm)
        mk_event_mod(e, drm, why);
    if (kind == HK_ELITE) {
        roll -= 1;
        mk_event_mod(e, -1, "Elite Infantry -1 DRM (H&M 11)");
    }
    int pass = nat != 6 && roll <= thr;
    e->value = (int16_t)roll;
    e->need = (int16_t)thr;
    e->passed = (int16_t)pass;
    if (roll_out)
        *roll_out = roll;
    if (thr_out)
        *thr_out = thr;
    return pass;
}

typedef struct los_ctx {
    const hm_state *s;
    const mk_scenario *sc;
    bool hills; /* from a hill to a hill with "hill_to_hill": false */
} los_ctx;

/* H&M 8: blocking terrain and Units (not Leaders) block fire through a hex.
 * H&M 2: a scenario that says hill effects do not apply hill-to-hill lets a
 * line from one hill hex to another pass over the hill hexes between. */
static bool los_blocks(mk_hex h, const void *p)
{
    const los_ctx *c = p;
    if (hm_fx(c->s, c->sc, h)->blocks && !(c->hills && hm_terrain(c->s, c->sc, h) == HT_HILL))
        return true;
    for (int i = 0; i < c->s->nunits; i++)
        if (c->s->u[i].hex == h && hm_is_unit(c->sc->units[i].kind))
            return true;
    return false;
}

bool hm_los(const hm_state *s, const mk_scenario *sc, int from, int to)
{
    los_ctx c = {s, sc,
                 s->no_hill2hill && hm_terrain(s, sc, from) == HT_HILL &&
                     hm_terrain(s, sc, to) == HT_HILL};
    return mk_los_clear(&sc->map.grid, (mk_hex)from, (mk_hex)to, los_blocks, &c, NULL);
}

static void award(hm_state *s, int side, int vp2, mk_events *ev, int unit, const char *rule)
{
    s->vp2[side] = (int16_t)(s->vp2[side] + vp2);
    mk_event *e = mk_events_add(ev, "vp");
    e->side = (int16_t)side;
    e->unit = (int16_t)unit;
    e->points = (int16_t)vp2; /* half VP */
    e->value = (int16_t)(s->vp2[side]);
    e->rule = rule;
    e->text = "half_vp";
}

/* H&M 9: d6 once per leader; a 1 eliminates him. Base CAP -1 for the rest
 * of the game; the enemy scores 2 VP for a rating of 3-4, else 1 (H&M 10). */
void hm_leader_casualty(hm_state *s, const mk_scenario *sc, int leader, mk_events *ev)
{
    int d = mk_rng_d6(&s->head.rng);
    mk_event *e = mk_events_add(ev, "leader_casualty");
    e->rule = "H&M 9 Leaders in Combat";
    e->unit = (int16_t)leader;
    e->die = 6;
    mk_event_value(e, d);
    e->passed = (int16_t)(d != 1);
    if (d != 1)
        return;
    int side = sc->units[leader].side;
    s->u[leader].hex = -1;
    s->leaders_lost[side]++;
    mk_events_add(ev, "eliminated")->unit = (int16_t)leader;
    award(s, 1 - side, s->u[leader].mp >= 3 ? 4 : 2, ev, leader, "H&M 10: leader VP by rating");
    if (s->ac[side] == leader) {
        s->ac[side] = -1;
        s->ac_lost[side] = 1;
        s->rerolls[side] = 0;
    }
}

/* The hex of the friendly unit nearest to hex (lowest index on a tie: the
 * owner's choice is made for him, docs/hm.md), or -1. */
static int nearest_friend(const hm_state *s, const mk_scenario *sc, int side, int hex)
{
    int best = -1, bd = 1000;
    for (int i = 0; i < s->nunits; i++)
        if (s->u[i].hex >= 0 && s->u[i].hex != hex && sc->units[i].side == side &&
            hm_is_unit(sc->units[i].kind)) {
            int d = mk_hex_distance(&sc->map.grid, (mk_hex)hex, (mk_hex)s->u[i].hex);
            if (d < bd || (d == bd && s->u[i].hex < best)) {
                bd = d;
                best = s->u[i].hex;
            }
        }
    return best;
}

/* H&M 9: leaders left alone in hex (their units gone): a casualty check if
 * `check`, then the survivors go to the nearest friendly unit. */
void hm_leaders_alone(hm_state *s, const mk_scenario *sc, int hex, int check, mk_events *ev)
{
    for (int i = 0; i < s->nunits; i++) {
        if (sc->units[i].kind != HK_LEADER || s->u[i].hex != hex || hex < 0)
            continue;
        int side = sc->units[i].side;
        bool alone = true;
        for (int j = 0; j < s->nunits; j++)
            if (s->u[j].hex == hex && hm_is_unit(sc->units[j].kind) && sc->units[j].side == side)
                alone = false;
        if (!alone)
            continue;
        if (check)
            hm_leader_casualty(s, sc, i, ev);
        if (s->u[i].hex < 0)
            continue;
        int to = nearest_friend(s, sc, side, hex);
        if (to < 0)
            continue; /* no friendly unit left: he stays */
        mk_event *e = mk_events_add(ev, "leader_displaced");
        e->rule = "H&M 9: a leader left alone goes to the nearest friendly unit";
        e->unit = (int16_t)i;
        e->from = (int16_t)hex;
        e->to = (int16_t)to;
        s->u[i].hex = (int16_t)to;
    }
}

void hm_eliminate(hm_state *s, const mk_scenario *sc, int unit, mk_events *ev)
{
    int hex = s->u[unit].hex;
    s->u[unit].hex = -1;
    s->u[unit].mp = 0;
    mk_event *e = mk_events_add(ev, "eliminated");
    e->unit = (int16_t)unit;
    e->hex = (int16_t)hex;
    e->rule = "H&M 10";
    award(s, 1 - sc->units[unit].side, s->u[unit].vpv, ev, unit,
          "H&M 10: the laurels on its counter");
    hm_leaders_alone(s, sc, hex, 1, ev);
}

/* One hit: -1 MP; below 1 the unit is eliminated, unless an Elite or a
 * Skirmisher rolls 1-2 on a d6 and stays at 1 MP (H&M 11). */
void hm_hit(hm_state *s, const mk_scenario *sc, int unit, const char *rule, mk_events *ev)
{
    if (s->u[unit].hex < 0)
        return;
    int kind = sc->units[unit].kind;
    if (s->u[unit].mp > 1) {
        s->u[unit].mp--;
        mk_event *e = mk_events_add(ev, "hit");
        e->unit = (int16_t)unit;
        e->mp = s->u[unit].mp;
        e->rule = rule;
        return;
    }
    if (kind == HK_ELITE || kind == HK_SKIRMISHER) {
        int d = mk_rng_d6(&s->head.rng);
        mk_event *e = mk_events_add(ev, "roll");
        e->purpose = "survival";
        e->rule = "H&M 11: Elite Infantry / Skirmishers stay at 1 MP on 1-2";
        e->unit = (int16_t)unit;
        e->die = 6;
        mk_event_value(e, d);
        e->passed = (int16_t)(d <= 2);
        if (d <= 2)
            return;
    }
    hm_eliminate(s, sc, unit, ev);
}

/* H&M 4: do the units in hex keep the regular limits (at most the
 * terrain's number, of different classes)? */
static bool stack_conforms(const hm_state *s, const mk_scenario *sc, int hex)
{
    int in[HM_STACK_MAX], n = hm_units_in(s, sc, hex, in);
    if (n > hm_fx(s, sc, hex)->stack || n > HM_STACK_MAX)
        return false;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            if (hm_class(sc->units[in[i]].kind) == hm_class(sc->units[in[j]].kind))
                return false;
    return true;
}

/* A combat unit enters hex: enemy leaders alone there go to their nearest
 * friendly unit (H&M 7, 9). A unit leaving a hex that began over-stacked
 * ends its exception once the units left conform (H&M 4; docs/hm.md). */
void hm_enter(hm_state *s, const mk_scenario *sc, int unit, int hex, mk_events *ev)
{
    int old = s->u[unit].hex;
    s->u[unit].hex = (int16_t)hex;
    if (!hm_is_unit(sc->units[unit].kind))
        return;
    if (old != hex && hm_overstacked(s, old) && stack_conforms(s, sc, old)) {
        /* H&M 4: a unit moved out of the over-stacked hex: it conforms to
         * the regular limits for the rest of the game */
        s->overstack[old >> 3] &= (uint8_t)~(1u << (old & 7));
        mk_event *e = mk_events_add(ev, "stacking");
        e->hex = (int16_t)old;
        e->unit = (int16_t)unit;
        e->text = "overstack_ended";
        e->rule = "H&M 4: once a Unit moves out of the over-stacked hex, it must conform to the "
                  "regular stacking limits";
    }
    int side = sc->units[unit].side;
    for (int i = 0; i < s->nunits; i++)
        if (sc->units[i].kind == HK_LEADER && s->u[i].hex == hex && sc->units[i].side != side) {
            int to = nearest_friend(s, sc, 1 - side, hex);
            mk_event *e = mk_events_add(ev, "leader_displaced");
            e->rule = "H&M 7: a leader alone in a hex an enemy unit enters";
            e->unit = (int16_t)i;
            e->from = (int16_t)hex;
            e->to = (int16_t)to;
            if (to >= 0) {
                s->u[i].hex = (int16_t)to;
            } else { /* nowhere to go: captured */
                s->u[i].hex = -1;
                s->leaders_lost[1 - side]++;
                award(s, side, s->u[i].mp >= 3 ? 4 : 2, ev, i, "H&M 10: leader VP by rating");
                if (s->ac[1 - side] == i) {
                    s->ac[1 - side] = -1;
                    s->ac_lost[1 - side] = 1;
                    s->rerolls[1 - side] = 0;
                }
            }
        }
}

bool hm_state_ok(const hm_state *s, const mk_scenario *sc, char *why, size_t n)
{
    int size = mk_grid_size(&sc->map.grid);
    if (s->cap < 0) {
        snprintf(why, n, "CAP %d", s->cap);
        return false;
    }
    int gone2[2] = {0, 0};
    for (int i = 0; i < s->nunits; i++) {
        const hm_unit *u = &s->u[i];
        int k = sc->units[i].kind;
        if (u->hex < -1 || u->hex >= size) {
            snprintf(why, n, "%s: hex %d", sc->units[i].id, u->hex);
            return false;
        }
        if (u->hex < 0 && sc->units[i].hex >= 0 && k != HK_VP)
            gone2[sc->units[i].side] += k == HK_LEADER ? (u->mp >= 3 ? 4 : 2) : u->vpv;
        if (!hm_is_unit(k) || u->hex < 0)
            continue;
        if (u->mp < 1 || u->mp > sc->units[i].mp_start) {
            snprintf(why, n, "%s: mp %d", sc->units[i].id, u->mp);
            return false;
        }
        int cls = hm_class(k), cnt = 1;
        bool over = hm_overstacked(s, u->hex); /* H&M 4: began over-stacked, nobody left yet */
        for (int j = 0; j < s->nunits; j++) {
            if (j == i || s->u[j].hex != u->hex || !hm_is_unit(sc->units[j].kind))
                continue;
            cnt++;
            if (sc->units[j].side != sc->units[i].side ||
                (hm_class(sc->units[j].kind) == cls && !over)) {
                snprintf(why, n, "%s and %s share a hex (H&M 4)", sc->units[i].id, sc->units[j].id);
                return false;
            }
        }
        if (cnt > HM_STACK_MAX || (!over && (cnt > 2 || cnt > hm_fx(s, sc, u->hex)->stack))) {
            snprintf(why, n, "%d units in %s's hex (H&M 4)", cnt, sc->units[i].id);
            return false;
        }
        if (u->acts > 2) {
            snprintf(why, n, "%s activated %d times", sc->units[i].id, u->acts);
            return false;
        }
        /* 13 Facing: a vertex exactly when in Column (Line & Column) */
        if (HM_OPT(s, HO_FACING) &&
            (u->facing < 0 || u->facing > 11 ||
             hm_face_column(u->facing) != (HM_OPT(s, HO_LINE_COLUMN) && u->column))) {
            snprintf(why, n, "%s: facing %d in %s (H&M 13)", sc->units[i].id, u->facing * 30,
                     u->column ? "column" : "line");
            return false;
        }
    }
    if (s->vp2[0] != gone2[1] || s->vp2[1] != gone2[0]) {
        snprintf(why, n, "VP x2 %d/%d, eliminations x2 %d/%d", s->vp2[0], s->vp2[1], gone2[1],
                 gone2[0]);
        return false;
    }
    return true;
}
