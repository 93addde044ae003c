/* turn.c - H&M 5 (game turn sequence), 6 (CAP), 9 (Army Commanders: CAP
 * storage, Seize the Initiative, AC replacement), 10 (victory). */
#include <stdio.h>
#include <string.h>

#include "hm_int.h"

/* H&M 6: the d6 table for additional CAP. */
static int cap_table(int d)
{
    return d == 1 ? 1 : d <= 4 ? 2 : 3;
}

int hm_store_max(const hm_state *s, const mk_scenario *sc)
{
    int ac = s->ac[s->active];
    if (ac < 0 || s->u[ac].hex < 0 || (s->u[ac].flags & (HU_MOVED | HU_RALLIED | HU_COMBAT)))
        return 0;
    int r = s->u[ac].mp; /* AMB-HM-6: up to the rating */
    return r < s->cap ? r : s->cap;
}

/* H&M 9 AC Replacement: the leader with the most units of his nationality
 * present tries; d6 <= rating makes him the AC. */
void hm_ac_attempt(hm_state *s, const mk_scenario *sc, mk_events *ev)
{
    int side = s->active, best = -1, bn = -1;
    for (int i = 0; i < s->nunits; i++) {
        if (sc->units[i].kind != HK_LEADER || sc->units[i].side != side || s->u[i].hex < 0)
            continue;
        int n = 0;
        for (int j = 0; j < s->nunits; j++)
            if (s->u[j].hex >= 0 && hm_is_unit(sc->units[j].kind) && sc->units[j].side == side &&
                s->u[j].nat == s->u[i].nat)
                n++;
        if (n > bn) {
            bn = n;
            best = i;
        }
    }
    s->ac_retry = -1;
    if (best < 0)
        return;
    int d = mk_rng_d6(&s->head.rng);
    mk_event *e = mk_events_add(ev, "roll");
    e->purpose = "ac_replacement";
    e->rule = "H&M 9 AC Replacement";
    e->unit = (int16_t)best;
    e->die = 6;
    mk_event_value(e, d);
    e->need = s->u[best].mp;
    e->passed = (int16_t)(d <= s->u[best].mp);
    if (d <= s->u[best].mp) {
        s->ac[side] = (int16_t)best;
        s->seize_left[side] = s->u[best].mp; /* a fresh slate of seizure attempts */
        return;
    }
    if (s->cap >= 1 && !(s->u[best].flags & HU_TWICE)) { /* one paid second attempt */
        s->u[best].flags |= HU_TWICE;
        s->ac_retry = (int8_t)1;
        s->pending = HP_AC_RETRY;
        s->decider = (int8_t)side;
        s->to_move = (int8_t)side;
    }
}

/* H&M 5, 6: the active player's turn begins: CAP = base (less leaders lost,
 * H&M 9) + stored + d6 table. */
void hm_turn_begin(hm_state *s, const mk_scenario *sc, mk_events *ev)
{
    int side = s->active;
    s->to_move = (int8_t)side;
    s->pending = HP_NONE;
    s->discount_used = 0;
    for (int i = 0; i < s->nunits; i++) {
        s->u[i].flags &= HU_AMMO;
        s->u[i].acts = 0;
        s->u[i].start = s->u[i].hex;
    }
    int base = sc->sides[side].cap - s->leaders_lost[side];
    if (base < 0)
        base = 0;
    int d = mk_rng_d6(&s->head.rng);
    s->cap_roll = (int8_t)d;
    s->cap = (int8_t)(base + s->stored[side] + cap_table(d));
    mk_event *e = mk_events_add(ev, "roll");
    e->purpose = "cap";
    e->rule = "H&M 6: 1: +1, 2-4: +2, 5-6: +3";
    e->side = (int16_t)side;
    e->die = 6;
    mk_event_value(e, d);
    mk_event_mod(e, (int16_t)base, "base CAP (less leaders lost, H&M 9)");
    if (s->stored[side])
        mk_event_mod(e, s->stored[side], "stored CAP (H&M 9)");
    e->points = s->cap;
    s->stored[side] = 0;
    mk_event *t = mk_events_add(ev, "turn");
    t->side = (int16_t)side;
    t->value = s->turn;
    t->points = s->cap;
    if (hm_event_roll(s, sc, ev))
        return; /* 15 Random Events: a decision first; hm_event_choose goes on */
    if (s->ac[side] < 0 && s->ac_lost[side])
        hm_ac_attempt(s, sc, ev);
}

/* Each side's MP on the map and VP x 2 (H&M 10: its eliminations, and
 * the enemy VP markers it holds, held while occupied), from the lists of
 * hm_ext: evaluate calls this for each of a rollout step's candidates. */
void hm_tally(const hm_state *s, const mk_scenario *sc, int mp[2], int vp[2])
{
    const hm_ext *x = sc->ext;
    uint8_t occ[HM_MAX_HEX]; /* bit side: a unit of that side stands here */
    memset(occ, 0, sizeof occ);
    mp[0] = mp[1] = 0;
    vp[0] = s->vp2[0];
    vp[1] = s->vp2[1];
    for (int k = 0; k < x->nunit; k++) {
        int i = x->unit[k], hex = s->u[i].hex;
        if (hex >= 0) {
            mp[x->side[i]] += s->u[i].mp;
            occ[hex] |= (uint8_t)(1u << x->side[i]);
        }
    }
    for (int k = 0; k < x->nmarker; k++) {
        int m = x->marker[k], hex = s->u[m].hex, holder = 1 - x->side[m];
        if (hex >= 0 && occ[hex] >> holder & 1)
            vp[holder] += s->u[m].vpv;
    }
}

int hm_vp_now(const hm_state *s, const mk_scenario *sc, int side)
{
    int mp[2], vp[2];
    hm_tally(s, sc, mp, vp);
    return vp[side];
}

static bool side_wins(const hm_state *s, const mk_scenario *sc, int side)
{
    if (s->vp_target2[side] > 0 && hm_vp_now(s, sc, side) >= s->vp_target2[side])
        return true;
    if (s->kill_leader[side] >= 0 && s->u[s->kill_leader[side]].hex < 0)
        return true;
    if (s->elim_all[side]) {
        for (int i = 0; i < s->nunits; i++)
            if (s->u[i].hex >= 0 && hm_is_unit(sc->units[i].kind) && sc->units[i].side != side)
                return false;
        return true;
    }
    return false;
}

/* H&M 5: both players check for victory after each player turn. */
void hm_victory_check(hm_state *s, const mk_scenario *sc, bool last, mk_events *ev)
{
    bool w0 = side_wins(s, sc, 0), w1 = side_wins(s, sc, 1);
    if (w0 || w1) {
        s->over = 1;
        s->winner = (int8_t)(w0 && w1 ? -1 : w0 ? 0 : 1);
        s->reason = HV_WIN;
    } else if (last) {
        s->over = 1;
        if (s->time_rule) {
            s->winner = -1;
            s->reason = HV_BOTH_LOSE;
        } else {
            int a = hm_vp_now(s, sc, 0), b = hm_vp_now(s, sc, 1);
            s->winner = (int8_t)(a > b ? 0 : b > a ? 1 : -1);
            s->reason = HV_TIME;
        }
    }
    if (s->over) {
        mk_event *e = mk_events_add(ev, "game_over");
        e->side = s->winner;
        e->rule = "H&M 10";
    }
}

/* The active player ends his turn, storing `store` CAP with his AC (H&M 9). */
void hm_end_turn(hm_state *s, const mk_scenario *sc, int store, mk_events *ev)
{
    int side = s->active;
    hm_event_turn_end(s, sc, ev); /* 15 Random Events: an unused result is lost */
    if (store > 0) {
        s->stored[side] = (int8_t)store;
        mk_event *e = mk_events_add(ev, "store");
        e->rule = "H&M 9 CAP Storage";
        e->side = (int16_t)side;
        e->unit = s->ac[side];
        e->points = (int16_t)store;
    }
    s->cap = 0;
    hm_victory_check(s, sc, s->half == 1 && s->turn >= s->turns, ev);
    if (s->over) {
        s->to_move = s->active;
        return;
    }
    if (s->half == 0) {
        s->half = 1;
        s->active = (int8_t)(1 - s->order);
        hm_turn_begin(s, sc, ev);
        return;
    }
    s->turn++;
    s->half = 0;
    s->order = s->first;
    s->active = s->first;
    int b = 1 - s->first;
    if (s->stored[b] >= 1 && s->ac[b] >= 0 && s->u[s->ac[b]].hex >= 0 && s->seize_left[b] > 0) {
        s->pending = HP_SEIZE; /* H&M 5, 9: before Player A rolls for CAP */
        s->decider = (int8_t)b;
        s->to_move = (int8_t)b;
        return;
    }
    hm_turn_begin(s, sc, ev);
}

/* H&M 9 Seize the Initiative: 1 stored CAP; both roll d6 + AC rating,
 * Player B must roll higher. */
void hm_seize_resolve(hm_state *s, const mk_scenario *sc, bool try_it, mk_events *ev)
{
    int a = s->first, b = 1 - a;
    s->pending = HP_NONE;
    if (try_it) {
        s->stored[b]--;
        s->seize_left[b]--;
        int db = mk_rng_d6(&s->head.rng), da = mk_rng_d6(&s->head.rng); /* B, then A */
        int ra = s->ac[a] >= 0 ? s->u[s->ac[a]].mp : 0, rb = s->u[s->ac[b]].mp;
        mk_event *e = mk_events_add(ev, "roll");
        e->purpose = "seize_initiative";
        e->rule = "H&M 9 Seize the Initiative";
        e->side = (int16_t)b;
        e->die = 6;
        mk_event_value(e, db);
        mk_event_value(e, da);
        mk_event_mod(e, (int16_t)rb, "Player B's AC rating");
        mk_event_mod(e, (int16_t)ra, "Player A's AC rating");
        e->passed = (int16_t)(db + rb > da + ra);
        if (db + rb > da + ra)
            s->order = (int8_t)b;
    }
    s->active = s->order;
    hm_turn_begin(s, sc, ev);
}

void hm_result(const void *st, const mk_scenario *sc, mk_result *out)
{
    const hm_state *s = st;
    out->winner = s->over ? s->winner : -1;
    out->level = !s->over                    ? "none"
                 : s->reason == HV_BOTH_LOSE ? "both_lose"
                 : s->winner < 0             ? "draw"
                 : s->reason == HV_TIME      ? "time"
                                             : "victory";
    snprintf(out->reason, sizeof out->reason, "%s; VP %d.%d - %d.%d",
             !s->over                    ? "in progress"
             : s->reason == HV_BOTH_LOSE ? "time ran out: both sides lose (H&M 10)"
             : s->reason == HV_TIME      ? "time ran out: more VP"
                                         : "victory conditions met (H&M 10)",
             hm_vp_now(s, sc, 0) / 2, hm_vp_now(s, sc, 0) % 2 ? 5 : 0, hm_vp_now(s, sc, 1) / 2,
             hm_vp_now(s, sc, 1) % 2 ? 5 : 0);
}

/* The scenario's "victory" object: per side id {"vp": n, "eliminate_all":
 * bool, "eliminate_leader": unit id}, and "time": "more_vp" | "both_lose". */
int hm_victory_check_scenario(const mk_scenario *sc, mk_error *err)
{
    json_t *v = json_object_get(sc->json, "victory");
    if (!v)
        return 0;
    if (!json_is_object(v))
        return mk_error_set(err, "scenario_invalid", "%s: victory: an object is needed",
                            sc->source);
    for (int i = 0; i < 2; i++) {
        json_t *o = json_object_get(v, sc->sides[i].id);
        if (!o)
            continue;
        json_t *vp = json_object_get(o, "vp"), *l = json_object_get(o, "eliminate_leader");
        if (vp && (!json_is_number(vp) || json_number_value(vp) < 0 || json_number_value(vp) > 99))
            return mk_error_set(err, "scenario_invalid", "%s: victory.%s.vp: 0-99 needed",
                                sc->source, sc->sides[i].id);
        if (l && (!json_is_string(l) || mk_scenario_unit(sc, json_string_value(l)) < 0 ||
                  sc->units[mk_scenario_unit(sc, json_string_value(l))].kind != HK_LEADER))
            return mk_error_set(err, "scenario_invalid",
                                "%s: victory.%s.eliminate_leader: a leader's unit id is needed",
                                sc->source, sc->sides[i].id);
    }
    json_t *t = json_object_get(v, "time");
    if (t && (!json_is_string(t) || (strcmp(json_string_value(t), "more_vp") != 0 &&
                                     strcmp(json_string_value(t), "both_lose") != 0)))
        return mk_error_set(err, "scenario_invalid",
                            "%s: victory.time: \"more_vp\" or \"both_lose\"", sc->source);
    return 0;
}
