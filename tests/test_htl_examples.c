/* test_htl_examples.c - Hold the Line: the rulebook's worked examples that
 * tests/test_htl_rules.c does not already cover (8.2.3, 9.1.2, 7.2, the 4.3
 * dragoon example, 11.6 Washington's five dice), and hard cases: retreats
 * blocked by swamp and by enemy units, a leader left alone and blocked, a
 * lone leader as a target, elite absorption at 1 MP in close combat, the
 * command AP floor of 0 (9.3.2). Each with forced dice and named by its
 * section. The harness is tests/htl_fixture.h. */
#include "htl_fixture.h"


#define OPT(n) (1ull << ((n) - 1))

/* HtL 8.2.3 example: a 4 MP infantry reduced to 2 MP still rolls 3 dice;
 * against forest the 4 MP infantry rolls 3 dice, its hit numbers shifted. */
static void test_8_2_3_example(void)
{
    T *t = start("", UNITR("A-4-1", AM, "regular", 2, 4, "E5") "," UNIT("B-4-1", BR, "regular", 4,
                     "E4"),
                 AM, 4, 4);
    force(t, 3, 5, 5, 6);
    CHECK_EQ(act(t, fire(t, "A-4-1", "E4")), 0);
    const mk_event *e = ev_find(t, "roll", "fire", 0);
    CHECK(e && e->nvalues == 3 && e->hits == 3);
    CHECK_EQ(t->s.u[U(t, "B-4-1")].mp, 1);
    done(t);
    t = start("\"E4\":\"forest\"",
              UNIT("A-4-1", AM, "regular", 4, "E5") "," UNIT("B-4-1", BR, "regular", 4, "E4"), AM, 4,
              4);
    force(t, 3, 5, 5, 6); /* 4, 4, 5 against 5-6: one hit */
    CHECK_EQ(act(t, fire(t, "A-4-1", "E4")), 0);
    e = ev_find(t, "roll", "fire", 0);
    CHECK(e && e->nvalues == 3 && e->hits == 1);
    CHECK_EQ(t->s.u[U(t, "B-4-1")].mp, 3);
    done(t);
}

/* HtL 9.1.2 example: a leader starts the turn with a 4 MP infantry; 1 AP
 * moves both 1 hex, 1 more AP the extra hex (2 AP in all, one action here:
 * the cost comes from the path). Not with dragoons that move and fire. */
static void test_9_1_2_example(void)
{
    T *t = start("", UNIT("A-4-1", AM, "regular", 4, "E3") "," UNIT("A-L-1", AM, "leader", 0, "E3")
                     "," UNIT("A-DR-1", AM, "dragoon", 2, "H3") "," UNIT("A-L-2", AM, "leader", 0,
                     "H3") "," UNIT("B-4-1", BR, "regular", 4, "H8"),
                 AM, 4, 4);
    int cost = 0;
    mk_action one = move(t, "A-4-1", "A-L-1", 1, "E4");
    mk_action two = move(t, "A-4-1", "A-L-1", 2, "E4", "E5");
    mk_action three = move(t, "A-4-1", "A-L-1", 3, "E4", "E5", "E6");
    CHECK(listed(t, &one, &cost) && cost == 1);
    CHECK(listed(t, &two, &cost) && cost == 2);
    CHECK(!listed(t, &three, NULL)); /* "the only case ... a unit can exceed its movement value" */
    CHECK_EQ(act(t, two), 0);
    CHECK_EQ(t->s.ap, 8);
    CHECK_EQ(t->s.u[U(t, "A-4-1")].hex, H(t, "E5"));
    CHECK_EQ(t->s.u[U(t, "A-L-1")].hex, H(t, "E5"));
    /* a dragoon with its leader: 4 hexes for 2 AP, but then no fire */
    mk_action d = move(t, "A-DR-1", "A-L-2", 4, "H4", "H5", "H6", "H7");
    CHECK(listed_dest(t, U(t, "A-DR-1"), H(t, "H7"), &cost) && cost == 2);
    CHECK_EQ(act(t, d), 0);
    CHECK_EQ(t->s.ap, 6);
    mk_action f = fire(t, "A-DR-1", "H8");
    CHECK(!listed(t, &f, NULL));
    CHECK(act(t, f) != 0);
    done(t);
    /* the same dragoon and leader moving 3 hexes (no bonus, 1 AP) may fire */
    t = start("", UNIT("A-DR-1", AM, "dragoon", 2, "H4") "," UNIT("A-L-2", AM, "leader", 0, "H4") ","
                  UNIT("B-4-1", BR, "regular", 4, "H8"),
              AM, 4, 4);
    CHECK(listed_dest(t, U(t, "A-DR-1"), H(t, "H7"), &cost) && cost == 1);
    CHECK_EQ(act(t, move(t, "A-DR-1", "A-L-2", 3, "H5", "H6", "H7")), 0);
    f = fire(t, "A-DR-1", "H8");
    CHECK(listed(t, &f, &cost) && cost == 1);
    force(t, 3, 1, 1, 2);
    CHECK_EQ(act(t, f), 0);
    CHECK_EQ(t->s.ap, 8);
    done(t);
}

/* HtL 7.2 example: an infantry and an artillery together, next to a
 * friendly infantry: neither infantry may move into or through the other,
 * nor swap; the artillery may join the other infantry. */
static void test_7_2_example(void)
{
    T *t = start("", UNIT("A-4-1", AM, "regular", 4, "E5") "," UNIT("A-ART-1", AM, "artillery", 2,
                     "E5") "," UNIT("A-3LT-1", AM, "light", 3, "F5") ","
                     UNIT("B-4-1", BR, "regular", 4, "K1"),
                 AM, 4, 4);
    mk_action a = move(t, "A-4-1", NULL, 1, "F5");
    CHECK(!listed(t, &a, NULL));
    CHECK(act(t, a) != 0);
    mk_action b = move(t, "A-3LT-1", NULL, 1, "E5");
    CHECK(!listed(t, &b, NULL));
    CHECK(act(t, b) != 0);
    mk_action c = move(t, "A-3LT-1", NULL, 2, "E5", "D5"); /* through */
    CHECK(!listed(t, &c, NULL));
    CHECK(act(t, c) != 0);
    mk_action d = move(t, "A-ART-1", NULL, 1, "F5");
    CHECK(listed(t, &d, NULL));
    CHECK_EQ(act(t, d), 0);
    CHECK_EQ(t->s.u[U(t, "A-ART-1")].hex, H(t, "F5"));
    done(t);
}

/* HtL 4.3 example: two dragoons never share a hex, nor a dragoon and an
 * infantry; either may be with an artillery and/or a leader; a hex holding
 * infantry, artillery and a leader takes no dragoon until the infantry
 * moves out. */
static void test_4_3_example(void)
{
    T *t = start("", UNIT("A-DR-1", AM, "dragoon", 2, "C5") "," UNIT("A-DR-2", AM, "dragoon", 2, "C7")
                     "," UNIT("A-4-1", AM, "regular", 4, "E5") "," UNIT("A-ART-1", AM, "artillery", 2,
                     "E5") "," UNIT("A-L-1", AM, "leader", 0, "E5") ","
                     UNIT("A-ART-2", AM, "artillery", 2, "G5") "," UNIT("A-L-2", AM, "leader", 0, "G5")
                     "," UNIT("B-4-1", BR, "regular", 4, "K1"),
                 AM, 9, 4);
    CHECK(act(t, move(t, "A-DR-2", NULL, 2, "C6", "C5")) != 0);      /* two dragoons */
    CHECK(act(t, move(t, "A-DR-1", NULL, 2, "D5", "E5")) != 0);      /* dragoon + infantry */
    CHECK_EQ(act(t, move(t, "A-DR-2", NULL, 1, "D7")), 0);
    CHECK_EQ(act(t, move(t, "A-4-1", NULL, 1, "E4")), 0);           /* the infantry moves out */
    CHECK_EQ(act(t, move(t, "A-DR-1", NULL, 2, "D5", "E5")), 0);     /* now the dragoon may enter */
    CHECK_EQ(t->s.u[U(t, "A-DR-1")].hex, H(t, "E5"));
    done(t);
    /* a dragoon joins an artillery with a leader */
    t = start("", UNIT("A-DR-1", AM, "dragoon", 2, "E5") "," UNIT("A-ART-1", AM, "artillery", 2, "G5")
                  "," UNIT("A-L-1", AM, "leader", 0, "G5") "," UNIT("B-4-1", BR, "regular", 4, "K1"),
              AM, 4, 4);
    CHECK_EQ(act(t, move(t, "A-DR-1", NULL, 2, "F5", "G5")), 0);
    done(t);
}

/* HtL 11.6 example: Washington (2/2) with the infantry that close combats:
 * 2 AP + 1 AP, 2 more dice: 5 dice. Each 1 rolled gives the attacking
 * leader a casualty check, and the defending leader one too. */
static void test_11_6_example(void)
{
    static char units[1024];
    snprintf(units, sizeof units, "%s,%s,%s,%s", UNIT("A-4-1", AM, "regular", 4, "E5"),
             UNIT("B-4-1", BR, "regular", 4, "E4"),
             "{\"id\":\"A-L-1\",\"side\":\"american\",\"kind\":\"leader\",\"name\":\"Washington\","
             "\"rating\":[2,2],\"hex\":\"E5\"}",
             "{\"id\":\"B-L-1\",\"side\":\"british\",\"kind\":\"leader\",\"name\":\"Rahl\","
             "\"rating\":[2,1],\"hex\":\"E4\"}");
    T *t = start("", units, AM, 4, 4);
    memset(&t->s, 0, sizeof t->s);
    CHECK_EQ(rs->init(&t->s, t->sc, OPT(6), 1, NULL, &t->err), 0);
    t->s.ap = 10;
    mk_action with = A(HA_CLOSE, U(t, "A-4-1"), U(t, "A-L-1"), H(t, "E4"));
    mk_action plain = cc(t, "A-4-1", "E4");
    int cost = 0;
    CHECK(listed(t, &plain, &cost) && cost == 2);
    CHECK(listed(t, &with, &cost) && cost == 3);
    /* morale 2 holds (4 + 1 leader); 5 dice 6 5 1 3 2: 2 hits, one 1;
     * Rahl checks first: 4, survives; Washington: 1: flipped to 1 hit */
    force(t, 8, 2, 6, 5, 1, 3, 2, 4, 1);
    CHECK_EQ(act(t, with), 0);
    CHECK_EQ(t->s.ap, 7);
    const mk_event *e = ev_find(t, "roll", "close_combat", 0);
    CHECK(e && e->nvalues == 5 && e->hits == 2);
    const mk_event *l1 = ev_find(t, "roll", "leader_casualty", 0),
                   *l2 = ev_find(t, "roll", "leader_casualty", 1);
    CHECK(l1 && l2 && l1->nvalues == 1 && l2->nvalues == 1);
    CHECK(l1 && l1->values[0] == 4 && l2 && l2->values[0] == 1);
    CHECK_EQ(t->s.u[U(t, "B-4-1")].mp, 2);
    CHECK_EQ(t->s.u[U(t, "B-L-1")].hex, H(t, "E4"));
    CHECK_EQ(t->s.u[U(t, "A-L-1")].mp, 1);
    CHECK_EQ(t->s.u[U(t, "A-L-1")].hex, H(t, "E5"));
    CHECK_EQ(mk_rng_forced_left(&t->s.head.rng), 0);
    /* Washington has acted with the unit */
    CHECK(t->s.u[U(t, "A-L-1")].flags & HU_ACTED);
    done(t);
}

/* HtL 8.5.2 hard cases: the only hexes towards home are swamp, or hold
 * enemy units: no retreat: eliminated, 1 VP (AMB-HTL-19). */
static void test_8_5_2_blocked(void)
{
    T *t = start("\"D6\":\"swamp\",\"E6\":\"swamp\"",
                 UNIT("B-4-1", BR, "regular", 4, "E4") "," UNIT("A-4-1", AM, "regular", 4, "E5"), BR,
                 4, 4);
    force(t, 4, 6, 2, 2, 2); /* morale 6 fails; the attack misses */
    CHECK_EQ(act(t, cc(t, "B-4-1", "E5")), 0);
    CHECK_EQ(ev_count(t, "morale"), 1);
    CHECK_EQ(t->s.u[U(t, "A-4-1")].hex, -1);
    CHECK_EQ(t->s.vp[1], 1);
    CHECK_EQ(t->s.cb.pending, HP_ADVANCE);
    CHECK_EQ(act(t, choose_word(HC_ADVANCE)), 0);
    CHECK_EQ(t->s.u[U(t, "B-4-1")].hex, H(t, "E5"));
    done(t);
    /* enemy units in both hexes */
    t = start("", UNIT("B-4-1", BR, "regular", 4, "E4") "," UNIT("A-4-1", AM, "regular", 4, "E5") ","
                  UNIT("B-4-2", BR, "regular", 4, "D6") "," UNIT("B-ART-1", BR, "artillery", 2, "E6"),
              BR, 4, 4);
    force(t, 4, 6, 2, 2, 2);
    CHECK_EQ(act(t, cc(t, "B-4-1", "E5")), 0);
    CHECK_EQ(t->s.u[U(t, "A-4-1")].hex, -1);
    CHECK_EQ(t->s.vp[1], 1);
    done(t);
    /* an enemy leader alone does not block (7.2.1): the retreat enters its
     * hex and eliminates it (7.3) */
    t = start("\"D6\":\"swamp\"", UNIT("B-4-1", BR, "regular", 4, "E4") "," UNIT("A-4-1", AM,
                  "regular", 4, "E5") "," UNIT("B-L-1", BR, "leader", 0, "E6"),
              BR, 4, 4);
    force(t, 4, 6, 2, 2, 2);
    CHECK_EQ(act(t, cc(t, "B-4-1", "E5")), 0);
    CHECK_EQ(t->s.u[U(t, "A-4-1")].hex, H(t, "E6"));
    CHECK_EQ(t->s.u[U(t, "B-L-1")].hex, -1);
    CHECK_EQ(t->s.vp[0], 1);
    CHECK_EQ(t->s.leaders_lost[1], 1);
    done(t);
}

/* HtL 8.5.5 hard case: a leader whose unit is eliminated, with enemy units
 * and swamp all round: he cannot escape and is eliminated; his side loses
 * 1 command AP (9.3.2). */
static void test_8_5_5_leader_trapped(void)
{
    T *t = start("\"D6\":\"swamp\",\"E6\":\"swamp\"",
                 UNIT("B-4-1", BR, "regular", 4, "E4") "," UNIT("B-4-2", BR, "regular", 4, "D4") ","
                 UNIT("B-4-3", BR, "regular", 4, "D5") "," UNIT("B-4-4", BR, "regular", 4, "F5") ","
                 UNIT("A-4-1", AM, "regular", 4, "E5") "," UNIT("A-L-1", AM, "leader", 0, "E5"),
                 BR, 4, 4);
    force(t, 4, 6, 2, 2, 2); /* 6 fails even with the leader */
    CHECK_EQ(act(t, cc(t, "B-4-1", "E5")), 0);
    CHECK_EQ(t->s.u[U(t, "A-4-1")].hex, -1);
    CHECK_EQ(t->s.u[U(t, "A-L-1")].hex, -1);
    CHECK_EQ(t->s.leaders_lost[0], 1);
    CHECK_EQ(t->s.vp[1], 2);
    done(t);
    /* with one way out, he escapes (the owner picks the hex) */
    t = start("\"D6\":\"swamp\",\"E6\":\"swamp\"",
              UNIT("B-4-1", BR, "regular", 4, "E4") "," UNIT("B-4-2", BR, "regular", 4, "D4") ","
              UNIT("B-4-3", BR, "regular", 4, "D5") "," UNIT("A-4-1", AM, "regular", 4, "E5") ","
              UNIT("A-L-1", AM, "leader", 0, "E5"),
              BR, 4, 4);
    force(t, 4, 6, 2, 2, 2);
    CHECK_EQ(act(t, cc(t, "B-4-1", "E5")), 0);
    CHECK_EQ(t->s.u[U(t, "A-4-1")].hex, -1);
    CHECK_EQ(t->s.cb.pending, HP_ESCAPE);
    CHECK_EQ(t->s.to_move, 0);
    CHECK_EQ(act(t, choose_hex(t, "F5")), 0);
    CHECK_EQ(t->s.u[U(t, "A-L-1")].hex, H(t, "F5"));
    CHECK_EQ(t->s.leaders_lost[0], 0);
    done(t);
}

/* A leader alone in a hex: not a target for fire (8.2: fire needs an enemy
 * combat unit), and an enemy unit moving in eliminates him (7.3). */
static void test_leader_alone(void)
{
    T *t = start("", UNIT("A-ART-1", AM, "artillery", 2, "E5") "," UNIT("A-3LT-1", AM, "light", 3,
                     "G5") "," UNIT("B-L-1", BR, "leader", 0, "E4") ","
                     UNIT("B-4-1", BR, "regular", 4, "K1"),
                 AM, 4, 4);
    mk_action f = fire(t, "A-ART-1", "E4");
    CHECK(!listed(t, &f, NULL));
    CHECK(act(t, f) != 0);
    mk_action c = cc(t, "A-3LT-1", "E4");
    CHECK(!listed(t, &c, NULL));
    CHECK_EQ(act(t, move(t, "A-3LT-1", NULL, 2, "F4", "E4")), 0);
    CHECK_EQ(t->s.u[U(t, "B-L-1")].hex, -1);
    CHECK_EQ(t->s.leaders_lost[1], 1);
    CHECK_EQ(t->s.vp[0], 1);
    done(t);
}

/* HtL 3.4.2 in close combat: an elite at 1 MP rolls for each hit, 1-3
 * stays. Its morale gets +1 (8.4.5): 1 MP + 1 = 2 holds on a 2. */
static void test_3_4_2_elite_close_combat(void)
{
    T *t = start("", UNIT("A-4-1", AM, "regular", 4, "E5") "," UNITR("B-4E-1", BR, "elite", 1, 4,
                     "E4"),
                 AM, 4, 4);
    force(t, 6, 2, 4, 5, 1, 3, 1); /* morale 2 holds; 2 hits; absorb 3 and 1: stays */
    CHECK_EQ(act(t, cc(t, "A-4-1", "E4")), 0);
    const mk_event *m = ev_find(t, "morale", NULL, 0);
    CHECK(m && m->passed == 1);
    CHECK_EQ(t->s.u[U(t, "B-4E-1")].hex, H(t, "E4"));
    CHECK_EQ(t->s.u[U(t, "B-4E-1")].mp, 1);
    CHECK_EQ(mk_rng_forced_left(&t->s.head.rng), 0);
    done(t);
}

/* HtL 9.3.2: command AP never below 0: 2 command AP and 3 leaders lost:
 * the AP are the die alone. */
static void test_9_3_2_ap_floor(void)
{
    T *t = start("", UNIT("A-4-1", AM, "regular", 4, "E5") "," UNIT("B-4-1", BR, "regular", 4, "E2"),
                 AM, 2, 4);
    t->s.leaders_lost[0] = 3;
    force(t, 1, 2);
    htl_turn_begin(&t->s, t->sc, 0, &t->ev);
    CHECK_EQ(t->s.ap, 2);
    const mk_event *e = ev_find(t, "roll", "action_points", 0);
    CHECK(e && e->die == 3 && e->points == 2);
    /* exactly as many lost as command AP: 0 + 1 */
    t->s.leaders_lost[0] = 2;
    force(t, 1, 1);
    htl_turn_begin(&t->s, t->sc, 0, &t->ev);
    CHECK_EQ(t->s.ap, 1);
    done(t);
}

int main(void)
{
    test_8_2_3_example();
    test_9_1_2_example();
    test_7_2_example();
    test_4_3_example();
    test_11_6_example();
    test_8_5_2_blocked();
    test_8_5_5_leader_trapped();
    test_leader_alone();
    test_3_4_2_elite_close_combat();
    test_9_3_2_ap_floor();
    return check_done("test_htl_examples");
}
