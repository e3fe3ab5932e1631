import { Agent } from "@junction/core";
import type { DurableRunStatus } from "@junction/core/durable-runs";
import { scriptedModel } from "@junction/core/testing";
import { reachStatus } from "@junction/durable-engines/engine-contract";
import type { Tool } from "@junction/types";
import { describe, expect, it } from "vitest";
import { launchedRestate } from "../test/launched-restate.js";
import { restateEngine, serveEndpoint } from "../test/restate-engine.js";
import { type RestateAgentRuns, restateAgentRuns } from "./restate-agent-runs.js";
import { restateAgentWorkflow } from "./restate-agent-workflow.js";

// What only restateAgentRuns does (the engine contract in test/ runs the rest on DBOS and Restate
// alike): a Restate workflow key names a run of one workflow, so a runs adapter that knows no run
// (the MCP server restarted) finds which of several workflows has it; and a run can be cancelled
// before any worker began it. A real Restate server, the workflows served from this process.

const opened: string[] = [];

/** Opens a door; answers with text and a picture of it. */
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

/** An agent that opens the door the request names, after a person approved. */
const doorAgent =
  (who: string) =>
  ({ input }: { input: string }) =>
    new Agent({
      provider: scriptedModel([
        { toolCalls: [{ id: "c1", name: "open_vault", input: { door: input } }] },
        { text: `The ${who} opened the ${input} door.` },
      ]),
      model: "scripted",
      tools: [vault],
      approval: () => "ask",
    });
restateEngine.agentWorkflow("keeper", doorAgent("keeper"));
restateEngine.agentWorkflow("porter", doorAgent("porter"));
const tools = { ask_keeper: "keeper", ask_porter: "porter" };
const workflows = { ask_keeper: { name: "keeper" }, ask_porter: { name: "porter" } };

const engine = launchedRestate();

/** Polls the run's status on `on` until it is `status`; resolves with it. */
const reach = <S extends DurableRunStatus["status"]>(runId: string, status: S, on: RestateAgentRuns) =>
  reachStatus(on, runId, status);

describe("restateAgentRuns, what only Restate needs", () => {
  it("finds a run's workflow among several after a restart (a new restateAgentRuns knows no run), and answers it there", async () => {
    await engine().agentRuns(tools).start({ tool: "ask_porter", runId: "runs-porter", request: "back" });
    const restarted = restateAgentRuns({ workflows, ingress: engine().ingress });
    const [item] = (await reach("runs-porter", "input_required", restarted)).pending;
    expect(item).toMatchObject({ id: "c1", name: "open_vault", input: { door: "back" } });
    await restarted.answer("runs-porter", item!, "approve");
    expect(
      await reach("runs-porter", "completed", restateAgentRuns({ workflows, ingress: engine().ingress })),
    ).toEqual({
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

  it("cancels a run no worker has begun yet (the workers are down): it ends cancelled as it begins, and the call never runs", async () => {
    // A deployment of its own, registered, then down (its port kept) while the run is submitted
    // and cancelled.
    const sleeper = restateAgentWorkflow("sleeper", doorAgent("sleeper"));
    const endpoint = await serveEndpoint([sleeper]);
    try {
      await engine().server.register(endpoint.url);
      endpoint.down();
      const sleepers = restateAgentRuns({ workflows: { ask_sleeper: sleeper }, ingress: engine().ingress });
      await sleepers.start({ tool: "ask_sleeper", runId: "runs-cancel-early", request: "cellar" });
      await sleepers.cancel("runs-cancel-early");
      endpoint.up();
      expect(await reach("runs-cancel-early", "cancelled", sleepers)).toEqual({ status: "cancelled" });
    } finally {
      await endpoint.close();
    }
    expect(opened).not.toContain("cellar");
  });

  it("with several workflows, shows a key none of them was submitted as failed (one workflow: the engine contract)", async () => {
    expect(await restateAgentRuns({ workflows, ingress: engine().ingress }).status("runs-nobody")).toEqual({
      status: "failed",
      message: restateEngine.missingRunMessage("runs-nobody"),
    });
  });
});
