/* test_bar_cavalry.c - the Monmouth (BAR) game's cavalry procedures with
 * forced dice, each test named by the section it checks: Countercharge and
 * Opportunity Charge (2.3b: the procedure is ours, docs/bar.md), mounting
 * and dismounting (7.4a C), the Mounted Jaegers (4.1b E), and the Skirmish
 * limit (2.6a) with the Jaeger Corps' exception (7.4a J). Positions are
 * built as in test_bar_play.c: every piece off the map, then the test
 * places the ones it needs. */
#include "bar_fixture.h"

/* How many legal actions of a type (and unit, if >= 0) there are now. */
static int count(int type, int unit, mk_action *list, int *n)
{
    *n = sc->rs->legal(s, sc, list, MK_MAX_ACTIONS);
    int k = 0;
    for (int j = 0; j < *n; j++)
        k += list[j].type == type && (unit < 0 || list[j].unit == unit);
    return k;
}

/* Every listed action of a type prints as JSON and parses back to itself
 * (the protocol's round trip). */
static void round_trip(int type, const mk_action *list, int n)
{
    for (int j = 0; j < n; j++) {
        if (list[j].type != type)
            continue;
        json_t *o = sc->rs->action_json(s, sc, &list[j]);
        mk_action back;
        mk_error err = {0};
        CHECK_EQ(sc->rs->action_parse(s, sc, o, &back, &err), 0);
        CHECK(mk_action_equal(&back, &list[j]));
        json_decref(o);
    }
}

static bool open_hex(mk_hex h)
{
    return h != MK_NO_HEX && x->map.terrain[h] == BAR_T_OPEN && !mk_hex_on_map_edge(&sc->map.grid, h);
}

/* An open, level stretch on the east sheet (7.1a A: no movement west of
 * the W21xx row in scenario 1): cavalry at a, charging west to t (as
 * test_bar_play.c's test_charge), both hexes between them open, and n the
 * hex north of t (also next to one of them). */
static bool stretch(mk_hex *a, mk_hex *t, mk_hex *n)
{
    const mk_grid *g = &sc->map.grid;
    for (mk_hex h = (mk_hex)(mk_grid_size(g) - 1); h >= 0; h--) {
        mk_hex e1 = mk_hex_neighbor(g, h, 4), t1 = e1 != MK_NO_HEX ? mk_hex_neighbor(g, e1, 3) : MK_NO_HEX;
        mk_hex e2 = mk_hex_neighbor(g, h, 3);
        mk_hex n1 = t1 != MK_NO_HEX ? mk_hex_neighbor(g, t1, 5) : MK_NO_HEX;
        if (!open_hex(h) || !open_hex(e1) || !open_hex(e2) || !open_hex(t1) || !open_hex(n1) ||
            bar_hexside(&x->map, h, e1) || bar_hexside(&x->map, e1, t1) || bar_hexside(&x->map, h, e2) ||
            bar_hexside(&x->map, e2, t1) || bar_hexside(&x->map, n1, t1) || bar_hexside(&x->map, n1, e1) ||
            mk_hex_distance(g, h, t1) != 2 || !mk_hex_adjacent(g, n1, e1) ||
            x->map.elevation[h] != x->map.elevation[t1] || x->map.elevation[e1] != x->map.elevation[t1] ||
            x->map.elevation[e2] != x->map.elevation[t1] || x->map.elevation[n1] != x->map.elevation[t1])
            continue;
        *a = h, *t = t1, *n = n1;
        return true;
    }
    return false;
}

/* 2.3b (ours): charged by enemy cavalry, the reactive side may meet it with
 * a cavalry unit whose Charge reaches the charger: the charges cancel
 * (no cc_charge) and the charger fights the countercharger instead of its
 * target; declined, the charge goes on with its cc_charge. */
static void test_2_3b_countercharge(void)
{
    const mk_grid *g = &sc->map.grid;
    mk_hex a, t, n, e = MK_NO_HEX;
    CHECK(stretch(&a, &t, &n));
    if (!stretch(&a, &t, &n))
        return;
    /* where 16 Da's charge ends, and an American hex next to it and t */
    empty(0);
    place("16 Da", mk_hex_label(g, a, (char[MK_HEX_LABEL_MAX]){0}), BAR_FM_CAVALRY, 270);
    place("Patt/GD", mk_hex_label(g, t, (char[MK_HEX_LABEL_MAX]){0}), BAR_FM_LINE, 90);
    e = bar_charge_end(s, sc, pid("16 Da"), t);
    CHECK(e != MK_NO_HEX && mk_hex_adjacent(g, e, t));
    n = MK_NO_HEX;
    for (int d = 0; d < 6 && e != MK_NO_HEX; d++) {
        mk_hex h = mk_hex_neighbor(g, e, d);
        if (h != a && h != t && open_hex(h) && mk_hex_adjacent(g, h, t) && !bar_hexside(&x->map, e, h) &&
            x->map.elevation[h] == x->map.elevation[e])
            n = h;
    }
    CHECK(n != MK_NO_HEX);
    if (n == MK_NO_HEX)
        return;
    char la[MK_HEX_LABEL_MAX], lt[MK_HEX_LABEL_MAX], ln[MK_HEX_LABEL_MAX], js[160];
    mk_hex_label(g, a, la);
    mk_hex_label(g, t, lt);
    mk_hex_label(g, n, ln);
    int cav = pid("16 Da"), u = pid("Patt/GD"), am = pid("SCLH/NJB");
    for (int meet = 1; meet >= 0; meet--) {
        empty(0);
        place("HC", la, BAR_FM_LINE, 270);
        place("16 Da", la, BAR_FM_CAVALRY, 270);
        place("Patt/GD", lt, BAR_FM_LINE, 90);
        /* the American cavalry north of the target, next to the charge's
         * end hex, facing it */
        place("SCLH/NJB", ln, BAR_FM_CAVALRY, 30 * bar_bearing12(g, n, e));
        s->side = BAR_BRITISH;
        CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"HC\"}"), 0);
        CHECK_EQ(act("{\"type\":\"next\"}"), 0);
        /* passing on is logged, with the segment it ends (docs/ai.md) */
        const mk_event *end = find_ev("end", NULL);
        CHECK(end && end->text && strcmp(end->text, "movement_segment") == 0 && end->side == BAR_BRITISH &&
              end->rule && strncmp(end->rule, "Monmouth 1.2d", 13) == 0);
        CHECK_EQ(act("{\"type\":\"next\"}"), 0);
        end = find_ev("end", NULL);
        CHECK(end && end->text && strcmp(end->text, "fire_combat_segment") == 0);
        CHECK_EQ(s->phase, BP_CC);
        CHECK_EQ(bar_charge_end(s, sc, cav, t), e);
        snprintf(js, sizeof js, "{\"type\":\"close_combat\",\"unit\":\"16 Da\",\"target\":\"%s\",\"charge\":true}", lt);
        CHECK_EQ(act(js), 0);
        CHECK(find_ev("charge", NULL) != NULL);
        CHECK(find_ev("roll", "close_combat") == NULL);   /* the decision comes first */
        const mk_event *dc = find_ev("declare", NULL);    /* and the log says so */
        CHECK(dc && dc->unit == cav && dc->target == t && dc->text && strcmp(dc->text, "charge") == 0 &&
              dc->rule && strstr(dc->rule, "Monmouth 2.3b"));
        CHECK_EQ(s->cx_unit, cav);
        CHECK_EQ(s->cx_kind, BX_COUNTER);
        CHECK_EQ(sc->rs->to_move(s), BAR_AMERICAN);
        mk_action list[MK_MAX_ACTIONS];
        int nl;
        CHECK_EQ(count(BA_COUNTERCHARGE, -1, list, &nl), 2);   /* none, or SCLH */
        CHECK_EQ(nl, 2);
        round_trip(BA_COUNTERCHARGE, list, nl);
        if (meet) {
            /* 99: the loser (SCLH) loses and retreats, its check 99; the
             * charger pursues: die 9, the Recall 99 */
            force(4, 99, 99, 9, 99);
            CHECK_EQ(act("{\"type\":\"countercharge\",\"unit\":\"SCLH/NJB\"}"), 0);
            CHECK(find_ev("countercharge", NULL) != NULL);
            const mk_event *r = find_ev("roll", "close_combat");
            CHECK(r && r->unit == cav && r->other == am);
            int tmod = bar_cv_modifier(&x->ch, x->map.terrain[e], x->map.terrain[n], bar_hexside(&x->map, e, n),
                                       false, true);
            CHECK(r && r->points == x->p[cav].cv + x->se.cc_countercharged + tmod - x->p[am].cv);   /* no cc_charge */
            CHECK(x->se.cc_countercharged != x->se.cc_charge);
            CHECK(find_ev("roll", "pursuit") != NULL);
            CHECK_EQ(s->pc[u].sp, x->p[u].sp);   /* the target was not attacked */
            CHECK_EQ(s->pc[u].hex, t);
            CHECK(s->pc[am].sp < x->p[am].sp || !bar_alive(s, am));
            CHECK(s->pc[am].flags & BF_CC);   /* once an activation */
        } else {
            force(5, 11, 99, 99, 9, 99);   /* 11: the defensive fire misses */
            CHECK_EQ(act("{\"type\":\"countercharge\",\"unit\":null}"), 0);
            CHECK(find_ev("countercharge", NULL) == NULL);
            const mk_event *d = find_ev("decline", NULL);   /* logged, with the charger */
            CHECK(d && d->text && strcmp(d->text, "countercharge") == 0 && d->other == cav && d->rule &&
                  strstr(d->rule, "Monmouth 2.3b") != NULL);
            CHECK(d && d->side == BAR_AMERICAN);   /* the decider: the charger's enemy */
            const mk_event *r = find_ev("roll", "close_combat");
            CHECK(r && r->other == u && r->points == x->p[cav].cv + x->se.cc_charge - x->p[u].cv);
            CHECK_EQ(s->pc[am].hex, n);
        }
        CHECK_EQ(s->cx_unit, -1);
        CHECK_EQ(sc->rs->to_move(s), BAR_BRITISH);
    }
    /* a Disordered cavalry unit cannot countercharge */
    empty(0);
    place("HC", la, BAR_FM_LINE, 270);
    place("16 Da", la, BAR_FM_CAVALRY, 270);
    place("Patt/GD", lt, BAR_FM_LINE, 90);
    place("SCLH/NJB", ln, BAR_FM_CAVALRY, 30 * bar_bearing12(g, n, e));
    s->pc[am].status = BS_DISORDERED;
    s->side = BAR_BRITISH;
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"HC\"}"), 0);
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    force(5, 11, 99, 99, 9, 99);
    snprintf(js, sizeof js, "{\"type\":\"close_combat\",\"unit\":\"16 Da\",\"target\":\"%s\",\"charge\":true}", lt);
    CHECK_EQ(act(js), 0);
    CHECK_EQ(s->cx_unit, -1);
    CHECK(find_ev("roll", "close_combat") != NULL);
}

/* 2.3b, 6.2d C (ours): an enemy unit that moves a hex into the Charge
 * Range of a reactive cavalry unit may be Opportunity Charged there: a
 * Charge with its cc_charge; the mover's movement ends. Declined, it goes
 * on. */
static void test_2_3b_opportunity_charge(void)
{
    const mk_grid *g = &sc->map.grid;
    mk_hex a, t, n;
    if (!stretch(&a, &t, &n))
        return;
    char la[MK_HEX_LABEL_MAX], lt[MK_HEX_LABEL_MAX], ln[MK_HEX_LABEL_MAX], js[160];
    mk_hex_label(g, a, la);
    mk_hex_label(g, t, lt);
    mk_hex_label(g, n, ln);
    int am = pid("SCLH/NJB"), u = pid("63/5th");
    for (int charge = 1; charge >= 0; charge--) {
        empty(3);
        place("SCLH/NJB", la, BAR_FM_CAVALRY, 270);
        place("HC", "E3920", BAR_FM_LINE, 270);
        place("5th/COR", ln, BAR_FM_LINE, 180);
        place("63/5th", ln, BAR_FM_MARCH_COLUMN, 180);
        s->side = BAR_BRITISH;
        CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"5th\"}"), 0);
        CHECK(s->pc[u].mp > 2);
        snprintf(js, sizeof js, "{\"type\":\"move\",\"unit\":\"63/5th\",\"path\":[\"%s\"]}", lt);
        CHECK_EQ(act(js), 0);
        CHECK_EQ(s->pc[u].hex, t);
        CHECK_EQ(s->cx_unit, u);
        CHECK_EQ(s->cx_kind, BX_OPPORTUNITY);
        CHECK_EQ(sc->rs->to_move(s), BAR_AMERICAN);
        mk_action list[MK_MAX_ACTIONS];
        int nl;
        CHECK_EQ(count(BA_OPCHARGE, am, list, &nl), 1);
        CHECK_EQ(count(BA_OPCHARGE, -1, list, &nl), 2);
        round_trip(BA_OPCHARGE, list, nl);
        CHECK_EQ(count(BA_MOVE, -1, list, &nl), 0);   /* the British wait */
        int mp = s->pc[u].mp;
        if (charge) {
            /* 99: the mover loses and retreats (check 99); Pursuit die 9,
             * Recall 99 (the mover faces away: no defensive fire) */
            force(4, 99, 99, 9, 99);
            CHECK_EQ(act("{\"type\":\"opportunity_charge\",\"unit\":\"SCLH/NJB\"}"), 0);
            const mk_event *oc = find_ev("opportunity_charge", NULL);
            CHECK(oc && oc->unit == am && oc->from == a && mk_hex_adjacent(g, oc->to, t));
            CHECK(find_ev("roll", "defensive_fire") == NULL);
            const mk_event *r = find_ev("roll", "close_combat");
            CHECK(r && r->unit == am && r->points == x->p[am].cv + x->se.cc_charge - x->p[u].cv);
            CHECK(find_ev("roll", "pursuit") != NULL);
            CHECK_EQ(s->pc[u].mp, 0);   /* its movement ends */
            CHECK(s->pc[u].sp < x->p[u].sp || !bar_alive(s, u));
            /* once an activation: no second Opportunity Charge */
            if (bar_alive(s, u) && s->pc[u].hex != MK_NO_HEX)
                CHECK(!bar_opcharge_offered(s, sc, u));
        } else {
            CHECK_EQ(act("{\"type\":\"opportunity_charge\",\"unit\":null}"), 0);
            CHECK(find_ev("roll", "close_combat") == NULL);
            CHECK_EQ(s->pc[u].mp, mp);   /* it goes on */
            CHECK_EQ(s->pc[am].hex, a);
        }
        CHECK_EQ(s->cx_unit, -1);
        CHECK_EQ(sc->rs->to_move(s), BAR_BRITISH);
    }
    /* a leader's move does not trigger it */
    empty(3);
    place("SCLH/NJB", la, BAR_FM_CAVALRY, 270);
    place("HC", "E3920", BAR_FM_LINE, 270);
    place("5th/COR", ln, BAR_FM_LINE, 180);
    place("63/5th", "E3920", BAR_FM_MARCH_COLUMN, 180);
    s->side = BAR_BRITISH;
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"5th\"}"), 0);
    snprintf(js, sizeof js, "{\"type\":\"move\",\"unit\":\"5th/COR\",\"path\":[\"%s\"]}", lt);
    CHECK_EQ(act(js), 0);
    CHECK_EQ(s->cx_unit, -1);
}

/* 2.3b: "A Countercharge/Op Charge cannot be triggered if it would require
 * the cavalry to enter/cross terrain prohibited to SCM": cavalry next to
 * the enemy across a bridge or hedgerow hexside, the two hexes it could go
 * round by held, is offered nothing; across a clear hexside it is, held
 * or not. */
static void test_2_3b_scm_prohibition(void)
{
    const mk_grid *g = &sc->map.grid;
    mk_hex c = MK_NO_HEX, m = MK_NO_HEX, c1 = MK_NO_HEX, c2 = MK_NO_HEX;
    for (int barred = 1; barred >= 0; barred--) {
        c = MK_NO_HEX;
        for (mk_hex h = 0; h < mk_grid_size(g) && c == MK_NO_HEX; h++) {
            for (int d = 0; d < 6 && c == MK_NO_HEX; d++) {
                mk_hex nb = mk_hex_neighbor(g, h, d);
                if (nb == MK_NO_HEX || mk_hex_on_map_edge(g, h) || mk_hex_on_map_edge(g, nb))
                    continue;
                unsigned side = bar_hexside(&x->map, h, nb);
                if (barred ? !(side & (BAR_HS_BRIDGE | BAR_HS_HEDGEROW)) || (side & BAR_HS_LAKE)
                           : side != 0)
                    continue;
                if (x->map.terrain[h] != BAR_T_OPEN || x->map.terrain[nb] != BAR_T_OPEN)
                    continue;
                mk_hex k1 = mk_hex_neighbor(g, h, (d + 1) % 6), k2 = mk_hex_neighbor(g, h, (d + 5) % 6);
                if (k1 == MK_NO_HEX || k2 == MK_NO_HEX || x->map.terrain[k1] == BAR_T_LAKE ||
                    x->map.terrain[k2] == BAR_T_LAKE)
                    continue;
                c = h, m = nb, c1 = k1, c2 = k2;
            }
        }
        CHECK(c != MK_NO_HEX);
        if (c == MK_NO_HEX)
            return;
        CHECK(mk_hex_adjacent(g, c1, m) && mk_hex_adjacent(g, c2, m));
        char l[4][MK_HEX_LABEL_MAX];
        for (int held = 1; held >= 0; held--) {
            empty(3);
            place("SCLH/NJB", mk_hex_label(g, c, l[0]), BAR_FM_CAVALRY, 30 * bar_bearing12(g, c, m));
            place("63/5th", mk_hex_label(g, m, l[1]), BAR_FM_MARCH_COLUMN, 0);
            if (held) {   /* a charge never enters an occupied hex */
                place("Va Bn/GD", mk_hex_label(g, c1, l[2]), BAR_FM_LINE, 0);
                place("Patt/GD", mk_hex_label(g, c2, l[3]), BAR_FM_LINE, 0);
            }
            s->side = BAR_BRITISH;
            s->phase = BP_MOVE;
            bool offered = bar_opcharge_offered(s, sc, pid("63/5th"));
            if (barred && held)
                CHECK(!offered);
            else if (!barred)
                CHECK(offered);   /* (barred, not held: a way round, unless the next hexside bars it too) */
            if (offered && barred)   /* round by a neighbour, never across */
                CHECK(bar_charge_end(s, sc, pid("SCLH/NJB"), m) != c);
            if (offered && !barred)
                CHECK_EQ(bar_charge_end(s, sc, pid("SCLH/NJB"), m), c);
            s->cx_unit = -1;
        }
    }
}

/* Activates JC (Wurmb at hex lb, an Initiative of 3: the roll 35 passes)
 * in the scenario loaded. */
static void activate_jc(void)
{
    s->side = BAR_BRITISH;
    force(1, 35);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"JC\"}"), 0);
    CHECK_EQ(s->phase, BP_MOVE);
}

/* 7.4a C: from 5:00 AM 29 June cavalry may dismount (or mount), for all its
 * MPs, taking any eligible formation and facing; dismounted it has 4 MPs,
 * moves as infantry, fires on the Line/Foot row, does not charge; the MPs
 * of the change bring no Heat check. */
static void test_7_4a_c_mounting(void)
{
    if (!use_scenario("4-general-engagement"))
        return;
    int cav = pid("16 Da"), am = pid("Patt/GD");
    int dawn = bar_turn_of(29, 5, 0) - x->first_turn;
    mk_action list[MK_MAX_ACTIONS];
    int nl;
    /* 4:40 AM: not yet */
    empty(dawn - 1);
    place("JC/KNY", "E2019", BAR_FM_LINE, 270);
    place("Jag/JC", "E2219", BAR_FM_LINE, 90);   /* (a unit of JC on the map) */
    place("16 Da", "E2019", BAR_FM_CAVALRY, 270);
    activate_jc();
    CHECK(s->pc[cav].mp > 0);
    CHECK_EQ(count(BA_MOUNT, cav, list, &nl), 0);
    /* 5:00 AM: the dismounting, into the infantry formations but Square and
     * Skirmish, 12 facings each */
    empty(dawn);
    place("JC/KNY", "E2019", BAR_FM_LINE, 270);
    place("Jag/JC", "E2219", BAR_FM_LINE, 90);   /* (a unit of JC on the map) */
    place("16 Da", "E2019", BAR_FM_CAVALRY, 270);
    mk_hex w = mk_hex_neighbor(&sc->map.grid, hx("E2019"), 4);
    char lw[MK_HEX_LABEL_MAX];
    mk_hex_label(&sc->map.grid, w, lw);
    place("Patt/GD", lw, BAR_FM_LINE, 90);
    activate_jc();
    CHECK(bar_mounted(s, sc, cav) && bar_charges(s, sc, cav));
    CHECK_EQ(bar_fire_row_now(s, sc, cav), -1);
    CHECK_EQ(count(BA_MOUNT, cav, list, &nl), 5 * 12);
    round_trip(BA_MOUNT, list, nl);
    for (int j = 0; j < nl; j++)
        if (list[j].type == BA_MOUNT) {
            CHECK_EQ(list[j].flags, 0);
            CHECK(list[j].target != BAR_FM_CAVALRY && list[j].target != BAR_FM_SKIRMISH &&
                  list[j].target != BAR_FM_SQUARE);
            CHECK_EQ(list[j].cost, s->pc[cav].mp);   /* all its MPs */
        }
    CHECK_EQ(act("{\"type\":\"mount\",\"unit\":\"16 Da\",\"mounted\":false,\"formation\":\"line\",\"facing\":300}"), 0);
    const mk_event *d = find_ev("dismount", NULL);
    CHECK(d && d->rule && strstr(d->rule, "7.4a C"));
    CHECK(s->pc[cav].more & BM_DISMOUNTED);
    CHECK(!bar_mounted(s, sc, cav) && !bar_charges(s, sc, cav));
    CHECK_EQ(s->pc[cav].form, BAR_FM_LINE);
    CHECK_EQ(s->pc[cav].facing, 10);
    CHECK_EQ(s->pc[cav].mp, 0);
    CHECK_EQ(s->pc[cav].spent, 0);
    CHECK_EQ(bar_ma_half(s, sc, cav), 8);   /* 4 MPs */
    CHECK_EQ(bar_move_class_now(s, sc, cav), BAR_MV_LINE);
    CHECK_EQ(bar_fire_row_now(s, sc, cav), BAR_FR_FOOT);   /* British: Foot */
    CHECK(act("{\"type\":\"mount\",\"unit\":\"16 Da\",\"mounted\":true,\"formation\":\"cavalry\",\"facing\":300}") != 0);
    {   /* ours: dismounted, it routs as infantry (2.5 C: 4 hexes, not 6) */
        bar_state keep = *s;
        mk_events_init(&ev, evs, 512);
        bar_rout_unit(s, sc, cav, &ev);
        const mk_event *r = find_ev("rout_retreat", NULL);
        CHECK(r && r->value == x->se.rout_hexes[0] && x->se.rout_hexes[0] != x->se.rout_hexes[1]);
        *s = keep;
    }
    /* it fires in the Fire Combat Segment, as Foot infantry */
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    CHECK_EQ(s->phase, BP_FIRE);
    CHECK(count(BA_FIRE, cav, list, &nl) >= 1);
    /* and attacks as infantry: no charge */
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    CHECK_EQ(count(BA_CC, cav, list, &nl), 1);
    for (int j = 0; j < nl; j++)
        if (list[j].type == BA_CC)
            CHECK(!(list[j].flags & BAF_CHARGE) && list[j].target == w);
    (void)am;

    /* a move first: it has no longer all its MPs to change */
    empty(dawn);
    place("JC/KNY", "E2019", BAR_FM_LINE, 270);
    place("Jag/JC", "E2219", BAR_FM_LINE, 90);   /* (a unit of JC on the map) */
    place("16 Da", "E2019", BAR_FM_CAVALRY, 270);
    activate_jc();
    CHECK_EQ(act("{\"type\":\"face\",\"unit\":\"16 Da\",\"facing\":300}"), 0);
    CHECK(s->pc[cav].mp > 0);
    CHECK_EQ(count(BA_MOUNT, cav, list, &nl), 0);

    /* mounting again: 8 MPs dismounted... its cavalry formation only */
    empty(dawn);
    place("JC/KNY", "E2019", BAR_FM_LINE, 270);
    place("Jag/JC", "E2219", BAR_FM_LINE, 90);   /* (a unit of JC on the map) */
    place("16 Da", "E2019", BAR_FM_MARCH_COLUMN, 270);
    s->pc[cav].more |= BM_DISMOUNTED;
    activate_jc();
    CHECK_EQ(s->pc[cav].mp, 8);   /* 4 MPs */
    CHECK_EQ(count(BA_MOUNT, cav, list, &nl), 12);
    round_trip(BA_MOUNT, list, nl);
    CHECK_EQ(act("{\"type\":\"mount\",\"unit\":\"16 Da\",\"mounted\":true,\"formation\":\"cavalry\",\"facing\":90}"), 0);
    CHECK(find_ev("mount", NULL) != NULL);
    CHECK(bar_mounted(s, sc, cav) && bar_charges(s, sc, cav));
    CHECK_EQ(s->pc[cav].form, BAR_FM_CAVALRY);
    CHECK_EQ(bar_ma_half(s, sc, cav), x->p[cav].mp_half);

    /* Heat (2.8 B): a dismounting brings no check; a move does */
    int noon = bar_turn_of(29, 12, 0) - x->first_turn;
    CHECK(bar_is_heat(x->first_turn + noon));
    for (int moved = 0; moved < 2; moved++) {
        empty(noon);
        place("JC/KNY", "E2019", BAR_FM_LINE, 270);
        place("Jag/JC", "E2219", BAR_FM_LINE, 90);
        place("16 Da", "E2019", BAR_FM_CAVALRY, 270);
        activate_jc();
        if (moved) {
            char js[160];
            snprintf(js, sizeof js, "{\"type\":\"move\",\"unit\":\"16 Da\",\"path\":[\"%s\"]}", lw);
            CHECK_EQ(act(js), 0);
        } else {
            CHECK_EQ(act("{\"type\":\"mount\",\"unit\":\"16 Da\",\"mounted\":false,\"formation\":\"line\",\"facing\":270}"), 0);
        }
        force(1, 99);
        CHECK_EQ(act("{\"type\":\"next\"}"), 0);
        const mk_event *h = find_ev("roll", "disorder_check");
        if (moved)
            CHECK(h && h->unit == cav && strstr(h->rule, "2.8"));
        else
            CHECK(h == NULL);
    }
    back_to_scenario_1();
}

/* 4.1b E: the Mounted Jaegers, mounted: 7 MPs moving as cavalry, no Charge,
 * infantry for Close Combat (so enemy cavalry may Retreat Before it,
 * 2.3f), no Skirmish; dismounted (all MPs, any eligible formation, at any
 * time): Skirmish allowed, the order of battle's MA, their own fire row. */
static void test_4_1b_e_mounted_jaegers(void)
{
    if (!use_scenario("4-general-engagement"))
        return;
    const mk_grid *g = &sc->map.grid;
    int mj = pid("MtdJ/JC"), am = pid("SCLH/NJB");
    mk_action list[MK_MAX_ACTIONS];
    int nl;
    mk_hex w = mk_hex_neighbor(g, hx("E2019"), 4), w2 = mk_hex_neighbor(g, w, 4);
    char lw[MK_HEX_LABEL_MAX], lw2[MK_HEX_LABEL_MAX], js[160];
    mk_hex_label(g, w, lw);
    mk_hex_label(g, w2, lw2);
    empty(0);
    place("JC/KNY", "E2019", BAR_FM_LINE, 270);
    place("MtdJ/JC", "E2019", BAR_FM_MARCH_COLUMN, 300);
    place("Patt/GD", lw2, BAR_FM_LINE, 90);   /* two hexes off: chargeable, were it cavalry */
    activate_jc();
    CHECK(bar_mounted(s, sc, mj) && !bar_charges(s, sc, mj));
    CHECK_EQ(s->pc[mj].mp, 14);   /* 7 MPs */
    CHECK_EQ(bar_move_class_now(s, sc, mj), BAR_MV_CAVALRY);
    CHECK_EQ(bar_fire_row_now(s, sc, mj), -1);
    {   /* ours: mounted, it routs as cavalry (6 hexes) */
        bar_state keep = *s;
        mk_events_init(&ev, evs, 512);
        bar_rout_unit(s, sc, mj, &ev);
        const mk_event *r = find_ev("rout_retreat", NULL);
        CHECK(r && r->value == x->se.rout_hexes[1]);
        *s = keep;
    }
    count(BA_FORM, mj, list, &nl);
    bool skirmish = false, square = false;
    for (int j = 0; j < nl; j++)
        if (list[j].type == BA_FORM && list[j].unit == mj) {
            skirmish |= list[j].target == BAR_FM_SKIRMISH;
            square |= list[j].target == BAR_FM_SQUARE;
        }
    CHECK(!skirmish && !square);
    int dis = count(BA_MOUNT, mj, list, &nl);
    CHECK_EQ(dis, 6 * 12);   /* the five formations and Skirmish */
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    CHECK_EQ(count(BA_CC, mj, list, &nl), 0);   /* no Charge */

    /* Close Combat as infantry: the cavalry it attacks may retreat before it */
    empty(0);
    place("JC/KNY", "E2019", BAR_FM_LINE, 270);
    place("MtdJ/JC", "E2019", BAR_FM_MARCH_COLUMN, 300);
    place("SCLH/NJB", lw, BAR_FM_CAVALRY, 300);   /* faces away */
    activate_jc();
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    snprintf(js, sizeof js, "{\"type\":\"close_combat\",\"unit\":\"MtdJ/JC\",\"target\":\"%s\"}", lw);
    CHECK_EQ(act(js), 0);
    CHECK_EQ(s->rb_unit, mj);
    CHECK_EQ(sc->rs->to_move(s), BAR_AMERICAN);
    CHECK_EQ(act("{\"type\":\"retreat_before_close_combat\",\"retreat\":true}"), 0);
    CHECK(s->pc[am].hex != w);

    /* dismounting into Skirmish (4.1b E: at any time) */
    empty(0);
    place("JC/KNY", "E2019", BAR_FM_LINE, 270);
    place("MtdJ/JC", "E2019", BAR_FM_MARCH_COLUMN, 300);
    activate_jc();
    CHECK_EQ(act("{\"type\":\"mount\",\"unit\":\"MtdJ/JC\",\"mounted\":false,\"formation\":\"skirmish\",\"facing\":270}"), 0);
    const mk_event *d = find_ev("dismount", NULL);
    CHECK(d && d->rule && strstr(d->rule, "4.1b E"));
    CHECK_EQ(s->pc[mj].form, BAR_FM_SKIRMISH);
    CHECK(!bar_mounted(s, sc, mj));
    CHECK_EQ(bar_ma_half(s, sc, mj), x->p[mj].mp_half);
    CHECK_EQ(bar_move_class_now(s, sc, mj), BAR_MV_LINE);
    CHECK(bar_fire_row_now(s, sc, mj) >= 0 && bar_fire_row_now(s, sc, mj) == x->p[mj].fire_row);
    /* the state says so */
    json_t *js2 = sc->rs->state_json(s, sc);
    json_t *units = json_object_get(js2, "units");
    CHECK(json_is_false(json_object_get(json_array_get(units, (size_t)mj), "mounted")));
    CHECK_EQ(json_integer_value(json_object_get(json_array_get(units, (size_t)mj), "mp_start")), 4);
    json_decref(js2);
    back_to_scenario_1();
}

/* A straight open, level line of len + 1 hexes on the east sheet, no
 * hexside between them, into path; false if none. */
static bool line_of(mk_hex *path, int len)
{
    const mk_grid *g = &sc->map.grid;
    for (mk_hex h = (mk_hex)(mk_grid_size(g) - 1); h >= 0; h--) {
        for (int d = 0; d < 6; d++) {
            path[0] = h;
            int k = 1;
            for (; k <= len; k++) {
                path[k] = mk_hex_neighbor(g, path[k - 1], d);
                if (!open_hex(path[k]) || bar_hexside(&x->map, path[k - 1], path[k]) ||
                    x->map.elevation[path[k]] != x->map.elevation[h])
                    break;
            }
            if (k > len && open_hex(h))
                return true;
        }
    }
    return false;
}

/* An open hex at least `far` hexes from every hex of path[0..len]. */
static mk_hex away_from(const mk_hex *path, int len, int far)
{
    const mk_grid *g = &sc->map.grid;
    for (mk_hex h = (mk_hex)(mk_grid_size(g) - 1); h >= 0; h--) {
        bool ok = open_hex(h);
        for (int k = 0; k <= len && ok; k++)
            ok = mk_hex_distance(g, h, path[k]) >= far && mk_hex_distance(g, h, path[k]) <= far + 3;
        if (ok)
            return h;
    }
    return MK_NO_HEX;
}

static int move_to(const char *unit, mk_hex h)
{
    char js[160], l[MK_HEX_LABEL_MAX];
    snprintf(js, sizeof js, "{\"type\":\"move\",\"unit\":\"%s\",\"path\":[\"%s\"]}", unit,
             mk_hex_label(&sc->map.grid, h, l));
    return act(js);
}

/* 2.6a: a unit in Skirmish formation uses only 2 MPs in a Movement Segment
 * at whose start or end it is not within 2 hexes of a friendly non-Routed
 * combat unit: alone, or with a friend near only its start or only its
 * end, the move past 2 MPs is refused; with one near both, allowed. */
static void test_2_6a_skirmish_limit(void)
{
    const mk_grid *g = &sc->map.grid;
    mk_hex path[4];
    CHECK(line_of(path, 3));
    if (!line_of(path, 3))
        return;
    mk_hex far = away_from(path, 3, 4);
    CHECK(far != MK_NO_HEX);
    /* a friend's hex: near both (next to path[1] and path[2]), near the
     * start only, near the end only */
    mk_hex both = MK_NO_HEX, start = MK_NO_HEX, end = MK_NO_HEX;
    for (int d = 0; d < 6; d++) {
        mk_hex h = mk_hex_neighbor(g, path[1], d);
        if (open_hex(h) && mk_hex_adjacent(g, h, path[2]))
            both = h;
        h = mk_hex_neighbor(g, path[0], d);
        if (open_hex(h) && mk_hex_distance(g, h, path[3]) >= 3)
            start = h;
        h = mk_hex_neighbor(g, path[3], d);
        if (open_hex(h) && mk_hex_distance(g, h, path[0]) >= 3)
            end = h;
    }
    CHECK(both != MK_NO_HEX && start != MK_NO_HEX && end != MK_NO_HEX);
    const mk_hex friends[4] = {MK_NO_HEX, both, start, end};
    int u = pid("A/1 Lt"), cost2 = 0;
    for (int f = 0; f < 4; f++) {
        char l0[MK_HEX_LABEL_MAX], lf[MK_HEX_LABEL_MAX], lfar[MK_HEX_LABEL_MAX];
        empty(3);   /* (past 7.1a's first three turns) */
        mk_hex_label(g, path[0], l0);
        place("HC", l0, BAR_FM_LINE, 90);
        place("5th/COR", l0, BAR_FM_LINE, 90);
        place("A/1 Lt", l0, BAR_FM_SKIRMISH, 90);
        place("63/5th", mk_hex_label(g, far, lfar), BAR_FM_LINE, 90);   /* (5th's unit, far off) */
        if (friends[f] != MK_NO_HEX)
            place("B/1 Lt", mk_hex_label(g, friends[f], lf), BAR_FM_LINE, 90);
        s->side = BAR_BRITISH;
        CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"5th\"}"), 0);
        CHECK(s->pc[u].mp >= 6);
        CHECK_EQ(move_to("A/1 Lt", path[1]), 0);
        CHECK_EQ(move_to("A/1 Lt", path[2]), 0);
        cost2 = s->pc[u].spent;
        CHECK_EQ(cost2, 4);   /* 2 MPs */
        if (f == 1)
            CHECK_EQ(move_to("A/1 Lt", path[3]), 0);
        else
            CHECK(move_to("A/1 Lt", path[3]) != 0);
    }
    /* not in Skirmish: no such limit */
    empty(3);
    char l0[MK_HEX_LABEL_MAX], lfar[MK_HEX_LABEL_MAX];
    place("HC", mk_hex_label(g, path[0], l0), BAR_FM_LINE, 90);
    place("5th/COR", l0, BAR_FM_LINE, 90);
    place("A/1 Lt", l0, BAR_FM_MARCH_COLUMN, 90);
    place("63/5th", mk_hex_label(g, far, lfar), BAR_FM_LINE, 90);
    s->side = BAR_BRITISH;
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"5th\"}"), 0);
    for (int k = 1; k <= 3; k++)
        CHECK_EQ(move_to("A/1 Lt", path[k]), 0);
}

/* 7.4a J: a Jaeger Corps unit in Skirmish, activated with Wurmb's Command,
 * beginning and ending in his LOC (his Command Range, 4), need not stay
 * within 2 hexes of a formed unit; out of his LOC, or a unit not of the
 * Jaeger Corps in the same activation, the 2.6a limit applies. */
static void test_7_4a_j_jaeger_corps(void)
{
    if (!use_scenario("4-general-engagement"))
        return;
    const mk_grid *g = &sc->map.grid;
    mk_hex path[6];
    CHECK(line_of(path, 5));
    if (!line_of(path, 5)) {
        back_to_scenario_1();
        return;
    }
    int w = pid("JC/KNY");
    mk_hex far = away_from(path, 5, 3);
    char l0[MK_HEX_LABEL_MAX], lfar[MK_HEX_LABEL_MAX];
    mk_hex_label(g, path[0], l0);
    mk_hex_label(g, far, lfar);
    empty(0);
    place("JC/KNY", l0, BAR_FM_LINE, 90);
    place("Chas/Jag", l0, BAR_FM_SKIRMISH, 90);
    activate_jc();
    CHECK_EQ(x->p[w].range, 4);
    int u = pid("Chas/Jag");
    CHECK(s->pc[u].more & BM_JC_LOC);
    CHECK(!(s->pc[u].more & BM_SK_NEAR));   /* alone */
    for (int k = 1; k <= 4; k++)   /* past 2 MPs, in Wurmb's range */
        CHECK_EQ(move_to("Chas/Jag", path[k]), 0);
    CHECK(s->pc[u].spent > 4);
    CHECK(s->pc[u].mp >= 2);
    CHECK(move_to("Chas/Jag", path[5]) != 0);   /* 5 hexes from Wurmb */
    /* A/1 Lt (not of the Jaeger Corps) in Wurmb's activation: 2.6a */
    empty(0);
    place("JC/KNY", l0, BAR_FM_LINE, 90);
    place("A/1 Lt", l0, BAR_FM_SKIRMISH, 90);
    place("Chas/Jag", lfar, BAR_FM_SKIRMISH, 90);   /* (JC's unit, far off) */
    activate_jc();
    int a = pid("A/1 Lt");
    CHECK(bar_piece_active(s, sc, a));
    CHECK(!(s->pc[a].more & BM_JC_LOC));
    CHECK_EQ(move_to("A/1 Lt", path[1]), 0);
    CHECK_EQ(move_to("A/1 Lt", path[2]), 0);
    CHECK(move_to("A/1 Lt", path[3]) != 0);
    back_to_scenario_1();
}

int main(void)
{
    if (!bar_fixture_load())
        return check_done("test_bar_cavalry");
    CHECK(sizeof(bar_state) <= 4096);   /* the pending charge and the mode bits fit */
    CHECK_EQ(sc->rs->state_size, sizeof(bar_state));
    test_2_3b_countercharge();
    test_2_3b_opportunity_charge();
    test_2_3b_scm_prohibition();
    test_7_4a_c_mounting();
    test_4_1b_e_mounted_jaegers();
    test_2_6a_skirmish_limit();
    test_7_4a_j_jaeger_corps();
    mk_scenario_free(sc);
    return check_done("test_bar_cavalry");
}
