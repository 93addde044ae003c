/* htl_int.h - Hold the Line: the game state and the declarations shared by
 * the files of rules/htl (one file per part of the rulebook).
 *
 * The state is plain data (no pointers), so a game is cloned with one
 * memcpy. Units are referred to by their scenario index, hexes by grid
 * index. Invariants (checked by htl_state_ok in debug tests):
 *  - a unit on the map has hex >= 0; an eliminated unit has hex == -1;
 *  - no hex holds two "foot" units (infantry type or dragoon), two
 *    artillery, two leaders or two VP counters (HtL 4.3, 4.3.1);
 *  - 0 <= mp <= mp_start for combat units; ap >= 0;
 *  - while cb.on is set an action is in progress; cb.pending names the
 *    decision it waits for (to_move is then cb.decider). */
#ifndef HTL_INT_H
#define HTL_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "core/los.h"
#include "core/ruleset.h"

#define HTL_MAX_HEX 512     /* HtL maps are 13 x 9; check_scenario refuses larger */
#define HTL_MAX_UNITS 160   /* pieces in a state (check_scenario refuses more) */
#define HTL_MAX_REACH 64    /* hexes within 4 steps: 1 + 6 + 12 + 18 + 24 = 61 */
#define HTL_DICE 3          /* HtL 8.2.3: always 3 dice */

/* Terrain indices: the order of htl_terrain_names (index 0 = clear). */
enum {
    HT_CLEAR, HT_SWAMP, HT_WATERWAY, HT_BRIDGE, HT_FORD, HT_FOREST, HT_HILL, HT_TOWN,
    HT_FENCE, HT_ENTRENCHMENT, HT_COUNT
};

/* Unit kinds: the order of htl_kind_names. */
enum {
    HK_REGULAR, HK_ELITE, HK_LIGHT, HK_MILITIA, HK_DRAGOON, HK_ARTILLERY, HK_LEADER, HK_VP,
    HK_COUNT
};

/* Hex-limit classes (HtL 4.3). */
enum { HS_FOOT, HS_ART, HS_LEADER, HS_VP };

/* Action types (mk_action.type). */
enum { HA_MOVE = 1, HA_FIRE, HA_CLOSE, HA_RALLY, HA_CHOOSE, HA_END, HA_FORCE };
/* mk_action.flags for HA_CHOOSE at an advance decision (HtL 8.4.4). */
enum { HC_ADVANCE = 1, HC_STAY = 2, HC_WITHDRAW = 3, HC_STAND = 4 };

/* Unit flags, cleared at the start of each player turn. */
#define HU_ACTED 0x01    /* activated this turn (HtL 6.1.4) */
#define HU_MOVED 0x02
#define HU_FIRED 0x04
#define HU_RALLIED 0x08
#define HU_BONUS 0x10    /* used the leader bonus hex (HtL 6.2.4) */
#define HU_CLOSE 0x20    /* conducted close combat */

/* Pending decisions. */
enum { HP_NONE, HP_TIE, HP_RETREAT, HP_DISPLACE, HP_ESCAPE, HP_ADVANCE, HP_WITHDRAW };
/* Stages of a combat in progress. */
enum { CB_HITS, CB_RETREAT, CB_LEADER, CB_ADVANCE, CB_DONE,
       CB_WITHDRAW, CB_WRETREAT, CB_ATTACK };   /* the last three: close combat before the roll */
/* Why the game ended. */
enum { HR_NONE, HR_VP, HR_TIME, HR_TIME_VP };

typedef struct htl_unit {
    int16_t hex;     /* -1: off the map (eliminated, taken) */
    int16_t start;   /* hex at the start of the current player turn */
    int8_t mp;
    uint8_t flags;   /* HU_* */
} htl_unit;

/* A fire or close combat in progress: what remains to be done. */
typedef struct htl_combat {
    uint8_t on, close, stage, pending;   /* pending: HP_* */
    int8_t decider, hits_left, nfailed, fi;
    int16_t attacker, hex, leader, chosen;   /* chosen: the answer to the last decision, -1 none */
    int16_t retreat_to, first_retreat;       /* hex chosen for failed[fi]; where the first retreat went */
    int16_t failed[4];                       /* units that failed morale, in retreat order */
    uint8_t vacated, defender;               /* a defender left the hex; defending side */
    int16_t att_leader;                      /* 11.6: leader adding dice, -1 */
    uint8_t flank, pad_;                     /* 11.14: flank attack */
} htl_combat;

typedef struct htl_state {
    mk_head head;
    uint64_t options;
    int16_t turn, turns;
    int8_t active, to_move, first, over;
    int8_t winner, reason, ap, ap_roll;
    int16_t dragoon_fire;    /* dragoon that moved and may still fire (HtL 6.2.3), -1 */
    int16_t nunits;
    int8_t leaders_lost[2];  /* HtL 9.3.2 */
    int8_t vp_target[2];     /* HtL 10: VP that win (0: none) */
    int16_t vp[2];
    int8_t time_winner;      /* HtL 10.C: side that wins when time runs out, -1 */
    int8_t pad_;
    int16_t free_fire;       /* 11.1: unit that failed its attack morale and may fire for 0 AP, -1 */
    int16_t pad2_;
    uint8_t fired_on[(HTL_MAX_UNITS + 7) / 8];   /* 11.2: fired on this game turn */
    int16_t att_hex[HTL_MAX_UNITS];   /* 11.14: the hex each unit attacked this turn, -1 */
    htl_combat cb;
    htl_unit u[HTL_MAX_UNITS];
} htl_state;

_Static_assert(sizeof(htl_state) <= 4096, "HtL state must stay within 4 KiB");

/* Who stands in one hex: a unit index per hex-limit class, -1 for none. */
typedef struct htl_occ_hex {
    int16_t foot, art, leader, vp;
} htl_occ_hex;

/* Who stands in each hex. Built once per legal() call (htl_occ_build: one
 * pass over the units) and handed to every generator; never kept in the
 * state, so it can never disagree with it. */
typedef struct htl_occ {
    htl_occ_hex h[HTL_MAX_HEX];
    uint8_t side[HTL_MAX_HEX];   /* HO_COMBAT(side) | HO_PIECE(side) bits of what stands there */
} htl_occ;
#define HO_COMBAT(side) (1u << (side))   /* a combat unit of side */
#define HO_PIECE(side) (4u << (side))    /* any piece of side (unit, leader, VP counter) */

/* Optional rule 11.n is on (option bit n - 1). */
#define HTL_OPT(s, n) ((((s)->options) >> ((n) - 1)) & 1u)

/* HtL 11.12: the four switches that adjust a side's command AP. */
enum { HTL_O1112_FIRST_PLUS = 11, HTL_O1112_FIRST_MINUS = 15, HTL_O1112_SECOND_PLUS,
       HTL_O1112_SECOND_MINUS };

/* The 11.12 adjustment of `side`'s command AP under `options`: -1, 0 or +1;
 * 2 when both +1 and -1 are on (refused by check_options). */
static inline int htl_cap_adjust(uint64_t options, int side)
{
    int plus = (int)(options >> (side ? HTL_O1112_SECOND_PLUS : HTL_O1112_FIRST_PLUS) & 1);
    int minus = (int)(options >> (side ? HTL_O1112_SECOND_MINUS : HTL_O1112_FIRST_MINUS) & 1);
    return plus && minus ? 2 : plus - minus;
}

/* terrain.c */
extern const char *const htl_terrain_names[HT_COUNT];
typedef struct htl_terrain_fx {
    int8_t combat;        /* added to each attacker die (HtL 2.2.1, 8.2.1) */
    int8_t morale;        /* added to the defender's MP for morale (HtL 8.4.2) */
    uint8_t stop;         /* stop on entering (HtL 2.2.1 Movement) */
    uint8_t impassable;
    uint8_t blocks_los;   /* HtL 8.3 */
    const char *combat_why, *morale_why;
} htl_terrain_fx;
extern const htl_terrain_fx htl_terrain_table[HT_COUNT];
/* The effects of the terrain in hex (clear for an unknown index). */
static inline const htl_terrain_fx *htl_terrain(const mk_scenario *sc, int hex)
{
    if (hex < 0 || hex >= mk_grid_size(&sc->map.grid))
        return &htl_terrain_table[HT_CLEAR];
    int t = sc->map.terrain[hex];
    return t < HT_COUNT ? &htl_terrain_table[t] : &htl_terrain_table[HT_CLEAR];
}
/* Must a unit stop on entering hex (HtL 2.2.1)? Optional 11.10: hills do
 * not stop movement. */
static inline bool htl_stops(const htl_state *s, const mk_scenario *sc, int hex)
{
    if (HTL_OPT(s, 10) && sc->map.terrain[hex] == HT_HILL)
        return false;
    return htl_terrain(sc, hex)->stop != 0;
}

/* The neighbours of on-map hex h in direction order, -1 off the map: the
 * same as mk_hex_neighbors (core/hex.c; tests/test_ai.c checks that they
 * agree on every hex of both layouts), inlined for move generation. */
static inline void htl_neighbors(const mk_grid *g, int h, int16_t out[6])
{
    static const int8_t step[2][2][6][2] = {
        {{{1, 0}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}},
         {{1, 0}, {1, 1}, {0, 1}, {-1, 0}, {0, -1}, {1, -1}}},
        {{{1, -1}, {1, 0}, {0, 1}, {-1, 0}, {-1, -1}, {0, -1}},
         {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {0, -1}}},
    };
    int cols = g->cols, rows = g->rows, col = h % cols, row = h / cols;
    int flat = g->orient != MK_POINTY, line = flat ? col : row;
    int shifted = (line & 1) == (g->shifted_even ? 1 : 0);
    const int8_t(*d)[2] = step[flat][shifted];
    for (int i = 0; i < 6; i++) {
        int c = col + d[i][0], r = row + d[i][1];
        out[i] = (int16_t)(c < 0 || r < 0 || c >= cols || r >= rows ? -1 : r * cols + c);
    }
}
int htl_attack_mod(const htl_state *s, const mk_scenario *sc, int attacker, int hex, bool close,
                   const char **why);

/* units.c */
extern const char *const htl_kind_names[HK_COUNT];
/* Hexes per move: HtL 3.4.1 regular 1, 3.4.2 elite 1, 3.4.3 light 2,
 * 3.4.4 militia 1, 3.4.5 dragoon 3, 3.4.6 artillery 1, 3.4.7 leader 3
 * (9.1), 3.4.8 VP counters never move. */
static inline int htl_move_rate(int kind)
{
    static const int8_t rate[HK_COUNT] = {1, 1, 2, 1, 3, 1, 3, 0};
    return kind >= 0 && kind < HK_COUNT ? rate[kind] : 0;
}
int htl_fire_range(int kind);
int htl_hit_number(int kind, int range);   /* 0 = cannot; range 0 = close combat */
/* HtL 4.3: one infantry-type or dragoon unit, one artillery, one leader per
 * hex; 4.3.1: one VP counter. */
static inline int htl_slot(int kind)
{
    return kind == HK_ARTILLERY ? HS_ART : kind == HK_LEADER ? HS_LEADER
                                         : kind == HK_VP     ? HS_VP
                                                             : HS_FOOT;
}
/* Not a leader or VP counter. */
static inline bool htl_is_combat(int kind) { return kind >= 0 && kind < HK_LEADER; }
static inline bool htl_is_infantry(int kind) { return kind >= HK_REGULAR && kind <= HK_MILITIA; }
int htl_kind(const mk_scenario *sc, int u);
int htl_side(const mk_scenario *sc, int u);
void htl_occ_build(htl_occ *o, const htl_state *s, const mk_scenario *sc);
/* Does the occupancy o show a combat unit of the side opposed to `side`
 * in hex (the same answer as htl_enemy_combat_in)? */
static inline bool htl_occ_enemy_combat(const htl_occ *o, const mk_scenario *sc, int hex,
                                        int side)
{
    (void)sc;
    return (o->side[hex] & HO_COMBAT(1 - side)) != 0;
}
int htl_enemy_combat_in(const htl_state *s, const mk_scenario *sc, int hex, int side);
int htl_combat_units_in(const htl_state *s, const mk_scenario *sc, int hex, int side, int *out);
int htl_leader_in(const htl_state *s, const mk_scenario *sc, int hex, int side);
bool htl_state_ok(const htl_state *s, const mk_scenario *sc, char *why, size_t n);

/* turn.c */
void htl_turn_begin(htl_state *s, const mk_scenario *sc, int side, mk_events *ev);
void htl_turn_end(htl_state *s, const mk_scenario *sc, mk_events *ev);
void htl_action_done(htl_state *s, const mk_scenario *sc, mk_events *ev);

/* move.c */
typedef struct htl_reach {
    int n;
    int16_t hex[HTL_MAX_REACH], parent[HTL_MAX_REACH];
    int8_t depth[HTL_MAX_REACH];
    uint8_t can_end[HTL_MAX_REACH];
    uint8_t can_end_ld[HTL_MAX_REACH];   /* legal moves: may end there with its leader */
} htl_reach;
void htl_reach_find(const htl_state *s, const mk_scenario *sc, const htl_occ *o, int unit,
                    int leader, int maxlen, htl_reach *r);
int htl_leader_with(const htl_state *s, const mk_scenario *sc, int unit);
int htl_legal_moves(const htl_state *s, const mk_scenario *sc, const htl_occ *o, mk_action *out,
                    int n, int cap);
int htl_apply_move(htl_state *s, const mk_scenario *sc, const mk_action *a, mk_events *ev,
                   mk_error *err);
void htl_enter_hex(htl_state *s, const mk_scenario *sc, int unit, int hex, mk_events *ev);

/* fire.c */
bool htl_los(const htl_state *s, const mk_scenario *sc, int from, int to);
bool htl_los_occ(const mk_scenario *sc, const htl_occ *o, int from, int to);
int htl_fire_need(const htl_state *s, const mk_scenario *sc, int unit, int target, int *range);
int htl_legal_fire(const htl_state *s, const mk_scenario *sc, const htl_occ *o, mk_action *out,
                   int n, int cap);
int htl_apply_fire(htl_state *s, const mk_scenario *sc, const mk_action *a, mk_events *ev,
                   mk_error *err);
int htl_hits_step(htl_state *s, const mk_scenario *sc, mk_events *ev);
int htl_tie_options(const htl_state *s, const mk_scenario *sc, int16_t *out);
void htl_eliminate(htl_state *s, const mk_scenario *sc, int unit, const char *rule,
                   mk_events *ev);
int htl_roll_attack(htl_state *s, const mk_scenario *sc, int attacker, int hex, int need,
                    int extra_dice, int flank, const char *purpose, const char *rule,
                    mk_events *ev, int *ones);
int htl_flank(const htl_state *s, const mk_scenario *sc, int attacker, int hex);

/* close_combat.c */
int htl_legal_close(const htl_state *s, const mk_scenario *sc, const htl_occ *o, mk_action *out,
                    int n, int cap);
int htl_apply_close(htl_state *s, const mk_scenario *sc, const mk_action *a, mk_events *ev,
                    mk_error *err);
void htl_combat_run(htl_state *s, const mk_scenario *sc, mk_events *ev);
int htl_morale_threshold(const htl_state *s, const mk_scenario *sc, int unit, mk_event *e);

/* retreat.c */
int htl_retreat_options(const htl_state *s, const mk_scenario *sc, int unit, int16_t *out);
int htl_displace_options(const htl_state *s, const mk_scenario *sc, int blocker, int16_t *out);
int htl_blocker(const htl_state *s, const mk_scenario *sc, int unit, int hex);
int htl_retreat_step(htl_state *s, const mk_scenario *sc, mk_events *ev);

/* leaders.c */
void htl_leader_casualty(htl_state *s, const mk_scenario *sc, int leader, int checks,
                         mk_events *ev);
int htl_escape_options(const htl_state *s, const mk_scenario *sc, int leader, int16_t *out);
int htl_leader_step(htl_state *s, const mk_scenario *sc, mk_events *ev);
int htl_legal_rally(const htl_state *s, const mk_scenario *sc, const htl_occ *o, mk_action *out,
                    int n, int cap);
int htl_apply_rally(htl_state *s, const mk_scenario *sc, const mk_action *a, mk_events *ev,
                    mk_error *err);

/* victory.c */
void htl_award_vp(htl_state *s, const mk_scenario *sc, int side, int unit, const char *rule,
                  mk_events *ev);
void htl_victory_init(htl_state *s, const mk_scenario *sc);
int htl_victory_check_scenario(const mk_scenario *sc, mk_error *err);
void htl_victory_check(htl_state *s, const mk_scenario *sc, bool last, mk_events *ev);
void htl_result(const void *st, const mk_scenario *sc, mk_result *out);

/* evaluate.c: the AI's estimate in [-1, 1] for side (the evaluate hook) */
double htl_evaluate(const void *st, const mk_scenario *sc, int side);

/* htl.c */
int htl_choices(const htl_state *s, const mk_scenario *sc, mk_action *out, int cap);
const char *htl_unit_id(const mk_scenario *sc, int u);

#endif
