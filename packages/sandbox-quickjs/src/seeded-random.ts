// The guest's Math.random, computed on the host: one host call per number. It was guest code in the
// prelude before, and compiling it was part of every run's start; the numbers are the same.

/**
 * A `Math.random` for `seed`: sfc32 seeded with the seed's low and high 32 bits and its fraction
 * (times 2^32), 53 bits per number, so the same seed gives the same numbers on every runtime.
 *
 * @example
 * const random = createSeededRandom(42);
 * random(); // 0.7010580966032915, on every run and every runtime
 */
export function createSeededRandom(seed: number): () => number {
  const whole = Math.floor(seed);
  let a = whole >>> 0;
  let b = Math.floor(whole / 4294967296) >>> 0;
  let c = Math.floor((seed - whole) * 4294967296) >>> 0;
  let d = 1;
  const next32 = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  for (let warm = 0; warm < 15; warm++) next32();
  return () => {
    const high = next32() >>> 5;
    const low = next32() >>> 6;
    return (high * 67108864 + low) / 9007199254740992;
  };
}
