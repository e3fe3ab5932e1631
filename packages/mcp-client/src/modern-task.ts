import type { ClientCapabilities } from "@junction/types";
import { errorMessage } from "@junction/types";
import type {
  Client,
  JSONRPCMessage,
  MessageExtraInfo,
  Transport,
  TransportSendOptions,
} from "@modelcontextprotocol/client";
import { ProtocolError, SdkError, SdkErrorCode } from "@modelcontextprotocol/client";
import { AnyResultSchema } from "./convert-tool-result.js";
import { isConnectionClosed, isConnectionReset } from "./mcp-errors.js";
import { answerTaskInput, taskInputFailure } from "./task-input.js";
import { lostTaskError, type TaskTicket } from "./task-ticket.js";

/** The MCP 2026-07-28 tasks extension (SEP-2663). */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** Poll interval when the server suggests none (or an absurd one). */
const DEFAULT_POLL_MS = 500;
const MIN_POLL_MS = 10;
const MAX_POLL_MS = 5_000;
/** Time limit of each `tasks/get`, `tasks/update` and `tasks/cancel` (the call's own deadline bounds the whole). */
const TASK_REQUEST_MS = 10_000;
/** How long a call given up before its answer came is remembered, to cancel a task it created. */
const TASK_ID_GRACE_MS = 10_000;
/** `tasks/get` requests in a row the session may fail to carry (no answer from the server) before the call fails. */
const MAX_UNANSWERED_POLLS = 3;

/** The capabilities with the tasks extension declared (the user's own extensions kept). */
export function withTasksExtension(capabilities: ClientCapabilities): ClientCapabilities {
  return { ...capabilities, extensions: { ...capabilities.extensions, [TASKS_EXTENSION]: {} } };
}

const CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";

/**
 * A 2026-07-28 request with the tasks extension declared in its `_meta` client capabilities (the
 * per-request declaration of SEP-2575). Messages without that envelope are returned as they are.
 */
export function declaringTasks(message: JSONRPCMessage): JSONRPCMessage {
  if (!("method" in message) || !("id" in message)) return message;
  const params = message.params as { _meta?: Record<string, unknown> } | undefined;
  const declared = params?._meta?.[CLIENT_CAPABILITIES];
  if (typeof declared !== "object" || declared === null) return message;
  const capabilities = declared as ClientCapabilities;
  return {
    ...message,
    params: {
      ...params,
      _meta: { ...params?._meta, [CLIENT_CAPABILITIES]: withTasksExtension(capabilities) },
    },
  } as JSONRPCMessage;
}

/** A `CreateTaskResult` of the extension: `resultType: "task"` with the task's fields flat beside it. */
export interface CreatedTask {
  taskId: string;
  status: string;
  pollIntervalMs?: number;
  statusMessage?: string;
}

/** The task a `tools/call` answer created, if the answer is a `CreateTaskResult`. */
export function createdTaskOf(result: unknown): CreatedTask | undefined {
  if (typeof result !== "object" || result === null) return undefined;
  const { resultType, taskId, status, pollIntervalMs, statusMessage } = result as Record<string, unknown>;
  if (resultType !== "task" || typeof taskId !== "string" || typeof status !== "string") return undefined;
  return {
    taskId,
    status,
    ...(typeof pollIntervalMs === "number" ? { pollIntervalMs } : {}),
    ...(typeof statusMessage === "string" ? { statusMessage } : {}),
  };
}

/** How a `tasks/get` answer (a `DetailedTask`) ends the call, or `undefined` while it runs. */
export type TaskOutcome =
  | { kind: "result"; result: Record<string, unknown> }
  | { kind: "error"; code: number; message: string; data?: unknown };

/**
 * The JSON-RPC outcome of a finished task for the `tools/call` that created it: a completed task
 * gives its inlined tool result (a tool error is `isError` inside it), a failed one its inlined
 * error, a cancelled one an error saying so. A task still working, or waiting for input
 * (`input_required`, answered by {@link followTasks}), gives `undefined`.
 */
export function taskOutcome(detailed: Record<string, unknown>, tool: string): TaskOutcome | undefined {
  const status = detailed.status;
  if (typeof status !== "string") {
    return { kind: "error", code: -32603, message: `tasks/get for tool "${tool}" sent no task status` };
  }
  switch (status) {
    case "completed": {
      const result = detailed.result;
      if (typeof result !== "object" || result === null || Array.isArray(result)) {
        return {
          kind: "error",
          code: -32603,
          message: `the completed task of tool "${tool}" carried no result object`,
        };
      }
      return { kind: "result", result: { ...(result as Record<string, unknown>), resultType: "complete" } };
    }
    case "failed": {
      const error = detailed.error as { code?: unknown; message?: unknown; data?: unknown } | undefined;
      const message = typeof error?.message === "string" ? error.message : "no reason given";
      return {
        kind: "error",
        code: typeof error?.code === "number" ? error.code : -32603,
        message: `the task of tool "${tool}" failed on the server: ${message}`,
        ...(error?.data === undefined ? {} : { data: error.data }),
      };
    }
    case "cancelled":
      return {
        kind: "error",
        code: -32603,
        message: `the task of tool "${tool}" was cancelled on the server`,
      };
    default:
      return undefined;
  }
}

export function pollDelayMs(pollIntervalMs: unknown): number {
  return typeof pollIntervalMs === "number" && Number.isFinite(pollIntervalMs) && pollIntervalMs >= 0
    ? Math.min(Math.max(pollIntervalMs, MIN_POLL_MS), MAX_POLL_MS)
    : DEFAULT_POLL_MS;
}

interface HeldCall {
  tool: string;
  progressToken?: string | number;
  /** The request's own stream (Streamable HTTP on 2026-07-28): aborted when the call is given up. */
  requestSignal?: AbortSignal;
  taskId?: string;
  timer?: ReturnType<typeof setTimeout>;
  done: boolean;
  polls: number;
  /** `tasks/get` requests in a row that got no answer (the session failed to carry them). */
  unanswered?: number;
  lastMessage?: string;
  /** The task's latest `requestState` (SEP-2322), echoed on each later task request. */
  requestState?: string;
  /** The keys of the task's input requests already handed to the handlers (answered once each). */
  asked: Set<string>;
  /** Aborted when the call ends: answers still being prepared are then not sent. */
  input: AbortController;
  /** The caller's record of the task, so it can follow it on another session. */
  ticket?: TaskTicket;
  /** A task resumed on this session ({@link TaskFollower.resume}): its outcome settles a promise, not a JSON-RPC id. */
  settle?: {
    resolve(result: Record<string, unknown>): void;
    reject(error: unknown): void;
    onprogress?: (message: string, polls: number) => void;
  };
}

/** Follows the 2026-07-28 tasks of one session (see {@link followTasks}). */
export interface TaskFollower {
  /** Stops following (the session is gone): tasks resumed here reject as their connection closed. */
  stop(): void;
  /**
   * Attaches a ticket to the next `tools/call` this session sends, if it is sent before
   * `expect(undefined)`: the call's task id and state are then written to it.
   */
  expect(ticket: TaskTicket | undefined): void;
  /**
   * Follows on this session a task that a `tools/call` of an earlier session created (the ticket's
   * task id): polls `tasks/get`, answers its input requests, resolves with the tool's result (or
   * rejects with the server's error as a `ProtocolError`), without sending the call again.
   */
  resume(
    ticket: TaskTicket & { taskId: string },
    options: {
      tool: string;
      timeoutMs: number;
      signal?: AbortSignal;
      onprogress?: (message: string, polls: number) => void;
    },
  ): Promise<Record<string, unknown>>;
}

/**
 * Follows tasks of the `io.modelcontextprotocol/tasks` extension on a 2026-07-28 session, beneath
 * the SDK's client (whose v2 line refuses a `resultType: "task"` answer): a `tools/call` answered
 * with a `CreateTaskResult` is held back, `tasks/get` is polled (at the server's `pollIntervalMs`)
 * until the task ends, and the call then gets the task's inlined result or error as its own
 * answer, so `callTool` and the proxy tools work as on any other call. A status message the task
 * reports while it runs reaches the call's `onProgress`.
 *
 * A task that needs input (`input_required`) lists it in the `inputRequests` of `tasks/get`: each
 * new entry (by key; a key is answered once) goes to the handlers the user gave the `MCP`
 * (elicitation, sampling, roots) on the same path as an `input_required` answer of an ordinary
 * request (see {@link answerTaskInput}), and the answers go back in one `tasks/update`. Polling
 * goes on meanwhile, so a task that ends while the user is still answering ends the call. Input
 * that cannot be answered (no handler for what was asked, a malformed request, a handler that
 * fails) cancels the task and fails the call ({@link taskInputFailure}).
 *
 * When the caller gives the call up (abort or timeout: `notifications/cancelled` for it, or its
 * HTTP request stream aborted), polling stops, answers not yet sent are dropped, and the server
 * gets `tasks/cancel`. When the session is lost instead, the task is left running: a call given a
 * ticket ({@link TaskFollower.expect}) can follow it on the next session ({@link TaskFollower.resume}).
 */
export function followTasks(client: Client, wire: TaskWire): SessionTasks {
  return new SessionTasks(client, wire);
}

/**
 * The two ends the tasks follower sits between: the SDK client's handler of the server's messages
 * and the send of the transport beneath. The follower rewires neither: `layerConnectedSession`
 * (`session-layers.ts`) points the transport's `send` and `onmessage` at {@link SessionTasks.sent}
 * and {@link SessionTasks.received}.
 */
export interface TaskWire {
  /** The client's own handler of the server's messages, beneath which the tasks are followed. */
  deliver: Transport["onmessage"];
  /** Sends a message on down to the wire. */
  send: Transport["send"];
}

/**
 * {@link followTasks} for one session: the calls it holds, and the steps that follow their tasks
 * (hold a `tools/call` as it is sent, follow its task answer, poll, answer input, finish, give up).
 */
export class SessionTasks implements TaskFollower {
  readonly #calls = new Map<string | number, HeldCall>();
  readonly #client: Client;
  readonly #deliver: TaskWire["deliver"];
  readonly #send: TaskWire["send"];
  #stopped = false;
  /** The ticket of the next `tools/call` sent ({@link TaskFollower.expect}). */
  #expected: TaskTicket | undefined;
  /** How many tasks were resumed here: each gets an id no JSON-RPC id of the session can be. */
  #resumed = 0;

  constructor(client: Client, wire: TaskWire) {
    this.#client = client;
    this.#deliver = wire.deliver;
    this.#send = wire.send;
  }

  /** One task request of this session, bounded by {@link TASK_REQUEST_MS}. */
  #request(
    method: "tasks/get" | "tasks/update" | "tasks/cancel",
    params: { taskId: string; requestState?: string } & Record<string, unknown>,
  ) {
    return this.#client.request({ method, params }, AnyResultSchema, { timeout: TASK_REQUEST_MS });
  }

  /** The params of a task request: the task's id, and its latest `requestState` if it has one. */
  #taskParams(call: HeldCall, taskId: string) {
    return { taskId, ...(call.requestState === undefined ? {} : { requestState: call.requestState }) };
  }

  #cancelTask(call: HeldCall, taskId: string) {
    // Cancelling is a courtesy to the server; the caller already has its abort error, and a task that ran on
    // is the server's to end.
    void this.#request("tasks/cancel", this.#taskParams(call, taskId)).catch(() => undefined);
  }

  #finish(id: string | number, call: HeldCall, outcome: TaskOutcome) {
    call.done = true;
    clearTimeout(call.timer);
    call.input.abort();
    this.#calls.delete(id);
    if (this.#stopped) return;
    if (call.settle) {
      if (outcome.kind === "result") call.settle.resolve(outcome.result);
      else call.settle.reject(new ProtocolError(outcome.code, outcome.message, outcome.data));
      return;
    }
    const message: JSONRPCMessage =
      outcome.kind === "result"
        ? { jsonrpc: "2.0", id, result: outcome.result as never }
        : {
            jsonrpc: "2.0",
            id,
            error: {
              code: outcome.code,
              message: outcome.message,
              ...(outcome.data === undefined ? {} : { data: outcome.data }),
            },
          };
    this.#deliver?.(message);
  }

  #giveUp(id: string | number) {
    const call = this.#calls.get(id);
    if (!call || call.done) return;
    call.done = true;
    clearTimeout(call.timer);
    call.input.abort();
    // Before the answer came, the entry stays a while: an answer that creates a task then gets
    // the task cancelled.
    if (!call.taskId) {
      call.timer = setTimeout(() => this.#calls.delete(id), TASK_ID_GRACE_MS);
      // Remembering must not keep a Node process alive.
      (call.timer as { unref?: () => void }).unref?.();
      return;
    }
    this.#calls.delete(id);
    this.#cancelTask(call, call.taskId);
  }

  #reportProgress(call: HeldCall, message: string | undefined) {
    if (message === undefined || message === call.lastMessage) return;
    if (call.settle?.onprogress) {
      call.lastMessage = message;
      call.settle.onprogress(message, call.polls);
      return;
    }
    if (call.progressToken === undefined) return;
    call.lastMessage = message;
    this.#deliver?.({
      jsonrpc: "2.0",
      method: "notifications/progress",
      params: { progressToken: call.progressToken, progress: call.polls, message },
    });
  }

  #poll(id: string | number, call: HeldCall, delayMs: number) {
    call.timer = setTimeout(async () => {
      if (call.done || this.#stopped || !call.taskId) return;
      let detailed: Record<string, unknown>;
      try {
        detailed = await this.#request("tasks/get", this.#taskParams(call, call.taskId));
      } catch (error) {
        if (call.done || this.#stopped) return;
        // A poll the session could not carry (written to a server that just died: EPIPE) tells
        // nothing of the task. A dying session closes in a moment, and its close hands the task
        // to the next session; until then, poll again, a few times.
        if (!(error instanceof ProtocolError) && (call.unanswered ?? 0) < MAX_UNANSWERED_POLLS) {
          call.unanswered = (call.unanswered ?? 0) + 1;
          this.#poll(id, call, DEFAULT_POLL_MS);
          return;
        }
        // A task we stop following should not run on unwatched.
        this.#cancelTask(call, call.taskId);
        if (call.settle) {
          call.done = true;
          this.#calls.delete(id);
          // The server refusing the task (a restart that kept no record of it) is a lost task.
          call.settle.reject(
            error instanceof ProtocolError ? lostTaskError(call.tool, call.taskId, error) : error,
          );
          return;
        }
        const reason = errorMessage(error);
        this.#finish(id, call, {
          kind: "error",
          code: -32603,
          message: `tasks/get for tool "${call.tool}" failed: ${reason}`,
        });
        return;
      }
      if (call.done || this.#stopped) return;
      call.polls++;
      call.unanswered = 0;
      rememberRequestState(call, detailed);
      if (call.ticket) call.ticket.requestState = call.requestState;
      const outcome = taskOutcome(detailed, call.tool);
      if (!outcome) {
        this.#reportProgress(
          call,
          typeof detailed.statusMessage === "string" ? detailed.statusMessage : undefined,
        );
        if (detailed.status === "input_required" && !this.#answerInput(id, call, detailed)) return;
        this.#poll(id, call, pollDelayMs(detailed.pollIntervalMs));
        return;
      }
      this.#finish(id, call, outcome);
    }, delayMs);
  }

  /**
   * Hands the new input requests of an `input_required` task to the handlers and sends their
   * answers with `tasks/update` (in the background: polling goes on). False when the call ended
   * here (malformed `inputRequests`).
   */
  #answerInput(id: string | number, call: HeldCall, detailed: Record<string, unknown>): boolean {
    const { taskId } = call;
    // Polled only once the task is known.
    if (taskId === undefined) return true;
    const listed = detailed.inputRequests;
    // None listed: the answers sent are not yet reflected (tasks/update is eventually consistent).
    if (listed === undefined) return true;
    if (typeof listed !== "object" || listed === null || Array.isArray(listed)) {
      this.#cancelTask(call, taskId);
      this.#finish(id, call, {
        kind: "error",
        code: -32603,
        message: `the task of tool "${call.tool}" asked for input with inputRequests that are not an object; the task was cancelled (tasks/cancel)`,
      });
      return false;
    }
    const fresh = Object.entries(listed).filter(([key]) => !call.asked.has(key));
    if (fresh.length === 0) return true;
    for (const [key] of fresh) call.asked.add(key);
    const inputRequests = Object.fromEntries(fresh);
    answerTaskInput(this.#client, {
      taskId,
      inputRequests,
      ...(call.requestState === undefined ? {} : { requestState: call.requestState }),
      signal: call.input.signal,
      update: (params) => {
        // A call given up while its user answered: the task is cancelled, the answer stays here.
        if (call.done || this.#stopped) return Promise.reject(call.input.signal.reason);
        // The latest requestState, not the one of the round's start (maybe none by now).
        return this.#request("tasks/update", {
          ...this.#taskParams(call, taskId),
          inputResponses: params.inputResponses,
        });
      },
    }).then(
      () => {
        // Acknowledged: a session that follows this task later does not ask again.
        for (const [key] of fresh) call.ticket?.answered.add(key);
      },
      (error: unknown) => {
        if (call.done || this.#stopped) return;
        // The session died under the answer (written to a server that just died: EPIPE; closed
        // before the server's reply): that tells nothing of the task, which goes on. The dying
        // session's close hands the task to the next session, whose server asks again; an answer
        // that did arrive counts once there, whatever comes after it.
        if (!(error instanceof ProtocolError) && (isConnectionClosed(error) || isConnectionReset(error))) {
          for (const [key] of fresh) call.asked.delete(key);
          return;
        }
        this.#cancelTask(call, taskId);
        this.#finish(id, call, { kind: "error", ...taskInputFailure(error, call.tool, inputRequests) });
      },
    );
    return true;
  }

  /** A message the client sends: a `tools/call` is held (its answer may be a task), a cancellation gives one up. */
  readonly sent = (original: JSONRPCMessage, options?: TransportSendOptions): Promise<void> => {
    const message = declaringTasks(original);
    if ("method" in message) {
      if ("id" in message && message.method === "tools/call") {
        const params = message.params as { name?: unknown; _meta?: { progressToken?: unknown } } | undefined;
        const token = params?._meta?.progressToken;
        const call: HeldCall = {
          tool: typeof params?.name === "string" ? params.name : "?",
          ...(typeof token === "string" || typeof token === "number" ? { progressToken: token } : {}),
          done: false,
          polls: 0,
          asked: new Set(),
          input: new AbortController(),
          ...(this.#expected ? { ticket: this.#expected } : {}),
        };
        this.#expected = undefined;
        const requestSignal = (options as { requestSignal?: AbortSignal } | undefined)?.requestSignal;
        if (requestSignal) {
          call.requestSignal = requestSignal;
          requestSignal.addEventListener("abort", () => this.#giveUp(message.id), { once: true });
        }
        this.#calls.set(message.id, call);
      } else if (message.method === "notifications/cancelled") {
        const requestId = (message.params as { requestId?: unknown } | undefined)?.requestId;
        if (typeof requestId === "string" || typeof requestId === "number") this.#giveUp(requestId);
      }
    }
    return this.#send(message, options);
  };

  /** A message from the server: a held call's task answer is followed, anything else goes to the client. */
  readonly received = (message: JSONRPCMessage, extra?: MessageExtraInfo): void => {
    const id = !("method" in message) && "id" in message ? message.id : undefined;
    if ((typeof id === "string" || typeof id === "number") && this.#calls.has(id)) {
      const call = this.#calls.get(id)!;
      const result = "result" in message ? message.result : undefined;
      const created = createdTaskOf(result);
      if (!created) {
        this.#calls.delete(id);
      } else if (!call.done) {
        call.taskId = created.taskId;
        rememberRequestState(call, result);
        if (call.ticket) {
          call.ticket.taskId = created.taskId;
          call.ticket.requestState = call.requestState;
        }
        this.#reportProgress(call, created.statusMessage);
        const early = taskOutcome({ ...created }, call.tool);
        // A task created already terminal still has its result or error on tasks/get.
        this.#poll(id, call, early ? 0 : pollDelayMs(created.pollIntervalMs));
        return;
      } else {
        // Given up before the task's id arrived: cancel it now.
        this.#calls.delete(id);
        rememberRequestState(call, result);
        this.#cancelTask(call, created.taskId);
        return;
      }
    }
    this.#deliver?.(message, extra);
  };

  readonly stop = (): void => {
    this.#stopped = true;
    for (const call of this.#calls.values()) {
      call.done = true;
      clearTimeout(call.timer);
      call.input.abort();
      // As a request of the lost session would: the caller may follow the task on the next one.
      call.settle?.reject(new SdkError(SdkErrorCode.ConnectionClosed, "Connection closed"));
    }
    this.#calls.clear();
  };

  readonly resume: TaskFollower["resume"] = (ticket, options) =>
    new Promise((resolve, reject) => {
      if (this.#stopped) {
        reject(new SdkError(SdkErrorCode.ConnectionClosed, "Connection closed"));
        return;
      }
      // Not a JSON-RPC id of this session (those are numbers): no answer can be mistaken for it.
      const id = `resumed-task-${++this.#resumed}`;
      const { signal } = options;
      let deadline: ReturnType<typeof setTimeout> | undefined;
      const onAbort = () => {
        this.#giveUp(id);
        reject(signal?.reason);
      };
      const settled = () => {
        clearTimeout(deadline);
        signal?.removeEventListener("abort", onAbort);
      };
      const call: HeldCall = {
        tool: options.tool,
        taskId: ticket.taskId,
        done: false,
        polls: 0,
        // Input whose answer this server acknowledged is not asked again; the rest is.
        asked: new Set(ticket.answered),
        input: new AbortController(),
        ticket,
        ...(ticket.requestState === undefined ? {} : { requestState: ticket.requestState }),
        settle: {
          resolve: (result) => {
            settled();
            resolve(result);
          },
          reject: (error) => {
            settled();
            reject(error);
          },
          ...(options.onprogress ? { onprogress: options.onprogress } : {}),
        },
      };
      this.#calls.set(id, call);
      deadline = setTimeout(() => {
        this.#giveUp(id);
        settled();
        reject(new SdkError(SdkErrorCode.RequestTimeout, "task timed out", { timeout: options.timeoutMs }));
      }, options.timeoutMs);
      if (signal?.aborted) {
        onAbort();
        return;
      }
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#poll(id, call, 0);
    });

  readonly expect = (ticket: TaskTicket | undefined): void => {
    this.#expected = ticket;
  };
}

/**
 * Keeps the `requestState` of a task-bearing answer (a `CreateTaskResult`, a `tasks/get` result):
 * the client must echo the latest one, and none when the latest answer had none (SEP-2663).
 */
function rememberRequestState(call: { requestState?: string }, answer: unknown): void {
  const requestState = (answer as { requestState?: unknown } | undefined)?.requestState;
  call.requestState = typeof requestState === "string" ? requestState : undefined;
}
