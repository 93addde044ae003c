/* artillery.c - the Monmouth artillery rules the Fire Combat and Movement
 * Segments share: the Hessian regimental guns (Monmouth 2.2d E ii, iv-vi)
 * and the artillery Special Leaders Knox, du Plessis-Mauduit and Pattison
 * (3.2b C-D, 4.2b D). Prolonge (2.2d F-G) is a movement: move.c.
 *
 * Ours (docs/bar.md "Artillery"): we keep no order within a stack, so the
 * guns are read as lying under the infantry (the bottom, as 2.2d A puts
 * artillery stacked with infantry): in Line they are "above the sixth SP"
 * while the hex holds at most 5 infantry SPs. A battery's units each fire
 * on their own (one roll a unit), at any range. */
#include "rules/bar/bar_int.h"

bool bar_is_rgt_gun(const bar_pinfo *p) { return p->kind == BK_ARTILLERY && p->type == BAR_UT_ART_REGIMENTAL; }

/* Infantry SPs of side in hex h (a two-hex unit's there, 2.1a, 2.1c),
 * and whether one of those units is in Line or Hook (2.1a: a Hook is a
 * Line with an end bent back). */
static int infantry_sps(const bar_state *s, const mk_scenario *sc, mk_hex h, int side, bool *line)
{
    const bar_ext *x = bar_x(sc);
    int sp = 0;
    *line = false;
    for (int j = 0; j < s->npieces; j++) {
        if (x->p[j].kind != BK_INFANTRY || x->p[j].side != side || !bar_alive(s, j) || !bar_in_hex(s, sc, j, h))
            continue;
        sp += bar_sp_in(s, sc, j, h);
        *line |= s->pc[j].form == BAR_FM_LINE || s->pc[j].form == BAR_FM_HOOK;
    }
    return sp;
}

/* Monmouth 2.2d E ii: regimental guns fire only from a hex that contains
 * their owning regiment; 2.2d E iv: stacked with infantry in Line, only
 * above the sixth SP (ours: at most 5 infantry SPs over them; their own
 * SPs count as zero). Other artillery: true. */
bool bar_rgt_may_fire(const bar_state *s, const mk_scenario *sc, int g)
{
    const bar_ext *x = bar_x(sc);
    if (!bar_is_rgt_gun(&x->p[g]))
        return true;
    int o = x->p[g].owner;
    if (o < 0 || !bar_alive(s, o) || s->pc[g].hex == MK_NO_HEX || !bar_in_hex(s, sc, o, s->pc[g].hex))
        return false;
    bool line;
    int sp = infantry_sps(s, sc, s->pc[g].hex, x->p[g].side, &line);
    return !line || sp <= 5;
}

/* 2.2d E ii: regimental guns unlimber only in their owning regiment's hex. */
bool bar_rgt_may_unlimber(const bar_state *s, const mk_scenario *sc, int g)
{
    const bar_ext *x = bar_x(sc);
    int o = x->p[g].owner;
    return !bar_is_rgt_gun(&x->p[g]) ||
           (o >= 0 && bar_alive(s, o) && s->pc[g].hex != MK_NO_HEX && bar_in_hex(s, sc, o, s->pc[g].hex));
}

/* 2.2d E iv: the regimental guns that may fire together with infantry unit
 * i (stacked with it, owned by it, unlimbered, not yet fired, in the
 * activation), -1 if none. */
int bar_rgt_guns_with(const bar_state *s, const mk_scenario *sc, int i)
{
    const bar_ext *x = bar_x(sc);
    if (x->p[i].kind != BK_INFANTRY || s->pc[i].hex == MK_NO_HEX)
        return -1;
    for (int g = 0; g < s->npieces; g++) {
        const bar_pc *p = &s->pc[g];
        if (x->p[g].owner != i || p->hex == MK_NO_HEX || !bar_in_hex(s, sc, i, p->hex) || p->form != BAR_FM_ARTILLERY ||
            (p->status & BS_ROUTED) || (p->flags & (BF_FIRED | BF_ELIM)) || (p->more2 & BM2_BATTERY) ||
            x->p[g].fire_row < 0 || !bar_piece_active(s, sc, g) || !bar_rgt_may_fire(s, sc, g))
            continue;
        return g;
    }
    return -1;
}

/* 2.2d E vi: fire losses are never assessed against regimental guns
 * stacked with infantry "unless the player performing the Fire Combat
 * chooses to do so" (ours: the firer never chooses; Standard 12.9g is not
 * built). */
bool bar_rgt_spared(const bar_state *s, const mk_scenario *sc, int g)
{
    const bar_ext *x = bar_x(sc);
    if (!bar_is_rgt_gun(&x->p[g]) || s->pc[g].hex == MK_NO_HEX)
        return false;
    bool line;
    return infantry_sps(s, sc, s->pc[g].hex, x->p[g].side, &line) > 0;
}

/* Is regimental gun g stacked with its owning regiment? */
bool bar_rgt_with_owner(const bar_state *s, const mk_scenario *sc, int g)
{
    const bar_ext *x = bar_x(sc);
    int o = x->p[g].owner;
    return o >= 0 && bar_is_rgt_gun(&x->p[g]) && s->pc[g].hex != MK_NO_HEX && bar_alive(s, o) &&
           bar_in_hex(s, sc, o, s->pc[g].hex);   /* either hex of a two-hex regiment (2.1a, 2.1c) */
}

/* 2.2d E viii: "Regimental guns always conform to the Organizational and
 * Morale States of their owning regiment when stacked with that regiment,
 * never vice versa": each stacked gun takes its regiment's Disordered and
 * Shaken (a routing regiment takes its guns along: bar_rout_hexes). */
void bar_rgt_conform(bar_state *s, const mk_scenario *sc)
{
    const bar_ext *x = bar_x(sc);
    for (int g = 0; g < s->npieces; g++)
        if (x->p[g].owner >= 0 && bar_rgt_with_owner(s, sc, g) && !(s->pc[x->p[g].owner].status & BS_ROUTED))
            s->pc[g].status = s->pc[x->p[g].owner].status;
}

/* --- 3.2b C-D, 4.2b D: Knox, du Plessis-Mauduit, Pattison ---------------- */

/* Is piece i's Command under org anc (or, for Wayne's units, its wing)? */
static bool under_org(const bar_ext *x, int i, int anc)
{
    if (anc < 0)
        return false;
    if (x->p[i].unit >= 0 && x->oob.unit[x->p[i].unit].wing == anc)
        return true;
    for (int org = x->p[i].org, k = 0; org >= 0 && k < BAR_OOB_MAX_ORGS; k++, org = x->oob.org[org].parent)
        if (org == anc)
            return true;
    return false;
}

/* May Special Leader k (0 Knox, 1 du Plessis-Mauduit, 2 Pattison) lend his
 * ability to artillery piece j? du Plessis-Mauduit only to units of
 * Greene's Wing (3.2b D). */
static bool leader_covers(const bar_ext *x, int k, int j)
{
    return k != 1 || under_org(x, j, x->org_gre);
}

/* After activated artillery unit i fired at target: a Special Leader stacked
 * with it and in the activation makes the hex and the adjacent hexes a
 * battery for this Fire Combat Segment (3.2b C, 4.2b D). */
void bar_battery_note(bar_state *s, const mk_scenario *sc, int i, mk_hex target)
{
    const bar_ext *x = bar_x(sc);
    if (x->p[i].kind != BK_ARTILLERY)
        return;
    for (int k = 0; k < 3; k++) {
        int l = x->pc_art[k];
        if (l < 0 || !bar_alive(s, l) || s->pc[l].hex != s->pc[i].hex || x->p[l].side != x->p[i].side ||
            !bar_piece_active(s, sc, l) || !leader_covers(x, k, i))
            continue;
        s->bat_leader = (int16_t)l;
        s->bat_target = target;
        return;
    }
}

/* May artillery piece j fire with the battery now? Of the leader's side,
 * unlimbered, in his hex or next to it, not in the activation and not yet
 * activated this turn, not fired (the battery's or its own) this turn. */
bool bar_battery_may(const bar_state *s, const mk_scenario *sc, int j)
{
    const bar_ext *x = bar_x(sc);
    int l = s->bat_leader;
    if (l < 0)
        return false;
    const bar_pc *p = &s->pc[j];
    const bar_pinfo *pi = &x->p[j];
    if (pi->kind != BK_ARTILLERY || pi->side != x->p[l].side || p->hex == MK_NO_HEX || p->form != BAR_FM_ARTILLERY ||
        (p->status & BS_ROUTED) || (p->flags & (BF_FIRED | BF_ACTED | BF_ELIM)) || (p->more2 & BM2_BATTERY) ||
        pi->fire_row < 0 || mk_hex_distance(&sc->map.grid, p->hex, s->pc[l].hex) > 1)
        return false;
    if (bar_org_acted(s, pi->side, pi->org))
        return false;   /* its Command has been activated this turn */
    int k = l == x->pc_art[0] ? 0 : l == x->pc_art[1] ? 1 : 2;
    return leader_covers(x, k, j) && !bar_piece_active(s, sc, j) && bar_rgt_may_fire(s, sc, j);
}

/* The battery's fires of pieces lo..hi-1 (bar_legal_fire lists them). */
int bar_legal_battery(const bar_state *s, const mk_scenario *sc, int lo, int hi, mk_action *out, int n, int cap)
{
    for (int j = lo; j < hi && n < cap && s->bat_leader >= 0; j++) {
        if (!bar_battery_may(s, sc, j))
            continue;
        int col;
        if (bar_fire_strength_of(s, sc, j, s->bat_target, &col) >= 0 && col >= 0)
            out[n++] = (mk_action){.type = BA_FIRE, .unit = (int16_t)j, .other = -1, .target = s->bat_target};
    }
    return n;
}

/* 3.2b C, 4.2b D: "Knox also has the ability to Attach any American
 * artillery unit within 5 hexes to any American Command as described in
 * Standard Rule 6.4" (Pattison the same for the British). Standard 6.4 is
 * not in the text; ours (docs/bar.md): in the Movement Segment of an
 * activation Knox or Pattison takes part in, an artillery unit of his side
 * within 5 hexes of him that is not in the activation, whose Command has
 * not been activated this turn and that has not acted or fired this turn
 * joins the activation with its full MA (half Out of Command), for this
 * activation; it has then acted for the turn. du Plessis-Mauduit
 * "functions just like Knox", for units of Greene's Wing (3.2b D). */
static bool may_attach(const bar_state *s, const mk_scenario *sc, int l, int j)
{
    const bar_ext *x = bar_x(sc);
    const bar_pc *p = &s->pc[j];
    const bar_pinfo *pi = &x->p[j];
    if (pi->kind != BK_ARTILLERY || pi->side != x->p[l].side || p->hex == MK_NO_HEX ||
        (p->flags & (BF_ACTED | BF_ELIM | BF_FIRED)) || (p->more2 & BM2_BATTERY) || (p->status & BS_ROUTED) ||
        mk_hex_distance(&sc->map.grid, p->hex, s->pc[l].hex) > 5)
        return false;
    if (bar_org_acted(s, pi->side, pi->org))
        return false;
    return !bar_piece_active(s, sc, j);
}

int bar_legal_attach(const bar_state *s, const mk_scenario *sc, int lo, int hi, mk_action *out, int n, int cap)
{
    const bar_ext *x = bar_x(sc);
    for (int k = 0; k < 3; k++) {   /* Knox, du Plessis-Mauduit ("just like Knox": Greene's Wing), Pattison */
        int l = x->pc_art[k];
        if (l < 0 || !bar_alive(s, l) || s->pc[l].hex == MK_NO_HEX || x->p[l].side != s->side ||
            !bar_piece_active(s, sc, l))
            continue;
        for (int j = lo; j < hi && n < cap; j++)
            if (may_attach(s, sc, l, j) && leader_covers(x, k, j))
                out[n++] = (mk_action){.type = BA_ATTACH, .unit = (int16_t)j, .other = (int16_t)l,
                                       .target = s->pc[l].hex};
    }
    return n;
}

void bar_apply_attach(bar_state *s, const mk_scenario *sc, const mk_action *a, mk_events *ev)
{
    const bar_ext *x = bar_x(sc);
    bar_pc *p = &s->pc[a->unit];
    int mp = x->p[a->unit].mp_half;
    p->flags &= (uint8_t)~(BF_FIRED | BF_CC | BF_OOC);
    p->flags |= BF_ACTED | BF_MOVED | BF_FULL;
    if (!s->in_command) {   /* as the Command's own units (Series 7.6c) */
        mp = mp * x->se.ooc_mp_pct / 100;
        p->flags |= BF_OOC;
    }
    p->mp = (int8_t)(mp > 127 ? 127 : mp);
    p->road = 0;
    p->spent = 0;
    p->more &= (uint8_t)~BM_OFF_ROAD;
    p->more2 &= (uint8_t)~(BM2_PRO1 | BM2_PRO2);
    mk_event *e = bar_ev(ev, "attach", x->p[a->other].side == BAR_AMERICAN ? "Monmouth 3.2b C (Standard 6.4: ours)"
                                                                          : "Monmouth 4.2b D (Standard 6.4: ours)");
    e->unit = a->unit;
    e->other = a->other;
}
