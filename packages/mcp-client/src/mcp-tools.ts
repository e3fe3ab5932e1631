// The tools of one `MCP`: the cached `tools/list` with what each tool's entry tells about calling
// it (its output schema, its task support), the listeners told when the list changes, and
// `tools/call` (plain, with the listed definition on 2026-07-28 over HTTP, or as a task).
import {
  JunctionError,
  type MCPTool,
  type ServerCapabilities,
  type ToolContext,
  type ToolResult,
} from "@junction/types";
import { ProtocolError, type RequestOptions } from "@modelcontextprotocol/client";
import { AnyResultSchema, convertCallToolResult } from "./convert-tool-result.js";
import type { MCPRequestOptions } from "./mcp-connection.js";
import type { Session } from "./mcp-session.js";
import type { MCPWarning } from "./mcp-warning.js";
import type { LazySchemaValidator } from "./output-schema-validator.js";
import { type HintedList, listAllWithHints } from "./paginate.js";
import { createTaskTicket, type TaskTicket } from "./task-ticket.js";
import { ToolCache } from "./tool-cache.js";
import { checkStructuredContent, type OutputValidator, rpcErrorAsResult } from "./tool-proxy.js";
import { runToolTask } from "./tool-task.js";

/** The 2026-07-28 `HeaderMismatch` error: request headers that disagree with the body. */
const HEADER_MISMATCH = -32020;

/**
 * The `_meta` key that carries a tool call's idempotency key to the server: the same for every
 * attempt at one call of a run (a replay after a crash included), so a server can deduplicate.
 */
export const IDEMPOTENCY_KEY_META = "dev.junction/idempotency-key";

/** Options of `MCP.callTool`. */
export interface MCPCallToolOptions extends MCPRequestOptions {
  /** Receives the server's progress notifications for this call. */
  onProgress?: ToolContext["onProgress"];
  /**
   * Sent to the server as `_meta["dev.junction/idempotency-key"]`: an Agent passes its tool
   * context's key (`<runId>:tool:<step>:<callId>`), the same when the call is retried.
   */
  idempotencyKey?: string;
  /**
   * Run the call as a 2025-11-25 task where the server offers task-augmented `tools/call` and the
   * tool allows it (`execution.taskSupport: "optional"`): the call answers with a task at once,
   * it is polled to its end, and what the server asks meanwhile (an approval, an elicitation)
   * comes to this client's handlers while `tasks/result` waits. Tools that require tasks are run
   * as tasks either way; elsewhere the option changes nothing.
   * @default false
   */
  task?: boolean;
}

/** A `tools/call` request's params. */
interface CallParams {
  [key: string]: unknown;
  name: string;
  arguments: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

/** What follows a call that may turn into a task: its ticket, and where its progress goes. */
interface TaskFollowing {
  ticket: TaskTicket;
  onprogress: RequestOptions["onprogress"];
}

interface ToolMetadata {
  tool: MCPTool;
  /**
   * The tool's compiled `outputSchema` check, built at its first result rather than when the list
   * arrives (compiling every schema of a long list costs more than the list itself): `undefined`
   * until then, `null` for a tool without one (or one Ajv cannot compile).
   */
  validate?: OutputValidator | null;
}

/** What {@link MCPTools} needs of the `MCP` it works for. */
export interface ToolsContext {
  serverName(): string;
  /** Whether a session is live (`MCP.connected`). */
  connected(): boolean;
  /** Whether a lost session is being re-opened (`MCP.state` `reconnecting`): requests wait for it. */
  reconnecting(): boolean;
  /** The server's capabilities, once known (`MCP.capabilities`). */
  capabilities(): ServerCapabilities | undefined;
  /** The config's per-request time limit (`timeoutMs`, default 60 s): a task-run call's whole limit. */
  timeoutMs(): number;
  /** The connection's JSON Schema validator (the SDK client's too), for the tools' output schemas. */
  validator: LazySchemaValidator;
  /**
   * The delays between the re-lists of a session that lists no tools after a reconnect (the
   * reconnect backoff's first few), in milliseconds.
   */
  relistDelays(): number[];
  /** Reports a warning (see `MCPCommon.onWarning`). */
  warn(warning: Omit<MCPWarning, "server">): void;
  /** Runs one request on the connection, as `MCP` runs any other. */
  run<T>(
    method: string,
    options: MCPRequestOptions,
    send: (session: Session, requestOptions: RequestOptions) => Promise<T>,
  ): Promise<T>;
}

/** The tools methods of one `MCP` (see `MCP.listTools()`, `MCP.callTool()` and the others). */
export class MCPTools {
  private readonly cache = new ToolCache(
    (tools) => this.rememberMetadata(tools),
    Date.now,
    () => this.notifyListeners(),
  );
  private readonly metadata = new Map<string, ToolMetadata>();
  private readonly changeListeners = new Set<() => void>();
  /**
   * The names of the tools a lost session listed, until the first list of the session after it:
   * that list is compared with them (and listed again while empty).
   */
  private listedBeforeLoss?: Set<string>;

  constructor(private readonly context: ToolsContext) {}

  /** Subscribes to changes of the tool list (see `MCP.onToolsChanged`); returns the unsubscribe. */
  onChanged(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => {
      this.changeListeners.delete(listener);
    };
  }

  /** The server said its tool list changed: drops the cached list and tells the listeners. */
  changed(): void {
    this.invalidate();
    this.notifyListeners();
  }

  /**
   * The session is gone: drops the list, remembering what it held for the next session's list,
   * and what the list told about calling each tool (its output schema, its task support), which
   * describes the lost session's server, not necessarily the one that answers next.
   */
  sessionLost(): void {
    const held = this.cache.held;
    if (held) this.listedBeforeLoss = new Set(held.map((tool) => tool.name));
    this.invalidate();
    this.metadata.clear();
  }

  /** Drops the cached list (a list-changed notice, a lost session, `refreshTools`). */
  invalidate(): void {
    this.cache.invalidate();
  }

  /** Tells every listener the tools may have changed; a throwing listener does not stop the others. */
  notifyListeners(): void {
    for (const listener of this.changeListeners) {
      try {
        listener();
      } catch {
        // A listener's failure is its own.
      }
    }
  }

  /**
   * The tool list, from the {@link ToolCache} while it is fresh. A list whose session was lost
   * under it (a stdio server that died while answering) is sent once more, on the session that
   * replaces it, within the same time limit: `tools/list` changes nothing on the server. Not
   * when the connection does not reconnect by itself (`reconnect: false`).
   */
  async load(options: MCPRequestOptions = {}): Promise<MCPTool[]> {
    // A server without the tools capability has no tools (and may not answer tools/list at all).
    const capabilities = this.context.capabilities();
    if (capabilities && !capabilities.tools && this.context.connected()) return [];
    const deadline = Date.now() + (options.timeoutMs ?? this.context.timeoutMs());
    try {
      return await this.cache.get(() => this.listAndCompare(options));
    } catch (error) {
      if (!isConnectionLost(error) || !(this.context.reconnecting() || this.context.connected())) throw error;
      // Once: a loss on the new session too fails the list. The wait for that session honours the
      // signal and the deadline, and fails naming the server if the reconnect gives up.
      const again = { ...options, timeoutMs: Math.max(1, deadline - Date.now()) };
      return this.cache.get(() => this.listAndCompare(again));
    }
  }

  /** One list for the cache, compared with what a lost session listed (see {@link compareWithLost}). */
  private async listAndCompare(options: MCPRequestOptions): Promise<HintedList<MCPTool>> {
    const before = this.listedBeforeLoss;
    const list = await this.listOnce(options);
    if (!before) return list;
    const compared = await this.compareWithLost(before, list, options);
    // Compared once; a list that failed is compared when it is listed again.
    if (this.listedBeforeLoss === before) this.listedBeforeLoss = undefined;
    return compared;
  }

  /**
   * Lists the tools for a call when no list is held (a held list is always the current session's:
   * each lost session drops it, see {@link sessionLost}). A list that fails leaves the call
   * without hints. Checked by the caller first, so a call with a list held waits for nothing.
   */
  private listForCall(options: MCPRequestOptions): Promise<unknown> {
    return this.load(options).catch(() => undefined);
  }

  private listOnce(options: MCPRequestOptions): Promise<HintedList<MCPTool>> {
    return this.context.run("tools/list", options, (session, requestOptions) =>
      this.fetchList(session, requestOptions),
    );
  }

  /**
   * The first list of a new session, against what the lost one listed: empty where tools were
   * listed before is listed again a few times (a restarted server may list its tools only once it
   * has loaded them), and said if it stays so; a different list is said too.
   */
  private async compareWithLost(
    before: Set<string>,
    first: HintedList<MCPTool>,
    options: MCPRequestOptions,
  ): Promise<HintedList<MCPTool>> {
    let list = first;
    const delays = this.context.relistDelays();
    if (before.size > 0) {
      for (const delay of delays) {
        if (list.items.length > 0) break;
        await new Promise((resolve) => setTimeout(resolve, delay));
        list = await this.listOnce(options);
      }
    }
    const server = this.context.serverName();
    if (before.size > 0 && list.items.length === 0) {
      this.context.warn({
        code: "tools-empty-after-reconnect",
        removed: [...before],
        message: `MCP server "${server}" listed no tools after it reconnected (it listed ${before.size} before), also after listing again ${delays.length} times: its tools are not offered until it lists them (a tools/list_changed notice, or refreshTools()).`,
      });
      return list;
    }
    const now = new Set(list.items.map((tool) => tool.name));
    const added = [...now].filter((name) => !before.has(name));
    const removed = [...before].filter((name) => !now.has(name));
    if (added.length > 0 || removed.length > 0) {
      this.context.warn({
        code: "tools-changed-on-reconnect",
        added,
        removed,
        message: `MCP server "${server}" lists other tools since it reconnected: added ${JSON.stringify(added)}, removed ${JSON.stringify(removed)}.`,
      });
    }
    return list;
  }

  /** Calls a tool by its server-side name (see `MCP.callTool`). */
  async call(name: string, args: Record<string, unknown>, options: MCPCallToolOptions): Promise<ToolResult> {
    // The tool list tells us output schemas and task support; fetch it once if we have not (while
    // reconnecting, from the session the call will go out on). Without the list the call goes ahead
    // without output schemas or task hints, and the call itself reports a dead connection.
    if (!this.cache.held && (this.context.connected() || this.context.reconnecting()))
      await this.listForCall(options);
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
    const params = {
      name,
      arguments: args,
      ...(options.idempotencyKey === undefined
        ? {}
        : { _meta: { [IDEMPOTENCY_KEY_META]: options.idempotencyKey } }),
    };
    const taskSupport = this.metadata.get(name)?.tool.execution?.taskSupport;
    const timeoutMs = options.timeoutMs ?? this.context.timeoutMs();
    const deadline = Date.now() + timeoutMs;
    // Once the server answers with a task, the task (not the session) is what the call waits on.
    const ticket = createTaskTicket();
    try {
      if (
        (taskSupport === "required" || (options.task === true && taskSupport === "optional")) &&
        this.context.capabilities()?.tasks?.requests?.tools?.call
      ) {
        return await this.callAsTask(params, options, { ticket, onprogress });
      }
      return await this.context.run("tools/call", options, async (session, requestOptions) => {
        // A session re-opened under this call (the server forgot the old one) may be a restarted
        // server's: its result is checked against what that server lists.
        if (!this.cache.held)
          await this.listForCall({ timeoutMs: requestOptions.timeout, signal: options.signal });
        return this.settle(name, () =>
          this.send(session, params, { requestOptions: { ...requestOptions, onprogress }, ticket }),
        );
      });
    } catch (error) {
      // A call the server never answered with a task fails: sending it again could run the tool twice.
      if (ticket.taskId === undefined || !isConnectionLost(error)) throw error;
      return this.resumeTask(params, { ...options, timeoutMs, deadline }, { ticket, onprogress });
    }
  }

  /**
   * Follows, on the sessions that replace a lost one, the task a call created: `tasks/get` (and
   * the era's way of answering input) on the new session, never the `tools/call` again. Fails
   * when the restarted server does not know the task, or no session comes back in time.
   */
  private async resumeTask(
    params: CallParams,
    options: MCPCallToolOptions & { timeoutMs: number; deadline: number },
    following: TaskFollowing,
  ): Promise<ToolResult> {
    const { name } = params;
    const { deadline } = options;
    const { ticket, onprogress } = following;
    const taskId = ticket.taskId as string;
    for (;;) {
      const remaining = deadline - Date.now();
      try {
        if (remaining <= 0) {
          throw new JunctionError(
            "mcp-timeout",
            `tools/call of tool "${name}" timed out after ${options.timeoutMs} ms while its connection was being restored`,
          );
        }
        return await this.context.run(
          "tasks/get",
          { timeoutMs: remaining, signal: options.signal },
          (session, requestOptions) =>
            this.settle(
              name,
              () =>
                session.tasks
                  ? session.tasks.resume(ticket as TaskTicket & { taskId: string }, {
                      tool: name,
                      timeoutMs: remaining,
                      signal: options.signal,
                      onprogress: (message, polls) => onprogress?.({ progress: polls, message }),
                    })
                  : runToolTask(session.client, params, {
                      requestOptions,
                      signal: options.signal,
                      timeoutMs: remaining,
                      onprogress,
                      ticket,
                      resume: true,
                      statusSignals: session.client.taskStatus,
                    }),
              options.signal,
            ),
        );
      } catch (error) {
        // Lost again while following: wait for the next session.
        if (isConnectionLost(error)) continue;
        if (JunctionError.isInstance(error) && error.code === "mcp-not-connected") {
          throw new JunctionError(
            "mcp-connection-closed",
            `the connection to MCP server "${this.context.serverName()}" closed while task "${taskId}" of tool "${name}" was running, and it could not be restored (${error.message}); the task may still run on the server`,
            { cause: error },
          );
        }
        throw error;
      }
    }
  }

  private fetchList(session: Session, requestOptions: RequestOptions): Promise<HintedList<MCPTool>> {
    return listAllWithHints(session.client, "tools/list", {
      requestOptions,
      describe: `tools/list from MCP server "${this.context.serverName()}"`,
    });
  }

  private rememberMetadata(tools: MCPTool[]): void {
    this.metadata.clear();
    // A name listed twice (the server's mistake) is the first tool of that name, as for the
    // definition a call sends and the tool an Agent offers.
    for (const tool of tools) if (!this.metadata.has(tool.name)) this.metadata.set(tool.name, { tool });
  }

  /** The compiled `outputSchema` check of a listed tool (see {@link ToolMetadata.validate}). */
  private outputValidator(name: string): OutputValidator | undefined {
    const metadata = this.metadata.get(name);
    if (!metadata) return undefined;
    if (metadata.validate === undefined) {
      metadata.validate = null;
      if (metadata.tool.outputSchema) {
        try {
          metadata.validate = this.context.validator.getValidator(
            metadata.tool.outputSchema as never,
          ) as OutputValidator;
        } catch {
          // An outputSchema Ajv cannot compile: results of this tool go unchecked.
        }
      }
    }
    return metadata.validate ?? undefined;
  }

  /**
   * On 2026-07-28 over Streamable HTTP, through the SDK's `callTool` with the listed definition:
   * the one path that mirrors `x-mcp-header` arguments into `Mcp-Param-*` headers. (Without the
   * `outputSchema`, which we check ourselves, turning a mismatch into an error result.)
   * Elsewhere as a plain request whose result {@link convertCallToolResult} checks leniently.
   */
  private async send(
    session: Session,
    params: CallParams,
    sending: { requestOptions: RequestOptions; ticket: TaskTicket },
  ): Promise<unknown> {
    const { requestOptions, ticket } = sending;
    // The follower sees the call synchronously as the client sends it; a call sent later keeps no ticket.
    session.tasks?.expect(ticket);
    try {
      return this.sendCall(session, params, requestOptions);
    } finally {
      session.tasks?.expect(undefined);
    }
  }

  private async sendCall(
    session: Session,
    params: CallParams,
    requestOptions: RequestOptions,
  ): Promise<unknown> {
    const tool = this.cache.held?.find((candidate) => candidate.name === params.name);
    if (session.kind === "http" && session.client.getProtocolEra() === "modern" && tool) {
      try {
        // Only a tool with `x-mcp-header` parameters needs the SDK's callTool (which also
        // validates the whole result with zod on every call): any other goes as a plain request.
        if (!declaresHeaders(tool)) return await this.plainCall(session, params, requestOptions);
        return await this.callWithDefinition(session, { params, tool }, requestOptions);
      } catch (error) {
        if (!(error instanceof ProtocolError && error.code === HEADER_MISMATCH)) throw error;
        // 2026-07-28: the server's definition of the tool (its `x-mcp-header` parameters) is not
        // the one we listed. Evict the cached list, fetch it again and retry once.
        this.invalidate();
        const tools = await this.cache.fetch(() => this.fetchList(session, requestOptions));
        this.notifyListeners();
        const current = tools.find((candidate) => candidate.name === params.name);
        if (!current) throw error;
        return this.callWithDefinition(session, { params, tool: current }, requestOptions);
      }
    }
    return this.plainCall(session, params, requestOptions);
  }

  private plainCall(session: Session, params: CallParams, requestOptions: RequestOptions): Promise<unknown> {
    return session.client.request({ method: "tools/call", params }, AnyResultSchema, requestOptions);
  }

  private callWithDefinition(
    session: Session,
    call: { params: CallParams; tool: MCPTool },
    requestOptions: RequestOptions,
  ): Promise<unknown> {
    const { params, tool } = call;
    const { outputSchema: _checkedByUs, ...toolDefinition } = tool;
    return session.client.callTool(params, { ...requestOptions, toolDefinition: toolDefinition as never });
  }

  private callAsTask(
    params: CallParams,
    options: MCPCallToolOptions,
    following: TaskFollowing,
  ): Promise<ToolResult> {
    const { name } = params;
    const { ticket, onprogress } = following;
    const timeoutMs = options.timeoutMs ?? this.context.timeoutMs();
    return this.context.run("tools/call", { timeoutMs, signal: options.signal }, (session, requestOptions) =>
      this.settle(
        name,
        () =>
          runToolTask(session.client, params, {
            requestOptions,
            signal: options.signal,
            timeoutMs,
            onprogress,
            ticket,
            statusSignals: session.client.taskStatus,
          }),
        options.signal,
      ),
    );
  }

  /**
   * A call's answer as its `ToolResult`; a JSON-RPC error the server answered as an error result
   * (unless `signal`, when given, was aborted: then the error stays an error).
   */
  private async settle(
    name: string,
    answer: () => Promise<unknown>,
    signal?: AbortSignal,
  ): Promise<ToolResult> {
    try {
      return this.finishResult(name, await answer());
    } catch (error) {
      const result = signal?.aborted ? undefined : rpcErrorAsResult(error, name);
      if (result) return result;
      throw error;
    }
  }

  private finishResult(name: string, raw: unknown): ToolResult {
    const serverName = this.context.serverName();
    const result = convertCallToolResult(raw, serverName);
    return checkStructuredContent(result, this.outputValidator(name), { server: serverName, name });
  }
}

const headerDeclarations = new WeakMap<object, boolean>();

/**
 * Whether a tool's input schema declares `x-mcp-header` anywhere (2026-07-28: arguments mirrored
 * into `Mcp-Param-*` headers). Worked out once per listed tool.
 */
function declaresHeaders(tool: MCPTool): boolean {
  let declares = headerDeclarations.get(tool);
  if (declares === undefined) {
    declares = JSON.stringify(tool.inputSchema ?? {}).includes('"x-mcp-header"');
    headerDeclarations.set(tool, declares);
  }
  return declares;
}

/** The call's session closed under it (the SDK's closed-connection error, as `MCPConnection.run` maps it). */
function isConnectionLost(error: unknown): boolean {
  return JunctionError.isInstance(error) && error.code === "mcp-connection-closed";
}
