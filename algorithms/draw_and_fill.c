/*
 * draw-and-fill - pick from the unpicked cards, fill the hole with the last.
 *
 * Keep the unpicked cards in an array A (at first the whole deck) and the
 * shuffled deck in X.  Draw r uniformly among the m unpicked cards, append
 * A[r] to X, move the last unpicked card A[m-1] into the hole at r, and
 * shrink m.  This is the "fill the hole" form of the Fisher-Yates-Knuth-
 * Durstenfeld shuffle written with a second array: each card of X is a
 * uniform choice among those left, so the n! sequences of draws give the
 * n! orders once each.  Fair.
 *
 * The draws below(n), ..., below(1) go through sb_below_falling, as in
 * fisher-yates.
 *
 * Source: Fisher and Yates, Statistical Tables (1938), in the array form
 * of Durstenfeld, CACM 7(7), 1964; Knuth, TAOCP vol. 2, 3.4.2.
 */
#include <stdlib.h>

#include "shufflebias/shuffle.h"
#include "shufflebias/status.h"
#include "algorithms/deck.h"

/* The two arrays of one shuffle. */
typedef struct arrays {
    sb_card *unpicked;      /* A: its first m cards are those left */
    sb_card *end;           /* one past X: the next card goes to end - m */
} arrays;

/* With m cards unpicked, the one at r goes to X and the last fills its
   hole. */
static void pick(void *ctx, uint64_t m, uint64_t r)
{
    arrays *s = ctx;
    s->end[-(ptrdiff_t)m] = s->unpicked[r];
    s->unpicked[r] = s->unpicked[m - 1];
}

/* Back out of pick: the card it took to X returns to its place.  (The
   last unpicked card was copied, not moved: it is still at m - 1.) */
static void unpick(void *ctx, uint64_t m, uint64_t r)
{
    arrays *s = ctx;
    s->unpicked[r] = s->end[-(ptrdiff_t)m];
}

/* One shuffle: what run and run_block both do, so they cannot differ. */
static inline void shuffle(sb_src *src, sb_card *unpicked, size_t n,
                           sb_card *out)
{
    arrays s = { unpicked, out + n };
    sb_deck_identity(unpicked, n);
    sb_below_falling(src, n, n, pick, unpick, &s);
}

static int run(void *state, const sb_shuffle_args *a, sb_src *src,
               sb_card *out)
{
    shuffle(src, state, a->n, out);
    return SB_OK;
}

static int run_block(void *state, const sb_shuffle_args *a, sb_src *src,
                     sb_card *out, size_t count)
{
    for (size_t s = 0; s < count; s++)
        shuffle(src, state, a->n, out + s * a->n);
    return SB_OK;
}

const sb_shuffle_type sb_shuffle_draw_and_fill = {
    .name = "draw-and-fill",
    .summary = "draw a random unpicked card into a second array and fill "
               "its hole with the last unpicked card",
    .source = "Fisher and Yates (1938) as arrays; Durstenfeld, CACM 7(7) 1964",
    .bias = "Each card drawn is a uniform choice among those left, so every "
            "order has probability exactly 1/n!.",
    .kind = SB_KIND_PERMUTATION,
    .literature = SB_LIT_UNIFORM,
    .n_min = 1,
    .n_max = SB_DECK_MAX,
    .init = sb_deck_state_alloc,
    .free = free,
    .exact_paths = sb_paths_n_factorial,
    .run = run,
    .run_block = run_block,
};
