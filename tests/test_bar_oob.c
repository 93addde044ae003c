/* test_bar_oob.c - Monmouth orders of battle and scenario set-ups
 * (rules/bar/oob.c, data/bar/oob.json, data/bar/scenarios/): the shipped
 * files load; the units and leaders each scenario's text lists are there
 * with the text's set-up hex or area, facing, formation and arrival
 * (Monmouth 7.1b-c, 7.2b-c, 7.3b-c, 7.4b-c, spot checks named by
 * section); and each validation error is reported, naming the file, the
 * JSON path and the value, for a broken inline file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "rules/bar/bar.h"

static bar_oob oob;
static bar_scen sc[5];   /* 1-4 */
static mk_grid grid;

#define T(d, h, m) bar_turn_of(d, h, m)

static mk_hex H(const char *label)
{
    mk_hex h = MK_NO_HEX;
    char e[128];
    if (mk_hex_parse(&grid, label, &h, e, sizeof e))
        fprintf(stderr, "bad test hex %s: %s\n", label, e);
    return h;
}

static int U(const char *id)
{
    int i = bar_oob_find_unit(&oob, id);
    if (i < 0)
        fprintf(stderr, "no unit %s\n", id);
    return i;
}

static int L(const char *id)
{
    int i = bar_oob_find_leader(&oob, id);
    if (i < 0)
        fprintf(stderr, "no leader %s\n", id);
    return i;
}

static const bar_place *PU(int s, const char *id) { return bar_scen_unit_place(&sc[s], U(id)); }
static const bar_place *PL(int s, const char *id) { return bar_scen_leader_place(&sc[s], L(id)); }

/* The unit is set up in exactly hex with formations and facings. */
static int at_hex(const bar_place *p, const char *hex, unsigned formations, unsigned facings)
{
    return p && p->at == BAR_AT_HEX && p->hex[0] == H(hex) && p->formations == formations &&
           p->facings == facings;
}

static int within(const bar_place *p, int r, const char *hex)
{
    return p && p->at == BAR_AT_WITHIN && p->radius == r && p->hex[0] == H(hex);
}

#define EAST BAR_FACE(90)
#define WEST BAR_FACE(270)
#define SE BAR_FACE(120)
#define NW BAR_FACE(300)
#define NE BAR_FACE(60)

/* ---- the order of battle ------------------------------------------------ */

static void test_oob_loads(void)
{
    mk_error err = {0};
    int rc = bar_oob_load(&oob, NULL, &err);
    if (rc)
        fprintf(stderr, "%s\n", err.msg);
    CHECK_EQ(rc, 0);
    CHECK(oob.estimate);   /* the file says it holds our estimates */
    CHECK(oob.nunits >= 100);
    CHECK(oob.nleaders >= 40);
}

/* 3.1, 4.1: types, nationalities, rows, links. */
static void test_oob_units(void)
{
    const bar_unit *u = &oob.unit[U("Fld/SD#1")];
    CHECK_EQ(u->type, BAR_UT_ART_FIELD);
    CHECK_EQ(u->command, bar_oob_find_org(&oob, BAR_AMERICAN, "SD"));
    CHECK(U("Fld/SD#2") >= 0);
    CHECK_EQ(bar_oob_find_unit(&oob, "Fld/SD"), -1);   /* the two counters of "Fld/SD [x2]" are told apart */
    /* 3.2b E: Butler's Picked Men and the SCLH are Independents of Wayne's Wing */
    u = &oob.unit[U("Bpm/SD")];
    CHECK(u->independent);
    CHECK_EQ(u->wing, bar_oob_find_org(&oob, BAR_AMERICAN, "WAY"));
    CHECK_EQ(oob.unit[U("SCLH/NJB")].type, BAR_UT_CAVALRY);
    /* 3.1a-b */
    CHECK_EQ(oob.unit[U("WG/MOR")].type, BAR_UT_GUARD);
    CHECK_EQ(oob.unit[U("MNJM/MOR")].type, BAR_UT_MILITIA);
    CHECK_EQ(oob.unit[U("SM/DIC")].type, BAR_UT_MILITIA);
    CHECK_EQ(oob.unit[U("RB/MOR")].type, BAR_UT_RIFLE);
    CHECK_EQ(oob.unit[U("RB/MOR")].fire_row, BAR_FR_RIFLE);
    CHECK(oob.unit[U("NCLI/MOR")].skirmish);
    CHECK_EQ(oob.unit[U("NCLI/MOR")].parent, -1);   /* 3.1b B: no parents */
    /* 4.1b B-E */
    CHECK_EQ(oob.unit[U("A/QR")].parent, U("QR"));
    CHECK_EQ(oob.unit[U("B/1 Lt")].parent, U("1 Lt"));
    CHECK(oob.unit[U("A/QR")].skirmish);
    CHECK(!oob.unit[U("QR")].skirmish);                 /* parents are not */
    CHECK_EQ(oob.unit[U("A/QR")].fire_row, BAR_FR_FOOT); /* 4.1b D */
    CHECK_EQ(oob.unit[U("A/1 Lt")].fire_row, BAR_FR_LIGHT);
    CHECK_EQ(oob.unit[U("MtdJ/JC")].mode, BAR_MODE_MOUNTED);
    CHECK_EQ(oob.unit[U("MtdJ/JC")].parent, -1);
    CHECK_EQ(oob.unit[U("Chas/Jag")].nation, BAR_NAT_ANSPACH);
    CHECK_EQ(oob.unit[U("Chas/Jag")].fire_row, BAR_FR_JAEGER);
    CHECK_EQ(oob.unit[U("Len/HG")].nation, BAR_NAT_HESSIAN);
    CHECK_EQ(oob.unit[U("Len/HG")].type, BAR_UT_GRENADIER);
    CHECK_EQ(oob.unit[U("1 Gd/Gds")].type, BAR_UT_GUARD);
    CHECK_EQ(oob.unit[U("Lt/COR")].type, BAR_UT_ART_LIGHT);   /* 4.1c */
    CHECK_EQ(oob.unit[U("Lt/COR")].fire_row, BAR_FR_LIGHT_ARTILLERY);
    CHECK_EQ(oob.unit[U("16 Da")].type, BAR_UT_CAVALRY);
    CHECK_EQ(oob.unit[U("2/42/3rd")].command, bar_oob_find_org(&oob, BAR_BRITISH, "3rd"));
    /* 2.1c: no unit above 16 SPs; every strength here is an estimate */
    int ok = 1;
    for (int i = 0; i < oob.nunits; i++)
        if (oob.unit[i].sp < 1 || oob.unit[i].sp > 16 || !(oob.unit[i].estimate & BAR_EST_SP))
            ok = 0;
    CHECK(ok);
    /* breakdown counters add up to their parent */
    CHECK_EQ(oob.unit[U("A/QR")].sp + oob.unit[U("B/QR")].sp, oob.unit[U("QR")].sp);
    CHECK_EQ(oob.unit[U("A/1 Lt")].sp + oob.unit[U("B/1 Lt")].sp, oob.unit[U("1 Lt")].sp);
}

/* 2.4b, 3.2, 4.2: leaders, roles, the values the text gives. */
static void test_oob_leaders(void)
{
    const bar_leader *l = &oob.leader[L("GW")];
    CHECK_EQ(l->role, BAR_LR_ARMY);
    CHECK_EQ(l->wan, 7);                     /* 3.2a B */
    CHECK(!(l->estimate & BAR_EST_WAN));
    CHECK(l->estimate & BAR_EST_CR);
    CHECK_EQ(oob.leader[L("HC")].wan, 7);    /* 4.2a B */
    l = &oob.leader[L("LEE/GW")];
    CHECK_EQ(l->command_rating, 0);          /* 3.2b G i */
    CHECK_EQ(l->wan, 9);
    CHECK_EQ(l->role, BAR_LR_DETACHMENT);
    CHECK(!(l->estimate & (BAR_EST_CR | BAR_EST_WAN)));
    CHECK_EQ(oob.leader[L("DD/LEE")].loss_value, 0);   /* 3.2b F */
    CHECK(!(oob.leader[L("DD/LEE")].estimate & BAR_EST_LOSS));
    CHECK_EQ(oob.leader[L("DIC")].loss_set, 'B');      /* 2.4b A */
    CHECK_EQ(oob.leader[L("GRE/GW")].loss_set, 'A');
    CHECK_EQ(oob.leader[L("KNO/GW")].role, BAR_LR_SPECIAL);
    CHECK_EQ(oob.leader[L("KNO/GW")].leads, -1);
    CHECK_EQ(oob.leader[L("WAY/LEE")].leads, bar_oob_find_org(&oob, BAR_AMERICAN, "WAY"));
    /* "PAT" is Paterson's Command (American) and Pattison (British) */
    CHECK_STR(oob.leader[L("PAT/ALE")].name, "Paterson");
    CHECK_STR(oob.leader[L("PAT/HC")].name, "Pattison");
    CHECK(bar_oob_find_org(&oob, BAR_AMERICAN, "PAT") >= 0);
    CHECK_EQ(bar_oob_find_org(&oob, BAR_BRITISH, "PAT"), -1);
    /* organisations and their leaders agree */
    int ok = 1;
    for (int i = 0; i < oob.norgs; i++)
        if (oob.org[i].leader >= 0 && oob.leader[oob.org[i].leader].leads != i)
            ok = 0;
    CHECK(ok);
    /* 3.2a A, 4.2a A: every leader of the lines of seniority is here
     * (Ferbiger = Febiger, AMB-BAR-16) */
    for (int side = 0; side < 2; side++) {
        int missing = 0;
        for (int r = 0; r < bar_seniority_count(side); r++) {
            const char *n = bar_seniority_name(side, r);
            int found = 0;
            for (int i = 0; i < oob.nleaders; i++)
                if (oob.leader[i].side == side &&
                    (strcmp(oob.leader[i].name, n) == 0 ||
                     (strcmp(n, "Ferbiger") == 0 && strcmp(oob.leader[i].name, "Febiger") == 0)))
                    found = 1;
            if (!found) {
                fprintf(stderr, "seniority: %s missing\n", n);
                missing++;
            }
        }
        CHECK_EQ(missing, 0);
    }
}

/* ---- the scenarios -------------------------------------------------------- */

static void test_scenarios_load(void)
{
    for (int n = 1; n <= 4; n++) {
        mk_error err = {0};
        int rc = bar_scen_load(&sc[n], &oob, n, NULL, &err);
        if (rc)
            fprintf(stderr, "scenario %d: %s\n", n, err.msg);
        CHECK_EQ(rc, 0);
        CHECK_EQ(sc[n].scenario, n);
        CHECK_EQ(sc[n].first_turn, bar_scenario_first_turn(n));
        CHECK_EQ(sc[n].last_turn, bar_scenario_last_turn(n));
    }
    CHECK_STR(sc[1].title, "Lee's Repulse");
    CHECK_STR(sc[2].title, "Washington's Stand");
    mk_error err = {0};
    CHECK_EQ(bar_scen_load(&sc[0], &oob, 5, NULL, &err), -1);
}

/* 7.1a, 7.2a: first/last turn, End Turn Number, who deploys first, switches. */
static void test_7_1a_special_rules(void)
{
    CHECK_EQ(sc[1].first_turn, T(28, 10, 0));
    CHECK_EQ(sc[1].last_turn, T(28, 13, 0));
    CHECK_EQ(sc[1].netn, 1);
    CHECK_EQ(sc[1].etn_value[0], 7);
    CHECK_EQ(sc[1].deploys_first, BAR_AMERICAN);
    CHECK_EQ(sc[2].deploys_first, BAR_BRITISH);   /* 7.2a B */
    /* 7.1a A: no movement west of the W21xx hex row: column W21 = 21st */
    CHECK_EQ(bar_scen_switch(&sc[1], "west_limit_column", -1), 20);
    CHECK_EQ(bar_scen_switch(&sc[1], "lee_detachment", 0), 1);
    CHECK_EQ(bar_scen_switch(&sc[2], "lee_detachment", 1), 0);
    CHECK_EQ(bar_scen_switch(&sc[1], "british_detachments", 1), 0);   /* 4.3 */
    CHECK_EQ(bar_scen_switch(&sc[2], "off_map_movement", 0), 1);       /* 3.4c */
    CHECK_EQ(bar_scen_switch(&sc[1], "off_map_movement", 1), 0);
    CHECK_EQ(bar_scen_switch(&sc[1], "no_such_rule", 42), 42);
    /* 7.4a */
    CHECK_EQ(bar_scen_switch(&sc[4], "dismount_from", -1), T(29, 5, 0));
    CHECK_EQ(bar_scen_switch(&sc[4], "army_morale_relief", -1), T(29, 4, 40));
    CHECK_EQ(bar_scen_switch(&sc[4], "baggage_raids_from", -1), T(28, 19, 20));
    CHECK_EQ(sc[4].netn, 4);
    CHECK_EQ(sc[4].etn_from[3], T(29, 0, 20));   /* AMB-BAR-12 */
    /* 7.1a C: the optional Morgan variant, not part of the plain set-up */
    CHECK_EQ(sc[1].nvariants, 1);
    CHECK(PU(1, "RB/MOR") == NULL);
    int found = 0;
    for (int i = 0; i < sc[1].nplaces; i++)
        if (sc[1].place[i].variant == 1 && sc[1].place[i].unit == U("RB/MOR") &&
            within(&sc[1].place[i], 4, "E1535"))
            found = 1;
    CHECK(found);
    CHECK_EQ(sc[1].choice_max_sp, 25);
    CHECK_EQ(sc[1].choice_within, 6);
    CHECK_EQ(sc[1].choice_leader, L("HC"));
}

/* 7.1b (and the same text in 7.3b, 7.4b). */
static void test_7_1b_american_setup(void)
{
    for (int s = 1; s <= 4; s += (s == 1 ? 2 : 1)) {
        CHECK(within(PL(s, "LEE/GW"), 1, "E1525"));
        CHECK(at_hex(PL(s, "WAY/LEE"), "E2024", 0, 0));
        CHECK(at_hex(PU(s, "Fld/GD"), "E1726", BAR_F_UNLIMBERED, EAST));
        CHECK(at_hex(PU(s, "Fld/JD"), "E1726", BAR_F_UNLIMBERED, EAST));
        const bar_place *p = PU(s, "Va Bn/GD");
        CHECK(within(p, 1, "E2019") && p->formations == BAR_F_LINE && p->facings == EAST);
        CHECK(within(PL(s, "GD/LEE"), 1, "E2019"));   /* "Colonel Grayson" */
        p = PU(s, "Hen/JD");
        CHECK(within(p, 1, "E2023") && p->nexcept == 1 && p->except[0] == H("E2024") &&
              p->formations == BAR_F_LINE && p->facings == SE);
        CHECK(at_hex(PU(s, "Bpm/SD"), "E2024", BAR_F_LINE, SE));
        p = PU(s, "Gpm/SD");
        CHECK(within(p, 1, "E0827") && p->max_col == mk_hex_col(&grid, H("E0801")) &&
              p->formations == BAR_F_LINE && p->facings == (EAST | SE));
        p = PU(s, "Fld/SD#2");
        CHECK(within(p, 1, "E0827") && p->formations == BAR_F_ANY && p->facings == (EAST | SE));
        CHECK(within(PL(s, "SD/LEE"), 1, "E0827"));
        CHECK(at_hex(PU(s, "SCLH/NJB"), "E1924", BAR_F_LINE, SE));
        static const char *const nj[][2] = {
            {"1NJ/NJB", "E1023"}, {"2NJ/NJB", "E0923"}, {"3NJ/NJB", "E0823"}, {"4NJ/NJB", "E0723"}};
        for (int i = 0; i < 4; i++) {
            p = PU(s, nj[i][0]);
            CHECK(at_hex(p, nj[i][1], BAR_F_MARCH_COLUMN, 0) && p->face_road_east);
        }
        p = PU(s, "Fld/NJB");
        CHECK(at_hex(p, "E0623", BAR_F_LIMBERED, 0) && p->face_road_east);
        p = PL(s, "NJB/LEE");   /* not placed: with any unit of his Command */
        CHECK(p && p->at == BAR_AT_WITH && p->with_org == bar_oob_find_org(&oob, BAR_AMERICAN, "NJB"));
        p = PU(s, "WBn/LAF");
        CHECK(within(p, 1, "E1525") && p->formations == BAR_F_ANY && p->facings == SE);
        CHECK(at_hex(PU(s, "RIBn/DD"), "E1228", BAR_F_LINE, EAST));
        CHECK(at_hex(PU(s, "CTBn/DD"), "E1229", BAR_F_LINE, EAST));
        p = PU(s, "Fld/DD");
        CHECK(p && p->at == BAR_AT_WITH && p->nwith == 2 && p->with_unit[0] == U("RIBn/DD") &&
              p->with_unit[1] == U("CTBn/DD") && p->formations == BAR_F_UNLIMBERED && p->facings == EAST);
    }
    /* scenario 1 has no Dickinson, no Washington, no Alexander's Wing */
    CHECK(PU(1, "HM/DIC") == NULL);
    CHECK(PL(1, "GW") == NULL);
    CHECK(PU(1, "2Ma/LEA") == NULL);
    /* 7.3b, 7.4b: Dickinson's five units within four hexes of W1406 */
    CHECK(within(PU(3, "SM/DIC"), 4, "W1406"));
    CHECK(within(PU(4, "HM/DIC"), 4, "W1406"));
    CHECK_EQ(PU(3, "SM/DIC")->formations, BAR_F_ANY);
}

/* 7.1c (and 7.3c, 7.4c): British set-up. */
static void test_7_1c_british_setup(void)
{
    for (int s = 1; s <= 4; s += (s == 1 ? 2 : 1)) {
        CHECK(at_hex(PL(s, "HC"), "E2827", 0, 0));
        CHECK(at_hex(PU(s, "16 Da"), "E3020", BAR_F_LINE, WEST));
        CHECK(at_hex(PU(s, "16 Db"), "E2628", BAR_F_LINE, NW));
        CHECK(at_hex(PU(s, "16 Dc"), "E2429", BAR_F_LINE, NW));
        CHECK(at_hex(PU(s, "A/QR"), "E3025", BAR_F_SKIRMISH, WEST));
        CHECK(at_hex(PU(s, "B/QR"), "E3024", BAR_F_SKIRMISH, WEST));
        CHECK(at_hex(PU(s, "QRD"), "E3023", BAR_F_LINE, WEST));
        CHECK(at_hex(PU(s, "A/1 Lt"), "E3022", BAR_F_SKIRMISH, WEST));
        CHECK(at_hex(PU(s, "B/1 Lt"), "E3021", BAR_F_SKIRMISH, WEST));
        CHECK(at_hex(PU(s, "Lt/COR"), "E2925", BAR_F_UNLIMBERED, WEST));
    }
}

/* 7.1c B-C: the 10:20 and 10:40 AM British reinforcements, in order. */
static void test_7_1c_reinforcements(void)
{
    static const char *const first[] = {"Fld/COR", "2 Gr", "1 Gr", "Len/HG", "Lin/HG", "Min/HG"};
    static const char *const second[] = {
        "2 Gd/Gds", "1 Gd/Gds", "Fld/5th", "63/5th", "26/5th", "7/5th",   "Fld/4th", "64/4th", "46/4th",
        "37/4th",   "33/4th",   "Fld/3rd", "44/3rd", "2/42/3rd", "1/42/3rd", "17/3rd", "15/3rd"};
    for (int s = 1; s <= 4; s += (s == 1 ? 2 : 1)) {
        for (int i = 0; i < 6; i++) {
            const bar_place *p = PU(s, first[i]);
            CHECK(p && p->at == BAR_AT_GROUP && p->order == i);
            if (!p)
                continue;
            const bar_group *g = &sc[s].group[p->group];
            CHECK_EQ(g->first_turn, T(28, 10, 20));
            CHECK_EQ(g->side, BAR_BRITISH);
            CHECK(g->nentry == 1 && g->entry[0] == H("E3915"));
            CHECK_EQ(g->formations, BAR_F_ROAD_COLUMN);
            CHECK_EQ(g->mp_limit_half, 4);   /* "only 2 MPs" */
            CHECK(g->no_leader_initiative);
            CHECK_EQ(g->order, BAR_ORDER_EXACT);
        }
        for (int i = 0; i < 17; i++) {
            const bar_place *p = PU(s, second[i]);
            CHECK(p && p->at == BAR_AT_GROUP && p->order == i);
            if (!p)
                continue;
            const bar_group *g = &sc[s].group[p->group];
            CHECK_EQ(g->first_turn, T(28, 10, 40));
            CHECK_EQ(g->mp_limit_half, -1);   /* "no restrictions upon arrival" */
            CHECK(!g->no_leader_initiative);
            CHECK(g->entry[0] == H("E3915"));
        }
        /* B: Kospoth with any of the Hessian Grenadiere; A: Cornwallis with
         * any unit of the second group; Pattison with any non-German gun;
         * the other leaders with any unit of their Command */
        const bar_place *k = PL(s, "HG/COR");
        CHECK(k && k->nwith == 3 && k->with_unit[0] == U("Len/HG") &&
              sc[s].group[k->group].first_turn == T(28, 10, 20));
        const bar_place *c = PL(s, "COR/HC");
        CHECK(c && c->with_group && sc[s].group[c->group].first_turn == T(28, 10, 40));
        const bar_place *pt = PL(s, "PAT/HC");
        CHECK(pt && pt->nwith == 4 && pt->with_unit[0] == U("Fld/COR"));
        const bar_place *g = PL(s, "3rd/COR");
        CHECK(g && g->with_org == bar_oob_find_org(&oob, BAR_BRITISH, "3rd"));
        /* 7.1c: nobody of the two groups sets up on the map */
        CHECK(PU(s, "1 Gr")->at == BAR_AT_GROUP);
    }
}

/* 7.1d, 7.2d, 7.3d, 7.4d: the victory parameters. */
static void test_victory_params(void)
{
    const bar_sc_victory *v = &sc[1].victory;
    CHECK_EQ(v->turn, T(28, 13, 0));
    CHECK_EQ(v->auto_draw, 8);
    CHECK_EQ(v->norchard, 4);
    CHECK(v->orchard[0] == H("W2314") && v->orchard[3] == H("W2514"));
    CHECK(v->hold_hex == H("W2220"));
    CHECK(v->line_end == H("E3915") && v->threat_hex == H("E3915"));   /* AMB-BAR-1 */
    v = &sc[2].victory;
    CHECK_EQ(v->turn, T(28, 23, 0));
    CHECK_EQ(v->auto_draw, 10);
    CHECK_EQ(v->on_map_loss, 1);
    CHECK(v->exit_hex == H("E3915") && v->exit_within == 5);
    CHECK_EQ(v->exit_light, (1u << BAR_MOONLIT) | (1u << BAR_NIGHT));
    CHECK_EQ(v->nadvance, 0);
    v = &sc[3].victory;
    CHECK_EQ(v->auto_draw, 15);
    CHECK_EQ(v->nadvance, 10);
    CHECK(v->advance[0] == H("E1623") && v->advance_mod[0] == -30);
    CHECK(v->advance[5] == H("W2018") && v->advance_mod[5] == 5);
    CHECK(v->advance[9] == H("W0201") && v->advance_mod[9] == 25);
    v = &sc[4].victory;
    CHECK_EQ(v->turn, T(29, 19, 0));   /* AMB-BAR-6 */
    CHECK(v->baggage);
    CHECK(v->exit_hex == MK_NO_HEX);   /* 7.4d C gives no exit clause */
}

/* 7.2b: American set-up of Washington's Stand. */
static void test_7_2b_american_setup(void)
{
    const bar_place *p = PL(2, "GW");
    CHECK(p && p->at == BAR_AT_WITH && p->with_org == bar_oob_find_org(&oob, BAR_AMERICAN, "ALE"));
    CHECK(at_hex(PL(2, "KNO/GW"), "W1918", 0, 0));
    p = PU(2, "MiM/DIC");
    CHECK(within(p, 1, "W2208") && p->terrain == BAR_T_WOODS && p->formations == BAR_F_LINE &&
          p->facings == EAST);
    CHECK(PU(2, "SM/DIC") == NULL);   /* 7.2b lists four militia units */
    p = PL(2, "LAF/LEE");
    CHECK(p && p->at == BAR_AT_HEXES && p->nhex == 2 && p->hex[0] == H("W1408") && p->hex[1] == H("W1409"));
    CHECK(at_hex(PU(2, "1NJ/NJB"), "W1409", BAR_F_LINE, EAST));
    CHECK(at_hex(PU(2, "2NJ/NJB"), "W1408", BAR_F_LINE, EAST));
    CHECK(PU(2, "3NJ/NJB") == NULL);   /* 7.2a C: not all units take part */
    p = PU(2, "Fld/SD#1");
    CHECK(within(p, 1, "W1613") && p->formations == BAR_F_ANY && p->facings == BAR_FACE_ANY);
    p = PU(2, "Fld/SD#2");
    CHECK(within(p, 1, "W1527") && p->as_independent && p->formations == BAR_F_UNLIMBERED);
    CHECK(PU(2, "Gpm/SD") == NULL);
    p = PU(2, "8Ma/LEA");
    CHECK(p && p->at == BAR_AT_HEXES && p->hex[0] == H("W1717") && p->hex[1] == H("W1817") &&
          p->formations == BAR_F_LINE && p->facings == SE);
    CHECK(at_hex(PU(2, "Fld/LEA"), "W1819", BAR_F_UNLIMBERED, SE));
    CHECK(at_hex(PU(2, "Fld/GLO"), "W1819", BAR_F_UNLIMBERED, SE));
    p = PU(2, "15Ma/GLO");
    CHECK(p && p->hex[0] == H("W1818") && p->hex[1] == H("W1917"));
    p = PU(2, "10Pa/1PaB");
    CHECK(p && p->hex[0] == H("W1620") && p->hex[1] == H("W1719") &&
          p->formations == (BAR_F_LINE | BAR_F_GENERAL_ORDER));
    CHECK(at_hex(PU(2, "Fld/1PaB"), "W1918", BAR_F_UNLIMBERED, SE));
    p = PU(2, "1NY/2PaB");
    CHECK(p && p->hex[0] == H("W1518") && p->hex[1] == H("W1419"));
    p = PU(2, "Spen/3PaB");
    CHECK(p && p->hex[0] == H("W1619") && p->hex[1] == H("W1718") && p->formations == BAR_F_LINE);
    CHECK(at_hex(PU(2, "Fld/3PaB"), "W2018", BAR_F_UNLIMBERED, SE));
    CHECK(within(PL(2, "GRE/GW"), 1, "W1527"));
    CHECK(within(PL(2, "duPM/GRE"), 1, "W1527"));
    p = PU(2, "2&5Ct/HUN");
    CHECK(p && p->hex[0] == H("W2017") && p->hex[1] == H("W2016") && p->facings == EAST);
    CHECK(at_hex(PU(2, "Fld/HUN"), "W2018", BAR_F_UNLIMBERED, SE));
    p = PU(2, "3&7Va/WOO");
    CHECK(within(p, 1, "W1527") && p->facings == NE &&
          p->formations == (BAR_F_LINE | BAR_F_UNLIMBERED));
}

/* 7.2b A-B, 7.3b, 7.4b: American reinforcements. */
static void test_american_reinforcements(void)
{
    const bar_place *p = PL(2, "POR/GRE");
    CHECK(p && p->at == BAR_AT_GROUP);
    if (p) {
        const bar_group *g = &sc[2].group[p->group];
        CHECK_EQ(g->first_turn, T(28, 15, 0));
        CHECK_EQ(g->mp_limit_half, 5);   /* 2 1/2 MPs */
        CHECK(g->no_leader_initiative);
        CHECK_EQ(g->order, BAR_ORDER_ANY);
        CHECK_EQ(g->norgs, 4);
        CHECK(g->entry[0] == H("W0201"));
        CHECK(PL(2, "NCB/GRE")->group == p->group);
        CHECK(PL(2, "WEE/GRE")->group == p->group);
    }
    p = PL(2, "STE/GW");
    CHECK(p && p->with_group && sc[2].group[p->group].first_turn == T(28, 18, 0));
    CHECK(PL(2, "MUH/GRE")->group == p->group);
    CHECK_EQ(sc[2].group[p->group].mp_limit_half, -1);
    /* 7.3b A: Washington at Noon; B: the 12:40 PM column in its order */
    p = PL(3, "GW");
    CHECK(p && sc[3].group[p->group].first_turn == T(28, 12, 0));
    const bar_place *woo = PU(3, "11&15Va/WOO"), *gre = PL(3, "GRE/GW"), *hun = PU(3, "1&7Ct/HUN"),
                    *kno = PL(3, "KNO/GW"), *fglo = PU(3, "Fld/GLO"), *fhun = PU(3, "Fld/HUN"),
                    *glo = PU(3, "1Ma/GLO"), *ale = PL(3, "ALE/GW"), *lea = PU(3, "2Ma/LEA"),
                    *mag = PU(3, "Malc/3PaB");
    CHECK(woo && gre && hun && kno && fglo && fhun && glo && ale && lea && mag);
    if (woo && gre && hun && kno && fglo && fhun && glo && ale && lea && mag) {
        CHECK_EQ(sc[3].group[woo->group].first_turn, T(28, 12, 40));
        CHECK_EQ(sc[3].group[woo->group].order, BAR_ORDER_AS_LISTED);
        CHECK(woo->order < hun->order && hun->order < kno->order && kno->order < fglo->order &&
              fglo->order < fhun->order && fhun->order < glo->order && glo->order < lea->order &&
              lea->order < mag->order);
        CHECK(gre->with_org == bar_oob_find_org(&oob, BAR_AMERICAN, "WOO"));
        CHECK(ale->with_org == bar_oob_find_org(&oob, BAR_AMERICAN, "GLO"));
        CHECK(fglo->group == glo->group);
    }
    CHECK(PU(3, "Fld/WOO") && PU(3, "Fld/WOO")->group == woo->group);   /* not "less artillery" */
    /* 7.4b B, F, G and 7.4c D */
    p = PU(4, "MD");
    CHECK(p && p->at == BAR_AT_GROUP && sc[4].group[p->group].entry[0] == H("W0201") &&
          sc[4].group[p->group].first_turn == T(28, 12, 40));
    p = PU(4, "RB/MOR");
    CHECK(p && p->at == BAR_AT_GROUP);
    if (p) {
        const bar_group *g = &sc[4].group[p->group];
        CHECK_EQ(g->first_turn, T(28, 23, 0));
        CHECK_EQ(g->last_turn, T(29, 4, 20));
        CHECK(g->edge == MK_EDGE_SOUTH && g->edge_sheet == 'W' && g->edge_within == 3);
        CHECK_EQ(g->not_formations, BAR_F_ROAD_COLUMN);
    }
    p = PL(4, "STE/GW");
    CHECK(p && sc[4].group[p->group].first_turn == T(29, 5, 0));
    p = PU(4, "Jag/JC");
    CHECK(p && p->at == BAR_AT_GROUP);
    if (p) {
        const bar_group *g = &sc[4].group[p->group];
        CHECK(g->whole_command && g->entry[0] == H("E3915"));
        CHECK_EQ(g->not_formations, BAR_F_SKIRMISH | BAR_F_UNLIMBERED);
    }
    CHECK(PU(3, "MD") == NULL);
}

/* 7.2c: British set-up of Washington's Stand. */
static void test_7_2c_british_setup(void)
{
    const bar_place *p = PL(2, "HC");
    CHECK(p && p->at == BAR_AT_WITH && p->with_side == BAR_BRITISH);
    CHECK(at_hex(PL(2, "PAT/HC"), "W2222", 0, 0));
    CHECK(at_hex(PU(2, "16 Da"), "W2328", BAR_F_LINE, WEST));
    CHECK(at_hex(PU(2, "QRD"), "W2607", BAR_F_LINE, WEST));
    CHECK(at_hex(PU(2, "B/1 Lt"), "W2709", BAR_F_SKIRMISH, WEST));
    CHECK(at_hex(PU(2, "1 Gr"), "W2323", BAR_F_LINE, NW));
    CHECK(at_hex(PU(2, "2 Gr"), "W2025", BAR_F_LINE, NW));
    CHECK(at_hex(PU(2, "Lt/COR"), "W2608", BAR_F_UNLIMBERED, WEST));
    CHECK(within(PU(2, "Fld/COR"), 1, "W2025"));
    CHECK(at_hex(PU(2, "Len/HG"), "E0426", BAR_F_LINE, WEST));   /* "LEN/HG" */
    CHECK(at_hex(PU(2, "Min/HG"), "E0428", BAR_F_LINE, WEST));
    CHECK(at_hex(PU(2, "1 Gd/Gds"), "W2923", BAR_F_LINE, NW));
    CHECK(at_hex(PU(2, "2 Gd/Gds"), "W2824", BAR_F_LINE, NW));
    CHECK(at_hex(PU(2, "Fld/3rd"), "W2122", BAR_F_UNLIMBERED, NW));
    CHECK(at_hex(PU(2, "2/42/3rd"), "W2314", BAR_F_LINE, WEST));
    CHECK(at_hex(PU(2, "44/3rd"), "W2811", BAR_F_LINE, WEST));
    CHECK(at_hex(PU(2, "Fld/4th"), "W2222", BAR_F_UNLIMBERED, NW));
    CHECK(at_hex(PU(2, "37/4th"), "W3430", BAR_F_LINE, WEST));
    CHECK(at_hex(PU(2, "Fld/5th"), "W2321", BAR_F_UNLIMBERED, NW));
    CHECK(at_hex(PU(2, "26/5th"), "E0935", BAR_F_LINE, WEST));
    CHECK(at_hex(PU(2, "63/5th"), "E0934", BAR_F_LINE, WEST));
    CHECK_EQ(sc[2].ngroups, 2);   /* no British reinforcements in scenario 2 */
}

/* ---- validation errors ----------------------------------------------------- */

static const char oob_ok_head[] = "{\"source\": \"test\", \"estimate\": true, \"organizations\": ["
                                  "{\"id\": \"C1\", \"side\": \"american\", \"kind\": \"command\", "
                                  "\"name\": \"A command\", \"leader\": \"C1/X\"}],";

static int oob_error(const char *text, const char *want1, const char *want2)
{
    static bar_oob o;
    mk_error err = {0};
    int rc = bar_oob_parse_text(&o, text, "bad-oob.json", &err);
    int ok = rc == -1 && strstr(err.msg, "bad-oob.json:") == err.msg && strstr(err.msg, want1) &&
             (!want2 || strstr(err.msg, want2));
    if (!ok)
        fprintf(stderr, "oob error: got rc %d \"%s\", wanted \"%s\" \"%s\"\n", rc, err.msg, want1,
                want2 ? want2 : "");
    return ok;
}

#define LEADER_OK                                                                               \
    "{\"id\": \"C1/X\", \"side\": \"american\", \"rank\": \"Col\", \"name\": \"N\", \"role\": " \
    "\"command\", \"leads\": \"C1\", \"command_rating\": 0, \"initiative\": 3, "                \
    "\"command_range\": 4, \"er_bonus\": 0, \"cv_bonus\": 0, \"loss_value\": 1, "                \
    "\"replacement_set\": \"A\", \"estimate\": []}"
#define UNIT(id, extra)                                                                          \
    "{\"id\": \"" id "\", \"side\": \"american\", \"nationality\": \"American\", \"type\": "     \
    "\"line\", \"command\": \"C1\", \"sp\": 5, \"er\": 4, \"cv\": 4, \"mp\": 5, \"estimate\": " \
    "[\"sp\"]" extra "}"

static void test_oob_errors(void)
{
    static bar_oob o;
    mk_error err = {0};
    char t[2048];
    /* the minimal file is fine */
    snprintf(t, sizeof t, "%s \"leaders\": [" LEADER_OK "], \"units\": [" UNIT("U1", "") "]}",
             oob_ok_head);
    CHECK_EQ(bar_oob_parse_text(&o, t, "ok.json", &err), 0);
    CHECK_EQ(o.nunits, 1);
    CHECK_EQ(o.unit[0].mp_half, 10);
    CHECK_EQ(o.unit[0].estimate, BAR_EST_SP);
    /* duplicate ids */
    snprintf(t, sizeof t, "%s \"leaders\": [" LEADER_OK "], \"units\": [" UNIT("U1", "") ", " UNIT(
                 "U1", "") "]}", oob_ok_head);
    CHECK(oob_error(t, "units[1].id: ", "\"U1\" is already units[0]"));
    snprintf(t, sizeof t, "%s \"leaders\": [" LEADER_OK "], \"units\": [" UNIT("C1/X", "") "]}",
             oob_ok_head);
    CHECK(oob_error(t, "units[0].id: ", "already leaders[0]"));
    /* unknown ids referenced */
    snprintf(t, sizeof t, "%s \"leaders\": [" LEADER_OK "], \"units\": [" UNIT("U1", ", \"parent\": \"Nope\"") "]}",
             oob_ok_head);
    CHECK(oob_error(t, "units[0].parent: ", "\"Nope\""));
    snprintf(t, sizeof t, "%s \"leaders\": [" LEADER_OK "], \"units\": [" UNIT("U1", ", \"wing\": \"XX\"") "]}",
             oob_ok_head);
    CHECK(oob_error(t, "units[0].wing: ", "unknown organisation \"XX\""));
    /* a leader's command that does not exist */
    char l[600];
    snprintf(l, sizeof l, "%s", LEADER_OK);
    char *k = strstr(l, "\"leads\": \"C1\"");
    memcpy(k, "\"leads\": \"ZZ\"", 13);
    snprintf(t, sizeof t, "%s \"leaders\": [%s], \"units\": []}", oob_ok_head, l);
    CHECK(oob_error(t, "leaders[0].leads: ", "unknown organisation \"ZZ\""));
    /* the organisation names a leader who does not lead it */
    snprintf(t, sizeof t,
             "{\"source\": \"t\", \"estimate\": true, \"organizations\": [{\"id\": \"C1\", \"side\": "
             "\"american\", \"kind\": \"command\", \"name\": \"n\", \"leader\": \"Q\"}], "
             "\"leaders\": [], \"units\": []}");
    CHECK(oob_error(t, "organizations[0].leader: ", "unknown leader \"Q\""));
    /* regimental guns need their owning regiment (2.2d E) */
    snprintf(t, sizeof t, "%s \"leaders\": [" LEADER_OK "], \"units\": [{\"id\": \"Rgt/1\", \"side\": "
             "\"british\", \"nationality\": \"Hessian\", \"type\": \"artillery regimental\", "
             "\"independent\": true, \"sp\": 2, \"er\": 3, \"cv\": 2, \"mp\": 4, \"estimate\": []}]}",
             oob_ok_head);
    CHECK(oob_error(t, "units[0].owner: ", "required for regimental guns"));
    /* values out of range, unknown names, a missing estimate list */
    snprintf(t, sizeof t, "%s \"leaders\": [" LEADER_OK "], \"units\": [" UNIT("U1", ", \"mp\": 4.25") "]}",
             oob_ok_head);
    CHECK(oob_error(t, "bad-oob.json:", NULL));   /* duplicate key: jansson refuses */
    snprintf(t, sizeof t, "%s \"leaders\": [" LEADER_OK "], \"units\": [" UNIT("U1", ", \"note\": \"x\", \"typo\": 1") "]}",
             oob_ok_head);
    CHECK(oob_error(t, "units[0].typo: ", "unknown field"));
    snprintf(t, sizeof t, "%s \"leaders\": [" LEADER_OK "], \"units\": [{\"id\": \"U2\", \"side\": "
             "\"american\", \"nationality\": \"Prussian\", \"type\": \"line\", \"command\": \"C1\", "
             "\"sp\": 5, \"er\": 4, \"cv\": 4, \"mp\": 5, \"estimate\": []}]}", oob_ok_head);
    CHECK(oob_error(t, "units[0].nationality: ", "\"Prussian\""));
    snprintf(t, sizeof t, "%s \"leaders\": [" LEADER_OK "], \"units\": [{\"id\": \"U2\", \"side\": "
             "\"american\", \"nationality\": \"American\", \"type\": \"line\", \"command\": \"C1\", "
             "\"sp\": 17, \"er\": 4, \"cv\": 4, \"mp\": 5, \"estimate\": []}]}", oob_ok_head);
    CHECK(oob_error(t, "units[0].sp: ", "17"));
    snprintf(t, sizeof t, "%s \"leaders\": [" LEADER_OK "], \"units\": [{\"id\": \"U2\", \"side\": "
             "\"american\", \"nationality\": \"American\", \"type\": \"line\", \"command\": \"C1\", "
             "\"sp\": 5, \"er\": 4, \"cv\": 4, \"mp\": 5}]}", oob_ok_head);
    CHECK(oob_error(t, "units[0].estimate: ", "required"));
    snprintf(t, sizeof t, "%s \"leaders\": [" LEADER_OK "], \"units\": [{\"id\": \"U2\", \"side\": "
             "\"american\", \"nationality\": \"American\", \"type\": \"line\", \"command\": \"C1\", "
             "\"sp\": 5, \"er\": 4, \"cv\": 4, \"mp\": 4.5, \"estimate\": [\"colour\"]}]}", oob_ok_head);
    CHECK(oob_error(t, "units[0].estimate[0]: ", "\"colour\""));
    CHECK(oob_error("{\"units\": [", "bad-oob.json:1:", NULL));   /* syntax: line:column */
    /* a failed load leaves nothing behind */
    CHECK_EQ(o.nunits, 1);
    CHECK_EQ(bar_oob_parse_text(&o, "{\"units\": 1}", "x.json", &err), -1);
    CHECK_EQ(o.nunits, 0);
}

/* A scenario 1 file around the given set-up and reinforcement entries. */
static void scen1(char *buf, size_t n, const char *first, const char *setup, const char *reinf,
                  const char *rules)
{
    snprintf(buf, n,
             "{\"ruleset\": \"bar\", \"id\": \"bar/t\", \"scenario\": 1, \"title\": \"t\", "
             "\"source\": \"test\", \"first_turn\": \"%s\", \"last_turn\": \"1:00 PM 28 June\", "
             "\"end_turn_number\": [{\"from\": \"10:00 AM 28 June\", \"value\": 7}], "
             "\"deploys_first\": \"american\", \"rules\": {%s}, \"setup\": [%s], "
             "\"reinforcements\": [%s], \"victory\": {\"turn\": \"1:00 PM 28 June\", "
             "\"auto_draw\": 8}}",
             first, rules, setup, reinf);
}

static int scen_error(const char *text, const char *want1, const char *want2)
{
    static bar_scen s;
    mk_error err = {0};
    int rc = bar_scen_parse_text(&s, &oob, text, "bad-scenario.json", &err);
    int ok = rc == -1 && strstr(err.msg, "bad-scenario.json:") == err.msg &&
             strstr(err.msg, want1) && (!want2 || strstr(err.msg, want2));
    if (!ok)
        fprintf(stderr, "scenario error: got rc %d \"%s\", wanted \"%s\" \"%s\"\n", rc, err.msg,
                want1, want2 ? want2 : "");
    return ok;
}

#define S10 "10:00 AM 28 June"
#define G(from, items)                                                                        \
    "{\"group\": \"g\", \"section\": \"7.1c B\", \"side\": \"british\", \"from\": \"" from    \
    "\", \"entry\": [\"E3915\"], \"order\": \"exact\", \"items\": [" items "]}"

static void test_scenario_errors(void)
{
    static bar_scen s;
    mk_error err = {0};
    char t[2048];
    scen1(t, sizeof t, S10, "{\"pieces\": [\"16 Da\"], \"hex\": \"E3020\", \"section\": \"7.1c\"}",
          G("10:20 AM 28 June", "{\"unit\": \"1 Gr\"}"), "\"line_may_hook\": true");
    int rc = bar_scen_parse_text(&s, &oob, t, "ok.json", &err);
    if (rc)
        fprintf(stderr, "%s\n", err.msg);
    CHECK_EQ(rc, 0);
    CHECK_EQ(s.nplaces, 2);
    /* set up off the map sheets: a column past 39, a row past 51, a sheet
     * that does not exist */
    scen1(t, sizeof t, S10, "{\"pieces\": [\"16 Da\"], \"hex\": \"E4020\", \"section\": \"7.1c\"}", "", "");
    CHECK(scen_error(t, "setup[0].hex: ", "\"E4020\""));
    scen1(t, sizeof t, S10, "{\"pieces\": [\"16 Da\"], \"hex\": \"E3052\", \"section\": \"7.1c\"}", "", "");
    CHECK(scen_error(t, "setup[0].hex: ", "\"E3052\""));
    scen1(t, sizeof t, S10, "{\"pieces\": [\"16 Da\"], \"within\": 1, \"of\": \"X0101\", \"section\": \"7.1c\"}", "", "");
    CHECK(scen_error(t, "setup[0].of: ", "\"X0101\""));
    scen1(t, sizeof t, S10, "{\"pieces\": [\"16 Da\"], \"hexes\": [\"W1717\", \"W0052\"], \"section\": \"7.1c\"}", "", "");
    CHECK(scen_error(t, "setup[0].hexes[1]: ", "\"W0052\""));
    /* unknown ids */
    scen1(t, sizeof t, S10, "{\"pieces\": [\"Nope/XX\"], \"hex\": \"E3020\", \"section\": \"7.1c\"}", "", "");
    CHECK(scen_error(t, "setup[0].pieces[0]: ", "unknown unit or leader \"Nope/XX\""));
    scen1(t, sizeof t, S10, "{\"pieces\": [\"NJB/LEE\"], \"with_org\": \"NJX\", \"section\": \"7.1b\"}", "", "");
    CHECK(scen_error(t, "setup[0].with_org: ", "\"NJX\""));
    scen1(t, sizeof t, S10, "", G("10:20 AM 28 June", "{\"unit\": \"3 Gr\"}"), "");
    CHECK(scen_error(t, "reinforcements[0].items[0].unit: ", "\"3 Gr\""));
    /* a piece placed twice (set-up and reinforcement) */
    scen1(t, sizeof t, S10, "{\"pieces\": [\"1 Gr\"], \"hex\": \"E3020\", \"section\": \"7.1c\"}",
          G("10:20 AM 28 June", "{\"unit\": \"1 Gr\"}"), "");
    CHECK(scen_error(t, "reinforcements[0].items[0].unit: ", "\"1 Gr\" is placed twice"));
    /* reinforcement times outside the scenario, or not a turn */
    scen1(t, sizeof t, S10, "", G("2:00 PM 28 June", "{\"unit\": \"1 Gr\"}"), "");
    CHECK(scen_error(t, "reinforcements[0].from: ", "\"2:00 PM 28 June\" is outside the scenario (10:00 AM 28 June to 1:00 PM 28 June)"));
    scen1(t, sizeof t, S10, "", G("9:40 AM 28 June", "{\"unit\": \"1 Gr\"}"), "");
    CHECK(scen_error(t, "reinforcements[0].from: ", "outside the scenario"));
    scen1(t, sizeof t, S10, "", G("10:10 AM 28 June", "{\"unit\": \"1 Gr\"}"), "");
    CHECK(scen_error(t, "reinforcements[0].from: ", "is not a turn"));
    /* an entry hex must be on the map edge */
    scen1(t, sizeof t, S10, "",
          "{\"group\": \"g\", \"section\": \"s\", \"side\": \"british\", \"from\": \"10:20 AM 28 June\", "
          "\"entry\": [\"E3020\"], \"order\": \"any\", \"items\": [{\"unit\": \"1 Gr\"}]}", "");
    CHECK(scen_error(t, "reinforcements[0].entry[0]: ", "not a map edge hex"));
    /* a leader arriving with a unit that is not a reinforcement */
    scen1(t, sizeof t, S10, "{\"pieces\": [\"Len/HG\"], \"hex\": \"E3020\", \"section\": \"7.1c\"}",
          G("10:20 AM 28 June", "{\"leader\": \"HG/COR\", \"with\": [\"Len/HG\"]}"), "");
    CHECK(scen_error(t, "7.1c B: ", "\"HG/COR\" arrives with \"Len/HG\""));
    /* the scenario's span and End Turn Numbers must agree with clock.c */
    scen1(t, sizeof t, "10:20 AM 28 June", "", "", "");
    CHECK(scen_error(t, "first_turn: ", "starts on 10:00 AM 28 June"));
    /* unknown switch, unknown facing, mixed sides */
    scen1(t, sizeof t, S10, "", "", "\"lee_detachmnet\": true");
    CHECK(scen_error(t, "rules.lee_detachmnet: ", "unknown special-rule switch"));
    scen1(t, sizeof t, S10, "{\"pieces\": [\"16 Da\"], \"hex\": \"E3020\", \"facing\": [\"east-ish\"], \"section\": \"7.1c\"}", "", "");
    CHECK(scen_error(t, "setup[0].facing[0]: ", "\"east-ish\""));
    scen1(t, sizeof t, S10, "{\"pieces\": [\"16 Da\", \"Fld/GD\"], \"hex\": \"E3020\", \"section\": \"7.1c\"}", "", "");
    CHECK(scen_error(t, "setup[0].pieces[1]: ", "\"Fld/GD\""));
    scen1(t, sizeof t, S10, "{\"pieces\": [\"16 Da\"], \"hex\": \"E3020\", \"of\": \"E3020\", \"within\": 1, \"section\": \"7.1c\"}", "", "");
    CHECK(scen_error(t, "setup[0]: ", "exactly one of"));
    snprintf(t, sizeof t,
             "{\"ruleset\": \"bar\", \"id\": \"bar/t\", \"scenario\": 3, \"title\": \"t\", "
             "\"source\": \"s\", \"first_turn\": \"10:00 AM 28 June\", \"last_turn\": \"11:00 PM 28 June\", "
             "\"end_turn_number\": [{\"from\": \"10:00 AM 28 June\", \"value\": 7}, {\"from\": "
             "\"12:00 PM 28 June\", \"value\": 8}], \"deploys_first\": \"american\", \"rules\": {}, "
             "\"setup\": [], \"victory\": {\"turn\": \"11:00 PM 28 June\", \"auto_draw\": 15}}");
    CHECK(scen_error(t, "end_turn_number: ", "8 on 12:00 PM 28 June, but clock.c says 7"));
}

/* ---- the Commands the text names without units (ours) ------------------ */

static bool say_why = true;   /* off for the deliberately broken inputs below */

/* Organisations that field units (Commands, Dickinson's, the Loyalist Corps
 * and Flank Guards) with none: a reinforcement listing one brings nobody. */
static int orgs_without_units(const bar_oob *o)
{
    int bad = 0;
    for (int g = 0; g < o->norgs; g++) {
        if (o->org[g].kind != BAR_ORG_COMMAND && o->org[g].kind != BAR_ORG_GROUP &&
            o->org[g].kind != BAR_ORG_INDEPENDENT_COMMAND)
            continue;
        int n = 0;
        for (int u = 0; u < o->nunits; u++)
            n += o->unit[u].command == g;
        if (n == 0) {
            if (say_why)
                fprintf(stderr, "organisation %s has no unit\n", o->org[g].id);
            bad++;
        }
    }
    return bad;
}

/* Those organisations whose SPs add up to less than lo or more than hi
 * (2.1: 50 men an infantry SP; a brigade of the day had 250-2,500). */
static int orgs_sp_outside(const bar_oob *o, int lo, int hi)
{
    int bad = 0;
    for (int g = 0; g < o->norgs; g++) {
        if (o->org[g].kind != BAR_ORG_COMMAND && o->org[g].kind != BAR_ORG_GROUP &&
            o->org[g].kind != BAR_ORG_INDEPENDENT_COMMAND)
            continue;
        int sp = 0;
        for (int u = 0; u < o->nunits; u++)
            if (o->unit[u].command == g)
                sp += o->unit[u].sp;
        if (sp < lo || sp > hi) {
            if (say_why)
                fprintf(stderr, "organisation %s: %d SPs, outside %d-%d\n", o->org[g].id, sp, lo,
                        hi);
            bad++;
        }
    }
    return bad;
}

/* Units a reinforcement group brings, of organisation org (-1: any). */
static int group_units(const bar_scen *s, const bar_oob *o, int gi, int org)
{
    int n = 0;
    for (int i = 0; i < s->nplaces; i++) {
        const bar_place *p = &s->place[i];
        if (p->at == BAR_AT_GROUP && p->group == gi && p->unit >= 0 &&
            (org < 0 || o->unit[p->unit].command == org))
            n++;
    }
    return n;
}

/* Groups that name an organisation bringing none of its units, or bring no
 * unit at all; *leader_only counts the groups that list leaders only (7.3b A,
 * 7.4b A Washington; 7.4b G von Steuben), which the text makes unit-less. */
static int groups_without_units(const bar_scen *s, const bar_oob *o, int *leader_only)
{
    int bad = 0;
    *leader_only = 0;
    for (int gi = 0; gi < s->ngroups; gi++) {
        const bar_group *g = &s->group[gi];
        for (int k = 0; k < g->norgs; k++)
            if (group_units(s, o, gi, g->org[k]) == 0) {
                if (say_why)
                    fprintf(stderr, "%s (%s): %s brings no unit\n", g->name, g->section,
                            o->org[g->org[k]].id);
                bad++;
            }
        if (group_units(s, o, gi, -1) == 0) {
            if (g->norgs == 0)
                ++*leader_only;
            else
                bad++;
        }
    }
    return bad;
}

/* Distinct pieces (units and leaders) a scenario places or brings in,
 * optional variants included. */
static int scen_pieces(const bar_scen *s)
{
    static bool seen[BAR_OOB_MAX_UNITS + BAR_OOB_MAX_LEADERS];
    int n = 0;
    memset(seen, 0, sizeof seen);
    for (int i = 0; i < s->nplaces; i++) {
        int k = s->place[i].unit >= 0 ? s->place[i].unit : BAR_OOB_MAX_UNITS + s->place[i].leader;
        if (!seen[k]) {
            seen[k] = true;
            n++;
        }
    }
    return n;
}

/* 7.2b A-B, 4.2a A, 4.2b B, 7.4a I, 7.4c D: the Commands, the Loyalist Corps
 * and the Flank Guards the text names without units now have ours, and the
 * reinforcements that list them bring them. */
static void test_unnamed_commands(void)
{
    CHECK_EQ(orgs_without_units(&oob), 0);
    CHECK_EQ(orgs_sp_outside(&oob, 5, 45), 0);
    /* the units of an organisation the text does not fill are ours: their
     * ids are marked as estimates, and there are some in each */
    int ours = 0, unmarked = 0;
    for (int i = 0; i < oob.nunits; i++) {
        const bar_unit *u = &oob.unit[i];
        if (u->command >= 0 && !oob.org[u->command].units_named) {
            ours++;
            unmarked += !(u->estimate & BAR_EST_ID) ||
                        (u->estimate & (BAR_EST_SP | BAR_EST_ER | BAR_EST_CV | BAR_EST_MP)) !=
                            (BAR_EST_SP | BAR_EST_ER | BAR_EST_CV | BAR_EST_MP);
        }
    }
    CHECK(ours >= 50);
    CHECK_EQ(unmarked, 0);
    /* Poor's brigade, 754 men (Stone): 15 infantry SPs */
    int por = bar_oob_find_org(&oob, BAR_AMERICAN, "POR"), sp = 0;
    for (int i = 0; i < oob.nunits; i++)
        if (oob.unit[i].command == por && oob.unit[i].type == BAR_UT_LINE)
            sp += oob.unit[i].sp;
    CHECK_EQ(sp, 15);
    CHECK_EQ(oob.unit[U("1NH/POR")].type, BAR_UT_LINE);   /* 3.1a: Line */
    /* 2.2d E: four Hessian regimental guns, each with a regiment of its Command */
    int rgt = 0, rgt_ok = 0;
    for (int i = 0; i < oob.nunits; i++) {
        const bar_unit *u = &oob.unit[i];
        if (u->type != BAR_UT_ART_REGIMENTAL)
            continue;
        rgt++;
        rgt_ok += u->nation == BAR_NAT_HESSIAN && u->owner >= 0 &&
                  oob.unit[u->owner].command == u->command &&
                  oob.unit[u->owner].nation == BAR_NAT_HESSIAN &&
                  oob.unit[u->owner].type == BAR_UT_FOOT;
    }
    CHECK_EQ(rgt, 4);
    CHECK_EQ(rgt_ok, 4);
    CHECK_EQ(oob.unit[U("Rgt/STI#1")].owner, U("Lei/STI"));
    /* 7.4a I: every unit of the Loyalist Corps is Independent; 4.1b A lists
     * every British light unit, so neither group adds one */
    int lc = bar_oob_find_org(&oob, BAR_BRITISH, "LC"),
        fg = bar_oob_find_org(&oob, BAR_BRITISH, "FG");
    int lc_n = 0, lc_bad = 0, light = 0;
    for (int i = 0; i < oob.nunits; i++) {
        const bar_unit *u = &oob.unit[i];
        if (u->command == lc) {
            lc_n++;
            lc_bad += !u->independent;
        }
        if ((u->command == lc || u->command == fg) &&
            (u->type == BAR_UT_LIGHT || u->type == BAR_UT_JAEGER || u->type == BAR_UT_CHASSEUR))
            light++;
    }
    CHECK(lc_n >= 3);
    CHECK_EQ(lc_bad, 0);
    CHECK_EQ(light, 0);

    /* every reinforcement group brings units; only the leader-only groups
     * of the text (Washington, von Steuben) bring none */
    static const int leader_only_want[5] = {0, 0, 0, 1, 2};
    for (int n = 1; n <= 4; n++) {
        int lo = -1;
        CHECK_EQ(groups_without_units(&sc[n], &oob, &lo), 0);
        CHECK_EQ(lo, leader_only_want[n]);
        /* every piece of the scenario, placed or arriving: a set of at most
         * 250 counters */
        CHECK(scen_pieces(&sc[n]) <= 250);
    }
    /* the groups bring the new units: 7.2b A, 7.3b C, 7.4b D-E, 7.4c D */
    const bar_place *u = PU(2, "1NH/POR"), *l = PL(2, "POR/GRE");
    CHECK(u && l && u->at == BAR_AT_GROUP && u->group == l->group &&
          sc[2].group[u->group].first_turn == T(28, 15, 0));
    u = PU(3, "GR/2MdB");
    CHECK(u && u->at == BAR_AT_GROUP && sc[3].group[u->group].first_turn == T(28, 18, 0));
    u = PU(4, "Rgt/LOO#2");
    const bar_place *v = PU(4, "VoI/LC"), *w = PU(4, "17 Da/FG"), *x = PU(4, "4/1st");
    CHECK(u && v && w && x);
    if (u && v && w && x) {
        CHECK(sc[4].group[u->group].whole_command);
        CHECK(u->group == v->group && v->group == w->group && w->group == x->group);
        CHECK_EQ(sc[4].group[u->group].first_turn, T(28, 23, 0));
    }
    /* the scenarios before 7.4 never bring Knyphausen's Wing */
    CHECK(PU(3, "4/1st") == NULL);
    CHECK(scen_pieces(&sc[4]) > scen_pieces(&sc[3]));

    /* each check above can fail: a Command with no unit, one of 3 SPs, a
     * group that lists it, a scenario of more pieces than a limit */
    static bar_oob o;
    static bar_scen s;
    mk_error err = {0};
    char t[2048];
    say_why = false;
    snprintf(t, sizeof t, "%s \"leaders\": [" LEADER_OK "], \"units\": []}", oob_ok_head);
    CHECK_EQ(bar_oob_parse_text(&o, t, "t.json", &err), 0);
    CHECK_EQ(orgs_without_units(&o), 1);
    scen1(t, sizeof t, S10, "",
          "{\"group\": \"g\", \"section\": \"7.2b A\", \"side\": \"american\", \"from\": "
          "\"10:20 AM 28 June\", \"entry\": [\"W0201\"], \"order\": \"any\", \"items\": "
          "[{\"org\": \"C1\"}]}", "");
    int rc = bar_scen_parse_text(&s, &o, t, "t.json", &err);
    if (rc)
        fprintf(stderr, "%s\n", err.msg);
    CHECK_EQ(rc, 0);
    int lo = -1;
    CHECK_EQ(groups_without_units(&s, &o, &lo), 2);   /* C1 brings nobody; the group nothing */
    CHECK_EQ(lo, 0);
    CHECK_EQ(scen_pieces(&s), 1);                     /* C1/X alone */
    snprintf(t, sizeof t,
             "%s \"leaders\": [" LEADER_OK "], \"units\": [{\"id\": \"U1\", \"side\": "
             "\"american\", \"nationality\": \"American\", \"type\": \"line\", \"command\": "
             "\"C1\", \"sp\": 3, \"er\": 4, \"cv\": 4, \"mp\": 5, \"estimate\": [\"sp\"]}]}",
             oob_ok_head);
    CHECK_EQ(bar_oob_parse_text(&o, t, "t.json", &err), 0);
    CHECK_EQ(orgs_without_units(&o), 0);
    CHECK_EQ(orgs_sp_outside(&o, 5, 45), 1);
    say_why = true;
    CHECK(scen_pieces(&sc[4]) > 200);                 /* a limit of 200 would fail */
}

int main(void)
{
    bar_oob_grid(&grid);
    test_oob_loads();
    if (oob.nunits == 0)
        return check_done("test_bar_oob");
    test_oob_units();
    test_oob_leaders();
    test_scenarios_load();
    test_7_1a_special_rules();
    test_7_1b_american_setup();
    test_7_1c_british_setup();
    test_7_1c_reinforcements();
    test_victory_params();
    test_7_2b_american_setup();
    test_american_reinforcements();
    test_7_2c_british_setup();
    test_oob_errors();
    test_scenario_errors();
    test_unnamed_commands();
    return check_done("test_bar_oob");
}
