import { describe, expect, it } from "vitest";
import { parsePartialJSON } from "./partial-json.js";

/** Whether `partial` could still become `full`: its keys are `full`'s, its strings prefixes, its arrays shorter. */
function prefixConsistent(partial: unknown, full: unknown): boolean {
  if (typeof partial === "string") return typeof full === "string" && full.startsWith(partial);
  if (Array.isArray(partial)) {
    return (
      Array.isArray(full) &&
      partial.length <= full.length &&
      partial.every((item, index) => prefixConsistent(item, full[index]))
    );
  }
  if (typeof partial === "object" && partial !== null) {
    if (typeof full !== "object" || full === null || Array.isArray(full)) return false;
    return Object.entries(partial).every(
      ([key, value]) =>
        Object.hasOwn(full, key) && prefixConsistent(value, (full as Record<string, unknown>)[key]),
    );
  }
  return Object.is(partial, full);
}

/** A small deterministic generator (mulberry32), so a failing case can be run again. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("parsePartialJSON", () => {
  it("reads an object as far as it has arrived", () => {
    expect(parsePartialJSON('{"city": "Par')).toEqual({ city: "Par" });
    expect(parsePartialJSON('{"city": "Paris", "temp')).toEqual({ city: "Paris" });
    expect(parsePartialJSON('{"city": "Paris", "temperatureC": 2')).toEqual({ city: "Paris" });
    expect(parsePartialJSON('{"list": [1, 2, {"a": tr')).toEqual({ list: [1, 2, {}] });
    expect(parsePartialJSON('{"text": "a\\"b\\')).toEqual({ text: 'a"b' });
    expect(parsePartialJSON('{"text": "\\u00')).toEqual({ text: "" });
    expect(parsePartialJSON('```json\n{"a": 1}\n```')).toEqual({ a: 1 });
    expect(parsePartialJSON("{")).toEqual({});
    expect(parsePartialJSON("Sure! Here")).toBeUndefined();
    expect(parsePartialJSON("")).toBeUndefined();
  });

  it("reads every cut of a tool call's arguments as a value the complete arguments extend", () => {
    const full = {
      note: 'a "quoted" note, with \\ and \u00e9 and \ud83d\ude00',
      count: -12.5e3,
      tags: ["one", "two", { nested: [true, false, null] }],
      empty: {},
      last: 0,
    };
    const text = JSON.stringify(full, null, 1);
    const reads: unknown[] = [];
    for (let end = 1; end <= text.length; end++) {
      const partial = parsePartialJSON(text.slice(0, end));
      reads.push(partial);
      expect(partial, `cut at ${end}: ${text.slice(0, end)}`).toBeTypeOf("object");
      expect(prefixConsistent(partial, full), `cut at ${end}: ${JSON.stringify(partial)}`).toBe(true);
    }
    expect(reads.at(-1)).toEqual(full);
    // A number or literal cut short is left out, not read as a different value.
    expect(parsePartialJSON('{"count": -12.5e')).toEqual({});
    expect(parsePartialJSON('{"tags": ["one", "tw')).toEqual({ tags: ["one", "tw"] });
    expect(parsePartialJSON('{"tags": ["one"], "on')).toEqual({ tags: ["one"] });
  });

  it("never throws on garbage, and gives undefined when nothing reads", () => {
    for (const garbage of [
      "}",
      "]]]",
      '{"a" 1}',
      "{,,,}",
      '{"a":}',
      "[1 2 3",
      "\u0000\u0001",
      "nul",
      "  ",
      "```",
      '{"a": "\\x"}',
    ]) {
      const read = parsePartialJSON(garbage);
      expect(read === undefined || typeof read === "object", garbage).toBe(true);
    }
    expect(parsePartialJSON("}")).toBeUndefined();
    expect(parsePartialJSON("nul")).toBeUndefined();
    // Nesting far deeper than any argument, open or closed.
    expect(() => parsePartialJSON("[".repeat(200_000))).not.toThrow();
    expect(() => parsePartialJSON('{"a":'.repeat(100_000))).not.toThrow();
    const next = random(40);
    const alphabet = '{}[]":,\\ntrue false null 0123456789.-eE abc\u00e9\ud83d';
    for (let round = 0; round < 2000; round++) {
      const length = Math.floor(next() * 40);
      let text = next() < 0.5 ? "{" : "";
      for (let index = 0; index < length; index++) text += alphabet[Math.floor(next() * alphabet.length)];
      const read = parsePartialJSON(text);
      expect(read === undefined || typeof read === "object", text).toBe(true);
    }
  });
});
