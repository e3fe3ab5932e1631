import {
  approvalSignalFor,
  boundAnswer,
  type Durability,
  type JSONValue,
  type PendingToolCall,
} from "@junction/core";
import type { ApprovalNotifier } from "@junction/core/durable-runs";
import { errorMessage } from "@junction/types";
import {
  CancelledError,
  type RestatePromise,
  TerminalError,
  TimeoutError,
  type WorkflowContext,
} from "@restatedev/restate-sdk";
import { createRestateDriver } from "./restate-driver.js";

/** The workflow state key a run publishes its waiting approvals under: read it with {@link pendingApprovals}. */
export const PENDING_APPROVALS_STATE = "junction.pending-approvals";

/**
 * The workflow state key under which a run counts the lists of waiting approvals it published
 * (1 for its first question, 2 for the next): what {@link restateAwaitPendingHandler} waits past.
 */
export const APPROVAL_ROUND_STATE = "junction.approval-round";

/** The durable promise a run resolves when it publishes its `round`-th list of waiting approvals. */
export const askedPromise = (round: number): string => `junction.asked:${round}`;

// Who is told of a waiting call is every engine's: `(item, { runId })`, run once in a journaled step.
export type { ApprovalNotifier };

/** Options of {@link restateDurability}. */
export interface RestateDurabilityOptions {
  /** Called once per pending approval, in a journaled step. */
  readonly onApprovalRequested?: ApprovalNotifier;
}

/**
 * The durability port on Restate, for the workflow invocation whose context it is given: each
 * `step` is a `ctx.run` named by its key (journaled by the Restate server; a replay gets the
 * result, or the failure, without running it again), and each `waitForSignal` awaits the
 * workflow's durable promise of the signal's name, which {@link sendSignal} resolves through
 * the workflow's `signal` handler from any process. The run's id is the workflow's key. The calls
 * of a step that wait for a person are kept in the workflow's state
 * (`junction.pending-approvals`), which the `pending` handler ({@link restatePendingHandler})
 * serves to {@link pendingApprovals} from any process, and each is told to `onApprovalRequested`
 * once. Each new list also resolves the durable promise `junction.asked:<round>` of its round (counted
 * under `junction.approval-round`), which the `awaitPending` handler waits on. An approval that
 * comes without the digests of the call it answers is read as a denial (`boundAnswer` of
 * `@junction/core`): the run reports it with a `run-state-mismatch` warning.
 *
 * Steps and waits may be awaited concurrently (`Promise.all`), as the run loop does with the
 * tool calls of one model step: one driver awaits them all through a `RestatePromise.race`,
 * which the Restate SDK needs (two of its promises awaited at once fail). An operation started
 * while the others are all waiting for signals, after an await that is not itself a step (I/O
 * outside the journal), starts only when one of them settles: start what runs alongside an
 * approval wait without such awaits in between.
 *
 * Make one port per invocation, and await the invocation's Restate operations only through
 * it.
 *
 * A step that throws is journaled as a failure (a `TerminalError` with the same message, and
 * the error's `code` in its metadata) instead of being retried by Restate, so the run
 * sees the failure, on the first run and on every replay alike. The Agent's run loop does not
 * rely on it: it journals its own steps' failures as data and rebuilds their class (a
 * `ProviderError` with its status) on a replay. A crash while a step runs is
 * different: Restate retries the invocation and the step's body runs again (at least once).
 *
 * @example
 * ```ts
 * const review = restate.workflow({
 *   name: "review",
 *   handlers: {
 *     run: async (ctx: restate.WorkflowContext, document: string) => {
 *       const durability = restateDurability(ctx);
 *       const draft = await durability.step("draft", () => writeDraft(document));
 *       return (await durability.waitForSignal<boolean>("approval:draft")) ? draft : null;
 *     },
 *     signal: restateSignalHandler,
 *   },
 * });
 * ```
 */
export function restateDurability(ctx: WorkflowContext, options: RestateDurabilityOptions = {}): Durability {
  const driven = createRestateDriver();
  const notify = options.onApprovalRequested;
  // The calls of the step that waits, by signal name, as listed: an approval that came without
  // their digests does not count. Rebuilt on a replay, which publishes at the same point.
  let listed = new Map<string, PendingToolCall>();
  // How many lists of waiting calls this run published: the same on every replay.
  let rounds = 0;
  return {
    runId: ctx.key,
    // Restate matches a replay's operations by the order they started.
    ordered: true,
    step: <T extends JSONValue>(key: string, run: () => Promise<T>) =>
      driven(
        ctx.run(key, async () => {
          try {
            return await run();
          } catch (error) {
            throw toTerminalError(error);
          }
        }),
      ),
    waitForSignal: async <T extends JSONValue>(name: string, options?: { timeoutMs?: number }) => {
      const signal = ctx.promise<T>(name).get();
      const value =
        options?.timeoutMs === undefined
          ? await driven(signal)
          : await driven(
              signal.orTimeout(options.timeoutMs).map((value?: T, failure?: TerminalError) => {
                if (failure instanceof TimeoutError) return undefined;
                if (failure !== undefined) throw failure;
                return value;
              }),
            );
      const item = listed.get(name);
      return value === undefined || item === undefined ? value : (boundAnswer(item, value) as T);
    },
    publishPending: async (pending) => {
      ctx.set(PENDING_APPROVALS_STATE, pending);
      listed = new Map(pending.map((item) => [approvalSignalFor(item, "deny").name, item]));
      if (pending.length > 0) {
        // Wakes whoever waits for this run's next question (waitForApprovals).
        rounds += 1;
        ctx.set(APPROVAL_ROUND_STATE, rounds);
        try {
          await driven(
            ctx.promise<boolean>(askedPromise(rounds)).resolve(true) as unknown as RestatePromise<void>,
          );
        } catch (error) {
          // Resolved already (the signal handler refuses these names, so only by a replay's twin):
          // the waiters were woken. A cancellation is a TerminalError too, and it ends the run.
          if (!(error instanceof TerminalError) || error instanceof CancelledError) throw error;
        }
      }
      if (!notify) return;
      for (const item of pending) {
        await driven(
          ctx.run(`notify:${item.step}:${item.id}`, async () => {
            try {
              await notify(item, { runId: ctx.key });
              return { notified: true };
            } catch (error) {
              // A notification that failed must not fail the run, which still waits for the answer.
              return { notified: false, error: errorMessage(error) };
            }
          }),
        );
      }
    },
  };
}

/** The failure as Restate journals it: the message, and a `code` (a `JunctionError`'s) as metadata. */
function toTerminalError(error: unknown): TerminalError {
  if (error instanceof TerminalError) return error;
  const message = errorMessage(error);
  const code = (error as { code?: unknown } | null)?.code;
  return new TerminalError(message, typeof code === "string" ? { metadata: { code } } : undefined);
}
