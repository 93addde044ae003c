/* test_bar_command.c - the Monmouth (BAR) command rules with forced dice,
 * each test named by the section it checks: the Initiative special
 * results (6.2a-g), Heat's "no MPs next activation" (2.8 E). Positions are
 * built on scenario 1's map and pieces (bar_fixture.h). */
#include "bar_fixture.h"

/* Grayson's Command at E2019 (GD/LEE, Patt/GD), Jackson's at E2023, no
 * Army Leader on the map: each Command Leader rolls for Initiative; the
 * American to choose a Command. */
static void two_commands(int turn_offset)
{
    empty(turn_offset);
    place("GD/LEE", "E2019", BAR_FM_LINE, 90);
    place("Patt/GD", "E2019", BAR_FM_LINE, 90);
    place("JD/LEE", "E2023", BAR_FM_LINE, 90);
    place("Jack/JD", "E2023", BAR_FM_LINE, 90);
    s->side = BAR_AMERICAN;
}

static int nlegal(mk_action *list)
{
    return sc->rs->legal(s, sc, list, MK_MAX_ACTIONS);
}

/* 6.2a (2.2b): a '00' Initiative roll: both sides check Army Morale at
 * -1, the Army Leader spending the Command Rating he has left this hour;
 * once a turn (B); a natural 0 lowers the modifier by 5, not below 0 (C);
 * the Command is not activated and its side chooses again (6.2d A). */
static void test_6_2a_army_morale(void)
{
    two_commands(0);
    int hc = pid("HC");
    place("HC", "E3020", BAR_FM_LINE, 270);
    int cr = bar_leader_values_of(s, sc, hc).cr;
    CHECK(cr > 0);
    s->loss[0] = s->loss[1] = 60;
    int lv0 = bar_army_loss_level(&x->ch, 0, 60), lv1 = bar_army_loss_level(&x->ch, 1, 60);
    CHECK(lv0 >= 0 && lv1 >= 0);
    force(3, 0, 6, 7);   /* the Initiative 00, the American die, the British die */
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"GD\"}"), 0);
    CHECK_EQ(s->army_mod[0], bar_army_morale_modifier(&x->ch, lv0, 6 - 1));
    CHECK_EQ(s->army_mod[1], bar_army_morale_modifier(&x->ch, lv1, 7 - 1 - cr));
    CHECK_EQ(s->cr_used[1], cr);
    CHECK(s->sr_turn & BST_ARMY_MORALE);
    CHECK_EQ(s->phase, BP_ACTIVATE);
    CHECK_EQ(s->side, BAR_AMERICAN);
    CHECK(!(s->acted[0] >> bar_oob_find_org(&x->oob, 0, "GD") & 1));   /* not activated */
    /* B: a second '00' this turn is ignored (the Command rolls again: 35 passes) */
    int m0 = s->army_mod[0], m1 = s->army_mod[1];
    force(2, 0, 35);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"GD\"}"), 0);
    const mk_event *e = find_ev("special_result", NULL);
    CHECK(e && e->rule && strstr(e->rule, "6.2a B"));
    CHECK(find_ev("roll", "army_morale") == NULL);
    CHECK_EQ(s->army_mod[0], m0);
    CHECK_EQ(s->army_mod[1], m1);
    /* next turn, the same hour: Clinton has no Command Rating left (A) */
    two_commands(1);
    place("HC", "E3020", BAR_FM_LINE, 270);
    s->loss[0] = s->loss[1] = 60;
    s->cr_used[1] = (int8_t)cr;
    s->army_mod[0] = 8;
    force(3, 0, 0, 7);   /* the American die a natural 0: C */
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"GD\"}"), 0);
    CHECK_EQ(s->army_mod[0], 3);
    CHECK_EQ(s->army_mod[1], bar_army_morale_modifier(&x->ch, lv1, 7 - 1));
    s->army_mod[0] = 2;   /* not below 0 */
    s->sr_turn = 0;
    force(3, 0, 0, 7);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"GD\"}"), 0);
    CHECK_EQ(s->army_mod[0], 0);
    /* A: a side below every loss level makes no check */
    two_commands(0);
    s->loss[0] = s->loss[1] = 0;
    force(2, 0, 35);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"GD\"}"), 0);
    CHECK(find_ev("roll", "army_morale") == NULL);
}

/* 6.2b: Leader Lapse: the Army Leader traces no LOC, so a Command Leader
 * next to him rolls for Initiative; rolled again the same turn, he
 * functions normally (B); and the hourly Army Morale Check has no Command
 * Rating from him (A). */
static void test_6_2b_leader_lapse(void)
{
    empty(3);
    place("HC", "E3020", BAR_FM_LINE, 270);
    place("HG/COR", "E3020", BAR_FM_LINE, 270);
    place("Len/HG", "E3020", BAR_FM_LINE, 270);
    place("5th/COR", "E1020", BAR_FM_LINE, 270);   /* far from Clinton */
    place("63/5th", "E1020", BAR_FM_LINE, 270);
    s->side = BAR_BRITISH;
    int hg = bar_oob_find_org(&x->oob, BAR_BRITISH, "HG");
    force(1, 1);   /* British 01: Leader Lapse */
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"5th\"}"), 0);
    CHECK(s->sr_turn & (BST_LAPSE << BAR_BRITISH));
    CHECK_EQ(s->phase, BP_ACTIVATE);
    /* Kospoth is in Clinton's hex, and must roll now: 45 fails (Initiative 3 or less) */
    CHECK(bar_leader_values_of(s, sc, pid("HG/COR")).initiative < 4);
    force(1, 45);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"HG\"}"), 0);
    CHECK(find_ev("roll", "initiative") != NULL);
    CHECK_EQ(s->in_command, 0);
    CHECK(s->acted[1] >> hg & 1);
    /* rolled again: Clinton functions normally */
    s->phase = BP_ACTIVATE;
    s->side = BAR_BRITISH;
    s->acted[1] = 0;
    force(1, 2);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"5th\"}"), 0);
    CHECK(!(s->sr_turn & (BST_LAPSE << BAR_BRITISH)));
    force(0);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"HG\"}"), 0);
    CHECK(find_ev("roll", "initiative") == NULL);
    CHECK(find_ev("in_command", NULL) != NULL);
    CHECK_EQ(s->in_command, 1);
}

/* 6.2c: Confusion: the other player picks an unactivated Command of the
 * roller; its leader rolls twice: both failed, Finished; one passed, it
 * activates with half MPs (a quarter Disordered), no Close Combat, no
 * Independents; both passed, without penalty; no leader on the map (B):
 * Finished without a roll; its leader is marked for the turn (6.2). */
static void test_6_2c_confusion(void)
{
    mk_action list[MK_MAX_ACTIONS];
    int gd = bar_oob_find_org(&x->oob, 0, "GD"), jd = bar_oob_find_org(&x->oob, 0, "JD");
    int patt = pid("Patt/GD"), jack = pid("Jack/JD");
    two_commands(0);
    force(1, 2);   /* American 02: Confusion */
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"GD\"}"), 0);
    CHECK_EQ(s->sr, BAR_INI_CONFUSION);
    CHECK_EQ(sc->rs->to_move(s), BAR_BRITISH);   /* the other player picks */
    int n = nlegal(list);
    CHECK_EQ(n, 2);   /* GD (not activated after all) and JD */
    for (int i = 0; i < n; i++)
        CHECK(list[i].type == BA_SPECIAL && (list[i].other == gd || list[i].other == jd));
    force(2, 35, 45);   /* one passed */
    CHECK_EQ(act("{\"type\":\"special_result\",\"command\":\"JD\"}"), 0);
    CHECK_EQ(s->phase, BP_MOVE);
    CHECK_EQ(s->org, jd);
    CHECK_EQ(s->in_command, BIC_LIMITED);
    CHECK(s->acted[0] >> jd & 1);
    CHECK(!(s->acted[0] >> gd & 1));
    CHECK_EQ(s->pc[jack].mp, x->p[jack].mp_half / 2);
    CHECK(s->pc[pid("JD/LEE")].more2 & BM2_CAPTURED);
    /* no Close Combat: an enemy next to Jackson's unit */
    char lb[MK_HEX_LABEL_MAX];
    mk_hex_label(&sc->map.grid, mk_hex_neighbor(&sc->map.grid, hx("E2023"), 0), lb);
    place("63/5th", lb, BAR_FM_LINE, 270);
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    CHECK_EQ(s->phase, BP_CC);
    n = nlegal(list);
    for (int i = 0; i < n; i++)
        CHECK(list[i].type != BA_CC);
    /* a quarter for a Disordered unit; both passed: no penalty */
    two_commands(0);
    s->pc[jack].status = BS_DISORDERED;
    force(3, 3, 35, 45);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"GD\"}"), 0);
    CHECK_EQ(act("{\"type\":\"special_result\",\"command\":\"JD\"}"), 0);
    CHECK_EQ(s->pc[jack].mp, x->p[jack].mp_half / 4);
    two_commands(0);
    force(3, 2, 35, 5);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"GD\"}"), 0);
    CHECK_EQ(act("{\"type\":\"special_result\",\"command\":\"GD\"}"), 0);
    CHECK_EQ(s->in_command, 1);
    CHECK_EQ(s->org, gd);
    CHECK_EQ(s->pc[patt].mp, x->p[patt].mp_half);
    /* both failed: Finished; the side chooses again */
    two_commands(0);
    force(3, 2, 45, 55);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"GD\"}"), 0);
    CHECK_EQ(act("{\"type\":\"special_result\",\"command\":\"JD\"}"), 0);
    CHECK_EQ(s->phase, BP_ACTIVATE);
    CHECK_EQ(s->side, BAR_AMERICAN);
    CHECK(s->acted[0] >> jd & 1);
    CHECK(!bar_org_can_activate(s, sc, 0, jd));
    /* Jackson is marked: a second Confusion this turn cannot pick JD */
    force(1, 2);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"GD\"}"), 0);
    n = nlegal(list);
    CHECK_EQ(n, 1);
    CHECK_EQ(list[0].other, gd);
    /* B: no leader on the map: Finished, no roll */
    two_commands(0);
    s->pc[pid("JD/LEE")].hex = MK_NO_HEX;
    force(1, 2);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"GD\"}"), 0);
    force(0);
    CHECK_EQ(act("{\"type\":\"special_result\",\"command\":\"JD\"}"), 0);
    CHECK(find_ev("roll", "initiative") == NULL);
    CHECK(s->acted[0] >> jd & 1);
    CHECK_EQ(s->phase, BP_ACTIVATE);
}

/* 6.2d: Free Combat: the roller picks a Command Leader and Fire or Close
 * Combat; failing his Initiative roll there is no event; passing, his
 * non-Disordered units in his Command Range have that combat segment and
 * are still not activated; a Close Combat may follow a one-hex advance. */
static void test_6_2d_free_combat(void)
{
    mk_action list[MK_MAX_ACTIONS];
    int gd = bar_oob_find_org(&x->oob, 0, "GD");
    int patt = pid("Patt/GD"), jack = pid("Jack/JD");
    char lb[MK_HEX_LABEL_MAX];
    two_commands(3);
    place("Gray/GD", "E2019", BAR_FM_LINE, 90);
    s->pc[pid("Gray/GD")].status = BS_DISORDERED;
    mk_hex_label(&sc->map.grid, mk_hex_neighbor(&sc->map.grid, hx("E2019"), 1), lb);
    place("63/5th", lb, BAR_FM_LINE, 270);
    force(1, 4);   /* American 04: Free Combat */
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"JD\"}"), 0);
    CHECK_EQ(s->sr, BAR_INI_FREE_COMBAT);
    CHECK_EQ(nlegal(list), 4);   /* GD and JD, each Fire or Close */
    /* failed: no event */
    force(1, 55);
    CHECK_EQ(act("{\"type\":\"special_result\",\"command\":\"GD\",\"close\":false}"), 0);
    CHECK_EQ(s->phase, BP_ACTIVATE);
    CHECK(!(s->pc[pid("GD/LEE")].more2 & BM2_CAPTURED));
    /* passed: a Fire Combat Segment for Patt, not for the Disordered Gray nor JD */
    force(2, 4, 35);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"JD\"}"), 0);
    CHECK_EQ(act("{\"type\":\"special_result\",\"command\":\"GD\",\"close\":false}"), 0);
    CHECK_EQ(s->phase, BP_FIRE);
    CHECK_EQ(s->sr_mode, BSR_FIRE);
    CHECK(s->pc[pid("GD/LEE")].more2 & BM2_CAPTURED);
    CHECK(bar_piece_active(s, sc, patt));
    CHECK(!bar_piece_active(s, sc, pid("Gray/GD")));
    CHECK(!bar_piece_active(s, sc, jack));
    char js[160];
    snprintf(js, sizeof js, "{\"type\":\"fire\",\"unit\":\"Patt/GD\",\"target\":\"%s\"}", lb);
    force(0);
    CHECK_EQ(act(js), 0);
    CHECK(s->pc[patt].flags & BF_FIRED);
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);   /* the segment is over */
    CHECK_EQ(s->phase, BP_ACTIVATE);
    CHECK_EQ(s->sr_mode, BSR_NONE);
    CHECK_EQ(s->side, BAR_AMERICAN);
    CHECK(!(s->acted[0] >> gd & 1));
    CHECK(bar_org_can_activate(s, sc, 0, gd));
    /* Grayson is marked: a second Free Combat offers JD alone */
    force(1, 4);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"JD\"}"), 0);
    CHECK_EQ(nlegal(list), 2);
    /* Close Combat: first a one-hex advance next to an enemy, then the segment */
    two_commands(3);
    mk_hex far = mk_hex_neighbor(&sc->map.grid, mk_hex_neighbor(&sc->map.grid, hx("E2019"), 1), 1);
    mk_hex_label(&sc->map.grid, far, lb);
    place("63/5th", lb, BAR_FM_LINE, 270);
    force(2, 4, 35);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"JD\"}"), 0);
    CHECK_EQ(act("{\"type\":\"special_result\",\"command\":\"GD\",\"close\":true}"), 0);
    CHECK_EQ(s->phase, BP_MOVE);
    CHECK_EQ(s->sr_mode, BSR_CLOSE);
    int n = nlegal(list), moves = 0;
    for (int i = 0; i < n; i++) {
        CHECK(list[i].type == BA_MOVE || list[i].type == BA_NEXT);
        if (list[i].type == BA_MOVE) {
            moves++;
            CHECK(mk_hex_distance(&sc->map.grid, list[i].path[0], far) == 1);
        }
    }
    CHECK(moves >= 1);
    int k = 0;
    while (k < n && list[k].type != BA_MOVE)
        k++;
    if (k < n) {
        mk_events_init(&ev, evs, 512);
        CHECK_EQ(sc->rs->apply(s, sc, &list[k], &ev, NULL), 0);
        CHECK_EQ(s->pc[list[k].unit].mp, 0);   /* one hex */
    }
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    CHECK_EQ(s->phase, BP_CC);   /* no Fire Combat Segment */
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    CHECK_EQ(s->phase, BP_ACTIVATE);
    CHECK_EQ(s->sr_mode, BSR_NONE);
}

/* 6.2e: Special Rally: a Command's units within its leader's Command
 * Range, and the units stacked with them, recover from Disorder and then
 * rally; always applied to the leader. */
static void test_6_2e_special_rally(void)
{
    two_commands(0);
    int patt = pid("Patt/GD"), jack = pid("Jack/JD"), va = pid("Va Bn/GD");
    place("Jack/JD", "E2019", BAR_FM_LINE, 90);   /* stacked with Patt: JD's unit benefits */
    place("Va Bn/GD", "E1020", BAR_FM_LINE, 90);   /* out of Grayson's range */
    CHECK(mk_hex_distance(&sc->map.grid, hx("E1020"), hx("E2019")) > bar_leader_values_of(s, sc, pid("GD/LEE")).range);
    s->pc[patt].status = BS_DISORDERED | BS_SHAKEN;
    s->pc[jack].status = BS_ROUTED;
    s->pc[va].status = BS_DISORDERED;
    force(1, 6);   /* American 06: Special Rally */
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"JD\"}"), 0);
    CHECK_EQ(s->sr, BAR_INI_SPECIAL_RALLY);
    force(3, 99, 99, 99);   /* Patt's Disorder; then Patt's Shaken, Jack's rally */
    CHECK_EQ(act("{\"type\":\"special_result\",\"command\":\"GD\"}"), 0);
    CHECK_EQ(s->pc[patt].status, 0);
    CHECK_EQ(s->pc[jack].status, BS_SHAKEN | BS_DISORDERED);
    CHECK_EQ(s->pc[va].status, BS_DISORDERED);
    CHECK(s->pc[pid("GD/LEE")].more2 & BM2_CAPTURED);
    CHECK_EQ(s->phase, BP_ACTIVATE);
    CHECK(!(s->acted[0] >> bar_oob_find_org(&x->oob, 0, "GD") & 1));
}

/* 6.2f: Leader Initiative: a passed roll gives the Command a free
 * Movement Segment (only), In Command, and it is still not activated. */
static void test_6_2f_leader_initiative(void)
{
    two_commands(0);
    int patt = pid("Patt/GD"), gd = bar_oob_find_org(&x->oob, 0, "GD");
    force(1, 7);   /* American 07 */
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"JD\"}"), 0);
    CHECK_EQ(s->sr, BAR_INI_LEADER_INITIATIVE);
    force(1, 35);
    CHECK_EQ(act("{\"type\":\"special_result\",\"command\":\"GD\"}"), 0);
    CHECK_EQ(s->phase, BP_MOVE);
    CHECK_EQ(s->sr_mode, BSR_MOVE);
    CHECK_EQ(s->in_command, 1);
    CHECK_EQ(s->pc[patt].mp, x->p[patt].mp_half);
    CHECK(!bar_piece_active(s, sc, pid("Jack/JD")));
    CHECK_EQ(act("{\"type\":\"face\",\"unit\":\"Patt/GD\",\"facing\":150}"), 0);
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    CHECK_EQ(s->phase, BP_ACTIVATE);   /* no Fire or Close Combat Segment */
    CHECK(!(s->acted[0] >> gd & 1));
    CHECK(s->pc[pid("GD/LEE")].more2 & BM2_CAPTURED);
    /* failed: no event, no marker */
    two_commands(0);
    force(2, 7, 55);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"JD\"}"), 0);
    CHECK_EQ(act("{\"type\":\"special_result\",\"command\":\"GD\"}"), 0);
    CHECK_EQ(s->phase, BP_ACTIVATE);
    CHECK(!(s->pc[pid("GD/LEE")].more2 & BM2_CAPTURED));
}

/* 6.2g: Battle Tempo: the End Turn marker up or down a box, the player's
 * choice; no effect once the End box is reached. */
static void test_6_2g_battle_tempo(void)
{
    mk_action list[MK_MAX_ACTIONS];
    two_commands(0);
    s->marker = 2;
    force(1, 9);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"GD\"}"), 0);
    CHECK_EQ(s->sr, BAR_INI_BATTLE_TEMPO);
    CHECK_EQ(nlegal(list), 3);
    CHECK_EQ(act("{\"type\":\"special_result\",\"tempo\":\"down\"}"), 0);
    CHECK_EQ(s->marker, 1);
    CHECK_EQ(s->phase, BP_ACTIVATE);
    force(1, 9);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"GD\"}"), 0);
    CHECK_EQ(act("{\"type\":\"special_result\",\"tempo\":\"up\"}"), 0);
    CHECK_EQ(s->marker, 2);
    s->marker = (int8_t)bar_end_turn_number(x->scenario, s->turn);
    force(1, 9);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"GD\"}"), 0);
    CHECK_EQ(s->sr, -1);
    CHECK(find_ev("special_result", NULL) != NULL);
    CHECK_EQ(s->marker, bar_end_turn_number(x->scenario, s->turn));
}

/* 6.2: the CAPTURED markers go in the Rally Segment (the end of the turn). */
static void test_6_2_markers_removed(void)
{
    two_commands(0);
    s->pc[pid("GD/LEE")].more2 |= BM2_CAPTURED;
    s->pc[pid("JD/LEE")].more2 |= BM2_CAPTURED;
    s->acted[0] = ~0ull;   /* nothing left to do: the turn ends */
    s->acted[1] = ~0ull;
    s->phase = BP_CC;
    s->org = (int16_t)bar_oob_find_org(&x->oob, 0, "GD");
    force(0);
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    CHECK(find_ev("turn_end", NULL) != NULL);
    CHECK(!(s->pc[pid("GD/LEE")].more2 & BM2_CAPTURED));
    CHECK(!(s->pc[pid("JD/LEE")].more2 & BM2_CAPTURED));
}

/* 2.8 E: a Shaken/Disordered unit failing a Heat check spends no MPs in
 * its next activation, then moves again. */
static void test_2_8e_heat_no_mp(void)
{
    empty(6);   /* Noon: Heat */
    int u = pid("Patt/GD");
    place("GD/LEE", "E2019", BAR_FM_LINE, 90);
    place("Patt/GD", "E2019", BAR_FM_ATTACK_COLUMN, 90);
    s->pc[u].status = BS_SHAKEN | BS_DISORDERED;
    s->side = BAR_AMERICAN;
    force(1, 35);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"GD\"}"), 0);
    CHECK(s->pc[u].mp > 0);
    s->pc[u].spent = 3;
    force(1, 0);   /* fails */
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    CHECK(find_ev("no_mp_next_activation", NULL) != NULL);
    CHECK(s->pc[u].more2 & BM2_NO_MP);
    CHECK(!(s->pc[u].status & BS_ROUTED));
    /* the next activation: no MPs */
    s->phase = BP_ACTIVATE;
    s->side = BAR_AMERICAN;
    s->acted[0] = 0;
    force(1, 35);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"GD\"}"), 0);
    CHECK_EQ(s->pc[u].mp, 0);
    CHECK(!(s->pc[u].more2 & BM2_NO_MP));
    /* and the one after: its MPs again (Out of Command or not) */
    s->phase = BP_ACTIVATE;
    s->acted[0] = 0;
    force(1, 35);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"GD\"}"), 0);
    CHECK(s->pc[u].mp > 0);
    /* a unit only Disordered that fails becomes Shaken/Disordered, no marker */
    empty(6);
    place("GD/LEE", "E2019", BAR_FM_LINE, 90);
    place("Patt/GD", "E2019", BAR_FM_ATTACK_COLUMN, 90);
    s->pc[u].status = BS_DISORDERED;
    s->side = BAR_AMERICAN;
    force(1, 35);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"GD\"}"), 0);
    s->pc[u].spent = 3;
    force(1, 0);
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    CHECK(!(s->pc[u].more2 & BM2_NO_MP));
}


/* n steps west of h (south-west and north-west in turn) */
static mk_hex west(mk_hex h, int n)
{
    for (int k = 0; k < n; k++) {
        mk_hex a = mk_hex_neighbor(&sc->map.grid, h, 3), b = mk_hex_neighbor(&sc->map.grid, h, 4);
        mk_hex w = k & 1 ? b : a;
        h = w != MK_NO_HEX ? w : a != MK_NO_HEX ? a : b;
    }
    return h;
}

static void place_at(const char *id, mk_hex h, int facing)
{
    char lb[MK_HEX_LABEL_MAX];
    mk_hex_label(&sc->map.grid, h, lb);
    place(id, lb, BAR_FM_LINE, facing);
}

/* 4.2a C: a killed British Wing Leader is succeeded by the most senior
 * available Command Leader of his Wing, who heads the Wing (the Line of
 * Command through him, 7.4) and a Detachment his predecessor headed. */
static void test_4_2a_c_wing_succession(void)
{
    empty(3);
    int hc = pid("HC"), cor = pid("COR/HC"), gds = pid("Gds/COR"), l5 = pid("5th/COR"), grey = pid("3rd/COR");
    int wing = bar_oob_find_org(&x->oob, BAR_BRITISH, "COR");
    mk_hex home = hx("E3020");
    int hr = bar_leader_values_of(s, sc, hc).range, mr = bar_leader_values_of(s, sc, gds).range;
    place("HC", "E3020", BAR_FM_LINE, 270);
    place_at("COR/HC", west(home, 1), 270);
    mk_hex mh = west(home, hr), lh = west(home, hr + mr);
    CHECK_EQ(mk_hex_distance(&sc->map.grid, home, mh), hr);
    CHECK_EQ(mk_hex_distance(&sc->map.grid, mh, lh), mr);
    CHECK(mk_hex_distance(&sc->map.grid, home, lh) > hr);
    place_at("Gds/COR", mh, 270);
    place_at("5th/COR", lh, 270);
    place_at("63/5th", lh, 270);
    place("HG/COR", "E3020", BAR_FM_LINE, 270);
    s->pc[grey].hex = MK_NO_HEX;   /* Grey, more senior, is wounded */
    s->pc[grey].flags = BF_ON;
    s->pc[grey].wounded = 2;
    s->det[BAR_BRITISH] = (int16_t)cor;
    CHECK_EQ(bar_wing_of(s, sc, cor), wing);
    CHECK_EQ(bar_wing_of(s, sc, gds), -1);
    mk_events_init(&ev, evs, 512);
    force(0);
    bar_leader_hit(s, sc, cor, true, &ev);
    const mk_event *e = find_ev("wing_leader", NULL);
    CHECK(e && e->unit == gds && e->other == cor && e->rule && strstr(e->rule, "4.2a C"));
    CHECK_EQ(bar_wing_of(s, sc, gds), wing);
    CHECK_EQ(s->det[BAR_BRITISH], gds);   /* the Detachment is his */
    /* Leslie, out of Clinton's range, within Mathew's: no roll */
    s->det[BAR_BRITISH] = -1;
    s->side = BAR_BRITISH;
    force(0);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"5th\"}"), 0);
    CHECK(find_ev("roll", "initiative") == NULL);
    e = find_ev("in_command", NULL);
    CHECK(e && e->other == gds);
    /* Mathew killed too: Leslie (Kospoth is junior) */
    mk_events_init(&ev, evs, 512);
    bar_leader_hit(s, sc, gds, true, &ev);
    e = find_ev("wing_leader", NULL);
    CHECK(e && e->unit == l5);
    CHECK_EQ(bar_wing_of(s, sc, l5), wing);
    CHECK_EQ(bar_wing_of(s, sc, gds), -1);
}

/* 3.2a C: an American Wing/Detachment Leader who is killed, or who becomes
 * the Army Leader, is succeeded by the most senior available Special or
 * Command Leader of his Wing; Special Leaders are not replaced. */
static void test_3_2a_c_wing_succession(void)
{
    empty(0);
    int lee = pid("LEE/GW"), laf = pid("LAF/LEE"), max = pid("NJB/LEE"), way = pid("WAY/LEE");
    int wing = bar_oob_find_org(&x->oob, BAR_AMERICAN, "LEE");
    place("LEE/GW", "E1525", BAR_FM_LINE, 90);
    place("LAF/LEE", "E1526", BAR_FM_LINE, 90);
    place("NJB/LEE", "E1527", BAR_FM_LINE, 90);
    place("WAY/LEE", "E2024", BAR_FM_LINE, 90);
    CHECK_EQ(s->army[BAR_AMERICAN], lee);
    CHECK_EQ(bar_wing_of(s, sc, lee), wing);
    mk_events_init(&ev, evs, 512);
    force(0);
    bar_leader_hit(s, sc, lee, true, &ev);
    CHECK_EQ(s->army[BAR_AMERICAN], laf);   /* 3.2a B: the most senior */
    CHECK_EQ(bar_wing_of(s, sc, laf), -1);  /* the Army Leader left the Wing */
    CHECK_EQ(bar_wing_of(s, sc, max), wing);   /* Maxwell is senior to Wayne */
    /* without Maxwell: Wayne, a Special Leader */
    empty(0);
    place("LEE/GW", "E1525", BAR_FM_LINE, 90);
    place("LAF/LEE", "E1526", BAR_FM_LINE, 90);
    place("WAY/LEE", "E2024", BAR_FM_LINE, 90);
    mk_events_init(&ev, evs, 512);
    bar_leader_hit(s, sc, lee, true, &ev);
    CHECK_EQ(bar_wing_of(s, sc, way), wing);
    /* Wayne killed: the Wing passes on (none left: no leader), Wayne is not replaced */
    mk_events_init(&ev, evs, 512);
    bar_leader_hit(s, sc, way, true, &ev);
    const mk_event *e = find_ev("wing_leader", NULL);
    CHECK(e && e->unit == -1 && e->other == way);
    CHECK(find_ev("replacement", NULL) == NULL);
    CHECK(s->pc[way].flags & BF_ELIM);
    for (int k = 0; k < BAR_MAX_SUCC; k++)
        CHECK(s->succ_wing[k] < 0);
}

/* 7.4a I: a Loyalist Corps unit activating with a Command is In Command
 * only on its own Initiative roll, even in its Command Leader's LOC;
 * other Independents need none. */
static void test_7_4a_i_loyalist_initiative(void)
{
    if (!use_scenario("4-general-engagement"))
        return;
    for (int pass = 0; pass < 2; pass++) {
        empty(3);
        int voi = pid("VoI/LC"), grant = pid("1st/KNY");
        place("HC", "E3020", BAR_FM_LINE, 270);   /* Grant in Clinton's range: no roll of his */
        place("1st/KNY", "E3020", BAR_FM_LINE, 270);
        place("4/1st", "E3020", BAR_FM_LINE, 270);
        place("VoI/LC", "E3120", BAR_FM_LINE, 270);
        s->side = BAR_BRITISH;
        int ini = bar_leader_values_of(s, sc, grant).initiative;
        CHECK(ini < 9);
        CHECK(x->p[voi].independent);
        force(1, pass ? ini * 10 : (ini + 1) * 10);
        CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"1st\"}"), 0);
        CHECK_EQ(s->in_command, 1);
        const mk_event *e = find_ev("roll", "loyalist_initiative");
        CHECK(e && e->unit == voi && e->need == ini && e->passed == pass);
        CHECK(bar_piece_active(s, sc, voi));
        CHECK_EQ(s->pc[voi].mp, pass ? x->p[voi].mp_half : x->p[voi].mp_half * x->se.ooc_mp_pct / 100);
        CHECK_EQ((s->pc[voi].flags & BF_OOC) != 0, !pass);
        CHECK_EQ(s->pc[pid("4/1st")].mp, x->p[pid("4/1st")].mp_half);   /* the Command's own units: In Command */
    }
    /* passing, it is In Command even when its Command is not */
    empty(3);
    int voi = pid("VoI/LC"), grant = pid("1st/KNY");
    place("1st/KNY", "E3020", BAR_FM_LINE, 270);
    place("4/1st", "E3020", BAR_FM_LINE, 270);
    place("VoI/LC", "E3120", BAR_FM_LINE, 270);
    s->side = BAR_BRITISH;
    int ini = bar_leader_values_of(s, sc, grant).initiative;
    force(2, 99, ini * 10);   /* Grant fails, Volunteers of Ireland pass */
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"1st\"}"), 0);
    CHECK_EQ(s->in_command, 0);
    CHECK(s->pc[pid("4/1st")].flags & BF_OOC);
    CHECK(!(s->pc[voi].flags & BF_OOC));
    CHECK_EQ(s->pc[voi].mp, x->p[voi].mp_half);
    back_to_scenario_1();
}

/* 7.1a C (the option bar.7.1a.C): Morgan's Command set up within 4 hexes
 * of E1535 and not subject to 3.2b G; the British up to 25 SPs of Flank
 * Guards and Jaeger Corps within 6 hexes of Clinton; without the option
 * those pieces are out of play. */
static void test_7_1a_c_morgan_variant(void)
{
    int mor = pid("MOR"), rb = pid("RB/MOR"), hc = pid("HC"), lee = pid("LEE/GW");
    CHECK(mor >= 0 && rb >= 0);
    if (mor < 0 || rb < 0)
        return;
    CHECK_EQ(x->p[rb].variant, 1);
    CHECK_EQ(x->p[hc].variant, 0);
    /* without the option */
    memset(s, 0, sizeof *s);
    mk_events_init(&ev, evs, 512);
    CHECK_EQ(sc->rs->init(s, sc, 0, 7, &ev, NULL), 0);
    int british = 0;
    for (int i = 0; i < s->npieces; i++)
        if (x->p[i].variant) {
            CHECK(s->pc[i].hex == MK_NO_HEX);
            CHECK(s->pc[i].more2 & BM2_OUT);
            british += x->p[i].side == BAR_BRITISH;
        }
    CHECK(british > 0);
    CHECK(!bar_org_can_activate(s, sc, BAR_AMERICAN, bar_oob_find_org(&x->oob, 0, "MOR")));
    /* with it */
    memset(s, 0, sizeof *s);
    mk_events_init(&ev, evs, 512);
    CHECK_EQ(sc->rs->init(s, sc, BO_MORGAN, 7, &ev, NULL), 0);
    int sps = 0;
    for (int i = 0; i < s->npieces; i++) {
        if (!x->p[i].variant)
            continue;
        CHECK(s->pc[i].hex != MK_NO_HEX);
        CHECK(!(s->pc[i].more2 & BM2_OUT));
        if (x->p[i].side == BAR_AMERICAN) {
            CHECK(mk_hex_distance(&sc->map.grid, s->pc[i].hex, hx("E1535")) <= 4);
        } else {
            CHECK(mk_hex_distance(&sc->map.grid, s->pc[i].hex, s->pc[hc].hex) <= 6);
            sps += x->p[i].sp;
        }
    }
    CHECK(sps > 0 && sps <= 25);
    /* not subject to 3.2b G: no Lee's range roll, no iv penalty */
    empty(0);
    place("LEE/GW", "E1525", BAR_FM_LINE, 90);
    place("MOR", "E1535", BAR_FM_LINE, 90);
    place("RB/MOR", "E1535", BAR_FM_SKIRMISH, 90);
    CHECK(mk_hex_distance(&sc->map.grid, hx("E1525"), hx("E1535")) > bar_leader_values_of(s, sc, lee).range);
    s->side = BAR_AMERICAN;
    force(2, 99, 0);   /* Morgan fails; (a die the iv penalty would take) */
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"MOR\"}"), 0);
    CHECK(find_ev("roll", "lee_command_range") == NULL);
    for (int k = 0; k < ev.n; k++)   /* no 3.2b G iv roll */
        CHECK(!ev.ev[k].rule || !strstr(ev.ev[k].rule, "3.2b G"));
    const mk_event *e = find_ev("roll", "initiative");
    CHECK(e && e->unit == mor && e->passed == 0);
    CHECK_EQ(s->pc[rb].mp, x->p[rb].mp_half * x->se.ooc_mp_pct / 100);
    /* within Lee's Command Range (he is the Army Leader): In Command */
    empty(0);
    place("LEE/GW", "E1525", BAR_FM_LINE, 90);
    place("MOR", "E1526", BAR_FM_LINE, 90);
    place("RB/MOR", "E1526", BAR_FM_SKIRMISH, 90);
    s->side = BAR_AMERICAN;
    force(0);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"MOR\"}"), 0);
    CHECK_EQ(s->in_command, 1);
    CHECK(find_ev("roll", NULL) == NULL);
}

static bool listed_exit(int unit, int flags)
{
    mk_action list[MK_MAX_ACTIONS];
    int n = sc->rs->legal(s, sc, list, MK_MAX_ACTIONS);
    for (int i = 0; i < n; i++)
        if (list[i].type == BA_EXIT && list[i].unit == unit && list[i].flags == flags)
            return true;
    return false;
}

/* 7.4a G-H (scenario 4): an Advanced Corps unit may leave within 20 hexes
 * of W0201 before any Night turn; in a Night or Moonlit Army Morale Check
 * Phase it is reorganized (Good Order; an SP back on a die at most its
 * losses), once; from 5:00 AM 29 June it comes back at W0201 in Good Order
 * and its Command traces its LOC through von Steuben. */
static void test_7_4a_gh_advanced_corps(void)
{
    if (!use_scenario("4-general-engagement"))
        return;
    int patt = pid("Patt/GD"), gd = bar_oob_find_org(&x->oob, BAR_AMERICAN, "GD");
    empty(3);
    place("GD/LEE", "W0301", BAR_FM_LINE, 90);
    place("Patt/GD", "W0201", BAR_FM_LINE, 90);
    place("63/5th", "E3020", BAR_FM_LINE, 270);   /* not Advanced Corps */
    CHECK(bar_ac_member(s, sc, patt));
    CHECK(!bar_ac_member(s, sc, pid("63/5th")));
    s->side = BAR_AMERICAN;
    force(1, 35);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"GD\"}"), 0);
    CHECK(listed_exit(patt, 2));
    s->pc[patt].status = BS_ROUTED;   /* "or by Routing": any state */
    CHECK(listed_exit(patt, 2));
    CHECK_EQ(act("{\"type\":\"exit\",\"unit\":\"Patt/GD\",\"advanced_corps\":true}"), 0);
    CHECK(s->pc[patt].more & BM_EXITED);
    CHECK(s->pc[patt].hex == MK_NO_HEX);
    /* not once a Night turn has come */
    empty(x->first_night - x->first_turn);
    place("GD/LEE", "W0301", BAR_FM_LINE, 90);
    place("Patt/GD", "W0201", BAR_FM_LINE, 90);
    s->side = BAR_AMERICAN;
    force(1, 35);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"GD\"}"), 0);
    CHECK(!listed_exit(patt, 2));
    /* G: reorganized in a Night or Moonlit Army Morale Check Phase */
    int t0 = -1;
    for (int k = x->first_night; k <= x->last_turn && t0 < 0; k++)
        if (k % 3 == 2 && (bar_light_of(k) == BAR_NIGHT || bar_light_of(k) == BAR_MOONLIT))
            t0 = k;
    CHECK(t0 >= 0);
    empty(t0 - x->first_turn);
    s->pc[patt].flags = BF_ON;
    s->pc[patt].more = BM_EXITED;
    s->pc[patt].sp = (int8_t)(x->p[patt].sp - 2);
    s->pc[patt].status = BS_ROUTED | BS_SHAKEN;
    s->loss[0] = 2;
    s->sp_lost[0] = 2;
    s->acted[0] = s->acted[1] = ~0ull;
    s->phase = BP_CC;
    s->org = (int16_t)gd;
    force(1, 2);   /* 2 <= 2 losses: an SP back */
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    const mk_event *e = find_ev("reorganized", NULL);
    CHECK(e && e->unit == patt && e->passed == 1);
    CHECK_EQ(s->pc[patt].sp, x->p[patt].sp - 1);
    CHECK_EQ(s->pc[patt].status, 0);
    CHECK_EQ(s->loss[0], 1);
    CHECK_EQ(s->sp_lost[0], 1);
    CHECK_EQ(s->pc[patt].back, 1);
    /* once a game */
    s->turn = (int16_t)t0;
    s->acted[0] = s->acted[1] = ~0ull;
    s->phase = BP_CC;
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    CHECK(find_ev("reorganized", NULL) == NULL);
    /* a die above the losses: no SP */
    empty(t0 - x->first_turn);
    s->pc[patt].flags = BF_ON;
    s->pc[patt].more = BM_EXITED;
    s->pc[patt].sp = (int8_t)(x->p[patt].sp - 1);
    s->loss[0] = 1;
    s->acted[0] = s->acted[1] = ~0ull;
    s->phase = BP_CC;
    force(1, 2);
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    e = find_ev("reorganized", NULL);
    CHECK(e && e->passed == 0);
    CHECK_EQ(s->pc[patt].sp, x->p[patt].sp - 1);
    /* H: back at W0201 from 5:00 AM 29 June, in Good Order, under von Steuben */
    int h5 = bar_turn_of(29, 5, 0), gw = x->pc_gw, ste = pid("STE/GW");
    for (int back = 0; back < 2; back++) {
        empty(h5 - x->first_turn - (back ? 0 : 1));
        s->pc[patt].flags = BF_ON;
        s->pc[patt].more = BM_EXITED;
        s->pc[patt].status = BS_DISORDERED;
        s->lee_relieved = true;
        s->army[0] = (int16_t)gw;
        place(sc->units[gw].id, "W0805", BAR_FM_LINE, 90);
        place("GD/LEE", "W0301", BAR_FM_LINE, 90);
        CHECK_EQ(bar_org_can_activate(s, sc, BAR_AMERICAN, gd), back == 1);
        if (!back)
            continue;
        s->side = BAR_AMERICAN;
        force(1, 35);
        CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"GD\"}"), 0);
        CHECK_EQ(act("{\"type\":\"enter\",\"unit\":\"Patt/GD\",\"path\":[\"W0201\"]}"), 0);
        CHECK_EQ(s->pc[patt].hex, hx("W0201"));
        CHECK_EQ(s->pc[patt].status, 0);
        CHECK(!(s->pc[patt].more & BM_EXITED));
        CHECK(s->ac_ste >> gd & 1);
    }
    /* the LOC through von Steuben: Grayson out of Washington's range, in von Steuben's */
    int wr = bar_leader_values_of(s, sc, gw).range, sr = bar_leader_values_of(s, sc, ste).range;
    mk_hex gh = hx("W0805");
    mk_hex sh = gh, lh;
    for (int k = 0; k < wr; k++)
        sh = mk_hex_neighbor(&sc->map.grid, sh, 2);   /* south */
    lh = sh;
    for (int k = 0; k < sr; k++)
        lh = mk_hex_neighbor(&sc->map.grid, lh, 2);
    CHECK(sh != MK_NO_HEX && lh != MK_NO_HEX);
    CHECK(mk_hex_distance(&sc->map.grid, gh, lh) > wr);
    empty(h5 - x->first_turn);
    s->lee_relieved = true;
    s->army[0] = (int16_t)gw;
    place(sc->units[gw].id, "W0805", BAR_FM_LINE, 90);
    place_at("STE/GW", sh, 90);
    place_at("GD/LEE", lh, 90);
    place_at("Patt/GD", lh, 90);
    s->side = BAR_AMERICAN;
    force(1, 99);   /* a roll would fail */
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"GD\"}"), 0);
    CHECK_EQ(s->in_command, 0);   /* not yet his Wing */
    empty(h5 - x->first_turn);
    s->lee_relieved = true;
    s->army[0] = (int16_t)gw;
    s->ac_ste = 1ull << gd;
    place(sc->units[gw].id, "W0805", BAR_FM_LINE, 90);
    place_at("STE/GW", sh, 90);
    place_at("GD/LEE", lh, 90);
    place_at("Patt/GD", lh, 90);
    s->side = BAR_AMERICAN;
    force(1, 99);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"GD\"}"), 0);
    CHECK_EQ(s->in_command, 1);
    e = find_ev("in_command", NULL);
    CHECK(e && e->other == ste);
    back_to_scenario_1();
}

static bool listed_detach(int w)
{
    mk_action list[MK_MAX_ACTIONS];
    int n = sc->rs->legal(s, sc, list, MK_MAX_ACTIONS);
    for (int i = 0; i < n; i++)
        if (list[i].type == BA_DETACH && list[i].unit == w)
            return true;
    return false;
}

/* 7.4a H: once every unit of Wayne's Division has left with the Advanced
 * Corps (or come back under von Steuben), Wayne is a Special Leader
 * without special abilities: no longer a possible Detachment Leader (3.3). */
static void test_7_4a_h_wayne_without_division(void)
{
    if (!use_scenario("4-general-engagement"))
        return;
    int way = pid("WAY/LEE"), gw = x->pc_gw;
    for (int left = 0; left < 3; left++) {
        empty(9);
        s->lee_relieved = true;
        s->army[0] = (int16_t)gw;
        place(sc->units[gw].id, "W0805", BAR_FM_LINE, 90);
        place("WAY/LEE", "E3020", BAR_FM_LINE, 90);
        place("Patt/GD", "E3020", BAR_FM_LINE, 90);
        s->side = BAR_AMERICAN;
        int n = 0;
        for (int i = 0; i < s->npieces; i++)
            if (!bar_is_leader(&x->p[i]) && x->p[i].unit >= 0 && x->oob.unit[x->p[i].unit].wing == x->p[way].org) {
                n++;
                if (left == 1 || (left == 2 && i != pid("Patt/GD")))
                    s->pc[i].more |= BM_EXITED;
            }
        CHECK(n >= 2);
        if (left == 1)
            s->pc[pid("Patt/GD")].hex = MK_NO_HEX;
        CHECK_EQ(listed_detach(way), left != 1);
    }
    back_to_scenario_1();
}

/* 7.4a H: Butler's Picked Men leaving the map is no longer of Wayne's
 * Wing, so Scott's Command no longer traces its LOC through Wayne
 * (3.2b G iii). */
static void test_7_4a_h_butler_leaves_wayne(void)
{
    for (int left = 0; left < 2; left++) {
        empty(0);
        place("LEE/GW", "E1525", BAR_FM_LINE, 90);
        place("WAY/LEE", "E1526", BAR_FM_LINE, 90);
        place("SD/LEE", "E1528", BAR_FM_LINE, 90);
        place("Cpm/SD", "E1528", BAR_FM_LINE, 90);
        if (left)
            s->pc[pid("Bpm/SD")].more |= BM_EXITED;
        else
            place("Bpm/SD", "E1528", BAR_FM_LINE, 90);
        s->side = BAR_AMERICAN;
        force(2, 9, 99);   /* Lee's die 9: his range 1 hex (ii); Scott's roll would fail */
        CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"SD\"}"), 0);
        CHECK(find_ev("roll", "lee_command_range") != NULL);
        CHECK_EQ(s->in_command, !left);
        CHECK_EQ(find_ev("roll", "initiative") != NULL, left);
    }
}

/* 7.1a C: a whole game with the variant's pieces, random legal choices:
 * every listed action is accepted and the game ends. */
static void test_7_1a_c_variant_plays(void)
{
    static mk_action list[MK_MAX_ACTIONS];
    memset(s, 0, sizeof *s);
    mk_events_init(&ev, evs, 512);
    CHECK_EQ(sc->rs->init(s, sc, BO_MORGAN, 11, &ev, NULL), 0);
    mk_rng pick;
    mk_rng_seed(&pick, 5);
    long steps = 0;
    int refused = 0;
    while (!sc->rs->over(s) && steps < 200000 && !refused) {
        int n = sc->rs->legal(s, sc, list, MK_MAX_ACTIONS);
        if (n <= 0) {
            refused++;   /* no legal action, not over */
            break;
        }
        mk_error err = {0};
        mk_events_init(&ev, evs, 512);
        refused += sc->rs->apply(s, sc, &list[mk_rng_below(&pick, (uint32_t)n)], &ev, &err) != 0;
        steps++;
    }
    CHECK_EQ(refused, 0);
    CHECK(sc->rs->over(s));
}

/* Every listed action prints and parses back to itself. */
static int round_trips(void)
{
    static mk_action list[MK_MAX_ACTIONS];
    int n = sc->rs->legal(s, sc, list, MK_MAX_ACTIONS), bad = 0;
    for (int i = 0; i < n; i++) {
        json_t *j = sc->rs->action_json(s, sc, &list[i]);
        mk_action back;
        mk_error err = {0};
        if (sc->rs->action_parse(s, sc, j, &back, &err) != 0 || !mk_action_equal(&back, &list[i]))
            bad++;
        json_decref(j);
    }
    return bad;
}

/* 6.2c-g, 7.4a G: the new choices in the protocol: the state's pending
 * decision, the deciding side, the actions' JSON both ways. */
static void test_6_2_protocol(void)
{
    two_commands(0);
    force(1, 2);   /* Confusion: the British pick */
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"GD\"}"), 0);
    json_t *o = sc->rs->state_json(s, sc);
    json_t *pd = json_object_get(o, "pending");
    CHECK_STR(json_string_value(json_object_get(pd, "decision")), "special_result");
    CHECK_STR(json_string_value(json_object_get(pd, "result")), "confusion");
    CHECK_STR(json_string_value(json_object_get(pd, "side")), "british");
    CHECK_STR(json_string_value(json_object_get(o, "to_move")), "british");
    json_decref(o);
    CHECK_EQ(round_trips(), 0);
    two_commands(0);
    force(1, 4);   /* Free Combat */
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"GD\"}"), 0);
    CHECK_EQ(round_trips(), 0);
    two_commands(0);
    s->marker = 1;
    force(1, 9);   /* Battle Tempo */
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"GD\"}"), 0);
    CHECK_EQ(round_trips(), 0);
    CHECK(act("{\"type\":\"special_result\",\"tempo\":\"sideways\"}") < 0);
    CHECK(act("{\"type\":\"special_result\",\"command\":\"GD\",\"close\":1}") < 0);
    if (!use_scenario("4-general-engagement"))
        return;
    empty(3);
    place("GD/LEE", "W0301", BAR_FM_LINE, 90);
    place("Patt/GD", "W0201", BAR_FM_LINE, 90);
    s->side = BAR_AMERICAN;
    force(1, 35);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"GD\"}"), 0);
    CHECK(listed_exit(pid("Patt/GD"), 2));
    CHECK_EQ(round_trips(), 0);
    back_to_scenario_1();
}

int main(void)
{
    if (!bar_fixture_load())
        return check_done("test_bar_command");
    CHECK(sizeof(bar_state) <= 4096);
    test_6_2a_army_morale();
    test_6_2b_leader_lapse();
    test_6_2c_confusion();
    test_6_2d_free_combat();
    test_6_2e_special_rally();
    test_6_2f_leader_initiative();
    test_6_2g_battle_tempo();
    test_6_2_markers_removed();
    test_6_2_protocol();
    test_2_8e_heat_no_mp();
    test_4_2a_c_wing_succession();
    test_3_2a_c_wing_succession();
    test_7_4a_i_loyalist_initiative();
    test_7_1a_c_morgan_variant();
    test_7_1a_c_variant_plays();
    test_7_4a_gh_advanced_corps();
    test_7_4a_h_wayne_without_division();
    test_7_4a_h_butler_leaves_wayne();
    mk_scenario_free(sc);
    return check_done("test_bar_command");
}
