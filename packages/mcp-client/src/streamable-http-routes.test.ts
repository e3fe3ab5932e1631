// One test per row of the routing table at the head of streamable-http-transport.ts, each named
// after its row, over the official SDK v2 server (`@modelcontextprotocol/server`, in this process
// behind node:http). A request is told apart by the fetch it went through: the SDK transport's
// and the lean transport's each get a recording fetch of their own.

import { randomUUID } from "node:crypto";
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import {
  Client,
  type JSONRPCMessage,
  StreamableHTTPClientTransport,
  type TransportSendOptions,
} from "@modelcontextprotocol/client";
import {
  type EventStore,
  McpServer,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { MCP } from "./mcp.js";
import { LeanStreamableHTTPTransport, sendRouteOf } from "./streamable-http-transport.js";

/** One request the server got: its HTTP method, the JSON-RPC method(s) of its body, what it answered. */
interface Seen {
  method: string;
  rpc: string | undefined;
  headers: IncomingMessage["headers"];
  status?: number;
  contentType?: string | null;
}

/** An event store kept in memory, so the server's streams can be resumed (`Last-Event-ID`). */
function memoryEventStore(): EventStore {
  const events: { id: string; streamId: string; message: JSONRPCMessage }[] = [];
  return {
    storeEvent: async (streamId, message) => {
      const id = `${streamId}_${events.length}`;
      events.push({ id, streamId, message });
      return id;
    },
    getStreamIdForEventId: async (eventId) => events.find((event) => event.id === eventId)?.streamId,
    replayEventsAfter: async (lastEventId, { send }) => {
      const at = events.findIndex((event) => event.id === lastEventId);
      const streamId = events[at]?.streamId ?? "";
      for (const event of events.slice(at + 1))
        if (event.streamId === streamId) await send(event.id, event.message);
      return streamId;
    },
  };
}

/** The tools of the test server: `echo`, `progress` (one notification before the answer), `cut`. */
function buildServer(): McpServer {
  const server = new McpServer({ name: "routes", version: "1.0.0" });
  server.registerTool(
    "echo",
    { description: "Echoes its text", inputSchema: z.object({ text: z.string() }) },
    async ({ text }) => ({ content: [{ type: "text", text }] }),
  );
  server.registerTool(
    "progress",
    { description: "Reports progress, then answers", inputSchema: z.object({}) },
    async (_args, ctx) => {
      const progressToken = ctx.mcpReq._meta?.progressToken;
      if (progressToken !== undefined)
        await ctx.mcpReq.notify({
          method: "notifications/progress",
          params: { progressToken, progress: 1, total: 2 },
        });
      return { content: [{ type: "text", text: "done" }] };
    },
  );
  server.registerTool(
    "cut",
    { description: "Ends its answer stream before answering", inputSchema: z.object({}) },
    async (_args, ctx) => {
      const progressToken = ctx.mcpReq._meta?.progressToken;
      if (progressToken !== undefined)
        await ctx.mcpReq.notify({
          method: "notifications/progress",
          params: { progressToken, progress: 1 },
        });
      ctx.http?.closeSSE?.();
      return { content: [{ type: "text", text: "after the cut" }] };
    },
  );
  return server;
}

/**
 * The SDK v2 server with sessions and resumable streams, served over node:http on 127.0.0.1.
 * `front` may answer a request itself (a redirect, a step-up challenge) before the server sees it.
 */
async function startSDKServer(
  options: { enableJsonResponse?: boolean; front?: (seen: Seen, res: ServerResponse) => boolean } = {},
) {
  const seen: Seen[] = [];
  const sessions = new Map<
    string,
    { transport: WebStandardStreamableHTTPServerTransport; server: McpServer }
  >();
  const eventStore = memoryEventStore();
  const handle = async (request: Request): Promise<Response> => {
    const known = sessions.get(request.headers.get("mcp-session-id") ?? "");
    if (known) return known.transport.handleRequest(request);
    const server = buildServer();
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore,
      retryInterval: 10,
      ...(options.enableJsonResponse ? { enableJsonResponse: true } : {}),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server });
      },
    });
    await server.connect(transport);
    return transport.handleRequest(request);
  };
  const http = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const entry: Seen = { method: req.method ?? "?", rpc: rpcOf(body), headers: req.headers };
    seen.push(entry);
    if (options.front?.(entry, res)) return;
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === "string") headers.set(name, value);
    const response = await handle(
      new Request(`http://${req.headers.host}${req.url}`, {
        method: req.method,
        headers,
        ...(body.length > 0 ? { body } : {}),
      }),
    );
    entry.status = response.status;
    entry.contentType = response.headers.get("content-type");
    const answered: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      answered[name] = value;
    });
    res.writeHead(response.status, answered);
    if (response.body) Readable.fromWeb(response.body as never).pipe(res);
    else res.end();
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    seen,
    /** Tells every session's client that the tool list changed (a message outside any request). */
    toolsChanged: () => {
      for (const { server } of sessions.values()) server.sendToolListChanged();
    },
    stop: async () => {
      for (const { server } of sessions.values()) await server.close().catch(() => undefined);
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** The JSON-RPC method of a body (`batch` for an array, `response` for an answer). */
function rpcOf(body: Buffer): string | undefined {
  if (body.length === 0) return undefined;
  const parsed = JSON.parse(body.toString("utf8")) as unknown;
  if (Array.isArray(parsed)) return "batch";
  const method = (parsed as { method?: unknown }).method;
  return typeof method === "string" ? method : "response";
}

/** `POST tools/call`, `GET last-event-id`, `DELETE`: one request a fetch made. */
function describeRequest(init: RequestInit | undefined): string {
  const method = init?.method ?? "GET";
  if (method === "GET") return new Headers(init?.headers).has("last-event-id") ? "GET last-event-id" : "GET";
  if (method !== "POST") return method;
  return `POST ${rpcOf(Buffer.from(String(init?.body ?? "")))}`;
}

type Running = Awaited<ReturnType<typeof startSDKServer>>;

/**
 * An SDK v2 client over a lean transport over the SDK's transport, on `running`, on 2025-11-25.
 * `bySDK` is every message handed to the SDK transport's `send`; `sdkFetch` and `leanFetch` every
 * request each transport made.
 */
async function connectLean(running: Running) {
  const sdkFetch: string[] = [];
  const leanFetch: string[] = [];
  const recording =
    (into: string[]): typeof fetch =>
    (input, init) => {
      into.push(describeRequest(init));
      return fetch(input, init);
    };
  const url = new URL(running.url);
  const inner = new StreamableHTTPClientTransport(url, { fetch: recording(sdkFetch) });
  const bySDK: (JSONRPCMessage | JSONRPCMessage[])[] = [];
  const send = inner.send.bind(inner);
  inner.send = (message: JSONRPCMessage | JSONRPCMessage[], options?: TransportSendOptions) => {
    bySDK.push(message);
    return send(message as JSONRPCMessage, options);
  };
  const transport = new LeanStreamableHTTPTransport(url, inner, { fetch: recording(leanFetch) });
  const client = new Client(
    { name: "routes-test", version: "1.0.0" },
    { capabilities: { roots: { listChanged: true } }, versionNegotiation: { mode: "legacy" } },
  );
  await client.connect(transport);
  return { client, transport, bySDK, sdkFetch, leanFetch };
}

const ping = { jsonrpc: "2.0" as const, id: 900, method: "ping" };
const notRouted = { resumptionToken: undefined, closed: false };

describe("the routing table: who sends a message out", () => {
  let running: Running | undefined;
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
    await running?.stop();
    running = undefined;
  });

  async function lean(options?: Parameters<typeof startSDKServer>[0]) {
    running = await startSDKServer(options);
    const connected = await connectLean(running);
    close = () => connected.client.close();
    return { ...connected, running };
  }

  it("batch: a JSON-RPC batch goes through the SDK transport's POST", async () => {
    const { transport, bySDK, sdkFetch, leanFetch } = await lean();
    const batch = [{ jsonrpc: "2.0" as const, method: "notifications/roots/list_changed" }];
    expect(sendRouteOf(batch, notRouted)).toBe("batch");
    bySDK.length = 0;
    sdkFetch.length = 0;
    await transport.send(batch).catch(() => undefined);
    expect(bySDK).toEqual([batch]);
    expect(sdkFetch).toEqual(["POST batch"]);
    expect(leanFetch).toEqual([]);
  });

  it("resumption: a message sent with a resumption token goes through the SDK transport, as a GET with Last-Event-ID", async () => {
    const { transport, bySDK, sdkFetch, leanFetch, running } = await lean();
    bySDK.length = 0;
    sdkFetch.length = 0;
    await transport.send(ping, { resumptionToken: "no-such-event" });
    await expect
      .poll(() => running.seen.some((seen) => seen.headers["last-event-id"] === "no-such-event"))
      .toBe(true);
    expect(bySDK).toEqual([ping]);
    expect(sdkFetch).toEqual(["GET last-event-id"]);
    expect(leanFetch).toEqual([]);
  });

  it("closed: a message after close() goes to the SDK transport, which refuses it without a request", async () => {
    const { transport, bySDK, leanFetch, running } = await lean();
    await transport.close();
    bySDK.length = 0;
    const requests = running.seen.length;
    const sent = await transport.send(ping).then(
      () => "sent",
      (error: unknown) => (error instanceof Error ? "refused" : "thrown"),
    );
    expect(sent).toBe("refused");
    expect(bySDK).toEqual([ping]);
    expect(running.seen.length).toBe(requests);
    expect(leanFetch).toEqual([]);
  });

  it("initialize: the initialize request goes through the SDK transport, which keeps the session id", async () => {
    const { transport, bySDK, sdkFetch, leanFetch, running } = await lean();
    expect((bySDK[0] as { method?: string }).method).toBe("initialize");
    expect(sdkFetch[0]).toBe("POST initialize");
    expect(leanFetch).toEqual([]);
    const initialize = running.seen.find((seen) => seen.rpc === "initialize")!;
    expect(initialize.status).toBe(200);
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("initialized: notifications/initialized goes through the SDK transport, which then opens the GET stream", async () => {
    const { bySDK, sdkFetch, leanFetch, running } = await lean();
    expect(bySDK.map((message) => (message as { method?: string }).method)).toEqual([
      "initialize",
      "notifications/initialized",
    ]);
    expect(sdkFetch.slice(0, 2)).toEqual(["POST initialize", "POST notifications/initialized"]);
    await expect.poll(() => running.seen.some((seen) => seen.method === "GET")).toBe(true);
    expect(sdkFetch).toContain("GET");
    expect(leanFetch).toEqual([]);
  });

  it("post: every other request, notification and response is a lean POST, with the session", async () => {
    const { client, transport, bySDK, sdkFetch, leanFetch, running } = await lean();
    bySDK.length = 0;
    sdkFetch.length = 0;
    expect((await client.callTool({ name: "echo", arguments: { text: "hi" } })).content).toEqual([
      { type: "text", text: "hi" },
    ]);
    await client.ping();
    await client.notification({ method: "notifications/roots/list_changed" });
    const response = { jsonrpc: "2.0" as const, id: "from-server", result: {} };
    expect(sendRouteOf(response, notRouted)).toBe("post");
    await transport.send(response);
    expect(leanFetch).toEqual([
      "POST tools/call",
      "POST ping",
      "POST notifications/roots/list_changed",
      "POST response",
    ]);
    expect(bySDK).toEqual([]);
    expect(sdkFetch).toEqual([]);
    const posts = running.seen.filter((seen) => seen.method === "POST" && seen.rpc !== "initialize");
    expect(posts.every((seen) => seen.headers["mcp-session-id"] === transport.sessionId)).toBe(true);
  });

  it("handed-over: a lean POST answered by a redirect or a step-up challenge is sent again by the SDK transport", async () => {
    let redirected = false;
    const { client, bySDK, sdkFetch, leanFetch, running } = await lean({
      front: (seen, res) => {
        if (seen.rpc === "tools/list" && !redirected) {
          redirected = true;
          res.writeHead(307, { location: "/mcp?moved" }).end();
          return true;
        }
        if (seen.rpc === "ping") {
          res
            .writeHead(403, { "www-authenticate": 'Bearer error="insufficient_scope", scope="more"' })
            .end("more scope needed");
          return true;
        }
        return false;
      },
    });
    bySDK.length = 0;
    sdkFetch.length = 0;
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["echo", "progress", "cut"]);
    expect(leanFetch).toEqual(["POST tools/list"]);
    expect(bySDK.map((message) => (message as { method?: string }).method)).toEqual(["tools/list"]);
    expect(running.seen.filter((seen) => seen.rpc === "tools/list").map((seen) => seen.status)).toEqual([
      undefined,
      200,
    ]);
    // Without an authProvider the SDK transport cannot step up, and says so.
    await expect(client.ping()).rejects.toThrow();
    expect(leanFetch).toEqual(["POST tools/list", "POST ping"]);
    expect(bySDK.map((message) => (message as { method?: string }).method)).toEqual(["tools/list", "ping"]);
    expect(sdkFetch).toContain("POST ping");
  });

  it("terminate: terminateSession() is the SDK transport's DELETE", async () => {
    const { transport, sdkFetch, leanFetch, running } = await lean();
    const sessionId = transport.sessionId;
    await transport.terminateSession();
    expect(sdkFetch.at(-1)).toBe("DELETE");
    expect(leanFetch).toEqual([]);
    const deleted = running.seen.find((seen) => seen.method === "DELETE")!;
    expect(deleted.headers["mcp-session-id"]).toBe(sessionId);
    expect(deleted.status).toBe(200);
  });

  it("auth-provider: a connection with an authProvider sends everything through the SDK transport", async () => {
    running = await startSDKServer();
    const mcp = new MCP({
      transport: "http",
      url: running.url,
      sseFallback: false,
      protocolVersion: "2025-11-25",
      authProvider: {
        redirectUrl: "http://127.0.0.1/callback",
        clientMetadata: { redirect_uris: ["http://127.0.0.1/callback"], client_name: "junction-test" },
        clientInformation: () => ({ client_id: "junction-test" }),
        tokens: () => ({ access_token: "routes-token", token_type: "Bearer" }),
        saveTokens: () => undefined,
        redirectToAuthorization: () => undefined,
        saveCodeVerifier: () => undefined,
        codeVerifier: () => "verifier",
      },
    });
    close = () => mcp.close();
    await mcp.connect();
    const transport = (mcp as unknown as { session: { transport: unknown } }).session.transport;
    expect(transport).toBeInstanceOf(StreamableHTTPClientTransport);
    expect(transport).not.toBeInstanceOf(LeanStreamableHTTPTransport);
    expect((await mcp.callTool("echo", { text: "authorized" })).content).toEqual([
      { type: "text", text: "authorized" },
    ]);
    const call = running.seen.find((seen) => seen.rpc === "tools/call")!;
    expect(call.headers.authorization).toBe("Bearer routes-token");
  });
});

describe("the routing table: which HTTP client a lean request goes through", () => {
  let running: Running | undefined;
  // Loaded first, so a transport's node:http client is ready before its handshake ends: until
  // then its requests go through fetch (the `fetch` row), which is not what these rows are about.
  beforeAll(async () => {
    await import("./node-http-exchange.js");
  });
  afterEach(async () => {
    await running?.stop();
    running = undefined;
  });

  /** Counts the requests fetch (undici) and node:http start while `run` runs. */
  async function countRequests(run: () => Promise<void>) {
    const counts = { fetch: 0, nodeHttp: 0 };
    const onFetch = () => counts.fetch++;
    const onNodeHttp = () => counts.nodeHttp++;
    subscribe("undici:request:create", onFetch);
    subscribe("http.client.request.start", onNodeHttp);
    try {
      await run();
    } finally {
      unsubscribe("undici:request:create", onFetch);
      unsubscribe("http.client.request.start", onNodeHttp);
    }
    return counts;
  }

  /** An MCP on `running` (2025-11-25), connected and its tools listed; closed after `use`. */
  async function withMCP(extra: { fetch?: typeof fetch }, use: (mcp: MCP) => Promise<void>) {
    running = await startSDKServer();
    const mcp = new MCP({
      transport: "http",
      url: running.url,
      sseFallback: false,
      protocolVersion: "2025-11-25",
      ...extra,
    });
    await mcp.connect();
    try {
      await mcp.listTools();
      await use(mcp);
    } finally {
      await mcp.close();
    }
  }

  const callEcho = async (mcp: MCP, text: string) => {
    expect((await mcp.callTool("echo", { text })).content).toEqual([{ type: "text", text }]);
  };

  it("config-fetch: the config's fetch, when it gives one", async () => {
    const seen: string[] = [];
    const configFetch: typeof fetch = (input, init) => {
      seen.push(describeRequest(init));
      return fetch(input, init);
    };
    await withMCP({ fetch: configFetch }, async (mcp) => {
      seen.length = 0;
      const counts = await countRequests(() => callEcho(mcp, "a"));
      expect(seen).toEqual(["POST tools/call"]);
      expect(counts.nodeHttp).toBe(0);
    });
  });

  it("replaced-fetch: the global fetch, when something replaced it since startup", async () => {
    const original = globalThis.fetch;
    const seen: string[] = [];
    await withMCP({}, async (mcp) => {
      globalThis.fetch = (input, init) => {
        seen.push(describeRequest(init));
        return original(input, init);
      };
      try {
        const counts = await countRequests(() => callEcho(mcp, "b"));
        expect(seen).toEqual(["POST tools/call"]);
        expect(counts.nodeHttp).toBe(0);
      } finally {
        globalThis.fetch = original;
      }
    });
  });

  it("node-http: the node entry's own node:http client otherwise", async () => {
    await withMCP({}, async (mcp) => {
      const counts = await countRequests(() => callEcho(mcp, "c"));
      expect(counts).toEqual({ fetch: 0, nodeHttp: 1 });
    });
  });

  it("fetch: the global fetch where HTTP is routed elsewhere (NODE_USE_ENV_PROXY), so every request goes one way", async () => {
    const before = process.env.NODE_USE_ENV_PROXY;
    process.env.NODE_USE_ENV_PROXY = "1";
    try {
      await withMCP({}, async (mcp) => {
        const counts = await countRequests(() => callEcho(mcp, "d"));
        expect(counts).toEqual({ fetch: 1, nodeHttp: 0 });
      });
    } finally {
      if (before === undefined) delete process.env.NODE_USE_ENV_PROXY;
      else process.env.NODE_USE_ENV_PROXY = before;
    }
  });
});

describe("the routing table: which stream brings the server's messages in", () => {
  let running: Running | undefined;
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
    await running?.stop();
    running = undefined;
  });

  async function lean(options?: Parameters<typeof startSDKServer>[0]) {
    running = await startSDKServer(options);
    const connected = await connectLean(running);
    close = () => connected.client.close();
    return { ...connected, running };
  }

  it("json-answer: an application/json answer to a lean POST is read whole by the lean transport", async () => {
    const { client, leanFetch, running } = await lean({ enableJsonResponse: true });
    expect((await client.callTool({ name: "echo", arguments: { text: "json" } })).content).toEqual([
      { type: "text", text: "json" },
    ]);
    expect(leanFetch.at(-1)).toBe("POST tools/call");
    expect(running.seen.find((seen) => seen.rpc === "tools/call")?.contentType).toMatch(/^application\/json/);
  });

  it("sse-answer: a lean POST's event stream brings its notifications, then its answer", async () => {
    const { client, transport, leanFetch, running } = await lean();
    // Seen as the transport delivers them (the SDK client handles the answer before a
    // notification just ahead of it, which the session's layers correct: session-layers.ts).
    const delivered: string[] = [];
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      delivered.push("method" in message ? message.method : "answer");
      deliver?.(message, extra);
    };
    const result = await client.callTool(
      { name: "progress", arguments: {} },
      { onprogress: () => undefined },
    );
    expect(result.content).toEqual([{ type: "text", text: "done" }]);
    expect(delivered).toEqual(["notifications/progress", "answer"]);
    expect(leanFetch.at(-1)).toBe("POST tools/call");
    expect(running.seen.find((seen) => seen.rpc === "tools/call")?.contentType).toBe("text/event-stream");
  });

  it("resumed-stream: a lean POST's stream that ends before its answer is resumed by the lean transport's GET with Last-Event-ID", async () => {
    const { client, bySDK, sdkFetch, leanFetch, running } = await lean();
    bySDK.length = 0;
    const sdkRequests = sdkFetch.length;
    const progress: number[] = [];
    const result = await client.callTool(
      { name: "cut", arguments: {} },
      { onprogress: (update) => progress.push(update.progress) },
    );
    expect(result.content).toEqual([{ type: "text", text: "after the cut" }]);
    expect(progress).toEqual([1]);
    expect(leanFetch.slice(-2)).toEqual(["POST tools/call", "GET last-event-id"]);
    expect(sdkFetch.slice(sdkRequests).filter((request) => request === "GET last-event-id")).toEqual([]);
    expect(bySDK).toEqual([]);
    const resumed = running.seen.find((seen) => seen.headers["last-event-id"] !== undefined)!;
    expect(resumed.headers.accept).toBe("text/event-stream");
    expect(resumed.status).toBe(200);
  });

  it("get-stream: a message outside any request comes on the SDK transport's GET stream", async () => {
    const { client, sdkFetch, leanFetch, running } = await lean();
    const changed = new Promise<void>((resolve) => {
      client.setNotificationHandler("notifications/tools/list_changed", () => resolve());
    });
    await expect.poll(() => running.seen.find((seen) => seen.method === "GET")?.status).toBe(200);
    const leanRequests = leanFetch.length;
    running.toolsChanged();
    await changed;
    expect(sdkFetch).toContain("GET");
    expect(leanFetch.length).toBe(leanRequests);
  });

  it("accepted: a 202 to a lean POST of a notification delivers nothing", async () => {
    const { client, transport, leanFetch, running } = await lean();
    const received: unknown[] = [];
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      received.push(message);
      deliver?.(message, extra);
    };
    await client.notification({ method: "notifications/roots/list_changed" });
    expect(leanFetch.at(-1)).toBe("POST notifications/roots/list_changed");
    expect(running.seen.at(-1)?.status).toBe(202);
    expect(received).toEqual([]);
  });
});
