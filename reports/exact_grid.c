/*
 * exact_grid.c - the summary grid of many exact reports (exact_grid.h).
 *
 * Reports share a grid when their outcomes are the same set: the same
 * kind, deck size, outcome length, hands and count of possible outcomes
 * (every permutation algorithm at 3 cards; every deal of 3 cards into 3
 * hands of one).  The columns are the union of what the rows reached and
 * what they list as never reached; a grid is made only when that union is
 * every possible outcome, so that no column is missing.
 */
#include "reports/exact_grid.h"

#include <stdlib.h>
#include <string.h>

#include "shufflebias/status.h"

static int sample_cmp(const sb_card *a, const sb_card *b, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

const sb_exact_outcome *sb_exact_find(const sb_exact_report *rep,
                                      const sb_card *sample)
{
    /* The outcomes are in lexicographic order. */
    size_t lo = 0, hi = rep->n_outcomes;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        const int c = sample_cmp(rep->outcomes[mid].sample, sample, rep->len);
        if (c == 0)
            return &rep->outcomes[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

static int same_space(const sb_exact_report *a, const sb_exact_report *b)
{
    return a->kind == b->kind && a->n == b->n && a->len == b->len
        && a->hands == b->hands && strcmp(a->possible, b->possible) == 0;
}

/* 'sample' into the sorted set cols[0..*n) unless there already; 0, or
   -1 when the set would outgrow SB_EXACT_GRID_COLS. */
static int add_col(sb_exact_grid *g, const sb_card *sample, size_t len)
{
    size_t at = 0;
    while (at < g->n_cols && sample_cmp(g->cols[at], sample, len) < 0)
        at++;
    if (at < g->n_cols && sample_cmp(g->cols[at], sample, len) == 0)
        return 0;
    if (g->n_cols == SB_EXACT_GRID_COLS)
        return -1;
    memmove(&g->cols[at + 1], &g->cols[at],
            (g->n_cols - at) * sizeof g->cols[0]);
    g->cols[at] = sample;
    g->n_cols++;
    return 0;
}

/* The columns of 'g' from its rows: 0, or -1 when they are too many or
   some possible outcome is in none of them. */
static int fill_cols(sb_exact_grid *g, const sb_exact_report *reps)
{
    const sb_exact_report *first = &reps[g->rows[0]];
    if (first->possible_d > SB_EXACT_GRID_COLS)
        return -1;
    for (size_t r = 0; r < g->n_rows; r++) {
        const sb_exact_report *rep = &reps[g->rows[r]];
        for (size_t i = 0; i < rep->n_outcomes; i++)
            if (add_col(g, rep->outcomes[i].sample, rep->len) != 0)
                return -1;
        for (size_t i = 0; i < rep->n_never; i++)
            if (add_col(g, rep->never + i * rep->len, rep->len) != 0)
                return -1;
    }
    return (double)g->n_cols == first->possible_d ? 0 : -1;
}

void sb_exact_grids_free(sb_exact_grid *grids, size_t count)
{
    for (size_t i = 0; grids && i < count; i++)
        free(grids[i].rows);
    free(grids);
}

int sb_exact_grids(const sb_exact_report *reps, size_t m,
                   sb_exact_grid **grids, size_t *count)
{
    *grids = NULL;
    *count = 0;
    if (m < 2)
        return SB_OK;
    sb_exact_grid *g = calloc(m, sizeof *g);
    int *taken = calloc(m, sizeof *taken);
    if (!g || !taken) {
        free(g);
        free(taken);
        return SB_ENOMEM;
    }
    size_t made = 0;
    for (size_t i = 0; i < m; i++) {
        if (taken[i] || reps[i].summary_only)
            continue;
        sb_exact_grid *cur = &g[made];
        *cur = (sb_exact_grid){ .rows = malloc(m * sizeof *cur->rows) };
        if (!cur->rows) {
            free(taken);
            sb_exact_grids_free(g, made);
            return SB_ENOMEM;
        }
        for (size_t j = i; j < m; j++)
            if (!taken[j] && !reps[j].summary_only
                && same_space(&reps[i], &reps[j])) {
                taken[j] = 1;
                cur->rows[cur->n_rows++] = j;
            }
        if (cur->n_rows >= 2 && fill_cols(cur, reps) == 0)
            made++;
        else
            free(cur->rows);
    }
    free(taken);
    if (made == 0) {
        free(g);
        return SB_OK;
    }
    *grids = g;
    *count = made;
    return SB_OK;
}
