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
#include "src/rng.h"
#include "src/runner.h"
#include "stats/battery.h"

static const char usage[] =
    "usage: shufflebias test ALG [options]\n"
    "\n"
    "Sample ALG many times and test the decks for bias.\n"
    "\n"
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
    "partial report is written).\n";

typedef struct test_options {
    const char *alg;
    uint64_t n, samples, seed;
    int seed_given;
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
           O_QUIET, O_ESCALATE, O_HELP };
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
        { NULL, 0, NULL, 0 }
    };
    *o = (test_options){ .n = 52, .samples = 1000000, .rng = SB_RNG_DEFAULT,
                         .escalate = SB_ESCALATIONS_DEFAULT };
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
            break;
        case O_SEED:
            if (sb_cli_opt_seed(optarg, &o->seed) != 0)
                return -1;
            o->seed_given = 1;
            break;
        case O_RNG: o->rng = optarg; break;
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
        default:
            sb_cli_bad_option("test", argv[optind - 1]);
            return -1;
        }
    }
    return sb_cli_positional("test", argc, argv, optind, &o->alg);
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

int sb_cmd_test(const sb_cli *cli, int argc, char **argv)
{
    test_options o;
    int prc = parse(argc, argv, &o);
    if (prc != 0) {
        if (prc > 0)
            fputs(usage, stdout);
        return prc > 0 ? SB_EXIT_PASS : SB_EXIT_USAGE;
    }
    const sb_shuffle_type *t = sb_cli_algorithm_n(o.alg, o.n);
    if (!t || sb_cli_check_rng(o.rng) != 0 || sb_cli_can_write(o.json) != 0)
        return SB_EXIT_USAGE;
    sb_run_config cfg = {
        .alg = t,
        .args = { .n = (size_t)o.n },
        .samples = o.samples,
        .seed = o.seed_given ? o.seed : sb_cli_fresh_seed(),
        .rng = o.rng,
        .stop = cli->stop,
    };
    if (sb_cli_set_params(t, o.params, o.n_params, &cfg.args) != 0)
        return SB_EXIT_USAGE;
    sb_report rep;
    if (sb_cli_run(&cfg, o.tests, o.quiet, o.escalate, &rep) != 0)
        return SB_EXIT_USAGE;
    int code = exit_code(&rep);
    int json_on_stdout = o.json && strcmp(o.json, "-") == 0;
    if (!o.quiet && !json_on_stdout && sb_render_text(stdout, &rep) != SB_OK)
        code = SB_EXIT_USAGE;
    if (o.json) {
        FILE *f = sb_cli_open_out(o.json);
        if (!f || sb_render_json(f, &rep) != SB_OK
            || sb_cli_close_out(f, o.json) != 0)
            code = SB_EXIT_USAGE;
    }
    if (rep.run.partial)
        sb_cli_error("interrupted: the report covers the %" PRIu64 " samples "
                     "done of %" PRIu64, rep.run.done, rep.run.samples);
    sb_report_release(&rep);
    return code;
}
