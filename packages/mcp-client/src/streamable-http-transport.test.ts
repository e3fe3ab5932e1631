import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { SdkHttpError, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it } from "vitest";
import { MCP } from "./mcp.js";
import { httpRoutedElsewhere } from "./node-http-exchange.js";
import {
  checkedMessage,
  isHandedOver,
  LeanStreamableHTTPTransport,
  SSEParser,
  sendRouteOf,
} from "./streamable-http-transport.js";

describe("SSEParser", () => {
  const parse = (chunks: string[]) => {
    const events: { id?: string; event?: string; data: string }[] = [];
    const retries: number[] = [];
    const parser = new SSEParser(
      (event) => events.push(event),
      (ms) => retries.push(ms),
    );
    for (const chunk of chunks) parser.feed(chunk);
    return { events, retries };
  };

  it("splits events on any line end, across chunks, and joins data lines", () => {
    const { events } = parse([
      "\uFEFFid: 1\r",
      '\ndata: {"a":1}\r\n\r',
      "\n: comment\ndata:x\ndata: y\n",
      "\n",
    ]);
    expect(events).toEqual([
      { id: "1", event: undefined, data: '{"a":1}' },
      { id: undefined, event: undefined, data: "x\ny" },
    ]);
  });

  it("keeps an event's type, drops an id with NUL, reads retry, skips events without data", () => {
    const { events, retries } = parse(["event: ping\nid: a\0b\nretry: 250\ndata: z\r\rid: 7\n\n"]);
    expect(events).toEqual([{ id: undefined, event: "ping", data: "z" }]);
    expect(retries).toEqual([250]);
  });
});

describe("checkedMessage", () => {
  it("passes the four JSON-RPC shapes and refuses what the SDK's schema refuses", () => {
    const ok = [
      { jsonrpc: "2.0", id: 1, method: "ping" },
      { jsonrpc: "2.0", method: "notifications/progress", params: { progress: 1 } },
      { jsonrpc: "2.0", id: "a", result: {} },
      { jsonrpc: "2.0", id: 2, error: { code: -32601, message: "no" } },
    ];
    for (const message of ok) expect(checkedMessage(message)).toBe(message);
    const wrong = [
      null,
      [],
      { jsonrpc: "1.0", id: 1, result: {} },
      { jsonrpc: "2.0", id: 1.5, result: {} },
      { jsonrpc: "2.0", id: 1, result: [] },
      { jsonrpc: "2.0", result: {} },
      { jsonrpc: "2.0", id: 1, result: {}, extra: true },
      { jsonrpc: "2.0", id: 1, error: { code: "x", message: "no" } },
      { jsonrpc: "2.0", id: 1 },
    ];
    for (const message of wrong) expect(() => checkedMessage(message)).toThrow(/Invalid JSON-RPC message/);
  });
});

/** A Streamable HTTP echo server written by hand, so each test chooses how it answers. */
async function startServer(
  answer: (body: Record<string, unknown>, res: ServerResponse, req: IncomingMessage) => void,
  onGet?: (res: ServerResponse, req: IncomingMessage) => void,
) {
  const posts: { method: unknown; headers: IncomingMessage["headers"]; socket: unknown; body: unknown }[] =
    [];
  const gets: IncomingMessage["headers"][] = [];
  const server = createServer(async (req, res) => {
    if (req.method === "GET" && onGet && req.headers["last-event-id"] !== undefined) {
      gets.push(req.headers);
      onGet(res, req);
      return;
    }
    if (req.method !== "POST") {
      res.writeHead(405).end();
      return;
    }
    let text = "";
    for await (const chunk of req) text += chunk;
    const body = JSON.parse(text) as Record<string, unknown>;
    posts.push({ method: body.method, headers: req.headers, socket: req.socket, body });
    if (body.method === "initialize") {
      res.writeHead(200, { "content-type": "application/json", "mcp-session-id": "session-1" });
      res.end(
        JSON.stringify({
          jsonrpc: "2.0",
          id: body.id,
          result: {
            protocolVersion: "2025-11-25",
            capabilities: { tools: {} },
            serverInfo: { name: "hand-written", version: "1.0.0" },
          },
        }),
      );
      return;
    }
    if (!("id" in body)) {
      res.writeHead(202).end();
      return;
    }
    answer(body, res, req);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    posts,
    gets,
    /** Closes every idle kept-alive connection from the server's side (as a server going away does). */
    closeIdle: () => server.closeIdleConnections(),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const toolsList = (id: unknown) => ({
  jsonrpc: "2.0",
  id,
  result: {
    tools: [{ name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } } } }],
  },
});

describe("LeanStreamableHTTPTransport under MCP", () => {
  let stop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await stop?.();
    stop = undefined;
  });

  it.each([
    ["node:http", undefined],
    ["a config's fetch", ((input, init) => fetch(input, init)) as typeof fetch],
  ])(
    "is the transport of an http connection without an authProvider, and carries the session (%s)",
    async (_, configFetch) => {
      const server = await startServer((body, res) => {
        res.writeHead(200, { "content-type": "text/event-stream" });
        if (body.method === "tools/list") res.end(`data: ${JSON.stringify(toolsList(body.id))}\n\n`);
        else {
          const progressToken = (body.params as { _meta?: { progressToken?: unknown } })._meta?.progressToken;
          const text = (body.params as { arguments: { text: string } }).arguments.text;
          // A progress notification, then the answer split across writes in the middle of a line.
          res.write(
            `data: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken, progress: 1, total: 2 } })}\n\n`,
          );
          const answer = `data: ${JSON.stringify({ jsonrpc: "2.0", id: body.id, result: { content: [{ type: "text", text }] } })}\r\n\r\n`;
          res.write(answer.slice(0, 20));
          setTimeout(() => res.end(answer.slice(20)), 5);
        }
      });
      stop = server.stop;
      const mcp = new MCP({
        transport: "http",
        url: server.url,
        sseFallback: false,
        protocolVersion: "2025-11-25",
        ...(configFetch ? { fetch: configFetch } : {}),
      });
      await mcp.connect();
      try {
        const transport = (mcp as unknown as { session: { transport: unknown } }).session.transport;
        expect(transport).toBeInstanceOf(LeanStreamableHTTPTransport);
        const progress: number[] = [];
        const result = await mcp.callTool(
          "echo",
          { text: "hi" },
          { onProgress: (p) => progress.push(p.progress) },
        );
        expect(result).toEqual({ content: [{ type: "text", text: "hi" }], isError: false });
        expect(progress).toEqual([1]);
        const call = server.posts.find((post) => post.method === "tools/call")!;
        expect(call.headers["mcp-session-id"]).toBe("session-1");
        expect(call.headers["mcp-protocol-version"]).toBe("2025-11-25");
        expect(call.headers.accept).toBe("application/json, text/event-stream");
        expect(call.headers["content-type"]).toBe("application/json");
      } finally {
        await mcp.close();
      }
    },
  );

  it("reads a JSON answer, and reports a 404 as the SDK does (the session is gone)", async () => {
    let gone = false;
    const server = await startServer((body, res) => {
      if (gone) {
        res.writeHead(404, { "content-type": "text/plain" }).end("no such session");
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify(
          body.method === "tools/list" ? toolsList(body.id) : { jsonrpc: "2.0", id: body.id, result: {} },
        ),
      );
    });
    stop = server.stop;
    const inner = new StreamableHTTPClientTransport(new URL(server.url));
    const transport = new LeanStreamableHTTPTransport(new URL(server.url), inner);
    const received: unknown[] = [];
    transport.onmessage = (message) => received.push(message);
    await transport.start();
    await transport.send({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
    expect(received).toEqual([toolsList(1)]);
    gone = true;
    const error = await transport.send({ jsonrpc: "2.0", id: 2, method: "ping" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SdkHttpError);
    expect((error as SdkHttpError).status).toBe(404);
    expect((error as Error).message).toBe("Error POSTing to endpoint: no such session");
    await transport.close();
  });
});

describe("LeanStreamableHTTPTransport's requests", () => {
  let stop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await stop?.();
    stop = undefined;
  });

  const echoServer = () =>
    startServer((body, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      const text = (body.params as { arguments?: { text?: string } }).arguments?.text;
      res.end(
        JSON.stringify(
          body.method === "tools/list"
            ? toolsList(body.id)
            : { jsonrpc: "2.0", id: body.id, result: { content: [{ type: "text", text }] } },
        ),
      );
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

  it("go through node:http with a keep-alive pool: eight parallel calls open eight connections, then reuse them", async () => {
    const server = await echoServer();
    stop = server.stop;
    const mcp = new MCP({
      transport: "http",
      url: server.url,
      sseFallback: false,
      protocolVersion: "2025-11-25",
    });
    await mcp.connect();
    try {
      await mcp.listTools();
      const texts = Array.from({ length: 8 }, (_, index) => `call ${index}`);
      const callAll = async () => {
        const results = await Promise.all(texts.map((text) => mcp.callTool("echo", { text })));
        expect(results.map((result) => result.content)).toEqual(
          texts.map((text) => [{ type: "text", text }]),
        );
      };
      const socketsOfCalls = () =>
        new Set(
          server.posts.splice(0).flatMap((post) => (post.method === "tools/call" ? [post.socket] : [])),
        );
      server.posts.length = 0;
      const first = await countRequests(callAll);
      const firstSockets = socketsOfCalls();
      const second = await countRequests(callAll);
      const secondSockets = socketsOfCalls();
      expect(first).toEqual({ fetch: 0, nodeHttp: 8 });
      expect(second).toEqual({ fetch: 0, nodeHttp: 8 });
      // One connection per call in flight at most, and the second round opens none.
      expect(firstSockets.size).toBeGreaterThan(1);
      expect(firstSockets.size).toBeLessThanOrEqual(8);
      expect([...secondSockets].filter((socket) => !firstSockets.has(socket))).toEqual([]);
      await mcp.callTool("echo", { text: "last" });
      const call = server.posts.find((post) => post.method === "tools/call")!;
      expect(call.headers["mcp-session-id"]).toBe("session-1");
      expect(call.headers["mcp-protocol-version"]).toBe("2025-11-25");
      expect(call.headers["transfer-encoding"]).toBeUndefined();
      expect(Number(call.headers["content-length"])).toBeGreaterThan(50);
      expect(call.headers["user-agent"]).toBe("node");
    } finally {
      await mcp.close();
    }
  });

  it("send a read again, once, on a new connection when a kept-alive one turns out closed by the server", async () => {
    const served = new WeakSet<object>();
    let dropped = 0;
    let droppedSocket: unknown;
    const server = await startServer((body, res, req) => {
      if (body.method === "tools/list" && served.has(req.socket) && dropped === 0) {
        // As a server whose idle timeout closed the connection just as the request went out.
        dropped++;
        droppedSocket = req.socket;
        req.socket.destroy();
        return;
      }
      served.add(req.socket);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(toolsList(body.id)));
    });
    stop = server.stop;
    const mcp = new MCP({
      transport: "http",
      url: server.url,
      sseFallback: false,
      protocolVersion: "2025-11-25",
    });
    await mcp.connect();
    try {
      await mcp.listTools();
      expect((await mcp.refreshTools()).map((tool) => tool.name)).toEqual(["echo"]);
      expect(dropped).toBe(1);
      // The dropped request went again at once, on a connection of its own.
      const lists = server.posts.filter((post) => post.method === "tools/list");
      expect(lists.map((list) => list.socket === droppedSocket)).toEqual([true, true, false]);
    } finally {
      await mcp.close();
    }
  });

  it("never send a tools/call again after a kept-alive connection is reset once the server read it", async () => {
    const served = new WeakSet<object>();
    let reset = 0;
    const server = await startServer((body, res, req) => {
      if (body.method === "tools/call" && served.has(req.socket) && reset === 0) {
        // A server (or a proxy, a balancer) that read the whole request, maybe ran it, then reset.
        reset++;
        req.socket.resetAndDestroy();
        return;
      }
      served.add(req.socket);
      res.writeHead(200, { "content-type": "application/json" });
      const text = (body.params as { arguments?: { text?: string } }).arguments?.text;
      res.end(
        JSON.stringify(
          body.method === "tools/list"
            ? toolsList(body.id)
            : { jsonrpc: "2.0", id: body.id, result: { content: [{ type: "text", text }] } },
        ),
      );
    });
    stop = server.stop;
    const mcp = new MCP({
      transport: "http",
      name: "resets",
      url: server.url,
      sseFallback: false,
      protocolVersion: "2025-11-25",
    });
    await mcp.connect();
    try {
      await mcp.listTools();
      await expect(mcp.callTool("echo", { text: "one" })).rejects.toMatchObject({
        code: "mcp-connection-closed",
        message:
          'connection to MCP server "resets" closed during tools/call; the request had been sent, so the server may have acted on it, and it was not sent again',
      });
      expect(reset).toBe(1);
      const calls = server.posts.filter((post) => post.method === "tools/call");
      expect(calls.map((call) => (call.body as { params: { arguments: unknown } }).params.arguments)).toEqual(
        [{ text: "one" }],
      );
      // The connection is still usable.
      expect((await mcp.callTool("echo", { text: "three" })).content).toEqual([
        { type: "text", text: "three" },
      ]);
    } finally {
      await mcp.close();
    }
  });

  it("send a tools/call on a fresh connection when the server has just closed the idle ones", async () => {
    const server = await echoServer();
    stop = server.stop;
    const mcp = new MCP({
      transport: "http",
      url: server.url,
      sseFallback: false,
      protocolVersion: "2025-11-25",
    });
    await mcp.connect();
    try {
      await mcp.listTools();
      expect((await mcp.callTool("echo", { text: "one" })).content).toEqual([{ type: "text", text: "one" }]);
      // Closed from the server's side just before the next call: its FIN has not been read here yet.
      server.closeIdle();
      expect((await mcp.callTool("echo", { text: "two" })).content).toEqual([{ type: "text", text: "two" }]);
      const calls = server.posts.filter((post) => post.method === "tools/call");
      expect(calls.map((call) => (call.body as { params: { arguments: unknown } }).params.arguments)).toEqual(
        [{ text: "one" }, { text: "two" }],
      );
    } finally {
      await mcp.close();
    }
  });

  it("go through the config's fetch, or a global fetch replaced since startup, when there is one", async () => {
    const server = await echoServer();
    stop = server.stop;
    const seen: string[] = [];
    const configFetch: typeof fetch = (input, init) => {
      seen.push(`config ${init?.method}`);
      return fetch(input, init);
    };
    const withConfigFetch = new MCP({
      transport: "http",
      url: server.url,
      sseFallback: false,
      protocolVersion: "2025-11-25",
      fetch: configFetch,
    });
    await withConfigFetch.connect();
    try {
      await withConfigFetch.listTools();
      seen.length = 0;
      expect((await withConfigFetch.callTool("echo", { text: "a" })).content).toEqual([
        { type: "text", text: "a" },
      ]);
      expect(seen).toEqual(["config POST"]);
    } finally {
      await withConfigFetch.close();
    }
    const original = globalThis.fetch;
    const mcp = new MCP({
      transport: "http",
      url: server.url,
      sseFallback: false,
      protocolVersion: "2025-11-25",
    });
    await mcp.connect();
    try {
      await mcp.listTools();
      seen.length = 0;
      globalThis.fetch = (input, init) => {
        seen.push(`global ${init?.method}`);
        return original(input, init);
      };
      expect((await mcp.callTool("echo", { text: "b" })).content).toEqual([{ type: "text", text: "b" }]);
      expect(seen).toEqual(["global POST"]);
    } finally {
      globalThis.fetch = original;
      await mcp.close();
    }
  });

  it("resume a stream that ends before its answer with a GET carrying Last-Event-ID, after the server's retry interval, without the SDK transport's internals", async () => {
    let postedAt = 0;
    let gotAt = 0;
    const server = await startServer(
      (body, res) => {
        if (body.method === "tools/list") {
          res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(toolsList(body.id)));
          return;
        }
        postedAt = Date.now();
        res.writeHead(200, { "content-type": "text/event-stream" });
        // A priming event with an id and a retry interval, then the stream ends without the answer.
        res.end(`id: event-1\nretry: 150\ndata: \n\n`);
        pendingId = body.id;
      },
      (res) => {
        gotAt = Date.now();
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.end(
          `id: event-2\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: pendingId, result: { content: [{ type: "text", text: "resumed" }] } })}\n\n`,
        );
      },
    );
    let pendingId: unknown;
    stop = server.stop;
    const mcp = new MCP({
      transport: "http",
      url: server.url,
      sseFallback: false,
      protocolVersion: "2025-11-25",
    });
    await mcp.connect();
    try {
      const transport = (mcp as unknown as { session: { transport: LeanStreamableHTTPTransport } }).session
        .transport;
      const internal: string[] = [];
      Object.assign(transport.inner, {
        _scheduleReconnection: () => internal.push("_scheduleReconnection"),
      });
      await mcp.listTools();
      const gets = server.gets.length;
      const result = await mcp.callTool("echo", { text: "x" });
      expect(result.content).toEqual([{ type: "text", text: "resumed" }]);
      expect(internal).toEqual([]);
      const resumed = server.gets.slice(gets).find((headers) => headers["last-event-id"] !== undefined)!;
      expect(resumed["last-event-id"]).toBe("event-1");
      expect(resumed["mcp-session-id"]).toBe("session-1");
      expect(resumed.accept).toBe("text/event-stream");
      expect(gotAt - postedAt).toBeGreaterThanOrEqual(140);
    } finally {
      await mcp.close();
    }
  });
});

describe("who sends each message (the table at the head of streamable-http-transport.ts)", () => {
  let stop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await stop?.();
    stop = undefined;
  });

  /**
   * A lean transport over the real SDK transport, on a real server, with the SDK transport's
   * sends recorded (and still made). Answers `ping` with an empty result; `redirect-me` with a
   * 307 to the same endpoint the first time; `scope-me` with a step-up challenge.
   */
  async function route() {
    let redirected = false;
    const server = await startServer(
      (body, res) => {
        if (body.method === "redirect-me" && !redirected) {
          redirected = true;
          res.writeHead(307, { location: "/mcp?moved" }).end();
          return;
        }
        if (body.method === "scope-me") {
          res
            .writeHead(403, { "www-authenticate": 'Bearer error="insufficient_scope", scope="more"' })
            .end("more scope needed");
          return;
        }
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ jsonrpc: "2.0", id: body.id, result: {} }));
      },
      (res) => {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.end(
          `id: ev-2\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: 9, result: { resumed: true } })}\n\n`,
        );
      },
    );
    stop = server.stop;
    const inner = new StreamableHTTPClientTransport(new URL(server.url));
    const bySDK: unknown[] = [];
    const send = inner.send.bind(inner);
    inner.send = (message, options) => {
      bySDK.push(message);
      return send(message, options);
    };
    const transport = new LeanStreamableHTTPTransport(new URL(server.url), inner);
    const received: unknown[] = [];
    transport.onmessage = (message) => received.push(message);
    await transport.start();
    return { server, transport, bySDK, received };
  }

  const initialize = {
    jsonrpc: "2.0" as const,
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
  };

  it("batch: an array goes through the SDK", async () => {
    const { transport, bySDK, server } = await route();
    const batch = [{ jsonrpc: "2.0" as const, method: "notifications/roots/list_changed" }];
    await transport.send(batch);
    expect(sendRouteOf(batch, { resumptionToken: undefined, closed: false })).toBe("batch");
    expect(bySDK).toEqual([batch]);
    expect(server.posts).toHaveLength(1);
    await transport.close();
  });

  it("resumption: a message with a resumption token goes through the SDK, which resumes with Last-Event-ID", async () => {
    const { transport, bySDK, server, received } = await route();
    const ping = { jsonrpc: "2.0" as const, id: 9, method: "ping" };
    await transport.send(ping, { resumptionToken: "ev-1" });
    await expect.poll(() => received).toEqual([{ jsonrpc: "2.0", id: 9, result: { resumed: true } }]);
    expect(bySDK).toEqual([ping]);
    expect(server.gets.map((headers) => headers["last-event-id"])).toEqual(["ev-1"]);
    expect(server.posts).toHaveLength(0);
    await transport.close();
  });

  it("closed: a message after close() goes to the SDK, which refuses it", async () => {
    const { transport, bySDK, server } = await route();
    await transport.close();
    const ping = { jsonrpc: "2.0" as const, id: 1, method: "ping" };
    const sent = await transport.send(ping).then(
      () => "sent",
      (error: unknown) => (error instanceof Error ? "refused" : "thrown"),
    );
    expect(bySDK).toEqual([ping]);
    expect(sent).toBe("refused");
    expect(server.posts).toHaveLength(0);
  });

  it("initialize and initialized: the handshake goes through the SDK, which keeps the session id", async () => {
    const { transport, bySDK, received } = await route();
    await transport.send(initialize);
    const initialized = { jsonrpc: "2.0" as const, method: "notifications/initialized" };
    await transport.send(initialized);
    expect(bySDK).toEqual([initialize, initialized]);
    expect(received).toHaveLength(1);
    expect(transport.sessionId).toBe("session-1");
    await transport.close();
  });

  it("post: every other request, notification and response is sent by the lean transport, with the session", async () => {
    const { transport, bySDK, server, received } = await route();
    await transport.send(initialize);
    bySDK.length = 0;
    server.posts.length = 0;
    const messages = [
      { jsonrpc: "2.0" as const, id: 1, method: "ping" },
      { jsonrpc: "2.0" as const, method: "notifications/cancelled", params: { requestId: 7 } },
      { jsonrpc: "2.0" as const, id: "from-server", result: {} },
    ];
    for (const message of messages) {
      expect(sendRouteOf(message, { resumptionToken: undefined, closed: false })).toBe("post");
      await transport.send(message);
    }
    expect(bySDK).toEqual([]);
    expect(server.posts.map((post) => post.body)).toEqual(messages);
    expect(server.posts.every((post) => post.headers["mcp-session-id"] === "session-1")).toBe(true);
    expect(received.at(-1)).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    await transport.close();
  });

  it("handed over: a lean POST answered by a redirect or a step-up challenge is sent again by the SDK", async () => {
    const { transport, bySDK, server, received } = await route();
    const moved = { jsonrpc: "2.0" as const, id: 3, method: "redirect-me" };
    await transport.send(moved);
    expect(bySDK).toEqual([moved]);
    await expect.poll(() => received).toContainEqual({ jsonrpc: "2.0", id: 3, result: {} });
    const scoped = { jsonrpc: "2.0" as const, id: 4, method: "scope-me" };
    // Without an authProvider the SDK cannot step up, and says so.
    await expect(transport.send(scoped)).rejects.toThrow();
    expect(bySDK).toEqual([moved, scoped]);
    expect(server.posts.filter((post) => post.method === "scope-me").length).toBeGreaterThanOrEqual(2);
    expect(isHandedOver(403, 'Bearer error="invalid_token"')).toBe(false);
    expect(isHandedOver(401, undefined)).toBe(false);
    await transport.close();
  });
});

describe("httpRoutedElsewhere", () => {
  const dispatcherKey = Symbol.for("undici.globalDispatcher.1");
  it("keeps to fetch when the environment's proxy is on or an undici dispatcher other than a plain Agent is installed", () => {
    class Agent {}
    class ProxyAgent {}
    expect(httpRoutedElsewhere({}, {})).toBe(false);
    expect(httpRoutedElsewhere({ NODE_USE_ENV_PROXY: "0" }, {})).toBe(false);
    expect(httpRoutedElsewhere({ NODE_USE_ENV_PROXY: "1" }, {})).toBe(true);
    expect(httpRoutedElsewhere({}, { [dispatcherKey]: new Agent() })).toBe(false);
    expect(httpRoutedElsewhere({}, { [dispatcherKey]: new ProxyAgent() })).toBe(true);
  });
});
