/*
 * test_state.c - long runs: the counts are the same whatever the number of
 * threads, and a run saved, stopped, resumed or split into parts and
 * merged counts exactly what the run made in one go counts; state files
 * that are cut short, damaged or foreign are refused.
 *
 * Nothing here is statistical: every assertion compares counts (and what
 * is computed from them) bit for bit, so none can fail by chance.
 */
#define _POSIX_C_SOURCE 200809L
#include "tests/sb_test.h"
#include "tests/sb_runs.h"

#include <stdio.h>
#include <stdlib.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>
#include <gsl/gsl_errno.h>

#include "engine/chunks.h"
#include "base/rng.h"
#include "engine/state.h"
#include "stats/battery.h"
#include "stats/registry.h"

/* A run of 't' on n cards, the default battery for its shape. */
typedef struct fixture {
    sb_run_config cfg;
    const sb_stat_type *stats[SB_STAT_DEFAULTS_MAX];
    sb_shape shape;
} fixture;

static void fixture_init(fixture *f, const char *alg, size_t n,
                         uint64_t samples, uint64_t seed, const char *rng)
{
    memset(f, 0, sizeof *f);
    f->cfg.alg = sb_test_alg(alg);
    f->cfg.args.n = n;
    sb_shuffle_defaults(f->cfg.alg, &f->cfg.args);
    if (f->cfg.alg->fit)
        f->cfg.alg->fit(&f->cfg.args);   /* a deal of n cards */
    f->cfg.samples = samples;
    f->cfg.seed = seed;
    f->cfg.rng = rng;
    sb_shuffle_shape(f->cfg.alg, &f->cfg.args, &f->shape);
    f->cfg.n_stats = sb_stat_defaults(&f->shape, f->stats,
                                      SB_STAT_DEFAULTS_MAX);
    assert_true(f->cfg.n_stats > 0);
    f->cfg.stats = f->stats;
}

static void run_ok(const sb_run_config *cfg, sb_report *rep)
{
    char err[512] = "";
    int rc = sb_run(cfg, rep, err, sizeof err);
    if (rc != SB_OK)
        print_error("sb_run: %s\n", err);
    assert_int_equal(rc, SB_OK);
}

/* Three chunks and a short one. */
#define SAMPLES (3 * (uint64_t)SB_CHUNK_SAMPLES + 77)

/* The default battery (collisions and serial included) on 1, 2 and 3
   threads: the same counts.  Also for a deal, an algorithm with a tally
   (summed and maxed across threads), and a sequential source, which runs
   on one thread whatever is asked. */
static void threads_do_not_change_counts(void **state)
{
    (void)state;
    static const struct {
        const char *alg, *rng;
        size_t n;
    } cases[] = {
        { "fisher-yates", SB_RNG_DEFAULT, 52 },
        { "deal-fisher-yates", SB_RNG_DEFAULT, 12 },
        { "riffle-until-uniform", SB_RNG_DEFAULT, 8 },
        { "naive-swap", "mt19937", 6 },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        fixture f;
        fixture_init(&f, cases[k].alg, cases[k].n, SAMPLES, 11, cases[k].rng);
        sb_report one, many;
        f.cfg.threads = 1;
        run_ok(&f.cfg, &one);
        assert_int_equal(one.run.done, SAMPLES);
        assert_int_equal(one.run.threads, 1);
        for (unsigned t = 2; t <= 3; t += 1 + (cases[k].n > 20)) {
            f.cfg.threads = t;
            run_ok(&f.cfg, &many);
            const int sequential = strcmp(cases[k].rng, SB_RNG_DEFAULT) != 0;
            assert_int_equal(many.run.threads, sequential ? 1 : t);
            sb_test_same_counts(&one, &many);
            sb_report_release(&many);
        }
        if (f.cfg.alg->tally)
            assert_int_equal(one.run.tally.samples, SAMPLES);
        sb_report_release(&one);
    }
}

/* ---- checkpoints into state files ----------------------------------- */

typedef struct saver {
    sb_state st;               /* what the files say, counts aside */
    char path[64];
    unsigned saves;
    volatile sig_atomic_t *stop;
    uint64_t stop_after;       /* samples after which to stop, 0: never */
} saver;

static int save_counts(void *ctx, const sb_run_counts *counts)
{
    saver *s = ctx;
    s->st.counts = *counts;
    char err[512];
    int rc = sb_state_write(s->path, &s->st, err, sizeof err);
    memset(&s->st.counts, 0, sizeof s->st.counts);
    if (rc != SB_OK)
        print_error("%s\n", err);
    s->saves++;
    return rc;
}

static void stop_when_done(void *ctx, uint64_t done, uint64_t total)
{
    (void)total;
    saver *s = ctx;
    if (s->stop_after && done >= s->stop_after)
        *s->stop = 1;
}

static void saver_init(saver *s, const fixture *f, const char *tag)
{
    memset(s, 0, sizeof *s);
    snprintf(s->path, sizeof s->path, "test_state_%s_%ld.state", tag,
             (long)getpid());
    sb_state_describe(&s->st, &f->cfg, &f->shape);
}

static void read_ok(const char *path, sb_state *st)
{
    char err[768] = "";
    int rc = sb_state_read(path, st, err, sizeof err);
    if (rc != SB_OK)
        print_error("%s\n", err);
    assert_int_equal(rc, SB_OK);
}

/* The samples a shuffle made: a test's wrapper around a built-in's run,
   to see which chunks a resumed run makes again. */
static const sb_shuffle_type *counted_type;
static _Atomic uint64_t counted_samples;   /* made on several threads */

static int counted_run(void *st, const sb_shuffle_args *a, sb_src *src,
                       sb_card *out)
{
    counted_samples++;
    return counted_type->run(st, a, src, out);
}

/* Stopped after about one chunk, with the state saved at every
   checkpoint, then resumed from the file: the same counts as the run made
   in one go.  On 1 and 2 threads, and on a sequential source: its state
   file keeps the generator's place (sb_rng_save), and the run resumed
   goes on from there, making none of the counted chunks again. */
static void resumed_run_equals_whole_run(void **state)
{
    (void)state;
    static const struct {
        const char *alg, *rng;
        size_t n;
        unsigned threads;
    } cases[] = {
        { "fisher-yates", SB_RNG_DEFAULT, 16, 2 },
        { "riffle-until-uniform", SB_RNG_DEFAULT, 8, 1 },
        { "riffle-until-uniform", "mt19937", 8, 1 },
        { "partial-deal", SB_RNG_DEFAULT, 52, 2 },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        fixture f;
        fixture_init(&f, cases[k].alg, cases[k].n, SAMPLES, 5, cases[k].rng);
        f.cfg.threads = cases[k].threads;
        sb_shuffle_type counting = *f.cfg.alg;
        counting.run = counted_run;
        counting.run_block = NULL;
        counted_type = f.cfg.alg;
        f.cfg.alg = &counting;
        sb_report whole, part, resumed;
        run_ok(&f.cfg, &whole);

        volatile sig_atomic_t stop = 0;
        saver s;
        saver_init(&s, &f, "resume");
        s.stop = &stop;
        s.stop_after = 1;
        /* Stopped on one thread, where the progress call after each
           chunk stops it at the same place every time; resumed on the
           case's threads. */
        sb_run_config cfg = f.cfg;
        cfg.threads = 1;
        cfg.stop = &stop;
        cfg.progress = stop_when_done;
        cfg.progress_ctx = &s;
        cfg.checkpoint = save_counts;
        cfg.checkpoint_ctx = &s;
        cfg.checkpoint_seconds = 0;
        run_ok(&cfg, &part);
        assert_true(part.run.partial);
        assert_true(part.run.done > 0 && part.run.done < SAMPLES);
        /* Whole chunks only, while a checkpoint is kept. */
        assert_int_equal(part.run.done % SB_CHUNK_SAMPLES, 0);
        assert_true(s.saves >= 1);

        sb_state st;
        read_ok(s.path, &st);
        assert_int_equal(st.counts.done, part.run.done);
        const int sequential = strcmp(cases[k].rng, "mt19937") == 0;
        /* The generator's place: before the first chunk not counted. */
        assert_int_equal(st.counts.rng_len > 0, sequential);
        if (sequential)
            assert_int_equal(st.counts.rng_next,
                             part.run.done / SB_CHUNK_SAMPLES);
        f.cfg.resume = &st.counts;
        counted_samples = 0;
        run_ok(&f.cfg, &resumed);
        assert_false(resumed.run.partial);
        sb_test_same_counts(&whole, &resumed);
        /* Only the samples not counted before were made. */
        assert_int_equal(counted_samples, SAMPLES - part.run.done);

        sb_state_free(&st);
        remove(s.path);
        sb_report_release(&whole);
        sb_report_release(&part);
        sb_report_release(&resumed);
    }
}

/* A run split into three parts (chunks [0, 1), [1, 3), [3, 4)), each
   saved: the parts' chunks are disjoint and cover the run, and their
   counts merged give the whole run's results. */
static void merged_parts_equal_whole_run(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f, "fisher-yates", 20, SAMPLES, 8, SB_RNG_DEFAULT);
    f.cfg.threads = 2;
    sb_report whole;
    run_ok(&f.cfg, &whole);

    static const uint64_t bounds[] = { 0, 1, 3, 4 };
    sb_run_counts total;
    assert_int_equal(sb_run_counts_alloc(&total, f.cfg.stats, f.cfg.n_stats,
                                         &f.shape), SB_OK);
    for (size_t k = 0; k < 3; k++) {
        saver s;
        saver_init(&s, &f, "part");
        sb_run_config cfg = f.cfg;
        cfg.first_chunk = bounds[k];
        cfg.end_chunk = bounds[k + 1];
        cfg.threads = (unsigned)k + 1;
        cfg.checkpoint = save_counts;
        cfg.checkpoint_ctx = &s;
        cfg.checkpoint_seconds = 1e9;   /* only the final save */
        sb_report rep;
        run_ok(&cfg, &rep);
        assert_false(rep.run.partial);
        assert_int_equal(rep.run.part_first, bounds[k]);
        assert_int_equal(rep.run.part_end, bounds[k + 1]);
        const uint64_t hi = bounds[k + 1] * SB_CHUNK_SAMPLES;
        assert_int_equal(rep.run.done, (hi < SAMPLES ? hi : SAMPLES)
                                       - bounds[k] * SB_CHUNK_SAMPLES);
        sb_report_release(&rep);
        assert_int_equal(s.saves, 1);

        sb_state st;
        read_ok(s.path, &st);
        uint64_t shared;
        assert_int_equal(sb_chunks_union(&total.chunks, &st.counts.chunks,
                                         &shared), SB_OK);
        assert_int_equal(sb_run_counts_merge(&total, &st.counts, f.cfg.stats,
                                             f.cfg.n_stats), SB_OK);
        /* The same part again would count its chunks twice. */
        assert_int_equal(sb_chunks_union(&total.chunks, &st.counts.chunks,
                                         &shared), SB_EINVAL);
        assert_int_equal(shared, bounds[k]);
        sb_state_free(&st);
        remove(s.path);
    }
    assert_int_equal(total.chunks.count, 1);
    assert_int_equal(total.chunks.r[0].lo, 0);
    assert_int_equal(total.chunks.r[0].hi, 4);
    assert_int_equal(total.done, SAMPLES);

    sb_report merged = { 0 };
    merged.run.done = total.done;
    char err[256];
    assert_int_equal(sb_report_results(&merged, f.cfg.stats, f.cfg.n_stats,
                                       total.acc, total.done, err,
                                       sizeof err), SB_OK);
    sb_test_same_counts(&whole, &merged);
    sb_report_release(&merged);
    sb_run_counts_free(&total, f.cfg.stats, f.cfg.n_stats);
    sb_report_release(&whole);
}

/* ---- damaged and foreign files -------------------------------------- */

static unsigned char *file_bytes(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    unsigned char *p = malloc(1 << 20);
    assert_non_null(p);
    *size = fread(p, 1, 1 << 20, f);
    assert_true(*size < (1 << 20));
    fclose(f);
    return p;
}

static void write_bytes(const char *path, const unsigned char *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(p, 1, n, f), n);
    fclose(f);
}

/* Read 'path', which must be refused with a message containing 'why'. */
static void refused(const char *path, int status, const char *why)
{
    sb_state st;
    char err[768] = "";
    assert_int_equal(sb_state_read(path, &st, err, sizeof err), status);
    if (!strstr(err, why))
        print_error("expected '%s' in: %s\n", why, err);
    assert_non_null(strstr(err, why));
    assert_non_null(strstr(err, path));
}

/* FNV-1a as the file format defines it (src/engine/state.h), written again here
   so that a test can damage a payload and seal it. */
static uint64_t fnv(const unsigned char *p, size_t n)
{
    uint64_t h = 14695981039346656037u;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211u;
    }
    return h;
}

static void seal(unsigned char *p, size_t size)
{
    const uint64_t h = fnv(p + 24, size - 32);
    for (int i = 0; i < 8; i++)
        p[size - 8 + (size_t)i] = (unsigned char)(h >> (8 * i));
}

/* A small state, then every way of spoiling it. */
static void damaged_files_are_refused(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f, "fisher-yates", 5, 1000, 3, SB_RNG_DEFAULT);
    saver s;
    saver_init(&s, &f, "damage");
    sb_run_config cfg = f.cfg;
    cfg.checkpoint = save_counts;
    cfg.checkpoint_ctx = &s;
    sb_report rep;
    run_ok(&cfg, &rep);
    sb_report_release(&rep);
    size_t size;
    unsigned char *good = file_bytes(s.path, &size);
    sb_state st;
    read_ok(s.path, &st);
    sb_state_free(&st);

    char bad[80];
    snprintf(bad, sizeof bad, "test_state_bad_%ld.state", (long)getpid());
    /* Cut anywhere. */
    for (size_t cut = 0; cut < size; cut++) {
        write_bytes(bad, good, cut);
        refused(bad, SB_EINVAL, cut < 24 ? "not a shufflebias state file"
                                         : "cut short");
    }
    /* One byte more. */
    unsigned char *longer = malloc(size + 1);
    assert_non_null(longer);
    memcpy(longer, good, size);
    longer[size] = 0;
    write_bytes(bad, longer, size + 1);
    refused(bad, SB_EINVAL, "data after its end");
    free(longer);
    /* Any byte of the payload or its hash flipped. */
    unsigned char *copy = malloc(size + 64);
    assert_non_null(copy);
    for (size_t i = 24; i < size; i++) {
        memcpy(copy, good, size);
        copy[i] ^= 0x40;
        write_bytes(bad, copy, size);
        refused(bad, SB_EINVAL, "checksum");
    }
    /* Another file altogether; another format version. */
    write_bytes(bad, (const unsigned char *)"{\"json\": true}\n", 15);
    refused(bad, SB_EINVAL, "not a shufflebias state file");
    memcpy(copy, good, size);
    copy[8] = SB_STATE_FORMAT + 1;
    write_bytes(bad, copy, size);
    refused(bad, SB_EINVAL, "state format 3");
    /* Sealed again after damage: the fields themselves are checked.  The
       first string is the algorithm's name, its length at byte 24: a
       length past the end. */
    memcpy(copy, good, size);
    copy[24 + 7] = 0x7f;
    seal(copy, size);
    write_bytes(bad, copy, size);
    refused(bad, SB_EINVAL, "damaged");
    /* The samples counted (after the description) made one more. */
    read_ok(s.path, &st);
    const uint64_t done = st.counts.done;
    sb_state_free(&st);
    size_t at = 24;
    for (; at + 8 <= size; at += 8) {
        uint64_t v = 0;
        for (int i = 0; i < 8; i++)
            v |= (uint64_t)good[at + (size_t)i] << (8 * i);
        /* The field after the stage seed and samples (both 3 and 1000). */
        if (v == done && at >= 16 && good[at - 8] == 0xe8 && good[at - 7] == 3)
            break;
    }
    assert_true(at + 8 <= size);
    memcpy(copy, good, size);
    copy[at]++;
    seal(copy, size);
    write_bytes(bad, copy, size);
    refused(bad, SB_EINVAL, "counts 1001 samples but its chunks hold 1000");
    /* A statistic this program does not have (its name changed by one
       letter, the file sealed again): not found, which is not damage. */
    read_ok(s.path, &st);
    const char *name = st.stats[0]->name;
    const size_t name_len = strlen(name);
    sb_state_free(&st);
    const unsigned char *hit = NULL;
    for (size_t i = 24; i + name_len <= size && !hit; i++)
        if (memcmp(good + i, name, name_len) == 0)
            hit = good + i;
    assert_non_null(hit);
    memcpy(copy, good, size);
    copy[hit - good] = 'Q';
    seal(copy, size);
    write_bytes(bad, copy, size);
    refused(bad, SB_ENOTFOUND, "which this version does not have");
    /* Missing. */
    remove(bad);
    refused(bad, SB_EIO, "cannot read");
    free(copy);
    free(good);
    remove(s.path);
}

/* Runs that cannot be merged say how they differ. */
static void different_runs_do_not_merge(void **state)
{
    (void)state;
    fixture f;
    fixture_init(&f, "fisher-yates", 5, 100, 3, SB_RNG_DEFAULT);
    saver a, b;
    saver_init(&a, &f, "a");
    saver_init(&b, &f, "b");
    char why[256] = "";
    assert_int_equal(sb_state_compatible(&a.st, &b.st, why, sizeof why),
                     SB_OK);
    snprintf(b.st.algorithm, sizeof b.st.algorithm, "sattolo");
    assert_int_equal(sb_state_compatible(&a.st, &b.st, why, sizeof why),
                     SB_EINVAL);
    assert_string_equal(why, "algorithm 'sattolo' against 'fisher-yates'");
    saver_init(&b, &f, "b");
    b.st.n_stats--;
    assert_int_equal(sb_state_compatible(&a.st, &b.st, why, sizeof why),
                     SB_EINVAL);
    assert_non_null(strstr(why, "statistics"));
    saver_init(&b, &f, "b");
    b.st.stream_version++;
    assert_int_equal(sb_state_compatible(&a.st, &b.st, why, sizeof why),
                     SB_EINVAL);
    assert_non_null(strstr(why, "stream version"));
    /* Every field compared is named with both values, the second run's
       first. */
    saver_init(&b, &f, "b");
    b.st.shape.n = 6;
    assert_int_equal(sb_state_compatible(&a.st, &b.st, why, sizeof why),
                     SB_EINVAL);
    assert_string_equal(why, "n = 6 against 5");
    saver_init(&b, &f, "b");
    snprintf(b.st.params, sizeof b.st.params, "k=2");
    assert_int_equal(sb_state_compatible(&a.st, &b.st, why, sizeof why),
                     SB_EINVAL);
    assert_string_equal(why, "parameters 'k=2' against ''");
    saver_init(&b, &f, "b");
    b.st.block_samples++;
    assert_int_equal(sb_state_compatible(&a.st, &b.st, why, sizeof why),
                     SB_EINVAL);
    assert_non_null(strstr(why, "block size"));
    /* The plug-in's directory does not count, its file name does. */
    saver_init(&a, &f, "a");
    saver_init(&b, &f, "b");
    snprintf(a.st.plugin, sizeof a.st.plugin, "/one/lib.so");
    snprintf(b.st.plugin, sizeof b.st.plugin, "/two/lib.so");
    assert_int_equal(sb_state_compatible(&a.st, &b.st, why, sizeof why),
                     SB_OK);
    snprintf(b.st.plugin, sizeof b.st.plugin, "/one/other.so");
    assert_int_equal(sb_state_compatible(&a.st, &b.st, why, sizeof why),
                     SB_EINVAL);
    assert_string_equal(why, "plug-in '/one/other.so' against '/one/lib.so'");
}

/* The chunk sets: joining, refusing overlaps, counting samples. */
static void chunk_sets(void **state)
{
    (void)state;
    sb_chunks s = { 0 };
    assert_int_equal(sb_chunks_add(&s, 5, 6), SB_OK);
    assert_int_equal(sb_chunks_add(&s, 0, 2), SB_OK);
    assert_int_equal(sb_chunks_add(&s, 3, 4), SB_OK);
    assert_int_equal(s.count, 3);
    assert_int_equal(sb_chunks_add(&s, 4, 5), SB_OK);   /* joins 3..6 */
    assert_int_equal(s.count, 2);
    assert_int_equal(sb_chunks_add(&s, 1, 3), SB_EINVAL);
    assert_int_equal(s.count, 2);
    assert_int_equal(sb_chunks_add(&s, 2, 3), SB_OK);   /* one range */
    assert_int_equal(s.count, 1);
    assert_true(sb_chunks_has(&s, 0) && sb_chunks_has(&s, 5));
    assert_false(sb_chunks_has(&s, 6));
    /* 6 chunks of a run of 5.5 chunks: 5 whole and half of one. */
    const uint64_t run = 5 * (uint64_t)SB_CHUNK_SAMPLES + SB_CHUNK_SAMPLES / 2;
    assert_int_equal(sb_chunks_samples(&s, run), run);
    /* Joining a range on its left while running into the next one is
       an overlap too. */
    sb_chunks u = { 0 };
    assert_int_equal(sb_chunks_add(&u, 0, 2), SB_OK);
    assert_int_equal(sb_chunks_add(&u, 5, 7), SB_OK);
    assert_int_equal(sb_chunks_add(&u, 2, 6), SB_EINVAL);
    assert_int_equal(sb_chunks_add(&u, 3, 6), SB_EINVAL);
    assert_int_equal(u.count, 2);
    assert_int_equal(sb_chunks_add(&u, 2, 5), SB_OK);
    assert_int_equal(u.count, 1);
    sb_chunks_free(&u);
    sb_chunks t = { 0 };
    uint64_t shared = 0;
    assert_int_equal(sb_chunks_add(&t, 4, 9), SB_OK);
    assert_int_equal(sb_chunks_union(&t, &s, &shared), SB_EINVAL);
    assert_int_equal(shared, 4);
    sb_chunks_free(&s);
    sb_chunks_free(&t);
}

int main(void)
{
    gsl_set_error_handler_off();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(chunk_sets),
        cmocka_unit_test(threads_do_not_change_counts),
        cmocka_unit_test(resumed_run_equals_whole_run),
        cmocka_unit_test(merged_parts_equal_whole_run),
        cmocka_unit_test(damaged_files_are_refused),
        cmocka_unit_test(different_runs_do_not_merge),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
