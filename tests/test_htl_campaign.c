/* test_htl_campaign.c - Hold the Line campaigns (HtL 12): the VP a finished
 * scenario carries into its campaign (a victory on VP: what each side
 * earned; a loss on time: the victor gets the VP it needed to win,
 * AMB-HTL-10, the loser what it earned; a draw), the running total and the
 * winner, the campaigns listed with their missing scenarios, and whole
 * campaigns played computer against computer. Games are played through the
 * ruleset's hooks to their end, never by setting the result by hand. */
#include <stdlib.h>
#include <string.h>

#include "ai/ai.h"
#include "check.h"
#include "core/catalog.h"
#include "core/game.h"
#include "core/ruleset.h"
#include "core/scenario.h"
#include "rules/htl/campaign.h"
#include "rules/htl/htl_int.h"
#include "rules/rules.h"

static const mk_ruleset *rs = &mk_htl_ruleset;

/* A one-turn scenario with the given id: an American light infantry (E7)
 * that can take a British VP counter (E5) by a 2-hex move, far from the
 * British regular (K1). victory: the "victory" object's contents. */
static mk_scenario *small(const char *id, int turns, const char *victory)
{
    static char buf[4096];
    snprintf(buf, sizeof buf,
             "{\"ruleset\":\"htl\",\"id\":\"%s\",\"title\":\"test\","
             "\"map\":{\"orientation\":\"pointy\",\"shifted\":\"even\",\"cols\":13,\"rows\":9,"
             "\"terrain\":{}},"
             "\"sides\":[{\"id\":\"american\",\"cap\":3,\"home\":\"south\"},"
             "{\"id\":\"british\",\"cap\":3,\"home\":\"north\"}],"
             "\"first\":\"american\",\"turns\":%d,\"units\":["
             "{\"id\":\"A-3LT-1\",\"side\":\"american\",\"kind\":\"light\",\"mp\":3,\"hex\":\"E7\"},"
             "{\"id\":\"B-4-1\",\"side\":\"british\",\"kind\":\"regular\",\"mp\":4,\"hex\":\"K1\"},"
             "{\"id\":\"B-VP-1\",\"side\":\"british\",\"kind\":\"vp\",\"hex\":\"E5\"}],"
             "\"victory\":{%s}}",
             id, turns, victory);
    mk_error err = {0};
    const mk_ruleset *const list[] = {rs};
    mk_scenario *sc = mk_scenario_parse(buf, strlen(buf), "(test)", list, 1, &err);
    if (!sc) {
        fprintf(stderr, "scenario: %s\n", err.msg);
        abort();
    }
    return sc;
}

static int hex(const mk_scenario *sc, const char *label)
{
    mk_hex h;
    char e[128];
    if (mk_hex_parse(&sc->map.grid, label, &h, e, sizeof e))
        abort();
    return h;
}

static int apply(htl_state *s, const mk_scenario *sc, mk_action a)
{
    mk_events ev;
    mk_events_init(&ev, NULL, 0);
    mk_error err = {0};
    int rc = rs->apply(s, sc, &a, &ev, &err);
    if (rc)
        fprintf(stderr, "  (refused: %s)\n", err.msg);
    return rc;
}

static mk_action end_turn(void)
{
    mk_action a;
    memset(&a, 0, sizeof a);
    a.type = HA_END;
    a.unit = a.other = a.target = -1;
    return a;
}

/* Plays the small scenario: the Americans take the VP counter (take) or
 * not, then both sides end their turns until the game is over. */
static void play_small(htl_state *s, const mk_scenario *sc, bool take)
{
    mk_error err = {0};
    memset(s, 0, sizeof *s);   /* init wants a zeroed state */
    CHECK_EQ(rs->init(s, sc, 0, 1, NULL, &err), 0);
    if (take) {
        mk_action m;
        memset(&m, 0, sizeof m);
        m.type = HA_MOVE;
        m.unit = (int16_t)mk_scenario_unit(sc, "A-3LT-1");
        m.other = -1;
        m.path[0] = (int16_t)hex(sc, "E6");
        m.path[1] = (int16_t)hex(sc, "E5");
        m.npath = 2;
        m.target = m.path[1];
        CHECK_EQ(apply(s, sc, m), 0);
    }
    for (int k = 0; k < 20 && !rs->over(s); k++)
        CHECK_EQ(apply(s, sc, end_turn()), 0);
    CHECK(rs->over(s));
}

/* HtL 12: "When a scenario ends in victory for one side, each side
 * receives the VP earned at the point the game scenario ends." */
static void test_12_victory_on_vp(void)
{
    mk_scenario *sc = small("htl/trenton", 3, "\"vp\":{\"american\":1,\"british\":4}");
    htl_state *s = calloc(1, sizeof *s);
    play_small(s, sc, true);
    CHECK_EQ(s->reason, HR_VP);
    CHECK_EQ(s->turn, 1);   /* the check after the American turn */
    htl_campaign_score r;
    mk_error err = {0};
    CHECK_EQ(htl_campaign_score_game(sc, s, &r, &err), 0);
    CHECK_EQ(r.winner, 0);
    CHECK(!r.on_time);
    CHECK_EQ(r.earned[0], 1);
    CHECK_EQ(r.vp[0], 1);   /* what it earned, not its target */
    CHECK_EQ(r.vp[1], 0);
    free(s);
    mk_scenario_free(sc);
}

/* HtL 12: "If a side loses a scenario due to time constraints, the victor
 * is given the maximum VP for the scenario needed to win and the loser
 * receives the VP he has earned": the victor's own target (AMB-HTL-10). */
static void test_12_loss_on_time(void)
{
    /* the scenario names the time winner (HtL 10.C) */
    mk_scenario *sc = small("htl/trenton", 2,
                            "\"vp\":{\"american\":3,\"british\":5},\"time_limit_winner\":\"british\"");
    htl_state *s = calloc(1, sizeof *s);
    play_small(s, sc, true);
    CHECK_EQ(s->reason, HR_TIME);
    CHECK_EQ(s->winner, 1);
    CHECK_EQ(s->vp[0], 1);
    CHECK_EQ(s->vp[1], 0);
    htl_campaign_score r;
    mk_error err = {0};
    CHECK_EQ(htl_campaign_score_game(sc, s, &r, &err), 0);
    CHECK_EQ(r.winner, 1);
    CHECK(r.on_time);
    CHECK_EQ(r.vp[1], 5);     /* the British target, though they earned 0 */
    CHECK_EQ(r.earned[1], 0);
    CHECK_EQ(r.vp[0], 1);     /* the loser: what it earned */
    mk_scenario_free(sc);

    /* time runs out and more VP wins (no time_limit_winner): the same */
    sc = small("htl/princeton", 1, "\"vp\":{\"american\":4,\"british\":6}");
    play_small(s, sc, true);
    CHECK_EQ(s->reason, HR_TIME_VP);
    CHECK_EQ(s->winner, 0);
    CHECK_EQ(htl_campaign_score_game(sc, s, &r, &err), 0);
    CHECK(r.on_time);
    CHECK_EQ(r.vp[0], 4);
    CHECK_EQ(r.vp[1], 0);
    mk_scenario_free(sc);

    /* a victor on time with no target of its own: the loser's target */
    sc = small("htl/trenton", 1, "\"vp\":{\"american\":3},\"time_limit_winner\":\"british\"");
    play_small(s, sc, false);
    CHECK_EQ(s->winner, 1);
    CHECK_EQ(htl_campaign_score_game(sc, s, &r, &err), 0);
    CHECK_EQ(r.vp[1], 3);
    CHECK_EQ(r.vp[0], 0);
    mk_scenario_free(sc);

    /* a draw on time: each side what it earned */
    sc = small("htl/trenton", 1, "\"vp\":{\"american\":3,\"british\":3}");
    play_small(s, sc, false);
    CHECK_EQ(s->winner, -1);
    CHECK_EQ(htl_campaign_score_game(sc, s, &r, &err), 0);
    CHECK_EQ(r.winner, -1);
    CHECK(!r.on_time);
    CHECK_EQ(r.vp[0], 0);
    CHECK_EQ(r.vp[1], 0);

    /* a game not over is refused */
    memset(s, 0, sizeof *s);
    CHECK_EQ(rs->init(s, sc, 0, 1, NULL, &err), 0);
    CHECK(htl_campaign_score_game(sc, s, &r, &err) != 0);
    free(s);
    mk_scenario_free(sc);
}

/* HtL 12: the campaign total is the sum over its scenarios; the winner has
 * the most VP. Scenarios are scored in the campaign's order. */
static void test_12_tally(void)
{
    const htl_campaign *c = htl_campaign_find("christmas");
    CHECK(c != NULL);
    CHECK_EQ(c->nscenarios, 2);
    htl_campaign_tally t;
    htl_campaign_tally_init(&t, c);
    htl_state *s = calloc(1, sizeof *s);
    mk_error err = {0};
    /* out of order: Princeton first is refused */
    mk_scenario *p = small("htl/princeton", 1, "\"vp\":{\"american\":4,\"british\":6}");
    play_small(s, p, true);
    CHECK(htl_campaign_tally_add(&t, p, s, &err) != 0);
    /* Trenton lost on time by the Americans with 1 VP: british 5, american 1 */
    mk_scenario *tr = small("htl/trenton", 2,
                            "\"vp\":{\"american\":3,\"british\":5},\"time_limit_winner\":\"british\"");
    play_small(s, tr, true);
    CHECK_EQ(htl_campaign_tally_add(&t, tr, s, &err), 0);
    CHECK_EQ(t.vp[0], 1);
    CHECK_EQ(t.vp[1], 5);
    CHECK(!htl_campaign_tally_done(&t));
    /* Princeton won on time by the Americans: american 4 */
    play_small(s, p, true);
    CHECK_EQ(htl_campaign_tally_add(&t, p, s, &err), 0);
    CHECK_EQ(t.vp[0], 5);
    CHECK_EQ(t.vp[1], 5);
    CHECK(htl_campaign_tally_done(&t));
    CHECK_EQ(htl_campaign_tally_winner(&t), -1);   /* 5-5: equal */
    CHECK(htl_campaign_tally_add(&t, p, s, &err) != 0);   /* nothing left to play */
    free(s);
    mk_scenario_free(p);
    mk_scenario_free(tr);
}

/* HtL 12 lists four campaigns; the two whose scenarios we have are
 * available, the others name what is missing. */
static void test_12_campaign_list(void)
{
    int n;
    const htl_campaign *c = htl_campaigns(&n);
    CHECK_EQ(n, 4);
    char missing[512];
    mk_error err = {0};
    int complete = 0;
    for (int i = 0; i < n; i++) {
        int m = htl_campaign_missing(&c[i], missing, sizeof missing, &err);
        CHECK(m >= 0);
        complete += m == 0;
        CHECK((m == 0) == (missing[0] == '\0'));
    }
    /* Every battle of the four campaigns is authored (scenarios/htl). */
    CHECK_EQ(complete, 4);
    CHECK_EQ(htl_campaign_missing(htl_campaign_find("new-york"), missing, sizeof missing, &err), 0);
    CHECK_EQ(htl_campaign_missing(htl_campaign_find("christmas"), missing, sizeof missing, &err), 0);
    CHECK_EQ(htl_campaign_missing(htl_campaign_find("down-south"), missing, sizeof missing, &err), 0);
    CHECK_EQ(htl_campaign_missing(htl_campaign_find("turning-point"), missing, sizeof missing, &err), 0);
    CHECK(htl_campaign_find("nowhere") == NULL);
}

/* The available campaigns played to the end by the computer on both sides
 * (as `musket campaign --auto` does): every scenario's carried VP follow
 * HtL 12, and the total is their sum. */
static void test_12_auto_campaigns(void)
{
    const char *ids[] = {"christmas", "new-york"};
    int nrs;
    const mk_ruleset *const *rulesets = mk_rulesets(&nrs);
    for (int k = 0; k < 2; k++) {
        for (uint64_t seed = 1; seed <= 2; seed++) {
            const htl_campaign *c = htl_campaign_find(ids[k]);
            htl_campaign_tally t;
            htl_campaign_tally_init(&t, c);
            int sum[2] = {0, 0};
            for (int i = 0; i < c->nscenarios; i++) {
                mk_error err = {0};
                mk_scenario *sc = mk_catalog_load(c->scenarios[i], rulesets, nrs, &err);
                CHECK(sc != NULL);
                if (!sc)
                    return;
                mk_game *g = mk_game_new(sc, 0, seed * 10 + (uint64_t)i, &err);
                CHECK(g != NULL);
                mk_ai_config cfg;
                mk_ai_config_init(&cfg);
                cfg.engine = MK_AI_GREEDY;
                cfg.samples = 1;
                for (int steps = 0; !mk_game_over(g) && steps < 5000; steps++) {
                    mk_action a;
                    cfg.seed = seed * 1000 + (uint64_t)steps;
                    if (mk_ai_pick(g->rs, g->sc, g->st, &cfg, &a) || mk_game_act(g, &a, &err))
                        break;
                }
                CHECK(mk_game_over(g));
                const htl_state *s = g->st;
                CHECK_EQ(htl_campaign_tally_add(&t, g->sc, g->st, &err), 0);
                const htl_campaign_score *r = &t.each[i];
                int am = mk_scenario_side(g->sc, "american");
                for (int side = 0; side < 2; side++) {
                    int ss = side == 0 ? am : 1 - am;
                    CHECK_EQ(r->earned[side], s->vp[ss]);
                    if (r->on_time && side == r->winner)
                        CHECK_EQ(r->vp[side], s->vp_target[ss] > s->vp[ss] ? s->vp_target[ss]
                                                                               : s->vp[ss]);
                    else
                        CHECK_EQ(r->vp[side], s->vp[ss]);
                    sum[side] += r->vp[side];
                }
                CHECK_EQ(r->on_time, s->winner >= 0 && s->reason != HR_VP);
                mk_game_free(g);
            }
            CHECK(htl_campaign_tally_done(&t));
            CHECK_EQ(t.vp[0], sum[0]);
            CHECK_EQ(t.vp[1], sum[1]);
            printf("%s seed %llu: american %d, british %d\n", ids[k], (unsigned long long)seed,
                   t.vp[0], t.vp[1]);
        }
    }
}

int main(void)
{
    test_12_victory_on_vp();
    test_12_loss_on_time();
    test_12_tally();
    test_12_campaign_list();
    test_12_auto_campaigns();
    return check_done("test_htl_campaign");
}
