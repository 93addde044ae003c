/* test_bar_game.c - the Monmouth (BAR) game as a whole:
 *  - the shipped scenarios/bar/ files are exactly what rules/bar/setup.c
 *    builds from data/bar/ (MUSKET_WRITE_BAR_SCENARIOS=1 rewrites them);
 *  - each of the four scenarios loads, and random games run from the first
 *    turn to the victory determination with the invariants checked after
 *    every action (MUSKET_SOAK_GAMES=N for more games);
 *  - a finished game's record replays to its hash. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/game.h"
#include "rules/bar/bar_int.h"
#include "rules/rules.h"

static const char *const files[5] = {NULL, "1-lees-repulse", "2-washingtons-stand", "3-grand-battle",
                                     "4-general-engagement"};

static void test_shipped_files(void)
{
    for (int n = 1; n <= 4; n++) {
        mk_error err = {0};
        json_t *built = bar_build_scenario(n, &err);
        CHECK(built != NULL);
        if (!built) {
            fprintf(stderr, "scenario %d: %s\n", n, err.msg);
            continue;
        }
        char path[256];
        snprintf(path, sizeof path, "scenarios/bar/%s.json", files[n]);
        if (getenv("MUSKET_WRITE_BAR_SCENARIOS")) {
            CHECK_EQ(json_dump_file(built, path, JSON_INDENT(1) | JSON_PRESERVE_ORDER), 0);
            printf("wrote %s\n", path);
        }
        json_error_t je;
        json_t *shipped = json_load_file(path, 0, &je);
        CHECK(shipped != NULL);
        if (shipped && !json_equal(shipped, built))
            fprintf(stderr, "%s differs from what rules/bar/setup.c builds: rerun with "
                            "MUSKET_WRITE_BAR_SCENARIOS=1\n", path);
        CHECK(shipped && json_equal(shipped, built));
        json_decref(shipped);
        json_decref(built);
    }
}

static int rulesets_n;
static const mk_ruleset *const *rulesets;

static mk_scenario *load(int n)
{
    char path[256];
    mk_error err = {0};
    snprintf(path, sizeof path, "scenarios/bar/%s.json", files[n]);
    mk_scenario *sc = mk_scenario_load_file(path, rulesets, rulesets_n, &err);
    if (!sc)
        fprintf(stderr, "%s\n", err.msg);
    return sc;
}

/* The invariants of a state: every piece on a map hex or off it for a
 * reason; no hex holds both sides' combat units; SPs within 0..start; the
 * loss record at least the SPs lost by infantry/cavalry; 2.1c: a unit in
 * (artillery) Road Column of more than a hex's SPs has a second hex (or
 * its tail still off the map), next to its own, not lake, with the head's
 * 8 (2) and the rest 1-8 behind; 2.1a: a two-hex Line (7 SPs or more)
 * has its second hex beside it, 90 degrees off its facing, half its SPs
 * in each (the odd one in the first); no other unit has one. Returns 0 or the
 * number of violations (each printed). */
static long two_hex_seen;   /* two-hex units seen (2.1a Line, 2.1c Road Column) */

static int invariants(const bar_state *s, const mk_scenario *sc)
{
    const bar_ext *x = bar_x(sc);
    int bad = 0;
    int8_t side_at[MK_MAX_HEX];
    memset(side_at, -1, sizeof side_at);
    int lost[2] = {0, 0};
    for (int i = 0; i < s->npieces; i++) {
        const bar_pc *p = &s->pc[i];
        if (p->hex != MK_NO_HEX && (p->hex < 0 || p->hex >= mk_grid_size(&sc->map.grid))) {
            fprintf(stderr, "%s: hex %d off the map\n", sc->units[i].id, p->hex);
            bad++;
            continue;
        }
        if (bar_is_leader(&x->p[i]))
            continue;
        if (p->sp < 0 || p->sp > x->p[i].sp) {
            fprintf(stderr, "%s: %d SPs\n", sc->units[i].id, p->sp);
            bad++;
        }
        if ((p->flags & BF_ELIM) && p->hex != MK_NO_HEX) {
            fprintf(stderr, "%s: eliminated but on the map\n", sc->units[i].id);
            bad++;
        }
        if (p->hex == MK_NO_HEX && !(p->flags & BF_ELIM) && (p->flags & BF_ON) && !(p->more & (BM_EXITED | BM_OFFMAP))) {
            fprintf(stderr, "%s: off the map without a reason\n", sc->units[i].id);
            bad++;
        }
        if (x->p[i].kind != BK_ARTILLERY)
            lost[x->p[i].side] += x->p[i].sp - p->sp;
        if (p->hex == MK_NO_HEX)
            continue;
        if (side_at[p->hex] >= 0 && side_at[p->hex] != x->p[i].side) {
            fprintf(stderr, "%s: in a hex with the enemy\n", sc->units[i].id);
            bad++;
        }
        side_at[p->hex] = x->p[i].side;
        bool wants = bar_wants_tail(x, i, p->form, p->sp);
        bool line2 = p->tail && bar_line2_ok(x, i, p->form, p->sp);   /* 2.1a: a two-hex Line */
        mk_hex t2 = bar_tail_hex(s, sc, i);
        if ((wants != (p->tail != 0) && !line2) || (p->tail && p->tail != BAR_TAIL_OFF && t2 == MK_NO_HEX) ||
            p->tail < 0 || p->tail > BAR_TAIL_OFF || (line2 && p->tail == BAR_TAIL_OFF)) {
            fprintf(stderr, "%s: tail %d with %d SPs in %s (2.1a, 2.1c)\n", sc->units[i].id, p->tail, p->sp,
                    bar_formation_name(p->form));
            bad++;
        }
        if (t2 == MK_NO_HEX)
            continue;
        two_hex_seen++;
        int most = x->ch.stacking[p->form], head = line2 ? (p->sp + 1) / 2 : most;
        int b = bar_bearing12(&sc->map.grid, p->hex, t2);
        if (!mk_hex_adjacent(&sc->map.grid, p->hex, t2) || x->map.terrain[t2] == BAR_T_LAKE ||
            bar_sp_in(s, sc, i, p->hex) != head || bar_sp_in(s, sc, i, t2) != p->sp - head ||
            p->sp - head < 1 || p->sp - head > head ||
            (line2 && (!(p->facing & 1) || (b != (p->facing + 3) % 12 && b != (p->facing + 9) % 12)))) {
            fprintf(stderr, "%s: a bad second hex (2.1a, 2.1c)\n", sc->units[i].id);
            bad++;
        }
        if (side_at[t2] >= 0 && side_at[t2] != x->p[i].side) {
            fprintf(stderr, "%s: its second hex in a hex with the enemy\n", sc->units[i].id);
            bad++;
        }
        side_at[t2] = x->p[i].side;
    }
    for (int side = 0; side < 2; side++)
        if (s->loss[side] < lost[side]) {
            fprintf(stderr, "side %d: loss record %d below SPs lost %d\n", side, s->loss[side], lost[side]);
            bad++;
        }
    if (s->phase < BP_ACTIVATE || s->phase > BP_DEPLOY)
        bad++;
    return bad;
}

static void random_games(int n, int games)
{
    mk_scenario *sc = load(n);
    CHECK(sc != NULL);
    if (!sc)
        return;
    const mk_ruleset *rs = sc->rs;
    CHECK_STR(rs->id, "bar");
    static mk_action acts[MK_MAX_ACTIONS];
    static mk_event evs[512];
    long total = 0;
    int violations = 0, unfinished = 0, illegal = 0;
    two_hex_seen = 0;
    for (int g = 0; g < games; g++) {
        mk_error err = {0};
        mk_game *gm = mk_game_new(load(n), 0, (uint64_t)(1000 * n + g), &err);
        CHECK(gm != NULL);
        if (!gm)
            break;
        mk_rng pick;
        mk_rng_seed(&pick, (uint64_t)(77 + g));
        long steps = 0;
        while (!mk_game_over(gm) && steps < 400000) {
            int na = mk_game_legal(gm, acts, MK_MAX_ACTIONS);
            if (na <= 0) {
                fprintf(stderr, "scenario %d game %d: no legal action, not over\n", n, g);
                illegal++;
                break;
            }
            /* a random player that seeks combat: it fires and closes when it
             * can (3 times in 4), moves toward the enemy's rally hex half the
             * time, and ends segments now and then */
            int k = (int)mk_rng_below(&pick, (uint32_t)na);
            const bar_state *bs = gm->st;
            const bar_ext *bx = bar_x(gm->sc);
            int ncombat = 0, nfwd = 0;
            static int combat[MK_MAX_ACTIONS], fwd[MK_MAX_ACTIONS];
            for (int j = 0; j < na; j++) {
                if (acts[j].type == BA_FIRE || acts[j].type == BA_CC || acts[j].type == BA_SNIPE)
                    combat[ncombat++] = j;
                if (acts[j].type == BA_MOVE) {
                    mk_hex goal = bx->home[bar_other(bx->p[acts[j].unit].side)];
                    if (mk_hex_distance(&gm->sc->map.grid, acts[j].path[0], goal) <
                        mk_hex_distance(&gm->sc->map.grid, bs->pc[acts[j].unit].hex, goal))
                        fwd[nfwd++] = j;
                }
            }
            if (ncombat && mk_rng_below(&pick, 4) != 0)
                k = combat[mk_rng_below(&pick, (uint32_t)ncombat)];
            else if (nfwd && mk_rng_below(&pick, 2) == 0)
                k = fwd[mk_rng_below(&pick, (uint32_t)nfwd)];
            else if (acts[0].type == BA_NEXT && mk_rng_below(&pick, 8) == 0)
                k = 0;
            if (mk_game_act(gm, &acts[k], &err) < 0) {
                fprintf(stderr, "scenario %d game %d: legal action refused: %s\n", n, g, err.msg);
                illegal++;
                break;
            }
            int v = invariants(gm->st, gm->sc);
            if (v) {
                violations += v;
                break;
            }
            steps++;
        }
        if (!mk_game_over(gm))
            unfinished++;
        total += steps;
        if (g == 0 && mk_game_over(gm)) {
            /* the record replays to the same hash */
            json_t *rec = mk_game_record(gm);
            mk_game *re = mk_game_replay(rec, rulesets, rulesets_n, &err);
            CHECK(re != NULL);
            if (re) {
                CHECK(mk_game_hash(re) == mk_game_hash(gm));
                mk_game_free(re);
            } else {
                fprintf(stderr, "replay: %s\n", err.msg);
            }
            json_decref(rec);
            mk_result r;
            rs->result(gm->st, gm->sc, &r);
            printf("scenario %d: game 0 over after %ld actions: %s, %s\n", n, steps,
                   r.winner < 0 ? "no winner" : gm->sc->sides[r.winner].id, r.reason);
        }
        mk_game_free(gm);
    }
    (void)evs;
    CHECK_EQ(violations, 0);
    CHECK_EQ(unfinished, 0);
    CHECK_EQ(illegal, 0);
    printf("scenario %d: %d random games, %ld actions, %ld two-hex unit sightings (2.1a, 2.1c)\n", n, games, total,
           two_hex_seen);
    CHECK(n != 1 || two_hex_seen > 0);   /* the British grenadiers (14 SPs) march in on two hexes */
    mk_scenario_free(sc);
}

int main(void)
{
    rulesets = mk_rulesets(&rulesets_n);
    test_shipped_files();
    const char *soak = getenv("MUSKET_SOAK_GAMES");
    int games = soak ? atoi(soak) : 2;
    for (int n = 1; n <= 4; n++)
        random_games(n, games);
    return check_done("test_bar_game");
}
