#!/usr/bin/env python3
"""A fair bridge deal written outside shufflebias, in card names.

Shuffles a 52-card deck with Fisher-Yates and deals it in four hands of
thirteen, one hand after another, writing each deal as the four hands'
cards separated by '|', e.g.

    AS KH 10D 2C ... | 3S ... | ... | ...

    shufflebias test --exec 'python3 examples/python/bridge_deal.py' \
        --kind deal --hands 4 --format cards --samples 5000 --seed 1

The card names are those of --format cards: rank 2-9, 10 (or T), J, Q, K, A
and suit C, D, H, S.  Within a hand the order does not matter: a deal is
which hand each card went to.
"""
import os
import random
import sys

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
SUITS = ["C", "D", "H", "S"]
NAMES = [r + s for s in SUITS for r in RANKS]     # card c = suit*13 + rank


def main():
    samples = int(os.environ.get("SHUFFLEBIAS_SAMPLES", "1000"))
    hands = int(os.environ.get("SHUFFLEBIAS_HANDS", "4"))
    rng = random.Random(int(os.environ.get("SHUFFLEBIAS_SEED", "1")))
    size = 52 // hands
    out = []
    for _ in range(samples):
        deck = list(range(52))
        rng.shuffle(deck)            # Fisher-Yates inside
        out.append(" | ".join(
            " ".join(NAMES[c] for c in sorted(deck[h * size:(h + 1) * size]))
            for h in range(hands)))
        if len(out) == 500:
            sys.stdout.write("\n".join(out) + "\n")
            out.clear()
    if out:
        sys.stdout.write("\n".join(out) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)
