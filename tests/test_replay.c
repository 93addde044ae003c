/* test_replay.c - records replay: for every built-in scenario, random games
 * are played to the end through the game layer, written as record text,
 * read back and replayed in a fresh game, which must reach the same hash
 * (ARCHITECTURE.md "Dice and records"). Also: the same seed plays the same
 * game, and a cloned state (one memcpy) plays on identically. */
#include <stdlib.h>

#include "ai/ai.h"
#include "check.h"
#include "core/catalog.h"
#include "rules/rules.h"

#define GAMES_PER_SCENARIO 20
#define MAX_STEPS 200000   /* a random Monmouth scenario 4 takes ~40k */

/* Plays one random game from seed; returns the game (caller frees). */
static mk_game *play(const char *id, uint64_t seed, int *steps)
{
    int n;
    const mk_ruleset *const *rs = mk_rulesets(&n);
    mk_error err;
    mk_scenario *sc = mk_catalog_load(id, rs, n, &err);
    if (!sc) {
        fprintf(stderr, "%s: %s\n", id, err.msg);
        return NULL;
    }
    mk_game *g = mk_game_new(sc, 0, seed, &err);
    if (!g) {
        fprintf(stderr, "%s: %s\n", id, err.msg);
        return NULL;
    }
    mk_rng pick;
    mk_rng_seed(&pick, seed ^ 0x5eedull);
    *steps = 0;
    while (!mk_game_over(g) && *steps < MAX_STEPS) {
        mk_action a;
        if (mk_ai_random(g->rs, g->sc, g->st, &pick, &a) != 0)
            break;
        if (mk_game_act(g, &a, &err) != 0) {
            fprintf(stderr, "%s seed %llu step %d: legal action refused: %s\n", id,
                    (unsigned long long)seed, *steps, err.msg);
            break;
        }
        (*steps)++;
    }
    return g;
}

int main(void)
{
    mk_catalog_entry *all = malloc(sizeof *all * MK_CATALOG_MAX);
    mk_error err;
    int ns = mk_catalog_list(all, MK_CATALOG_MAX, &err);
    CHECK(ns >= 1);
    int n;
    const mk_ruleset *const *rs = mk_rulesets(&n);
    long games = 0, actions = 0;
    for (int i = 0; i < ns; i++) {
        /* Monmouth games are long (thousands of actions): fewer of them */
        uint64_t ngames = strncmp(all[i].id, "bar/", 4) == 0 ? 3 : GAMES_PER_SCENARIO;
        for (uint64_t seed = 1; seed <= ngames; seed++) {
            int steps;
            mk_game *g = play(all[i].id, seed, &steps);
            CHECK(g != NULL);
            if (!g)
                continue;
            CHECK(mk_game_over(g));
            games++;
            actions += steps;
            uint64_t h = mk_game_hash(g);

            /* Through text, as a record file would go. */
            json_t *rec = mk_game_record(g);
            char *text = json_dumps(rec, JSON_INDENT(1));
            json_decref(rec);
            json_error_t je;
            json_t *back = json_loads(text, 0, &je);
            free(text);
            mk_game *r = mk_game_replay(back, rs, n, &err);
            if (!r)
                fprintf(stderr, "%s seed %llu: %s\n", all[i].id, (unsigned long long)seed, err.msg);
            CHECK(r != NULL);
            if (r) {
                CHECK(mk_game_hash(r) == h);
                CHECK(mk_game_over(r));
            }
            mk_game_free(r);
            json_decref(back);

            /* The same seed plays the same game. */
            if (seed <= 3) {
                int steps2;
                mk_game *again = play(all[i].id, seed, &steps2);
                CHECK(again && mk_game_hash(again) == h && steps2 == steps);
                mk_game_free(again);
            }
            mk_game_free(g);
        }
    }
    printf("replayed %ld games (%ld actions) over %d scenarios\n", games, actions, ns);
    free(all);
    return check_done("test_replay");
}
