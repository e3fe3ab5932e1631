import { JunctionError } from "@junction/types";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  CallToolRequestSchema,
  ListPromptsRequestSchema,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { testServer } from "../test/test-support.js";
import { MCP } from "./mcp.js";

const open: MCP[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((mcp) => mcp.close()));
});
async function connect(server: McpServer | Server, name?: string): Promise<MCP> {
  const mcp = new MCP({ transport: "memory", server, ...(name ? { name } : {}) });
  open.push(mcp);
  await mcp.connect();
  return mcp;
}
async function caught(promise: Promise<unknown>): Promise<JunctionError> {
  try {
    await promise;
  } catch (error) {
    if (JunctionError.isInstance(error)) return error;
    throw error;
  }
  throw new JunctionError("invalid-argument", "expected a rejection");
}

/** A low-level server whose tools/list and tools/call answers the test writes by hand. */
function rawServer(options: {
  pages?: (cursor: string | undefined) => { tools: unknown[]; nextCursor?: string };
  call?: (name: string) => unknown;
}): Server {
  const server = new Server({ name: "raw", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async (request) => {
    const page = options.pages?.(request.params?.cursor) ?? { tools: [] };
    return page as never;
  });
  server.setRequestHandler(
    CallToolRequestSchema,
    async (request) => options.call?.(request.params.name) as never,
  );
  return server;
}
const tool = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  inputSchema: { type: "object", properties: {} },
  ...extra,
});

describe("tools, lists and results (in-process servers)", () => {
  it("connects an in-process McpServer and calls its tools", async () => {
    const server = new McpServer({ name: "in-process", version: "3.1.4" });
    server.registerTool(
      "add",
      { description: "Adds", inputSchema: { a: z.number(), b: z.number() } },
      async ({ a, b }) => ({
        content: [{ type: "text", text: String(a + b) }],
      }),
    );
    const mcp = await connect(server);
    expect(mcp.name).toBe("in-process");
    expect(mcp.serverInfo).toEqual({ name: "in-process", version: "3.1.4" });
    expect(await mcp.callTool("add", { a: 2, b: 3 })).toEqual({
      content: [{ type: "text", text: "5" }],
      isError: false,
    });
  });

  it("a server's tool error is a result with isError, not a throw", async () => {
    const server = new McpServer({ name: "errors", version: "1.0.0" });
    server.registerTool("fail", { description: "Fails" }, async () => {
      throw new TypeError("disk full");
    });
    server.registerTool("soft-fail", { description: "Reports failure" }, async () => ({
      content: [{ type: "text", text: "no such file" }],
      isError: true,
    }));
    const mcp = await connect(server);
    expect(await mcp.callTool("soft-fail")).toEqual({
      content: [{ type: "text", text: "no such file" }],
      isError: true,
    });
    const failed = await mcp.callTool("fail");
    expect(failed.isError).toBe(true);
    expect(failed.content).toEqual([{ type: "text", text: "disk full" }]);
    // A JSON-RPC error answer (here: unknown tool) also becomes an error result the model can read.
    const unknown = await mcp.callTool("nope");
    expect(unknown.isError).toBe(true);
    expect(unknown.content[0]).toMatchObject({ type: "text", text: expect.stringContaining("nope") });
  });

  it("follows nextCursor to the end of every list", async () => {
    const pages: Record<string, { tools: unknown[]; nextCursor?: string }> = {
      start: { tools: [tool("a"), tool("b")], nextCursor: "page-2" },
      "page-2": { tools: [tool("c")], nextCursor: "page-3" },
      "page-3": { tools: [tool("d")] },
    };
    const seen: (string | undefined)[] = [];
    const mcp = await connect(
      rawServer({
        pages: (cursor) => {
          seen.push(cursor);
          return pages[cursor ?? "start"] ?? { tools: [] };
        },
      }),
    );
    expect((await mcp.listTools()).map((t) => t.name)).toEqual(["a", "b", "c", "d"]);
    expect(seen).toEqual([undefined, "page-2", "page-3"]);
    // Cached: a second listTools makes no request.
    await mcp.listTools({ prefix: "p" });
    expect(seen).toHaveLength(3);
    await mcp.refreshTools();
    expect(seen).toHaveLength(6);
  });

  it("stops a server that returns the same cursor forever, with a clear error", async () => {
    let requests = 0;
    const mcp = await connect(
      rawServer({
        pages: () => {
          requests++;
          return { tools: [tool(`t${requests}`)], nextCursor: "again" };
        },
      }),
      "loopy",
    );
    const error = await caught(mcp.listTools());
    expect(error.code).toBe("mcp-invalid-response");
    expect(error.message).toBe(
      'tools/list from MCP server "loopy": the server returned cursor "again" a second time (after 2 pages); stopped to avoid an endless loop',
    );
    expect(requests).toBe(2);
  });

  it("turns unknown or malformed content blocks into text notes, keeping the rest", async () => {
    // The SDK's own server validates what it sends, so this server is a hand-written one over stdio.
    const mcp = new MCP({
      transport: "stdio",
      command: process.execPath,
      args: [testServer("raw-server.mjs")],
      name: "odd",
      env: {
        RAW_TOOL_RESULT: JSON.stringify({
          content: [
            { type: "text", text: "fine" },
            { type: "video", url: "https://example.com/v.mp4" },
            { type: "image", data: 42 },
            "just a string",
            { type: "audio", data: "UklGRg==", mimeType: "audio/wav" },
            { type: "resource", resource: { uri: "file:///a.txt", text: "A" } },
          ],
          structuredContent: [1, 2],
        }),
      },
    });
    open.push(mcp);
    await mcp.connect();
    const result = await mcp.callTool("anything");
    expect(result).toEqual({
      isError: false,
      content: [
        { type: "text", text: "fine" },
        {
          type: "text",
          text: '[MCP server "odd" sent content block 1 of unsupported type "video": {"type":"video","url":"https://example.com/v.mp4"}]',
        },
        {
          type: "text",
          text: '[MCP server "odd" sent content block 2 of type "image" without string data and mimeType]',
        },
        { type: "text", text: '[MCP server "odd" sent content block 3 that is not an object]' },
        { type: "audio", data: "UklGRg==", mimeType: "audio/wav" },
        { type: "resource", resource: { uri: "file:///a.txt", text: "A" } },
        { type: "text", text: '[MCP server "odd" sent structuredContent that is not an object: [1,2]]' },
      ],
    });
  });

  it("checks structuredContent against the tool's outputSchema", async () => {
    const mcp = await connect(
      rawServer({
        pages: () => ({
          tools: [
            tool("weather", {
              outputSchema: {
                type: "object",
                properties: { celsius: { type: "number" } },
                required: ["celsius"],
              },
            }),
          ],
        }),
        call: () => ({ content: [{ type: "text", text: "warm" }], structuredContent: { celsius: "warm" } }),
      }),
      "typed",
    );
    const result = await mcp.callTool("weather");
    expect(result.isError).toBe(true);
    expect(result.content[0]).toEqual({ type: "text", text: "warm" });
    expect(result.content[1]).toMatchObject({
      type: "text",
      text: expect.stringMatching(
        /^\[MCP server "typed": tool "weather" returned structuredContent that does not match its outputSchema: .*celsius/,
      ),
    });
  });

  it("refreshes the cache on tools/list_changed and tells onToolsChanged listeners", async () => {
    const server = new McpServer({ name: "growing", version: "1.0.0" });
    server.registerTool("first", { description: "1" }, async () => ({ content: [] }));
    const mcp = await connect(server);
    expect((await mcp.listTools()).map((t) => t.name)).toEqual(["first"]);
    const listener = vi.fn();
    const unsubscribe = mcp.onToolsChanged(listener);
    server.registerTool("second", { description: "2" }, async () => ({ content: [] }));
    await vi.waitFor(() => expect(listener).toHaveBeenCalledTimes(1));
    expect((await mcp.listTools()).map((t) => t.name)).toEqual(["first", "second"]);
    unsubscribe();
    server.registerTool("third", { description: "3" }, async () => ({ content: [] }));
    await vi.waitFor(async () => expect((await mcp.listTools()).map((t) => t.name)).toContain("third"));
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it("returns empty lists for features the server does not offer, and rejects setRoots without roots", async () => {
    const mcp = await connect(rawServer({}), "bare");
    expect(await mcp.listPrompts()).toEqual([]);
    expect(await mcp.listResources()).toEqual([]);
    const error = await caught(mcp.setRoots([{ uri: "file:///x" }]));
    expect(error.code).toBe("mcp-capability-missing");
  });

  it("has no tools when the server does not offer them", async () => {
    const server = new Server({ name: "prompts-only", version: "1.0.0" }, { capabilities: { prompts: {} } });
    const mcp = await connect(server);
    expect(await mcp.listTools()).toEqual([]);
  });

  it("follows cursors for prompts too", async () => {
    const server = new Server({ name: "prompts", version: "1.0.0" }, { capabilities: { prompts: {} } });
    server.setRequestHandler(ListPromptsRequestSchema, async (request) =>
      request.params?.cursor
        ? { prompts: [{ name: "two" }] }
        : { prompts: [{ name: "one" }], nextCursor: "next" },
    );
    const mcp = await connect(server);
    expect((await mcp.listPrompts()).map((prompt) => prompt.name)).toEqual(["one", "two"]);
  });

  it("advertises sampling and elicitation only when handlers are given", async () => {
    const capabilitiesSeen: unknown[] = [];
    for (const handlers of [
      {},
      {
        sampling: async () => ({
          model: "m",
          role: "assistant" as const,
          content: { type: "text" as const, text: "" },
        }),
        elicitation: async () => ({ action: "decline" as const }),
      },
    ]) {
      const server = new McpServer({ name: "caps", version: "1.0.0" });
      server.server.oninitialized = () => capabilitiesSeen.push(server.server.getClientCapabilities());
      const mcp = new MCP({ transport: "memory", server, handlers });
      open.push(mcp);
      await mcp.connect();
    }
    expect(capabilitiesSeen).toEqual([{}, { sampling: {}, elicitation: { form: { applyDefaults: true } } }]);
  });

  it("advertises the extensions it is given and lists tools as the server sent them, _meta included", async () => {
    const server = new McpServer({ name: "apps", version: "1.0.0" });
    let seen: unknown;
    server.server.oninitialized = () => {
      seen = server.server.getClientCapabilities();
    };
    server.registerTool(
      "show",
      { description: "Shows a view.", _meta: { ui: { resourceUri: "ui://apps/view.html" } } },
      async () => ({ content: [{ type: "text", text: "shown" }] }),
    );
    const ui = { mimeTypes: ["text/html;profile=mcp-app"] };
    const mcp = new MCP({ transport: "memory", server, extensions: { "io.modelcontextprotocol/ui": ui } });
    open.push(mcp);
    await mcp.connect();
    expect(seen).toEqual({ extensions: { "io.modelcontextprotocol/ui": ui } });
    const tools = await mcp.listServerTools();
    expect(tools.map((tool) => [tool.name, tool._meta])).toEqual([
      ["show", { ui: { resourceUri: "ui://apps/view.html" } }],
    ]);
    expect((await mcp.listToolDefinitions())[0]).not.toHaveProperty("_meta");
  });

  it("refuses extensions that are not an object of objects", async () => {
    const server = new McpServer({ name: "apps", version: "1.0.0" });
    const error = await caught(
      Promise.resolve().then(
        () => new MCP({ transport: "memory", server, extensions: { ui: "yes" } as never }),
      ),
    );
    expect(error.code).toBe("mcp-config-invalid");
    expect(error.message).toContain("`extensions` must be an object of objects");
  });
});

describe("output schemas of a long tool list", () => {
  it("are compiled at a tool's first result, not when the list arrives", async () => {
    const server = new McpServer({ name: "many", version: "1.0.0" });
    for (let index = 0; index < 20; index++) {
      server.registerTool(
        `tool_${index}`,
        { inputSchema: { n: z.number() }, outputSchema: { double: z.number() } },
        async ({ n }) => ({
          content: [{ type: "text", text: String(2 * n) }],
          structuredContent: { double: 2 * n },
        }),
      );
    }
    const mcp = await connect(server);
    const compiled: unknown[] = [];
    const validator = (
      mcp as unknown as { tools: { context: { validator: { getValidator(schema: unknown): unknown } } } }
    ).tools.context.validator;
    const getValidator = validator.getValidator.bind(validator);
    validator.getValidator = (schema) => {
      compiled.push(schema);
      return getValidator(schema);
    };
    const tools = await mcp.listTools();
    expect(tools).toHaveLength(20);
    expect(compiled).toEqual([]);
    expect(await tools[3]!.execute({ n: 4 })).toEqual({
      content: [{ type: "text", text: "8" }],
      isError: false,
      structuredContent: { double: 8 },
    });
    expect(await mcp.callTool("tool_3", { n: 5 })).toMatchObject({
      isError: false,
      structuredContent: { double: 10 },
    });
    expect(compiled).toHaveLength(1);
  });
});
