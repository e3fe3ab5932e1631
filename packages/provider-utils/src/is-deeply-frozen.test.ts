import { describe, expect, it } from "vitest";
import { isDeeplyFrozen } from "./is-deeply-frozen.js";

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

describe("isDeeplyFrozen", () => {
  it("holds for primitives and for plain data frozen all the way down", () => {
    for (const value of ["text", 1, true, null, undefined]) expect(isDeeplyFrozen(value)).toBe(true);
    const message = deepFreeze({
      role: "assistant",
      content: [{ type: "tool-call", id: "call_1", name: "lookup", input: { list: [1, { deep: "x" }] } }],
    });
    expect(isDeeplyFrozen(message)).toBe(true);
    expect(isDeeplyFrozen(deepFreeze(Object.assign(Object.create(null), { a: [] })))).toBe(true);
  });

  it("fails for anything that may still change, however deep", () => {
    expect(isDeeplyFrozen({ role: "user", content: "hi" })).toBe(false);
    // Frozen on top, but a part deep inside is not.
    const message = Object.freeze({
      role: "tool",
      content: Object.freeze([Object.freeze({ type: "tool-result", output: { content: [] } })]),
    });
    expect(isDeeplyFrozen(message)).toBe(false);
    // A frozen Date still changes through setTime; a function is no data.
    expect(isDeeplyFrozen(Object.freeze({ at: Object.freeze(new Date(0)) }))).toBe(false);
    expect(isDeeplyFrozen(Object.freeze({ run: Object.freeze(() => 1) }))).toBe(false);
  });

  it("counts a value nested deeper than 64 levels as not frozen", () => {
    const nest = (levels: number) => {
      let value: unknown = "leaf";
      for (let level = 0; level < levels; level++) value = { value };
      return deepFreeze(value);
    };
    expect(isDeeplyFrozen(nest(64))).toBe(true);
    expect(isDeeplyFrozen(nest(65))).toBe(false);
  });
});
