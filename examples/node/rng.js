// A small seeded generator for the Node examples, because Math.random
// cannot be seeded and a test must be repeatable.
//
// sfc32 (Chris Doty-Humphrey's "small fast chaotic" generator from
// PractRand), 128 bits of state, seeded from SHUFFLEBIAS_SEED through
// SplitMix32-style mixing.  below(n) is exactly uniform: 32-bit words at
// or above the largest multiple of n are thrown away and drawn again,
// rather than taking Math.floor(u * n), whose few extra words per result
// would be a (tiny) bias of its own.
"use strict";

function mix32(x) {
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

function makeRng(seed) {
  // The seed may be up to 2^53: fold its high and low parts in.
  const lo = seed % 4294967296, hi = Math.floor(seed / 4294967296);
  let a = mix32(lo ^ 0x9e3779b9), b = mix32(hi ^ 0x7f4a7c15);
  let c = mix32(a ^ 0x6a09e667), d = 1;
  function next() {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    return t;
  }
  for (let i = 0; i < 15; i++) next();    // let the state spread
  return {
    next,
    // Uniform in [0, n) for 1 <= n <= 2^32, without bias.
    below(n) {
      const limit = 4294967296 - (4294967296 % n);
      let x;
      do x = next(); while (x >= limit);
      return x % n;
    },
    // Uniform in [0, 1), 32 bits.
    unit() {
      return next() / 4294967296;
    },
  };
}

// What shufflebias asked for, from the environment.
function wanted() {
  const env = process.env;
  return {
    n: parseInt(env.SHUFFLEBIAS_N || "52", 10),
    samples: parseInt(env.SHUFFLEBIAS_SAMPLES || "1000", 10),
    seed: Number(env.SHUFFLEBIAS_SEED || "1"),
  };
}

// Write decks, one per line, in batches; a closed pipe (the reader has
// enough) ends the program quietly.
function writeDecks(count, makeDeck) {
  process.stdout.on("error", (e) => {
    if (e.code === "EPIPE") process.exit(0);
    throw e;
  });
  let lines = [];
  for (let s = 0; s < count; s++) {
    lines.push(makeDeck().join(" "));
    if (lines.length === 1000) {
      process.stdout.write(lines.join("\n") + "\n");
      lines = [];
    }
  }
  if (lines.length) process.stdout.write(lines.join("\n") + "\n");
}

module.exports = { makeRng, wanted, writeDecks };
