/* test_determinism.c - a game record always replays, and the same seed
 * always gives the same game, checked across processes.
 *
 * For every ruleset and every built-in scenario: GAMES_RANDOM random games
 * and one game each of the greedy and mcts engines (an iteration budget,
 * so reproducible; the engine plays the first AI_STEPS actions, random
 * ones the rest, to keep the test short) are played to the end through
 * the game layer, with the
 * generic invariants below checked after every action. Each game's record
 * is written to a file and replayed by `musket replay FILE` in a fresh
 * process (the musket next to this program, or $MUSKET), which must exit 0
 * (the replay reaches the record's hash) and print the same hash as this
 * process. The first game of each scenario and engine is also played again
 * by a fresh copy of this program (`test_determinism --play ID SEED
 * ENGINE`), which must reach the same hash after the same number of actions.
 *
 * Generic invariants, for any ruleset, from the STATE object and the
 * ruleset interface: the turn within 1..turns; active and to_move sides of
 * the scenario; points and every VP count never negative; each unit the
 * scenario's, of its side, on a hex of the map or off it (null), with
 * 0 <= mp <= mp_start; over exactly when there is a result; "hash" the
 * game's hash and a memcpy clone hashing the same; legal actions listed
 * only while the game is on, and (in the first game of each scenario) each
 * one round-tripping through its JSON. The AI games are not checked so:
 * they are there for their records. In every game, the AI games too, each
 * action must log an event citing its rule, and a `decline` event must
 * name its unit or side (issue 4: the AI's moves explained in the event log).
 * (HtL's own invariants, stacking and VP counted once, are in
 * test_htl_random.c.) MUSKET_DETERMINISM_GAMES=N changes GAMES_RANDOM (3, or
 * 1 under AddressSanitizer). */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <unistd.h>

#include "ai/ai.h"
#include "check.h"
#include "core/catalog.h"
#include "rules/rules.h"

#define MAX_STEPS 200000   /* a random Monmouth scenario 4 takes ~40k */
/* Under AddressSanitizer (about ten times slower) the test plays fewer
 * games: that build is there for memory errors, the normal one for
 * determinism. */
#if defined(__SANITIZE_ADDRESS__)
#define MK_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MK_ASAN 1
#endif
#endif
#ifdef MK_ASAN
#define AI_STEPS 8    /* an AI game's first actions are the engine's, the rest random */
static int games_random = 1;
#else
#define AI_STEPS 60
static int games_random = 3;
#endif

static long inv_checks, inv_failures, total_actions;

#define INV(cond, ...)                                                                 \
    do {                                                                               \
        inv_checks++;                                                                  \
        if (!(cond)) {                                                                 \
            if (inv_failures++ < 10) {                                                 \
                fprintf(stderr, "invariant failed: %s: ", #cond);                      \
                fprintf(stderr, __VA_ARGS__);                                          \
                fputc('\n', stderr);                                                   \
            }                                                                          \
        }                                                                              \
    } while (0)

/* Every number in v (a number, or an object / list of them) is >= 0. */
static bool non_negative(json_t *v)
{
    if (json_is_number(v))
        return json_number_value(v) >= 0;
    const char *k;
    json_t *x;
    size_t i;
    if (json_is_object(v)) {
        json_object_foreach(v, k, x) if (!non_negative(x)) return false;
    }
    if (json_is_array(v)) {
        json_array_foreach(v, i, x) if (!non_negative(x)) return false;
    }
    return true;
}

static bool check_legal_json;   /* also round-trip every legal action (slower) */

static void check_invariants(const mk_game *g, const char *where, int step)
{
    const mk_scenario *sc = g->sc;
    const mk_ruleset *rs = g->rs;
    json_t *st = mk_game_state_json(g);
    INV(json_is_object(st), "%s step %d", where, step);
    if (!st)
        return;
    json_int_t turn = json_integer_value(json_object_get(st, "turn"));
    json_int_t turns = json_integer_value(json_object_get(st, "turns"));
    INV(turn >= 1 && turn <= turns, "%s step %d: turn %lld of %lld", where, step, (long long)turn,
        (long long)turns);
    const char *keys[] = {"active", "to_move"};
    for (int k = 0; k < 2; k++) {
        const char *side = json_string_value(json_object_get(st, keys[k]));
        INV(side && mk_scenario_side(sc, side) >= 0, "%s step %d: %s", where, step, keys[k]);
    }
    INV(rs->to_move(g->st) >= 0 && rs->to_move(g->st) < sc->nsides, "%s step %d", where, step);
    INV(non_negative(json_object_get(st, "points")), "%s step %d: points negative", where, step);
    INV(non_negative(json_object_get(st, "vp")), "%s step %d: VP negative", where, step);
    json_t *units = json_object_get(st, "units"), *u;
    size_t i;
    INV(json_array_size(units) == (size_t)sc->nunits, "%s step %d: %zu units", where, step,
        json_array_size(units));
    json_array_foreach(units, i, u) {
        const char *id = json_string_value(json_object_get(u, "id"));
        int idx = id ? mk_scenario_unit(sc, id) : -1;
        INV(idx == (int)i, "%s step %d: units[%zu] is %s", where, step, i, id ? id : "?");
        if (idx < 0)
            continue;
        const char *side = json_string_value(json_object_get(u, "side"));
        INV(side && mk_scenario_side(sc, side) == sc->units[idx].side, "%s step %d: %s side",
            where, step, id);
        json_t *hex = json_object_get(u, "hex");
        if (!json_is_null(hex)) {
            mk_hex h;
            char e[128];
            INV(json_is_string(hex) &&
                    mk_hex_parse(&sc->map.grid, json_string_value(hex), &h, e, sizeof e) == 0,
                "%s step %d: %s off the map", where, step, id);
        }
        json_t *mp = json_object_get(u, "mp"), *mp0 = json_object_get(u, "mp_start");
        if (mp && mp0)
            INV(json_integer_value(mp) >= 0 && json_integer_value(mp) <= json_integer_value(mp0),
                "%s step %d: %s mp %lld of %lld", where, step, id,
                (long long)json_integer_value(mp), (long long)json_integer_value(mp0));
    }
    bool over = json_is_true(json_object_get(st, "over"));
    INV(over == mk_game_over(g), "%s step %d", where, step);
    INV(over == !json_is_null(json_object_get(st, "result")), "%s step %d: over vs result", where,
        step);
    char hex[17];
    mk_hash_hex(mk_game_hash(g), hex);
    INV(strcmp(hex, json_string_value(json_object_get(st, "hash"))) == 0, "%s step %d", where, step);
    json_decref(st);
    /* A clone (one memcpy) is the same game. */
    void *clone = malloc(rs->state_size);
    memcpy(clone, g->st, rs->state_size);
    INV(rs->hash(clone, sc) == mk_game_hash(g), "%s step %d: clone hash", where, step);
    free(clone);
    /* Legal actions: only while the game is on, each one through JSON and back. */
    static mk_action acts[MK_MAX_ACTIONS];
    int n = mk_game_legal(g, acts, MK_MAX_ACTIONS);
    INV(over ? n == 0 : (n >= 1 && n <= MK_MAX_ACTIONS), "%s step %d: %d legal", where, step, n);
    for (int k = 0; check_legal_json && k < n; k++) {
        json_t *aj = mk_game_action_json(g, &acts[k]);
        mk_action back;
        mk_error err;
        mk_error_clear(&err);
        INV(aj && rs->action_parse(g->st, sc, aj, &back, &err) == 0 &&
                mk_action_equal(&back, &acts[k]),
            "%s step %d: legal[%d] does not round-trip: %s", where, step, k, err.msg);
        json_decref(aj);
    }
}

/* Every action, whoever chose it, is explained in the event log: one of
 * the events it logs cites the rule it applied (issue 4: "the AI's moves
 * are explained in the event log like anyone else's"; a pass or a
 * declined decision logs an event too). `before` is the action's JSON as
 * listed before it was applied. */
static void explained(const mk_game *g, const char *where, json_t *before, int step)
{
    bool cited = false;
    for (int k = 0; k < g->sink.n && !cited; k++)
        cited = g->sink.ev[k].rule && g->sink.ev[k].rule[0];
    char *txt = cited ? NULL : json_dumps(before, JSON_COMPACT);
    INV(cited, "%s step %d: %s logged %d events, none citing a rule", where, step, txt ? txt : "?",
        g->sink.n);
    free(txt);
    /* a decision answered "no" says whose it was: a unit's or a side's */
    for (int k = 0; k < g->sink.n; k++) {
        const mk_event *e = &g->sink.ev[k];
        INV(strcmp(e->type, "decline") != 0 || e->unit >= 0 || e->side >= 0,
            "%s step %d: a decline (%s) names neither unit nor side", where, step, e->text ? e->text : "?");
    }
}

/* Plays one game of engine (-1: random) from seed; returns it (caller frees). */
static mk_game *play(const char *id, uint64_t seed, int engine, int *steps, bool check)
{
    int n;
    const mk_ruleset *const *rs = mk_rulesets(&n);
    mk_error err;
    mk_game *g = mk_game_new(mk_catalog_load(id, rs, n, &err), 0, seed, &err);
    if (!g) {
        fprintf(stderr, "%s: %s\n", id, err.msg);
        return NULL;
    }
    mk_rng pick;
    mk_rng_seed(&pick, seed ^ 0xd1ceull);
    *steps = 0;
    if (check)
        check_invariants(g, id, 0);
    while (!mk_game_over(g) && *steps < MAX_STEPS) {
        mk_action a;
        int rc;
        if (engine < 0 || *steps >= AI_STEPS) {
            rc = mk_ai_random(g->rs, g->sc, g->st, &pick, &a);
        } else {
            mk_ai_config cfg;
            mk_ai_config_init(&cfg);
            cfg.engine = engine;
            cfg.iterations = 6;
            cfg.rollout_depth = 1;
            cfg.samples = 1;
            cfg.seed = seed * 7919 + (uint64_t)*steps;
            rc = mk_ai_pick(g->rs, g->sc, g->st, &cfg, &a);
        }
        if (rc != 0)
            break;
        json_t *before = mk_game_action_json(g, &a);   /* to name it if it fails */
        if (mk_game_act(g, &a, &err) != 0) {
            json_decref(before);
            fprintf(stderr, "%s seed %llu step %d: a chosen action was refused: %s\n", id,
                    (unsigned long long)seed, *steps, err.msg);
            break;
        }
        (*steps)++;
        if (check)
            check_invariants(g, id, *steps);
        explained(g, id, before, *steps);
        json_decref(before);
    }
    return g;
}

static const char *engine_name(int e) { return e < 0 ? "random" : mk_ai_engine_name(e); }

/* The folder this program is in (for the musket next to it). */
static void own_dir(char *out, size_t n)
{
    ssize_t k = readlink("/proc/self/exe", out, n - 1);
    out[k > 0 ? k : 0] = 0;
    char *slash = strrchr(out, '/');
    if (slash)
        *slash = 0;
    else
        snprintf(out, n, ".");
}

/* Runs cmd, returns its exit status, with its first output line in line. */
static int run(const char *cmd, char *line, size_t n)
{
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    line[0] = 0;
    char buf[1024];
    bool first = true;
    while (fgets(buf, sizeof buf, p)) {
        if (first)
            snprintf(line, n, "%s", buf);
        first = false;
    }
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int main(int argc, char **argv)
{
    if (argc == 5 && strcmp(argv[1], "--play") == 0) {
        /* The fresh process: play the game again, print its hash. */
        int engine = strcmp(argv[4], "random") == 0 ? -1 : mk_ai_engine_parse(argv[4]);
        int steps;
        mk_game *g = play(argv[2], strtoull(argv[3], NULL, 10), engine, &steps, false);
        if (!g)
            return 1;
        char hex[17];
        mk_hash_hex(mk_game_hash(g), hex);
        printf("%s %d\n", hex, steps);
        mk_game_free(g);
        return 0;
    }
    const char *env = getenv("MUSKET_DETERMINISM_GAMES");
    if (env && atoi(env) > 0)
        games_random = atoi(env);
    char dir[4096], musket[4200], self[4200];
    own_dir(dir, sizeof dir);
    snprintf(musket, sizeof musket, "%s/musket", dir);
    if (getenv("MUSKET"))
        snprintf(musket, sizeof musket, "%s", getenv("MUSKET"));
    ssize_t k = readlink("/proc/self/exe", self, sizeof self - 1);
    self[k > 0 ? k : 0] = 0;
    if (access(musket, X_OK) != 0) {
        fprintf(stderr, "test_determinism: no musket program at %s (build it, or set MUSKET)\n",
                musket);
        return 1;
    }
    char tmp[] = "/tmp/musket-determinism-XXXXXX";
    CHECK(mkdtemp(tmp) != NULL);

    mk_catalog_entry *all = malloc(sizeof *all * MK_CATALOG_MAX);
    mk_error err;
    int ns = mk_catalog_list(all, MK_CATALOG_MAX, &err);
    CHECK(ns >= 1);
    int nrs;
    const mk_ruleset *const *rss = mk_rulesets(&nrs);
    long games = 0, replayed = 0, reruns = 0;
    for (int r = 0; r < nrs; r++) {
        int of_ruleset = 0;
        for (int i = 0; i < ns; i++) {
            if (strcmp(all[i].ruleset, rss[r]->id) != 0)
                continue;
            of_ruleset++;
            int engines[2 + 64];
            int ne = 0;
            for (int g = 0; g < games_random && g < 64; g++)
                engines[ne++] = -1;
            engines[ne++] = MK_AI_GREEDY;
            engines[ne++] = MK_AI_MCTS;
            for (int e = 0; e < ne; e++) {
                uint64_t seed = 1000u * (uint64_t)(i + 1) + (uint64_t)e;
                int steps;
                /* Invariants after every action of the random games; the
                 * JSON of every legal action in the first one. */
                check_legal_json = e == 0;
                mk_game *g = play(all[i].id, seed, engines[e], &steps, engines[e] < 0);
                CHECK(g != NULL);
                if (!g)
                    continue;
                CHECK(mk_game_over(g));
                games++;
                total_actions += steps;
                char hex[17];
                mk_hash_hex(mk_game_hash(g), hex);

                /* The record, replayed by musket in a fresh process. */
                char path[4200], cmd[9000], line[1024];
                snprintf(path, sizeof path, "%s/game%ld.json", tmp, games);
                json_t *rec = mk_game_record(g);
                CHECK(json_dump_file(rec, path, JSON_INDENT(1)) == 0);
                json_decref(rec);
                snprintf(cmd, sizeof cmd, "'%s' replay '%s' 2>&1", musket, path);
                int rc = run(cmd, line, sizeof line);
                char want[40];
                snprintf(want, sizeof want, "hash %s", hex);
                CHECK_EQ(rc, 0);
                CHECK(strstr(line, want) != NULL);
                if (rc != 0 || !strstr(line, want))
                    fprintf(stderr, "%s %s seed %llu: musket replay: %s", all[i].id,
                            engine_name(engines[e]), (unsigned long long)seed, line);
                replayed++;

                /* The same seed, in a fresh process, plays the same game. */
                if (e == 0 || engines[e] >= 0) {
                    snprintf(cmd, sizeof cmd, "'%s' --play '%s' %llu %s", self, all[i].id,
                             (unsigned long long)seed, engine_name(engines[e]));
                    char mine[64];
                    snprintf(mine, sizeof mine, "%s %d\n", hex, steps);
                    rc = run(cmd, line, sizeof line);
                    CHECK_EQ(rc, 0);
                    CHECK_STR(line, mine);
                    reruns++;
                }
                mk_game_free(g);
            }
        }
        printf("%s: %d scenarios\n", rss[r]->id, of_ruleset);
        CHECK(of_ruleset >= 1);
    }
    free(all);
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    CHECK(system(cmd) == 0);
    CHECK_EQ(inv_failures, 0);
    printf("test_determinism: %ld games (%ld actions), %ld invariant checks (%ld failed): after every "
           "action of the random games, and the event check after every action of every game; "
           "%ld records replayed by musket in fresh processes, %ld games played again from their "
           "seed in fresh processes\n",
           games, total_actions, inv_checks, inv_failures, replayed, reruns);
    return check_done("test_determinism");
}
