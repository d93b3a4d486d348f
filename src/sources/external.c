/*
 * external.c - a recorded file, standard input or a user's program as the
 * runner's feed, and what went wrong with it in words.
 *
 * The rule the report follows: nothing read is lost and nothing is
 * counted that was not checked.  Every sample the reader passes is
 * counted; whatever ends the input before the count asked for is an input
 * error, reported with the samples counted before it.
 *
 * Nothing hangs.  A program's pipe is read through the reader's 'waiting'
 * hook, asked after every 0.2 s without a byte: it ends the input when
 * the shell has exited (what is still holding the pipe was left in the
 * background, and end-of-file would never come) - the reader still takes
 * whatever the pipe holds by then, the shell's last samples written after
 * the wait among them - and stops the reading once the program has been
 * silent for --exec-timeout.  A FIFO is opened without waiting for a
 * writer (see sb_external_open), so that the only wait is the reader's,
 * which looks at the stop flag every 0.2 s.
 *
 * An interrupt is reported like any other, whenever it comes: one that
 * comes before the first sample of a draw of unknown length settled the
 * length still lets the run go on, over nothing, so that its empty
 * partial report is written.
 */
#define _POSIX_C_SOURCE 200809L
#include "sources/external.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "shufflebias/status.h"
#include "sources/exec.h"

/* Why the reading of a program's output stopped short of end-of-file. */
enum { CUT_NONE = 0,
       CUT_LEFT,            /* the shell exited; its background held on */
       CUT_SILENT };        /* no byte for idle_seconds */

struct sb_external {
    sb_external_spec spec;
    sb_input *in;
    sb_child *child;        /* the program, NULL for a file */
    int fd;                 /* what the reader reads */
    int own_fd;             /* 1 when we opened fd (a file, not stdin) */
    int cut;                /* CUT_*: set by program_waiting */
    int unread;             /* interrupted before the first sample of a
                               draw of unknown length: nothing is read */
    uint64_t bytes;         /* bytes read when last asked */
    long long quiet_since;  /* ms (monotonic) since which none came */
    char shown[96];         /* the command as messages quote it */
    sb_feed feed;
};

static long long now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* The reader's 'waiting' hook for a program's pipe (see the essay). */
static int program_waiting(void *ctx, uint64_t bytes_read)
{
    sb_external *x = ctx;
    const long long now = now_ms();
    if (bytes_read != x->bytes) {
        x->bytes = bytes_read;
        x->quiet_since = now;
    }
    if (sb_child_exited(x->child)) {
        x->cut = CUT_LEFT;
        return SB_INPUT_END;
    }
    if (x->spec.idle_seconds
        && now - x->quiet_since >= 1000LL * x->spec.idle_seconds) {
        x->cut = CUT_SILENT;
        return SB_INPUT_STOP;
    }
    return SB_INPUT_WAIT;
}

/* "1 sample", "2 samples". */
static const char *samples_word(uint64_t count)
{
    return count == 1 ? "sample" : "samples";
}

static int feed_read(void *ctx, sb_card *out, size_t want, size_t *got)
{
    sb_external *x = ctx;
    if (x->unread) {
        *got = 0;
        return SB_OK;
    }
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
        /* A FIFO's blocking open(2) waits for a writer, and only a signal
           ends that wait: one that came between a look at the stop flag
           and the open would be lost, and the open would wait for the
           next.  O_NONBLOCK opens a FIFO for reading at once; the wait
           for a writer is then the reader's, in poll(2) between looks at
           the flag.  (On Linux a FIFO's reader polls with no event until
           a writer has come, so the reader does not take the time before
           it for an end.)  The flag is cleared at once: a regular file or
           a device is then read exactly as before. */
        int flags;
        do
            x->fd = open(spec->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
        while (x->fd < 0 && errno == EINTR);
        if (x->fd < 0 || (flags = fcntl(x->fd, F_GETFL)) < 0
            || fcntl(x->fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
            snprintf(err, len, "cannot read '%s': %s", spec->path,
                     strerror(errno));
            if (x->fd >= 0)
                close(x->fd);
            free(x);
            return SB_EIO;
        }
        x->own_fd = 1;
    }
    /* Messages name a file ("decks.txt:7 (sample 5): ..."); a program's
       are prefixed by the caller. */
    if (!spec->command)
        x->spec.input.name = strcmp(spec->path, "-") == 0 ? "<stdin>"
                                                          : spec->path;
    if (spec->command) {
        snprintf(x->shown, sizeof x->shown, "%s", spec->command);
        if (strlen(spec->command) >= sizeof x->shown)
            memcpy(x->shown + sizeof x->shown - 4, "...", 4);
        x->quiet_since = now_ms();
        x->spec.input.waiting = program_waiting;
        x->spec.input.waiting_ctx = x;
    }
    rc = sb_input_open_fd(&x->in, &x->spec.input, x->fd, err, len);
    if (rc == SB_OK) {
        x->feed.name = spec->command ? spec->command : spec->path;
        x->feed.read = feed_read;
        x->feed.ctx = x;
        rc = sb_input_shape(x->in, &x->feed.shape);
        if (rc == SB_EINTR && x->cut == CUT_SILENT) {
            snprintf(err, len, "the program '%s' wrote nothing for %u s "
                     "(--exec-timeout) and was ended before its first "
                     "sample", x->shown, spec->idle_seconds);
            rc = SB_EINVAL;
        } else if (rc == SB_EINTR) {
            /* Interrupted before the first sample said how many cards a
               draw holds: the run goes on over nothing, to be reported as
               interrupted.  A draw of one card is a shape every
               statistic of draws takes (the report does not show the
               length); nothing is read, so no sample of another length
               can meet it. */
            x->feed.shape = spec->input.shape;
            x->feed.shape.len = 1;
            x->unread = 1;
            rc = SB_OK;
        } else if (rc != SB_OK && spec->command) {
            snprintf(err, len, "%s (the output of the program '%s')",
                     sb_input_error(x->in), x->shown);
        } else if (rc != SB_OK) {
            snprintf(err, len, "%s", sb_input_error(x->in));
        }
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
                 "%" PRIu64 " %s of the %" PRIu64 " asked for",
                 seen, samples_word(seen), run->samples);
    else if (run->done == 0 && !stopped && !short_count
             && x->cut != CUT_SILENT)
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
        /* The shell gone and the rest of its group holding the pipe: the
           output did not end, and the group is ours to end. */
        const int left = x->cut == CUT_LEFT;
        const int silent = x->cut == CUT_SILENT;
        int status = 0, by_us = 0;
        sb_input_close(x->in);
        x->in = NULL;
        const int waited = sb_child_finish(x->child, ended && !left,
                                           &status, &by_us) == SB_OK;
        x->child = NULL;
        if (left)
            by_us = 0;   /* the shell exited before we closed anything */
        /* How it ended, for the report's "ended" line, and the same for
           the error: "the program 'CMD' <how> after S samples of the N
           asked for<tail>". */
        char how[SB_INPUT_MSG], tail[SB_INPUT_MSG] = "";
        if (!waited) {
            snprintf(info->program, sizeof info->program,
                     "could not be waited for");
            snprintf(how, sizeof how, "could not be waited for");
        } else if (silent) {
            snprintf(info->program, sizeof info->program, "wrote nothing "
                     "for %u s (--exec-timeout); ended by shufflebias",
                     x->spec.idle_seconds);
            snprintf(how, sizeof how, "wrote nothing for %u s",
                     x->spec.idle_seconds);
            snprintf(tail, sizeof tail, ", and was ended (--exec-timeout "
                     "%u; 0 waits without limit)", x->spec.idle_seconds);
        } else if (by_us) {
            snprintf(info->program, sizeof info->program, "%s",
                     stopped ? "ended by shufflebias, interrupted"
                     : ended ? "closed its output but did not exit; ended "
                               "by shufflebias"
                             : "ended by shufflebias once it had read "
                               "enough");
            snprintf(how, sizeof how, "%s", stopped ? "was interrupted"
                     : "closed its output");
            snprintf(tail, sizeof tail, "%s", stopped ? "" : ", but did "
                     "not exit, and was ended by shufflebias");
        } else {
            sb_child_describe(status, info->program, sizeof info->program);
            snprintf(how, sizeof how, "%s", WIFSIGNALED(status) ? "was "
                     : "");
            append(how, sizeof how, "%s", info->program);
            if (left) {
                static const char bg[] = "; what it left running in the "
                    "background held its output open and was ended";
                append(info->program, sizeof info->program, "%s", bg);
                snprintf(tail, sizeof tail, "%s", bg);
            }
        }
        /* A program that stopped before writing what was asked for, or
           went silent: say how it ended, and what it wrote last. */
        if (!bad && (short_count || silent)) {
            /* Built in pieces: a long command and a long 'how' may not
               both fit, and the end is then cut off. */
            snprintf(info->error, sizeof info->error, "the program '%s' ",
                     x->shown);
            append(info->error, sizeof info->error, "%s after %" PRIu64
                   " %s of the %" PRIu64 " asked for%s", how, seen,
                   samples_word(seen), run->samples, tail);
            if (waited && WIFEXITED(status) && WEXITSTATUS(status) == 127)
                append(info->error, sizeof info->error,
                       " (the shell could not run the command)");
        } else if (bad) {
            append(info->error, sizeof info->error, "; the program '%s' "
                   "was then ended", x->shown);
        } else if (info->error[0]) {
            append(info->error, sizeof info->error, " (the program '%s')",
                   x->shown);
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
