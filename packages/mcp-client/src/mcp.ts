import {
  type ClientCapabilities,
  type CompleteResult,
  type GetPromptResult,
  type Implementation,
  JunctionError,
  type MCPTool,
  type Prompt,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
  type ServerCapabilities,
  type Tool,
  type ToolContext,
  type ToolDefinition,
  type ToolResult,
  type ToolSource,
} from "@junction/types";
import type { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import type { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  CompleteResultSchema,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  GetPromptResultSchema,
  ListPromptsResultSchema,
  ListResourcesResultSchema,
  ListResourceTemplatesResultSchema,
  ListRootsRequestSchema,
  ListToolsResultSchema,
  LoggingMessageNotificationSchema,
  McpError,
  ReadResourceResultSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { checkMCPConfig } from "./check-mcp-config.js";
import { AnyResultSchema, convertCallToolResult } from "./convert-tool-result.js";
import type { MCPConfig, MCPReconnectOptions, MCPRoot } from "./mcp-config.js";
import { collectSecrets, safeError, toJunctionError } from "./mcp-errors.js";
import { describeUrl, openSession, type Session } from "./mcp-session.js";
import { LazySchemaValidator } from "./output-schema-validator.js";
import { collectPages } from "./paginate.js";
import { runToolTask } from "./tool-task.js";

/** Options of one request: its own timeout and a signal to cancel it. */
export interface MCPRequestOptions {
  /** Cancels the request: the server gets `notifications/cancelled`. */
  signal?: AbortSignal;
  /** Overrides the server's `timeoutMs` for this request. */
  timeoutMs?: number;
}

/** Options of `MCP.callTool`. */
export interface MCPCallToolOptions extends MCPRequestOptions {
  /** Receives the server's progress notifications for this call. */
  onProgress?: ToolContext["onProgress"];
}

/** A completion request's reference: a prompt by name or a resource template by URI. */
export type MCPCompletionReference =
  | { type: "ref/prompt"; name: string }
  | { type: "ref/resource"; uri: string };

type State = "idle" | "connecting" | "connected" | "reconnecting" | "disconnected" | "closed";

interface ToolMetadata {
  validate?: (value: unknown) => { valid: boolean; errorMessage?: string };
  taskSupport?: "forbidden" | "optional" | "required";
}

const DEFAULT_RECONNECT: Required<MCPReconnectOptions> = {
  maxAttempts: 5,
  initialDelayMs: 500,
  maxDelayMs: 10_000,
};

/**
 * A connection to one MCP server, over stdio, Streamable HTTP (with legacy SSE fallback), SSE
 * or in memory. Implements `ToolSource`, so it can be handed to an `Agent` as is.
 *
 * @example
 * ```ts
 * const everything = new MCP({ transport: "stdio", command: "npx", args: ["-y", "@modelcontextprotocol/server-everything"] });
 * await everything.connect();
 * const result = await everything.callTool("echo", { message: "hi" });
 * await everything.close();
 * ```
 */
export class MCP implements ToolSource {
  private readonly config: MCPConfig;
  private readonly secrets: readonly string[];
  private readonly reconnectOptions: Required<MCPReconnectOptions> | false;
  private state: State = "idle";
  private session?: Session;
  private connecting?: Promise<void>;
  private ready?: { promise: Promise<Session>; resolve(session: Session): void; reject(error: Error): void };
  private reconnectTimer?: ReturnType<typeof setTimeout>;
  private lastFailure?: Error;
  private roots?: MCPRoot[];
  private logLevel?: string;
  private tools?: MCPTool[];
  private toolsLoading?: Promise<MCPTool[]>;
  private toolsGeneration = 0;
  private readonly toolMetadata = new Map<string, ToolMetadata>();
  private readonly toolListeners = new Set<() => void>();
  private readonly subscriptions = new Map<string, Set<(uri: string) => void>>();
  private authTransport?: StreamableHTTPClientTransport | SSEClientTransport;
  private readonly validator = new LazySchemaValidator();

  /** The server's name and version, after `connect()`. */
  serverInfo?: Implementation;
  /** What the server offers, after `connect()`. */
  capabilities?: ServerCapabilities;
  /** The server's instructions for the model, after `connect()`, if it gave any. */
  instructions?: string;

  /** @throws JunctionError `mcp-config-invalid` when the config is malformed, naming the field */
  constructor(config: MCPConfig) {
    checkMCPConfig(config);
    this.config = config;
    this.secrets = collectSecrets(config);
    this.roots = config.roots ? [...config.roots] : undefined;
    this.reconnectOptions =
      config.reconnect === false ? false : { ...DEFAULT_RECONNECT, ...config.reconnect };
  }

  /** Whether a session is live. False before `connect()`, while reconnecting and after `close()`. */
  get connected(): boolean {
    return this.state === "connected";
  }

  /** The configured name, else the server's own name, else a description of where it runs. */
  get name(): string {
    if (this.config.name) return this.config.name;
    if (this.serverInfo?.name) return this.serverInfo.name;
    switch (this.config.transport) {
      case "stdio":
        return [this.config.command, ...(this.config.args ?? [])].join(" ");
      case "http":
      case "sse":
        return safeUrl(this.config.url);
      case "memory":
        return "in-memory server";
      default: {
        const unknown: never = this.config;
        return String((unknown as { transport?: unknown }).transport);
      }
    }
  }

  /**
   * Starts the server (stdio) or opens the session (HTTP, SSE, memory) and runs the initialize
   * handshake. Rejects with an error naming the server (and for stdio the command and the tail
   * of its stderr) when that fails.
   */
  async connect(): Promise<void> {
    if (this.state === "connected") return;
    if (this.state === "closed") {
      throw new JunctionError(
        "mcp-not-connected",
        `MCP connection "${this.name}" was closed; create a new MCP`,
      );
    }
    this.connecting ??= (async () => {
      this.state = "connecting";
      try {
        this.adopt(await this.open());
      } catch (error) {
        if (this.state === "connecting") this.state = "idle";
        throw error;
      } finally {
        this.connecting = undefined;
      }
    })();
    return this.connecting;
  }

  private open(streamableOnly = false): Promise<Session> {
    const capabilities: ClientCapabilities = {};
    const handlers = this.config.handlers ?? {};
    if (handlers.sampling) capabilities.sampling = {};
    if (handlers.elicitation) capabilities.elicitation = { form: { applyDefaults: true } };
    if (this.roots) capabilities.roots = { listChanged: true };
    return openSession({
      config: this.config,
      serverName: () => this.name,
      capabilities,
      validator: this.validator,
      secrets: this.secrets,
      streamableOnly,
      onUnauthorized: (transport) => {
        this.authTransport = transport;
      },
      install: (client) => {
        const { sampling, elicitation, log } = handlers;
        if (sampling)
          client.setRequestHandler(CreateMessageRequestSchema, (request) => sampling(request.params));
        if (elicitation)
          client.setRequestHandler(ElicitRequestSchema, (request) => elicitation(request.params));
        if (this.roots)
          client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [...(this.roots ?? [])] }));
        client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
          const { level, logger, data } = notification.params;
          try {
            log?.({ level, ...(logger === undefined ? {} : { logger }), data });
          } catch {
            // A throwing log handler must not break the connection.
          }
        });
        client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.toolsChanged());
        client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
          const uri = notification.params.uri;
          for (const listener of this.subscriptions.get(uri) ?? []) {
            try {
              listener(uri);
            } catch {
              // One listener's failure must not stop the others.
            }
          }
        });
      },
    });
  }

  private adopt(session: Session): void {
    this.session = session;
    this.serverInfo = session.client.getServerVersion();
    this.capabilities = session.client.getServerCapabilities();
    this.instructions = session.client.getInstructions();
    this.state = "connected";
    this.lastFailure = undefined;
    session.client.onerror = () => {
      // Transport noise (a garbage stdout line, a dropped SSE stream) is not fatal; a real
      // failure shows up as a rejected request or a close.
    };
    session.client.onclose = () => this.sessionClosed(session);
    // The SDK handles notifications a microtask late but responses at once, so a progress
    // notification sent just before the result would find its handler gone. Delaying responses
    // by one microtask keeps the server's order.
    const deliver = session.transport.onmessage;
    if (deliver) {
      session.transport.onmessage = (message, extra) => {
        if ("id" in message && !("method" in message)) queueMicrotask(() => deliver(message, extra));
        else deliver(message, extra);
      };
    }
  }

  private sessionClosed(session: Session): void {
    if (session.closing || session !== this.session || this.state === "closed") return;
    this.session = undefined;
    // The server is gone, but processes it started may linger in its group: end them too.
    // (The SDK client has already let go of the transport, so close the transport itself.)
    session.closing = true;
    void session.transport.close().catch(() => undefined);
    this.invalidateTools();
    if (!this.reconnectOptions || session.kind === "memory") {
      this.state = "disconnected";
      this.lastFailure = new JunctionError(
        "mcp-connection-closed",
        `MCP server "${this.name}" closed the connection`,
      );
      return;
    }
    this.state = "reconnecting";
    this.ready = deferred();
    this.scheduleReconnect(0, this.reconnectOptions);
  }

  private scheduleReconnect(
    attempt: number,
    options: Required<MCPReconnectOptions>,
    lastError?: unknown,
  ): void {
    if (this.state !== "reconnecting") return;
    if (attempt >= options.maxAttempts) {
      const detail = lastError instanceof Error ? `: ${lastError.message}` : "";
      const error = safeError(
        "mcp-connection-closed",
        `MCP server "${this.name}" stopped and could not be restarted after ${options.maxAttempts} attempts${detail}`,
        this.secrets,
        lastError,
      );
      this.state = "disconnected";
      this.lastFailure = error;
      this.ready?.reject(error);
      this.ready = undefined;
      return;
    }
    const delay = Math.min(options.initialDelayMs * 2 ** attempt, options.maxDelayMs);
    this.reconnectTimer = setTimeout(async () => {
      this.reconnectTimer = undefined;
      if (this.state !== "reconnecting") return;
      let session: Session;
      try {
        session = await this.open();
      } catch (error) {
        this.scheduleReconnect(attempt + 1, options, error);
        return;
      }
      if (this.state !== "reconnecting") {
        session.closing = true;
        await session.client.close().catch(() => undefined);
        return;
      }
      await this.resume(session);
    }, delay);
  }

  /** Makes a new session current, restores what the old one had set up, and wakes waiting calls. */
  private async resume(session: Session): Promise<void> {
    this.adopt(session);
    const ready = this.ready;
    this.ready = undefined;
    ready?.resolve(session);
    const options = { timeout: this.config.timeoutMs ?? 60_000 };
    if (this.logLevel) {
      await session.client
        .setLoggingLevel(this.logLevel as Parameters<typeof session.client.setLoggingLevel>[0], options)
        .catch(() => undefined);
    }
    for (const uri of this.subscriptions.keys()) {
      await session.client.subscribeResource({ uri }, options).catch(() => undefined);
    }
    this.notifyToolListeners();
  }

  /** Waits for a usable session, bounded by the request's deadline. */
  private async acquire(
    method: string,
    deadline: number,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<Session> {
    if (this.state === "connected" && this.session) return this.session;
    if (this.state === "reconnecting" && this.ready) {
      const remaining = deadline - Date.now();
      return await raceDeadline(this.ready.promise, remaining, signal, () =>
        signal?.aborted
          ? new JunctionError(
              "mcp-aborted",
              `${method} to MCP server "${this.name}" was aborted while reconnecting`,
            )
          : new JunctionError(
              "mcp-timeout",
              `MCP server "${this.name}" was still reconnecting when ${method} timed out after ${timeoutMs} ms`,
            ),
      );
    }
    if (this.state === "closed") {
      throw new JunctionError("mcp-not-connected", `${method}: MCP connection "${this.name}" is closed`);
    }
    if (this.state === "disconnected" && this.lastFailure) {
      throw new JunctionError(
        "mcp-not-connected",
        `${method}: MCP server "${this.name}" is not connected (${this.lastFailure.message}); call connect() to try again`,
        { cause: this.lastFailure },
      );
    }
    throw new JunctionError(
      "mcp-not-connected",
      `${method}: MCP server "${this.name}" is not connected; call connect() first`,
    );
  }

  /**
   * Runs one request on the current session: waits for a reconnect if one is under way,
   * re-establishes an HTTP session the server forgot (404) and retries once, and maps errors.
   */
  private async run<T>(
    method: string,
    options: MCPRequestOptions,
    send: (session: Session, requestOptions: RequestOptions) => Promise<T>,
  ): Promise<T> {
    const timeoutMs = options.timeoutMs ?? this.config.timeoutMs ?? 60_000;
    const deadline = Date.now() + timeoutMs;
    const { signal } = options;
    const failure = { server: this.name, method, timeoutMs, signal, secrets: this.secrets };
    if (signal?.aborted) throw toJunctionError(signal.reason, failure);
    let session = await this.acquire(method, deadline, timeoutMs, signal);
    const requestOptions = (): RequestOptions => ({ timeout: Math.max(1, deadline - Date.now()), signal });
    try {
      return await send(session, requestOptions());
    } catch (error) {
      if (!(session.kind === "http" && isSessionGone(error))) throw toJunctionError(error, failure);
    }
    try {
      session = await this.reestablish(session, method, deadline, timeoutMs, signal);
      return await send(session, requestOptions());
    } catch (error) {
      throw toJunctionError(error, failure);
    }
  }

  /** The server answered 404 for our session id: open a new session (once, shared by all callers). */
  private async reestablish(
    gone: Session,
    method: string,
    deadline: number,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<Session> {
    if (this.session === gone && this.state === "connected") {
      this.state = "reconnecting";
      this.ready = deferred();
      this.session = undefined;
      gone.closing = true;
      void gone.client.close().catch(() => undefined);
      const ready = this.ready;
      this.open(true).then(
        (session) => {
          if (this.state === "reconnecting") void this.resume(session);
          else {
            session.closing = true;
            void session.client.close().catch(() => undefined);
          }
        },
        (error: unknown) => {
          if (this.state !== "reconnecting") return;
          this.state = "disconnected";
          this.lastFailure = error instanceof Error ? error : new Error(String(error));
          ready.reject(this.lastFailure);
          this.ready = undefined;
        },
      );
    }
    return this.acquire(method, deadline, timeoutMs, signal);
  }

  // ---- tools ----------------------------------------------------------------------------------

  /** Subscribes to changes of the server's tool list (`tools/list_changed`, or a restart). */
  onToolsChanged(listener: () => void): () => void {
    this.toolListeners.add(listener);
    return () => {
      this.toolListeners.delete(listener);
    };
  }

  private toolsChanged(): void {
    this.invalidateTools();
    this.notifyToolListeners();
  }

  private invalidateTools(): void {
    this.tools = undefined;
    this.toolsLoading = undefined;
    this.toolsGeneration++;
  }

  private notifyToolListeners(): void {
    for (const listener of this.toolListeners) {
      try {
        listener();
      } catch {
        // A listener's failure is its own.
      }
    }
  }

  private loadTools(options: MCPRequestOptions = {}): Promise<MCPTool[]> {
    if (this.tools) return Promise.resolve(this.tools);
    if (this.toolsLoading) return this.toolsLoading;
    // A server without the tools capability has no tools (and may not answer tools/list at all).
    if (this.capabilities && !this.capabilities.tools && this.state === "connected")
      return Promise.resolve([]);
    const generation = this.toolsGeneration;
    const loading = this.run("tools/list", options, (session, requestOptions) =>
      collectPages(async (cursor) => {
        const page = await session.client.request(
          { method: "tools/list", params: cursor ? { cursor } : {} },
          ListToolsResultSchema,
          requestOptions,
        );
        return { items: page.tools as MCPTool[], nextCursor: page.nextCursor };
      }, `tools/list from MCP server "${this.name}"`),
    ).then((tools) => {
      if (generation === this.toolsGeneration) {
        this.tools = tools;
        this.rememberToolMetadata(tools);
      }
      return tools;
    });
    this.toolsLoading = loading;
    loading
      .catch(() => undefined)
      .finally(() => {
        if (this.toolsLoading === loading) this.toolsLoading = undefined;
      });
    return loading;
  }

  private rememberToolMetadata(tools: MCPTool[]): void {
    this.toolMetadata.clear();
    for (const tool of tools) {
      const metadata: ToolMetadata = { taskSupport: tool.execution?.taskSupport };
      if (tool.outputSchema) {
        try {
          metadata.validate = this.validator.getValidator(
            tool.outputSchema as never,
          ) as ToolMetadata["validate"];
        } catch {
          // An outputSchema Ajv cannot compile: results of this tool go unchecked.
        }
      }
      this.toolMetadata.set(tool.name, metadata);
    }
  }

  /**
   * The server's tools as proxy `Tool`s whose `execute` calls the server. Cached; the cache
   * is refreshed when the server sends `tools/list_changed`.
   *
   * @param options.prefix - names become `${prefix}_${name}`; `execute` still calls the original name
   */
  async listTools(options: { prefix?: string } = {}): Promise<Tool[]> {
    const tools = await this.loadTools();
    return tools.map((tool) => this.proxy(tool, options.prefix));
  }

  /** The tools as definitions (no `execute`), for `generate()`/`stream()` without an Agent. */
  async listToolDefinitions(options: { prefix?: string } = {}): Promise<ToolDefinition[]> {
    const tools = await this.listTools(options);
    return tools.map(({ execute: _execute, ...definition }) => definition);
  }

  /** Drops the cache and fetches the tool list again. */
  async refreshTools(): Promise<Tool[]> {
    this.invalidateTools();
    return this.listTools();
  }

  private proxy(tool: MCPTool, prefix: string | undefined): Tool {
    const proxy: Tool = {
      name: prefix ? `${prefix}_${tool.name}` : tool.name,
      description: tool.description ?? tool.title ?? "",
      inputSchema: tool.inputSchema,
      execute: (input: unknown, context?: ToolContext) =>
        this.callTool(tool.name, (input ?? {}) as Record<string, unknown>, {
          signal: context?.signal,
          onProgress: context?.onProgress,
        }),
    };
    if (tool.outputSchema) proxy.outputSchema = tool.outputSchema;
    const annotations = {
      ...(tool.title ? { title: tool.title } : {}),
      ...pickAnnotations(tool.annotations),
    };
    if (Object.keys(annotations).length > 0) proxy.annotations = annotations;
    return proxy;
  }

  /**
   * Calls a tool by its server-side name. Returns every content block, `isError` and
   * `structuredContent` (checked against the tool's `outputSchema`). A tool that fails on the
   * server gives a result with `isError: true`; a timeout, an abort or a lost connection rejects.
   * Tools the server runs only as tasks (`execution.taskSupport: "required"`) are run as tasks:
   * polled to the end, cancelled on abort.
   */
  async callTool(
    name: string,
    args: Record<string, unknown> = {},
    options: MCPCallToolOptions = {},
  ): Promise<ToolResult> {
    // The tool list tells us output schemas and task support; fetch it once if we have not.
    if (!this.tools && this.state === "connected") await this.loadTools(options).catch(() => undefined);
    const onprogress = options.onProgress
      ? (progress: { progress: number; total?: number; message?: string }) => {
          try {
            options.onProgress?.({
              progress: progress.progress,
              ...(progress.total === undefined ? {} : { total: progress.total }),
              ...(progress.message === undefined ? {} : { message: progress.message }),
            });
          } catch {
            // A throwing progress callback must not fail the call.
          }
        }
      : undefined;
    const params = { name, arguments: args };
    if (
      this.toolMetadata.get(name)?.taskSupport === "required" &&
      this.capabilities?.tasks?.requests?.tools?.call
    ) {
      return this.callToolAsTask(name, params, options, onprogress);
    }
    return this.run("tools/call", options, async (session, requestOptions) => {
      try {
        const raw = await session.client.request({ method: "tools/call", params }, AnyResultSchema, {
          ...requestOptions,
          onprogress,
        });
        return this.finishToolResult(name, raw);
      } catch (error) {
        const result = rpcErrorAsResult(error, name);
        if (result) return result;
        throw error;
      }
    });
  }

  private callToolAsTask(
    name: string,
    params: { name: string; arguments: Record<string, unknown> },
    options: MCPCallToolOptions,
    onprogress: RequestOptions["onprogress"],
  ): Promise<ToolResult> {
    const timeoutMs = options.timeoutMs ?? this.config.timeoutMs ?? 60_000;
    return this.run("tools/call", { timeoutMs, signal: options.signal }, async (session, requestOptions) => {
      try {
        const raw = await runToolTask(session.client, params, {
          requestOptions,
          signal: options.signal,
          timeoutMs,
          onprogress,
        });
        return this.finishToolResult(name, raw);
      } catch (error) {
        const result = options.signal?.aborted ? undefined : rpcErrorAsResult(error, name);
        if (result) return result;
        throw error;
      }
    });
  }

  private finishToolResult(name: string, raw: unknown): ToolResult {
    const result = convertCallToolResult(raw, this.name);
    const validate = this.toolMetadata.get(name)?.validate;
    if (!validate || result.isError) return result;
    if (result.structuredContent === undefined) {
      result.content.push({
        type: "text",
        text: `[MCP server "${this.name}": tool "${name}" declares an outputSchema but returned no structuredContent]`,
      });
      result.isError = true;
      return result;
    }
    let outcome: { valid: boolean; errorMessage?: string };
    try {
      outcome = validate(result.structuredContent);
    } catch (error) {
      outcome = { valid: false, errorMessage: error instanceof Error ? error.message : String(error) };
    }
    if (!outcome.valid) {
      result.content.push({
        type: "text",
        text: `[MCP server "${this.name}": tool "${name}" returned structuredContent that does not match its outputSchema: ${outcome.errorMessage ?? "invalid"}]`,
      });
      result.isError = true;
    }
    return result;
  }

  // ---- resources, prompts, completions ----------------------------------------------------------

  /** Every resource the server lists (all pages). Empty when the server offers no resources. */
  async listResources(options: MCPRequestOptions = {}): Promise<Resource[]> {
    if (this.capabilities && !this.capabilities.resources) return [];
    return this.run("resources/list", options, (session, requestOptions) =>
      collectPages(async (cursor) => {
        const page = await session.client.request(
          { method: "resources/list", params: cursor ? { cursor } : {} },
          ListResourcesResultSchema,
          requestOptions,
        );
        return { items: page.resources as Resource[], nextCursor: page.nextCursor };
      }, `resources/list from MCP server "${this.name}"`),
    );
  }

  /** Every resource template the server lists (all pages). */
  async listResourceTemplates(options: MCPRequestOptions = {}): Promise<ResourceTemplate[]> {
    if (this.capabilities && !this.capabilities.resources) return [];
    return this.run("resources/templates/list", options, (session, requestOptions) =>
      collectPages(async (cursor) => {
        const page = await session.client.request(
          { method: "resources/templates/list", params: cursor ? { cursor } : {} },
          ListResourceTemplatesResultSchema,
          requestOptions,
        );
        return { items: page.resourceTemplates as ResourceTemplate[], nextCursor: page.nextCursor };
      }, `resources/templates/list from MCP server "${this.name}"`),
    );
  }

  /** Reads a resource: `{ contents: [...] }` as MCP returns it (`text` or base64 `blob` each). */
  async readResource(uri: string, options: MCPRequestOptions = {}): Promise<ReadResourceResult> {
    return this.run(
      "resources/read",
      options,
      (session, requestOptions) =>
        session.client.request(
          { method: "resources/read", params: { uri } },
          ReadResourceResultSchema,
          requestOptions,
        ) as Promise<ReadResourceResult>,
    );
  }

  /**
   * Subscribes to updates of a resource (`notifications/resources/updated`). Returns a function
   * that unsubscribes. Subscriptions are renewed after a reconnect.
   */
  async subscribe(uri: string, onUpdate: (uri: string) => void): Promise<() => Promise<void>> {
    let listeners = this.subscriptions.get(uri);
    if (!listeners) {
      await this.run("resources/subscribe", {}, (session, requestOptions) =>
        session.client.subscribeResource({ uri }, requestOptions),
      );
      listeners = this.subscriptions.get(uri) ?? new Set();
      this.subscriptions.set(uri, listeners);
    }
    listeners.add(onUpdate);
    let active = true;
    return async () => {
      if (!active) return;
      active = false;
      const current = this.subscriptions.get(uri);
      current?.delete(onUpdate);
      if (current && current.size === 0) {
        this.subscriptions.delete(uri);
        if (this.state === "connected") {
          await this.run("resources/unsubscribe", {}, (session, requestOptions) =>
            session.client.unsubscribeResource({ uri }, requestOptions),
          );
        }
      }
    };
  }

  /** Every prompt the server lists (all pages). Empty when the server offers no prompts. */
  async listPrompts(options: MCPRequestOptions = {}): Promise<Prompt[]> {
    if (this.capabilities && !this.capabilities.prompts) return [];
    return this.run("prompts/list", options, (session, requestOptions) =>
      collectPages(async (cursor) => {
        const page = await session.client.request(
          { method: "prompts/list", params: cursor ? { cursor } : {} },
          ListPromptsResultSchema,
          requestOptions,
        );
        return { items: page.prompts as Prompt[], nextCursor: page.nextCursor };
      }, `prompts/list from MCP server "${this.name}"`),
    );
  }

  /** Gets a prompt with its arguments filled in: `{ description?, messages }`. */
  async getPrompt(
    name: string,
    args: Record<string, string> = {},
    options: MCPRequestOptions = {},
  ): Promise<GetPromptResult> {
    return this.run(
      "prompts/get",
      options,
      (session, requestOptions) =>
        session.client.request(
          { method: "prompts/get", params: { name, arguments: args } },
          GetPromptResultSchema,
          requestOptions,
        ) as Promise<GetPromptResult>,
    );
  }

  /**
   * Asks the server to complete an argument of a prompt or resource template.
   *
   * @param context - values of arguments already chosen, which some servers use to narrow the answer
   */
  async complete(
    ref: MCPCompletionReference,
    argument: { name: string; value: string },
    context?: { arguments?: Record<string, string> },
    options: MCPRequestOptions = {},
  ): Promise<{ values: string[]; total?: number; hasMore?: boolean }> {
    const result = (await this.run("completion/complete", options, (session, requestOptions) =>
      session.client.request(
        { method: "completion/complete", params: { ref, argument, ...(context ? { context } : {}) } },
        CompleteResultSchema,
        requestOptions,
      ),
    )) as CompleteResult;
    const { values, total, hasMore } = result.completion;
    return {
      values,
      ...(total === undefined ? {} : { total }),
      ...(hasMore === undefined ? {} : { hasMore }),
    };
  }

  // ---- client features and housekeeping ---------------------------------------------------------

  /**
   * Completes an OAuth authorization code flow (HTTP/SSE): after `connect()` rejected as
   * unauthorized (then call `connect()` again), or after a request of a connected session did,
   * such as a scope step-up (then repeat the request).
   */
  async finishAuth(authorizationCode: string): Promise<void> {
    // A request of a live session can ask for authorization too (401 after an open initialize,
    // 403 insufficient_scope step-up): its transport then holds the flow's state.
    const live = this.session;
    const transport =
      this.authTransport ??
      (live?.kind === "http" || live?.kind === "sse"
        ? (live.transport as StreamableHTTPClientTransport | SSEClientTransport)
        : undefined);
    if (!transport) {
      throw new JunctionError(
        "invalid-argument",
        `finishAuth: MCP server "${this.name}" has no pending authorization (it needs an http config with an authProvider, and a connect() that asked for authorization)`,
      );
    }
    try {
      await transport.finishAuth(authorizationCode);
    } catch (error) {
      throw safeError(
        "mcp-connect-failed",
        `finishAuth for MCP server "${this.name}" failed: ${error instanceof Error ? error.message : String(error)}`,
        this.secrets,
        error,
      );
    }
    this.authTransport = undefined;
  }

  /** Replaces the roots served to the server and tells it (`notifications/roots/list_changed`). */
  async setRoots(roots: MCPRoot[]): Promise<void> {
    if (!this.roots) {
      throw new JunctionError(
        "mcp-capability-missing",
        `setRoots: MCP connection "${this.name}" was created without \`roots\`, so the roots capability was not advertised; pass \`roots: []\` in its config to enable it`,
      );
    }
    this.roots = [...roots];
    if (this.state === "connected" && this.session) {
      try {
        await this.session.client.sendRootsListChanged();
      } catch (error) {
        throw toJunctionError(error, {
          server: this.name,
          method: "notifications/roots/list_changed",
          timeoutMs: 0,
          secrets: this.secrets,
        });
      }
    }
  }

  /** Sets the level of log messages the server sends to `handlers.log` (kept across reconnects). */
  async setLogLevel(level: string, options: MCPRequestOptions = {}): Promise<void> {
    await this.run("logging/setLevel", options, (session, requestOptions) =>
      session.client.request(
        { method: "logging/setLevel", params: { level: level as "info" } },
        AnyResultSchema,
        requestOptions,
      ),
    );
    this.logLevel = level;
  }

  /** Checks the server answers. */
  async ping(options: MCPRequestOptions = {}): Promise<void> {
    await this.run("ping", options, (session, requestOptions) => session.client.ping(requestOptions));
  }

  /**
   * Closes the connection. For stdio, resolves once the server's whole process tree is gone
   * (its process group: SIGTERM, then SIGKILL). For Streamable HTTP, ends the session (DELETE).
   */
  async close(): Promise<void> {
    const previous = this.state;
    this.state = "closed";
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    this.ready?.reject(new JunctionError("mcp-not-connected", `MCP connection "${this.name}" was closed`));
    this.ready = undefined;
    if (previous === "connecting") await this.connecting?.catch(() => undefined);
    const session = this.session;
    this.session = undefined;
    this.invalidateTools();
    if (!session) return;
    session.closing = true;
    if (session.kind === "http") {
      const transport = session.transport as StreamableHTTPClientTransport;
      await raceDeadline(transport.terminateSession(), 2000).catch(() => undefined);
    }
    await session.client.close().catch(() => undefined);
  }
}

/** A JSON-RPC error answer to tools/call is the server's failure to run the tool: a result the model can read. */
function rpcErrorAsResult(error: unknown, name: string): ToolResult | undefined {
  if (!(error instanceof McpError)) return undefined;
  if (error.code === ErrorCode.RequestTimeout || error.code === ErrorCode.ConnectionClosed) return undefined;
  return {
    content: [{ type: "text", text: `Tool "${name}" failed: ${error.message}` }],
    isError: true,
  };
}

function isSessionGone(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error as { code?: unknown }).code === 404 &&
    /^Streamable HTTP error/.test(error.message)
  );
}

function pickAnnotations(annotations: MCPTool["annotations"]): Tool["annotations"] {
  const picked: NonNullable<Tool["annotations"]> = {};
  if (!annotations) return picked;
  if (typeof annotations.title === "string") picked.title = annotations.title;
  for (const key of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const) {
    if (typeof annotations[key] === "boolean") picked[key] = annotations[key];
  }
  return picked;
}

function safeUrl(url: string): string {
  try {
    return describeUrl(new URL(url));
  } catch {
    return "invalid URL";
  }
}

function deferred<T>(): { promise: Promise<T>; resolve(value: T): void; reject(error: Error): void } {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Nobody may be waiting when it rejects.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

async function raceDeadline<T>(
  promise: Promise<T>,
  ms: number,
  signal?: AbortSignal,
  makeError: () => Error = () => new JunctionError("mcp-timeout", `timed out after ${ms} ms`),
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(makeError()), Math.max(0, ms));
        if (signal) {
          onAbort = () => reject(makeError());
          signal.addEventListener("abort", onAbort, { once: true });
        }
      }),
    ]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener("abort", onAbort);
  }
}
