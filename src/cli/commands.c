/*
 * commands.c - the table of commands, as git's: each row is defined by
 * its command's file (name, entry point, usage, options).
 */
#include "cli/options.h"

#include <string.h>

const sb_command *const sb_commands[] = {
    &sb_command_list, &sb_command_test, &sb_command_exact,
    &sb_command_merge, &sb_command_audit, &sb_command_mixing,
    &sb_command_gate, &sb_command_bench, NULL
};

const sb_command *sb_command_find(const char *name)
{
    for (const sb_command *const *c = sb_commands; *c; c++)
        if (strcmp((*c)->name, name) == 0)
            return *c;
    return NULL;
}
