import { type Agent, tool, type ZodTool } from "@junction/core";
import { createAbortError, JunctionError, type ToolAnnotations, type ToolResult } from "@junction/types";
import { z } from "zod";
import { AGENT_RUNNER, type AgentRunner, type AgentRunOutcome, runAgentLeg } from "./agent-run.js";

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
 * Pass an Agent, or a function making one per call (then calls run in parallel). A factory's
 * agent is kept for the legs of its call in this process (the run, and each resume after an
 * approval; by run id, up to an hour, at most 256 per tool), so one call sees one agent. One
 * Agent instance runs one call at a time, its conversation reset to what it held when `agentTool`
 * was called.
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
      const lease = await acquire(runOptions.signal, "state" in input ? input.state.runId : undefined);
      let outcome: AgentRunOutcome | undefined;
      try {
        outcome = await runAgentLeg(lease.agent, input, { name: options.name, ...runOptions });
        return outcome;
      } finally {
        lease.release(outcome?.kind === "approval" ? outcome.state.runId : undefined);
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
  /** Gives the agent back; `keepFor` names the run it stopped, whose next leg should get it again. */
  release(keepFor?: string): void;
}

/**
 * Per call: an agent from the factory, or the one agent once the previous call is done. A
 * factory's agent is kept across the legs of its call (the first run, each resume after an
 * answer), found again by the run id, so what the agent holds between legs (a scripted model's
 * place in its script, a provider's session) carries on instead of starting over with each leg.
 */
function agentSource(
  agent: Agent | (() => Agent | Promise<Agent>),
): (signal?: AbortSignal, runId?: string) => Promise<Lease> {
  if (typeof agent === "function") {
    const kept = new KeptAgents();
    return async (_signal, runId) => {
      const made = (runId === undefined ? undefined : kept.take(runId)) ?? (await agent());
      return {
        agent: made,
        release: (keepFor) => {
          if (keepFor === undefined) made.close();
          else kept.put(keepFor, made);
        },
      };
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
    return { agent, release: () => release() };
  };
}

/** How many stopped runs' agents one agent tool keeps at most; the oldest is closed past it. */
const MAX_KEPT_AGENTS = 256;
/** How long a stopped run's agent is kept waiting for its next leg (the default `requestState` lifetime). */
const KEPT_AGENT_MS = 60 * 60_000;

/**
 * The agents of stopped runs waiting for their next leg in this process, by run id: each taken
 * once (a second leg of the same run at the same time gets a fresh agent, as in another process),
 * bounded in number and in time, closed when dropped.
 */
class KeptAgents {
  readonly #agents = new Map<string, { agent: Agent; keptAt: number }>();

  put(runId: string, agent: Agent): void {
    this.#sweep();
    const previous = this.#agents.get(runId);
    this.#agents.delete(runId);
    if (previous && previous.agent !== agent) previous.agent.close();
    while (this.#agents.size >= MAX_KEPT_AGENTS) {
      const [oldest, entry] = this.#agents.entries().next().value!;
      this.#agents.delete(oldest);
      entry.agent.close();
    }
    this.#agents.set(runId, { agent, keptAt: Date.now() });
  }

  take(runId: string): Agent | undefined {
    this.#sweep();
    const entry = this.#agents.get(runId);
    this.#agents.delete(runId);
    return entry?.agent;
  }

  #sweep(): void {
    const now = Date.now();
    // In insertion order, so the first one still fresh ends the sweep.
    for (const [runId, entry] of this.#agents) {
      if (now - entry.keptAt < KEPT_AGENT_MS) break;
      this.#agents.delete(runId);
      entry.agent.close();
    }
  }
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
