import type { ToolResult } from "@junction/types";
import { describe, expect, it } from "vitest";
import { structuredContentForModel } from "./structured-content-for-model.js";

const structured = { temperature: 36, conditions: "Light rain" };

describe("structuredContentForModel", () => {
  it("gives nothing when a text part carries the result", () => {
    const output: ToolResult = {
      content: [{ type: "text", text: JSON.stringify(structured) }],
      isError: false,
      structuredContent: structured,
    };
    expect(structuredContentForModel(output)).toBeUndefined();
  });

  it("gives the structured content when the result has no content", () => {
    expect(structuredContentForModel({ content: [], isError: false, structuredContent: structured })).toBe(
      structured,
    );
  });

  it("gives the structured content when the result has only media, resources and links", () => {
    const output: ToolResult = {
      content: [
        { type: "image", data: "cG5n", mimeType: "image/png" },
        { type: "resource", resource: { uri: "file:///r.txt", text: "plain" } },
        { type: "resource_link", uri: "file:///big.csv", name: "big.csv" },
      ],
      isError: true,
      structuredContent: structured,
    };
    expect(structuredContentForModel(output)).toBe(structured);
  });

  it("gives nothing when there is no structured content", () => {
    expect(structuredContentForModel({ content: [], isError: false })).toBeUndefined();
  });
});
