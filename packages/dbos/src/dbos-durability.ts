import { DBOS } from "@dbos-inc/dbos-sdk";
import {
  approvalSignalFor,
  boundAnswer,
  type Durability,
  type JSONValue,
  type PendingToolCall,
} from "@junction/core";
import type { ApprovalNotifier } from "@junction/core/durable-runs";
import { errorMessage, JunctionError } from "@junction/types";
import { isSignalEnvelope } from "./signal-envelope.js";

/**
 * How long a wait without `timeoutMs` lasts: DBOS's `recv` waits 60 seconds unless told
 * otherwise, and an approval may come days later. The wait is a durable sleep, so a restart
 * does not start it again.
 */
const FOREVER_SECONDS = 365 * 24 * 60 * 60;

/** The DBOS event (`DBOS.setEvent`) a run publishes its waiting approvals under: read it with {@link pendingApprovals}. */
export const PENDING_APPROVALS_EVENT = "junction.pending-approvals";

/**
 * The DBOS stream (`DBOS.writeStream`) a run writes each published list of waiting approvals to,
 * in order, with the answers the run took for the previous list: what {@link waitForApprovals}
 * waits on and what {@link answerApproval} reads the taken answer from. It ends with the run.
 */
export const APPROVAL_ROUNDS_STREAM = "junction.approval-rounds";

/**
 * One entry of {@link APPROVAL_ROUNDS_STREAM}: the calls that wait from now on (`[]` once they were
 * all answered), and, on the entry that clears a list, the answer the run took for each of its
 * calls by signal name (`null`: none came before the wait ended).
 */
export interface ApprovalRound {
  readonly pending: PendingToolCall[];
  readonly answers?: Record<string, JSONValue>;
}

// Who is told of a waiting call is every engine's: `(item, { runId })`, run once in a journaled step.
export type { ApprovalNotifier };

/** Options of {@link dbosDurability}. */
export interface DBOSDurabilityOptions {
  /** Called once per pending approval, in a journaled step. */
  readonly onApprovalRequested?: ApprovalNotifier;
}

/**
 * The durability port on DBOS Transact, for the DBOS workflow that calls it: each `step` is a
 * `DBOS.runStep` named by its key (journaled in the workflow's system database; a recovered
 * workflow gets the step's recorded result, or its recorded error, without running it again),
 * and each `waitForSignal` is a `DBOS.recv` on the signal's name as the topic, answered by
 * {@link sendSignal} from any process. The run's id is the workflow's id. The calls of a step
 * that wait for a person are published as the workflow's event `junction.pending-approvals`
 * (`DBOS.setEvent`), which {@link pendingApprovals} reads from any process, and written to the
 * stream `junction.approval-rounds` (with the answers taken), which {@link waitForApprovals}
 * and {@link answerApproval} read; each is told to `onApprovalRequested` once. An approval that
 * comes without the digests of the call it answers is read as a denial (`boundAnswer` of
 * `@junction/core`): the run reports it with a `run-state-mismatch` warning.
 *
 * DBOS replays steps by their position in the workflow and checks each name: keys must come
 * in the same order on every replay, which the run loop's keys (`model:3`, `tool:3:<callId>`)
 * do. A step's body runs without DBOS's own retries, so a failure reaches the run loop. The run
 * loop journals its own steps' failures as data and rebuilds their class on a replay; a step of
 * your own that throws comes back on a replay as DBOS keeps it, an `Error` with the same name,
 * message and `code`.
 *
 * @example
 * ```ts
 * const review = DBOS.registerWorkflow(async (document: string) => {
 *   const durability = dbosDurability();
 *   const draft = await durability.step("draft", () => writeDraft(document));
 *   const approved = await durability.waitForSignal<boolean>("approval:draft");
 *   return approved ? draft : null;
 * }, { name: "review" });
 * ```
 * @throws JunctionError `invalid-argument` when called outside a DBOS workflow.
 */
export function dbosDurability(options: DBOSDurabilityOptions = {}): Durability {
  const runId = DBOS.workflowID;
  if (runId === undefined || !DBOS.isInWorkflow()) {
    throw new JunctionError(
      "invalid-argument",
      "dbosDurability() was called outside a DBOS workflow: call it inside a function registered with DBOS.registerWorkflow (or use dbosWorkflow), after DBOS.launch().",
    );
  }
  // The calls of the step that waits, by signal name, as the run listed them: an approval that
  // came without their digests does not count. Rebuilt on a replay, which publishes at the same
  // point.
  let listed = new Map<string, PendingToolCall>();
  // The raw answers taken for `listed` (answerId included), for the stream entry that clears it.
  const taken = new Map<string, JSONValue>();
  return {
    runId,
    // DBOS numbers a workflow's operations in the order they start, and a replay must repeat it.
    ordered: true,
    step: <T extends JSONValue>(key: string, run: () => Promise<T>) => DBOS.runStep(run, { name: key }),
    waitForSignal: async <T extends JSONValue>(name: string, options?: { timeoutMs?: number }) => {
      const timeoutSeconds = options?.timeoutMs === undefined ? FOREVER_SECONDS : options.timeoutMs / 1000;
      const message = await DBOS.recv<unknown>(name, { timeoutSeconds });
      if (!isSignalEnvelope(message)) return undefined;
      const item = listed.get(name);
      if (item === undefined) return message.value as T;
      const bound = boundAnswer(item, message.value);
      // As the run reads it: an approval without the call's digests is taken as the denial it makes.
      taken.set(name, bound);
      return bound as T;
    },
    publishPending: async (pending) => {
      await DBOS.setEvent(PENDING_APPROVALS_EVENT, pending);
      const answers: Record<string, JSONValue> = {};
      for (const name of listed.keys()) answers[name] = taken.get(name) ?? null;
      const round: ApprovalRound = pending.length === 0 ? { pending, answers } : { pending };
      await DBOS.writeStream(APPROVAL_ROUNDS_STREAM, round as unknown as JSONValue);
      listed = new Map(pending.map((item) => [approvalSignalFor(item, "deny").name, item]));
      taken.clear();
      const notify = options.onApprovalRequested;
      if (!notify) return;
      for (const item of pending) {
        await DBOS.runStep(
          async () => {
            try {
              await notify(item, { runId });
              return { notified: true };
            } catch (error) {
              // A notification that failed must not fail the run, which still waits for the answer.
              return { notified: false, error: errorMessage(error) };
            }
          },
          { name: `notify:${item.step}:${item.id}` },
        );
      }
    },
  };
}
