import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { resultText, startListeningServer, stopProcess } from "../test/test-support.js";
import { MCP } from "./mcp.js";

// A 2026-07-28-only Streamable HTTP server whose tools/list carries the ttlMs/cacheScope given
// on its command line, whose `switch-header` tool renames `route`'s x-mcp-header parameter, and
// whose `grow` tool adds a tool to later lists, neither with a list-changed notice.
const serverScript = join(dirname(fileURLToPath(import.meta.url)), "../test-servers/cache-server.mjs");

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function startServer(ttlMs: number, cacheScope: "public" | "private"): Promise<string> {
  const server = startListeningServer(serverScript, [String(ttlMs), cacheScope]);
  cleanups.push(async () => stopProcess((await server).child));
  return (await server).url;
}

async function connect(url: string): Promise<MCP> {
  const mcp = new MCP({ transport: "http", url, name: "cache" });
  cleanups.push(() => mcp.close());
  await mcp.connect();
  expect(mcp.protocolVersion).toBe("2026-07-28");
  return mcp;
}

/** How many tools/list and tools/call requests reached the server (this stats call included). */
async function stats(mcp: MCP): Promise<{ "tools/list": number; "tools/call": number }> {
  return JSON.parse(resultText(await mcp.callTool("stats")));
}

describe("the tool cache on a 2026-07-28 server", () => {
  it("on -32020 (HeaderMismatch) evicts the cached tool list, fetches it again and retries the call once", async () => {
    const mcp = await connect(await startServer(60_000, "public"));
    const headerOf = async () =>
      (await mcp.listServerTools()).find((tool) => tool.name === "route")?.inputSchema.properties?.region;
    expect(await headerOf()).toEqual({ type: "string", "x-mcp-header": "Region" });
    let changes = 0;
    mcp.onToolsChanged(() => changes++);

    // The server now wants Mcp-Param-Zone; our listed definition still says Region.
    expect(resultText(await mcp.callTool("switch-header"))).toBe("route now reads Mcp-Param-Zone");
    const result = await mcp.callTool("route", { region: "eu-west" });
    expect(result.isError).toBeFalsy();
    expect(resultText(result)).toBe("routed to eu-west by Zone");

    // The refetched list is the cache now (served without another tools/list).
    expect(await headerOf()).toEqual({ type: "string", "x-mcp-header": "Zone" });
    expect(changes).toBe(1);
    // tools/list: the first listing and the refetch; tools/call: switch-header, route rejected,
    // route retried, stats.
    expect(await stats(mcp)).toEqual({ "tools/list": 2, "tools/call": 4 });
  });

  it("serves the tool list from the cache for the server's ttlMs and fetches it again once stale", async () => {
    const mcp = await connect(await startServer(600, "private"));
    const first = await mcp.listTools();
    expect(first.map((tool) => tool.name)).toEqual(["route", "switch-header", "stats", "grow"]);
    await mcp.listTools();
    await mcp.listServerTools();
    expect((await stats(mcp))["tools/list"]).toBe(1);

    await new Promise((resolve) => setTimeout(resolve, 700));
    const again = await mcp.listTools();
    expect(again.map((tool) => tool.name)).toEqual(["route", "switch-header", "stats", "grow"]);
    await mcp.listTools();
    expect((await stats(mcp))["tools/list"]).toBe(2);
  });

  it("fetches the tool list on every listTools when the server says ttlMs 0 (immediately stale)", async () => {
    const mcp = await connect(await startServer(0, "private"));
    await mcp.listTools();
    await mcp.listTools();
    await mcp.listServerTools();
    // Tool calls keep using the held definitions: no tools/list of their own.
    await mcp.callTool("stats");
    expect((await stats(mcp))["tools/list"]).toBe(3);
  });

  it("tells onToolsChanged listeners once the list's ttlMs has passed, so they see a tool added without notice", async () => {
    const mcp = await connect(await startServer(1_000, "private"));
    const changes: number[] = [];
    const listedAt = Date.now();
    mcp.onToolsChanged(() => changes.push(Date.now() - listedAt));
    expect((await mcp.listTools()).map((tool) => tool.name)).toEqual([
      "route",
      "switch-header",
      "stats",
      "grow",
    ]);
    expect(resultText(await mcp.callTool("grow"))).toBe("grown is listed from now on");
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(changes).toEqual([]);
    const end = Date.now() + 5_000;
    while (changes.length === 0 && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(changes).toHaveLength(1);
    expect(changes[0]).toBeGreaterThanOrEqual(1_000);
    // Once: no further notice until the list is fetched again.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(changes).toHaveLength(1);

    // Listing again gets the grown tool, and arms the notice for the new list.
    const tools = await mcp.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["route", "switch-header", "stats", "grow", "grown"]);
    expect(resultText(await mcp.callTool("grown"))).toBe("grown");
    while (changes.length === 1 && Date.now() < end + 2_000)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(changes).toHaveLength(2);
    expect((await stats(mcp))["tools/list"]).toBe(2);
  });

  it("sends no expiry notice after close()", async () => {
    const mcp = await connect(await startServer(1_000, "private"));
    let changes = 0;
    mcp.onToolsChanged(() => changes++);
    await mcp.listTools();
    await mcp.close();
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    expect(changes).toBe(0);
  });
});
