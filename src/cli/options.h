/*
 * options.h - one option table per command, in the manner of git's
 * parse-options.
 *
 * A command describes its options once, as rows of plain data: the long
 * name, a short letter, the argument's name, a line of help, where the
 * value goes (an offset into the command's own options struct) and the
 * handler that checks it.  One parser walks the table (getopt_long
 * underneath, so that abbreviations and the order of arguments behave as
 * they always have), and the same table writes the command's usage text,
 * the names 'shufflebias list --options' gives the bash completion, and
 * what the man pages are checked against.
 */
#ifndef SB_CLI_OPTIONS_H
#define SB_CLI_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

#include "cli/cli.h"

typedef struct sb_option sb_option;

/* Store or check 'arg' (NULL for a flag) for 'opt' in the options struct
   at 'base'.  0, or -1 after printing the error. */
typedef int (*sb_option_fn)(const sb_option *opt, const char *arg,
                            void *base);

/* No field, no counter. */
#define SB_OPT_NOWHERE ((size_t)-1)

struct sb_option {
    const char *name;         /* long name without "--"; NULL with 'group'
                                 set: a heading; NULL with no group: the
                                 end of the table */
    char letter;              /* short option, 0: none */
    const char *arg;          /* the argument's name in the usage ("N");
                                 NULL: a flag, which takes none */
    const char *help;         /* what it does, wrapped in the usage */
    sb_option_fn set;         /* the handler */
    size_t field;             /* offsetof the value in the options struct,
                                 or SB_OPT_NOWHERE */
    size_t given;             /* offsetof an int counted up each time the
                                 option is given, or SB_OPT_NOWHERE */
    const char *group;        /* a heading row: its text ("" a blank
                                 line) */
};

/* The handlers.  Each reads opt->field as the type it names. */
int sb_opt_flag(const sb_option *opt, const char *arg, void *base);
                                                /* int, set to 1 */
int sb_opt_string(const sb_option *opt, const char *arg, void *base);
                                                /* const char * */
int sb_opt_n(const sb_option *opt, const char *arg, void *base);
                                                /* uint64_t, sb_cli_opt_n */
int sb_opt_count(const sb_option *opt, const char *arg, void *base);
                                   /* uint64_t, sb_cli_opt_count(name) */
int sb_opt_seed(const sb_option *opt, const char *arg, void *base);
                                                /* uint64_t */
int sb_opt_threads(const sb_option *opt, const char *arg, void *base);
                                                /* unsigned */
int sb_opt_memory(const sb_option *opt, const char *arg, void *base);
                                                /* uint64_t */
int sb_opt_escalate(const sb_option *opt, const char *arg, void *base);
                                                /* unsigned */
int sb_opt_kind(const sb_option *opt, const char *arg, void *base);
                                                /* sb_kind */
int sb_opt_param(const sb_option *opt, const char *arg, void *base);
                                                /* sb_cli_params */
/* -h, --help: returns 1, and the parser prints the usage. */
int sb_opt_help(const sb_option *opt, const char *arg, void *base);

/* The values of a repeatable --param K=V. */
typedef struct sb_cli_params {
    const char *list[SB_CLI_PARAMS_MAX];
    size_t count;
} sb_cli_params;

/* Rows of a table.  'type' is the command's options struct. */
#define SB_OPT_ROW(name, letter, arg, type, field, given, fn, help) \
    { name, letter, arg, help, fn, offsetof(type, field), given, NULL }
#define SB_OPT_CALL(name, arg, fn, help) \
    { name, 0, arg, help, fn, SB_OPT_NOWHERE, SB_OPT_NOWHERE, NULL }
#define SB_OPT_GROUP(text) \
    { NULL, 0, NULL, NULL, NULL, SB_OPT_NOWHERE, SB_OPT_NOWHERE, text }
#define SB_OPT_HELP \
    { "help", 'h', NULL, "print this help and exit", sb_opt_help, \
      SB_OPT_NOWHERE, SB_OPT_NOWHERE, NULL }
#define SB_OPT_END \
    { NULL, 0, NULL, NULL, NULL, SB_OPT_NOWHERE, SB_OPT_NOWHERE, NULL }

/* A command: its row in 'shufflebias --help', its usage and its table. */
typedef struct sb_command {
    const char *name;         /* "test" */
    sb_cli_command run;
    const char *summary;      /* one line for the list of commands */
    const char *synopsis;     /* the "usage:" lines and what it does, each
                                 line ending in '\n' */
    const sb_option *options; /* ends with SB_OPT_END */
    const char *epilogue;     /* after the options; NULL: none */
} sb_command;

/* Every command, in the order 'shufflebias --help' lists them; NULL
   ends it.  (commands.c) */
extern const sb_command *const sb_commands[];
const sb_command *sb_command_find(const char *name);

extern const sb_command sb_command_list, sb_command_test,
    sb_command_exact, sb_command_merge, sb_command_audit,
    sb_command_bench, sb_command_gate, sb_command_mixing;

/* Parse argv[1..] of 'cmd' into 'base' (which holds the defaults).  -h
   and --help are every command's.  0 with *next the index of the first
   argument that is not an option; 1 after printing the usage on stdout
   (-h, --help); -1 after printing the error. */
int sb_options_parse(const sb_command *cmd, int argc, char **argv,
                     void *base, int *next);

/* The usage text of 'cmd', made from its table. */
void sb_options_usage(const sb_command *cmd, FILE *f);

/* Each option of 'cmd' on a line of its own ("--samples", "-h" and
   "--help"): for the bash completion and the man-page check. */
void sb_options_names(const sb_command *cmd, FILE *f);

#endif /* SB_CLI_OPTIONS_H */
