/* test_bar_formations.c - Monmouth 2.1's SP modifications of the
 * formations: 2.1b Square (6 SPs; below 6 a single-hex Line), 2.1c the
 * two-hex Road Column, 2.1d Skirmish of a single unit over 6 SPs. */
#include "bar_fixture.h"

static mk_action acts[4096];

static inline bool legal_has(int type, int i, int target)
{
    int n = sc->rs->legal(s, sc, acts, 4096);
    for (int k = 0; k < n; k++)
        if (acts[k].type == type && acts[k].unit == i && acts[k].target == target)
            return true;
    return false;
}

static inline int legal_count(int type, int i)
{
    int n = sc->rs->legal(s, sc, acts, 4096), c = 0;
    for (int k = 0; k < n; k++)
        c += acts[k].type == type && acts[k].unit == i;
    return c;
}

/* The neighbour of hex h at bearing b (0-11, even). */
static mk_hex nb_at(mk_hex h, int b)
{
    for (int d = 0; d < 6; d++)
        if (bar_dir_step(d) == b)
            return mk_hex_neighbor(&sc->map.grid, h, d);
    return MK_NO_HEX;
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

int main(void)
{
    if (!bar_fixture_load())
        return check_done("test_bar_formations");
    test_square_minimum_2_1b();
    test_square_below_six_2_1b();
    test_skirmish_single_unit_2_1d();
    mk_scenario_free(sc);
    return check_done("test_bar_formations");
}
