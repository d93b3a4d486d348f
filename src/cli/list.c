/*
 * list.c - 'shufflebias list': algorithms, statistics, randomness
 * sources; '--json' for scripts.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli/options.h"

#include <jansson.h>
#include <stddef.h>
#include <string.h>
#include <gsl/gsl_rng.h>

#include "algorithms/registry.h"
#include "base/rng.h"
#include "sources/input.h"
#include "stats/registry.h"

static const char *literature_str(sb_literature l)
{
    return l == SB_LIT_UNIFORM ? "uniform" : "biased";
}

/* "permutation,deal"; a kind in 'marked' gets a '*' (in the default
   battery of that kind). */
static void kinds_str(unsigned kinds, unsigned marked, char *buf, size_t len)
{
    buf[0] = '\0';
    const sb_kind all[] = { SB_KIND_PERMUTATION, SB_KIND_DRAW, SB_KIND_DEAL };
    for (size_t i = 0; i < 3; i++)
        if (kinds & all[i]) {
            size_t used = strlen(buf);
            snprintf(buf + used, len - used, "%s%s%s", used ? "," : "",
                     sb_kind_str(all[i]), marked & all[i] ? "*" : "");
        }
}

static void param_str(const sb_param_def *p, char *buf, size_t len)
{
    if (!p->choices) {
        snprintf(buf, len, "%s=%ld (%ld..%ld)", p->name, p->def, p->min,
                 p->max);
        return;
    }
    snprintf(buf, len, "%s=%s (", p->name, p->choices[p->def]);
    for (size_t c = 0; p->choices[c]; c++) {
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, "%s%s", c ? "|" : "", p->choices[c]);
    }
    size_t used = strlen(buf);
    snprintf(buf + used, len - used, ")");
}

/* GSL's generators that are random access ('random_access' 1) or made
   in order (0), wrapped at 78 columns after an indent of 3. */
static void print_gsl(int random_access)
{
    size_t col = 3;
    for (const gsl_rng_type **t = gsl_rng_types_setup(); *t; t++) {
        if (sb_rng_name_random_access((*t)->name) != random_access)
            continue;
        size_t w = strlen((*t)->name) + 1;
        if (col + w > 78) {
            printf("\n   ");
            col = 3;
        }
        printf(" %s", (*t)->name);
        col += w;
    }
    printf("\n");
}

static void list_text(void)
{
    printf("algorithms:\n");
    for (const sb_shuffle_type *const *p = sb_shuffle_types; *p; p++) {
        const sb_shuffle_type *t = *p;
        printf("  %-28s %-11s %-8s %s\n", t->name, sb_kind_str(t->kind),
               literature_str(t->literature), t->summary);
        for (size_t i = 0; i < t->n_params; i++) {
            char buf[256];
            param_str(&t->params[i], buf, sizeof buf);
            printf("  %-28s   --param %s: %s\n", "", buf, t->params[i].help);
        }
    }
    printf("\nstatistics (* in the default battery of that kind, where the "
           "deck size allows):\n");
    for (const sb_stat_type *const *p = sb_stat_types; *p; p++) {
        char kinds[64];
        kinds_str((*p)->kinds, (*p)->default_kinds, kinds, sizeof kinds);
        printf("  %-28s %-18s %s\n", (*p)->name, kinds, (*p)->sees);
    }
    printf("\nrandomness sources (--rng):\n");
    for (const sb_rng_info *b = sb_rng_builtin; b->name; b++)
        printf("  %-28s %s\n", b->name, b->summary);
    printf("  GSL generators: one stream per run, seeded once with "
           "gsl_rng_set (a 32-bit\n  seed; GSL puts its default in place "
           "of 0); outputs above the largest power\n  of two in a "
           "generator's range are redrawn, so every bit used is uniform.\n"
           "  Linear congruential ones jump ahead to any chunk (random "
           "access: every\n  thread and MPI rank, the same counts as one "
           "thread):\n   ");
    print_gsl(1);
    printf("  The others have no jump-ahead here: their chunks are made in "
           "order, on one\n  thread, and an MPI job refuses them ('list "
           "--json' says why for each):\n   ");
    print_gsl(0);
}

static int list_json(void)
{
    json_t *root = json_object(), *algs = json_array(), *stats = json_array(),
           *rngs = json_array();
    for (const sb_shuffle_type *const *p = sb_shuffle_types; *p; p++) {
        const sb_shuffle_type *t = *p;
        json_t *params = json_array();
        for (size_t i = 0; i < t->n_params; i++) {
            const sb_param_def *d = &t->params[i];
            json_t *o = json_pack("{s:s, s:s}", "name", d->name, "help",
                                  d->help);
            if (d->choices) {
                json_t *ch = json_array();
                for (size_t c = 0; d->choices[c]; c++)
                    json_array_append_new(ch, json_string(d->choices[c]));
                json_object_set_new(o, "choices", ch);
                json_object_set_new(o, "default",
                                    json_string(d->choices[d->def]));
            } else {
                json_object_set_new(o, "default", json_integer(d->def));
                json_object_set_new(o, "min", json_integer(d->min));
                json_object_set_new(o, "max", json_integer(d->max));
            }
            json_array_append_new(params, o);
        }
        json_array_append_new(algs, json_pack(
            "{s:s, s:s, s:s, s:s, s:s, s:I, s:I, s:o}", "name", t->name,
            "kind", sb_kind_str(t->kind), "literature",
            literature_str(t->literature), "summary", t->summary, "source",
            t->source, "n_min", (json_int_t)t->n_min, "n_max",
            (json_int_t)t->n_max, "params", params));
    }
    for (const sb_stat_type *const *p = sb_stat_types; *p; p++) {
        char kinds[64], defaults[64];
        kinds_str((*p)->kinds, 0, kinds, sizeof kinds);
        kinds_str((*p)->default_kinds, 0, defaults, sizeof defaults);
        json_array_append_new(stats, json_pack(
            "{s:s, s:s, s:s, s:s, s:I, s:I}", "name", (*p)->name, "kinds",
            kinds, "default_for", defaults, "sees", (*p)->sees, "n_min",
            (json_int_t)(*p)->n_min, "n_max", (json_int_t)(*p)->n_max));
    }
    for (const sb_rng_info *b = sb_rng_builtin; b->name; b++)
        json_array_append_new(rngs, json_pack("{s:s, s:s}", "name", b->name,
                                              "summary", b->summary));
    for (const sb_rng_info *b = sb_rng_builtin; b->name; b++)
        json_object_set_new(json_array_get(rngs, (size_t)(b - sb_rng_builtin)),
                            "random_access", json_true());
    for (const gsl_rng_type **t = gsl_rng_types_setup(); *t; t++) {
        const char *why = sb_rng_sequential_why((*t)->name);
        json_t *o = json_pack("{s:s, s:s, s:b}", "name", (*t)->name,
                              "summary", "GSL generator", "random_access",
                              why == NULL);
        if (why)
            json_object_set_new(o, "sequential", json_string(why));
        json_array_append_new(rngs, o);
    }
    json_object_set_new(root, "algorithms", algs);
    json_object_set_new(root, "statistics", stats);
    json_object_set_new(root, "rngs", rngs);
    int rc = json_dumpf(root, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(root);
    putchar('\n');
    return rc;
}

/* --names WHAT: one name a line, for scripts and the bash completion. */
static void list_names(const char *what)
{
    if (strcmp(what, "algorithms") == 0) {
        for (const sb_shuffle_type *const *p = sb_shuffle_types; *p; p++)
            puts((*p)->name);
    } else if (strcmp(what, "statistics") == 0) {
        for (const sb_stat_type *const *p = sb_stat_types; *p; p++)
            puts((*p)->name);
    } else if (strcmp(what, "rngs") == 0) {
        for (const sb_rng_info *b = sb_rng_builtin; b->name; b++)
            puts(b->name);
        for (const gsl_rng_type **t = gsl_rng_types_setup(); *t; t++)
            puts((*t)->name);
    } else if (strcmp(what, "commands") == 0) {
        for (const sb_command *const *c = sb_commands; *c; c++)
            puts((*c)->name);
        puts("help");
    } else if (strcmp(what, "formats") == 0) {
        for (int f = SB_FORMAT_TEXT; f <= SB_FORMAT_PBN; f++)
            puts(sb_format_str((sb_format)f));
    } else {
        for (unsigned k = SB_KIND_PERMUTATION; k <= SB_KIND_DEAL; k <<= 1)
            puts(sb_kind_str((sb_kind)k));
    }
}

typedef struct list_options {
    int json;
    const char *names;        /* --names WHAT */
    const char *options;      /* --options COMMAND */
} list_options;

/* --names WHAT: algorithms, statistics, rngs, commands, kinds or
   formats. */
static int set_names(const sb_option *opt, const char *arg, void *base)
{
    (void)opt;
    static const char *const valid[] = { "algorithms", "statistics", "rngs",
                                         "commands", "kinds", "formats",
                                         NULL };
    for (size_t i = 0; valid[i]; i++)
        if (strcmp(arg, valid[i]) == 0) {
            ((list_options *)base)->names = arg;
            return 0;
        }
    sb_cli_error("invalid --names '%s': expected algorithms, statistics, "
                 "rngs, commands, kinds or formats", arg);
    return -1;
}

/* --options COMMAND: a command's options. */
static int set_options(const sb_option *opt, const char *arg, void *base)
{
    (void)opt;
    if (!sb_command_find(arg)) {
        sb_cli_error("unknown command '%s'; try 'shufflebias --help'", arg);
        return -1;
    }
    ((list_options *)base)->options = arg;
    return 0;
}

#define ROW(name, arg, field, fn, help) \
    SB_OPT_ROW(name, 0, arg, list_options, field, SB_OPT_NOWHERE, fn, help)

static const sb_option options[] = {
    ROW("json", NULL, json, sb_opt_flag,
        "everything as one JSON document, for scripts"),
    ROW("names", "WHAT", names, set_names,
        "only the names of WHAT, one a line: algorithms, statistics, rngs "
        "(the randomness sources of --rng), commands, kinds (of sample) or "
        "formats (of --input and --exec)"),
    ROW("options", "COMMAND", options, set_options,
        "the options of COMMAND, one a line, each with the name of its "
        "argument if it takes one"),
    SB_OPT_HELP,
    SB_OPT_END
};

const sb_command sb_command_list = {
    .name = "list",
    .run = sb_cmd_list,
    .summary = "algorithms, statistics and randomness sources",
    .synopsis =
    "usage: shufflebias list [--json]\n"
    "       shufflebias list --names WHAT\n"
    "       shufflebias list --options COMMAND\n"
    "\n"
    "List the algorithms (with their kind, what the literature says of them\n"
    "and their parameters), the statistics and the randomness sources.\n",
    .options = options,
    .epilogue = NULL,
};

int sb_cmd_list(const sb_cli *cli, int argc, char **argv)
{
    (void)cli;
    list_options o = { 0 };
    int next;
    const int rc = sb_options_parse(&sb_command_list, argc, argv, &o, &next);
    if (rc != 0)
        return rc > 0 ? SB_EXIT_PASS : SB_EXIT_USAGE;
    if (next != argc) {
        sb_cli_error("list: unexpected argument '%s'", argv[next]);
        return SB_EXIT_USAGE;
    }
    if (!!o.json + !!o.names + !!o.options > 1) {
        sb_cli_error("list: one of --json, --names and --options at a time");
        return SB_EXIT_USAGE;
    }
    if (o.names) {
        list_names(o.names);
        return SB_EXIT_PASS;
    }
    if (o.options) {
        sb_options_names(sb_command_find(o.options), stdout);
        return SB_EXIT_PASS;
    }
    if (o.json)
        return list_json() == 0 ? SB_EXIT_PASS : SB_EXIT_USAGE;
    list_text();
    return SB_EXIT_PASS;
}
