/* event.c - the event sink rulesets append to (PROTOCOL.md, EVENT): a
 * caller-owned array, and a scratch event that takes what does not fit. */
#include "event.h"

#include <string.h>

#include "hex.h"

/* Sets s up over the caller's array ev (room for cap events; ev may be NULL
 * when cap is 0, as in AI playouts). Nothing is allocated. */
void mk_events_init(mk_events *s, mk_event *ev, int cap)
{
    memset(s, 0, sizeof *s);
    s->ev = ev;
    s->cap = ev && cap > 0 ? cap : 0;
}

/* Appends an event of the given type (a static string) with every field
 * unset: unit, other, side, passed -1; hexes MK_NO_HEX; die 0; value, need,
 * hits, mp, points MK_UNSET; no values or mods. Returns it, or the scratch
 * event (counted in dropped) when the sink is full; never NULL. */
mk_event *mk_events_add(mk_events *s, const char *type)
{
    mk_event *e;
    if (s->n < s->cap) {
        e = &s->ev[s->n++];
    } else {
        e = &s->scratch;
        s->dropped++;
    }
    memset(e, 0, sizeof *e);
    e->type = type;
    e->unit = e->other = -1;
    e->hex = e->from = e->to = e->target = MK_NO_HEX;
    e->side = -1;
    e->die = 0;
    e->value = e->need = e->hits = e->mp = e->points = MK_UNSET;
    e->passed = -1;
    return e;
}

/* See event.h. */
mk_event *mk_events_decline(mk_events *s, int unit, int hex, const char *what, const char *rule)
{
    mk_event *e = mk_events_add(s, "decline");
    e->unit = (int16_t)unit;
    e->hex = (int16_t)hex;
    e->text = what;
    e->rule = rule;
    return e;
}

/* Appends a value (a die read, a list entry) to e; past MK_EV_VALUES the
 * extra values are dropped. */
void mk_event_value(mk_event *e, int value)
{
    if (e->nvalues < MK_EV_VALUES)
        e->values[e->nvalues++] = (int16_t)value;
}

/* Appends a modifier and why it applies (a static string citing the rule);
 * past MK_EV_MODS the extra ones are dropped. */
void mk_event_mod(mk_event *e, int value, const char *why)
{
    if (e->nmods < MK_EV_MODS) {
        e->mods[e->nmods].value = (int16_t)value;
        e->mods[e->nmods].why = why;
        e->nmods++;
    }
}
