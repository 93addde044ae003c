/* map.c - the Battle of Monmouth map (Monmouth 5 Terrain Notes, 5.4a
 * Elevation): hex terrain and features, hexside terrain, roads, one
 * elevation level per hex, read from the scenario's "map" object and
 * checked with errors that name the JSON path and the value.
 *
 * Hexsides are stored once: each hex owns its sides in directions 0-2 (NE,
 * SE, S on the flat-topped Monmouth map); the side toward a neighbour in
 * direction 3-5 is that neighbour's side in direction d - 3. */
#include "bar.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const bar_terrain_names[BAR_NTERRAIN] = {
    "open", "grade", "orchard", "woods", "marsh", "marsh/woods", "lake",
};

static const char *const feature_names[] = {"building", "stream"};
static const int feature_bits[] = {BAR_HF_BUILDING, BAR_HF_STREAM};

static const char *const hexside_names[BAR_HS_NTERRAIN] = {
    "bridge", "creek", "hedgerow", "regular slope", "gentle slope", "lake", "stream",
};

const char *bar_terrain_name(int t)
{
    return t >= 0 && t < BAR_NTERRAIN ? bar_terrain_names[t] : NULL;
}

int bar_terrain_parse(const char *name)
{
    for (int t = 0; name && t < BAR_NTERRAIN; t++)
        if (strcmp(name, bar_terrain_names[t]) == 0)
            return t;
    return -1;
}

const char *bar_hexside_name(int bit)
{
    for (int i = 0; i < BAR_HS_NTERRAIN; i++)
        if (bit == 1 << i)
            return hexside_names[i];
    return NULL;
}

/* 5.2c orchard, 5.2d woods (and marsh/woods, "a woods hex for ... LOS")
 * block; 5.2a open, 5.2b grade, 5.2e marsh do not; 5.2i lake: water, not
 * named as blocking. */
bool bar_terrain_blocks_los(int terrain)
{
    return terrain == BAR_T_ORCHARD || terrain == BAR_T_WOODS || terrain == BAR_T_MARSH_WOODS;
}

/* Where the side between a and b is stored: *h owns side *d (0-2). */
static bool side_slot(const mk_grid *g, mk_hex a, mk_hex b, mk_hex *h, int *d)
{
    int dir = mk_hex_direction(g, a, b);
    if (dir < 0)
        return false;
    if (dir < 3) {
        *h = a;
        *d = dir;
    } else {
        *h = b;
        *d = dir - 3;
    }
    return true;
}

unsigned bar_hexside(const bar_map *m, mk_hex a, mk_hex b)
{
    mk_hex h;
    int d;
    if (!side_slot(&m->grid, a, b, &h, &d))
        return 0;
    return m->side[h][d];
}

int bar_road(const bar_map *m, mk_hex a, mk_hex b)
{
    unsigned s = bar_hexside(m, a, b);
    if (s & BAR_HS_MAJOR_ROAD)
        return BAR_ROAD_MAJOR;
    if (s & BAR_HS_MINOR_ROAD)
        return BAR_ROAD_MINOR;
    return 0;
}

char *bar_hexside_label(const mk_grid *g, mk_hex a, mk_hex b, char *buf)
{
    char x[MK_HEX_LABEL_MAX], y[MK_HEX_LABEL_MAX];
    if (b != MK_NO_HEX && (a == MK_NO_HEX || b < a)) {
        mk_hex t = a;
        a = b;
        b = t;
    }
    snprintf(buf, BAR_HEXSIDE_LABEL_MAX, "%s/%s", mk_hex_label(g, a, x), mk_hex_label(g, b, y));
    return buf;
}

/* ---- Parsing ---------------------------------------------------------- */

#define BAD(err, ...) mk_error_set(err, "scenario_invalid", __VA_ARGS__)

/* A short JSON rendering of v for messages. */
static const char *show(const json_t *v, char *buf, size_t n)
{
    char *s = v ? json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;
    snprintf(buf, n, "%s", s ? s : "nothing");
    if (s && strlen(s) >= n && n > 4)
        memcpy(buf + n - 4, "...", 4);
    free(s);
    return buf;
}

static void list_names(const char *const *names, int n, char *buf, size_t cap)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && used + 1 < cap; i++) {
        int w = snprintf(buf + used, cap - used, "%s%s", i ? ", " : "", names[i]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

/* Parses a hexside key "W1725/W1726" (or "W1725-W1726", as the rulebook
 * writes some): two labels of adjacent hexes. */
static int parse_side_key(const mk_grid *g, const char *key, const char *path, mk_hex *a,
                          mk_hex *b, mk_error *err)
{
    char l1[16], l2[16], gerr[200];
    const char *sep = strpbrk(key, "/-");
    size_t n1 = sep ? (size_t)(sep - key) : 0;
    if (!sep || n1 == 0 || n1 >= sizeof l1 || strlen(sep + 1) == 0 ||
        strlen(sep + 1) >= sizeof l2 || strpbrk(sep + 1, "/-"))
        return BAD(err, "%s: '%.40s' is not a hexside: two hex labels joined by '/' (W1725/W1726)",
                   path, key);
    memcpy(l1, key, n1);
    l1[n1] = '\0';
    snprintf(l2, sizeof l2, "%s", sep + 1);
    if (mk_hex_parse(g, l1, a, gerr, sizeof gerr) < 0 || mk_hex_parse(g, l2, b, gerr, sizeof gerr) < 0)
        return BAD(err, "%s: %s", path, gerr);
    if (!mk_hex_adjacent(g, *a, *b))
        return BAD(err, "%s: %s and %s are not adjacent: a hexside joins two neighbouring hexes",
                   path, l1, l2);
    return 0;
}

/* map.terrain: label -> one terrain name (core's reading of map.terrain,
 * with Monmouth's names). */
static int read_terrain(bar_map *m, json_t *obj, mk_error *err)
{
    const char *key;
    json_t *v;
    char path[96], buf[64], gerr[200], known[160];
    if (!obj)
        return 0;
    if (!json_is_object(obj))
        return BAD(err, "map.terrain: expected an object of hex label -> terrain, got %s",
                   show(obj, buf, sizeof buf));
    json_object_foreach(obj, key, v) {
        mk_hex h;
        snprintf(path, sizeof path, "map.terrain.%.32s", key);
        if (mk_hex_parse(&m->grid, key, &h, gerr, sizeof gerr) < 0)
            return BAD(err, "%s: %s", path, gerr);
        int t = json_is_string(v) ? bar_terrain_parse(json_string_value(v)) : -1;
        if (t < 0) {
            list_names(bar_terrain_names, BAR_NTERRAIN, known, sizeof known);
            return BAD(err, "%s: unknown terrain %s (known: %s)", path, show(v, buf, sizeof buf),
                       known);
        }
        m->terrain[h] = (uint8_t)t;
    }
    return 0;
}

/* map.features: label -> ["building", "stream"] (5.2f, 5.2h). */
static int read_features(bar_map *m, json_t *obj, mk_error *err)
{
    const char *key;
    json_t *v;
    char path[96], buf[64], gerr[200];
    if (!obj)
        return 0;
    if (!json_is_object(obj))
        return BAD(err, "map.features: expected an object of hex label -> [features], got %s",
                   show(obj, buf, sizeof buf));
    json_object_foreach(obj, key, v) {
        mk_hex h;
        snprintf(path, sizeof path, "map.features.%.32s", key);
        if (mk_hex_parse(&m->grid, key, &h, gerr, sizeof gerr) < 0)
            return BAD(err, "%s: %s", path, gerr);
        if (!json_is_array(v) || json_array_size(v) == 0)
            return BAD(err, "%s: expected a list of features (building, stream), got %s", path,
                       show(v, buf, sizeof buf));
        for (size_t i = 0; i < json_array_size(v); i++) {
            json_t *f = json_array_get(v, i);
            int bit = 0;
            for (size_t k = 0; k < sizeof feature_bits / sizeof feature_bits[0]; k++)
                if (json_is_string(f) && strcmp(json_string_value(f), feature_names[k]) == 0)
                    bit = feature_bits[k];
            if (!bit)
                return BAD(err, "%s[%zu]: unknown feature %s (known: building, stream; roads "
                                "are map.roads)",
                           path, i, show(f, buf, sizeof buf));
            if (m->features[h] & bit)
                return BAD(err, "%s[%zu]: %s is given twice", path, i, show(f, buf, sizeof buf));
            m->features[h] |= (uint8_t)bit;
        }
    }
    return 0;
}

/* map.elevation: label -> level (5.4a A: each hex belongs to one level). */
static int read_elevation(bar_map *m, json_t *obj, mk_error *err)
{
    const char *key;
    json_t *v;
    char path[96], buf[64], gerr[200];
    if (!obj)
        return 0;
    if (!json_is_object(obj))
        return BAD(err, "map.elevation: expected an object of hex label -> level, got %s",
                   show(obj, buf, sizeof buf));
    json_object_foreach(obj, key, v) {
        mk_hex h;
        snprintf(path, sizeof path, "map.elevation.%.32s", key);
        if (mk_hex_parse(&m->grid, key, &h, gerr, sizeof gerr) < 0)
            return BAD(err, "%s: %s", path, gerr);
        if (!json_is_integer(v) || json_integer_value(v) < 0 ||
            json_integer_value(v) > BAR_MAX_LEVEL)
            return BAD(err, "%s: %s is not a level: an integer 0..%d", path,
                       show(v, buf, sizeof buf), BAR_MAX_LEVEL);
        m->elevation[h] = (int8_t)json_integer_value(v);
    }
    return 0;
}

/* map.edge_elevation: {"north": 0, ...}: the level of the ground beyond an
 * edge, so that a contour the line of sight leaves the map through closes
 * there (5.4b A1); an edge not given is open (unknown ground). */
static int read_edges(bar_map *m, json_t *obj, mk_error *err)
{
    const char *key;
    json_t *v;
    char path[96], buf[64];
    for (int e = 0; e < 4; e++)
        m->edge_elevation[e] = BAR_EDGE_OPEN;
    if (!obj)
        return 0;
    if (!json_is_object(obj))
        return BAD(err, "map.edge_elevation: expected an object of edge -> level, got %s",
                   show(obj, buf, sizeof buf));
    json_object_foreach(obj, key, v) {
        snprintf(path, sizeof path, "map.edge_elevation.%.32s", key);
        int e = mk_edge_parse(key);
        if (e == MK_EDGE_NONE)
            return BAD(err, "%s: '%.32s' is not an edge: north, south, west or east", path, key);
        if (!json_is_integer(v) || json_integer_value(v) < 0 ||
            json_integer_value(v) > BAR_MAX_LEVEL)
            return BAD(err, "%s: %s is not a level: an integer 0..%d", path,
                       show(v, buf, sizeof buf), BAR_MAX_LEVEL);
        m->edge_elevation[e] = (int8_t)json_integer_value(v);
    }
    return 0;
}

/* map.hexsides: "A/B" -> a name or a list of names (5.3, 5.2h, 5.2i). */
static int read_hexsides(bar_map *m, json_t *obj, mk_error *err)
{
    const char *key;
    json_t *v;
    char path[96], buf[64], known[160];
    if (!obj)
        return 0;
    if (!json_is_object(obj))
        return BAD(err, "map.hexsides: expected an object of hexside -> terrain, got %s",
                   show(obj, buf, sizeof buf));
    uint8_t given[MK_MAX_HEX];   /* bit d: side d of the hex already given */
    memset(given, 0, sizeof given);
    json_object_foreach(obj, key, v) {
        mk_hex a, b, h = 0;
        int d = 0; /* set by side_slot; initialised for gcc's flow analysis */
        snprintf(path, sizeof path, "map.hexsides.%.32s", key);
        if (parse_side_key(&m->grid, key, path, &a, &b, err) < 0)
            return -1;
        side_slot(&m->grid, a, b, &h, &d);
        if (given[h] & (1u << d))
            return BAD(err, "%s: this hexside is already given", path);
        given[h] |= (uint8_t)(1u << d);
        size_t n = json_is_array(v) ? json_array_size(v) : 1;
        if ((json_is_array(v) && n == 0) || (!json_is_array(v) && !json_is_string(v)))
            return BAD(err, "%s: expected a hexside terrain or a list of them, got %s", path,
                       show(v, buf, sizeof buf));
        unsigned bits = 0;
        for (size_t i = 0; i < n; i++) {
            json_t *t = json_is_array(v) ? json_array_get(v, i) : v;
            int bit = 0;
            for (int k = 0; k < BAR_HS_NTERRAIN; k++)
                if (json_is_string(t) && strcmp(json_string_value(t), hexside_names[k]) == 0)
                    bit = 1 << k;
            if (!bit) {
                list_names(hexside_names, BAR_HS_NTERRAIN, known, sizeof known);
                return BAD(err, "%s: unknown hexside terrain %s (known: %s; roads are map.roads)",
                           path, show(t, buf, sizeof buf), known);
            }
            if (bits & (unsigned)bit)
                return BAD(err, "%s: %s is given twice", path, show(t, buf, sizeof buf));
            bits |= (unsigned)bit;
        }
        if ((bits & BAR_HS_REGULAR_SLOPE) && (bits & BAR_HS_GENTLE_SLOPE))
            return BAD(err, "%s: a slope is regular or gentle, not both", path);
        /* 5.3d-e: a slope runs from a lower to a higher hex; one between
         * hexes of the same level has no direction (an elevation typo). */
        if ((bits & (BAR_HS_REGULAR_SLOPE | BAR_HS_GENTLE_SLOPE)) &&
            m->elevation[a] == m->elevation[b])
            return BAD(err, "%s: a slope between two hexes of the same elevation (%d): give "
                            "map.elevation so that one is higher",
                       path, m->elevation[a]);
        m->side[h][d] |= (uint16_t)bits;
    }
    return 0;
}

/* map.roads: "A/B" -> "major" or "minor" (5.2g): a road crosses that
 * hexside; both hexes become road hexes of that kind. */
static int read_roads(bar_map *m, json_t *obj, mk_error *err)
{
    const char *key;
    json_t *v;
    char path[96], buf[64];
    if (!obj)
        return 0;
    if (!json_is_object(obj))
        return BAD(err, "map.roads: expected an object of hexside -> \"major\" or \"minor\", got %s",
                   show(obj, buf, sizeof buf));
    json_object_foreach(obj, key, v) {
        mk_hex a, b, h = 0;
        int d = 0; /* set by side_slot; initialised for gcc's flow analysis */
        snprintf(path, sizeof path, "map.roads.%.32s", key);
        if (parse_side_key(&m->grid, key, path, &a, &b, err) < 0)
            return -1;
        side_slot(&m->grid, a, b, &h, &d);
        if (m->side[h][d] & (BAR_HS_MAJOR_ROAD | BAR_HS_MINOR_ROAD))
            return BAD(err, "%s: this hexside's road is already given", path);
        const char *s = json_is_string(v) ? json_string_value(v) : "";
        unsigned side_bit, hex_bit;
        if (strcmp(s, "major") == 0) {
            side_bit = BAR_HS_MAJOR_ROAD;
            hex_bit = BAR_HF_MAJOR_ROAD;
        } else if (strcmp(s, "minor") == 0) {
            side_bit = BAR_HS_MINOR_ROAD;
            hex_bit = BAR_HF_MINOR_ROAD;
        } else {
            return BAD(err, "%s: %s is not \"major\" or \"minor\"", path, show(v, buf, sizeof buf));
        }
        m->side[h][d] |= (uint16_t)side_bit;
        m->features[a] |= (uint8_t)hex_bit;
        m->features[b] |= (uint8_t)hex_bit;
    }
    return 0;
}

static const char *const known_keys[] = {
    "orientation", "shifted", "cols", "rows", "sheets",   /* core's */
    "terrain", "features", "elevation", "edge_elevation", "hexsides", "roads",
};

int bar_map_parse(bar_map *m, const mk_grid *g, struct json_t *map, mk_error *err)
{
    char buf[64];
    if (!json_is_object(map))
        return BAD(err, "map: expected an object, got %s", show(map, buf, sizeof buf));
    if (g->orient != MK_FLAT)
        return BAD(err, "map.orientation: the Monmouth map is \"flat\" (hexes in columns)");
    /* A misspelt key ("hexside") would silently drop the data: refuse it. */
    const char *key;
    json_t *v;
    json_object_foreach(map, key, v) {
        bool ok = false;
        for (size_t i = 0; i < sizeof known_keys / sizeof known_keys[0]; i++)
            ok = ok || strcmp(key, known_keys[i]) == 0;
        if (!ok)
            return BAD(err, "map.%.32s: unknown field (known: terrain, features, elevation, "
                            "edge_elevation, hexsides, roads and the grid's)",
                       key);
    }
    memset(m, 0, sizeof *m);
    m->grid = *g;
    /* Elevation before hexsides: a slope's check reads it. */
    if (read_terrain(m, json_object_get(map, "terrain"), err) < 0 ||
        read_features(m, json_object_get(map, "features"), err) < 0 ||
        read_elevation(m, json_object_get(map, "elevation"), err) < 0 ||
        read_edges(m, json_object_get(map, "edge_elevation"), err) < 0 ||
        read_hexsides(m, json_object_get(map, "hexsides"), err) < 0 ||
        read_roads(m, json_object_get(map, "roads"), err) < 0)
        return -1;
    return 0;
}
