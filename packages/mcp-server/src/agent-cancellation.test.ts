import { fileURLToPath } from "node:url";
import { Agent } from "@junction/core";
import { scriptedModel } from "@junction/core/testing";
import { MCP } from "@junction/mcp-client";
import { afterEach, describe, expect, it, vi } from "vitest";
import { agentTool } from "./agent-tool.js";
import { createMCPServer } from "./mcp-server.js";
import { serveHTTP } from "./node.js";
import { createPassThrough } from "./pass-through.js";

// Cancellation reaches an agent's MCP tool call in flight: the outer client cancels its call (or
// the task of it), the served agent's run is aborted, and the upstream server (SDK only, over
// stdio: test-servers/asking-server.mjs) sees its own tool's signal abort.

const askingServer = fileURLToPath(new URL("../test-servers/asking-server.mjs", import.meta.url));

const closing: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of closing.splice(0).reverse()) await item.close();
});

async function serveWaitingAgent(options: { tasks?: boolean; passThrough?: boolean }) {
  const stderr: string[] = [];
  const passThrough = createPassThrough();
  const asking = new MCP({
    transport: "stdio",
    command: process.execPath,
    args: [askingServer],
    onStderr: (chunk) => stderr.push(chunk),
    ...(options.passThrough ? { handlers: passThrough.handlers } : {}),
  });
  closing.push(asking);
  await asking.connect();
  const provider = scriptedModel([
    { toolCalls: [{ id: "c1", name: "wait", input: { label: "inner" } }] },
    { text: "unreachable" },
  ]);
  const agent = new Agent({ provider, model: "scripted", mcps: [asking] });
  const server = await serveHTTP(
    createMCPServer({
      name: "agents",
      version: "1.0.0",
      ...(options.tasks ? { tasks: {} } : {}),
      ...(options.passThrough ? { passThrough } : {}),
      tools: [agentTool(agent, { name: "ask_waiter", description: "Asks the waiting agent" })],
    }),
  );
  closing.push(server);
  return { url: server.url, stderr: () => stderr.join("") };
}

describe.each([
  ["2026-07-28", { passThrough: false }],
  ["2025-11-25", { passThrough: false }],
  ["2026-07-28", { passThrough: true }],
  ["2025-11-25", { passThrough: true }],
  ["2026-07-28", { tasks: true }],
] as const)("an agent's MCP tool call, outer call on %s %o", (protocolVersion, options) => {
  it("is cancelled upstream when the outer call is cancelled", async () => {
    const served = await serveWaitingAgent(options);
    const outer = new MCP({ transport: "http", url: served.url, protocolVersion });
    closing.push(outer);
    await outer.connect();
    const controller = new AbortController();
    const call = outer.callTool("ask_waiter", { request: "Wait" }, { signal: controller.signal });
    // Cancelled once the upstream tool runs (a loaded machine can take longer than any fixed delay).
    await vi.waitFor(() => expect(served.stderr()).toContain("wait started inner"), { timeout: 10_000 });
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: "aborted" });
    await vi.waitFor(() => expect(served.stderr()).toContain("wait aborted inner"), { timeout: 10_000 });
  });
});
