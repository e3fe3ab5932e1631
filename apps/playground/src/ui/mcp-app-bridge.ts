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
  /** `tools/call`: runs a tool of the app's server, with the person's approval where needed. */
  callTool(name: string, args: Record<string, unknown>): Promise<unknown>;
  /** `ui/open-link`: opens an http(s) URL once the person agrees. */
  openLink(url: string): Promise<Record<string, unknown>>;
  /** `ui/notifications/size-changed`. */
  sizeChanged(size: { width?: number; height?: number }): void;
}

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

  /** Stops answering: the app's frame is gone. */
  close(): void {
    this.#closed = true;
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
      default:
        // Logging, teardown requests and notifications of later versions need no answer.
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
        return this.#handlers.callTool(name, args as Params);
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
        throw new BridgeError(
          RPC_ERROR.refused,
          "ui/message is refused: the playground does not let an app write in the chat.",
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
