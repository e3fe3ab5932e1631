import { approvalSignalFor, type PendingToolCall, type ResumeDecision } from "@junction/core";
import { HttpCallError, type Ingress } from "@restatedev/restate-sdk-clients";
import { type SendSignalOptions, sendSignal } from "./send-signal.js";

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
};

/** What the ingress answers for the output of a workflow that was cancelled. */
const CANCELLED = 409;

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

/** Options of {@link answerApproval}. */
export interface AnswerApprovalOptions extends Omit<SendSignalOptions, "name" | "value"> {
  /** The call as {@link pendingApprovals} listed it. */
  readonly item: PendingToolCall;
  /** `"approve"`, `"deny"` or `{ deny: reason }` (the model gets the reason). */
  readonly decision: ResumeDecision;
}

/**
 * Answers a listed pending call: sends its signal (`approval:<step>:<callId>`) with the decision
 * and the item's tool and arguments digests, so the answer counts only for the call as it was
 * listed. Should the waiting call's tool or arguments differ (the list was edited, or the item is
 * another run's), the run denies the call with a `run-state-mismatch` warning instead of running
 * it.
 *
 * @example
 * ```ts
 * const [item] = await pendingApprovals({ ingress, workflow: "assistant", runId: "run-42" });
 * await answerApproval({ ingress, workflow: "assistant", runId: "run-42", item, decision: "approve" });
 * ```
 */
export async function answerApproval(options: AnswerApprovalOptions): Promise<void> {
  const { item, decision, ...target } = options;
  const { name, value } = approvalSignalFor(item, decision);
  await sendSignal({ ...target, name, value });
}
