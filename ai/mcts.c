/* mcts.c - the `mcts` engine: open-loop Monte Carlo tree search.
 *
 * The tree is a tree of action sequences, not of states: each iteration
 * copies the root state (one memcpy), reseeds the copy's dice, and replays
 * the actions down the tree, so every iteration samples fresh dice and the
 * statistics of a node average over them (open-loop search; no chance
 * nodes). Because the dice differ, an action stored in the tree may not be
 * legal in this iteration's state: a node's children are filtered by the
 * legal actions of the state at hand, and UCB counts for each child how
 * often it was available (as in information-set MCTS) instead of the
 * parent's visits.
 *
 * Many actions per turn: the branching factor is the number of legal
 * actions (hundreds of moves), so a node gains children by progressive
 * widening (1 + PW_C * sqrt(visits) of them). At the root the candidates
 * are taken best first by a one-ply look (the greedy engine's value with
 * ROOT_SAMPLES dice samples), each starting with that value as a prior
 * worth max(PRIOR_N, PRIOR_SQRT * sqrt(root visits)) visits (it grows
 * with the search, so that more iterations refine the one-ply opinion
 * instead of letting the short rollouts overturn it); below it, a new
 * child is the best by the evaluation of EXPAND_K untried actions picked
 * at random.
 *
 * How deep the tree grows is bounded by cfg->tree_depth (or the
 * ruleset's ai_tree_depth): 1 is a flat search, each iteration one root
 * action and then the rollout (Horse & Musket: its dice change a position
 * so much that open-loop statistics below the root misled the choice,
 * docs/ai.md).
 *
 * Decisions by the other side in the middle of an action: each node
 * records the side that chose its action (to_move of the state it was
 * chosen in) and keeps its rewards from that side's point of view.
 *
 * The horizon. After the tree, a rollout plays on, each action the best
 * by the evaluation of ROLLOUT_K picked at random (or the ruleset's
 * ai_rollout_k: Horse & Musket's rollouts play better for 20), to the
 * start of the next turn of the side whose turn it is at the root (the
 * rest of its turn, then the other side's whole turn), and scores that
 * state with mk_ai_value0 (the result when the game is over, else the
 * ruleset's evaluation); the tree itself stays within the root's turn.
 * So every iteration is scored at the same point of the turn cycle. Why that
 * matters: an evaluation weighs the threats of the side to act more than
 * the other's (Hold the Line's, by design: it fires first), so a value
 * read in the middle of a turn and one read after it are on different
 * scales, and iterations cut off after a fixed number of actions (the
 * old way, rollout_depth >= 0, still there) scored a root action that
 * ends the turn soon on another scale than one that does not. With the
 * horizon mcts beat greedy clearly more often in both rulesets where it
 * was tried (docs/ai.md, "The horizon"). A ruleset whose turns are
 * longer than a rollout can play (Monmouth) keeps a fixed depth
 * (rs->ai_rollout_depth).
 *
 * The rollouts' values lie below the one-ply values (the rollouts' own
 * moves and the other side's turn cost more than the gaps between
 * actions), so the root's priors are shifted by the mean difference seen
 * so far before they are blended in; the move played is the root child
 * with the best blended value.
 *
 * Memory: every buffer a move needs (a node pool and three states per
 * search, the root's lists) is kept by the calling thread from one move
 * to the next (mcts_mem), so that choosing a move allocates nothing once
 * the thread has chosen one with as large a state, as many threads and
 * as large a budget, or once mk_ai_reserve has made them; the pool is
 * never grown during a move (when it is full, iterations go on without
 * adding nodes). Root parallelism: `threads`
 * independent searches with their own seeds and pools; their root visit
 * counts are summed. One thread and an iteration budget: the same seed
 * gives the same action every time. */
#define _POSIX_C_SOURCE 200809L
#include "ai_int.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_DEPTH 160          /* tree depth in actions */
#define SET_SIZE 4096          /* hash set of legal actions, > 2 * MK_MAX_ACTIONS */
#define PW_C 2.0               /* progressive widening constant */
#define ROOT_SAMPLES 4         /* dice samples of the one-ply ordering at the root */
#define EXPAND_K 4             /* untried actions looked at per expansion below the root */
/* Random actions looked at per rollout step, unless the caller
 * (cfg->rollout_k) or the ruleset (rs->ai_rollout_k) says otherwise:
 * rollouts to the horizon are long, and 10 made them good enough to beat
 * greedy where 3 did not (docs/ai.md, "The horizon"); fixed-depth
 * rollouts (Monmouth's 2 actions) keep the 3 they were studied with. */
#define ROLLOUT_K 10
#define ROLLOUT_K_FIXED 3
#define PRIOR_N 8.0            /* a root child's one-ply value counts as at least this many
                                * visits */
#define PRIOR_SQRT 1.0         /* ... and as PRIOR_SQRT * sqrt(root visits) once that is more */
#define NODES_PER_MS 400       /* pool size for a time budget */
#define STOP_SHARE 0.99        /* a timed search stops at this share of its budget: the
                                * iteration that crosses the deadline and the choice after
                                * it must still fit (hard: <= 1 s a move), also when a busy
                                * machine delays the thread (at 0.995 a hard move once took
                                * 1.001 s: docs/ai.md) */
#define POOL_MAX (1 << 22)

/* A node of the tree. Invariant: a node's children all have distinct
 * actions; `sum` is the total reward of the visits through this node for
 * `mover`, the side that chose `act`; avail >= visits for every child. */
typedef struct node {
    mk_action act;
    int32_t first, next;     /* first child, next sibling; -1: none */
    uint32_t visits, avail;
    float sum;
    float prior;             /* children of the root: the one-ply value, worth PRIOR_N visits */
    int16_t root_index;      /* children of the root: index in the root's action list */
    int8_t mover;
} node;

typedef struct set_entry {
    uint64_t key;
    uint32_t gen;
    int16_t idx;
} set_entry;

/* What the root's actions are, shared read-only by the threads. */
typedef struct root_info {
    const mk_ruleset *rs;
    const mk_scenario *sc;
    const void *st;
    int active;                       /* rs->active of the root: whose turn it is */
    mk_action acts[MK_MAX_ACTIONS];   /* in one-ply order, best first */
    double prior[MK_MAX_ACTIONS];     /* their one-ply values */
    int n;
    int mover;
} root_info;

typedef struct search {
    const root_info *root;
    const mk_ai_config *cfg;
    uint64_t seed;
    long max_iterations;     /* 0: until the deadline */
    double deadline;
    int npool, cap;          /* nodes used, and the most this move may use (<= pool_cap) */
    /* Buffers, kept from move to move (mcts_mem); search_fit sizes them. */
    node *pool;
    int pool_cap;
    size_t state_cap;        /* bytes of each of the three states */
    void *work;
    void *cand, *best;       /* two more states: candidates of a guided choice */
    mk_action *acts;
    uint32_t *tried;
    set_entry *set;
    uint32_t gen;            /* marks set[] and tried[] entries of the last set_fill; 0: none */
    mk_rng rng;
    long iterations;
    long horizon_leaves, rollout_actions;   /* mk_ai_stats */
    /* Calibration of the root's prior: over the iterations that went
     * through a root child, the sum of their values for the root's mover
     * and the sum of that child's one-ply value; their mean difference is
     * how far the rollouts' scale lies from the one-ply look's. */
    double root_sumv, root_sump;
    long root_n;
} search;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t action_key(const mk_action *a)
{
    uint64_t k = (uint64_t)a->type | (uint64_t)a->flags << 8 | (uint64_t)a->npath << 16 |
                 (uint64_t)(uint16_t)a->unit << 24 | (uint64_t)(uint16_t)a->other << 40;
    k = mk_ai_mix(k ^ (uint64_t)(uint16_t)a->target << 56);
    int np = a->npath <= MK_PATH_MAX ? a->npath : MK_PATH_MAX;
    for (int i = 0; i < np; i++)
        k = mk_ai_mix(k ^ (uint16_t)a->path[i]);
    return k;
}

static void set_fill(search *s, const mk_action *acts, int n)
{
    if (++s->gen == 0) {   /* wrapped, after 4 billion fills: start the marks afresh */
        memset(s->set, 0, sizeof *s->set * SET_SIZE);
        memset(s->tried, 0, sizeof *s->tried * MK_MAX_ACTIONS);
        s->gen = 1;
    }
    for (int i = 0; i < n; i++) {
        uint64_t k = action_key(&acts[i]);
        for (uint32_t h = (uint32_t)k & (SET_SIZE - 1);; h = (h + 1) & (SET_SIZE - 1))
            if (s->set[h].gen != s->gen) {
                s->set[h] = (set_entry){k, s->gen, (int16_t)i};
                break;
            }
    }
}

/* Index of a in the legal actions last given to set_fill, or -1. */
static int set_find(const search *s, const mk_action *acts, const mk_action *a)
{
    uint64_t k = action_key(a);
    for (uint32_t h = (uint32_t)k & (SET_SIZE - 1); s->set[h].gen == s->gen;
         h = (h + 1) & (SET_SIZE - 1))
        if (s->set[h].key == k && mk_action_equal(&acts[s->set[h].idx], a))
            return s->set[h].idx;
    return -1;
}

static int new_node(search *s, int parent, const mk_action *a, int mover, int root_index)
{
    if (s->npool >= s->cap)
        return -1;
    int i = s->npool++;
    node *nd = &s->pool[i];
    nd->act = *a;
    nd->first = -1;
    nd->visits = nd->avail = 0;
    nd->sum = 0;
    nd->prior = 0;
    nd->root_index = (int16_t)root_index;
    nd->mover = (int8_t)mover;
    nd->next = s->pool[parent].first;
    s->pool[parent].first = i;
    return i;
}

static unsigned widen(uint32_t visits) { return 1u + (unsigned)(PW_C * sqrt((double)visits)); }

static double ucb(const node *c, double explore)
{
    if (c->visits == 0)
        return 1e9;
    double avail = c->avail > 1 ? c->avail : 1;
    return c->sum / c->visits + explore * sqrt(log(avail) / c->visits);
}

/* How many visits a root child's one-ply value counts as, once the root
 * has had `visits`. A fixed weight (8) was washed out by long searches:
 * with 4x the iterations the cut-off rollouts, which judge worse than the
 * one-ply look, decided nearly alone (one reason why 2000 iterations lost
 * to 500, issue 4).
 * Growing as sqrt(visits), the prior keeps a similar share of the
 * leading children's value at any budget. */
static double prior_weight(uint32_t visits)
{
    double w = PRIOR_SQRT * sqrt((double)visits);
    return w > PRIOR_N ? w : PRIOR_N;
}

/* The shift that puts a one-ply value on the scale of the rollouts. */
static double calibration(const search *s)
{
    return s->root_n > 0 ? (s->root_sumv - s->root_sump) / (double)s->root_n : 0.0;
}

/* A root child: its one-ply value, shifted by `shift`, counts as pw visits
 * (so the search starts from greedy's opinion and needs evidence to
 * overturn it). Unshifted, the prior stood above every rollout mean (the
 * rollouts' own moves and the turn's end lower the value by more than the
 * gaps between actions), so a child looked the better the fewer visits it
 * had, which pushed UCB toward the least-visited children. */
static double ucb_root(const node *c, double explore, double pw, double shift)
{
    double avail = c->avail > 1 ? c->avail : 1, n = c->visits + pw;
    return (c->sum + pw * (c->prior + shift)) / n + explore * sqrt(log(avail) / n);
}

/* a must be one of rs->legal(st)'s actions as listed (mk_apply_listed):
 * every caller here takes it from a list made for this state, or from the
 * root's, which differs from this state only in its dice. */
static int apply_quiet(const mk_ruleset *rs, const mk_scenario *sc, void *st, const mk_action *a)
{
    mk_events sink;
    mk_error err;
    mk_events_init(&sink, NULL, 0);
    return mk_apply_listed(rs, st, sc, a, &sink, &err);
}

/* A guided choice: of up to k of acts[0..n-1] (those with tried[i] != gen
 * when tried is not NULL), picked at random, the one whose result is best
 * for `mover` by the evaluation, each applied to a copy of w with the dice
 * w would roll. w becomes the best result. Returns the index chosen, or -1
 * (none could be applied; w unchanged).
 *
 * The k are spread over the list (a random start and a random stride), not
 * k in a row: legal() lists a unit's actions together and a ruleset's
 * fires or charges apart from its moves, so k in a row were mostly one
 * unit's moves and a rollout seldom saw a fire among its candidates.
 * Spread, they come from many units, much as k drawn at random would
 * (tests/test_ai.c's test_stride); the studies that made mcts stronger
 * for it are in docs/ai.md, "The candidates of a rollout step". */
static int guided(search *s, void *w, const mk_action *acts, int n, const uint32_t *tried,
                  int mover, int k)
{
    const mk_ruleset *rs = s->root->rs;
    const mk_scenario *sc = s->root->sc;
    int start = (int)mk_rng_below(&s->rng, (uint32_t)n), pick = -1, looked = 0;
    int stride = n > k ? mk_ai_stride(&s->rng, n) : 1;
    double best = -1e18;
    for (int j = 0; j < n && looked < k; j++) {
        int i = (int)((start + (long)j * stride) % n);
        if (tried && tried[i] == s->gen)
            continue;
        looked++;
        memcpy(s->cand, w, rs->state_size);
        if (apply_quiet(rs, sc, s->cand, &acts[i]) != 0)
            continue;
        double v = mk_ai_value0(rs, sc, s->cand);
        if (mover)
            v = -v;
        if (v > best) {
            best = v;
            pick = i;
            void *t = s->best;
            s->best = s->cand;
            s->cand = t;
        }
    }
    if (pick >= 0)
        memcpy(w, s->best, rs->state_size);
    return pick;
}

/* One iteration: selection and expansion down the tree, a rollout, and
 * the backup of its value along the path. False: its rollout was still
 * under way at the deadline of a timed search and was dropped. */
static bool iterate(search *s)
{
    const root_info *ri = s->root;
    const mk_ruleset *rs = ri->rs;
    const mk_scenario *sc = ri->sc;
    void *w = s->work;
    int path[MAX_DEPTH + 1], depth = 0, cur = 0;
    double explore = s->cfg->exploration;

    memcpy(w, ri->st, rs->state_size);
    uint64_t hi = mk_rng_next(&s->rng);
    mk_rng_seed(&mk_state_head(w)->rng, (hi << 32) | mk_rng_next(&s->rng));
    path[depth++] = 0;

    int td = s->cfg->tree_depth >= 0 ? s->cfg->tree_depth : rs->ai_tree_depth;
    int limit = td > 0 && td < MAX_DEPTH ? td + 1 : MAX_DEPTH;
    int rd = s->cfg->rollout_depth >= 0 || s->cfg->rollout_depth == MK_ROLLOUT_HORIZON
                 ? s->cfg->rollout_depth
                 : rs->ai_rollout_depth > 0 ? rs->ai_rollout_depth : MK_ROLLOUT_HORIZON;
    bool horizon = rd == MK_ROLLOUT_HORIZON;
    bool last_ours = true;   /* the state before the last action was the root's side's turn */
    /* depth - 1 tree actions so far; with the horizon, only the root's turn */
    while (depth < limit && !rs->over(w) && (!horizon || rs->active(w) == ri->active)) {
        node *nd = &s->pool[cur];
        int chosen = -1;
        if (cur == 0) {
            /* The root: its actions are fixed and ordered best first. */
            unsigned nchild = 0;
            double best = -1e18, pw = prior_weight(nd->visits), shift = calibration(s);
            for (int c = nd->first; c >= 0; c = s->pool[c].next) {
                node *ch = &s->pool[c];
                ch->avail++;
                nchild++;
                double u = ucb_root(ch, explore, pw, shift);
                if (u > best) {
                    best = u;
                    chosen = c;
                }
            }
            if (nchild < (unsigned)ri->n && nchild < widen(nd->visits)) {
                int c = new_node(s, 0, &ri->acts[nchild], ri->mover, (int)nchild);
                if (c >= 0) {
                    s->pool[c].avail = 1;
                    s->pool[c].prior = (float)ri->prior[nchild];
                    chosen = c;
                }
            }
            if (chosen < 0)
                break;
            last_ours = true;   /* the root's own state */
            if (apply_quiet(rs, sc, w, &s->pool[chosen].act) != 0)
                return true;
            path[depth++] = chosen;
            if (s->pool[chosen].visits == 0)
                break;   /* just expanded: roll out from here */
            cur = chosen;
            continue;
        }
        int n = rs->legal(w, sc, s->acts, MK_MAX_ACTIONS);
        if (n <= 0)
            break;
        int mover = rs->to_move(w);
        set_fill(s, s->acts, n);
        unsigned legal_children = 0;
        double best = -1e18;
        int listed = -1;   /* the chosen child's action as this state lists it */
        for (int c = nd->first; c >= 0; c = s->pool[c].next) {
            node *ch = &s->pool[c];
            int idx = set_find(s, s->acts, &ch->act);
            if (idx < 0 || ch->mover != mover)
                continue;
            s->tried[idx] = s->gen;
            ch->avail++;
            legal_children++;
            double u = ucb(ch, explore);
            if (u > best) {
                best = u;
                chosen = c;
                listed = idx;
            }
        }
        if (legal_children < (unsigned)n && legal_children < widen(nd->visits)) {
            /* Expand an untried action: the best of a few picked at
             * random, by the evaluation after it (w is then its result). */
            if (s->npool < s->cap || chosen < 0) {
                last_ours = rs->active(w) == ri->active;
                int pick = guided(s, w, s->acts, n, s->tried, mover, EXPAND_K);
                if (pick < 0)
                    return true;
                int c = new_node(s, cur, &s->acts[pick], mover, -1);
                if (c >= 0) {
                    s->pool[c].avail = 1;
                    path[depth++] = c;
                }
                break;   /* a new node, or (the pool is full) none: roll out */
            }
        }
        if (chosen < 0)
            break;
        last_ours = rs->active(w) == ri->active;
        /* Not the node's own action: it was listed in another iteration's
         * state, where its cost may have been another. */
        if (apply_quiet(rs, sc, w, &s->acts[listed]) != 0)
            return true;
        path[depth++] = chosen;
        cur = chosen;
    }

    /* Rollout: to the horizon (the root's active side's next turn) or
     * rollout_depth actions, each step the best of ROLLOUT_K random actions
     * (ROLLOUT_K_FIXED at a fixed depth) by the evaluation, then the
     * evaluation. */
    int steps = horizon ? MK_MCTS_ROLLOUT_MAX : rd;
    bool other_turn = false;
    /* On a time budget, a rollout still under way at the deadline is
     * dropped (not counted, nothing backed up): one to the horizon can
     * take a thousand applies, and the move must fit its budget (hard:
     * at most 1 s). The clock costs less than a hundredth of a step. */
    bool timed = !s->max_iterations && s->iterations > 0;
    int k = s->cfg->rollout_k > 0 ? s->cfg->rollout_k
            : !horizon            ? ROLLOUT_K_FIXED
            : rs->ai_rollout_k > 0 ? rs->ai_rollout_k
                                  : ROLLOUT_K;
    for (int d = 0; d < steps && !rs->over(w); d++) {
        if (timed && now_s() >= s->deadline)
            return false;
        if (horizon) {
            bool ours = rs->active(w) == ri->active;
            if (ours && other_turn)
                break;   /* the root's side's next turn begins */
            other_turn = other_turn || !ours;
        }
        int n = rs->legal(w, sc, s->acts, MK_MAX_ACTIONS);
        if (n <= 0)
            break;
        last_ours = rs->active(w) == ri->active;
        if (guided(s, w, s->acts, n, NULL, rs->to_move(w), k) < 0)
            return true;
        s->rollout_actions++;
    }
    if (rs->over(w) || (!last_ours && rs->active(w) == ri->active))
        s->horizon_leaves++;
    double v0 = mk_ai_value0(rs, sc, w);
    if (depth > 1) {
        const node *rc = &s->pool[path[1]];
        s->root_sumv += rc->mover == 0 ? v0 : -v0;
        s->root_sump += rc->prior;
        s->root_n++;
    }
    for (int i = 0; i < depth; i++) {
        node *nd = &s->pool[path[i]];
        nd->visits++;
        if (i > 0)
            nd->sum += (float)(nd->mover == 0 ? v0 : -v0);
    }
    return true;
}

static void *search_run(void *p)
{
    search *s = p;
    mk_rng_seed(&s->rng, s->seed);
    s->npool = 1;
    s->pool[0] = (node){.first = -1, .next = -1, .root_index = -1, .mover = -1};
    for (s->iterations = 0;; s->iterations++) {
        if (s->max_iterations ? s->iterations >= s->max_iterations
                              : s->iterations > 0 && now_s() >= s->deadline)
            break;
        if (!iterate(s))
            break;   /* dropped at the deadline: not counted */
    }
    return NULL;
}

/* *p made a block of at least n bytes (its contents are not kept). */
static int fit(void **p, size_t n)
{
    void *q = malloc(n);
    if (!q)
        return -1;
    free(*p);
    *p = q;
    return 0;
}

/* The buffers of search s made large enough for states of state_size
 * bytes and pool_cap nodes. Returns 0, or -1 (what it has stays usable). */
static int search_fit(search *s, size_t state_size, int pool_cap)
{
    if (s->state_cap < state_size) {
        if (fit(&s->work, state_size) || fit(&s->cand, state_size) || fit(&s->best, state_size))
            return -1;
        s->state_cap = state_size;
    }
    if (s->pool_cap < pool_cap) {
        if (fit((void **)&s->pool, sizeof *s->pool * (size_t)pool_cap))
            return -1;
        s->pool_cap = pool_cap;
    }
    if (!s->acts && !(s->acts = malloc(sizeof *s->acts * MK_MAX_ACTIONS)))
        return -1;
    if (!s->tried && !(s->tried = calloc(MK_MAX_ACTIONS, sizeof *s->tried)))
        return -1;
    if (!s->set && !(s->set = calloc(SET_SIZE, sizeof *s->set)))
        return -1;
    return 0;
}

static void search_free(search *s)
{
    free(s->pool);
    free(s->work);
    free(s->cand);
    free(s->best);
    free(s->acts);
    free(s->tried);
    free(s->set);
}

typedef struct ordered {
    double value;
    uint32_t tie;
    int idx;
} ordered;

static int by_value(const ordered *x, const ordered *y)
{
    if (x->value != y->value)
        return x->value > y->value ? -1 : 1;
    if (x->tie != y->tie)
        return x->tie < y->tie ? -1 : 1;
    return x->idx - y->idx;
}

/* Sorts o[0..n-1] best first (by_value), a bottom-up merge sort with
 * tmp (n entries) as scratch. Not qsort: glibc's allocates for arrays of
 * more than 1 KiB (64 actions), and choosing allocates nothing. */
static void sort_ordered(ordered *o, ordered *tmp, int n)
{
    for (int w = 1; w < n; w *= 2) {
        for (int lo = 0; lo < n; lo += 2 * w) {
            int mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            int i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                tmp[k++] = by_value(&o[j], &o[i]) < 0 ? o[j++] : o[i++];
            while (i < mid)
                tmp[k++] = o[i++];
            while (j < hi)
                tmp[k++] = o[j++];
        }
        memcpy(o, tmp, sizeof *o * (size_t)n);
    }
}

/* What a move's search needs, kept by the thread that calls mk_ai_mcts
 * from one move to the next: choosing allocates nothing (issue 4's target)
 * once the thread has chosen a move with as large a state, as many
 * threads and as large a node pool (or mk_ai_reserve has made it).
 * Freed when the thread exits, or by
 * mk_ai_release. A time budget sizes the pool for NODES_PER_MS, far more
 * nodes than are used (about 15 a millisecond): its untouched pages cost
 * address space, not memory. */
typedef struct mcts_mem {
    root_info ri;
    mk_action acts[MK_MAX_ACTIONS];
    double values[MK_MAX_ACTIONS];
    ordered ord[MK_MAX_ACTIONS], ord_tmp[MK_MAX_ACTIONS];
    uint64_t visits[MK_MAX_ACTIONS];
    double sum[MK_MAX_ACTIONS];
    void *work;          /* two states, for mk_ai_one_ply */
    size_t work_cap;     /* bytes of each */
    search *ss;
    int nsearch;         /* searches in ss */
} mcts_mem;

static pthread_key_t mem_key;
static pthread_once_t mem_once = PTHREAD_ONCE_INIT;
static bool mem_keyed;

static void mem_free(void *p)
{
    mcts_mem *m = p;
    if (!m)
        return;
    for (int t = 0; t < m->nsearch; t++)
        search_free(&m->ss[t]);
    free(m->ss);
    free(m->work);
    free(m);
}

static void mem_key_make(void) { mem_keyed = pthread_key_create(&mem_key, mem_free) == 0; }

/* The calling thread's mcts_mem, made to fit a move: states of
 * state_size bytes, nsearch searches of pool_cap nodes. NULL when memory
 * cannot be had (what the thread had is kept). Without a thread key (it
 * could not be made) the memory is the caller's to free: *own is set. */
static mcts_mem *mem_get(size_t state_size, int nsearch, int pool_cap, bool *own)
{
    pthread_once(&mem_once, mem_key_make);
    mcts_mem *m = mem_keyed ? pthread_getspecific(mem_key) : NULL;
    *own = false;
    if (!m) {
        if (!(m = calloc(1, sizeof *m)))
            return NULL;
        if (!mem_keyed || pthread_setspecific(mem_key, m) != 0)
            *own = true;
    }
    bool ok = true;
    if (m->work_cap < state_size) {
        ok = fit(&m->work, 2 * state_size) == 0;
        m->work_cap = ok ? state_size : m->work_cap;
    }
    if (ok && m->nsearch < nsearch) {
        search *ss = realloc(m->ss, sizeof *ss * (size_t)nsearch);
        ok = ss != NULL;
        if (ok) {
            memset(ss + m->nsearch, 0, sizeof *ss * (size_t)(nsearch - m->nsearch));
            m->ss = ss;
            m->nsearch = nsearch;
        }
    }
    for (int t = 0; ok && t < nsearch; t++)
        ok = search_fit(&m->ss[t], state_size, pool_cap) == 0;
    if (!ok && *own) {
        mem_free(m);
        return NULL;
    }
    return ok ? m : NULL;
}

void mk_ai_release(void)
{
    pthread_once(&mem_once, mem_key_make);
    if (!mem_keyed)
        return;
    mem_free(pthread_getspecific(mem_key));
    pthread_setspecific(mem_key, NULL);
}

/* What a move by cfg needs: its threads, its iterations in all (0: a
 * time budget) and the most nodes a search may use (one an iteration and
 * the root's, or NODES_PER_MS for a time budget). */
static void need(const mk_ai_config *cfg, int *threads, long *total, long *cap)
{
    int t = cfg->threads < 1 ? 1 : cfg->threads > MK_AI_THREADS_MAX ? MK_AI_THREADS_MAX
                                                                     : cfg->threads;
    long it = cfg->budget_ms > 0 ? 0
              : cfg->iterations > 0 ? cfg->iterations : MK_MCTS_DEFAULT_ITERATIONS;
    long c = it ? it / t + (it % t != 0) + 2 : (long)cfg->budget_ms * NODES_PER_MS + 1024;
    *threads = t;
    *total = it;
    *cap = c > POOL_MAX ? POOL_MAX : c;
}

/* See ai.h. Without a thread key the memory could not be kept: nothing
 * to reserve, and each move allocates its own (-1 says so). */
int mk_ai_reserve(const mk_ruleset *rs, const mk_ai_config *cfg)
{
    if (cfg->engine != MK_AI_MCTS)
        return 0;
    int threads;
    long total, cap;
    need(cfg, &threads, &total, &cap);
    bool own;
    mcts_mem *m = mem_get(rs->state_size, threads, (int)cap, &own);
    if (m && own)
        mem_free(m);
    return m && !own ? 0 : -1;
}

/* mcts: see ai.h and the top of this file. */
int mk_ai_mcts(const mk_ruleset *rs, const mk_scenario *sc, const void *st,
               const mk_ai_config *cfg, mk_action *out, mk_ai_stats *stats)
{
    double t0 = now_s();
    int threads;
    long total, cap;
    need(cfg, &threads, &total, &cap);
    bool own;
    mcts_mem *m = mem_get(rs->state_size, threads, (int)cap, &own);
    if (!m)
        return -1;
    root_info *ri = &m->ri;
    int rc = -1;
    int n = rs->legal(st, sc, m->acts, MK_MAX_ACTIONS);
    if (n <= 0)
        goto done;
    ri->rs = rs;
    ri->sc = sc;
    ri->st = st;
    ri->n = n;
    ri->mover = rs->to_move(st);
    ri->active = rs->active(st);
    if (n == 1) {
        *out = m->acts[0];
        rc = 0;
        goto done;
    }

    /* Order the root's actions best first by a one-ply look. */
    mk_rng rng;
    mk_rng_seed(&rng, mk_ai_mix(cfg->seed ^ 0x726f6f74ull));
    mk_ai_one_ply(rs, sc, st, ri->mover, m->acts, n, ROOT_SAMPLES, mk_ai_mix(cfg->seed + 17),
                  m->work, m->values);
    for (int i = 0; i < n; i++)
        m->ord[i] = (ordered){m->values[i], mk_rng_next(&rng), i};
    sort_ordered(m->ord, m->ord_tmp, n);
    for (int i = 0; i < n; i++) {
        double v = m->values[m->ord[i].idx];
        ri->acts[i] = m->acts[m->ord[i].idx];
        ri->prior[i] = v < -1 ? -1 : v;
    }

    for (int t = 0; t < threads; t++) {
        search *s = &m->ss[t];
        long max_iterations = total ? total / threads + (t < total % threads) : 0;
        if (total && max_iterations == 0)
            max_iterations = 1;
        /* A new move: everything but the buffers starts at zero. */
        *s = (search){
            .root = ri,
            .cfg = cfg,
            .seed = mk_ai_mix(cfg->seed + 0x1000193ull * (uint64_t)(t + 1)),
            .max_iterations = max_iterations,
            .deadline = t0 + cfg->budget_ms * STOP_SHARE / 1000.0,
            .cap = total ? (int)(max_iterations + 2 > cap ? cap : max_iterations + 2) : (int)cap,
            .pool = s->pool,
            .pool_cap = s->pool_cap,
            .state_cap = s->state_cap,
            .work = s->work,
            .cand = s->cand,
            .best = s->best,
            .acts = s->acts,
            .tried = s->tried,
            .set = s->set,
            .gen = s->gen,
        };
    }
    pthread_t tid[MK_AI_THREADS_MAX];
    int started[MK_AI_THREADS_MAX] = {0};
    for (int t = 1; t < threads; t++)
        started[t] = pthread_create(&tid[t], NULL, search_run, &m->ss[t]) == 0;
    search_run(&m->ss[0]);
    for (int t = 1; t < threads; t++) {
        if (started[t])
            pthread_join(tid[t], NULL);
        else
            search_run(&m->ss[t]);   /* no thread to be had: run it here */
    }

    /* Sum the root statistics of every search. The choice is the root
     * child with the best value, its rollouts' mean blended with its
     * one-ply value (shifted to the rollouts' scale) counted as pw visits,
     * as in the search; ties go to the better one-ply value (the earlier
     * index). Not "most visits": the values of the leading actions differ
     * by less than the exploration term, so the visits spread almost
     * evenly and the most-visited child was close to a random one among
     * them, the more so the more children a longer search had widened to. */
    uint64_t *visits = m->visits;
    double *sum = m->sum;
    memset(visits, 0, sizeof *visits * (size_t)n);
    memset(sum, 0, sizeof *sum * (size_t)n);
    long iterations = 0, nodes = 0, root_n = 0, horizon_leaves = 0, rollout_actions = 0;
    double root_sumv = 0, root_sump = 0, pw = 0;
    for (int t = 0; t < threads; t++) {
        const search *s = &m->ss[t];
        iterations += s->iterations;
        horizon_leaves += s->horizon_leaves;
        rollout_actions += s->rollout_actions;
        nodes += s->npool;
        root_sumv += s->root_sumv;
        root_sump += s->root_sump;
        root_n += s->root_n;
        pw += prior_weight(s->pool[0].visits);
        for (int c = s->pool[0].first; c >= 0; c = s->pool[c].next) {
            visits[s->pool[c].root_index] += s->pool[c].visits;
            sum[s->pool[c].root_index] += s->pool[c].sum;
        }
    }
    int best = 0;
    double shift = root_n > 0 ? (root_sumv - root_sump) / (double)root_n : 0.0, bv = -1e18;
    for (int i = 0; i < n; i++) {
        if (!visits[i])
            continue;
        double v = (sum[i] + pw * (ri->prior[i] + shift)) / ((double)visits[i] + pw);
        if (v > bv) {
            bv = v;
            best = i;
        }
    }
    *out = ri->acts[best];
    if (stats) {
        stats->iterations = iterations;
        stats->nodes = nodes;
        stats->horizon_leaves = horizon_leaves;
        stats->rollout_actions = rollout_actions;
        stats->value = visits[best] ? sum[best] / visits[best] : m->values[m->ord[0].idx];
    }
    rc = 0;
done:
    if (own)
        mem_free(m);
    return rc;
}
