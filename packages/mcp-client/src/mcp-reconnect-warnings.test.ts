import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { testServer } from "../test/test-support.js";
import { MCP } from "./mcp.js";
import type { MCPWarning } from "./mcp-warning.js";

// resubscribe-server.mjs refuses resources/subscribe and logging/setLevel once restarted.
let directory: string;
const open: MCP[] = [];
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), "junction-resubscribe-"));
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((mcp) => mcp.close()));
  rmSync(directory, { recursive: true, force: true });
});

function server(onWarning?: (warning: MCPWarning) => void): MCP {
  const mcp = new MCP({
    transport: "stdio",
    name: "refuser",
    command: process.execPath,
    args: [testServer("resubscribe-server.mjs")],
    env: { STATE_FILE: join(directory, "started") },
    reconnect: { initialDelayMs: 20, maxAttempts: 3 },
    ...(onWarning ? { onWarning } : {}),
  });
  open.push(mcp);
  return mcp;
}

/** Makes the server exit mid-call and waits for the restarted one to answer. */
async function crashAndReconnect(mcp: MCP): Promise<number> {
  const firstPid = Number(((await mcp.callTool("pid")).content[0] as { text: string }).text);
  await expect(mcp.callTool("crash")).rejects.toMatchObject({ code: "mcp-connection-closed" });
  const secondPid = Number(((await mcp.callTool("pid")).content[0] as { text: string }).text);
  expect(secondPid).not.toBe(firstPid);
  return secondPid;
}

describe("a server that refuses to restore subscriptions and the log level after a reconnect", () => {
  it("reports each loss to onWarning, naming the server, the uri and the error, and drops the dead listeners", async () => {
    const warnings: MCPWarning[] = [];
    const mcp = server((warning) => warnings.push(warning));
    await mcp.connect();
    await mcp.setLogLevel("debug");
    await mcp.subscribe("test://status", () => undefined);
    await crashAndReconnect(mcp);
    // The restore runs after the new session serves calls again.
    await expect.poll(() => warnings.length).toBe(2);

    expect(
      warnings.map(({ code, server, uri, level, message }) => ({ code, server, uri, level, message })),
    ).toEqual([
      {
        code: "log-level-not-restored",
        server: "refuser",
        uri: undefined,
        level: "debug",
        message:
          'Log level "debug" not restored after MCP server "refuser" reconnected: MCP server "refuser" answered logging/setLevel with error -32600: MCP error -32600: logging is disabled after a restart. It logs at its own default level: call setLogLevel() again to retry.',
      },
      {
        code: "resource-subscription-lost",
        server: "refuser",
        uri: "test://status",
        level: undefined,
        message:
          'Subscription to "test://status" lost after MCP server "refuser" reconnected: MCP server "refuser" answered resources/subscribe with error -32600: MCP error -32600: subscribing is disabled after a restart. Its listeners were removed and get no more updates: call subscribe("test://status", …) again to retry.',
      },
    ]);
    expect(warnings.map((warning) => [warning.cause?.code, warning.cause?.jsonRPCCode])).toEqual([
      ["mcp-request-failed", -32600],
      ["mcp-request-failed", -32600],
    ]);
    // The listener was dropped: subscribing again asks the (still refusing) server, and says so.
    await expect(mcp.subscribe("test://status", () => undefined)).rejects.toMatchObject({
      code: "mcp-request-failed",
      message:
        'MCP server "refuser" answered resources/subscribe with error -32600: MCP error -32600: subscribing is disabled after a restart',
    });
  });

  it("without onWarning, emits a JunctionMCPWarning process warning instead of staying silent", async () => {
    const emitted: { name: string; code?: string; message: string }[] = [];
    const onProcessWarning = (warning: Error & { code?: string }) => {
      if (warning.name === "JunctionMCPWarning")
        emitted.push({ name: warning.name, code: warning.code, message: warning.message });
    };
    process.on("warning", onProcessWarning);
    try {
      const mcp = server();
      await mcp.connect();
      await mcp.subscribe("test://status", () => undefined);
      await crashAndReconnect(mcp);
      await expect.poll(() => emitted.length).toBe(1);
      expect(emitted).toEqual([
        {
          name: "JunctionMCPWarning",
          code: "resource-subscription-lost",
          message:
            'Subscription to "test://status" lost after MCP server "refuser" reconnected: MCP server "refuser" answered resources/subscribe with error -32600: MCP error -32600: subscribing is disabled after a restart. Its listeners were removed and get no more updates: call subscribe("test://status", …) again to retry.',
        },
      ]);
    } finally {
      process.off("warning", onProcessWarning);
    }
  });
});

describe("a 2026-07-28 server that no longer honours a resource subscription after a reconnect", () => {
  it("reports the lost subscription to onWarning and drops its listeners", async () => {
    const warnings: MCPWarning[] = [];
    const noSubscribe = join(directory, "no-subscribe");
    const mcp = new MCP({
      transport: "stdio",
      name: "modern-refuser",
      command: process.execPath,
      args: [testServer("modern-server.mjs"), "stdio"],
      env: { NO_SUBSCRIBE_FILE: noSubscribe },
      reconnect: { initialDelayMs: 20, maxAttempts: 3 },
      onWarning: (warning) => warnings.push(warning),
    });
    open.push(mcp);
    await mcp.connect();
    expect(mcp.protocolVersion).toBe("2026-07-28");
    await mcp.subscribe("memo://greeting", () => undefined);
    // The restarted server advertises no resources.subscribe, so subscriptions/listen leaves it out.
    writeFileSync(noSubscribe, "");
    const pid = (mcp as unknown as { session: { transport: { pid: number } } }).session.transport.pid;
    process.kill(pid, "SIGKILL");
    await expect.poll(() => warnings.length, { timeout: 10_000 }).toBe(1);
    expect(mcp.connected).toBe(true);
    expect(warnings.map(({ code, server, uri, message }) => ({ code, server, uri, message }))).toEqual([
      {
        code: "resource-subscription-lost",
        server: "modern-refuser",
        uri: "memo://greeting",
        message:
          'Subscription to "memo://greeting" lost after MCP server "modern-refuser" reconnected: MCP server "modern-refuser" did not agree to send updates of "memo://greeting" on subscriptions/listen. Its listeners were removed and get no more updates: call subscribe("memo://greeting", …) again to retry.',
      },
    ]);
    expect(warnings[0]?.cause?.code).toBe("mcp-capability-missing");
    // Dropped: subscribing again asks the server, which says no the same way.
    await expect(mcp.subscribe("memo://greeting", () => undefined)).rejects.toMatchObject({
      code: "mcp-capability-missing",
    });
  });
});
