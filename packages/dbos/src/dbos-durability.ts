import { DBOS } from "@dbos-inc/dbos-sdk";
import type { Durability, JSONValue } from "@junction/core";
import { JunctionError } from "@junction/types";
import { isSignalEnvelope } from "./signal-envelope.js";

/**
 * How long a wait without `timeoutMs` lasts: DBOS's `recv` waits 60 seconds unless told
 * otherwise, and an approval may come days later. The wait is a durable sleep, so a restart
 * does not start it again.
 */
const FOREVER_SECONDS = 365 * 24 * 60 * 60;

/**
 * The durability port on DBOS Transact, for the DBOS workflow that calls it: each `step` is a
 * `DBOS.runStep` named by its key (journaled in the workflow's system database; a recovered
 * workflow gets the step's recorded result, or its recorded error, without running it again),
 * and each `waitForSignal` is a `DBOS.recv` on the signal's name as the topic, answered by
 * {@link sendSignal} from any process. The run's id is the workflow's id.
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
export function dbosDurability(): Durability {
  const runId = DBOS.workflowID;
  if (runId === undefined || !DBOS.isInWorkflow()) {
    throw new JunctionError(
      "invalid-argument",
      "dbosDurability() was called outside a DBOS workflow: call it inside a function registered with DBOS.registerWorkflow (or use dbosWorkflow), after DBOS.launch().",
    );
  }
  return {
    runId,
    // DBOS numbers a workflow's operations in the order they start, and a replay must repeat it.
    ordered: true,
    step: <T extends JSONValue>(key: string, run: () => Promise<T>) => DBOS.runStep(run, { name: key }),
    waitForSignal: async <T extends JSONValue>(name: string, options?: { timeoutMs?: number }) => {
      const timeoutSeconds = options?.timeoutMs === undefined ? FOREVER_SECONDS : options.timeoutMs / 1000;
      const message = await DBOS.recv<unknown>(name, { timeoutSeconds });
      return isSignalEnvelope(message) ? (message.value as T) : undefined;
    },
  };
}
