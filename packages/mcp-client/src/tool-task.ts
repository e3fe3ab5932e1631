import { createAbortError, JunctionError } from "@junction/types";
import {
  type Client,
  ProtocolError,
  type RequestOptions,
  SdkError,
  SdkErrorCode,
} from "@modelcontextprotocol/client";
import { AnyResultSchema } from "./convert-tool-result.js";
import { isConnectionClosed } from "./mcp-errors.js";
import type { TaskStatusSignals } from "./task-status-signals.js";
import { lostTaskError, type TaskTicket } from "./task-ticket.js";

/** How long to keep listening for the id of a task the caller gave up on, so it can be cancelled. */
const TASK_ID_GRACE_MS = 10_000;
/** Poll interval when the server suggests none (or an absurd one). */
const DEFAULT_POLL_MS = 500;
const MAX_POLL_MS = 5_000;
/** `tasks/get` requests in a row the session may fail to carry (no answer from the server) before the call fails. */
const MAX_UNANSWERED_POLLS = 3;

export interface ToolTaskOptions {
  /** Options for each request of the task (the call, every poll). */
  requestOptions: RequestOptions;
  /** The caller's signal: aborting it rejects at once and cancels the task. */
  signal?: AbortSignal;
  /** The whole task's time limit, polls included. */
  timeoutMs: number;
  onprogress?: RequestOptions["onprogress"];
  /** Wakes the polling early when the server tells of a status change (`notifications/tasks/status`). */
  statusSignals?: TaskStatusSignals | undefined;
  /** Gets the task's id once the server answered with a task, so the call can follow it on another session. */
  ticket?: TaskTicket;
  /**
   * Follow the ticket's task (created on an earlier session) instead of sending the call: polls
   * `tasks/get` and `tasks/result` on this client; never sends `tools/call` again.
   */
  resume?: boolean;
}

/** What `tasks/get` (and the task in the call's answer) tells of a task. */
interface TaskState {
  taskId: string;
  status: string;
  pollInterval?: number;
  statusMessage?: string;
}

const TERMINAL = new Set(["completed", "failed", "cancelled"]);

/**
 * Runs a `tools/call` as a task (MCP 2025-11-25 tasks, on the SDK's plain `request`, since the
 * v2 client has no task API): the call with `task: {}` answers with the task, `tasks/get` is
 * polled until the task ends or needs input, and `tasks/result` gives the tool's result (and,
 * while the task waits for input, carries the server's elicitation/sampling requests). A failed
 * call rejects with the server's error. An abort or the time limit rejects at once and cancels
 * the task on the server (`tasks/cancel`), also when the caller gives up after the server
 * created the task but before its id reached us: the id is then awaited (for a while).
 */
export function runToolTask(
  client: Client,
  params: ToolTaskParams,
  options: ToolTaskOptions,
): Promise<Record<string, unknown>> {
  const run = new ToolTaskRun(client, options);
  return withCallerLimits(run.follow(params), {
    signal: options.signal,
    timeoutMs: options.timeoutMs,
    giveUp: run.giveUp,
  });
}

/** The params of the `tools/call` {@link runToolTask} sends. */
type ToolTaskParams = { name: string; arguments: Record<string, unknown>; _meta?: Record<string, unknown> };

/** One {@link runToolTask}: the task it follows, and whether the caller gave it up. */
class ToolTaskRun {
  readonly #client: Client;
  readonly #options: ToolTaskOptions;
  /** Aborts every request of the task (the call, the polls) once it is given up. */
  readonly #stream = new AbortController();
  #taskId: string | undefined;
  #gaveUp = false;
  /** Set once the task needs no `tasks/cancel`: it ended, was cancelled, or is followed elsewhere. */
  #done = false;
  #waitingForId: ReturnType<typeof setTimeout> | undefined;

  constructor(client: Client, options: ToolTaskOptions) {
    this.#client = client;
    this.#options = options;
  }

  /** The caller gave up (an abort, the time limit): cancels the task, or waits a while for its id to. */
  readonly giveUp = (): void => {
    this.#gaveUp = true;
    if (this.#taskId) {
      clearTimeout(this.#waitingForId);
      this.#cancelOnServer();
      this.#stream.abort();
    } else {
      this.#waitingForId ??= setTimeout(() => this.#stream.abort(), TASK_ID_GRACE_MS);
    }
  };

  /** Sends the call (or resumes the ticket's task), follows the task, and gives its result. */
  async follow(params: ToolTaskParams): Promise<Record<string, unknown>> {
    const resumedId = this.#options.resume ? this.#options.ticket?.taskId : undefined;
    try {
      let first: TaskState | undefined;
      if (resumedId !== undefined) {
        first = { taskId: resumedId, status: "working", pollInterval: 0 };
      } else {
        const created = await this.#client.request(
          { method: "tools/call", params: { ...params, task: {} } },
          AnyResultSchema,
          { ...this.#each(), onprogress: this.#options.onprogress },
        );
        first = taskOf(created);
        // A server may run the call at once and answer with the result itself.
        if (!first) {
          this.#done = true;
          return created;
        }
      }
      const taskId = first.taskId;
      this.#taskId = taskId;
      if (this.#options.ticket) this.#options.ticket.taskId = taskId;
      if (this.#gaveUp) {
        this.giveUp();
        throw createAbortError(`the task for tool "${params.name}" was given up`);
      }
      const state = await pollTask(this.#client, {
        taskId,
        first,
        tool: params.name,
        resumed: resumedId !== undefined,
        ticket: this.#options.ticket,
        statusSignals: this.#options.statusSignals,
        signal: this.#stream.signal,
        each: () => this.#each(),
      });
      if (state.status === "cancelled") {
        this.#done = true;
        throw new JunctionError(
          "mcp-request-failed",
          `the task for tool "${params.name}" was cancelled on the server`,
        );
      }
      this.#options.statusSignals?.forget(taskId);
      // Completed, failed (its result says why) or waiting for input (answered through the
      // client's handlers while tasks/result is pending).
      const result = await this.#client.request(
        { method: "tasks/result", params: { taskId } },
        AnyResultSchema,
        this.#each(),
      );
      this.#done = true;
      return result;
    } catch (error) {
      // The session is gone, not the task: the caller follows it on the next session (and could
      // not reach this one's server to cancel it anyway). A client whose transport is gone failed
      // the request because of that, whatever it threw (a write to the dead server, "Not connected").
      if (
        this.#taskId !== undefined &&
        this.#options.ticket &&
        (isConnectionClosed(error) || !this.#client.transport)
      ) {
        this.#done = true;
        throw isConnectionClosed(error)
          ? error
          : new SdkError(SdkErrorCode.ConnectionClosed, "Connection closed");
      }
      throw error;
    } finally {
      // A task we stop following (a failed poll) should not run on unwatched.
      this.#cancelOnServer();
    }
  }

  #cancelOnServer(): void {
    const taskId = this.#taskId;
    if (this.#done || !taskId) return;
    this.#done = true;
    // Cancelling is a courtesy to the server; the caller already has its abort error, and a task that ran on
    // is the server's to end.
    void this.#client
      .request({ method: "tasks/cancel", params: { taskId } }, AnyResultSchema, { timeout: 5_000 })
      .catch(() => undefined);
  }

  #each(): RequestOptions {
    return {
      ...this.#options.requestOptions,
      // Our own timer bounds the task; the SDK's must not drop a late answer with the task id.
      timeout: this.#options.timeoutMs + TASK_ID_GRACE_MS,
      signal: this.#stream.signal,
    };
  }
}

/** What {@link pollTask} polls with. */
interface TaskPolling {
  taskId: string;
  /** The task as the call's answer (or the resumed ticket) left it. */
  first: TaskState;
  tool: string;
  /** Whether the task was created on an earlier session ({@link ToolTaskOptions.resume}). */
  resumed: boolean;
  ticket: TaskTicket | undefined;
  statusSignals: TaskStatusSignals | undefined;
  /** Aborts the wait between polls and each poll. */
  signal: AbortSignal;
  /** The options of each request. */
  each: () => RequestOptions;
}

/**
 * Polls `tasks/get` (at the server's interval, woken early by a status notification) until the
 * task ends or waits for input, and gives its last state. A poll the session could not carry is
 * tried again a few times; a resumed task the server refuses to show is lost.
 */
async function pollTask(client: Client, polling: TaskPolling): Promise<TaskState> {
  const { taskId, tool, signal, each } = polling;
  let state = polling.first;
  let unanswered = 0;
  while (!TERMINAL.has(state.status) && state.status !== "input_required") {
    await (polling.statusSignals
      ? polling.statusSignals.wait(taskId, pollDelay(state), signal)
      : sleep(pollDelay(state), signal));
    let answer: Record<string, unknown>;
    try {
      answer = await client.request({ method: "tasks/get", params: { taskId } }, AnyResultSchema, each());
      unanswered = 0;
    } catch (error) {
      // A resumed task the server refuses to show (a restart that kept no record of it) is lost.
      if (polling.resumed && error instanceof ProtocolError) {
        throw lostTaskError(tool, taskId, error);
      }
      // A poll the session could not carry (written to a server that just died) tells nothing
      // of the task; a dying session is gone in a moment (see runToolTask's catch). Poll again, a few times.
      if (
        polling.ticket &&
        client.transport &&
        !(error instanceof ProtocolError) &&
        !isConnectionClosed(error) &&
        unanswered < MAX_UNANSWERED_POLLS
      ) {
        unanswered++;
        await sleep(DEFAULT_POLL_MS, signal);
        continue;
      }
      throw error;
    }
    const polled = taskOf({ task: answer });
    if (!polled) {
      throw new JunctionError("mcp-invalid-response", `tasks/get for tool "${tool}" sent no task status`);
    }
    state = polled;
  }
  return state;
}

/**
 * `outcome`, unless the caller's signal aborts or the time limit passes first: the call then
 * rejects at once, and `giveUp` cancels the task.
 */
function withCallerLimits<T>(
  outcome: Promise<T>,
  limits: { signal: AbortSignal | undefined; timeoutMs: number; giveUp: () => void },
): Promise<T> {
  const { signal, giveUp } = limits;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new SdkError(SdkErrorCode.RequestTimeout, "task timed out"));
      giveUp();
    }, limits.timeoutMs);
    const onAbort = () => {
      reject(signal?.reason);
      giveUp();
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    outcome.then(resolve, reject).finally(() => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    });
  });
}

/** The task of a `CreateTaskResult` (`{ task }`) or of a `tasks/get` answer, if it is one. */
function taskOf(result: Record<string, unknown>): TaskState | undefined {
  const task = result.task;
  if (typeof task !== "object" || task === null) return undefined;
  const { taskId, status, pollInterval, statusMessage } = task as Record<string, unknown>;
  if (typeof taskId !== "string" || typeof status !== "string") return undefined;
  return {
    taskId,
    status,
    ...(typeof pollInterval === "number" ? { pollInterval } : {}),
    ...(typeof statusMessage === "string" ? { statusMessage } : {}),
  };
}

function pollDelay(state: TaskState): number {
  const suggested = state.pollInterval;
  return suggested !== undefined && Number.isFinite(suggested) && suggested >= 0
    ? Math.min(suggested, MAX_POLL_MS)
    : DEFAULT_POLL_MS;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
