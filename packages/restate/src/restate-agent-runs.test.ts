import { createServer, type Http2Server, type ServerHttp2Session } from "node:http2";
import type { AddressInfo } from "node:net";
import { Agent, type PendingToolCall } from "@junction/core";
import { scriptedModel } from "@junction/core/testing";
import { type RestateServer, startRestateServer } from "@junction/durable-engines/restate-server";
import type { Tool } from "@junction/types";
import * as restate from "@restatedev/restate-sdk";
import * as clients from "@restatedev/restate-sdk-clients";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RestateAgentRunStatus, type RestateAgentRuns, restateAgentRuns } from "./restate-agent-runs.js";
import { restateAgentWorkflow } from "./restate-agent-workflow.js";

// restateAgentRuns, what @junction/mcp-server's `tasks.runs` drives, against a real Restate server
// with the workflows served from this process: the task's view of a run (working, waiting with
// its pending calls, the agent tool's answer, cancelled, failed). The MCP server restarted between
// the question and the answer is tested end to end in tests/mcp-server-restate-tasks.test.ts.

let server: RestateServer;
let endpoint: Http2Server;
let ingress: clients.Ingress;
let runs: RestateAgentRuns;
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

/** An agent that opens the door the request names, after a person approved; "broken" fails for good. */
const doorAgent =
  (who: string) =>
  ({ input }: { input: string }) => {
    if (input === "broken") throw new restate.TerminalError(`The ${who} is away.`);
    return new Agent({
      provider: scriptedModel([
        { toolCalls: [{ id: "c1", name: "open_vault", input: { door: input } }] },
        { text: `The ${who} opened the ${input} door.` },
      ]),
      model: "scripted",
      tools: [vault],
      approval: () => "ask",
    });
  };
const keeper = restateAgentWorkflow("keeper", doorAgent("keeper"));
const porter = restateAgentWorkflow("porter", doorAgent("porter"));
const workflows = { ask_keeper: keeper, ask_porter: porter };

beforeAll(async () => {
  server = await startRestateServer();
  endpoint = createServer(restate.createEndpointHandler({ services: [keeper, porter] }));
  await new Promise<void>((resolve) => endpoint.listen(0, "127.0.0.1", resolve));
  await server.register(`http://127.0.0.1:${(endpoint.address() as AddressInfo).port}`);
  ingress = clients.connect({ url: server.ingressUrl });
  runs = restateAgentRuns({ workflows, ingress });
});
afterAll(async () => {
  await server?.stop();
  await new Promise((resolve) => endpoint?.close(resolve));
});

/** Polls the run's status until it is `status`; resolves with it. */
async function reach<S extends RestateAgentRunStatus["status"]>(
  runId: string,
  status: S,
  on: RestateAgentRuns = runs,
) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const now = await on.status(runId);
    if (now.status === status) return now as Extract<RestateAgentRunStatus, { status: S }>;
    if (Date.now() > deadline) throw new Error(`The run ${runId} is ${JSON.stringify(now)}, not ${status}.`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("restateAgentRuns", () => {
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
          { type: "text", text: "The keeper opened the north door." },
          { type: "image", data: "cGljdHVyZQ==", mimeType: "image/png" },
        ],
        isError: false,
      },
    });
    expect(opened).toEqual(["north"]);
  });

  it("finds a run's workflow among several after a restart (a new restateAgentRuns knows no run), and answers it there", async () => {
    await runs.start({ tool: "ask_porter", runId: "runs-porter", request: "back" });
    const restarted = restateAgentRuns({ workflows, ingress });
    const [item] = (await reach("runs-porter", "input_required", restarted)).pending;
    expect(item).toMatchObject({ id: "c1", name: "open_vault", input: { door: "back" } });
    await restarted.answer("runs-porter", item!, "approve");
    expect(await reach("runs-porter", "completed", restateAgentRuns({ workflows, ingress }))).toEqual({
      status: "completed",
      result: {
        content: [
          { type: "text", text: "The porter opened the back door." },
          { type: "image", data: "cGljdHVyZQ==", mimeType: "image/png" },
        ],
        isError: false,
      },
    });
    expect(opened).toContain("back");
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
    expect(await reach("runs-cancel", "cancelled")).toEqual({ status: "cancelled" });
    // The run ended without taking an answer: this one is not taken either.
    await expect(runs.answerApproval("runs-cancel", item!, "approve")).resolves.toEqual({
      status: "expired",
    });
    expect(await runs.status("runs-cancel")).toEqual({ status: "cancelled" });
    expect(opened).not.toContain("south");
  });

  it("cancels a run no worker has begun yet (the workers are down): it ends cancelled as it begins, and the call never runs", async () => {
    // A deployment of its own, registered, then down while the run is submitted and cancelled.
    const sleeper = restateAgentWorkflow("sleeper", doorAgent("sleeper"));
    const sessions = new Set<ServerHttp2Session>();
    const listen = async (port: number) => {
      const server = createServer(restate.createEndpointHandler({ services: [sleeper] }));
      server.on("session", (session) => sessions.add(session));
      await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
      return server;
    };
    const stop = async (server: Http2Server) => {
      for (const session of sessions) session.destroy();
      sessions.clear();
      await new Promise((resolve) => server.close(resolve));
    };
    const down = await listen(0);
    const port = (down.address() as AddressInfo).port;
    await server.register(`http://127.0.0.1:${port}`);
    await stop(down);

    const sleepers = restateAgentRuns({ workflows: { ask_sleeper: sleeper }, ingress });
    await sleepers.start({ tool: "ask_sleeper", runId: "runs-cancel-early", request: "cellar" });
    await sleepers.cancel("runs-cancel-early");
    const up = await listen(port);
    try {
      expect(await reach("runs-cancel-early", "cancelled", sleepers)).toEqual({ status: "cancelled" });
    } finally {
      await stop(up);
    }
    expect(opened).not.toContain("cellar");
  });

  it("shows a run that failed with a terminal error as failed, with its error's message", async () => {
    await runs.start({ tool: "ask_keeper", runId: "runs-failed", request: "broken" });
    expect(await reach("runs-failed", "failed")).toEqual({
      status: "failed",
      message: "The keeper is away.",
    });
  });

  it("refuses a tool it has no workflow for, and shows a run id Restate never saw as failed", async () => {
    await expect(
      runs.start({ tool: "ask_nobody", runId: "runs-nobody", request: "x" }),
    ).rejects.toMatchObject({
      code: "invalid-argument",
      message:
        'restateAgentRuns has no workflow for the agent tool "ask_nobody": add it to `workflows` ("ask_nobody": a restateAgentWorkflow).',
    });
    const missing = {
      status: "failed",
      message:
        'Restate has no run "runs-nobody": it was not started on this Restate server, or it ended longer ago than the workflow\'s retention.',
    };
    expect(await runs.status("runs-nobody")).toEqual(missing);
    // With one workflow, the output itself says the key was never submitted.
    expect(
      await restateAgentRuns({ workflows: { ask_keeper: keeper }, ingress }).status("runs-nobody"),
    ).toEqual(missing);
  });
});
