/* test_hm_terrain.c - Horse & Musket: the last gaps of the core rules and
 * two optional rules, with forced dice, each on and off:
 *  - H&M 2 Entrenchment hexsides (effects only across its three hexsides:
 *    Combat In at R1 and R2, morale, the stop, a line through a vertex);
 *  - H&M 2 hill-to-hill and the scenario's "hill_to_hill": false;
 *  - H&M 4 over-stacked set-ups ("overstacked") and their end;
 *  - 15 Retreat in R1 Fire Combat for the defenders' return fire;
 *  - 15 Leader Re-Rolls for defensive, return, countercharge and
 *    Highlander dice;
 *  - the scenario checks of the new fields (their JSON paths).
 *
 * Positions are inline scenarios on the 13 x 9 map (pointy, even rows
 * shifted right). E5 touches D5 (W), F5 (E), D4 (NW), E4 (NE), D6 (SW),
 * E6 (SE). */

#include "hm_fixture.h"

/* Parses a scenario (Small Battles chart); NULL (with err) when the check
 * refuses it. */
static mk_scenario *parse(const char *terrain, const char *units, const char *top, mk_error *err)
{
    return hm_position("small", terrain, units, NULL, top, err);
}

static void load(const char *terrain, const char *units, const char *top, uint64_t options)
{
    hm_load("small", terrain, units, NULL, top, options);
}

/* The message of the check's refusal ("" if it loads). */
static const char *refusal(const char *terrain, const char *units, const char *top)
{
    static mk_error err;
    memset(&err, 0, sizeof err);
    mk_scenario *x = parse(terrain, units, top, &err);
    if (x) {
        mk_scenario_free(x);
        return "";
    }
    return err.msg;
}

#define L(id, side, rating, hex, extra)                                                            \
    "{\"id\":\"" id "\",\"side\":\"" side "\",\"kind\":\"leader\",\"rating\":" #rating             \
    ",\"hex\":\"" hex "\"" extra "}"
#define FAR U("far", "b", "militia", 2, "L9") /* an enemy out of the way */

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

static int count(const char *type, const char *purpose)
{
    int n = 0;
    for (int i = 0; i < ev.n; i++)
        n += strcmp(ev.ev[i].type, type) == 0 &&
             (!purpose || (ev.ev[i].purpose && strcmp(ev.ev[i].purpose, purpose) == 0));
    return n;
}

/* The sum of a roll's modifiers, and whether one names `what`. */
static int modsum(const mk_event *e)
{
    int sum = 0;
    for (int i = 0; i < e->nmods; i++)
        sum += e->mods[i].value;
    return sum;
}

/* How many listed actions of a type (and unit, NULL any). */
static int listed(int type, const char *unit)
{
    mk_action l[MK_MAX_ACTIONS];
    int n = rs->legal(s, sc, l, MK_MAX_ACTIONS), c = 0;
    for (int i = 0; i < n; i++)
        c += l[i].type == type && (!unit || l[i].unit == uid(unit));
    return c;
}

static int nchoices(void)
{
    mk_action l[MK_MAX_ACTIONS];
    return rs->legal(s, sc, l, MK_MAX_ACTIONS);
}

/* The pending decision's "unit" in the state JSON ("" if none). */
static const char *pending_unit(void)
{
    static char buf[64];
    json_t *j = rs->state_json(s, sc);
    const char *u = json_string_value(json_object_get(json_object_get(j, "pending"), "unit"));
    snprintf(buf, sizeof buf, "%s", u ? u : "");
    json_decref(j);
    return buf;
}

static bool state_ok(void)
{
    char why[200];
    bool ok = hm_state_ok(s, sc, why, sizeof why);
    if (!ok)
        fprintf(stderr, "state: %s\n", why);
    return ok;
}

/* ---------------------------------------------------------------------- */
/* H&M 2: "Entrenchment terrain effects only apply across the three
 * Entrenchment hexsides." F5 entrenched on its W, NW and SW hexsides: the
 * works face E5, D4... (west); G5 is behind them (across the E hexside). */
#define ENT_WEST "\"F5\":\"entrenchment\""
#define ENT_SIDES ",\"entrenchments\":{\"F5\":[\"W\",\"NW\",\"SW\"]}"

static void t_entrenchment_fire(void)
{
    const char *u = U("li", "a", "line", 3, "E5") "," U("li2", "a", "line", 3,
                                                        "G5") "," U("z", "b", "line", 3, "F5");
    /* across the works (W): Combat In -1, so 7 7 7 miss (need 7) */
    load(ENT_WEST, u, ENT_SIDES, 0);
    force(3, 7, 7, 7);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"li\",\"target\":\"F5\"}"), 0);
    CHECK_EQ(modsum(find("roll", "fire")), -1);
    CHECK_EQ(find("roll", "fire")->hits, 0);
    CHECK_EQ(mp("z"), 3);
    /* from behind (E): no entrenchment effect, the 7 hits */
    load(ENT_WEST, u, ENT_SIDES, 0);
    force(3, 7, 1, 1);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"li2\",\"target\":\"F5\"}"), 0);
    CHECK_EQ(find("roll", "fire")->nmods, 0);
    CHECK_EQ(mp("z"), 2);
    /* R2: the line from D5 crosses the W hexside: -1; from H5 the E one: none */
    const char *ar = U("ar", "a", "artillery", 2, "D5") "," U(
        "ar2", "a", "artillery", 2, "H5") "," U("z", "b", "line", 3, "F5");
    load(ENT_WEST, ar, ENT_SIDES, 0);
    force(3, 8, 1, 1);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"ar\",\"target\":\"F5\"}"), 0);
    CHECK_EQ(modsum(find("roll", "fire")), -1);
    CHECK_EQ(mp("z"), 3);
    load(ENT_WEST, ar, ENT_SIDES, 0);
    force(3, 8, 1, 1);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"ar2\",\"target\":\"F5\"}"), 0);
    CHECK_EQ(find("roll", "fire")->nmods, 0);
    CHECK_EQ(mp("z"), 2);
    /* a line through a vertex (F3 to F5 runs straight up: NW and NE): the
     * effect needs both hexsides entrenched */
    const char *up = U("ar", "a", "artillery", 2, "F3") "," U("z", "b", "line", 3, "F5");
    load(ENT_WEST, up, ENT_SIDES, 0);
    CHECK_EQ(hm_hexsides_toward(sc, hx("F5"), hx("F3")), (1u << 4) | (1u << 5)); /* NW, NE */
    force(3, 8, 1, 1);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"ar\",\"target\":\"F5\"}"), 0);
    CHECK_EQ(find("roll", "fire")->nmods, 0);
    load(ENT_WEST, up, ",\"entrenchments\":{\"F5\":[\"W\",\"NW\",\"NE\"]}", 0);
    force(3, 8, 1, 1);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"ar\",\"target\":\"F5\"}"), 0);
    CHECK_EQ(modsum(find("roll", "fire")), -1);
    /* the same position in clear terrain: no modifier at all */
    load("", u, "", 0);
    force(3, 7, 7, 7);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"li\",\"target\":\"F5\"}"), 0);
    CHECK_EQ(find("roll", "fire")->hits, 3);
}

static void t_entrenchment_morale(void)
{
    const char *u = U("li", "a", "line", 3, "E5") "," U("li2", "a", "line", 3,
                                                        "G5") "," U("z", "b", "line", 3, "F5");
    /* close combat across the works: morale 3 + 1; a 4 passes; defensive
     * fire out of an entrenchment takes no modifier (H&M 8) */
    load(ENT_WEST, u, ENT_SIDES, 0);
    force(7, 4, 1, 1, 1, 1, 1, 1);
    CHECK_EQ(act("{\"type\":\"close_combat\",\"unit\":\"li\",\"target\":\"F5\"}"), 0);
    CHECK_EQ(find("morale", NULL)->need, 4);
    CHECK_EQ(find("morale", NULL)->passed, 1);
    CHECK_EQ(find("roll", "defensive_fire")->nmods, 0);
    CHECK_EQ(modsum(find("roll", "close_combat")), -1); /* the attacker: Combat In -1 */
    CHECK(at("z", "F5"));
    /* from behind: morale 3, the 4 fails, it retreats; no Combat In */
    load(ENT_WEST, u, ENT_SIDES, 0);
    force(4, 4, 1, 1, 1);
    CHECK_EQ(act("{\"type\":\"close_combat\",\"unit\":\"li2\",\"target\":\"F5\"}"), 0);
    CHECK_EQ(find("morale", NULL)->need, 3);
    CHECK_EQ(find("morale", NULL)->passed, 0);
    CHECK_EQ(find("roll", "close_combat")->nmods, 0);
    CHECK_EQ(s->pending, HP_RETREAT);
    /* a check no attack causes (here: called directly) gets no entrenchment bonus */
    load(ENT_WEST, u, ENT_SIDES, 0);
    force(1, 4);
    mk_events_init(&ev, evs, 256);
    CHECK_EQ(hm_morale(s, sc, uid("z"), 0, 0, -1, NULL, "test", &ev, NULL, NULL), 0);
    CHECK_EQ(find("morale", NULL)->need, 3);
}

static void t_entrenchment_move(void)
{
    /* cavalry (3 hexes): entering F5 across its works stops it, from
     * behind it rides on */
    const char *u = U("c", "a", "cavalry", 3, "D5") "," U("c2", "a", "cavalry", 3, "H5") "," FAR;
    load(ENT_WEST, u, ENT_SIDES, 0);
    CHECK(act("{\"type\":\"move\",\"unit\":\"c\",\"path\":[\"E5\",\"F5\",\"G5\"]}") != 0);
    CHECK_EQ(act("{\"type\":\"move\",\"unit\":\"c\",\"path\":[\"E5\",\"F5\"]}"), 0);
    CHECK(at("c", "F5"));
    load(ENT_WEST, u, ENT_SIDES, 0);
    CHECK_EQ(act("{\"type\":\"move\",\"unit\":\"c2\",\"path\":[\"G5\",\"F5\",\"E5\"]}"), 0);
    CHECK(at("c2", "E5"));
    /* the other way round when the works face east */
    load(ENT_WEST, u, ",\"entrenchments\":{\"F5\":[\"E\",\"NE\",\"SE\"]}", 0);
    CHECK(act("{\"type\":\"move\",\"unit\":\"c2\",\"path\":[\"G5\",\"F5\",\"E5\"]}") != 0);
    CHECK_EQ(act("{\"type\":\"move\",\"unit\":\"c\",\"path\":[\"E5\",\"F5\",\"G5\"]}"), 0);
    CHECK(at("c", "G5"));
    /* a charge may pass it from behind but never across its works (H&M 8) */
    const char *ch = U("c", "a", "cavalry", 3, "H5") "," U("z", "b", "line", 3, "D5");
    load(ENT_WEST, ch, ENT_SIDES, 0);
    CHECK_EQ(hm_path_ok(s, sc,
                        &(mk_action){.type = HA_CHARGE,
                                     .unit = (int16_t)uid("c"),
                                     .target = -1,
                                     .npath = 2,
                                     .path = {(int16_t)hx("G5"), (int16_t)hx("F5")}},
                        2),
             true);
    load(ENT_WEST, ch, ",\"entrenchments\":{\"F5\":[\"E\",\"NE\",\"SE\"]}", 0);
    CHECK_EQ(hm_path_ok(s, sc,
                        &(mk_action){.type = HA_CHARGE,
                                     .unit = (int16_t)uid("c"),
                                     .target = -1,
                                     .npath = 2,
                                     .path = {(int16_t)hx("G5"), (int16_t)hx("F5")}},
                        2),
             false);
}

static void t_entrenchment_check(void)
{
    const char *u = FAR;
    CHECK(strstr(refusal(ENT_WEST, u, ""), "map.terrain.F5: an entrenchment needs its three "
                                           "hexsides in entrenchments.F5") != NULL);
    CHECK(strstr(refusal(ENT_WEST, u, ",\"entrenchments\":{\"F5\":[\"W\",\"N\",\"SW\"]}"),
                 "entrenchments.F5[1]: not a hexside") != NULL);
    CHECK(strstr(refusal(ENT_WEST, u, ",\"entrenchments\":{\"F5\":[\"W\",\"w\",\"SW\"]}"),
                 "entrenchments.F5[1]: W is given twice") != NULL);
    CHECK(strstr(refusal(ENT_WEST, u, ",\"entrenchments\":{\"F5\":[\"W\",\"SW\"]}"),
                 "entrenchments.F5: a list of its three hexsides") != NULL);
    CHECK(strstr(refusal("", u, ENT_SIDES), "entrenchments.F5: map.terrain.F5 is clear") != NULL);
    CHECK(strstr(refusal(ENT_WEST, u, ",\"entrenchments\":{\"Z9\":[\"W\",\"NW\",\"SW\"]}"),
                 "entrenchments.Z9") != NULL);
    CHECK(strstr(refusal(ENT_WEST, u, ",\"entrenchments\":[1]"), "entrenchments: an object") !=
          NULL);
    CHECK_STR(refusal(ENT_WEST, u, ",\"entrenchments\":{\"f5\":[\"w\",\"nw\",\"sw\"]}"), "");
}

/* ---------------------------------------------------------------------- */
/* H&M 2: "Hill terrain effects apply hill-to-hill unless specified
 * otherwise in the scenario." By default two hill hexes keep every hill
 * effect between them; "hill_to_hill": false drops them (docs/hm.md). */
static void t_hill(void)
{
    const char *hills = "\"E5\":\"hill\",\"G5\":\"hill\"";
    const char *u = U("ar", "a", "artillery", 2, "E5") "," U("z", "b", "line", 3, "G5");
    /* R2 hill to hill: Combat Out +1 and Combat In -1, both shown */
    load(hills, u, "", 0);
    force(3, 8, 1, 1);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"ar\",\"target\":\"G5\"}"), 0);
    CHECK_EQ(find("roll", "fire")->nmods, 2);
    CHECK_EQ(modsum(find("roll", "fire")), 0);
    load(hills, u, ",\"hill_to_hill\":true", 0);
    force(3, 8, 1, 1);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"ar\",\"target\":\"G5\"}"), 0);
    CHECK_EQ(find("roll", "fire")->nmods, 2);
    /* the scenario specifies otherwise: no hill effect between the hills */
    load(hills, u, ",\"hill_to_hill\":false", 0);
    force(3, 8, 1, 1);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"ar\",\"target\":\"G5\"}"), 0);
    CHECK_EQ(find("roll", "fire")->nmods, 0);
    CHECK_EQ(mp("z"), 2);
    /* ... but a hill still counts against a firer off the hills */
    load("\"G5\":\"hill\"", u, ",\"hill_to_hill\":false", 0);
    force(3, 8, 1, 1);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"ar\",\"target\":\"G5\"}"), 0);
    CHECK_EQ(modsum(find("roll", "fire")), -1);
    /* R1 close combat hill to hill: the defender's morale +1 and Combat In -1 */
    const char *cc = U("li", "a", "line", 3, "F5") "," U("z", "b", "line", 3, "G5");
    const char *two = "\"F5\":\"hill\",\"G5\":\"hill\"";
    load(two, cc, "", 0);
    force(7, 4, 1, 1, 1, 1, 1, 1);
    CHECK_EQ(act("{\"type\":\"close_combat\",\"unit\":\"li\",\"target\":\"G5\"}"), 0);
    CHECK_EQ(find("morale", NULL)->need, 4);
    CHECK_EQ(modsum(find("roll", "close_combat")), -1);
    load(two, cc, ",\"hill_to_hill\":false", 0);
    force(4, 4, 1, 1, 1);
    CHECK_EQ(act("{\"type\":\"close_combat\",\"unit\":\"li\",\"target\":\"G5\"}"), 0);
    CHECK_EQ(find("morale", NULL)->need, 3);
    CHECK_EQ(find("roll", "close_combat")->nmods, 0);
    /* LOS: a hill between two hills blocks by default, not when the
     * scenario says hill effects do not apply hill-to-hill */
    const char *ridge = "\"E5\":\"hill\",\"F5\":\"hill\",\"G5\":\"hill\"";
    load(ridge, u, "", 0);
    CHECK_EQ(listed(HA_FIRE, "ar"), 0);
    load(ridge, u, ",\"hill_to_hill\":false", 0);
    CHECK_EQ(listed(HA_FIRE, "ar"), 1);
    load("\"F5\":\"hill\",\"G5\":\"hill\"", u, ",\"hill_to_hill\":false", 0);
    CHECK_EQ(listed(HA_FIRE, "ar"), 0); /* from clear: the hill in between blocks */
    CHECK(strstr(refusal("", FAR, ",\"hill_to_hill\":\"no\""), "hill_to_hill: true") != NULL);
}

/* ---------------------------------------------------------------------- */
/* H&M 4: "In some scenarios, Units may begin stacked in violation of these
 * stacking limits ... Once a Unit in the over-stacked hex moves out of the
 * hex, that hex must conform to the regular stacking limits for the
 * remainder of the game." */
static void t_overstack_check(void)
{
    const char *pair = U("p", "a", "line", 3, "E5") "," U("q", "a", "line", 3, "E5") "," FAR;
    CHECK(strstr(refusal("", pair, ""), "shares its hex with a unit of its class (H&M 4); a "
                                        "scenario that begins over-stacked lists the hex in "
                                        "\"overstacked\"") != NULL);
    CHECK_STR(refusal("", pair, ",\"overstacked\":[\"E5\"]"), "");
    const char *three = U("p", "a", "line", 3, "E5") "," U("q", "a", "cavalry", 3, "E5") "," U(
        "r", "a", "artillery", 2, "E5") "," FAR;
    CHECK(strstr(refusal("", three, ""), "over the stacking limit of clear") != NULL);
    CHECK_STR(refusal("", three, ",\"overstacked\":[\"E5\"]"), "");
    CHECK(strstr(refusal("\"E5\":\"river\"",
                         U("p", "a", "line", 3, "E5") "," U("q", "a", "cavalry", 3, "E5") "," FAR,
                         ""),
                 "over the stacking limit of river") != NULL);
    CHECK(strstr(refusal("", pair, ",\"overstacked\":[\"E5\",\"F5\"]"),
                 "overstacked[1]: F5 does not begin over-stacked") != NULL);
    CHECK(strstr(refusal("", pair, ",\"overstacked\":[\"E5\",\"e5\"]"),
                 "overstacked[1]: e5 is given twice") != NULL);
    CHECK(strstr(refusal("", pair, ",\"overstacked\":\"E5\""), "overstacked: a list") != NULL);
    CHECK(strstr(refusal("", pair, ",\"overstacked\":[\"Q5\"]"), "overstacked[0]") != NULL);
    const char *five = U("p", "a", "line", 3, "E5") "," U("q", "a", "line", 3, "E5") "," U(
        "r", "a", "line", 3, "E5") "," U("t", "a", "line", 3, "E5") "," U("v", "a", "line", 3,
                                                                          "E5") "," FAR;
    CHECK(strstr(refusal("", five, ",\"overstacked\":[\"E5\"]"), "more than 4 units") != NULL);
    const char *foes = U("p", "a", "line", 3, "E5") "," U("q", "b", "cavalry", 3, "E5");
    CHECK(strstr(refusal("", foes, ",\"overstacked\":[\"E5\"]"), "enemies") != NULL);
}

static void t_overstack_play(void)
{
    /* three units in a clear hex: li, li2 (same class) and ar */
    const char *u = U("li", "a", "line", 3, "E5") "," U("li2", "a", "line", 3, "E5") "," U(
        "ar", "a", "artillery", 2, "E5") "," U("sk", "a", "skirmisher", 2, "D5") "," FAR;
    load("", u, ",\"overstacked\":[\"E5\"]", 0);
    CHECK(hm_overstacked(s, hx("E5")));
    CHECK(state_ok());
    json_t *j = rs->state_json(s, sc);
    CHECK_STR(json_string_value(json_array_get(json_object_get(j, "overstacked"), 0)), "E5");
    json_decref(j);
    /* nobody may join it (the regular limits hold for every unit entering) */
    CHECK(act("{\"type\":\"move\",\"unit\":\"sk\",\"path\":[\"E5\"]}") != 0);
    /* the artillery leaves: two Line Infantry are left, still in breach:
     * the exception goes on until the hex conforms */
    CHECK_EQ(act("{\"type\":\"move\",\"unit\":\"ar\",\"path\":[\"F5\"]}"), 0);
    CHECK(at("ar", "F5"));
    CHECK(hm_overstacked(s, hx("E5")));
    CHECK(state_ok());
    /* one Line Infantry leaves: the hex conforms from now on */
    CHECK_EQ(act("{\"type\":\"move\",\"unit\":\"li\",\"path\":[\"E4\"]}"), 0);
    CHECK(!hm_overstacked(s, hx("E5")));
    CHECK_STR(find("stacking", NULL)->text, "overstack_ended");
    CHECK(state_ok());
    j = rs->state_json(s, sc);
    CHECK(json_object_get(j, "overstacked") == NULL);
    json_decref(j);
    /* it may not fill up again beyond the regular limits */
    s->u[uid("li")].acts = 0;
    CHECK(act("{\"type\":\"move\",\"unit\":\"li\",\"path\":[\"E5\"]}") != 0);
    CHECK_EQ(act("{\"type\":\"move\",\"unit\":\"sk\",\"path\":[\"E5\"]}"), 0);
    /* the invariant refuses a breach in a hex that is not over-stacked */
    load("", u, ",\"overstacked\":[\"E5\"]", 0);
    s->overstack[hx("E5") >> 3] = 0;
    CHECK(!state_ok());
}

static void t_overstack_combat(void)
{
    /* three enemy units in F5 (two Line at 3 MP, cavalry at 2): a hit goes
     * to the highest MP, the owner choosing between the two tied ones only */
    const char *u = U("li", "a", "line", 3, "E5") "," U("y1", "b", "line", 3, "F5") "," U(
        "y2", "b", "line", 3, "F5") "," U("yc", "b", "cavalry", 2, "F5");
    load("", u, ",\"overstacked\":[\"F5\"]", 0);
    force(3, 9, 1, 1);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"li\",\"target\":\"F5\"}"), 0);
    CHECK_EQ(s->pending, HP_HIT_TIE);
    CHECK_EQ(nchoices(), 2);
    CHECK(act("{\"type\":\"choose\",\"choice\":\"yc\"}") != 0);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"y2\"}"), 0);
    CHECK_EQ(mp("y2"), 2);
    CHECK_EQ(mp("y1"), 3);
    CHECK(state_ok());
    /* close combat on the three: each checks morale; those that fail retreat,
     * and the hex, left by a unit, ends its exception once it conforms */
    load("", u, ",\"overstacked\":[\"F5\"]", 0);
    /* y1 passes; y2, yc fail; y1's defensive fire misses; so does the attacker */
    force(9, 1, 6, 6, 1, 1, 1, 1, 1, 1);
    CHECK_EQ(act("{\"type\":\"close_combat\",\"unit\":\"li\",\"target\":\"F5\"}"), 0);
    CHECK_EQ(s->pending, HP_REACT); /* the cavalry may withdraw from infantry (H&M 8) */
    CHECK_STR(pending_unit(), "yc");
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"stand\"}"), 0);
    CHECK_EQ(count("morale", NULL), 3);
    CHECK_EQ(count("roll", "defensive_fire"), 1);
    CHECK_EQ(find("roll", "close_combat")->hits, 0);
    CHECK(hm_overstacked(s, hx("F5")));
    while (s->pending == HP_RETREAT) {
        mk_action l[MK_MAX_ACTIONS];
        int n = rs->legal(s, sc, l, MK_MAX_ACTIONS);
        CHECK(n >= 1);
        mk_events_init(&ev, evs, 256);
        mk_error err = {0};
        CHECK_EQ(rs->apply(s, sc, &l[0], &ev, &err), 0);
        CHECK(state_ok());
    }
    CHECK(at("y1", "F5"));
    CHECK(!at("y2", "F5") && !at("yc", "F5"));
    CHECK(!hm_overstacked(s, hx("F5")));
}

/* ---------------------------------------------------------------------- */
/* 15 Retreat in R1 Fire Combat with Combat at R1: "If using Combat at R1,
 * and the retreating Unit was the first side to fire, the second side gets
 * to fire before the Retreat. If both sides roll natural '0' results, only
 * the first to do so Retreats." */
static void t_r1_defender_retreat(void)
{
    const uint64_t both = (1ull << HO_R1_RETREAT) | (1ull << HO_COMBAT_R1);
    const char *u = U("li", "a", "line", 3, "E5") "," U("z", "b", "line", 3, "F5");
    /* the attacker first, no 0; the defender's return fire rolls a 0: it retreats */
    load("", u, "", both);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"li\",\"target\":\"F5\"}"), 0);
    CHECK_EQ(s->pending, HP_R1_ORDER);
    force(6, 1, 1, 1, 0, 1, 1);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"second\"}"), 0);
    CHECK_EQ(s->pending, HP_R1_RETREAT);
    CHECK_EQ(s->to_move, 1); /* its owner chooses the hex */
    CHECK_STR(pending_unit(), "z");
    CHECK(act("{\"type\":\"choose\",\"choice\":\"D5\"}") != 0); /* not away from E5 */
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"G5\"}"), 0);
    CHECK(at("z", "G5"));
    CHECK(at("li", "E5"));
    /* the hex was vacated by R1 Fire Combat: the firer may advance (H&M 8) */
    CHECK_EQ(s->pending, HP_ADVANCE);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"no\"}"), 0);
    CHECK_EQ(s->pending, HP_NONE);
    /* both roll a 0, the attacker first: only the attacker retreats */
    load("", u, "", both);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"li\",\"target\":\"F5\"}"), 0);
    force(6, 0, 1, 1, 0, 1, 1);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"second\"}"), 0);
    CHECK_EQ(count("roll", "r1_fire"), 1); /* the second side fired before the retreat */
    CHECK_EQ(s->pending, HP_R1_RETREAT);
    CHECK_EQ(s->to_move, 0);
    CHECK_STR(pending_unit(), "li");
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"D5\"}"), 0);
    CHECK(at("li", "D5"));
    CHECK(at("z", "F5"));
    CHECK_EQ(s->pending, HP_NONE);
    /* both roll a 0, the defender first: only the defender retreats, after
     * the attacker fired (at +1) */
    load("", u, "", both);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"li\",\"target\":\"F5\"}"), 0);
    force(6, 0, 1, 1, 0, 1, 1);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"first\"}"), 0);
    CHECK_EQ(count("roll", "fire"), 1);
    CHECK_EQ(s->pending, HP_R1_RETREAT);
    CHECK_STR(pending_unit(), "z");
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"G5\"}"), 0);
    CHECK(at("li", "E5"));
    CHECK(at("z", "G5"));
    CHECK_EQ(s->pending, HP_ADVANCE);
    /* the defender first with two hits and a 0: the attacker does not fire,
     * the defender still retreats */
    load("", u, "", both);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"li\",\"target\":\"F5\"}"), 0);
    force(3, 9, 9, 0);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"first\"}"), 0);
    CHECK_EQ(mp("li"), 1);
    CHECK_EQ(count("roll", "fire"), 0);
    CHECK_EQ(s->pending, HP_R1_RETREAT);
    CHECK_STR(pending_unit(), "z");
    /* two defenders: only the one whose dice show the 0 retreats */
    const char *two = U("li", "a", "line", 3,
                        "E5") "," U("z", "b", "line", 3, "F5") "," U("zc", "b", "cavalry", 3, "F5");
    load("", two, "", both);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"li\",\"target\":\"F5\"}"), 0);
    force(7, 1, 1, 1, 1, 1, 1, 0); /* li; z's three dice; zc's one die (a blue box) */
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"second\"}"), 0);
    CHECK_EQ(count("roll", "r1_fire"), 2);
    CHECK_EQ(s->pending, HP_R1_RETREAT);
    CHECK_STR(pending_unit(), "zc");
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"G5\"}"), 0);
    CHECK(at("zc", "G5"));
    CHECK(at("z", "F5"));
    CHECK_EQ(s->pending, HP_NONE);
    /* the defender cannot retreat (its hexes away from the firer are
     * enemy-held): it loses 1 MP and stays */
    const char *boxed = U("li", "a", "line", 3, "E5") "," U("z", "b", "line", 3, "F5") "," U(
        "p1", "a", "militia", 2, "G5") "," U("p2", "a", "militia", 2,
                                             "F4") "," U("p3", "a", "militia", 2, "F6");
    load("", boxed, "", both);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"li\",\"target\":\"F5\"}"), 0);
    force(6, 1, 1, 1, 0, 1, 1);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"second\"}"), 0);
    CHECK_EQ(s->pending, HP_NONE);
    CHECK(at("z", "F5"));
    CHECK_EQ(mp("z"), 2);
    CHECK(find("no_retreat", NULL)->type != NULL);
    /* off: Combat at R1 alone, the defender's 0 retreats no one */
    load("", u, "", 1ull << HO_COMBAT_R1);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"li\",\"target\":\"F5\"}"), 0);
    force(6, 1, 1, 1, 0, 1, 1);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"second\"}"), 0);
    CHECK_EQ(s->pending, HP_NONE);
    CHECK(at("z", "F5"));
    /* defensive fire in a close combat is not R1 Fire Combat: its 0 retreats no one */
    load("", u, "", both);
    force(7, 1, 0, 1, 1, 1, 1, 1);
    CHECK_EQ(act("{\"type\":\"close_combat\",\"unit\":\"li\",\"target\":\"F5\"}"), 0);
    CHECK_EQ(s->pending, HP_NONE);
    CHECK(at("z", "F5") && at("li", "E5"));
}

/* ---------------------------------------------------------------------- */
/* 15 Leader Re-Rolls: "each player may re-roll a combat die that misses,
 * doing so a number of times equal to the AC's Rating": the defenders'
 * combat dice too (docs/hm.md). Side b's AC has rating 2; side a has no AC. */
#define ACB L("acb", "b", 2, "M1", ",\"commander\":true")

static void t_rerolls_defensive_fire(void)
{
    const char *u = U("li", "a", "line", 3, "E5") "," U("z", "b", "line", 3, "F5") "," ACB;
    load("", u, "", 1ull << HO_REROLLS);
    CHECK_EQ(s->rerolls[0], 0);
    CHECK_EQ(s->rerolls[1], 2);
    force(4, 1, 1, 1, 1); /* z passes; its defensive fire misses three times */
    CHECK_EQ(act("{\"type\":\"close_combat\",\"unit\":\"li\",\"target\":\"F5\"}"), 0);
    CHECK_EQ(s->pending, HP_REROLL);
    CHECK_EQ(s->to_move, 1);
    CHECK_STR(pending_unit(), "z");
    CHECK_EQ(mp("li"), 3);
    force(1, 9);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"yes\"}"), 0);
    CHECK_EQ(find("roll", "reroll")->hits, 1);
    CHECK_EQ(s->pending, HP_REROLL); /* two misses and one re-roll left */
    force(3, 2, 1, 1);               /* a miss; then li, now at 2 MP, rolls two dice */
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"yes\"}"), 0);
    CHECK_EQ(s->rerolls[1], 0);
    CHECK_EQ(s->pending, HP_NONE);
    CHECK_EQ(mp("li"), 2); /* the re-rolled hit landed before the attacker rolled */
    CHECK_EQ(find("roll", "close_combat")->nvalues, 2);
    /* off: no decision */
    load("", u, "", 0);
    force(7, 1, 1, 1, 1, 1, 1, 1);
    CHECK_EQ(act("{\"type\":\"close_combat\",\"unit\":\"li\",\"target\":\"F5\"}"), 0);
    CHECK_EQ(s->pending, HP_NONE);
}

static void t_rerolls_return_fire(void)
{
    const char *u = U("li", "a", "line", 3, "E5") "," U("z", "b", "line", 3, "F5") "," ACB;
    load("", u, "", (1ull << HO_REROLLS) | (1ull << HO_COMBAT_R1));
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"li\",\"target\":\"F5\"}"), 0);
    force(6, 1, 1, 1, 1, 1, 1);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"second\"}"), 0);
    CHECK_EQ(s->pending, HP_REROLL); /* the return fire missed */
    CHECK_STR(pending_unit(), "z");
    force(1, 6); /* +1 firing second: 6 + 1 hits */
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"yes\"}"), 0);
    CHECK_EQ(find("roll", "reroll")->hits, 1);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"no\"}"), 0);
    CHECK_EQ(s->pending, HP_NONE);
    CHECK_EQ(mp("li"), 2);
    CHECK_EQ(s->rerolls[1], 1);
    /* with Retreat in R1 Fire Combat: a re-rolled 0 retreats the roller too */
    load("", u, "", (1ull << HO_REROLLS) | (1ull << HO_COMBAT_R1) | (1ull << HO_R1_RETREAT));
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"li\",\"target\":\"F5\"}"), 0);
    force(6, 1, 1, 1, 1, 1, 1);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"second\"}"), 0);
    force(1, 0);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"yes\"}"), 0);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"no\"}"), 0);
    CHECK_EQ(s->pending, HP_R1_RETREAT);
    CHECK_STR(pending_unit(), "z");
}

static void t_rerolls_countercharge(void)
{
    /* cavalry charges cavalry, which countercharges: its dice miss and it
     * re-rolls one into a hit on the charger */
    const char *u = U("c", "a", "cavalry", 3, "C5") "," U("d", "b", "cavalry", 3, "F5") "," ACB;
    load("", u, "", 1ull << HO_REROLLS);
    CHECK_EQ(act("{\"type\":\"charge\",\"unit\":\"c\",\"path\":[\"D5\",\"E5\"],\"target\":\"F5\"}"),
             0);
    CHECK_EQ(s->pending, HP_REACT);
    force(7, 1, 1, 1, 1, 1, 1, 1); /* d's check; c's charge dice; d's countercharge dice */
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"countercharge\"}"), 0);
    CHECK_EQ(s->pending, HP_REROLL);
    CHECK_STR(pending_unit(), "d");
    CHECK_EQ(mp("c"), 3);
    force(1, 9);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"yes\"}"), 0);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"no\"}"), 0);
    CHECK_EQ(s->pending, HP_NONE);
    CHECK_EQ(mp("c"), 2);
    CHECK_EQ(mp("d"), 3);
}

static void t_rerolls_highlander(void)
{
    const char *u = U("li", "a", "line", 3, "E5") "," U("hl", "b", "highlander", 3, "F5") "," ACB;
    load("", u, "", 1ull << HO_REROLLS);
    CHECK_EQ(act("{\"type\":\"close_combat\",\"unit\":\"li\",\"target\":\"F5\"}"), 0);
    CHECK_EQ(s->pending, HP_REACT);
    force(4, 1, 1, 1, 1); /* hl stands and passes; its defensive fire misses */
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"stand\"}"), 0);
    CHECK_EQ(s->pending, HP_REROLL);
    CHECK_EQ(find("roll", "defensive_fire")->hits, 0);
    force(6, 1, 1, 1, 1, 1, 1); /* li's dice; hl's simultaneous close combat dice */
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"no\"}"), 0);
    CHECK_EQ(s->pending, HP_REROLL);
    CHECK_EQ(find("roll", "highlander")->hits, 0);
    force(1, 9);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"yes\"}"), 0);
    CHECK_EQ(s->pending, HP_REROLL);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"no\"}"), 0);
    CHECK_EQ(s->pending, HP_NONE);
    CHECK_EQ(mp("li"), 2); /* the simultaneous hit */
    CHECK_EQ(s->rerolls[1], 1);
}

/* A re-rolled die counts like any combat die: a natural 1 in fire under
 * Ammunition, a natural 5 checks the leaders (H&M 9). */
static void t_rerolls_die_effects(void)
{
    const char *u = U("li", "a", "line", 3, "E5") "," L(
        "aca", "a", 1, "A1", ",\"commander\":true") "," U("z", "b", "line", 3, "F5");
    load("", u, "", (1ull << HO_REROLLS) | (1ull << HO_AMMUNITION));
    force(3, 2, 2, 2);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"li\",\"target\":\"F5\"}"), 0);
    CHECK_EQ(s->pending, HP_REROLL);
    CHECK(!(s->u[uid("li")].flags & HU_AMMO));
    force(1, 1);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"yes\"}"), 0);
    CHECK(s->u[uid("li")].flags & HU_AMMO);
    CHECK_EQ(s->pending, HP_NONE); /* rating 1: used up */
}

/* The ambusher's close combat dice (H&M 7) are combat dice too: the
 * ambusher's player may re-roll them; the move then goes on. */
static void t_rerolls_ambush(void)
{
    const char *u = U("i", "b", "irregular", 2, "G5") "," U("c", "a", "cavalry", 3, "D5") "," ACB;
    load("\"G5\":\"woods\"", u, "", 1ull << HO_REROLLS);
    CHECK_EQ(act("{\"type\":\"move\",\"unit\":\"c\",\"path\":[\"E5\",\"F5\",\"E6\"]}"), 0);
    CHECK_EQ(s->pending, HP_AMBUSH);
    CHECK(at("c", "F5"));
    force(4, 1, 1, 1, 1); /* the ambush succeeds; its three dice miss */
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"i\"}"), 0);
    CHECK_EQ(s->pending, HP_REROLL);
    CHECK_EQ(s->to_move, 1);
    CHECK_STR(pending_unit(), "i");
    force(1, 9);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"yes\"}"), 0);
    CHECK_EQ(s->pending, HP_REROLL);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"no\"}"), 0);
    CHECK_EQ(s->pending, HP_NONE);
    CHECK_EQ(mp("c"), 2);
    CHECK(at("c", "E6")); /* the move went on */
    CHECK_EQ(s->rerolls[1], 1);
    CHECK(state_ok());
    /* off: the misses stand and the move goes on at once */
    load("\"G5\":\"woods\"", u, "", 0);
    CHECK_EQ(act("{\"type\":\"move\",\"unit\":\"c\",\"path\":[\"E5\",\"F5\",\"E6\"]}"), 0);
    force(4, 1, 1, 1, 1);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"i\"}"), 0);
    CHECK_EQ(s->pending, HP_NONE);
    CHECK(at("c", "E6"));
    CHECK_EQ(mp("c"), 3);
}

/* 15 Leaders in Combat: "roll a single combat die": a miss may be re-rolled. */
static void t_rerolls_leader_die(void)
{
    const char *u = U("li", "a", "line", 3, "E5") "," L("l", "a", 2, "E5", "") "," L(
        "aca", "a", 1, "A1", ",\"commander\":true") "," U("z", "b", "line", 3, "F5");
    load("", u, "", (1ull << HO_REROLLS) | (1ull << HO_LEADERS_COMBAT));
    force(3, 7, 1, 1);
    CHECK_EQ(act("{\"type\":\"fire\",\"unit\":\"li\",\"target\":\"F5\",\"leader_rolls\":true}"), 0);
    CHECK_EQ(s->pending, HP_REROLL);
    CHECK_STR(pending_unit(), "li");
    force(1, 5); /* the leader's die: above his rating, a miss */
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"no\"}"), 0);
    CHECK_EQ(find("roll", "leader_combat")->hits, 0);
    CHECK_EQ(s->pending, HP_REROLL);
    CHECK_STR(pending_unit(), "l");
    force(1, 2);
    CHECK_EQ(act("{\"type\":\"choose\",\"choice\":\"yes\"}"), 0);
    CHECK_EQ(find("roll", "reroll")->hits, 1);
    CHECK_EQ(s->pending, HP_NONE);
    CHECK_EQ(mp("z"), 1);
    CHECK_EQ(s->rerolls[0], 0);
}

int main(void)
{
    t_entrenchment_fire();
    t_entrenchment_morale();
    t_entrenchment_move();
    t_entrenchment_check();
    t_hill();
    t_overstack_check();
    t_overstack_play();
    t_overstack_combat();
    t_r1_defender_retreat();
    t_rerolls_defensive_fire();
    t_rerolls_return_fire();
    t_rerolls_countercharge();
    t_rerolls_highlander();
    t_rerolls_die_effects();
    t_rerolls_ambush();
    t_rerolls_leader_die();
    if (sc)
        mk_scenario_free(sc);
    return check_done("test_hm_terrain");
}
