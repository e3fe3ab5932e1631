import { JunctionError, type Message, type ToolResult } from "@junction/types";
import type { Agent } from "../agent.js";
import type { AgentResult } from "../agent-events.js";
import { agentToolResult } from "../agent-tool-result.js";
import type { Durability, JSONValue } from "../durability.js";
import type { PendingToolCall } from "../run-state.js";

// What an Agent's run is on a durable engine, whichever engine runs it: the request it starts
// with, the workflow body that runs it on the engine's port, and the status a served agent's task
// shows of it. The engines' packages (`@junction/dbos`, `@junction/restate`) wrap these in their
// own workflow, client and state calls; nothing here knows an engine.

/** What one run of an engine's agent workflow is started with: plain JSON. */
export interface AgentRunRequest {
  /** The user's message for this run. */
  readonly input: string;
  /** A conversation to continue (for example a previous run's `messages`). */
  readonly messages?: Message[];
}

/**
 * Makes the Agent of one run. An engine calls it again when it runs the run again (after a crash,
 * on another worker): make the Agent the same way each time.
 */
export type MakeAgent = (request: AgentRunRequest) => Agent | Promise<Agent>;

/**
 * The body of an engine's agent workflow: makes the run's Agent with `makeAgent`, continues the
 * request's conversation if it has one, sends the request's input on the engine's `durability`
 * port, and returns the `AgentResult` as plain JSON (as the engine's journal keeps it, so a run
 * the engine runs again returns the same value). The Agent is not closed after the run, so
 * connections it shares through an `MCPPool` stay open.
 *
 * @example
 * ```ts
 * const run = agentRun(async () => new Agent({ provider, model: "claude-sonnet-5-5" }));
 * const registered = DBOS.registerWorkflow((request: JSONValue) => run(dbosDurability(), request), { name: "assistant" });
 * ```
 */
export function agentRun(
  makeAgent: MakeAgent,
): (durability: Durability, request: JSONValue) => Promise<JSONValue> {
  return async (durability, request) => {
    const { input, messages } = request as unknown as AgentRunRequest;
    const agent = await makeAgent({ input, ...(messages ? { messages } : {}) });
    if (messages) agent.messages = messages;
    const result = await agent.send(input, { durability }).final;
    // Plain JSON, as the journal keeps it: what a recovered or replayed run returns is the same.
    return JSON.parse(JSON.stringify(result)) as JSONValue;
  };
}

/**
 * A durable run's state as a served agent's task shows it (`@junction/mcp-server`'s `tasks.runs`
 * reads it from each engine's runs adapter): going on, waiting for a person's answer to these
 * calls, done with the agent tool's answer, failed with a message, or cancelled.
 */
export type DurableRunStatus =
  | { status: "working"; statusMessage?: string }
  | { status: "input_required"; pending: PendingToolCall[]; statusMessage?: string }
  | { status: "completed"; result: ToolResult; statusMessage?: string }
  | { status: "failed"; message: string }
  | { status: "cancelled" };

/**
 * An ended run's `AgentResult` as its task's status: the agent tool's answer (`agentToolResult`:
 * the text, then the images, audio and resources its tools returned, `structuredContent` with an
 * `output` schema), as an agent tool gives it in process; or `failed`, naming the calls, for a run
 * that stopped because nobody answered them within its `approvalTimeoutMs`. Pure.
 */
export function endedRunStatus(result: AgentResult): DurableRunStatus {
  if (result.finishReason === "approval-required") {
    return {
      status: "failed",
      message: `The run stopped waiting for a person's approval of ${result.pending.map((call) => `"${call.name}"`).join(", ")} (its approvalTimeoutMs ran out).`,
    };
  }
  return { status: "completed", result: agentToolResult(result) };
}

/**
 * The workflow a runs adapter starts for the agent tool `tool`, from the adapter's `workflows`.
 * `names` are the engine's adapter and workflow factory, for the error.
 *
 * @throws JunctionError `invalid-argument` when `workflows` has none for `tool`, naming what to add.
 */
export function workflowForTool<Workflow>(
  workflows: Readonly<Record<string, Workflow>>,
  tool: string,
  names: { readonly runs: string; readonly workflow: string },
): Workflow {
  const workflow = Object.hasOwn(workflows, tool) ? workflows[tool] : undefined;
  if (workflow === undefined) {
    throw new JunctionError(
      "invalid-argument",
      `${names.runs} has no workflow for the agent tool "${tool}": add it to \`workflows\` (${JSON.stringify(tool)}: a ${names.workflow}).`,
    );
  }
  return workflow;
}
