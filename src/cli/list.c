/*
 * list.c - 'shufflebias list': algorithms, statistics, randomness
 * sources; '--json' for scripts.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli/cli.h"

#include <jansson.h>
#include <string.h>
#include <gsl/gsl_rng.h>

#include "algorithms/registry.h"
#include "base/rng.h"
#include "stats/registry.h"

static const char usage[] =
    "usage: shufflebias list [--json]\n"
    "\n"
    "List the algorithms (with their kind, what the literature says of them\n"
    "and their parameters), the statistics and the randomness sources.\n";

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
           "generator's range are redrawn, so every bit used is uniform:\n   ");
    size_t col = 3;
    for (const gsl_rng_type **t = gsl_rng_types_setup(); *t; t++) {
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
    for (const gsl_rng_type **t = gsl_rng_types_setup(); *t; t++)
        json_array_append_new(rngs, json_pack("{s:s, s:s}", "name",
                                              (*t)->name, "summary",
                                              "GSL generator"));
    json_object_set_new(root, "algorithms", algs);
    json_object_set_new(root, "statistics", stats);
    json_object_set_new(root, "rngs", rngs);
    int rc = json_dumpf(root, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(root);
    putchar('\n');
    return rc;
}

int sb_cmd_list(const sb_cli *cli, int argc, char **argv)
{
    (void)cli;
    int json = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) {
            json = 1;
        } else if (strcmp(argv[i], "--help") == 0) {
            fputs(usage, stdout);
            return SB_EXIT_PASS;
        } else {
            sb_cli_error("list: unknown option '%s'; try 'shufflebias list "
                         "--help'", argv[i]);
            return SB_EXIT_USAGE;
        }
    }
    if (json)
        return list_json() == 0 ? SB_EXIT_PASS : SB_EXIT_USAGE;
    list_text();
    return SB_EXIT_PASS;
}
