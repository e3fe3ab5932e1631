// Real servers restarted under a connected MCP (issue 39): each restart is a new server process,
// and over HTTP the new process is seen receiving the old Mcp-Session-Id, so every fault below is
// proven delivered. Each call runs once or fails with an error naming the server and what
// happened; nothing stays wedged once the server is healthy.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { freePort, processAlive, rejection, resultText, testServer } from "../test/test-support.js";
import { MCP } from "./mcp.js";
import type { MCPConfig } from "./mcp-config.js";
import { MCPPool } from "./mcp-pool.js";
import type { MCPWarning } from "./mcp-warning.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A state folder for restart-server.mjs, removed after the test. */
async function stateFolder(files: Record<string, string> = {}): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), "junction-restart-"));
  cleanups.push(() => rm(folder, { recursive: true, force: true }));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(folder, name), content);
  return folder;
}

const lines = (folder: string, file: string): string[] => {
  const path = join(folder, file);
  return existsSync(path) ? readFileSync(path, "utf8").split("\n").filter(Boolean) : [];
};

/** restart-server.mjs over Streamable HTTP, as a process of its own that can be killed and started again on its port. */
async function httpServer(folder: string) {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    const started = spawn(process.execPath, [testServer("restart-server.mjs")], {
      env: { ...process.env, RESTART_STATE: folder, RESTART_TRANSPORT: "http", RESTART_PORT: String(port) },
      stdio: ["ignore", "pipe", "inherit"],
    });
    child = started;
    await new Promise<void>((resolve, reject) => {
      started.stdout?.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes("ready")) resolve();
      });
      started.once("exit", (code) => reject(new Error(`restart-server exited with ${code}`)));
    });
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    await new Promise((resolve) => {
      running.once("exit", resolve);
      running.kill("SIGKILL");
    });
  };
  await start();
  cleanups.push(stop);
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    /** Kills the server process and starts a new one on the same port (it knows no session). */
    async restart() {
      await stop();
      await start();
    },
  };
}

function connection(config: MCPConfig): { mcp: MCP; warnings: MCPWarning[] } {
  const warnings: MCPWarning[] = [];
  const mcp = new MCP({ ...config, onWarning: (warning) => warnings.push(warning) } as MCPConfig);
  cleanups.push(() => mcp.close());
  return { mcp, warnings };
}

function httpConfig(url: string, extra: Partial<MCPConfig> = {}): MCPConfig {
  return {
    transport: "http",
    url,
    name: "restarted",
    sseFallback: false,
    protocolVersion: "2025-11-25",
    reconnect: { initialDelayMs: 10, maxDelayMs: 40 },
    ...extra,
  } as MCPConfig;
}

function stdioConfig(folder: string, extra: Partial<MCPConfig> = {}): MCPConfig {
  return {
    transport: "stdio",
    command: process.execPath,
    args: [testServer("restart-server.mjs")],
    env: { RESTART_STATE: folder },
    name: "restarted",
    reconnect: { initialDelayMs: 10, maxDelayMs: 40 },
    ...extra,
  } as MCPConfig;
}

/** Resolves when the next session is up: a reconnect tells the tools' listeners (the tools may differ). */
function reconnected(mcp: MCP): Promise<void> {
  return new Promise((resolve) => {
    const stop = mcp.onToolsChanged(() => {
      stop();
      resolve();
    });
  });
}

/** The POST lines of a request log (a stale GET is the old session's listening stream, not a request). */
const postsOf = (logged: string[]) => logged.filter((line) => line.startsWith("POST "));

const toolNames = async (mcp: MCP) => (await mcp.listTools()).map((tool) => tool.name);
const pidOf = async (mcp: MCP) => Number(resultText(await mcp.callTool("pid")).split(":")[1]);

describe("Streamable HTTP: a server restarted under a connected MCP", () => {
  it("404 on the old session: one new session, the call runs once, and the new tool list without list_changed", async () => {
    const folder = await stateFolder();
    const server = await httpServer(folder);
    const { mcp, warnings } = connection(httpConfig(server.url));
    await mcp.connect();
    expect(await toolNames(mcp)).toEqual(["echo", "pid"]);
    const changes = vi.fn();
    mcp.onToolsChanged(changes);
    writeFileSync(join(folder, "tools"), '["echo", "added"]');
    await server.restart();
    expect(resultText(await mcp.callTool("echo", { message: "after" }))).toMatch(/^echo:\d+:after$/);
    // Requests the restarted server did not know the session of. The old session's listening GET
    // stream may try again too before the new session replaces it (when depends on the load): that
    // is the old stream finding out, not a request re-sent, so only the POSTs are counted.
    expect(postsOf(lines(folder, "stale.log"))).toHaveLength(1);
    expect(lines(folder, "calls.log").filter((line) => line.startsWith("echo after"))).toHaveLength(1);
    expect(changes).toHaveBeenCalled();
    expect(await toolNames(mcp)).toEqual(["echo", "added"]);
    expect(warnings.map(({ code, added, removed }) => ({ code, added, removed }))).toEqual([
      { code: "tools-changed-on-reconnect", added: ["added"], removed: ["pid"] },
    ]);
    expect(mcp.state).toBe("connected");
  });

  it("400 naming the session re-initializes as a 404 does, instead of failing every call for good", async () => {
    const folder = await stateFolder({ "stale-status": "400" });
    const server = await httpServer(folder);
    const { mcp } = connection(httpConfig(server.url));
    await mcp.connect();
    const before = await pidOf(mcp);
    await server.restart();
    const after = await pidOf(mcp);
    expect(after).not.toBe(before);
    expect(postsOf(lines(folder, "stale.log"))).toEqual([expect.stringMatching(/^POST tools\/call /)]);
    expect(lines(folder, "calls.log").map((line) => line.split(" ")[0])).toEqual(["pid", "pid"]);
    expect(await pidOf(mcp)).toBe(after);
  });

  it("401 on the old session fails closed: an error naming the server, nothing re-sent", async () => {
    const folder = await stateFolder({ "stale-status": "401" });
    const server = await httpServer(folder);
    const { mcp } = connection(httpConfig(server.url));
    await mcp.connect();
    await mcp.callTool("echo", { message: "before" });
    await server.restart();
    const error = await rejection(mcp.callTool("echo", { message: "denied" }));
    expect(error.code).toBe("mcp-request-failed");
    expect(error.message).toMatch(/^tools\/call to MCP server "restarted" failed with HTTP 401/);
    // Requests the restarted server did not know the session of. The old session's listening GET
    // stream may try again too before the new session replaces it (when depends on the load): that
    // is the old stream finding out, not a request re-sent, so only the POSTs are counted.
    expect(postsOf(lines(folder, "stale.log"))).toHaveLength(1);
    expect(lines(folder, "calls.log")).toEqual([expect.stringMatching(/^echo before /)]);
  });

  it("a re-open answered 503 while the server warms up is retried with backoff, and the waiting call runs once", async () => {
    const folder = await stateFolder();
    const server = await httpServer(folder);
    const { mcp } = connection(httpConfig(server.url));
    await mcp.connect();
    writeFileSync(join(folder, "init-failures"), "3");
    await server.restart();
    expect(resultText(await mcp.callTool("echo", { message: "warm" }))).toMatch(/^echo:\d+:warm$/);
    expect(lines(folder, "calls.log")).toHaveLength(1);
    expect(mcp.state).toBe("connected");
  });

  it("a reconnect that gave up is not permanent: the state says why, and the next call tries again", async () => {
    const folder = await stateFolder();
    const server = await httpServer(folder);
    const { mcp } = connection(httpConfig(server.url, { reconnect: { initialDelayMs: 10, maxAttempts: 2 } }));
    await mcp.connect();
    // Listed first, so the call below is the first request on the stale session.
    await mcp.listTools();
    // Three: the first attempt re-opens a server known to be legacy twice (once with the era it
    // had, once probing), the second once.
    writeFileSync(join(folder, "init-failures"), "3");
    await server.restart();
    const error = await rejection(mcp.callTool("echo", { message: "early" }));
    expect(error.code).toBe("mcp-not-connected");
    expect(error.message).toMatch(
      /^tools\/call: MCP server "restarted" is not connected \(MCP server "restarted" lost the session and could not be reconnected after 2 attempts: .*503.*\); the next request tries again$/,
    );
    expect(mcp.state).toBe("disconnected");
    expect(mcp.lastError?.message).toMatch(
      /^MCP server "restarted" lost the session and could not be reconnected after 2 attempts: .*503/,
    );
    // The server is past its warm-up now: no connect() needed.
    expect(resultText(await mcp.callTool("echo", { message: "later" }))).toMatch(/^echo:\d+:later$/);
    expect(mcp.state).toBe("connected");
    expect(lines(folder, "calls.log").map((line) => line.split(" ")[1])).toEqual(["later"]);
  });

  it("restarted while idle: the next call re-opens the session and runs once", async () => {
    const folder = await stateFolder();
    const server = await httpServer(folder);
    const { mcp } = connection(httpConfig(server.url));
    await mcp.connect();
    await mcp.listTools();
    await server.restart();
    expect(resultText(await mcp.callTool("echo", { message: "fresh" }))).toMatch(/^echo:\d+:fresh$/);
    expect(mcp.state).toBe("connected");
    expect(lines(folder, "calls.log").filter((line) => line.startsWith("echo fresh "))).toHaveLength(1);
  });

  it("twelve concurrent calls into a stale session: every one is retried on the new session and runs once", async () => {
    const folder = await stateFolder({ "stale-batch": "12" });
    const server = await httpServer(folder);
    const { mcp } = connection(httpConfig(server.url));
    await mcp.connect();
    await mcp.listTools();
    await server.restart();
    const messages = Array.from({ length: 12 }, (_, index) => `m${index}`);
    const results = await Promise.all(messages.map((message) => mcp.callTool("echo", { message })));
    expect(results.map((result) => resultText(result).split(":")[2])).toEqual(messages);
    expect(postsOf(lines(folder, "stale.log"))).toHaveLength(12);
    const ran = lines(folder, "calls.log").map((line) => line.split(" ")[1]);
    expect(ran.sort()).toEqual([...messages].sort());
  });
});

describe("stdio: a server killed under a connected MCP", () => {
  it("killed between turns, listing no tools for its first lists: listed again until its tools are back", async () => {
    const folder = await stateFolder();
    const { mcp, warnings } = connection(stdioConfig(folder));
    await mcp.connect();
    expect(await toolNames(mcp)).toEqual(["echo", "pid"]);
    const first = await pidOf(mcp);
    writeFileSync(join(folder, "empty-lists"), "2");
    const back = reconnected(mcp);
    process.kill(first, "SIGKILL");
    await back;
    expect(await toolNames(mcp)).toEqual(["echo", "pid"]);
    expect(await pidOf(mcp)).not.toBe(first);
    expect(warnings).toEqual([]);
  });

  it("a restarted server that keeps listing no tools: the list is empty, and a warning names the server", async () => {
    const folder = await stateFolder();
    const { mcp, warnings } = connection(stdioConfig(folder));
    await mcp.connect();
    const first = await pidOf(mcp);
    expect(await toolNames(mcp)).toEqual(["echo", "pid"]);
    writeFileSync(join(folder, "empty-lists"), "100");
    const back = reconnected(mcp);
    process.kill(first, "SIGKILL");
    await back;
    expect(await toolNames(mcp)).toEqual([]);
    expect(warnings.map(({ code, server, removed }) => ({ code, server, removed }))).toEqual([
      { code: "tools-empty-after-reconnect", server: "restarted", removed: ["echo", "pid"] },
    ]);
    expect(warnings[0]?.message).toMatch(/^MCP server "restarted" listed no tools after it reconnected/);
  });

  it("connect() while reconnecting makes the attempt at once instead of waiting out the backoff", async () => {
    const folder = await stateFolder();
    // A backoff far longer than the test may take: only connect() can bring the session back in time.
    const { mcp } = connection(
      stdioConfig(folder, { reconnect: { initialDelayMs: 600_000, maxDelayMs: 600_000 } }),
    );
    await mcp.connect();
    const first = await pidOf(mcp);
    process.kill(first, "SIGKILL");
    await vi.waitFor(() => expect(mcp.state).toBe("reconnecting"), { timeout: 10_000 });
    await mcp.connect();
    expect(mcp.state).toBe("connected");
    expect(await pidOf(mcp)).not.toBe(first);
  });

  it("after a reconnect gave up, connect() re-opens the session, and a call made meanwhile waits for it", async () => {
    const folder = await stateFolder();
    const { mcp } = connection(stdioConfig(folder, { reconnect: { initialDelayMs: 10, maxAttempts: 1 } }));
    await mcp.connect();
    const first = await pidOf(mcp);
    writeFileSync(join(folder, "down"), "");
    process.kill(first, "SIGKILL");
    await vi.waitFor(() => expect(mcp.state).toBe("disconnected"), { timeout: 10_000 });
    rmSync(join(folder, "down"));
    const [, second] = await Promise.all([mcp.connect(), pidOf(mcp)]);
    expect(second).not.toBe(first);
    expect(mcp.state).toBe("connected");
  });

  it("twelve calls in flight at the kill fail saying they may have run, and none is sent again", async () => {
    const folder = await stateFolder({ tools: '["hold", "pid"]' });
    const { mcp } = connection(stdioConfig(folder));
    await mcp.connect();
    const first = await pidOf(mcp);
    const calls = Array.from({ length: 12 }, (_, index) =>
      rejection(mcp.callTool("hold", { message: `h${index}` })),
    );
    await vi.waitFor(() => expect(lines(folder, "calls.log")).toHaveLength(13), { timeout: 10_000 });
    const back = reconnected(mcp);
    process.kill(first, "SIGKILL");
    const errors = await Promise.all(calls);
    for (const error of errors) {
      expect(error.code).toBe("mcp-connection-closed");
      expect(error.message).toBe(
        'connection to MCP server "restarted" closed during tools/call; the request had been sent, so the server may have acted on it, and it was not sent again',
      );
    }
    await back;
    const second = await pidOf(mcp);
    expect(second).not.toBe(first);
    const holds = lines(folder, "calls.log").filter((line) => line.startsWith("hold "));
    expect(holds).toHaveLength(12);
    expect(holds.every((line) => line.endsWith(` ${first}`))).toBe(true);
  });
});

describe("stdio: a server that dies while answering tools/list", () => {
  it("the list is sent once more, to the restarted server, and answers with its tools", async () => {
    const folder = await stateFolder();
    const { mcp, warnings } = connection(stdioConfig(folder));
    await mcp.connect();
    writeFileSync(join(folder, "die-on-list"), "1");
    expect(await toolNames(mcp)).toEqual(["echo", "pid"]);
    const started = lines(folder, "started.log");
    expect(started).toHaveLength(2);
    // One list to the process that died under it, one to the process that replaced it.
    expect(lines(folder, "lists.log")).toEqual(started);
    expect(mcp.state).toBe("connected");
    // The list the retry got is the cached one.
    expect(await toolNames(mcp)).toEqual(["echo", "pid"]);
    expect(lines(folder, "lists.log")).toHaveLength(2);
    expect(warnings).toEqual([]);
  });

  it("sent again only once: a server that dies under that list too fails it, naming the server", async () => {
    const folder = await stateFolder();
    const { mcp } = connection(stdioConfig(folder));
    await mcp.connect();
    writeFileSync(join(folder, "die-on-list"), "2");
    const error = await rejection(mcp.listTools());
    expect(error.code).toBe("mcp-connection-closed");
    expect(error.message).toMatch(/^connection to MCP server "restarted" closed during tools\/list/);
    const started = lines(folder, "started.log");
    expect(lines(folder, "lists.log")).toEqual(started.slice(0, 2));
  });

  it("a restart that fails fails the list, naming the server and why", async () => {
    const folder = await stateFolder();
    const { mcp } = connection(stdioConfig(folder, { reconnect: { initialDelayMs: 10, maxAttempts: 1 } }));
    await mcp.connect();
    writeFileSync(join(folder, "down"), "");
    writeFileSync(join(folder, "die-on-list"), "1");
    const error = await rejection(mcp.listTools());
    expect(error.code).toBe("mcp-not-connected");
    expect(error.message).toMatch(
      /^tools\/list: MCP server "restarted" is not connected \(MCP server "restarted" stopped and could not be restarted after 1 attempts: .*\); the next request tries again$/s,
    );
    expect(lines(folder, "lists.log")).toHaveLength(1);
  });

  it("a call's own list, in flight at the death, is sent again and the call runs on the restarted server", async () => {
    const folder = await stateFolder();
    const { mcp } = connection(stdioConfig(folder));
    await mcp.connect();
    writeFileSync(join(folder, "die-on-list"), "1");
    const result = await mcp.callTool("echo", { message: "after" });
    const started = lines(folder, "started.log");
    expect(resultText(result)).toBe(`echo:${started[1]}:after`);
    expect(lines(folder, "lists.log")).toEqual(started);
  });

  it("an abort ends the wait of the list sent again: the call fails as aborted, and nothing more is sent", async () => {
    const folder = await stateFolder();
    // A backoff far longer than the test: the abort is what ends the wait.
    const { mcp } = connection(stdioConfig(folder, { reconnect: { initialDelayMs: 600_000 } }));
    await mcp.connect();
    writeFileSync(join(folder, "die-on-list"), "1");
    const controller = new AbortController();
    const call = rejection(mcp.callTool("echo", { message: "never" }, { signal: controller.signal }));
    await vi.waitFor(() => expect(mcp.state).toBe("reconnecting"), { timeout: 10_000 });
    controller.abort();
    const error = await call;
    expect(error.code).toBe("aborted");
    expect(lines(folder, "lists.log")).toHaveLength(1);
    expect(lines(folder, "calls.log")).toEqual([]);
  });
});

describe("onToolsChanged when a stdio server is lost", () => {
  it("is told at the loss, so a list waits for the restart, and not by close()", async () => {
    const folder = await stateFolder();
    // A backoff far longer than the test: only connect() below brings the server back.
    const { mcp } = connection(stdioConfig(folder, { reconnect: { initialDelayMs: 600_000 } }));
    await mcp.connect();
    const first = await pidOf(mcp);
    const changes = vi.fn();
    mcp.onToolsChanged(changes);
    writeFileSync(join(folder, "tools"), '["renamed", "pid"]');
    process.kill(first, "SIGKILL");
    await vi.waitFor(() => expect(mcp.state).toBe("reconnecting"), { timeout: 10_000 });
    expect(changes).toHaveBeenCalledTimes(1);
    const listing = toolNames(mcp);
    await mcp.connect();
    expect(await listing).toEqual(["renamed", "pid"]);
    const told = changes.mock.calls.length;
    await mcp.close();
    expect(changes).toHaveBeenCalledTimes(told);
  });
});

describe("MCPPool after an outage longer than one backoff cycle", () => {
  it("hands out the pooled connection reconnected once the server is healthy, never a dead one", async () => {
    const folder = await stateFolder();
    const pool = new MCPPool();
    cleanups.push(() => pool.close());
    const config = stdioConfig(folder, { reconnect: { initialDelayMs: 10, maxAttempts: 2 } });
    const mcp = await pool.get(config);
    const first = await pidOf(mcp);
    writeFileSync(join(folder, "down"), "");
    process.kill(first, "SIGKILL");
    await vi.waitFor(() => expect(mcp.state).toBe("disconnected"), { timeout: 10_000 });
    expect(mcp.lastError?.message).toMatch(/stopped and could not be restarted after 2 attempts/);
    // Still down: get() says so (and keeps the connection for the next try).
    await expect(pool.get(config)).rejects.toMatchObject({ code: "mcp-connect-failed" });
    rmSync(join(folder, "down"));
    const again = await pool.get(config);
    expect(again).toBe(mcp);
    expect(again.state).toBe("connected");
    expect(await pidOf(again)).not.toBe(first);
  });

  it("replaces a pooled connection someone closed", async () => {
    const folder = await stateFolder();
    const pool = new MCPPool();
    cleanups.push(() => pool.close());
    const config = stdioConfig(folder);
    const mcp = await pool.get(config);
    await mcp.close();
    const replaced = await pool.get(config);
    expect(replaced).not.toBe(mcp);
    expect(replaced.state).toBe("connected");
    expect(pool.size).toBe(1);
  });
});

/** An output schema requiring one field of a type. */
const requiring = (field: string, type: string) => ({
  type: "object",
  properties: { [field]: { type } },
  required: [field],
});
/** A `report` tool answering `structured` under the output schema `outputSchema`, as restart-server.mjs's `tools`. */
const reportTool = (outputSchema: object, structured: object) =>
  JSON.stringify(["pid", { name: "report", outputSchema, structured }]);

describe("a server restarted with another outputSchema for a tool", () => {
  it("Streamable HTTP: the first call after the restart is checked against the restarted server's schema", async () => {
    const folder = await stateFolder({ tools: reportTool(requiring("text", "string"), { text: "old" }) });
    const server = await httpServer(folder);
    const { mcp } = connection(httpConfig(server.url));
    await mcp.connect();
    expect((await mcp.callTool("report")).isError).toBe(false);
    writeFileSync(join(folder, "tools"), reportTool(requiring("count", "number"), { count: 1 }));
    await server.restart();
    const result = await mcp.callTool("report");
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toEqual({ count: 1 });
    expect(result.content).toEqual([{ type: "text", text: expect.stringMatching(/^report:\d+:$/) }]);
  });

  it("stdio: a call made while reconnecting is checked against the restarted server's schema", async () => {
    const folder = await stateFolder({ tools: reportTool(requiring("text", "string"), { text: "old" }) });
    const { mcp } = connection(stdioConfig(folder));
    await mcp.connect();
    expect((await mcp.callTool("report")).isError).toBe(false);
    const first = await pidOf(mcp);
    writeFileSync(join(folder, "tools"), reportTool(requiring("count", "number"), { count: 1 }));
    process.kill(first, "SIGKILL");
    await vi.waitFor(() => expect(mcp.state).toBe("reconnecting"), { timeout: 10_000 });
    const result = await mcp.callTool("report");
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toEqual({ count: 1 });
    expect(await pidOf(mcp)).not.toBe(first);
  });

  it("a result that breaks the restarted server's schema is still an error result", async () => {
    const folder = await stateFolder({ tools: reportTool(requiring("text", "string"), { text: "old" }) });
    const { mcp } = connection(stdioConfig(folder));
    await mcp.connect();
    const first = await pidOf(mcp);
    writeFileSync(join(folder, "tools"), reportTool(requiring("count", "number"), { count: "one" }));
    process.kill(first, "SIGKILL");
    await vi.waitFor(() => expect(mcp.state).toBe("reconnecting"), { timeout: 10_000 });
    const result = await mcp.callTool("report");
    expect(result.isError).toBe(true);
    expect(resultText({ content: result.content.slice(1) })).toMatch(
      /^\[MCP server "restarted": tool "report" returned structuredContent that does not match its outputSchema/,
    );
  });
});

describe("close() while a stdio server is being restarted", () => {
  it("ends the restarted server hanging in its handshake before it resolves", async () => {
    const folder = await stateFolder();
    const { mcp } = connection(stdioConfig(folder));
    await mcp.connect();
    const first = await pidOf(mcp);
    writeFileSync(join(folder, "hang-start"), "");
    process.kill(first, "SIGKILL");
    // The reconnect attempt's process has started, and will never answer its handshake.
    await vi.waitFor(() => expect(lines(folder, "started.log")).toHaveLength(2), { timeout: 10_000 });
    const second = Number(lines(folder, "started.log")[1]);
    await mcp.close();
    expect(processAlive(second)).toBe(false);
    expect(mcp.state).toBe("closed");
    expect(lines(folder, "started.log")).toHaveLength(2);
  });

  it("ends a first connect() hanging in its handshake, which then resolves as closed meanwhile", async () => {
    const folder = await stateFolder({ "hang-start": "" });
    const { mcp } = connection(stdioConfig(folder));
    const connecting = mcp.connect();
    await vi.waitFor(() => expect(lines(folder, "started.log")).toHaveLength(1), { timeout: 10_000 });
    await mcp.close();
    await connecting;
    expect(processAlive(Number(lines(folder, "started.log")[0]))).toBe(false);
    expect(mcp.state).toBe("closed");
  });
});

describe("a server that lists a tool name twice", () => {
  it("calls are checked against the first tool of that name, the one listTools offers first", async () => {
    const folder = await stateFolder({
      tools: JSON.stringify([
        { name: "twice" },
        { name: "twice", outputSchema: requiring("text", "string") },
      ]),
    });
    const { mcp } = connection(stdioConfig(folder));
    await mcp.connect();
    const listed = (await mcp.listTools()).filter((tool) => tool.name === "twice");
    expect(listed.map((tool) => tool.outputSchema)).toEqual([undefined, requiring("text", "string")]);
    const result = await mcp.callTool("twice", { message: "m" });
    expect(result.isError).toBe(false);
    expect(resultText(result)).toMatch(/^twice:\d+:m$/);
  });
});
