/* result.c - releasing what a statistic's finalize put in a result. */
#include <stdlib.h>
#include <string.h>
#include "shufflebias/stat.h"

void sb_result_clear(sb_result *res)
{
    if (res == NULL)
        return;
    free(res->table.observed);
    free(res->table.expected);
    free(res->table.lo);
    free(res->table.hi);
    memset(res, 0, sizeof *res);
}
