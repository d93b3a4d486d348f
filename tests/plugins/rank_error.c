/*
 * rank_error.c - a plug-in whose run() returns an error (SB_EINVAL) at its
 * 20th sample since init, in the MPI rank named by SB_TEST_FAIL_RANK
 * alone (the rank is read from OMPI_COMM_WORLD_RANK, as Open MPI's
 * mpirun sets it); fair everywhere else.  An error on one rank must end
 * the run on every rank, with that rank's message.
 */
#include <stdlib.h>
#include <string.h>

#include <shufflebias/plugin.h>

#include "fair_shuffle.h"

typedef struct state {
    unsigned long made;
    int fails;             /* this process is the rank that fails */
} state;

static int init(void **out, const sb_shuffle_args *a)
{
    (void)a;
    state *s = calloc(1, sizeof *s);
    if (!s)
        return SB_ENOMEM;
    const char *want = getenv("SB_TEST_FAIL_RANK");
    const char *rank = getenv("OMPI_COMM_WORLD_RANK");
    s->fails = want && rank && strcmp(want, rank) == 0;
    *out = s;
    return SB_OK;
}

static int run(void *st, const sb_shuffle_args *a, sb_src *src,
               sb_card *out)
{
    state *s = st;
    if (s->fails && ++s->made == 20)
        return SB_EINVAL;
    sb_test_fair_shuffle(a, src, out, 0);
    return SB_OK;
}

static const sb_shuffle_type failing = {
    .name = "fails-on-a-rank", .summary = "an error at sample 20 on one rank",
    .source = "test", .bias = "fails", .kind = SB_KIND_PERMUTATION,
    .n_min = 2, .n_max = SB_DECK_MAX, .init = init, .free = free,
    .run = run,
};

SB_PLUGIN(&failing)
