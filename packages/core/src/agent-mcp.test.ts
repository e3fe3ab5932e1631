import { fileURLToPath } from "node:url";
import { MCP } from "@junction/mcp-client";
import type { Tool, ToolSource } from "@junction/types";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent, type AgentEvent, createSamplingHandler } from "./index.js";
import { scriptedModel } from "./testing/index.js";

// Real servers: @modelcontextprotocol/server-everything over stdio, and a small SDK server in memory.
const everythingEntry = fileURLToPath(
  import.meta.resolve("@modelcontextprotocol/server-everything/dist/index.js"),
);
const samplingProvider = scriptedModel([{ text: "Sampled answer from the bridge." }]);
let everything: MCP;

beforeAll(async () => {
  everything = new MCP({
    transport: "stdio",
    command: process.execPath,
    args: [everythingEntry, "stdio"],
    handlers: { sampling: createSamplingHandler({ provider: samplingProvider, model: "bridge-model" }) },
  });
  await everything.connect();
}, 30_000);

afterAll(async () => {
  await everything?.close();
});

describe("Agent with server-everything over stdio", () => {
  it("carries the image from get-tiny-image to the provider request", async () => {
    const provider = scriptedModel([
      { toolCalls: [{ id: "img", name: "get-tiny-image", input: {} }] },
      { text: "A tiny MCP logo." },
    ]);
    const agent = new Agent({ provider, model: "m", mcps: [everything] });
    const result = await agent.send("Show me the image").final;
    expect(result.text).toBe("A tiny MCP logo.");
    const toolMessage = provider.requests[1]!.messages[2] as { role: string; content: { output: unknown }[] };
    expect(toolMessage.role).toBe("tool");
    const output = toolMessage.content[0]!.output as {
      content: { type: string; mimeType?: string; data?: string }[];
    };
    expect(output.content.map((part) => part.type)).toEqual(["text", "image", "text"]);
    expect(output.content[1]!.mimeType).toBe("image/png");
    expect(output.content[1]!.data).toMatch(/^iVBORw0KGgo/);
    expect(provider.requests[0]!.tools!.map((t) => t.name)).toContain("get-tiny-image");
  }, 20_000);

  it("validates MCP tool arguments locally against the server's JSON Schema", async () => {
    const provider = scriptedModel([
      {
        toolCalls: [
          { id: "bad", name: "get-sum", input: { a: "one", b: 2 } },
          { id: "good", name: "get-sum", input: { a: 1, b: 2 } },
        ],
      },
      { text: "3" },
    ]);
    const result = await new Agent({ provider, model: "m", mcps: [everything] }).send("1 + 2").final;
    const [bad, good] = result.steps[0]!.toolResults;
    expect(bad!.output).toEqual({
      content: [
        {
          type: "text",
          text: 'Invalid arguments for tool "get-sum":\n✖ Invalid input: expected number, received string\n  → at a\nCall it again with arguments that match its input schema.',
        },
      ],
      isError: true,
    });
    expect(good!.output).toEqual({
      content: [{ type: "text", text: "The sum of 1 and 2 is 3." }],
      isError: false,
    });
  }, 20_000);

  it("answers the server's trigger-sampling-request through the sampling bridge", async () => {
    const provider = scriptedModel([
      {
        toolCalls: [
          { id: "s", name: "trigger-sampling-request", input: { prompt: "Say something", maxTokens: 50 } },
        ],
      },
      { text: "The server got its answer." },
    ]);
    const result = await new Agent({ provider, model: "m", mcps: [everything] }).send("sample").final;
    const output = result.steps[0]!.toolResults[0]!.output as {
      content: { text: string }[];
      isError: boolean;
    };
    expect(output.isError).toBe(false);
    expect(output.content[0]!.text).toContain('"text": "Sampled answer from the bridge."');
    expect(output.content[0]!.text).toContain('"model": "bridge-model"');
    // The bridge passed the server's request on to its provider.
    expect(samplingProvider.requests).toEqual([
      {
        model: "bridge-model",
        system: "You are a helpful test server.",
        maxTokens: 50,
        temperature: 0.7,
        messages: [
          {
            role: "user",
            content: [{ type: "text", text: "Resource trigger-sampling-request context: Say something" }],
          },
        ],
      },
    ]);
  }, 20_000);

  it("aborts an in-flight MCP call: the proxy tool gets the aborted signal and final rejects", async () => {
    const signals: AbortSignal[] = [];
    // The real MCP connection, with each proxy tool's execute observed.
    const observed: ToolSource = {
      name: "everything",
      listTools: async () =>
        (await everything.listTools()).map(
          (t): Tool => ({
            ...t,
            execute: (input, context) => {
              if (context?.signal) signals.push(context.signal);
              return t.execute(input, context);
            },
          }),
        ),
    };
    const controller = new AbortController();
    const provider = scriptedModel([
      { toolCalls: [{ name: "trigger-long-running-operation", input: { duration: 30, steps: 30 } }] },
      { text: "never" },
    ]);
    const handle = new Agent({ provider, model: "m", mcps: [observed] }).send("go", {
      signal: controller.signal,
    });
    const events: AgentEvent[] = [];
    for await (const event of handle) {
      events.push(event);
      if (event.type === "tool-call") setTimeout(() => controller.abort(), 300);
    }
    await expect(handle.final).rejects.toMatchObject({ code: "aborted" });
    expect(signals).toHaveLength(1);
    expect(signals[0]!.aborted).toBe(true);
    expect(events.map((e) => e.type)).toEqual(["tool-call", "error"]);
    // The connection is still healthy afterwards.
    const echo = await everything.callTool("echo", { message: "still here" });
    expect(echo.content).toEqual([{ type: "text", text: "Echo: still here" }]);
  }, 20_000);
});

describe("Agent with an SDK server in memory", () => {
  it("sees a tool added by tools/list_changed on the next step", async () => {
    const server = new McpServer({ name: "growing", version: "1.0.0" });
    server.registerTool("unlock", { description: "Adds the secret tool", inputSchema: {} }, async () => {
      server.registerTool(
        "secret",
        { description: "Reveals the secret", inputSchema: { word: z.string() } },
        async ({ word }) => ({ content: [{ type: "text", text: `secret: ${word}` }] }),
      );
      return { content: [{ type: "text", text: "unlocked" }] };
    });
    const mcp = new MCP({ transport: "memory", server });
    await mcp.connect();
    try {
      const provider = scriptedModel([
        { toolCalls: [{ name: "unlock" }] },
        { toolCalls: [{ name: "secret", input: { word: "open sesame" } }] },
        { text: "done" },
      ]);
      const result = await new Agent({ provider, model: "m", mcps: [mcp] }).send("x").final;
      expect(provider.requests.map((r) => r.tools!.map((t) => t.name))).toEqual([
        ["unlock"],
        ["unlock", "secret"],
        ["unlock", "secret"],
      ]);
      expect(result.steps[1]!.toolResults[0]!.output).toEqual({
        content: [{ type: "text", text: "secret: open sesame" }],
        isError: false,
      });
    } finally {
      await mcp.close();
    }
  });

  it("rejects two servers with the same tool name, naming both", async () => {
    const make = (name: string) => {
      const server = new McpServer({ name, version: "1.0.0" });
      server.registerTool("search", { description: "Searches", inputSchema: {} }, async () => ({
        content: [{ type: "text", text: name }],
      }));
      return new MCP({ transport: "memory", server });
    };
    const [a, b] = [make("docs"), make("web")];
    await Promise.all([a.connect(), b.connect()]);
    try {
      const error = await new Agent({ provider: scriptedModel([]), model: "m", mcps: [a, b] })
        .send("x")
        .final.catch((e) => e);
      expect(error.code).toBe("tool-name-collision");
      expect(error.message).toMatch(
        /^Two tools are named "search": one from MCP source "docs" and one from MCP source "web"\./,
      );
      const prefixed = scriptedModel([{ toolCalls: [{ name: "web_search" }] }, { text: "ok" }]);
      const result = await new Agent({
        provider: prefixed,
        model: "m",
        mcps: [a, { mcp: b, prefix: "web" }],
      }).send("x").final;
      expect(result.steps[0]!.toolResults[0]!.output).toEqual({
        content: [{ type: "text", text: "web" }],
        isError: false,
      });
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
