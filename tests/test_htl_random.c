/* test_htl_random.c - Hold the Line: random games on every built-in HtL
 * scenario, to the end, with the state's invariants checked after every
 * action: hex limits (HtL 4.3), 0 <= MP <= starting MP, AP >= 0, each unit
 * activated at most once per turn (6.1.4), VP equal to the enemy pieces
 * removed (10.A, 10.B); legal() never lists an action apply() refuses;
 * memcpy clones hash equal and play identically; JSON round trips; every
 * game replays from its seed and its list of actions to its own final hash.
 *
 * Every scenario in scenarios/htl/ is played. MUSKET_SOAK_GAMES=N plays N
 * games per scenario (and N/5 with the optional rules) instead of 500 (the
 * long soak of docs/htl.md: N=10000 in a Release build). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/catalog.h"
#include "core/ruleset.h"
#include "core/scenario.h"
#include "rules/htl/htl_int.h"
#include "rules/rules.h"

static const mk_ruleset *rs = &mk_htl_ruleset;

static uint64_t rnd_state;
static uint32_t rnd(uint32_t n)
{
    rnd_state ^= rnd_state << 13;
    rnd_state ^= rnd_state >> 7;
    rnd_state ^= rnd_state << 17;
    return (uint32_t)(rnd_state % n);
}

static int failures;
static long total_steps, total_vp, decisions;
/* how often the rarer rules came up, over all games */
static const char *const seen_names[] = {"retreat", "displaced", "escapes", "with its units",
                                         "advance", "vp_taken", "rally", "elite_absorb",
                                         "leader_casualty", "eliminated"};
#define NSEEN ((int)(sizeof seen_names / sizeof seen_names[0]))
static long seen[NSEEN];

static void count_events(const mk_events *ev)
{
    for (int i = 0; i < ev->n; i++) {
        const mk_event *e = &ev->ev[i];
        for (int k = 0; k < NSEEN; k++)
            if (strcmp(e->type, seen_names[k]) == 0 ||
                (e->purpose && strcmp(e->purpose, seen_names[k]) == 0) ||
                (e->text && strcmp(e->text, seen_names[k]) == 0))
                seen[k]++;
    }
}

/* Distance from hex h to the nearest enemy combat unit of side. */
static int enemy_distance(const htl_state *s, const mk_scenario *sc, int side, int h)
{
    int best = 99;
    for (int i = 0; i < s->nunits; i++)
        if (s->u[i].hex >= 0 && sc->units[i].side != side && htl_is_combat(sc->units[i].kind)) {
            int d = mk_hex_distance(&sc->map.grid, (mk_hex)h, (mk_hex)s->u[i].hex);
            if (d < best)
                best = d;
        }
    return best;
}
#define FAILX(...)                                                                              \
    do {                                                                                       \
        if (failures++ < 10)                                                                   \
            fprintf(stderr, __VA_ARGS__);                                                      \
    } while (0)

/* VP of each side == enemy pieces off the map (every piece starts on it). */
static bool vp_ok(const htl_state *s, const mk_scenario *sc)
{
    int gone[2] = {0, 0};
    for (int i = 0; i < s->nunits; i++)
        if (s->u[i].hex < 0 && sc->units[i].hex != MK_NO_HEX)
            gone[sc->units[i].side]++;
    return s->vp[0] == gone[1] && s->vp[1] == gone[0];
}

#define MAX_STEPS 20000
static mk_action played[MAX_STEPS];   /* the actions of the last game played */
static int nplayed;
static long total_games, total_actions, replays;

/* Replays the last game from its seed and its actions alone; returns its
 * final hash (0 if an action is refused). */
static uint64_t replay(const mk_scenario *sc, uint64_t seed, uint64_t options)
{
    htl_state *s = calloc(1, sizeof *s);
    mk_error err = {0};
    uint64_t h = 0;
    if (rs->init(s, sc, options, seed, NULL, &err) == 0) {
        int i;
        for (i = 0; i < nplayed; i++) {
            mk_events ev;
            mk_events_init(&ev, NULL, 0);
            if (rs->apply(s, sc, &played[i], &ev, &err))
                break;
        }
        if (i == nplayed && rs->over(s))
            h = rs->hash(s, sc);
    }
    free(s);
    replays++;
    return h;
}

static int play(const mk_scenario *sc, uint64_t seed, bool full_check, bool json, bool aggressive,
                uint64_t options, uint64_t *final)
{
    nplayed = 0;
    static mk_action acts[MK_MAX_ACTIONS];
    static mk_event evs[512];
    htl_state *s = calloc(1, sizeof *s), *c = calloc(1, sizeof *c);
    mk_error err = {0};
    if (rs->init(s, sc, options, seed, NULL, &err)) {
        FAILX("init: %s\n", err.msg);
        return -1;
    }
    int activations[MK_MAX_UNITS] = {0};
    int turn = s->turn, side = s->active, steps = 0;
    while (!rs->over(s) && steps < MAX_STEPS) {
        int n = rs->legal(s, sc, acts, MK_MAX_ACTIONS);
        if (n <= 0 || n >= MK_MAX_ACTIONS) {
            FAILX("seed %llu: %d legal actions\n", (unsigned long long)seed, n);
            break;
        }
        /* legal() never lists what apply() refuses */
        int tries = full_check ? n : 3;
        for (int k = 0; k < tries; k++) {
            int i = full_check ? k : (int)rnd((uint32_t)n);
            memcpy(c, s, sizeof *s);
            mk_events ev;
            mk_events_init(&ev, NULL, 0);
            if (rs->apply(c, sc, &acts[i], &ev, &err)) {
                json_t *j = rs->action_json(s, sc, &acts[i]);
                char *t = json_dumps(j, 0);
                FAILX("seed %llu: listed but refused: %s: %s\n", (unsigned long long)seed, t,
                      err.msg);
                free(t);
                json_decref(j);
            }
        }
        /* half the games play aggressively: combat first, rarely end a turn,
         * so that retreats, displacements and decisions are exercised */
        int pick = (int)rnd((uint32_t)n);
        if (aggressive && n > 1) {
            int ncombat = 0;
            for (int i = 0; i < n; i++)
                ncombat += acts[i].type == HA_FIRE || acts[i].type == HA_CLOSE;
            if (ncombat && rnd(4) != 0) {
                int k = (int)rnd((uint32_t)ncombat);
                for (int i = 0; i < n; i++)
                    if ((acts[i].type == HA_FIRE || acts[i].type == HA_CLOSE) && k-- == 0)
                        pick = i;
            } else {
                /* moves that close on the enemy, when there are some */
                for (int k = 0; k < 8; k++) {
                    int i = (int)rnd((uint32_t)n);
                    const mk_action *m = &acts[i];
                    if (m->type == HA_MOVE && m->target >= 0 &&
                        enemy_distance(s, sc, s->active, m->target) <
                            enemy_distance(s, sc, s->active, s->u[m->unit].hex)) {
                        pick = i;
                        break;
                    }
                }
                while (acts[pick].type == HA_END && rnd(10) != 0)
                    pick = (int)rnd((uint32_t)n);
            }
        }
        if (acts[pick].type == HA_CHOOSE)
            decisions++;
        mk_action a = acts[pick];
        if (json) {
            json_t *j = rs->action_json(s, sc, &a);
            mk_action b;
            if (rs->action_parse(s, sc, j, &b, &err) || !mk_action_equal(&a, &b))
                FAILX("action JSON round trip failed\n");
            json_decref(j);
            json_t *st = rs->state_json(s, sc);
            if (!st)
                FAILX("state_json failed\n");
            json_decref(st);
        }
        /* activation count (HtL 6.1.4): the dragoon's fire after its move
         * is part of the same activation (6.2.3) */
        bool pending = s->cb.on && s->cb.pending;
        if (!pending && (a.type == HA_MOVE || a.type == HA_FIRE || a.type == HA_CLOSE || a.type == HA_RALLY ||
                         a.type == HA_FORCE) &&
            !(a.type == HA_FIRE && (a.unit == s->dragoon_fire || a.unit == s->free_fire))) {
            activations[a.unit]++;
            if (a.other >= 0 && (a.type == HA_MOVE || a.type == HA_RALLY))
                activations[a.other]++;
        }
        /* clones hash equal and play identically */
        memcpy(c, s, sizeof *s);
        if (rs->hash(c, sc) != rs->hash(s, sc))
            FAILX("clone hashes differ\n");
        mk_events ev;
        mk_events_init(&ev, evs, 512);
        int8_t ap_before = s->ap;
        if (rs->apply(s, sc, &a, &ev, &err)) {
            FAILX("chosen action refused: %s\n", err.msg);
            break;
        }
        count_events(&ev);
        mk_events ev2;
        mk_events_init(&ev2, NULL, 0);
        if (rs->apply(c, sc, &a, &ev2, &err) || rs->hash(c, sc) != rs->hash(s, sc) ||
            memcmp(c, s, sizeof *s) != 0)
            FAILX("clone played differently\n");
        played[nplayed++] = a;
        steps++;
        /* invariants */
        char why[200];
        if (!htl_state_ok(s, sc, why, sizeof why))
            FAILX("seed %llu step %d: %s\n", (unsigned long long)seed, steps, why);
        if (!vp_ok(s, sc))
            FAILX("seed %llu step %d: VP %d-%d do not match the pieces removed\n",
                  (unsigned long long)seed, steps, s->vp[0], s->vp[1]);
        if (s->ap < 0 || (s->active == side && s->turn == turn && s->ap > ap_before))
            FAILX("AP went wrong: %d -> %d\n", ap_before, s->ap);
        if (s->turn != turn || s->active != side) {
            memset(activations, 0, sizeof activations);
            turn = s->turn;
            side = s->active;
        } else {
            for (int i = 0; i < s->nunits; i++)
                if (activations[i] > 1)
                    FAILX("%s activated %d times in a turn\n", sc->units[i].id, activations[i]);
        }
        if (s->turn > s->turns + 1)
            FAILX("turn %d past the last\n", s->turn);
    }
    if (!rs->over(s))
        FAILX("seed %llu: game not over after %d steps\n", (unsigned long long)seed, steps);
    total_steps += steps;
    total_games++;
    total_actions += steps;
    total_vp += s->vp[0] + s->vp[1];
    mk_result r;
    rs->result(s, sc, &r);
    int w = r.winner;
    *final = rs->hash(s, sc);
    /* the game replays from its seed and its actions to its own hash */
    if (replay(sc, seed, options) != *final)
        FAILX("seed %llu: the replay of %d actions does not reach the game's hash\n",
              (unsigned long long)seed, nplayed);
    free(s);
    free(c);
    return w;
}

int main(void)
{
    int games = 500;
    const char *soak = getenv("MUSKET_SOAK_GAMES");
    if (soak && atoi(soak) > 0)
        games = atoi(soak);
    int opt_games = soak && atoi(soak) > 0 ? (games / 10 > 1 ? games / 10 : 1) : 100;
    mk_catalog_entry *all = malloc(sizeof *all * MK_CATALOG_MAX);
    mk_error cerr = {0};
    int ncat = mk_catalog_list(all, MK_CATALOG_MAX, &cerr);
    CHECK(ncat > 0);
    const mk_ruleset *const list[] = {rs};
    int nscen = 0;
    for (int f = 0; f < ncat; f++) {
        if (strcmp(all[f].ruleset, "htl") != 0)
            continue;
        const char *file = all[f].path;
        nscen++;
        mk_error err = {0};
        mk_scenario *sc = mk_scenario_load_file(file, list, 1, &err);
        CHECK(sc != NULL);
        if (!sc) {
            fprintf(stderr, "%s\n", err.msg);
            continue;
        }
        int wins[3] = {0, 0, 0};
        long games0 = total_games, fail0 = failures;
        for (int g = 0; g < games; g++) {
            uint64_t h1, h2;
            rnd_state = 0x9e3779b97f4a7c15ull + (uint64_t)g * 7919 + (uint64_t)f;
            int w = play(sc, (uint64_t)g + 1, g < 5 || g % 50 == 1, g < 3, g % 2 == 1, 0, &h1);
            wins[w + 1]++;
            if (g < 10) { /* replay: same seed, same choices, same end */
                rnd_state = 0x9e3779b97f4a7c15ull + (uint64_t)g * 7919 + (uint64_t)f;
                play(sc, (uint64_t)g + 1, g < 5 || g % 50 == 1, g < 3, g % 2 == 1, 0, &h2);
                CHECK(h1 == h2);
            }
        }
        long ng = total_games - games0;
        printf("%s: %d games: american %d, british %d, draws %d; %.1f actions and %.1f VP a "
               "game, %ld decisions\n",
               all[f].id, games, wins[1], wins[2], wins[0], total_steps / (double)ng,
               total_vp / (double)ng, decisions);
        CHECK(decisions > 0);
        total_steps = total_vp = decisions = 0;
        games0 = total_games;
        /* every optional rule on: 11.3 excludes 11.6, so two sets; of
         * 11.12's four switches, bit 11 is the first side's +1 and the
         * second set adds the second side's -1 */
        for (int set = 0; set < 2; set++) {
            uint64_t opts = 0;
            for (int k = 1; k <= 15; k++)
                if (k != (set ? 3 : 6))
                    opts |= 1ull << (k - 1);
            if (set)
                opts |= 1ull << HTL_O1112_SECOND_MINUS;
            mk_error e2 = {0};
            CHECK_EQ(rs->check_options(opts, &e2), 0);
            for (int g = 0; g < opt_games; g++) {
                uint64_t h1, h2;
                uint64_t r0 = 0x51ed270b9b2f3c1dull + (uint64_t)g * 104729 + (uint64_t)f * 31 +
                              (uint64_t)set;
                rnd_state = r0;
                play(sc, (uint64_t)g + 1000, g < 3, g < 2, g % 2 == 1, opts, &h1);
                if (g < 5) {
                    rnd_state = r0;
                    play(sc, (uint64_t)g + 1000, g < 3, g < 2, g % 2 == 1, opts, &h2);
                    CHECK(h1 == h2);
                }
            }
        }
        ng = total_games - games0;
        printf("%s: %d games with optional rules: %.1f actions a game, %ld decisions; "
               "violations in this scenario: %ld\n",
               all[f].id, 2 * opt_games, total_steps / (double)ng, decisions, failures - fail0);
        total_steps = total_vp = decisions = 0;
        mk_scenario_free(sc);
    }
    free(all);
    CHECK(nscen >= 7);
    for (int k = 0; k < NSEEN; k++) {
        printf("  %-16s %ld\n", seen_names[k], seen[k]);
        CHECK(seen[k] > 0);
    }
    printf("in all: %d scenarios, %ld games (replays included), %ld actions, %ld replayed to "
           "their own hash, %d violations\n",
           nscen, total_games, total_actions, replays, failures);
    CHECK_EQ(failures, 0);
    return check_done("test_htl_random");
}
