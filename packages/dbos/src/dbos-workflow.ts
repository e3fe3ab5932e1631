import { DBOS, type WorkflowHandle } from "@dbos-inc/dbos-sdk";
import type { Durability, JSONValue } from "@junction/core";
import { type DBOSDurabilityOptions, dbosDurability } from "./dbos-durability.js";

/** A durable function registered with DBOS by {@link dbosWorkflow}. */
export interface DBOSWorkflow<Input, Output> {
  /** The DBOS workflow's name, the same in every process that runs it. */
  readonly name: string;
  /**
   * Starts a run in the background. With the same `runId` again (a retried request, another
   * process) DBOS does not start a second run: the handle is the existing run's.
   */
  start(input: Input, options?: { runId?: string }): Promise<WorkflowHandle<Output>>;
  /** The registered DBOS workflow, for DBOS's own APIs (queues, `DBOS.startWorkflow` options). */
  readonly workflow: (input: Input) => Promise<Output>;
}

/**
 * Registers `run` as the DBOS workflow `name`, called with the {@link dbosDurability} port of
 * its run (made with `options`: `onApprovalRequested`): the way to run a Junction run (or any function written against the port) durably
 * on DBOS. Register before `DBOS.launch()`, in every process that may run or recover it; on
 * launch DBOS recovers this process's unfinished runs, replaying finished steps from the
 * journal.
 *
 * @example
 * ```ts
 * const review = dbosWorkflow("review", async (durability, document: string) => {
 *   const draft = await durability.step("draft", () => writeDraft(document));
 *   const decision = await durability.waitForSignal<{ approved: boolean }>("approval:draft");
 *   return decision?.approved ? draft : "rejected";
 * });
 * DBOS.setConfig({ name: "reviews", systemDatabaseUrl: process.env.DBOS_SYSTEM_DATABASE_URL });
 * await DBOS.launch();
 * const handle = await review.start("report.md", { runId: "review-42" });
 * console.log(await handle.getResult());
 * ```
 */
export function dbosWorkflow<Input extends JSONValue, Output extends JSONValue>(
  name: string,
  run: (durability: Durability, input: Input) => Promise<Output>,
  options: DBOSDurabilityOptions = {},
): DBOSWorkflow<Input, Output> {
  const workflow = DBOS.registerWorkflow((input: Input) => run(dbosDurability(options), input), { name });
  return {
    name,
    workflow,
    start: (input, options) => DBOS.startWorkflow(workflow, { workflowID: options?.runId })(input),
  };
}
