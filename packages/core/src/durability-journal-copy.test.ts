import { JunctionError } from "@junction/types";
import { describe, expect, it } from "vitest";
import { InMemoryDurability, type JSONValue } from "./index.js";

// The in-memory journal holds each step's value as JSON gives it back (what a replay from storage
// would get), detached from the value the step returned: plain data is copied directly, anything
// JSON would change (or refuse) goes through JSON itself.

/** What the journal holds for a step that returned `value`, and what the step returned. */
async function journaled(value: unknown): Promise<{ held: unknown; returned: unknown }> {
  const durability = new InMemoryDurability({ runId: "copy" });
  const returned = await durability.step("tool:1:call", async () => value as JSONValue);
  return { held: durability.journal["tool:1:call"], returned };
}

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
}

describe("the in-memory journal's copy of a step's value", () => {
  it("is a deep copy of plain data, keys in the same order", async () => {
    const part = { type: "text", text: "café ☕ \ud800", annotations: { priority: 0.5 } };
    const value = { output: { content: [part], isError: false }, durationMs: 1.25, b: null, 2: [true, "x"] };
    const { held, returned } = await journaled(value);
    expect(held).toEqual(value);
    expect(JSON.stringify(held)).toBe(JSON.stringify(value));
    expect(held).not.toBe(value);
    expect((held as typeof value).output.content[0]).not.toBe(part);
    expect(returned).toBe(held);
    // Changing what the step returned leaves the journal as it was.
    part.text = "changed";
    expect((held as typeof value).output.content[0]!.text).toBe("café ☕ \ud800");
  });

  it.each([
    ["undefined fields and items", { a: undefined, list: [undefined, 1] }],
    ["-0, NaN and Infinity", { zero: -0, nan: Number.NaN, list: [Number.POSITIVE_INFINITY] }],
    ["a date (toJSON)", { at: new Date(0) }],
    ["an object with its own toJSON", { wrapped: { toJSON: () => ({ unwrapped: true }) } }],
    ["a class instance", { point: new Point(1, 2) }],
    ["a sparse array", { list: Object.assign(new Array(3), { 0: 1, 2: 3 }) }],
    ["a __proto__ key", JSON.parse('{"safe":1,"__proto__":{"polluted":true}}')],
    ["a null-prototype object", { inner: Object.assign(Object.create(null), { b: 1, a: 2 }) }],
    ["undefined itself", undefined],
  ])("with %s is what the JSON round trip gives", async (_label, value) => {
    const { held } = await journaled(value);
    expect(held).toStrictEqual(JSON.parse(JSON.stringify(value ?? null)));
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it("of a value deeper than the direct copy goes is the round trip's", async () => {
    let deep: JSONValue = "leaf";
    for (let level = 0; level < 200; level++) deep = { level, next: deep };
    const { held } = await journaled(deep);
    expect(held).toEqual(deep);
  });

  it("refuses a value that refers to itself, naming the step", async () => {
    const looped: Record<string, unknown> = { a: 1 };
    looped.self = looped;
    const error = await journaled(looped).catch((caught: unknown) => caught);
    expect(JunctionError.isInstance(error) && error.code).toBe("invalid-argument");
    expect((error as Error).message).toBe('The result of step "tool:1:call" is not JSON.');
  });
});
