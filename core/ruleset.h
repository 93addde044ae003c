/* ruleset.h - the interface every game system implements (ARCHITECTURE.md).
 *
 * A ruleset is a table of hooks plus data, in the manner of OpenSpiel's
 * Game/State and Freeciv's ai_type. Each ruleset owns its state struct:
 * plain data, fixed-size arrays, no pointers, starting with an mk_head, so
 * that cloning a game is one memcpy of state_size bytes. The scenario
 * (map, unit ids, charts) is read-only and passed to every hook; a state
 * refers to its units by scenario index.
 *
 * Decisions belong to a side, not to the turn: in the middle of an action
 * the other side may have to choose (which tied unit takes a hit, a retreat
 * hex). The state then records a pending decision; to_move() says whose it
 * is and legal() lists only that decision's choices.
 *
 * legal() and apply() are the hot path of the AI and of batch simulation:
 * they never allocate, never touch JSON, never print. */
#ifndef MK_RULESET_H
#define MK_RULESET_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "error.h"
#include "event.h"
#include "hex.h"
#include "rng.h"
#include "scenario.h"

#define MK_PATH_MAX 6
#define MK_MAX_ACTIONS 1024   /* legal() never lists more */
#define MK_MAX_OPTIONS 64

/* An action is a small value. type and flags are the ruleset's; unit,
 * other and target are indices (-1 for none); path holds the hexes a move
 * enters, in order. cost is the points it spends, filled in by legal(). */
typedef struct mk_action {
    uint8_t type;
    uint8_t flags;
    uint8_t cost;
    uint8_t npath;
    int16_t unit;
    int16_t other;
    int16_t target;
    int16_t path[MK_PATH_MAX];
} mk_action;

/* The first member of every ruleset's state. */
typedef struct mk_head {
    mk_rng rng;
    uint32_t actions;   /* actions applied so far */
} mk_head;

typedef struct mk_result {
    int winner;           /* side index, or -1 for none (a draw, or both lose) */
    const char *level;    /* "decisive", "marginal", "draw", ... (static) */
    char reason[128];
} mk_result;

typedef struct mk_option {
    const char *id;       /* "htl.11.3" (PROTOCOL.md naming) */
    const char *title;    /* one line for menus and --help */
} mk_option;

typedef struct mk_ruleset {
    const char *id;       /* "htl" */
    const char *name;     /* "Hold the Line" */
    size_t state_size;    /* bytes of the state struct */

    const char *const *terrains;  /* terrain names; index 0 is the default (clear) */
    int nterrains;
    const char *const *kinds;     /* unit kinds */
    int nkinds;
    const mk_option *options;     /* optional rules; bit i of the mask is options[i] */
    int noptions;

    /* Checks what only this ruleset knows about a scenario that passed the
     * common checks: stacking at set-up, victory fields, extra unit fields.
     * Returns 0, or -1 with err (code "scenario_invalid", message naming
     * the JSON path). */
    int (*check_scenario)(const mk_scenario *sc, mk_error *err);
    /* Optional: after check_scenario, builds read-only data a ruleset
     * derives from the scenario once (too large for a state that is copied
     * on every action) into sc->ext, which every state of the game then
     * shares; release frees it. 0, or -1 with err as check_scenario. */
    int (*prepare)(struct mk_scenario *sc, mk_error *err);
    void (*release)(struct mk_scenario *sc);
    /* Checks a set of options (some rules exclude each other). 0 or -1. */
    int (*check_options)(uint64_t options, mk_error *err);

    /* Sets up the state (state_size bytes, zeroed by the caller) for the
     * scenario's first decision, seeding its dice, and appends the events
     * of that set-up (the first side's opening roll) to ev, which may be
     * NULL. Returns 0 or -1. */
    int (*init)(void *st, const mk_scenario *sc, uint64_t options, uint64_t seed, mk_events *ev,
                mk_error *err);
    /* Fills out (room for cap) with every action the deciding side may take
     * now, each with its cost, and returns how many. 0 once the game is over. */
    int (*legal)(const void *st, const mk_scenario *sc, mk_action *out, int cap);
    /* Checks the action and applies it, rolling dice from the state's
     * generator and appending events. Returns 0, or -1 with err (code
     * "illegal_action" and the rule that forbids it). On -1 the state may be
     * part-changed: the caller keeps a copy and restores it. */
    int (*apply)(void *st, const mk_scenario *sc, const mk_action *a, mk_events *ev, mk_error *err);
    /* Optional (NULL: apply). The same as apply for an action that is one
     * of legal(st)'s as listed, cost included, without checking it: the
     * computer players' path (their searches apply only listed actions),
     * where apply's check (finding the action among the legal ones) can
     * cost more than the action. Anything else is undefined; a debug build
     * checks and stops. Call it through mk_apply_listed. */
    int (*apply_listed)(void *st, const mk_scenario *sc, const mk_action *a, mk_events *ev,
                        mk_error *err);
    int (*to_move)(const void *st);   /* side index that decides now */
    int (*active)(const void *st);    /* side index whose turn it is */
    bool (*over)(const void *st);
    void (*result)(const void *st, const mk_scenario *sc, mk_result *out);
    /* A hash of everything in the state that matters to the game. */
    uint64_t (*hash)(const void *st, const mk_scenario *sc);
    /* A cheap estimate in [-1, 1] of how well side stands (AI cut-offs). */
    double (*evaluate)(const void *st, const mk_scenario *sc, int side);
    /* How deep mcts's tree may grow here, in actions (mk_ai_config's
     * tree_depth when a caller leaves it to the ruleset); 0: no limit.
     * Measured per ruleset (docs/ai.md): where a die roll changes the
     * position a lot, open-loop statistics below the root mix positions
     * too unlike to guide a choice, and a flat search (1) plays better. */
    int ai_tree_depth;
    /* How far mcts's rollouts go here (mk_ai_config's rollout_depth when a
     * caller leaves it to the ruleset): 0, to the horizon (the start of the
     * next turn of the side whose turn it is at the root); D > 0, D
     * actions, for a ruleset whose turns are too long for a rollout to
     * reach the next (Monmouth: a turn is hundreds of actions). */
    int ai_rollout_depth;
    /* How many random legal actions a rollout step to the horizon looks
     * at (the best by the evaluation is played); 0: mcts's default (10).
     * More make the rollouts play better and cost as many applies each
     * (docs/ai.md, "Candidates per rollout step in Horse & Musket"). */
    int ai_rollout_k;

    /* JSON (not on the hot path). */
    /* The STATE object of PROTOCOL.md, without "hash" (the caller adds it). */
    json_t *(*state_json)(const void *st, const mk_scenario *sc);
    /* An ACTION object with its "text" and "cost". */
    json_t *(*action_json)(const void *st, const mk_scenario *sc, const mk_action *a);
    /* Reads an ACTION object; "text" and "cost" may be absent and are
     * ignored. Returns 0, or -1 with err (code "bad_arg"). */
    int (*action_parse)(const void *st, const mk_scenario *sc, json_t *obj, mk_action *out,
                        mk_error *err);
} mk_ruleset;

static inline mk_head *mk_state_head(void *st) { return (mk_head *)st; }
static inline const mk_head *mk_state_head_c(const void *st) { return (const mk_head *)st; }

/* rs->apply_listed where the ruleset has it, else rs->apply: a must be
 * one of rs->legal(st)'s actions as listed (not one kept from another
 * state, whose cost may differ). */
static inline int mk_apply_listed(const mk_ruleset *rs, void *st, const mk_scenario *sc,
                                  const mk_action *a, mk_events *ev, mk_error *err)
{
    return rs->apply_listed ? rs->apply_listed(st, sc, a, ev, err) : rs->apply(st, sc, a, ev, err);
}

/* Two actions are the same choice (cost is not compared). */
bool mk_action_equal(const mk_action *a, const mk_action *b);

/* FNV-1a over bytes, chained from h (start with MK_HASH_INIT). */
#define MK_HASH_INIT 0xcbf29ce484222325ull
uint64_t mk_hash_bytes(uint64_t h, const void *p, size_t n);

/* The hash of the head: the generator's position, not its forced-dice
 * queue (queueing dice changes no game). Rulesets start their hash here. */
static inline uint64_t mk_head_hash(const mk_head *h)
{
    uint64_t x = mk_hash_bytes(MK_HASH_INIT, &h->rng.state, sizeof h->rng.state);
    x = mk_hash_bytes(x, &h->rng.inc, sizeof h->rng.inc);
    x = mk_hash_bytes(x, &h->rng.rolls, sizeof h->rng.rolls);
    return mk_hash_bytes(x, &h->actions, sizeof h->actions);
}

/* Index of the option with that id, or -1. */
int mk_ruleset_option(const mk_ruleset *rs, const char *id);
int mk_ruleset_terrain(const mk_ruleset *rs, const char *name);
int mk_ruleset_kind(const mk_ruleset *rs, const char *name);

#endif
