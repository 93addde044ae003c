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
    int v[32];
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        v[i] = va_arg(ap, int);
    va_end(ap);
    mk_rng_clear_forced(&s->head.rng);
    CHECK_EQ(mk_rng_force(&s->head.rng, v, n), 0);
}

static inline int act(const char *js)
{
    json_error_t je;
    json_t *o = json_loads(js, 0, &je);
    mk_action a;
    mk_error err = {0};
    int rc = -1;
    if (o && rs->action_parse(s, sc, o, &a, &err) == 0) {
        mk_events_init(&ev, evs, 256);
        rc = rs->apply(s, sc, &a, &ev, &err);
    }
    json_decref(o);
    return rc;
}

#endif
