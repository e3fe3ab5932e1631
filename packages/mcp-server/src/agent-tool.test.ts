import { Agent, tool } from "@junction/core";
import { scriptedModel } from "@junction/core/testing";
import { MCP } from "@junction/mcp-client";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { PNG } from "../test/fixture-server.js";
import { agentTool } from "./agent-tool.js";
import { createMCPServer } from "./mcp-server.js";
import { type RunningHTTPServer, serveHTTP } from "./node.js";

const running: RunningHTTPServer[] = [];
const clients: MCP[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((mcp) => mcp.close()));
  await Promise.all(running.splice(0).map((server) => server.close()));
});

const snapshot = tool({
  name: "snapshot",
  description: "Takes a picture",
  schema: z.object({ subject: z.string() }),
  execute: async ({ subject }) => [
    { type: "text", text: `a picture of ${subject}` },
    { type: "image", data: PNG, mimeType: "image/png" },
  ],
});

async function serve(agent: Agent | (() => Agent), protocolVersion: "2026-07-28" | "2025-11-25") {
  const server = await serveHTTP(
    createMCPServer({
      name: "agents",
      version: "1.0.0",
      tools: [agentTool(agent, { name: "ask_painter", description: "Asks the painter agent" })],
    }),
  );
  running.push(server);
  const mcp = new MCP({ transport: "http", url: server.url, protocolVersion });
  clients.push(mcp);
  await mcp.connect();
  return mcp;
}

describe.each(["2026-07-28", "2025-11-25"] as const)("an agent served as a tool, %s", (protocolVersion) => {
  it("takes { request }, answers with the agent's text and its tools' images, reporting progress", async () => {
    const provider = scriptedModel([
      { toolCalls: [{ name: "snapshot", input: { subject: "a cat" } }] },
      { text: "Here is the cat." },
    ]);
    const agent = new Agent({ provider, model: "scripted", tools: [snapshot] });
    const mcp = await serve(agent, protocolVersion);
    const [listed] = await mcp.listServerTools();
    expect(listed).toMatchObject({
      name: "ask_painter",
      description: "Asks the painter agent",
      inputSchema: { type: "object", properties: { request: { type: "string" } }, required: ["request"] },
    });
    const reports: unknown[] = [];
    const result = await mcp.callTool(
      "ask_painter",
      { request: "Paint me a cat" },
      { onProgress: (report) => reports.push(report) },
    );
    expect(result).toEqual({
      content: [
        { type: "text", text: "Here is the cat." },
        { type: "image", data: PNG, mimeType: "image/png" },
      ],
      isError: false,
    });
    expect(reports).toEqual([
      { progress: 1, message: 'Calling tool "snapshot"' },
      { progress: 2, message: "Step 1 done" },
      { progress: 3, message: "Step 2 done" },
    ]);
    expect(provider.requests[0]?.messages).toEqual([{ role: "user", content: "Paint me a cat" }]);
  });

  it("aborts the run, and the tool it is running, when the client cancels", async () => {
    let aborted!: (reason: unknown) => void;
    const toolAborted = new Promise((resolve) => {
      aborted = resolve;
    });
    const hang = tool({
      name: "hang",
      description: "Waits until aborted",
      schema: z.object({}),
      execute: (_input, context) =>
        new Promise((_resolve, reject) => {
          context?.signal?.addEventListener("abort", () => {
            aborted(context.signal?.reason);
            reject(context.signal?.reason);
          });
        }),
    });
    const provider = scriptedModel([{ toolCalls: [{ name: "hang" }] }, { text: "never" }]);
    const mcp = await serve(() => new Agent({ provider, model: "scripted", tools: [hang] }), protocolVersion);
    const controller = new AbortController();
    const reports: unknown[] = [];
    const call = mcp.callTool(
      "ask_painter",
      { request: "Wait" },
      {
        signal: controller.signal,
        onProgress: (report) => {
          reports.push(report);
          controller.abort();
        },
      },
    );
    await expect(call).rejects.toMatchObject({ code: "aborted" });
    await expect(toolAborted).resolves.toBeDefined();
    expect(reports).toEqual([{ progress: 1, message: 'Calling tool "hang"' }]);
    expect(provider.remaining).toBe(1);
  });
});

it("runs one Agent's calls one at a time, each in a fresh conversation", async () => {
  const provider = scriptedModel([{ text: "first" }, { text: "second" }]);
  const agent = new Agent({ provider, model: "scripted" });
  const mcp = await serve(agent, "2026-07-28");
  const [first, second] = await Promise.all([
    mcp.callTool("ask_painter", { request: "one" }),
    mcp.callTool("ask_painter", { request: "two" }),
  ]);
  expect([first.content, second.content]).toEqual([
    [{ type: "text", text: "first" }],
    [{ type: "text", text: "second" }],
  ]);
  expect(provider.requests.map((request) => request.messages)).toEqual([
    [{ role: "user", content: "one" }],
    [{ role: "user", content: "two" }],
  ]);
});
