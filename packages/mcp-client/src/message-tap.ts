import type {
  JSONRPCMessage,
  MessageExtraInfo,
  Transport,
  TransportSendOptions,
} from "@modelcontextprotocol/client";

/**
 * One JSON-RPC 2.0 message as it crossed the wire: a request (`id` and `method`), a notification
 * (`method`, no `id`), a result (`id` and `result`) or an error (`id` and `error`).
 */
export type MCPJSONRPCMessage =
  | { jsonrpc: "2.0"; id: string | number; method: string; params?: Record<string, unknown> }
  | { jsonrpc: "2.0"; method: string; params?: Record<string, unknown> }
  | { jsonrpc: "2.0"; id: string | number; result: Record<string, unknown> }
  | {
      jsonrpc: "2.0";
      id?: string | number;
      error: { code: number; message: string; data?: unknown };
    };

/** What {@link MCPCommon.onMessage} receives for each message sent to or received from the server. */
export interface MCPWireMessage {
  /** `out`: the client sent it to the server; `in`: the server sent it to the client. */
  direction: "in" | "out";
  /** The message as sent or received (the same object the client uses: do not change it). */
  message: MCPJSONRPCMessage;
  /** When it was handed to the transport (`out`) or came out of it (`in`), in epoch milliseconds with fractions. */
  at: number;
  /**
   * The Streamable HTTP session it belongs to (the server's `Mcp-Session-Id`), when the
   * connection has one: from the `initialize` result on. Absent on stdio, SSE, memory and a
   * server that keeps no sessions.
   */
  sessionId?: string;
}

/** What {@link MCPCommon.requestMeta} is asked about: one request or notification about to be sent. */
export interface MCPOutgoingRequest {
  method: string;
  /** Absent for a notification. */
  id?: string | number;
  params?: Record<string, unknown>;
  /** The Streamable HTTP session it will be sent in, when there is one (see {@link MCPWireMessage.sessionId}). */
  sessionId?: string;
}

/** The hooks a tapped transport serves: see {@link MCPCommon.onMessage} and {@link MCPCommon.requestMeta}. */
export interface TransportHooks {
  onMessage?: ((message: MCPWireMessage) => void) | undefined;
  requestMeta?: ((request: MCPOutgoingRequest) => Record<string, string> | undefined) | undefined;
}

/** Epoch milliseconds with sub-millisecond precision, so a fast local round trip still measures. */
function now(): number {
  return performance.timeOrigin + performance.now();
}

/**
 * Wraps a transport so every JSON-RPC message going out (`send`) and coming in (`onmessage`)
 * is reported to `onMessage`, the initialize handshake included. The wrapped transport is
 * left untouched apart from its handlers, which the wrapper owns once started. A throwing
 * `onMessage` never breaks the connection.
 */
export class TappedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  constructor(
    private readonly inner: Transport,
    private readonly hooks: TransportHooks,
  ) {
    // The v2 SDK tells a stdio transport by its `pid` and `stderr` (a probe timeout on stdio means
    // a legacy server) and reads `hasPerRequestStream` on HTTP: the wrapper shows what it wraps.
    for (const name of ["pid", "stderr", "hasPerRequestStream"] as const) {
      if (name in inner) {
        Object.defineProperty(this, name, {
          get: () => {
            const value = (inner as unknown as Record<string, unknown>)[name];
            return typeof value === "function" ? value.bind(inner) : value;
          },
        });
      }
    }
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  start(): Promise<void> {
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onmessage = (message, extra) => {
      this.report("in", message);
      this.onmessage?.(message, extra);
    };
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const sent = this.withRequestMeta(message);
    this.report("out", sent);
    return this.inner.send(sent, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private report(direction: "in" | "out", message: JSONRPCMessage): void {
    if (!this.hooks.onMessage) return;
    const sessionId = this.inner.sessionId;
    try {
      this.hooks.onMessage({
        direction,
        message: message as MCPJSONRPCMessage,
        at: now(),
        ...(sessionId ? { sessionId } : {}),
      });
    } catch {
      // The tap is an observer: its failure must not break the connection.
    }
  }

  /** A request or notification with the `requestMeta` fields under `params._meta` (the client's own keys win). */
  private withRequestMeta(message: JSONRPCMessage): JSONRPCMessage {
    const requestMeta = this.hooks.requestMeta;
    if (!requestMeta || !("method" in message)) return message;
    const params = (message as { params?: Record<string, unknown> }).params;
    let extra: Record<string, string> | undefined;
    const sessionId = this.inner.sessionId;
    try {
      extra = requestMeta({
        method: message.method,
        ...("id" in message ? { id: message.id } : {}),
        ...(params ? { params } : {}),
        ...(sessionId ? { sessionId } : {}),
      });
    } catch {
      // A failing hook adds nothing; the request goes as it was.
      return message;
    }
    if (!extra || Object.keys(extra).length === 0) return message;
    const meta = params?._meta;
    const own = meta !== null && typeof meta === "object" ? (meta as Record<string, unknown>) : {};
    return { ...message, params: { ...params, _meta: { ...extra, ...own } } } as JSONRPCMessage;
  }
}

/** `transport` wrapped with a tap when `onMessage` or `requestMeta` is given, else `transport` itself. */
export function tapTransport(transport: Transport, hooks: TransportHooks): Transport {
  return hooks.onMessage || hooks.requestMeta ? new TappedTransport(transport, hooks) : transport;
}
