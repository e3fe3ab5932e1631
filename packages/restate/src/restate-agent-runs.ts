import type { AgentResult, PendingToolCall, ResumeDecision } from "@junction/core";
import {
  answerIdempotencyKey,
  type DurableRunStatus,
  endedRunStatus,
  workflowForTool,
} from "@junction/core/durable-runs";
import { JunctionError } from "@junction/types";
import type { Ingress } from "@restatedev/restate-sdk-clients";
import { type ApprovalOutcome, answerApproval, pendingApprovals } from "./pending-approvals.js";
import type { AgentRunRequest } from "./restate-agent-workflow.js";
import { type RunOutput, readRunOutput } from "./run-output.js";

/** Options of {@link restateAgentRuns}. */
export interface RestateAgentRunsOptions {
  /**
   * The `restateAgentWorkflow` of each served agent tool, by the tool's name (`ask_researcher`).
   * The workflows run on your workers (`restate.serve`), registered with the Restate server; the
   * MCP server only reaches them through the ingress.
   */
  readonly workflows: Readonly<Record<string, { readonly name: string }>>;
  /**
   * The Restate ingress: `clients.connect({ url: "http://localhost:8080" })`. Starts the runs,
   * reads their output and pending approvals, sends the answers and cancels, whichever worker
   * runs the run.
   */
  readonly ingress: Ingress;
}

/**
 * A served agent's run on Restate as a task sees it: `DurableRunStatus` of
 * `@junction/core/durable-runs`, which `@junction/mcp-server` reads.
 */
export type RestateAgentRunStatus = DurableRunStatus;

/**
 * Served agents' runs as Restate workflows: the shape of `DurableAgentRuns` of
 * `@junction/mcp-server` (its `tasks.runs`), by structure, so neither package depends on the other.
 */
export interface RestateAgentRuns {
  /** Submits the tool's workflow on `request` with the workflow key `runId` (the task's id); the same key again is the same run. */
  start(run: { tool: string; runId: string; request: string }): Promise<void>;
  /** The run's pending approvals while it waits, its answer once it ended, its failure or cancellation. */
  status(runId: string): Promise<RestateAgentRunStatus>;
  /**
   * Answers a pending call as `status` listed it ({@link answerApproval}: bound to its digests;
   * the call's durable promise resolves once, so only the first answer counts); resolves once the
   * promise holds an answer. `DurableAgentRuns`'s shape: {@link RestateAgentRuns.answerApproval}
   * says what became of the answer.
   */
  answer(runId: string, item: PendingToolCall, decision: ResumeDecision): Promise<void>;
  /**
   * {@link RestateAgentRuns.answer}, resolving with what became of the answer: `"taken"`, or
   * `"duplicate"` with the decision an earlier answer made (never a second run of the call), or
   * `"expired"` (the run ended, or no workflow has it; see {@link ApprovalOutcome}).
   */
  answerApproval(runId: string, item: PendingToolCall, decision: ResumeDecision): Promise<ApprovalOutcome>;
  /** Cancels the run (the workflow's `cancel` handler): at once, or as it begins if no worker took it yet. */
  cancel(runId: string): Promise<void>;
}

type AgentHandlers = {
  run: (ctx: unknown, request: AgentRunRequest) => Promise<AgentResult>;
  cancel: (ctx: unknown) => Promise<void>;
};

/**
 * Runs served agent tools as Restate workflows, for `@junction/mcp-server`'s `tasks.runs`: a task
 * is then a Restate run (the task's id is the workflow key), and outlives the server process (the
 * Restate server keeps the run, its journal, its pending approvals and its output). `start`
 * submits the tool's `restateAgentWorkflow` with `{ input: request }`; `status` reads the run's
 * {@link pendingApprovals} (the task's input requests) and its output: once it succeeded, the
 * `AgentResult` as the tool's answer (`agentToolResult` of `@junction/core`: the text, then the
 * images, audio and resources its tools returned, `structuredContent` with an `output` schema),
 * once it failed with a terminal error, that error's message; `answer` is {@link answerApproval},
 * bound to the call's digests and sent once per call (an idempotency key); `cancel` calls the
 * workflow's `cancel` handler. A server restarted with the same task store and `stateKey`, on
 * the same Restate server, serves the task on.
 *
 * A run whose handler throws an error that is not terminal is retried by Restate (see
 * `promptRetryPolicy`) and shows as working meanwhile. Restate keeps an ended workflow for its
 * retention (`options.workflowRetention` of the workflow, one day by default); the MCP server
 * stores a task's result once it read it, but a task not polled within that time shows as
 * failed ("Restate has no run").
 *
 * @example
 * ```ts
 * const researcher = restateAgentWorkflow("researcher", makeAgent);
 * await restate.serve({ services: [researcher], port: 9080 }); // a worker, registered with the Restate server
 * const ingress = clients.connect({ url: "http://localhost:8080" });
 * createMCPServer({
 *   name: "team", version: "1.0.0", stateKey,
 *   tasks: { store: fileTaskStore("./tasks"), runs: restateAgentRuns({ workflows: { ask_researcher: researcher }, ingress }) },
 *   tools: [agentTool(makeAgent, { name: "ask_researcher", description: "Researches a question" })],
 * });
 * ```
 */
export function restateAgentRuns(options: RestateAgentRunsOptions): RestateAgentRuns {
  const { ingress } = options;
  const names = [...new Set(Object.values(options.workflows).map((workflow) => workflow.name))];
  // A run's workflow, once known (a workflow key names one run of one workflow for good).
  const known = new Map<string, string>();
  const client = (workflow: string, runId: string) =>
    ingress.workflowClient<AgentHandlers>({ name: workflow }, runId);

  /** The workflow the run `runId` was submitted to; `undefined` when none of them has it. */
  const workflowOf = async (runId: string): Promise<string | undefined> => {
    const cached = known.get(runId);
    if (cached !== undefined) return cached;
    if (names.length === 1) return names[0];
    // After a restart, with several workflows: the one whose key `runId` was submitted.
    const found = await Promise.all(
      names.map(async (name) => ((await output(name, runId)).kind === "unknown" ? undefined : name)),
    );
    const name = found.find((candidate) => candidate !== undefined);
    if (name !== undefined) known.set(runId, name);
    return name;
  };

  const output = (workflow: string, runId: string): Promise<RunOutput> =>
    readRunOutput(client(workflow, runId));

  const answerOnce = async (
    runId: string,
    item: PendingToolCall,
    decision: ResumeDecision,
  ): Promise<ApprovalOutcome> => {
    const workflow = await workflowOf(runId);
    // No run to answer: the next status says so.
    if (workflow === undefined) return { status: "expired" };
    return answerApproval({
      ingress,
      workflow,
      runId,
      item,
      decision,
      // A tasks/update retried (or sent twice) is one answer to the call.
      idempotencyKey: answerIdempotencyKey(runId, item),
    });
  };

  return {
    async start({ tool, runId, request }) {
      const workflow = workflowForTool(options.workflows, tool, {
        runs: "restateAgentRuns",
        workflow: "restateAgentWorkflow",
      });
      // Submitting a key that was submitted already is the same run (Restate: "PreviouslyAccepted").
      await client(workflow.name, runId).workflowSubmit({ input: request });
      known.set(runId, workflow.name);
    },

    async status(runId) {
      const workflow = await workflowOf(runId);
      const missing: RestateAgentRunStatus = {
        status: "failed",
        message: `Restate has no run "${runId}": it was not started on this Restate server, or it ended longer ago than the workflow's retention.`,
      };
      if (workflow === undefined) return missing;
      // The pending calls first: empty once the run ended (pendingApprovals checks its output).
      const pending = await pendingApprovals({ ingress, workflow, runId });
      if (pending.length > 0) return { status: "input_required", pending };
      const now = await output(workflow, runId);
      switch (now.kind) {
        case "going":
          return { status: "working" };
        case "ended":
          return endedRunStatus(now.result as AgentResult);
        case "cancelled":
          return { status: "cancelled" };
        case "failed":
          return { status: "failed", message: now.message };
        case "unknown":
          return missing;
        default: {
          const never: never = now;
          throw new JunctionError("invalid-argument", `Unknown run output ${JSON.stringify(never)}.`);
        }
      }
    },

    async answer(runId, item, decision) {
      await answerOnce(runId, item, decision);
    },

    answerApproval: answerOnce,

    async cancel(runId) {
      const workflow = await workflowOf(runId);
      if (workflow === undefined) return;
      // Sent, not awaited through: the handler runs when a worker can take it, and a run not
      // begun by then ends cancelled as it begins.
      await ingress.objectSendClient<Pick<AgentHandlers, "cancel">>({ name: workflow }, runId).cancel();
    },
  };
}
