import { describe, expect, it } from "vitest";
import { normalizeToolOutput, truncateToolOutput } from "./tool-output.js";

describe("normalizeToolOutput", () => {
  it("keeps strings as strings, wraps parts, keeps ToolResult fields", () => {
    expect(normalizeToolOutput("plain", "t")).toEqual({ output: "plain", warnings: [] });
    expect(normalizeToolOutput([{ type: "text", text: "a" }], "t").output).toEqual({
      content: [{ type: "text", text: "a" }],
      isError: false,
    });
    expect(
      normalizeToolOutput({ content: [], isError: true, structuredContent: { a: 1 }, extra: "x" }, "t")
        .output,
    ).toEqual({ content: [], isError: true, structuredContent: { a: 1 } });
  });

  it("replaces invalid parts with their JSON and warns, never dropping them", () => {
    const { output, warnings } = normalizeToolOutput(
      [
        { type: "video", url: "x" },
        { type: "image", data: 1 },
      ],
      "cam",
    );
    expect(output).toEqual({
      content: [
        { type: "text", text: '{"type":"video","url":"x"}' },
        { type: "text", text: '{"type":"image","data":1}' },
      ],
      isError: false,
    });
    expect(warnings.map((w) => w.message)).toEqual([
      'Tool "cam" returned an invalid content part at index 0 (unknown part type "video"); it was sent as JSON text.',
      'Tool "cam" returned an invalid content part at index 1 (image part without string `data` and `mimeType`); it was sent as JSON text.',
    ]);
  });
});

describe("truncateToolOutput", () => {
  it("leaves output within the limit alone", () => {
    expect(truncateToolOutput("abc", 3, "t")).toEqual({ output: "abc" });
  });

  it("cuts embedded text resources too", () => {
    const { output, warning } = truncateToolOutput(
      { content: [{ type: "resource", resource: { uri: "file:///a", text: "0123456789" } }], isError: false },
      4,
      "t",
    );
    expect(output).toEqual({
      content: [
        { type: "resource", resource: { uri: "file:///a", text: "0123" } },
        {
          type: "text",
          text: "[Output truncated by Junction: 10 characters of text, only the first 4 are shown.]",
        },
      ],
      isError: false,
    });
    expect(warning?.code).toBe("tool-output-truncated");
  });
});
