/*
 * exec.h - a user's program as a source of decks: run it, read its
 * standard output, end it cleanly.
 *
 * The command runs through "/bin/sh -c" in a process group of its own (so
 * a Ctrl-C at the terminal reaches shufflebias alone, which then ends the
 * whole group itself), with standard input from /dev/null, standard error
 * shared with ours, and its standard output on a pipe whose read end the
 * caller reads.  The environment is ours plus the assignments given.  One
 * plain simple command runs as "exec COMMAND", so that the program
 * replaces the shell and its own end is what is reported (exec.c says
 * which commands are plain).
 *
 * Ending it (sb_child_finish): the read end is closed, so a program still
 * writing gets SIGPIPE (or EPIPE); it is given a short grace to exit, then
 * its group gets SIGTERM, then SIGKILL, and it is always reaped.  So no
 * zombie is left and nothing hangs, even for a program that ignores
 * SIGPIPE and SIGTERM or leaves a background process holding the pipe.
 *
 * A reader waiting for the end of the output asks sb_child_exited whether
 * the shell itself has gone: a process it left in the background may hold
 * the pipe open for ever, and end-of-file would then never come.
 */
#ifndef SB_SOURCES_EXEC_H
#define SB_SOURCES_EXEC_H

#include <stddef.h>
#include <sys/types.h>

typedef struct sb_child sb_child;

/* In a child between fork and execve (async-signal-safe calls only),
   with every signal blocked across the fork by the parent: die with the
   parent 'parent' should it be killed (Linux; exit at once if it is gone
   already), take the default action for SIGPIPE, SIGINT, SIGTERM, SIGHUP
   and SIGQUIT with no signal blocked, and lead a process group of its
   own.  sb_child_start's children do this; so do the gate's. */
void sb_child_prepare(pid_t parent);

/* Start 'command' with the environment assignments 'env' ("NAME=value",
   'n_env' of them) added to ours.  Returns SB_OK and sets *child and *fd
   (the read end of its standard output, owned by the child object);
   SB_EIO with the reason in 'err' when it cannot be started (no pipe, no
   fork); SB_ENOMEM.  A command that the shell cannot find starts, and
   exits with status 127. */
int sb_child_start(sb_child **child, const char *command,
                   const char *const *env, size_t n_env, int *fd,
                   char *err, size_t len);

/* Close the pipe, end the program as described above and reap it.
   'ended' is 1 when the caller saw the end of its output (the program
   finished on its own, or closed its output) and 0 when the caller stops
   reading while it may still be writing.  Sets *status to the wait status
   (as waitpid gives it) and *by_us to 1 when the program ended because we
   ended it (SIGPIPE after we closed the pipe, or our SIGTERM or SIGKILL),
   0 when it ended on its own.  Frees the child object.  Returns SB_OK, or
   SB_EIO when waitpid fails. */
int sb_child_finish(sb_child *child, int ended, int *status, int *by_us);

/* 1 when the shell itself has exited (it is not reaped: sb_child_finish
   still reaps it and reports its status), 0 while it runs.  What it
   started in the background may still be running and holding the pipe. */
int sb_child_exited(sb_child *child);

/* The wait status in words: "exited with status 3", "killed by signal 11
   (SIGSEGV)".  An exit status of 128 + N for a signal N is what a shell
   reports for a command that signal killed, and that is said beside it:
   "exited with status 139 (a shell's report of a command killed by signal
   11, SIGSEGV)" - the program may also have exited with 139 itself, so
   the status is never replaced by a signal it may not have had. */
void sb_child_describe(int status, char *buf, size_t len);

#endif /* SB_SOURCES_EXEC_H */
