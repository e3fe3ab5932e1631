import { type ChildProcess, spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { MCP } from "@junction/mcp-client";
import { afterEach, describe, expect, it } from "vitest";
import { Agent } from "./index.js";
import { scriptedModel } from "./testing/index.js";

// A 2026-07-28 server whose tools/list carries ttlMs and which never announces a change (no
// listChanged capability, no listen stream notice): @junction/mcp-client's own test server
// (test-servers/cache-server.mjs, started with its package's dependencies), over Streamable HTTP.
const cacheServer = join(
  dirname(fileURLToPath(import.meta.resolve("@junction/mcp-client/package.json"))),
  "test-servers/cache-server.mjs",
);

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function startServer(ttlMs: number): Promise<string> {
  const child = spawn(process.execPath, [cacheServer, String(ttlMs), "private"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  cleanups.push(() => stop(child));
  const port = await new Promise<number>((resolve, reject) => {
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening (\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    });
    child.once("exit", (code) => reject(new Error(`cache server exited with ${code}`)));
  });
  return `http://127.0.0.1:${port}/mcp`;
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

describe("Agent with a 2026-07-28 server that only gives its tool list a ttlMs", () => {
  it("sees a tool that appeared without any list-changed notice once the ttl has passed", async () => {
    const methods: string[] = [];
    const mcp = new MCP({
      transport: "http",
      url: await startServer(1_000),
      sseFallback: false,
      onMessage: ({ direction, message }) => {
        if ("method" in message) methods.push(`${direction} ${message.method}`);
      },
    });
    cleanups.push(() => mcp.close());
    await mcp.connect();
    expect(mcp.protocolVersion).toBe("2026-07-28");

    const provider = scriptedModel([
      { toolCalls: [{ id: "g", name: "grow", input: {} }] },
      { text: "grown it" },
      { toolCalls: [{ id: "n", name: "grown", input: {} }] },
      { text: "used it" },
    ]);
    const agent = new Agent({ provider, model: "m", mcps: [mcp] });
    const first = await agent.send("grow a tool").final;
    expect(first.text).toBe("grown it");
    expect(first.steps[0]!.toolResults[0]!.output).toEqual({
      content: [{ type: "text", text: "grown is listed from now on" }],
      isError: false,
    });

    // The list's ttlMs (1 s) passes between the two turns; nothing else tells the agent.
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    const second = await agent.send("use it").final;
    expect(second.text).toBe("used it");
    expect(second.steps[0]!.toolResults[0]!.output).toEqual({
      content: [{ type: "text", text: "grown" }],
      isError: false,
    });
    const base = ["route", "switch-header", "stats", "grow"];
    expect(provider.requests.map((request) => request.tools!.map((tool) => tool.name))).toEqual([
      base,
      base,
      [...base, "grown"],
      [...base, "grown"],
    ]);
    // Listed once per turn, and never told of a change by the server.
    expect(methods.filter((method) => method === "out tools/list")).toHaveLength(2);
    expect(methods.filter((method) => method.startsWith("in notifications/tools"))).toEqual([]);
    agent.close();
  });
});
