/* toy_ruleset.h - a tiny ruleset for testing the game layer and the
 * protocol without any real rulebook: each side in turn may move one of
 * its units to a neighbouring hex (no dice), roll a d6 and score it, or end
 * its turn; the game ends after sc->turns turns, more points wins. */
#ifndef MK_TOY_RULESET_H
#define MK_TOY_RULESET_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "core/ruleset.h"

enum { TOY_MOVE = 1, TOY_ROLL, TOY_END };

typedef struct toy_state {
    mk_head head;
    int16_t turn, active;
    int16_t score[2];
    int16_t hex[MK_MAX_UNITS];
    uint8_t moved[MK_MAX_UNITS];
    uint8_t over;
} toy_state;

static const char *const toy_terrains[] = {"clear", "forest"};
static const char *const toy_kinds[] = {"soldier"};
static const mk_option toy_options[] = {{"toy.double", "double every roll"}};

static int toy_init(void *p, const mk_scenario *sc, uint64_t options, uint64_t seed,
                    mk_events *ev, mk_error *err)
{
    toy_state *s = p;
    mk_rng_seed(&s->head.rng, seed);
    s->turn = 1;
    s->active = (int16_t)sc->first;
    for (int i = 0; i < sc->nunits; i++)
        s->hex[i] = sc->units[i].hex;
    (void)options;
    (void)err;
    return 0;
}

static int toy_legal(const void *p, const mk_scenario *sc, mk_action *out, int cap)
{
    const toy_state *s = p;
    int n = 0;
    if (s->over)
        return 0;
    for (int i = 0; i < sc->nunits; i++) {
        if (sc->units[i].side != s->active || s->moved[i] || s->hex[i] < 0)
            continue;
        mk_hex nb[6];
        mk_hex_neighbors(&sc->map.grid, s->hex[i], nb);
        for (int d = 0; d < 6 && n < cap; d++) {
            if (nb[d] == MK_NO_HEX)
                continue;
            mk_action a = {.type = TOY_MOVE, .cost = 1, .unit = (int16_t)i, .other = -1,
                           .target = nb[d], .npath = 1};
            a.path[0] = nb[d];
            out[n++] = a;
        }
    }
    if (n < cap)
        out[n++] = (mk_action){.type = TOY_ROLL, .unit = -1, .other = -1, .target = -1};
    if (n < cap)
        out[n++] = (mk_action){.type = TOY_END, .unit = -1, .other = -1, .target = -1};
    return n;
}

static int toy_apply(void *p, const mk_scenario *sc, const mk_action *a, mk_events *ev,
                     mk_error *err)
{
    toy_state *s = p;
    mk_action legal[MK_MAX_ACTIONS];
    int n = toy_legal(s, sc, legal, MK_MAX_ACTIONS), ok = 0;
    for (int i = 0; i < n; i++)
        ok |= mk_action_equal(&legal[i], a);
    if (!ok)
        return mk_error_set(err, "illegal_action", "toy rule 1: not a legal action");
    if (a->type == TOY_MOVE) {
        mk_event *e = mk_events_add(ev, "move");
        e->unit = a->unit;
        e->from = s->hex[a->unit];
        e->to = a->target;
        s->hex[a->unit] = a->target;
        s->moved[a->unit] = 1;
    } else if (a->type == TOY_ROLL) {
        int v = mk_rng_d6(&s->head.rng);
        mk_event *e = mk_events_add(ev, "roll");
        e->purpose = "score";
        e->die = 6;
        mk_event_value(e, v);
        mk_event_mod(e, 0, "no modifier (toy rule 2)");
        e->side = s->active;
        s->score[s->active] += (int16_t)v;
    } else {
        memset(s->moved, 0, sizeof s->moved);
        if (s->active != sc->first)
            s->turn++;
        s->active = (int16_t)!s->active;
        if (s->turn > sc->turns)
            s->over = 1;
    }
    return 0;
}

static int toy_to_move(const void *p) { return ((const toy_state *)p)->active; }
static bool toy_over(const void *p) { return ((const toy_state *)p)->over; }
static void toy_result(const void *p, const mk_scenario *sc, mk_result *r)
{
    const toy_state *s = p;
    r->winner = s->score[0] == s->score[1] ? -1 : s->score[1] > s->score[0];
    r->level = r->winner < 0 ? "draw" : "win";
    snprintf(r->reason, sizeof r->reason, "%d to %d", s->score[0], s->score[1]);
}
static uint64_t toy_hash(const void *p, const mk_scenario *sc)
{
    const toy_state *s = p;
    return mk_hash_bytes(mk_head_hash(&s->head), &s->turn,
                         sizeof(toy_state) - offsetof(toy_state, turn));
}
static double toy_eval(const void *p, const mk_scenario *sc, int side) { return 0; }

static json_t *toy_state_json(const void *p, const mk_scenario *sc)
{
    const toy_state *s = p;
    json_t *units = json_array();
    char lab[MK_HEX_LABEL_MAX];
    for (int i = 0; i < sc->nunits; i++)
        json_array_append_new(units, json_pack("{s:s, s:s}", "id", sc->units[i].id, "hex",
                                               mk_hex_label(&sc->map.grid, s->hex[i], lab)));
    return json_pack("{s:s, s:s, s:i, s:o, s:[i,i], s:b}", "ruleset", "toy", "scenario", sc->id,
                     "turn", s->turn, "units", units, "score", s->score[0], s->score[1], "over",
                     s->over);
}

static json_t *toy_action_json(const void *p, const mk_scenario *sc, const mk_action *a)
{
    char lab[MK_HEX_LABEL_MAX];
    if (a->type == TOY_MOVE)
        return json_pack("{s:s, s:s, s:[s], s:i, s:s}", "type", "move", "unit",
                         sc->units[a->unit].id, "path",
                         mk_hex_label(&sc->map.grid, a->target, lab), "cost", 1, "text", "move");
    return json_pack("{s:s, s:i, s:s}", "type", a->type == TOY_ROLL ? "roll" : "end_turn", "cost",
                     0, "text", a->type == TOY_ROLL ? "roll" : "end turn");
}

static int toy_action_parse(const void *p, const mk_scenario *sc, json_t *o, mk_action *a,
                            mk_error *err)
{
    const char *type = json_string_value(json_object_get(o, "type"));
    memset(a, 0, sizeof *a);
    a->unit = a->other = a->target = -1;
    if (!type)
        return mk_error_set(err, "bad_arg", "action.type: missing");
    if (strcmp(type, "roll") == 0) {
        a->type = TOY_ROLL;
        return 0;
    }
    if (strcmp(type, "end_turn") == 0) {
        a->type = TOY_END;
        return 0;
    }
    if (strcmp(type, "move") != 0)
        return mk_error_set(err, "bad_arg", "action.type: unknown '%s'", type);
    const char *u = json_string_value(json_object_get(o, "unit"));
    const char *h = json_string_value(json_array_get(json_object_get(o, "path"), 0));
    a->type = TOY_MOVE;
    a->unit = (int16_t)(u ? mk_scenario_unit(sc, u) : -1);
    if (a->unit < 0)
        return mk_error_set(err, "bad_arg", "action.unit: unknown unit");
    char msg[200];
    mk_hex hx;
    if (!h || mk_hex_parse(&sc->map.grid, h, &hx, msg, sizeof msg) != 0)
        return mk_error_set(err, "bad_arg", "action.path[0]: %s", h ? msg : "missing");
    a->target = a->path[0] = hx;
    a->npath = 1;
    return 0;
}

static const mk_ruleset toy_ruleset = {
    .id = "toy", .name = "Toy", .state_size = sizeof(toy_state),
    .terrains = toy_terrains, .nterrains = 2, .kinds = toy_kinds, .nkinds = 1,
    .options = toy_options, .noptions = 1,
    .init = toy_init, .legal = toy_legal, .apply = toy_apply, .to_move = toy_to_move,
    .active = toy_to_move, .over = toy_over, .result = toy_result, .hash = toy_hash,
    .evaluate = toy_eval, .state_json = toy_state_json, .action_json = toy_action_json,
    .action_parse = toy_action_parse,
};

static const char toy_scenario[] =
    "{\"ruleset\": \"toy\", \"id\": \"toy/duel\", \"title\": \"Toy duel\","
    " \"map\": {\"orientation\": \"pointy\", \"shifted\": \"even\", \"cols\": 5, \"rows\": 4,"
    "          \"terrain\": {\"C2\": \"forest\"}},"
    " \"sides\": [{\"id\": \"blue\", \"cap\": 1, \"home\": \"south\"},"
    "           {\"id\": \"red\", \"cap\": 1, \"home\": \"north\"}],"
    " \"first\": \"blue\", \"turns\": 3,"
    " \"units\": [{\"id\": \"B1\", \"side\": \"blue\", \"kind\": \"soldier\", \"mp\": 2, \"hex\": \"A4\"},"
    "           {\"id\": \"R1\", \"side\": \"red\", \"kind\": \"soldier\", \"mp\": 2, \"hex\": \"E1\"}]}";

#endif
