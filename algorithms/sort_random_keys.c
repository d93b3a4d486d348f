/*
 * sort-random-keys - give every card a random key, sort by key (stably).
 *
 * Each card gets a key of 'key-bits' uniform bits; the deck is then sorted
 * by key with a stable merge sort.  With distinct keys the order is uniform,
 * but keys tie with positive probability, and a stable sort keeps tied
 * cards in their original order: the start order is favoured.  Biased for
 * every finite key size (for n = 3 the 2^(3k) equally likely key triples
 * cannot split evenly into 6 orders); with 53-bit keys (a double from a
 * typical random() call) the bias is about n^2 / 2^54 and invisible in
 * practice; with few bits it is plain.
 *
 * Exact bias for 3 cards with key-bits = 1 (8 paths, deck ABC): ABC 4/8 -
 * the identity whenever the keys are non-decreasing (000, 001, 011, 111) -
 * ACB 1/8, BAC 1/8, BCA 1/8, CAB 1/8, CBA never.
 *
 * Source: the "sort by random key" idiom (e.g. ORDER BY RAND(), or
 * sorting an array of Math.random() keys); the effect of ties is discussed
 * by Oleg Kiselyov, "Provably perfect random shuffling and its pure
 * functional implementations" (2001).
 */
#include <stdlib.h>

#include "shufflebias/shuffle.h"
#include "shufflebias/status.h"
#include "algorithms/deck.h"

enum { P_KEY_BITS };

static const sb_param_def params[] = {
    [P_KEY_BITS] = { "key-bits", "bits in each random key", 53, 1, 64, NULL },
};

typedef struct keyed {
    uint64_t key;
    sb_card card;
} keyed;

/* Scratch space: two arrays of n keyed cards, for the merge passes. */
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

static int run(void *state, const sb_shuffle_args *args, sb_src *src,
               sb_card *out)
{
    scratch *s = state;
    const unsigned bits = (unsigned)args->param[P_KEY_BITS];
    for (size_t j = 0; j < args->n; j++)
        s->a[j] = (keyed){ sb_bits(src, bits), (sb_card)j };
    const keyed *sorted = merge_sort(s->a, s->b, args->n);
    for (size_t j = 0; j < args->n; j++)
        out[j] = sorted[j].card;
    return SB_OK;
}

/* n keys of key-bits bits each: 2^(key-bits * n) paths. */
static uint64_t paths(const sb_shuffle_args *a)
{
    return sb_paths_pow(2, (uint64_t)a->param[P_KEY_BITS] * a->n);
}

const sb_shuffle_type sb_shuffle_sort_random_keys = {
    .name = "sort-random-keys",
    .summary = "give each card a random key of key-bits bits and sort "
               "stably: ties keep the start order",
    .source = "the sort-by-random-key idiom; Kiselyov (2001) on ties",
    .bias = "Tied keys keep their cards in the starting order, so the starting "
            "order and its near neighbours come up too often; the fewer the key"
            " bits, the worse.",
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
