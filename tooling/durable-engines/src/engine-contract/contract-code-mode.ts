// The engine contract's code-mode cases, in worker processes killed with SIGKILL: the model (a
// wire fake in the test's process) writes a program that makes its calls one after the other to
// a real MCP server over stdio (the ledger, which records every call it receives in a file), in
// the real QuickJS sandbox. Each nested call is a step of its own, so a worker killed between
// two of them, or while one waits for a person, is recovered with every call made exactly once.
import {
  expectedLedgerCalls,
  type LedgerProgram,
  ledgerAnswer,
  reachHold,
  runLedgerCalls,
  startLedgerModel,
  toolResultsPerRequest,
} from "@junction/durable-engines/agent-scenario";
import type {
  EngineAdapter,
  EngineForWorkers,
} from "@junction/durable-engines/engine-contract/engine-adapter";
import { expectJournaled, notesSetUp } from "@junction/durable-engines/engine-contract/workers-set-up";
import { describe, expect, it } from "vitest";

/** The model's `run_program` call (the tool loop's first call). */
const programCall = "call_0";
/** The workers' environment for the code-mode ledger Agent. */
const ledger = { AGENT: "ledger" };
/** A worker that holds before the program's call of `entry` (the test kills it there). */
const holdingBefore = (entry: number) => ({ ...ledger, HOLD_BEFORE_ENTRY: String(entry) });
/** The journal keys of the program's clock and of its first `count` calls, in order. */
const programSteps = (count: number) => [
  `program:1:${programCall}`,
  ...Array.from({ length: count }, (_, index) => `tool:1:${programCall}.${index + 1}`),
];

export function defineCodeModeCrashes(engine: EngineAdapter, current: () => EngineForWorkers): void {
  describe(`code mode on ${engine.name}: each call of a program is a step, crash-tested in worker processes`, () => {
    const notes = notesSetUp(current, "junction-engine-code-mode-");
    /** The run's model writes `program`; the ledger's calls, and what an uninterrupted run makes of them. */
    const setUp = async (program: LedgerProgram) => {
      const parts = await notes(() => startLedgerModel(program));
      /** The calls the ledger received for `runId` (by their idempotency keys), in order. */
      const received = (runId: string) => runLedgerCalls(parts.files.callsFile, runId);
      /** The run's expected calls, with the clock its program journaled (what the first call carried). */
      const expected = (runId: string) => {
        const clockMs = received(runId)[0]?.clock;
        if (clockMs === undefined) throw new Error(`${runId} made no call: the ledger received nothing.`);
        return {
          calls: expectedLedgerCalls(program, { runId, programCallId: programCall, clockMs }),
          answer: ledgerAnswer(program, clockMs),
        };
      };
      return { ...parts, received, expected };
    };

    it("a worker SIGKILLed after the program's second call and before its third is recovered: every call reaches the server once, and the run ends as an uninterrupted one", async () => {
      const program = { entries: 5 };
      const runId = "program-killed-between-calls";
      const { model, files, workers, received, expected } = await setUp(program);
      const first = await workers.start({ runs: [runId], env: holdingBefore(3) });
      await reachHold(files.eventsFile, 3, first);
      const journaled = await expectJournaled({ engine, workers }, { runId }, programSteps(2));
      expect(journaled).not.toContain(`tool:1:${programCall}.3`);
      expect(received(runId)).toEqual(expected(runId).calls.slice(0, 2));
      await first.kill();

      // The second worker recovers the run, and runs the same program uninterrupted beside it.
      const uninterrupted = "program-uninterrupted";
      const second = await workers.start({ runs: [uninterrupted], env: ledger });
      const final = await workers.result(runId, second);
      const control = await workers.result(uninterrupted, second);
      expect(control.text).toBe(expected(uninterrupted).answer);
      expect(received(uninterrupted)).toEqual(expected(uninterrupted).calls);
      expect(final.finishReason).toBe("stop");
      expect(final.text).toBe(expected(runId).answer);
      // Calls 1 and 2 came from the journal; 3 to 5 were sent once, by the second worker.
      expect(received(runId)).toEqual(expected(runId).calls);
      // Each run asked the model for its program once, then for its answer.
      expect(toolResultsPerRequest(model).sort()).toEqual([0, 0, 1, 1]);
    });

    it("a worker SIGKILLed while the program's third call waits for approval: the recovered run asks again without sending calls 1-2 again, and the approved call runs once", async () => {
      const program = { entries: 5, publishAt: 3 };
      const runId = "program-killed-while-waiting";
      const { model, workers, received, expected, reachApproval, listed, questions, notifications } =
        await setUp(program);
      const first = await workers.start({ runs: [runId], env: ledger });
      const signal = await reachApproval(1, first);
      expect(signal).toBe(`approval:1:${programCall}.3`);
      await expectJournaled({ engine, workers }, { runId }, [
        ...programSteps(2),
        `gate:1:${programCall}.3`,
        `notify:1:${programCall}.3`,
      ]);
      expect(received(runId)).toEqual(expected(runId).calls.slice(0, 2));
      await first.kill();

      const second = await workers.start({ env: ledger });
      await reachApproval(2, second);
      expect(received(runId)).toHaveLength(2);
      await workers.approveFrom(runId, await listed(runId, signal));

      const final = await workers.result(runId, second);
      expect(final.finishReason).toBe("stop");
      expect(final.text).toBe(expected(runId).answer);
      expect(received(runId)).toEqual(expected(runId).calls);
      // The question is shown again by the worker that waits for it; the approver was told once.
      expect(questions()).toEqual([signal, signal]);
      expect(notifications()).toEqual([`${runId} 1:${programCall}.3`]);
      expect(toolResultsPerRequest(model)).toEqual([0, 1]);
    });

    it("a worker SIGKILLed right after the approval arrived (the approved call ran, the next not yet sent): the recovered run notifies nobody again and runs the approved call once", async () => {
      const program = { entries: 5, publishAt: 3 };
      const runId = "program-killed-after-approval";
      const { model, files, workers, received, expected, reachApproval, listed, notifications } =
        await setUp(program);
      const first = await workers.start({ runs: [runId], env: holdingBefore(4) });
      const signal = await reachApproval(1, first);
      await workers.approveFrom(runId, await listed(runId, signal));
      await reachHold(files.eventsFile, 4, first);
      await expectJournaled({ engine, workers }, { runId }, programSteps(3));
      expect(received(runId)).toEqual(expected(runId).calls.slice(0, 3));
      await first.kill();

      const second = await workers.start({ env: ledger });
      const final = await workers.result(runId, second);
      expect(final.finishReason).toBe("stop");
      expect(final.text).toBe(expected(runId).answer);
      expect(received(runId)).toEqual(expected(runId).calls);
      // The approver was told once; the answer came from the journal (the recovered worker's
      // in-process event may show the question again while it reads it there).
      expect(notifications()).toEqual([`${runId} 1:${programCall}.3`]);
      expect(toolResultsPerRequest(model)).toEqual([0, 1]);
    });
  });
}
