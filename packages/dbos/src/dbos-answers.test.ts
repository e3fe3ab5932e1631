import { DBOS, DBOSClient } from "@dbos-inc/dbos-sdk";
import { Agent, type AgentResult, type PendingToolCall } from "@junction/core";
import { scriptedModel } from "@junction/core/testing";
import { type Postgres, startPostgres } from "@junction/durable-engines/postgres";
import type { Tool } from "@junction/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dbosAgentWorkflow } from "./dbos-agent-workflow.js";
import {
  type ApprovalOutcome,
  answerApproval,
  approvalStatus,
  waitForApprovals,
} from "./pending-approvals.js";
import { sendSignal } from "./send-signal.js";

// An answer counts once on DBOS, and a run's questions can be waited for: eight answers to one
// pending call sent at once from eight DBOS clients (the same decision, then conflicting ones),
// an approval hand-built without digests, and the status of a run before it asks, while it
// waits, once it ended, and for an id no run has. A real DBOS on a real PostgreSQL.

let postgres: Postgres;
let systemDatabaseUrl: string;
let client: DBOSClient;
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

// Opens the door the request names once a person approved; a door named "gated-…" waits for its gate first.
const keeper = dbosAgentWorkflow("answers-keeper", async ({ input }) => {
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

beforeAll(async () => {
  postgres = await startPostgres();
  systemDatabaseUrl = postgres.url("junction_dbos_answers");
  DBOS.setConfig({ name: "junction-dbos-answers", systemDatabaseUrl, logLevel: "error" });
  await DBOS.launch();
  client = await DBOSClient.create({ systemDatabaseUrl });
});
afterAll(async () => {
  await client?.destroy();
  await DBOS.shutdown();
  postgres?.stop();
});

/** Starts a run and waits, with the API, until it asks; resolves with its one pending call. */
async function asked(runId: string): Promise<PendingToolCall> {
  await keeper.start({ input: runId }, { runId });
  const now = await waitForApprovals({ client, runId, timeoutMs: 30_000 });
  if (now.status !== "waiting") throw new Error(`${runId} is ${JSON.stringify(now)}, not waiting`);
  expect(now.pending).toHaveLength(1);
  return now.pending[0]!;
}

/** Eight DBOS clients of their own, as eight processes would have. */
async function eightClients(): Promise<DBOSClient[]> {
  return Promise.all(Array.from({ length: 8 }, () => DBOSClient.create({ systemDatabaseUrl })));
}

async function result(runId: string): Promise<AgentResult> {
  return client.retrieveWorkflow<AgentResult>(runId).getResult({ pollingIntervalMs: 50 });
}

describe("an answer counts once on DBOS", () => {
  it("eight approvals of one call sent at once from eight clients: the tool runs once, one answer is taken and seven are told they were duplicates", async () => {
    const item = await asked("eight-approve");
    const senders = await eightClients();
    try {
      const outcomes = await Promise.all(
        senders.map((sender) =>
          answerApproval({ sender, runId: "eight-approve", item, decision: "approve", timeoutMs: 30_000 }),
        ),
      );
      expect(outcomes.filter((outcome) => outcome.status === "taken")).toEqual([
        { status: "taken", decision: { approved: true } },
      ]);
      expect(outcomes.filter((outcome) => outcome.status === "duplicate")).toEqual(
        Array.from({ length: 7 }, () => ({ status: "duplicate", decision: { approved: true } })),
      );
    } finally {
      await Promise.all(senders.map((sender) => sender.destroy()));
    }
    const final = await result("eight-approve");
    expect(final.text).toBe("The eight-approve door is open.");
    expect(final.warnings).toEqual([]);
    expect(opened.filter((door) => door === "eight-approve")).toEqual(["eight-approve"]);
    // A ninth answer, after the run ended: the first one's outcome, nothing runs.
    expect(
      await answerApproval({ sender: client, runId: "eight-approve", item, decision: { deny: "late" } }),
    ).toEqual({
      status: "duplicate",
      decision: { approved: true },
    });
    expect(await approvalStatus({ client, runId: "eight-approve" })).toEqual({
      status: "finished",
      outcome: { status: "succeeded", output: final },
    });
  });

  it("eight conflicting answers at once (approve, deny, approve, …): exactly one decision wins, every other answer gets it, the tool runs at most once", async () => {
    const item = await asked("eight-conflicting");
    const senders = await eightClients();
    let outcomes: ApprovalOutcome[];
    try {
      outcomes = await Promise.all(
        senders.map((sender, index) =>
          answerApproval({
            sender,
            runId: "eight-conflicting",
            item,
            decision: index % 2 === 0 ? "approve" : { deny: `no ${index}` },
            timeoutMs: 30_000,
          }),
        ),
      );
    } finally {
      await Promise.all(senders.map((sender) => sender.destroy()));
    }
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
      sender: client,
      runId: "no-digests",
      name: `approval:${item.step}:${item.id}`,
      value: { approved: true },
    });
    const final = await result("no-digests");
    expect(opened.filter((door) => door === "no-digests")).toEqual([]);
    expect(final.warnings).toEqual([
      {
        code: "run-state-mismatch",
        message: `The call "${item.id}" was not run: the answer carried no tool digest and no arguments digest (it was not given for the call as listed: answer with answerApproval and an item of pendingApprovals), so it was not run.`,
      },
    ]);
  });
});

describe("waiting for a run's question on DBOS", () => {
  it("tells apart an unknown run, a run that has not asked yet, a run waiting for these calls, and a finished run", async () => {
    expect(await approvalStatus({ client, runId: "never-started" })).toEqual({ status: "unknown" });
    expect(await waitForApprovals({ client, runId: "never-started", timeoutMs: 1_000 })).toEqual({
      status: "unknown",
    });

    let openGate = () => {};
    gates.set("gated-door", new Promise<void>((resolve) => (openGate = resolve)));
    await keeper.start({ input: "gated-door" }, { runId: "gated-door" });
    expect(await approvalStatus({ client, runId: "gated-door" })).toEqual({ status: "running" });
    // Nothing asked within the time given: still running.
    expect(await waitForApprovals({ client, runId: "gated-door", timeoutMs: 300 })).toEqual({
      status: "running",
    });
    // An abort ends the wait at once.
    const controller = new AbortController();
    const aborted = waitForApprovals({
      client,
      runId: "gated-door",
      timeoutMs: 60_000,
      signal: controller.signal,
    });
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ code: "aborted" });

    // The wait began before the run asked, and ends when it does.
    const waiting = waitForApprovals({ client, runId: "gated-door", timeoutMs: 30_000 });
    openGate();
    const now = await waiting;
    expect(now).toEqual({
      status: "waiting",
      pending: [expect.objectContaining({ name: "open_vault", input: { door: "gated-door" }, step: 1 })],
    });
    const [item] = (now as { pending: PendingToolCall[] }).pending;
    expect(
      await answerApproval({ sender: client, runId: "gated-door", item: item!, decision: "approve" }),
    ).toEqual({
      status: "taken",
      decision: { approved: true },
    });
    // Waiting again: the run ends without asking anything more.
    const ended = await waitForApprovals<AgentResult>({ client, runId: "gated-door", timeoutMs: 30_000 });
    expect(ended).toMatchObject({
      status: "finished",
      outcome: { status: "succeeded", output: { text: "The gated-door door is open." } },
    });
  });
});
