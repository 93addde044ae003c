/* los.c - Monmouth 5.4b Determining Line of Sight, on the per-hex
 * elevation model of map.c (5.4a A: "each hex belongs to a single
 * elevation"). docs/bar.md "Line of sight" gives the readings in full.
 *
 * The line. 5.4b A1: the LOS runs from hex centre to hex centre and is
 * extended beyond each unit; we extend it to both map edges and walk it
 * with core/los (mk_los_walk), exact integer geometry with spines. The
 * walk is a sequence of positions in order from the `from` unit: a hex the
 * line crosses, or a spine (the line running along the hexside between two
 * hexes). A spine counts as one of "the LOS's hexes" (A2), at the lower of
 * its two elevations (the line only runs on high ground where both sides
 * are high, as a spine only blocks where both sides block).
 *
 * Contours. With one level per hex, the contour line of level L runs along
 * the hexsides between hexes below L and hexes at L or above. The hex that
 * "contains" it is the upper one: 5.4a A puts a hex a contour line passes
 * through at that contour's height. So along the line, each maximal run of
 * positions at L or above is bounded by two intersection hexes of the
 * contour L, its first and last positions (A1), and the two belong to one
 * connected contour line: the run lies inside one connected area at L or
 * above, and the contour is its boundary. Such a pair is an elevation
 * feature when:
 *  - both ends close: the position beyond is below L; at the map's edge the
 *    ground beyond is unknown unless map.edge_elevation gives it ("only one
 *    intersection hex ... can be ignored");
 *  - the run has two hexes or more: a run of one hex is a contour crossed
 *    twice in the same hex, "not a pair of hexes" (5.4b Example 3,
 *    AMB-BAR-4).
 * Runs of several levels with the same ends are one feature (a steep
 * side: several contours in one hex), reported at the lowest level.
 *
 * Crest and hilltop (A2): count = the run's length; odd: the hilltop is the
 * middle position; even: the crest is the hexside between the two middle
 * positions. Forward slope: between the crest/hilltop and the intersection
 * hex nearer the viewer (the other unit), ends included; reverse: the other
 * side. Blocking (A3, B): a feature between the units or that they are on
 * blocks when either unit is on its reverse slope, or when the line passes
 * through its hilltop hex or crest hexside between the units; a crest
 * hexside both units are adjacent to (they are its two hexes) does not
 * block (B exception, Example 6). Terrain (5.2) and combat units (not
 * leaders) in a hex between the units block (B); on a spine, only when
 * both hexes block (as core/los).
 */
#include "bar.h"

#include <string.h>

#include "core/los.h"

typedef struct pos {
    mk_hex h, h2;   /* crossed hex: h, h2 = MK_NO_HEX; spine: h the lower
                     * (or only on-map) hex, h2 the other (or MK_NO_HEX) */
    bool spine;
    int8_t elev;
} pos;

typedef struct walk {
    const bar_map *m;
    int n;
    bool overflow;
    pos p[BAR_LOS_MAX_POS];
} walk;

static bool add_pos(mk_los_step st, void *user)
{
    walk *w = user;
    if (w->n >= BAR_LOS_MAX_POS) {
        w->overflow = true;
        return false;
    }
    const int8_t *el = w->m->elevation;
    pos *p = &w->p[w->n++];
    if (st.b == MK_NO_HEX) {
        *p = (pos){st.a, MK_NO_HEX, false, el[st.a]};
    } else if (st.a == MK_NO_HEX) {
        *p = (pos){st.b, MK_NO_HEX, true, el[st.b]};   /* along the map's edge */
    } else {
        bool b_lower = el[st.b] < el[st.a];
        mk_hex lo = b_lower ? st.b : st.a, hi = b_lower ? st.a : st.b;
        *p = (pos){lo, hi, true, el[lo]};
    }
    return true;
}

/* The level of the ground beyond the map's edge next to position p, or
 * BAR_EDGE_OPEN: open if any edge p's hexes are on is open, else the
 * highest given (a contour closes only where it closes on every side). */
static int beyond_edge(const bar_map *m, const pos *p)
{
    const mk_grid *g = &m->grid;
    int level = BAR_EDGE_OPEN;
    bool any = false;
    mk_hex hs[2] = {p->h, p->h2};
    for (int i = 0; i < 2; i++) {
        if (hs[i] == MK_NO_HEX)
            continue;
        int col = mk_hex_col(g, hs[i]), row = mk_hex_row(g, hs[i]);
        bool on[4] = {row == 0, row == g->rows - 1, col == 0, col == g->cols - 1};
        for (int e = 0; e < 4; e++) {
            if (!on[e])
                continue;
            if (m->edge_elevation[e] == BAR_EDGE_OPEN)
                return BAR_EDGE_OPEN;
            if (!any || m->edge_elevation[e] > level)
                level = m->edge_elevation[e];
            any = true;
        }
    }
    return any ? level : BAR_EDGE_OPEN;
}

/* Does the run of level L close before position s (after e)? */
static bool closed_before(const walk *w, int s, int L, int edge0)
{
    return s > 0 ? w->p[s - 1].elev < L : edge0 != BAR_EDGE_OPEN && edge0 < L;
}
static bool closed_after(const walk *w, int e, int L, int edge1)
{
    return e < w->n - 1 ? w->p[e + 1].elev < L : edge1 != BAR_EDGE_OPEN && edge1 < L;
}

/* Where the unit at position x is on feature [s, e] (hilltop t, or crest
 * between c and c + 1), seen from the unit at position y (5.4b A2). */
static bar_slope slope_of(int s, int e, bool crest, int mid, int x, int y)
{
    if (x < s || x > e)
        return BAR_SLOPE_OFF;
    if (!crest && x == mid)
        return BAR_SLOPE_HILLTOP;
    int ds = y > s ? y - s : s - y, de = y > e ? y - e : e - y;
    if (ds == de)
        return BAR_SLOPE_FORWARD;   /* the viewer on the hilltop sees both slopes */
    /* Side of the top x is on: low (toward s) or high (toward e). */
    bool x_low = crest ? x <= mid : x < mid;
    return x_low == (ds < de) ? BAR_SLOPE_FORWARD : BAR_SLOPE_REVERSE;
}

/* Does the hex block (5.4b B)? *terrain tells whether it is the terrain. */
static bool hex_blocks(const bar_map *m, mk_hex h, bar_unit_fn units, const void *ctx,
                       bool *terrain)
{
    *terrain = bar_terrain_blocks_los(m->terrain[h]);
    return *terrain || (units && units(h, ctx));
}

bool bar_los_units_block(mk_hex h, const void *ctx)
{
    const bar_los_units *u = ctx;
    for (int i = 0; u && i < u->n; i++)
        if (u->piece[i].hex == h && !u->piece[i].leader)
            return true;   /* 5.4b B: a combat unit; a leader does not block */
    return false;
}

/* The first blocker found so far: key 2i for position i, 2c + 1 for the
 * hexside between positions c and c + 1. */
typedef struct blocker {
    int key;
    bar_los_why why;
    mk_hex hex, hex2;
    int feature;
} blocker;

static void note(blocker *b, int key, bar_los_why why, mk_hex h, mk_hex h2, int feature)
{
    if (b->why == BAR_LOS_CLEAR || key < b->key)
        *b = (blocker){key, why, h, h2, feature};
}

int bar_los(const bar_map *m, mk_hex from, mk_hex to, bar_unit_fn units, const void *ctx,
            bar_los_result *out, mk_error *err)
{
    const mk_grid *g = &m->grid;
    int size = mk_grid_size(g);
    memset(out, 0, sizeof *out);
    out->clear = true;
    out->why = BAR_LOS_CLEAR;
    out->hex = out->hex2 = MK_NO_HEX;
    out->feature = -1;
    if (from < 0 || from >= size || to < 0 || to >= size)
        return mk_error_set(err, "bad_arg", "line of sight: a hex is off the map");
    if (from == to)
        return 0;

    /* 5.4b A1: extend the line beyond both units to past the map's edges:
     * every on-map point of it lies within cols + rows of either unit. */
    walk w;   /* about 6 KiB */
    w.m = m;
    w.n = 0;
    w.overflow = false;
    mk_cube A = mk_hex_cube(g, from), B = mk_hex_cube(g, to);
    mk_cube D = {B.q - A.q, B.r - A.r, B.s - A.s};
    int N = mk_hex_distance(g, from, to);
    int k = (g->cols + g->rows) / N + 2;
    mk_cube A2 = {A.q - k * D.q, A.r - k * D.r, A.s - k * D.s};
    mk_cube B2 = {B.q + k * D.q, B.r + k * D.r, B.s + k * D.s};
    mk_los_walk(g, A2, B2, add_pos, &w);
    if (w.overflow)
        return mk_error_set(err, "bad_arg", "line of sight: more than %d hexes along the line",
                            BAR_LOS_MAX_POS);
    int ia = -1, ib = -1;
    for (int i = 0; i < w.n; i++) {
        if (!w.p[i].spine && w.p[i].h == from)
            ia = i;
        if (!w.p[i].spine && w.p[i].h == to)
            ib = i;
    }
    if (ia < 0 || ib <= ia)   /* cannot happen: the walk crosses both centres */
        return mk_error_set(err, "bad_arg", "line of sight: internal error tracing the line");

    blocker b = {0, BAR_LOS_CLEAR, MK_NO_HEX, MK_NO_HEX, -1};

    /* 5.4b B: blocking terrain and combat units between the units. */
    for (int i = ia + 1; i < ib; i++) {
        const pos *p = &w.p[i];
        bool t1, t2;
        if (!p->spine) {
            if (hex_blocks(m, p->h, units, ctx, &t1)) {
                note(&b, 2 * i, t1 ? BAR_LOS_TERRAIN : BAR_LOS_UNIT, p->h, MK_NO_HEX, -1);
                break;
            }
        } else if (p->h2 != MK_NO_HEX && hex_blocks(m, p->h, units, ctx, &t1) &&
                   hex_blocks(m, p->h2, units, ctx, &t2)) {
            mk_hex lo = p->h < p->h2 ? p->h : p->h2, hi = p->h < p->h2 ? p->h2 : p->h;
            note(&b, 2 * i, t1 && t2 ? BAR_LOS_TERRAIN : BAR_LOS_UNIT, lo, hi, -1);
            break;
        }
    }

    /* 5.4b A1-A3: elevation features. */
    int top = 0;
    for (int i = 0; i < w.n; i++)
        if (w.p[i].elev > top)
            top = w.p[i].elev;
    int edge0 = beyond_edge(m, &w.p[0]), edge1 = beyond_edge(m, &w.p[w.n - 1]);
    int first_pos[BAR_LOS_MAX_FEATURES];
    for (int L = 1; L <= top; L++) {
        for (int s = 0; s < w.n;) {
            if (w.p[s].elev < L) {
                s++;
                continue;
            }
            int e = s;
            while (e + 1 < w.n && w.p[e + 1].elev >= L)
                e++;
            int next = e + 1;
            /* A feature: a closed pair (A1), of two hexes or more
             * (AMB-BAR-4), between the units or under one (A3), not the
             * same run as at the level below. */
            bool feature = closed_before(&w, s, L, edge0) && closed_after(&w, e, L, edge1) &&
                           e > s && s <= ib && e >= ia &&
                           !(L > 1 && closed_before(&w, s, L - 1, edge0) &&
                             closed_after(&w, e, L - 1, edge1));
            if (!feature) {
                s = next;
                continue;
            }
            int count = e - s + 1;
            bool crest = count % 2 == 0;
            int mid = crest ? s + count / 2 - 1 : s + count / 2;   /* crest: c, c + 1 */
            bar_slope sa = slope_of(s, e, crest, mid, ia, ib);
            bar_slope sb = slope_of(s, e, crest, mid, ib, ia);
            int fi = -1;
            if (out->nfeatures < BAR_LOS_MAX_FEATURES) {
                /* Keep them in order along the line (then by level). */
                fi = out->nfeatures++;
                while (fi > 0 && first_pos[fi - 1] > s) {
                    out->features[fi] = out->features[fi - 1];
                    first_pos[fi] = first_pos[fi - 1];
                    if (b.feature == fi - 1)
                        b.feature = fi;
                    fi--;
                }
                bar_los_feature *f = &out->features[fi];
                first_pos[fi] = s;
                f->level = (int8_t)L;
                f->crest = crest;
                f->count = (int16_t)count;
                f->first = w.p[s].h;
                f->last = w.p[e].h;
                f->top = w.p[mid].h;
                f->top2 = crest ? w.p[mid + 1].h : w.p[mid].h2;
                f->slope[0] = (int8_t)sa;
                f->slope[1] = (int8_t)sb;
            }
            bool reverse = sa == BAR_SLOPE_REVERSE || sb == BAR_SLOPE_REVERSE;
            if (crest) {
                /* B: through the crest hexside, unless both units are its
                 * two hexes (adjacent to it); A3: a unit on the reverse
                 * slope, with the same exception (Example 6). */
                bool between = ia <= mid && mid + 1 <= ib;
                if (ia == mid && ib == mid + 1 && (between || reverse))
                    out->crest_adjacent = true;
                else if (between || reverse)
                    note(&b, 2 * mid + 1, BAR_LOS_CREST, w.p[mid].h, w.p[mid + 1].h, fi);
            } else if ((ia < mid && mid < ib) || reverse) {
                /* B: into but not through a hilltop hex; A3. */
                note(&b, 2 * mid, BAR_LOS_HILLTOP, w.p[mid].h, w.p[mid].h2, fi);
            }
            s = next;
        }
    }
    if (b.why != BAR_LOS_CLEAR) {
        out->clear = false;
        out->why = b.why;
        out->hex = b.hex;
        out->hex2 = b.hex2;
        out->feature = b.feature;
    }
    return 0;
}
