/* test_bar_formations.c - Monmouth 2.1's SP modifications of the
 * formations: 2.1a the two-hex Line, 2.1b Square (6 SPs; below 6 a single-hex Line), 2.1c the
 * two-hex Road Column, 2.1d Skirmish of a single unit over 6 SPs. */
#include "bar_fixture.h"


static inline bool legal_has(int type, int i, int target)
{
    int n = sc->rs->legal(s, sc, acts, 4096);
    for (int k = 0; k < n; k++)
        if (acts[k].type == type && acts[k].unit == i && acts[k].target == target)
            return true;
    return false;
}

/* Grayson's Command activated (In Command, the roll forced) with its
 * leader at E2019. */
static void activate_gd(void)
{
    s->side = BAR_AMERICAN;
    place("GD/LEE", "E2019", BAR_FM_LINE, 90);
    force(1, 35);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"GD\"}"), 0);
    CHECK_EQ(s->phase, BP_MOVE);
}

/* 2.1b: "There must be at least 6 (not 3) SPs in a hex for there to be a
 * Square": Va Bn/GD (6 SPs) forms one, Patt/GD (3) alone does not, but
 * joins a Square already there (ours: units change formation one at a
 * time). */
static void test_square_minimum_2_1b(void)
{
    empty(3);
    place("Va Bn/GD", "E2019", BAR_FM_LINE, 90);
    place("Patt/GD", "E2019", BAR_FM_LINE, 90);
    activate_gd();
    int va = pid("Va Bn/GD"), pa = pid("Patt/GD");
    CHECK_EQ(s->pc[va].sp, 6);
    CHECK_EQ(s->pc[pa].sp, 3);
    CHECK(legal_has(BA_FORM, va, BAR_FM_SQUARE));
    CHECK(!legal_has(BA_FORM, pa, BAR_FM_SQUARE));
    CHECK(act("{\"type\":\"form\",\"unit\":\"Patt/GD\",\"formation\":\"square\"}") < 0);   /* apply = legal */
    CHECK_EQ(s->pc[pa].form, BAR_FM_LINE);
    CHECK_EQ(act("{\"type\":\"form\",\"unit\":\"Va Bn/GD\",\"formation\":\"square\"}"), 0);
    CHECK_EQ(s->pc[va].form, BAR_FM_SQUARE);
    CHECK(legal_has(BA_FORM, pa, BAR_FM_SQUARE));
    CHECK_EQ(act("{\"type\":\"form\",\"unit\":\"Patt/GD\",\"formation\":\"square\"}"), 0);
    CHECK_EQ(s->pc[pa].form, BAR_FM_SQUARE);
    CHECK_EQ(bar_square_sp(s, sc, hx("E2019"), BAR_AMERICAN), 9);
    /* Va Bn/GD leaves the Square: Patt/GD's 3 SPs are no Square and it is
     * a single-hex Line at once, keeping its facing */
    s->pc[pa].facing = 4;
    CHECK_EQ(act("{\"type\":\"form\",\"unit\":\"Va Bn/GD\",\"formation\":\"line\"}"), 0);
    CHECK_EQ(s->pc[va].form, BAR_FM_LINE);
    CHECK_EQ(s->pc[pa].form, BAR_FM_LINE);
    CHECK_EQ(s->pc[pa].facing, 4);
    const mk_event *e = NULL;
    for (int k = 0; k < ev.n; k++)
        if (!strcmp(ev.ev[k].type, "formation") && ev.ev[k].unit == pa)
            e = &ev.ev[k];
    CHECK(e && e->rule && strstr(e->rule, "2.1b"));
    /* a 5-SP unit (after losses) cannot form one */
    s->pc[va].sp = 5;
    CHECK(!legal_has(BA_FORM, va, BAR_FM_SQUARE));
}

/* 2.1b: "If a Square formation falls below 6 SPs (not 3) it immediately
 * changes to a single-hex Line": a loss, at once (before the morale check
 * that follows it reads the formation). */
static void test_square_below_six_2_1b(void)
{
    empty(3);
    place("Va Bn/GD", "E2019", BAR_FM_SQUARE, 90);
    int va = pid("Va Bn/GD");
    mk_events_init(&ev, evs, 512);
    bar_lose_sp(s, sc, va, 0, &ev);
    CHECK_EQ(s->pc[va].form, BAR_FM_SQUARE);   /* 6 SPs: still a Square */
    bar_lose_sp(s, sc, va, 1, &ev);
    CHECK_EQ(s->pc[va].sp, 5);
    CHECK_EQ(s->pc[va].form, BAR_FM_LINE);
    CHECK(find_ev("formation", NULL) != NULL);
    /* two units in Square: 7 SPs, a loss of 1 keeps 6 (a Square), the
     * next one makes both Line; the enemy's Square in another hex is not
     * touched */
    empty(3);
    place("Va Bn/GD", "E2019", BAR_FM_SQUARE, 90);
    place("Patt/GD", "E2019", BAR_FM_SQUARE, 90);
    place("1 Gr", "E3020", BAR_FM_SQUARE, 270);
    int pa = pid("Patt/GD"), gr = pid("1 Gr");
    s->pc[va].sp = 4;
    mk_events_init(&ev, evs, 512);
    bar_lose_sp(s, sc, pa, 1, &ev);
    CHECK_EQ(s->pc[va].form, BAR_FM_SQUARE);
    CHECK_EQ(s->pc[pa].form, BAR_FM_SQUARE);
    bar_lose_sp(s, sc, pa, 1, &ev);
    CHECK_EQ(s->pc[va].form, BAR_FM_LINE);
    CHECK_EQ(s->pc[pa].form, BAR_FM_LINE);
    CHECK_EQ(s->pc[gr].form, BAR_FM_SQUARE);
    /* a Square fires 8 SPs per target hex (2.1e, 2.1b) */
    CHECK_EQ(x->ch.max_firing[BAR_FM_SQUARE], 8);
}

/* 2.1d: "a single unit that has more than 6 SPs may be in Skirmish
 * formation if it is not stacked with any other unit. Such a unit can
 * only fire a maximum of 6 SPs." Gray/GD with 8 SPs (set here) in
 * Skirmish alone is a legal stack; no other unit may join it; it fires as
 * a 6-SP skirmisher. */
static void test_skirmish_single_unit_2_1d(void)
{
    CHECK_EQ(x->ch.stacking[BAR_FM_SKIRMISH], 6);
    CHECK_EQ(x->ch.max_firing[BAR_FM_SKIRMISH], 6);
    empty(3);
    mk_hex at = nb_at(hx("E2019"), 4);   /* south-east of the leader, in Va Bn/GD's front */
    place("Gray/GD", "E2019", BAR_FM_SKIRMISH, 90);
    place("Va Bn/GD", "E2019", BAR_FM_LINE, 90);
    s->pc[pid("Va Bn/GD")].hex = nb_at(at, 10);
    s->pc[pid("Gray/GD")].hex = at;
    int gray = pid("Gray/GD"), va = pid("Va Bn/GD");
    s->pc[va].facing = 3;   /* east: SE at 120 degrees is in its front */
    activate_gd();
    s->pc[gray].sp = 6;
    int n6 = 0;
    for (int k = 0, n = sc->rs->legal(s, sc, acts, 4096); k < n; k++)
        n6 += acts[k].type == BA_MOVE && acts[k].unit == va && acts[k].path[0] == at;
    CHECK_EQ(n6, 0);   /* 6 + 6 over Skirmish's 6 */
    s->pc[gray].sp = 8;
    CHECK(bar_stack_limit(s, sc, at, 0, -1) > 0);   /* over the chart's 6: alone, it may */
    for (int k = 0, n = sc->rs->legal(s, sc, acts, 4096); k < n; k++)
        CHECK(!(acts[k].type == BA_MOVE && acts[k].unit == va && acts[k].path[0] == at));
    /* a 3-SP unit may not join it either */
    s->pc[va].sp = 1;
    for (int k = 0, n = sc->rs->legal(s, sc, acts, 4096); k < n; k++)
        CHECK(!(acts[k].type == BA_MOVE && acts[k].unit == va && acts[k].path[0] == at));
    /* fire: at most 6 of its 8 SPs */
    place("A/1 Lt", "E2019", BAR_FM_LINE, 270);
    mk_hex target = nb_at(at, 2);
    s->pc[pid("A/1 Lt")].hex = target;
    s->pc[gray].facing = 2;
    int col8, col6, col3;
    int f8 = bar_fire_strength_of(s, sc, gray, target, &col8);
    s->pc[gray].sp = 6;
    int f6 = bar_fire_strength_of(s, sc, gray, target, &col6);
    s->pc[gray].sp = 3;
    int f3 = bar_fire_strength_of(s, sc, gray, target, &col3);
    CHECK(f6 > 0);
    CHECK_EQ(f8, f6);
    CHECK(f3 < f6);
}


static char lbl[8][MK_HEX_LABEL_MAX];
static const char *L(int k, mk_hex h)
{
    return mk_hex_label(&sc->map.grid, h, lbl[k]);
}

/* 1 Gd/Gds (10 SPs) and its Command Leader at hex `at`, the Command
 * activated (the roll forced), the unit with MPs to spare. */
static int activate_gr(const char *at, int form, int facing_deg)
{
    int gr = pid("1 Gd/Gds");
    int org = x->p[gr].org, l = x->org_leader[org];
    CHECK(l >= 0);
    place(sc->units[l].id, at, BAR_FM_LINE, facing_deg);
    place("1 Gd/Gds", at, form, facing_deg);
    s->side = BAR_BRITISH;
    force(1, 10);
    char js[120];
    snprintf(js, sizeof js, "{\"type\":\"activate\",\"command\":\"%s\"}", x->oob.org[org].id);
    CHECK_EQ(act(js), 0);
    CHECK_EQ(s->phase, BP_MOVE);
    s->pc[gr].mp = 20;
    s->pc[gr].flags |= BF_FULL;
    return gr;
}

/* The neighbour of h across a road of `kind` not among avoid[0..n-1], or
 * MK_NO_HEX. */
static mk_hex road_next(mk_hex h, int kind, const mk_hex *avoid, int n)
{
    mk_hex nb[6];
    mk_hex_neighbors(&sc->map.grid, h, nb);
    for (int d = 0; d < 6; d++) {
        bool again = false;
        for (int j = 0; j < n; j++)
            again |= nb[d] == avoid[j];
        if (nb[d] != MK_NO_HEX && !again && bar_road(&x->map, h, nb[d]) == kind)
            return nb[d];
    }
    return MK_NO_HEX;
}

/* 5.2g: "If, in expending 1/2 MP, a unit traverses both a major and minor
 * road ... only a maximum of 2 road hexes for that 1/2 MP": a leader on
 * two major-road hexes and then a minor one pays a second 1/2 MP for the
 * minor one (movement charged 0 for it before bar_road_step), and a
 * third major hex after that is free. The path is looked for on the map. */
static void test_road_movement_mixed_5_2g(void)
{
    empty(3);
    CHECK(bar_light_of(s->turn) == BAR_DAY);
    /* a path on the map: major, major, minor, then a major if there is one */
    const int want[4] = {BAR_ROAD_MAJOR, BAR_ROAD_MAJOR, BAR_ROAD_MINOR, BAR_ROAD_MAJOR};
    mk_hex p[5];
    int len = 0, size = mk_grid_size(&sc->map.grid);
    for (int a = 0; a < size && len < 3; a++) {
        p[0] = (mk_hex)a;
        for (len = 0; len < 4 && (p[len + 1] = road_next(p[len], want[len], p, len)) != MK_NO_HEX;
             len++)
            ;
    }
    CHECK(len >= 3); /* the map has a major road that meets a minor one */
    if (len < 3)
        return;
    int l = x->org_leader[x->p[pid("1 Gd/Gds")].org];
    place(sc->units[l].id, L(0, p[0]), BAR_FM_LINE, 0);
    int cost[4] = {-1, -1, -1, -1};
    s->pc[l].road = 0;
    for (int k = 0; k < len; k++) {
        int run;
        cost[k] = bar_move_cost(s, sc, l, p[k + 1], &run);
        s->pc[l].hex = p[k + 1];
        s->pc[l].road = (int8_t)run;
    }
    CHECK_EQ(cost[0], 1);
    CHECK_EQ(cost[1], 0);
    CHECK_EQ(cost[2], 1); /* the old code: 0 (three hexes, one minor, in one 1/2 MP) */
    if (len == 4)
        CHECK_EQ(cost[3], 0); /* minor, major: two hexes */
}

static int count_form(int i, int form, mk_hex *tails)
{
    int n = sc->rs->legal(s, sc, acts, 4096), c = 0;
    for (int k = 0; k < n; k++)
        if (acts[k].type == BA_FORM && acts[k].unit == i && acts[k].target == form) {
            if (acts[k].npath == 1 && tails)
                tails[c] = acts[k].path[0];
            c++;
        }
    return c;
}

/* 2.1c: "A maximum of 8 (not 4) SPs per hex may be in Road Column
 * formation. In a multi-hex Road Column, each hex must have 8 (not 4) SPs
 * with any remaining SPs (1 through 7) in the column's last (trailing)
 * hex." 1 Gd/Gds forms Road Column into two hexes: 8 at its head, 2
 * in the hex behind it (ours: the neighbour opposite its facing); 1 Gd/Gds (10 SPs): 8 and 2. */
static void test_road_column_forming_2_1c(void)
{
    CHECK_EQ(x->ch.stacking[BAR_FM_ROAD_COLUMN], 8);
    CHECK_EQ(x->ch.stacking[BAR_FM_ARTILLERY_ROAD_COLUMN], 2);
    empty(3);
    mk_hex a = hx("E2019");
    int gr = activate_gr("E2019", BAR_FM_LINE, 0);
    CHECK_EQ(s->pc[gr].sp, 10);
    mk_hex tails[4] = {MK_NO_HEX, MK_NO_HEX};
    CHECK_EQ(count_form(gr, BAR_FM_ROAD_COLUMN, tails), 1);   /* facing a hexside: the hex behind */
    CHECK_EQ(tails[0], nb_at(a, 6));
    char js[200];
    /* apply = legal: no tail, or a tail not behind it, is refused */
    CHECK(act("{\"type\":\"form\",\"unit\":\"1 Gd/Gds\",\"formation\":\"road_column\"}") < 0);
    snprintf(js, sizeof js, "{\"type\":\"form\",\"unit\":\"1 Gd/Gds\",\"formation\":\"road_column\",\"tail\":\"%s\"}",
             L(0, nb_at(a, 2)));
    CHECK(act(js) < 0);
    CHECK_EQ(s->pc[gr].form, BAR_FM_LINE);
    snprintf(js, sizeof js, "{\"type\":\"form\",\"unit\":\"1 Gd/Gds\",\"formation\":\"road_column\",\"tail\":\"%s\"}",
             L(0, nb_at(a, 6)));
    CHECK_EQ(act(js), 0);
    CHECK_EQ(s->pc[gr].form, BAR_FM_ROAD_COLUMN);
    CHECK_EQ(s->pc[gr].hex, a);
    CHECK_EQ(bar_tail_hex(s, sc, gr), nb_at(a, 6));
    CHECK_EQ(bar_sp_in(s, sc, gr, a), 8);
    CHECK_EQ(bar_sp_in(s, sc, gr, nb_at(a, 6)), 2);
    CHECK_EQ(bar_stack_sp(s, sc, nb_at(a, 6), BAR_BRITISH), 2);
    CHECK(bar_unit_at(s, sc, nb_at(a, 6), BAR_BRITISH, true));
    CHECK(bar_in_hex(s, sc, gr, nb_at(a, 6)));
    /* the state JSON shows the second hex */
    json_t *j = sc->rs->state_json(s, sc);
    json_t *u = json_array_get(json_object_get(j, "units"), (size_t)gr);
    CHECK_STR(json_string_value(json_object_get(u, "hex2")), L(1, nb_at(a, 6)));
    CHECK_EQ(json_integer_value(json_object_get(u, "sp_hex")), 8);
    CHECK_EQ(json_integer_value(json_object_get(u, "sp_hex2")), 2);
    json_decref(j);
    /* back to Line: one hex again */
    CHECK_EQ(act("{\"type\":\"form\",\"unit\":\"1 Gd/Gds\",\"formation\":\"line\"}"), 0);
    CHECK_EQ(bar_tail_hex(s, sc, gr), MK_NO_HEX);
    CHECK_EQ(s->pc[gr].tail, 0);
    CHECK_EQ(bar_sp_in(s, sc, gr, a), 10);
    /* facing a hexpoint (30 degrees): either of the two hexes behind */
    s->pc[gr].facing = 1;
    CHECK_EQ(count_form(gr, BAR_FM_ROAD_COLUMN, tails), 2);
    CHECK((tails[0] == nb_at(a, 6) && tails[1] == nb_at(a, 8)) || (tails[0] == nb_at(a, 8) && tails[1] == nb_at(a, 6)));
    /* no room behind (an enemy there): no Road Column */
    s->pc[gr].facing = 0;
    place("Va Bn/GD", "E2019", BAR_FM_LINE, 0);
    s->pc[pid("Va Bn/GD")].hex = nb_at(a, 6);
    CHECK_EQ(count_form(gr, BAR_FM_ROAD_COLUMN, NULL), 0);
    /* 8 SPs or fewer: one hex, no tail asked */
    s->pc[pid("Va Bn/GD")].hex = MK_NO_HEX;
    s->pc[gr].sp = 8;
    CHECK_EQ(count_form(gr, BAR_FM_ROAD_COLUMN, tails), 1);
    int n = sc->rs->legal(s, sc, acts, 4096), plain = 0;
    for (int k = 0; k < n; k++)
        plain += acts[k].type == BA_FORM && acts[k].unit == gr && acts[k].target == BAR_FM_ROAD_COLUMN && !acts[k].npath;
    CHECK_EQ(plain, 1);
    /* artillery: 2 SPs a hex (2.1c), so a 3-gun column is two hexes */
    int gun = pid("Lt/COR");
    CHECK(bar_wants_tail(x, gun, BAR_FM_ARTILLERY_ROAD_COLUMN, 3));
    CHECK(!bar_wants_tail(x, gun, BAR_FM_ARTILLERY_ROAD_COLUMN, 2));
    CHECK(!bar_wants_tail(x, gun, BAR_FM_ARTILLERY, 4));
}

/* 2.1c (ours): the head moves; the trailing hex follows into the head's
 * previous hex; the head does not march back into its tail; the head's 8
 * fill its hex (no other unit joins it). */
static void test_road_column_moving_2_1c(void)
{
    empty(3);
    mk_hex a = hx("E2019"), back = nb_at(a, 6), ahead = nb_at(a, 0);
    int gr = activate_gr("E2019", BAR_FM_ROAD_COLUMN, 0);
    s->pc[gr].tail = (int8_t)(mk_hex_direction(&sc->map.grid, a, back) + 1);
    CHECK_EQ(bar_tail_hex(s, sc, gr), back);
    int n = sc->rs->legal(s, sc, acts, 4096), into_tail = 0, to_ahead = 0;
    for (int k = 0; k < n; k++) {
        into_tail += acts[k].type == BA_MOVE && acts[k].unit == gr && acts[k].path[0] == back;
        to_ahead += acts[k].type == BA_MOVE && acts[k].unit == gr && acts[k].path[0] == ahead;
    }
    CHECK_EQ(into_tail, 0);
    CHECK_EQ(to_ahead, 1);
    char js[160];
    snprintf(js, sizeof js, "{\"type\":\"move\",\"unit\":\"1 Gd/Gds\",\"path\":[\"%s\"]}", L(0, back));
    CHECK(act(js) < 0);
    snprintf(js, sizeof js, "{\"type\":\"move\",\"unit\":\"1 Gd/Gds\",\"path\":[\"%s\"]}", L(0, ahead));
    CHECK_EQ(act(js), 0);
    CHECK_EQ(s->pc[gr].hex, ahead);
    CHECK_EQ(bar_tail_hex(s, sc, gr), a);
    CHECK_EQ(bar_sp_in(s, sc, gr, ahead), 8);
    CHECK_EQ(bar_sp_in(s, sc, gr, a), 2);
    CHECK_EQ(bar_sp_in(s, sc, gr, back), 0);
    CHECK(!bar_unit_at(s, sc, back, -1, false));
    /* a turn of the road: the head goes on to the north-east, the tail into the head's hex */
    mk_hex ne = nb_at(ahead, 2);
    snprintf(js, sizeof js, "{\"type\":\"move\",\"unit\":\"1 Gd/Gds\",\"path\":[\"%s\"]}", L(0, ne));
    if (legal_count(BA_MOVE, gr) > 0 && act(js) == 0) {
        CHECK_EQ(s->pc[gr].hex, ne);
        CHECK_EQ(bar_tail_hex(s, sc, gr), ahead);
    }
    /* the head's hex is full: 8 SPs of Road Column */
    CHECK_EQ(bar_stack_limit(s, sc, s->pc[gr].hex, 0, -1), 0);
    CHECK(bar_stack_limit(s, sc, s->pc[gr].hex, 1, BAR_FM_LINE) > 0);
}

/* 2.1c: fire and close combat reach the column at either hex; the
 * losses are the unit's; 8 SPs or fewer close up into the head's hex;
 * a rout (General Order, 2.5) is one hex. */
static void test_road_column_combat_2_1c(void)
{
    empty(3);
    mk_hex a = hx("E2019"), back = nb_at(a, 6);
    int gr = activate_gr("E2019", BAR_FM_ROAD_COLUMN, 0);
    s->pc[gr].tail = (int8_t)(mk_hex_direction(&sc->map.grid, a, back) + 1);
    /* an American unit facing the tail hex from behind it */
    mk_hex am = nb_at(back, 6);
    place("Va Bn/GD", "E2019", BAR_FM_LINE, 0);
    int va = pid("Va Bn/GD");
    s->pc[va].hex = am;
    place("GD/LEE", "E2019", BAR_FM_LINE, 0);
    s->pc[pid("GD/LEE")].hex = am;
    /* close combat against the tail hex is listed (the Americans' close
     * combat segment), and its fire at the tail hex */
    s->side = BAR_AMERICAN;
    s->org = x->p[va].org;
    s->phase = BP_CC;
    CHECK(legal_has(BA_CC, va, back));
    s->phase = BP_FIRE;
    CHECK(legal_has(BA_FIRE, va, back));
    int col;
    CHECK(bar_fire_strength_of(s, sc, va, back, &col) > 0);
    /* the column takes the loss (forced: the fire roll 99, then checks pass) */
    char js[160];
    force(4, 99, 99, 99, 99);
    snprintf(js, sizeof js, "{\"type\":\"fire\",\"unit\":\"Va Bn/GD\",\"target\":\"%s\"}", L(0, back));
    CHECK_EQ(act(js), 0);
    const mk_event *e = find_ev("loss", NULL);
    CHECK(e && e->unit == gr);
    CHECK(s->pc[gr].sp < 10);
    /* 8 SPs or fewer: one hex */
    s->pc[va].flags &= (uint8_t)~BF_FIRED;
    s->phase = BP_CC;
    mk_events_init(&ev, evs, 512);
    if (s->pc[gr].sp > 8)
        bar_lose_sp(s, sc, gr, s->pc[gr].sp - 8, &ev);
    CHECK(s->pc[gr].sp <= 8);
    CHECK_EQ(bar_tail_hex(s, sc, gr), MK_NO_HEX);
    CHECK_EQ(bar_sp_in(s, sc, gr, a), s->pc[gr].sp);
    CHECK(!legal_has(BA_CC, va, back));
    /* a rout: the column routs in General Order, one hex */
    s->pc[gr].sp = 10;
    s->pc[gr].tail = (int8_t)(mk_hex_direction(&sc->map.grid, a, back) + 1);
    s->pc[va].hex = MK_NO_HEX;
    s->pc[pid("GD/LEE")].hex = MK_NO_HEX;
    bar_rout_unit(s, sc, gr, &ev);
    CHECK(s->pc[gr].status & BS_ROUTED);
    CHECK_EQ(s->pc[gr].form, BAR_FM_GENERAL_ORDER);
    CHECK_EQ(s->pc[gr].tail, 0);
    CHECK(s->pc[gr].hex != MK_NO_HEX);
}

/* 2.1c (ours): a column of more than 8 SPs enters with its head; the rest
 * is still off the map until the head's first move, when the tail enters
 * the entry hex. */
static void test_road_column_entering_2_1c(void)
{
    empty(1);
    int gr = pid("1 Gd/Gds");
    int org = x->p[gr].org, l = x->org_leader[org];
    s->pc[gr].flags = 0;
    s->pc[gr].hex = MK_NO_HEX;
    s->pc[gr].sp = 10;
    s->pc[gr].form = BAR_FM_ROAD_COLUMN;
    s->pc[l].flags = 0;
    s->pc[l].hex = MK_NO_HEX;
    s->turn = (int16_t)x->p[gr].arrive;
    s->side = BAR_BRITISH;
    force(1, 10);
    char js[200];
    snprintf(js, sizeof js, "{\"type\":\"activate\",\"command\":\"%s\"}", x->oob.org[org].id);
    CHECK_EQ(act(js), 0);
    mk_hex entry = x->p[gr].entry;
    CHECK(legal_has(BA_ENTER, gr, -1) || legal_count(BA_ENTER, gr) > 0);
    snprintf(js, sizeof js, "{\"type\":\"enter\",\"unit\":\"1 Gd/Gds\",\"path\":[\"%s\"]}", L(0, entry));
    CHECK_EQ(act(js), 0);
    CHECK_EQ(s->pc[gr].hex, entry);
    CHECK_EQ(s->pc[gr].tail, BAR_TAIL_OFF);
    CHECK_EQ(bar_sp_in(s, sc, gr, entry), 8);
    json_t *j = sc->rs->state_json(s, sc);
    json_t *u = json_array_get(json_object_get(j, "units"), (size_t)gr);
    CHECK(json_is_true(json_object_get(u, "tail_off_map")));
    CHECK(json_object_get(u, "hex2") == NULL);
    json_decref(j);
    int n = sc->rs->legal(s, sc, acts, 4096);
    mk_hex to = MK_NO_HEX;
    for (int k = 0; k < n && to == MK_NO_HEX; k++)
        if (acts[k].type == BA_MOVE && acts[k].unit == gr)
            to = acts[k].path[0];
    CHECK(to != MK_NO_HEX);
    snprintf(js, sizeof js, "{\"type\":\"move\",\"unit\":\"1 Gd/Gds\",\"path\":[\"%s\"]}", L(0, to));
    CHECK_EQ(act(js), 0);
    CHECK_EQ(s->pc[gr].hex, to);
    CHECK_EQ(bar_tail_hex(s, sc, gr), entry);
    CHECK_EQ(bar_sp_in(s, sc, gr, entry), 2);
}


/* 2.1a: "The minimum SPs necessary for an infantry unit to form a 2 hex
 * Line is 7 SPs." Ours (docs/bar.md "Two-hex Line"): a one-hex Line
 * facing a hexpoint extends into a hex beside it (90 degrees off its
 * facing), half its SPs in each, the odd one in its first hex; it
 * contracts by choice; it only about-faces; it does not bend into Hook. */
static void test_line_two_hex_forming_2_1a(void)
{
    empty(3);
    mk_hex a = hx("E2019"), south = nb_at(a, 6), north = nb_at(a, 0);
    int gd = activate_gr("E2019", BAR_FM_LINE, 90);
    mk_hex tails[4] = {MK_NO_HEX, MK_NO_HEX};
    CHECK_EQ(count_form(gd, BAR_FM_LINE, tails), 2);
    CHECK((tails[0] == north && tails[1] == south) || (tails[0] == south && tails[1] == north));
    /* facing a hexside: no hex beside it along the Line */
    s->pc[gd].facing = 2;
    CHECK_EQ(count_form(gd, BAR_FM_LINE, NULL), 0);
    s->pc[gd].facing = 3;
    /* 6 SPs: too few */
    s->pc[gd].sp = 6;
    CHECK_EQ(count_form(gd, BAR_FM_LINE, NULL), 0);
    s->pc[gd].sp = 7;
    CHECK_EQ(count_form(gd, BAR_FM_LINE, NULL), 2);
    s->pc[gd].sp = 10;
    char js[200];
    snprintf(js, sizeof js, "{\"type\":\"form\",\"unit\":\"1 Gd/Gds\",\"formation\":\"line\",\"tail\":\"%s\"}",
             L(0, nb_at(a, 4)));
    CHECK(act(js) < 0);   /* not beside it */
    int mp = s->pc[gd].mp;
    snprintf(js, sizeof js, "{\"type\":\"form\",\"unit\":\"1 Gd/Gds\",\"formation\":\"line\",\"tail\":\"%s\"}",
             L(0, south));
    CHECK_EQ(act(js), 0);
    CHECK_EQ(s->pc[gd].form, BAR_FM_LINE);
    CHECK_EQ(bar_tail_hex(s, sc, gd), south);
    CHECK(s->pc[gd].mp < mp);
    CHECK_EQ(bar_sp_in(s, sc, gd, a), 5);
    CHECK_EQ(bar_sp_in(s, sc, gd, south), 5);
    CHECK_EQ(bar_stack_sp(s, sc, south, BAR_BRITISH), 5);
    s->pc[gd].sp = 9;
    CHECK_EQ(bar_sp_in(s, sc, gd, a), 5);
    CHECK_EQ(bar_sp_in(s, sc, gd, south), 4);
    s->pc[gd].sp = 10;
    json_t *j = sc->rs->state_json(s, sc);
    json_t *u = json_array_get(json_object_get(j, "units"), (size_t)gd);
    CHECK_STR(json_string_value(json_object_get(u, "hex2")), L(1, south));
    CHECK_EQ(json_integer_value(json_object_get(u, "sp_hex2")), 5);
    json_decref(j);
    /* no Hook, no second extension; in place, about face only (and the
     * wheels, test_line_two_hex_wheel_2_1a) */
    CHECK(!legal_has(BA_FORM, gd, BAR_FM_HOOK));
    int nf = sc->rs->legal(s, sc, acts, 4096), plain_faces = 0;
    for (int k = 0; k < nf; k++)
        plain_faces += acts[k].type == BA_FACE && acts[k].unit == gd && !acts[k].flags;
    CHECK_EQ(plain_faces, 1);
    CHECK(legal_has(BA_FACE, gd, 9));
    int mp0 = s->pc[gd].mp;
    CHECK_EQ(act("{\"type\":\"face\",\"unit\":\"1 Gd/Gds\",\"facing\":270}"), 0);
    CHECK_EQ(bar_tail_hex(s, sc, gd), south);   /* still beside it */
    {   /* the facing change is logged with its cost (1.2h B), as a move is */
        const mk_event *e = find_ev("face", NULL);
        CHECK(e != NULL);
        if (e) {
            CHECK_STR(e->rule, "Monmouth 1.2h B");
            CHECK_STR(e->text, "to_270_degrees");
            CHECK_EQ(e->unit, gd);
            CHECK_EQ(e->hex, a);
            CHECK_EQ(e->points, mp0 - s->pc[gd].mp);   /* about face: 3 x 60 degrees */
            CHECK_EQ(e->points, 3 * x->se.face_half);
            CHECK_EQ(e->mp, s->pc[gd].mp / 2);
        }
    }
    CHECK(act("{\"type\":\"face\",\"unit\":\"1 Gd/Gds\",\"facing\":240}") < 0);
    /* contracting: one hex again */
    CHECK_EQ(count_form(gd, BAR_FM_LINE, tails), 1);
    CHECK_EQ(act("{\"type\":\"form\",\"unit\":\"1 Gd/Gds\",\"formation\":\"line\"}"), 0);
    CHECK_EQ(bar_tail_hex(s, sc, gd), MK_NO_HEX);
    CHECK_EQ(bar_sp_in(s, sc, gd, a), 10);
    /* another formation from a two-hex Line closes it up too */
    s->pc[gd].tail = (int8_t)(mk_hex_direction(&sc->map.grid, a, south) + 1);
    s->pc[gd].mp = 20;
    CHECK_EQ(act("{\"type\":\"form\",\"unit\":\"1 Gd/Gds\",\"formation\":\"attack_column\"}"), 0);
    CHECK_EQ(s->pc[gd].tail, 0);
}

/* 2.1a (ours): a two-hex Line steps both hexes a hex ahead through its
 * front, paying the dearer hex; an enemy in either hex ahead bars it. */
static void test_line_two_hex_moving_2_1a(void)
{
    empty(3);
    mk_hex a = hx("E2019"), south = nb_at(a, 6);
    int gd = activate_gr("E2019", BAR_FM_LINE, 90);
    s->pc[gd].tail = (int8_t)(mk_hex_direction(&sc->map.grid, a, south) + 1);
    int n = sc->rs->legal(s, sc, acts, 4096), moves = 0;
    mk_hex ne = nb_at(a, 2), se = nb_at(a, 4);
    for (int k = 0; k < n; k++)
        if (acts[k].type == BA_MOVE && acts[k].unit == gd) {
            moves++;
            CHECK(acts[k].path[0] == ne || acts[k].path[0] == se);
        }
    CHECK(moves >= 1 && moves <= 2);
    char js[160];
    snprintf(js, sizeof js, "{\"type\":\"move\",\"unit\":\"1 Gd/Gds\",\"path\":[\"%s\"]}", L(0, nb_at(a, 8)));
    CHECK(act(js) < 0);   /* not through its front */
    /* an enemy where the second hex would go (south's NE is a's SE) */
    place("Va Bn/GD", "E2019", BAR_FM_LINE, 270);
    int va = pid("Va Bn/GD");
    s->pc[va].hex = nb_at(south, 4);
    n = sc->rs->legal(s, sc, acts, 4096);
    for (int k = 0; k < n; k++)
        CHECK(!(acts[k].type == BA_MOVE && acts[k].unit == gd && acts[k].path[0] == se));
    s->pc[va].hex = MK_NO_HEX;
    int mp = s->pc[gd].mp;
    snprintf(js, sizeof js, "{\"type\":\"move\",\"unit\":\"1 Gd/Gds\",\"path\":[\"%s\"]}", L(0, ne));
    if (act(js) == 0) {
        CHECK_EQ(s->pc[gd].hex, ne);
        CHECK_EQ(bar_tail_hex(s, sc, gd), nb_at(south, 2));
        CHECK_EQ(s->pc[gd].facing, 3);
        CHECK(s->pc[gd].mp < mp);
        CHECK(!bar_unit_at(s, sc, a, -1, false));
        CHECK(!bar_unit_at(s, sc, south, -1, false));
    } else {
        CHECK(act(js) == 0);   /* (the map's north-east of E2019 must be open) */
    }
}

/* 2.1a: a two-hex Line fires once, each hex with up to 6 of its SPs
 * (ours: the hexes that bear add their strengths); close combat from
 * either hex; its ZOC is both hexes' fronts; the top 6 SPs of each hex
 * for the CV; below 7 SPs, a rout: one hex. */
static void test_line_two_hex_combat_2_1a(void)
{
    empty(3);
    mk_hex a = hx("E2019"), south = nb_at(a, 6);
    int gd = activate_gr("E2019", BAR_FM_LINE, 90);
    s->pc[gd].tail = (int8_t)(mk_hex_direction(&sc->map.grid, a, south) + 1);
    place("Va Bn/GD", "E2019", BAR_FM_LINE, 270);
    int va = pid("Va Bn/GD");
    /* a target next to both hexes: a's SE, south's NE */
    mk_hex both = nb_at(a, 4);
    CHECK_EQ(nb_at(south, 2), both);
    s->pc[va].hex = both;
    int col, c1, c2;
    int two = bar_fire_strength_of(s, sc, gd, both, &col);
    s->pc[gd].tail = 0;
    s->pc[gd].sp = 5;
    int one_a = bar_fire_strength_of(s, sc, gd, both, &c1);
    s->pc[gd].hex = south;
    int one_s = bar_fire_strength_of(s, sc, gd, both, &c2);
    CHECK(one_a > 0 && one_s > 0);
    CHECK_EQ(two, one_a + one_s);
    /* 14 SPs: 7 a hex, each fires 6 */
    s->pc[gd].hex = a;
    s->pc[gd].sp = 14;
    s->pc[gd].tail = (int8_t)(mk_hex_direction(&sc->map.grid, a, south) + 1);
    int two14 = bar_fire_strength_of(s, sc, gd, both, &col);
    s->pc[gd].tail = 0;
    s->pc[gd].sp = 6;
    int six_a = bar_fire_strength_of(s, sc, gd, both, &c1);
    s->pc[gd].hex = south;
    int six_s = bar_fire_strength_of(s, sc, gd, both, &c2);
    CHECK_EQ(two14, six_a + six_s);
    s->pc[gd].hex = a;
    s->pc[gd].sp = 10;
    s->pc[gd].tail = (int8_t)(mk_hex_direction(&sc->map.grid, a, south) + 1);
    /* a target next to the second hex only, two hexes from the first (range 1) */
    mk_hex only2 = nb_at(south, 4);
    CHECK_EQ(mk_hex_distance(&sc->map.grid, a, only2), 2);
    s->pc[va].hex = only2;
    s->phase = BP_FIRE;
    CHECK(legal_has(BA_FIRE, gd, only2));
    int from2 = bar_fire_strength_of(s, sc, gd, only2, &col);
    CHECK(from2 > 0);
    {   /* the second hex's 5 SPs alone */
        bar_pc keep = s->pc[gd];
        s->pc[gd].tail = 0;
        s->pc[gd].sp = 5;
        s->pc[gd].hex = south;
        CHECK_EQ(bar_fire_strength_of(s, sc, gd, only2, &col), from2);
        s->pc[gd] = keep;
    }
    /* close combat from the second hex; its front is a ZOC */
    s->phase = BP_CC;
    CHECK(legal_has(BA_CC, gd, only2));
    CHECK(bar_in_ezoc(s, sc, BAR_AMERICAN, only2));
    CHECK(bar_in_ezoc(s, sc, BAR_AMERICAN, nb_at(south, 2)));
    /* 2.1a CV: the unit's own CV in either hex */
    CHECK_EQ(bar_line_cv(s, sc, south, BAR_BRITISH), x->p[gd].cv);
    CHECK_EQ(bar_line_cv(s, sc, a, BAR_BRITISH), x->p[gd].cv);
    /* below 7 SPs: one hex */
    mk_events_init(&ev, evs, 512);
    bar_lose_sp(s, sc, gd, 3, &ev);
    CHECK_EQ(s->pc[gd].sp, 7);
    CHECK_EQ(bar_tail_hex(s, sc, gd), south);
    bar_lose_sp(s, sc, gd, 1, &ev);
    CHECK_EQ(s->pc[gd].tail, 0);
    CHECK_EQ(bar_sp_in(s, sc, gd, a), 6);
    /* a rout contracts it */
    s->pc[gd].sp = 10;
    s->pc[gd].tail = (int8_t)(mk_hex_direction(&sc->map.grid, a, south) + 1);
    s->pc[va].hex = MK_NO_HEX;
    bar_rout_unit(s, sc, gd, &ev);
    CHECK_EQ(s->pc[gd].tail, 0);
}


/* 2.1a (ours): a two-hex Line wheels 60 degrees about either end, the
 * moving end paying its new hex as well as the face change. */
static void test_line_two_hex_wheel_2_1a(void)
{
    empty(3);
    mk_hex a = hx("E2019"), south = nb_at(a, 6);
    int gd = activate_gr("E2019", BAR_FM_LINE, 90);
    s->pc[gd].tail = (int8_t)(mk_hex_direction(&sc->map.grid, a, south) + 1);
    int n = sc->rs->legal(s, sc, acts, 4096), wheels = 0;
    for (int k = 0; k < n; k++)
        if (acts[k].type == BA_FACE && acts[k].unit == gd && acts[k].flags) {
            wheels++;
            CHECK(acts[k].target == 1 || acts[k].target == 5);
            CHECK(acts[k].cost > x->se.face_half);   /* the face change and the hex */
        }
    CHECK(wheels >= 2 && wheels <= 4);
    CHECK(act("{\"type\":\"face\",\"unit\":\"1 Gd/Gds\",\"facing\":30,\"pivot\":\"middle\"}") < 0);
    CHECK(act("{\"type\":\"face\",\"unit\":\"1 Gd/Gds\",\"facing\":150,\"pivot\":\"first\"}") < 0 ||
          s->pc[gd].facing == 5);   /* (+60 about the first hex, if open: a backward wheel) */
    if (s->pc[gd].facing == 5) {   /* undo it for the next step */
        s->pc[gd].facing = 3;
        s->pc[gd].tail = (int8_t)(mk_hex_direction(&sc->map.grid, a, south) + 1);
    }
    /* wheel forward about the first hex: the second swings from S to SE */
    s->pc[gd].mp = 20;
    if (act("{\"type\":\"face\",\"unit\":\"1 Gd/Gds\",\"facing\":30,\"pivot\":\"first\"}") == 0) {
        CHECK_EQ(s->pc[gd].facing, 1);
        CHECK_EQ(s->pc[gd].hex, a);
        CHECK_EQ(bar_tail_hex(s, sc, gd), nb_at(a, 4));
        CHECK(find_ev("wheel", NULL) != NULL);
    } else {
        CHECK(legal_has(BA_FACE, gd, 1) == false);
    }
    /* about the second hex: the first swings round it */
    empty(3);
    gd = activate_gr("E2019", BAR_FM_LINE, 90);
    s->pc[gd].tail = (int8_t)(mk_hex_direction(&sc->map.grid, a, south) + 1);
    mk_hex from, to = bar_wheel_hex(s, sc, gd, 1, 1, &from);
    CHECK_EQ(from, a);
    CHECK_EQ(to, nb_at(south, 10));   /* the first hex goes from N of the second to its NW */
    if (act("{\"type\":\"face\",\"unit\":\"1 Gd/Gds\",\"facing\":30,\"pivot\":\"second\"}") == 0) {
        CHECK_EQ(s->pc[gd].hex, to);
        CHECK_EQ(bar_tail_hex(s, sc, gd), south);
        CHECK_EQ(s->pc[gd].facing, 1);
        int b = bar_bearing12(&sc->map.grid, s->pc[gd].hex, south);
        CHECK(b == 4 || b == 10);   /* still 90 degrees off its facing */
    }
    /* an enemy where the moving end would go bars that wheel */
    empty(3);
    gd = activate_gr("E2019", BAR_FM_LINE, 90);
    s->pc[gd].tail = (int8_t)(mk_hex_direction(&sc->map.grid, a, south) + 1);
    place("Va Bn/GD", "E2019", BAR_FM_LINE, 270);
    s->pc[pid("Va Bn/GD")].hex = nb_at(a, 4);
    n = sc->rs->legal(s, sc, acts, 4096);
    for (int k = 0; k < n; k++)
        CHECK(!(acts[k].type == BA_FACE && acts[k].unit == gd && acts[k].flags == BAF_PIVOT_FIRST &&
                acts[k].target == 1));
}


/* Grayson's Virginians, at hex from, attack hex target in Close Combat
 * (2.3) with the dice that beat the defender (a 95, then 99s); the
 * defender's "retreat" event, or NULL. */
static const mk_event *va_close_combat(mk_hex from, mk_hex target, int defender)
{
    place("Va Bn/GD", "E2019", BAR_FM_LINE, 0);
    int va = pid("Va Bn/GD");
    s->pc[va].hex = from;
    s->side = BAR_AMERICAN;
    s->org = x->p[va].org;
    s->phase = BP_CC;
    CHECK(legal_has(BA_CC, va, target));
    force(8, 95, 99, 99, 99, 99, 99, 99, 99);
    char js[160];
    snprintf(js, sizeof js, "{\"type\":\"close_combat\",\"unit\":\"Va Bn/GD\",\"target\":\"%s\"}", L(0, target));
    CHECK_EQ(act(js), 0);
    const mk_event *r = NULL;
    for (int k = 0; k < ev.n; k++)
        if (!strcmp(ev.ev[k].type, "retreat") && ev.ev[k].unit == defender)
            r = &ev.ev[k];
    return r;
}

/* 2.1c (ours): a two-hex Road Column beaten in close combat at its
 * trailing hex retreats head first (never into its own tail), the tail
 * following into the head's hex; the attacker advances into the emptied
 * trailing hex. Forced: the close combat roll 95 (the defender loses and
 * retreats), then every check passes. */
static void test_road_column_close_combat_retreat_2_1c(void)
{
    empty(3);
    mk_hex a = hx("E2019"), back = nb_at(a, 6);
    int gr = activate_gr("E2019", BAR_FM_ROAD_COLUMN, 0);
    s->pc[gr].sp = 12;
    s->pc[gr].tail = (int8_t)(mk_hex_direction(&sc->map.grid, a, back) + 1);
    const mk_event *r = va_close_combat(nb_at(back, 6), back, gr);
    int va = pid("Va Bn/GD");
    CHECK(r != NULL);
    if (!r)
        return;
    CHECK_EQ(r->from, a);   /* from its head's hex */
    CHECK(s->pc[gr].hex != back && s->pc[gr].hex != a);
    CHECK(s->pc[gr].sp < 12 && s->pc[gr].sp > 8);   /* losses (the band's), still two hexes */
    CHECK_EQ(bar_tail_hex(s, sc, gr), a);   /* the tail followed into the head's hex */
    CHECK(!bar_in_hex(s, sc, gr, back));
    CHECK_EQ(s->pc[va].hex, back);   /* the attacker advanced into the emptied hex */
}


/* 2.1a (ours): a two-hex Line beaten in close combat contracts and
 * retreats a hex (forced as the Road Column's above). */
static void test_line_two_hex_close_combat_retreat_2_1a(void)
{
    empty(3);
    mk_hex a = hx("E2019"), south = nb_at(a, 6);
    int gd = activate_gr("E2019", BAR_FM_LINE, 90);
    s->pc[gd].tail = (int8_t)(mk_hex_direction(&sc->map.grid, a, south) + 1);
    /* from behind the Line's second hex: its flank, no defensive fire */
    const mk_event *r = va_close_combat(nb_at(south, 6), south, gd);
    CHECK(r != NULL);
    CHECK_EQ(s->pc[gd].tail, 0);   /* contracted */
    CHECK(s->pc[gd].hex != a && s->pc[gd].hex != south && s->pc[gd].hex != MK_NO_HEX);
    CHECK(mk_hex_adjacent(&sc->map.grid, s->pc[gd].hex, a));
}

static void test_state_size(void)
{
    /* the second hex is a union with the leaders' ctr: no bytes added to
     * a piece (16 bytes), and the state within issue 4's 4 KiB */
    CHECK(sizeof(bar_state) <= 4096);
    CHECK_EQ(sizeof(bar_pc), 16);
}

int main(void)
{
    if (!bar_fixture_load())
        return check_done("test_bar_formations");
    test_square_minimum_2_1b();
    test_square_below_six_2_1b();
    test_skirmish_single_unit_2_1d();
    test_road_column_forming_2_1c();
    test_road_column_moving_2_1c();
    test_road_column_combat_2_1c();
    test_road_column_entering_2_1c();
    test_road_column_close_combat_retreat_2_1c();
    test_road_movement_mixed_5_2g();
    test_line_two_hex_forming_2_1a();
    test_line_two_hex_moving_2_1a();
    test_line_two_hex_combat_2_1a();
    test_line_two_hex_wheel_2_1a();
    test_line_two_hex_close_combat_retreat_2_1a();
    test_state_size();
    mk_scenario_free(sc);
    return check_done("test_bar_formations");
}
