/*
 * budget.h - one memory budget for a run.
 *
 * A run (shufflebias test, merge, exact) holds its counting tables within
 * one budget of bytes, given with --memory or else a share of the
 * machine.  The budget covers what grows with the run's shape and its
 * threads - the statistics' accumulators, the copies a checkpoint and a
 * resume hold, the tables of the results, the outcome tables of exact
 * mode - not the program itself, a few fixed buffers, or what a plug-in
 * allocates on its own.
 */
#ifndef SB_ENGINE_BUDGET_H
#define SB_ENGINE_BUDGET_H

#include <stddef.h>
#include <stdint.h>

/* The default budget: half of the memory the process can have - the
   physical memory, or less when a container's control group or the
   address-space limit (ulimit -v) allows less - at most this much.
   Half leaves the other half to the system and to whatever else runs;
   the cap keeps a run on a large shared server from taking hundreds of
   gigabytes only because they are there (16 GiB holds the default
   battery at 52 cards on 128 threads, collisions' tables included). */
#define SB_BUDGET_DEFAULT_MAX ((uint64_t)16 << 30)
/* Half of what is assumed when the physical memory cannot be read. */
#define SB_BUDGET_FALLBACK ((uint64_t)1 << 30)
/* The smallest budget --memory accepts. */
#define SB_BUDGET_MIN ((uint64_t)1 << 20)

/* A size such as 512M, 2G, 1.5GiB, 800MiB, 65536 or 64K: a number (a
   decimal point allowed) and an optional unit K, M, G or T, each a power
   of 1024 (KiB, MiB, GiB, TiB), optionally followed by "iB" or "B"; no
   unit means bytes.  SB_OK and *bytes, or SB_EINVAL when 's' is not such
   a size or is below SB_BUDGET_MIN or above 2^62. */
int sb_budget_parse(const char *s, uint64_t *bytes);

/* The default budget (see SB_BUDGET_DEFAULT_MAX). */
uint64_t sb_budget_default(void);

/* 'bytes' for people: "80 MiB", "1.5 GiB", "512 KiB", "300 B". */
void sb_budget_str(uint64_t bytes, char *buf, size_t len);

/* The most threads, at most 'want', whose need fits 'budget', where t
   threads need 'need(t, ctx)' bytes (non-decreasing in t); 0 when even one
   thread does not fit. */
unsigned sb_budget_threads(uint64_t budget, unsigned want,
                           uint64_t (*need)(unsigned t, const void *ctx),
                           const void *ctx);

#endif /* SB_ENGINE_BUDGET_H */
