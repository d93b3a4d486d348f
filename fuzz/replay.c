/*
 * replay.c - every case of a fuzz target's corpus through its checker,
 * without libFuzzer: what ctest runs (fuzz_replay_NAME), with the
 * project's own compiler.
 *
 *     fuzz_replay_NAME DIR...
 *
 * Built once per target, like fuzz/fuzz_target.c, with SB_FUZZ_HEADER
 * and SB_FUZZ_ONE naming the checker.  Each file of each DIR is one case
 * (names starting with '.' skipped).  Exit status 0 when every case kept
 * its promises and each DIR held at least one; 1 otherwise, after naming
 * every case that broke one and the promise's number.
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include SB_FUZZ_HEADER
#include "fuzz/slurp.h"

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s DIR...\n", argv[0]);
        return 2;
    }
    unsigned long passed = 0, failed = 0;
    for (int a = 1; a < argc; a++) {
        DIR *d = opendir(argv[a]);
        if (!d) {
            fprintf(stderr, "%s: cannot open '%s'\n", argv[0], argv[a]);
            failed++;
            continue;
        }
        unsigned long cases = 0;
        const struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (e->d_name[0] == '.')
                continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[a], e->d_name);
            size_t size = 0;
            unsigned char *data = sb_fuzz_slurp(path, &size);
            if (!data) {
                fprintf(stderr, "cannot read '%s'\n", path);
                failed++;
                continue;
            }
            const int broke = SB_FUZZ_ONE(data, size);
            free(data);
            cases++;
            if (broke) {
                fprintf(stderr, "'%s' breaks promise %d\n", path, broke);
                failed++;
            } else {
                passed++;
            }
        }
        closedir(d);
        printf("%s: %lu cases\n", argv[a], cases);
        if (cases == 0) {
            fprintf(stderr, "'%s' holds no case\n", argv[a]);
            failed++;
        }
    }
    printf("%lu passed, %lu failed\n", passed, failed);
    return failed ? 1 : 0;
}
