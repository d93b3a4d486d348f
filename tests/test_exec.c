/*
 * test_exec.c - a user's program as a source of decks: what it is told
 * through the environment, how its end is reported, and that ending it
 * never hangs and never leaves a zombie or a stray process behind.
 *
 * Every program here is a line of /bin/sh.  No test sleeps or measures
 * time: a program that would not be ended makes the test hang, and the
 * test's time limit turns the hang into a failure.  Each test ends by
 * checking that this process has no child left, reaped or not (it starts
 * no other children).
 *
 * A FIFO given as the input (src/sources/external.c) ends this file: it must be
 * opened without waiting for a writer, since a wait in open(2) is one that
 * only a signal can end.
 */
#define _GNU_SOURCE   /* strsignal, setenv, getpgid */
#include "tests/sb_test.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "shufflebias/status.h"
#include "sources/exec.h"
#include "sources/external.h"

/* No child of ours exists, running or zombie: waitpid finds none. */
static void assert_no_children(void)
{
    int st;
    errno = 0;
    assert_int_equal(waitpid(-1, &st, WNOHANG), -1);
    assert_int_equal(errno, ECHILD);
}

static sb_child *start(const char *command, const char *const *env,
                       size_t n_env, int *fd)
{
    sb_child *child = NULL;
    char err[256] = "";
    int rc = sb_child_start(&child, command, env, n_env, fd, err, sizeof err);
    if (rc != SB_OK)
        print_error("sb_child_start: %s\n", err);
    assert_int_equal(rc, SB_OK);
    assert_non_null(child);
    assert_true(*fd >= 0);
    return child;
}

/* Read until end of output or until 'want' bytes are in; returns the count
   (NUL-terminated in 'buf', which holds 'cap' bytes). */
static size_t read_some(int fd, char *buf, size_t cap, size_t want)
{
    size_t have = 0;
    while (have < want && have + 1 < cap) {
        ssize_t r = read(fd, buf + have, cap - 1 - have);
        if (r < 0 && errno == EINTR)
            continue;
        assert_true(r >= 0);
        if (r == 0)
            break;
        have += (size_t)r;
    }
    buf[have] = '\0';
    return have;
}

/* The whole output; it must fit in 'cap' - 1 bytes. */
static size_t read_all(int fd, char *buf, size_t cap)
{
    size_t have = read_some(fd, buf, cap, cap);
    char extra;
    assert_int_equal(read(fd, &extra, 1), 0);
    return have;
}

/* One line, byte by byte, so that nothing after the newline is taken. */
static void read_line(int fd, char *buf, size_t cap)
{
    size_t have = 0;
    for (;;) {
        assert_true(have + 1 < cap);
        ssize_t r = read(fd, buf + have, 1);
        if (r < 0 && errno == EINTR)
            continue;
        assert_int_equal(r, 1);
        if (buf[have] == '\n')
            break;
        have++;
    }
    buf[have] = '\0';
}

static void finish(sb_child *child, int ended, int *status, int *by_us)
{
    *status = -1;
    *by_us = -1;
    assert_int_equal(sb_child_finish(child, ended, status, by_us), SB_OK);
    assert_no_children();
}

/* The assignments reach the program: what it prints is what it was
   given. */
static void test_environment(void **state)
{
    (void)state;
    const char *env[] = { "SHUFFLEBIAS_N=52", "SHUFFLEBIAS_SEED=12345" };
    int fd, status, by_us;
    sb_child *c = start("printf '%s %s\\n' \"$SHUFFLEBIAS_N\" "
                        "\"$SHUFFLEBIAS_SEED\"", env, 2, &fd);
    char buf[256];
    read_all(fd, buf, sizeof buf);
    assert_string_equal(buf, "52 12345\n");
    finish(c, 1, &status, &by_us);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    assert_int_equal(by_us, 0);
}

/* An assignment replaces a variable of ours of the same name (the later of
   two assignments winning) and leaves the others as they are.  Where
   /proc is there, the environment the shell was started with is read
   back too: the variable is in it once, not twice (a shell reading an
   environment with a name twice keeps one of them silently, so the value
   alone could not show a duplicate). */
static void test_override(void **state)
{
    (void)state;
    assert_int_equal(setenv("SB_EXEC_TEST_VAR", "ours", 1), 0);
    assert_int_equal(setenv("SB_EXEC_TEST_KEEP", "kept", 1), 0);
    const char *env[] = { "SB_EXEC_TEST_VAR=first",
                          "SB_EXEC_TEST_VAR=theirs" };
    const int proc = access("/proc/self/environ", R_OK) == 0;
    const char *cmd = proc
        ? "printf '%s %s\\n' \"$SB_EXEC_TEST_VAR\" \"$SB_EXEC_TEST_KEEP\"; "
          "tr '\\000' '\\n' < /proc/$$/environ | grep -c '^SB_EXEC_TEST_VAR='"
        : "printf '%s %s\\n' \"$SB_EXEC_TEST_VAR\" \"$SB_EXEC_TEST_KEEP\"";
    int fd, status, by_us;
    sb_child *c = start(cmd, env, 2, &fd);
    char buf[256];
    read_all(fd, buf, sizeof buf);
    assert_string_equal(buf, proc ? "theirs kept\n1\n" : "theirs kept\n");
    finish(c, 1, &status, &by_us);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    unsetenv("SB_EXEC_TEST_VAR");
    unsetenv("SB_EXEC_TEST_KEEP");
}

/* Standard input is /dev/null and the shell leads a process group of its
   own (Linux: read from /proc). */
static void test_stdin_and_group(void **state)
{
    (void)state;
    if (access("/proc/self/stat", R_OK) != 0)
        skip();
    int fd, status, by_us;
    sb_child *c = start("readlink /proc/$$/fd/0; "
                        "read -r pid comm st ppid pgrp rest < /proc/$$/stat; "
                        "echo \"$pid $pgrp\"", NULL, 0, &fd);
    char buf[256];
    read_all(fd, buf, sizeof buf);
    char *nl = strchr(buf, '\n');
    assert_non_null(nl);
    *nl = '\0';
    assert_string_equal(buf, "/dev/null");
    long pid = -1, pgrp = -2;
    assert_int_equal(sscanf(nl + 1, "%ld %ld", &pid, &pgrp), 2);
    assert_true(pid > 0);
    assert_int_equal(pid, pgrp);
    assert_true(pid != (long)getpgrp());
    finish(c, 1, &status, &by_us);
    assert_int_equal(by_us, 0);
}

/* A program that stops early with status 3 is reported so, and not as our
   doing. */
static void test_exit_status(void **state)
{
    (void)state;
    int fd, status, by_us;
    sb_child *c = start("echo early; exit 3", NULL, 0, &fd);
    char buf[64];
    read_all(fd, buf, sizeof buf);
    assert_string_equal(buf, "early\n");
    finish(c, 1, &status, &by_us);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 3);
    assert_int_equal(by_us, 0);
    char words[128];
    sb_child_describe(status, words, sizeof words);
    assert_string_equal(words, "exited with status 3");
}

/* A crash is reported with its signal and the system's name for it.  The
   core file is switched off so that the test leaves nothing behind. */
static void test_crash(void **state)
{
    (void)state;
    int fd, status, by_us;
    sb_child *c = start("ulimit -c 0; kill -SEGV $$", NULL, 0, &fd);
    char buf[64];
    read_all(fd, buf, sizeof buf);
    finish(c, 1, &status, &by_us);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGSEGV);
    assert_int_equal(by_us, 0);
    char words[128];
    sb_child_describe(status, words, sizeof words);
    assert_string_equal(words, "killed by signal 11 (SIGSEGV)");
}

/* A crash behind the shell: sh waits for the command and exits with
   128 + 11.  The status is kept as it is (a program may exit with 139
   itself) and the shell's reading of it is said beside it; a status that
   is no signal's report is left alone. */
static void test_crash_behind_shell(void **state)
{
    (void)state;
    static const struct { const char *command, *words; } cases[] = {
        { "sh -c 'ulimit -c 0; kill -SEGV $$'; exit $?",
          "exited with status 139 (a shell's report of a command killed "
          "by signal 11, SIGSEGV)" },
        { "exit 139", "exited with status 139 (a shell's report of a "
                      "command killed by signal 11, SIGSEGV)" },
        { "exit 200", "exited with status 200" },
        { "exit 128", "exited with status 128" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int fd, status, by_us;
        sb_child *c = start(cases[i].command, NULL, 0, &fd);
        char buf[64];
        read_all(fd, buf, sizeof buf);
        finish(c, 1, &status, &by_us);
        assert_true(WIFEXITED(status));
        assert_int_equal(by_us, 0);
        char words[160];
        sb_child_describe(status, words, sizeof words);
        assert_string_equal(words, cases[i].words);
    }
}

/* A command the shell cannot find starts, and exits with status 127. */
static void test_not_found(void **state)
{
    (void)state;
    int fd, status, by_us;
    sb_child *c = start("shufflebias-no-such-program-here 2>/dev/null",
                        NULL, 0, &fd);
    char buf[64];
    read_all(fd, buf, sizeof buf);
    assert_string_equal(buf, "");
    finish(c, 1, &status, &by_us);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 127);
    assert_int_equal(by_us, 0);
}

/* A program that would write forever is ended by SIGPIPE once we stop
   reading, and that is our doing.  We ignore SIGPIPE ourselves while it
   starts: the program must get the default disposition back, or it would
   not die of the broken pipe. */
static void test_writer_forever(void **state)
{
    (void)state;
    struct sigaction ign, old;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    assert_int_equal(sigaction(SIGPIPE, &ign, &old), 0);
    int fd, status, by_us;
    sb_child *c = start("yes 0 1 2", NULL, 0, &fd);
    assert_int_equal(sigaction(SIGPIPE, &old, NULL), 0);
    char buf[4096];
    assert_true(read_some(fd, buf, sizeof buf, 60) >= 60);
    assert_memory_equal(buf, "0 1 2\n0 1 2\n", 12);
    finish(c, 0, &status, &by_us);
    assert_int_equal(by_us, 1);
    /* Killed by SIGPIPE, or the shell's report of that: 128 + 13. */
    assert_true((WIFSIGNALED(status) && WTERMSIG(status) == SIGPIPE)
                || (WIFEXITED(status) && WEXITSTATUS(status) == 128 + SIGPIPE));
}

/* A program that ignores SIGPIPE (its writes then fail with EPIPE and it
   goes on) is ended by our SIGTERM.  We block SIGTERM ourselves while it
   starts: the program must not inherit the blocked mask, or the SIGTERM
   would wait and the SIGKILL end it instead. */
static void test_ignores_pipe(void **state)
{
    (void)state;
    sigset_t term, old;
    sigemptyset(&term);
    sigaddset(&term, SIGTERM);
    assert_int_equal(sigprocmask(SIG_BLOCK, &term, &old), 0);
    int fd, status, by_us;
    sb_child *c = start("trap '' PIPE; while :; do echo x; done 2>/dev/null",
                        NULL, 0, &fd);
    assert_int_equal(sigprocmask(SIG_SETMASK, &old, NULL), 0);
    char buf[256];
    assert_true(read_some(fd, buf, sizeof buf, 4) >= 4);
    assert_memory_equal(buf, "x\nx\n", 4);
    finish(c, 0, &status, &by_us);
    assert_int_equal(by_us, 1);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGTERM);
}

/* A program that ignores SIGPIPE and SIGTERM is ended by SIGKILL. */
static void test_ignores_term(void **state)
{
    (void)state;
    int fd, status, by_us;
    sb_child *c = start("trap '' PIPE TERM; "
                        "while :; do echo x; done 2>/dev/null", NULL, 0, &fd);
    char buf[256];
    assert_true(read_some(fd, buf, sizeof buf, 4) >= 4);
    finish(c, 0, &status, &by_us);
    assert_int_equal(by_us, 1);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGKILL);
    char words[128];
    sb_child_describe(status, words, sizeof words);
    assert_non_null(strstr(words, "killed by signal 9 ("));
}

/* A program that closes its output but does not exit is ended after the
   grace, by us. */
static void test_lingers(void **state)
{
    (void)state;
    int fd, status, by_us;
    sb_child *c = start("echo done; exec >/dev/null; sleep 1000", NULL, 0,
                        &fd);
    char buf[64];
    read_all(fd, buf, sizeof buf);
    assert_string_equal(buf, "done\n");
    finish(c, 1, &status, &by_us);
    assert_int_equal(by_us, 1);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGTERM);
}

/* The shell exits at once but leaves a background process holding the
   pipe.  After we stop reading, finish must not wait on it and must end
   it.  Its death is seen without timing: it also holds the write end of a
   second pipe of ours, whose read end reaches end-of-file only when every
   holder has exited (an exited process closes its descriptors even while
   it is a zombie, which is why kill(pid, 0) would be no proof).  If the
   background process were left alive, the read below would block until
   the test's time limit. */
static void test_background_holder(void **state)
{
    (void)state;
    int track[2];
    assert_int_equal(pipe(track), 0);
    assert_int_equal(fcntl(track[0], F_SETFD, FD_CLOEXEC), 0);
    int fd, status, by_us;
    sb_child *c = start("sleep 1000 2>/dev/null & echo \"$$ $!\"",
                        NULL, 0, &fd);
    close(track[1]);
    char line[64];
    read_line(fd, line, sizeof line);
    long shell = -1, background = -1;
    assert_int_equal(sscanf(line, "%ld %ld", &shell, &background), 2);
    /* The background process lives in the shell's group. */
    assert_int_equal((long)getpgid((pid_t)background), shell);
    finish(c, 0, &status, &by_us);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    assert_int_equal(by_us, 0);
    char b;
    ssize_t r;
    while ((r = read(track[0], &b, 1)) < 0 && errno == EINTR)
        ;
    assert_int_equal(r, 0);
    close(track[0]);
}

/* A plain command - one simple command of plain words naming an
   executable file - replaces the shell, so that its crash is reported as
   the crash it is; the same command in a list is the shell's child, and
   its crash comes as status 139.  A script stands in for a program that
   crashes. */
static void test_plain_command_replaces_shell(void **state)
{
    (void)state;
    char path[] = "/tmp/sb_test_exec_XXXXXX";
    int tmp = mkstemp(path);
    assert_true(tmp >= 0);
    static const char script[] = "#!/bin/sh\nulimit -c 0\nkill -SEGV $$\n";
    assert_int_equal(write(tmp, script, sizeof script - 1),
                     (ssize_t)(sizeof script - 1));
    assert_int_equal(fchmod(tmp, 0700), 0);
    assert_int_equal(close(tmp), 0);
    char listed[64];
    snprintf(listed, sizeof listed, "%s; exit $?", path);
    const char *commands[2] = { path, listed };
    for (int i = 0; i < 2; i++) {
        int fd, status, by_us;
        sb_child *c = start(commands[i], NULL, 0, &fd);
        char buf[64];
        read_all(fd, buf, sizeof buf);
        finish(c, 1, &status, &by_us);
        char words[160];
        sb_child_describe(status, words, sizeof words);
        assert_string_equal(words, i == 0 ? "killed by signal 11 (SIGSEGV)"
                            : "exited with status 139 (a shell's report of "
                              "a command killed by signal 11, SIGSEGV)");
    }
    unlink(path);
}

/* The shell running: sb_child_exited says no, and does not reap it. */
static void test_exited_while_running(void **state)
{
    (void)state;
    int fd, status, by_us;
    sb_child *c = start("exec sleep 1000", NULL, 0, &fd);
    assert_int_equal(sb_child_exited(c), 0);
    finish(c, 0, &status, &by_us);
    assert_int_equal(by_us, 1);
    assert_true(WIFSIGNALED(status));
}

/* The shell exits but what it left in the background holds the pipe, so
   end-of-file never comes.  sb_child_exited tells (looking until it does:
   a shell that never exits makes the test hang until its time limit);
   the pipe is then still open, and the shell is not reaped by the look -
   finish reaps it, with its own status.  The background process gets
   SIGTERM first: its trap writes to a second pipe of ours, whose end-of-
   file then proves it gone. */
static void test_exited_background_holds_pipe(void **state)
{
    (void)state;
    int track[2];
    assert_int_equal(pipe(track), 0);
    assert_int_equal(fcntl(track[0], F_SETFD, FD_CLOEXEC), 0);
    char cmd[256];
    /* "up" comes from the background process once its trap is set; it
       then loops on built-ins only, so that the trap runs at once (a
       shell waiting for a child such as sleep runs it only after). */
    snprintf(cmd, sizeof cmd, "(trap 'echo term >&%d; exit 0' TERM; "
             "echo up; while :; do :; done) & exit 4", track[1]);
    int fd, status, by_us;
    sb_child *c = start(cmd, NULL, 0, &fd);
    close(track[1]);
    char line[64];
    read_line(fd, line, sizeof line);
    assert_string_equal(line, "up");
    while (!sb_child_exited(c))
        ;
    assert_int_equal(sb_child_exited(c), 1);   /* still there to reap */
    struct pollfd pfd = { .fd = fd, .events = POLLIN };
    assert_int_equal(poll(&pfd, 1, 0), 0);     /* no byte, no hang-up */
    finish(c, 0, &status, &by_us);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 4);
    assert_int_equal(by_us, 0);
    char got[64];
    assert_int_equal(read_all(track[0], got, sizeof got), 5);
    assert_string_equal(got, "term\n");
    close(track[0]);
}

/* A background process that ignores SIGTERM as well is ended by SIGKILL
   after the grace: the second pipe reaches end-of-file. */
static void test_background_ignores_term(void **state)
{
    (void)state;
    int track[2];
    assert_int_equal(pipe(track), 0);
    assert_int_equal(fcntl(track[0], F_SETFD, FD_CLOEXEC), 0);
    int fd, status, by_us;
    sb_child *c = start("trap '' TERM; sleep 1000 & echo up", NULL, 0, &fd);
    close(track[1]);
    char line[64];
    read_line(fd, line, sizeof line);
    while (!sb_child_exited(c))
        ;
    finish(c, 0, &status, &by_us);
    assert_true(WIFEXITED(status));
    assert_int_equal(by_us, 0);
    char got[8];
    assert_int_equal(read_all(track[0], got, sizeof got), 0);
    close(track[0]);
}

/* A malformed assignment is refused before anything starts. */
static void test_bad_assignment(void **state)
{
    (void)state;
    const char *env[] = { "SHUFFLEBIAS_N=3", "NOEQUALS" };
    sb_child *c = (sb_child *)&c;
    int fd = 0;
    char err[128] = "";
    assert_int_equal(sb_child_start(&c, "true", env, 2, &fd, err, sizeof err),
                     SB_EINVAL);
    assert_null(c);
    assert_int_equal(fd, -1);
    assert_non_null(strstr(err, "NOEQUALS"));
    assert_no_children();
}

/* A FIFO in a directory of its own, for the tests below. */
typedef struct fifo_dir {
    char dir[32];
    char path[48];
} fifo_dir;

static void fifo_make(fifo_dir *f)
{
    snprintf(f->dir, sizeof f->dir, "/tmp/sb_test_fifoXXXXXX");
    assert_non_null(mkdtemp(f->dir));
    snprintf(f->path, sizeof f->path, "%s/fifo", f->dir);
    assert_int_equal(mkfifo(f->path, 0600), 0);
}

static void fifo_remove(fifo_dir *f)
{
    assert_int_equal(unlink(f->path), 0);
    assert_int_equal(rmdir(f->dir), 0);
}

/* Opening a FIFO as the input does not wait for a writer.  A blocking
   open(2) would: a signal that came just before it (the stop flag looked
   at, the open not yet entered) would be lost, and the wait would go on
   until the next one.  No writer ever comes before the open here, so
   that open would wait for ever: the alarm (60 s) turns it into a
   failure.  A writer that comes afterwards is read to its end. */
static void test_fifo_open_does_not_wait(void **state)
{
    (void)state;
    fifo_dir f;
    fifo_make(&f);
    volatile sig_atomic_t stop = 0;
    const sb_external_spec spec = {
        .path = f.path,
        .input = { .format = SB_FORMAT_TEXT,
                   .shape = { .kind = SB_KIND_PERMUTATION, .n = 3,
                              .len = 3 },
                   .stop = &stop },
    };
    sb_external *x = NULL;
    char err[256] = "";
    alarm(60);
    assert_int_equal(sb_external_open(&x, &spec, 1, 2, err, sizeof err),
                     SB_OK);
    alarm(0);
    /* The reader holds the FIFO: a writer's non-blocking open succeeds
       (it fails with ENXIO while no reader has it). */
    const int w = open(f.path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    assert_true(w >= 0);
    assert_int_equal(write(w, "2 0 1\n0 1 2\n", 12), 12);
    close(w);
    const sb_feed *feed = sb_external_feed(x);
    sb_card out[9];
    size_t got = 99;
    assert_int_equal(feed->read(feed->ctx, out, 3, &got), SB_OK);
    assert_int_equal(got, 2);
    const sb_card want[6] = { 2, 0, 1, 0, 1, 2 };
    assert_memory_equal(out, want, sizeof want);
    sb_report rep = { 0 };
    rep.run.samples = 2;
    rep.run.done = 2;
    sb_input_info info;
    assert_int_equal(sb_external_close(x, &rep, &info), 0);
    assert_string_equal(info.error, "");
    fifo_remove(&f);
    assert_no_children();
}

/* The stop flag set while a FIFO has no writer - what a signal does at
   any moment, open or not - ends the reading at once, with nothing read
   and no input error.  A draw of unknown length, whose first sample
   never came, still opens (a draw of one card, and nothing read), so
   that the run is reported as interrupted rather than refused. */
static void test_fifo_stop_without_a_writer(void **state)
{
    (void)state;
    for (int draw = 0; draw < 2; draw++) {
        fifo_dir f;
        fifo_make(&f);
        volatile sig_atomic_t stop = 1;
        sb_external_spec spec = {
            .path = f.path,
            .input = { .format = SB_FORMAT_TEXT,
                       .shape = { .kind = SB_KIND_PERMUTATION, .n = 3,
                                  .len = 3 },
                       .stop = &stop },
        };
        if (draw)
            spec.input.shape = (sb_shape){ .kind = SB_KIND_DRAW, .n = 3 };
        sb_external *x = NULL;
        char err[256] = "";
        alarm(60);
        assert_int_equal(sb_external_open(&x, &spec, 1, 5, err, sizeof err),
                         SB_OK);
        const sb_feed *feed = sb_external_feed(x);
        assert_int_equal(feed->shape.kind, spec.input.shape.kind);
        assert_int_equal(feed->shape.len, draw ? 1 : 3);
        sb_card out[9];
        size_t got = 99;
        assert_int_equal(feed->read(feed->ctx, out, 3, &got), SB_OK);
        alarm(0);
        assert_int_equal(got, 0);
        sb_report rep = { 0 };
        rep.run.samples = 5;
        sb_input_info info;
        assert_int_equal(sb_external_close(x, &rep, &info), 0);
        assert_string_equal(info.error, "");
        fifo_remove(&f);
    }
    assert_no_children();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_environment),
        cmocka_unit_test(test_override),
        cmocka_unit_test(test_stdin_and_group),
        cmocka_unit_test(test_exit_status),
        cmocka_unit_test(test_crash),
        cmocka_unit_test(test_crash_behind_shell),
        cmocka_unit_test(test_plain_command_replaces_shell),
        cmocka_unit_test(test_exited_while_running),
        cmocka_unit_test(test_exited_background_holds_pipe),
        cmocka_unit_test(test_background_ignores_term),
        cmocka_unit_test(test_not_found),
        cmocka_unit_test(test_writer_forever),
        cmocka_unit_test(test_ignores_pipe),
        cmocka_unit_test(test_ignores_term),
        cmocka_unit_test(test_lingers),
        cmocka_unit_test(test_background_holder),
        cmocka_unit_test(test_bad_assignment),
        cmocka_unit_test(test_fifo_open_does_not_wait),
        cmocka_unit_test(test_fifo_stop_without_a_writer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
