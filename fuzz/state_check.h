/*
 * state_check.h - one fuzz case for the state-file reader (fuzz target
 * "state", src/engine/state.c): the case is written to a file, read back with
 * sb_state_read, and what the reader promises is checked.
 *
 * A state file ends with a hash of its payload, which random bytes
 * almost never match, so most cases would stop at the checksum: the
 * first byte of a case chooses.
 *   byte 0  bit 0 set: the rest is a payload, wrapped here in a file
 *           with the right magic, format, length and hash (what a fuzzer
 *           needs to reach the fields); clear: the rest is the whole
 *           file as it is (the magic, header and hash checks).
 *
 * The promises checked: the reader returns SB_OK, or SB_EINVAL,
 * SB_ENOTFOUND or SB_ENOMEM with a message in 'err' that fits it (never
 * SB_EIO for a file that can be read); on SB_OK every string held is
 * terminated within its field, the kind is one of the three, at most
 * SB_STATE_STATS_MAX statistics are named and each is one of the
 * program's; and the state written back reads back to the same bytes
 * (write, read, write again: the two files are identical), so nothing
 * the reader accepts is lost or changed by resuming it.
 * AddressSanitizer and UndefinedBehaviorSanitizer catch the rest.
 */
#ifndef SB_FUZZ_STATE_CHECK_H
#define SB_FUZZ_STATE_CHECK_H

/* mkstemp: the includer defines _POSIX_C_SOURCE 200809L before any
   system header (fuzz/fuzz_target.c and fuzz/replay.c do). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shufflebias/status.h"
#include "engine/state.h"
#include "fuzz/slurp.h"

/* Which promise a case broke; 0 for none. */
enum {
    SB_FUZZ_STATE_OK = 0,
    SB_FUZZ_STATE_STATUS,    /* a status the reader does not promise */
    SB_FUZZ_STATE_MESSAGE,   /* a refusal without a message */
    SB_FUZZ_STATE_FIELDS,    /* an accepted state that cannot be */
    SB_FUZZ_STATE_ROUND,     /* written back, it does not read the same */
    SB_FUZZ_STATE_TEMP       /* the case could not be set up */
};

/* 'size' bytes at 'data' into a new temporary file, whose name is put
   in 'path' (room for 64); 0, or -1. */
static inline int sb_fuzz_state_file(const void *data, size_t size,
                                     char path[64])
{
    const char *dir = getenv("TMPDIR");
    if (!dir || strlen(dir) > 40)
        dir = "/tmp";
    snprintf(path, 64, "%s/sb-fuzz-state-XXXXXX", dir);
    const int fd = mkstemp(path);
    if (fd < 0)
        return -1;
    const unsigned char *p = data;
    while (size > 0) {
        const ssize_t k = write(fd, p, size);
        if (k <= 0) {
            close(fd);
            unlink(path);
            return -1;
        }
        p += k;
        size -= (size_t)k;
    }
    close(fd);
    return 0;
}

/* 0 when the accepted state 'st' holds what a state can. */
static inline int sb_fuzz_state_fields(const sb_state *st)
{
    if (memchr(st->algorithm, '\0', sizeof st->algorithm) == NULL ||
        memchr(st->plugin, '\0', sizeof st->plugin) == NULL ||
        memchr(st->params, '\0', sizeof st->params) == NULL ||
        memchr(st->rng, '\0', sizeof st->rng) == NULL)
        return 1;
    if (st->shape.kind != SB_KIND_PERMUTATION &&
        st->shape.kind != SB_KIND_DRAW && st->shape.kind != SB_KIND_DEAL)
        return 1;
    if (st->n_stats > SB_STATE_STATS_MAX)
        return 1;
    for (size_t i = 0; i < st->n_stats; i++)
        if (!st->stats[i] || !st->stats[i]->name)
            return 1;
    return 0;
}

static inline int sb_fuzz_state_one(const uint8_t *data, size_t size)
{
    if (size < 1)
        return SB_FUZZ_STATE_OK;
    unsigned char *file = NULL;
    size_t file_size = size - 1;
    if (data[0] & 1u) {
        /* magic, format, payload length, payload, FNV-1a of the payload:
           the layout src/engine/state.h documents, written here on its own. */
        static const char magic[8] = { 'S', 'B', 'S', 'T', 'A', 'T', 'E',
                                       '\n' };
        const size_t payload = size - 1;
        file_size = 24 + payload + 8;
        file = malloc(file_size);
        if (!file)
            return SB_FUZZ_STATE_TEMP;
        memcpy(file, magic, 8);
        uint64_t hash = 0xcbf29ce484222325u;
        for (size_t i = 0; i < payload; i++)
            hash = (hash ^ data[1 + i]) * 0x100000001b3u;
        const uint64_t fields[2] = { SB_STATE_FORMAT, payload };
        for (int f = 0; f < 2; f++)
            for (int b = 0; b < 8; b++)
                file[8 + 8 * f + b] = (unsigned char)(fields[f] >> (8 * b));
        memcpy(file + 24, data + 1, payload);
        for (int b = 0; b < 8; b++)
            file[24 + payload + (size_t)b] = (unsigned char)(hash >> (8 * b));
    }
    char path[64], again[80];
    const int made = sb_fuzz_state_file(file ? file : data + 1, file_size,
                                        path);
    free(file);
    if (made != 0)
        return SB_FUZZ_STATE_TEMP;

    int broke = SB_FUZZ_STATE_OK;
    sb_state st;
    char err[768];
    err[0] = '\0';
    const int rc = sb_state_read(path, &st, err, sizeof err);
    if (rc != SB_OK) {
        if (rc != SB_EINVAL && rc != SB_ENOTFOUND && rc != SB_ENOMEM)
            broke = SB_FUZZ_STATE_STATUS;
        else if (!err[0] || strlen(err) >= sizeof err - 1)
            broke = SB_FUZZ_STATE_MESSAGE;
        unlink(path);
        return broke;
    }
    if (sb_fuzz_state_fields(&st) != 0) {
        sb_state_free(&st);
        unlink(path);
        return SB_FUZZ_STATE_FIELDS;
    }
    /* Write it back, read that, write again: the same bytes. */
    snprintf(again, sizeof again, "%s.again", path);
    sb_state st2;
    unsigned char *one = NULL, *two = NULL;
    size_t one_size = 0, two_size = 0;
    if (sb_state_write(path, &st, err, sizeof err) != SB_OK ||
        (one = sb_fuzz_slurp(path, &one_size)) == NULL)
        broke = SB_FUZZ_STATE_ROUND;
    else if (sb_state_read(path, &st2, err, sizeof err) != SB_OK)
        broke = SB_FUZZ_STATE_ROUND;
    else {
        if (sb_state_write(again, &st2, err, sizeof err) != SB_OK ||
            (two = sb_fuzz_slurp(again, &two_size)) == NULL ||
            one_size != two_size || memcmp(one, two, one_size) != 0)
            broke = SB_FUZZ_STATE_ROUND;
        sb_state_free(&st2);
    }
    free(one);
    free(two);
    sb_state_free(&st);
    unlink(path);
    unlink(again);
    return broke;
}

#endif /* SB_FUZZ_STATE_CHECK_H */
