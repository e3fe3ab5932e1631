import { notesRun, toolResultsPerRequest } from "@junction/durable-engines/agent-scenario";
import { notesSetUp } from "@junction/durable-engines/engine-contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DBOSForWorkers, startDBOSForWorkers } from "../test/dbos-engine.js";

// What only DBOS does with several machines (the engine contract in test/ runs the rest): the
// notes Agent's runs in two worker processes, each an executor holding its lease, and a worker
// lost for good whose runs `recoverRunsOf` hands to the other, answered from a process of its own
// (test/workers/approvals.ts) with only the system database's URL.

let engine: DBOSForWorkers | undefined;
beforeAll(async () => {
  engine = await startDBOSForWorkers();
});
afterAll(async () => {
  await engine?.stop();
});
const setUp = notesSetUp(() => {
  if (!engine) throw new Error("PostgreSQL was not started: see the error of beforeAll.");
  return engine;
}, "junction-dbos-recovery-");

describe("a lost DBOS executor's runs, taken over", () => {
  it("two workers, one SIGKILLed for good while its runs wait: recoverRunsOf hands them to the other, which finishes them after approvals from another process, each model step and tool call once, no approval asked twice", async () => {
    const { model, workers, reachNotifications, reachReady, calls, notifications } = await setUp();
    // The first worker makes DBOS's tables (DBOS's launch does not make them concurrently); the
    // second starts while the first one's runs go on.
    const lost = await workers.start({ runs: ["lost-1", "lost-2"], env: { EXECUTOR_ID: "worker-a" } });
    await reachReady("worker-a", lost);
    const survivor = await workers.start({ env: { EXECUTOR_ID: "worker-b" } });
    await reachReady("worker-b", survivor);
    await reachNotifications(2, lost);
    const listed = await workers.fromApprover("list", ["lost-1", "lost-2"]);
    expect(Object.values(listed).map((items) => items.length)).toEqual([1, 1]);
    await lost.kill();
    expect(model.requests).toHaveLength(2);

    // A live worker's runs are never taken over: worker-b holds its lease.
    expect(await workers.recover("worker-b")).toEqual({
      error:
        'The executor "worker-b" is alive (its worker holds its lease), so its runs were not taken over: they go on there.',
      code: "invalid-argument",
    });
    // worker-a is gone: its lease went with its connection.
    const taken = await workers.recover("worker-a");
    expect(taken.recovered?.sort()).toEqual(["lost-1", "lost-2"]);
    // Still listed from the journal while worker-b replays them; answered from another process.
    expect(await workers.fromApprover("approve", ["lost-1", "lost-2"])).toEqual(listed);
    const finals = [await workers.result("lost-1", survivor), await workers.result("lost-2", survivor)];
    expect(finals.map((final) => final.text)).toEqual([notesRun.answer, notesRun.answer]);
    // Each run asked the model once per step (2 steps) and ran the tool once.
    expect(toolResultsPerRequest(model).sort()).toEqual([0, 0, 1, 1]);
    expect(
      calls()
        .map((call) => call.key)
        .sort(),
    ).toEqual([`lost-1:tool:1:${listed["lost-1"]![0]!.id}`, `lost-2:tool:1:${listed["lost-2"]![0]!.id}`]);
    // The replay on worker-b did not notify anyone again.
    expect(notifications()).toHaveLength(2);
    // Taking over again finds nothing: the runs are worker-b's (and finished).
    expect(await workers.recover("worker-a")).toEqual({ recovered: [] });
  });
});
