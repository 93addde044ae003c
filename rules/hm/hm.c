/* hm.c - Horse & Musket: Dawn of an Era: the ruleset table, scenario
 * check, set-up, the legal-action / apply dispatch, hash, evaluation and
 * the JSON views. The rules live in the files named for their sections:
 * charts.c (Player Aid Card data), units.c (3, 4, 8 morale, 9, 10, 11),
 * turn.c (5, 6, 9 AC, 10), move.c (7, 8 retreat hexes), combat.c (7
 * Skirmish, 8, 9 Rally, 12), terrain.c (2 entrenchment hexsides and
 * hill-to-hill, 4 over-stacked set-ups), facing.c (13), events.c (15
 * Random Events). */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "hm_int.h"
#include "rules/rules.h"

/* Implemented optional rules (H&M 15), named per PROTOCOL.md. Bit i is
 * hm_options[i] (the HO_* enum). */
static const mk_option hm_options[] = {
    {"hm.second-order", "15 Second Order: a second activation after a morale check"},
    {"hm.ammunition", "15 Ammunition: a natural 1 in fire costs a die until resupplied (1 CAP)"},
    {"hm.good-days-and-bad-days", "15 Good Days and Bad Days: leader ratings rolled at set-up"},
    {"hm.command-range",
     "15 Command Range: morale check to move, skirmish or charge beyond 3 hexes of a leader"},
    {"hm.locked-in-combat", "15 Locked in Combat: morale check to move when next to an enemy"},
    {"hm.horsemen-infantry-stacking",
     "15 Horsemen/Infantry Stacking: one die less; chargers check morale"},
    {"hm.subordinate-leadership",
     "15 Subordinate Leadership: a subordinate's -1 CAP on a d6 <= rating"},
    {"hm.leader-bonus-movement",
     "15 Leader Bonus Movement: one hex more on a d6 <= the leader's rating"},
    {"hm.charge-momentum", "15 Charge Momentum: after a charge's advance, close combat for 1 CAP"},
    {"hm.leaders-in-combat", "15 Leaders in Combat: a stacked leader rolls a die for 1 CAP"},
    {"hm.retreat-in-r1-fire-combat",
     "15 Retreat in R1 Fire Combat: a natural 0 in R1 fire retreats the roller (the first side)"},
    {"hm.combat-at-r1",
     "15 Combat at R1: the target fires back at R1; the inactive player picks who fires first"},
    {"hm.randomized-combat-at-r1",
     "15 Randomized Combat at R1: who fires first by d6 and nationality"},
    {"hm.line-and-column", "13 Line & Column: formations and their modifiers (without Facing)"},
    {"hm.line-formation-and-terrain",
     "13 Line Formation & Terrain: a unit in Line entering terrain checks morale"},
    {"hm.leader-re-rolls",
     "15 Leader Re-Rolls: re-roll missed combat dice (any roll of yours), the AC's rating times"},
    {"hm.facing", "13 Facing: move and attack through the front; flank and rear attacks"},
    {"hm.disorderly-retreat",
     "13 Disorderly Retreat: a badly failed morale check retreats in Column, facing away"},
    {"hm.random-events", "15 Random Events: a CAP roll of 1 rolls 2d6 on the events table"},
};
#define NOPTIONS ((int)(sizeof hm_options / sizeof hm_options[0]))

static int check_options(uint64_t options, mk_error *err)
{
    if (options >> NOPTIONS)
        return mk_error_set(err, "bad_arg", "unknown Horse & Musket option bit");
    if ((options >> HO_LINE_TERRAIN) & 1 && !((options >> HO_LINE_COLUMN) & 1))
        return mk_error_set(
            err, "bad_arg",
            "hm.line-formation-and-terrain is used with hm.line-and-column: turn both on");
    if ((options >> HO_RANDOM_R1) & 1 && !((options >> HO_COMBAT_R1) & 1))
        return mk_error_set(
            err, "bad_arg",
            "hm.randomized-combat-at-r1 is a variant of hm.combat-at-r1: turn both on");
    if ((options >> HO_DISORDERLY) & 1 &&
        !((options >> HO_LINE_COLUMN) & 1 && (options >> HO_FACING) & 1))
        return mk_error_set(err, "bad_arg",
                            "hm.disorderly-retreat is used with hm.line-and-column and hm.facing: "
                            "turn all three on");
    return 0;
}

static const char *chart_scale(const mk_scenario *sc)
{
    json_t *c = json_object_get(sc->json, "chart");
    return json_is_string(c) ? json_string_value(c) : "battles";
}

static int ssr_bit(const char *name)
{
    static const char *const names[] = {"pikes", "matchlocks", "inferior-horsemen",
                                        "inferior-artillery"};
    for (int i = 0; i < 4; i++)
        if (strcmp(name, names[i]) == 0)
            return 1 << i;
    return 0;
}

static const char *unit_nat(const mk_scenario *sc, int i)
{
    json_t *n = json_object_get(mk_scenario_unit_json(sc, i), "nationality");
    if (json_is_string(n))
        return json_string_value(n);
    json_t *sides = json_object_get(sc->json, "sides");
    n = json_object_get(json_array_get(sides, (size_t)sc->units[i].side), "nationality");
    return json_is_string(n) ? json_string_value(n) : sc->sides[sc->units[i].side].id;
}

/* 15 Randomized Combat at R1: the nationality modifiers. */
static int natmod(const char *nat)
{
    static const char *const plus1[] = {"britain", "netherlands", "prussia"};
    static const char *const minus1[] = {"bavaria", "germany", "jacobite",
                                         "poland",  "spain",   "sweden"};
    static const char *const minus2[] = {"portugal", "rebel", "russia", "turkey"};
    char low[32];
    size_t i = 0;
    for (; nat[i] && i < sizeof low - 1; i++)
        low[i] = (char)(nat[i] >= 'A' && nat[i] <= 'Z' ? nat[i] + 32 : nat[i]);
    low[i] = 0;
    for (size_t j = 0; j < 3; j++)
        if (strcmp(low, plus1[j]) == 0)
            return 1;
    for (size_t j = 0; j < 6; j++)
        if (strcmp(low, minus1[j]) == 0)
            return -1;
    for (size_t j = 0; j < 4; j++)
        if (strcmp(low, minus2[j]) == 0)
            return -2;
    return 0; /* Austria, Denmark, France, Savoy, Saxony and any other */
}

/* What only H&M knows about a scenario: 2 sides, a small map, MP 1-4,
 * leader ratings 0-4, set-up stacking (H&M 4), charts, SSRs, victory. */
static int check_scenario(const mk_scenario *sc, mk_error *err)
{
    if (sc->nsides != 2)
        return mk_error_set(err, "scenario_invalid", "%s: sides: Horse & Musket needs 2 sides",
                            sc->source);
    if (sc->nunits > HM_MAX_UNITS)
        return mk_error_set(err, "scenario_invalid", "%s: units: %d pieces: at most %d for Horse & Musket",
                            sc->source, sc->nunits, HM_MAX_UNITS);
    if (mk_grid_size(&sc->map.grid) > HM_MAX_HEX)
        return mk_error_set(err, "scenario_invalid", "%s: map: at most %d hexes (H&M 2: 9 x 13)",
                            sc->source, HM_MAX_HEX);
    for (int i = 0; i < 2; i++)
        if (sc->sides[i].cap > 20)
            return mk_error_set(err, "scenario_invalid", "%s: sides[%d].cap: at most 20",
                                sc->source, i);
    hm_charts ch;
    if (hm_charts_load(&ch, chart_scale(sc), err))
        return -1;
    json_t *sides = json_object_get(sc->json, "sides");
    for (int i = 0; i < 2; i++) {
        json_t *ssr = json_object_get(json_array_get(sides, (size_t)i), "ssr");
        for (size_t j = 0; j < json_array_size(ssr); j++) {
            const char *n = json_string_value(json_array_get(ssr, j));
            if (!n || !ssr_bit(n))
                return mk_error_set(
                    err, "scenario_invalid",
                    "%s: sides[%d].ssr[%zu]: unknown SSR (known: pikes, matchlocks, "
                    "inferior-horsemen, inferior-artillery)",
                    sc->source, i, j);
        }
    }
    json_t *nats = json_object_get(sc->json, "nationalities");
    if (nats && !json_is_object(nats))
        return mk_error_set(err, "scenario_invalid",
                            "%s: nationalities: an object of nationality names to {\"ssr\": [...]}",
                            sc->source);
    const char *nname;
    json_t *nval;
    json_object_foreach(nats, nname, nval) {
        json_t *ssr = json_object_get(nval, "ssr");
        if (!json_is_object(nval) || (ssr && !json_is_array(ssr)) || json_object_size(nval) != (ssr ? 1u : 0u))
            return mk_error_set(err, "scenario_invalid",
                                "%s: nationalities.%s: expected {\"ssr\": [names]}", sc->source,
                                nname);
        for (size_t j = 0; j < json_array_size(ssr); j++) {
            const char *n = json_string_value(json_array_get(ssr, j));
            if (!n || !ssr_bit(n))
                return mk_error_set(
                    err, "scenario_invalid",
                    "%s: nationalities.%s.ssr[%zu]: unknown SSR (known: pikes, matchlocks, "
                    "inferior-horsemen, inferior-artillery)",
                    sc->source, nname, j);
        }
    }
    int commanders[2] = {0, 0};
    for (int i = 0; i < sc->nunits; i++) {
        const mk_sc_unit *u = &sc->units[i];
        json_t *uj = mk_scenario_unit_json(sc, i);
        if (hm_is_unit(u->kind) && (u->mp < 1 || u->mp > 4 || u->mp_start > 4))
            return mk_error_set(err, "scenario_invalid",
                                "%s: units[%d].mp: %d: units have 1 to 4 MP (H&M 3)", sc->source, i,
                                u->mp);
        if (u->kind == HK_LEADER) {
            if (u->nrating != 1 || u->rating[0] < 0 || u->rating[0] > 4)
                return mk_error_set(err, "scenario_invalid",
                                    "%s: units[%d].rating: one number 0-4 (H&M 3)", sc->source, i);
            if (json_is_true(json_object_get(uj, "commander")))
                commanders[u->side]++;
        }
        json_t *vp = json_object_get(uj, "vp_value");
        if (vp) {
            double v = json_number_value(vp);
            if (!json_is_number(vp) || (v != 0.5 && v != 1 && v != 2 && v != 3))
                return mk_error_set(err, "scenario_invalid",
                                    "%s: units[%d].vp_value: 0.5, 1 or 2 (H&M 10)", sc->source, i);
        }
        json_t *fc = json_object_get(uj, "facing");
        if (fc) { /* 13 Facing: degrees clockwise from map-up */
            json_t *fm = json_object_get(uj, "formation");
            bool col = json_is_string(fm) && strcmp(json_string_value(fm), "column") == 0 &&
                       hm_can_column(u->kind);
            json_int_t d = json_is_integer(fc) ? json_integer_value(fc) : -1;
            if (!hm_is_unit(u->kind) || d < 0 || d >= 360 || d % 30)
                return mk_error_set(err, "scenario_invalid",
                                    "%s: units[%d].facing: a combat unit's facing is 0-330 "
                                    "degrees clockwise from map-up, a multiple of 30 (H&M 13)",
                                    sc->source, i);
            if ((d % 60 == 0) != col)
                return mk_error_set(err, "scenario_invalid",
                                    col ? "%s: units[%d].facing: %d: a unit in Column faces a "
                                          "vertex, a multiple of 60 (H&M 13)"
                                        : "%s: units[%d].facing: %d: a unit in Line faces a "
                                          "hexside, an odd multiple of 30 (H&M 13)",
                                    sc->source, i, (int)d);
        }
    }
    for (int i = 0; i < 2; i++)
        if (commanders[i] > 1)
            return mk_error_set(err, "scenario_invalid",
                                "%s: side %s has %d Army Commanders (H&M 9: one)", sc->source,
                                sc->sides[i].id, commanders[i]);
    if (hm_events_check_scenario(sc, err)) /* 15 Random Events: "swamp_tiles" */
        return -1;
    /* H&M 2 "entrenchments", "hill_to_hill"; H&M 4 set-up stacking, "overstacked" */
    if (hm_terrain_check_scenario(sc, &ch, err))
        return -1;
    return hm_victory_check_scenario(sc, err);
}

static int init(void *st, const mk_scenario *sc, uint64_t options, uint64_t seed, mk_events *ev,
                mk_error *err)
{
    hm_state *s = st;
    if (check_options(options, err))
        return -1;
    if (sc->nsides != 2 || sc->nunits > HM_MAX_UNITS || mk_grid_size(&sc->map.grid) > HM_MAX_HEX)
        return mk_error_set(err, "scenario_invalid", "Horse & Musket needs 2 sides, a 9 x 13 map");
    if (hm_charts_load(&s->ch, chart_scale(sc), err))
        return -1;
    if (((options >> HO_FACING) & 1) && sc->map.grid.orient != MK_POINTY)
        return mk_error_set(err, "bad_arg", "hm.facing needs a map of pointy-topped hexes (H&M 2)");
    mk_rng_seed(&s->head.rng, seed);
    s->options = options;
    s->turn = 1;
    s->turns = (int16_t)(sc->turns > 0 ? sc->turns : 12);
    s->first = s->order = s->active = (int8_t)sc->first;
    s->nunits = (int16_t)sc->nunits;
    s->winner = -1;
    s->sk_unit = -1;
    s->ac_retry = -1;
    s->ac[0] = s->ac[1] = -1;
    s->lic = -1;
    const char *nats[HM_MAX_UNITS];
    int nnat = 0;
    json_t *sides = json_object_get(sc->json, "sides");
    for (int i = 0; i < 2; i++) {
        json_t *sj = json_array_get(sides, (size_t)i);
        json_t *ssr = json_object_get(sj, "ssr");
        for (size_t j = 0; j < json_array_size(ssr); j++)
            s->ssr[i] |= (uint8_t)ssr_bit(json_string_value(json_array_get(ssr, j)));
        json_t *hold = json_object_get(sj, "hold");
        if (json_is_object(hold)) {
            s->hold_turns[i] = (int8_t)json_integer_value(json_object_get(hold, "turns"));
            json_t *ks = json_object_get(hold, "kinds");
            for (size_t j = 0; j < json_array_size(ks); j++) {
                int k = mk_ruleset_kind(sc->rs, json_string_value(json_array_get(ks, j)));
                if (k >= 0)
                    s->hold_kinds[i] |= 1u << k;
            }
        }
        s->kill_leader[i] = -1;
    }
    for (int i = 0; i < sc->nunits; i++) {
        const mk_sc_unit *su = &sc->units[i];
        json_t *uj = mk_scenario_unit_json(sc, i);
        hm_unit *u = &s->u[i];
        u->hex = u->start = su->hex;
        u->mp = (int8_t)(su->kind == HK_LEADER ? su->rating[0] : su->mp);
        json_t *vp = json_object_get(uj, "vp_value");
        u->vpv = (int8_t)(vp ? (int)(json_number_value(vp) * 2 + 0.5) : 2);
        u->charisma = (int8_t)json_is_true(
            json_object_get(uj, su->kind == HK_VP ? "baggage" : "charismatic"));
        const char *nat = unit_nat(sc, i);
        int k = 0;
        while (k < nnat && strcmp(nats[k], nat) != 0)
            k++;
        if (k == nnat)
            nats[nnat++] = nat;
        u->nat = (int8_t)k;
        u->natmod = (int8_t)natmod(nat);
        /* H&M 12: SSRs by side, and by nationality for mixed armies */
        u->ssr = s->ssr[su->side];
        json_t *nssr = json_object_get(
            json_object_get(json_object_get(sc->json, "nationalities"), nat), "ssr");
        for (size_t j = 0; j < json_array_size(nssr); j++)
            u->ssr |= (uint8_t)ssr_bit(json_string_value(json_array_get(nssr, j)));
        json_t *fm = json_object_get(uj, "formation");
        u->column = (int8_t)(json_is_string(fm) && strcmp(json_string_value(fm), "column") == 0 &&
                             hm_can_column(su->kind));
        if (hm_is_unit(su->kind)) { /* 13 Facing: given, else toward the nearest enemy */
            bool col = u->column && HM_OPT(s, HO_LINE_COLUMN);
            json_t *fc = json_object_get(uj, "facing");
            int f = json_is_integer(fc) ? (int)(json_integer_value(fc) / 30)
                                        : hm_face_default(sc, i, col);
            if (!col && hm_face_column(f))
                f = (f + 1) % 12; /* a Column's vertex, without Line & Column: the next hexside */
            u->facing = (int8_t)f;
        }
        if (su->kind == HK_LEADER && json_is_true(json_object_get(uj, "commander"))) {
            s->ac[su->side] = (int8_t)i;
            s->seize_left[su->side] = (int8_t)su->rating[0];
        }
    }
    json_t *v = json_object_get(sc->json, "victory");
    for (int i = 0; i < 2; i++) {
        json_t *o = json_object_get(v, sc->sides[i].id);
        json_t *vp = json_object_get(o, "vp");
        if (vp)
            s->vp_target2[i] = (int16_t)(json_number_value(vp) * 2 + 0.5);
        s->elim_all[i] = (int8_t)json_is_true(json_object_get(o, "eliminate_all"));
        json_t *l = json_object_get(o, "eliminate_leader");
        if (json_is_string(l))
            s->kill_leader[i] = (int16_t)mk_scenario_unit(sc, json_string_value(l));
    }
    if (!v)
        s->time_rule = 0;
    else
        s->time_rule =
            (int8_t)(json_is_string(json_object_get(v, "time")) &&
                     strcmp(json_string_value(json_object_get(v, "time")), "both_lose") == 0);
    mk_events none;
    mk_events_init(&none, NULL, 0);
    if (!ev)
        ev = &none;
    if (HM_OPT(s, HO_GOOD_DAYS)) /* 15: a combat die per leader before the scenario */
        for (int i = 0; i < sc->nunits; i++) {
            if (sc->units[i].kind != HK_LEADER)
                continue;
            int d = mk_rng_d10(&s->head.rng);
            int delta = d == 0 ? -2 : d <= 2 ? -1 : d <= 6 ? 0 : d <= 8 ? 1 : 2;
            int r = s->u[i].mp + delta;
            s->u[i].mp = (int8_t)(r < 0 ? 0 : r > 4 ? 4 : r);
            mk_event *e = mk_events_add(ev, "roll");
            e->purpose = "good_days";
            e->rule = "H&M 15 Good Days and Bad Days";
            e->unit = (int16_t)i;
            e->die = 10;
            mk_event_value(e, d);
            e->value = s->u[i].mp;
            if (s->ac[sc->units[i].side] == i)
                s->seize_left[sc->units[i].side] = s->u[i].mp;
        }
    for (int i = 0; i < 2; i++) /* 15 Leader Re-Rolls: the AC's rating */
        s->rerolls[i] = (int8_t)(HM_OPT(s, HO_REROLLS) && s->ac[i] >= 0 ? s->u[s->ac[i]].mp : 0);
    hm_events_init(s, sc); /* 15 Random Events */
    hm_terrain_init(s, sc); /* H&M 2 entrenchment hexsides, hill-to-hill; H&M 4 over-stacking */
    hm_turn_begin(s, sc, ev);
    return 0;
}

static int legal(const void *st, const mk_scenario *sc, mk_action *out, int cap)
{
    const hm_state *s = st;
    if (s->over || cap <= 0)
        return 0;
    if (s->pending)
        return hm_choices(s, sc, out, cap);
    int n = 0, smax = hm_store_max(s, sc);
    for (int k = 0; k <= smax && n < cap; k++) {
        memset(&out[n], 0, sizeof out[n]);
        out[n].type = HA_END;
        out[n].flags = (uint8_t)k;
        out[n].unit = out[n].other = out[n].target = -1;
        n++;
    }
    n = hm_legal_moves(s, sc, out, n, cap, -1);
    n = hm_legal_combat(s, sc, out, n, cap, -1);
    n = hm_event_legal(s, sc, out, n, cap); /* 15 Random Events: the held result */
    return n;
}

/* Index in list[0..n) of an action equal to a, or -1. */
static int find_action(const mk_action *list, int n, const mk_action *a)
{
    for (int i = 0; i < n; i++)
        if (mk_action_equal(&list[i], a))
            return i;
    return -1;
}

/* 15 Command Range: more than three hexes (Woods, Swamp, Town count two)
 * from a leader of its nationality. */
static bool out_of_command(const hm_state *s, const mk_scenario *sc, int unit)
{
    const mk_grid *g = &sc->map.grid;
    int size = mk_grid_size(g);
    int8_t dist[HM_MAX_HEX];
    memset(dist, 99, sizeof dist);
    dist[s->u[unit].hex] = 0;
    for (int round = 0; round < 4; round++)
        for (int h = 0; h < size; h++) {
            if (dist[h] > 3)
                continue;
            mk_hex nb[6];
            mk_hex_neighbors(g, (mk_hex)h, nb);
            for (int d = 0; d < 6; d++) {
                if (nb[d] < 0)
                    continue;
                int t = hm_terrain(s, sc, nb[d]);
                int c = dist[h] + (t == HT_WOODS || t == HT_SWAMP || t == HT_TOWN ? 2 : 1);
                if (c < dist[nb[d]])
                    dist[nb[d]] = (int8_t)c;
            }
        }
    for (int i = 0; i < s->nunits; i++)
        if (sc->units[i].kind == HK_LEADER && s->u[i].hex >= 0 &&
            sc->units[i].side == sc->units[unit].side && s->u[i].nat == s->u[unit].nat &&
            dist[s->u[i].hex] <= 3)
            return false;
    return true;
}

static int perform(hm_state *s, const mk_scenario *sc, const mk_action *l, mk_events *ev);

static int apply_action(void *st, const mk_scenario *sc, const mk_action *a, mk_events *ev,
                        mk_error *err)
{
    hm_state *s = st;
    if (s->over)
        return mk_error_set(err, "illegal_action", "the game is over");
    mk_action list[MK_MAX_ACTIONS];
    int n = 0, found = -1;
    /* A unit's action is looked for first among that unit's actions alone
     * (the same generators, skipping the other units: a subsequence of
     * legal's list), which costs a few percent of the whole list; only if
     * it is not there is the whole list made, for the other paths and the
     * refusals below. Not while a decision is pending or a Random Event is
     * held: those lists are built from the whole one. */
    if (!s->pending && !s->rev.held && a->type != HA_END && a->unit >= 0 && a->unit < s->nunits) {
        n = hm_legal_moves(s, sc, list, 0, MK_MAX_ACTIONS, a->unit);
        n = hm_legal_combat(s, sc, list, n, MK_MAX_ACTIONS, a->unit);
        found = find_action(list, n, a);
    }
    if (found < 0) {
        n = legal(s, sc, list, MK_MAX_ACTIONS);
        found = find_action(list, n, a);
    }
    mk_action alt;
    if (found < 0 && !s->pending &&
        (a->type == HA_MOVE || a->type == HA_CHARGE || (a->type == HA_FORMATION && a->npath)) &&
        a->unit >= 0 && a->unit < s->nunits) {
        /* another valid path to a listed destination (hm_path_ok) */
        int k = sc->units[a->unit].kind, mr = hm_move_rate(s, sc, a->unit); /* 15 Events 4 */
        int maxlen = a->type == HA_MOVE        ? mr + ((a->flags & HF_BONUS) ? 1 : 0)
                     : a->type == HA_FORMATION ? mr - 1
                                               : s->ch.k[k].charge_range;
        for (int i = 0; i < n && found < 0; i++) {
            const mk_action *l = &list[i];
            if (l->type != a->type || l->unit != a->unit || l->flags != a->flags ||
                l->other != a->other || l->target != a->target || a->npath < 1 ||
                a->path[a->npath - 1] != l->path[l->npath - 1] || !hm_path_ok(s, sc, a, maxlen))
                continue;
            alt = *a;
            alt.cost = l->cost;
            list[i] = alt;
            found = i;
        }
    }
    if (found < 0) {
        if (s->pending)
            return mk_error_set(err, "illegal_action",
                                "a decision is pending: choose one of the %d listed choices", n);
        if (a->type != HA_END && a->unit >= 0 && a->unit < s->nunits &&
            sc->units[a->unit].side != s->active)
            return mk_error_set(err, "illegal_action", "H&M 5: %s is not the active side's",
                                sc->units[a->unit].id);
        if (a->unit >= 0 && a->unit < s->nunits && s->u[a->unit].acts)
            return mk_error_set(err, "illegal_action",
                                "H&M 6: each unit or leader takes a single action per turn");
        if (a->cost > s->cap)
            return mk_error_set(err, "illegal_action", "H&M 6: not enough CAP (%d left)", s->cap);
        return mk_error_set(
            err, "illegal_action",
            "not a legal action now (H&M 7-9: range, LOS, path, stacking or terrain)");
    }
    return perform(s, sc, &list[found], ev);
}

/* What an action does, once it is known to be legal: l is the action as
 * legal() lists it (its cost included). */
static int perform(hm_state *s, const mk_scenario *sc, const mk_action *l, mk_events *ev)
{
    s->head.actions++;
    if (s->pending) {
        hm_choose(s, sc, l, ev);
        return 0;
    }
    if (l->type == HA_END) {
        hm_end_turn(s, sc, l->flags, ev);
        return 0;
    }
    int u = l->unit;
    s->cap = (int8_t)(s->cap - l->cost);
    s->u[u].acts++;
    s->u[u].flags |= HU_ACTED;
    if (s->u[u].acts == 2)
        s->u[u].flags |= HU_TWICE;
    if (l->flags & HF_DISCOUNT)
        s->discount_used = 1;
    if (sc->units[u].kind == HK_VP) { /* H&M 11 Baggage: one hex */
        mk_event *b = mk_events_add(ev, "move");
        b->unit = (int16_t)u;
        b->from = s->u[u].hex;
        b->to = l->path[0];
        b->rule = "H&M 11 Baggage/Supply Train";
        s->u[u].hex = l->path[0];
        return 0;
    }
    mk_event *e = mk_events_add(ev, "activate");
    e->unit = (int16_t)u;
    e->points = l->cost;
    e->rule = l->flags & HF_DISCOUNT ? "H&M 6, 9: the Army Commander's one-CAP reduction" : "H&M 6";
    if (l->flags & HF_EVENT) /* 15 Random Events: the held result is used */
        hm_event_use(s, sc, l, ev);
    if (l->flags & HF_SUBORD) { /* 15 Subordinate Leadership */
        int d = mk_rng_d6(&s->head.rng);
        mk_event *r = mk_events_add(ev, "roll");
        r->purpose = "subordinate";
        r->rule = "H&M 15 Subordinate Leadership";
        r->unit = l->other;
        r->die = 6;
        mk_event_value(r, d);
        r->passed = (int16_t)(d <= s->u[l->other].mp);
        if (d > s->u[l->other].mp)
            s->cap--; /* pays the full cost */
    }
    bool is_unit = hm_is_unit(sc->units[u].kind);
    if (is_unit && (l->flags & HF_SECOND) &&
        !hm_morale(s, sc, u, 0, 0, -1, NULL, "second_order", ev, NULL, NULL))
        return 0; /* 15 Second Order: the CAP is wasted */
    bool moving = l->type == HA_MOVE || l->type == HA_SKIRMISH || l->type == HA_CHARGE ||
                  l->type == HA_FACE || /* 13 Facing: a turn; a formation change turns too */
                  (l->type == HA_FORMATION && (l->npath || HM_OPT(s, HO_FACING)));
    if (is_unit && moving && HM_OPT(s, HO_COMMAND_RANGE) && out_of_command(s, sc, u) &&
        !hm_morale(s, sc, u, 0, 0, -1, NULL, "command_range", ev, NULL, NULL)) {
        s->u[u].acts = 2;
        return 0;
    }
    if (is_unit && (l->type == HA_MOVE || l->type == HA_FORMATION || l->type == HA_FACE) &&
        HM_OPT(s, HO_LOCKED) && hm_adjacent_enemy(s, sc, s->u[u].hex, sc->units[u].side) &&
        !hm_morale(s, sc, u, 0, 0, -1, NULL, "locked_in_combat", ev, NULL, NULL)) {
        s->u[u].acts = 2;
        return 0;
    }
    if (l->flags & HF_LEADER) { /* 15 Leaders in Combat: the best leader in the hex */
        int best = -1;
        for (int i = 0; i < s->nunits; i++)
            if (sc->units[i].kind == HK_LEADER && s->u[i].hex == s->u[u].hex &&
                sc->units[i].side == s->active && s->u[i].nat == s->u[u].nat &&
                (best < 0 || s->u[i].mp > s->u[best].mp))
                best = i;
        s->lic = (int16_t)best;
    }
    switch (l->type) {
    case HA_MOVE:
        if (l->flags & HF_BONUS) { /* 15 Leader Bonus Movement */
            int best = -1;
            for (int i = 0; i < s->nunits; i++)
                if (sc->units[i].kind == HK_LEADER && s->u[i].start == s->u[u].start &&
                    s->u[i].start == s->u[u].hex && sc->units[i].side == s->active &&
                    s->u[i].nat == s->u[u].nat && (best < 0 || s->u[i].mp > s->u[best].mp))
                    best = i;
            int d = mk_rng_d6(&s->head.rng);
            mk_event *r = mk_events_add(ev, "roll");
            r->purpose = "leader_bonus";
            r->rule = "H&M 15 Leader Bonus Movement";
            r->unit = (int16_t)best;
            r->die = 6;
            mk_event_value(r, d);
            r->passed = (int16_t)(best >= 0 && d <= s->u[best].mp);
            if (!r->passed) {
                mk_action m = *l;
                m.npath = (uint8_t)(m.npath - 1);
                m.target = m.path[m.npath - 1];
                return hm_move_start(s, sc, &m, ev);
            }
        }
        return hm_move_start(s, sc, l, ev);
    case HA_FIRE:
    case HA_CLOSE:
        hm_combat_start(s, sc, l->type, u, l->target, ev);
        return 0;
    case HA_CHARGE:
        if (HM_OPT(s, HO_HI_STACKING)) {
            int in[HM_STACK_MAX], m = hm_units_in(s, sc, l->target, in), cls = 0;
            for (int i = 0; i < m && i < HM_STACK_MAX; i++)
                cls |= 1 << hm_class(sc->units[in[i]].kind);
            if ((cls & (1 << HC_INF)) && (cls & (1 << HC_HORSE)) &&
                hm_class(sc->units[u].kind) == HC_HORSE &&
                !hm_morale(s, sc, u, 0, 0, -1, NULL, "charge_mixed_hex", ev, NULL, NULL))
                return 0;
        }
        return hm_move_start(s, sc, l, ev);
    case HA_SKIRMISH:
        s->sk_unit = (int16_t)u;
        if (l->flags & HF_FIRE_FIRST) {
            s->sk_phase = 2;
            hm_combat_start(s, sc, HA_FIRE, u, l->target, ev);
        } else {
            s->sk_phase = 1;
            hm_move_start(s, sc, l, ev);
        }
        return 0;
    case HA_RALLY: {
        int ld = l->other;
        if (ld >= 0) { /* 15 Random Events 11: without a leader (-1) */
            s->u[ld].acts = 1;
            s->u[ld].flags |= HU_ACTED | HU_RALLIED;
        }
        s->u[u].mp++;
        s->u[u].flags |= HU_RALLIED;
        mk_event *r = mk_events_add(ev, "rally");
        r->unit = (int16_t)u;
        r->other = (int16_t)ld;
        r->mp = s->u[u].mp;
        r->rule = "H&M 9 Rally Action";
        return 0;
    }
    case HA_RESUPPLY:
        s->u[u].flags &= (uint8_t)~HU_AMMO;
        return 0;
    case HA_FORMATION: { /* 13 Line & Column: one point of movement */
        if (l->npath) /* with a move: changed first or last (move.c) */
            return hm_move_start(s, sc, l, ev);
        s->u[u].column = (int8_t)!s->u[u].column;
        s->u[u].flags |= HU_MOVED;
        mk_event *f = mk_events_add(ev, "formation");
        f->unit = (int16_t)u;
        f->text = s->u[u].column ? "column" : "line";
        f->rule = "H&M 13 Line & Column";
        /* 13 Facing: turning in place, any facing of the new formation */
        hm_face_prompt(s, sc, u, hm_face_parity(s, sc, u, s->u[u].column));
        return 0;
    }
    case HA_FACE: { /* 13 Facing: a Move activation that only turns in place */
        s->u[u].flags |= HU_MOVED;
        uint16_t m = hm_face_parity(s, sc, u, s->u[u].column && HM_OPT(s, HO_LINE_COLUMN));
        hm_face_prompt(s, sc, u, (uint16_t)(m & ~(1u << s->u[u].facing)));
        return 0;
    }
    }
    return 0;
}

/* apply and apply_listed: the action checked against legal()'s list
 * (apply_action) or taken as listed (perform), then what follows either. */
static int play_action(void *st, const mk_scenario *sc, const mk_action *a, mk_events *ev,
                       mk_error *err, bool checked)
{
    mk_events none;
    if (!ev) {
        mk_events_init(&none, NULL, 0);
        ev = &none;
    }
    int rc = checked ? apply_action(st, sc, a, ev, err) : perform(st, sc, a, ev);
    if (rc == 0)
        hm_event_settle(st); /* 15 Random Events: the action that used 6, 10, 12 is over */
#ifndef NDEBUG
    char why[200];
    if (rc == 0 && !hm_state_ok(st, sc, why, sizeof why)) {
        fprintf(stderr, "hm: state invariant broken: %s\n", why);
        assert(!"H&M state invariant broken");
    }
#endif
    return rc;
}

static int apply(void *st, const mk_scenario *sc, const mk_action *a, mk_events *ev, mk_error *err)
{
    return play_action(st, sc, a, ev, err, true);
}

/* mk_ruleset.apply_listed: a is one of legal(st)'s actions as listed, so
 * the search for it among the unit's actions (three quarters of an mcts
 * iteration's time on Fraustadt, perf) is skipped. Debug builds look for
 * it all the same and stop if it is not there. */
static int apply_listed(void *st, const mk_scenario *sc, const mk_action *a, mk_events *ev,
                        mk_error *err)
{
#ifndef NDEBUG
    mk_action list[MK_MAX_ACTIONS];
    int n = legal(st, sc, list, MK_MAX_ACTIONS), found = find_action(list, n, a);
    assert(found >= 0 && list[found].cost == a->cost && "apply_listed: not a listed action");
#endif
    return play_action(st, sc, a, ev, err, false);
}

static int to_move(const void *st)
{
    return ((const hm_state *)st)->to_move;
}
static int active(const void *st)
{
    return ((const hm_state *)st)->active;
}
static bool over(const void *st)
{
    return ((const hm_state *)st)->over != 0;
}

static uint64_t hash(const void *st, const mk_scenario *sc)
{
    const hm_state *s = st;
    return mk_hash_bytes(mk_head_hash(&s->head), (const char *)s + sizeof(mk_head),
                         sizeof *s - sizeof(mk_head));
}

/* mk_ruleset.prepare: the lists of hm_ext. */
static int prepare(mk_scenario *sc, mk_error *err)
{
    hm_ext *x = calloc(1, sizeof *x);
    if (!x) {
        mk_error_set(err, "scenario_invalid", "out of memory");
        return -1;
    }
    x->total = 1;
    for (int i = 0; i < sc->nunits; i++) {
        int kind = sc->units[i].kind;
        x->side[i] = (int8_t)sc->units[i].side;
        if (hm_may_ambush(kind)) /* sides are 0 and 1: check_scenario */
            x->amb[x->side[i]][x->namb[x->side[i]]++] = (int16_t)i;
        if (kind == HK_VP)
            x->marker[x->nmarker++] = (int16_t)i;
        else if (hm_is_unit(kind)) {
            x->unit[x->nunit++] = (int16_t)i;
            x->total += sc->units[i].mp_start;
        }
    }
    mk_hex_neighbor_table(&sc->map.grid, x->nb, HM_MAX_HEX);
    sc->ext = x;
    return 0;
}

static void release(mk_scenario *sc)
{
    free(sc->ext);
    sc->ext = NULL;
}

/* Material (MP on the map over all units' MP at set-up) plus 2 MP a VP
 * (H&M 10, hm_tally). mcts's rollouts call this for each of 20 candidates
 * a step; it was a fifth of a Fraustadt search while it scanned every
 * piece's scenario record three times (docs/ai.md, "Where Horse &
 * Musket's time goes"). */
static double evaluate(const void *st, const mk_scenario *sc, int side)
{
    const hm_state *s = st;
    if (s->over)
        return s->winner < 0 ? 0.0 : s->winner == side ? 1.0 : -1.0;
    const hm_ext *x = sc->ext;
    int mp[2], vp[2];
    hm_tally(s, sc, mp, vp);
    double e = (mp[side] + 2.0 * vp[side] - (mp[1 - side] + 2.0 * vp[1 - side])) / x->total;
    return e > 1 ? 1 : e < -1 ? -1 : e;
}

static json_t *hex_json(const mk_scenario *sc, int h)
{
    char b[MK_HEX_LABEL_MAX];
    return h >= 0 ? json_string(mk_hex_label(&sc->map.grid, (mk_hex)h, b)) : json_null();
}

static json_t *vp_json(int v2)
{
    return v2 % 2 ? json_real(v2 / 2.0) : json_integer(v2 / 2);
}

static const char *const pending_names[HP_COUNT] = {
    "none",          "seize_initiative", "ac_replacement", "ambush",   "reaction",
    "withdraw_hex",  "retreat",          "retarget",       "advance",  "skirmish_move",
    "skirmish_fire", "charge_momentum",  "r1_retreat",     "r1_order", "reroll",
    "facing",        "random_event_swamp", "random_event_unit", "hit",
    "displace_unit", "displace_hex",
};

static json_t *state_json(const void *st, const mk_scenario *sc)
{
    const hm_state *s = st;
    json_t *o = json_object();
    json_object_set_new(o, "ruleset", json_string("hm"));
    json_object_set_new(o, "scenario", json_string(sc->id));
    json_object_set_new(o, "turn", json_integer(s->turn));
    json_object_set_new(o, "turns", json_integer(s->turns));
    json_object_set_new(o, "active", json_string(sc->sides[s->active].id));
    json_object_set_new(o, "to_move", json_string(sc->sides[s->to_move].id));
    json_object_set_new(o, "phase",
                        json_string(s->over      ? "over"
                                    : s->pending ? "decision"
                                                 : "actions"));
    json_object_set_new(o, "points", json_integer(s->cap));
    json_object_set_new(o, "cap_roll", json_integer(s->cap_roll));
    json_object_set_new(o, "chart", json_string(chart_scale(sc)));
    json_t *units = json_array();
    for (int i = 0; i < s->nunits; i++) {
        const mk_sc_unit *su = &sc->units[i];
        json_t *u = json_object();
        json_object_set_new(u, "id", json_string(su->id));
        if (su->name[0])
            json_object_set_new(u, "name", json_string(su->name));
        json_object_set_new(u, "side", json_string(sc->sides[su->side].id));
        json_object_set_new(u, "kind", json_string(hm_kind_names[su->kind]));
        json_object_set_new(u, "hex", hex_json(sc, s->u[i].hex));
        if (su->kind == HK_LEADER) {
            json_object_set_new(u, "mp", json_integer(0));
            json_object_set_new(u, "mp_start", json_integer(0));
            json_object_set_new(u, "rating", json_integer(s->u[i].mp));
            json_object_set_new(u, "commander", json_boolean(s->ac[su->side] == i));
        } else {
            json_object_set_new(u, "mp", json_integer(s->u[i].hex >= 0 ? s->u[i].mp : 0));
            json_object_set_new(u, "mp_start", json_integer(su->mp_start));
            json_object_set_new(u, "vp_value", vp_json(s->u[i].vpv));
        }
        json_object_set_new(u, "acted", json_boolean(s->u[i].acts > 0));
        if (HM_OPT(s, HO_LINE_COLUMN) && hm_is_unit(su->kind))
            json_object_set_new(u, "formation", json_string(s->u[i].column ? "column" : "line"));
        if (HM_OPT(s, HO_FACING) && hm_is_unit(su->kind)) /* 13: degrees from map-up */
            json_object_set_new(u, "facing", json_integer(hm_face_deg(s->u[i].facing)));
        if (s->u[i].flags & HU_AMMO)
            json_object_set_new(u, "low_ammo", json_true());
        json_array_append_new(units, u);
    }
    json_object_set_new(o, "units", units);
    json_t *vp = json_object(), *stored = json_object(), *lost = json_object(), *sz = json_object();
    for (int i = 0; i < 2; i++) {
        json_object_set_new(vp, sc->sides[i].id, vp_json(hm_vp_now(s, sc, i)));
        json_object_set_new(stored, sc->sides[i].id, json_integer(s->stored[i]));
        json_object_set_new(lost, sc->sides[i].id, json_integer(s->leaders_lost[i]));
        json_object_set_new(sz, sc->sides[i].id, json_integer(s->seize_left[i]));
    }
    json_object_set_new(o, "vp", vp);
    json_object_set_new(o, "stored_cap", stored);
    json_object_set_new(o, "leaders_lost", lost);
    json_object_set_new(o, "seize_attempts_left", sz);
    if (HM_OPT(s, HO_REROLLS)) {
        json_t *rr = json_object();
        for (int i = 0; i < 2; i++)
            json_object_set_new(rr, sc->sides[i].id, json_integer(s->rerolls[i]));
        json_object_set_new(o, "rerolls_left", rr);
    }
    json_object_set_new(o, "first_this_turn", json_string(sc->sides[s->order].id));
    hm_event_json(s, sc, o); /* 15 Random Events */
    json_t *ov = json_array(); /* H&M 4: hexes still allowed to be over-stacked */
    for (int h = 0; h < mk_grid_size(&sc->map.grid) && h < HM_MAX_HEX; h++)
        if (hm_overstacked(s, h))
            json_array_append_new(ov, hex_json(sc, h));
    if (json_array_size(ov))
        json_object_set_new(o, "overstacked", ov);
    else
        json_decref(ov);
    if (s->pending) {
        json_t *p = json_object();
        json_object_set_new(p, "decision", json_string(pending_names[s->pending]));
        json_object_set_new(p, "side", json_string(sc->sides[s->decider].id));
        if (s->cb.on) {
            json_object_set_new(p, "attacker", json_string(hm_unit_id(sc, s->cb.attacker)));
            json_object_set_new(p, "hex", hex_json(sc, s->cb.hex));
            if (s->pending == HP_REACT || s->pending == HP_WD_HEX || s->pending == HP_RETREAT)
                json_object_set_new(p, "unit", json_string(hm_unit_id(sc, s->cb.def[s->cb.cur])));
            if (s->pending == HP_R1_RETREAT) { /* 15 Retreat in R1 Fire: the firer or a defender */
                int from;
                json_object_set_new(p, "unit",
                                    json_string(hm_unit_id(sc, hm_r1_retreater(s, &from))));
            }
            if (s->pending == HP_DISPLACE_UNIT || s->pending == HP_DISPLACE_HEX) {
                /* the retreating unit, where it goes, and who makes room */
                json_object_set_new(p, "unit", json_string(hm_unit_id(sc, s->cb.dsp_unit)));
                json_object_set_new(p, "to", hex_json(sc, s->cb.dsp_to));
                if (s->pending == HP_DISPLACE_HEX)
                    json_object_set_new(p, "displaced",
                                        json_string(hm_unit_id(sc, s->cb.dsp_pick)));
            }
        }
        if (s->pending == HP_REROLL) /* 15 Leader Re-Rolls: whose roll (an ambush's too) */
            json_object_set_new(p, "unit", json_string(hm_unit_id(sc, s->cb.rr_unit)));
        if (s->pending == HP_AMBUSH || s->pending == HP_FACE)
            json_object_set_new(p, "unit", json_string(hm_unit_id(sc, s->mv.unit)));
        json_object_set_new(o, "pending", p);
    } else {
        json_object_set_new(o, "pending", json_null());
    }
    json_object_set_new(o, "over", json_boolean(s->over));
    if (s->over) {
        mk_result r;
        hm_result(s, sc, &r);
        json_t *res = json_object();
        json_object_set_new(res, "winner",
                            r.winner >= 0 ? json_string(sc->sides[r.winner].id) : json_null());
        json_object_set_new(res, "level", json_string(r.level));
        json_object_set_new(res, "reason", json_string(r.reason));
        json_object_set_new(o, "result", res);
    } else {
        json_object_set_new(o, "result", json_null());
    }
    return o;
}

static const char *const type_names[] = {"",         "move",     "fire",      "close_combat",
                                         "charge",   "skirmish", "rally",     "choose",
                                         "end_turn", "resupply", "formation", "face"};
static const char *const word_names[] = {"",      "yes",           "no",    "withdraw",
                                         "stand", "countercharge", "first", "second"};
#define NWORDS 8

static json_t *action_json(const void *st, const mk_scenario *sc, const mk_action *a)
{
    const hm_state *s = st;
    const mk_grid *g = &sc->map.grid;
    json_t *o = json_object();
    char text[256], lb[MK_HEX_LABEL_MAX];
    int len = 0;
    text[0] = 0;
    int t = a->type >= HA_MOVE && a->type <= HA_FACE ? a->type : HA_END;
    json_object_set_new(o, "type", json_string(type_names[t]));
    if (t == HA_CHOOSE) {
        if (a->flags == HW_HEX) {
            json_object_set_new(o, "choice", hex_json(sc, a->target));
            len = snprintf(text, sizeof text, "%s %s", pending_names[s->pending],
                           mk_hex_label(g, (mk_hex)a->target, lb));
        } else if (a->flags == HW_FACE) { /* 13 Facing */
            int f = a->target;
            json_object_set_new(o, "choice", json_string("facing"));
            json_object_set_new(o, "facing", json_integer(hm_face_deg(f)));
            len = snprintf(text, sizeof text, "facing %d (%s)", hm_face_deg(f),
                           hm_face_column(f) ? "a vertex: Column" : "a hexside: Line");
        } else if (a->flags == HW_UNIT) {
            json_object_set_new(o, "choice", json_string(hm_unit_id(sc, a->other)));
            if (s->pending == HP_HIT_TIE)
                len = snprintf(text, sizeof text, "%s takes the hit (tied at %d MP, H&M 8)",
                               hm_unit_id(sc, a->other), s->u[a->other].mp);
            else if (s->pending == HP_DISPLACE_UNIT)
                len = snprintf(text, sizeof text, "%s makes room for %s (H&M 8 Displacement)",
                               hm_unit_id(sc, a->other), hm_unit_id(sc, s->cb.dsp_unit));
            else
                len = snprintf(text, sizeof text, "%s by %s", pending_names[s->pending],
                               hm_unit_id(sc, a->other));
        } else {
            const char *w = a->flags < NWORDS ? word_names[a->flags] : "?";
            json_object_set_new(o, "choice", json_string(w));
            len = snprintf(text, sizeof text, "%s: %s", pending_names[s->pending], w);
        }
    } else if (t == HA_END) {
        json_object_set_new(o, "store", json_integer(a->flags));
        len = snprintf(text, sizeof text, "End turn");
        if (a->flags)
            len += snprintf(text + len, sizeof text - len, ", storing %d CAP with the AC (H&M 9)",
                            a->flags);
    } else {
        if (t == HA_RALLY) {
            if (a->other >= 0) /* 15 Random Events 11: none */
                json_object_set_new(o, "leader", json_string(hm_unit_id(sc, a->other)));
            json_object_set_new(o, "unit", json_string(hm_unit_id(sc, a->unit)));
            len = snprintf(text, sizeof text, "Rally %s with %s", hm_unit_id(sc, a->unit),
                           a->other >= 0 ? hm_unit_id(sc, a->other) : "no leader");
        } else {
            json_object_set_new(o, "unit", json_string(hm_unit_id(sc, a->unit)));
            len = snprintf(text, sizeof text, "%s %s %s", type_names[t], hm_unit_id(sc, a->unit),
                           a->unit >= 0 ? mk_hex_label(g, (mk_hex)s->u[a->unit].hex, lb) : "-");
            if (a->npath) {
                json_t *p = json_array();
                for (int i = 0; i < a->npath && i < MK_PATH_MAX; i++) {
                    mk_hex_label(g, (mk_hex)a->path[i], lb);
                    json_array_append_new(p, json_string(lb));
                    len += snprintf(text + len, sizeof text - len, "-%s", lb);
                }
                json_object_set_new(o, "path", p);
            }
            if (t == HA_FIRE || t == HA_CLOSE || t == HA_CHARGE ||
                (t == HA_SKIRMISH && (a->flags & HF_FIRE_FIRST))) {
                json_object_set_new(o, "target", hex_json(sc, a->target));
                len += snprintf(text + len, sizeof text - len, " at %s",
                                mk_hex_label(g, (mk_hex)a->target, lb));
            }
            if (t == HA_SKIRMISH)
                json_object_set_new(o, "fire_first", json_boolean(a->flags & HF_FIRE_FIRST));
            if (t == HA_FORMATION && a->npath) { /* 13 Line & Column inside a move */
                json_object_set_new(o, "form_first", json_boolean(a->flags & HF_FORM_FIRST));
                len += snprintf(text + len, sizeof text - len,
                                a->flags & HF_FORM_FIRST ? " (formation first)"
                                                         : " (formation last)");
            }
        }
        if (a->flags & HF_DISCOUNT) {
            json_object_set_new(o, "discount", json_true());
            len += snprintf(text + len, sizeof text - len, " (AC -1 CAP)");
        }
        if (a->flags & HF_SECOND) {
            json_object_set_new(o, "second", json_true());
            len += snprintf(text + len, sizeof text - len, " (second order)");
        }
        if (a->flags & HF_BONUS) {
            json_object_set_new(o, "bonus", json_true());
            len += snprintf(text + len, sizeof text - len, " (leader bonus hex on a d6)");
        }
        if (a->flags & HF_LEADER) {
            json_object_set_new(o, "leader_rolls", json_true());
            len += snprintf(text + len, sizeof text - len, " (leader rolls a die)");
        }
        if ((a->flags & HF_SUBORD) && t != HA_RALLY) {
            json_object_set_new(o, "subordinate", json_string(hm_unit_id(sc, a->other)));
            len += snprintf(text + len, sizeof text - len, " (subordinate %s)",
                            hm_unit_id(sc, a->other));
        }
        if (a->flags & HF_EVENT) { /* 15 Random Events: uses the held result */
            json_object_set_new(o, "event", json_true());
            len += snprintf(text + len, sizeof text - len, " (random event %d)", s->rev.held);
        }
    }
    snprintf(text + len, sizeof text - len, " [%d CAP]", a->cost);
    json_object_set_new(o, "text", json_string(text));
    json_object_set_new(o, "cost", json_integer(a->cost));
    return o;
}

static int parse_unit(const mk_scenario *sc, json_t *obj, const char *key, int16_t *out,
                      mk_error *err)
{
    json_t *v = json_object_get(obj, key);
    if (!json_is_string(v))
        return mk_error_set(err, "bad_arg", "action.%s: a unit id is needed", key);
    int i = mk_scenario_unit(sc, json_string_value(v));
    if (i < 0)
        return mk_error_set(err, "bad_arg", "action.%s: no unit '%s'", key, json_string_value(v));
    *out = (int16_t)i;
    return 0;
}

static int parse_hex(const mk_scenario *sc, json_t *v, const char *where, int16_t *out,
                     mk_error *err)
{
    char msg[160];
    mk_hex h;
    if (!json_is_string(v))
        return mk_error_set(err, "bad_arg", "action.%s: a hex label is needed", where);
    if (mk_hex_parse(&sc->map.grid, json_string_value(v), &h, msg, sizeof msg))
        return mk_error_set(err, "bad_arg", "action.%s: %s", where, msg);
    *out = h;
    return 0;
}

static int action_parse(const void *st, const mk_scenario *sc, json_t *obj, mk_action *out,
                        mk_error *err)
{
    const hm_state *s = st;
    memset(out, 0, sizeof *out);
    out->unit = out->other = out->target = -1;
    json_t *t = json_object_get(obj, "type");
    if (!json_is_object(obj) || !json_is_string(t))
        return mk_error_set(err, "bad_arg", "action: an object with a \"type\" is needed");
    const char *type = json_string_value(t);
    int ty = 0;
    for (int i = HA_MOVE; i <= HA_FACE; i++)
        if (strcmp(type, type_names[i]) == 0)
            ty = i;
    if (!ty)
        return mk_error_set(err, "bad_arg", "action.type: unknown type '%s'", type);
    out->type = (uint8_t)ty;
    if (ty == HA_END) {
        json_t *st2 = json_object_get(obj, "store");
        out->flags = (uint8_t)(json_is_integer(st2) ? json_integer_value(st2) : 0);
        return 0;
    }
    if (ty == HA_CHOOSE) {
        json_t *c = json_object_get(obj, "choice");
        if (!json_is_string(c))
            return mk_error_set(err, "bad_arg", "action.choice: a hex, unit id or word is needed");
        const char *v = json_string_value(c);
        if (strcmp(v, "facing") == 0) { /* 13 Facing: "facing": degrees */
            json_t *f = json_object_get(obj, "facing");
            json_int_t d = json_is_integer(f) ? json_integer_value(f) : -1;
            if (d < 0 || d >= 360 || d % 30)
                return mk_error_set(err, "bad_arg",
                                    "action.facing: degrees clockwise from map-up, 0-330, a "
                                    "multiple of 30");
            out->flags = HW_FACE;
            out->target = (int16_t)(d / 30);
            return 0;
        }
        for (int i = 1; i < NWORDS; i++)
            if (strcmp(v, word_names[i]) == 0) {
                out->flags = (uint8_t)i;
                return 0;
            }
        if (s->pending == HP_AMBUSH || s->pending == HP_EVENT_UNIT ||
            s->pending == HP_HIT_TIE || s->pending == HP_DISPLACE_UNIT) {
            out->flags = HW_UNIT;
            return parse_unit(sc, obj, "choice", &out->other, err);
        }
        out->flags = HW_HEX;
        return parse_hex(sc, c, "choice", &out->target, err);
    }
    if (json_is_true(json_object_get(obj, "event")))
        out->flags |= HF_EVENT; /* 15 Random Events */
    if (ty == HA_RALLY) {
        if (parse_unit(sc, obj, "unit", &out->unit, err))
            return -1;
        if ((out->flags & HF_EVENT) && !json_object_get(obj, "leader"))
            return 0; /* 15 Random Events 11: without a leader */
        return parse_unit(sc, obj, "leader", &out->other, err);
    }
    if (parse_unit(sc, obj, "unit", &out->unit, err))
        return -1;
    json_t *p = json_object_get(obj, "path");
    if (p) {
        if (!json_is_array(p) || json_array_size(p) < 1 || json_array_size(p) > MK_PATH_MAX)
            return mk_error_set(err, "bad_arg", "action.path: a list of 1 to %d hex labels",
                                MK_PATH_MAX);
        for (size_t i = 0; i < json_array_size(p); i++) {
            char where[32];
            snprintf(where, sizeof where, "path[%zu]", i);
            if (parse_hex(sc, json_array_get(p, i), where, &out->path[i], err))
                return -1;
        }
        out->npath = (uint8_t)json_array_size(p);
        out->target = out->path[out->npath - 1];
    }
    if (json_object_get(obj, "target") &&
        parse_hex(sc, json_object_get(obj, "target"), "target", &out->target, err))
        return -1;
    if (json_is_true(json_object_get(obj, "discount")))
        out->flags |= HF_DISCOUNT;
    if (json_is_true(json_object_get(obj, "second")))
        out->flags |= HF_SECOND;
    if (json_is_true(json_object_get(obj, "fire_first")))
        out->flags |= HF_FIRE_FIRST;
    if (ty == HA_FORMATION && json_is_true(json_object_get(obj, "form_first")))
        out->flags |= HF_FORM_FIRST;
    if (json_is_true(json_object_get(obj, "bonus")))
        out->flags |= HF_BONUS;
    if (json_is_true(json_object_get(obj, "leader_rolls")))
        out->flags |= HF_LEADER;
    if (json_object_get(obj, "subordinate")) {
        if (parse_unit(sc, obj, "subordinate", &out->other, err))
            return -1;
        out->flags |= HF_SUBORD;
    }
    if (ty == HA_RESUPPLY || ty == HA_FACE || (ty == HA_FORMATION && !out->npath))
        out->target = -1;
    return 0;
}

const mk_ruleset mk_hm_ruleset = {
    .id = "hm",
    .name = "Horse & Musket: Dawn of an Era",
    .state_size = sizeof(hm_state),
    .terrains = hm_terrain_names,
    .nterrains = HT_COUNT,
    .kinds = hm_kind_names,
    .nkinds = HK_COUNT,
    .options = hm_options,
    .noptions = NOPTIONS,
    .check_scenario = check_scenario,
    .prepare = prepare,
    .release = release,
    .check_options = check_options,
    .init = init,
    .legal = legal,
    .apply = apply,
    .apply_listed = apply_listed,
    .to_move = to_move,
    .active = active,
    .over = over,
    .result = hm_result,
    .hash = hash,
    .evaluate = evaluate,
    .ai_tree_depth = 1, /* flat: docs/ai.md, Horse & Musket (more tree lost strength) */
    .ai_rollout_k = 20, /* rollout steps the best of 20: docs/ai.md, candidates per step */
    .state_json = state_json,
    .action_json = action_json,
    .action_parse = action_parse,
};
