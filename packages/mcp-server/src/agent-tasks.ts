import type { PendingToolCall, ResumeDecision } from "@junction/core";
import { JunctionError } from "@junction/types";
import { type CallToolResult, ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { approvalElicitation, approvalKey, decisionOf } from "./approval-input.js";
import { toolErrorResult } from "./call-tool-result.js";
import { type DurableAgentRuns, durableTaskRecord } from "./durable-runs.js";
import { InProcessAgentRuns, isRunRecord, type RunSlot } from "./in-process-runs.js";
import type { PassThroughRelay } from "./pass-through.js";
import type { InputAnswer } from "./served-context.js";
import { SignedTaskRecords } from "./signed-task-records.js";
import type { MCPTaskOptions, PendingTaskApproval, TaskClient } from "./task-options.js";
import type { TaskRunInput, TaskRunner } from "./task-runner.js";
import { AGENT_TASK_VERSION, type AgentTaskRecord, InMemoryTaskStore, revisionOf } from "./task-store.js";
import type { TaskSupport } from "./task-support.js";
import type { UpstreamRequests } from "./task-upstream.js";
import { isTerminal, type LegacyTaskView, legacyTaskView, type TaskView, taskView } from "./task-views.js";

export type { AskClient, MCPTaskOptions, PendingTaskApproval, TaskClient } from "./task-options.js";
export { TASKS_EXTENSION } from "./task-options.js";
export type { LegacyTaskView, TaskView } from "./task-views.js";

/**
 * Runs served tools as tasks, agents and plain tools alike, and keeps them in a `TaskStore`, one
 * way whatever runs them: the task is a run of a `DurableAgentRuns` (a DBOS or Restate engine's
 * for agent tools with `tasks.runs`, else `InProcessAgentRuns`, this process's own), its status,
 * pending approvals, input requests and result are the run's, and its answers go to the run. The task record keeps what the run does not: who owns it, which tool, how long it is
 * kept, and, once it ended, how it ended. A call that needs a person stops the run; the task then
 * waits (`input_required`) with one elicitation per pending call in its `inputRequests`, and a
 * `tasks/update` answering every pending call resumes it, in this process or in the next one
 * (same store and `stateKey`).
 */
export class AgentTasks {
  readonly #records: SignedTaskRecords;
  readonly #runners: Map<string, TaskRunner>;
  readonly #support: Map<string, TaskSupport>;
  /** The durable engine that runs the agent tools' runs (`tasks.runs`), if any. */
  readonly #engine: DurableAgentRuns | undefined;
  /** The runs of this process: plain tools', and agents' when no engine runs them. */
  readonly #local: InProcessAgentRuns;
  readonly #maxOpenTasks: number;
  readonly #pollIntervalMs: number;
  readonly #ttlMs: number;
  /** Who is told when a task is stored (a 2025 `tasks/result` waiting for it), by task. */
  readonly #listeners = new Map<string, Set<() => void>>();
  /** Tasks whose approvals a 2025 `tasks/result` is asking its client about now. */
  readonly asking = new Set<string>();
  /** Who is told of a task's status changes (its creator, on 2025-11-25), and the task as told last. */
  readonly #notifiers = new Map<
    string,
    { notify: NonNullable<TaskClient["notify"]>; status: string; task: AgentTaskRecord }
  >();
  /** The client that created each task here: what its run's upstream requests are checked against. */
  readonly #clients = new Map<string, TaskClient>();
  /**
   * The answer being taken for a task now, by task: set in the step of `update` that checked the
   * task is its client's (no `await` in between), so a second answer arriving meanwhile in this process waits for the first one's outcome instead
   * of answering the run again.
   */
  readonly #answering = new Map<string, Promise<void>>();
  /** The tasks being created in this process now (checked, not yet stored), by owner. */
  readonly #opening = new Map<string, Set<string>>();
  /** Whether approvals are answered by the operator, never by a client. */
  readonly #operator: boolean;

  constructor(
    options: MCPTaskOptions,
    parts: {
      key: Uint8Array;
      runners: Map<string, TaskRunner>;
      /** Each served tool's task support (tools not listed: `"forbidden"`). */
      support: Map<string, TaskSupport>;
      relay?: PassThroughRelay | undefined;
    },
  ) {
    this.#records = new SignedTaskRecords({
      store: options.store ?? new InMemoryTaskStore(),
      key: parts.key,
      onStored: (record) => this.#stored(record),
    });
    this.#runners = parts.runners;
    this.#support = parts.support;
    this.#maxOpenTasks = options.maxOpenTasks ?? 100;
    this.#pollIntervalMs = options.pollIntervalMs ?? 500;
    this.#ttlMs = options.ttlMs ?? 7 * 24 * 60 * 60_000;
    this.#operator = options.approver === "operator";
    this.#engine = options.runs;
    this.#local = new InProcessAgentRuns({
      records: this.#records,
      runners: parts.runners,
      relay: parts.relay,
      maxConcurrentRuns: options.maxConcurrentRuns ?? 4,
      ttlMs: this.#ttlMs,
      clientOf: (runId) => this.#clients.get(runId),
    });
  }

  /** Whether the server's operator answers approvals (`approver: "operator"`): no client is asked. */
  get operatorApproves(): boolean {
    return this.#operator;
  }

  /** Whether `name` is a tool that may run as a task (its task support is `required` or `optional`). */
  serves(name: string): boolean {
    return this.taskSupport(name) !== "forbidden";
  }

  /** The task support of the served tool `name` (`"forbidden"` for a tool that is not served as a task). */
  taskSupport(name: string): TaskSupport {
    return (this.#runners.has(name) ? this.#support.get(name) : undefined) ?? "forbidden";
  }

  /** Starts a run as a task (2026-07-28); resolves once the task is stored, with the `CreateTaskResult`. */
  async start(
    call: { tool: string; args: unknown; owner: string; answers?: InputAnswer[] | undefined },
    client?: TaskClient,
  ): Promise<TaskView> {
    const record = await this.create({ ...call, client: client ?? { invalidInput: "refuse" } });
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
    /** A tool's answers gathered before its task (`startTask()`), for its first questions. */
    answers?: InputAnswer[] | undefined;
  }): Promise<AgentTaskRecord> {
    const { tool, args, owner } = parts;
    const runner = this.#runner(tool);
    const runs = this.#runsFor(tool);
    let input: TaskRunInput | undefined;
    let invalid: CallToolResult | undefined;
    try {
      input = runner.parse(args);
      if ("args" in input && parts.answers?.length) input = { ...input, answers: parts.answers };
    } catch (error) {
      if (parts.client.invalidInput === "refuse" || !isInputInvalid(error)) throw error;
      invalid = toolErrorResult(tool, error);
    }
    const slot = invalid === undefined && runs === this.#local ? this.#local.admit(owner) : undefined;
    const taskId = globalThis.crypto.randomUUID();
    // Counted as open from here, before any await: tasks created at once count against the limit.
    const opening = this.#opening.get(owner) ?? new Set<string>();
    if (invalid === undefined) this.#opening.set(owner, opening.add(taskId));
    try {
      return await this.#createTask({ ...parts, taskId, runs, input, invalid, slot });
    } finally {
      // Taken over by the run once launched; given back when the task is refused or never runs.
      slot?.release();
      opening.delete(taskId);
      if (opening.size === 0 && this.#opening.get(owner) === opening) this.#opening.delete(owner);
    }
  }

  async #createTask(parts: {
    taskId: string;
    tool: string;
    owner: string;
    client: TaskClient;
    ttlMs?: number | undefined;
    runs: DurableAgentRuns;
    input: TaskRunInput | undefined;
    invalid: CallToolResult | undefined;
    slot: RunSlot | undefined;
  }): Promise<AgentTaskRecord> {
    const { taskId, tool, owner, runs, input, invalid } = parts;
    // The owner's open tasks stored, and those being created in this process now (this one aside).
    const open = new Set(this.#opening.get(owner));
    open.delete(taskId);
    for (const record of await this.#records.list()) {
      if (record.owner === owner && !isTerminal(record.status)) open.add(record.taskId);
    }
    if (invalid === undefined && open.size >= this.#maxOpenTasks) {
      throw new ProtocolError(
        ProtocolErrorCode.InternalError,
        `Too many open tasks for this client (limit ${this.#maxOpenTasks}); answer or cancel some first.`,
      );
    }
    const now = new Date().toISOString();
    const record: AgentTaskRecord = {
      kind: "junction.agent-task",
      version: AGENT_TASK_VERSION,
      taskId,
      runId: taskId,
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
      return this.#records.create({ ...record, status: "completed", statusMessage: text, result });
    }
    this.#clients.set(taskId, parts.client);
    if (parts.client.notify) {
      this.#notifiers.set(taskId, { notify: parts.client.notify, status: record.status, task: record });
    }
    const stored = await this.#records.create(record);
    if (runs === this.#local)
      await this.#local.launch({ tool, runId: taskId, input, owner, slot: parts.slot });
    else if ("request" in input) await runs.start({ tool, runId: taskId, request: input.request, owner });
    return stored;
  }

  /** The task as it is now (its run's status, pending approvals and result), if it is this client's. */
  async current(taskId: string, owner: string): Promise<AgentTaskRecord> {
    return this.#withRun(await this.#load(taskId, owner));
  }

  /** This client's tasks kept now (unexpired, signed with this server's key), oldest first. */
  async list(owner: string): Promise<AgentTaskRecord[]> {
    const records: AgentTaskRecord[] = [];
    for (const record of await this.#records.list()) {
      if (record.owner !== owner || Date.parse(record.createdAt) + record.ttlMs < Date.now()) continue;
      records.push(await this.#withRun(record));
    }
    return records.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  /** A task as the 2025-11-25 `Task` shows it: a tool result with `isError` is a `failed` task. */
  legacyView(record: AgentTaskRecord): LegacyTaskView {
    return legacyTaskView(record, this.#pollIntervalMs);
  }

  /** `tasks/get`: the task, its input requests while it waits, its result once done. */
  async get(taskId: string, owner: string): Promise<TaskView> {
    const record = await this.current(taskId, owner);
    const view: TaskView = taskView(record, this.#pollIntervalMs);
    if (record.status === "input_required") {
      const inputRequests: Record<string, unknown> = {};
      for (const item of this.#operator ? [] : (record.pending ?? [])) {
        inputRequests[approvalKey(item)] = {
          method: "elicitation/create",
          params: approvalElicitation(record.tool, item),
        };
      }
      for (const request of this.upstreamOf(record)?.list() ?? []) {
        inputRequests[request.key] = { method: request.method, params: request.params };
      }
      if (Object.keys(inputRequests).length > 0) view.inputRequests = inputRequests;
    }
    if (record.status === "completed" && record.result) view.result = record.result;
    if (record.status === "failed" && record.error) view.error = record.error;
    return view;
  }

  /**
   * `tasks/update`: the answers to the task's input requests. Only answers under the keys of the
   * calls the task waits for count (a client cannot approve a call it was not asked about: the
   * key names the call, and the run checks the decision against the call's tool and arguments);
   * others are ignored, as the extension says. An update that answers every pending call hands
   * each answer to the run, which takes the first answer to each call once: eight updates sent at
   * once resume the run once. An update that would resume a run beyond the client's
   * `maxConcurrentRuns` is refused (-32603, naming the limit) with none of its answers taken.
   */
  async update(taskId: string, owner: string, inputResponses: Record<string, unknown>): Promise<void> {
    // Only the task's own client answers anything of it: checked before an answer is handed on.
    await this.#load(taskId, owner);
    // From here on nothing awaits until the answer is claimed, so what follows is one step.
    // Answers to the run's upstream requests go back upstream; the run goes on by itself.
    // Taken from the waiting requests at once: a concurrent update finds none to answer.
    this.#local.upstream(taskId)?.answer(inputResponses);
    // With an operator approving, what a client answers to an approval counts for nothing.
    if (this.#operator) return;
    // Claimed at once: a second answer while this one is taken gets its outcome.
    const taking = this.#answering.get(taskId);
    if (taking) return taking;
    const answer = this.#answer({ taskId, owner, inputResponses });
    this.#answering.set(taskId, answer);
    const release = () => {
      if (this.#answering.get(taskId) === answer) this.#answering.delete(taskId);
    };
    answer.then(release, release);
    return answer;
  }

  async #answer(parts: {
    taskId: string;
    owner: string;
    inputResponses: Record<string, unknown>;
  }): Promise<void> {
    const { inputResponses } = parts;
    const record = await this.current(parts.taskId, parts.owner);
    if (record.status !== "input_required" || !record.pending?.length || !record.runId) return;
    const answers: [PendingToolCall, ResumeDecision][] = [];
    for (const item of record.pending) {
      const key = approvalKey(item);
      const decision = Object.hasOwn(inputResponses, key) ? decisionOf(inputResponses[key]) : undefined;
      if (decision === undefined) return;
      answers.push([item, decision]);
    }
    // All at once: an engine may take a step's answers only when every call of it has one.
    const runId = record.runId;
    const runs = this.#runsFor(record.tool);
    if (runs !== this.#local) {
      await Promise.all(answers.map(([item, decision]) => runs.answer(runId, item, decision)));
      return;
    }
    // The run these answers resume takes one of the client's run slots, as a new run does: taken
    // at once (no await since the task was read), so answers to several tasks sent at once count
    // against the limit too. Beyond it, nothing is answered: the task still waits, and the same
    // answer may be sent again.
    const slot = this.#local.admit(parts.owner, "resume");
    try {
      await Promise.all(
        answers.map(([item, decision]) => this.#local.answerWithSlot({ runId, item, decision, slot })),
      );
    } finally {
      // Taken over by the resumed run; given back when these answers resumed nothing.
      slot.release();
    }
  }

  /** `tasks/cancel`: cancels the run and marks the task cancelled. */
  async cancel(taskId: string, owner: string): Promise<AgentTaskRecord> {
    const record = await this.current(taskId, owner);
    if (isTerminal(record.status)) return record;
    const cancelled = await this.#records.change(taskId, (stored) => {
      if (isTerminal(stored.status)) return undefined;
      return {
        ...stored,
        status: "cancelled",
        statusMessage: "Cancelled",
        lastUpdatedAt: new Date().toISOString(),
      };
    });
    if (record.runId) await this.#runsFor(record.tool).cancel(record.runId);
    return cancelled ?? (await this.current(taskId, owner));
  }

  /** The calls every task's run waits for a person about, for the operator (any owner's tasks). */
  async pendingApprovals(): Promise<PendingTaskApproval[]> {
    const waiting: PendingTaskApproval[] = [];
    for (const stored of await this.#records.list()) {
      if (isRunRecord(stored) || isTerminal(stored.status)) continue;
      if (Date.parse(stored.createdAt) + stored.ttlMs < Date.now()) continue;
      const record = await this.#withRun(stored);
      if (record.status !== "input_required") continue;
      for (const item of record.pending ?? [])
        waiting.push({ taskId: record.taskId, tool: record.tool, item });
    }
    return waiting.sort((a, b) => a.taskId.localeCompare(b.taskId));
  }

  /**
   * The operator's answer to a listed call: it counts when the task's run still waits for that
   * call with the same tool and arguments (the first answer to a call counts; later ones change
   * nothing). Resolves whether the call was waiting.
   */
  async answerApproval(answer: {
    taskId: string;
    item: PendingToolCall;
    decision: ResumeDecision;
  }): Promise<boolean> {
    const stored = await this.#records.read(answer.taskId);
    if (!stored || isRunRecord(stored)) return false;
    const record = await this.#withRun(stored);
    const waiting = record.pending?.find((call) => call.id === answer.item.id);
    if (record.status !== "input_required" || !waiting || !record.runId) return false;
    if (
      waiting.argumentsDigest !== answer.item.argumentsDigest ||
      waiting.toolDigest !== answer.item.toolDigest
    ) {
      return false;
    }
    await this.#runsFor(record.tool).answer(record.runId, waiting, answer.decision);
    return true;
  }

  /** Aborts every run going in this process (their tasks stay as stored). */
  close(): void {
    this.#local.close();
  }

  /**
   * The task with its run as the runs have it now (status, pending calls, result); an ended
   * one is kept so, and the run is not asked again.
   */
  async #withRun(stored: AgentTaskRecord): Promise<AgentTaskRecord> {
    const record = await this.#migrated(stored);
    if (!record.runId || isTerminal(record.status)) return record;
    const status = await this.#runsFor(record.tool).status(record.runId);
    const { record: next, ended } = durableTaskRecord(record, status);
    if (this.#operator && next.status === "input_required" && next.pending?.length) {
      const names = [...new Set(next.pending.map((call) => `"${call.name}"`))].join(", ");
      next.statusMessage = `Waiting for the server's operator to approve the call to ${names}`;
    }
    if (!ended) return next;
    // Kept as ended (should another process have stored it meanwhile, its write stands); an
    // in-process run's own record is then not needed any more.
    const kept = await this.#records.write(next, revisionOf(record));
    if (kept && this.#runsFor(record.tool) === this.#local) await this.#local.forget(record.runId);
    return kept ?? next;
  }

  /**
   * A task an earlier version stored with its run inside (`state` and `pending` in the task
   * record, run in a server's own process): its run moves to a run record, so it is answered as
   * every task is. Other tasks are as they are.
   */
  async #migrated(record: AgentTaskRecord): Promise<AgentTaskRecord> {
    if (this.#engine || !record.state || !record.pending || record.status !== "input_required") return record;
    const { state, pending } = record;
    await this.#local.adopt({ runId: record.taskId, tool: record.tool, state, pending, ttlMs: record.ttlMs });
    const moved = await this.#records.change(record.taskId, (stored) => {
      if (!stored.state) return undefined;
      const next: AgentTaskRecord = { ...stored, runId: stored.taskId };
      delete next.state;
      delete next.pending;
      return next;
    });
    return moved ?? (await this.#records.read(record.taskId)) ?? record;
  }

  /** The upstream requests of a task's run going in this process, waiting for its client. */
  upstreamOf(record: AgentTaskRecord): UpstreamRequests | undefined {
    return record.runId === undefined ? undefined : this.#local.upstream(record.runId);
  }

  #runner(tool: string): TaskRunner {
    const runner = this.#runners.get(tool);
    if (!runner) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `No tool "${tool}" is served as a task here.`);
    }
    return runner;
  }

  /** What runs `tool`'s tasks: the durable engine for an agent tool when one is set, else this process. */
  #runsFor(tool: string): DurableAgentRuns {
    return this.#engine && this.#runners.get(tool)?.kind === "agent" ? this.#engine : this.#local;
  }

  /** The task, if it exists, is this client's, is unexpired and its signature holds; else -32602. */
  async #load(taskId: string, owner: string): Promise<AgentTaskRecord> {
    const record = await this.#records.read(taskId);
    const unknown = () => new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown task "${taskId}".`);
    if (!record || record.owner !== owner || isRunRecord(record)) throw unknown();
    if (Date.parse(record.createdAt) + record.ttlMs < Date.now()) {
      await this.#records.delete(taskId);
      if (record.runId) await this.#local.forget(record.runId);
      throw unknown();
    }
    return record;
  }

  /** A task or its run was stored: whoever waits for the task is told, and its creator of a new status. */
  #stored(record: AgentTaskRecord): void {
    const taskId = isRunRecord(record) ? record.runId : record.taskId;
    if (taskId === undefined) return;
    for (const listener of [...(this.#listeners.get(taskId) ?? [])]) listener();
    if (isTerminal(record.status)) this.#clients.delete(taskId);
    const notifier = this.#notifiers.get(taskId);
    if (!notifier) return;
    // The task as its creator sees it: the run's status over the task's own fields.
    const task = isRunRecord(record)
      ? {
          ...notifier.task,
          status: record.status,
          lastUpdatedAt: record.lastUpdatedAt,
          ...message(record),
          ...outcome(record),
        }
      : record;
    if (!isRunRecord(record)) notifier.task = record;
    this.#tell(taskId, task);
  }

  /** Tells the task's creator (if it asked to be told) when its status changed; forgets it once ended. */
  #tell(taskId: string, record: AgentTaskRecord): void {
    const notifier = this.#notifiers.get(taskId);
    if (!notifier) return;
    const view = this.legacyView(record);
    if (view.status === notifier.status) return;
    notifier.status = view.status;
    const reachable = notifier.notify(view);
    if (!reachable || isTerminal(view.status)) this.#notifiers.delete(taskId);
  }

  /**
   * Resolves when the task is stored again here, or after the poll interval (another process, or
   * a durable engine, may have moved it), or with `slotOf` when one of that owner's run slots is
   * given back here; rejects when `signal` aborts.
   */
  changed(taskId: string, signal: AbortSignal, options: { slotOf?: string } = {}): Promise<void> {
    return new Promise((resolve, reject) => {
      const listeners = this.#listeners.get(taskId) ?? new Set<() => void>();
      this.#listeners.set(taskId, listeners);
      const stopWaitingForSlot =
        options.slotOf === undefined ? undefined : this.#local.onSlotFreed(options.slotOf, () => changed());
      const done = () => {
        clearTimeout(timer);
        stopWaitingForSlot?.();
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
}

/** Whether `error` is a call's arguments not matching the tool's schema (`tool-input-invalid`). */
function isInputInvalid(error: unknown): boolean {
  return JunctionError.isInstance(error) && error.code === "tool-input-invalid";
}

/** A run record's status message, as a task shows it. */
function message(record: AgentTaskRecord): Pick<AgentTaskRecord, "statusMessage"> {
  return record.statusMessage === undefined ? {} : { statusMessage: record.statusMessage };
}

/** A run record's result, as a task shows it. */
function outcome(record: AgentTaskRecord): Pick<AgentTaskRecord, "result"> {
  return record.result === undefined ? {} : { result: record.result };
}
