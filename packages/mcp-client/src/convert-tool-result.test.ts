import { describe, expect, it } from "vitest";
import { convertCallToolResult } from "./convert-tool-result.js";

describe("convertCallToolResult", () => {
  it("keeps every content block type, isError and structuredContent", () => {
    const raw = {
      content: [
        { type: "text", text: "hello", annotations: { priority: 1 } },
        { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
        { type: "audio", data: "UklGRg==", mimeType: "audio/wav" },
        {
          type: "resource",
          resource: { uri: "file:///b.bin", mimeType: "application/octet-stream", blob: "AAE=" },
        },
        {
          type: "resource_link",
          uri: "file:///c.md",
          name: "c",
          mimeType: "text/markdown",
          description: "C",
        },
      ],
      isError: true,
      structuredContent: { ok: false },
      _meta: { ignored: true },
    };
    expect(convertCallToolResult(raw, "s")).toEqual({
      content: [
        { type: "text", text: "hello" },
        { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
        { type: "audio", data: "UklGRg==", mimeType: "audio/wav" },
        {
          type: "resource",
          resource: { uri: "file:///b.bin", mimeType: "application/octet-stream", blob: "AAE=" },
        },
        {
          type: "resource_link",
          uri: "file:///c.md",
          name: "c",
          mimeType: "text/markdown",
          description: "C",
        },
      ],
      isError: true,
      structuredContent: { ok: false },
    });
  });

  it("never throws on nonsense, and says what was wrong", () => {
    expect(convertCallToolResult(null, "s")).toEqual({
      content: [{ type: "text", text: '[MCP server "s" sent a tool result that is not an object]' }],
      isError: true,
    });
    expect(convertCallToolResult({ content: "text" }, "s").content).toEqual([
      { type: "text", text: '[MCP server "s" sent tool result content that is not an array]' },
    ]);
    expect(
      convertCallToolResult(
        { content: [{ type: "resource", resource: { uri: "x:" } }, { text: "no type" }] },
        "s",
      ).content,
    ).toEqual([
      {
        type: "text",
        text: '[MCP server "s" sent content block 0 of type "resource" (x:) with neither text nor blob]',
      },
      { type: "text", text: '[MCP server "s" sent content block 1 without a type]' },
    ]);
    expect(convertCallToolResult({ content: [{ type: "resource_link", name: "n" }] }, "s").content).toEqual([
      { type: "text", text: '[MCP server "s" sent content block 0 of type "resource_link" without a uri]' },
    ]);
  });

  it("reads the 2024-10-07 toolResult form and a missing isError as false", () => {
    expect(convertCallToolResult({ toolResult: { answer: 42 } }, "s")).toEqual({
      content: [{ type: "text", text: '{"answer":42}' }],
      isError: false,
    });
  });
});
