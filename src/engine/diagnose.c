/*
 * diagnose.c - name the catalogued flaw a failing run resembles.
 *
 * A bias seen by the battery is a vector: for every statistic, the
 * standardised residual of each cell of its table per sample,
 *
 *     d_c = (O_c / N - p_c) / sqrt(p_c),
 *
 * which does not grow with N (only its noise shrinks, as 1 / sqrt(N)), so
 * that a run of 10^5 decks and a simulation of 2^17 decks of the same
 * flaw give the same vector up to noise.  |d|^2 summed over a table is its
 * chi-square distance per sample.  A flaw's signature is that vector
 * measured on a simulation of the flawed algorithm through the same
 * statistics; the bias seen is compared with each signature by the
 * cosine of the angle between them, which allows an unknown strength:
 *
 *     score = <d_seen, d_flaw> / sqrt(|d_seen|^2 |d_flaw|^2),
 *
 * with two corrections for noise, which would otherwise drown the
 * comparison in the thousands of cells of the card x position table:
 * every |d|^2 is taken less its expectation under the null (a table's
 * noise), and a table whose own test saw nothing (raw p above 10^-3 for
 * the run, a z below 4 for a signature) adds nothing to the lengths.
 * The inner product needs no correction: the noises of the run and of
 * the simulation are independent and have mean zero.  Two tables pooled
 * differently (a pooled statistic pools by the sample size) are compared
 * on the coarsest grouping of values that both refine.
 *
 * The flaws with a strength (riffle passes, key bits) are simulated over
 * a range of it; the setting named is the one among the best-scoring
 * whose signature has the size seen ('scale' nearest 1).  The modulo bias
 * of fisher-yates-mod is far too small to be measured on 2^17 decks, so
 * its signature is that of the same draws with the same favoured residues
 * (r < 2^B mod m, for generators of B = 8 to 16 bits: which residues are
 * favoured depends on B, so the modulo bias of an 8-bit rand() does not
 * look like that of a 15-bit one) weighted q + A to q instead of q + 1 to
 * q, q = floor(2^B / m): every draw's excess is multiplied by the same A,
 * so the direction of the small bias is kept and its size multiplied
 * (the match's scale is divided back by A, so that it speaks of the real
 * B-bit generator).  A source with too few states repeats decks and
 * changes nothing else: its signature is the collision count alone, and
 * its reachable decks are estimated from the repeats (M = S mu / R, the
 * possible samples S, the repeats R and the repeats mu a uniform source
 * would make, which is N^2 / (2 R) when every sample is kept).
 */
#include "engine/diagnose.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shufflebias/status.h"
#include "algorithms/deck.h"
#include "algorithms/registry.h"
#include "base/shuffle_type.h"
#include "engine/enumerate.h"
#include "engine/runner.h"
#include "stats/registry.h"

/* A table's residuals count only when its own test saw something: a run's
   raw p below this, a signature's excess over its noise above SIG_Z
   standard deviations. */
#define SEEN_P 1e-3
#define SIG_Z 4.0
/* Settings whose score is within this of the best compete on size. */
#define NEAR_BEST 0.05
/* Flaws whose scores are this close are told apart by size alone. */
#define SAME_SCORE 0.02
/* Flaws whose first-round score is within this of the best are simulated
   at all their settings. */
#define REFINE_MARGIN 0.15
/* fisher-yates-mod's signature: its largest excess, at the last draw,
   is at least 1 / AMPLIFY of a draw's probability (see above). */
#define AMPLIFY 8u
/* The seed of every signature: fixed, so that a diagnosis is reproducible
   and independent of the run's own seed. */
#define SIGNATURE_SEED 0x5d1a9e05eedULL
#define STATS_MAX 32u
/* The tables compared: every signature holds a residual per cell, for
   each flaw simulated, so a table of more cells than this (position,
   serial and the fy-code tables beyond 1024 cards) is left out, and so is
   the law of 'permutation' beyond 6 cards (5040 to 3.6 million orders,
   sparse at the 2^17 decks of a signature).  These are the tables the
   statistics kept before they kept every one: the diagnosis compares
   what it always did. */
#define PROFILE_CELLS_MAX (1024u * 1024u)
#define PROFILE_ORDERS_MAX 720u

/* What is known of a catalogued flaw beyond what its type says: the
   strength parameter to simulate over and its values, and the fix. */
typedef struct flaw_entry {
    const char *name;           /* the catalogue's name */
    const char *strength;       /* a parameter to vary, NULL: none */
    long values[12];            /* its values, ending at 0 */
    long probes[6];             /* those simulated first, ending at 0: the
                                   others only for the flaw that scores
                                   best, to tell its strength */
    const char *what;           /* the flaw, in words */
    const char *fix;
} flaw_entry;

static const flaw_entry flaws[] = {
    { "naive-swap", NULL, { 0 }, { 0 },
      "swapping each card with any card (j in 0..n-1): n^n equally likely "
      "paths cannot split evenly over n! orders, so each card is too often "
      "just behind its start",
      "swap card i with a card drawn from 0..i (Fisher-Yates)" },
    { "sattolo", NULL, { 0 }, { 0 },
      "Sattolo's algorithm: j drawn from 0..i-1 makes one single cycle, so "
      "no card ever stays where it was",
      "draw j from 0..i, not 0..i-1" },
    { "sort-random-keys", "key-bits", { 1, 2, 4, 8, 12, 16, 0 }, { 2, 8, 0 },
      "sorting by random keys with too few bits: tied keys leave their cards "
      "in their starting order",
      "give every card a key of 64 random bits, or shuffle with "
      "Fisher-Yates" },
    { "sort-random-comparator", NULL, { 0 }, { 0 },
      "a sort handed a comparator that answers at random: it is not a "
      "shuffle, and each sort leaves its own pattern",
      "shuffle with Fisher-Yates (or sort by random keys of 64 bits)" },
    { "fisher-yates-mod", "rand-bits", { 8, 9, 10, 11, 12, 13, 14, 15, 16, 0 },
      { 8, 12, 15, 0 },
      "modulo bias: j = rand() % (i+1) makes the low Fisher-Yates draws too "
      "frequent",
      "draw j without modulo bias: rejection sampling (Lemire's nearly "
      "divisionless method)" },
    { "riffle", "passes", { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0 },
      { 1, 3, 5, 7, 9, 0 },
      "too few riffles: the deck keeps long rising sequences of its "
      "starting order",
      "riffle more times, or shuffle with Fisher-Yates" },
    { "inverse-riffle", "passes", { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0 },
      { 1, 3, 5, 7, 9, 0 },
      "too few inverse riffles: the deck keeps the pattern of too few "
      "passes",
      "make more passes, or shuffle with Fisher-Yates" },
    { "human-packet", "passes", { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0 },
      { 1, 3, 5, 7, 9, 0 },
      "too few riffles by hand: packets of cards stay together in their "
      "starting order",
      "riffle more times (a person's riffle mixes more slowly than GSR's), "
      "or shuffle with Fisher-Yates" },
    { "riffle-until-uniform-forward", NULL, { 0 }, { 0 },
      "a stopping rule checked on the inverse walk in the order drawn: it "
      "stops too early on some decks",
      "replay the inverse walk reversed (riffle-until-uniform), which is a "
      "strong uniform time" },
    { "deal-random-hand", NULL, { 0 }, { 0 },
      "each card given to a random hand, again while that hand is full: "
      "the last cards go to the hands left, so hands are patterned",
      "shuffle the deck (Fisher-Yates) and deal it round the table" },
};

static const char repeated_name[] = "repeated-decks";
static const char repeated_what[] =
    "repeated decks: the source reaches too few decks, as a generator or a "
    "seed with too few states does";
static const char repeated_fix[] =
    "seed a generator of 256 bits of state or more with as many random "
    "bits, once (not a 32-bit seed per deck or a clock)";

static const flaw_entry *flaw_find(const char *name)
{
    for (size_t i = 0; i < sizeof flaws / sizeof flaws[0]; i++)
        if (strcmp(flaws[i].name, name) == 0)
            return &flaws[i];
    return NULL;
}

/* ---- fisher-yates-mod, amplified ---- */

/* The gain A of the twin of a B-bit generator at n cards: the excess
   1 / q of the last draw (q = floor(2^B / n), the fewest values per
   residue) multiplied up to about 1 / AMPLIFY, never down. */
static uint64_t amp_gain(long bits, size_t n)
{
    const uint64_t q = (UINT64_C(1) << bits) / (n ? n : 1);
    return q > AMPLIFY ? (q + AMPLIFY - 1) / AMPLIFY : 1;
}

/* A draw from 0..m-1 where the r = 2^B mod m lowest values weigh q + A
   and the others q, in O(1): one uniform draw over the total weight. */
static int amp_run(void *state, const sb_shuffle_args *a, sb_src *src,
                   sb_card *out)
{
    (void)state;
    const long bits = a->param[0];
    const uint64_t range = UINT64_C(1) << bits, gain = amp_gain(bits, a->n);
    sb_deck_identity(out, a->n);
    for (size_t i = a->n; i-- > 1;) {
        const uint64_t m = i + 1, q = range / m, r = range % m;
        const uint64_t heavy = q + gain;
        const uint64_t x = sb_below(src, r * heavy + (m - r) * q);
        const uint64_t j = x < r * heavy ? x / heavy
                                         : r + (x - r * heavy) / q;
        sb_deck_swap(out, i, (size_t)j);
    }
    return SB_OK;
}

static const sb_param_def amp_params[] = {
    { "rand-bits", "the generator's bits", 15, 8, 16, NULL },
};

static const sb_shuffle_type amplified_mod = {
    .name = "fisher-yates-mod",
    .summary = "fisher-yates-mod with its modulo bias amplified",
    .source = "diagnosis signature",
    .bias = "",
    .kind = SB_KIND_PERMUTATION,
    .literature = SB_LIT_BIASED,
    .n_min = 1,
    .n_max = 1u << 16,
    .params = amp_params,
    .n_params = 1,
    .run = amp_run,
};

/* ---- residual profiles ---- */

/* One statistic's table as shares of the samples. */
typedef struct block {
    const char *name;          /* the statistic (points into a result or a
                                  type: both outlive the block) */
    size_t rows, cols;
    double *o, *e;             /* observed and expected shares per cell */
    long *lo, *hi;             /* value ranges per cell, NULL: a matrix */
    double samples;            /* N */
    double matrix_noise;       /* a matrix's E|d|^2 under the null */
    double p;                  /* the test's raw p-value */
    int collisions;            /* the birthday test's one count */
    double repeats, mu;        /* ... its repeats and their null mean
                                  (counts) */
} block;

typedef struct profile {
    block *b;
    size_t nb;
} profile;

static void profile_free(profile *p)
{
    for (size_t i = 0; i < p->nb; i++) {
        free(p->b[i].o);
        free(p->b[i].e);
        free(p->b[i].lo);
        free(p->b[i].hi);
    }
    free(p->b);
    memset(p, 0, sizeof *p);
}

/* The profile of a report's results over N samples. */
static int profile_make(const sb_report *rep, double N, profile *p)
{
    memset(p, 0, sizeof *p);
    p->b = calloc(rep->n_results ? rep->n_results : 1, sizeof *p->b);
    if (!p->b)
        return SB_ENOMEM;
    for (size_t i = 0; i < rep->n_results; i++) {
        const sb_result *r = &rep->results[i];
        const sb_table *t = &r->table;
        const size_t cells = t->rows * t->cols;
        if (!r->applicable || !t->observed || !t->expected || cells == 0
            || !(N > 0) || cells > PROFILE_CELLS_MAX
            || (strcmp(r->name, "permutation") == 0
                && cells > PROFILE_ORDERS_MAX))
            continue;
        block *b = &p->b[p->nb];
        b->name = r->name;
        b->rows = t->rows;
        b->cols = t->cols;
        b->samples = N;
        b->p = r->p_underflow ? 0.0 : r->p_value;
        b->collisions = strcmp(r->name, "collisions") == 0;
        b->o = malloc(cells * sizeof *b->o);
        b->e = malloc(cells * sizeof *b->e);
        if (t->lo && t->hi) {
            b->lo = malloc(cells * sizeof *b->lo);
            b->hi = malloc(cells * sizeof *b->hi);
        }
        p->nb++;
        if (!b->o || !b->e || (t->lo && t->hi && (!b->lo || !b->hi))) {
            profile_free(p);
            return SB_ENOMEM;
        }
        double x2 = 0.0;
        for (size_t c = 0; c < cells; c++) {
            b->o[c] = t->observed[c] / N;
            b->e[c] = t->expected[c] / N;
            if (b->lo) {
                b->lo[c] = t->lo[c];
                b->hi[c] = t->hi[c];
            }
            if (t->expected[c] > 0) {
                const double dev = t->observed[c] - t->expected[c];
                x2 += dev * dev / t->expected[c];
            }
        }
        if (b->collisions) {
            b->repeats = t->observed[0];
            b->mu = t->expected[0];
        }
        /* A matrix's statistic is its table's X^2 times a constant (the
           card x position X^2 (n-1)/n against chi-square((n-1)^2)), so
           the table's noise is df times the same constant. */
        size_t live = 0;
        for (size_t c = 0; c < cells; c++)
            live += t->expected[c] > 0;
        if (r->statistic > 0 && x2 > 0 && r->subtests <= 1)
            b->matrix_noise = r->df * (x2 / r->statistic) / N;
        else
            /* Sub-tests combined (the statistic is not the table's X^2):
               every row a table of its own. */
            b->matrix_noise = (double)(live > t->rows ? live - t->rows : 0)
                              / N;
    }
    return SB_OK;
}

/* What a comparison of two blocks of the same statistic sums. */
typedef struct pair_sums {
    double dot;                /* <d_a, d_b> */
    double sq_a, sq_b;         /* |d_a|^2, |d_b|^2 */
    double noise_a, noise_b;   /* their expectations under the null */
    int ok;                    /* 0: the tables do not line up */
} pair_sums;

static void add_cell(pair_sums *s, double oa, double ea, double ob,
                     double eb)
{
    if (!(ea > 0) || !(eb > 0))
        return;
    const double da = (oa - ea) / sqrt(ea), db = (ob - eb) / sqrt(eb);
    s->dot += da * db;
    s->sq_a += da * da;
    s->sq_b += db * db;
}

/* The collision count as one residual: (R - mu) / sqrt(max(mu, 1) N),
   whose square has mean at most 1 / N under the null. */
static double collision_residual(const block *b)
{
    const double mu = b->mu, r = b->repeats;
    return (r - mu) / sqrt((mu > 1.0 ? mu : 1.0) * b->samples);
}

/* Compare one row of two ranged tables on the coarsest grouping both
   refine: walk both partitions, closing a group where their upper ends
   meet. */
static void pair_row(pair_sums *s, const block *a, const block *b,
                     size_t ra, size_t rb)
{
    const size_t ca = a->cols, cb = b->cols;
    const size_t oa = ra * ca, ob = rb * cb;
    size_t i = 0, j = 0, groups = 0;
    while (i < ca || j < cb) {
        double sa_o = 0, sa_e = 0, sb_o = 0, sb_e = 0;
        long hi_a = LONG_MIN, hi_b = LONG_MIN;
        if (i < ca) {
            sa_o += a->o[oa + i];
            sa_e += a->e[oa + i];
            hi_a = a->hi[oa + i];
            i++;
        }
        if (j < cb) {
            sb_o += b->o[ob + j];
            sb_e += b->e[ob + j];
            hi_b = b->hi[ob + j];
            j++;
        }
        while ((i < ca || j < cb) && hi_a != hi_b) {
            if ((hi_a < hi_b && i < ca) || j >= cb) {
                sa_o += a->o[oa + i];
                sa_e += a->e[oa + i];
                hi_a = a->hi[oa + i];
                i++;
            } else {
                sb_o += b->o[ob + j];
                sb_e += b->e[ob + j];
                hi_b = b->hi[ob + j];
                j++;
            }
        }
        add_cell(s, sa_o, sa_e, sb_o, sb_e);
        groups++;
    }
    if (groups > 1) {
        s->noise_a += (double)(groups - 1) / a->samples;
        s->noise_b += (double)(groups - 1) / b->samples;
    }
}

static pair_sums pair_blocks(const block *a, const block *b)
{
    pair_sums s = { 0 };
    if (a->collisions && b->collisions) {
        const double da = collision_residual(a), db = collision_residual(b);
        s.dot = da * db;
        s.sq_a = da * da;
        s.sq_b = db * db;
        s.noise_a = 1.0 / a->samples;
        s.noise_b = 1.0 / b->samples;
        s.ok = 1;
        return s;
    }
    if (a->collisions || b->collisions)
        return s;
    if (a->lo && b->lo && a->rows == b->rows) {
        for (size_t r = 0; r < a->rows; r++)
            pair_row(&s, a, b, r, r);
        s.ok = 1;
        return s;
    }
    if (!a->lo && !b->lo && a->rows == b->rows && a->cols == b->cols) {
        for (size_t c = 0; c < a->rows * a->cols; c++)
            add_cell(&s, a->o[c], a->e[c], b->o[c], b->e[c]);
        s.noise_a = a->matrix_noise;
        s.noise_b = b->matrix_noise;
        s.ok = 1;
    }
    return s;
}

/* The energy of a run's block: its excess over the noise, when its test
   saw something. */
static double seen_energy(const block *a, const pair_sums *s)
{
    if (!(a->p < SEEN_P))
        return 0.0;
    const double x = s->sq_a - s->noise_a;
    return x > 0 ? x : 0.0;
}

/* The energy of a signature's block: its excess over the noise, when that
   excess stands SIG_Z standard deviations above it (a chi-square of k
   degrees of freedom has sd sqrt(2k)). */
static double signature_energy(const block *b, const pair_sums *s)
{
    const double k = s->noise_b * b->samples;
    const double x = (s->sq_b - s->noise_b) * b->samples;
    if (!(x > SIG_Z * sqrt(2.0 * (k > 1.0 ? k : 1.0))))
        return 0.0;
    return x / b->samples;
}

/* The score of a run's profile against a signature's: cosine, scale and
   the signature's energy (0: nothing measured, the score means
   nothing). */
typedef struct match {
    double score, scale, energy;
    double dot;              /* <d_seen, d_flaw> */
} match;

static match compare(const profile *seen, const profile *sig, double floor)
{
    double dot = 0, ea = 0, eb = 0;
    for (size_t i = 0; i < seen->nb; i++) {
        const block *a = &seen->b[i];
        const block *b = NULL;
        for (size_t j = 0; j < sig->nb && !b; j++)
            if (strcmp(sig->b[j].name, a->name) == 0)
                b = &sig->b[j];
        pair_sums s = { 0 };
        if (b)
            s = pair_blocks(a, b);
        if (!s.ok) {
            /* Seen here, but nothing to compare it with: it still counts
               in the length of what was seen. */
            pair_sums alone = pair_blocks(a, a);
            ea += seen_energy(a, &alone);
            continue;
        }
        const double es = signature_energy(b, &s);
        ea += seen_energy(a, &s);
        eb += es;
        if (es > 0)
            dot += s.dot;
    }
    match m = { 0, 0, eb, dot };
    if (ea < floor)
        ea = floor;
    if (ea > 0 && eb > 0) {
        m.score = dot / sqrt(ea * eb);
        m.scale = dot / eb;
    }
    if (m.score < 0)
        m.score = 0;
    if (m.score > 1)
        m.score = 1;
    return m;
}

/* ---- signatures ---- */

typedef struct signature {
    const sb_shuffle_type *type;     /* simulated */
    const char *family;              /* the catalogue name it stands for */
    const flaw_entry *flaw;          /* NULL: not in the table above */
    const char *bias;                /* the catalogue's own sentence */
    sb_shuffle_args args;
    char params[128];
    long strength;                   /* the strength's value, 0: none */
    int amplified;                   /* fisher-yates-mod's twin */
    double gain;                     /* its bias over the real flaw's (1
                                        but for the twin) */
    int probe;                       /* simulated in the first round */
    int made;                        /* prof holds its profile */
    int failed;                      /* could not be simulated: left out */
    profile prof;
} signature;

/* compare, with the scale said of the real flaw rather than of its
   amplified twin. */
static match compare_sig(const profile *seen, const signature *s,
                         double floor)
{
    match m = compare(seen, &s->prof, floor);
    m.scale *= s->gain;
    return m;
}

struct sb_diagnoser {
    unsigned threads;
    volatile sig_atomic_t *stop;
    /* The cache: the shape and statistics the signatures were made for. */
    int made;
    sb_shape shape;
    char stats[512];
    const sb_stat_type *stat_types[STATS_MAX];
    size_t n_stats;
    signature *sigs;
    size_t n_sigs, cap;
    double seconds;                  /* what simulating them took */
    unsigned simulated;              /* how many have been */
};

int sb_diagnoser_new(sb_diagnoser **out, unsigned threads,
                     volatile sig_atomic_t *stop)
{
    *out = calloc(1, sizeof **out);
    if (!*out)
        return SB_ENOMEM;
    (*out)->threads = threads;
    (*out)->stop = stop;
    return SB_OK;
}

static void drop_signatures(sb_diagnoser *d)
{
    for (size_t i = 0; i < d->n_sigs; i++)
        profile_free(&d->sigs[i].prof);
    free(d->sigs);
    d->sigs = NULL;
    d->n_sigs = d->cap = 0;
    d->made = 0;
}

void sb_diagnoser_free(sb_diagnoser *d)
{
    if (!d)
        return;
    drop_signatures(d);
    free(d);
}

static int push(sb_diagnoser *d, const signature *s)
{
    if (d->n_sigs == d->cap) {
        const size_t cap = d->cap ? 2 * d->cap : 64;
        signature *g = realloc(d->sigs, cap * sizeof *g);
        if (!g)
            return SB_ENOMEM;
        d->sigs = g;
        d->cap = cap;
    }
    d->sigs[d->n_sigs++] = *s;
    return SB_OK;
}

/* Set parameter 'name' of 't' in 'a' when it has it. */
static void set_param(const sb_shuffle_type *t, sb_shuffle_args *a,
                      const char *name, long v)
{
    for (size_t k = 0; k < t->n_params; k++)
        if (strcmp(t->params[k].name, name) == 0)
            a->param[k] = v;
}

/* Whether 't' at 'a' makes samples of 'shape'. */
static int fits(const sb_shuffle_type *t, const sb_shuffle_args *a,
                const sb_shape *shape)
{
    if (sb_shuffle_check(t, a, NULL, 0) != SB_OK)
        return 0;
    sb_shape s;
    sb_shuffle_shape(t, a, &s);
    return s.kind == shape->kind && s.n == shape->n && s.len == shape->len
           && s.hands == shape->hands;
}

/* The parameters that make a setting what it is: the strength and the
   enumerated ones ("passes=3", "key-bits=8,sort=exchange"). */
static void format_setting(const sb_shuffle_type *t, const sb_shuffle_args *a,
                           const flaw_entry *f, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t k = 0; k < t->n_params; k++) {
        const sb_param_def *p = &t->params[k];
        const int strength = f && f->strength
                             && strcmp(f->strength, p->name) == 0;
        int w = 0;
        if (p->choices)
            w = snprintf(buf + used, len - used, "%s%s=%s", used ? "," : "",
                         p->name, p->choices[a->param[k]]);
        else if (strength)
            w = snprintf(buf + used, len - used, "%s%s=%ld", used ? "," : "",
                         p->name, a->param[k]);
        if (w > 0 && (size_t)w < len - used)
            used += (size_t)w;
    }
}

/* Every setting of 't' to simulate: each choice of its enumerated
   parameters, times each value of its strength.  Added to d->sigs. */
static int add_settings(sb_diagnoser *d, const sb_shuffle_type *t,
                        const sb_shape *shape)
{
    const flaw_entry *f = flaw_find(t->name);
    sb_shuffle_args base = { .n = shape->n };
    sb_shuffle_defaults(t, &base);
    if (shape->kind == SB_KIND_DEAL && shape->hands) {
        set_param(t, &base, "hands", (long)shape->hands);
        set_param(t, &base, "hand-size", (long)(shape->n / shape->hands));
    }
    /* The enumerated parameters, as an odometer over their choices. */
    size_t choice[SB_PARAMS_MAX] = { 0 }, n_choice[SB_PARAMS_MAX];
    for (size_t k = 0; k < t->n_params; k++) {
        n_choice[k] = 1;
        if (t->params[k].choices) {
            n_choice[k] = 0;
            while (t->params[k].choices[n_choice[k]])
                n_choice[k]++;
        }
    }
    for (;;) {
        sb_shuffle_args a = base;
        for (size_t k = 0; k < t->n_params; k++)
            if (t->params[k].choices)
                a.param[k] = (long)choice[k];
        const long none[] = { 0, 0 };
        const long *values = f && f->strength ? f->values : none;
        for (size_t v = 0; v == 0 || values[v]; v++) {
            sb_shuffle_args b = a;
            const int amplified = strcmp(t->name, "fisher-yates-mod") == 0;
            const sb_shuffle_type *run = amplified ? &amplified_mod : t;
            if (values[v])
                set_param(run, &b, f->strength, values[v]);
            if (!fits(t, &b, shape)
                || (amplified && (UINT64_C(1) << b.param[0]) < shape->n))
                continue;
            signature s = { .type = run, .family = t->name, .flaw = f,
                            .bias = t->bias, .args = b,
                            .strength = values[v], .amplified = amplified,
                            .gain = amplified ? (double)amp_gain(b.param[0],
                                                                 shape->n)
                                              : 1.0,
                            .probe = !values[v] };
            for (size_t k = 0; values[v] && f->probes[k]; k++)
                s.probe |= f->probes[k] == values[v];
            /* The twin's generator width is no parameter of
               fisher-yates-mod: the estimate speaks of it instead. */
            format_setting(t, &b, f, s.params, sizeof s.params);
            int st = push(d, &s);
            if (st != SB_OK)
                return st;
        }
        size_t k = 0;
        while (k < t->n_params && ++choice[k] >= n_choice[k])
            choice[k++] = 0;
        if (k == t->n_params)
            break;
    }
    return SB_OK;
}

/* The statistics of a report, by name.  SB_OK or SB_EINVAL. */
static int report_stats(const sb_report *rep, const sb_stat_type **out,
                        size_t *count, char *names, size_t len)
{
    *count = 0;
    names[0] = '\0';
    size_t used = 0;
    for (size_t i = 0; i < rep->n_results && *count < STATS_MAX; i++) {
        const sb_stat_type *t = sb_stat_find(rep->results[i].name);
        if (!t)
            return SB_EINVAL;
        out[(*count)++] = t;
        const int w = snprintf(names + used, len - used, "%s%s",
                               used ? "," : "", t->name);
        if (w > 0 && (size_t)w < len - used)
            used += (size_t)w;
    }
    return SB_OK;
}

/* The shape of a report's samples: the run says kind and n; a deal's
   hands come from its card x hand table, a draw's length from its card x
   slot table.  0 when it cannot be told. */
static int report_shape(const sb_report *rep, sb_shape *shape)
{
    *shape = (sb_shape){ .kind = rep->run.kind, .n = rep->run.n,
                         .len = rep->run.n };
    for (size_t i = 0; i < rep->n_results; i++) {
        const sb_result *r = &rep->results[i];
        if (shape->kind == SB_KIND_DEAL && strcmp(r->name, "card-hand") == 0
            && r->table.cols)
            shape->hands = (unsigned)r->table.cols;
        if (shape->kind == SB_KIND_DRAW && strcmp(r->name, "card-slot") == 0
            && r->table.cols > 1)
            shape->len = r->table.cols - 1;
    }
    return shape->kind != SB_KIND_DEAL || shape->hands > 0;
}

static int same_shape(const sb_shape *a, const sb_shape *b)
{
    return a->kind == b->kind && a->n == b->n && a->len == b->len
           && a->hands == b->hands;
}

/* Simulate signature i, unless made already. */
/* A setting's seed: SIGNATURE_SEED and its family, parameters and
   strength hashed (FNV-1a), so that its signature is the same whatever
   other settings the catalogue lists before it. */
static uint64_t setting_seed(const signature *s)
{
    char strength[32];
    snprintf(strength, sizeof strength, "/%ld", s->strength);
    uint64_t h = UINT64_C(14695981039346656037);
    const char *parts[] = { s->family, "/", s->params, strength };
    for (size_t k = 0; k < sizeof parts / sizeof parts[0]; k++)
        for (const char *c = parts[k]; *c; c++)
            h = (h ^ (unsigned char)*c) * UINT64_C(1099511628211);
    return SIGNATURE_SEED ^ h;
}

static int simulate(sb_diagnoser *d, size_t i, char *err, size_t len)
{
    signature *s = &d->sigs[i];
    if (s->made || s->failed)
        return SB_OK;
    const double t0 = sb_now();
    sb_run_config cfg = {
        .alg = s->type,
        .args = s->args,
        .samples = SB_DIAGNOSIS_SAMPLES,
        .seed = setting_seed(s),
        .rng = "xoshiro256",
        .stats = d->stat_types,
        .n_stats = d->n_stats,
        .threads = d->threads,
        .stop = d->stop,
    };
    sb_report rep;
    int st = sb_run(&cfg, &rep, err, len);
    if (st != SB_OK && st != SB_ENOMEM) {
        /* A setting that cannot be simulated here (a source it cannot
           draw from) is left out; the others still compare. */
        s->failed = 1;
        if (len)
            err[0] = '\0';
        return SB_OK;
    }
    if (st != SB_OK)
        return st;
    if (rep.run.partial) {
        sb_report_release(&rep);
        snprintf(err, len, "diagnosis stopped");
        return SB_EINTR;
    }
    st = profile_make(&rep, (double)rep.run.done, &s->prof);
    sb_report_release(&rep);
    if (st != SB_OK)
        return st;
    s->made = 1;
    d->seconds += sb_now() - t0;
    d->simulated++;
    return SB_OK;
}

/* List every setting for 'shape' and 'stats' (or keep those listed for
   them already) and simulate the first round: every flaw's probes. */
static int make_signatures(sb_diagnoser *d, const sb_shape *shape,
                           const sb_stat_type *const *stats, size_t n_stats,
                           const char *names, char *err, size_t len)
{
    if (d->made && same_shape(&d->shape, shape)
        && strcmp(d->stats, names) == 0)
        return SB_OK;
    drop_signatures(d);
    d->seconds = 0;
    d->simulated = 0;
    d->n_stats = n_stats;
    memcpy(d->stat_types, stats, n_stats * sizeof stats[0]);
    int st = SB_OK;
    if (shape->len == shape->n || shape->kind == SB_KIND_DEAL)
        for (const sb_shuffle_type *const *t = sb_shuffle_types;
             *t && st == SB_OK; t++)
            if ((*t)->literature == SB_LIT_BIASED
                && (*t)->kind == shape->kind)
                st = add_settings(d, *t, shape);
    for (size_t i = 0; i < d->n_sigs && st == SB_OK; i++)
        if (d->sigs[i].probe)
            st = simulate(d, i, err, len);
    if (st != SB_OK) {
        drop_signatures(d);
        return st;
    }
    d->made = 1;
    d->shape = *shape;
    snprintf(d->stats, sizeof d->stats, "%s", names);
    return SB_OK;
}

/* ---- the words ---- */

/* Where the bias lies: the statistics with the largest shares of the
   energy seen, "cycles 61%, fixed-points 38%". */
static void describe(const profile *seen, char *buf, size_t len)
{
    double e[STATS_MAX] = { 0 }, total = 0;
    const size_t nb = seen->nb < STATS_MAX ? seen->nb : STATS_MAX;
    for (size_t i = 0; i < nb; i++) {
        const pair_sums s = pair_blocks(&seen->b[i], &seen->b[i]);
        e[i] = s.ok ? seen_energy(&seen->b[i], &s) : 0.0;
        total += e[i];
    }
    buf[0] = '\0';
    if (!(total > 0))
        return;
    size_t used = 0;
    for (int k = 0; k < 3; k++) {
        size_t best = nb;
        for (size_t i = 0; i < nb; i++)
            if (e[i] > 0 && (best == nb || e[i] > e[best]))
                best = i;
        if (best == nb || e[best] < 0.05 * total)
            break;
        const int w = snprintf(buf + used, len - used, "%s%s %.0f%%",
                               used ? ", " : "", seen->b[best].name,
                               100.0 * e[best] / total);
        if (w > 0 && (size_t)w < len - used)
            used += (size_t)w;
        e[best] = 0;
    }
    if (used && used < len)
        snprintf(buf + used, len - used, " of the chi-square distance seen");
}

/* log2 of the samples a source can make at 'shape'. */
static double log2_possible(const sb_shape *shape)
{
    const double n = (double)shape->n;
    double lg = lgamma(n + 1.0);
    if (shape->kind == SB_KIND_DEAL && shape->hands)
        lg -= shape->hands * lgamma(n / shape->hands + 1.0);
    else if (shape->kind == SB_KIND_DRAW)
        lg -= lgamma(n - (double)shape->len + 1.0);
    return lg / log(2.0);
}

/* log2 of the reachable samples M of a source that made R repeats where
   a uniform one over all 2^lg_s would make mu.  The samples compared, K,
   follow from mu = K^2 / (2 S) (the birthday mean); then M solves
   M (1 - e^(-K/M)) = K - R, the distinct values expected among K uniform
   draws from M, by bisection on log M.  When R is small against K this
   is the birthday estimate M = K^2 / (2 R) = S mu / R; when most samples
   repeat it stays near the distinct values seen, where the birthday
   estimate would overshoot. */
static double log2_reachable(double lg_s, double mu, double R)
{
    if (!(mu > 0.0) || !(R > 0.0))
        return lg_s;
    const double lg_k = 0.5 * (lg_s + log2(2.0 * mu));
    if (lg_k > 60.0)                  /* K beyond any run: birthday form */
        return lg_s + log2(mu / R);
    const double K = exp2(lg_k), D = K - R;
    if (!(D > 0.0))
        return lg_s + log2(mu / R);
    double lo = log2(D), hi = log2(D) + 256.0;
    for (int it = 0; it < 200; it++) {
        const double mid = 0.5 * (lo + hi), M = exp2(mid);
        if (M * -expm1(-K / M) < D)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

/* "shufflebias exact ALG --n K --param ..." for the run's built-in
   algorithm at a small deck (at most 6 cards, and never more than the
   run's), with the run's parameters or, where they do not suit that deck,
   the algorithm's fitted defaults - or "" when no such walk is known to
   stay within exact mode's default path budget (SB_ENUM_MAX_PATHS_DEFAULT;
   an algorithm that cannot count its paths in advance is not offered). */
/* The next item of a comma-separated list at *cursor, cut in place;
   NULL at the end. */
static char *next_item(char **cursor)
{
    char *item = *cursor;
    if (item == NULL || *item == '\0')
        return NULL;
    char *comma = strchr(item, ',');
    if (comma) {
        *comma = '\0';
        *cursor = comma + 1;
    } else {
        *cursor = NULL;
    }
    return item;
}

static void exact_command(const sb_run_info *run, char *buf, size_t len)
{
    buf[0] = '\0';
    const sb_shuffle_type *t = run->algorithm && !run->plugin && !run->input
                               ? sb_shuffle_find(run->algorithm) : NULL;
    if (t == NULL || t->exact_paths == NULL)
        return;
    const size_t least = run->n < 3 ? run->n : 3;
    for (size_t k = run->n < 6 ? run->n : 6; k >= least && k >= 2; k--) {
        /* The fitted defaults only where the run's own parameters do
           not suit the deck at all (a deal's hands), not where they are
           merely too costly to walk. */
        int unsuited = 0;
        for (int fitted = 0; fitted < 2; fitted++) {
            sb_shuffle_args a = { .n = k };
            if (fitted) {
                if (!unsuited || sb_shuffle_fitted(t, &a, NULL, 0) != SB_OK)
                    continue;
            } else {
                sb_shuffle_defaults(t, &a);
                char list[sizeof run->params];
                snprintf(list, sizeof list, "%s", run->params);
                int ok = 1;
                char *cursor = list;
                for (char *kv; ok && (kv = next_item(&cursor)) != NULL;)
                    ok = sb_shuffle_set_param(t, &a, kv) == SB_OK;
                if (!ok) {
                    unsuited = 1;
                    continue;
                }
            }
            if (sb_shuffle_check(t, &a, NULL, 0) != SB_OK) {
                unsuited = 1;
                continue;
            }
            if (sb_shuffle_exact_refusal(t, &a) != NULL)
                continue;
            const uint64_t paths = t->exact_paths(&a);
            if (paths == 0 || paths > SB_ENUM_MAX_PATHS_DEFAULT)
                continue;
            char params[256];
            sb_shuffle_format_params(t, &a, params, sizeof params);
            size_t used = (size_t)snprintf(buf, len, "shufflebias exact %s "
                                           "--n %zu", t->name, k);
            char *cursor = params;
            for (char *kv; (kv = next_item(&cursor)) != NULL;) {
                const int w = snprintf(buf + used, len - used, " --param %s",
                                       kv);
                if (w < 0 || (size_t)w >= len - used) {
                    buf[0] = '\0';     /* too long to offer whole */
                    return;
                }
                used += (size_t)w;
            }
            return;
        }
    }
}

static void missed_line(sb_report *rep)
{
    sb_diagnosis *g = &rep->diagnosis;
    const sb_run_info *run = &rep->run;
    char command[256], exact[320] = "";
    exact_command(run, command, sizeof command);
    if (command[0])
        snprintf(exact, sizeof exact, "; or '%s' for its exact bias at a "
                 "small deck", command);
    else if (run->plugin)
        snprintf(exact, sizeof exact, "; or 'shufflebias exact' on the "
                 "plug-in at a small deck, for its exact bias");
    else if (run->input && strcmp(run->input->source, "exec") == 0)
        snprintf(exact, sizeof exact, "; or, written as a plug-in, "
                 "'shufflebias exact' for its exact bias at a small deck");
    if (run->input)
        /* --effect sizes the runs the program makes itself. */
        snprintf(g->missed, sizeof g->missed, "a bias smaller than the "
                 "detectable effects; more samples would catch a smaller "
                 "one (the detectable effect shrinks as 1/sqrt(samples))%s",
                 exact);
    else
        snprintf(g->missed, sizeof g->missed, "a bias smaller than the "
                 "detectable effects; to settle one, '--effect E' sizes a "
                 "run that catches it (0.05: one cell 5%% off its rate)%s",
                 exact);
}

/* Whether the size seen is below that of the weakest setting simulated
   of a flaw with a strength (more passes, more key bits than any): its
   match is then only of the shape the weakest setting has. */
#define EDGE_SCALE 0.7
static int at_edge(const signature *s, const match *m)
{
    if (!s->flaw || !s->flaw->strength || !s->strength)
        return 0;
    size_t last = 0;
    while (s->flaw->values[last + 1])
        last++;
    return s->strength == s->flaw->values[last] && m->scale < EDGE_SCALE;
}

/* The energy seen along the signature it lies most along, less its noise
   (the projection on a unit vector has variance 1 / N under the null):
   a floor for the length of what was seen.  A bias that one signature's
   direction catches (the modulo bias, which a directed test sees long
   before the 1,326 cells of its table show any excess) is then not lost
   in the noise of the tables' lengths. */
static double directed_floor(const sb_diagnoser *d, const profile *seen,
                             double N)
{
    double best = 0;
    for (size_t j = 0; j < d->n_sigs; j++) {
        if (!d->sigs[j].made)
            continue;
        const match m = compare(seen, &d->sigs[j].prof, 0.0);
        if (m.dot > 0 && m.energy > 0) {
            const double e = m.dot * m.dot / m.energy - 1.0 / N;
            if (e > best)
                best = e;
        }
    }
    return best;
}

/* The best setting of the family d->sigs[from .. end) among those
   simulated: the best score, and among the settings near it the one whose
   size is nearest the size seen.  NULL when none measured anything. */
static const signature *family_best(const sb_diagnoser *d,
                                    const profile *seen, double floor,
                                    size_t from, size_t end, match *out)
{
    double top = 0;
    for (size_t j = from; j < end; j++) {
        if (!d->sigs[j].made)
            continue;
        const match m = compare_sig(seen, &d->sigs[j], floor);
        if (m.energy > 0 && m.score > top)
            top = m.score;
    }
    const signature *fb = NULL;
    match fm = { 0 };
    for (size_t j = from; j < end; j++) {
        if (!d->sigs[j].made)
            continue;
        const match m = compare_sig(seen, &d->sigs[j], floor);
        if (!(m.energy > 0) || !(m.score > 0) || m.score < top - NEAR_BEST)
            continue;
        const double off = fabs(log(m.scale > 0 ? m.scale : 1e-300));
        if (!fb || off < fabs(log(fm.scale > 0 ? fm.scale : 1e-300))) {
            fb = &d->sigs[j];
            fm = m;
        }
    }
    fm.score = top;
    *out = fm;
    return fb;
}

/* Put a family's best setting 'fb' first ('first'), the former best
   becoming the runner-up, or else second if it beats the runner-up. */
static void rank(const signature *fb, match fm, int first,
                 const signature **best, match *best_m,
                 const signature **second, match *second_m)
{
    if (first) {
        *second = *best;
        *second_m = *best_m;
        *best = fb;
        *best_m = fm;
    } else if (!*second || fm.score > second_m->score) {
        *second = fb;
        *second_m = fm;
    }
}

int sb_diagnose(sb_diagnoser *d, sb_report *rep, char *err, size_t len)
{
    sb_diagnosis *g = &rep->diagnosis;
    memset(g, 0, sizeof *g);
    if (rep->run.partial || rep->run.error)
        return SB_OK;
    if (rep->verdict == SB_VERDICT_PASS) {
        missed_line(rep);
        return SB_OK;
    }
    if (rep->verdict != SB_VERDICT_FAIL)
        return SB_OK;
    g->threshold = SB_DIAGNOSIS_THRESHOLD;
    g->state = SB_DIAGNOSIS_NO_MATCH;
    sb_shape shape;
    const sb_stat_type *stats[STATS_MAX];
    size_t n_stats;
    char names[512];
    int st = report_stats(rep, stats, &n_stats, names, sizeof names);
    if (st != SB_OK || !report_shape(rep, &shape)) {
        snprintf(g->looks, sizeof g->looks, "(the samples' shape is not "
                 "known)");
        return SB_OK;
    }
    if (shape.n > SB_DIAGNOSIS_N_MAX) {
        memset(g, 0, sizeof *g);
        snprintf(err, len, "not made above %u cards (the catalogue's flaws "
                 "would be simulated at %zu cards, which takes minutes); "
                 "'shufflebias test ALG --n 52' on the same shuffle is "
                 "diagnosed", SB_DIAGNOSIS_N_MAX, shape.n);
        return SB_ERANGE;
    }
    const int cached = d->made && same_shape(&d->shape, &shape)
                       && strcmp(d->stats, names) == 0;
    const double seconds_before = cached ? d->seconds : 0.0;
    st = make_signatures(d, &shape, stats, n_stats, names, err, len);
    if (st != SB_OK) {
        memset(g, 0, sizeof *g);
        return st;
    }
    profile seen;
    const double N = (double)rep->run.done;
    st = profile_make(rep, N, &seen);
    if (st != SB_OK) {
        memset(g, 0, sizeof *g);
        return st;
    }
    describe(&seen, g->looks, sizeof g->looks);
    g->signature_samples = SB_DIAGNOSIS_SAMPLES;

    /* Each family's best setting among those simulated; then the
       remaining settings of every family that scores near the best (so
       that two flaws of similar shapes, a riffle and a riffle by hand, are
       compared at their best settings), and the best of each again. */
    double top = 0;
    for (int round = 0; round < 2 && st == SB_OK; round++) {
        const double floor = top - REFINE_MARGIN;
        const double seen_floor = directed_floor(d, &seen, N);
        for (size_t i = 0; i < d->n_sigs && st == SB_OK;) {
            size_t end = i;
            while (end < d->n_sigs
                   && strcmp(d->sigs[end].family, d->sigs[i].family) == 0)
                end++;
            match fm;
            const signature *fb = family_best(d, &seen, seen_floor, i, end, &fm);
            if (round == 0 && fb && fm.score > top)
                top = fm.score;
            if (round == 1 && fb && fm.score >= floor)
                for (size_t j = i; j < end && st == SB_OK; j++)
                    st = simulate(d, j, err, len);
            i = end;
        }
    }
    if (st != SB_OK) {
        profile_free(&seen);
        memset(g, 0, sizeof *g);
        return st;
    }
    const signature *best = NULL, *second = NULL;
    match best_m = { 0 }, second_m = { 0 };
    const double seen_floor = directed_floor(d, &seen, N);
    for (size_t i = 0; i < d->n_sigs;) {
        size_t end = i;
        while (end < d->n_sigs
               && strcmp(d->sigs[end].family, d->sigs[i].family) == 0)
            end++;
        match fm;
        const signature *fb = family_best(d, &seen, seen_floor, i, end, &fm);
        if (fb && best && fabs(fm.score - best_m.score) <= NEAR_BEST
            && at_edge(fb, &fm) != at_edge(best, &best_m)) {
            /* Two flaws of one shape (a stopping rule that stops early,
               and a riffle of many passes): not the one whose bias is
               smaller than at any setting simulated. */
            rank(fb, fm, at_edge(best, &best_m), &best, &best_m, &second,
                 &second_m);
        } else if (fb && best && fabs(fm.score - best_m.score) <= SAME_SCORE) {
            /* Scores alike: the one that has the size seen. */
            rank(fb, fm, fabs(log(fm.scale)) < fabs(log(best_m.scale)),
                 &best, &best_m, &second, &second_m);
        } else if (fb && (!best || fm.score > best_m.score)) {
            second = best;
            second_m = best_m;
            best = fb;
            best_m = fm;
        } else if (fb && (!second || fm.score > second_m.score)) {
            second = fb;
            second_m = fm;
        }
        i = end;
    }
    g->signatures = d->simulated;
    g->seconds = d->seconds - seconds_before;

    /* Too few states: the collision count alone. */
    double rep_score = 0, ea = 0, col = 0;
    const block *cb = NULL;
    for (size_t i = 0; i < seen.nb; i++) {
        const pair_sums s = pair_blocks(&seen.b[i], &seen.b[i]);
        if (!s.ok)
            continue;
        ea += seen_energy(&seen.b[i], &s);
        if (seen.b[i].collisions) {
            cb = &seen.b[i];
            col = collision_residual(cb);
        }
    }
    if (ea < seen_floor)
        ea = seen_floor;
    if (cb && col > 0 && ea > 0 && cb->p < SEEN_P)
        rep_score = fmin(1.0, col / sqrt(ea));

    const char *name = best ? best->family : "";
    double score = best ? best_m.score : 0.0;
    if (rep_score > score) {
        if (best) {
            second = best;
            second_m = best_m;
        }
        best = NULL;
        name = repeated_name;
        score = rep_score;
    }
    snprintf(g->name, sizeof g->name, "%s", name);
    g->score = score;
    if (second) {
        snprintf(g->runner_up, sizeof g->runner_up, "%s", second->family);
        g->runner_up_score = second_m.score;
    }
    if (name == repeated_name) {
        snprintf(g->flaw, sizeof g->flaw, "%s", repeated_what);
        snprintf(g->advice, sizeof g->advice, "%s", repeated_fix);
        g->scale = 1.0;
        const double R = cb->repeats, mu = cb->mu;
        const double lg = log2_reachable(log2_possible(&shape), mu, R);
        snprintf(g->estimate, sizeof g->estimate, "about 2^%.1f reachable "
                 "%s (%.0f repeats in %.0f samples)", lg,
                 shape.kind == SB_KIND_DEAL ? "deals" : shape.kind
                 == SB_KIND_DRAW ? "hands" : "decks", R, cb->samples);
    } else if (best) {
        snprintf(g->params, sizeof g->params, "%s", best->params);
        g->scale = best_m.scale;
        if (best->flaw) {
            snprintf(g->flaw, sizeof g->flaw, "%s", best->flaw->what);
            snprintf(g->advice, sizeof g->advice, "%s", best->flaw->fix);
        } else {
            snprintf(g->flaw, sizeof g->flaw, "%s", best->bias);
            snprintf(g->advice, sizeof g->advice, "see 'shufflebias list' "
                     "for '%s' and use a fair shuffle (Fisher-Yates)",
                     best->family);
        }
        if (best->amplified) {
            const int edge = at_edge(best, &best_m);
            snprintf(g->estimate, sizeof g->estimate, "a rand() of %s%ld "
                     "bits reduced with %% (i+1) (its favoured residues fit "
                     "best; the bias seen is %.2g of such a generator's)",
                     edge ? "at least " : "about ", best->strength,
                     best_m.scale);
        } else if (best->flaw && best->flaw->strength) {
            const int edge = at_edge(best, &best_m);
            snprintf(g->estimate, sizeof g->estimate, "%s%ld %s (the setting "
                     "whose bias has the size seen)", edge ? "at least "
                     : "about ", best->strength, best->flaw->strength);
        }
    }
    if (!g->looks[0] && score > 0)
        snprintf(g->looks, sizeof g->looks, "no table's excess stands out "
                 "of its noise: the bias lies along one direction, which a "
                 "directed test saw");
    /* A shape needs room: a bias seen by tables of one degree of freedom
       in all (new-age-solitaire alone) points the way every flaw that
       moves that one number points, and tells them apart by nothing. */
    size_t shape_df = 0;
    for (size_t i = 0; i < seen.nb; i++) {
        const block *b = &seen.b[i];
        if (!b->collisions && b->p < SEEN_P)
            shape_df += b->rows * b->cols - b->rows;
    }
    if (score >= SB_DIAGNOSIS_THRESHOLD
        && (shape_df >= 2 || name == repeated_name))
        g->state = SB_DIAGNOSIS_MATCH;
    else if (score >= SB_DIAGNOSIS_THRESHOLD)
        snprintf(g->looks, sizeof g->looks, "seen by one degree of freedom "
                 "in all, which every flaw that moves it matches: too little "
                 "to tell flaws apart (run more statistics)");
    profile_free(&seen);
    return SB_OK;
}

int sb_diagnose_once(sb_report *rep, unsigned threads,
                     volatile sig_atomic_t *stop, char *err, size_t len)
{
    sb_diagnoser *d;
    if (sb_diagnoser_new(&d, threads, stop) != SB_OK) {
        snprintf(err, len, "out of memory");
        return SB_ENOMEM;
    }
    const int st = sb_diagnose(d, rep, err, len);
    sb_diagnoser_free(d);
    return st;
}
