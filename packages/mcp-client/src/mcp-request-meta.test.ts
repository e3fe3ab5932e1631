import { afterEach, describe, expect, it } from "vitest";
import { MCP } from "./mcp.js";
import type { MCPConfig } from "./mcp-config.js";
import type { MCPOutgoingRequest, MCPWireMessage } from "./message-tap.js";
import { everythingEntry } from "./test-support.js";

const TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

/** server-everything over stdio with `requestMeta`, keeping every message the client sent in `sent`. */
function everythingWithMeta(sent: MCPWireMessage[], requestMeta: MCPConfig["requestMeta"]): MCP {
  return new MCP({
    transport: "stdio",
    command: process.execPath,
    args: [everythingEntry, "stdio"],
    onMessage: (message) => {
      if (message.direction === "out") sent.push(message);
    },
    requestMeta,
  });
}

describe("requestMeta", () => {
  let mcp: MCP | undefined;

  afterEach(async () => {
    await mcp?.close();
    mcp = undefined;
  });

  it("adds its fields under params._meta of every request and notification sent, beside the client's own keys", async () => {
    const asked: MCPOutgoingRequest[] = [];
    const sent: MCPWireMessage[] = [];
    mcp = everythingWithMeta(sent, (request) => {
      asked.push(request);
      return { traceparent: TRACEPARENT, tracestate: "junction=1", progressToken: "not-mine" };
    });
    await mcp.connect();
    await mcp.callTool(
      "trigger-long-running-operation",
      { duration: 0.1, steps: 1 },
      { onProgress: () => undefined },
    );
    const methods = sent.map(({ message }) => ("method" in message ? message.method : "response"));
    expect(methods).toContain("initialize");
    expect(methods).toContain("notifications/initialized");
    expect(methods).toContain("tools/call");
    for (const { message } of sent) {
      if (!("method" in message)) continue;
      expect(message.params?._meta).toMatchObject({ traceparent: TRACEPARENT, tracestate: "junction=1" });
    }
    const call = sent.find(({ message }) => "method" in message && message.method === "tools/call")!
      .message as unknown as {
      id: number;
      params: { name: string; _meta: Record<string, unknown> };
    };
    // The client's progress token wins over a hook's key of the same name.
    expect(typeof call.params._meta.progressToken).toBe("number");
    expect(call.params.name).toBe("trigger-long-running-operation");
    expect(asked.find((request) => request.method === "tools/call")).toMatchObject({
      id: call.id,
      params: { name: "trigger-long-running-operation" },
    });
    expect(asked.find((request) => request.method === "notifications/initialized")?.id).toBeUndefined();
  });

  it("sends the request unchanged when the hook throws", async () => {
    const sent: MCPWireMessage[] = [];
    mcp = everythingWithMeta(sent, () => {
      throw new TypeError("broken hook");
    });
    await mcp.connect();
    const tools = await mcp.listTools();
    expect(tools.length).toBeGreaterThan(0);
    const list = sent.find(({ message }) => "method" in message && message.method === "tools/list")!
      .message as unknown as {
      params?: { _meta?: Record<string, unknown> };
    };
    expect(list.params?._meta?.traceparent).toBeUndefined();
  });
});
