/* move.c - the Movement Segment: a hex at a time, paying the Terrain
 * Effects Chart (charts.json: hex and hexside costs by movement class,
 * "all MPs" and prohibited entries, Monmouth 5.2-5.3), road movement (5.2g:
 * three hexes of major road, two with minor road, per 1/2 MP; 1/2 MP a hex at
 * Night), formation and facing changes, reinforcements entering (7.0c),
 * stacking in SPs by formation (2.1c-d, TEC), one cavalry unit a hex (2.3),
 * zones of control (a unit entering an enemy's front hex stops), the
 * Disorder Check (A) of a Line entering non-clear terrain (Series 8.7,
 * named by 5.2-5.3), mounting and dismounting (4.1b E, 7.4a C), and the
 * Skirmish 2-hex limit (2.6a) with the Jaeger Corps' exception (7.4a J).
 *
 * Ours (docs/bar.md): Line and General Order move only into their front
 * hexes and keep their facing; other formations and leaders move any way
 * and turn to face the hex entered; Square does not move; unlimbered
 * artillery only prolonges (2.2d F-G, `prolonge`); a move is one hex an
 * action. */
#include <stdlib.h>
#include <string.h>

#include "rules/bar/bar_int.h"

static bool enemy_in(const bar_occ *o, const mk_scenario *sc, mk_hex h, int side)
{
    const bar_ext *x = bar_x(sc);
    BAR_OCC_EACH(o, h, i)
        if (x->p[i].side != side)
            return true;
    return false;
}

static bool cavalry_in(const bar_occ *o, const mk_scenario *sc, mk_hex h, int except)
{
    const bar_ext *x = bar_x(sc);
    for (int i = bar_occ_first(o, h); i >= 0; i = o->next[i])
        if (i != except && x->p[i].kind == BK_CAVALRY)
            return true;
    return false;
}

/* Monmouth 2.2d E iii: limbered regimental guns (piece j, in formation
 * form) stacked with their owning regiment in Road, March or Attack Column
 * count as zero SPs for stacking (ours: their formation's limit does not
 * apply either). */
static bool rgt_zero(const bar_state *s, const mk_scenario *sc, int j, mk_hex h, int form)
{
    const bar_ext *x = bar_x(sc);
    int o = x->p[j].owner;
    if (o < 0 || form != BAR_FM_ARTILLERY_ROAD_COLUMN || !bar_in_hex(s, sc, o, h) || !bar_alive(s, o))
        return false;
    int f = s->pc[o].form;
    return f == BAR_FM_ROAD_COLUMN || f == BAR_FM_MARCH_COLUMN || f == BAR_FM_ATTACK_COLUMN;
}

/* The SPs over the stacking limit of hex h with the units there but piece
 * `except` (-1 none), and extra SPs in extra_form added; in *sp the SPs of
 * the others there. */
static int stack_over(const bar_state *s, const bar_occ *o, const mk_scenario *sc, mk_hex h, int extra,
                      int extra_form, int except, int *sp)
{
    const bar_ext *x = bar_x(sc);
    int total = extra, limit = extra_form >= 0 ? x->ch.stacking[extra_form] : 99;
    *sp = 0;
    BAR_OCC_EACH(o, h, i) {
        if (i == except || bar_is_leader(&x->p[i]))
            continue;
        int n = bar_sp_in(s, sc, i, h);
        *sp += n;
        if (rgt_zero(s, sc, i, h, s->pc[i].form))
            continue;
        total += n;
        if (x->ch.stacking[s->pc[i].form] < limit)
            limit = x->ch.stacking[s->pc[i].form];
    }
    return total - limit;
}

/* The SPs over the stacking limit of hex h with the units there and
 * extra SPs in extra_form (-1: none) added (<= 0 fits): stack_over for
 * callers without an occupancy (the tests; it builds one, 27 KB
 * on the stack, so it is no hot path's). */
int bar_stack_limit(const bar_state *s, const mk_scenario *sc, mk_hex h, int extra, int extra_form)
{
    bar_occ o;
    int sp;
    bar_occ_build(&o, s, sc);
    return stack_over(s, &o, sc, h, extra, extra_form, -1, &sp);
}

/* Does piece i fit in hex h with `want` of its SPs there in formation
 * form? (Its own present formation sets no limit: a unit changing
 * formation is counted in the new one. A unit alone in its hex always
 * fits: 2.1d's Skirmish of more than 6 SPs, and any single unit bigger
 * than the chart's stack.) */
static bool fits_sp(const bar_state *s, const bar_occ *o, const mk_scenario *sc, int i, mk_hex h, int form,
                    int want)
{
    const bar_ext *x = bar_x(sc);
    if (bar_is_leader(&x->p[i]))
        return true;
    if (x->p[i].kind == BK_CAVALRY && cavalry_in(o, sc, h, i))
        return false;   /* Monmouth 2.3: one cavalry unit a hex */
    int others;
    bool zero = rgt_zero(s, sc, i, h, form);
    return stack_over(s, o, sc, h, zero ? 0 : want, zero ? -1 : form, i, &others) <= 0 || others == 0;
}

/* fits_sp with the SPs the unit's head would have in h (2.1c: a Road
 * Column's head holds at most a hex's 8, the rest trail behind). */
static bool fits(const bar_state *s, const bar_occ *o, const mk_scenario *sc, int i, mk_hex h, int form)
{
    const bar_ext *x = bar_x(sc);
    int sp = s->pc[i].sp;
    if (bar_wants_tail(x, i, form, sp))
        sp = x->ch.stacking[form];
    return fits_sp(s, o, sc, i, h, form, sp);
}

/* 2.1c (ours, docs/bar.md "Two-hex Road Column"): the hexes a unit of
 * more than 8 SPs forming Road Column may put its trailing hex in: behind
 * it (the neighbour opposite its facing; facing a hexpoint, either of the
 * two behind it), on the map, not lake, not prohibited to a column, not
 * past 7.1a A's limit, without enemy units, room for the rest of its SPs.
 * Fills out (up to 2), returns how many. */
static bool west_limit(const bar_ext *x, const mk_grid *g, mk_hex to);
static int cost_across(const bar_state *s, const mk_scenario *sc, int i, mk_hex to, unsigned side,
                       int *road_run);
static unsigned side_toward(const bar_map *m, mk_hex a, mk_hex b, int d);
static int tail_hexes(const bar_state *s, const bar_occ *o, const mk_scenario *sc, int i, int form, mk_hex out[2])
{
    const bar_ext *x = bar_x(sc);
    const bar_pc *p = &s->pc[i];
    int n = 0, most = x->ch.stacking[form];
    for (int d = 0; d < 6 && n < 2; d++) {
        int b = bar_dir_step(d), back = (p->facing + 6) % 12;
        int off = abs(b - back) % 12;
        if ((off > 6 ? 12 - off : off) > 1)
            continue;
        mk_hex h = x->nb[p->hex][d];
        int road;
        if (h == MK_NO_HEX || enemy_in(o, sc, h, x->p[i].side) || west_limit(x, &sc->map.grid, h) ||
            cost_across(s, sc, i, h, side_toward(&x->map, p->hex, h, d), &road) == BAR_COST_PROHIBITED ||
            !fits_sp(s, o, sc, i, h, form, p->sp - most))
            continue;
        out[n++] = h;
    }
    return n;
}

/* The hexside between a and its neighbour b in direction d (bar_hexside
 * without finding d again: a hex keeps its sides 0-2, bar.h bar_map). */
static unsigned side_toward(const bar_map *m, mk_hex a, mk_hex b, int d)
{
    return d < 3 ? m->side[a][d] : m->side[b][d - 3];
}

/* bar_move_cost, given the hexside crossed (side: bar_hexside's bits),
 * from hex `from` (the piece's, or a two-hex Line's second hex). */
static int cost_from(const bar_state *s, const mk_scenario *sc, int i, mk_hex from, mk_hex to, unsigned side,
                     int *road_run)
{
    const bar_ext *x = bar_x(sc);
    const bar_pc *p = &s->pc[i];
    *road_run = 0;
    if (x->map.terrain[to] == BAR_T_LAKE)
        return BAR_COST_PROHIBITED;   /* 5.2i */
    int road = side & BAR_HS_MAJOR_ROAD ? BAR_ROAD_MAJOR : side & BAR_HS_MINOR_ROAD ? BAR_ROAD_MINOR : 0;
    bool on_road = road && (bar_is_leader(&x->p[i]) || p->form == BAR_FM_ROAD_COLUMN ||
                            p->form == BAR_FM_ARTILLERY_ROAD_COLUMN);
    if (on_road) {   /* 5.2g: the rates of clock.c, one hex at a time */
        int run = p->road;
        int c = bar_road_step(&run, road, bar_light_of(s->turn) == BAR_NIGHT);
        *road_run = run;
        return c;
    }
    if (bar_is_leader(&x->p[i]))
        return 1;
    return bar_terrain_step(x, bar_move_class_now(s, sc, i) /* 4.1b E, 7.4a C */, p->form == BAR_FM_SKIRMISH,
                            from, to, side);
}

int bar_terrain_step(const bar_ext *x, int cls, bool skirmish, mk_hex from, mk_hex to, unsigned side)
{
    int cost = x->ch.hex[x->map.terrain[to]].cost[cls];
    bool uphill = x->map.elevation[to] > x->map.elevation[from];
    for (int b = 0; b < BAR_HS_NTERRAIN; b++) {
        if (!(side & (1u << b)))
            continue;
        if ((1u << b) == BAR_HS_CREEK && (side & BAR_HS_BRIDGE))
            continue;   /* 5.3a: the bridge crosses the creek */
        if (((1u << b) == BAR_HS_REGULAR_SLOPE || (1u << b) == BAR_HS_GENTLE_SLOPE) && !uphill)
            continue;   /* slopes cost going up */
        if ((1u << b) == BAR_HS_HEDGEROW && skirmish)
            continue;   /* 5.3c: non-Skirmish units */
        int c = x->ch.side[b].cost[cls];
        if (c == BAR_COST_PROHIBITED || cost == BAR_COST_PROHIBITED)
            return BAR_COST_PROHIBITED;
        if (c == BAR_COST_ALL || cost == BAR_COST_ALL)
            cost = BAR_COST_ALL;
        else
            cost += c;
    }
    return cost;
}

static int cost_across(const bar_state *s, const mk_scenario *sc, int i, mk_hex to, unsigned side,
                       int *road_run)
{
    return cost_from(s, sc, i, s->pc[i].hex, to, side, road_run);
}

/* Monmouth 2.1a (ours, docs/bar.md "Two-hex Line"): a two-hex Line
 * moves both hexes a hex in the same direction d (through its front),
 * paying the dearer (BAR_COST_ALL over any number, BAR_COST_PROHIBITED
 * over all); *to2: where its second hex goes. */
static int line2_cost(const bar_state *s, const mk_scenario *sc, int i, int d, mk_hex *to2)
{
    const bar_ext *x = bar_x(sc);
    mk_hex h1 = s->pc[i].hex, h2 = bar_tail_hex(s, sc, i), t1 = x->nb[h1][d], t2 = x->nb[h2][d];
    *to2 = t2;
    if (t1 == MK_NO_HEX || t2 == MK_NO_HEX)
        return BAR_COST_PROHIBITED;
    int road;
    int c1 = cost_from(s, sc, i, h1, t1, side_toward(&x->map, h1, t1, d), &road);
    int c2 = cost_from(s, sc, i, h2, t2, side_toward(&x->map, h2, t2, d), &road);
    if (c1 == BAR_COST_PROHIBITED || c2 == BAR_COST_PROHIBITED)
        return BAR_COST_PROHIBITED;
    if (c1 == BAR_COST_ALL || c2 == BAR_COST_ALL)
        return BAR_COST_ALL;
    return c1 > c2 ? c1 : c2;
}

/* 2.1a (ours): the hexes a one-hex Line of 7 or more SPs may extend into:
 * beside it along the Line, perpendicular to its facing (so it faces a
 * hexpoint: a flat-topped hex has neighbours 90 degrees off its facing
 * only then), on the map, not lake nor prohibited, not past 7.1a A's
 * limit, no enemy, room for half its SPs. Fills out (up to 2). */
static int side_hexes(const bar_state *s, const bar_occ *o, const mk_scenario *sc, int i, mk_hex out[2])
{
    const bar_ext *x = bar_x(sc);
    const bar_pc *p = &s->pc[i];
    int n = 0;
    if (!(p->facing & 1))
        return 0;
    for (int d = 0; d < 6 && n < 2; d++) {
        int b = bar_dir_step(d);
        if (b != (p->facing + 3) % 12 && b != (p->facing + 9) % 12)
            continue;
        mk_hex h = x->nb[p->hex][d];
        int road;
        if (h == MK_NO_HEX || enemy_in(o, sc, h, x->p[i].side) || west_limit(x, &sc->map.grid, h) ||
            cost_across(s, sc, i, h, side_toward(&x->map, p->hex, h, d), &road) == BAR_COST_PROHIBITED ||
            !fits_sp(s, o, sc, i, h, BAR_FM_LINE, p->sp / 2) ||
            !fits_sp(s, o, sc, i, p->hex, BAR_FM_LINE, (p->sp + 1) / 2))
            continue;
        out[n++] = h;
    }
    return n;
}

static mk_hex nb_bearing(const bar_ext *x, mk_hex h, int b)
{
    for (int d = 0; d < 6; d++)
        if (bar_dir_step(d) == b)
            return x->nb[h][d];
    return MK_NO_HEX;
}

mk_hex bar_wheel_hex(const bar_state *s, const mk_scenario *sc, int i, int pivot, int f, mk_hex *from)
{
    const bar_ext *x = bar_x(sc);
    const bar_pc *p = &s->pc[i];
    mk_hex t2 = bar_tail_hex(s, sc, i);
    *from = MK_NO_HEX;
    int r = (f - p->facing + 12) % 12;
    if (p->form != BAR_FM_LINE || t2 == MK_NO_HEX || (r != 2 && r != 10))
        return MK_NO_HEX;
    int b2 = bar_bearing12(&sc->map.grid, p->hex, t2);
    if (pivot == 0) {   /* the second hex swings round the first */
        *from = t2;
        return nb_bearing(x, p->hex, (b2 + r) % 12);
    }
    *from = p->hex;   /* the first hex swings round the second */
    return nb_bearing(x, t2, (b2 + 6 + r) % 12);
}

/* Half MPs to enter `to` from the piece's hex, BAR_COST_ALL or
 * BAR_COST_PROHIBITED; *road_run: the 5.2g road run after it (bar_pc.road). */
int bar_move_cost(const bar_state *s, const mk_scenario *sc, int i, mk_hex to, int *road_run)
{
    return cost_across(s, sc, i, to, bar_hexside(&bar_x(sc)->map, s->pc[i].hex, to), road_run);
}

/* Monmouth 4.1a B: the Hessian Grenadiere */
static bool hessian_gren(const bar_pinfo *p)
{
    return p->nation == BAR_NAT_HESSIAN && p->type == BAR_UT_GRENADIER;
}

/* 3.4b: in the 10:00 AM turn of scenarios 1, 3 and 4 the New Jersey
 * Brigade (Maxwell too) keeps its hexes; Facing and Formation may change. */
static bool nj_holds(const bar_state *s, const mk_scenario *sc, int i)
{
    const bar_ext *x = bar_x(sc);
    return s->turn == x->first_turn && x->p[i].org >= 0 && x->sw_nj &&
           !strcmp(x->oob.org[x->p[i].org].id, "NJB");
}

/* --- 2.6a Skirmish units stay within 2 hexes of friendly units; 7.4a J
 * the Jaeger Corps' exception --------------------------------------------
 *
 * 2.6a: a unit in Skirmish formation may use only 2 MPs in a Movement
 * Segment at whose start or end it is not within 2 hexes of a friendly
 * non-Routed combat unit. The start is recorded at the activation's start
 * (BM_SK_NEAR; a unit off the map then is judged at the end alone: ours);
 * the end, on each move that takes it past 2 MPs: that move must end
 * within 2 hexes of one (ours: the friendly units where they stand then).
 * 7.4a J: a Jaeger Corps unit is exempt when activated in Wurmb's
 * activation, beginning it (BM_JC_LOC) and ending it in Wurmb's LOC (ours:
 * within his Command Range, as an Independent's activation reads it). */
static bool friend_near(const bar_state *s, const mk_scenario *sc, int i, mk_hex h)
{
    const bar_ext *x = bar_x(sc);
    for (int j = 0; j < s->npieces; j++)
        if (j != i && s->pc[j].hex != MK_NO_HEX && x->p[j].side == x->p[i].side && !bar_is_leader(&x->p[j]) &&
            !(s->pc[j].status & BS_ROUTED) && mk_hex_distance(&sc->map.grid, s->pc[j].hex, h) <= 2)
            return true;
    return false;
}

/* The 7.4a J leader (Wurmb) when unit i is a Jaeger Corps unit in his
 * activation, else -1. */
static int jc_leader(const bar_state *s, const mk_scenario *sc, int i)
{
    const bar_ext *x = bar_x(sc);
    if (x->org_jc < 0 || s->org != x->org_jc || x->p[i].org != x->org_jc)
        return -1;
    int l = bar_org_leader(sc, x->org_jc);
    return l >= 0 && bar_alive(s, l) && s->pc[l].hex != MK_NO_HEX ? l : -1;
}

static bool in_jc_loc(const bar_state *s, const mk_scenario *sc, int l, mk_hex h)
{
    return mk_hex_distance(&sc->map.grid, s->pc[l].hex, h) <= bar_x(sc)->p[l].range;
}

void bar_skirmish_start(bar_state *s, const mk_scenario *sc)
{
    const bar_ext *x = bar_x(sc);
    for (int i = 0; i < s->npieces; i++) {
        bar_pc *p = &s->pc[i];
        p->more &= (uint8_t)~(BM_SK_NEAR | BM_JC_LOC);
        if (bar_is_leader(&x->p[i]) || !bar_piece_active(s, sc, i))
            continue;
        if (p->hex == MK_NO_HEX || friend_near(s, sc, i, p->hex))
            p->more |= BM_SK_NEAR;
        int l = jc_leader(s, sc, i);
        if (l >= 0 && p->hex != MK_NO_HEX && in_jc_loc(s, sc, l, p->hex))
            p->more |= BM_JC_LOC;
    }
}

/* May Skirmisher i, having spent its MPs so far, spend `cost` more half MPs
 * to enter `to` (2.6a, 7.4a J)? */
static bool skirmish_may(const bar_state *s, const mk_scenario *sc, int i, mk_hex to, int cost)
{
    const bar_pc *p = &s->pc[i];
    if (p->form != BAR_FM_SKIRMISH || p->spent + cost <= 4)
        return true;   /* (2 MPs, in half MPs) */
    if ((p->more & BM_SK_NEAR) && friend_near(s, sc, i, to))
        return true;
    int l = jc_leader(s, sc, i);
    return l >= 0 && (p->more & BM_JC_LOC) && in_jc_loc(s, sc, l, to);   /* 7.4a J */
}

static bool can_move(const bar_state *s, const mk_scenario *sc, int i)
{
    const bar_pc *p = &s->pc[i];
    /* the cheap tests first: most pieces are not in the activation */
    return p->mp > 0 && p->hex != MK_NO_HEX && !(p->status & BS_ROUTED) && p->form != BAR_FM_SQUARE &&
           p->form != BAR_FM_ARTILLERY && bar_piece_active(s, sc, i) && !nj_holds(s, sc, i);
}

/* Our Hook (docs/bar.md "Hook"): it does not move hex to hex; it changes
 * facing as a Line does, and straightens into Line to move. */
static bool can_step(const bar_state *s, int i)
{
    return s->pc[i].form != BAR_FM_HOOK;
}

bool bar_offmap_exit_hex(const mk_scenario *sc, mk_hex h)
{
    mk_hex a = MK_NO_HEX, b = MK_NO_HEX;
    mk_hex_parse(&sc->map.grid, "W0114", &a, NULL, 0);
    mk_hex_parse(&sc->map.grid, "W0124", &b, NULL, 0);
    return h != MK_NO_HEX && (h == a || h == b);
}

static bool west_limit(const bar_ext *x, const mk_grid *g, mk_hex to)
{
    /* 7.1a A: no movement west of the W21xx hex row */
    int col = x->west_limit_col;
    return col >= 0 && mk_hex_col(g, to) < col;
}

static bool limited(const bar_state *s, const bar_ext *x, int i)
{
    /* 7.1a: no British formation changes in the first three turns */
    return x->initial_limits && !s->limits_off &&
           s->turn <= x->first_turn + 2 && x->p[i].side == BAR_BRITISH && x->p[i].arrive < 0;
}

static int add(mk_action *out, int n, int cap, mk_action a)
{
    if (n < cap)
        out[n++] = a;
    return n;
}

/* Monmouth 2.2d F-G, prolonge (Standard 11.6, which we do not have: our
 * reconstruction, docs/bar.md): an unlimbered artillery unit moves a hex,
 * unlimbered and keeping its facing, paying the hex's artillery cost (not
 * where that is prohibited or all its MPs); 1 hex an activation,
 * regimental guns 2; not into or across what the Terrain Effects Chart
 * marks "No Prolonge" (grade 5.2b, woods 5.2d, regular slope 5.3d; marsh
 * and lake bar artillery anyway), nor out of a woods hex (5.2d: "may not
 * prolonge in a woods hex"). */
static int prolonge(const bar_state *s, const bar_occ *o, const mk_scenario *sc, int i, mk_action *out, int n,
                    int cap)
{
    const bar_ext *x = bar_x(sc);
    const bar_pc *p = &s->pc[i];
    bool rgt = bar_is_rgt_gun(&x->p[i]);
    if (p->mp <= 0 || (p->status & BS_ROUTED) || !bar_piece_active(s, sc, i) || nj_holds(s, sc, i) ||
        (p->more2 & BM2_PRO2) || ((p->more2 & BM2_PRO1) && !rgt))
        return n;
    mk_hex from = p->hex;
    if (x->ch.hex[x->map.terrain[from]].no_prolonge && x->map.terrain[from] != BAR_T_GRADE)
        return n;   /* "in a woods hex" (5.2d); grade bars only entering (5.2b) */
    for (int d = 0; d < 6; d++) {
        mk_hex to = x->nb[from][d];
        if (to == MK_NO_HEX || enemy_in(o, sc, to, x->p[i].side) || west_limit(x, &sc->map.grid, to) ||
            x->ch.hex[x->map.terrain[to]].no_prolonge)
            continue;
        unsigned side = side_toward(&x->map, from, to, d);
        bool barred = false;
        for (int b = 0; b < BAR_HS_NTERRAIN; b++)
            barred |= (side & (1u << b)) && x->ch.side[b].no_prolonge;
        int road, c = barred ? BAR_COST_PROHIBITED : cost_across(s, sc, i, to, side, &road);
        if (c < 0 || c > p->mp || !fits(s, o, sc, i, to, p->form))
            continue;
        n = add(out, n, cap, (mk_action){.type = BA_PROLONGE, .cost = (uint8_t)c, .npath = 1, .unit = (int16_t)i,
                                         .other = -1, .target = -1, .path = {to}});
    }
    return n;
}

/* Half MPs to limber or unlimber artillery piece i (2.2d E i: regimental
 * guns 1 MP; at least 1/2 MP). */
static int limber_cost(const bar_ext *x, int i)
{
    int c = bar_is_rgt_gun(&x->p[i]) ? 2 : x->se.limber_half;
    return c < 1 ? 1 : c;
}

int bar_legal_move(const bar_state *s, const mk_scenario *sc, const mk_action *want, mk_action *out,
                   int n, int cap)
{
    const bar_ext *x = bar_x(sc);
    const mk_grid *g = &sc->map.grid;
    bar_occ occ, *o = &occ;
    bar_occ_build(o, s, sc);
    int lo, hi;
    bar_want_range(s, want, &lo, &hi);
    n = add(out, n, cap, (mk_action){.type = BA_NEXT, .unit = -1, .other = -1, .target = -1});
    for (int i = lo; i < hi; i++) {
        const bar_pc *p = &s->pc[i];
        const bar_pinfo *pi = &x->p[i];
        if (p->hex == MK_NO_HEX && (p->more & BM_OFFMAP)) {   /* 3.4c: back on the map */
            static const char *const gates[2] = {"W0114", "W0124"};
            for (int k = 0; k < 2 && bar_piece_active(s, sc, i) && s->turn >= p->back && p->mp > 0; k++) {
                mk_hex gh = MK_NO_HEX;
                mk_hex_parse(g, gates[k], &gh, NULL, 0);
                if (gh != MK_NO_HEX && !enemy_in(o, sc, gh, pi->side) && fits(s, o, sc, i, gh, p->form))
                    n = add(out, n, cap, (mk_action){.type = BA_ENTER, .cost = 1, .npath = 1, .unit = (int16_t)i,
                                                     .other = -1, .target = -1, .path = {gh}});
            }
            continue;
        }
        if (p->hex == MK_NO_HEX && (p->more & BM_EXITED)) {   /* 7.4a H: the Advanced Corps at W0201 */
            mk_hex w = x->home[BAR_AMERICAN];
            if (bar_ac_reenters(s, sc, i) && bar_piece_active(s, sc, i) && p->mp > 0 && w != MK_NO_HEX &&
                !enemy_in(o, sc, w, pi->side) && fits(s, o, sc, i, w, p->form))
                n = add(out, n, cap, (mk_action){.type = BA_ENTER, .cost = 1, .npath = 1, .unit = (int16_t)i,
                                                 .other = -1, .target = -1, .path = {w}});
            continue;
        }
        if (p->hex == MK_NO_HEX) {   /* 7.0c: a reinforcement enters */
            if (pi->arrive < 0 || (p->flags & (BF_ON | BF_ELIM)) || p->mp <= 0 || !bar_piece_active(s, sc, i))
                continue;
            if (!enemy_in(o, sc, pi->entry, pi->side) && !bar_in_ezoc_o(s, o, sc, pi->side, pi->entry)) {
                if (fits(s, o, sc, i, pi->entry, p->form))
                    n = add(out, n, cap, (mk_action){.type = BA_ENTER, .cost = 1, .npath = 1, .unit = (int16_t)i,
                                                     .other = -1, .target = -1, .path = {pi->entry}});
                continue;
            }
            /* 7.0c C: the entry hex held by the enemy or in its ZOC: any map
             * edge hex within 5 hexes of it that is neither (in index order;
             * a step changes the row and the column by 1 at most, so only the
             * rows and columns within 5 can hold one) */
            int ec = mk_hex_col(g, pi->entry), er = mk_hex_row(g, pi->entry);
            for (int row = er > 5 ? er - 5 : 0; row <= er + 5 && row < g->rows; row++) {
                for (int col = ec > 5 ? ec - 5 : 0; col <= ec + 5 && col < g->cols && n < cap; col++) {
                    mk_hex h = mk_hex_at(g, col, row);
                    if (mk_hex_on_map_edge(g, h) && mk_hex_distance(g, h, pi->entry) <= 5 &&
                        x->map.terrain[h] != BAR_T_LAKE && !enemy_in(o, sc, h, pi->side) &&
                        !bar_in_ezoc_o(s, o, sc, pi->side, h) && fits(s, o, sc, i, h, p->form))
                        n = add(out, n, cap, (mk_action){.type = BA_ENTER, .cost = 1, .npath = 1,
                                                         .unit = (int16_t)i, .other = -1, .target = -1,
                                                         .path = {h}});
                }
            }
            continue;
        }
        if (pi->kind == BK_ARTILLERY && p->form == BAR_FM_ARTILLERY)
            n = prolonge(s, o, sc, i, out, n, cap);   /* 2.2d F */
        if (!can_move(s, sc, i))
            continue;
        bool line = !bar_is_leader(pi) && (p->form == BAR_FM_LINE || p->form == BAR_FM_GENERAL_ORDER);
        bool line2 = p->form == BAR_FM_LINE && bar_tail_hex(s, sc, i) != MK_NO_HEX;
        for (int d = 0; d < 6 && line2; d++) {
            /* 2.1a (ours): a two-hex Line steps both hexes ahead */
            mk_hex to = x->nb[p->hex][d], to2;
            if (to == MK_NO_HEX || !bar_faces(s, i, bar_dir_step(d)))
                continue;
            int c = line2_cost(s, sc, i, d, &to2);
            if (c == BAR_COST_PROHIBITED || (c == BAR_COST_ALL && !(p->flags & BF_FULL)) || (c >= 0 && c > p->mp))
                continue;
            if (hessian_gren(pi) && (p->status & BS_DISORDERED) && p->spent + (c < 0 ? p->mp : c) > 6)
                continue;   /* 4.1a B */
            if (enemy_in(o, sc, to, pi->side) || enemy_in(o, sc, to2, pi->side) || west_limit(x, g, to) ||
                west_limit(x, g, to2) || !fits_sp(s, o, sc, i, to, p->form, bar_sp_in(s, sc, i, p->hex)) ||
                !fits_sp(s, o, sc, i, to2, p->form, bar_sp_in(s, sc, i, bar_tail_hex(s, sc, i))))
                continue;
            n = add(out, n, cap, (mk_action){.type = BA_MOVE, .cost = (uint8_t)(c < 0 ? p->mp : c), .npath = 1,
                                             .unit = (int16_t)i, .other = -1, .target = -1, .path = {to}});
        }
        for (int d = 0; d < 6 && can_step(s, i) && !line2; d++) {
            mk_hex to = x->nb[p->hex][d];
            if (to == MK_NO_HEX || enemy_in(o, sc, to, pi->side) || west_limit(x, g, to) ||
                to == bar_tail_hex(s, sc, i))   /* 2.1c: a column does not march back into its tail */
                continue;
            if (line && !bar_faces(s, i, bar_dir_step(d)))
                continue;
            int road;
            int c = cost_across(s, sc, i, to, side_toward(&x->map, p->hex, to, d), &road);
            if (c == BAR_COST_PROHIBITED || (c == BAR_COST_ALL && !(p->flags & BF_FULL)))
                continue;
            if (c >= 0 && c > p->mp)
                continue;
            if (hessian_gren(pi) && (p->status & BS_DISORDERED) && p->spent + (c < 0 ? p->mp : c) > 6)
                continue;   /* 4.1a B: a Disordered Grenadiere spends at most 3 MPs */
            if (!fits(s, o, sc, i, to, p->form))
                continue;
            if (!bar_is_leader(pi) && !skirmish_may(s, sc, i, to, c < 0 ? p->mp : c))
                continue;   /* 2.6a, 7.4a J */
            n = add(out, n, cap, (mk_action){.type = BA_MOVE, .cost = (uint8_t)(c < 0 ? p->mp : c), .npath = 1,
                                             .unit = (int16_t)i, .other = -1, .target = -1, .path = {to}});
        }
        if (bar_is_leader(pi))
            continue;
        /* facing: 30 and 60 degrees either way, or about face */
        static const int turns[] = {1, 2, 10, 11, 6};
        /* 2.1a (ours): a two-hex Line wheels 60 degrees about either end:
         * the face cost and the moving end's cost into its new hex */
        for (int k = 0; line2 && k < 4; k++) {
            int f = (p->facing + (k & 1 ? 10 : 2)) % 12, pivot = k >> 1;
            mk_hex from, to = bar_wheel_hex(s, sc, i, pivot, f, &from);
            if (to == MK_NO_HEX || enemy_in(o, sc, to, pi->side) || west_limit(x, g, to) ||
                !fits_sp(s, o, sc, i, to, BAR_FM_LINE, bar_sp_in(s, sc, i, from)))
                continue;
            int road, mc = cost_from(s, sc, i, from, to, bar_hexside(&x->map, from, to), &road);
            int c = x->se.face_half < 1 ? 1 : x->se.face_half;
            if (mc == BAR_COST_PROHIBITED || (mc == BAR_COST_ALL && !(p->flags & BF_FULL)))
                continue;
            c = mc == BAR_COST_ALL ? p->mp : c + mc;
            if (c > p->mp || c > 255)
                continue;
            n = add(out, n, cap, (mk_action){.type = BA_FACE, .flags = pivot ? BAF_PIVOT_SECOND : BAF_PIVOT_FIRST,
                                             .cost = (uint8_t)c, .unit = (int16_t)i, .other = -1,
                                             .target = (int16_t)f});
        }
        for (size_t k = 0; k < sizeof turns / sizeof turns[0]; k++) {
            if (line2 && turns[k] != 6)
                continue;   /* 2.1a (ours): a two-hex Line turns in place only about (it wheels, above) */
            int f = (p->facing + turns[k]) % 12;
            int steps = abs(turns[k] > 6 ? 12 - turns[k] : turns[k]);
            int c = x->se.face_half * ((steps + 1) / 2);
            if (c < 1)
                c = 1;
            if (c <= p->mp)
                n = add(out, n, cap, (mk_action){.type = BA_FACE, .cost = (uint8_t)c, .unit = (int16_t)i,
                                                 .other = -1, .target = (int16_t)f});
        }
    }
    /* 2.5 B: Voluntary Rout during the Movement Segment (American units not
     * before 3.4a allows); limbered artillery too (2.5b A); unlimbered
     * artillery by limbering first, for the limbering's MPs (2.5b C) */
    bool vol = s->side == BAR_BRITISH || bar_american_vol_rout_allowed(x->scenario, s->turn, s->british_1020);
    for (int i = lo; vol && i < hi; i++) {
        const bar_pc *p = &s->pc[i];
        if (p->hex == MK_NO_HEX || bar_is_leader(&x->p[i]) || !bar_piece_active(s, sc, i) ||
            (p->status & BS_ROUTED) || (p->flags & BF_MOVED) || nj_holds(s, sc, i) ||
            (p->form == BAR_FM_ARTILLERY && limber_cost(x, i) > p->mp))
            continue;
        n = add(out, n, cap, (mk_action){.type = BA_ROUT, .unit = (int16_t)i, .other = -1, .target = -1});
    }
    /* leaving the map: 7.1a A (American units west of the W21xx row, out of
     * play but not lost) and 7.2d B / 7.3d C / 7.4d C (British units at the
     * map edge within 5 hexes of E3915 on Moonlit and Night turns) */
    const bar_sc_victory *v = &x->scen.victory;
    int lim = x->west_limit_col;
    bool west = lim >= 0 && s->side == BAR_AMERICAN && x->sw_exit_west;
    bool east = s->side == BAR_BRITISH && v->exit_hex != MK_NO_HEX &&
                (v->exit_light & (1u << bar_light_of(s->turn)));
    for (int i = lo; (west || east) && i < hi; i++) {
        const bar_pc *p = &s->pc[i];
        if (p->hex == MK_NO_HEX || bar_is_leader(&x->p[i]) || !bar_piece_active(s, sc, i) || p->mp < 1 ||
            p->form == BAR_FM_ARTILLERY)
            continue;
        bool ok = west ? mk_hex_col(g, p->hex) == lim
                       : mk_hex_on_map_edge(g, p->hex) && mk_hex_distance(g, p->hex, v->exit_hex) <= v->exit_within;
        if (ok)
            n = add(out, n, cap, (mk_action){.type = BA_EXIT, .cost = 1, .unit = (int16_t)i, .other = -1, .target = -1});
    }
    /* 3.4c: American units in Road Column and leaders may leave by W0114
     * and W0124 (scenarios 2-4), at most 15 combat units off the map */
    if (s->side == BAR_AMERICAN && x->sw_off_map) {
        int off = 0;
        for (int i = 0; i < s->npieces; i++)
            off += (s->pc[i].more & BM_OFFMAP) && !bar_is_leader(&x->p[i]) && !(s->pc[i].flags & BF_ELIM);
        for (int i = lo; i < hi; i++) {
            const bar_pc *p = &s->pc[i];
            if (p->hex == MK_NO_HEX || p->mp < 1 || !bar_piece_active(s, sc, i) || !bar_offmap_exit_hex(sc, p->hex) ||
                (p->status & BS_ROUTED) ||
                (!bar_is_leader(&x->p[i]) && (p->form != BAR_FM_ROAD_COLUMN || off >= 15)))
                continue;
            n = add(out, n, cap, (mk_action){.type = BA_EXIT, .flags = 1, .cost = 1, .unit = (int16_t)i, .other = -1,
                                             .target = -1});
        }
    }
    /* 3.2b C, 4.2b D: Knox or Pattison attaches an artillery unit */
    n = bar_legal_attach(s, sc, lo, hi, out, n, cap);
    /* 7.4a G (scenario 4): before any Night turn, an infantry or cavalry
     * unit or a leader of the Advanced Corps (Lee's Wing) on a map edge hex
     * within 20 hexes of W0201 may leave, in any state ("via normal
     * activations or by Routing"); not the Army Leader (ours) */
    if (s->side == BAR_AMERICAN && bar_ac_exit_open(s, sc) && x->home[BAR_AMERICAN] != MK_NO_HEX)
        for (int i = lo; i < hi; i++) {
            const bar_pc *p = &s->pc[i];
            if (p->hex == MK_NO_HEX || x->p[i].kind == BK_ARTILLERY || i == bar_army_leader(s, s->side) ||
                !bar_piece_active(s, sc, i) || !bar_ac_member(s, sc, i) || !mk_hex_on_map_edge(g, p->hex) ||
                mk_hex_distance(g, p->hex, x->home[BAR_AMERICAN]) > 20)
                continue;
            n = add(out, n, cap, (mk_action){.type = BA_EXIT, .flags = 2, .cost = 1, .unit = (int16_t)i, .other = -1,
                                             .target = -1});
        }
    /* formation changes (also for units that cannot move: Square, unlimbered guns) */
    for (int i = lo; i < hi; i++) {
        const bar_pc *p = &s->pc[i];
        const bar_pinfo *pi = &x->p[i];
        /* (a change costs at least 1/2 MP: no MPs, no change) */
        if (p->hex == MK_NO_HEX || p->mp <= 0 || bar_is_leader(pi) || bar_charges(s, sc, i) ||
            !bar_piece_active(s, sc, i) || (p->status & BS_ROUTED) || limited(s, x, i) ||
            (p->more2 & BM2_PRO1))   /* 2.2d F: no Formation change after a prolonge (Standard 9.5) */
            continue;   /* (mounted cavalry keeps its formation; dismounted cavalry takes infantry's, 7.4a C) */
        static const int inf[] = {BAR_FM_LINE,          BAR_FM_ATTACK_COLUMN, BAR_FM_MARCH_COLUMN,
                                  BAR_FM_ROAD_COLUMN,   BAR_FM_GENERAL_ORDER, BAR_FM_SQUARE,
                                  BAR_FM_SKIRMISH};
        static const int art[] = {BAR_FM_ARTILLERY, BAR_FM_ARTILLERY_ROAD_COLUMN};
        const int *list = pi->kind == BK_ARTILLERY ? art : inf;
        int nl = pi->kind == BK_ARTILLERY ? 2 : 7;
        int c = pi->kind == BK_ARTILLERY ? limber_cost(x, i) : x->se.form_half;
        if (c < 1)
            c = 1;
        /* Our Hook (Monmouth 2.1a, 7.1a B; docs/bar.md "Hook"): infantry in
         * Line bends either end back into Hook, a Hook bends the other end
         * instead or straightens into Line, each for hook_mp (series.json);
         * a Hook changes to no other formation. Stacking as Line (2.1). */
        int hc = x->se.hook_half < 1 ? 1 : x->se.hook_half;
        mk_hex t2 = bar_tail_hex(s, sc, i);
        if (p->form == BAR_FM_LINE && c <= p->mp) {
            /* 2.1a (ours): a one-hex Line of 7 SPs or more extends into a
             * second hex beside it (path[0]); a two-hex Line contracts */
            if (t2 != MK_NO_HEX) {
                if (fits(s, o, sc, i, p->hex, BAR_FM_LINE))
                    n = add(out, n, cap, (mk_action){.type = BA_FORM, .cost = (uint8_t)c, .unit = (int16_t)i,
                                                     .other = -1, .target = BAR_FM_LINE});
            } else if (bar_line2_ok(x, i, BAR_FM_LINE, p->sp) && !nj_holds(s, sc, i)) {   /* 3.4b: it keeps its hex */
                mk_hex sh[2];
                int ns = side_hexes(s, o, sc, i, sh);
                for (int k2 = 0; k2 < ns; k2++)
                    n = add(out, n, cap, (mk_action){.type = BA_FORM, .cost = (uint8_t)c, .npath = 1,
                                                     .unit = (int16_t)i, .other = -1, .target = BAR_FM_LINE,
                                                     .path = {sh[k2]}});
            }
        }
        if (pi->kind == BK_INFANTRY && (p->form == BAR_FM_LINE || p->form == BAR_FM_HOOK) && hc <= p->mp &&
            (p->form == BAR_FM_HOOK || t2 == MK_NO_HEX)) {
            for (int end = 0; end < 2; end++) {
                uint8_t fl = end ? BAF_HOOK_LEFT : 0;
                if (p->form == BAR_FM_HOOK && !(p->more2 & BM2_HOOK_LEFT) == !end)
                    continue;   /* already bent that way */
                n = add(out, n, cap, (mk_action){.type = BA_FORM, .flags = fl, .cost = (uint8_t)hc,
                                                 .unit = (int16_t)i, .other = -1, .target = BAR_FM_HOOK});
            }
            if (p->form == BAR_FM_HOOK)
                n = add(out, n, cap, (mk_action){.type = BA_FORM, .cost = (uint8_t)hc, .unit = (int16_t)i,
                                                 .other = -1, .target = BAR_FM_LINE});
        }
        for (int k = 0; k < nl && p->form != BAR_FM_HOOK && c <= p->mp; k++) {
            int f = list[k];
            if (f == p->form || (f == BAR_FM_SKIRMISH && (!pi->skirmish || bar_mounted(s, sc, i))) ||
                (f == BAR_FM_SQUARE && bar_mounted(s, sc, i)) ||
                !fits(s, o, sc, i, p->hex, f))
                continue;   /* 4.1b E: the Mounted Jaegers skirmish only dismounted */
            if (f == BAR_FM_ARTILLERY && !bar_rgt_may_unlimber(s, sc, i))
                continue;   /* 2.2d E ii: only in the owning regiment's hex */
            /* Monmouth 2.1b: at least 6 SPs in a hex for a Square (ours:
             * this unit with its side's units already in Square there) */
            if (f == BAR_FM_SQUARE && p->sp + bar_square_sp(s, sc, p->hex, pi->side) < BAR_SQUARE_MIN_SP)
                continue;
            if (bar_wants_tail(x, i, f, p->sp)) {
                /* 2.1c: more than 8 SPs (artillery 2) in Road Column are
                 * two hexes: one action per trailing hex (path[0]) */
                mk_hex th[2];
                int nt = tail_hexes(s, o, sc, i, f, th);
                for (int k2 = 0; k2 < nt; k2++)
                    n = add(out, n, cap, (mk_action){.type = BA_FORM, .cost = (uint8_t)c, .npath = 1,
                                                     .unit = (int16_t)i, .other = -1, .target = (int16_t)f,
                                                     .path = {th[k2]}});
                continue;
            }
            n = add(out, n, cap, (mk_action){.type = BA_FORM, .cost = (uint8_t)c, .unit = (int16_t)i,
                                             .other = -1, .target = (int16_t)f});
        }
    }
    /* 4.1b E, 7.4a C: mounting or dismounting "must expend all of its MPs"
     * (ours: its whole MA, unspent, as for the other "all MPs" costs) and
     * takes any eligible formation and facing in its hex: mounted cavalry
     * its cavalry formation, the Mounted Jaegers an infantry formation but
     * Square and Skirmish; dismounted, the infantry formations but Square
     * (Skirmish for the Mounted Jaegers). Cavalry from 5:00 AM 29 June. */
    int dawn29 = bar_turn_of(29, 5, 0);
    for (int i = lo; i < hi; i++) {
        const bar_pc *p = &s->pc[i];
        const bar_pinfo *pi = &x->p[i];
        if (p->hex == MK_NO_HEX || p->mp <= 0 || !(p->flags & BF_FULL) || bar_is_leader(pi) ||
            !bar_has_modes(sc, i) || (pi->kind == BK_CAVALRY && s->turn < dawn29) ||
            (p->status & BS_ROUTED) || !bar_piece_active(s, sc, i) || limited(s, x, i))
            continue;
        bool mount = !bar_mounted(s, sc, i);
        static const int inf[] = {BAR_FM_LINE, BAR_FM_ATTACK_COLUMN, BAR_FM_MARCH_COLUMN, BAR_FM_ROAD_COLUMN,
                                  BAR_FM_GENERAL_ORDER, BAR_FM_SKIRMISH};
        static const int cav[] = {BAR_FM_CAVALRY};
        bool horse = pi->kind == BK_CAVALRY && mount;
        const int *list = horse ? cav : inf;
        int nl = horse ? 1 : 6;
        for (int k = 0; k < nl; k++) {
            int f = list[k];
            if ((f == BAR_FM_SKIRMISH && (mount || !pi->skirmish)) || !fits(s, o, sc, i, p->hex, f))
                continue;
            for (int face = 0; face < 12; face++)
                n = add(out, n, cap, (mk_action){.type = BA_MOUNT, .flags = (uint8_t)mount, .cost = (uint8_t)p->mp,
                                                 .unit = (int16_t)i, .other = (int16_t)face, .target = (int16_t)f});
        }
    }
    return n;
}

int bar_apply_move(bar_state *s, const mk_scenario *sc, const mk_action *a, mk_events *ev, mk_error *err)
{
    const bar_ext *x = bar_x(sc);
    const mk_grid *g = &sc->map.grid;
    int i = a->unit;
    bar_pc *p = &s->pc[i];
    p->flags |= BF_MOVED;
    switch (a->type) {
    case BA_EXIT: {
        mk_event *e = bar_ev(ev, "exit", a->flags == 2 ? "Monmouth 7.4a G (the Advanced Corps)"
                                     : a->flags ? "Monmouth 3.4c (off-map movement)"
                                     : x->p[i].side == BAR_AMERICAN ? "Monmouth 7.1a A"
                                                                    : "Monmouth 7.2d B");
        e->unit = (int16_t)i;
        e->from = p->hex;
        bar_put(s, sc, i, MK_NO_HEX);
        p->mp = 0;
        if (a->flags == 1) {   /* 3.4c: back after the entire next turn */
            p->more |= BM_OFFMAP;
            p->back = (int16_t)(s->turn + 2);
        } else {
            p->more |= BM_EXITED;
        }
        return 0;
    }
    case BA_ROUT:
        if (p->form == BAR_FM_ARTILLERY) {   /* 2.5b C: limber, then up to 4 (not 8) hexes */
            p->form = BAR_FM_ARTILLERY_ROAD_COLUMN;
            p->mp = (int8_t)(p->mp - limber_cost(x, i));
            mk_event *e = bar_ev(ev, "formation", "Monmouth 2.5b C");
            e->unit = (int16_t)i;
            e->text = bar_formation_name(p->form);
            bar_rout_hexes(s, sc, i, 4, true, ev);
        } else {
            bar_rout_hexes(s, sc, i, 8, true, ev);   /* 2.5 B: up to 8 hexes */
        }
        p->mp = 0;
        return 0;
    case BA_ENTER: {
        if (p->more & BM_EXITED) {   /* 7.4a H: back in Good Order, in von Steuben's Wing */
            p->more &= (uint8_t)~BM_EXITED;
            p->status = 0;
            if (x->p[i].org >= 0 && x->p[i].org < 64)
                s->ac_ste |= 1ull << x->p[i].org;
        }
        bar_put(s, sc, i, a->path[0]);   /* 2.1c: a long column's tail follows it on */
        p->flags |= BF_ON;
        p->more &= (uint8_t)~BM_OFFMAP;
        p->spent = (int8_t)(p->spent + a->cost);
        if (x->p[i].side == BAR_BRITISH && x->p[i].arrive == x->first_turn + 1)
            s->british_1020 = true;   /* 3.4a */
        bar_lee_joined(s, sc, i, ev);
        p->mp = (int8_t)(p->mp - a->cost);
        mk_event *e = bar_ev(ev, "enter", "Monmouth 7.0c");
        e->unit = (int16_t)i;
        e->hex = p->hex;
        return 0;
    }
    case BA_FACE:
        if (a->flags & (BAF_PIVOT_FIRST | BAF_PIVOT_SECOND)) {   /* 2.1a (ours): a wheel */
            mk_hex from, to = bar_wheel_hex(s, sc, i, a->flags & BAF_PIVOT_SECOND ? 1 : 0, a->target, &from);
            mk_hex t2 = bar_tail_hex(s, sc, i);
            if (a->flags & BAF_PIVOT_SECOND)
                p->hex = to;
            p->tail = (int8_t)(mk_hex_direction(g, p->hex, a->flags & BAF_PIVOT_SECOND ? t2 : to) + 1);
            mk_event *e = bar_ev(ev, "wheel", "Monmouth 2.1a (two-hex Line: ours)");
            e->unit = (int16_t)i;
            e->from = from;
            e->to = to;
            p->facing = (uint8_t)a->target;
            p->mp = (int8_t)(p->mp - a->cost);
            p->spent = (int8_t)(p->spent + a->cost);
            p->flags &= (uint8_t)~BF_FULL;
            if (bar_in_ezoc(s, sc, x->p[i].side, to))
                p->mp = 0;   /* an enemy's front hex: movement ends */
            /* Series 8.7 as for a Line's move: the moving end's terrain */
            unsigned ws = bar_hexside(&x->map, from, to);
            bool rough = x->ch.hex[x->map.terrain[to]].disorder_check;
            for (int b = 0; b < BAR_HS_NTERRAIN; b++)
                if ((ws & (1u << b)) && x->ch.side[b].disorder_check)
                    rough = true;
            if (rough && !(p->status & BS_DISORDERED))
                bar_do_check(s, sc, i, 'D', 'A', x->p[i].nation == BAR_NAT_AMERICAN || x->p[i].type == BAR_UT_LIGHT
                                                      ? x->ch.er_terrain_light
                                                      : x->ch.er_terrain_normal,
                             "Monmouth 2.2c, 5.2-5.3 (Disorder Check A)", ev);
            return 0;
        }
        p->facing = (uint8_t)a->target;
        p->mp = (int8_t)(p->mp - a->cost);
        p->flags &= (uint8_t)~BF_FULL;
        {   /* the cost from 1.2h B's Single Hex Facing Change Cost diagram */
            static const char *const to[12] = {
                "to_0_degrees",   "to_30_degrees",  "to_60_degrees",  "to_90_degrees",
                "to_120_degrees", "to_150_degrees", "to_180_degrees", "to_210_degrees",
                "to_240_degrees", "to_270_degrees", "to_300_degrees", "to_330_degrees"};
            mk_event *e = bar_ev(ev, "face", "Monmouth 1.2h B");
            e->unit = (int16_t)i;
            e->hex = p->hex;
            e->text = to[a->target % 12];
            e->mp = (int16_t)(p->mp / 2);   /* MPs left (whole), as a move's */
            e->points = a->cost;            /* half MPs it cost */
        }
        if (bar_in_ezoc(s, sc, x->p[i].side, p->hex))
            bar_opfire_offered(s, sc, i, BOF_CLOSE);   /* Series 12.8 (ours): a Facing change in an EZOC */
        return 0;
    case BA_MOUNT: {
        /* 4.1b E, 7.4a C: all its MPs; 7.4a C: no Heat check for them (they
         * are not counted as spent, 2.8 B) */
        if (a->flags)
            p->more &= (uint8_t)~BM_DISMOUNTED;
        else
            p->more |= BM_DISMOUNTED;
        p->form = (uint8_t)a->target;
        p->facing = (uint8_t)a->other;
        p->mp = 0;
        p->flags &= (uint8_t)~BF_FULL;
        mk_event *e = bar_ev(ev, a->flags ? "mount" : "dismount",
                             x->p[i].kind == BK_CAVALRY ? "Monmouth 7.4a C" : "Monmouth 4.1b E");
        e->unit = (int16_t)i;
        e->text = bar_formation_name(p->form);
        return 0;
    }
    case BA_ATTACH:
        bar_apply_attach(s, sc, a, ev);
        return 0;
    case BA_PROLONGE: {   /* 2.2d F: unlimbered, the facing kept */
        mk_event *e = bar_ev(ev, "prolonge", "Monmouth 2.2d F-G");
        e->unit = (int16_t)i;
        e->from = p->hex;
        e->to = a->path[0];
        e->points = (int16_t)a->cost;
        p->hex = a->path[0];
        p->mp = (int8_t)(p->mp - a->cost);
        p->spent = (int8_t)(p->spent + a->cost);
        p->flags &= (uint8_t)~BF_FULL;
        p->more |= BM_OFF_ROAD;
        p->more2 |= (uint8_t)(p->more2 & BM2_PRO1 ? BM2_PRO2 : BM2_PRO1);
        if (bar_in_ezoc(s, sc, x->p[i].side, p->hex)) {
            p->mp = 0;   /* an enemy's front hex: movement ends */
            bar_ev(ev, "zoc", "Series ZOC (our reading: docs/bar.md)")->unit = (int16_t)i;
            bar_opfire_offered(s, sc, i, BOF_CLOSE);   /* Series 12.8 (ours) */
        }
        return 0;
    }
    case BA_FORM: {
        p->form = (uint8_t)a->target;
        p->more2 &= (uint8_t)~BM2_HOOK_LEFT;
        /* 2.1c: a Road Column of more than 8 SPs puts its trailing hex in
         * path[0], 2.1a: a two-hex Line its second hex; any other
         * formation (a Line without one) closes up into the first hex */
        p->tail = (int8_t)(a->npath ? mk_hex_direction(g, p->hex, a->path[0]) + 1 : 0);
        if (a->target == BAR_FM_HOOK && (a->flags & BAF_HOOK_LEFT))
            p->more2 |= BM2_HOOK_LEFT;
        p->mp = (int8_t)(p->mp - a->cost);
        p->flags &= (uint8_t)~BF_FULL;
        mk_event *e = bar_ev(ev, "formation", "Monmouth 2.1");
        e->unit = (int16_t)i;
        e->text = a->npath ? (a->target == BAR_FM_LINE          ? "line (two hexes)"
                              : a->target == BAR_FM_ROAD_COLUMN ? "road column (two hexes)"
                                                                : "artillery road column (two hexes)")
                  : a->target != BAR_FM_HOOK ? bar_formation_name(p->form)
                  : a->flags & BAF_HOOK_LEFT ? "hook (left end bent)"
                                             : "hook (right end bent)";
        /* 2.5b C: "the Formation Change precipitates Opportunity Fire as
         * normal" in an EZOC (Series 12.8, ours) */
        if (bar_in_ezoc(s, sc, x->p[i].side, p->hex))
            bar_opfire_offered(s, sc, i, BOF_CLOSE);
        return 0;
    }
    default:
        break;
    }
    mk_hex from = p->hex, to = a->path[0], to2 = MK_NO_HEX;
    int road;
    int c = bar_move_cost(s, sc, i, to, &road);
    bool line2 = p->form == BAR_FM_LINE && bar_tail_hex(s, sc, i) != MK_NO_HEX;
    unsigned side2 = 0;
    if (line2) {   /* 2.1a (ours): both hexes a hex ahead, the dearer cost */
        mk_hex from2 = bar_tail_hex(s, sc, i);
        c = line2_cost(s, sc, i, mk_hex_direction(g, from, to), &to2);
        side2 = bar_hexside(&x->map, from2, to2);
        road = 0;
    }
    unsigned side = bar_hexside(&x->map, from, to);
    int dir = mk_hex_direction(g, from, to);
    int paid = c < 0 ? p->mp : c;
    int spent0 = p->spent;
    if (line2)
        p->hex = to;   /* the second hex keeps its place beside it (the same direction) */
    else
        bar_put(s, sc, i, to);   /* 2.1c: the tail follows the head */
    p->road = (int8_t)road;
    p->mp = (int8_t)(c < 0 ? 0 : p->mp - c);
    p->spent = (int8_t)(p->spent + paid);
    if (!bar_road(&x->map, from, to))
        p->more |= BM_OFF_ROAD;
    p->flags &= (uint8_t)~BF_FULL;
    if (bar_is_leader(&x->p[i]) || !(p->form == BAR_FM_LINE || p->form == BAR_FM_GENERAL_ORDER))
        p->facing = (uint8_t)bar_dir_step(dir);
    mk_event *e = bar_ev(ev, "move", "Monmouth 5.2");
    e->unit = (int16_t)i;
    e->from = from;
    e->to = to;
    e->mp = (int16_t)(p->mp / 2);   /* MPs left (whole) */
    e->points = (int16_t)paid;      /* half MPs this hex cost */
    if (bar_is_leader(&x->p[i])) {
        bar_lee_joined(s, sc, i, ev);
        return 0;
    }
    /* 4.1a B: each 1/2 MP above 3 MPs, a Disorder Check (A); none for
     * moves that cost all MPs */
    if (hessian_gren(&x->p[i]) && c >= 0)
        for (int h = spent0 + 1; h <= p->spent && bar_alive(s, i); h++)
            if (h > 6 && !(p->status & BS_DISORDERED))
                bar_do_check(s, sc, i, 'D', 'A', 0, "Monmouth 4.1a B (Hessian Grenadiere)", ev);
    if (p->hex == MK_NO_HEX)
        return 0;
    bool zoc = bar_in_ezoc(s, sc, x->p[i].side, to) || (line2 && bar_in_ezoc(s, sc, x->p[i].side, to2));
    if (zoc) {
        p->mp = 0;   /* an enemy's front hex: movement ends */
        mk_event *z = bar_ev(ev, "zoc", "Series ZOC (our reading: docs/bar.md)");
        z->unit = (int16_t)i;
    }
    /* 2.2d D: Road Movement into a hex the enemy's artillery may fire at;
     * Series 12.8 (ours): into an enemy's front hex */
    bool road_move = bar_road(&x->map, from, to) &&
                     (p->form == BAR_FM_ROAD_COLUMN || p->form == BAR_FM_ARTILLERY_ROAD_COLUMN);
    bar_opfire_offered(s, sc, i, (road_move ? BOF_ROAD : 0u) | (zoc ? BOF_CLOSE : 0u));
    if (x->p[i].side == BAR_AMERICAN && !s->limits_off) {   /* 7.1a: the limits end */
        mk_hex nb[6];
        mk_hex_neighbors(g, to, nb);
        for (int d = 0; d < 6; d++)
            if (nb[d] != MK_NO_HEX && bar_unit_at(s, sc, nb[d], BAR_BRITISH, false))
                s->limits_off = true;
    }
    /* Series 8.7 (5.2-5.3 "non-clear for a Disorder Check (A)") */
    bool rough = x->ch.hex[x->map.terrain[to]].disorder_check ||
                 (line2 && x->ch.hex[x->map.terrain[to2]].disorder_check);
    for (int b = 0; b < BAR_HS_NTERRAIN; b++)
        if (((side | side2) & (1u << b)) && x->ch.side[b].disorder_check)
            rough = true;   /* (a two-hex Line: either hex) */
    if (rough && (p->form == BAR_FM_LINE || p->form == BAR_FM_GENERAL_ORDER) && !(p->status & BS_DISORDERED))
        bar_do_check(s, sc, i, 'D', 'A', x->p[i].nation == BAR_NAT_AMERICAN || x->p[i].type == BAR_UT_LIGHT
                                              ? x->ch.er_terrain_light
                                              : x->ch.er_terrain_normal,
                     "Monmouth 2.2c, 5.2-5.3 (Disorder Check A)", ev);
    /* 2.3b, 6.2d C: the reactive cavalry's Opportunity Charge (melee.c),
     * after any Opportunity Fire (fire.c offers it then) */
    if (s->of_unit < 0)
        bar_opcharge_offered(s, sc, i);
    (void)err;
    return 0;
}

/* The end of the Movement Segment: 2.7 C-D, a unit that spent more than
 * half its MA in Moonlit or Night (not only by Road Movement) checks
 * Disorder (A) at +5/+10; 2.8 B, in a Heat turn every unit that spent MPs
 * checks Disorder (A) with +1 per MP (British infantry, dismounted cavalry
 * and artillery: per 1/2 MP); 2.8 E: a Shaken/Disordered unit failing it
 * spends no MPs in its next activation (BM2_NO_MP, the 'CAPTURED' marker;
 * set_activation_mp); 2.8 E: a Heat check never routs. */
void bar_end_movement(bar_state *s, const mk_scenario *sc, mk_events *ev)
{
    const bar_ext *x = bar_x(sc);
    bar_light light = bar_light_of(s->turn);
    bool heat = bar_is_heat(s->turn);
    for (int i = 0; i < s->npieces; i++) {
        bar_pc *p = &s->pc[i];
        if (p->hex == MK_NO_HEX || p->spent <= 0 || bar_is_leader(&x->p[i]) || (p->status & BS_ROUTED))
            continue;
        int dark = bar_dark_move_check(light, bar_ma_half(s, sc, i) / 2, p->spent, !(p->more & BM_OFF_ROAD));
        if (dark)
            bar_do_check(s, sc, i, 'D', 'A', dark, light == BAR_NIGHT ? "Monmouth 2.7 D" : "Monmouth 2.7 C", ev);
        if (heat) {
            /* (the Mounted Jaegers mounted as mounted cavalry: ours) */
            bar_heat_class hc = bar_mounted(s, sc, i)            ? BAR_HEAT_MOUNTED_CAV
                                : x->p[i].kind == BK_CAVALRY    ? BAR_HEAT_DISMOUNTED_CAV
                                : x->p[i].kind == BK_ARTILLERY ? BAR_HEAT_ARTILLERY
                                                              : BAR_HEAT_INFANTRY;
            bar_heat_check(s, sc, i, bar_heat_mp_modifier(x->p[i].side, hc, p->spent), "Monmouth 2.8 B (Heat)", ev);
        }
    }
}

void bar_heat_check(bar_state *s, const mk_scenario *sc, int i, int mod, const char *rule, mk_events *ev)
{
    bar_pc *p = &s->pc[i];
    if (!bar_is_heat(s->turn) || !bar_alive(s, i) || p->hex == MK_NO_HEX || bar_is_leader(&bar_x(sc)->p[i]) ||
        (p->status & BS_ROUTED))
        return;
    /* a Disorder Check never routs (its worst is Shaken/Disordered) */
    bool worst = (p->status & (BS_SHAKEN | BS_DISORDERED)) == (BS_SHAKEN | BS_DISORDERED);
    int eff = bar_do_check(s, sc, i, 'D', 'A', mod, rule, ev);
    if (worst && eff != BAR_CE_PASS && eff != BAR_CE_NO_EFFECT) {
        p->more2 |= BM2_NO_MP;   /* 2.8 E */
        mk_event *e = bar_ev(ev, "no_mp_next_activation", "Monmouth 2.8 E");
        e->unit = (int16_t)i;
    }
}

/* --- the deployment (the option bar.deploy) ------------------------------- */

/* Does leader j's "with" (x->dep_with) take piece k: a unit of his side
 * (BAR_DEP_SIDE) or of his Command (the org or a Command under it)? */
static bool dep_covers(const bar_ext *x, int j, int k)
{
    const bar_pinfo *pk = &x->p[k];
    if (bar_is_leader(pk) || pk->side != x->p[j].side)
        return false;
    if (x->dep_with[j] == BAR_DEP_SIDE)
        return true;
    for (int org = pk->org, n = 0; org >= 0 && n < BAR_OOB_MAX_ORGS; org = x->oob.org[org].parent, n++)
        if (org == x->dep_with[j])
            return true;
    return false;
}

/* Is there, in h, a unit (but piece `except`) that leader j may stand with? */
static bool dep_with_in(const bar_state *s, const bar_occ *o, const mk_scenario *sc, int j, mk_hex h, int except)
{
    BAR_OCC_EACH(o, h, k)
        if (k != except && bar_alive(s, k) && dep_covers(bar_x(sc), j, k))
            return true;
    return false;
}

/* Monmouth 7.xb-c "B." (7.1b B, 7.2b B, 7.3b B, 7.4b B): "Where more than
 * one hex of deployment is allowed, different units of the same Command
 * may start in different, eligible hexes"; "Command Leaders can set up with
 * any unit of their Command". May piece i deploy to h (0), or why not? */
static int deploy_why(const bar_state *s, const bar_occ *o, const mk_scenario *sc, int i, mk_hex h)
{
    const bar_ext *x = bar_x(sc);
    const bar_pc *p = &s->pc[i];
    if (x->p[i].side != s->side || p->hex == MK_NO_HEX || (p->more2 & BM2_OUT) || !bar_alive(s, i))
        return 1;   /* not the deploying side's piece on the map */
    if (h == p->hex)
        return 2;
    bool in = false;
    for (int k = 0; k < x->dep_n[i] && !in; k++)
        in = x->dep[x->dep_at[i] + k] == h;
    if (!in)
        return 2;   /* not one of its hexes */
    if (enemy_in(o, sc, h, x->p[i].side))
        return 3;
    if (bar_is_leader(&x->p[i]))
        return x->dep_with[i] != -1 && !dep_with_in(s, o, sc, i, h, -1) ? 4 : 0;
    return fits(s, o, sc, i, h, p->form) ? 0 : 5;   /* the stacking of a move (2.1c-d, 2.3) */
}

int bar_legal_deploy(const bar_state *s, const mk_scenario *sc, const mk_action *want, mk_action *out, int n,
                     int cap)
{
    const bar_ext *x = bar_x(sc);
    bar_occ o;
    bar_occ_build(&o, s, sc);
    int lo, hi;
    bar_want_range(s, want, &lo, &hi);
    for (int i = lo; i < hi && n < cap; i++)
        for (int k = 0; k < x->dep_n[i] && n < cap; k++) {
            mk_hex h = x->dep[x->dep_at[i] + k];
            if (deploy_why(s, &o, sc, i, h))
                continue;
            out[n] = (mk_action){.type = BA_DEPLOY, .unit = (int16_t)i, .other = -1, .target = -1};
            out[n].path[0] = h;
            out[n].npath = 1;
            n++;
        }
    if (n < cap)
        out[n++] = (mk_action){.type = BA_NEXT, .unit = -1, .other = -1, .target = -1};
    return n;
}

int bar_deploy_refusal(const bar_state *s, const mk_scenario *sc, const mk_action *a, mk_error *err)
{
    if (a->type != BA_DEPLOY)
        return mk_error_set(err, "illegal_action", "the deployment (option bar.deploy): only deploy and next");
    if (a->unit < 0 || a->unit >= s->npieces || a->npath != 1)
        return mk_error_set(err, "illegal_action", "deploy: a piece and one hex");
    bar_occ o;
    bar_occ_build(&o, s, sc);
    char lb[MK_HEX_LABEL_MAX];
    const char *id = bar_pid(sc, a->unit), *hl = mk_hex_label(&sc->map.grid, a->path[0], lb);
    switch (deploy_why(s, &o, sc, a->unit, a->path[0])) {
    case 1: return mk_error_set(err, "illegal_action", "%s: the %s deploy now (Monmouth 7.xb B)", id,
                                sc->sides[s->side].id);
    case 2: return mk_error_set(err, "illegal_action", "%s: %s is not another of its deploy hexes (Monmouth 7.xb B)",
                                id, hl);
    case 3: return mk_error_set(err, "illegal_action", "%s: %s holds enemy units", id, hl);
    case 4: return mk_error_set(err, "illegal_action",
                                "%s: no unit of his Command in %s (Monmouth 7.xb B: \"with any unit of their Command\")",
                                id, hl);
    case 5: return mk_error_set(err, "illegal_action", "%s: %s would be over-stacked (Monmouth 2.1c-d, 2.3)", id, hl);
    default: return mk_error_set(err, "illegal_action", "%s to %s: not a legal deploy", id, hl);
    }
}

void bar_apply_deploy(bar_state *s, const mk_scenario *sc, const mk_action *a, mk_events *ev)
{
    const bar_ext *x = bar_x(sc);
    int i = a->unit;
    mk_hex from = s->pc[i].hex, to = a->path[0];
    bar_occ o;
    bar_occ_build(&o, s, sc);
    s->pc[i].hex = to;   /* (a trailing hex still off the map stays so: 2.1c, bar_put) */
    mk_event *e = bar_ev(ev, "deploy", "Monmouth 7.xb B (option bar.deploy)");
    e->unit = (int16_t)i;
    e->from = from;
    e->to = to;
    if (bar_is_leader(&x->p[i]))
        return;
    /* ours: a leader "with any unit of his Command" whom the last such unit
     * in his hex leaves goes with it (docs/bar.md "Placing the set-up") */
    BAR_OCC_EACH(&o, from, j) {
        if (!bar_is_leader(&x->p[j]) || x->dep_with[j] == -1 || !dep_covers(x, j, i) ||
            dep_with_in(s, &o, sc, j, from, i))
            continue;
        s->pc[j].hex = to;
        mk_event *f = bar_ev(ev, "deploy", "Monmouth 7.xb B: a Command Leader with a unit of his Command");
        f->unit = (int16_t)j;
        f->from = from;
        f->to = to;
    }
}
