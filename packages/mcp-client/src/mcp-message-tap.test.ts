import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { everythingEntry, startEverythingHttp, testServer } from "../test/test-support.js";
import { MCP } from "./mcp.js";
import type { MCPWireMessage } from "./message-tap.js";
import { forgetRememberedEras } from "./protocol-memory.js";

// These tests watch the whole handshake, the server/discover probe included: a server an earlier
// test found legacy would otherwise be spoken to with initialize alone.
beforeEach(forgetRememberedEras);

/** Messages without their time, for exact comparisons. */
function untimed(messages: MCPWireMessage[]): { direction: string; message: unknown }[] {
  return messages.map(({ direction, message }) => ({ direction, message }));
}

describe("onMessage and onStderr against server-everything", () => {
  let mcp: MCP | undefined;
  let stopHttp: (() => Promise<void>) | undefined;

  afterEach(async () => {
    await mcp?.close();
    mcp = undefined;
    await stopHttp?.();
    stopHttp = undefined;
  });

  it("reports every message of a stdio session, in order, with times, and the server's stderr", async () => {
    const messages: MCPWireMessage[] = [];
    const stderr: string[] = [];
    mcp = new MCP({
      transport: "stdio",
      command: process.execPath,
      args: [everythingEntry, "stdio"],
      onMessage: (message) => messages.push(message),
      onStderr: (chunk) => stderr.push(chunk),
    });
    await mcp.connect();
    // "auto" first asks with server/discover; this legacy server answers with an error, and the
    // 2025 handshake follows.
    const [probe, refusal, ...handshake] = untimed(messages);
    expect(probe).toMatchObject({ direction: "out", message: { jsonrpc: "2.0", method: "server/discover" } });
    expect(refusal).toMatchObject({ direction: "in", message: { jsonrpc: "2.0", error: { code: -32601 } } });
    expect(handshake.map(({ direction }) => direction)).toEqual(["out", "in", "out"]);
    expect(handshake[0]?.message).toMatchObject({ jsonrpc: "2.0", method: "initialize" });
    expect(handshake[1]?.message).toMatchObject({
      jsonrpc: "2.0",
      result: { serverInfo: { name: "mcp-servers/everything" } },
    });
    expect(handshake[2]?.message).toEqual({ jsonrpc: "2.0", method: "notifications/initialized" });
    expect(stderr.join("")).toContain("Starting default (STDIO) server...");

    messages.length = 0;
    const result = await mcp.callTool(
      "trigger-long-running-operation",
      { duration: 0.2, steps: 2 },
      { onProgress: () => undefined },
    );
    expect(result.isError).toBe(false);
    // server-everything answers tools/list with tools/list_changed (it registers tools late), so
    // the client may list twice: keep the call and what answers it.
    const request = messages.find(({ message }) => "method" in message && message.method === "tools/call");
    const callId = request && "id" in request.message ? request.message.id : undefined;
    expect(callId).toBeTypeOf("number");
    const related = messages.filter(
      ({ message }) =>
        ("id" in message && message.id === callId) ||
        ("method" in message && message.method === "notifications/progress"),
    );
    const call = untimed(related);
    expect(call[0]).toEqual({
      direction: "out",
      message: {
        jsonrpc: "2.0",
        id: callId,
        method: "tools/call",
        params: {
          name: "trigger-long-running-operation",
          arguments: { duration: 0.2, steps: 2 },
          _meta: { progressToken: callId },
        },
      },
    });
    expect(call.slice(1, 3)).toEqual([
      {
        direction: "in",
        message: {
          jsonrpc: "2.0",
          method: "notifications/progress",
          params: { progress: 1, total: 2, progressToken: callId },
        },
      },
      {
        direction: "in",
        message: {
          jsonrpc: "2.0",
          method: "notifications/progress",
          params: { progress: 2, total: 2, progressToken: callId },
        },
      },
    ]);
    expect(call.at(-1)).toEqual({
      direction: "in",
      message: {
        jsonrpc: "2.0",
        id: callId,
        result: {
          content: [
            { type: "text", text: "Long running operation completed. Duration: 0.2 seconds, Steps: 2." },
          ],
        },
      },
    });
    expect(call).toHaveLength(4);
    const times = related.map(({ at }) => at);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    // The request went out at least 200 ms (the operation's duration) before its result came in.
    expect(times.at(-1)! - times[0]!).toBeGreaterThanOrEqual(190);
    expect(Math.abs(times[0]! - Date.now())).toBeLessThan(5_000);
  });

  it("keeps working when the observer throws", async () => {
    let seen = 0;
    mcp = new MCP({
      transport: "stdio",
      command: process.execPath,
      args: [everythingEntry, "stdio"],
      onMessage: () => {
        seen++;
        throw new TypeError("observer failed");
      },
      onStderr: () => {
        throw new TypeError("observer failed");
      },
    });
    await mcp.connect();
    // server/discover and its refusal, then initialize, its result and initialized.
    expect(seen).toBe(5);
    const result = await mcp.callTool("echo", { message: "still here" });
    expect(result.content).toEqual([{ type: "text", text: "Echo: still here" }]);
    // tools/list and tools/call, each out and in, at least.
    expect(seen).toBeGreaterThanOrEqual(7);
  });

  it("reports the messages of a Streamable HTTP session", async () => {
    const server = await startEverythingHttp();
    stopHttp = server.stop;
    const messages: MCPWireMessage[] = [];
    mcp = new MCP({ transport: "http", url: server.url, onMessage: (message) => messages.push(message) });
    await mcp.connect();
    messages.length = 0;
    await mcp.ping();
    expect(untimed(messages)).toEqual([
      { direction: "out", message: { jsonrpc: "2.0", id: 1, method: "ping" } },
      { direction: "in", message: { jsonrpc: "2.0", id: 1, result: {} } },
    ]);
  });

  it("keeps reporting after a crash: the restarted server's handshake and calls", async () => {
    const messages: MCPWireMessage[] = [];
    mcp = new MCP({
      transport: "stdio",
      command: process.execPath,
      args: [testServer("crash-server.mjs")],
      reconnect: { initialDelayMs: 50, maxAttempts: 3 },
      onMessage: (message) => messages.push(message),
    });
    await mcp.connect();
    await mcp.callTool("crash", { delayMs: 20 }).catch(() => undefined);
    const result = await mcp.callTool("pid");
    expect(result.isError).toBe(false);
    const methods = messages.flatMap(({ direction, message }) =>
      "method" in message ? [`${direction} ${message.method}`] : [],
    );
    // Two sessions, each with its handshake; the call after the crash went to the second.
    expect(methods.filter((method) => method === "out initialize")).toHaveLength(2);
    const secondSession = methods.lastIndexOf("out initialize");
    expect(methods.slice(secondSession)).toContain("out tools/call");
    expect(methods.slice(0, secondSession)).toContain("out tools/call");
  });
});
