/*
 * cli_test.c - 'shufflebias test ALG': sample an algorithm, run the
 * battery, print the verdict.
 */
#define _POSIX_C_SOURCE 200809L
#include "src/cli.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/registry.h"
#include "reports/render.h"
#include "shufflebias/status.h"
#include "src/escalate.h"
#include "src/external.h"
#include "src/plugin.h"
#include "src/rng.h"
#include "src/runner.h"
#include "stats/battery.h"

static const char usage[] =
    "usage: shufflebias test ALG [options]\n"
    "       shufflebias test --plugin SO [NAME] [options]\n"
    "       shufflebias test --exec CMD [input options] [options]\n"
    "       shufflebias test --input FILE|- [input options] [options]\n"
    "\n"
    "Sample ALG many times and test the decks for bias: a built-in\n"
    "algorithm, a C plug-in's shuffle (the one called NAME when it holds\n"
    "several), the output of any program, or decks recorded in a file.\n"
    "\n"
    "  --plugin SO       a shared object made with <shufflebias/plugin.h>\n"
    "  --exec CMD        run CMD through /bin/sh -c and read its standard\n"
    "                    output; it is told SHUFFLEBIAS_N, _SAMPLES, _SEED,\n"
    "                    _KIND, _FORMAT, _HANDS, _DRAW, _ONE_BASED in its\n"
    "                    environment, and ended once enough are read\n"
    "  --input FILE      recorded samples ('-': standard input); all of them\n"
    "                    unless --samples is given\n"
    "\n"
    "input options (with --exec and --input):\n"
    "  --kind K          permutation (default), draw or deal\n"
    "  --hands H         hands of a deal (default 4), each n/H cards\n"
    "  --draw K          cards per drawn hand (default: as many as the first\n"
    "                    sample holds; needed for u8 and u16)\n"
    "  --format F        text (default: numbers separated by spaces, commas\n"
    "                    or tabs, one sample per line), cards (names such as\n"
    "                    AS 10H TD 2c), u8 or u16 (binary, little-endian)\n"
    "  --one-based       numbers count from 1 (cards 1..n, hands 1..H)\n"
    "  --skip-invalid    count and list bad samples, and go on (default: the\n"
    "                    first one ends the run with exit code 2)\n"
    "\n"
    "options:\n"
    "  --n N             deck size (default 52)\n"
    "  --samples S       decks to sample: 200000, 1e6, 10M (default 1M)\n"
    "  --seed S          seed (default: fresh; always printed)\n"
    "  --rng NAME        randomness source (default " SB_RNG_DEFAULT "; any GSL\n"
    "                    generator name such as mt19937; weak: rand15, lcg32,\n"
    "                    reseed32:NAME)\n"
    "  --tests A,B       statistics to run (default: the battery for the kind\n"
    "                    and size; see 'shufflebias list')\n"
    "  --param K=V       an algorithm parameter (repeatable)\n"
    "  --escalate K      re-run a suspect result up to K times (default 3,\n"
    "                    at most 8; 0: never), each time on a seed derived\n"
    "                    from --seed and twice the samples of the time before\n"
    "  --json FILE|-     also write the result as JSON ('-': stdout, and no table)\n"
    "  --quiet           print nothing but errors; the exit code tells\n"
    "\n"
    "Verdicts use Holm's correction over the statistics run: a statistic\n"
    "whose Holm-adjusted p-value is below 1e-6 fails, below 1e-3 it is\n"
    "suspect.  A fair shuffle fails one run in a million at most, so a CI\n"
    "gate can trust a fail; a suspect run is re-run (--escalate) before\n"
    "anything is reported, and ends pass or fail unless it stays suspect.\n"
    "Exit codes: 0 no bias found, 1 bias found, 2 usage or input error,\n"
    "3 inconclusive (still suspect after escalation), 130 interrupted (a\n"
    "partial report is written).  A bad sample, or a program that ends,\n"
    "crashes or writes garbage before the samples asked for, is an input\n"
    "error (2): the report of the samples counted before it is still\n"
    "written.  Recorded samples cannot be drawn again, so --input never\n"
    "escalates.  See docs/own-shuffle.md.\n";

typedef struct test_options {
    const char *alg, *plugin, *exec, *input;
    uint64_t n, samples, seed;
    int seed_given, samples_given, hands_given, rng_given;
    /* Input options, for --exec and --input. */
    const char *kind, *format;
    uint64_t hands, draw;
    int one_based, skip_invalid;
    int input_options;        /* how many of them were given */
    const char *rng, *tests, *json;
    int quiet;
    unsigned escalate;
    const char *params[SB_CLI_PARAMS_MAX];
    size_t n_params;
} test_options;

/* Returns -1 after printing an error, 1 for --help, 0 otherwise. */
static int parse(int argc, char **argv, test_options *o)
{
    enum { O_N = 256, O_SAMPLES, O_SEED, O_RNG, O_TESTS, O_PARAM, O_JSON,
           O_QUIET, O_ESCALATE, O_HELP, O_PLUGIN, O_EXEC, O_INPUT, O_KIND,
           O_HANDS, O_DRAW, O_FORMAT, O_ONE_BASED, O_SKIP_INVALID };
    static const struct option longopts[] = {
        { "n", required_argument, NULL, O_N },
        { "samples", required_argument, NULL, O_SAMPLES },
        { "seed", required_argument, NULL, O_SEED },
        { "rng", required_argument, NULL, O_RNG },
        { "tests", required_argument, NULL, O_TESTS },
        { "param", required_argument, NULL, O_PARAM },
        { "json", required_argument, NULL, O_JSON },
        { "quiet", no_argument, NULL, O_QUIET },
        { "escalate", required_argument, NULL, O_ESCALATE },
        { "help", no_argument, NULL, O_HELP },
        { "plugin", required_argument, NULL, O_PLUGIN },
        { "exec", required_argument, NULL, O_EXEC },
        { "input", required_argument, NULL, O_INPUT },
        { "kind", required_argument, NULL, O_KIND },
        { "hands", required_argument, NULL, O_HANDS },
        { "draw", required_argument, NULL, O_DRAW },
        { "format", required_argument, NULL, O_FORMAT },
        { "one-based", no_argument, NULL, O_ONE_BASED },
        { "skip-invalid", no_argument, NULL, O_SKIP_INVALID },
        { NULL, 0, NULL, 0 }
    };
    *o = (test_options){ .n = 52, .samples = 1000000, .rng = SB_RNG_DEFAULT,
                         .escalate = SB_ESCALATIONS_DEFAULT, .hands = 4 };
    optind = 1;
    opterr = 0;
    for (int c; (c = getopt_long(argc, argv, "", longopts, NULL)) != -1;) {
        switch (c) {
        case O_N:
            if (sb_cli_opt_n(optarg, &o->n) != 0)
                return -1;
            break;
        case O_SAMPLES:
            if (sb_cli_opt_count("samples", optarg, &o->samples) != 0)
                return -1;
            o->samples_given = 1;
            break;
        case O_SEED:
            if (sb_cli_opt_seed(optarg, &o->seed) != 0)
                return -1;
            o->seed_given = 1;
            break;
        case O_RNG: o->rng = optarg; o->rng_given = 1; break;
        case O_TESTS: o->tests = optarg; break;
        case O_PARAM:
            if (sb_cli_opt_param(o->params, &o->n_params, optarg) != 0)
                return -1;
            break;
        case O_JSON: o->json = optarg; break;
        case O_QUIET: o->quiet = 1; break;
        case O_ESCALATE:
            if (sb_cli_opt_escalate(optarg, &o->escalate) != 0)
                return -1;
            break;
        case O_HELP: return 1;
        case O_PLUGIN: o->plugin = optarg; break;
        case O_EXEC: o->exec = optarg; break;
        case O_INPUT: o->input = optarg; break;
        case O_KIND: o->kind = optarg; o->input_options++; break;
        case O_FORMAT: o->format = optarg; o->input_options++; break;
        case O_ONE_BASED: o->one_based = 1; o->input_options++; break;
        case O_SKIP_INVALID: o->skip_invalid = 1; o->input_options++; break;
        case O_HANDS:
        case O_DRAW:
            if (sb_cli_parse_count(optarg, c == O_HANDS ? &o->hands
                                                        : &o->draw) != 0
                || (c == O_HANDS ? o->hands : o->draw) > SB_DECK_MAX) {
                sb_cli_error("invalid --%s '%s': expected 1 to %u",
                             c == O_HANDS ? "hands" : "draw", optarg,
                             SB_DECK_MAX);
                return -1;
            }
            o->hands_given |= c == O_HANDS;
            o->input_options++;
            break;
        default:
            sb_cli_bad_option("test", argv[optind - 1]);
            return -1;
        }
    }
    if (!!o->plugin + !!o->exec + !!o->input > 1) {
        sb_cli_error("test: one of --plugin, --exec and --input at a time");
        return -1;
    }
    if (o->exec || o->input) {
        if (optind != argc) {
            sb_cli_error("test: --%s takes no algorithm name (got '%s')",
                         o->exec ? "exec" : "input", argv[optind]);
            return -1;
        }
        if (o->n_params || o->rng_given) {
            sb_cli_error("test: --%s is for algorithms; a program draws "
                         "from its own generator and reads what it needs "
                         "from its environment", o->n_params ? "param"
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
        sb_cli_error("test: --kind, --hands, --draw, --format, --one-based "
                     "and --skip-invalid go with --exec or --input");
        return -1;
    }
    return sb_cli_shuffle_name("test", argc, argv, optind, o->plugin,
                               &o->alg);
}

/* The reader's spec from the input options: 0, or -1 after printing the
   error. */
static int input_spec(const test_options *o, sb_input_spec *in)
{
    *in = (sb_input_spec){ .one_based = o->one_based,
                           .skip_invalid = o->skip_invalid };
    if (o->format && sb_format_find(o->format, &in->format) != SB_OK) {
        sb_cli_error("unknown format '%s'; valid: text, cards, u8, u16",
                     o->format);
        return -1;
    }
    in->shape.kind = SB_KIND_PERMUTATION;
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

/* Print the report as asked and work out the exit code. */
static int report(const test_options *o, const sb_report *rep, int code)
{
    int json_on_stdout = o->json && strcmp(o->json, "-") == 0;
    if (!o->quiet && !json_on_stdout && sb_render_text(stdout, rep) != SB_OK)
        code = SB_EXIT_USAGE;
    if (o->json) {
        FILE *f = sb_cli_open_out(o->json);
        if (!f || sb_render_json(f, rep) != SB_OK
            || sb_cli_close_out(f, o->json) != 0)
            code = SB_EXIT_USAGE;
    }
    return code;
}

/* Samples from a program or a file. */
static int test_external(const sb_cli *cli, const test_options *o)
{
    sb_external_spec spec = { .command = o->exec, .path = o->input };
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
    code = report(o, &rep, code);
    if (input_error)
        sb_cli_error("%s: %s", o->exec ? "--exec" : "--input", info.error);
    else if (rep.run.partial)
        sb_cli_error("interrupted: the report covers the %" PRIu64
                     " samples counted", rep.run.done);
    sb_report_release(&rep);
    return code;
}

int sb_cmd_test(const sb_cli *cli, int argc, char **argv)
{
    test_options o;
    int prc = parse(argc, argv, &o);
    if (prc != 0) {
        if (prc > 0)
            fputs(usage, stdout);
        return prc > 0 ? SB_EXIT_PASS : SB_EXIT_USAGE;
    }
    if (sb_cli_can_write(o.json) != 0)
        return SB_EXIT_USAGE;
    if (o.exec || o.input)
        return test_external(cli, &o);
    sb_plugin_handle *plugin;
    const sb_shuffle_type *t = sb_cli_shuffle(o.alg, o.plugin, o.n, &plugin);
    if (!t)
        return SB_EXIT_USAGE;
    int code = SB_EXIT_USAGE;
    sb_run_config cfg = {
        .alg = t,
        .args = { .n = (size_t)o.n },
        .samples = o.samples,
        .seed = o.seed_given ? o.seed : sb_cli_fresh_seed(),
        .rng = o.rng,
        .plugin = o.plugin,
        .stop = cli->stop,
    };
    sb_report rep;
    if (sb_cli_check_rng(o.rng) == 0
        && sb_cli_set_params(t, o.params, o.n_params, &cfg.args) == 0
        && sb_cli_run(&cfg, o.tests, o.quiet, o.escalate, &rep) == 0) {
        code = report(&o, &rep, exit_code(&rep));
        if (rep.run.partial)
            sb_cli_error("interrupted: the report covers the %" PRIu64
                         " samples done of %" PRIu64, rep.run.done,
                         rep.run.samples);
        sb_report_release(&rep);
    }
    if (plugin)
        sb_plugin_close(plugin);
    return code;
}
