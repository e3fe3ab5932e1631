import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { MCP } from "@junction/mcp-client";
import type { Tool, ToolResult } from "@junction/types";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "./agent-events.js";
import { Agent } from "./index.js";
import { scriptedModel } from "./testing/index.js";

// Issue 17, items 6 and 7: with default options, one hostile server over real stdio must not
// make every model request huge (100,000 tools, a 20 MB description) nor put a 30 MB image in
// front of the model; what was left out is said in a warning naming the tool and the limit.

const oversizeServer = join(dirname(fileURLToPath(import.meta.url)), "../test-servers/oversize-server.mjs");

const connections: MCP[] = [];
afterEach(async () => {
  await Promise.all(connections.splice(0).map((mcp) => mcp.close()));
});

async function hostile(mode: "many-tools" | "huge-description" | "huge-image"): Promise<MCP> {
  const mcp = new MCP({ transport: "stdio", command: process.execPath, args: [oversizeServer, mode] });
  connections.push(mcp);
  await mcp.connect();
  return mcp;
}

async function smallServer(): Promise<MCP> {
  const server = new McpServer({ name: "notes", version: "1.0.0" });
  for (const name of ["add_note", "list_notes", "delete_note"]) {
    server.registerTool(name, { description: `Does ${name}`, inputSchema: {} }, async () => ({
      content: [{ type: "text", text: `${name} done` }],
    }));
  }
  const mcp = new MCP({ transport: "memory", server });
  connections.push(mcp);
  await mcp.connect();
  return mcp;
}

const clock: Tool = {
  name: "clock",
  description: "Tells the time",
  inputSchema: { type: "object" },
  execute: async () => "noon",
};

async function run(agent: Agent, input: string): Promise<{ events: AgentEvent[]; final: unknown }> {
  const handle = agent.send(input);
  const events: AgentEvent[] = [];
  for await (const event of handle) events.push(event);
  return { events, final: await handle.final };
}

describe("a server listing 100,000 tools", () => {
  it("each request offers 256 tools, local ones first and a fair share for the other source, with one warning naming the tools left out", async () => {
    const flood = await hostile("many-tools");
    const notes = await smallServer();
    const provider = scriptedModel([
      { toolCalls: [{ id: "dropped", name: "flood_tool_99999" }] },
      { toolCalls: [{ id: "kept", name: "notes_add_note" }] },
      { text: "Done." },
      { text: "Again." },
    ]);
    const agent = new Agent({
      provider,
      model: "m",
      tools: [clock],
      mcps: [
        { mcp: flood, prefix: "flood" },
        { mcp: notes, prefix: "notes" },
      ],
      // The safety floor on its own: with the tool search on, these would be deferred behind it.
      toolSearch: { mode: "off" },
    });
    const first = await agent.send("go").final;
    const second = await agent.send("again").final;

    expect(provider.requests).toHaveLength(4);
    for (const request of provider.requests) {
      const names = request.tools!.map((t) => t.name);
      expect(names).toHaveLength(256);
      expect(names.slice(0, 1)).toEqual(["clock"]);
      expect(names.slice(1, 253)).toEqual(Array.from({ length: 252 }, (_, index) => `flood_tool_${index}`));
      expect(names.slice(253)).toEqual(["notes_add_note", "notes_list_notes", "notes_delete_note"]);
      // 33 MB before; now the whole request (tools and all) is a few tens of kilobytes.
      expect(JSON.stringify(request).length).toBeLessThan(60_000);
    }
    // A tool left out cannot be called either: the model gets "not found", the kept one runs.
    expect(first.steps[0]!.toolResults[0]!.output).toMatchObject({ isError: true });
    expect(JSON.stringify(first.steps[0]!.toolResults[0]!.output)).toContain("flood_tool_99999");
    expect(first.steps[1]!.toolResults[0]!.output).toEqual({
      content: [{ type: "text", text: "add_note done" }],
      isError: false,
    });
    // Once per agent: not on every step, not on the next send().
    expect(first.warnings.filter((w) => w.code === "tool-list-truncated")).toEqual([
      {
        code: "tool-list-truncated",
        message:
          'MCP source "oversize-many-tools" (prefix "flood") listed 100000 tools; with toolLimits.maxTools (256) shared among the sources, ' +
          'the model is offered its first 252. Left out: "flood_tool_252", "flood_tool_253", "flood_tool_254", "flood_tool_255", ' +
          '"flood_tool_256", "flood_tool_257", "flood_tool_258", "flood_tool_259", "flood_tool_260", "flood_tool_261" and 99738 more.',
      },
    ]);
    expect(second.warnings).toEqual([]);
  }, 60_000);

  it("toolLimits.maxTools changes the cap; a bad value is refused with a clear error", async () => {
    const flood = await hostile("many-tools");
    const provider = scriptedModel([{ text: "ok" }]);
    const agent = new Agent({
      provider,
      model: "m",
      mcps: [flood],
      toolLimits: { maxTools: 10 },
      toolSearch: { mode: "off" },
    });
    const result = await agent.send("go").final;
    expect(provider.requests[0]!.tools!.map((t) => t.name)).toEqual(
      Array.from({ length: 10 }, (_, index) => `tool_${index}`),
    );
    expect(result.warnings.map((w) => w.code)).toEqual(["tool-list-truncated"]);
    expect(() => new Agent({ provider, model: "m", toolLimits: { maxTools: 0 } })).toThrow(
      "new Agent(): `toolLimits.maxTools` must be a positive integer (or Infinity for no limit), got 0.",
    );
  }, 60_000);
});

describe("a server listing 100,000 tools, with the tool search on (the default)", () => {
  it("the first request offers only the search; every tool is searchable and a found one is called", async () => {
    const flood = await hostile("many-tools");
    const provider = scriptedModel([
      { toolCalls: [{ id: "s", name: "search_tools", input: { query: "tool_99999", limit: 1 } }] },
      { toolCalls: [{ id: "c", name: "tool_99999" }] },
      { text: "Done." },
    ]);
    const agent = new Agent({ provider, model: "m", mcps: [flood] });
    const result = await agent.send("go").final;
    expect(provider.requests[0]!.tools!.map((t) => t.name)).toEqual(["search_tools"]);
    expect(provider.requests[1]!.tools!.map((t) => t.name)).toEqual(["tool_99999", "search_tools"]);
    expect(result.steps[1]!.toolResults[0]!.output).toMatchObject({ isError: false });
    const deferred = result.warnings.filter((w) => w.code === "tools-deferred");
    expect(deferred).toHaveLength(1);
    expect(deferred[0]!.message).toMatch(/^100000 of 100000 tools were deferred/);
    expect(result.warnings.map((w) => w.code)).not.toContain("tool-list-truncated");
  }, 60_000);
});

describe("a tool with a 20 MB description", () => {
  it("is offered with its description cut to 10,000 characters and a warning naming it, once per agent", async () => {
    const bloated = await hostile("huge-description");
    const provider = scriptedModel([
      { toolCalls: [{ id: "e", name: "echo" }] },
      { text: "ok" },
      { text: "ok" },
    ]);
    const agent = new Agent({ provider, model: "m", mcps: [bloated] });
    const { events } = await run(agent, "go");
    const second = await agent.send("again").final;

    for (const request of provider.requests) {
      expect(request.tools).toEqual([
        {
          name: "bloated",
          description: `${"A".repeat(10_000)}… [cut by Junction]`,
          inputSchema: { type: "object", properties: { query: { type: "string" } } },
        },
        {
          name: "echo",
          description: "Echoes the query.",
          inputSchema: { type: "object", properties: { query: { type: "string" } } },
        },
      ]);
      expect(JSON.stringify(request).length).toBeLessThan(12_000);
    }
    expect(events.filter((event) => event.type === "warning")).toEqual([
      {
        type: "warning",
        warning: {
          code: "tool-description-cut",
          message:
            'The description of tool "bloated" from MCP source "oversize-huge-description" has 20971520 characters, over toolLimits.maxDescriptionChars (10000); it was cut to that length.',
        },
      },
    ]);
    expect(second.warnings).toEqual([]);
  }, 60_000);

  it("toolLimits.maxDescriptionChars sets the cut", async () => {
    const bloated = await hostile("huge-description");
    const provider = scriptedModel([{ text: "ok" }]);
    await new Agent({ provider, model: "m", mcps: [bloated], toolLimits: { maxDescriptionChars: 5 } }).send(
      "go",
    ).final;
    expect(provider.requests[0]!.tools!.map((t) => t.description)).toEqual([
      "AAAAA… [cut by Junction]",
      "Echoe… [cut by Junction]",
    ]);
  }, 60_000);
});

describe("a tool returning a 30 MB image", () => {
  const thirtyMiB = 30 * 1024 * 1024;

  it("the model gets a note instead (the provider's declared limit); code, UI and the history keep the image", async () => {
    const screen = await hostile("huge-image");
    const provider = scriptedModel({
      responses: [
        { toolCalls: [{ id: "shot", name: "screenshot" }] },
        { text: "Too big to see." },
        { text: "ok" },
      ],
      capabilities: { mediaLimits: { maxImageBytes: 3_932_160 } },
    });
    const agent = new Agent({ provider, model: "m", mcps: [screen] });
    const { events, final } = await run(agent, "look");
    const second = await agent.send("and now?").final;

    const note =
      "[The tool returned an image (image/png) of 31457280 bytes, over the 3932160-byte limit for one image sent to this model, " +
      "so Junction left it out here; the application still has it. If you need to see it, ask the tool for a smaller one.]";
    const modelFacing = {
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "shot",
          toolName: "screenshot",
          output: {
            content: [
              { type: "text", text: "Here is the screen." },
              { type: "text", text: note },
            ],
            isError: false,
          },
        },
      ],
    };
    expect(provider.requests[1]!.messages.at(-1)).toEqual(modelFacing);
    // The next send() still shows the model the note, never the image.
    expect(provider.requests[2]!.messages[2]).toEqual(modelFacing);
    for (const request of provider.requests) expect(JSON.stringify(request).length).toBeLessThan(5_000);

    // The raw result: in the tool-result event and in the conversation.
    const toolResult = events.find((event) => event.type === "tool-result") as { result: ToolResult };
    const image = toolResult.result.content[1] as { type: string; data: string; mimeType: string };
    expect([image.type, image.mimeType, image.data.length]).toEqual([
      "image",
      "image/png",
      (thirtyMiB * 4) / 3,
    ]);
    const history = (final as { messages: { role: string; content: unknown }[] }).messages;
    expect(history[2]!.content).toEqual([
      { type: "tool-result", toolCallId: "shot", toolName: "screenshot", output: toolResult.result },
    ]);
    expect(agent.messages[2]).toEqual(history[2]);

    expect(events.filter((event) => event.type === "warning")).toEqual([
      {
        type: "warning",
        warning: {
          code: "tool-result-media-too-large",
          message:
            'Tool "screenshot" (call shot) returned an image (image/png) of 31457280 bytes, over 3932160 bytes, the limit provider "scripted" declares for model "m"; ' +
            "the model got a note instead. The full result stays in the conversation and the tool-result event.",
        },
      },
    ]);
    expect(second.warnings).toEqual([]);
  }, 60_000);

  it("a user's own image over the limit: the model gets a note and the run goes on; agent.messages keeps the image", async () => {
    const provider = scriptedModel({
      capabilities: { mediaLimits: { maxImageBytes: 1_000_000 } },
      responses: [{ text: "It is too large for me." }],
    });
    const agent = new Agent({ provider, model: "m" });
    const image = { type: "image" as const, data: "A".repeat(4_000_000), mimeType: "image/png" };
    const result = await agent.send([{ type: "text", text: "What is this?" }, image]).final;
    expect(result.text).toBe("It is too large for me.");
    const sent = provider.requests[0]!.messages[0]!.content as { type: string; text?: string }[];
    expect(sent.map((part) => part.type)).toEqual(["text", "text"]);
    expect(sent[1]!.text).toMatch(
      /^\[The user's message had an image \(image\/png\) of 3000000 bytes, over the 1000000-byte limit/,
    );
    expect(JSON.stringify(provider.requests[0]).length).toBeLessThan(10_000);
    expect(result.warnings.map((warning) => warning.code)).toEqual(["user-media-too-large"]);
    expect((agent.messages[0]!.content as unknown[])[1]).toEqual(image);
  });

  it("a provider that declares no limit gets the 5 MiB default", async () => {
    const screen = await hostile("huge-image");
    const provider = scriptedModel([{ toolCalls: [{ id: "shot", name: "screenshot" }] }, { text: "ok" }]);
    const result = await new Agent({ provider, model: "m", mcps: [screen] }).send("look").final;
    const output = provider.requests[1]!.messages.at(-1)!.content[0] as { output: ToolResult };
    expect(output.output.content.map((part) => part.type)).toEqual(["text", "text"]);
    expect(result.warnings.map((w) => w.message)).toEqual([
      'Tool "screenshot" (call shot) returned an image (image/png) of 31457280 bytes, over 5242880 bytes, the default limit ' +
        '(provider "scripted" declares none for model "m"); the model got a note instead. The full result stays in the conversation and the tool-result event.',
    ]);
  }, 60_000);
});
