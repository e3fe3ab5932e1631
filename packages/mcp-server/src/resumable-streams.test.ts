import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { tool } from "@junction/core";
import { Client, type FetchLike, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { EventStore, JSONRPCMessage, ServerContext } from "@modelcontextprotocol/server";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { InMemoryEventStore } from "./event-store.js";
import { createMCPHTTPHandler, type MCPHTTPOptions } from "./http-handler.js";
import { createMCPServer } from "./mcp-server.js";
import { servedContext } from "./served-context.js";

// Resumable SSE streams on 2025-11-25 sessions: the official SDK client's stream breaks in the
// middle of a call, it resumes with `Last-Event-ID`, and gets the result and every notification
// once. Every step waits on an event: the break is made when the first notification arrives,
// the server's side of it is awaited, and the client reconnects when the test says (its
// `reconnectionScheduler`), not after a delay.

/** A promise with its resolver, for one event a test waits on. */
function signal<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close()));
});

interface Endpoint {
  url: string;
  /** Resolves when the server's side of a tools/call SSE stream was cancelled (the client went away). */
  streamCut: Promise<void>;
  /** Resolves with the status the server answered a resuming GET (`Last-Event-ID`) with. */
  resumed: Promise<number>;
}

/**
 * Serves the handler on Node, with each tools/call SSE response passed through a stream that
 * tells when the client's socket went. `halfOpen`: the SDK is not told (its stream stays open,
 * as after a connection that died without a word).
 */
async function listen(
  server: ReturnType<typeof createMCPServer>,
  { http = {}, halfOpen = false }: { http?: MCPHTTPOptions; halfOpen?: boolean } = {},
): Promise<Endpoint> {
  const handler = createMCPHTTPHandler(server, http);
  const cut = signal();
  const resumed = signal<number>();
  const fetch = async (request: Request, env: unknown) => {
    if (request.headers.has("last-event-id")) {
      const response = await handler.fetch(request, env);
      resumed.resolve(response.status);
      return response;
    }
    const isCall = request.method === "POST" && (await request.clone().text()).includes('"tools/call"');
    const response = await handler.fetch(request, env);
    if (!isCall || !response.body) return response;
    const upstream = response.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { value, done } = await upstream.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      async cancel(reason) {
        if (!halfOpen) await upstream.cancel(reason);
        cut.resolve();
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
  const { listener, address } = await new Promise<{
    listener: ReturnType<typeof serve>;
    address: AddressInfo;
  }>((resolve) => {
    const listener = serve({ fetch, port: 0, hostname: "127.0.0.1" }, (info) =>
      resolve({ listener, address: info }),
    );
  });
  closing.push(async () => {
    await handler.close();
    await new Promise<void>((resolve) => {
      listener.close(() => resolve());
      (listener as { closeAllConnections?: () => void }).closeAllConnections?.();
    });
  });
  return { url: `http://127.0.0.1:${address.port}/mcp`, streamCut: cut.promise, resumed: resumed.promise };
}

/** The requests the client made, and a way to break the tools/call stream it is reading. */
interface Wire {
  requests: { method: string; lastEventId: string | null; body: string }[];
  /** Destroys the connection of the tools/call POST (its body read fails, as on a network cut). */
  cutCall(): void;
  /** Resolves with the client's reconnect once it schedules one; calling it reconnects. */
  reconnect: Promise<() => void>;
}

async function connectClient(url: string): Promise<{ client: Client; wire: Wire }> {
  const cutter = new AbortController();
  const scheduled = signal<() => void>();
  const requests: Wire["requests"] = [];
  const fetchThrough: FetchLike = async (input, init) => {
    const headers = new Headers(init?.headers);
    const body = typeof init?.body === "string" ? init.body : "";
    requests.push({ method: init?.method ?? "GET", lastEventId: headers.get("last-event-id"), body });
    const isCall = body.includes('"tools/call"');
    const signals = [init?.signal, isCall ? cutter.signal : undefined].filter((s): s is AbortSignal => !!s);
    return fetch(input, { ...init, signal: AbortSignal.any(signals) });
  };
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    fetch: fetchThrough,
    reconnectionScheduler: (reconnect) => {
      scheduled.resolve(reconnect);
    },
  });
  const client = new Client(
    { name: "resuming", version: "1.0.0" },
    { versionNegotiation: { mode: "legacy" } },
  );
  await client.connect(transport);
  closing.push(() => client.close());
  return {
    client,
    wire: { requests, cutCall: () => cutter.abort(), reconnect: scheduled.promise },
  };
}

describe("a 2025-11-25 call whose SSE stream breaks", () => {
  it.each([
    // The rest is sent while the client is away, into the event store only, and replayed.
    ["the server sees it go and finishes the call before the client is back", false],
    // The server writes into the dead stream until the resumed one takes its place; the rest goes on that one.
    ["the server still thinks it open and the call goes on once the client is back", true],
  ])(
    "resumes with Last-Event-ID after the client's connection is destroyed: %s; it gets the rest once",
    async (_case, halfOpen) => {
      const gate = signal();
      const server = createMCPServer({
        name: "resumable",
        version: "1.0.0",
        tools: [
          tool({
            name: "steps",
            description: "Reports three steps, the last two after a gate opens",
            schema: z.object({}),
            execute: async (_input, context) => {
              const served = servedContext(context);
              if (!served) throw new Error("steps: not called through the server");
              await served.progress({ progress: 1, total: 3 });
              await gate.promise;
              await served.progress({ progress: 2, total: 3 });
              await served.progress({ progress: 3, total: 3 });
              return "all steps done";
            },
          }),
        ],
      });
      // The store tells when the call's response is in it: sent, whether or not anyone reads the stream.
      const responseStored = signal();
      const eventStore = (): EventStore => {
        const store = new InMemoryEventStore();
        return {
          storeEvent: (streamId, message) => {
            if ("result" in message) responseStored.resolve();
            return store.storeEvent(streamId, message);
          },
          replayEventsAfter: (lastEventId, send) => store.replayEventsAfter(lastEventId, send),
        };
      };
      // Half open: the default store, as it is served.
      const endpoint = await listen(server, { halfOpen, http: halfOpen ? {} : { sessions: { eventStore } } });
      const { client, wire } = await connectClient(endpoint.url);
      const progress: number[] = [];
      const call = client.callTool(
        { name: "steps", arguments: {} },
        {
          onprogress: ({ progress: step }) => {
            progress.push(step);
            if (step === 1) wire.cutCall();
          },
        },
      );
      await endpoint.streamCut;
      const reconnect = await wire.reconnect;
      if (halfOpen) {
        reconnect();
        expect(await endpoint.resumed).toBe(200);
        gate.resolve();
      } else {
        gate.resolve();
        await responseStored.promise;
        reconnect();
      }
      const result = await call;

      expect(result.content).toEqual([{ type: "text", text: "all steps done" }]);
      expect(progress).toEqual([1, 2, 3]);
      // (The client's other GET is its standalone stream, opened after initialize.)
      const resumed = wire.requests.filter((request) => request.lastEventId !== null);
      expect(resumed).toHaveLength(1);
      expect(resumed[0]?.method).toBe("GET");
      expect(resumed[0]?.lastEventId).toMatch(/\S+:\d+$/);
    },
  );

  it("resumes a stream the server ended after its priming event, before anything else", async () => {
    const endedBy = signal<ServerContext>();
    const server = createMCPServer({
      name: "polling",
      version: "1.0.0",
      configure: (sdk) => {
        sdk.registerTool(
          "poll",
          { description: "Ends its stream, then reports and answers" },
          async (ctx) => {
            ctx.http?.closeSSE?.();
            endedBy.resolve(ctx);
            for (const step of [1, 2]) {
              await ctx.mcpReq.notify({
                method: "notifications/progress",
                params: { progressToken: ctx.mcpReq._meta?.progressToken ?? "none", progress: step },
              });
            }
            return { content: [{ type: "text", text: "polled" }] };
          },
        );
      },
    });
    const endpoint = await listen(server);
    const { client, wire } = await connectClient(endpoint.url);
    const progress: number[] = [];
    const call = client.callTool(
      { name: "poll", arguments: {} },
      { onprogress: ({ progress: step }) => progress.push(step) },
    );
    await endedBy.promise;
    (await wire.reconnect)();
    const result = await call;

    expect(result.content).toEqual([{ type: "text", text: "polled" }]);
    expect(progress).toEqual([1, 2]);
    const resumed = wire.requests.filter((request) => request.lastEventId !== null);
    expect(resumed.map((request) => request.method)).toEqual(["GET"]);
  });
});

describe("the SSE stream of a 2025-11-25 call", () => {
  const initialize = {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  };
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };

  /** The raw SSE text of a tools/call on a new session. */
  async function callStream(options: MCPHTTPOptions): Promise<string> {
    const server = createMCPServer({
      name: "raw",
      version: "1.0.0",
      tools: [
        tool({ name: "echo", description: "Echoes", schema: z.object({}), execute: async () => "echo" }),
      ],
    });
    const { url } = await listen(server, { http: options });
    const opened = await fetch(url, { method: "POST", headers, body: JSON.stringify(initialize) });
    await opened.text();
    const session = {
      "mcp-session-id": opened.headers.get("mcp-session-id") ?? "",
      "mcp-protocol-version": "2025-11-25",
    };
    await fetch(url, {
      method: "POST",
      headers: { ...headers, ...session },
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    });
    const called = await fetch(url, {
      method: "POST",
      headers: { ...headers, ...session },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "echo", arguments: {} },
      }),
    });
    return called.text();
  }

  it("opens with a priming event: an ID, the retry, no data", async () => {
    const text = await callStream({ sessions: { retryMs: 250 } });
    expect(text).toMatch(/^id: \S+:\d+\nretry: 250\ndata: \n\n/);
    expect(text).toContain('"text":"echo"');
  });

  it("has no priming event, and no event IDs, with `eventStore: false`", async () => {
    const text = await callStream({ sessions: { eventStore: false } });
    expect(text).not.toMatch(/^id:/m);
    expect(text).not.toMatch(/^retry:/m);
    expect(text).toContain('"text":"echo"');
  });

  it("keeps events in the store `sessions.eventStore` makes, one per session", async () => {
    const stored: { sessionId: string; message: JSONRPCMessage }[] = [];
    const eventStore = (sessionId: string): EventStore => {
      const inner = new InMemoryEventStore();
      return {
        storeEvent: (streamId, message) => {
          stored.push({ sessionId, message });
          return inner.storeEvent(streamId, message);
        },
        replayEventsAfter: (lastEventId, send) => inner.replayEventsAfter(lastEventId, send),
      };
    };
    await callStream({ sessions: { eventStore } });
    expect(new Set(stored.map((event) => event.sessionId)).size).toBe(1);
    expect(stored.some(({ message }) => JSON.stringify(message).includes('"text":"echo"'))).toBe(true);
  });

  it("refuses a retry that is not a whole number of milliseconds", () => {
    const server = createMCPServer({ name: "raw", version: "1.0.0" });
    expect(() => createMCPHTTPHandler(server, { sessions: { retryMs: -1 } })).toThrow(
      /`sessions.retryMs` must be/,
    );
  });
});

describe("InMemoryEventStore", () => {
  const message = (id: number): JSONRPCMessage => ({
    jsonrpc: "2.0",
    method: "notifications/progress",
    params: { progressToken: 1, progress: id },
  });
  const replay = async (store: InMemoryEventStore, after: string) => {
    const sent: unknown[] = [];
    const stream = await store.replayEventsAfter(after, {
      send: async (_id, replayed) => {
        sent.push((replayed as unknown as { params: { progress: number } }).params.progress);
      },
    });
    return { stream, sent };
  };

  it("replays the events of the same stream after the given one, and leaves out priming events", async () => {
    const store = new InMemoryEventStore();
    const priming = await store.storeEvent("a", {} as JSONRPCMessage);
    await store.storeEvent("a", message(1));
    await store.storeEvent("b", message(99));
    const second = await store.storeEvent("a", message(2));
    await store.storeEvent("a", message(3));
    expect(await replay(store, priming)).toEqual({ stream: "a", sent: [1, 2, 3] });
    expect(await replay(store, second)).toEqual({ stream: "a", sent: [3] });
  });

  it("keeps at most `maxEvents`, and refuses to resume where events after the ID were dropped", async () => {
    const store = new InMemoryEventStore({ maxEvents: 2 });
    const first = await store.storeEvent("a", message(1));
    const second = await store.storeEvent("a", message(2));
    await store.storeEvent("a", message(3));
    await store.storeEvent("a", message(4));
    // 2 went: resuming after 1 would skip it; after 2, nothing is missing.
    await expect(replay(store, first)).rejects.toThrow(/Cannot resume after event/);
    expect(await replay(store, second)).toEqual({ stream: "a", sent: [3, 4] });
  });

  it("does not know an ID it never made", async () => {
    const store = new InMemoryEventStore();
    await expect(replay(store, "forged")).rejects.toThrow(/Cannot resume after event "forged"/);
    await expect(replay(store, "a:1")).rejects.toThrow(/Cannot resume after event "a:1"/);
  });

  it("refuses a `maxEvents` that is not a positive integer", () => {
    expect(() => new InMemoryEventStore({ maxEvents: 0 })).toThrow(/`maxEvents` must be a positive integer/);
  });
});
