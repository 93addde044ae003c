/* command.c - leaders in play: effective ratings (2.4b: a replacement's
 * Leader Loss counter), Army Leader succession (3.2a B, 4.2a B),
 * replacement of Command Leaders (2.4b, 3.2a C, 4.2a C), Lee as Army and
 * Detachment Leader with his Command Range roll and Out of Command table
 * (3.2b G), Washington relieving him (3.2b G i), and rifle sniping (2.6b).
 *
 * Ours (docs/bar.md): a replacement Command Leader appears at once with a
 * unit of his Command; a wounded Army Leader is simply absent (no
 * temporary successor); a killed Wing/Detachment Leader, or one who
 * becomes the Army Leader, is succeeded by the most senior Command (and,
 * American, Special) Leader of his Wing on the map (3.2a C, 4.2a C), who
 * heads the Wing and keeps his own Command. */
#include <string.h>

#include "rules/bar/bar_int.h"

static const bar_leader *oob_leader(const mk_scenario *sc, int l)
{
    const bar_ext *x = bar_x(sc);
    return x->p[l].leader >= 0 ? &x->oob.leader[x->p[l].leader] : NULL;
}

int bar_army_leader(const bar_state *s, int side)
{
    return s->army[side];
}

bar_lv bar_leader_values_of(const bar_state *s, const mk_scenario *sc, int l)
{
    const bar_ext *x = bar_x(sc);
    const bar_pinfo *p = &x->p[l];
    bar_lv v = {p->initiative, p->range, p->er_bonus, p->cv_bonus, p->cr, p->wan};
    if (s->pc[l].ctr > 0) {   /* 2.4b B */
        int set = p->loss_set == 'B';
        bar_leader_values o = {p->er_bonus, p->initiative, p->cv_bonus};
        bar_leader_values n = bar_apply_loss_counter(o, &x->lc.set[set][s->pc[l].ctr - 1]);
        v.er_bonus = n.er_bonus;
        v.initiative = n.initiative;
        v.cv_bonus = n.cv_bonus;
    }
    if (l == s->army[p->side]) {
        v.cr = s->army_cr[p->side];
        v.wan = s->army_wan[p->side];
    }
    return v;
}

static int lee_piece(const mk_scenario *sc)
{
    return bar_x(sc)->pc_lee;
}

void bar_command_init(bar_state *s, const mk_scenario *sc)
{
    const bar_ext *x = bar_x(sc);
    for (int side = 0; side < 2; side++) {
        int a = x->army_leader[side];
        s->army[side] = (int16_t)a;
        s->army_wan[side] = (int8_t)(a >= 0 ? x->p[a].wan : 9);
        s->army_cr[side] = (int8_t)(a >= 0 ? x->p[a].cr : 0);
    }
    /* 3.2b G i: Lee is the American Army Leader until relieved */
    int lee = lee_piece(sc);
    if (lee >= 0 && x->sw_lee) {
        s->army[BAR_AMERICAN] = (int16_t)lee;
        s->army_wan[BAR_AMERICAN] = x->p[lee].wan;
        s->army_cr[BAR_AMERICAN] = x->p[lee].cr;
    }
}

static bool org_under(const bar_oob *o, int org, int anc)
{
    for (int k = 0; org >= 0 && k < BAR_OOB_MAX_ORGS; k++, org = o->org[org].parent)
        if (org == anc)
            return true;
    return false;
}

static bool ready(const bar_state *s, int l)
{
    return l >= 0 && bar_alive(s, l) && s->pc[l].hex != MK_NO_HEX;
}

static bar_role role_of(int leader_role)
{
    switch (leader_role) {
    case BAR_LR_ARMY: return BAR_ROLE_ARMY;
    case BAR_LR_WING:
    case BAR_LR_DETACHMENT: return BAR_ROLE_WING;
    case BAR_LR_SPECIAL: return BAR_ROLE_SPECIAL;
    default: return BAR_ROLE_COMMAND;
    }
}

/* 3.2a C, 4.2a C: the Wing (oob org) leader l heads: the one he succeeded
 * to, or his own as Wing or Detachment Leader; -1 none. */
int bar_wing_of(const bar_state *s, const mk_scenario *sc, int l)
{
    for (int k = 0; k < BAR_MAX_SUCC; k++)
        if (s->succ_wing[k] >= 0 && s->succ[k] == l)
            return s->succ_wing[k];
    const bar_pinfo *p = &bar_x(sc)->p[l];
    return p->role == BAR_LR_WING || p->role == BAR_LR_DETACHMENT ? p->org : -1;
}

/* 3.2a C, 4.2a C: l (killed, or the new Army Leader) leaves his Wing: the
 * most senior available Special Leader (American) or Command Leader that
 * is part of it succeeds him (ours: "available" as for 3.2a B, on the map
 * and not wounded; a replacement's Leader Loss counter is in no line of
 * seniority; the successor keeps his Command, which gets no new leader,
 * and heads a Detachment his predecessor headed). */
static void wing_succession(bar_state *s, const mk_scenario *sc, int l, mk_events *ev)
{
    const bar_ext *x = bar_x(sc);
    int wing = bar_wing_of(s, sc, l), side = x->p[l].side;
    if (wing < 0)
        return;
    for (int k = 0; k < BAR_MAX_SUCC; k++)
        if (s->succ_wing[k] >= 0 && s->succ[k] == l)
            s->succ_wing[k] = -1;   /* his slot is free again */
    bar_cand cand[MK_MAX_UNITS];
    int16_t who[MK_MAX_UNITS];
    int n = 0;
    for (int j = 0; j < s->npieces; j++) {
        const bar_pinfo *p = &x->p[j];
        if (j == l || !bar_is_leader(p) || p->side != side || !oob_leader(sc, j) || p->org < 0 ||
            s->pc[j].ctr > 0 || j == s->army[side] || bar_wing_of(s, sc, j) >= 0)
            continue;
        cand[n] = (bar_cand){oob_leader(sc, j)->name, role_of(p->role),
                             p->org != wing && org_under(&x->oob, p->org, wing) ? wing : -1, ready(s, j)};
        who[n++] = (int16_t)j;
    }
    int k = bar_wing_successor(side, wing, cand, n), slot = -1;
    for (int q = 0; q < BAR_MAX_SUCC && slot < 0; q++)
        if (s->succ_wing[q] < 0)
            slot = q;
    mk_event *e = bar_ev(ev, "wing_leader", side == BAR_AMERICAN ? "Monmouth 3.2a C" : "Monmouth 4.2a C");
    e->side = (int16_t)side;
    e->other = (int16_t)l;
    e->text = x->oob.org[wing].id;
    if (k < 0 || slot < 0) {   /* none available: the Wing has no leader */
        if (s->det[side] == l)
            s->det[side] = -1;
        return;
    }
    s->succ[slot] = who[k];
    s->succ_wing[slot] = (int8_t)wing;
    e->unit = who[k];
    if (s->det[side] == l)
        s->det[side] = who[k];
}

/* A leader is killed or wounded (6.6, 2.6b). */
void bar_leader_hit(bar_state *s, const mk_scenario *sc, int l, bool killed, mk_events *ev)
{
    const bar_ext *x = bar_x(sc);
    const bar_leader *L = oob_leader(sc, l);
    int side = x->p[l].side;
    bar_pc *p = &s->pc[l];
    mk_hex where = p->hex;
    p->hex = MK_NO_HEX;
    if (!killed) {
        p->wounded = (int8_t)bar_wound_turns(mk_rng_d10(&s->head.rng));
        if (p->wounded < 1)
            p->wounded = 1;
        mk_event *e = bar_ev(ev, "wounded", "Monmouth 6.6e");
        e->unit = (int16_t)l;
        e->value = p->wounded;
        return;
    }
    p->flags |= BF_ELIM;
    /* 2.4c: his loss value (a replacement's: the replaced leader's - 2) */
    int v = bar_leader_loss_value(x->p[l].loss_value, p->ctr > 0);
    s->loss[side] = (int16_t)(s->loss[side] + v);
    mk_event *e = bar_ev(ev, "killed", "Monmouth 2.4c");
    e->unit = (int16_t)l;
    e->value = (int16_t)v;
    if (l == s->army[side]) {   /* 3.2a B, 4.2a B: the most senior available */
        bar_cand cand[MK_MAX_UNITS];
        int16_t who[MK_MAX_UNITS];
        int n = 0;
        for (int j = 0; j < s->npieces; j++) {
            if (j == l || !bar_is_leader(&x->p[j]) || x->p[j].side != side || !oob_leader(sc, j))
                continue;
            cand[n] = (bar_cand){oob_leader(sc, j)->name, role_of(x->p[j].role), -1, ready(s, j)};
            who[n++] = (int16_t)j;
        }
        int k = bar_army_successor(side, cand, n);
        wing_succession(s, sc, l, ev);   /* (Lee: Army and Detachment Leader, 3.2b G) */
        if (k >= 0) {
            int wan, cr;
            s->army[side] = who[k];
            wing_succession(s, sc, who[k], ev);   /* 3.2a C: "or becomes the Army Leader" */
            bar_replacement_army_leader(side, cand[k].name, &wan, &cr);
            s->army_wan[side] = (int8_t)wan;
            s->army_cr[side] = (int8_t)cr;
            mk_event *su = bar_ev(ev, "army_leader", side ? "Monmouth 4.2a B" : "Monmouth 3.2a B");
            su->unit = who[k];
        } else {
            s->army[side] = -1;
        }
        return;
    }
    wing_succession(s, sc, l, ev);   /* 3.2a C, 4.2a C */
    /* 2.4b: a Command Leader is replaced by a Leader Loss counter */
    if (x->p[l].role != BAR_LR_COMMAND || !L || !bar_leader_replaceable(side, L->name) || x->p[l].org < 0)
        return;
    int set = x->p[l].loss_set == 'B';
    if (x->lc.n[set] <= 0)
        return;
    mk_hex h = MK_NO_HEX;
    for (int j = 0; j < s->npieces && h == MK_NO_HEX; j++)
        if (!bar_is_leader(&x->p[j]) && x->p[j].org == x->p[l].org && s->pc[j].hex != MK_NO_HEX)
            h = s->pc[j].hex;
    if (h == MK_NO_HEX)
        h = where;
    int die = mk_rng_d10(&s->head.rng);
    p->ctr = (int8_t)(die % x->lc.n[set] + 1);
    p->flags &= (uint8_t)~BF_ELIM;
    p->hex = h;
    mk_event *r = bar_ev(ev, "replacement", "Monmouth 2.4b");
    r->unit = (int16_t)l;
    r->die = 10;
    r->value = (int16_t)die;
    r->text = x->lc.set[set][p->ctr - 1].id;
}

/* 3.2b G: does Lee (as Detachment Leader) command this Command now? */
bool bar_lee_commands(const bar_state *s, const mk_scenario *sc, int org)
{
    const bar_ext *x = bar_x(sc);
    int lee = lee_piece(sc);
    if (lee < 0 || s->lee_relieved || !ready(s, lee) || !x->sw_lee)
        return false;
    if (org == -2)
        return true;   /* asked only whether Lee's Detachment is in play */
    if (org >= 0 && org < 64 && (s->ac_ste >> org & 1))
        return false;   /* 7.4a H: back under von Steuben's Wing */
    int lorg = x->p[lee].org;
    return lorg >= 0 && org != lorg && org_under(&x->oob, org, lorg) &&
           x->oob.org[org].side == BAR_AMERICAN;
}

/* 3.2b G ii-iii: Lee's die for his Command Range (full on a roll at most
 * his Initiative, else 1 hex); the Command is in his LOC when its leader is
 * within that range, or (Wayne's Wing) within Wayne's range with Wayne in
 * Lee's. Returns 1 in command, 0 to roll the Command Leader as usual. */
int bar_lee_activation(bar_state *s, const mk_scenario *sc, int org, mk_events *ev)
{
    const bar_ext *x = bar_x(sc);
    const mk_grid *g = &sc->map.grid;
    int lee = lee_piece(sc), l = bar_org_leader(sc, org);
    bar_lv lv = bar_leader_values_of(s, sc, lee);
    int die = mk_rng_d10(&s->head.rng);
    s->lee_range = (int8_t)(die <= lv.initiative ? lv.range : 1);
    mk_event *e = bar_ev(ev, "roll", "Monmouth 3.2b G ii");
    e->purpose = "lee_command_range";
    e->unit = (int16_t)lee;
    e->die = 10;
    e->value = (int16_t)die;
    e->need = (int16_t)lv.initiative;
    e->passed = die <= lv.initiative;
    e->points = s->lee_range;
    if (!ready(s, l))
        return 0;
    if (mk_hex_distance(g, s->pc[l].hex, s->pc[lee].hex) <= s->lee_range)
        return 1;
    int way = x->pc_way;
    bool wing = false;   /* 3.2b E: Wayne's Wing, by the units' Wing (oob "wing"); 7.4a H: a
                          * unit that left the map is no longer of it */
    for (int i = 0; way >= 0 && i < s->npieces && !wing; i++) {
        const bar_pinfo *p = &x->p[i];
        wing = p->unit >= 0 && !bar_is_leader(p) && x->oob.unit[p->unit].command == org &&
               x->oob.unit[p->unit].wing == x->p[way].org && !(s->pc[i].more & BM_EXITED);
    }
    if (way >= 0 && ready(s, way) && x->p[way].org >= 0 && wing &&
        mk_hex_distance(g, s->pc[way].hex, s->pc[lee].hex) <= s->lee_range &&
        mk_hex_distance(g, s->pc[l].hex, s->pc[way].hex) <= x->p[way].range)
        return 1;   /* iii: Wayne extends Lee's LOC to his Wing */
    return 0;
}

/* 3.2b G iv-v: a Command of Lee's Detachment that failed its Initiative
 * rolls a die for the extra penalties, applied to its units in its
 * leader's LOC (and the leader). */
void bar_lee_ooc_penalty(bar_state *s, const mk_scenario *sc, int org, mk_events *ev)
{
    const bar_ext *x = bar_x(sc);
    if (!bar_lee_ooc_applies(x->scenario, s->turn, s->lee_relieved))
        return;
    int l = bar_org_leader(sc, org);
    int die = mk_rng_d10(&s->head.rng);
    mk_event *e = bar_ev(ev, "roll", "Monmouth 3.2b G iv");
    e->purpose = "lee_out_of_command";
    e->unit = (int16_t)l;
    e->die = 10;
    e->value = (int16_t)die;
    for (int i = 0; i < s->npieces; i++) {
        bar_pc *p = &s->pc[i];
        if (x->p[i].org != org || bar_is_leader(&x->p[i]) || p->hex == MK_NO_HEX)
            continue;
        if (ready(s, l) && mk_hex_distance(&sc->map.grid, p->hex, s->pc[l].hex) > x->p[l].range)
            continue;
        bar_ooc_effect eff;
        bar_rout now = !(p->status & BS_ROUTED) ? BAR_ROUT_NONE
                       : (p->more & BM_VOL_ROUT) ? BAR_ROUT_VOLUNTARY
                                                 : BAR_ROUT_INVOLUNTARY;
        bar_lee_ooc(die, bar_ma_half(s, sc, i) / 2, now, &eff);
        e->text = eff.kind == BAR_OOC_HALF_MP ? "half MPs"
                  : eff.kind == BAR_OOC_LIMITED ? "limited activation"
                  : eff.kind == BAR_OOC_NO_MP   ? "no MPs"
                  : eff.kind == BAR_OOC_ROUT    ? "rout retreat of 8 hexes"
                                                : "no extra penalty";
        if (eff.mp >= 0 && p->mp > 2 * eff.mp)
            p->mp = (int8_t)(2 * eff.mp);
        if (eff.kind == BAR_OOC_ROUT)
            bar_rout_hexes(s, sc, i, eff.rout_hexes, eff.rout == BAR_ROUT_VOLUNTARY, ev);
    }
}

/* 3.2b G i: in scenarios 3 and 4 Washington relieves Lee on entering his
 * hex: Lee leaves play (no loss, no replacement) and Washington is the
 * Army Leader. */
void bar_lee_joined(bar_state *s, const mk_scenario *sc, int moved, mk_events *ev)
{
    const bar_ext *x = bar_x(sc);
    int lee = lee_piece(sc), gw = x->pc_gw;
    if (x->scenario == 1 || s->lee_relieved || moved != gw || lee < 0 || !ready(s, lee) ||
        gw < 0 || s->pc[gw].hex != s->pc[lee].hex || !x->sw_lee)
        return;
    s->lee_relieved = true;
    s->pc[lee].hex = MK_NO_HEX;
    s->pc[lee].flags |= BF_ELIM;
    s->army[BAR_AMERICAN] = (int16_t)gw;
    s->army_wan[BAR_AMERICAN] = x->p[gw].wan;
    s->army_cr[BAR_AMERICAN] = x->p[gw].cr;
    mk_event *e = bar_ev(ev, "lee_relieved", "Monmouth 3.2b G i");
    e->unit = (int16_t)gw;
    e->other = (int16_t)lee;
}

/* --- 2.6b rifle sniping -------------------------------------------------- */

static bool is_rifle(const bar_pinfo *p)
{
    return p->type == BAR_UT_RIFLE || p->type == BAR_UT_JAEGER || p->type == BAR_UT_CHASSEUR;
}

static bool sniped(const bar_state *s, int unit, int leader)
{
    for (int k = 0; k < s->nsnipe; k++)
        if (s->snipe[k][0] == unit && s->snipe[k][1] == leader)
            return true;
    return false;
}

typedef struct los_ctx {
    const bar_state *s;
    const mk_scenario *sc;
    mk_hex from, to;
} los_ctx;

static bool blocks(mk_hex h, const void *vctx)
{
    const los_ctx *c = vctx;
    return h != c->from && h != c->to && bar_unit_at(c->s, c->sc, h, -1, false);
}

int bar_legal_snipe(const bar_state *s, const mk_scenario *sc, mk_action *out, int n, int cap)
{
    const bar_ext *x = bar_x(sc);
    int reach = bar_snipe_max_range(bar_light_of(s->turn));
    for (int i = 0; i < s->npieces && n < cap; i++) {
        const bar_pc *p = &s->pc[i];
        if (!is_rifle(&x->p[i]) || p->hex == MK_NO_HEX || (p->status & BS_ROUTED) || !bar_piece_active(s, sc, i) ||
            s->nsnipe >= 16 || bar_mounted(s, sc, i))   /* (the Mounted Jaegers mounted do not fire: ours) */
            continue;
        for (int j = 0; j < s->npieces && n < cap; j++) {
            mk_hex h = s->pc[j].hex;
            if (h == MK_NO_HEX || !bar_is_leader(&x->p[j]) || x->p[j].side == x->p[i].side || sniped(s, i, j))
                continue;
            int r = mk_hex_distance(&sc->map.grid, p->hex, h);
            if (r < 1 || r > reach || !bar_is_front(s, sc, i, h))
                continue;
            if (r > 1) {
                los_ctx c = {s, sc, p->hex, h};
                bar_los_result lr;
                mk_error err;
                if (bar_los(&x->map, p->hex, h, blocks, &c, &lr, &err) < 0 || !lr.clear)
                    continue;
            }
            out[n++] = (mk_action){.type = BA_SNIPE, .unit = (int16_t)i, .other = (int16_t)j, .target = h};
        }
    }
    return n;
}

int bar_apply_snipe(bar_state *s, const mk_scenario *sc, const mk_action *a, mk_events *ev)
{
    int i = a->unit, l = a->other;
    int range = mk_hex_distance(&sc->map.grid, s->pc[i].hex, s->pc[l].hex);
    s->snipe[s->nsnipe][0] = (int16_t)i;
    s->snipe[s->nsnipe][1] = (int16_t)l;
    s->nsnipe++;
    s->pc[i].flags |= BF_MOVED;
    int roll = mk_rng_d100(&s->head.rng);
    mk_event *e = bar_ev(ev, "roll", "Monmouth 2.6b");
    e->purpose = "sniping";
    e->unit = (int16_t)i;
    e->other = (int16_t)l;
    e->die = 100;
    e->value = (int16_t)roll;
    e->need = (int16_t)bar_snipe_need(range);
    bar_snipe_result r = BAR_SNIPE_MISS;
    if (roll >= bar_snipe_need(range)) {
        int die = mk_rng_d10(&s->head.rng);
        bar_snipe(range, roll, die, &r);
        mk_event_value(e, die);
    }
    e->passed = r != BAR_SNIPE_MISS;
    e->text = r == BAR_SNIPE_KILLED ? "killed" : r == BAR_SNIPE_WOUNDED ? "wounded" : "missed";
    if (r != BAR_SNIPE_MISS)
        bar_leader_hit(s, sc, l, r == BAR_SNIPE_KILLED, ev);
    return 0;
}
