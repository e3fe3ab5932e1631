import { fileURLToPath } from "node:url";
import { DBOSClient } from "@dbos-inc/dbos-sdk";
import { type AgentResult, parseRunState } from "@junction/core";
import {
  approveFrom,
  notesRun,
  notesRuns,
  rateLimitedRunError,
  resumeNotesRun,
  runFailures,
  startRateLimitedModel,
  toolResultsPerRequest,
} from "@junction/durable-engines/agent-scenario";
import { type Postgres, startPostgres } from "@junction/durable-engines/postgres";
import { type NodeProcess, startNode, waitFor, withTimeout } from "@junction/durable-engines/processes";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { pendingApprovals } from "./pending-approvals.js";

// A real Agent's run as a DBOS workflow, end to end: the Chat Completions provider against a
// wire fake in this process, an MCP server over stdio through an MCPPool in the worker,
// annotationPolicy() asking before the call, the worker SIGKILLed while the approval waits, and
// the approval sent by a process of its own.

const worker = fileURLToPath(new URL("./test-workers/agent-worker.ts", import.meta.url));
const sender = fileURLToPath(new URL("./test-workers/send-signal.ts", import.meta.url));

let postgres: Postgres;
const runs = notesRuns("junction-dbos-agent-test-");
let testNumber = 0;

beforeAll(async () => {
  postgres = await startPostgres();
});
afterAll(() => {
  postgres?.stop();
  runs.remove();
});
afterEach(() => runs.cleanUp());

/** A database, a model (the notes model unless `startModel` makes another) and files of the test's own. */
async function setUp(startModel?: Parameters<typeof runs.next>[0]) {
  testNumber += 1;
  const databaseUrl = postgres.url(`junction_dbos_agent_${testNumber}`);
  const { model, environment, events, track, files } = await runs.next(startModel);
  const startWorker = (env: Record<string, string> = {}) =>
    track(startNode(worker, { DATABASE_URL: databaseUrl, ...environment, ...env }));
  const withClient = async <T>(use: (client: DBOSClient) => Promise<T>): Promise<T> => {
    const client = await DBOSClient.create({ systemDatabaseUrl: databaseUrl });
    try {
      return await use(client);
    } finally {
      await client.destroy();
    }
  };
  // As an approver answers: the call as listed (from the database, worker or not), bound to its digests.
  const approve = async (runId: string, signal: string) => {
    const listed = await withClient((client) => pendingApprovals({ client, runId }));
    const item = listed.find((call) => `approval:${call.step}:${call.id}` === signal);
    if (!item) throw new Error(`${runId} lists no call for ${signal}: ${JSON.stringify(listed)}`);
    return approveFrom(sender, { env: { DATABASE_URL: databaseUrl, RUN_ID: runId }, signal, item });
  };
  const result = (runId: string, running: NodeProcess) =>
    withClient((client) =>
      withTimeout(client.retrieveWorkflow<AgentResult>(runId).getResult({ pollingIntervalMs: 50 }), {
        timeoutMs: 15_000,
        what: () => `the run's result; worker output:\n${running.output()}`,
      }),
    );
  const journaledSteps = (runId: string) =>
    withClient(async (client) => (await client.listWorkflowSteps(runId))?.map((step) => step.name));
  return { ...events, model, files, startWorker, approve, result, journaledSteps };
}

describe("dbosAgentWorkflow: an Agent's run on DBOS, crash-tested end to end", () => {
  it("survives a SIGKILL of the worker while the approval waits: the model and the MCP tool each run once, the approval comes from another process", async () => {
    const { model, startWorker, reachApproval, approve, result, journaledSteps, calls, questions } =
      await setUp();
    const first = startWorker({ START_RUN_ID: "agent-worker-killed" });
    const signal = await reachApproval(1, first);
    expect(signal).toBe("approval:1:call_0");
    // The model's first step is journaled (then the wait's own durable sleep, DBOS.sleep).
    expect((await journaledSteps("agent-worker-killed"))?.slice(0, 3)).toEqual([
      "tools:1",
      "model:1",
      "gate:1:call_0",
    ]);
    await first.kill();
    expect(model.requests).toHaveLength(1);

    const second = startWorker();
    // The recovered run asks again (the question is shown again), without asking the model again.
    await reachApproval(2, second);
    expect(model.requests).toHaveLength(1);
    await approve("agent-worker-killed", signal);

    const final = await result("agent-worker-killed", second);
    expect(final.text).toBe(notesRun.answer);
    expect(final.finishReason).toBe("stop");
    expect(toolResultsPerRequest(model)).toEqual([0, 1]);
    expect(calls()).toEqual([{ text: notesRun.note, key: "agent-worker-killed:tool:1:call_0" }]);
    expect(questions()).toEqual([signal, signal]);
  });

  it("a run stopped by its approvalTimeoutMs ends with a real state: resumed in memory elsewhere, the model is not asked again for the step and the tool runs once, under the run's idempotency key", async () => {
    const { model, files, startWorker, reachApproval, result, calls, journaledSteps } = await setUp();
    const worker = startWorker({ START_RUN_ID: "agent-timed-out", APPROVAL_TIMEOUT_MS: "300" });
    // Asked (the run exists on the engine), then nobody answers within the 300 ms.
    await reachApproval(1, worker);
    const stopped = await result("agent-timed-out", worker);
    expect(stopped.finishReason).toBe("approval-required");
    if (stopped.finishReason !== "approval-required") return;
    expect(stopped.pending).toEqual([
      expect.objectContaining({ id: "call_0", input: { text: notesRun.note }, step: 1 }),
    ]);
    // What DBOS returned is a state like any other: it parses, and it holds the engine's step.
    const state = parseRunState(JSON.parse(JSON.stringify(stopped.state)));
    expect(state.runId).toBe("agent-timed-out");
    expect(state.pending).toEqual(stopped.pending);
    expect(Object.keys(state.journal)).toEqual(expect.arrayContaining(["model:1", "gate:1:call_0"]));
    expect(await journaledSteps("agent-timed-out")).toEqual(expect.arrayContaining(["tools:1", "model:1"]));
    expect(model.requests).toHaveLength(1);
    expect(calls()).toEqual([]);

    const done = await resumeNotesRun({ model, files }, { state, decisions: { call_0: "approve" } });
    expect(done.finishReason).toBe("stop");
    expect(done.text).toBe(notesRun.answer);
    expect(toolResultsPerRequest(model)).toEqual([0, 1]);
    expect(calls()).toEqual([{ text: notesRun.note, key: "agent-timed-out:tool:1:call_0" }]);
  });

  it("survives a crash of PostgreSQL too, with the approval sent while no worker runs", async () => {
    const { model, startWorker, reachApproval, approve, result, calls } = await setUp();
    const first = startWorker({ START_RUN_ID: "agent-engine-restarted" });
    const signal = await reachApproval(1, first);
    await first.kill();
    postgres.restart();
    await approve("agent-engine-restarted", signal);

    const second = startWorker();
    const final = await result("agent-engine-restarted", second);
    expect(final.text).toBe(notesRun.answer);
    expect(toolResultsPerRequest(model)).toEqual([0, 1]);
    expect(calls()).toEqual([{ text: notesRun.note, key: "agent-engine-restarted:tool:1:call_0" }]);
  });

  it("a run whose model step failed, replayed after a SIGKILL of the worker, fails with the same ProviderError (class, code, status, retryable, requestId) without asking the model again", async () => {
    const { model, files, startWorker, result, journaledSteps } = await setUp(startRateLimitedModel);
    const first = startWorker({
      START_WORKFLOW: "failing-model",
      START_RUN_ID: "agent-model-failed",
      HANG_AFTER_FAILURE: "1",
    });
    // The run failed in the worker: the failed step is journaled (DBOS writes a step's output
    // before the workflow goes on), and the worker is killed before the workflow ends.
    await waitFor(() => runFailures(files.eventsFile).length === 1, {
      timeoutMs: 15_000,
      what: `the run to fail; worker output:\n${first.output()}`,
    });
    expect(await journaledSteps("agent-model-failed")).toContain("model:1");
    await first.kill();
    expect(model.requests).toHaveLength(1);

    const second = startWorker();
    const replayed = (await result("agent-model-failed", second)) as unknown as Record<string, unknown>;
    expect(runFailures(files.eventsFile)).toEqual([rateLimitedRunError, rateLimitedRunError]);
    expect(replayed).toEqual(runFailures(files.eventsFile)[0]);
    // The replay got the failure from the journal: the model was asked once, in the first worker.
    expect(model.requests).toHaveLength(1);
  });
});
