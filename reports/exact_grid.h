/*
 * exact_grid.h - what the exact renderers (Markdown, HTML) share: the
 * names of outcomes, and the summary grid of many exact reports.
 *
 * The grid is the table an article about shuffle bias shows: one row per
 * algorithm, one column per outcome (every order of 3 cards), the exact
 * probability in each cell.  It is made only when it is small enough to
 * read (at most SB_EXACT_GRID_COLS outcomes) and when every outcome is
 * known: reached by one of the rows, or listed as never reached.
 */
#ifndef SB_REPORTS_EXACT_GRID_H
#define SB_REPORTS_EXACT_GRID_H

#include <stddef.h>
#include "shufflebias/exact.h"

/* The most outcomes a grid has as columns: the 24 orders of 4 cards. */
#define SB_EXACT_GRID_COLS 24

/* An outcome in words, as every exact report writes it: "BCA" (the deck
   from top to bottom), "AC|BD" (a deal's hands); about 6 bytes a card.
   (reports/exact.c) */
void sb_exact_outcome_str(const sb_exact_report *rep, const sb_card *sample,
                          char *buf, size_t len);
/* A card's name: a letter up to 26 cards (A is card 0), a number beyond. */
void sb_exact_card_str(const sb_exact_report *rep, size_t card, char *buf,
                       size_t len);
/* A fraction "p/q" (or "p") as a double; p and q may exceed 2^64, and
   are read as doubles.  NAN for a zero denominator. */
double sb_exact_fraction_value(const char *s);
/* A fraction as people read it: "0" for a zero one ("0/1", as the JSON
   and CSV keep it for programs), else 's' itself. */
const char *sb_exact_fraction_shown(const char *s);
/* The probability of a cell of the exact matrix under a uniform shuffle:
   a card is in each position (or slot of a draw) 1/n of the time, in
   each of H hands of n/H cards 1/H of the time. */
double sb_exact_cell_uniform(const sb_exact_report *rep);

/* One grid: reports with the same outcomes (same kind, deck, outcome
   length, hands and number of possible outcomes). */
typedef struct sb_exact_grid {
    size_t *rows;             /* indices of its reports, in report order */
    size_t n_rows;            /* at least 2: one report has its own table */
    const sb_card *cols[SB_EXACT_GRID_COLS];  /* every possible outcome,
                                 lexicographic (pointing into the
                                 reports) */
    size_t n_cols;
} sb_exact_grid;

/* The grids of reps[0..m): one per outcome space shared by two reports
   or more, in the order of their first report; *count of them, in
   *grids (NULL when none; release with sb_exact_grids_free).  Reports
   with their totals only (summary_only) are left out.  SB_OK or
   SB_ENOMEM. */
int sb_exact_grids(const sb_exact_report *reps, size_t m,
                   sb_exact_grid **grids, size_t *count);
void sb_exact_grids_free(sb_exact_grid *grids, size_t count);

/* The outcome 'sample' in 'rep', NULL when never reached. */
const sb_exact_outcome *sb_exact_find(const sb_exact_report *rep,
                                      const sb_card *sample);

#endif /* SB_REPORTS_EXACT_GRID_H */
