import type { PendingToolCall, ResumeDecision } from "@junction/core";
import { createAbortError, errorMessage, isAbortError, type ToolResult } from "@junction/types";
import { type CallToolResult, ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import type { AgentRunInput } from "./agent-run.js";
import { toCallToolResult, toolErrorResult } from "./call-tool-result.js";
import type { DurableAgentRuns, TaskRunStatus } from "./durable-runs.js";
import type { ForwardedMethod, PassThroughRelay, TaskQuestionMethod } from "./pass-through.js";
import type { SignedTaskRecords } from "./signed-task-records.js";
import type { TaskClient } from "./task-options.js";
import type { TaskRunInput, TaskRunner } from "./task-runner.js";
import { AGENT_TASK_VERSION, type AgentTaskRecord } from "./task-store.js";
import { UpstreamRequests } from "./task-upstream.js";
import { isTerminal } from "./task-views.js";

// Served agent runs in this process, as one more `DurableAgentRuns`: the task layer drives them
// exactly as it drives a DBOS or Restate run. A plain tool's task runs here too, the same way
// (one leg, its questions waiting as the run's input requests). A run's record (`run-<runId>` in the task store,
// owned by no client) holds its status, and while it waits for a person its stopped `RunState`,
// the pending calls and the answers given so far; any process sharing the store and `stateKey`
// can take the last answer and resume the run. The move from waiting to running is a conditional
// write, so exactly one answer resumes it.

/** A run record's owner: no client's id, so run records are nobody's tasks. */
const RUN_OWNER = "\u0000junction.in-process-run";

/** The id of a run's record in the task store. */
export function runRecordId(runId: string): string {
  return `run-${runId}`;
}

/** Whether a stored record is a run record (not a task). */
export function isRunRecord(record: Pick<AgentTaskRecord, "owner">): boolean {
  return record.owner === RUN_OWNER;
}

/** Runs served agents' runs in this process; see the module comment. */
export class InProcessAgentRuns implements DurableAgentRuns {
  readonly #records: SignedTaskRecords;
  readonly #runners: Map<string, TaskRunner>;
  readonly #relay: PassThroughRelay | undefined;
  readonly #maxConcurrentRuns: number;
  readonly #ttlMs: number;
  readonly #clientOf: (runId: string) => TaskClient | undefined;
  readonly #live = new Map<string, AbortController>();
  /** Runs going here per owner (who started them). */
  readonly #running = new Map<string, number>();
  readonly #ownerOf = new Map<string, string>();
  /** Who waits for one of an owner's run slots to be given back (`onSlotFreed`). */
  readonly #slotWaiters = new Map<string, Set<() => void>>();
  /** Writes of one run, in order (progress, status changes). */
  readonly #writes = new Map<string, Promise<void>>();
  /** The upstream requests of the runs going here, by run. */
  readonly #upstream = new Map<string, UpstreamRequests>();

  constructor(parts: {
    records: SignedTaskRecords;
    runners: Map<string, TaskRunner>;
    relay: PassThroughRelay | undefined;
    maxConcurrentRuns: number;
    ttlMs: number;
    clientOf: (runId: string) => TaskClient | undefined;
  }) {
    this.#records = parts.records;
    this.#runners = parts.runners;
    this.#relay = parts.relay;
    this.#maxConcurrentRuns = parts.maxConcurrentRuns;
    this.#ttlMs = parts.ttlMs;
    this.#clientOf = parts.clientOf;
  }

  /**
   * Takes one of `owner`'s run slots at once, and refuses a run beyond `maxConcurrentRuns` going
   * here: taken before any `await`, so calls (or answers) sent at once count against the limit
   * too. The run launched (or resumed) with the slot takes it over; `release()` gives back one
   * that launched nothing. `leg` says what is refused: a new run (`"start"`), or the answer that
   * would resume a waiting one (`"resume"`), which is then not taken.
   */
  admit(owner: string, leg: "start" | "resume" = "start"): RunSlot {
    const running = this.#running.get(owner) ?? 0;
    if (running >= this.#maxConcurrentRuns) throw runLimitError(this.#maxConcurrentRuns, leg);
    this.#running.set(owner, running + 1);
    let held = true;
    return {
      owner,
      release: () => {
        if (!held) return;
        held = false;
        this.#freeSlot(owner);
      },
    };
  }

  start(run: { tool: string; runId: string; request: string; owner?: string }): Promise<void> {
    return this.launch({
      tool: run.tool,
      runId: run.runId,
      input: { request: run.request },
      owner: run.owner,
    });
  }

  /**
   * Starts a run of any served tool (an agent's request, a tool's arguments) under `runId`; the
   * run takes over `slot` (from `admit`), if given.
   */
  async launch(run: {
    tool: string;
    runId: string;
    input: TaskRunInput;
    owner?: string | undefined;
    slot?: RunSlot | undefined;
  }): Promise<void> {
    const runner = this.#runner(run.tool);
    const now = new Date().toISOString();
    const record = await this.#records.create({
      kind: "junction.agent-task",
      version: AGENT_TASK_VERSION,
      taskId: runRecordId(run.runId),
      runId: run.runId,
      tool: run.tool,
      owner: RUN_OWNER,
      status: "working",
      statusMessage: "Started",
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: this.#ttlMs,
    });
    // Handed over in one step: the launched run counts itself from here.
    run.slot?.release();
    this.#launch(runner, { record, input: run.input, owner: run.owner ?? "" });
  }

  async status(runId: string): Promise<TaskRunStatus> {
    const record = await this.#records.read(runRecordId(runId));
    if (!record) return { status: "failed", message: `The run "${runId}" is not kept in this task store.` };
    return runStatus(record);
  }

  answer(runId: string, item: PendingToolCall, decision: ResumeDecision): Promise<void> {
    return this.answerWithSlot({ runId, item, decision, slot: undefined });
  }

  /**
   * `answer`, with the slot (from `admit(owner, "resume")`) the run takes over should this answer
   * resume it: the resumed run then counts as the slot's owner's. Without one (the operator's
   * answer), the resumed run counts as its starter's, unchecked.
   */
  async answerWithSlot(answer: {
    runId: string;
    item: PendingToolCall;
    decision: ResumeDecision;
    slot: RunSlot | undefined;
  }): Promise<void> {
    const { runId, item, decision, slot } = answer;
    let resumed: AgentTaskRecord | undefined;
    let input: AgentRunInput | undefined;
    const stored = await this.#records.change(runRecordId(runId), (record) => {
      resumed = undefined;
      const waiting = record.pending?.find((call) => call.id === item.id);
      // Not waiting for this call (answered, or another call), or the answer was given for other
      // arguments than the call waits with: it counts for nothing.
      if (record.status !== "input_required" || !record.state || !waiting) return undefined;
      if (waiting.argumentsDigest !== item.argumentsDigest || waiting.toolDigest !== item.toolDigest)
        return undefined;
      const decisions = { ...(record.decisions ?? {}) };
      // The first answer to a call counts; a later one changes nothing.
      if (Object.hasOwn(decisions, item.id)) return undefined;
      decisions[item.id] = decision;
      const pending = record.pending ?? [];
      if (!pending.every((call) => Object.hasOwn(decisions, call.id))) return { ...record, decisions };
      // Every call has its answer: this write is the one that resumes the run.
      input = { state: record.state, decisions };
      resumed = leftWaiting(record, { status: "working", statusMessage: "Answered; the run goes on" });
      return resumed;
    });
    if (stored && resumed && input) {
      const runner = this.#runner(stored.tool);
      // Handed over in one step, as at `launch`: the resumed run counts itself from here.
      slot?.release();
      this.#launch(runner, {
        record: stored,
        input,
        owner: slot?.owner ?? this.#ownerOf.get(runId) ?? "",
      });
    }
  }

  async cancel(runId: string): Promise<void> {
    await this.#records.change(runRecordId(runId), (record) => {
      if (isTerminal(record.status)) return undefined;
      return leftWaiting(record, { status: "cancelled", statusMessage: "Cancelled" });
    });
    this.#live.get(runId)?.abort();
    this.#upstream.get(runId)?.failAll(createAbortError(`The run "${runId}" was cancelled.`));
  }

  /** The upstream requests of a run going here, waiting for its client. */
  upstream(runId: string): UpstreamRequests | undefined {
    return this.#upstream.get(runId);
  }

  /**
   * Takes over a run an earlier version kept inside its task record (stopped, waiting for a
   * person): its record is made here, so it is answered as every run is. Done once, by whichever
   * process comes first.
   */
  async adopt(run: {
    runId: string;
    tool: string;
    state: NonNullable<AgentTaskRecord["state"]>;
    pending: PendingToolCall[];
    ttlMs: number;
  }): Promise<void> {
    const now = new Date().toISOString();
    const names = [...new Set(run.pending.map((call) => `"${call.name}"`))].join(", ");
    await this.#records.write(
      {
        kind: "junction.agent-task",
        version: AGENT_TASK_VERSION,
        taskId: runRecordId(run.runId),
        runId: run.runId,
        tool: run.tool,
        owner: RUN_OWNER,
        status: "input_required",
        statusMessage: `Waiting for a person to approve the call to ${names}`,
        createdAt: now,
        lastUpdatedAt: now,
        ttlMs: run.ttlMs,
        state: run.state,
        pending: run.pending,
      },
      null,
    );
  }

  /** Forgets an expired run's record. */
  async forget(runId: string): Promise<void> {
    await this.#records.delete(runRecordId(runId));
  }

  /** Aborts every run going in this process (their records stay as stored). */
  close(): void {
    for (const controller of this.#live.values()) controller.abort();
  }

  #runner(tool: string): TaskRunner {
    const runner = this.#runners.get(tool);
    if (!runner) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `No tool "${tool}" is served as a task here.`);
    }
    return runner;
  }

  #launch(runner: TaskRunner, leg: { record: AgentTaskRecord; input: TaskRunInput; owner: string }): void {
    const runId = leg.record.runId as string;
    const { owner } = leg;
    const controller = new AbortController();
    this.#live.set(runId, controller);
    const upstream = new UpstreamRequests();
    this.#upstream.set(runId, upstream);
    this.#ownerOf.set(runId, owner);
    this.#running.set(owner, (this.#running.get(owner) ?? 0) + 1);
    const live: LiveLeg = {
      runner,
      runId,
      record: leg.record,
      controller,
      upstream,
      write: this.#recordWriter(runId, leg.record.taskId),
    };
    void this.#runToRecord({ ...live, input: leg.input }).finally(() => {
      this.#live.delete(runId);
      if (this.#upstream.get(runId) === upstream) this.#upstream.delete(runId);
      upstream.failAll(createAbortError(`The run "${runId}" ended.`));
      this.#freeSlot(owner);
    });
  }

  /** Gives one of `owner`'s run slots back, and tells whoever waits for one. */
  #freeSlot(owner: string): void {
    this.#running.set(owner, Math.max(0, (this.#running.get(owner) ?? 1) - 1));
    for (const waiter of [...(this.#slotWaiters.get(owner) ?? [])]) waiter();
  }

  /**
   * Calls `listener` each time one of `owner`'s run slots is given back here (a run ended or
   * stopped to wait, or a slot launched nothing), until the returned function is called: an
   * answer the limit refused can be sent again at once, not at the next poll.
   */
  onSlotFreed(owner: string, listener: () => void): () => void {
    const waiters = this.#slotWaiters.get(owner) ?? new Set<() => void>();
    this.#slotWaiters.set(owner, waiters);
    waiters.add(listener);
    return () => {
      waiters.delete(listener);
      if (waiters.size === 0 && this.#slotWaiters.get(owner) === waiters) this.#slotWaiters.delete(owner);
    };
  }

  /**
   * Writes of one run's record, one after another (a run cancelled meanwhile stays cancelled). A
   * failed write (of a progress report) does not stop the next; the caller decides what it costs.
   */
  #recordWriter(runId: string, taskId: string): RecordWrite {
    return (change) => {
      const previous = this.#writes.get(runId) ?? Promise.resolve();
      const next = previous.then(async () => {
        await this.#records.change(taskId, (stored) =>
          stored.status === "cancelled"
            ? undefined
            : { ...stored, ...change, lastUpdatedAt: new Date().toISOString() },
        );
      });
      this.#writes.set(
        runId,
        next.catch(() => undefined),
      );
      return next;
    };
  }

  /** Runs the leg (through the pass-through relay when there is one) and writes how it ended into its record. */
  async #runToRecord(leg: LiveLeg & { input: TaskRunInput }): Promise<void> {
    const { runner, runId, controller, write } = leg;
    try {
      const ask = this.#asker(leg);
      const forward = (method: ForwardedMethod, params: Record<string, unknown>) => ask({ method, params });
      const run = () =>
        runner.run(leg.input, {
          signal: controller.signal,
          onProgress: (progress) => {
            const text = progress.message ?? progressText(progress);
            void write({ statusMessage: text }).catch(() => undefined);
          },
          ask,
          client: this.#clientOf(runId),
        });
      const outcome = this.#relay ? await this.#relay.run({ tool: runner.name, forward }, run) : await run();
      await write(endedChange(outcome));
    } catch (error) {
      if (controller.signal.aborted || isAbortError(error)) return;
      await write(failedChange(leg.record.tool, error)).catch(() => undefined);
    }
  }

  /**
   * How a run in the background asks: it has no client request to forward a question through (an
   * upstream server's, or the tool's own), so the question waits in the run, an input request of
   * its task, until the client answers it.
   */
  #asker(leg: LiveLeg): (question: TaskQuestion) => Promise<unknown> {
    const { runner, runId, controller, upstream, write } = leg;
    return async (question) => {
      const { method } = question;
      this.#clientOf(runId)?.canAnswer?.(method, runner.name);
      const answered = upstream.add(method, question.params, question.key);
      await write({
        status: "input_required",
        statusMessage:
          question.key === undefined
            ? `Waiting for the answer to ${method} from an MCP server the agent uses`
            : `Waiting for the answer to ${method} (${question.key})`,
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
  }
}

/** One of a client's run slots, taken by `admit` for the run about to be launched or resumed. */
export interface RunSlot {
  /** Whose slot it is: the run launched with it counts as theirs. */
  readonly owner: string;
  /** Gives the slot back (once; later calls do nothing). */
  release(): void;
}

/**
 * The refusal of a run beyond a client's `maxConcurrentRuns`: a new run's (`"start"`), or the
 * answer that would resume a waiting one (`"resume"`: the answer is not taken, the task still
 * waits for it). `data` names the limit, for `isRunLimitError`. Pure.
 */
function runLimitError(limit: number, leg: "start" | "resume"): ProtocolError {
  const message =
    leg === "start"
      ? `Too many task runs going at once for this client (limit ${limit}); wait for one to end, or cancel one.`
      : `Too many task runs going at once for this client (limit ${limit}): this answer would resume a run beyond it, so it was not taken and the task still waits for it. Wait for a run to end (or to wait for input), or cancel one, then send the same answer again.`;
  return new ProtocolError(ProtocolErrorCode.InternalError, message, {
    limit: "maxConcurrentRuns",
    maximum: limit,
  });
}

/** Whether `error` is a refusal by `maxConcurrentRuns` (from `admit`). */
export function isRunLimitError(error: unknown): boolean {
  return (
    error instanceof ProtocolError &&
    typeof error.data === "object" &&
    error.data !== null &&
    (error.data as { limit?: unknown }).limit === "maxConcurrentRuns"
  );
}

/** A change to a run's record, written after the ones before it. */
type RecordWrite = (change: Partial<AgentTaskRecord>) => Promise<void>;

/** A question a background run asks its task's client. */
type TaskQuestion = { method: TaskQuestionMethod; params: Record<string, unknown>; key?: string | undefined };

/** A run going in this process: its runner, its ids, its abort, its questions waiting, its record's writes. */
interface LiveLeg {
  runner: TaskRunner;
  runId: string;
  record: AgentTaskRecord;
  controller: AbortController;
  upstream: UpstreamRequests;
  write: RecordWrite;
}

/** A run's record once it ended: the answer, or the calls waiting for a person with the stopped state. */
function endedChange(outcome: Awaited<ReturnType<TaskRunner["run"]>>): Partial<AgentTaskRecord> {
  if (outcome.kind === "answer") {
    return { status: "completed", statusMessage: "Done", result: toCallToolResult(outcome.result) };
  }
  const names = [...new Set(outcome.pending.map((call) => `"${call.name}"`))].join(", ");
  return {
    status: "input_required",
    statusMessage: `Waiting for a person to approve the call to ${names}`,
    state: outcome.state,
    pending: outcome.pending,
  };
}

/**
 * A run's record once it failed: a JSON-RPC error fails the task (it has no result); anything
 * else is the tool's error result.
 */
function failedChange(tool: string, error: unknown): Partial<AgentTaskRecord> {
  if (error instanceof ProtocolError) {
    return {
      status: "failed",
      statusMessage: `Failed: ${error.message}`,
      error: { code: error.code, message: error.message },
    };
  }
  return {
    status: "completed",
    statusMessage: `Failed: ${errorMessage(error)}`,
    result: toolErrorResult(tool, error),
  };
}

/**
 * A run record that no longer waits for a person, in its new status: without the stopped state,
 * the pending calls and the answers so far. Pure.
 */
function leftWaiting(
  record: AgentTaskRecord,
  change: Pick<AgentTaskRecord, "status" | "statusMessage">,
): AgentTaskRecord {
  const { state: _state, pending: _pending, decisions: _decisions, ...rest } = record;
  return { ...rest, ...change, lastUpdatedAt: new Date().toISOString() };
}

/** A run record as the status the task layer reads (`DurableRunStatus`). Pure. */
function runStatus(record: AgentTaskRecord): TaskRunStatus {
  const statusMessage = record.statusMessage === undefined ? {} : { statusMessage: record.statusMessage };
  switch (record.status) {
    case "working":
      return { status: "working", ...statusMessage };
    case "input_required":
      // Waiting for a person (pending calls not all answered), or for an upstream request's answer.
      return {
        status: "input_required",
        pending: (record.pending ?? []).filter((call) => !Object.hasOwn(record.decisions ?? {}, call.id)),
        ...statusMessage,
      };
    case "completed":
      return { status: "completed", result: toToolResult(record.result), ...statusMessage };
    case "failed":
      return record.error
        ? { status: "failed", message: record.error.message, error: record.error }
        : { status: "failed", message: record.statusMessage ?? "failed" };
    case "cancelled":
      return { status: "cancelled" };
    default: {
      const never: never = record.status;
      return { status: "failed", message: `Unknown run status ${JSON.stringify(never)}.` };
    }
  }
}

/** A stored wire result as a `ToolResult` (what `DurableRunStatus` carries). Pure. */
function toToolResult(result: CallToolResult | undefined): ToolResult {
  return {
    content: (result?.content ?? []) as ToolResult["content"],
    isError: result?.isError === true,
    ...(result?.structuredContent === undefined ? {} : { structuredContent: result.structuredContent }),
  };
}

/** A progress report without a message, as a status message (`3/10`, or `3`). Pure. */
function progressText(progress: { progress: number; total?: number | undefined }): string {
  return progress.total === undefined ? `${progress.progress}` : `${progress.progress}/${progress.total}`;
}
