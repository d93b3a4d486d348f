/*
 * test_team.c - a run shared by the members of a team (src/engine/team.h),
 * with the members as threads of this process and their messages passed
 * in memory: the transport MPI gives the command line (src/cli/ranks.c),
 * without MPI, so that the engine's side is tested in every build and
 * under the sanitizers.
 *
 * Member 0's report is a single process's, count for count; the others
 * hear its verdict; a team's run that keeps its state saves one state of
 * whole chunks as it goes, which resumes (as one process) to the whole
 * run; a stop on one member stops all; a failure on one member is every
 * member's, with its message.
 *
 * Nothing here is statistical: every assertion compares counts (and what
 * is computed from them) bit for bit, so none can fail by chance.
 */
#define _POSIX_C_SOURCE 200809L
#include "tests/sb_test.h"
#include "tests/sb_runs.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/rng.h"
#include "engine/state.h"
#include "engine/team.h"
#include "stats/battery.h"
#include "stats/registry.h"

#define MEMBERS_MAX 3

/* ---- an in-memory transport --------------------------------------------- */

/* One queue of messages a member receives, from one sender at a time. */
typedef struct message {
    unsigned char *p;
    size_t n;
    unsigned from;
    struct message *next;
} message;

typedef struct hall {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    message *box[MEMBERS_MAX];         /* each member's queue */
    atomic_int stop[MEMBERS_MAX];      /* a stop for each member */
    unsigned size;
} hall;

typedef struct member {
    sb_team team;
    hall *hall;
} member;

static void post(hall *h, unsigned to, unsigned from, const unsigned char *p,
                 size_t n)
{
    message *m = calloc(1, sizeof *m);
    assert_non_null(m);
    m->p = malloc(n ? n : 1);
    assert_non_null(m->p);
    memcpy(m->p, p, n);
    m->n = n;
    m->from = from;
    pthread_mutex_lock(&h->mu);
    message **end = &h->box[to];
    while (*end)
        end = &(*end)->next;
    *end = m;
    pthread_cond_broadcast(&h->cv);
    pthread_mutex_unlock(&h->mu);
}

/* The first message to 'to' from 'from', waited for. */
static message *fetch(hall *h, unsigned to, unsigned from)
{
    pthread_mutex_lock(&h->mu);
    for (;;) {
        for (message **m = &h->box[to]; *m; m = &(*m)->next)
            if ((*m)->from == from) {
                message *got = *m;
                *m = got->next;
                pthread_mutex_unlock(&h->mu);
                return got;
            }
        pthread_cond_wait(&h->cv, &h->mu);
    }
}

static int hall_gather(void *ctx, const unsigned char *mine, size_t len,
                       int (*take)(void *tctx, unsigned from,
                                   const unsigned char *p, size_t n),
                       void *tctx)
{
    member *me = ctx;
    if (me->team.rank != 0) {
        post(me->hall, 0, me->team.rank, mine, len);
        return SB_OK;
    }
    int rc = take(tctx, 0, mine, len);
    for (unsigned from = 1; from < me->team.size; from++) {
        message *m = fetch(me->hall, 0, from);
        const int t = take(tctx, from, m->p, m->n);
        if (rc == SB_OK)
            rc = t;
        free(m->p);
        free(m);
    }
    return rc;
}

static int hall_share(void *ctx, unsigned char **p, size_t *n)
{
    member *me = ctx;
    if (me->team.rank == 0) {
        for (unsigned to = 1; to < me->team.size; to++)
            post(me->hall, to, 0, *p, *n);
        return SB_OK;
    }
    message *m = fetch(me->hall, me->team.rank, 0);
    *p = m->p;
    *n = m->n;
    free(m);
    return SB_OK;
}

static int hall_stopped(void *ctx)
{
    member *me = ctx;
    return atomic_load(&me->hall->stop[me->team.rank]);
}

static void hall_stop_all(void *ctx)
{
    member *me = ctx;
    for (unsigned r = 0; r < me->hall->size; r++)
        if (r != me->team.rank)
            atomic_store(&me->hall->stop[r], 1);
}

/* ---- runs of a team ------------------------------------------------------ */

typedef struct seat {
    member m;
    sb_run_config cfg;
    sb_report rep;
    int rc;
    char err[512];
    volatile sig_atomic_t stop;
    uint64_t stop_after;       /* samples after which to stop, 0: never */
    pthread_t tid;
} seat;

static void *sit(void *arg)
{
    seat *s = arg;
    s->rc = sb_run(&s->cfg, &s->rep, s->err, sizeof s->err);
    return NULL;
}

static void stop_when(void *ctx, uint64_t done, uint64_t total)
{
    (void)total;
    seat *s = ctx;
    if (s->stop_after && done >= s->stop_after)
        s->stop = 1;
}

/* Run 'cfg' by 'k' members, seats[r] member r's (its cfg a copy of
   'cfg', which the caller may then change before calling go). */
static void seat_all(hall *h, seat *seats, unsigned k, const sb_run_config *cfg)
{
    memset(h, 0, sizeof *h);
    pthread_mutex_init(&h->mu, NULL);
    pthread_cond_init(&h->cv, NULL);
    h->size = k;
    for (unsigned r = 0; r < k; r++) {
        seat *s = &seats[r];
        memset(s, 0, sizeof *s);
        s->m.hall = h;
        s->m.team = (sb_team){ .rank = r, .size = k, .gather = hall_gather,
                               .share = hall_share, .stopped = hall_stopped,
                               .stop_all = hall_stop_all, .ctx = &s->m };
        s->cfg = *cfg;
        s->cfg.team = &s->m.team;
        s->cfg.stop = &s->stop;
        s->cfg.progress = stop_when;
        s->cfg.progress_ctx = s;
    }
}

static void go(hall *h, seat *seats, unsigned k)
{
    for (unsigned r = 0; r < k; r++)
        assert_int_equal(pthread_create(&seats[r].tid, NULL, sit,
                                        &seats[r]), 0);
    for (unsigned r = 0; r < k; r++)
        pthread_join(seats[r].tid, NULL);
    for (unsigned r = 0; r < k; r++)
        assert_null(h->box[r]);        /* every message was taken */
    pthread_mutex_destroy(&h->mu);
    pthread_cond_destroy(&h->cv);
}

/* A run of fisher-yates on 16 cards, the default battery. */
typedef struct fixture {
    sb_run_config cfg;
    const sb_stat_type *stats[SB_STAT_DEFAULTS_MAX];
} fixture;

/* Five chunks and a short one. */
#define SAMPLES (5 * (uint64_t)SB_CHUNK_SAMPLES + 77)

static void fixture_init(fixture *f, const char *alg, const char *rng)
{
    memset(f, 0, sizeof *f);
    f->cfg.alg = sb_test_alg(alg);
    f->cfg.args.n = 16;
    sb_shuffle_defaults(f->cfg.alg, &f->cfg.args);
    f->cfg.samples = SAMPLES;
    f->cfg.seed = 21;
    f->cfg.rng = rng;
    f->cfg.threads = 1;
    sb_shape shape;
    sb_shuffle_shape(f->cfg.alg, &f->cfg.args, &shape);
    f->cfg.n_stats = sb_stat_defaults(&shape, f->stats,
                                      SB_STAT_DEFAULTS_MAX);
    f->cfg.stats = f->stats;
}

static void alone(const sb_run_config *cfg, sb_report *rep)
{
    char err[512] = "";
    const int rc = sb_run(cfg, rep, err, sizeof err);
    if (rc != SB_OK)
        print_error("sb_run: %s\n", err);
    assert_int_equal(rc, SB_OK);
}

/* 1, 2 and 3 members, on one and two threads each, and on a source that
   jumps ahead: member 0's counts are one process's; the others hear the
   verdict and the samples counted. */
static void members_count_what_one_process_counts(void **state)
{
    (void)state;
    static const struct {
        const char *rng;
        unsigned threads;
    } cases[] = { { SB_RNG_DEFAULT, 1 }, { SB_RNG_DEFAULT, 2 },
                  { "rand15", 2 } };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        fixture f;
        fixture_init(&f, "fisher-yates", cases[c].rng);
        sb_report whole;
        alone(&f.cfg, &whole);
        for (unsigned k = 1; k <= MEMBERS_MAX; k++) {
            hall h;
            seat seats[MEMBERS_MAX];
            f.cfg.threads = cases[c].threads;
            seat_all(&h, seats, k, &f.cfg);
            go(&h, seats, k);
            for (unsigned r = 0; r < k; r++) {
                if (seats[r].rc != SB_OK)
                    print_error("member %u: %s\n", r, seats[r].err);
                assert_int_equal(seats[r].rc, SB_OK);
                assert_int_equal(seats[r].rep.verdict, whole.verdict);
                assert_int_equal(seats[r].rep.run.done, SAMPLES);
                assert_false(seats[r].rep.run.partial);
                assert_int_equal(seats[r].rep.run.ranks, k);
            }
            sb_test_same_counts(&whole, &seats[0].rep);
            for (unsigned r = 0; r < k; r++)
                sb_report_release(&seats[r].rep);
        }
        sb_report_release(&whole);
    }
}

/* ---- state files ----------------------------------------------------- */

typedef struct saver {
    sb_state st;
    char path[64];
    atomic_uint saves;
} saver;

static int save_counts(void *ctx, const sb_run_counts *counts)
{
    saver *s = ctx;
    s->st.counts = *counts;
    char err[512];
    const int rc = sb_state_write(s->path, &s->st, err, sizeof err);
    memset(&s->st.counts, 0, sizeof s->st.counts);
    if (rc != SB_OK)
        print_error("%s\n", err);
    atomic_fetch_add(&s->saves, 1);
    return rc;
}

/* Two members saving the state at every meeting (checkpoint_seconds 0),
   one of them stopped after its first chunks: both stop, the report is
   partial and of whole chunks, only member 0 wrote, more than once, and
   the state resumed by one process gives the whole run. */
static void a_stopped_team_saves_one_state_that_resumes(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f, "fisher-yates", SB_RNG_DEFAULT);
    sb_report whole;
    alone(&f.cfg, &whole);

    saver s;
    memset(&s, 0, sizeof s);
    snprintf(s.path, sizeof s.path, "test_team_%ld.state", (long)getpid());
    sb_shape shape;
    sb_shuffle_shape(f.cfg.alg, &f.cfg.args, &shape);
    sb_state_describe(&s.st, &f.cfg, &shape);
    hall h;
    seat seats[2];
    sb_run_config cfg = f.cfg;
    cfg.checkpoint = save_counts;
    cfg.checkpoint_ctx = &s;
    cfg.checkpoint_seconds = 0;
    seat_all(&h, seats, 2, &cfg);
    /* Member 1's chunks are 3 to 5: it stops after its second. */
    seats[1].stop_after = 2 * SB_CHUNK_SAMPLES;
    go(&h, seats, 2);
    for (unsigned r = 0; r < 2; r++) {
        if (seats[r].rc != SB_OK)
            print_error("member %u: %s\n", r, seats[r].err);
        assert_int_equal(seats[r].rc, SB_OK);
        assert_true(seats[r].rep.run.partial);
    }
    const uint64_t done = seats[0].rep.run.done;
    assert_true(done > 0 && done < SAMPLES);
    assert_int_equal(done % SB_CHUNK_SAMPLES, 0);
    assert_int_equal(seats[1].rep.run.done, done);
    /* Saved as it went (member 1 stopped at the earliest after two
       meetings), and once at the end. */
    assert_true(atomic_load(&s.saves) >= 2);

    sb_state st;
    char err[768] = "";
    assert_int_equal(sb_state_read(s.path, &st, err, sizeof err), SB_OK);
    assert_int_equal(st.counts.done, done);
    sb_run_config again = f.cfg;
    again.resume = &st.counts;
    sb_report resumed;
    alone(&again, &resumed);
    assert_false(resumed.run.partial);
    sb_test_same_counts(&whole, &resumed);

    /* Resumed by a team of three: the same. */
    seat three[3];
    seat_all(&h, three, 3, &again);
    go(&h, three, 3);
    assert_int_equal(three[0].rc, SB_OK);
    sb_test_same_counts(&whole, &three[0].rep);
    for (unsigned r = 0; r < 3; r++)
        sb_report_release(&three[r].rep);

    sb_state_free(&st);
    remove(s.path);
    sb_report_release(&resumed);
    for (unsigned r = 0; r < 2; r++)
        sb_report_release(&seats[r].rep);
    sb_report_release(&whole);
}

/* ---- failures -------------------------------------------------------- */

/* A shuffle that fails at its 100th sample: 'plain' until then. */
static const sb_shuffle_type *plain;

typedef struct failing_state {
    void *inner;
    unsigned long made;
} failing_state;

static int failing_init(void **out, const sb_shuffle_args *a)
{
    failing_state *s = calloc(1, sizeof *s);
    if (!s)
        return SB_ENOMEM;
    if (plain->init && plain->init(&s->inner, a) != SB_OK) {
        free(s);
        return SB_ENOMEM;
    }
    *out = s;
    return SB_OK;
}

static void failing_free(void *st)
{
    failing_state *s = st;
    if (plain->free)
        plain->free(s->inner);
    free(s);
}

static int failing_run(void *st, const sb_shuffle_args *a, sb_src *src,
                       sb_card *out)
{
    failing_state *s = st;
    if (++s->made == 100)
        return SB_EINVAL;
    return plain->run(s->inner, a, src, out);
}

/* A member's failure, before the run (refused arguments on one member
   only) or during it (a shuffle failing on one member): every member
   returns it, with the member's message. */
static void a_failure_on_one_member_is_everyones(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f, "fisher-yates", SB_RNG_DEFAULT);
    plain = f.cfg.alg;
    sb_shuffle_type failing = *plain;
    failing.init = failing_init;
    failing.free = failing_free;
    failing.run = failing_run;
    failing.run_block = NULL;
    failing.reset = NULL;

    /* Before: member 2's run is of a source that does not exist. */
    hall h;
    seat seats[3];
    seat_all(&h, seats, 3, &f.cfg);
    seats[2].cfg.rng = "no-such-generator";
    go(&h, seats, 3);
    for (unsigned r = 0; r < 3; r++) {
        assert_int_equal(seats[r].rc, SB_ENOTFOUND);
        assert_non_null(strstr(seats[r].err, "rank 2 of 3"));
        assert_non_null(strstr(seats[r].err, "no-such-generator"));
    }

    /* During: member 1's shuffle fails at its 100th sample, and every
       member says so, with or without a state kept. */
    for (int keep = 0; keep < 2; keep++) {
        saver s;
        memset(&s, 0, sizeof s);
        snprintf(s.path, sizeof s.path, "test_team_f_%ld.state",
                 (long)getpid());
        sb_run_config cfg = f.cfg;
        if (keep) {
            cfg.checkpoint = save_counts;
            cfg.checkpoint_ctx = &s;
            cfg.checkpoint_seconds = 0;
        }
        seat_all(&h, seats, 2, &cfg);
        seats[1].cfg.alg = &failing;
        go(&h, seats, 2);
        for (unsigned r = 0; r < 2; r++) {
            assert_int_equal(seats[r].rc, SB_EINVAL);
            assert_non_null(strstr(seats[r].err, "rank 1 of 2"));
        }
        remove(s.path);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(members_count_what_one_process_counts),
        cmocka_unit_test(a_stopped_team_saves_one_state_that_resumes),
        cmocka_unit_test(a_failure_on_one_member_is_everyones),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
