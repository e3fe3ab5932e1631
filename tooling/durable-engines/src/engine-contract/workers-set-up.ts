// What the engine contract's worker cases share: a model, files and workers of each test's own
// for the notes Agent's runs (and the code-mode ledger Agent's, which the same workers run), and
// the wait until the engine journaled a run's steps. Never imported by shipped code.
import { type NotesRun, notesRuns } from "@junction/durable-engines/agent-scenario";
import type { EngineAdapter, NotesWorkers } from "@junction/durable-engines/engine-contract/engine-adapter";
import { waitFor } from "@junction/durable-engines/processes";
import { afterAll, afterEach, expect } from "vitest";

/**
 * Waits until the engine journaled `steps` as finished for the run (at once on an engine that
 * journals a step before the code goes on), so a worker killed next is killed after them.
 */
export async function expectJournaled(
  { engine, workers }: { engine: EngineAdapter; workers: Pick<NotesWorkers, "journaledSteps"> },
  run: { runId: string; workflow?: "notes" | "failing-model" },
  steps: string[],
): Promise<string[]> {
  const read = () => workers.journaledSteps(run.runId, run.workflow);
  if (!engine.traits.journalsBeforeGoingOn) {
    await waitFor(
      async () => {
        const now = await read();
        return steps.every((step) => now.includes(step));
      },
      { timeoutMs: 15_000, what: `the engine to journal ${steps.join(", ")} for ${run.runId}` },
    );
  }
  const journaled = await read();
  expect(journaled).toEqual(expect.arrayContaining(steps));
  return journaled;
}

/**
 * For the tests of a describe block: a model, files and workers of each test's own for the notes
 * Agent's runs, from `current()`'s `notesWorkers` (an engine's own tests pass theirs, with what
 * only that engine has); killed and stopped after each test, the files removed after the block.
 */
export function notesSetUp<Workers extends NotesWorkers>(
  current: () => { notesWorkers(run: NotesRun): Promise<Workers> },
  prefix: string,
) {
  const runs = notesRuns(prefix);
  const closing: Array<() => Promise<void>> = [];
  afterEach(async () => {
    // The workers first (with the model), then what they were reached through.
    await runs.cleanUp();
    for (const close of closing.splice(0).reverse()) await close();
  });
  afterAll(() => runs.remove());
  return async (startModel?: Parameters<typeof runs.next>[0]) => {
    const run = await runs.next(startModel);
    const workers = await current().notesWorkers(run);
    closing.push(() => workers.close());
    /** Waits until the workers were told of `count` pending approvals in all. */
    const reachNotifications = (count: number, worker: { output(): string }) =>
      waitFor(() => run.events.notifications().length >= count, {
        timeoutMs: 20_000,
        what: `${count} approval notifications; worker output:\n${worker.output()}`,
      });
    /** The call waiting under `signal`, as listed. */
    const listed = async (runId: string, signal: string) => {
      const items = await workers.pendingApprovals(runId);
      const item = items.find((call) => `approval:${call.step}:${call.id}` === signal);
      if (!item) throw new Error(`${runId} lists no call for ${signal}: ${JSON.stringify(items)}`);
      return item;
    };
    return { ...run.events, model: run.model, files: run.files, workers, reachNotifications, listed };
  };
}
