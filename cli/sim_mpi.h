/* sim_mpi.h - the MPI side of `musket sim`, built into musket-mpi only
 * (CMake option MUSKET_MPI; docs/sim-mpi.md). sim.c parses the command
 * line, sets up the study and writes the report on rank 0; this file only
 * moves game numbers and results between ranks. No rule of any game, and
 * no statistics, live here.
 *
 * Work distribution: rank 0 hands out game numbers one at a time on
 * request (dynamic, so a slow rank does not hold the study back); every
 * rank, rank 0 included, plays games on `players` threads while its main
 * thread does all the MPI calls (MPI_THREAD_FUNNELED) and polls with a
 * short backoff sleep, so no rank spins a core while waiting. Every result
 * goes to rank 0, which keeps it under the game's number: the outputs are
 * the one-process sim's, game by game. */
#ifndef MK_CLI_SIM_MPI_H
#define MK_CLI_SIM_MPI_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "ai/match.h"

/* How a distributed study ended. */
enum {
    MK_SIM_MPI_DONE,        /* every rank finished (all games, or stopped by Ctrl-C / a failure) */
    MK_SIM_MPI_TERMINATED,  /* this rank got SIGTERM (mpirun ends the job: Ctrl-C on mpirun, or
                             * a rank died): rank 0 reports now; every rank then calls
                             * mk_sim_mpi_end */
    MK_SIM_MPI_LOST         /* a rank stopped answering (--rank-timeout) or MPI failed: report
                             * now, then mk_sim_mpi_end aborts the job */
};

/* What the study gives the transport. play and record are called from
 * player threads (and record from rank 0's main thread) at the same time:
 * they must be thread-safe. */
typedef struct mk_sim_mpi_hooks {
    void *ctx;
    int n;                  /* games in the study, numbered 0 .. n-1 */
    int players;            /* threads playing games on each rank (>= 1) */
    double rank_timeout;    /* seconds without word from a rank before it counts as lost */
    bool quiet;             /* rank 0: no line on how the games were shared */
    const volatile sig_atomic_t *interrupted;   /* Ctrl-C on this rank: no new games */
    /* Plays game `number` into *out: 0, or -1 with a message in msg. */
    int (*play)(void *ctx, int number, mk_match_game *out, char *msg, size_t len);
    /* Rank 0 only: a game finished (on any rank). */
    void (*record)(void *ctx, const mk_match_game *g);
    /* Rank 0 only: a game failed, or a rank or MPI did (the study stops). */
    void (*fail)(void *ctx, const char *msg);
} mk_sim_mpi_hooks;

/* Starts MPI (once) and gives this process's rank and the number of ranks.
 * Returns 0, or -1 if MPI cannot start (message on stderr). */
int mk_sim_mpi_init(int *rank, int *size);

/* The largest rc over all ranks, and rank 0's in *rc0 (setup must succeed
 * everywhere: a scenario file missing on one host stops every rank, none
 * waits for it). Every rank calls it. */
int mk_sim_mpi_agree(int rc, int *rc0);

/* Plays the study across all ranks (size > 1). Returns MK_SIM_MPI_*. On
 * rank 0, once it returns, every game recorded is final. */
int mk_sim_mpi_run(const mk_sim_mpi_hooks *h);

/* Ends MPI after the report: MK_SIM_MPI_DONE finalizes and returns rc;
 * TERMINATED leaves at once with rc (mpirun is ending the job); LOST aborts
 * the whole job with rc. */
int mk_sim_mpi_end(int how, int rc);

#endif
