/* test_los.c - line of sight: straight lines, spines, the rulebooks' cases
 * (HtL 8.3, H&M 8 and the Sedgemoor play example), and every traced line
 * checked against an independent brute force that samples the line at many
 * exact rational points. */
#include "core/los.h"
#include "tests/check.h"

#include <stdint.h>
#include <stdlib.h>

static mk_hex at(const mk_grid *g, const char *label)
{
    mk_hex h = MK_NO_HEX;
    char err[128];
    if (mk_hex_parse(g, label, &h, err, sizeof err) < 0)
        fprintf(stderr, "parse %s: %s\n", label, err);
    return h;
}

/* The blocking predicate's context: one flag per hex. */
typedef struct blockmap {
    bool block[MK_MAX_HEX];
    int calls;
} blockmap;

static bool blocks(mk_hex h, const void *ctx)
{
    blockmap *b = (blockmap *)ctx;
    b->calls++;
    return b->block[h];
}

static mk_los_step cross(mk_hex h) { return (mk_los_step){h, MK_NO_HEX}; }
static mk_los_step spine(mk_hex x, mk_hex y)
{
    return x < y ? (mk_los_step){x, y} : (mk_los_step){y, x};
}
static bool step_eq(mk_los_step x, mk_los_step y) { return x.a == y.a && x.b == y.b; }

static void print_path(const mk_grid *g, const char *what, const mk_los_step *st, int n)
{
    char a[MK_HEX_LABEL_MAX], b[MK_HEX_LABEL_MAX];
    fprintf(stderr, "  %s:", what);
    for (int i = 0; i < n; i++) {
        if (st[i].b == MK_NO_HEX)
            fprintf(stderr, " %s", mk_hex_label(g, st[i].a, a));
        else
            fprintf(stderr, " %s|%s", mk_hex_label(g, st[i].a, a), mk_hex_label(g, st[i].b, b));
    }
    fprintf(stderr, "\n");
}

/* ---- The brute force --------------------------------------------------
 * Samples the line at t = j / M, j = 1 .. M-1, and tests each sample
 * against every cube cell near the line (on or off the map) with exact
 * integers: X = A M + j (B - A) is the sample scaled by M, and the point is
 * in the closed cell of H iff |(X.q - X.r) - M (H.q - H.r)| <= M and the
 * same for (r - s) and (s - q); in its interior iff all are < M. A sample
 * in a cell's interior is a crossed hex; a run of two samples on the same
 * side (in exactly the same two closed cells, no interior) is a spine; a
 * lone sample on a side is a line crossing it; three cells is a corner.
 * The t-interval of any crossed interior, or of a spine, has rational ends
 * with denominators of at most 2N, so its length is at least 1 / (4 N^2);
 * with M = 8 N^2 + 1 each holds one sample, each spine two. */
static int brute(const mk_grid *g, mk_hex from, mk_hex to, mk_los_step *out, int *offmap)
{
    mk_cube A = mk_hex_cube(g, from), B = mk_hex_cube(g, to);
    int64_t N = mk_hex_distance(g, from, to), M = 8 * N * N + 1;
    int64_t D[3] = {B.q - A.q, B.r - A.r, B.s - A.s};
    int qlo = (A.q < B.q ? A.q : B.q) - 2, qhi = (A.q > B.q ? A.q : B.q) + 2;
    int rlo = (A.r < B.r ? A.r : B.r) - 2, rhi = (A.r > B.r ? A.r : B.r) + 2;
    int n = 0;
    mk_cube prev[2] = {{0, 0, 0}, {0, 0, 0}};
    bool prev_edge = false;
    *offmap = 0;
    for (int64_t j = 1; j < M; j++) {
        int64_t X[3] = {A.q * M + j * D[0], A.r * M + j * D[1], A.s * M + j * D[2]};
        int64_t e[3] = {X[0] - X[1], X[1] - X[2], X[2] - X[0]};
        mk_cube closed[3], inside = {0, 0, 0};
        int nclosed = 0, ninside = 0;
        for (int q = qlo; q <= qhi; q++)
            for (int r = rlo; r <= rhi; r++) {
                int s = -q - r;
                /* Quick reject: a cell reaches 2/3 from its centre. */
                if (llabs(X[0] - M * q) > M || llabs(X[1] - M * r) > M || llabs(X[2] - M * s) > M)
                    continue;
                int64_t f0 = e[0] - M * (q - r), f1 = e[1] - M * (r - s), f2 = e[2] - M * (s - q);
                if (llabs(f0) > M || llabs(f1) > M || llabs(f2) > M)
                    continue;
                if (nclosed < 3)
                    closed[nclosed] = (mk_cube){q, r, s};
                nclosed++;
                if (llabs(f0) < M && llabs(f1) < M && llabs(f2) < M) {
                    inside = (mk_cube){q, r, s};
                    ninside++;
                }
            }
        bool edge = false;
        if (ninside == 1) {
            bool end = (inside.q == A.q && inside.r == A.r) || (inside.q == B.q && inside.r == B.r);
            mk_hex h = mk_hex_from_cube(g, inside);
            if (h == MK_NO_HEX)
                (*offmap)++;
            else if (!end && (n == 0 || !step_eq(out[n - 1], cross(h))))
                out[n++] = cross(h);
        } else if (ninside == 0 && nclosed == 2) {
            edge = true;
            bool same = prev_edge && ((prev[0].q == closed[0].q && prev[0].r == closed[0].r &&
                                       prev[1].q == closed[1].q && prev[1].r == closed[1].r));
            if (same) {
                mk_los_step st = spine(mk_hex_from_cube(g, closed[0]),
                                       mk_hex_from_cube(g, closed[1]));
                if (st.b == MK_NO_HEX)
                    (*offmap)++;
                else if (n == 0 || !step_eq(out[n - 1], st))
                    out[n++] = st;
            }
            prev[0] = closed[0];
            prev[1] = closed[1];
        }
        prev_edge = edge;
        if (ninside > 1 || nclosed == 0 || nclosed > 3)
            (*offmap) += 1000; /* impossible: cells tile the plane */
    }
    return n;
}

/* Traces from -> to, compares with the brute force and with the reverse
 * trace; returns true if all agree. */
static bool check_line(const mk_grid *g, mk_hex from, mk_hex to)
{
    static mk_los_path p, rev;
    static mk_los_step want[4 * MK_LOS_MAX];
    int offmap = 0;
    int n = mk_los_trace(g, from, to, &p);
    int nw = brute(g, from, to, want, &offmap);
    bool ok = n == nw && offmap == 0;
    for (int i = 0; ok && i < n; i++)
        ok = step_eq(p.step[i], want[i]);
    int nr = mk_los_trace(g, to, from, &rev);
    ok = ok && nr == n;
    for (int i = 0; ok && i < n; i++)
        ok = step_eq(p.step[i], rev.step[n - 1 - i]);
    if (!ok) {
        char a[MK_HEX_LABEL_MAX], b[MK_HEX_LABEL_MAX];
        fprintf(stderr, "line %s -> %s (offmap %d):\n", mk_hex_label(g, from, a),
                mk_hex_label(g, to, b), offmap);
        print_path(g, "trace", p.step, n);
        print_path(g, "brute", want, nw);
        print_path(g, "reverse", rev.step, nr);
    }
    return ok;
}

static uint32_t rnd_state = 12345;
static uint32_t rnd(void)
{
    rnd_state = rnd_state * 1103515245u + 12345u;
    return rnd_state >> 8;
}

/* ---- Tests --------------------------------------------------------------- */

/* Required: H&M play example, Sedgemoor, second turn. The artillery in F4
 * fires at F6 "down the spine". On the even-shifted layout that fits every
 * adjacency of the example, the spine is F5|G5, not the text's E5|F5
 * (AMB-HM-14, /work/shared/rules/AMBIGUITIES.md). H&M 8: blocked only if
 * both hexes beside the spine block. */
static void test_hm_sedgemoor_second_turn(void)
{
    mk_grid g;
    char err[128];
    static blockmap bm;
    mk_los_path p;
    CHECK_EQ(mk_grid_init(&g, MK_POINTY, true, 13, 9, err, sizeof err), 0);
    mk_hex f4 = at(&g, "F4"), f6 = at(&g, "F6"), f5 = at(&g, "F5"), g5 = at(&g, "G5"),
           e5 = at(&g, "E5");
    CHECK_EQ(mk_los_trace(&g, f4, f6, &p), 1);
    CHECK(step_eq(p.step[0], spine(f5, g5)));
    CHECK_EQ(p.step[0].a, f5); /* lower index first */
    CHECK_EQ(mk_los_trace(&g, f6, f4, &p), 1);
    CHECK(step_eq(p.step[0], spine(f5, g5)));

    mk_hex blocker = 99;
    memset(&bm, 0, sizeof bm);
    bm.block[f5] = true; /* the militia in F5 */
    CHECK(mk_los_clear(&g, f4, f6, blocks, &bm, &blocker));
    CHECK_EQ(blocker, 99); /* untouched when clear */
    bm.block[e5] = true; /* E5 is not beside this spine */
    CHECK(mk_los_clear(&g, f4, f6, blocks, &bm, &blocker));
    bm.block[g5] = true; /* both F5 and G5 held: blocked */
    CHECK(!mk_los_clear(&g, f4, f6, blocks, &bm, &blocker));
    CHECK_EQ(blocker, f5);
    CHECK(!mk_los_clear(&g, f6, f4, blocks, &bm, NULL));
    bm.block[f5] = false; /* only G5 */
    CHECK(mk_los_clear(&g, f4, f6, blocks, &bm, &blocker));
}

/* HtL 8.3, rule by rule, on a 13 x 9 map. */
static void test_htl_8_3(void)
{
    mk_grid g;
    char err[128];
    static blockmap bm;
    mk_hex blocker;
    CHECK_EQ(mk_grid_init(&g, MK_POINTY, true, 13, 9, err, sizeof err), 0);

    /* "Units in adjacent hexes may always fire at each other as terrain
     * does not affect line of sight for units this close." */
    memset(&bm, 0, sizeof bm);
    for (int h = 0; h < mk_grid_size(&g); h++)
        bm.block[h] = true;
    int bad = 0;
    for (mk_hex h = 0; h < mk_grid_size(&g); h++) {
        mk_hex n[6];
        mk_hex_neighbors(&g, h, n);
        for (int d = 0; d < 6; d++)
            if (n[d] != MK_NO_HEX && !mk_los_clear(&g, h, n[d], blocks, &bm, &blocker))
                bad++;
        if (!mk_los_clear(&g, h, h, blocks, &bm, &blocker))
            bad++;
    }
    CHECK_EQ(bad, 0);
    CHECK_EQ(bm.calls, 0); /* the predicate is not even asked */

    /* "If blocking terrain is located in a hex between the two units then
     * line of sight is blocked." C5 -> G5 along the row: D5, E5, F5. */
    memset(&bm, 0, sizeof bm);
    mk_hex c5 = at(&g, "C5"), g5 = at(&g, "G5");
    CHECK(mk_los_clear(&g, c5, g5, blocks, &bm, &blocker));
    bm.block[at(&g, "E5")] = true;
    CHECK(!mk_los_clear(&g, c5, g5, blocks, &bm, &blocker));
    CHECK_EQ(blocker, at(&g, "E5"));
    bm.block[at(&g, "F5")] = true; /* the first blocker from the viewer */
    CHECK(!mk_los_clear(&g, c5, g5, blocks, &bm, &blocker));
    CHECK_EQ(blocker, at(&g, "E5"));
    CHECK(!mk_los_clear(&g, g5, c5, blocks, &bm, &blocker));
    CHECK_EQ(blocker, at(&g, "F5"));
    /* Blocking terrain in the firer's or target's own hex does not block. */
    memset(&bm, 0, sizeof bm);
    bm.block[c5] = bm.block[g5] = true;
    CHECK(mk_los_clear(&g, c5, g5, blocks, &bm, &blocker));
    /* Hexes beside the line, not crossed, do not block. */
    bm.block[at(&g, "E4")] = bm.block[at(&g, "E6")] = bm.block[at(&g, "D4")] = true;
    CHECK(mk_los_clear(&g, c5, g5, blocks, &bm, &blocker));

    /* "If line of sight falls along a hex side then line of sight is
     * blocked if both hexes adjacent to the hex side have blocking terrain.
     * If only one hex side has blocking terrain then the line of sight is
     * clear." E4 -> E6 on this layout runs between E5 and F5. */
    mk_los_path p;
    mk_hex e4 = at(&g, "E4"), e6 = at(&g, "E6"), e5 = at(&g, "E5"), f5 = at(&g, "F5");
    CHECK_EQ(mk_los_trace(&g, e4, e6, &p), 1);
    CHECK(step_eq(p.step[0], spine(e5, f5)));
    memset(&bm, 0, sizeof bm);
    bm.block[e5] = true;
    CHECK(mk_los_clear(&g, e4, e6, blocks, &bm, &blocker));
    bm.block[e5] = false;
    bm.block[f5] = true;
    CHECK(mk_los_clear(&g, e4, e6, blocks, &bm, &blocker));
    bm.block[e5] = true;
    CHECK(!mk_los_clear(&g, e4, e6, blocks, &bm, &blocker));
    CHECK_EQ(blocker, e5);

    /* A longer line mixing both: due north from C7 along the spine
     * direction (1,-2,1) three times: spine, hex, spine, hex, spine. */
    mk_cube c = mk_hex_cube(&g, at(&g, "C7"));
    mk_cube t = {c.q + 3 * 1, c.r + 3 * -2, c.s + 3 * 1}; /* (1,-2,1): due north */
    mk_hex to = mk_hex_from_cube(&g, t);
    CHECK(to != MK_NO_HEX);
    CHECK_EQ(mk_los_trace(&g, at(&g, "C7"), to, &p), 5);
    memset(&bm, 0, sizeof bm);
    bm.block[p.step[1].a] = true; /* the crossed hex in the middle */
    CHECK_EQ(p.step[1].b, MK_NO_HEX);
    CHECK(!mk_los_clear(&g, at(&g, "C7"), to, blocks, &bm, &blocker));
    CHECK_EQ(blocker, p.step[1].a);
    memset(&bm, 0, sizeof bm);
    bm.block[p.step[2].a] = true; /* one side of the middle spine */
    CHECK(mk_los_clear(&g, at(&g, "C7"), to, blocks, &bm, &blocker));
    bm.block[p.step[4].a] = bm.block[p.step[4].b] = true; /* both sides of the last */
    CHECK(!mk_los_clear(&g, at(&g, "C7"), to, blocks, &bm, &blocker));
    CHECK_EQ(blocker, p.step[4].a);
    bm.block[p.step[0].a] = bm.block[p.step[0].b] = true; /* and of the first */
    CHECK(!mk_los_clear(&g, at(&g, "C7"), to, blocks, &bm, &blocker));
    CHECK_EQ(blocker, p.step[0].a);
}

/* Straight lines in all six directions cross exactly the hexes between. */
static void check_straight(const mk_grid *g, mk_hex from)
{
    int bad = 0;
    mk_los_path p;
    for (int d = 0; d < 6; d++) {
        mk_hex between[8];
        mk_hex h = from;
        for (int len = 1; len <= 8; len++) {
            h = mk_hex_neighbor(g, h, d);
            if (h == MK_NO_HEX) {
                bad += 100;
                break;
            }
            int n = mk_los_trace(g, from, h, &p);
            if (n != len - 1)
                bad++;
            for (int i = 0; i < n && i < len - 1; i++)
                if (!step_eq(p.step[i], cross(between[i])))
                    bad++;
            if (!check_line(g, from, h))
                bad++;
            between[len - 1] = h;
        }
    }
    CHECK_EQ(bad, 0);
}

/* Along the six spine directions (2,-1,-1) and rotations: a spine, the
 * hex two steps away, a spine, ... The spine of (2,-1,-1) runs between
 * +(1,-1,0) and +(1,0,-1). */
static void check_spines(const mk_grid *g, mk_hex from)
{
    static const int unit[6][3] = {
        {1, -1, 0}, {1, 0, -1}, {0, 1, -1}, {-1, 1, 0}, {-1, 0, 1}, {0, -1, 1},
    };
    int bad = 0;
    mk_los_path p;
    mk_cube c = mk_hex_cube(g, from);
    for (int i = 0; i < 6; i++) {
        const int *u = unit[i], *w = unit[(i + 1) % 6];
        int v[3] = {u[0] + w[0], u[1] + w[1], u[2] + w[2]};
        for (int k = 1; k <= 4; k++) {
            mk_cube t = {c.q + k * v[0], c.r + k * v[1], c.s + k * v[2]};
            mk_hex to = mk_hex_from_cube(g, t);
            if (to == MK_NO_HEX) {
                bad += 100;
                continue;
            }
            int n = mk_los_trace(g, from, to, &p);
            if (n != 2 * k - 1) {
                bad++;
                continue;
            }
            for (int j = 0; j < k; j++) {
                mk_cube base = {c.q + j * v[0], c.r + j * v[1], c.s + j * v[2]};
                mk_cube x = {base.q + u[0], base.r + u[1], base.s + u[2]};
                mk_cube y = {base.q + w[0], base.r + w[1], base.s + w[2]};
                if (!step_eq(p.step[2 * j],
                             spine(mk_hex_from_cube(g, x), mk_hex_from_cube(g, y))))
                    bad++;
                if (j > 0) {
                    mk_hex mid = mk_hex_from_cube(g, base);
                    if (!step_eq(p.step[2 * j - 1], cross(mid)))
                        bad++;
                }
            }
            if (!check_line(g, from, to))
                bad++;
        }
    }
    CHECK_EQ(bad, 0);
}

static void test_directions(void)
{
    mk_grid g;
    char err[128];
    for (int orient = 0; orient < 2; orient++)
        for (int shifted = 0; shifted < 2; shifted++) {
            CHECK_EQ(mk_grid_init(&g, orient, shifted, 30, 30, err, sizeof err), 0);
            check_straight(&g, mk_hex_at(&g, 15, 15));
            check_straight(&g, mk_hex_at(&g, 14, 14));
            check_spines(&g, mk_hex_at(&g, 15, 15));
            check_spines(&g, mk_hex_at(&g, 14, 14));
        }
}

/* Long lines (length 10-30) on big maps against the brute force. */
static void test_long_lines(void)
{
    mk_grid g;
    char err[128];
    int bad = 0, tried = 0;
    for (int layout = 0; layout < 5; layout++) {
        if (layout < 4) {
            CHECK_EQ(mk_grid_init(&g, layout / 2, layout % 2, 45, 45, err, sizeof err), 0);
        } else {
            mk_sheet sh[2] = {{'W', 23}, {'E', 22}};
            CHECK_EQ(mk_grid_init_sheets(&g, true, sh, 2, 40, err, sizeof err), 0);
        }
        int size = mk_grid_size(&g);
        for (int i = 0; i < 12;) {
            mk_hex a = (mk_hex)(rnd() % (uint32_t)size), b = (mk_hex)(rnd() % (uint32_t)size);
            int d = mk_hex_distance(&g, a, b);
            if (d < 10 || d > 30)
                continue;
            i++;
            tried++;
            if (!check_line(&g, a, b))
                bad++;
        }
        /* Near-spine directions: (2k+1, -k, -k-1) and its mirror images. */
        mk_hex c = mk_hex_at(&g, 22, 20);
        mk_cube cc = mk_hex_cube(&g, c);
        for (int k = 4; k <= 9; k++) {
            int v[3] = {2 * k + 1, -k, -k - 1};
            for (int rot = 0; rot < 6; rot++) {
                /* Rotate by 60 degrees: (q,r,s) -> (-r,-s,-q). */
                int t0 = -v[1], t1 = -v[2], t2 = -v[0];
                v[0] = t0;
                v[1] = t1;
                v[2] = t2;
                mk_cube t = {cc.q + v[0], cc.r + v[1], cc.s + v[2]};
                mk_hex to = mk_hex_from_cube(&g, t);
                if (to == MK_NO_HEX)
                    continue;
                tried++;
                if (!check_line(&g, c, to))
                    bad++;
            }
        }
    }
    CHECK_EQ(bad, 0);
    CHECK(tried > 100);
}

/* Every pair of hexes on small maps of each layout: the trace agrees with
 * the brute force and with its own reverse. */
static void test_all_pairs(void)
{
    mk_grid g;
    char err[128];
    int bad = 0;
    for (int layout = 0; layout < 5; layout++) {
        if (layout < 4) {
            CHECK_EQ(mk_grid_init(&g, layout / 2, layout % 2, 6, 5, err, sizeof err), 0);
        } else {
            mk_sheet sh[2] = {{'W', 3}, {'E', 3}};
            CHECK_EQ(mk_grid_init_sheets(&g, false, sh, 2, 4, err, sizeof err), 0);
        }
        for (mk_hex a = 0; a < mk_grid_size(&g); a++)
            for (mk_hex b = (mk_hex)(a + 1); b < mk_grid_size(&g); b++)
                if (!check_line(&g, a, b))
                    bad++;
    }
    CHECK_EQ(bad, 0);
}

/* Spines along the map edge: the off-map side is MK_NO_HEX in `a`, and
 * never blocks. */
static void test_map_edge(void)
{
    mk_grid g;
    char err[128];
    static blockmap bm;
    mk_los_path p;
    mk_hex blocker;
    /* Pointy, even rows shifted right: A1 -> A3 runs down x = 0, between A2
     * and the hex off the map west of it. */
    CHECK_EQ(mk_grid_init(&g, MK_POINTY, true, 13, 9, err, sizeof err), 0);
    CHECK_EQ(mk_los_trace(&g, at(&g, "A1"), at(&g, "A3"), &p), 1);
    CHECK_EQ(p.step[0].a, MK_NO_HEX);
    CHECK_EQ(p.step[0].b, at(&g, "A2"));
    memset(&bm, 0, sizeof bm);
    bm.block[at(&g, "A2")] = true;
    CHECK(mk_los_clear(&g, at(&g, "A1"), at(&g, "A3"), blocks, &bm, &blocker));
    CHECK_EQ(mk_los_trace(&g, at(&g, "A1"), at(&g, "A9"), &p), 7);
    CHECK(step_eq(p.step[0], spine(MK_NO_HEX, at(&g, "A2"))));
    CHECK(step_eq(p.step[1], cross(at(&g, "A3"))));
    CHECK(step_eq(p.step[6], spine(MK_NO_HEX, at(&g, "A8"))));
    CHECK(check_line(&g, at(&g, "A1"), at(&g, "A9")));
    CHECK(check_line(&g, at(&g, "M2"), at(&g, "M8")));
    /* Flat, even columns lower: A1 -> C1 runs along the top of B1. */
    CHECK_EQ(mk_grid_init(&g, MK_FLAT, true, 6, 5, err, sizeof err), 0);
    CHECK_EQ(mk_los_trace(&g, at(&g, "A1"), at(&g, "C1"), &p), 1);
    CHECK(step_eq(p.step[0], spine(MK_NO_HEX, at(&g, "B1"))));
    CHECK_EQ(mk_los_trace(&g, at(&g, "A1"), at(&g, "E1"), &p), 3);
    CHECK(step_eq(p.step[1], cross(at(&g, "C1"))));
    bm.block[at(&g, "B1")] = bm.block[at(&g, "D1")] = true;
    CHECK(mk_los_clear(&g, at(&g, "A1"), at(&g, "E1"), blocks, &bm, &blocker));
    bm.block[at(&g, "C1")] = true;
    CHECK(!mk_los_clear(&g, at(&g, "A1"), at(&g, "E1"), blocks, &bm, &blocker));
    CHECK_EQ(blocker, at(&g, "C1"));
    /* Off-map or bad hexes: nothing traced, clear. */
    CHECK_EQ(mk_los_trace(&g, MK_NO_HEX, at(&g, "C1"), &p), 0);
    CHECK_EQ(mk_los_trace(&g, at(&g, "C1"), 30, &p), 0);
}

/* A line longer than MK_LOS_MAX steps (a long thin map): the trace says
 * so, and mk_los_clear still sees the whole line. */
static void test_overflow(void)
{
    mk_grid g;
    char err[128];
    static blockmap bm;
    static mk_los_path p;
    mk_hex blocker;
    CHECK_EQ(mk_grid_init(&g, MK_POINTY, true, 400, 1, err, sizeof err), 0);
    CHECK_EQ(mk_los_trace(&g, 0, 399, &p), -1);
    CHECK_EQ(p.n, MK_LOS_MAX);
    CHECK_EQ(mk_los_trace(&g, 0, MK_LOS_MAX + 1, &p), MK_LOS_MAX);
    memset(&bm, 0, sizeof bm);
    CHECK(mk_los_clear(&g, 0, 399, blocks, &bm, &blocker));
    CHECK_EQ(bm.calls, 398);
    bm.block[390] = true;
    CHECK(!mk_los_clear(&g, 0, 399, blocks, &bm, &blocker));
    CHECK_EQ(blocker, 390);
}

/* Short lines stay cheap: the predicate is asked only up to the first
 * blocker. */
static void test_stops_early(void)
{
    mk_grid g;
    char err[128];
    static blockmap bm;
    CHECK_EQ(mk_grid_init(&g, MK_POINTY, true, 30, 30, err, sizeof err), 0);
    memset(&bm, 0, sizeof bm);
    for (int h = 0; h < mk_grid_size(&g); h++)
        bm.block[h] = true;
    mk_hex blocker;
    CHECK(!mk_los_clear(&g, mk_hex_at(&g, 2, 2), mk_hex_at(&g, 20, 2), blocks, &bm, &blocker));
    CHECK_EQ(blocker, mk_hex_at(&g, 3, 2));
    CHECK_EQ(bm.calls, 1);
}

int main(void)
{
    test_hm_sedgemoor_second_turn();
    test_htl_8_3();
    test_directions();
    test_long_lines();
    test_all_pairs();
    test_map_edge();
    test_overflow();
    test_stops_early();
    return check_done("test_los");
}
