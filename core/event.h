/* event.h - what happened during an action, with every number that decided
 * it (PROTOCOL.md, EVENT), so a player can check each roll by hand.
 *
 * Events are not part of the game state: a ruleset appends them to a sink
 * the caller passes in. A sink with no room (cap 0, as in AI playouts)
 * hands out its scratch event, so rule code never tests for NULL and never
 * allocates. Strings in an event are static (string literals). */
#ifndef MK_EVENT_H
#define MK_EVENT_H

#include <stdint.h>

#define MK_EV_VALUES 16
#define MK_EV_MODS 6
#define MK_UNSET INT16_MIN   /* an integer field left out of the JSON */

typedef struct mk_mod {
    int16_t value;
    const char *why;   /* "target in forest (HtL 2.3.5)" */
} mk_mod;

typedef struct mk_event {
    const char *type;     /* "roll", "morale", "hit", "eliminated", "retreat", ... */
    const char *purpose;  /* for rolls: "fire", "close_combat", "action_points", ... */
    const char *rule;     /* the section that decided it: "HtL 8.2.1" */
    const char *text;     /* an optional static word: "withdraw", "stand", ... */
    int16_t unit, other;  /* unit indices (scenario order), -1 for none */
    int16_t hex, from, to, target;   /* hexes, MK_NO_HEX (-1) for none */
    int16_t side;         /* side index, -1 for none */
    int16_t die;          /* faces: 3, 6, 10, 100; 0 when no dice */
    int16_t value, need, hits, mp, points;   /* MK_UNSET when not used */
    int16_t passed;       /* -1 unset, 0 false, 1 true */
    uint8_t nvalues, nmods;
    int16_t values[MK_EV_VALUES];
    mk_mod mods[MK_EV_MODS];
} mk_event;

typedef struct mk_events {
    mk_event *ev;    /* room for cap events, owned by the caller */
    int n, cap;
    int dropped;     /* events that did not fit */
    mk_event scratch;
} mk_events;

/* A sink over the caller's array (ev may be NULL with cap 0). */
void mk_events_init(mk_events *s, mk_event *ev, int cap);
/* Appends an event of the given type with every field unset, and returns
 * it (the scratch event if the sink is full; never NULL). */
mk_event *mk_events_add(mk_events *s, const char *type);
/* A decision answered "no" (an advance not taken, an opportunity fire
 * held, a re-roll refused): a "decline" event naming what was not done
 * (`what`, a static word) and the rule that offered it, so that every
 * choice, the computer's too, reads in the log with its rule (docs/ai.md,
 * "Difficulty levels"). unit -1 and hex MK_NO_HEX for none. */
mk_event *mk_events_decline(mk_events *s, int unit, int hex, const char *what, const char *rule);
/* Adds a value / modifier to an event; extra ones past the limits are dropped. */
void mk_event_value(mk_event *e, int value);
void mk_event_mod(mk_event *e, int value, const char *why);

#endif
