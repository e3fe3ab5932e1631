import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { SMALL_CATALOG_TOOLS, tool } from "@junction/core";
import { MCP } from "@junction/mcp-client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { type FixtureProbe, fixtureServer } from "../test/fixture-server.js";
import { createMCPServer, gateway } from "./mcp-server.js";
import { type RunningHTTPServer, serveHTTP } from "./node.js";
import { createPassThrough } from "./pass-through.js";

// A gateway past its tool-search threshold: server-everything (npm, over stdio) and the fixture
// server (over HTTP) behind it, served over Streamable HTTP to clients of both eras. The list shows
// `search_tools` and `call_tool` only; the search is core's; `call_tool` reaches the upstream tool.

const require = createRequire(import.meta.url);
const everythingEntry = join(
  dirname(require.resolve("@modelcontextprotocol/server-everything/package.json")),
  "dist/index.js",
);
const askingServer = fileURLToPath(new URL("../test-servers/asking-server.mjs", import.meta.url));
const gatewayStdioServer = fileURLToPath(
  new URL("../test-servers/gateway-stdio-server.mjs", import.meta.url),
);

const ERAS = ["2026-07-28", "2025-11-25"] as const;

const probe: FixtureProbe = {};
let everything: MCP;
let local: RunningHTTPServer;
let localClient: MCP;
let front: RunningHTTPServer;
let mixed: RunningHTTPServer;
let upstreamCount: number;
beforeAll(async () => {
  everything = new MCP({ transport: "stdio", command: process.execPath, args: [everythingEntry, "stdio"] });
  await everything.connect();
  local = await serveHTTP(fixtureServer(probe));
  localClient = new MCP({ transport: "http", url: local.url });
  await localClient.connect();
  const mcps = [
    { mcp: everything, prefix: "ev" },
    { mcp: localClient, prefix: "fx" },
  ];
  upstreamCount = (await everything.listServerTools()).length + (await localClient.listServerTools()).length;
  front = await serveHTTP(gateway({ mcps, toolSearch: { threshold: 5 } }));
  mixed = await serveHTTP(
    createMCPServer({
      name: "mixed",
      version: "1.0.0",
      mcps,
      toolSearch: { threshold: 5 },
      tools: [
        tool({
          name: "note",
          description: "Keeps a note",
          schema: z.object({ text: z.string() }),
          execute: async ({ text }) => `noted: ${text}`,
        }),
      ],
    }),
  );
});
afterAll(async () => {
  await mixed?.close();
  await front?.close();
  await localClient?.close();
  await local?.close();
  await everything?.close();
});

describe.each(ERAS)("a gateway past its tool-search threshold, %s client", (protocolVersion) => {
  let mcp: MCP;
  beforeAll(async () => {
    mcp = new MCP({ transport: "http", url: front.url, protocolVersion });
    await mcp.connect();
  });
  afterAll(async () => {
    await mcp.close();
  });

  it("lists only search_tools and call_tool", async () => {
    expect(upstreamCount).toBeGreaterThan(5);
    const tools = await mcp.listServerTools();
    expect(tools.map((t) => t.name)).toEqual(["search_tools", "call_tool"]);
    expect(tools[0]?.annotations).toEqual({ readOnlyHint: true, openWorldHint: false });
    expect(tools[1]?.inputSchema).toEqual({
      type: "object",
      properties: {
        name: { type: "string", description: "The tool's name, as search_tools gave it." },
        arguments: { type: "object", description: "The tool's arguments, following its input schema." },
      },
      required: ["name"],
      additionalProperties: false,
    });
  });

  it("finds the upstream tool with its description, input schema and confidence", async () => {
    const upstreamEcho = (await everything.listServerTools()).find((t) => t.name === "echo")!;
    const result = await mcp.callTool("search_tools", { query: "echo back a message", limit: 3 });
    expect(result.isError).toBe(false);
    const output = result.structuredContent as {
      query: string;
      matches: {
        name: string;
        description: string;
        inputSchema: unknown;
        score: number;
        confidence: string;
      }[];
      nothingFits: boolean;
    };
    expect(output.query).toBe("echo back a message");
    expect(output.nothingFits).toBe(false);
    expect(output.matches.length).toBeGreaterThan(0);
    expect(output.matches.length).toBeLessThanOrEqual(3);
    const [best] = output.matches;
    expect(best).toMatchObject({
      name: "ev_echo",
      description: upstreamEcho.description,
      inputSchema: upstreamEcho.inputSchema,
      confidence: "high",
    });
    expect(best!.score).toBeGreaterThanOrEqual(0.38);
    // The text a model reads carries the same matches.
    const text = (result.content[0] as { text: string }).text;
    expect(text.split("\n", 1)[0]).toBe(
      `Found ${output.matches.length} tool(s) for "echo back a message", best first; call one with call_tool {"name", "arguments"}:`,
    );
    expect(JSON.parse(text.slice(text.indexOf("\n") + 1))).toEqual(output.matches);
  });

  it("finds the fixture's tool by its server and words", async () => {
    const result = await mcp.callTool("search_tools", { query: "add two numbers" });
    const output = result.structuredContent as { matches: { name: string; annotations?: unknown }[] };
    expect(output.matches[0]).toMatchObject({
      name: "fx_add",
      annotations: { title: "Add", readOnlyHint: true, openWorldHint: false },
    });
  });

  it("says nothing fits and offers nothing for a request no tool does", async () => {
    const result = await mcp.callTool("search_tools", { query: "book a flight to Lisbon" });
    expect(result).toEqual({
      content: [
        {
          type: "text",
          text: 'No tool fits "book a flight to Lisbon". Search again in other words, or do without a tool.',
        },
      ],
      isError: false,
      structuredContent: { query: "book a flight to Lisbon", matches: [], nothingFits: true },
    });
  });

  it("offers nothing on a low fit: it serves more than SMALL_CATALOG_TOOLS tools", async () => {
    expect(upstreamCount).toBeGreaterThan(SMALL_CATALOG_TOOLS);
    // Its best match is a low fit (ev_get-annotated-message, 0.16), which from a handful of tools
    // would still be offered.
    const result = await mcp.callTool("search_tools", { query: "tell me a story about a dragon" });
    expect(result.structuredContent).toEqual({
      query: "tell me a story about a dragon",
      matches: [],
      nothingFits: true,
    });
  });

  it("says nothing fits well and offers the closest few when they are close", async () => {
    const result = await mcp.callTool("search_tools", { query: "weather tomorrow in paris" });
    const output = result.structuredContent as {
      matches: { name: string; confidence: string; score: number }[];
      nothingFits: boolean;
    };
    expect(output.nothingFits).toBe(true);
    expect(output.matches.map(({ name, confidence }) => ({ name, confidence }))).toEqual([
      { name: "fx_weather", confidence: "medium" },
      { name: "fx_bad_weather", confidence: "medium" },
    ]);
    const text = (result.content[0] as { text: string }).text;
    expect(text.split("\n", 1)[0]).toBe(
      'Nothing fits "weather tomorrow in paris" well. The closest 2 (read what each does before calling it with call_tool), or search again in other words:',
    );
  });

  it("calls the found tool upstream with the arguments given, its result as a direct call's", async () => {
    for (const [name, args] of [
      ["echo", { message: "through call_tool" }],
      ["get-tiny-image", {}],
      ["get-structured-content", { location: "Chicago" }],
      // Arguments the upstream tool refuses: its own error, as a direct call gets it.
      ["echo", {}],
    ] as const) {
      expect(await mcp.callTool("call_tool", { name: `ev_${name}`, arguments: args })).toEqual(
        await everything.callTool(name, args),
      );
    }
    expect(await mcp.callTool("call_tool", { name: "fx_add", arguments: { a: 2, b: 40 } })).toEqual({
      content: [{ type: "text", text: "42" }],
      isError: false,
    });
    expect(await mcp.callTool("call_tool", { name: "fx_refuse" })).toEqual({
      content: [{ type: "text", text: "not today" }],
      isError: true,
    });
  });

  it("names what was wrong with a call_tool call", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'call_tool needs {"name": the name of a tool search_tools found, "arguments": an object}.'],
      [
        { name: "ev_nope", arguments: {} },
        'call_tool: No tool of this gateway is named "ev_nope": find one with search_tools, and pass its name exactly.',
      ],
      [
        { name: "echo", arguments: { message: "x" } },
        'call_tool: No tool of this gateway is named "echo": find one with search_tools, and pass its name exactly.',
      ],
      [
        { name: "call_tool", arguments: {} },
        `call_tool: "call_tool" is not one of this gateway's re-served tools: call it directly, it is in tools/list.`,
      ],
      [
        { name: "ev_echo", arguments: "hello" },
        `call_tool: "arguments" must be an object of "ev_echo"'s arguments, not a string.`,
      ],
      [
        { name: "ev_echo", arguments: [1] },
        `call_tool: "arguments" must be an object of "ev_echo"'s arguments, not an array.`,
      ],
      [
        { name: "ev_echo", message: "hello" },
        'call_tool takes {"name", "arguments"} only; put "message" inside "arguments".',
      ],
    ];
    for (const [args, text] of cases) {
      expect(await mcp.callTool("call_tool", args)).toEqual({
        content: [{ type: "text", text }],
        isError: true,
      });
    }
    expect(await mcp.callTool("search_tools", { query: " " })).toEqual({
      content: [{ type: "text", text: 'search_tools needs {"query": a non-empty string}.' }],
      isError: true,
    });
  });

  it("forwards progress and cancellation through call_tool", async () => {
    const reports: unknown[] = [];
    expect(
      await mcp.callTool("call_tool", { name: "fx_count" }, { onProgress: (report) => reports.push(report) }),
    ).toEqual({ content: [{ type: "text", text: "counted" }], isError: false });
    expect(reports).toEqual([
      { progress: 1, total: 3, message: "step 1" },
      { progress: 2, total: 3, message: "step 2" },
      { progress: 3, total: 3, message: "step 3" },
    ]);

    probe.aborted = undefined;
    const controller = new AbortController();
    const call = mcp.callTool("call_tool", { name: "fx_wait", arguments: {} }, { signal: controller.signal });
    await vi.waitFor(() => expect(probe.aborted).toBeDefined(), { timeout: 10_000 });
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: "aborted" });
    await expect(probe.aborted).resolves.toBeDefined();
  });

  it("keeps local tools listed and refuses them through call_tool", async () => {
    const client = new MCP({ transport: "http", url: mixed.url, protocolVersion });
    await client.connect();
    try {
      expect((await client.listServerTools()).map((t) => t.name)).toEqual([
        "note",
        "search_tools",
        "call_tool",
      ]);
      expect(await client.callTool("call_tool", { name: "note", arguments: { text: "x" } })).toEqual({
        content: [
          {
            type: "text",
            text: `call_tool: "note" is not one of this gateway's re-served tools: call it directly, it is in tools/list.`,
          },
        ],
        isError: true,
      });
    } finally {
      await client.close();
    }
  });
});

describe.each(ERAS)("a gateway with tool search served over stdio (spawned), %s", (protocolVersion) => {
  it("searches and calls through call_tool", async () => {
    const client = new MCP({
      transport: "stdio",
      command: process.execPath,
      args: [gatewayStdioServer],
      protocolVersion,
    });
    await client.connect();
    try {
      expect(client.protocolVersion).toBe(protocolVersion);
      expect((await client.listServerTools()).map((t) => t.name)).toEqual(["search_tools", "call_tool"]);
      const found = await client.callTool("search_tools", { query: "add two numbers together", limit: 1 });
      expect((found.structuredContent as { matches: { name: string }[] }).matches.map((m) => m.name)).toEqual(
        ["ev_get-sum"],
      );
      expect(await client.callTool("call_tool", { name: "ev_get-sum", arguments: { a: 20, b: 22 } })).toEqual(
        await everything.callTool("get-sum", { a: 20, b: 22 }),
      );
    } finally {
      await client.close();
    }
  });
});

describe("a gateway at or under its tool-search threshold", () => {
  it("lists every tool as before", async () => {
    const server = await serveHTTP(
      gateway({ mcps: [{ mcp: everything, prefix: "ev" }], toolSearch: { threshold: upstreamCount } }),
    );
    const client = new MCP({ transport: "http", url: server.url });
    await client.connect();
    try {
      expect((await client.listServerTools()).map((t) => t.name)).toEqual(
        (await everything.listServerTools()).map((t) => `ev_${t.name}`),
      );
    } finally {
      await client.close();
      await server.close();
    }
  });

  it("refuses a threshold that is not a whole number", () => {
    expect(() => gateway({ mcps: [], toolSearch: { threshold: -1 } })).toThrow(
      "createMCPServer(): `toolSearch.threshold` must be an integer of 0 or more, not -1.",
    );
  });
});

describe.each(ERAS)("call_tool with a pass-through, %s client", (outerEra) => {
  it("forwards the upstream elicitation to the caller and its answer back", async () => {
    const passThrough = createPassThrough();
    const asking = new MCP({
      transport: "stdio",
      command: process.execPath,
      args: [askingServer],
      protocolVersion: "2026-07-28",
      handlers: passThrough.handlers,
    });
    await asking.connect();
    const server = await serveHTTP(
      gateway({ mcps: [{ mcp: asking, prefix: "up" }], passThrough, toolSearch: { threshold: 0 } }),
    );
    const asked: unknown[] = [];
    const outer = new MCP({
      transport: "http",
      url: server.url,
      protocolVersion: outerEra,
      handlers: {
        elicitation: async (request) => {
          asked.push(request);
          return { action: "accept", content: { name: "Ada" } };
        },
      },
    });
    await outer.connect();
    try {
      expect((await outer.listServerTools()).map((t) => t.name)).toEqual(["search_tools", "call_tool"]);
      expect(await outer.callTool("call_tool", { name: "up_ask_name" })).toEqual({
        content: [{ type: "text", text: "Hello, Ada!" }],
        isError: false,
      });
      expect(asked).toEqual([
        {
          mode: "form",
          message: "What is your name?",
          requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
        },
      ]);
    } finally {
      await outer.close();
      await server.close();
      await asking.close();
    }
  });
});
