import { JunctionError } from "@junction/types";
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
 * Why an answer must not count for `pending`: it was given for another tool or other arguments
 * than the call waits with (the answer's digests, where it has them, differ). `undefined` when it
 * may count.
 */
export function answerMismatch(pending: PendingToolCall, answer: ApprovalAnswer): string | undefined {
  if (answer.toolDigest !== undefined && answer.toolDigest !== pending.toolDigest) {
    return `the tool "${pending.name}" changed since the call was listed for approval, so it was not run`;
  }
  if (answer.argumentsDigest !== undefined && answer.argumentsDigest !== pending.argumentsDigest) {
    return "its arguments changed since the call was listed for approval, so it was not run";
  }
  return undefined;
}
