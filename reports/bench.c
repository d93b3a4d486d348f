/*
 * bench.c - the report of 'shufflebias bench': the table of timings, the
 * battery's rates, the rows not run and the targets, as text and as JSON.
 * The command measures; this only writes what it measured.
 */
#include "reports/render.h"

#include <string.h>

#include "shufflebias/status.h"

static void fmt_ns(char *buf, size_t len, double ns)
{
    snprintf(buf, len, ns < 10 ? "%.2f" : ns < 1000 ? "%.1f" : "%.0f", ns);
}

int sb_render_bench_text(FILE *f, const sb_bench_report *b)
{
    fprintf(f, "shufflebias bench: %u round%s, every row once per round in "
            "turn%s\n", b->rounds, b->rounds > 1 ? "s" : "",
            b->quick ? " (--quick: tiny runs, figures not meaningful)" : "");
    fprintf(f, "ns per deck (exact: per path); spread: min-max over the "
            "rounds; x GSL: median / GSL's median at the same n\n\n");
    /* The label column as wide as its longest label, so that no row
       pushes its figures out of line. */
    int width = 34;
    for (size_t i = 0; i < b->n_rows; i++) {
        const size_t w = strlen(b->rows[i].name);
        if (w > (size_t)width)
            width = (int)w;
    }
    fprintf(f, "%-*s %5s %3s %11s %21s %8s\n", width, "row", "n", "thr",
            "median ns", "spread ns", "x GSL");
    for (size_t i = 0; i < b->n_rows; i++) {
        const sb_bench_row *r = &b->rows[i];
        char med[32], lo[32], hi[32], spread[72];
        fmt_ns(med, sizeof med, r->median);
        fmt_ns(lo, sizeof lo, r->min);
        fmt_ns(hi, sizeof hi, r->max);
        snprintf(spread, sizeof spread, "%s-%s", lo, hi);
        if (i > 0 && r->n != b->rows[i - 1].n)
            fputc('\n', f);
        fprintf(f, "%-*s %5zu %3u %11s %21s %8.4f\n", width, r->name, r->n,
                r->threads, med, spread, r->ratio);
    }
    if (b->battery_stats)
        fprintf(f, "\nbattery on 52 cards (%zu statistics): 1 thread %.3gM "
                "decks/s; %u threads %.3gM decks/s (%.3gM per core); "
                "speed-up %.2fx\n", b->battery_stats, b->rate_one / 1e6,
                b->battery_threads, b->rate_two / 1e6,
                b->rate_two / b->battery_threads / 1e6, b->speedup);
    for (size_t i = 0; i < b->n_skipped; i++)
        fprintf(f, "%s%s\n", i == 0 ? "\nnot run:\n  " : "  ",
                b->skipped[i]);
    fprintf(f, "\ntargets:\n");
    if (b->n_targets == 0)
        fprintf(f, "  none measured: they are read off fisher-yates's "
                "rows\n");
    for (size_t i = 0; i < b->n_targets; i++) {
        const sb_bench_target *t = &b->targets[i];
        fprintf(f, "  %-44s %-8s %-9.4g measured %-10.4g %s\n", t->name,
                t->compare, t->limit, t->measured,
                t->met ? "met" : "NOT MET");
    }
    return ferror(f) ? SB_EIO : SB_OK;
}

static json_t *row_json(const sb_bench_report *b, const sb_bench_row *r)
{
    json_t *o = json_object();
    json_object_set_new(o, "name", json_string(r->name));
    json_object_set_new(o, "kind", json_string(r->kind));
    json_object_set_new(o, "algorithm", json_string(r->algorithm));
    json_object_set_new(o, "n", json_integer((json_int_t)r->n));
    json_object_set_new(o, "threads", json_integer(r->threads));
    json_object_set_new(o, "rounds", json_integer(b->rounds));
    /* Both exact rows (every path, and by states) are timed per path. */
    const int per_path = strcmp(r->kind, "exact") == 0
                         || strcmp(r->kind, "states") == 0;
    json_object_set_new(o, "unit", json_string(per_path ? "path" : "deck"));
    json_object_set_new(o, "per_measurement",
                        json_integer((json_int_t)r->count));
    json_object_set_new(o, "median_ns", json_real(r->median));
    json_object_set_new(o, "min_ns", json_real(r->min));
    json_object_set_new(o, "max_ns", json_real(r->max));
    json_object_set_new(o, "ratio_to_gsl", json_real(r->ratio));
    json_t *ns = json_array();
    for (unsigned k = 0; k < b->rounds; k++)
        json_array_append_new(ns, json_real(r->ns[k]));
    json_object_set_new(o, "ns", ns);
    if (r->n_stats) {
        json_t *names = json_array();
        for (size_t k = 0; k < r->n_stats; k++)
            json_array_append_new(names, json_string(r->stats[k]->name));
        json_object_set_new(o, "statistics", names);
    }
    if (strcmp(r->kind, "battery") == 0) {
        const double rate = 1e9 / r->median;
        json_object_set_new(o, "decks_per_second", json_real(rate));
        json_object_set_new(o, "decks_per_second_per_core",
                            json_real(rate / r->threads));
    }
    return o;
}

json_t *sb_bench_json(const sb_bench_report *b)
{
    json_t *root = json_object();
    json_object_set_new(root, "command", json_string("bench"));
    json_object_set_new(root, "rounds", json_integer(b->rounds));
    json_object_set_new(root, "rounds_asked", json_integer(b->rounds_asked));
    json_object_set_new(root, "quick", json_boolean(b->quick));
    json_object_set_new(root, "partial",
                        json_boolean(b->rounds < b->rounds_asked));
    json_object_set_new(root, "spread", json_string("min-max"));
    json_object_set_new(root, "ratio", json_string("median_ns / median_ns "
                                                   "of the gsl row at the "
                                                   "same n"));
    json_object_set_new(root, "reference",
                        json_string("gsl_ran_shuffle on gsl_rng_mt19937, "
                                    "uint16_t elements"));
    json_t *rows = json_array();
    for (size_t i = 0; i < b->n_rows; i++)
        json_array_append_new(rows, row_json(b, &b->rows[i]));
    json_object_set_new(root, "rows", rows);
    if (b->battery_stats) {
        json_t *bat = json_object();
        json_object_set_new(bat, "statistics",
                            json_integer((json_int_t)b->battery_stats));
        json_object_set_new(bat, "decks_per_second_1_thread",
                            json_real(b->rate_one));
        json_object_set_new(bat, "decks_per_second_2_threads",
                            json_real(b->rate_two));
        json_object_set_new(bat, "decks_per_second_per_core",
                            json_real(b->per_core));
        json_object_set_new(bat, "speedup_2_threads", json_real(b->speedup));
        json_object_set_new(root, "battery", bat);
    }
    json_t *skipped = json_array();
    for (size_t i = 0; i < b->n_skipped; i++)
        json_array_append_new(skipped, json_string(b->skipped[i]));
    json_object_set_new(root, "not_run", skipped);
    json_t *list = json_array();
    for (size_t i = 0; i < b->n_targets; i++) {
        const sb_bench_target *t = &b->targets[i];
        json_t *o = json_object();
        json_object_set_new(o, "name", json_string(t->name));
        json_object_set_new(o, "compare", json_string(t->compare));
        json_object_set_new(o, "limit", json_real(t->limit));
        json_object_set_new(o, "measured", json_real(t->measured));
        json_object_set_new(o, "met", json_boolean(t->met));
        json_array_append_new(list, o);
    }
    json_object_set_new(root, "targets", list);
    return root;
}
