import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { afterEach, describe, expect, it } from "vitest";
import { MCP } from "./mcp.js";
import type { MCPConfig } from "./mcp-config.js";
import type { MCPOutgoingRequest, MCPWireMessage } from "./message-tap.js";

const TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

const open: MCP[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((mcp) => mcp.close()));
});

/** An in-process server whose `meta` tool answers with the `_meta` it received, and the client's sent messages. */
async function metaServer(requestMeta: MCPConfig["requestMeta"]) {
  const server = new McpServer({ name: "meta", version: "1.0.0" });
  server.registerTool("meta", { description: "Returns the request's _meta" }, async (extra) => ({
    content: [{ type: "text", text: JSON.stringify(extra._meta ?? null) }],
  }));
  const sent: MCPWireMessage[] = [];
  const mcp = new MCP({
    transport: "memory",
    server,
    onMessage: (message) => {
      if (message.direction === "out") sent.push(message);
    },
    requestMeta,
  });
  open.push(mcp);
  await mcp.connect();
  return { mcp, sent };
}

function receivedMeta(result: { content: { type: string; text?: string }[] }): Record<string, unknown> {
  const part = result.content[0];
  return JSON.parse(part?.type === "text" ? (part.text ?? "null") : "null");
}

describe("requestMeta", () => {
  it("adds its fields under params._meta of every request and notification, beside the client's own keys", async () => {
    const asked: MCPOutgoingRequest[] = [];
    const { mcp, sent } = await metaServer((request) => {
      asked.push(request);
      return { traceparent: TRACEPARENT, tracestate: "junction=1", progressToken: "not-mine" };
    });
    const result = await mcp.callTool("meta", {}, { onProgress: () => undefined });
    // What the server received: the hook's fields, and the client's own progress token.
    const meta = receivedMeta(result);
    expect(meta).toMatchObject({ traceparent: TRACEPARENT, tracestate: "junction=1" });
    expect(meta.progressToken).not.toBe("not-mine");
    expect(meta.progressToken).toBeDefined();
    // Every request and notification the client sent carried them, the handshake included.
    const methods = sent.flatMap(({ message }) => ("method" in message ? [message.method] : []));
    expect(methods).toEqual(
      expect.arrayContaining(["initialize", "notifications/initialized", "tools/call"]),
    );
    for (const { message } of sent) {
      if ("method" in message) expect(message.params?._meta).toMatchObject({ traceparent: TRACEPARENT });
    }
    const call = asked.find((request) => request.method === "tools/call");
    expect(call).toMatchObject({ params: { name: "meta" } });
    expect(typeof call?.id).toBe("number");
    expect(asked.find((request) => request.method === "notifications/initialized")?.id).toBeUndefined();
  });

  it("sends the request unchanged when the hook throws", async () => {
    const { mcp } = await metaServer(() => {
      throw new TypeError("broken hook");
    });
    const meta = receivedMeta(await mcp.callTool("meta", {}));
    expect(meta?.traceparent).toBeUndefined();
  });
});
