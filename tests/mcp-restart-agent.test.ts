// An Agent on MCP servers restarted between its turns (issue 39): its next request offers what the
// server serves now, and a server that comes back without tools is a warning of the run, not a
// silent turn with none.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Agent } from "@junction/core";
import { scriptedModel } from "@junction/core/testing";
import { MCP, type MCPConfig } from "@junction/mcp-client";
import { afterEach, describe, expect, it } from "vitest";

const restartServer = join(
  dirname(fileURLToPath(import.meta.url)),
  "../packages/mcp-client/test-servers/restart-server.mjs",
);
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function folderWith(files: Record<string, string> = {}): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), "junction-agent-restart-"));
  cleanups.push(() => rm(folder, { recursive: true, force: true }));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(folder, name), content);
  return folder;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** restart-server.mjs over Streamable HTTP on a port of its own; restart() kills it and starts a new process there. */
async function httpServer(folder: string) {
  const port = await freePort();
  let stop: () => Promise<unknown> = async () => undefined;
  const start = async () => {
    const child = spawn(process.execPath, [restartServer], {
      env: { ...process.env, RESTART_STATE: folder, RESTART_TRANSPORT: "http", RESTART_PORT: String(port) },
      stdio: ["ignore", "pipe", "inherit"],
    });
    stop = () =>
      child.exitCode === null && child.signalCode === null
        ? new Promise((resolve) => {
            child.once("exit", resolve);
            child.kill("SIGKILL");
          })
        : Promise.resolve();
    await new Promise<void>((resolve, reject) => {
      child.stdout?.on("data", (chunk: Buffer) => chunk.toString().includes("ready") && resolve());
      child.once("exit", (code) => reject(new Error(`restart-server exited with ${code}`)));
    });
  };
  await start();
  cleanups.push(() => stop());
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    restart: async () => {
      await stop();
      await start();
    },
  };
}

function track(config: MCPConfig): MCP {
  const mcp = new MCP({ ...config, onWarning: () => undefined } as MCPConfig);
  cleanups.push(() => mcp.close());
  return mcp;
}

const offered = (request: { tools?: { name: string }[] }) => (request.tools ?? []).map((tool) => tool.name);

describe("an Agent on a server restarted between turns", () => {
  it("over Streamable HTTP: the next request offers the restarted server's tools, and its call runs", async () => {
    const folder = await folderWith();
    const server = await httpServer(folder);
    const mcp = track({
      transport: "http",
      url: server.url,
      name: "restarted",
      sseFallback: false,
      protocolVersion: "2025-11-25",
      reconnect: { initialDelayMs: 10 },
    });
    await mcp.connect();
    const provider = scriptedModel([
      { text: "first turn" },
      { toolCalls: [{ id: "c1", name: "added", input: { message: "new" } }] },
      { text: "done" },
    ]);
    const agent = new Agent({ provider, model: "m", mcps: [mcp] });
    cleanups.push(async () => agent.close());
    await agent.send("hello").final;
    writeFileSync(join(folder, "tools"), '["echo", "added"]');
    // Restarted while idle: the dropped SSE stream, opened again, hears that the session is gone.
    const back = new Promise<void>((resolve) => {
      const stop = mcp.onToolsChanged(() => {
        stop();
        resolve();
      });
    });
    await server.restart();
    await back;
    const second = await agent.send("again").final;
    expect(provider.requests.map(offered)).toEqual([
      ["echo", "pid"],
      ["echo", "added"],
      ["echo", "added"],
    ]);
    const toolMessage = second.messages.find((message) => message.role === "tool");
    expect(JSON.stringify(toolMessage)).toMatch(/added:\d+:new/);
  });

  it("over stdio: a server that comes back listing no tools is a tool-source-empty warning of the run", async () => {
    const folder = await folderWith();
    const mcp = track({
      transport: "stdio",
      command: process.execPath,
      args: [restartServer],
      env: { RESTART_STATE: folder },
      name: "restarted",
      reconnect: { initialDelayMs: 10 },
    });
    await mcp.connect();
    const provider = scriptedModel([
      { toolCalls: [{ id: "p", name: "pid" }] },
      { text: "one" },
      { text: "two" },
    ]);
    const agent = new Agent({ provider, model: "m", mcps: [mcp] });
    cleanups.push(async () => agent.close());
    const first = await agent.send("which process?").final;
    const pid = Number(/pid:(\d+):/.exec(JSON.stringify(first.messages))?.[1]);
    writeFileSync(join(folder, "empty-lists"), "100");
    const back = new Promise<void>((resolve) => {
      const stop = mcp.onToolsChanged(() => {
        stop();
        resolve();
      });
    });
    process.kill(pid, "SIGKILL");
    await back;
    const second = await agent.send("and now?").final;
    expect(offered(provider.requests[2]!)).toEqual([]);
    expect(second.warnings).toEqual([
      {
        code: "tool-source-empty",
        message:
          'MCP source "restarted" listed no tools, though it listed 2 before: this step offers none of its tools, until it lists them again.',
      },
    ]);
  });
});

describe("an Agent on a stdio server killed between turns", () => {
  const stdioServer = (folder: string, reconnect: { initialDelayMs: number; maxAttempts?: number }) =>
    track({
      transport: "stdio",
      command: process.execPath,
      args: [restartServer],
      env: { RESTART_STATE: folder },
      name: "restarted",
      reconnect,
    });
  /** Runs a turn whose model calls `pid`, and returns the pid of the server process that answered. */
  const pidTurn = async (agent: Agent): Promise<number> => {
    const { messages } = await agent.send("which process?").final;
    return Number(/pid:(\d+):/.exec(JSON.stringify(messages))?.[1]);
  };

  it("a turn started while it is being restarted offers the restarted server's tools, not the lost ones", async () => {
    const folder = await folderWith();
    // A backoff far longer than the test: only connect() below brings the server back.
    const mcp = stdioServer(folder, { initialDelayMs: 600_000 });
    await mcp.connect();
    const provider = scriptedModel([
      { toolCalls: [{ id: "p", name: "pid" }] },
      { text: "one" },
      { toolCalls: [{ id: "r", name: "renamed", input: { message: "new" } }] },
      { text: "two" },
    ]);
    const agent = new Agent({ provider, model: "m", mcps: [mcp] });
    cleanups.push(async () => agent.close());
    const pid = await pidTurn(agent);
    writeFileSync(join(folder, "tools"), '["renamed", "pid"]');
    process.kill(pid, "SIGKILL");
    await expect.poll(() => mcp.state, { timeout: 10_000 }).toBe("reconnecting");
    const turn = agent.send("and now?");
    await mcp.connect();
    const { messages } = await turn.final;
    expect(offered(provider.requests[2]!)).toEqual(["renamed", "pid"]);
    expect(JSON.stringify(messages)).toMatch(/renamed:\d+:new/);
  });

  it("a server that stays down: the next turn fails naming the server, instead of offering its dead tools", async () => {
    const folder = await folderWith();
    const mcp = stdioServer(folder, { initialDelayMs: 10, maxAttempts: 1 });
    await mcp.connect();
    const provider = scriptedModel([
      { toolCalls: [{ id: "p", name: "pid" }] },
      { text: "one" },
      { toolCalls: [{ id: "e", name: "echo", input: { message: "x" } }] },
      { text: "two" },
    ]);
    const agent = new Agent({ provider, model: "m", mcps: [mcp] });
    cleanups.push(async () => agent.close());
    const pid = await pidTurn(agent);
    writeFileSync(join(folder, "down"), "");
    process.kill(pid, "SIGKILL");
    await expect.poll(() => mcp.state, { timeout: 10_000 }).toBe("disconnected");
    await expect(agent.send("and now?").final).rejects.toThrow(
      /^Could not list the tools of MCP source "restarted": tools\/list: MCP server "restarted" is not connected \(MCP server "restarted" stopped and could not be restarted after 1 attempts/,
    );
    expect(provider.requests).toHaveLength(2);
  });

  it("a server that stays down beside one that is up: the turn goes on with the live server's tools, warned of the dead one", async () => {
    const [deadFolder, liveFolder] = [await folderWith(), await folderWith()];
    const dead = stdioServer(deadFolder, { initialDelayMs: 10, maxAttempts: 1 });
    const live = stdioServer(liveFolder, { initialDelayMs: 10, maxAttempts: 1 });
    await Promise.all([dead.connect(), live.connect()]);
    const provider = scriptedModel([
      { toolCalls: [{ id: "p", name: "a_pid" }] },
      { text: "one" },
      { toolCalls: [{ id: "q", name: "b_pid" }] },
      { text: "two" },
    ]);
    const agent = new Agent({
      provider,
      model: "m",
      mcps: [
        { mcp: dead, prefix: "a" },
        { mcp: live, prefix: "b" },
      ],
    });
    cleanups.push(async () => agent.close());
    const pid = await pidTurn(agent);
    writeFileSync(join(deadFolder, "down"), "");
    process.kill(pid, "SIGKILL");
    await expect.poll(() => dead.state, { timeout: 10_000 }).toBe("disconnected");
    const result = await agent.send("and now?").final;
    expect(result.text).toBe("two");
    expect(offered(provider.requests[2]!).every((name) => name.startsWith("b_"))).toBe(true);
    expect(offered(provider.requests[2]!)).toContain("b_pid");
    expect(JSON.stringify(result.messages)).toMatch(/pid:\d+:/);
    expect(
      result.warnings.filter((warning) => warning.code === "mcp-source-unavailable")[0]?.message,
    ).toMatch(
      /^Could not list the tools of MCP source "restarted" \(prefix "a"\): .*could not be restarted after 1 attempts.*; its tools are left out of this step and listed again on the next one\.$/,
    );
  });
});
