import { type Agent, tool, type ZodTool } from "@junction/core";
import { createAbortError, JunctionError, type ToolAnnotations, type ToolResult } from "@junction/types";
import { z } from "zod";
import { AGENT_RUNNER, type AgentRunner, runAgentLeg } from "./agent-run.js";

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
 * A call that needs a person's approval stops the run, and the server asks the MCP client: a
 * task's input request (tasks extension), an elicitation within the call (2025-11-25), or an
 * `input_required` result (2026-07-28); accept approves, decline denies, and the run goes on.
 * A client that can do none of these gets an `isError` result naming what it lacks; used outside
 * a server (as a tool of another Agent), the tool answers the same way.
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
  const runner: AgentRunner = {
    name: options.name,
    parse(input) {
      const parsed = schema.safeParse(input);
      if (parsed.success) return parsed.data;
      throw new JunctionError(
        "tool-input-invalid",
        `Invalid input for tool "${options.name}":\n${z.prettifyError(parsed.error)}`,
      );
    },
    async run(input, runOptions) {
      const lease = await acquire(runOptions.signal);
      try {
        return await runAgentLeg(lease.agent, input, { name: options.name, ...runOptions });
      } finally {
        lease.release();
      }
    },
  };
  const served = tool({
    name: options.name,
    description: options.description,
    schema,
    annotations: options.annotations ?? { openWorldHint: true },
    async execute({ request }, context) {
      const outcome = await runner.run(
        { request },
        {
          ...(context?.signal ? { signal: context.signal } : {}),
          ...(context?.onProgress ? { onProgress: context.onProgress } : {}),
        },
      );
      if (outcome.kind === "answer") return outcome.result;
      return approvalNeeded(
        options.name,
        outcome.pending.map((call) => call.name),
        "the caller of this tool cannot be asked for it",
      );
    },
  });
  return Object.assign(served, { [AGENT_RUNNER]: runner });
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

/**
 * The `isError` result of an agent run that stopped for approvals where nobody can be asked:
 * `lacking` says what the caller would need (an MCP client's elicitation, for example).
 */
export function approvalNeeded(name: string, tools: string[], lacking: string): ToolResult {
  const list = [...new Set(tools)].map((tool) => `"${tool}"`).join(", ");
  return {
    content: [
      {
        type: "text",
        text:
          `The agent behind "${name}" needs a person to approve its call to ${list}, and ${lacking}. ` +
          "Nothing was run for that call. Use a client that supports elicitation (or the tasks extension), " +
          "ask the server's operator to allow the tool without approval, or run the agent directly.",
      },
    ],
    isError: true,
  };
}
