/*
 * baseline.c - a gate compared with an earlier one (gate.h).
 *
 * With pinned seeds, the same code gives the same figures: a case is
 * "unchanged" when its outcome is the same and no figure moved.  Code
 * that changes the stream of samples moves every sampled figure by its
 * noise, so a statistic is said to have drifted only when its effect
 * moved by more than drift_sd (default 5) standard deviations of the
 * difference of two independent runs: the effect e = max(0, (X2 - df) /
 * N) of a chi-square statistic has a standard deviation of about
 * sqrt(2 (df + 2 e N)) / N (a noncentral chi-square's), so a fair
 * shuffle's statistic drifts by chance about once in 1.7 million
 * comparisons at 5 (the normal tail beyond 5 standard deviations, both
 * sides).  An exact distance has no noise: any change is drift unless
 * the case allows a tolerance.
 */
#include "cli/gate.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/manifest.h"

void sb_gate_count(json_t *gate)
{
    static const char *const outcomes[] = { "held", "not held", "error",
                                            "inconclusive", "interrupted" };
    static const char *const keys[] = { "held", "not_held", "error",
                                        "inconclusive", "interrupted" };
    json_int_t n[5] = { 0 };
    size_t i;
    const json_t *c;
    const json_t *cases = json_object_get(gate, "cases");
    json_array_foreach(cases, i, c) {
        const char *o = json_string_value(json_object_get(c, "outcome"));
        for (size_t k = 0; o && k < 5; k++)
            n[k] += strcmp(o, outcomes[k]) == 0;
    }
    json_t *counts = json_object();
    json_object_set_new(counts, "cases",
                        json_integer((json_int_t)json_array_size(cases)));
    for (size_t k = 0; k < 5; k++)
        json_object_set_new(counts, keys[k], json_integer(n[k]));
    json_object_set_new(gate, "counts", counts);
}

static const json_t *find(const json_t *cases, const char *name)
{
    size_t i;
    const json_t *c;
    json_array_foreach(cases, i, c) {
        const char *s = json_string_value(json_object_get(c, "name"));
        if (s && strcmp(s, name) == 0)
            return c;
    }
    return NULL;
}

static const char *outcome(const json_t *c)
{
    const char *o = json_string_value(json_object_get(c, "outcome"));
    return o ? o : "";
}

static int held(const json_t *c)
{
    return strcmp(outcome(c), "held") == 0;
}

/* The exact distance moved beyond the tolerance: "tv 1/18 -> 1/20". */
static int exact_drift(const json_t *now, const json_t *old, char *buf,
                       size_t len)
{
    const char *a = json_string_value(json_object_get(old, "tv_exact")),
               *b = json_string_value(json_object_get(now, "tv_exact")),
               *tol = json_string_value(json_object_get(now,
                                                        "tv_tolerance"));
    if (!a || !b)
        return 0;
    mpq_t x, y, t;
    mpq_inits(x, y, t, NULL);
    int moved = 0;
    if (mpq_set_str(x, a, 10) == 0 && mpq_set_str(y, b, 10) == 0) {
        mpq_canonicalize(x);
        mpq_canonicalize(y);
        mpq_sub(x, y, x);
        mpq_abs(x, x);
        if (!tol || sb_gate_rational(tol, t) != 0)
            mpq_set_ui(t, 0, 1);
        moved = mpq_cmp(x, t) > 0;
    } else
        moved = strcmp(a, b) != 0;
    mpq_clears(x, y, t, NULL);
    if (moved)
        snprintf(buf, len, "tv %s -> %s", a, b);
    return moved;
}

/* A statistic's variance of its effect at N samples. */
static double effect_var(double e, double df, double n)
{
    return n > 0 ? 2.0 * (df + 2.0 * e * n) / (n * n) : 0;
}

/* Statistics whose effect moved by more than drift_sd standard
   deviations: "position effect 0.0012 -> 0.0051 (7.1 sd)". */
static int sampled_drift(const json_t *now, const json_t *old, char *buf,
                         size_t len)
{
    const double sd = json_number_value(json_object_get(now, "drift_sd"));
    size_t i, used = 0;
    const json_t *t;
    int moved = 0;
    buf[0] = '\0';
    json_array_foreach(json_object_get(now, "tests"), i, t) {
        const char *name = json_string_value(json_object_get(t, "name"));
        const json_t *u = name ? find(json_object_get(old, "tests"), name)
                               : NULL;
        /* A statistic that judged nothing has no effect to compare. */
        if (!u || !json_is_number(json_object_get(u, "effect"))
            || !json_is_number(json_object_get(t, "effect")))
            continue;
        const double e1 = json_number_value(json_object_get(u, "effect")),
                     e2 = json_number_value(json_object_get(t, "effect")),
                     df = json_number_value(json_object_get(t, "df")),
                     n1 = json_number_value(json_object_get(u, "samples")),
                     n2 = json_number_value(json_object_get(t, "samples"));
        const double s = sqrt(effect_var(e1, df, n1) + effect_var(e2, df,
                                                                   n2));
        const double z = s > 0 ? fabs(e2 - e1) / s
                               : e1 != e2 ? INFINITY : 0;
        if (!(z > sd))
            continue;
        if (used < len)
            used += (size_t)snprintf(buf + used, len - used,
                                     "%s%s effect %.3g -> %.3g (%.1f sd)",
                                     moved ? "; " : "", name, e1, e2, z);
        moved = 1;
    }
    return moved;
}

void sb_gate_compare(json_t *gate, const json_t *base, const char *file)
{
    const json_t *old_cases = json_object_get(base, "cases");
    json_t *cases = json_object_get(gate, "cases");
    size_t i;
    json_t *c;
    json_array_foreach(cases, i, c) {
        const char *name = json_string_value(json_object_get(c, "name"));
        const json_t *old = name ? find(old_cases, name) : NULL;
        const char *change;
        char drift[1024] = "";
        if (!old)
            change = "new";
        else if (held(old) && !held(c))
            change = "newly failing";
        else if (!held(old) && held(c))
            change = "fixed";
        else if (strcmp(outcome(old), outcome(c)) != 0) {
            /* Between two outcomes that are not held: not held, error,
               inconclusive, interrupted. */
            change = "outcome changed";
            snprintf(drift, sizeof drift, "%s -> %s", outcome(old),
                     outcome(c));
        } else if (!held(c) && strcmp(outcome(c), "not held") != 0)
            change = "unchanged";     /* no figures to compare */
        else if (exact_drift(c, old, drift, sizeof drift)
                 || sampled_drift(c, old, drift, sizeof drift))
            change = "drifted";
        else
            change = "unchanged";
        json_object_set_new(c, "change", json_string(change));
        json_object_set_new(c, "drift", drift[0] ? json_string(drift)
                                                 : json_null());
    }
    json_t *b = json_object(), *removed = json_array();
    const json_t *o;
    json_array_foreach(old_cases, i, o) {
        const char *name = json_string_value(json_object_get(o, "name"));
        if (name && !find(cases, name))
            json_array_append_new(removed, json_string(name));
    }
    json_object_set_new(b, "file", json_string(file));
    json_object_set_new(b, "removed", removed);
    json_object_set_new(gate, "baseline", b);
}

void sb_gate_strip_timing(json_t *gate)
{
    json_object_del(gate, "timing");
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(gate, "cases"), i, c)
        json_object_del(c, "time");
}
