import type { PendingToolCall, ResumeDecision } from "@junction/core";
import { createAbortError, errorMessage, isAbortError, JunctionError } from "@junction/types";
import {
  type CallToolResult,
  type ClientCapabilities,
  ProtocolError,
  ProtocolErrorCode,
  RELATED_TASK_META_KEY,
} from "@modelcontextprotocol/server";
import type { AgentRunInput, AgentRunner } from "./agent-run.js";
import { approvalElicitation, approvalKey, decisionOf } from "./approval-input.js";
import { toCallToolResult, toolErrorResult } from "./call-tool-result.js";
import { type DurableAgentRuns, durableTaskRecord } from "./durable-runs.js";
import { checkForwardable, type ForwardedMethod, type PassThroughRelay } from "./pass-through.js";
import { isSignedTaskRecord, signTaskRecord, taskSigningKey } from "./task-signing.js";
import {
  AGENT_TASK_VERSION,
  type AgentTaskRecord,
  InMemoryTaskStore,
  revisionOf,
  type TaskStore,
} from "./task-store.js";
import { type UpstreamRequest, UpstreamRequests } from "./task-upstream.js";
import { isTerminal, type LegacyTaskView, legacyTaskView, type TaskView, taskView } from "./task-views.js";

export type { LegacyTaskView, TaskView } from "./task-views.js";

/** The MCP tasks extension (SEP-2663). */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** How served agent runs become tasks (the tasks extension of 2026-07-28, and 2025-11-25 tasks). */
export interface MCPTaskOptions {
  /** Where tasks are kept. @default an `InMemoryTaskStore` (tasks end with the process) */
  store?: TaskStore;
  /**
   * Agent runs going at once per client (authenticated client id; one pool without
   * authentication); a task call beyond it is refused (-32000) until one ends or waits for input.
   * @default 4
   */
  maxConcurrentRuns?: number;
  /**
   * Tasks not yet ended (working or waiting for input) per client; beyond it a task call is refused.
   * @default 100
   */
  maxOpenTasks?: number;
  /** The poll interval suggested to clients. @default 500 */
  pollIntervalMs?: number;
  /**
   * How long a task is kept after it was created; a 2025-11-25 client's `task.ttl` may ask for
   * less, not more. @default 604800000 (7 days)
   */
  ttlMs?: number;
  /**
   * Runs the agent tools' runs on a durable engine instead of in this process: the task is the
   * engine's run (same id), `tasks/get` reads its status and pending approvals from the engine,
   * `tasks/update` answers through it, and any process with the same store and `stateKey`
   * serves the task. `maxConcurrentRuns` does not apply (the engine runs them).
   */
  runs?: DurableAgentRuns;
}

/** Who started (or resumes) a run, as far as its upstream requests are concerned. */
export interface TaskClient {
  /**
   * `modern`: upstream requests become the task's input requests (answered with `tasks/update`);
   * `legacy`: they wait for a 2025-11-25 `tasks/result` to ask the client.
   */
  era: "legacy" | "modern";
  /** What the client declared it can answer (checked for a 2026-07-28 client when a request comes). */
  capabilities?: ClientCapabilities | undefined;
  /**
   * Tells the client that created the task of each change of its status (2025-11-25
   * `notifications/tasks/status`, the `Task` as `tasks/get` shows it); returns `false` once the
   * client cannot be told any more (its connection closed), and is not called again.
   */
  notify?: ((task: LegacyTaskView) => boolean) | undefined;
}

/** A request a 2025-11-25 `tasks/result` sends its client on the task's behalf; resolves with the answer. */
export type AskClient = (method: ForwardedMethod, params: Record<string, unknown>) => Promise<unknown>;

/**
 * Runs served agents as tasks and keeps them in a `TaskStore`: the run goes on in the background,
 * its progress is the task's status message, and a call that needs a person stops the run; the
 * task then waits (`input_required`) with the run's state in the store and one elicitation per
 * pending call in its `inputRequests`. A `tasks/update` answering every pending call resumes the
 * run, in this process or in the next one (same store and `stateKey`).
 */
export class AgentTasks {
  readonly #store: TaskStore;
  readonly #key: Promise<CryptoKey>;
  readonly #runners: Map<string, AgentRunner>;
  readonly #relay: PassThroughRelay | undefined;
  readonly #runs: DurableAgentRuns | undefined;
  readonly #live = new Map<string, AbortController>();
  readonly #running = new Map<string, number>();
  readonly #maxConcurrentRuns: number;
  readonly #maxOpenTasks: number;
  readonly #pollIntervalMs: number;
  readonly #ttlMs: number;
  /** Writes of one task, in order (progress, status changes). */
  readonly #writes = new Map<string, Promise<void>>();
  /** The upstream requests of the runs going here, by task. */
  readonly #upstream = new Map<string, UpstreamRequests>();
  /** Who is told when a task is stored (a 2025 `tasks/result` waiting for it), by task. */
  readonly #listeners = new Map<string, Set<() => void>>();
  /** Tasks whose approvals a 2025 `tasks/result` is asking its client about now. */
  readonly #asking = new Set<string>();
  /** Who is told of a task's status changes (its creator, on 2025-11-25), and the status told last. */
  readonly #notifiers = new Map<string, { notify: NonNullable<TaskClient["notify"]>; status: string }>();
  /**
   * The answer being taken for a task now, by task: set before the first `await` of `update`, so
   * a second answer arriving meanwhile in this process waits for the first one's outcome instead
   * of resuming the run again.
   */
  readonly #answering = new Map<string, Promise<void>>();
  /** The newest revision of each task this process read or wrote: an older record put back is refused. */
  readonly #seen = new Map<string, number>();

  constructor(
    options: MCPTaskOptions,
    parts: { key: Uint8Array; runners: Map<string, AgentRunner>; relay?: PassThroughRelay | undefined },
  ) {
    this.#store = options.store ?? new InMemoryTaskStore();
    this.#key = taskSigningKey(parts.key);
    this.#runners = parts.runners;
    this.#relay = parts.relay;
    this.#runs = options.runs;
    this.#maxConcurrentRuns = options.maxConcurrentRuns ?? 4;
    this.#maxOpenTasks = options.maxOpenTasks ?? 100;
    this.#pollIntervalMs = options.pollIntervalMs ?? 500;
    this.#ttlMs = options.ttlMs ?? 7 * 24 * 60 * 60_000;
  }

  /** Whether `name` is an agent tool served as a task. */
  serves(name: string): boolean {
    return this.#runners.has(name);
  }

  /** Starts a run as a task (2026-07-28); resolves once the task is stored, with the `CreateTaskResult`. */
  async start(tool: string, args: unknown, owner: string, client?: TaskClient): Promise<TaskView> {
    const record = await this.create({ tool, args, owner, client: client ?? { era: "modern" } });
    return { resultType: "task", ...taskView(record, this.#pollIntervalMs) };
  }

  /**
   * Starts a run as a task; resolves once the task is stored, with its record. `ttlMs` (a
   * 2025-11-25 client's `task.ttl`) may shorten how long it is kept, not lengthen it. Arguments
   * that do not match the tool's schema throw `tool-input-invalid` (naming the field) for a
   * 2026-07-28 client, which then gets the plain call's `isError` result; a 2025-11-25 client
   * asked for a task, and gets one that ended at once with that result (a `failed` task).
   */
  async create(parts: {
    tool: string;
    args: unknown;
    owner: string;
    client: TaskClient;
    ttlMs?: number | undefined;
  }): Promise<AgentTaskRecord> {
    const { tool, args, owner } = parts;
    const runner = this.#runner(tool);
    let input: { request: string } | undefined;
    let invalid: CallToolResult | undefined;
    try {
      input = runner.parse(args);
    } catch (error) {
      if (parts.client.era === "modern" || !isInputInvalid(error)) throw error;
      invalid = toolErrorResult(tool, error);
    }
    if (invalid === undefined && !this.#runs && (this.#running.get(owner) ?? 0) >= this.#maxConcurrentRuns) {
      throw new ProtocolError(
        ProtocolErrorCode.InternalError,
        `Too many agent runs going at once for this client (limit ${this.#maxConcurrentRuns}); wait for one to end, or cancel one.`,
      );
    }
    const open = (await this.#store.list()).filter(
      (record) => record.owner === owner && !isTerminal(record.status),
    ).length;
    if (invalid === undefined && open >= this.#maxOpenTasks) {
      throw new ProtocolError(
        ProtocolErrorCode.InternalError,
        `Too many open tasks for this client (limit ${this.#maxOpenTasks}); answer or cancel some first.`,
      );
    }
    const now = new Date().toISOString();
    const record: AgentTaskRecord = {
      kind: "junction.agent-task",
      version: AGENT_TASK_VERSION,
      revision: 1,
      taskId: globalThis.crypto.randomUUID(),
      tool,
      owner,
      status: "working",
      statusMessage: "Started",
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs:
        parts.ttlMs !== undefined && Number.isFinite(parts.ttlMs) && parts.ttlMs > 0
          ? Math.min(parts.ttlMs, this.#ttlMs)
          : this.#ttlMs,
    };
    if (invalid || !input) {
      // Never run: the task ends as it starts, with the plain call's answer.
      const result = invalid ?? toolErrorResult(tool, undefined);
      const text = result.content[0]?.type === "text" ? result.content[0].text : "Failed";
      const ended: AgentTaskRecord = { ...record, status: "completed", statusMessage: text, result };
      await this.#create(ended);
      return ended;
    }
    if (parts.client.notify) {
      this.#notifiers.set(record.taskId, { notify: parts.client.notify, status: record.status });
    }
    if (this.#runs) record.runId = record.taskId;
    await this.#create(record);
    if (this.#runs) await this.#runs.start({ tool, runId: record.taskId, request: input.request });
    else this.#launch(runner, record, input, parts.client);
    return record;
  }

  /** The task as it is now (a durable run's read from its engine), if it is this client's. */
  async current(taskId: string, owner: string): Promise<AgentTaskRecord> {
    return this.#durable(await this.#load(taskId, owner));
  }

  /** This client's tasks kept now (unexpired, signed with this server's key), oldest first. */
  async list(owner: string): Promise<AgentTaskRecord[]> {
    const records: AgentTaskRecord[] = [];
    for (const record of await this.#store.list()) {
      if (record.owner !== owner || Date.parse(record.createdAt) + record.ttlMs < Date.now()) continue;
      if (await this.#signed(record)) records.push(record);
    }
    return records.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  /** A task as the 2025-11-25 `Task` shows it: a tool result with `isError` is a `failed` task. */
  legacyView(record: AgentTaskRecord): LegacyTaskView {
    return legacyTaskView(record, this.#pollIntervalMs);
  }

  /**
   * 2025-11-25 `tasks/result`: waits until the task ends and gives its `CallToolResult` (with
   * the related-task `_meta`). While it waits, what the task needs of a person goes to this
   * request's client through `ask`: an elicitation per pending approval (the answers filed by
   * the server under the calls it asked about, so a client cannot approve another call), and
   * the upstream requests of the run. A cancelled task, or one whose run failed outside the
   * tool, is a JSON-RPC error.
   */
  async result(taskId: string, owner: string, ask: AskClient, signal: AbortSignal): Promise<CallToolResult> {
    // The pending calls this request answered last: a durable engine may show them pending a while
    // after the answer went in, and they are not asked again.
    let answered: string | undefined;
    for (;;) {
      const record = await this.current(taskId, owner);
      if (record.status === "completed" && record.result) {
        const result = record.result;
        return { ...result, _meta: { ...(result._meta ?? {}), [RELATED_TASK_META_KEY]: { taskId } } };
      }
      if (record.status === "cancelled") {
        throw new ProtocolError(
          ProtocolErrorCode.InvalidRequest,
          `The task "${taskId}" was cancelled before it finished: it has no result.`,
        );
      }
      if (isTerminal(record.status)) {
        throw new ProtocolError(
          record.error?.code ?? ProtocolErrorCode.InternalError,
          record.error?.message ?? `The task "${taskId}" failed.`,
        );
      }
      const upstream = this.#upstream.get(taskId);
      if (upstream) {
        for (const request of upstream.list()) {
          if (!request.asked) this.#askUpstream(upstream, request, { taskId, ask, signal });
        }
      }
      const round = record.pending?.map((item) => approvalKey(item)).join("\n");
      if (
        record.status === "input_required" &&
        record.pending &&
        round !== answered &&
        !this.#asking.has(taskId)
      ) {
        this.#asking.add(taskId);
        try {
          const answers: Record<string, unknown> = {};
          for (const item of record.pending) {
            const params = approvalElicitation(record.tool, item);
            params._meta = { ...params._meta, [RELATED_TASK_META_KEY]: { taskId } };
            answers[approvalKey(item)] = await ask("elicitation/create", params as Record<string, unknown>);
          }
          await this.update(taskId, owner, answers, { era: "legacy" });
          answered = round;
        } finally {
          this.#asking.delete(taskId);
        }
        continue;
      }
      await this.#changed(taskId, signal);
    }
  }

  /** `tasks/get`: the task, its input requests while it waits, its result once done. */
  async get(taskId: string, owner: string): Promise<TaskView> {
    const record = await this.#durable(await this.#load(taskId, owner));
    const view: TaskView = taskView(record, this.#pollIntervalMs);
    if (record.status === "input_required" && record.pending) {
      const inputRequests: Record<string, unknown> = {};
      for (const item of record.pending) {
        inputRequests[approvalKey(item)] = {
          method: "elicitation/create",
          params: approvalElicitation(record.tool, item),
        };
      }
      view.inputRequests = inputRequests;
    }
    const upstream = this.#upstream.get(taskId)?.list() ?? [];
    if (record.status === "input_required" && upstream.length > 0) {
      const inputRequests = (view.inputRequests ?? {}) as Record<string, unknown>;
      for (const request of upstream) {
        inputRequests[request.key] = { method: request.method, params: request.params };
      }
      view.inputRequests = inputRequests;
    }
    if (record.status === "completed" && record.result) view.result = record.result;
    if (record.status === "failed" && record.error) view.error = record.error;
    return view;
  }

  /**
   * `tasks/update`: the answers to the task's input requests. Only answers under the keys of the
   * calls the task waits for count (a client cannot approve a call it was not asked about: the
   * key names the call, and the run checks the decision against the call's tool and arguments
   * in its signed state); others are ignored, as the extension says. Once every pending call has
   * an answer, the run resumes.
   */
  update(
    taskId: string,
    owner: string,
    inputResponses: Record<string, unknown>,
    client: TaskClient = { era: "modern" },
  ): Promise<void> {
    // Answers to the run's upstream requests go back upstream; the run goes on by itself.
    this.#upstream.get(taskId)?.answer(inputResponses);
    // Claimed before the first await: a second answer while this one is taken gets its outcome.
    const taking = this.#answering.get(taskId);
    if (taking) return taking;
    const answer = this.#answer({ taskId, owner, inputResponses, client });
    this.#answering.set(taskId, answer);
    const release = () => {
      if (this.#answering.get(taskId) === answer) this.#answering.delete(taskId);
    };
    answer.then(release, release);
    return answer;
  }

  /**
   * Takes the answers to a waiting task: the decisions for every pending call, or nothing. On a
   * durable engine the engine takes each answer once; here, the task's move from
   * `input_required` to `working` is a conditional write, so of two processes sharing the store
   * exactly one resumes the run.
   */
  async #answer(parts: {
    taskId: string;
    owner: string;
    inputResponses: Record<string, unknown>;
    client: TaskClient;
  }): Promise<void> {
    const { taskId, owner, inputResponses } = parts;
    const record = await this.#durable(await this.#load(taskId, owner));
    if (this.#runs) {
      if (record.status !== "input_required" || !record.pending || !record.runId) return;
      const answers: [PendingToolCall, ResumeDecision][] = [];
      for (const item of record.pending) {
        const key = approvalKey(item);
        const decision = Object.hasOwn(inputResponses, key) ? decisionOf(inputResponses[key]) : undefined;
        if (decision === undefined) return;
        answers.push([item, decision]);
      }
      for (const [item, decision] of answers) await this.#runs.answer(record.runId, item, decision);
      return;
    }
    if (record.status !== "input_required" || !record.state || !record.pending) return;
    const decisions: Record<string, ResumeDecision> = {};
    for (const item of record.pending) {
      const key = approvalKey(item);
      const decision = Object.hasOwn(inputResponses, key) ? decisionOf(inputResponses[key]) : undefined;
      if (decision === undefined) return;
      decisions[item.id] = decision;
    }
    const input: AgentRunInput = { state: record.state, decisions };
    const next: AgentTaskRecord = {
      ...record,
      status: "working",
      statusMessage: "Answered; the run goes on",
      lastUpdatedAt: new Date().toISOString(),
    };
    delete next.state;
    delete next.pending;
    // Another answer (here or in another process sharing the store) took the round first.
    if (!(await this.#save(next, revisionOf(record)))) return;
    this.#launch(this.#runner(record.tool), next, input, parts.client);
  }

  /** `tasks/cancel`: aborts the run (if it runs here) and marks the task cancelled. */
  async cancel(taskId: string, owner: string): Promise<AgentTaskRecord> {
    const record = await this.#load(taskId, owner);
    if (isTerminal(record.status)) return record;
    const cancelled = await this.#change(taskId, (stored) => {
      if (isTerminal(stored.status)) return undefined;
      const next: AgentTaskRecord = {
        ...stored,
        status: "cancelled",
        statusMessage: "Cancelled",
        lastUpdatedAt: new Date().toISOString(),
      };
      delete next.state;
      delete next.pending;
      return next;
    });
    this.#live.get(taskId)?.abort();
    this.#upstream.get(taskId)?.failAll(createAbortError(`The task "${taskId}" was cancelled.`));
    if (this.#runs && record.runId) await this.#runs.cancel(record.runId);
    return cancelled ?? (await this.#load(taskId, owner));
  }

  /** Aborts every run going in this process (their tasks stay as stored). */
  close(): void {
    for (const controller of this.#live.values()) controller.abort();
  }

  /**
   * A durable run's task as the engine has it now (status, pending calls, result); an ended one
   * is kept so, and the engine is not asked again. A task run in this process is as stored.
   */
  async #durable(record: AgentTaskRecord): Promise<AgentTaskRecord> {
    if (!this.#runs || !record.runId || isTerminal(record.status)) return record;
    const { record: next, ended } = durableTaskRecord(record, await this.#runs.status(record.runId));
    // Kept as ended; should another process have stored it meanwhile, its write stands.
    if (ended) await this.#save(next, revisionOf(record));
    return next;
  }

  #runner(tool: string): AgentRunner {
    const runner = this.#runners.get(tool);
    if (!runner) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `No agent tool "${tool}" is served as a task here.`,
      );
    }
    return runner;
  }

  #launch(runner: AgentRunner, record: AgentTaskRecord, input: AgentRunInput, client: TaskClient): void {
    const { taskId, owner } = record;
    const controller = new AbortController();
    this.#live.set(taskId, controller);
    const upstream = new UpstreamRequests();
    this.#upstream.set(taskId, upstream);
    this.#running.set(owner, (this.#running.get(owner) ?? 0) + 1);
    const write = (change: Partial<AgentTaskRecord>) => {
      const previous = this.#writes.get(taskId) ?? Promise.resolve();
      const next = previous.then(async () => {
        // A task cancelled meanwhile stays cancelled.
        await this.#change(taskId, (stored) =>
          stored.status === "cancelled"
            ? undefined
            : { ...stored, ...change, lastUpdatedAt: new Date().toISOString() },
        );
      });
      this.#writes.set(
        taskId,
        // A failed write of a progress report must not stop the run; the next write carries it.
        next.catch(() => undefined),
      );
      return next;
    };
    void (async () => {
      try {
        const run = () =>
          runner.run(input, {
            signal: controller.signal,
            onProgress: (progress) => {
              if (progress.message) void write({ statusMessage: progress.message }).catch(() => undefined);
            },
          });
        // A run in the background has no client request to forward an upstream request through:
        // the request waits in the task (an input request) until the task's client answers it.
        const forward = async (method: ForwardedMethod, params: Record<string, unknown>) => {
          if (client.era === "modern") checkForwardable(client.capabilities, method, runner.name);
          const answered = upstream.add(method, params);
          await write({
            status: "input_required",
            statusMessage: `Waiting for the answer to ${method} from an MCP server the agent uses`,
          });
          try {
            return await answered;
          } finally {
            if (upstream.size === 0 && !controller.signal.aborted) {
              // The next write (progress, the end) carries the status too: the run must not stop for it.
              await write({ status: "working", statusMessage: "Answered; the run goes on" }).catch(
                () => undefined,
              );
            }
          }
        };
        const outcome = this.#relay
          ? await this.#relay.run({ tool: runner.name, forward }, run)
          : await run();
        if (outcome.kind === "answer") {
          await write({
            status: "completed",
            statusMessage: "Done",
            result: toCallToolResult(outcome.result),
          });
        } else {
          const names = [...new Set(outcome.pending.map((call) => `"${call.name}"`))].join(", ");
          await write({
            status: "input_required",
            statusMessage: `Waiting for a person to approve the call to ${names}`,
            runId: outcome.state.runId,
            state: outcome.state,
            pending: outcome.pending,
          });
        }
      } catch (error) {
        if (controller.signal.aborted || isAbortError(error)) return;
        await write({
          status: "completed",
          statusMessage: `Failed: ${errorMessage(error)}`,
          result: toolErrorResult(record.tool, error),
        }).catch(() => undefined);
      } finally {
        this.#live.delete(taskId);
        if (this.#upstream.get(taskId) === upstream) this.#upstream.delete(taskId);
        upstream.failAll(createAbortError(`The run of the task "${taskId}" ended.`));
        this.#running.set(owner, Math.max(0, (this.#running.get(owner) ?? 1) - 1));
      }
    })();
  }

  /** The task, if it exists, is this client's, is unexpired and its signature holds; else -32602. */
  async #load(taskId: string, owner: string): Promise<AgentTaskRecord> {
    // What this server had seen before this read: a write finishing during the read is newer, not a put-back.
    const seen = this.#seen.get(taskId) ?? 0;
    const record = await this.#store.get(taskId);
    const unknown = () => new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown task "${taskId}".`);
    if (!record || record.owner !== owner) throw unknown();
    if (Date.parse(record.createdAt) + record.ttlMs < Date.now()) {
      await this.#store.delete(taskId);
      throw unknown();
    }
    if (!(await this.#signed(record))) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `The stored task "${taskId}" is not signed with this server's stateKey (changed, or stored by a server with another key); it is refused.`,
      );
    }
    if (revisionOf(record) < seen) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `The stored task "${taskId}" is at revision ${revisionOf(record)}, older than revision ${seen} this server has seen: an older record was put back in the store, and it is refused.`,
      );
    }
    this.#seen.set(taskId, Math.max(this.#seen.get(taskId) ?? 0, revisionOf(record)));
    return record;
  }

  /** Whether the record's signature holds with this server's key. */
  async #signed(record: AgentTaskRecord): Promise<boolean> {
    return isSignedTaskRecord(await this.#key, record);
  }

  /** Stores a new task (revision 1). */
  async #create(record: AgentTaskRecord): Promise<void> {
    if (!(await this.#save(record, null))) {
      throw new ProtocolError(ProtocolErrorCode.InternalError, `The task id "${record.taskId}" is taken.`);
    }
  }

  /**
   * Stores `record` as the next revision over `expectedRevision`, signed; `false` when another
   * writer stored the task first (nothing is stored then).
   */
  async #save(record: AgentTaskRecord, expectedRevision: number | null): Promise<boolean> {
    const next = { ...record, revision: (expectedRevision ?? 0) + 1 };
    const stored = await this.#store.put(await signTaskRecord(await this.#key, next), expectedRevision);
    if (typeof stored !== "boolean") {
      throw new JunctionError(
        "invalid-argument",
        "tasks.store: `put(record, expectedRevision)` must resolve true (stored) or false (another writer was first): every write of a task is conditional, so that an answer counts once. Update the store to the TaskStore interface of this version.",
      );
    }
    if (!stored) return false;
    this.#seen.set(record.taskId, Math.max(this.#seen.get(record.taskId) ?? 0, next.revision));
    for (const listener of [...(this.#listeners.get(record.taskId) ?? [])]) listener();
    this.#tell(next);
    return true;
  }

  /**
   * Changes the stored task with `change` (which returns the next record, or `undefined` for no
   * change), read and written again until no other writer came in between. Resolves with what
   * was stored (`undefined`: nothing, or the task is gone).
   */
  async #change(
    taskId: string,
    change: (stored: AgentTaskRecord) => AgentTaskRecord | undefined,
  ): Promise<AgentTaskRecord | undefined> {
    for (let attempt = 0; attempt < 50; attempt++) {
      const stored = await this.#store.get(taskId);
      if (!stored || !(await this.#signed(stored))) return undefined;
      const next = change(stored);
      if (!next) return undefined;
      if (await this.#save(next, revisionOf(stored))) return { ...next, revision: revisionOf(stored) + 1 };
    }
    throw new JunctionError(
      "task-store-busy",
      `The task "${taskId}" was changed by other writers 50 times while this server tried to store its change; try again.`,
    );
  }

  /** Tells the task's creator (if it asked to be told) when its status changed; forgets it once ended. */
  #tell(record: AgentTaskRecord): void {
    const notifier = this.#notifiers.get(record.taskId);
    if (!notifier) return;
    const view = this.legacyView(record);
    if (view.status === notifier.status) return;
    notifier.status = view.status;
    const reachable = notifier.notify(view);
    if (!reachable || isTerminal(view.status)) this.#notifiers.delete(record.taskId);
  }

  /**
   * Resolves when the task is stored again here, or after the poll interval (another process, or
   * a durable engine, may have moved it); rejects when `signal` aborts.
   */
  #changed(taskId: string, signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const listeners = this.#listeners.get(taskId) ?? new Set<() => void>();
      this.#listeners.set(taskId, listeners);
      const done = () => {
        clearTimeout(timer);
        listeners.delete(changed);
        if (listeners.size === 0 && this.#listeners.get(taskId) === listeners) this.#listeners.delete(taskId);
        signal.removeEventListener("abort", aborted);
      };
      const changed = () => {
        done();
        resolve();
      };
      const aborted = () => {
        done();
        reject(signal.reason);
      };
      const timer = setTimeout(changed, this.#pollIntervalMs);
      listeners.add(changed);
      if (signal.aborted) aborted();
      else signal.addEventListener("abort", aborted, { once: true });
    });
  }

  /** Asks a 2025 client an upstream request of the task's run, and hands the answer upstream. */
  #askUpstream(
    upstream: UpstreamRequests,
    request: UpstreamRequest,
    asker: { taskId: string; ask: AskClient; signal: AbortSignal },
  ): void {
    request.asked = true;
    const meta = (request.params._meta as Record<string, unknown> | undefined) ?? {};
    const params = {
      ...request.params,
      _meta: { ...meta, [RELATED_TASK_META_KEY]: { taskId: asker.taskId } },
    };
    asker.ask(request.method, params).then(
      (answer) => upstream.answer({ [request.key]: answer }),
      (error: unknown) => {
        // A tasks/result that went away leaves the request to the next one; a client that cannot
        // answer it fails it, and the upstream server gets the error.
        if (asker.signal.aborted) upstream.release(request.key);
        else upstream.fail(request.key, error);
      },
    );
  }
}

/** Whether `error` is a call's arguments not matching the tool's schema (`tool-input-invalid`). */
function isInputInvalid(error: unknown): boolean {
  return JunctionError.isInstance(error) && error.code === "tool-input-invalid";
}
