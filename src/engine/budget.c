/*
 * budget.c - parsing, defaulting and dividing the memory budget.
 *
 * Sizes are binary (K = 1024) where counts of samples are decimal
 * (1M samples = 10^6): memory is sold and reported by the operating
 * system in powers of two, and "512M" of memory means 512 MiB to free(1)
 * and to ulimit.
 */
#define _DEFAULT_SOURCE   /* _SC_PHYS_PAGES */
#include "engine/budget.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "shufflebias/status.h"

int sb_budget_parse(const char *s, uint64_t *bytes)
{
    const size_t body = strspn(s, "0123456789.");
    if (body == 0 || body >= 32 || !isdigit((unsigned char)s[0]))
        return SB_EINVAL;
    const char *unit = s + body;
    unsigned shift = 0;
    switch (*unit) {
    case '\0': break;
    case 'k': case 'K': shift = 10; break;
    case 'm': case 'M': shift = 20; break;
    case 'g': case 'G': shift = 30; break;
    case 't': case 'T': shift = 40; break;
    case 'b': case 'B': break;
    default: return SB_EINVAL;
    }
    if (*unit && *unit != 'b' && *unit != 'B') {
        unit++;
        if (strcmp(unit, "iB") == 0 || strcmp(unit, "B") == 0)
            unit += strlen(unit);
    } else if (*unit) {
        unit++;
    }
    if (*unit)
        return SB_EINVAL;
    char number[32];
    memcpy(number, s, body);
    number[body] = '\0';
    char *end;
    errno = 0;
    const double v = ldexp(strtod(number, &end), (int)shift);
    if (*end || errno == ERANGE || !(v >= (double)SB_BUDGET_MIN)
        || v > ldexp(1.0, 62))
        return SB_EINVAL;
    *bytes = (uint64_t)v;
    return SB_OK;
}

/* The number a control-group file holds, or UINT64_MAX when it cannot be
   read or says "max" (no limit). */
static uint64_t cgroup_limit(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return UINT64_MAX;
    unsigned long long v;
    const int got = fscanf(f, "%llu", &v);
    fclose(f);
    return got == 1 && v > 0 ? (uint64_t)v : UINT64_MAX;
}

uint64_t sb_budget_default(void)
{
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long page = sysconf(_SC_PAGE_SIZE);
    uint64_t machine = pages > 0 && page > 0
                     ? (uint64_t)pages * (uint64_t)page
                     : 2 * SB_BUDGET_FALLBACK;
    /* A container's limit (control groups v2, then v1) and the process's
       address-space limit (ulimit -v) are what the run can really have:
       a budget above them would end in the kernel's OOM killer, or a
       failed allocation, where a refusal could have said why. */
    const uint64_t limits[] = {
        cgroup_limit("/sys/fs/cgroup/memory.max"),
        cgroup_limit("/sys/fs/cgroup/memory/memory.limit_in_bytes"),
    };
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++)
        if (limits[i] < machine)
            machine = limits[i];
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY
        && (uint64_t)rl.rlim_cur < machine)
        machine = (uint64_t)rl.rlim_cur;
    const uint64_t half = machine / 2;
    return half < SB_BUDGET_MIN ? SB_BUDGET_MIN
         : half < SB_BUDGET_DEFAULT_MAX ? half : SB_BUDGET_DEFAULT_MAX;
}

void sb_budget_str(uint64_t bytes, char *buf, size_t len)
{
    static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB",
                                         "PiB", "EiB" };
    double v = (double)bytes;
    size_t u = 0;
    while (v >= 1024.0 && u + 1 < sizeof units / sizeof units[0]) {
        v /= 1024.0;
        u++;
    }
    if (u == 0)
        snprintf(buf, len, "%llu B", (unsigned long long)bytes);
    else if (v >= 100.0 || v == floor(v))
        snprintf(buf, len, "%.0f %s", ceil(v), units[u]);
    else
        /* Rounded up, so that a need is never understated. */
        snprintf(buf, len, "%.1f %s", ceil(v * 10.0) / 10.0, units[u]);
}

unsigned sb_budget_threads(uint64_t budget, unsigned want,
                           uint64_t (*need)(unsigned t, const void *ctx),
                           const void *ctx)
{
    unsigned t = want ? want : 1;
    /* The need grows with t: the first t from the top that fits. */
    while (t > 0 && need(t, ctx) > budget)
        t--;
    return t;
}
