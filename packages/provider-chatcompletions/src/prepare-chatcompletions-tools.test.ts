import type { ToolDefinition } from "@junction/types";
import { describe, expect, it } from "vitest";
import { prepareChatCompletionsTools } from "./prepare-chatcompletions-tools.js";

describe("prepareChatCompletionsTools", () => {
  it("sends a name once: a second tool with it is left out with a warning", () => {
    const prepared = prepareChatCompletionsTools({
      tools: [
        { name: "search", description: "first", inputSchema: { type: "object", properties: {} } },
        { name: "search", description: "second", inputSchema: { type: "object", properties: {} } },
      ],
      toolChoice: undefined,
      messages: [],
    });
    expect(prepared.tools).toEqual([
      {
        type: "function",
        function: { name: "search", description: "first", parameters: { type: "object", properties: {} } },
      },
    ]);
    expect(prepared.warnings).toEqual([
      {
        code: "tool-duplicate-name",
        message: 'Two tools are named "search"; only the first is sent to Chat Completions.',
      },
    ]);
  });

  it("cleans schemas into copies, fills in properties, and maps tool choice", () => {
    const schema = { $schema: "https://json-schema.org/draft/2020-12/schema", type: "object" };
    const tools: ToolDefinition[] = [{ name: "ping", description: "Ping", inputSchema: schema }];
    const prepared = prepareChatCompletionsTools({
      tools,
      toolChoice: { type: "tool", name: "ping" },
      messages: [],
    });
    expect(prepared.tools).toEqual([
      {
        type: "function",
        function: { name: "ping", description: "Ping", parameters: { type: "object", properties: {} } },
      },
    ]);
    expect(prepared.toolChoice).toEqual({ type: "function", function: { name: "ping" } });
    expect(schema).toEqual({ $schema: "https://json-schema.org/draft/2020-12/schema", type: "object" });
    expect(prepared.warnings).toEqual([]);
  });

  it("sends a permissive object schema with a warning when the input schema is not an object", () => {
    const prepared = prepareChatCompletionsTools({
      tools: [{ name: "n", description: "", inputSchema: { type: "string" } }],
      toolChoice: undefined,
      messages: [],
    });
    expect(prepared.tools?.[0]?.function.parameters).toEqual({ type: "object", properties: {} });
    expect(prepared.warnings.map((warning) => warning.code)).toEqual(["tool-schema-not-object"]);
  });

  it("maps names found only in the history, so earlier turns keep their wire names", () => {
    const prepared = prepareChatCompletionsTools({
      tools: [],
      toolChoice: undefined,
      messages: [
        { role: "assistant", content: [{ type: "tool-call", id: "c", name: "fs.read file", input: {} }] },
      ],
    });
    const wire = prepared.toolNames.toVendor("fs.read file");
    expect(wire).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(prepared.toolNames.fromVendor(wire)).toBe("fs.read file");
    expect(prepared.tools).toBeUndefined();
  });
});
