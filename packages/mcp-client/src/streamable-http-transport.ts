// Streamable HTTP with a lean POST path. The SDK's transport does, for every request: a `Headers`
// built twice over, a failed zod parse (`isInitializeRequest`) and a successful one per message in,
// two chained web TransformStreams to parse the SSE answer (each ends by building a TypeError with
// its stack), and an `AbortSignal.any` per request. On a loopback server that is most of the
// client's CPU per call (bench/results/http-profile.md). This transport sends a plain request's
// POST itself, with headers built once per session, the answer parsed as it streams in, and one
// AbortController per request; everything else stays with the SDK's transport, which it wraps:
// the handshake (it keeps the session id), `notifications/initialized` (it opens the GET stream),
// OAuth, redirects, resumption (Last-Event-ID), DELETE, and batches.
import {
  type JSONRPCMessage,
  type MessageExtraInfo,
  PROTOCOL_VERSION_META_KEY,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  type StreamableHTTPClientTransport,
  type Transport,
  type TransportSendOptions,
} from "@modelcontextprotocol/client";
import {
  fetchExchange,
  type HttpAnswer,
  type HttpExchangeInit,
  type OwnedHttpExchange,
  ownNodeHttpExchange,
  startupFetch,
} from "./http-exchange.js";

/**
 * How a stream that ends before its answer is resumed: the SDK transport's defaults
 * (`DEFAULT_STREAMABLE_HTTP_RECONNECTION_OPTIONS` in 2.4), which the one Junction builds uses.
 */
const RECONNECTION = { initialDelayMs: 1000, maxDelayMs: 30_000, growFactor: 1.5, maxRetries: 2 };

/** Request headers the SDK never lets a per-request header override. */
const RESERVED_HEADERS = new Set([
  "authorization",
  "dpop",
  "content-type",
  "mcp-protocol-version",
  "mcp-method",
  "mcp-name",
  "mcp-session-id",
]);

/** The body field each method's `Mcp-Name` header mirrors on 2026-07-28 (as the SDK's table). */
const MCP_NAME_SOURCE: Record<string, string> = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
  "tasks/get": "taskId",
  "tasks/update": "taskId",
  "tasks/cancel": "taskId",
};

const FIRST_MODERN_REVISION = "2026-07-28";

/**
 * The routing table: which way each message and request goes. "sdk" is the wrapped
 * `StreamableHTTPClientTransport`, "lean" this transport's own requests. Every row has a test of
 * its name over the official SDK v2 server (`streamable-http-routes.test.ts`).
 *
 * Who sends a message out. {@link sendRouteOf} checks the first six rows in this order (the first
 * that matches decides); {@link isHandedOver} decides the seventh.
 *
 * | row | message | sent by | as |
 * |---|---|---|---|
 * | `batch` | a JSON-RPC batch (an array) | sdk | its POST: batches are rare, the SDK answers them whole |
 * | `resumption` | any message sent with a `resumptionToken` | sdk | a GET with `Last-Event-ID`: it resumes that stream |
 * | `closed` | anything after `close()` | sdk | nothing: it refuses, as a closed SDK transport does |
 * | `initialize` | the `initialize` request | sdk | its POST: it keeps the session id the answer gives |
 * | `initialized` | `notifications/initialized` | sdk | its POST, after which it opens the GET stream |
 * | `post` | every other request, notification and response | lean | a POST: headers built once per session, the answer parsed as it streams |
 * | `handed-over` | a lean POST answered by a redirect (3xx) or a step-up challenge (403 with `insufficient_scope`) | sdk | sent again (the server did not process it): it follows redirects by its policy and owns OAuth |
 * | `terminate` | {@link LeanStreamableHTTPTransport.terminateSession} | sdk | a DELETE |
 * | `auth-provider` | everything, on a connection with an `authProvider` | sdk | no lean transport is made (`mcp-session.ts`): the SDK owns the token and its refresh |
 *
 * Which HTTP client a lean request (a POST, or a GET that resumes its stream) goes through, the
 * first row that matches deciding (`exchange` below). The SDK transport's own requests always go
 * through fetch (the config's, else the global one).
 *
 * | row | when | HTTP client |
 * |---|---|---|
 * | `config-fetch` | the config gives a `fetch` | that fetch |
 * | `replaced-fetch` | the global fetch was replaced since startup (an interceptor, an instrumentation) | the global fetch |
 * | `node-http` | the package's "node" entry, once its client has loaded | this transport's own node:http keep-alive pool |
 * | `fetch` | otherwise: the default entry, HTTP routed elsewhere (`NODE_USE_ENV_PROXY`, an undici dispatcher that is not a plain `Agent`), or before the node:http client has loaded | the global fetch |
 *
 * Which stream brings the server's messages in.
 *
 * | row | messages | read by |
 * |---|---|---|
 * | `json-answer` | the answer to a lean POST, as `application/json` | lean: the body, whole |
 * | `sse-answer` | a lean POST answered with `text/event-stream`: the server's notifications and requests about it, then its answer | lean: {@link SSEParser}, as the stream arrives |
 * | `resumed-stream` | the rest of a lean POST's stream that ended before its answer, once the server gave its events ids | lean: a GET with `Last-Event-ID`, after the server's `retry:` interval (else a backoff), at most {@link RECONNECTION}`.maxRetries` failed attempts in a row |
 * | `get-stream` | the server's messages outside any request (a `list_changed`, a request of its own) | sdk: the GET stream it opens after `initialized`, and resumes |
 * | `accepted` | a `202 Accepted` to a notification or a response | nothing to deliver: the body is dropped |
 */
export type SendRoute = "batch" | "resumption" | "closed" | "initialize" | "initialized" | "post";

/** The row of the table above that decides who sends `message`. */
export function sendRouteOf(
  message: JSONRPCMessage | JSONRPCMessage[],
  state: { resumptionToken: string | undefined; closed: boolean },
): SendRoute {
  if (Array.isArray(message)) return "batch";
  if (state.resumptionToken) return "resumption";
  if (state.closed) return "closed";
  const method = (message as { method?: unknown }).method;
  if (method === "initialize") return "initialize";
  if (method === "notifications/initialized") return "initialized";
  return "post";
}

/**
 * Whether an answer to a lean POST hands the message to the SDK's transport: a redirect or a
 * step-up challenge, which the server did not process.
 */
export function isHandedOver(status: number, wwwAuthenticate: string | null | undefined): boolean {
  const redirect = status >= 300 && status < 400;
  const stepUp = status === 403 && /insufficient_scope/.test(wwwAuthenticate ?? "");
  return redirect || stepUp;
}

/** What {@link LeanStreamableHTTPTransport} needs besides the SDK transport it wraps. */
export interface LeanTransportOptions {
  /** The config's static headers. */
  headers?: Record<string, string> | undefined;
  /** The fetch to use (the config's, else the global one at the time of each request). */
  fetch?: typeof fetch | undefined;
}

/**
 * A Streamable HTTP client transport that POSTs plain requests, notifications and responses
 * itself and leaves the rest to the SDK's `StreamableHTTPClientTransport` it wraps (see the file's
 * header). Made only for connections without an `authProvider`: with one, every request goes
 * through the SDK's transport, which owns the token and its refresh.
 */
export class LeanStreamableHTTPTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  /** One POST and answer stream per request: on 2026-07-28 the SDK cancels by aborting it. */
  readonly hasPerRequestStream = true;

  private readonly inFlight = new Set<AbortController>();
  private closed = false;
  /** Headers of the current session and revision, built once and copied per request. */
  private base?: {
    sessionId: string | undefined;
    protocolVersion: string | undefined;
    headers: Record<string, string>;
  };
  private readonly staticHeaders: Record<string, string>;
  /** The Accept of a GET that resumes a stream: the configured types and `text/event-stream`. */
  private readonly streamAccept: string;
  /** The node:http client of this transport, when it has one (see {@link exchange}). */
  private nodeHttp?: OwnedHttpExchange;
  /** The retry interval the server last sent (an SSE `retry:` field), for resuming a stream. */
  private serverRetryMs?: number;

  constructor(
    private readonly url: URL,
    /** The SDK transport that does everything but the plain POSTs. */
    readonly inner: StreamableHTTPClientTransport,
    private readonly options: LeanTransportOptions = {},
  ) {
    const headers: Record<string, string> = {};
    // Lower-cased once, as `Headers` would, so a per-request header replaces rather than repeats.
    new Headers(options.headers ?? {}).forEach((value, name) => {
      headers[name] = value;
    });
    const configured = (headers.accept ?? "").split(",").map((type) => type.trim().toLowerCase());
    const accept = new Set(configured);
    accept.delete("");
    const streamAccept = new Set([...accept, "text/event-stream"]);
    accept.add("application/json");
    accept.add("text/event-stream");
    headers.accept = [...accept].join(", ");
    this.streamAccept = [...streamAccept].join(", ");
    headers["content-type"] = "application/json";
    this.staticHeaders = headers;
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  get protocolVersion(): string | undefined {
    return this.inner.protocolVersion;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion(version);
  }

  start(): Promise<void> {
    // Loaded beside the handshake (which the SDK's transport sends through fetch); until it is
    // ready, requests go through fetch too.
    if (this.options.fetch === undefined) {
      void ownNodeHttpExchange().then(
        (owned) => {
          if (this.closed) owned?.close();
          else this.nodeHttp = owned;
        },
        () => undefined, // No node:http here after all: fetch it stays.
      );
    }
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onmessage = (message) => this.onmessage?.(message);
    return this.inner.start();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const controller of this.inFlight) controller.abort();
    this.inFlight.clear();
    this.nodeHttp?.close();
    await this.inner.close();
  }

  /** Ends the session on the server (`DELETE`), through the SDK's transport. */
  terminateSession(): Promise<void> {
    return this.inner.terminateSession();
  }

  /** Completes an OAuth flow, through the SDK's transport. */
  finishAuth(callback: string | URLSearchParams, iss?: string): Promise<void> {
    return typeof callback === "string"
      ? this.inner.finishAuth(callback, iss)
      : this.inner.finishAuth(callback as never);
  }

  /** Sends `message` the way {@link sendRouteOf}'s table says. */
  send(message: JSONRPCMessage | JSONRPCMessage[], options?: TransportSendOptions): Promise<void> {
    const route = sendRouteOf(message, { resumptionToken: options?.resumptionToken, closed: this.closed });
    return route === "post"
      ? this.post(message as JSONRPCMessage, options)
      : this.inner.send(message as never, options);
  }

  private async post(message: JSONRPCMessage, options: TransportSendOptions | undefined): Promise<void> {
    const requestSignal = options?.requestSignal;
    const controller = new AbortController();
    const abort = () => controller.abort(requestSignal?.reason);
    if (requestSignal?.aborted) abort();
    else requestSignal?.addEventListener("abort", abort, { once: true });
    this.inFlight.add(controller);
    let streaming = false;
    const settle = () => {
      this.inFlight.delete(controller);
      requestSignal?.removeEventListener("abort", abort);
    };
    try {
      const response = await this.exchange({
        method: "POST",
        headers: this.headersFor(message, options?.headers),
        body: JSON.stringify(message),
        signal: controller.signal,
        repeatable: isRepeatable(message),
      });
      if (response.status < 200 || response.status > 299) {
        if (await this.handOver(response)) {
          settle();
          return await this.inner.send(message, options);
        }
        await this.refused(response, message);
        return;
      }
      if (response.status === 202 || !("id" in message && "method" in message)) {
        await discard(response);
        return;
      }
      const contentType = mediaType(response.header("content-type"));
      if (contentType === "text/event-stream") {
        streaming = true;
        void this.readEvents(response, { controller, options, fromPost: true }).finally(settle);
        return;
      }
      if (contentType === "application/json") {
        const data: unknown = JSON.parse(await response.text());
        for (const item of Array.isArray(data) ? data : [data]) this.onmessage?.(checkedMessage(item));
        return;
      }
      await discard(response);
      throw new SdkError(
        SdkErrorCode.ClientHttpUnexpectedContent,
        `Unexpected content type: ${contentType}`,
        {
          contentType,
        },
      );
    } catch (error) {
      if (requestSignal?.aborted !== true) this.onerror?.(error as Error);
      throw error;
    } finally {
      if (!streaming) settle();
    }
  }

  /**
   * Sends one request: through the config's fetch when it has one, through the global fetch when
   * something has replaced it since startup (an interceptor in a test, an instrumentation), else
   * through this transport's node:http client where the "node" entry provides one, else fetch.
   */
  private exchange(init: HttpExchangeInit): Promise<HttpAnswer> {
    const configured = this.options.fetch;
    if (configured !== undefined) return fetchExchange(configured)(this.url, init);
    if (this.nodeHttp !== undefined && globalThis.fetch === startupFetch)
      return this.nodeHttp.exchange(this.url, init);
    return fetchExchange(globalThis.fetch)(this.url, init);
  }

  /** The headers of one POST: the session's, plus the 2026-07-28 ones the body implies. */
  private headersFor(
    message: JSONRPCMessage,
    extra: Record<string, string> | undefined,
  ): Record<string, string> {
    const sessionId = this.inner.sessionId;
    const protocolVersion = this.inner.protocolVersion;
    let base = this.base;
    if (!base || base.sessionId !== sessionId || base.protocolVersion !== protocolVersion) {
      const headers = { ...this.staticHeaders };
      if (sessionId) headers["mcp-session-id"] = sessionId;
      if (protocolVersion) headers["mcp-protocol-version"] = protocolVersion;
      base = this.base = { sessionId, protocolVersion, headers };
    }
    const request = message as { id?: unknown; method?: unknown; params?: Record<string, unknown> };
    const claimed =
      request.id === undefined
        ? undefined
        : (request.params?._meta as Record<string, unknown> | undefined)?.[PROTOCOL_VERSION_META_KEY];
    if (typeof claimed !== "string" && extra === undefined) return base.headers;
    const headers = { ...base.headers };
    if (typeof claimed === "string" && typeof request.method === "string") {
      headers["mcp-protocol-version"] = claimed;
      headers["mcp-method"] = request.method;
      const field = Object.hasOwn(MCP_NAME_SOURCE, request.method)
        ? MCP_NAME_SOURCE[request.method]
        : undefined;
      const name = field === undefined ? undefined : request.params?.[field];
      if (typeof name === "string") headers["mcp-name"] = encodeHeaderValue(name);
    }
    for (const [name, value] of Object.entries(extra ?? {})) {
      const lower = name.toLowerCase();
      if (!RESERVED_HEADERS.has(lower)) headers[lower] = value;
    }
    return headers;
  }

  /**
   * Whether a refused POST is one the SDK's transport acts on ({@link isHandedOver}). The body is
   * then read, so the connection goes back to the pool.
   */
  private async handOver(response: HttpAnswer): Promise<boolean> {
    const handed = isHandedOver(response.status, response.header("www-authenticate"));
    if (handed) await discard(response);
    return handed;
  }

  /** A POST the server refused, as the SDK's transport reports it. */
  private async refused(response: HttpAnswer, message: JSONRPCMessage): Promise<void> {
    const text = await response.text().catch(() => null);
    const request = message as {
      id?: unknown;
      method?: unknown;
      params?: { _meta?: Record<string, unknown> };
    };
    const claimed = request.params?._meta?.[PROTOCOL_VERSION_META_KEY];
    // On 2026-07-28 a 400 may carry the JSON-RPC error answering the request.
    if (
      response.status === 400 &&
      typeof text === "string" &&
      request.id !== undefined &&
      typeof request.method === "string" &&
      typeof claimed === "string" &&
      claimed >= FIRST_MODERN_REVISION
    ) {
      let answer: JSONRPCMessage | undefined;
      try {
        answer = checkedMessage(JSON.parse(text));
      } catch {
        // Not a JSON-RPC message: reported as the HTTP error below.
      }
      if (answer && "error" in answer && answer.id === request.id) {
        this.onmessage?.(answer);
        return;
      }
    }
    throw new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, `Error POSTing to endpoint: ${text}`, {
      status: response.status,
      statusText: response.statusText,
      text,
    });
  }

  /**
   * Reads an SSE answer as it arrives and delivers each message. A stream that ends before the
   * answer, after the server gave its events ids, is resumed with Last-Event-ID (a GET), as the
   * SDK's transport would: after the server's `retry:` interval (else a backoff), at most
   * {@link RECONNECTION}`.maxRetries` failed attempts in a row; a resumed stream that ends early
   * again is resumed again.
   */
  private async readEvents(response: HttpAnswer, reading: EventReading): Promise<void> {
    const { controller, options, fromPost } = reading;
    const intentional = () => this.closed || controller.signal.aborted;
    let lastEventId: string | undefined;
    let answered = false;
    const parser = new SSEParser(
      (event) => {
        if (event.id !== undefined) {
          lastEventId = event.id;
          options?.onresumptiontoken?.(event.id);
        }
        if (!event.data || (event.event !== undefined && event.event !== "message")) return;
        try {
          const message = checkedMessage(JSON.parse(event.data));
          if ("result" in message || "error" in message) answered = true;
          this.onmessage?.(message);
        } catch (error) {
          this.onerror?.(error as Error);
        }
      },
      (retryMs) => {
        this.serverRetryMs = retryMs;
      },
    );
    try {
      for await (const chunk of response.chunks()) parser.feed(chunk);
    } catch (error) {
      if (intentional()) return;
      this.onerror?.(
        new SdkError(SdkErrorCode.ClientHttpFailedToOpenStream, `SSE stream disconnected: ${error}`),
      );
    }
    if (intentional()) return;
    // The SDK resumes a POST's stream only once its server gave an event id; a GET's always.
    const resumable = fromPost ? lastEventId !== undefined : true;
    if (!answered && resumable) {
      await this.resume(lastEventId ?? options?.resumptionToken, controller, options);
      return;
    }
    options?.onRequestStreamEnd?.();
  }

  /**
   * Resumes a stream with a GET carrying Last-Event-ID, retrying a failed attempt with backoff
   * until {@link RECONNECTION}`.maxRetries` attempts have failed.
   */
  private async resume(
    lastEventId: string | undefined,
    controller: AbortController,
    options: TransportSendOptions | undefined,
  ): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      if (attempt >= RECONNECTION.maxRetries) {
        this.onerror?.(
          new SdkError(
            SdkErrorCode.ClientHttpFailedToOpenStream,
            `Maximum reconnection attempts (${RECONNECTION.maxRetries}) exceeded.`,
          ),
        );
        options?.onRequestStreamEnd?.();
        return;
      }
      const delay =
        this.serverRetryMs ??
        Math.min(RECONNECTION.initialDelayMs * RECONNECTION.growFactor ** attempt, RECONNECTION.maxDelayMs);
      if (!(await sleep(delay, controller.signal)) || this.closed) return;
      const headers: Record<string, string> = {
        ...this.headersFor({ jsonrpc: "2.0", method: "" }, undefined),
      };
      delete headers["content-type"];
      headers.accept = this.streamAccept;
      if (lastEventId !== undefined) headers["last-event-id"] = lastEventId;
      let response: HttpAnswer;
      try {
        response = await this.exchange({
          method: "GET",
          headers,
          signal: controller.signal,
          repeatable: true,
        });
      } catch (error) {
        if (this.closed || controller.signal.aborted) return;
        this.onerror?.(
          new SdkError(SdkErrorCode.ClientHttpFailedToOpenStream, `Failed to reconnect SSE stream: ${error}`),
        );
        continue;
      }
      if (response.status === 405) {
        await discard(response);
        options?.onRequestStreamEnd?.();
        return;
      }
      if (response.status < 200 || response.status > 299) {
        await discard(response);
        this.onerror?.(
          new SdkHttpError(
            SdkErrorCode.ClientHttpFailedToOpenStream,
            `Failed to reconnect SSE stream: ${response.statusText || response.status}`,
            { status: response.status, statusText: response.statusText },
          ),
        );
        continue;
      }
      return this.readEvents(response, {
        controller,
        options: { ...options, resumptionToken: lastEventId },
        fromPost: false,
      });
    }
  }
}

/**
 * Requests that only read what the server has: sending one twice changes nothing. Everything
 * else (`tools/call`, `tasks/update`, `tasks/cancel`, `completion/complete`, a response to a
 * server's request, a notification) may act, so it is never sent again by the transport.
 */
const READ_ONLY_METHODS = new Set([
  "ping",
  "server/discover",
  "tools/list",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "prompts/list",
  "prompts/get",
  "tasks/get",
  // The task's result, waited for: reading it again gives the same result.
  "tasks/result",
  "tasks/list",
]);

/** Whether a POST of `message` is harmless to send twice: a request for a read-only method. */
export function isRepeatable(message: JSONRPCMessage): boolean {
  const { id, method } = message as { id?: unknown; method?: unknown };
  return id !== undefined && typeof method === "string" && READ_ONLY_METHODS.has(method);
}

/** Waits `ms`; `false` when the signal aborted first. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", stop);
      resolve(true);
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener("abort", stop, { once: true });
  });
}

/** How {@link LeanStreamableHTTPTransport} reads one SSE answer. */
interface EventReading {
  /** Aborts the stream (on close, or when the request is cancelled). */
  controller: AbortController;
  options: TransportSendOptions | undefined;
  /** Whether the stream answers a POST (else a resuming GET). */
  fromPost: boolean;
}

/** One server-sent event: the fields the MCP transport reads. */
interface ServerSentEvent {
  id?: string;
  event?: string;
  data: string;
}

/**
 * A server-sent events parser (the WHATWG rules: CR, LF or CRLF line ends, `:` comments, one
 * space after the colon dropped, an event dispatched by a blank line when it has data, an `id`
 * with NUL ignored) fed decoded text as it arrives.
 */
export class SSEParser {
  private pending = "";
  private data = "";
  private dataLines = 0;
  private id?: string;
  private event?: string;
  private first = true;

  constructor(
    private readonly onEvent: (event: ServerSentEvent) => void,
    private readonly onRetry: (ms: number) => void = () => undefined,
  ) {}

  feed(text: string): void {
    if (text === "") return;
    if (this.first) {
      this.first = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    const buffer = this.pending + text;
    let start = 0;
    for (;;) {
      const lf = buffer.indexOf("\n", start);
      const cr = buffer.indexOf("\r", start);
      if (lf === -1 && cr === -1) break;
      const end = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
      if (end === cr) {
        // A CR at the end of what has arrived may be the first half of a CRLF: wait for more.
        if (end + 1 === buffer.length) break;
        this.line(buffer.slice(start, end));
        start = buffer.charCodeAt(end + 1) === 10 ? end + 2 : end + 1;
      } else {
        this.line(buffer.slice(start, end));
        start = end + 1;
      }
    }
    this.pending = start === 0 ? buffer : buffer.slice(start);
  }

  private line(line: string): void {
    if (line === "") {
      if (this.dataLines > 0) this.onEvent({ id: this.id, event: this.event, data: this.data });
      this.id = undefined;
      this.event = undefined;
      this.data = "";
      this.dataLines = 0;
      return;
    }
    if (line.charCodeAt(0) === 58) return; // ":" comment
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    switch (field) {
      case "data":
        this.data = this.dataLines === 0 ? value : `${this.data}\n${value}`;
        this.dataLines++;
        break;
      case "event":
        this.event = value || undefined;
        break;
      case "id":
        if (!value.includes("\0")) this.id = value;
        break;
      case "retry":
        if (/^\d+$/.test(value)) this.onRetry(Number.parseInt(value, 10));
        break;
      default:
      // Unknown fields are ignored, as the standard says.
    }
  }
}

/**
 * A JSON-RPC 2.0 message, checked as the SDK's `JSONRPCMessageSchema` checks it (a request, a
 * notification, a result or an error; no other members), without building a zod parse per message.
 *
 * @throws SdkError (`InvalidResult`) naming what was wrong with the message
 */
export function checkedMessage(value: unknown): JSONRPCMessage {
  const problem = messageProblem(value);
  if (problem !== undefined) {
    throw new SdkError(SdkErrorCode.InvalidResult, `Invalid JSON-RPC message: ${problem}`, {
      message: value,
    });
  }
  return value as JSONRPCMessage;
}

function messageProblem(value: unknown): string | undefined {
  if (!isObject(value)) return "not an object";
  if (value.jsonrpc !== "2.0") return 'jsonrpc is not "2.0"';
  const hasId = "id" in value;
  if (hasId && !isRequestId(value.id)) return "id is neither a string nor an integer";
  if ("method" in value) {
    if (typeof value.method !== "string") return "method is not a string";
    if ("params" in value && value.params !== undefined && !isObject(value.params))
      return "params is not an object";
    return onlyKeys(value, hasId ? REQUEST_KEYS : NOTIFICATION_KEYS);
  }
  if ("result" in value) {
    if (!hasId) return "a result without an id";
    if (!isObject(value.result)) return "result is not an object";
    return onlyKeys(value, RESULT_KEYS);
  }
  if ("error" in value) {
    const error = value.error;
    if (!isObject(error)) return "error is not an object";
    if (!Number.isInteger(error.code)) return "error.code is not an integer";
    if (typeof error.message !== "string") return "error.message is not a string";
    if (hasId && value.id === undefined) return "id is undefined";
    return onlyKeys(value, ERROR_KEYS);
  }
  return "neither a request, a notification, a result nor an error";
}

const REQUEST_KEYS = new Set(["jsonrpc", "id", "method", "params"]);
const NOTIFICATION_KEYS = new Set(["jsonrpc", "method", "params"]);
const RESULT_KEYS = new Set(["jsonrpc", "id", "result"]);
const ERROR_KEYS = new Set(["jsonrpc", "id", "error"]);

function onlyKeys(value: Record<string, unknown>, allowed: Set<string>): string | undefined {
  for (const key in value) if (!allowed.has(key)) return `unexpected member "${key}"`;
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isRequestId(value: unknown): boolean {
  return typeof value === "string" || Number.isInteger(value);
}

/** The media type without parameters, lower-cased (`text/event-stream; charset=utf-8` → `text/event-stream`). */
function mediaType(contentType: string | null): string | undefined {
  if (!contentType) return undefined;
  const semicolon = contentType.indexOf(";");
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
}

/** Reads and drops a body, so the connection can serve the next request. */
async function discard(response: HttpAnswer): Promise<void> {
  // Only the connection's reuse depends on it: a body that fails to read is dropped all the same.
  await response.text().catch(() => undefined);
}

/**
 * An HTTP header value as the 2026-07-28 revision encodes one: plain when it is visible ASCII
 * without surrounding spaces, else `=?base64?{base64 of the UTF-8}?=` (as the SDK does).
 */
function encodeHeaderValue(value: string): string {
  let plain =
    value.length > 0 && value === value.trim() && !(value.startsWith("=?base64?") && value.endsWith("?="));
  for (let index = 0; plain && index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (!(code === 9 || (code >= 32 && code <= 126))) plain = false;
  }
  if (plain) return value;
  let binary = "";
  for (const byte of new TextEncoder().encode(value)) binary += String.fromCharCode(byte);
  return `=?base64?${btoa(binary)}?=`;
}
