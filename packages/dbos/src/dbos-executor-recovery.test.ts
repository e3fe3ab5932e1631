import { expectFinishedElsewhere, notesWorkersOf } from "@junction/durable-engines/engine-contract";
import { describe, expect, it } from "vitest";
import { startDBOSForWorkers } from "../test/dbos-engine.js";

// What only DBOS does with several machines (the engine contract in test/ runs the rest): the
// notes Agent's runs in two worker processes, each an executor holding its lease, and a worker
// lost for good whose runs `recoverRunsOf` hands to the other, answered from a process of its own
// (test/workers/approvals.ts) with only the system database's URL.

const { setUp } = notesWorkersOf(startDBOSForWorkers, "junction-dbos-recovery-");

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
    // worker-b finishes them once answered from another process, each step once, nobody notified again.
    await expectFinishedElsewhere({ workers, survivor, listed, model, calls, notifications });
    // Taking over again finds nothing: the runs are worker-b's (and finished).
    expect(await workers.recover("worker-a")).toEqual({ recovered: [] });
  });
});
