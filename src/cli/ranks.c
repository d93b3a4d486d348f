/*
 * ranks.c - the ranks of an MPI job, as a team of the engine
 * (src/engine/team.h), for 'mpirun -n K shufflebias test ...'.
 *
 * MPI is joined only when a launcher started the process (mpirun, or a
 * scheduler's srun: they set the variables below), so the tool run by
 * hand never pays for MPI_Init.  Rank 0 speaks for the job: it prints and
 * writes every output.  The other ranks' standard output goes nowhere
 * and their standard error to a file of their own, whose last line is
 * what they say to rank 0 if they fail before the run begins; once it
 * has begun, their failures reach rank 0 with their counts.
 *
 * Only the thread that called MPI_Init_thread calls MPI
 * (MPI_THREAD_FUNNELED): the runner calls the team from the thread that
 * called sb_run, which is the program's main thread.
 *
 * Without MPI in the build (SB_HAVE_MPI unset), a process started by a
 * launcher refuses to run: K copies of one run would each make the whole
 * run and write the same files.
 */
#define _GNU_SOURCE            /* sched_getaffinity */
#include "cli/cli.h"

#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shufflebias/status.h"

#ifdef SB_HAVE_MPI
#include <limits.h>
#include <mpi.h>
#endif

/* Whether an MPI launcher started this process as one of several: it
   sets these variables in every process it starts (Open MPI's mpirun,
   PMIx: Slurm's srun --mpi=pmix and Open MPI 4 and later, PMI-1 and
   PMI-2: MPICH's Hydra, Slurm's srun --mpi=pmi2).  A job of one task
   (srun --ntasks=1 on a cluster whose default is PMIx) is no team: the
   process runs alone, and needs no MPI. */
static int launched(void)
{
    static const char *const sizes[] = {
        "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_STEP_NUM_TASKS", NULL
    };
    for (const char *const *v = sizes; *v; v++) {
        const char *s = getenv(*v);
        if (s && strcmp(s, "1") == 0)
            return 0;
    }
    static const char *const vars[] = {
        "OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE", "PMI_RANK", NULL
    };
    for (const char *const *v = vars; *v; v++)
        if (getenv(*v))
            return 1;
    return 0;
}

struct sb_cli_ranks {
    sb_team team;
    FILE *said;               /* a rank's standard error but the first's */
#ifdef SB_HAVE_MPI
    MPI_Request stop_rx;      /* a stop from another rank, posted */
    int stop_flag;            /* its buffer */
    int stopped;              /* it arrived */
    int stop_sent;
#endif
};

#ifdef SB_HAVE_MPI

enum { TAG_GATHER = 7301, TAG_STOP = 7302 };

/* Bytes are sent in pieces an int counts. */
#define PIECE (1 << 30)

/* Room for the pieces of a message of 'len' bytes that has no room of
   its own, received and thrown away so that the ranks stay in step: the
   job ends when not even that can be had. */
static unsigned char *sink_for(uint64_t len)
{
    unsigned char *s = malloc(len < PIECE ? (size_t)len + 1 : PIECE);
    if (!s) {
        sb_cli_error("out of memory receiving the other ranks' counts");
        MPI_Abort(MPI_COMM_WORLD, SB_EXIT_USAGE);
    }
    return s;
}

static int send_bytes(const unsigned char *p, size_t n, int to)
{
    uint64_t len = n;
    if (MPI_Send(&len, 1, MPI_UINT64_T, to, TAG_GATHER, MPI_COMM_WORLD)
        != MPI_SUCCESS)
        return SB_EIO;
    for (size_t at = 0; at < n; at += PIECE) {
        const int k = (int)(n - at < PIECE ? n - at : PIECE);
        if (MPI_Send(p + at, k, MPI_BYTE, to, TAG_GATHER, MPI_COMM_WORLD)
            != MPI_SUCCESS)
            return SB_EIO;
    }
    return SB_OK;
}

/* The bytes rank 'from' sends, allocated, or NULL: *status says why
   (the pieces are received, or discarded, either way). */
static unsigned char *recv_bytes(int from, size_t *n, int *status)
{
    uint64_t len;
    *status = SB_OK;
    if (MPI_Recv(&len, 1, MPI_UINT64_T, from, TAG_GATHER, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE) != MPI_SUCCESS) {
        *status = SB_EIO;
        return NULL;
    }
    unsigned char *p = malloc(len ? (size_t)len : 1);
    unsigned char *sink = p ? NULL : sink_for(len);
    for (uint64_t at = 0; at < len; at += PIECE) {
        const int k = (int)(len - at < PIECE ? len - at : PIECE);
        if (MPI_Recv(p ? p + at : sink, k, MPI_BYTE, from, TAG_GATHER,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE) != MPI_SUCCESS)
            *status = SB_EIO;
    }
    free(sink);
    if (!p && *status == SB_OK)
        *status = SB_ENOMEM;
    if (*status != SB_OK) {
        free(p);
        return NULL;
    }
    *n = (size_t)len;
    return p;
}

static int mpi_gather(void *ctx, const unsigned char *mine, size_t len,
                      int (*take)(void *tctx, unsigned from,
                                  const unsigned char *p, size_t n),
                      void *tctx)
{
    sb_cli_ranks *r = ctx;
    if (r->team.rank != 0)
        return send_bytes(mine, len, 0);
    int rc = take(tctx, 0, mine, len);
    for (unsigned from = 1; from < r->team.size; from++) {
        size_t n = 0;
        int st;
        /* Bytes lost on the way are taken as none, which 'take' says
           are no message. */
        unsigned char *p = recv_bytes((int)from, &n, &st);
        const int t = take(tctx, from, p, p ? n : 0);
        if (rc == SB_OK)
            rc = t;
        free(p);
    }
    return rc;
}

static int mpi_share(void *ctx, unsigned char **p, size_t *n)
{
    sb_cli_ranks *r = ctx;
    uint64_t len = r->team.rank == 0 && *p ? *n : 0;
    if (MPI_Bcast(&len, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD) != MPI_SUCCESS)
        return SB_EIO;
    if (r->team.rank != 0) {
        *p = malloc(len ? (size_t)len : 1);
        *n = (size_t)len;
    }
    /* Every rank takes part in every piece, even one that could not make
       room: it receives them into a piece of its own and fails after. */
    unsigned char *sink = *p ? NULL : sink_for(len);
    int rc = SB_OK;
    for (uint64_t at = 0; at < len; at += PIECE) {
        const int k = (int)(len - at < PIECE ? len - at : PIECE);
        if (MPI_Bcast(*p ? *p + at : sink, k, MPI_BYTE, 0, MPI_COMM_WORLD)
            != MPI_SUCCESS)
            rc = SB_EIO;
    }
    free(sink);
    return *p ? rc : SB_ENOMEM;
}

static int mpi_stopped(void *ctx)
{
    sb_cli_ranks *r = ctx;
    if (!r->stopped) {
        int done = 0;
        MPI_Test(&r->stop_rx, &done, MPI_STATUS_IGNORE);
        r->stopped = done;
    }
    return r->stopped;
}

static void mpi_stop_all(void *ctx)
{
    sb_cli_ranks *r = ctx;
    if (r->stop_sent)
        return;
    r->stop_sent = 1;
    static const int one = 1;
    for (unsigned to = 0; to < r->team.size; to++)
        if (to != r->team.rank) {
            MPI_Request q;
            MPI_Isend(&one, 1, MPI_INT, (int)to, TAG_STOP, MPI_COMM_WORLD,
                      &q);
            MPI_Request_free(&q);
        }
}

#endif /* SB_HAVE_MPI */

int sb_cli_ranks_open(int *argc, char ***argv, sb_cli_ranks **out)
{
    *out = NULL;
    if (!launched())
        return SB_OK;
#ifndef SB_HAVE_MPI
    (void)argc;
    (void)argv;
    sb_cli_error("started by an MPI launcher (mpirun, srun), but this "
                 "shufflebias was built without MPI: each process would "
                 "make the whole run; build it with MPI (docs/scale.md) "
                 "or run it without the launcher");
    return SB_ENOTSUP;
#else
    int level;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &level)
        != MPI_SUCCESS) {
        sb_cli_error("cannot join the MPI job (MPI_Init_thread failed)");
        return SB_EIO;
    }
    sb_cli_ranks *r = calloc(1, sizeof *r);
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (!r || level < MPI_THREAD_FUNNELED) {
        sb_cli_error(r ? "the MPI library does not allow threads "
                         "(MPI_THREAD_FUNNELED)" : "out of memory");
        free(r);
        MPI_Abort(MPI_COMM_WORLD, SB_EXIT_USAGE);
        return SB_EIO;
    }
    r->team = (sb_team){ .rank = (unsigned)rank, .size = (unsigned)size,
                         .gather = mpi_gather, .share = mpi_share,
                         .stopped = mpi_stopped,
                         .stop_all = mpi_stop_all, .ctx = r };
    MPI_Irecv(&r->stop_flag, 1, MPI_INT, MPI_ANY_SOURCE, TAG_STOP,
              MPI_COMM_WORLD, &r->stop_rx);
    if (rank != 0) {
        /* Rank 0 speaks for the job. */
        fflush(stdout);
        fflush(stderr);
        const int null = open("/dev/null", O_WRONLY);
        if (null >= 0) {
            dup2(null, STDOUT_FILENO);
            close(null);
        }
        r->said = tmpfile();
        if (r->said)
            dup2(fileno(r->said), STDERR_FILENO);
    }
    *out = r;
    return SB_OK;
#endif
}

unsigned sb_cli_ranks_threads(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return sb_cli_threads_default();
    const int n = CPU_COUNT(&set);
    return n < 1 ? 1u : n > (int)SB_CLI_THREADS_MAX ? SB_CLI_THREADS_MAX
                                                    : (unsigned)n;
}

sb_team *sb_cli_ranks_team(sb_cli_ranks *r)
{
    return r && r->team.size > 1 ? &r->team : NULL;
}

#ifdef SB_HAVE_MPI
/* The last line this rank wrote to its standard error, into 'out'. */
static void last_said(sb_cli_ranks *r, char *out, size_t len)
{
    out[0] = '\0';
    if (!r->said)
        return;
    fflush(stderr);
    rewind(r->said);
    char line[1024];
    while (fgets(line, sizeof line, r->said))
        if (line[0] != '\n') {
            const size_t k = strlen(line);
            memcpy(out, line, k < len ? k + 1 : len);
            out[len - 1] = '\0';
        }
    out[strcspn(out, "\n")] = '\0';
    /* Without the program's name: rank 0 puts its own before it. */
    static const char prefix[] = "shufflebias: ";
    if (strncmp(out, prefix, sizeof prefix - 1) == 0)
        memmove(out, out + sizeof prefix - 1,
                strlen(out) - (sizeof prefix - 1) + 1);
}
#endif

int sb_cli_ranks_close(sb_cli_ranks *r, int code)
{
    if (!r)
        return code;
#ifdef SB_HAVE_MPI
    sb_team *t = &r->team;
    /* A rank that failed before any run began: the others may be waiting
       for it to say whether it is ready (sb_team_agree). */
    if (t->size > 1 && t->agreed == 0 && code != SB_EXIT_PASS) {
        char why[512], err[1024];
        last_said(r, why, sizeof why);
        (void)sb_team_agree(t, SB_EINVAL, why[0] ? why : "failed",
                            err, sizeof err);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (!r->stopped) {
        MPI_Cancel(&r->stop_rx);
        MPI_Wait(&r->stop_rx, MPI_STATUS_IGNORE);
    }
    /* Stops sent by several ranks at once: received, so that none is
       left unmatched. */
    for (;;) {
        int any = 0, flag;
        MPI_Iprobe(MPI_ANY_SOURCE, TAG_STOP, MPI_COMM_WORLD, &any,
                   MPI_STATUS_IGNORE);
        if (!any)
            break;
        MPI_Recv(&flag, 1, MPI_INT, MPI_ANY_SOURCE, TAG_STOP,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
#endif
    if (r->said)
        fclose(r->said);
    free(r);
    return code;
}
