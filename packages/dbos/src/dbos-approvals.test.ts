import { fileURLToPath } from "node:url";
import { DBOSClient } from "@dbos-inc/dbos-sdk";
import { type AgentResult, argumentsDigest, type PendingToolCall } from "@junction/core";
import {
  notesRun,
  notesRuns,
  resultFrom,
  toolResultsPerRequest,
} from "@junction/durable-engines/agent-scenario";
import { type Postgres, startPostgres } from "@junction/durable-engines/postgres";
import { type NodeProcess, startNode, waitFor, withTimeout } from "@junction/durable-engines/processes";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

// Pending approvals as data, and several machines: the notes Agent's runs in worker processes,
// their approvals listed and answered by a process of its own (test-workers/approvals.ts) with
// only the system database's URL, and a worker lost for good whose runs another worker takes
// over.

const worker = fileURLToPath(new URL("./test-workers/agent-worker.ts", import.meta.url));
const approver = fileURLToPath(new URL("./test-workers/approvals.ts", import.meta.url));

let postgres: Postgres;
const runs = notesRuns("junction-dbos-approvals-test-");
let testNumber = 0;

beforeAll(async () => {
  postgres = await startPostgres();
});
afterAll(() => {
  postgres?.stop();
  runs.remove();
});
afterEach(() => runs.cleanUp());

async function setUp() {
  testNumber += 1;
  const databaseUrl = postgres.url(`junction_dbos_approvals_${testNumber}`);
  const { model, environment, events, track } = await runs.next();
  const startWorker = (env: Record<string, string> = {}) =>
    track(startNode(worker, { DATABASE_URL: databaseUrl, ...environment, ...env }));
  const fromApprover = <T>(env: Record<string, string>) =>
    resultFrom<T>(approver, { DATABASE_URL: databaseUrl, ...env });
  const list = (runIds: string[]) =>
    fromApprover<Record<string, PendingToolCall[]>>({ ACTION: "list", RUN_IDS: runIds.join(",") });
  const approve = (runIds: string[], edited: Record<string, unknown> = {}) =>
    fromApprover<Record<string, PendingToolCall[]>>({
      ACTION: "approve",
      RUN_IDS: runIds.join(","),
      EDITED: JSON.stringify(edited),
    });
  const recover = (executorId: string) =>
    fromApprover<{ recovered?: string[]; error?: string; code?: string }>({
      ACTION: "recover",
      EXECUTOR_ID: executorId,
    });
  const cancel = async (runId: string) => {
    const client = await DBOSClient.create({ systemDatabaseUrl: databaseUrl });
    try {
      await client.cancelWorkflow(runId);
    } finally {
      await client.destroy();
    }
  };
  const result = async (runId: string, running: NodeProcess) => {
    const client = await DBOSClient.create({ systemDatabaseUrl: databaseUrl });
    try {
      return await withTimeout(
        client.retrieveWorkflow<AgentResult>(runId).getResult({ pollingIntervalMs: 50 }),
        {
          timeoutMs: 20_000,
          what: () => `the result of ${runId}; worker output:\n${running.output()}`,
        },
      );
    } finally {
      await client.destroy();
    }
  };
  /** Waits until the workers were told of `count` pending approvals in all. */
  const reachNotifications = (count: number, running: NodeProcess) =>
    waitFor(() => events.notifications().length >= count, {
      timeoutMs: 20_000,
      what: `${count} approval notifications; worker output:\n${running.output()}`,
    });
  return { ...events, model, startWorker, list, approve, recover, cancel, result, reachNotifications };
}

/** The pending call of a notes run, as listed: the validated arguments and their digests. */
async function notesItem(callId: string): Promise<PendingToolCall> {
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

describe("pending approvals as data on DBOS", () => {
  it("lists a waiting run's approvals from another process, approves one as listed, and refuses one whose arguments differ from what was listed", async () => {
    const { model, startWorker, list, approve, cancel, result, reachNotifications, calls, notifications } =
      await setUp();
    const running = startWorker({ START_RUN_IDS: "listed-ok,listed-edited,listed-cancelled" });
    await reachNotifications(3, running);
    const listed = await list(["listed-ok", "listed-edited", "listed-cancelled", "never-started"]);
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
    await cancel("listed-cancelled");
    expect(await list(["listed-cancelled"])).toEqual({ "listed-cancelled": [] });

    // The approver shows "listed-edited" with other arguments than the run waits with.
    await approve(["listed-ok", "listed-edited"], { "listed-edited": { text: "buy bread" } });
    const ok = await result("listed-ok", running);
    const edited = await result("listed-edited", running);
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
    expect(await list(["listed-ok", "listed-edited"])).toEqual({ "listed-ok": [], "listed-edited": [] });
    expect(model.requests).toHaveLength(5);
  });

  it("two workers, one SIGKILLed for good while its runs wait: recoverRunsOf hands them to the other, which finishes them after approvals from another process, each model step and tool call once, no approval asked twice", async () => {
    const {
      model,
      startWorker,
      list,
      approve,
      recover,
      result,
      reachNotifications,
      reachReady,
      calls,
      notifications,
    } = await setUp();
    // The first worker makes DBOS's tables (DBOS's launch does not make them concurrently); the
    // second starts while the first one's runs go on.
    const lost = startWorker({ EXECUTOR_ID: "worker-a", START_RUN_IDS: "lost-1,lost-2" });
    await reachReady("worker-a", lost);
    const survivor = startWorker({ EXECUTOR_ID: "worker-b" });
    await reachReady("worker-b", survivor);
    await reachNotifications(2, lost);
    const listed = await list(["lost-1", "lost-2"]);
    expect(Object.values(listed).map((items) => items.length)).toEqual([1, 1]);
    await lost.kill();
    expect(model.requests).toHaveLength(2);

    // A live worker's runs are never taken over: worker-b holds its lease.
    expect(await recover("worker-b")).toEqual({
      error:
        'The executor "worker-b" is alive (its worker holds its lease), so its runs were not taken over: they go on there.',
      code: "invalid-argument",
    });
    // worker-a is gone: its lease went with its connection.
    const taken = await recover("worker-a");
    expect(taken.recovered?.sort()).toEqual(["lost-1", "lost-2"]);
    // Still listed from the journal while worker-b replays them; answered from another process.
    expect(await approve(["lost-1", "lost-2"])).toEqual(listed);
    const finals = [await result("lost-1", survivor), await result("lost-2", survivor)];
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
    expect(await recover("worker-a")).toEqual({ recovered: [] });
  });
});
