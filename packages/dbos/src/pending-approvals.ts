import type { DBOSClient } from "@dbos-inc/dbos-sdk";
import { approvalSignalFor, type PendingToolCall, type ResumeDecision } from "@junction/core";
import { PENDING_APPROVALS_EVENT } from "./dbos-durability.js";
import { type DBOSMessageSender, sendSignal } from "./send-signal.js";

/** Options of {@link pendingApprovals}. */
export interface PendingApprovalsOptions {
  /** `DBOSClient.create({ systemDatabaseUrl })`, from any process. */
  readonly client: Pick<DBOSClient, "getEvent" | "getWorkflow">;
  /** The run's id: the DBOS workflow id the run was started with. */
  readonly runId: string;
}

/** The statuses of a run that may still take an answer. */
const WAITING = new Set(["PENDING", "ENQUEUED"]);

/**
 * The calls of a run that wait for a person, from any process that can reach the system
 * database, whether or not a worker runs the run: what the run published when its step's
 * approval waits began (call id, tool, source, validated arguments, reason, step, digests).
 * Empty when nothing waits: the waits were answered, or the run ended (or never started).
 * Answer an item with {@link answerApproval}.
 *
 * @example
 * ```ts
 * const client = await DBOSClient.create({ systemDatabaseUrl: process.env.DBOS_SYSTEM_DATABASE_URL! });
 * for (const item of await pendingApprovals({ client, runId: "run-42" })) console.log(item.name, item.input);
 * ```
 */
export async function pendingApprovals(options: PendingApprovalsOptions): Promise<PendingToolCall[]> {
  const status = await options.client.getWorkflow(options.runId);
  if (!status || !WAITING.has(status.status)) return [];
  const listed = await options.client.getEvent<PendingToolCall[]>(options.runId, PENDING_APPROVALS_EVENT, {
    timeoutSeconds: 0,
  });
  return listed ?? [];
}

/** Options of {@link answerApproval}. */
export interface AnswerApprovalOptions {
  /** `DBOSClient.create({ systemDatabaseUrl })` from any process, or `DBOS` where it is launched. */
  readonly sender: DBOSMessageSender;
  /** The run's id. */
  readonly runId: string;
  /** The call as {@link pendingApprovals} listed it. */
  readonly item: PendingToolCall;
  /** `"approve"`, `"deny"` or `{ deny: reason }` (the model gets the reason). */
  readonly decision: ResumeDecision;
  /** Makes a retried send one send (see {@link sendSignal}). */
  readonly idempotencyKey?: string;
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
 * const [item] = await pendingApprovals({ client, runId: "run-42" });
 * await answerApproval({ sender: client, runId: "run-42", item, decision: "approve" });
 * ```
 */
export async function answerApproval(options: AnswerApprovalOptions): Promise<void> {
  const { name, value } = approvalSignalFor(options.item, options.decision);
  await sendSignal({
    sender: options.sender,
    runId: options.runId,
    name,
    value,
    ...(options.idempotencyKey !== undefined ? { idempotencyKey: options.idempotencyKey } : {}),
  });
}
