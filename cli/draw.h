/* draw.h - the terminal's pictures of a game: the hex map with its legend,
 * and the table of units. Everything is read from a scenario and, when a
 * game is running, from its STATE object (PROTOCOL.md); nothing here knows
 * a rule of any game. */
#ifndef MK_DRAW_H
#define MK_DRAW_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "core/ruleset.h"
#include "core/scenario.h"

/* True when colour should be used on out: it is a terminal and NO_COLOR is
 * not set in the environment. */
bool mk_draw_want_color(FILE *out);

/* The width to lay text out in on out: $COLUMNS if set, else the
 * terminal's width, else 120. */
int mk_draw_width(FILE *out);

/* Draws the map of sc on out: every hex with its label, its terrain as a
 * one-character code and the units in it (side letter, kind code, MP), then
 * a legend. state is a STATE object whose "units" place the units; NULL
 * draws the scenario's set-up. The nhighlight hexes in highlight (may be
 * NULL) are marked. color adds ANSI colours. The map is drawn as seen on a
 * pointy map; a flat map (hexes in columns) is drawn transposed, one line
 * of cells per map column, as the note under it says. Cells are narrower
 * when the roomy ones would not fit in mk_draw_width(out). */
void mk_draw_map(FILE *out, const mk_scenario *sc, json_t *state, const mk_hex *highlight,
                 int nhighlight, bool color);

/* Prints a table of units: id, side, kind, MP, hex, name and rating. With a
 * STATE object its "units" give side, kind, MP and hex; NULL prints the
 * scenario's set-up. Names and ratings come from the scenario. */
void mk_draw_units(FILE *out, const mk_scenario *sc, json_t *state, bool color);

/* The one-character code of terrain index t of rs: ' ' for the default
 * (index 0), the fixed glyph of a known name ("forest" 'F', "waterway" '~',
 * ...), else a letter of the name not taken by another terrain of rs. */
char mk_draw_terrain_code(const mk_ruleset *rs, int t);

/* The one-character code of a unit kind ("regular" 'R', "leader" '*', ...;
 * else a letter of the name not taken by another kind of rs). rs may be
 * NULL; an unknown kind gets its first letter in upper case. */
char mk_draw_kind_code(const mk_ruleset *rs, const char *kind);

#endif
