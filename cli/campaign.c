/* campaign.c - `musket campaign`: plays a Hold the Line campaign (HtL 12),
 * one scenario after another, and keeps the VP total. A person plays each
 * scenario through `musket play` (mk_cli_play, which writes the game record
 * to a temporary file that is replayed here to score it); with --auto the
 * computer plays both sides. The scoring is the library's
 * (rules/htl/campaign.c). */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ai/ai.h"
#include "campaign.h"
#include "cli.h"
#include "core/catalog.h"
#include "core/game.h"
#include "rules/htl/campaign.h"
#include "rules/rules.h"

#define MAX_OPTIONS 16
#define AUTO_SEED_SALT 0x9e3779b97f4a7c15ull   /* the computer's picks differ from the dice */

static void usage(FILE *out)
{
    fputs("usage: musket campaign CAMPAIGN [--auto | --ai ENGINE | --hotseat]\n"
          "                       [--side SIDE] [--seed N] [--option ID ...]\n"
          "       musket campaign --list\n"
          "\n"
          "Plays a Hold the Line campaign (HtL 12): its scenarios in turn, each in the\n"
          "terminal as `musket play` does, then the VP each side carries from it, the\n"
          "running total and, at the end, the campaign winner: the side with the most\n"
          "VP over all the scenarios.\n"
          "\n"
          "VP carried (HtL 12): a scenario won on VP gives each side the VP it earned;\n"
          "one lost on time gives the victor the VP it needed to win (its own VP\n"
          "target, AMB-HTL-10) and the loser what it earned; a draw gives each side\n"
          "what it earned.\n"
          "\n"
          "options:\n"
          "  --list         list the campaigns, and which are unavailable because a\n"
          "                 scenario of theirs is not built in\n"
          "  --auto         the computer plays both sides (greedy unless --ai says)\n"
          "  --ai ENGINE    the computer's engine: easy, normal (the default), hard,\n"
          "                 mcts, greedy, random\n"
          "  --hotseat      two people at this keyboard\n"
          "  --side SIDE    the side you play (american or british; default: the side\n"
          "                 that moves first in each scenario)\n"
          "  --seed N       seed of the first scenario's dice (scenario k uses N + k);\n"
          "                 by default from the clock, printed\n"
          "  --option ID    an optional rule for every scenario (repeatable)\n"
          "  --help         this text\n"
          "\n"
          "exit status: 0 the campaign ended or was left, 1 a failure, 2 a usage\n"
          "error or an unavailable campaign\n",
          out);
}

typedef struct campaign_args {
    const char *id;
    bool list, autoplay, hotseat;
    const char *ai, *side;
    uint64_t seed;
    bool seed_given;
    const char *options[MAX_OPTIONS];
    int noptions;
} campaign_args;

static bool parse_u64(const char *s, uint64_t *out)
{
    if (!*s || *s == '-')
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return false;
    *out = v;
    return true;
}

/* Returns -1 to go on, else an exit status. */
static int parse_args(int argc, char **argv, campaign_args *A)
{
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (strcmp(o, "--help") == 0 || strcmp(o, "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(o, "--list") == 0) {
            A->list = true;
        } else if (strcmp(o, "--auto") == 0) {
            A->autoplay = true;
        } else if (strcmp(o, "--hotseat") == 0) {
            A->hotseat = true;
        } else if (strcmp(o, "--ai") == 0 || strcmp(o, "--side") == 0 ||
                   strcmp(o, "--seed") == 0 || strcmp(o, "--option") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "musket campaign: %s needs a value (see musket campaign --help)\n",
                        o);
                return 2;
            }
            const char *v = argv[++i];
            if (strcmp(o, "--ai") == 0) {
                A->ai = v;
            } else if (strcmp(o, "--side") == 0) {
                A->side = v;
            } else if (strcmp(o, "--seed") == 0) {
                if (!parse_u64(v, &A->seed)) {
                    fprintf(stderr, "musket campaign: --seed '%s' is not a whole number >= 0\n", v);
                    return 2;
                }
                A->seed_given = true;
            } else if (A->noptions < MAX_OPTIONS) {
                A->options[A->noptions++] = v;
            } else {
                fprintf(stderr, "musket campaign: at most %d --option\n", MAX_OPTIONS);
                return 2;
            }
        } else if (o[0] == '-' && o[1]) {
            fprintf(stderr, "musket campaign: unknown option '%s' (see musket campaign --help)\n", o);
            return 2;
        } else if (A->id) {
            fprintf(stderr, "musket campaign: one campaign at a time ('%s' and '%s')\n", A->id, o);
            return 2;
        } else {
            A->id = o;
        }
    }
    if (A->hotseat && (A->ai || A->autoplay)) {
        fputs("musket campaign: --hotseat excludes --ai and --auto\n", stderr);
        return 2;
    }
    if (A->side && strcmp(A->side, "american") != 0 && strcmp(A->side, "british") != 0) {
        fprintf(stderr, "musket campaign: --side '%s': the sides are american and british\n",
                A->side);
        return 2;
    }
    if (A->ai && mk_ai_engine_parse(A->ai) < 0) {
        mk_ai_config probe;
        mk_ai_config_init(&probe);
        if (mk_ai_difficulty(&probe, A->ai) != 0) {
            fprintf(stderr, "musket campaign: unknown AI '%s' (easy, normal, hard, mcts, greedy, "
                            "random)\n", A->ai);
            return 2;
        }
    }
    if (!A->list && !A->id) {
        usage(stderr);
        return 2;
    }
    if (!A->seed_given)
        A->seed = (uint64_t)time(NULL);
    return -1;
}

static int list_campaigns(void)
{
    int n;
    const htl_campaign *c = htl_campaigns(&n);
    for (int i = 0; i < n; i++) {
        char missing[512];
        mk_error err = {0};
        int m = htl_campaign_missing(&c[i], missing, sizeof missing, &err);
        if (m < 0) {
            fprintf(stderr, "musket campaign: %s\n", err.msg);
            return 1;
        }
        printf("%-14s %s:", c[i].id, c[i].title);
        for (int k = 0; k < c[i].nscenarios; k++)
            printf(" %s", c[i].scenarios[k]);
        if (m == 0)
            printf("\n%14s available\n", "");
        else
            printf("\n%14s unavailable: not built in: %s\n", "", missing);
    }
    return 0;
}

/* Plays one scenario computer against computer; returns the finished game
 * or NULL (message printed). */
static mk_game *play_auto(const char *id, uint64_t mask, uint64_t seed, const campaign_args *A)
{
    int nrs;
    const mk_ruleset *const *rulesets = mk_rulesets(&nrs);
    mk_error err = {0};
    mk_scenario *sc = mk_catalog_load(id, rulesets, nrs, &err);
    if (!sc) {
        fprintf(stderr, "musket campaign: %s\n", err.msg);
        return NULL;
    }
    mk_game *g = mk_game_new(sc, mask, seed, &err);
    if (!g) {
        fprintf(stderr, "musket campaign: %s\n", err.msg);
        return NULL;
    }
    mk_ai_config cfg;
    mk_ai_config_init(&cfg);
    const char *engine = A->ai ? A->ai : "greedy";
    int e = mk_ai_engine_parse(engine);
    if (e >= 0)
        cfg.engine = e;
    else
        mk_ai_difficulty(&cfg, engine);
    mk_ai_reserve(g->rs, &cfg);
    mk_rng rng;
    mk_rng_seed(&rng, seed ^ AUTO_SEED_SALT);
    for (long steps = 0; !mk_game_over(g); steps++) {
        mk_action a;
        cfg.seed = ((uint64_t)mk_rng_next(&rng) << 32) | mk_rng_next(&rng);
        if (steps > 100000 || mk_ai_pick(g->rs, g->sc, g->st, &cfg, &a) != 0 ||
            mk_game_act(g, &a, &err) != 0) {
            fprintf(stderr, "musket campaign: %s: the computer could not play on%s%s\n", id,
                    err.msg[0] ? ": " : "", err.msg);
            mk_game_free(g);
            return NULL;
        }
    }
    return g;
}

/* Plays one scenario in the terminal through `musket play`, which writes
 * the record to a temporary file; returns the replayed game (over or not),
 * or NULL (message printed). */
static mk_game *play_terminal(const char *id, uint64_t seed, const campaign_args *A)
{
    char path[] = "/tmp/musket-campaign-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) {
        fprintf(stderr, "musket campaign: cannot make a temporary file: %s\n", strerror(errno));
        return NULL;
    }
    close(fd);
    char seedbuf[32];
    snprintf(seedbuf, sizeof seedbuf, "%llu", (unsigned long long)seed);
    const char *pv[16 + 2 * MAX_OPTIONS];
    int pc = 0;
    pv[pc++] = "play";
    pv[pc++] = id;
    pv[pc++] = "--seed";
    pv[pc++] = seedbuf;
    pv[pc++] = "--record";
    pv[pc++] = path;
    if (A->hotseat)
        pv[pc++] = "--hotseat";
    if (A->ai) {
        pv[pc++] = "--ai";
        pv[pc++] = A->ai;
    }
    if (A->side) {
        pv[pc++] = "--side";
        pv[pc++] = A->side;
    }
    for (int i = 0; i < A->noptions; i++) {
        pv[pc++] = "--option";
        pv[pc++] = A->options[i];
    }
    pv[pc] = NULL;
    int rc = mk_cli_play(pc, (char **)pv);
    mk_game *g = NULL;
    if (rc == 0) {
        json_error_t je;
        json_t *rec = json_load_file(path, 0, &je);
        int nrs;
        const mk_ruleset *const *rulesets = mk_rulesets(&nrs);
        mk_error err = {0};
        g = rec ? mk_game_replay(rec, rulesets, nrs, &err) : NULL;
        if (!g)
            fprintf(stderr, "musket campaign: cannot read back the game: %s\n",
                    rec ? err.msg : je.text);
        json_decref(rec);
    }
    unlink(path);
    return g;
}

int mk_cli_campaign(int argc, char **argv)
{
    campaign_args A = {0};
    int rc = parse_args(argc, argv, &A);
    if (rc >= 0)
        return rc;
    if (A.list)
        return list_campaigns();
    const htl_campaign *c = htl_campaign_find(A.id);
    if (!c) {
        int n;
        const htl_campaign *all = htl_campaigns(&n);
        fprintf(stderr, "musket campaign: unknown campaign '%s' (campaigns:", A.id);
        for (int i = 0; i < n; i++)
            fprintf(stderr, " %s", all[i].id);
        fputs(")\n", stderr);
        return 2;
    }
    char missing[512];
    mk_error err = {0};
    int m = htl_campaign_missing(c, missing, sizeof missing, &err);
    if (m != 0) {
        if (m < 0)
            fprintf(stderr, "musket campaign: %s\n", err.msg);
        else
            fprintf(stderr, "musket campaign: %s is unavailable: not built in: %s\n", c->title,
                    missing);
        return m < 0 ? 1 : 2;
    }
    uint64_t mask = 0;
    if (A.noptions) {
        json_t *o = json_object();
        for (int i = 0; i < A.noptions; i++)
            json_object_set_new(o, A.options[i], json_true());
        rc = mk_options_parse(&mk_htl_ruleset, o, &mask, &err);
        json_decref(o);
        if (rc != 0) {
            fprintf(stderr, "musket campaign: %s\n", err.msg);
            return 2;
        }
    }
    printf("%s (HtL 12): %d scenarios. Seed %llu (play the same campaign again with --seed "
           "%llu).\n", c->title, c->nscenarios, (unsigned long long)A.seed,
           (unsigned long long)A.seed);
    htl_campaign_tally t;
    htl_campaign_tally_init(&t, c);
    for (int i = 0; i < c->nscenarios; i++) {
        const char *id = c->scenarios[i];
        uint64_t seed = A.seed + (uint64_t)i;
        printf("\n=== Scenario %d of %d: %s (seed %llu) ===\n", i + 1, c->nscenarios, id,
               (unsigned long long)seed);
        fflush(stdout);
        mk_game *g = A.autoplay ? play_auto(id, mask, seed, &A) : play_terminal(id, seed, &A);
        if (!g)
            return 1;
        if (!mk_game_over(g)) {
            printf("The scenario was left before its end: the campaign stops after %d of %d "
                   "scenarios (american %d VP, british %d VP).\n",
                   t.played, c->nscenarios, t.vp[0], t.vp[1]);
            mk_game_free(g);
            return 0;
        }
        mk_result r;
        g->rs->result(g->st, g->sc, &r);
        printf("Result: %s%s: %s.\n", r.winner >= 0 ? g->sc->sides[r.winner].id : "draw",
               r.winner >= 0 ? " wins" : "", r.reason);
        if (htl_campaign_tally_add(&t, g->sc, g->st, &err) != 0) {
            fprintf(stderr, "musket campaign: %s\n", err.msg);
            mk_game_free(g);
            return 1;
        }
        const htl_campaign_score *s = &t.each[i];
        printf("Campaign VP from %s: american %d, british %d%s.\n", id, s->vp[0], s->vp[1],
               s->on_time ? " (the victor on time gets the VP it needed to win, HtL 12)" : "");
        printf("Running total: american %d, british %d.\n", t.vp[0], t.vp[1]);
        mk_game_free(g);
    }
    int w = htl_campaign_tally_winner(&t);
    printf("\n%s: american %d VP, british %d VP: %s.\n", c->title, t.vp[0], t.vp[1],
           w < 0 ? "a draw" : w == 0 ? "the americans win the campaign"
                                     : "the british win the campaign");
    return 0;
}
