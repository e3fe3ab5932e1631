import {
  type Agent,
  type AgentHandle,
  agentToolResult,
  type PendingToolCall,
  type ResumeDecision,
  type RunState,
} from "@junction/core";
import { createAbortError, isAbortError, type ToolResult, type ToolResultPart } from "@junction/types";

/** What one leg of an agent tool's run starts from: the user's request, or a stopped run and its decisions. */
export type AgentRunInput =
  | { request: string }
  | { state: RunState; decisions: Record<string, ResumeDecision> };

/**
 * How one leg of an agent tool's run ended: with the tool's answer, or stopped because calls
 * wait for a person (the run's `state`, and the pending calls to ask about).
 */
export type AgentRunOutcome =
  | { kind: "answer"; result: ToolResult }
  | { kind: "approval"; state: RunState; pending: PendingToolCall[] };

/** Progress of an agent tool's run: one report per tool call and per model step. */
export type AgentRunProgress = (progress: { progress: number; message?: string }) => void;

/**
 * The part of `agentTool()` a server drives: runs a leg of the agent (a request, or a resume
 * with decisions) until it answers or stops for approvals. The server then asks the person (an
 * elicitation, an `input_required` result, a task's input request) and runs the next leg.
 */
export interface AgentRunner {
  /** The tool's name. */
  name: string;
  /** Checks a call's arguments (`{ request }`); throws `tool-input-invalid` naming the field. */
  parse(input: unknown): { request: string };
  run(
    input: AgentRunInput,
    options: { signal?: AbortSignal; onProgress?: AgentRunProgress },
  ): Promise<AgentRunOutcome>;
}

/** Where `agentTool()` keeps the runner a server drives (absent on other tools). */
export const AGENT_RUNNER: unique symbol = Symbol.for("junction.mcp-server.agent-runner");

/** The runner of a tool made by `agentTool()`, if it is one. */
export function agentRunnerOf(tool: object): AgentRunner | undefined {
  return (tool as { [AGENT_RUNNER]?: AgentRunner })[AGENT_RUNNER];
}

/**
 * Runs one leg on `agent`. A call that needs a person stops the run at once
 * (`approvalTimeoutMs: 0`) with its state, whatever the Agent's own setting: the person is asked
 * through MCP, not in this process.
 */
export async function runAgentLeg(
  agent: Agent,
  input: AgentRunInput,
  options: { name: string; signal?: AbortSignal; onProgress?: AgentRunProgress; progressFrom?: number },
): Promise<AgentRunOutcome> {
  const controller = new AbortController();
  const abort = () => controller.abort(options.signal?.reason);
  if (options.signal?.aborted) abort();
  options.signal?.addEventListener("abort", abort, { once: true });
  const runOptions = { signal: controller.signal, approvalTimeoutMs: 0 };
  const handle: AgentHandle =
    "request" in input
      ? agent.send(input.request, runOptions)
      : agent.resume({ state: input.state, decisions: input.decisions }, runOptions);
  const parts: ToolResultPart[] = [];
  let progress = options.progressFrom ?? 0;
  const report = (message: string) => {
    progress += 1;
    options.onProgress?.({ progress, message });
  };
  try {
    for await (const event of handle) {
      if (event.type === "tool-call") report(`Calling tool "${event.name}"`);
      else if (event.type === "step-end") report(`Step ${event.step} done`);
      else if (event.type === "tool-result") parts.push(...richParts(event.result.content));
    }
    const result = await handle.final;
    if (result.finishReason === "approval-required") {
      return { kind: "approval", state: result.state, pending: result.pending };
    }
    return { kind: "answer", result: agentToolResult(result, { parts }) };
  } catch (error) {
    if (options.signal?.aborted || isAbortError(error))
      throw createAbortError(`The call to "${options.name}" was cancelled.`, options.signal?.reason ?? error);
    throw error;
  } finally {
    options.signal?.removeEventListener("abort", abort);
  }
}

/** The parts of a tool result worth handing back beside the answer: everything but text. */
function richParts(content: ToolResultPart[]): ToolResultPart[] {
  return content.filter((part) => part.type !== "text");
}
