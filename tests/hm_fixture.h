/* hm_fixture.h - what the Horse & Musket rule tests share: the state under
 * test, a unit in scenario JSON, and forcing dice and applying an action
 * given as protocol JSON. Each test builds its own positions (load). The
 * helpers are static inline so that a test that does not use one of them
 * compiles without an unused-function warning. */
#ifndef MUSKET_TESTS_HM_FIXTURE_H
#define MUSKET_TESTS_HM_FIXTURE_H

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fixture.h"
#include "rules/hm/hm_int.h"
#include "rules/rules.h"

static const mk_ruleset *rs = &mk_hm_ruleset;
static mk_scenario *sc;
static hm_state st, *s = &st;
static mk_event evs[256];
static mk_events ev;

/* A combat unit in scenario JSON. */
#define U(id, side, kind, mp, hex)                                                                 \
    "{\"id\":\"" id "\",\"side\":\"" side "\",\"kind\":\"" kind "\",\"mp\":" #mp ",\"hex\":\"" hex \
    "\"}"

static inline int uid(const char *id)
{
    return mk_scenario_unit(sc, id);
}

static inline int mp(const char *id)
{
    return s->u[uid(id)].mp;
}

static inline int hx(const char *label)
{
    mk_hex h;
    mk_hex_parse(&sc->map.grid, label, &h, NULL, 0);
    return h;
}

static inline bool at(const char *id, const char *label)
{
    return s->u[uid(id)].hex == hx(label);
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
    return fixture_act(sc, s, js, &ev, evs, 256);
}


/* Parses a position on the 13 x 9 map (pointy, even rows shifted right):
 * side a (4 CAP, moves first) and side b (5 CAP), 3 turns. side_b and top
 * are extra JSON members of side b and of the scenario (NULL: none).
 * NULL with err when the scenario check refuses it. */
static inline mk_scenario *hm_position(const char *chart, const char *terrain, const char *units,
                                       const char *side_b, const char *top, mk_error *err)
{
    static char buf[8192];
    snprintf(buf, sizeof buf,
             "{\"ruleset\":\"hm\",\"id\":\"hm/test\",\"title\":\"t\",\"chart\":\"%s\","
             "\"map\":{\"orientation\":\"pointy\",\"shifted\":\"even\",\"cols\":13,\"rows\":9,"
             "\"terrain\":{%s}},"
             "\"sides\":[{\"id\":\"a\",\"cap\":4,\"home\":\"north\"},{\"id\":\"b\",\"cap\":5,"
             "\"home\":\"south\"%s}],\"first\":\"a\",\"turns\":3,\"units\":[%s]%s}",
             chart, terrain, side_b ? side_b : "", units, top ? top : "");
    int nr;
    const mk_ruleset *const *all = mk_rulesets(&nr);
    return mk_scenario_parse(buf, strlen(buf), "(test)", all, nr, err);
}

/* Loads that position into s with the options, seed 1 and 10 CAP for the
 * side to act; a position the check refuses ends the test program. */
static inline void hm_load(const char *chart, const char *terrain, const char *units,
                           const char *side_b, const char *top, uint64_t options)
{
    mk_error err = {0};
    if (sc)
        mk_scenario_free(sc);
    sc = hm_position(chart, terrain, units, side_b, top, &err);
    if (!sc) {
        fprintf(stderr, "scenario: %s\n", err.msg);
        CHECK(sc != NULL);
        exit(1);
    }
    memset(s, 0, sizeof *s);
    CHECK_EQ(rs->init(s, sc, options, 1, NULL, &err), 0);
    s->cap = 10;
}

#endif
