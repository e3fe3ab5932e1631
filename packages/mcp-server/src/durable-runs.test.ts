import {
  Agent,
  type AgentResult,
  type PendingToolCall,
  type ResumeDecision,
  type RunState,
  tool,
} from "@junction/core";
import { scriptedModel } from "@junction/core/testing";
import { MCP } from "@junction/mcp-client";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { agentTool } from "./agent-tool.js";
import type { DurableAgentRuns, DurableRunStatus } from "./durable-runs.js";
import { createMCPServer } from "./mcp-server.js";
import { type RunningHTTPServer, serveHTTP } from "./node.js";
import { InMemoryTaskStore } from "./task-store.js";

// Tasks whose runs a durable engine keeps (`tasks.runs`): the task is the engine's run, its status
// and pending approvals are read from the engine, the answer goes through it, and a server that
// replaced the first one serves the task. The engine here is a stand-in that keeps runs in this
// test's memory, made of core's own run and resume; what is tested is the server's side of the
// interface (the DBOS adapter, `dbosAgentRuns`, is tested end to end in
// tests/mcp-server-dbos-tasks.test.ts).

const KEY = "a test key that is 32 bytes long!!";

/** Core's run and resume behind the `DurableAgentRuns` interface; what the server asked of it is recorded. */
class StandInEngine implements DurableAgentRuns {
  readonly calls: string[] = [];
  readonly runIds: string[] = [];
  readonly #runs = new Map<
    string,
    { now: DurableRunStatus; state?: RunState; decisions: Record<string, ResumeDecision> }
  >();
  constructor(readonly makeAgent: () => Agent) {}

  async start(run: { tool: string; runId: string; request: string }): Promise<void> {
    this.calls.push(`start ${run.tool} ${run.request}`);
    this.runIds.push(run.runId);
    if (this.#runs.has(run.runId)) return;
    this.#runs.set(run.runId, { now: { status: "working" }, decisions: {} });
    void this.#follow(run.runId, this.makeAgent().send(run.request, { approvalTimeoutMs: 0 }).final);
  }

  async status(runId: string): Promise<DurableRunStatus> {
    const run = this.#runs.get(runId);
    return run ? run.now : { status: "failed", message: `no run ${runId}` };
  }

  async answer(runId: string, item: PendingToolCall, decision: ResumeDecision): Promise<void> {
    this.calls.push(`answer ${item.name} ${JSON.stringify(decision)}`);
    const run = this.#runs.get(runId);
    if (!run?.state || run.now.status !== "input_required") return;
    run.decisions[item.id] = decision;
    if (!run.now.pending.every((call) => run.decisions[call.id] !== undefined)) return;
    const { state, decisions } = run;
    run.now = { status: "working" };
    run.decisions = {};
    void this.#follow(runId, this.makeAgent().resume({ state, decisions }, { approvalTimeoutMs: 0 }).final);
  }

  async cancel(runId: string): Promise<void> {
    this.calls.push("cancel");
    const run = this.#runs.get(runId);
    if (run) run.now = { status: "cancelled" };
  }

  async #follow(runId: string, final: Promise<AgentResult>) {
    const result = await final;
    const run = this.#runs.get(runId)!;
    if (result.finishReason === "approval-required") {
      run.state = result.state;
      run.now = { status: "input_required", pending: result.pending };
    } else {
      run.now = {
        status: "completed",
        result: { content: [{ type: "text", text: result.text }], isError: false },
      };
    }
  }
}

const running: RunningHTTPServer[] = [];
const clients: MCP[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((mcp) => mcp.close()));
  await Promise.all(running.splice(0).map((server) => server.close()));
});

describe("tasks whose runs a durable engine keeps", () => {
  it("reads the run's approval from the engine, answers through it, and is served by the server that replaced the first", async () => {
    const opened: string[] = [];
    const vault = tool({
      name: "open_vault",
      description: "Opens the vault",
      schema: z.object({ door: z.string() }),
      execute: async ({ door }) => {
        opened.push(door);
        return `opened ${door}`;
      },
    });
    const provider = scriptedModel([
      { toolCalls: [{ id: "c1", name: "open_vault", input: { door: "north" } }] },
      { text: "The north door is open." },
    ]);
    const engine = new StandInEngine(
      () => new Agent({ provider, model: "scripted", tools: [vault], approval: () => "ask" }),
    );
    const store = new InMemoryTaskStore();
    // The first server suggests slow polling: no poll is under way when it closes.
    const serve = (pollIntervalMs: number, port = 0) =>
      serveHTTP(
        createMCPServer({
          name: "agents",
          version: "1.0.0",
          stateKey: KEY,
          tasks: { store, runs: engine, pollIntervalMs },
          tools: [
            agentTool(() => new Agent({ provider: scriptedModel([]), model: "unused" }), {
              name: "ask_keeper",
              description: "Asks the keeper agent",
            }),
          ],
        }),
        { port },
      );
    const first = await serve(3_000);
    running.push(first);
    const port = Number(new URL(first.url).port);
    const asked: unknown[] = [];
    const mcp = new MCP({
      transport: "http",
      url: first.url,
      handlers: {
        elicitation: async (request) => {
          asked.push(request);
          // The server process goes away while the person thinks; another one takes over.
          await first.close();
          running.splice(running.indexOf(first), 1);
          running.push(await serve(20, port));
          return { action: "accept", content: {} };
        },
      },
    });
    clients.push(mcp);
    await mcp.connect();
    expect(await mcp.callTool("ask_keeper", { request: "Open the north door" })).toEqual({
      content: [{ type: "text", text: "The north door is open." }],
      isError: false,
    });
    expect(opened).toEqual(["north"]);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      message: expect.stringContaining('wants to call the tool "open_vault"'),
    });
    expect(engine.calls).toEqual(["start ask_keeper Open the north door", 'answer open_vault "approve"']);
    // The stored task is the engine's run, and ended as it did.
    const [record] = await store.list();
    expect(record).toMatchObject({ runId: record?.taskId, status: "completed", tool: "ask_keeper" });
    expect(engine.runIds).toEqual([record?.taskId]);
  });
});
