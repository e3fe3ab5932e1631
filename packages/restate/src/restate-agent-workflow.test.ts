import { fileURLToPath } from "node:url";
import { type AgentResult, type PendingToolCall, parseRunState } from "@junction/core";
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
import { freePort, startNode, waitFor, waitForPort, withTimeout } from "@junction/durable-engines/processes";
import { type RestateServer, startRestateServer } from "@junction/durable-engines/restate-server";
import * as clients from "@restatedev/restate-sdk-clients";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { pendingApprovals } from "./pending-approvals.js";
import type { AgentRunRequest } from "./restate-agent-workflow.js";

// A real Agent's run as a Restate workflow, end to end: the Chat Completions provider against a
// wire fake in this process, an MCP server over stdio through an MCPPool in the worker,
// annotationPolicy() asking before the call, the worker SIGKILLed while the approval waits, and
// the approval sent by a process of its own.

const worker = fileURLToPath(new URL("./test-workers/agent-worker.ts", import.meta.url));
const sender = fileURLToPath(new URL("./test-workers/send-signal.ts", import.meta.url));

let server: RestateServer;
const runs = notesRuns("junction-restate-agent-test-");

beforeAll(async () => {
  server = await startRestateServer();
});
afterAll(async () => {
  await server?.stop();
  runs.remove();
});
afterEach(() => runs.cleanUp());

type Notes = { run: (ctx: unknown, request: AgentRunRequest) => Promise<AgentResult> };
type FailingModel = { run: (ctx: unknown, input: null) => Promise<Record<string, unknown>> };

/**
 * A worker port, a model (the notes model unless `startModel` makes another) and files of the
 * test's own; the worker is registered on its first start.
 */
async function setUp(startModel?: Parameters<typeof runs.next>[0]) {
  const port = await freePort();
  const { model, environment, events, track, files } = await runs.next(startModel);
  let registered = false;
  const startWorker = async (env: Record<string, string> = {}) => {
    const running = track(
      startNode(worker, { PORT: String(port), RESTATE_LOGGING: "WARN", ...environment, ...env }),
    );
    await waitForPort(port, {
      timeoutMs: 10_000,
      what: () => `the worker to listen; its output:\n${running.output()}`,
    });
    if (!registered) await server.register(`http://127.0.0.1:${port}`);
    registered = true;
    return running;
  };
  const ingress = clients.connect({ url: server.ingressUrl });
  const run = (runId: string) => ingress.workflowClient<Notes>({ name: "notes" }, runId);
  /** The call waiting under `signal`, as listed (the `pending` handler needs a worker). */
  const listed = async (runId: string, signal: string) => {
    const items = await pendingApprovals({ ingress, workflow: "notes", runId });
    const item = items.find((call) => `approval:${call.step}:${call.id}` === signal);
    if (!item) throw new Error(`${runId} lists no call for ${signal}: ${JSON.stringify(items)}`);
    return item;
  };
  // As an approver answers: the call as listed, bound to its digests (listed now unless given).
  const approve = async (runId: string, signal: string, item?: PendingToolCall) =>
    approveFrom(sender, {
      env: { INGRESS_URL: server.ingressUrl, WORKFLOW: "notes", RUN_ID: runId },
      signal,
      item: item ?? (await listed(runId, signal)),
    });
  const result = (runId: string, running: { output(): string }) =>
    withTimeout(run(runId).workflowAttach(), {
      timeoutMs: 15_000,
      what: () => `the run's result; worker output:\n${running.output()}`,
    });
  return { ...events, model, files, ingress, startWorker, run, listed, approve, result };
}

describe("restateAgentWorkflow: an Agent's run on Restate, crash-tested end to end", () => {
  it("survives a SIGKILL of the worker while the approval waits: the model and the MCP tool each run once, the approval comes from another process", async () => {
    const { model, startWorker, run, reachApproval, approve, result, calls, questions } = await setUp();
    const first = await startWorker();
    await run("agent-worker-killed").workflowSubmit({ input: notesRun.input });
    const signal = await reachApproval(1, first);
    expect(signal).toBe("approval:1:call_0");
    // Restate acknowledges the model step's result a moment after the code goes on: the kill
    // comes after that, between the journaled step and the approval.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await first.kill();
    expect(model.requests).toHaveLength(1);

    const second = await startWorker();
    // The replayed run asks again (the question is shown again), without asking the model again.
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
    const { model, files, startWorker, run, result, calls } = await setUp();
    const worker = await startWorker({ APPROVAL_TIMEOUT_MS: "300" });
    await run("agent-timed-out").workflowSubmit({ input: notesRun.input });
    const stopped = await result("agent-timed-out", worker);
    expect(stopped.finishReason).toBe("approval-required");
    if (stopped.finishReason !== "approval-required") return;
    expect(stopped.pending).toEqual([
      expect.objectContaining({ id: "call_0", input: { text: notesRun.note }, step: 1 }),
    ]);
    // What Restate returned is a state like any other: it parses, and it holds the engine's step.
    const state = parseRunState(JSON.parse(JSON.stringify(stopped.state)));
    expect(state.runId).toBe("agent-timed-out");
    expect(state.pending).toEqual(stopped.pending);
    expect(Object.keys(state.journal)).toEqual(expect.arrayContaining(["model:1", "gate:1:call_0"]));
    expect(model.requests).toHaveLength(1);
    expect(calls()).toEqual([]);

    const done = await resumeNotesRun({ model, files }, { state, decisions: { call_0: "approve" } });
    expect(done.finishReason).toBe("stop");
    expect(done.text).toBe(notesRun.answer);
    expect(toolResultsPerRequest(model)).toEqual([0, 1]);
    expect(calls()).toEqual([{ text: notesRun.note, key: "agent-timed-out:tool:1:call_0" }]);
  });

  it("survives a crash of the Restate server too, with the approval sent while no worker runs", async () => {
    const { model, startWorker, run, reachApproval, listed, approve, result, calls } = await setUp();
    const first = await startWorker();
    await run("agent-server-restarted").workflowSubmit({ input: notesRun.input });
    const signal = await reachApproval(1, first);
    // Listed while a worker runs; answered while none does.
    const item = await listed("agent-server-restarted", signal);
    // As above: the kill comes once the model step's journal entry is acknowledged.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await first.kill();
    await server.restart();
    await approve("agent-server-restarted", signal, item);

    const second = await startWorker();
    const final = await result("agent-server-restarted", second);
    expect(final.text).toBe(notesRun.answer);
    expect(toolResultsPerRequest(model)).toEqual([0, 1]);
    expect(calls()).toEqual([{ text: notesRun.note, key: "agent-server-restarted:tool:1:call_0" }]);
  });

  it("a run whose model step failed, replayed after a SIGKILL of the worker, fails with the same ProviderError (class, code, status, retryable, requestId) without asking the model again", async () => {
    const { model, files, ingress, startWorker } = await setUp(startRateLimitedModel);
    const failing = ingress.workflowClient<FailingModel>({ name: "failing-model" }, "agent-model-failed");
    const first = await startWorker({ HANG_AFTER_FAILURE: "1" });
    await failing.workflowSubmit(null);
    await waitFor(() => runFailures(files.eventsFile).length === 1, {
      timeoutMs: 15_000,
      what: `the run to fail; worker output:\n${first.output()}`,
    });
    // As above: the kill comes once the failed step's journal entry is acknowledged, before the
    // workflow ends (the worker waits after the failure).
    await new Promise((resolve) => setTimeout(resolve, 300));
    await first.kill();
    expect(model.requests).toHaveLength(1);

    const second = await startWorker();
    const replayed = await withTimeout(failing.workflowAttach(), {
      timeoutMs: 15_000,
      what: () => `the run's result; worker output:\n${second.output()}`,
    });
    expect(runFailures(files.eventsFile)).toEqual([rateLimitedRunError, rateLimitedRunError]);
    expect(replayed).toEqual(runFailures(files.eventsFile)[0]);
    // The replay got the failure from the journal: the model was asked once, in the first worker.
    expect(model.requests).toHaveLength(1);
  });
});
