import {
  type ClientCapabilities,
  type CompleteResult,
  type GetPromptResult,
  type Implementation,
  JunctionError,
  type MCPSkill,
  type MCPTool,
  type Prompt,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
  type ServerCapabilities,
  type Tool,
  type ToolDefinition,
  type ToolResult,
  type ToolSource,
} from "@junction/types";
import type { LoggingLevel, RequestOptions } from "@modelcontextprotocol/client";
import { z } from "zod";
import { checkMCPConfig } from "./check-mcp-config.js";
import type { MCPConfig, MCPRoot } from "./mcp-config.js";
import { MCPConnection, type MCPConnectionState, type MCPRequestOptions } from "./mcp-connection.js";
import { collectSecrets, toJunctionError } from "./mcp-errors.js";
import { ListenStream } from "./mcp-listen.js";
import { describeServer, type JunctionClient, type Session } from "./mcp-session.js";
import { type MCPCallToolOptions, MCPTools } from "./mcp-tools.js";
import { type MCPWarning, reportWarning } from "./mcp-warning.js";
import { LazySchemaValidator } from "./output-schema-validator.js";
import { type ListItems, type ListMethod, listAll } from "./paginate.js";
import { subscribeResource } from "./resource-subscribe.js";
import {
  advertisedExtensions,
  type MCPSkillDocument,
  type MCPSkillFile,
  type MCPSkillListing,
  MCPSkills,
  skillsEnabled,
} from "./skills.js";
import { proxyTool } from "./tool-proxy.js";

export type { MCPConnectionState, MCPRequestOptions } from "./mcp-connection.js";
export type { MCPCallToolOptions } from "./mcp-tools.js";

/** What Junction reads of a `notifications/tasks/status` (the rest is the `Task` `tasks/get` shows). */
const TASK_STATUS_PARAMS = { params: z.object({ taskId: z.string() }).passthrough() };
/** A completion request's reference: a prompt by name or a resource template by URI. */
export type MCPCompletionReference =
  | { type: "ref/prompt"; name: string }
  | { type: "ref/resource"; uri: string };

/** What {@link MCP.complete} asks the server to complete. */
export interface MCPCompletionRequest {
  /** The prompt or resource template the argument belongs to. */
  ref: MCPCompletionReference;
  /** The argument being completed and what was typed so far. */
  argument: { name: string; value: string };
  /** Values of arguments already chosen, which some servers use to narrow the answer. */
  context?: { arguments?: Record<string, string> };
}

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
  private readonly connection: MCPConnection;
  private roots?: MCPRoot[];
  private logLevel?: string;
  private readonly subscriptions = new Map<string, Set<(uri: string) => void>>();
  private readonly listenStream: ListenStream;
  private readonly tools: MCPTools;
  private readonly skills = new MCPSkills({
    enabled: () => skillsEnabled(this.config),
    serverName: () => this.name,
    run: (method, options, send) => this.run(method, options, send),
  });

  /** The server's name and version, after `connect()`. */
  serverInfo?: Implementation;
  /** What the server offers, after `connect()`. */
  capabilities?: ServerCapabilities;
  /** The server's instructions for the model, after `connect()`, if it gave any. */
  instructions?: string;
  /**
   * The protocol revision negotiated with the server, after `connect()`: `"2026-07-28"` with a
   * server that offers it (unless pinned otherwise), else the revision of the 2025 handshake.
   */
  protocolVersion?: string;

  /** @throws JunctionError `mcp-config-invalid` when the config is malformed, naming the field */
  constructor(config: MCPConfig) {
    checkMCPConfig(config);
    this.config = config;
    this.secrets = collectSecrets(config);
    this.roots = config.roots ? [...config.roots] : undefined;
    this.listenStream = new ListenStream(
      () => ({
        ...(this.capabilities?.tools?.listChanged ? { toolsListChanged: true } : {}),
        ...(this.subscriptions.size > 0 ? { resourceSubscriptions: [...this.subscriptions.keys()] } : {}),
      }),
      () => this.config.timeoutMs ?? 60_000,
    );
    // One validator per connection: the SDK client's, and the one for the tools' output schemas.
    const validator = new LazySchemaValidator();
    this.tools = new MCPTools({
      serverName: () => this.name,
      connected: () => this.connection.connected,
      reconnecting: () => this.connection.status === "reconnecting",
      capabilities: () => this.capabilities,
      timeoutMs: () => this.config.timeoutMs ?? 60_000,
      validator,
      relistDelays: () => this.connection.backoffDelays(MAX_RELISTS),
      warn: (warning) => this.warn({ ...warning, server: this.name }),
      run: (method, options, send) => this.run(method, options, send),
    });
    this.connection = new MCPConnection(config, {
      secrets: this.secrets,
      validator,
      hooks: {
        serverName: () => this.name,
        clientCapabilities: () => this.clientCapabilities(),
        install: (client) => this.install(client),
        adopted: (session) => {
          this.serverInfo = session.client.getServerVersion();
          this.capabilities = session.client.getServerCapabilities();
          this.instructions = session.client.getInstructions();
          this.protocolVersion = session.client.getNegotiatedProtocolVersion();
        },
        dropped: () => {
          this.tools.sessionLost();
          void this.listenStream.close();
          // A lost session's tools may be gone or renamed: whoever holds them lists again, which
          // waits for the reconnect (and fails naming the server if it gives up). Not on close().
          if (!this.connection.closed) this.tools.notifyListeners();
        },
        stale: () => {
          this.tools.sessionLost();
          this.tools.notifyListeners();
        },
        resumed: (session, requestOptions) => this.restore(session, requestOptions),
      },
    });
  }

  /** Whether a session is live. False before `connect()`, while reconnecting and after `close()`. */
  get connected(): boolean {
    return this.connection.connected;
  }

  /**
   * Where the connection stands: `idle`, `connecting`, `connected`, `reconnecting`,
   * `disconnected` (a reconnect gave up: see {@link lastError}; the next request tries again) or
   * `closed`.
   */
  get state(): MCPConnectionState {
    return this.connection.status;
  }

  /** Why the connection is not connected, when something failed (a reconnect that gave up, a failed `connect()`). */
  get lastError(): Error | undefined {
    return this.connection.failure;
  }

  /** The live session (tests reach for its transport and client). */
  private get session(): Session | undefined {
    return this.connection.session;
  }

  /** The configured name, else the server's own name, else a description of where it runs. */
  get name(): string {
    if (this.config.name) return this.config.name;
    if (this.serverInfo?.name) return this.serverInfo.name;
    return describeServer(this.config);
  }

  /**
   * What the server says it is for, after `connect()`: its own description, else its title (from
   * `initialize`; the server's words, so untrusted). A vendor's tool search shows it to the model
   * in place of the server's deferred tools.
   */
  get description(): string | undefined {
    return this.serverInfo?.description || this.serverInfo?.title || undefined;
  }

  /**
   * Starts the server (stdio) or opens the session (HTTP, SSE, memory) and runs the initialize
   * handshake. Rejects with an error naming the server (and for stdio the command and the tail
   * of its stderr) when that fails.
   */
  async connect(): Promise<void> {
    await this.connection.connect();
    // On 2026-07-28, tool list changes arrive on a `subscriptions/listen` stream. A server that
    // refuses it still serves every request: the tool cache then refreshes on reconnect only.
    const session = this.session;
    if (session) await this.listenStream.open(session).catch(() => undefined);
  }

  private clientCapabilities(): ClientCapabilities {
    const capabilities: ClientCapabilities = {};
    const handlers = this.config.handlers ?? {};
    if (handlers.sampling) capabilities.sampling = {};
    if (handlers.elicitation) capabilities.elicitation = { form: { applyDefaults: true } };
    if (this.roots) capabilities.roots = { listChanged: true };
    const extensions = advertisedExtensions(this.config);
    if (extensions) capabilities.extensions = extensions;
    return capabilities;
  }

  /** Registers the handlers of the client features on a fresh SDK client. */
  private install(client: JunctionClient): void {
    client.logLevel = () => this.logLevel;
    const { sampling, elicitation, log } = this.config.handlers ?? {};
    // On 2026-07-28 the same handlers answer the server's `input_required` rounds (MRTR).
    if (sampling)
      client.setRequestHandler(
        "sampling/createMessage",
        (request) =>
          // Junction's types are the specification's (a tool result's structuredContent an object);
          // the SDK's follow SEP-2106 (any JSON value): the same wire data.
          sampling(request.params as never) as never,
      );
    if (elicitation)
      client.setRequestHandler(
        "elicitation/create",
        (request) => elicitation(request.params as never) as never,
      );
    if (this.roots) client.setRequestHandler("roots/list", () => ({ roots: [...(this.roots ?? [])] }));
    client.setNotificationHandler("notifications/message", (notification) => {
      const { level, logger, data } = notification.params;
      try {
        log?.({ level, ...(logger === undefined ? {} : { logger }), data });
      } catch {
        // A throwing log handler must not break the connection.
      }
    });
    client.setNotificationHandler("notifications/tools/list_changed", () => this.tools.changed());
    // 2025-11-25: a task's status changed; its polling (if any) wakes early.
    client.setNotificationHandler("notifications/tasks/status", TASK_STATUS_PARAMS, (params) =>
      client.taskStatus.changed(params.taskId),
    );
    client.setNotificationHandler("notifications/resources/updated", (notification) => {
      const uri = notification.params.uri;
      for (const listener of this.subscriptions.get(uri) ?? []) {
        try {
          listener(uri);
        } catch {
          // One listener's failure must not stop the others.
        }
      }
    });
  }

  /** After a reconnect: the log level and resource subscriptions the old session had, and a tools refresh. */
  private async restore(session: Session, options: RequestOptions): Promise<void> {
    if (session.client.getProtocolEra() === "modern") {
      // The log level travels in each request's `_meta`; subscriptions in one listen stream.
      // As in connect(): a server that refuses subscriptions/listen still serves every request,
      // but a subscription it no longer honours is lost, and said so.
      const refusal = await this.listenStream.open(session).then(
        () => undefined,
        (error: unknown) => error,
      );
      if (this.connection.session === session && !session.closing) {
        const honored = this.listenStream.honored?.resourceSubscriptions ?? [];
        for (const uri of [...this.subscriptions.keys()]) {
          if (honored.includes(uri)) continue;
          this.subscriptionLost(
            uri,
            refusal === undefined
              ? new JunctionError(
                  "mcp-capability-missing",
                  `MCP server "${this.name}" did not agree to send updates of ${JSON.stringify(uri)} on subscriptions/listen`,
                )
              : this.restoreError(refusal, "subscriptions/listen"),
          );
        }
      }
      this.tools.notifyListeners();
      return;
    }
    const level = this.logLevel;
    if (level) {
      // The session is usable either way: the server then logs at its own default level.
      await session.client.setLoggingLevel(level as LoggingLevel, options).catch((error: unknown) => {
        const cause = this.restoreError(error, "logging/setLevel");
        this.warn({
          code: "log-level-not-restored",
          server: this.name,
          level,
          cause,
          message: `Log level ${JSON.stringify(level)} not restored after MCP server "${this.name}" reconnected: ${cause.message}. It logs at its own default level: call setLogLevel() again to retry.`,
        });
      });
    }
    for (const uri of [...this.subscriptions.keys()]) {
      // The session is usable either way, but this uri gets no more updates.
      await session.client
        .subscribeResource({ uri }, options)
        .catch((error: unknown) =>
          this.subscriptionLost(uri, this.restoreError(error, "resources/subscribe")),
        );
    }
    this.tools.notifyListeners();
  }

  /**
   * A subscription the new session refused: the uri gets no more updates, so its listeners are
   * dropped (a later `subscribe(uri)` asks the server again instead of joining a dead set) and
   * the app is told.
   */
  private subscriptionLost(uri: string, cause: JunctionError): void {
    this.subscriptions.delete(uri);
    this.warn({
      code: "resource-subscription-lost",
      server: this.name,
      uri,
      cause,
      message: `Subscription to ${JSON.stringify(uri)} lost after MCP server "${this.name}" reconnected: ${cause.message}. Its listeners were removed and get no more updates: call subscribe(${JSON.stringify(uri)}, …) again to retry.`,
    });
  }

  /** What a request of {@link restore} rejected with, as that request would have thrown it. */
  private restoreError(error: unknown, method: string): JunctionError {
    return toJunctionError(error, {
      server: this.name,
      method,
      timeoutMs: this.config.timeoutMs ?? 60_000,
      secrets: this.secrets,
    });
  }

  /** Reports a warning to `onWarning`, else as a process warning (see {@link MCPCommon.onWarning}). */
  private warn(warning: MCPWarning): void {
    const listener = this.config.onWarning;
    try {
      reportWarning(warning, listener, "JunctionMCPWarning");
    } catch {
      // A throwing onWarning must not break the reconnect.
    }
  }

  /** Runs one request on the connection (see {@link MCPConnection.run}). */
  private run<T>(
    method: string,
    options: MCPRequestOptions,
    send: (session: Session, requestOptions: RequestOptions) => Promise<T>,
  ): Promise<T> {
    return this.connection.run(method, options, send);
  }

  /** Every item of a paginated list, all pages, as one request of the connection. */
  private listAll<M extends ListMethod>(method: M, options: MCPRequestOptions): Promise<ListItems[M][]> {
    return this.run(method, options, (session, requestOptions) =>
      listAll(session.client, method, {
        requestOptions,
        describe: `${method} from MCP server "${this.name}"`,
      }),
    );
  }

  // ---- tools ----------------------------------------------------------------------------------

  /**
   * Subscribes to changes of the server's tool list: `tools/list_changed`, a restart, and on
   * 2026-07-28 the end of the listed tools' `ttlMs` (no sooner than a second after the list),
   * after which the server may list different tools without saying so. A listener lists again
   * when it next needs the tools (an Agent: before its next step).
   */
  onToolsChanged(listener: () => void): () => void {
    return this.tools.onChanged(listener);
  }

  /**
   * The server's tools as proxy `Tool`s whose `execute` calls the server. Cached; the cache
   * is refreshed when the server sends `tools/list_changed`, and on 2026-07-28 once the list's
   * `ttlMs` has passed.
   *
   * @param options.prefix - names become `${prefix}_${name}`; `execute` still calls the original name
   */
  async listTools(options: { prefix?: string } = {}): Promise<Tool[]> {
    const tools = await this.tools.load();
    return tools.map((tool) =>
      proxyTool(tool, options.prefix, (input, context) =>
        this.callTool(tool.name, input, {
          signal: context?.signal,
          onProgress: context?.onProgress,
          ...(context?.idempotencyKey === undefined ? {} : { idempotencyKey: context.idempotencyKey }),
        }),
      ),
    );
  }

  /** The tools as definitions (no `execute`), for `generate()`/`stream()` without an Agent. */
  async listToolDefinitions(options: { prefix?: string } = {}): Promise<ToolDefinition[]> {
    const tools = await this.listTools(options);
    return tools.map(({ execute: _execute, ...definition }) => definition);
  }

  /**
   * The tools as the server listed them in `tools/list` (cached like `listTools`), with what a
   * proxy `Tool` leaves out, such as `_meta` (where MCP Apps name a tool's `ui://` resource).
   * Everything in them is the server's, unchecked beyond the protocol's schema.
   */
  async listServerTools(): Promise<MCPTool[]> {
    return [...(await this.tools.load())];
  }

  /** Drops the cache and fetches the tool list again. */
  async refreshTools(): Promise<Tool[]> {
    this.tools.invalidate();
    return this.listTools();
  }

  /**
   * Calls a tool by its server-side name. Returns every content block, `isError` and
   * `structuredContent` (checked against the tool's `outputSchema`). A tool that fails on the
   * server gives a result with `isError: true`; a timeout, an abort or a lost connection rejects.
   * Tools the server runs only as tasks (`execution.taskSupport: "required"`) are run as tasks:
   * polled to the end, cancelled on abort; so are tools that allow it (`"optional"`) when
   * `options.task` is set.
   */
  async callTool(
    name: string,
    args: Record<string, unknown> = {},
    options: MCPCallToolOptions = {},
  ): Promise<ToolResult> {
    return this.tools.call(name, args, options);
  }

  // ---- resources, prompts, completions ----------------------------------------------------------

  /** Every resource the server lists (all pages). Empty when the server offers no resources. */
  async listResources(options: MCPRequestOptions = {}): Promise<Resource[]> {
    if (this.capabilities && !this.capabilities.resources) return [];
    return this.listAll("resources/list", options);
  }

  /** Every resource template the server lists (all pages). */
  async listResourceTemplates(options: MCPRequestOptions = {}): Promise<ResourceTemplate[]> {
    if (this.capabilities && !this.capabilities.resources) return [];
    return this.listAll("resources/templates/list", options);
  }

  /** Reads a resource: `{ contents: [...] }` as MCP returns it (`text` or base64 `blob` each). */
  async readResource(uri: string, options: MCPRequestOptions = {}): Promise<ReadResourceResult> {
    return this.run(
      "resources/read",
      options,
      (session, requestOptions) =>
        session.client.request(
          { method: "resources/read", params: { uri } },
          requestOptions,
        ) as Promise<ReadResourceResult>,
    );
  }

  /**
   * Subscribes to updates of a resource (`notifications/resources/updated`). Returns a function
   * that unsubscribes and returns a promise (await it to know the server was told; `close()`
   * settles one still pending). Subscriptions are renewed after a reconnect. On 2026-07-28 they are the
   * `resourceSubscriptions` of the connection's `subscriptions/listen` stream (reopened when the
   * server drops it); on 2025-11-25, `resources/subscribe`.
   */
  async subscribe(uri: string, onUpdate: (uri: string) => void): Promise<() => Promise<void>> {
    return subscribeResource(
      {
        listeners: this.subscriptions,
        stream: this.listenStream,
        serverName: () => this.name,
        connected: () => this.connection.connected,
        closed: () => this.connection.closed,
        run: (method, send) => this.run(method, {}, send),
      },
      uri,
      onUpdate,
    );
  }

  /** Every prompt the server lists (all pages). Empty when the server offers no prompts. */
  async listPrompts(options: MCPRequestOptions = {}): Promise<Prompt[]> {
    if (this.capabilities && !this.capabilities.prompts) return [];
    return this.listAll("prompts/list", options);
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
          requestOptions,
        ) as Promise<GetPromptResult>,
    );
  }

  /**
   * Asks the server to complete an argument of a prompt or resource template: `request.context`
   * holds values of arguments already chosen, which some servers use to narrow the answer.
   */
  async complete(
    request: MCPCompletionRequest,
    options: MCPRequestOptions = {},
  ): Promise<{ values: string[]; total?: number; hasMore?: boolean }> {
    const { ref, argument, context } = request;
    const result = (await this.run("completion/complete", options, (session, requestOptions) =>
      session.client.request(
        { method: "completion/complete", params: { ref, argument, ...(context ? { context } : {}) } },
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

  // ---- skills (the Skills extension, SEP-2640; needs `skills: true`) --------------------------------

  /** The server's skills (`skills/list`, every page); entries that fail the checks are in `invalid`. */
  async listSkills(options: MCPRequestOptions = {}): Promise<MCPSkillListing> {
    return this.skills.list(options);
  }

  /** One skill's entry by its `SKILL.md` URI (`skills/get`), listed or not. */
  async getSkill(uri: string, options: MCPRequestOptions = {}): Promise<MCPSkill> {
    return this.skills.get(uri, options);
  }

  /** Reads a skill's `SKILL.md` (a URI: its entry from `skills/get`) and verifies it against the entry. */
  async readSkill(skill: MCPSkill | string, options: MCPRequestOptions = {}): Promise<MCPSkillDocument> {
    return this.skills.read(skill, options);
  }

  /** Reads a file of a skill by its path in the skill (`references/FORMS.md`) or URI, verified. */
  async readSkillFile(
    skill: MCPSkill | string,
    path: string,
    options: MCPRequestOptions = {},
  ): Promise<MCPSkillFile> {
    return this.skills.readFile({ skill, path }, options);
  }

  // ---- client features and housekeeping ---------------------------------------------------------

  /**
   * Completes an OAuth authorization code flow (HTTP/SSE): after `connect()` rejected as
   * unauthorized (then call `connect()` again), or after a request of a connected session did,
   * such as a scope step-up (then repeat the request).
   */
  async finishAuth(callback: string | URLSearchParams, iss?: string): Promise<void> {
    return this.connection.finishAuth(callback, iss);
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
    const session = this.connection.connected ? this.session : undefined;
    if (session) {
      try {
        await session.client.sendRootsListChanged();
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

  /**
   * Sets the level of log messages the server sends to `handlers.log` (kept across reconnects).
   * On 2025-11-25, `logging/setLevel`; on 2026-07-28, which has no such request, the level goes
   * in the `_meta` of every later request (`io.modelcontextprotocol/logLevel`), so it applies to
   * the logs of those requests.
   */
  async setLogLevel(level: string, options: MCPRequestOptions = {}): Promise<void> {
    await this.run("logging/setLevel", options, async (session, requestOptions) => {
      if (session.client.getProtocolEra() === "modern") return;
      await session.client.request(
        { method: "logging/setLevel", params: { level: level as LoggingLevel } },
        requestOptions,
      );
    });
    this.logLevel = level;
  }

  /**
   * Checks the server answers: `ping` on 2025-11-25; on 2026-07-28, which has no `ping`,
   * `server/discover`.
   */
  async ping(options: MCPRequestOptions = {}): Promise<void> {
    await this.run("ping", options, async (session, requestOptions) => {
      if (session.client.getProtocolEra() === "modern") await session.client.discover(requestOptions);
      else await session.client.ping(requestOptions);
    });
  }

  /**
   * Closes the connection. For stdio, resolves once the server's whole process tree is gone
   * (its process group: SIGTERM, then SIGKILL). For Streamable HTTP, ends the session (DELETE).
   */
  async close(): Promise<void> {
    return this.connection.close();
  }
}

/** How many times, at most, a new session that lists no tools (where the lost one did) is listed again. */
const MAX_RELISTS = 3;
