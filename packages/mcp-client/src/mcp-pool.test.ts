import { readdirSync, readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { processAlive, testServer } from "../test/test-support.js";
import { MCPPool } from "./mcp-pool.js";

const pools: MCPPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});

function text(result: { content: { type: string }[] }): string {
  return (result.content[0] as { text?: string }).text ?? "";
}

/** This process's live child processes running `script` (from /proc: Linux only). */
function childrenRunning(script: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (Number(ppid) === process.pid && state !== "Z" && cmdline.includes(script)) pids.push(Number(entry));
    } catch {
      // The process ended while it was read.
    }
  }
  return pids;
}

describe("MCPPool", () => {
  it("gives every run the same connection for an equal config (one server process), and another for a different one", async () => {
    const pool = new MCPPool();
    pools.push(pool);
    const config = {
      transport: "stdio" as const,
      command: process.execPath,
      args: [testServer("crash-server.mjs")],
    };
    const [first, second] = await Promise.all([
      pool.get(config),
      // The same descriptor written in another key order, as it comes back from JSON.
      pool.get({ args: [testServer("crash-server.mjs")], command: process.execPath, transport: "stdio" }),
    ]);
    expect(second).toBe(first);
    const third = await pool.get({ ...config, env: { POOL_TEST: "other" } });
    expect(third).not.toBe(first);
    expect(pool.size).toBe(2);
    const pidOf = async (mcp: typeof first) => Number(text(await mcp.callTool("pid", {})));
    const [pid1, pid2, pid3] = await Promise.all([pidOf(first), pidOf(second), pidOf(third)]);
    expect(pid1).toBe(pid2);
    expect(pid3).not.toBe(pid1);
    await pool.close();
    expect(pool.size).toBe(0);
    expect(first.connected).toBe(false);
    expect(processAlive(pid1)).toBe(false);
    expect(processAlive(pid3)).toBe(false);
  });

  it("forgets a connect that failed, so the next get() tries again", async () => {
    const pool = new MCPPool();
    pools.push(pool);
    const config = {
      transport: "stdio" as const,
      command: process.execPath,
      args: [testServer("fail-start-server.mjs")],
      connectTimeoutMs: 5_000,
      reconnect: false as const,
    };
    await expect(pool.get(config)).rejects.toMatchObject({ code: "mcp-connect-failed" });
    expect(pool.size).toBe(0);
    await expect(pool.get(config)).rejects.toMatchObject({ code: "mcp-connect-failed" });
  });

  it("refuses a get() after close(), naming what to do, and starts no server", async () => {
    const pool = new MCPPool();
    const config = {
      transport: "stdio" as const,
      command: process.execPath,
      args: [testServer("crash-server.mjs")],
    };
    const first = await pool.get(config);
    await pool.close();
    expect(first.connected).toBe(false);
    const refused = pool.get(config);
    await expect(refused).rejects.toMatchObject({ code: "mcp-connection-closed" });
    await expect(refused).rejects.toThrow(/create a new MCPPool/);
    expect(pool.size).toBe(0);
    expect(childrenRunning("crash-server.mjs")).toEqual([]);
  });

  it.skipIf(process.platform !== "linux")(
    "closes the connections still starting when close() is called, and their callers get an error, not a closed MCP",
    async () => {
      const pool = new MCPPool();
      const config = {
        transport: "stdio" as const,
        command: process.execPath,
        args: [testServer("crash-server.mjs")],
      };
      // Three callers of one config (one connect under way) and one of another, all racing close().
      const gets = [
        pool.get(config),
        pool.get(config),
        pool.get({ ...config, env: { POOL_TEST: "other" } }),
      ].map((get) =>
        get.then(
          () => "connected",
          (error: { code?: string }) => error.code,
        ),
      );
      // Let the servers start (or not yet: either way none may be handed out or left running).
      await new Promise((resolve) => setTimeout(resolve, 20));
      await pool.close();
      expect(await Promise.all(gets)).toEqual([
        "mcp-connection-closed",
        "mcp-connection-closed",
        "mcp-connection-closed",
      ]);
      expect(pool.size).toBe(0);
      expect(childrenRunning("crash-server.mjs")).toEqual([]);
      // And the same while a reconnect of a pooled connection is awaited by a second get().
      const reopened = new MCPPool();
      const mcp = await reopened.get(config);
      expect(mcp.connected).toBe(true);
      const waiting = reopened.get(config);
      const closing = reopened.close();
      await expect(waiting).rejects.toMatchObject({ code: "mcp-connection-closed" });
      await closing;
      expect(childrenRunning("crash-server.mjs")).toEqual([]);
    },
  );
});
