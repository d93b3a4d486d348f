/*
 * main.c - the shufflebias command: a table of subcommands (as git's), GSL's
 * aborting error handler turned off, and the stop flag for SIGINT/SIGTERM.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gsl/gsl_errno.h>

#include "base/names.h"
#include "cli/options.h"
#include "shufflebias/version.h"

/* The one mutable object at file scope: a signal handler can reach nothing
   else.  Commands get a pointer to it and look at it between blocks. */
static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
    /* Said at once (write is safe in a handler): a run saving its state
       first finishes the chunks under way, which can take a while. */
    static const char msg[] = "\nshufflebias: stopping: finishing the "
        "samples under way to report them (interrupt again to end at "
        "once)\n";
    ssize_t w = write(STDERR_FILENO, msg, sizeof msg - 1);
    (void)w;
}

static void usage(FILE *f)
{
    fputs("usage: shufflebias COMMAND [options]\n"
          "       shufflebias help COMMAND\n"
          "       shufflebias --version\n\ncommands:\n", f);
    for (const sb_command *const *c = sb_commands; *c; c++)
        fprintf(f, "  %-8s %s\n", (*c)->name, (*c)->summary);
    fputs("\n'shufflebias COMMAND --help' describes a command.\n", f);
}

/* "unknown command", with the nearest one when there is one. */
static void unknown_command(const char *name)
{
    const char *nearest = NULL;
    size_t best = SB_NAME_NEAR_MAX;
    for (const sb_command *const *c = sb_commands; *c; c++)
        sb_name_nearer(name, (*c)->name, &best, &nearest);
    char hint[96];
    sb_name_hint(hint, sizeof hint, nearest);
    sb_cli_error("unknown command '%s'%s; try 'shufflebias --help'", name,
                 hint);
}

/* The version: the program links the library's static archive, so the
   library's version is the program's. */
static void version(void)
{
    printf("shufflebias %s\n", sb_version());
}

static int is(const char *arg, const char *a, const char *b)
{
    return strcmp(arg, a) == 0 || strcmp(arg, b) == 0;
}

int main(int argc, char **argv)
{
    gsl_set_error_handler_off();
    /* One-shot: the first Ctrl-C asks for a partial report, a second one
       ends the program at once should that take too long.  No SA_RESTART:
       a call that would block until a writer comes (open(2) of a FIFO for
       --input) must fail with EINTR, so that the stop is seen. */
    struct sigaction sa = { .sa_handler = on_signal,
                            .sa_flags = SA_RESETHAND };
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    if (argc < 2 || is(argv[1], "--help", "-h")
        || (strcmp(argv[1], "help") == 0
            && (argc == 2 || is(argv[2], "--help", "-h")))) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? SB_EXIT_USAGE : SB_EXIT_PASS;
    }
    if (is(argv[1], "--version", "-V")) {
        version();
        return SB_EXIT_PASS;
    }
    if (strcmp(argv[1], "help") == 0) {
        const sb_command *c = sb_command_find(argv[2]);
        if (!c || argc > 3) {
            if (c)
                sb_cli_error("help: one command at a time");
            else
                unknown_command(argv[2]);
            return SB_EXIT_USAGE;
        }
        sb_options_usage(c, stdout);
        return SB_EXIT_PASS;
    }
    const sb_command *c = sb_command_find(argv[1]);
    if (c) {
        sb_cli_ranks *ranks;
        if (sb_cli_ranks_open(&argc, &argv, &ranks) != 0)
            return SB_EXIT_USAGE;
        sb_team *team = sb_cli_ranks_team(ranks);
        /* The command as typed, before its option parser reorders argv:
           the HTML pages state it. */
        char *line = sb_cli_command_line("shufflebias", argc - 1, argv + 1);
        const sb_cli cli = { "shufflebias", &stop_requested, line, team };
        int code;
        if (team && strcmp(c->name, "test") != 0) {
            sb_cli_error("'%s' runs as one process: of the commands, only "
                         "'test' shares its run between the ranks of an "
                         "MPI job", c->name);
            code = SB_EXIT_USAGE;
        } else {
            code = c->run(&cli, argc - 1, argv + 1);
        }
        free(line);
        /* A report that did not reach standard output is an error,
           whatever the verdict (a full disk, a closed pipe); said
           here unless the command has failed already and said why. */
        if (fflush(stdout) != 0 || ferror(stdout)) {
            /* Cut by the stop (a pipe whose reader had not read: the
               handlers have no SA_RESTART): an interrupt, said by a
               command that returns 130 already. */
            if (stop_requested && errno == EINTR) {
                if (code != SB_EXIT_INTERRUPTED)
                    sb_cli_error("interrupted while the report was "
                                 "written: what was written is cut "
                                 "short");
                code = SB_EXIT_INTERRUPTED;
            } else {
                if (code != SB_EXIT_USAGE)
                    sb_cli_error("cannot write standard output: %s",
                                 strerror(errno));
                code = SB_EXIT_USAGE;
            }
        }
        return sb_cli_ranks_close(ranks, code);
    }
    unknown_command(argv[1]);
    return SB_EXIT_USAGE;
}
