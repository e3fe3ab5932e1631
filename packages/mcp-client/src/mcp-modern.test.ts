import type { ChildProcess } from "node:child_process";
import { createServer, type ServerResponse } from "node:http";
import { dirname, join } from "node:path";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { rejection, resultText, startListeningServer, stopProcess } from "../test/test-support.js";
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

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Starts the server in HTTP mode as its own process; resolves with its port once it listens. */
function startHttp(): Promise<{ child: ChildProcess; port: number }> {
  return startListeningServer(serverScript, ["http", "0"]);
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
      "announce",
      "echo",
      "tiny-image",
      "deploy",
      "brief",
      "fail",
      "hang",
      "slow-task",
      "task-log",
    ]);
    const pid = (mcp as unknown as { session: { transport: { pid: number } } }).session.transport.pid;
    expect(resultText(await mcp.callTool("echo", { message: "hi" }))).toBe(`${pid}: hi`);
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
    expect(resultText(failed)).toContain("the tool broke");
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
    expect(resultText(await mcp.callTool("deploy", { env: "prod" }))).toBe("deployed to prod");
    expect(resultText(await mcp.callTool("deploy", { env: "staging" }))).toBe("not deployed");
  });

  it("answers sampling and roots asked in one input_required round, and completes prompt arguments", async () => {
    const sampled: unknown[] = [];
    const mcp = track(
      new MCP({
        ...config(),
        handlers: {
          sampling: async (request) => {
            sampled.push(request.messages);
            return {
              role: "assistant",
              content: { type: "text", text: "MCP joins tools to models." },
              model: "local-7b",
            };
          },
        },
        roots: [{ uri: "file:///work/project", name: "project" }],
      }),
    );
    await mcp.connect();
    expect(resultText(await mcp.callTool("brief", { topic: "MCP" }))).toBe(
      "MCP joins tools to models. [local-7b] in file:///work/project",
    );
    expect(sampled).toEqual([[{ role: "user", content: { type: "text", text: "One line on MCP." } }]]);
    const completion = await mcp.complete({
      ref: { type: "ref/prompt", name: "summarize" },
      argument: { name: "topic", value: "ma" },
    });
    expect(completion.values).toEqual(["Markdown", "Mars"]);
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
    expect(resultText(await mcp.callTool("echo", { message: "still here" }))).toContain("still here");
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
    expect(resultText(await mcp.callTool("echo", { message: "back" }))).toBe(`${second}: back`);
    await mcp.close();
    expect(alive(second)).toBe(false);
  });
});

interface Proxy {
  url: string;
  /** What each request carried: its Mcp-Session-Id (never on 2026-07-28) and Mcp-Method headers. */
  seen: { sessionHeader?: string; method?: string; logLevel?: unknown }[];
  /** Drops every open subscriptions/listen stream, as a load balancer's idle timeout would. */
  cutListenStreams(): void;
  close(): Promise<void>;
}

/** An HTTP proxy spreading requests round robin over the backends (no session affinity). */
async function startProxy(backends: { port: number }[]): Promise<Proxy> {
  let next = 0;
  const seen: Proxy["seen"] = [];
  const listening = new Set<ServerResponse>();
  const proxy = createServer(async (req, res) => {
    const backend = backends[next++ % backends.length];
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === "string" && name !== "host") headers.set(name, value);
    }
    const method = req.headers["mcp-method"] as string | undefined;
    let logLevel: unknown;
    try {
      logLevel = JSON.parse(Buffer.concat(chunks).toString("utf8"))?.params?._meta?.[
        "io.modelcontextprotocol/logLevel"
      ];
    } catch {
      // Not JSON: nothing to record.
    }
    seen.push({ sessionHeader: req.headers["mcp-session-id"] as string | undefined, method, logLevel });
    if (method === "subscriptions/listen") {
      listening.add(res);
      res.once("close", () => listening.delete(res));
    }
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
  return {
    url: `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/mcp`,
    seen,
    cutListenStreams: () => {
      for (const res of listening) res.destroy();
    },
    close: async () => {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    },
  };
}

describe("a 2026-07-28-only server over Streamable HTTP", () => {
  let servers: { child: ChildProcess; port: number }[] = [];
  let proxy: Proxy;
  let single: Proxy;

  beforeAll(async () => {
    servers = await Promise.all([startHttp(), startHttp()]);
    proxy = await startProxy(servers);
    single = await startProxy(servers.slice(0, 1));
  });

  afterAll(async () => {
    await proxy?.close();
    await single?.close();
    await Promise.all(servers.map((server) => stopProcess(server.child)));
  });

  it("needs no session: calls alternate between two server processes and all succeed", async () => {
    const mcp = track(
      new MCP({
        transport: "http",
        url: proxy.url,
        name: "modern-http",
        handlers: { elicitation: async () => ({ action: "accept", content: { confirm: true } }) },
      }),
    );
    await mcp.connect();
    expect(mcp.protocolVersion).toBe("2026-07-28");
    const answers = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const reply = resultText(await mcp.callTool("echo", { message: `call ${i}` }));
      expect(reply).toMatch(new RegExp(`^\\d+: call ${i}$`));
      answers.add(reply.split(":")[0] ?? "");
    }
    expect([...answers].sort()).toEqual(servers.map((server) => String(server.child.pid)).sort());
    // MRTR over HTTP: the retry with inputResponses may land on the other process.
    expect(resultText(await mcp.callTool("deploy", { env: "prod" }))).toBe("deployed to prod");
    expect((await mcp.readResource("memo://greeting")).contents).toEqual([
      { uri: "memo://greeting", mimeType: "text/plain", text: "hello from 2026" },
    ]);
    // No logging/setLevel on 2026-07-28: the level rides in the _meta of the later requests.
    const before = proxy.seen.length;
    await mcp.setLogLevel("debug");
    expect(proxy.seen.length).toBe(before);
    await mcp.callTool("echo", { message: "logged" });
    expect(proxy.seen.at(-1)).toMatchObject({ method: "tools/call", logLevel: "debug" });
    await mcp.close();
    expect(proxy.seen.every((request) => request.sessionHeader === undefined)).toBe(true);
    expect(proxy.seen.map((request) => request.method)).toContain("tools/call");
  });

  it("hears tool list changes and resource updates on subscriptions/listen, and listens again after the stream is cut", async () => {
    const mcp = track(new MCP({ transport: "http", url: single.url, name: "listening" }));
    await mcp.connect();
    let toolChanges = 0;
    mcp.onToolsChanged(() => toolChanges++);
    const updates: string[] = [];
    const unsubscribe = await mcp.subscribe("memo://greeting", (uri) => updates.push(uri));
    const listens = () => single.seen.filter((request) => request.method === "subscriptions/listen").length;
    // One stream for the tool list, reopened with the resource added.
    expect(listens()).toBe(2);

    expect(resultText(await mcp.callTool("announce", { what: "tools" }))).toBe("announced tools");
    await vi.waitFor(() => expect(toolChanges).toBe(1));
    expect(resultText(await mcp.callTool("announce", { what: "greeting" }))).toBe("announced greeting");
    await vi.waitFor(() => expect(updates).toEqual(["memo://greeting"]));

    single.cutListenStreams();
    await vi.waitFor(() => expect(listens()).toBe(3));
    // Let the new stream's acknowledgement arrive before announcing.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await mcp.callTool("announce", { what: "tools" });
    await vi.waitFor(() => expect(toolChanges).toBe(2));

    await unsubscribe();
    expect(listens()).toBe(4);
  });

  it("maps a pinned 2025-11-25 refused by the server to mcp-connect-failed", async () => {
    const mcp = track(
      new MCP({
        transport: "http",
        url: proxy.url,
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
