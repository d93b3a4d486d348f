/*
 * riffle_core.c - the riffle, its inverse, and the stopping rule.
 *
 * The stopping rule (Aldous & Diaconis, "Shuffling cards and stopping
 * times", Amer. Math. Monthly 93(5), 1986, Lemma 9).  Inverse riffles
 * made one after another from the unshuffled deck give each card a random
 * bit per riffle, the bit of the position it is at; the new bit is put in
 * front of the card's label (it becomes the most significant), and the
 * inverse riffle then sorts the deck stably by label.  The labels are
 * independent uniform strings of bits, one per card, and the deck is the
 * cards sorted by label, so once the labels are all distinct every order
 * of the cards is equally likely: the first time T they are distinct is a
 * strong uniform time.  P(T <= t) is the birthday problem's
 * (2^t)_n / 2^(tn), n cards among 2^t labels.
 *
 * The forward riffles b_1, ..., b_t make the deck whose inverse is the
 * inverse walk b_t, b_(t-1), ..., b_1 (Lemma 8 reverses time), so the walk
 * that tells when forward riffles may stop applies the inverse riffles in
 * reverse order, recomputed from the start after every new riffle.  Why
 * stopping on it is fair: the label that walk gives the card it starts
 * with at position p, read from its most significant bit, says which
 * packet the card the forward riffles leave at position p fell from in
 * riffles 1, 2, ..., t.  So labels distinct after t - 1 riffles stay
 * distinct after t, the stop depends only on the set of labels (each
 * card's independent and uniform), and given the stop every assignment of
 * labels to cards, hence every deck of the walk and so its inverse, the
 * forward deck, is equally likely.  Applying the inverse riffles in the
 * order they were drawn instead is the mistake riffle-until-uniform-forward
 * keeps.
 *
 * Labels need no numbers: after every inverse step the deck is sorted by
 * label, so cards with equal labels sit together, and dense group numbers
 * (0, 1, 2, ... from the top, one per distinct label) carry all there is
 * to know.  A step moves the group numbers with the cards, the 0-cards on
 * top; the new groups are read off by one scan, a new group starting
 * wherever the old group changes or the 0-cards end.  The labels are
 * distinct when there are n groups.
 */
#include "algorithms/riffle_core.h"

#include <stdlib.h>
#include <string.h>

#include "shufflebias/status.h"
#include "algorithms/deck.h"

int sb_riffle_init(void **state, size_t n, size_t kept)
{
    sb_riffle_state *st = calloc(1, sizeof *st);
    if (!st)
        return SB_ENOMEM;
    st->n = n;
    st->words = (n + 63) / 64;
    st->kept = kept;
    /* At least one of everything, so that n = 0 or kept = 0 still gives
       pointers that can be freed. */
    st->bits = calloc(kept * st->words + 1, sizeof *st->bits);
    st->deck = malloc((n + 1) * sizeof *st->deck);
    int ok = st->bits && st->deck;
    if (kept > 1) {
        st->group = malloc((n + 1) * sizeof *st->group);
        st->scratch = malloc((n + 1) * sizeof *st->scratch);
        ok = ok && st->group && st->scratch;
    }
    if (!ok) {
        sb_riffle_free(st);
        return SB_ENOMEM;
    }
    *state = st;
    return SB_OK;
}

void sb_riffle_free(void *state)
{
    sb_riffle_state *st = state;
    if (!st)
        return;
    free(st->bits);
    free(st->deck);
    free(st->group);
    free(st->scratch);
    free(st);
}

void sb_riffle_tally(const void *state, sb_tally *out)
{
    const sb_riffle_state *st = state;
    *out = st->tally;
}

void sb_riffle_draw(sb_src *src, size_t n, uint64_t *bits)
{
    for (size_t w = 0; w * 64 < n; w++) {
        const size_t k = n - w * 64 < 64 ? n - w * 64 : 64;
        bits[w] = sb_bits(src, (unsigned)k);
    }
}

/* The number of 0s in a string of n bits: the size of the top packet.
   Bits above n in the last word are 0, as sb_bits leaves them. */
static size_t zeros(const uint64_t *bits, size_t n)
{
    size_t ones = 0;
    for (size_t w = 0; w * 64 < n; w++)
        ones += (size_t)__builtin_popcountll(bits[w]);
    return n - ones;
}

void sb_riffle_forward(const uint64_t *bits, size_t n, const sb_card *in,
                       sb_card *out)
{
    size_t top = 0, bottom = zeros(bits, n);
    for (size_t i = 0; i < n; i++)
        out[i] = sb_riffle_bit(bits, i) ? in[bottom++] : in[top++];
}

void sb_riffle_inverse(const uint64_t *bits, size_t n, const sb_card *in,
                       sb_card *out)
{
    size_t top = 0, bottom = zeros(bits, n);
    for (size_t i = 0; i < n; i++) {
        if (sb_riffle_bit(bits, i))
            out[bottom++] = in[i];
        else
            out[top++] = in[i];
    }
}

void sb_riffle_repeat(sb_riffle_state *st, const sb_shuffle_args *a,
                      long passes, sb_src *src, sb_card *out,
                      sb_riffle_pass_fn pass)
{
    sb_card *cur = out, *next = st->deck;
    sb_deck_identity(cur, a->n);
    for (long p = 0; p < passes; p++) {
        pass(st, a, src, cur, next);
        sb_card *t = cur;
        cur = next;
        next = t;
    }
    if (cur != out)
        memcpy(out, cur, a->n * sizeof *out);
}

int sb_riffle_step(sb_riffle_state *st, const sb_shuffle_args *a,
                   sb_src *src, sb_card *deck, sb_riffle_pass_fn pass)
{
    pass(st, a, src, deck, st->deck);
    memcpy(deck, st->deck, a->n * sizeof *deck);
    return SB_OK;
}

uint64_t sb_riffle_until_paths(const sb_shuffle_args *a)
{
    if (a->n >= 64)
        return UINT64_MAX;
    return sb_paths_pow((uint64_t)1 << a->n, SB_RIFFLE_UNTIL_DEPTH);
}

size_t sb_riffle_passes_steps(const sb_shuffle_args *a)
{
    return (size_t)a->param[0];
}

void sb_riffle_pass_forward(sb_riffle_state *st, const sb_shuffle_args *a,
                            sb_src *src, const sb_card *in, sb_card *out)
{
    sb_riffle_draw(src, a->n, st->bits);
    sb_riffle_forward(st->bits, a->n, in, out);
}

void sb_riffle_pass_inverse(sb_riffle_state *st, const sb_shuffle_args *a,
                            sb_src *src, const sb_card *in, sb_card *out)
{
    sb_riffle_draw(src, a->n, st->bits);
    sb_riffle_inverse(st->bits, a->n, in, out);
}

/* One inverse step of the label walk: move the groups of 'group' as the
   inverse riffle by 'bits' moves the cards, then renumber them densely
   (the label of a card becomes its bit followed by its old label).
   Returns the number of groups. */
static size_t regroup(const uint64_t *bits, size_t n, uint32_t *group,
                      uint32_t *scratch)
{
    const size_t z = zeros(bits, n);
    size_t top = 0, bottom = z;
    for (size_t i = 0; i < n; i++) {
        if (sb_riffle_bit(bits, i))
            scratch[bottom++] = group[i];
        else
            scratch[top++] = group[i];
    }
    /* Within the 0-cards and within the 1-cards the old groups are still
       in increasing order (the step is stable), so equal new labels are
       neighbours. */
    size_t groups = 0;
    for (size_t k = 0; k < n; k++) {
        if (k == 0 || k == z || scratch[k] != scratch[k - 1])
            groups++;
        group[k] = (uint32_t)(groups - 1);
    }
    return groups;
}

/* Whether the inverse walk b_t, b_(t-1), ..., b_1 from the unshuffled
   deck leaves n distinct labels: the check for forward riffles.  Once
   distinct, labels stay distinct, so the walk may end early. */
static int distinct_reversed(sb_riffle_state *st, size_t n, size_t t)
{
    size_t groups = n ? 1 : 0;
    memset(st->group, 0, n * sizeof *st->group);
    for (size_t s = t; s-- > 0 && groups < n;)
        groups = regroup(st->bits + s * st->words, n, st->group, st->scratch);
    return groups == n;
}

void sb_riffle_until(sb_riffle_state *st, const sb_shuffle_args *a,
                     sb_src *src, sb_card *out, sb_riffle_order order)
{
    const size_t n = a->n;
    sb_card *cur = out, *next = st->deck;
    sb_deck_identity(cur, n);
    /* The forward-order walk goes on from where it was: one step per
       riffle. */
    size_t groups = n ? 1 : 0;
    if (order == SB_RIFFLE_FORWARD)
        memset(st->group, 0, n * sizeof *st->group);
    size_t t = 0;
    for (;;) {
        const int distinct = order == SB_RIFFLE_REVERSED
                           ? distinct_reversed(st, n, t) : groups == n;
        /* At the cap the deck is dealt as it is: only a broken source
           (one that, say, gives nothing but 0 bits) gets there. */
        if (distinct || t == SB_RIFFLE_UNTIL_CAP || t == st->kept)
            break;
        uint64_t *b = st->bits + t * st->words;
        sb_riffle_draw(src, n, b);
        sb_riffle_forward(b, n, cur, next);
        sb_card *tmp = cur;
        cur = next;
        next = tmp;
        t++;
        if (order == SB_RIFFLE_FORWARD)
            groups = regroup(b, n, st->group, st->scratch);
    }
    if (cur != out)
        memcpy(out, cur, n * sizeof *out);
    sb_tally_add(&st->tally, t);
}

int sb_riffle_init_passes(void **state, const sb_shuffle_args *a)
{
    return sb_riffle_init(state, a->n, 1);
}

int sb_riffle_init_until(void **state, const sb_shuffle_args *a)
{
    return sb_riffle_init(state, a->n, SB_RIFFLE_UNTIL_CAP);
}

uint64_t sb_riffle_passes_paths(const sb_shuffle_args *a)
{
    return sb_paths_pow(2, (uint64_t)a->n * (uint64_t)a->param[0]);
}
