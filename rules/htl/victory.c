/* victory.c - Hold the Line victory (HtL 10): victory points, the checks
 * after each player's turn (HtL 5 steps 3 and 6), the time limit (10.C),
 * and the scenario's "victory" object:
 *   "victory": {"vp": {"american": 5, "british": 5},
 *               "time_limit_winner": "british"}
 * vp: the VP a side needs to win (absent or 0: that side cannot win on VP);
 * time_limit_winner: the side that wins if the last turn ends with no one
 * at its target (absent: more VP wins, equal VP is a draw). */
#include <stdio.h>
#include <string.h>

#include "htl_int.h"

/* One VP to side (HtL 10.A, 10.B), with an event. */
void htl_award_vp(htl_state *s, const mk_scenario *sc, int side, int unit, const char *rule,
                  mk_events *ev)
{
    s->vp[side]++;
    mk_event *e = mk_events_add(ev, "vp");
    e->rule = rule;
    e->side = (int16_t)side;
    e->unit = (int16_t)unit;
    e->value = 1;
    e->points = s->vp[side];
}

void htl_victory_init(htl_state *s, const mk_scenario *sc)
{
    s->vp_target[0] = s->vp_target[1] = 0;
    s->time_winner = -1;
    json_t *v = sc->json ? json_object_get(sc->json, "victory") : NULL;
    if (!json_is_object(v))
        return;
    json_t *vp = json_object_get(v, "vp");
    for (int i = 0; i < sc->nsides && i < 2; i++) {
        json_t *n = json_is_object(vp) ? json_object_get(vp, sc->sides[i].id) : NULL;
        if (json_is_integer(n))
            s->vp_target[i] = (int8_t)json_integer_value(n);
    }
    json_t *tw = json_object_get(v, "time_limit_winner");
    if (json_is_string(tw))
        s->time_winner = (int8_t)mk_scenario_side(sc, json_string_value(tw));
}

/* Checks the "victory" object (see the top of this file). */
int htl_victory_check_scenario(const mk_scenario *sc, mk_error *err)
{
    json_t *v = sc->json ? json_object_get(sc->json, "victory") : NULL;
    if (!v)
        return 0;
    if (!json_is_object(v))
        return mk_error_set(err, "scenario_invalid", "%s: victory: must be an object", sc->source);
    const char *key;
    json_t *val;
    json_object_foreach(v, key, val) {
        if (strcmp(key, "vp") == 0) {
            if (!json_is_object(val))
                return mk_error_set(err, "scenario_invalid",
                                    "%s: victory.vp: must be an object of side ids to VP",
                                    sc->source);
            const char *k2;
            json_t *v2;
            json_object_foreach(val, k2, v2) {
                if (mk_scenario_side(sc, k2) < 0)
                    return mk_error_set(err, "scenario_invalid",
                                        "%s: victory.vp.%s: no such side", sc->source, k2);
                if (!json_is_integer(v2) || json_integer_value(v2) < 0 ||
                    json_integer_value(v2) > 100)
                    return mk_error_set(err, "scenario_invalid",
                                        "%s: victory.vp.%s: must be an integer 0-100",
                                        sc->source, k2);
            }
        } else if (strcmp(key, "time_limit_winner") == 0) {
            if (!json_is_string(val) || mk_scenario_side(sc, json_string_value(val)) < 0)
                return mk_error_set(err, "scenario_invalid",
                                    "%s: victory.time_limit_winner: must name a side",
                                    sc->source);
        } else if (strcmp(key, "note") != 0) {
            return mk_error_set(err, "scenario_invalid", "%s: victory.%s: unknown field",
                                sc->source, key);
        }
    }
    return 0;
}

static void game_over(htl_state *s, int winner, int reason, mk_events *ev)
{
    s->over = 1;
    s->winner = (int8_t)winner;
    s->reason = (int8_t)reason;
    s->to_move = s->active;
    s->cb.on = 0;
    s->cb.pending = HP_NONE;
    mk_event *e = mk_events_add(ev, "game_over");
    e->rule = reason == HR_VP ? "HtL 10" : "HtL 10.C";
    e->side = (int16_t)winner;
}

/* HtL 5 steps 3 and 6: a side at or above its VP target wins (both: the
 * one with more VP, equal: a draw). After the last player turn of the last
 * game turn (last), time runs out (HtL 10.C). */
void htl_victory_check(htl_state *s, const mk_scenario *sc, bool last, mk_events *ev)
{
    bool r0 = s->vp_target[0] > 0 && s->vp[0] >= s->vp_target[0];
    bool r1 = s->vp_target[1] > 0 && s->vp[1] >= s->vp_target[1];
    if (r0 || r1) {
        int w = r0 && r1 ? (s->vp[0] > s->vp[1] ? 0 : s->vp[1] > s->vp[0] ? 1 : -1) : r0 ? 0 : 1;
        game_over(s, w, HR_VP, ev);
        return;
    }
    if (!last)
        return;
    if (s->time_winner >= 0) {
        game_over(s, s->time_winner, HR_TIME, ev);
        return;
    }
    game_over(s, s->vp[0] > s->vp[1] ? 0 : s->vp[1] > s->vp[0] ? 1 : -1, HR_TIME_VP, ev);
}

void htl_result(const void *st, const mk_scenario *sc, mk_result *out)
{
    const htl_state *s = st;
    memset(out, 0, sizeof *out);
    out->winner = -1;
    if (!s->over) {
        out->level = "none";
        snprintf(out->reason, sizeof out->reason, "the game is not over");
        return;
    }
    out->winner = s->winner;
    out->level = s->winner < 0 ? "draw" : "victory";
    const char *w = s->winner >= 0 ? sc->sides[s->winner].id : "nobody";
    switch (s->reason) {
    case HR_VP:
        snprintf(out->reason, sizeof out->reason, "%s reached its victory points (%d-%d) (HtL 10)",
                 w, s->vp[0], s->vp[1]);
        break;
    case HR_TIME:
        snprintf(out->reason, sizeof out->reason,
                 "time ran out with no side at its target: %s wins (HtL 10.C) (%d-%d VP)", w,
                 s->vp[0], s->vp[1]);
        break;
    default:
        snprintf(out->reason, sizeof out->reason, "time ran out: %s has more VP (%d-%d)", w,
                 s->vp[0], s->vp[1]);
        break;
    }
}
