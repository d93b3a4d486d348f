/*
 * sort-random-keys - give every card a random key, sort by key.
 *
 * Each card gets a key of 'key-bits' uniform bits; the deck is then sorted
 * by key, with one of two sorts ('sort'):
 *
 *   merge     a stable bottom-up merge sort (the default): tied cards keep
 *             their starting order;
 *   exchange  the loop of the BASIC listing in Ted's Computer World's
 *             "Shuffling and Dealing" (a PowerBASIC page): for j
 *             in 0..n-2, for k in j+1..n-1, if key[j] > key[k] swap both
 *             card and key.  Not stable: a swap of j and k can carry a card
 *             over a card between them with the same key.
 *
 * With distinct keys either sort gives a uniform order, but keys tie with
 * positive probability, and neither sort shuffles tied cards: the merge
 * keeps them in order, the exchange moves them in a fixed pattern.  The
 * start order is favoured.  Biased for every finite key size (at n = 3
 * the 2^(3k) equally likely key triples cannot split evenly into 6
 * orders); with 53-bit keys (a double from a typical random() call) the
 * bias is about n^2 / 2^54 and invisible in practice; with few bits it is
 * plain.
 *
 * Exact bias for 3 cards (deck ABC, keys a, b, c of cards A, B, C):
 *
 *   key-bits = 1, 8 equally likely triples abc.  Both sorts give ABC for
 *   000, 001, 011, 111 (4/8), ACB for 010, BAC for 101, BCA for 100 (1/8
 *   each).  They differ on 110 (a = b = 1 > c = 0): the merge gives CAB,
 *   the exchange swaps A and C (j = 0, k = 2) and leaves CBA.  So merge:
 *   CAB 1/8, CBA never; exchange: CBA 1/8, CAB never.  TV 1/3 for both.
 *
 *   key-bits = 2, 64 triples: 24 with distinct keys (each order 4 times),
 *   4 all equal (ABC), and 36 with exactly one tie - for each tied pair, 6
 *   with the third key above the tie and 6 below, sorted as the 1-bit
 *   triples with that pattern.  Merge: ABC 20/64 = 5/16, ACB, BAC, BCA, CAB
 *   10/64 = 5/32 each, CBA 4/64 = 1/16; exchange: the same with CAB and CBA
 *   exchanged (CAB 1/16, CBA 5/32).  TV 5/16 - 1/6 = 7/48 for both.
 *
 * Source: the "sort by random key" idiom (e.g. ORDER BY RAND(), or
 * sorting an array of Math.random() keys); the exchange sort is the
 * "random sort shuffle" BASIC listing in Ted's Computer World, "Shuffling
 * and Dealing" (which warns that sorts collect equal values together); the
 * effect of ties is discussed by Oleg Kiselyov, "Provably perfect random
 * shuffling and its pure functional implementations" (2001).
 */
#include <stdlib.h>

#include "shufflebias/shuffle.h"
#include "shufflebias/status.h"
#include "algorithms/deck.h"

enum { P_KEY_BITS, P_SORT };
enum { SORT_MERGE, SORT_EXCHANGE };

static const char *const sorts[] = { "merge", "exchange", NULL };

static const sb_param_def params[] = {
    [P_KEY_BITS] = { "key-bits", "bits in each random key", 53, 1, 64, NULL },
    [P_SORT] = { "sort", "how the keys are sorted: stable merge, or the "
                 "exchange loop of the BASIC listing", SORT_MERGE, 0, 1,
                 sorts },
};

typedef struct keyed {
    uint64_t key;
    sb_card card;
} keyed;

/* Scratch space: two arrays of n keyed cards, for the merge passes (the
   exchange sort works in the first alone). */
typedef struct scratch {
    keyed *a, *b;
} scratch;

static int init(void **state, const sb_shuffle_args *args)
{
    scratch *s = malloc(sizeof *s);
    if (!s)
        return SB_ENOMEM;
    s->a = malloc(args->n * sizeof *s->a);
    s->b = malloc(args->n * sizeof *s->b);
    if (!s->a || !s->b) {
        free(s->a);
        free(s->b);
        free(s);
        return SB_ENOMEM;
    }
    *state = s;
    return SB_OK;
}

static void release(void *state)
{
    scratch *s = state;
    free(s->a);
    free(s->b);
    free(s);
}

/* Bottom-up merge sort by key; on equal keys the left run goes first, which
   is what makes it stable.  Returns the array holding the sorted run. */
static keyed *merge_sort(keyed *a, keyed *b, size_t n)
{
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n;
            size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                b[k++] = a[j].key < a[i].key ? a[j++] : a[i++];
            while (i < mid)
                b[k++] = a[i++];
            while (j < hi)
                b[k++] = a[j++];
        }
        keyed *t = a;
        a = b;
        b = t;
    }
    return a;
}

/* The BASIC listing's exchange sort, in place: after pass j, position j
   holds a smallest key of a[j..n-1].  Equal keys are never swapped with
   each other, but a swap of j and k jumps over the cards between them,
   whatever their keys: not stable. */
static keyed *exchange_sort(keyed *a, size_t n)
{
    for (size_t j = 0; j + 1 < n; j++)
        for (size_t k = j + 1; k < n; k++)
            if (a[j].key > a[k].key) {
                const keyed t = a[j];
                a[j] = a[k];
                a[k] = t;
            }
    return a;
}

static int run(void *state, const sb_shuffle_args *args, sb_src *src,
               sb_card *out)
{
    scratch *s = state;
    const unsigned bits = (unsigned)args->param[P_KEY_BITS];
    for (size_t j = 0; j < args->n; j++)
        s->a[j] = (keyed){ sb_bits(src, bits), (sb_card)j };
    const keyed *sorted = args->param[P_SORT] == SORT_EXCHANGE
                        ? exchange_sort(s->a, args->n)
                        : merge_sort(s->a, s->b, args->n);
    for (size_t j = 0; j < args->n; j++)
        out[j] = sorted[j].card;
    return SB_OK;
}

/* n keys of key-bits bits each, whichever sort: 2^(key-bits * n) paths. */
static uint64_t paths(const sb_shuffle_args *a)
{
    return sb_paths_pow(2, (uint64_t)a->param[P_KEY_BITS] * a->n);
}

const sb_shuffle_type sb_shuffle_sort_random_keys = {
    .name = "sort-random-keys",
    .summary = "give each card a random key of key-bits bits and sort by "
               "key (stable merge, or the BASIC exchange loop): ties are not "
               "shuffled",
    .source = "the sort-by-random-key idiom; Ted's Computer World, "
              "\"Shuffling and Dealing\" (BASIC exchange sort); Kiselyov "
              "(2001) on ties",
    .bias = "Cards with tied keys are not shuffled (the merge keeps them in "
            "their starting order, the exchange sort moves them in a fixed "
            "pattern), so the starting order comes up too often; the fewer "
            "the key bits, the worse.",
    .kind = SB_KIND_PERMUTATION,
    .literature = SB_LIT_BIASED,
    .n_min = 1,
    .n_max = SB_DECK_MAX,
    .params = params,
    .n_params = sizeof params / sizeof params[0],
    .init = init,
    .free = release,
    .exact_paths = paths,
    .exact_hint = "key-bits=2",
    .run = run,
};
