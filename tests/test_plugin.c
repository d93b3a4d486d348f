/*
 * test_plugin.c - shuffles loaded from a shared object (src/sources/plugin.h).
 *
 * The example plug-in (examples/plugin/example_shuffles.c) is built as an
 * outside author builds one: public headers only, draws through the
 * exported sb_draw_* functions.  Loaded here, its shuffles must behave as
 * built-in ones: sampled by the runner on the fast generator and on a GSL
 * generator, and walked by exact mode.  The broken plug-ins under
 * tests/plugins/ must each be refused with the right status and a reason
 * that names what is wrong.
 *
 * Exact values: the 3-card naive swap is 4, 5, 5, 5, 4, 4 of 27 (Atwood,
 * "The Danger of Naivete", 2007); which order gets which count is found
 * here by walking the 27 draw sequences of the loop independently.
 */
#define _POSIX_C_SOURCE 200809L

#include "tests/sb_test.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gsl/gsl_errno.h>

#include "algorithms/registry.h"
#include "shufflebias/plugin.h"
#include "shufflebias/status.h"
#include "engine/enumerate.h"
#include "engine/markov.h"
#include "sources/plugin.h"
#include "base/rng.h"
#include "engine/runner.h"
#include "stats/exact.h"
#include "stats/registry.h"

/* ---- a probe statistic: is every sample a permutation, and which ------- */

/* Counts the samples that are not permutations of 0..n-1 and folds every
   value of every sample, in order, into a 64-bit FNV-1a hash: two runs
   with equal fingerprints made the same samples in the same order (up to
   a hash collision, about 2^-64).  For tests only: it never fails a run. */
typedef struct probe {
    size_t n;
    uint64_t samples, not_perm, fingerprint;
    unsigned char *seen;     /* n flags, scratch for one sample */
} probe;

static int probe_alloc(void **acc, const sb_shape *shape)
{
    probe *p = calloc(1, sizeof *p);
    if (p == NULL)
        return SB_ENOMEM;
    p->n = shape->n;
    p->fingerprint = 0xcbf29ce484222325u;     /* FNV-1a offset basis */
    p->seen = calloc(shape->n, 1);
    if (p->seen == NULL) {
        free(p);
        return SB_ENOMEM;
    }
    *acc = p;
    return SB_OK;
}

static void probe_add(void *acc, const sb_card *s, size_t count)
{
    probe *p = acc;
    for (size_t k = 0; k < count; k++, s += p->n) {
        memset(p->seen, 0, p->n);
        int ok = 1;
        for (size_t j = 0; j < p->n; j++) {
            if (s[j] >= p->n || p->seen[s[j]])
                ok = 0;
            else
                p->seen[s[j]] = 1;
            p->fingerprint = (p->fingerprint ^ s[j]) * 0x100000001b3u;
        }
        p->not_perm += !ok;
        p->samples++;
    }
}

/* sb_run makes one accumulator and never merges; this keeps the counts
   exact and the fingerprint a function of both. */
static int probe_merge(void *into, const void *from)
{
    probe *a = into;
    const probe *b = from;
    a->samples += b->samples;
    a->not_perm += b->not_perm;
    a->fingerprint = (a->fingerprint ^ b->fingerprint) * 0x100000001b3u;
    return SB_OK;
}

/* statistic = samples that were not permutations; table: the samples
   counted, then the fingerprint in four 16-bit pieces (exact in double). */
static int probe_finalize(const void *acc, uint64_t samples, double alpha,
                          sb_result *res)
{
    (void)samples;
    (void)alpha;
    const probe *p = acc;
    memset(res, 0, sizeof *res);
    res->name = "probe";
    res->applicable = 1;
    res->statistic = (double)p->not_perm;
    res->p_value = 1.0;
    res->table.rows = 1;
    res->table.cols = 5;
    res->table.observed = calloc(5, sizeof *res->table.observed);
    if (res->table.observed == NULL)
        return SB_ENOMEM;
    res->table.observed[0] = (double)p->samples;
    for (int k = 0; k < 4; k++)
        res->table.observed[1 + k] = (double)((p->fingerprint >> (16 * k))
                                              & 0xffffu);
    return SB_OK;
}

static void probe_free(void *acc)
{
    probe *p = acc;
    free(p->seen);
    free(p);
}

static const sb_stat_type probe_stat = {
    .name = "probe",
    .sees = "whether every sample is a permutation, and which samples",
    .kinds = SB_KIND_PERMUTATION,
    .n_min = 1,
    .n_max = SB_DECK_MAX,
    .alloc = probe_alloc,
    .add = probe_add,
    .merge = probe_merge,
    .finalize = probe_finalize,
    .free = probe_free,
};

typedef struct probed {
    uint64_t samples, not_perm, fingerprint;
} probed;

/* Run 't' (at its defaults, then 'param' if not NULL) for 'samples'
   samples of n cards from 'seed' on 'rng', with the probe and the
   position matrix, as the plug-in at 'plugin' when not NULL (every
   sample checked); the run must succeed. */
static probed probe_run_as(const sb_shuffle_type *t, const char *param,
                           size_t n, uint64_t samples, uint64_t seed,
                           const char *rng, const char *plugin)
{
    static const sb_stat_type *const stats[] = { &probe_stat,
                                                 &sb_stat_position };
    sb_run_config cfg = {
        .alg = t, .args = { .n = n }, .samples = samples, .seed = seed,
        .rng = rng, .stats = stats, .n_stats = 2, .plugin = plugin,
    };
    sb_shuffle_defaults(t, &cfg.args);
    if (param)
        assert_int_equal(sb_shuffle_set_param(t, &cfg.args, param), SB_OK);
    sb_report rep;
    char err[256] = "";
    const int rc = sb_run(&cfg, &rep, err, sizeof err);
    if (rc != SB_OK)
        print_error("sb_run: %s\n", err);
    assert_int_equal(rc, SB_OK);
    assert_true(rep.run.done == samples);
    const double *o = rep.results[0].table.observed;
    probed out = { (uint64_t)o[0], (uint64_t)rep.results[0].statistic, 0 };
    for (int k = 0; k < 4; k++)
        out.fingerprint |= (uint64_t)o[1 + k] << (16 * k);
    /* Every card counted once per sample in the position matrix. */
    double total = 0;
    for (size_t i = 0; i < n * n; i++)
        total += rep.results[1].table.observed[i];
    assert_true(total == (double)n * (double)samples);
    sb_report_release(&rep);
    return out;
}

static probed probe_run(const sb_shuffle_type *t, const char *param,
                        size_t n, uint64_t samples, uint64_t seed,
                        const char *rng)
{
    return probe_run_as(t, param, n, samples, seed, rng, NULL);
}

/* ---- loading the example ------------------------------------------------ */

static sb_plugin_handle *open_example(const char *name,
                                      const sb_shuffle_type **t)
{
    sb_plugin_handle *h;
    char err[1024] = "";
    const int rc = sb_plugin_open(&h, SB_EXAMPLE_PLUGIN, name, t, err,
                                  sizeof err);
    if (rc != SB_OK)
        print_error("sb_plugin_open: %s\n", err);
    assert_int_equal(rc, SB_OK);
    assert_non_null(h);
    assert_non_null(*t);
    return h;
}

static void picks_each_shuffle_by_name(void **state)
{
    (void)state;
    const char *names[] = { "example-fisher-yates", "example-off-by-one",
                            "example-rand-mod" };
    for (size_t i = 0; i < 3; i++) {
        const sb_shuffle_type *t;
        sb_plugin_handle *h = open_example(names[i], &t);
        assert_string_equal(t->name, names[i]);
        assert_int_equal(sb_plugin_count(h), 3);
        for (size_t k = 0; k < 3; k++)
            assert_string_equal(sb_plugin_type(h, k)->name, names[k]);
        assert_null(sb_plugin_type(h, 3));
        assert_ptr_equal(sb_plugin_type(h, i), t);
        assert_int_equal(sb_plugin_check_type(t, NULL, 0), SB_OK);
        sb_plugin_close(h);
    }
}

/* Two shuffles and no name: refused, and the message lists both; a name
   the plug-in does not have: not found, with the same list. */
static void a_name_is_needed_among_several(void **state)
{
    (void)state;
    sb_plugin_handle *h = (sb_plugin_handle *)&h;
    const sb_shuffle_type *t = &sb_shuffle_fisher_yates;
    char err[1024] = "";
    assert_int_equal(sb_plugin_open(&h, SB_EXAMPLE_PLUGIN, NULL, &t, err,
                                    sizeof err), SB_EINVAL);
    assert_null(h);
    assert_null(t);
    assert_non_null(strstr(err, "example-fisher-yates"));
    assert_non_null(strstr(err, "example-off-by-one"));
    assert_null(strchr(err, '\n'));

    assert_int_equal(sb_plugin_open(&h, SB_EXAMPLE_PLUGIN, "fisher-yates",
                                    &t, err, sizeof err), SB_ENOTFOUND);
    assert_null(h);
    assert_non_null(strstr(err, "'fisher-yates'"));
    assert_non_null(strstr(err, "example-fisher-yates"));
    assert_non_null(strstr(err, "example-off-by-one"));
}

/* ---- sampling ----------------------------------------------------------- */

/* Two chunks of samples (the second partial) of 10 cards, on the fast
   generator and on GSL's mt19937 (one stream per run): every sample is a
   permutation, the same seed gives the same samples, and another seed or
   another source gives other samples (equal fingerprints by accident:
   about 2^-64). */
static void fisher_yates_runs_on_every_source(void **state)
{
    (void)state;
    const sb_shuffle_type *t;
    sb_plugin_handle *h = open_example("example-fisher-yates", &t);
    const uint64_t samples = SB_CHUNK_SAMPLES + 1000;
    const char *rngs[] = { SB_RNG_DEFAULT, "mt19937" };
    uint64_t fp[2];
    for (size_t k = 0; k < 2; k++) {
        const probed a = probe_run(t, NULL, 10, samples, 42, rngs[k]);
        const probed b = probe_run(t, NULL, 10, samples, 42, rngs[k]);
        const probed c = probe_run(t, NULL, 10, samples, 43, rngs[k]);
        assert_true(a.samples == samples);
        assert_true(a.not_perm == 0);
        assert_true(c.not_perm == 0);
        assert_true(a.fingerprint == b.fingerprint);
        assert_true(a.fingerprint != c.fingerprint);
        fp[k] = a.fingerprint;
        /* Walking from the front is a different loop: other samples,
           still permutations. */
        const probed f = probe_run(t, "direction=front", 10, samples, 42,
                                   rngs[k]);
        assert_true(f.not_perm == 0);
        assert_true(f.fingerprint != a.fingerprint);
    }
    assert_true(fp[0] != fp[1]);
    sb_plugin_close(h);
}

/* A run as a plug-in checks every sample and its guard words, and tries
   the shuffle's first samples twice before: none of it changes a sample.
   The example's three shuffles, on the fast generator (samples written
   in blocks) and on GSL's (one stream), make the same samples checked as
   unchecked, over two chunks. */
static void checking_changes_no_sample(void **state)
{
    (void)state;
    const char *names[] = { "example-fisher-yates", "example-off-by-one",
                            "example-rand-mod" };
    const char *rngs[] = { SB_RNG_DEFAULT, "mt19937" };
    const uint64_t samples = SB_CHUNK_SAMPLES + 100;
    for (size_t i = 0; i < 3; i++) {
        const sb_shuffle_type *t;
        sb_plugin_handle *h = open_example(names[i], &t);
        for (size_t k = 0; k < 2; k++) {
            const probed plain = probe_run(t, NULL, 12, samples, 5, rngs[k]);
            const probed checked = probe_run_as(t, NULL, 12, samples, 5,
                                                rngs[k], SB_EXAMPLE_PLUGIN);
            assert_true(checked.samples == samples);
            assert_true(checked.fingerprint == plain.fingerprint);
        }
        sb_plugin_close(h);
    }
}

/* The plug-in's draws are the program's draws: its two shuffles are the
   same loops as the built-in fisher-yates and naive-swap (compare
   algorithms/fisher_yates.c and naive_swap.c), and run from the same seed
   on the same source they make exactly the same samples, through the
   exported functions on one side and the inlined ones on the other. */
static void draws_are_the_programs_draws(void **state)
{
    (void)state;
    const char *names[] = { "example-fisher-yates", "example-off-by-one" };
    const sb_shuffle_type *builtin[] = { &sb_shuffle_fisher_yates,
                                         &sb_shuffle_naive_swap };
    const char *rngs[] = { SB_RNG_DEFAULT, "mt19937" };
    for (size_t i = 0; i < 2; i++) {
        const sb_shuffle_type *t;
        sb_plugin_handle *h = open_example(names[i], &t);
        for (size_t k = 0; k < 2; k++) {
            const probed p = probe_run(t, NULL, 9, 5000, 7, rngs[k]);
            const probed b = probe_run(builtin[i], NULL, 9, 5000, 7, rngs[k]);
            assert_true(p.not_perm == 0);
            assert_true(p.fingerprint == b.fingerprint);
        }
        sb_plugin_close(h);
    }
}

/* ---- exact mode ---------------------------------------------------------- */

static void walk(const sb_shuffle_type *t, size_t n, const char *param,
                 sb_exact_report *rep)
{
    sb_enum_config cfg = {
        .alg = t,
        .args = { .n = n },
        .max_paths = SB_ENUM_MAX_PATHS_DEFAULT,
        .max_depth = SB_ENUM_MAX_DEPTH_DEFAULT,
    };
    sb_shuffle_defaults(t, &cfg.args);
    if (param)
        assert_int_equal(sb_shuffle_set_param(t, &cfg.args, param), SB_OK);
    char err[256] = "";
    const int rc = sb_enumerate(&cfg, rep, err, sizeof err);
    if (rc != SB_OK)
        print_error("sb_enumerate: %s\n", err);
    assert_int_equal(rc, SB_OK);
    assert_false(rep->partial);
    assert_string_equal(rep->unexplored, "0/1");
}

/* Fisher-Yates on 3 cards, either direction: 3 x 2 = 6 paths, each order
   reached by exactly one. */
static void exact_fisher_yates_each_order_once(void **state)
{
    (void)state;
    const sb_shuffle_type *t;
    sb_plugin_handle *h = open_example("example-fisher-yates", &t);
    const char *params[] = { NULL, "direction=front" };
    for (size_t k = 0; k < 2; k++) {
        sb_exact_report rep;
        walk(t, 3, params[k], &rep);
        assert_int_equal(rep.paths, 6);
        assert_int_equal(rep.n_outcomes, 6);
        for (size_t i = 0; i < 6; i++) {
            assert_int_equal(rep.outcomes[i].paths, 1);
            assert_string_equal(rep.outcomes[i].fraction, "1/6");
        }
        assert_string_equal(rep.tv, "0/1");
        assert_int_equal(rep.verdict, SB_EXACT_UNIFORM);
        sb_exact_report_release(&rep);
    }
    sb_plugin_close(h);
}

/* The 27 draw sequences (j0, j1, j2) of "for i in 0..2: swap(i, j_i)",
   walked here in plain C: count[k] = sequences ending in the order
   perm[k], for k < *m distinct orders. */
static void naive_swap_by_hand(sb_card perm[6][3], uint64_t count[6],
                               size_t *m)
{
    *m = 0;
    for (int j0 = 0; j0 < 3; j0++)
        for (int j1 = 0; j1 < 3; j1++)
            for (int j2 = 0; j2 < 3; j2++) {
                sb_card d[3] = { 0, 1, 2 };
                const int j[3] = { j0, j1, j2 };
                for (int i = 0; i < 3; i++) {
                    sb_card x = d[i];
                    d[i] = d[j[i]];
                    d[j[i]] = x;
                }
                size_t k = 0;
                while (k < *m && memcmp(perm[k], d, sizeof d) != 0)
                    k++;
                if (k == *m) {
                    memcpy(perm[k], d, sizeof d);
                    count[k] = 0;
                    (*m)++;
                }
                count[k]++;
            }
}

static void exact_off_by_one_is_the_naive_swap(void **state)
{
    (void)state;
    sb_card perm[6][3];
    uint64_t count[6];
    size_t m;
    naive_swap_by_hand(perm, count, &m);
    assert_int_equal(m, 6);

    const sb_shuffle_type *t;
    sb_plugin_handle *h = open_example("example-off-by-one", &t);
    sb_exact_report rep;
    walk(t, 3, NULL, &rep);
    assert_int_equal(rep.paths, 27);
    assert_true(rep.equal_weights);
    assert_int_equal(rep.n_outcomes, 6);
    for (size_t i = 0; i < 6; i++) {
        size_t k = 0;
        while (k < m && memcmp(perm[k], rep.outcomes[i].sample,
                               sizeof perm[k]) != 0)
            k++;
        assert_true(k < m);
        assert_int_equal(rep.outcomes[i].paths, count[k]);
    }
    /* Outcomes are in lexicographic order ABC, ACB, BAC, BCA, CAB, CBA:
       the published 4, 5, 5, 5, 4, 4. */
    const uint64_t published[6] = { 4, 5, 5, 5, 4, 4 };
    for (size_t i = 0; i < 6; i++)
        assert_int_equal(rep.outcomes[i].paths, published[i]);
    /* TV = 3 x (5/27 - 1/6) = 3 x 1/54 = 1/18. */
    assert_string_equal(rep.tv, "1/18");
    assert_int_equal(rep.verdict, SB_EXACT_BIASED);
    sb_exact_report_release(&rep);
    sb_plugin_close(h);
}

/* A plug-in's declaration that it is Markov in its deck (SB_PLUGIN_MARKOV):
   kept, walked by states to the same law as its paths; one whose steps
   are not its run() refused before the walk. */
static void markov_plugin(void **state)
{
    (void)state;
    sb_plugin_handle *h;
    const sb_shuffle_type *t;
    char err[1024];
    assert_int_equal(sb_plugin_open(&h, SB_PLUGIN_MARKOV_STEPS, "swap-all",
                                    &t, err, sizeof err), SB_OK);
    const sb_markov *m = sb_plugin_markov(h, t);
    assert_non_null(m);
    assert_ptr_equal(m->type, t);
    sb_enum_config cfg = { .alg = t, .plugin = SB_PLUGIN_MARKOV_STEPS,
                           .args = { .n = 4 },
                           .max_paths = SB_ENUM_MAX_PATHS_DEFAULT };
    sb_exact_report by_paths, by_states;
    assert_int_equal(sb_enumerate(&cfg, &by_paths, err, sizeof err), SB_OK);
    sb_markov_stats st;
    cfg.markov = m;
    cfg.merged = &st;
    assert_int_equal(sb_enumerate(&cfg, &by_states, err, sizeof err), SB_OK);
    assert_true(st.moves > 0);
    assert_int_equal(by_paths.paths, 256);
    assert_int_equal(by_states.paths, 256);
    assert_string_equal(by_paths.tv, by_states.tv);
    assert_int_equal(by_paths.n_outcomes, by_states.n_outcomes);
    for (size_t i = 0; i < by_paths.n_outcomes; i++)
        assert_string_equal(by_paths.outcomes[i].fraction,
                            by_states.outcomes[i].fraction);
    sb_exact_report_release(&by_paths);
    sb_exact_report_release(&by_states);
    sb_plugin_close(h);

    assert_int_equal(sb_plugin_open(&h, SB_PLUGIN_MARKOV_STEPS, "swap-liar",
                                    &t, err, sizeof err), SB_OK);
    cfg.alg = t;
    cfg.markov = sb_plugin_markov(h, t);
    assert_non_null(cfg.markov);
    assert_int_equal(sb_enumerate(&cfg, &by_states, err, sizeof err),
                     SB_EINVAL);
    assert_non_null(strstr(err, "its steps do not make what its run() "
                                "makes"));
    sb_plugin_close(h);

    /* Steps that write past the deck: the guard words after it see it. */
    assert_int_equal(sb_plugin_open(&h, SB_PLUGIN_MARKOV_STEPS, "swap-spill",
                                    &t, err, sizeof err), SB_OK);
    cfg.alg = t;
    cfg.markov = sb_plugin_markov(h, t);
    assert_int_equal(sb_enumerate(&cfg, &by_states, err, sizeof err),
                     SB_EINVAL);
    assert_non_null(strstr(err, "within the deck"));
    sb_plugin_close(h);

    /* A plug-in without the list: nothing declared. */
    assert_int_equal(sb_plugin_open(&h, SB_EXAMPLE_PLUGIN,
                                    "example-off-by-one", &t, err,
                                    sizeof err), SB_OK);
    assert_null(sb_plugin_markov(h, t));
    sb_plugin_close(h);
}

/* ---- refusals ------------------------------------------------------------- */

/* Open 'path' expecting status 'want'; the reason must contain every
   string of 'words' (NULL-ended), be one line, and leave *h and *type
   NULL. */
static void refused(const char *path, const char *name, int want,
                    const char *const *words)
{
    sb_plugin_handle *h = (sb_plugin_handle *)&h;
    const sb_shuffle_type *t = &sb_shuffle_fisher_yates;
    char err[1024] = "";
    const int rc = sb_plugin_open(&h, path, name, &t, err, sizeof err);
    if (rc != want)
        print_error("%s: status %d, reason: %s\n", path, rc, err);
    assert_int_equal(rc, want);
    assert_null(h);
    assert_null(t);
    assert_null(strchr(err, '\n'));
    for (size_t i = 0; words[i]; i++) {
        if (strstr(err, words[i]) == NULL)
            print_error("'%s' not in: %s\n", words[i], err);
        assert_non_null(strstr(err, words[i]));
    }
}

static void missing_file(void **state)
{
    (void)state;
    refused("/nonexistent/libnothing.so", NULL, SB_EIO,
            (const char *[]){ "cannot load", "/nonexistent/libnothing.so",
                              NULL });
    refused("", NULL, SB_EINVAL, (const char *[]){ "no plug-in", NULL });
}

/* A name without '/' is a file in the current directory, never a library
   found on the search path: "libc.so.6" is loaded by dlopen from the
   system directories, but here it must be "./libc.so.6", which the test's
   directory does not hold (had it been searched for, the error would be
   the missing symbol instead). */
static void bare_name_is_relative_to_the_current_directory(void **state)
{
    (void)state;
    refused("libc.so.6", NULL, SB_EIO,
            (const char *[]){ "cannot load", "libc.so.6", NULL });

    /* And the example, named bare from its own directory, loads. */
    char cwd[4096];
    assert_non_null(getcwd(cwd, sizeof cwd));
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", SB_EXAMPLE_PLUGIN);
    char *slash = strrchr(dir, '/');
    assert_non_null(slash);
    *slash = '\0';
    assert_int_equal(chdir(dir), 0);
    sb_plugin_handle *h;
    const sb_shuffle_type *t;
    char err[1024] = "";
    const int rc = sb_plugin_open(&h, slash + 1, "example-off-by-one", &t,
                                  err, sizeof err);
    assert_int_equal(chdir(cwd), 0);
    if (rc != SB_OK)
        print_error("%s\n", err);
    assert_int_equal(rc, SB_OK);
    assert_string_equal(t->name, "example-off-by-one");
    sb_plugin_close(h);
}

static void no_symbol(void **state)
{
    (void)state;
    refused(SB_PLUGIN_NO_SYMBOL, NULL, SB_EINVAL,
            (const char *[]){ "'shufflebias_plugin'", "SB_PLUGIN",
                              "<shufflebias/plugin.h>", NULL });
}

static void wrong_abi(void **state)
{
    (void)state;
    char built[64], speaks[64];
    snprintf(built, sizeof built, "built for plug-in ABI version %u",
             SB_PLUGIN_ABI + 1);
    snprintf(speaks, sizeof speaks, "this program speaks version %u",
             SB_PLUGIN_ABI);
    refused(SB_PLUGIN_WRONG_ABI, NULL, SB_ENOTSUP,
            (const char *[]){ "ABI version mismatch", built, speaks,
                              "rebuild", NULL });
}

static void wrong_size(void **state)
{
    (void)state;
    char sizes[64];
    snprintf(sizes, sizeof sizes, "%zu-byte", sizeof(sb_shuffle_type) - 8);
    refused(SB_PLUGIN_WRONG_SIZE, NULL, SB_ENOTSUP,
            (const char *[]){ "type size mismatch", sizes, "rebuild", NULL });
}

/* One bad shuffle refuses the whole plug-in, even when the good one is
   asked for by name. */
static void bad_type(void **state)
{
    (void)state;
    refused(SB_PLUGIN_BAD_TYPE, "good-identity", SB_EINVAL,
            (const char *[]){ "'bad-range'", "n_min 10 > n_max 5", NULL });
}

static void builtin_name(void **state)
{
    (void)state;
    refused(SB_PLUGIN_BUILTIN_NAME, NULL, SB_EINVAL,
            (const char *[]){ "'fisher-yates'", "built-in", NULL });
}

/* ---- the type check, field by field --------------------------------------- */

static int id_run(void *st, const sb_shuffle_args *a, sb_src *src,
                  sb_card *out)
{
    (void)st;
    (void)src;
    for (size_t i = 0; i < a->n; i++)
        out[i] = (sb_card)i;
    return SB_OK;
}

static int id_init(void **st, const sb_shuffle_args *a)
{
    (void)a;
    *st = NULL;
    return SB_OK;
}

static void id_free(void *st)
{
    (void)st;
}

static unsigned two_hands(const sb_shuffle_args *a)
{
    (void)a;
    return 2;
}

static void id_tally(const void *st, sb_tally *out)
{
    (void)st;
    memset(out, 0, sizeof *out);
}

static const char *const ab[] = { "a", "b", NULL };

/* Every built-in algorithm passes the check a plug-in faces, so the check
   asks nothing of a plug-in that the program's own shuffles do not do. */
static void builtins_pass_the_check(void **state)
{
    (void)state;
    for (const sb_shuffle_type *const *p = sb_shuffle_types; *p; p++) {
        char why[512] = "";
        const int rc = sb_plugin_check_type(*p, why, sizeof why);
        if (rc != SB_OK)
            print_error("%s\n", why);
        assert_int_equal(rc, SB_OK);
    }
}

/* A good type with one field spoiled at a time: each is refused, the
   reason naming the field. */
static void each_bad_field_is_named(void **state)
{
    (void)state;
    const sb_shuffle_type good = {
        .name = "probe-shuffle", .summary = "identity", .source = "test",
        .bias = "never shuffles", .kind = SB_KIND_PERMUTATION,
        .n_min = 1, .n_max = 52, .run = id_run,
    };
    char why[512];
    assert_int_equal(sb_plugin_check_type(&good, why, sizeof why), SB_OK);
    assert_string_equal(why, "");

    const sb_param_def no_name[] = { { NULL, "x", 1, 0, 2, NULL } };
    const sb_param_def camel[] = { { "keyBits", "x", 1, 0, 2, NULL } };
    const sb_param_def twice[] = { { "k", "x", 1, 0, 2, NULL },
                                   { "k", "x", 1, 0, 2, NULL } };
    const sb_param_def def_out[] = { { "k", "x", 3, 0, 2, NULL } };
    const sb_param_def min_max[] = { { "k", "x", 1, 2, 0, NULL } };
    const sb_param_def choices[] = { { "k", "x", 0, 0, 2, ab } };
    const sb_param_def choices_def[] = { { "k", "x", 2, 0, 1, ab } };
    const sb_param_def ok_param[] = { { "k", "x", 1, 0, 2, NULL } };
    struct {
        sb_shuffle_type t;
        const char *word;
    } cases[] = {
        { good, "no name" },
        { good, "kebab-case" },
        { good, "no summary" },
        { good, "no run" },
        { good, "kind 3" },
        { good, "n_min 0" },
        { good, "n_min 53 > n_max 52" },
        { good, "SB_DECK_MAX" },
        { good, "SB_PARAMS_MAX" },
        { good, "no params" },
        { good, "parameter 1 has no name" },
        { good, "'keyBits' is not kebab-case" },
        { good, "two parameters called 'k'" },
        { good, "default 3 outside [0, 2]" },
        { good, "min 2 > max 0" },
        { good, "lists 2 choices" },
        { good, "default 2 outside [0, 1]" },
        { good, "deal without hands()" },
        { good, "free without init" },
        { good, "tally_name without tally" },
        { good, "tally without init" },
        { good, "exact_hint 'k=9'" },
        { good, "exact_hint 'bits=2'" },
    };
    size_t c = 0;
    cases[c++].t.name = NULL;
    cases[c++].t.name = "Fisher Yates";
    cases[c++].t.summary = NULL;
    cases[c++].t.run = NULL;
    cases[c++].t.kind = (sb_kind)3;
    cases[c++].t.n_min = 0;
    cases[c++].t.n_min = 53;
    cases[c++].t.n_max = (size_t)SB_DECK_MAX + 1;
    cases[c].t.n_params = SB_PARAMS_MAX + 1;
    cases[c++].t.params = ok_param;
    cases[c++].t.n_params = 1;
    cases[c].t.params = no_name;
    cases[c++].t.n_params = 1;
    cases[c].t.params = camel;
    cases[c++].t.n_params = 1;
    cases[c].t.params = twice;
    cases[c++].t.n_params = 2;
    cases[c].t.params = def_out;
    cases[c++].t.n_params = 1;
    cases[c].t.params = min_max;
    cases[c++].t.n_params = 1;
    cases[c].t.params = choices;
    cases[c++].t.n_params = 1;
    cases[c].t.params = choices_def;
    cases[c++].t.n_params = 1;
    cases[c++].t.kind = SB_KIND_DEAL;
    cases[c++].t.free = id_free;
    cases[c++].t.tally_name = "passes";
    cases[c].t.tally_name = "passes";
    cases[c++].t.tally = id_tally;
    cases[c].t.params = ok_param;
    cases[c].t.n_params = 1;
    cases[c++].t.exact_hint = "k=9";
    cases[c].t.params = ok_param;
    cases[c].t.n_params = 1;
    cases[c++].t.exact_hint = "bits=2";
    assert_int_equal(c, sizeof cases / sizeof cases[0]);
    for (size_t i = 0; i < c; i++) {
        why[0] = '\0';
        assert_int_equal(sb_plugin_check_type(&cases[i].t, why, sizeof why),
                         SB_EINVAL);
        if (strstr(why, cases[i].word) == NULL)
            print_error("case %zu: '%s' not in: %s\n", i, cases[i].word, why);
        assert_non_null(strstr(why, cases[i].word));
    }

    /* The spoiled fields, mended, pass: a deal with hands(), free and a
       tally with init, a hint within range. */
    sb_shuffle_type mended = good;
    mended.kind = SB_KIND_DEAL;
    mended.hands = two_hands;
    mended.init = id_init;
    mended.free = id_free;
    mended.tally_name = "passes";
    mended.tally = id_tally;
    mended.params = ok_param;
    mended.n_params = 1;
    mended.exact_hint = "k=2";
    assert_int_equal(sb_plugin_check_type(&mended, why, sizeof why), SB_OK);
}

int main(void)
{
    gsl_set_error_handler_off();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(picks_each_shuffle_by_name),
        cmocka_unit_test(a_name_is_needed_among_several),
        cmocka_unit_test(fisher_yates_runs_on_every_source),
        cmocka_unit_test(draws_are_the_programs_draws),
        cmocka_unit_test(checking_changes_no_sample),
        cmocka_unit_test(exact_fisher_yates_each_order_once),
        cmocka_unit_test(exact_off_by_one_is_the_naive_swap),
        cmocka_unit_test(missing_file),
        cmocka_unit_test(bare_name_is_relative_to_the_current_directory),
        cmocka_unit_test(no_symbol),
        cmocka_unit_test(wrong_abi),
        cmocka_unit_test(wrong_size),
        cmocka_unit_test(bad_type),
        cmocka_unit_test(builtin_name),
        cmocka_unit_test(markov_plugin),
        cmocka_unit_test(builtins_pass_the_check),
        cmocka_unit_test(each_bad_field_is_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
