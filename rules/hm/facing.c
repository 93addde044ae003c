/* facing.c - H&M 13 Facing: the geometry of a unit's front, flanks and rear,
 * the facings a unit may take when it enters a hex, and the facings chosen
 * for it (set-up default, a charge's end, Disorderly Retreat).
 *
 * A facing f is 0-11, in 30-degree steps clockwise from map-up (the JSON
 * shows f * 30 degrees). H&M maps have pointy-topped hexes, so a vertex
 * points up: an odd f faces a hexside (Line, and every unit without Line &
 * Column), an even f faces a vertex (Column). Hex direction d (0 = E, then
 * clockwise, core/hex.h) is the hexside at f = 3 + 2d.
 *
 * Arcs (docs/hm.md, "Facing"): the frontal arc is bounded by the rays from
 * the unit's centre through the centres of its outermost frontal hexes
 * (Line: the three hexes f-2, f, f+2, a 120-degree arc; Column: the two
 * hexes f-1, f+1, 60 degrees), boundaries included. The rear arc is the
 * mirror image of the front for Column (two rear hexes) and the single ray
 * through the rear hex for Line; everything else is flank. Next to the unit
 * this is exactly the hexes: Line 3 front, 2 flank, 1 rear; Column 2, 2, 2.
 *
 * All of it is exact integer arithmetic: the doubled hex centres of
 * mk_hex_center are a positive scaling of the true centres, which keeps
 * the sign of every cross product. */
#include "hm_int.h"

/* The ray at angle f (30-degree steps) in doubled centre coordinates (x in
 * half hex widths, y in rows, y down): odd f through a neighbour's centre,
 * even f through a vertex (the sum of the two neighbours beside it). */
static const int8_t ray[12][2] = {
    {0, -2}, {1, -1}, {3, -1}, {2, 0},  {3, 1},   {1, 1},
    {0, 2},  {-1, 1}, {-3, 1}, {-2, 0}, {-3, -1}, {-1, -1},
};

static int cross(int ax, int ay, int bx, int by)
{
    return ax * by - ay * bx;
}

static int norm(int f)
{
    return ((f % 12) + 12) % 12;
}

/* Is (vx, vy) within the arc from ray lo clockwise to ray hi (hi - lo in
 * 0..5 steps: less than half a turn), boundaries included? */
static bool in_arc(int vx, int vy, int lo, int hi)
{
    const int8_t *a = ray[norm(lo)], *b = ray[norm(hi)];
    if (vx == 0 && vy == 0)
        return false;
    if (cross(a[0], a[1], vx, vy) < 0 || cross(vx, vy, b[0], b[1]) < 0)
        return false;
    if (norm(lo) == norm(hi)) /* a single ray: the same direction, not the opposite */
        return cross(a[0], a[1], vx, vy) == 0 && a[0] * vx + a[1] * vy > 0;
    return true;
}

static void vec(const mk_scenario *sc, int from, int to, int *vx, int *vy)
{
    int x0, y0, x1, y1;
    mk_hex_center(&sc->map.grid, (mk_hex)from, &x0, &y0);
    mk_hex_center(&sc->map.grid, (mk_hex)to, &x1, &y1);
    *vx = x1 - x0;
    *vy = y1 - y0;
}

int hm_face_deg(int f)
{
    return norm(f) * 30;
}

int hm_face_dir_angle(int dir)
{
    return norm(3 + 2 * dir);
}

bool hm_face_column(int f)
{
    return (f & 1) == 0;
}

/* H&M 13 Facing: on entering a hex, Artillery, Militia and Infantry class
 * turn at most one 60-degree click, Cavalry two, Siege Artillery none, all
 * other units any number. */
int hm_face_clicks(int kind)
{
    if (kind == HK_SIEGE)
        return 0;
    if (kind == HK_ARTILLERY || kind == HK_MILITIA || hm_class(kind) == HC_INF)
        return 1;
    if (kind == HK_CAVALRY)
        return 2;
    return 6;
}

uint16_t hm_face_turns(uint16_t mask, int clicks)
{
    uint16_t out = 0;
    for (int f = 0; f < 12; f++) {
        if (!((mask >> f) & 1))
            continue;
        for (int j = -clicks; j <= clicks && j <= 6; j++)
            out |= (uint16_t)(1u << norm(f + 2 * j));
    }
    return out;
}

/* The facings unit may hold in a formation: vertices in Column, hexsides in
 * Line; hexsides only without Line & Column or for a unit that cannot form
 * Column (13 Line & Column). */
uint16_t hm_face_parity(const hm_state *s, const mk_scenario *sc, int unit, bool column)
{
    if (column && HM_OPT(s, HO_LINE_COLUMN) && hm_can_column(sc->units[unit].kind))
        return 0x555;
    return 0xaaa;
}

/* Does a unit in `from` facing f have `to` inside its frontal arc? */
bool hm_face_front_of(int f, const mk_scenario *sc, int from, int to)
{
    int vx, vy;
    vec(sc, from, to, &vx, &vy);
    return hm_face_column(f) ? in_arc(vx, vy, f - 1, f + 1) : in_arc(vx, vy, f - 2, f + 2);
}

/* Which side of a unit in hex facing f an attack from `from` comes through:
 * HM_FRONT, HM_FLANK or HM_REAR. */
int hm_face_aspect_of(int f, const mk_scenario *sc, int hex, int from)
{
    int vx, vy;
    if (hm_face_front_of(f, sc, hex, from))
        return HM_FRONT;
    vec(sc, hex, from, &vx, &vy);
    bool rear = hm_face_column(f) ? in_arc(vx, vy, f + 5, f + 7) : in_arc(vx, vy, f + 6, f + 6);
    return rear ? HM_REAR : HM_FLANK;
}

bool hm_front(const hm_state *s, const mk_scenario *sc, int unit, int to)
{
    if (!HM_OPT(s, HO_FACING) || !hm_is_unit(sc->units[unit].kind) || s->u[unit].hex < 0)
        return true;
    return hm_face_front_of(s->u[unit].facing, sc, s->u[unit].hex, to);
}

int hm_aspect(const hm_state *s, const mk_scenario *sc, int unit, int from)
{
    if (!HM_OPT(s, HO_FACING) || !hm_is_unit(sc->units[unit].kind) || s->u[unit].hex < 0 ||
        from < 0)
        return HM_FRONT;
    return hm_face_aspect_of(s->u[unit].facing, sc, s->u[unit].hex, from);
}

/* H&M 13 Facing: unit, able to hold any facing of mask in `from`, steps to
 * the adjacent `to` through a frontal hex and may then turn within its
 * clicks. Returns the facings it may hold in `to` (0: no such step). Without
 * hm.facing every step is allowed and the mask is returned unchanged. */
uint16_t hm_face_step(const hm_state *s, const mk_scenario *sc, int unit, uint16_t mask, int from,
                      int to)
{
    if (!HM_OPT(s, HO_FACING) || !hm_is_unit(sc->units[unit].kind))
        return mask;
    uint16_t out = 0;
    int clicks = hm_face_clicks(sc->units[unit].kind);
    for (int f = 0; f < 12; f++)
        if (((mask >> f) & 1) && hm_face_front_of(f, sc, from, to))
            out |= hm_face_turns((uint16_t)(1u << f), clicks);
    return out;
}

uint16_t hm_face_path(const hm_state *s, const mk_scenario *sc, int unit, uint16_t mask,
                      const int16_t *path, int npath)
{
    int at = s->u[unit].hex;
    for (int i = 0; i < npath && mask; i++) {
        mask = hm_face_step(s, sc, unit, mask, at, path[i]);
        at = path[i];
    }
    return mask;
}

static int cdist(int a, int b)
{
    int d = norm(a - b);
    return d > 6 ? 12 - d : d;
}

/* The facing of mask that has the adjacent `target` in front, pointing most
 * directly at it; ties: the nearer to `prefer`, then the lower f. -1: none.
 * (H&M 8 Charge under 13 Facing: the charger ends facing its target.) */
int hm_face_toward(const mk_scenario *sc, uint16_t mask, int hex, int target, int prefer)
{
    int dir = mk_hex_direction(&sc->map.grid, (mk_hex)hex, (mk_hex)target);
    int t = dir >= 0 ? hm_face_dir_angle(dir) : prefer, best = -1;
    for (int f = 0; f < 12; f++) {
        if (!((mask >> f) & 1) || !hm_face_front_of(f, sc, hex, target))
            continue;
        if (best < 0 || cdist(f, t) < cdist(best, t) ||
            (cdist(f, t) == cdist(best, t) && cdist(f, prefer) < cdist(best, prefer)))
            best = f;
    }
    return best;
}

/* The facing of the given parity (column: a vertex) whose 60-degree wedge
 * (f-1 to f+1) holds the vector (vx, vy); on a boundary the nearer to
 * prefer, then the lower f. The six wedges of a parity tile the plane. */
static int wedge(int vx, int vy, bool column, int prefer)
{
    int best = -1;
    for (int f = column ? 0 : 1; f < 12; f += 2) {
        if (!in_arc(vx, vy, f - 1, f + 1))
            continue;
        if (best < 0 || cdist(f, prefer) < cdist(best, prefer))
            best = f;
    }
    return best >= 0 ? best : (column ? 2 : 3);
}

/* 13 Disorderly Retreat: the facing of a unit in hex, in Column or Line,
 * with its front turned directly away from the hex `from`. */
int hm_face_away(const mk_scenario *sc, bool column, int hex, int from, int prefer)
{
    int vx, vy;
    vec(sc, from, hex, &vx, &vy);
    return wedge(vx, vy, column, prefer);
}

/* The set-up facing of a scenario unit that gives none (docs/hm.md): toward
 * the nearest enemy unit at set-up (the lower index on a tie), else toward
 * the map's centre hex. */
int hm_face_default(const mk_scenario *sc, int unit, bool column)
{
    const mk_grid *g = &sc->map.grid;
    int hex = sc->units[unit].hex, best = -1, bd = 1 << 20;
    if (hex < 0)
        return column ? 2 : 3;
    for (int i = 0; i < sc->nunits; i++) {
        const mk_sc_unit *e = &sc->units[i];
        if (e->side == sc->units[unit].side || !hm_is_unit(e->kind) || e->hex < 0 || e->hex == hex)
            continue;
        int d = mk_hex_distance(g, (mk_hex)hex, e->hex);
        if (d < bd) {
            bd = d;
            best = e->hex;
        }
    }
    if (best < 0)
        best = mk_hex_at(g, g->cols / 2, g->rows / 2);
    if (best < 0 || best == hex)
        return column ? 2 : 3;
    int vx, vy;
    vec(sc, hex, best, &vx, &vy);
    return wedge(vx, vy, column, column ? 0 : 1);
}

void hm_face_set(hm_state *s, int unit, int f)
{
    s->u[unit].facing = (int8_t)norm(f);
    if (HM_OPT(s, HO_LINE_COLUMN))
        s->u[unit].column = (int8_t)hm_face_column(f);
}

/* H&M 2 Entrenchment hexsides: the hexsides of hex (bit d: hex direction
 * d) that a line from hex's centre toward other's centre leaves through:
 * one (the hexside whose 60-degree wedge, vertex to vertex, holds the
 * direction; next to hex it is the hexside they share), or two when the
 * line runs through a vertex. Pointy-topped maps (as all of this file);
 * 0 for hex == other. */
unsigned hm_hexsides_toward(const mk_scenario *sc, int hex, int other)
{
    int vx, vy;
    unsigned m = 0;
    if (hex < 0 || other < 0 || hex == other)
        return 0;
    vec(sc, hex, other, &vx, &vy);
    for (int d = 0; d < 6; d++) {
        int f = hm_face_dir_angle(d);
        if (in_arc(vx, vy, f - 1, f + 1))
            m |= 1u << d;
    }
    return m;
}
