/**
 * A small deterministic random source (mulberry32): the DEMO company must be the same data on every
 * run and every machine, and Math.random cannot be seeded.
 */
export type SeededRandom = {
  /** Uniform in [0, 1). */
  next: () => number;
  /** Uniform integer in [min, max]. */
  int: (min: number, max: number) => number;
  /** True with probability p. */
  chance: (p: number) => boolean;
  /** Exponentially distributed with the given mean. */
  exponential: (mean: number) => number;
  /** Roughly normal (mean 0, sd 1), from the sum of uniforms; plenty for demo data. */
  normal: () => number;
};

/** Mixes several integers into one 32-bit seed, so (company, customer) pairs get independent streams. */
export const mixSeed = (...parts: number[]): number => {
  let h = 0x811c9dc5;
  for (const part of parts) {
    h = Math.imul(h ^ (part & 0xffff), 0x01000193);
    h = Math.imul(h ^ (part >>> 16), 0x01000193);
  }
  return h >>> 0;
};

export const seededRandom = (seed: number): SeededRandom => {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    exponential: (mean) => -Math.log(1 - next()) * mean,
    normal: () => next() + next() + next() + next() + next() + next() - 3,
  };
};
