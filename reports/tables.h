/*
 * tables.h - what the JSON and CSV renderers say of a statistic's table
 * (sb_result.table): the names of its rows and columns, its cells'
 * ratios and residuals, and the cells a summary of a large table lists.
 * Internal to the reports floor.
 */
#ifndef SB_REPORTS_TABLES_H
#define SB_REPORTS_TABLES_H

#include <stddef.h>
#include "shufflebias/stat.h"

/* How many cells a summary lists as its largest deviations. */
#define SB_TABLES_DEVIATIONS 10u

/* Column 'col' of r's table in words into 'buf': its label when the
   result has names, the deck of that order for the columns of
   'permutation' ("ACB": card 0 is A), else the value range "3" or "4-52"
   of a table with ranges; "" when it has no name.  'n' is the run's deck
   size. */
void sb_tables_col_name(const sb_result *r, size_t n, size_t col, char *buf,
                        size_t len);

/* 1 when every cell of the table expects the same count. */
int sb_tables_expected_constant(const sb_table *t);

/* observed / expected, NAN when nothing is expected; and the
   standardized residual (observed - expected) / sqrt(expected), NAN
   likewise. */
double sb_tables_ratio(const sb_table *t, size_t cell);
double sb_tables_residual(const sb_table *t, size_t cell);

/* The cells of a large table worth listing: the smallest and largest
   ratio and residual (the first such cell in row-major order; SIZE_MAX
   when no cell expects anything) and up to SB_TABLES_DEVIATIONS cells of
   largest |residual|, largest first (ties: row-major order). */
typedef struct sb_tables_extremes {
    size_t ratio_min, ratio_max, residual_min, residual_max;
    size_t top[SB_TABLES_DEVIATIONS];
    size_t n_top;
} sb_tables_extremes;

void sb_tables_extremes_find(const sb_table *t, sb_tables_extremes *x);

#endif /* SB_REPORTS_TABLES_H */
