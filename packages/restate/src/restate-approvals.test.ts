import { notesRun, toolResultsPerRequest } from "@junction/durable-engines/agent-scenario";
import { expectJournaled, notesSetUp } from "@junction/durable-engines/engine-contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RestateForWorkers, restateEngine, startRestateForWorkers } from "../test/restate-engine.js";

// What only Restate does with several machines (the engine contract in test/ runs the rest):
// workers hold no state, so two of them stand behind one deployment URL (an HTTP/2 load
// balancer), and when one is lost for good the Restate server replays its runs on the other,
// answered from a process of its own (test/workers/approvals.ts) with only the ingress URL.

let engine: RestateForWorkers | undefined;
beforeAll(async () => {
  engine = await startRestateForWorkers();
});
afterAll(async () => {
  await engine?.stop();
});
const setUp = notesSetUp(() => {
  if (!engine) throw new Error("The Restate server was not started: see the error of beforeAll.");
  return engine;
}, "junction-restate-balanced-");

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
      await expectJournaled(restateEngine, workers, { runId }, [`notify:1:${item!.id}`]);
    }
    await lost.kill();
    expect(model.requests).toHaveLength(2);

    // Answered from another process, through the deployment (the survivor serves the handlers).
    expect(await workers.fromApprover("approve", ["lost-1", "lost-2"])).toEqual(listed);
    const finals = [await workers.result("lost-1", survivor), await workers.result("lost-2", survivor)];
    expect(finals.map((final) => final.text)).toEqual([notesRun.answer, notesRun.answer]);
    expect(toolResultsPerRequest(model).sort()).toEqual([0, 0, 1, 1]);
    expect(
      calls()
        .map((call) => call.key)
        .sort(),
    ).toEqual([`lost-1:tool:1:${listed["lost-1"]![0]!.id}`, `lost-2:tool:1:${listed["lost-2"]![0]!.id}`]);
    // The survivor replayed the runs (the questions were shown again in its process) ...
    expect(workers.balancer.routed.get(workers.upstreamOf(survivor)!)).toBeGreaterThan(0);
    expect(questions().length).toBeGreaterThanOrEqual(4);
    // ... but nobody was notified again.
    expect(notifications()).toHaveLength(2);
  });
});
