/* game.c - the Monmouth (BAR) ruleset: its table, the scenario data it
 * prepares once (map, charts, orders of battle, series numbers), the state
 * helpers the other modules share, and the JSON views.
 *
 * A game turn (Monmouth 1.2d: 20 minutes) is a sequence of activations: the
 * side whose turn it is picks one of its Commands (2.4a: a Wing Activation
 * gives two), its leader rolls for Initiative (6.2: special results on the
 * Initiative columns), and its units move, then fire, then close (Series
 * Movement, Fire Combat and Close Combat Segments). After each activation
 * the End Turn marker moves; the turn ends as turn.c says. See bar_int.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/catalog.h"
#include "rules/bar/bar_int.h"

const char *const bar_kind_names[BK_COUNT] = {"infantry", "cavalry", "artillery", "leader"};

int bar_other(int side) { return 1 - side; }

const char *bar_pid(const mk_scenario *sc, int i)
{
    return i >= 0 && i < sc->nunits ? sc->units[i].id : "-";
}

mk_event *bar_ev(mk_events *ev, const char *type, const char *rule)
{
    mk_event *e = mk_events_add(ev, type);
    e->rule = rule;
    return e;
}

/* A reaction offered against unit i and declined (Opportunity Fire,
 * Opportunity Charge, Countercharge, Retreat Before Close Combat): logged,
 * so that every choice, the computer's too, reads in the event log with its
 * rule (docs/ai.md). The decider is i's enemy; `other` is i. */
mk_event *bar_declined(const mk_scenario *sc, int i, mk_hex hex, const char *what, const char *rule,
                       mk_events *ev)
{
    mk_event *e = mk_events_decline(ev, -1, hex, what, rule);
    e->other = (int16_t)i;
    e->side = (int16_t)bar_other(bar_x(sc)->p[i].side);
    return e;
}

/* --- series numbers ------------------------------------------------------ */

int bar_series_load(bar_series *out, const char *path, mk_error *err)
{
    char buf[512];
    json_t *root = bar_data_read(&path, "series.json", buf, sizeof buf, err);
    if (!root)
        return -1;
    memset(out, 0, sizeof *out);
    static const struct { const char *key; size_t off; int lo, hi, scale; } ints[] = {
        {"er_scale", offsetof(bar_series, er_scale), 1, 20, 1},
        {"leader_mp", offsetof(bar_series, leader_mp_half), 1, 30, 2},
        {"formation_change_mp", offsetof(bar_series, form_half), 0, 10, 2},
        {"hook_mp", offsetof(bar_series, hook_half), 0, 10, 2},
        {"hook_one_arm_sps", offsetof(bar_series, hook_arm_sps), 0, 6, 1},
        {"limber_mp", offsetof(bar_series, limber_half), 0, 10, 2},
        {"facing_change_mp", offsetof(bar_series, face_half), 0, 10, 2},
        {"out_of_command_mp_pct", offsetof(bar_series, ooc_mp_pct), 0, 100, 1},
        {"end_turn_pct", offsetof(bar_series, end_turn_pct), 1, 100, 1},
        {"cc_disordered", offsetof(bar_series, cc_disordered), -9, 9, 1},
        {"cc_shaken", offsetof(bar_series, cc_shaken), -9, 9, 1},
        {"cc_attack_column", offsetof(bar_series, cc_attack_column), -9, 9, 1},
        {"cc_leader", offsetof(bar_series, cc_leader), 0, 1, 1},
        {"cc_charge", offsetof(bar_series, cc_charge), -9, 9, 1},
        {"cc_countercharged", offsetof(bar_series, cc_countercharged), -9, 9, 1},
        {"pursuit_pp_per_sp", offsetof(bar_series, pursuit_pp_per_sp), 0, 20, 1},
        {"fire_disordered_halved", offsetof(bar_series, fire_disordered_halved), 0, 1, 1},
    };
    static const struct { const char *key; size_t off; } letters[] = {
        {"rally_letter", offsetof(bar_series, rally_letter)},
        {"recover_letter", offsetof(bar_series, recover_letter)},
        {"cc_letter", offsetof(bar_series, cc_letter)},
    };
    int rc = -1;
    const char *key;
    json_t *v;
    json_object_foreach(root, key, v) {
        bool known = !strcmp(key, "about") || !strcmp(key, "source") || !strcmp(key, "estimate") ||
                     !strcmp(key, "rout_hexes");
        for (size_t k = 0; k < sizeof ints / sizeof ints[0]; k++)
            known |= !strcmp(key, ints[k].key);
        for (size_t k = 0; k < sizeof letters / sizeof letters[0]; k++)
            known |= !strcmp(key, letters[k].key);
        if (!known) {
            mk_error_set(err, "scenario_invalid", "%s: %s: unknown field", path, key);
            goto done;
        }
    }
    out->estimate = json_is_true(json_object_get(root, "estimate"));
    for (size_t k = 0; k < sizeof ints / sizeof ints[0]; k++) {
        json_t *x = json_object_get(json_object_get(root, ints[k].key), "value");
        double d = json_is_number(x) ? json_number_value(x) * ints[k].scale : NAN;
        if (!(d >= ints[k].lo * ints[k].scale && d <= ints[k].hi * ints[k].scale) || d != floor(d)) {
            mk_error_set(err, "scenario_invalid", "%s: %s.value: a number %d..%d%s needed", path,
                         ints[k].key, ints[k].lo, ints[k].hi,
                         ints[k].scale == 2 ? " in steps of 0.5" : "");
            goto done;
        }
        *((int8_t *)out + ints[k].off) = (int8_t)d;
    }
    for (size_t k = 0; k < sizeof letters / sizeof letters[0]; k++) {
        json_t *x = json_object_get(json_object_get(root, letters[k].key), "value");
        const char *t = json_string_value(x);
        if (!t || strlen(t) != 1 || t[0] < 'A' || t[0] > 'Z') {
            mk_error_set(err, "scenario_invalid", "%s: %s.value: one letter A-Z needed", path,
                         letters[k].key);
            goto done;
        }
        *((char *)out + letters[k].off) = t[0];
    }
    json_t *rh = json_object_get(json_object_get(root, "rout_hexes"), "value");
    if (json_array_size(rh) != 2 || !json_is_integer(json_array_get(rh, 0)) ||
        !json_is_integer(json_array_get(rh, 1))) {
        mk_error_set(err, "scenario_invalid", "%s: rout_hexes.value: two integers needed", path);
        goto done;
    }
    for (int k = 0; k < 2; k++)
        out->rout_hexes[k] = (int8_t)json_integer_value(json_array_get(rh, (size_t)k));
    rc = 0;
done:
    json_decref(root);
    return rc;
}

/* --- scenario preparation ----------------------------------------------- */

static int fail(mk_error *err, const char *fmt, const char *a, const char *b)
{
    return mk_error_set(err, "scenario_invalid", fmt, a, b);
}

static int check_scenario(const mk_scenario *sc, mk_error *err)
{
    json_t *n = json_object_get(sc->json, "bar_scenario");
    if (!json_is_integer(n) || json_integer_value(n) < 1 || json_integer_value(n) > 4)
        return fail(err, "%s: bar_scenario: the Monmouth scenario 1-4 is needed%s", sc->source, "");
    if (sc->nsides != 2 || strcmp(sc->sides[0].id, "american") || strcmp(sc->sides[1].id, "british"))
        return fail(err, "%s: sides: \"american\" then \"british\"%s", sc->source, "");
    if (sc->map.grid.orient != MK_FLAT)
        return fail(err, "%s: map: the Monmouth map is flat-topped%s", sc->source, "");
    return 0;
}

static int face_of(json_t *u, int def)
{
    json_t *f = json_object_get(u, "facing");
    if (!json_is_integer(f))
        return def;
    int d = (int)json_integer_value(f);
    return d >= 0 && d < 360 && d % 30 == 0 ? d / 30 : -1;
}

static int form_of(const char *name)
{
    for (int f = 0; f < BAR_NFORM; f++)
        if (name && !strcmp(bar_formation_name(f), name))
            return f;
    return -1;
}

/* The option bar.deploy (Monmouth 7.xb-c): piece i's "deploy" hexes (a
 * list of hex labels on the map, its "hex" among them; not for a
 * reinforcement) into x->dep, and for a leader placed "with any unit of
 * his Command" (data/bar/scenarios/) that Command in x->dep_with. */
static int deploy_of(const mk_scenario *sc, bar_ext *x, int i, json_t *u, const char *path, mk_error *err)
{
    x->dep_with[i] = -1;
    json_t *d = json_object_get(u, "deploy");
    if (!d)
        return 0;
    if (!json_is_array(d) || json_array_size(d) < 1)
        return fail(err, "%s: %s.deploy: a list of hex labels", sc->source, path);
    if (json_object_get(u, "arrive"))
        return fail(err, "%s: %s.deploy: a reinforcement deploys by entering (Monmouth 7.0c)", sc->source, path);
    x->dep_at[i] = x->ndep;
    bool has = false;
    for (size_t k = 0; k < json_array_size(d); k++) {
        char e2[120], at[80];
        mk_hex h;
        const char *l = json_string_value(json_array_get(d, k));
        snprintf(at, sizeof at, "%s.deploy[%d]", path, (int)k);
        if (!l || mk_hex_parse(&sc->map.grid, l, &h, e2, sizeof e2) < 0)
            return mk_error_set(err, "scenario_invalid", "%s: %s: %s", sc->source, at, l ? e2 : "a hex label");
        if (x->ndep >= BAR_MAX_DEPLOY)
            return fail(err, "%s: %s: too many deploy hexes in the scenario", sc->source, at);
        x->dep[x->ndep++] = h;
        has |= h == sc->units[i].hex;
    }
    if (!has)
        return fail(err, "%s: %s.deploy: the piece's \"hex\" must be one of them", sc->source, path);
    x->dep_n[i] = (int16_t)(x->ndep - x->dep_at[i]);
    const bar_pinfo *p = &x->p[i];
    for (int k = 0; p->kind == BK_LEADER && k < x->scen.nplaces; k++) {
        const bar_place *pl = &x->scen.place[k];
        if (pl->leader == p->leader && pl->at == BAR_AT_WITH && pl->variant == p->variant)
            x->dep_with[i] = (int16_t)(pl->with_org >= 0 ? pl->with_org : pl->with_side >= 0 ? BAR_DEP_SIDE : -1);
    }
    return 0;
}

static int prepare(mk_scenario *sc, mk_error *err)
{
    bar_ext *x = calloc(1, sizeof *x);
    if (!x)
        return mk_error_set(err, "scenario_invalid", "out of memory");
    sc->ext = x;
    x->scenario = (int)json_integer_value(json_object_get(sc->json, "bar_scenario"));
    if (bar_oob_load(&x->oob, NULL, err) || bar_scen_load(&x->scen, &x->oob, x->scenario, NULL, err) ||
        bar_charts_load(&x->ch, NULL, err) || bar_series_load(&x->se, NULL, err) ||
        bar_loss_counters_load(&x->lc, NULL, err))
        return -1;
    x->west_limit_col = bar_scen_switch(&x->scen, "west_limit_column", -1);
    x->initial_limits = bar_scen_switch(&x->scen, "british_initial_limits", 0) != 0;
    x->sw_clinton = bar_scen_switch(&x->scen, "clinton_commands_independents", 0) != 0;
    x->sw_lee = bar_scen_switch(&x->scen, "lee_detachment", 0) != 0;
    x->sw_laf = bar_scen_switch(&x->scen, "lafayette_extends", 0) != 0;
    x->sw_ste = bar_scen_switch(&x->scen, "steuben_extends", 0) != 0;
    x->sw_nj = bar_scen_switch(&x->scen, "nj_brigade_holds", 0) != 0;
    x->sw_exit_west = bar_scen_switch(&x->scen, "american_exit_west", 0) != 0;
    x->sw_off_map = bar_scen_switch(&x->scen, "off_map_movement", 0) != 0;
    x->sw_det[BAR_AMERICAN] = bar_scen_switch(&x->scen, "american_detachments", 0) != 0;
    x->sw_det[BAR_BRITISH] = bar_scen_switch(&x->scen, "british_detachments", 0) != 0;
    x->sw_guard_turn = bar_scen_switch(&x->scen, "baggage_guard_turn", -1);
    x->sw_relief_turn = bar_scen_switch(&x->scen, "army_morale_relief", -1);
    x->pc_lee = (int16_t)mk_scenario_unit(sc, "LEE/GW");
    x->pc_gw = (int16_t)mk_scenario_unit(sc, "GW");
    x->pc_way = (int16_t)mk_scenario_unit(sc, "WAY/LEE");
    x->pc_laf = (int16_t)mk_scenario_unit(sc, "LAF/LEE");
    x->pc_ste = (int16_t)mk_scenario_unit(sc, "STE/GW");
    x->org_jc = (int16_t)bar_oob_find_org(&x->oob, BAR_BRITISH, "JC");
    x->pc_art[0] = (int16_t)mk_scenario_unit(sc, "KNO/GW");     /* 3.2b C */
    x->pc_art[1] = (int16_t)mk_scenario_unit(sc, "duPM/GRE");   /* 3.2b D */
    x->pc_art[2] = (int16_t)mk_scenario_unit(sc, "PAT/HC");     /* 4.2b D */
    x->org_gre = (int16_t)bar_oob_find_org(&x->oob, BAR_AMERICAN, "GRE");
    x->org_lc = (int16_t)bar_oob_find_org(&x->oob, BAR_BRITISH, "LC");
    x->org_lee = (int16_t)bar_oob_find_org(&x->oob, BAR_AMERICAN, "LEE");
    if (bar_map_parse(&x->map, &sc->map.grid, json_object_get(sc->json, "map"), err))
        return -1;
    x->first_turn = bar_scenario_first_turn(x->scenario);
    x->last_turn = bar_scenario_last_turn(x->scenario);
    x->first_night = x->last_turn + 1;   /* 7.4a G: the first Night turn */
    for (int k = x->last_turn; k >= x->first_turn; k--)
        if (bar_light_of(k) == BAR_NIGHT)
            x->first_night = k;
    x->victory_turn = bar_scenario_victory_turn(x->scenario);
    if (sc->turns != x->last_turn - x->first_turn + 1) {
        char t[16];
        snprintf(t, sizeof t, "%d", x->last_turn - x->first_turn + 1);
        return fail(err, "%s: turns: scenario needs %s turns (Monmouth 7.x A)", sc->source, t);
    }
    mk_hex_parse(&sc->map.grid, "W0201", &x->home[BAR_AMERICAN], NULL, 0);
    mk_hex_parse(&sc->map.grid, "E3915", &x->home[BAR_BRITISH], NULL, 0);
    bar_eval_prepare(x, &sc->map.grid);   /* after the rally hexes */
    for (int o = 0; o < BAR_OOB_MAX_ORGS; o++)
        x->org_leader[o] = -1;
    x->army_leader[0] = x->army_leader[1] = -1;
    if (sc->nunits > BAR_MAX_PIECES) {
        char n[16];
        snprintf(n, sizeof n, "%d", BAR_MAX_PIECES);
        return fail(err, "%s: units: at most %s pieces in a Monmouth scenario", sc->source, n);
    }
    x->npieces = sc->nunits;
    for (int i = 0; i < sc->nunits; i++) {
        json_t *u = mk_scenario_unit_json(sc, i);
        bar_pinfo *p = &x->p[i];
        char path[48];
        snprintf(path, sizeof path, "units[%d]", i);
        p->unit = p->leader = p->org = p->owner = -1;
        p->arrive = -1;
        p->entry = MK_NO_HEX;
        p->entry_mp_half = -1;
        p->side = (int8_t)sc->units[i].side;
        p->kind = (int8_t)sc->units[i].kind;
        if (p->kind == BK_LEADER) {
            int l = bar_oob_find_leader(&x->oob, sc->units[i].id);
            if (l < 0)
                return fail(err, "%s: %s.id: not a leader of data/bar/oob.json", sc->source, path);
            const bar_leader *L = &x->oob.leader[l];
            p->leader = (int16_t)l;
            p->role = L->role;
            p->cr = L->command_rating;
            p->initiative = L->initiative;
            p->range = L->command_range;
            p->er_bonus = L->er_bonus;
            p->cv_bonus = L->cv_bonus;
            p->wan = L->wan;
            p->loss_value = L->loss_value;
            p->loss_set = L->loss_set;
            p->mp_half = 0;
            if (L->leads >= 0) {
                p->org = L->leads;
                if (x->oob.org[L->leads].kind != BAR_ORG_ARMY &&
                    x->oob.org[L->leads].kind != BAR_ORG_WING &&
                    x->oob.org[L->leads].kind != BAR_ORG_DETACHMENT)
                    x->org_leader[L->leads] = (int16_t)i;
            }
            if (L->role == BAR_LR_ARMY)
                x->army_leader[p->side] = (int16_t)i;
        } else {
            int un = bar_oob_find_unit(&x->oob, sc->units[i].id);
            if (un < 0)
                return fail(err, "%s: %s.id: not a unit of data/bar/oob.json", sc->source, path);
            const bar_unit *U = &x->oob.unit[un];
            p->unit = (int16_t)un;
            p->type = U->type;
            p->fire_row = U->fire_row;
            p->nation = U->nation;
            p->sp = U->sp;
            p->er = U->er;
            p->cv = U->cv;
            p->mp_half = U->mp_half;
            p->skirmish = U->skirmish;
            p->mode = U->mode;
            /* Independents: the text's, the Loyalist Corps and Flank
             * Guards (groups), and units directly under a Wing or the Army
             * (Lt/COR): they activate with a Command (Series 6.4) */
            p->independent = U->independent || U->command < 0 ||
                             (x->oob.org[U->command].kind != BAR_ORG_COMMAND &&
                              x->oob.org[U->command].kind != BAR_ORG_INDEPENDENT_COMMAND);
            p->org = U->command;
            int want = U->type == BAR_UT_CAVALRY ? BK_CAVALRY
                       : U->type >= BAR_UT_ART_FIELD ? BK_ARTILLERY
                                                      : BK_INFANTRY;
            if (p->kind != want)
                return mk_error_set(err, "scenario_invalid", "%s: %s.kind: the order of battle makes it %s",
                                    sc->source, path, bar_kind_names[want]);
            /* a scenario may override the order of battle's values */
            json_t *v;
            if ((v = json_object_get(u, "sp")) && json_is_integer(v))
                p->sp = (int8_t)json_integer_value(v);
            if (sc->units[i].mp)
                p->mp_half = (int8_t)(2 * sc->units[i].mp);
        }
        json_t *vr = json_object_get(u, "variant");
        if (vr && (!json_is_integer(vr) || json_integer_value(vr) != 1))
            return fail(err, "%s: %s.variant: 1 (the scenario's variant, 7.1a C) needed", sc->source, path);
        p->variant = (int8_t)(vr ? 1 : 0);
        json_t *f = json_object_get(u, "formation");
        p->form0 = (int8_t)(p->kind == BK_LEADER ? BAR_FM_LINE
                            : f                  ? form_of(json_string_value(f))
                            : p->kind == BK_CAVALRY  ? BAR_FM_CAVALRY
                            : p->kind == BK_ARTILLERY ? BAR_FM_ARTILLERY
                                                      : BAR_FM_LINE);
        if (p->form0 < 0)
            return fail(err, "%s: %s.formation: unknown formation", sc->source, path);
        json_t *hk = json_object_get(u, "hook");
        if (hk && (p->form0 != BAR_FM_HOOK || !json_is_string(hk) ||
                   (strcmp(json_string_value(hk), "left") && strcmp(json_string_value(hk), "right"))))
            return fail(err, "%s: %s.hook: \"left\" or \"right\", for a unit in Hook only", sc->source, path);
        p->hook_left0 = hk && !strcmp(json_string_value(hk), "left");
        if (p->form0 == BAR_FM_HOOK &&
            (p->kind != BK_INFANTRY || !bar_scen_switch(&x->scen, "line_may_hook", 0) ||
             json_object_get(u, "arrive")))
            /* 7.1a B, 7.2a B, 7.3a B, 7.4a B: units that set up in Line
             * may be in Hook, where the scenario says so (line_may_hook) */
            return fail(err, "%s: %s.formation: Hook only for infantry set up in Line where the "
                             "scenario allows it (line_may_hook, Monmouth 7.1a B)", sc->source, path);
        p->face0 = (int8_t)face_of(u, p->side == BAR_AMERICAN ? 3 : 9);
        if (p->face0 < 0)
            return fail(err, "%s: %s.facing: degrees 0-330 in steps of 30 needed", sc->source, path);
        json_t *ar = json_object_get(u, "arrive");
        if (ar) {
            int turn = -1;
            const char *t = json_string_value(ar);
            for (int k = x->first_turn; t && k <= x->last_turn; k++) {
                char b[40];
                bar_turn_format(k, b, sizeof b);
                if (!strcmp(b, t))
                    turn = k;
            }
            if (turn < 0)
                return fail(err, "%s: %s.arrive: a turn of the scenario (\"10:20 AM 28 June\") needed",
                            sc->source, path);
            p->arrive = (int16_t)turn;
            mk_hex e = MK_NO_HEX;
            const char *el = json_string_value(json_object_get(u, "entry"));
            if (!el || mk_hex_parse(&sc->map.grid, el, &e, NULL, 0) < 0)
                return fail(err, "%s: %s.entry: the entry hex of a reinforcement is needed", sc->source,
                            path);
            p->entry = e;
            json_t *em = json_object_get(u, "entry_mp");
            if (em)
                p->entry_mp_half = (int8_t)(json_number_value(em) * 2);
        } else if (sc->units[i].hex == MK_NO_HEX) {
            return fail(err, "%s: %s: neither a hex nor an arrival (\"arrive\", \"entry\")", sc->source, path);
        }
        if (deploy_of(sc, x, i, u, path, err))
            return -1;
    }
    /* 2.2d E: each regimental gun's owning regiment, as a piece */
    for (int i = 0; i < sc->nunits; i++) {
        bar_pinfo *p = &x->p[i];
        int own = p->unit >= 0 ? x->oob.unit[p->unit].owner : -1;
        for (int j = 0; own >= 0 && j < sc->nunits; j++)
            if (x->p[j].unit == own)
                p->owner = (int16_t)j;
    }
    return 0;
}

static void release(mk_scenario *sc)
{
    free(sc->ext);
    sc->ext = NULL;
}

/* --- shared helpers ------------------------------------------------------ */

/* Fills o from s (bar_int.h: the chains in increasing piece order). */
void bar_occ_build(bar_occ *o, const bar_state *s, const mk_scenario *sc)
{
    memset(o->used, 0, sizeof o->used);
    memset(o->tused, 0, sizeof o->tused);
    for (int i = s->npieces - 1; i >= 0; i--) {
        mk_hex h = s->pc[i].hex;
        if (h < 0 || h >= MK_MAX_HEX)
            continue;
        uint64_t bit = 1ull << (h & 63);
        o->next[i] = (int16_t)(o->used[h >> 6] & bit ? o->first[h] : -1);
        o->first[h] = (int16_t)i;
        o->used[h >> 6] |= bit;
        mk_hex t = bar_tail_hex(s, sc, i);   /* 2.1c: the second hex */
        if (t < 0 || t >= MK_MAX_HEX)
            continue;
        bit = 1ull << (t & 63);
        o->tnext[i] = (int16_t)(o->tused[t >> 6] & bit ? o->tfirst[t] : -1);
        o->tfirst[t] = (int16_t)i;
        o->tused[t >> 6] |= bit;
    }
}

/* --- two-hex units (Monmouth 2.1c) --------------------------------------- */

int bar_sp_in(const bar_state *s, const mk_scenario *sc, int i, mk_hex h)
{
    const bar_pc *p = &s->pc[i];
    if (h == MK_NO_HEX || bar_is_leader(&bar_x(sc)->p[i]))
        return 0;
    int head = p->sp, most = bar_x(sc)->ch.stacking[p->form];
    if (p->form == BAR_FM_LINE && p->tail >= 1 && p->tail <= 6)
        head = (p->sp + 1) / 2;   /* 2.1a (ours): a two-hex Line, half each, the odd SP in its first hex */
    else if (p->tail >= 1 && p->tail <= BAR_TAIL_OFF && head > most)
        head = most;   /* 2.1c: "each hex must have 8 SPs" */
    if (h == p->hex)
        return head;
    return bar_tail_hex(s, sc, i) == h ? p->sp - head : 0;
}

void bar_put(bar_state *s, const mk_scenario *sc, int i, mk_hex to)
{
    bar_pc *p = &s->pc[i];
    const bar_ext *x = bar_x(sc);
    mk_hex from = p->hex;
    p->hex = to;
    if (x->p[i].kind == BK_LEADER)
        return;
    if (to == MK_NO_HEX || !bar_wants_tail(x, i, p->form, p->sp)) {
        p->tail = 0;
        return;
    }
    /* 2.1c: the head's previous hex becomes the trailing hex (ours) */
    int d = from == MK_NO_HEX ? -1 : mk_hex_direction(&sc->map.grid, to, from);
    p->tail = (int8_t)(d >= 0 ? d + 1 : from == MK_NO_HEX ? BAR_TAIL_OFF : 0);
}

void bar_tail_update(bar_state *s, const mk_scenario *sc, int i)
{
    bar_pc *p = &s->pc[i];
    if (!bar_is_leader(&bar_x(sc)->p[i]) &&
        (p->hex == MK_NO_HEX || (!bar_wants_tail(bar_x(sc), i, p->form, p->sp) &&
                                 !(p->tail && bar_line2_ok(bar_x(sc), i, p->form, p->sp)))))
        p->tail = 0;   /* 2.1a: a two-hex Line below 7 SPs contracts into its first hex */
}

bool bar_unit_at(const bar_state *s, const mk_scenario *sc, mk_hex h, int side, bool formed_only)
{
    const bar_ext *x = bar_x(sc);
    for (int i = 0; i < s->npieces; i++) {
        if (!bar_in_hex(s, sc, i, h) || bar_is_leader(&x->p[i]) || (side >= 0 && x->p[i].side != side))
            continue;
        if (formed_only && (s->pc[i].status & BS_ROUTED))
            continue;
        return true;
    }
    return false;
}

int bar_stack_sp(const bar_state *s, const mk_scenario *sc, mk_hex h, int side)
{
    const bar_ext *x = bar_x(sc);
    int sp = 0;
    for (int i = 0; i < s->npieces; i++)
        if (!bar_is_leader(&x->p[i]) && (side < 0 || x->p[i].side == side))
            sp += bar_sp_in(s, sc, i, h);
    return sp;
}

/* Monmouth 2.1b: the SPs of side's units in Square in hex h. */
int bar_square_sp(const bar_state *s, const mk_scenario *sc, mk_hex h, int side)
{
    const bar_ext *x = bar_x(sc);
    int sp = 0;
    for (int i = 0; i < s->npieces; i++)
        if (s->pc[i].hex == h && h != MK_NO_HEX && s->pc[i].form == BAR_FM_SQUARE && x->p[i].side == side)
            sp += s->pc[i].sp;
    return sp;
}

/* Monmouth 2.1b: "If a Square formation falls below 6 SPs (not 3) it
 * immediately changes to a single-hex Line": each side's Square in hex h
 * (ours: the side's units in Square there together) below 6 SPs becomes
 * Line, keeping its facing. */
void bar_square_check(bar_state *s, const mk_scenario *sc, mk_hex h, mk_events *ev)
{
    const bar_ext *x = bar_x(sc);
    if (h == MK_NO_HEX)
        return;
    for (int side = 0; side < 2; side++) {
        int sp = bar_square_sp(s, sc, h, side);
        if (sp <= 0 || sp >= BAR_SQUARE_MIN_SP)
            continue;
        for (int i = 0; i < s->npieces; i++) {
            if (s->pc[i].hex != h || s->pc[i].form != BAR_FM_SQUARE || x->p[i].side != side)
                continue;
            s->pc[i].form = BAR_FM_LINE;
            mk_event *e = bar_ev(ev, "formation", "Monmouth 2.1b (a Square below 6 SPs)");
            e->unit = (int16_t)i;
            e->text = bar_formation_name(BAR_FM_LINE);
        }
    }
}

/* Every hex with a Square (the end of each action: a unit that left, was
 * eliminated or changed formation may have left one below 6 SPs). */
void bar_squares_check(bar_state *s, const mk_scenario *sc, mk_events *ev)
{
    for (int i = 0; i < s->npieces; i++)
        if (s->pc[i].form == BAR_FM_SQUARE && s->pc[i].hex != MK_NO_HEX)
            bar_square_check(s, sc, s->pc[i].hex, ev);
}

int bar_dir_step(int dir) { return ((dir + 1) * 2) % 12; }   /* flat: NE is 60 degrees */

/* The bearing from a to b in 30-degree steps (nearest), clockwise from up. */
int bar_bearing12(const mk_grid *g, mk_hex a, mk_hex b)
{
    int ax, ay, bx, by;
    mk_hex_center(g, a, &ax, &ay);
    mk_hex_center(g, b, &bx, &by);
    double dx = (bx - ax) * 1.5, dy = (by - ay) * 0.8660254037844386;
    double ang = atan2(dx, -dy) * 57.29577951308232;
    if (ang < 0)
        ang += 360;
    return (int)floor(ang / 30.0 + 0.5) % 12;
}

/* Is hex `to` in piece i's front (within 60 degrees of its facing)? A
 * Square faces every way; a leader or routed unit has no front. */
bool bar_is_front(const bar_state *s, const mk_scenario *sc, int i, mk_hex to)
{
    const bar_pc *p = &s->pc[i];
    return p->form == BAR_FM_SQUARE || bar_faces(s, i, bar_bearing12(&sc->map.grid, p->hex, to));
}

/* bar_is_front, given the bearing b (0-11) from the piece to the hex: a
 * neighbour in core direction d lies at bar_dir_step(d) (tests/test_bar_ai.c
 * checks it on the map), which spares the generators an atan2 a hex. */
static bool within_60(int b, int f)
{
    int d = abs(b - f) % 12;
    if (d > 6)
        d = 12 - d;
    return d <= 2;
}

bool bar_faces(const bar_state *s, int i, int b)
{
    const bar_pc *p = &s->pc[i];
    if (p->form == BAR_FM_SQUARE)
        return true;
    if (p->form == BAR_FM_HOOK)
        return bar_hook_arms(s, i, b) != 0;
    return within_60(b, p->facing);
}

/* Our Hook (Monmouth 2.1a, 2.1e, 7.1a B name it; the series' diagrams are
 * not ours, docs/bar.md "Hook"): a Line whose one end is wheeled back 60
 * degrees, so its front is the Line's 120-degree arc plus the bent arm's,
 * turned 60 degrees to the right (clockwise) or to the left: 180 degrees
 * in all, four hexsides' worth of neighbours facing a hexside (three
 * facing a hexpoint) instead of three (two). */
int bar_hook_arms(const bar_state *s, int i, int b)
{
    const bar_pc *p = &s->pc[i];
    if (p->form != BAR_FM_HOOK)
        return bar_faces(s, i, b) ? 3 : 0;
    int bent = (p->facing + (p->more2 & BM2_HOOK_LEFT ? 10 : 2)) % 12;
    return (within_60(b, p->facing) ? 1 : 0) | (within_60(b, bent) ? 2 : 0);
}

/* Series ZOC: the front hexes of a formed (not routed, not skirmishing)
 * enemy combat unit; limbered artillery has none. Does piece i have one
 * against side? */
static bool has_zoc(const bar_state *s, const bar_ext *x, int i, int side)
{
    const bar_pc *p = &s->pc[i];
    return x->p[i].side != side && !bar_is_leader(&x->p[i]) && !(p->status & BS_ROUTED) &&
           p->form != BAR_FM_SKIRMISH && p->form != BAR_FM_ARTILLERY_ROAD_COLUMN && p->form != BAR_FM_ROAD_COLUMN;
}

bool bar_in_ezoc(const bar_state *s, const mk_scenario *sc, int side, mk_hex h)
{
    const bar_ext *x = bar_x(sc);
    if (h < 0 || h >= mk_grid_size(&sc->map.grid))
        return false;
    const mk_hex *nb = x->nb[h];   /* adjacency is symmetric: a piece next to h is in one of these */
    for (int i = 0; i < s->npieces; i++) {
        const bar_pc *p = &s->pc[i];
        if (p->hex == MK_NO_HEX || !has_zoc(s, x, i, side))
            continue;
        mk_hex t2 = p->form == BAR_FM_LINE ? bar_tail_hex(s, sc, i) : MK_NO_HEX;   /* 2.1a: both hexes */
        for (int d = 0; d < 6; d++)   /* h lies opposite d from the piece */
            if ((p->hex == nb[d] || (t2 != MK_NO_HEX && t2 == nb[d])) && bar_faces(s, i, bar_dir_step((d + 3) % 6)))
                return true;
    }
    return false;
}

/* bar_in_ezoc from the caller's index of who stands where (o, built for
 * s): only the pieces in h's six neighbours are looked at, not all of
 * them. tests/test_bar_ai.c checks it against bar_in_ezoc. */
bool bar_in_ezoc_o(const bar_state *s, const bar_occ *o, const mk_scenario *sc, int side, mk_hex h)
{
    const bar_ext *x = bar_x(sc);
    if (h < 0 || h >= mk_grid_size(&sc->map.grid))
        return false;
    const mk_hex *nb = x->nb[h];
    for (int d = 0; d < 6; d++) {
        if (nb[d] == MK_NO_HEX)
            continue;
        int toward = bar_dir_step((d + 3) % 6);   /* from the piece to h */
        BAR_OCC_EACH(o, nb[d], i) {
            /* (a second hex counts for a Line only, 2.1a, as in bar_in_ezoc) */
            if (has_zoc(s, x, i, side) && (i_k == 0 || s->pc[i].form == BAR_FM_LINE) && bar_faces(s, i, toward))
                return true;
        }
    }
    return false;
}

int bar_move_class_of(const bar_pinfo *p, int form)
{
    if (p->kind == BK_CAVALRY)
        return BAR_MV_CAVALRY;
    if (p->kind == BK_ARTILLERY)
        return BAR_MV_ARTILLERY;
    return form == BAR_FM_ATTACK_COLUMN || form == BAR_FM_MARCH_COLUMN || form == BAR_FM_ROAD_COLUMN
               ? BAR_MV_COLUMN
               : BAR_MV_LINE;
}

/* --- mounted and dismounted (Monmouth 4.1b E, 7.4a C) ------------------- */

/* Cavalry (7.4a C: from 5:00 AM 29 June) and the Mounted Jaegers (4.1b E)
 * have two modes; BM_DISMOUNTED marks the dismounted one. */
bool bar_has_modes(const mk_scenario *sc, int i)
{
    const bar_pinfo *p = &bar_x(sc)->p[i];
    return p->kind == BK_CAVALRY || p->mode != BAR_MODE_NONE;
}

bool bar_mounted(const bar_state *s, const mk_scenario *sc, int i)
{
    return bar_has_modes(sc, i) && !(s->pc[i].more & BM_DISMOUNTED);
}

/* Mounted cavalry: it charges and pursues (2.3), may Retreat Before Close
 * Combat (2.3f). The Mounted Jaegers mounted do neither and are infantry
 * for Close Combat (4.1b E); dismounted cavalry is infantry (7.4a C). */
bool bar_charges(const bar_state *s, const mk_scenario *sc, int i)
{
    return bar_x(sc)->p[i].kind == BK_CAVALRY && !(s->pc[i].more & BM_DISMOUNTED);
}

/* The movement allowance in half MPs: 4.1b E the Mounted Jaegers mounted
 * 7 MPs (dismounted: the order of battle's); 7.4a C dismounted cavalry 4. */
int bar_ma_half(const bar_state *s, const mk_scenario *sc, int i)
{
    const bar_ext *x = bar_x(sc);
    const bar_pinfo *p = &x->p[i];
    if (bar_is_leader(p))
        return x->se.leader_mp_half;
    if (p->kind == BK_CAVALRY)
        return s->pc[i].more & BM_DISMOUNTED ? 2 * 4 : p->mp_half;   /* 7.4a C */
    if (p->mode != BAR_MODE_NONE && !(s->pc[i].more & BM_DISMOUNTED))
        return 2 * 7;   /* 4.1b E */
    return p->mp_half;
}

/* 4.1b E: mounted, the Mounted Jaegers move as cavalry; 7.4a C: dismounted
 * cavalry moves as infantry. */
int bar_move_class_now(const bar_state *s, const mk_scenario *sc, int i)
{
    const bar_pinfo *p = &bar_x(sc)->p[i];
    if (bar_mounted(s, sc, i))
        return BAR_MV_CAVALRY;
    if (p->kind == BK_CAVALRY) {   /* dismounted: by its (infantry) formation */
        bar_pinfo inf = *p;
        inf.kind = BK_INFANTRY;
        return bar_move_class_of(&inf, s->pc[i].form);
    }
    return bar_move_class_of(p, s->pc[i].form);
}

/* The Fire Multiples and Ranges row: 7.4a C dismounted cavalry fires "like
 * Line/Foot Infantry" (ours: Line for the Americans, Foot for the British,
 * the rows of their line infantry); the Mounted Jaegers mounted do not fire
 * (ours: as mounted cavalry, which has no row). */
int bar_fire_row_now(const bar_state *s, const mk_scenario *sc, int i)
{
    const bar_pinfo *p = &bar_x(sc)->p[i];
    if (p->kind == BK_CAVALRY && (s->pc[i].more & BM_DISMOUNTED))
        return p->nation == BAR_NAT_AMERICAN ? BAR_FR_LINE : BAR_FR_FOOT;
    if (p->kind != BK_CAVALRY && bar_mounted(s, sc, i))
        return -1;
    return p->fire_row;
}

/* The leader who activates org: its Command Leader, or for the Army
 * (Monmouth 4.2b A: Clinton as the Command Leader of the Independents) the
 * Army Leader. */
int bar_org_leader(const mk_scenario *sc, int org)
{
    const bar_ext *x = bar_x(sc);
    if (org < 0)
        return -1;
    if (x->oob.org[org].kind == BAR_ORG_ARMY)
        return x->army_leader[x->oob.org[org].side];
    return x->org_leader[org];
}

/* Does piece i take part in the current activation? Units of the Command;
 * Independents (and the Loyalist Corps, Flank Guards) within the leader's
 * Command Range that have not acted this turn; leaders: the Command's own,
 * and Army, Wing and Special leaders of the side that have not acted. */
bool bar_piece_active(const bar_state *s, const mk_scenario *sc, int i)
{
    const bar_ext *x = bar_x(sc);
    const bar_pinfo *p = &x->p[i];
    if (s->phase == BP_ACTIVATE || s->phase == BP_OVER || s->phase == BP_GUARD || p->side != s->side ||
        !bar_alive(s, i))
        return false;
    if (s->sr_mode)
        return bar_special_active(s, sc, i);   /* 6.2d, 6.2f */
    if (p->org == s->org && (!p->independent || bar_is_leader(p)))
        return bar_is_leader(p) || p->independent || !(s->pc[i].flags & BF_ACTED) ||
               (s->pc[i].flags & BF_MOVED);   /* attached elsewhere this turn (3.2b C): not again */
    if (s->in_command == BIC_LIMITED && !bar_is_leader(p))
        return false;   /* 6.2c A: it may not activate Independents */
    if (s->pc[i].flags & BF_ACTED)
        return (s->pc[i].flags & BF_MOVED) != 0;   /* acting in this activation */
    if (bar_is_leader(p))
        return p->role != BAR_LR_COMMAND;
    if (!p->independent)
        return false;
    int l = bar_org_leader(sc, s->org);
    if (l < 0 || s->pc[l].hex == MK_NO_HEX || s->pc[i].hex == MK_NO_HEX)
        return s->pc[i].hex == MK_NO_HEX &&
               ((p->arrive >= 0 && p->arrive <= s->turn) || (s->pc[i].more & BM_OFFMAP));
    return mk_hex_distance(&sc->map.grid, s->pc[i].hex, s->pc[l].hex) <= x->p[l].range;
}

/* The number a natural 00-99 roll must reach (charts pass_at_or_above):
 * ER x er_scale, the leader's ER Bonus if one is stacked, Army Morale. */
int bar_check_target(const bar_state *s, const mk_scenario *sc, int i, int mod)
{
    const bar_ext *x = bar_x(sc);
    int t = x->p[i].er * x->se.er_scale + mod + s->army_mod[x->p[i].side];
    int best = 0;
    for (int j = 0; j < s->npieces; j++)
        if (s->pc[j].hex == s->pc[i].hex && bar_is_leader(&x->p[j]) && x->p[j].side == x->p[i].side) {
            int b = bar_leader_values_of(s, sc, j).er_bonus;
            best = b < best ? b : best;
        }
    return t + best * x->se.er_scale;   /* the ER Bonus is in ER points */
}

/* A Morale ('M') or Disorder ('D') check of piece i (6.9), applied. Returns
 * the bar_check_effect. */
int bar_do_check(bar_state *s, const mk_scenario *sc, int i, char kind, char letter, int mod,
                 const char *rule, mk_events *ev)
{
    const bar_ext *x = bar_x(sc);
    bar_pc *p = &s->pc[i];
    if (bar_rgt_with_owner(s, sc, i))
        return BAR_CE_NO_EFFECT;   /* 2.2d E viii: no separate check; they conform */
    unsigned cond = 0;
    cond |= p->status & BS_DISORDERED ? BAR_CC_DISORDERED : 0;
    cond |= p->status & BS_SHAKEN ? BAR_CC_SHAKEN : 0;
    cond |= !(p->status & (BS_DISORDERED | BS_SHAKEN)) ? BAR_CC_GOOD_ORDER : 0;
    cond |= x->map.terrain[p->hex] == BAR_T_WOODS || x->map.terrain[p->hex] == BAR_T_MARSH_WOODS
                ? BAR_CC_IN_WOODS
                : 0;
    cond |= p->form == BAR_FM_SKIRMISH ? BAR_CC_SKIRMISH : 0;
    cond |= bar_charges(s, sc, i) ? BAR_CC_CAVALRY : 0;
    cond |= x->p[i].kind == BK_ARTILLERY ? BAR_CC_ARTILLERY : 0;
    int target = bar_check_target(s, sc, i, mod);
    bar_check_out out;
    int roll = mk_rng_d100(&s->head.rng);
    mk_event *e = bar_ev(ev, "roll", rule);
    e->purpose = kind == 'M' ? "morale_check" : "disorder_check";
    e->unit = (int16_t)i;
    e->die = 100;
    e->value = (int16_t)roll;
    e->need = (int16_t)target;
    if (bar_check(&x->ch, kind, letter, roll, target, cond, &out) < 0) {
        e->text = "no such check letter on the chart";
        return BAR_CE_NO_EFFECT;
    }
    if (out.effect == BAR_CE_REROLL) {
        int r2 = mk_rng_d100(&s->head.rng);
        mk_event_value(e, r2);
        out.pass = r2 >= target + out.reroll;
        out.effect = out.pass ? BAR_CE_PASS : BAR_CE_FAIL;
    }
    e->passed = out.effect == BAR_CE_PASS || out.effect == BAR_CE_NO_EFFECT;
    e->text = bar_check_effect_name(out.effect);
    int eff = out.effect;
    if (eff == BAR_CE_FAIL)   /* our reading of a plain failure: one step worse */
        eff = kind == 'D' ? (p->status & BS_DISORDERED ? BAR_CE_SHAKEN_DISORDERED : BAR_CE_DISORDERED)
                          : (p->status & BS_SHAKEN ? BAR_CE_ROUT : BAR_CE_SHAKEN);
    e->text = bar_check_effect_name(eff);   /* what it does: "shaken", "rout", "pass" */
    switch (eff) {
    case BAR_CE_DISORDERED: p->status |= BS_DISORDERED; break;
    case BAR_CE_SHAKEN: p->status |= BS_SHAKEN; break;
    case BAR_CE_SHAKEN_DISORDERED: p->status |= BS_SHAKEN | BS_DISORDERED; break;
    case BAR_CE_ROUT: bar_rout_unit(s, sc, i, ev); break;
    case BAR_CE_LOSE_SP: bar_lose_sp(s, sc, i, 1, ev); break;
    default: break;
    }
    if (out.leader_loss)
        bar_leader_check(s, sc, p->hex, 0, ev);
    bar_rgt_conform(s, sc);   /* 2.2d E viii */
    return eff;
}

/* SP losses go on the unit's roster and the Army Loss Record (1.2a B;
 * artillery counts per 2.2d H at the end). */
void bar_lose_sp(bar_state *s, const mk_scenario *sc, int i, int n, mk_events *ev)
{
    const bar_ext *x = bar_x(sc);
    bar_pc *p = &s->pc[i];
    if (n > p->sp)
        n = p->sp;
    if (n <= 0)
        return;
    int side = x->p[i].side;
    p->sp = (int8_t)(p->sp - n);
    s->sp_lost[side] = (int16_t)(s->sp_lost[side] + n);
    if (x->p[i].kind == BK_ARTILLERY)
        s->art_lost[side][x->p[i].type == BAR_UT_ART_FIELD ? 0 : 1] += (int16_t)n;
    else
        s->loss[side] = (int16_t)(s->loss[side] + n);
    mk_event *e = bar_ev(ev, "loss", "Monmouth 1.2a B");
    e->unit = (int16_t)i;
    e->hits = (int16_t)n;
    mk_hex at = p->hex;
    if (p->sp == 0) {
        mk_event *d = bar_ev(ev, "eliminated", "Monmouth 1.2a B");
        d->unit = (int16_t)i;
        d->hex = p->hex;
        p->hex = MK_NO_HEX;
        p->flags |= BF_ELIM;
    }
    bar_tail_update(s, sc, i);   /* 2.1c: 8 SPs or fewer are one hex */
    bar_square_check(s, sc, at, ev);   /* Monmouth 2.1b */
}

/* Rout (2.5): the unit is Routed and makes a Rout Retreat of 4 hexes (6
 * for cavalry; 8 in an activation, 2.5 B, 3.2b G iv), first away from the
 * enemy, then toward its side's rally hex (7.0 B: W0201 / E3915). A unit
 * that cannot move on is eliminated. */
void bar_rout_unit(bar_state *s, const mk_scenario *sc, int i, mk_events *ev)
{
    const bar_ext *x = bar_x(sc);
    bar_rout_hexes(s, sc, i, x->se.rout_hexes[bar_mounted(s, sc, i)], false, ev);   /* 4.1b E, 7.4a C */
}

static void rout_one(bar_state *s, const mk_scenario *sc, int i, int n, bool voluntary, mk_events *ev);

/* Monmouth 2.5b B: artillery in Rout Retreat, for a non-clear hex entered
 * or hexside crossed: a die, 0 or 1 loses an SP. */
static void art_rout_loss(bar_state *s, const mk_scenario *sc, int i, mk_events *ev)
{
    int die = mk_rng_d10(&s->head.rng);
    mk_event *e = bar_ev(ev, "roll", "Monmouth 2.5b B");
    e->purpose = "rout_loss";
    e->unit = (int16_t)i;
    e->die = 10;
    e->value = (int16_t)die;
    e->passed = die > 1;
    if (die <= 1)
        bar_lose_sp(s, sc, i, 1, ev);
}

void bar_rout_hexes(bar_state *s, const mk_scenario *sc, int i, int n, bool voluntary, mk_events *ev)
{
    const bar_ext *x = bar_x(sc);
    /* 2.2d E viii: a regiment that routs (not voluntarily) takes its
     * stacked guns along (they conform to its Morale State) */
    int16_t guns[4];
    int nguns = 0;
    for (int g = 0; !voluntary && x->p[i].kind == BK_INFANTRY && g < s->npieces && nguns < 4; g++)
        if (x->p[g].owner == i && bar_rgt_with_owner(s, sc, g) && !(s->pc[g].status & BS_ROUTED))
            guns[nguns++] = (int16_t)g;
    rout_one(s, sc, i, n, voluntary, ev);
    for (int k = 0; k < nguns; k++) {
        int g = guns[k];
        bar_pc *q = &s->pc[g];
        if (q->form != BAR_FM_ARTILLERY_ROAD_COLUMN || s->pc[i].hex == MK_NO_HEX) {
            rout_one(s, sc, g, n, false, ev);   /* unlimbered: lost (2.5b A); or on their own */
            continue;
        }
        /* 2.2d E vii: limbered guns "may end its Rout Retreat movement
         * stacked with its owning infantry unit" (ours: they always do) */
        bar_ev(ev, "rout", "Monmouth 2.2d E viii")->unit = (int16_t)g;
        mk_event *e = bar_ev(ev, "rout_retreat", "Monmouth 2.2d E vii");
        e->unit = (int16_t)g;
        e->from = q->hex;
        e->to = s->pc[i].hex;
        q->status = BS_ROUTED | BS_DISORDERED | BS_SHAKEN;
        q->more &= (uint8_t)~BM_VOL_ROUT;
        q->hex = s->pc[i].hex;
        q->facing = s->pc[i].facing;
    }
}

static void rout_one(bar_state *s, const mk_scenario *sc, int i, int n, bool voluntary, mk_events *ev)
{
    const bar_ext *x = bar_x(sc);
    const mk_grid *g = &sc->map.grid;
    bar_pc *p = &s->pc[i];
    int side = x->p[i].side;
    mk_hex start = p->hex;
    /* 3.2b G iv: a routed unit routed again is involuntarily Routed */
    if (voluntary && !(p->status & BS_ROUTED))
        p->more |= BM_VOL_ROUT;
    else
        p->more &= (uint8_t)~BM_VOL_ROUT;
    p->status = BS_ROUTED | BS_DISORDERED | BS_SHAKEN;
    mk_event *e = bar_ev(ev, "rout", voluntary ? "Monmouth 2.5 B (Voluntary Rout)" : "Monmouth 2.5 C");
    e->unit = (int16_t)i;
    e->from = start;
    if (x->p[i].kind == BK_ARTILLERY && p->form == BAR_FM_ARTILLERY) {
        /* only Limbered artillery may Rout Retreat (Monmouth 2.5 A):
         * unlimbered guns that rout are lost */
        bar_lose_sp(s, sc, i, p->sp, ev);
        return;
    }
    bool art = x->p[i].kind == BK_ARTILLERY, by_road = false;
    for (int k = 0; k < n; k++) {
        mk_hex nb[6], best = MK_NO_HEX;
        int bestv = 1 << 30;
        mk_hex_neighbors(g, p->hex, nb);
        for (int d = 0; d < 6; d++) {
            mk_hex h = nb[d];
            if (h == MK_NO_HEX || x->map.terrain[h] == BAR_T_LAKE || bar_unit_at(s, sc, h, bar_other(side), false))
                continue;
            int v = mk_hex_distance(g, h, x->home[side]) * 4 + (bar_in_ezoc(s, sc, side, h) ? 40 : 0) +
                    (bar_stack_sp(s, sc, h, side) > 0 ? 2 : 0);
            if (v < bestv)
                bestv = v, best = h;
        }
        if (best == MK_NO_HEX) {
            mk_event *d = bar_ev(ev, "eliminated", "Monmouth 2.5 C: no hex to rout into");
            d->unit = (int16_t)i;
            bar_lose_sp(s, sc, i, p->sp, ev);
            return;
        }
        if (art) {   /* 2.5b B: the hex left (entered and left by road: clear), the hexside crossed */
            if (k > 0 && x->ch.hex[x->map.terrain[p->hex]].disorder_check && !(by_road && bar_road(&x->map, p->hex, best)))
                art_rout_loss(s, sc, i, ev);
            unsigned side_bits = bar_hexside(&x->map, p->hex, best);
            bool rough = false;
            for (int b = 0; b < BAR_HS_NTERRAIN && !(side_bits & BAR_HS_BRIDGE); b++)
                rough |= (side_bits & (1u << b)) && x->ch.side[b].disorder_check;
            if (rough)
                art_rout_loss(s, sc, i, ev);
            if (!bar_alive(s, i))
                return;
        }
        by_road = bar_road(&x->map, p->hex, best) != 0;
        p->facing = (uint8_t)bar_bearing12(g, p->hex, best);
        bar_put(s, sc, i, best);   /* 2.1c: a Road Column's tail follows */
    }
    if (art && n > 0 && x->ch.hex[x->map.terrain[p->hex]].disorder_check && !by_road) {
        art_rout_loss(s, sc, i, ev);   /* 2.5b B: the last hex (entered by road: clear) */
        if (!bar_alive(s, i))
            return;
    }
    e = bar_ev(ev, "rout_retreat", "Monmouth 2.5 C");
    e->unit = (int16_t)i;
    e->from = start;
    e->to = p->hex;
    e->value = (int16_t)n;
    if (p->form != BAR_FM_ARTILLERY_ROAD_COLUMN && x->p[i].kind != BK_ARTILLERY && !bar_mounted(s, sc, i))
        p->form = BAR_FM_GENERAL_ORDER, p->more2 &= (uint8_t)~BM2_HOOK_LEFT;
    bar_tail_update(s, sc, i);   /* 2.1c: a routed column in General Order is one hex */
}

/* 6.6 Leader Loss: each leader in hex h checks; natural is the fire roll
 * that caused it (0-9 picks the kind on the Leader Loss Table; any other
 * value: Line of Fire). Killed or wounded: command.c. */
void bar_leader_check(bar_state *s, const mk_scenario *sc, mk_hex h, int natural, mk_events *ev)
{
    const bar_ext *x = bar_x(sc);
    for (int j = 0; j < s->npieces; j++) {
        if (s->pc[j].hex != h || !bar_is_leader(&x->p[j]))
            continue;
        int kind = bar_leader_loss_kind(&x->ch, natural >= 0 && natural <= 9 ? natural : 0);
        if (kind < 0)
            kind = BAR_LL_LINE_OF_FIRE;
        int die = mk_rng_d10(&s->head.rng);
        int r = bar_leader_loss_subroll(&x->ch, kind, die, false);
        mk_event *e = bar_ev(ev, "roll", "Monmouth 6.6");
        e->purpose = "leader_loss";
        e->unit = (int16_t)j;
        e->die = 10;
        e->value = (int16_t)die;
        e->text = r == 1 ? "killed" : r == 2 ? "wounded" : "unhurt";
        if (r == 1 || r == 2)
            bar_leader_hit(s, sc, j, r == 1, ev);
    }
}

/* --- the hooks ------------------------------------------------------------- */

/* Optional rules: bit i of the options mask is bar_options[i] (BO_*). */
static const mk_option bar_options[] = {
    {"bar.opportunity-fire",
     "Series 12.8 Opportunity Fire (our reconstruction): a unit fires at an enemy entering, or changing "
     "formation or facing in, its front hexes; twice a hex an activation"},
    {"bar.7.1a.C",
     "Monmouth 7.1a C: Morgan's Command joins Lee's Detachment; British Flank Guards/Jaeger (scenario 1)"},
    {"bar.deploy",
     "Monmouth 7.xb-c: the players choose their set-up within the text's areas (the first side to deploy, "
     "then the other), before the first turn"},
};
#define BAR_NOPTIONS ((int)(sizeof bar_options / sizeof bar_options[0]))

static int check_options(uint64_t options, mk_error *err)
{
    if (options >> BAR_NOPTIONS)
        return mk_error_set(err, "bad_arg", "unknown Monmouth (BAR) option bit");
    return 0;
}

static int init(void *st, const mk_scenario *sc, uint64_t options, uint64_t seed, mk_events *ev,
                mk_error *err)
{
    bar_state *s = st;
    const bar_ext *x = bar_x(sc);
    if (!x)
        return mk_error_set(err, "scenario_invalid", "%s: not prepared", sc->source);
    if (check_options(options, err))
        return -1;
    s->opts = (uint8_t)options;
    bool variant = options & BO_MORGAN, any = false;   /* Monmouth 7.1a C */
    for (int i = 0; i < sc->nunits; i++)
        any |= x->p[i].variant != 0;
    if (variant && !any)
        return mk_error_set(err, "bad_arg", "%s: option %s: the scenario has no such variant", sc->source,
                            bar_options[1].id);
    mk_rng_seed(&s->head.rng, seed);
    s->npieces = (int16_t)sc->nunits;
    s->turn = (int16_t)x->first_turn;
    s->winner = -1;
    s->rb_unit = -1;
    s->of_unit = -1;
    s->cx_unit = -1;
    s->bat_leader = -1;
    s->sr = -1;
    for (int k = 0; k < BAR_MAX_SUCC; k++)
        s->succ_wing[k] = -1;
    s->det[0] = s->det[1] = -1;
    for (int i = 0; i < sc->nunits; i++) {
        bar_pc *p = &s->pc[i];
        p->hex = sc->units[i].hex;
        p->sp = x->p[i].sp;
        p->form = (uint8_t)x->p[i].form0;
        p->facing = (uint8_t)x->p[i].face0;
        if (p->form == BAR_FM_HOOK && x->p[i].hook_left0)
            p->more2 |= BM2_HOOK_LEFT;
        if (x->p[i].variant && !variant) {   /* 7.1a C: out of play */
            p->hex = MK_NO_HEX;
            p->more2 |= BM2_OUT;
        }
        if (p->hex != MK_NO_HEX && bar_wants_tail(x, i, p->form, p->sp))
            p->tail = BAR_TAIL_OFF;   /* 2.1c (ours): it trails in behind its head's first move */
        if (p->hex != MK_NO_HEX)
            p->flags |= BF_ON;
    }
    /* ev may be NULL (ruleset.h init; sim's matches pass none) */
    mk_events none;
    mk_events_init(&none, NULL, 0);
    bar_command_init(s, sc);
    if (options & BO_DEPLOY) {   /* Monmouth 7.0c, 7.xb B: "The American player deploys his units first" */
        s->phase = BP_DEPLOY;
        s->side = x->scen.deploys_first;
        mk_event *e = bar_ev(ev ? ev : &none, "deployment", "Monmouth 7.xb B (option bar.deploy)");
        e->side = s->side;
        return 0;
    }
    return bar_turn_init(s, sc, ev ? ev : &none);
}

/* 6.2d C: in a special Close Combat Segment the units may first advance
 * one hex to engage: moves alone, into a hex next to an enemy combat unit,
 * one a unit (ours: "stacked units must advance together" is not built). */
static int advance_only(const bar_state *s, const mk_scenario *sc, mk_action *out, int n)
{
    if (s->sr_mode != BSR_CLOSE || s->of_unit >= 0)
        return n;
    const bar_ext *x = bar_x(sc);
    int k = 0;
    for (int i = 0; i < n; i++) {
        const mk_action *a = &out[i];
        bool keep = a->type == BA_NEXT;
        if (a->type == BA_MOVE && !bar_is_leader(&x->p[a->unit]) && !(s->pc[a->unit].flags & BF_MOVED)) {
            mk_hex nb[6];
            mk_hex_neighbors(&sc->map.grid, a->path[0], nb);
            for (int d = 0; d < 6 && !keep; d++)
                keep = nb[d] != MK_NO_HEX && bar_unit_at(s, sc, nb[d], bar_other(s->side), false);
        }
        if (keep)
            out[k++] = *a;
    }
    return k;
}

static int legal(const void *st, const mk_scenario *sc, mk_action *out, int cap)
{
    const bar_state *s = st;
    switch (s->phase) {
    case BP_ACTIVATE: return s->sr >= 0 ? bar_legal_special(s, sc, out, cap) : bar_legal_activate(s, sc, out, cap);
    case BP_MOVE:
        return s->of_unit >= 0   ? bar_legal_opfire(s, sc, out, cap)
               : s->cx_unit >= 0 ? bar_legal_xcharge(s, sc, out, cap)
                                 : advance_only(s, sc, out, bar_legal_move(s, sc, NULL, out, 0, cap));
    case BP_FIRE: return bar_legal_snipe(s, sc, out, bar_legal_fire(s, sc, NULL, out, 0, cap), cap);
    case BP_CC:
        return s->cx_unit >= 0   ? bar_legal_xcharge(s, sc, out, cap)
               : s->rb_unit >= 0 ? bar_legal_rbcc(s, sc, out, cap)
                                 : bar_legal_cc(s, sc, NULL, out, 0, cap);
    case BP_GUARD: return bar_legal_guard(s, sc, out, cap);
    case BP_DEPLOY: return bar_legal_deploy(s, sc, NULL, out, 0, cap);
    default: return 0;
    }
}

/* What a `next` ends, logged first, so that passing on reads in the log
 * with its rule as every other action does (docs/ai.md, "Difficulty
 * levels"); what follows (the End Turn roll, the Disorder checks at the
 * end of a Movement Segment) is logged after it. */
static void next_event(const bar_state *s, mk_events *ev)
{
    const char *what = "activation", *rule = "Monmouth 1.2d; the sequence is ours, docs/bar.md";
    switch (s->phase) {
    case BP_DEPLOY: what = "deployment", rule = "Monmouth 7.xb B (option bar.deploy)"; break;
    case BP_GUARD: what = "baggage_train_guard", rule = "Monmouth 7.4a F"; break;
    case BP_MOVE:
        what = s->sr_mode == BSR_MOVE    ? "free_movement_segment"
               : s->sr_mode == BSR_CLOSE ? "advance_before_close_combat"
                                         : "movement_segment";
        if (s->sr_mode)
            rule = s->sr_mode == BSR_MOVE ? "Monmouth 6.2f" : "Monmouth 6.2d C";
        break;
    case BP_FIRE:
        what = s->sr_mode ? "free_fire_combat_segment" : "fire_combat_segment";
        if (s->sr_mode)
            rule = "Monmouth 6.2d";
        break;
    default:
        if (s->sr_mode)
            what = "free_close_combat_segment", rule = "Monmouth 6.2d";
        break;
    }
    mk_event *e = bar_ev(ev, "end", rule);
    e->side = s->side;
    e->text = what;
}

/* Is a legal now? legal() is the one authority, but listing every piece's
 * actions (and every fire target's line of sight) to check one was most of
 * an action's cost: the movement, fire and close combat generators list
 * the acting piece's actions alone (want: an action names its piece;
 * "next" none; a fire, the hex fired at), the same code as legal() for
 * that piece; the short lists (activation, decisions, the guard, sniping)
 * are listed whole. Returns the generator's copy in *match (it carries the
 * cost), or false. */
static bool find_legal(const bar_state *s, const mk_scenario *sc, const mk_action *a, mk_action *match)
{
    mk_action list[256];
    int cap = (int)(sizeof list / sizeof list[0]), n;
    switch (s->phase) {
    case BP_MOVE:
        n = s->of_unit >= 0   ? bar_legal_opfire(s, sc, list, cap)
            : s->cx_unit >= 0 ? bar_legal_xcharge(s, sc, list, cap)
                              : advance_only(s, sc, list, bar_legal_move(s, sc, a, list, 0, cap));
        break;
    case BP_FIRE:   /* (a fire is never a snipe: each list alone) */
        n = a->type == BA_SNIPE ? bar_legal_snipe(s, sc, list, 0, cap) : bar_legal_fire(s, sc, a, list, 0, cap);
        break;
    case BP_CC:
        n = s->cx_unit >= 0   ? bar_legal_xcharge(s, sc, list, cap)
            : s->rb_unit >= 0 ? bar_legal_rbcc(s, sc, list, cap)
                              : bar_legal_cc(s, sc, a, list, 0, cap);
        break;
    case BP_DEPLOY: n = bar_legal_deploy(s, sc, a, list, 0, cap); break;
    default: n = legal(s, sc, list, cap); break;
    }
    if (n >= cap) {   /* (never seen) a list this long may be cut short: ask legal() for all */
        mk_action all[MK_MAX_ACTIONS];
        n = legal(s, sc, all, MK_MAX_ACTIONS);
        for (int i = 0; i < n; i++)
            if (mk_action_equal(&all[i], a)) {
                *match = all[i];
                return true;
            }
        return false;
    }
    for (int i = 0; i < n; i++)
        if (mk_action_equal(&list[i], a)) {
            *match = list[i];
            return true;
        }
    return false;
}

static int apply(void *st, const mk_scenario *sc, const mk_action *a, mk_events *ev, mk_error *err)
{
    bar_state *s = st;
    if (s->phase == BP_OVER)
        return mk_error_set(err, "illegal_action", "the game is over");
    /* legal() is the one authority: an action not in its list is refused. */
    mk_action copy;   /* legal()'s copy: it carries the cost */
    const mk_action *match = find_legal(s, sc, a, &copy) ? &copy : NULL;
    if (!match && s->phase == BP_DEPLOY)
        return bar_deploy_refusal(s, sc, a, err);
    if (!match && a->type == BA_MOVE && a->unit >= 0 && a->unit < s->npieces &&
        s->pc[a->unit].hex != MK_NO_HEX && a->npath == 1 &&
        !mk_hex_adjacent(&sc->map.grid, s->pc[a->unit].hex, a->path[0])) {
        char l1[MK_HEX_LABEL_MAX], l2[MK_HEX_LABEL_MAX];
        return mk_error_set(err, "illegal_action",
                            "%s is not next to %s's hex %s: a move is one hex at a time (Monmouth 5.2)",
                            mk_hex_label(&sc->map.grid, a->path[0], l1), bar_pid(sc, a->unit),
                            mk_hex_label(&sc->map.grid, s->pc[a->unit].hex, l2));
    }
    if (!match && a->unit >= 0 && a->unit < s->npieces && a->type != BA_ACTIVATE &&
        a->type != BA_NEXT && a->type != BA_GUARD && a->type != BA_RBCC && a->type != BA_OPFIRE &&
        a->type != BA_DETACH && a->type != BA_COUNTERCHARGE && a->type != BA_OPCHARGE && a->type != BA_ATTACH &&
        a->type != BA_SPECIAL &&
        !bar_piece_active(s, sc, a->unit))
        return mk_error_set(err, "illegal_action", "%s does not take part in this activation (Monmouth 2.4a)",
                            bar_pid(sc, a->unit));
    if (!match)
        return mk_error_set(err, "illegal_action", "not a legal action now (phase %s; see legal)",
                            s->phase == BP_GUARD      ? "baggage guard"
                            : s->phase == BP_ACTIVATE ? "activation"
                            : s->phase == BP_MOVE   ? "movement"
                            : s->phase == BP_FIRE   ? "fire combat"
                                                    : "close combat");
    a = match;
    int rc;
    if (a->type == BA_ACTIVATE)
        rc = bar_apply_activate(s, sc, a, ev, err);
    else if (a->type == BA_SPECIAL)
        rc = bar_apply_special(s, sc, a, ev);
    else if (a->type == BA_DETACH)
        rc = bar_apply_detach(s, sc, a, ev);
    else if (a->type == BA_DEPLOY) {
        bar_apply_deploy(s, sc, a, ev);
        rc = 0;
    } else if (a->type == BA_NEXT) {
        next_event(s, ev);
        if (s->phase == BP_DEPLOY && s->side == bar_x(sc)->scen.deploys_first) {
            s->side = (int8_t)bar_other(s->side);   /* 7.xb B: then the other player */
            mk_event *e = bar_ev(ev, "deployment", "Monmouth 7.xb B (option bar.deploy)");
            e->side = s->side;
        } else if (s->phase == BP_DEPLOY) {
            s->phase = BP_ACTIVATE;   /* the first turn, as without the option */
            bar_turn_init(s, sc, ev);
        } else if (s->phase == BP_GUARD) {
            bar_turn_start(s, sc, ev);
        } else if (s->phase == BP_MOVE) {
            bar_end_movement(s, sc, ev);
            s->phase = s->sr_mode == BSR_CLOSE ? BP_CC : BP_FIRE;   /* 6.2d: one kind of combat */
            if (s->sr_mode == BSR_MOVE)
                bar_end_special_segment(s, sc, ev);   /* 6.2f A: a Movement Segment only */
        }
        else if (s->phase == BP_FIRE && s->sr_mode == BSR_FIRE)
            bar_end_special_segment(s, sc, ev);
        else if (s->phase == BP_FIRE)
            s->phase = BP_CC;
        else if (s->sr_mode)
            bar_end_special_segment(s, sc, ev);
        else
            bar_end_activation(s, sc, ev);
        rc = 0;
    } else if (a->type == BA_FIRE)
        rc = bar_apply_fire(s, sc, a, ev, err);
    else if (a->type == BA_CC)
        rc = bar_apply_cc(s, sc, a, ev, err);
    else if (a->type == BA_SNIPE)
        rc = bar_apply_snipe(s, sc, a, ev);
    else if (a->type == BA_RBCC)
        rc = bar_apply_rbcc(s, sc, a, ev);
    else if (a->type == BA_OPFIRE)
        rc = bar_apply_opfire(s, sc, a, ev);
    else if (a->type == BA_COUNTERCHARGE || a->type == BA_OPCHARGE)
        rc = bar_apply_xcharge(s, sc, a, ev);
    else if (a->type == BA_GUARD) {
        bar_apply_guard(s, sc, a, ev);
        rc = 0;
    }
    else {
        rc = bar_apply_move(s, sc, a, ev, err);
        if (rc == 0 && s->sr_mode == BSR_CLOSE && a->type == BA_MOVE)
            s->pc[a->unit].mp = 0;   /* 6.2d C: one hex */
    }
    if (rc == 0) {
        bar_squares_check(s, sc, ev);   /* Monmouth 2.1b */
        s->head.actions++;
        bar_rgt_conform(s, sc);   /* 2.2d E viii (a Close Combat's retreat, a rally) */
        /* an Independent or a higher leader acts once a turn, in the first
         * activation it takes part in (bar_piece_active); a special
         * segment is no activation (6.2d B, 6.2f C) */
        const bar_pinfo *p = a->unit >= 0 ? &bar_x(sc)->p[a->unit] : NULL;
        /* (a battery's fire, 3.2b C, is not an activation of its unit) */
        if (p && !s->sr_mode && a->type != BA_DEPLOY && a->type != BA_COUNTERCHARGE && a->type != BA_OPCHARGE &&   /* (the reactive side's) */
            (p->independent || (bar_is_leader(p) && p->role != BAR_LR_COMMAND)) &&
            !(a->type == BA_FIRE && (s->pc[a->unit].more2 & BM2_BATTERY)))
            s->pc[a->unit].flags |= BF_ACTED | BF_MOVED;
    }
    return rc;
}

static int to_move(const void *st)
{
    const bar_state *s = st;   /* a Retreat Before Close Combat is the defender's */
    return s->rb_unit >= 0 || s->of_unit >= 0 || s->cx_unit >= 0 ||
                   (s->phase == BP_ACTIVATE && s->sr == BAR_INI_CONFUSION)   /* 6.2c A: the other player picks */
               ? bar_other(s->side)
               : s->side;
}
static int active(const void *st) { return ((const bar_state *)st)->side; }
static bool over(const void *st) { return ((const bar_state *)st)->phase == BP_OVER; }

static uint64_t hash(const void *st, const mk_scenario *sc)
{
    const bar_state *s = st;
    uint64_t h = mk_head_hash(&s->head);
    return mk_hash_bytes(h, (const char *)s + sizeof s->head, sizeof *s - sizeof s->head);
}

/* --- JSON ----------------------------------------------------------------- */

static json_t *hex_json(const mk_scenario *sc, int h)
{
    char b[MK_HEX_LABEL_MAX];
    return h >= 0 ? json_string(mk_hex_label(&sc->map.grid, (mk_hex)h, b)) : json_null();
}

static json_t *state_json(const void *st, const mk_scenario *sc)
{
    const bar_state *s = st;
    const bar_ext *x = bar_x(sc);
    json_t *o = json_object();
    char t[40];
    bar_turn_format(s->turn, t, sizeof t);
    json_object_set_new(o, "ruleset", json_string("bar"));
    json_object_set_new(o, "scenario", json_string(sc->id));
    json_object_set_new(o, "turn", json_integer(s->turn - x->first_turn + 1));
    json_object_set_new(o, "turns", json_integer(sc->turns));
    json_object_set_new(o, "time", json_string(t));
    json_object_set_new(o, "light", json_string(bar_light_name(bar_light_of(s->turn))));
    json_object_set_new(o, "heat", json_boolean(bar_is_heat(s->turn)));
    json_object_set_new(o, "end_turn_number", json_integer(bar_end_turn_number(x->scenario, s->turn)));
    json_object_set_new(o, "end_turn_marker", json_integer(s->marker));
    json_object_set_new(o, "active", json_string(sc->sides[s->side].id));
    json_object_set_new(o, "to_move", json_string(sc->sides[to_move(s)].id));   /* the reactive side during its decisions */
    static const char *const ph[] = {"activation", "movement", "fire", "close_combat", "over", "baggage_guard",
                                     "deployment"};
    json_object_set_new(o, "phase", json_string(ph[s->phase]));
    if (s->phase != BP_ACTIVATE && s->phase != BP_OVER && s->phase != BP_DEPLOY) {
        json_object_set_new(o, "command", json_string(x->oob.org[s->org].id));
        json_object_set_new(o, "in_command", json_boolean(s->in_command));
        if (s->in_command == BIC_LIMITED)
            json_object_set_new(o, "limited", json_true());   /* 6.2c A */
        if (s->sr_mode)   /* 6.2d, 6.2f */
            json_object_set_new(o, "special_segment", json_string(s->sr_mode == BSR_MOVE    ? "movement"
                                                                  : s->sr_mode == BSR_FIRE ? "fire"
                                                                                           : "close_combat"));
    }
    json_t *units = json_array();
    for (int i = 0; i < s->npieces; i++) {
        const mk_sc_unit *su = &sc->units[i];
        const bar_pc *p = &s->pc[i];
        json_t *u = json_object();
        json_object_set_new(u, "id", json_string(su->id));
        if (su->name[0])
            json_object_set_new(u, "name", json_string(su->name));
        json_object_set_new(u, "side", json_string(sc->sides[su->side].id));
        json_object_set_new(u, "kind", json_string(bar_kind_names[su->kind]));
        json_object_set_new(u, "hex", hex_json(sc, p->hex));
        json_object_set_new(u, "mp", json_integer(bar_piece_active(s, sc, i) ? p->mp / 2 : 0));
        json_object_set_new(u, "mp_start", json_integer(bar_ma_half(s, sc, i) / 2));
        if (bar_has_modes(sc, i))
            json_object_set_new(u, "mounted", json_boolean(bar_mounted(s, sc, i)));
        json_object_set_new(u, "facing", json_integer(p->facing * 30));
        json_object_set_new(u, "acted", json_boolean(p->flags & BF_ACTED));
        if (!bar_is_leader(&x->p[i])) {
            json_object_set_new(u, "sp", json_integer(p->sp));
            json_object_set_new(u, "formation", json_string(bar_formation_name(p->form)));
            mk_hex t2 = bar_tail_hex(s, sc, i);
            if (t2 != MK_NO_HEX) {   /* 2.1c: a two-hex Road Column's trailing hex and SPs */
                json_object_set_new(u, "hex2", hex_json(sc, t2));
                json_object_set_new(u, "sp_hex", json_integer(bar_sp_in(s, sc, i, p->hex)));
                json_object_set_new(u, "sp_hex2", json_integer(bar_sp_in(s, sc, i, t2)));
            } else if (p->tail == BAR_TAIL_OFF && p->hex != MK_NO_HEX) {
                json_object_set_new(u, "tail_off_map", json_true());
                json_object_set_new(u, "sp_hex", json_integer(bar_sp_in(s, sc, i, p->hex)));
            }
            if (p->form == BAR_FM_HOOK)   /* which end is bent */
                json_object_set_new(u, "hook", json_string(p->more2 & BM2_HOOK_LEFT ? "left" : "right"));
            json_object_set_new(u, "status",
                                json_string(p->status & BS_ROUTED ? "routed"
                                            : (p->status & (BS_SHAKEN | BS_DISORDERED)) ==
                                                      (BS_SHAKEN | BS_DISORDERED)
                                                ? "shaken_disordered"
                                            : p->status & BS_SHAKEN     ? "shaken"
                                            : p->status & BS_DISORDERED ? "disordered"
                                                                        : "good"));
        } else if (p->wounded) {
            json_object_set_new(u, "wounded_turns", json_integer(p->wounded));
        }
        if (p->flags & BF_ELIM)
            json_object_set_new(u, "eliminated", json_true());
        if (p->more & BM_EXITED)
            json_object_set_new(u, "exited", json_true());
        if (p->more & BM_OFFMAP)
            json_object_set_new(u, "off_map_until", json_integer(p->back - x->first_turn + 1));
        if (p->more & BM_GUARD)
            json_object_set_new(u, "baggage_guard", json_true());
        if (bar_is_leader(&x->p[i]) && p->ctr)
            json_object_set_new(u, "replacement", json_string(x->lc.set[x->p[i].loss_set == 'B'][p->ctr - 1].id));
        if (x->p[i].arrive >= 0 && !(p->flags & BF_ON)) {
            bar_turn_format(x->p[i].arrive, t, sizeof t);
            json_object_set_new(u, "arrives", json_string(t));
            json_object_set_new(u, "entry", hex_json(sc, x->p[i].entry));
        }
        json_array_append_new(units, u);
    }
    json_object_set_new(o, "units", units);
    json_t *loss = json_object(), *spl = json_object();
    for (int i = 0; i < 2; i++) {
        json_object_set_new(loss, sc->sides[i].id,
                            json_integer(s->loss[i] + bar_artillery_loss_boxes(s->art_lost[i][0], s->art_lost[i][1])));
        json_object_set_new(spl, sc->sides[i].id, json_integer(s->sp_lost[i]));
    }
    json_object_set_new(o, "army_loss", loss);
    /* "vp" (what sim reports): the Army Loss boxes a side has inflicted,
     * the currency of Monmouth 7.1d-7.4d (the enemy's losses; the British
     * baggage losses count for the Americans, 7.4a F iii) */
    json_t *vp = json_object();
    for (int i = 0; i < 2; i++) {
        int o2 = bar_other(i);
        json_object_set_new(vp, sc->sides[i].id,
                            json_integer(s->loss[o2] + bar_artillery_loss_boxes(s->art_lost[o2][0], s->art_lost[o2][1]) +
                                         (i == BAR_AMERICAN ? s->baggage : 0)));
    }
    json_object_set_new(o, "vp", vp);
    if (bar_raids_on(x->scenario, x->last_turn) || s->baggage)
        json_object_set_new(o, "baggage_losses", json_integer(s->baggage));
    json_t *al = json_object();
    for (int i = 0; i < 2; i++)
        json_object_set_new(al, sc->sides[i].id,
                            s->army[i] >= 0 ? json_string(bar_pid(sc, s->army[i])) : json_null());
    json_object_set_new(o, "army_leader", al);
    json_t *dl = json_object();
    for (int i = 0; i < 2; i++)
        json_object_set_new(dl, sc->sides[i].id, s->det[i] >= 0 ? json_string(bar_pid(sc, s->det[i])) : json_null());
    json_object_set_new(o, "detachment", dl);
    json_object_set_new(o, "sp_lost", spl);
    if (s->of_unit >= 0) {
        json_t *p = json_object();
        json_object_set_new(p, "decision", json_string("opportunity_fire"));
        json_object_set_new(p, "side", json_string(sc->sides[bar_other(s->side)].id));
        json_object_set_new(p, "unit", json_string(bar_pid(sc, s->of_unit)));
        json_object_set_new(p, "hex", hex_json(sc, s->pc[s->of_unit].hex));
        json_object_set_new(o, "pending", p);
    } else if (s->cx_unit >= 0) {
        json_t *p = json_object();
        json_object_set_new(p, "decision",
                            json_string(s->cx_kind == BX_COUNTER ? "countercharge" : "opportunity_charge"));
        json_object_set_new(p, "side", json_string(sc->sides[bar_other(s->side)].id));
        json_object_set_new(p, "unit", json_string(bar_pid(sc, s->cx_unit)));
        json_object_set_new(p, "hex", hex_json(sc, s->pc[s->cx_unit].hex));
        if (s->cx_kind == BX_COUNTER)
            json_object_set_new(p, "target", hex_json(sc, s->cx_target));
        json_object_set_new(o, "pending", p);
    } else if (s->phase == BP_ACTIVATE && s->sr >= 0) {
        static const char *const names[BAR_NINI] = {"army_morale", "leader_lapse", "confusion", "free_combat",
                                                    "special_rally", "leader_initiative", "battle_tempo"};
        json_t *p = json_object();
        json_object_set_new(p, "decision", json_string("special_result"));
        json_object_set_new(p, "result", json_string(names[s->sr]));
        json_object_set_new(p, "side", json_string(sc->sides[to_move(s)].id));
        json_object_set_new(o, "pending", p);
    } else if (s->rb_unit >= 0) {
        json_t *p = json_object();
        json_object_set_new(p, "decision", json_string("retreat_before_close_combat"));
        json_object_set_new(p, "side", json_string(sc->sides[bar_other(s->side)].id));
        json_object_set_new(p, "attacker", json_string(bar_pid(sc, s->rb_unit)));
        json_object_set_new(p, "hex", hex_json(sc, s->rb_target));
        json_object_set_new(o, "pending", p);
    } else {
        json_object_set_new(o, "pending", json_null());
    }
    json_object_set_new(o, "over", json_boolean(s->phase == BP_OVER));
    if (s->phase == BP_OVER) {
        mk_result r;
        bar_result(s, sc, &r);
        json_t *res = json_object();
        json_object_set_new(res, "winner", r.winner >= 0 ? json_string(sc->sides[r.winner].id) : json_null());
        json_object_set_new(res, "level", json_string(r.level));
        json_object_set_new(res, "reason", json_string(r.reason));
        json_object_set_new(o, "result", res);
    } else {
        json_object_set_new(o, "result", json_null());
    }
    return o;
}

static const char *const type_names[BA_COUNT] = {"",     "activate", "next", "move",  "face",  "form",
                                                 "enter", "fire", "close_combat", "snipe", "rout", "exit", "guard",
                                                 "retreat_before_close_combat", "opportunity_fire", "detach",
                                                 "countercharge", "opportunity_charge", "mount", "prolonge",
                                                 "attach", "special_result", "deploy"};

static json_t *action_json(const void *st, const mk_scenario *sc, const mk_action *a)
{
    const bar_state *s = st;
    const bar_ext *x = bar_x(sc);
    const mk_grid *g = &sc->map.grid;
    json_t *o = json_object();
    char text[256], lb[MK_HEX_LABEL_MAX], lb2[MK_HEX_LABEL_MAX];
    int t = a->type < BA_COUNT ? a->type : BA_NONE;
    json_object_set_new(o, "type", json_string(type_names[t]));
    text[0] = 0;
    switch (t) {
    case BA_ACTIVATE: {
        const bar_org *org = &x->oob.org[a->other];
        json_object_set_new(o, "command", json_string(org->id));
        if (a->flags & BAF_WING)
            json_object_set_new(o, "wing", json_true());
        snprintf(text, sizeof text, "Activate %s (%s)%s", org->id, org->name,
                 a->flags & BAF_WING ? ", trying a Wing Activation for a second Command (2.4a)" : "");
        break;
    }
    case BA_NEXT:
        snprintf(text, sizeof text, "%s",
                 s->phase == BP_DEPLOY ? (s->side == x->scen.deploys_first ? "End the deployment: the other side deploys"
                                                                           : "End the deployment: to the first turn")
                 : s->phase == BP_GUARD ? "The baggage train guard is complete"
                 : s->phase == BP_MOVE ? "End movement: to the Fire Combat Segment"
                 : s->phase == BP_FIRE ? "End fire: to the Close Combat Segment"
                                       : "End the activation");
        break;
    case BA_MOVE:
    case BA_ENTER:
    case BA_PROLONGE:
    case BA_DEPLOY:
        json_object_set_new(o, "unit", json_string(bar_pid(sc, a->unit)));
        json_object_set_new(o, "path", json_pack("[o]", hex_json(sc, a->path[0])));
        if (t == BA_DEPLOY)
            snprintf(text, sizeof text, "Deploy %s %s-%s (Monmouth 7.xb B)", bar_pid(sc, a->unit),
                     mk_hex_label(g, s->pc[a->unit].hex, lb), mk_hex_label(g, a->path[0], lb2));
        else if (t == BA_PROLONGE)
            snprintf(text, sizeof text, "%s prolonges %s-%s, unlimbered (%g MP; Monmouth 2.2d F)",
                     bar_pid(sc, a->unit), mk_hex_label(g, s->pc[a->unit].hex, lb), mk_hex_label(g, a->path[0], lb2),
                     a->cost / 2.0);
        else if (t == BA_ENTER)
            snprintf(text, sizeof text, "Enter %s at %s", bar_pid(sc, a->unit), mk_hex_label(g, a->path[0], lb));
        else
            snprintf(text, sizeof text, "Move %s %s-%s (%g MP)", bar_pid(sc, a->unit),
                     mk_hex_label(g, s->pc[a->unit].hex, lb), mk_hex_label(g, a->path[0], lb2), a->cost / 2.0);
        break;
    case BA_FACE:
        json_object_set_new(o, "unit", json_string(bar_pid(sc, a->unit)));
        json_object_set_new(o, "facing", json_integer(a->target * 30));
        if (a->flags & (BAF_PIVOT_FIRST | BAF_PIVOT_SECOND)) {   /* 2.1a: a two-hex Line's wheel */
            const char *pv = a->flags & BAF_PIVOT_SECOND ? "second" : "first";
            json_object_set_new(o, "pivot", json_string(pv));
            snprintf(text, sizeof text, "%s wheels about its %s hex to %d degrees (%g MP)", bar_pid(sc, a->unit), pv,
                     a->target * 30, a->cost / 2.0);
        } else {
            snprintf(text, sizeof text, "Face %s to %d degrees (%g MP)", bar_pid(sc, a->unit), a->target * 30,
                     a->cost / 2.0);
        }
        break;
    case BA_FORM:
        json_object_set_new(o, "unit", json_string(bar_pid(sc, a->unit)));
        json_object_set_new(o, "formation", json_string(bar_formation_name(a->target)));
        if (a->target == BAR_FM_HOOK) {
            const char *end = a->flags & BAF_HOOK_LEFT ? "left" : "right";
            json_object_set_new(o, "hook", json_string(end));
            snprintf(text, sizeof text, "%s forms hook, the %s end bent back (%g MP)", bar_pid(sc, a->unit), end,
                     a->cost / 2.0);
        } else if (a->npath) {   /* 2.1c: a two-hex Road Column's trailing hex */
            json_object_set_new(o, "tail", hex_json(sc, a->path[0]));
            snprintf(text, sizeof text, "%s forms %s, trailing into %s (%g MP)", bar_pid(sc, a->unit),
                     bar_formation_name(a->target), mk_hex_label(g, a->path[0], lb), a->cost / 2.0);
        } else {
            snprintf(text, sizeof text, "%s forms %s (%g MP)", bar_pid(sc, a->unit), bar_formation_name(a->target),
                     a->cost / 2.0);
        }
        break;
    case BA_FIRE:
    case BA_CC:
        json_object_set_new(o, "unit", json_string(bar_pid(sc, a->unit)));
        json_object_set_new(o, "target", hex_json(sc, a->target));
        if (t == BA_FIRE) {
            int col = -1, guns = a->flags & BAF_GUNS ? a->other : -1;
            int str = bar_fire_strength_with(s, sc, a->unit, guns, a->target, &col);
            if (guns >= 0)
                json_object_set_new(o, "with_guns", json_true());
            snprintf(text, sizeof text, "%s%s%s fires at %s: strength %.2f, column %s%s", bar_pid(sc, a->unit),
                     guns >= 0 ? " with " : "", guns >= 0 ? bar_pid(sc, guns) : "",
                     mk_hex_label(g, a->target, lb), str / 100.0,
                     col >= 0 ? x->ch.fire.col[col].name : "below the table",
                     guns >= 0 ? " (Monmouth 2.2d E iv)"
                     : bar_piece_active(s, sc, a->unit) ? ""
                     : " (with the battery, Monmouth 3.2b C-D, 4.2b D)");
        } else if (a->flags & BAF_CHARGE) {
            json_object_set_new(o, "charge", json_true());
            json_object_set_new(o, "path", json_pack("[o]", hex_json(sc, a->path[0])));
            snprintf(text, sizeof text, "%s charges %s from %s (Monmouth 2.3)", bar_pid(sc, a->unit),
                     mk_hex_label(g, a->target, lb), mk_hex_label(g, a->path[0], lb2));
        } else {
            snprintf(text, sizeof text, "%s attacks %s in Close Combat", bar_pid(sc, a->unit),
                     mk_hex_label(g, a->target, lb));
        }
        break;
    case BA_ATTACH:
        json_object_set_new(o, "unit", json_string(bar_pid(sc, a->unit)));
        json_object_set_new(o, "leader", json_string(bar_pid(sc, a->other)));
        snprintf(text, sizeof text, "%s attaches %s to this Command for the turn (Monmouth %s, Standard 6.4)",
                 bar_pid(sc, a->other), bar_pid(sc, a->unit), x->p[a->other].side == BAR_AMERICAN ? "3.2b C" : "4.2b D");
        break;
    case BA_SNIPE:
        json_object_set_new(o, "unit", json_string(bar_pid(sc, a->unit)));
        json_object_set_new(o, "leader", json_string(bar_pid(sc, a->other)));
        snprintf(text, sizeof text, "%s snipes at %s (%d hexes: %d-99 hits, Monmouth 2.6b)", bar_pid(sc, a->unit),
                 bar_pid(sc, a->other), mk_hex_distance(g, s->pc[a->unit].hex, a->target),
                 bar_snipe_need(mk_hex_distance(g, s->pc[a->unit].hex, a->target)));
        json_object_set_new(o, "target", hex_json(sc, a->target));
        break;
    case BA_EXIT:
        json_object_set_new(o, "unit", json_string(bar_pid(sc, a->unit)));
        if (a->flags == 1)
            json_object_set_new(o, "off_map", json_true());
        if (a->flags == 2)
            json_object_set_new(o, "advanced_corps", json_true());
        snprintf(text, sizeof text, "%s leaves the map from %s (%s)", bar_pid(sc, a->unit),
                 mk_hex_label(g, s->pc[a->unit].hex, lb),
                 a->flags == 2 ? "the Advanced Corps, Monmouth 7.4a G: reorganized, back from 5:00 AM 29 June"
                 : a->flags ? "off-map movement, Monmouth 3.4c: back after the next turn"
                 : x->p[a->unit].side == BAR_AMERICAN ? "Monmouth 7.1a A" : "Monmouth 7.2d B, 7.3d C, 7.4d C");
        break;
    case BA_DETACH:
        json_object_set_new(o, "unit", json_string(bar_pid(sc, a->unit)));
        snprintf(text, sizeof text, "%s takes his Wing as a Detachment (Monmouth %s)", bar_pid(sc, a->unit),
                 s->side == BAR_AMERICAN ? "3.3" : "4.3");
        break;
    case BA_OPFIRE:
        if (a->unit >= 0) {
            json_object_set_new(o, "unit", json_string(bar_pid(sc, a->unit)));
            if ((s->of_kind & BOF_ROAD) && bar_x(sc)->p[a->unit].kind == BK_ARTILLERY &&
                s->pc[a->unit].form == BAR_FM_ARTILLERY)
                snprintf(text, sizeof text, "Halt! %s fires at %s on the road (Monmouth 2.2d D)",
                         bar_pid(sc, a->unit), bar_pid(sc, a->other));
            else
                snprintf(text, sizeof text, "%s makes Opportunity Fire at %s (Series 12.8, our reading)",
                         bar_pid(sc, a->unit), bar_pid(sc, a->other));
        } else {
            json_object_set_new(o, "unit", json_null());
            snprintf(text, sizeof text, "Let %s march on (no Opportunity Fire)", bar_pid(sc, a->other));
        }
        break;
    case BA_COUNTERCHARGE:
    case BA_OPCHARGE: {
        bool cc = t == BA_COUNTERCHARGE;
        if (a->unit >= 0) {
            json_object_set_new(o, "unit", json_string(bar_pid(sc, a->unit)));
            snprintf(text, sizeof text, "%s %s %s (Monmouth 2.3b; the procedure is ours)", bar_pid(sc, a->unit),
                     cc ? "countercharges" : "makes an Opportunity Charge against", bar_pid(sc, a->other));
        } else {
            json_object_set_new(o, "unit", json_null());
            snprintf(text, sizeof text, "%s", cc ? "No Countercharge" : "No Opportunity Charge");
        }
        break;
    }
    case BA_MOUNT:
        json_object_set_new(o, "unit", json_string(bar_pid(sc, a->unit)));
        json_object_set_new(o, "mounted", json_boolean(a->flags));
        json_object_set_new(o, "formation", json_string(bar_formation_name(a->target)));
        json_object_set_new(o, "facing", json_integer(a->other * 30));
        snprintf(text, sizeof text, "%s %s: %s facing %d degrees (all MPs, Monmouth %s)", bar_pid(sc, a->unit),
                 a->flags ? "mounts" : "dismounts", bar_formation_name(a->target), a->other * 30,
                 x->p[a->unit].kind == BK_CAVALRY ? "7.4a C" : "4.1b E");
        break;
    case BA_SPECIAL:
        if (a->other >= 0) {
            json_object_set_new(o, "command", json_string(x->oob.org[a->other].id));
            if (s->sr == BAR_INI_FREE_COMBAT)
                json_object_set_new(o, "close", json_boolean(a->flags & BAF_CLOSE));
            snprintf(text, sizeof text, "%s: %s%s (Monmouth 6.2)",
                     s->sr == BAR_INI_CONFUSION       ? "Confusion"
                     : s->sr == BAR_INI_FREE_COMBAT   ? "Free Combat"
                     : s->sr == BAR_INI_SPECIAL_RALLY ? "Special Rally"
                                                      : "Leader Initiative",
                     x->oob.org[a->other].id,
                     s->sr != BAR_INI_FREE_COMBAT ? "" : a->flags & BAF_CLOSE ? ", Close Combat" : ", Fire Combat");
        } else {
            json_object_set_new(o, "tempo",
                                json_string(a->flags & BAF_UP ? "up" : a->flags & BAF_DOWN ? "down" : "none"));
            snprintf(text, sizeof text, "Battle Tempo: the End Turn marker %s (Monmouth 6.2g)",
                     a->flags & BAF_UP ? "up a box" : a->flags & BAF_DOWN ? "down a box" : "stays");
        }
        break;
    case BA_RBCC:
        json_object_set_new(o, "retreat", json_boolean(a->flags));
        snprintf(text, sizeof text, "%s",
                 a->flags ? "Retreat Before Close Combat: the defenders fall back a hex"
                          : "Stand and receive the Close Combat");
        break;
    case BA_GUARD:
        json_object_set_new(o, "unit", json_string(bar_pid(sc, a->unit)));
        snprintf(text, sizeof text, "%s joins the baggage train guard (Monmouth 7.4a F)", bar_pid(sc, a->unit));
        break;
    case BA_ROUT:
        json_object_set_new(o, "unit", json_string(bar_pid(sc, a->unit)));
        if (s->pc[a->unit].form == BAR_FM_ARTILLERY)
            snprintf(text, sizeof text, "%s limbers and routs voluntarily, up to 4 hexes (Monmouth 2.5b C)",
                     bar_pid(sc, a->unit));
        else
            snprintf(text, sizeof text, "%s routs voluntarily, up to 8 hexes (Monmouth 2.5 B)", bar_pid(sc, a->unit));
        break;
    default:
        break;
    }
    json_object_set_new(o, "text", json_string(text));
    json_object_set_new(o, "cost", json_integer(a->cost));
    return o;
}

static int action_parse(const void *st, const mk_scenario *sc, json_t *obj, mk_action *out,
                        mk_error *err)
{
    const bar_state *s = st;
    const bar_ext *x = bar_x(sc);
    *out = (mk_action){.unit = -1, .other = -1, .target = -1};
    const char *type = json_string_value(json_object_get(obj, "type"));
    int t = -1;
    for (int k = 1; k < BA_COUNT && type; k++)
        if (!strcmp(type_names[k], type))
            t = k;
    if (t < 0)
        return mk_error_set(err, "bad_arg", "action.type: one of activate, next, move, face, form, rout, snipe, exit, guard, "
                                            "enter, prolonge, fire, close_combat, retreat_before_close_combat, "
                                            "opportunity_fire, detach, countercharge, opportunity_charge, mount, attach, "
                                            "special_result, deploy");
    out->type = (uint8_t)t;
    const char *key;
    json_t *v;
    json_object_foreach(obj, key, v) {
        static const char *const ok[] = {"type", "text", "cost", "unit", "path", "target", "facing",
                                         "formation", "command", "wing", "leader", "charge", "retreat", "tail", "pivot",
                                         "off_map", "hook", "mounted", "with_guns", "close", "tempo",
                                         "advanced_corps", NULL};
        bool known = false;
        for (int k = 0; ok[k]; k++)
            known |= !strcmp(ok[k], key);
        if (!known)
            return mk_error_set(err, "bad_arg", "action.%s: unknown field", key);
        if ((!strcmp(key, "wing") || !strcmp(key, "charge") || !strcmp(key, "off_map") || !strcmp(key, "retreat") ||
             !strcmp(key, "mounted") || !strcmp(key, "with_guns") || !strcmp(key, "close") ||
             !strcmp(key, "advanced_corps")) &&
            !json_is_boolean(v))
            return mk_error_set(err, "bad_arg", "action.%s: true or false", key);
    }
    if (t == BA_ACTIVATE) {
        const char *c = json_string_value(json_object_get(obj, "command"));
        int org = c ? bar_oob_find_org(&x->oob, s->side, c) : -1;
        if (org < 0)
            return mk_error_set(err, "bad_arg", "action.command: no Command '%s' of the %s",
                                c ? c : "(missing)", sc->sides[s->side].id);
        out->other = (int16_t)org;
        out->flags = json_is_true(json_object_get(obj, "wing")) ? BAF_WING : 0;
        return 0;
    }
    if (t == BA_NEXT)
        return 0;
    if (t == BA_SPECIAL) {   /* 6.2c-g: {"command": id, "close": bool} or {"tempo": "up"|"down"|"none"} */
        const char *c = json_string_value(json_object_get(obj, "command"));
        const char *tp = json_string_value(json_object_get(obj, "tempo"));
        if (c) {
            int org = bar_oob_find_org(&x->oob, s->side, c);
            if (org < 0)
                return mk_error_set(err, "bad_arg", "action.command: no Command '%s' of the %s", c,
                                    sc->sides[s->side].id);
            out->other = (int16_t)org;
            out->flags = json_is_true(json_object_get(obj, "close")) ? BAF_CLOSE : 0;
        } else if (tp && (!strcmp(tp, "up") || !strcmp(tp, "down") || !strcmp(tp, "none"))) {
            out->flags = !strcmp(tp, "up") ? BAF_UP : !strcmp(tp, "down") ? BAF_DOWN : 0;
        } else {
            return mk_error_set(err, "bad_arg", "action.command (a Command id) or action.tempo (up, down, none)");
        }
        return 0;
    }
    if (t == BA_OPFIRE) {
        json_t *u = json_object_get(obj, "unit");
        out->other = s->of_unit;
        out->target = -1;
        if (json_is_null(u) || !u)
            return 0;
        int j = json_is_string(u) ? mk_scenario_unit(sc, json_string_value(u)) : -1;
        if (j < 0)
            return mk_error_set(err, "bad_arg", "action.unit: an artillery unit id, or null to let it pass");
        out->unit = (int16_t)j;
        out->target = s->of_unit >= 0 ? s->pc[s->of_unit].hex : -1;
        return 0;
    }
    if (t == BA_COUNTERCHARGE || t == BA_OPCHARGE) {
        json_t *u = json_object_get(obj, "unit");
        out->other = s->cx_unit;
        out->target = -1;
        if (json_is_null(u) || !u)
            return 0;
        int j = json_is_string(u) ? mk_scenario_unit(sc, json_string_value(u)) : -1;
        if (j < 0)
            return mk_error_set(err, "bad_arg", "action.unit: a cavalry unit id, or null to let it pass");
        out->unit = (int16_t)j;
        out->target = s->cx_unit >= 0 ? s->pc[s->cx_unit].hex : -1;
        return 0;
    }
    if (t == BA_RBCC) {
        json_t *r = json_object_get(obj, "retreat");
        if (!json_is_boolean(r))
            return mk_error_set(err, "bad_arg", "action.retreat: true or false");
        out->flags = json_is_true(r) ? 1 : 0;
        return 0;
    }
    const char *u = json_string_value(json_object_get(obj, "unit"));
    int i = u ? mk_scenario_unit(sc, u) : -1;
    if (i < 0)
        return mk_error_set(err, "bad_arg", "action.unit: no unit '%s'", u ? u : "(missing)");
    out->unit = (int16_t)i;
    char e2[120];
    if (t == BA_MOVE || t == BA_ENTER || t == BA_PROLONGE || t == BA_DEPLOY) {
        json_t *p = json_object_get(obj, "path");
        mk_hex h;
        if (json_array_size(p) != 1 || !json_is_string(json_array_get(p, 0)))
            return mk_error_set(err, "bad_arg", "action.path: one hex label (a move is one hex at a time)");
        if (mk_hex_parse(&sc->map.grid, json_string_value(json_array_get(p, 0)), &h, e2, sizeof e2) < 0)
            return mk_error_set(err, "bad_arg", "action.path: %s", e2);
        out->path[0] = h;
        out->npath = 1;
    } else if (t == BA_ROUT || t == BA_EXIT || t == BA_GUARD || t == BA_DETACH) {
        out->flags = t != BA_EXIT                                          ? 0
                     : json_is_true(json_object_get(obj, "off_map"))        ? 1
                     : json_is_true(json_object_get(obj, "advanced_corps")) ? 2   /* 7.4a G */
                                                                            : 0;
        return 0;
    } else if (t == BA_SNIPE || t == BA_ATTACH) {
        const char *l = json_string_value(json_object_get(obj, "leader"));
        int li = l ? mk_scenario_unit(sc, l) : -1;
        if (li < 0)
            return mk_error_set(err, "bad_arg", "action.leader: no leader '%s'", l ? l : "(missing)");
        out->other = (int16_t)li;
        out->target = s->pc[li].hex;
    } else if (t == BA_FACE) {
        json_t *f = json_object_get(obj, "facing");
        int d = json_is_integer(f) ? (int)json_integer_value(f) : -1;
        if (d < 0 || d >= 360 || d % 30)
            return mk_error_set(err, "bad_arg", "action.facing: degrees 0-330 in steps of 30");
        out->target = (int16_t)(d / 30);
        const char *pv = json_string_value(json_object_get(obj, "pivot"));   /* 2.1a: a wheel */
        if (json_object_get(obj, "pivot") && (!pv || (strcmp(pv, "first") && strcmp(pv, "second"))))
            return mk_error_set(err, "bad_arg", "action.pivot: \"first\" or \"second\" (a two-hex Line's wheel)");
        out->flags = !pv ? 0 : !strcmp(pv, "first") ? BAF_PIVOT_FIRST : BAF_PIVOT_SECOND;
    } else if (t == BA_FORM || t == BA_MOUNT) {
        int f = form_of(json_string_value(json_object_get(obj, "formation")));
        if (f < 0)
            return mk_error_set(err, "bad_arg", "action.formation: unknown formation");
        out->target = (int16_t)f;
        json_t *hk = json_object_get(obj, "hook");
        const char *end = json_string_value(hk);
        if (hk && (f != BAR_FM_HOOK || !end || (strcmp(end, "left") && strcmp(end, "right"))))
            return mk_error_set(err, "bad_arg", "action.hook: \"left\" or \"right\", with \"formation\": \"hook\"");
        if (f == BAR_FM_HOOK && !hk)
            return mk_error_set(err, "bad_arg", "action.hook: which end the Hook bends, \"left\" or \"right\"");
        out->flags = end && !strcmp(end, "left") ? BAF_HOOK_LEFT : 0;
        json_t *tl = json_object_get(obj, "tail");   /* 2.1c: the trailing hex */
        if (tl) {
            mk_hex h;
            if (!json_is_string(tl) || mk_hex_parse(&sc->map.grid, json_string_value(tl), &h, e2, sizeof e2) < 0)
                return mk_error_set(err, "bad_arg", "action.tail: a hex label (a Road Column's trailing hex)");
            out->path[0] = h;
            out->npath = 1;
        }
        if (t == BA_MOUNT) {
            json_t *m = json_object_get(obj, "mounted"), *fc = json_object_get(obj, "facing");
            int d = json_is_integer(fc) ? (int)json_integer_value(fc) : -1;
            if (!json_is_boolean(m))
                return mk_error_set(err, "bad_arg", "action.mounted: true (mount) or false (dismount)");
            if (d < 0 || d >= 360 || d % 30)
                return mk_error_set(err, "bad_arg", "action.facing: degrees 0-330 in steps of 30");
            out->flags = json_is_true(m) ? 1 : 0;
            out->other = (int16_t)(d / 30);
        }
    } else {
        mk_hex h;
        json_t *tg = json_object_get(obj, "target");
        if (!json_is_string(tg))
            return mk_error_set(err, "bad_arg", "action.target: a hex label");
        if (mk_hex_parse(&sc->map.grid, json_string_value(tg), &h, e2, sizeof e2) < 0)
            return mk_error_set(err, "bad_arg", "action.target: %s", e2);
        out->target = h;
        if (t == BA_CC && json_is_true(json_object_get(obj, "charge"))) {
            /* the charge's end hex follows from the position (bar_charge_end) */
            out->flags = BAF_CHARGE;
            out->npath = 1;
            out->path[0] = bar_charge_end(s, sc, i, h);
        }
        if (t == BA_FIRE && json_is_true(json_object_get(obj, "with_guns"))) {
            /* 2.2d E iv: the unit's regimental guns follow from the position */
            out->flags = BAF_GUNS;
            out->other = (int16_t)bar_rgt_guns_with(s, sc, i);
        }
    }
    return 0;
}

const mk_ruleset mk_bar_ruleset = {
    .id = "bar",
    .name = "The Battle of Monmouth (BAR)",
    .state_size = sizeof(bar_state),
    .terrains = bar_terrain_names,
    .nterrains = BAR_NTERRAIN,
    .kinds = bar_kind_names,
    .nkinds = BK_COUNT,
    .options = bar_options,
    .noptions = BAR_NOPTIONS,
    .check_options = check_options,
    .check_scenario = check_scenario,
    .prepare = prepare,
    .release = release,
    .init = init,
    .legal = legal,
    .apply = apply,
    .to_move = to_move,
    .active = active,
    .over = over,
    .result = bar_result,
    .hash = hash,
    .evaluate = bar_evaluate,
    .ai_rollout_depth = 2, /* a turn is hundreds of actions: no rollout reaches the horizon (docs/ai.md) */
    .state_json = state_json,
    .action_json = action_json,
    .action_parse = action_parse,
};
