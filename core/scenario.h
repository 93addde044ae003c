/* scenario.h - scenario files: the common shape of PROTOCOL.md, checked.
 *
 * The loader reads the JSON with jansson, checks every common field and
 * names the file, the JSON path or line:column, and the offending value in
 * any error ("scenarios/htl/x.json: units[3].hex: 'N4' is off the map:
 * columns are A-M"). Terrain names and unit kinds are the ruleset's, looked
 * up through its table; the ruleset's own check then covers what only it
 * knows (stacking at set-up, victory conditions, its extra fields).
 *
 * A loaded scenario is read-only and shared by every state of its game: a
 * state refers to units by their index here and to hexes by index. */
#ifndef MK_SCENARIO_H
#define MK_SCENARIO_H

#include <jansson.h>
#include <stdbool.h>

#include "error.h"
#include "hex.h"

#define MK_MAX_UNITS 256   /* pieces: units and leaders (BAR's scenario 4 has ~200) */
#define MK_MAX_SIDES 2
#define MK_ID_MAX 32
#define MK_NAME_MAX 48
#define MK_TITLE_MAX 128
#define MK_MAX_TERRAINS 32

struct mk_ruleset;

typedef struct mk_map {
    mk_grid grid;
    uint8_t terrain[MK_MAX_HEX];   /* the ruleset's terrain index; 0 is its default */
} mk_map;

typedef struct mk_sc_side {
    char id[MK_ID_MAX];      /* "american" */
    int cap;                 /* command points each turn (HtL command AP, H&M base CAP) */
    int home;                /* MK_EDGE_*: the edge this side retreats toward */
} mk_sc_side;

typedef struct mk_sc_unit {
    char id[MK_ID_MAX];
    char name[MK_NAME_MAX];  /* optional: "Washington" */
    int side;                /* index into sides */
    int kind;                /* the ruleset's kind index */
    int mp;                  /* MP at set-up */
    int mp_start;            /* the most it may rally back to (>= mp) */
    mk_hex hex;              /* MK_NO_HEX: not on the map at set-up */
    int nrating;             /* 0, 1 or 2 numbers in rating */
    int rating[2];
} mk_sc_unit;

typedef struct mk_scenario {
    char source[256];        /* file path or "(inline)", for messages */
    char id[MK_ID_MAX * 2];  /* "htl/trenton" */
    char title[MK_TITLE_MAX];
    const struct mk_ruleset *rs;
    mk_map map;
    int nsides;
    mk_sc_side sides[MK_MAX_SIDES];
    int first;               /* side index that moves first */
    int turns;
    int nunits;
    mk_sc_unit units[MK_MAX_UNITS];
    json_t *json;            /* the whole object (owned), for ruleset fields and records */
    void *ext;               /* the ruleset's read-only data derived from the scenario
                              * (mk_ruleset.prepare; BAR: map, charts, orders of battle),
                              * freed by mk_ruleset.release */
} mk_scenario;

/* Parses and checks a scenario object. rulesets lists the known rulesets
 * (the object's "ruleset" picks one). source names it in messages. On
 * success returns a new scenario that holds its own reference to obj; on
 * failure NULL with err->code "scenario_invalid". */
mk_scenario *mk_scenario_from_json(json_t *obj, const char *source,
                                   const struct mk_ruleset *const *rulesets, int nrulesets,
                                   mk_error *err);
/* Same from text (a syntax error is reported as line:column). */
mk_scenario *mk_scenario_parse(const char *text, size_t len, const char *source,
                               const struct mk_ruleset *const *rulesets, int nrulesets,
                               mk_error *err);
mk_scenario *mk_scenario_load_file(const char *path, const struct mk_ruleset *const *rulesets,
                                   int nrulesets, mk_error *err);
void mk_scenario_free(mk_scenario *sc);

/* The unit index with that id, or -1. */
int mk_scenario_unit(const mk_scenario *sc, const char *id);
/* The side index with that id, or -1. */
int mk_scenario_side(const mk_scenario *sc, const char *id);
/* The scenario's units[i] object, for ruleset-specific fields. */
json_t *mk_scenario_unit_json(const mk_scenario *sc, int i);

#endif
