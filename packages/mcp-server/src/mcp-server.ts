import type { PendingToolCall, ResumeDecision } from "@junction/core";
import { JunctionError, type MCPTool, type Tool } from "@junction/types";
import {
  completable,
  createRequestStateCodec,
  McpServer,
  type McpServerFactory,
  type RegisteredTool,
  type RequestStateCodec,
  ResourceTemplate,
  type ServerContext,
  type ServerEventBus,
} from "@modelcontextprotocol/server";
import { z } from "zod";
import { agentRunnerOf } from "./agent-run.js";
import { AgentTasks, type PendingTaskApproval, TASKS_EXTENSION } from "./agent-tasks.js";
import { ApprovalRounds } from "./approval-rounds.js";
import { ListChanges, type MCPListKind } from "./list-changes.js";
import { type PassThroughRelay, relayOf } from "./pass-through.js";
import { wrapRequestHandlers } from "./request-hook.js";
import { ResourceSubscriptions } from "./resource-subscriptions.js";
import { registerServedAgentTool } from "./serve-agent-tool.js";
import {
  DEFAULT_GATEWAY_SEARCH_THRESHOLD,
  GATEWAY_CALL_TOOL,
  GATEWAY_SEARCH_TOOLS,
  type GatewaySearchEntry,
  GatewaySearchIndex,
  registerGatewaySearch,
} from "./serve-gateway-search.js";
import { type GatewayToolParts, gatewayToolHandler, registerGatewayTool } from "./serve-gateway-tool.js";
import { serveLegacyTasks } from "./serve-legacy-tasks.js";
import { checkSkills, ServedSkills, SKILLS_RESOURCE_NAME } from "./serve-skills.js";
import { type BeforeTaskHandler, serveTasks } from "./serve-tasks.js";
import {
  definitionOf,
  passthroughSchema,
  registerServedTool,
  type ServedToolDefinition,
  servedToolHandler,
  withVerifiedRequestState,
} from "./serve-tool.js";
import { inputRequiredOf, SERVED_REQUEST, SERVED_SCOPE, type ServedToolScope } from "./served-context.js";
import type {
  MCPGatewayEntry,
  MCPRequestContext,
  MCPServeContext,
  MCPServerOptions,
  MCPServerPrompt,
  MCPServerResource,
  MCPServerResourceTemplate,
} from "./served-types.js";
import { agentTaskRunner, type TaskRunner, toolTaskRunner } from "./task-runner.js";
import { InMemoryTaskStore } from "./task-store.js";
import { asksBeforeTask, declaredTaskSupport, type TaskSupport, taskSupportOf } from "./task-support.js";

/** `input_required` rounds one plain call may take on a 2025-11-25 session (the SDK's shim asks each). */
const MAX_INPUT_ROUNDS = 100;

/**
 * Junction as an MCP server: the tools, resources and prompts it serves, and the factory the
 * transports (`serveStdio`, `createMCPHTTPHandler`) build one SDK server instance from per
 * connection, 2025-11-25 session, or 2026-07-28 request. Make it with `createMCPServer()`.
 */
export class MCPServer {
  readonly name: string;
  readonly version: string;
  readonly #options: MCPServerOptions;
  readonly #prompts: MCPServerPrompt[];
  /**
   * Seals and checks the `requestState` of this server's `input_required` results (2026-07-28):
   * an HMAC with `stateKey`, bound to the method and the authenticated client. Tools registered
   * in `configure` mint their own state with it (`requestState.mint(payload, ctx)`); the server
   * verifies every echoed state with it, and refuses a changed one (-32602).
   */
  readonly requestState: RequestStateCodec;
  /** Seals served agents' `input_required` rounds and takes each answer once. */
  readonly #rounds: ApprovalRounds;
  /** The served agents' tasks, when `tasks` is set. */
  readonly #tasks: AgentTasks | undefined;
  /** Forwards upstream elicitation and sampling to the calling client, when `passThrough` is set. */
  readonly #relay: PassThroughRelay | undefined;
  /** The skills served, when `skills` is set. */
  readonly #skills: ServedSkills | undefined;
  /** The gateway's search index, built when its tools are first searched over. */
  readonly #searchIndex = new GatewaySearchIndex();
  /** Who watches which resource (`subscribe: true` resources, 2025 sessions and connections). */
  readonly #subscriptions: ResourceSubscriptions;
  /** The open 2025 sessions and connections, and the 2026-07-28 listen streams' event bus. */
  readonly #changes = new ListChanges();

  constructor(options: MCPServerOptions) {
    if (!options || typeof options.name !== "string" || options.name.length === 0) {
      throw new JunctionError("invalid-argument", "createMCPServer(): `name` must be a non-empty string.");
    }
    if (typeof options.version !== "string" || options.version.length === 0) {
      throw new JunctionError("invalid-argument", "createMCPServer(): `version` must be a non-empty string.");
    }
    checkUnique(
      "tool",
      (options.tools ?? []).map((t) => t.name),
    );
    checkUnique(
      "prompt",
      (options.prompts ?? []).map((p) => p.name),
    );
    checkUnique(
      "resource",
      [...(options.resources ?? []), ...(options.resourceTemplates ?? [])].map((r) => r.name),
    );
    if (options.skills !== undefined) checkSkillsOption(options);
    checkToolSearch(options.toolSearch);
    this.name = options.name;
    this.version = options.version;
    this.#options = options;
    this.#prompts = (options.prompts ?? []).map(withCompletions);
    this.#subscriptions = new ResourceSubscriptions(options.resources ?? [], options.resourceTemplates ?? []);
    checkStateKeyForStore(options);
    const key =
      typeof options.stateKey === "string"
        ? new TextEncoder().encode(options.stateKey)
        : (options.stateKey ?? globalThis.crypto.getRandomValues(new Uint8Array(32)));
    if (key.byteLength < 32) {
      throw new JunctionError(
        "invalid-argument",
        "createMCPServer(): `stateKey` must be 32 bytes or longer.",
      );
    }
    const runners = new Map<string, TaskRunner>();
    const support = new Map<string, TaskSupport>();
    for (const tool of options.tools ?? []) {
      const taskSupport = taskSupportOf(tool);
      if (taskSupport === "forbidden") continue;
      checkTasksSet(options, tool);
      const agent = agentRunnerOf(tool);
      runners.set(tool.name, agent ? agentTaskRunner(agent) : toolTaskRunner(tool));
      support.set(tool.name, taskSupport);
    }
    this.#relay = relayOf(options.passThrough);
    this.#skills = options.skills === undefined ? undefined : new ServedSkills(options.skills);
    this.#tasks = options.tasks
      ? new AgentTasks(options.tasks, { key, runners, support, relay: this.#relay })
      : undefined;
    const ttlSeconds = options.stateTtlSeconds ?? 3600;
    this.#rounds = new ApprovalRounds({
      stateKey: key,
      store: options.tasks?.store ?? new InMemoryTaskStore(),
      ttlMs: ttlSeconds * 1000,
    });
    this.requestState = createRequestStateCodec({
      key,
      ttlSeconds,
      bind: (context) => `${context.mcpReq.method}\0${context.http?.authInfo?.clientId ?? ""}`,
    });
  }

  /**
   * Builds one SDK `McpServer` instance with everything this server serves. The SDK's serving
   * entries call it per stdio connection, per 2025-11-25 session and per 2026-07-28 request.
   */
  async createSDKServer(context: MCPServeContext = { era: "legacy" }): Promise<McpServer> {
    const options = this.#options;
    const server = new McpServer(
      { name: options.name, version: options.version, ...(options.title ? { title: options.title } : {}) },
      {
        ...(options.instructions ? { instructions: options.instructions } : {}),
        ...(options.cacheHints ? { cacheHints: options.cacheHints } : {}),
        requestState: { verify: this.requestState.verify },
        // A served agent may stop for approvals many times in one plain call (each round a question to a person).
        inputRequired: { maxRounds: MAX_INPUT_ROUNDS },
        capabilities: {
          ...(options.logging ? { logging: {} } : {}),
          // `resources/subscribe` is of the 2025 revisions (2026-07-28 has no such method).
          ...(this.#subscriptions.enabled && context.era === "legacy"
            ? { resources: { subscribe: true } }
            : {}),
          ...(this.#tasks && context.era === "modern" ? { extensions: { [TASKS_EXTENSION]: {} } } : {}),
        },
      },
    );
    const served = new Set<string>();
    const beforeTask = new Map<string, BeforeTaskHandler>();
    for (const tool of options.tools ?? []) {
      const definition = definitionOf(tool);
      const runner = agentRunnerOf(tool);
      let registered: RegisteredTool;
      if (runner) {
        registered = registerServedAgentTool(server, runner, {
          definition,
          era: context.era,
          codec: this.requestState,
          rounds: this.#rounds,
          operator: options.tasks?.approver === "operator",
          schema: passthroughSchema(definition.inputSchema),
          relay: this.#relay,
        });
      } else {
        const scope = { era: context.era, codec: this.requestState, logging: options.logging === true };
        registered = registerServedTool(server, tool, { definition, scope });
        if (this.#tasks?.serves(tool.name) && asksBeforeTask(tool)) {
          // With the tasks extension, its call runs here until the tool starts its task.
          beforeTask.set(tool.name, (start) => {
            const handler = servedToolHandler(server, tool, {
              definition,
              scope: {
                ...scope,
                // A round's retry starts one task: copies of it sent at once get that task.
                startTask: ({ round, ...parts }) =>
                  round === undefined
                    ? start({ tool: tool.name, ...parts })
                    : this.#rounds.once(`tool-task:${round}`, () => start({ tool: tool.name, ...parts })),
              },
            });
            // Called before the SDK's own tools/call seam: the echoed requestState is checked here.
            return async (args, raw) => handler(args, await withVerifiedRequestState(this.requestState, raw));
          });
        }
      }
      // 2025-11-25: `tools/list` says which tools may (or must) be called with `task`.
      const taskSupport = this.#tasks?.taskSupport(tool.name) ?? "forbidden";
      if (context.era === "legacy" && taskSupport !== "forbidden") registered.execution = { taskSupport };
      served.add(tool.name);
    }
    if (options.mcps?.length) {
      await this.#registerGateway(server, served, {
        relay: this.#relay,
        era: context.era,
        codec: this.requestState,
      });
    }
    for (const resource of options.resources ?? []) registerResource(server, resource);
    for (const template of options.resourceTemplates ?? []) registerResourceTemplate(server, template);
    if (context.era === "legacy") this.#changes.track(server);
    if (this.#subscriptions.enabled && context.era === "legacy") this.#subscriptions.serve(server);
    for (const prompt of this.#prompts) {
      registerPrompt(server, prompt, {
        server,
        era: context.era,
        tool: prompt.name,
        kind: "prompt",
        codec: this.requestState,
        logging: options.logging === true,
      });
    }
    await this.#skills?.attach(server);
    if (this.#tasks) {
      // A 2025-11-25 HTTP session (the SDK builds one instance per session) owns its tasks.
      const connection = {
        unauthenticated:
          context.era === "legacy" && context.request ? `session:${globalThis.crypto.randomUUID()}` : "",
      };
      if (context.era === "modern") serveTasks(server, this.#tasks, { connection, beforeTask });
      else serveLegacyTasks(server, this.#tasks, connection);
    }
    await options.configure?.(server, context);
    if (options.aroundRequest) wrapRequestHandlers(server, options.aroundRequest);
    return server;
  }

  /**
   * Re-serves the connections' tools: each under its own name, or, past `toolSearch.threshold`,
   * behind `search_tools` and `call_tool`.
   */
  async #registerGateway(
    server: McpServer,
    served: Set<string>,
    parts: Omit<GatewayToolParts, "call">,
  ): Promise<void> {
    const tools: (GatewaySearchEntry & { parts: GatewayToolParts })[] = [];
    for (const entry of this.#options.mcps ?? []) {
      for (const upstream of await entry.mcp.listServerTools()) {
        const definition = gatewayDefinitionOf(entry, upstream);
        const toolParts: GatewayToolParts = {
          ...parts,
          call: (args, work) =>
            entry.mcp.callTool(upstream.name, args, {
              signal: work.signal,
              ...(work.onProgress ? { onProgress: work.onProgress } : {}),
            }),
        };
        tools.push({
          definition,
          listed: upstream,
          ...(entry.prefix ? { source: entry.prefix } : {}),
          handler: gatewayToolHandler(server, definition, toolParts),
          parts: toolParts,
        });
      }
    }
    const local = new Set(served);
    for (const { definition } of tools) claim(served, definition.name);
    const search = this.#options.toolSearch;
    const threshold =
      search === false ? Number.POSITIVE_INFINITY : (search?.threshold ?? DEFAULT_GATEWAY_SEARCH_THRESHOLD);
    if (tools.length <= threshold) {
      for (const tool of tools) registerGatewayTool(server, tool.definition, tool.parts);
      return;
    }
    for (const name of [GATEWAY_SEARCH_TOOLS, GATEWAY_CALL_TOOL]) {
      if (local.has(name)) {
        throw new JunctionError(
          "tool-name-collision",
          `gateway: a local tool is named "${name}", which the gateway's tool search needs; rename it, or set \`toolSearch: false\`.`,
        );
      }
    }
    registerGatewaySearch(server, {
      tools,
      index: this.#searchIndex.indexFor(tools),
      maxResults: (search ? search.maxResults : undefined) ?? 5,
      local,
    });
  }

  /**
   * The calls served agents' tasks wait for a person about, of every client: what an operator
   * answers with {@link answerApproval} when `tasks.approver` is `"operator"` (it works with the
   * default `"caller"` too, beside the clients' own answers).
   *
   * @example
   * ```ts
   * for (const { taskId, item } of await server.pendingApprovals()) {
   *   if (await reviewer.allows(item.name, item.input)) await server.answerApproval({ taskId, item, decision: "approve" });
   * }
   * ```
   */
  pendingApprovals(): Promise<PendingTaskApproval[]> {
    return this.#tasksOrThrow("pendingApprovals").pendingApprovals();
  }

  /**
   * Answers a call {@link pendingApprovals} listed: `"approve"`, `"deny"` or `{ deny: reason }`.
   * It counts when the task's run still waits for that call with the same tool and arguments,
   * and only the first answer to a call counts; resolves whether it counted.
   */
  answerApproval(answer: {
    taskId: string;
    item: PendingToolCall;
    decision: ResumeDecision;
  }): Promise<boolean> {
    return this.#tasksOrThrow("answerApproval").answerApproval(answer);
  }

  #tasksOrThrow(method: string): AgentTasks {
    if (!this.#tasks) {
      throw new JunctionError(
        "invalid-argument",
        `server.${method}(): this server serves no agent tasks; set \`tasks\` in createMCPServer() to run agents as tasks.`,
      );
    }
    return this.#tasks;
  }

  /**
   * Tells the clients subscribed to `uri` that it changed (`notifications/resources/updated`):
   * the 2025 sessions and connections that sent `resources/subscribe` for it (the resource, or its
   * template, needs `subscribe: true`), and the 2026-07-28 `subscriptions/listen` streams of the
   * server's HTTP handlers that asked for it. Clients that did not subscribe hear nothing.
   * Resolves with how many 2025 sessions and connections were told.
   *
   * @example
   * ```ts
   * await saveNote(id, text);
   * await server.resourceUpdated(`notes://${id}`);
   * ```
   */
  resourceUpdated(uri: string): Promise<number> {
    this.#changes.bus.publish({ kind: "resource_updated", uri });
    return this.#subscriptions.updated(uri);
  }

  /**
   * Tells clients that the server's `tools`, `prompts` or `resources` list changed
   * (`notifications/{list}/list_changed`), so that they list it again: every 2025 session and
   * connection, and the 2026-07-28 `subscriptions/listen` streams of the server's HTTP handlers
   * that asked for that list. Call it when what a list shows changed, such as a gateway's upstream
   * server announcing new tools. Resolves once the 2025 connections were written to.
   */
  listChanged(list: MCPListKind): Promise<void> {
    if (list !== "tools" && list !== "prompts" && list !== "resources") {
      return Promise.reject(
        new JunctionError(
          "invalid-argument",
          `server.listChanged(): the list is "tools", "prompts" or "resources", not ${JSON.stringify(list)}.`,
        ),
      );
    }
    return this.#changes.changed(list);
  }

  /** The event bus the 2026-07-28 `subscriptions/listen` streams of this server's HTTP handlers read. */
  get eventBus(): ServerEventBus {
    return this.#changes.bus;
  }

  /**
   * Aborts the agent runs going in this process as tasks (their tasks stay in the store), and the
   * calls of the pass-through waiting for a 2026-07-28 client's answer.
   */
  close(): void {
    this.#tasks?.close();
    this.#relay?.close();
  }

  /** The factory for the SDK's serving entries (`createMcpHandler`, `serveStdio`). */
  get factory(): McpServerFactory {
    return (context) =>
      this.createSDKServer({
        era: context.era,
        ...(context.authInfo ? { authInfo: context.authInfo } : {}),
        ...(context.requestInfo ? { request: context.requestInfo } : {}),
      });
  }
}

/**
 * Makes an MCP server of local tools (core's `tool()`, `agentTool()`), resources, prompts and
 * re-served MCP connections. Serve it with `serveStdio` (`@junction/mcp-server/stdio`),
 * `serveHTTP` (`@junction/mcp-server/node`) or the fetch-style `createMCPHTTPHandler`.
 *
 * @example
 * ```ts
 * const server = createMCPServer({
 *   name: "notes",
 *   version: "1.0.0",
 *   tools: [tool({ name: "add", description: "Adds", schema: z.object({ a: z.number(), b: z.number() }),
 *     execute: async ({ a, b }) => String(a + b) })],
 * });
 * serveStdio(server);
 * ```
 */
export function createMCPServer(options: MCPServerOptions): MCPServer {
  return new MCPServer(options);
}

/**
 * A server that re-serves the tools of connected MCP servers through one endpoint: names get
 * `${prefix}_`, annotations, titles and output schemas are kept, results pass through, and the
 * caller's cancellation and progress reach the upstream call.
 *
 * @example
 * ```ts
 * const server = gateway({ mcps: [{ mcp: github, prefix: "gh" }, { mcp: files, prefix: "fs" }] });
 * await serveHTTP(server, { port: 3000 });
 * ```
 */
export function gateway(
  options: { mcps: MCPGatewayEntry[] } & Partial<Omit<MCPServerOptions, "mcps">>,
): MCPServer {
  return new MCPServer({ name: "junction-gateway", version: "1.0.0", ...options });
}

/** An upstream tool as the gateway serves it: `${prefix}_${name}`, with what the server listed kept. */
function gatewayDefinitionOf(entry: MCPGatewayEntry, upstream: MCPTool): ServedToolDefinition {
  return {
    name: entry.prefix ? `${entry.prefix}_${upstream.name}` : upstream.name,
    description: upstream.description ?? "",
    inputSchema: upstream.inputSchema as ServedToolDefinition["inputSchema"],
    ...(upstream.title === undefined ? {} : { title: upstream.title }),
    ...(upstream.outputSchema ? { outputSchema: upstream.outputSchema as Record<string, unknown> } : {}),
    ...(upstream.annotations ? { annotations: upstream.annotations } : {}),
    ...(upstream.icons ? { icons: upstream.icons as ServedToolDefinition["icons"] } : {}),
    ...(upstream._meta ? { _meta: upstream._meta as Record<string, unknown> } : {}),
  };
}

function checkSkillsOption(options: MCPServerOptions): void {
  checkSkills(options.skills);
  const taken = [...(options.resources ?? []), ...(options.resourceTemplates ?? [])].find(
    (resource) => resource.name === SKILLS_RESOURCE_NAME,
  );
  if (taken) {
    throw new JunctionError(
      "invalid-argument",
      `createMCPServer(): a resource is named "${SKILLS_RESOURCE_NAME}", the name the skills' files are served under; rename it.`,
    );
  }
}

function checkToolSearch(search: MCPServerOptions["toolSearch"]): void {
  if (search === undefined || search === false) return;
  for (const key of ["threshold", "maxResults"] as const) {
    const value = search[key];
    if (value !== undefined && !(Number.isInteger(value) && value >= (key === "threshold" ? 0 : 1))) {
      throw new JunctionError(
        "invalid-argument",
        `createMCPServer(): \`toolSearch.${key}\` must be an integer of ${key === "threshold" ? 0 : 1} or more, not ${String(value)}.`,
      );
    }
  }
}

function claim(served: Set<string>, name: string): void {
  if (served.has(name)) {
    throw new JunctionError(
      "tool-name-collision",
      `gateway: two tools would be served as "${name}"; give the MCP connections different prefixes.`,
    );
  }
  served.add(name);
}

function requestContext(raw: ServerContext): MCPRequestContext {
  return {
    signal: raw.mcpReq.signal,
    ...(raw.http?.authInfo ? { authInfo: raw.http.authInfo } : {}),
    raw,
  };
}

function metadataOf(resource: MCPServerResource | MCPServerResourceTemplate) {
  return {
    ...(resource.title === undefined ? {} : { title: resource.title }),
    ...(resource.description === undefined ? {} : { description: resource.description }),
    ...(resource.mimeType === undefined ? {} : { mimeType: resource.mimeType }),
  };
}

function registerResource(server: McpServer, resource: MCPServerResource): void {
  server.registerResource(resource.name, resource.uri, metadataOf(resource), (uri, raw) =>
    resource.read(uri, requestContext(raw)),
  );
}

function registerResourceTemplate(server: McpServer, resource: MCPServerResourceTemplate): void {
  const metadata = metadataOf(resource);
  const { list, complete } = resource;
  const template = new ResourceTemplate(resource.uriTemplate, {
    list: list ? (raw) => list(requestContext(raw)) : undefined,
    ...(complete ? { complete } : {}),
  });
  server.registerResource(resource.name, template, metadata, (uri, variables, raw) =>
    resource.read(uri, variables, requestContext(raw)),
  );
}

function registerPrompt(server: McpServer, prompt: MCPServerPrompt, scope: ServedToolScope): void {
  const config = {
    ...(prompt.title === undefined ? {} : { title: prompt.title }),
    ...(prompt.description === undefined ? {} : { description: prompt.description }),
  };
  const get = (args: unknown, raw: ServerContext) => servePrompt(prompt, { args, raw, scope }) as never;
  if (prompt.arguments) {
    server.registerPrompt(prompt.name, { ...config, argsSchema: prompt.arguments }, get);
  } else {
    server.registerPrompt(prompt.name, config, (raw) => get({}, raw));
  }
}

/**
 * Runs a prompt's `get` with a context `servedContext()` reads: on 2026-07-28 a question it asked
 * the client ends the request with `input_required` (as a served tool's does), and one the client
 * lacks the capability for with `-32021`.
 */
async function servePrompt(
  prompt: MCPServerPrompt,
  { args, raw, scope }: { args: unknown; raw: ServerContext; scope: ServedToolScope },
): Promise<unknown> {
  const context = { ...requestContext(raw), [SERVED_REQUEST]: raw, [SERVED_SCOPE]: scope };
  let result: unknown;
  try {
    result = await prompt.get(args as never, context);
  } catch (error) {
    const round =
      scope.era === "modern" ? await inputRequiredOf(context, { request: raw, error }) : undefined;
    if (round) return round;
    throw error;
  }
  return (scope.era === "modern" && (await inputRequiredOf(context, { request: raw }))) || result;
}

/** The prompt with its `complete` functions attached to copies of its argument schemas (the SDK's `completable`). */
function withCompletions(prompt: MCPServerPrompt): MCPServerPrompt {
  if (!prompt.complete || !prompt.arguments) return prompt;
  const shape = { ...prompt.arguments.shape } as Record<string, z.ZodType>;
  for (const [argument, complete] of Object.entries(prompt.complete)) {
    const field = shape[argument];
    if (!field) {
      throw new JunctionError(
        "invalid-argument",
        `createMCPServer(): prompt "${prompt.name}" completes "${argument}", which is not one of its arguments.`,
      );
    }
    // `completable` marks the schema object once and for good: mark a copy, not the caller's.
    shape[argument] = completable(field.clone(), (value: unknown) => complete(String(value ?? "")));
  }
  return { ...prompt, arguments: z.object(shape) };
}

function checkUnique(kind: string, names: string[]): void {
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) {
      throw new JunctionError(
        kind === "tool" ? "tool-name-collision" : "invalid-argument",
        `createMCPServer(): two ${kind}s are named "${name}"; names must be unique.`,
      );
    }
    seen.add(name);
  }
}

/** A tool declared to run as a task needs the server's `tasks` set. */
function checkTasksSet(options: MCPServerOptions, tool: Tool): void {
  if (options.tasks || declaredTaskSupport(tool) === undefined) return;
  throw new JunctionError(
    "invalid-argument",
    `createMCPServer(): the tool "${tool.name}" is declared to run as a task (withTaskSupport), but the server serves no tasks: set \`tasks\` (\`tasks: {}\` keeps them in memory).`,
  );
}

/**
 * A task store that outlives the process (a `fileTaskStore`, a database: anything but the
 * in-memory store) needs a `stateKey` set: task records are signed with it, and without one each
 * process makes a random key, so after a restart every stored task, a waiting approval included,
 * would be refused as forged.
 */
function checkStateKeyForStore(options: MCPServerOptions): void {
  const store = options.tasks?.store;
  if (store === undefined || store instanceof InMemoryTaskStore || options.stateKey !== undefined) return;
  throw new JunctionError(
    "invalid-argument",
    "createMCPServer(): `tasks.store` keeps tasks beyond this process, but no `stateKey` is set: each process would sign its tasks with a random key, so after a restart every stored task (a waiting approval too) would be refused. " +
      "Set `stateKey` to a secret of 32 bytes or more, the same in every process that serves this store, e.g. `stateKey: process.env.MCP_STATE_KEY` with a value made once by `node -e \"console.log(crypto.randomBytes(32).toString('base64url'))\"`.",
  );
}
