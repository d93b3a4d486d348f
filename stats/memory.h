/*
 * memory.h - what a statistic tells the run's memory budget
 * (sb_stat_type.memory), written the same way by every statistic.
 *
 * An estimate adds SB_MEM_CHUNK bytes to every allocation it counts: the
 * allocator's header and rounding (at most 24 bytes on glibc, which
 * rounds to 16), counted generously so that an estimate stays an upper
 * bound wherever the program runs.
 */
#ifndef SB_STATS_MEMORY_H
#define SB_STATS_MEMORY_H

#include <stddef.h>
#include "stats/gof.h"

#define SB_MEM_CHUNK 32u
/* From this size allocators map whole pages (glibc: 128 KiB at first),
   so the last page's rest is counted too. */
#define SB_MEM_PAGE 4096u
#define SB_MEM_MAPPED ((size_t)64 << 10)

/* One allocation of 'bytes'. */
static inline size_t sb_mem(size_t bytes)
{
    if (bytes >= SB_MEM_MAPPED)
        return (bytes + 2 * SB_MEM_PAGE - 1) / SB_MEM_PAGE * SB_MEM_PAGE;
    return bytes + SB_MEM_CHUNK;
}

/* What a finalize allocates that refers 'k' categories to their null
   (a probability each, the pooling's two arrays, a table of the groups
   with their ranges) and copies a table of 'cells' cells (observed and
   expected, at most SB_GOF_TABLE_CELLS of them) into its result; either
   may be 0. */
static inline size_t sb_mem_finalize(size_t k, size_t cells)
{
    const size_t kept = cells < SB_GOF_TABLE_CELLS ? cells
                                                   : SB_GOF_TABLE_CELLS;
    return 4096 + (k ? 6 * sb_mem((k + 1) * sizeof(double)) : 0)
         + (kept ? 2 * sb_mem(kept * sizeof(double)) : 0);
}

#endif /* SB_STATS_MEMORY_H */
