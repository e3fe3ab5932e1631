import {
  expectFinishedElsewhere,
  expectJournaled,
  notesWorkersOf,
} from "@junction/durable-engines/engine-contract";
import { describe, expect, it } from "vitest";
import { restateEngine, startRestateForWorkers } from "../test/restate-engine.js";

// What only Restate does with several machines (the engine contract in test/ runs the rest):
// workers hold no state, so two of them stand behind one deployment URL (an HTTP/2 load
// balancer), and when one is lost for good the Restate server replays its runs on the other,
// answered from a process of its own (test/workers/approvals.ts) with only the ingress URL.

const { setUp } = notesWorkersOf(startRestateForWorkers, "junction-restate-balanced-");

describe("a lost Restate worker's runs, replayed on another behind the same deployment", () => {
  it("two workers behind one HTTP/2 load-balanced deployment URL, one SIGKILLed for good while its runs wait: the other replays them and finishes them after approvals from another process, each model step and tool call once, no approval asked twice", async () => {
    const { model, workers, reachNotifications, calls, notifications, questions } = await setUp();
    // Only the first worker is up while the runs start, so both are on it.
    const lost = await workers.start({ runs: ["lost-1", "lost-2"] });
    await reachNotifications(2, lost);
    const survivor = await workers.start();
    const listed = await workers.fromApprover("list", ["lost-1", "lost-2"]);
    expect(Object.values(listed).map((items) => items.length)).toEqual([1, 1]);
    // The kill comes once the server has journaled each run's notification, so the replay does
    // not notify again.
    for (const [runId, [item]] of Object.entries(listed)) {
      await expectJournaled({ engine: restateEngine, workers }, { runId }, [`notify:1:${item!.id}`]);
    }
    await lost.kill();
    expect(model.requests).toHaveLength(2);

    // Answered from another process, through the deployment (the survivor serves the handlers):
    // the survivor finishes them, each step once, nobody notified again ...
    await expectFinishedElsewhere({ workers, survivor, listed, model, calls, notifications });
    // ... having replayed them (the questions were shown again in its process).
    expect(workers.balancer.routed.get(workers.upstreamOf(survivor)!)).toBeGreaterThan(0);
    expect(questions().length).toBeGreaterThanOrEqual(4);
  });
});
