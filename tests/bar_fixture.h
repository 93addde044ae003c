/* bar_fixture.h - what the Monmouth (BAR) game tests share: scenario 1
 * loaded as the main scenario, the state under test, forcing dice,
 * applying an action given as protocol JSON, finding an event of the last
 * action, switching to another scenario and back, and building positions
 * (empty: nothing on the map; place: one piece). The helpers are static
 * inline so that a test that does not use one of them compiles without an
 * unused-function warning. A test's main calls bar_fixture_load() first
 * and bar_fixture_free() last. */
#ifndef MUSKET_TESTS_BAR_FIXTURE_H
#define MUSKET_TESTS_BAR_FIXTURE_H

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fixture.h"
#include "rules/bar/bar_int.h"
#include "rules/rules.h"

static mk_scenario *sc;
static const bar_ext *x;
static bar_state st, *s = &st;
static mk_event evs[512];
static mk_events ev;

static inline int pid(const char *id)
{
    int i = mk_scenario_unit(sc, id);
    if (i < 0)
        fprintf(stderr, "no piece %s\n", id);
    return i;
}

static inline mk_hex hx(const char *label)
{
    mk_hex h = MK_NO_HEX;
    mk_hex_parse(&sc->map.grid, label, &h, NULL, 0);
    return h;
}

static inline void force(int n, ...)
{
    va_list ap;
    va_start(ap, n);
    fixture_vforce(&s->head.rng, n, ap);
    va_end(ap);
}

static inline int act(const char *js)
{
    return fixture_act(sc, s, js, &ev, evs, 512);
}

/* The first event of a type/purpose in the last action, or NULL. */
static inline const mk_event *find_ev(const char *type, const char *purpose)
{
    for (int k = 0; k < ev.n; k++)
        if (!strcmp(ev.ev[k].type, type) && (!purpose || (ev.ev[k].purpose && !strcmp(ev.ev[k].purpose, purpose))))
            return &ev.ev[k];
    return NULL;
}

/* Tests of another scenario switch to it and come back to scenario 1. */
static mk_scenario *sc_main;
static const bar_ext *x_main;

static inline bool use_scenario(const char *name)
{
    int n;
    const mk_ruleset *const *all = mk_rulesets(&n);
    mk_error err = {0};
    char path[128];
    snprintf(path, sizeof path, "scenarios/bar/%s.json", name);
    mk_scenario *other = mk_scenario_load_file(path, all, n, &err);
    CHECK(other != NULL);
    if (!other) {
        fprintf(stderr, "%s\n", err.msg);
        return false;
    }
    sc = other;
    x = bar_x(sc);
    return true;
}

static inline void back_to_scenario_1(void)
{
    mk_scenario_free(sc);
    sc = sc_main;
    x = x_main;
}

/* Scenario 1 at 10:00 AM with nothing on the map. */
static inline void empty(int turn_offset)
{
    memset(s, 0, sizeof *s);
    mk_events_init(&ev, evs, 512);
    CHECK_EQ(sc->rs->init(s, sc, 0, 7, &ev, NULL), 0);
    for (int i = 0; i < s->npieces; i++) {
        s->pc[i].hex = MK_NO_HEX;
        s->pc[i].flags = BF_ELIM;   /* out of the way: no arrivals either */
        s->pc[i].status = 0;
    }
    s->turn = (int16_t)(x->first_turn + turn_offset);
    s->phase = BP_ACTIVATE;
    s->marker = 0;
    s->acted[0] = s->acted[1] = 0;
    s->rb_unit = -1;
}

static inline void place(const char *id, const char *hex, int form, int facing_deg)
{
    int i = pid(id);
    s->pc[i].hex = hx(hex);
    s->pc[i].flags = BF_ON;
    s->pc[i].sp = x->p[i].sp;
    s->pc[i].form = (uint8_t)form;
    s->pc[i].facing = (uint8_t)(facing_deg / 30);
}

/* A legal list's buffer, for the tests' own counting (legal_count). */
static mk_action acts[4096];

/* How many legal actions of `type` piece i has now. */
static inline int legal_count(int type, int i)
{
    int n = sc->rs->legal(s, sc, acts, 4096), c = 0;
    for (int k = 0; k < n; k++)
        c += acts[k].type == type && acts[k].unit == i;
    return c;
}

/* The neighbour of hex h at bearing b (0-11, even), from the core
 * directions (bar_dir_step). */
static inline mk_hex nb_at(mk_hex h, int b)
{
    for (int d = 0; d < 6; d++)
        if (bar_dir_step(d) == b)
            return mk_hex_neighbor(&sc->map.grid, h, d);
    return MK_NO_HEX;
}

/* 2.3f's position (test_bar_play, test_bar_heat): on turn offset t,
 * Grayson's Virginians (with their Brigade's leader) attack the 16th
 * Dragoons, who face away (no Defensive Fire) in the hex at bearing 0 of
 * E2019; after it the British decide whether to Retreat Before Close
 * Combat. The dragoons' hex label goes into lb (MK_HEX_LABEL_MAX). */
static inline void rbcc_position(int t, char *lb)
{
    empty(t);
    place("GD/LEE", "E2019", BAR_FM_LINE, 90);
    place("Va Bn/GD", "E2019", BAR_FM_ATTACK_COLUMN, 90);
    mk_hex_label(&sc->map.grid, mk_hex_neighbor(&sc->map.grid, hx("E2019"), 0), lb);
    place("16 Da", lb, BAR_FM_CAVALRY, 90);
    s->side = BAR_AMERICAN;
    force(1, 35);
    CHECK_EQ(act("{\"type\":\"activate\",\"command\":\"GD\"}"), 0);
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    CHECK_EQ(act("{\"type\":\"next\"}"), 0);
    char js[160];
    snprintf(js, sizeof js, "{\"type\":\"close_combat\",\"unit\":\"Va Bn/GD\",\"target\":\"%s\"}", lb);
    CHECK_EQ(act(js), 0);
}

/* Loads scenario 1 as the main scenario; false (with the error printed)
 * if it cannot. */
static inline bool bar_fixture_load(void)
{
    int n;
    const mk_ruleset *const *all = mk_rulesets(&n);
    mk_error err = {0};
    sc = mk_scenario_load_file("scenarios/bar/1-lees-repulse.json", all, n, &err);
    CHECK(sc != NULL);
    if (!sc) {
        fprintf(stderr, "%s\n", err.msg);
        return false;
    }
    x = bar_x(sc);
    sc_main = sc;
    x_main = x;
    return true;
}

#endif
