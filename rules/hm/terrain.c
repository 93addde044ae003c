/* terrain.c - H&M 2 Map and Terrain: which terrain effects a combat, a
 * morale check or a move gets across a hexside ("Entrenchment terrain
 * effects only apply across the three Entrenchment hexsides"; "Hill
 * terrain effects apply hill-to-hill unless specified otherwise in the
 * scenario"), and H&M 4's over-stacked set-ups ("Units may begin stacked
 * in violation of these stacking limits ... Once a Unit in the
 * over-stacked hex moves out of the hex, that hex must conform to the
 * regular stacking limits for the remainder of the game").
 *
 * The scenario fields (docs/hm.md "Scenario fields"): "entrenchments"
 * (each entrenchment hex's three hexsides), "hill_to_hill" (false: the
 * scenario specifies otherwise) and "overstacked" (the hexes that begin
 * over-stacked). init copies them into the state (plain data), so legal()
 * and apply() never read the JSON. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "hm_int.h"

/* Hexside names in hex direction order (core/hex.h, pointy-topped maps). */
static const char *const side_names[6] = {"E", "SE", "SW", "W", "NW", "NE"};

static int side_index(const char *name)
{
    for (int d = 0; d < 6; d++) {
        const char *a = side_names[d], *b = name;
        while (*a && *b && *a == toupper((unsigned char)*b)) {
            a++;
            b++;
        }
        if (!*a && !*b)
            return d;
    }
    return -1;
}

/* The entrenchment hexsides of hex (bit d: direction d), 0 if none. */
static unsigned entrench_sides(const hm_state *s, int hex)
{
    for (int i = 0; i < s->nent; i++)
        if (s->ent_hex[i] == hex)
            return s->ent_sides[i];
    return 0;
}

/* H&M 2: the terrain of hex whose effects apply to something that comes
 * across the hexside toward `other` (the attacker's hex for the target's
 * Combat In and morale; the target's for the firer's Combat Out; the hex
 * left for a move's stop). other < 0: no direction (a morale check no
 * attack causes). An Entrenchment is Clear for every effect that does not
 * cross one of its three hexsides (a line through a vertex crosses two:
 * both must be entrenched, as a line along a spine is blocked only when
 * both hexes block, H&M 8); a Hill is Clear toward another Hill when the
 * scenario says "hill_to_hill": false. Stacking, LOS and the other rules
 * that name a hex's terrain read hm_terrain. */
int hm_terrain_from(const hm_state *s, const mk_scenario *sc, int hex, int other)
{
    int t = hm_terrain(s, sc, hex);
    if (t == HT_ENTRENCHMENT) {
        unsigned m = hm_hexsides_toward(sc, hex, other);
        return m && (m & entrench_sides(s, hex)) == m ? t : HT_CLEAR;
    }
    if (t == HT_HILL && s->no_hill2hill && other >= 0 && other != hex &&
        hm_terrain(s, sc, other) == HT_HILL)
        return HT_CLEAR;
    return t;
}

const hm_terrain_fx *hm_fx_from(const hm_state *s, const mk_scenario *sc, int hex, int other)
{
    return &s->ch.t[hm_terrain_from(s, sc, hex, other)];
}

/* H&M 2 Movement Effect: does entering `to` from the adjacent `from` end
 * the move? (An Entrenchment stops only a unit crossing its works.) */
bool hm_stop_entering(const hm_state *s, const mk_scenario *sc, int from, int to)
{
    return hm_fx_from(s, sc, to, from)->stop != 0;
}

/* H&M 4: may the units in hex still breach the stacking limits? */
bool hm_overstacked(const hm_state *s, int hex)
{
    return hex >= 0 && hex < HM_MAX_HEX && ((s->overstack[hex >> 3] >> (hex & 7)) & 1);
}

/* ---------------------------------------------------------------------- */
/* The scenario fields. */

static int parse_label(const mk_scenario *sc, const char *label, const char *where, mk_error *err)
{
    char msg[160];
    mk_hex h;
    if (mk_hex_parse(&sc->map.grid, label, &h, msg, sizeof msg))
        return mk_error_set(err, "scenario_invalid", "%s: %s: %s", sc->source, where, msg), -1;
    return h;
}

static int check_entrenchments(const mk_scenario *sc, mk_error *err)
{
    const mk_grid *g = &sc->map.grid;
    char lb[MK_HEX_LABEL_MAX], where[96];
    json_t *e = json_object_get(sc->json, "entrenchments");
    bool any = e != NULL;
    for (int h = 0; h < mk_grid_size(g) && !any; h++)
        any = sc->map.terrain[h] == HT_ENTRENCHMENT;
    if (!any)
        return 0;
    if (g->orient != MK_POINTY)
        return mk_error_set(err, "scenario_invalid",
                            "%s: entrenchments: hexsides are named on a map of pointy-topped "
                            "hexes (H&M 2: the 13 x 9 map)",
                            sc->source);
    if (e && !json_is_object(e))
        return mk_error_set(err, "scenario_invalid",
                            "%s: entrenchments: an object of hex labels to three hexsides, e.g. "
                            "{\"F3\": [\"W\", \"SW\", \"SE\"]} (H&M 2)",
                            sc->source);
    uint8_t seen[HM_MAX_HEX];
    memset(seen, 0, sizeof seen);
    int n = 0;
    const char *label;
    json_t *v;
    json_object_foreach(e, label, v)
    {
        snprintf(where, sizeof where, "entrenchments.%.32s", label);
        int h = parse_label(sc, label, where, err);
        if (h < 0)
            return -1;
        if (h >= HM_MAX_HEX || seen[h])
            return mk_error_set(err, "scenario_invalid", "%s: %s: %s is given twice", sc->source,
                                where, mk_hex_label(g, (mk_hex)h, lb));
        seen[h] = 1;
        if (sc->map.terrain[h] != HT_ENTRENCHMENT)
            return mk_error_set(
                err, "scenario_invalid", "%s: %s: map.terrain.%s is %s, not entrenchment",
                sc->source, where, mk_hex_label(g, (mk_hex)h, lb),
                hm_terrain_names[sc->map.terrain[h] < HT_COUNT ? sc->map.terrain[h] : 0]);
        if (++n > HM_MAX_ENTRENCH)
            return mk_error_set(err, "scenario_invalid", "%s: %s: at most %d entrenchment hexes",
                                sc->source, where, HM_MAX_ENTRENCH);
        if (!json_is_array(v) || json_array_size(v) != 3)
            return mk_error_set(err, "scenario_invalid",
                                "%s: %s: a list of its three hexsides (H&M 2), each one of NE, E, "
                                "SE, SW, W, NW",
                                sc->source, where);
        unsigned m = 0;
        for (size_t i = 0; i < 3; i++) {
            const char *name = json_string_value(json_array_get(v, i));
            int d = name ? side_index(name) : -1;
            if (d < 0)
                return mk_error_set(err, "scenario_invalid",
                                    "%s: %s[%zu]: not a hexside (NE, E, SE, SW, W, NW)", sc->source,
                                    where, i);
            if ((m >> d) & 1)
                return mk_error_set(err, "scenario_invalid",
                                    "%s: %s[%zu]: %s is given twice: three different hexsides "
                                    "(H&M 2)",
                                    sc->source, where, i, side_names[d]);
            m |= 1u << d;
        }
    }
    for (int h = 0; h < mk_grid_size(g); h++)
        if (sc->map.terrain[h] == HT_ENTRENCHMENT && !seen[h])
            return mk_error_set(err, "scenario_invalid",
                                "%s: map.terrain.%s: an entrenchment needs its three hexsides in "
                                "entrenchments.%s (H&M 2: its effects apply only across them)",
                                sc->source, mk_hex_label(g, (mk_hex)h, lb),
                                mk_hex_label(g, (mk_hex)h, lb));
    return 0;
}

/* The hexes of "overstacked" as a bit set; -1 on an error. */
static int read_overstacked(const mk_scenario *sc, uint8_t *bits, mk_error *err)
{
    char where[48];
    json_t *o = json_object_get(sc->json, "overstacked");
    memset(bits, 0, HM_MAX_HEX / 8);
    if (!o)
        return 0;
    if (!json_is_array(o))
        return mk_error_set(err, "scenario_invalid",
                            "%s: overstacked: a list of the hexes that begin over-stacked (H&M 4)",
                            sc->source);
    for (size_t i = 0; i < json_array_size(o); i++) {
        snprintf(where, sizeof where, "overstacked[%zu]", i);
        const char *l = json_string_value(json_array_get(o, i));
        if (!l)
            return mk_error_set(err, "scenario_invalid", "%s: %s: a hex label is needed",
                                sc->source, where);
        int h = parse_label(sc, l, where, err);
        if (h < 0)
            return -1;
        if (h >= HM_MAX_HEX || ((bits[h >> 3] >> (h & 7)) & 1))
            return mk_error_set(err, "scenario_invalid", "%s: %s: %s is given twice", sc->source,
                                where, l);
        bits[h >> 3] |= (uint8_t)(1u << (h & 7));
    }
    return 0;
}

/* H&M 4 at set-up: never units of both sides in a hex; one or two units
 * of different classes within the terrain's limit, except in a hex the
 * scenario lists in "overstacked" ("In some scenarios, Units may begin
 * stacked in violation of these stacking limits": the limits of that
 * paragraph, the number and the classes), which must then really begin
 * over-stacked and hold at most HM_STACK_MAX units (the engine's limit). */
static int check_setup_stacking(const mk_scenario *sc, const hm_charts *ch, mk_error *err)
{
    uint8_t over[HM_MAX_HEX / 8];
    if (read_overstacked(sc, over, err))
        return -1;
    uint8_t breach[HM_MAX_HEX];
    memset(breach, 0, sizeof breach);
    for (int i = 0; i < sc->nunits; i++) {
        const mk_sc_unit *u = &sc->units[i];
        if (u->hex == MK_NO_HEX || !hm_is_unit(u->kind) || u->hex >= HM_MAX_HEX)
            continue;
        int n = 1;
        bool same = false;
        for (int j = 0; j < i; j++) {
            const mk_sc_unit *v = &sc->units[j];
            if (v->hex != u->hex || !hm_is_unit(v->kind))
                continue;
            n++;
            if (v->side != u->side)
                return mk_error_set(err, "scenario_invalid",
                                    "%s: units[%d].hex: %s and %s are enemies and may not share "
                                    "a hex (H&M 4)",
                                    sc->source, i, v->id, u->id);
            same |= hm_class(v->kind) == hm_class(u->kind);
        }
        int t = sc->map.terrain[u->hex];
        bool listed = (over[u->hex >> 3] >> (u->hex & 7)) & 1;
        if (n > HM_STACK_MAX)
            return mk_error_set(err, "scenario_invalid",
                                "%s: units[%d].hex: more than %d units in one hex (the engine's "
                                "limit, even over-stacked)",
                                sc->source, i, HM_STACK_MAX);
        if (same || n > ch->t[t < HT_COUNT ? t : 0].stack) {
            if (!listed)
                return mk_error_set(
                    err, "scenario_invalid",
                    same ? "%s: units[%d].hex: %s shares its hex with a unit of its class (H&M 4); "
                           "a scenario that begins over-stacked lists the hex in \"overstacked\""
                         : "%s: units[%d].hex: %s: over the stacking limit of %s (H&M 4); a "
                           "scenario that begins over-stacked lists the hex in \"overstacked\"",
                    sc->source, i, u->id, hm_terrain_names[t < HT_COUNT ? t : 0]);
            breach[u->hex] = 1;
        }
    }
    json_t *o = json_object_get(sc->json, "overstacked");
    for (size_t i = 0; i < json_array_size(o); i++) {
        mk_hex h;
        mk_hex_parse(&sc->map.grid, json_string_value(json_array_get(o, i)), &h, NULL, 0);
        if (!breach[h])
            return mk_error_set(err, "scenario_invalid",
                                "%s: overstacked[%zu]: %s does not begin over-stacked (H&M 4)",
                                sc->source, i, json_string_value(json_array_get(o, i)));
    }
    return 0;
}

/* What H&M 2 and 4 ask of a scenario (hm.c's check_scenario). */
int hm_terrain_check_scenario(const mk_scenario *sc, const hm_charts *ch, mk_error *err)
{
    json_t *hh = json_object_get(sc->json, "hill_to_hill");
    if (hh && !json_is_boolean(hh))
        return mk_error_set(err, "scenario_invalid",
                            "%s: hill_to_hill: true (the default: H&M 2, hill terrain effects "
                            "apply hill-to-hill) or false (this scenario specifies otherwise)",
                            sc->source);
    if (check_entrenchments(sc, err))
        return -1;
    return check_setup_stacking(sc, ch, err);
}

/* Copies the fields into the state (the scenario passed the check). */
void hm_terrain_init(hm_state *s, const mk_scenario *sc)
{
    s->no_hill2hill = (int8_t)json_is_false(json_object_get(sc->json, "hill_to_hill"));
    s->nent = 0;
    const char *label;
    json_t *v;
    json_object_foreach(json_object_get(sc->json, "entrenchments"), label, v)
    {
        mk_hex h;
        if (s->nent >= HM_MAX_ENTRENCH || mk_hex_parse(&sc->map.grid, label, &h, NULL, 0))
            continue;
        unsigned m = 0;
        for (size_t i = 0; i < json_array_size(v); i++) {
            const char *name = json_string_value(json_array_get(v, i));
            int d = name ? side_index(name) : -1;
            if (d >= 0)
                m |= 1u << d;
        }
        s->ent_hex[s->nent] = (int16_t)h;
        s->ent_sides[s->nent] = (uint8_t)m;
        s->nent++;
    }
    mk_error err = {0};
    read_overstacked(sc, s->overstack, &err);
}

/* The hexsides of an entrenchment hex as names (JSON views, tests). */
const char *hm_hexside_name(int d)
{
    return d >= 0 && d < 6 ? side_names[d] : "?";
}

unsigned hm_entrenchment_sides(const hm_state *s, int hex)
{
    return entrench_sides(s, hex);
}
