import { createAbortError } from "@junction/types";
import type { JSONValue } from "../durability.js";
import { approvalSignalFor } from "../pending-approvals.js";
import type { ApprovalAnswer } from "../run-journal.js";
import type { PendingToolCall, ResumeDecision } from "../run-state.js";

// A person's answer to a pending call on a durable engine, and what became of it, whichever engine
// carries it: the answer as sent (tagged, so the sender can tell its own answer from the others
// once the run took one), the outcome read back from what the run took, and the shapes of a run's
// approvals and end. How an answer travels and where the taken one is read from is the engine's.

/**
 * Told once per call that waits for a person (never again on a replay, or after a worker's
 * restart, on this worker or another): where to notify someone. The engine runs it in a journaled
 * step `notify:<step>:<callId>`, after the call is listed by its `pendingApprovals`. A notifier
 * that throws is not retried: its error is journaled as the step's result and the run goes on
 * waiting. Each engine takes it as its port's `onApprovalRequested`.
 */
export type ApprovalNotifier = (item: PendingToolCall, run: { runId: string }) => void | Promise<void>;

/** A decision as the run took it: an approval, or a denial with its reason. */
export type TakenDecision =
  | { readonly approved: true }
  | { readonly approved: false; readonly reason?: string };

/**
 * What became of an answer (an engine's `answerApproval`):
 * - `"taken"`: this answer is the one the run took for the call (should its digests not match
 *   the waiting call, the run denied the call with a `run-state-mismatch` warning).
 * - `"duplicate"`: another answer was taken first; `decision` is that one's. This answer changed
 *   nothing (the tool does not run again, a denial does not undo an approval).
 * - `"expired"`: the run stopped waiting for the call (it ended, or its wait ran out) without
 *   taking this answer: nothing runs.
 * - `"accepted"`: the engine stored the answer for the run, and whether it is the one taken is not
 *   known yet (each engine's `answerApproval` says when it resolves so).
 */
export type ApprovalOutcome =
  | { readonly status: "taken"; readonly decision: TakenDecision }
  | { readonly status: "duplicate"; readonly decision: TakenDecision }
  | { readonly status: "expired" }
  | { readonly status: "accepted" };

/** How a run ended. */
export type RunOutcome<Output = unknown> =
  | { readonly status: "succeeded"; readonly output: Output }
  | { readonly status: "failed"; readonly message: string }
  | { readonly status: "cancelled" };

/**
 * What a run's approvals stand at (an engine's `approvalStatus` and `waitForApprovals`):
 * - `"unknown"`: the engine has no run with this id.
 * - `"running"`: the run goes on and nothing waits for a person (it has not asked yet, or its
 *   last question was answered).
 * - `"waiting"`: the run waits for a person's answer to these calls.
 * - `"finished"`: the run ended; `outcome` says how (its output, its error's message, or that it
 *   was cancelled).
 */
export type RunApprovals<Output = unknown> =
  | { readonly status: "unknown" }
  | { readonly status: "running" }
  | { readonly status: "waiting"; readonly pending: PendingToolCall[] }
  | { readonly status: "finished"; readonly outcome: RunOutcome<Output> };

/** How long an engine's `waitForApprovals` waits for a run to ask, and what stops it. */
export interface ApprovalWaitOptions {
  /**
   * How long to wait for the run to ask (or end); then it resolves with what the run stands at
   * (`"running"` when it still has not asked).
   * @default 60_000
   */
  readonly timeoutMs?: number;
  /** Stops waiting: the promise rejects with a `JunctionError` `aborted`. */
  readonly signal?: AbortSignal;
}

/** An answer as an engine sends it: the call's signal, its value tagged with an `answerId` of its own. */
export interface TaggedAnswer {
  /** The signal's name, `approval:<step>:<callId>`. */
  readonly name: string;
  /** The decision with the item's digests (`approvalSignalFor`) and `answerId`. */
  readonly value: ApprovalAnswer & { readonly answerId: string };
  /** Tells this answer from every other one sent for the call, once the run took one of them. */
  readonly answerId: string;
}

/**
 * The answer to send for a listed pending call: `approvalSignalFor(item, decision)`, whose value
 * carries the item's digests (so it counts only for the call as listed), tagged with a new
 * `answerId`, which the run keeps with the answer it takes; {@link takenOutcome} compares them.
 *
 * @throws JunctionError `invalid-argument` for a decision that is not `"approve"`, `"deny"` or `{ deny }`.
 */
export function taggedAnswer(item: PendingToolCall, decision: ResumeDecision): TaggedAnswer {
  const { name, value } = approvalSignalFor(item, decision);
  const answerId = globalThis.crypto.randomUUID();
  return { name, value: { ...value, answerId }, answerId };
}

/**
 * What became of the answer `answerId`, from the answer the run took for its call (as the engine
 * read it back): `"taken"` when it is that one, `"duplicate"` with the decision taken otherwise;
 * `undefined` when `taken` is not an answer at all (each engine says what that means). Pure.
 */
export function takenOutcome(
  taken: JSONValue | undefined,
  answerId: string,
): Extract<ApprovalOutcome, { status: "taken" | "duplicate" }> | undefined {
  if (taken === null || taken === undefined || typeof taken !== "object" || Array.isArray(taken)) {
    return undefined;
  }
  const decision: TakenDecision =
    taken.approved === true
      ? { approved: true }
      : { approved: false, ...(typeof taken.reason === "string" ? { reason: taken.reason } : {}) };
  return { status: taken.answerId === answerId ? "taken" : "duplicate", decision };
}

/**
 * The idempotency key every answer to one call shares by default (`<runId>:answer:<step>:<callId>`):
 * an engine that stores only the first send under a key keeps one answer per call, and a retried
 * request is the same answer.
 */
export function answerIdempotencyKey(runId: string, item: Pick<PendingToolCall, "step" | "id">): string {
  return `${runId}:answer:${item.step}:${item.id}`;
}

const ABORTED = "Stopped waiting for the run's approvals: the signal was aborted.";

/** @throws JunctionError `aborted` when `signal` has aborted. */
export function throwIfWaitAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw createAbortError(ABORTED, signal.reason);
}

/**
 * `promise`, or a rejection with the `aborted` error as soon as `signal` aborts (whatever
 * `promise` stands for ends on its own: by its own timeout, or by the same signal). A rejection
 * of `promise` after the abort is the abort error too.
 */
export function abortableWait<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(createAbortError(ABORTED, signal.reason));
    if (signal.aborted) {
      // The promise is not waited for: its failure, if any, is not this wait's.
      promise.catch(() => undefined);
      return onAbort();
    }
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(signal.aborted ? createAbortError(ABORTED, signal.reason) : error);
      },
    );
  });
}
