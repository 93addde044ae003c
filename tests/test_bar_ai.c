/* test_bar_ai.c - the computer players on Monmouth (BAR) and what makes
 * them fast:
 *  - the tables the generators and the evaluation read (neighbours, the
 *    bearing of a neighbour, where a hexside is kept, cube coordinates)
 *    agree with core and map.c on every hex of the map;
 *  - the per-call index of who stands where (bar_occ) walks the pieces of a
 *    hex in the order of a scan;
 *  - apply's check of one action (the acting piece's actions only) accepts
 *    exactly what legal() lists, on the states of random games, for listed
 *    and for mutated (mostly illegal) actions;
 *  - the evaluation is in [-1, 1] and zero-sum;
 *  - greedy and mcts (a small budget) play scenario 1 to its end, every
 *    action they choose listed by legal() and accepted by apply;
 *  - greedy beats random in scenario 1 (more wins than losses over a few
 *    games, sides alternating). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ai/ai.h"
#include "check.h"
#include "core/catalog.h"
#include "rules/bar/bar_int.h"
#include "rules/rules.h"

#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif

static int nrs;
static const mk_ruleset *const *rss;

static mk_scenario *load(const char *id)
{
    mk_error err = {0};
    mk_scenario *sc = mk_catalog_load(id, rss, nrs, &err);
    if (!sc)
        fprintf(stderr, "%s: %s\n", id, err.msg);
    return sc;
}

static void test_tables(const mk_scenario *sc)
{
    const bar_ext *x = bar_x(sc);
    const mk_grid *g = &sc->map.grid;
    int size = mk_grid_size(g), bad_nb = 0, bad_bearing = 0, bad_side = 0, bad_dir = 0, bad_cube = 0;
    for (mk_hex h = 0; h < size; h++) {
        mk_cube c = mk_hex_cube(g, h);
        bad_cube += c.q != x->cq[h] || c.r != x->cr[h];
        for (int d = 0; d < 6; d++) {
            mk_hex n = mk_hex_neighbor(g, h, d);
            bad_nb += n != x->nb[h][d];
            if (n == MK_NO_HEX)
                continue;
            /* move.c and melee.c take a neighbour's bearing from its direction */
            bad_bearing += bar_bearing12(g, h, n) != bar_dir_step(d);
            bad_dir += mk_hex_direction(g, h, n) != d;
            /* move.c reads the hexside from the direction (bar.h bar_map) */
            unsigned kept = d < 3 ? x->map.side[h][d] : x->map.side[n][d - 3];
            bad_side += bar_hexside(&x->map, h, n) != kept;
        }
    }
    CHECK_EQ(bad_nb, 0);
    CHECK_EQ(bad_bearing, 0);
    CHECK_EQ(bad_dir, 0);
    CHECK_EQ(bad_side, 0);
    CHECK_EQ(bad_cube, 0);
    /* the evaluation's distances */
    mk_hex w2220;
    CHECK(mk_hex_parse(g, "W2220", &w2220, NULL, 0) == 0);
    CHECK_EQ(x->dist_hold[w2220], x->scen.victory.hold_hex == w2220 ? 0 : 255);   /* 7.1d C only */
    CHECK_EQ(x->dist_home[BAR_BRITISH][x->home[BAR_BRITISH]], 0);
    CHECK_EQ(x->dist_home[BAR_AMERICAN][w2220], mk_hex_distance(g, w2220, x->home[BAR_AMERICAN]));
    CHECK_EQ(x->home_span, mk_hex_distance(g, x->home[0], x->home[1]));
}

/* 7.2d B, 7.3d C: the evaluation's cost of leaving by the British exit
 * edge (evaluate.c exit_costs). The exit hexes cost the exit's half MP;
 * from every other hex the first step (exit_dir) leads to a cheaper hex,
 * costing at least a major road hex, exactly that along one; following
 * the steps from every British unit's hex reaches the exit edge. Late in
 * the game, a British unit standing at the exit edge is worth more to the
 * British than the same unit far inland (out of the fighting), which
 * cannot leave in time; early, much less (only the march on the American
 * rally hex tells the two apart then). */
static void test_exit_costs(void)
{
    mk_scenario *sc = load("bar/2-washingtons-stand");
    mk_scenario *sc1 = load("bar/1-lees-repulse");
    CHECK(sc != NULL && sc1 != NULL);
    if (!sc || !sc1) {
        mk_scenario_free(sc);
        mk_scenario_free(sc1);
        return;
    }
    const bar_ext *x = bar_x(sc), *x1 = bar_x(sc1);
    const mk_grid *g = &sc->map.grid;
    const bar_sc_victory *v = &x->scen.victory;
    int size = mk_grid_size(g), exits = 0, unreached = 0, bad_exit = 0, bad_step = 0, bad_road = 0, roads = 0;
    for (mk_hex h = 0; h < size; h++) {
        bool edge = mk_hex_on_map_edge(g, h) && mk_hex_distance(g, h, v->exit_hex) <= v->exit_within;
        exits += edge;
        if (x->exit_cost[h] == BAR_NO_EXIT) {
            unreached += x->map.terrain[h] != BAR_T_LAKE;
            continue;
        }
        if (edge) {
            bad_exit += x->exit_cost[h] != 6;
            continue;
        }
        mk_hex n = x->nb[h][x->exit_dir[h]];
        if (n == MK_NO_HEX || x->exit_cost[n] == BAR_NO_EXIT || x->exit_cost[h] < x->exit_cost[n] + 2) {
            bad_step++;
            continue;
        }
        if (bar_road(&x->map, h, n) == BAR_ROAD_MAJOR) {
            roads++;
            bad_road += x->exit_cost[h] != x->exit_cost[n] + 2;
        }
    }
    CHECK(exits >= 6);
    CHECK_EQ(bad_exit, 0);
    CHECK_EQ(bad_step, 0);
    CHECK_EQ(bad_road, 0);
    CHECK(roads > 50);
    CHECK_EQ(unreached, 0);
    int no_exit = 0;
    for (mk_hex h = 0; h < mk_grid_size(&sc1->map.grid); h++)
        no_exit += x1->exit_cost[h] == BAR_NO_EXIT;
    CHECK_EQ(no_exit, mk_grid_size(&sc1->map.grid));   /* 7.1d: no exit in scenario 1 */

    const mk_ruleset *rs = sc->rs;
    bar_state *s = calloc(1, rs->state_size), *t = calloc(1, rs->state_size);
    mk_error err;
    CHECK(s && t && rs->init(s, sc, 0, 5, NULL, &err) == 0);
    int unit = -1, walked = 0;
    for (int i = 0; s && t && i < s->npieces; i++) {
        if (x->p[i].side != BAR_BRITISH || bar_is_leader(&x->p[i]) || s->pc[i].hex == MK_NO_HEX)
            continue;
        mk_hex h = s->pc[i].hex;
        for (int k = 0; k < 200 && x->exit_cost[h] != 6; k++)
            h = x->nb[h][x->exit_dir[h]];
        walked += x->exit_cost[h] == 6;
        int near = 255;   /* hexes to the nearest American unit: out of every fire's reach */
        for (int j = 0; j < s->npieces; j++)
            if (x->p[j].side == BAR_AMERICAN && s->pc[j].hex != MK_NO_HEX && !bar_is_leader(&x->p[j]) &&
                mk_hex_distance(g, s->pc[i].hex, s->pc[j].hex) < near)
                near = mk_hex_distance(g, s->pc[i].hex, s->pc[j].hex);
        if (unit < 0 && !x->p[i].independent && x->exit_cost[s->pc[i].hex] > 90 && near > 12)
            unit = i;
    }
    int british = 0;
    for (int i = 0; s && i < s->npieces; i++)
        british += x->p[i].side == BAR_BRITISH && !bar_is_leader(&x->p[i]) && s->pc[i].hex != MK_NO_HEX;
    CHECK(british > 20);
    CHECK_EQ(walked, british);
    CHECK(unit >= 0);
    mk_hex edge = MK_NO_HEX;
    for (mk_hex h = 0; h < size && edge == MK_NO_HEX; h++)
        if (x->exit_cost[h] == 6)
            edge = h;
    if (s && t && unit >= 0 && edge != MK_NO_HEX) {
        /* the first turn; 7:00 PM, a turn before the exit opens (the
         * march out starts before it: docs/ai.md "Monmouth's exit"); the
         * last but one */
        double gain[3];
        int turns[3] = {x->first_turn, x->last_turn - 12, x->last_turn - 1};
        for (int k = 0; k < 3; k++) {
            s->turn = (int16_t)turns[k];
            memcpy(t, s, rs->state_size);
            t->pc[unit].hex = edge;
            gain[k] = rs->evaluate(t, sc, BAR_BRITISH) - rs->evaluate(s, sc, BAR_BRITISH);
        }
        printf("bar/2: a British unit %d sixths of a half MP from the exit moved to it: %+.4f for the British "
               "at the first turn, %+.4f at 7:00 PM, %+.4f at the last but one\n", x->exit_cost[s->pc[unit].hex],
               gain[0], gain[1], gain[2]);
        CHECK(gain[2] > 0.002);
        CHECK(gain[2] > gain[0] + 0.002);
        CHECK(gain[1] > gain[0] + 0.0005);
        /* the evaluate hook's range at the extremes: the British beaten
         * with every unit left on the map late, and the Americans beaten
         * with every British unit gone */
        memcpy(t, s, rs->state_size);
        t->loss[BAR_BRITISH] = 60;
        double hi = rs->evaluate(t, sc, BAR_AMERICAN);
        memcpy(t, s, rs->state_size);
        t->loss[BAR_AMERICAN] = 60;
        for (int i = 0; i < t->npieces; i++)
            if (x->p[i].side == BAR_BRITISH && !bar_is_leader(&x->p[i]) && t->pc[i].hex != MK_NO_HEX) {
                t->pc[i].hex = MK_NO_HEX;
                t->pc[i].more |= BM_EXITED;
            }
        double lo = rs->evaluate(t, sc, BAR_AMERICAN);
        printf("bar/2 at the last turn but one: %.4f with the British beaten, %.4f with the Americans\n", hi, lo);
        CHECK(hi <= 1 && hi > 0.5);
        CHECK(lo >= -1 && lo < -0.5);
        CHECK(fabs(rs->evaluate(t, sc, BAR_BRITISH) + lo) < 1e-12);
    }
    free(s);
    free(t);
    mk_scenario_free(sc);
    mk_scenario_free(sc1);
}

/* The index against a scan of the pieces, hex by hex. */
static int occ_mismatches(const bar_state *s, const mk_scenario *sc)
{
    bar_occ o;
    bar_occ_build(&o, s, sc);
    int bad = 0;
    for (int i = 0; i < s->npieces; i++) {
        mk_hex h = s->pc[i].hex;
        if (h == MK_NO_HEX)
            continue;
        int k = bar_occ_first(&o, h);
        for (int j = 0; j < s->npieces; j++)
            if (s->pc[j].hex == h) {
                bad += k != j;
                k = k >= 0 ? o.next[k] : -1;
            }
        bad += k != -1;
    }
    bad += bar_occ_first(&o, MK_NO_HEX) != -1;
    return bad;
}

/* bar_in_ezoc_o (the index) against bar_in_ezoc (a scan of every piece),
 * for both sides, on every piece's hexes and their neighbours: every hex
 * in a zone of control is one of them. *in_zoc counts the hexes where
 * the zone is there. */
static int ezoc_mismatches(const bar_state *s, const mk_scenario *sc, long *in_zoc)
{
    const bar_ext *x = bar_x(sc);
    bar_occ o;
    bar_occ_build(&o, s, sc);
    int bad = 0;
    for (int i = 0; i < s->npieces; i++) {
        mk_hex at[2] = {s->pc[i].hex, bar_tail_hex(s, sc, i)};
        for (int k = 0; k < 2; k++) {
            if (at[k] == MK_NO_HEX)
                continue;
            for (int d = -1; d < 6; d++) {
                mk_hex h = d < 0 ? at[k] : x->nb[at[k]][d];
                for (int side = 0; side < 2; side++) {
                    bool slow = bar_in_ezoc(s, sc, side, h);
                    bad += slow != bar_in_ezoc_o(s, &o, sc, side, h);
                    *in_zoc += slow;
                }
            }
        }
    }
    return bad;
}

static bool listed(const mk_action *list, int n, const mk_action *a)
{
    for (int i = 0; i < n; i++)
        if (mk_action_equal(&list[i], a))
            return true;
    return false;
}

/* Random games (a player that fires and closes when it can, so that every
 * phase is seen): at each state, apply on a copy agrees with legal(). */
static void test_apply_agrees(const char *id, int games, long steps_max)
{
    mk_scenario *sc = load(id);
    CHECK(sc != NULL);
    if (!sc)
        return;
    const mk_ruleset *rs = sc->rs;
    static mk_action list[MK_MAX_ACTIONS];
    bar_state *s = calloc(1, rs->state_size), *t = calloc(1, rs->state_size);
    long checked = 0, accepted = 0;
    int disagree = 0, occ_bad = 0, eval_bad = 0, refused = 0, ezoc_bad = 0;
    long in_zoc = 0;
    for (int g = 0; g < games; g++) {
        mk_error err;
        memset(s, 0, rs->state_size);
        CHECK(rs->init(s, sc, 0, (uint64_t)(31 + g), NULL, &err) == 0);
        mk_rng pick;
        mk_rng_seed(&pick, (uint64_t)(7 + g));
        for (long step = 0; step < steps_max && !rs->over(s); step++) {
            int n = rs->legal(s, sc, list, MK_MAX_ACTIONS);
            if (n <= 0)
                break;
            if (step % 7 == 0)
                occ_bad += occ_mismatches(s, sc);
            if (step % 49 == 0)
                ezoc_bad += ezoc_mismatches(s, sc, &in_zoc);
            double e0 = rs->evaluate(s, sc, 0), e1 = rs->evaluate(s, sc, 1);
            eval_bad += !(e0 >= -1 && e0 <= 1) || fabs(e0 + e1) > 1e-12;
            for (int k = 0; k < 4; k++) {
                mk_action a = list[mk_rng_below(&pick, (uint32_t)n)];
                switch (mk_rng_below(&pick, 6)) {
                case 0: a.unit = (int16_t)mk_rng_below(&pick, (uint32_t)s->npieces); break;
                case 1: a.target = (int16_t)(a.target + 1 - (int)mk_rng_below(&pick, 3)); break;
                case 2: if (a.npath) a.path[0] = (int16_t)(a.path[0] + 1); break;
                case 3: a.type = (uint8_t)mk_rng_below(&pick, BA_COUNT); break;
                case 4: a.flags ^= 1; break;
                default: break;   /* as listed */
                }
                memcpy(t, s, rs->state_size);
                mk_events sink;
                mk_events_init(&sink, NULL, 0);
                int rc = rs->apply(t, sc, &a, &sink, &err);
                disagree += (rc == 0) != listed(list, n, &a);
                accepted += rc == 0;
                checked++;
            }
            int k = (int)mk_rng_below(&pick, (uint32_t)n);
            for (int i = 0; i < n; i++)
                if ((list[i].type == BA_FIRE || list[i].type == BA_CC) && mk_rng_below(&pick, 2))
                    k = i;
            mk_events sink;
            mk_events_init(&sink, NULL, 0);
            if (rs->apply(s, sc, &list[k], &sink, &err) != 0) {
                fprintf(stderr, "%s: a listed action refused: %s\n", id, err.msg);
                refused++;
                break;
            }
        }
    }
    CHECK_EQ(disagree, 0);
    CHECK_EQ(refused, 0);
    CHECK_EQ(occ_bad, 0);
    CHECK_EQ(eval_bad, 0);
    CHECK_EQ(ezoc_bad, 0);
    CHECK(in_zoc > 0);   /* zones were there to find */
    printf("%s: the indexed zone of control against the scan: %d differ (%ld hexes in one)\n", id, ezoc_bad,
           in_zoc);
    CHECK(accepted > 0 && accepted < checked);   /* both kinds were tried */
    printf("%s: apply's check agrees with legal() on %ld actions (%ld legal)\n", id, checked, accepted);
    free(s);
    free(t);
    mk_scenario_free(sc);
}

/* One game of engine `a` (playing side a_side) against random; every
 * chosen action must be listed and accepted. Returns the winner relative
 * to a: 1 a won, -1 random won, 0 a draw; 2 on an illegal choice. */
static int play(const mk_ruleset *rs, const mk_scenario *sc, int engine, int iterations, int a_side,
                uint64_t seed, long *actions)
{
    static mk_action list[MK_MAX_ACTIONS];
    bar_state *s = calloc(1, rs->state_size);
    mk_error err;
    int out = 2;
    if (rs->init(s, sc, 0, seed, NULL, &err) != 0)
        goto done;
    for (*actions = 0; !rs->over(s) && *actions < 100000; (*actions)++) {
        int side = rs->to_move(s);
        mk_ai_config cfg;
        mk_ai_config_init(&cfg);
        cfg.engine = side == a_side ? engine : MK_AI_RANDOM;
        cfg.iterations = iterations;
        cfg.seed = seed * 1000003u + (uint64_t)*actions;
        mk_action a;
        if (mk_ai_pick(rs, sc, s, &cfg, &a) != 0)
            goto done;
        int n = rs->legal(s, sc, list, MK_MAX_ACTIONS);
        if (!listed(list, n, &a)) {
            fprintf(stderr, "%s chose an action legal() does not list\n", mk_ai_engine_name(cfg.engine));
            goto done;
        }
        mk_events sink;
        mk_events_init(&sink, NULL, 0);
        if (rs->apply(s, sc, &a, &sink, &err) != 0) {
            fprintf(stderr, "%s: refused: %s\n", mk_ai_engine_name(cfg.engine), err.msg);
            goto done;
        }
    }
    if (rs->over(s)) {
        mk_result r;
        rs->result(s, sc, &r);
        out = r.winner < 0 ? 0 : r.winner == a_side ? 1 : -1;
    }
done:
    free(s);
    return out;
}

static void test_engines(void)
{
    mk_scenario *sc = load("bar/1-lees-repulse");
    CHECK(sc != NULL);
    if (!sc)
        return;
    const mk_ruleset *rs = sc->rs;
    /* greedy against random, sides alternating (figures: docs/ai.md); the
     * games are the same in every build, so the sanitizer build, some
     * fifteen times slower, plays the first two only. Most games are
     * drawn (the evaluation prefers a draw to an even fight): over 24
     * games greedy won 11 and lost none before 2.1b's Square minimum, 9
     * and none after it, so "half the games won" sat on the mean and
     * tipped with any rule that changes the random side's choices; the
     * check is the decisive games: greedy wins clearly more than it loses
     * (BAR_AI_GAMES=N plays N games) */
    int won = 0, lost = 0, drawn = 0, games = SANITIZED ? 2 : 12;
    if (getenv("BAR_AI_GAMES"))
        games = atoi(getenv("BAR_AI_GAMES"));
    for (int g = 0; g < games; g++) {
        long actions = 0;
        int r = play(rs, sc, MK_AI_GREEDY, 0, g & 1, (uint64_t)(500 + g), &actions);
        CHECK(r != 2);
        won += r == 1;
        lost += r == -1;
        drawn += r == 0;
    }
    printf("bar/1-lees-repulse: greedy against random: %d won, %d lost, %d drawn\n", won, lost, drawn);
    CHECK(won > lost);
    CHECK(SANITIZED || won >= 3 * lost + 2);
    /* mcts with a small budget, as the British (one game: a whole
     * scenario is some 3000 choices) */
    long actions = 0;
    int r = play(rs, sc, MK_AI_MCTS, 12, 1, 77, &actions);
    CHECK(r != 2);
    printf("bar/1-lees-repulse: mcts (12 iterations) as the British against random: %s after %ld actions\n",
           r == 1 ? "won" : r == -1 ? "lost" : r == 0 ? "drawn" : "illegal", actions);
    mk_scenario_free(sc);
}

int main(void)
{
    rss = mk_rulesets(&nrs);
    static const char *const ids[] = {"bar/1-lees-repulse", "bar/4-general-engagement"};
    for (int k = 0; k < 2; k++) {
        mk_scenario *sc = load(ids[k]);
        CHECK(sc != NULL);
        if (sc) {
            test_tables(sc);
            mk_scenario_free(sc);
        }
    }
    test_exit_costs();
    test_apply_agrees("bar/1-lees-repulse", 2, 3000);
    test_apply_agrees("bar/4-general-engagement", 1, 3000);
    test_engines();
    return check_done("test_bar_ai");
}
