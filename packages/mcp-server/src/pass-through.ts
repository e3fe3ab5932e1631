import {
  type CreateMessageRequestParams,
  type CreateMessageResult,
  createAbortError,
  type ElicitRequestParams,
  type ElicitResult,
  JunctionError,
} from "@junction/types";
import type { ClientCapabilities, McpServer, ServerContext } from "@modelcontextprotocol/server";

// Pass-through: an upstream MCP server (a gateway's, or an agent's MCP tool's) asks for
// elicitation or sampling during a call, and the request reaches the client that made the call
// to this server. The upstream connection's handlers (`passThrough.handlers`) find the served
// call the request belongs to (a scope), and the scope asks its own client the way that client
// can be asked (see pass-through-call.ts).

/** The server-to-client requests a pass-through forwards. */
export type ForwardedMethod = "elicitation/create" | "sampling/createMessage";

/**
 * What a task's run asks its client: what an upstream server forwards, and a served tool's own
 * `roots()` (asked as an input request of the task).
 */
export type TaskQuestionMethod = ForwardedMethod | "roots/list";

/** The client capability a question's method needs. */
export function capabilityFor(method: TaskQuestionMethod): "elicitation" | "sampling" | "roots" {
  return method === "elicitation/create" ? "elicitation" : method === "roots/list" ? "roots" : "sampling";
}

/** One served call (a gateway call, an agent tool's run) and how to ask the client that made it. */
export interface PassThroughScope {
  /** The served tool's name, for messages. */
  tool: string;
  /** Asks the calling client; resolves with its answer. */
  forward(method: ForwardedMethod, params: Record<string, unknown>): Promise<unknown>;
}

/** What `createPassThrough()` takes. */
export interface PassThroughOptions {
  /**
   * On 2026-07-28, a forwarded request is an `input_required` result and the call waits in this
   * process for the client's retry: how long it waits before the call is aborted.
   * @default 600000 (10 minutes)
   */
  timeoutMs?: number;
}

/**
 * Forwards the elicitation and sampling requests of upstream MCP servers to the client calling
 * this server. Give `handlers` to the upstream `MCP` connections (a gateway's, an agent's), and
 * the object itself to `createMCPServer({ passThrough })` or `gateway({ passThrough })`.
 */
export interface MCPPassThrough {
  /** The handlers to give an upstream `MCP` connection (`new MCP({ ..., handlers })`). */
  readonly handlers: {
    elicitation: (request: ElicitRequestParams) => Promise<ElicitResult>;
    sampling: (request: CreateMessageRequestParams) => Promise<CreateMessageResult>;
  };
}

interface ScopeStorage {
  getStore(): PassThroughScope | undefined;
  run<T>(store: PassThroughScope, callback: () => T): T;
}

/**
 * `AsyncLocalStorage` where the runtime has it (Node, Bun, Deno, Workers with `nodejs_compat`),
 * taken with `process.getBuiltinModule` so the root entry imports nothing Node-only.
 */
function scopeStorage(): ScopeStorage | undefined {
  const process = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const hooks = process?.getBuiltinModule?.("node:async_hooks") as
    | { AsyncLocalStorage?: new () => ScopeStorage }
    | undefined;
  return hooks?.AsyncLocalStorage ? new hooks.AsyncLocalStorage() : undefined;
}

/** The pass-through behind `createPassThrough()`: the served calls in flight, and the calls parked on 2026-07-28. */
export class PassThroughRelay implements MCPPassThrough {
  readonly handlers: MCPPassThrough["handlers"];
  readonly timeoutMs: number;
  /** Calls waiting for a 2026-07-28 client's retry, by id (see pass-through-call.ts). */
  readonly parked = new Map<string, { abort(reason: unknown): void }>();
  readonly #storage = scopeStorage();
  readonly #active = new Set<PassThroughScope>();

  constructor(options: PassThroughOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 600_000;
    this.handlers = {
      elicitation: (request) => this.#route("elicitation/create", request as never) as Promise<ElicitResult>,
      sampling: (request) =>
        this.#route("sampling/createMessage", request as never) as Promise<CreateMessageResult>,
    };
  }

  /** Runs `work` as `scope`: upstream requests made while it goes are forwarded through the scope. */
  async run<T>(scope: PassThroughScope, work: () => Promise<T>): Promise<T> {
    this.#active.add(scope);
    try {
      return await (this.#storage ? this.#storage.run(scope, work) : work());
    } finally {
      this.#active.delete(scope);
    }
  }

  /** Aborts the calls parked for a retry. */
  close(): void {
    for (const call of this.parked.values()) call.abort(closedError());
  }

  /**
   * The scope of the call an upstream request belongs to. The async context is exact where the
   * request is answered within the upstream call (2026-07-28 `input_required`, tasks, a 2025 HTTP
   * request on the call's own response stream); a 2025 stdio request comes from the process's
   * pipe, outside any call: it goes to the one call in flight, and is refused when there are
   * several (the 2025 protocol does not say which call a request belongs to).
   */
  #route(method: ForwardedMethod, params: Record<string, unknown>): Promise<unknown> {
    const stored = this.#storage?.getStore();
    if (stored && this.#active.has(stored)) return stored.forward(method, params);
    if (this.#active.size === 1) {
      const [only] = this.#active;
      if (only) return only.forward(method, params);
    }
    return Promise.reject(
      new JunctionError(
        "mcp-capability-missing",
        this.#active.size === 0
          ? `An upstream MCP server sent ${method} outside any call served by this server: there is no client to forward it to.`
          : `An upstream MCP server sent ${method} while ${this.#active.size} served calls were in flight, and it cannot be told which call it belongs to (a 2025 stdio connection says nothing about it): it is refused. Connect that server over Streamable HTTP or 2026-07-28 to serve concurrent calls.`,
      ),
    );
  }
}

function closedError(): JunctionError {
  return createAbortError("The server closed while the call waited for its client's answer.");
}

/**
 * Makes a pass-through: the elicitation and sampling requests that upstream MCP servers send
 * during a served call reach the client that made the call (an elicitation or sampling request
 * within the call on 2025-11-25 sessions, an `input_required` result on 2026-07-28), and the
 * answer goes back upstream.
 *
 * @example
 * ```ts
 * const passThrough = createPassThrough();
 * const files = new MCP({ transport: "http", url, handlers: passThrough.handlers });
 * await files.connect();
 * await serveHTTP(gateway({ mcps: [{ mcp: files, prefix: "fs" }], passThrough }));
 * ```
 */
export function createPassThrough(options: PassThroughOptions = {}): MCPPassThrough {
  return new PassThroughRelay(options);
}

/** The relay behind a pass-through given to `createMCPServer`; refuses objects it did not make. */
export function relayOf(passThrough: MCPPassThrough | undefined): PassThroughRelay | undefined {
  if (passThrough === undefined) return undefined;
  if (passThrough instanceof PassThroughRelay) return passThrough;
  throw new JunctionError(
    "invalid-argument",
    "createMCPServer(): `passThrough` must be made by createPassThrough().",
  );
}

/** The capabilities the client declared: per request on 2026-07-28, at `initialize` on 2025 sessions. */
export function clientCapabilitiesOf(
  server: McpServer,
  context: ServerContext,
): ClientCapabilities | undefined {
  const envelope = context.mcpReq.envelope as Record<string, unknown> | undefined;
  const declared = envelope?.["io.modelcontextprotocol/clientCapabilities"];
  if (declared) return declared as ClientCapabilities;
  return server.server.getClientCapabilities();
}

/** Refuses a forwarded request the calling client did not declare it can answer. */
export function checkForwardable(
  capabilities: ClientCapabilities | undefined,
  method: TaskQuestionMethod,
  tool: string,
): void {
  const capability = capabilityFor(method);
  if (capabilities?.[capability] !== undefined) return;
  throw new JunctionError(
    "mcp-capability-missing",
    `${method === "roots/list" ? "The tool asked for" : "The upstream server asked for"} ${method} during the call to "${tool}", and the client that made the call declared no ${capability} capability: it cannot be asked.`,
  );
}
