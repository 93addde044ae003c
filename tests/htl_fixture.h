/* htl_fixture.h - the harness of the Hold the Line rule tests
 * (test_htl_rules.c, test_htl_examples.c): a position built from scenario
 * JSON strings, forced dice, actions by unit id and hex label, and lookups
 * in the events and the legal actions. Each test program includes it once. */
#ifndef MK_HTL_FIXTURE_H
#define MK_HTL_FIXTURE_H

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fixture.h"
#include "core/ruleset.h"
#include "core/scenario.h"
#include "rules/htl/htl_int.h"
#include "rules/rules.h"

static const mk_ruleset *rs = &mk_htl_ruleset;

#define UNIT(id, side, kind, mp, hex)                                                          \
    "{\"id\":\"" id "\",\"side\":\"" side "\",\"kind\":\"" kind "\",\"mp\":" #mp               \
    ",\"hex\":\"" hex "\"}"
#define UNITR(id, side, kind, mp, mps, hex)                                                    \
    "{\"id\":\"" id "\",\"side\":\"" side "\",\"kind\":\"" kind "\",\"mp\":" #mp               \
    ",\"mp_start\":" #mps ",\"hex\":\"" hex "\"}"
#define AM "american"
#define BR "british"

typedef struct T {
    mk_scenario *sc;
    htl_state s;
    mk_event evs[256];
    mk_events ev;
    mk_error err;
} T;

static T *start(const char *terrain, const char *units, const char *first, int cap_a, int cap_b)
{
    static char buf[16384];
    snprintf(buf, sizeof buf,
             "{\"ruleset\":\"htl\",\"id\":\"htl/test\",\"title\":\"test\","
             "\"map\":{\"orientation\":\"pointy\",\"shifted\":\"even\",\"cols\":13,\"rows\":9,"
             "\"terrain\":{%s}},"
             "\"sides\":[{\"id\":\"american\",\"cap\":%d,\"home\":\"south\"},"
             "{\"id\":\"british\",\"cap\":%d,\"home\":\"north\"}],"
             "\"first\":\"%s\",\"turns\":5,\"units\":[%s]}",
             terrain, cap_a, cap_b, first, units);
    T *t = calloc(1, sizeof *t);
    const mk_ruleset *const list[] = {rs};
    t->sc = mk_scenario_parse(buf, strlen(buf), "(test)", list, 1, &t->err);
    if (!t->sc) {
        fprintf(stderr, "scenario: %s\n", t->err.msg);
        abort();
    }
    CHECK_EQ(rs->init(&t->s, t->sc, 0, 1, NULL, &t->err), 0);
    t->s.ap = 10; /* plenty: no turn ends (and no AP roll) unless a test wants one */
    mk_events_init(&t->ev, t->evs, 256);
    return t;
}

static void done(T *t)
{
    char why[200];
    bool ok = htl_state_ok(&t->s, t->sc, why, sizeof why);
    if (!ok)
        fprintf(stderr, "state: %s\n", why);
    CHECK(ok);
    mk_scenario_free(t->sc);
    free(t);
}

static int U(T *t, const char *id)
{
    int i = mk_scenario_unit(t->sc, id);
    if (i < 0) {
        fprintf(stderr, "no unit %s\n", id);
        abort();
    }
    return i;
}

static int H(T *t, const char *label)
{
    mk_hex h;
    char e[128];
    if (mk_hex_parse(&t->sc->map.grid, label, &h, e, sizeof e)) {
        fprintf(stderr, "%s\n", e);
        abort();
    }
    return h;
}

static void force(T *t, int n, ...)
{
    va_list ap;
    va_start(ap, n);
    fixture_vforce(&t->s.head.rng, n, ap);
    va_end(ap);
}

static int act(T *t, mk_action a)
{
    mk_events_init(&t->ev, t->evs, 256);
    mk_error_clear(&t->err);
    int rc = rs->apply(&t->s, t->sc, &a, &t->ev, &t->err);
    if (rc)
        fprintf(stderr, "  (refused: %s)\n", t->err.msg);
    return rc;
}

static mk_action A(int type, int unit, int other, int target)
{
    mk_action a;
    memset(&a, 0, sizeof a);
    a.type = (uint8_t)type;
    a.unit = (int16_t)unit;
    a.other = (int16_t)other;
    a.target = (int16_t)target;
    return a;
}

static mk_action fire(T *t, const char *u, const char *hex)
{
    return A(HA_FIRE, U(t, u), -1, H(t, hex));
}
static mk_action cc(T *t, const char *u, const char *hex)
{
    return A(HA_CLOSE, U(t, u), -1, H(t, hex));
}
static mk_action move(T *t, const char *u, const char *leader, int n, ...)
{
    mk_action a = A(HA_MOVE, U(t, u), leader ? U(t, leader) : -1, -1);
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        a.path[i] = (int16_t)H(t, va_arg(ap, const char *));
    va_end(ap);
    a.npath = (uint8_t)n;
    a.target = a.path[n - 1];
    return a;
}
static mk_action choose_hex(T *t, const char *hex) { return A(HA_CHOOSE, -1, -1, H(t, hex)); }
static mk_action choose_word(int flags)
{
    mk_action a = A(HA_CHOOSE, -1, -1, -1);
    a.flags = (uint8_t)flags;
    return a;
}

static const mk_event *ev_find(T *t, const char *type, const char *purpose, int nth)
{
    for (int i = 0; i < t->ev.n; i++)
        if (strcmp(t->evs[i].type, type) == 0 &&
            (!purpose || (t->evs[i].purpose && strcmp(t->evs[i].purpose, purpose) == 0)))
            if (nth-- == 0)
                return &t->evs[i];
    return NULL;
}

static int ev_count(T *t, const char *type)
{
    int n = 0;
    for (int i = 0; i < t->ev.n; i++)
        n += strcmp(t->evs[i].type, type) == 0;
    return n;
}

/* Is an action equal to a listed by legal()? Its listed cost in *cost. */
static bool listed(T *t, const mk_action *a, int *cost)
{
    static mk_action out[MK_MAX_ACTIONS];
    int n = rs->legal(&t->s, t->sc, out, MK_MAX_ACTIONS);
    for (int i = 0; i < n; i++)
        if (mk_action_equal(&out[i], a)) {
            if (cost)
                *cost = out[i].cost;
            return true;
        }
    return false;
}

/* Is a move of unit to hex listed (by whatever path)? */
static bool listed_dest(T *t, int unit, int hex, int *cost)
{
    static mk_action out[MK_MAX_ACTIONS];
    int n = rs->legal(&t->s, t->sc, out, MK_MAX_ACTIONS);
    for (int i = 0; i < n; i++)
        if (out[i].type == HA_MOVE && out[i].unit == unit && out[i].target == hex) {
            if (cost)
                *cost = out[i].cost;
            return true;
        }
    return false;
}

#endif
