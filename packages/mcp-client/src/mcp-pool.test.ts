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
});
