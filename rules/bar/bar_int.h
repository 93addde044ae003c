/* bar_int.h - the Monmouth (BAR) ruleset's game: state, actions and the
 * internals its modules share. The pure rule modules (clock, victory,
 * leaders, map, los, charts, oob) are declared in bar.h; this is the game
 * built on them.
 *
 * Where the series rules (BAR 3rd edition, which we do not have) decide a
 * procedure the Monmouth text only names, the procedure here is our
 * reconstruction; its numbers live in data/bar/series.json (marked as
 * estimates) and docs/bar.md "The game" says what is ours.
 *
 * Modules: game.c (the ruleset table, scenario preparation, JSON),
 * turn.c (activation, End Turn, rally, Army Morale, reinforcements,
 * victory), move.c (movement, formations, facing, ZOC, stacking), fire.c
 * (fire combat, morale checks, leader losses), melee.c (close combat, rout),
 * setup.c (building a scenario file from data/bar/). */
#ifndef BAR_INT_H
#define BAR_INT_H

#include "core/ruleset.h"
#include "rules/bar/bar.h"

/* Pieces a Monmouth state holds (scenario 4 has 214), so that the state
 * stays within 4 KiB (issue 4's target): prepare refuses more. */
#define BAR_MAX_PIECES 224

/* Piece kinds (the scenario's "kind"). */
enum { BK_INFANTRY, BK_CAVALRY, BK_ARTILLERY, BK_LEADER, BK_COUNT };
extern const char *const bar_kind_names[BK_COUNT];

/* --- series estimates (data/bar/series.json) --------------------------- */
typedef struct bar_series {
    bool estimate;
    int8_t er_scale;           /* check target = ER x er_scale + modifiers (00-99 roll) */
    int8_t leader_mp_half;     /* a leader's movement allowance */
    int8_t form_half;          /* a formation change */
    int8_t hook_half;          /* forming a Hook from Line, or back (Monmouth 2.1a, 7.1a B) */
    int8_t hook_arm_sps;       /* a Hook: most SPs firing at a hex only one arm bears on (2.1e) */
    int8_t limber_half;        /* limber / unlimber */
    int8_t face_half;          /* each 60 degrees of facing change (30 costs the same) */
    int8_t ooc_mp_pct;         /* Out of Command: percent of the MA */
    int8_t end_turn_pct;       /* each box past the ETN: this % chance the turn ends */
    int8_t cc_disordered, cc_shaken, cc_attack_column, cc_leader;  /* CV modifiers */
    int8_t cc_charge;          /* CV modifier of charging cavalry */
    int8_t cc_countercharged;  /* CV modifier of a charger met by a Countercharge (2.3b, ours) */
    int8_t pursuit_pp_per_sp;  /* Pursuit Points that ride down one SP */
    int8_t fire_disordered_halved;   /* 1: Disordered or Shaken firers are halved */
    char rally_letter, recover_letter, fire_letter_default, cc_letter;
    int8_t rout_hexes[2];      /* infantry/artillery, cavalry: Monmouth 2.5 C */
} bar_series;
int bar_series_load(bar_series *out, const char *path, mk_error *err);

/* --- what the scenario fixes (mk_scenario.ext) -------------------------- */
typedef struct bar_pinfo {
    int16_t unit, leader;      /* oob index (one of them -1) */
    int8_t side, kind, type, fire_row, nation;
    int8_t sp, er, cv, mp_half;
    bool skirmish, independent;
    int16_t owner;             /* regimental guns: the owning regiment's piece (2.2d E), -1 */
    int8_t variant;            /* 7.1a C: 1, a piece of the optional variant (option bar.7.1a.C) */
    int16_t org;               /* the Command it activates with (oob org), -1 */
    int16_t arrive;            /* turn index of arrival; -1: on the map at set-up */
    int16_t entry;             /* entry hex of a reinforcement */
    int8_t entry_mp_half;      /* MP limit on the entry turn, -1 none */
    int8_t form0, face0;       /* set-up formation (BAR_FM_*) and facing (0-11) */
    bool hook_left0;           /* set up in Hook (7.1a B, 7.2a B, ...): bent to the left */
    int8_t mode;               /* BAR_MODE_*: the order of battle's (4.1b E: MtdJ mounted) */
    /* leaders */
    int8_t role, cr, initiative, range, er_bonus, cv_bonus, wan, loss_value;
    char loss_set;
} bar_pinfo;

typedef struct bar_ext {
    int scenario;              /* 1-4 */
    int first_turn, last_turn, victory_turn;
    int npieces;
    bar_pinfo p[MK_MAX_UNITS];
    int16_t org_leader[BAR_OOB_MAX_ORGS];   /* piece of the org's leader, -1 */
    int16_t army_leader[2];    /* piece */
    mk_hex home[2];            /* 7.0 B: W0201 (American), E3915 (British) */
    bar_map map;
    bar_charts ch;
    bar_series se;
    bar_loss_counters lc;
    bar_oob oob;
    bar_scen scen;
    /* scenario switches the generators ask on every call (bar_scen_switch
     * compares names): 7.1a A "west_limit_column" (-1: none), 7.1a
     * "british_initial_limits" */
    int west_limit_col;
    bool initial_limits;
    /* the other switches the game reads, and the named leaders it needs */
    bool sw_clinton, sw_lee, sw_laf, sw_ste, sw_nj, sw_exit_west, sw_off_map, sw_det[2];
    int sw_guard_turn, sw_relief_turn;   /* turns, -1 none */
    int16_t pc_lee, pc_gw, pc_way, pc_laf, pc_ste;   /* pieces, -1 if absent */
    int16_t org_jc;            /* 7.4a J: the Jaeger Corps (oob org), -1 */
    /* the artillery Special Leaders (3.2b C-D, 4.2b D): Knox, du
     * Plessis-Mauduit, Pattison (pieces, -1 if absent); Greene's Wing (org) */
    int16_t pc_art[3];
    int16_t org_gre;
    int16_t org_lc;            /* 7.4a I: the Loyalist Corps (oob org), -1 */
    int16_t org_lee;           /* 7.4a G-H: Lee's Wing, the Advanced Corps (oob org), -1 */
    int first_night;           /* the scenario's first Night turn (last_turn + 1: none) */
    /* evaluate.c's tables (bar_eval_prepare): each hex's neighbours
     * (mk_hex_neighbor's, MK_NO_HEX off the map), the distance from each
     * hex to the rally hexes and the objectives of 7.1d C, E, B and 7.3d B
     * (255: none or farther), cube coordinates (mk_hex_cube) */
    mk_hex nb[MK_MAX_HEX][6];
    uint8_t dist_home[2][MK_MAX_HEX], dist_hold[MK_MAX_HEX], dist_threat[MK_MAX_HEX];
    uint8_t dist_orchard[MK_MAX_HEX];
    uint8_t dist_advance[10][MK_MAX_HEX];
    int home_span;   /* hexes between the two rally hexes */
    /* 7.2d B, 7.3d C: the cost of leaving the map by the British exit
     * edge from each hex, marching in Road Column by day, in sixths of a
     * half MP (a major road hex costs 2, a minor 3, the exit itself 12;
     * BAR_NO_EXIT: no exit in the scenario, or no way there) */
#define BAR_NO_EXIT 0xFFFF
    uint16_t exit_cost[MK_MAX_HEX];
    uint8_t exit_dir[MK_MAX_HEX];   /* the direction (0-5) of the first step that way */
    uint8_t bear_home[2][MK_MAX_HEX];   /* bar_bearing12 from each hex to each rally hex */
    int16_t cq[MK_MAX_HEX], cr[MK_MAX_HEX];
    /* expected SPs lost to a fire by [row][range][SPs firing][target terrain]
     * (the Fire Combat Table's mean), and a terrain's share of an open
     * hex's loss */
#define BAR_EVAL_SPS 8
    float hits[BAR_NFIRE_ROWS][BAR_CH_MAX_RANGE + 1][BAR_EVAL_SPS + 1][BAR_NTERRAIN];
    float open_to[BAR_NTERRAIN];
    /* the option bar.deploy (Monmouth 7.xb-c): each piece's "deploy"
     * hexes, a run of dep (dep_n 0: none), and for a leader set up "with
     * any unit of his Command" the org his hex must hold a unit of
     * (BAR_DEP_SIDE: any unit of his side; -1: none) */
#define BAR_MAX_DEPLOY 32768
#define BAR_DEP_SIDE (-2)
    int32_t dep_at[MK_MAX_UNITS];
    int16_t dep_n[MK_MAX_UNITS], dep_with[MK_MAX_UNITS];
    int ndep;
    mk_hex dep[BAR_MAX_DEPLOY];
} bar_ext;

static inline const bar_ext *bar_x(const mk_scenario *sc) { return (const bar_ext *)sc->ext; }

/* --- state --------------------------------------------------------------- */
/* Status (Monmouth 2.5, 6.9; series morale states). */
enum { BS_DISORDERED = 1 << 0, BS_SHAKEN = 1 << 1, BS_ROUTED = 1 << 2 };
/* Flags. */
enum {
    BF_ELIM = 1 << 0,      /* eliminated (units) or killed (leaders) */
    BF_ON = 1 << 1,        /* has been on the map (reinforcements: entered) */
    BF_ACTED = 1 << 2,     /* independents, higher leaders: activated this turn; other
                            * units: attached to another Command this turn (3.2b C) */
    BF_FIRED = 1 << 3,     /* this activation */
    BF_CC = 1 << 4,        /* attacked in close combat this activation */
    BF_OOC = 1 << 5,       /* Out of Command this activation */
    BF_MOVED = 1 << 6,     /* spent MPs this activation */
    BF_FULL = 1 << 7,      /* still has its full MA (for "all MPs" moves) */
};

typedef struct bar_pc {
    mk_hex hex;            /* MK_NO_HEX: off the map */
    int8_t sp;             /* SPs left (units) */
    uint8_t form;          /* BAR_FM_* */
    uint8_t facing;        /* 0-11: 30-degree steps from map-up */
    uint8_t status;        /* BS_* */
    uint8_t flags;         /* BF_* */
    int8_t mp;             /* half MPs left this activation */
    int8_t road;           /* 5.2g: the current 1/2 MP's road run (bar_road_step) */
    int8_t wounded;        /* leaders: turns out (6.6e) */
    int8_t spent;          /* half MPs spent this activation (2.7, 2.8, 4.1a B) */
    uint8_t more;          /* BM_* */
    union {
        int8_t ctr;        /* a leader: a replacement's Leader Loss counter + 1 (2.4b) */
        int8_t tail;       /* a unit: its second hex (Monmouth 2.1c a Road Column's
                            * trailing hex, 2.1a a two-hex Line's): 0 none, 1-6 the
                            * core direction + 1 from hex to it, BAR_TAIL_OFF still
                            * off the map (bar_tail_hex, bar_put) */
    };
    uint8_t more2;         /* BM2_*, when BM_* ran out (in what was the struct's padding byte) */
    int16_t back;          /* 3.4c: the first turn it may re-enter; 7.4a G: 1, an exited
                            * Advanced Corps unit that has been reorganized */
} bar_pc;
bool bar_offmap_exit_hex(const mk_scenario *sc, mk_hex h);
enum {
    BM_OFF_ROAD = 1 << 0,  /* moved off a road this activation (2.7 C-D "road only") */
    BM_VOL_ROUT = 1 << 1,  /* the rout is voluntary (2.5, 3.2b G iv) */
    BM_EXITED = 1 << 2,    /* left the map (7.1a A, 7.2d B, 7.3d C, 7.4d C) */
    BM_GUARD = 1 << 3,     /* the baggage train guard (7.4a F i) */
    BM_OFFMAP = 1 << 4,    /* off the map by W0114/W0124 (3.4c), back from turn `back` */
    BM_DISMOUNTED = 1 << 5,   /* a unit with a mounted mode is dismounted (4.1b E, 7.4a C) */
    BM_SK_NEAR = 1 << 6,   /* 2.6a: began the activation within 2 hexes of a friendly formed unit */
    BM_JC_LOC = 1 << 7,    /* 7.4a J: a Jaeger Corps unit that began Wurmb's activation in his LOC */
};
/* bar_pc.more2 */
enum {
    BM2_HOOK_LEFT = 1 << 0, /* in Hook (BAR_FM_HOOK): the bent end is to the left (else the right) */
    BM2_PRO1 = 1 << 1,      /* 2.2d F: prolonged a hex this activation (no Formation/Facing change) */
    BM2_PRO2 = 1 << 2,      /* 2.2d F: regimental guns, a second hex */
    BM2_BATTERY = 1 << 3,   /* 3.2b C-D, 4.2b D: fired with a Special Leader's battery this turn */
    BM2_CAPTURED = 1 << 4,  /* a Command Leader: an asterisked Initiative special result was applied to
                             * him this turn (Monmouth 6.2, the 'CAPTURED' marker of 6.2c-f) */
    BM2_NO_MP = 1 << 5,     /* 2.8 E: failed a Heat check Shaken/Disordered: no MPs next activation */
    BM2_OUT = 1 << 6,       /* not in play: a piece of a variant the game does not use (7.1a C) */
};

/* Phases. */
enum { BP_ACTIVATE, BP_MOVE, BP_FIRE, BP_CC, BP_OVER, BP_GUARD,
       BP_DEPLOY };   /* the option bar.deploy: `side` deploys (Monmouth 7.xb-c) */

typedef struct bar_state {
    mk_head head;
    int16_t turn;          /* turn index (clock.c) */
    int8_t phase;
    int8_t side;           /* whose activation (or whose choice of Command) */
    int8_t first;          /* who won this turn's initiative */
    int8_t bonus;          /* 2.4a: a Wing Activation's second Command to come */
    int8_t marker;         /* End Turn track */
    int8_t in_command;     /* the activated leader passed (or needed no roll) */
    int16_t org;           /* the activated Command */
    int16_t npieces;
    uint64_t acted[2];     /* Commands activated this turn (bit per oob org) */
    int16_t loss[2];       /* Army Loss Record boxes (infantry/cavalry SPs, leaders) */
    int16_t sp_lost[2];    /* SPs lost on the roster (automatic draw) */
    int16_t art_lost[2][2];   /* [side][0 field, 1 light/regimental] SPs (2.2d H) */
    int8_t army_mod[2];    /* Army Morale: added to every check's ER (1.2a C) */
    bool american_e3915;   /* 7.1d E: ever in or next to E3915 */
    bool limits_off;       /* 7.1a: the British initial limits lifted */
    uint8_t orchard;       /* 7.1d B: bits of the orchard hexes the British entered last */
    uint16_t advance;      /* 7.3d B: advance hexes reached */
    int16_t army[2];       /* the Army Leader's piece (3.2a B, 3.2b G i, 4.2a B) */
    int8_t army_wan[2], army_cr[2];   /* his WAN and Command Rating */
    bool lee_relieved;     /* 3.2b G i: Washington has joined Lee */
    bool british_1020;     /* 3.4a: the British 10:20 AM reinforcements have entered */
    int8_t lee_range;      /* 3.2b G ii: Lee's Command Range this activation */
    int8_t nsnipe;         /* 2.6b: (sniper, leader) pairs this Fire Segment */
    int16_t snipe[16][2];
    int8_t baggage;        /* 7.4a F: British baggage train losses (0-24) */
    int8_t raid_skip;      /* turns left without raids (07, 08) */
    bool raids_end, ambush_used;
    /* a Close Combat waiting for the defender's Retreat Before Close Combat
     * decision (2.3f, series): the attacker, the hex, charge or not */
    int16_t rb_unit;       /* -1: none */
    mk_hex rb_target;
    uint8_t rb_flags;
    int8_t charge_hexes;   /* 2.8 D: hexes the charging unit entered in its charge movement */
    /* a charge the reactive side's cavalry may make mid-activation (2.3b;
     * the procedure is ours, docs/bar.md): BX_COUNTER, the charger cx_unit
     * charging hex cx_target may be Countercharged; BX_OPPORTUNITY, the
     * mover cx_unit may be Opportunity Charged in its hex */
    uint8_t cx_kind;
    int16_t cx_unit;       /* -1: none */
    mk_hex cx_target;
    /* 2.2d D: a unit that has just made Road Movement into a hex the
     * reactive artillery may fire at: the reactive side's decision */
    int16_t det[2];        /* 3.3, 4.3: the Detachment Leader's piece, -1 none */
    int16_t of_unit;       /* -1: none */
    int8_t nof;            /* (reactive unit, mover) pairs that fired this activation */
    int16_t of[16][2];
    /* Series 12.8 (ours, docs/bar.md): what the pending decision offers
     * (BOF_*), and the hexes the general Opportunity Fires of this
     * activation went into (12.8e: twice a hex) */
    uint8_t of_kind;
    int8_t nopx;
    mk_hex opx[12];
    uint8_t opts;          /* the game's optional rules (BO_*) */
    /* 3.2b C-D, 4.2b D: the Special Leader whose stacked artillery fired
     * this Fire Combat Segment, and its target (the battery's) */
    int16_t bat_leader;    /* -1: none */
    mk_hex bat_target;
    /* Monmouth 6.2: an Initiative special result waiting for its player's
     * choice (BAR_INI_*, -1 none; in BP_ACTIVATE, the side rolling is
     * `side`), the special segment in progress (BSR_*: the free Fire or
     * Close Combat of 6.2d, the free Movement Segment of 6.2f), the turn's
     * BST_* flags, and the Army Leader's Command Rating used this hour
     * (6.2a A) */
    int8_t sr;
    int8_t sr_mode;
    uint8_t sr_turn;
    int8_t cr_used[2];
    /* 3.2a C, 4.2a C: leaders who succeeded a Wing/Detachment Leader: the
     * piece, and the Wing (oob org) he heads; succ_wing -1: a free slot */
#define BAR_MAX_SUCC 4
    int8_t succ_wing[BAR_MAX_SUCC];
    int16_t succ[BAR_MAX_SUCC];
    uint64_t ac_ste;       /* 7.4a H: Commands (bit per oob org) re-entered under von Steuben's Wing */
    int8_t winner;         /* when over */
    int8_t level;          /* bar_level */
    bar_pc pc[BAR_MAX_PIECES];
} bar_state;
_Static_assert(sizeof(bar_state) <= 4096, "the Monmouth state must stay within 4 KiB");

/* bar_state.sr_mode: a special segment (6.2d, 6.2f); 0: a plain activation. */
enum { BSR_NONE, BSR_FIRE, BSR_CLOSE, BSR_MOVE };
/* bar_state.sr_turn */
enum { BST_ARMY_MORALE = 1 << 0,   /* 6.2a B: the '00' check was made this turn */
       BST_LAPSE = 1 << 1 };       /* 6.2b: BST_LAPSE << side: that Army Leader's LOC has lapsed */
/* bar_state.in_command: 0 Out of Command, 1 In Command, BIC_LIMITED: 6.2c's
 * Command that passed one of its two rolls (half MPs, no Close Combat, no
 * Independents) */
enum { BIC_LIMITED = 2 };

/* Action types. */
enum {
    BA_NONE, BA_ACTIVATE, BA_NEXT, BA_MOVE, BA_FACE, BA_FORM, BA_ENTER, BA_FIRE, BA_CC,
    BA_SNIPE, BA_ROUT, BA_EXIT, BA_GUARD, BA_RBCC, BA_OPFIRE, BA_DETACH,
    BA_COUNTERCHARGE,   /* the reactive side: a cavalry unit (or none) meets a Charge (2.3b) */
    BA_OPCHARGE,        /* the reactive side: a cavalry unit (or none) charges a mover (2.3b, 6.2d C) */
    BA_MOUNT,           /* mount (flags 1) or dismount (0): target formation, other facing (4.1b E, 7.4a C) */
    BA_PROLONGE,           /* 2.2d F-G: unlimbered artillery moves a hex */
    BA_ATTACH,             /* 3.2b C, 4.2b D: Knox or Pattison attaches an artillery unit (other) */
    BA_SPECIAL,            /* 6.2: the choice an Initiative special result asks for */
    BA_DEPLOY,             /* the option bar.deploy: a piece to another of its "deploy" hexes (7.xb-c) */
    BA_COUNT
};
enum { BX_COUNTER = 1, BX_OPPORTUNITY = 2 };
enum { BAF_WING = 1,     /* BA_ACTIVATE: try a Wing Activation (2.4a) */
       BAF_CHARGE = 2,    /* BA_CC: a cavalry Charge (2.3), path[0] its end hex */
       BAF_HOOK_LEFT = 4, /* BA_FORM to BAR_FM_HOOK: bend the left end (else the right) */
       BAF_GUNS = 8,      /* BA_FIRE: with the unit's regimental guns (2.2d E iv), `other` */
       BAF_CLOSE = 16,    /* BA_SPECIAL, 6.2d: a Close Combat Segment (else Fire Combat) */
       BAF_UP = 32,       /* BA_SPECIAL, 6.2g: the End Turn marker up a box */
       BAF_DOWN = 64,     /* BA_SPECIAL, 6.2g: down a box */
       /* (flags are read per action type: BA_FACE's below share values with others') */
       BAF_PIVOT_FIRST = 8,   /* BA_FACE of a two-hex Line (2.1a, ours): wheel about its first hex */
       BAF_PIVOT_SECOND = 16 };   /* ... about its second hex */

/* --- two-hex units (Monmouth 2.1a, 2.1c; docs/bar.md "Two-hex Road
 * Column", "Two-hex Line") ------------------------------------------------ */
#define BAR_TAIL_OFF 7
#define BAR_LINE2_MIN_SP 7   /* Monmouth 2.1a: "The minimum SPs necessary for an infantry unit to form a 2 hex Line" */
/* 2.1c: a unit in (artillery) Road Column with more SPs than one hex of
 * that formation holds (8; artillery 2) is in two hexes. */
static inline bool bar_wants_tail(const bar_ext *x, int i, int form, int sp)
{
    return x->p[i].kind != BK_LEADER && (form == BAR_FM_ROAD_COLUMN || form == BAR_FM_ARTILLERY_ROAD_COLUMN) &&
           sp > x->ch.stacking[form];
}
/* 2.1a: may infantry with sp SPs in form keep a second hex beside it
 * (a two-hex Line: the player's choice, bar_wants_tail never asks it)? */
static inline bool bar_line2_ok(const bar_ext *x, int i, int form, int sp)
{
    return x->p[i].kind == BK_INFANTRY && form == BAR_FM_LINE && sp >= BAR_LINE2_MIN_SP;
}
static inline mk_hex bar_tail_hex(const bar_state *s, const mk_scenario *sc, int i)
{
    const bar_pc *p = &s->pc[i];
    if (bar_x(sc)->p[i].kind == BK_LEADER || p->tail < 1 || p->tail > 6 || p->hex == MK_NO_HEX)
        return MK_NO_HEX;
    return bar_x(sc)->nb[p->hex][p->tail - 1];
}
/* Does piece i stand (with its head or its tail) in hex h? */
static inline bool bar_in_hex(const bar_state *s, const mk_scenario *sc, int i, mk_hex h)
{
    return h != MK_NO_HEX && (s->pc[i].hex == h || bar_tail_hex(s, sc, i) == h);
}
/* The SPs piece i has in hex h: 2.1c, a two-hex Road Column has a hex's
 * most (8) at its head and the rest in its trailing hex; one whose tail is
 * still off the map has the head's share on the map. */
int bar_sp_in(const bar_state *s, const mk_scenario *sc, int i, mk_hex h);
/* Moves piece i's head to `to` (MK_NO_HEX: off the map); 2.1c: a two-hex
 * Road Column's tail follows into the head's previous hex; one entering
 * the map has its tail off the map; any other unit has none. */
void bar_put(bar_state *s, const mk_scenario *sc, int i, mk_hex to);
/* After a loss or a formation change: no tail unless bar_wants_tail (or a
 * two-hex Line still of 7 SPs, bar_line2_ok). */
void bar_tail_update(bar_state *s, const mk_scenario *sc, int i);

/* --- who stands where ------------------------------------------------------ */
/* A per-call index of the pieces in each hex, built on the caller's stack
 * by bar_occ_build: the state is plain data, cloned with memcpy, so it
 * keeps no index of its own, and a generator that asks "who is in hex h"
 * hundreds of times builds this once (one pass over the pieces) instead of
 * scanning every piece each time. Invariant: for a hex whose bit is set in
 * `used`, first[h] is the lowest index of a piece there and next[] links
 * the others in increasing index order (-1 ends the chain), so a walk
 * visits the same pieces in the same order as a scan of s->pc; first[h] of
 * an unused hex is never read. Valid until the state changes. */
typedef struct bar_occ {
    uint64_t used[(MK_MAX_HEX + 63) / 64];
    int16_t first[MK_MAX_HEX];
    int16_t next[MK_MAX_UNITS];
    /* 2.1c: the pieces whose tail (second hex) is in h, chained the same
     * way (tused, tfirst, tnext) */
    uint64_t tused[(MK_MAX_HEX + 63) / 64];
    int16_t tfirst[MK_MAX_HEX];
    int16_t tnext[MK_MAX_UNITS];
} bar_occ;

static inline int bar_occ_first(const bar_occ *o, mk_hex h)
{
    return h >= 0 && h < MK_MAX_HEX && (o->used[h >> 6] >> (h & 63) & 1) ? o->first[h] : -1;
}
static inline int bar_occ_tfirst(const bar_occ *o, mk_hex h)
{
    return h >= 0 && h < MK_MAX_HEX && (o->tused[h >> 6] >> (h & 63) & 1) ? o->tfirst[h] : -1;
}
/* for (each piece i standing in h): the heads there, then the tails */
#define BAR_OCC_EACH(o, h, i)                                                                   \
    for (int i##_k = 0, i = bar_occ_first(o, h); i##_k < 2;                                     \
         i = ++i##_k < 2 ? bar_occ_tfirst(o, h) : -1)                                           \
        for (; i >= 0; i = i##_k ? (o)->tnext[i] : (o)->next[i])

/* A generator's `want` (bar_legal_move, _fire, _cc): NULL lists every
 * action; an action lists at least the actions equal to it (its piece's,
 * and "next"), as apply checks one action without listing them all. */
static inline void bar_want_range(const bar_state *s, const mk_action *want, int *lo, int *hi)
{
    bool one = want && want->unit >= 0 && want->unit < s->npieces;
    *lo = one ? want->unit : 0;
    *hi = one ? want->unit + 1 : want ? 0 : s->npieces;
}

/* --- shared helpers -------------------------------------------------------- */
void bar_occ_build(bar_occ *o, const bar_state *s, const mk_scenario *sc);
static inline bool bar_is_leader(const bar_pinfo *p) { return p->kind == BK_LEADER; }
static inline bool bar_alive(const bar_state *s, int i) { return !(s->pc[i].flags & BF_ELIM); }
/* Command org (oob index, -1 none) of side has been activated this turn. */
static inline bool bar_org_acted(const bar_state *s, int side, int org)
{
    return org >= 0 && org < 64 && (s->acted[side] >> org & 1);
}
int bar_other(int side);
const char *bar_pid(const mk_scenario *sc, int i);
/* A combat unit, on the map, of side (or any side if -1), not routed if formed. */
bool bar_unit_at(const bar_state *s, const mk_scenario *sc, mk_hex h, int side, bool formed_only);
int bar_stack_sp(const bar_state *s, const mk_scenario *sc, mk_hex h, int side);
/* Monmouth 2.1b: a Square needs 6 SPs in its hex (bar_square_check) */
#define BAR_SQUARE_MIN_SP 6
int bar_square_sp(const bar_state *s, const mk_scenario *sc, mk_hex h, int side);
void bar_square_check(bar_state *s, const mk_scenario *sc, mk_hex h, mk_events *ev);
void bar_squares_check(bar_state *s, const mk_scenario *sc, mk_events *ev);
bool bar_is_front(const bar_state *s, const mk_scenario *sc, int i, mk_hex to);
bool bar_faces(const bar_state *s, int i, int bearing12);
/* A Hook (BAR_FM_HOOK, docs/bar.md "Hook"): its two arms, the Line's own
 * front (facing f) and the bent end's (f + 2 to the right, f - 2 to the
 * left, in 30-degree steps); which arms bear on bearing b: bit 0 the
 * Line's arm, bit 1 the bent arm (0: not in the front). For any other
 * formation, 3 if bar_faces, else 0. */
int bar_hook_arms(const bar_state *s, int i, int bearing12);
/* 2.1a: the Combat Value of side's Line/Hook units in hex h, the average
 * (rounded) of the units that give the top 6 SPs (status modifiers in);
 * -99 if there are none there. */
int bar_line_cv(const bar_state *s, const mk_scenario *sc, mk_hex h, int side);
bool bar_in_ezoc(const bar_state *s, const mk_scenario *sc, int side, mk_hex h);
bool bar_in_ezoc_o(const bar_state *s, const bar_occ *o, const mk_scenario *sc, int side, mk_hex h);
int bar_bearing12(const mk_grid *g, mk_hex a, mk_hex b);   /* 0-11 */
int bar_dir_step(int dir);                                 /* core direction -> 0-11 */
int bar_move_class_of(const bar_pinfo *p, int form);
/* Mounted and dismounted modes (Monmouth 4.1b E, 7.4a C): */
bool bar_has_modes(const mk_scenario *sc, int i);             /* cavalry, MtdJ */
bool bar_mounted(const bar_state *s, const mk_scenario *sc, int i);
bool bar_charges(const bar_state *s, const mk_scenario *sc, int i);   /* mounted cavalry */
int bar_ma_half(const bar_state *s, const mk_scenario *sc, int i);    /* its MA now */
int bar_move_class_now(const bar_state *s, const mk_scenario *sc, int i);
int bar_fire_row_now(const bar_state *s, const mk_scenario *sc, int i);   /* -1: does not fire */
bool bar_piece_active(const bar_state *s, const mk_scenario *sc, int i);
int bar_org_leader(const mk_scenario *sc, int org);
int bar_check_target(const bar_state *s, const mk_scenario *sc, int i, int mod);
int bar_do_check(bar_state *s, const mk_scenario *sc, int i, char kind, char letter, int mod,
                 const char *rule, mk_events *ev);
void bar_lose_sp(bar_state *s, const mk_scenario *sc, int i, int n, mk_events *ev);
void bar_rout_unit(bar_state *s, const mk_scenario *sc, int i, mk_events *ev);
void bar_leader_check(bar_state *s, const mk_scenario *sc, mk_hex h, int natural, mk_events *ev);
mk_event *bar_ev(mk_events *ev, const char *type, const char *rule);
mk_event *bar_declined(const mk_scenario *sc, int i, mk_hex hex, const char *what, const char *rule,
                       mk_events *ev);

/* command.c: leaders (2.4, 3.2, 4.2, 2.6b) */
typedef struct bar_lv {
    int initiative, range, er_bonus, cv_bonus, cr, wan;
} bar_lv;
bar_lv bar_leader_values_of(const bar_state *s, const mk_scenario *sc, int l);
int bar_army_leader(const bar_state *s, int side);
void bar_command_init(bar_state *s, const mk_scenario *sc);
void bar_leader_hit(bar_state *s, const mk_scenario *sc, int l, bool killed, mk_events *ev);
int bar_wing_of(const bar_state *s, const mk_scenario *sc, int l);
bool bar_lee_commands(const bar_state *s, const mk_scenario *sc, int org);
int bar_lee_activation(bar_state *s, const mk_scenario *sc, int org, mk_events *ev);
void bar_lee_ooc_penalty(bar_state *s, const mk_scenario *sc, int org, mk_events *ev);
void bar_lee_joined(bar_state *s, const mk_scenario *sc, int moved, mk_events *ev);
int bar_legal_snipe(const bar_state *s, const mk_scenario *sc, mk_action *out, int n, int cap);
int bar_apply_snipe(bar_state *s, const mk_scenario *sc, const mk_action *a, mk_events *ev);
void bar_rout_hexes(bar_state *s, const mk_scenario *sc, int i, int hexes, bool voluntary, mk_events *ev);

/* baggage.c: 7.4a F */
int bar_legal_guard(const bar_state *s, const mk_scenario *sc, mk_action *out, int cap);
void bar_apply_guard(bar_state *s, const mk_scenario *sc, const mk_action *a, mk_events *ev);
bool bar_guard_turn(const bar_state *s, const mk_scenario *sc);
void bar_raids(bar_state *s, const mk_scenario *sc, mk_events *ev);

/* turn.c */
void bar_turn_start(bar_state *s, const mk_scenario *sc, mk_events *ev);
int bar_turn_init(bar_state *s, const mk_scenario *sc, mk_events *ev);
int bar_legal_activate(const bar_state *s, const mk_scenario *sc, mk_action *out, int cap);
int bar_apply_detach(bar_state *s, const mk_scenario *sc, const mk_action *a, mk_events *ev);
int bar_apply_activate(bar_state *s, const mk_scenario *sc, const mk_action *a, mk_events *ev,
                       mk_error *err);
void bar_end_activation(bar_state *s, const mk_scenario *sc, mk_events *ev);
void bar_result(const void *st, const mk_scenario *sc, mk_result *out);
void bar_victory_input(const bar_state *s, const mk_scenario *sc, bar_victory_in *in);
bool bar_org_can_activate(const bar_state *s, const mk_scenario *sc, int side, int org);
/* 7.4a G-H (scenario 4): a piece of the Advanced Corps (Lee's Wing); may
 * such pieces leave the map now (before any Night turn); may piece i, which
 * left, come back now (from 5:00 AM 29 June) */
bool bar_ac_member(const bar_state *s, const mk_scenario *sc, int i);
bool bar_ac_exit_open(const bar_state *s, const mk_scenario *sc);
bool bar_ac_reenters(const bar_state *s, const mk_scenario *sc, int i);
/* 6.2: the choice an Initiative special result waits for (s->sr), and
 * the end of a special segment (6.2d, 6.2f) */
int bar_legal_special(const bar_state *s, const mk_scenario *sc, mk_action *out, int cap);
int bar_apply_special(bar_state *s, const mk_scenario *sc, const mk_action *a, mk_events *ev);
void bar_end_special_segment(bar_state *s, const mk_scenario *sc, mk_events *ev);
bool bar_special_active(const bar_state *s, const mk_scenario *sc, int i);

/* move.c */
int bar_legal_move(const bar_state *s, const mk_scenario *sc, const mk_action *want, mk_action *out,
                   int n, int cap);
int bar_apply_move(bar_state *s, const mk_scenario *sc, const mk_action *a, mk_events *ev,
                   mk_error *err);
int bar_move_cost(const bar_state *s, const mk_scenario *sc, int i, mk_hex to, int *road_run);
/* 5.2, 5.3 (the Terrain Effects Chart): half MPs for a unit of move class
 * cls to step off the road from hex `from` into its neighbour `to` across
 * hexside bits `side` (slopes up only, a bridged creek free, hedgerows
 * free to Skirmish), BAR_COST_ALL or BAR_COST_PROHIBITED; lakes and roads
 * are the caller's (bar_move_cost, evaluate.c's exit costs). */
int bar_terrain_step(const bar_ext *x, int cls, bool skirmish, mk_hex from, mk_hex to, unsigned side);
int bar_stack_limit(const bar_state *s, const mk_scenario *sc, mk_hex h, int extra, int extra_form);
/* The option bar.deploy (Monmouth 7.xb-c): the deploying side's deploy
 * actions (want: one piece's only, as bar_legal_move) after out[0..n-1],
 * and its `next`; the action's refusal in err (0: legal); apply one. */
int bar_legal_deploy(const bar_state *s, const mk_scenario *sc, const mk_action *want, mk_action *out, int n,
                     int cap);
int bar_deploy_refusal(const bar_state *s, const mk_scenario *sc, const mk_action *a, mk_error *err);
void bar_apply_deploy(bar_state *s, const mk_scenario *sc, const mk_action *a, mk_events *ev);
/* 2.1a (ours): a two-hex Line wheeling 60 degrees to facing f about its
 * first (pivot 0) or second (1) hex: the moving end's hex now (*from) and
 * after (returned; MK_NO_HEX if off the map or not a wheel). */
mk_hex bar_wheel_hex(const bar_state *s, const mk_scenario *sc, int i, int pivot, int f, mk_hex *from);
void bar_end_movement(bar_state *s, const mk_scenario *sc, mk_events *ev);
/* 2.8: in a Heat turn, unit i's Disorder Check (A) for Heat at +mod ER
 * (B-D); 2.8 E: its worst result, Shaken/Disordered already, costs the
 * next activation's MPs; it never routs. Nothing outside a Heat turn. */
void bar_heat_check(bar_state *s, const mk_scenario *sc, int i, int mod, const char *rule, mk_events *ev);
void bar_skirmish_start(bar_state *s, const mk_scenario *sc);   /* 2.6a, 7.4a J: at an activation's start */

/* fire.c */
int bar_legal_fire(const bar_state *s, const mk_scenario *sc, const mk_action *want, mk_action *out,
                   int n, int cap);
int bar_apply_fire(bar_state *s, const mk_scenario *sc, const mk_action *a, mk_events *ev,
                   mk_error *err);
int bar_fire_strength_of(const bar_state *s, const mk_scenario *sc, int i, mk_hex target,
                         int *column);
int bar_fire_strength_with(const bar_state *s, const mk_scenario *sc, int i, int guns, mk_hex target, int *column);
/* Optional rules (mk_bar_ruleset.options; bit i is options[i]). */
enum { BO_OPFIRE = 1,      /* "bar.opportunity-fire": Series 12.8 (ours) */
       BO_MORGAN = 2,     /* "bar.7.1a.C": the Morgan variant (Monmouth 7.1a C) */
       BO_DEPLOY = 4 };   /* "bar.deploy": the players choose their set-up (Monmouth 7.xb-c) */
enum { BOF_ROAD = 1,     /* 2.2d D: artillery against Road Movement */
       BOF_CLOSE = 2 };  /* Series 12.8: a unit's front hexes entered or a Formation/Facing change there */
bool bar_opfire_offered(bar_state *s, const mk_scenario *sc, int mover, unsigned kinds);
int bar_legal_opfire(const bar_state *s, const mk_scenario *sc, mk_action *out, int cap);
int bar_apply_opfire(bar_state *s, const mk_scenario *sc, const mk_action *a, mk_events *ev);
void bar_resolve_fire(bar_state *s, const mk_scenario *sc, int i, mk_hex target, bool defensive, mk_events *ev);
void bar_resolve_fire_with(bar_state *s, const mk_scenario *sc, int i, int guns, mk_hex target, bool defensive,
                           mk_events *ev);

/* artillery.c: regimental guns (2.2d E), prolonge (2.2d F-G), the
 * artillery Special Leaders (3.2b C-D, 4.2b D) */
bool bar_is_rgt_gun(const bar_pinfo *p);
bool bar_rgt_may_fire(const bar_state *s, const mk_scenario *sc, int g);
int bar_rgt_guns_with(const bar_state *s, const mk_scenario *sc, int i);
bool bar_rgt_may_unlimber(const bar_state *s, const mk_scenario *sc, int g);
bool bar_rgt_spared(const bar_state *s, const mk_scenario *sc, int g);
bool bar_rgt_with_owner(const bar_state *s, const mk_scenario *sc, int g);
void bar_rgt_conform(bar_state *s, const mk_scenario *sc);
void bar_battery_note(bar_state *s, const mk_scenario *sc, int i, mk_hex target);
bool bar_battery_may(const bar_state *s, const mk_scenario *sc, int j);
int bar_legal_attach(const bar_state *s, const mk_scenario *sc, int lo, int hi, mk_action *out, int n, int cap);
void bar_apply_attach(bar_state *s, const mk_scenario *sc, const mk_action *a, mk_events *ev);
int bar_legal_battery(const bar_state *s, const mk_scenario *sc, int lo, int hi, mk_action *out, int n, int cap);

/* melee.c */
int bar_legal_cc(const bar_state *s, const mk_scenario *sc, const mk_action *want, mk_action *out,
                 int n, int cap);
int bar_apply_cc(bar_state *s, const mk_scenario *sc, const mk_action *a, mk_events *ev,
                 mk_error *err);
mk_hex bar_charge_end(const bar_state *s, const mk_scenario *sc, int i, mk_hex target);
int bar_legal_rbcc(const bar_state *s, const mk_scenario *sc, mk_action *out, int cap);
int bar_apply_rbcc(bar_state *s, const mk_scenario *sc, const mk_action *a, mk_events *ev);
bool bar_opcharge_offered(bar_state *s, const mk_scenario *sc, int mover);
int bar_legal_xcharge(const bar_state *s, const mk_scenario *sc, mk_action *out, int cap);
int bar_apply_xcharge(bar_state *s, const mk_scenario *sc, const mk_action *a, mk_events *ev);

/* evaluate.c: the tables, at scenario preparation; the evaluate hook */
void bar_eval_prepare(bar_ext *x, const mk_grid *g);
double bar_evaluate(const void *st, const mk_scenario *sc, int side);

/* setup.c: the scenario file of Monmouth scenario n (1-4) built from
 * data/bar/ (oob.json, scenarios/, map.json): pieces placed, NULL on error. */
json_t *bar_build_scenario(int n, mk_error *err);

#endif
