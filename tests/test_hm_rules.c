/* test_hm_rules.c - Horse & Musket: one small position per rule, with
 * forced dice, named by its section of the rulebook (H&M 2-12) and by the
 * optional rule it switches (H&M 15), each rule on and off.
 *
 * Positions are inline scenarios on the 13 x 9 map (pointy, even rows
 * shifted right). E5 touches D5, F5, D4, E4, D6, E6. The CAP of the
 * active side is set by hand after init where a test needs more. */

#include "hm_fixture.h"

static const char *top_extra = ""; /* top-level scenario fields, e.g. nationalities */

static void load(const char *chart, const char *terrain, const char *units, const char *extra,
                 uint64_t options)
{
    hm_load(chart, terrain, units, extra, top_extra, options);
}
#define L(id, side, rating, hex, extra)                                                            \
    "{\"id\":\"" id "\",\"side\":\"" side "\",\"kind\":\"leader\",\"rating\":" #rating             \
    ",\"hex\":\"" hex "\"" extra "}"

static const mk_event *find(const char *type, const char *purpose)
{
    for (int i = 0; i < ev.n; i++)
        if (strcmp(ev.ev[i].type, type) == 0 &&
            (!purpose || (ev.ev[i].purpose && strcmp(ev.ev[i].purpose, purpose) == 0)))
            return &ev.ev[i];
    static mk_event none;
    memset(&none, 0, sizeof none);
    return &none;
}

/* How many listed actions of a type (and unit, -1 any) and their least cost. */
static int listed(int type, const char *unit, int *mincost)
{
    mk_action l[MK_MAX_ACTIONS];
    int n = rs->legal(s, sc, l, MK_MAX_ACTIONS), c = 0, m = 99;
    for (int i = 0; i < n; i++)
        if (l[i].type == type && (!unit || l[i].unit == uid(unit))) {
            c++;
            if (l[i].cost < m)
                m = l[i].cost;
        }
    if (mincost)
        *mincost = m;
    return c;
}

/* H&M 2, 4: stacking two units of different classes, within the terrain's limit. */
static void t_stacking(void)
{
    load("small", "\"F5\":\"river\"",
         U("m1", "a", "militia", 2, "E5") "," U("m2", "a", "militia", 2, "E4") "," U(
             "d1", "a", "dragoon", 2, "D5") "," U("z", "b", "line", 3, "L9"),
         NULL, 0);
    CHECK(act("{\"type\":\"move\",\"unit\":\"m2\",\"path\":[\"E5\"]}") != 0); /* same class */
    CHECK_EQ(act("{\"type\":\"move\",\"unit\":\"d1\",\"path\":[\"E5\"]}"),
             0); /* militia + dragoon */
    CHECK(at("d1", "E5"));
    CHECK_EQ(act("{\"type\":\"move\",\"unit\":\"m2\",\"path\":[\"F5\"]}"), 0); /* river: stack 1 */
    CHECK(act("{\"type\":\"move\",\"unit\":\"m1\",\"path\":[\"F5\"]}") != 0);
}

/* H&M 7: movement rates, stop terrain, leaders move for 0 CAP. */
static void t_movement(void)
{
    load("small", "\"H5\":\"river\",\"H6\":\"bridge\"",
         U("c", "a", "cavalry", 3, "E5") "," U("sk", "a", "skirmisher", 2, "E7") "," U(
             "sa", "a", "siege_artillery", 2, "B2") "," L("l", "a", 1, "A1",
                                                          "") "," U("z", "b", "line", 3, "L9"),
         NULL, 0);
    CHECK(act("{\"type\":\"move\",\"unit\":\"c\",\"path\":[\"F5\",\"G5\",\"H5\",\"I5\"]}") != 0);
    CHECK(act("{\"type\":\"move\",\"unit\":\"c\",\"path\":[\"F5\",\"G5\",\"H5\"]}") == 0);
    CHECK_EQ(s->cap, 9);
    CHECK(act("{\"type\":\"move\",\"unit\":\"sk\",\"path\":[\"F7\",\"G7\",\"H7\"]}") != 0);
    CHECK(act("{\"type\":\"move\",\"unit\":\"sk\",\"path\":[\"F7\",\"G7\"]}") == 0);
    CHECK_EQ(listed(HA_MOVE, "sa", NULL), 0);
    CHECK(act("{\"type\":\"move\",\"unit\":\"l\",\"path\":[\"B1\",\"C1\",\"D1\",\"E1\"]}") == 0);
    CHECK_EQ(s->cap, 8);
    /* one action per unit a turn (H&M 6) */
    CHECK(act("{\"type\":\"move\",\"unit\":\"c\",\"path\":[\"H6\"]}") != 0);
}

/* H&M 7, 9: a leader alone in a hex an enemy unit enters goes to the nearest friendly unit. */
static void t_leader_alone(void)
{
    load("small", "",
         U("c", "a", "cavalry", 3, "E5") "," L("bl", "b", 1, "G5", "") "," U(
             "z", "b", "line", 3, "L9") "," U("y", "b", "line", 3, "G8"),
         NULL, 0);
    CHECK_EQ(act("{\"type\":\"move\",\"unit\":\"c\",\"path\":[\"F5\",\"G5\"]}"), 0);
    CHECK(at("bl", "G8"));
    CHECK(at("c", "G5"));
}

/* H&M 6: the d6 CAP table; H&M 9: CAP storage up to the AC's rating, the AC's discount. */
static void t_cap(void)
{
    load("small", "",
         U("m", "a", "militia", 2,
           "E5") "," L("ac", "a", 2, "E5", ",\"commander\":true") "," U("z", "b", "line", 3, "L9"),
         NULL, 0);
    int c;
    CHECK(listed(HA_MOVE, "m", &c) > 0);
    CHECK_EQ(c, 0); /* 1 CAP less with the AC */
    s->cap = 1;
    CHECK_EQ(hm_store_max(s, sc), 1);
    s->cap = 5;
    CHECK_EQ(hm_store_max(s, sc), 2);
    CHECK_EQ(act("{\"type\":\"move\",\"unit\":\"m\",\"path\":[\"E4\"],\"discount\":true}"), 0);
    CHECK_EQ(s->cap, 5);
    CHECK_EQ(s->discount_used, 1);
    force(1, 1); /* b's CAP: 5 + 1 */
    CHECK_EQ(act("{\"type\":\"end_turn\",\"store\":2}"), 0);
    CHECK_EQ(s->stored[0], 2);
    CHECK_EQ(s->cap, 6);
    force(1, 4); /* a's turn 2: 4 + 2 stored + 2 */
    CHECK_EQ(act("{\"type\":\"end_turn\"}"), 0);
    CHECK_EQ(s->turn, 2);
    CHECK_EQ(s->cap, 8);
    /* an AC that moved stores nothing */
    CHECK_EQ(act("{\"type\":\"move\",\"unit\":\"ac\",\"path\":[\"E4\"]}"), 0);
    CHECK_EQ(hm_store_max(s, sc), 0);
}

/* H&M 8 Combat in General: natural 9 always hits, natural 0 always misses, dice counts. */
static void t_dice(void)
{
    load("small", "\"F5\":\"town\"",
         U("li", "a", "line", 2, "E5") "," U("z", "b", "militia", 2, "F5") "," U(
             "el", "a", "elite", 2, "E6") "," U("hl", "a", "highlander", 1,
                                                "F6") "," U("y", "b", "militia", 2, "L9"),
         NULL, 0);
    force(2, 9, 8); /* line at 2 MP: 2 dice; 7+, -1 town: 9 hits, 8 (7) hits */
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"li\",\"target\":\"F5\"}"), 0);
    CHECK_EQ(find("roll", "fire")->nvalues, 2);
    CHECK_EQ(find("roll", "fire")->hits, 2);
    CHECK_EQ(s->u[uid("z")].hex, -1);
    load("small", "\"F5\":\"river\"",
         U("li", "a", "line", 3, "E5") "," U("z", "b", "militia", 2, "F5") "," U(
             "el", "a", "elite", 2, "E6") "," U("hl", "a", "highlander", 1,
                                                "F6") "," U("y", "b", "militia", 2, "L9"),
         NULL, 0);
    force(3, 0, 6, 2); /* +1 river: 0 (natural miss), 6 -> 7 hit, 2 miss */
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"li\",\"target\":\"F5\"}"), 0);
    CHECK_EQ(find("roll", "fire")->nvalues, 3);
    CHECK_EQ(find("roll", "fire")->hits, 1);
    force(3, 1, 1, 1); /* elite at 2 MP, R1: 2 + 1 = 3 dice */
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"el\",\"target\":\"F5\"}"), 0);
    CHECK_EQ(find("roll", "fire")->nvalues, 3);
    force(3, 1, 1, 1); /* Highlanders at 1 MP keep three dice */
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"hl\",\"target\":\"F5\"}"), 0);
    CHECK_EQ(find("roll", "fire")->nvalues, 3);
}

/* H&M 8: the nearest target, except for Cannon; R3 immunity at 1 MP; LOS. */
static void t_targets(void)
{
    load("small", "\"F3\":\"woods\"",
         U("li", "a", "line", 3, "E5") "," U("ar", "a", "artillery", 2, "E4") "," U(
             "n", "b", "militia", 2, "F5") "," U("far", "b", "militia", 1,
                                                 "G3") "," U("r3", "b", "militia", 1, "H4"),
         NULL, 0);
    CHECK(act("{\"type\":\"fire\",\"unit\":\"li\",\"target\":\"G3\"}") != 0); /* not the nearest */
    /* artillery E4: F5 at R1, G3 at R2 (LOS through F3 woods? the line runs E4-F3/F4-G3) */
    force(3, 9, 9, 9);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"ar\",\"target\":\"H4\"}"), 0); /* R3: cannon may */
    CHECK_EQ(find("roll", "fire")->hits, 3);
    CHECK_EQ(mp("r3"), 1); /* immune at 1 MP at R3 */
    CHECK(s->u[uid("r3")].hex >= 0);
    CHECK(find("immune", NULL)->type != NULL);
}

/* H&M 8 Fire Combat special cases: Dragoons withdraw (as 4 MP); the
 * attacker re-targets (retarget 1) or takes no other target, the CAP
 * spent (0). */
static void t_fire_withdraw(void)
{
    for (int retarget = 1; retarget >= 0; retarget--) {
        load("small", "",
             U("li", "a", "line", 3, "E5") "," U("d", "b", "dragoon", 1,
                                                 "F5") "," U("m", "b", "militia", 2, "D4"),
             NULL, 0);
        CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"li\",\"target\":\"F5\"}"), 0);
        CHECK_EQ(s->pending, HP_REACT);
        CHECK_EQ(s->to_move, 1);
        force(1, 4); /* 4 <= 4: passes although at 1 MP */
        CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"withdraw\"}"), 0);
        const mk_event *r = find("reaction", NULL); /* announced, and logged (issue 4) */
        CHECK(r && r->unit == uid("d") && r->other == uid("li") && r->text &&
              strcmp(r->text, "withdraw") == 0 && r->rule && strncmp(r->rule, "H&M 8", 5) == 0);
        CHECK_EQ(s->pending, HP_WD_HEX);
        CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"G5\"}"), 0);
        CHECK(at("d", "G5"));
        CHECK_EQ(s->pending, HP_RETARGET); /* D4 militia is now the only R1 target */
        if (retarget) {
            force(3, 1, 1, 1);
            CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"D4\"}"), 0);
            CHECK_EQ(s->pending, HP_NONE);
            CHECK_EQ(s->cap, 9);
        } else {   /* the log says so */
            CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"no\"}"), 0);
            CHECK_EQ(s->pending, HP_NONE);
            const mk_event *d = find("decline", NULL);
            CHECK(d && d->unit == uid("li") && d->text && strcmp(d->text, "fire_at_another_target") == 0 &&
                  d->rule && strncmp(d->rule, "H&M 8", 5) == 0);
            CHECK(at("m", "D4"));
        }
    }
}

/* H&M 8 Close Combat: failed morale -> no defensive fire, retreat, mandatory advance. */
static void t_close(void)
{
    load("small", "",
         U("li", "a", "line", 3, "E5") "," U("z", "b", "line", 2, "F5") "," U("y", "b", "militia",
                                                                              2, "L9"),
         NULL, 0);
    force(4, 5, 7, 1, 1); /* morale 5 > 2 fails; 7 hits */
    CHECK_EQ(act("{\"type\":\"close_combat\",\"unit\":\"li\",\"target\":\"F5\"}"), 0);
    CHECK_EQ(s->cap, 8);
    CHECK_EQ(find("roll", "defensive_fire")->nvalues, 0);
    CHECK_EQ(mp("z"), 1);
    CHECK_EQ(s->pending, HP_RETREAT);
    CHECK(act("{\"type\":\"choose\",\"choice\":\"E4\"}") != 0); /* not away from E5 */
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"G5\"}"), 0);
    CHECK(at("z", "G5"));
    CHECK(at("li", "F5")); /* must advance */
    /* passed morale: defensive fire, no retreat */
    load("small", "", U("li", "a", "line", 3, "E5") "," U("z", "b", "line", 3, "F5"), NULL, 0);
    force(7, 1, 9, 9, 9, 1, 1, 1);
    CHECK_EQ(act("{\"type\":\"close_combat\",\"unit\":\"li\",\"target\":\"F5\"}"), 0);
    CHECK_EQ(find("roll", "defensive_fire")->hits, 3);
    CHECK_EQ(s->u[uid("li")].hex, -1);
    CHECK(at("z", "F5"));
}

/* H&M 8: infantry close combat on a Light Footman: withdraw; the attacker advances. */
static void t_close_withdraw(void)
{
    load("small", "",
         U("li", "a", "line", 3, "E5") "," U("m", "b", "militia", 2,
                                             "F5") "," U("y", "b", "militia", 2, "L9"),
         NULL, 0);
    CHECK_EQ(act("{\"type\":\"close_combat\",\"unit\":\"li\",\"target\":\"F5\"}"), 0);
    CHECK_EQ(s->pending, HP_REACT);
    force(1, 2);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"withdraw\"}"), 0);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"G5\"}"), 0);
    CHECK(at("m", "G5"));
    CHECK(at("li", "F5"));
    CHECK_EQ(mp("m"), 2); /* G5 was not next to an enemy when it withdrew */
}

/* H&M 8 No Retreat: blocked all round, the unit loses 1 MP and stays. */
static void t_no_retreat(void)
{
    load("small", "",
         U("li", "a", "line", 3, "B1") "," U("z", "b", "militia", 2, "A1") "," U(
             "q", "a", "line", 3, "A2") "," U("y", "b", "militia", 2, "L9"),
         NULL, 0);
    CHECK_EQ(act("{\"type\":\"close_combat\",\"unit\":\"li\",\"target\":\"A1\"}"), 0);
    CHECK_EQ(s->pending, HP_REACT); /* infantry on a Light Footman: withdraw or stand */
    force(4, 5, 1, 1, 1);           /* militia: morale fails; all miss */
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"stand\"}"), 0);
    CHECK_EQ(s->pending, HP_NONE);
    CHECK_EQ(mp("z"), 1);
    CHECK(at("z", "A1"));
    CHECK(find("no_retreat", NULL)->type != NULL);
}

/* H&M 8 Charge: per-class reactions, countercharge, withdraw DRMs and the equal roll,
 * the clear-terrain bonus, no charge when adjacent, LOS. */
static void t_charge(void)
{
    const char *units = U("c", "a", "cavalry", 3, "C5") "," U("e", "b", "cavalry", 3, "E5") "," U(
        "y", "b", "militia", 2, "L9");
    load("small", "", units, NULL, 0);
    CHECK_EQ(act("{\"type\":\"charge\",\"unit\":\"c\",\"path\":[\"D5\"],\"target\":\"E5\"}"), 0);
    CHECK_EQ(s->cap, 8);
    CHECK_EQ(s->pending, HP_REACT);
    force(7, 2, 4, 4, 4, 9, 1,
          1); /* countercharge passes; 4+1 clear -> 5 hits x3; counter 9 hits */
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"countercharge\"}"), 0);
    CHECK_EQ(find("roll", "charge")->hits, 3);
    CHECK_EQ(find("roll", "countercharge")->hits, 1);
    CHECK_EQ(s->u[uid("e")].hex, -1);
    CHECK_EQ(mp("c"), 2);
    CHECK(at("c", "E5")); /* advances into the vacated hex */
    /* dragoons withdraw: 4 MP, -1; a modified roll equal to 4 costs one hit */
    load("small", "",
         U("c", "a", "cavalry", 3, "C5") "," U("d", "b", "dragoon", 2,
                                               "E5") "," U("y", "b", "militia", 2, "L9"),
         NULL, 0);
    CHECK_EQ(act("{\"type\":\"charge\",\"unit\":\"c\",\"path\":[\"D5\"],\"target\":\"E5\"}"), 0);
    force(1, 5); /* 5 - 1 = 4 = morale: passes with a hit */
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"withdraw\"}"), 0);
    CHECK_EQ(mp("d"), 1);
    CHECK_EQ(s->pending, HP_WD_HEX);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"F5\"}"), 0);
    CHECK(at("c", "E5"));
    /* a charger adjacent to an enemy cannot charge; a militia target fails automatically */
    load("small", "",
         U("c", "a", "cavalry", 3, "C5") "," U("m", "b", "militia", 2,
                                               "D5") "," U("n", "b", "militia", 2, "E3"),
         NULL, 0);
    CHECK_EQ(listed(HA_CHARGE, "c", NULL), 0);
    load("small", "", U("c", "a", "cavalry", 3, "C5") "," U("m", "b", "militia", 2, "E5"), NULL, 0);
    force(3, 1, 1, 1);
    CHECK_EQ(act("{\"type\":\"charge\",\"unit\":\"c\",\"path\":[\"D5\"],\"target\":\"E5\"}"), 0);
    CHECK_EQ(find("morale", NULL)->passed, 0);
    CHECK_EQ(s->pending, HP_RETREAT);
    /* LOS blocked by a unit between: no charge at range 2 along that line */
    load("battles", "",
         U("c", "a", "cavalry", 3, "B5") "," U("w", "a", "line", 3, "C5") "," U("m", "b", "militia",
                                                                                2, "E5"),
         NULL, 0);
    CHECK_EQ(listed(HA_CHARGE, "c", NULL), 0); /* Battles: cavalry range 1 */
}

/* H&M 7 Ambush: irregulars in woods; 1-2 close combat dice; 6 costs the ambusher 1 MP. */
static void t_ambush(void)
{
    load("small", "\"G5\":\"woods\"",
         U("i", "b", "irregular", 2, "G5") "," U("li", "a", "line", 3, "E5"), NULL, 0);
    CHECK_EQ(act("{\"type\":\"move\",\"unit\":\"li\",\"path\":[\"F5\"]}"), 0);
    CHECK_EQ(s->pending, HP_AMBUSH);
    CHECK_EQ(s->to_move, 1);
    force(4, 1, 9, 9, 1);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"i\"}"), 0);
    CHECK_EQ(find("roll", "ambush")->passed, 1);
    CHECK_EQ(mp("li"), 1);
    CHECK_EQ(s->pending, HP_NONE);
    CHECK(s->u[uid("i")].flags & HU_AMBUSHED);
    load("small", "\"G5\":\"woods\"",
         U("i", "b", "irregular", 2, "G5") "," U("li", "a", "line", 3, "E5"), NULL, 0);
    CHECK_EQ(act("{\"type\":\"move\",\"unit\":\"li\",\"path\":[\"F5\"]}"), 0);
    force(1, 6);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"i\"}"), 0);
    CHECK_EQ(mp("i"), 1);
    /* not taken: the log says so, with its rule and the unit let pass */
    load("small", "\"G5\":\"woods\"",
         U("i", "b", "irregular", 2, "G5") "," U("li", "a", "line", 3, "E5"), NULL, 0);
    CHECK_EQ(act("{\"type\":\"move\",\"unit\":\"li\",\"path\":[\"F5\"]}"), 0);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"no\"}"), 0);
    CHECK(at("li", "F5") && mp("li") == 3 && s->pending == HP_NONE);
    const mk_event *d = find("decline", NULL);
    CHECK(d->text && strcmp(d->text, "ambush") == 0 && d->other == uid("li") && d->side == 1 && d->rule &&
          strcmp(d->rule, "H&M 7 Ambush") == 0);
    /* militia do not ambush */
    load("small", "\"G5\":\"woods\"",
         U("i", "b", "militia", 2, "G5") "," U("li", "a", "line", 3, "E5"), NULL, 0);
    CHECK_EQ(act("{\"type\":\"move\",\"unit\":\"li\",\"path\":[\"F5\"]}"), 0);
    CHECK_EQ(s->pending, HP_NONE);
}

/* An irregular in D5 fires first at the militia in E5 (three forced 1s), and is
 * asked where to move. */
static void skirmish_fire_first(void)
{
    load("small", "", U("i", "a", "irregular", 2, "D5") "," U("m", "b", "militia", 2, "E5"), NULL,
         0);
    force(3, 1, 1, 1);
    CHECK_EQ(act("{\"type\":\"skirmish\",\"unit\":\"i\",\"target\":\"E5\",\"fire_first\":true}"),
             0);
    CHECK_EQ(s->pending, HP_SK_MOVE);
}

/* H&M 7 Skirmish: move then fire, fire then move. */
static void t_skirmish(void)
{
    load("small", "", U("i", "a", "irregular", 2, "C5") "," U("m", "b", "militia", 2, "E5"), NULL,
         0);
    CHECK_EQ(act("{\"type\":\"skirmish\",\"unit\":\"i\",\"path\":[\"D5\"]}"), 0);
    CHECK_EQ(s->pending, HP_SK_FIRE);
    force(3, 9, 1, 1);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"E5\"}"), 0);
    CHECK_EQ(mp("m"), 1);
    CHECK_EQ(s->cap, 9);
    skirmish_fire_first();
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"C5\"}"), 0);
    CHECK(at("i", "C5"));
    /* either half declined is logged with its rule, as a taken one is */
    skirmish_fire_first();
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"no\"}"), 0);
    CHECK(at("i", "D5") && s->pending == HP_NONE);
    const mk_event *d = find("decline", NULL);
    CHECK(d->text && strcmp(d->text, "move_after_firing") == 0 && d->unit == uid("i") && d->rule &&
          strstr(d->rule, "H&M 7 Skirmish Action") != NULL);
    load("small", "", U("i", "a", "irregular", 2, "C5") "," U("m", "b", "militia", 2, "E5"), NULL,
         0);
    CHECK_EQ(act("{\"type\":\"skirmish\",\"unit\":\"i\",\"path\":[\"D5\"]}"), 0);
    CHECK_EQ(s->pending, HP_SK_FIRE);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"no\"}"), 0);
    CHECK_EQ(mp("m"), 2);
    d = find("decline", NULL);
    CHECK(d->text && strcmp(d->text, "fire_after_moving") == 0 && d->unit == uid("i"));
    /* militia cannot skirmish */
    load("small", "", U("i", "a", "militia", 2, "D5") "," U("m", "b", "militia", 2, "E5"), NULL, 0);
    CHECK_EQ(listed(HA_SKIRMISH, "i", NULL), 0);
}

/* H&M 9: leader casualty on a natural 5 (AMB-HM-9); VP by rating; base CAP -1. */
static void t_leader_casualty(void)
{
    load(
        "small", "",
        U("li", "a", "line", 3, "E5") "," U("z", "b", "line", 3, "F5") "," L("g", "b", 3, "F5", ""),
        NULL, 0);
    force(4, 5, 1, 1, 1); /* a 5 on the fire dice; the leader's d6: 1 */
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"li\",\"target\":\"F5\"}"), 0);
    CHECK_EQ(s->u[uid("g")].hex, -1);
    CHECK_EQ(s->vp2[0], 4); /* rating 3: 2 VP */
    CHECK_EQ(s->leaders_lost[1], 1);
    force(1, 1);
    CHECK_EQ(act("{\"type\":\"end_turn\"}"), 0);
    CHECK_EQ(s->cap, 5 - 1 + 1);
}

/* H&M 9 Rally: +1 MP, not next to an enemy, not Cannon; 0 CAP for a charismatic leader. */
static void t_rally(void)
{
    load("small", "",
         U("m", "a", "militia", 1, "E5") "," L("l", "a", 1, "E5", ",\"charismatic\":true") "," U(
             "ar", "a", "artillery", 1, "B2") "," L("k", "a", 1, "B2", "") "," U("z", "b", "line",
                                                                                 3, "L9"),
         NULL, 0);
    /* mp 1 but mp_start is 1: no rally; reload with mp_start 2 */
    CHECK_EQ(listed(HA_RALLY, "m", NULL), 0);
    load("small", "",
         "{\"id\":\"m\",\"side\":\"a\",\"kind\":\"militia\",\"mp\":1,\"mp_start\":2,\"hex\":\"E5\"}"
         "," L("l", "a", 1, "E5",
               ",\"charismatic\":true") ","
                                        "{\"id\":\"ar\",\"side\":\"a\",\"kind\":\"artillery\","
                                        "\"mp\":1,\"mp_start\":2,\"hex\":\"B2\"}," L(
                                            "k", "a", 1, "B2", "") "," U("z", "b", "line", 3, "L9"),
         NULL, 0);
    int c;
    CHECK_EQ(listed(HA_RALLY, "m", &c), 1);
    CHECK_EQ(c, 0);
    CHECK_EQ(listed(HA_RALLY, "ar", NULL), 0); /* not Cannon */
    CHECK_EQ(act("{\"type\":\"rally\",\"unit\":\"m\",\"leader\":\"l\"}"), 0);
    CHECK_EQ(mp("m"), 2);
    CHECK_EQ(listed(HA_MOVE, "m", NULL), 0); /* it has acted */
}

/* H&M 10: half-VP units, hexes held, VP wins. */
static void t_victory(void)
{
    load("small", "",
         U("li", "a", "line", 3,
           "E5") ","
                 "{\"id\":\"z\",\"side\":\"b\",\"kind\":\"militia\",\"mp\":1,\"hex\":\"F5\",\"vp_"
                 "value\":0.5},"
                 "{\"id\":\"v\",\"side\":\"b\",\"kind\":\"vp\",\"hex\":\"D5\",\"vp_value\":1}," U(
                     "y", "b", "line", 3, "L9"),
         NULL, 0);
    force(3, 9, 1, 1);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"li\",\"target\":\"F5\"}"), 0);
    CHECK_EQ(s->vp2[0], 1);
    CHECK_EQ(hm_vp_now(s, sc, 0), 1);
    CHECK_EQ(s->pending, HP_ADVANCE);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"no\"}"), 0);
    s->u[uid("li")].hex = (int16_t)hx("D5");
    CHECK_EQ(hm_vp_now(s, sc, 0), 3); /* 0.5 + 1 for the hex held */
    s->vp_target2[0] = 3;
    force(1, 1);
    CHECK_EQ(act("{\"type\":\"end_turn\"}"), 0);
    CHECK(s->over);
    CHECK_EQ(s->winner, 0);
}

/* H&M 9: AC replacement after rolling CAP; Seize the Initiative. */
static void t_ac(void)
{
    load("small", "",
         U("m", "a", "militia", 2, "E5") "," L("w", "a", 2, "E5", "") "," U("z", "b", "line", 3,
                                                                            "L9"),
         NULL, 0);
    CHECK_EQ(s->ac[0], -1); /* no commander in the file, none lost: no replacement roll */
    CHECK_EQ(s->pending, HP_NONE);
    load("small", "",
         U("m", "a", "militia", 2, "E5") "," L("w", "a", 2, "E5", "") "," U(
             "z", "b", "line", 3, "L9") "," L("bc", "b", 2, "L9", ",\"commander\":true"),
         NULL, 0);
    s->ac[0] = -1;
    s->cap = 3;
    force(2, 5, 2); /* fails on 5, pays 1 CAP to retry: 2 succeeds */
    hm_ac_attempt(s, sc, &ev);
    CHECK_EQ(s->pending, HP_AC_RETRY);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"yes\"}"), 0);
    CHECK_EQ(s->ac[0], uid("w"));
    CHECK_EQ(s->cap, 2);
    CHECK_EQ(s->seize_left[0], 2);
    /* the retry refused: no AC, the CAP kept, and the log says so */
    s->ac[0] = -1;
    s->u[uid("w")].flags &= (uint8_t)~HU_TWICE;
    force(1, 5);
    hm_ac_attempt(s, sc, &ev);
    CHECK_EQ(s->pending, HP_AC_RETRY);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"no\"}"), 0);
    CHECK(s->ac[0] == -1 && s->cap == 2 && s->pending == HP_NONE);
    const mk_event *d = find("decline", NULL);
    CHECK(d->text && strcmp(d->text, "retry_ac_replacement") == 0 && d->side == 0 && d->rule &&
          strcmp(d->rule, "H&M 9 AC Replacement") == 0);
}

/* 15 Second Order (on/off). */
static void t_second_order(void)
{
    const char *u = U("m", "a", "militia", 2, "E5") "," U("z", "b", "line", 3, "L9");
    load("small", "", u, NULL, 0);
    CHECK_EQ(act("{\"type\":\"move\",\"unit\":\"m\",\"path\":[\"E4\"]}"), 0);
    CHECK_EQ(listed(HA_MOVE, "m", NULL), 0);
    load("small", "", u, NULL, 1ull << HO_SECOND_ORDER);
    CHECK_EQ(act("{\"type\":\"move\",\"unit\":\"m\",\"path\":[\"E4\"]}"), 0);
    CHECK(listed(HA_MOVE, "m", NULL) > 0);
    force(1, 1);
    CHECK_EQ(act("{\"type\":\"move\",\"unit\":\"m\",\"path\":[\"E3\"],\"second\":true}"), 0);
    CHECK(at("m", "E3"));
    CHECK_EQ(listed(HA_MOVE, "m", NULL), 0);
}

/* 15 Ammunition (on/off). */
static void t_ammo(void)
{
    const char *u = U("li", "a", "line", 3, "E5") "," U("z", "b", "line", 3, "F5");
    load("small", "", u, NULL, 0);
    force(3, 1, 2, 2);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"li\",\"target\":\"F5\"}"), 0);
    CHECK(!(s->u[uid("li")].flags & HU_AMMO));
    load("small", "", u, NULL, 1ull << HO_AMMUNITION);
    force(3, 1, 2, 2);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"li\",\"target\":\"F5\"}"), 0);
    CHECK(s->u[uid("li")].flags & HU_AMMO);
    s->u[uid("li")].acts = 0;
    force(2, 2, 2);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"li\",\"target\":\"F5\"}"), 0);
    CHECK_EQ(find("roll", "fire")->nvalues, 2);
    s->u[uid("li")].acts = 0;
    CHECK_EQ(act("{\"type\":\"resupply\",\"unit\":\"li\"}"), 0);
    CHECK(!(s->u[uid("li")].flags & HU_AMMO));
}

/* 15 Good Days and Bad Days (on/off). */
static void t_good_days(void)
{
    const char *u = U("m", "a", "militia", 2, "E5") "," L("l", "a", 2, "E5",
                                                          "") "," U("z", "b", "line", 3, "L9");
    load("small", "", u, NULL, 0);
    CHECK_EQ(s->u[uid("l")].mp, 2);
    int seen_change = 0;
    for (uint64_t seed = 1; seed < 40; seed++) {
        mk_error err = {0};
        memset(s, 0, sizeof *s);
        rs->init(s, sc, 1ull << HO_GOOD_DAYS, seed, NULL, &err);
        CHECK(s->u[uid("l")].mp >= 0 && s->u[uid("l")].mp <= 4);
        seen_change += s->u[uid("l")].mp != 2;
    }
    CHECK(seen_change > 0);
}

/* 15 Command Range and Locked in Combat (on/off): a failed check wastes the CAP. */
static void t_command(void)
{
    const char *u = U("m", "a", "militia", 2, "E5") "," L("l", "a", 0, "A1",
                                                          "") "," U("z", "b", "line", 3, "L9");
    load("small", "", u, NULL, 0);
    CHECK_EQ(act("{\"type\":\"move\",\"unit\":\"m\",\"path\":[\"E4\"]}"), 0);
    CHECK(at("m", "E4"));
    load("small", "", u, NULL, 1ull << HO_COMMAND_RANGE);
    force(1, 6);
    CHECK_EQ(act("{\"type\":\"move\",\"unit\":\"m\",\"path\":[\"E4\"]}"), 0);
    CHECK(at("m", "E5"));
    CHECK_EQ(s->cap, 9);
    const char *v = U("m", "a", "militia", 2, "E5") "," U("z", "b", "line", 3, "F5");
    load("small", "", v, NULL, 1ull << HO_LOCKED);
    force(1, 6);
    CHECK_EQ(act("{\"type\":\"move\",\"unit\":\"m\",\"path\":[\"D5\"]}"), 0);
    CHECK(at("m", "E5"));
    load("small", "", v, NULL, 0);
    CHECK_EQ(act("{\"type\":\"move\",\"unit\":\"m\",\"path\":[\"D5\"]}"), 0);
    CHECK(at("m", "D5"));
}

/* 15 Horsemen/Infantry Stacking (on/off): one die less. */
static void t_hi_stacking(void)
{
    const char *u = U("li", "a", "line", 3, "E5") "," U("d", "a", "dragoon", 3,
                                                        "E5") "," U("z", "b", "line", 3, "F5");
    load("small", "", u, NULL, 0);
    force(3, 1, 1, 1);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"li\",\"target\":\"F5\"}"), 0);
    CHECK_EQ(find("roll", "fire")->nvalues, 3);
    load("small", "", u, NULL, 1ull << HO_HI_STACKING);
    force(2, 1, 1);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"li\",\"target\":\"F5\"}"), 0);
    CHECK_EQ(find("roll", "fire")->nvalues, 2);

    /* an SSR by nationality: only the Saxon guns of side b are inferior */
    top_extra = ",\"nationalities\":{\"saxony\":{\"ssr\":[\"inferior-artillery\"]}}";
    load("small", "",
         U("ar", "b", "artillery", 2, "E5") "," "{\"id\":\"sx\",\"side\":\"b\",\"kind\":"
         "\"artillery\",\"mp\":2,\"hex\":\"G5\",\"nationality\":\"saxony\"}," U(
             "z", "a", "line", 3, "E7") "," U("w", "a", "line", 3, "G7") "," U("y", "a", "militia",
                                                                              2, "L1"),
         "", 0);
    top_extra = "";
    s->active = 1;
    force(3, 1, 1, 1);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"ar\",\"target\":\"E7\"}"), 0);
    CHECK_EQ(find("roll", "fire")->nvalues, 3);
    force(2, 1, 1);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"sx\",\"target\":\"G7\"}"), 0);
    CHECK_EQ(find("roll", "fire")->nvalues, 2);
}

/* 15 Subordinate Leadership (on/off). */
static void t_subordinate(void)
{
    const char *u = U("m", "a", "militia", 2, "E5") "," L("l", "a", 2, "E5",
                                                          "") "," U("z", "b", "line", 3, "L9");
    int c;
    load("small", "", u, NULL, 0);
    listed(HA_MOVE, "m", &c);
    CHECK_EQ(c, 1);
    load("small", "", u, NULL, 1ull << HO_SUBORDINATE);
    listed(HA_MOVE, "m", &c);
    CHECK_EQ(c, 0);
    force(1, 5); /* 5 > 2: the full cost */
    CHECK_EQ(act("{\"type\":\"move\",\"unit\":\"m\",\"path\":[\"E4\"],\"subordinate\":\"l\"}"), 0);
    CHECK_EQ(s->cap, 9);
}

/* 15 Leader Bonus Movement (on/off). */
static void t_leader_bonus(void)
{
    const char *u = U("m", "a", "militia", 2, "E5") "," L("l", "a", 2, "E5",
                                                          "") "," U("z", "b", "line", 3, "L9");
    load("small", "", u, NULL, 0);
    CHECK(act("{\"type\":\"move\",\"unit\":\"m\",\"path\":[\"E4\",\"E3\"],\"bonus\":true}") != 0);
    load("small", "", u, NULL, 1ull << HO_LEADER_BONUS);
    force(1, 2);
    CHECK_EQ(act("{\"type\":\"move\",\"unit\":\"m\",\"path\":[\"E4\",\"E3\"],\"bonus\":true}"), 0);
    CHECK(at("m", "E3"));
    load("small", "", u, NULL, 1ull << HO_LEADER_BONUS);
    force(1, 5);
    CHECK_EQ(act("{\"type\":\"move\",\"unit\":\"m\",\"path\":[\"E4\",\"E3\"],\"bonus\":true}"), 0);
    CHECK(at("m", "E4"));
}

/* 15 Charge Momentum (on/off). */
static void t_momentum(void)
{
    const char *u = U("c", "a", "cavalry", 3, "C5") "," U("m", "b", "militia", 2,
                                                          "E5") "," U("li", "b", "line", 3, "E4");
    load("small", "", u, NULL, 1ull << HO_MOMENTUM);
    force(3, 1, 1, 1);
    CHECK_EQ(act("{\"type\":\"charge\",\"unit\":\"c\",\"path\":[\"D5\"],\"target\":\"E5\"}"), 0);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"F5\"}"), 0);
    CHECK(at("c", "E5"));
    CHECK_EQ(s->pending, HP_MOMENTUM);
    force(4, 6, 1, 1, 1); /* the line fails its morale; the cavalry misses */
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"E4\"}"), 0);
    CHECK_EQ(s->cap, 7);
    CHECK_EQ(s->pending, HP_RETREAT);
    /* declined: no second charge, the CAP kept, logged with its rule */
    load("small", "", u, NULL, 1ull << HO_MOMENTUM);
    force(3, 1, 1, 1);
    CHECK_EQ(act("{\"type\":\"charge\",\"unit\":\"c\",\"path\":[\"D5\"],\"target\":\"E5\"}"), 0);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"F5\"}"), 0);
    CHECK_EQ(s->pending, HP_MOMENTUM);
    int cap = s->cap;
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"no\"}"), 0);
    CHECK(s->cap == cap && s->pending == HP_NONE && at("c", "E5"));
    const mk_event *d = find("decline", NULL);
    CHECK(d->text && strcmp(d->text, "charge_again") == 0 && d->unit == uid("c") && d->rule &&
          strcmp(d->rule, "H&M 15 Charge Momentum") == 0);
    load("small", "", u, NULL, 0);
    force(3, 1, 1, 1);
    CHECK_EQ(act("{\"type\":\"charge\",\"unit\":\"c\",\"path\":[\"D5\"],\"target\":\"E5\"}"), 0);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"F5\"}"), 0);
    CHECK_EQ(s->pending, HP_NONE);
}

/* 15 Leaders in Combat (on/off). */
static void t_leaders_combat(void)
{
    const char *u =
        U("li", "a", "line", 3, "E5") "," L("l", "a", 2, "E5", "") "," U("z", "b", "line", 3, "F5");
    load("small", "", u, NULL, 0);
    CHECK(act("{\"type\":\"fire\",\"unit\":\"li\",\"target\":\"F5\",\"leader_rolls\":true}") != 0);
    load("small", "", u, NULL, 1ull << HO_LEADERS_COMBAT);
    force(4, 1, 1, 1, 2);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"li\",\"target\":\"F5\",\"leader_rolls\":true}"), 0);
    CHECK_EQ(s->cap, 8);
    CHECK_EQ(find("roll", "leader_combat")->hits, 1);
    CHECK_EQ(mp("z"), 2);
    load("small", "", u, NULL, 1ull << HO_LEADERS_COMBAT);
    force(5, 1, 1, 1, 9, 0); /* a 9, then 0-2: the leader is eliminated */
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"li\",\"target\":\"F5\",\"leader_rolls\":true}"), 0);
    CHECK_EQ(s->u[uid("l")].hex, -1);
    CHECK_EQ(s->vp2[1], 2);
}

/* 15 Retreat in R1 Fire Combat (on/off). */
static void t_r1_retreat(void)
{
    const char *u = U("li", "a", "line", 3, "E5") "," U("z", "b", "line", 3, "F5");
    load("small", "", u, NULL, 1ull << HO_R1_RETREAT);
    force(3, 0, 1, 1);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"li\",\"target\":\"F5\"}"), 0);
    CHECK_EQ(s->pending, HP_R1_RETREAT);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"D5\"}"), 0);
    CHECK(at("li", "D5"));
    load("small", "", u, NULL, 0);
    force(3, 0, 1, 1);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"li\",\"target\":\"F5\"}"), 0);
    CHECK_EQ(s->pending, HP_NONE);
    CHECK(at("li", "E5"));
}

/* 15 Combat at R1 and its randomized variant (on/off). */
static void t_combat_r1(void)
{
    const char *u = U("li", "a", "line", 3, "E5") "," U("z", "b", "line", 3, "F5");
    load("small", "", u, NULL, 1ull << HO_COMBAT_R1);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"li\",\"target\":\"F5\"}"), 0);
    CHECK_EQ(s->pending, HP_R1_ORDER);
    CHECK_EQ(s->to_move, 1);
    force(6, 9, 9, 1, 1, 1, 1); /* the defender fires first: two hits; the attacker does not fire */
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"first\"}"), 0);
    CHECK_EQ(mp("li"), 1);
    CHECK_EQ(mp("z"), 3);
    CHECK_EQ(find("roll", "fire")->type, NULL);
    CHECK_EQ(mk_rng_forced_left(&s->head.rng), 3); /* the attacker's dice unused */
    load("small", "", u, NULL, 1ull << HO_COMBAT_R1);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"li\",\"target\":\"F5\"}"), 0);
    force(6, 7, 1, 1, 6, 1, 1); /* attacker first: 7 hits (one); they answer with +1: 6 -> 7 hits */
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"second\"}"), 0);
    CHECK_EQ(mp("z"), 2);
    CHECK_EQ(mp("li"), 2);
    CHECK_EQ(find("roll", "r1_fire")->nmods, 1);
    /* randomized: d6 + nationality, a tie goes to the inactive side */
    load("small", "", u, NULL, (1ull << HO_COMBAT_R1) | (1ull << HO_RANDOM_R1));
    force(8, 3, 3, 9, 9, 1, 1, 1, 1);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"li\",\"target\":\"F5\"}"), 0);
    CHECK_EQ(find("roll", "r1_order")->passed, 0);
    CHECK_EQ(mp("li"), 1);
    /* off: no return fire */
    load("small", "", u, NULL, 0);
    force(3, 1, 1, 1);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"li\",\"target\":\"F5\"}"), 0);
    CHECK_EQ(mp("li"), 3);
    CHECK_EQ(s->pending, HP_NONE);
    mk_error err = {0};
    CHECK(rs->check_options(1ull << HO_RANDOM_R1, &err) != 0);
}

/* 13 Line & Column and Line Formation & Terrain (on/off). */
static void t_line_column(void)
{
    const char *u =
        U("li", "a", "line", 3,
          "E5") ",{\"id\":\"z\",\"side\":\"b\",\"kind\":\"line\",\"mp\":3,"
                "\"hex\":\"F5\",\"formation\":\"column\"}," U("c", "a", "cavalry", 3, "B2");
    load("small", "", u, NULL, 0);
    force(3, 5, 1, 1); /* no modifiers: 5 misses */
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"li\",\"target\":\"F5\"}"), 0);
    CHECK_EQ(find("roll", "fire")->hits, 0);
    CHECK_EQ(listed(HA_FORMATION, "c", NULL), 0);
    load("small", "", u, NULL, 1ull << HO_LINE_COLUMN);
    force(3, 5, 1, 1); /* +1 infantry in line, +1 target in column: 5 -> 7 hits */
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"li\",\"target\":\"F5\"}"), 0);
    CHECK_EQ(find("roll", "fire")->nmods, 2);
    CHECK_EQ(find("roll", "fire")->hits, 1);
    /* in place, and inside a move (tests/test_hm_facing.c counts those) */
    CHECK(listed(HA_FORMATION, "c", NULL) > 1);
    CHECK_EQ(act("{\"type\":\"formation\",\"unit\":\"c\"}"), 0);
    CHECK_EQ(s->u[uid("c")].column, 1);
    CHECK_EQ(s->cap, 8);
    mk_error err = {0};
    CHECK(rs->check_options(1ull << HO_LINE_TERRAIN, &err) != 0);
    const char *v = U("li", "a", "line", 3, "E5") "," U("z", "b", "line", 3, "L9");
    load("small", "\"E4\":\"woods\"", v, NULL,
         (1ull << HO_LINE_COLUMN) | (1ull << HO_LINE_TERRAIN));
    force(1, 6);
    CHECK_EQ(act("{\"type\":\"move\",\"unit\":\"li\",\"path\":[\"E4\"]}"), 0);
    CHECK_EQ(mp("li"), 2);
    load("small", "\"E4\":\"woods\"", v, NULL, 1ull << HO_LINE_COLUMN);
    CHECK_EQ(act("{\"type\":\"move\",\"unit\":\"li\",\"path\":[\"E4\"]}"), 0);
    CHECK_EQ(mp("li"), 3);
}

/* H&M 11 Baggage/Supply Train: one hex for 2 CAP, not into river or swamp. */
static void t_baggage(void)
{
    load("small", "\"E4\":\"river\",\"D4\":\"bridge\"",
         "{\"id\":\"bg\",\"side\":\"a\",\"kind\":\"vp\",\"hex\":\"E5\",\"baggage\":true},"
         "{\"id\":\"v\",\"side\":\"a\",\"kind\":\"vp\",\"hex\":\"B5\"}," U("z", "b", "line", 3,
                                                                           "L9"),
         NULL, 0);
    CHECK(act("{\"type\":\"move\",\"unit\":\"bg\",\"path\":[\"E4\"]}") != 0);
    CHECK_EQ(listed(HA_MOVE, "v", NULL), 0);
    CHECK_EQ(act("{\"type\":\"move\",\"unit\":\"bg\",\"path\":[\"D4\"]}"), 0);
    CHECK(at("bg", "D4"));
    CHECK_EQ(s->cap, 8);
}

/* H&M 8 Displacement: a retreat into a full friendly hex moves the unit
 * there on; both check morale (1 MP on a failure). */
static void t_displacement(void)
{
    /* the militia in E5 is hit from D5; E5's only retreat hexes away from D5 are F5 (line
     * there, river: stack 1), E4 and E6 (enemy), F4 and F6 (blocked by enemies) */
    load("small", "\"F5\":\"river\"",
         U("c", "a", "line", 3, "D5") "," U("m", "b", "militia", 2, "E5") "," U(
             "f", "b", "line", 3,
             "F5") "," U("x1", "a", "militia", 2,
                         "E4") "," U("x2", "a", "militia", 2,
                                     "E6") "," U("x3", "a", "irregular", 2,
                                                 "F4") "," U("x4", "a", "irregular", 2, "F6"),
         NULL, 0);
    CHECK_EQ(act("{\"type\":\"close_combat\",\"unit\":\"c\",\"target\":\"E5\"}"), 0);
    CHECK_EQ(s->pending, HP_REACT);
    force(4, 6, 1, 1, 1); /* the militia fails; the line misses */
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"stand\"}"), 0);
    CHECK_EQ(s->pending, HP_RETREAT);
    /* displacement checks: the militia passes, the line fails; then both
     * check again for ending next to enemies (F4, E4; F4, F6): both pass */
    force(4, 1, 6, 1, 1);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"F5\"}"), 0);
    CHECK(at("m", "F5"));
    CHECK(at("f", "G5"));
    CHECK_EQ(mp("f"), 2);
    CHECK(at("c", "E5"));
}

/* c (D5) attacks m (E5), which fails and retreats into F5 (its owner's
 * choice), where a friendly unit must make room. */
static void retreat_into_f5(void)
{
    CHECK_EQ(act("{\"type\":\"close_combat\",\"unit\":\"c\",\"target\":\"E5\"}"), 0);
    force(4, 6, 1, 1, 1); /* the militia fails; the line misses */
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"stand\"}"), 0);
    CHECK_EQ(s->pending, HP_RETREAT);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"F5\"}"), 0);
}

/* H&M 8 Displacement, the owner's choices: which friendly unit makes room
 * (two could) and, when it has more than one hex to go to, where. */
static void t_displacement_choices(void)
{
    /* F5 clear, full: a line and a dragoon; F4 and F6 held by the enemy, so
     * each could only go on to G5 */
    load("small", "",
         U("c", "a", "line", 3, "D5") "," U("m", "b", "militia", 2, "E5") "," U(
             "f", "b", "line", 3, "F5") "," U("g", "b", "dragoon", 3, "F5") "," U(
             "x1", "a", "militia", 2, "E4") "," U("x2", "a", "militia", 2, "E6") "," U(
             "x3", "a", "irregular", 2, "F4") "," U("x4", "a", "irregular", 2, "F6"),
         NULL, 0);
    retreat_into_f5();
    CHECK_EQ(s->pending, HP_DISPLACE_UNIT);
    CHECK_EQ(s->to_move, 1); /* the owner of the units decides */
    CHECK_EQ(listed(HA_CHOOSE, NULL, NULL), 2);
    CHECK(at("m", "E5")); /* nothing has moved yet */
    CHECK(act("{\"type\":\"choose\",\"choice\":\"c\"}") != 0); /* not one of them */
    CHECK(act("{\"type\":\"choose\",\"choice\":\"G5\"}") != 0);
    force(4, 1, 1, 1, 1);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"g\"}"), 0);
    CHECK_EQ(s->pending, HP_NONE);
    CHECK(at("g", "G5"));
    CHECK(at("f", "F5"));
    CHECK(at("m", "F5"));
    CHECK_EQ(find("displaced", NULL)->unit, uid("g"));

    /* the same with F4 and F6 open: the dragoon picked could go to three
     * hexes, so the owner is asked where next, and the log says so */
    load("small", "",
         U("c", "a", "line", 3, "D5") "," U("m", "b", "militia", 2, "E5") "," U(
             "f", "b", "line", 3, "F5") "," U("g", "b", "dragoon", 3, "F5") "," U(
             "x1", "a", "militia", 2, "E4") "," U("x2", "a", "militia", 2, "E6"),
         NULL, 0);
    retreat_into_f5();
    CHECK_EQ(s->pending, HP_DISPLACE_UNIT);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"g\"}"), 0);
    CHECK_EQ(s->pending, HP_DISPLACE_HEX);
    const mk_event *dp = find("displacement", NULL);
    CHECK(dp && dp->unit == uid("m") && dp->other == uid("g") && dp->text &&
          strcmp(dp->text, "owner_chooses_where") == 0 && dp->rule && strcmp(dp->rule, "H&M 8 Displacement") == 0);
    force(4, 1, 1, 1, 1);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"F6\"}"), 0);
    CHECK_EQ(s->pending, HP_NONE);
    CHECK(at("g", "F6"));
    CHECK(at("m", "F5"));

    /* F5 river (stack 1) with one line; F4, F6 and G5 open: it is asked where */
    load("small", "\"F5\":\"river\"",
         U("c", "a", "line", 3, "D5") "," U("m", "b", "militia", 2, "E5") "," U(
             "f", "b", "line", 3, "F5") "," U("x1", "a", "militia", 2, "E4") "," U(
             "x2", "a", "militia", 2, "E6"),
         NULL, 0);
    retreat_into_f5();
    CHECK_EQ(s->pending, HP_DISPLACE_HEX);
    CHECK_EQ(s->to_move, 1);
    CHECK_EQ(listed(HA_CHOOSE, NULL, NULL), 3); /* F4, F6, G5: away from D5 */
    CHECK(act("{\"type\":\"choose\",\"choice\":\"E4\"}") != 0); /* toward the attacker */
    force(4, 1, 1, 1, 1);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"F6\"}"), 0);
    CHECK_EQ(s->pending, HP_NONE);
    CHECK(at("f", "F6"));
    CHECK(at("m", "F5"));
}

/* H&M 8: hits go one at a time to the highest MP; between two tied units
 * the owning player decides (asked each time they are tied). */
static void t_hit_ties(void)
{
    load("small", "",
         U("ar", "a", "artillery", 3, "E7") "," U("l", "b", "line", 3, "E5") "," U(
             "d", "b", "militia", 3, "E5"),
         NULL, 0);
    force(3, 9, 9, 9); /* R2, three natural 9s: three hits */
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"ar\",\"target\":\"E5\"}"), 0);
    CHECK_EQ(s->pending, HP_HIT_TIE);
    CHECK_EQ(s->to_move, 1);
    CHECK_EQ(listed(HA_CHOOSE, NULL, NULL), 2);
    CHECK(act("{\"type\":\"choose\",\"choice\":\"ar\"}") != 0);
    CHECK_EQ(mp("l") + mp("d"), 6); /* no hit applied before the choice */
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"d\"}"), 0);
    /* d 2, then the line (3, the highest) without asking, then tied again */
    CHECK_EQ(s->pending, HP_HIT_TIE);
    CHECK_EQ(mp("d"), 2);
    CHECK_EQ(mp("l"), 2);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"l\"}"), 0);
    CHECK_EQ(s->pending, HP_NONE);
    CHECK_EQ(mp("l"), 1);
    CHECK_EQ(mp("d"), 2);
    CHECK_EQ(s->to_move, 0);

    /* not tied: no question */
    load("small", "",
         U("ar", "a", "artillery", 3, "E7") "," U("l", "b", "line", 3, "E5") "," U(
             "d", "b", "militia", 2, "E5"),
         NULL, 0);
    force(3, 9, 1, 1);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"ar\",\"target\":\"E5\"}"), 0);
    CHECK_EQ(s->pending, HP_NONE);
    CHECK_EQ(mp("l"), 2);
    CHECK_EQ(mp("d"), 2);
}

/* H&M 9 Foreign Leaders: no morale bonus for a unit of another nationality. */
static void t_foreign(void)
{
    load("small", "",
         U("li", "a", "line", 3, "E5") ","
                                       "{\"id\":\"r\",\"side\":\"b\",\"kind\":\"line\",\"mp\":1,"
                                       "\"hex\":\"F5\",\"nationality\":\"russia\"}," L("g", "b", 3,
                                                                                       "F5", ""),
         NULL, 0);
    force(4, 3, 1, 1, 1); /* 3 > 1: fails (a Saxon leader's 3 would have made it pass) */
    CHECK_EQ(act("{\"type\":\"close_combat\",\"unit\":\"li\",\"target\":\"F5\"}"), 0);
    CHECK_EQ(find("morale", NULL)->passed, 0);
    CHECK_EQ(find("morale", NULL)->need, 1);
}

/* H&M 8: Highlanders charged stand: defensive fire (as 4 MP) and their own dice on 7+. */
static void t_highlanders(void)
{
    load("small", "", U("c", "a", "cavalry", 3, "C5") "," U("h", "b", "highlander", 1, "E5"), NULL,
         0);
    CHECK_EQ(act("{\"type\":\"charge\",\"unit\":\"c\",\"path\":[\"D5\"],\"target\":\"E5\"}"), 0);
    CHECK_EQ(s->pending, HP_REACT);
    /* morale 4 <= 4 (as 4 MP); defensive fire 3 dice miss; cavalry 3 dice miss;
     * the Highlanders' 3 dice: 7 hits, 6 misses */
    force(10, 4, 1, 1, 1, 1, 1, 1, 7, 6, 6);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"stand\"}"), 0);
    CHECK_EQ(find("morale", NULL)->passed, 1);
    CHECK_EQ(find("roll", "highlander")->need, 7);
    CHECK_EQ(find("roll", "highlander")->hits, 1);
    CHECK_EQ(mp("c"), 2);
    CHECK(at("h", "E5"));
}

/* H&M 8: Cannon stacked with Infantry passes when the Infantry passes. */
static void t_cannon_stack(void)
{
    load("small", "",
         U("li", "a", "line", 3, "E5") "," U("i", "b", "line", 3, "F5") "," U("g", "b", "artillery",
                                                                              1, "F5"),
         NULL, 0);
    force(8, 1, 1, 1, 1, 1, 1, 1, 1); /* infantry passes on 1; defensive fire of both; attack */
    CHECK_EQ(act("{\"type\":\"close_combat\",\"unit\":\"li\",\"target\":\"F5\"}"), 0);
    int mor = 0;
    for (int i = 0; i < ev.n; i++)
        mor += strcmp(ev.ev[i].type, "morale") == 0;
    CHECK_EQ(mor, 1);
    int df = 0;
    for (int i = 0; i < ev.n; i++)
        df += strcmp(ev.ev[i].type, "roll") == 0 && ev.ev[i].purpose &&
              strcmp(ev.ev[i].purpose, "defensive_fire") == 0;
    CHECK_EQ(df, 2);
}

/* H&M 8: in Grand Battles the immunity starts at R2. */
static void t_grand_immunity(void)
{
    load("grand", "", U("ar", "a", "artillery", 2, "E5") "," U("m", "b", "militia", 1, "G5"), NULL,
         0);
    force(3, 9, 9, 9);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"ar\",\"target\":\"G5\"}"), 0);
    CHECK_EQ(mp("m"), 1);
    CHECK(s->u[uid("m")].hex >= 0);
}

/* H&M 9: a leader left alone when his units are eliminated checks for a
 * casualty and joins the nearest friendly unit. */
static void t_leader_left_alone(void)
{
    load("small", "",
         U("li", "a", "line", 3, "E5") "," U("m", "b", "militia", 1, "F5") "," L(
             "g", "b", 1, "F5", "") "," U("y", "b", "line", 3, "J5"),
         NULL, 0);
    force(4, 9, 1, 1, 2); /* one hit eliminates; no 5; the leader's d6 2: survives */
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"li\",\"target\":\"F5\"}"), 0);
    CHECK_EQ(s->u[uid("m")].hex, -1);
    CHECK(at("g", "J5"));
    CHECK_EQ(find("leader_casualty", NULL)->passed, 1);
}

/* H&M 9 Seize the Initiative: a tie goes to Player A; an AC that fought stores nothing. */
static void t_seize(void)
{
    load("small", "",
         U("m", "a", "line", 3, "E5") "," L("ac", "a", 2, "E5", ",\"commander\":true") "," U(
             "z", "b", "line", 3, "F5") "," L("bc", "b", 2, "L9", ",\"commander\":true"),
         NULL, 0);
    force(3, 1, 1, 1);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"m\",\"target\":\"F5\"}"), 0);
    CHECK_EQ(hm_store_max(s, sc), 0); /* the AC took part in a combat */
    force(1, 1);
    CHECK_EQ(act("{\"type\":\"end_turn\"}"), 0);
    s->cap = 2;
    force(1, 1);
    CHECK_EQ(act("{\"type\":\"end_turn\",\"store\":2}"), 0);
    CHECK_EQ(s->pending, HP_SEIZE);
    force(3, 3, 3, 1); /* 3 + 2 = 3 + 2: Player A keeps the first turn */
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"yes\"}"), 0);
    CHECK_EQ(s->active, 0);
    CHECK_EQ(s->stored[1], 1);
    CHECK_EQ(s->seize_left[1], 1);
    /* not tried: the stored CAP kept, and the log says who declined */
    s->pending = HP_SEIZE;
    s->decider = s->to_move = 1;
    force(1, 1);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"no\"}"), 0);
    CHECK(s->stored[1] == 1 && s->pending == HP_NONE);
    const mk_event *d = find("decline", NULL);
    CHECK(d->text && strcmp(d->text, "seize_the_initiative") == 0 && d->side == 1 && d->rule &&
          strcmp(d->rule, "H&M 9 Seize the Initiative") == 0);
}

/* 15 Leader Re-Rolls (on/off): as many as the AC's rating, lost with him. */
static void t_rerolls(void)
{
    const char *u = U("li", "a", "line", 3, "E5") "," L(
        "ac", "a", 2, "A1", ",\"commander\":true") "," U("z", "b", "line", 3, "F5");
    load("small", "", u, NULL, 0);
    force(3, 1, 1, 7);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"li\",\"target\":\"F5\"}"), 0);
    CHECK_EQ(s->pending, HP_NONE);
    load("small", "", u, NULL, 1ull << HO_REROLLS);
    CHECK_EQ(s->rerolls[0], 2);
    force(3, 1, 1, 7);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"li\",\"target\":\"F5\"}"), 0);
    CHECK_EQ(s->pending, HP_REROLL);
    force(1, 9);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"yes\"}"), 0);
    CHECK_EQ(s->pending, HP_REROLL);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"no\"}"), 0);
    CHECK_EQ(s->pending, HP_NONE);
    CHECK_EQ(mp("z"), 1);
    CHECK_EQ(s->rerolls[0], 1);
    const mk_event *d = find("decline", NULL);   /* the second one refused, logged */
    CHECK(d->text && strcmp(d->text, "reroll") == 0 && d->rule &&
          strcmp(d->rule, "H&M 15 Leader Re-Rolls") == 0);
}

/* H&M 12: the SSRs change dice and DRMs (the play example covers the rest). */
static void t_ssr(void)
{
    load("small", "",
         U("ar", "b", "artillery", 2, "E5") "," U("z", "a", "line", 3,
                                                  "E7") "," U("y", "a", "militia", 2, "L1"),
         ",\"ssr\":[\"inferior-artillery\"]", 0);
    s->active = 1;
    force(2, 1, 1);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"ar\",\"target\":\"E7\"}"), 0);
    CHECK_EQ(find("roll", "fire")->nvalues, 2);
}

/* scenario checks: stacking at set-up, ratings, unknown SSRs. */
static void t_check(void)
{
    int nr;
    const mk_ruleset *const *all = mk_rulesets(&nr);
    mk_error err = {0};
    const char *bad =
        "{\"ruleset\":\"hm\",\"id\":\"hm/x\",\"title\":\"x\",\"map\":{\"orientation\":\"pointy\","
        "\"shifted\":\"even\",\"cols\":13,\"rows\":9,\"terrain\":{}},\"sides\":[{\"id\":\"a\","
        "\"cap\":4,"
        "\"home\":\"north\",\"ssr\":[\"bayonets\"]},{\"id\":\"b\",\"cap\":4,\"home\":\"south\"}],"
        "\"first\":\"a\",\"turns\":3,\"units\":[]}";
    mk_scenario *x = mk_scenario_parse(bad, strlen(bad), "(t)", all, nr, &err);
    CHECK(x == NULL);
    CHECK(strstr(err.msg, "ssr") != NULL);
    const char *badnat =
        "{\"ruleset\":\"hm\",\"id\":\"hm/x\",\"title\":\"x\",\"map\":{\"orientation\":\"pointy\","
        "\"shifted\":\"even\",\"cols\":13,\"rows\":9,\"terrain\":{}},\"sides\":[{\"id\":\"a\","
        "\"cap\":4,\"home\":\"north\"},{\"id\":\"b\",\"cap\":4,\"home\":\"south\"}],"
        "\"nationalities\":{\"saxony\":{\"ssr\":[\"bayonets\"]}},"
        "\"first\":\"a\",\"turns\":3,\"units\":[]}";
    x = mk_scenario_parse(badnat, strlen(badnat), "(t)", all, nr, &err);
    CHECK(x == NULL);
    CHECK(strstr(err.msg, "nationalities.saxony.ssr[0]") != NULL);
    const char *stack =
        "{\"ruleset\":\"hm\",\"id\":\"hm/x\",\"title\":\"x\",\"map\":{\"orientation\":\"pointy\","
        "\"shifted\":\"even\",\"cols\":13,\"rows\":9,\"terrain\":{}},\"sides\":[{\"id\":\"a\","
        "\"cap\":4,"
        "\"home\":\"north\"},{\"id\":\"b\",\"cap\":4,\"home\":\"south\"}],"
        "\"first\":\"a\",\"turns\":3,\"units\":[" U("p", "a", "militia", 2, "E5") "," U(
            "q", "a", "irregular", 2, "E5") "]}";
    x = mk_scenario_parse(stack, strlen(stack), "(t)", all, nr, &err);
    CHECK(x == NULL);
    CHECK(strstr(err.msg, "H&M 4") != NULL);
}

int main(void)
{
    t_stacking();
    t_movement();
    t_leader_alone();
    t_cap();
    t_dice();
    t_targets();
    t_fire_withdraw();
    t_close();
    t_close_withdraw();
    t_no_retreat();
    t_charge();
    t_ambush();
    t_skirmish();
    t_leader_casualty();
    t_rally();
    t_victory();
    t_ac();
    t_second_order();
    t_ammo();
    t_good_days();
    t_command();
    t_hi_stacking();
    t_subordinate();
    t_leader_bonus();
    t_momentum();
    t_leaders_combat();
    t_r1_retreat();
    t_combat_r1();
    t_line_column();
    t_baggage();
    t_displacement();
    t_displacement_choices();
    t_hit_ties();
    t_foreign();
    t_highlanders();
    t_cannon_stack();
    t_grand_immunity();
    t_leader_left_alone();
    t_seize();
    t_rerolls();
    t_ssr();
    t_check();
    if (sc)
        mk_scenario_free(sc);
    return check_done("test_hm_rules");
}
