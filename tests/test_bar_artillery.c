/* test_bar_artillery.c - the Monmouth artillery rules with forced dice, each
 * test named by its section: the Hessian regimental guns (2.2d E), prolonge
 * (2.2d F-G), the artillery Special Leaders Knox, du Plessis-Mauduit and
 * Pattison (3.2b C-D, 4.2b D). Positions are built on scenario 4 (it has
 * every piece these rules need): every piece is taken off the map, then
 * the test places the ones it needs. */
#include "bar_fixture.h"

static const mk_grid *g;
static mk_hex centre;   /* a hex with open, level ground and no hexsides 5 hexes round */

static bool plain(mk_hex h, int level)
{
    if (h == MK_NO_HEX || x->map.terrain[h] != BAR_T_OPEN || x->map.elevation[h] != level ||
        x->map.features[h])
        return false;
    for (int d = 0; d < 6; d++) {
        mk_hex n = mk_hex_neighbor(g, h, d);
        if (n != MK_NO_HEX && bar_hexside(&x->map, h, n))
            return false;
    }
    return true;
}

static mk_hex find_centre(void)
{
    int size = mk_grid_size(g);
    for (mk_hex h = 0; h < size; h++) {
        if (!plain(h, x->map.elevation[h]) || mk_hex_on_map_edge(g, h))
            continue;
        bool ok = true;
        for (mk_hex k = 0; k < size && ok; k++)
            if (mk_hex_distance(g, h, k) <= 5)
                ok = plain(k, x->map.elevation[h]);
        if (ok)
            return h;
    }
    return MK_NO_HEX;
}

static mk_hex step(mk_hex h, int d, int n)
{
    for (int k = 0; k < n && h != MK_NO_HEX; k++)
        h = mk_hex_neighbor(g, h, d);
    return h;
}

static const char *lab(mk_hex h)
{
    static char b[4][MK_HEX_LABEL_MAX];
    static int k;
    k = (k + 1) % 4;
    return mk_hex_label(g, h, b[k]);
}

/* Put piece id at hex h, facing hex toward (or MK_NO_HEX: 0 degrees). */
static void put(const char *id, mk_hex h, int form, mk_hex toward)
{
    place(id, lab(h), form, toward == MK_NO_HEX ? 0 : 30 * bar_bearing12(g, h, toward));
}

static void activate(int side, const char *command)
{
    char js[96];
    s->side = (int8_t)side;
    force(1, 10);   /* an Initiative roll, if one is needed, passes */
    snprintf(js, sizeof js, "{\"type\":\"activate\",\"command\":\"%s\"}", command);
    CHECK_EQ(act(js), 0);
    CHECK_EQ(s->phase, BP_MOVE);
}

/* Fire Combat (2.2) by unit at hex t, the die forced; apply's result. */
static int fire_at(const char *unit, mk_hex t, int die)
{
    char js[160];
    force(1, die);
    snprintf(js, sizeof js, "{\"type\":\"fire\",\"unit\":\"%s\",\"target\":\"%s\"}", unit, lab(t));
    return act(js);
}

/* The legal action of the given type, piece, target (-1: any) and flags
 * (-1: any), or NULL. */
static mk_action list[MK_MAX_ACTIONS];
static int nlist;
static const mk_action *listed(int type, int unit, int target, int flags)
{
    nlist = sc->rs->legal(s, sc, list, MK_MAX_ACTIONS);
    for (int k = 0; k < nlist; k++)
        if (list[k].type == type && list[k].unit == unit && (target < 0 || list[k].target == target) &&
            (flags < 0 || list[k].flags == flags))
            return &list[k];
    return NULL;
}

static int count_listed(int type, int unit)
{
    nlist = sc->rs->legal(s, sc, list, MK_MAX_ACTIONS);
    int c = 0;
    for (int k = 0; k < nlist; k++)
        c += list[k].type == type && list[k].unit == unit;
    return c;
}

static int count_ev(const char *type, const char *purpose)
{
    int c = 0;
    for (int k = 0; k < ev.n; k++)
        c += !strcmp(ev.ev[k].type, type) && (!purpose || (ev.ev[k].purpose && !strcmp(ev.ev[k].purpose, purpose)));
    return c;
}

static int mult(int row, int range) { return x->ch.row[row].mult[range - 1]; }

/* Lsb/LOO (5 SPs, Line) with its guns Rgt/LOO#1 unlimbered, Loos, and an
 * American Line next to them; the LOO Command in its Fire Combat Segment. */
static mk_hex loos_position(void)
{
    mk_hex t = step(centre, 0, 1);
    empty(3);
    put("LOO/KNY", centre, BAR_FM_LINE, t);
    put("Lsb/LOO", centre, BAR_FM_LINE, t);
    put("Rgt/LOO#1", centre, BAR_FM_ARTILLERY, t);
    put("11&15Va/WOO", t, BAR_FM_LINE, centre);
    activate(BAR_BRITISH, "LOO");
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    CHECK_EQ(s->phase, BP_FIRE);
    return t;
}

/* 2.2d E iv: an infantry unit and its regimental guns combine their fire
 * against the same target: one roll at the column of both strengths added
 * (the guns' SPs count as zero towards the Line's 6). */
static void test_2_2d_E_iv_combined_fire(void)
{
    mk_hex t = loos_position();
    int inf = pid("Lsb/LOO"), gun = pid("Rgt/LOO#1"), tgt = pid("11&15Va/WOO");
    CHECK_EQ(x->p[gun].owner, inf);
    int c1, c2, c3;
    int a = bar_fire_strength_of(s, sc, inf, t, &c1), b = bar_fire_strength_of(s, sc, gun, t, &c2);
    CHECK_EQ(a, 5 * mult(x->p[inf].fire_row, 1));
    CHECK_EQ(b, 2 * mult(BAR_FR_REGIMENTAL, 1));
    CHECK_EQ(bar_fire_strength_with(s, sc, inf, gun, t, &c3), a + b);
    CHECK_EQ(c3, bar_fire_column(&x->ch, a + b, bar_fire_defence(&x->ch, x->map.terrain[t], false)));
    CHECK(c3 > c1);   /* a better column than the infantry alone */
    const mk_action *m = listed(BA_FIRE, inf, t, BAF_GUNS);
    CHECK(m && m->other == gun);
    CHECK(listed(BA_FIRE, inf, t, 0) != NULL);   /* alone too */
    CHECK(listed(BA_FIRE, gun, t, 0) != NULL);
    /* the top band of the combined column */
    int want = x->ch.fire.band[c3][x->ch.fire.nbands[c3] - 1].sp;
    force(2, 99, 99);   /* the fire, the Morale Check (passes) */
    char js[160];
    snprintf(js, sizeof js, "{\"type\":\"fire\",\"unit\":\"Lsb/LOO\",\"target\":\"%s\",\"with_guns\":true}", lab(t));
    CHECK_EQ(act(js), 0);
    CHECK_EQ(count_ev("roll", "fire"), 1);   /* one fire, not two */
    CHECK(find_ev("combined_fire", NULL) != NULL);
    const mk_event *r = find_ev("roll", "fire");
    CHECK(r && r->points == (a + b) / 100);
    CHECK_EQ(s->pc[tgt].sp, x->p[tgt].sp - want);
    CHECK(s->pc[inf].flags & BF_FIRED);
    CHECK(s->pc[gun].flags & BF_FIRED);
    CHECK(listed(BA_FIRE, gun, -1, -1) == NULL);   /* the guns have fired */
    /* the action prints and parses back */
    json_t *o = sc->rs->action_json(s, sc, m);
    CHECK(json_is_true(json_object_get(o, "with_guns")));
    json_decref(o);
}

/* 2.2d E iv: regimental guns stacked with infantry in Line fire only above
 * the sixth SP (ours: at most 5 infantry SPs over them); in another
 * formation they fire. */
static void test_2_2d_E_iv_sixth_sp(void)
{
    mk_hex t = step(centre, 0, 1);
    int inf = pid("Lei/STI"), gun = pid("Rgt/STI#1");
    for (int k = 0; k < 3; k++) {
        empty(3);
        put("STI/KNY", centre, BAR_FM_LINE, t);
        put("Lei/STI", centre, k == 2 ? BAR_FM_ATTACK_COLUMN : BAR_FM_LINE, t);
        put("Rgt/STI#1", centre, BAR_FM_ARTILLERY, t);
        put("11&15Va/WOO", t, BAR_FM_LINE, centre);
        if (k == 1)
            s->pc[inf].sp = 5;
        activate(BAR_BRITISH, "STI");
        CHECK_EQ(act("{\"type\":\"next\"}"), 0);
        CHECK(x->p[inf].sp > 6);
        bool fires = k != 0;   /* 8 SPs in Line: the guns are under the sixth */
        CHECK_EQ(bar_rgt_may_fire(s, sc, gun), fires);
        CHECK_EQ(listed(BA_FIRE, gun, t, 0) != NULL, fires);
        CHECK_EQ(listed(BA_FIRE, inf, t, BAF_GUNS) != NULL, fires);
    }
}

/* 2.2d E ii, iv with the two-hex Line (2.1a, ours: half its SPs a hex)
 * and the Hook (a Line with an end bent back): the guns stand with their
 * regiment in either of its hexes and count the infantry SPs of their own
 * hex; in a Hook of 8 SPs they are under the sixth. */
static void test_2_2d_E_iv_two_hex_line_and_hook(void)
{
    mk_hex t = step(centre, 0, 1), side_hex = step(centre, 2, 1);
    int inf = pid("Lei/STI"), gun = pid("Rgt/STI#1");
    for (int k = 0; k < 3; k++) {
        empty(3);
        put("STI/KNY", centre, BAR_FM_LINE, t);
        put("Lei/STI", centre, k == 2 ? BAR_FM_HOOK : BAR_FM_LINE, t);
        if (k < 2)
            s->pc[inf].tail = (int8_t)(mk_hex_direction(g, centre, side_hex) + 1);
        put("Rgt/STI#1", k == 1 ? side_hex : centre, BAR_FM_ARTILLERY, t);
        put("11&15Va/WOO", t, BAR_FM_LINE, centre);
        CHECK_EQ(s->pc[inf].sp, 8);
        CHECK_EQ(bar_sp_in(s, sc, inf, s->pc[gun].hex), k < 2 ? 4 : 8);
        CHECK(bar_rgt_may_unlimber(s, sc, gun));   /* its regiment's hex, head or tail */
        CHECK(bar_rgt_with_owner(s, sc, gun));
        CHECK_EQ(bar_rgt_may_fire(s, sc, gun), k < 2);   /* 4 SPs over them; the Hook's 8 */
    }
}

/* 2.2d E i-ii: regimental guns unlimber (1 MP) and fire only in a hex that
 * contains their owning regiment. */
static void test_2_2d_E_ii_owner_hex(void)
{
    mk_hex t = step(centre, 0, 2), away = step(centre, 3, 1);
    int gun = pid("Rgt/LOO#1");
    empty(3);
    put("LOO/KNY", centre, BAR_FM_LINE, t);
    put("Lsb/LOO", centre, BAR_FM_LINE, t);
    put("Knh/LOO", away, BAR_FM_LINE, t);          /* another regiment */
    put("Rgt/LOO#1", away, BAR_FM_ARTILLERY, t);   /* not with Lsb */
    put("11&15Va/WOO", t, BAR_FM_LINE, centre);
    activate(BAR_BRITISH, "LOO");
    CHECK(!bar_rgt_may_fire(s, sc, gun));
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    CHECK(listed(BA_FIRE, gun, -1, -1) == NULL);
    CHECK(listed(BA_FIRE, pid("Knh/LOO"), t, BAF_GUNS) == NULL);   /* not its guns */
    /* limbered, away from Lsb: no unlimbering; with Lsb: for 1 MP */
    for (int with = 0; with < 2; with++) {
        empty(3);
        put("LOO/KNY", centre, BAR_FM_LINE, t);
        put("Lsb/LOO", centre, BAR_FM_LINE, t);
        put("Rgt/LOO#1", with ? centre : away, BAR_FM_ARTILLERY_ROAD_COLUMN, t);
        activate(BAR_BRITISH, "LOO");
        const mk_action *m = listed(BA_FORM, gun, BAR_FM_ARTILLERY, -1);
        CHECK_EQ(m != NULL, with == 1);
        if (m)
            CHECK_EQ(m->cost, 2);   /* half MPs */
    }
}

/* 2.2d E iii: limbered regimental guns stacked with their owning
 * regiment in Road, March or Attack Column count as zero SPs for stacking;
 * other guns count. */
static void test_2_2d_E_iii_stacking(void)
{
    mk_hex to = step(centre, 0, 1);
    int g1 = pid("Rgt/STI#1"), g2 = pid("Rgt/STI#2");
    empty(3);
    put("STI/KNY", centre, BAR_FM_LINE, to);
    put("Lei/STI", to, BAR_FM_ROAD_COLUMN, centre);   /* 8 SPs: Road Column's limit */
    put("Rgt/STI#1", centre, BAR_FM_ARTILLERY_ROAD_COLUMN, to);
    put("Rgt/STI#2", centre, BAR_FM_ARTILLERY_ROAD_COLUMN, to);
    CHECK_EQ(x->p[pid("Lei/STI")].sp, 8);
    activate(BAR_BRITISH, "STI");
    bool in1 = false, in2 = false;
    nlist = sc->rs->legal(s, sc, list, MK_MAX_ACTIONS);
    for (int k = 0; k < nlist; k++) {
        in1 |= list[k].type == BA_MOVE && list[k].unit == g1 && list[k].path[0] == to;
        in2 |= list[k].type == BA_MOVE && list[k].unit == g2 && list[k].path[0] == to;
    }
    CHECK(in1);    /* Lei's own guns: zero SPs */
    CHECK(!in2);   /* von Donop's: 10 SPs over 8 */
}

/* 2.2d E vi: fire losses are not assessed against regimental guns stacked
 * with infantry (the firer never chooses so: ours). */
static void test_2_2d_E_vi_losses(void)
{
    mk_hex t = step(centre, 0, 1);
    int inf = pid("Lsb/LOO"), gun = pid("Rgt/LOO#1");
    empty(3);
    put("WOO/GRE", centre, BAR_FM_LINE, t);
    put("11&15Va/WOO", centre, BAR_FM_LINE, t);
    put("Lsb/LOO", t, BAR_FM_LINE, centre);
    put("Rgt/LOO#1", t, BAR_FM_ARTILLERY, centre);
    s->pc[inf].sp = 1;   /* fewer SPs than the guns: the guns would be the stack's largest */
    activate(BAR_AMERICAN, "WOO");
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    int col;
    CHECK(bar_fire_strength_of(s, sc, pid("11&15Va/WOO"), t, &col) >= 0 && col >= 0);
    force(2, 99, 99);
    char js[160];
    snprintf(js, sizeof js, "{\"type\":\"fire\",\"unit\":\"11&15Va/WOO\",\"target\":\"%s\"}", lab(t));
    CHECK_EQ(act(js), 0);
    const mk_event *l = find_ev("loss", NULL);
    CHECK(l && l->unit == inf);
    CHECK_EQ(s->pc[gun].sp, x->p[gun].sp);
}

/* 2.2d E vii-viii: regimental guns stacked with their regiment conform to
 * its Organizational and Morale States and take no checks of their own; a
 * routing regiment takes them along (limbered: they end their Rout Retreat
 * with it; unlimbered: lost, 2.5b A). */
static void test_2_2d_E_viii_conform(void)
{
    int inf = pid("Lsb/LOO"), gun = pid("Rgt/LOO#1");
    for (int limbered = 0; limbered < 2; limbered++) {
        empty(3);
        put("Lsb/LOO", centre, BAR_FM_LINE, step(centre, 0, 1));
        put("Rgt/LOO#1", centre, limbered ? BAR_FM_ARTILLERY_ROAD_COLUMN : BAR_FM_ARTILLERY, step(centre, 0, 1));
        mk_events_init(&ev, evs, 512);
        force(1, 15);   /* fails ER 3's Morale Check: Shaken */
        bar_do_check(s, sc, inf, 'M', 'A', 0, "test", &ev);
        CHECK(s->pc[inf].status & BS_SHAKEN);
        CHECK_EQ(s->pc[gun].status, s->pc[inf].status);
        /* the guns' own check: none */
        mk_events_init(&ev, evs, 512);
        force(1, 15);
        CHECK_EQ(bar_do_check(s, sc, gun, 'M', 'A', 0, "test", &ev), BAR_CE_NO_EFFECT);
        CHECK_EQ(count_ev("roll", NULL), 0);
        /* Shaken again: Rout; the guns go too */
        mk_events_init(&ev, evs, 512);
        force(1, 15);
        bar_do_check(s, sc, inf, 'M', 'A', 0, "test", &ev);
        CHECK(s->pc[inf].status & BS_ROUTED);
        CHECK(s->pc[inf].hex != centre);
        if (limbered) {
            CHECK(s->pc[gun].status & BS_ROUTED);
            CHECK(s->pc[gun].hex != centre && s->pc[gun].hex != MK_NO_HEX);
            CHECK_EQ(s->pc[gun].hex, s->pc[inf].hex);   /* vii: they end it with the regiment */
        } else {
            CHECK(!bar_alive(s, gun));   /* unlimbered guns that rout are lost */
        }
    }
    /* away from the regiment the guns check for themselves */
    empty(3);
    put("Lsb/LOO", centre, BAR_FM_LINE, step(centre, 0, 1));
    put("Rgt/LOO#1", step(centre, 3, 1), BAR_FM_ARTILLERY, step(centre, 0, 1));
    mk_events_init(&ev, evs, 512);
    force(1, 15);
    bar_do_check(s, sc, gun, 'M', 'A', 0, "test", &ev);
    CHECK_EQ(count_ev("roll", NULL), 1);
    CHECK(s->pc[gun].status & BS_SHAKEN);
    CHECK_EQ(s->pc[inf].status, 0);   /* never vice versa */
}

/* 2.5b B: artillery in Rout Retreat rolls a die for each non-clear hex
 * entered or hexside crossed: 0 or 1 loses an SP; on clear ground, no roll. */
static void test_2_5b_B_rout_losses(void)
{
    int art = pid("Fld/5th");
    /* clear ground: 4 hexes inside the plain area round the centre */
    empty(3);
    put("Fld/5th", centre, BAR_FM_ARTILLERY_ROAD_COLUMN, MK_NO_HEX);
    mk_events_init(&ev, evs, 512);
    bar_rout_hexes(s, sc, art, 4, false, &ev);
    CHECK(s->pc[art].hex != centre);
    CHECK_EQ(count_ev("roll", "rout_loss"), 0);
    /* a start from which the retreat crosses rough ground */
    int size = mk_grid_size(g), rolls = 0;
    mk_hex from = MK_NO_HEX;
    for (mk_hex h = 0; h < size && from == MK_NO_HEX; h++) {
        if (x->map.terrain[h] != BAR_T_OPEN || mk_hex_on_map_edge(g, h))
            continue;
        empty(3);
        put("Fld/5th", h, BAR_FM_ARTILLERY_ROAD_COLUMN, MK_NO_HEX);
        s->pc[art].sp = 9;   /* (more than the rolls can take) */
        mk_events_init(&ev, evs, 512);
        force(8, 9, 9, 9, 9, 9, 9, 9, 9);   /* every roll passes */
        bar_rout_hexes(s, sc, art, 4, false, &ev);
        rolls = count_ev("roll", "rout_loss");
        if (rolls >= 2) {
            from = h;
            CHECK_EQ(s->pc[art].sp, 9);
        }
    }
    CHECK(from != MK_NO_HEX);
    if (from == MK_NO_HEX)
        return;
    empty(3);
    put("Fld/5th", from, BAR_FM_ARTILLERY_ROAD_COLUMN, MK_NO_HEX);
    s->pc[art].sp = 9;
    mk_events_init(&ev, evs, 512);
    force(8, 0, 1, 0, 1, 0, 1, 0, 1);   /* every roll loses an SP */
    bar_rout_hexes(s, sc, art, 4, false, &ev);
    CHECK_EQ(count_ev("roll", "rout_loss"), rolls);
    CHECK_EQ(s->pc[art].sp, 9 - rolls);
}

/* 2.5b C: an activated unlimbered artillery unit may Voluntarily Rout by
 * limbering (its MPs) and routing up to 4 (not 8) hexes. */
static void test_2_5b_C_unlimbered_voluntary_rout(void)
{
    int art = pid("Fld/5th");
    empty(3);
    put("5th/COR", step(centre, 3, 1), BAR_FM_LINE, MK_NO_HEX);
    put("63/5th", step(centre, 3, 1), BAR_FM_LINE, MK_NO_HEX);
    put("Fld/5th", centre, BAR_FM_ARTILLERY, step(centre, 0, 1));
    activate(BAR_BRITISH, "5th");
    const mk_action *m = listed(BA_ROUT, art, -1, -1);
    CHECK(m != NULL);
    if (!m)
        return;
    force(8, 9, 9, 9, 9, 9, 9, 9, 9);
    CHECK_EQ(act("{\"type\":\"rout\",\"unit\":\"Fld/5th\"}"), 0);
    CHECK(bar_alive(s, art));   /* limbered first: not lost (2.5b A) */
    CHECK_EQ(s->pc[art].form, BAR_FM_ARTILLERY_ROAD_COLUMN);
    CHECK(s->pc[art].status & BS_ROUTED);
    int d = mk_hex_distance(g, centre, s->pc[art].hex);
    CHECK(d >= 1 && d <= 4);
    /* without the MPs to limber: no */
    empty(3);
    put("5th/COR", step(centre, 3, 1), BAR_FM_LINE, MK_NO_HEX);
    put("63/5th", step(centre, 3, 1), BAR_FM_LINE, MK_NO_HEX);
    put("Fld/5th", centre, BAR_FM_ARTILLERY, step(centre, 0, 1));
    activate(BAR_BRITISH, "5th");
    s->pc[art].mp = 0;
    CHECK(listed(BA_ROUT, art, -1, -1) == NULL);
}

/* 2.2d F: unlimbered artillery prolonges a hex (regimental guns 2) per
 * Activation, unlimbered and keeping its facing, and makes no Formation
 * change after (Standard 9.5); it may still fire. */
static void test_2_2d_F_prolonge(void)
{
    mk_hex t = step(centre, 0, 4);
    int art = pid("Fld/5th");
    empty(3);
    put("5th/COR", centre, BAR_FM_LINE, t);
    put("Fld/5th", centre, BAR_FM_ARTILLERY, t);
    put("11&15Va/WOO", t, BAR_FM_LINE, centre);
    activate(BAR_BRITISH, "5th");
    int facing = s->pc[art].facing;
    CHECK_EQ(count_listed(BA_PROLONGE, art), 6);   /* every open neighbour */
    CHECK(listed(BA_MOVE, art, -1, -1) == NULL);    /* unlimbered: no ordinary move */
    mk_hex to = step(centre, 0, 1);
    char js[160];
    snprintf(js, sizeof js, "{\"type\":\"prolonge\",\"unit\":\"Fld/5th\",\"path\":[\"%s\"]}", lab(to));
    int mp = s->pc[art].mp;
    CHECK_EQ(act(js), 0);
    CHECK(find_ev("prolonge", NULL) != NULL);
    CHECK_EQ(s->pc[art].hex, to);
    CHECK_EQ(s->pc[art].form, BAR_FM_ARTILLERY);
    CHECK_EQ(s->pc[art].facing, facing);
    CHECK_EQ(s->pc[art].mp, mp - x->ch.hex[BAR_T_OPEN].cost[BAR_MV_ARTILLERY]);
    CHECK_EQ(count_listed(BA_PROLONGE, art), 0);   /* 1 hex an activation */
    CHECK_EQ(count_listed(BA_FORM, art), 0);       /* 9.5: no limbering after */
    CHECK(act(js) < 0);
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    CHECK(listed(BA_FIRE, art, t, 0) != NULL);      /* "may fire and prolonge" */
    /* regimental guns: 2 hexes */
    int gun = pid("Rgt/LOO#1");
    empty(3);
    put("LOO/KNY", centre, BAR_FM_LINE, t);
    put("Lsb/LOO", centre, BAR_FM_LINE, t);
    put("Rgt/LOO#1", centre, BAR_FM_ARTILLERY, t);
    activate(BAR_BRITISH, "LOO");
    for (int k = 1; k <= 3; k++) {
        const mk_action *m = listed(BA_PROLONGE, gun, -1, -1);
        CHECK_EQ(m != NULL, k <= 2);
        if (!m)
            break;
        mk_events_init(&ev, evs, 512);
        mk_error err = {0};
        mk_action a = *m;
        CHECK_EQ(sc->rs->apply(s, sc, &a, &ev, &err), 0);
        CHECK_EQ(count_listed(BA_FORM, gun), 0);   /* after 1 hex, still no Formation change */
    }
    CHECK(s->pc[gun].more2 & BM2_PRO2);
}

/* 2.2d G: no prolonge into a grade hex (5.2b), in a woods hex (5.2d) or
 * across a regular slope hexside (5.3d), where a limbered gun could go. */
static void test_2_2d_G_no_prolonge(void)
{
    int art = pid("Fld/5th");
    int size = mk_grid_size(g), found[3] = {0, 0, 0};
    for (mk_hex h = 0; h < size; h++) {
        if (x->map.terrain[h] != BAR_T_OPEN && x->map.terrain[h] != BAR_T_WOODS)
            continue;
        for (int d = 0; d < 6; d++) {
            mk_hex to = mk_hex_neighbor(g, h, d);
            if (to == MK_NO_HEX)
                continue;
            unsigned side = bar_hexside(&x->map, h, to);
            int kind = x->map.terrain[h] == BAR_T_WOODS && x->map.terrain[to] == BAR_T_OPEN && !side ? 1
                       : x->map.terrain[h] == BAR_T_OPEN && x->map.terrain[to] == BAR_T_GRADE && !side ? 0
                       : x->map.terrain[h] == BAR_T_OPEN && x->map.terrain[to] == BAR_T_OPEN &&
                               side == BAR_HS_REGULAR_SLOPE
                           ? 2
                           : -1;
            if (kind < 0 || found[kind] >= 2)
                continue;
            found[kind]++;
            empty(3);
            put("5th/COR", h, BAR_FM_LINE, to);
            put("Fld/5th", h, BAR_FM_ARTILLERY, to);
            activate(BAR_BRITISH, "5th");
            int road;
            int c = bar_move_cost(s, sc, art, to, &road);   /* movement could enter it */
            CHECK(c >= 0 && c <= s->pc[art].mp);
            CHECK(listed(BA_PROLONGE, art, -1, -1) == NULL || kind != 1);   /* woods: none at all */
            bool any = false;
            for (int k = 0; k < nlist; k++)
                any |= list[k].type == BA_PROLONGE && list[k].path[0] == to;
            CHECK(!any);
        }
    }
    CHECK(found[0] > 0);
    CHECK(found[1] > 0);
    CHECK(found[2] > 0);
}

/* 3.2b C: Knox stacked with an activated artillery unit: it and the
 * American artillery not yet activated this turn in the same or adjacent
 * hexes may fire at the same target, each on its own, 4 or more hexes
 * away too; not before, not from 2 hexes, not once its Command has
 * activated, and not again in its own activation that turn. */
static void test_3_2b_C_knox(void)
{
    mk_hex t = step(centre, 0, 4);
    mk_hex side_hex = step(centre, 1, 1), far = step(centre, 4, 2);
    int own = pid("Fld/WOO"), adj = pid("Fld/HUN"), two = pid("Fld/GD");
    empty(3);
    put("WOO/GRE", centre, BAR_FM_LINE, t);
    put("KNO/GW", centre, BAR_FM_LINE, t);
    put("Fld/WOO", centre, BAR_FM_ARTILLERY, t);
    put("Fld/HUN", side_hex, BAR_FM_ARTILLERY, t);
    put("Fld/GD", far, BAR_FM_ARTILLERY, t);
    put("63/5th", t, BAR_FM_LINE, centre);
    activate(BAR_AMERICAN, "WOO");
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    int col;
    CHECK(bar_fire_strength_of(s, sc, adj, t, &col) >= 0 && col >= 0);
    CHECK(mk_hex_distance(g, s->pc[adj].hex, t) >= 4);
    CHECK(listed(BA_FIRE, adj, -1, -1) == NULL);   /* not before Knox's gun fires */
    CHECK_EQ(fire_at("Fld/WOO", t, 11), 0);
    CHECK_EQ(s->bat_leader, pid("KNO/GW"));
    CHECK(listed(BA_FIRE, adj, t, 0) != NULL);
    CHECK(listed(BA_FIRE, adj, step(t, 0, 1), -1) == NULL);   /* the same target only */
    CHECK(listed(BA_FIRE, two, -1, -1) == NULL);   /* 2 hexes from Knox */
    CHECK_EQ(fire_at("Fld/HUN", t, 11), 0);
    CHECK(find_ev("battery_fire", NULL) != NULL);
    CHECK_EQ(count_ev("roll", "fire"), 1);   /* its own fire */
    CHECK(s->pc[adj].more2 & BM2_BATTERY);
    CHECK(fire_at("Fld/HUN", t, 11) < 0);   /* once */
    CHECK(!bar_piece_active(s, sc, adj));   /* it did not join the activation */
    /* later that turn, HUN's own activation: it has fired for the turn */
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    CHECK_EQ(s->bat_leader, -1);
    put("HUN/GRE", side_hex, BAR_FM_LINE, t);
    activate(BAR_AMERICAN, "HUN");
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    CHECK(listed(BA_FIRE, adj, -1, -1) == NULL);
    /* a gun whose Command has activated this turn does not join */
    empty(3);
    put("WOO/GRE", centre, BAR_FM_LINE, t);
    put("KNO/GW", centre, BAR_FM_LINE, t);
    put("Fld/WOO", centre, BAR_FM_ARTILLERY, t);
    put("Fld/HUN", side_hex, BAR_FM_ARTILLERY, t);
    put("63/5th", t, BAR_FM_LINE, centre);
    s->acted[BAR_AMERICAN] |= 1ull << x->p[adj].org;
    activate(BAR_AMERICAN, "WOO");
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    CHECK_EQ(fire_at("Fld/WOO", t, 11), 0);
    CHECK(listed(BA_FIRE, adj, -1, -1) == NULL);
    /* without Knox in the hex: no battery */
    empty(3);
    put("WOO/GRE", centre, BAR_FM_LINE, t);
    put("KNO/GW", side_hex, BAR_FM_LINE, t);
    put("Fld/WOO", centre, BAR_FM_ARTILLERY, t);
    put("Fld/HUN", side_hex, BAR_FM_ARTILLERY, t);
    put("63/5th", t, BAR_FM_LINE, centre);
    activate(BAR_AMERICAN, "WOO");
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    CHECK_EQ(fire_at("Fld/WOO", t, 11), 0);
    CHECK_EQ(s->bat_leader, -1);
    CHECK(listed(BA_FIRE, adj, -1, -1) == NULL);
    (void)own;
}

/* 3.2b C-D, 4.2b D: Knox (Pattison) attaches an artillery unit of his side
 * within 5 hexes to the activated Command (Standard 6.4: ours, for this
 * activation); it then has acted for the turn. du Plessis-Mauduit the
 * same, for units of Greene's Wing. */
static void test_3_2b_C_knox_attach(void)
{
    mk_hex t = step(centre, 0, 4);
    int hun = pid("Fld/HUN"), gd = pid("Fld/GD"), knox = pid("KNO/GW");
    empty(3);
    put("WOO/GRE", centre, BAR_FM_LINE, t);
    put("KNO/GW", centre, BAR_FM_LINE, t);
    put("11&15Va/WOO", centre, BAR_FM_LINE, t);
    put("Fld/HUN", step(centre, 3, 5), BAR_FM_ARTILLERY_ROAD_COLUMN, t);   /* 5 hexes */
    put("Fld/GD", step(centre, 3, 6) == MK_NO_HEX ? step(centre, 2, 6) : step(centre, 3, 6),
        BAR_FM_ARTILLERY_ROAD_COLUMN, t);
    CHECK(mk_hex_distance(g, s->pc[gd].hex, s->pc[knox].hex) == 6);
    activate(BAR_AMERICAN, "WOO");
    CHECK(!bar_piece_active(s, sc, hun));
    CHECK(listed(BA_ATTACH, gd, -1, -1) == NULL);   /* 6 hexes */
    CHECK(listed(BA_ATTACH, hun, -1, -1) != NULL);
    char js[128];
    snprintf(js, sizeof js, "{\"type\":\"attach\",\"unit\":\"Fld/HUN\",\"leader\":\"KNO/GW\"}");
    CHECK_EQ(act(js), 0);
    CHECK(find_ev("attach", NULL) != NULL);
    CHECK(bar_piece_active(s, sc, hun));
    CHECK_EQ(s->pc[hun].mp, x->p[hun].mp_half);
    CHECK(listed(BA_MOVE, hun, -1, -1) != NULL);
    CHECK(listed(BA_ATTACH, hun, -1, -1) == NULL);   /* once */
    /* the activation ends; Huntington's own activation: it has acted */
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    CHECK(!bar_piece_active(s, sc, hun));
    put("HUN/GRE", s->pc[hun].hex, BAR_FM_LINE, t);
    activate(BAR_AMERICAN, "HUN");
    CHECK(!bar_piece_active(s, sc, hun));
    CHECK_EQ(s->pc[hun].mp, 0);
    /* du Plessis-Mauduit: Greene's Wing only; Pattison: the British */
    empty(3);
    put("WOO/GRE", centre, BAR_FM_LINE, t);
    put("duPM/GRE", centre, BAR_FM_LINE, t);
    put("11&15Va/WOO", centre, BAR_FM_LINE, t);
    put("Fld/HUN", step(centre, 3, 2), BAR_FM_ARTILLERY_ROAD_COLUMN, t);
    put("Fld/GD", step(centre, 3, 3), BAR_FM_ARTILLERY_ROAD_COLUMN, t);
    activate(BAR_AMERICAN, "WOO");
    CHECK(listed(BA_ATTACH, hun, -1, -1) != NULL);
    CHECK(listed(BA_ATTACH, gd, -1, -1) == NULL);   /* Lee's Wing */
    empty(3);
    put("5th/COR", centre, BAR_FM_LINE, t);
    put("PAT/HC", centre, BAR_FM_LINE, t);
    put("63/5th", centre, BAR_FM_LINE, t);
    put("Fld/4th", step(centre, 3, 2), BAR_FM_ARTILLERY_ROAD_COLUMN, t);
    activate(BAR_BRITISH, "5th");
    const mk_action *m = listed(BA_ATTACH, pid("Fld/4th"), -1, -1);
    CHECK(m && m->other == pid("PAT/HC"));
}

/* 3.2b D: du Plessis-Mauduit as Knox, for units of Greene's Wing only. */
static void test_3_2b_D_du_plessis(void)
{
    mk_hex t = step(centre, 0, 4);
    mk_hex a1 = step(centre, 1, 1), a2 = step(centre, 5, 1);
    int hun = pid("Fld/HUN"), gd = pid("Fld/GD");
    empty(3);
    put("WOO/GRE", centre, BAR_FM_LINE, t);
    put("duPM/GRE", centre, BAR_FM_LINE, t);
    put("Fld/WOO", centre, BAR_FM_ARTILLERY, t);
    put("Fld/HUN", a1, BAR_FM_ARTILLERY, t);   /* Greene's Wing */
    put("Fld/GD", a2, BAR_FM_ARTILLERY, t);    /* Lee's: not */
    put("63/5th", t, BAR_FM_LINE, centre);
    activate(BAR_AMERICAN, "WOO");
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    int col;
    CHECK(bar_fire_strength_of(s, sc, gd, t, &col) >= 0 && col >= 0);
    CHECK_EQ(fire_at("Fld/WOO", t, 11), 0);
    CHECK_EQ(s->bat_leader, pid("duPM/GRE"));
    CHECK(listed(BA_FIRE, hun, t, 0) != NULL);
    CHECK(listed(BA_FIRE, gd, -1, -1) == NULL);
    /* stacked with an activated gun outside Greene's Wing: no battery */
    empty(3);
    put("GD/LEE", centre, BAR_FM_LINE, t);
    put("duPM/GRE", centre, BAR_FM_LINE, t);
    put("Fld/GD", centre, BAR_FM_ARTILLERY, t);
    put("Fld/HUN", a1, BAR_FM_ARTILLERY, t);
    put("63/5th", t, BAR_FM_LINE, centre);
    activate(BAR_AMERICAN, "GD");
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    CHECK_EQ(fire_at("Fld/GD", t, 11), 0);
    CHECK_EQ(s->bat_leader, -1);
    CHECK(listed(BA_FIRE, hun, -1, -1) == NULL);
}

/* 4.2b D: Pattison, the same for the British artillery. */
static void test_4_2b_D_pattison(void)
{
    mk_hex t = step(centre, 0, 4);
    mk_hex a1 = step(centre, 1, 1);
    int f4 = pid("Fld/4th");
    empty(3);
    put("5th/COR", centre, BAR_FM_LINE, t);
    put("PAT/HC", centre, BAR_FM_LINE, t);
    put("Fld/5th", centre, BAR_FM_ARTILLERY, t);
    put("Fld/4th", a1, BAR_FM_ARTILLERY, t);
    put("11&15Va/WOO", t, BAR_FM_LINE, centre);
    activate(BAR_BRITISH, "5th");
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    CHECK(listed(BA_FIRE, f4, -1, -1) == NULL);
    CHECK_EQ(fire_at("Fld/5th", t, 11), 0);
    CHECK_EQ(s->bat_leader, pid("PAT/HC"));
    CHECK_EQ(fire_at("Fld/4th", t, 11), 0);
    const mk_event *e = find_ev("battery_fire", NULL);
    CHECK(e && e->rule && strstr(e->rule, "4.2b D"));
}

/* The option "bar.opportunity-fire" (Series 12.8, our reconstruction;
 * 2.2d D's "twice per hex limitation stated in Standard Rule 12.8e", 2.5b
 * C's "precipitates Opportunity Fire as normal"): an enemy entering a
 * unit's front hex, or changing formation there, may be fired at, at most
 * twice into a hex an activation; without the option, no such fire. */
static void test_12_8_opportunity_fire(void)
{
    mk_hex t1 = step(centre, 0, 1), from = step(centre, 0, 2);
    int mover = pid("63/5th");
    const char *ids[3] = {"11&15Va/WOO", "3&7Va/WOO", "Fld/WOO"};
    mk_hex at[3];
    int na = 0;
    for (int d = 0; d < 6 && na < 3; d++) {
        mk_hex h = mk_hex_neighbor(g, t1, d);
        if (h != from && mk_hex_distance(g, h, from) > 1)
            at[na++] = h;
    }
    CHECK_EQ(na, 3);
    for (int opt = 1; opt >= 0; opt--) {
        empty(3);
        s->opts = (uint8_t)(opt ? BO_OPFIRE : 0);
        for (int k = 0; k < 3; k++)
            put(ids[k], at[k], k == 2 ? BAR_FM_ARTILLERY : BAR_FM_LINE, t1);
        put("5th/COR", from, BAR_FM_LINE, t1);
        put("63/5th", from, BAR_FM_LINE, t1);
        activate(BAR_BRITISH, "5th");
        char js[160];
        snprintf(js, sizeof js, "{\"type\":\"move\",\"unit\":\"63/5th\",\"path\":[\"%s\"]}", lab(t1));
        CHECK_EQ(act(js), 0);
        CHECK_EQ(s->pc[mover].hex, t1);
        if (!opt) {
            CHECK_EQ(s->of_unit, -1);
            break;
        }
        CHECK_EQ(s->of_unit, mover);
        CHECK_EQ(sc->rs->to_move(s), BAR_AMERICAN);
        CHECK_EQ(bar_legal_opfire(s, sc, list, MK_MAX_ACTIONS), 4);   /* three units, or let it pass */
        for (int k = 0; k < 2; k++) {
            force(1, 11);   /* a miss: no adverse result */
            snprintf(js, sizeof js, "{\"type\":\"opportunity_fire\",\"unit\":\"%s\"}", ids[k]);
            CHECK_EQ(act(js), 0);
            const mk_event *e = find_ev("opportunity_fire", NULL);
            CHECK(e && e->rule && strstr(e->rule, "12.8"));
            CHECK_EQ(s->pc[mover].sp, x->p[mover].sp);
        }
        CHECK_EQ(s->of_unit, -1);   /* twice into the hex: the third may not */
        CHECK_EQ(s->nopx, 2);
        CHECK_EQ(sc->rs->to_move(s), BAR_BRITISH);
    }
    /* a Formation change in an EZOC, the hex not yet fired into */
    empty(3);
    s->opts = BO_OPFIRE;
    put(ids[0], at[0], BAR_FM_LINE, t1);
    put("5th/COR", t1, BAR_FM_LINE, at[0]);
    put("63/5th", t1, BAR_FM_LINE, at[0]);
    activate(BAR_BRITISH, "5th");
    CHECK_EQ(s->of_unit, -1);
    CHECK_EQ(act("{\"type\":\"form\",\"unit\":\"63/5th\",\"formation\":\"attack_column\"}"), 0);
    CHECK_EQ(s->of_unit, mover);
    CHECK_EQ(act("{\"type\":\"opportunity_fire\",\"unit\":null}"), 0);
    CHECK_EQ(s->of_unit, -1);
    /* the option is the ruleset's */
    CHECK_EQ(sc->rs->noptions, 3);
    CHECK_STR(sc->rs->options[0].id, "bar.opportunity-fire");
    CHECK_STR(sc->rs->options[1].id, "bar.7.1a.C");
    CHECK_STR(sc->rs->options[2].id, "bar.deploy");
    mk_error err = {0};
    bar_state *t = calloc(1, sizeof *t);
    CHECK(sc->rs->init(t, sc, 8, 1, NULL, &err) < 0);   /* no such option */
    free(t);
}

/* Random games of scenario 1 with the option: every listed action applies
 * and Opportunity Fire comes up. */
static void test_12_8_random_play(void)
{
    mk_rng pick;
    mk_rng_seed(&pick, 5);
    int offered = 0, refused = 0;
    g = &sc->map.grid;
    for (int game = 0; game < 2; game++) {
        mk_events_init(&ev, evs, 512);
        memset(s, 0, sizeof *s);
        CHECK_EQ(sc->rs->init(s, sc, BO_OPFIRE, (uint64_t)(11 + game), &ev, NULL), 0);
        for (int n = 0; n < 20000 && !sc->rs->over(s); n++) {
            nlist = sc->rs->legal(s, sc, list, MK_MAX_ACTIONS);
            if (nlist <= 0)
                break;
            int k = (int)mk_rng_below(&pick, (uint32_t)nlist);
            for (int j = 0; j < nlist; j++) {   /* seek contact: toward the enemy, fire when it can */
                const mk_action *c = &list[j];
                bool fwd = c->type == BA_MOVE &&
                           mk_hex_distance(g, c->path[0], x->home[bar_other(x->p[c->unit].side)]) <
                               mk_hex_distance(g, s->pc[c->unit].hex, x->home[bar_other(x->p[c->unit].side)]);
                if ((fwd || c->type == BA_FIRE || c->type == BA_OPFIRE || c->type == BA_CC) && mk_rng_below(&pick, 3))
                    k = j;
            }
            offered += list[k].type == BA_OPFIRE;
            mk_events_init(&ev, evs, 512);
            mk_error err = {0};
            mk_action a = list[k];
            refused += sc->rs->apply(s, sc, &a, &ev, &err) != 0;
        }
    }
    CHECK_EQ(refused, 0);
    CHECK(offered > 0);
}

int main(void)
{
    if (!bar_fixture_load())
        return check_done("test_bar_artillery");
    if (!use_scenario("4-general-engagement"))
        return check_done("test_bar_artillery");
    g = &sc->map.grid;
    CHECK(sizeof(bar_state) <= 4096);
    centre = find_centre();
    CHECK(centre != MK_NO_HEX);
    if (centre != MK_NO_HEX) {
        test_2_2d_E_iv_combined_fire();
        test_2_2d_E_iv_sixth_sp();
        test_2_2d_E_iv_two_hex_line_and_hook();
        test_2_2d_E_ii_owner_hex();
        test_2_2d_E_iii_stacking();
        test_2_2d_E_vi_losses();
        test_2_2d_E_viii_conform();
        test_2_2d_F_prolonge();
        test_2_5b_B_rout_losses();
        test_2_5b_C_unlimbered_voluntary_rout();
        test_2_2d_G_no_prolonge();
        test_3_2b_C_knox();
        test_3_2b_C_knox_attach();
        test_3_2b_D_du_plessis();
        test_4_2b_D_pattison();
        test_12_8_opportunity_fire();
    }
    back_to_scenario_1();
    test_12_8_random_play();
    mk_scenario_free(sc);
    return check_done("test_bar_artillery");
}
