/*
 * external.c - a recorded file, standard input or a user's program as the
 * runner's feed, and what went wrong with it in words.
 *
 * The rule the report follows: nothing read is lost and nothing is
 * counted that was not checked.  Every sample the reader passes is
 * counted; whatever ends the input before the count asked for is an input
 * error, reported with the samples counted before it.
 */
#define _POSIX_C_SOURCE 200809L
#include "src/external.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "shufflebias/status.h"
#include "src/exec.h"

struct sb_external {
    sb_external_spec spec;
    sb_input *in;
    sb_child *child;        /* the program, NULL for a file */
    int fd;                 /* what the reader reads */
    int own_fd;             /* 1 when we opened fd (a file, not stdin) */
    sb_feed feed;
};

static int feed_read(void *ctx, sb_card *out, size_t want, size_t *got)
{
    sb_external *x = ctx;
    return sb_input_read(x->in, out, want, got);
}

/* The environment a program is told what is wanted through: 'env' gets
   the assignments, written into 'store'. */
#define ENV_MAX 8
#define ENV_LEN 64
static size_t program_env(const sb_input_spec *in, uint64_t seed,
                          uint64_t samples, char store[ENV_MAX][ENV_LEN],
                          const char *env[ENV_MAX])
{
    size_t k = 0;
    snprintf(store[k++], ENV_LEN, "SHUFFLEBIAS_N=%zu", in->shape.n);
    snprintf(store[k++], ENV_LEN, "SHUFFLEBIAS_SAMPLES=%" PRIu64, samples);
    snprintf(store[k++], ENV_LEN, "SHUFFLEBIAS_SEED=%" PRIu64, seed);
    snprintf(store[k++], ENV_LEN, "SHUFFLEBIAS_KIND=%s",
             sb_kind_str(in->shape.kind));
    snprintf(store[k++], ENV_LEN, "SHUFFLEBIAS_FORMAT=%s",
             sb_format_str(in->format));
    snprintf(store[k++], ENV_LEN, "SHUFFLEBIAS_ONE_BASED=%d",
             in->one_based ? 1 : 0);
    if (in->shape.kind == SB_KIND_DEAL)
        snprintf(store[k++], ENV_LEN, "SHUFFLEBIAS_HANDS=%u",
                 in->shape.hands);
    if (in->shape.kind == SB_KIND_DRAW && in->shape.len)
        snprintf(store[k++], ENV_LEN, "SHUFFLEBIAS_DRAW=%zu", in->shape.len);
    for (size_t i = 0; i < k; i++)
        env[i] = store[i];
    return k;
}

static void discard(sb_external *x)
{
    if (x->in)
        sb_input_close(x->in);
    if (x->child) {
        int status, by_us;
        sb_child_finish(x->child, 0, &status, &by_us);
    } else if (x->own_fd) {
        close(x->fd);
    }
    free(x);
}

int sb_external_open(sb_external **out, const sb_external_spec *spec,
                     uint64_t seed, uint64_t samples, char *err, size_t len)
{
    *out = NULL;
    sb_external *x = calloc(1, sizeof *x);
    if (!x) {
        snprintf(err, len, "out of memory");
        return SB_ENOMEM;
    }
    x->spec = *spec;
    x->fd = -1;
    /* A spec the reader refuses is refused before any program starts. */
    int rc = sb_input_check(&spec->input, err, len);
    if (rc != SB_OK) {
        free(x);
        return rc;
    }
    if (spec->command) {
        char store[ENV_MAX][ENV_LEN];
        const char *env[ENV_MAX];
        size_t k = program_env(&spec->input, seed, samples, store, env);
        rc = sb_child_start(&x->child, spec->command, env, k, &x->fd, err,
                            len);
        if (rc != SB_OK) {
            free(x);
            return rc;
        }
    } else if (strcmp(spec->path, "-") == 0) {
        x->fd = STDIN_FILENO;
    } else {
        x->fd = open(spec->path, O_RDONLY | O_CLOEXEC);
        if (x->fd < 0) {
            snprintf(err, len, "cannot read '%s': %s", spec->path,
                     strerror(errno));
            free(x);
            return SB_EIO;
        }
        x->own_fd = 1;
    }
    /* Messages name a file ("decks.txt:7 (sample 5): ..."); a program's
       are prefixed by the caller. */
    sb_input_spec named = spec->input;
    if (!spec->command)
        named.name = strcmp(spec->path, "-") == 0 ? "<stdin>" : spec->path;
    rc = sb_input_open_fd(&x->in, &named, x->fd, err, len);
    if (rc == SB_OK) {
        x->feed.name = spec->command ? spec->command : spec->path;
        x->feed.read = feed_read;
        x->feed.ctx = x;
        rc = sb_input_shape(x->in, &x->feed.shape);
        if (rc == SB_EINTR)
            snprintf(err, len, "interrupted before the first sample came");
        else if (rc != SB_OK)
            snprintf(err, len, "%s", sb_input_error(x->in));
    }
    if (rc != SB_OK) {
        discard(x);
        return rc;
    }
    *out = x;
    return SB_OK;
}

const sb_feed *sb_external_feed(sb_external *x)
{
    return &x->feed;
}

/* Append to 'buf' (of size 'len') what printf makes of 'fmt'. */
static void append(char *buf, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void append(char *buf, size_t len, const char *fmt, ...)
{
    size_t used = strlen(buf);
    if (used + 1 >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, len - used, fmt, ap);
    va_end(ap);
}

int sb_external_close(sb_external *x, const sb_report *rep,
                      sb_input_info *info)
{
    const sb_run_info *run = &rep->run;
    memset(info, 0, sizeof *info);
    info->source = x->spec.command ? "exec" : "input";
    info->what = x->feed.name;
    info->format = sb_format_str(x->spec.input.format);
    info->one_based = x->spec.input.one_based;
    info->invalid = sb_input_invalid(x->in);
    for (size_t i = 0; i < info->invalid && i < SB_INPUT_LISTED; i++) {
        snprintf(info->listed[i], sizeof info->listed[i], "%s",
                 sb_input_invalid_msg(x->in, i));
        info->n_listed++;
    }
    const int ended = sb_input_eof(x->in);
    const int bad = run->feed_status != SB_OK;
    const int stopped = x->spec.input.stop && *x->spec.input.stop;
    /* Short of the count asked for at the end of the input: samples
       skipped as bad were written all the same, so a program that wrote
       what it was asked for is not short. */
    const uint64_t seen = sb_input_samples_seen(x->in);
    const int short_count = ended && seen < run->samples;
    if (bad)
        snprintf(info->error, sizeof info->error, "%s",
                 sb_input_error(x->in));
    else if (short_count && !x->child)
        snprintf(info->error, sizeof info->error, "the input ended after "
                 "%" PRIu64 " samples of the %" PRIu64 " asked for",
                 seen, run->samples);
    else if (run->done == 0 && !stopped && !short_count)
        snprintf(info->error, sizeof info->error, "the input holds no "
                 "valid sample%s", info->invalid ? "" : ": nothing to test");
    else if (!stopped && info->invalid > run->done)
        snprintf(info->error, sizeof info->error, "more samples were bad "
                 "(%" PRIu64 ") than good (%" PRIu64 "): check --n, --kind, "
                 "--hands and --format", info->invalid, run->done);

    if (x->child) {
        char last[160];
        snprintf(last, sizeof last, "%s", sb_input_last_line(x->in));
        const int lines = x->spec.input.format == SB_FORMAT_TEXT
                       || x->spec.input.format == SB_FORMAT_CARDS;
        int status = 0, by_us = 0;
        sb_input_close(x->in);
        x->in = NULL;
        if (sb_child_finish(x->child, ended, &status, &by_us) != SB_OK) {
            snprintf(info->program, sizeof info->program,
                     "could not be waited for");
        } else if (by_us) {
            snprintf(info->program, sizeof info->program, "%s",
                     stopped ? "ended by shufflebias, interrupted"
                     : ended ? "closed its output but did not exit; ended "
                               "by shufflebias"
                             : "ended by shufflebias once it had read "
                               "enough");
        } else {
            sb_child_describe(status, info->program, sizeof info->program);
        }
        x->child = NULL;
        /* A program that stopped before writing what was asked for:
           say how it ended, and what it wrote last. */
        if (!bad && short_count) {
            snprintf(info->error, sizeof info->error, "the program %s%s "
                     "after %" PRIu64 " samples of the %" PRIu64 " asked for",
                     WIFSIGNALED(status) ? "was " : "", info->program,
                     seen, run->samples);
            if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
                append(info->error, sizeof info->error,
                       " (the shell could not run the command)");
        } else if (bad) {
            append(info->error, sizeof info->error, "; the program was "
                   "then ended");
        }
        if (info->error[0] && lines && last[0])
            append(info->error, sizeof info->error,
                   "; the last line it wrote: '%s'", last);
        else if (info->error[0] && lines)
            append(info->error, sizeof info->error, "; it wrote no line");
    }
    discard(x);
    return info->error[0] != '\0';
}
