/* htl.c - Hold the Line (Worthington, 2008): the ruleset table, set-up,
 * the legal-action / apply dispatch, and the JSON views. The rules
 * themselves live in the files named for the rulebook's sections. */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "htl_int.h"
#include "rules/rules.h"

static const mk_option htl_options[] = {
    {"htl.11.1", "Attacker morale check before close combat"},
    {"htl.11.2", "Rally only units not fired on this turn"},
    {"htl.11.3", "Elite at 3-4 MP roll 4 dice"},
    {"htl.11.4", "Artillery on a hill: +1 range"},
    {"htl.11.5", "Artillery -2 firing into forest"},
    {"htl.11.6", "Leader ratings (combat dice and hits)"},
    {"htl.11.7", "Advance after fire combat"},
    {"htl.11.8", "Force march"},
    {"htl.11.9", "Force march fatigue"},
    {"htl.11.10", "Hills do not stop movement"},
    {"htl.11.11", "Dragoons may retreat before close combat"},
    {"htl.11.12.first+1", "Command AP adjusted: the scenario's first side +1"},
    {"htl.11.13", "Equal command AP"},
    {"htl.11.14", "Flank and rear attacks"},
    {"htl.11.15", "Grand tactical: range -1"},
    /* 11.12 takes an amount per side, so it is four switches; bit 11 is the
     * first of them, the rest come after 11.15 so that no bit moves */
    {"htl.11.12.first-1", "Command AP adjusted: the scenario's first side -1"},
    {"htl.11.12.second+1", "Command AP adjusted: the scenario's second side +1"},
    {"htl.11.12.second-1", "Command AP adjusted: the scenario's second side -1"},
};
#define NOPTIONS ((int)(sizeof htl_options / sizeof htl_options[0]))

const char *htl_unit_id(const mk_scenario *sc, int u)
{
    return u >= 0 && u < sc->nunits ? sc->units[u].id : "-";
}

static int check_options(uint64_t options, mk_error *err)
{
    /* options[2] is 11.3, options[5] is 11.6 */
    if ((options & (1ull << 2)) && (options & (1ull << 5)))
        return mk_error_set(err, "bad_arg", "HtL 11.3: do not use this rule with 11.6");
    if (options >> NOPTIONS)
        return mk_error_set(err, "bad_arg", "unknown Hold the Line option bit");
    for (int side = 0; side < 2; side++)
        if (htl_cap_adjust(options, side) == 2)
            return mk_error_set(err, "bad_arg",
                                "HtL 11.12: htl.11.12.%s+1 and htl.11.12.%s-1 cancel out: "
                                "choose one",
                                side ? "second" : "first", side ? "second" : "first");
    return 0;
}

/* What only HtL knows about a scenario: two sides, a small map, set-up hex
 * limits (HtL 4.3, 4.3.1), MP ranges (3.2), the victory object (10). */
static int check_scenario(const mk_scenario *sc, mk_error *err)
{
    if (sc->nsides != 2)
        return mk_error_set(err, "scenario_invalid", "%s: sides: Hold the Line needs 2 sides",
                            sc->source);
    if (sc->nunits > HTL_MAX_UNITS)
        return mk_error_set(err, "scenario_invalid", "%s: units: %d pieces: at most %d for Hold the Line",
                            sc->source, sc->nunits, HTL_MAX_UNITS);
    for (int i = 0; i < 2; i++)
        if (sc->sides[i].cap > 20)
            return mk_error_set(err, "scenario_invalid",
                                "%s: sides[%d].cap: %d: at most 20 command AP", sc->source, i,
                                sc->sides[i].cap);
    if (mk_grid_size(&sc->map.grid) > HTL_MAX_HEX)
        return mk_error_set(err, "scenario_invalid",
                            "%s: map: at most %d hexes for Hold the Line (this map has %d)",
                            sc->source, HTL_MAX_HEX, mk_grid_size(&sc->map.grid));
    for (int i = 0; i < sc->nunits; i++) {
        const mk_sc_unit *u = &sc->units[i];
        if (u->kind < 0 || u->kind >= HK_COUNT)
            return mk_error_set(err, "scenario_invalid", "%s: units[%d].kind: unknown",
                                sc->source, i);
        if (htl_is_combat(u->kind) && (u->mp < 1 || u->mp > 4 || u->mp_start > 4))
            return mk_error_set(err, "scenario_invalid",
                                "%s: units[%d].mp: %d: combat units have 1 to 4 MP (HtL 3.2)",
                                sc->source, i, u->mp);
        if (u->hex == MK_NO_HEX)
            continue;
        if (sc->map.terrain[u->hex] == HT_SWAMP)
            return mk_error_set(err, "scenario_invalid",
                                "%s: units[%d].hex: swamp is impassable (HtL 2.3.2)", sc->source, i);
        for (int j = 0; j < i; j++) {
            const mk_sc_unit *v = &sc->units[j];
            if (v->hex != u->hex)
                continue;
            if (htl_slot(v->kind) == htl_slot(u->kind))
                return mk_error_set(err, "scenario_invalid",
                                    "%s: units[%d].hex: %s and %s break the hex limits (HtL 4.3)",
                                    sc->source, i, v->id, u->id);
            if (v->side != u->side && v->kind != HK_VP && u->kind != HK_VP)
                return mk_error_set(err, "scenario_invalid",
                                    "%s: units[%d].hex: enemy units %s and %s share a hex",
                                    sc->source, i, v->id, u->id);
        }
    }
    return htl_victory_check_scenario(sc, err);
}

static int init(void *st, const mk_scenario *sc, uint64_t options, uint64_t seed, mk_events *ev,
                mk_error *err)
{
    htl_state *s = st;
    if (check_options(options, err))
        return -1;
    if (sc->nsides != 2 || sc->nunits > HTL_MAX_UNITS)
        return mk_error_set(err, "scenario_invalid", "Hold the Line needs 2 sides");
    mk_rng_seed(&s->head.rng, seed);
    s->options = options;
    s->turn = 1;
    s->turns = (int16_t)(sc->turns > 0 ? sc->turns : 1);
    s->first = (int8_t)sc->first;
    s->nunits = (int16_t)sc->nunits;
    s->dragoon_fire = -1;
    s->free_fire = -1;
    s->winner = -1;
    for (int i = 0; i < sc->nunits; i++) {
        s->u[i].hex = s->u[i].start = sc->units[i].hex;
        s->u[i].mp = (int8_t)sc->units[i].mp;
    }
    s->cb.leader = -1;
    s->cb.chosen = -1;
    s->cb.att_leader = -1;
    for (int i = 0; i < sc->nunits; i++) /* 11.6: a leader's hits; 1 without the rule */
        if (sc->units[i].kind == HK_LEADER)
            s->u[i].mp = (int8_t)(HTL_OPT(s, 6) && sc->units[i].nrating == 2 &&
                                          sc->units[i].rating[1] >= 1
                                      ? sc->units[i].rating[1]
                                      : 1);
    htl_victory_init(s, sc);
    mk_events none;
    mk_events_init(&none, NULL, 0);
    htl_turn_begin(s, sc, s->first, ev ? ev : &none);
    return 0;
}

/* The choices of the pending decision, as HA_CHOOSE actions. */
int htl_choices(const htl_state *s, const mk_scenario *sc, mk_action *out, int cap)
{
    const htl_combat *cb = &s->cb;
    int16_t opts[HTL_MAX_REACH];
    int n = 0, m = 0;
    switch (cb->pending) {
    case HP_TIE: n = htl_tie_options(s, sc, opts); break;
    case HP_RETREAT: n = htl_retreat_options(s, sc, cb->failed[cb->fi], opts); break;
    case HP_DISPLACE: {
        int b = htl_blocker(s, sc, cb->failed[cb->fi], cb->retreat_to);
        n = b >= 0 ? htl_displace_options(s, sc, b, opts) : 0;
        break;
    }
    case HP_ESCAPE: n = htl_escape_options(s, sc, cb->leader, opts); break;
    case HP_ADVANCE:
        opts[0] = HC_ADVANCE;
        opts[1] = HC_STAY;
        n = 2;
        break;
    case HP_WITHDRAW:
        opts[0] = HC_WITHDRAW;
        opts[1] = HC_STAND;
        n = 2;
        break;
    default: return 0;
    }
    for (int i = 0; i < n && m < cap; i++) {
        mk_action *a = &out[m++];
        memset(a, 0, sizeof *a);
        a->type = HA_CHOOSE;
        a->unit = a->other = a->target = -1;
        if (cb->pending == HP_TIE)
            a->other = opts[i];
        else if (cb->pending == HP_ADVANCE || cb->pending == HP_WITHDRAW)
            a->flags = (uint8_t)opts[i];
        else
            a->target = opts[i];
    }
    return m;
}

static int legal(const void *st, const mk_scenario *sc, mk_action *out, int cap)
{
    const htl_state *s = st;
    if (s->over || cap <= 0)
        return 0;
    if (s->cb.on && s->cb.pending)
        return htl_choices(s, sc, out, cap);
    int n = 0;
    memset(&out[n], 0, sizeof out[n]);
    out[n].type = HA_END;
    out[n].unit = out[n].other = out[n].target = -1;
    n++;
    if (s->ap < 1 && s->free_fire < 0)
        return n;   /* nothing but the end of the turn costs nothing */
    htl_occ o;      /* built once, read by every generator */
    htl_occ_build(&o, s, sc);
    n = htl_legal_fire(s, sc, &o, out, n, cap); /* a dragoon's fire after its move first */
    n = htl_legal_moves(s, sc, &o, out, n, cap);
    n = htl_legal_close(s, sc, &o, out, n, cap);
    n = htl_legal_rally(s, sc, &o, out, n, cap);
    return n;
}

static int apply_action(void *st, const mk_scenario *sc, const mk_action *a, mk_events *ev,
                        mk_error *err)
{
    htl_state *s = st;
    if (s->over)
        return mk_error_set(err, "illegal_action", "the game is over");
    s->head.actions++;
    if (s->cb.on && s->cb.pending) {
        mk_action opts[HTL_MAX_REACH];
        int n = htl_choices(s, sc, opts, HTL_MAX_REACH);
        bool ok = false;
        for (int i = 0; i < n && !ok; i++)
            ok = mk_action_equal(&opts[i], a);
        if (a->type != HA_CHOOSE || !ok)
            return mk_error_set(err, "illegal_action",
                                "a decision is pending: choose one of the %d listed choices", n);
        s->cb.chosen = s->cb.pending == HP_TIE ? a->other
                       : s->cb.pending == HP_ADVANCE || s->cb.pending == HP_WITHDRAW ? a->flags
                                                                                    : a->target;
        s->cb.pending = HP_NONE;
        s->to_move = s->active;
        htl_combat_run(s, sc, ev);
        return 0;
    }
    bool unit_ok = a->unit >= 0 && a->unit < s->nunits;
    if (a->type != HA_END && a->type != HA_CHOOSE) {
        if (!unit_ok)
            return mk_error_set(err, "illegal_action", "no such unit");
        if (sc->units[a->unit].side != s->active)
            return mk_error_set(err, "illegal_action", "HtL 5.1: %s is not the active side's",
                                sc->units[a->unit].id);
        if (s->u[a->unit].hex < 0)
            return mk_error_set(err, "illegal_action", "%s is not on the map",
                                sc->units[a->unit].id);
    }
    if (!(a->type == HA_FIRE && a->unit == s->dragoon_fire))
        s->dragoon_fire = -1; /* HtL 6.2.3: only straight after its move */
    if (!(a->type == HA_FIRE && a->unit == s->free_fire))
        s->free_fire = -1; /* 11.1: the same activation */
    switch (a->type) {
    case HA_END:
        htl_turn_end(s, sc, ev);
        return 0;
    case HA_MOVE:
    case HA_FORCE: return htl_apply_move(s, sc, a, ev, err);
    case HA_FIRE: return htl_apply_fire(s, sc, a, ev, err);
    case HA_CLOSE: return htl_apply_close(s, sc, a, ev, err);
    case HA_RALLY: return htl_apply_rally(s, sc, a, ev, err);
    case HA_CHOOSE: return mk_error_set(err, "illegal_action", "no decision is pending");
    default: return mk_error_set(err, "illegal_action", "unknown action type %d", a->type);
    }
}

/* Checks and applies an action; in debug builds the whole state is then
 * checked (STYLE.md: an impossible state is a bug). */
static int apply(void *st, const mk_scenario *sc, const mk_action *a, mk_events *ev, mk_error *err)
{
    int rc = apply_action(st, sc, a, ev, err);
#ifndef NDEBUG
    char why[200];
    if (rc == 0 && !htl_state_ok(st, sc, why, sizeof why)) {
        fprintf(stderr, "htl: state invariant broken: %s\n", why);
        assert(!"HtL state invariant broken");
    }
#endif
    return rc;
}

static int to_move(const void *st) { return ((const htl_state *)st)->to_move; }
static int active(const void *st) { return ((const htl_state *)st)->active; }
static bool over(const void *st) { return ((const htl_state *)st)->over != 0; }

/* Everything after the head (the struct is zeroed at creation, so padding
 * is stable) and the dice generator's position; not its forced-dice queue:
 * queueing dice changes no game (mk_head_hash). */
static uint64_t hash(const void *st, const mk_scenario *sc)
{
    const htl_state *s = st;
    return mk_hash_bytes(mk_head_hash(&s->head), (const char *)s + sizeof(mk_head),
                         sizeof *s - sizeof(mk_head));
}

static json_t *hex_json(const mk_scenario *sc, int h)
{
    char b[MK_HEX_LABEL_MAX];
    return h >= 0 ? json_string(mk_hex_label(&sc->map.grid, (mk_hex)h, b)) : json_null();
}

static const char *pending_name(int p)
{
    static const char *const names[] = {"none",   "hit",     "retreat", "displace",
                                        "escape", "advance", "withdraw"};
    return p >= 0 && p <= HP_WITHDRAW ? names[p] : "none";
}

static json_t *state_json(const void *st, const mk_scenario *sc)
{
    const htl_state *s = st;
    json_t *o = json_object();
    json_object_set_new(o, "ruleset", json_string("htl"));
    json_object_set_new(o, "scenario", json_string(sc->id));
    json_object_set_new(o, "turn", json_integer(s->turn));
    json_object_set_new(o, "turns", json_integer(s->turns));
    json_object_set_new(o, "active", json_string(sc->sides[s->active].id));
    json_object_set_new(o, "to_move", json_string(sc->sides[s->to_move].id));
    json_object_set_new(o, "phase", json_string(s->over ? "over"
                                                : s->cb.on && s->cb.pending ? "decision"
                                                                            : "actions"));
    json_object_set_new(o, "points", json_integer(s->ap));
    json_object_set_new(o, "ap_roll", json_integer(s->ap_roll));
    json_t *units = json_array();
    for (int i = 0; i < s->nunits; i++) {
        const mk_sc_unit *su = &sc->units[i];
        json_t *u = json_object();
        json_object_set_new(u, "id", json_string(su->id));
        if (su->name[0])
            json_object_set_new(u, "name", json_string(su->name));
        json_object_set_new(u, "side", json_string(sc->sides[su->side].id));
        json_object_set_new(u, "kind", json_string(htl_kind_names[su->kind]));
        json_object_set_new(u, "hex", hex_json(sc, s->u[i].hex));
        if (su->kind == HK_LEADER) { /* a leader's "MP" is the hits he can take (11.6) */
            json_object_set_new(u, "mp", json_integer(su->mp));
            json_object_set_new(u, "mp_start", json_integer(su->mp_start));
            json_object_set_new(u, "hits_left", json_integer(s->u[i].hex >= 0 ? s->u[i].mp : 0));
        } else {
            json_object_set_new(u, "mp", json_integer(s->u[i].mp));
            json_object_set_new(u, "mp_start", json_integer(su->mp_start));
        }
        json_object_set_new(u, "acted", json_boolean(s->u[i].flags & HU_ACTED));
        json_object_set_new(u, "moved", json_boolean(s->u[i].flags & HU_MOVED));
        json_object_set_new(u, "fired", json_boolean(s->u[i].flags & HU_FIRED));
        json_object_set_new(u, "rallied", json_boolean(s->u[i].flags & HU_RALLIED));
        json_array_append_new(units, u);
    }
    json_object_set_new(o, "units", units);
    json_t *vp = json_object(), *tg = json_object(), *cap = json_object(), *lost = json_object();
    for (int i = 0; i < 2; i++) {
        int c = sc->sides[i].cap - s->leaders_lost[i];
        json_object_set_new(vp, sc->sides[i].id, json_integer(s->vp[i]));
        json_object_set_new(tg, sc->sides[i].id, json_integer(s->vp_target[i]));
        json_object_set_new(cap, sc->sides[i].id, json_integer(c < 0 ? 0 : c));
        json_object_set_new(lost, sc->sides[i].id, json_integer(s->leaders_lost[i]));
    }
    json_object_set_new(o, "vp", vp);
    json_object_set_new(o, "vp_target", tg);
    json_object_set_new(o, "command_ap", cap);
    json_object_set_new(o, "leaders_lost", lost);
    json_object_set_new(o, "dragoon_may_fire", s->dragoon_fire >= 0
                                                   ? json_string(sc->units[s->dragoon_fire].id)
                                                   : json_null());
    if (s->cb.on && s->cb.pending) {
        json_t *p = json_object();
        json_object_set_new(p, "decision", json_string(pending_name(s->cb.pending)));
        json_object_set_new(p, "side", json_string(sc->sides[s->cb.decider].id));
        json_object_set_new(p, "attacker", json_string(htl_unit_id(sc, s->cb.attacker)));
        json_object_set_new(p, "hex", hex_json(sc, s->cb.hex));
        json_object_set_new(p, "hits_left", json_integer(s->cb.hits_left));
        if (s->cb.pending == HP_RETREAT || s->cb.pending == HP_DISPLACE)
            json_object_set_new(p, "unit", json_string(htl_unit_id(sc, s->cb.failed[s->cb.fi])));
        if (s->cb.pending == HP_ESCAPE)
            json_object_set_new(p, "unit", json_string(htl_unit_id(sc, s->cb.leader)));
        json_object_set_new(o, "pending", p);
    } else {
        json_object_set_new(o, "pending", json_null());
    }
    json_object_set_new(o, "over", json_boolean(s->over));
    if (s->over) {
        mk_result r;
        htl_result(s, sc, &r);
        json_t *res = json_object();
        json_object_set_new(res, "winner",
                            r.winner >= 0 ? json_string(sc->sides[r.winner].id) : json_null());
        json_object_set_new(res, "level", json_string(r.level));
        json_object_set_new(res, "reason", json_string(r.reason));
        json_object_set_new(o, "result", res);
    } else {
        json_object_set_new(o, "result", json_null());
    }
    return o;
}

static void hits_text(char *b, size_t n, int need)
{
    if (need > 6)
        snprintf(b, n, "cannot hit");
    else if (need == 6)
        snprintf(b, n, "hits on 6");
    else
        snprintf(b, n, "hits on %d-6", need < 1 ? 1 : need);
}

static json_t *action_json(const void *st, const mk_scenario *sc, const mk_action *a)
{
    const htl_state *s = st;
    const mk_grid *g = &sc->map.grid;
    json_t *o = json_object();
    char text[256], lb[MK_HEX_LABEL_MAX], ht[32];
    text[0] = 0;
    switch (a->type) {
    case HA_MOVE:
    case HA_FORCE: {
        json_object_set_new(o, "type", json_string(a->type == HA_FORCE ? "force_march" : "move"));
        json_object_set_new(o, "unit", json_string(htl_unit_id(sc, a->unit)));
        if (a->other >= 0)
            json_object_set_new(o, "leader", json_string(htl_unit_id(sc, a->other)));
        json_t *p = json_array();
        int len = snprintf(text, sizeof text, "%s %s", a->type == HA_FORCE ? "Force march" : "Move",
                           htl_unit_id(sc, a->unit));
        if (a->other >= 0)
            len += snprintf(text + len, sizeof text - len, " with %s", htl_unit_id(sc, a->other));
        len += snprintf(text + len, sizeof text - len, " %s",
                        a->unit >= 0 ? mk_hex_label(g, (mk_hex)s->u[a->unit].hex, lb) : "-");
        for (int i = 0; i < a->npath && i < MK_PATH_MAX; i++) {
            mk_hex_label(g, (mk_hex)a->path[i], lb);
            json_array_append_new(p, json_string(lb));
            len += snprintf(text + len, sizeof text - len, "-%s", lb);
        }
        json_object_set_new(o, "path", p);
        snprintf(text + len, sizeof text - len, " (%d AP%s)", a->cost,
                 a->type == HA_FORCE ? ", HtL 11.8: the extra hex on a die <= MP"
                 : a->cost == 2      ? ", leader bonus hex"
                                     : "");
        break;
    }
    case HA_FIRE:
    case HA_CLOSE: {
        bool fire = a->type == HA_FIRE;
        json_object_set_new(o, "type", json_string(fire ? "fire" : "close_combat"));
        json_object_set_new(o, "unit", json_string(htl_unit_id(sc, a->unit)));
        json_object_set_new(o, "target", hex_json(sc, a->target));
        if (!fire && a->other >= 0)
            json_object_set_new(o, "leader", json_string(htl_unit_id(sc, a->other)));
        int range = 0, need = 0;
        if (a->unit >= 0 && a->target >= 0) {
            need = fire ? htl_fire_need(s, sc, a->unit, a->target, &range)
                        : htl_hit_number(sc->units[a->unit].kind, 0);
            const char *why;
            need -= htl_attack_mod(s, sc, a->unit, a->target, !fire, &why);
        }
        hits_text(ht, sizeof ht, need);
        /* The numbers behind the odds a page shows before the player
         * commits: the hit number each die needs after terrain (above 6: no
         * hit possible, AMB-HTL-3) and the dice rolled: 3 (8.2.3), 4 for an
         * elite at 3-4 MP under 11.3, plus the attached leader's combat
         * rating under 11.6. An 11.14 flank bonus is not known until the
         * second attack is committed, so it is not counted here. */
        int dice = HTL_DICE;
        if (a->unit >= 0) {
            if (HTL_OPT(s, 3) && sc->units[a->unit].kind == HK_ELITE && s->u[a->unit].mp >= 3)
                dice = 4;
            if (!fire && a->other >= 0)
                dice += sc->units[a->other].nrating >= 1 && sc->units[a->other].rating[0] > 0
                            ? sc->units[a->other].rating[0]
                            : 1;
        }
        json_object_set_new(o, "need", json_integer(need < 1 ? 1 : need));
        json_object_set_new(o, "ndice", json_integer(dice));
        mk_hex_label(g, (mk_hex)a->target, lb);
        if (fire)
            snprintf(text, sizeof text, "Fire %s at %s: range %d, %s (%d AP)",
                     htl_unit_id(sc, a->unit), lb, range, ht, a->cost);
        else
            snprintf(text, sizeof text, "Close combat %s%s%s at %s: %s (%d AP)",
                     htl_unit_id(sc, a->unit), a->other >= 0 ? " with the dice of " : "",
                     a->other >= 0 ? htl_unit_id(sc, a->other) : "", lb, ht, a->cost);
        break;
    }
    case HA_RALLY:
        json_object_set_new(o, "type", json_string("rally"));
        json_object_set_new(o, "leader", json_string(htl_unit_id(sc, a->other)));
        json_object_set_new(o, "unit", json_string(htl_unit_id(sc, a->unit)));
        snprintf(text, sizeof text, "Rally %s with %s (%d AP)", htl_unit_id(sc, a->unit),
                 htl_unit_id(sc, a->other), a->cost);
        break;
    case HA_CHOOSE:
        json_object_set_new(o, "type", json_string("choose"));
        if (a->other >= 0) {
            json_object_set_new(o, "choice", json_string(htl_unit_id(sc, a->other)));
            snprintf(text, sizeof text, "%s takes the hit (HtL 8.2.2)", htl_unit_id(sc, a->other));
        } else if (a->target >= 0) {
            mk_hex_label(g, (mk_hex)a->target, lb);
            json_object_set_new(o, "choice", json_string(lb));
            const char *what = s->cb.pending == HP_ESCAPE     ? "Leader escapes to"
                               : s->cb.pending == HP_DISPLACE ? "Displace to"
                                                              : "Retreat to";
            snprintf(text, sizeof text, "%s %s", what, lb);
        } else if (a->flags == HC_WITHDRAW || a->flags == HC_STAND) {
            bool w = a->flags == HC_WITHDRAW;
            json_object_set_new(o, "choice", json_string(w ? "withdraw" : "stand"));
            snprintf(text, sizeof text, w ? "Withdraw the dragoons before the close combat (HtL 11.11)"
                                          : "Stand and accept the close combat");
        } else {
            bool adv = a->flags == HC_ADVANCE;
            json_object_set_new(o, "choice", json_string(adv ? "advance" : "stay"));
            mk_hex_label(g, (mk_hex)s->cb.hex, lb);
            snprintf(text, sizeof text, adv ? "Advance into %s (HtL 8.4.4)" : "Stay (not into %s)",
                     lb);
        }
        break;
    default:
        json_object_set_new(o, "type", json_string("end_turn"));
        snprintf(text, sizeof text, "End turn");
        break;
    }
    json_object_set_new(o, "text", json_string(text));
    json_object_set_new(o, "cost", json_integer(a->cost));
    return o;
}

static int parse_unit(const mk_scenario *sc, json_t *obj, const char *key, int16_t *out,
                      mk_error *err)
{
    json_t *v = json_object_get(obj, key);
    if (!json_is_string(v))
        return mk_error_set(err, "bad_arg", "action.%s: a unit id is needed", key);
    int i = mk_scenario_unit(sc, json_string_value(v));
    if (i < 0)
        return mk_error_set(err, "bad_arg", "action.%s: no unit '%s'", key, json_string_value(v));
    *out = (int16_t)i;
    return 0;
}

static int parse_hex(const mk_scenario *sc, json_t *v, const char *where, int16_t *out,
                     mk_error *err)
{
    char msg[160];
    mk_hex h;
    if (!json_is_string(v))
        return mk_error_set(err, "bad_arg", "action.%s: a hex label is needed", where);
    if (mk_hex_parse(&sc->map.grid, json_string_value(v), &h, msg, sizeof msg))
        return mk_error_set(err, "bad_arg", "action.%s: %s", where, msg);
    *out = h;
    return 0;
}

static int action_parse(const void *st, const mk_scenario *sc, json_t *obj, mk_action *out,
                        mk_error *err)
{
    const htl_state *s = st;
    memset(out, 0, sizeof *out);
    out->unit = out->other = out->target = -1;
    json_t *t = json_object_get(obj, "type");
    if (!json_is_object(obj) || !json_is_string(t))
        return mk_error_set(err, "bad_arg", "action: an object with a \"type\" is needed");
    const char *type = json_string_value(t);
    if (strcmp(type, "end_turn") == 0) {
        out->type = HA_END;
        return 0;
    }
    if (strcmp(type, "move") == 0 || strcmp(type, "force_march") == 0) {
        out->type = type[0] == 'm' ? HA_MOVE : HA_FORCE;
        if (parse_unit(sc, obj, "unit", &out->unit, err))
            return -1;
        if (json_object_get(obj, "leader") && parse_unit(sc, obj, "leader", &out->other, err))
            return -1;
        json_t *p = json_object_get(obj, "path");
        if (!json_is_array(p) || json_array_size(p) < 1 || json_array_size(p) > MK_PATH_MAX)
            return mk_error_set(err, "bad_arg", "action.path: a list of 1 to %d hex labels",
                                MK_PATH_MAX);
        for (size_t i = 0; i < json_array_size(p); i++) {
            char where[32];
            snprintf(where, sizeof where, "path[%zu]", i);
            if (parse_hex(sc, json_array_get(p, i), where, &out->path[i], err))
                return -1;
        }
        out->npath = (uint8_t)json_array_size(p);
        out->target = out->path[out->npath - 1];
        out->cost = (uint8_t)(out->npath > htl_move_rate(sc->units[out->unit].kind) ||
                                      out->type == HA_FORCE
                                  ? 2
                                  : 1);
        return 0;
    }
    if (strcmp(type, "fire") == 0 || strcmp(type, "close_combat") == 0) {
        bool fire = type[0] == 'f';
        out->type = fire ? HA_FIRE : HA_CLOSE;
        out->cost = fire ? 1 : 2;
        if (fire && s->free_fire >= 0 && mk_scenario_unit(sc, json_string_value(json_object_get(
                                              obj, "unit")) ? json_string_value(json_object_get(
                                              obj, "unit")) : "") == s->free_fire)
            out->cost = 0;
        if (parse_unit(sc, obj, "unit", &out->unit, err))
            return -1;
        if (!fire && json_object_get(obj, "leader")) {
            if (parse_unit(sc, obj, "leader", &out->other, err))
                return -1;
            out->cost = 3;
        }
        return parse_hex(sc, json_object_get(obj, "target"), "target", &out->target, err);
    }
    if (strcmp(type, "rally") == 0) {
        out->type = HA_RALLY;
        out->cost = 1;
        if (parse_unit(sc, obj, "unit", &out->unit, err) ||
            parse_unit(sc, obj, "leader", &out->other, err))
            return -1;
        return 0;
    }
    if (strcmp(type, "choose") == 0) {
        out->type = HA_CHOOSE;
        json_t *c = json_object_get(obj, "choice");
        if (!json_is_string(c))
            return mk_error_set(err, "bad_arg", "action.choice: a unit id, hex or word is needed");
        const char *v = json_string_value(c);
        if (strcmp(v, "advance") == 0 || strcmp(v, "stay") == 0) {
            out->flags = v[0] == 'a' ? HC_ADVANCE : HC_STAY;
            return 0;
        }
        if (strcmp(v, "withdraw") == 0 || strcmp(v, "stand") == 0) {
            out->flags = v[0] == 'w' ? HC_WITHDRAW : HC_STAND;
            return 0;
        }
        if (s->cb.pending == HP_TIE || (s->cb.pending == HP_NONE && mk_scenario_unit(sc, v) >= 0)) {
            return parse_unit(sc, obj, "choice", &out->other, err);
        }
        return parse_hex(sc, c, "choice", &out->target, err);
    }
    return mk_error_set(err, "bad_arg", "action.type: unknown type '%s'", type);
}

const mk_ruleset mk_htl_ruleset = {
    .id = "htl",
    .name = "Hold the Line",
    .state_size = sizeof(htl_state),
    .terrains = htl_terrain_names,
    .nterrains = HT_COUNT,
    .kinds = htl_kind_names,
    .nkinds = HK_COUNT,
    .options = htl_options,
    .noptions = NOPTIONS,
    .check_scenario = check_scenario,
    .check_options = check_options,
    .init = init,
    .legal = legal,
    .apply = apply,
    .to_move = to_move,
    .active = active,
    .over = over,
    .result = htl_result,
    .hash = hash,
    .evaluate = htl_evaluate,
    .state_json = state_json,
    .action_json = action_json,
    .action_parse = action_parse,
};
