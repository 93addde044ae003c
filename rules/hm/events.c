/* events.c - H&M 15 Random Events (`hm.random-events`): a CAP roll of 1
 * rolls 2d6 on the events table. This file owns the roll, the lasting
 * effects (a placed swamp tile, the Cannon DRM, Bad Weather, a pinned enemy
 * unit), the result held for the rest of the player turn and the actions
 * that use it (listed with `"event": true`), and their JSON.
 *
 * The held result (5, 6, 7, 9, 10, 11, 12) is lost at the end of the
 * player turn that rolled it. Once used by an action: 6 and 10 apply to
 * the fire combat of that action, 7 to every combat roll of that unit for
 * the rest of the turn, 12 hands the enemy unit to the active player for
 * that action (hm_ctl_side). The other results act at once (2 and 8 after
 * a `choose`). docs/hm.md lists each reading of the text. */
#include <string.h>

#include "hm_int.h"

#define RULE "H&M 15 Random Events"
#define SWAMP_TILES_DEFAULT 2 /* our estimate: the tile count is on no page we have */

/* ---------------------------------------------------------------------- */
/* Set-up and the scenario field. */

/* The scenario's "swamp_tiles": the unused swamp tiles result 2 may place
 * (0 to HM_MAX_OVERRIDES; default SWAMP_TILES_DEFAULT). */
static int swamp_tiles(const mk_scenario *sc)
{
    json_t *v = json_object_get(sc->json, "swamp_tiles");
    return json_is_integer(v) ? (int)json_integer_value(v) : SWAMP_TILES_DEFAULT;
}

int hm_events_check_scenario(const mk_scenario *sc, mk_error *err)
{
    json_t *v = json_object_get(sc->json, "swamp_tiles");
    if (v && (!json_is_integer(v) || json_integer_value(v) < 0 ||
              json_integer_value(v) > HM_MAX_OVERRIDES))
        return mk_error_set(err, "scenario_invalid",
                            "%s: swamp_tiles: 0 to %d unused swamp tiles (15 Random Events)",
                            sc->source, HM_MAX_OVERRIDES);
    return 0;
}

void hm_events_init(hm_state *s, const mk_scenario *sc)
{
    hm_revents *r = &s->rev;
    memset(r, 0, sizeof *r);
    r->die_unit = r->ctl = r->frozen = -1;
    int n = swamp_tiles(sc);
    r->swamps = (int8_t)(n < 0 ? 0 : n > HM_MAX_OVERRIDES ? HM_MAX_OVERRIDES : n);
}

/* ---------------------------------------------------------------------- */
/* What the rest of the module asks. */

/* hm_terrain (H&M 2 terrain, with result 2's placed tiles) is inline in
 * hm_int.h. */

/* The side unit acts for: its own, except the enemy unit that result 12
 * hands to the active player for one action. */
int hm_ctl_side(const hm_state *s, const mk_scenario *sc, int unit)
{
    return unit >= 0 && unit == s->rev.ctl ? s->active : sc->units[unit].side;
}

/* Result 8: may this unit not be activated now? */
bool hm_event_frozen(const hm_state *s, int unit)
{
    return unit >= 0 && unit == s->rev.frozen;
}

static bool bad_weather(const hm_state *s)
{
    return s->rev.weather >= s->turn;
}

/* H&M 7 movement rate of unit; result 4 Bad Weather: one less for Units
 * (not Leaders, H&M 9: "Leaders are not Units"), but not less than one. */
int hm_move_rate(const hm_state *s, const mk_scenario *sc, int unit)
{
    int k = sc->units[unit].kind, mr = s->ch.k[k].mr;
    if (hm_is_unit(k) && bad_weather(s) && mr > 1)
        mr--;
    return mr;
}

/* The dice of unit after the events: result 4 two fewer (not less than
 * one) in a Fire Combat (the firer's dice and, under Combat at R1, the
 * return fire; not Defensive Fire, which belongs to Close Combat and
 * Charge); result 7 one more for its unit this turn. */
int hm_event_dice(const hm_state *s, const mk_scenario *sc, int unit, int col, int n)
{
    if (bad_weather(s) && col == COL_FIRE && s->cb.on && s->cb.kind == HA_FIRE)
        n = n - 2 < 1 ? 1 : n - 2;
    if (unit >= 0 && unit == s->rev.die_unit)
        n++;
    return n;
}

/* Result 3: the DRM on every combat die of unit if it is a Cannon. */
int hm_event_drm(const hm_state *s, const mk_scenario *sc, int unit)
{
    if (hm_class(sc->units[unit].kind) != HC_CANNON)
        return 0;
    return s->rev.cannon[sc->units[unit].side];
}

/* Results 6 and 10: the fire combat of the action in progress takes the
 * armed result (once). */
bool hm_event_take(hm_state *s, int result)
{
    if (s->rev.armed != result)
        return false;
    s->rev.armed = 0;
    return true;
}

/* ---------------------------------------------------------------------- */
/* The roll (H&M 6: after the CAP roll) and the end of the player turn. */

/* Result 2: river or clear hexes whose units fit in a swamp (H&M 4). */
static int swamp_hexes(const hm_state *s, const mk_scenario *sc, int16_t *out, int cap)
{
    int size = mk_grid_size(&sc->map.grid), n = 0;
    for (int h = 0; h < size && n < cap; h++) {
        int t = hm_terrain(s, sc, h), in[HM_STACK_MAX];
        if ((t == HT_CLEAR || t == HT_RIVER) &&
            hm_units_in(s, sc, h, in) <= s->ch.t[HT_SWAMP].stack)
            out[n++] = (int16_t)h;
    }
    return n;
}

/* Result 8: the enemy combat units on the map. */
static int enemy_units(const hm_state *s, const mk_scenario *sc, int16_t *out)
{
    int n = 0;
    for (int i = 0; i < s->nunits; i++)
        if (s->u[i].hex >= 0 && hm_is_unit(sc->units[i].kind) && sc->units[i].side != s->active)
            out[n++] = (int16_t)i;
    return n;
}

static mk_event *announce(const hm_state *s, mk_events *ev, int result, const char *what,
                          const char *rule)
{
    mk_event *e = mk_events_add(ev, "random_event");
    e->side = s->active;
    e->value = (int16_t)result;
    e->text = what;
    e->rule = rule;
    return e;
}

static void ask(hm_state *s, int pending)
{
    s->pending = (int8_t)pending;
    s->decider = s->active;
    s->to_move = s->active;
}

/* Called by hm_turn_begin after the CAP roll: clears what the previous
 * player turn held, and with the option on and a CAP roll of 1 rolls 2d6
 * and applies the table. Returns true when a decision (2, 8) is pending:
 * hm_event_choose carries the turn's start on. */
bool hm_event_roll(hm_state *s, const mk_scenario *sc, mk_events *ev)
{
    hm_revents *r = &s->rev;
    r->held = r->armed = 0;
    r->die_unit = r->ctl = -1;
    if (!HM_OPT(s, HO_RANDOM_EVENTS) || s->cap_roll != 1)
        return false;
    int side = s->active;
    int d1 = mk_rng_d6(&s->head.rng), d2 = mk_rng_d6(&s->head.rng), res = d1 + d2;
    mk_event *e = mk_events_add(ev, "roll");
    e->purpose = "random_event";
    e->rule = "H&M 15 Random Events: a CAP roll of 1; 2d6 on the table";
    e->side = (int16_t)side;
    e->die = 6;
    mk_event_value(e, d1);
    mk_event_value(e, d2);
    e->value = (int16_t)res;
    if (res == 3 && s->turn <= 5) {
        announce(s, ev, 3, "as_7", "H&M 15 Random Events 3: on Turns 1-5 treat as 7");
        res = 7;
    }
    int16_t o[HM_MAX_HEX];
    switch (res) {
    case 2:
        if (r->swamps > 0 && r->nover < HM_MAX_OVERRIDES && swamp_hexes(s, sc, o, HM_MAX_HEX)) {
            announce(s, ev, 2, "swamp", "H&M 15 Random Events 2: place a swamp tile");
            ask(s, HP_EVENT_HEX);
            return true;
        }
        announce(s, ev, 2, "no_event",
                 "H&M 15 Random Events 2: no unused swamp tile (or no river or clear hex)");
        return false;
    case 3:
        r->cannon[1 - side] = (int8_t)(r->cannon[1 - side] > -9 ? r->cannon[1 - side] - 1 : -9);
        announce(s, ev, 3, "cannon_drm",
                 "H&M 15 Random Events 3: enemy Cannon -1 DRM, rest of the game, cumulative")
            ->points = r->cannon[1 - side];
        return false;
    case 4: {
        int d = mk_rng_d6(&s->head.rng), until = s->turn + d - 1;
        mk_event *w = mk_events_add(ev, "roll");
        w->purpose = "bad_weather";
        w->rule = "H&M 15 Random Events 4: Bad Weather for a d6 of turns (this one counts)";
        w->side = (int16_t)side;
        w->die = 6;
        mk_event_value(w, d);
        if (until > r->weather)
            r->weather = (int16_t)until;
        announce(s, ev, 4, "bad_weather",
                 "H&M 15 Random Events 4: movement -1 (min 1), fire dice -2 (min 1)")
            ->points = r->weather;
        return false;
    }
    case 8:
        if (enemy_units(s, sc, o) > 0) {
            announce(s, ev, 8, "pin_unit", "H&M 15 Random Events 8: choose an enemy unit");
            ask(s, HP_EVENT_UNIT);
            return true;
        }
        announce(s, ev, 8, "no_event", "H&M 15 Random Events 8: no enemy unit");
        return false;
    case 10:
        if (!HM_OPT(s, HO_COMBAT_R1)) {
            announce(s, ev, 10, "no_event",
                     "H&M 15 Random Events 10: no event without Combat at R1");
            return false;
        }
        break;
    default:
        break;
    }
    static const char *const held_names[13] = {
        [5] = "free_activation", [6] = "reroll_misses", [7] = "extra_die",   [9] = "no_stop",
        [10] = "fire_order",     [11] = "free_rally",   [12] = "enemy_unit",
    };
    r->held = (int8_t)res;
    announce(s, ev, res, held_names[res],
             "H&M 15 Random Events: held for this player turn (an action with \"event\")");
    return false;
}

/* Called first by hm_end_turn: an unused result is lost; the pinned unit
 * is free again once its side's player turn ends. */
void hm_event_turn_end(hm_state *s, const mk_scenario *sc, mk_events *ev)
{
    hm_revents *r = &s->rev;
    if (r->held)
        announce(s, ev, r->held, "lost", "H&M 15 Random Events: unused at the end of the turn");
    r->held = r->armed = 0;
    r->die_unit = r->ctl = -1;
    if (r->frozen >= 0 && sc->units[r->frozen].side == s->active)
        r->frozen = -1;
}

/* ---------------------------------------------------------------------- */
/* The decisions of 2 and 8. */

int hm_event_choices(const hm_state *s, const mk_scenario *sc, mk_action *out, int cap)
{
    int16_t o[HM_MAX_HEX];
    int n = s->pending == HP_EVENT_HEX    ? swamp_hexes(s, sc, o, HM_MAX_HEX)
            : s->pending == HP_EVENT_UNIT ? enemy_units(s, sc, o)
                                          : 0;
    int m = 0;
    for (int i = 0; i < n && m < cap; i++) {
        mk_action *a = &out[m++];
        memset(a, 0, sizeof *a);
        a->type = HA_CHOOSE;
        a->unit = a->other = a->target = -1;
        if (s->pending == HP_EVENT_UNIT) {
            a->flags = HW_UNIT;
            a->other = o[i];
        } else {
            a->flags = HW_HEX;
            a->target = o[i];
        }
    }
    return m;
}

/* Applies the listed choice of pending p (hm_choose cleared it), then goes
 * on with the start of the turn (H&M 9 AC Replacement). */
void hm_event_choose(hm_state *s, const mk_scenario *sc, const mk_action *a, int p, mk_events *ev)
{
    hm_revents *r = &s->rev;
    if (p == HP_EVENT_HEX) {
        r->over_hex[r->nover] = a->target;
        r->over_t[r->nover] = HT_SWAMP;
        r->nover++;
        r->swamps--;
        mk_event *e = announce(s, ev, 2, "swamp_placed", "H&M 15 Random Events 2");
        e->hex = a->target;
        e->points = r->swamps;
    } else {
        r->frozen = a->other;
        announce(s, ev, 8, "pinned",
                 "H&M 15 Random Events 8: not activated during its side's next turn")
            ->unit = a->other;
    }
    if (s->ac[s->active] < 0 && s->ac_lost[s->active])
        hm_ac_attempt(s, sc, ev);
}

/* ---------------------------------------------------------------------- */
/* The actions that use a held result. */

static mk_action *put(mk_action *out, int *n, int cap, const mk_action *a, int cost)
{
    if (*n >= cap)
        return NULL;
    mk_action *b = &out[(*n)++];
    *b = *a;
    b->flags |= HF_EVENT;
    b->cost = (uint8_t)cost;
    return b;
}

/* 6, 7, 10: the listed combat actions again, at their cost, with the event. */
static int copy_variants(const hm_state *s, const mk_scenario *sc, int held, mk_action *out, int n,
                         int cap)
{
    int n0 = n;
    for (int i = 0; i < n0 && n < cap; i++) {
        const mk_action *a = &out[i];
        bool fire = a->type == HA_FIRE || a->type == HA_SKIRMISH;
        bool ok = held == 6   ? fire
                  : held == 7 ? fire || a->type == HA_CLOSE || a->type == HA_CHARGE
                              : false;
        if (held == 10 &&
            (a->type == HA_FIRE || (a->type == HA_SKIRMISH && (a->flags & HF_FIRE_FIRST)))) {
            int cls = hm_class(sc->units[a->unit].kind);
            ok = (cls == HC_INF || cls == HC_LIGHT || cls == HC_HORSE) &&
                 mk_hex_distance(&sc->map.grid, (mk_hex)s->u[a->unit].hex, (mk_hex)a->target) == 1;
        }
        if (ok)
            put(out, &n, cap, a, a->cost);
    }
    return n;
}

/* 5 and 12: every action the generators list for the units left able to
 * act in t (CAP unlimited), at 0 CAP, without the cost variants. */
static int scratch_variants(hm_state *t, const mk_scenario *sc, int held, mk_action *out, int n,
                            int cap)
{
    mk_action buf[MK_MAX_ACTIONS];
    t->rev.held = 0;
    t->cap = 99;
    int m = hm_legal_moves(t, sc, buf, 0, MK_MAX_ACTIONS, -1);
    m = hm_legal_combat(t, sc, buf, m, MK_MAX_ACTIONS, -1);
    for (int i = 0; i < m && n < cap; i++) {
        const mk_action *b = &buf[i];
        int k = sc->units[b->unit].kind;
        if (b->cost == 0 || !hm_is_unit(k) || (b->flags & (HF_DISCOUNT | HF_SUBORD | HF_LEADER)))
            continue;
        if (held == 12 && (b->type == HA_SKIRMISH || b->type == HA_RALLY ||
                           b->type == HA_RESUPPLY || (b->flags & (HF_BONUS | HF_SECOND))))
            continue;
        put(out, &n, cap, b, 0);
    }
    return n;
}

/* 9: the moves the generators list when no terrain stops (in a copy of
 * the state: Facing, Line & Column and the cost variants stay theirs) that
 * pass through a stop hex of the real map on their way to a hex no listed
 * plain move reaches; at their cost. */
static int no_stop_moves(const hm_state *s, const mk_scenario *sc, mk_action *out, int n, int cap)
{
    mk_action buf[MK_MAX_ACTIONS];
    hm_state t = *s;
    t.rev.held = 0;
    for (int i = 0; i < HT_COUNT; i++)
        t.ch.t[i].stop = 0;
    int n0 = n, m = hm_legal_moves(&t, sc, buf, 0, MK_MAX_ACTIONS, -1);
    for (int i = 0; i < m && n < cap; i++) {
        const mk_action *b = &buf[i];
        if ((b->type != HA_MOVE && b->type != HA_FORMATION) || b->npath < 2 ||
            !hm_is_unit(sc->units[b->unit].kind))
            continue;
        bool through = false, plain = false;
        for (int j = 0; j < b->npath - 1; j++) /* H&M 2: entering across its hexside */
            through |= hm_stop_entering(s, sc, j ? b->path[j - 1] : s->u[b->unit].hex, b->path[j]);
        for (int j = 0; j < n0 && through && !plain; j++)
            plain = out[j].type == b->type && out[j].unit == b->unit && out[j].npath > 0 &&
                    out[j].target == b->target &&
                    (out[j].flags & HF_FORM_FIRST) == (b->flags & HF_FORM_FIRST);
        if (through && !plain)
            put(out, &n, cap, b, b->cost);
    }
    return n;
}

/* 11: a reduced unit rallies without a leader, for 0 CAP, on the other
 * conditions of H&M 9 (not Cannon, no action this turn, in the hex where
 * it began the turn, not next to an enemy, 1 MP a turn, up to its start). */
static int free_rallies(const hm_state *s, const mk_scenario *sc, mk_action *out, int n, int cap)
{
    for (int u = 0; u < s->nunits && n < cap; u++) {
        int k = sc->units[u].kind;
        if (!hm_is_unit(k) || hm_class(k) == HC_CANNON || hm_activation(s, sc, u) != 1 ||
            s->u[u].start != s->u[u].hex || s->u[u].mp >= sc->units[u].mp_start ||
            (s->u[u].flags & HU_RALLIED) || hm_adjacent_enemy(s, sc, s->u[u].hex, s->active))
            continue;
        mk_action a;
        memset(&a, 0, sizeof a);
        a.type = HA_RALLY;
        a.unit = (int16_t)u;
        a.other = a.target = -1;
        put(out, &n, cap, &a, 0);
    }
    return n;
}

/* Appends the actions that use the held result to the n listed in out. */
int hm_event_legal(const hm_state *s, const mk_scenario *sc, mk_action *out, int n, int cap)
{
    int held = s->rev.held;
    if (!held || s->pending || s->over)
        return n;
    switch (held) {
    case 6:
    case 7:
    case 10:
        return copy_variants(s, sc, held, out, n, cap);
    case 9:
        return no_stop_moves(s, sc, out, n, cap);
    case 11:
        return free_rallies(s, sc, out, n, cap);
    case 5: {
        hm_state t = *s;
        return scratch_variants(&t, sc, 5, out, n, cap);
    }
    case 12:
        for (int e = 0; e < s->nunits && n < cap; e++) {
            if (s->u[e].hex < 0 || !hm_is_unit(sc->units[e].kind) || sc->units[e].side == s->active)
                continue;
            hm_state t = *s; /* only e may act, and for the active player */
            for (int i = 0; i < t.nunits; i++)
                if (i != e)
                    t.u[i].acts = 2;
            t.u[e].acts = 0;
            t.rev.ctl = (int16_t)e;
            n = scratch_variants(&t, sc, 12, out, n, cap);
        }
        return n;
    }
    return n;
}

/* apply: the listed action l carries the event: it is used now. */
void hm_event_use(hm_state *s, const mk_scenario *sc, const mk_action *l, mk_events *ev)
{
    hm_revents *r = &s->rev;
    int res = r->held;
    r->held = 0;
    mk_event *e = announce(s, ev, res, "used", RULE);
    e->unit = l->unit;
    switch (res) {
    case 6:
    case 10:
        r->armed = (int8_t)res;
        break;
    case 7:
        r->die_unit = l->unit;
        break;
    case 12:
        r->ctl = l->unit;
        break;
    default:
        break;
    }
}

/* apply, after every action: once nothing is in progress, the action that
 * used 6, 10 or 12 is over. */
void hm_event_settle(hm_state *s)
{
    if (s->pending || s->cb.on || s->mv.on)
        return;
    s->rev.armed = 0;
    s->rev.ctl = -1;
}

/* ---------------------------------------------------------------------- */
/* JSON: what lasts, and what the active player holds. */

void hm_event_json(const hm_state *s, const mk_scenario *sc, json_t *o)
{
    const hm_revents *r = &s->rev;
    char lb[MK_HEX_LABEL_MAX];
    if (r->nover) {
        json_t *t = json_object();
        for (int i = 0; i < r->nover; i++)
            json_object_set_new(t, mk_hex_label(&sc->map.grid, (mk_hex)r->over_hex[i], lb),
                                json_string(hm_terrain_names[r->over_t[i]]));
        json_object_set_new(o, "terrain_changes", t);
    }
    if (!HM_OPT(s, HO_RANDOM_EVENTS))
        return;
    json_t *j = json_object();
    if (r->held) {
        json_t *h = json_object();
        json_object_set_new(h, "result", json_integer(r->held));
        json_object_set_new(h, "side", json_string(sc->sides[s->active].id));
        json_object_set_new(j, "held", h);
    }
    json_object_set_new(j, "swamp_tiles_left", json_integer(r->swamps));
    if (bad_weather(s))
        json_object_set_new(j, "bad_weather_until_turn", json_integer(r->weather));
    if (r->cannon[0] || r->cannon[1]) {
        json_t *c = json_object();
        for (int i = 0; i < 2; i++)
            json_object_set_new(c, sc->sides[i].id, json_integer(r->cannon[i]));
        json_object_set_new(j, "cannon_drm", c);
    }
    if (r->frozen >= 0)
        json_object_set_new(j, "pinned_unit", json_string(hm_unit_id(sc, r->frozen)));
    if (r->die_unit >= 0)
        json_object_set_new(j, "extra_die_unit", json_string(hm_unit_id(sc, r->die_unit)));
    json_object_set_new(o, "random_events", j);
}
