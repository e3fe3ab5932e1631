import type { AgentResult, PendingToolCall } from "@junction/core";
import { type AgentRunRequest, agentRun, type MakeAgent } from "@junction/core/durable-runs";
import type * as restate from "@restatedev/restate-sdk";
import {
  type AnswerResponse,
  type AwaitPendingRequest,
  type RestateWorkflowOptions,
  restateWorkflow,
  type SignalRequest,
} from "./restate-workflow.js";

// What a run is started with is every engine's: `{ input, messages? }`, plain JSON.
export type { AgentRunRequest };

/** The workflow service {@link restateAgentWorkflow} makes: `run`, `signal`, `answer`, `pending`, `awaitPending` and `cancel` handlers. */
export type RestateAgentWorkflow<Name extends string> = restate.WorkflowDefinition<
  Name,
  {
    run: (ctx: restate.WorkflowContext, request: AgentRunRequest) => Promise<AgentResult>;
    signal: (ctx: restate.WorkflowSharedContext, signal: SignalRequest) => Promise<void>;
    answer: (ctx: restate.WorkflowSharedContext, signal: SignalRequest) => Promise<AnswerResponse>;
    pending: (ctx: restate.WorkflowSharedContext) => Promise<PendingToolCall[]>;
    awaitPending: (
      ctx: restate.WorkflowSharedContext,
      request: AwaitPendingRequest,
    ) => Promise<PendingToolCall[]>;
    cancel: (ctx: restate.WorkflowSharedContext) => Promise<void>;
  }
>;

/**
 * A Restate workflow service `name` that runs an Agent: each run makes a new Agent with
 * `makeAgent`, sends the request's input on the run's {@link restateDurability} port, and returns
 * the `AgentResult` as plain JSON. Every model turn and tool call is a `ctx.run`, so a run the
 * Restate server invokes again after a crash gets them back from the journal instead of calling
 * the model or the tool again; every approval is a durable promise. The calls waiting for a
 * person are listed by {@link pendingApprovals} from any process and answered with
 * {@link answerApproval}; each is told once to `options.onApprovalRequested`, never again on a
 * replay. The retry policy is {@link promptRetryPolicy} unless `options` says otherwise.
 *
 * `makeAgent` runs again on every invocation of the run (after a crash, on another worker):
 * make the Agent the same way each time, and share MCP connections through an `MCPPool` (one
 * per process), not one per run. The Agent is not closed after the run, so pooled connections
 * stay open.
 *
 * @example
 * ```ts
 * const pool = new MCPPool();
 * const assistant = restateAgentWorkflow("assistant", async () =>
 *   new Agent({ provider: anthropic(), model: "claude-sonnet-5-5", mcps: [await pool.get(notesServer)], approval: annotationPolicy() }),
 * );
 * await restate.serve({ services: [assistant], port: 9080 });
 * // elsewhere: clients.connect({ url }).workflowClient(assistant, "run-42").workflowSubmit({ input: "Note: buy milk" })
 * ```
 */
export function restateAgentWorkflow<Name extends string>(
  name: Name,
  makeAgent: MakeAgent,
  options?: RestateWorkflowOptions,
): RestateAgentWorkflow<Name> {
  // The run itself is every engine's (`agentRun`); Restate journals it and replays it.
  const service = restateWorkflow(name, agentRun(makeAgent), options);
  return service as unknown as RestateAgentWorkflow<Name>;
}
