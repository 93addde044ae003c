/* turn.c - the game turn sequence (HtL 5) and the Action Point
 * Determination Phase (HtL 6.1): rolling AP, ending a player's turn,
 * counting game turns. */
#include <string.h>

#include "htl_int.h"

/* Starts `side`'s player turn (HtL 5 steps 1 and 4): clears the unit flags,
 * records where each unit starts (HtL 6.2.4, 6.2.5, 9.4 need it) and rolls
 * the random action die: AP = command AP - leaders lost (never below 0,
 * HtL 9.3.2) + d3 (HtL 6.1.1). */
void htl_turn_begin(htl_state *s, const mk_scenario *sc, int side, mk_events *ev)
{
    s->active = s->to_move = (int8_t)side;
    s->dragoon_fire = -1;
    s->free_fire = -1;
    for (int i = 0; i < s->nunits; i++) {
        s->u[i].flags = 0;
        s->u[i].start = s->u[i].hex;
        s->att_hex[i] = -1;
    }
    int cap = sc->sides[side].cap;
    /* 11.13: both sides use the higher command AP */
    if (HTL_OPT(s, 13) && sc->sides[1 - side].cap > cap)
        cap = sc->sides[1 - side].cap;
    int base = cap;
    /* 11.12: the players' own handicap, after 11.13's equalising */
    int adjust = htl_cap_adjust(s->options, side);
    cap += adjust;
    cap -= s->leaders_lost[side];
    if (side == s->first) /* 11.2: a new game turn */
        memset(s->fired_on, 0, sizeof s->fired_on);
    if (cap < 0)
        cap = 0; /* HtL 9.3.2: never below 0 */
    int roll = mk_rng_d3(&s->head.rng);
    s->ap_roll = (int8_t)roll;
    s->ap = (int8_t)(cap + roll);

    mk_event *e = mk_events_add(ev, "roll");
    e->purpose = "action_points";
    e->rule = "HtL 6.1.1";
    e->side = (int16_t)side;
    e->die = 3;
    mk_event_value(e, roll);
    mk_event_mod(e, (int16_t)base, HTL_OPT(s, 13) ? "command action points, equalised (HtL 11.13)"
                                                   : "command action points (HtL 6.1)");
    if (adjust)
        mk_event_mod(e, (int16_t)adjust, "command action points adjusted for balance (HtL 11.12)");
    if (cap != base + adjust)
        mk_event_mod(e, (int16_t)(cap - base - adjust),
                     "leaders lost (HtL 9.3.2, never below 0)");
    e->points = s->ap;

    e = mk_events_add(ev, "turn");
    e->rule = "HtL 5";
    e->side = (int16_t)side;
    e->value = s->turn;
    e->points = s->ap;
}

/* Ends the active player's turn: the victory check (HtL 5 steps 3 and 6),
 * then the other player's turn, or the next game turn (step 7), or the end
 * of the game after the last turn (HtL 10.C). */
void htl_turn_end(htl_state *s, const mk_scenario *sc, mk_events *ev)
{
    s->dragoon_fire = -1;
    s->free_fire = -1;
    bool second = s->active != s->first;
    bool last = second && s->turn >= s->turns;
    mk_event *e = mk_events_add(ev, "end_turn");
    e->rule = "HtL 5";   /* the Game Turn Sequence: the player's actions end */
    e->side = s->active;
    e->value = s->turn;
    htl_victory_check(s, sc, last, ev);
    if (s->over)
        return;
    if (second)
        s->turn++;
    htl_turn_begin(s, sc, 1 - s->active, ev);
}

/* Called when an action is complete (no decision pending): the turn ends
 * when the AP marker reaches zero (HtL 6.2.7). */
void htl_action_done(htl_state *s, const mk_scenario *sc, mk_events *ev)
{
    s->cb.on = 0;
    s->cb.pending = HP_NONE;
    s->to_move = s->active;
    if (!s->over && s->ap <= 0 && s->free_fire < 0)
        htl_turn_end(s, sc, ev);
}
