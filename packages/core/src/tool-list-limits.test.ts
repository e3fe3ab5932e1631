import type { Tool } from "@junction/types";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_TOOL_LIMITS,
  limitToolCount,
  limitToolList,
  resolveToolLimits,
  type ToolGroup,
} from "./tool-list-limits.js";

function tools(prefix: string, count: number, extra: Partial<Tool> = {}): Tool[] {
  return Array.from({ length: count }, (_, index) => ({
    name: `${prefix}${index}`,
    description: `${prefix}${index} does things`,
    inputSchema: { type: "object" },
    execute: async () => "",
    ...extra,
  }));
}

const limits = (overrides: Partial<typeof DEFAULT_TOOL_LIMITS> = {}) => ({
  ...DEFAULT_TOOL_LIMITS,
  ...overrides,
});
const names = (kept: { tool: Tool }[][]) => kept.map((group) => group.map(({ tool }) => tool.name));

describe("limitToolCount: what one request offers", () => {
  it("keeps local tools first, then fills the sources fairly: small ones keep all, big ones share the rest", () => {
    const groups: ToolGroup[] = [
      { tools: tools("local", 2) },
      { label: 'MCP source "big"', tools: tools("big", 500) },
      { label: 'MCP source "one"', tools: tools("one", 1) },
      { label: 'MCP source "mid"', tools: tools("mid", 50) },
    ];
    const { kept, over, warnings } = limitToolCount(groups, 20, "left-out");
    expect(kept.map((group) => group.length)).toEqual([2, 9, 1, 8]);
    expect(over.map((group) => group.length)).toEqual([0, 491, 0, 42]);
    expect(kept[3]!.map((tool) => tool.name)).toEqual([
      "mid0",
      "mid1",
      "mid2",
      "mid3",
      "mid4",
      "mid5",
      "mid6",
      "mid7",
    ]);
    expect(warnings.map((w) => w.warning.message)).toEqual([
      'MCP source "big" listed 500 tools; with toolLimits.maxTools (20) shared among the sources, the model is offered its first 9. ' +
        'Left out: "big9", "big10", "big11", "big12", "big13", "big14", "big15", "big16", "big17", "big18" and 481 more.',
      'MCP source "mid" listed 50 tools; with toolLimits.maxTools (20) shared among the sources, the model is offered its first 8. ' +
        'Left out: "mid8", "mid9", "mid10", "mid11", "mid12", "mid13", "mid14", "mid15", "mid16", "mid17" and 32 more.',
    ]);
  });

  it("local tools over the cap are cut too, and the sources get nothing", () => {
    const { kept, warnings } = limitToolCount(
      [{ tools: tools("local", 5) }, { label: 'MCP source "s"', tools: tools("s", 2) }],
      3,
      "left-out",
    );
    expect(kept.map((group) => group.map((tool) => tool.name))).toEqual([["local0", "local1", "local2"], []]);
    expect(warnings.map((w) => [w.warning.code, w.warning.message.slice(0, 40)])).toEqual([
      ["tool-list-truncated", "The local tools listed 5 tools; with too"],
      ["tool-list-truncated", 'MCP source "s" listed 2 tools; with tool'],
    ]);
  });

  it("with the search on, search_tools takes a place and the warning says the tools over the count are found with it", () => {
    const { warnings } = limitToolCount(
      [{ label: 'MCP source "big"', tools: tools("big", 12) }],
      10,
      "searchable",
    );
    expect(warnings.map((w) => w.warning)).toEqual([
      {
        code: "tool-list-truncated",
        message:
          'MCP source "big" has 12 tools to offer on one request; with toolLimits.maxTools (10) shared among the sources and search_tools, ' +
          'the model is offered its first 9 and finds the other 3 with the tool search: "big9", "big10", "big11".',
      },
    ]);
  });

  it("limitToolList keeps every tool within the size limits, however many: the count is per request", () => {
    const { kept, warnings } = limitToolList([{ label: "s", tools: tools("s", 600) }], DEFAULT_TOOL_LIMITS);
    expect(kept[0]).toHaveLength(600);
    expect(warnings).toEqual([]);
  });

  it("under every limit: everything kept as it was, no warning", () => {
    const groups = [{ tools: tools("local", 3) }, { label: "s", tools: tools("s", 3) }];
    const { kept, warnings } = limitToolList(groups, DEFAULT_TOOL_LIMITS);
    expect(kept.flat().map(({ tool, description }) => [tool, description])).toEqual(
      groups.flatMap((group) => group.tools.map((tool) => [tool, tool.description])),
    );
    expect(warnings).toEqual([]);
  });
});

describe("limitToolList: one tool's size", () => {
  const source = 'MCP source "x"';

  it("a name over maxNameChars leaves the tool out; the warning shows the name cut", () => {
    const long = "n".repeat(1_000);
    const { kept, warnings } = limitToolList(
      [{ label: source, tools: [...tools(long, 1), ...tools("ok", 1)] }],
      limits({ maxNameChars: 100 }),
    );
    expect(names(kept)).toEqual([["ok0"]]);
    expect(warnings.map((w) => w.warning)).toEqual([
      {
        code: "tool-name-too-long",
        message: `MCP source "x" has a tool named "${"n".repeat(80)}…": 1001 characters, over toolLimits.maxNameChars (100); the tool was left out.`,
      },
    ]);
  });

  it("an input schema too large or too deep leaves the tool out; an output schema too large is left out of the definition", () => {
    let deep: Record<string, unknown> = { type: "string" };
    for (let level = 0; level < 200; level++) deep = { type: "object", properties: { next: deep } };
    const big = { type: "object", properties: { a: { type: "string", description: "d".repeat(200_000) } } };
    const { kept, warnings } = limitToolList(
      [
        {
          label: source,
          tools: [
            ...tools("deep", 1, { inputSchema: deep }),
            ...tools("big", 1, { inputSchema: big }),
            ...tools("out", 1, { outputSchema: big }),
          ],
        },
      ],
      limits({ maxSchemaChars: 100_000 }),
    );
    expect(kept[0]!.map(({ tool, outputSchemaDropped }) => [tool.name, outputSchemaDropped])).toEqual([
      ["out0", true],
    ]);
    expect(warnings.map((w) => w.warning)).toEqual([
      {
        code: "tool-schema-too-large",
        message:
          'The input schema of tool "deep0" from MCP source "x" is nested deeper than 100 levels (or refers to itself) (toolLimits.maxSchemaChars is 100000); the tool was left out.',
      },
      {
        code: "tool-schema-too-large",
        message:
          'The input schema of tool "big0" from MCP source "x" has JSON over 100000 characters (toolLimits.maxSchemaChars is 100000); the tool was left out.',
      },
      {
        code: "tool-schema-too-large",
        message: `The output schema of tool "out0" from MCP source "x" has JSON over 100000 characters (toolLimits.maxSchemaChars is 100000); it was left out of the tool's definition.`,
      },
    ]);
  });

  it("a description over maxDescriptionChars is cut with a mark; one that is not a string becomes empty", () => {
    const { kept, warnings } = limitToolList(
      [
        {
          tools: [
            ...tools("long", 1, { description: "x".repeat(50) }),
            ...tools("odd", 1, { description: 7 as never }),
          ],
        },
      ],
      limits({ maxDescriptionChars: 10 }),
    );
    expect(kept[0]!.map(({ description }) => description)).toEqual(["xxxxxxxxxx… [cut by Junction]", ""]);
    expect(warnings).toEqual([
      {
        key: "tool-description-cut\0long0",
        warning: {
          code: "tool-description-cut",
          message:
            'The description of tool "long0" from the local tools has 50 characters, over toolLimits.maxDescriptionChars (10); it was cut to that length.',
        },
      },
    ]);
  });
});

describe("resolveToolLimits", () => {
  it("fills in the defaults, takes Infinity, refuses what is not a positive integer", () => {
    expect(resolveToolLimits(undefined)).toEqual({
      maxTools: 256,
      maxNameChars: 256,
      maxDescriptionChars: 10_000,
      maxSchemaChars: 100_000,
    });
    expect(resolveToolLimits({ maxTools: Number.POSITIVE_INFINITY, maxSchemaChars: 5 })).toMatchObject({
      maxTools: Number.POSITIVE_INFINITY,
      maxSchemaChars: 5,
    });
    expect(() => resolveToolLimits({ maxDescriptionChars: 1.5 })).toThrow(
      "new Agent(): `toolLimits.maxDescriptionChars` must be a positive integer (or Infinity for no limit), got 1.5.",
    );
    expect(() => resolveToolLimits(5 as never)).toThrow("new Agent(): `toolLimits` must be an object.");
  });
});
