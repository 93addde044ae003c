/* clock.c - Monmouth's time: the 20-minute turn (Monmouth 1.2d) as an index
 * over 28 and 29 June, the light conditions (2.7), Heat (2.8), each
 * scenario's turns and End Turn Numbers (7.1a-7.4a), road movement rates
 * (5.2g) and the light's limits on charge and fire range (2.3d, 2.7).
 * Pure functions: no state, no allocation. */
#include <stdio.h>

#include "bar.h"

int bar_half_rounded(int x)
{
    /* AMB-BAR-8: .5 rounds up (6.6e's "roll of 0" clause implies a roll
     * of 1 gives at least one turn). */
    return x < 0 ? -bar_half_rounded(-x) : (x + 1) / 2;
}

int bar_turn_of(int day, int hour, int minute)
{
    if ((day != 28 && day != 29) || hour < 0 || hour > 23 || minute < 0 || minute > 40 ||
        minute % 20 != 0)
        return -1;
    return (day - 28) * BAR_TURNS_PER_DAY + hour * 3 + minute / 20;
}

int bar_turn_time(int turn, bar_time *out)
{
    if (turn < 0 || turn >= BAR_NTURNS)
        return -1;
    int s = turn % BAR_TURNS_PER_DAY;
    out->day = (int8_t)(28 + turn / BAR_TURNS_PER_DAY);
    out->hour = (int8_t)(s / 3);
    out->minute = (int8_t)(s % 3 * 20);
    return 0;
}

int bar_turn_format(int turn, char *buf, size_t n)
{
    bar_time t;
    if (bar_turn_time(turn, &t))
        return -1;
    int h12 = t.hour % 12 == 0 ? 12 : t.hour % 12;
    return snprintf(buf, n, "%d:%02d %s %d June", h12, t.minute, t.hour < 12 ? "AM" : "PM",
                    t.day);
}

/* Monmouth 2.7 A. Slots of the day: 4:40 AM = 14, 5:00 AM = 15, 6:40 PM
 * = 56, 7:00 PM = 57, 7:20 PM = 58, 10:40 PM = 68, 11:00 PM = 69, 4:20 AM
 * = 13. The five bounds cover the whole day with no gap or overlap. */
bar_light bar_light_of(int turn)
{
    int s = ((turn % BAR_TURNS_PER_DAY) + BAR_TURNS_PER_DAY) % BAR_TURNS_PER_DAY;
    if (s == 14)
        return BAR_DAWN;
    if (s >= 15 && s <= 56)
        return BAR_DAY;
    if (s == 57)
        return BAR_DUSK;
    if (s >= 58 && s <= 68)
        return BAR_MOONLIT;
    return BAR_NIGHT;   /* 11:00 PM through 4:20 AM */
}

const char *bar_light_name(bar_light l)
{
    static const char *const names[] = {"day", "dawn", "dusk", "moonlit", "night"};
    return (unsigned)l < 5 ? names[l] : "?";
}

/* Monmouth 2.8 A: Noon (slot 36) to 4:40 PM (slot 50) inclusive. The
 * rule names no date; we apply it on 29 June too (AMB-BAR-10): it is a
 * General Special Rule, and 7.4a C exempts mounting and dismounting, which
 * exist only from 5:00 AM 29 June, from the Heat check - an exemption
 * that would be void if there were no Heat on 29 June. */
bool bar_is_heat(int turn)
{
    if (turn < 0 || turn >= BAR_NTURNS)
        return false;
    int s = turn % BAR_TURNS_PER_DAY;
    return s >= 36 && s <= 50;
}

/* 7.1a A, 7.2a A, 7.3a A, 7.4a A. */
int bar_scenario_first_turn(int scenario)
{
    switch (scenario) {
    case 1: case 3: case 4: return 30;   /* 10:00 AM 28 June */
    case 2: return 45;                   /* 3:00 PM 28 June */
    default: return -1;
    }
}

int bar_scenario_last_turn(int scenario)
{
    switch (scenario) {
    case 1: return 39;                   /* 1:00 PM 28 June */
    case 2: case 3: return 69;           /* 11:00 PM 28 June */
    case 4: return BAR_TURNS_PER_DAY + 57;   /* 7:00 PM 29 June */
    default: return -1;
    }
}

/* 7.1d A: end of 1:00 PM; 7.2d A, 7.3d A: end of 11:00 PM (or earlier,
 * when no British unit is left on the map: the caller's to see). 7.4d A
 * says 11:00 PM, but scenario 4 runs to 7:00 PM 29 June: we read the end
 * of the scenario (AMB-BAR-6; the text was copied from 7.3d). */
int bar_scenario_victory_turn(int scenario)
{
    return bar_scenario_last_turn(scenario);
}

/* End Turn Numbers. 7.3a A and 7.4a A: 7 from 10:00 AM to 12:00 PM (slots
 * 30-36), 8 from 12:20 PM to 2:40 PM (37-44), 9 from 3:00 PM (45). 7.4a A:
 * 9 "until 12:00 AM (midnight)": the midnight turn (turn 72, calendar 29
 * June) keeps 9 and 13 starts at 12:20 AM (turn 73) (AMB-BAR-12). */
int bar_end_turn_number(int scenario, int turn)
{
    int first = bar_scenario_first_turn(scenario), last = bar_scenario_last_turn(scenario);
    if (first < 0 || turn < first || turn > last)
        return -1;
    switch (scenario) {
    case 1: return 7;
    case 2: return 9;
    default:
        if (turn <= 36)
            return 7;
        if (turn <= 44)
            return 8;
        if (turn <= BAR_TURNS_PER_DAY)
            return 9;
        return 13;   /* scenario 4 only: 12:20 AM 29 June on */
    }
}

/* Monmouth 5.2g: 3 major road hexes per 1/2 MP, 2 minor, 2 when one 1/2
 * MP traverses both kinds; at Night 1/2 MP per road hex whatever the kind. */
int bar_road_hexes_per_half_mp(int kinds, bool night)
{
    if (kinds <= 0 || kinds > (BAR_ROAD_MAJOR | BAR_ROAD_MINOR))
        return 0;
    if (night)
        return 1;
    return kinds == BAR_ROAD_MAJOR ? 3 : 2;
}

/* Monmouth 5.2g, hex by hex: see bar.h. */
int bar_road_step(int *run, int kind, bool night)
{
    int used = *run & 3, kinds = (*run >> 2 & 3) | kind;
    if (used > 0 && used + 1 <= bar_road_hexes_per_half_mp(kinds, night)) {
        *run = (used + 1) | kinds << 2;
        return 0;
    }
    *run = 1 | kind << 2;   /* a new 1/2 MP */
    return 1;
}

/* 2.3d: 2 hexes; Moonlit 1; Night adjacent units only (0 hexes moved:
 * 2.3e calls a charge from or into woods, which can still be made, a
 * charge range of zero). */
int bar_charge_range(bar_light l, bool woods)
{
    if (woods || l == BAR_NIGHT)
        return 0;
    return l == BAR_MOONLIT ? 1 : 2;
}

bool bar_pursuit_allowed(bar_light l, bool target_in_woods)
{
    return l != BAR_NIGHT && !target_in_woods;   /* 2.3d, 2.7 D; 2.3e */
}

/* 2.7 D: Night, 1 hex for all units; 2.7 C: Moonlit artillery, 5 hexes. */
int bar_fire_range_limit(bar_light l, bool artillery)
{
    if (l == BAR_NIGHT)
        return 1;
    if (l == BAR_MOONLIT && artillery)
        return 5;
    return BAR_RANGE_CHART;
}

/* 2.7 B: Dawn and Dusk, beyond 5 hexes. 2.7 C: Moonlit "also uses the
 * smaller multiplier in brackets but cannot fire over 5 hexes": read as
 * brackets at every range, since with the Dawn/Dusk "beyond 5" condition
 * the clause would have no effect at all (AMB-BAR-13). Nothing is said
 * for Night (range 1): no brackets. */
bool bar_artillery_bracketed(bar_light l, int range)
{
    if (l == BAR_DAWN || l == BAR_DUSK)
        return range > 5;
    return l == BAR_MOONLIT;
}

bool bar_artillery_halved(int turn)
{
    return bar_is_heat(turn);   /* 2.8 F */
}

/* 2.7 C-D: "more than half (rounded) of its MPs": spent > half-up(ma). */
int bar_dark_move_check(bar_light l, int ma, int spent_half_mp, bool road_only)
{
    if ((l != BAR_MOONLIT && l != BAR_NIGHT) || road_only)
        return 0;
    if (spent_half_mp <= 2 * bar_half_rounded(ma))
        return 0;
    return l == BAR_NIGHT ? 10 : 5;
}

/* 2.8 B. "+1 for each MP (or fraction thereof)": 1/2 MP counts 1. An
 * American unit is counted per MP whatever its type (dismounted American
 * cavalry of 7.4a C included: the text names "an American unit"). */
int bar_heat_mp_modifier(int side, bar_heat_class c, int spent_half_mp)
{
    if (spent_half_mp <= 0)
        return 0;
    if (side == BAR_AMERICAN || c == BAR_HEAT_MOUNTED_CAV)
        return (spent_half_mp + 1) / 2;
    return spent_half_mp;
}

/* 2.8 C-D: American +1 per 2 hexes (rounded: 1 hex counts 1, AMB-BAR-8),
 * British +1 per hex. */
int bar_heat_hex_modifier(int side, int hexes)
{
    if (hexes <= 0)
        return 0;
    return side == BAR_AMERICAN ? bar_half_rounded(hexes) : hexes;
}
