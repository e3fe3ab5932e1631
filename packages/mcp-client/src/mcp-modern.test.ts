import { type ChildProcess, spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import { dirname, join } from "node:path";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { JunctionError } from "@junction/types";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MCP } from "./mcp.js";
import type { MCPStdioConfig } from "./mcp-config.js";

// A 2026-07-28-only server (legacy traffic refused) over stdio and Streamable HTTP.
const serverScript = join(dirname(fileURLToPath(import.meta.url)), "../test-servers/modern-server.mjs");

const open: MCP[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((mcp) => mcp.close()));
});

function track(mcp: MCP): MCP {
  open.push(mcp);
  return mcp;
}

function text(result: { content: { type: string; text?: string }[] }): string {
  return result.content.map((part) => part.text ?? "").join("");
}

async function rejection(promise: Promise<unknown>): Promise<JunctionError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!JunctionError.isInstance(error)) throw new Error(`expected a JunctionError, got ${String(error)}`);
  return error;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Starts the server in HTTP mode as its own process; resolves with its port once it listens. */
async function startHttp(): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [serverScript, "http", "0"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening (\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    });
    child.once("exit", (code) => reject(new Error(`modern HTTP server exited with ${code}`)));
  });
  return { child, port };
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

describe("a 2026-07-28-only server over stdio", () => {
  const config = (): MCPStdioConfig => ({
    transport: "stdio",
    command: process.execPath,
    args: [serverScript, "stdio"],
    name: "modern",
    handlers: {
      elicitation: async (request) => ({
        action: "accept",
        content: { confirm: request.message === "Deploy to prod?" },
      }),
    },
  });

  it("negotiates 2026-07-28 by default and serves tools, images, resources and prompts", async () => {
    const mcp = track(new MCP(config()));
    await mcp.connect();
    expect(mcp.protocolVersion).toBe("2026-07-28");
    expect(mcp.serverInfo).toMatchObject({ name: "modern-test-server", version: "1.0.0" });
    expect((await mcp.listTools()).map((tool) => tool.name)).toEqual([
      "echo",
      "tiny-image",
      "deploy",
      "fail",
      "hang",
    ]);
    const pid = (mcp as unknown as { session: { transport: { pid: number } } }).session.transport.pid;
    expect(text(await mcp.callTool("echo", { message: "hi" }))).toBe(`${pid}: hi`);
    const image = await mcp.callTool("tiny-image");
    expect(image.content).toEqual([
      {
        type: "image",
        data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
        mimeType: "image/png",
      },
    ]);
    const failed = await mcp.callTool("fail");
    expect(failed.isError).toBe(true);
    expect(text(failed)).toContain("the tool broke");
    const read = await mcp.readResource("memo://greeting");
    expect(read.contents).toEqual([
      { uri: "memo://greeting", mimeType: "text/plain", text: "hello from 2026" },
    ]);
    // 2026-07-28 results carry their cache hints.
    expect(read).toMatchObject({ ttlMs: 0, cacheScope: "private" });
    expect((await mcp.getPrompt("summarize", { topic: "MCP" })).messages).toEqual([
      { role: "user", content: { type: "text", text: "Summarize MCP." } },
    ]);
    // ping has no meaning on 2026-07-28: server/discover stands in for it.
    await expect(mcp.ping()).resolves.toBeUndefined();
  });

  it("answers input_required rounds (MRTR) through handlers.elicitation", async () => {
    const mcp = track(new MCP(config()));
    await mcp.connect();
    expect(text(await mcp.callTool("deploy", { env: "prod" }))).toBe("deployed to prod");
    expect(text(await mcp.callTool("deploy", { env: "staging" }))).toBe("not deployed");
  });

  it("times out and aborts a call, and the connection keeps working", async () => {
    const mcp = track(new MCP(config()));
    await mcp.connect();
    const timedOut = await rejection(mcp.callTool("hang", {}, { timeoutMs: 200 }));
    expect(timedOut.code).toBe("mcp-timeout");
    const controller = new AbortController();
    const call = rejection(mcp.callTool("hang", {}, { signal: controller.signal }));
    controller.abort();
    expect((await call).code).toBe("aborted");
    expect(text(await mcp.callTool("echo", { message: "still here" }))).toContain("still here");
  });

  it("refuses a pinned 2025-11-25 with a clear error (the server takes no legacy traffic)", async () => {
    const mcp = track(new MCP({ ...config(), protocolVersion: "2025-11-25", connectTimeoutMs: 5000 }));
    const error = await rejection(mcp.connect());
    expect(error.code).toBe("mcp-connect-failed");
    expect(error.message).toMatch(/^MCP server "modern" failed to start/);
  });

  it("reconnects after the server dies, still on 2026-07-28, and leaves no process behind on close", async () => {
    const mcp = track(new MCP({ ...config(), reconnect: { initialDelayMs: 50 } }));
    await mcp.connect();
    const session = () => (mcp as unknown as { session?: { transport: { pid: number } } }).session;
    const first = session()?.transport.pid ?? 0;
    process.kill(-first, "SIGKILL");
    let second = 0;
    for (let i = 0; i < 100 && !second; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const pid = mcp.connected ? session()?.transport.pid : undefined;
      if (pid && pid !== first) second = pid;
    }
    expect(second).not.toBe(0);
    expect(mcp.protocolVersion).toBe("2026-07-28");
    expect(text(await mcp.callTool("echo", { message: "back" }))).toBe(`${second}: back`);
    await mcp.close();
    expect(alive(second)).toBe(false);
  });
});

describe("a 2026-07-28-only server over Streamable HTTP", () => {
  let servers: { child: ChildProcess; port: number }[] = [];
  let proxy: Server;
  let proxyUrl = "";
  const seen: { pid?: string; sessionHeader?: string; method?: string }[] = [];

  beforeAll(async () => {
    servers = await Promise.all([startHttp(), startHttp()]);
    // Round robin over two separate server processes: with no session, either may answer.
    let next = 0;
    proxy = createServer(async (req, res) => {
      const backend = servers[next++ % servers.length];
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === "string" && name !== "host") headers.set(name, value);
      }
      seen.push({
        sessionHeader: req.headers["mcp-session-id"] as string | undefined,
        method: req.headers["mcp-method"] as string | undefined,
      });
      try {
        const response = await fetch(`http://127.0.0.1:${backend?.port}${req.url}`, {
          method: req.method,
          headers,
          ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
        });
        const responseHeaders: Record<string, string> = {};
        response.headers.forEach((value, name) => {
          responseHeaders[name] = value;
        });
        res.writeHead(response.status, responseHeaders);
        if (!response.body) return void res.end();
        // A stream the backend ends early (a listen stream at close) ends ours too.
        Readable.fromWeb(response.body as never)
          .on("error", () => res.destroy())
          .pipe(res);
      } catch {
        res.destroy();
      }
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    const address = proxy.address();
    proxyUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/mcp`;
  });

  afterAll(async () => {
    proxy?.closeAllConnections();
    await new Promise((resolve) => proxy?.close(resolve));
    await Promise.all(servers.map((server) => stop(server.child)));
  });

  it("needs no session: calls alternate between two server processes and all succeed", async () => {
    const mcp = track(
      new MCP({
        transport: "http",
        url: proxyUrl,
        name: "modern-http",
        handlers: { elicitation: async () => ({ action: "accept", content: { confirm: true } }) },
      }),
    );
    await mcp.connect();
    expect(mcp.protocolVersion).toBe("2026-07-28");
    const answers = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const reply = text(await mcp.callTool("echo", { message: `call ${i}` }));
      expect(reply).toMatch(new RegExp(`^\\d+: call ${i}$`));
      answers.add(reply.split(":")[0] ?? "");
    }
    expect([...answers].sort()).toEqual(servers.map((server) => String(server.child.pid)).sort());
    // MRTR over HTTP: the retry with inputResponses may land on the other process.
    expect(text(await mcp.callTool("deploy", { env: "prod" }))).toBe("deployed to prod");
    expect(await mcp.readResource("memo://greeting")).toMatchObject({
      contents: [{ text: "hello from 2026" }],
    });
    await mcp.close();
    expect(seen.every((request) => request.sessionHeader === undefined)).toBe(true);
    expect(seen.map((request) => request.method)).toContain("tools/call");
  });

  it("maps a pinned 2025-11-25 refused by the server to mcp-connect-failed", async () => {
    const mcp = track(
      new MCP({
        transport: "http",
        url: proxyUrl,
        name: "pinned",
        protocolVersion: "2025-11-25",
        sseFallback: false,
      }),
    );
    const error = await rejection(mcp.connect());
    expect(error.code).toBe("mcp-connect-failed");
    expect(error.message).toMatch(
      /^could not connect to MCP server "pinned" at http:\/\/127\.0\.0\.1:\d+\/mcp: /,
    );
  });
});
