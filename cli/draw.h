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
 * one-character code and the units in it (side letter, kind code, then SP
 * where the state gives "sp", else MP; a status letter where its "status"
 * is not "good"; ' once acted; leaders after the other units), then a
 * legend. state is a STATE object whose "units" place the units; NULL
 * draws the scenario's set-up. The nhighlight hexes in highlight (may be
 * NULL) are marked. color adds ANSI colours. The map is drawn as seen on a
 * pointy map; a flat map (hexes in columns) is drawn transposed, one line
 * of cells per map column, as the note under it says. Cells are narrower
 * when the roomy ones would not fit in mk_draw_width(out). */
void mk_draw_map(FILE *out, const mk_scenario *sc, json_t *state, const mk_hex *highlight,
                 int nhighlight, bool color);

/* A window on the map: columns col0 .. col0+cols-1 and rows row0 ..
 * row0+rows-1, 0-based global (as mk_hex_at takes them). */
typedef struct mk_draw_view {
    int col0, row0, cols, rows;
} mk_draw_view;

/* $LINES if set, else the terminal's height when out is one, else 0. */
int mk_draw_height(FILE *out);

/* Whether mk_draw_map_view of the whole map fits in width characters, and
 * the map has at most max_rows rows (a taller one scrolls off the screen). */
bool mk_draw_map_fits(const mk_scenario *sc, int width, int max_rows);

/* Sets v's size (not its place) to the window that fits in width
 * characters and about height lines of screen (0: unknown, a default
 * size), leaving room for the legend, status and actions under it. */
void mk_draw_view_fit(const mk_scenario *sc, int width, int height, mk_draw_view *v);

/* Makes v fit on g: its size at most the map's, its corner moved so that
 * it lies on the map. */
void mk_draw_view_clip(const mk_grid *g, mk_draw_view *v);

/* Moves v, its size kept, so that its middle is the middle of the box
 * around the n hexes (MK_NO_HEX ones ignored; none: v unchanged), then
 * clips it to the map. */
void mk_draw_view_centre(const mk_grid *g, mk_draw_view *v, const mk_hex *hexes, int n);

/* Draws the window v of the map (NULL: the whole map) as mk_draw_map
 * does, with a legend of what lies in it; a flat map is drawn upright, its
 * columns as on the printed map (the shifted ones half a cell lower). */
void mk_draw_map_view(FILE *out, const mk_scenario *sc, json_t *state, const mk_hex *highlight,
                      int nhighlight, bool color, const mk_draw_view *v);

/* Draws the whole map one character a hex (terrain code, '.' for the
 * default terrain; a hex with units shows its first unit's side letter),
 * with column and row rulers; frame (may be NULL) is a window to mark. */
void mk_draw_overview(FILE *out, const mk_scenario *sc, json_t *state, bool color,
                      const mk_draw_view *frame);

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
