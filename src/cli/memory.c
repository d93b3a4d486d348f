/*
 * memory.c - the --memory option of test, exact and merge, and what
 * the CLI says about the budget.
 */
#include "cli/cli.h"

#include <inttypes.h>

#include "shufflebias/report.h"
#include "shufflebias/status.h"
#include "engine/budget.h"

int sb_cli_opt_memory(const char *arg, uint64_t *out)
{
    if (sb_budget_parse(arg, out) == SB_OK)
        return 0;
    sb_cli_error("invalid --memory '%s': expected a size of at least 1M "
                 "such as 512M, 2G or 1.5GiB (K, M, G and T are powers of "
                 "1024)", arg);
    return -1;
}

void sb_cli_memory_note(const sb_report *rep, int quiet)
{
    if (quiet || !rep->run.threads_wanted)
        return;
    char need[32], budget[32];
    sb_budget_str(rep->run.memory_estimate, need, sizeof need);
    sb_budget_str(rep->run.memory_budget, budget, sizeof budget);
    fprintf(stderr, "shufflebias: ran on %u of the %u threads asked for: "
            "each thread keeps its own tables, and %u need %s of the "
            "memory budget of %s (--memory); the counts are the same\n",
            rep->run.threads, rep->run.threads_wanted, rep->run.threads,
            need, budget);
}
