import { MCP } from "@junction/mcp-client";
import type { Tool, ToolResult, ToolSource } from "@junction/types";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { Agent } from "./index.js";
import { scriptedModel } from "./testing/index.js";

// Issue 11, hole 6: one server must not be able to break every turn, the history, or the
// process's memory.

function nested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = { bottom: true };
  for (let level = 0; level < levels; level++) value = { next: value };
  return value;
}

describe("a server listing the same tool name twice", () => {
  it("keeps the first tool of that name with a warning, and the turn works", async () => {
    const server = new Server({ name: "twice", version: "1.0.0" }, { capabilities: { tools: {} } });
    const schema = { type: "object" as const, properties: {} };
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [
        { name: "search", description: "Searches the docs", inputSchema: schema },
        { name: "search", description: "Searches again, differently", inputSchema: schema },
        { name: "fetch", description: "Fetches a page", inputSchema: schema },
      ],
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => ({
      content: [{ type: "text", text: `called ${request.params.name}` }],
    }));
    const mcp = new MCP({ transport: "memory", server });
    await mcp.connect();
    try {
      const provider = scriptedModel([{ toolCalls: [{ id: "s", name: "search" }] }, { text: "Found it." }]);
      const result = await new Agent({ provider, model: "m", mcps: [mcp] }).send("find").final;
      expect(result.text).toBe("Found it.");
      expect(provider.requests[0]!.tools!.map((t) => [t.name, t.description])).toEqual([
        ["search", "Searches the docs"],
        ["fetch", "Fetches a page"],
      ]);
      expect(result.steps[0]!.toolResults[0]!.output).toEqual({
        content: [{ type: "text", text: "called search" }],
        isError: false,
      });
      expect(result.warnings).toEqual([
        {
          code: "tool-duplicate",
          message:
            'MCP source "twice" listed the tool "search" more than once; the first one is kept and the one at index 1 was left out.',
        },
      ]);
    } finally {
      await mcp.close();
    }
  });

  it("two local tools of one name stay an error the user can fix", async () => {
    const local = (description: string): Tool => ({
      name: "add",
      description,
      inputSchema: { type: "object" },
      execute: async () => description,
    });
    const error = await new Agent({
      provider: scriptedModel([]),
      model: "m",
      tools: [local("a"), local("b")],
    })
      .send("x")
      .final.catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "tool-name-collision" });
    expect((error as Error).message).toMatch(
      /^Two tools are named "add": one from the local tools and one from the local tools\./,
    );
  });
});

describe("deeply nested or oversized structured content", () => {
  async function deepServerRun(structuredContent: Record<string, unknown>) {
    const server = new McpServer({ name: "deep", version: "1.0.0" });
    server.registerTool("report", { description: "Reports", inputSchema: {} }, async () => ({
      content: [{ type: "text", text: "see structured content" }],
      structuredContent,
    }));
    const mcp = new MCP({ transport: "memory", server });
    await mcp.connect();
    try {
      const provider = scriptedModel([{ toolCalls: [{ id: "r", name: "report" }] }, { text: "Reported." }]);
      const agent = new Agent({ provider, model: "m", mcps: [mcp], maxToolOutputChars: 50_000 });
      const result = await agent.send("report").final;
      return { result, agent, provider };
    } finally {
      await mcp.close();
    }
  }

  it("10,000 levels: the run finishes, the structured content is left out with a note and a warning, the history saves", async () => {
    const { result, agent, provider } = await deepServerRun(nested(10_000));
    expect(result.text).toBe("Reported.");
    const expected: ToolResult = {
      content: [
        { type: "text", text: "see structured content" },
        {
          type: "text",
          text: "[Structured content left out by Junction: it is nested deeper than 100 levels (or refers to itself).]",
        },
      ],
      isError: false,
    };
    expect(result.steps[0]!.toolResults[0]!.output).toEqual(expected);
    expect(provider.requests[1]!.messages.at(-1)).toEqual({
      role: "tool",
      content: [{ type: "tool-result", toolCallId: "r", toolName: "report", output: expected }],
    });
    expect(result.warnings).toEqual([
      {
        code: "tool-output-structured-dropped",
        message:
          'Tool "report" returned structured content that was left out: it is nested deeper than 100 levels (or refers to itself).',
      },
    ]);
    const saved = JSON.stringify(agent.messages);
    expect(JSON.parse(saved)).toEqual(result.messages);
  });

  it("over maxToolOutputChars of JSON: left out with a note; ordinary structured content is kept as it came", async () => {
    const big = await deepServerRun({ rows: Array.from({ length: 10_000 }, (_, index) => ({ index })) });
    const bigOutput = big.result.steps[0]!.toolResults[0]!.output as ToolResult;
    expect(bigOutput.structuredContent).toBeUndefined();
    expect(bigOutput.content.at(-1)).toEqual({
      type: "text",
      text: "[Structured content left out by Junction: its JSON is over 50000 characters.]",
    });
    const small = await deepServerRun(nested(20));
    expect((small.result.steps[0]!.toolResults[0]!.output as ToolResult).structuredContent).toEqual(
      nested(20),
    );
    expect(small.result.warnings).toEqual([]);
  });

  it("a local tool's circular, BigInt or deeply annotated output cannot break the history", async () => {
    const circular: Record<string, unknown> = { name: "loop" };
    circular.self = circular;
    const outputs: Record<string, ToolResult> = {
      circular: { content: [{ type: "text", text: "c" }], isError: false, structuredContent: circular },
      big: { content: [{ type: "text", text: "b" }], isError: false, structuredContent: { n: 10n } },
      annotated: {
        content: [{ type: "text", text: "a", _meta: nested(5_000) } as never],
        isError: false,
      },
    };
    const tools: Tool[] = Object.entries(outputs).map(([name, output]) => ({
      name,
      description: name,
      inputSchema: { type: "object" },
      execute: async () => output,
    }));
    const provider = scriptedModel([
      { toolCalls: Object.keys(outputs).map((name) => ({ id: name, name })) },
      { text: "ok" },
    ]);
    const agent = new Agent({ provider, model: "m", tools });
    const result = await agent.send("x").final;
    expect(result.steps[0]!.toolResults.map((r) => r.output)).toEqual([
      {
        content: [
          { type: "text", text: "c" },
          {
            type: "text",
            text: "[Structured content left out by Junction: it is nested deeper than 100 levels (or refers to itself).]",
          },
        ],
        isError: false,
      },
      {
        content: [
          { type: "text", text: "b" },
          {
            type: "text",
            text: "[Structured content left out by Junction: it holds a bigint, which JSON cannot carry.]",
          },
        ],
        isError: false,
      },
      { content: [{ type: "text", text: "a" }], isError: false },
    ]);
    expect(result.warnings.map((w) => w.message)).toEqual([
      'Tool "circular" returned structured content that was left out: it is nested deeper than 100 levels (or refers to itself).',
      'Tool "big" returned structured content that was left out: it holds a bigint, which JSON cannot carry.',
      'Tool "annotated" returned a content part at index 0 whose extra fields were left out: it is nested deeper than 100 levels (or refers to itself).',
    ]);
    expect(JSON.parse(JSON.stringify(agent.messages))).toEqual(result.messages);
  });
});

describe("Agent.close(): no listeners pile up on a long-lived MCP connection", () => {
  /** The real connection, with its onToolsChanged subscriptions counted. */
  function counted(mcp: MCP): { source: ToolSource; live: () => number } {
    let live = 0;
    const source: ToolSource = {
      name: mcp.name,
      listTools: (options) => mcp.listTools(options),
      onToolsChanged: (listener) => {
        live++;
        const unsubscribe = mcp.onToolsChanged(listener);
        return () => {
          live--;
          unsubscribe();
        };
      },
    };
    return { source, live: () => live };
  }

  it("after 50 agents (one per turn, like the playground) that ran and closed, the connection has no listener left", async () => {
    const server = new McpServer({ name: "notes", version: "1.0.0" });
    server.registerTool("count", { description: "Counts", inputSchema: {} }, async () => ({
      content: [{ type: "text", text: "1" }],
    }));
    const mcp = new MCP({ transport: "memory", server });
    await mcp.connect();
    try {
      const { source, live } = counted(mcp);
      const runTurn = async (close: boolean) => {
        const provider = scriptedModel([{ toolCalls: [{ name: "count" }] }, { text: "1" }]);
        const agent = new Agent({ provider, model: "m", mcps: [{ mcp: source, prefix: "notes" }] });
        await agent.send("count").final;
        if (close) agent.close();
        return agent;
      };
      for (let turn = 0; turn < 50; turn++) await runTurn(true);
      expect(live()).toBe(0);
      // Without close() each agent keeps its listener: what the playground's turns piled up.
      const kept = [await runTurn(false), await runTurn(false)];
      expect(live()).toBe(2);
      for (const agent of kept) {
        agent.close();
        agent.close();
      }
      expect(live()).toBe(0);
    } finally {
      await mcp.close();
    }
  });

  it("a closed agent refuses new turns with a clear error", async () => {
    const agent = new Agent({ provider: scriptedModel([{ text: "never" }]), model: "m" });
    agent.close();
    const handle = agent.send("hello");
    const events: string[] = [];
    for await (const event of handle) events.push(event.type);
    expect(events).toEqual(["error"]);
    await expect(handle.final).rejects.toMatchObject({
      code: "invalid-argument",
      message:
        "send(): this Agent was closed with close(); make a new Agent (with `messages: agent.messages`) to go on.",
    });
  });
});
