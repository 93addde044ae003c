/* turn.c - the turn: initiative for the first activation, Command
 * activation with the leader's Initiative roll and its special results
 * (6.2a-g: the choices they wait for, the special segments of 6.2d and
 * 6.2f), the Loyalist Corps' own Initiative (7.4a I), the Advanced Corps'
 * reorganisation and return (7.4a G-H), Wing Activations as two Commands (2.4a), the End Turn track (1.2d,
 * 7.x A), the Rally Phase, the hourly Army Morale Check (1.2a C), wounded
 * leaders' return (6.6e), reinforcements (7.0c: they enter by the `enter`
 * action during their Command's activation) and victory (7.1d-7.4d).
 *
 * Ours (docs/bar.md "The game"; numbers in data/bar/series.json): who
 * activates first (each side d10 + its Army Leader's Command Rating,
 * re-rolling ties), then the sides alternate; the End Turn roll; the
 * Initiative roll (the natural 00-99 roll's special range is the chart's,
 * otherwise the tens die at most the leader's Initiative passes; a Command
 * Leader within his Army Leader's Command Range needs no roll); the Wing
 * Activation roll (a d10 at least the Army Leader's WAN: WAN 7 for
 * Washington and Clinton, 9 for a replacement, 3.2a B, 4.2a B). */
#include <stdio.h>
#include <string.h>

#include "rules/bar/bar_int.h"

static bool leader_ready(const bar_state *s, int l)
{
    return l >= 0 && bar_alive(s, l) && s->pc[l].hex != MK_NO_HEX;
}

static bool org_under(const bar_oob *o, int org, int anc)
{
    for (int k = 0; org >= 0 && k < BAR_OOB_MAX_ORGS; k++, org = o->org[org].parent)
        if (org == anc)
            return true;
    return false;
}

/* --- Monmouth 7.4a G-H: the Advanced Corps (scenario 4) ---------------- */

bool bar_ac_member(const bar_state *s, const mk_scenario *sc, int i)
{
    const bar_ext *x = bar_x(sc);
    (void)s;
    return x->scenario == 4 && x->org_lee >= 0 && x->p[i].side == BAR_AMERICAN && x->p[i].org >= 0 &&
           org_under(&x->oob, x->p[i].org, x->org_lee);
}

/* G: "before any Night turns occur" */
bool bar_ac_exit_open(const bar_state *s, const mk_scenario *sc)
{
    const bar_ext *x = bar_x(sc);
    return x->scenario == 4 && x->org_lee >= 0 && s->turn < x->first_night;
}

/* H: "Beginning with the 5:00 AM, June 29th turn" */
bool bar_ac_reenters(const bar_state *s, const mk_scenario *sc, int i)
{
    return (s->pc[i].more & BM_EXITED) && !(s->pc[i].flags & BF_ELIM) && bar_ac_member(s, sc, i) &&
           s->turn >= bar_turn_of(29, 5, 0);
}

/* G: in the Army Morale Check Phase of a Night or Moonlit turn, just before
 * the American check, each infantry or cavalry unit of the Advanced Corps
 * that left the map (BA_EXIT "advanced_corps") is reorganized, once a game:
 * Good Order; a unit that lost SPs and is not eliminated recovers one on a
 * die at most its losses so far (the roster and the Army Loss Record
 * amended). Ours: at the first such phase after it left (the text gives
 * the American player the choice of turn; waiting gains nothing: a unit
 * off the map loses no more). */
static void ac_reorganize(bar_state *s, const mk_scenario *sc, mk_events *ev)
{
    const bar_ext *x = bar_x(sc);
    bar_light l = bar_light_of(s->turn);
    if (x->scenario != 4 || (l != BAR_NIGHT && l != BAR_MOONLIT))
        return;
    for (int i = 0; i < s->npieces; i++) {
        bar_pc *p = &s->pc[i];
        if (!(p->more & BM_EXITED) || (p->flags & BF_ELIM) || p->back == 1 || bar_is_leader(&x->p[i]) ||
            x->p[i].kind == BK_ARTILLERY || !bar_ac_member(s, sc, i))
            continue;
        p->back = 1;
        p->status = 0;
        mk_event *e = bar_ev(ev, "reorganized", "Monmouth 7.4a G");
        e->unit = (int16_t)i;
        int lost = x->p[i].sp - p->sp;
        if (lost < 1 || p->sp <= 0)
            continue;
        int die = mk_rng_d10(&s->head.rng);
        e->die = 10;
        e->value = (int16_t)die;
        e->need = (int16_t)lost;
        e->passed = die <= lost;
        if (die <= lost) {
            p->sp++;
            s->loss[BAR_AMERICAN]--;
            s->sp_lost[BAR_AMERICAN]--;
        }
    }
}

static bool can_enter_now(const bar_state *s, const bar_ext *x, int i)
{
    if (s->pc[i].more & BM_OFFMAP)   /* 3.4c */
        return s->turn >= s->pc[i].back && !(s->pc[i].flags & BF_ELIM);
    return x->p[i].arrive >= 0 && x->p[i].arrive <= s->turn && !(s->pc[i].flags & (BF_ON | BF_ELIM)) &&
           !(s->pc[i].more & BM_GUARD);   /* 7.4a F i: the guard never enters */
}

bool bar_org_can_activate(const bar_state *s, const mk_scenario *sc, int side, int org)
{
    const bar_ext *x = bar_x(sc);
    if (org < 0 || org >= x->oob.norgs || (s->acted[side] >> org) & 1)
        return false;
    int k = x->oob.org[org].kind;
    if (x->oob.org[org].side != side)
        return false;
    if (k == BAR_ORG_ARMY) {
        /* Monmouth 4.2b A: in the 10:00 and 10:20 AM turns Clinton
         * activates himself and the Independents on the map */
        if (side != BAR_BRITISH || s->turn > x->first_turn + 1 ||
            !x->sw_clinton ||
            !leader_ready(s, bar_army_leader(s, side)))
            return false;
        for (int i = 0; i < s->npieces; i++)
            if (x->p[i].side == side && x->p[i].independent && s->pc[i].hex != MK_NO_HEX &&
                !(s->pc[i].flags & BF_ACTED))
                return true;
        return false;
    }
    if (k != BAR_ORG_COMMAND && k != BAR_ORG_INDEPENDENT_COMMAND)
        return false;
    for (int i = 0; i < s->npieces; i++) {
        if (x->p[i].org != org || bar_is_leader(&x->p[i]) || !bar_alive(s, i))
            continue;
        /* 3.4c B: a Command wholly off the map still activates */
        if (s->pc[i].hex != MK_NO_HEX || can_enter_now(s, x, i) || (s->pc[i].more & BM_OFFMAP) ||
            bar_ac_reenters(s, sc, i))   /* 7.4a H */
            return true;
    }
    return false;
}

static bool side_can_activate(const bar_state *s, const mk_scenario *sc, int side)
{
    for (int o = 0; o < bar_x(sc)->oob.norgs; o++)
        if (bar_org_can_activate(s, sc, side, o))
            return true;
    return false;
}

/* 7.4a H: Wayne keeps his Division (the units of his Wing, oob "wing")
 * while one of them has neither left the map with the Advanced Corps nor
 * come back under von Steuben (a unit lost in combat is still his: "due
 * to this"); without one he is "a Special Leader with no special
 * abilities" (ours: he may not head a Detachment, 3.3; his 3.2b G iii
 * extension needs his Wing's Commands anyway). */
static bool wayne_has_division(const bar_state *s, const mk_scenario *sc)
{
    const bar_ext *x = bar_x(sc);
    int way = x->pc_way;
    if (way < 0 || x->p[way].org < 0)
        return false;
    for (int i = 0; i < s->npieces; i++) {
        const bar_pinfo *p = &x->p[i];
        if (bar_is_leader(p) || p->unit < 0 || x->oob.unit[p->unit].wing != x->p[way].org ||
            (s->pc[i].more & BM_EXITED) || (p->org >= 0 && p->org < 64 && (s->ac_ste >> p->org & 1)))
            continue;
        return true;
    }
    return false;
}

/* 3.3, 4.3: may leader w head a Detachment now? A Wing Leader (American:
 * also Wayne and von Steuben) outside the Army Leader's Command Range, in
 * a scenario that allows it, with none in play (Lee's counts, 3.3). */
static bool may_detach(const bar_state *s, const mk_scenario *sc, int side, int w)
{
    const bar_ext *x = bar_x(sc);
    const bar_pinfo *p = &x->p[w];
    int army = bar_army_leader(s, side);
    if (!bar_is_leader(p) || p->side != side || !leader_ready(s, w) || !leader_ready(s, army) || w == army ||
        s->det[side] >= 0 || p->org < 0 ||
        !x->sw_det[side])
        return false;
    if (side == BAR_AMERICAN && bar_lee_commands(s, sc, -2))
        return false;   /* Lee's Detachment is in play */
    bool wing = bar_wing_of(s, sc, w) >= 0 ||   /* (3.3: "or their replacements", 3.2a C) */
                (side == BAR_AMERICAN && p->role == BAR_LR_SPECIAL &&
                 ((w == x->pc_way && wayne_has_division(s, sc)) || w == x->pc_ste));
    return wing && mk_hex_distance(&sc->map.grid, s->pc[w].hex, s->pc[army].hex) >
                       bar_leader_values_of(s, sc, army).range;
}

int bar_legal_activate(const bar_state *s, const mk_scenario *sc, mk_action *out, int cap)
{
    const bar_ext *x = bar_x(sc);
    int n = 0, norgs = 0;
    for (int w = 0; w < s->npieces && n < cap; w++)   /* 3.3, 4.3 */
        if (may_detach(s, sc, s->side, w))
            out[n++] = (mk_action){.type = BA_DETACH, .unit = (int16_t)w, .other = -1, .target = -1};
    bool can[BAR_OOB_MAX_ORGS];   /* asked once per Command: each asks every piece */
    for (int o = 0; o < x->oob.norgs; o++)
        norgs += can[o] = bar_org_can_activate(s, sc, s->side, o);
    int army = bar_army_leader(s, s->side);
    bool wing = norgs > 1 && s->bonus == 0 && leader_ready(s, army) && bar_leader_values_of(s, sc, army).wan > 0;
    for (int o = 0; o < x->oob.norgs && n < cap; o++) {
        if (!can[o])
            continue;
        out[n++] = (mk_action){.type = BA_ACTIVATE, .unit = -1, .other = (int16_t)o, .target = -1};
        if (wing && n < cap)
            out[n++] = (mk_action){.type = BA_ACTIVATE, .flags = BAF_WING, .unit = -1, .other = (int16_t)o,
                                   .target = -1};
    }
    return n;
}

/* 1.2a C, 6.2a: the Army Morale Check of a side: the loss level its Army
 * Loss Record has reached and a die (less the Army Leader's Command
 * Rating) give the modifier every check of that side carries from now.
 * Monmouth 6.2a A: the Army Leader applies the Command Rating he has left
 * this hour and it is spent until the next :00 turn (ours: he always
 * applies all of it, and the hourly check draws on the same points);
 * 6.2b A: not while his LOC has lapsed. special: the '00' check (6.2a A:
 * the chart's -1; 6.2a C: a natural 0 lowers the modifier by 5, not below
 * 0). */
static void army_morale(bar_state *s, const mk_scenario *sc, int side, bool special, mk_events *ev)
{
    const bar_ext *x = bar_x(sc);
    int boxes = s->loss[side] + bar_artillery_loss_boxes(s->art_lost[side][0], s->art_lost[side][1]);
    int level = bar_army_loss_level(&x->ch, side, boxes);
    if (level < 0)
        return;   /* 6.2a A: no triggering loss level reached, no check */
    int army = bar_army_leader(s, side);
    int die = mk_rng_d10(&s->head.rng);
    int cr = leader_ready(s, army) && !(s->sr_turn & (BST_LAPSE << side)) ? bar_leader_values_of(s, sc, army).cr : 0;
    if (cr > 0) {   /* 6.2a A: only the points not yet used this hour */
        int left = cr - s->cr_used[side];
        cr = left > 0 ? left : 0;
        s->cr_used[side] = (int8_t)(s->cr_used[side] + cr);
    }
    int extra = special ? x->ch.army_morale.special_00 : 0;
    int mod = die + extra - cr;
    mk_event *e = bar_ev(ev, "roll", special ? "Monmouth 6.2a" : "Monmouth 1.2a C");
    e->purpose = "army_morale";
    e->side = (int16_t)side;
    e->die = 10;
    e->value = (int16_t)die;
    e->points = (int16_t)boxes;
    e->other = (int16_t)cr;
    if (special && die == 0) {   /* 6.2a C: fresh courage */
        int m = s->army_mod[side] + x->ch.army_morale.natural_0;
        s->army_mod[side] = (int8_t)(m > 0 ? m : 0);
        e->text = "fresh courage (6.2a C)";
    } else {
        s->army_mod[side] = (int8_t)bar_army_morale_modifier(&x->ch, level, mod);
    }
    e->need = s->army_mod[side];
    if (extra)
        mk_event_mod(e, extra, "Initiative special result: Army Morale (6.2a A)");
    if (cr)
        mk_event_mod(e, -cr, "the Army Leader's Command Rating left this hour (6.2a A)");
}

/* Monmouth 7.4a I: a Loyalist Corps unit is In Command only when it passes
 * an Initiative roll (Series 7.4c), even in a Command Leader's LOC. Ours:
 * each one taking part in the activation (bar_piece_active; not one that
 * has acted this turn) rolls at its start as a Command Leader does (the
 * tens die of a d100 at most the activating Command Leader's Initiative;
 * 00-09 no special result); its own roll decides, whatever the Command's;
 * with no Command Leader on the map it is Out of Command. Bits of `in` (a
 * piece a bit): passed; of `rolled`: an LC unit of this activation. */
#define BAR_PIECE_WORDS ((BAR_MAX_PIECES + 63) / 64)
static void loyalist_initiative(bar_state *s, const mk_scenario *sc, uint64_t *in, uint64_t *rolled,
                                mk_events *ev)
{
    const bar_ext *x = bar_x(sc);
    memset(in, 0, BAR_PIECE_WORDS * sizeof *in);
    memset(rolled, 0, BAR_PIECE_WORDS * sizeof *rolled);
    if (x->org_lc < 0 || s->sr_mode)
        return;   /* (a special segment of 6.2d-f is no activation: ours) */
    int l = bar_org_leader(sc, s->org);
    for (int i = 0; i < s->npieces && i < BAR_MAX_PIECES; i++) {
        if (x->p[i].org != x->org_lc || bar_is_leader(&x->p[i]) || (s->pc[i].flags & BF_ACTED) ||
            !bar_piece_active(s, sc, i))
            continue;
        rolled[i >> 6] |= 1ull << (i & 63);
        if (!leader_ready(s, l))
            continue;
        int roll = mk_rng_d100(&s->head.rng);
        mk_event *e = bar_ev(ev, "roll", "Monmouth 7.4a I (Series 7.4c)");
        e->purpose = "loyalist_initiative";
        e->unit = (int16_t)i;
        e->other = (int16_t)l;
        e->die = 100;
        e->value = (int16_t)roll;
        e->need = (int16_t)bar_leader_values_of(s, sc, l).initiative;
        e->passed = roll / 10 <= e->need;
        if (e->passed)
            in[i >> 6] |= 1ull << (i & 63);
    }
}

/* The activation's MPs; lc_in, lc_rolled: loyalist_initiative's (NULL: none). */
static void set_activation_mp(bar_state *s, const mk_scenario *sc, const uint64_t *lc_in, const uint64_t *lc_rolled)
{
    const bar_ext *x = bar_x(sc);
    bool limits = x->initial_limits && !s->limits_off &&
                  s->turn <= x->first_turn + 2;
    for (int i = 0; i < s->npieces; i++) {
        bar_pc *p = &s->pc[i];
        p->flags &= (uint8_t)~(BF_FIRED | BF_CC | BF_OOC | BF_MOVED | BF_FULL);
        p->mp = 0;
        p->road = 0;
        p->spent = 0;
        p->more &= (uint8_t)~BM_OFF_ROAD;
        p->more2 &= (uint8_t)~(BM2_PRO1 | BM2_PRO2);
        if (!bar_piece_active(s, sc, i))
            continue;
        const bar_pinfo *pi = &x->p[i];
        int mp = bar_ma_half(s, sc, i);   /* 4.1b E, 7.4a C */
        bool in = s->in_command;
        if (lc_rolled && i < BAR_MAX_PIECES && (lc_rolled[i >> 6] >> (i & 63) & 1))
            in = lc_in[i >> 6] >> (i & 63) & 1;   /* 7.4a I */
        if (!bar_is_leader(pi) && !in && !(p->status & BS_ROUTED)) {
            mp = mp * x->se.ooc_mp_pct / 100;
            p->flags |= BF_OOC;
        }
        /* Monmouth 6.2c A: one roll of two passed: half the MPs, a quarter
         * for a Disordered unit (ours: rounded down to a half MP) */
        if (!bar_is_leader(pi) && s->in_command == BIC_LIMITED && !(p->status & BS_ROUTED))
            mp = mp * (p->status & BS_DISORDERED ? 25 : 50) / 100;
        /* 2.8 E: a unit that failed a Heat check Shaken/Disordered spends
         * no MPs in its next activation (a special segment, 6.2d-f, is not
         * an activation) */
        if ((p->more2 & BM2_NO_MP) && !s->sr_mode) {
            mp = 0;
            p->more2 &= (uint8_t)~BM2_NO_MP;
        }
        if (pi->arrive == s->turn && !(p->flags & BF_ON) && pi->entry_mp_half >= 0 && mp > pi->entry_mp_half)
            mp = pi->entry_mp_half;
        /* Monmouth 7.1a (the scenario switch): British units on the map at
         * the start have 2 MPs (cavalry 4) in the first three turns. */
        if (limits && pi->side == BAR_BRITISH && pi->arrive < 0 && !bar_is_leader(pi)) {
            int lim = bar_mounted(s, sc, i) ? 8 : 4;
            if (mp > lim)
                mp = lim;
        }
        p->mp = (int8_t)(mp > 127 ? 127 : mp);
        p->flags |= BF_FULL;
    }
}

/* Did a unit of org arrive at that time (a reinforcement group)? */
static bool org_arrives(const bar_ext *x, const mk_scenario *sc, int org, int turn)
{
    for (int i = 0; i < sc->nunits; i++)
        if (x->p[i].org == org && !bar_is_leader(&x->p[i]) && x->p[i].arrive == turn)
            return true;
    return false;
}

/* Series 7.4: is Command Leader l in his Army Leader's Line of Command?
 * Within the Army Leader's Command Range, or within the range of a Wing
 * Leader of his (a Wing above his Command) who is within the Army
 * Leader's; and Monmouth 3.2b A-B: Lafayette (scenarios 2, 3) for the
 * 3:00 PM reinforcements and the New Jersey Brigade, von Steuben for the
 * 6:00 PM ones. Returns the leader that was enough (the Army Leader or the
 * extender), -1 for none. */
static int in_army_loc(const bar_state *s, const mk_scenario *sc, int org, int l)
{
    const bar_ext *x = bar_x(sc);
    const mk_grid *g = &sc->map.grid;
    int side = x->oob.org[org].side, army = bar_army_leader(s, side);
    int det = s->det[side];   /* 3.3, 4.3: a Detachment traces to its own leader */
    int det_wing = det >= 0 && bar_wing_of(s, sc, det) >= 0 ? bar_wing_of(s, sc, det) : det >= 0 ? x->p[det].org : -1;
    if (det >= 0 && leader_ready(s, det) && leader_ready(s, l) && org_under(&x->oob, org, det_wing) &&
        mk_hex_distance(g, s->pc[l].hex, s->pc[det].hex) <= bar_leader_values_of(s, sc, det).range)
        return det;
    if (!leader_ready(s, army) || !leader_ready(s, l))
        return -1;
    if (s->sr_turn & (BST_LAPSE << side))
        return -1;   /* Monmouth 6.2b A: he traces no LOC, not even to his own hex */
    int range = bar_leader_values_of(s, sc, army).range;
    if (mk_hex_distance(g, s->pc[l].hex, s->pc[army].hex) <= range)
        return army;
    int laf = x->pc_laf, ste = x->pc_ste;
    for (int w = 0; w < s->npieces; w++) {
        const bar_pinfo *p = &x->p[w];
        if (!bar_is_leader(p) || p->side != side || w == army || !leader_ready(s, w) ||
            mk_hex_distance(g, s->pc[w].hex, s->pc[army].hex) > range ||
            mk_hex_distance(g, s->pc[l].hex, s->pc[w].hex) > bar_leader_values_of(s, sc, w).range)
            continue;
        int wg = bar_wing_of(s, sc, w);   /* a Wing Leader, or his successor (3.2a C, 4.2a C) */
        bool wing = wg >= 0 && org_under(&x->oob, org, wg);
        bool laf_ok = w == laf && x->sw_laf &&
                      (org_arrives(x, sc, org, bar_turn_of(28, 15, 0)) || !strcmp(x->oob.org[org].id, "NJB"));
        bool ste_ok = w == ste && ((x->sw_ste && org_arrives(x, sc, org, bar_turn_of(28, 18, 0))) ||
                                   (s->ac_ste >> org & 1));   /* 7.4a H: his Wing */
        if (wing || laf_ok || ste_ok)
            return w;
    }
    return -1;
}

/* --- Monmouth 6.2: the Initiative special results ------------------------ */

static void note_objectives(bar_state *s, const mk_scenario *sc);

/* After a special result the side to move chooses a Command again; when
 * it has none left (6.2c made its last one Finished) the activation
 * passes as after any other. */
static void back_to_activation(bar_state *s, const mk_scenario *sc, mk_events *ev)
{
    s->phase = BP_ACTIVATE;
    s->sr = -1;
    if (!side_can_activate(s, sc, s->side))
        bar_end_activation(s, sc, ev);
}

/* A leader's Initiative roll for 6.2c, d, f (ours, as an activation's:
 * the tens die of a d100 at most his Initiative; here 00-09 are no special
 * results). */
static bool initiative_roll(bar_state *s, const mk_scenario *sc, int l, const char *rule, mk_events *ev)
{
    int roll = mk_rng_d100(&s->head.rng);
    mk_event *e = bar_ev(ev, "roll", rule);
    e->purpose = "initiative";
    e->unit = (int16_t)l;
    e->die = 100;
    e->value = (int16_t)roll;
    e->need = (int16_t)bar_leader_values_of(s, sc, l).initiative;
    e->passed = roll / 10 <= e->need;
    return e->passed;
}

static bool is_command(const bar_ext *x, int org)
{
    int k = x->oob.org[org].kind;
    return k == BAR_ORG_COMMAND || k == BAR_ORG_INDEPENDENT_COMMAND;
}

/* Is a combat unit of org on the map (within its leader's Command Range
 * if in_range)? */
static bool org_on_map(const bar_state *s, const mk_scenario *sc, int org, bool in_range)
{
    const bar_ext *x = bar_x(sc);
    int l = bar_org_leader(sc, org);
    for (int i = 0; i < s->npieces; i++)
        if (x->p[i].org == org && !bar_is_leader(&x->p[i]) && bar_alive(s, i) && s->pc[i].hex != MK_NO_HEX &&
            (!in_range || (leader_ready(s, l) && mk_hex_distance(&sc->map.grid, s->pc[i].hex, s->pc[l].hex) <=
                                                     bar_leader_values_of(s, sc, l).range)))
            return true;
    return false;
}

/* 6.2: an asterisked result may be applied to a Command Leader once a turn */
static bool leader_free(const bar_state *s, int l)
{
    return l >= 0 && !(s->pc[l].more2 & BM2_CAPTURED);
}

int bar_legal_special(const bar_state *s, const mk_scenario *sc, mk_action *out, int cap)
{
    const bar_ext *x = bar_x(sc);
    int n = 0, side = s->side;
#define PUT(o_, f_)                                                                                   \
    do {                                                                                              \
        if (out && n < cap)                                                                           \
            out[n] = (mk_action){.type = BA_SPECIAL, .flags = (uint8_t)(f_), .unit = -1,              \
                                 .other = (int16_t)(o_), .target = -1};                               \
        n++;                                                                                          \
    } while (0)
    if (s->sr == BAR_INI_BATTLE_TEMPO) {   /* 6.2g: up, down or leave it */
        PUT(-1, BAF_UP);
        if (s->marker > 0)
            PUT(-1, BAF_DOWN);
        PUT(-1, 0);
        return out ? (n < cap ? n : cap) : n;
    }
    for (int o = 0; o < x->oob.norgs; o++) {
        if (x->oob.org[o].side != side || !is_command(x, o))
            continue;
        int l = bar_org_leader(sc, o);
        switch (s->sr) {
        case BAR_INI_CONFUSION:   /* 6.2c A: an unactivated Command of the roller (B: even leaderless) */
            if (bar_org_can_activate(s, sc, side, o) && (l < 0 || leader_free(s, l)))
                PUT(o, 0);
            break;
        case BAR_INI_FREE_COMBAT:   /* 6.2d A-B: one of his Command Leaders, and the kind of combat */
            if (leader_ready(s, l) && leader_free(s, l) && org_on_map(s, sc, o, true)) {
                PUT(o, 0);
                PUT(o, BAF_CLOSE);
            }
            break;
        case BAR_INI_SPECIAL_RALLY:   /* 6.2e A: any one Command */
        case BAR_INI_LEADER_INITIATIVE:   /* 6.2f A-B */
            if (leader_ready(s, l) && leader_free(s, l) && org_on_map(s, sc, o, true))
                PUT(o, 0);
            break;
        default: break;
        }
    }
#undef PUT
    return out ? (n < cap ? n : cap) : n;
}

/* The result itself, just rolled by the Command Leader of s->side. */
static void special_result(bar_state *s, const mk_scenario *sc, int special, mk_events *ev)
{
    const bar_ext *x = bar_x(sc);
    int side = s->side;
    s->phase = BP_ACTIVATE;
    switch (special) {
    case BAR_INI_ARMY_MORALE:   /* 2.2b, 6.2a: both sides check; once a turn (B) */
        if (s->sr_turn & BST_ARMY_MORALE) {
            bar_ev(ev, "special_result", "Monmouth 6.2a B (once per turn: ignored)")->text = "army_morale";
            break;
        }
        s->sr_turn |= BST_ARMY_MORALE;
        army_morale(s, sc, BAR_AMERICAN, true, ev);
        army_morale(s, sc, BAR_BRITISH, true, ev);
        break;
    case BAR_INI_LEADER_LAPSE: {   /* 6.2b: on, or off again (B) */
        s->sr_turn ^= (uint8_t)(BST_LAPSE << side);
        mk_event *e = bar_ev(ev, "special_result", "Monmouth 6.2b");
        e->text = "leader_lapse";
        e->side = (int16_t)side;
        e->unit = (int16_t)bar_army_leader(s, side);
        e->value = (s->sr_turn >> 1 >> side) & 1;   /* 1: lapsed, 0: functions normally again */
        break;
    }
    case BAR_INI_BATTLE_TEMPO:   /* 6.2g: no effect once the End box is reached (ours: the ETN's) */
        if (s->marker >= bar_end_turn_number(x->scenario, s->turn)) {
            bar_ev(ev, "special_result", "Monmouth 6.2g (the End box reached: no effect)")->text = "battle_tempo";
            break;
        }
        s->sr = (int8_t)special;
        return;
    default:   /* 6.2c-f: a Command to choose (6.2c: by the other player) */
        s->sr = (int8_t)special;
        if (bar_legal_special(s, sc, NULL, 0) > 0)
            return;
        bar_ev(ev, "special_result", "Monmouth 6.2 (no Command it can be applied to: no effect)")->text =
            special == BAR_INI_CONFUSION ? "confusion" : special == BAR_INI_FREE_COMBAT ? "free_combat"
            : special == BAR_INI_SPECIAL_RALLY ? "special_rally" : "leader_initiative";
        break;
    }
    back_to_activation(s, sc, ev);
}

int bar_apply_activate(bar_state *s, const mk_scenario *sc, const mk_action *a, mk_events *ev,
                       mk_error *err)
{
    const bar_ext *x = bar_x(sc);
    int side = s->side, org = a->other;
    s->acted[side] |= 1ull << org;
    s->org = (int16_t)org;
    mk_event *e = bar_ev(ev, "activate", "Monmouth 2.4a");
    e->side = (int16_t)side;
    e->text = x->oob.org[org].id;
    int army = bar_army_leader(s, side);
    s->nsnipe = 0;
    s->nof = 0;
    s->nopx = 0;
    if (a->flags & BAF_WING) {   /* 2.4a: a Wing Activation is two Commands */
        int die = mk_rng_d10(&s->head.rng);
        mk_event *w = bar_ev(ev, "roll", "Monmouth 2.4a (WAN 3.2a B, 4.2a B)");
        w->purpose = "wing_activation";
        w->unit = (int16_t)army;
        w->die = 10;
        w->value = (int16_t)die;
        int wan = bar_leader_values_of(s, sc, army).wan;
        w->need = (int16_t)wan;
        w->passed = die >= wan;
        if (die >= wan)
            s->bonus = 1;
    }
    /* 6.2: the Command Leader's Initiative */
    int l = bar_org_leader(sc, org);
    bool lee = bar_lee_commands(s, sc, org);   /* 3.2b G: Lee's Detachment */
    int via;
    s->in_command = 0;
    if (!leader_ready(s, l)) {
        mk_event *r = bar_ev(ev, "out_of_command", "Series 7.6c (no Command Leader on the map)");
        r->side = (int16_t)side;
    } else if (lee && !((s->sr_turn & (BST_LAPSE << side)) && army == x->pc_lee) &&
               bar_lee_activation(s, sc, org, ev)) {   /* (6.2b A: a lapsed Lee traces none) */
        s->in_command = 1;
        mk_event *r = bar_ev(ev, "in_command", "Monmouth 3.2b G ii-iii (in Lee's LOC)");
        r->unit = (int16_t)l;
    } else if (!lee && (via = in_army_loc(s, sc, org, l)) >= 0) {
        s->in_command = 1;
        mk_event *r = bar_ev(ev, "in_command", via == army ? "Series 7.4 (within the Army Leader's Command Range)"
                                                           : "Series 7.4, Monmouth 3.2b A-B (LOC through a Wing "
                                                             "or Special Leader)");
        r->unit = (int16_t)l;
        r->other = (int16_t)via;
    } else {
        int roll = mk_rng_d100(&s->head.rng);
        int special = bar_initiative_special(&x->ch, side, roll);
        mk_event *r = bar_ev(ev, "roll", "Monmouth 6.2");
        r->purpose = "initiative";
        r->unit = (int16_t)l;
        r->die = 100;
        r->value = (int16_t)roll;
        r->need = (int16_t)bar_leader_values_of(s, sc, l).initiative;
        mk_event_mod(r, r->need, "Initiative: the tens die must be at most this (00-09 special)");
        if (special >= 0) {
            static const char *const names[BAR_NINI] = {"army_morale", "leader_lapse", "confusion",
                                                        "free_combat", "special_rally",
                                                        "leader_initiative", "battle_tempo"};
            r->text = names[special];
            /* 6.2, 6.2d A "the players roll again for Initiative" (ours:
             * the Command is not activated; its side chooses again, and
             * the same Command rolls again if chosen) */
            s->acted[side] &= ~(1ull << org);
            special_result(s, sc, special, ev);
            return 0;
        }
        s->in_command = roll / 10 <= bar_leader_values_of(s, sc, l).initiative;
        r->passed = s->in_command;
    }
    s->phase = BP_MOVE;
    uint64_t lc_in[BAR_PIECE_WORDS], lc_rolled[BAR_PIECE_WORDS];
    loyalist_initiative(s, sc, lc_in, lc_rolled, ev);
    set_activation_mp(s, sc, lc_in, lc_rolled);
    bar_skirmish_start(s, sc);
    if (lee && !s->in_command && leader_ready(s, l))
        bar_lee_ooc_penalty(s, sc, org, ev);   /* 3.2b G iv */
    (void)err;
    return 0;
}

/* The Rally Phase (2.5, series): a routed unit not next to a formed enemy
 * rallies to Shaken and Disordered on a Morale Check; Disorder Recovery and
 * a Shaken unit's recovery the same way. A failed roll changes nothing.
 * step: RALLY_ALL the end of the turn's (one step a unit); 6.2e A's
 * Disorder Recovery Phase (RALLY_DISORDER: Disordered units that are not
 * routed) and then its Rally Phase (RALLY_ROUTED: routed units rally,
 * Shaken ones recover). Returns whether the unit rolled. */
enum { RALLY_ALL, RALLY_DISORDER, RALLY_ROUTED };
static bool rally_unit(bar_state *s, const mk_scenario *sc, int i, int step, const char *rule, mk_events *ev)
{
    const bar_ext *x = bar_x(sc);
    bar_pc *p = &s->pc[i];
    if (p->hex == MK_NO_HEX || bar_is_leader(&x->p[i]) || !p->status || bar_rgt_with_owner(s, sc, i))
        return false;   /* (2.2d E viii: stacked guns conform to their regiment) */
    bool routed = p->status & BS_ROUTED, dis = p->status & BS_DISORDERED;
    if ((step == RALLY_DISORDER && (routed || !dis)) ||
        (step == RALLY_ROUTED && !routed && !(p->status & BS_SHAKEN)))
        return false;
    mk_hex nb[6];
    mk_hex_neighbors(&sc->map.grid, p->hex, nb);
    for (int d = 0; d < 6; d++)
        if (nb[d] != MK_NO_HEX && bar_unit_at(s, sc, nb[d], bar_other(x->p[i].side), true))
            return false;
    int roll = mk_rng_d100(&s->head.rng), need = bar_check_target(s, sc, i, 0);
    mk_event *e = bar_ev(ev, "roll", rule);
    e->unit = (int16_t)i;
    e->die = 100;
    e->value = (int16_t)roll;
    e->need = (int16_t)need;
    bool pass = roll >= need;
    e->passed = pass;
    if (routed) {
        e->purpose = "rally";
        if (pass)
            p->status = BS_SHAKEN | BS_DISORDERED;
    } else if (dis && step != RALLY_ROUTED) {
        e->purpose = "disorder_recovery";
        if (pass)
            p->status &= (uint8_t)~BS_DISORDERED;
    } else {
        e->purpose = "shaken_recovery";
        if (pass)
            p->status &= (uint8_t)~BS_SHAKEN;
    }
    return true;
}

static void rally_phase(bar_state *s, const mk_scenario *sc, mk_events *ev)
{
    for (int i = 0; i < s->npieces; i++) {
        rally_unit(s, sc, i, RALLY_ALL, "Monmouth 2.5 (Rally Phase)", ev);
        s->pc[i].more2 &= (uint8_t)~BM2_CAPTURED;   /* 6.2c-f: the markers go in the Rally Segment */
    }
    bar_rgt_conform(s, sc);   /* 2.2d E viii */
}

/* 6.2e A: the units of org within their leader's Command Range, and every
 * unit stacked with one (the whole stack), recover and then rally. */
static void special_rally(bar_state *s, const mk_scenario *sc, int org, mk_events *ev)
{
    const bar_ext *x = bar_x(sc);
    int l = bar_org_leader(sc, org), range = bar_leader_values_of(s, sc, l).range;
    uint64_t hexes[(MK_MAX_HEX + 63) / 64] = {0};
    for (int i = 0; i < s->npieces; i++)
        if (x->p[i].org == org && !bar_is_leader(&x->p[i]) && bar_alive(s, i) && s->pc[i].hex != MK_NO_HEX &&
            mk_hex_distance(&sc->map.grid, s->pc[i].hex, s->pc[l].hex) <= range)
            hexes[s->pc[i].hex >> 6] |= 1ull << (s->pc[i].hex & 63);
    for (int step = RALLY_DISORDER; step <= RALLY_ROUTED; step++)
        for (int i = 0; i < s->npieces; i++)
            if (x->p[i].side == s->side && s->pc[i].hex != MK_NO_HEX &&
                (hexes[s->pc[i].hex >> 6] >> (s->pc[i].hex & 63) & 1))
                rally_unit(s, sc, i, step, "Monmouth 6.2e A (Special Rally)", ev);
}

/* The choice a special result waited for (bar_legal_special listed it). */
int bar_apply_special(bar_state *s, const mk_scenario *sc, const mk_action *a, mk_events *ev)
{
    const bar_ext *x = bar_x(sc);
    int special = s->sr, org = a->other, side = s->side;
    int l = org >= 0 ? bar_org_leader(sc, org) : -1;
    s->sr = -1;
    mk_event *e = bar_ev(ev, "special_result", special == BAR_INI_CONFUSION ? "Monmouth 6.2c"
                                                : special == BAR_INI_FREE_COMBAT ? "Monmouth 6.2d"
                                                : special == BAR_INI_SPECIAL_RALLY ? "Monmouth 6.2e"
                                                : special == BAR_INI_LEADER_INITIATIVE ? "Monmouth 6.2f"
                                                                                       : "Monmouth 6.2g");
    e->side = (int16_t)side;
    e->unit = (int16_t)l;
    e->text = org >= 0 ? x->oob.org[org].id : NULL;
    switch (special) {
    case BAR_INI_BATTLE_TEMPO:
        s->marker = (int8_t)(s->marker + (a->flags & BAF_UP ? 1 : a->flags & BAF_DOWN ? -1 : 0));
        e->value = s->marker;
        break;
    case BAR_INI_CONFUSION: {
        if (l >= 0)
            s->pc[l].more2 |= BM2_CAPTURED;
        int passed = 0;
        if (!leader_ready(s, l) || !org_on_map(s, sc, org, true)) {
            e->purpose = "finished";   /* 6.2c B: no roll */
        } else {
            passed += initiative_roll(s, sc, l, "Monmouth 6.2c A (first roll)", ev);
            passed += initiative_roll(s, sc, l, "Monmouth 6.2c A (second roll)", ev);
            e->purpose = passed == 0 ? "finished" : passed == 1 ? "limited" : "in_command";
        }
        s->acted[side] |= 1ull << org;   /* activated now, or Finished */
        if (!passed)
            break;
        s->org = (int16_t)org;
        s->in_command = (int8_t)(passed == 2 ? 1 : BIC_LIMITED);
        s->nsnipe = 0;
        s->nof = 0;
        s->phase = BP_MOVE;
        uint64_t lc_in[BAR_PIECE_WORDS], lc_rolled[BAR_PIECE_WORDS];
        loyalist_initiative(s, sc, lc_in, lc_rolled, ev);
        set_activation_mp(s, sc, lc_in, lc_rolled);
        return 0;
    }
    case BAR_INI_SPECIAL_RALLY:   /* 6.2e B: always applied to the leader */
        s->pc[l].more2 |= BM2_CAPTURED;
        special_rally(s, sc, org, ev);
        break;
    case BAR_INI_FREE_COMBAT:
    case BAR_INI_LEADER_INITIATIVE:
        if (!initiative_roll(s, sc, l, special == BAR_INI_FREE_COMBAT ? "Monmouth 6.2d A" : "Monmouth 6.2f B", ev)) {
            e->purpose = "no_event";   /* 6.2d A, 6.2f B: failing, there is no event */
            break;
        }
        s->pc[l].more2 |= BM2_CAPTURED;
        s->org = (int16_t)org;
        s->in_command = 1;   /* 6.2f B: he is 'In Command' */
        s->nsnipe = 0;
        s->nof = 0;
        s->sr_mode = (int8_t)(special == BAR_INI_LEADER_INITIATIVE ? BSR_MOVE
                              : a->flags & BAF_CLOSE            ? BSR_CLOSE
                                                                : BSR_FIRE);
        e->purpose = s->sr_mode == BSR_MOVE ? "movement" : s->sr_mode == BSR_CLOSE ? "close_combat" : "fire";
        s->phase = BP_MOVE;   /* set_activation_mp asks bar_piece_active, which needs an acting phase */
        set_activation_mp(s, sc, NULL, NULL);
        if (s->sr_mode == BSR_FIRE)
            s->phase = BP_FIRE;
        return 0;
    default: break;
    }
    back_to_activation(s, sc, ev);
    return 0;
}

/* 6.2d-f: the special segment is over; the side chooses a Command again
 * (the units that took part are not activated: 6.2d B, 6.2e A, 6.2f C). */
void bar_end_special_segment(bar_state *s, const mk_scenario *sc, mk_events *ev)
{
    for (int i = 0; i < s->npieces; i++) {
        s->pc[i].mp = 0;
        s->pc[i].flags &= (uint8_t)~(BF_FIRED | BF_CC | BF_OOC | BF_MOVED | BF_FULL);
    }
    s->sr_mode = BSR_NONE;
    s->in_command = 0;
    note_objectives(s, sc);
    back_to_activation(s, sc, ev);
}

/* Does piece i take part in the special segment? 6.2d B: units of the
 * Command within its leader's Command Range, not Disordered (Fire and
 * Close Combat), and Independents stacked with a unit or the leader of
 * the Command; 6.2f A-B: the same for the Movement Segment (Disordered
 * units too); the Command's leader moves with them (ours). Not built: 6.2d
 * B's "only if they are the top units" of a mixed stack. */
bool bar_special_active(const bar_state *s, const mk_scenario *sc, int i)
{
    const bar_ext *x = bar_x(sc);
    const bar_pinfo *p = &x->p[i];
    int l = bar_org_leader(sc, s->org);
    if (!leader_ready(s, l) || s->pc[i].hex == MK_NO_HEX)
        return false;
    if (i == l)
        return s->sr_mode == BSR_MOVE;
    if (bar_is_leader(p) || (s->sr_mode != BSR_MOVE && (s->pc[i].status & BS_DISORDERED)) ||
        mk_hex_distance(&sc->map.grid, s->pc[i].hex, s->pc[l].hex) > bar_leader_values_of(s, sc, l).range)
        return false;
    if (p->org == s->org && !p->independent)
        return true;
    if (!p->independent)
        return false;
    if (s->pc[i].hex == s->pc[l].hex)
        return true;
    for (int j = 0; j < s->npieces; j++)
        if (x->p[j].org == s->org && !x->p[j].independent && !bar_is_leader(&x->p[j]) &&
            s->pc[j].hex == s->pc[i].hex && bar_alive(s, j))
            return true;
    return false;
}

/* Wounded leaders come back (6.6e) with a unit of their Command, or any
 * unit of their side. */
static void leaders_return(bar_state *s, const mk_scenario *sc, mk_events *ev)
{
    const bar_ext *x = bar_x(sc);
    for (int j = 0; j < s->npieces; j++) {
        if (!s->pc[j].wounded || --s->pc[j].wounded)
            continue;
        mk_hex h = MK_NO_HEX;
        for (int i = 0; i < s->npieces && h == MK_NO_HEX; i++)
            if (!bar_is_leader(&x->p[i]) && s->pc[i].hex != MK_NO_HEX && x->p[i].org == x->p[j].org)
                h = s->pc[i].hex;
        for (int i = 0; i < s->npieces && h == MK_NO_HEX; i++)
            if (!bar_is_leader(&x->p[i]) && s->pc[i].hex != MK_NO_HEX && x->p[i].side == x->p[j].side)
                h = s->pc[i].hex;
        s->pc[j].hex = h;
        mk_event *e = bar_ev(ev, "returns", "Monmouth 6.6e");
        e->unit = (int16_t)j;
        e->hex = h;
    }
}

static void decide(bar_state *s, const mk_scenario *sc, mk_events *ev)
{
    const bar_ext *x = bar_x(sc);
    bar_victory_in in;
    bar_victory_out out;
    mk_error err;
    bar_victory_input(s, sc, &in);
    s->phase = BP_OVER;
    if (bar_victory(x->scenario, &in, &out, &err) < 0) {
        s->winner = -1;
        s->level = BAR_LEVEL_DRAW;
        return;
    }
    s->winner = (int8_t)out.winner;
    s->level = (int8_t)out.level;
    mk_event *e = bar_ev(ev, "game_over", x->scenario == 1 ? "Monmouth 7.1d" : x->scenario == 2 ? "Monmouth 7.2d"
                                                          : x->scenario == 3 ? "Monmouth 7.3d" : "Monmouth 7.4d");
    e->side = (int16_t)out.winner;
    e->value = (int16_t)out.ratio;
}

/* The activation phase's other choice: 3.3, 4.3 create a Detachment. */
int bar_apply_detach(bar_state *s, const mk_scenario *sc, const mk_action *a, mk_events *ev)
{
    s->det[s->side] = a->unit;
    mk_event *e = bar_ev(ev, "detachment", s->side == BAR_AMERICAN ? "Monmouth 3.3" : "Monmouth 4.3");
    e->unit = a->unit;
    (void)sc;
    return 0;
}

int bar_turn_init(bar_state *s, const mk_scenario *sc, mk_events *ev)
{
    for (int side = 0; side < 2; side++) {   /* Series 24.3 (ours): back within range, it rejoins */
        int d = s->det[side], army = bar_army_leader(s, side);
        if (d >= 0 && (!leader_ready(s, d) ||
                       (leader_ready(s, army) && mk_hex_distance(&sc->map.grid, s->pc[d].hex, s->pc[army].hex) <=
                                                     bar_leader_values_of(s, sc, army).range))) {
            s->det[side] = -1;
            mk_event *e = bar_ev(ev, "detachment_rejoins", "Series 24.3 (our reading: docs/bar.md)");
            e->unit = (int16_t)d;
        }
    }
    s->acted[0] = s->acted[1] = 0;
    s->marker = 0;
    s->bonus = 0;
    s->sr_turn = 0;   /* 6.2a B, 6.2b B: for the turn */
    if (s->turn % 3 == 0)
        s->cr_used[0] = s->cr_used[1] = 0;   /* 6.2a A: the :00 turn */
    for (int i = 0; i < s->npieces; i++) {
        s->pc[i].flags &= (uint8_t)~BF_ACTED;
        s->pc[i].more2 &= (uint8_t)~BM2_BATTERY;   /* 3.2b C: "in the current turn" */
    }
    bar_raids(s, sc, ev);   /* 7.4a F ii: before any other activity */
    if (bar_x(sc)->sw_relief_turn == s->turn)
        for (int side = 0; side < 2; side++) {   /* 7.4a D: -5, not below 0 */
            s->army_mod[side] = (int8_t)(s->army_mod[side] > 5 ? s->army_mod[side] - 5 : 0);
            mk_event *e = bar_ev(ev, "army_morale_relief", "Monmouth 7.4a D");
            e->side = (int16_t)side;
            e->value = s->army_mod[side];
        }
    if (bar_guard_turn(s, sc)) {   /* 7.4a F: the British designate the guard first */
        s->phase = BP_GUARD;
        s->side = BAR_BRITISH;
        return 0;
    }
    bar_turn_start(s, sc, ev);
    return 0;
}

/* The turn's activations begin. */
void bar_turn_start(bar_state *s, const mk_scenario *sc, mk_events *ev)
{
    /* Who activates first: d10 + the Army Leader's Command Rating. */
    int r[2];
    for (int tries = 0; tries < 20; tries++) {
        for (int side = 0; side < 2; side++) {
            int a = bar_army_leader(s, side);
            r[side] = mk_rng_d10(&s->head.rng) + (leader_ready(s, a) ? bar_leader_values_of(s, sc, a).cr : 0);
        }
        if (r[0] != r[1])
            break;
    }
    s->first = (int8_t)(r[1] > r[0] ? BAR_BRITISH : BAR_AMERICAN);
    mk_event *e = bar_ev(ev, "first_activation", "Series (our reconstruction: docs/bar.md)");
    e->side = s->first;
    mk_event_value(e, r[0]);
    mk_event_value(e, r[1]);
    s->side = s->first;
    s->phase = BP_ACTIVATE;
    if (!side_can_activate(s, sc, s->side))
        s->side = (int8_t)bar_other(s->side);
    if (!side_can_activate(s, sc, s->side))
        bar_end_activation(s, sc, ev);   /* nothing to do: the turn passes */
}

static void note_objectives(bar_state *s, const mk_scenario *sc)
{
    const bar_ext *x = bar_x(sc);
    const bar_sc_victory *v = &x->scen.victory;
    for (int i = 0; i < s->npieces; i++) {
        const bar_pc *p = &s->pc[i];
        if (p->hex == MK_NO_HEX || bar_is_leader(&x->p[i]) || (p->status & BS_ROUTED))
            continue;
        mk_hex t2 = bar_tail_hex(s, sc, i);   /* 2.1c: a column's trailing hex counts too */
        if (x->p[i].side == BAR_AMERICAN && v->threat_hex != MK_NO_HEX &&
            (mk_hex_distance(&sc->map.grid, p->hex, v->threat_hex) <= 1 ||
             (t2 != MK_NO_HEX && mk_hex_distance(&sc->map.grid, t2, v->threat_hex) <= 1)))
            s->american_e3915 = true;   /* 7.1d E */
        for (int k = 0; k < v->norchard; k++)   /* 7.1d B: who entered last */
            if (p->hex == v->orchard[k] || t2 == v->orchard[k])
                s->orchard = (uint8_t)(x->p[i].side == BAR_BRITISH ? s->orchard | 1u << k : s->orchard & ~(1u << k));
        if (x->p[i].side == BAR_BRITISH)
            for (int k = 0; k < v->nadvance; k++)
                if (p->hex == v->advance[k] || t2 == v->advance[k])
                    s->advance |= (uint16_t)(1u << k);
    }
}

void bar_end_activation(bar_state *s, const mk_scenario *sc, mk_events *ev)
{
    const bar_ext *x = bar_x(sc);
    note_objectives(s, sc);
    for (int i = 0; i < s->npieces; i++) {
        s->pc[i].mp = 0;
        s->pc[i].flags &= (uint8_t)~(BF_FIRED | BF_CC | BF_OOC | BF_MOVED | BF_FULL);
        s->pc[i].more2 &= (uint8_t)~(BM2_PRO1 | BM2_PRO2);
    }
    s->bat_leader = -1;
    s->phase = BP_ACTIVATE;
    bool more = side_can_activate(s, sc, 0) || side_can_activate(s, sc, 1);
    bool end = !more;
    if (more) {
        /* the End Turn track: a box per activation, then a roll each time */
        s->marker++;
        int etn = bar_end_turn_number(x->scenario, s->turn);
        if (s->marker > etn) {
            int die = mk_rng_d10(&s->head.rng);
            int need = (s->marker - etn) * x->se.end_turn_pct / 10;
            mk_event *e = bar_ev(ev, "roll", "Monmouth 1.2d, 7.x A (End Turn Number; our roll)");
            e->purpose = "end_turn";
            e->die = 10;
            e->value = (int16_t)die;
            e->need = (int16_t)need;
            e->points = s->marker;
            e->passed = die < need;
            end = die < need;
        }
    }
    if (!end) {
        int next = s->bonus ? s->side : bar_other(s->side);
        s->bonus = 0;
        if (!side_can_activate(s, sc, next))
            next = bar_other(next);
        s->side = (int8_t)next;
        return;
    }
    /* the end of the turn */
    rally_phase(s, sc, ev);
    if (s->turn % 3 == 2) {   /* the last turn of an hour: Army Morale Check Phase */
        ac_reorganize(s, sc, ev);   /* 7.4a G: just before the American roll */
        army_morale(s, sc, BAR_AMERICAN, false, ev);
        army_morale(s, sc, BAR_BRITISH, false, ev);
    }
    mk_event *e = bar_ev(ev, "turn_end", "Monmouth 1.2d");
    e->value = s->turn;
    if (s->turn >= x->victory_turn) {
        decide(s, sc, ev);
        return;
    }
    s->turn++;
    leaders_return(s, sc, ev);
    bar_turn_init(s, sc, ev);
}

/* 7.1d C-D: the British line of communications, road hexes from W2220 to
 * E3915, is interdicted when a non-Routed American unit or its ZOC is on
 * one of them (our reduction: the fire clause is not checked). */
static bool interdicted(const bar_state *s, const mk_scenario *sc)
{
    const bar_ext *x = bar_x(sc);
    const mk_grid *g = &sc->map.grid;
    mk_hex from = x->scen.victory.hold_hex, to = x->scen.victory.threat_hex;
    if (from == MK_NO_HEX || to == MK_NO_HEX)
        return false;
    int16_t prev[MK_MAX_HEX];
    mk_hex q[MK_MAX_HEX];
    for (int h = 0; h < mk_grid_size(g); h++)
        prev[h] = -2;
    int qh = 0, qt = 0;
    q[qt++] = from;
    prev[from] = -1;
    while (qh < qt && prev[to] == -2) {
        mk_hex h = q[qh++];
        for (int d = 0; d < 6; d++) {
            mk_hex nb = mk_hex_neighbor(g, h, d);
            if (nb != MK_NO_HEX && prev[nb] == -2 && bar_road(&x->map, h, nb)) {
                prev[nb] = h;
                q[qt++] = nb;
            }
        }
    }
    if (prev[to] == -2)
        return true;   /* no road at all: cut */
    for (mk_hex h = to; h != -1; h = prev[h])
        if (bar_unit_at(s, sc, h, BAR_AMERICAN, true) || bar_in_ezoc(s, sc, BAR_BRITISH, h))
            return true;
    return false;
}

void bar_victory_input(const bar_state *s, const mk_scenario *sc, bar_victory_in *in)
{
    const bar_ext *x = bar_x(sc);
    const bar_sc_victory *v = &x->scen.victory;
    memset(in, 0, sizeof *in);
    for (int side = 0; side < 2; side++) {
        in->loss[side] = s->loss[side] + bar_artillery_loss_boxes(s->art_lost[side][0], s->art_lost[side][1]);
        in->sp_lost[side] = s->sp_lost[side];
    }
    in->orchard = v->norchard > 0 && s->orchard == (1u << v->norchard) - 1;
    for (int i = 0; i < s->npieces; i++) {
        const bar_pc *p = &s->pc[i];
        if (p->hex == MK_NO_HEX || bar_is_leader(&x->p[i]) || x->p[i].side != BAR_BRITISH)
            continue;
        in->british_on_map++;
        if (!(p->status & BS_ROUTED) && v->hold_hex != MK_NO_HEX &&
            mk_hex_distance(&sc->map.grid, p->hex, v->hold_hex) <= 1)
            in->w2220 = true;
    }
    in->interdicted = in->w2220 && interdicted(s, sc);
    in->american_e3915 = s->american_e3915;
    in->advance = s->advance;
    in->baggage = s->baggage;
}

void bar_result(const void *st, const mk_scenario *sc, mk_result *out)
{
    const bar_state *s = st;
    const bar_ext *x = bar_x(sc);
    static const char *const levels[] = {"draw", "marginal", "minor", "major"};
    out->winner = s->phase == BP_OVER ? s->winner : -1;
    out->level = s->phase != BP_OVER ? "none" : levels[s->level >= 0 && s->level <= 3 ? s->level : 0];
    if (s->phase != BP_OVER) {
        snprintf(out->reason, sizeof out->reason, "not over");
        return;
    }
    bar_victory_in in;
    bar_victory_out v;
    mk_error err;
    bar_victory_input(s, sc, &in);
    if (bar_victory(x->scenario, &in, &v, &err) < 0) {
        snprintf(out->reason, sizeof out->reason, "%s", err.msg);
        return;
    }
    if (v.auto_draw)
        snprintf(out->reason, sizeof out->reason, "automatic draw: losses American %d, British %d (Monmouth 7.%dd)",
                 in.loss[0], in.loss[1], x->scenario);
    else if (x->scenario == 1)   /* hundredths, either sign */
        snprintf(out->reason, sizeof out->reason,
                 "victory ratio %s%d.%02d (American %d / British %d, modifiers %s%d.%02d; Monmouth 7.1d)",
                 v.ratio < 0 ? "-" : "", abs(v.ratio) / 100, abs(v.ratio) % 100, v.am_total, v.br_total,
                 v.modifier < 0 ? "-" : "+", abs(v.modifier) / 100, abs(v.modifier) % 100);
    else
        snprintf(out->reason, sizeof out->reason, "victory ratio %d.%d (American %d, British %d; Monmouth 7.%dd)",
                 v.ratio / 10, v.ratio % 10, v.am_total, v.br_total, x->scenario);
}
