import { describe, expect, it } from "vitest";
import { declareTools, typeOf } from "./declarations.js";

describe("code mode's declarations", () => {
  const direct = (name: string, source?: string) => ({
    name,
    direct: true,
    ...(source ? { namespace: source, prefix: source } : {}),
    inputSchema: { type: "object" as const },
  });

  it("only names a tool the model is offered directly, by the rule and its exceptions when that is shorter", () => {
    const tools = [direct("fs_read"), direct("fs_list"), direct("fs_get-info"), direct("echo")].map((tool) =>
      tool.name === "echo" ? tool : { ...tool, namespace: "fs", prefix: "fs" },
    );
    const ruled = declareTools(tools, 10_000, ["fs_write"]);
    expect(ruled.text).toBe(
      "Your tools are functions too (tools.fs.read(input) is fs_read), same input, except fs_write; fs_get-info is tools.fs.get_info.",
    );
    expect([...ruled.functions]).toEqual([
      ["fs.read", "fs_read"],
      ["fs.list", "fs_list"],
      ["fs.get_info", "fs_get-info"],
      ["echo", "echo"],
    ]);
    // Many tools a program may not call: the callable ones are listed instead.
    const listed = declareTools(tools, 10_000, ["fs_write", "fs_move", "fs_delete", "fs_edit", "fs_copy"]);
    expect(listed.text).toBe(
      'Your tools as functions (tools.fs.read(input) is fs_read, same input): fs.{read, list, get_info (the tool "fs_get-info")}; echo.',
    );
    expect(listed.functions).toEqual(ruled.functions);
  });

  it("declares a code-only tool in full beside the named ones", () => {
    const { text } = declareTools(
      [direct("a"), { name: "b", description: "Bees", inputSchema: { type: "object" } }],
      10_000,
    );
    expect(text).toBe(
      [
        "Your tools as functions (same input): a.",
        "declare namespace tools {",
        "  /** Bees */",
        "  function b(input: Record<string, any>): Promise<string>;",
        "}",
      ].join("\n"),
    );
  });

  it("declares MCP tools in their source's namespace without its prefix, maps names that are not identifiers, and says which tool each is", () => {
    const { text, functions } = declareTools(
      [
        {
          name: "github_create_issue",
          namespace: "github",
          prefix: "github",
          description: "Creates an issue.\nLonger text that is left out.",
          inputSchema: {
            type: "object",
            properties: {
              title: { type: "string", description: "The title" },
              labels: { type: "array", items: { type: "string" } },
            },
            required: ["title"],
          },
          outputSchema: { type: "object", properties: { number: { type: "integer" } }, required: ["number"] },
        },
        {
          name: "get-sum",
          description: "Adds",
          inputSchema: { type: "object", properties: { a: { type: "number" } } },
        },
        { name: "delete", inputSchema: { type: "object" } },
      ],
      10_000,
    );
    expect(text).toBe(
      [
        "declare namespace tools {",
        '  /** Adds (the tool "get-sum") */',
        "  function get_sum(input: { a?: number }): Promise<string>;",
        '  /** (the tool "delete") */',
        "  function delete_(input: Record<string, any>): Promise<string>;",
        "  namespace github {",
        '    /** Creates an issue. (the tool "github_create_issue") */',
        "    function create_issue(input: { /** The title */ title: string; labels?: string[] }): Promise<{ number: number }>;",
        "  }",
        "}",
      ].join("\n"),
    );
    expect([...functions]).toEqual([
      ["github.create_issue", "github_create_issue"],
      ["get_sum", "get-sum"],
      ["delete_", "delete"],
    ]);
  });

  it("reads enums, unions, nullable types and nested objects; anything it cannot say is any", () => {
    expect(typeOf({ enum: ["open", "closed"] }, 0)).toBe('"open" | "closed"');
    expect(typeOf({ type: ["string", "null"] }, 0)).toBe("string | null");
    expect(typeOf({ anyOf: [{ type: "string" }, { type: "array", items: { type: "number" } }] }, 0)).toBe(
      "string | number[]",
    );
    expect(typeOf({ type: "object", properties: { "a-b": { type: "boolean" } }, required: ["a-b"] }, 0)).toBe(
      '{ "a-b": boolean }',
    );
    expect(typeOf({ $ref: "#/defs/x" }, 0)).toBe("any");
    expect(typeOf({ type: "array", items: { anyOf: [{ type: "string" }, { type: "number" }] } }, 0)).toBe(
      "(string | number)[]",
    );
  });

  it("keeps within its size: the tools that do not fit are named, callable directly only", () => {
    const tools = Array.from({ length: 50 }, (_, index) => ({
      name: `tool_${index}`,
      description: "x".repeat(200),
      inputSchema: { type: "object" as const },
    }));
    const { text, functions } = declareTools(tools, 2_000);
    expect(text.length).toBeLessThan(2_400);
    expect(functions.size).toBeLessThan(50);
    expect(text).toContain("// Not declared (over the size limit), callable directly only: tool_");
  });

  it("never lets a description end the comment it is in", () => {
    const { text } = declareTools(
      [{ name: "x", description: "evil */ declare const y: 1; /*", inputSchema: { type: "object" } }],
      1_000,
    );
    expect(text).toContain("evil *\\/ declare const y: 1; /*");
    expect(text.match(/\*\//g)).toHaveLength(1);
  });
});
