#!/usr/bin/env python3
"""A flawed shuffle written outside shufflebias: the naive swap, in Python.

Each card is swapped with a card chosen from the WHOLE deck, not from the
cards at or above it.  That makes n^n equally likely paths for n! orders;
n^n is not a multiple of n! (for n >= 3), so some orders must come up more
often than others.  For 3 cards the 27 paths give the six orders 4, 5, 5,
5, 4 and 4 times (shufflebias exact naive-swap --n 3 shows which).  On 52
cards the bias is still plain: a card is too likely to end just below its
starting place.

    shufflebias test --exec 'python3 examples/python/naive_swap.py' \
        --n 52 --samples 20000 --seed 1          # fails: bias found

The protocol (environment in, one deck per line out) is the one described
in fisher_yates.py next to this file.
"""
import os
import random
import sys


def shuffle(deck, rng):
    n = len(deck)
    for i in range(n):
        j = rng.randrange(n)          # the flaw: should be randrange(i, n)
        deck[i], deck[j] = deck[j], deck[i]


def main():
    n = int(os.environ.get("SHUFFLEBIAS_N", "52"))
    samples = int(os.environ.get("SHUFFLEBIAS_SAMPLES", "1000"))
    rng = random.Random(int(os.environ.get("SHUFFLEBIAS_SEED", "1")))
    lines = []
    for _ in range(samples):
        deck = list(range(n))
        shuffle(deck, rng)
        lines.append(" ".join(map(str, deck)))
        if len(lines) == 1000:
            sys.stdout.write("\n".join(lines) + "\n")
            lines.clear()
    if lines:
        sys.stdout.write("\n".join(lines) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)
