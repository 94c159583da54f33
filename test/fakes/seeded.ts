/** A small deterministic random source for the fakes' fixtures (mulberry32). */
export const seeded = (seed: number) => {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)) };
};

/** An integer hash of several integers, for fixtures computed by index (no state). */
export const mix = (...values: number[]) => {
  let h = 2166136261;
  for (const v of values) {
    h = Math.imul(h ^ (v & 0xffff), 16777619);
    h = Math.imul(h ^ (v >>> 16), 16777619);
  }
  return (h >>> 0) / 4294967296;
};

/** Cents as the decimal number the platforms write in JSON (108.25). */
export const decimal = (cents: number) => Number((cents / 100).toFixed(2));
