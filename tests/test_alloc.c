/* test_alloc.c - issue 4's target "no heap allocation while choosing or
 * applying actions", counted: this program replaces malloc, calloc,
 * realloc and the aligned allocators with counting ones (glibc's own,
 * __libc_malloc and friends, do the work), and counts the calls made while
 *   - legal and apply play random games of one scenario of each ruleset;
 *   - greedy chooses;
 *   - mcts chooses, once the calling thread has chosen a first move (mcts
 *     keeps its buffers for the thread's next move, ai/mcts.c "mcts_mem"),
 *     with one thread and with two, on an iteration budget and on a time
 *     budget.
 *   - mcts chooses its first move after mk_ai_reserve.
 * And, so that a zero means something: the counter sees a malloc of this
 * program's, mcts's first move on a thread, and its first move after
 * mk_ai_release.
 *
 * Under AddressSanitizer the allocator is ASan's and cannot be replaced
 * here: the program exits 77 (skipped); the plain build runs it. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "ai/ai.h"
#include "check.h"
#include "core/catalog.h"
#include "rules/rules.h"

#if defined(__SANITIZE_ADDRESS__)
#define ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ASAN 1
#endif
#endif

#ifndef ASAN
/* Counted while `counting` is set, from any thread. */
static atomic_long allocations;
static atomic_bool counting;

void *__libc_malloc(size_t);
void *__libc_calloc(size_t, size_t);
void *__libc_realloc(void *, size_t);
void *__libc_memalign(size_t, size_t);

static void counted(void)
{
    if (atomic_load_explicit(&counting, memory_order_relaxed))
        atomic_fetch_add(&allocations, 1);
}

void *malloc(size_t n)
{
    counted();
    return __libc_malloc(n);
}

void *calloc(size_t n, size_t size)
{
    counted();
    return __libc_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
    counted();
    return __libc_realloc(p, n);
}

void *aligned_alloc(size_t align, size_t n)
{
    counted();
    return __libc_memalign(align, n);
}

int posix_memalign(void **p, size_t align, size_t n)
{
    counted();
    void *q = __libc_memalign(align, n);
    if (!q)
        return ENOMEM;
    *p = q;
    return 0;
}

static void count_start(void)
{
    atomic_store(&allocations, 0);
    atomic_store(&counting, true);
}

static long count_stop(void)
{
    atomic_store(&counting, false);
    return atomic_load(&allocations);
}

/* Random games from the scenario's start: `actions` legal/apply calls in
 * all, a new game from the start whenever one ends. Returns the actions
 * applied. */
static long play_random(const mk_ruleset *rs, const mk_scenario *sc, const void *init, void *st,
                        mk_action *acts, long actions)
{
    mk_rng rng;
    mk_rng_seed(&rng, 7);
    memcpy(st, init, rs->state_size);
    long applied = 0;
    for (long i = 0; i < actions; i++) {
        int n = rs->legal(st, sc, acts, MK_MAX_ACTIONS);
        if (n <= 0 || rs->over(st)) {
            memcpy(st, init, rs->state_size);
            mk_rng_seed(&mk_state_head(st)->rng, mk_rng_next(&rng));
            continue;
        }
        mk_events sink;
        mk_error err;
        mk_events_init(&sink, NULL, 0);
        applied += rs->apply(st, sc, &acts[mk_rng_below(&rng, (uint32_t)n)], &sink, &err) == 0;
    }
    return applied;
}

/* A state some way into the game (each engine then chooses from it). */
static void advance(const mk_ruleset *rs, const mk_scenario *sc, void *st, mk_action *acts,
                    int actions)
{
    mk_rng rng;
    mk_rng_seed(&rng, 11);
    for (int i = 0; i < actions && !rs->over(st); i++) {
        int n = rs->legal(st, sc, acts, MK_MAX_ACTIONS);
        if (n <= 0)
            break;
        mk_events sink;
        mk_error err;
        mk_events_init(&sink, NULL, 0);
        rs->apply(st, sc, &acts[mk_rng_below(&rng, (uint32_t)n)], &sink, &err);
    }
}

static long pick_count(const mk_ruleset *rs, const mk_scenario *sc, const void *st,
                       const mk_ai_config *cfg, int *ok)
{
    mk_action a;
    count_start();
    int rc = mk_ai_pick(rs, sc, st, cfg, &a);
    long n = count_stop();
    *ok = rc == 0;
    return n;
}

static void scenario(const char *id)
{
    int nrs;
    const mk_ruleset *const *rss = mk_rulesets(&nrs);
    mk_error err;
    mk_scenario *sc = mk_catalog_load(id, rss, nrs, &err);
    CHECK(sc != NULL);
    if (!sc) {
        fprintf(stderr, "%s: %s\n", id, err.msg);
        return;
    }
    const mk_ruleset *rs = sc->rs;
    void *init = calloc(1, rs->state_size), *st = calloc(1, rs->state_size);
    mk_action *acts = malloc(sizeof *acts * MK_MAX_ACTIONS);
    CHECK(init && st && acts && rs->init(init, sc, 0, 1, NULL, &err) == 0);

    /* legal and apply */
    count_start();
    long applied = play_random(rs, sc, init, st, acts, 3000);
    long n = count_stop();
    printf("%-24s %5ld random actions applied: %ld allocations\n", id, applied, n);
    CHECK(applied > 1000);
    CHECK_EQ(n, 0);

    memcpy(st, init, rs->state_size);
    advance(rs, sc, st, acts, 40);
    mk_ai_config cfg;
    mk_ai_config_init(&cfg);
    int ok;

    cfg.engine = MK_AI_GREEDY;
    n = pick_count(rs, sc, st, &cfg, &ok);
    printf("%-24s greedy: %ld allocations\n", id, n);
    CHECK(ok);
    CHECK_EQ(n, 0);

    /* mcts: its first move on this thread allocates (the counter sees
     * it), every later one with the same or a smaller need does not. */
    cfg.engine = MK_AI_MCTS;
    cfg.iterations = 300;
    for (int threads = 1; threads <= 2; threads++) {
        cfg.threads = threads;
        long first = pick_count(rs, sc, st, &cfg, &ok);
        CHECK(ok);
        long later = 0;
        for (int m = 0; m < 3; m++) {
            cfg.seed = 100 + (uint64_t)m;
            later += pick_count(rs, sc, st, &cfg, &ok);
            CHECK(ok);
        }
        printf("%-24s mcts %d it, %d thread(s): first move %ld allocations, 3 more %ld\n", id,
               cfg.iterations, threads, first, later);
        CHECK_EQ(later, 0);
    }
    cfg.iterations = 0;
    cfg.budget_ms = 30;
    cfg.threads = 1;
    long first = pick_count(rs, sc, st, &cfg, &ok);   /* a larger pool: allocates */
    CHECK(ok);
    long later = 0;
    for (int m = 0; m < 3; m++) {
        cfg.seed = 200 + (uint64_t)m;
        later += pick_count(rs, sc, st, &cfg, &ok);
    }
    printf("%-24s mcts 30 ms: first move %ld allocations, 3 more %ld\n", id, first, later);
    CHECK(first > 0);
    CHECK_EQ(later, 0);

    /* Released: the next move allocates again. */
    mk_ai_release();
    cfg.seed = 300;
    n = pick_count(rs, sc, st, &cfg, &ok);
    CHECK(ok);
    CHECK(n > 0);
    mk_ai_release();

    /* Reserved before the game (as sim, play and campaign do): the first
     * move allocates nothing either, on an iteration budget with one and
     * two threads and on a time budget. */
    for (int k = 0; k < 3; k++) {
        mk_ai_config_init(&cfg);
        cfg.engine = MK_AI_MCTS;
        cfg.iterations = k < 2 ? 300 : 0;
        cfg.budget_ms = k < 2 ? 0 : 30;
        cfg.threads = k == 1 ? 2 : 1;
        cfg.seed = 400 + (uint64_t)k;
        CHECK_EQ(mk_ai_reserve(rs, &cfg), 0);
        n = pick_count(rs, sc, st, &cfg, &ok);
        CHECK(ok);
        printf("%-24s mcts reserved (%d it, %d ms, %d thread(s)): first move %ld allocations\n",
               id, cfg.iterations, cfg.budget_ms, cfg.threads, n);
        CHECK_EQ(n, 0);
        mk_ai_release();
    }
    /* Engines that keep nothing have nothing to reserve. */
    cfg.engine = MK_AI_GREEDY;
    CHECK_EQ(mk_ai_reserve(rs, &cfg), 0);
    free(acts);
    free(st);
    free(init);
    mk_scenario_free(sc);
}

int main(void)
{
    /* The counter counts. */
    count_start();
    void *p = malloc(16);
    long n = count_stop();
    free(p);
    CHECK_EQ(n, 1);

    scenario("htl/tutorial");
    scenario("htl/brandywine");
    scenario("hm/killiecrankie");
    scenario("bar/1-lees-repulse");
    return check_done("test_alloc");
}
#else
int main(void)
{
    puts("test_alloc: skipped: AddressSanitizer's allocator cannot be counted here");
    return 77;
}
#endif
