import { DBOS, DBOSClient } from "@dbos-inc/dbos-sdk";
import { Agent, type PendingToolCall } from "@junction/core";
import { scriptedModel } from "@junction/core/testing";
import { type Postgres, startPostgres } from "@junction/durable-engines/postgres";
import type { Tool } from "@junction/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DBOSAgentRunStatus, type DBOSAgentRuns, dbosAgentRuns } from "./dbos-agent-runs.js";
import { dbosAgentWorkflow } from "./dbos-agent-workflow.js";

// dbosAgentRuns, what @junction/mcp-server's `tasks.runs` drives, in one process against a real
// DBOS on a real PostgreSQL: the task's view of a run (working, waiting with its pending calls,
// the agent tool's answer, cancelled, failed). The server restarted between the question and the
// answer is tested end to end in tests/mcp-server-dbos-tasks.test.ts.

let postgres: Postgres;
let client: DBOSClient;
let runs: DBOSAgentRuns;
const opened: string[] = [];

/** Opens a door; answers with text and a picture of it (a rich part the tool's answer keeps). */
const vault: Tool<{ door: string }> = {
  name: "open_vault",
  description: "Opens the vault",
  inputSchema: { type: "object", properties: { door: { type: "string" } }, required: ["door"] },
  execute: async ({ door }) => {
    opened.push(door);
    return [
      { type: "text", text: `opened ${door}` },
      { type: "image", data: "cGljdHVyZQ==", mimeType: "image/png" },
    ];
  },
};

// The keeper opens the door the request names, after a person approved; "broken" is a model that fails.
const keeper = dbosAgentWorkflow(
  "keeper",
  ({ input }) =>
    new Agent({
      provider: scriptedModel(
        input === "broken"
          ? [{ error: new Error("the model is down") }]
          : [
              { toolCalls: [{ id: "c1", name: "open_vault", input: { door: input } }] },
              { text: `The ${input} door is open.` },
            ],
      ),
      model: "scripted",
      tools: [vault],
      approval: () => "ask",
    }),
);

beforeAll(async () => {
  postgres = await startPostgres();
  const systemDatabaseUrl = postgres.url("junction_dbos_agent_runs");
  DBOS.setConfig({ name: "junction-dbos-agent-runs", systemDatabaseUrl, logLevel: "error" });
  await DBOS.launch();
  client = await DBOSClient.create({ systemDatabaseUrl });
  runs = dbosAgentRuns({ workflows: { ask_keeper: keeper }, client });
});
afterAll(async () => {
  await client?.destroy();
  await DBOS.shutdown();
  postgres?.stop();
});

/** Polls the run's status until it is `status`; resolves with it. */
async function reach<S extends DBOSAgentRunStatus["status"]>(runId: string, status: S) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const now = await runs.status(runId);
    if (now.status === status) return now as Extract<DBOSAgentRunStatus, { status: S }>;
    if (Date.now() > deadline) throw new Error(`The run ${runId} is ${JSON.stringify(now)}, not ${status}.`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("dbosAgentRuns", () => {
  it("shows the run's pending approval, answers it bound to its digests, and gives the agent tool's answer with its tools' rich parts", async () => {
    await runs.start({ tool: "ask_keeper", runId: "runs-approve", request: "north" });
    const waiting = await reach("runs-approve", "input_required");
    expect(waiting.pending).toEqual([
      {
        id: "c1",
        name: "open_vault",
        input: { door: "north" },
        step: 1,
        toolDigest: expect.stringMatching(/^[0-9a-f]{64}$/),
        argumentsDigest: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    ]);
    // Starting the same run id again is the same run.
    await runs.start({ tool: "ask_keeper", runId: "runs-approve", request: "north" });
    expect((await reach("runs-approve", "input_required")).pending).toEqual(waiting.pending);

    // An answer sent twice (a retried tasks/update) is one answer.
    await runs.answer("runs-approve", waiting.pending[0]!, "approve");
    // The second is told it was a duplicate, with the first one's decision.
    expect(await runs.answerApproval("runs-approve", waiting.pending[0]!, "approve")).toEqual({
      status: "duplicate",
      decision: { approved: true },
    });
    expect(await reach("runs-approve", "completed")).toEqual({
      status: "completed",
      result: {
        content: [
          { type: "text", text: "The north door is open." },
          { type: "image", data: "cGljdHVyZQ==", mimeType: "image/png" },
        ],
        isError: false,
      },
    });
    expect(opened).toEqual(["north"]);
  });

  it("does not run a call whose answer names other arguments than the waiting call's", async () => {
    await runs.start({ tool: "ask_keeper", runId: "runs-edited", request: "east" });
    const [item] = (await reach("runs-edited", "input_required")).pending;
    const edited: PendingToolCall = { ...item!, input: { door: "west" }, argumentsDigest: "0".repeat(64) };
    await runs.answer("runs-edited", edited, "approve");
    await reach("runs-edited", "completed");
    expect(opened).not.toContain("west");
    expect(opened).not.toContain("east");
  });

  it("cancels a waiting run: cancelled, and the call never runs", async () => {
    await runs.start({ tool: "ask_keeper", runId: "runs-cancel", request: "south" });
    const [item] = (await reach("runs-cancel", "input_required")).pending;
    await runs.cancel("runs-cancel");
    expect(await runs.status("runs-cancel")).toEqual({ status: "cancelled" });
    // The run ended without taking an answer: this one is not taken either.
    await expect(runs.answerApproval("runs-cancel", item!, "approve")).resolves.toEqual({
      status: "expired",
    });
    expect(await runs.status("runs-cancel")).toEqual({ status: "cancelled" });
    expect(opened).not.toContain("south");
  });

  it("shows a run that failed as failed, with its error's message", async () => {
    await runs.start({ tool: "ask_keeper", runId: "runs-failed", request: "broken" });
    expect(await reach("runs-failed", "failed")).toEqual({
      status: "failed",
      message: "The scripted stream failed: the model is down",
    });
  });

  it("refuses a tool it has no workflow for, and shows a run id DBOS never saw as failed", async () => {
    await expect(
      runs.start({ tool: "ask_nobody", runId: "runs-nobody", request: "x" }),
    ).rejects.toMatchObject({
      code: "invalid-argument",
      message:
        'dbosAgentRuns has no workflow for the agent tool "ask_nobody": add it to `workflows` ("ask_nobody": a dbosAgentWorkflow).',
    });
    expect(await runs.status("runs-nobody")).toEqual({
      status: "failed",
      message: 'DBOS has no run "runs-nobody": it was not started on this system database.',
    });
  });
});
