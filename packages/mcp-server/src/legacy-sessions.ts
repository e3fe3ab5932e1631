import {
  type AuthInfo,
  type McpServer,
  type McpServerFactory,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";

/** Limits on 2025-11-25 sessions. */
export interface LegacySessionOptions {
  /**
   * Sessions open at once; an `initialize` beyond it is answered 503.
   * @default 1000
   */
  maxSessions?: number;
  /**
   * A session without a request for this long is closed.
   * @default 1800000 (30 minutes)
   */
  idleTimeoutMs?: number;
}

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  server: McpServer;
  /** Who opened it, when the endpoint authenticates: another principal may not use it. */
  clientId: string | undefined;
  lastSeen: number;
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
  readonly #idleTimeoutMs: number;
  readonly #sweeper: ReturnType<typeof setInterval>;

  constructor(factory: McpServerFactory, options: LegacySessionOptions = {}) {
    this.#factory = factory;
    this.#maxSessions = options.maxSessions ?? 1000;
    this.#idleTimeoutMs = options.idleTimeoutMs ?? 30 * 60_000;
    this.#sweeper = setInterval(() => this.#sweep(), Math.min(this.#idleTimeoutMs, 60_000));
    // The sweep must not keep a process alive that is otherwise done.
    (this.#sweeper as { unref?: () => void }).unref?.();
  }

  /** Sessions open now. */
  get size(): number {
    return this.#sessions.size;
  }

  /**
   * Serves one request of the 2025 era. `parsedBody` is the request's JSON body when the caller
   * has already read it (the request's own body is then used up and is not read again).
   */
  async handle(request: Request, authInfo: AuthInfo | undefined, parsedBody?: unknown): Promise<Response> {
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
    if (this.#sessions.size >= this.#maxSessions) {
      return jsonRPCError(503, -32000, "Too many open sessions; try again later.");
    }
    const server = (await this.#factory({
      era: "legacy",
      ...(authInfo ? { authInfo } : {}),
      requestInfo: request,
    })) as McpServer;
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (id) => {
        this.#sessions.set(id, { transport, server, clientId: authInfo?.clientId, lastSeen: Date.now() });
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
