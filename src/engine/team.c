/*
 * team.c - the members of a run agree, and merge their counts.
 *
 * What a member sends member 0: its status, the reason it gives (empty
 * when SB_OK), then - from a member that did not fail - its counts as
 * sb_counts_encode writes them.  Member 0 merges them into its own one
 * member at a time, in member order, so that it holds at most its counts
 * and one member's (as bytes, then decoded) at once; then it tells every
 * member the outcome: the first failure, or none.
 */
#include "engine/team.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shufflebias/status.h"
#include "engine/runner.h"
#include "engine/state.h"

void sb_team_share(uint64_t lo, uint64_t end, unsigned rank, unsigned size,
                   uint64_t *first, uint64_t *last)
{
    const uint64_t n = end > lo ? end - lo : 0;
    /* n * rank / size without overflow: n < 2^47 chunks. */
    *first = lo + n * rank / size;
    *last = lo + n * (rank + 1) / size;
}

/* ---- the messages ----------------------------------------------------- */

#define HEAD_BYTES 24u    /* status, member, length of the reason */

static uint64_t get64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static void put64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* A message: the head, the reason, then 'body' (may be NULL). */
static unsigned char *message(int status, unsigned from, const char *why,
                              const unsigned char *body, size_t n,
                              size_t *len)
{
    const size_t w = status == SB_OK || !why ? 0 : strlen(why);
    unsigned char *m = malloc(HEAD_BYTES + w + n + 1);
    if (!m)
        return NULL;
    put64(m, (uint64_t)(int64_t)status);
    put64(m + 8, from);
    put64(m + 16, w);
    memcpy(m + HEAD_BYTES, why, w);
    if (n)
        memcpy(m + HEAD_BYTES + w, body, n);
    *len = HEAD_BYTES + w + n;
    return m;
}

/* The head of message 'p' of 'n' bytes: SB_OK and its parts, or
   SB_EINVAL for bytes that are no message. */
static int read_head(const unsigned char *p, size_t n, int *status,
                     unsigned *from, const char **why, size_t *why_len,
                     const unsigned char **body, size_t *body_len)
{
    if (n < HEAD_BYTES)
        return SB_EINVAL;
    const uint64_t w = get64(p + 16);
    if (w > n - HEAD_BYTES)
        return SB_EINVAL;
    *status = (int)(int64_t)get64(p);
    *from = (unsigned)get64(p + 8);
    *why = (const char *)p + HEAD_BYTES;
    *why_len = (size_t)w;
    *body = p + HEAD_BYTES + w;
    *body_len = n - HEAD_BYTES - (size_t)w;
    return SB_OK;
}

/* ---- member 0's side ---------------------------------------------------- */

typedef struct merging {
    sb_team *team;
    const sb_stat_type *const *stats;
    size_t n_stats;
    const sb_shape *shape;
    uint64_t samples;
    sb_run_counts *total;     /* NULL: only statuses are gathered */
    int status;               /* the first failure, or SB_OK */
    unsigned failed;          /* whose */
    char why[640];
} merging;

static void fail(merging *m, int status, unsigned from, const char *why,
                 size_t n)
{
    if (m->status != SB_OK)
        return;
    m->status = status;
    m->failed = from;
    snprintf(m->why, sizeof m->why, "%.*s", (int)n, why);
}

static void fail_str(merging *m, int status, unsigned from,
                     const char *why)
{
    fail(m, status, from, why, strlen(why));
}

static int take(void *ctx, unsigned from, const unsigned char *p, size_t n)
{
    merging *m = ctx;
    if (from != 0)
        m->team->reduced_bytes += n;
    int status;
    unsigned said;
    const char *why;
    size_t why_len, body_len;
    const unsigned char *body;
    if (read_head(p, n, &status, &said, &why, &why_len, &body, &body_len)
        != SB_OK || said != from) {
        fail_str(m, SB_EIO, from, "sent a message that is none");
        return SB_OK;
    }
    if (status != SB_OK) {
        fail(m, status, from, why, why_len);
        return SB_OK;
    }
    if (!m->total || m->status != SB_OK)
        return SB_OK;
    if (from == 0)
        return SB_OK;         /* member 0's counts are the total already */
    sb_run_counts c;
    char err[400];
    int rc = sb_counts_decode(body, body_len, m->stats, m->n_stats,
                              m->shape, m->samples, &c, err, sizeof err);
    if (rc != SB_OK) {
        char w[512];
        snprintf(w, sizeof w, "its counts arrived damaged: %s", err);
        fail_str(m, rc, from, w);
        return SB_OK;
    }
    uint64_t shared;
    rc = sb_run_counts_merge(m->total, &c, m->stats, m->n_stats);
    if (rc == SB_OK)
        rc = sb_chunks_union(&m->total->chunks, &c.chunks, &shared);
    if (rc == SB_EINVAL)
        fail_str(m, rc, from, "counted a chunk another member counted");
    else if (rc != SB_OK)
        fail_str(m, rc, from, "its counts could not be merged");
    sb_run_counts_free(&c, m->stats, m->n_stats);
    return SB_OK;
}

/* ---- both sides ------------------------------------------------------- */

/* Send this member's message, gather on member 0, share the outcome:
   what the collective calls of sb_team_agree and sb_team_reduce share.
   SB_OK, or the first failure with its reason in 'err'. */
static int exchange(merging *m, const unsigned char *body, size_t body_len,
                    int status, const char *why, char *err, size_t len)
{
    sb_team *t = m->team;
    size_t n;
    unsigned char *mine = message(status, t->rank, why, body, body_len, &n);
    if (!mine) {
        /* Still take part, or the others would wait for ever. */
        status = SB_ENOMEM;
        mine = message(status, t->rank, "out of memory", NULL, 0, &n);
    }
    int rc = mine ? t->gather(t->ctx, mine, n, take, m) : SB_ENOMEM;
    free(mine);
    unsigned char *shared = NULL;
    size_t shared_len = 0;
    if (t->rank == 0) {
        if (rc != SB_OK)
            fail_str(m, rc, 0, "the transport failed");
        shared = message(m->status, m->failed, m->why, NULL, 0,
                         &shared_len);
    }
    rc = t->share(t->ctx, &shared, &shared_len);
    unsigned from = 0;
    const char *why_said;
    size_t why_len, got_len;
    const unsigned char *got;
    int said = SB_EIO;
    if (rc != SB_OK || !shared
        || read_head(shared, shared_len, &said, &from, &why_said, &why_len,
                     &got, &got_len) != SB_OK) {
        snprintf(err, len, "rank %u of %u: the ranks could not exchange "
                 "their results", t->rank, t->size);
        free(shared);
        return SB_EIO;
    }
    if (said != SB_OK)
        snprintf(err, len, "rank %u of %u: %.*s", from, t->size,
                 (int)why_len, why_said);
    free(shared);
    return said;
}

int sb_team_agree(sb_team *team, int status, const char *why, char *err,
                  size_t len)
{
    merging m = { .team = team };
    const int rc = exchange(&m, NULL, 0, status, why, err, len);
    team->agreed++;
    return rc;
}

int sb_team_reduce(sb_team *team, const sb_stat_type *const *stats,
                   size_t n_stats, const sb_shape *shape, uint64_t samples,
                   int status, const char *why, sb_run_counts *counts,
                   char *err, size_t len)
{
    team->reduced_bytes = 0;
    merging m = { .team = team, .stats = stats, .n_stats = n_stats,
                  .shape = shape, .samples = samples,
                  .total = status == SB_OK ? counts : NULL };
    unsigned char *body = NULL;
    size_t body_len = 0;
    if (status == SB_OK && team->rank != 0
        && sb_counts_encode(counts, stats, n_stats, &body, &body_len)
           != SB_OK) {
        status = SB_ENOMEM;
        why = "out of memory sending its counts";
    }
    const int rc = exchange(&m, body, body_len, status, why, err, len);
    free(body);
    /* Member 0 merged the others' counts into its own; the others' are
       sent, and kept by none. */
    if (status == SB_OK && (rc != SB_OK || team->rank != 0))
        sb_run_counts_free(counts, stats, n_stats);
    return rc;
}

static int or_take(void *ctx, unsigned from, const unsigned char *p,
                   size_t n)
{
    (void)from;
    uint64_t *acc = ctx;
    if (n != 8)
        return SB_EIO;
    *acc |= get64(p);
    return SB_OK;
}

int sb_team_or(sb_team *team, uint64_t mine, uint64_t *all)
{
    unsigned char m[8];
    put64(m, mine);
    uint64_t acc = 0;
    const int rc = team->gather(team->ctx, m, sizeof m, or_take, &acc);
    /* Every member takes part in the sharing, whatever the gathering
       gave: a failure is shared as every flag set. */
    uint64_t w = rc == SB_OK ? acc : UINT64_MAX;
    const int rc2 = sb_team_words(team, &w, 1);
    *all = w;
    return rc2 != SB_OK ? rc2 : w == UINT64_MAX ? SB_EIO : SB_OK;
}

int sb_team_words(sb_team *team, uint64_t *words, size_t n)
{
    unsigned char buf[8 * 16], *p = buf;
    size_t len = 8 * n;
    if (n > 16)
        return SB_EINVAL;
    for (size_t i = 0; i < n; i++)
        put64(buf + 8 * i, words[i]);
    int rc = team->share(team->ctx, &p, &len);
    if (rc == SB_OK && len != 8 * n)
        rc = SB_EIO;
    if (rc == SB_OK)
        for (size_t i = 0; i < n; i++)
            words[i] = get64(p + 8 * i);
    if (p != buf)
        free(p);
    return rc;
}
