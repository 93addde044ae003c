/* bar.h - The Battle of Monmouth for Battles from the Age of Reason (BAR):
 * the declarations shared by the files of rules/bar (one file per part of
 * the Monmouth exclusive rulebook, /work/shared/rules/
 * monmouth-bar-exclusive-rules.txt).
 *
 * What is here are the pure, self-contained parts (the turn clock, the
 * map and line of sight, the order of battle and the scenarios' set-ups,
 * the charts, leaders, victory); the game itself (state, legal, apply)
 * is declared in bar_int.h. docs/bar.md maps the rule sections to the
 * functions and lists our readings of unclear text (AMB-BAR-*) and every
 * estimate. */
#ifndef BAR_H
#define BAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"

/* ======================================================================
 * map.c, los.c (barmap): the Monmouth map (hex and hexside terrain,
 * elevation, roads) and the 5.4b line-of-sight procedure.
 * docs/scenario-format.md "Battles from the Age of Reason" gives the JSON.
 * ====================================================================== */

#include "core/hex.h"

struct json_t;

/* Monmouth 5.2: the terrain of a hex (one per hex). Buildings, streams and
 * roads in a hex are features on top of it (BAR_HF_*). */
typedef enum {
    BAR_T_OPEN = 0,      /* 5.2a; the default */
    BAR_T_GRADE,         /* 5.2b */
    BAR_T_ORCHARD,       /* 5.2c: blocks LOS */
    BAR_T_WOODS,         /* 5.2d: blocks LOS */
    BAR_T_MARSH,         /* 5.2e */
    BAR_T_MARSH_WOODS,   /* 5.2d-e: marsh for movement, woods for LOS */
    BAR_T_LAKE,          /* 5.2i: the Mill Pond */
    BAR_NTERRAIN
} bar_terrain;

/* Features of a hex (bits). Road hexes follow from the road hexsides. */
enum {
    BAR_HF_BUILDING = 1 << 0,     /* 5.2f: no effect on play */
    BAR_HF_STREAM = 1 << 1,       /* 5.2h: no effect on play */
    BAR_HF_MAJOR_ROAD = 1 << 2,   /* 5.2g: a major road enters the hex */
    BAR_HF_MINOR_ROAD = 1 << 3,   /* 5.2g: a minor road enters the hex */
};

/* Terrain of a hexside (bits; a hexside may have several, e.g. creek and
 * bridge), and the road crossing it (5.2g: roads run hex to hex). */
enum {
    BAR_HS_BRIDGE = 1 << 0,          /* 5.3a */
    BAR_HS_CREEK = 1 << 1,           /* 5.3b */
    BAR_HS_HEDGEROW = 1 << 2,        /* 5.3c */
    BAR_HS_REGULAR_SLOPE = 1 << 3,   /* 5.3d */
    BAR_HS_GENTLE_SLOPE = 1 << 4,    /* 5.3e */
    BAR_HS_LAKE = 1 << 5,            /* 5.2i: more than half water */
    BAR_HS_STREAM = 1 << 6,          /* 5.2h */
    BAR_HS_NTERRAIN = 7,
    BAR_HS_MAJOR_ROAD = 1 << 7,      /* 5.2g */
    BAR_HS_MINOR_ROAD = 1 << 8,
};

#define BAR_MAX_LEVEL 30     /* elevation levels 0..30 (25-foot contours, 5.4a A) */
#define BAR_EDGE_OPEN (-1)   /* edge_elevation not given: unknown ground */

/* The map: plain data, no pointers; about 55 KiB, so keep it static or in
 * the (read-only, shared) scenario, not in game states. */
typedef struct bar_map {
    mk_grid grid;                       /* flat-topped; sheets W, E */
    uint8_t terrain[MK_MAX_HEX];        /* bar_terrain */
    uint8_t features[MK_MAX_HEX];       /* BAR_HF_* */
    int8_t elevation[MK_MAX_HEX];       /* 5.4a A: one level per hex, 0 by default */
    int8_t edge_elevation[4];           /* by MK_EDGE_*: the ground beyond that edge,
                                         * or BAR_EDGE_OPEN */
    uint16_t side[MK_MAX_HEX][3];       /* BAR_HS_* of each hex's sides in
                                         * directions 0-2 (NE, SE, S); the other
                                         * three belong to the neighbours */
} bar_map;

/* Names as in the JSON ("marsh/woods", "regular slope"), NULL if unknown. */
extern const char *const bar_terrain_names[BAR_NTERRAIN];
const char *bar_terrain_name(int t);
int bar_terrain_parse(const char *name);   /* -1 if unknown */
/* The name of one BAR_HS_* terrain bit (not roads), NULL otherwise. */
const char *bar_hexside_name(int bit);

/* Parses and checks the map object of a scenario (the "terrain",
 * "features", "elevation", "edge_elevation", "hexsides" and "roads"
 * fields; orientation, sheets and rows are core's, given here as g).
 * Returns 0, or -1 with err ("scenario_invalid", "map.hexsides.W1725/
 * W1726: ...": the JSON path, then what is wrong and the value). */
int bar_map_parse(bar_map *m, const mk_grid *g, struct json_t *map, mk_error *err);

/* BAR_HS_* bits of the hexside between adjacent hexes a and b; 0 if none
 * or not adjacent. */
unsigned bar_hexside(const bar_map *m, mk_hex a, mk_hex b);
/* 5.2g: BAR_ROAD_MAJOR or BAR_ROAD_MINOR if a road crosses from a to b,
 * else 0. */
int bar_road(const bar_map *m, mk_hex a, mk_hex b);
/* "E3011/E3111" (the lower index first) into buf of at least
 * BAR_HEXSIDE_LABEL_MAX bytes; returns buf. */
#define BAR_HEXSIDE_LABEL_MAX (2 * MK_HEX_LABEL_MAX)
char *bar_hexside_label(const mk_grid *g, mk_hex a, mk_hex b, char *buf);
/* 5.2c, 5.2d: orchard, woods and marsh/woods block LOS; open, grade,
 * marsh and lake do not. */
bool bar_terrain_blocks_los(int terrain);

/* --- los.c: Monmouth 5.4b ----------------------------------------------
 * Where a unit is on an elevation feature, as seen by the other unit. */
typedef enum {
    BAR_SLOPE_OFF = 0,   /* not on this feature */
    BAR_SLOPE_FORWARD,   /* 5.4b A2: between the crest/hilltop and the
                          * intersection hex nearer the other unit */
    BAR_SLOPE_REVERSE,   /* beyond the crest/hilltop from the other unit */
    BAR_SLOPE_HILLTOP,   /* on the hilltop hex: neither */
} bar_slope;

/* An elevation feature the line crosses: a pair of intersection hexes of
 * one contour line (5.4b A1) and its crest or hilltop (A2). */
typedef struct bar_los_feature {
    int8_t level;          /* the contour: hexes at this level or higher */
    bool crest;            /* even count: a crest hexside; odd: a hilltop */
    int16_t count;         /* the LOS's hexes between the pair, inclusive */
    mk_hex first, last;    /* the intersection hexes, in order from `from` */
    mk_hex top, top2;      /* hilltop hex (top2: MK_NO_HEX, or the other hex
                            * of a hilltop the line runs along a spine of);
                            * crest: the hexside between top and top2 */
    int8_t slope[2];       /* bar_slope of the `from` unit, of the `to` unit */
} bar_los_feature;

typedef enum {
    BAR_LOS_CLEAR = 0,
    BAR_LOS_TERRAIN,   /* 5.4b B: blocking terrain in hex (spine: hex and hex2) */
    BAR_LOS_UNIT,      /* 5.4b B: a combat unit in hex (spine: hex and hex2) */
    BAR_LOS_HILLTOP,   /* 5.4b B, A3: the hilltop hex of feature */
    BAR_LOS_CREST,     /* 5.4b B, A3: the crest hexside hex/hex2 of feature */
} bar_los_why;

#define BAR_LOS_MAX_FEATURES 16
#define BAR_LOS_MAX_POS 1024   /* hexes and spines kept along an extended line */

typedef struct bar_los_result {
    bool clear;
    bar_los_why why;             /* the first blocker in order from `from` */
    mk_hex hex, hex2;            /* where (hex2: MK_NO_HEX, or the other hex of a
                                  * spine or of a crest hexside) */
    int feature;                 /* HILLTOP/CREST: index in features, else -1 */
    bool crest_adjacent;         /* a crest hexside both units are adjacent to
                                  * was let through (5.4b B exception) */
    int nfeatures;               /* features between the units or that they
                                  * are on (5.4b A3), in order from `from` */
    bar_los_feature features[BAR_LOS_MAX_FEATURES];
} bar_los_result;

/* Does hex h hold a combat unit (5.4b B; leaders do not block)? */
typedef bool (*bar_unit_fn)(mk_hex h, const void *ctx);

/* A ready-made bar_unit_fn over a plain list of pieces: ctx is a
 * bar_los_units; a piece blocks unless it is a leader. */
typedef struct bar_los_piece {
    mk_hex hex;
    bool leader;
} bar_los_piece;
typedef struct bar_los_units {
    int n;
    const bar_los_piece *piece;
} bar_los_units;
bool bar_los_units_block(mk_hex h, const void *ctx);

/* Monmouth 5.4b: line of sight between units in hexes from and to (units
 * may be NULL: no unit blocks). Returns 0 with out filled (out->clear),
 * or -1 with err ("bad_arg") for a hex off the map or a line longer than
 * BAR_LOS_MAX_POS steps. */
int bar_los(const bar_map *m, mk_hex from, mk_hex to, bar_unit_fn units, const void *ctx,
            bar_los_result *out, mk_error *err);

/* ======================================================================
 * clock.c, victory.c, leaders.c (turn clock, light, heat, End Turn
 * Numbers, road rates; victory; leaders)
 * ====================================================================== */

/* Sides. */
enum { BAR_AMERICAN = 0, BAR_BRITISH = 1 };

/* --- clock.c ----------------------------------------------------------
 * A turn is a 20-minute slot (Monmouth 1.2d) counted from 12:00 AM
 * (midnight) at the start of 28 June: turn 0 = 12:00 AM 28 June, turn 30
 * = 10:00 AM 28 June, turn 72 = 12:00 AM 29 June, turn 129 = 7:00 PM
 * 29 June (the last turn of scenario 4). */
#define BAR_TURNS_PER_DAY 72
#define BAR_NTURNS (2 * BAR_TURNS_PER_DAY)   /* 28 and 29 June */

typedef struct bar_time {
    int8_t day;      /* 28 or 29 (June) */
    int8_t hour;     /* 0-23 */
    int8_t minute;   /* 0, 20 or 40 */
} bar_time;

/* Turn of a date and time; -1 if day is not 28/29, the time is not a
 * 20-minute mark or out of range. */
int bar_turn_of(int day, int hour, int minute);
/* Date and time of a turn; -1 if turn is out of 0..BAR_NTURNS-1. */
int bar_turn_time(int turn, bar_time *out);
/* "10:00 AM 28 June" into buf; returns snprintf's count, -1 on a bad turn. */
int bar_turn_format(int turn, char *buf, size_t n);

/* Monmouth 2.7 light conditions. */
typedef enum { BAR_DAY, BAR_DAWN, BAR_DUSK, BAR_MOONLIT, BAR_NIGHT } bar_light;
bar_light bar_light_of(int turn);
const char *bar_light_name(bar_light l);
/* Monmouth 2.8 A: Heat turns, Noon to 4:40 PM inclusive, on both days
 * (AMB-BAR-10). */
bool bar_is_heat(int turn);

/* Scenarios 1-4 (Monmouth 7.1-7.4). */
int bar_scenario_first_turn(int scenario);   /* -1 for a bad scenario */
int bar_scenario_last_turn(int scenario);
/* The turn at whose end victory is determined (7.1d A, 7.2d A, 7.3d A;
 * 7.4d: the last turn, AMB-BAR-6). */
int bar_scenario_victory_turn(int scenario);
/* End Turn Number in force on a turn (7.1a A, 7.2a A, 7.3a A, 7.4a A;
 * AMB-BAR-12); -1 if the turn is not part of the scenario. */
int bar_end_turn_number(int scenario, int turn);

/* Monmouth 5.2g road movement. Road hex kinds: */
enum { BAR_ROAD_MAJOR = 1, BAR_ROAD_MINOR = 2 };
/* Most road hexes per 1/2 MP: 3 major, 2 minor or mixed; Night: 1.
 * kinds: a mask of BAR_ROAD_* met in that 1/2 MP; 0 for a bad mask. */
int bar_road_hexes_per_half_mp(int kinds, bool night);
/* One road hex of movement: its cost in 1/2 MP (0 or 1) when the current
 * 1/2 MP's road run is *run, which it updates (bar_pc.road: the run's
 * hexes in bits 0-1, their BAR_ROAD_* kinds << 2; 0: no run). The run is
 * stretched as far as the rate allows, which is the cheapest cut of a
 * path (a run may always be cut shorter; tests/test_bar_rules.c checks it
 * against an exhaustive search). Movement (move.c) charges road hexes
 * through it. */
int bar_road_step(int *run, int kind, bool night);

/* Monmouth 2.3d, 2.3e, 2.7 C-D: cavalry Charge Range in hexes moved (0:
 * adjacent targets only); woods: charger or target in a woods hex. */
int bar_charge_range(bar_light l, bool woods);
/* Monmouth 2.7 D, 2.3e: no Pursuit at Night or against a target in woods. */
bool bar_pursuit_allowed(bar_light l, bool target_in_woods);

#define BAR_RANGE_CHART 99   /* no limit beyond the chart's own range */
/* Monmouth 2.7 C-D: longest Fire Combat range allowed by the light. */
int bar_fire_range_limit(bar_light l, bool artillery);
/* Monmouth 2.7 B-C (AMB-BAR-13): does artillery fire at this range use
 * the smaller, bracketed multiplier? */
bool bar_artillery_bracketed(bar_light l, int range);
/* Monmouth 2.8 F: artillery Fire Multiple halved (fractions kept). */
bool bar_artillery_halved(int turn);

/* Monmouth 2.7 C-D: Disorder Check (A) modifier after moving in the dark:
 * +5 Moonlit, +10 Night, when the unit spent more than half (rounded) of
 * its MA; 0: no check. spent in 1/2 MPs; road_only: only Road Movement. */
int bar_dark_move_check(bar_light l, int ma, int spent_half_mp, bool road_only);

/* Unit classes for the Heat check (Monmouth 2.8 B). */
typedef enum {
    BAR_HEAT_INFANTRY, BAR_HEAT_MOUNTED_CAV, BAR_HEAT_DISMOUNTED_CAV, BAR_HEAT_ARTILLERY
} bar_heat_class;
/* Monmouth 2.8 B: ER increase for the Heat check after spending MPs
 * (spent in 1/2 MPs). American and British mounted cavalry: +1 per MP or
 * fraction; other British: +1 per 1/2 MP. */
int bar_heat_mp_modifier(int side, bar_heat_class c, int spent_half_mp);
/* Monmouth 2.8 C-D: ER increase for the Heat check after Advance, Retreat
 * Before Close Combat, Charge and Pursuit: American +1 per 2 hexes
 * (rounded half up, AMB-BAR-8), British +1 per hex. */
int bar_heat_hex_modifier(int side, int hexes);

/* AMB-BAR-8: "half (rounded)" rounds .5 up. */
int bar_half_rounded(int x);

/* --- victory.c -------------------------------------------------------- */

/* A result: winner (-1 draw, else BAR_AMERICAN/BAR_BRITISH) and level. */
typedef enum { BAR_LEVEL_DRAW, BAR_LEVEL_MARGINAL, BAR_LEVEL_MINOR, BAR_LEVEL_MAJOR } bar_level;

/* Everything the victory sections read; fields a scenario does not use
 * are ignored. Loss values are Army Loss Record boxes (Monmouth 1.2a B:
 * SPs, artillery per 2.2d H, leaders per 2.4c), routed units not counted. */
typedef struct bar_victory_in {
    int loss[2];      /* Loss Chart value per side, without the modifiers below */
    int sp_lost[2];   /* SPs lost per side on the unit roster (automatic draw) */
    /* 7.1d B-E */
    bool orchard;          /* British last entered all of W2314 W2414 W2415 W2514 */
    bool w2220;            /* non-Routed British unit in or adjacent to W2220 at the end */
    bool interdicted;      /* the British line of communications is interdicted */
    bool american_e3915;   /* non-Routed American unit in/adjacent to E3915 at any point */
    /* 7.2d B, 7.3d C, 7.4d C */
    int british_on_map;    /* British units on the map at the end */
    /* 7.3d B, 7.4d B: bit i set = advance hex i+1 (E1623 .. W0201) occupied */
    uint16_t advance;
    /* 7.4a F iii */
    int baggage;           /* British baggage train losses (0-24) */
} bar_victory_in;

typedef struct bar_victory_out {
    int winner;          /* -1 draw, BAR_AMERICAN, BAR_BRITISH */
    bar_level level;
    bool auto_draw;      /* 7.1d G, 7.2d D, 7.3d E, 7.4d E */
    bool unbounded;      /* a divisor of 0 (AMB-BAR-15): ratio is infinite */
    int ratio;           /* Sc1: hundredths, modifiers included;
                          * Sc2-4: tenths, higher over lower */
    int modifier;        /* Sc1: sum of 7.1d B-E in hundredths;
                          * Sc3-4: the advance modifier 7.3d B */
    int am_total, br_total;   /* the totals divided (after modifiers) */
} bar_victory_out;

/* Victory of a scenario (1-4); -1 and err on a bad scenario or input. */
int bar_victory(int scenario, const bar_victory_in *in, bar_victory_out *out, mk_error *err);
/* Monmouth 7.3d B / 7.4d B: modifier of the advance track (AMB-BAR-5: 0
 * when E1623 was never reached). */
int bar_advance_modifier(uint16_t advance);
/* Monmouth 2.2d H: Army Loss boxes for artillery SPs lost: one per two
 * Field, one per four Light and/or Regimental. */
int bar_artillery_loss_boxes(int field_sp, int light_rgt_sp);
/* Monmouth 2.4c: Army Loss boxes for a killed leader: chart value, or the
 * replaced leader's value minus 2 for a replacement (not below 0). */
int bar_leader_loss_value(int chart_value, bool replacement);

/* Monmouth 7.4a F: one roll for the militia raids on the baggage train. */
typedef struct bar_raid_in {
    int roll;            /* the natural two-dice roll, 0-99 (AMB-BAR-9) */
    int die;             /* one more die, 0-9, read for 00 and 08 */
    int guard_sp;        /* baggage train guard SPs now */
    bar_light light;     /* of the turn */
    bool ambush_used;    /* the 00 result already happened this game */
    bool reroll;         /* one of the two re-rolls of 04 */
    int baggage;         /* baggage train losses so far (0-24) */
} bar_raid_in;

typedef struct bar_raid_out {
    int special;         /* -1: none, else the 00-09 result applied */
    bool success;        /* the modified roll met the light's number */
    int baggage;         /* baggage losses to mark (after the cap of 24) */
    int guard_loss;      /* SPs lost by the guard (also Army Loss boxes) */
    int rerolls;         /* 04: roll twice more this turn */
    int skip_turns;      /* 07, 08: turns after this one with no raid */
    bool raids_end;      /* 09 on a Day turn */
    bool ambush_used;    /* updated flag */
} bar_raid_out;

#define BAR_BAGGAGE_MAX 24
/* Raid number needed by light (Day 80, Dawn/Dusk 70, Moonlit 60, Night 50). */
int bar_raid_threshold(bar_light l);
/* -1 and err on out-of-range input. */
int bar_baggage_raid(const bar_raid_in *in, bar_raid_out *out, mk_error *err);
/* Raids are rolled from 7:20 PM 28 June, in scenario 4 only (7.4a F ii). */
bool bar_raids_on(int scenario, int turn);

/* --- leaders.c -------------------------------------------------------- */

/* Line of seniority (3.2a A, 4.2a A): 0 = most senior; -1 for a leader
 * outside the list (Dickinson, Clark, Knox, du Plessis-Mauduit, Pattison,
 * generic commanders). "Febiger" is read as "Ferbiger" (AMB-BAR-16). */
int bar_seniority(int side, const char *name);
int bar_seniority_count(int side);
const char *bar_seniority_name(int side, int rank);

typedef enum { BAR_ROLE_ARMY, BAR_ROLE_WING, BAR_ROLE_SPECIAL, BAR_ROLE_COMMAND } bar_role;

/* A leader who might succeed. available: on the map and not a casualty
 * (AMB-BAR-17: the caller leaves out wounded, off-map and not yet arrived
 * leaders). wing: the Wing/Detachment he is part of (any id, -1 none). */
typedef struct bar_cand {
    const char *name;
    bar_role role;
    int wing;
    bool available;
} bar_cand;

/* Monmouth 3.2a B, 4.2a B: index of the new Army Leader (the most senior
 * available leader), -1 if none. */
int bar_army_successor(int side, const bar_cand *c, int n);
/* Monmouth 3.2a C, 4.2a C: index of the new Wing/Detachment leader of
 * wing: the most senior available Special Leader (American only) or
 * Command Leader of that wing; -1 if none. */
int bar_wing_successor(int side, int wing, const bar_cand *c, int n);
/* Monmouth 3.2a C, 4.2a C: can this leader be replaced? (not the Special
 * Leaders Wayne, von Steuben, Knox, du Plessis-Mauduit, Pattison) */
bool bar_leader_replaceable(int side, const char *name);
/* Monmouth 3.2a B, 4.2a B, 3.2b G i: values of a replacement Army Leader. */
void bar_replacement_army_leader(int side, const char *name, int *wan, int *command_rating);

/* Monmouth 2.4b: a Leader Loss counter (values: an estimate, data/bar/
 * leader-loss-counters.json) and its application. */
typedef struct bar_loss_counter {
    char id[8];
    int8_t em, ir, cm;   /* ER bonus, Initiative, CV bonus modifiers */
} bar_loss_counter;

#define BAR_MAX_LOSS_COUNTERS 16
typedef struct bar_loss_counters {
    bar_loss_counter set[2][BAR_MAX_LOSS_COUNTERS];   /* [0]: A, [1]: B */
    int n[2];
    bool estimate;   /* the file says its values are estimates */
} bar_loss_counters;

/* Loads path (NULL: <data dir>/data/bar/leader-loss-counters.json);
 * -1 and err ("scenario_invalid") on any problem. */
int bar_loss_counters_load(bar_loss_counters *out, const char *path, mk_error *err);
/* Monmouth 2.4b A: 'A' for every leader but Dickinson and his successors. */
char bar_loss_counter_set(int side, const char *name, bool dickinson_line);

typedef struct bar_leader_values {
    int er_bonus;     /* <= 0; lower is better */
    int initiative;   /* >= 0 */
    int cv_bonus;     /* >= 0 */
} bar_leader_values;
/* Monmouth 2.4b B: orig modified by c, with the floors/caps. */
bar_leader_values bar_apply_loss_counter(bar_leader_values orig, const bar_loss_counter *c);

/* Monmouth 2.6b: leader sniping. */
typedef enum { BAR_SNIPE_MISS, BAR_SNIPE_KILLED, BAR_SNIPE_WOUNDED } bar_snipe_result;
/* Lowest two-dice roll that hits at range 1-3 (91, 94, 97); -1 otherwise. */
int bar_snipe_need(int range);
/* Longest sniping range by light: 3, 1 at Night (AMB-BAR-14). */
int bar_snipe_max_range(bar_light l);
/* roll: two dice 0-99; die: the second roll 0-9 (read only on a hit).
 * -1 for a bad range or roll. */
int bar_snipe(int range, int roll, int die, bar_snipe_result *out);
/* Monmouth 6.6e: turns a wounded leader is away: half the die (rounded). */
int bar_wound_turns(int die);

/* Monmouth 3.2b G iv: extra penalties of an Out of Command roll under Lee. */
typedef enum {
    BAR_OOC_NONE,        /* 0-1 */
    BAR_OOC_HALF_MP,     /* 2-3: half its MPs (rounded) */
    BAR_OOC_LIMITED,     /* 4-5: Limited Activation only */
    BAR_OOC_NO_MP,       /* 6-7: no MPs */
    BAR_OOC_ROUT         /* 8-9: Rout Retreat of 8 hexes, status worsens */
} bar_ooc;
/* Rout states of 3.2b G iv (8-9). */
typedef enum { BAR_ROUT_NONE, BAR_ROUT_VOLUNTARY, BAR_ROUT_INVOLUNTARY } bar_rout;
typedef struct bar_ooc_effect {
    bar_ooc kind;
    int mp;              /* MPs the Command may spend (-1: no limit) */
    bar_rout rout;       /* rout status after the result */
    int rout_hexes;      /* 8 for 8-9, else 0 */
} bar_ooc_effect;
/* -1 for a die outside 0-9. ma: the unit's MA. */
int bar_lee_ooc(int die, int ma, bar_rout now, bar_ooc_effect *out);
/* Monmouth 3.2b G vi: is the roll made? Scenario 1: before Noon;
 * 3 and 4: until Washington relieves Lee; never in scenario 2. */
bool bar_lee_ooc_applies(int scenario, int turn, bool lee_relieved);
/* Monmouth 3.4a: may American units Voluntarily Rout? */
bool bar_american_vol_rout_allowed(int scenario, int turn, bool british_1020_entered);

/* ======================================================================
 * charts.c (barcharts): the series charts Monmouth relies on, loaded from
 * data/bar/charts.json (most values are our estimates and say so; docs/
 * bar.md "Charts"), and pure lookups over them. The struct is plain fixed
 * data: nothing is allocated after bar_charts_load returns.
 * ====================================================================== */

#define BAR_CH_MAX_COLUMNS 16
#define BAR_CH_MAX_BANDS 8
#define BAR_CH_MAX_RANGE 12
#define BAR_CH_MAX_SPECIAL 10   /* ranges of a special-results column */
#define BAR_CH_MAX_STEPS 4      /* steps of a numbered hierarchy (6.9a) */
#define BAR_CH_MAX_CHECKS 16
#define BAR_CH_MAX_LEVELS 8
#define BAR_CH_NAME 24

/* Rows of the Fire Combat Multiples & Ranges chart (1.2b, 3.1, 4.1). */
typedef enum {
    BAR_FR_FOOT, BAR_FR_GRENADIER, BAR_FR_GUARD, BAR_FR_MILITIA, BAR_FR_LINE, BAR_FR_LIGHT,
    BAR_FR_RIFLE, BAR_FR_JAEGER, BAR_FR_FIELD, BAR_FR_LIGHT_ARTILLERY, BAR_FR_REGIMENTAL,
    BAR_NFIRE_ROWS
} bar_fire_row;
bool bar_fire_row_artillery(int row);

/* Formations (2.1, 2.1e, TEC stacking). */
typedef enum {
    BAR_FM_LINE, BAR_FM_ATTACK_COLUMN, BAR_FM_MARCH_COLUMN, BAR_FM_ROAD_COLUMN,
    BAR_FM_GENERAL_ORDER, BAR_FM_SKIRMISH, BAR_FM_SQUARE, BAR_FM_ARTILLERY,
    BAR_FM_ARTILLERY_ROAD_COLUMN, BAR_FM_CAVALRY,
    BAR_FM_HOOK,   /* a Line bent at one end (Monmouth 2.1a, 2.1e, 7.1a B; docs/bar.md "Hook") */
    BAR_NFORM
} bar_formation;
const char *bar_formation_name(int f);

/* Movement classes of the TEC (1.2b: Line and Column columns). */
typedef enum { BAR_MV_LINE, BAR_MV_COLUMN, BAR_MV_CAVALRY, BAR_MV_ARTILLERY, BAR_MV_SCM, BAR_NMOVE } bar_move_class;
#define BAR_COST_PROHIBITED (-1)
#define BAR_COST_ALL (-2)   /* all the unit's MPs (5.3c), or cease movement (5.2e, 5.3b) */

typedef struct bar_tec_entry {
    int8_t cost[BAR_NMOVE];   /* half MPs, or BAR_COST_* */
    bool disorder_check;      /* non-clear for a Disorder Check (A) / Series 8.7 */
    bool no_prolonge;         /* 2.2d G */
    bool charge_check;        /* 2.3a */
    bool estimate;
} bar_tec_entry;

/* Fire special results (6.3-6.5). */
typedef enum {
    BAR_FS_NONE = -1,
    BAR_FS_FREE_FIRE, BAR_FS_FULL_VOLLEY, BAR_FS_POOR_DISCIPLINE, BAR_FS_BLOWING_SMOKE,
    BAR_FS_AMMO_LOW, BAR_FS_RAPID_FIRE, BAR_FS_ACCURATE_FIRE, BAR_FS_WILD_FIRE,
    BAR_FS_CAISSON_EXPLOSION, BAR_FS_AMMO_EXHAUSTED, BAR_FS_WHITES_OF_EYES,
    BAR_FS_PREMATURE_FIRE, BAR_NFIRE_SPECIAL
} bar_fire_special;
typedef enum { BAR_FIRE_INFANTRY, BAR_FIRE_ARTILLERY, BAR_FIRE_DEFENSIVE } bar_fire_kind;
const char *bar_fire_special_name(int s);

/* Check conditions (bits) and effects of the numbered hierarchies (6.9a). */
enum {
    BAR_CC_ALWAYS = 0, BAR_CC_DISORDERED = 1 << 0, BAR_CC_SHAKEN = 1 << 1,
    BAR_CC_GOOD_ORDER = 1 << 2, BAR_CC_IN_WOODS = 1 << 3, BAR_CC_SKIRMISH = 1 << 4,
    BAR_CC_CAVALRY = 1 << 5, BAR_CC_ARTILLERY = 1 << 6, BAR_CC_LEADER = 1 << 7,
};
typedef enum {
    BAR_CE_NO_EFFECT, BAR_CE_PASS, BAR_CE_FAIL, BAR_CE_DISORDERED, BAR_CE_SHAKEN,
    BAR_CE_SHAKEN_DISORDERED, BAR_CE_ROUT, BAR_CE_LOSE_SP, BAR_CE_REROLL, BAR_NCHECK_EFFECT
} bar_check_effect;
const char *bar_check_effect_name(int e);

typedef struct bar_check_step {
    uint16_t cond;        /* BAR_CC_* that must all hold; 0: always */
    uint8_t effect;       /* bar_check_effect */
    int8_t reroll;        /* BAR_CE_REROLL: the only modifier of the re-roll */
    bool leader_loss;     /* the asterisk of 6.9a */
} bar_check_step;

typedef struct bar_check_table {
    char kind;            /* 'M' morale, 'D' disorder */
    char letter;
    bool estimate;
    int nspecial;
    struct {
        int8_t from, to;  /* natural rolls */
        int nsteps;
        bar_check_step step[BAR_CH_MAX_STEPS];
    } special[BAR_CH_MAX_SPECIAL];
} bar_check_table;

/* A ranged column of named special results (initiative, pursuit, close
 * combat): result[r] for a natural roll r in lo..hi, an index into names. */
typedef struct bar_special_col {
    int8_t lo, hi;
    int8_t result[10];
} bar_special_col;

typedef enum { BAR_LL_FATE, BAR_LL_LUCKY_SHOT, BAR_LL_LINE_OF_FIRE, BAR_LL_BRAVING_FIRE, BAR_NLL } bar_ll_kind;
typedef enum { BAR_INI_ARMY_MORALE, BAR_INI_LEADER_LAPSE, BAR_INI_CONFUSION, BAR_INI_FREE_COMBAT,
               BAR_INI_SPECIAL_RALLY, BAR_INI_LEADER_INITIATIVE, BAR_INI_BATTLE_TEMPO, BAR_NINI } bar_ini_special;
typedef enum { BAR_PU_NO_QUARTER, BAR_PU_NO_CONTROL, BAR_PU_HESITATION, BAR_PU_NO_PURSUIT, BAR_NPU } bar_pursuit_special;

typedef struct bar_charts {
    bool estimate;   /* the file says it holds estimates */
    /* Fire Combat Table */
    struct {
        bool estimate;
        int ncolumns;
        struct { int16_t num, den; char name[8]; } col[BAR_CH_MAX_COLUMNS];
        int nbands[BAR_CH_MAX_COLUMNS];
        struct { int16_t min; int8_t sp; } band[BAR_CH_MAX_COLUMNS][BAR_CH_MAX_BANDS];
        char morale_letter;
    } fire;
    /* 6.3-6.5 */
    struct {
        bool estimate;
        int8_t lo, hi;
        uint16_t leader_rolls;   /* bit r: natural roll r causes a Leader Loss check */
        int8_t result[3][10];    /* [bar_fire_kind][roll - lo]: bar_fire_special */
    } fire_special;
    /* Fire Combat Multiples & Ranges */
    struct {
        bool estimate;
        int8_t range, min_range;
        int16_t mult[BAR_CH_MAX_RANGE];        /* hundredths */
        int16_t bracketed[BAR_CH_MAX_RANGE];   /* hundredths; artillery only */
    } row[BAR_NFIRE_ROWS];
    int8_t max_firing[BAR_NFORM];              /* 2.1e; -1: not listed */
    int8_t fire_defence[BAR_NTERRAIN];
    bool fire_defence_estimate;
    int8_t hedgerow_pct, slope_pct;            /* 5.3c, 5.3d */
    /* Terrain Effects Chart */
    bar_tec_entry hex[BAR_NTERRAIN];
    bar_tec_entry side[BAR_HS_NTERRAIN];       /* by bit index of BAR_HS_* */
    int8_t stacking[BAR_NFORM];
    bool stacking_estimate[BAR_NFORM];
    /* 5.2-5.3 Close Combat Value modifiers */
    int8_t cv_woods_defending, cv_grade, cv_bridge, cv_creek, cv_hedgerow, cv_regular_slope,
        cv_gentle_slope;
    /* ER modifiers the text fixes */
    int8_t er_woods_morale, er_terrain_normal, er_terrain_light, er_moonlit_move, er_night_move;
    /* Morale and Disorder Checks */
    bool pass_at_or_above;
    int nchecks;
    bar_check_table check[BAR_CH_MAX_CHECKS];
    /* Leader Loss Table (6.6) */
    struct {
        bool estimate;
        int8_t modifier;
        int8_t kind[10];                  /* by even roll; -1 none */
        int8_t killed[BAR_NLL][2], wounded[BAR_NLL][2];
    } leader_loss;
    /* Close Combat */
    struct {
        bool estimate;
        int8_t step;
        int nbands;
        struct { int16_t min; int8_t att_sp, def_sp, retreat; } band[BAR_CH_MAX_BANDS];
        bar_special_col special;
        int nnames;
        char name[10][BAR_CH_NAME];
    } cc;
    /* Pursuit (6.7) */
    struct {
        bool estimate;
        int8_t special_roll, no_control_add;
        int8_t pp[10];
        bar_special_col special;   /* lo..hi: the second die */
    } pursuit;
    /* Initiative (6.2, 2.2b) */
    struct {
        bool estimate;
        bar_special_col side[2];   /* [BAR_AMERICAN], [BAR_BRITISH] */
    } initiative;
    /* Army Morale (1.2a C, 6.2a) */
    struct {
        bool estimate;
        int8_t special_00, natural_0;
        int nlevels[2];
        int16_t level[2][BAR_CH_MAX_LEVELS];
        int nbands[BAR_CH_MAX_LEVELS];
        struct { int8_t min, modifier; } band[BAR_CH_MAX_LEVELS][BAR_CH_MAX_BANDS];
    } army_morale;
} bar_charts;

/* Loads path (NULL: <data dir>/data/bar/charts.json). -1 and err
 * ("scenario_invalid", "<file>: fire_multiples.rows[2].multiples[0]: a
 * number 0-20 in steps of 0.01 needed, got \"x\"") on any problem; out is
 * zeroed then. */
int bar_charts_load(bar_charts *out, const char *path, mk_error *err);

/* Fire Combat Table: the column for a fire strength (hundredths) against a
 * fire defence value; -1 below the first column. optional_double: 2.1f. */
int bar_fire_column(const bar_charts *c, int strength_x100, int defence);
/* The column shifted by shift (6.3d -1, 6.4c/6.5b +1), kept on the table;
 * a shift left of a fire below the first column stays -1. */
int bar_fire_column_shift(const bar_charts *c, int col, int shift);
/* The column shift of a special result (6.3d, 6.4c, 6.5b), else 0. */
int bar_fire_special_shift(int special);
/* The result of a modified roll on a column: SPs lost and the Morale Check
 * letter ('\0' none; natural: the unmodified roll, whose parity decides). */
typedef struct bar_fire_result { int sp; char morale; } bar_fire_result;
int bar_fire_result_of(const bar_charts *c, int col, int modified_roll, int natural_roll,
                       bar_fire_result *out);
/* 6.3-6.5: the special result of a natural roll (BAR_FS_NONE if none, or
 * on a re-roll); leader: set when the roll causes a Leader Loss check. */
int bar_fire_special_of(const bar_charts *c, bar_fire_kind kind, int natural_roll, bool reroll,
                        bool *leader);

/* Fire strength in hundredths of sps SPs of a row at range (1..), per
 * flags; -1 out of range (beyond the row, or below an artillery minimum). */
enum {
    BAR_FSF_BRACKETED = 1 << 0,   /* 2.7 B-C: artillery, smaller multiplier */
    BAR_FSF_HEAT = 1 << 1,        /* 2.8 F: artillery multiple halved, fractions kept */
    BAR_FSF_HEDGEROW = 1 << 2,    /* 5.3c: x .75 */
    BAR_FSF_UPHILL_SLOPE = 1 << 3 /* 5.3d: halved (rounded, AMB-BAR-8) */
};
int bar_fire_strength(const bar_charts *c, int row, int sps, int range, unsigned flags);
/* 6.3f, 6.4g, 6.5c: "halve the Fire Strength (rounded)", to a whole number
 * (.5 up, AMB-BAR-8), in hundredths. */
int bar_fire_strength_halved(int strength_x100);
/* 2.1e: most SPs firing from a hex in formation f; -1 if the chart has none. */
int bar_max_sps_firing(const bar_charts *c, int f);
/* Fire defence of a hex terrain (2.1f: doubled if optional_double). */
int bar_fire_defence(const bar_charts *c, int terrain, bool optional_double);

/* 5.2b-5.3e: the attacker's Close Combat Value modifier. def_terrain and
 * att_terrain: bar_terrain of the two hexes; side: BAR_HS_* bits of the
 * hexside crossed; uphill: the attack goes from lower to higher ground;
 * def_cavalry: the defender is cavalry (no woods bonus, 2.3e). */
int bar_cv_modifier(const bar_charts *c, int att_terrain, int def_terrain, unsigned side,
                    bool uphill, bool def_cavalry);

/* A Morale ('M') or Disorder ('D') check of a letter. */
typedef struct bar_check_out {
    bool pass;        /* no special result: natural roll vs er */
    int special;      /* index of the special range, -1 none */
    int step;         /* 1-based step of the hierarchy that applied, 0 none */
    int effect;       /* bar_check_effect (BAR_CE_PASS/FAIL without a special) */
    int reroll;       /* BAR_CE_REROLL: the re-roll's only modifier */
    bool leader_loss;
} bar_check_out;
/* -1 for an unknown kind/letter or a roll outside 0-99. */
int bar_check(const bar_charts *c, char kind, char letter, int natural_roll, int er,
              unsigned cond, bar_check_out *out);

/* 6.6: Leader Loss: the kind for an even special roll (-1 none), and the
 * result of a leader's sub-roll: 0 none, 1 killed, 2 wounded. mod: the
 * artillery-at-1-3 / skirmisher modifier applies (never to Fate). */
int bar_leader_loss_kind(const bar_charts *c, int natural_roll);
int bar_leader_loss_subroll(const bar_charts *c, int kind, int die, bool mod);

/* 6.7: Pursuit Points of a die (0-9), or -1 when it is the special roll
 * (not on a re-roll); bar_pursuit_special_of: the result of the second die. */
int bar_pursuit_points(const bar_charts *c, int die, bool reroll);
int bar_pursuit_special_of(const bar_charts *c, int die);
/* 6.2, 2.2b: the Initiative special result of a natural roll, -1 none. */
int bar_initiative_special(const bar_charts *c, int side, int natural_roll);
/* Close Combat: the band for a natural roll and CV difference (attacker
 * minus defender); -1 for a special roll (cc.special) or a bad roll. */
int bar_cc_band(const bar_charts *c, int natural_roll, int cv_diff);
/* 1.2a C: the loss level (0-based) reached by losses, -1 none; and the
 * Army Morale modifier for a level and a modified die. */
int bar_army_loss_level(const bar_charts *c, int side, int losses);
int bar_army_morale_modifier(const bar_charts *c, int level, int modified_die);

/* ======================================================================
 * oob.c (baroob): the orders of battle (data/bar/oob.json) and the four
 * scenarios' set-ups, reinforcements, special-rule switches and victory
 * parameters (data/bar/scenarios/<n>-<name>.json), read into plain fixed-size
 * structs; nothing is allocated after the load returns. The JSON is in
 * docs/scenario-format.md, "Orders of battle and set-up". Strengths and
 * ratings are our estimates (each entry's "estimate" list says which).
 * ====================================================================== */

#define BAR_OOB_ID 16          /* "11&15Va/WOO" plus NUL */
#define BAR_OOB_NAME 64
#define BAR_OOB_SECTION 40
#define BAR_OOB_MAX_UNITS 192
#define BAR_OOB_MAX_LEADERS 64
#define BAR_OOB_MAX_ORGS 64

/* A unit's type row (Monmouth 3.1, 4.1, 2.3f, 2.2d E, 4.1c). */
typedef enum {
    BAR_UT_FOOT, BAR_UT_GRENADIER, BAR_UT_GUARD, BAR_UT_MILITIA, BAR_UT_LINE,
    BAR_UT_LIGHT, BAR_UT_RIFLE, BAR_UT_JAEGER, BAR_UT_CHASSEUR,
    BAR_UT_CAVALRY,   /* 2.3f: all cavalry is light cavalry */
    BAR_UT_ART_FIELD, BAR_UT_ART_LIGHT, BAR_UT_ART_REGIMENTAL,
    BAR_NUNIT_TYPES
} bar_unit_type;

typedef enum { BAR_NAT_AMERICAN, BAR_NAT_BRITISH, BAR_NAT_HESSIAN, BAR_NAT_ANSPACH, BAR_NNAT } bar_nation;

/* Organisations: the [X/Y] brackets of the text. */
typedef enum {
    BAR_ORG_ARMY, BAR_ORG_WING, BAR_ORG_DETACHMENT, BAR_ORG_COMMAND,
    BAR_ORG_INDEPENDENT_COMMAND,   /* Dickinson's (7.2b) */
    BAR_ORG_GROUP,                 /* Loyalist Corps, Flank Guards: units, no leader */
    BAR_NORG_KINDS
} bar_org_kind;

/* Leader roles (2.4, 3.2, 4.2; 1.2a A colours). */
typedef enum {
    BAR_LR_ARMY, BAR_LR_WING, BAR_LR_DETACHMENT, BAR_LR_SPECIAL, BAR_LR_COMMAND, BAR_NLR
} bar_leader_role;

/* Which fields of an entry are our estimates (its "estimate" list). */
enum {
    BAR_EST_SP = 1 << 0, BAR_EST_ER = 1 << 1, BAR_EST_CV = 1 << 2, BAR_EST_MP = 1 << 3,
    BAR_EST_TYPE = 1 << 4, BAR_EST_ID = 1 << 5, BAR_EST_CR = 1 << 6, BAR_EST_INIT = 1 << 7,
    BAR_EST_RANGE = 1 << 8, BAR_EST_ER_BONUS = 1 << 9, BAR_EST_CV_BONUS = 1 << 10,
    BAR_EST_WAN = 1 << 11, BAR_EST_LOSS = 1 << 12, BAR_EST_LEADS = 1 << 13,
    BAR_EST_PARENT = 1 << 14,
};

/* 4.1b E, 7.4a C: unit modes. */
enum { BAR_MODE_NONE = 0, BAR_MODE_MOUNTED, BAR_MODE_DISMOUNTED };

typedef struct bar_org {
    char id[BAR_OOB_ID];        /* "GD"; unique within a side */
    char name[BAR_OOB_NAME];
    int8_t side;                /* BAR_AMERICAN, BAR_BRITISH */
    int8_t kind;                /* bar_org_kind */
    int16_t parent;             /* org index, -1 */
    int16_t leader;             /* leader index, -1 */
    bool units_named;           /* false: the text names the organisation, not its units */
    uint16_t estimate;          /* BAR_EST_ID, BAR_EST_PARENT */
} bar_org;

typedef struct bar_unit {
    char id[BAR_OOB_ID];        /* as the text writes it ("Fld/GD", "16 Da"); "#1"/"#2"
                                 * tell apart the two counters of "Fld/SD [x2]" */
    int8_t side, nation, type;  /* BAR_AMERICAN.., bar_nation, bar_unit_type */
    int8_t fire_row;            /* charts.c BAR_FR_*, -1 for cavalry (4.1b D: QR fire as Foot) */
    int16_t command;            /* org index, -1 for an army-level Independent (MD) */
    int16_t wing;               /* org index of a Wing it belongs to outside its Command
                                 * (Wayne's, 3.2b E), else -1 */
    bool independent;
    bool skirmish;              /* Skirmish-capable (2.6a, 3.1b, 4.1b C) */
    int8_t mode;                /* BAR_MODE_*: MtdJ starts mounted (4.1b E) */
    int8_t sp, er, cv;
    int8_t mp_half;             /* movement allowance in 1/2 MPs */
    int16_t parent;             /* unit index of the parent (4.1b B), -1 */
    int16_t owner;              /* regimental guns: the owning regiment (2.2d E), -1 */
    uint16_t estimate;          /* BAR_EST_* */
} bar_unit;

typedef struct bar_leader {
    char id[BAR_OOB_ID];        /* the bracket: "LEE/GW", "GD/LEE", "HC" */
    char name[32];              /* "" for a generic Commander */
    char rank[8];               /* "Gen", "LG", "MG", "BG", "Col", "LC" */
    int8_t side, role;          /* bar_leader_role */
    int16_t leads;              /* org index, -1 (Knox, du Plessis-Mauduit, Pattison) */
    int8_t command_rating, initiative, command_range, er_bonus, cv_bonus;
    int8_t wan;                 /* -1 when he has none */
    int8_t loss_value;          /* 2.4c */
    char loss_set;              /* 'A' or 'B' (2.4b A) */
    uint16_t estimate;
} bar_leader;

typedef struct bar_oob {
    int norgs, nunits, nleaders;
    bar_org org[BAR_OOB_MAX_ORGS];
    bar_unit unit[BAR_OOB_MAX_UNITS];
    bar_leader leader[BAR_OOB_MAX_LEADERS];
    bool estimate;              /* the file says it holds estimates */
} bar_oob;

/* The Monmouth map geometry (docs/scenario-format.md, BAR section): flat,
 * even columns shifted, sheets W and E of 39 columns, 51 rows. */
void bar_oob_grid(mk_grid *g);

/* Loads path (NULL: <data dir>/data/bar/oob.json). -1 and err
 * ("scenario_invalid", "<file>: units[3].command: unknown organisation
 * \"XX\"") on any problem. */
int bar_oob_load(bar_oob *o, const char *path, mk_error *err);
/* The same from text (file: the name used in messages). */
int bar_oob_parse_text(bar_oob *o, const char *text, const char *file, mk_error *err);

int bar_oob_find_unit(const bar_oob *o, const char *id);            /* -1 if none */
int bar_oob_find_leader(const bar_oob *o, const char *id);
int bar_oob_find_org(const bar_oob *o, int side, const char *id);

/* --- scenarios ---------------------------------------------------------- */

#define BAR_SC_MAX_PLACES 256
#define BAR_SC_MAX_GROUPS 16
#define BAR_SC_MAX_SWITCHES 32
#define BAR_SC_MAX_ETN 8
#define BAR_PLACE_MAX_HEX 4
#define BAR_PLACE_MAX_WITH 8
#define BAR_GROUP_MAX_ORGS 12

/* Formations a set-up allows (bits). */
enum {
    BAR_F_LINE = 1 << 0, BAR_F_HOOK = 1 << 1, BAR_F_MARCH_COLUMN = 1 << 2,
    BAR_F_ROAD_COLUMN = 1 << 3, BAR_F_ATTACK_COLUMN = 1 << 4, BAR_F_GENERAL_ORDER = 1 << 5,
    BAR_F_SKIRMISH = 1 << 6, BAR_F_SQUARE = 1 << 7, BAR_F_LIMBERED = 1 << 8,
    BAR_F_UNLIMBERED = 1 << 9,
    BAR_F_ANY = (1 << 10) - 1,
};
/* Facings: bit i = 30*i degrees clockwise from map-up. On the flat-topped
 * map a hexside faces N 0, NE 60, SE 120, S 180, SW 240, NW 300 and a
 * hexpoint E 90, W 270 (2.2d A: a Limbered unit faces a hexpoint). */
#define BAR_FACE(deg) (1u << ((deg) / 30))
#define BAR_FACE_ANY 0x0fffu

/* Where a piece starts or arrives. */
typedef enum {
    BAR_AT_HEX,        /* hex[0] */
    BAR_AT_HEXES,      /* one of hex[0..nhex-1] ("W1717 and/or W1817") */
    BAR_AT_WITHIN,     /* within radius of hex[0], not in except[], column <= max_col,
                        * terrain if >= 0 */
    BAR_AT_WITH,       /* stacked with one of with[] (units or leaders: piece refs),
                        * any unit of with_org, or any unit of with_side */
    BAR_AT_GROUP,      /* a reinforcement: see group */
} bar_at;

/* A piece: a unit (leader = -1) or a leader (unit = -1). */
typedef struct bar_place {
    int16_t unit, leader;
    int8_t at;                       /* bar_at */
    int8_t variant;                  /* 0 normal; 1.. the scenario's variant (7.1a C) */
    mk_hex hex[BAR_PLACE_MAX_HEX];
    int8_t nhex, radius;
    mk_hex except[2];
    int8_t nexcept;
    int16_t max_col;                 /* global 0-based column, -1 none ("no farther
                                      * east than the E08xx hex row") */
    int8_t terrain;                  /* bar_terrain, -1 any ("in a woods hex") */
    int8_t nwith;
    int16_t with_unit[BAR_PLACE_MAX_WITH], with_leader[BAR_PLACE_MAX_WITH];
    int16_t with_org;                /* -1 */
    int8_t with_side;                /* -1 */
    uint16_t formations;             /* BAR_F_*; 0: the text says nothing */
    uint16_t facings;                /* BAR_FACE bits; 0: the text says nothing */
    bool face_road_east;             /* "facing the easternmost road hexside in their hex" */
    bool as_independent;             /* 7.2b: Fld/SD "Treat ... as an Independent unit" */
    int8_t group;                    /* BAR_AT_GROUP: index in groups, else -1 */
    int16_t order;                   /* position in the group's order (0 first), -1 any */
    bool with_group;                 /* a leader "accompanies any unit" of the group */
    char section[BAR_OOB_SECTION];
} bar_place;

typedef enum { BAR_ORDER_ANY, BAR_ORDER_EXACT, BAR_ORDER_AS_LISTED } bar_order;

/* A reinforcement group (7.1c B-C, 7.2b A-B, 7.3b A-D, 7.4b A-G, 7.4c D). */
typedef struct bar_group {
    char name[BAR_OOB_NAME];
    char section[BAR_OOB_SECTION];
    int8_t side;
    int16_t first_turn, last_turn;   /* turns (clock.c); last = first when not a range */
    mk_hex entry[BAR_PLACE_MAX_HEX];
    int8_t nentry;
    int8_t edge;                     /* MK_EDGE_*, or MK_EDGE_NONE: enter at entry[] */
    char edge_sheet;                 /* 'W' or 'E' for an edge, 0 any */
    int8_t edge_within;              /* 7.4b F: all within N hexes of a common hex */
    uint16_t formations;             /* required (BAR_F_*), 0 none */
    uint16_t not_formations;         /* excluded */
    int8_t mp_limit_half;            /* on the entry turn, in 1/2 MPs; -1 none */
    bool no_leader_initiative;
    bool whole_command;              /* 7.4c D: a Command enters in one activation */
    int8_t order;                    /* bar_order */
    int8_t norgs;
    int16_t org[BAR_GROUP_MAX_ORGS]; /* whole organisations in it (their named units
                                      * are also placed one by one) */
    bool org_less_artillery[BAR_GROUP_MAX_ORGS];
} bar_group;

/* The special-rule switches a scenario sets (docs: the list of names). */
typedef struct bar_switch {
    char name[32];
    int16_t value;                   /* 0/1, a column, or a turn */
} bar_switch;

typedef struct bar_sc_victory {
    int16_t turn;                    /* at whose end victory is determined */
    int8_t auto_draw;                /* 7.1d G 8, 7.2d D 10, 7.3d E / 7.4d E 15 */
    int8_t norchard;
    mk_hex orchard[4];               /* 7.1d B */
    mk_hex hold_hex, line_end, threat_hex;   /* 7.1d C-E (MK_NO_HEX when unused) */
    int8_t on_map_loss;              /* 7.2d B, 7.3d C, 7.4d C: per British unit */
    mk_hex exit_hex;                 /* 7.2d B, 7.3d C */
    int8_t exit_within;
    uint8_t exit_light;              /* bits 1 << bar_light */
    int8_t nadvance;
    mk_hex advance[10];              /* 7.3d B / 7.4d B, in order */
    int8_t advance_mod[10];
    bool baggage;                    /* 7.4a F iii */
} bar_sc_victory;

typedef struct bar_scen {
    int scenario;                    /* 1-4 */
    char id[40], title[BAR_OOB_NAME];
    int16_t first_turn, last_turn;
    int8_t netn;
    int16_t etn_from[BAR_SC_MAX_ETN];
    int8_t etn_value[BAR_SC_MAX_ETN];
    int8_t deploys_first;            /* side */
    int nplaces, ngroups, nswitches, nvariants;
    bar_place place[BAR_SC_MAX_PLACES];
    bar_group group[BAR_SC_MAX_GROUPS];
    bar_switch sw[BAR_SC_MAX_SWITCHES];
    bar_sc_victory victory;
    /* 7.1a C ii: the British choice of the optional variant (0 SPs: none) */
    int16_t choice_max_sp;
    int8_t choice_within, choice_norgs;
    int16_t choice_leader;           /* "within N hexes of" this leader */
    int16_t choice_org[4];
} bar_scen;

/* Loads a scenario against o. path NULL: the shipped file of scenario n
 * (1-4; n is ignored otherwise). -1 and err on any problem: unknown ids,
 * hexes off the map sheets, a piece placed twice, times outside the
 * scenario or not on a 20-minute mark, unknown fields or switches. */
int bar_scen_load(bar_scen *s, const bar_oob *o, int n, const char *path, mk_error *err);
int bar_scen_parse_text(bar_scen *s, const bar_oob *o, const char *text, const char *file,
                        mk_error *err);
/* The placement of a unit / leader, NULL if the scenario does not have it
 * (variant 0 only). */
const bar_place *bar_scen_unit_place(const bar_scen *s, int unit);
const bar_place *bar_scen_leader_place(const bar_scen *s, int leader);
/* A switch's value, def if the scenario does not set it. */
int bar_scen_switch(const bar_scen *s, const char *name, int def);

/* ------------------------------------------------------------------ */
/* data.c: reads a file of data/bar/: `*path`, or data/bar/<name> under
 * mk_data_dir() when *path is NULL (then *path points into buf). Returns
 * the parsed JSON, or NULL with err naming the file, line:column and why. */
typedef struct json_t json_t;
json_t *bar_data_read(const char **path, const char *name, char *buf, size_t n, mk_error *err);

#endif
