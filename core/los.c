/* los.c - exact line of sight from hex centre to hex centre, in cube
 * coordinates with integer arithmetic only (no floating point anywhere).
 *
 * Geometry. With cube coordinates (q, r, s), q + r + s == 0, the cell of hex
 * H is the set of points p with
 *     |(p.q - p.r) - (H.q - H.r)| <= 1,
 *     |(p.r - p.s) - (H.r - H.s)| <= 1,
 *     |(p.s - p.q) - (H.s - H.q)| <= 1
 * (the perpendicular bisector between H and its neighbour H + (1,-1,0) is
 * (p.q - p.r) - (H.q - H.r) = 1, and so on for the other five). The line is
 * p(t) = A + t (B - A), t in [0, 1], so each of the three expressions is
 * a + b t with integers a and b, and the set of t where the line is in H's
 * open (interior) or closed cell is an interval with rational ends.
 *  - The line crosses H if the open interval is not empty.
 *  - Otherwise, if the closed interval has positive length, the line runs
 *    along a side of H: a spine, shared with the neighbour across that side.
 *  - A single point (a corner touch) is nothing.
 *
 * Candidates. Let N = distance(A, B) and sample the line at t = k/N. Every
 * point of the line lies within 1/2 (in the hex max-norm, in which the
 * distance between hex centres is the hex distance) of the nearest sample;
 * a point in H's closed cell lies within 2/3 of H's centre; the hex R_k whose
 * cell holds sample k lies within 2/3 of it. So a hex whose closed interval
 * starts at s is within 1/2 + 2/3 + 2/3 < 2, hence at most 1, of R_k for
 * k = round(s N). Batch k therefore looks at R_k and its six neighbours and
 * keeps those whose interval starts in batch k: every step is found exactly
 * once, in order of t, with O(1) memory and 7 (N - 1) cell tests in all, so a
 * range-2 line costs 7 tests. Batches 0 and N hold only A and B (a point
 * within 1/2 of a centre is inside that hex) and are skipped.
 *
 * Step encoding (mk_los_step). A crossed hex is {h, MK_NO_HEX}. A spine is
 * {a, b} with a < b: the two hexes in increasing index order, so that the
 * trace from B to A is exactly the reverse of the trace from A to B. When
 * one side of a spine is off the map it is MK_NO_HEX (== -1), which is then
 * `a` (it sorts first) and the on-map hex is `b`. So: a step is a spine iff
 * b != MK_NO_HEX, and a == MK_NO_HEX only for a spine along the map's edge.
 * A line between two hexes of a map never enters the interior of an off-map
 * hex (the map is a full rectangle of rows and columns), so a crossed hex is
 * always on the map; an off-map crossed hex or a spine with both sides off
 * the map, should one ever arise, never blocks and is left out.
 */
#include "los.h"

#include <assert.h>
#include <stdint.h>

/* A rational num / den with den > 0. */
typedef struct frac {
    int64_t num, den;
} frac;

static bool frac_lt(frac x, frac y) { return x.num * y.den < y.num * x.den; }

/* The three cell expressions of a cube point (q - r, r - s, s - q). */
static void cell_expr(mk_cube c, int64_t e[3])
{
    e[0] = (int64_t)c.q - c.r;
    e[1] = (int64_t)c.r - c.s;
    e[2] = (int64_t)c.s - c.q;
}

enum { HIT_NONE = 0, HIT_CROSS, HIT_SPINE };

/* How the line A + t D (t in [0,1]) meets the cell of H: HIT_CROSS if it
 * crosses the interior, HIT_SPINE if it runs along a side for a positive
 * length (*partner is then the cube across that side), else HIT_NONE.
 * *start is where the interval begins. */
static int meet(mk_cube A, mk_cube D, mk_cube H, frac *start, mk_cube *partner)
{
    int64_t ea[3], ed[3], eh[3];
    cell_expr(A, ea);
    cell_expr(D, ed);
    cell_expr(H, eh);
    frac lo = {0, 1}, hi = {1, 1};
    bool open_ok = true;
    int tight = -1;
    for (int i = 0; i < 3; i++) {
        int64_t a = ea[i] - eh[i], b = ed[i];
        if (b == 0) {
            /* Constant along the line: |a| < 1 (open), |a| <= 1 (closed). */
            if (a != 0)
                open_ok = false;
            if (a < -1 || a > 1)
                return HIT_NONE;
            if (a != 0)
                tight = i;
            continue;
        }
        /* -1 < a + b t < 1 */
        frac l, h;
        if (b > 0) {
            l = (frac){-1 - a, b};
            h = (frac){1 - a, b};
        } else {
            l = (frac){a - 1, -b};
            h = (frac){a + 1, -b};
        }
        if (frac_lt(lo, l))
            lo = l;
        if (frac_lt(h, hi))
            hi = h;
    }
    if (!frac_lt(lo, hi))
        return HIT_NONE; /* empty or a single point: a corner touch */
    *start = lo;
    if (open_ok)
        return HIT_CROSS;
    if (tight < 0)
        return HIT_NONE;
    /* The line lies on the bisector of H and H + v, expression `tight` == +-1. */
    int sign = ea[tight] - eh[tight] > 0 ? 1 : -1;
    static const int v[3][3] = {{1, -1, 0}, {0, 1, -1}, {-1, 0, 1}};
    partner->q = H.q + sign * v[tight][0];
    partner->r = H.r + sign * v[tight][1];
    partner->s = H.s + sign * v[tight][2];
    return HIT_SPINE;
}

static bool cube_eq(mk_cube x, mk_cube y) { return x.q == y.q && x.r == y.r; }
static bool cube_lt(mk_cube x, mk_cube y) { return x.q != y.q ? x.q < y.q : x.r < y.r; }

/* floor(x / y) for y > 0. */
static int64_t floor_div(int64_t x, int64_t y)
{
    int64_t d = x / y;
    return (d * y > x) ? d - 1 : d;
}

static int64_t abs64(int64_t x) { return x < 0 ? -x : x; }

/* The hex whose closed cell holds the point X / n (X integer cube, scaled
 * by n > 0): round each coordinate, then fix the one that moved most. */
static mk_cube cube_round(int64_t xq, int64_t xr, int64_t xs, int64_t n)
{
    int64_t q = floor_div(2 * xq + n, 2 * n), r = floor_div(2 * xr + n, 2 * n),
            s = floor_div(2 * xs + n, 2 * n);
    int64_t dq = abs64(q * n - xq), dr = abs64(r * n - xr), ds = abs64(s * n - xs);
    if (dq > dr && dq > ds)
        q = -r - s;
    else if (dr > ds)
        r = -q - s;
    else
        s = -q - r;
    return (mk_cube){(int)q, (int)r, (int)s};
}

/* Called for each step in order; returns false to stop the trace. */
typedef mk_los_visit_fn step_fn;

static const int ring[7][3] = {
    {0, 0, 0}, {1, -1, 0}, {1, 0, -1}, {0, 1, -1}, {-1, 1, 0}, {-1, 0, 1}, {0, -1, 1},
};

/* Can a hex within 1 of cube hex R be on the map? A neighbour's column
 * and row differ from its hex's by at most 1 (both layouts), so not when
 * R lies 2 or more columns or rows outside. */
static bool near_map(const mk_grid *g, mk_cube R)
{
    int col, row;
    mk_cube_offset(g, R, &col, &row);
    return col >= -1 && col <= g->cols && row >= -1 && row <= g->rows;
}

/* Traces from the centre of cube hex A to that of B (on the map or not)
 * and hands each step to visit, in order from A; see the file comment.
 * With clip, a batch whose hexes all lie off the map is skipped without
 * its seven cell tests: Monmouth extends every line of sight to past both
 * map edges (5.4b A1), most of it off the map. (A line between two hexes
 * of the map stays on it: no clip.) */
static void trace_cubes(const mk_grid *g, mk_cube A, mk_cube B, bool clip, step_fn visit, void *user)
{
    mk_cube D = {B.q - A.q, B.r - A.r, B.s - A.s};
    int n = ((D.q < 0 ? -D.q : D.q) + (D.r < 0 ? -D.r : D.r) + (D.s < 0 ? -D.s : D.s)) / 2;
    if (n <= 1)
        return; /* HtL 8.3: adjacent units always see each other */
    for (int k = 1; k < n; k++) {
        /* Sample k is (A n + k D) / n. */
        int64_t xq = (int64_t)A.q * n + (int64_t)k * D.q, xr = (int64_t)A.r * n + (int64_t)k * D.r,
                xs = (int64_t)A.s * n + (int64_t)k * D.s;
        mk_cube R = cube_round(xq, xr, xs, n);
        assert(abs64((xq - xr) - (int64_t)n * (R.q - R.r)) <= n &&
               abs64((xr - xs) - (int64_t)n * (R.r - R.s)) <= n &&
               abs64((xs - xq) - (int64_t)n * (R.s - R.q)) <= n);
        if (clip && !near_map(g, R))
            continue;   /* every hit of this batch is off the map (not visited) */
        /* The hits starting in this batch, at most 7, sorted by start. */
        struct {
            frac start;
            mk_los_step st;
        } hit[7];
        int nhit = 0;
        for (int i = 0; i < 7; i++) {
            mk_cube H = {R.q + ring[i][0], R.r + ring[i][1], R.s + ring[i][2]};
            if (cube_eq(H, A) || cube_eq(H, B))
                continue;
            frac s;
            mk_cube P;
            int kind = meet(A, D, H, &s, &P);
            if (kind == HIT_NONE)
                continue;
            /* Batch of s: round(s n), halves up. */
            if (floor_div(2 * s.num * n + s.den, 2 * s.den) != k)
                continue;
            mk_los_step st;
            if (kind == HIT_CROSS) {
                st.a = mk_hex_from_cube(g, H);
                st.b = MK_NO_HEX;
                if (st.a == MK_NO_HEX)
                    continue;
            } else {
                /* Both sides of the spine are hits of this batch: emit once. */
                if (!cube_lt(H, P))
                    continue;
                mk_hex x = mk_hex_from_cube(g, H), y = mk_hex_from_cube(g, P);
                if (x == MK_NO_HEX && y == MK_NO_HEX)
                    continue;
                st.a = x < y ? x : y;
                st.b = x < y ? y : x;
            }
            int j = nhit++;
            while (j > 0 && frac_lt(s, hit[j - 1].start)) {
                hit[j] = hit[j - 1];
                j--;
            }
            hit[j].start = s;
            hit[j].st = st;
        }
        for (int i = 0; i < nhit; i++)
            if (!visit(hit[i].st, user))
                return;
    }
}

/* Traces from `from` to `to` (both on the map) and hands each step to
 * visit, in order from the viewer. */
static void trace(const mk_grid *g, mk_hex from, mk_hex to, step_fn visit, void *user)
{
    int size = mk_grid_size(g);
    if (from < 0 || from >= size || to < 0 || to >= size)
        return;
    trace_cubes(g, mk_hex_cube(g, from), mk_hex_cube(g, to), false, visit, user);
}

/* Walks the line between the centres of cube hexes a and b, on the map or
 * not (Monmouth 5.4b A1 extends the line beyond both units), handing each
 * on-map step to visit in order from a until it returns false; see
 * los.h. */
void mk_los_walk(const mk_grid *g, mk_cube a, mk_cube b, mk_los_visit_fn visit, void *user)
{
    if (a.q + a.r + a.s != 0 || b.q + b.r + b.s != 0)
        return;
    trace_cubes(g, a, b, true, visit, user);
}

typedef struct trace_ctx {
    mk_los_path *out;
    bool overflow;
} trace_ctx;

static bool add_step(mk_los_step st, void *user)
{
    trace_ctx *c = user;
    if (c->out->n >= MK_LOS_MAX) {
        c->overflow = true;
        return false;
    }
    c->out->step[c->out->n++] = st;
    return true;
}

/* Traces the line from `from` to `to` and fills out with the intervening
 * steps in order from the viewer, both end hexes left out (the same hex or
 * adjacent hexes give n == 0), encoded as in the file comment: {h,
 * MK_NO_HEX} for a crossed hex, {a, b} with a < b for a spine, a ==
 * MK_NO_HEX for the off-map side of a spine along the map edge. Returns
 * out->n, or -1 if the line has more than MK_LOS_MAX steps (only on a long,
 * thin map); out then holds the first MK_LOS_MAX. */
int mk_los_trace(const mk_grid *g, mk_hex from, mk_hex to, mk_los_path *out)
{
    trace_ctx c = {out, false};
    out->n = 0;
    trace(g, from, to, add_step, &c);
    return c.overflow ? -1 : out->n;
}

typedef struct clear_ctx {
    mk_los_blocks_fn blocks;
    const void *ctx;
    mk_hex blocker;
} clear_ctx;

static bool check_step(mk_los_step st, void *user)
{
    clear_ctx *c = user;
    if (st.b == MK_NO_HEX) {
        /* HtL 8.3, H&M 8: blocking terrain or a unit in a hex between the
         * two units blocks. */
        if (c->blocks(st.a, c->ctx)) {
            c->blocker = st.a;
            return false;
        }
        return true;
    }
    /* HtL 8.3: "If line of sight falls along a hex side then line of sight
     * is blocked if both hexes adjacent to the hex side have blocking
     * terrain. If only one hex side has blocking terrain then the line of
     * sight is clear." H&M 8 says the same of the spine. An off-map hex
     * (a == MK_NO_HEX) never blocks. */
    if (st.a != MK_NO_HEX && c->blocks(st.a, c->ctx) && c->blocks(st.b, c->ctx)) {
        c->blocker = st.a;
        return false;
    }
    return true;
}

/* True if the line from `from` to `to` is clear (always for the same or
 * adjacent hexes, HtL 8.3). When it is blocked and blocker is not NULL,
 * *blocker is the first blocking hex in order from the viewer (for a
 * spine, `a` of the pair, the lower index). Works for lines of any length,
 * even past MK_LOS_MAX steps; calls blocks only until the first blocker. */
bool mk_los_clear(const mk_grid *g, mk_hex from, mk_hex to, mk_los_blocks_fn blocks,
                  const void *ctx, mk_hex *blocker)
{
    clear_ctx c = {blocks, ctx, MK_NO_HEX};
    trace(g, from, to, check_step, &c);
    if (c.blocker == MK_NO_HEX)
        return true;
    if (blocker)
        *blocker = c.blocker;
    return false;
}
