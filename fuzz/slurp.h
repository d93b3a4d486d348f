/*
 * slurp.h - a whole file in memory, for the fuzz targets and their
 * replay (a case is a file; the state target reads back what it wrote).
 */
#ifndef SB_FUZZ_SLURP_H
#define SB_FUZZ_SLURP_H

#include <stdio.h>
#include <stdlib.h>

/* The whole file 'path' in a malloc'd buffer (free it) and its size in
   *size; NULL when it cannot be opened or read, or memory runs out. */
static inline unsigned char *sb_fuzz_slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    unsigned char *p = NULL;
    size_t n = 0, cap = 0, got;
    do {
        if (n == cap) {
            cap = cap ? 2 * cap : 65536;
            unsigned char *q = realloc(p, cap);
            if (!q) {
                free(p);
                fclose(f);
                return NULL;
            }
            p = q;
        }
        got = fread(p + n, 1, cap - n, f);
        n += got;
    } while (got > 0);
    const int failed = ferror(f);
    fclose(f);
    if (failed) {
        free(p);
        return NULL;
    }
    *size = n;
    return p;
}

#endif /* SB_FUZZ_SLURP_H */
