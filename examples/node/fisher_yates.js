// A fair shuffle in JavaScript: Fisher-Yates on a seeded generator.
//
//   shufflebias test --exec 'node examples/node/fisher_yates.js' \
//       --n 52 --samples 200000 --seed 1        # passes
//
// shufflebias tells the program what it wants in its environment
// (SHUFFLEBIAS_N, SHUFFLEBIAS_SAMPLES, SHUFFLEBIAS_SEED) and reads one
// deck per line: the cards 0..n-1, top to bottom.
"use strict";
const { makeRng, wanted, writeDecks } = require("./rng.js");

const { n, samples, seed } = wanted();
const rng = makeRng(seed);

writeDecks(samples, () => {
  const deck = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = rng.below(i + 1);
    const t = deck[i];
    deck[i] = deck[j];
    deck[j] = t;
  }
  return deck;
});
