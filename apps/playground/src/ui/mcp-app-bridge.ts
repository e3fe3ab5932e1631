import { errorMessage } from "@junction/types";
/**
 * The host side of the MCP Apps protocol (`io.modelcontextprotocol/ui`, 2026-01-26): JSON-RPC
 * 2.0 over `postMessage` with one app's iframe. Everything the app sends is untrusted: each
 * message is size-checked, rate-limited and validated before a handler sees it, and every
 * request gets an answer or a JSON-RPC error, unknown methods included. No DOM here: the frame
 * module checks `event.source` and gives this class the message.
 */

/** The protocol version the playground speaks. */
export const MCP_APPS_PROTOCOL_VERSION = "2026-01-26";

/** JSON-RPC error codes the bridge answers with. */
export const RPC_ERROR = {
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  refused: -32000,
} as const;

/** An error a handler throws to answer the app with a JSON-RPC error. */
export class BridgeError extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

/** What the host does for the app's requests and notifications. */
export interface BridgeHandlers {
  /** `ui/initialize`: the host's info, capabilities and context. */
  initialize(params: Record<string, unknown>): Record<string, unknown>;
  /** `ui/notifications/initialized`: the app is ready for the tool's input and result. */
  initialized(): void;
  /**
   * `tools/call`: runs a tool of the app's server, with the person's approval where needed; with
   * the app's `_meta.progressToken`, the server's progress goes back to the app under that token.
   */
  callTool(name: string, args: Record<string, unknown>, progressToken?: string | number): Promise<unknown>;
  /** `ui/open-link`: opens an http(s) URL once the person agrees. */
  openLink(url: string): Promise<Record<string, unknown>>;
  /** `ui/notifications/size-changed`. */
  sizeChanged(size: { width?: number; height?: number }): void;
  /** `ui/message`: a message the app asks to put in the chat (the host asks the person). */
  message(params: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** `notifications/message`: a log line from the app, untrusted text (the host declares `logging`). */
  log(entry: { level: string; logger?: string; data: unknown }): void;
  /** `ui/notifications/request-teardown`: the app asks to be closed; the host decides. */
  requestTeardown(): void;
}

/** The longest the host waits for the app's answer to `ui/resource-teardown`. */
export const TEARDOWN_TIMEOUT_MS = 2000;

/** The levels of `notifications/message` (RFC 5424, as MCP's logging). */
const logLevels = new Set(["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]);

/** Bounds on what one app may send. */
export interface BridgeLimits {
  /** The largest message, as JSON text. @default 262_144 */
  maximumMessageBytes: number;
  /** Messages allowed in a burst. @default 40 */
  burst: number;
  /** Messages allowed per second once the burst is spent. @default 20 */
  perSecond: number;
}

/** Why messages were dropped or refused, counted. */
export interface BridgeDrops {
  rate: number;
  size: number;
  invalid: number;
}

const defaultLimits: BridgeLimits = { maximumMessageBytes: 256 * 1024, burst: 40, perSecond: 20 };

type RequestId = string | number;
type Params = Record<string, unknown>;

/** One app's side of the conversation, host end. */
export class McpAppBridge {
  readonly drops: BridgeDrops = { rate: 0, size: 0, invalid: 0 };
  readonly #post: (message: object) => void;
  readonly #handlers: BridgeHandlers;
  readonly #limits: BridgeLimits;
  readonly #now: () => number;
  readonly #onDrop?: (drops: BridgeDrops) => void;
  #tokens: number;
  #refilledAt: number;
  #closed = false;
  #nextId = 1;
  readonly #pending = new Map<
    string,
    { resolve(result: unknown): void; reject(error: BridgeError): void; timer: ReturnType<typeof setTimeout> }
  >();

  constructor(options: {
    post(message: object): void;
    handlers: BridgeHandlers;
    limits?: Partial<BridgeLimits>;
    now?: () => number;
    onDrop?: (drops: BridgeDrops) => void;
  }) {
    this.#post = options.post;
    this.#handlers = options.handlers;
    this.#limits = { ...defaultLimits, ...options.limits };
    this.#now = options.now ?? (() => performance.now());
    this.#onDrop = options.onDrop;
    this.#tokens = this.#limits.burst;
    this.#refilledAt = this.#now();
  }

  /** Stops answering: the app's frame is gone. Every request of the host still waiting fails. */
  close(): void {
    this.#closed = true;
    for (const [id, pending] of this.#pending) {
      clearTimeout(pending.timer);
      pending.reject(new BridgeError(RPC_ERROR.refused, "The app's frame is gone."));
      this.#pending.delete(id);
    }
  }

  /** Whether {@link close} was called. */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Sends the app a request and resolves with its result; rejects with a {@link BridgeError} on the
   * app's error, when it does not answer within `timeoutMs`, or when the bridge closes.
   */
  request(method: string, params: Params, timeoutMs: number): Promise<unknown> {
    if (this.#closed) return Promise.reject(new BridgeError(RPC_ERROR.refused, "The app's frame is gone."));
    const id = `host-${this.#nextId++}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(
          new BridgeError(RPC_ERROR.refused, `The app did not answer ${method} within ${timeoutMs} ms.`),
        );
      }, timeoutMs);
      this.#pending.set(id, { resolve, reject, timer });
      this.#post({ jsonrpc: "2.0", id, method, params });
    });
  }

  /**
   * `ui/resource-teardown`: tells the app it is about to go (and why) and waits for its answer (at most
   * `timeoutMs`), then closes the bridge. Resolves `"answered"` or `"no answer"`, never rejects.
   */
  async teardown(reason: string, timeoutMs: number = TEARDOWN_TIMEOUT_MS): Promise<"answered" | "no answer"> {
    if (this.#closed) return "no answer";
    try {
      await this.request("ui/resource-teardown", { reason }, timeoutMs);
      return "answered";
    } catch {
      // An error answer, silence or a frame already gone: the view goes all the same.
      return "no answer";
    } finally {
      this.close();
    }
  }

  /** Sends the app a notification (`ui/notifications/tool-input`, `…/tool-result`). */
  notify(method: string, params: Params): void {
    if (!this.#closed) this.#post({ jsonrpc: "2.0", method, params });
  }

  /** Handles one message from the app's frame (already checked to come from it). */
  receive(data: unknown): void {
    if (this.#closed) return;
    if (!this.#take()) {
      this.#drop("rate");
      return;
    }
    let size: number;
    try {
      size = JSON.stringify(data)?.length ?? 0;
    } catch {
      this.#drop("invalid");
      return;
    }
    const id = idOf(data);
    if (isResponse(data)) {
      this.#response(data as { id?: unknown; result?: unknown; error?: unknown }, size);
      return;
    }
    if (size > this.#limits.maximumMessageBytes) {
      this.#drop("size");
      if (id !== undefined)
        this.#error(
          id,
          RPC_ERROR.invalidRequest,
          `The message is larger than the host's limit of ${this.#limits.maximumMessageBytes} bytes.`,
        );
      return;
    }
    const problem = invalidRequest(data);
    if (problem) {
      this.#drop("invalid");
      if (id !== undefined)
        this.#error(id, RPC_ERROR.invalidRequest, `Not a JSON-RPC 2.0 request: ${problem}.`);
      return;
    }
    const message = data as { id?: RequestId; method: string; params?: Params };
    const params = message.params ?? {};
    if (message.id === undefined) {
      this.#notification(message.method, params);
      return;
    }
    const requestId = message.id;
    this.#request(message.method, params).then(
      (result) => this.#result(requestId, result),
      (error: unknown) =>
        error instanceof BridgeError
          ? this.#error(requestId, error.code, error.message)
          : this.#error(requestId, RPC_ERROR.refused, errorMessage(error)),
    );
  }

  /** The app's answer to a request of the host's; anything else shaped like an answer is dropped. */
  #response(message: { id?: unknown; result?: unknown; error?: unknown }, size: number): void {
    const pending = typeof message.id === "string" ? this.#pending.get(message.id) : undefined;
    if (!pending || size > this.#limits.maximumMessageBytes) {
      this.#drop(pending ? "size" : "invalid");
      return;
    }
    this.#pending.delete(message.id as string);
    clearTimeout(pending.timer);
    if ("error" in message) {
      const error = message.error as { code?: unknown; message?: unknown } | null;
      pending.reject(
        new BridgeError(
          typeof error?.code === "number" ? error.code : RPC_ERROR.refused,
          typeof error?.message === "string"
            ? error.message.slice(0, 500)
            : "The app answered with an error.",
        ),
      );
    } else pending.resolve(message.result);
  }

  #notification(method: string, params: Params): void {
    switch (method) {
      case "ui/notifications/initialized":
        this.#handlers.initialized();
        return;
      case "ui/notifications/size-changed": {
        const width = finite(params.width);
        const height = finite(params.height);
        this.#handlers.sizeChanged({
          ...(width === undefined ? {} : { width }),
          ...(height === undefined ? {} : { height }),
        });
        return;
      }
      case "notifications/message": {
        const level = typeof params.level === "string" && logLevels.has(params.level) ? params.level : "info";
        const logger = typeof params.logger === "string" ? params.logger.slice(0, 100) : undefined;
        this.#handlers.log({ level, ...(logger === undefined ? {} : { logger }), data: params.data });
        return;
      }
      case "ui/notifications/request-teardown":
        this.#handlers.requestTeardown();
        return;
      default:
        // Notifications of later versions need no answer.
        return;
    }
  }

  async #request(method: string, params: Params): Promise<unknown> {
    switch (method) {
      case "ui/initialize":
        return this.#handlers.initialize(params);
      case "ping":
        return {};
      case "tools/call": {
        const name = params.name;
        const args = params.arguments ?? {};
        if (typeof name !== "string" || name === "" || name.length > 128)
          throw new BridgeError(RPC_ERROR.invalidParams, "tools/call needs params.name, a tool name.");
        if (typeof args !== "object" || args === null || Array.isArray(args))
          throw new BridgeError(RPC_ERROR.invalidParams, "tools/call params.arguments must be an object.");
        const meta = params._meta;
        const token =
          typeof meta === "object" && meta !== null
            ? (meta as { progressToken?: unknown }).progressToken
            : undefined;
        const progressToken =
          (typeof token === "string" && token.length <= 100) ||
          (typeof token === "number" && Number.isSafeInteger(token))
            ? token
            : undefined;
        return this.#handlers.callTool(name, args as Params, progressToken);
      }
      case "ui/open-link": {
        const url = params.url;
        if (typeof url !== "string" || url.length > 4096)
          throw new BridgeError(RPC_ERROR.invalidParams, "ui/open-link needs params.url, a URL.");
        return this.#handlers.openLink(url);
      }
      case "ui/request-display-mode":
        return { mode: "inline" };
      case "ui/message":
        return this.#handlers.message(params);
      case "ui/update-model-context":
        // Not advertised: nothing an app says reaches the model unseen (see the README).
        throw new BridgeError(
          RPC_ERROR.refused,
          "ui/update-model-context is refused: the playground adds nothing from an app to the model's context unseen. Send a ui/message instead, which the person reads and approves.",
        );
      default:
        throw new BridgeError(RPC_ERROR.methodNotFound, `The host does not support ${method.slice(0, 100)}.`);
    }
  }

  #take(): boolean {
    const now = this.#now();
    const refill = ((now - this.#refilledAt) / 1000) * this.#limits.perSecond;
    this.#tokens = Math.min(this.#limits.burst, this.#tokens + refill);
    this.#refilledAt = now;
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }

  #drop(reason: keyof BridgeDrops): void {
    this.drops[reason] += 1;
    this.#onDrop?.(this.drops);
  }

  #result(id: RequestId, result: unknown): void {
    if (!this.#closed) this.#post({ jsonrpc: "2.0", id, result: result ?? {} });
  }

  #error(id: RequestId, code: number, message: string): void {
    if (!this.#closed) this.#post({ jsonrpc: "2.0", id, error: { code, message } });
  }
}

/** Whether a message is a JSON-RPC answer (an id, a result or an error, no method). */
function isResponse(data: unknown): boolean {
  if (typeof data !== "object" || data === null || Array.isArray(data)) return false;
  const message = data as Record<string, unknown>;
  return message.jsonrpc === "2.0" && !("method" in message) && ("result" in message || "error" in message);
}

/** The request id of a message when it has a usable one, so even a bad request gets its error. */
function idOf(data: unknown): RequestId | undefined {
  if (typeof data !== "object" || data === null) return undefined;
  const id = (data as { id?: unknown }).id;
  if (typeof id === "number" && Number.isSafeInteger(id)) return id;
  if (typeof id === "string" && id.length <= 100) return id;
  return undefined;
}

/** What makes a message not a JSON-RPC 2.0 request or notification, or `undefined`. */
export function invalidRequest(data: unknown): string | undefined {
  if (typeof data !== "object" || data === null || Array.isArray(data)) return "not an object";
  const message = data as Record<string, unknown>;
  if (message.jsonrpc !== "2.0") return 'jsonrpc is not "2.0"';
  if (typeof message.method !== "string" || message.method === "" || message.method.length > 100)
    return "method is not a string of 1–100 characters";
  if ("id" in message && idOf(message) === undefined) return "id is not an integer or a short string";
  const params = message.params;
  if (params !== undefined && (typeof params !== "object" || params === null || Array.isArray(params)))
    return "params is not an object";
  return undefined;
}

function finite(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;
}
