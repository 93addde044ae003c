/* sim_mpi.c - `musket sim` across MPI ranks (see sim_mpi.h and
 * docs/sim-mpi.md). Built into musket-mpi only (CMake option MUSKET_MPI).
 *
 * Messages (MPI_COMM_WORLD, all small, so sends complete at once):
 *   worker -> 0   REQUEST  int k       k of its players are idle: k games, please
 *                 RESULT   mk_match_game (bytes; every rank runs the same build)
 *                 FAIL     char[]      a game failed on that rank
 *                 BEAT     (empty)     still alive (after 1 s without another message)
 *                 BYE      (empty)     its players have stopped, every result sent
 *   0 -> worker   ASSIGN   int[k]      game numbers, -1 for "no more games"
 * Rank 0 plays too (its own players take numbers straight from the
 * counter), and its main thread answers the others. */
#define _POSIX_C_SOURCE 200809L
#include "sim_mpi.h"

#include <errno.h>
#include <mpi.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { TAG_REQUEST = 1, TAG_RESULT, TAG_FAIL, TAG_BEAT, TAG_BYE, TAG_ASSIGN };

#define MAX_ASK 64          /* players per rank at most (sim's --threads limit) */
#define BEAT_S 1.0          /* a worker speaks at least this often */
#define MSG_LEN 256
#define LINGER_S 10         /* a worker's wait for mpirun's SIGKILL after its SIGTERM */

static int my_rank, nranks;
static volatile sig_atomic_t terminated;

static void on_sigterm(int sig)
{
    (void)sig;
    terminated = 1;
}

/* SIGTERM comes from mpirun ending the job (Ctrl-C on it, a rank that
 * died), to every rank at once, and SIGKILL a few seconds later. Every rank
 * catches it: Open MPI 4.1's mpirun, once a process of the job dies of a
 * signal, kills the rest at once and exits without reading what they wrote
 * last, so a worker dying of the SIGTERM could take rank 0's report with it
 * (an empty report in CI's mpi_sim 3c; tests/mpi_sim.sh 3e checks this). */
static void catch_sigterm(struct sigaction *old)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigterm;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, old);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Waiting without spinning a core: sleeps 20 us, doubling up to 1 ms while
 * nothing happens; reset when something does. */
static void idle_wait(long *ns)
{
    *ns = *ns < 20000 ? 20000 : *ns * 2 > 1000000 ? 1000000 : *ns * 2;
    struct timespec ts = {0, *ns};
    nanosleep(&ts, NULL);
}

static void mpi_message(int e, const char *what, char *out, size_t n)
{
    char s[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(e, s, &len) != MPI_SUCCESS)
        snprintf(s, sizeof s, "error %d", e);
    snprintf(out, n, "rank %d: %s failed: %s", my_rank, what, s);
}

int mk_sim_mpi_init(int *rank, int *size)
{
    int inited = 0;
    MPI_Initialized(&inited);
    if (!inited) {
        int provided = 0;
        if (MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
            fprintf(stderr, "musket sim: MPI did not start\n");
            return -1;
        }
        if (provided < MPI_THREAD_FUNNELED) {
            fprintf(stderr, "musket sim: this MPI gives no thread support (FUNNELED needed)\n");
            MPI_Finalize();
            return -1;
        }
    }
    /* Errors come back as return codes: a failed send ends the study with a
     * report instead of killing rank 0 with it. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    *rank = my_rank;
    *size = nranks;
    return 0;
}

int mk_sim_mpi_agree(int rc, int *rc0)
{
    int all = rc, first = rc;
    if (nranks > 1) {
        MPI_Allreduce(&rc, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        MPI_Bcast(&first, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
    if (rc0)
        *rc0 = first;
    return all;
}

/* ---- the players of one rank ---- */

typedef struct node {
    mk_sim_mpi_hooks h;     /* a copy: the caller's may be gone while players finish a game */
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool root;
    /* rank 0: the study's counter */
    int next;
    bool stopping;
    /* workers: game numbers received and not started, results not sent */
    int queue[2 * MAX_ASK], qhead, qlen;
    bool no_more;
    mk_match_game *outbox;
    int nout;
    char fail[MSG_LEN];
    bool fail_pending;
    /* both */
    int idle, exited;
    long played0;           /* rank 0: games its own players finished */
} node;

/* Rank 0: the next game to play anywhere, or -1. Under the lock. */
static int take(node *nd)
{
    if (nd->stopping || *nd->h.interrupted || nd->next >= nd->h.n)
        return -1;
    return nd->next++;
}

static void *player(void *p)
{
    node *nd = p;
    const mk_sim_mpi_hooks *h = &nd->h;
    for (;;) {
        pthread_mutex_lock(&nd->lock);
        int g = -1;
        if (nd->root) {
            g = take(nd);
        } else {
            while (!nd->qlen && !nd->no_more)
                pthread_cond_wait(&nd->cond, &nd->lock);
            if (nd->qlen) {
                g = nd->queue[nd->qhead];
                nd->qhead = (nd->qhead + 1) % (2 * MAX_ASK);
                nd->qlen--;
            }
        }
        nd->idle--;
        if (g < 0) {
            nd->exited++;
            pthread_mutex_unlock(&nd->lock);
            return NULL;
        }
        pthread_mutex_unlock(&nd->lock);

        mk_match_game r;
        char msg[MSG_LEN] = "";
        int rc = h->play(h->ctx, g, &r, msg, sizeof msg);
        if (nd->root) {
            if (rc == 0) {
                h->record(h->ctx, &r);
                pthread_mutex_lock(&nd->lock);
                nd->played0++;
                pthread_mutex_unlock(&nd->lock);
            } else {
                h->fail(h->ctx, msg);
                pthread_mutex_lock(&nd->lock);
                nd->stopping = true;
                pthread_mutex_unlock(&nd->lock);
            }
        }
        pthread_mutex_lock(&nd->lock);
        if (!nd->root) {
            if (rc == 0) {
                nd->outbox[nd->nout++] = r;
            } else if (!nd->fail_pending) {
                snprintf(nd->fail, sizeof nd->fail, "rank %d: %s", my_rank, msg);
                nd->fail_pending = true;
                nd->no_more = true;     /* rank 0 stops the study */
                pthread_cond_broadcast(&nd->cond);
            }
        }
        nd->idle++;
        pthread_mutex_unlock(&nd->lock);
    }
}

static int start_players(node *nd, pthread_t *tid)
{
    int started = 0;
    nd->idle = nd->h.players;
    for (int t = 0; t < nd->h.players; t++)
        if (pthread_create(&tid[started], NULL, player, nd) == 0)
            started++;
    pthread_mutex_lock(&nd->lock);
    nd->idle -= nd->h.players - started;   /* only the threads that did start */
    pthread_mutex_unlock(&nd->lock);
    return started;
}

/* ---- rank 0 ---- */

static int coordinate(node *nd)
{
    const mk_sim_mpi_hooks *h = &nd->h;
    char msg[MSG_LEN + 64];
    double *heard = calloc((size_t)nranks, sizeof *heard);
    bool *bye = calloc((size_t)nranks, sizeof *bye);
    long *played = calloc((size_t)nranks, sizeof *played);
    pthread_t tid[MAX_ASK];
    if (!heard || !bye || !played) {
        h->fail(h->ctx, "out of memory");
        free(heard);
        free(bye);
        free(played);
        return MK_SIM_MPI_LOST;
    }
    struct sigaction old;
    catch_sigterm(&old);

    int started = start_players(nd, tid);
    double t0 = now_s();
    for (int r = 1; r < nranks; r++)
        heard[r] = t0;
    int active = nranks - 1, how = MK_SIM_MPI_DONE;
    long backoff = 0;
    for (;;) {
        if (terminated) {
            how = MK_SIM_MPI_TERMINATED;
            break;
        }
        MPI_Status st;
        int flag = 0, e = MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
        if (e != MPI_SUCCESS) {
            mpi_message(e, "MPI_Iprobe", msg, sizeof msg);
            h->fail(h->ctx, msg);
            how = MK_SIM_MPI_LOST;
            break;
        }
        if (flag) {
            backoff = 0;
            int src = st.MPI_SOURCE, count = 0;
            heard[src] = now_s();
            MPI_Get_count(&st, MPI_BYTE, &count);
            /* Every message fits this buffer; anything else is a bug. */
            union { mk_match_game g; int k; char text[MSG_LEN]; } buf;
            if (count < 0 || (size_t)count > sizeof buf) {
                snprintf(msg, sizeof msg, "rank %d sent a message of %d bytes (tag %d)", src,
                         count, st.MPI_TAG);
                h->fail(h->ctx, msg);
                how = MK_SIM_MPI_LOST;
                break;
            }
            e = MPI_Recv(&buf, count, MPI_BYTE, src, st.MPI_TAG, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
            if (e == MPI_SUCCESS && st.MPI_TAG == TAG_REQUEST) {
                int k = count == (int)sizeof(int) ? buf.k : 1, nums[MAX_ASK];
                k = k < 1 ? 1 : k > MAX_ASK ? MAX_ASK : k;
                pthread_mutex_lock(&nd->lock);
                for (int i = 0; i < k; i++)
                    nums[i] = take(nd);
                pthread_mutex_unlock(&nd->lock);
                e = MPI_Send(nums, k, MPI_INT, src, TAG_ASSIGN, MPI_COMM_WORLD);
            } else if (e == MPI_SUCCESS && st.MPI_TAG == TAG_RESULT) {
                if (count == (int)sizeof buf.g && buf.g.number >= 0 && buf.g.number < h->n) {
                    h->record(h->ctx, &buf.g);
                    played[src]++;
                } else {
                    snprintf(msg, sizeof msg, "rank %d sent a malformed result", src);
                    h->fail(h->ctx, msg);
                }
            } else if (e == MPI_SUCCESS && st.MPI_TAG == TAG_FAIL) {
                buf.text[count < MSG_LEN ? count : MSG_LEN - 1] = 0;
                h->fail(h->ctx, buf.text);
                pthread_mutex_lock(&nd->lock);
                nd->stopping = true;
                pthread_mutex_unlock(&nd->lock);
            } else if (e == MPI_SUCCESS && st.MPI_TAG == TAG_BYE && !bye[src]) {
                bye[src] = true;
                active--;
            }
            if (e != MPI_SUCCESS) {
                mpi_message(e, "talking to another rank", msg, sizeof msg);
                h->fail(h->ctx, msg);
                how = MK_SIM_MPI_LOST;
                break;
            }
            continue;
        }
        pthread_mutex_lock(&nd->lock);
        bool local_done = nd->exited == started;
        pthread_mutex_unlock(&nd->lock);
        if (active == 0 && local_done)
            break;
        double t = now_s();
        int lost = -1;
        for (int r = 1; r < nranks && lost < 0; r++)
            if (!bye[r] && t - heard[r] > h->rank_timeout)
                lost = r;
        if (lost > 0) {
            snprintf(msg, sizeof msg,
                     "rank %d sent nothing for %.0f s: lost (stopped, hung, or its host is "
                     "unreachable); ending the study", lost, t - heard[lost]);
            h->fail(h->ctx, msg);
            how = MK_SIM_MPI_LOST;
            break;
        }
        idle_wait(&backoff);
    }
    if (how == MK_SIM_MPI_DONE) {
        for (int t = 0; t < started; t++)
            pthread_join(tid[t], NULL);
        sigaction(SIGTERM, &old, NULL);
        /* How the work was shared (stderr; the report is the one-process one). */
        played[0] = nd->played0;
        if (!h->quiet) {
            long lo = played[0], hi = played[0], sum = 0;
            for (int r = 0; r < nranks; r++) {
                lo = played[r] < lo ? played[r] : lo;
                hi = played[r] > hi ? played[r] : hi;
                sum += played[r];
            }
            fprintf(stderr, "sim: %ld games on %d ranks:", sum, nranks);
            if (nranks <= 16)
                for (int r = 0; r < nranks; r++)
                    fprintf(stderr, " %ld", played[r]);
            else
                fprintf(stderr, " %ld to %ld a rank", lo, hi);
            fprintf(stderr, "\n");
        }
    } else {
        /* Players may be in the middle of a game: the report is written
         * now, under the study's lock, and the process ends after it. */
        pthread_mutex_lock(&nd->lock);
        nd->stopping = true;
        pthread_mutex_unlock(&nd->lock);
    }
    free(heard);
    free(bye);
    free(played);
    return how;
}

/* ---- the other ranks ---- */

static int work(node *nd)
{
    const mk_sim_mpi_hooks *h = &nd->h;
    char msg[MSG_LEN + 64];
    pthread_t tid[MAX_ASK];
    mk_match_game *sending = malloc(sizeof *sending * (size_t)h->players);
    nd->outbox = malloc(sizeof *nd->outbox * (size_t)h->players);
    if (!sending || !nd->outbox) {
        fprintf(stderr, "musket sim: rank %d: out of memory\n", my_rank);
        free(sending);
        return MK_SIM_MPI_LOST;
    }
    struct sigaction old;
    catch_sigterm(&old);
    int started = start_players(nd, tid);
    int asked = 0, e = MPI_SUCCESS, how = MK_SIM_MPI_DONE;
    double last_send = now_s(), asked_at = last_send;
    long backoff = 0;
    const char *what = "";
    for (;;) {
        if (terminated) {
            how = MK_SIM_MPI_TERMINATED;
            break;
        }
        pthread_mutex_lock(&nd->lock);
        if (*h->interrupted && !nd->no_more) {
            nd->no_more = true;
            pthread_cond_broadcast(&nd->cond);
        }
        int nsend = nd->nout;
        memcpy(sending, nd->outbox, sizeof *sending * (size_t)nsend);
        nd->nout = 0;
        bool fail = nd->fail_pending;
        if (fail) {
            snprintf(msg, sizeof msg, "%s", nd->fail);
            nd->fail_pending = false;
        }
        int want = nd->no_more ? 0 : nd->idle - nd->qlen - asked;
        bool done = nd->exited == started;   /* and so every result is in `sending` */
        pthread_mutex_unlock(&nd->lock);

        bool busy = nsend > 0 || fail || want > 0;
        what = "sending a result";
        for (int i = 0; i < nsend && e == MPI_SUCCESS; i++)
            e = MPI_Send(&sending[i], (int)sizeof sending[i], MPI_BYTE, 0, TAG_RESULT,
                         MPI_COMM_WORLD);
        if (fail && e == MPI_SUCCESS) {
            what = "reporting a failure";
            e = MPI_Send(msg, (int)strlen(msg) + 1, MPI_CHAR, 0, TAG_FAIL, MPI_COMM_WORLD);
        }
        if (want > 0 && e == MPI_SUCCESS) {
            e = MPI_Send(&want, 1, MPI_INT, 0, TAG_REQUEST, MPI_COMM_WORLD);
            what = "asking for games";
            if (asked == 0)
                asked_at = now_s();
            asked += want;
        }
        if (busy)
            last_send = now_s();
        if (e == MPI_SUCCESS && done && asked == 0 && !nsend && !fail) {
            e = MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_BYE, MPI_COMM_WORLD);
            what = "saying goodbye";
            break;
        }
        int flag = 0;
        MPI_Status st;
        if (e == MPI_SUCCESS) {
            what = "listening";
            e = MPI_Iprobe(0, TAG_ASSIGN, MPI_COMM_WORLD, &flag, &st);
        }
        if (e == MPI_SUCCESS && flag) {
            int nums[MAX_ASK], k = 0;
            MPI_Get_count(&st, MPI_INT, &k);
            k = k < 0 ? 0 : k > MAX_ASK ? MAX_ASK : k;
            e = MPI_Recv(nums, MAX_ASK, MPI_INT, 0, TAG_ASSIGN, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            what = "receiving games";
            pthread_mutex_lock(&nd->lock);
            for (int i = 0; i < k; i++) {
                if (nums[i] < 0 || nd->no_more) {
                    nd->no_more = true;   /* the study is over (or this rank stops) */
                } else {
                    nd->queue[(nd->qhead + nd->qlen) % (2 * MAX_ASK)] = nums[i];
                    nd->qlen++;
                }
            }
            pthread_cond_broadcast(&nd->cond);
            pthread_mutex_unlock(&nd->lock);
            asked -= k;
            asked_at = now_s();
            busy = true;
        }
        if (e != MPI_SUCCESS)
            break;
        double t = now_s();
        if (asked > 0 && t - asked_at > h->rank_timeout) {
            fprintf(stderr, "musket sim: rank %d: rank 0 has not answered for %.0f s; "
                            "ending the job\n", my_rank, t - asked_at);
            how = MK_SIM_MPI_LOST;
            break;
        }
        if (t - last_send >= BEAT_S) {
            e = MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_BEAT, MPI_COMM_WORLD);
            what = "sending a heartbeat";
            last_send = t;
            if (e != MPI_SUCCESS)
                break;
        }
        if (busy)
            backoff = 0;
        else
            idle_wait(&backoff);
    }
    if (e != MPI_SUCCESS) {
        mpi_message(e, what, msg, sizeof msg);
        fprintf(stderr, "musket sim: %s\n", msg);
        how = MK_SIM_MPI_LOST;
    }
    if (how == MK_SIM_MPI_DONE) {
        for (int t = 0; t < started; t++)
            pthread_join(tid[t], NULL);
        sigaction(SIGTERM, &old, NULL);
    }
    free(sending);
    /* nd->outbox stays while players may still run (LOST ends the job). */
    if (how == MK_SIM_MPI_DONE) {
        free(nd->outbox);
        nd->outbox = NULL;
    }
    return how;
}

int mk_sim_mpi_run(const mk_sim_mpi_hooks *h)
{
    static node nd;   /* outlives a LOST or TERMINATED end, when players still run */
    memset(&nd, 0, sizeof nd);
    nd.h = *h;
    nd.root = my_rank == 0;
    pthread_mutex_init(&nd.lock, NULL);
    pthread_cond_init(&nd.cond, NULL);
    if (h->players < 1 || h->players > MAX_ASK)
        return MK_SIM_MPI_LOST;
    return nd.root ? coordinate(&nd) : work(&nd);
}

int mk_sim_mpi_end(int how, int rc)
{
    fflush(stdout);
    fflush(stderr);
    if (how == MK_SIM_MPI_TERMINATED && my_rank != 0) {
        /* Outlive rank 0 (see catch_sigterm): mpirun's SIGKILL ends this
         * wait, or rank 0's exit does. LINGER_S only bounds a SIGTERM sent
         * to this rank alone: its exit then makes mpirun end the job as for
         * a rank that died, unless a shorter --rank-timeout has made rank 0
         * end the study first. */
        struct timespec ts = {LINGER_S, 0};
        while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
            ;
    }
    if (how == MK_SIM_MPI_TERMINATED)
        _exit(rc ? rc : 1);
    if (how == MK_SIM_MPI_LOST) {
        MPI_Abort(MPI_COMM_WORLD, rc ? rc : 1);
        _exit(rc ? rc : 1);
    }
    MPI_Finalize();
    return rc;
}
