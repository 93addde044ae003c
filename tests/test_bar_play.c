/* test_bar_play.c - the Monmouth (BAR) game's procedures with forced dice,
 * each test named by the section it checks. Positions are built on
 * scenario 1's map and pieces: every piece is taken off the map, then the
 * test places the ones it needs (place) and sets the phase. */
#include "bar_fixture.h"

/* Grayson's Va Bn at E2019 facing east (with Grayson), an enemy unit in
 * the hex north-east of it (its label into lb), GD activated in command and
 * the activation moved on to phase. */
static mk_hex duel(const char *enemy, int enemy_form, int enemy_facing, int my_form, int phase, char *lb)
{
    empty(3);
    place("GD/LEE", "E2019", BAR_FM_LINE, 90);
    place("Va Bn/GD", "E2019", my_form, 90);
    mk_hex ne = mk_hex_neighbor(&sc->map.grid, hx("E2019"), 0);
    mk_hex_label(&sc->map.grid, ne, lb);
    place(enemy, lb, enemy_form, enemy_facing);
    s->side = BAR_AMERICAN;
    force(1, 35);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"GD\"}"), 0);
    for (int k = BP_MOVE; k < phase; k++)
        CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    CHECK_EQ(s->phase, phase);
    return ne;
}

/* 6.2: a Command Leader outside his Army Leader's range rolls for
 * Initiative: the tens die at most his Initiative passes, 00-09 are the
 * special results; failing, his units have half their MA (Series 7.6c). */
static void test_initiative(void)
{
    int gd = pid("GD/LEE"), patt = pid("Patt/GD");
    CHECK_EQ(x->p[gd].initiative, 3);
    CHECK_EQ(x->p[patt].mp_half, 10);
    /* pass: 35 -> tens 3 <= 3 */
    empty(0);
    place("GD/LEE", "E2019", BAR_FM_LINE, 90);
    place("Patt/GD", "E2019", BAR_FM_LINE, 90);
    s->side = BAR_AMERICAN;
    /* a Command that cannot act is refused: JD has nothing on the map */
    CHECK(act("{\"type\":\"activate\",\"command\":\"JD\"}") < 0);
    CHECK_EQ(s->phase, BP_ACTIVATE);
    force(1, 35);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"GD\"}"), 0);
    const mk_event *e = find_ev("roll", "initiative");
    CHECK(e && e->value == 35 && e->passed == 1);
    CHECK_EQ(s->in_command, 1);
    CHECK_EQ(s->phase, BP_MOVE);
    CHECK_EQ(s->pc[patt].mp, 10);
    CHECK(!(s->pc[patt].flags & BF_OOC));
    /* fail: 45 -> tens 4 > 3: Out of Command, half MPs, no Close Combat */
    empty(0);
    place("GD/LEE", "E2019", BAR_FM_LINE, 90);
    place("Patt/GD", "E2019", BAR_FM_LINE, 90);
    s->side = BAR_AMERICAN;
    force(1, 45);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"GD\"}"), 0);
    CHECK_EQ(s->in_command, 0);
    CHECK_EQ(s->pc[patt].mp, 10 * x->se.ooc_mp_pct / 100);
    CHECK(s->pc[patt].flags & BF_OOC);
    /* 04: an American special result (free combat on our chart): its
     * choice waits (6.2d A), the Command is not activated (6.2; tests in
     * test_bar_command.c) */
    empty(0);
    place("GD/LEE", "E2019", BAR_FM_LINE, 90);
    place("Patt/GD", "E2019", BAR_FM_LINE, 90);
    s->side = BAR_AMERICAN;
    force(1, 4);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"GD\"}"), 0);
    e = find_ev("roll", "initiative");
    CHECK(e && e->text && !strcmp(e->text, "free_combat"));
    CHECK_EQ(s->phase, BP_ACTIVATE);
    CHECK_EQ(s->sr, BAR_INI_FREE_COMBAT);
}

/* 2.4a: a Wing Activation activates two Commands: the Army Leader's WAN
 * (Clinton 7, 4.2a B) on a d10 (ours: at least the WAN); a Command Leader
 * in the Army Leader's Command Range needs no Initiative roll. */
static void test_wing_activation(void)
{
    empty(2);   /* 10:40 AM */
    place("HC", "E3020", BAR_FM_LINE, 270);
    place("HG/COR", "E3020", BAR_FM_LINE, 270);
    place("Len/HG", "E3020", BAR_FM_LINE, 270);
    place("5th/COR", "E3120", BAR_FM_LINE, 270);
    place("63/5th", "E3120", BAR_FM_LINE, 270);
    place("GD/LEE", "E2019", BAR_FM_LINE, 90);
    place("Patt/GD", "E2019", BAR_FM_LINE, 90);
    s->side = BAR_BRITISH;
    CHECK_EQ(x->p[pid("HC")].wan, 7);
    force(1, 7);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"HG\",\"wing\":true}"), 0);
    const mk_event *e = find_ev("roll", "wing_activation");
    CHECK(e && e->value == 7 && e->passed == 1);
    CHECK(find_ev("in_command", NULL) != NULL);   /* Kospoth within Clinton's range */
    CHECK_EQ(s->bonus, 1);
    force(0);
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    CHECK_EQ(s->phase, BP_ACTIVATE);
    CHECK_EQ(s->side, BAR_BRITISH);   /* the second Command */
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"5th\"}"), 0);
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    CHECK_EQ(s->side, BAR_AMERICAN);   /* then the other side */
    /* a failed Wing roll: 6 < 7 */
    empty(2);
    place("HC", "E3020", BAR_FM_LINE, 270);
    place("HG/COR", "E3020", BAR_FM_LINE, 270);
    place("Len/HG", "E3020", BAR_FM_LINE, 270);
    place("5th/COR", "E3120", BAR_FM_LINE, 270);
    place("63/5th", "E3120", BAR_FM_LINE, 270);
    s->side = BAR_BRITISH;
    force(1, 6);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"HG\",\"wing\":true}"), 0);
    CHECK_EQ(s->bonus, 0);
}

/* 1.2d, 7.1a A: End Turn Number 7 in scenario 1; past it a d10 below
 * (boxes past) x end_turn_pct / 10 ends the turn. */
static void test_end_turn(void)
{
    CHECK_EQ(bar_end_turn_number(1, x->first_turn), 7);
    for (int die = 0; die <= 1; die++) {
        empty(0);
        place("GD/LEE", "E2019", BAR_FM_LINE, 90);
        place("Patt/GD", "E2019", BAR_FM_LINE, 90);
        place("LAF/LEE", "E1525", BAR_FM_LINE, 90);
        place("LBn/LAF", "E1525", BAR_FM_LINE, 90);
        s->side = BAR_AMERICAN;
        s->marker = 7;
        force(1, 35);
        CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"GD\"}"), 0);
        CHECK_EQ(act("{\"type\":\"next\"}"), 0);
        CHECK_EQ(act("{\"type\":\"next\"}"), 0);
        force(6, die, 5, 5, 5, 5, 5);   /* end-turn die, then whatever follows */
        int turn = s->turn;
        CHECK_EQ(act("{\"type\":\"next\"}"), 0);
        const mk_event *e = find_ev("roll", "end_turn");
        CHECK(e && e->value == die && e->need == (8 - 7) * x->se.end_turn_pct / 10);
        if (die == 0) {   /* 0 < 1: the turn ends */
            CHECK_EQ(s->turn, turn + 1);
            CHECK(find_ev("turn_end", NULL) != NULL);
            CHECK_EQ(s->marker, 0);
        } else {
            CHECK_EQ(s->turn, turn);
            CHECK_EQ(s->marker, 8);
        }
    }
}

/* 5.2g: in Road Column along a major road, three hexes per 1/2 MP. */
static void test_road_movement(void)
{
    empty(0);
    /* follow the major road west from E3915 */
    mk_hex path[5];
    path[0] = hx("E3915");
    for (int k = 1; k < 5; k++) {
        path[k] = MK_NO_HEX;
        for (int d = 0; d < 6; d++) {
            mk_hex nb = mk_hex_neighbor(&sc->map.grid, path[k - 1], d);
            if (nb != MK_NO_HEX && (k < 2 || nb != path[k - 2]) && bar_road(&x->map, path[k - 1], nb) == BAR_ROAD_MAJOR)
                path[k] = nb;
        }
        CHECK(path[k] != MK_NO_HEX);
    }
    char lb[5][MK_HEX_LABEL_MAX];
    for (int k = 0; k < 5; k++)
        mk_hex_label(&sc->map.grid, path[k], lb[k]);
    place("HC", lb[0], BAR_FM_LINE, 270);
    place("63/5th", lb[0], BAR_FM_ROAD_COLUMN, 270);
    place("5th/COR", lb[0], BAR_FM_LINE, 270);
    place("GD/LEE", "E0210", BAR_FM_LINE, 90);
    place("Patt/GD", "E0210", BAR_FM_LINE, 90);
    s->turn = (int16_t)(x->first_turn + 3);   /* 11:00 AM: no initial limits */
    s->side = BAR_BRITISH;
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"5th\"}"), 0);
    int u = pid("63/5th");
    int mp0 = s->pc[u].mp;
    int want[4] = {1, 0, 0, 1};   /* half MPs per hex: a new run every three */
    for (int k = 1; k < 5; k++) {
        char js[128];
        snprintf(js, sizeof js, "{\"type\":\"move\",\"unit\":\"63/5th\",\"path\":[\"%s\"]}", lb[k]);
        int before = s->pc[u].mp;
        CHECK_EQ(act(js), 0);
        CHECK_EQ(before - s->pc[u].mp, want[k - 1]);
    }
    CHECK_EQ(mp0 - s->pc[u].mp, 2);
    CHECK_EQ(s->pc[u].hex, path[4]);
}

/* Facing (series): a Line moves only into its front hexes; an enemy's
 * front hex stops movement (ZOC); stacking in SPs (2.1c, TEC). */
static void test_line_zoc_stacking(void)
{
    empty(3);
    place("GD/LEE", "E2019", BAR_FM_LINE, 90);
    place("Va Bn/GD", "E2019", BAR_FM_LINE, 90);   /* faces east: front is 60 and 120 */
    s->side = BAR_AMERICAN;
    force(1, 35);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"GD\"}"), 0);
    int u = pid("Va Bn/GD");
    mk_hex back = mk_hex_neighbor(&sc->map.grid, hx("E2019"), 4);   /* NW: rear */
    char lb[MK_HEX_LABEL_MAX], js[128];
    snprintf(js, sizeof js, "{\"type\":\"move\",\"unit\":\"Va Bn/GD\",\"path\":[\"%s\"]}",
             mk_hex_label(&sc->map.grid, back, lb));
    CHECK(act(js) < 0);   /* not a front hex */
    CHECK(bar_is_front(s, sc, u, mk_hex_neighbor(&sc->map.grid, hx("E2019"), 0)));
    CHECK(bar_is_front(s, sc, u, mk_hex_neighbor(&sc->map.grid, hx("E2019"), 1)));
    CHECK(!bar_is_front(s, sc, u, mk_hex_neighbor(&sc->map.grid, hx("E2019"), 2)));
    CHECK(!bar_is_front(s, sc, u, mk_hex_neighbor(&sc->map.grid, hx("E2019"), 5)));
    /* a British Line two hexes east facing west: entering its front stops */
    mk_hex ne = mk_hex_neighbor(&sc->map.grid, hx("E2019"), 0);
    mk_hex far = mk_hex_neighbor(&sc->map.grid, ne, 1);   /* SE of NE: two hexes east */
    place("63/5th", mk_hex_label(&sc->map.grid, far, lb), BAR_FM_LINE, 270);
    CHECK(bar_in_ezoc(s, sc, BAR_AMERICAN, ne));
    snprintf(js, sizeof js, "{\"type\":\"move\",\"unit\":\"Va Bn/GD\",\"path\":[\"%s\"]}",
             mk_hex_label(&sc->map.grid, ne, lb));
    int rc = act(js);
    if (rc == 0) {
        CHECK_EQ(s->pc[u].mp, 0);
        CHECK(find_ev("zoc", NULL) != NULL);
    } else {
        CHECK(x->map.terrain[ne] != BAR_T_OPEN);   /* only terrain may refuse it */
    }
    /* stacking: Line 12 SPs (our chart): 6 + 4 + 3 fits not */
    CHECK(bar_stack_limit(s, sc, hx("E2019"), 6, BAR_FM_LINE) <= 0 ||
          bar_stack_sp(s, sc, hx("E2019"), -1) + 6 > x->ch.stacking[BAR_FM_LINE]);
    CHECK_EQ(bar_stack_limit(s, sc, hx("E0101"), 13, BAR_FM_LINE), 13 - x->ch.stacking[BAR_FM_LINE]);
}

/* 6.3-6.4: fire strength, the column, the forced roll's SPs and the
 * Morale Check on an even roll with a loss. */
static void test_fire(void)
{
    empty(3);
    place("GD/LEE", "E2019", BAR_FM_LINE, 90);
    place("Va Bn/GD", "E2019", BAR_FM_LINE, 90);   /* 6 SPs, Line row */
    mk_hex ne = mk_hex_neighbor(&sc->map.grid, hx("E2019"), 0);
    char lb[MK_HEX_LABEL_MAX], js[160];
    mk_hex_label(&sc->map.grid, ne, lb);
    place("63/5th", lb, BAR_FM_LINE, 270);
    s->side = BAR_AMERICAN;
    force(1, 35);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"GD\"}"), 0);
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    CHECK_EQ(s->phase, BP_FIRE);
    int u = pid("Va Bn/GD"), t = pid("63/5th"), col;
    int str = bar_fire_strength_of(s, sc, u, ne, &col);
    /* 6 SPs x the Line multiple at 1 hex (charts.json) */
    CHECK_EQ(str, 6 * x->ch.row[BAR_FR_LINE].mult[0]);
    CHECK_EQ(col, bar_fire_column(&x->ch, str, bar_fire_defence(&x->ch, x->map.terrain[ne], false)));
    CHECK(col >= 0);
    /* the top band of the column: the most SPs; 98 is even: a Morale Check */
    int nb = x->ch.fire.nbands[col];
    int want_sp = x->ch.fire.band[col][nb - 1].sp;
    force(3, 98, 99, 99);   /* fire roll, then the morale check roll (passes) */
    snprintf(js, sizeof js, "{\"type\":\"fire\",\"unit\":\"Va Bn/GD\",\"target\":\"%s\"}", lb);
    CHECK_EQ(act(js), 0);
    CHECK_EQ(s->pc[t].sp, x->p[t].sp - want_sp);
    CHECK_EQ(s->loss[BAR_BRITISH], want_sp);
    CHECK_EQ(s->sp_lost[BAR_BRITISH], want_sp);
    CHECK(find_ev("roll", "morale_check") != NULL);
    CHECK(s->pc[u].flags & BF_FIRED);
    CHECK(act(js) < 0);   /* once per segment */
    /* a miss: 11 is below every band of a low column */
    empty(3);
    place("GD/LEE", "E2019", BAR_FM_LINE, 90);
    place("Va Bn/GD", "E2019", BAR_FM_LINE, 90);
    place("63/5th", lb, BAR_FM_LINE, 270);
    s->side = BAR_AMERICAN;
    force(1, 35);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"GD\"}"), 0);
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    force(1, 11);
    CHECK_EQ(act(js), 0);
    CHECK_EQ(s->pc[t].sp, x->p[t].sp);
    CHECK(find_ev("roll", "morale_check") == NULL);
    /* 6.3: a natural 00-09 is a special result and the fire is rolled again */
    empty(3);
    place("GD/LEE", "E2019", BAR_FM_LINE, 90);
    place("Va Bn/GD", "E2019", BAR_FM_LINE, 90);
    place("63/5th", lb, BAR_FM_LINE, 270);
    s->side = BAR_AMERICAN;
    force(1, 35);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"GD\"}"), 0);
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    force(3, 3, 11, 50);
    CHECK_EQ(act(js), 0);
    const mk_event *sp = find_ev("special", NULL);
    CHECK(sp != NULL);
    const mk_event *r = find_ev("roll", "fire");
    CHECK(r && r->value == 3 && r->nvalues >= 1 && r->values[0] == 11);
}

/* Series 14 with our table: the CV difference moves the roll; the loser
 * retreats a hex Disordered and checks morale; the winner advances. */
static void test_close_combat(void)
{
    char lb[MK_HEX_LABEL_MAX], js[160];
    mk_hex ne = duel("63/5th", BAR_FM_LINE, 270, BAR_FM_ATTACK_COLUMN, BP_CC, lb);
    CHECK_EQ(s->phase, BP_CC);
    int u = pid("Va Bn/GD"), t = pid("63/5th");
    force(3, 11, 95, 99);   /* the defender's fire misses (11), the roll, the loser's check */
    snprintf(js, sizeof js, "{\"type\":\"close_combat\",\"unit\":\"Va Bn/GD\",\"target\":\"%s\"}", lb);
    CHECK_EQ(act(js), 0);
    const mk_event *r = find_ev("roll", "close_combat");
    CHECK(r != NULL);
    if (r) {
        int tmod = bar_cv_modifier(&x->ch, x->map.terrain[hx("E2019")], x->map.terrain[ne],
                                   bar_hexside(&x->map, hx("E2019"), ne),
                                   x->map.elevation[ne] > x->map.elevation[hx("E2019")], false);
        int diff = x->p[u].cv + x->se.cc_attack_column + tmod - x->p[t].cv;
        CHECK_EQ(r->points, diff);
        int band = bar_cc_band(&x->ch, 95, diff);
        CHECK(band >= 0);
        if (band >= 0 && x->ch.cc.band[band].retreat == 2) {
            CHECK(s->pc[t].hex != ne);
            CHECK(s->pc[t].status & BS_DISORDERED);
            CHECK_EQ(s->pc[u].hex, ne);   /* advanced */
        }
        if (band >= 0)
            CHECK_EQ(s->pc[t].sp, x->p[t].sp - x->ch.cc.band[band].def_sp);
    }
    CHECK(find_ev("roll", "defensive_fire") != NULL);
    CHECK(act(js) < 0);   /* once a segment */
}

/* Defensive Fire (series, ours): a defender's fire that shakes the
 * attacker stops the attack. */
static void test_defensive_fire(void)
{
    char lb[MK_HEX_LABEL_MAX], js[160];
    duel("63/5th", BAR_FM_LINE, 270, BAR_FM_ATTACK_COLUMN, BP_CC, lb);
    int u = pid("Va Bn/GD"), t = pid("63/5th");
    /* 98: the top band, even: a loss and a Morale Check; 10 fails it */
    force(2, 98, 10);
    snprintf(js, sizeof js, "{\"type\":\"close_combat\",\"unit\":\"Va Bn/GD\",\"target\":\"%s\"}", lb);
    CHECK_EQ(act(js), 0);
    CHECK(s->pc[u].sp < x->p[u].sp);
    CHECK(s->pc[u].status & BS_SHAKEN);
    CHECK(find_ev("attack_stopped", NULL) != NULL);
    CHECK(find_ev("roll", "close_combat") == NULL);
    CHECK_EQ(s->pc[t].sp, x->p[t].sp);
}

/* 2.5 C: a failed Morale Check of a Shaken unit routs it: 4 hexes for
 * infantry toward its side's rally hex (7.0 B: W0201 for the Americans). */
static void test_rout(void)
{
    empty(3);
    place("Patt/GD", "E2019", BAR_FM_LINE, 90);
    int u = pid("Patt/GD");
    s->pc[u].status = BS_SHAKEN;
    int d0 = mk_hex_distance(&sc->map.grid, hx("E2019"), x->home[BAR_AMERICAN]);
    mk_events_init(&ev, evs, 512);
    force(1, 10);   /* below ER 4 x 10: failed */
    int eff = bar_do_check(s, sc, u, 'M', 'A', 0, "test", &ev);
    CHECK_EQ(eff, BAR_CE_ROUT);
    CHECK(s->pc[u].status & BS_ROUTED);
    CHECK_EQ(mk_hex_distance(&sc->map.grid, s->pc[u].hex, x->home[BAR_AMERICAN]), d0 - 4);
    CHECK_EQ(x->se.rout_hexes[0], 4);
    CHECK_EQ(x->se.rout_hexes[1], 6);
    /* a Good Order unit that fails is Shaken (one step) */
    empty(3);
    place("Patt/GD", "E2019", BAR_FM_LINE, 90);
    force(1, 39);
    CHECK_EQ(bar_do_check(s, sc, u, 'M', 'A', 0, "test", &ev), BAR_CE_SHAKEN);
    CHECK(s->pc[u].status & BS_SHAKEN);
    force(1, 40);   /* ER 4 x 10 = 40: at least 40 passes */
    CHECK_EQ(bar_do_check(s, sc, u, 'M', 'A', 0, "test", &ev), BAR_CE_PASS);
}

/* 7.1d: the victory inputs the game derives: the orchard (B) last entered
 * by the British, a British unit at W2220 (C), losses with artillery per
 * 2.2d H. */
static void test_victory_inputs(void)
{
    empty(3);
    place("63/5th", "W2220", BAR_FM_LINE, 270);
    s->loss[BAR_AMERICAN] = 9;
    s->loss[BAR_BRITISH] = 6;
    s->art_lost[BAR_BRITISH][0] = 4;   /* 4 Field SPs: 2 boxes */
    bar_victory_in in;
    bar_victory_input(s, sc, &in);
    CHECK(in.w2220);
    CHECK_EQ(in.loss[BAR_AMERICAN], 9);
    CHECK_EQ(in.loss[BAR_BRITISH], 8);
    CHECK(!in.orchard);
    s->orchard = 0x0f;
    bar_victory_input(s, sc, &in);
    CHECK(in.orchard);
    CHECK_EQ(in.british_on_map, 1);
}


/* 3.2b G ii: Lee rolls for his own Command Range (full on a die at most
 * his Initiative 3, else 1 hex); a Command in his LOC needs no roll.
 * iv: outside it, the Command Leader rolls; failing, the extra die. */
static void test_lee(void)
{
    int lee = pid("LEE/GW"), gd = pid("GD/LEE"), patt = pid("Patt/GD");
    CHECK_EQ(x->p[lee].initiative, 3);
    CHECK_EQ(x->p[lee].range, 6);
    empty(0);
    /* Lee three hexes from Grayson */
    mk_hex lh = mk_hex_neighbor(&sc->map.grid, mk_hex_neighbor(&sc->map.grid, mk_hex_neighbor(&sc->map.grid, hx("E2019"), 3), 3), 4);
    char leeat[MK_HEX_LABEL_MAX];
    mk_hex_label(&sc->map.grid, lh, leeat);
    place("LEE/GW", leeat, BAR_FM_LINE, 90);
    place("GD/LEE", "E2019", BAR_FM_LINE, 90);
    place("Patt/GD", "E2019", BAR_FM_LINE, 90);
    s->side = BAR_AMERICAN;
    int d = mk_hex_distance(&sc->map.grid, lh, hx("E2019"));
    CHECK(d > 1 && d <= 6);
    CHECK_EQ(bar_army_leader(s, BAR_AMERICAN), lee);   /* 3.2b G i */
    force(1, 3);   /* Lee's die 3 <= 3: full range */
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"GD\"}"), 0);
    const mk_event *e = find_ev("roll", "lee_command_range");
    CHECK(e && e->value == 3 && e->points == 6);
    CHECK(find_ev("roll", "initiative") == NULL);
    CHECK_EQ(s->in_command, 1);
    /* Lee's die 4 > 3: range 1; Grayson rolls 45 (fails); the extra die 6: no MPs */
    empty(0);
    place("LEE/GW", "E1525", BAR_FM_LINE, 90);
    place("GD/LEE", "E2019", BAR_FM_LINE, 90);
    place("Patt/GD", "E2019", BAR_FM_LINE, 90);
    s->side = BAR_AMERICAN;
    CHECK(mk_hex_distance(&sc->map.grid, hx("E1525"), hx("E2019")) > 1);
    force(3, 4, 45, 6);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"GD\"}"), 0);
    CHECK_EQ(s->lee_range, 1);
    CHECK_EQ(s->in_command, 0);
    e = find_ev("roll", "lee_out_of_command");
    CHECK(e && e->value == 6);
    CHECK_EQ(s->pc[patt].mp, 0);
    /* the extra die 2: half its MPs (rounded): MA 5 -> 3 MPs, less than the 50% OOC? */
    empty(0);
    place("LEE/GW", "E1525", BAR_FM_LINE, 90);
    place("GD/LEE", "E2019", BAR_FM_LINE, 90);
    place("Patt/GD", "E2019", BAR_FM_LINE, 90);
    s->side = BAR_AMERICAN;
    force(3, 4, 45, 9);   /* 8-9: Voluntary Rout, 8 hexes */
    int d0 = mk_hex_distance(&sc->map.grid, hx("E2019"), x->home[BAR_AMERICAN]);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"GD\"}"), 0);
    CHECK(s->pc[patt].status & BS_ROUTED);
    CHECK(s->pc[patt].more & BM_VOL_ROUT);
    CHECK_EQ(mk_hex_distance(&sc->map.grid, s->pc[patt].hex, x->home[BAR_AMERICAN]), d0 - 8);
    (void)gd;
    /* vi: in scenario 1 the penalty roll ends at Noon */
    CHECK(bar_lee_ooc_applies(1, 35, false));
    CHECK(!bar_lee_ooc_applies(1, 36, false));
}

/* 2.5 B, 3.4a: Voluntary Rout in an activation, up to 8 hexes; the
 * Americans not before the British 10:20 AM reinforcements enter or 10:40. */
static void test_voluntary_rout(void)
{
    empty(0);   /* 10:00 AM: not yet */
    place("GD/LEE", "E2019", BAR_FM_LINE, 90);
    place("Patt/GD", "E2019", BAR_FM_LINE, 90);
    s->side = BAR_AMERICAN;
    force(1, 35);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"GD\"}"), 0);
    CHECK(act("{\"type\":\"rout\",\"unit\":\"Patt/GD\"}") < 0);
    empty(2);   /* 10:40 AM */
    place("GD/LEE", "E2019", BAR_FM_LINE, 90);
    place("Patt/GD", "E2019", BAR_FM_LINE, 90);
    s->side = BAR_AMERICAN;
    force(1, 35);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"GD\"}"), 0);
    int u = pid("Patt/GD");
    int d0 = mk_hex_distance(&sc->map.grid, hx("E2019"), x->home[BAR_AMERICAN]);
    CHECK_EQ(act("{\"type\":\"rout\",\"unit\":\"Patt/GD\"}"), 0);
    CHECK(s->pc[u].status & BS_ROUTED);
    CHECK_EQ(mk_hex_distance(&sc->map.grid, s->pc[u].hex, x->home[BAR_AMERICAN]), d0 - 8);
}

/* 2.8 B: in a Heat turn (Noon), a unit that spent MPs checks Disorder (A)
 * at the end of its Movement Segment, ER +1 per MP (American). */
static void test_heat(void)
{
    CHECK(!bar_is_heat(x->first_turn + 5));
    CHECK(bar_is_heat(x->first_turn + 6));   /* 12:00 PM */
    empty(6);
    place("GD/LEE", "E2019", BAR_FM_LINE, 90);
    place("Patt/GD", "E2019", BAR_FM_ATTACK_COLUMN, 90);
    s->side = BAR_AMERICAN;
    force(1, 35);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"GD\"}"), 0);
    int u = pid("Patt/GD");
    s->pc[u].spent = 3;   /* 1 1/2 MPs: +2 for an American unit */
    int need = 40 + 2 + bar_leader_values_of(s, sc, pid("GD/LEE")).er_bonus * x->se.er_scale;
    force(1, need - 1);   /* one below: fails */
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    const mk_event *e = find_ev("roll", "disorder_check");
    CHECK(e && e->need == need && e->passed == 0);
    CHECK(e && e->rule && strstr(e->rule, "2.8"));
    CHECK(s->pc[u].status & BS_DISORDERED);
}

/* 4.1a B: a Hessian Grenadiere checks Disorder (A) for each 1/2 MP it
 * spends above 3 MPs. */
static void test_hessian_grenadiers(void)
{
    empty(3);
    place("HC", "E3020", BAR_FM_LINE, 270);
    place("HG/COR", "E3020", BAR_FM_LINE, 270);
    place("Len/HG", "E3020", BAR_FM_ATTACK_COLUMN, 270);
    s->side = BAR_BRITISH;
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"HG\"}"), 0);
    int u = pid("Len/HG");
    s->pc[u].spent = 6;   /* 3 MPs spent already */
    mk_action list[MK_MAX_ACTIONS];
    int n = sc->rs->legal(s, sc, list, MK_MAX_ACTIONS), k = -1;
    for (int i = 0; i < n && k < 0; i++)
        if (list[i].type == BA_MOVE && list[i].unit == u && list[i].cost == 2)
            k = i;   /* a move of 1 MP: two checks */
    CHECK(k >= 0);
    if (k >= 0) {
        force(2, 99, 99);
        mk_events_init(&ev, evs, 512);
        mk_error err;
        CHECK_EQ(sc->rs->apply(s, sc, &list[k], &ev, &err), 0);
        int checks = 0;
        for (int i = 0; i < ev.n; i++)
            checks += !strcmp(ev.ev[i].type, "roll") && ev.ev[i].rule && strstr(ev.ev[i].rule, "4.1a B");
        CHECK_EQ(checks, 2);
    }
}

/* 2.4b, 2.4c: a killed Command Leader counts his loss value and is
 * replaced by a Leader Loss counter; 4.2a B: a killed Army Leader is
 * succeeded by the most senior leader with WAN 9 and Command Rating +1. */
static void test_leader_losses(void)
{
    empty(3);
    place("GD/LEE", "E2019", BAR_FM_LINE, 90);
    place("Patt/GD", "E2120", BAR_FM_LINE, 90);
    int gd = pid("GD/LEE");
    mk_events_init(&ev, evs, 512);
    force(1, 3);   /* the counter: die 3 */
    bar_leader_hit(s, sc, gd, true, &ev);
    CHECK_EQ(s->loss[BAR_AMERICAN], x->p[gd].loss_value);
    CHECK_EQ(s->pc[gd].hex, hx("E2120"));   /* with a unit of his Command */
    CHECK_EQ(s->pc[gd].ctr, 3 % x->lc.n[0] + 1);
    CHECK(find_ev("replacement", NULL) != NULL);
    /* killed again: the replacement counts the replaced value - 2 */
    force(1, 0);
    bar_leader_hit(s, sc, gd, true, &ev);
    CHECK_EQ(s->loss[BAR_AMERICAN], x->p[gd].loss_value + bar_leader_loss_value(x->p[gd].loss_value, true));
    /* the Army Leader */
    empty(3);
    place("HC", "E3020", BAR_FM_LINE, 270);
    place("5th/COR", "E3120", BAR_FM_LINE, 270);
    place("HG/COR", "E3120", BAR_FM_LINE, 270);
    int hc = pid("HC");
    mk_events_init(&ev, evs, 512);
    bar_leader_hit(s, sc, hc, true, &ev);
    int a = bar_army_leader(s, BAR_BRITISH);
    CHECK(a >= 0 && a != hc);
    CHECK_EQ(s->army_wan[BAR_BRITISH], 9);
    CHECK_EQ(s->army_cr[BAR_BRITISH], 1);
    CHECK_EQ(bar_leader_values_of(s, sc, a).wan, 9);
    /* wounded: off the map for half a die (6.6e) */
    empty(3);
    place("GD/LEE", "E2019", BAR_FM_LINE, 90);
    force(1, 7);
    bar_leader_hit(s, sc, gd, false, &ev);
    CHECK_EQ(s->pc[gd].wounded, 4);
    CHECK_EQ(s->pc[gd].hex, MK_NO_HEX);
    CHECK_EQ(s->loss[BAR_AMERICAN], 0);
}

/* 2.6b: a rifle unit snipes at a leader within 3 hexes through its front:
 * 91-99 at 1 hex, 94-99 at 2, 97-99 at 3; then 0-4 killed, 5-9 wounded. */
static void test_sniping(void)
{
    if (!use_scenario("4-general-engagement"))
        return;
    empty(3);
    int rb = pid("RB/MOR"), lead = pid("MOR");
    if (lead < 0)
        lead = bar_org_leader(sc, x->p[rb].org);
    CHECK(lead >= 0);
    char lb[MK_HEX_LABEL_MAX];
    place(sc->units[lead].id, "E2019", BAR_FM_LINE, 90);
    place("RB/MOR", "E2019", BAR_FM_SKIRMISH, 90);
    /* Cornwallis two hexes east */
    mk_hex ne = mk_hex_neighbor(&sc->map.grid, hx("E2019"), 0);
    mk_hex far = mk_hex_neighbor(&sc->map.grid, ne, 1);
    place("COR/HC", mk_hex_label(&sc->map.grid, far, lb), BAR_FM_LINE, 270);
    s->side = BAR_AMERICAN;
    force(1, 35);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"MOR\"}"), 0);
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    force(2, 93, 9);   /* 93 < 94 at 2 hexes: a miss */
    CHECK_EQ(act("{\"type\":\"snipe\",\"unit\":\"RB/MOR\",\"leader\":\"COR/HC\"}"), 0);
    const mk_event *e = find_ev("roll", "sniping");
    CHECK(e && e->need == 94 && e->passed == 0);
    CHECK(act("{\"type\":\"snipe\",\"unit\":\"RB/MOR\",\"leader\":\"COR/HC\"}") < 0);   /* once */
    /* again from the start: 94 hits, die 2 kills */
    empty(3);
    place(sc->units[lead].id, "E2019", BAR_FM_LINE, 90);
    place("RB/MOR", "E2019", BAR_FM_SKIRMISH, 90);
    place("COR/HC", lb, BAR_FM_LINE, 270);
    s->side = BAR_AMERICAN;
    force(1, 35);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"MOR\"}"), 0);
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    force(2, 94, 2);
    CHECK_EQ(act("{\"type\":\"snipe\",\"unit\":\"RB/MOR\",\"leader\":\"COR/HC\"}"), 0);
    CHECK(s->pc[pid("COR/HC")].flags & BF_ELIM);
    CHECK(find_ev("killed", NULL) != NULL);
    back_to_scenario_1();
}

/* 3.2b G i: in scenarios 3 and 4, Washington entering Lee's hex relieves
 * him: Lee leaves play and Washington is the Army Leader. */
static void test_washington_relieves_lee(void)
{
    if (!use_scenario("3-grand-battle"))
        return;
    empty(8);
    int gw = pid("GW"), lee = pid("LEE/GW");
    CHECK_EQ(bar_army_leader(s, BAR_AMERICAN), lee);
    mk_hex w = hx("W2018");
    mk_hex nb = mk_hex_neighbor(&sc->map.grid, w, 3);
    char lb[MK_HEX_LABEL_MAX], js[128];
    place("LEE/GW", mk_hex_label(&sc->map.grid, nb, lb), BAR_FM_LINE, 90);
    place("GW", "W2018", BAR_FM_LINE, 90);
    /* a Command of the main army for Washington to move with */
    int org = -1;
    for (int i = 0; i < s->npieces && org < 0; i++)
        if (!bar_is_leader(&x->p[i]) && x->p[i].side == BAR_AMERICAN && x->p[i].org >= 0 &&
            !bar_lee_commands(s, sc, x->p[i].org) && bar_org_leader(sc, x->p[i].org) >= 0) {
            org = x->p[i].org;
            place(sc->units[i].id, "W0510", BAR_FM_LINE, 90);
            place(sc->units[bar_org_leader(sc, org)].id, "W0510", BAR_FM_LINE, 90);
        }
    CHECK(org >= 0);
    s->side = BAR_AMERICAN;
    snprintf(js, sizeof js, "{\"type\":\"activate\",\"command\":\"%s\"}", x->oob.org[org].id);
    force(1, 15);
    CHECK_EQ(act(js), 0);
    snprintf(js, sizeof js, "{\"type\":\"move\",\"unit\":\"GW\",\"path\":[\"%s\"]}", lb);
    CHECK_EQ(act(js), 0);
    CHECK(s->lee_relieved);
    CHECK(s->pc[lee].flags & BF_ELIM);
    CHECK_EQ(bar_army_leader(s, BAR_AMERICAN), gw);
    CHECK_EQ(s->loss[BAR_AMERICAN], 0);   /* no loss */
    back_to_scenario_1();
}


/* 7.4a F: the British designate the baggage train guard in the 7:00 PM
 * turn (units not yet on the map, which never enter); from 7:20 PM the
 * Americans roll for raids at the start of each turn: the roll less the
 * guard's SPs against 80/70/60/50 by light; 00-09 special. */
static void test_baggage(void)
{
    if (!use_scenario("4-general-engagement"))
        return;
    int t700 = bar_turn_of(28, 19, 0);   /* 7:00 PM 28 June */
    CHECK_EQ(bar_scen_switch(&x->scen, "baggage_guard_turn", -1), t700);
    empty(t700 - x->first_turn);
    int g = pid("VoI/LC");
    CHECK(g >= 0 && x->p[g].arrive > t700);
    s->pc[g].flags = 0;
    /* something for each side to activate, so that the turn goes on */
    place("GD/LEE", "E2019", BAR_FM_LINE, 90);
    place("Patt/GD", "E2019", BAR_FM_LINE, 90);
    place("5th/COR", "E3120", BAR_FM_LINE, 270);
    place("63/5th", "E3120", BAR_FM_LINE, 270);
    mk_events_init(&ev, evs, 512);
    bar_turn_init(s, sc, &ev);
    CHECK_EQ(s->phase, BP_GUARD);
    CHECK_EQ(s->side, BAR_BRITISH);
    CHECK_EQ(act("{\"type\":\"guard\",\"unit\":\"VoI/LC\"}"), 0);
    CHECK(s->pc[g].more & BM_GUARD);
    CHECK(act("{\"type\":\"guard\",\"unit\":\"VoI/LC\"}") < 0);   /* once */
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    CHECK(s->phase != BP_GUARD);
    /* 7:20 PM: a raid; Dusk needs 70 */
    s->turn = (int16_t)(t700 + 1);
    CHECK(bar_raids_on(4, s->turn));
    int need = bar_raid_threshold(bar_light_of(s->turn));
    int sp = s->pc[g].sp;
    force(2, need + sp, 5);   /* exactly enough with the guard subtracted */
    mk_events_init(&ev, evs, 512);
    bar_turn_init(s, sc, &ev);
    const mk_event *e = find_ev("roll", "baggage_raid");
    CHECK(e && e->passed == 1 && e->value == need + sp);
    CHECK_EQ(s->baggage, 1);
    s->turn++;
    force(2, need + sp - 1, 5);   /* one short */
    mk_events_init(&ev, evs, 512);
    bar_turn_init(s, sc, &ev);
    CHECK_EQ(s->baggage, 1);
    s->turn++;
    force(2, 1, 5);   /* 01 Guard Casualties: the guard loses an SP, the train a loss */
    mk_events_init(&ev, evs, 512);
    bar_turn_init(s, sc, &ev);
    CHECK_EQ(s->pc[g].sp, sp - 1);
    CHECK_EQ(s->baggage, 2);
    CHECK_EQ(s->loss[BAR_BRITISH], 1);
    /* the guard never enters the map */
    s->phase = BP_ACTIVATE;
    bar_victory_in in;
    bar_victory_input(s, sc, &in);
    CHECK_EQ(in.baggage, 2);
    back_to_scenario_1();
}

/* 7.1a A: American units may leave the map west of the W21xx row: out of
 * play, not eliminated, no loss. */
static void test_exit_west(void)
{
    empty(3);
    int lim = bar_scen_switch(&x->scen, "west_limit_column", -1);
    CHECK_EQ(lim, 20);   /* W21 is the 21st column */
    mk_hex h = mk_hex_at(&sc->map.grid, lim, 20);
    char lb[MK_HEX_LABEL_MAX];
    mk_hex_label(&sc->map.grid, h, lb);
    CHECK_STR(lb, "W2121");
    place("GD/LEE", lb, BAR_FM_LINE, 270);
    place("Patt/GD", lb, BAR_FM_LINE, 270);
    s->side = BAR_AMERICAN;
    force(1, 15);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"GD\"}"), 0);
    CHECK_EQ(act("{\"type\":\"exit\",\"unit\":\"Patt/GD\"}"), 0);
    int u = pid("Patt/GD");
    CHECK_EQ(s->pc[u].hex, MK_NO_HEX);
    CHECK(s->pc[u].more & BM_EXITED);
    CHECK(!(s->pc[u].flags & BF_ELIM));
    CHECK_EQ(s->loss[BAR_AMERICAN], 0);
    /* the British may not (scenario 1 has no British exit) */
    empty(3);
    place("HC", lb, BAR_FM_LINE, 270);
    place("5th/COR", lb, BAR_FM_LINE, 270);
    place("63/5th", lb, BAR_FM_LINE, 270);
    s->side = BAR_BRITISH;
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"5th\"}"), 0);
    CHECK(act("{\"type\":\"exit\",\"unit\":\"63/5th\"}") < 0);
}


/* 3.4b: the New Jersey Brigade keeps its hexes in the 10:00 AM turn of
 * scenario 1 (facing and formation may change); from 10:20 it moves. */
static void test_nj_brigade(void)
{
    for (int t = 0; t <= 1; t++) {
        empty(t);
        place("NJB/LEE", "E1023", BAR_FM_LINE, 90);
        place("1NJ/NJB", "E1023", BAR_FM_MARCH_COLUMN, 90);
        s->side = BAR_AMERICAN;
        force(1, 15);
        CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"NJB\"}"), 0);
        int u = pid("1NJ/NJB");
        mk_action list[MK_MAX_ACTIONS];
        int n = sc->rs->legal(s, sc, list, MK_MAX_ACTIONS), moves = 0, faces = 0;
        for (int i = 0; i < n; i++) {
            moves += list[i].unit == u && (list[i].type == BA_MOVE || list[i].type == BA_ROUT);
            faces += list[i].unit == u && (list[i].type == BA_FACE || list[i].type == BA_FORM);
        }
        if (t == 0)
            CHECK_EQ(moves, 0);
        else
            CHECK(moves > 0);
        CHECK(faces > 0);
    }
}

/* Series 7.4 with 3.2b: a Command Leader beyond the Army Leader's range
 * is still in his Line of Command through the Wing Leader above him. */
static void test_loc_through_wing(void)
{
    empty(3);
    int hc = pid("HC"), cor = pid("COR/HC");
    CHECK_EQ(x->p[hc].range, 8);
    CHECK_EQ(x->p[cor].range, 6);
    /* Clinton at E3920, Cornwallis 6 west, the 5th Brigade 5 further */
    mk_hex h = hx("E3920"), c = h, b;
    for (int k = 0; k < 6; k++)
        c = mk_hex_neighbor(&sc->map.grid, c, k % 2 ? 3 : 4);
    b = c;
    for (int k = 0; k < 5; k++)
        b = mk_hex_neighbor(&sc->map.grid, b, k % 2 ? 3 : 4);
    CHECK(mk_hex_distance(&sc->map.grid, h, b) > 8);
    char l1[MK_HEX_LABEL_MAX], l2[MK_HEX_LABEL_MAX];
    place("HC", "E3920", BAR_FM_LINE, 270);
    place("COR/HC", mk_hex_label(&sc->map.grid, c, l1), BAR_FM_LINE, 270);
    place("5th/COR", mk_hex_label(&sc->map.grid, b, l2), BAR_FM_LINE, 270);
    place("63/5th", l2, BAR_FM_LINE, 270);
    s->side = BAR_BRITISH;
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"5th\"}"), 0);
    const mk_event *e = find_ev("in_command", NULL);
    CHECK(e && e->other == cor);
    CHECK(find_ev("roll", "initiative") == NULL);
    /* without Cornwallis: the Initiative roll */
    empty(3);
    place("HC", "E3920", BAR_FM_LINE, 270);
    place("5th/COR", l2, BAR_FM_LINE, 270);
    place("63/5th", l2, BAR_FM_LINE, 270);
    s->side = BAR_BRITISH;
    force(1, 55);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"5th\"}"), 0);
    CHECK(find_ev("roll", "initiative") != NULL);
}

/* 7.4a D: at 4:40 AM 29 June both Army Morale modifiers drop by 5, not
 * below 0. */
static void test_morale_relief(void)
{
    if (!use_scenario("4-general-engagement"))
        return;
    int t = bar_turn_of(29, 4, 40);
    empty(t - x->first_turn);
    place("GD/LEE", "E2019", BAR_FM_LINE, 90);
    place("Patt/GD", "E2019", BAR_FM_LINE, 90);
    place("5th/COR", "E3120", BAR_FM_LINE, 270);
    place("63/5th", "E3120", BAR_FM_LINE, 270);
    s->army_mod[BAR_AMERICAN] = 13;
    s->army_mod[BAR_BRITISH] = 5;
    mk_events_init(&ev, evs, 512);
    bar_turn_init(s, sc, &ev);
    CHECK_EQ(s->army_mod[BAR_AMERICAN], 8);
    CHECK_EQ(s->army_mod[BAR_BRITISH], 0);
    back_to_scenario_1();
}


/* 2.3, 6.7: mounted cavalry charges an enemy two hexes away (Charge Range
 * 2 by day, 2.3d) and, beating it, pursues: Pursuit Points ride down SPs
 * (ours), then the Recall check (Disorder F). */
static void test_charge(void)
{
    const mk_grid *g = &sc->map.grid;
    /* an open stretch: cavalry at a, end hex e, target t, due west */
    mk_hex a = MK_NO_HEX, e = MK_NO_HEX, t = MK_NO_HEX;
    for (mk_hex h = 0; h < mk_grid_size(g) && t == MK_NO_HEX; h++) {
        mk_hex e1 = mk_hex_neighbor(g, h, 4), t1 = e1 != MK_NO_HEX ? mk_hex_neighbor(g, e1, 3) : MK_NO_HEX;
        mk_hex e2 = mk_hex_neighbor(g, h, 3);   /* the other way round */
        if (t1 == MK_NO_HEX || e2 == MK_NO_HEX || x->map.terrain[h] || x->map.terrain[e1] ||
            x->map.terrain[e2] || x->map.terrain[t1] || bar_hexside(&x->map, h, e1) ||
            bar_hexside(&x->map, e1, t1) || bar_hexside(&x->map, h, e2) || bar_hexside(&x->map, e2, t1) ||
            mk_hex_distance(g, h, t1) != 2 || mk_hex_on_map_edge(g, t1))
            continue;
        a = h, e = e1, t = t1;
    }
    CHECK(t != MK_NO_HEX);
    if (t == MK_NO_HEX)
        return;
    char la[MK_HEX_LABEL_MAX], lt[MK_HEX_LABEL_MAX], js[160];
    empty(0);
    place("HC", mk_hex_label(g, a, la), BAR_FM_LINE, 270);
    place("16 Da", la, BAR_FM_CAVALRY, 270);
    place("Patt/GD", mk_hex_label(g, t, lt), BAR_FM_LINE, 90);
    int cav = pid("16 Da"), u = pid("Patt/GD");
    s->side = BAR_BRITISH;
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"HC\"}"), 0);   /* 4.2b A */
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    CHECK_EQ(s->phase, BP_CC);
    mk_hex end = bar_charge_end(s, sc, cav, t);
    CHECK(end != MK_NO_HEX && mk_hex_adjacent(g, end, t) && mk_hex_adjacent(g, end, a));
    (void)e;
    /* 99: the defender loses 2 and retreats (its check: 99); pursuit die 9
     * = 5 PPs: one SP ridden down; the Recall check 99 */
    force(5, 11, 99, 99, 9, 99);   /* 11: the defensive fire misses */
    snprintf(js, sizeof js, "{\"type\":\"close_combat\",\"unit\":\"16 Da\",\"target\":\"%s\",\"charge\":true}", lt);
    CHECK_EQ(act(js), 0);
    CHECK(find_ev("charge", NULL) != NULL);
    const mk_event *r = find_ev("roll", "close_combat");
    CHECK(r && r->points == x->p[cav].cv + x->se.cc_charge - x->p[u].cv);
    const mk_event *pu = find_ev("roll", "pursuit");
    CHECK(pu && pu->points == x->ch.pursuit.pp[9]);
    CHECK_EQ(s->pc[u].sp, x->p[u].sp - 2 - x->ch.pursuit.pp[9] / x->se.pursuit_pp_per_sp);
    CHECK_EQ(s->pc[cav].hex, t);   /* advanced into the emptied hex */
    /* at Night only adjacent units (2.3d), and no pursuit */
    CHECK_EQ(bar_charge_range(BAR_NIGHT, false), 0);
    CHECK(!bar_pursuit_allowed(BAR_NIGHT, false));
}


/* 2.3f: cavalry attacked by infantry may Retreat Before Close Combat: the
 * decision is the defender's (to_move changes side), then the attacker
 * advances into the emptied hex; standing, the combat is fought. */
static void test_retreat_before_close_combat(void)
{
    for (int retreat = 1; retreat >= 0; retreat--) {
        char lb[MK_HEX_LABEL_MAX];
        rbcc_position(3, lb);
        CHECK_EQ(sc->rs->to_move(s), BAR_BRITISH);
        /* the attack waits, and the log says so (issue 4: every action explained) */
        const mk_event *dc = find_ev("declare", NULL);
        CHECK(dc && dc->unit == pid("Va Bn/GD") && dc->target == hx(lb) && dc->text &&
              strcmp(dc->text, "close_combat") == 0 && dc->rule && strstr(dc->rule, "Monmouth 2.3f"));
        /* the state's "to_move" says so too (the page and the protocol's
         * clients read it), and "active" stays the attacker's */
        json_t *js_st = sc->rs->state_json(s, sc);
        CHECK(!strcmp(json_string_value(json_object_get(js_st, "to_move")), "british"));
        CHECK(!strcmp(json_string_value(json_object_get(js_st, "active")), "american"));
        json_decref(js_st);
        CHECK(find_ev("roll", "close_combat") == NULL);
        int u = pid("Va Bn/GD"), c = pid("16 Da");
        if (retreat) {
            CHECK_EQ(act("{\"type\":\"retreat_before_close_combat\",\"retreat\":true}"), 0);
            CHECK(s->pc[c].hex != hx(lb));
            CHECK(mk_hex_adjacent(&sc->map.grid, s->pc[c].hex, hx(lb)));
            CHECK_EQ(s->pc[c].sp, x->p[c].sp);
            CHECK_EQ(s->pc[u].hex, hx(lb));
        } else {
            force(2, 50, 99);
            CHECK_EQ(act("{\"type\":\"retreat_before_close_combat\",\"retreat\":false}"), 0);
            CHECK(find_ev("roll", "close_combat") != NULL);
            const mk_event *d = find_ev("decline", NULL);   /* the defender's side stands */
            CHECK(d && d->text && strcmp(d->text, "retreat_before_close_combat") == 0 && d->other == u &&
                  d->side == BAR_BRITISH);
        }
        CHECK_EQ(sc->rs->to_move(s), BAR_AMERICAN);
        CHECK_EQ(s->rb_unit, -1);
    }
}


/* 2.2d D: artillery may fire at a unit making Road Movement, at any range
 * of its chart (not its minimum); the reactive player calls "Halt" after the
 * unit enters a hex: a decision of the other side. No adverse result: the
 * march goes on; an adverse one ends it. */
static void test_opportunity_fire(void)
{
    const mk_grid *g = &sc->map.grid;
    mk_hex path[4];
    path[0] = hx("E3915");
    for (int k = 1; k < 4; k++) {
        path[k] = MK_NO_HEX;
        for (int d = 0; d < 6; d++) {
            mk_hex nb = mk_hex_neighbor(g, path[k - 1], d);
            if (nb != MK_NO_HEX && (k < 2 || nb != path[k - 2]) && bar_road(&x->map, path[k - 1], nb) == BAR_ROAD_MAJOR)
                path[k] = nb;
        }
    }
    char l0[MK_HEX_LABEL_MAX], l1[MK_HEX_LABEL_MAX], la[MK_HEX_LABEL_MAX], js[160];
    mk_hex_label(g, path[0], l0);
    mk_hex_label(g, path[1], l1);
    int art = pid("Fld/GD"), u = pid("63/5th");
    /* a hex two away from path[1] from which the gun bears on it */
    mk_hex at = MK_NO_HEX;
    for (mk_hex h = 0; h < mk_grid_size(g) && at == MK_NO_HEX; h++) {
        if (mk_hex_distance(g, h, path[1]) != 2 || mk_hex_distance(g, h, path[0]) < 2 || x->map.terrain[h])
            continue;
        empty(3);
        place("Fld/GD", mk_hex_label(g, h, la), BAR_FM_ARTILLERY, 30 * bar_bearing12(g, h, path[1]));
        place("63/5th", l1, BAR_FM_ROAD_COLUMN, 270);
        int col;
        if (bar_fire_strength_of(s, sc, art, path[1], &col) >= 0 && col >= 0)
            at = h;
    }
    CHECK(at != MK_NO_HEX);
    if (at == MK_NO_HEX)
        return;
    for (int fire = 1; fire >= 0; fire--) {
        empty(3);
        place("Fld/GD", la, BAR_FM_ARTILLERY, 30 * bar_bearing12(g, at, path[1]));
        place("GD/LEE", la, BAR_FM_LINE, 90);
        place("HC", "E3920", BAR_FM_LINE, 270);
        place("5th/COR", l0, BAR_FM_LINE, 270);
        place("63/5th", l0, BAR_FM_ROAD_COLUMN, 270);
        s->side = BAR_BRITISH;
        CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"5th\"}"), 0);
        snprintf(js, sizeof js, "{\"type\":\"move\",\"unit\":\"63/5th\",\"path\":[\"%s\"]}", l1);
        CHECK_EQ(act(js), 0);
        CHECK_EQ(s->of_unit, u);
        CHECK_EQ(sc->rs->to_move(s), BAR_AMERICAN);
        if (fire) {
            force(1, 11);   /* a miss: no adverse result, the march goes on */
            CHECK_EQ(act("{\"type\":\"opportunity_fire\",\"unit\":\"Fld/GD\"}"), 0);
            CHECK(find_ev("opportunity_fire", NULL) != NULL);
            CHECK(find_ev("roll", "fire") != NULL);
            CHECK_EQ(s->of_unit, -1);   /* no other gun */
            CHECK(s->pc[u].mp > 0);
        } else {
            CHECK_EQ(act("{\"type\":\"opportunity_fire\",\"unit\":null}"), 0);
            CHECK(find_ev("roll", "fire") == NULL);
            const mk_event *d = find_ev("decline", NULL);   /* the reactive side lets it go on */
            CHECK(d && d->text && strcmp(d->text, "opportunity_fire") == 0 && d->other == u &&
                  d->side == BAR_AMERICAN);
        }
        CHECK_EQ(sc->rs->to_move(s), BAR_BRITISH);
        if (fire) {   /* once per activation against the same unit */
            mk_action list[MK_MAX_ACTIONS];
            s->of_unit = (int16_t)u;
            int n = bar_legal_opfire(s, sc, list, MK_MAX_ACTIONS);
            CHECK_EQ(n, 1);   /* only "let it pass" */
            s->of_unit = -1;
        }
    }
}


/* 3.4c: in scenarios 2-4 an American unit in Road Column leaves by W0114
 * or W0124 and may come back by either only after the entire next turn. */
static void test_off_map_movement(void)
{
    if (!use_scenario("2-washingtons-stand"))
        return;
    CHECK(bar_scen_switch(&x->scen, "off_map_movement", 0));
    int u = -1, org = -1;
    for (int i = 0; i < s->npieces && u < 0; i++)
        if (!bar_is_leader(&x->p[i]) && x->p[i].side == BAR_AMERICAN && x->p[i].kind == BK_INFANTRY &&
            x->p[i].org >= 0 && bar_org_leader(sc, x->p[i].org) >= 0 && !x->p[i].independent)
            u = i, org = x->p[i].org;
    CHECK(u >= 0);
    if (u < 0)
        return;
    char js[160];
    for (int round = 0; round < 3; round++) {
        empty(round == 0 ? 0 : round == 1 ? 1 : 2);
        place(sc->units[bar_org_leader(sc, org)].id, "W0115", BAR_FM_LINE, 90);
        if (round == 0) {
            place(sc->units[u].id, "W0114", BAR_FM_ROAD_COLUMN, 270);
        } else {   /* it left in the first turn */
            s->pc[u].flags = BF_ON;
            s->pc[u].sp = x->p[u].sp;
            s->pc[u].more = BM_OFFMAP;
            s->pc[u].back = (int16_t)(x->first_turn + 2);
        }
        place("HC", "E3920", BAR_FM_LINE, 270);
        place("5th/COR", "E3120", BAR_FM_LINE, 270);
        place("63/5th", "E3120", BAR_FM_LINE, 270);
        s->side = BAR_AMERICAN;
        force(1, 15);
        snprintf(js, sizeof js, "{\"type\":\"activate\",\"command\":\"%s\"}", x->oob.org[org].id);
        CHECK_EQ(act(js), 0);
        if (round == 0) {
            snprintf(js, sizeof js, "{\"type\":\"exit\",\"unit\":\"%s\",\"off_map\":true}", sc->units[u].id);
            CHECK_EQ(act(js), 0);
            CHECK(s->pc[u].more & BM_OFFMAP);
            CHECK_EQ(s->pc[u].back, x->first_turn + 2);
            CHECK_EQ(s->pc[u].hex, MK_NO_HEX);
        } else {
            snprintf(js, sizeof js, "{\"type\":\"enter\",\"unit\":\"%s\",\"path\":[\"W0124\"]}", sc->units[u].id);
            if (round == 1) {
                CHECK(act(js) < 0);   /* the next turn: not yet */
            } else {
                CHECK_EQ(act(js), 0);
                CHECK_EQ(s->pc[u].hex, hx("W0124"));
                CHECK(!(s->pc[u].more & BM_OFFMAP));
            }
        }
    }
    back_to_scenario_1();
}


/* 4.3 (and 3.3): a Wing Leader outside the Army Leader's range may head a
 * Detachment; its Commands then trace their Line of Command to him; back in
 * range, it rejoins (Series 24.3, ours). */
static void test_detachment(void)
{
    if (!use_scenario("2-washingtons-stand"))
        return;
    int cor = pid("COR/HC");
    empty(0);
    place("HC", "E3920", BAR_FM_LINE, 270);
    place("COR/HC", "E1520", BAR_FM_LINE, 270);   /* far from Clinton */
    place("5th/COR", "E1420", BAR_FM_LINE, 270);
    place("63/5th", "E1420", BAR_FM_LINE, 270);
    int am = -1;
    for (int i = 0; i < s->npieces && am < 0; i++)
        if (!bar_is_leader(&x->p[i]) && x->p[i].side == BAR_AMERICAN && !x->p[i].independent &&
            bar_org_leader(sc, x->p[i].org) >= 0) {
            am = i;
            place(sc->units[i].id, "W0510", BAR_FM_LINE, 90);
            place(sc->units[bar_org_leader(sc, x->p[i].org)].id, "W0510", BAR_FM_LINE, 90);
        }
    s->side = BAR_BRITISH;
    CHECK_EQ(act("{\"type\":\"detach\",\"unit\":\"COR/HC\"}"), 0);
    CHECK_EQ(s->det[BAR_BRITISH], cor);
    CHECK(act("{\"type\":\"detach\",\"unit\":\"COR/HC\"}") < 0);   /* one at a time */
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"5th\"}"), 0);
    const mk_event *e = find_ev("in_command", NULL);
    CHECK(e && e->other == cor);
    /* Cornwallis rides back to Clinton: the Detachment rejoins next turn */
    s->pc[cor].hex = hx("E3820");
    mk_events_init(&ev, evs, 512);
    bar_turn_init(s, sc, &ev);
    CHECK_EQ(s->det[BAR_BRITISH], -1);
    CHECK(find_ev("detachment_rejoins", NULL) != NULL);
    /* scenario 1 has none (4.3) */
    back_to_scenario_1();
    empty(0);
    place("HC", "E3920", BAR_FM_LINE, 270);
    place("COR/HC", "E1520", BAR_FM_LINE, 270);
    place("5th/COR", "E1420", BAR_FM_LINE, 270);
    place("63/5th", "E1420", BAR_FM_LINE, 270);
    s->side = BAR_BRITISH;
    CHECK(act("{\"type\":\"detach\",\"unit\":\"COR/HC\"}") < 0);
}


/* 7.0c C: reinforcements whose entry hex is held by the enemy or in its
 * ZOC enter by any map edge hex within 5 hexes of it that is neither. */
static void test_alternative_entry(void)
{
    const mk_grid *g = &sc->map.grid;
    empty(1);   /* 10:20 AM: the grenadiers arrive at E3915 */
    int len = pid("Len/HG");
    s->pc[len].flags = 0;
    s->pc[len].hex = MK_NO_HEX;
    s->pc[len].sp = x->p[len].sp;
    s->pc[len].form = BAR_FM_ROAD_COLUMN;
    place("HG/COR", "E3820", BAR_FM_LINE, 270);
    place("HC", "E3820", BAR_FM_LINE, 270);
    s->side = BAR_BRITISH;
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"HG\"}"), 0);
    mk_action list[MK_MAX_ACTIONS];
    int n = sc->rs->legal(s, sc, list, MK_MAX_ACTIONS), at_entry = 0, other = 0;
    for (int i = 0; i < n; i++)
        if (list[i].type == BA_ENTER && list[i].unit == len)
            list[i].path[0] == hx("E3915") ? at_entry++ : other++;
    CHECK_EQ(at_entry, 1);
    CHECK_EQ(other, 0);
    /* an American unit on E3915: the edge hexes within 5 instead */
    empty(1);
    s->pc[len].flags = 0;
    s->pc[len].hex = MK_NO_HEX;
    s->pc[len].sp = x->p[len].sp;
    s->pc[len].form = BAR_FM_ROAD_COLUMN;
    place("HG/COR", "E3820", BAR_FM_LINE, 270);
    place("HC", "E3820", BAR_FM_LINE, 270);
    place("Patt/GD", "E3915", BAR_FM_LINE, 90);
    s->side = BAR_BRITISH;
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"HG\"}"), 0);
    n = sc->rs->legal(s, sc, list, MK_MAX_ACTIONS);
    at_entry = other = 0;
    int bad = 0;
    for (int i = 0; i < n; i++)
        if (list[i].type == BA_ENTER && list[i].unit == len) {
            mk_hex h = list[i].path[0];
            if (h == hx("E3915"))
                at_entry++;
            else
                other++;
            bad += !mk_hex_on_map_edge(g, h) || mk_hex_distance(g, h, hx("E3915")) > 5 ||
                   bar_in_ezoc(s, sc, BAR_BRITISH, h);
        }
    CHECK_EQ(at_entry, 0);
    CHECK(other > 0);
    CHECK_EQ(bad, 0);
}

int main(void)
{
    if (!bar_fixture_load())
        return check_done("test_bar_play");
    test_initiative();
    test_wing_activation();
    test_end_turn();
    test_road_movement();
    test_line_zoc_stacking();
    test_fire();
    test_close_combat();
    test_rout();
    test_victory_inputs();
    test_lee();
    test_voluntary_rout();
    test_heat();
    test_hessian_grenadiers();
    test_leader_losses();
    test_sniping();
    test_washington_relieves_lee();
    test_baggage();
    test_exit_west();
    test_nj_brigade();
    test_loc_through_wing();
    test_morale_relief();
    test_charge();
    test_defensive_fire();
    test_retreat_before_close_combat();
    test_opportunity_fire();
    test_off_map_movement();
    test_detachment();
    test_alternative_entry();
    mk_scenario_free(sc);
    return check_done("test_bar_play");
}
