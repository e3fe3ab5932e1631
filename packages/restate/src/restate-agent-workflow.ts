import type { Agent, AgentResult, JSONValue, PendingToolCall } from "@junction/core";
import type { Message } from "@junction/types";
import type * as restate from "@restatedev/restate-sdk";
import {
  type AnswerResponse,
  type AwaitPendingRequest,
  type RestateWorkflowOptions,
  restateWorkflow,
  type SignalRequest,
} from "./restate-workflow.js";

/** What one run of a {@link restateAgentWorkflow} is submitted with: plain JSON. */
export interface AgentRunRequest {
  /** The user's message for this run. */
  readonly input: string;
  /** A conversation to continue (for example a previous run's `messages`). */
  readonly messages?: Message[];
}

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
  makeAgent: (request: AgentRunRequest) => Agent | Promise<Agent>,
  options?: RestateWorkflowOptions,
): RestateAgentWorkflow<Name> {
  const service = restateWorkflow(
    name,
    async (durability, request: JSONValue) => {
      const { input, messages } = request as unknown as AgentRunRequest;
      const agent = await makeAgent({ input, ...(messages ? { messages } : {}) });
      if (messages) agent.messages = messages;
      const result = await agent.send(input, { durability }).final;
      // Plain JSON, as the journal keeps it: what a replayed run returns is the same.
      return JSON.parse(JSON.stringify(result)) as JSONValue;
    },
    options,
  );
  return service as unknown as RestateAgentWorkflow<Name>;
}
