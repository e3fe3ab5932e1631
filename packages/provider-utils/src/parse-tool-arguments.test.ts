import { describe, expect, it } from "vitest";
import { isRecord, objectToolInput, parseToolArguments, toolCallInput } from "./parse-tool-arguments.js";

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

describe("toolCallInput", () => {
  it("is the parsed object when the text is one, and {} for no text", () => {
    expect(toolCallInput({ text: '{"q":"x"}', id: "c1", name: "search", provider: "Acme" })).toEqual({
      input: { q: "x" },
    });
    expect(toolCallInput({ text: "", id: "c1", name: "search", provider: "Acme" })).toEqual({ input: {} });
  });

  it("passes other text on as it is, with a warning naming the call and what was wrong", () => {
    expect(toolCallInput({ text: "[1,2]", id: "c2", name: "get_weather", provider: "Bedrock" })).toEqual({
      input: "[1,2]",
      warning: {
        code: "tool-call-arguments-invalid",
        message:
          "Bedrock sent arguments for tool call c2 (get_weather) that are not a JSON object: expected a JSON object, got an array",
      },
    });
    const broken = toolCallInput({ text: '{"q":', id: "c3", name: "search", provider: "Acme" });
    expect(broken.input).toBe('{"q":');
    expect(broken.warning?.message).toMatch(
      /^Acme sent arguments for tool call c3 \(search\) that are not a JSON object: not valid JSON \(.+\)$/,
    );
  });
});

describe("objectToolInput", () => {
  it("keeps an object input as it is", () => {
    const input = { q: "x" };
    expect(objectToolInput({ id: "c1", name: "search", input })).toEqual({ input });
    expect(objectToolInput({ id: "c1", name: "search", input }).input).toBe(input);
  });

  it("sends anything else as {} with a warning naming the call", () => {
    for (const input of ["raw text", [1], null, 3]) {
      expect(objectToolInput({ id: "c2", name: "search", input })).toEqual({
        input: {},
        warning: {
          code: "tool-call-input-not-object",
          message:
            "Tool call c2 (search) has input that is not a JSON object; it was sent as an empty object.",
        },
      });
    }
  });
});
