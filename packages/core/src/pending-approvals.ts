import { JunctionError } from "@junction/types";
import type { JSONValue } from "./durability.js";
import type { PendingToolCall } from "./pending-tool-call.js";
import { type ApprovalAnswer, approvalSignal } from "./run-journal.js";
import type { ResumeDecision } from "./run-state.js";

// A listed pending call and a person's answer to it: the answer carries the item's digests, and
// the run lets it count only for that tool and those arguments.

/**
 * The key of a pending call's answer, everywhere an answer is filed: the signal a run waits for
 * (in process, on DBOS and Restate) and the input-request key a served agent's client answers
 * under (elicitation, `input_required`, a task's input request): `approval:<step>:<callId>`.
 */
export function approvalKey(item: Pick<PendingToolCall, "step" | "id">): string {
  return approvalSignal(item.step, item.id);
}

/**
 * The signal that answers a listed pending call with `decision`: its name
 * (`approval:<step>:<callId>`) and its value, which carries the item's digests, so the run
 * refuses the answer (the call is denied, with a `run-state-mismatch` warning) when the call's
 * tool or arguments are not the ones the item showed. What the engines' approval helpers send.
 *
 * @example
 * ```ts
 * const [item] = await pendingApprovals({ client, runId });
 * const { name, value } = approvalSignalFor(item, "approve");
 * ```
 */
export function approvalSignalFor(
  item: PendingToolCall,
  decision: ResumeDecision,
): { name: string; value: ApprovalAnswer } {
  const digests = {
    ...(item.toolDigest !== undefined ? { toolDigest: item.toolDigest } : {}),
    ...(item.argumentsDigest !== undefined ? { argumentsDigest: item.argumentsDigest } : {}),
  };
  const name = approvalKey(item);
  if (decision === "approve") return { name, value: { approved: true, ...digests } };
  if (decision === "deny") return { name, value: { approved: false, ...digests } };
  if (typeof decision === "object" && decision !== null && typeof decision.deny === "string") {
    return { name, value: { approved: false, reason: decision.deny, ...digests } };
  }
  throw new JunctionError(
    "invalid-argument",
    `The decision for "${item.id}" must be "approve", "deny" or { deny: "reason" }, got ${JSON.stringify(decision)}.`,
  );
}

/**
 * What stands for a digest an answer came without (see {@link boundAnswer}): never a SHA-256 hex
 * digest, so it matches no call.
 */
const MISSING_DIGEST = "missing";

/**
 * An approval answer that came from outside the run (an engine's signal, sent by any process) as
 * the run must read it: unchanged when it carries every digest the waiting call has, or when it
 * denies; an approval without one of them becomes a denial that {@link answerMismatch} names (a
 * `run-state-mismatch` warning: "the answer carried no arguments digest"). A hand-built
 * `{ approved: true }` is bound to nothing but the signal's name, so it must not run a call
 * that was listed with digests. What the engines' ports apply to each approval signal they
 * receive; in-process answers (the event's `approve()`, `resume()`'s decisions) are bound to the
 * call by construction and do not go through it.
 *
 * @example
 * ```ts
 * const value = boundAnswer(listedItem, await receive(approvalSignal(listedItem.step, listedItem.id)));
 * ```
 */
export function boundAnswer(pending: PendingToolCall, value: JSONValue): JSONValue {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  if (value.approved !== true) return value;
  const toolMissing = pending.toolDigest !== undefined && typeof value.toolDigest !== "string";
  const argumentsMissing = pending.argumentsDigest !== undefined && typeof value.argumentsDigest !== "string";
  if (!toolMissing && !argumentsMissing) return value;
  return {
    approved: false,
    ...(toolMissing
      ? { toolDigest: MISSING_DIGEST }
      : typeof value.toolDigest === "string"
        ? { toolDigest: value.toolDigest }
        : {}),
    ...(argumentsMissing
      ? { argumentsDigest: MISSING_DIGEST }
      : typeof value.argumentsDigest === "string"
        ? { argumentsDigest: value.argumentsDigest }
        : {}),
  };
}

/**
 * Why an answer must not count for `pending`: it was given for another tool or other arguments
 * than the call waits with (the answer's digests, where it has them, differ), or it came from
 * outside the run without the digests the call was listed with ({@link boundAnswer}).
 * `undefined` when it may count.
 */
export function answerMismatch(pending: PendingToolCall, answer: ApprovalAnswer): string | undefined {
  const missing = [
    ...(answer.toolDigest === MISSING_DIGEST ? ["tool digest"] : []),
    ...(answer.argumentsDigest === MISSING_DIGEST ? ["arguments digest"] : []),
  ];
  if (missing.length > 0) {
    return `the answer carried no ${missing.join(" and no ")} (it was not given for the call as listed: answer with answerApproval and an item of pendingApprovals), so it was not run`;
  }
  if (answer.toolDigest !== undefined && answer.toolDigest !== pending.toolDigest) {
    return `the tool "${pending.name}" changed since the call was listed for approval, so it was not run`;
  }
  if (answer.argumentsDigest !== undefined && answer.argumentsDigest !== pending.argumentsDigest) {
    return "its arguments changed since the call was listed for approval, so it was not run";
  }
  return undefined;
}
