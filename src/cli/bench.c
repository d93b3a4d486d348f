/*
 * bench.c - 'shufflebias bench [ALG ...]': how fast, side by side with
 * what a C programmer would use anyway.
 *
 * The reference is GSL's gsl_ran_shuffle on gsl_rng_mt19937, called in a
 * plain loop on one array of uint16_t (the element type of our decks,
 * sb_card, so that both move the same bytes).  Against it, at the same deck
 * sizes and in the same process: each ALG bare (sb_run with no statistic),
 * each ALG with the position statistic counting, each ALG with the default
 * battery on 52 cards on one thread and on two, and exact mode on
 * naive-swap at 8 cards (sb_enumerate, every one of the 8^8 paths).  With
 * no ALG named, fisher-yates, and beside it at 52 cards fisher-yates-mod
 * bare and with the battery on two threads: the classic subtle bias, whose
 * verdict takes the most decks, so the rate its runs go at.
 *
 * How it is measured, and why:
 *   a) every measurement is a whole call - allocation, seeding, the loop,
 *      the finalize - timed on the monotonic clock, the same for GSL's loop
 *      and for ours, and made long enough (about 0.2 s, 12 s for the
 *      battery on one thread, sized by a calibration pass that also warms
 *      the caches)
 *      that the setup is lost in it;
 *   b) rounds are interleaved: round 1 times every row once, round 2 every
 *      row again, and so on, so that a slow spell of a shared machine
 *      falls on every row alike instead of on one of them;
 *   c) each row reports the median over the rounds and its spread (the
 *      smallest and the largest), and its ratio to GSL at the same n is
 *      the ratio of the two medians.
 * Nothing here asserts a speed: the targets block only reads the figures
 * off.  Each run is checked to have done what it was asked (every deck
 * counted, every path walked, GSL's deck still a permutation), so a figure
 * never comes from a run that stopped short.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli/options.h"

#include <stddef.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "algorithms/registry.h"
#include "reports/render.h"
#include "shufflebias/status.h"
#include "engine/enumerate.h"
#include "base/rng.h"
#include "engine/runner.h"
#include "stats/exact.h"
#include "stats/registry.h"

#define ROUNDS_DEFAULT 7u
#define ROUNDS_MAX 1000u
/* Seconds a measurement aims at: long enough for the setup of a run
   (allocation, seeding, the finalize of a 1000 x 1000 table) to vanish. */
#define ROW_SECONDS 0.2
/* The battery rows are the long runs the thread speed-up is read from.
   A run pays a cost once, whatever its length: each thread looks up its
   first 2^21 decks in its own table of repeated decks, which it grows to
   84 MB, and one thread merges the tables and finalizes at the end.
   Short runs understate the speed-up of the long runs the tool is for;
   runs of this length come close to it (the figures: docs/speed.md, "How
   it is measured").  The 2-thread row times the same decks. */
#define BATTERY_SECONDS 12.0
/* A calibration step long enough to be timed well. */
#define CALIBRATE_FRACTION 0.1
/* The fixed cost of a run stays under 1/FIXED_SHARE of a measurement,
   which is lengthened for it up to MEASURE_MAX seconds (never shortened
   below its aim: the battery's is longer). */
#define FIXED_SHARE 20.0
#define MEASURE_MAX 2.0
#define COUNT_MAX ((uint64_t)1 << 40)
/* Decks per measurement under --quick. */
#define QUICK_DECKS 2000u
#define QUICK_DECKS_LARGE 200u      /* n = 1000 */
#define EXACT_N 8u
#define EXACT_N_QUICK 6u
#define SKIPPED_MAX 32u
#define BATTERY_THREADS 2u

/* The speed targets (docs/speed.md, "The targets"). */
#define TARGET_BARE_RATIO (1.0 / 12.0)
#define TARGET_POSITION_RATIO (1.0 / 6.0)
#define TARGET_SPEEDUP 1.8
#define TARGET_PER_CORE 1e6
/* Checking every sample of a plug-in costs under 5% of fisher-yates +
   position at 52 cards. */
#define TARGET_CHECK_COST 0.05

/* The deck sizes of the sampling rows. */
static const size_t sizes[] = { 3, 52, 1000 };

typedef enum row_kind {
    ROW_GSL,         /* gsl_ran_shuffle in a plain loop */
    ROW_BARE,        /* sb_run, no statistic */
    ROW_POSITION,    /* sb_run, the position statistic */
    ROW_BATTERY,     /* sb_run, the default battery */
    ROW_EXACT,       /* sb_enumerate, every path */
    ROW_CHECKED,     /* sb_run, the position statistic, every sample
                        checked as a plug-in's is */
    ROW_STATES       /* sb_enumerate, by the states of a Markov shuffle */
} row_kind;

static const char *const kind_names[] = {
    "gsl", "bare", "position", "battery", "exact", "checked", "states"
};

typedef struct bench_row {
    row_kind kind;
    const sb_shuffle_type *alg;      /* NULL for GSL's rows */
    sb_shuffle_args args;            /* n and the fitted defaults */
    unsigned threads;
    const sb_stat_type *stats[SB_STAT_DEFAULTS_MAX];
    size_t n_stats;
    uint64_t count;                  /* decks (exact: paths) timed at once */
    double *ns;                      /* ns per deck, one per round done */
    double median, min, max;         /* over the rounds done */
    double ratio;                    /* median / the GSL row's median */
    size_t gsl;                      /* index of GSL's row at the same n */
    char name[96];
} bench_row;

typedef struct bench_options {
    const char *json;
    unsigned rounds;
    int rounds_given, quick, quiet;
    const char **algs;               /* the ALG names (argv) */
    size_t n_algs;
} bench_options;

typedef struct bench {
    bench_row *rows;
    size_t n_rows;
    unsigned rounds;                 /* asked for */
    unsigned rounds_done;            /* finished by every row */
    int quick;
    int default_set;                 /* no ALG named */
    int progress;                    /* a progress line on stderr */
    volatile sig_atomic_t *stop;
    double *scratch;                 /* room for one row's rounds */
    char skipped[SKIPPED_MAX][192];  /* rows left out, and why */
    size_t n_skipped;
} bench;

/* The 2-thread speed-up and the rate per core the targets read, from the
   battery rows of fisher-yates (0 when missing). */
typedef struct battery_figures {
    const bench_row *one, *two;
    double rate_one, rate_two;       /* decks per second */
    double per_core;                 /* the smaller of rate_one and
                                        rate_two / threads */
    double speedup;                  /* rate_two / rate_one */
} battery_figures;

static double mono_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int stopped(const bench *b)
{
    return b->stop && *b->stop;
}

/* --rounds R: 1 .. ROUNDS_MAX. */
static int set_rounds(const sb_option *opt, const char *arg, void *base)
{
    (void)opt;
    uint64_t v;
    if (sb_cli_parse_count(arg, &v) != 0 || v > ROUNDS_MAX) {
        sb_cli_error("invalid --rounds '%s': expected 1 to %u", arg,
                     ROUNDS_MAX);
        return -1;
    }
    ((bench_options *)base)->rounds = (unsigned)v;
    return 0;
}

#define ROW(name, arg, field, given, fn, help) \
    SB_OPT_ROW(name, 0, arg, bench_options, field, given, fn, help)

static const sb_option options[] = {
    ROW("rounds", "R", rounds, offsetof(bench_options, rounds_given),
        set_rounds, "rounds (default 7, at most 1000)"),
    ROW("quick", NULL, quick, SB_OPT_NOWHERE, sb_opt_flag,
        "one tiny round, no calibration (exact mode at 6 cards): checks "
        "that everything runs; its figures mean little"),
    ROW("json", "FILE|-", json, SB_OPT_NOWHERE, sb_opt_string,
        "also write the figures as JSON ('-': stdout, and no table)"),
    ROW("quiet", NULL, quiet, SB_OPT_NOWHERE, sb_opt_flag,
        "print nothing but errors"),
    SB_OPT_HELP,
    SB_OPT_END
};

const sb_command sb_command_bench = {
    .name = "bench",
    .run = sb_cmd_bench,
    .summary = "speed, side by side with GSL's gsl_ran_shuffle",
    .synopsis =
    "usage: shufflebias bench [ALG ...] [options]\n"
    "\n"
    "Time ALG (default fisher-yates) side by side with GSL's gsl_ran_shuffle\n"
    "on gsl_rng_mt19937, in one process, in interleaved rounds (every row\n"
    "once per round), and print the median nanoseconds per deck, the spread\n"
    "(min-max over the rounds) and the ratio to GSL at the same n:\n"
    "\n"
    "  gsl_ran_shuffle mt19937   GSL's shuffle in a plain loop, n = 3, 8,\n"
    "                            52, 1000 (the reference of every ratio)\n"
    "  ALG                       sb_run with no statistic, 1 thread\n"
    "  ALG + position            sb_run counting the position statistic\n"
    "  ALG + position, checked   the same with every sample checked for its\n"
    "                            kind, as a plug-in's are (n = 52)\n"
    "  ALG + battery             the default battery on 52 cards, 1 thread\n"
    "                            and 2 threads\n"
    "  exact naive-swap          exact mode at 8 cards: ns per path (8^8\n"
    "                            paths), against GSL at 8 cards\n"
    "  exact naive-swap by states  the same table by the walk over the\n"
    "                            decks after each step: ns per path it\n"
    "                            stands for\n"
    "\n"
    "With no ALG named, also fisher-yates-mod at 52 cards, bare and with\n"
    "the battery on 2 threads (the rate its verdict is reached at); then\n"
    "the speed targets, each with the figure measured and whether it\n"
    "is met.\n",
    .options = options,
    .epilogue =
    "Each measurement lasts about 0.2 s (12 s for the battery on 1 thread),\n"
    "sized by a calibration pass first; a full run takes about three\n"
    "minutes.  Exit codes: 0 measured (whether the targets are met or not),\n"
    "2 usage error or a run that failed, 130 interrupted (the rounds\n"
    "finished are reported).\n",
};

/* Returns -1 after printing an error, 1 after printing the usage (-h,
   --help), 0 otherwise. */
static int parse(int argc, char **argv, bench_options *o)
{
    *o = (bench_options){ .rounds = ROUNDS_DEFAULT };
    int next;
    const int rc = sb_options_parse(&sb_command_bench, argc, argv, o, &next);
    if (rc != 0)
        return rc;
    if (o->quick && !o->rounds_given)
        o->rounds = 1;
    o->algs = (const char **)(argv + next);
    o->n_algs = (size_t)(argc - next);
    return 0;
}

/* ---- the rows ---------------------------------------------------------- */

static void skip(bench *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* A row left out, and why, for the report (once: the same reason at
   every deck size is said once). */
static void skip(bench *b, const char *fmt, ...)
{
    if (b->n_skipped == SKIPPED_MAX)
        return;
    char *note = b->skipped[b->n_skipped];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(note, sizeof b->skipped[0], fmt, ap);
    va_end(ap);
    for (size_t i = 0; i < b->n_skipped; i++)
        if (strcmp(b->skipped[i], note) == 0)
            return;
    b->n_skipped++;
}

static bench_row *add_row(bench *b, row_kind kind, const sb_shuffle_type *t,
                          const sb_shuffle_args *args, unsigned threads,
                          size_t gsl)
{
    bench_row *r = &b->rows[b->n_rows++];
    *r = (bench_row){ .kind = kind, .alg = t, .args = *args,
                      .threads = threads, .gsl = gsl };
    switch (kind) {
    case ROW_GSL:
        snprintf(r->name, sizeof r->name, "gsl_ran_shuffle mt19937");
        break;
    case ROW_BARE:
        snprintf(r->name, sizeof r->name, "%s", t->name);
        break;
    case ROW_POSITION:
        snprintf(r->name, sizeof r->name, "%s + position", t->name);
        break;
    case ROW_BATTERY:
        snprintf(r->name, sizeof r->name, "%s + battery", t->name);
        break;
    case ROW_EXACT:
        snprintf(r->name, sizeof r->name, "exact %s", t->name);
        break;
    case ROW_STATES:
        snprintf(r->name, sizeof r->name, "exact %s by states", t->name);
        break;
    case ROW_CHECKED:
        snprintf(r->name, sizeof r->name, "%s + position, checked",
                 t->name);
        break;
    }
    return r;
}

/* The rows of one ALG at deck size n, after GSL's row 'gsl'. */
static void add_alg_rows(bench *b, const sb_shuffle_type *t, size_t n,
                         size_t gsl)
{
    sb_shuffle_args args = { .n = n };
    char why[192];
    if (sb_shuffle_fitted(t, &args, why, sizeof why) != SB_OK) {
        skip(b, "%s at n = %zu: %s", t->name, n, why);
        return;
    }
    add_row(b, ROW_BARE, t, &args, 1, gsl);
    sb_shape shape;
    sb_shuffle_shape(t, &args, &shape);
    if (sb_stat_check(&sb_stat_position, &shape, why, sizeof why) == SB_OK) {
        bench_row *r = add_row(b, ROW_POSITION, t, &args, 1, gsl);
        r->stats[0] = &sb_stat_position;
        r->n_stats = 1;
        /* What checking every sample (as a plug-in's are) adds to it. */
        if (n == 52) {
            r = add_row(b, ROW_CHECKED, t, &args, 1, gsl);
            r->stats[0] = &sb_stat_position;
            r->n_stats = 1;
        }
    } else {
        skip(b, "%s + position: %s", t->name, why);
    }
    if (n != 52)
        return;
    const sb_stat_type *stats[SB_STAT_DEFAULTS_MAX];
    size_t m = sb_stat_defaults(&shape, stats, SB_STAT_DEFAULTS_MAX);
    if (m == 0) {
        skip(b, "%s + battery: no statistic applies", t->name);
        return;
    }
    for (unsigned th = 1; th <= BATTERY_THREADS; th++) {
        bench_row *r = add_row(b, ROW_BATTERY, t, &args, th, gsl);
        memcpy(r->stats, stats, m * sizeof *stats);
        r->n_stats = m;
    }
}

/* The default set's rows of fisher-yates-mod at 52 cards, after GSL's row
   'gsl': bare, and with the default battery on BATTERY_THREADS threads
   (the rate of the runs that decide its verdict). */
static void add_mod_rows(bench *b, size_t gsl)
{
    const sb_shuffle_type *t = &sb_shuffle_fisher_yates_mod;
    sb_shuffle_args args = { .n = 52 };
    sb_shuffle_defaults(t, &args);
    add_row(b, ROW_BARE, t, &args, 1, gsl);
    sb_shape shape;
    sb_shuffle_shape(t, &args, &shape);
    bench_row *r = add_row(b, ROW_BATTERY, t, &args, BATTERY_THREADS, gsl);
    r->n_stats = sb_stat_defaults(&shape, r->stats, SB_STAT_DEFAULTS_MAX);
}

/* Every row, in table order: by deck size, GSL's row first. */
static void build_rows(bench *b, const sb_shuffle_type *const *algs,
                       size_t n_algs)
{
    const size_t exact_n = b->quick ? EXACT_N_QUICK : EXACT_N;
    size_t all[4], m = 0;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        if (m == i && exact_n < sizes[i])
            all[m++] = exact_n;
        all[m++] = sizes[i];
    }
    for (size_t i = 0; i < m; i++) {
        const sb_shuffle_args gargs = { .n = all[i] };
        const size_t gsl = b->n_rows;
        add_row(b, ROW_GSL, NULL, &gargs, 1, gsl);
        if (all[i] == exact_n) {
            sb_shuffle_args eargs = { .n = exact_n };
            sb_shuffle_defaults(&sb_shuffle_naive_swap, &eargs);
            add_row(b, ROW_EXACT, &sb_shuffle_naive_swap, &eargs, 1, gsl);
            add_row(b, ROW_STATES, &sb_shuffle_naive_swap, &eargs, 1, gsl);
            continue;
        }
        for (size_t a = 0; a < n_algs; a++)
            add_alg_rows(b, algs[a], all[i], gsl);
        if (b->default_set && all[i] == 52)
            add_mod_rows(b, gsl);
    }
}

/* ---- one measurement --------------------------------------------------- */

/* GSL as a C programmer calls it: one generator, one array, shuffled over
   and over in place (never reset to the identity between decks, which
   would only add work to GSL's side).  The check at the end - the array
   is still a permutation of 0..n-1 - is outside the timing. */
static int time_gsl(const bench *b, size_t n, uint64_t count, uint64_t seed,
                    double *sec, char *err, size_t len)
{
    const double t0 = mono_now();
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    sb_card *deck = malloc(n * sizeof *deck);
    if (!g || !deck) {
        gsl_rng_free(g);
        free(deck);
        snprintf(err, len, "out of memory preparing gsl_ran_shuffle");
        return SB_ENOMEM;
    }
    gsl_rng_set(g, (unsigned long)seed);
    for (size_t i = 0; i < n; i++)
        deck[i] = (sb_card)i;
    /* The stop flag is looked at every 1024 decks, so the inner loop is
       exactly the loop a program would write. */
    for (uint64_t done = 0; done < count && !stopped(b);) {
        const uint64_t m = count - done < 1024 ? count - done : 1024;
        for (uint64_t k = 0; k < m; k++)
            gsl_ran_shuffle(g, deck, n, sizeof *deck);
        done += m;
    }
    *sec = mono_now() - t0;
    gsl_rng_free(g);
    if (stopped(b)) {
        free(deck);
        return SB_EINTR;
    }
    unsigned char *seen = calloc(n, 1);
    int ok = seen != NULL;
    for (size_t i = 0; ok && i < n; i++) {
        ok = deck[i] < n && !seen[deck[i]];
        if (ok)
            seen[deck[i]] = 1;
    }
    free(seen);
    free(deck);
    if (!ok) {
        snprintf(err, len, "gsl_ran_shuffle at n = %zu: the deck is no "
                 "longer a permutation (or out of memory checking it)", n);
        return SB_EIO;
    }
    return SB_OK;
}

static int time_run(const bench *b, const bench_row *r, uint64_t count,
                    uint64_t seed, double *sec, char *err, size_t len)
{
    const sb_run_config cfg = {
        .alg = r->alg,
        .args = r->args,
        .samples = count,
        .seed = seed,
        .rng = SB_RNG_DEFAULT,
        .stats = r->stats,
        .n_stats = r->n_stats,
        .threads = r->threads,
        .stop = b->stop,
        .check_samples = r->kind == ROW_CHECKED,
    };
    sb_report rep;
    const double t0 = mono_now();
    int rc = sb_run(&cfg, &rep, err, len);
    *sec = mono_now() - t0;
    if (rc != SB_OK)
        return rc;
    if (rep.run.partial && stopped(b)) {
        rc = SB_EINTR;
    } else if (rep.run.partial || rep.run.done != count
               || rep.n_results != r->n_stats) {
        snprintf(err, len, "%s at n = %zu: counted %llu of %llu decks "
                 "with %zu of %zu statistics", r->name, r->args.n,
                 (unsigned long long)rep.run.done,
                 (unsigned long long)count, rep.n_results, r->n_stats);
        rc = SB_EIO;
    }
    sb_report_release(&rep);
    return rc;
}

/* n^n, the paths of naive-swap (n draws of n branches each). */
static uint64_t naive_swap_paths(size_t n)
{
    uint64_t p = 1;
    for (size_t i = 0; i < n; i++)
        p *= n;
    return p;
}

static int time_exact(const bench *b, const bench_row *r, double *sec,
                      char *err, size_t len)
{
    const sb_enum_config cfg = {
        .option_advice = 1,
        .alg = r->alg,
        .args = r->args,
        .max_paths = SB_ENUM_MAX_PATHS_DEFAULT,
        .stop = b->stop,
        .markov = r->kind == ROW_STATES ? sb_markov_builtin(r->alg) : NULL,
    };
    sb_exact_report rep;
    const double t0 = mono_now();
    int rc = sb_enumerate(&cfg, &rep, err, len);
    *sec = mono_now() - t0;
    if (rc != SB_OK)
        return rc;
    if (rep.partial && stopped(b)) {
        rc = SB_EINTR;
    } else if (rep.partial || rep.cut_paths != 0 || rep.paths != r->count) {
        snprintf(err, len, "exact %s at n = %zu: walked %llu of %llu "
                 "paths", r->alg->name, r->args.n,
                 (unsigned long long)rep.paths,
                 (unsigned long long)r->count);
        rc = SB_EIO;
    }
    sb_exact_report_release(&rep);
    return rc;
}

/* Time row 'r' over 'count' decks: SB_OK and *sec; SB_EINTR when stopped;
   another status with the reason in 'err'. */
static int measure(const bench *b, const bench_row *r, uint64_t count,
                   uint64_t seed, double *sec, char *err, size_t len)
{
    switch (r->kind) {
    case ROW_GSL:
        return time_gsl(b, r->args.n, count, seed, sec, err, len);
    case ROW_EXACT:
    case ROW_STATES:
        return time_exact(b, r, sec, err, len);
    default:
        return time_run(b, r, count, seed, sec, err, len);
    }
}

/* ---- calibration and rounds -------------------------------------------- */

static void show(const bench *b, const char *what, const bench_row *r)
{
    if (b->progress)
        fprintf(stderr, "\r\033[Kbench: %s: %s, n = %zu, %u thread%s", what,
                r->name, r->args.n, r->threads, r->threads > 1 ? "s" : "");
}

/* Decks per measurement for one row.  A run costs about a + b * count:
   a fixed part (allocation, seeding, the finalize: large for the 1000 x
   1000 position table, docs/speed.md) and b per deck.  Both are read off two
   runs, 'count' and 8 * 'count', grown eightfold until the longer lasts a
   tenth of the aim (at most MEASURE_MAX / 2) and twice the shorter; the
   measurement then lasts the aim, or longer where needed for the fixed
   part to stay under 1/FIXED_SHARE of it (up to MEASURE_MAX seconds, or
   the aim when that is longer). */
static int calibrate_row(const bench *b, bench_row *r, char *err, size_t len)
{
    /* A battery row on several threads with no 1-thread row before it
       (fisher-yates-mod's) is sized alone, to the decks the 1-thread row
       would have timed. */
    const double aim = r->kind == ROW_BATTERY
                     ? BATTERY_SECONDS / (double)r->threads : ROW_SECONDS;
    uint64_t count = 16;
    double sec, sec8;
    int rc = measure(b, r, count, 1, &sec, err, len);
    for (; rc == SB_OK; count *= 8, sec = sec8) {
        rc = measure(b, r, 8 * count, 1, &sec8, err, len);
        /* Long enough to time, and the decks at least half of it, so that
           the difference of the two runs is not lost in the noise of a
           busy machine. */
        const int timed = sec8 >= aim * CALIBRATE_FRACTION
                       && sec8 >= 2 * sec;
        if (rc != SB_OK || timed || sec8 >= MEASURE_MAX / 2
            || count >= COUNT_MAX / 64)
            break;
    }
    if (rc != SB_OK)
        return rc;
    double per = (sec8 - sec) / (double)(7 * count);
    if (!(per > 0))
        per = sec8 / (double)(8 * count);
    if (!(per > 0))
        per = 1e-9;
    double fixed = sec8 - per * (double)(8 * count);
    double want = aim;
    if (fixed * FIXED_SHARE > want)
        want = fmin(fixed * FIXED_SHARE, fmax(aim, MEASURE_MAX));
    want /= per;
    count = want < 1 ? 1 : want > (double)COUNT_MAX ? COUNT_MAX
                                                    : (uint64_t)want;
    if (r->kind == ROW_BATTERY) {
        /* A whole, even number of chunks, so that two threads can share
           it evenly. */
        const uint64_t unit = (uint64_t)BATTERY_THREADS * SB_CHUNK_SAMPLES;
        count = (count + unit / 2) / unit * unit;
        if (count == 0)
            count = unit;
    }
    r->count = count;
    return SB_OK;
}

/* Decks per measurement for every row.  The battery's 2-thread row times
   exactly the decks of its 1-thread row, so the speed-up compares like
   with like. */
static int calibrate(bench *b, char *err, size_t len)
{
    for (size_t i = 0; i < b->n_rows; i++) {
        bench_row *r = &b->rows[i];
        if (r->kind == ROW_EXACT || r->kind == ROW_STATES) {
            r->count = naive_swap_paths(r->args.n);
        } else if (b->quick) {
            r->count = r->args.n > 52 ? QUICK_DECKS_LARGE : QUICK_DECKS;
        } else if (r->kind == ROW_BATTERY && r->threads > 1 && i > 0
                   && b->rows[i - 1].kind == ROW_BATTERY
                   && b->rows[i - 1].alg == r->alg) {
            r->count = b->rows[i - 1].count;
        } else {
            show(b, "calibrating", r);
            int rc = calibrate_row(b, r, err, len);
            if (rc != SB_OK)
                return rc;
        }
    }
    return SB_OK;
}

static int run_rounds(bench *b, char *err, size_t len)
{
    for (unsigned round = 0; round < b->rounds; round++) {
        for (size_t i = 0; i < b->n_rows; i++) {
            bench_row *r = &b->rows[i];
            char what[48];
            snprintf(what, sizeof what, "round %u of %u", round + 1,
                     b->rounds);
            show(b, what, r);
            double sec;
            int rc = measure(b, r, r->count, (uint64_t)round + 2, &sec, err,
                             len);
            if (rc != SB_OK)
                return rc;
            r->ns[round] = sec * 1e9 / (double)r->count;
        }
        b->rounds_done = round + 1;
    }
    return SB_OK;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median, min and max over the rounds done; then each ratio to GSL. */
static void summarize(bench *b)
{
    const unsigned m = b->rounds_done;
    double *v = b->scratch;
    for (size_t i = 0; i < b->n_rows; i++) {
        bench_row *r = &b->rows[i];
        memcpy(v, r->ns, m * sizeof *v);
        qsort(v, m, sizeof *v, cmp_double);
        r->min = v[0];
        r->max = v[m - 1];
        r->median = m % 2 ? v[m / 2] : (v[m / 2 - 1] + v[m / 2]) / 2;
    }
    for (size_t i = 0; i < b->n_rows; i++)
        b->rows[i].ratio = b->rows[i].median / b->rows[b->rows[i].gsl].median;
}

static const bench_row *find_row(const bench *b, row_kind kind, size_t n,
                                 unsigned threads)
{
    for (size_t i = 0; i < b->n_rows; i++) {
        const bench_row *r = &b->rows[i];
        if (r->kind == kind && r->args.n == n && r->threads == threads
            && (kind == ROW_GSL || r->alg == &sb_shuffle_fisher_yates))
            return r;
    }
    return NULL;
}

static battery_figures battery(const bench *b)
{
    battery_figures f = { find_row(b, ROW_BATTERY, 52, 1),
                          find_row(b, ROW_BATTERY, 52, BATTERY_THREADS),
                          0, 0, 0, 0 };
    if (!f.one || !f.two)
        return f;
    f.rate_one = 1e9 / f.one->median;
    f.rate_two = 1e9 / f.two->median;
    f.speedup = f.rate_two / f.rate_one;
    const double shared = f.rate_two / BATTERY_THREADS;
    f.per_core = shared < f.rate_one ? shared : f.rate_one;
    return f;
}

/* ---- the targets ------------------------------------------------------- */

#define TARGETS_MAX 5

/* The targets whose rows were run (all four with fisher-yates among the
   algorithms). */
static size_t targets(const bench *b, sb_bench_target *t)
{
    size_t m = 0;
    const bench_row *bare = find_row(b, ROW_BARE, 52, 1);
    const bench_row *pos = find_row(b, ROW_POSITION, 52, 1);
    const bench_row *checked = find_row(b, ROW_CHECKED, 52, 1);
    const battery_figures f = battery(b);
    if (bare)
        t[m++] = (sb_bench_target){ "fisher-yates n=52 bare: time / GSL's",
                           "at most", TARGET_BARE_RATIO, bare->ratio,
                           bare->ratio <= TARGET_BARE_RATIO };
    if (pos)
        t[m++] = (sb_bench_target){ "fisher-yates n=52 + position: time / GSL's",
                           "at most", TARGET_POSITION_RATIO, pos->ratio,
                           pos->ratio <= TARGET_POSITION_RATIO };
    if (pos && checked) {
        const double cost = checked->median / pos->median - 1.0;
        t[m++] = (sb_bench_target){ "fisher-yates n=52: cost of checking samples",
                           "at most", TARGET_CHECK_COST, cost,
                           cost <= TARGET_CHECK_COST };
    }
    if (f.one && f.two) {
        t[m++] = (sb_bench_target){ "battery n=52: 2-thread speed-up", "at least",
                           TARGET_SPEEDUP, f.speedup,
                           f.speedup >= TARGET_SPEEDUP };
        t[m++] = (sb_bench_target){ "battery n=52: decks/s per core", "at least",
                           TARGET_PER_CORE, f.per_core,
                           f.per_core >= TARGET_PER_CORE };
    }
    return m;
}

/* ---- the command ------------------------------------------------------- */

/* The algorithms named (fisher-yates when none), each once; NULL after
   printing the error. */
static const sb_shuffle_type **algorithms(const bench_options *o,
                                          size_t *count)
{
    static const char *const fallback[] = { "fisher-yates" };
    const char *const *names = o->n_algs ? o->algs : fallback;
    *count = o->n_algs ? o->n_algs : 1;
    const sb_shuffle_type **algs = calloc(*count, sizeof *algs);
    if (!algs) {
        sb_cli_error("out of memory");
        return NULL;
    }
    for (size_t i = 0; i < *count; i++) {
        algs[i] = sb_cli_algorithm(names[i]);
        for (size_t k = 0; algs[i] && k < i; k++)
            if (algs[k] == algs[i]) {
                sb_cli_error("bench: '%s' is named twice", names[i]);
                algs[i] = NULL;
            }
        if (!algs[i]) {
            free(algs);
            return NULL;
        }
    }
    return algs;
}

/* What reports/ renders of 'b': the rows, the battery's figures, the
   rows left out and the targets.  'rows', 'skipped' and 't' have room
   for b's rows, its skipped rows and TARGETS_MAX. */
static sb_bench_report bench_report(const bench *b, sb_bench_row *rows,
                                    const char **skipped, sb_bench_target *t)
{
    for (size_t i = 0; i < b->n_rows; i++) {
        const bench_row *r = &b->rows[i];
        rows[i] = (sb_bench_row){
            .name = r->name, .kind = kind_names[r->kind],
            .algorithm = r->kind == ROW_GSL ? "gsl_ran_shuffle"
                                            : r->alg->name,
            .n = r->args.n, .threads = r->threads, .count = r->count,
            .ns = r->ns, .median = r->median, .min = r->min, .max = r->max,
            .ratio = r->ratio, .stats = r->stats, .n_stats = r->n_stats };
    }
    for (size_t i = 0; i < b->n_skipped; i++)
        skipped[i] = b->skipped[i];
    const battery_figures f = battery(b);
    return (sb_bench_report){
        .rounds = b->rounds_done, .rounds_asked = b->rounds,
        .quick = b->quick, .rows = rows, .n_rows = b->n_rows,
        .battery_stats = f.one && f.two ? f.one->n_stats : 0,
        .battery_threads = BATTERY_THREADS, .rate_one = f.rate_one,
        .rate_two = f.rate_two, .per_core = f.per_core,
        .speedup = f.speedup, .skipped = skipped,
        .n_skipped = b->n_skipped, .targets = t,
        .n_targets = targets(b, t) };
}

static int report(const bench_options *o, const bench *b)
{
    int code = SB_EXIT_PASS;
    sb_bench_row *rows = calloc(b->n_rows ? b->n_rows : 1, sizeof *rows);
    if (!rows) {
        sb_cli_error("out of memory");
        return SB_EXIT_USAGE;
    }
    const char *skipped[SKIPPED_MAX];
    sb_bench_target t[TARGETS_MAX];
    const sb_bench_report rep = bench_report(b, rows, skipped, t);
    const int json_on_stdout = o->json && strcmp(o->json, "-") == 0;
    if (!o->quiet && !json_on_stdout)
        sb_render_bench_text(stdout, &rep);
    if (o->json) {
        sb_outfile out;
        const int rc = sb_cli_open_out(&out, o->json) != 0 ? -1
                     : sb_cli_close_out(&out, sb_render_json_value(out.f,
                                              sb_bench_json(&rep)) == SB_OK);
        if (rc < 0)
            code = SB_EXIT_USAGE;
        else if (rc > 0) {
            /* The stop cut a write (a pipe not read yet). */
            sb_cli_error("interrupted while the report was written: what "
                         "was written is cut short");
            code = SB_EXIT_INTERRUPTED;
        }
    }
    free(rows);
    return code;
}

int sb_cmd_bench(const sb_cli *cli, int argc, char **argv)
{
    bench_options o;
    int prc = parse(argc, argv, &o);
    if (prc != 0)
        return prc > 0 ? SB_EXIT_PASS : SB_EXIT_USAGE;
    size_t n_algs;
    const sb_shuffle_type **algs = algorithms(&o, &n_algs);
    if (!algs)
        return SB_EXIT_USAGE;
    if (sb_cli_can_write(o.json) != 0) {
        free(algs);
        return SB_EXIT_USAGE;
    }
    /* At most: 4 GSL rows, the 2 exact rows (every path, and by states),
       per algorithm 2 rows at each of 3 sizes, the checked row and the
       battery's, and the 2 rows of fisher-yates-mod in the default set. */
    const size_t cap = 6 + n_algs * (2 * 3 + 1 + BATTERY_THREADS) + 2;
    bench b = { .rounds = o.rounds, .quick = o.quick, .stop = cli->stop,
                .default_set = o.n_algs == 0,
                .progress = !o.quiet && isatty(STDERR_FILENO) };
    b.rows = calloc(cap, sizeof *b.rows);
    /* One block of timings: a row's rounds after another's, and a scratch
       row at the end for sorting. */
    double *ns = calloc((cap + 1) * b.rounds, sizeof *ns);
    if (!b.rows || !ns) {
        sb_cli_error("out of memory");
        free(b.rows);
        free(ns);
        free(algs);
        return SB_EXIT_USAGE;
    }
    build_rows(&b, algs, n_algs);
    free(algs);
    for (size_t i = 0; i < b.n_rows; i++)
        b.rows[i].ns = ns + i * b.rounds;
    b.scratch = ns + cap * b.rounds;

    char err[512];
    int rc = calibrate(&b, err, sizeof err);
    if (rc == SB_OK)
        rc = run_rounds(&b, err, sizeof err);
    if (b.progress)
        fputs("\r\033[K", stderr);
    int code;
    if (rc == SB_OK || (rc == SB_EINTR && b.rounds_done > 0)) {
        summarize(&b);
        code = report(&o, &b);
        if (rc == SB_EINTR) {
            sb_cli_error("interrupted: the figures cover the %u round%s "
                         "finished", b.rounds_done,
                         b.rounds_done > 1 ? "s" : "");
            code = SB_EXIT_INTERRUPTED;
        }
    } else if (rc == SB_EINTR) {
        sb_cli_error("interrupted before a round was finished");
        code = SB_EXIT_INTERRUPTED;
    } else {
        sb_cli_error("bench: %s", err);
        code = SB_EXIT_USAGE;
    }
    free(ns);
    free(b.rows);
    return code;
}
