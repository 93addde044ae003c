/* baggage.c - scenario 4's British baggage train (Monmouth 7.4a F): the
 * guard the British player designates in the 7:00 PM 28 June turn (units
 * not yet on the map, which then never enter), and the American militia
 * raids rolled at the start of every turn from 7:20 PM (bar_baggage_raid,
 * victory.c, applies the table; this file keeps the state: losses, the
 * guard's SPs, the once-a-game ambush, pauses and the end of the raids). */
#include "rules/bar/bar_int.h"

/* The 7:00 PM turn of a scenario with a guard: the British choose first. */
bool bar_guard_turn(const bar_state *s, const mk_scenario *sc)
{
    const bar_ext *x = bar_x(sc);
    int t = x->sw_guard_turn;
    return t >= 0 && s->turn == t;
}

static bool may_guard(const bar_state *s, const bar_ext *x, int i)
{
    /* 7.4a F i: infantry or cavalry not yet brought onto the map */
    return x->p[i].side == BAR_BRITISH && (x->p[i].kind == BK_INFANTRY || x->p[i].kind == BK_CAVALRY) &&
           x->p[i].arrive >= 0 && !(s->pc[i].flags & (BF_ON | BF_ELIM)) && !(s->pc[i].more & BM_GUARD);
}

int bar_legal_guard(const bar_state *s, const mk_scenario *sc, mk_action *out, int cap)
{
    const bar_ext *x = bar_x(sc);
    int n = 0;
    if (n < cap)
        out[n++] = (mk_action){.type = BA_NEXT, .unit = -1, .other = -1, .target = -1};
    for (int i = 0; i < s->npieces && n < cap; i++)
        if (may_guard(s, x, i))
            out[n++] = (mk_action){.type = BA_GUARD, .unit = (int16_t)i, .other = -1, .target = -1};
    return n;
}

void bar_apply_guard(bar_state *s, const mk_scenario *sc, const mk_action *a, mk_events *ev)
{
    s->pc[a->unit].more |= BM_GUARD;
    mk_event *e = bar_ev(ev, "baggage_guard", "Monmouth 7.4a F i");
    e->unit = a->unit;
    (void)sc;
}

static int guard_sp(const bar_state *s, const bar_ext *x, int *first)
{
    int sp = 0;
    *first = -1;
    for (int i = 0; i < s->npieces; i++)
        if ((s->pc[i].more & BM_GUARD) && !(s->pc[i].flags & BF_ELIM)) {
            sp += s->pc[i].sp;
            if (*first < 0 || s->pc[i].sp > s->pc[*first].sp)
                *first = i;
        }
    (void)x;
    return sp;
}

/* 7.4a F ii-iv: the raids of one turn start (with 04's two re-rolls). */
void bar_raids(bar_state *s, const mk_scenario *sc, mk_events *ev)
{
    const bar_ext *x = bar_x(sc);
    if (!bar_raids_on(x->scenario, s->turn) || s->raids_end)
        return;
    if (s->raid_skip > 0) {
        s->raid_skip--;
        return;
    }
    int rolls = 1;
    for (int k = 0; k < rolls && k < 3; k++) {
        int who;
        bar_raid_in in = {.roll = mk_rng_d100(&s->head.rng),
                          .die = mk_rng_d10(&s->head.rng),
                          .guard_sp = guard_sp(s, x, &who),
                          .light = bar_light_of(s->turn),
                          .ambush_used = s->ambush_used,
                          .reroll = k > 0,
                          .baggage = s->baggage};
        bar_raid_out out;
        mk_error err;
        if (bar_baggage_raid(&in, &out, &err) < 0)
            return;
        mk_event *e = bar_ev(ev, "roll", "Monmouth 7.4a F");
        e->purpose = "baggage_raid";
        e->side = BAR_AMERICAN;
        e->die = 100;
        e->value = (int16_t)in.roll;
        e->need = (int16_t)bar_raid_threshold(in.light);
        e->passed = out.success;
        if (in.guard_sp)
            mk_event_mod(e, -in.guard_sp, "baggage train guard SPs (7.4a F ii)");
        static const char *const names[10] = {"guard ambushed", "guard casualties", "baggage train explosion",
                                              "successful raid", "raids intensify", "raids pause", "raids pause",
                                              "raids slacken", "guard riposte", "raids end"};
        if (out.special >= 0 && out.special <= 9)
            e->text = names[out.special];
        e->hits = (int16_t)out.baggage;   /* losses marked by this roll (capped at 24 in all) */
        s->baggage = (int8_t)(s->baggage + out.baggage);
        s->ambush_used = out.ambush_used;
        for (int g = 0; g < out.guard_loss && who >= 0; g++) {
            bar_pc *p = &s->pc[who];
            p->sp--;
            s->sp_lost[BAR_BRITISH]++;
            s->loss[BAR_BRITISH]++;
            bar_tail_update(s, sc, who);   /* 2.1a, 2.1c: a two-hex unit this short is one hex */
            if (p->sp <= 0) {
                p->flags |= BF_ELIM;
                p->hex = MK_NO_HEX;   /* (a guard unit may have entered the map) */
                guard_sp(s, x, &who);
            }
        }
        rolls += out.rerolls;
        if (out.skip_turns > s->raid_skip)
            s->raid_skip = (int8_t)out.skip_turns;
        if (out.raids_end)
            s->raids_end = true;
    }
}
