import type { ToolDefinition } from "@junction/types";
import { describe, expect, it } from "vitest";
import { mapOpenAIFinishReason } from "./map-openai-finish-reason.js";
import { toOpenAIStrictSchema } from "./openai-strict-schema.js";
import { type OpenAIFunctionTool, prepareOpenAITools } from "./prepare-openai-tools.js";

describe("prepareOpenAITools", () => {
  it("sends a name once: a second tool with it is left out with a warning (OpenAI rejects it twice)", () => {
    const prepared = prepareOpenAITools({
      tools: [
        { name: "search", description: "first", inputSchema: { type: "object", properties: {} } },
        { name: "search", description: "second", inputSchema: { type: "object", properties: {} } },
      ],
      toolChoice: undefined,
      messages: [],
      strict: false,
    });
    expect(prepared.tools).toEqual([
      {
        type: "function",
        name: "search",
        description: "first",
        parameters: { type: "object", properties: {} },
        strict: false,
      },
    ]);
    expect(prepared.warnings).toEqual([
      {
        code: "tool-duplicate-name",
        message: 'Two tools are named "search"; only the first is sent to OpenAI.',
      },
    ]);
  });

  it("adds the type and properties OpenAI insists on, without touching the caller's schema", () => {
    const tools: ToolDefinition[] = [
      { name: "ping", description: "", inputSchema: {} },
      { name: "echo", description: "Echo", inputSchema: { type: "object" } },
    ];
    const before = structuredClone(tools);
    const prepared = prepareOpenAITools({ tools, toolChoice: undefined, messages: [], strict: false });
    expect(tools).toEqual(before);
    expect(prepared.warnings).toEqual([]);
    expect(prepared.tools).toEqual([
      { type: "function", name: "ping", parameters: { type: "object", properties: {} }, strict: false },
      {
        type: "function",
        name: "echo",
        description: "Echo",
        parameters: { type: "object", properties: {} },
        strict: false,
      },
    ]);
  });

  it("maps names from tools and from the history the same way", () => {
    const prepared = prepareOpenAITools({
      tools: [{ name: "fs.read", description: "Read", inputSchema: { type: "object", properties: {} } }],
      toolChoice: undefined,
      messages: [
        { role: "assistant", content: [{ type: "tool-call", id: "c1", name: "old tool!", input: {} }] },
        {
          role: "tool",
          content: [{ type: "tool-result", toolCallId: "c1", toolName: "old tool!", output: "ok" }],
        },
      ],
      strict: false,
    });
    const sent = (prepared.tools![0] as OpenAIFunctionTool).name;
    expect(sent).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(prepared.toolNames.fromVendor(sent)).toBe("fs.read");
    const old = prepared.toolNames.toVendor("old tool!");
    expect(old).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(prepared.toolNames.fromVendor(old)).toBe("old tool!");
  });

  it("warns about a non-object schema and about a tool choice naming an unknown tool", () => {
    const prepared = prepareOpenAITools({
      tools: [{ name: "count", description: "Count", inputSchema: { type: "array" } }],
      toolChoice: { type: "tool", name: "missing" },
      messages: [],
      strict: false,
    });
    expect((prepared.tools![0] as OpenAIFunctionTool).parameters).toEqual({ type: "object", properties: {} });
    expect(prepared.toolChoice).toEqual({ type: "function", name: "missing" });
    expect(prepared.warnings.map((warning) => warning.code)).toEqual([
      "tool-schema-invalid",
      "tool-choice-unknown-tool",
    ]);
  });

  it("keeps a tool non-strict, with a warning, when its schema cannot be strict", () => {
    const inputSchema = {
      type: "object",
      properties: { tags: { type: "object", additionalProperties: { type: "string" } } },
    };
    const prepared = prepareOpenAITools({
      tools: [{ name: "tag", description: "Tag", inputSchema }],
      toolChoice: "auto",
      messages: [],
      strict: true,
    });
    expect(prepared.tools![0]).toEqual({
      type: "function",
      name: "tag",
      description: "Tag",
      parameters: inputSchema,
      strict: false,
    });
    expect(prepared.toolChoice).toBe("auto");
    expect(prepared.warnings).toEqual([
      {
        code: "tool-schema-not-strict",
        message:
          'Tool "tag" is sent without strict mode: #/properties/tags: additionalProperties other than false (an open map) is not supported.',
      },
    ]);
  });
});

describe("toOpenAIStrictSchema", () => {
  it("requires every property, makes optional ones nullable, and closes every object", () => {
    const schema = {
      type: "object",
      properties: {
        query: { type: "string", format: "uri", maxLength: 200 },
        limit: { type: "integer", minimum: 1 },
        filter: {
          type: "object",
          properties: { lang: { type: "string" }, since: { type: "string", format: "date" } },
          required: ["lang"],
        },
        sort: { oneOf: [{ const: "asc" }, { const: "desc" }] },
        item: { $ref: "#/$defs/item" },
        tags: { type: ["array", "null"], items: { type: "string" }, uniqueItems: true },
      },
      required: ["query"],
      $defs: { item: { type: "object", properties: { id: { type: "string" } }, required: ["id"] } },
    };
    const before = structuredClone(schema);
    const result = toOpenAIStrictSchema(schema);
    expect(schema).toEqual(before);
    expect(result).toEqual({
      ok: true,
      removed: ["#/properties/query/format", "#/properties/query/maxLength", "#/properties/tags/uniqueItems"],
      schema: {
        type: "object",
        properties: {
          query: { type: "string" },
          limit: { type: ["integer", "null"], minimum: 1 },
          filter: {
            anyOf: [
              {
                type: "object",
                properties: { lang: { type: "string" }, since: { type: ["string", "null"], format: "date" } },
                required: ["lang", "since"],
                additionalProperties: false,
              },
              { type: "null" },
            ],
          },
          sort: { anyOf: [{ const: "asc" }, { const: "desc" }, { type: "null" }] },
          item: { anyOf: [{ $ref: "#/$defs/item" }, { type: "null" }] },
          tags: { type: ["array", "null"], items: { type: "string" } },
        },
        required: ["query", "limit", "filter", "sort", "item", "tags"],
        additionalProperties: false,
        $defs: {
          item: {
            type: "object",
            properties: { id: { type: "string" } },
            required: ["id"],
            additionalProperties: false,
          },
        },
      },
    });
  });

  it("refuses what strict mode cannot express, naming where", () => {
    expect(toOpenAIStrictSchema({ type: "object", properties: { x: {} } })).toEqual({
      ok: false,
      reason: "#/properties/x: a schema without a type has no strict form",
    });
    expect(toOpenAIStrictSchema({ type: "object", allOf: [{ type: "object" }] })).toEqual({
      ok: false,
      reason: "#: allOf is not supported in strict mode",
    });
    expect(toOpenAIStrictSchema({ type: "string" })).toEqual({
      ok: false,
      reason: "#: the root must be an object schema",
    });
  });
});

describe("prepareOpenAITools: deferred tools for OpenAI's tool search", () => {
  const schema = { type: "object", properties: { q: { type: "string" } } };
  const github = {
    name: "github",
    description: 'Tools of "github". Search to load them: gh_issue, gh_pull.',
  };
  const definitions: ToolDefinition[] = [
    { name: "clock", description: "Tells the time.", inputSchema: schema },
    { name: "gh_issue", description: "Opens an issue.", inputSchema: schema, defer: true, group: github },
    { name: "notes", description: "Local notes.", inputSchema: schema, defer: true },
    { name: "gh_pull", description: "Lists pull requests.", inputSchema: schema, defer: true, group: github },
  ];

  it("groups a source's deferred functions into one namespace with defer_loading, leaves a local one top-level, and adds tool_search last", () => {
    const prepared = prepareOpenAITools({
      tools: definitions,
      toolChoice: undefined,
      messages: [],
      strict: false,
    });
    const fn = (name: string, description: string) => ({
      type: "function",
      name,
      description,
      parameters: schema,
      strict: false,
      defer_loading: true,
    });
    expect(prepared.tools).toEqual([
      { type: "function", name: "clock", description: "Tells the time.", parameters: schema, strict: false },
      {
        type: "namespace",
        name: "github",
        description: github.description,
        tools: [fn("gh_issue", "Opens an issue."), fn("gh_pull", "Lists pull requests.")],
      },
      fn("notes", "Local notes."),
      { type: "tool_search" },
    ]);
    expect(prepared.warnings).toEqual([]);
  });

  it("sends a tool named by the tool choice loaded (a deferred tool cannot be forced) and adds no search when nothing else is deferred", () => {
    const prepared = prepareOpenAITools({
      tools: [definitions[0]!, { ...definitions[2]!, name: "notes" }],
      toolChoice: { type: "tool", name: "notes" },
      messages: [],
      strict: false,
    });
    expect(prepared.tools).toEqual([
      { type: "function", name: "clock", description: "Tells the time.", parameters: schema, strict: false },
      { type: "function", name: "notes", description: "Local notes.", parameters: schema, strict: false },
    ]);
    expect(prepared.toolChoice).toEqual({ type: "function", name: "notes" });
  });

  it("gives a namespace a name OpenAI takes that no function or other namespace has", () => {
    const prepared = prepareOpenAITools({
      tools: [
        { name: "files", description: "A local tool named like the source.", inputSchema: schema },
        {
          name: "read",
          description: "Reads.",
          inputSchema: schema,
          defer: true,
          group: { name: "files", description: "d1" },
        },
        {
          name: "list",
          description: "Lists.",
          inputSchema: schema,
          defer: true,
          group: { name: "my files!", description: "d2" },
        },
      ],
      toolChoice: undefined,
      messages: [],
      strict: false,
    });
    const names = prepared.tools!.map((tool) => ("name" in tool ? tool.name : tool.type));
    expect(names).toEqual(["files", "files_2", "my_files_", "tool_search"]);
  });
});

describe("mapOpenAIFinishReason", () => {
  it("maps each status and incomplete reason", () => {
    expect(mapOpenAIFinishReason({ status: "completed", hasToolCalls: false })).toBe("stop");
    expect(mapOpenAIFinishReason({ status: "completed", hasToolCalls: true })).toBe("tool-calls");
    expect(
      mapOpenAIFinishReason({
        status: "incomplete",
        incompleteReason: "max_output_tokens",
        hasToolCalls: true,
      }),
    ).toBe("length");
    expect(
      mapOpenAIFinishReason({
        status: "incomplete",
        incompleteReason: "content_filter",
        hasToolCalls: false,
      }),
    ).toBe("content-filter");
    expect(mapOpenAIFinishReason({ status: "incomplete", incompleteReason: null, hasToolCalls: false })).toBe(
      "other",
    );
    expect(mapOpenAIFinishReason({ status: "failed", hasToolCalls: false })).toBe("error");
    expect(mapOpenAIFinishReason({ status: "cancelled", hasToolCalls: false })).toBe("other");
  });
});
