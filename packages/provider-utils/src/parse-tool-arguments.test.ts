import { describe, expect, it } from "vitest";
import { isRecord, parseToolArguments } from "./parse-tool-arguments.js";

describe("parseToolArguments", () => {
  it("parses a JSON object", () => {
    expect(parseToolArguments('{"city":"Paris","days":[1,2]}')).toEqual({
      ok: true,
      value: { city: "Paris", days: [1, 2] },
    });
  });

  it("reads empty or whitespace text as no arguments", () => {
    expect(parseToolArguments("")).toEqual({ ok: true, value: {} });
    expect(parseToolArguments("  \n")).toEqual({ ok: true, value: {} });
  });

  it("describes invalid JSON and JSON that is not an object", () => {
    const broken = parseToolArguments('{"city":');
    expect(broken.ok).toBe(false);
    expect(broken.ok === false && broken.error).toMatch(/^not valid JSON \(.+\)$/);
    expect(parseToolArguments("[1,2]")).toEqual({ ok: false, error: "expected a JSON object, got an array" });
    expect(parseToolArguments('"text"')).toEqual({
      ok: false,
      error: "expected a JSON object, got a string",
    });
    expect(parseToolArguments("42")).toEqual({ ok: false, error: "expected a JSON object, got a number" });
    expect(parseToolArguments("null")).toEqual({ ok: false, error: "expected a JSON object, got null" });
  });
});

describe("isRecord", () => {
  it("is true only for non-null, non-array objects", () => {
    expect(isRecord({})).toBe(true);
    expect(isRecord({ a: 1 })).toBe(true);
    expect(isRecord(null)).toBe(false);
    expect(isRecord([])).toBe(false);
    expect(isRecord("x")).toBe(false);
    expect(isRecord(undefined)).toBe(false);
  });
});
