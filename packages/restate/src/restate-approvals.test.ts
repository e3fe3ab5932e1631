import { fileURLToPath } from "node:url";
import { type AgentResult, argumentsDigest, type PendingToolCall } from "@junction/core";
import {
  notesRun,
  notesRuns,
  resultFrom,
  toolResultsPerRequest,
} from "@junction/durable-engines/agent-scenario";
import { type Http2Balancer, startHttp2Balancer } from "@junction/durable-engines/http2-balancer";
import {
  freePort,
  type NodeProcess,
  startNode,
  waitFor,
  waitForPort,
  withTimeout,
} from "@junction/durable-engines/processes";
import { type RestateServer, startRestateServer } from "@junction/durable-engines/restate-server";
import * as clients from "@restatedev/restate-sdk-clients";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { AgentRunRequest } from "./restate-agent-workflow.js";

// Pending approvals as data, and several machines: the notes Agent's runs on worker processes
// behind one deployment URL (an HTTP/2 load balancer), their approvals listed and answered by a
// process of its own (test-workers/approvals.ts) with only the ingress URL, and a worker lost
// for good whose runs the other worker replays.

const worker = fileURLToPath(new URL("./test-workers/agent-worker.ts", import.meta.url));
const approver = fileURLToPath(new URL("./test-workers/approvals.ts", import.meta.url));

let server: RestateServer;
const runs = notesRuns("junction-restate-approvals-test-");
const balancers: Http2Balancer[] = [];

beforeAll(async () => {
  server = await startRestateServer();
});
afterAll(async () => {
  await server?.stop();
  runs.remove();
});
afterEach(async () => {
  await runs.cleanUp();
  for (const balancer of balancers.splice(0)) await balancer.stop();
});

type Notes = { run: (ctx: unknown, request: AgentRunRequest) => Promise<AgentResult> };

/** `workers` worker ports behind one balancer, registered as the deployment once the first worker is up. */
async function setUp(workers: number) {
  const ports = await Promise.all(Array.from({ length: workers }, () => freePort()));
  const balancer = await startHttp2Balancer(ports.map((port) => `http://127.0.0.1:${port}`));

  balancers.push(balancer);
  const { model, environment, events, track } = await runs.next();
  let registered = false;
  const startWorker = async (index: number) => {
    const running = track(
      startNode(worker, { PORT: String(ports[index]), RESTATE_LOGGING: "WARN", ...environment }),
    );
    await waitForPort(ports[index]!, {
      timeoutMs: 10_000,
      what: () => `worker ${index} to listen; its output:\n${running.output()}`,
    });
    if (!registered) await server.register(balancer.url);
    registered = true;
    return running;
  };
  const ingress = clients.connect({ url: server.ingressUrl });
  const submit = (runId: string) =>
    ingress.workflowClient<Notes>({ name: "notes" }, runId).workflowSubmit({ input: notesRun.input });
  const fromApprover = (action: string, runIds: string[], edited: Record<string, unknown> = {}) =>
    resultFrom<Record<string, PendingToolCall[]>>(approver, {
      INGRESS_URL: server.ingressUrl,
      ACTION: action,
      RUN_IDS: runIds.join(","),
      EDITED: JSON.stringify(edited),
    });
  const result = (runId: string, running: NodeProcess) =>
    withTimeout(ingress.workflowClient<Notes>({ name: "notes" }, runId).workflowAttach(), {
      timeoutMs: 20_000,
      what: () => `the result of ${runId}; worker output:\n${running.output()}`,
    });
  const reachNotifications = (count: number, running: NodeProcess) =>
    waitFor(() => events.notifications().length >= count, {
      timeoutMs: 20_000,
      what: `${count} approval notifications; worker output:\n${running.output()}`,
    });
  const upstreams = ports.map((port) => `http://127.0.0.1:${port}`);
  return {
    ...events,
    model,
    balancer,
    upstreams,
    startWorker,
    submit,
    fromApprover,
    result,
    reachNotifications,
  };
}

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

describe("pending approvals as data on Restate", () => {
  it("lists a waiting run's approvals from another process, approves one as listed, and refuses one whose arguments differ from what was listed", async () => {
    const { model, startWorker, submit, fromApprover, result, reachNotifications, calls, notifications } =
      await setUp(1);
    const running = await startWorker(0);
    await submit("listed-ok");
    await submit("listed-edited");
    const toCancel = await submit("listed-cancelled");
    await reachNotifications(3, running);
    const listed = await fromApprover("list", [
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
    const cancelled = await fetch(`${server.adminUrl}/invocations/${toCancel.invocationId}/cancel`, {
      method: "PATCH",
    });
    expect(cancelled.ok).toBe(true);
    await waitFor(
      async () => (await fromApprover("list", ["listed-cancelled"]))["listed-cancelled"]!.length === 0,
      { timeoutMs: 10_000, what: "the cancelled run to be no longer listed" },
    );

    await fromApprover("approve", ["listed-ok", "listed-edited"], { "listed-edited": { text: "buy bread" } });
    const ok = await result("listed-ok", running);
    const edited = await result("listed-edited", running);
    expect(ok.text).toBe(notesRun.answer);
    expect(edited.warnings).toEqual([
      {
        code: "run-state-mismatch",
        message: `The call "${listed["listed-edited"]![0]!.id}" was not run: its arguments changed since the call was listed for approval, so it was not run.`,
      },
    ]);
    expect(calls()).toEqual([
      { text: notesRun.note, key: `listed-ok:tool:1:${listed["listed-ok"]![0]!.id}` },
    ]);
    expect(await fromApprover("list", ["listed-ok", "listed-edited"])).toEqual({
      "listed-ok": [],
      "listed-edited": [],
    });
    expect(model.requests).toHaveLength(5);
  });

  it("two workers behind one HTTP/2 load-balanced deployment URL, one SIGKILLed for good while its runs wait: the other replays them and finishes them after approvals from another process, each model step and tool call once, no approval asked twice", async () => {
    const {
      model,
      balancer,
      upstreams,
      startWorker,
      submit,
      fromApprover,
      result,
      reachNotifications,
      calls,
      notifications,
      questions,
    } = await setUp(2);
    // Only the first worker is up while the runs start, so both are on it.
    const lost = await startWorker(0);
    await submit("lost-1");
    await submit("lost-2");
    await reachNotifications(2, lost);
    const survivor = await startWorker(1);
    const listed = await fromApprover("list", ["lost-1", "lost-2"]);
    expect(Object.values(listed).map((items) => items.length)).toEqual([1, 1]);
    // The approval waits' journal entries are acknowledged a moment after the code goes on.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await lost.kill();
    expect(model.requests).toHaveLength(2);

    // Answered from another process, through the deployment (the survivor serves the handlers).
    expect(await fromApprover("approve", ["lost-1", "lost-2"])).toEqual(listed);
    const finals = [await result("lost-1", survivor), await result("lost-2", survivor)];
    expect(finals.map((final) => final.text)).toEqual([notesRun.answer, notesRun.answer]);
    expect(toolResultsPerRequest(model).sort()).toEqual([0, 0, 1, 1]);
    expect(
      calls()
        .map((call) => call.key)
        .sort(),
    ).toEqual([`lost-1:tool:1:${listed["lost-1"]![0]!.id}`, `lost-2:tool:1:${listed["lost-2"]![0]!.id}`]);
    // The survivor replayed the runs (the questions were shown again in its process) ...
    expect(balancer.routed.get(upstreams[1]!)).toBeGreaterThan(0);
    expect(questions().length).toBeGreaterThanOrEqual(4);
    // ... but nobody was notified again.
    expect(notifications()).toHaveLength(2);
  });
});
