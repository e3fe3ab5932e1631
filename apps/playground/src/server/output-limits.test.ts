import { describe, expect, it } from "vitest";
import { capDepth, capLogData, capToolResult, MAXIMUM_LOG_BYTES } from "./output-limits.js";
import { REDACTED, SecretRedactor } from "./secret-redactor.js";

const nested = (levels: number): unknown => {
  let value: unknown = "bottom";
  for (let level = 0; level < levels; level++) value = { a: value };
  return value;
};

describe("capDepth", () => {
  it("keeps a value within the depth untouched, and cuts below it with a marker", () => {
    expect(capDepth({ a: [1, { b: 2 }] }, 3)).toEqual({ value: { a: [1, { b: 2 }] }, cut: false });
    expect(capDepth(nested(4), 2)).toEqual({
      value: { a: { a: "[cut: nested deeper than 2 levels]" } },
      cut: true,
    });
  });

  it("handles 100,000 levels without exhausting the stack", () => {
    const { value, cut } = capDepth(nested(100_000));
    expect(cut).toBe(true);
    expect(JSON.stringify(value).length).toBeLessThan(1_000);
  });
});

describe("capToolResult", () => {
  it("leaves a small result as it is, without a note", () => {
    const result = {
      content: [{ type: "text" as const, text: "hi" }],
      isError: false,
      structuredContent: { n: 1 },
    };
    expect(capToolResult(result)).toEqual({ result });
  });

  it("shortens text and leaves out images and structured content past the byte budget, saying so", () => {
    const capped = capToolResult(
      {
        content: [
          { type: "text", text: "x".repeat(60) },
          { type: "image", data: "A".repeat(80), mimeType: "image/png" },
          { type: "text", text: "y".repeat(60) },
        ],
        isError: true,
        structuredContent: { big: "z".repeat(50) },
      },
      { maxBytes: 100 },
    );
    expect(capped.result).toEqual({
      content: [
        { type: "text", text: "x".repeat(60) },
        { type: "text", text: "y".repeat(40) },
      ],
      isError: true,
    });
    expect(capped.truncated).toBe(
      "This result was too large or too deep to show whole (limits 0.0 MB, 64 levels): a image part of 0.0 MB was left out; a text of 0.0 MB was cut to its first 0.0 MB; structured content of 0.0 MB was left out.",
    );
  });
});

describe("capLogData", () => {
  it("keeps small data and shortens large data to the limit with a count", () => {
    expect(capLogData({ level: 1 })).toEqual({ level: 1 });
    const long = capLogData("l".repeat(MAXIMUM_LOG_BYTES + 10)) as string;
    expect(long).toBe(`${"l".repeat(MAXIMUM_LOG_BYTES)}… [10 characters cut]`);
  });
});

describe("SecretRedactor", () => {
  it("masks a secret raw, JSON-escaped and URL-encoded, and forgets a removed owner's", () => {
    const redactor = new SecretRedactor();
    redactor.set("server-a", ['pa"ss word/1', "on"]);
    expect(redactor.redact('spawn pa"ss word/1 ENOENT')).toBe(`spawn ${REDACTED} ENOENT`);
    expect(redactor.redact(JSON.stringify({ error: 'token pa"ss word/1' }))).toBe(
      JSON.stringify({ error: `token ${REDACTED}` }),
    );
    expect(redactor.redact(`http://h/${encodeURIComponent('pa"ss word/1')}/mcp`)).toBe(
      `http://h/${REDACTED}/mcp`,
    );
    // Too short to mask without garbling every message.
    expect(redactor.redact("turned on")).toBe("turned on");
    expect(redactor.redactValue({ list: ['pa"ss word/1'] })).toEqual({ list: [REDACTED] });
    redactor.delete("server-a");
    expect(redactor.redact('pa"ss word/1')).toBe('pa"ss word/1');
  });
});
