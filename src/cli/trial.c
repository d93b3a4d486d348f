/*
 * trial.c - 'shufflebias test ALG': sample an algorithm, run the
 * battery, print the verdict.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli/options.h"

#include <errno.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "algorithms/registry.h"
#include "shufflebias/status.h"
#include "engine/escalate.h"
#include "sources/external.h"
#include "sources/plugin.h"
#include "base/rng.h"
#include "engine/runner.h"
#include "engine/state.h"
#include "stats/battery.h"
#include "cli/plan.h"
#include "stats/gof.h"
#include "reports/render.h"

typedef struct test_options {
    const char *alg, *plugin, *exec, *input;
    uint64_t n, samples, seed;
    int seed_given, samples_given, hands_given, rng_given;
    /* Input options, for --exec and --input. */
    const char *kind, *format, *card_order;
    uint64_t hands, draw;
    int one_based, skip_invalid;
    int input_options;        /* how many of them were given */
    const char *rng, *tests, *json;
    int quiet, no_diagnosis;
    const char *expect;       /* --expect: "pass" or "fail", NULL: none */
    unsigned escalate;
    int escalate_given, n_given;
    unsigned threads;         /* 0: one per core */
    uint64_t memory;          /* --memory, 0: the default budget */
    const char *state, *resume, *part;
    int force;                /* --force: --state may replace a file */
    unsigned part_i, part_k;
    unsigned exec_timeout;    /* seconds; 0: no limit */
    int exec_timeout_given;
    char tests_buf[1024];     /* --resume: the statistics of the state */
    sb_cli_params params;     /* --param K=V */
    /* --effect, --power, --plan: size the run from the bias to catch. */
    sb_plan_effect effect;
    int effect_given, power_given, plan_only;
    const char *html;         /* --html FILE: the page of the run */
    const char *command_line; /* as typed, for the page */
    /* --no-timing, --full-tables, --csv DIR: what the reports show. */
    sb_render_opts render;
    const char *csv;
} test_options;

/* --part I/K: 1 <= I <= K.  0, or -1 after printing the error. */
static int parse_part(const char *arg, unsigned *i, unsigned *k)
{
    char *slash;
    unsigned long a = strtoul(arg, &slash, 10), b = 0;
    if (slash != arg && *slash == '/' && slash[1] >= '0' && slash[1] <= '9') {
        char *end;
        b = strtoul(slash + 1, &end, 10);
        if (*end || arg[0] < '0' || arg[0] > '9')
            b = 0;
    }
    if (b < 1 || b > SB_DECK_MAX || a < 1 || a > b) {
        sb_cli_error("invalid --part '%s': expected I/K with 1 <= I <= K, "
                     "such as 1/2", arg);
        return -1;
    }
    *i = (unsigned)a;
    *k = (unsigned)b;
    return 0;
}

/* With --resume the state file says what to run: any option that would
   say otherwise is refused rather than ignored.  0, or -1 after printing
   the error. */
static int resume_options(int argc, char **argv, int next,
                          const test_options *o)
{
    const char *clash = next != argc ? argv[next]
                      : o->input_options ? "--kind, --hands, --draw, "
                                           "--format, --card-order, "
                                           "--one-based and --skip-invalid"
                      : o->n_given ? "--n"
                      : o->samples_given ? "--samples"
                      : o->seed_given ? "--seed"
                      : o->rng_given ? "--rng"
                      : o->tests ? "--tests"
                      : o->params.count ? "--param"
                      : o->escalate_given ? "--escalate"
                      : o->part ? "--part" : NULL;
    if (clash) {
        sb_cli_error("test: --resume goes on with the run its state file "
                     "describes; drop '%s'", clash);
        return -1;
    }
    return 0;
}

/* --exec-timeout S: whole seconds, 0 for no limit.  0, or -1 after
   printing the error. */
static int parse_exec_timeout(const char *arg, unsigned *out)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(arg, &end, 10);
    if (errno || end == arg || *end || arg[0] < '0' || arg[0] > '9'
        || v > 1000000) {
        sb_cli_error("invalid --exec-timeout '%s': expected whole seconds "
                     "from 0 (no limit) to 1000000", arg);
        return -1;
    }
    *out = (unsigned)v;
    return 0;
}

/* --part I/K, checked and kept. */
static int set_part(const sb_option *opt, const char *arg, void *base)
{
    (void)opt;
    test_options *o = base;
    if (parse_part(arg, &o->part_i, &o->part_k) != 0)
        return -1;
    o->part = arg;
    return 0;
}

static int set_exec_timeout(const sb_option *opt, const char *arg,
                            void *base)
{
    (void)opt;
    return parse_exec_timeout(arg, &((test_options *)base)->exec_timeout);
}

/* --hands H and --draw K: 1 .. SB_DECK_MAX. */
static int set_hands_draw(const sb_option *opt, const char *arg, void *base)
{
    test_options *o = base;
    const int hands = strcmp(opt->name, "hands") == 0;
    uint64_t *v = hands ? &o->hands : &o->draw;
    if (sb_cli_parse_count(arg, v) != 0 || *v > SB_DECK_MAX) {
        sb_cli_error("invalid --%s '%s': expected 1 to %u", opt->name, arg,
                     SB_DECK_MAX);
        return -1;
    }
    o->hands_given |= hands;
    return 0;
}

/* --expect pass|fail: the verdict the run must reach, for a CI gate
   that must see a broken shuffle fail (exit 2 being no fail). */
static int set_expect(const sb_option *opt, const char *arg, void *base)
{
    (void)opt;
    test_options *o = base;
    if (strcmp(arg, "pass") != 0 && strcmp(arg, "fail") != 0) {
        sb_cli_error("invalid --expect '%s': expected pass or fail", arg);
        return -1;
    }
    o->expect = arg;
    o->render.expect = arg;
    return 0;
}

static int set_effect(const sb_option *opt, const char *arg, void *base)
{
    (void)opt;
    return sb_cli_parse_effect(arg, &((test_options *)base)->effect);
}

static int set_power(const sb_option *opt, const char *arg, void *base)
{
    (void)opt;
    return sb_cli_parse_power(arg, &((test_options *)base)->effect.power);
}

#define ROW(name, arg, field, given, fn, help) \
    SB_OPT_ROW(name, 0, arg, test_options, field, given, fn, help)
#define GIVEN(field) offsetof(test_options, field)
#define NONE SB_OPT_NOWHERE

static const sb_option options[] = {
    ROW("plugin", "SO", plugin, NONE, sb_opt_string,
        "a shared object made with <shufflebias/plugin.h>"),
    ROW("exec", "CMD", exec, NONE, sb_opt_string,
        "run CMD through /bin/sh -c and read its standard output; it is "
        "told SHUFFLEBIAS_N, _SAMPLES, _SEED, _KIND, _FORMAT, _HANDS, "
        "_DRAW, _ONE_BASED in its environment, and ended once enough are "
        "read"),
    ROW("exec-timeout", "S", exec_timeout, GIVEN(exec_timeout_given),
        set_exec_timeout,
        "end the program, an input error, when it writes no byte for S "
        "seconds (default 60; 0: no limit)"),
    ROW("input", "FILE", input, NONE, sb_opt_string,
        "recorded samples ('-': standard input); all of them unless "
        "--samples is given"),
    SB_OPT_GROUP("input options (with --exec and --input):"),
    ROW("kind", "K", kind, GIVEN(input_options), sb_opt_string,
        "permutation (default), draw or deal"),
    ROW("hands", "H", hands, GIVEN(input_options), set_hands_draw,
        "hands of a deal (default 4), each n/H cards"),
    ROW("draw", "K", draw, GIVEN(input_options), set_hands_draw,
        "cards per drawn hand (default: as many as the first sample "
        "holds; needed for u8 and u16)"),
    ROW("format", "F", format, GIVEN(input_options), sb_opt_string,
        "text (default: numbers separated by spaces, commas or tabs, one "
        "sample per line), cards (names such as AS 10H TD 2c), u8 or u16 "
        "(binary, little-endian), pbn (bridge deals N:AKQ.T98.J7.5432 "
        "..., bare or in [Deal] tags; implies --kind deal, seats N E S W "
        "as hands 0 1 2 3)"),
    ROW("card-order", "S:R", card_order, GIVEN(input_options), sb_opt_string,
        "the numbering of card names (cards, pbn): the suits then the "
        "ranks in your order, card = suit * 13 + rank, e.g. "
        "shdc:akqjt98765432 for spades first, ace high (default "
        "cdhs:23456789tjqka)"),
    ROW("one-based", NULL, one_based, GIVEN(input_options), sb_opt_flag,
        "numbers count from 1 (cards 1..n, hands 1..H)"),
    ROW("skip-invalid", NULL, skip_invalid, GIVEN(input_options),
        sb_opt_flag,
        "count and list bad samples, and go on (default: the first one "
        "ends the run with exit code 2)"),
    SB_OPT_GROUP("options:"),
    ROW("n", "N", n, GIVEN(n_given), sb_opt_n, "deck size (default 52)"),
    ROW("samples", "S", samples, GIVEN(samples_given), sb_opt_count,
        "decks to sample: 200000, 1e6, 10M (default 1M)"),
    ROW("seed", "S", seed, GIVEN(seed_given), sb_opt_seed,
        "seed (default: fresh; always printed)"),
    ROW("rng", "NAME", rng, GIVEN(rng_given), sb_opt_string,
        "randomness source (default " SB_RNG_DEFAULT "; any GSL generator "
        "name such as mt19937; weak: rand15, lcg32, reseed32:NAME)"),
    ROW("tests", "A,B", tests, NONE, sb_opt_string,
        "statistics to run (default: the battery for the kind and size; "
        "see 'shufflebias list')"),
    ROW("param", "K=V", params, NONE, sb_opt_param,
        "an algorithm parameter (repeatable)"),
    ROW("escalate", "K", escalate, GIVEN(escalate_given), sb_opt_escalate,
        "re-run a suspect result up to K times (default 3, at most 8; 0: "
        "never), each time on a seed derived from --seed and twice the "
        "samples of the time before"),
    ROW("threads", "N", threads, NONE, sb_opt_threads,
        "threads making samples (default: one per core); the counts are "
        "the same whatever N"),
    ROW("memory", "SIZE", memory, NONE, sb_opt_memory,
        "memory budget for the run's tables, such as 512M, 2G or 1.5GiB "
        "(K, M, G, T are powers of 1024; default: half the memory the "
        "process may have, at most 16G); fewer threads when they do not "
        "all fit, refused (exit 2) when one does not"),
    ROW("json", "FILE|-", json, NONE, sb_opt_string,
        "also write the result as JSON ('-': stdout, and no table)"),
    ROW("html", "FILE", html, NONE, sb_opt_string,
        "also write the result as one self-contained HTML page: the "
        "card x position heatmap, each statistic against its expected "
        "counts, the facts to run it again"),
    ROW("no-timing", NULL, render.no_timing, NONE, sb_opt_flag,
        "leave out of the reports what differs between runs of the same "
        "seed (time, threads, memory), so that they compare byte for byte"),
    ROW("full-tables", NULL, render.full_tables, NONE, sb_opt_flag,
        "list every cell of every table in the JSON, however many (a table "
        "of more than 65536 cells is otherwise summarized)"),
    ROW("csv", "DIR", csv, NONE, sb_opt_string,
        "also write the tables as CSV files into DIR (made if missing): "
        "summary.csv and one file per statistic's table"),
    ROW("quiet", NULL, quiet, NONE, sb_opt_flag,
        "print nothing but errors (and no progress line); the exit code "
        "tells"),
    ROW("expect", "VERDICT", expect, NONE, set_expect,
        "pass or fail: the verdict the run must reach, for a CI gate; exit "
        "0 when it does, 1 when it is the other (2, 3 and 130 as without "
        "it); the reports say whether it held"),
    ROW("no-diagnosis", NULL, no_diagnosis, NONE, sb_opt_flag,
        "on a fail, do not simulate the catalogue's flaws to name the one "
        "the bias resembles (it takes seconds at 52 cards)"),
    SB_OPT_HELP,
    SB_OPT_GROUP("sizing the run (algorithms and plug-ins):"),
    ROW("effect", "E", effect, GIVEN(effect_given), set_effect,
        "choose the samples so that a bias of E is caught: E = 0.05 (or "
        "5%) is one cell of a statistic, the one its detectable-effect "
        "line names, 5% more or less often than its rate; distance=D is a "
        "chi-square distance of D per sample; rand-bits=B (8 to 32) is "
        "rand() % m on a B-bit generator, planned by fy-code and "
        "fy-code-forward; the plan is printed on stderr before the run "
        "and kept in the JSON"),
    ROW("power", "P", effect, GIVEN(power_given), set_power,
        "with --effect: the probability of catching it at the fail "
        "threshold (default 0.9, from 0.5 to 0.9999)"),
    ROW("plan", NULL, plan_only, NONE, sb_opt_flag,
        "with --effect: print the plan and an estimate of its time on "
        "this machine (from a short timed run), and run nothing else"),
    SB_OPT_GROUP("long runs (algorithms and plug-ins):"),
    ROW("state", "FILE", state, NONE, sb_opt_string,
        "save the counts to FILE every minute and at the end; Ctrl-C then "
        "lets the running chunks finish first"),
    ROW("force", NULL, force, NONE, sb_opt_flag,
        "with --state (or --resume): replace an existing FILE that is not "
        "this run's (it may hold another run's counts)"),
    ROW("resume", "FILE", resume, NONE, sb_opt_string,
        "go on with the run saved in FILE (which fixes the algorithm, n, "
        "samples, seed and statistics) and keep saving to it"),
    ROW("part", "I/K", part, NONE, set_part,
        "make only part I of K of the run's samples (chunks of 65536 "
        "decks), to merge later with the other parts made elsewhere: "
        "shufflebias merge A.state B.state"),
    SB_OPT_END
};

const sb_command sb_command_test = {
    .name = "test",
    .run = sb_cmd_test,
    .summary = "sample a shuffle and test it for bias",
    .synopsis =
    "usage: shufflebias test ALG [options]\n"
    "       shufflebias test --plugin SO [NAME] [options]\n"
    "       shufflebias test --exec CMD [input options] [options]\n"
    "       shufflebias test --input FILE|- [input options] [options]\n"
    "\n"
    "Sample ALG many times and test the decks for bias: a built-in\n"
    "algorithm, a C plug-in's shuffle (the one called NAME when it holds\n"
    "several), the output of any program, or decks recorded in a file.\n",
    .options = options,
    .epilogue =
    "Verdicts use Holm's correction over the statistics run: a statistic\n"
    "whose Holm-adjusted p-value is below 1e-6 fails, below 1e-3 it is\n"
    "suspect.  A fair shuffle fails one run in a million at most, so a CI\n"
    "gate can trust a fail; a suspect run is re-run (--escalate) before\n"
    "anything is reported, and ends pass or fail unless it stays suspect.\n"
    "Exit codes: 0 no bias found, 1 bias found, 2 usage or input error,\n"
    "3 inconclusive (still suspect after escalation, or nothing could be\n"
    "judged), 130 interrupted (a partial report is written, its JSON\n"
    "verdict 'incomplete').  With --expect VERDICT: 0 when the verdict is\n"
    "the one expected, 1 when it is the other; 2, 3 and 130 stand, never\n"
    "held.  A bad sample, or a program that ends, crashes or writes\n"
    "garbage before the samples asked for, is an input error (2): the\n"
    "report of the samples counted before it is still written, its JSON\n"
    "verdict 'error'.  Recorded samples cannot be drawn again, so --input\n"
    "never escalates (and takes no --seed).  See docs/own-shuffle.md.\n",
};

/* Returns -1 after printing an error, 1 after printing the usage (-h,
   --help), 0 otherwise. */
static int parse(int argc, char **argv, test_options *o)
{
    *o = (test_options){ .n = 52, .samples = 1000000, .rng = SB_RNG_DEFAULT,
                         .escalate = SB_ESCALATIONS_DEFAULT, .hands = 4,
                         .exec_timeout = SB_EXEC_TIMEOUT_DEFAULT,
                         .effect = { .power = SB_GOF_POWER },
                         .render = { .expectation = 1 } };
    int next;
    const int rc = sb_options_parse(&sb_command_test, argc, argv, o, &next);
    if (rc != 0)
        return rc;
    if ((o->power_given || o->plan_only) && !o->effect_given) {
        sb_cli_error("test: --%s goes with --effect",
                     o->plan_only ? "plan" : "power");
        return -1;
    }
    if (o->effect_given) {
        const char *clash = o->samples_given ? "--samples"
                          : o->exec ? "--exec" : o->input ? "--input"
                          : o->resume ? "--resume" : o->part ? "--part"
                          : o->plan_only && o->json ? "--json"
                          : o->plan_only && o->expect ? "--expect"
                          : o->plan_only && o->state ? "--state" : NULL;
        if (clash) {
            sb_cli_error("test: --effect chooses the samples of a run of an "
                         "algorithm or a plug-in%s; drop '%s'",
                         o->plan_only ? " and --plan prints only the plan"
                                      : "", clash);
            return -1;
        }
    }
    if (o->exec_timeout_given && !o->exec) {
        sb_cli_error("test: --exec-timeout goes with --exec");
        return -1;
    }
    if (!!o->plugin + !!o->exec + !!o->input > 1) {
        sb_cli_error("test: one of --plugin, --exec and --input at a time");
        return -1;
    }
    if ((o->exec || o->input) && (o->state || o->resume || o->part)) {
        sb_cli_error("test: --%s is for algorithms and plug-ins: a "
                     "program's or a file's samples cannot be made again "
                     "from a seed", o->state ? "state"
                                             : o->resume ? "resume" : "part");
        return -1;
    }
    /* --resume saves to its file too (the state path it sets), which
       --force may name as well: accepted, though that file is always
       the run's own to replace. */
    if (o->force && !o->state && !o->resume) {
        sb_cli_error("test: --force goes with --state (or --resume)");
        return -1;
    }
    if (o->resume)
        return resume_options(argc, argv, next, o);
    if (o->part && !o->seed_given) {
        sb_cli_error("test: --part needs --seed: every part must draw from "
                     "the same seed");
        return -1;
    }
    if (o->part && o->escalate_given && o->escalate > 0) {
        sb_cli_error("test: --part makes one part of a run, whose verdict "
                     "is only the merged one's: escalate after 'shufflebias "
                     "merge', not in a part");
        return -1;
    }
    if (o->part) {
        o->escalate = 0;
        const char *why = sb_rng_sequential_why(o->rng);
        if (why) {
            sb_cli_error("test: --part needs a random-access source (such "
                         "as '%s'; shufflebias list): '%s' is one stream, "
                         "%s, so part I would make every chunk before its "
                         "own", SB_RNG_DEFAULT, o->rng, why);
            return -1;
        }
    }
    if (o->exec || o->input) {
        if (next != argc) {
            sb_cli_error("test: --%s takes no algorithm name (got '%s')",
                         o->exec ? "exec" : "input", argv[next]);
            return -1;
        }
        if (o->input && o->seed_given) {
            sb_cli_error("test: --seed means nothing to recorded samples: "
                         "they were drawn already (with --exec, the "
                         "program is handed it)");
            return -1;
        }
        if (o->params.count || o->rng_given) {
            sb_cli_error("test: --%s is for algorithms; a program draws "
                         "from its own generator and reads what it needs "
                         "from its environment", o->params.count ? "param"
                                                             : "rng");
            return -1;
        }
        if (o->skip_invalid && o->kind && strcmp(o->kind, "draw") == 0
            && !o->draw) {
            sb_cli_error("test: --skip-invalid with --kind draw needs "
                         "--draw K: a bad first line must not set the "
                         "size of every hand");
            return -1;
        }
        return 0;
    }
    if (o->input_options) {
        sb_cli_error("test: --kind, --hands, --draw, --format, --card-order, "
                     "--one-based and --skip-invalid go with --exec or "
                     "--input");
        return -1;
    }
    return sb_cli_shuffle_name("test", argc, argv, next, o->plugin,
                               &o->alg);
}

/* The reader's spec from the input options: 0, or -1 after printing the
   error. */
static int input_spec(const test_options *o, sb_input_spec *in)
{
    *in = (sb_input_spec){ .one_based = o->one_based,
                           .skip_invalid = o->skip_invalid };
    if (o->format && sb_format_find(o->format, &in->format) != SB_OK) {
        sb_cli_error("unknown format '%s'; valid: text, cards, u8, u16, pbn",
                     o->format);
        return -1;
    }
    if (o->card_order) {
        unsigned char number[52];
        char why[160];
        if (sb_card_order_parse(o->card_order, number, why, sizeof why)
            != SB_OK) {
            sb_cli_error("invalid --card-order '%s': %s", o->card_order, why);
            return -1;
        }
        in->card_order = o->card_order;
    }
    /* PBN holds bridge deals and nothing else: it needs no --kind. */
    in->shape.kind = in->format == SB_FORMAT_PBN ? SB_KIND_DEAL
                                                 : SB_KIND_PERMUTATION;
    if (o->kind && sb_cli_opt_kind(o->kind, &in->shape.kind) != 0)
        return -1;
    in->shape.n = (size_t)o->n;
    in->shape.len = (size_t)o->n;
    if (in->shape.kind == SB_KIND_DEAL) {
        in->shape.hands = (unsigned)o->hands;
    } else if (o->hands_given) {
        sb_cli_error("--hands goes with --kind deal");
        return -1;
    }
    if (in->shape.kind == SB_KIND_DRAW) {
        if (o->draw > o->n) {
            sb_cli_error("--draw %llu: a hand cannot hold more than the "
                         "%llu cards of the deck", (unsigned long long)o->draw,
                         (unsigned long long)o->n);
            return -1;
        }
        in->shape.len = (size_t)o->draw;    /* 0: from the first sample */
    } else if (o->draw) {
        sb_cli_error("--draw goes with --kind draw");
        return -1;
    }
    return 0;
}

/* With --expect: a pass or a fail (exit 0 or 1) becomes 0 when it is
   the verdict expected, 1 when it is not; 2, 3 and 130 stand, and never
   count as held.  The reports judge it alike (sb_report_expectation). */
static int expected_code(const char *expect, const sb_report *rep, int code)
{
    if (!expect || (code != SB_EXIT_PASS && code != SB_EXIT_FAIL))
        return code;
    const int held = sb_report_expectation(rep, expect);
    return held > 0 ? SB_EXIT_PASS : held == 0 ? SB_EXIT_FAIL
                                               : SB_EXIT_SUSPECT;
}

static int exit_code(const sb_report *rep)
{
    if (rep->run.partial)
        return SB_EXIT_INTERRUPTED;
    switch (rep->verdict) {
    case SB_VERDICT_FAIL: return SB_EXIT_FAIL;
    case SB_VERDICT_SUSPECT: return SB_EXIT_SUSPECT;
    default: return SB_EXIT_PASS;
    }
}

/* Samples from a program or a file. */
static int test_external(const sb_cli *cli, const test_options *o)
{
    sb_external_spec spec = { .command = o->exec, .path = o->input,
                              .idle_seconds = o->exec_timeout,
                              .memory = o->memory };
    if (input_spec(o, &spec.input) != 0)
        return SB_EXIT_USAGE;
    spec.input.stop = cli->stop;
    /* A file holds what it holds: read all of it unless told a count. */
    const uint64_t samples = o->input && !o->samples_given ? 0 : o->samples;
    const uint64_t seed = o->seed_given ? o->seed : sb_cli_fresh_seed();
    sb_report rep;
    sb_input_info info;
    int input_error;
    int rc = sb_cli_run_external(&spec, seed, samples, o->tests, o->quiet,
                                 o->input ? 0 : o->escalate, &rep, &info,
                                 &input_error);
    if (rc != 0)
        return rc > 0 ? SB_EXIT_INTERRUPTED : SB_EXIT_USAGE;
    int code = input_error ? SB_EXIT_USAGE : exit_code(&rep);
    /* Nothing would show a diagnosis: --quiet without --json or --html. */
    if (!input_error && !o->no_diagnosis && (!o->quiet || o->json || o->html)
        && sb_cli_diagnose(NULL, &rep, o->threads ? o->threads
                                         : sb_cli_threads_default(),
                           o->quiet, cli->stop))
        code = SB_EXIT_INTERRUPTED;
    code = sb_cli_report(&rep, o->json, o->quiet, code, &o->render, o->csv);
    code = sb_cli_html(o->html, &rep, o->command_line,
                       o->render.no_timing, code);
    if (input_error)
        sb_cli_error("%s: %s", o->exec ? "--exec" : "--input", info.error);
    else if (rep.run.partial)
        sb_cli_error("interrupted: the report covers the %" PRIu64
                     " samples counted", rep.run.done);
    code = expected_code(o->expect, &rep, code);
    sb_report_release(&rep);
    return code;
}

/* The words of an --exec command that name files (the program, a script
   it runs, a file it reads) are inputs too: a report written over one
   would destroy the user's program.  0, or -1 after printing the error. */
static int check_exec_words(const test_options *o, const sb_cli_path *out)
{
    if (!o->exec || !out->path)
        return 0;
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", o->exec);
    static const char sep[] = " \t\n;&|()<>";
    char *save = NULL;
    for (char *w = strtok_r(buf, sep, &save); w;
         w = strtok_r(NULL, sep, &save)) {
        const size_t len = strlen(w);
        if (len >= 2 && (w[0] == '\'' || w[0] == '"') && w[len - 1] == w[0]) {
            w[len - 1] = '\0';
            w++;
        }
        struct stat st;
        if (stat(w, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        const sb_cli_path word = { "--exec", w };
        if (sb_cli_distinct(out, &word, 1) != 0)
            return -1;
    }
    return 0;
}

/* Before anything runs: no output is an input or another output (the
   state may be the file resumed: it is meant to be), and the JSON
   report can be written.  0, or -1 after printing the error. */
static int check_outputs(const test_options *o)
{
    const sb_cli_path json = { "--json", o->json },
                      state = { "--state", o->state },
                      others[] = { { "--plugin", o->plugin },
                                   { "--input", o->input },
                                   { "--resume", o->resume },
                                   { "--state", o->state } };
    if (sb_cli_distinct(&json, others, 4) != 0
        || sb_cli_distinct(&state, others, 2) != 0
        || check_exec_words(o, &json) != 0)
        return -1;
    /* Nor any file --csv DIR writes. */
    const sb_cli_path csv_others[] = { { "--plugin", o->plugin },
                                       { "--input", o->input },
                                       { "--resume", o->resume },
                                       { "--state", o->state },
                                       { "--json", o->json },
                                       { "--html", o->html } };
    return sb_cli_can_write(o->json) != 0 ? -1
         : sb_cli_csv_check(o->csv, SB_CLI_CSV_TEST, csv_others, 6);
}

/* Before anything runs: the page is none of the inputs or the other
   outputs, and can be written.  0, or -1 after printing the error. */
static int check_html(const test_options *o)
{
    const sb_cli_path html = { "--html", o->html },
                      others[] = { { "--plugin", o->plugin },
                                   { "--input", o->input },
                                   { "--resume", o->resume },
                                   { "--state", o->state },
                                   { "--json", o->json } };
    if (!o->html)
        return 0;
    if (sb_cli_distinct(&html, others, 5) != 0
        || check_exec_words(o, &html) != 0)
        return -1;
    return sb_cli_check_html(o->html);
}

/* A state file keeps the plug-in's path and the shuffle's name in fields
   of fixed size: a longer one would be cut, and the run could not be
   resumed or merged.  0, or -1 after printing the error. */
static int fits_state(const test_options *o, const sb_shuffle_type *t)
{
    const sb_state *st = NULL;
    if (!o->state)
        return 0;
    if (o->plugin && strlen(o->plugin) >= sizeof st->plugin) {
        sb_cli_error("the plug-in's path is %zu bytes long; a state file "
                     "keeps at most %zu: move it to a shorter path",
                     strlen(o->plugin), sizeof st->plugin - 1);
        return -1;
    }
    if (strlen(t->name) >= sizeof st->algorithm) {
        sb_cli_error("the shuffle's name is %zu bytes long; a state file "
                     "keeps at most %zu", strlen(t->name),
                     sizeof st->algorithm - 1);
        return -1;
    }
    return 0;
}

/* Read the state file of --resume and take the run from it: algorithm,
   plug-in, n, parameters, source, statistics, seed, samples, escalations,
   part.  0, or -1 after printing the error. */
static int load_resumed(test_options *o, sb_state *st)
{
    char err[768];
    if (sb_state_read(o->resume, st, err, sizeof err) != SB_OK) {
        sb_cli_error("%s", err);
        return -1;
    }
    /* The version this program makes for the file's own algorithm and
       source: what did not change since the file was made goes on. */
    const int version = sb_stream_version(st->algorithm, st->plugin[0] != 0,
                                          st->rng);
    if (st->stream_version != (uint64_t)version
        || st->chunk_samples != SB_CHUNK_SAMPLES
        || st->block_samples != SB_BLOCK_SAMPLES) {
        sb_cli_error("state file '%s' was made with stream version %llu "
                     "(chunks of %llu, blocks of %llu); this program makes "
                     "version %d (%u, %u) for '%s' on '%s': its decks would "
                     "not be the same", o->resume,
                     (unsigned long long)st->stream_version,
                     (unsigned long long)st->chunk_samples,
                     (unsigned long long)st->block_samples,
                     version, SB_CHUNK_SAMPLES, SB_BLOCK_SAMPLES,
                     st->algorithm, st->rng);
        sb_state_free(st);
        return -1;
    }
    /* A state file names its plug-in but never loads it: the code to run
       is given on the command line again. */
    if (st->plugin[0] && !o->plugin) {
        sb_cli_error("state file '%s' is a run of '%s' from the plug-in "
                     "'%s': give --plugin SO to load it again", o->resume,
                     st->algorithm, st->plugin);
        sb_state_free(st);
        return -1;
    }
    if (!st->plugin[0] && o->plugin) {
        sb_cli_error("state file '%s' is a run of the built-in '%s': drop "
                     "--plugin", o->resume, st->algorithm);
        sb_state_free(st);
        return -1;
    }
    o->alg = st->algorithm;
    o->n = st->shape.n;
    o->rng = st->rng;
    o->seed = st->seed;
    o->seed_given = 1;
    o->samples = st->samples;
    o->escalate = st->escalations;
    o->part_i = st->part;
    o->part_k = st->parts;
    sb_state_tests(st, o->tests_buf, sizeof o->tests_buf);
    o->tests = o->tests_buf;
    if (!o->state)
        o->state = o->resume;
    return 0;
}

/* With --resume: the parameters in the state file, set on 'args' (which
   holds the defaults).  0, or -1 after printing the error. */
static int same_params(const test_options *o, const sb_state *st,
                       const sb_shuffle_type *t, sb_shuffle_args *args)
{
    if (!st)
        return 0;
    char buf[sizeof st->params];
    memcpy(buf, st->params, sizeof buf);
    buf[sizeof buf - 1] = '\0';
    for (char *kv = strtok(buf, ","); kv; kv = strtok(NULL, ","))
        if (sb_shuffle_set_param(t, args, kv) != SB_OK) {
            sb_cli_error("state file '%s': '%s' has no parameter '%s'",
                         o->resume, t->name, kv);
            return -1;
        }
    char now[sizeof st->params];
    sb_shuffle_format_params(t, args, now, sizeof now);
    sb_shape shape;
    sb_shuffle_shape(t, args, &shape);
    if (strcmp(now, st->params) != 0 || shape.kind != st->shape.kind
        || shape.len != st->shape.len || shape.hands != st->shape.hands) {
        sb_cli_error("state file '%s': its samples are not those of '%s' "
                     "with %s", o->resume, t->name,
                     st->params[0] ? st->params : "no parameters");
        return -1;
    }
    return 0;
}

/* --effect: plan the run and set its samples, the plan printed on stderr
   unless --quiet; with --plan print it on stdout with the time it would
   take, and run nothing more.  0 to go on with the run, 1 when the plan
   was all (*code set), or -1 after printing the error. */
static int plan_run(const test_options *o, sb_run_config *cfg,
                    sb_cli_plan *plan, int *code)
{
    plan->effect = o->effect;
    if (sb_cli_plan_make(cfg, o->tests, plan) != 0)
        return -1;
    if (!o->plan_only) {
        if (!o->quiet)
            sb_cli_plan_print(stderr, plan);
        cfg->samples = plan->samples;
        return 0;
    }
    sb_cli_plan_print(stdout, plan);
    fflush(stdout);
    sb_cli_plan_timing t;
    if (sb_cli_plan_time(cfg, o->tests, plan->samples, &t) != 0)
        return -1;
    sb_cli_plan_print_time(stdout, &t, cfg->threads);
    *code = SB_EXIT_PASS;
    return 1;
}

/* A run shared between the ranks of an MPI job: one seed for all, the
   first rank's when none is given; the other ranks quiet, writing no
   file and diagnosing nothing (the first does, for the job).  Runs only
   where every rank's options are the same, so that every rank shares
   the seed or none does.  0, or -1 after printing the error. */
static int join_ranks(sb_team *team, test_options *o)
{
    if (o->exec || o->input) {
        sb_cli_error("--%s reads one stream of samples: run it without "
                     "mpirun", o->exec ? "exec" : "input");
        return -1;
    }
    if (o->plan_only) {
        sb_cli_error("--plan times runs on this machine: run it without "
                     "mpirun");
        return -1;
    }
    if (!o->seed_given && !o->resume) {
        unsigned char word[8], *p = word;
        size_t n = sizeof word;
        const uint64_t seed = team->rank == 0 ? sb_cli_fresh_seed() : 0;
        for (int i = 0; i < 8; i++)
            word[i] = (unsigned char)(seed >> (8 * i));
        if (team->share(team->ctx, &p, &n) != SB_OK || n != sizeof word) {
            sb_cli_error("the ranks could not share a seed");
            if (p != word)
                free(p);
            return -1;
        }
        o->seed = 0;
        for (int i = 0; i < 8; i++)
            o->seed |= (uint64_t)p[i] << (8 * i);
        o->seed_given = 1;
        if (p != word)
            free(p);
    }
    if (team->rank != 0) {
        o->json = o->csv = o->html = NULL;
        o->quiet = 1;
        o->no_diagnosis = 1;
    }
    return 0;
}

int sb_cmd_test(const sb_cli *cli, int argc, char **argv)
{
    test_options o;
    int prc = parse(argc, argv, &o);
    if (prc != 0)
        return prc > 0 ? SB_EXIT_PASS : SB_EXIT_USAGE;
    if (cli->team && join_ranks(cli->team, &o) != 0)
        return SB_EXIT_USAGE;
    if (check_outputs(&o) != 0 || check_html(&o) != 0)
        return SB_EXIT_USAGE;
    o.command_line = cli->command_line;
    if (o.exec || o.input)
        return test_external(cli, &o);
    sb_state resumed;
    if (o.resume && load_resumed(&o, &resumed) != 0)
        return SB_EXIT_USAGE;
    /* Rank 0 alone writes the state of a run shared between ranks. */
    if (o.state && (!cli->team || cli->team->rank == 0)
        && sb_cli_can_save(o.state, o.resume, o.force) != 0) {
        if (o.resume)
            sb_state_free(&resumed);
        return SB_EXIT_USAGE;
    }
    sb_plugin_handle *plugin;
    const sb_shuffle_type *t = sb_cli_shuffle(o.alg, o.plugin, o.n, &plugin);
    if (!t || fits_state(&o, t) != 0) {
        if (plugin)
            sb_plugin_close(plugin);
        if (o.resume)
            sb_state_free(&resumed);
        return SB_EXIT_USAGE;
    }
    int code = SB_EXIT_USAGE;
    sb_run_config cfg = {
        .alg = t,
        .args = { .n = (size_t)o.n },
        .samples = o.samples,
        .seed = o.seed_given ? o.seed : sb_cli_fresh_seed(),
        .rng = o.rng,
        .plugin = o.plugin,
        .threads = o.threads ? o.threads
                 : cli->team ? sb_cli_ranks_threads()
                             : sb_cli_threads_default(),
        .stop = cli->stop,
        .memory = o.memory,
        .team = cli->team,
    };
    sb_cli_keep keep = { .path = o.state,
                               .resume = o.resume ? &resumed : NULL,
                               .part = o.part_i, .parts = o.part_k };
    sb_report rep;
    sb_cli_plan plan;
    if (sb_cli_check_rng(o.rng) == 0
        && sb_cli_set_params(t, o.params.list, o.params.count, &cfg.args) == 0
        && same_params(&o, o.resume ? &resumed : NULL, t, &cfg.args) == 0
        && (!o.effect_given || plan_run(&o, &cfg, &plan, &code) == 0)
        && sb_cli_run(&cfg, o.tests, o.quiet, o.escalate, &keep, &rep) == 0) {
        /* A run whose state was lost failed, whatever its counts say. */
        if (o.state && keep.save_failed)
            rep.run.error = keep.save_error;
        sb_cli_memory_note(&rep, o.quiet);
        /* A plug-in's bad sample: exit 2, the partial report kept. */
        const int bad = rep.run.bad_sample[0] != '\0';
        const int cut = !bad && !o.no_diagnosis
                        && (!o.quiet || o.json || o.html)
                        && sb_cli_diagnose(NULL, &rep, cfg.threads, o.quiet,
                                           cli->stop);
        code = sb_cli_report_with(&rep, o.json, o.quiet,
                                  bad ? SB_EXIT_USAGE
                                  : cut ? SB_EXIT_INTERRUPTED
                                        : exit_code(&rep),
                                  o.effect_given ? "plan" : NULL,
                                  o.effect_given ? sb_cli_plan_json(&plan)
                                                 : NULL,
                                  &o.render, o.csv);
        code = sb_cli_html(o.html, &rep, o.command_line, o.render.no_timing,
                           code);
        const int saved = o.state && !keep.save_failed;
        if (bad)
            sb_cli_error("--plugin %s: %s", o.plugin ? o.plugin : t->name,
                         rep.run.bad_sample);
        else if (rep.run.partial)
            sb_cli_error("interrupted: the report covers the %" PRIu64
                         " samples done of %" PRIu64 "%s%s", rep.run.done,
                         rep.run.samples, saved ? "; go on with "
                         "--resume " : "", saved ? o.state : "");
        if (o.state && keep.save_failed) {
            sb_cli_error("the state of this run could not be saved to '%s' "
                         "(see above)", o.state);
            code = SB_EXIT_USAGE;
        }
        code = expected_code(o.expect, &rep, code);
        sb_report_release(&rep);
    }
    if (plugin)
        sb_plugin_close(plugin);
    if (o.resume)
        sb_state_free(&resumed);
    return code;
}
