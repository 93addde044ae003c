/* game.h - one game: a ruleset, its scenario, the current state, the
 * record of what was played, and undo.
 *
 * This is the layer the programs use (protocol, terminal, server); the AI
 * and the rulesets work on raw states. It allocates freely, but keeps the
 * state itself plain so that every action is checked against a copy: a
 * refused action leaves the game exactly as it was.
 *
 * A game record (PROTOCOL.md "record") is JSON a person can read:
 *   {"musket_record": 1, "ruleset": "htl", "scenario": {...the object...},
 *    "options": {"htl.11.3": true}, "seed": 7,
 *    "actions": [ACTION, {"dice": [6, 1]}, ACTION, ...], "hash": "..."}
 * where {"dice": [...]} entries are forced dice queued at that point and
 * {"dice_cleared": true} marks where a forced value that did not fit its
 * die emptied the queue (the action that rolled it was refused). */
#ifndef MK_GAME_H
#define MK_GAME_H

#include <jansson.h>

#include "ruleset.h"

#define MK_EVENTS_MAX 256   /* events kept from one action */

typedef struct mk_game {
    const mk_ruleset *rs;
    mk_scenario *sc;         /* owned */
    uint64_t options;        /* bit i: rs->options[i] is on */
    uint64_t seed;
    void *st;                /* the state, rs->state_size bytes */
    void *prev;              /* the state before the last action, for undo */
    void *scratch;           /* a copy used while an action is checked */
    bool can_undo;
    bool networked;          /* refuses forced dice (PROTOCOL.md "dice") */
    json_t *log;             /* record entries so far */
    size_t log_at_prev;      /* log length before the last action */
    mk_event events[MK_EVENTS_MAX];
    mk_events sink;          /* the last action's events */
} mk_game;

/* Parses an options object ({"htl.11.3": true, ...}; NULL for none) into a
 * mask for rs. Unknown ids and non-boolean values are errors (bad_arg). */
int mk_options_parse(const mk_ruleset *rs, json_t *obj, uint64_t *mask, mk_error *err);
json_t *mk_options_json(const mk_ruleset *rs, uint64_t mask);

/* Starts a game. Takes ownership of sc (freed on failure too). */
mk_game *mk_game_new(mk_scenario *sc, uint64_t options, uint64_t seed, mk_error *err);
void mk_game_free(mk_game *g);

/* Checks and applies an action. On failure the game is unchanged. The
 * action's events are in g->sink until the next call. */
int mk_game_act(mk_game *g, const mk_action *a, mk_error *err);
/* The same from an ACTION object. */
int mk_game_act_json(mk_game *g, json_t *action, mk_error *err);
/* Queues forced dice (refused when networked or when the queue is full). */
int mk_game_force_dice(mk_game *g, const int *values, int n, mk_error *err);
/* Takes back the last action if it rolled no dice (else not_undoable). */
int mk_game_undo(mk_game *g, mk_error *err);

/* Legal actions now: fills out (room for cap), returns the count. */
int mk_game_legal(const mk_game *g, mk_action *out, int cap);
bool mk_game_over(const mk_game *g);
uint64_t mk_game_hash(const mk_game *g);

/* JSON views (new references). */
json_t *mk_game_state_json(const mk_game *g);   /* STATE, with "hash" */
json_t *mk_game_legal_json(const mk_game *g);   /* list of ACTION */
json_t *mk_game_events_json(const mk_game *g);  /* the last action's EVENTs */
json_t *mk_game_action_json(const mk_game *g, const mk_action *a);
json_t *mk_event_json(const mk_event *e, const mk_scenario *sc);
json_t *mk_game_record(const mk_game *g);
/* "16 hex digits" */
void mk_hash_hex(uint64_t h, char out[17]);

/* Replays a record: builds the game and applies every entry, then checks
 * the final hash if the record has one. Returns the game, or NULL with err
 * naming the step that failed ("actions[12]: ...") or the hash mismatch. */
mk_game *mk_game_replay(json_t *record, const mk_ruleset *const *rulesets, int nrulesets,
                        mk_error *err);

#endif
