import { describe, expect, it } from "vitest";
import { prepareAnthropicTools } from "./prepare-anthropic-tools.js";

const objectSchema = { type: "object", properties: { q: { type: "string" } }, required: ["q"] };

describe("prepareAnthropicTools", () => {
  it("keeps valid names, adapts others, and maps names from the history the same way", () => {
    const prepared = prepareAnthropicTools({
      tools: [
        { name: "search", description: "Search.", inputSchema: objectSchema },
        { name: "fs.read file", description: "", inputSchema: objectSchema },
      ],
      toolChoice: { type: "tool", name: "fs.read file" },
      messages: [
        { role: "assistant", content: [{ type: "tool-call", id: "t1", name: "old.tool", input: {} }] },
        {
          role: "tool",
          content: [{ type: "tool-result", toolCallId: "t1", toolName: "old.tool", output: "x" }],
        },
      ],
    });
    const adapted = prepared.toolNames.toVendor("fs.read file");
    expect(adapted).toMatch(/^fs_read_file_[a-z0-9]+$/);
    expect(prepared.toolNames.fromVendor(adapted)).toBe("fs.read file");
    expect(prepared.toolNames.fromVendor(prepared.toolNames.toVendor("old.tool"))).toBe("old.tool");
    expect(prepared.tools).toEqual([
      { name: "search", description: "Search.", input_schema: objectSchema },
      { name: adapted, input_schema: objectSchema },
    ]);
    expect(prepared.toolChoice).toEqual({ type: "tool", name: adapted });
    expect(prepared.warnings).toEqual([]);
  });

  it.each([
    ["auto", { type: "auto" }],
    ["none", { type: "none" }],
    ["required", { type: "any" }],
  ] as const)("maps tool choice %s", (toolChoice, expected) => {
    const prepared = prepareAnthropicTools({
      tools: [{ name: "search", description: "Search.", inputSchema: objectSchema }],
      toolChoice,
      messages: [],
    });
    expect(prepared.toolChoice).toEqual(expected);
  });

  it("makes schemas fit without touching the caller's objects", () => {
    const noType = Object.freeze({ properties: Object.freeze({ a: Object.freeze({ type: "number" }) }) });
    const union = Object.freeze({
      description: "Either form.",
      anyOf: [{ type: "object", properties: { a: { type: "string" } } }, { type: "object" }],
    });
    const array = Object.freeze({ type: "array", items: { type: "string" } });
    const prepared = prepareAnthropicTools({
      tools: [
        { name: "a", description: "A.", inputSchema: noType },
        { name: "b", description: "B.", inputSchema: union },
        { name: "c", description: "C.", inputSchema: array },
      ],
      messages: [],
    });
    expect(prepared.tools!.map((tool) => tool.input_schema)).toEqual([
      { type: "object", properties: { a: { type: "number" } } },
      { type: "object", description: "Either form." },
      { type: "object" },
    ]);
    expect(prepared.tools![0]!.input_schema).not.toBe(noType);
    expect(noType).toEqual({ properties: { a: { type: "number" } } });
    expect(prepared.warnings).toEqual([
      {
        code: "tool-schema-unsupported",
        message:
          'Tool "b": Anthropic needs an object schema at the top, not "anyOf"; an open object schema was sent instead, and the tool validates its input itself.',
      },
      {
        code: "tool-schema-unsupported",
        message:
          'Tool "c": Anthropic needs an object schema at the top, not type "array"; an open object schema was sent instead, and the tool validates its input itself.',
      },
    ]);
  });

  it("sends the first of two tools with the same name and warns", () => {
    const prepared = prepareAnthropicTools({
      tools: [
        { name: "search", description: "First.", inputSchema: objectSchema },
        { name: "search", description: "Second.", inputSchema: objectSchema },
      ],
      messages: [],
    });
    expect(prepared.tools).toEqual([{ name: "search", description: "First.", input_schema: objectSchema }]);
    expect(prepared.warnings.map((warning) => warning.code)).toEqual(["tool-duplicate-name"]);
  });

  it("sends no tools or tool choice without tools, warning when a tool was required", () => {
    const prepared = prepareAnthropicTools({ tools: [], toolChoice: "required", messages: [] });
    expect(prepared.tools).toBeUndefined();
    expect(prepared.toolChoice).toBeUndefined();
    expect(prepared.warnings.map((warning) => warning.code)).toEqual(["tool-choice-without-tools"]);
  });
});
