/* names.c - the nearest name, for "did you mean" hints (names.h). */
#include "base/names.h"

#include <stdio.h>
#include <string.h>

/* Levenshtein distance, one row at a time; (size_t)-1 past 63
   characters. */
static size_t distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63)
        return (size_t)-1;
    size_t row[64];
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            if (row[j] + 1 < best)
                best = row[j] + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

void sb_name_nearer(const char *name, const char *candidate, size_t *best,
                    const char **nearest)
{
    const size_t d = distance(name, candidate);
    /* A third of the name's letters, rounded up: 'tset' is a typo of
       'test' (2 edits of 4), but 'xyz' is no typo of 'mrg' (3 of 3). */
    if (d <= (strlen(name) + 2) / 3 && d < *best) {
        *best = d;
        *nearest = candidate;
    }
}

void sb_name_hint(char *buf, size_t len, const char *nearest)
{
    if (nearest)
        snprintf(buf, len, " (did you mean '%s'?)", nearest);
    else if (len)
        buf[0] = '\0';
}
