// A flawed shuffle in JavaScript, seen in the wild more than any other:
//
//   deck.sort(() => Math.random() - 0.5)
//
// A sort assumes its comparator is consistent (if a < b and b < c then
// a < c); a coin-flip comparator breaks that, and what comes out depends
// on which comparisons the sort happens to make.  V8's sort (TimSort,
// binary insertion for short runs) compares few pairs for cards far apart,
// so cards tend to stay near where they started - on 52 cards the bias is
// gross.  Here the coin comes from the seeded generator in rng.js instead
// of Math.random, so that a run can be repeated; the flaw is the same.
//
//   shufflebias test --exec 'node examples/node/sort_comparator.js' \
//       --n 52 --samples 20000 --seed 1        # fails: bias found
"use strict";
const { makeRng, wanted, writeDecks } = require("./rng.js");

const { n, samples, seed } = wanted();
const rng = makeRng(seed);

writeDecks(samples, () => {
  const deck = Array.from({ length: n }, (_, i) => i);
  return deck.sort(() => rng.unit() - 0.5);
});
