/* test_bar_rules.c - the Battle of Monmouth (BAR) modules that exist so
 * far: the turn clock, light and heat (rules/bar/clock.c), victory and the
 * baggage raids (rules/bar/victory.c), leaders (rules/bar/leaders.c).
 * One test per computable statement of the rulebook, named by its section
 * (Monmouth 1.2d ... 7.4d); the rulebook's worked examples are tests, and
 * each unclear text (AMB-BAR-*) is tested in the reading docs/bar.md
 * chose. Dice are arguments of these pure functions, so "forced dice" are
 * simply the values passed. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "rules/bar/bar.h"

#define T(d, h, m) bar_turn_of(d, h, m)

/* ---- Monmouth 1.2d: the 20-minute turn ------------------------------- */
static void test_1_2d_turn_clock(void)
{
    CHECK_EQ(T(28, 0, 0), 0);
    CHECK_EQ(T(28, 10, 0), 30);
    CHECK_EQ(T(28, 10, 20), 31);
    CHECK_EQ(T(28, 23, 40), 71);
    CHECK_EQ(T(29, 0, 0), 72);
    CHECK_EQ(T(29, 19, 0), 129);
    CHECK_EQ(T(28, 10, 10), -1);   /* not a 20-minute mark */
    CHECK_EQ(T(28, 10, 60), -1);
    CHECK_EQ(T(28, 24, 0), -1);
    CHECK_EQ(T(27, 10, 0), -1);
    CHECK_EQ(T(30, 10, 0), -1);
    int round_trip = 1;
    for (int t = 0; t < BAR_NTURNS; t++) {
        bar_time tm;
        if (bar_turn_time(t, &tm) || T(tm.day, tm.hour, tm.minute) != t)
            round_trip = 0;
    }
    CHECK(round_trip);
    bar_time tm;
    CHECK_EQ(bar_turn_time(-1, &tm), -1);
    CHECK_EQ(bar_turn_time(BAR_NTURNS, &tm), -1);
    char buf[32];
    bar_turn_format(30, buf, sizeof buf);
    CHECK_STR(buf, "10:00 AM 28 June");
    bar_turn_format(36, buf, sizeof buf);
    CHECK_STR(buf, "12:00 PM 28 June");
    bar_turn_format(72, buf, sizeof buf);
    CHECK_STR(buf, "12:00 AM 29 June");
    bar_turn_format(T(28, 16, 40), buf, sizeof buf);
    CHECK_STR(buf, "4:40 PM 28 June");
    bar_turn_format(129, buf, sizeof buf);
    CHECK_STR(buf, "7:00 PM 29 June");
    CHECK_EQ(bar_turn_format(200, buf, sizeof buf), -1);
}

/* ---- Monmouth 2.7 A: light conditions at each bound ------------------ */
static void test_2_7a_light(void)
{
    for (int d = 28; d <= 29; d++) {
        CHECK_EQ(bar_light_of(T(d, 0, 0)), BAR_NIGHT);
        CHECK_EQ(bar_light_of(T(d, 4, 20)), BAR_NIGHT);    /* last Night turn */
        CHECK_EQ(bar_light_of(T(d, 4, 40)), BAR_DAWN);
        CHECK_EQ(bar_light_of(T(d, 5, 0)), BAR_DAY);       /* first Day turn */
        CHECK_EQ(bar_light_of(T(d, 12, 0)), BAR_DAY);
        CHECK_EQ(bar_light_of(T(d, 18, 40)), BAR_DAY);     /* 6:40 PM, last Day */
        CHECK_EQ(bar_light_of(T(d, 19, 0)), BAR_DUSK);
        CHECK_EQ(bar_light_of(T(d, 19, 20)), BAR_MOONLIT); /* first Moonlit */
        CHECK_EQ(bar_light_of(T(d, 22, 40)), BAR_MOONLIT); /* last Moonlit */
        CHECK_EQ(bar_light_of(T(d, 23, 0)), BAR_NIGHT);    /* first Night */
    }
    int count[5] = {0};
    for (int t = 0; t < BAR_TURNS_PER_DAY; t++)
        count[bar_light_of(t)]++;
    CHECK_EQ(count[BAR_DAY], 42);     /* 5:00 AM - 6:40 PM */
    CHECK_EQ(count[BAR_DAWN], 1);
    CHECK_EQ(count[BAR_DUSK], 1);
    CHECK_EQ(count[BAR_MOONLIT], 11); /* 7:20 PM - 10:40 PM */
    CHECK_EQ(count[BAR_NIGHT], 17);   /* 11:00 PM - 4:20 AM */
    CHECK_STR(bar_light_name(BAR_MOONLIT), "moonlit");
}

/* ---- Monmouth 2.8 A, F: Heat turns (AMB-BAR-10: both days) ----------- */
static void test_2_8a_heat(void)
{
    for (int d = 28; d <= 29; d++) {
        CHECK(!bar_is_heat(T(d, 11, 40)));
        CHECK(bar_is_heat(T(d, 12, 0)));    /* Noon */
        CHECK(bar_is_heat(T(d, 14, 20)));
        CHECK(bar_is_heat(T(d, 16, 40)));   /* 4:40 PM inclusive */
        CHECK(!bar_is_heat(T(d, 17, 0)));
        CHECK(!bar_is_heat(T(d, 0, 0)));
    }
    int n = 0, halved_same = 1;
    for (int t = 0; t < BAR_NTURNS; t++) {
        n += bar_is_heat(t);
        if (bar_artillery_halved(t) != bar_is_heat(t))   /* 2.8 F */
            halved_same = 0;
    }
    CHECK_EQ(n, 30);   /* 15 turns a day */
    CHECK(halved_same);
    CHECK(!bar_is_heat(-1));
    CHECK(!bar_is_heat(BAR_NTURNS));
}

/* ---- Monmouth 7.1a A: scenario 1, End Turn Number 7 ------------------ */
static void test_7_1a_end_turn(void)
{
    CHECK_EQ(bar_scenario_first_turn(1), T(28, 10, 0));
    CHECK_EQ(bar_scenario_last_turn(1), T(28, 13, 0));
    for (int t = T(28, 10, 0); t <= T(28, 13, 0); t++)
        CHECK_EQ(bar_end_turn_number(1, t), 7);
    CHECK_EQ(bar_end_turn_number(1, T(28, 9, 40)), -1);
    CHECK_EQ(bar_end_turn_number(1, T(28, 13, 20)), -1);
    CHECK_EQ(bar_scenario_victory_turn(1), T(28, 13, 0));   /* 7.1d A */
}

/* ---- Monmouth 7.2a A: scenario 2, End Turn Number 9 ------------------ */
static void test_7_2a_end_turn(void)
{
    CHECK_EQ(bar_scenario_first_turn(2), T(28, 15, 0));
    CHECK_EQ(bar_scenario_last_turn(2), T(28, 23, 0));
    CHECK_EQ(bar_end_turn_number(2, T(28, 15, 0)), 9);
    CHECK_EQ(bar_end_turn_number(2, T(28, 23, 0)), 9);
    CHECK_EQ(bar_end_turn_number(2, T(28, 14, 40)), -1);
    CHECK_EQ(bar_end_turn_number(2, T(28, 23, 20)), -1);
    CHECK_EQ(bar_scenario_victory_turn(2), T(28, 23, 0));   /* 7.2d A */
}

/* ---- Monmouth 7.3a A: scenario 3, 7 / 8 / 9 -------------------------- */
static void test_7_3a_end_turn(void)
{
    CHECK_EQ(bar_scenario_first_turn(3), T(28, 10, 0));
    CHECK_EQ(bar_scenario_last_turn(3), T(28, 23, 0));
    CHECK_EQ(bar_end_turn_number(3, T(28, 10, 0)), 7);
    CHECK_EQ(bar_end_turn_number(3, T(28, 12, 0)), 7);    /* "until 12:00 PM" */
    CHECK_EQ(bar_end_turn_number(3, T(28, 12, 20)), 8);   /* "from 12:20 PM" */
    CHECK_EQ(bar_end_turn_number(3, T(28, 14, 40)), 8);   /* "until 2:40 PM" */
    CHECK_EQ(bar_end_turn_number(3, T(28, 15, 0)), 9);    /* "9 from 3:00 PM" */
    CHECK_EQ(bar_end_turn_number(3, T(28, 23, 0)), 9);
    CHECK_EQ(bar_end_turn_number(3, T(28, 23, 20)), -1);
    CHECK_EQ(bar_end_turn_number(3, T(28, 9, 40)), -1);
    CHECK_EQ(bar_scenario_victory_turn(3), T(28, 23, 0));   /* 7.3d A */
}

/* ---- Monmouth 7.4a A: scenario 4, 7 / 8 / 9 / 13 (AMB-BAR-12) -------- */
static void test_7_4a_end_turn(void)
{
    CHECK_EQ(bar_scenario_first_turn(4), T(28, 10, 0));
    CHECK_EQ(bar_scenario_last_turn(4), T(29, 19, 0));
    CHECK_EQ(bar_end_turn_number(4, T(28, 12, 0)), 7);
    CHECK_EQ(bar_end_turn_number(4, T(28, 12, 20)), 8);
    CHECK_EQ(bar_end_turn_number(4, T(28, 14, 40)), 8);
    CHECK_EQ(bar_end_turn_number(4, T(28, 15, 0)), 9);
    CHECK_EQ(bar_end_turn_number(4, T(28, 23, 40)), 9);
    CHECK_EQ(bar_end_turn_number(4, T(29, 0, 0)), 9);    /* midnight keeps 9 */
    CHECK_EQ(bar_end_turn_number(4, T(29, 0, 20)), 13);  /* 13 from 12:20 AM */
    CHECK_EQ(bar_end_turn_number(4, T(29, 19, 0)), 13);
    CHECK_EQ(bar_end_turn_number(4, T(29, 19, 20)), -1);
    /* AMB-BAR-6: victory at the end of the scenario, not 11:00 PM. */
    CHECK_EQ(bar_scenario_victory_turn(4), T(29, 19, 0));
    CHECK_EQ(bar_end_turn_number(5, T(28, 12, 0)), -1);
    CHECK_EQ(bar_scenario_first_turn(0), -1);
}

/* ---- Monmouth 5.2g: road movement rates ------------------------------ */
/* The cheapest cut of a road path into 1/2 MP runs, by exhaustive search
 * and the rule's own numbers (3 major, 2 with a minor, 1 at Night), to
 * compare with movement's hex-by-hex charge. */
static int brute_road(const uint8_t *k, int n, bool night)
{
    if (n == 0)
        return 0;
    int best = 1000, kinds = 0;
    for (int len = 1; len <= n && len <= 3; len++) {
        kinds |= k[len - 1];
        if (len > (night ? 1 : kinds == BAR_ROAD_MAJOR ? 3 : 2))
            break;
        int c = 1 + brute_road(k + len, n - len, night);
        if (c < best)
            best = c;
    }
    return best;
}

/* 1/2 MPs movement charges along the road path k[0..n-1] (bar_road_step). */
static int road_steps(const uint8_t *k, int n, bool night)
{
    int run = 0, sum = 0;
    for (int i = 0; i < n; i++)
        sum += bar_road_step(&run, k[i], night);
    return sum;
}

static void test_5_2g_road(void)
{
    const int M = BAR_ROAD_MAJOR, m = BAR_ROAD_MINOR;
    CHECK_EQ(bar_road_hexes_per_half_mp(M, false), 3);
    CHECK_EQ(bar_road_hexes_per_half_mp(m, false), 2);
    CHECK_EQ(bar_road_hexes_per_half_mp(M | m, false), 2);   /* both kinds */
    CHECK_EQ(bar_road_hexes_per_half_mp(M, true), 1);        /* Night */
    CHECK_EQ(bar_road_hexes_per_half_mp(m, true), 1);
    CHECK_EQ(bar_road_hexes_per_half_mp(0, false), 0);
    uint8_t majors[7] = {1, 1, 1, 1, 1, 1, 1}, minors[5] = {2, 2, 2, 2, 2};
    CHECK_EQ(road_steps(majors, 6, false), 2);   /* "6 hexes per MP" */
    CHECK_EQ(road_steps(majors, 7, false), 3);
    CHECK_EQ(road_steps(minors, 4, false), 2);   /* "4 hexes per MP" */
    CHECK_EQ(road_steps(minors, 5, false), 3);
    CHECK_EQ(road_steps(majors, 6, true), 6);    /* Night: 1/2 per hex */
    CHECK_EQ(road_steps(minors, 3, true), 3);
    uint8_t mix[3] = {1, 1, 2};
    CHECK_EQ(road_steps(mix, 3, false), 2);      /* a mixed run holds 2: [M M][m] */
    uint8_t mmmm[4] = {2, 1, 1, 1};
    CHECK_EQ(road_steps(mmmm, 4, false), 2);     /* [m M][M M] */
    CHECK_EQ(road_steps(majors, 0, false), 0);
    int run = 0;   /* major, major, minor: 3 hexes with a minor road need two 1/2 MPs */
    CHECK_EQ(bar_road_step(&run, M, false), 1);
    CHECK_EQ(bar_road_step(&run, M, false), 0);
    CHECK_EQ(bar_road_step(&run, m, false), 1);
    CHECK_EQ(bar_road_step(&run, M, false), 0);   /* [M M][m M] */
    CHECK_EQ(bar_road_step(&run, M, false), 1);
    /* Every path of up to 10 hexes, by day and at Night: stretching each
     * run as far as the rate allows is the cheapest cut. */
    int agree = 1;
    for (int night = 0; night <= 1; night++)
        for (int n = 1; n <= 10; n++)
            for (int bits = 0; bits < 1 << n; bits++) {
                uint8_t k[10];
                for (int i = 0; i < n; i++)
                    k[i] = (uint8_t)(bits >> i & 1 ? m : M);
                if (road_steps(k, n, night) != brute_road(k, n, night))
                    agree = 0;
            }
    CHECK(agree);
}

/* ---- Monmouth 2.3d, 2.3e, 2.7 C-D: charge range and pursuit ---------- */
static void test_2_3d_charge_range(void)
{
    CHECK_EQ(bar_charge_range(BAR_DAY, false), 2);
    CHECK_EQ(bar_charge_range(BAR_DAWN, false), 2);
    CHECK_EQ(bar_charge_range(BAR_DUSK, false), 2);
    CHECK_EQ(bar_charge_range(BAR_MOONLIT, false), 1);
    CHECK_EQ(bar_charge_range(BAR_NIGHT, false), 0);   /* adjacent units only */
    CHECK_EQ(bar_charge_range(BAR_DAY, true), 0);      /* 2.3e woods */
    CHECK(bar_pursuit_allowed(BAR_MOONLIT, false));
    CHECK(!bar_pursuit_allowed(BAR_NIGHT, false));
    CHECK(!bar_pursuit_allowed(BAR_DAY, true));
}

/* ---- Monmouth 2.7 B-D: fire range limits, artillery brackets --------- */
static void test_2_7bcd_fire(void)
{
    CHECK_EQ(bar_fire_range_limit(BAR_NIGHT, false), 1);
    CHECK_EQ(bar_fire_range_limit(BAR_NIGHT, true), 1);
    CHECK_EQ(bar_fire_range_limit(BAR_MOONLIT, true), 5);   /* "cannot fire over 5" */
    CHECK_EQ(bar_fire_range_limit(BAR_MOONLIT, false), BAR_RANGE_CHART);
    CHECK_EQ(bar_fire_range_limit(BAR_DUSK, true), BAR_RANGE_CHART);
    CHECK_EQ(bar_fire_range_limit(BAR_DAY, true), BAR_RANGE_CHART);
    CHECK(!bar_artillery_bracketed(BAR_DAWN, 5));   /* "greater than 5 hexes" */
    CHECK(bar_artillery_bracketed(BAR_DAWN, 6));
    CHECK(!bar_artillery_bracketed(BAR_DUSK, 5));
    CHECK(bar_artillery_bracketed(BAR_DUSK, 6));
    CHECK(bar_artillery_bracketed(BAR_MOONLIT, 1));   /* AMB-BAR-13: every range */
    CHECK(bar_artillery_bracketed(BAR_MOONLIT, 5));
    CHECK(!bar_artillery_bracketed(BAR_DAY, 10));
    CHECK(!bar_artillery_bracketed(BAR_NIGHT, 1));
}

/* ---- Monmouth 2.7 C-D: Disorder Check (A) after moving in the dark --- */
static void test_2_7cd_dark_move(void)
{
    /* MA 5: half (rounded) is 3 MPs; more than 3 triggers the check. */
    CHECK_EQ(bar_dark_move_check(BAR_MOONLIT, 5, 6, false), 0);
    CHECK_EQ(bar_dark_move_check(BAR_MOONLIT, 5, 7, false), 5);
    CHECK_EQ(bar_dark_move_check(BAR_NIGHT, 5, 7, false), 10);
    CHECK_EQ(bar_dark_move_check(BAR_NIGHT, 5, 7, true), 0);   /* Road Movement only */
    CHECK_EQ(bar_dark_move_check(BAR_DUSK, 5, 10, false), 0);
    CHECK_EQ(bar_dark_move_check(BAR_DAY, 5, 10, false), 0);
    CHECK_EQ(bar_dark_move_check(BAR_NIGHT, 4, 4, false), 0);  /* MA 4: half is 2 */
    CHECK_EQ(bar_dark_move_check(BAR_NIGHT, 4, 5, false), 10);
    CHECK_EQ(bar_half_rounded(7), 4);   /* AMB-BAR-8: .5 up */
    CHECK_EQ(bar_half_rounded(6), 3);
    CHECK_EQ(bar_half_rounded(0), 0);
}

/* ---- Monmouth 2.8 B-D: Heat ER modifiers ----------------------------- */
static void test_2_8bcd_heat_modifiers(void)
{
    /* B: American, +1 per MP or fraction (spent in 1/2 MPs). */
    CHECK_EQ(bar_heat_mp_modifier(BAR_AMERICAN, BAR_HEAT_INFANTRY, 0), 0);
    CHECK_EQ(bar_heat_mp_modifier(BAR_AMERICAN, BAR_HEAT_INFANTRY, 1), 1);
    CHECK_EQ(bar_heat_mp_modifier(BAR_AMERICAN, BAR_HEAT_INFANTRY, 2), 1);
    CHECK_EQ(bar_heat_mp_modifier(BAR_AMERICAN, BAR_HEAT_ARTILLERY, 3), 2);
    CHECK_EQ(bar_heat_mp_modifier(BAR_AMERICAN, BAR_HEAT_DISMOUNTED_CAV, 3), 2);
    /* British mounted cavalry, like the Americans. */
    CHECK_EQ(bar_heat_mp_modifier(BAR_BRITISH, BAR_HEAT_MOUNTED_CAV, 3), 2);
    CHECK_EQ(bar_heat_mp_modifier(BAR_BRITISH, BAR_HEAT_MOUNTED_CAV, 8), 4);
    /* British infantry, dismounted cavalry, artillery: +1 per 1/2 MP. */
    CHECK_EQ(bar_heat_mp_modifier(BAR_BRITISH, BAR_HEAT_INFANTRY, 3), 3);
    CHECK_EQ(bar_heat_mp_modifier(BAR_BRITISH, BAR_HEAT_DISMOUNTED_CAV, 2), 2);
    CHECK_EQ(bar_heat_mp_modifier(BAR_BRITISH, BAR_HEAT_ARTILLERY, 1), 1);
    /* C-D: American +1 per 2 hexes (rounded), British +1 per hex. */
    CHECK_EQ(bar_heat_hex_modifier(BAR_AMERICAN, 1), 1);
    CHECK_EQ(bar_heat_hex_modifier(BAR_AMERICAN, 2), 1);
    CHECK_EQ(bar_heat_hex_modifier(BAR_AMERICAN, 3), 2);
    CHECK_EQ(bar_heat_hex_modifier(BAR_AMERICAN, 4), 2);
    CHECK_EQ(bar_heat_hex_modifier(BAR_BRITISH, 3), 3);
    CHECK_EQ(bar_heat_hex_modifier(BAR_BRITISH, 0), 0);
}

/* ---- victory helpers --------------------------------------------------- */
static bar_victory_out vict(int sc, bar_victory_in in)
{
    bar_victory_out out;
    mk_error err = {0};
    memset(&out, 0x5a, sizeof out);
    CHECK_EQ(bar_victory(sc, &in, &out, &err), 0);
    return out;
}

/* Losses where the SPs lost equal the loss values. */
static bar_victory_in losses(int am, int br)
{
    bar_victory_in in = {0};
    in.loss[BAR_AMERICAN] = in.sp_lost[BAR_AMERICAN] = am;
    in.loss[BAR_BRITISH] = in.sp_lost[BAR_BRITISH] = br;
    return in;
}

#define CHECK_RESULT(o, w, l)        \
    do {                             \
        CHECK_EQ((o).winner, (w));   \
        CHECK_EQ((o).level, (l));    \
    } while (0)

/* ---- Monmouth 7.1d: scenario 1 victory, its examples ------------------ */
static void test_7_1d_victory(void)
{
    /* A: "17 is divided by 6 (resulting in a 2.8333), rounded to 2.83". */
    bar_victory_out o = vict(1, losses(17, 6));
    CHECK_EQ(o.ratio, 283);
    CHECK_RESULT(o, BAR_BRITISH, BAR_LEVEL_MINOR);
    /* Example 1: 9 and 6 = 1.50; W2220 held, LOC not interdicted: 2.50. */
    bar_victory_in ex1 = losses(9, 6);
    ex1.w2220 = true;
    o = vict(1, ex1);
    CHECK_EQ(o.ratio, 250);
    CHECK_EQ(o.modifier, 100);
    CHECK_RESULT(o, BAR_BRITISH, BAR_LEVEL_MINOR);
    /* Example 2: and the orchard: 2.75, British minor. */
    bar_victory_in ex2 = ex1;
    ex2.orchard = true;
    o = vict(1, ex2);
    CHECK_EQ(o.ratio, 275);
    CHECK_RESULT(o, BAR_BRITISH, BAR_LEVEL_MINOR);
    /* Example 3 (AMB-BAR-1: its "W3915" is E3915): 1.50, American minor. */
    bar_victory_in ex3 = ex1;
    ex3.american_e3915 = true;
    o = vict(1, ex3);
    CHECK_EQ(o.ratio, 150);
    CHECK_RESULT(o, BAR_AMERICAN, BAR_LEVEL_MINOR);
    /* D: W2220 with the LOC interdicted, +.25 (not +1.00). */
    bar_victory_in d = ex1;
    d.interdicted = true;
    o = vict(1, d);
    CHECK_EQ(o.ratio, 175);
    CHECK_RESULT(o, BAR_AMERICAN, BAR_LEVEL_MINOR);   /* "1.75 or less" */
    /* F: each bound. */
    o = vict(1, losses(300, 100));
    CHECK_RESULT(o, BAR_BRITISH, BAR_LEVEL_MAJOR);    /* 3.00 or higher */
    o = vict(1, losses(299, 100));
    CHECK_RESULT(o, BAR_BRITISH, BAR_LEVEL_MINOR);
    o = vict(1, losses(225, 100));
    CHECK_RESULT(o, BAR_BRITISH, BAR_LEVEL_MINOR);    /* 2.25 or greater */
    o = vict(1, losses(224, 100));
    CHECK_RESULT(o, -1, BAR_LEVEL_DRAW);
    o = vict(1, losses(176, 100));
    CHECK_RESULT(o, -1, BAR_LEVEL_DRAW);              /* greater than 1.75 */
    o = vict(1, losses(175, 100));
    CHECK_RESULT(o, BAR_AMERICAN, BAR_LEVEL_MINOR);
    o = vict(1, losses(101, 100));
    CHECK_RESULT(o, BAR_AMERICAN, BAR_LEVEL_MINOR);   /* greater than 1.00 */
    o = vict(1, losses(100, 100));
    CHECK_RESULT(o, BAR_AMERICAN, BAR_LEVEL_MAJOR);   /* 1.00 or lower */
    /* A: rounded down, not to nearest: 2/3 = 0.666 -> 0.66. */
    o = vict(1, losses(20, 30));
    CHECK_EQ(o.ratio, 66);
    /* G: automatic draw below 8 for the side with more SPs lost. */
    o = vict(1, losses(7, 2));
    CHECK(o.auto_draw);
    CHECK_RESULT(o, -1, BAR_LEVEL_DRAW);
    o = vict(1, losses(8, 2));
    CHECK(!o.auto_draw);
    CHECK_RESULT(o, BAR_BRITISH, BAR_LEVEL_MAJOR);
    /* AMB-BAR-7: the side is chosen by roster SPs, its loss value compared. */
    bar_victory_in g = losses(9, 2);
    g.sp_lost[BAR_BRITISH] = 10;   /* British lost more SPs, their value is 2 */
    o = vict(1, g);
    CHECK(o.auto_draw);
    /* AMB-BAR-15: no British losses: British Major, whatever E does. */
    bar_victory_in z = losses(10, 0);
    z.american_e3915 = true;
    o = vict(1, z);
    CHECK(o.unbounded);
    CHECK_RESULT(o, BAR_BRITISH, BAR_LEVEL_MAJOR);
    o = vict(1, losses(0, 0));
    CHECK_RESULT(o, -1, BAR_LEVEL_DRAW);
}

/* ---- Monmouth 7.2d: scenario 2 victory ------------------------------- */
static void test_7_2d_victory(void)
{
    /* Examples 1-2: 20 over 14 = 1.4286 -> 1.4: American marginal. */
    bar_victory_out o = vict(2, losses(14, 20));
    CHECK_EQ(o.ratio, 14);
    CHECK_RESULT(o, BAR_AMERICAN, BAR_LEVEL_MARGINAL);
    /* C: bounds (to tenths, rounded down). */
    o = vict(2, losses(20, 10));
    CHECK_RESULT(o, BAR_BRITISH, BAR_LEVEL_MAJOR);      /* 2.0 or more */
    o = vict(2, losses(199, 100));
    CHECK_EQ(o.ratio, 19);
    CHECK_RESULT(o, BAR_BRITISH, BAR_LEVEL_MINOR);
    o = vict(2, losses(10, 15));
    CHECK_RESULT(o, BAR_AMERICAN, BAR_LEVEL_MINOR);     /* 1.5 or more */
    o = vict(2, losses(100, 149));
    CHECK_RESULT(o, BAR_AMERICAN, BAR_LEVEL_MARGINAL);
    o = vict(2, losses(100, 110));
    CHECK_RESULT(o, BAR_AMERICAN, BAR_LEVEL_MARGINAL);  /* 1.1 or more */
    o = vict(2, losses(100, 109));
    CHECK_EQ(o.ratio, 10);
    CHECK_RESULT(o, -1, BAR_LEVEL_DRAW);                /* less than 1.1 */
    o = vict(2, losses(30, 30));
    CHECK_RESULT(o, -1, BAR_LEVEL_DRAW);
    /* B: each British unit left on the map counts one British SP. */
    bar_victory_in b = losses(20, 10);
    b.british_on_map = 5;
    o = vict(2, b);
    CHECK_EQ(o.br_total, 15);
    CHECK_EQ(o.ratio, 13);
    CHECK_RESULT(o, BAR_BRITISH, BAR_LEVEL_MARGINAL);
    /* D: automatic draw below 10; the units on the map are not on the
     * Loss Charts and do not count (AMB-BAR-7). */
    o = vict(2, losses(9, 4));
    CHECK(o.auto_draw);
    bar_victory_in d = losses(4, 9);
    d.british_on_map = 30;
    o = vict(2, d);
    CHECK(o.auto_draw);
    CHECK_RESULT(o, -1, BAR_LEVEL_DRAW);
    o = vict(2, losses(10, 4));
    CHECK(!o.auto_draw);
    CHECK_RESULT(o, BAR_BRITISH, BAR_LEVEL_MAJOR);
    /* AMB-BAR-15: higher over a lower of 0: Major for the side with none. */
    o = vict(2, losses(0, 12));
    CHECK(o.unbounded);
    CHECK_RESULT(o, BAR_AMERICAN, BAR_LEVEL_MAJOR);
}

/* ---- Monmouth 7.3d: scenario 3 victory, advance track ---------------- */
static void test_7_3d_victory(void)
{
    /* Examples 1 and 4. */
    bar_victory_out o = vict(3, losses(14, 20));
    CHECK_EQ(o.ratio, 14);
    CHECK_RESULT(o, BAR_AMERICAN, BAR_LEVEL_MARGINAL);
    /* Example 2: E1623 E0623 E0627 W3425 W2823 W2018 (steps 1-6): +5. */
    CHECK_EQ(bar_advance_modifier(0x3f), 5);
    /* Example 3: the same without W2823 (step 5): -10 (W3425). */
    CHECK_EQ(bar_advance_modifier(0x2f), -10);
    CHECK_EQ(bar_advance_modifier(0x01), -30);
    CHECK_EQ(bar_advance_modifier(0x3ff), 25);   /* W0201 */
    CHECK_EQ(bar_advance_modifier(0x1ff), 20);
    /* AMB-BAR-5: E1623 never reached: no modifier (literal). */
    CHECK_EQ(bar_advance_modifier(0), 0);
    CHECK_EQ(bar_advance_modifier(0x3fe), 0);
    /* B applied: American 40 + 5 = 45 over British 20 = 2.25 -> 2.2. */
    bar_victory_in b = losses(40, 20);
    b.advance = 0x3f;
    o = vict(3, b);
    CHECK_EQ(o.am_total, 45);
    CHECK_EQ(o.modifier, 5);
    CHECK_EQ(o.ratio, 22);
    CHECK_RESULT(o, BAR_BRITISH, BAR_LEVEL_MAJOR);
    /* "cannot be decreased to less than 1". */
    bar_victory_in f = losses(20, 30);
    f.advance = 0x01;   /* -30 */
    o = vict(3, f);
    CHECK_EQ(o.am_total, 1);
    CHECK_RESULT(o, BAR_AMERICAN, BAR_LEVEL_MAJOR);
    /* C: British units on the map count one SP each. */
    bar_victory_in c = losses(30, 20);
    c.british_on_map = 4;
    o = vict(3, c);
    CHECK_EQ(o.br_total, 24);
    CHECK_EQ(o.ratio, 12);
    CHECK_RESULT(o, BAR_BRITISH, BAR_LEVEL_MARGINAL);
    /* E: automatic draw on the unmodified value, below 15. */
    bar_victory_in e = losses(14, 5);
    e.advance = 0x3ff;   /* +25 would give 39 */
    o = vict(3, e);
    CHECK(o.auto_draw);
    CHECK_RESULT(o, -1, BAR_LEVEL_DRAW);
    o = vict(3, losses(15, 5));
    CHECK(!o.auto_draw);
    CHECK_RESULT(o, BAR_BRITISH, BAR_LEVEL_MAJOR);
    /* Baggage is scenario 4's only. */
    bar_victory_in g = losses(24, 16);
    g.baggage = 10;
    o = vict(3, g);
    CHECK_EQ(o.br_total, 16);
}

/* ---- Monmouth 7.4d (and 7.4a F iii): scenario 4 victory -------------- */
static void test_7_4d_victory(void)
{
    bar_victory_out o = vict(4, losses(14, 20));   /* Examples 1 and 4 */
    CHECK_EQ(o.ratio, 14);
    CHECK_RESULT(o, BAR_AMERICAN, BAR_LEVEL_MARGINAL);
    bar_victory_in b = losses(24, 10);
    b.baggage = 6;   /* 7.4a F iii: each baggage loss counts as an SP */
    o = vict(4, b);
    CHECK_EQ(o.br_total, 16);
    CHECK_EQ(o.ratio, 15);
    CHECK_RESULT(o, BAR_BRITISH, BAR_LEVEL_MINOR);
    bar_victory_in e = losses(3, 14);
    e.baggage = 1;   /* on the British Loss Chart: part of the unmodified 15 */
    o = vict(4, e);
    CHECK(!o.auto_draw);
    CHECK_RESULT(o, BAR_AMERICAN, BAR_LEVEL_MAJOR);
    bar_victory_in a = losses(20, 30);
    a.advance = 0x2f;   /* Example 3's track: -10 */
    a.british_on_map = 2;
    o = vict(4, a);
    CHECK_EQ(o.am_total, 10);
    CHECK_EQ(o.br_total, 32);
    CHECK_RESULT(o, BAR_AMERICAN, BAR_LEVEL_MAJOR);
    /* Bad input is refused with an error, not guessed at. */
    bar_victory_in bad = losses(1, 1);
    bad.baggage = 25;
    mk_error err = {0};
    bar_victory_out out;
    CHECK_EQ(bar_victory(4, &bad, &out, &err), -1);
    CHECK_STR(err.code, "bad_arg");
    CHECK_EQ(bar_victory(5, &a, &out, &err), -1);
    bad = losses(-1, 1);
    CHECK_EQ(bar_victory(2, &bad, &out, &err), -1);
    bad = losses(1, 1);
    bad.advance = 0x400;
    CHECK_EQ(bar_victory(3, &bad, &out, &err), -1);
}

/* ---- Monmouth 2.2d H, 2.4c: loss counting ---------------------------- */
static void test_2_2dH_artillery_losses(void)
{
    CHECK_EQ(bar_artillery_loss_boxes(1, 0), 0);
    CHECK_EQ(bar_artillery_loss_boxes(2, 0), 1);   /* two Field per box */
    CHECK_EQ(bar_artillery_loss_boxes(5, 0), 2);
    CHECK_EQ(bar_artillery_loss_boxes(0, 3), 0);
    CHECK_EQ(bar_artillery_loss_boxes(0, 4), 1);   /* four Light/Regimental */
    CHECK_EQ(bar_artillery_loss_boxes(1, 3), 0);   /* not pooled */
    CHECK_EQ(bar_artillery_loss_boxes(4, 8), 4);
}

static void test_2_4c_leader_loss_value(void)
{
    CHECK_EQ(bar_leader_loss_value(3, false), 3);
    CHECK_EQ(bar_leader_loss_value(3, true), 1);    /* replaced leader's value - 2 */
    CHECK_EQ(bar_leader_loss_value(5, true), 3);
    CHECK_EQ(bar_leader_loss_value(1, true), 0);    /* not below 0 */
}

/* ---- Monmouth 7.4a F: the baggage train raids ------------------------ */
static bar_raid_out raid(int roll, int die, int guard, bar_light l, bool used, bool reroll,
                         int baggage)
{
    bar_raid_in in = {roll, die, guard, l, used, reroll, baggage};
    bar_raid_out out;
    mk_error err = {0};
    CHECK_EQ(bar_baggage_raid(&in, &out, &err), 0);
    return out;
}

static void test_7_4aF_baggage(void)
{
    CHECK_EQ(bar_raid_threshold(BAR_DAY), 80);
    CHECK_EQ(bar_raid_threshold(BAR_DAWN), 70);
    CHECK_EQ(bar_raid_threshold(BAR_DUSK), 70);
    CHECK_EQ(bar_raid_threshold(BAR_MOONLIT), 60);
    CHECK_EQ(bar_raid_threshold(BAR_NIGHT), 50);
    /* ii: the roll less the guard's SPs "equals or exceeds" the number. */
    bar_raid_out o = raid(85, 0, 5, BAR_DAY, false, false, 0);
    CHECK(o.success);
    CHECK_EQ(o.baggage, 1);
    o = raid(85, 0, 6, BAR_DAY, false, false, 0);
    CHECK(!o.success);
    CHECK_EQ(o.baggage, 0);
    o = raid(55, 0, 5, BAR_NIGHT, false, false, 0);
    CHECK(o.success);
    o = raid(54, 0, 5, BAR_NIGHT, false, false, 0);
    CHECK(!o.success);
    o = raid(60, 0, 0, BAR_MOONLIT, false, false, 0);
    CHECK(o.success);
    o = raid(79, 0, 10, BAR_DUSK, false, false, 0);
    CHECK(!o.success);
    o = raid(80, 0, 10, BAR_DUSK, false, false, 0);
    CHECK(o.success);
    /* iv, on the natural roll (AMB-BAR-9). 00: die / 2 down, at least 1. */
    o = raid(0, 0, 8, BAR_NIGHT, false, false, 0);
    CHECK_EQ(o.special, 0);
    CHECK_EQ(o.guard_loss, 1);
    CHECK_EQ(o.baggage, 1);
    CHECK(o.ambush_used);
    o = raid(0, 5, 8, BAR_NIGHT, false, false, 0);
    CHECK_EQ(o.guard_loss, 2);
    CHECK_EQ(o.baggage, 2);
    o = raid(0, 9, 8, BAR_NIGHT, false, false, 0);
    CHECK_EQ(o.guard_loss, 4);
    CHECK_EQ(o.baggage, 4);
    o = raid(0, 9, 1, BAR_NIGHT, false, false, 0);   /* a guard of 1 SP */
    CHECK_EQ(o.guard_loss, 1);
    CHECK_EQ(o.baggage, 4);
    o = raid(0, 9, 8, BAR_NIGHT, true, false, 0);    /* once per game: 01 */
    CHECK_EQ(o.special, 1);
    CHECK_EQ(o.guard_loss, 1);
    CHECK_EQ(o.baggage, 1);
    o = raid(1, 0, 8, BAR_DAY, false, false, 0);     /* 01 Guard Casualties */
    CHECK_EQ(o.guard_loss, 1);
    CHECK_EQ(o.baggage, 1);
    CHECK(!o.ambush_used);
    o = raid(2, 0, 8, BAR_DAY, false, false, 0);     /* 02 Explosion */
    CHECK_EQ(o.baggage, 2);
    CHECK_EQ(o.guard_loss, 0);
    o = raid(3, 0, 8, BAR_DAY, false, false, 0);     /* 03 Successful Raid */
    CHECK_EQ(o.baggage, 1);
    o = raid(4, 0, 8, BAR_DAY, false, false, 0);     /* 04 Raids Intensify */
    CHECK_EQ(o.rerolls, 2);
    CHECK_EQ(o.baggage, 0);
    o = raid(5, 0, 8, BAR_DAY, false, false, 0);     /* 05 Raids Pause */
    CHECK_EQ(o.special, 5);
    CHECK_EQ(o.baggage + o.skip_turns + o.rerolls, 0);
    o = raid(6, 0, 8, BAR_DAY, false, false, 0);
    CHECK_EQ(o.baggage + o.skip_turns + o.rerolls, 0);
    o = raid(7, 0, 8, BAR_DAY, false, false, 0);     /* 07: this turn or next */
    CHECK_EQ(o.skip_turns, 1);
    o = raid(8, 3, 8, BAR_DAY, false, false, 0);     /* 08: a die of turns */
    CHECK_EQ(o.skip_turns, 3);
    o = raid(9, 0, 8, BAR_DAY, false, false, 0);     /* 09 on a Day turn */
    CHECK(o.raids_end);
    o = raid(9, 0, 8, BAR_MOONLIT, false, false, 0);
    CHECK(!o.raids_end);
    /* 04's re-rolls: 01-09 no effect; 00 keeps its effect (AMB-BAR-9). */
    o = raid(3, 0, 8, BAR_DAY, false, true, 0);
    CHECK_EQ(o.special, -1);
    CHECK_EQ(o.baggage, 0);
    o = raid(0, 4, 8, BAR_DAY, false, true, 0);
    CHECK_EQ(o.special, 0);
    CHECK_EQ(o.baggage, 2);
    o = raid(95, 0, 8, BAR_DAY, false, true, 0);
    CHECK(o.success);
    /* iii: no more than 24; checks and guard losses go on. */
    o = raid(2, 0, 8, BAR_DAY, false, false, 23);
    CHECK_EQ(o.baggage, 1);
    o = raid(99, 0, 0, BAR_DAY, false, false, 24);
    CHECK(o.success);
    CHECK_EQ(o.baggage, 0);
    o = raid(1, 0, 8, BAR_DAY, false, false, 24);
    CHECK_EQ(o.guard_loss, 1);
    CHECK_EQ(o.baggage, 0);
    /* ii: from 7:20 PM 28 June, scenario 4 only. */
    CHECK(!bar_raids_on(4, T(28, 19, 0)));
    CHECK(bar_raids_on(4, T(28, 19, 20)));
    CHECK(bar_raids_on(4, T(29, 19, 0)));
    CHECK(!bar_raids_on(4, T(29, 19, 20)));
    CHECK(!bar_raids_on(3, T(28, 20, 0)));
    /* Bad dice are refused. */
    bar_raid_in in = {100, 0, 0, BAR_DAY, false, false, 0};
    bar_raid_out out;
    mk_error err = {0};
    CHECK_EQ(bar_baggage_raid(&in, &out, &err), -1);
    CHECK_STR(err.code, "bad_arg");
    in.roll = 50;
    in.die = 10;
    CHECK_EQ(bar_baggage_raid(&in, &out, &err), -1);
    in.die = 0;
    in.baggage = 25;
    CHECK_EQ(bar_baggage_raid(&in, &out, &err), -1);
}

/* ---- Monmouth 3.2a A, 4.2a A: lines of seniority --------------------- */
static void test_3_2a_4_2a_seniority(void)
{
    static const char *const am[] = {
        "Washington", "Lee",       "Greene",   "Alexander", "Lafayette",  "von Steuben",
        "Maxwell",    "Smallwood", "Poor",     "Glover",    "Paterson",   "Wayne",
        "Woodford",   "Muhlenberg", "Scott",   "Huntington", "Bailey",    "Magaw",
        "Irvine",     "Morgan",    "Johnston", "Grayson",   "Jackson",    "Ferbiger"};
    static const char *const br[] = {"Clinton", "Cornwallis", "Knyphausen", "Grey",
                                     "Stirn",   "Grant",      "Mathew",     "Leslie",
                                     "Kospoth", "Loos",       "Wurmb"};
    CHECK_EQ(bar_seniority_count(BAR_AMERICAN), 24);
    CHECK_EQ(bar_seniority_count(BAR_BRITISH), 11);
    int ok = 1;
    for (int i = 0; i < 24; i++)
        ok &= bar_seniority(BAR_AMERICAN, am[i]) == i;
    for (int i = 0; i < 11; i++)
        ok &= bar_seniority(BAR_BRITISH, br[i]) == i;
    CHECK(ok);
    CHECK_EQ(bar_seniority(BAR_AMERICAN, "Dickinson"), -1);   /* 3.2a A */
    CHECK_EQ(bar_seniority(BAR_AMERICAN, "Febiger"), 23);     /* AMB-BAR-16 */
    CHECK_EQ(bar_seniority(BAR_AMERICAN, "Clark"), -1);
    CHECK_EQ(bar_seniority(BAR_AMERICAN, "du Plessis-Mauduit"), -1);
    CHECK_EQ(bar_seniority(BAR_AMERICAN, "Knox"), -1);
    CHECK_EQ(bar_seniority(BAR_BRITISH, "Pattison"), -1);
    CHECK_EQ(bar_seniority(BAR_BRITISH, "Washington"), -1);
    CHECK_EQ(bar_seniority(BAR_AMERICAN, "washington"), 0);   /* case ignored */
    CHECK(bar_seniority_name(BAR_AMERICAN, 24) == NULL);
}

/* ---- Monmouth 3.2a B-C, 4.2a B-C: succession ------------------------- */
static void test_3_2a_4_2a_succession(void)
{
    /* B: the most senior American leader; Dickinson never (3.2a A). */
    bar_cand army[] = {
        {"Dickinson", BAR_ROLE_COMMAND, 9, true},
        {"Lafayette", BAR_ROLE_COMMAND, 2, true},
        {"Alexander", BAR_ROLE_WING, 1, true},
        {"Greene", BAR_ROLE_WING, 2, true},
    };
    CHECK_EQ(bar_army_successor(BAR_AMERICAN, army, 4), 3);   /* Greene */
    army[3].available = false;   /* wounded / off map (AMB-BAR-17) */
    CHECK_EQ(bar_army_successor(BAR_AMERICAN, army, 4), 2);   /* Alexander */
    CHECK_EQ(bar_army_successor(BAR_AMERICAN, army, 1), -1);  /* only Dickinson */
    bar_cand brit[] = {
        {"Knyphausen", BAR_ROLE_WING, 2, true},
        {"Grey", BAR_ROLE_COMMAND, 1, true},
        {"Cornwallis", BAR_ROLE_WING, 1, true},
    };
    CHECK_EQ(bar_army_successor(BAR_BRITISH, brit, 3), 2);    /* Cornwallis */
    /* C: a Wing leader's successor: Special or Command leader of his Wing. */
    bar_cand wing[] = {
        {"Knox", BAR_ROLE_SPECIAL, -1, true},
        {"du Plessis-Mauduit", BAR_ROLE_SPECIAL, 2, true},   /* unranked */
        {"Muhlenberg", BAR_ROLE_COMMAND, 2, true},
        {"Woodford", BAR_ROLE_COMMAND, 2, true},
        {"Scott", BAR_ROLE_COMMAND, 1, true},                  /* other wing */
        {"Alexander", BAR_ROLE_WING, 1, true},
    };
    CHECK_EQ(bar_wing_successor(BAR_AMERICAN, 2, wing, 6), 3);   /* Woodford */
    wing[3].available = false;
    CHECK_EQ(bar_wing_successor(BAR_AMERICAN, 2, wing, 6), 2);   /* Muhlenberg */
    bar_cand steuben[] = {
        {"Woodford", BAR_ROLE_COMMAND, 2, true},
        {"von Steuben", BAR_ROLE_SPECIAL, 2, true},
    };
    CHECK_EQ(bar_wing_successor(BAR_AMERICAN, 2, steuben, 2), 1);   /* a Special Leader */
    /* 4.2a C: British, Command Leaders only. */
    bar_cand corn[] = {
        {"Pattison", BAR_ROLE_SPECIAL, 1, true},
        {"Leslie", BAR_ROLE_COMMAND, 1, true},
        {"Grant", BAR_ROLE_COMMAND, 1, true},
        {"Grey", BAR_ROLE_COMMAND, 1, true},
        {"Stirn", BAR_ROLE_COMMAND, 2, true},
    };
    CHECK_EQ(bar_wing_successor(BAR_BRITISH, 1, corn, 5), 3);   /* Grey */
    corn[3].available = false;
    CHECK_EQ(bar_wing_successor(BAR_BRITISH, 1, corn, 5), 2);   /* Grant */
    /* A ranked British Special Leader is still not a Wing successor. */
    bar_cand sp[] = {{"Clinton", BAR_ROLE_SPECIAL, 1, true}, {"Loos", BAR_ROLE_COMMAND, 1, true}};
    CHECK_EQ(bar_wing_successor(BAR_BRITISH, 1, sp, 2), 1);
    CHECK_EQ(bar_wing_successor(BAR_BRITISH, 1, sp, 1), -1);
    /* Who can be replaced. */
    CHECK(!bar_leader_replaceable(BAR_AMERICAN, "Wayne"));
    CHECK(!bar_leader_replaceable(BAR_AMERICAN, "von Steuben"));
    CHECK(!bar_leader_replaceable(BAR_AMERICAN, "Knox"));
    CHECK(!bar_leader_replaceable(BAR_AMERICAN, "du Plessis-Mauduit"));
    CHECK(bar_leader_replaceable(BAR_AMERICAN, "Greene"));
    CHECK(!bar_leader_replaceable(BAR_BRITISH, "Pattison"));
    CHECK(bar_leader_replaceable(BAR_BRITISH, "Clinton"));
    /* B: replacement Army Leader WAN 9, Command Rating +1; Lee +0. */
    int wan = 0, cr = 0;
    bar_replacement_army_leader(BAR_AMERICAN, "Greene", &wan, &cr);
    CHECK_EQ(wan, 9);
    CHECK_EQ(cr, 1);
    bar_replacement_army_leader(BAR_AMERICAN, "Lee", &wan, &cr);
    CHECK_EQ(wan, 9);
    CHECK_EQ(cr, 0);
    bar_replacement_army_leader(BAR_BRITISH, "Cornwallis", &wan, &cr);
    CHECK_EQ(wan, 9);
    CHECK_EQ(cr, 1);
}

/* ---- Monmouth 2.4b: Leader Loss counters ----------------------------- */
static int write_tmp(char *path, size_t n, const char *text)
{
    snprintf(path, n, "/tmp/test_bar_rules_XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0)
        return -1;
    FILE *f = fdopen(fd, "w");
    if (!f)
        return -1;
    fputs(text, f);
    fclose(f);
    return 0;
}

static void load_fails(const char *text, const char *needle)
{
    char path[64];
    bar_loss_counters lc;
    mk_error err = {0};
    CHECK_EQ(write_tmp(path, sizeof path, text), 0);
    CHECK_EQ(bar_loss_counters_load(&lc, path, &err), -1);
    CHECK_STR(err.code, "scenario_invalid");
    CHECK(strstr(err.msg, needle) != NULL);
    if (!strstr(err.msg, needle))
        fprintf(stderr, "  message was: %s\n", err.msg);
    CHECK(strstr(err.msg, path) != NULL);   /* the message names the file */
    CHECK_EQ(lc.n[0] + lc.n[1], 0);
    unlink(path);
}

static void test_2_4b_loss_counters(void)
{
    CHECK_EQ(bar_loss_counter_set(BAR_AMERICAN, "Dickinson", false), 'B');
    CHECK_EQ(bar_loss_counter_set(BAR_AMERICAN, "Maxwell", true), 'B');   /* his successor */
    CHECK_EQ(bar_loss_counter_set(BAR_AMERICAN, "Maxwell", false), 'A');
    CHECK_EQ(bar_loss_counter_set(BAR_BRITISH, "Grey", false), 'A');
    /* B: EM on ER bonus (not above 0), IR (not below 0), CM (not below 0). */
    bar_loss_counter c = {"x", 1, -1, 0};
    bar_leader_values v = bar_apply_loss_counter((bar_leader_values){-2, 3, 1}, &c);
    CHECK_EQ(v.er_bonus, -1);
    CHECK_EQ(v.initiative, 2);
    CHECK_EQ(v.cv_bonus, 1);
    bar_loss_counter worse = {"y", 2, -2, -1};
    v = bar_apply_loss_counter((bar_leader_values){-1, 1, 0}, &worse);
    CHECK_EQ(v.er_bonus, 0);
    CHECK_EQ(v.initiative, 0);
    CHECK_EQ(v.cv_bonus, 0);
    /* The data file (values are estimates, and says so). */
    bar_loss_counters lc;
    mk_error err = {0};
    CHECK_EQ(bar_loss_counters_load(&lc, NULL, &err), 0);
    if (err.code)
        fprintf(stderr, "  %s\n", err.msg);
    CHECK(lc.estimate);
    CHECK(lc.n[0] > 0 && lc.n[1] > 0);
    int floors_ok = 1;
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < lc.n[s]; i++) {
            v = bar_apply_loss_counter((bar_leader_values){-3, 0, 0}, &lc.set[s][i]);
            floors_ok &= v.er_bonus <= 0 && v.initiative >= 0 && v.cv_bonus >= 0;
        }
    CHECK(floors_ok);
    CHECK_STR(lc.set[0][0].id, "A1");
    /* Clear errors. */
    CHECK_EQ(bar_loss_counters_load(&lc, "/nonexistent/lc.json", &err), -1);
    CHECK(strstr(err.msg, "/nonexistent/lc.json") != NULL);
    load_fails("[1, 2]", "an object needed");
    load_fails("{\"A\": [], \"B\": []}", "estimate");
    load_fails("{\"estimate\": true, \"B\": []}", "A: an array");
    load_fails("{\"estimate\": true, \"A\": [{\"id\": \"A1\", \"em\": 0, \"ir\": 0, \"cm\": 0}],"
               " \"B\": [{\"id\": \"B1\", \"em\": 9, \"ir\": 0, \"cm\": 0}]}",
               "B[0].em");
    load_fails("{\"estimate\": true, \"A\": [{\"id\": \"A1\", \"em\": 0, \"cm\": 0}], \"B\": []}",
               "A[0].ir");
    load_fails("{\"estimate\": true, \"A\": [{\"id\": \"much_too_long\"}], \"B\": []}", "A[0]");
    load_fails("{\"estimate\": true, \"estimate\": false}", "duplicate");
    load_fails("{\"estimate\": tru", "1:");
}

/* ---- Monmouth 2.6b: rifle leader sniping, 6.6e wounds ---------------- */
static void test_2_6b_sniping(void)
{
    CHECK_EQ(bar_snipe_need(1), 91);
    CHECK_EQ(bar_snipe_need(2), 94);
    CHECK_EQ(bar_snipe_need(3), 97);
    CHECK_EQ(bar_snipe_need(0), -1);
    CHECK_EQ(bar_snipe_need(4), -1);   /* "within 3 hexes" */
    bar_snipe_result r;
    static const int lo[4] = {0, 91, 94, 97};
    for (int range = 1; range <= 3; range++) {
        CHECK_EQ(bar_snipe(range, lo[range] - 1, 0, &r), 0);
        CHECK_EQ(r, BAR_SNIPE_MISS);
        CHECK_EQ(bar_snipe(range, lo[range], 0, &r), 0);
        CHECK_EQ(r, BAR_SNIPE_KILLED);
        CHECK_EQ(bar_snipe(range, 99, 4, &r), 0);
        CHECK_EQ(r, BAR_SNIPE_KILLED);     /* 0-4 killed */
        CHECK_EQ(bar_snipe(range, 99, 5, &r), 0);
        CHECK_EQ(r, BAR_SNIPE_WOUNDED);    /* 5-9 wounded */
        CHECK_EQ(bar_snipe(range, 99, 9, &r), 0);
        CHECK_EQ(r, BAR_SNIPE_WOUNDED);
        CHECK_EQ(bar_snipe(range, 0, 0, &r), 0);   /* 00 is the lowest roll */
        CHECK_EQ(r, BAR_SNIPE_MISS);
    }
    CHECK_EQ(bar_snipe(4, 99, 0, &r), -1);
    CHECK_EQ(bar_snipe(1, 100, 0, &r), -1);
    CHECK_EQ(bar_snipe(1, 95, 10, &r), -1);
    CHECK_EQ(bar_snipe(1, 50, 10, &r), 0);   /* a miss reads no second die */
    /* AMB-BAR-14: 1 hex at Night. */
    CHECK_EQ(bar_snipe_max_range(BAR_NIGHT), 1);
    CHECK_EQ(bar_snipe_max_range(BAR_MOONLIT), 3);
    CHECK_EQ(bar_snipe_max_range(BAR_DAY), 3);
    /* 6.6e: half the die (rounded, .5 up; AMB-BAR-8). */
    CHECK_EQ(bar_wound_turns(0), 0);
    CHECK_EQ(bar_wound_turns(1), 1);
    CHECK_EQ(bar_wound_turns(2), 1);
    CHECK_EQ(bar_wound_turns(3), 2);
    CHECK_EQ(bar_wound_turns(9), 5);
}

/* ---- Monmouth 3.2b G iv-vi, 3.4a: Lee's Out of Command table --------- */
static void test_3_2bG_lee_out_of_command(void)
{
    bar_ooc_effect e;
    for (int d = 0; d <= 1; d++) {
        CHECK_EQ(bar_lee_ooc(d, 5, BAR_ROUT_NONE, &e), 0);
        CHECK_EQ(e.kind, BAR_OOC_NONE);
        CHECK_EQ(e.mp, -1);
    }
    for (int d = 2; d <= 3; d++) {
        CHECK_EQ(bar_lee_ooc(d, 5, BAR_ROUT_NONE, &e), 0);
        CHECK_EQ(e.kind, BAR_OOC_HALF_MP);
        CHECK_EQ(e.mp, 3);   /* half of 5, rounded */
    }
    bar_lee_ooc(2, 4, BAR_ROUT_NONE, &e);
    CHECK_EQ(e.mp, 2);
    for (int d = 4; d <= 5; d++) {
        bar_lee_ooc(d, 5, BAR_ROUT_NONE, &e);
        CHECK_EQ(e.kind, BAR_OOC_LIMITED);
    }
    for (int d = 6; d <= 7; d++) {
        bar_lee_ooc(d, 5, BAR_ROUT_NONE, &e);
        CHECK_EQ(e.kind, BAR_OOC_NO_MP);
        CHECK_EQ(e.mp, 0);
    }
    for (int d = 8; d <= 9; d++) {
        bar_lee_ooc(d, 5, BAR_ROUT_NONE, &e);
        CHECK_EQ(e.kind, BAR_OOC_ROUT);
        CHECK_EQ(e.rout, BAR_ROUT_VOLUNTARY);
        CHECK_EQ(e.rout_hexes, 8);
    }
    bar_lee_ooc(8, 5, BAR_ROUT_VOLUNTARY, &e);
    CHECK_EQ(e.rout, BAR_ROUT_INVOLUNTARY);
    CHECK_EQ(e.rout_hexes, 8);
    bar_lee_ooc(9, 5, BAR_ROUT_INVOLUNTARY, &e);
    CHECK_EQ(e.rout, BAR_ROUT_INVOLUNTARY);
    CHECK_EQ(e.rout_hexes, 8);
    bar_lee_ooc(3, 5, BAR_ROUT_VOLUNTARY, &e);
    CHECK_EQ(e.rout, BAR_ROUT_VOLUNTARY);   /* other results leave it */
    CHECK_EQ(bar_lee_ooc(10, 5, BAR_ROUT_NONE, &e), -1);
    CHECK_EQ(bar_lee_ooc(-1, 5, BAR_ROUT_NONE, &e), -1);
    /* vi: scenario 1 until the Noon turn begins; 3 and 4 until relieved. */
    CHECK(bar_lee_ooc_applies(1, T(28, 11, 40), false));
    CHECK(!bar_lee_ooc_applies(1, T(28, 12, 0), false));
    CHECK(bar_lee_ooc_applies(3, T(28, 16, 0), false));
    CHECK(!bar_lee_ooc_applies(3, T(28, 16, 0), true));
    CHECK(bar_lee_ooc_applies(4, T(29, 10, 0), false));
    CHECK(!bar_lee_ooc_applies(2, T(28, 16, 0), false));
    CHECK(!bar_lee_ooc_applies(1, T(28, 14, 0), false));   /* after scenario 1 */
    /* 3.4a: no American Voluntary Rout before the 10:20 AM British
     * reinforcements enter or the 10:40 AM turn. */
    CHECK(!bar_american_vol_rout_allowed(1, T(28, 10, 0), false));
    CHECK(!bar_american_vol_rout_allowed(3, T(28, 10, 20), false));
    CHECK(bar_american_vol_rout_allowed(4, T(28, 10, 20), true));
    CHECK(bar_american_vol_rout_allowed(1, T(28, 10, 40), false));
    CHECK(bar_american_vol_rout_allowed(2, T(28, 15, 0), false));
}

int main(void)
{
    test_1_2d_turn_clock();
    test_2_7a_light();
    test_2_8a_heat();
    test_7_1a_end_turn();
    test_7_2a_end_turn();
    test_7_3a_end_turn();
    test_7_4a_end_turn();
    test_5_2g_road();
    test_2_3d_charge_range();
    test_2_7bcd_fire();
    test_2_7cd_dark_move();
    test_2_8bcd_heat_modifiers();
    test_7_1d_victory();
    test_7_2d_victory();
    test_7_3d_victory();
    test_7_4d_victory();
    test_2_2dH_artillery_losses();
    test_2_4c_leader_loss_value();
    test_7_4aF_baggage();
    test_3_2a_4_2a_seniority();
    test_3_2a_4_2a_succession();
    test_2_4b_loss_counters();
    test_2_6b_sniping();
    test_3_2bG_lee_out_of_command();
    return check_done("test_bar_rules");
}
