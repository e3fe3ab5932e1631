import { MCP } from "@junction/mcp-client";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent, type AgentEvent } from "./index.js";
import { scriptedModel } from "./testing/index.js";

// Issue 28: with 527 tools, toolLimits.maxTools (256) was applied before deferral, so 271 tools
// were never searchable and the warning said "256 of 256 tools were deferred". The count bounds
// what one request offers, never what the search can find.

/** 6 servers of 40 tools and 30 of 10: 540 tools, each named by a word no other tool has. */
const SERVERS = Array.from({ length: 36 }, (_, server) => ({
  name: `server${server}`,
  tools: Array.from({ length: server < 6 ? 40 : 10 }, (_, tool) => `quill${server}x${tool}`),
}));
const ALL = SERVERS.flatMap((server) => server.tools.map((tool) => `${server.name}_${tool}`));

const connections: MCP[] = [];

beforeAll(async () => {
  for (const { name, tools } of SERVERS) {
    const server = new McpServer({ name, version: "1.0.0" });
    for (const tool of tools) {
      server.registerTool(
        tool,
        { description: `Handles the ${tool} records of ${name}.`, inputSchema: { id: z.string() } },
        async () => ({ content: [{ type: "text", text: `${tool} done` }] }),
      );
    }
    if (name === "server7") {
      // Over the size limits: a description cut to 10,000 characters, a schema left out.
      server.registerTool(
        "verbose",
        { description: `Verbose tool. ${"Words about it. ".repeat(1_000)}`, inputSchema: {} },
        async () => ({ content: [{ type: "text", text: "ok" }] }),
      );
      server.registerTool(
        "bloated",
        {
          description: "A tool whose input schema is too large.",
          inputSchema: { payload: z.string().describe("x".repeat(120_000)) },
        },
        async () => ({ content: [{ type: "text", text: "ok" }] }),
      );
    }
    const mcp = new MCP({ transport: "memory", server });
    await mcp.connect();
    connections.push(mcp);
  }
}, 60_000);

afterAll(async () => {
  await Promise.all(connections.map((mcp) => mcp.close()));
});

describe("tool search over 540 tools of 36 MCP servers, default limits", () => {
  it("every tool is searchable and found by a query naming it; warnings count what happened; each request stays within maxTools and the size limits", async () => {
    const searches = ALL.map((name, index) => ({
      id: `s${index}`,
      name: "search_tools",
      input: { query: name.split("_")[1]!, limit: 1 },
    }));
    const provider = scriptedModel({
      capabilities: { contextWindowTokens: 200_000 },
      responses: [
        { toolCalls: searches },
        {
          toolCalls: [
            { id: "v", name: "search_tools", input: { query: "verbose tool words" } },
            { id: "b", name: "search_tools", input: { query: "bloated input schema too large" } },
          ],
        },
        { text: "done" },
      ],
    });
    const agent = new Agent({
      provider,
      model: "m",
      mcps: connections.map((mcp, index) => ({ mcp, prefix: SERVERS[index]!.name })),
    });
    const events: AgentEvent[] = [];
    const handle = agent.send("find every tool");
    for await (const event of handle) events.push(event);
    const result = await handle.final;
    agent.close();

    // The first request offers only the search, over every tool that passed the size limits.
    expect(provider.requests[0]!.tools!.map((tool) => tool.name)).toEqual(["search_tools"]);
    expect(provider.requests[0]!.tools![0]!.description).toMatch(/^Searches 541 more tools /);
    // Each tool is found first by a query naming it, and loaded.
    const searched = events.filter((event) => event.type === "tool-search");
    expect(searched).toHaveLength(ALL.length + 2);
    const firstFound = searched.slice(0, ALL.length).map((event) => event.results[0]?.name);
    expect(firstFound).toEqual(ALL);
    expect(searched.slice(0, ALL.length).every((event) => !event.nothingFits)).toBe(true);

    // Loaded 541 tools: one request still offers at most maxTools (256, Junction's own search
    // included), a fair share per server.
    const second = provider.requests[1]!.tools!.map((tool) => tool.name);
    expect(second).toHaveLength(256);
    expect(second.at(-1)).toBe("search_tools");
    // The size limits hold whatever is loaded: the verbose tool is searchable with its description
    // cut, the one with a schema over maxSchemaChars is not there to find.
    const [verbose, bloated] = searched.slice(ALL.length);
    expect(verbose!.loaded[0]).toBe("server7_verbose");
    expect(bloated!.results.map((found) => found.name)).not.toContain("server7_bloated");
    for (const request of provider.requests) {
      for (const tool of request.tools ?? []) {
        expect(tool.description.length).toBeLessThanOrEqual(10_000 + "… [cut by Junction]".length);
        expect(JSON.stringify(tool.inputSchema).length).toBeLessThan(100_000);
      }
      expect(JSON.stringify(request.tools).length).toBeLessThan(200_000);
    }

    const warnings = result.warnings.map((warning) => [warning.code, warning.message]);
    expect(warnings.filter(([code]) => code === "tools-deferred")).toEqual([
      [
        "tools-deferred",
        expect.stringMatching(
          /^541 of 541 tools were deferred: their definitions would take about \d+ tokens/,
        ),
      ],
    ]);
    expect(warnings.filter(([code]) => code === "tool-schema-too-large")).toHaveLength(1);
    expect(warnings.filter(([code]) => code === "tool-description-cut")).toHaveLength(1);
    const truncated = warnings.filter(([code]) => code === "tool-list-truncated");
    // 36 servers share 256 places: each is told once how many it gets and that its other tools
    // stay searchable; server7 once more when its loaded tools grew (the verbose one).
    expect(truncated).toHaveLength(37);
    expect(truncated[0]![1]).toBe(
      'MCP source "server0" (prefix "server0") has 40 tools to offer on one request; with toolLimits.maxTools (256) shared among the sources and search_tools, ' +
        'the model is offered its first 7 and finds the other 33 with the tool search: "server0_quill0x7", "server0_quill0x8", "server0_quill0x9", ' +
        '"server0_quill0x10", "server0_quill0x11", "server0_quill0x12", "server0_quill0x13", "server0_quill0x14", "server0_quill0x15", "server0_quill0x16" and 23 more.',
    );
  }, 120_000);
});
