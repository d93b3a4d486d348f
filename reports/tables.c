/*
 * tables.c - names, ratios and the extreme cells of a statistic's table,
 * shared by the JSON and the CSV renderers.
 */
#include "reports/tables.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The deck of rank 'rank' among the n! orders in lexicographic order (the
   ranking of 'permutation', whose table's column r is the order of rank
   r), cards as letters from A: rank 0 is ABC..., rank 1 ACB...  The
   statistic keeps its table for small decks only; beyond 20 cards (no
   rank fits) or 26 (no letter), "". */
static void order_name(uint64_t rank, size_t n, char *buf, size_t len)
{
    if (len == 0)
        return;
    buf[0] = '\0';
    if (n == 0 || n > 20 || n + 1 > len)
        return;
    char left[21];
    uint64_t fact = 1;
    for (size_t i = 0; i < n; i++) {
        left[i] = (char)('A' + i);
        if (i > 0)
            fact *= i;          /* (n-1)! at the end */
    }
    for (size_t i = 0; i < n; i++) {
        const size_t rest = n - i;       /* cards not yet placed */
        const size_t digit = (size_t)(rank / fact);
        if (digit >= rest) {
            buf[0] = '\0';               /* a rank beyond n!: no name */
            return;
        }
        rank %= fact;
        buf[i] = left[digit];
        memmove(left + digit, left + digit + 1, rest - 1 - digit);
        if (rest > 1)
            fact /= rest - 1;
    }
    buf[n] = '\0';
}

void sb_tables_col_name(const sb_result *r, size_t n, size_t col, char *buf,
                        size_t len)
{
    const sb_table *t = &r->table;
    if (len == 0)
        return;
    buf[0] = '\0';
    if (col >= t->cols)
        return;
    if (r->labels && r->labels[col])
        snprintf(buf, len, "%s", r->labels[col]);
    else if (r->col_label && strcmp(r->col_label, "order") == 0 && n <= 26)
        order_name((uint64_t)col, n, buf, len);
    else if (t->lo && t->lo[col] == t->hi[col])
        snprintf(buf, len, "%ld", t->lo[col]);
    else if (t->lo)
        snprintf(buf, len, "%ld-%ld", t->lo[col], t->hi[col]);
}

int sb_tables_expected_constant(const sb_table *t)
{
    const size_t cells = t->rows * t->cols;
    for (size_t i = 1; i < cells; i++)
        if (t->expected[i] != t->expected[0])
            return 0;
    return cells > 0;
}

double sb_tables_ratio(const sb_table *t, size_t cell)
{
    const double e = t->expected[cell];
    return e > 0.0 ? t->observed[cell] / e : NAN;
}

double sb_tables_residual(const sb_table *t, size_t cell)
{
    const double e = t->expected[cell];
    return e > 0.0 ? (t->observed[cell] - e) / sqrt(e) : NAN;
}

void sb_tables_extremes_find(const sb_table *t, sb_tables_extremes *x)
{
    x->ratio_min = x->ratio_max = x->residual_min = x->residual_max =
        SIZE_MAX;
    x->n_top = 0;
    const size_t cells = t->rows * t->cols;
    double rmin = 0, rmax = 0, zmin = 0, zmax = 0;
    double top_abs[SB_TABLES_DEVIATIONS];
    for (size_t i = 0; i < cells; i++) {
        if (!(t->expected[i] > 0.0))
            continue;
        const double ratio = sb_tables_ratio(t, i);
        const double z = sb_tables_residual(t, i);
        if (x->ratio_min == SIZE_MAX) {
            x->ratio_min = x->ratio_max = x->residual_min =
                x->residual_max = i;
            rmin = rmax = ratio;
            zmin = zmax = z;
        } else {
            if (ratio < rmin) { rmin = ratio; x->ratio_min = i; }
            if (ratio > rmax) { rmax = ratio; x->ratio_max = i; }
            if (z < zmin) { zmin = z; x->residual_min = i; }
            if (z > zmax) { zmax = z; x->residual_max = i; }
        }
        /* Kept sorted by |z|, largest first; an equal one stays behind
           those found before it. */
        const double a = fabs(z);
        size_t at = x->n_top;
        while (at > 0 && top_abs[at - 1] < a)
            at--;
        if (at >= SB_TABLES_DEVIATIONS)
            continue;
        const size_t last = x->n_top < SB_TABLES_DEVIATIONS
                            ? x->n_top : SB_TABLES_DEVIATIONS - 1;
        memmove(top_abs + at + 1, top_abs + at, (last - at) * sizeof *top_abs);
        memmove(x->top + at + 1, x->top + at, (last - at) * sizeof *x->top);
        top_abs[at] = a;
        x->top[at] = i;
        if (x->n_top < SB_TABLES_DEVIATIONS)
            x->n_top++;
    }
}
