/* test_bar_hook.c - the Monmouth (BAR) Hook formation (docs/bar.md
 * "Hook": our reconstruction of the series' bent Line), each test named by
 * the section it checks: forming and straightening it (7.1a B, 2.1a), its
 * front and ZOC, stacking as Line (2.1), fire per target hex (2.1e), the
 * Line/Hook Combat Value of 2.1a, the set-up in Hook (7.1a B, 7.2a B,
 * line_may_hook) and the state and action JSON. Positions are built on
 * scenario 1's map (tests/bar_fixture.h). */
#define _POSIX_C_SOURCE 200809L
#include <sys/stat.h>
#include <unistd.h>

#include "bar_fixture.h"


/* Is an action of type for piece i with target (and flags) legal now? */
static bool legal_has(int type, int i, int target, int flags)
{
    int n = sc->rs->legal(s, sc, acts, 4096);
    for (int k = 0; k < n; k++)
        if (acts[k].type == type && acts[k].unit == i && acts[k].target == target && acts[k].flags == flags)
            return true;
    return false;
}

/* The neighbour of hex h at bearing b (0-11, even), from the core
 * directions (bar_dir_step). */
static void label_of(mk_hex h, char *lb)
{
    mk_hex_label(&sc->map.grid, h, lb);
}

/* Grayson's Command activated, In Command (the roll forced), Va Bn/GD at
 * E2019 facing east in form. */
static int activate_gd(int form)
{
    empty(3);
    place("GD/LEE", "E2019", BAR_FM_LINE, 90);
    place("Va Bn/GD", "E2019", form, 90);
    s->side = BAR_AMERICAN;
    force(1, 35);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"GD\"}"), 0);
    CHECK_EQ(s->phase, BP_MOVE);
    return pid("Va Bn/GD");
}

/* 7.1a B, 2.1a (ours: docs/bar.md "Hook"): infantry in Line bends either
 * end back into Hook for hook_mp; a Hook bends the other end instead or
 * straightens into Line; it changes to nothing else and does not move. */
static void test_hook_forming(void)
{
    CHECK_EQ(x->se.hook_half, 1);   /* series.json: 0.5 MP (estimate) */
    CHECK_EQ(x->se.hook_arm_sps, 3);
    int va = activate_gd(BAR_FM_LINE);
    int mp = s->pc[va].mp;
    CHECK(mp > 2);
    CHECK(legal_has(BA_FORM, va, BAR_FM_HOOK, 0));
    CHECK(legal_has(BA_FORM, va, BAR_FM_HOOK, BAF_HOOK_LEFT));
    CHECK(legal_has(BA_FORM, va, BAR_FM_ATTACK_COLUMN, 0));
    /* the protocol needs the end */
    CHECK(act("{\"type\":\"form\",\"unit\":\"Va Bn/GD\",\"formation\":\"hook\"}") < 0);
    CHECK(act("{\"type\":\"form\",\"unit\":\"Va Bn/GD\",\"formation\":\"hook\",\"hook\":\"up\"}") < 0);
    CHECK(act("{\"type\":\"form\",\"unit\":\"Va Bn/GD\",\"formation\":\"square\",\"hook\":\"left\"}") < 0);
    CHECK_EQ(s->pc[va].form, BAR_FM_LINE);
    CHECK_EQ(act("{\"type\":\"form\",\"unit\":\"Va Bn/GD\",\"formation\":\"hook\",\"hook\":\"right\"}"), 0);
    CHECK_EQ(s->pc[va].form, BAR_FM_HOOK);
    CHECK(!(s->pc[va].more2 & BM2_HOOK_LEFT));
    CHECK_EQ(s->pc[va].mp, mp - 1);
    CHECK_EQ(s->pc[va].facing, 3);   /* the Line's arm keeps its facing */
    const mk_event *e = find_ev("formation", NULL);
    CHECK(e && e->text && strstr(e->text, "right"));
    /* in Hook: the other end, or Line; no other formation, no move, facing yes */
    CHECK(!legal_has(BA_FORM, va, BAR_FM_HOOK, 0));
    CHECK(legal_has(BA_FORM, va, BAR_FM_HOOK, BAF_HOOK_LEFT));
    CHECK(legal_has(BA_FORM, va, BAR_FM_LINE, 0));
    CHECK(!legal_has(BA_FORM, va, BAR_FM_ATTACK_COLUMN, 0));
    CHECK(!legal_has(BA_FORM, va, BAR_FM_SQUARE, 0));
    CHECK_EQ(legal_count(BA_MOVE, va), 0);
    CHECK(legal_count(BA_FACE, va) > 0);
    char lb[MK_HEX_LABEL_MAX], js[160];
    label_of(nb_at(hx("E2019"), 2), lb);
    snprintf(js, sizeof js, "{\"type\":\"move\",\"unit\":\"Va Bn/GD\",\"path\":[\"%s\"]}", lb);
    CHECK(act(js) < 0);   /* apply = legal */
    CHECK(act("{\"type\":\"form\",\"unit\":\"Va Bn/GD\",\"formation\":\"attack_column\"}") < 0);
    CHECK_EQ(act("{\"type\":\"form\",\"unit\":\"Va Bn/GD\",\"formation\":\"hook\",\"hook\":\"left\"}"), 0);
    CHECK(s->pc[va].more2 & BM2_HOOK_LEFT);
    CHECK_EQ(s->pc[va].mp, mp - 2);
    CHECK_EQ(act("{\"type\":\"form\",\"unit\":\"Va Bn/GD\",\"formation\":\"line\"}"), 0);
    CHECK_EQ(s->pc[va].form, BAR_FM_LINE);
    CHECK(!(s->pc[va].more2 & BM2_HOOK_LEFT));
    CHECK_EQ(s->pc[va].mp, mp - 3);
    CHECK(legal_count(BA_MOVE, va) > 0);   /* a Line moves again */
    /* only from Line: a unit in Attack Column does not bend */
    va = activate_gd(BAR_FM_ATTACK_COLUMN);
    CHECK(!legal_has(BA_FORM, va, BAR_FM_HOOK, 0));
    CHECK(act("{\"type\":\"form\",\"unit\":\"Va Bn/GD\",\"formation\":\"hook\",\"hook\":\"right\"}") < 0);
    /* with half an MP left a Hook still forms (its own cost), a Column not */
    va = activate_gd(BAR_FM_LINE);
    s->pc[va].mp = 1;
    CHECK(legal_has(BA_FORM, va, BAR_FM_HOOK, 0));
    CHECK(!legal_has(BA_FORM, va, BAR_FM_ATTACK_COLUMN, 0));
}

/* Our Hook's front (docs/bar.md "Hook"): the Line's 120 degrees plus the
 * bent arm's, 60 degrees to the right or left; its ZOC is that front. */
static void test_hook_front_and_zoc(void)
{
    empty(3);
    int va = pid("Va Bn/GD");
    place("Va Bn/GD", "E2019", BAR_FM_LINE, 90);   /* a hexpoint: NE and SE in front */
    CHECK_EQ(bar_hook_arms(s, va, 2), 3);
    CHECK_EQ(bar_hook_arms(s, va, 4), 3);
    CHECK_EQ(bar_hook_arms(s, va, 6), 0);
    CHECK(!bar_faces(s, va, 6));
    s->pc[va].form = BAR_FM_HOOK;   /* bent right: the arm faces 150 degrees */
    CHECK_EQ(bar_hook_arms(s, va, 2), 1);   /* NE: the Line's arm only */
    CHECK_EQ(bar_hook_arms(s, va, 4), 3);   /* SE: both */
    CHECK_EQ(bar_hook_arms(s, va, 6), 2);   /* S: the bent arm only */
    CHECK_EQ(bar_hook_arms(s, va, 0), 0);
    CHECK_EQ(bar_hook_arms(s, va, 8), 0);
    CHECK(bar_faces(s, va, 6));
    s->pc[va].more2 |= BM2_HOOK_LEFT;   /* bent left: the arm faces 30 degrees */
    CHECK_EQ(bar_hook_arms(s, va, 0), 2);   /* N */
    CHECK_EQ(bar_hook_arms(s, va, 2), 3);
    CHECK_EQ(bar_hook_arms(s, va, 4), 1);
    CHECK_EQ(bar_hook_arms(s, va, 6), 0);
    /* facing a hexside (120): the Line has 3 front neighbours, the Hook 4 */
    s->pc[va].facing = 4;
    s->pc[va].more2 &= (uint8_t)~BM2_HOOK_LEFT;
    int fronts = 0;
    for (int b = 0; b < 12; b += 2)
        fronts += bar_faces(s, va, b);
    CHECK_EQ(fronts, 4);
    s->pc[va].form = BAR_FM_LINE;
    fronts = 0;
    for (int b = 0; b < 12; b += 2)
        fronts += bar_faces(s, va, b);
    CHECK_EQ(fronts, 3);
    /* ZOC: the hex south of the Hook (facing east, bent right) is in it,
     * not in the Line's */
    s->pc[va].facing = 3;
    mk_hex south = nb_at(hx("E2019"), 6), north = nb_at(hx("E2019"), 0);
    CHECK(!bar_in_ezoc(s, sc, BAR_BRITISH, south));
    s->pc[va].form = BAR_FM_HOOK;
    CHECK(bar_in_ezoc(s, sc, BAR_BRITISH, south));
    CHECK(!bar_in_ezoc(s, sc, BAR_BRITISH, north));
    CHECK(bar_is_front(s, sc, va, south));
    /* 2.1: it stacks as Line */
    CHECK_EQ(x->ch.stacking[BAR_FM_HOOK], x->ch.stacking[BAR_FM_LINE]);
    place("Patt/GD", "E2019", BAR_FM_LINE, 90);
    int with_hook = bar_stack_limit(s, sc, hx("E2019"), 0, -1);
    s->pc[va].form = BAR_FM_LINE;
    CHECK_EQ(bar_stack_limit(s, sc, hx("E2019"), 0, -1), with_hook);
    CHECK_STR(bar_formation_name(BAR_FM_HOOK), "hook");
}

/* 2.1e "For Hook, see the diagrams on the 'Fire Combat Card'" (ours):
 * the Line's 6 SPs at a hex both arms bear on, hook_one_arm_sps (3) at a
 * hex one arm does; the bent arm fires where the Line cannot. */
static void test_hook_fire_2_1e(void)
{
    empty(3);
    int lbn = pid("LBn/LAF");   /* 7 SPs */
    CHECK_EQ(x->p[lbn].sp, 7);
    place("LBn/LAF", "E1525", BAR_FM_LINE, 90);
    mk_hex at = hx("E1525"), ne = nb_at(at, 2), se = nb_at(at, 4), so = nb_at(at, 6);
    char lb[3][MK_HEX_LABEL_MAX];
    label_of(ne, lb[0]);
    label_of(se, lb[1]);
    label_of(so, lb[2]);
    place("1 Gr", lb[0], BAR_FM_LINE, 270);
    place("2 Gr", lb[1], BAR_FM_LINE, 270);
    place("Len/HG", lb[2], BAR_FM_LINE, 0);
    int row = x->p[lbn].fire_row, col;
    int six = bar_fire_strength(&x->ch, row, 6, 1, 0), three = bar_fire_strength(&x->ch, row, 3, 1, 0);
    CHECK(six > three && three > 0);
    /* the Line: 6 SPs at NE and SE, nothing south */
    CHECK_EQ(bar_fire_strength_of(s, sc, lbn, ne, &col), six);
    CHECK_EQ(bar_fire_strength_of(s, sc, lbn, se, &col), six);
    CHECK_EQ(bar_fire_strength_of(s, sc, lbn, so, &col), -1);
    /* the Hook bent right */
    s->pc[lbn].form = BAR_FM_HOOK;
    CHECK_EQ(bar_fire_strength_of(s, sc, lbn, ne, &col), three);
    CHECK_EQ(bar_fire_strength_of(s, sc, lbn, se, &col), six);
    CHECK_EQ(bar_fire_strength_of(s, sc, lbn, so, &col), three);
    /* a Hook of 3 SPs or fewer is not cut */
    s->pc[lbn].sp = 2;
    CHECK_EQ(bar_fire_strength_of(s, sc, lbn, ne, &col), bar_fire_strength(&x->ch, row, 2, 1, 0));
    s->pc[lbn].sp = 7;
    /* the Fire Segment lists the south hex for the Hook, not for the Line */
    place("LAF/LEE", "E1525", BAR_FM_LINE, 90);
    place("LEE/GW", "E1525", BAR_FM_LINE, 90);   /* the Army Leader: no Initiative roll */
    s->side = BAR_AMERICAN;
    s->pc[lbn].form = BAR_FM_LINE;
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"LAF\"}"), 0);
    if (s->phase == BP_MOVE)
        CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    CHECK_EQ(s->phase, BP_FIRE);
    CHECK(legal_has(BA_FIRE, lbn, se, 0));
    CHECK(!legal_has(BA_FIRE, lbn, so, 0));
    s->pc[lbn].form = BAR_FM_HOOK;
    bool south_listed = legal_has(BA_FIRE, lbn, so, 0);
    bar_fire_strength_of(s, sc, lbn, so, &col);
    CHECK_EQ(south_listed, col >= 0);   /* listed when its 3 SPs reach the table */
}

/* A British 63/5th attacks the American hex E2019 from its north-east
 * neighbour (the defenders face west: no Defensive Fire); the Close
 * Combat roll forced to 50; returns the CV difference on the roll. */
static int cc_diff(const char *const *defenders, const uint8_t *status, int n)
{
    empty(3);
    mk_hex at = hx("E2019"), ne = nb_at(at, 2);
    char lb[MK_HEX_LABEL_MAX];
    label_of(ne, lb);
    for (int k = 0; k < n; k++) {
        place(defenders[k], "E2019", BAR_FM_LINE, 270);
        s->pc[pid(defenders[k])].status = status[k];
    }
    place("HC", lb, BAR_FM_LINE, 240);
    place("5th/COR", lb, BAR_FM_LINE, 240);
    place("63/5th", lb, BAR_FM_LINE, 240);
    s->side = BAR_BRITISH;   /* Clinton with 5th/COR: no Initiative roll */
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"5th\"}"), 0);
    CHECK(find_ev("roll", "initiative") == NULL);
    while (s->phase == BP_MOVE || s->phase == BP_FIRE)
        CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    CHECK_EQ(s->phase, BP_CC);
    force(1, 50);
    CHECK_EQ(act("{\"type\":\"close_combat\",\"unit\":\"63/5th\",\"target\":\"E2019\"}"), 0);
    CHECK(find_ev("fire", NULL) == NULL);
    const mk_event *r = find_ev("roll", "close_combat");
    CHECK(r != NULL);
    return r ? r->points : -999;
}

/* 2.1a: "the average (rounded) of the Combat Value of the units that
 * contribute the top 6 (not 4) SPs for each hex of the Line/Hook" (ours:
 * best CV on top, unit-weighted, AMB-BAR-11; .5 up, AMB-BAR-8). */
static void test_line_hook_cv_2_1a(void)
{
    int jack = pid("Jack/JD"), lee = pid("Lee/JD"), hen = pid("Hen/JD"), va = pid("Va Bn/GD");
    CHECK_EQ(x->p[jack].sp, 4);
    CHECK_EQ(x->p[lee].sp, 3);
    CHECK_EQ(x->p[jack].cv, 4);
    CHECK_EQ(x->p[lee].cv, 4);
    CHECK_EQ(x->se.cc_shaken, -2);
    CHECK_EQ(x->se.cc_disordered, -1);
    mk_hex h = hx("E2023");
    empty(3);
    CHECK_EQ(bar_line_cv(s, sc, h, BAR_AMERICAN), -99);
    place("Jack/JD", "E2023", BAR_FM_LINE, 120);
    CHECK_EQ(bar_line_cv(s, sc, h, BAR_AMERICAN), 4);
    place("Lee/JD", "E2023", BAR_FM_HOOK, 120);   /* Hook counts as Line */
    s->pc[lee].status = BS_SHAKEN;                /* 4 - 2 = 2 */
    CHECK_EQ(bar_line_cv(s, sc, h, BAR_AMERICAN), 3);   /* (4 + 2) / 2; Jack's 4 SPs are not 6 */
    s->pc[lee].status = BS_DISORDERED;                  /* (4 + 3) / 2 = 3.5: 4 */
    CHECK_EQ(bar_line_cv(s, sc, h, BAR_AMERICAN), 4);
    s->pc[lee].status = BS_SHAKEN;
    place("Hen/JD", "E2023", BAR_FM_LINE, 120);   /* below the top 6 SPs (4 + 3): not counted */
    s->pc[hen].status = BS_SHAKEN | BS_DISORDERED;
    CHECK_EQ(bar_line_cv(s, sc, h, BAR_AMERICAN), 3);
    s->pc[jack].sp = 2;   /* now 2 + 3 < 6: Hen counts, (4 + 2 + 1) / 3 = 2.33: 2 */
    CHECK_EQ(bar_line_cv(s, sc, h, BAR_AMERICAN), 2);
    s->pc[hen].form = BAR_FM_MARCH_COLUMN;   /* not in Line/Hook: not counted */
    CHECK_EQ(bar_line_cv(s, sc, h, BAR_AMERICAN), 3);
    /* a top unit of 6 SPs fills the hex alone */
    empty(3);
    place("Va Bn/GD", "E2023", BAR_FM_LINE, 120);
    place("Lee/JD", "E2023", BAR_FM_LINE, 120);
    s->pc[lee].status = BS_SHAKEN;
    CHECK_EQ(x->p[va].sp, 6);
    CHECK_EQ(bar_line_cv(s, sc, h, BAR_AMERICAN), 4);
    CHECK_EQ(bar_line_cv(s, sc, h, BAR_BRITISH), -99);
    /* in Close Combat: the defending stack's CV is that average */
    static const char *const one[] = {"Jack/JD"}, *const two[] = {"Jack/JD", "Lee/JD"};
    static const uint8_t ok[] = {0}, lee_shaken[] = {0, BS_SHAKEN};
    int alone = cc_diff(one, ok, 1), stacked = cc_diff(two, lee_shaken, 2);
    CHECK(alone != -999);
    CHECK_EQ(stacked, alone + 1);   /* defence 3 instead of Jack's 4 */
}

/* Ours: a Hook holds its ground: it does not attack in Close Combat. */
static void test_hook_no_attack(void)
{
    empty(3);
    place("GD/LEE", "E2019", BAR_FM_LINE, 90);
    place("Va Bn/GD", "E2019", BAR_FM_LINE, 90);
    int va = pid("Va Bn/GD");
    char lb[MK_HEX_LABEL_MAX];
    label_of(nb_at(hx("E2019"), 2), lb);
    place("63/5th", lb, BAR_FM_LINE, 90);   /* facing away: no Defensive Fire */
    s->side = BAR_AMERICAN;
    force(1, 35);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"GD\"}"), 0);
    while (s->phase == BP_MOVE || s->phase == BP_FIRE)
        CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    CHECK_EQ(s->phase, BP_CC);
    CHECK(legal_count(BA_CC, va) > 0);
    s->pc[va].form = BAR_FM_HOOK;
    CHECK_EQ(legal_count(BA_CC, va), 0);
    char js[160];
    snprintf(js, sizeof js, "{\"type\":\"close_combat\",\"unit\":\"Va Bn/GD\",\"target\":\"%s\"}", lb);
    CHECK(act(js) < 0);
}

/* 2.5 C: a routed Hook ends in General Order, the bend forgotten. */
static void test_hook_rout(void)
{
    empty(3);
    place("Va Bn/GD", "E2019", BAR_FM_HOOK, 90);
    int va = pid("Va Bn/GD");
    s->pc[va].more2 |= BM2_HOOK_LEFT;
    mk_events_init(&ev, evs, 512);
    bar_rout_unit(s, sc, va, &ev);
    CHECK_EQ(s->pc[va].form, BAR_FM_GENERAL_ORDER);
    CHECK(!(s->pc[va].more2 & BM2_HOOK_LEFT));
}

/* The state JSON names the formation "hook" and the bent end; the
 * action JSON of a Hook formation change says which end. */
static void test_hook_json(void)
{
    int va = activate_gd(BAR_FM_LINE);
    CHECK_EQ(act("{\"type\":\"form\",\"unit\":\"Va Bn/GD\",\"formation\":\"hook\",\"hook\":\"left\"}"), 0);
    json_t *j = sc->rs->state_json(s, sc);
    json_t *units = json_object_get(j, "units"), *u = json_array_get(units, (size_t)va);
    CHECK_STR(json_string_value(json_object_get(u, "id")), "Va Bn/GD");
    CHECK_STR(json_string_value(json_object_get(u, "formation")), "hook");
    CHECK_STR(json_string_value(json_object_get(u, "hook")), "left");
    json_t *p = json_array_get(units, (size_t)pid("GD/LEE"));
    CHECK(json_object_get(p, "hook") == NULL);
    json_decref(j);
    mk_action a = {.type = BA_FORM, .flags = BAF_HOOK_LEFT, .cost = 1, .unit = (int16_t)va, .other = -1,
                   .target = BAR_FM_HOOK};
    json_t *aj = sc->rs->action_json(s, sc, &a);
    CHECK_STR(json_string_value(json_object_get(aj, "formation")), "hook");
    CHECK_STR(json_string_value(json_object_get(aj, "hook")), "left");
    /* it parses back to the same action */
    mk_action back;
    mk_error err = {0};
    CHECK_EQ(sc->rs->action_parse(s, sc, aj, &back, &err), 0);
    CHECK(mk_action_equal(&a, &back));
    json_decref(aj);
}

/* Scenario 1 with the unit entries changed by edit, loaded; NULL (and
 * the message in msg) if refused. */
static mk_scenario *load_edited(const char *id, const char *form, const char *hook, char *msg, size_t n)
{
    json_error_t je;
    json_t *root = json_load_file("scenarios/bar/1-lees-repulse.json", 0, &je);
    CHECK(root != NULL);
    if (!root)
        return NULL;
    size_t k;
    json_t *u;
    json_array_foreach(json_object_get(root, "units"), k, u) {
        if (strcmp(json_string_value(json_object_get(u, "id")), id))
            continue;
        json_object_set_new(u, "formation", json_string(form));
        if (hook)
            json_object_set_new(u, "hook", json_string(hook));
    }
    int nr;
    const mk_ruleset *const *all = mk_rulesets(&nr);
    mk_error err = {0};
    mk_scenario *out = mk_scenario_from_json(root, "edited", all, nr, &err);
    json_decref(root);
    snprintf(msg, n, "%s", err.msg);
    return out;
}

/* 7.1a B "American units that set up in Line may form a Hook prior to the
 * start of the battle", 7.2a B-7.4a B "(units in Line may also be in
 * Hook)": a scenario file may set up an infantry unit in Hook where the
 * scenario's line_may_hook says so. */
static void test_setup_in_hook_7_1a_b(void)
{
    char msg[256];
    mk_scenario *e = load_edited("Patt/GD", "hook", "left", msg, sizeof msg);
    CHECK(e != NULL);
    if (e) {
        const bar_ext *ex = bar_x(e);
        int i = mk_scenario_unit(e, "Patt/GD");
        CHECK_EQ(ex->p[i].form0, BAR_FM_HOOK);
        CHECK(ex->p[i].hook_left0);
        bar_state t;
        memset(&t, 0, sizeof t);
        CHECK_EQ(e->rs->init(&t, e, 0, 7, NULL, NULL), 0);
        CHECK_EQ(t.pc[i].form, BAR_FM_HOOK);
        CHECK(t.pc[i].more2 & BM2_HOOK_LEFT);
        CHECK_EQ(t.pc[i].facing, 3);
        mk_scenario_free(e);
    }
    e = load_edited("Patt/GD", "hook", NULL, msg, sizeof msg);   /* bent right by default */
    CHECK(e != NULL);
    if (e) {
        CHECK(!bar_x(e)->p[mk_scenario_unit(e, "Patt/GD")].hook_left0);
        mk_scenario_free(e);
    }
    /* refused: a bad end, an end for a Line, a Hook of cavalry or artillery,
     * a reinforcement in Hook */
    CHECK(load_edited("Patt/GD", "hook", "up", msg, sizeof msg) == NULL);
    CHECK(strstr(msg, "hook") != NULL);
    CHECK(load_edited("Patt/GD", "line", "left", msg, sizeof msg) == NULL);
    CHECK(load_edited("SCLH/NJB", "hook", NULL, msg, sizeof msg) == NULL);
    CHECK(strstr(msg, "line_may_hook") != NULL);
    CHECK(load_edited("Fld/GD", "hook", NULL, msg, sizeof msg) == NULL);
    CHECK(load_edited("2 Gr", "hook", NULL, msg, sizeof msg) == NULL);
    /* every scenario says Line units may be in Hook (7.1a B, 7.2a B, 7.3a B, 7.4a B) */
    CHECK_EQ(bar_scen_switch(&x->scen, "line_may_hook", 0), 1);
}

/* line_may_hook false: the set-up in Hook is refused (data/bar copied to a
 * temporary MUSKET_DATA with the switch turned off). */
static void test_setup_hook_switch_off(void)
{
    char dir[] = "/tmp/bar_hook_XXXXXX", p[512], q[512];
    if (!mkdtemp(dir)) {
        CHECK(0);
        return;
    }
    snprintf(p, sizeof p, "%s/data", dir);
    CHECK_EQ(mkdir(p, 0700), 0);
    snprintf(p, sizeof p, "%s/data/bar", dir);
    CHECK_EQ(mkdir(p, 0700), 0);
    snprintf(p, sizeof p, "%s/data/bar/scenarios", dir);
    CHECK_EQ(mkdir(p, 0700), 0);
    static const char *const files[] = {"oob.json", "charts.json", "series.json", "leader-loss-counters.json"};
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
        snprintf(p, sizeof p, "%s/data/bar/%s", MUSKET_DATA_DIR, files[k]);
        snprintf(q, sizeof q, "%s/data/bar/%s", dir, files[k]);
        CHECK_EQ(symlink(p, q), 0);
    }
    snprintf(p, sizeof p, "%s/data/bar/scenarios/1-lees-repulse.json", MUSKET_DATA_DIR);
    json_error_t je;
    json_t *d = json_load_file(p, 0, &je);
    CHECK(d != NULL);
    json_object_set_new(json_object_get(d, "rules"), "line_may_hook", json_false());
    snprintf(q, sizeof q, "%s/data/bar/scenarios/1-lees-repulse.json", dir);
    CHECK_EQ(json_dump_file(d, q, 0), 0);
    json_decref(d);
    setenv("MUSKET_DATA", dir, 1);
    char msg[256];
    mk_scenario *e = load_edited("Patt/GD", "hook", NULL, msg, sizeof msg);
    CHECK(e == NULL);
    CHECK(strstr(msg, "line_may_hook") != NULL);
    mk_scenario_free(e);
    e = load_edited("Patt/GD", "line", NULL, msg, sizeof msg);   /* the copy itself loads */
    CHECK(e != NULL);
    mk_scenario_free(e);
    unsetenv("MUSKET_DATA");
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
        snprintf(q, sizeof q, "%s/data/bar/%s", dir, files[k]);
        unlink(q);
    }
    snprintf(q, sizeof q, "%s/data/bar/scenarios/1-lees-repulse.json", dir);
    unlink(q);
    snprintf(q, sizeof q, "%s/data/bar/scenarios", dir);
    rmdir(q);
    snprintf(q, sizeof q, "%s/data/bar", dir);
    rmdir(q);
    snprintf(q, sizeof q, "%s/data", dir);
    rmdir(q);
    rmdir(dir);
}

/* The state stays within its budget (a Hook costs no bytes). */
static void test_state_size(void)
{
    CHECK(sizeof(bar_state) <= 4096);
    CHECK_EQ(BAR_FM_HOOK, BAR_FM_CAVALRY + 1);   /* appended: the other values keep their numbers */
}

int main(void)
{
    if (!bar_fixture_load())
        return check_done("test_bar_hook");
    test_hook_forming();
    test_hook_front_and_zoc();
    test_hook_fire_2_1e();
    test_line_hook_cv_2_1a();
    test_hook_no_attack();
    test_hook_rout();
    test_hook_json();
    test_setup_in_hook_7_1a_b();
    test_setup_hook_switch_off();
    test_state_size();
    mk_scenario_free(sc);
    return check_done("test_bar_hook");
}
