import { createServer, type Http2Server } from "node:http2";
import type { AddressInfo } from "node:net";
import { Agent, type AgentResult, type PendingToolCall } from "@junction/core";
import { scriptedModel } from "@junction/core/testing";
import { type RestateServer, startRestateServer } from "@junction/durable-engines/restate-server";
import type { Tool } from "@junction/types";
import * as restate from "@restatedev/restate-sdk";
import * as clients from "@restatedev/restate-sdk-clients";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ApprovalOutcome,
  answerApproval,
  approvalStatus,
  waitForApprovals,
} from "./pending-approvals.js";
import { type AgentRunRequest, restateAgentWorkflow } from "./restate-agent-workflow.js";
import { sendSignal } from "./send-signal.js";

// An answer counts once on Restate, and a run's questions can be waited for: eight answers to one
// pending call sent at once through eight ingress clients (the same decision, then conflicting
// ones), an approval hand-built without digests, and the status of a run before it asks, while
// it waits, once it ended, and for a key no run has. A real Restate server from npm.

let server: RestateServer;
let endpoint: Http2Server;
let ingress: clients.Ingress;
const opened: string[] = [];
/** Runs whose Agent is not made until the test opens their gate: running, nothing asked. */
const gates = new Map<string, Promise<void>>();

const vault: Tool<{ door: string }> = {
  name: "open_vault",
  description: "Opens the vault",
  inputSchema: { type: "object", properties: { door: { type: "string" } }, required: ["door"] },
  execute: async ({ door }) => {
    opened.push(door);
    return `opened ${door}`;
  },
};

// Opens the door the request names once a person approved; a gated door waits for its gate first.
const keeper = restateAgentWorkflow("answersKeeper", async ({ input }) => {
  await gates.get(input);
  return new Agent({
    provider: scriptedModel([
      { toolCalls: [{ id: "c1", name: "open_vault", input: { door: input } }] },
      { text: `The ${input} door is open.` },
    ]),
    model: "scripted",
    tools: [vault],
    approval: () => "ask",
  });
});
const workflow = "answersKeeper";
type Keeper = { run: (ctx: unknown, request: AgentRunRequest) => Promise<AgentResult> };

beforeAll(async () => {
  server = await startRestateServer();
  endpoint = createServer(restate.createEndpointHandler({ services: [keeper] }));
  await new Promise<void>((resolve) => endpoint.listen(0, "127.0.0.1", resolve));
  await server.register(`http://127.0.0.1:${(endpoint.address() as AddressInfo).port}`);
  ingress = clients.connect({ url: server.ingressUrl });
});
afterAll(async () => {
  await server?.stop();
  await new Promise((resolve) => endpoint?.close(resolve));
});

/** Submits a run and waits, with the API, until it asks; resolves with its one pending call. */
async function asked(runId: string): Promise<PendingToolCall> {
  await ingress.workflowClient<Keeper>({ name: workflow }, runId).workflowSubmit({ input: runId });
  const now = await waitForApprovals({ ingress, workflow, runId, timeoutMs: 30_000 });
  if (now.status !== "waiting") throw new Error(`${runId} is ${JSON.stringify(now)}, not waiting`);
  expect(now.pending).toHaveLength(1);
  return now.pending[0]!;
}

const result = (runId: string) => ingress.workflowClient<Keeper>({ name: workflow }, runId).workflowAttach();

/** Eight ingress clients of their own, as eight processes would have. */
const eightIngresses = () => Array.from({ length: 8 }, () => clients.connect({ url: server.ingressUrl }));

describe("an answer counts once on Restate", () => {
  it("eight approvals of one call sent at once through eight ingress clients: the tool runs once, one answer is taken and seven are told they were duplicates", async () => {
    const item = await asked("eight-approve");
    const outcomes = await Promise.all(
      eightIngresses().map((each) =>
        answerApproval({ ingress: each, workflow, runId: "eight-approve", item, decision: "approve" }),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.status === "taken")).toEqual([
      { status: "taken", decision: { approved: true } },
    ]);
    expect(outcomes.filter((outcome) => outcome.status === "duplicate")).toEqual(
      Array.from({ length: 7 }, () => ({ status: "duplicate", decision: { approved: true } })),
    );
    const final = await result("eight-approve");
    expect(final.text).toBe("The eight-approve door is open.");
    expect(final.warnings).toEqual([]);
    expect(opened.filter((door) => door === "eight-approve")).toEqual(["eight-approve"]);
    // A ninth answer, after the run ended: the first one's outcome, nothing runs.
    expect(
      await answerApproval({ ingress, workflow, runId: "eight-approve", item, decision: { deny: "late" } }),
    ).toEqual({ status: "duplicate", decision: { approved: true } });
    expect(await approvalStatus({ ingress, workflow, runId: "eight-approve" })).toEqual({
      status: "finished",
      outcome: { status: "succeeded", output: final },
    });
  });

  it("eight conflicting answers at once (approve, deny, approve, …), with one idempotency key as restateAgentRuns sends them: exactly one decision wins, every other answer gets it, the tool runs at most once", async () => {
    const item = await asked("eight-conflicting");
    const outcomes: ApprovalOutcome[] = await Promise.all(
      eightIngresses().map((each, index) =>
        answerApproval({
          ingress: each,
          workflow,
          runId: "eight-conflicting",
          item,
          decision: index % 2 === 0 ? "approve" : { deny: `no ${index}` },
          ...(index < 4 ? { idempotencyKey: "eight-conflicting:answer:1:c1" } : {}),
        }),
      ),
    );
    const taken = outcomes.filter((outcome) => outcome.status === "taken");
    expect(taken).toHaveLength(1);
    const winner = (taken[0] as Extract<ApprovalOutcome, { status: "taken" }>).decision;
    expect(outcomes.filter((outcome) => outcome.status === "duplicate")).toEqual(
      Array.from({ length: 7 }, () => ({ status: "duplicate", decision: winner })),
    );
    const final = await result("eight-conflicting");
    const runs = opened.filter((door) => door === "eight-conflicting");
    if (winner.approved) {
      expect(runs).toEqual(["eight-conflicting"]);
      expect(final.text).toBe("The eight-conflicting door is open.");
    } else {
      expect(runs).toEqual([]);
      // The model got the winning denial's reason.
      expect(JSON.stringify(final.steps[0]!.toolResults)).toContain(winner.reason!);
    }
    expect(final.finishReason).toBe("stop");
  });

  it("an approval hand-built with sendSignal, without the call's digests, does not approve it: the call is denied with a run-state-mismatch warning naming what was missing", async () => {
    const item = await asked("no-digests");
    await sendSignal({
      ingress,
      workflow,
      runId: "no-digests",
      name: `approval:${item.step}:${item.id}`,
      value: { approved: true },
      until: "resolved",
    });
    const final = await result("no-digests");
    expect(opened.filter((door) => door === "no-digests")).toEqual([]);
    expect(final.warnings).toEqual([
      {
        code: "run-state-mismatch",
        message: `The call "${item.id}" was not run: the answer carried no tool digest and no arguments digest (it was not given for the call as listed: answer with answerApproval and an item of pendingApprovals), so it was not run.`,
      },
    ]);
    // An answer sent afterwards is told what the run took: the denial.
    expect(
      await answerApproval({ ingress, workflow, runId: "no-digests", item, decision: "approve" }),
    ).toMatchObject({
      status: "duplicate",
      decision: { approved: false },
    });
  });

  it("the run's own promises are not signals: a signal named junction.… is refused", async () => {
    await expect(
      sendSignal({
        ingress,
        workflow,
        runId: "reserved",
        name: "junction.asked:1",
        value: true,
        until: "resolved",
      }),
    ).rejects.toThrow(/must be a string that does not begin with/);
  });
});

describe("waiting for a run's question on Restate", () => {
  it("tells apart an unknown run, a run that has not asked yet, a run waiting for these calls, and a finished run", async () => {
    expect(await approvalStatus({ ingress, workflow, runId: "never-started" })).toEqual({
      status: "unknown",
    });
    expect(await waitForApprovals({ ingress, workflow, runId: "never-started", timeoutMs: 1_000 })).toEqual({
      status: "unknown",
    });

    let openGate = () => {};
    gates.set("gated-door", new Promise<void>((resolve) => (openGate = resolve)));
    await ingress
      .workflowClient<Keeper>({ name: workflow }, "gated-door")
      .workflowSubmit({ input: "gated-door" });
    expect(await approvalStatus({ ingress, workflow, runId: "gated-door" })).toEqual({ status: "running" });
    // Nothing asked within the time given: still running.
    expect(await waitForApprovals({ ingress, workflow, runId: "gated-door", timeoutMs: 300 })).toEqual({
      status: "running",
    });
    // An abort ends the wait at once.
    const controller = new AbortController();
    const aborted = waitForApprovals({
      ingress,
      workflow,
      runId: "gated-door",
      timeoutMs: 60_000,
      signal: controller.signal,
    });
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ code: "aborted" });

    // The wait began before the run asked, and ends when it does.
    const waiting = waitForApprovals({ ingress, workflow, runId: "gated-door", timeoutMs: 30_000 });
    openGate();
    const now = await waiting;
    expect(now).toEqual({
      status: "waiting",
      pending: [expect.objectContaining({ name: "open_vault", input: { door: "gated-door" }, step: 1 })],
    });
    const [item] = (now as { pending: PendingToolCall[] }).pending;
    expect(
      await answerApproval({ ingress, workflow, runId: "gated-door", item: item!, decision: "approve" }),
    ).toEqual({
      status: "taken",
      decision: { approved: true },
    });
    // Waiting again: the run ends without asking anything more.
    const ended = await waitForApprovals<AgentResult>({
      ingress,
      workflow,
      runId: "gated-door",
      timeoutMs: 30_000,
    });
    expect(ended).toMatchObject({
      status: "finished",
      outcome: { status: "succeeded", output: { text: "The gated-door door is open." } },
    });
  });
});
