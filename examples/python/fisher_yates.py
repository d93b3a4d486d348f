#!/usr/bin/env python3
"""A fair shuffle written outside shufflebias: Fisher-Yates in Python.

shufflebias runs this program with --exec and reads one deck per line from
its standard output.  It says what it wants through the environment:

    SHUFFLEBIAS_N        cards in the deck
    SHUFFLEBIAS_SAMPLES  decks wanted (writing more is fine: the reader
                         closes the pipe once it has enough)
    SHUFFLEBIAS_SEED     a seed, so that a run can be repeated exactly

    shufflebias test --exec 'python3 examples/python/fisher_yates.py' \
        --n 52 --samples 20000 --seed 1

Each line is the deck from top to bottom: the card numbers 0..n-1 of a new
deck in the order the shuffle left them.  Python's random.Random (the
Mersenne Twister) draws randrange(i + 1) without bias, so every one of the
n! orders is equally likely: the battery should find nothing.
"""
import os
import random
import sys


def shuffle(deck, rng):
    # Walk from the bottom card up; swap each card with one at or above it.
    for i in range(len(deck) - 1, 0, -1):
        j = rng.randrange(i + 1)
        deck[i], deck[j] = deck[j], deck[i]


def main():
    n = int(os.environ.get("SHUFFLEBIAS_N", "52"))
    samples = int(os.environ.get("SHUFFLEBIAS_SAMPLES", "1000"))
    rng = random.Random(int(os.environ.get("SHUFFLEBIAS_SEED", "1")))
    out = sys.stdout
    batch = []
    for _ in range(samples):
        deck = list(range(n))
        shuffle(deck, rng)
        batch.append(" ".join(map(str, deck)))
        if len(batch) == 1000:
            out.write("\n".join(batch) + "\n")
            batch.clear()
    if batch:
        out.write("\n".join(batch) + "\n")
    out.flush()


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:
        # The reader had enough and closed the pipe: not an error.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)
