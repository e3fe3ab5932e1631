// The cases of the engine contract that run in worker processes, killed with SIGKILL: the crash
// scenarios' durable functions, a real Agent's run (the Chat Completions provider against a wire
// fake in the test's process, an MCP server over stdio through an MCPPool in the worker,
// annotationPolicy() asking before the call), and its pending approvals listed and answered by a
// process of its own that reaches only the engine.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { argumentsDigest, type PendingToolCall, parseRunState } from "@junction/core";
import {
  type NotesRun,
  notesRun,
  rateLimitedRunError,
  resumeNotesRun,
  runFailures,
  startRateLimitedModel,
  toolResultsPerRequest,
} from "@junction/durable-engines/agent-scenario";
import {
  countLines,
  eventsOf,
  expectedCountsAfterCrashInStep,
  expectedEventsAfterOneCrash,
  expectedResult,
} from "@junction/durable-engines/crash-scenarios";
import { defineCodeModeCrashes } from "@junction/durable-engines/engine-contract/contract-code-mode";
import { defineProviderCodeModeCrashes } from "@junction/durable-engines/engine-contract/contract-provider-code-mode";
import type {
  EngineAdapter,
  EngineForWorkers,
  NotesWorkers,
} from "@junction/durable-engines/engine-contract/engine-adapter";
import { expectJournaled, notesSetUp } from "@junction/durable-engines/engine-contract/workers-set-up";
import { type NodeProcess, waitFor } from "@junction/durable-engines/processes";
import type { WireFake } from "@junction/wire-fake";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

/** Defines the worker cases for `engine`: starts the engine for workers before them. */
export function defineWorkersContract(engine: EngineAdapter): void {
  let started: EngineForWorkers | undefined;
  const current = (): EngineForWorkers => {
    if (!started) throw new Error(`${engine.name} was not started: see the error of the suite's beforeAll.`);
    return started;
  };
  beforeAll(async () => {
    started = await engine.startForWorkers();
  });
  afterAll(async () => {
    await started?.stop();
  });

  defineCrashScenarios(engine, current);
  defineAgentCrashes(engine, current);
  defineApprovalsAsData(engine, current);
  defineCodeModeCrashes(engine, current);
  defineProviderCodeModeCrashes(engine, current);
}

function defineCrashScenarios(engine: EngineAdapter, current: () => EngineForWorkers): void {
  describe(`durable functions on ${engine.name}, crash-tested in worker processes`, () => {
    let directory: string;
    let testNumber = 0;
    const closing: Array<() => Promise<void>> = [];
    beforeAll(() => {
      directory = mkdtempSync(join(tmpdir(), "junction-engine-steps-"));
    });
    afterEach(async () => {
      for (const close of closing.splice(0).reverse()) await close();
    });
    afterAll(() => {
      if (directory) rmSync(directory, { recursive: true, force: true });
    });

    /** Workers and an events file of the test's own. */
    const setUp = async () => {
      testNumber += 1;
      const eventsFile = join(directory, `events-${testNumber}.log`);
      const workers = await current().stepsWorkers(eventsFile);
      closing.push(() => workers.close());
      return { ...eventsOf(eventsFile), workers };
    };

    it("survives a SIGKILL of the worker between the first step and the signal, and takes the signal from another process", async () => {
      const { workers, events, reachWait } = await setUp();
      const first = await workers.start({ run: { workflow: "two-steps", runId: "run-worker-killed" } });
      await reachWait(1, first);
      await first.kill();

      const second = await workers.start();
      await reachWait(2, second);
      await workers.sendApproval("run-worker-killed");

      expect(await workers.result("run-worker-killed", second)).toBe(expectedResult);
      expect(events()).toEqual(expectedEventsAfterOneCrash);
    });

    it("runs a step again when the worker dies while it runs (at-least-once), but not the parallel step already journaled", async () => {
      const { workers, events, reachSlowStep } = await setUp();
      const first = await workers.start({
        run: { workflow: "parallel-steps", runId: "run-killed-in-step" },
        env: { SLOW_MS: "60000" },
      });
      await reachSlowStep(first);
      await first.kill();

      const second = await workers.start({ env: { SLOW_MS: "10" } });
      expect(await workers.result("run-killed-in-step", second, "parallel-steps")).toBe("input+quick+slow");
      expect(countLines(events())).toEqual(expectedCountsAfterCrashInStep);
    });

    it("survives a crash of the engine too, with the signal sent while no worker runs", async () => {
      const { workers, events, reachWait } = await setUp();
      const first = await workers.start({ run: { workflow: "two-steps", runId: "run-engine-restarted" } });
      await reachWait(1, first);
      await first.kill();
      await current().restartEngine();
      await workers.sendApproval("run-engine-restarted");

      const second = await workers.start();
      expect(await workers.result("run-engine-restarted", second)).toBe(expectedResult);
      await reachWait(2, second);
      expect(events()).toEqual(expectedEventsAfterOneCrash);
    });
  });
}

/**
 * For a test file of an engine's own (what only that engine does with workers): the engine
 * `start` makes, started before the file's tests and stopped after them, and `notesSetUp` on it
 * (its workers with what only that engine has).
 */
export function notesWorkersOf<Workers extends NotesWorkers>(
  start: () => Promise<Pick<EngineForWorkers, "stop"> & { notesWorkers(run: NotesRun): Promise<Workers> }>,
  prefix: string,
) {
  let started: Awaited<ReturnType<typeof start>> | undefined;
  beforeAll(async () => {
    started = await start();
  });
  afterAll(async () => {
    await started?.stop();
  });
  const engine = () => {
    if (!started) throw new Error("The engine was not started: see the error of beforeAll.");
    return started;
  };
  return { engine, setUp: notesSetUp(engine, prefix) };
}

function defineAgentCrashes(engine: EngineAdapter, current: () => EngineForWorkers): void {
  describe(`an Agent's run on ${engine.name}, crash-tested end to end`, () => {
    const setUp = notesSetUp(current, "junction-engine-agent-");

    it("survives a SIGKILL of the worker while the approval waits: the model and the MCP tool each run once, the approval comes from another process", async () => {
      const { model, workers, reachApproval, listed, calls, questions } = await setUp();
      const first = await workers.start({ runs: ["agent-worker-killed"] });
      const signal = await reachApproval(1, first);
      expect(signal).toBe("approval:1:call_0");
      // The model's first step is journaled before the kill (then the wait itself).
      const journaled = await expectJournaled({ engine, workers }, { runId: "agent-worker-killed" }, [
        "tools:1",
        "model:1",
        "gate:1:call_0",
      ]);
      expect(journaled.slice(0, 3)).toEqual(["tools:1", "model:1", "gate:1:call_0"]);
      await first.kill();
      expect(model.requests).toHaveLength(1);

      const second = await workers.start();
      // The recovered run asks again (the question is shown again), without asking the model again.
      await reachApproval(2, second);
      expect(model.requests).toHaveLength(1);
      // As an approver answers: the call as listed, bound to its digests.
      await workers.approveFrom("agent-worker-killed", await listed("agent-worker-killed", signal));

      const final = await workers.result("agent-worker-killed", second);
      expect(final.text).toBe(notesRun.answer);
      expect(final.finishReason).toBe("stop");
      expect(toolResultsPerRequest(model)).toEqual([0, 1]);
      expect(calls()).toEqual([{ text: notesRun.note, key: "agent-worker-killed:tool:1:call_0" }]);
      expect(questions()).toEqual([signal, signal]);
    });

    it("a run stopped by its approvalTimeoutMs ends with a real state: resumed in memory elsewhere, the model is not asked again for the step and the tool runs once, under the run's idempotency key", async () => {
      const { model, files, workers, reachApproval, calls } = await setUp();
      const worker = await workers.start({ runs: ["agent-timed-out"], env: { APPROVAL_TIMEOUT_MS: "300" } });
      // Asked (the run exists on the engine), then nobody answers within the 300 ms.
      await reachApproval(1, worker);
      const stopped = await workers.result("agent-timed-out", worker);
      expect(stopped.finishReason).toBe("approval-required");
      if (stopped.finishReason !== "approval-required") return;
      expect(stopped.pending).toEqual([
        expect.objectContaining({ id: "call_0", input: { text: notesRun.note }, step: 1 }),
      ]);
      // What the engine returned is a state like any other: it parses, and it holds the engine's step.
      const state = parseRunState(JSON.parse(JSON.stringify(stopped.state)));
      expect(state.runId).toBe("agent-timed-out");
      expect(state.pending).toEqual(stopped.pending);
      expect(Object.keys(state.journal)).toEqual(expect.arrayContaining(["model:1", "gate:1:call_0"]));
      expect(await workers.journaledSteps("agent-timed-out")).toEqual(
        expect.arrayContaining(["tools:1", "model:1"]),
      );
      expect(model.requests).toHaveLength(1);
      expect(calls()).toEqual([]);

      const done = await resumeNotesRun({ model, files }, { state, decisions: { call_0: "approve" } });
      expect(done.finishReason).toBe("stop");
      expect(done.text).toBe(notesRun.answer);
      expect(toolResultsPerRequest(model)).toEqual([0, 1]);
      expect(calls()).toEqual([{ text: notesRun.note, key: "agent-timed-out:tool:1:call_0" }]);
    });

    it("survives a crash of the engine too, with the approval sent while no worker runs", async () => {
      const { model, workers, reachApproval, listed, calls } = await setUp();
      const first = await workers.start({ runs: ["agent-engine-restarted"] });
      const signal = await reachApproval(1, first);
      // Listed while the worker runs, where listing needs one.
      const early = engine.traits.listsWithoutWorker
        ? undefined
        : await listed("agent-engine-restarted", signal);
      await expectJournaled({ engine, workers }, { runId: "agent-engine-restarted" }, ["model:1"]);
      await first.kill();
      await current().restartEngine();
      // Answered while no worker runs (and listed so, where the engine lists without one).
      await workers.approveFrom(
        "agent-engine-restarted",
        early ?? (await listed("agent-engine-restarted", signal)),
      );

      const second = await workers.start();
      const final = await workers.result("agent-engine-restarted", second);
      expect(final.text).toBe(notesRun.answer);
      expect(toolResultsPerRequest(model)).toEqual([0, 1]);
      expect(calls()).toEqual([{ text: notesRun.note, key: "agent-engine-restarted:tool:1:call_0" }]);
    });

    it("a run whose model step failed, replayed after a SIGKILL of the worker, fails with the same ProviderError (class, code, status, retryable, requestId) without asking the model again", async () => {
      const { model, files, workers } = await setUp(startRateLimitedModel);
      const first = await workers.start({
        failingModelRun: "agent-model-failed",
        env: { HANG_AFTER_FAILURE: "1" },
      });
      // The run failed in the worker, which then waits: the failed step is journaled, and the
      // worker is killed before the function ends.
      await waitFor(() => runFailures(files.eventsFile).length === 1, {
        timeoutMs: 15_000,
        what: `the run to fail; worker output:\n${first.output()}`,
      });
      await expectJournaled({ engine, workers }, { runId: "agent-model-failed", workflow: "failing-model" }, [
        "model:1",
      ]);
      await first.kill();
      expect(model.requests).toHaveLength(1);

      const second = await workers.start();
      const replayed = await workers.result<Record<string, unknown>>(
        "agent-model-failed",
        second,
        "failing-model",
      );
      expect(runFailures(files.eventsFile)).toEqual([rateLimitedRunError, rateLimitedRunError]);
      expect(replayed).toEqual(runFailures(files.eventsFile)[0]);
      // The replay got the failure from the journal: the model was asked once, in the first worker.
      expect(model.requests).toHaveLength(1);
    });
  });
}

/**
 * After a worker was lost for good while the runs `listed` (one pending call each) waited on it:
 * answered from another process, they finish on `survivor`, with one model request per step, one
 * call per tool call and no notification sent again (one per pending call, before the loss).
 */
export async function expectFinishedElsewhere(parts: {
  workers: NotesWorkers;
  survivor: NodeProcess;
  listed: Record<string, PendingToolCall[]>;
  model: WireFake;
  calls: () => { key: string | null }[];
  notifications: () => string[];
}): Promise<void> {
  const { workers, survivor, listed } = parts;
  const runIds = Object.keys(listed);
  // Still listed from the journal while the survivor replays them; answered from another process.
  expect(await workers.fromApprover("approve", runIds)).toEqual(listed);
  const finals = await Promise.all(runIds.map((runId) => workers.result(runId, survivor)));
  expect(finals.map((final) => final.text)).toEqual(runIds.map(() => notesRun.answer));
  // Each run asked the model once per step (2 steps) and ran the tool once.
  expect(toolResultsPerRequest(parts.model).sort()).toEqual(runIds.flatMap(() => [0, 1]).sort());
  expect(
    parts
      .calls()
      .map((call) => call.key)
      .sort(),
  ).toEqual(runIds.map((runId) => `${runId}:tool:1:${listed[runId]![0]!.id}`).sort());
  // The replay did not notify anyone again.
  expect(parts.notifications()).toHaveLength(runIds.length);
}

/** The pending call of a notes run, as listed: the validated arguments and their digests. */
export async function notesItem(callId: string): Promise<PendingToolCall> {
  return {
    id: callId,
    name: expect.stringMatching(/save_note$/) as unknown as string,
    source: expect.any(String) as unknown as string,
    input: { text: notesRun.note },
    step: 1,
    toolDigest: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown as string,
    argumentsDigest: await argumentsDigest({ text: notesRun.note }),
  };
}

function defineApprovalsAsData(engine: EngineAdapter, current: () => EngineForWorkers): void {
  describe(`pending approvals as data on ${engine.name}`, () => {
    const setUp = notesSetUp(current, "junction-engine-approvals-");

    it("lists a waiting run's approvals from another process, approves one as listed, and refuses one whose arguments differ from what was listed", async () => {
      const { model, workers, reachNotifications, calls, notifications } = await setUp();
      const running = await workers.start({ runs: ["listed-ok", "listed-edited", "listed-cancelled"] });
      await reachNotifications(3, running);
      const listed = await workers.fromApprover("list", [
        "listed-ok",
        "listed-edited",
        "listed-cancelled",
        "never-started",
      ]);
      expect(listed).toEqual({
        "listed-ok": [await notesItem(listed["listed-ok"]![0]!.id)],
        "listed-edited": [await notesItem(listed["listed-edited"]![0]!.id)],
        "listed-cancelled": [await notesItem(listed["listed-cancelled"]![0]!.id)],
        "never-started": [],
      });
      // One notification per pending call, with the run it belongs to.
      expect(notifications().sort()).toEqual(
        Object.entries(listed)
          .flatMap(([runId, items]) => items.map((item) => `${runId} 1:${item.id}`))
          .sort(),
      );
      // A run cancelled while it waits can take no answer: it is no longer listed.
      await workers.cancel("listed-cancelled");
      const unlisted = async () =>
        (await workers.fromApprover("list", ["listed-cancelled"]))["listed-cancelled"];
      if (engine.traits.cancelEndsAtOnce) {
        expect(await unlisted()).toEqual([]);
      } else {
        await waitFor(async () => (await unlisted())!.length === 0, {
          timeoutMs: 10_000,
          what: "the cancelled run to be no longer listed",
        });
      }

      // The approver shows "listed-edited" with other arguments than the run waits with.
      await workers.fromApprover("approve", ["listed-ok", "listed-edited"], {
        "listed-edited": { text: "buy bread" },
      });
      const ok = await workers.result("listed-ok", running);
      const edited = await workers.result("listed-edited", running);
      expect(ok.text).toBe(notesRun.answer);
      expect(edited.warnings).toEqual([
        {
          code: "run-state-mismatch",
          message: `The call "${listed["listed-edited"]![0]!.id}" was not run: its arguments changed since the call was listed for approval, so it was not run.`,
        },
      ]);
      // The tool ran once, for the run approved as listed; nothing waits any more.
      expect(calls()).toEqual([
        { text: notesRun.note, key: `listed-ok:tool:1:${listed["listed-ok"]![0]!.id}` },
      ]);
      expect(await workers.fromApprover("list", ["listed-ok", "listed-edited"])).toEqual({
        "listed-ok": [],
        "listed-edited": [],
      });
      expect(model.requests).toHaveLength(5);
    });
  });
}
