/*
 * mixing.c - 'shufflebias mixing ALG': how many passes of a pass-based
 * shuffle are enough.
 *
 * For each pass count of a list it gives, where the mathematics allows,
 * the exact total-variation and separation distances from uniform, and
 * always what the battery sees at a stated number of decks: each
 * statistic's measured effect and verdict, and the decks each would need
 * to catch that many passes with power 0.9 (the plan of stats/plan.h
 * applied to the effect it measured).
 *
 * Exact distances come from one of two places:
 *  - the GSR riffle and its inverse: the rising-sequence law of Bayer
 *    and Diaconis (stats/gsr_law.h), at any n up to SB_GSR_LAW_N_MAX;
 *  - any shuffle Markov in its deck (shufflebias/markov.h) at up to
 *    EXACT_N_MAX cards: one walk over its states (src/engine/markov.h)
 *    with as many passes as the most listed, read after every pass; the
 *    law over decks also gives New Age Solitaire's exact odds.
 *
 * A measured row is exactly 'shufflebias test ALG --param passes=K' at
 * the same seed and decks, so that any row can be looked at alone.  At
 * 52 cards (any deck 4 hands divide) a bridge deal made from the
 * shuffled deck, dealt round the table, goes through the deal battery
 * too: the game a card table plays with the deck.
 *
 * The default list of passes is 1 to 10, then a quarter more each time,
 * until the battery has passed at two pass counts in a row (the measured
 * curve has crossed the number of decks asked for) or at --max-passes:
 * the answer "how many passes can the battery still tell apart at N
 * decks" is then in the table and said under it.
 */
#include "cli/options.h"

#include <gmp.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/registry.h"
#include "base/rng.h"
#include "engine/markov.h"
#include "engine/runner.h"
#include "reports/mixing.h"
#include "reports/render.h"
#include "shufflebias/status.h"
#include "sources/plugin.h"
#include "stats/battery.h"
#include "stats/exact.h"
#include "stats/gsr_law.h"
#include "stats/plan.h"
#include "stats/registry.h"

/* Exact distances by the walk over states up to this many cards (8! =
   40,320 decks: a riffle's 20 passes take under a minute). */
#define EXACT_N_MAX 8
/* The most pass counts one run lists. */
#define ROWS_MAX 512
/* The default list: every count up to this, then a quarter more each. */
#define DENSE_PASSES 10
/* With no deck measured the default list cannot end on the battery's
   verdicts: it ends at the first pass count whose exact total-variation
   distance is below EXACT_TV_FLOOR, and goes no further than
   EXACT_PASSES_MAX. */
#define EXACT_TV_FLOOR 1e-4
#define EXACT_PASSES_MAX 100u

typedef struct mixing_options {
    const char *alg, *json, *markdown, *html, *passes;
    const char *plugin;       /* --plugin SO: the shuffle of a plug-in */
    const char *command_line;
    uint64_t n, samples, seed, max_passes;
    int seed_given;
    unsigned threads;
    uint64_t memory;
    int quiet, no_bridge, no_exact;
    sb_cli_params params;
    sb_render_opts render;
} mixing_options;

#define ROW(name, arg, field, fn, help) \
    SB_OPT_ROW(name, 0, arg, mixing_options, field, SB_OPT_NOWHERE, fn, help)

/* --samples N: a count, or 0 for the exact columns alone (the counts of
   the other commands start at 1). */
static int set_samples(const sb_option *opt, const char *arg, void *base)
{
    (void)opt;
    mixing_options *o = base;
    if (strcmp(arg, "0") == 0) {
        o->samples = 0;
        return 0;
    }
    if (sb_cli_parse_count(arg, &o->samples) == 0)
        return 0;
    sb_cli_error("invalid --samples '%s': expected 0 (the exact columns "
                 "alone) or a count such as 200000, 1e6 or 10M", arg);
    return -1;
}

static const sb_option options[] = {
    ROW("n", "N", n, sb_opt_n, "deck size (default 52)"),
    ROW("plugin", "SO", plugin, sb_opt_string,
        "the shuffle of a C plug-in with a 'passes' parameter (the one "
        "called NAME when it holds several); exact figures when it "
        "declares its passes with SB_PLUGIN_MARKOV"),
    ROW("passes", "LIST", passes, sb_opt_string,
        "the pass counts, such as 1-12 or 1,2,4,8,100 (default: 1 to 10, "
        "then a quarter more each time until the battery has passed "
        "twice in a row or --max-passes)"),
    ROW("max-passes", "K", max_passes, sb_opt_count,
        "where the default list stops at the latest (default 10000; 100 "
        "with --samples 0, where it stops once the exact distance is "
        "below 1e-4)"),
    ROW("samples", "N", samples, set_samples,
        "decks measured per pass count (default 1e5; 0: exact columns "
        "only)"),
    SB_OPT_ROW("seed", 0, "S", mixing_options, seed,
               offsetof(mixing_options, seed_given), sb_opt_seed,
               "seed of every measured run (default: a fresh one, "
               "printed)"),
    ROW("threads", "T", threads, sb_opt_threads,
        "threads of each run (default: the processors online)"),
    ROW("param", "K=V", params, sb_opt_param,
        "another parameter of the shuffle (repeatable; not passes)"),
    ROW("memory", "SIZE", memory, sb_opt_memory,
        "memory budget of each run and of the exact walk, such as 512M"),
    ROW("no-exact", NULL, no_exact, sb_opt_flag,
        "leave out the exact columns"),
    ROW("no-bridge", NULL, no_bridge, sb_opt_flag,
        "leave out the bridge deal made from the shuffled deck"),
    ROW("json", "FILE|-", json, sb_opt_string,
        "also write the report as JSON ('-': stdout, no table)"),
    ROW("markdown", "FILE", markdown, sb_opt_string,
        "also write the report as Markdown"),
    ROW("html", "FILE", html, sb_opt_string,
        "one self-contained page with the curves: distance against passes, "
        "decks needed against passes"),
    ROW("no-timing", NULL, render.no_timing, sb_opt_flag,
        "leave out of the reports what differs between runs (time, "
        "threads), so that they compare byte for byte"),
    ROW("quiet", NULL, quiet, sb_opt_flag, "print nothing but errors"),
    SB_OPT_HELP,
    SB_OPT_END
};

const sb_command sb_command_mixing = {
    .name = "mixing",
    .run = sb_cmd_mixing,
    .summary = "how many passes are enough: distance, decks needed",
    .synopsis =
    "usage: shufflebias mixing ALG [options]\n"
    "       shufflebias mixing --plugin SO [NAME] [options]\n"
    "\n"
    "For a shuffle with a 'passes' parameter (riffle, inverse-riffle,\n"
    "human-packet, overhand), for each pass count: the exact total-variation\n"
    "and separation distances from uniform where they are known (the\n"
    "rising-sequence law for the riffles, the walk over decks up to 8\n"
    "cards), and what the battery sees at --samples decks: its verdict and\n"
    "the decks it would need to catch that many passes with power 0.9.\n",
    .options = options,
    .epilogue =
    "Exit codes: 0 when every pass count listed is done (the table says\n"
    "what the battery caught), 2 usage error or a run that failed, 130\n"
    "interrupted (the pass counts done are reported).\n",
};

/* ---- the list of passes ------------------------------------------------ */

/* "1-12", "1,2,4,8", "1-10,20,50": ascending, no repeat, each 1 .. max.
   0 and the count, or -1 after printing the error. */
static int parse_passes(const char *s, unsigned long max,
                        unsigned long *out, size_t *count)
{
    size_t m = 0;
    const char *p = s;
    while (*p) {
        char *end;
        unsigned long a = strtoul(p, &end, 10), b = a;
        if (end == p)
            goto bad;
        if (*end == '-') {
            const char *q = end + 1;
            b = strtoul(q, &end, 10);
            if (end == q)
                goto bad;
        }
        if (a < 1 || b < a || b > max)
            goto bad;
        for (unsigned long k = a; k <= b; k++) {
            if (m == ROWS_MAX) {
                sb_cli_error("--passes '%s': more than %d pass counts", s,
                             ROWS_MAX);
                return -1;
            }
            if (m > 0 && k <= out[m - 1])
                goto bad;
            out[m++] = k;
        }
        if (*end == ',')
            end++;
        else if (*end)
            goto bad;
        p = end;
    }
    if (m == 0)
        goto bad;
    *count = m;
    return 0;
bad:
    sb_cli_error("invalid --passes '%s': expected ascending pass counts "
                 "from 1 to %lu, such as 1-12 or 1,2,4,8", s, max);
    return -1;
}

/* The default list after 'k' passes. */
static unsigned long next_passes(unsigned long k)
{
    if (k < DENSE_PASSES)
        return k + 1;
    return k + (k + 3) / 4;
}

/* ---- the bridge deal made from the shuffled deck ----------------------- */

/* A deal wrapped round a built-in pass shuffle: the shuffle's deck dealt
   one card at a time to 4 hands in turn.  The wrapper's type has no
   parameters of its own: the arguments go to the shuffle unchanged. */
typedef struct deal_state {
    void *inner;
    sb_card *deck;
} deal_state;

static int deal_init(const sb_shuffle_type *t, void **state,
                     const sb_shuffle_args *a)
{
    deal_state *d = calloc(1, sizeof *d);
    if (!d)
        return SB_ENOMEM;
    d->deck = malloc(a->n * sizeof *d->deck);
    int rc = d->deck ? SB_OK : SB_ENOMEM;
    if (rc == SB_OK && t->init)
        rc = t->init(&d->inner, a);
    if (rc != SB_OK) {
        free(d->deck);
        free(d);
        return rc;
    }
    *state = d;
    return SB_OK;
}

static void deal_free(const sb_shuffle_type *t, void *state)
{
    deal_state *d = state;
    if (!d)
        return;
    if (d->inner && t->free)
        t->free(d->inner);
    free(d->deck);
    free(d);
}

static void deal_reset(const sb_shuffle_type *t, void *state,
                       const sb_shuffle_args *a)
{
    deal_state *d = state;
    if (t->reset)
        t->reset(d->inner, a);
}

static int deal_run(const sb_shuffle_type *t, void *state,
                    const sb_shuffle_args *a, sb_src *src, sb_card *out)
{
    deal_state *d = state;
    int rc = t->run(d->inner, a, src, d->deck);
    for (size_t j = 0; rc == SB_OK && j < a->n; j++)
        out[d->deck[j]] = (sb_card)(j % 4);
    return rc;
}

static unsigned four_hands(const sb_shuffle_args *a)
{
    (void)a;
    return 4;
}

static int deal_check(const sb_shuffle_args *a, char *why, size_t len)
{
    if (a->n % 4 == 0)
        return SB_OK;
    snprintf(why, len, "deals to 4 hands, which %zu cards do not fill "
             "alike", a->n);
    return SB_EINVAL;
}

#define BRIDGE_OF(NAME, INNER)                                              \
    static int NAME##_init(void **s, const sb_shuffle_args *a)              \
    { return deal_init(&INNER, s, a); }                                     \
    static void NAME##_free(void *s) { deal_free(&INNER, s); }              \
    static void NAME##_reset(void *s, const sb_shuffle_args *a)             \
    { deal_reset(&INNER, s, a); }                                           \
    static int NAME##_run(void *s, const sb_shuffle_args *a, sb_src *src,   \
                          sb_card *out)                                     \
    { return deal_run(&INNER, s, a, src, out); }                            \
    static const sb_shuffle_type NAME = {                                   \
        .name = "bridge-deal", .kind = SB_KIND_DEAL,                        \
        .summary = "a shuffled deck dealt round the table to 4 hands",      \
        .n_min = 4, .n_max = SB_DECK_MAX, .check = deal_check,             \
        .hands = four_hands, .init = NAME##_init, .free = NAME##_free,      \
        .reset = NAME##_reset, .run = NAME##_run,                           \
    };

BRIDGE_OF(bridge_riffle, sb_shuffle_riffle)
BRIDGE_OF(bridge_inverse_riffle, sb_shuffle_inverse_riffle)
BRIDGE_OF(bridge_human_packet, sb_shuffle_human_packet)
BRIDGE_OF(bridge_overhand, sb_shuffle_overhand)

/* The bridge deal of built-in 't', or NULL. */
static const sb_shuffle_type *bridge_of(const sb_shuffle_type *t)
{
    static const struct {
        const sb_shuffle_type *inner, *deal;
    } table[] = {
        { &sb_shuffle_riffle, &bridge_riffle },
        { &sb_shuffle_inverse_riffle, &bridge_inverse_riffle },
        { &sb_shuffle_human_packet, &bridge_human_packet },
        { &sb_shuffle_overhand, &bridge_overhand },
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (table[i].inner == t)
            return table[i].deal;
    return NULL;
}

/* ---- one measured run -------------------------------------------------- */

typedef struct mixing {
    const sb_cli *cli;
    const mixing_options *o;
    const sb_shuffle_type *t;
    sb_shuffle_args args;      /* passes set per row */
    size_t passes_at;          /* the index of 'passes' in t->params */
    const sb_plugin_handle *plugin;  /* the plug-in of 't', or NULL */
    int trim;                  /* the default list with no deck measured:
                                  it ends below EXACT_TV_FLOOR */
    sb_mixing_report rep;
} mixing;

/* Run 'alg' (the shuffle or its bridge deal) at 'args' with the default
   battery of its shape.  SB_OK with 'out' filled; another status after
   printing the error. */
static int measure(const mixing *mx, const sb_shuffle_type *alg,
                   const sb_shuffle_args *args, sb_report *out)
{
    sb_shape shape;
    sb_shuffle_shape(alg, args, &shape);
    const sb_stat_type *stats[SB_STAT_DEFAULTS_MAX];
    const size_t n_stats = sb_stat_defaults(&shape, stats,
                                            SB_STAT_DEFAULTS_MAX);
    const sb_run_config cfg = {
        .alg = alg,
        .args = *args,
        .samples = mx->o->samples,
        .seed = mx->o->seed,
        .rng = SB_RNG_DEFAULT,
        .stats = stats,
        .n_stats = n_stats,
        .threads = mx->o->threads,
        .stop = mx->cli->stop,
        .memory = mx->o->memory,
        .plugin = alg == mx->t ? mx->o->plugin : NULL,
    };
    char err[512];
    int rc = sb_run(&cfg, out, err, sizeof err);
    if (rc != SB_OK)
        sb_cli_error("%s with passes=%ld: %s", mx->t->name,
                     args->param[mx->passes_at], err);
    return rc;
}

/* The decks statistic 'r' needs to catch the effect it measured with
   power 0.9: planned only from an effect it saw (not a pass), 0 else. */
static uint64_t decks_needed(const sb_result *r, const sb_shape *shape,
                             size_t n_stats)
{
    if (!r->applicable || r->verdict == SB_VERDICT_PASS
        || r->verdict == SB_VERDICT_NA || !(r->effect > 0))
        return 0;
    const sb_stat_type *t = sb_stat_find(r->name);
    if (!t)
        return 0;
    const sb_plan_effect e = {
        .unit = SB_PLAN_DISTANCE, .value = r->effect, .power = 0.9,
        .alpha = SB_FAIL_ALPHA / (double)(n_stats ? n_stats : 1),
    };
    sb_plan_row row;
    if (sb_plan_stat(t, shape, &e, &row) != SB_OK || !row.planned)
        return 0;
    return row.samples;
}

/* The measured columns of 'row'.  SB_OK, SB_EINTR, or another status
   after printing the error. */
static int measure_row(mixing *mx, sb_mixing_row *row)
{
    sb_report rep;
    int rc = measure(mx, mx->t, &mx->args, &rep);
    if (rc != SB_OK)
        return rc;
    if (rep.run.partial) {
        sb_report_release(&rep);
        return SB_EINTR;
    }
    sb_shape shape;
    sb_shuffle_shape(mx->t, &mx->args, &shape);
    row->stats = calloc(rep.n_results ? rep.n_results : 1,
                        sizeof *row->stats);
    if (!row->stats) {
        sb_report_release(&rep);
        sb_cli_error("out of memory");
        return SB_ENOMEM;
    }
    row->measured = 1;
    row->verdict = rep.verdict;
    const sb_result *worst = sb_report_worst(&rep);
    row->decider = worst ? worst->name : NULL;
    row->p = worst ? worst->p_adjusted : NAN;
    for (size_t i = 0; i < rep.n_results; i++) {
        const sb_result *r = &rep.results[i];
        sb_mixing_stat *s = &row->stats[row->n_stats++];
        s->name = r->name;
        s->effect = r->effect;
        s->p = r->p_adjusted;
        s->verdict = r->verdict;
        s->decks = decks_needed(r, &shape, rep.n_results);
        if (s->decks && (!row->decks || s->decks < row->decks)) {
            row->decks = s->decks;
            row->decks_by = s->name;
        }
        /* New Age Solitaire's measured odds, where no exact ones are. */
        if (strcmp(r->name, sb_stat_new_age_solitaire.name) == 0
            && r->applicable && r->table.observed && !row->solitaire_exact)
            row->solitaire = r->table.observed[0]
                           / (r->table.observed[0] + r->table.observed[1]);
    }
    sb_report_release(&rep);

    const sb_shuffle_type *deal = mx->o->no_bridge || mx->plugin ? NULL
                                : bridge_of(mx->t);
    char why[256];
    if (deal && sb_shuffle_check(deal, &mx->args, why, sizeof why) == SB_OK) {
        rc = measure(mx, deal, &mx->args, &rep);
        if (rc == SB_OK && rep.run.partial) {
            sb_report_release(&rep);
            rc = SB_EINTR;
        }
        if (rc != SB_OK) {
            /* The row is not kept: nothing of it stays behind. */
            free(row->stats);
            row->stats = NULL;
            row->n_stats = 0;
            row->measured = 0;
            return rc;
        }
        worst = sb_report_worst(&rep);
        row->bridge = 1;
        row->bridge_verdict = rep.verdict;
        row->bridge_decider = worst ? worst->name : NULL;
        row->bridge_p = worst ? worst->p_adjusted : NAN;
        sb_report_release(&rep);
    }
    return SB_OK;
}

/* ---- exact columns ----------------------------------------------------- */

static int set_exact(sb_mixing_row *row, const mpq_t tv, const mpq_t sep)
{
    row->tv_exact = sb_exact_fraction_str(tv);
    row->separation_exact = sb_exact_fraction_str(sep);
    row->tv = mpq_get_d(tv);
    row->separation = mpq_get_d(sep);
    return row->tv_exact && row->separation_exact ? SB_OK : SB_ENOMEM;
}

/* The riffles' exact distances from the rising-sequence law. */
static int exact_gsr(mixing *mx)
{
    sb_gsr_law *law;
    int rc = sb_gsr_law_new(&law, mx->args.n, mx->cli->stop);
    if (rc != SB_OK)
        return rc;
    mpq_t tv, sep;
    mpq_inits(tv, sep, NULL);
    for (size_t i = 0; i < mx->rep.n_rows && rc == SB_OK; i++) {
        sb_mixing_row *row = &mx->rep.rows[i];
        rc = sb_gsr_law_distances(law, (unsigned)row->passes, tv, sep,
                                  mx->cli->stop);
        if (rc == SB_OK)
            rc = set_exact(row, tv, sep);
        if (rc == SB_OK && mx->trim && row->tv < EXACT_TV_FLOOR)
            mx->rep.n_rows = i + 1;
    }
    mpq_clears(tv, sep, NULL);
    sb_gsr_law_free(law);
    return rc;
}

/* What the walk over states reads after every step. */
typedef struct walk_ctx {
    mixing *mx;
    size_t steps_per_pass;
    size_t next;               /* the next row to fill */
} walk_ctx;

/* After 'steps' steps: when they make a listed pass count, its distances
   and New Age Solitaire's exact odds. */
static int after_step(void *ctx, size_t steps, const sb_markov_law *law)
{
    walk_ctx *w = ctx;
    mixing *mx = w->mx;
    if (steps % w->steps_per_pass != 0 || w->next == mx->rep.n_rows)
        return SB_OK;
    sb_mixing_row *row = &mx->rep.rows[w->next];
    if (steps / w->steps_per_pass != row->passes)
        return SB_OK;
    w->next++;
    mpq_t tv, sep, p, win;
    mpq_inits(tv, sep, p, win, NULL);
    sb_markov_law_distances(law, tv, sep);
    int rc = set_exact(row, tv, sep);
    const size_t n = sb_markov_law_n(law);
    sb_card deck[SB_MARKOV_N_MAX], pos[SB_MARKOV_N_MAX];
    if (n >= 4) {
        for (size_t i = 0; i < sb_markov_law_count(law); i++) {
            sb_markov_law_deck(law, i, deck);
            if (!sb_new_age_alice_wins(deck, n, pos))
                continue;
            sb_markov_law_prob(law, i, p);
            mpq_add(win, win, p);
        }
        row->solitaire_exact = sb_exact_fraction_str(win);
        row->solitaire = mpq_get_d(win);
        if (!row->solitaire_exact)
            rc = SB_ENOMEM;
    }
    if (rc == SB_OK && mx->trim && row->tv < EXACT_TV_FLOOR) {
        mx->rep.n_rows = w->next;
        rc = SB_MARKOV_ENOUGH;
    }
    mpq_clears(tv, sep, p, win, NULL);
    return rc;
}

/* A Markov shuffle's exact distances: one walk with the most passes. */
static int exact_states(mixing *mx, const sb_markov *m)
{
    sb_shuffle_args one = mx->args;
    one.param[mx->passes_at] = 1;
    walk_ctx w = { mx, m->steps(&one), 0 };
    if (w.steps_per_pass == 0)
        return SB_ENOTSUP;
    sb_enum_config cfg = {
        .alg = mx->t,
        .args = mx->args,
        .max_paths = SB_ENUM_MAX_PATHS_DEFAULT,
        .stop = mx->cli->stop,
        .memory = mx->o->memory,
    };
    cfg.args.param[mx->passes_at] =
        (long)mx->rep.rows[mx->rep.n_rows - 1].passes;
    if (m->steps(&cfg.args) != w.steps_per_pass
                               * mx->rep.rows[mx->rep.n_rows - 1].passes)
        return SB_ENOTSUP;
    sb_shape shape;
    sb_shuffle_shape(mx->t, &cfg.args, &shape);
    /* The walk writes Alice's exact odds over the measured share of
       each row it reaches: keep the shares for a walk cut short. */
    double measured[ROWS_MAX];
    for (size_t i = 0; i < mx->rep.n_rows; i++)
        measured[i] = mx->rep.rows[i].solitaire;
    char err[512];
    int rc = sb_markov_walk(&cfg, m, &shape, after_step, &w, NULL, NULL, err,
                            sizeof err);
    if (rc == SB_ERANGE) {
        /* Too long a walk: the measured columns stand alone. */
        if (!mx->o->quiet)
            fprintf(stderr, "shufflebias: no exact distances: %s\n", err);
        for (size_t i = 0; i < mx->rep.n_rows; i++) {
            sb_mixing_row *row = &mx->rep.rows[i];
            free(row->tv_exact);
            free(row->separation_exact);
            free(row->solitaire_exact);
            row->tv_exact = row->separation_exact = NULL;
            row->solitaire_exact = NULL;
            row->tv = row->separation = NAN;
            row->solitaire = measured[i];
        }
        return SB_ENOTSUP;
    }
    if (rc != SB_OK && rc != SB_EINTR)
        sb_cli_error("exact distances of %s: %s", mx->t->name, err);
    return rc;
}

/* ---- the command ------------------------------------------------------- */

/* "k=v,..." of every parameter but passes. */
static void other_params(const sb_shuffle_type *t, const sb_shuffle_args *a,
                         size_t passes_at, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < t->n_params && used < len; i++) {
        if (i == passes_at)
            continue;
        const sb_param_def *d = &t->params[i];
        const long v = a->param[i];
        const int w = d->choices
            ? snprintf(buf + used, len - used, "%s%s=%s", used ? "," : "",
                       d->name, d->choices[v])
            : snprintf(buf + used, len - used, "%s%s=%ld", used ? "," : "",
                       d->name, v);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

static int parse(int argc, char **argv, mixing_options *o)
{
    *o = (mixing_options){ .n = 52, .samples = 100000, .max_passes = 10000,
                           .threads = sb_cli_threads_default() };
    int next;
    const int rc = sb_options_parse(&sb_command_mixing, argc, argv, o,
                                    &next);
    if (rc != 0)
        return rc;
    return sb_cli_shuffle_name("mixing", argc, argv, next, o->plugin,
                               &o->alg);
}

/* The answer under the table: the most passes the battery failed, and
   the fewest above them it passed. */
static void answer(sb_mixing_report *rep)
{
    rep->caught = rep->missed = 0;
    for (size_t i = 0; i < rep->n_rows; i++) {
        const sb_mixing_row *r = &rep->rows[i];
        if (r->measured && r->verdict == SB_VERDICT_FAIL)
            rep->caught = r->passes;
    }
    for (size_t i = 0; i < rep->n_rows; i++) {
        const sb_mixing_row *r = &rep->rows[i];
        if (r->measured && r->passes > rep->caught
            && r->verdict == SB_VERDICT_PASS) {
            rep->missed = r->passes;
            break;
        }
    }
}

/* The last two of the first 'done' rows passed. */
static int passed_twice(const sb_mixing_row *rows, size_t done)
{
    return done >= 2 && rows[done - 1].verdict == SB_VERDICT_PASS
        && rows[done - 2].verdict == SB_VERDICT_PASS;
}

static int write_reports(const mixing *mx, int code)
{
    const mixing_options *o = mx->o;
    sb_render_opts ro = o->render;
    ro.command_line = o->command_line;
    sb_outfile out;
    if (!o->quiet && !(o->json && strcmp(o->json, "-") == 0)) {
        if (sb_cli_open_out(&out, "-") != 0)
            return SB_EXIT_USAGE;
        sb_cli_finish_out(&out, sb_render_mixing_text(out.f, &mx->rep,
                                                      &ro));
    }
    if (o->json) {
        if (sb_cli_open_out(&out, o->json) != 0)
            return SB_EXIT_USAGE;
        json_t *root = sb_mixing_json(&mx->rep, &ro);
        const int rc = sb_cli_close_out(&out, root
                                        && sb_render_json_value(out.f, root)
                                           == SB_OK);
        if (rc != 0)
            return rc < 0 ? SB_EXIT_USAGE : SB_EXIT_INTERRUPTED;
    }
    if (o->markdown) {
        if (sb_cli_open_out(&out, o->markdown) != 0)
            return SB_EXIT_USAGE;
        const int rc = sb_cli_finish_out(&out, sb_render_mixing_markdown(
                                                   out.f, &mx->rep, &ro));
        if (rc != 0)
            return rc < 0 ? SB_EXIT_USAGE : SB_EXIT_INTERRUPTED;
    }
    if (o->html) {
        if (sb_cli_open_out(&out, o->html) != 0)
            return SB_EXIT_USAGE;
        const int rc = sb_cli_finish_out(&out, sb_render_mixing_html(
                                                   out.f, &mx->rep, &ro));
        if (rc != 0)
            return rc < 0 ? SB_EXIT_USAGE : SB_EXIT_INTERRUPTED;
    }
    return code;
}

static int run_mixing(mixing *mx, const unsigned long *list, size_t count)
{
    const mixing_options *o = mx->o;
    sb_mixing_report *rep = &mx->rep;
    rep->rows = calloc(ROWS_MAX, sizeof *rep->rows);
    if (!rep->rows) {
        sb_cli_error("out of memory");
        return SB_EXIT_USAGE;
    }
    /* The rows to fill: the list given, or the default one as far as it
       may go (the measured runs end it sooner). */
    unsigned long k = 1;
    mx->trim = !list && o->samples == 0;
    const unsigned long most = o->samples == 0 && o->max_passes
                                                  > EXACT_PASSES_MAX
                             ? EXACT_PASSES_MAX : o->max_passes;
    for (size_t i = 0; i < ROWS_MAX; i++) {
        if (list ? i == count : k > most)
            break;
        rep->rows[rep->n_rows++].passes = list ? list[i] : k;
        k = next_passes(k);
    }
    for (size_t i = 0; i < rep->n_rows; i++) {
        rep->rows[i].tv = rep->rows[i].separation = NAN;
        rep->rows[i].solitaire = rep->rows[i].p = NAN;
        rep->rows[i].bridge_p = NAN;
    }
    const double start = sb_now();
    int rc = SB_OK;
    size_t done = 0;
    if (o->samples > 0) {
        sb_cli_progress progress;
        sb_cli_progress_init(&progress, o->quiet, mx->t->name);
        for (; done < rep->n_rows && rc == SB_OK; done++) {
            if (!list && passed_twice(rep->rows, done))
                break;
            mx->args.param[mx->passes_at] = (long)rep->rows[done].passes;
            sb_cli_progress_update(&progress, done, rep->n_rows);
            rc = measure_row(mx, &rep->rows[done]);
        }
        sb_cli_progress_end(&progress);
        if (rc == SB_EINTR)
            done--;
        if (!list || rc == SB_EINTR)
            rep->n_rows = done;
    }
    /* Exact columns over the rows kept. */
    const sb_markov *m = mx->plugin ? sb_plugin_markov(mx->plugin, mx->t)
                                    : sb_markov_builtin(mx->t);
    if (rc == SB_OK && !o->no_exact && rep->n_rows > 0) {
        if ((mx->t == &sb_shuffle_riffle
             || mx->t == &sb_shuffle_inverse_riffle)
            && mx->args.n <= SB_GSR_LAW_N_MAX) {
            rep->exact = "rising-sequences";
            rc = exact_gsr(mx);
        } else if (m && mx->args.n <= EXACT_N_MAX) {
            rep->exact = "states";
            rc = exact_states(mx, m);
        }
        if (rc == SB_ENOTSUP) {
            rep->exact = NULL;
            rc = SB_OK;
        }
    }
    rep->seconds = sb_now() - start;
    if (rc != SB_OK && rc != SB_EINTR)
        return SB_EXIT_USAGE;
    if (rc == SB_OK && o->samples == 0 && !rep->exact) {
        /* Neither measured nor exact: a table of nothing is no answer. */
        sb_cli_error("mixing: no decks measured (--samples 0) and no exact "
                     "distances for %s at n = %zu%s: give --samples",
                     mx->t->name, mx->args.n, o->no_exact ? " (--no-exact)"
                     : "");
        return SB_EXIT_USAGE;
    }
    rep->partial = rc == SB_EINTR;
    answer(rep);
    return write_reports(mx, rep->partial ? SB_EXIT_INTERRUPTED
                                          : SB_EXIT_PASS);
}

static int mixing_of(mixing *pmx);

int sb_cmd_mixing(const sb_cli *cli, int argc, char **argv)
{
    mixing_options o;
    int prc = parse(argc, argv, &o);
    if (prc != 0)
        return prc > 0 ? SB_EXIT_PASS : SB_EXIT_USAGE;
    const sb_cli_path json = { "--json", o.json },
                      others[] = { { "--markdown", o.markdown },
                                   { "--html", o.html } },
                      md = { "--markdown", o.markdown };
    if (sb_cli_distinct(&json, others, 2) != 0
        || sb_cli_distinct(&md, others + 1, 1) != 0
        || sb_cli_can_write(o.json) != 0 || sb_cli_can_write(o.markdown) != 0
        || sb_cli_check_html(o.html) != 0)
        return SB_EXIT_USAGE;
    o.command_line = cli->command_line;
    sb_plugin_handle *plugin = NULL;
    const sb_shuffle_type *t = sb_cli_shuffle(o.alg, o.plugin, o.n, &plugin);
    if (!t)
        return SB_EXIT_USAGE;
    mixing mx = { .cli = cli, .o = &o, .t = t, .args = { .n = (size_t)o.n },
                  .plugin = plugin };
    const int code = mixing_of(&mx);
    if (plugin)
        sb_plugin_close(plugin);
    return code;
}

/* The command once its shuffle is loaded. */
static int mixing_of(mixing *pmx)
{
    mixing mx = *pmx;
    mixing_options o = *mx.o;
    mx.o = &o;
    const sb_shuffle_type *t = mx.t;
    mx.passes_at = t->n_params;
    for (size_t i = 0; i < t->n_params; i++)
        if (strcmp(t->params[i].name, "passes") == 0)
            mx.passes_at = i;
    if (mx.passes_at == t->n_params) {
        sb_cli_error("mixing: '%s' has no 'passes' parameter; mixing "
                     "follows a shuffle made of passes (riffle, "
                     "inverse-riffle, human-packet, overhand)", t->name);
        return SB_EXIT_USAGE;
    }
    for (size_t i = 0; i < o.params.count; i++)
        if (strncmp(o.params.list[i], "passes=", 7) == 0) {
            sb_cli_error("mixing: the passes are --passes LIST, not "
                         "--param");
            return SB_EXIT_USAGE;
        }
    if (sb_cli_set_params(t, o.params.list, o.params.count, &mx.args) != 0)
        return SB_EXIT_USAGE;
    const unsigned long pmax = (unsigned long)t->params[mx.passes_at].max;
    if (o.max_passes > pmax)
        o.max_passes = pmax;
    unsigned long list[ROWS_MAX];
    size_t count = 0;
    if (o.passes && parse_passes(o.passes, pmax, list, &count) != 0)
        return SB_EXIT_USAGE;
    char why[256];
    mx.args.param[mx.passes_at] = 1;
    if (sb_shuffle_check(t, &mx.args, why, sizeof why) != SB_OK) {
        sb_cli_error("%s", why);
        return SB_EXIT_USAGE;
    }
    if (!o.seed_given) {
        o.seed = sb_cli_fresh_seed();
        if (!o.quiet && o.samples > 0)
            fprintf(stderr, "shufflebias: seed %llu (pass --seed %llu to "
                    "run it again)\n", (unsigned long long)o.seed,
                    (unsigned long long)o.seed);
    }
    sb_mixing_report *rep = &mx.rep;
    rep->algorithm = t->name;
    other_params(t, &mx.args, mx.passes_at, rep->params,
                 sizeof rep->params);
    rep->n = (size_t)o.n;
    rep->samples = o.samples;
    rep->seed = o.seed;
    rep->threads = o.threads;
    rep->stream_version = sb_stream_version(t->name, mx.plugin != NULL,
                                            SB_RNG_DEFAULT);
    rep->fail = SB_FAIL_ALPHA;
    rep->command_line = o.command_line;
    const int code = run_mixing(&mx, o.passes ? list : NULL, count);
    sb_mixing_report_release(rep);
    return code;
}
