/* deck.h - small helpers every algorithm file shares. */
#ifndef SB_ALGORITHMS_DECK_H
#define SB_ALGORITHMS_DECK_H

#include <stddef.h>
#include "shufflebias/rng.h"

/* out[j] = j: the unshuffled deck, card 0 on top. */
static inline void sb_deck_identity(sb_card *out, size_t n)
{
    for (size_t j = 0; j < n; j++)
        out[j] = (sb_card)j;
}

static inline void sb_deck_swap(sb_card *d, size_t i, size_t j)
{
    sb_card t = d[i];
    d[i] = d[j];
    d[j] = t;
}

#endif /* SB_ALGORITHMS_DECK_H */
