/* los.h - line of sight: a straight line from hex centre to hex centre.
 *
 * HtL 8.3 and H&M 8: the line is blocked by blocking terrain or units in an
 * intervening hex; where it runs exactly along a hexside (a spine), it is
 * blocked only if both hexes beside that spine block. What blocks is the
 * ruleset's to say, through the predicate. All geometry is exact integer
 * arithmetic in cube coordinates: no floating-point tolerance decides
 * whether a line grazes a spine.
 */
#ifndef MK_LOS_H
#define MK_LOS_H

#include "hex.h"

#define MK_LOS_MAX 256   /* steps kept by mk_los_trace */

/* One step of a traced line, in order from the viewer to the target:
 * either a hex whose interior the line crosses (b == MK_NO_HEX), or a spine
 * the line runs along for some length, between hexes a and b. A line that
 * only touches a hex corner does not enter that hex. */
typedef struct mk_los_step {
    mk_hex a, b;
} mk_los_step;

typedef struct mk_los_path {
    int n;
    mk_los_step step[MK_LOS_MAX];
} mk_los_path;

/* Does hex h block line of sight? ctx is the caller's (usually the game). */
typedef bool (*mk_los_blocks_fn)(mk_hex h, const void *ctx);

/* Traces the line from `from` to `to` and fills out with the intervening
 * steps, both end hexes left out (adjacent hexes give n == 0). A spine hex
 * that is off the map is given as MK_NO_HEX in that step. Returns out->n,
 * or -1 when the line has more than MK_LOS_MAX steps (only on long, thin
 * maps; out then holds the first MK_LOS_MAX). mk_los_clear has no limit. */
int mk_los_trace(const mk_grid *g, mk_hex from, mk_hex to, mk_los_path *out);

/* True if the line from `from` to `to` is clear. When it is blocked and
 * blocker is not NULL, *blocker is the first blocking hex (for a spine, the
 * first of the pair). An off-map hex beside a spine does not block. */
bool mk_los_clear(const mk_grid *g, mk_hex from, mk_hex to, mk_los_blocks_fn blocks,
                  const void *ctx, mk_hex *blocker);

/* Called by mk_los_walk for each step in order; return false to stop. */
typedef bool (*mk_los_visit_fn)(mk_los_step st, void *user);

/* Walks the straight line from the centre of cube hex a to the centre of b,
 * either or both of which may lie off the map, and hands each step to
 * visit in order from a: the same steps as mk_los_trace (a and b left out,
 * crossed hexes off the map left out, a spine along the map's edge with
 * a == MK_NO_HEX), with no step limit. For rules that extend a line of
 * sight beyond both units (Monmouth 5.4b A1: rules/bar/los.c). Does
 * nothing if a or b is not a cube coordinate (q + r + s != 0). */
void mk_los_walk(const mk_grid *g, mk_cube a, mk_cube b, mk_los_visit_fn visit, void *user);

#endif
