/* test_bar_heat.c - Monmouth 2.8 C-D, the Heat turns' Disorder Checks (A)
 * after an Advance After Combat or a Retreat Before Close Combat (C) and
 * at the end of a Charge and its Pursuit (D), with forced dice: +1 ER a
 * hex entered for the British, +1 per 2 hexes (rounded) for the
 * Americans; none outside the Heat turns (2.8 A: Noon to 4:40 PM). 2.8 B
 * (MPs spent) is tested in test_bar_play.c (test_heat). */
#include "bar_fixture.h"

/* The events of the last action whose rule names `rule`. */
static int heat_events(const char *rule, const mk_event **out, int cap)
{
    int n = 0;
    for (int k = 0; k < ev.n; k++)
        if (ev.ev[k].rule && strstr(ev.ev[k].rule, rule) && n < cap)
            out[n++] = &ev.ev[k];
    return n;
}

/* 2.8 C: Grayson's Virginians attack the 16th Dragoons, who retreat before
 * the Close Combat (2.3f); the dragoons check after their retreat (British:
 * +1 for the hex), then the Virginians after their advance (American: one
 * hex, +1 rounded). At 11:00 AM, no Heat turn, neither checks. */
static void test_2_8_c(void)
{
    for (int heat = 1; heat >= 0; heat--) {
        char lb[MK_HEX_LABEL_MAX];
        rbcc_position(heat ? 6 : 3, lb);
        CHECK_EQ(bar_is_heat(s->turn), heat);
        CHECK(s->rb_unit >= 0);
        int da = pid("16 Da"), va = pid("Va Bn/GD");
        force(2, 0, 99);   /* the dragoons fail theirs, the Virginians pass */
        CHECK_EQ(act("{\"type\":\"retreat_before_close_combat\",\"retreat\":true}"), 0);
        const mk_event *h[4];
        int n = heat_events("2.8 C", h, 4);
        if (!heat) {
            CHECK_EQ(n, 0);
            CHECK(!(s->pc[da].status & BS_DISORDERED));
            continue;
        }
        CHECK_EQ(n, 2);
        if (n != 2)
            continue;
        CHECK_EQ(h[0]->unit, da);
        CHECK(strstr(h[0]->rule, "Retreat Before Close Combat") != NULL);
        CHECK_EQ(h[0]->need, bar_check_target(s, sc, da, 1));   /* British: +1 a hex */
        CHECK_EQ(h[0]->passed, 0);
        CHECK(s->pc[da].status & BS_DISORDERED);
        CHECK_EQ(h[1]->unit, va);
        CHECK(strstr(h[1]->rule, "Advance After Combat") != NULL);
        CHECK_EQ(s->pc[va].hex, hx(lb));
        CHECK_EQ(h[1]->need, bar_check_target(s, sc, va, 1));   /* American: 1 hex rounds to +1 */
        CHECK_EQ(h[1]->passed, 1);
        CHECK(!(s->pc[va].status & BS_DISORDERED));
    }
    /* the modifier itself: American per 2 hexes rounded, British per hex */
    CHECK_EQ(bar_heat_hex_modifier(BAR_AMERICAN, 1), 1);
    CHECK_EQ(bar_heat_hex_modifier(BAR_AMERICAN, 2), 1);
    CHECK_EQ(bar_heat_hex_modifier(BAR_AMERICAN, 3), 2);
    CHECK_EQ(bar_heat_hex_modifier(BAR_BRITISH, 3), 3);
}

/* 2.8 D: the 16th Dragoons charge Patterson's Pennsylvanians one hex away
 * (the charge movement enters one hex), win, advance into the emptied hex
 * (a second) and pursue (our Pursuit enters none): after the Recall's
 * Disorder Check (F), the Heat check at +2 (British, 2 hexes); failed, the
 * dragoons are Disordered (2.8 E's further steps: test_bar_command.c). */
static void test_2_8_d(void)
{
    const mk_grid *g = &sc->map.grid;
    mk_hex a = MK_NO_HEX, t = MK_NO_HEX, c = MK_NO_HEX;
    for (mk_hex h = 0; h < mk_grid_size(g) && t == MK_NO_HEX; h++) {
        mk_hex e1 = mk_hex_neighbor(g, h, 4), t1 = e1 != MK_NO_HEX ? mk_hex_neighbor(g, e1, 3) : MK_NO_HEX;
        mk_hex e2 = mk_hex_neighbor(g, h, 3), c1 = mk_hex_neighbor(g, h, 1);
        if (t1 == MK_NO_HEX || e2 == MK_NO_HEX || c1 == MK_NO_HEX || x->map.terrain[h] || x->map.terrain[e1] ||
            x->map.terrain[e2] || x->map.terrain[t1] || x->map.terrain[c1] || bar_hexside(&x->map, h, e1) ||
            bar_hexside(&x->map, e1, t1) || bar_hexside(&x->map, h, e2) || bar_hexside(&x->map, e2, t1) ||
            mk_hex_distance(g, h, t1) != 2 || mk_hex_on_map_edge(g, t1) || mk_hex_distance(g, c1, t1) < 3)
            continue;
        a = h, t = t1, c = c1;
    }
    CHECK(t != MK_NO_HEX);
    if (t == MK_NO_HEX)
        return;
    char la[MK_HEX_LABEL_MAX], lt[MK_HEX_LABEL_MAX], lc[MK_HEX_LABEL_MAX], js[160];
    mk_hex_label(g, a, la);
    mk_hex_label(g, t, lt);
    mk_hex_label(g, c, lc);
    empty(6);   /* 12:00 PM, a Heat turn */
    /* the Hessian grenadiers' Command activates the Independent dragoons
     * in its leader's range, Clinton with it (in his Line of Command) */
    place("HC", lc, BAR_FM_LINE, 270);
    place("HG/COR", lc, BAR_FM_LINE, 270);
    place("Len/HG", lc, BAR_FM_LINE, 270);
    place("16 Da", la, BAR_FM_CAVALRY, 270);
    place("Patt/GD", lt, BAR_FM_LINE, 90);
    int cav = pid("16 Da"), u = pid("Patt/GD");
    s->side = BAR_BRITISH;
    force(1, 5);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"HG\"}"), 0);
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    CHECK_EQ(s->phase, BP_CC);
    mk_hex end = bar_charge_end(s, sc, cav, t);
    CHECK(end != MK_NO_HEX && mk_hex_distance(g, a, end) == 1);
    /* 11: the Defensive Fire misses; 99: the defender loses and retreats
     * (its check 99); pursuit die 9; the Recall check 99; the Heat check 0 */
    force(6, 11, 99, 99, 9, 99, 0);
    snprintf(js, sizeof js, "{\"type\":\"close_combat\",\"unit\":\"16 Da\",\"target\":\"%s\",\"charge\":true}", lt);
    CHECK_EQ(act(js), 0);
    CHECK(find_ev("roll", "pursuit") != NULL);
    CHECK_EQ(s->pc[cav].hex, t);   /* advanced */
    const mk_event *h[4];
    int n = heat_events("2.8 D", h, 4);
    CHECK_EQ(n, 1);
    if (n == 1) {
        CHECK_EQ(h[0]->unit, cav);
        CHECK_EQ(h[0]->need, bar_check_target(s, sc, cav, 2));   /* British: 2 hexes entered */
        CHECK_EQ(h[0]->passed, 0);
        /* after the Recall's check */
        const mk_event *recall = NULL;
        for (int k = 0; k < ev.n; k++)
            if (ev.ev[k].rule && strstr(ev.ev[k].rule, "Recall"))
                recall = &ev.ev[k];
        CHECK(recall != NULL && recall < h[0]);
    }
    CHECK(s->pc[cav].status & BS_DISORDERED);   /* failed: Disordered */
    CHECK(heat_events("2.8 C", h, 4) == 0);   /* the charger's advance is 2.8 D's */
    (void)u;
}

int main(void)
{
    if (!bar_fixture_load())
        return check_done("test_bar_heat");
    test_2_8_c();
    test_2_8_d();
    mk_scenario_free(sc);
    return check_done("test_bar_heat");
}
