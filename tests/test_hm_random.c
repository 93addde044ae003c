/* test_hm_random.c - Horse & Musket: random games on every built-in hm
 * scenario, to the end, with the state's invariants checked after every
 * action (hm_state_ok: stacking of two units of different classes within
 * the terrain limit, 1 <= MP <= starting MP, CAP >= 0, at most two
 * activations, VP equal to the enemy's eliminations); legal() never lists
 * an action apply() refuses, and apply_listed() (no check) leaves the same
 * state as apply() for each listed action; every listed action survives a
 * JSON round trip (action_json -> action_parse); memcpy clones hash equal;
 * every game replays from its seed and actions to its own final hash.
 *
 * MUSKET_SOAK_GAMES=N plays N games per scenario (and N/5 + 1 with each
 * optional rule on, and with all of them: MUSKET_SOAK_OPTION_GAMES=M sets
 * that number) instead of 8 (docs/hm.md: the 10,000-game soak).
 *
 * Besides the built-in scenarios it plays one of its own (TERRAIN below)
 * that has what none of them has: hexes that begin over-stacked (H&M 4),
 * entrenchments with their hexsides and "hill_to_hill": false (H&M 2). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/catalog.h"
#include "rules/hm/hm_int.h"
#include "rules/rules.h"

static const mk_ruleset *rs = &mk_hm_ruleset;
static uint64_t rnd_state = 88172645463325252ull;
static uint32_t rnd(uint32_t n)
{
    rnd_state ^= rnd_state << 13;
    rnd_state ^= rnd_state >> 7;
    rnd_state ^= rnd_state << 17;
    return (uint32_t)(rnd_state % n);
}

#define MAX_STEPS 6000
static mk_action played[MAX_STEPS];
static int nplayed, failures;
static long games, actions, decisions, overs[4];
static long seen_elim, seen_retreat, seen_charge, seen_ambush, seen_withdraw, seen_leader;
static long seen_flank, seen_disorderly, seen_facing; /* 13 Facing, Disorderly Retreat */
static long seen_tie, seen_displace_ask, seen_displaced; /* H&M 8: the owner's choices */
static long seen_overstack_end, seen_r1_def_retreat, seen_def_reroll; /* H&M 4; 15 */

/* A position of our own with over-stacked set-ups, entrenchments and
 * hills without hill-to-hill effects (see the head of this file). */
static const char TERRAIN[] =
    "{\"ruleset\":\"hm\",\"id\":\"hm/test-terrain\",\"title\":\"terrain\",\"chart\":\"small\","
    "\"map\":{\"orientation\":\"pointy\",\"shifted\":\"even\",\"cols\":13,\"rows\":9,"
    "\"terrain\":{\"E4\":\"entrenchment\",\"F4\":\"entrenchment\",\"G6\":\"hill\",\"H6\":\"hill\","
    "\"I6\":\"hill\",\"J7\":\"river\",\"C6\":\"woods\",\"K3\":\"swamp\"}},"
    "\"entrenchments\":{\"E4\":[\"SW\",\"SE\",\"W\"],\"F4\":[\"SW\",\"SE\",\"E\"]},"
    "\"hill_to_hill\":false,\"overstacked\":[\"E3\",\"J7\"],"
    "\"sides\":[{\"id\":\"a\",\"cap\":5,\"home\":\"north\"},"
    "{\"id\":\"b\",\"cap\":5,\"home\":\"south\"}],"
    "\"first\":\"a\",\"turns\":6,\"units\":["
    "{\"id\":\"a1\",\"side\":\"a\",\"kind\":\"line\",\"mp\":3,\"hex\":\"E3\"},"
    "{\"id\":\"a2\",\"side\":\"a\",\"kind\":\"line\",\"mp\":3,\"hex\":\"E3\"},"
    "{\"id\":\"a3\",\"side\":\"a\",\"kind\":\"artillery\",\"mp\":2,\"hex\":\"E3\"},"
    "{\"id\":\"a4\",\"side\":\"a\",\"kind\":\"line\",\"mp\":3,\"hex\":\"E4\"},"
    "{\"id\":\"a5\",\"side\":\"a\",\"kind\":\"elite\",\"mp\":4,\"hex\":\"F4\"},"
    "{\"id\":\"a6\",\"side\":\"a\",\"kind\":\"cavalry\",\"mp\":3,\"hex\":\"H4\"},"
    "{\"id\":\"a7\",\"side\":\"a\",\"kind\":\"highlander\",\"mp\":3,\"hex\":\"C5\"},"
    "{\"id\":\"a8\",\"side\":\"a\",\"kind\":\"skirmisher\",\"mp\":2,\"hex\":\"G6\"},"
    "{\"id\":\"al\",\"side\":\"a\",\"kind\":\"leader\",\"rating\":3,\"commander\":true,"
    "\"hex\":\"E3\"},"
    "{\"id\":\"b1\",\"side\":\"b\",\"kind\":\"line\",\"mp\":3,\"hex\":\"J7\"},"
    "{\"id\":\"b2\",\"side\":\"b\",\"kind\":\"cavalry\",\"mp\":3,\"hex\":\"J7\"},"
    "{\"id\":\"b3\",\"side\":\"b\",\"kind\":\"line\",\"mp\":3,\"hex\":\"E6\"},"
    "{\"id\":\"b4\",\"side\":\"b\",\"kind\":\"line\",\"mp\":3,\"hex\":\"F6\"},"
    "{\"id\":\"b5\",\"side\":\"b\",\"kind\":\"dragoon\",\"mp\":2,\"hex\":\"H6\"},"
    "{\"id\":\"b6\",\"side\":\"b\",\"kind\":\"highlander\",\"mp\":3,\"hex\":\"D6\"},"
    "{\"id\":\"b7\",\"side\":\"b\",\"kind\":\"artillery\",\"mp\":2,\"hex\":\"I6\"},"
    "{\"id\":\"bl\",\"side\":\"b\",\"kind\":\"leader\",\"rating\":2,\"commander\":true,"
    "\"hex\":\"F6\"}"
    "]}";

static void count(const mk_events *ev)
{
    for (int i = 0; i < ev->n; i++) {
        const mk_event *e = &ev->ev[i];
        seen_elim += strcmp(e->type, "eliminated") == 0;
        seen_retreat += strcmp(e->type, "retreat") == 0;
        seen_charge += strcmp(e->type, "charge") == 0;
        seen_leader += strcmp(e->type, "leader_casualty") == 0;
        seen_ambush += e->purpose && strcmp(e->purpose, "ambush") == 0;
        seen_withdraw += e->text && strcmp(e->text, "withdraw") == 0;
        seen_flank += strcmp(e->type, "flank_attack") == 0;
        seen_disorderly += strcmp(e->type, "disorderly_retreat") == 0;
        seen_facing += strcmp(e->type, "facing") == 0;
        seen_displaced += strcmp(e->type, "displaced") == 0;
        seen_overstack_end += e->text && strcmp(e->text, "overstack_ended") == 0;
    }
}

static uint64_t replay(const mk_scenario *sc, uint64_t seed, uint64_t options)
{
    hm_state *s = calloc(1, sizeof *s);
    mk_error err = {0};
    uint64_t h = 0;
    if (rs->init(s, sc, options, seed, NULL, &err) == 0) {
        int i;
        for (i = 0; i < nplayed; i++)
            if (rs->apply(s, sc, &played[i], NULL, &err))
                break;
        if (i == nplayed)
            h = rs->hash(s, sc);
    }
    free(s);
    return h;
}

static void play(const mk_scenario *sc, uint64_t seed, uint64_t options, bool full);

/* hm_vp_now as it was written before the lists of hm_ext: a scan of
 * every piece for each enemy VP marker (H&M 10, held while occupied). */
static int slow_vp(const hm_state *s, const mk_scenario *sc, int side)
{
    int v = s->vp2[side];
    for (int i = 0; i < s->nunits; i++) {
        if (sc->units[i].kind != HK_VP || sc->units[i].side == side || s->u[i].hex < 0)
            continue;
        for (int j = 0; j < s->nunits; j++)
            if (s->u[j].hex == s->u[i].hex && hm_is_unit(sc->units[j].kind) &&
                sc->units[j].side == side) {
                v += s->u[i].vpv;
                break;
            }
    }
    return v;
}

/* evaluate as it was written before the lists of hm_ext: material over
 * every unit's MP at set-up, 2 MP a VP. */
static double slow_value(const hm_state *s, const mk_scenario *sc, int side)
{
    if (s->over)
        return s->winner < 0 ? 0.0 : s->winner == side ? 1.0 : -1.0;
    double mine = 0, theirs = 0, total = 1;
    for (int i = 0; i < s->nunits; i++) {
        if (!hm_is_unit(sc->units[i].kind))
            continue;
        total += sc->units[i].mp_start;
        if (s->u[i].hex >= 0)
            *(sc->units[i].side == side ? &mine : &theirs) += s->u[i].mp;
    }
    mine += 2.0 * slow_vp(s, sc, side);
    theirs += 2.0 * slow_vp(s, sc, 1 - side);
    double e = (mine - theirs) / total;
    return e > 1 ? 1 : e < -1 ? -1 : e;
}

/* H&M 7 Ambush, by a scan of every piece: the enemy Light Footmen (not
 * Militia) and Hussars in Woods, Hill or Swamp next to the moving unit
 * that have not tried this turn, at most 4, in piece order. */
static int slow_ambushers(const hm_state *s, const mk_scenario *sc, int16_t *out)
{
    int n = 0, mover = s->mv.unit, hex = s->u[mover].hex;
    for (int i = 0; i < s->nunits; i++) {
        int k = sc->units[i].kind, h = s->u[i].hex, t = h >= 0 ? hm_terrain(s, sc, h) : -1;
        if (h >= 0 && sc->units[i].side != sc->units[mover].side &&
            !(s->u[i].flags & HU_AMBUSHED) &&
            ((hm_class(k) == HC_LIGHT && k != HK_MILITIA) || k == HK_HUSSAR) &&
            (t == HT_WOODS || t == HT_HILL || t == HT_SWAMP) &&
            mk_hex_distance(&sc->map.grid, (mk_hex)h, (mk_hex)hex) == 1 && n < 4)
            out[n++] = (int16_t)i;
    }
    return n;
}

/* The shortcuts the engine takes for speed give what the slow ways give:
 * hm_stack_view_ok is hm_can_stack for every piece and hex; a unit's own
 * list (hm_legal_moves/hm_legal_combat with only = u, what apply looks in
 * first) is exactly the whole list's actions of that unit, in order;
 * evaluate (the scenario's lists, hm_ext) is slow_value to the bit for
 * both sides; the ambushers of a move under way are slow_ambushers'. */
static long view_checks, only_checks, listed_checks, value_checks, ambush_checks;
static void check_shortcuts(const hm_state *s, const mk_scenario *sc, uint64_t seed)
{
    static mk_action all[MK_MAX_ACTIONS], own[MK_MAX_ACTIONS];
    int size = mk_grid_size(&sc->map.grid);
    for (int side = 0; side < 2; side++, value_checks++) {
        if (hm_vp_now(s, sc, side) != slow_vp(s, sc, side) && failures++ < 10)
            fprintf(stderr, "seed %llu: hm_vp_now %d, the slow way %d\n",
                    (unsigned long long)seed, hm_vp_now(s, sc, side), slow_vp(s, sc, side));
        if (rs->evaluate(s, sc, side) != slow_value(s, sc, side) && failures++ < 10)
            fprintf(stderr, "seed %llu: evaluate %.17g, the slow way %.17g\n",
                    (unsigned long long)seed, rs->evaluate(s, sc, side), slow_value(s, sc, side));
    }
    if (s->mv.on && s->u[s->mv.unit].hex >= 0) {
        int16_t fast[4], slow[4];
        int nf = hm_ambush_options(s, sc, fast), ns = slow_ambushers(s, sc, slow);
        ambush_checks++;
        if ((nf != ns || memcmp(fast, slow, (size_t)nf * sizeof fast[0])) && failures++ < 10)
            fprintf(stderr, "seed %llu: %d ambushers, the slow way %d\n",
                    (unsigned long long)seed, nf, ns);
    }
    for (int u = 0; u < s->nunits; u++) {
        hm_stack_view v;
        hm_stack_view_init(s, sc, u, &v);
        for (int h = 0; h < size; h++, view_checks++)
            if (hm_stack_view_ok(s, sc, &v, h) != hm_can_stack(s, sc, u, h, -1) &&
                failures++ < 10)
                fprintf(stderr, "seed %llu: stack view of %s at hex %d differs\n",
                        (unsigned long long)seed, sc->units[u].id, h);
    }
    if (s->pending || s->rev.held)
        return;
    int n = rs->legal(s, sc, all, MK_MAX_ACTIONS);
    for (int u = 0; u < s->nunits; u++, only_checks++) {
        int m = hm_legal_moves(s, sc, own, 0, MK_MAX_ACTIONS, u);
        m = hm_legal_combat(s, sc, own, m, MK_MAX_ACTIONS, u);
        int j = 0;
        bool same = true;
        for (int i = 0; i < n && same; i++)
            if (all[i].type != HA_END && all[i].unit == u)
                same = j < m && mk_action_equal(&all[i], &own[j++]);
        if ((!same || j != m) && failures++ < 10)
            fprintf(stderr, "seed %llu: %s's own list differs from the whole list's\n",
                    (unsigned long long)seed, sc->units[u].id);
    }
}

/* Every game of one scenario: without options, each option alone (with
 * the rules it needs), all of them. */
static void play_all(const mk_scenario *sc, int per, int oper)
{
    /* the reach search's neighbour table (hm_ext) is mk_hex_neighbors' */
    const hm_ext *x = sc->ext;
    CHECK(x != NULL);
    for (int h = 0; x && h < mk_grid_size(&sc->map.grid); h++) {
        mk_hex nb[6];
        mk_hex_neighbors(&sc->map.grid, (mk_hex)h, nb);
        CHECK(memcmp(nb, x->nb[h], sizeof nb) == 0);
    }
    for (int g = 0; g < per; g++)
        play(sc, (uint64_t)g + 1, 0, g < 1);
    for (int o = 0; o < rs->noptions; o++) {
        uint64_t opt = 1ull << o; /* the variants need their base rule */
        if (o == HO_RANDOM_R1)
            opt |= 1ull << HO_COMBAT_R1;
        if (o == HO_LINE_TERRAIN)
            opt |= 1ull << HO_LINE_COLUMN;
        if (o == HO_DISORDERLY)
            opt |= 1ull << HO_LINE_COLUMN | 1ull << HO_FACING;
        for (int g = 0; g < oper; g++)
            play(sc, (uint64_t)g + 1000, opt, false);
    }
    for (int g = 0; g < oper; g++)
        play(sc, (uint64_t)g + 5000, (1ull << rs->noptions) - 1, false);
}

static void play(const mk_scenario *sc, uint64_t seed, uint64_t options, bool full)
{
    static mk_action acts[MK_MAX_ACTIONS];
    static mk_event evs[512];
    hm_state *s = calloc(1, sizeof *s), *c = calloc(1, sizeof *c), *d = calloc(1, sizeof *d);
    mk_error err = {0};
    nplayed = 0;
    if (rs->init(s, sc, options, seed, NULL, &err)) {
        if (failures++ < 10)
            fprintf(stderr, "init: %s\n", err.msg);
        return;
    }
    int steps = 0;
    while (!rs->over(s) && steps < MAX_STEPS) {
        int n = rs->legal(s, sc, acts, MK_MAX_ACTIONS);
        if (n <= 0 || n >= MK_MAX_ACTIONS) {
            if (failures++ < 10)
                fprintf(stderr, "seed %llu: %d legal actions\n", (unsigned long long)seed, n);
            break;
        }
        if (s->pending)
            decisions++;
        int tries = full ? n : 1;
        for (int k = 0; k < tries; k++) {
            int i = full ? k : (int)rnd((uint32_t)n);
            memcpy(c, s, sizeof *s);
            memcpy(d, s, sizeof *s);
            int rc = rs->apply(c, sc, &acts[i], NULL, &err);
            /* The computer players' path, which skips the check: the same
             * state (dice included) and the same answer. */
            int rl = rs->apply_listed(d, sc, &acts[i], NULL, &err);
            listed_checks++;
            if ((rc != rl || rs->hash(c, sc) != rs->hash(d, sc)) && failures++ < 10)
                fprintf(stderr, "seed %llu: apply_listed differs from apply (%d, %d)\n",
                        (unsigned long long)seed, rc, rl);
            if (rc) {
                json_t *j = rs->action_json(s, sc, &acts[i]);
                char *t = json_dumps(j, 0);
                if (failures++ < 10)
                    fprintf(stderr, "seed %llu: listed but refused: %s: %s\n",
                            (unsigned long long)seed, t, err.msg);
                free(t);
                json_decref(j);
            }
            /* JSON round trip */
            json_t *j = rs->action_json(s, sc, &acts[i]);
            mk_action back;
            if (rs->action_parse(s, sc, j, &back, &err) || !mk_action_equal(&back, &acts[i])) {
                char *t = json_dumps(j, 0);
                if (failures++ < 10)
                    fprintf(stderr, "seed %llu: round trip: %s\n", (unsigned long long)seed, t);
                free(t);
            }
            json_decref(j);
        }
        /* prefer actions to ending the turn, so games fight */
        int pick = (int)rnd((uint32_t)n);
        if (!s->pending && acts[pick].type == HA_END && n > 1 && rnd(4))
            pick = 1 + (int)rnd((uint32_t)(n - 1));
        memcpy(c, s, sizeof *s);
        CHECK(rs->hash(c, sc) == rs->hash(s, sc));
        mk_events ev;
        mk_events_init(&ev, evs, 512);
        if (rs->apply(s, sc, &acts[pick], &ev, &err)) {
            if (failures++ < 10)
                fprintf(stderr, "seed %llu: refused %s\n", (unsigned long long)seed, err.msg);
            break;
        }
        count(&ev);
        seen_tie += s->pending == HP_HIT_TIE;
        seen_displace_ask += s->pending == HP_DISPLACE_UNIT || s->pending == HP_DISPLACE_HEX;
        /* 15 Retreat in R1 Fire for the return fire, Leader Re-Rolls for the defenders */
        seen_r1_def_retreat += s->pending == HP_R1_RETREAT && s->cb.r1_def;
        seen_def_reroll += s->pending == HP_REROLL && s->to_move != s->active;
        char why[200];
        if (!hm_state_ok(s, sc, why, sizeof why)) {
            if (failures++ < 10)
                fprintf(stderr, "seed %llu: %s\n", (unsigned long long)seed, why);
            break;
        }
        played[nplayed++] = acts[pick];
        steps++;
        actions++;
        if (steps % 13 == 0)
            check_shortcuts(s, sc, seed);
        if (steps % 97 == 0) {
            json_t *j = rs->state_json(s, sc);
            CHECK(j != NULL);
            json_decref(j);
        }
    }
    if (!rs->over(s)) {
        if (failures++ < 10)
            fprintf(stderr, "seed %llu: not over after %d steps\n", (unsigned long long)seed,
                    steps);
    } else {
        overs[s->reason & 3]++;
    }
    if (replay(sc, seed, options) != rs->hash(s, sc) && failures++ < 10)
        fprintf(stderr, "seed %llu: replay differs\n", (unsigned long long)seed);
    games++;
    free(s);
    free(c);
    free(d);
}

int main(void)
{
    int nr;
    const mk_ruleset *const *all = mk_rulesets(&nr);
    mk_catalog_entry cat[MK_CATALOG_MAX];
    mk_error err = {0};
    int nc = mk_catalog_list(cat, MK_CATALOG_MAX, &err);
    const char *env = getenv("MUSKET_SOAK_GAMES");
    int per = env ? atoi(env) : 8;
    const char *oenv = getenv("MUSKET_SOAK_OPTION_GAMES");
    int oper = oenv ? atoi(oenv) : per / 5 + 1;
    int nsc = 0;
    for (int i = 0; i < nc; i++) {
        if (strcmp(cat[i].ruleset, "hm") != 0)
            continue;
        mk_scenario *sc = mk_catalog_load(cat[i].id, all, nr, &err);
        CHECK(sc != NULL);
        if (!sc) {
            fprintf(stderr, "%s: %s\n", cat[i].id, err.msg);
            continue;
        }
        nsc++;
        play_all(sc, per, oper);
        fprintf(stderr, "%s: done, %ld games so far, %d failures\n", cat[i].id, games, failures);
        mk_scenario_free(sc);
    }
    CHECK(nsc >= 1);
    mk_scenario *tsc = mk_scenario_parse(TERRAIN, strlen(TERRAIN), "(terrain)", all, nr, &err);
    CHECK(tsc != NULL);
    if (tsc) {
        nsc++;
        play_all(tsc, per, oper);
        fprintf(stderr, "hm/test-terrain: done, %ld games so far, %d failures\n", games, failures);
        mk_scenario_free(tsc);
    } else {
        fprintf(stderr, "hm/test-terrain: %s\n", err.msg);
    }
    CHECK_EQ(failures, 0);
    fprintf(stderr,
            "hm random: %d scenarios, %ld games, %ld actions, %ld decisions; ends: win %ld, "
            "time %ld, both lose %ld; eliminated %ld, retreats %ld, charges %ld, ambushes %ld, "
            "withdrawals %ld, leader checks %ld\n",
            nsc, games, actions, decisions, overs[HV_WIN], overs[HV_TIME], overs[HV_BOTH_LOSE],
            seen_elim, seen_retreat, seen_charge, seen_ambush, seen_withdraw, seen_leader);
    fprintf(stderr, "hm random: facing choices %ld, flank/rear attacks %ld, disorderly retreats %ld\n",
            seen_facing, seen_flank, seen_disorderly);
    fprintf(stderr, "hm random: hit ties asked %ld, displacements %ld (asked %ld)\n", seen_tie,
            seen_displaced, seen_displace_ask);
    fprintf(stderr,
            "hm random: over-stacked hexes ended %ld, return-fire retreats asked %ld, defenders' "
            "re-rolls asked %ld\n",
            seen_overstack_end, seen_r1_def_retreat, seen_def_reroll);
    fprintf(stderr, "hm random: stack views checked %ld hexes, own lists %ld\n", view_checks,
            only_checks);
    fprintf(stderr, "hm random: apply_listed against apply on %ld actions\n", listed_checks);
    fprintf(stderr, "hm random: evaluate against the slow way %ld times, ambushers %ld\n",
            value_checks, ambush_checks);
    CHECK(view_checks > 100000 && only_checks > 1000 && listed_checks > 50000);
    CHECK(value_checks > 1000 && ambush_checks > 0);
    CHECK(seen_facing > 0 && seen_flank > 0); /* the hm.facing games reach both */
    CHECK(seen_overstack_end > 0 && seen_def_reroll > 0);
    return check_done("test_hm_random");
}
