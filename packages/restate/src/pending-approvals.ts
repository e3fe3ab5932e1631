import type { PendingToolCall, ResumeDecision } from "@junction/core";
import {
  type ApprovalOutcome,
  type ApprovalWaitOptions,
  abortableWait,
  type RunApprovals,
  taggedAnswer,
  takenOutcome,
  throwIfWaitAborted,
} from "@junction/core/durable-runs";
import { JunctionError } from "@junction/types";
import { HttpCallError, type Ingress, rpc } from "@restatedev/restate-sdk-clients";
import type { AnswerResponse, AwaitPendingRequest, SignalRequest } from "./restate-workflow.js";
import { CANCELLED, type OutputReader, readRunOutput } from "./run-output.js";
import type { SendSignalOptions } from "./send-signal.js";

/** Options of {@link pendingApprovals}. */
export interface PendingApprovalsOptions {
  /** The Restate ingress: `clients.connect({ url: "http://localhost:8080" })`, from any process. */
  readonly ingress: Ingress;
  /** The workflow's name (its service name), as given to `restateWorkflow` or `restateAgentWorkflow`. */
  readonly workflow: string;
  /** The run's id: the workflow key the run was submitted with. */
  readonly runId: string;
}

type PendingHandlers = {
  run: (ctx: unknown, input: unknown) => Promise<unknown>;
  pending: (ctx: unknown) => Promise<PendingToolCall[]>;
  awaitPending: (ctx: unknown, request: AwaitPendingRequest) => Promise<PendingToolCall[]>;
  answer: (ctx: unknown, signal: SignalRequest) => Promise<AnswerResponse>;
};

/**
 * The calls of a run that wait for a person, from any process that can reach the ingress (the
 * workflow's shared `pending` handler answers, on any worker of the deployment): what the run
 * published when its step's approval waits began (call id, tool, source, validated arguments,
 * reason, step, digests). Empty when nothing waits: the waits were answered, the run ended (or
 * was cancelled), or it has not asked anything. Answer an item with {@link answerApproval}.
 *
 * @example
 * ```ts
 * const ingress = clients.connect({ url: "http://localhost:8080" });
 * for (const item of await pendingApprovals({ ingress, workflow: "assistant", runId: "run-42" })) console.log(item.name, item.input);
 * ```
 */
export async function pendingApprovals(options: PendingApprovalsOptions): Promise<PendingToolCall[]> {
  const run = options.ingress.workflowClient<PendingHandlers>({ name: options.workflow }, options.runId);
  const listed = await run.pending();
  if (listed.length === 0) return listed;
  // A run that ended while it waited (cancelled) keeps its last list, but can take no answer.
  try {
    return (await run.workflowOutput()).ready ? [] : listed;
  } catch (error) {
    if (error instanceof HttpCallError && error.status === CANCELLED) return [];
    throw error;
  }
}

// What a run's approvals stand at, how it ended, and what became of an answer mean the same on
// every engine: `@junction/core/durable-runs` declares them.
export type {
  ApprovalOutcome,
  RunApprovals,
  RunOutcome,
  TakenDecision,
} from "@junction/core/durable-runs";

/** Options of {@link approvalStatus}: the run, as for {@link pendingApprovals}. */
export type ApprovalStatusOptions = PendingApprovalsOptions;

/**
 * Where a run's approvals stand, read once through the ingress from any process: `"unknown"` (the
 * Restate server has no run of this workflow with this key: never submitted, or ended longer ago
 * than the workflow's retention), `"running"` (the run goes on, or waits for a worker to begin,
 * and nothing waits for a person), `"waiting"` with the calls, or `"finished"` with the run's
 * outcome (its output, its terminal error's message, or that it was cancelled). Listing the calls
 * needs a worker of the deployment (the `pending` handler). To wait until that changes, use
 * {@link waitForApprovals}.
 *
 * @example
 * ```ts
 * const now = await approvalStatus({ ingress, workflow: "assistant", runId: "run-42" });
 * if (now.status === "waiting") console.log(now.pending.map((item) => item.name));
 * ```
 */
export async function approvalStatus<Output = unknown>(
  options: ApprovalStatusOptions & { readonly signal?: AbortSignal },
): Promise<RunApprovals<Output>> {
  const run = options.ingress.workflowClient<PendingHandlers>({ name: options.workflow }, options.runId);
  const opts = options.signal ? rpc.opts<unknown, PendingToolCall[]>({ signal: options.signal }) : undefined;
  const ended = await output<Output>(run, options.signal);
  if (ended !== undefined) return ended;
  const listed = await run.pending(opts);
  if (listed.length === 0) return { status: "running" };
  // A run that ended meanwhile (cancelled while it waited) keeps its last list but takes no answer.
  return (await output<Output>(run, options.signal)) ?? { status: "waiting", pending: listed };
}

/** The run's end as {@link RunApprovals}, or `undefined` while it goes on. */
async function output<Output>(
  run: OutputReader,
  signal: AbortSignal | undefined,
): Promise<RunApprovals<Output> | undefined> {
  const now = await readRunOutput(run, signal);
  switch (now.kind) {
    case "going":
      return undefined;
    case "ended":
      return { status: "finished", outcome: { status: "succeeded", output: now.result as Output } };
    case "unknown":
      return { status: "unknown" };
    case "cancelled":
      return { status: "finished", outcome: { status: "cancelled" } };
    case "failed":
      return { status: "finished", outcome: { status: "failed", message: now.message } };
    default: {
      const never: never = now;
      throw new JunctionError("invalid-argument", `Unknown run output ${JSON.stringify(never)}.`);
    }
  }
}

/** Options of {@link waitForApprovals}: the run, and how long to wait (`timeoutMs`, `signal`). */
export interface WaitForApprovalsOptions extends PendingApprovalsOptions, ApprovalWaitOptions {}

/** How long one `awaitPending` call waits at most before the deadline is looked at again. */
const WAIT_SLICE_MS = 60_000;

/**
 * Waits until the run asks a person something or ends, from any process that reaches the
 * ingress: it resolves with `"waiting"` and the calls once the run published them (at once when
 * they wait already), with `"finished"` and its outcome once it ended, `"unknown"` for a key no
 * run has, and `"running"` when `timeoutMs` passed with nothing asked. It waits in Restate, not
 * by polling: on the workflow's `awaitPending` handler (which waits on the durable promise the
 * run resolves with each new list) and on the workflow's output (`workflowAttach`), whichever
 * comes first.
 *
 * @example
 * ```ts
 * await run.workflowSubmit({ input: "Note: buy milk" });
 * const asked = await waitForApprovals({ ingress, workflow: "assistant", runId: "run-42", timeoutMs: 30_000 });
 * if (asked.status === "waiting") for (const item of asked.pending) await answerApproval({ ingress, workflow: "assistant", runId: "run-42", item, decision: "approve" });
 * ```
 * @throws JunctionError `aborted` when `signal` aborts.
 */
export async function waitForApprovals<Output = unknown>(
  options: WaitForApprovalsOptions,
): Promise<RunApprovals<Output>> {
  const { signal } = options;
  const target = { ingress: options.ingress, workflow: options.workflow, runId: options.runId };
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  const run = options.ingress.workflowClient<PendingHandlers>({ name: options.workflow }, options.runId);
  for (;;) {
    throwIfWaitAborted(signal);
    const now = await abortableWait(
      approvalStatus<Output>({ ...target, ...(signal ? { signal } : {}) }),
      signal,
    );
    const remaining = deadline - Date.now();
    if (now.status !== "running" || remaining <= 0) return now;
    // Both waits end when the first does (or on abort): no request is left behind.
    const both = new AbortController();
    const stop = () => both.abort(signal?.reason);
    signal?.addEventListener("abort", stop, { once: true });
    const waits: Promise<unknown>[] = [
      Promise.resolve(
        run.awaitPending(
          { timeoutMs: Math.min(remaining, WAIT_SLICE_MS) },
          rpc.opts<AwaitPendingRequest, PendingToolCall[]>({ signal: both.signal }),
        ),
      ),
      Promise.resolve(run.workflowAttach(rpc.opts<void, unknown>({ signal: both.signal }))),
    ];
    try {
      // A failed attach is a run that ended (failed or cancelled): approvalStatus says how.
      await Promise.race(waits.map((wait) => wait.catch(() => undefined)));
    } finally {
      signal?.removeEventListener("abort", stop);
      both.abort();
      for (const wait of waits) wait.catch(() => undefined);
    }
  }
}

/** Options of {@link answerApproval}. */
export interface AnswerApprovalOptions extends Omit<SendSignalOptions, "name" | "value" | "until"> {
  /** The call as {@link pendingApprovals} listed it. */
  readonly item: PendingToolCall;
  /** `"approve"`, `"deny"` or `{ deny: reason }` (the model gets the reason). */
  readonly decision: ResumeDecision;
  /**
   * When to resolve: `"decided"` once the workflow's `answer` handler resolved the call's promise
   * (with this answer or an earlier one: the outcome says; needs a worker), `"accepted"` once the
   * Restate server stored the answer (no worker needed).
   * @default "decided"
   */
  readonly until?: "accepted" | "decided";
  /** Stops waiting for the handler's answer: rejects (the answer may still be taken). */
  readonly signal?: AbortSignal;
}

/**
 * Answers a listed pending call: resolves its durable promise (`approval:<step>:<callId>`,
 * through the workflow's `answer` handler) with the decision and the item's tool and arguments
 * digests, so the answer counts only for the call as it was listed. Should the waiting call's
 * tool or arguments differ (the list was edited, or the item is another run's), the run denies
 * the call with a `run-state-mismatch` warning instead of running it.
 *
 * An answer counts once: a durable promise resolves once, so of eight answers sent at once the
 * first one the Restate server applies is the one the run takes, and the outcome tells each
 * caller which happened to its answer: `"taken"` (this answer resolved the call's durable
 * promise), or `"duplicate"` with the decision taken instead. It is `"expired"` when the run had
 * ended (finished, failed, cancelled) before this answer came and no answer was taken for the
 * call: nothing runs; and `"accepted"` with `until: "accepted"`, once the Restate server stored
 * the answer (a worker's `answer` handler resolves the promise later, and whether this answer is
 * the one taken is not reported). With `idempotencyKey`, a retried call is one call: Restate
 * answers it with the first call's response.
 *
 * @example
 * ```ts
 * const [item] = await pendingApprovals({ ingress, workflow: "assistant", runId: "run-42" });
 * const outcome = await answerApproval({ ingress, workflow: "assistant", runId: "run-42", item, decision: "approve" });
 * if (outcome.status === "duplicate") console.log("already decided:", outcome.decision);
 * ```
 */
export async function answerApproval(options: AnswerApprovalOptions): Promise<ApprovalOutcome> {
  const { item, ingress, workflow, runId } = options;
  const { name, value, answerId } = taggedAnswer(item, options.decision);
  const request: SignalRequest = { name, value };
  if (options.until === "accepted") {
    const send = ingress.objectSendClient<Pick<PendingHandlers, "answer">>({ name: workflow }, runId);
    await send.answer(request, rpc.sendOpts({ idempotencyKey: options.idempotencyKey }));
    return { status: "accepted" };
  }
  const run = ingress.workflowClient<PendingHandlers>({ name: workflow }, runId);
  // A run that ended (or is gone) reads no answer: one that only this answer resolved expired.
  const endedBefore = (await output(run, options.signal)) !== undefined;
  const response = await run.answer(
    request,
    rpc.opts<SignalRequest, AnswerResponse>({
      ...(options.idempotencyKey !== undefined ? { idempotencyKey: options.idempotencyKey } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    }),
  );
  // What resolved the promise is not an answer (a hand-sent signal): it is no approval of the call.
  const outcome = takenOutcome(response.taken, answerId) ?? {
    status: "duplicate",
    decision: { approved: false },
  };
  return outcome.status === "taken" && endedBefore ? { status: "expired" } : outcome;
}
