/* fixture.h - what every ruleset's test fixture shares: forcing the next
 * dice of a state's generator, and applying an action given as protocol
 * JSON (parsed by the ruleset, as a client's would be). The rulesets'
 * fixtures (htl_fixture.h, hm_fixture.h, bar_fixture.h) wrap these around
 * their own state. Static inline: a test that uses neither compiles
 * without an unused-function warning. */
#ifndef MUSKET_TESTS_FIXTURE_H
#define MUSKET_TESTS_FIXTURE_H

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>

#include "check.h"
#include "core/rng.h"
#include "core/ruleset.h"
#include "core/scenario.h"

/* Replaces the forced dice of r with the n values of ap (at most 32). */
static inline void fixture_vforce(mk_rng *r, int n, va_list ap)
{
    int v[32];
    CHECK(n >= 0 && n <= 32);
    for (int i = 0; i < n && i < 32; i++)
        v[i] = va_arg(ap, int);
    mk_rng_clear_forced(r);
    CHECK_EQ(mk_rng_force(r, v, n), 0);
}

/* Parses js as the protocol's action and applies it to st, the events
 * into ev (over evs, cap of them). Returns apply's result, -1 for JSON or
 * an action that does not parse; a refusal is printed with its reason. */
static inline int fixture_act(const mk_scenario *sc, void *st, const char *js, mk_events *ev,
                              mk_event *evs, int cap)
{
    json_error_t je;
    json_t *o = json_loads(js, 0, &je);
    mk_action a;
    mk_error err = {0};
    int rc = -1;
    if (!o)
        mk_error_set(&err, "bad_json", "%s", je.text);
    else if (sc->rs->action_parse(st, sc, o, &a, &err) == 0) {
        mk_events_init(ev, evs, cap);
        rc = sc->rs->apply(st, sc, &a, ev, &err);
    }
    if (rc)
        fprintf(stderr, "  (refused: %s: %s)\n", js, err.msg);
    json_decref(o);
    return rc;
}

#endif
