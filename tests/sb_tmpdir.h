/*
 * sb_tmpdir.h - a scratch directory per test, for the tests that write
 * files.  The includer defines _POSIX_C_SOURCE 200809L first (mkdtemp).
 */
#ifndef SB_TMPDIR_H
#define SB_TMPDIR_H

#include <stdio.h>
#include <stdlib.h>

/* A fresh directory "/tmp/PREFIX-XXXXXX" for a group of tests, its name
   in *state (cmocka's group setup: 0, or -1), and its removal with all it
   holds (the group teardown). */
static inline int sb_test_tmpdir(void **state, const char *prefix)
{
    char *dir = malloc(64);
    if (!dir)
        return -1;
    snprintf(dir, 64, "/tmp/%s-XXXXXX", prefix);
    *state = dir;
    return mkdtemp(dir) ? 0 : -1;
}

static inline int sb_test_tmpdir_remove(void **state)
{
    char *dir = *state, cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    free(dir);
    return system(cmd) == 0 ? 0 : -1;
}

#endif /* SB_TMPDIR_H */
