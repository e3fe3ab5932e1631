import { describe, expect, it } from "vitest";
import { createSeededRandom } from "./seeded-random.js";

const draws = (seed: number, count: number) => {
  const random = createSeededRandom(seed);
  return Array.from({ length: count }, () => random());
};

describe("createSeededRandom", () => {
  // The numbers the guest's Math.random gave when it was computed in the prelude: moving it to the
  // host must not change a journaled run's replay.
  it("gives the numbers the guest's own sfc32 gave, for whole, fractional, large and negative seeds", () => {
    expect(draws(42, 4)).toEqual([
      0.7010580966032915, 0.3602520223017406, 0.315607748023663, 0.5218345267913034,
    ]);
    expect(draws(0, 4)).toEqual([
      0.9817317219131122, 0.5801159137713449, 0.48707062736056117, 0.2368884102945351,
    ]);
    expect(draws(42.5, 4)).toEqual([
      0.7050023542551754, 0.3358806583390703, 0.42431823444257566, 0.8392296486781727,
    ]);
    expect(draws(2 ** 40 + 0.25, 4)).toEqual([
      0.20066151078537553, 0.02520422703198788, 0.336188321533644, 0.5406629985651101,
    ]);
    expect(draws(-7, 4)).toEqual([
      0.8890668690969995, 0.6796742025430311, 0.16778308933187647, 0.6624805145712879,
    ]);
  });

  it("keeps every number in [0, 1) and each generator to its own sequence", () => {
    const values = draws(7, 10_000);
    for (const value of values) {
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThan(1);
    }
    const first = createSeededRandom(7);
    const second = createSeededRandom(7);
    first();
    expect(second()).toBe(values[0]);
  });
});
