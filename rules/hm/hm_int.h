/* hm_int.h - Horse & Musket: Dawn of an Era: the game state and the
 * declarations shared by the files of rules/hm.
 *
 * The state is plain data (no pointers): a game is cloned with one memcpy.
 * The charts of the Player Aid Card (which we do not have) are data:
 * data/hm/charts.json is read at init (hm_charts_load) into the small
 * fixed struct hm_charts inside the state, so legal() and apply() read only
 * the state and never allocate or touch a file.
 *
 * Invariants (hm_state_ok, checked after every action in debug builds):
 *  - a unit on the map has hex >= 0, an eliminated one hex == -1;
 *  - at most two units in a hex, of different classes, within the
 *    terrain's stacking limit (H&M 4), except in a hex that began the game
 *    over-stacked and that no unit has left yet (at most HM_STACK_MAX);
 *    never units of both sides;
 *  - 1 <= mp <= mp_start for units on the map; cap >= 0; vp consistent;
 *  - with hm.facing: facing 0-11, a vertex exactly when in Column (always
 *    a hexside without hm.line-and-column). */
#ifndef HM_INT_H
#define HM_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "core/los.h"
#include "core/ruleset.h"

#define HM_MAX_HEX 256 /* H&M maps are 13 x 9 (H&M 2) */
#define HM_MAX_UNITS 160 /* pieces in a state (check_scenario refuses more) */
#define HM_MAX_DICE 8
/* H&M 4: at most two units a hex, but a scenario may begin over-stacked;
 * the engine holds at most this many combat units in one hex (a scenario
 * with more is refused at load). */
#define HM_STACK_MAX 4
#define HM_MAX_ENTRENCH 12 /* H&M 2: entrenchment hexes with their three hexsides */

/* Terrain indices (index 0 = clear): the Terrain Effects Chart rows. */
enum {
    HT_CLEAR,
    HT_RIVER,
    HT_BRIDGE,
    HT_WOODS,
    HT_HILL,
    HT_SWAMP,
    HT_TOWN,
    HT_ENTRENCHMENT,
    HT_FORT,
    HT_COUNT
};

/* Unit kinds (PROTOCOL.md, Horse & Musket scenario fields). */
enum {
    HK_LINE,
    HK_ELITE,
    HK_HIGHLANDER,
    HK_MILITIA,
    HK_IRREGULAR,
    HK_SKIRMISHER,
    HK_NATIVE,
    HK_DRAGOON,
    HK_CAVALRY,
    HK_HUSSAR,
    HK_ARTILLERY,
    HK_SIEGE,
    HK_LEADER,
    HK_VP,
    HK_COUNT
};
#define HK_UNITS HK_LEADER /* kinds below this are combat units */

/* Unit classes (H&M 3). */
enum { HC_INF, HC_LIGHT, HC_HORSE, HC_CANNON, HC_LEADER, HC_VP };

/* Combat columns of the Battles Charts. */
enum { COL_FIRE, COL_CLOSE, COL_CHARGE };

/* Special Scenario Rules (H&M 12), per side. */
#define SSR_PIKES 0x01
#define SSR_MATCHLOCKS 0x02
#define SSR_INF_HORSE 0x04
#define SSR_INF_ART 0x08

/* Action types. */
enum {
    HA_MOVE = 1,
    HA_FIRE,
    HA_CLOSE,
    HA_CHARGE,
    HA_SKIRMISH,
    HA_RALLY,
    HA_CHOOSE,
    HA_END,
    HA_RESUPPLY,
    HA_FORMATION,
    HA_FACE /* 13 Facing: a Move activation that only turns in place */
};
/* mk_action.flags on actions: */
#define HF_DISCOUNT 0x01   /* the Army Commander's one-CAP reduction (H&M 6, 9) */
#define HF_SECOND 0x02     /* 15 Second Order */
#define HF_FIRE_FIRST 0x04 /* skirmish: fire, then move */
#define HF_SUBORD 0x08     /* 15 Subordinate Leadership */
#define HF_BONUS 0x10      /* 15 Leader Bonus Movement: one hex more on a d6 <= rating */
#define HF_LEADER 0x20     /* 15 Leaders in Combat: the leader rolls a die (1 CAP) */
#define HF_EVENT 0x40      /* 15 Random Events: the action uses this turn's held result */
/* 13 Line & Column: a formation action with a path changes formation first,
 * then moves (without it: moves, then changes). Only on HA_FORMATION, so it
 * shares the bit of HF_FIRE_FIRST, which only HA_SKIRMISH carries. */
#define HF_FORM_FIRST 0x04
/* mk_action.flags on HA_CHOOSE: the word chosen. */
enum {
    HW_NONE,
    HW_YES,
    HW_NO,
    HW_WITHDRAW,
    HW_STAND,
    HW_COUNTER,
    HW_FIRST,
    HW_SECOND,
    HW_HEX,
    HW_UNIT,
    HW_FACE /* 13 Facing: target holds the facing (0-11, 30-degree steps) */
};

/* Unit flags, cleared at the start of each player turn. */
#define HU_ACTED 0x01
#define HU_MOVED 0x02
#define HU_RALLIED 0x04
#define HU_COMBAT 0x08   /* a leader was in a combat (CAP storage, H&M 9) */
#define HU_AMBUSHED 0x10 /* attempted an ambush this turn (H&M 7) */
#define HU_NOWD 0x20     /* withdrew during the current action (H&M 8) */
#define HU_AMMO 0x40     /* 15 Ammunition: running out (kept across turns) */
#define HU_TWICE 0x80    /* 15 Second Order: activated twice */

/* Pending decisions. */
enum {
    HP_NONE,
    HP_SEIZE,
    HP_AC_RETRY,
    HP_AMBUSH,
    HP_REACT,
    HP_WD_HEX,
    HP_RETREAT,
    HP_RETARGET,
    HP_ADVANCE,
    HP_SK_MOVE,
    HP_SK_FIRE,
    HP_MOMENTUM,
    HP_R1_RETREAT,
    HP_R1_ORDER,
    HP_REROLL,
    HP_FACE, /* 13 Facing: the unit's facing after a move or a turn in place */
    /* 15 Random Events: 2 the hex of the swamp tile, 8 the enemy unit pinned */
    HP_EVENT_HEX,
    HP_EVENT_UNIT,
    HP_HIT_TIE,       /* H&M 8: which of two tied units takes the next hit (the owner) */
    HP_DISPLACE_UNIT, /* H&M 8 Displacement: which friendly unit makes room */
    HP_DISPLACE_HEX,  /* H&M 8 Displacement: where it goes */
    HP_COUNT
};

/* Option bits (index into hm_options). */
enum {
    HO_SECOND_ORDER,
    HO_AMMUNITION,
    HO_GOOD_DAYS,
    HO_COMMAND_RANGE,
    HO_LOCKED,
    HO_HI_STACKING,
    HO_SUBORDINATE,
    HO_LEADER_BONUS,
    HO_MOMENTUM,
    HO_LEADERS_COMBAT,
    HO_R1_RETREAT,
    HO_COMBAT_R1,
    HO_RANDOM_R1,
    HO_LINE_COLUMN,
    HO_LINE_TERRAIN,
    HO_REROLLS,
    HO_FACING,        /* 13 Facing */
    HO_DISORDERLY,    /* 13 Disorderly Retreat (with Line & Column and Facing) */
    HO_RANDOM_EVENTS, /* 15 Random Events */
    HO_COUNT
};
#define HM_OPT(s, o) ((((s)->options) >> (o)) & 1u)

/* The charts, as loaded from data/hm/charts.json (one scale). */
typedef struct hm_kind_chart {
    int8_t fire[3];       /* hit number at R1..R3; 0: cannot */
    int8_t close, charge; /* hit numbers; 0: cannot */
    int8_t charge_range;  /* hexes traversed to become adjacent */
    int8_t one_die;       /* bit per column: blue/gray box, one die at most */
    int8_t cc_cost;       /* Actions Table: close combat CAP */
    int8_t mr;            /* movement rate (H&M 7) */
} hm_kind_chart;

typedef struct hm_terrain_fx {
    int8_t stack, stop, blocks, combat_in, combat_out, morale, impassable, pad_;
} hm_terrain_fx;

typedef struct hm_charts {
    hm_kind_chart k[HK_COUNT];
    hm_terrain_fx t[HT_COUNT];
    int8_t cost_move, cost_fire, cost_skirmish, cost_charge, cost_rally, cost_resupply;
    int8_t immune_range; /* fire at this range or more cannot eliminate (R3; R2 Grand) */
    int8_t pad_;
} hm_charts;

typedef struct hm_unit {
    int16_t hex;   /* -1: off the map */
    int16_t start; /* hex at the start of the player turn (rally, H&M 9) */
    int8_t mp;     /* leaders: their rating */
    uint8_t flags;
    int8_t nat;      /* nationality index (foreign leaders, H&M 9) */
    uint8_t acts;    /* activations this turn (15 Second Order) */
    int8_t vpv;      /* VP x 2 scored by the enemy for eliminating it (H&M 10) */
    int8_t charisma; /* leaders: charismatic (rally for 0 CAP, H&M 9) */
    int8_t natmod;   /* 15 Randomized Combat at R1: the nationality's modifier */
    int8_t column;   /* 13 Line & Column: 1 in Column, 0 in Line */
    int8_t facing;   /* 13 Facing: 0-11, 30-degree steps clockwise from map-up;
                      * odd: a hexside (Line), even: a vertex (Column) */
    uint8_t ssr;     /* 12 SSRs: its side's and its nationality's (SSR_* bits) */
} hm_unit;

/* A move or charge in progress (paused by an ambush decision). */
typedef struct hm_move {
    uint8_t on, kind, idx, npath; /* kind: HA_MOVE, HA_CHARGE, HA_SKIRMISH */
    int16_t unit, target;         /* charge target hex */
    int16_t path[MK_PATH_MAX];
    int16_t leader; /* leader moving with it, -1 */
    uint16_t fmask; /* 13 Facing: the facings the unit may hold now (bit f) */
} hm_move;

/* A combat in progress. */
typedef struct hm_combat {
    uint8_t on, kind, stage, range; /* kind: HA_FIRE, HA_CLOSE, HA_CHARGE, HA_SKIRMISH */
    int16_t attacker, att_hex, hex; /* hex: the target hex */
    int8_t ndef, cur;               /* defenders, the one being asked */
    int16_t def[HM_STACK_MAX];
    uint8_t mode[HM_STACK_MAX];  /* HW_STAND (defensive fire), HW_WITHDRAW, HW_COUNTER, HW_NONE */
    int8_t passed[HM_STACK_MAX]; /* morale: -1 not checked, 0 failed, 1 passed */
    int8_t eq[HM_STACK_MAX];     /* withdraw roll equal to morale: one hit (H&M 8) */
    uint8_t fives;
    uint8_t hits_immune; /* the hits below ignore 1 MP units (R3; R2 Grand) */
    /* H&M 8: the hits scored on the target hex, applied one at a time (the
     * owner picks between two tied units), and the simultaneous hits on the
     * attacker, applied after them */
    uint8_t hits_left, back;
    int8_t tot_hits, dsp_after; /* dsp_after: the decision the retreat answered */
    /* H&M 8 Displacement waiting for its owner's decisions: unit retreats
     * from `from` into `to`; dsp_pick is the friendly unit making room */
    int16_t dsp_unit, dsp_to, dsp_from, dsp_pick;
    int8_t r1_retreat; /* 15 Retreat in R1 Fire: 1 the attacker must retreat, 2 it did */
    /* 15 Retreat in R1 Fire: the side whose natural 0 came first (1 the
     * attacker's, 2 the defenders'; 0 none yet), and the defenders (bit i:
     * def[i]) whose return fire rolled one and who must retreat */
    int8_t r1_zero;
    uint8_t r1_def;
    int16_t lead; /* 15 Leaders in Combat: the leader rolling with the attacker, -1 */
    int8_t r1;    /* 15 Combat at R1: 0 not used, 1 the attacker fires first, 2 the defenders */
    int8_t r1_skip, r1_bonus, r1_done;
    int8_t ri, r1_hits; /* 15 Combat at R1: the returner firing, their hits so far */
    /* 15 Leader Re-Rolls: the roll that may be re-rolled now (the
     * attacker's, a defensive fire, a return fire, a countercharge or a
     * Highlander's dice): its unit, hits, misses, hit number and DRM */
    int16_t rr_unit;
    int8_t rr_hits, rr_miss, rr_need, rr_drm, rr_col, rr_range;
    int8_t bad[HM_STACK_MAX]; /* 13 Disorderly Retreat: failed morale with a roll >= 2 x MP */
} hm_combat;

/* 15 Random Events (events.c): the result the active player holds this
 * player turn, and what lasts. Unit fields are -1 for none. */
#define HM_MAX_OVERRIDES 4 /* swamp tiles that result 2 may place */
typedef struct hm_revents {
    int8_t held;      /* 5, 6, 7, 9, 10, 11, 12 until used or the turn ends; 0 none */
    int8_t armed;     /* 6 or 10: for the fire combat of the action in progress */
    int16_t die_unit; /* 7: rolls one extra combat die for the rest of the turn */
    int16_t ctl;      /* 12: the enemy unit acting for the active player now */
    int16_t frozen;   /* 8: may not be activated during its side's next turn */
    int16_t weather;  /* 4: Bad Weather through this game turn (0: none) */
    int8_t cannon[2]; /* 3: the DRM on every combat die of this side's Cannon */
    int8_t swamps;    /* 2: unused swamp tiles left (scenario "swamp_tiles") */
    int8_t nover;     /* 2: placed tiles: hex over_hex[i] is terrain over_t[i] */
    int16_t over_hex[HM_MAX_OVERRIDES];
    int8_t over_t[HM_MAX_OVERRIDES];
} hm_revents;

enum { HV_NONE, HV_WIN, HV_TIME, HV_BOTH_LOSE };

/* Lists of pieces by kind, built once by prepare (sc->ext), so that the
 * hot paths of mcts's rollouts (evaluate, a move's ambush check) scan the
 * few pieces they are about instead of every piece's scenario record (112
 * bytes each). In piece order, so that what they find comes in the order
 * a scan of all pieces finds it. And the neighbour table the reach search
 * reads for every hex it visits (a table instead of a division a call). */
typedef struct hm_ext {
    int total;                   /* 1 + every unit's MP at set-up */
    int nunit, nmarker;
    int16_t unit[MK_MAX_UNITS];   /* pieces that are units (hm_is_unit) */
    int16_t marker[MK_MAX_UNITS]; /* VP markers (HK_VP) */
    int8_t side[MK_MAX_UNITS];    /* by piece index */
    int namb[2];
    int16_t amb[2][MK_MAX_UNITS]; /* by side: the kinds that may ambush (H&M 7) */
    mk_hex nb[HM_MAX_HEX][6];     /* each hex's neighbours, as mk_hex_neighbors */
} hm_ext;

typedef struct hm_state {
    mk_head head;
    uint64_t options;
    hm_charts ch;
    int16_t turn, turns;
    int8_t active, to_move, first, half; /* half: 0 or 1, which player turn of the game turn */
    int8_t order; /* side going first this game turn (Seize the Initiative) */
    int8_t over, winner, reason;
    int8_t cap, cap_roll, discount_used, pending;
    int8_t decider, ac_retry, sk_phase, pad_; /* sk_phase: 1 fire to come, 2 move to come */
    int8_t stored[2], leaders_lost[2], seize_left[2], ac[2]; /* ac: -1 none */
    uint8_t ssr[2];
    int8_t hold_turns[2]; /* SSR: units of hold_kinds may not move before this turn ends */
    uint32_t hold_kinds[2];
    int16_t vp2[2]; /* VP x 2 (half-VP units, H&M 10) */
    int16_t nunits;
    int16_t sk_unit;        /* skirmish in progress (H&M 7), -1 */
    int16_t vp_target2[2];  /* victory: VP x 2 that win (0: none) */
    int16_t kill_leader[2]; /* victory: eliminating this enemy leader wins, -1 */
    int8_t elim_all[2];     /* victory: eliminating every enemy unit wins */
    int8_t time_rule;       /* at the end: 0 more VP wins, 1 both lose */
    int8_t pad3_;
    int8_t ac_lost[2]; /* the side's AC was eliminated: AC Replacement (H&M 9) */
    int8_t rerolls[2]; /* 15 Leader Re-Rolls left (lost with the AC) */
    int16_t lic;       /* 15 Leaders in Combat: the leader for the next combat, -1 */
    hm_revents rev;    /* 15 Random Events (events.c) */
    /* H&M 2: the scenario's entrenchment hexes and their three hexsides
     * (bit d: hex direction d, core/hex.h), and "hill_to_hill": false */
    int8_t nent, no_hill2hill;
    int16_t ent_hex[HM_MAX_ENTRENCH];
    uint8_t ent_sides[HM_MAX_ENTRENCH];
    /* H&M 4: hexes (bit h) that began over-stacked and that no unit has
     * left yet: their units may stay in breach of the stacking limits */
    uint8_t overstack[HM_MAX_HEX / 8];
    hm_move mv;
    hm_combat cb;
    hm_unit u[HM_MAX_UNITS];
} hm_state;

_Static_assert(sizeof(hm_state) <= 4096, "H&M state must stay within 4 KiB");

/* charts.c */
extern const char *const hm_terrain_names[HT_COUNT];
extern const char *const hm_kind_names[HK_COUNT];
int hm_charts_load(hm_charts *ch, const char *scale, mk_error *err);

/* units.c */
int hm_class(int kind);
/* H&M 7 Ambush: Light Footmen but Militia, and Hussars. */
bool hm_may_ambush(int kind);
int hm_kind(const mk_scenario *sc, int u);
int hm_side(const mk_scenario *sc, int u);
const char *hm_unit_id(const mk_scenario *sc, int u);
static inline bool hm_is_unit(int kind)
{
    return kind >= 0 && kind < HK_UNITS;
}
const hm_terrain_fx *hm_fx(const hm_state *s, const mk_scenario *sc, int hex);
int hm_terrain_from(const hm_state *s, const mk_scenario *sc, int hex, int other);
const hm_terrain_fx *hm_fx_from(const hm_state *s, const mk_scenario *sc, int hex, int other);
bool hm_stop_entering(const hm_state *s, const mk_scenario *sc, int from, int to);
bool hm_overstacked(const hm_state *s, int hex);
int hm_terrain_check_scenario(const mk_scenario *sc, const hm_charts *ch, mk_error *err);
void hm_terrain_init(hm_state *s, const mk_scenario *sc);
const char *hm_hexside_name(int d);
unsigned hm_entrenchment_sides(const hm_state *s, int hex);
int hm_units_in(const hm_state *s, const mk_scenario *sc, int hex, int *out); /* combat units */
int hm_enemy_units_in(const hm_state *s, const mk_scenario *sc, int hex, int side);
bool hm_can_stack(const hm_state *s, const mk_scenario *sc, int unit, int hex, int ignore);
/* hm_can_stack(s, sc, unit, hex, -1) for many hexes (H&M 4): one scan of
 * the pieces fills the view, then each hex costs two lookups (the reach
 * search tries every hex it meets). Both count through one per-piece rule
 * (units.c stack_effect); tests/test_hm_random.c checks they agree. */
typedef struct hm_stack_view {
    uint8_t blocked[HM_MAX_HEX]; /* an enemy unit, or a friendly one of unit's class */
    uint8_t others[HM_MAX_HEX];  /* the friendly units that would share the hex */
    bool leader;                 /* unit is a leader: only enemy units block it */
} hm_stack_view;
void hm_stack_view_init(const hm_state *s, const mk_scenario *sc, int unit, hm_stack_view *v);
bool hm_stack_view_ok(const hm_state *s, const mk_scenario *sc, const hm_stack_view *v, int hex);
bool hm_adjacent_enemy(const hm_state *s, const mk_scenario *sc, int hex, int side);
int hm_best_leader(const hm_state *s, const mk_scenario *sc, int unit);
int hm_morale(hm_state *s, const mk_scenario *sc, int unit, int mp, int drm, int from,
              const char *why, const char *purpose, mk_events *ev, int *roll_out, int *thr_out);
bool hm_los(const hm_state *s, const mk_scenario *sc, int from, int to);
bool hm_state_ok(const hm_state *s, const mk_scenario *sc, char *why, size_t n);
void hm_eliminate(hm_state *s, const mk_scenario *sc, int unit, mk_events *ev);
void hm_hit(hm_state *s, const mk_scenario *sc, int unit, const char *rule, mk_events *ev);
void hm_leader_casualty(hm_state *s, const mk_scenario *sc, int leader, mk_events *ev);
void hm_leaders_alone(hm_state *s, const mk_scenario *sc, int hex, int check, mk_events *ev);
void hm_enter(hm_state *s, const mk_scenario *sc, int unit, int hex, mk_events *ev);

/* turn.c */
void hm_turn_begin(hm_state *s, const mk_scenario *sc, mk_events *ev);
void hm_end_turn(hm_state *s, const mk_scenario *sc, int store, mk_events *ev);
void hm_victory_check(hm_state *s, const mk_scenario *sc, bool last, mk_events *ev);
void hm_result(const void *st, const mk_scenario *sc, mk_result *out);
int hm_victory_check_scenario(const mk_scenario *sc, mk_error *err);
void hm_tally(const hm_state *s, const mk_scenario *sc, int mp[2], int vp[2]);
int hm_vp_now(const hm_state *s, const mk_scenario *sc, int side); /* x2 */
void hm_seize_resolve(hm_state *s, const mk_scenario *sc, bool try_it, mk_events *ev);
void hm_ac_attempt(hm_state *s, const mk_scenario *sc, mk_events *ev);
int hm_store_max(const hm_state *s, const mk_scenario *sc);

/* move.c */
#define HM_REACH_MAX 768 /* (hex, facing) states: 91 hexes within 5 x 6 facings fit */
typedef struct hm_reach {
    int n, nstart; /* states; the first nstart are the unit's own hex */
    int16_t hex[HM_REACH_MAX], parent[HM_REACH_MAX];
    int8_t depth[HM_REACH_MAX], face[HM_REACH_MAX];
} hm_reach;
void hm_reach_find(const hm_state *s, const mk_scenario *sc, int unit, uint16_t start, int maxlen,
                   bool charge, hm_reach *r);
int hm_reach_path(const hm_reach *r, int i, int16_t *path);
uint16_t hm_move_mask(const hm_state *s, const mk_scenario *sc, int unit, bool form_first);
bool hm_face_prompt(hm_state *s, const mk_scenario *sc, int unit, uint16_t mask);
/* The generators of legal(): append to out[n..cap) and return the new n.
 * only >= 0 lists that unit's actions alone (a subsequence of the full
 * list: apply checks an action against it first); -1 lists every unit's. */
int hm_legal_moves(const hm_state *s, const mk_scenario *sc, mk_action *out, int n, int cap,
                   int only);
int hm_move_start(hm_state *s, const mk_scenario *sc, const mk_action *a, mk_events *ev);
void hm_move_run(hm_state *s, const mk_scenario *sc, mk_events *ev);
int hm_retreat_options(const hm_state *s, const mk_scenario *sc, int unit, int from_hex,
                       int16_t *out);
int hm_unit_cost(const hm_state *s, const mk_scenario *sc, int unit, int base, int flags);

/* combat.c */
int hm_fire_targets(const hm_state *s, const mk_scenario *sc, int unit, int from, int16_t *out,
                    int8_t *range);
int hm_legal_combat(const hm_state *s, const mk_scenario *sc, mk_action *out, int n, int cap,
                    int only); /* only: as hm_legal_moves */
void hm_combat_start(hm_state *s, const mk_scenario *sc, int kind, int unit, int hex,
                     mk_events *ev);
void hm_combat_run(hm_state *s, const mk_scenario *sc, mk_events *ev);
int hm_choices(const hm_state *s, const mk_scenario *sc, mk_action *out, int cap);
int hm_r1_retreater(const hm_state *s, int *from);
int hm_displace_options(const hm_state *s, const mk_scenario *sc, int unit, int to, int from,
                        int pick, int16_t *out);
void hm_choose(hm_state *s, const mk_scenario *sc, const mk_action *a, mk_events *ev);
int hm_add_variants(const hm_state *s, const mk_scenario *sc, const mk_action *a, int base,
                    mk_action *out, int n, int cap);
int hm_ambush_options(const hm_state *s, const mk_scenario *sc, int16_t *out);
bool hm_ambush(hm_state *s, const mk_scenario *sc, int amb, mk_events *ev);
bool hm_ambush_dice(hm_state *s, const mk_scenario *sc, int amb, int mover, int need, int drm,
                    mk_events *ev);
void hm_ambush_finish(hm_state *s, const mk_scenario *sc, mk_events *ev);
void hm_sk_fire_prompt(hm_state *s, const mk_scenario *sc);
int hm_roll(hm_state *s, const mk_scenario *sc, int unit, int col, int range, int need, int drm,
            int dice, const char *purpose, const char *rule, int target_hex, mk_events *ev,
            int *fives);
bool hm_path_ok(const hm_state *s, const mk_scenario *sc, const mk_action *a, int maxlen);
int hm_activation(const hm_state *s, const mk_scenario *sc, int unit);
bool hm_can_column(int kind);
bool hm_held(const hm_state *s, const mk_scenario *sc, int unit);
int hm_sk_move_options(const hm_state *s, const mk_scenario *sc, int unit, int16_t *out);

/* events.c (15 Random Events; each answers "no effect" when nothing was rolled) */
int hm_events_check_scenario(const mk_scenario *sc, mk_error *err);
void hm_events_init(hm_state *s, const mk_scenario *sc);
/* H&M 2 terrain of hex: the scenario's, unless a tile placed by Random
 * Event 2 covers it; off the map, clear. Inline: the reach search asks it
 * of every hex it enters. */
static inline int hm_terrain(const hm_state *s, const mk_scenario *sc, int hex)
{
    if (hex < 0 || hex >= mk_grid_size(&sc->map.grid))
        return HT_CLEAR;
    for (int i = 0; i < s->rev.nover; i++)
        if (s->rev.over_hex[i] == hex)
            return s->rev.over_t[i];
    int t = sc->map.terrain[hex];
    return t < HT_COUNT ? t : HT_CLEAR;
}
int hm_ctl_side(const hm_state *s, const mk_scenario *sc, int unit);
bool hm_event_frozen(const hm_state *s, int unit);
int hm_move_rate(const hm_state *s, const mk_scenario *sc, int unit);
int hm_event_dice(const hm_state *s, const mk_scenario *sc, int unit, int col, int n);
int hm_event_drm(const hm_state *s, const mk_scenario *sc, int unit);
bool hm_event_take(hm_state *s, int result);
bool hm_event_roll(hm_state *s, const mk_scenario *sc, mk_events *ev);
void hm_event_turn_end(hm_state *s, const mk_scenario *sc, mk_events *ev);
int hm_event_choices(const hm_state *s, const mk_scenario *sc, mk_action *out, int cap);
void hm_event_choose(hm_state *s, const mk_scenario *sc, const mk_action *a, int p, mk_events *ev);
int hm_event_legal(const hm_state *s, const mk_scenario *sc, mk_action *out, int n, int cap);
void hm_event_use(hm_state *s, const mk_scenario *sc, const mk_action *l, mk_events *ev);
void hm_event_settle(hm_state *s);
void hm_event_json(const hm_state *s, const mk_scenario *sc, json_t *o);

/* facing.c (13 Facing; every function answers "front" when hm.facing is off) */
enum { HM_FRONT, HM_FLANK, HM_REAR };
int hm_face_deg(int f);                            /* 0-11 -> degrees */
int hm_face_dir_angle(int dir);                    /* hex direction 0-5 (E..NE) -> 0-11 */
bool hm_face_column(int f);                        /* a vertex: Column */
int hm_face_clicks(int kind);                      /* 60-degree clicks on entering a hex, 6: any */
uint16_t hm_face_turns(uint16_t mask, int clicks); /* the facings within clicks of mask */
uint16_t hm_face_parity(const hm_state *s, const mk_scenario *sc, int unit, bool column);
bool hm_face_front_of(int f, const mk_scenario *sc, int from, int to);
int hm_face_aspect_of(int f, const mk_scenario *sc, int hex, int from);
bool hm_front(const hm_state *s, const mk_scenario *sc, int unit, int to);
int hm_aspect(const hm_state *s, const mk_scenario *sc, int unit, int from);
uint16_t hm_face_step(const hm_state *s, const mk_scenario *sc, int unit, uint16_t mask, int from,
                      int to);
uint16_t hm_face_path(const hm_state *s, const mk_scenario *sc, int unit, uint16_t mask,
                      const int16_t *path, int npath);
int hm_face_toward(const mk_scenario *sc, uint16_t mask, int hex, int target, int prefer);
int hm_face_away(const mk_scenario *sc, bool column, int hex, int from, int prefer);
int hm_face_default(const mk_scenario *sc, int unit, bool column);
unsigned hm_hexsides_toward(const mk_scenario *sc, int hex, int other);
void hm_face_set(hm_state *s, int unit, int f);

#endif
