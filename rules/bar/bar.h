/* bar.h - The Battle of Monmouth for Battles from the Age of Reason (BAR):
 * the declarations shared by the files of rules/bar (one file per part of
 * the Monmouth exclusive rulebook, /work/shared/rules/
 * monmouth-bar-exclusive-rules.txt).
 *
 * The ruleset itself (state, legal, apply) is not built yet: what is here
 * are pure, self-contained modules it will use. Each engineer keeps a
 * separate, marked section below; edit only your own. docs/bar.md maps
 * the rule sections to these functions and lists our readings of unclear
 * text (AMB-BAR-*) and every estimate. */
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
/* Least number of 1/2 MPs for a continuous road path of n hexes whose
 * kinds are kind[0..n-1] (BAR_ROAD_*); -1 on a bad kind or n < 0. */
int bar_road_cost_half_mp(const uint8_t *kind, int n, bool night);
/* Monmouth 2.7 D: no Rapid March at Night. */
bool bar_rapid_march_allowed(bar_light l);

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

#endif
