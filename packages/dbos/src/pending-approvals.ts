import { type DBOSClient, Error as DBOSErrors } from "@dbos-inc/dbos-sdk";
import type { PendingToolCall, ResumeDecision } from "@junction/core";
import {
  type ApprovalOutcome,
  type ApprovalWaitOptions,
  abortableWait,
  answerIdempotencyKey,
  type RunApprovals,
  taggedAnswer,
  takenOutcome,
  throwIfWaitAborted,
} from "@junction/core/durable-runs";
import { errorMessage, JunctionError } from "@junction/types";
import { APPROVAL_ROUNDS_STREAM, type ApprovalRound, PENDING_APPROVALS_EVENT } from "./dbos-durability.js";
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
/** DBOS statuses of a workflow that has not ended. */
const GOING = new Set(["PENDING", "ENQUEUED", "DELAYED"]);

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

// What a run's approvals stand at, how it ended, and what became of an answer mean the same on
// every engine: `@junction/core/durable-runs` declares them.
export type {
  ApprovalOutcome,
  RunApprovals,
  RunOutcome,
  TakenDecision,
} from "@junction/core/durable-runs";

/** What {@link approvalStatus} and {@link waitForApprovals} read with: a `DBOSClient`. */
export type DBOSApprovalsReader = Pick<DBOSClient, "getEvent" | "getWorkflow" | "readStreamOffset">;

/** Options of {@link approvalStatus}. */
export interface ApprovalStatusOptions {
  /** `DBOSClient.create({ systemDatabaseUrl })`, from any process. */
  readonly client: Pick<DBOSClient, "getEvent" | "getWorkflow">;
  /** The run's id: the DBOS workflow id the run was started with. */
  readonly runId: string;
}

/**
 * Where a run's approvals stand, read once from any process that reaches the system database:
 * `"unknown"` (no run has this id on this system database), `"running"` (nothing waits),
 * `"waiting"` with the calls, or `"finished"` with the run's outcome (its output, its error's
 * message, or that it was cancelled). To wait until that changes, use {@link waitForApprovals}.
 *
 * @example
 * ```ts
 * const now = await approvalStatus({ client, runId: "run-42" });
 * if (now.status === "waiting") console.log(now.pending.map((item) => item.name));
 * ```
 */
export async function approvalStatus<Output = unknown>(
  options: ApprovalStatusOptions,
): Promise<RunApprovals<Output>> {
  const { client, runId } = options;
  const workflow = await client.getWorkflow(runId);
  if (!workflow) return { status: "unknown" };
  if (GOING.has(workflow.status)) {
    const listed = await client.getEvent<PendingToolCall[]>(runId, PENDING_APPROVALS_EVENT, {
      timeoutSeconds: 0,
    });
    if (!listed || listed.length === 0) return { status: "running" };
    // Read again: a run cancelled meanwhile takes no answer.
    const still = await client.getWorkflow(runId);
    if (still && WAITING.has(still.status)) return { status: "waiting", pending: listed };
    if (still && GOING.has(still.status)) return { status: "running" };
    // It ended meanwhile (an ended status is final): read how.
    return approvalStatus(options);
  }
  switch (workflow.status) {
    case "SUCCESS":
      return { status: "finished", outcome: { status: "succeeded", output: workflow.output as Output } };
    case "CANCELLED":
      return { status: "finished", outcome: { status: "cancelled" } };
    default:
      // ERROR, MAX_RECOVERY_ATTEMPTS_EXCEEDED, and any status a later DBOS adds.
      return {
        status: "finished",
        outcome: {
          status: "failed",
          message:
            workflow.error === undefined
              ? `The run ended with the DBOS status ${workflow.status}.`
              : errorMessage(workflow.error),
        },
      };
  }
}

/** Options of {@link waitForApprovals}: the run, and how long to wait (`timeoutMs`, `signal`). */
export interface WaitForApprovalsOptions extends ApprovalWaitOptions {
  /** `DBOSClient.create({ systemDatabaseUrl })`, from any process. */
  readonly client: DBOSApprovalsReader;
  /** The run's id: the DBOS workflow id the run was started with. */
  readonly runId: string;
}

/** How long one stream read waits before the deadline and the abort signal are looked at again. */
const READ_SLICE_MS = 5_000;

/**
 * Waits until the run asks a person something or ends, from any process that reaches the system
 * database: it resolves with `"waiting"` and the calls once the run published them (at once when
 * they wait already), with `"finished"` and its outcome once it ended, `"unknown"` for an id no
 * run has, and `"running"` when `timeoutMs` passed with nothing asked. It waits on the run's DBOS
 * stream (`DBOS.readStreamOffset`, woken by PostgreSQL notifications), not by polling the list.
 *
 * @example
 * ```ts
 * await assistant.start({ input: "Note: buy milk" }, { runId: "run-42" });
 * const asked = await waitForApprovals({ client, runId: "run-42", timeoutMs: 30_000 });
 * if (asked.status === "waiting") for (const item of asked.pending) await answerApproval({ sender: client, runId: "run-42", item, decision: "approve" });
 * ```
 * @throws JunctionError `aborted` when `signal` aborts.
 */
export async function waitForApprovals<Output = unknown>(
  options: WaitForApprovalsOptions,
): Promise<RunApprovals<Output>> {
  const { client, runId, signal } = options;
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  const now = await approvalStatus<Output>({ client, runId });
  if (now.status !== "running") return now;
  for await (const round of readRounds({ client, runId, deadline, ...(signal ? { signal } : {}) })) {
    // An entry that lists calls: they wait, unless they were answered since (history read back).
    if (round.pending.length === 0) continue;
    const then = await approvalStatus<Output>({ client, runId });
    if (then.status !== "running") return then;
  }
  return approvalStatus<Output>({ client, runId });
}

/**
 * The run's approval rounds in order, from the first, each as soon as the run writes it; ends
 * with the run, or at `deadline`. Reads the stream in slices so the deadline and the abort
 * signal are honoured.
 */
async function* readRounds(parts: {
  client: Pick<DBOSClient, "getWorkflow" | "readStreamOffset">;
  runId: string;
  deadline: number;
  signal?: AbortSignal;
}): AsyncGenerator<ApprovalRound> {
  const { client, runId, deadline, signal } = parts;
  for (let offset = 0; ; ) {
    throwIfWaitAborted(signal);
    const remaining = deadline - Date.now();
    if (remaining <= 0) return;
    try {
      const read = client.readStreamOffset<ApprovalRound>(runId, APPROVAL_ROUNDS_STREAM, offset, {
        timeoutSeconds: Math.min(remaining, READ_SLICE_MS) / 1000,
      });
      yield await abortableWait(read, signal);
      offset += 1;
    } catch (error) {
      if (!DBOSErrors.isStreamTimeoutError(error)) throw error;
      // A timeout, or the stream ended with the run.
      const workflow = await client.getWorkflow(runId);
      if (!workflow || !GOING.has(workflow.status)) return;
    }
  }
}

/** Options of {@link answerApproval}. */
export interface AnswerApprovalOptions {
  /**
   * `DBOSClient.create({ systemDatabaseUrl })` from any process. (`DBOS`, where it is launched,
   * sends too, with `until: "accepted"`.)
   */
  readonly sender: DBOSMessageSender & Partial<Pick<DBOSClient, "getWorkflow" | "readStreamOffset">>;
  /** The run's id. */
  readonly runId: string;
  /** The call as {@link pendingApprovals} listed it. */
  readonly item: PendingToolCall;
  /** `"approve"`, `"deny"` or `{ deny: reason }` (the model gets the reason). */
  readonly decision: ResumeDecision;
  /**
   * When to resolve: `"decided"` once the run took an answer for the call (this one or another:
   * the outcome says; the run tells the answers of one step together, so with several calls
   * waiting in a step, once each has one), `"accepted"` once the answer is stored (no worker
   * needed).
   * @default "decided"
   */
  readonly until?: "accepted" | "decided";
  /**
   * With `until: "decided"`, how long to wait for the run to take an answer before resolving
   * with `"accepted"`.
   * @default 60_000
   */
  readonly timeoutMs?: number;
  /** Stops waiting for the decision (the answer is stored already): rejects with `aborted`. */
  readonly signal?: AbortSignal;
  /**
   * The DBOS idempotency key of the send. Every answer to one call shares one by default, so
   * DBOS stores only the first of them: the others are dropped and get the first one's outcome.
   * @default `${runId}:answer:${item.step}:${item.id}`
   */
  readonly idempotencyKey?: string;
}

/**
 * Answers a listed pending call: sends its signal (`approval:<step>:<callId>`) with the decision
 * and the item's tool and arguments digests, so the answer counts only for the call as it was
 * listed. Should the waiting call's tool or arguments differ (the list was edited, or the item is
 * another run's), the run denies the call with a `run-state-mismatch` warning instead of running
 * it.
 *
 * An answer counts once: every answer to one call is sent with one DBOS idempotency key, so DBOS
 * keeps the first one stored and drops the others (eight answers at once, from eight processes,
 * are one answer); the run takes that one. The outcome says which happened to this answer:
 * `"taken"`, or `"duplicate"` with the decision that was taken instead. It is `"expired"` when the
 * run stopped waiting for the call (its `approvalTimeoutMs` ran out, or it ended) without taking
 * an answer, and `"accepted"` when the answer is stored for the run but not yet taken: with
 * `until: "accepted"`, or when `timeoutMs` passed before the run took an answer (no worker runs it
 * now); whether it counts is decided when the run takes the first answer stored for the call.
 *
 * @example
 * ```ts
 * const [item] = await pendingApprovals({ client, runId: "run-42" });
 * const outcome = await answerApproval({ sender: client, runId: "run-42", item, decision: "approve" });
 * if (outcome.status === "duplicate") console.log("already decided:", outcome.decision);
 * ```
 * @throws JunctionError `invalid-argument` for `until: "decided"` with a sender that cannot read the run (pass a `DBOSClient`).
 */
export async function answerApproval(options: AnswerApprovalOptions): Promise<ApprovalOutcome> {
  const { sender, runId, item } = options;
  const until = options.until ?? "decided";
  if (
    until === "decided" &&
    (typeof sender.readStreamOffset !== "function" || typeof sender.getWorkflow !== "function")
  ) {
    throw new JunctionError(
      "invalid-argument",
      'answerApproval with until: "decided" reads the run\'s decision: pass a DBOSClient as `sender`, or until: "accepted".',
    );
  }
  const { name, value, answerId } = taggedAnswer(item, options.decision);
  await sendSignal({
    sender,
    runId,
    name,
    value,
    idempotencyKey: options.idempotencyKey ?? answerIdempotencyKey(runId, item),
  });
  if (until === "accepted") return { status: "accepted" };
  const reader = sender as Pick<DBOSClient, "getWorkflow" | "readStreamOffset">;
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  const rounds = readRounds({
    client: reader,
    runId,
    deadline,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  for await (const round of rounds) {
    if (!round.answers || !Object.hasOwn(round.answers, name)) continue;
    // `null`: the wait ended with no answer taken for the call.
    return takenOutcome(round.answers[name], answerId) ?? { status: "expired" };
  }
  const workflow = await reader.getWorkflow(runId);
  return workflow && GOING.has(workflow.status) ? { status: "accepted" } : { status: "expired" };
}
