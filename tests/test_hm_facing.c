/* test_hm_facing.c - Horse & Musket 13 Facing and Disorderly Retreat, and
 * the parts of other rules that depend on them (15 Combat at R1's flank
 * -1, 13 Line & Column's "one point of movement", 15 Retreat in R1 Fire
 * keeping facing): a small position per rule with forced dice, each with
 * the option on and off.
 *
 * The map is 13 x 9, pointy, even rows shifted right. E5's neighbours:
 * F5 east (facing 90), E6 south-east (150), D6 south-west (210), D5 west
 * (270), D4 north-west (330), E4 north-east (30). Facings are degrees
 * clockwise from map-up: odd multiples of 30 face a hexside (Line), even
 * ones a vertex (Column). */

#include "hm_fixture.h"

#define OPT(o) (1ull << (o))
#define FACING OPT(HO_FACING)
#define LC OPT(HO_LINE_COLUMN)

static mk_scenario *parse(const char *chart, const char *terrain, const char *units, mk_error *err)
{
    return hm_position(chart, terrain, units, NULL, NULL, err);
}

static void load(const char *chart, const char *terrain, const char *units, uint64_t options)
{
    hm_load(chart, terrain, units, NULL, NULL, options);
}

/* A unit, and a unit with a facing (degrees). */
#define UF(id, side, kind, mp, hex, deg)                                                           \
    "{\"id\":\"" id "\",\"side\":\"" side "\",\"kind\":\"" kind "\",\"mp\":" #mp ",\"hex\":\"" hex \
    "\",\"facing\":" #deg "}"
#define UC(id, side, kind, mp, hex, deg)                                                           \
    "{\"id\":\"" id "\",\"side\":\"" side "\",\"kind\":\"" kind "\",\"mp\":" #mp ",\"hex\":\"" hex \
    "\",\"facing\":" #deg ",\"formation\":\"column\"}"

static int face(const char *id)
{
    return s->u[uid(id)].facing * 30;
}

static int choose_facing(int deg)
{
    char b[96];
    snprintf(b, sizeof b, "{\"type\":\"choose\",\"choice\":\"facing\",\"facing\":%d}", deg);
    return act(b);
}

static const mk_event *find(const char *type, const char *purpose)
{
    for (int i = 0; i < ev.n; i++)
        if (strcmp(ev.ev[i].type, type) == 0 &&
            (!purpose || (ev.ev[i].purpose && strcmp(ev.ev[i].purpose, purpose) == 0)))
            return &ev.ev[i];
    static mk_event none;
    memset(&none, 0, sizeof none);
    none.type = "none";
    return &none;
}
static bool has(const char *type, const char *purpose)
{
    return strcmp(find(type, purpose)->type, "none") != 0;
}

/* Listed actions of a type for a unit (NULL: any) and target hex (NULL: any). */
static int listed(int type, const char *unit, const char *target)
{
    mk_action l[MK_MAX_ACTIONS];
    int n = rs->legal(s, sc, l, MK_MAX_ACTIONS), c = 0;
    for (int i = 0; i < n; i++)
        if (l[i].type == type && (!unit || l[i].unit == uid(unit)) &&
            (!target || l[i].target == hx(target)))
            c++;
    return c;
}

/* The facings offered by the pending facing decision, as a 12-bit mask. */
static unsigned offered(void)
{
    mk_action l[MK_MAX_ACTIONS];
    int n = rs->legal(s, sc, l, MK_MAX_ACTIONS);
    unsigned m = 0;
    for (int i = 0; i < n; i++)
        if (l[i].type == HA_CHOOSE && l[i].flags == HW_FACE)
            m |= 1u << l[i].target;
    return m;
}
static int popcount(unsigned m)
{
    int c = 0;
    for (; m; m &= m - 1)
        c++;
    return c;
}

/* The geometry: Line has 3 front, 2 flank, 1 rear hexes; Column 2, 2, 2;
 * the frontal arc at range 2. */
static void t_geometry(void)
{
    load("small", "", U("x", "a", "line", 3, "E5") "," U("z", "b", "line", 3, "L9"), 0);
    int e5 = hx("E5");
    const char *nb[6] = {"F5", "E6", "D6", "D5", "D4", "E4"}; /* 90, 150, 210, 270, 330, 30 */
    /* Line facing 90 (f 3): front E4 F5 E6, flank D6 D4, rear D5 */
    int want_line[6] = {HM_FRONT, HM_FRONT, HM_FLANK, HM_REAR, HM_FLANK, HM_FRONT};
    /* Column facing 120 (f 4), the vertex between F5 and E6: front F5 E6,
     * flank E4 D6, rear D5 D4 */
    int want_col[6] = {HM_FRONT, HM_FRONT, HM_FLANK, HM_REAR, HM_REAR, HM_FLANK};
    for (int i = 0; i < 6; i++) {
        CHECK_EQ(hm_face_aspect_of(3, sc, e5, hx(nb[i])), want_line[i]);
        CHECK_EQ(hm_face_aspect_of(4, sc, e5, hx(nb[i])), want_col[i]);
        CHECK_EQ(hm_face_front_of(3, sc, e5, hx(nb[i])), want_line[i] == HM_FRONT);
    }
    /* E3 is two hexes straight up (0 degrees): outside a Line facing 90's
     * 120-degree arc (30-150), inside facing 30's (330-90) and a Column
     * facing 0's (330-30); G5 (straight east) inside facing 90's */
    CHECK(!hm_face_front_of(3, sc, e5, hx("E3")));
    CHECK(hm_face_front_of(1, sc, e5, hx("E3")));
    CHECK(hm_face_front_of(0, sc, e5, hx("E3")));
    CHECK(hm_face_front_of(3, sc, e5, hx("G5")));
    /* F3 (60 degrees, on a vertex ray) is on the boundary of facing 120's
     * Column arc (90-150)? No: 60 is outside; inside facing 90's Line arc */
    CHECK(!hm_face_front_of(4, sc, e5, hx("F3")));
    CHECK(hm_face_front_of(3, sc, e5, hx("F3")));
    /* at range 2 straight behind a Line: the rear ray; beside it: flank */
    CHECK_EQ(hm_face_aspect_of(3, sc, e5, hx("C5")), HM_REAR);
    CHECK_EQ(hm_face_aspect_of(3, sc, e5, hx("C4")), HM_FLANK);
    /* clicks per kind (H&M 13) */
    CHECK_EQ(hm_face_clicks(HK_LINE), 1);
    CHECK_EQ(hm_face_clicks(HK_ELITE), 1);
    CHECK_EQ(hm_face_clicks(HK_MILITIA), 1);
    CHECK_EQ(hm_face_clicks(HK_ARTILLERY), 1);
    CHECK_EQ(hm_face_clicks(HK_CAVALRY), 2);
    CHECK_EQ(hm_face_clicks(HK_SIEGE), 0);
    CHECK_EQ(hm_face_clicks(HK_HUSSAR), 6);
    CHECK_EQ(hm_face_clicks(HK_SKIRMISHER), 6);
}

/* Set-up facings: the scenario's, else toward the nearest enemy unit; the
 * JSON "facing"; the scenario check. */
static void t_setup(void)
{
    const char *u = U("x", "a", "line", 3, "E5") "," UC("c", "a", "cavalry", 3, "A1", 180) "," UF(
        "y", "a", "line", 3, "A3", 270) "," U("z", "b", "line", 3, "E8");
    load("small", "", u, FACING | LC);
    /* E5 -> E8 points 169 degrees: the Line hexside 150 */
    CHECK_EQ(face("x"), 150);
    CHECK_EQ(face("y"), 270);
    CHECK_EQ(face("c"), 180);
    CHECK_EQ(s->u[uid("c")].column, 1);
    /* the enemy faces back north-west-ish: E8 -> E5 is 349 degrees: 330 */
    CHECK_EQ(face("z"), 330);
    json_t *j = rs->state_json(s, sc);
    json_t *units = json_object_get(j, "units");
    CHECK_EQ(json_integer_value(json_object_get(json_array_get(units, 0), "facing")), 150);
    CHECK_EQ(json_integer_value(json_object_get(json_array_get(units, 1), "facing")), 180);
    json_decref(j);
    /* without Line & Column a Column's vertex turns to the next hexside */
    load("small", "", u, FACING);
    CHECK_EQ(face("c"), 210);
    /* off: no "facing" in the state */
    load("small", "", u, 0);
    j = rs->state_json(s, sc);
    CHECK(json_object_get(json_array_get(json_object_get(j, "units"), 0), "facing") == NULL);
    json_decref(j);
    /* the scenario check */
    mk_error err = {0};
    mk_scenario *x = parse("small", "", UF("x", "a", "line", 3, "E5", 45), &err);
    CHECK(x == NULL);
    CHECK(strstr(err.msg, "units[0].facing") != NULL);
    x = parse("small", "", UF("x", "a", "line", 3, "E5", 60), &err);
    CHECK(x == NULL);
    CHECK(strstr(err.msg, "hexside") != NULL);
    x = parse("small", "", UC("x", "a", "line", 3, "E5", 90), &err);
    CHECK(x == NULL);
    CHECK(strstr(err.msg, "vertex") != NULL);
    x = parse("small", "", UF("x", "a", "line", 3, "E5", 330), &err);
    CHECK(x != NULL);
    if (x)
        mk_scenario_free(x);
}

/* H&M 13 Facing: moving only through frontal hexes; the turn on entering a
 * hex (Infantry class and Artillery one click, Cavalry two, others any)
 * chosen after the move. */
static void t_move(void)
{
    const char *u =
        UF("li", "a", "line", 3, "E5", 90) "," UF("cv", "a", "cavalry", 3, "E2", 90) "," UF(
            "hu", "a", "hussar", 3, "H2", 90) "," UF("ar", "a", "artillery", 3, "B8",
                                                     90) "," U("z", "b", "line", 3, "L9");
    load("small", "", u, FACING);
    CHECK_EQ(listed(HA_MOVE, "li", NULL), 3); /* E4, F5, E6 */
    CHECK_EQ(listed(HA_MOVE, "li", "D5"), 0);
    CHECK(act("{\"type\":\"move\",\"unit\":\"li\",\"path\":[\"D5\"]}") != 0);
    CHECK_EQ(act("{\"type\":\"move\",\"unit\":\"li\",\"path\":[\"F5\"]}"), 0);
    CHECK(at("li", "F5"));
    CHECK_EQ(s->pending, HP_FACE);
    CHECK_EQ(offered(), (1u << 1) | (1u << 3) | (1u << 5)); /* 30, 90, 150 */
    json_t *j = rs->state_json(s, sc);
    CHECK_STR(json_string_value(json_object_get(json_object_get(j, "pending"), "decision")),
              "facing");
    json_decref(j);
    CHECK(choose_facing(270) != 0); /* two clicks: not for infantry */
    CHECK_EQ(choose_facing(150), 0);
    CHECK_EQ(face("li"), 150);
    CHECK_EQ(s->pending, HP_NONE);
    CHECK_STR(find("facing", NULL)->rule, "H&M 13 Facing");
    /* cavalry: two clicks, five facings */
    CHECK_EQ(act("{\"type\":\"move\",\"unit\":\"cv\",\"path\":[\"F2\"]}"), 0);
    CHECK_EQ(popcount(offered()), 5);
    CHECK(!(offered() & (1u << 9))); /* not straight back (270) */
    CHECK_EQ(choose_facing(330), 0);
    /* hussars: any facing */
    CHECK_EQ(act("{\"type\":\"move\",\"unit\":\"hu\",\"path\":[\"I2\"]}"), 0);
    CHECK_EQ(offered(), 0xaaau);
    CHECK_EQ(choose_facing(270), 0);
    /* artillery: one click */
    CHECK_EQ(act("{\"type\":\"move\",\"unit\":\"ar\",\"path\":[\"C8\"]}"), 0);
    CHECK_EQ(popcount(offered()), 3);
    CHECK_EQ(choose_facing(90), 0);
    /* off: any neighbour, no facing decision */
    load("small", "", u, 0);
    CHECK_EQ(listed(HA_MOVE, "li", NULL), 6);
    CHECK_EQ(act("{\"type\":\"move\",\"unit\":\"li\",\"path\":[\"D5\"]}"), 0);
    CHECK_EQ(s->pending, HP_NONE);
    CHECK_EQ(listed(HA_FACE, NULL, NULL), 0);
}

/* A cavalry path must turn within its clicks hex by hex; siege artillery
 * never turns; the Leader Bonus Movement's extra hex still goes forward. */
static void t_move_path(void)
{
    const char *u = UF("cv", "a", "cavalry", 3, "E5", 90) "," UF(
        "sa", "a", "siege_artillery", 3, "B8", 90) "," U("z", "b", "line", 3, "L9");
    load("small", "", u, FACING);
    /* E5 -> E4 (30) -> D4 (270 from E4): at E4 it may face 210, whose
     * front holds 270: a valid path */
    CHECK_EQ(act("{\"type\":\"move\",\"unit\":\"cv\",\"path\":[\"E4\",\"D4\"]}"), 0);
    CHECK(at("cv", "D4"));
    CHECK_EQ(s->pending, HP_FACE);
    CHECK_EQ(listed(HA_FACE, "sa", NULL), 0);
    CHECK_EQ(listed(HA_MOVE, "sa", NULL), 0);
    load("small", "", u, FACING);
    /* straight back first: refused */
    CHECK(act("{\"type\":\"move\",\"unit\":\"cv\",\"path\":[\"D5\",\"C5\"]}") != 0);
}

/* H&M 13: a Move activation may only turn in place (any facing; Siege
 * Artillery never); with Line & Column a formation change in place picks
 * any facing of the new formation. */
static void t_face_in_place(void)
{
    const char *u = UF("li", "a", "line", 3, "E5", 90) "," U("z", "b", "line", 3, "L9");
    load("small", "", u, FACING);
    CHECK_EQ(listed(HA_FACE, "li", NULL), 1);
    CHECK_EQ(act("{\"type\":\"face\",\"unit\":\"li\"}"), 0);
    CHECK_EQ(s->cap, 9);
    CHECK_EQ(s->pending, HP_FACE);
    CHECK_EQ(offered(), 0xaaau & ~(1u << 3)); /* every hexside but its own */
    CHECK_EQ(choose_facing(270), 0);
    CHECK_EQ(face("li"), 270);
    CHECK(s->u[uid("li")].acts == 1);
    CHECK_EQ(listed(HA_FACE, "li", NULL), 0);
    /* with Line & Column: formation in place, then a Column facing */
    load("small", "", u, FACING | LC);
    CHECK_EQ(act("{\"type\":\"formation\",\"unit\":\"li\"}"), 0);
    CHECK_EQ(s->u[uid("li")].column, 1);
    CHECK_EQ(offered(), 0x555u);
    CHECK(choose_facing(90) != 0);
    CHECK_EQ(choose_facing(0), 0);
    CHECK_EQ(face("li"), 0);
    char why[200];
    CHECK(hm_state_ok(s, sc, why, sizeof why));
    /* Locked in Combat: turning next to an enemy needs a morale check */
    load("small", "", UF("li", "a", "line", 3, "E5", 90) "," U("z", "b", "line", 3, "F5"),
         FACING | OPT(HO_LOCKED));
    force(1, 6);
    CHECK_EQ(act("{\"type\":\"face\",\"unit\":\"li\"}"), 0);
    CHECK_EQ(s->pending, HP_NONE);
    CHECK_EQ(face("li"), 90);
    CHECK(has("morale", "locked_in_combat"));
}

/* H&M 13: combat only through the front: fire inside the frontal arc (the
 * nearest valid target), close combat into a frontal hex. */
static void t_front_combat(void)
{
    const char *u = UF("li", "a", "line", 3, "E5",
                       90) "," U("zr", "b", "line", 3, "D5") "," U("zf", "b", "line", 3, "G5");
    load("small", "", u, FACING);
    CHECK_EQ(listed(HA_FIRE, "li", "D5"), 0);
    CHECK_EQ(listed(HA_CLOSE, "li", "D5"), 0);
    /* the nearest valid target: the one behind does not count, so R2 */
    CHECK_EQ(listed(HA_FIRE, "li", "G5"), 1);
    load("small", "", u, 0);
    CHECK_EQ(listed(HA_FIRE, "li", "D5"), 1);
    CHECK_EQ(listed(HA_CLOSE, "li", "D5"), 1);
    CHECK_EQ(listed(HA_FIRE, "li", "G5"), 0);
    /* artillery at range: only inside the arc */
    const char *v = UF("ar", "a", "artillery", 3, "E5",
                       90) "," U("z1", "b", "line", 3, "G5") "," U("z2", "b", "line", 3, "E3");
    load("small", "", v, FACING);
    CHECK_EQ(listed(HA_FIRE, "ar", "G5"), 1);
    CHECK_EQ(listed(HA_FIRE, "ar", "E3"), 0);
    load("small", "", v, 0);
    CHECK_EQ(listed(HA_FIRE, "ar", "E3"), 1);
}

/* H&M 13: attacked through the flank or rear: no defensive fire, the
 * morale check still made, the attacker +1 / +2 dice. */
static void t_flank_close(void)
{
    /* "at" in D5 faces east into E5; "df" in E5 faces 90: D5 is its rear */
    const char *rear = UF("at", "a", "line", 3, "D5", 90) "," UF("df", "b", "line", 3, "E5", 90);
    load("small", "", rear, FACING);
    force(6, 1, 0, 0, 0, 0, 0); /* morale passed; five misses */
    CHECK_EQ(act("{\"type\":\"close_combat\",\"unit\":\"at\",\"target\":\"E5\"}"), 0);
    CHECK_STR(find("flank_attack", NULL)->text, "rear");
    CHECK_EQ(find("flank_attack", NULL)->value, 2);
    CHECK(strstr(find("flank_attack", NULL)->rule, "H&M 13 Facing") != NULL);
    CHECK(has("morale", NULL));
    CHECK(!has("roll", "defensive_fire"));
    CHECK_EQ(find("roll", "close_combat")->nvalues, 5);
    CHECK_EQ(mp("at"), 3);
    /* flank: facing 30, D5 (270) is a flank hex: +1 die */
    load("small", "", UF("at", "a", "line", 3, "D5", 90) "," UF("df", "b", "line", 3, "E5", 30),
         FACING);
    force(5, 1, 0, 0, 0, 0);
    CHECK_EQ(act("{\"type\":\"close_combat\",\"unit\":\"at\",\"target\":\"E5\"}"), 0);
    CHECK_STR(find("flank_attack", NULL)->text, "flank");
    CHECK_EQ(find("roll", "close_combat")->nvalues, 4);
    CHECK(!has("roll", "defensive_fire"));
    /* a failed check through the flank still retreats */
    load("small", "", UF("at", "a", "line", 3, "D5", 90) "," UF("df", "b", "line", 3, "E5", 30),
         FACING);
    force(5, 6, 0, 0, 0, 0);
    CHECK_EQ(act("{\"type\":\"close_combat\",\"unit\":\"at\",\"target\":\"E5\"}"), 0);
    CHECK_EQ(s->pending, HP_RETREAT);
    /* front: defensive fire, three dice */
    load("small", "", UF("at", "a", "line", 3, "D5", 90) "," UF("df", "b", "line", 3, "E5", 270),
         FACING);
    force(7, 1, 0, 0, 0, 0, 0, 0);
    CHECK_EQ(act("{\"type\":\"close_combat\",\"unit\":\"at\",\"target\":\"E5\"}"), 0);
    CHECK(!has("flank_attack", NULL));
    CHECK_EQ(find("roll", "defensive_fire")->nvalues, 3);
    CHECK_EQ(find("roll", "close_combat")->nvalues, 3);
    /* off: the rear position fights as a front one */
    load("small", "", rear, 0);
    force(7, 1, 0, 0, 0, 0, 0, 0);
    CHECK_EQ(act("{\"type\":\"close_combat\",\"unit\":\"at\",\"target\":\"E5\"}"), 0);
    CHECK(!has("flank_attack", NULL));
    CHECK_EQ(find("roll", "defensive_fire")->nvalues, 3);
    CHECK_EQ(find("roll", "close_combat")->nvalues, 3);
}

/* H&M 13: no withdraw (close combat by infantry on horsemen) and no
 * Highlander simultaneous dice through a flank. */
static void t_flank_withdraw_highlander(void)
{
    const char *u = UF("at", "a", "line", 3, "D5", 90) "," UF("dr", "b", "dragoon", 3, "E5", 30);
    load("small", "", u, FACING);
    force(4, 1, 0, 0, 0);
    CHECK_EQ(act("{\"type\":\"close_combat\",\"unit\":\"at\",\"target\":\"E5\"}"), 0);
    CHECK(s->pending != HP_REACT);
    CHECK_EQ(find("roll", "close_combat")->nvalues, 4);
    load("small", "", u, 0);
    CHECK_EQ(act("{\"type\":\"close_combat\",\"unit\":\"at\",\"target\":\"E5\"}"), 0);
    CHECK_EQ(s->pending, HP_REACT);
    /* fire on dragoons through their flank: no withdraw offered (H&M 8) */
    load("small", "", u, FACING);
    force(4, 0, 0, 0, 0);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"at\",\"target\":\"E5\"}"), 0);
    CHECK(s->pending != HP_REACT);
    CHECK_EQ(find("roll", "fire")->nvalues, 4);
    CHECK(!has("morale", NULL)); /* fire through a flank adds no morale check */
    load("small", "", u, 0);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"at\",\"target\":\"E5\"}"), 0);
    CHECK_EQ(s->pending, HP_REACT);
    /* Highlanders */
    const char *h = UF("at", "a", "line", 3, "D5", 90) "," UF("hl", "b", "highlander", 3, "E5", 30);
    load("small", "", h, FACING);
    force(5, 1, 0, 0, 0, 0);
    CHECK_EQ(act("{\"type\":\"close_combat\",\"unit\":\"at\",\"target\":\"E5\"}"), 0);
    CHECK(!has("roll", "highlander"));
    CHECK(!has("roll", "defensive_fire"));
    load("small", "", h, 0);
    CHECK_EQ(act("{\"type\":\"close_combat\",\"unit\":\"at\",\"target\":\"E5\"}"), 0);
    CHECK_EQ(s->pending, HP_REACT);
    force(10, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0); /* morale, 3 defensive, 3 attack, 3 highlander */
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"stand\"}"), 0);
    CHECK(has("roll", "highlander"));
}

/* H&M 8, 13: a charge goes through frontal hexes and ends with its target
 * in front, facing it; a horseman charged in the flank cannot withdraw or
 * countercharge (its morale check is still made). */
static void t_charge(void)
{
    /* cv in C4 faces east; the charge enters D4, next to E5 (150 from D4) */
    const char *u = UF("cv", "a", "cavalry", 3, "C4", 90) "," UF("dr", "b", "dragoon", 3, "E5", 90);
    load("battles", "", u, FACING);
    CHECK_EQ(listed(HA_CHARGE, "cv", "E5"), 2); /* from D4 (its flank) or D5 (its rear) */
    force(5, 1, 0, 0, 0, 0);                    /* morale passed; 3 + 1 flank dice */
    CHECK_EQ(act("{\"type\":\"charge\",\"unit\":\"cv\",\"path\":[\"D4\"],\"target\":\"E5\"}"), 0);
    CHECK(at("cv", "D4"));
    CHECK_EQ(face("cv"), 150); /* facing its target */
    CHECK(s->pending != HP_REACT);
    CHECK_STR(find("flank_attack", NULL)->text, "flank");
    CHECK(has("morale", NULL));
    CHECK_EQ(find("roll", "charge")->nvalues, 4);
    CHECK(at("dr", "E5"));
    load("battles", "", u, 0);
    CHECK_EQ(act("{\"type\":\"charge\",\"unit\":\"cv\",\"path\":[\"D4\"],\"target\":\"E5\"}"), 0);
    CHECK_EQ(s->pending, HP_REACT);
    /* facing away: no charge at all */
    const char *v =
        UF("cv", "a", "cavalry", 3, "C4", 270) "," UF("dr", "b", "dragoon", 3, "E5", 90);
    load("battles", "", v, FACING);
    CHECK_EQ(listed(HA_CHARGE, "cv", NULL), 0);
    load("battles", "", v, 0);
    CHECK(listed(HA_CHARGE, "cv", NULL) > 0);
}

/* 15 Combat at R1 with Facing: attacked in the flank, the return fire has
 * -1 (+0 firing second); through the rear no return fire. */
static void t_combat_r1(void)
{
    const char *flank = UF("at", "a", "line", 3, "D5", 90) "," UF("df", "b", "line", 3, "E5", 30);
    load("small", "", flank, FACING | OPT(HO_COMBAT_R1));
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"at\",\"target\":\"E5\"}"), 0);
    CHECK_EQ(s->pending, HP_R1_ORDER);
    force(7, 0, 0, 0, 0, 0, 0, 0); /* the attacker's 3 + 1, then 3 back */
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"second\"}"), 0);
    CHECK_EQ(find("roll", "fire")->nvalues, 4);
    const mk_event *r = find("roll", "r1_fire");
    CHECK_EQ(r->nvalues, 3);
    int sum = 0, flank_mod = 0;
    for (int i = 0; i < r->nmods; i++) {
        sum += r->mods[i].value;
        flank_mod |= r->mods[i].value == -1 && strstr(r->mods[i].why, "flank") != NULL;
    }
    CHECK(flank_mod);
    CHECK_EQ(sum, 0); /* +1 second, -1 flank */
    /* rear: no return fire, no order to choose */
    load("small", "", UF("at", "a", "line", 3, "D5", 90) "," UF("df", "b", "line", 3, "E5", 90),
         FACING | OPT(HO_COMBAT_R1));
    force(5, 0, 0, 0, 0, 0);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"at\",\"target\":\"E5\"}"), 0);
    CHECK(s->pending != HP_R1_ORDER);
    CHECK(!has("roll", "r1_fire"));
    CHECK_EQ(find("roll", "fire")->nvalues, 5);
    /* without Facing: the order is asked, no flank modifier */
    load("small", "", flank, OPT(HO_COMBAT_R1));
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"at\",\"target\":\"E5\"}"), 0);
    CHECK_EQ(s->pending, HP_R1_ORDER);
    force(6, 0, 0, 0, 0, 0, 0);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"second\"}"), 0);
    CHECK_EQ(find("roll", "fire")->nvalues, 3);
    CHECK_EQ(find("roll", "r1_fire")->nmods, 1);
}

/* Retreats and withdrawals keep facing and formation (H&M 13), also the
 * firer's retreat of 15 Retreat in R1 Fire Combat; an advance keeps it. */
static void t_keep_facing(void)
{
    /* retreat of a failed check below double MP: facing kept */
    load("small", "", UF("at", "a", "line", 3, "D5", 90) "," UF("df", "b", "line", 3, "E5", 270),
         FACING | LC | OPT(HO_DISORDERLY));
    force(4, 5, 0, 0, 0); /* 5 > 3 fails, 5 < 6 */
    CHECK_EQ(act("{\"type\":\"close_combat\",\"unit\":\"at\",\"target\":\"E5\"}"), 0);
    CHECK_EQ(s->pending, HP_RETREAT);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"F5\"}"), 0);
    CHECK(at("df", "F5"));
    CHECK_EQ(face("df"), 270);
    CHECK_EQ(s->u[uid("df")].column, 0);
    CHECK(!has("disorderly_retreat", NULL));
    /* the attacker must advance into E5: facing kept */
    CHECK(at("at", "E5"));
    CHECK_EQ(face("at"), 90);
    /* 15 Retreat in R1 Fire Combat: the firer retreats, facing kept */
    load("small", "", UF("at", "a", "line", 3, "D5", 90) "," UF("df", "b", "line", 3, "E5", 270),
         FACING | OPT(HO_R1_RETREAT));
    force(3, 0, 1, 1);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"at\",\"target\":\"E5\"}"), 0);
    CHECK_EQ(s->pending, HP_R1_RETREAT);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"C5\"}"), 0);
    CHECK(at("at", "C5"));
    CHECK_EQ(face("at"), 90);
}

/* 13 Disorderly Retreat: a failed check rolled at least double the MP
 * retreats in Column, facing directly away from the attacker. */
static void t_disorderly(void)
{
    const char *u = UF("at", "a", "line", 3, "D5", 90) "," UF("df", "b", "line", 3, "E5", 270);
    uint64_t all = FACING | LC | OPT(HO_DISORDERLY);
    load("small", "", u, all);
    force(4, 6, 0, 0, 0); /* 6 >= 2 x 3 */
    CHECK_EQ(act("{\"type\":\"close_combat\",\"unit\":\"at\",\"target\":\"E5\"}"), 0);
    CHECK_EQ(s->pending, HP_RETREAT);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"E4\"}"), 0);
    CHECK(at("df", "E4"));
    /* D5 -> E4 points 60 degrees: the Column vertex 60 */
    CHECK_EQ(face("df"), 60);
    CHECK_EQ(s->u[uid("df")].column, 1);
    CHECK(has("disorderly_retreat", NULL));
    CHECK(strstr(find("disorderly_retreat", NULL)->rule, "H&M 13 Disorderly Retreat") != NULL);
    char why[200];
    CHECK(hm_state_ok(s, sc, why, sizeof why));
    /* straight away (F5, 90 degrees, a hexside): one of the two vertices */
    load("small", "", u, all);
    force(4, 6, 0, 0, 0);
    CHECK_EQ(act("{\"type\":\"close_combat\",\"unit\":\"at\",\"target\":\"E5\"}"), 0);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"F5\"}"), 0);
    CHECK(face("df") == 60 || face("df") == 120);
    CHECK_EQ(s->u[uid("df")].column, 1);
    /* a unit that cannot form Column turns away in Line */
    load("small", "",
         UF("at", "a", "line", 3, "D5", 90) "," UF("df", "b", "irregular", 2, "E5", 270), all);
    force(4, 4, 0, 0, 0); /* close combat on light footmen: the withdraw choice first */
    CHECK_EQ(act("{\"type\":\"close_combat\",\"unit\":\"at\",\"target\":\"E5\"}"), 0);
    if (s->pending == HP_REACT)
        CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"stand\"}"), 0);
    CHECK_EQ(s->pending, HP_RETREAT);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"F5\"}"), 0);
    CHECK_EQ(face("df"), 90);
    CHECK_EQ(s->u[uid("df")].column, 0);
    /* off (Line & Column and Facing only): facing and formation kept */
    load("small", "", u, FACING | LC);
    force(4, 6, 0, 0, 0);
    CHECK_EQ(act("{\"type\":\"close_combat\",\"unit\":\"at\",\"target\":\"E5\"}"), 0);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"E4\"}"), 0);
    CHECK_EQ(face("df"), 270);
    CHECK_EQ(s->u[uid("df")].column, 0);
    mk_error err = {0};
    CHECK(rs->check_options(OPT(HO_DISORDERLY) | FACING, &err) != 0);
    CHECK(rs->check_options(OPT(HO_DISORDERLY) | LC, &err) != 0);
    CHECK_EQ(rs->check_options(all, &err), 0);
}

/* 13 Line & Column: a formation change for one point of movement, first
 * or last in a longer move (not for one-hex units). */
static void t_formation_in_move(void)
{
    const char *u = UF("cv", "a", "cavalry", 3, "E5",
                       90) "," UF("li", "a", "line", 3, "B8", 90) "," U("z", "b", "line", 3, "L9");
    load("small", "", u, LC);
    CHECK_EQ(listed(HA_FORMATION, "li", NULL), 1); /* in place only: MR 1 */
    CHECK_EQ(act("{\"type\":\"formation\",\"unit\":\"cv\",\"path\":[\"F5\",\"G5\"],"
                 "\"form_first\":true}"),
             0);
    CHECK(at("cv", "G5"));
    CHECK_EQ(s->u[uid("cv")].column, 1);
    CHECK(has("formation", NULL));
    load("small", "", u, LC);
    CHECK(act("{\"type\":\"formation\",\"unit\":\"cv\",\"path\":[\"F5\",\"G5\",\"H5\"]}") != 0);
    /* Line Formation & Terrain: first -> enters the woods in Column, no check */
    load("small", "\"F5\":\"woods\"", u, LC | OPT(HO_LINE_TERRAIN));
    CHECK_EQ(act("{\"type\":\"formation\",\"unit\":\"cv\",\"path\":[\"F5\"],\"form_first\":true}"),
             0);
    CHECK(!has("morale", "line_terrain"));
    CHECK_EQ(s->u[uid("cv")].column, 1);
    load("small", "\"F5\":\"woods\"", u, LC | OPT(HO_LINE_TERRAIN));
    force(1, 1);
    CHECK_EQ(act("{\"type\":\"formation\",\"unit\":\"cv\",\"path\":[\"F5\"],\"form_first\":false}"),
             0);
    CHECK(has("morale", "line_terrain"));
    CHECK_EQ(s->u[uid("cv")].column, 1);
    /* with Facing: a Column facing is chosen at the end */
    load("small", "", u, LC | FACING);
    CHECK_EQ(act("{\"type\":\"formation\",\"unit\":\"cv\",\"path\":[\"F5\"],\"form_first\":true}"),
             0);
    CHECK_EQ(s->pending, HP_FACE);
    CHECK(offered() != 0 && (offered() & 0xaaau) == 0);
    CHECK_EQ(choose_facing(120), 0);
    CHECK_EQ(s->u[uid("cv")].column, 1);
    /* off: no formation actions */
    load("small", "", u, 0);
    CHECK_EQ(listed(HA_FORMATION, NULL, NULL), 0);
}

/* 7 Skirmish under Facing: the move goes through the front, the facing is
 * chosen, then the fire. */
static void t_skirmish(void)
{
    const char *u = UF("sk", "a", "skirmisher", 3, "E5", 90) "," UF("z", "b", "line", 3, "H5", 270);
    load("small", "", u, FACING);
    CHECK_EQ(listed(HA_SKIRMISH, "sk", "D5"), 0);
    CHECK_EQ(act("{\"type\":\"skirmish\",\"unit\":\"sk\",\"path\":[\"F5\"]}"), 0);
    CHECK_EQ(s->pending, HP_FACE);
    CHECK_EQ(choose_facing(90), 0);
    CHECK_EQ(s->pending, HP_SK_FIRE);
    load("small", "", u, 0);
    CHECK_EQ(listed(HA_SKIRMISH, "sk", "D5"), 1);
}

int main(void)
{
    t_geometry();
    t_setup();
    t_move();
    t_move_path();
    t_face_in_place();
    t_front_combat();
    t_flank_close();
    t_flank_withdraw_highlander();
    t_charge();
    t_combat_r1();
    t_keep_facing();
    t_disorderly();
    t_formation_in_move();
    t_skirmish();
    if (sc)
        mk_scenario_free(sc);
    return check_done("test_hm_facing");
}
