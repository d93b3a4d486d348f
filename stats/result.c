/* result.c - releasing what a statistic's finalize put in a result. */
#include <stdlib.h>
#include <string.h>
#include "shufflebias/stat.h"

void sb_result_clear(sb_result *res)
{
    if (res == NULL)
        return;
    for (size_t i = 0; res->labels && i < res->table.cols; i++)
        free(res->labels[i]);
    free(res->labels);
    for (size_t i = 0; res->row_names && i < res->table.rows; i++)
        free(res->row_names[i]);
    free(res->row_names);
    free(res->table.observed);
    free(res->table.expected);
    free(res->table.lo);
    free(res->table.hi);
    memset(res, 0, sizeof *res);
}

size_t sb_stat_memory(const sb_stat_type *t, const sb_shape *shape,
                      size_t *finalize)
{
    size_t fin = 4096, acc = 4096;
    if (t->memory)
        acc = t->memory(shape, &fin);
    if (finalize)
        *finalize = fin;
    return acc;
}
