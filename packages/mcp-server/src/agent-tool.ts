import { type Agent, type AgentEvent, type AgentResult, tool, type ZodTool } from "@junction/core";
import {
  createAbortError,
  isAbortError,
  JunctionError,
  type ToolAnnotations,
  type ToolResult,
  type ToolResultPart,
} from "@junction/types";
import { z } from "zod";

/** What `agentTool()` takes besides the agent. */
export interface AgentToolOptions {
  /** The tool's name, for example `ask_researcher`. */
  name: string;
  /** What the agent does and when to ask it: the calling model reads this. */
  description: string;
  /** MCP hints for the tool. @default `{ openWorldHint: true }` */
  annotations?: ToolAnnotations;
}

/** The input of an agent tool. */
export type AgentToolInput = { request: string };

const schema = z.object({
  request: z.string().min(1).describe("What you want the agent to do, in plain words."),
});

/**
 * Serves an Agent as one tool taking `{ request }`: each call runs the agent on the request in
 * a fresh conversation. The result is the agent's answer (text, and `structuredContent` with an
 * `output` schema) followed by the rich parts its tools produced in the run (images, audio,
 * resources, resource links). While it runs, a progress report goes out per tool call and per
 * model step; cancelling the call aborts the run.
 *
 * Pass an Agent, or a function making one per call (then calls run in parallel). One Agent
 * instance runs one call at a time, its conversation reset to what it held when `agentTool` was
 * called.
 *
 * Approvals cannot be answered through MCP yet: a run that asks for one ends the call with an
 * `isError` result naming the tool that needed approval.
 *
 * @example
 * ```ts
 * const server = createMCPServer({
 *   name: "team", version: "1.0.0",
 *   tools: [agentTool(researcher, { name: "ask_researcher", description: "Researches a question on the web" })],
 * });
 * ```
 */
export function agentTool(
  agent: Agent | (() => Agent | Promise<Agent>),
  options: AgentToolOptions,
): ZodTool<AgentToolInput> {
  if (!options || typeof options.name !== "string" || options.name.length === 0) {
    throw new JunctionError("invalid-argument", "agentTool(): `name` must be a non-empty string.");
  }
  const acquire = agentSource(agent);
  return tool({
    name: options.name,
    description: options.description,
    schema,
    annotations: options.annotations ?? { openWorldHint: true },
    async execute({ request }, context) {
      const lease = await acquire(context?.signal);
      try {
        return await runAgent(lease.agent, request, {
          name: options.name,
          ...(context?.signal ? { signal: context.signal } : {}),
          ...(context?.onProgress ? { onProgress: context.onProgress } : {}),
        });
      } finally {
        lease.release();
      }
    },
  });
}

interface Lease {
  agent: Agent;
  release(): void;
}

/** Per call: a fresh agent from the factory, or the one agent once the previous call is done. */
function agentSource(
  agent: Agent | (() => Agent | Promise<Agent>),
): (signal?: AbortSignal) => Promise<Lease> {
  if (typeof agent === "function") {
    return async () => {
      const made = await agent();
      return { agent: made, release: () => made.close() };
    };
  }
  const initial = agent.messages;
  let queue: Promise<void> = Promise.resolve();
  return async (signal) => {
    const previous = queue;
    let release!: () => void;
    queue = new Promise<void>((resolve) => {
      release = resolve;
    });
    await previous;
    if (signal?.aborted) {
      release();
      throw createAbortError("The agent tool call was cancelled before it started.", signal.reason);
    }
    agent.messages = initial;
    return { agent, release };
  };
}

async function runAgent(
  agent: Agent,
  request: string,
  options: {
    name: string;
    signal?: AbortSignal;
    onProgress?: (p: { progress: number; message?: string }) => void;
  },
): Promise<ToolResult> {
  const controller = new AbortController();
  const abort = () => controller.abort(options.signal?.reason);
  if (options.signal?.aborted) abort();
  options.signal?.addEventListener("abort", abort, { once: true });
  const handle = agent.send(request, { signal: controller.signal });
  const parts: ToolResultPart[] = [];
  let progress = 0;
  let approval: Extract<AgentEvent, { type: "tool-approval-request" }> | undefined;
  const report = (message: string) => {
    progress += 1;
    options.onProgress?.({ progress, message });
  };
  try {
    for await (const event of handle) {
      if (event.type === "tool-call") report(`Calling tool "${event.name}"`);
      else if (event.type === "step-end") report(`Step ${event.step} done`);
      else if (event.type === "tool-result") parts.push(...richParts(event.result.content));
      else if (event.type === "tool-approval-request") {
        // Nobody on this side can answer it, and waiting would hang the call: stop the run.
        approval = event;
        controller.abort();
        break;
      }
    }
    const result = await handle.final;
    return answer(result, parts, options.name);
  } catch (error) {
    if (approval) return approvalNeeded(options.name, [approval.name]);
    if (options.signal?.aborted || isAbortError(error))
      throw createAbortError(`The call to "${options.name}" was cancelled.`, options.signal?.reason ?? error);
    throw error;
  } finally {
    options.signal?.removeEventListener("abort", abort);
  }
}

function answer(result: AgentResult, parts: ToolResultPart[], name: string): ToolResult {
  if (result.finishReason === "approval-required") {
    return approvalNeeded(
      name,
      result.pending.map((call) => call.name),
    );
  }
  const content: ToolResultPart[] = [];
  if (result.text.length > 0) content.push({ type: "text", text: result.text });
  content.push(...parts);
  if (result.finishReason === "max-steps") {
    content.push({
      type: "text",
      text: `[The agent stopped at its step limit before it finished; the answer above may be incomplete.]`,
    });
  }
  const toolResult: ToolResult = { content, isError: false };
  if (result.output !== undefined && typeof result.output === "object" && result.output !== null) {
    toolResult.structuredContent = result.output;
  }
  return toolResult;
}

function approvalNeeded(name: string, tools: string[]): ToolResult {
  const list = [...new Set(tools)].map((tool) => `"${tool}"`).join(", ");
  return {
    content: [
      {
        type: "text",
        text:
          `The agent behind "${name}" needs a person to approve its call to ${list}, and this MCP server cannot ` +
          "ask you for that approval yet (approvals through MCP elicitation, input_required and tasks are not " +
          "built yet). Nothing was run for that call. Ask the server's operator to allow the tool without " +
          "approval, or run the agent directly.",
      },
    ],
    isError: true,
  };
}

/** The parts of a tool result worth handing back beside the answer: everything but text. */
function richParts(content: ToolResultPart[]): ToolResultPart[] {
  return content.filter((part) => part.type !== "text");
}
