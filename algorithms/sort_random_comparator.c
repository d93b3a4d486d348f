/*
 * sort-random-comparator - sort the deck with a comparator that answers at
 * random.
 *
 * The idiom: array.sort(() => Math.random() - 0.5) in JavaScript, or qsort
 * with a comparator returning rand() % 2 ? 1 : -1 in C.  Here every call of
 * the comparator is one fair coin (one sb_bits(src, 1)): -1 or +1, never 0,
 * whatever the two cards.  A sort relies on its comparator being consistent
 * (C11 7.22.5p4: the same answer for the same pair, and a total order); this
 * one contradicts itself, and what comes out depends on which comparisons
 * the sort makes and in what order.  The 'sort' parameter chooses the sort:
 *
 *   exchange   for j in 0..n-2, for k in j+1..n-1: if cmp(a[j], a[k]) > 0,
 *              swap them.  Exactly n(n-1)/2 comparisons.
 *   insertion  for i in 1..n-1: key = a[i], j = i-1; while j >= 0 and
 *              cmp(a[j], key) > 0: a[j+1] = a[j], j--; then a[j+1] = key.
 *   merge      top-down: sort the first floor(n/2) cards, then the rest,
 *              then merge, taking the left card when cmp <= 0.  The default:
 *              the library sort people hand such a comparator to is most
 *              often a merge sort, and glibc's qsort is this very one for
 *              arrays it can buffer (msort.c: the same split, the same rule
 *              on cmp <= 0, the same order of comparisons).
 *   quick      textbook quicksort, Lomuto's partition with the last card as
 *              pivot (cards with cmp(a[j], pivot) <= 0 go left).  It recurses
 *              into the smaller part and loops on the larger, so the stack
 *              holds at most log2(n) frames.  That cannot change the
 *              distribution: every comparison is an independent fair coin,
 *              whatever the cards, so which part is sorted first only
 *              changes which coin answers which comparison, not the law of
 *              the result.
 *   qsort      the C library's qsort_r with this comparator: the bug as it
 *              is written in C.  What it does depends on the library and its
 *              version, so exact mode refuses it (exact_refusal_for); it is
 *              for sampling only.  The comparator breaks qsort's contract
 *              (undefined behaviour by the letter of C11), and glibc before
 *              2.39 can run off the array with such a comparator when the
 *              malloc inside qsort fails (Qualys, "Out-of-bounds read & write
 *              in the glibc's qsort()", 2024): glibc sorts fewer than 1024
 *              bytes in a stack buffer and never mallocs, so this choice
 *              takes at most 511 two-byte cards.  That also keeps run()
 *              free of allocation on glibc; where some other library does
 *              allocate, no harm follows, as qsort is never enumerated (the
 *              walk abandons runs with longjmp only when it enumerates).
 *
 * Never uniform for n >= 3, with any of the first four sorts: each makes at
 * most n(n-1)/2 comparisons, so every order's probability is a multiple of
 * 2^-(n(n-1)/2), and 1/n! is not (3 divides n!).  At n = 2 each makes one
 * comparison and is fair.  For qsort no such bound is assumed: the tests
 * measure its bias.
 *
 * Exact bias for 3 cards (deck ABC; each derived coin by coin in
 * tests/test_sorts.c):
 *   exchange   ABC, ACB, BAC, BCA 1/8 each, CAB 1/4, CBA 1/4;
 *   insertion  ABC 1/4, ACB 1/8, BAC 1/4, BCA 1/8, CAB 1/8, CBA 1/8;
 *   merge      ABC 1/4, ACB 1/4, BAC 1/8, BCA 1/8, CAB 1/8, CBA 1/8;
 *   quick      ABC 1/8, ACB 1/4, BAC 1/8, BCA 1/4, CAB 1/8, CBA 1/8;
 * two orders at 1/4 and four at 1/8 every time, a total-variation distance
 * of 1/6 from uniform.
 *
 * Source: the random-comparator idiom; Rob Weir, "Doing the Microsoft
 * Shuffle: Algorithm Fail in Browser Ballot" (2010), on the browser-choice
 * screen that sorted with function (a, b) { return 0.5 - Math.random(); }.
 */
#define _GNU_SOURCE   /* qsort_r, glibc's qsort with a context argument */
#include <stdio.h>
#include <stdlib.h>

#include "shufflebias/shuffle.h"
#include "shufflebias/status.h"
#include "algorithms/deck.h"

enum { P_SORT };
enum { SORT_EXCHANGE, SORT_INSERTION, SORT_MERGE, SORT_QUICK, SORT_QSORT };

static const char *const sorts[] = { "exchange", "insertion", "merge",
                                     "quick", "qsort", NULL };

static const sb_param_def params[] = {
    [P_SORT] = { "sort", "the sort given the random comparator",
                 SORT_MERGE, SORT_EXCHANGE, SORT_QSORT, sorts },
};

/* glibc's qsort sorts n * size < 1024 bytes in a stack buffer. */
#define QSORT_N_MAX (1023 / sizeof(sb_card))

/* The comparator: one fair coin, -1 or +1, never 0.  The cards are not
   looked at. */
static int coin(sb_src *src)
{
    return sb_bits(src, 1) ? 1 : -1;
}

static void exchange_sort(sb_card *a, size_t n, sb_src *src)
{
    for (size_t j = 0; j + 1 < n; j++)
        for (size_t k = j + 1; k < n; k++)
            if (coin(src) > 0)
                sb_deck_swap(a, j, k);
}

static void insertion_sort(sb_card *a, size_t n, sb_src *src)
{
    for (size_t i = 1; i < n; i++) {
        const sb_card key = a[i];
        size_t j = i;   /* the hole; a[j-1] is the card compared */
        while (j > 0 && coin(src) > 0) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = key;
    }
}

/* Sort a[0..n-1] with tmp[0..n-1] as the merge buffer.  The recursion is
   log2(n) deep. */
static void merge_sort(sb_card *a, sb_card *tmp, size_t n, sb_src *src)
{
    if (n <= 1)
        return;
    const size_t n1 = n / 2;
    merge_sort(a, tmp, n1, src);
    merge_sort(a + n1, tmp, n - n1, src);
    size_t i = 0, j = n1, k = 0;
    while (i < n1 && j < n)
        tmp[k++] = coin(src) <= 0 ? a[i++] : a[j++];
    while (i < n1)
        tmp[k++] = a[i++];
    /* Whatever is left of the right run is already in place. */
    for (size_t m = 0; m < k; m++)
        a[m] = tmp[m];
}

/* Lomuto's partition of a[lo..hi] around the pivot a[hi]: returns the
   pivot's final place p, with a[lo..p-1] the cards that compared <= 0. */
static size_t partition(sb_card *a, size_t lo, size_t hi, sb_src *src)
{
    size_t i = lo;
    for (size_t j = lo; j < hi; j++)
        if (coin(src) <= 0)
            sb_deck_swap(a, i++, j);
    sb_deck_swap(a, i, hi);
    return i;
}

/* Sort a[lo..hi] (inclusive).  The recursion takes the smaller part, so it
   is at most log2(n) deep; the loop takes the larger. */
static void quick_sort(sb_card *a, size_t lo, size_t hi, sb_src *src)
{
    while (lo < hi) {
        const size_t p = partition(a, lo, hi, src);
        if (p - lo < hi - p) {
            if (p > lo)
                quick_sort(a, lo, p - 1, src);
            lo = p + 1;
        } else {
            /* Here p > lo: p == lo would give 0 >= hi - lo > 0. */
            if (p < hi)
                quick_sort(a, p + 1, hi, src);
            hi = p - 1;
        }
    }
}

static int qsort_coin(const void *x, const void *y, void *src)
{
    (void)x;
    (void)y;
    return coin(src);
}

/* The merge buffer: n cards. */
static int init(void **state, const sb_shuffle_args *a)
{
    *state = malloc((a->n ? a->n : 1) * sizeof(sb_card));
    return *state ? SB_OK : SB_ENOMEM;
}

static int run(void *state, const sb_shuffle_args *a, sb_src *src,
               sb_card *out)
{
    const size_t n = a->n;
    sb_deck_identity(out, n);
    switch (a->param[P_SORT]) {
    case SORT_EXCHANGE:
        exchange_sort(out, n, src);
        break;
    case SORT_INSERTION:
        insertion_sort(out, n, src);
        break;
    case SORT_MERGE:
        merge_sort(out, state, n, src);
        break;
    case SORT_QUICK:
        if (n > 1)
            quick_sort(out, 0, n - 1, src);
        break;
    case SORT_QSORT:
        qsort_r(out, n, sizeof *out, qsort_coin, src);
        break;
    }
    return SB_OK;
}

static int check(const sb_shuffle_args *a, char *why, size_t len)
{
    if (a->param[P_SORT] == SORT_QSORT && a->n > QSORT_N_MAX) {
        snprintf(why, len, "with sort=qsort takes at "
                 "most %zu cards (more than 1023 bytes and glibc's qsort "
                 "may fall back on a sort that an inconsistent comparator "
                 "drives off the array), not %zu", (size_t)QSORT_N_MAX, a->n);
        return SB_EINVAL;
    }
    return SB_OK;
}

static const char *refusal_for(const sb_shuffle_args *a)
{
    return a->param[P_SORT] == SORT_QSORT
        ? "sort=qsort leaves the comparisons to the C library's qsort, whose "
          "algorithm depends on the library and its version; walk another "
          "sort (e.g. --param sort=merge, what glibc's qsort does) or sample "
          "it with 'shufflebias test'"
        : NULL;
}

/* The exchange sort makes exactly n(n-1)/2 comparisons, one coin each:
   2^(n(n-1)/2) paths, saturated by a test on the exponent rather than by
   sb_paths_pow's loop, which would run up to 2^31 times.  The others make
   a number of comparisons that depends on the coins: not known ahead. */
static uint64_t paths(const sb_shuffle_args *a)
{
    if (a->param[P_SORT] != SORT_EXCHANGE)
        return 0;
    const uint64_t coins = (uint64_t)a->n * (a->n - 1) / 2;
    return coins >= 64 ? UINT64_MAX : (uint64_t)1 << coins;
}

const sb_shuffle_type sb_shuffle_sort_random_comparator = {
    .name = "sort-random-comparator",
    .summary = "sort with a comparator that returns a fair random -1 or +1 "
               "on every call (exchange, insertion, merge, quick or the C "
               "library's qsort)",
    .source = "the random-comparator idiom; Rob Weir, \"Doing the Microsoft "
              "Shuffle\" (2010)",
    .bias = "A sort fed coin tosses instead of comparisons gives each order "
            "a sum of powers of 1/2, never 1/n!, and how far it misses depends "
            "on the sort: at 3 cards two orders come up twice as often as the "
            "other four.",
    .kind = SB_KIND_PERMUTATION,
    .literature = SB_LIT_BIASED,
    .n_min = 1,
    .n_max = SB_DECK_MAX,
    .params = params,
    .n_params = sizeof params / sizeof params[0],
    .check = check,
    .init = init,
    .free = free,
    .exact_paths = paths,
    .exact_refusal_for = refusal_for,
    .run = run,
};
