// The engine contract's provider-mode code-mode cases (`codeMode: { sandbox: "provider" }`), in
// worker processes killed with SIGKILL: Claude (the real Anthropic SDK in the worker, against
// the Anthropic wire fake in the test's process) runs the program, and each call the program
// makes of the ledger MCP server (over stdio, recording every call it receives) comes back as a
// tool call of the run, a step of its own. The fake picks each turn from the tool results the
// request carries, so a recovered worker that asks again for a turn gets the same one. Each call
// reaches the server once, however the worker died.
import {
  expectedProviderLedgerCalls,
  type LedgerCall,
  type ProviderLedgerProgram,
  providerCallId,
  providerLedgerAnswer,
  reachHold,
  runLedgerCalls,
  startProviderLedgerModel,
} from "@junction/durable-engines/agent-scenario";
import type {
  EngineAdapter,
  EngineForWorkers,
} from "@junction/durable-engines/engine-contract/engine-adapter";
import { expectJournaled, notesSetUp } from "@junction/durable-engines/engine-contract/workers-set-up";
import { waitFor } from "@junction/durable-engines/processes";
import { type AnthropicProgramLoop, toolResultsOf } from "@junction/wire-fake/anthropic-program-loop";
import { describe, expect, it } from "vitest";

/** The workers' environment for the provider-mode ledger Agent. */
const providerLedger = { AGENT: "provider-ledger" };
/** Five calls, one per turn; the third publishes (asks a person). */
const fiveTurns: ProviderLedgerProgram = { turns: [[1], [2], [3], [4], [5]], publishAt: 3 };
/** The journal keys of turn `turn` (the run's step of that number) and its calls. */
const turnSteps = (turn: number, entries: number[]) => [
  `model:${turn}`,
  ...entries.map((entry) => `tool:${turn}:${providerCallId(entry)}`),
];
/** The ledger's calls by entry: the calls of one turn run at once, in no fixed order at the server. */
const byEntry = (calls: LedgerCall[]) => [...calls].sort((a, b) => a.entry - b.entry);
/** How many tool results each request to Claude carried: which turn each asked for. */
const resultsPerRequest = (model: AnthropicProgramLoop) =>
  model.requests.map((request) => {
    const results = toolResultsOf(request.body);
    if (typeof results === "string") throw new Error(`A request to Claude was malformed: ${results}`);
    return results.length;
  });

export function defineProviderCodeModeCrashes(engine: EngineAdapter, current: () => EngineForWorkers): void {
  describe(`provider-mode code mode on ${engine.name}: each call of Claude's program is a step, crash-tested in worker processes`, () => {
    const notes = notesSetUp(current, "junction-engine-provider-code-mode-");
    /** The run's Claude plays `program`; the ledger's calls, and what an uninterrupted run makes. */
    const setUp = async (program: ProviderLedgerProgram) => {
      let model: AnthropicProgramLoop | undefined;
      const parts = await notes(async () => {
        model = await startProviderLedgerModel(program);
        return model;
      });
      return {
        ...parts,
        model: model!,
        received: (runId: string) => runLedgerCalls(parts.files.callsFile, runId),
        expected: (runId: string) => expectedProviderLedgerCalls(program, runId),
      };
    };

    it("a worker SIGKILLed while the program's gated call waits for approval: the recovered run asks again with the same pending call, without sending calls 1-2 again or asking Claude again, and the approved call runs once", async () => {
      const runId = "provider-killed-while-waiting";
      const { model, workers, received, expected, reachApproval, listed, questions, notifications } =
        await setUp(fiveTurns);
      const first = await workers.start({ runs: [runId], env: providerLedger });
      const signal = await reachApproval(1, first);
      expect(signal).toBe(`approval:3:${providerCallId(3)}`);
      await expectJournaled({ engine, workers }, { runId }, [
        ...turnSteps(1, [1]),
        ...turnSteps(2, [2]),
        "model:3",
        `gate:3:${providerCallId(3)}`,
        `notify:3:${providerCallId(3)}`,
      ]);
      const pending = await listed(runId, signal);
      expect(received(runId)).toEqual(expected(runId).slice(0, 2));
      await first.kill();

      const second = await workers.start({ env: providerLedger });
      await reachApproval(2, second);
      // The recovered run waits with the same call (same id, step and digests), from the journal.
      expect(await listed(runId, signal)).toEqual(pending);
      expect(received(runId)).toHaveLength(2);
      expect(resultsPerRequest(model)).toEqual([0, 1, 2]);
      await workers.approveFrom(runId, pending);

      const final = await workers.result(runId, second);
      expect(final.finishReason).toBe("stop");
      expect(final.text).toBe(providerLedgerAnswer(fiveTurns));
      expect(received(runId)).toEqual(expected(runId));
      // The question is shown again by the worker that waits for it; the approver was told once.
      expect(questions()).toEqual([signal, signal]);
      expect(notifications()).toEqual([`${runId} 3:${providerCallId(3)}`]);
      // Each turn was asked for once: turns 1 to 3 came from the journal in the second worker.
      expect(resultsPerRequest(model)).toEqual([0, 1, 2, 3, 4, 5]);
    });

    it("a worker SIGKILLed right after the approval arrived (the approved call ran, Claude's next turn asked and not answered): the recovered run notifies nobody again, runs the approved call once, and ends as an uninterrupted one", async () => {
      const runId = "provider-killed-after-approval";
      const { model, workers, received, expected, reachApproval, listed, notifications } =
        await setUp(fiveTurns);
      // The request with the results of calls 1-3 (asking for turn 4) is left unanswered.
      model.holdAt(3);
      const first = await workers.start({ runs: [runId], env: providerLedger });
      const signal = await reachApproval(1, first);
      await workers.approveFrom(runId, await listed(runId, signal));
      await waitFor(() => resultsPerRequest(model).includes(3), {
        timeoutMs: 20_000,
        what: `the worker to ask Claude for turn 4; its output:\n${first.output()}`,
      });
      const journaled = await expectJournaled({ engine, workers }, { runId }, [
        ...turnSteps(1, [1]),
        ...turnSteps(2, [2]),
        ...turnSteps(3, [3]),
      ]);
      expect(journaled).not.toContain("model:4");
      expect(received(runId)).toEqual(expected(runId).slice(0, 3));
      await first.kill();
      model.release();

      const second = await workers.start({ env: providerLedger });
      const final = await workers.result(runId, second);
      expect(final.finishReason).toBe("stop");
      expect(final.text).toBe(providerLedgerAnswer(fiveTurns));
      expect(received(runId)).toEqual(expected(runId));
      expect(notifications()).toEqual([`${runId} 3:${providerCallId(3)}`]);
      // Turn 4 was asked for again (its answer never arrived), every other turn once.
      expect(resultsPerRequest(model)).toEqual([0, 1, 2, 3, 3, 4, 5]);
    });

    it("a worker SIGKILLed between two ungated calls of one turn (the first ran, the second not yet sent): every call reaches the server once, and the run ends as an uninterrupted one beside it", async () => {
      // Turn 1 makes calls 1 and 2 together; turn 2 makes call 3. Nothing asks.
      const program: ProviderLedgerProgram = { turns: [[1, 2], [3]] };
      const runId = "provider-killed-between-calls";
      const { model, files, workers, received, expected } = await setUp(program);
      const first = await workers.start({
        runs: [runId],
        env: { ...providerLedger, HOLD_BEFORE_ENTRY: "2" },
      });
      await reachHold(files.eventsFile, 2, first);
      // Call 2 holds as soon as it starts, call 1 may still run beside it: the kill waits until
      // the engine journaled call 1, on every engine.
      const firstCall = `tool:1:${providerCallId(1)}`;
      await waitFor(async () => (await workers.journaledSteps(runId)).includes(firstCall), {
        timeoutMs: 15_000,
        what: `the engine to journal ${firstCall}; worker output:\n${first.output()}`,
      });
      const journaled = await expectJournaled({ engine, workers }, { runId }, turnSteps(1, [1]));
      expect(journaled).not.toContain(`tool:1:${providerCallId(2)}`);
      expect(received(runId)).toEqual(expected(runId).slice(0, 1));
      await first.kill();

      // The second worker recovers the run, and runs the same program uninterrupted beside it.
      const uninterrupted = "provider-uninterrupted";
      const second = await workers.start({ runs: [uninterrupted], env: providerLedger });
      const final = await workers.result(runId, second);
      const control = await workers.result(uninterrupted, second);
      expect(control.text).toBe(providerLedgerAnswer(program));
      expect(byEntry(received(uninterrupted))).toEqual(expected(uninterrupted));
      expect(final.finishReason).toBe("stop");
      expect(final.text).toBe(control.text);
      // Call 1 came from the journal; 2 and 3 were sent once, by the second worker.
      expect(byEntry(received(runId))).toEqual(expected(runId));
      // Each run asked for each turn once (turn 1's answer was journaled before the kill).
      expect(resultsPerRequest(model).sort()).toEqual([0, 0, 2, 2, 3, 3]);
    });
  });
}
