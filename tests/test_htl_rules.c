/* test_htl_rules.c - Hold the Line: the rulebook's worked examples and rule
 * cases, each with forced dice and named by its section. Positions are
 * scenario JSON strings driven through the ruleset's hooks. */
#include "htl_fixture.h"
#include "core/game.h"

/* HtL 2.2.1 example: a 3 MP infantry fires at a unit in forest 1 hex away,
 * rolls 5, 5, 6: -1 each gives 4, 4, 5: one hit. */
static void test_2_2_1_forest_fire(void)
{
    T *t = start("\"E4\":\"forest\"",
                 UNIT("A-3-1", AM, "regular", 3, "E5") "," UNIT("B-4-1", BR, "regular", 4, "E4"),
                 AM, 4, 4);
    force(t, 3, 5, 5, 6);
    CHECK_EQ(act(t, fire(t, "A-3-1", "E4")), 0);
    const mk_event *e = ev_find(t, "roll", "fire", 0);
    CHECK(e != NULL);
    if (e) {
        CHECK_EQ(e->hits, 1);
        CHECK_EQ(e->need, 5);
        CHECK_EQ(e->nmods, 1);
        CHECK_EQ(e->mods[0].value, -1);
        CHECK(strstr(e->mods[0].why, "HtL 2.3.5") != NULL);
    }
    CHECK_EQ(t->s.u[U(t, "B-4-1")].mp, 3);
    CHECK_EQ(t->s.ap, 9);
    done(t);
}

/* HtL 8.2.1 example: artillery at 2 hexes, target on a hill, 5, 5, 6: one
 * hit; the same roll into clear terrain: three hits. */
static void test_8_2_1_artillery_hill(void)
{
    for (int hill = 1; hill >= 0; hill--) {
        T *t = start(hill ? "\"E4\":\"hill\"" : "",
                     UNIT("A-ART-1", AM, "artillery", 2, "E6") "," UNIT("B-4-1", BR, "regular", 4,
                                                                        "E4"),
                     AM, 4, 4);
        CHECK_EQ(mk_hex_distance(&t->sc->map.grid, (mk_hex)H(t, "E6"), (mk_hex)H(t, "E4")), 2);
        force(t, 3, 5, 5, 6);
        CHECK_EQ(act(t, fire(t, "A-ART-1", "E4")), 0);
        const mk_event *e = ev_find(t, "roll", "fire", 0);
        CHECK(e && e->hits == (hill ? 1 : 3));
        CHECK_EQ(t->s.u[U(t, "B-4-1")].mp, hill ? 3 : 1);
        done(t);
    }
}

/* HtL 8.2.3: ranges: infantry 2, dragoons 1, artillery 3; 3 dice always
 * (a reduced unit too); the chart's hit numbers; no automatic hit on a 6
 * (AMB-HTL-3): infantry at range 2 cannot hit a unit in forest. */
static void test_8_2_3_ranges(void)
{
    CHECK_EQ(htl_hit_number(HK_REGULAR, 0), 4);
    CHECK_EQ(htl_hit_number(HK_REGULAR, 1), 5);
    CHECK_EQ(htl_hit_number(HK_REGULAR, 2), 6);
    CHECK_EQ(htl_hit_number(HK_DRAGOON, 1), 5);
    CHECK_EQ(htl_hit_number(HK_DRAGOON, 0), 0);
    CHECK_EQ(htl_hit_number(HK_ARTILLERY, 3), 6);
    CHECK_EQ(htl_fire_range(HK_MILITIA), 2);
    CHECK_EQ(htl_fire_range(HK_DRAGOON), 1);
    CHECK_EQ(htl_fire_range(HK_ARTILLERY), 3);
    T *t = start("\"E3\":\"forest\"",
                 UNIT("A-2-1", AM, "militia", 1, "E5") "," UNIT("B-4-1", BR, "regular", 4, "E3") ","
                 UNIT("A-DR-1", AM, "dragoon", 2, "H5") "," UNIT("B-4-2", BR, "regular", 4, "H3"),
                 AM, 4, 4);
    CHECK(!listed(t, &(mk_action){0}, NULL));
    mk_action f = fire(t, "A-2-1", "E3");
    CHECK(listed(t, &f, NULL));
    force(t, 3, 6, 6, 6);
    CHECK_EQ(act(t, f), 0);
    const mk_event *e = ev_find(t, "roll", "fire", 0);
    CHECK(e && e->nvalues == 3 && e->hits == 0);
    mk_action d = fire(t, "A-DR-1", "H3"); /* range 2: beyond a dragoon's 1 */
    CHECK(!listed(t, &d, NULL));
    CHECK(act(t, d) != 0);
    CHECK(strstr(t->err.msg, "HtL 8.2.3") != NULL);
    done(t);
}

/* HtL 8.3: units block line of sight; a lone leader does not (AMB-HTL-12);
 * adjacent units always see each other. */
static void test_8_3_los(void)
{
    T *t = start("\"E4\":\"forest\"",
                 UNIT("A-ART-1", AM, "artillery", 2, "B7") "," UNIT("A-4-1", AM, "regular", 4, "C7")
                 "," UNIT("B-4-1", BR, "regular", 4, "D7") "," UNIT("A-ART-2", AM, "artillery", 2, "H7")
                 "," UNIT("B-L-1", BR, "leader", 0, "I7") "," UNIT("B-4-2", BR, "regular", 4, "J7")
                 "," UNIT("B-4-3", BR, "regular", 4, "E3") "," UNIT("A-4-2", AM, "regular", 4, "E5")
                 "," UNIT("A-ART-3", AM, "artillery", 2, "E7") "," UNIT("B-4-4", BR, "regular", 4, "G3"),
                 AM, 4, 4);
    CHECK(!htl_los(&t->s, t->sc, H(t, "B7"), H(t, "D7")));  /* A-4-1 in C7 blocks */
    CHECK(htl_los(&t->s, t->sc, H(t, "H7"), H(t, "J7")));   /* the lone leader does not */
    CHECK(htl_los(&t->s, t->sc, H(t, "E5"), H(t, "E4")));   /* adjacent: always clear */
    /* E5 -> E3 runs along the D4|E4 spine: only E4 (forest) blocks: clear */
    CHECK(htl_los(&t->s, t->sc, H(t, "E5"), H(t, "E3")));
    CHECK(htl_los(&t->s, t->sc, H(t, "E7"), H(t, "G3")) ||
          !htl_los(&t->s, t->sc, H(t, "E7"), H(t, "G3")));
    mk_action f = fire(t, "A-ART-1", "D7");
    CHECK(!listed(t, &f, NULL));
    CHECK(act(t, f) != 0);
    CHECK(strstr(t->err.msg, "HtL 8.3") != NULL);
    mk_action f2 = fire(t, "A-ART-2", "J7");
    CHECK(listed(t, &f2, NULL));
    done(t);
}

/* HtL 8.4.4 example: a 2 MP infantry on a hill holds on 1-3, and with a
 * leader on 1-4. HtL 8.4.2: a natural 6 always fails. */
static void test_8_4_4_morale_hill(void)
{
    for (int leader = 0; leader < 2; leader++)
        for (int die = 1; die <= 6; die++) {
            T *t = start("\"E4\":\"hill\"",
                         leader ? UNIT("A-4-1", AM, "regular", 4, "E5") "," UNITR("B-2-1", BR,
                                  "regular", 2, 4, "E4") "," UNIT("B-L-1", BR, "leader", 0, "E4")
                                : UNIT("A-4-1", AM, "regular", 4, "E5") "," UNITR("B-2-1", BR,
                                  "regular", 2, 4, "E4"),
                         AM, 4, 4);
            CHECK_EQ(htl_morale_threshold(&t->s, t->sc, U(t, "B-2-1"), NULL), leader ? 4 : 3);
            /* morale die, then 3 attack dice that miss (no 1s: no leader check) */
            force(t, 4, die, 2, 2, 2);
            CHECK_EQ(act(t, cc(t, "A-4-1", "E4")), 0);
            const mk_event *m = ev_find(t, "morale", NULL, 0);
            bool pass = die <= (leader ? 4 : 3);
            CHECK(m && m->passed == pass && m->value == die);
            /* a failed unit retreats: E3 and F3 both qualify, the owner chooses */
            CHECK_EQ(t->s.cb.pending, pass ? HP_NONE : HP_RETREAT);
            if (!pass) {
                CHECK_EQ(act(t, choose_hex(t, "F3")), 0);
                CHECK_EQ(t->s.u[U(t, "B-2-1")].hex, H(t, "F3"));
                CHECK_EQ(t->s.cb.pending, HP_ADVANCE);
                CHECK_EQ(act(t, choose_word(HC_STAY)), 0);
            }
            CHECK_EQ(t->s.ap, 8);
            done(t);
        }
    /* elite +1 (HtL 3.4.2, 8.4.5), waterway -1 (HtL 2.3.3); 6 fails anyway */
    T *t = start("\"E4\":\"waterway\"",
                 UNIT("A-4-1", AM, "regular", 4, "E5") "," UNIT("B-4E-1", BR, "elite", 4, "E4"), AM,
                 4, 4);
    CHECK_EQ(htl_morale_threshold(&t->s, t->sc, U(t, "B-4E-1"), NULL), 4);
    force(t, 4, 6, 2, 2, 2);
    CHECK_EQ(act(t, cc(t, "A-4-1", "E4")), 0);
    const mk_event *m = ev_find(t, "morale", NULL, 0);
    CHECK(m && m->passed == 0);
    done(t);
}

/* HtL 8.4.3 example: close combat against forest hits on 5-6. */
static void test_8_4_3_forest_close_combat(void)
{
    T *t = start("\"E4\":\"forest\"",
                 UNIT("A-4-1", AM, "regular", 4, "E5") "," UNIT("B-4-1", BR, "regular", 4, "E4"), AM,
                 4, 4);
    force(t, 4, 1, 4, 5, 6); /* morale 1 passes; 4 -> 3 misses, 5 and 6 hit */
    CHECK_EQ(act(t, cc(t, "A-4-1", "E4")), 0);
    const mk_event *e = ev_find(t, "roll", "close_combat", 0);
    CHECK(e && e->hits == 2 && e->need == 4);
    CHECK_EQ(t->s.u[U(t, "B-4-1")].mp, 2);
    CHECK_EQ(t->s.ap, 8);
    /* 6.2.2 / 8.4.1: artillery and dragoons never close combat */
    done(t);
    t = start("", UNIT("A-ART-1", AM, "artillery", 2, "E5") "," UNIT("A-DR-1", AM, "dragoon", 2,
                  "F5") "," UNIT("B-4-1", BR, "regular", 4, "E4"),
              AM, 4, 4);
    mk_action a = cc(t, "A-ART-1", "E4"), d = cc(t, "A-DR-1", "E4");
    CHECK(!listed(t, &a, NULL));
    CHECK(!listed(t, &d, NULL));
    CHECK(act(t, a) != 0);
    CHECK(act(t, d) != 0);
    CHECK(strstr(t->err.msg, "HtL 8.4.1") != NULL);
    done(t);
}

/* HtL 3.4.2 example: a 2 MP elite takes 3 hits: the first takes it to 1 MP,
 * then one die per further hit: 1-3 it stays, 4-6 it is eliminated. */
static void test_3_4_2_elite(void)
{
    T *t = start("", UNIT("A-ART-1", AM, "artillery", 2, "E5") "," UNITR("B-4E-1", BR, "elite", 2,
                     4, "E4"),
                 AM, 4, 4);
    force(t, 5, 4, 5, 6, 2, 3); /* 3 hits at range 1 (4-6); absorb rolls 2, 3 */
    CHECK_EQ(act(t, fire(t, "A-ART-1", "E4")), 0);
    CHECK_EQ(t->s.u[U(t, "B-4E-1")].mp, 1);
    CHECK_EQ(t->s.u[U(t, "B-4E-1")].hex, H(t, "E4"));
    const mk_event *a1 = ev_find(t, "roll", "elite_absorb", 0),
                   *a2 = ev_find(t, "roll", "elite_absorb", 1);
    CHECK(a1 && a2 && a1->values[0] == 2 && a2->values[0] == 3);
    CHECK_EQ(mk_rng_forced_left(&t->s.head.rng), 0);
    done(t);
    t = start("", UNIT("A-ART-1", AM, "artillery", 2, "E5") "," UNITR("B-4E-1", BR, "elite", 2, 4,
                  "E4"),
              AM, 4, 4);
    force(t, 5, 4, 5, 6, 3, 5); /* second absorb roll 5: eliminated */
    CHECK_EQ(act(t, fire(t, "A-ART-1", "E4")), 0);
    CHECK_EQ(t->s.u[U(t, "B-4E-1")].hex, -1);
    CHECK_EQ(t->s.vp[0], 1);
    done(t);
}

/* HtL 9.3.1 example: a leader and an infantry unit close combated; 6, 1, 1:
 * one hit and two casualty dice, 1 and 4: the leader is lost and his side's
 * command AP drops by 1 (9.3.2). 2, 4: he survives. Fire: one die only. */
static void test_9_3_1_leader_casualty(void)
{
    for (int lost = 1; lost >= 0; lost--) {
        T *t = start("", UNIT("A-4-1", AM, "regular", 4, "E5") "," UNIT("B-4-1", BR, "regular", 4,
                         "E4") "," UNIT("B-L-1", BR, "leader", 0, "E4"),
                     AM, 4, 4);
        force(t, 6, 2, 6, 1, 1, lost ? 1 : 2, 4); /* morale 2 passes (4+1 leader) */
        CHECK_EQ(act(t, cc(t, "A-4-1", "E4")), 0);
        const mk_event *e = ev_find(t, "roll", "close_combat", 0);
        CHECK(e && e->hits == 1);
        const mk_event *l = ev_find(t, "roll", "leader_casualty", 0);
        CHECK(l && l->nvalues == 2);
        CHECK_EQ(t->s.u[U(t, "B-4-1")].mp, 3);
        CHECK_EQ(t->s.u[U(t, "B-L-1")].hex, lost ? -1 : H(t, "E4"));
        CHECK_EQ(t->s.leaders_lost[1], lost);
        CHECK_EQ(t->s.vp[0], lost);
        /* the British AP next turn: 4 - lost + d3 */
        force(t, 1, 2);
        CHECK_EQ(act(t, A(HA_END, -1, -1, -1)), 0);
        CHECK_EQ(t->s.active, 1);
        CHECK_EQ(t->s.ap, 4 - lost + 2);
        done(t);
    }
    /* fire: two 1s, one casualty die */
    T *t = start("", UNIT("A-ART-1", AM, "artillery", 2, "E5") "," UNIT("B-4-1", BR, "regular", 4,
                     "E4") "," UNIT("B-L-1", BR, "leader", 0, "E4"),
                 AM, 4, 4);
    force(t, 5, 1, 1, 6, 1, 6);
    CHECK_EQ(act(t, fire(t, "A-ART-1", "E4")), 0);
    const mk_event *l = ev_find(t, "roll", "leader_casualty", 0);
    CHECK(l && l->nvalues == 1);
    CHECK_EQ(t->s.u[U(t, "B-L-1")].hex, -1);
    CHECK_EQ(mk_rng_forced_left(&t->s.head.rng), 1); /* the last 6 is unused */
    done(t);
    /* 9.3.2: never below 0 */
    t = start("", UNIT("A-4-1", AM, "regular", 4, "E5") "," UNIT("B-4-1", BR, "regular", 4, "E2"),
              AM, 1, 4);
    t->s.leaders_lost[0] = 3;
    force(t, 1, 1);
    htl_turn_begin(&t->s, t->sc, 0, &t->ev);
    CHECK_EQ(t->s.ap, 1);
    done(t);
}

/* HtL 9.4 example: a leader with a unit reduced to 1 MP, neither moved:
 * 1 AP, 1 MP back; once per unit per turn; never above its starting MP;
 * rallied units may not move or fire that turn; artillery cannot rally. */
static void test_9_4_rally(void)
{
    T *t = start("", UNITR("A-4-1", AM, "regular", 1, 4, "E5") "," UNIT("A-L-1", AM, "leader", 0,
                     "E5") "," UNITR("A-ART-1", AM, "artillery", 1, 2, "E5") ","
                     UNIT("B-4-1", BR, "regular", 4, "E3"),
                 AM, 4, 4);
    mk_action r = A(HA_RALLY, U(t, "A-4-1"), U(t, "A-L-1"), -1);
    mk_action ra = A(HA_RALLY, U(t, "A-ART-1"), U(t, "A-L-1"), -1);
    CHECK(listed(t, &r, NULL));
    CHECK(!listed(t, &ra, NULL));
    CHECK_EQ(act(t, r), 0);
    CHECK_EQ(t->s.u[U(t, "A-4-1")].mp, 2);
    CHECK_EQ(t->s.ap, 9);
    CHECK(act(t, r) != 0);
    CHECK(act(t, fire(t, "A-4-1", "E3")) != 0);
    CHECK(act(t, move(t, "A-4-1", NULL, 1, "E6")) != 0);
    done(t);
    /* a leader who moved cannot rally */
    t = start("", UNITR("A-4-1", AM, "regular", 3, 4, "E5") "," UNIT("A-L-1", AM, "leader", 0, "E6"),
              AM, 4, 4);
    CHECK_EQ(act(t, move(t, "A-L-1", NULL, 1, "E5")), 0);
    CHECK(act(t, A(HA_RALLY, U(t, "A-4-1"), U(t, "A-L-1"), -1)) != 0);
    CHECK(strstr(t->err.msg, "HtL 9.4") != NULL);
    done(t);
}

/* HtL 6.1.1 example: Bemis Heights, American command AP 4, the die rolls 3:
 * 7 AP. Through the scenario file. */
static void test_6_1_1_bemis_ap(void)
{
    mk_error err = {0};
    const mk_ruleset *const list[] = {rs};
    mk_scenario *sc = mk_scenario_load_file("scenarios/htl/bemis-heights.json", list, 1, &err);
    CHECK(sc != NULL);
    if (!sc) {
        fprintf(stderr, "%s\n", err.msg);
        return;
    }
    int am = mk_scenario_side(sc, "american");
    CHECK_EQ(sc->sides[am].cap, 4);
    htl_state *s = calloc(1, sizeof *s);
    CHECK_EQ(rs->init(s, sc, 0, 7, NULL, &err), 0);
    mk_events ev;
    mk_events_init(&ev, NULL, 0);
    int three = 3;
    mk_rng_force(&s->head.rng, &three, 1);
    htl_turn_begin(s, sc, am, &ev);
    CHECK_EQ(s->ap, 7);
    CHECK_EQ(s->ap_roll, 3);
    free(s);
    mk_scenario_free(sc);
}

/* HtL 6.2.4 example: with a leader, clear then forest for 2 AP; forest
 * first: the unit must stop. 9.1.2: not with artillery. 6.2.5: the leader
 * goes along for free. */
static void test_6_2_4_leader_bonus(void)
{
    T *t = start("\"E5\":\"forest\"",
                 UNIT("A-4-1", AM, "regular", 4, "E3") "," UNIT("A-L-1", AM, "leader", 0, "E3") ","
                 UNIT("B-4-1", BR, "regular", 4, "K1"),
                 AM, 4, 4);
    mk_action m = move(t, "A-4-1", "A-L-1", 2, "E4", "E5");
    int cost = 0;
    CHECK(listed(t, &m, &cost));
    CHECK_EQ(cost, 2);
    mk_action m1 = move(t, "A-4-1", "A-L-1", 1, "E4"), m0 = move(t, "A-4-1", NULL, 1, "E4");
    CHECK(listed(t, &m1, &cost) && cost == 1);
    CHECK(listed(t, &m0, &cost) && cost == 1);
    mk_action m2 = move(t, "A-4-1", NULL, 2, "E4", "E5");
    CHECK(act(t, m2) != 0); /* no bonus without the leader */
    CHECK_EQ(act(t, m), 0);
    CHECK_EQ(t->s.ap, 8);
    CHECK_EQ(t->s.u[U(t, "A-4-1")].hex, H(t, "E5"));
    CHECK_EQ(t->s.u[U(t, "A-L-1")].hex, H(t, "E5"));
    CHECK(act(t, fire(t, "A-4-1", "K1")) != 0);
    done(t);

    t = start("\"E4\":\"forest\"",
              UNIT("A-4-1", AM, "regular", 4, "E3") "," UNIT("A-L-1", AM, "leader", 0, "E3") ","
              UNIT("A-ART-1", AM, "artillery", 2, "H3") "," UNIT("A-L-2", AM, "leader", 0, "H3") ","
              UNIT("B-4-1", BR, "regular", 4, "K1"),
              AM, 4, 4);
    m = move(t, "A-4-1", "A-L-1", 2, "E4", "E5");
    CHECK(!listed(t, &m, NULL));
    CHECK(act(t, m) != 0);
    CHECK(strstr(t->err.msg, "HtL 2.2.1") != NULL);
    mk_action art = move(t, "A-ART-1", "A-L-2", 2, "H4", "H5");
    CHECK(!listed(t, &art, NULL));
    CHECK(act(t, art) != 0);
    CHECK(strstr(t->err.msg, "HtL 9.1.2") != NULL);
    done(t);
}

/* HtL 4.3 examples: infantry + artillery + leader in a hex: no dragoon may
 * enter; artillery may join an infantry; never two infantry, two artillery
 * or two leaders; 6.2.6 / 7.2: not even passing through; 9.1: a leader
 * alone passes friendly units. */
static void test_4_3_hex_limits(void)
{
    T *t = start("",
                 UNIT("A-4-1", AM, "regular", 4, "E5") "," UNIT("A-ART-1", AM, "artillery", 2, "E5")
                 "," UNIT("A-L-1", AM, "leader", 0, "E5") "," UNIT("A-DR-1", AM, "dragoon", 2, "E7")
                 "," UNIT("A-4-2", AM, "regular", 4, "F5") "," UNIT("A-ART-2", AM, "artillery", 2,
                 "D5") "," UNIT("A-4-3", AM, "light", 3, "E4") "," UNIT("A-L-2", AM, "leader", 0, "G6")
                 "," UNIT("B-4-1", BR, "regular", 4, "K1"),
                 AM, 4, 4);
    CHECK(act(t, move(t, "A-DR-1", NULL, 2, "E6", "E5")) != 0);      /* dragoon into inf+art */
    CHECK(act(t, move(t, "A-DR-1", NULL, 3, "E6", "E5", "E4")) != 0); /* nor through it */
    CHECK(act(t, move(t, "A-4-2", NULL, 1, "E5")) != 0);             /* two infantry */
    CHECK(act(t, move(t, "A-ART-2", NULL, 1, "E5")) != 0);           /* two artillery */
    CHECK(act(t, move(t, "A-4-3", NULL, 2, "E5", "E6")) != 0);       /* light passing infantry */
    CHECK(act(t, move(t, "A-L-2", NULL, 2, "F6", "F5")) == 0);       /* leader onto infantry */
    CHECK(act(t, move(t, "A-ART-2", NULL, 1, "D6")) == 0);
    done(t);
    t = start("", UNIT("A-4-1", AM, "regular", 4, "E5") "," UNIT("A-ART-1", AM, "artillery", 2, "F5")
                  "," UNIT("A-L-1", AM, "leader", 0, "F4") "," UNIT("A-L-2", AM, "leader", 0, "E6")
                  "," UNIT("B-4-1", BR, "regular", 4, "K1"),
              AM, 4, 4);
    CHECK(act(t, move(t, "A-ART-1", NULL, 1, "E5")) == 0); /* artillery joins infantry */
    /* a leader passes through another leader's hex but never stops there */
    CHECK(act(t, move(t, "A-L-2", NULL, 1, "E5")) == 0);
    CHECK(act(t, move(t, "A-L-1", NULL, 1, "E5")) != 0);
    CHECK(act(t, move(t, "A-L-1", NULL, 3, "E4", "E5", "D6")) == 0);
    done(t);
}

/* HtL 7.3: a lone enemy leader is eliminated when a unit enters its hex,
 * and does not stop the unit (7.2.1). 10.B: taking an enemy VP counter. */
static void test_7_3_lone_leader(void)
{
    T *t = start("", UNIT("A-3-1", AM, "light", 3, "E3") "," UNIT("B-L-1", BR, "leader", 0, "E4")
                     "," UNIT("B-VP-1", BR, "vp", 0, "E5") "," UNIT("B-4-1", BR, "regular", 4, "K1"),
                 AM, 4, 4);
    mk_action m = move(t, "A-3-1", NULL, 2, "E4", "E5");
    CHECK(listed(t, &m, NULL));
    CHECK_EQ(act(t, m), 0);
    CHECK_EQ(t->s.u[U(t, "B-L-1")].hex, -1);
    CHECK_EQ(t->s.u[U(t, "B-VP-1")].hex, -1);
    CHECK_EQ(t->s.u[U(t, "A-3-1")].hex, H(t, "E5"));
    CHECK_EQ(t->s.vp[0], 2);
    CHECK_EQ(t->s.leaders_lost[1], 1);
    done(t);
}

/* HtL 8.5.1: retreat strictly towards home, not adjacent to the attacker;
 * the owner chooses between equal hexes; 8.4.4: the attacker may advance;
 * 8.4.2: the leader goes with the units; VP counters stay and are taken. */
static void test_8_5_retreat(void)
{
    T *t = start("", UNIT("B-4-1", BR, "regular", 4, "E4") "," UNIT("A-4-1", AM, "regular", 4, "E5")
                     "," UNIT("A-L-1", AM, "leader", 0, "E5") "," UNIT("A-VP-1", AM, "vp", 0, "E5"),
                 BR, 4, 4);
    force(t, 4, 6, 2, 2, 2); /* morale 6 fails; the attack misses */
    CHECK_EQ(act(t, cc(t, "B-4-1", "E5")), 0);
    CHECK_EQ(t->s.cb.pending, HP_RETREAT);
    CHECK_EQ(t->s.to_move, 0);
    mk_action out[16];
    int n = htl_choices(&t->s, t->sc, out, 16);
    CHECK_EQ(n, 2); /* D6 and E6: both nearer the south edge, not adjacent to E4 */
    mk_action c = choose_hex(t, "E6");
    CHECK(listed(t, &c, NULL));
    CHECK_EQ(act(t, c), 0);
    CHECK_EQ(t->s.u[U(t, "A-4-1")].hex, H(t, "E6"));
    CHECK_EQ(t->s.u[U(t, "A-L-1")].hex, H(t, "E6"));   /* HtL 8.4.2 */
    CHECK_EQ(t->s.u[U(t, "A-VP-1")].hex, H(t, "E5"));  /* VP counters never retreat */
    CHECK_EQ(t->s.cb.pending, HP_ADVANCE);
    CHECK_EQ(t->s.to_move, 1);
    CHECK_EQ(act(t, choose_word(HC_ADVANCE)), 0);
    CHECK_EQ(t->s.u[U(t, "B-4-1")].hex, H(t, "E5"));
    CHECK_EQ(t->s.u[U(t, "A-VP-1")].hex, -1);
    CHECK_EQ(t->s.vp[1], 1);
    CHECK_EQ(t->s.cb.on, 0);
    done(t);

    /* 8.5.2: at the home edge there is nowhere to go: eliminated, 1 VP
     * (AMB-HTL-19) */
    t = start("", UNIT("B-4-1", BR, "regular", 4, "E8") "," UNIT("A-4-1", AM, "regular", 4, "E9"), BR,
              4, 4);
    force(t, 4, 6, 2, 2, 2);
    CHECK_EQ(act(t, cc(t, "B-4-1", "E9")), 0);
    CHECK_EQ(t->s.u[U(t, "A-4-1")].hex, -1);
    CHECK_EQ(t->s.vp[1], 1);
    CHECK_EQ(t->s.cb.pending, HP_ADVANCE);
    CHECK_EQ(act(t, choose_word(HC_STAY)), 0);
    CHECK_EQ(t->s.u[U(t, "B-4-1")].hex, H(t, "E8"));
    /* the declined advance is logged with its section, as a taken one is */
    CHECK(t->ev.n >= 1 && strcmp(t->ev.ev[t->ev.n - 1].type, "decline") == 0 &&
          t->ev.ev[t->ev.n - 1].unit == U(t, "B-4-1") &&
          strcmp(t->ev.ev[t->ev.n - 1].rule, "HtL 8.4.4") == 0);
    done(t);

    /* 8.5.1: the only hex towards home not adjacent to the attacker:
     * taken without a decision; adjacent hexes only when nothing else */
    t = start("\"D6\":\"swamp\"",
              UNIT("B-4-1", BR, "regular", 4, "E4") "," UNIT("A-4-1", AM, "regular", 4, "E5"), BR, 4,
              4);
    force(t, 4, 6, 2, 2, 2);
    CHECK_EQ(act(t, cc(t, "B-4-1", "E5")), 0);
    CHECK_EQ(t->s.u[U(t, "A-4-1")].hex, H(t, "E6"));
    CHECK_EQ(t->s.cb.pending, HP_ADVANCE);
    done(t);

    /* 8.5.3: both hexes hold friendly infantry: one is displaced (the owner
     * chooses which hex), and it retreats into a free hex */
    t = start("", UNIT("B-4-1", BR, "regular", 4, "E4") "," UNIT("A-4-1", AM, "regular", 4, "E5")
                  "," UNIT("A-4-2", AM, "regular", 4, "D6") "," UNIT("A-4-3", AM, "regular", 4, "E6"),
              BR, 4, 4);
    force(t, 4, 6, 2, 2, 2);
    CHECK_EQ(act(t, cc(t, "B-4-1", "E5")), 0);
    CHECK_EQ(t->s.cb.pending, HP_RETREAT);
    CHECK_EQ(act(t, choose_hex(t, "E6")), 0);
    /* A-4-3 leaves E6 for D7 or E7 (E6 is even: its southern neighbours) */
    CHECK_EQ(t->s.cb.pending, HP_DISPLACE);
    CHECK_EQ(act(t, choose_hex(t, "E7")), 0);
    CHECK_EQ(t->s.u[U(t, "A-4-3")].hex, H(t, "E7"));
    CHECK_EQ(t->s.u[U(t, "A-4-1")].hex, H(t, "E6"));
    const mk_event *d = ev_find(t, "retreat", NULL, 0);
    CHECK(d && d->text && strcmp(d->text, "displaced") == 0);
    done(t);

    /* 8.5.3: more than one unit would have to move: eliminated instead */
    t = start("\"C7\":\"swamp\",\"D7\":\"swamp\",\"E7\":\"swamp\",\"F7\":\"swamp\"",
              UNIT("B-4-1", BR, "regular", 4, "E4") "," UNIT("A-4-1", AM, "regular", 4, "E5") ","
              UNIT("A-4-2", AM, "regular", 4, "D6") "," UNIT("A-4-3", AM, "regular", 4, "E6"),
              BR, 4, 4);
    force(t, 4, 6, 2, 2, 2);
    CHECK_EQ(act(t, cc(t, "B-4-1", "E5")), 0);
    CHECK_EQ(t->s.u[U(t, "A-4-1")].hex, -1);
    CHECK_EQ(t->s.u[U(t, "A-4-2")].hex, H(t, "D6"));
    done(t);

    /* 8.5.4: infantry passes, so the artillery with it passes unrolled */
    t = start("", UNIT("B-4-1", BR, "regular", 4, "E4") "," UNIT("A-4-1", AM, "regular", 4, "E5")
                  "," UNIT("A-ART-1", AM, "artillery", 2, "E5"),
              BR, 4, 4);
    force(t, 4, 3, 2, 2, 2);
    CHECK_EQ(act(t, cc(t, "B-4-1", "E5")), 0);
    CHECK_EQ(ev_count(t, "morale"), 2);
    const mk_event *m2 = ev_find(t, "morale", NULL, 1);
    CHECK(m2 && m2->passed == 1 && m2->nvalues == 0);
    CHECK_EQ(mk_rng_forced_left(&t->s.head.rng), 0);
    done(t);
}

/* HtL 8.2.2, AMB-HTL-5: hits one at a time to the highest current MP; the
 * owner chooses between tied units. */
static void test_8_2_2_ties(void)
{
    T *t = start("", UNIT("A-ART-1", AM, "artillery", 2, "E5") "," UNITR("B-4-1", BR, "regular", 2,
                     4, "E4") "," UNIT("B-ART-1", BR, "artillery", 2, "E4"),
                 AM, 4, 4);
    force(t, 3, 4, 4, 2); /* 2 hits */
    CHECK_EQ(act(t, fire(t, "A-ART-1", "E4")), 0);
    CHECK_EQ(t->s.cb.pending, HP_TIE);
    CHECK_EQ(t->s.to_move, 1);
    mk_action c = A(HA_CHOOSE, -1, U(t, "B-ART-1"), -1);
    CHECK(listed(t, &c, NULL));
    CHECK_EQ(act(t, c), 0);
    /* the second hit goes to the infantry, now the higher (2 vs 1) */
    CHECK_EQ(t->s.u[U(t, "B-ART-1")].mp, 1);
    CHECK_EQ(t->s.u[U(t, "B-4-1")].mp, 1);
    CHECK_EQ(t->s.cb.on, 0);
    CHECK_EQ(t->s.to_move, 0);
    done(t);
}

/* HtL 8.5.5, AMB-HTL-18: a leader whose unit is eliminated escapes 1-3
 * hexes, or is eliminated when blocked. */
static void test_8_5_5_escape(void)
{
    T *t = start("", UNIT("A-ART-1", AM, "artillery", 2, "E5") "," UNITR("B-4-1", BR, "regular", 1,
                     4, "E4") "," UNIT("B-L-1", BR, "leader", 0, "E4"),
                 AM, 4, 4);
    force(t, 3, 6, 2, 2);
    CHECK_EQ(act(t, fire(t, "A-ART-1", "E4")), 0);
    CHECK_EQ(t->s.u[U(t, "B-4-1")].hex, -1);
    CHECK_EQ(t->s.cb.pending, HP_ESCAPE);
    mk_action out[64];
    int n = htl_choices(&t->s, t->sc, out, 64);
    CHECK(n > 10);
    CHECK_EQ(act(t, choose_hex(t, "E1")), 0);
    CHECK_EQ(t->s.u[U(t, "B-L-1")].hex, H(t, "E1"));
    done(t);
    /* surrounded by enemies and swamp: eliminated */
    t = start("\"A2\":\"swamp\"",
              UNIT("A-ART-1", AM, "artillery", 2, "B1") "," UNIT("A-4-1", AM, "regular", 4, "A3") ","
              UNITR("B-4-1", BR, "regular", 1, 4, "A1") "," UNIT("B-L-1", BR, "leader", 0, "A1"),
              AM, 4, 4);
    force(t, 3, 6, 2, 2);
    CHECK_EQ(act(t, fire(t, "A-ART-1", "A1")), 0);
    CHECK_EQ(t->s.u[U(t, "B-L-1")].hex, -1);
    CHECK_EQ(t->s.vp[0], 2);
    done(t);
}

/* HtL 6.2.3: a dragoon moves, then may fire for 1 more AP straight after;
 * never fire then move; any other action closes the chance; HtL 6.1.4. */
static void test_6_2_3_dragoons(void)
{
    T *t = start("", UNIT("A-DR-1", AM, "dragoon", 2, "E7") "," UNIT("A-4-1", AM, "regular", 4, "H7")
                     "," UNIT("B-4-1", BR, "regular", 4, "E3"),
                 AM, 4, 4);
    CHECK_EQ(act(t, move(t, "A-DR-1", NULL, 3, "E6", "E5", "E4")), 0);
    mk_action f = fire(t, "A-DR-1", "E3");
    int cost = 0;
    CHECK(listed(t, &f, &cost) && cost == 1);
    force(t, 3, 5, 6, 1);
    CHECK_EQ(act(t, f), 0);
    CHECK_EQ(t->s.ap, 8);
    CHECK(act(t, f) != 0);
    CHECK(strstr(t->err.msg, "HtL 6") != NULL);
    done(t);
    t = start("", UNIT("A-DR-1", AM, "dragoon", 2, "E7") "," UNIT("A-4-1", AM, "regular", 4, "H7")
                  "," UNIT("B-4-1", BR, "regular", 4, "E3"),
              AM, 4, 4);
    CHECK_EQ(act(t, move(t, "A-DR-1", NULL, 3, "E6", "E5", "E4")), 0);
    CHECK_EQ(act(t, move(t, "A-4-1", NULL, 1, "H6")), 0);
    CHECK(act(t, fire(t, "A-DR-1", "E3")) != 0);
    done(t);
    t = start("", UNIT("A-DR-1", AM, "dragoon", 2, "E4") "," UNIT("B-4-1", BR, "regular", 4, "E3"), AM,
              4, 4);
    force(t, 3, 2, 2, 2);
    CHECK_EQ(act(t, fire(t, "A-DR-1", "E3")), 0);
    CHECK(act(t, move(t, "A-DR-1", NULL, 1, "E5")) != 0);
    CHECK(strstr(t->err.msg, "HtL 6.1.4") != NULL);
    done(t);
}

/* HtL 6.2.7: the turn ends when the AP reach 0; HtL 5: then the other side
 * rolls; after both, the game turn advances. */
static void test_6_2_7_turns(void)
{
    T *t = start("", UNIT("A-4-1", AM, "regular", 4, "E7") "," UNIT("B-4-1", BR, "regular", 4, "E2"),
                 AM, 4, 2);
    t->s.ap = 1;
    force(t, 1, 3);
    CHECK_EQ(act(t, move(t, "A-4-1", NULL, 1, "E6")), 0);
    CHECK_EQ(t->s.active, 1);
    CHECK_EQ(t->s.ap, 5);
    CHECK_EQ(t->s.turn, 1);
    const mk_event *e = ev_find(t, "roll", "action_points", 0);
    CHECK(e && e->die == 3 && e->points == 5);
    force(t, 1, 1);
    CHECK_EQ(act(t, A(HA_END, -1, -1, -1)), 0);
    CHECK_EQ(t->s.active, 0);
    CHECK_EQ(t->s.turn, 2);
    CHECK_EQ(t->s.ap, 5);
    CHECK_EQ(t->s.u[U(t, "A-4-1")].flags, 0);
    /* not the active side's unit */
    CHECK(act(t, move(t, "B-4-1", NULL, 1, "E3")) != 0);
    done(t);
}

/* HtL 8 "Game Example" (reconstructed; the map was a picture): the British
 * have 6 AP. A dragoon moves (1 AP) and fires (1 AP) at an American
 * infantry, hitting on 5-6; artillery at range 2 fires at it, 5-6 (1 AP);
 * an elite close combats an American infantry in the woods (2 AP): the
 * defender holds unless it rolls 6 (4 + 1 = 5), hits on 5-6; artillery
 * across the river fires at range 3 at the infantry with a leader, hits on
 * 6 (1 AP). 6 AP spent: the British turn ends. */
static void test_8_game_example(void)
{
    T *t = start("\"G7\":\"forest\",\"F4\":\"forest\",\"E5\":\"waterway\",\"F5\":\"waterway\"",
                 UNIT("A-4-1", AM, "regular", 4, "C4") "," UNIT("A-4-2", AM, "regular", 4, "G7") ","
                 UNIT("A-4-3", AM, "regular", 4, "E7") "," UNIT("A-L-1", AM, "leader", 0, "E7") ","
                 UNIT("B-DR-1", BR, "dragoon", 2, "F1") "," UNIT("B-ART-1", BR, "artillery", 2, "C2")
                 "," UNIT("B-4E-1", BR, "elite", 4, "G8") "," UNIT("B-ART-2", BR, "artillery", 2, "E4")
                 "," UNIT("B-DR-2", BR, "dragoon", 2, "L1"),
                 BR, 4, 4);
    t->s.ap = 6;
    const mk_grid *g = &t->sc->map.grid;
    /* the dragoon: 3 hexes, then fire at range 1: 5-6 */
    mk_action m = move(t, "B-DR-1", NULL, 3, "E1", "D2", "D3");
    CHECK(listed_dest(t, m.unit, m.target, NULL));
    CHECK_EQ(act(t, m), 0);
    int range;
    CHECK_EQ(htl_fire_need(&t->s, t->sc, U(t, "B-DR-1"), H(t, "C4"), &range), 5);
    CHECK_EQ(range, 1);
    force(t, 3, 5, 6, 2);
    CHECK_EQ(act(t, fire(t, "B-DR-1", "C4")), 0);
    CHECK_EQ(t->s.u[U(t, "A-4-1")].mp, 2);
    /* the artillery at range 2: 5-6 */
    CHECK_EQ(mk_hex_distance(g, (mk_hex)H(t, "C2"), (mk_hex)H(t, "C4")), 2);
    CHECK_EQ(htl_fire_need(&t->s, t->sc, U(t, "B-ART-1"), H(t, "C4"), &range), 5);
    force(t, 3, 4, 3, 2);
    CHECK_EQ(act(t, fire(t, "B-ART-1", "C4")), 0);
    /* the elite against the infantry in the woods: morale 5, hits on 5-6 */
    CHECK_EQ(htl_morale_threshold(&t->s, t->sc, U(t, "A-4-2"), NULL), 5);
    force(t, 4, 5, 4, 5, 6);
    CHECK_EQ(act(t, cc(t, "B-4E-1", "G7")), 0);
    const mk_event *mo = ev_find(t, "morale", NULL, 0);
    CHECK(mo && mo->passed == 1);
    const mk_event *r = ev_find(t, "roll", "close_combat", 0);
    CHECK(r && r->hits == 2);
    CHECK_EQ(t->s.u[U(t, "A-4-2")].mp, 2);
    CHECK_EQ(t->s.ap, 1);
    /* the artillery behind the river at range 3: 6 only */
    CHECK_EQ(mk_hex_distance(g, (mk_hex)H(t, "E4"), (mk_hex)H(t, "E7")), 3);
    CHECK_EQ(htl_fire_need(&t->s, t->sc, U(t, "B-ART-2"), H(t, "E7"), &range), 6);
    json_t *j = rs->action_json(&t->s, t->sc, &(mk_action){.type = HA_FIRE, .unit = (int16_t)U(t,
                                "B-ART-2"), .other = -1, .target = (int16_t)H(t, "E7"), .cost = 1});
    CHECK_STR(json_string_value(json_object_get(j, "text")),
              "Fire B-ART-2 at E7: range 3, hits on 6 (1 AP)");
    json_decref(j);
    force(t, 4, 6, 5, 3, 2); /* one hit; then the American AP die */
    CHECK_EQ(act(t, fire(t, "B-ART-2", "E7")), 0);
    CHECK_EQ(t->s.u[U(t, "A-4-3")].mp, 3);
    CHECK_EQ(t->s.active, 0); /* all 6 AP spent: the turn is over */
    done(t);
}

/* JSON round trip of actions: action_json -> action_parse gives the same
 * action; refusals name the rule. */
static void test_json(void)
{
    T *t = start("", UNIT("A-4-1", AM, "regular", 4, "E3") "," UNIT("A-L-1", AM, "leader", 0, "E3")
                     "," UNIT("B-4-1", BR, "regular", 4, "E1"),
                 AM, 4, 4);
    static mk_action out[MK_MAX_ACTIONS];
    int n = rs->legal(&t->s, t->sc, out, MK_MAX_ACTIONS);
    CHECK(n > 5);
    for (int i = 0; i < n; i++) {
        json_t *j = rs->action_json(&t->s, t->sc, &out[i]);
        mk_action b;
        mk_error err = {0};
        CHECK_EQ(rs->action_parse(&t->s, t->sc, j, &b, &err), 0);
        CHECK(mk_action_equal(&out[i], &b));
        CHECK_EQ(b.cost, out[i].cost);
        json_decref(j);
    }
    mk_action m = move(t, "A-4-1", NULL, 1, "E4");
    json_t *j = rs->action_json(&t->s, t->sc, &(mk_action){.type = HA_MOVE, .unit = m.unit,
                                .other = -1, .target = m.target, .npath = 1, .cost = 1,
                                .path = {m.path[0]}});
    CHECK_STR(json_string_value(json_object_get(j, "text")), "Move A-4-1 E3-E4 (1 AP)");
    json_decref(j);
    CHECK_EQ(act(t, m), 0);
    CHECK(act(t, m) != 0);
    CHECK_STR(t->err.code, "illegal_action");
    CHECK(strstr(t->err.msg, "HtL 6.1.4") && strstr(t->err.msg, "A-4-1"));
    json_t *st = rs->state_json(&t->s, t->sc);
    CHECK(st && json_integer_value(json_object_get(st, "points")) == 9);
    json_decref(st);
    mk_error err = {0};
    CHECK(rs->check_options((1ull << 2) | (1ull << 5), &err) != 0);
    CHECK(strstr(err.msg, "11.6") != NULL);
    CHECK_EQ(rs->check_options(1ull << 2, &err), 0);
    done(t);
}

#define OPT(n) (1ull << ((n) - 1))

/* Optional rules 11.3, 11.4, 11.5, 11.15: dice, ranges, modifiers. */
static void test_11_fire_options(void)
{
    /* 11.3: an elite at 3-4 MP rolls 4 dice; at 2 MP, 3 */
    T *t = start("", UNIT("A-4E-1", AM, "elite", 4, "E5") "," UNIT("B-4-1", BR, "regular", 4, "E4")
                     "," UNITR("A-4E-2", AM, "elite", 2, 4, "H5") "," UNIT("B-4-2", BR, "regular", 4, "H4"),
                 AM, 4, 4);
    t->s.options = OPT(3);
    force(t, 4, 5, 5, 5, 5);
    CHECK_EQ(act(t, fire(t, "A-4E-1", "E4")), 0);
    const mk_event *e = ev_find(t, "roll", "fire", 0);
    CHECK(e && e->nvalues == 4 && e->hits == 4);
    CHECK_EQ(t->s.u[U(t, "B-4-1")].hex, -1);
    force(t, 3, 5, 5, 5);
    CHECK_EQ(act(t, fire(t, "A-4E-2", "H4")), 0);
    e = ev_find(t, "roll", "fire", 0);
    CHECK(e && e->nvalues == 3);
    done(t);
    /* 11.4: artillery on a hill reaches 4 hexes, hitting on 6 there */
    t = start("\"E8\":\"hill\"", UNIT("A-ART-1", AM, "artillery", 2, "E8") "," UNIT("B-4-1", BR,
              "regular", 4, "E4"),
              AM, 4, 4);
    int range;
    CHECK_EQ(htl_fire_need(&t->s, t->sc, U(t, "A-ART-1"), H(t, "E4"), &range), 0);
    CHECK_EQ(range, 4);
    t->s.options = OPT(4);
    CHECK_EQ(htl_fire_need(&t->s, t->sc, U(t, "A-ART-1"), H(t, "E4"), &range), 6);
    t->s.options = OPT(15); /* 11.15: range -1: artillery 2 */
    CHECK_EQ(htl_fire_need(&t->s, t->sc, U(t, "A-ART-1"), H(t, "E5"), &range), 0);
    CHECK_EQ(htl_fire_need(&t->s, t->sc, U(t, "A-ART-1"), H(t, "E6"), &range), 5);
    done(t);
    /* 11.15: dragoons keep range 1 (8.3, AMB-HTL-15) */
    t = start("", UNIT("A-DR-1", AM, "dragoon", 2, "E5") "," UNIT("B-4-1", BR, "regular", 4, "E4"),
              AM, 4, 4);
    t->s.options = OPT(15);
    CHECK_EQ(htl_fire_need(&t->s, t->sc, U(t, "A-DR-1"), H(t, "E4"), &range), 5);
    done(t);
    /* 11.5: artillery into forest -2 (replacing the -1, AMB-HTL-13) */
    t = start("\"E4\":\"forest\"", UNIT("A-ART-1", AM, "artillery", 2, "E5") "," UNIT("B-4-1", BR,
              "regular", 4, "E4"),
              AM, 4, 4);
    t->s.options = OPT(5);
    force(t, 3, 5, 6, 6);
    CHECK_EQ(act(t, fire(t, "A-ART-1", "E4")), 0);
    e = ev_find(t, "roll", "fire", 0);
    CHECK(e && e->nmods == 1 && e->mods[0].value == -2 && e->hits == 2);
    done(t);
}

/* 11.7: an adjacent firer may advance into the hex it emptied. */
static void test_11_7_fire_advance(void)
{
    for (int on = 0; on < 2; on++) {
        T *t = start("", UNIT("A-4-1", AM, "regular", 4, "E5") "," UNITR("B-4-1", BR, "regular", 1,
                         4, "E4"),
                     AM, 4, 4);
        t->s.options = on ? OPT(7) : 0;
        force(t, 3, 6, 2, 2);
        CHECK_EQ(act(t, fire(t, "A-4-1", "E4")), 0);
        CHECK_EQ(t->s.u[U(t, "B-4-1")].hex, -1);
        CHECK_EQ(t->s.cb.pending, on ? HP_ADVANCE : HP_NONE);
        if (on) {
            CHECK_EQ(act(t, choose_word(HC_ADVANCE)), 0);
            CHECK_EQ(t->s.u[U(t, "A-4-1")].hex, H(t, "E4"));
        }
        done(t);
    }
}

/* 11.10: hills do not stop movement. 11.13: equal command AP. */
static void test_11_move_and_ap_options(void)
{
    T *t = start("\"E4\":\"hill\"", UNIT("A-3-1", AM, "light", 3, "E5") "," UNIT("B-4-1", BR,
                 "regular", 4, "K1"),
                 AM, 2, 5);
    mk_action m = move(t, "A-3-1", NULL, 2, "E4", "E3");
    CHECK(act(t, m) != 0);
    t->s.options = OPT(10);
    CHECK(listed(t, &m, NULL) || listed_dest(t, m.unit, m.target, NULL));
    CHECK_EQ(act(t, m), 0);
    t->s.options = OPT(13);
    force(t, 1, 1);
    htl_turn_begin(&t->s, t->sc, 0, &t->ev);
    CHECK_EQ(t->s.ap, 6); /* the British 5 + 1 */
    done(t);
}

/* 11.12: command AP adjusted for balance, one switch per side and sign;
 * +1 and -1 for one side are refused together; the floor of 9.3.2 holds. */
static void test_11_12_cap_adjust(void)
{
    T *t = start("", UNIT("A-3-1", AM, "light", 3, "E5") "," UNIT("B-4-1", BR, "regular", 4, "K1"),
                 AM, 2, 5);
    const mk_ruleset *r = t->sc->rs;
    uint64_t fp = 1ull << HTL_O1112_FIRST_PLUS, fm = 1ull << HTL_O1112_FIRST_MINUS;
    uint64_t sp = 1ull << HTL_O1112_SECOND_PLUS, sm = 1ull << HTL_O1112_SECOND_MINUS;
    CHECK(strcmp(r->options[HTL_O1112_FIRST_PLUS].id, "htl.11.12.first+1") == 0);
    CHECK(strcmp(r->options[HTL_O1112_SECOND_MINUS].id, "htl.11.12.second-1") == 0);
    mk_error e = {0};
    CHECK(r->check_options(fp | fm, &e) != 0);
    CHECK(strstr(e.msg, "11.12") != NULL);
    CHECK(r->check_options(sp | sm, &e) != 0);
    CHECK_EQ(r->check_options(fp | sm, &e), 0);
    CHECK_EQ(r->check_options(fm | sp | OPT(13), &e), 0);
    /* the bare rule id is refused with the four switches named */
    json_t *o = json_pack("{s:b}", "htl.11.12", 1);
    uint64_t mask = 0;
    CHECK(mk_options_parse(r, o, &mask, &e) != 0);
    CHECK(strstr(e.msg, "htl.11.12.second-1") != NULL);
    json_decref(o);
    o = json_pack("{s:b}", "htl.11.12.second+1", 1);
    CHECK_EQ(mk_options_parse(r, o, &mask, &e), 0);
    CHECK_EQ(mask, sp);
    json_decref(o);

    t->s.options = fp | sm;
    force(t, 2, 1, 1);
    htl_turn_begin(&t->s, t->sc, 0, &t->ev);
    CHECK_EQ(t->s.ap, 4); /* American 2 + 1 + d3 1 */
    htl_turn_begin(&t->s, t->sc, 1, &t->ev);
    CHECK_EQ(t->s.ap, 5); /* British 5 - 1 + 1 */
    t->s.options = fm;
    force(t, 1, 2);
    htl_turn_begin(&t->s, t->sc, 0, &t->ev);
    CHECK_EQ(t->s.ap, 3); /* 2 - 1 + 2 */
    /* the adjustment shows in the roll's modifiers with its rule */
    const mk_event *last = NULL;
    for (int i = 0; i < t->ev.n; i++)
        if (t->ev.ev[i].type && strcmp(t->ev.ev[i].type, "roll") == 0)
            last = &t->ev.ev[i];
    CHECK(last != NULL);
    bool cited = false;
    for (int i = 0; last && i < last->nmods; i++)
        cited |= last->mods[i].value == -1 && strstr(last->mods[i].why, "11.12") != NULL;
    CHECK(cited);
    /* 9.3.2: never below 0, even adjusted down */
    t->s.leaders_lost[0] = 3;
    force(t, 1, 1);
    htl_turn_begin(&t->s, t->sc, 0, &t->ev);
    CHECK_EQ(t->s.ap, 1);
    /* with 11.13 the adjustment comes after equalising */
    t->s.leaders_lost[0] = 0;
    t->s.options = OPT(13) | fp;
    force(t, 1, 1);
    htl_turn_begin(&t->s, t->sc, 0, &t->ev);
    CHECK_EQ(t->s.ap, 7); /* 5 + 1 + 1 */
    done(t);
}

/* 11.2: a unit fired on earlier in this game turn cannot be rallied. */
static void test_11_2_rally(void)
{
    T *t = start("", UNIT("B-ART-1", BR, "artillery", 2, "E3") "," UNITR("A-4-1", AM, "regular", 3,
                     4, "E5") "," UNIT("A-L-1", AM, "leader", 0, "E5"),
                 BR, 4, 4);
    t->s.options = OPT(2);
    force(t, 4, 2, 2, 2, 2);
    CHECK_EQ(act(t, fire(t, "B-ART-1", "E5")), 0);
    CHECK_EQ(act(t, A(HA_END, -1, -1, -1)), 0);
    CHECK_EQ(t->s.active, 0);
    t->s.ap = 5;
    mk_action r = A(HA_RALLY, U(t, "A-4-1"), U(t, "A-L-1"), -1);
    CHECK(!listed(t, &r, NULL));
    CHECK(act(t, r) != 0);
    CHECK(strstr(t->err.msg, "11.2") != NULL);
    t->s.options = 0;
    CHECK_EQ(act(t, r), 0);
    done(t);
}

/* 11.1: the attacker checks morale after paying 2 AP; failing, it may only
 * fire, for no further AP (AMB-HTL-8 (a)). */
static void test_11_1_attack_morale(void)
{
    T *t = start("", UNIT("A-4-1", AM, "regular", 4, "E5") "," UNIT("B-4-1", BR, "regular", 4, "E4"),
                 AM, 4, 4);
    t->s.options = OPT(1);
    t->s.ap = 2;
    force(t, 1, 6);
    CHECK_EQ(act(t, cc(t, "A-4-1", "E4")), 0);
    CHECK_EQ(t->s.ap, 0);
    CHECK_EQ(t->s.active, 0); /* the turn waits for the free fire */
    mk_action f = fire(t, "A-4-1", "E4");
    int cost = -1;
    CHECK(listed(t, &f, &cost) && cost == 0);
    force(t, 4, 5, 2, 2, 3); /* the fire, then the British AP die */
    CHECK_EQ(act(t, f), 0);
    CHECK_EQ(t->s.u[U(t, "B-4-1")].mp, 3);
    CHECK_EQ(t->s.active, 1);
    done(t);
    /* passing: the combat goes on as usual */
    t = start("", UNIT("A-4-1", AM, "regular", 4, "E5") "," UNIT("B-4-1", BR, "regular", 4, "E4"), AM,
              4, 4);
    t->s.options = OPT(1);
    force(t, 5, 4, 1, 5, 5, 2);
    CHECK_EQ(act(t, cc(t, "A-4-1", "E4")), 0);
    CHECK_EQ(t->s.u[U(t, "B-4-1")].mp, 2);
    done(t);
}

/* 11.8, 11.9: force march: a die <= MP moves the extra hex (2 AP), then
 * 4-6 costs 1 MP of fatigue; a failed roll moves the normal rate. */
static void test_11_8_force_march(void)
{
    T *t = start("", UNIT("A-4-1", AM, "regular", 4, "E7") "," UNIT("A-4-2", AM, "regular", 4, "H7")
                     "," UNIT("B-4-1", BR, "regular", 4, "K1"),
                 AM, 4, 4);
    mk_action fm = move(t, "A-4-1", NULL, 2, "E6", "E5");
    fm.type = HA_FORCE;
    CHECK(act(t, fm) != 0); /* not in use */
    t->s.options = OPT(8) | OPT(9);
    static mk_action out[MK_MAX_ACTIONS];
    int n = rs->legal(&t->s, t->sc, out, MK_MAX_ACTIONS), found = 0;
    for (int i = 0; i < n; i++)
        found += out[i].type == HA_FORCE && out[i].unit == fm.unit && out[i].target == fm.target &&
                 out[i].cost == 2;
    CHECK_EQ(found, 1);
    force(t, 2, 4, 5);
    CHECK_EQ(act(t, fm), 0);
    CHECK_EQ(t->s.u[U(t, "A-4-1")].hex, H(t, "E5"));
    CHECK_EQ(t->s.u[U(t, "A-4-1")].mp, 3);
    CHECK_EQ(t->s.ap, 8);
    mk_action fm2 = move(t, "A-4-2", NULL, 2, "H6", "H5");
    fm2.type = HA_FORCE;
    force(t, 1, 5);
    CHECK_EQ(act(t, fm2), 0);
    CHECK_EQ(t->s.u[U(t, "A-4-2")].hex, H(t, "H6"));
    CHECK_EQ(t->s.ap, 6);
    json_t *j = rs->action_json(&t->s, t->sc, &fm);
    CHECK_STR(json_string_value(json_object_get(j, "type")), "force_march");
    json_decref(j);
    done(t);
}

/* 11.6 example: Washington 2/2 adds 2 dice for 1 AP: 5 dice; any 1 puts
 * the attacking leader at risk; a 2-hit leader is flipped by the first. */
static void test_11_6_leader_ratings(void)
{
    static char units[1024];
    snprintf(units, sizeof units, "%s,%s,%s",
             UNIT("A-4-1", AM, "regular", 4, "E5"), UNIT("B-4-1", BR, "regular", 4, "E4"),
             "{\"id\":\"A-L-1\",\"side\":\"american\",\"kind\":\"leader\",\"name\":\"Washington\","
             "\"rating\":[2,2],\"hex\":\"E5\"}");
    T *t = start("", units, AM, 4, 4);
    mk_action with = A(HA_CLOSE, U(t, "A-4-1"), U(t, "A-L-1"), H(t, "E4"));
    CHECK(!listed(t, &with, NULL));
    CHECK(act(t, with) != 0);
    done(t);
    t = start("", units, AM, 4, 4);
    mk_error err = {0};
    memset(&t->s, 0, sizeof t->s);
    CHECK_EQ(rs->init(&t->s, t->sc, OPT(6), 1, NULL, &err), 0);
    t->s.ap = 10;
    CHECK_EQ(t->s.u[U(t, "A-L-1")].mp, 2); /* 2 hits */
    int cost = 0;
    CHECK(listed(t, &with, &cost) && cost == 3);
    /* morale 1 passes; 5 dice 6 6 1 2 2: 2 hits, one 1: the attacking
     * leader checks once and rolls 1: flipped, not eliminated */
    force(t, 7, 1, 6, 6, 1, 2, 2, 1);
    CHECK_EQ(act(t, with), 0);
    const mk_event *e = ev_find(t, "roll", "close_combat", 0);
    CHECK(e && e->nvalues == 5 && e->hits == 2);
    CHECK_EQ(t->s.ap, 7);
    CHECK_EQ(t->s.u[U(t, "A-L-1")].hex, H(t, "E5"));
    CHECK_EQ(t->s.u[U(t, "A-L-1")].mp, 1);
    CHECK_EQ(t->s.leaders_lost[0], 0);
    CHECK_EQ(t->s.u[U(t, "B-4-1")].mp, 2);
    done(t);
}

/* 11.11: a dragoon may withdraw before the close combat (by 8.5). */
static void test_11_11_dragoon_withdraw(void)
{
    T *t = start("", UNIT("B-4-1", BR, "regular", 4, "E4") "," UNIT("A-DR-1", AM, "dragoon", 2, "E5"),
                 BR, 4, 4);
    t->s.options = OPT(11);
    CHECK_EQ(act(t, cc(t, "B-4-1", "E5")), 0);
    CHECK_EQ(t->s.cb.pending, HP_WITHDRAW);
    CHECK_EQ(t->s.to_move, 0);
    CHECK_EQ(act(t, choose_word(HC_WITHDRAW)), 0);
    CHECK_EQ(t->s.cb.pending, HP_RETREAT); /* D6 or E6 */
    CHECK_EQ(act(t, choose_hex(t, "D6")), 0);
    CHECK_EQ(t->s.u[U(t, "A-DR-1")].hex, H(t, "D6"));
    CHECK_EQ(ev_count(t, "morale"), 0);
    CHECK_EQ(t->s.cb.pending, HP_ADVANCE);
    CHECK_EQ(act(t, choose_word(HC_STAY)), 0);
    CHECK_EQ(t->s.u[U(t, "A-DR-1")].mp, 2);
    done(t);
}

/* 11.14: two attackers directly opposite: the second gets +1 per die and,
 * in close combat, -1 to the defender's morale. */
static void test_11_14_flank(void)
{
    T *t = start("", UNIT("A-4-1", AM, "regular", 4, "D5") "," UNIT("A-4-2", AM, "regular", 4, "F5")
                     "," UNIT("B-4-1", BR, "regular", 4, "E5"),
                 AM, 4, 4);
    t->s.options = OPT(14);
    force(t, 3, 4, 4, 4); /* first attack: no bonus, range 1 hits on 5-6: none */
    CHECK_EQ(act(t, fire(t, "A-4-1", "E5")), 0);
    const mk_event *e = ev_find(t, "roll", "fire", 0);
    CHECK(e && e->hits == 0 && e->nmods == 0);
    force(t, 4, 4, 3, 3, 3); /* second, close combat: morale 4 vs 4-1: fails */
    CHECK_EQ(act(t, cc(t, "A-4-2", "E5")), 0);
    const mk_event *m = ev_find(t, "morale", NULL, 0);
    CHECK(m && m->need == 3 && m->passed == 0);
    e = ev_find(t, "roll", "close_combat", 0);
    CHECK(e && e->hits == 3); /* 3 + 1 = 4 hits on 4-6 */
    done(t);
}

int main(void)
{
    test_2_2_1_forest_fire();
    test_8_2_1_artillery_hill();
    test_8_2_3_ranges();
    test_8_3_los();
    test_8_4_4_morale_hill();
    test_8_4_3_forest_close_combat();
    test_3_4_2_elite();
    test_9_3_1_leader_casualty();
    test_9_4_rally();
    test_6_1_1_bemis_ap();
    test_6_2_4_leader_bonus();
    test_4_3_hex_limits();
    test_7_3_lone_leader();
    test_8_5_retreat();
    test_8_2_2_ties();
    test_8_5_5_escape();
    test_6_2_3_dragoons();
    test_6_2_7_turns();
    test_8_game_example();
    test_json();
    test_11_fire_options();
    test_11_7_fire_advance();
    test_11_move_and_ap_options();
    test_11_12_cap_adjust();
    test_11_2_rally();
    test_11_1_attack_morale();
    test_11_8_force_march();
    test_11_6_leader_ratings();
    test_11_11_dragoon_withdraw();
    test_11_14_flank();
    return check_done("test_htl_rules");
}
