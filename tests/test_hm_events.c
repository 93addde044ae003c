/* test_hm_events.c - Horse & Musket 15 Random Events (`hm.random-events`):
 * for every result 2-12 of the table, the CAP roll of 1 and the 2d6 are
 * forced, and the test checks the result's effect in the engine and when
 * it ends (docs/hm.md: which result lasts how long); the option off: a 1
 * gives no event and rolls no more dice.
 *
 * Positions are inline scenarios on the 13 x 9 map (pointy, even rows
 * shifted right: E5 touches D5, F5, D4, E4, D6, E6), Battles chart. Side
 * "a" moves first; each test ends a's turn with the dice of side b's turn
 * forced (CAP d6 1, then the two event dice), so b holds the event. */

#include "hm_fixture.h"

#define EV (1ull << HO_RANDOM_EVENTS)

/* Loads a position; the seed is chosen so that side a's own opening CAP
 * roll is not a 1 (no event before the test's forced one). */
static void load(const char *terrain, const char *units, const char *extra, uint64_t options)
{
    char buf[8192];
    snprintf(buf, sizeof buf,
             "{\"ruleset\":\"hm\",\"id\":\"hm/test\",\"title\":\"t\",\"chart\":\"battles\","
             "\"map\":{\"orientation\":\"pointy\",\"shifted\":\"even\",\"cols\":13,\"rows\":9,"
             "\"terrain\":{%s}},"
             "\"sides\":[{\"id\":\"a\",\"cap\":4,\"home\":\"north\"},{\"id\":\"b\",\"cap\":5,"
             "\"home\":\"south\"}],\"first\":\"a\",\"turns\":12,\"units\":[%s]%s}",
             terrain, units, extra ? extra : "");
    int nr;
    const mk_ruleset *const *all = mk_rulesets(&nr);
    mk_error err = {0};
    if (sc)
        mk_scenario_free(sc);
    sc = mk_scenario_parse(buf, strlen(buf), "(test)", all, nr, &err);
    if (!sc) {
        fprintf(stderr, "scenario: %s\n", err.msg);
        CHECK(sc != NULL);
        exit(1);
    }
    for (uint64_t seed = 1;; seed++) {
        memset(s, 0, sizeof *s);
        CHECK_EQ(rs->init(s, sc, options, seed, NULL, &err), 0);
        if (s->cap_roll != 1)
            break;
    }
}

static const mk_event *find(const char *type, const char *purpose_or_text)
{
    for (int i = 0; i < ev.n; i++) {
        const mk_event *e = &ev.ev[i];
        if (strcmp(e->type, type) != 0)
            continue;
        if (!purpose_or_text || (e->purpose && strcmp(e->purpose, purpose_or_text) == 0) ||
            (e->text && strcmp(e->text, purpose_or_text) == 0))
            return e;
    }
    static mk_event none;
    memset(&none, 0, sizeof none);
    none.type = "";
    return &none;
}
static int index_of(const char *type, const char *purpose)
{
    for (int i = 0; i < ev.n; i++)
        if (strcmp(ev.ev[i].type, type) == 0 && ev.ev[i].purpose &&
            strcmp(ev.ev[i].purpose, purpose) == 0)
            return i;
    return -1;
}

/* Listed actions of a type (0: any) for unit (NULL: any) carrying the event
 * flag or not; *mincost their least cost. */
static int listed(int type, const char *unit, bool event, int *mincost)
{
    mk_action l[MK_MAX_ACTIONS];
    int n = rs->legal(s, sc, l, MK_MAX_ACTIONS), c = 0, m = 99;
    for (int i = 0; i < n; i++)
        if ((!type || l[i].type == type) && (!unit || l[i].unit == uid(unit)) &&
            ((l[i].flags & HF_EVENT) != 0) == event) {
            c++;
            if (l[i].cost < m)
                m = l[i].cost;
        }
    if (mincost)
        *mincost = m;
    return c;
}
/* Is a move of unit to hex listed (with or without the event)? */
static bool move_to(const char *unit, const char *hex, bool event)
{
    mk_action l[MK_MAX_ACTIONS];
    int n = rs->legal(s, sc, l, MK_MAX_ACTIONS);
    for (int i = 0; i < n; i++)
        if (l[i].type == HA_MOVE && l[i].unit == uid(unit) && l[i].target == hx(hex) &&
            ((l[i].flags & HF_EVENT) != 0) == event)
            return true;
    return false;
}
/* Applies the listed action of a type for unit to hex (with or without
 * the event), along the path legal() lists. */
static int apply_listed(int type, const char *unit, const char *hex, bool event)
{
    mk_action l[MK_MAX_ACTIONS];
    int n = rs->legal(s, sc, l, MK_MAX_ACTIONS);
    mk_error err = {0};
    for (int i = 0; i < n; i++)
        if (l[i].type == type && l[i].unit == uid(unit) && l[i].target == hx(hex) &&
            ((l[i].flags & HF_EVENT) != 0) == event) {
            mk_events_init(&ev, evs, 256);
            return rs->apply(s, sc, &l[i], &ev, &err);
        }
    return -1;
}
/* Is a choice of a hex (or a unit) listed in the pending decision? */
static bool choice_listed(const char *hex, const char *unit)
{
    mk_action l[MK_MAX_ACTIONS];
    int n = rs->legal(s, sc, l, MK_MAX_ACTIONS);
    for (int i = 0; i < n; i++)
        if (l[i].type == HA_CHOOSE && ((hex && l[i].flags == HW_HEX && l[i].target == hx(hex)) ||
                                       (unit && l[i].flags == HW_UNIT && l[i].other == uid(unit))))
            return true;
    return false;
}

/* Ends the active side's turn with the next player turn's dice forced
 * (its CAP d6 and, on a 1, the event dice). */
static void end_turn(int n, ...)
{
    va_list ap;
    va_start(ap, n);
    fixture_vforce(&s->head.rng, n, ap);
    va_end(ap);
    CHECK_EQ(act("{\"type\":\"end_turn\"}"), 0);
    CHECK_EQ(mk_rng_forced_left(&s->head.rng), 0);
}

/* The option off: a CAP roll of 1 is +1 CAP and nothing else. */
static void t_off(void)
{
    load("", U("a1", "a", "line", 3, "E4") "," U("b1", "b", "line", 3, "E6"), NULL, 0);
    force(3, 1, 6, 6);
    CHECK_EQ(act("{\"type\":\"end_turn\"}"), 0);
    CHECK_EQ(s->active, 1);
    CHECK_EQ(s->cap_roll, 1);
    CHECK_EQ(s->cap, 5 + 1);
    CHECK_EQ(mk_rng_forced_left(&s->head.rng), 2); /* no event dice rolled */
    CHECK_STR(find("roll", "random_event")->type, "");
    CHECK_EQ(s->rev.held, 0);
    CHECK_EQ(s->pending, HP_NONE);
    /* on, a CAP roll of 2-6 rolls nothing either */
    load("", U("a1", "a", "line", 3, "E4") "," U("b1", "b", "line", 3, "E6"), NULL, EV);
    force(3, 2, 6, 6);
    CHECK_EQ(act("{\"type\":\"end_turn\"}"), 0);
    CHECK_EQ(mk_rng_forced_left(&s->head.rng), 2);
    CHECK_STR(find("roll", "random_event")->type, "");
}

/* 2: a swamp tile in a river or clear hex of b's choice; it stays. */
static void t_swamp(void)
{
    load("\"F5\":\"river\",\"G5\":\"woods\"",
         U("a1", "a", "line", 3, "B2") "," U("b1", "b", "line", 3, "H5") "," U(
             "b2", "b", "dragoon", 3, "H5") "," U("b3", "b", "dragoon", 3, "C5"),
         NULL, EV);
    end_turn(3, 1, 1, 1);
    const mk_event *r = find("roll", "random_event");
    CHECK_EQ(r->nvalues, 2);
    CHECK_EQ(r->value, 2);
    CHECK_EQ(s->pending, HP_EVENT_HEX);
    CHECK_EQ(s->to_move, 1);
    CHECK(choice_listed("F5", NULL));                /* river */
    CHECK(choice_listed("E5", NULL));                /* clear */
    CHECK(!choice_listed("G5", NULL));               /* woods */
    CHECK(!choice_listed("H5", NULL));               /* two units: over a swamp's stacking */
    CHECK(choice_listed("C5", NULL));                /* one unit fits */
    CHECK_EQ(listed(HA_MOVE, NULL, false, NULL), 0); /* only the decision */
    CHECK_EQ(hm_fx(s, sc, hx("E5"))->stop, 0);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"E5\"}"), 0);
    CHECK_EQ(s->pending, HP_NONE);
    CHECK_EQ(hm_terrain(s, sc, hx("E5")), HT_SWAMP);
    CHECK_EQ(hm_fx(s, sc, hx("E5"))->stop, 1);
    CHECK_EQ(s->rev.swamps, 1); /* the default 2 tiles, one used */
    CHECK_EQ(find("random_event", "swamp_placed")->hex, hx("E5"));
    /* the dragoon's move stops in the swamp (D5-E5-F5 no longer a path) */
    CHECK(move_to("b3", "E5", false));
    json_t *j = rs->state_json(s, sc);
    CHECK_STR(json_string_value(json_object_get(json_object_get(j, "terrain_changes"), "E5")),
              "swamp");
    json_decref(j);
    /* a permanent change: still a swamp two turns on */
    end_turn(1, 3);
    end_turn(1, 3);
    CHECK_EQ(hm_terrain(s, sc, hx("E5")), HT_SWAMP);
    /* no unused tile: no event */
    load("", U("a1", "a", "line", 3, "B2") "," U("b1", "b", "line", 3, "H5"), ",\"swamp_tiles\":0",
         EV);
    end_turn(3, 1, 1, 1);
    CHECK_EQ(s->pending, HP_NONE);
    CHECK_STR(find("random_event", "no_event")->text, "no_event");
    CHECK_EQ(s->rev.nover, 0);
}

/* 3: after Turn 5, enemy Cannon -1 on all combat dice, cumulative, for
 * the rest of the game; on Turns 1-5 it is a 7. */
static void t_cannon(void)
{
    load("", U("a1", "a", "line", 3, "A1") "," U("b1", "b", "line", 3, "H5"), NULL, EV);
    end_turn(3, 1, 1, 2); /* turn 1 */
    CHECK_STR(find("random_event", "as_7")->text, "as_7");
    CHECK_EQ(s->rev.held, 7);
    CHECK_EQ(s->rev.cannon[0], 0);

    load("",
         U("art", "a", "artillery", 3, "E4") "," U("b1", "b", "line", 3,
                                                   "E5") "," U("bart", "b", "artillery", 3, "L9"),
         NULL, EV);
    s->turn = 6;
    end_turn(3, 1, 2, 1); /* b's turn of Turn 6 */
    CHECK_EQ(s->rev.cannon[0], -1);
    CHECK_EQ(s->rev.cannon[1], 0); /* only the enemy's Cannon */
    CHECK_EQ(s->rev.held, 0);
    end_turn(1, 3); /* Turn 7, a */
    CHECK_EQ(s->turn, 7);
    force(3, 7, 7, 7); /* 7 - 1 = 6 misses the 7 (artillery R1) */
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"art\",\"target\":\"E5\"}"), 0);
    const mk_event *r = find("roll", "fire");
    CHECK_EQ(r->need, 7);
    CHECK_EQ(r->nmods, 1);
    CHECK_EQ(r->mods[0].value, -1);
    CHECK_EQ(r->hits, 0);
    CHECK_EQ(mp("b1"), 3);
    end_turn(3, 1, 1, 2); /* b again: cumulative */
    CHECK_EQ(s->rev.cannon[0], -2);
    CHECK_EQ(hm_event_drm(s, sc, uid("art")), -2);
    CHECK_EQ(hm_event_drm(s, sc, uid("bart")), 0);
    end_turn(1, 3);
    end_turn(1, 3);
    end_turn(1, 3);
    CHECK_EQ(s->turn, 9);
    CHECK_EQ(hm_event_drm(s, sc, uid("art")), -2); /* the rest of the game */
}

/* 4: Bad Weather for a d6 of turns: movement -1 (min 1), fire dice -2
 * (min 1), for every Unit; then it clears. */
static void t_weather(void)
{
    load("",
         U("a1", "a", "line", 3, "E4") "," U("b1", "b", "line", 3, "E5") "," U(
             "bd", "b", "dragoon", 3, "C8") "," U("bl", "b", "line", 3,
                                                  "K8") "," U("ah", "a", "hussar", 3, "A1"),
         NULL, EV);
    end_turn(4, 1, 2, 2, 2); /* 4; d6 2: Turns 1 and 2 */
    CHECK_EQ(find("roll", "bad_weather")->values[0], 2);
    CHECK_EQ(s->rev.weather, 2);
    CHECK_EQ(hm_move_rate(s, sc, uid("bd")), 2); /* dragoon 3 -> 2 */
    CHECK_EQ(hm_move_rate(s, sc, uid("bl")), 1); /* not below 1 */
    CHECK(move_to("bd", "C6", false));           /* 2 hexes */
    CHECK(!move_to("bd", "C5", false));          /* 3 hexes: no longer */
    force(1, 9);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"b1\",\"target\":\"E4\"}"), 0);
    CHECK_EQ(find("roll", "fire")->nvalues, 1); /* 3 dice - 2 */
    CHECK_EQ(mp("a1"), 2);
    end_turn(1, 3);                              /* Turn 2, a: still */
    CHECK_EQ(hm_move_rate(s, sc, uid("ah")), 3); /* hussar 4 -> 3 */
    end_turn(1, 3);                              /* Turn 2, b */
    CHECK_EQ(hm_move_rate(s, sc, uid("bd")), 2);
    end_turn(1, 3); /* Turn 3, a: over */
    CHECK_EQ(hm_move_rate(s, sc, uid("ah")), 4);
    end_turn(1, 3);
    CHECK_EQ(hm_move_rate(s, sc, uid("bd")), 3);
    CHECK(move_to("bd", "C5", false));
    force(3, 0, 0, 0);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"b1\",\"target\":\"E4\"}"), 0);
    CHECK_EQ(find("roll", "fire")->nvalues, 3); /* fair weather: three dice again */
}

/* 5: one Unit's action for 0 CAP this turn; unused: lost at the turn end. */
static void t_free(void)
{
    load("",
         U("a1", "a", "line", 3, "A1") "," U("b1", "b", "line", 3, "E5") "," U("b2", "b", "line", 3,
                                                                               "H5"),
         NULL, EV);
    end_turn(3, 1, 2, 3);
    CHECK_EQ(s->rev.held, 5);
    int c = 9;
    CHECK(listed(HA_MOVE, "b1", true, &c) > 0);
    CHECK_EQ(c, 0);
    CHECK_EQ(listed(HA_MOVE, "b1", true, NULL), listed(HA_MOVE, "b1", false, NULL));
    s->cap = 0; /* with no CAP left too */
    CHECK_EQ(listed(HA_MOVE, "b1", false, NULL), 0);
    CHECK(listed(HA_MOVE, "b1", true, NULL) > 0);
    CHECK_EQ(act("{\"type\":\"move\",\"unit\":\"b1\",\"path\":[\"E4\"],\"event\":true}"), 0);
    CHECK_EQ(s->u[uid("b1")].hex, hx("E4"));
    CHECK_EQ(s->cap, 0);
    CHECK_EQ(s->rev.held, 0);
    CHECK_STR(find("random_event", "used")->text, "used");
    CHECK_EQ(listed(0, NULL, true, NULL), 0); /* once */
    /* unused: lost */
    load("", U("a1", "a", "line", 3, "A1") "," U("b1", "b", "line", 3, "E5"), NULL, EV);
    end_turn(3, 1, 2, 3);
    CHECK(listed(0, NULL, true, NULL) > 0);
    end_turn(1, 3);
    CHECK_STR(find("random_event", "lost")->text, "lost");
    CHECK_EQ(find("random_event", "lost")->value, 5);
    CHECK_EQ(s->rev.held, 0);
    end_turn(1, 3);
    CHECK_EQ(listed(0, NULL, true, NULL), 0);
}

/* 6: re-roll all misses in one Fire Combat this turn. */
static void t_reroll(void)
{
    load("",
         U("a1", "a", "line", 3, "E4") "," U("b1", "b", "line", 3, "E5") "," U(
             "b2", "b", "line", 3, "J5") "," U("a2", "a", "line", 3, "J4"),
         NULL, EV);
    end_turn(3, 1, 3, 3);
    CHECK_EQ(s->rev.held, 6);
    CHECK(listed(HA_FIRE, "b1", true, NULL) > 0);
    CHECK_EQ(listed(HA_MOVE, "b1", true, NULL), 0); /* fire only */
    force(5, 0, 2, 8, 7, 3); /* 8 hits; the 0 and 2 again: 7 hits, 3 misses */
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"b1\",\"target\":\"E4\",\"event\":true}"), 0);
    CHECK_EQ(find("roll", "fire")->hits, 1);
    const mk_event *r = find("roll", "event_reroll");
    CHECK_EQ(r->nvalues, 2);
    CHECK_EQ(r->values[0], 7);
    CHECK_EQ(r->hits, 1);
    CHECK_EQ(mp("a1"), 1);
    CHECK_EQ(s->rev.armed, 0);
    CHECK_EQ(listed(0, NULL, true, NULL), 0);
    /* the next fire combat: no re-roll */
    force(3, 0, 2, 8);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"b2\",\"target\":\"J4\"}"), 0);
    CHECK_EQ(index_of("roll", "event_reroll"), -1);
    CHECK_EQ(mp("a2"), 2);
}

/* 7: one Unit rolls one extra combat die this turn. */
static void t_extra_die(void)
{
    load("",
         U("a1", "a", "line", 3, "E4") "," U("b1", "b", "line", 3, "E5") "," U(
             "b2", "b", "line", 3, "J5") "," U("a2", "a", "line", 3, "J4"),
         NULL, EV);
    end_turn(3, 1, 3, 4);
    CHECK_EQ(s->rev.held, 7);
    CHECK(listed(HA_FIRE, "b1", true, NULL) > 0);
    CHECK(listed(HA_CLOSE, "b1", true, NULL) > 0);
    force(4, 0, 0, 0, 0);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"b1\",\"target\":\"E4\",\"event\":true}"), 0);
    CHECK_EQ(find("roll", "fire")->nvalues, 4); /* 3 + 1 */
    CHECK_EQ(s->rev.die_unit, uid("b1"));
    force(3, 0, 0, 0);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"b2\",\"target\":\"J4\"}"), 0);
    CHECK_EQ(find("roll", "fire")->nvalues, 3); /* the other unit: no */
    end_turn(1, 3);
    CHECK_EQ(s->rev.die_unit, -1); /* this turn only */
}

/* 8: an enemy unit may not be activated during its side's next turn. */
static void t_pin(void)
{
    load("",
         U("a1", "a", "line", 3, "E4") "," U("a2", "a", "line", 3, "A1") "," U("b1", "b", "line", 3,
                                                                               "K8"),
         NULL, EV);
    end_turn(3, 1, 4, 4);
    CHECK_EQ(s->pending, HP_EVENT_UNIT);
    CHECK(choice_listed(NULL, "a1"));
    CHECK(choice_listed(NULL, "a2"));
    CHECK(!choice_listed(NULL, "b1"));
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"a1\"}"), 0);
    CHECK_EQ(s->rev.frozen, uid("a1"));
    CHECK(listed(HA_MOVE, "b1", false, NULL) > 0); /* b's turn goes on */
    end_turn(1, 3);                                /* Turn 2, a */
    CHECK_EQ(listed(0, "a1", false, NULL), 0);
    CHECK(listed(HA_MOVE, "a2", false, NULL) > 0);
    CHECK(act("{\"type\":\"move\",\"unit\":\"a1\",\"path\":[\"E3\"]}") != 0);
    end_turn(1, 3); /* Turn 2, b */
    CHECK_EQ(s->rev.frozen, -1);
    end_turn(1, 3); /* Turn 3, a: free again */
    CHECK(listed(HA_MOVE, "a1", false, NULL) > 0);
}

/* 9: one Unit may move through stopping terrain without stopping. */
static void t_no_stop(void)
{
    const char *woods = "\"A4\":\"woods\",\"B5\":\"woods\",\"A6\":\"woods\"";
    load(woods, U("a1", "a", "line", 3, "L1") "," U("bd", "b", "dragoon", 3, "A5"), NULL, EV);
    end_turn(1, 3);
    CHECK(move_to("bd", "B5", false));
    CHECK(!move_to("bd", "C5", false)); /* woods stop it */
    end_turn(1, 3);
    end_turn(3, 1, 4, 5); /* b, Turn 2: 9 */
    CHECK_EQ(s->rev.held, 9);
    CHECK(move_to("bd", "C5", true));
    CHECK(move_to("bd", "D5", true));
    CHECK(!move_to("bd", "B5", true)); /* a plain move gets there */
    int c = 0;
    CHECK(listed(HA_MOVE, "bd", true, &c) > 0);
    CHECK_EQ(c, 1); /* its CAP cost */
    CHECK_EQ(apply_listed(HA_MOVE, "bd", "D5", true), 0);
    CHECK_EQ(s->u[uid("bd")].hex, hx("D5"));
    CHECK_EQ(listed(0, NULL, true, NULL), 0);
    /* unused: lost at the end of the turn */
    load(woods, U("a1", "a", "line", 3, "L1") "," U("bd", "b", "dragoon", 3, "A5"), NULL, EV);
    end_turn(3, 1, 4, 5);
    CHECK(move_to("bd", "C5", true));
    end_turn(1, 3);
    end_turn(1, 3);
    CHECK(!move_to("bd", "C5", true));
    CHECK(!move_to("bd", "C5", false));
}

/* 10: with Combat at R1 the attacker chooses who fires first in one fire
 * combat; without it, no event. */
static void t_fire_order(void)
{
    const char *units = U("a1", "a", "line", 3, "E4") "," U("b1", "b", "line", 3, "E5");
    load("", units, NULL, EV);
    end_turn(3, 1, 4, 6);
    CHECK_EQ(s->rev.held, 0);
    CHECK_STR(find("random_event", "no_event")->text, "no_event");

    uint64_t r1 = EV | 1ull << HO_COMBAT_R1;
    load("", units, NULL, r1);
    end_turn(3, 1, 4, 6);
    CHECK_EQ(s->rev.held, 10);
    CHECK(listed(HA_FIRE, "b1", true, NULL) > 0);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"b1\",\"target\":\"E4\",\"event\":true}"), 0);
    CHECK_EQ(s->pending, HP_R1_ORDER);
    CHECK_EQ(s->to_move, 1); /* the attacker decides, not the inactive player */
    force(6, 0, 0, 0, 6, 6, 6);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"second\"}"), 0);
    int back = index_of("roll", "r1_fire"), fire = index_of("roll", "fire");
    CHECK(back >= 0 && fire > back);        /* the defenders first */
    CHECK_EQ(ev.ev[fire].mods[0].value, 1); /* second: +1 */
    CHECK_EQ(s->u[uid("a1")].hex, -1);

    load("", units, NULL, r1);
    end_turn(3, 1, 4, 6);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"b1\",\"target\":\"E4\",\"event\":true}"), 0);
    force(6, 0, 0, 0, 0, 0, 0);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"first\"}"), 0);
    back = index_of("roll", "r1_fire");
    fire = index_of("roll", "fire");
    CHECK(fire >= 0 && back > fire); /* the attacker first */

    /* without the event the inactive player decides, as before */
    load("", units, NULL, r1);
    end_turn(1, 3);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"b1\",\"target\":\"E4\"}"), 0);
    CHECK_EQ(s->pending, HP_R1_ORDER);
    CHECK_EQ(s->to_move, 0);
}

/* 11: one Unit rallies for free without a leader. */
static void t_free_rally(void)
{
    const char *units =
        U("a1", "a", "line", 3, "A1") ","
                                      "{\"id\":\"b1\",\"side\":\"b\",\"kind\":\"line\",\"mp\":2,"
                                      "\"mp_start\":3,\"hex\":\"H5\"},"
                                      "{\"id\":\"b2\",\"side\":\"b\",\"kind\":\"artillery\",\"mp\":"
                                      "2,\"mp_start\":3,\"hex\":"
                                      "\"J5\"}," U("b3", "b", "line", 3, "K5");
    load("", units, NULL, EV);
    end_turn(3, 1, 5, 6);
    CHECK_EQ(s->rev.held, 11);
    int c = 9;
    CHECK_EQ(listed(HA_RALLY, "b1", true, &c), 1);
    CHECK_EQ(c, 0);
    CHECK_EQ(listed(HA_RALLY, "b2", true, NULL), 0); /* Cannon */
    CHECK_EQ(listed(HA_RALLY, "b3", true, NULL), 0); /* not reduced */
    mk_action l[MK_MAX_ACTIONS];
    int n = rs->legal(s, sc, l, MK_MAX_ACTIONS);
    for (int i = 0; i < n; i++)
        if (l[i].type == HA_RALLY) { /* the JSON has no leader, and reads back */
            json_t *j = rs->action_json(s, sc, &l[i]);
            mk_action back;
            mk_error err = {0};
            CHECK(json_object_get(j, "leader") == NULL);
            CHECK_EQ(rs->action_parse(s, sc, j, &back, &err), 0);
            CHECK(mk_action_equal(&back, &l[i]));
            json_decref(j);
        }
    CHECK_EQ(act("{\"type\":\"rally\",\"unit\":\"b1\",\"event\":true}"), 0);
    CHECK_EQ(mp("b1"), 3);
    CHECK_EQ(s->cap, 5 + 1);
    CHECK_EQ(listed(0, "b1", false, NULL), 0); /* it has acted */
    /* next to an enemy: not offered */
    load("",
         U("a1", "a", "line", 3,
           "H4") ","
                 "{\"id\":\"b1\",\"side\":\"b\",\"kind\":\"line\",\"mp\":2,\"mp_start\":3,\"hex\":"
                 "\"H5\"}",
         NULL, EV);
    end_turn(3, 1, 5, 6);
    CHECK_EQ(s->rev.held, 11);
    CHECK_EQ(listed(HA_RALLY, "b1", true, NULL), 0);
}

/* 12: an enemy unit acts as b's own for one action at no CAP (friendly
 * fire); its owner may activate it on the following turn. */
static void t_turncoat(void)
{
    const char *units = U("a1", "a", "line", 3, "E5") "," U("a2", "a", "line", 3, "F5") "," U(
        "b1", "b", "line", 3, "D5") "," U("b2", "b", "line", 3, "K9");
    load("", units, NULL, EV);
    end_turn(3, 1, 6, 6);
    CHECK_EQ(s->rev.held, 12);
    mk_action l[MK_MAX_ACTIONS];
    int n = rs->legal(s, sc, l, MK_MAX_ACTIONS), fire_a2 = 0, fire_b1 = 0, moves = 0;
    for (int i = 0; i < n; i++) {
        if (l[i].unit != uid("a1"))
            continue;
        CHECK(l[i].flags & HF_EVENT);
        CHECK_EQ(l[i].cost, 0);
        fire_a2 += l[i].type == HA_FIRE && l[i].target == hx("F5");
        fire_b1 += l[i].type == HA_FIRE && l[i].target == hx("D5");
        moves += l[i].type == HA_MOVE;
    }
    CHECK_EQ(fire_a2, 1); /* at its own side's unit */
    CHECK_EQ(fire_b1, 0); /* not at b's: it acts for b */
    CHECK(moves > 0);
    force(3, 9, 9, 0);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"a1\",\"target\":\"F5\",\"event\":true}"), 0);
    CHECK_EQ(mp("a2"), 1);
    CHECK_EQ(s->cap, 5 + 1);  /* no CAP */
    CHECK_EQ(s->rev.ctl, -1); /* the action is over */
    CHECK_EQ(listed(0, "a1", false, NULL), 0);
    CHECK_EQ(listed(0, "a1", true, NULL), 0);
    CHECK(listed(HA_FIRE, "b1", false, NULL) > 0);
    end_turn(1, 3); /* a's turn: a1 is a's again */
    CHECK(listed(HA_FIRE, "a1", false, NULL) > 0);
    CHECK(listed(HA_MOVE, "a1", false, NULL) > 0);
    /* a move of the enemy unit; unused: lost */
    load("", units, NULL, EV);
    end_turn(3, 1, 6, 6);
    CHECK_EQ(act("{\"type\":\"move\",\"unit\":\"a1\",\"path\":[\"E6\"],\"event\":true}"), 0);
    CHECK_EQ(s->u[uid("a1")].hex, hx("E6"));
    CHECK_EQ(s->active, 1);
    load("", units, NULL, EV);
    end_turn(3, 1, 6, 6);
    end_turn(1, 3);
    CHECK_EQ(s->rev.held, 0);
    CHECK_EQ(listed(0, NULL, true, NULL), 0);
}

/* The events and the options that need a decision, over the JSON. */
static void t_json(void)
{
    load("", U("a1", "a", "line", 3, "E4") "," U("b1", "b", "line", 3, "E5"), NULL, EV);
    end_turn(3, 1, 6, 6);
    json_t *j = rs->state_json(s, sc);
    json_t *re = json_object_get(j, "random_events");
    CHECK_EQ(json_integer_value(json_object_get(json_object_get(re, "held"), "result")), 12);
    CHECK_EQ(json_integer_value(json_object_get(re, "swamp_tiles_left")), 2);
    json_decref(j);
    mk_error err = {0};
    char buf[1024];
    snprintf(buf, sizeof buf,
             "{\"ruleset\":\"hm\",\"id\":\"hm/t\",\"title\":\"t\",\"map\":{\"orientation\":"
             "\"pointy\",\"shifted\":\"even\",\"cols\":13,\"rows\":9,\"terrain\":{}},\"sides\":[{"
             "\"id\":\"a\",\"cap\":4,\"home\":\"north\"},{\"id\":\"b\",\"cap\":5,\"home\":"
             "\"south\"}],\"first\":\"a\",\"turns\":3,\"swamp_tiles\":9,"
             "\"units\":[%s]}",
             U("a1", "a", "line", 3, "E4"));
    int nr;
    const mk_ruleset *const *all = mk_rulesets(&nr);
    mk_scenario *x = mk_scenario_parse(buf, strlen(buf), "(test)", all, nr, &err);
    CHECK(x == NULL);
    CHECK(strstr(err.msg, "swamp_tiles") != NULL);
    if (x)
        mk_scenario_free(x);
}

int main(void)
{
    t_off();
    t_swamp();
    t_cannon();
    t_weather();
    t_free();
    t_reroll();
    t_extra_die();
    t_pin();
    t_no_stop();
    t_fire_order();
    t_free_rally();
    t_turncoat();
    t_json();
    if (sc)
        mk_scenario_free(sc);
    return check_done("test_hm_events");
}
