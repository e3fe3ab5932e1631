import { JunctionError } from "@junction/types";
import {
  type AuthInfo,
  type EventStore,
  type McpServer,
  type McpServerFactory,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import { InMemoryEventStore } from "./event-store.js";
import { addressRateKey } from "./rate-limit.js";

/** Limits on 2025-11-25 sessions. */
export interface LegacySessionOptions {
  /**
   * Sessions open at once; an `initialize` beyond it is answered 503.
   * @default 1000
   */
  maxSessions?: number;
  /**
   * Sessions one client may hold open at once, below `maxSessions` so that one client holding
   * sessions cannot lock every other client out until its sessions go idle. A client is the
   * authenticated client id when the endpoint authenticates, otherwise the remote address (behind
   * a proxy, every client shares the proxy's address: set `clientKey`). An `initialize` beyond it
   * is answered 429. Clamped to `maxSessions`.
   * @default 100
   */
  maxSessionsPerClient?: number;
  /**
   * Names the client a request comes from, for `maxSessionsPerClient`, where the authenticated
   * client id and the remote address do not (e.g. from a proxy's `X-Forwarded-For`). `undefined`
   * falls back to them.
   */
  clientKey?: (request: Request) => string | undefined;
  /**
   * A session without a request for this long is closed.
   * @default 1800000 (30 minutes)
   */
  idleTimeoutMs?: number;
  /**
   * Makes each session's event store, which keeps what the session's SSE streams sent so that a
   * stream is resumable: every stream opens with a priming event (an event ID and `retry`, no
   * data), and a client whose stream broke reconnects with `GET` and `Last-Event-ID` and gets
   * every message sent after that event, the call's response included, once. A store is the
   * SDK's `EventStore` (`storeEvent`, `replayEventsAfter`; a `getStreamIdForEventId` makes the
   * SDK refuse, 409, to resume a stream it still thinks open); give each session its own, so that
   * no session can replay another's events. `false`: streams are not resumable, and a response whose stream broke is lost.
   * @default `() => new InMemoryEventStore()` (the last 500 events of each session)
   */
  eventStore?: false | ((sessionId: string) => EventStore);
  /**
   * The `retry` a priming event tells the client: how long to wait, in milliseconds, before it
   * reconnects a stream that ended before the response.
   * @default 1000
   */
  retryMs?: number;
}

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  server: McpServer;
  /** Who opened it, when the endpoint authenticates: another principal may not use it. */
  clientId: string | undefined;
  lastSeen: number;
  /** Whom the session counts against for `maxSessionsPerClient`; `undefined`: no one known. */
  clientKey: string | undefined;
}

/** What `LegacySessions.handle` takes besides the request. */
export interface LegacySessionRequest {
  /** The verified token, when the endpoint authenticates. */
  authInfo?: AuthInfo | undefined;
  /** The request's JSON body when the caller has already read it (the request's own body is then used up). */
  parsedBody?: unknown;
  /** The remote address the request came from, where the runtime tells it. */
  remoteAddress?: string | undefined;
}

/**
 * Serves 2025-era Streamable HTTP with sessions, the SDK's way: one
 * `WebStandardStreamableHTTPServerTransport` and one server instance per session, found by
 * `Mcp-Session-Id`. (The SDK's `createMcpHandler` serves the 2025 era statelessly only.)
 */
export class LegacySessions {
  readonly #factory: McpServerFactory;
  readonly #sessions = new Map<string, Session>();
  readonly #maxSessions: number;
  readonly #maxSessionsPerClient: number;
  readonly #clientKey: ((request: Request) => string | undefined) | undefined;
  /** Sessions open or being opened, per client key. */
  readonly #perClient = new Map<string, number>();
  /** Initializes under way (counted against the limits before their session exists). */
  #opening = 0;
  readonly #idleTimeoutMs: number;
  readonly #eventStore: ((sessionId: string) => EventStore) | undefined;
  readonly #retryMs: number;
  readonly #sweeper: ReturnType<typeof setInterval>;

  constructor(factory: McpServerFactory, options: LegacySessionOptions = {}) {
    this.#factory = factory;
    this.#maxSessions = options.maxSessions ?? 1000;
    this.#maxSessionsPerClient = Math.min(options.maxSessionsPerClient ?? 100, this.#maxSessions);
    this.#clientKey = options.clientKey;
    this.#idleTimeoutMs = options.idleTimeoutMs ?? 30 * 60_000;
    this.#eventStore =
      options.eventStore === false ? undefined : (options.eventStore ?? (() => new InMemoryEventStore()));
    this.#retryMs = options.retryMs ?? 1000;
    if (!Number.isSafeInteger(this.#retryMs) || this.#retryMs < 0) {
      throw new JunctionError(
        "invalid-argument",
        `createMCPHTTPHandler(): \`sessions.retryMs\` must be a whole number of milliseconds, 0 or more, not ${String(options.retryMs)}.`,
      );
    }
    this.#sweeper = setInterval(() => this.#sweep(), Math.min(this.#idleTimeoutMs, 60_000));
    // The sweep must not keep a process alive that is otherwise done.
    (this.#sweeper as { unref?: () => void }).unref?.();
  }

  /** Sessions open now. */
  get size(): number {
    return this.#sessions.size;
  }

  /** Serves one request of the 2025 era. */
  async handle(request: Request, context: LegacySessionRequest = {}): Promise<Response> {
    const { authInfo, parsedBody } = context;
    const options = {
      ...(authInfo ? { authInfo } : {}),
      ...(parsedBody === undefined ? {} : { parsedBody }),
    };
    const sessionId = request.headers.get("mcp-session-id");
    if (sessionId) {
      const session = this.#sessions.get(sessionId);
      if (!session || session.clientId !== authInfo?.clientId) {
        return jsonRPCError(404, -32001, "Session not found: start a new one with initialize.");
      }
      session.lastSeen = Date.now();
      return session.transport.handleRequest(request, options);
    }
    if (request.method !== "POST") {
      return jsonRPCError(400, -32000, "Bad Request: no Mcp-Session-Id; start a session with initialize.");
    }
    if (this.#sessions.size + this.#opening >= this.#maxSessions) {
      return jsonRPCError(503, -32000, "Too many open sessions; try again later.");
    }
    const clientKey =
      this.#clientKey?.(request) ??
      authInfo?.clientId ??
      (context.remoteAddress === undefined ? undefined : addressRateKey(context.remoteAddress));
    if (clientKey !== undefined && (this.#perClient.get(clientKey) ?? 0) >= this.#maxSessionsPerClient) {
      return jsonRPCError(
        429,
        -32000,
        `Too many open sessions for this client (at most ${this.#maxSessionsPerClient}): end sessions you no longer use (HTTP DELETE with their Mcp-Session-Id) or reuse one, then initialize again.`,
      );
    }
    // Counted before the first await, so concurrent initializes cannot all pass the checks above.
    this.#opening += 1;
    this.#count(clientKey, 1);
    let opened = false;
    try {
      const server = (await this.#factory({
        era: "legacy",
        ...(authInfo ? { authInfo } : {}),
        requestInfo: request,
      })) as McpServer;
      // Known before the transport is made, so that the session's event store is made for it.
      const newSessionId = crypto.randomUUID();
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => newSessionId,
        ...(this.#eventStore
          ? { eventStore: this.#eventStore(newSessionId), retryInterval: this.#retryMs }
          : {}),
        onsessioninitialized: (id) => {
          opened = true;
          this.#sessions.set(id, {
            transport,
            server,
            clientId: authInfo?.clientId,
            clientKey,
            lastSeen: Date.now(),
          });
        },
        onsessionclosed: (id) => {
          this.#close(id);
        },
      });
      await server.connect(transport);
      const response = await transport.handleRequest(request, options);
      // Anything but a successful initialize leaves no session behind.
      if (transport.sessionId === undefined) await server.close();
      return response;
    } finally {
      this.#opening -= 1;
      // A session that opened keeps its count until it closes.
      if (!opened) this.#count(clientKey, -1);
    }
  }

  #count(clientKey: string | undefined, change: number): void {
    if (clientKey === undefined) return;
    const count = (this.#perClient.get(clientKey) ?? 0) + change;
    if (count <= 0) this.#perClient.delete(clientKey);
    else this.#perClient.set(clientKey, count);
  }

  /** Closes every session. */
  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    await Promise.all([...this.#sessions.keys()].map((id) => this.#close(id)));
  }

  async #close(id: string): Promise<void> {
    const session = this.#sessions.get(id);
    if (!session) return;
    this.#sessions.delete(id);
    this.#count(session.clientKey, -1);
    // Closing a session that is already going away may fail; it is gone either way.
    await session.server.close().catch(() => undefined);
  }

  #sweep(): void {
    const now = Date.now();
    for (const [id, session] of this.#sessions) {
      if (now - session.lastSeen >= this.#idleTimeoutMs) void this.#close(id);
    }
  }
}

function jsonRPCError(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: "2.0", error: { code, message }, id: null }, { status });
}
