import type { Agent, AgentResult, JSONValue } from "@junction/core";
import type { Message } from "@junction/types";
import type { DBOSDurabilityOptions } from "./dbos-durability.js";
import { type DBOSWorkflow, dbosWorkflow } from "./dbos-workflow.js";

/** What one run of a {@link dbosAgentWorkflow} is started with: plain JSON. */
export interface AgentRunRequest {
  /** The user's message for this run. */
  readonly input: string;
  /** A conversation to continue (for example a previous run's `messages`). */
  readonly messages?: Message[];
}

/**
 * Registers an Agent's run as the DBOS workflow `name`: each run makes a new Agent with
 * `makeAgent`, sends the request's input on the run's {@link dbosDurability} port, and returns
 * the `AgentResult` as plain JSON. Every model turn and tool call is a DBOS step, so a run
 * recovered after a crash gets them back from the journal instead of calling the model or the
 * tool again; every approval is a DBOS message. The calls waiting for a person are listed by
 * {@link pendingApprovals} from any process, and answered with {@link answerApproval}; each is
 * told once to `options.onApprovalRequested`, never again when the run is recovered. A run
 * waits for an approval as long as it takes, across restarts.
 *
 * `makeAgent` runs again when DBOS recovers the run in another process: make the Agent the same
 * way each time, and share MCP connections through an `MCPPool` (one per process), not one per
 * run. The Agent is not closed after the run, so pooled connections stay open.
 *
 * @example
 * ```ts
 * const pool = new MCPPool();
 * const assistant = dbosAgentWorkflow("assistant", async () =>
 *   new Agent({ provider: anthropic(), model: "claude-sonnet-5-5", mcps: [await pool.get(notesServer)], approval: annotationPolicy() }),
 * );
 * DBOS.setConfig({ name: "assistant", systemDatabaseUrl: process.env.DBOS_SYSTEM_DATABASE_URL });
 * await DBOS.launch();
 * const handle = await assistant.start({ input: "Note: buy milk" }, { runId: "run-42" });
 * console.log((await handle.getResult()).text);
 * ```
 */
export function dbosAgentWorkflow(
  name: string,
  makeAgent: (request: AgentRunRequest) => Agent | Promise<Agent>,
  options: DBOSDurabilityOptions = {},
): DBOSWorkflow<AgentRunRequest, AgentResult> {
  const registered = dbosWorkflow(
    name,
    async (durability, request: JSONValue) => {
      const { input, messages } = request as unknown as AgentRunRequest;
      const agent = await makeAgent({ input, ...(messages ? { messages } : {}) });
      if (messages) agent.messages = messages;
      const result = await agent.send(input, { durability }).final;
      // Plain JSON, as the journal keeps it: what a recovered run returns is the same.
      return JSON.parse(JSON.stringify(result)) as JSONValue;
    },
    options,
  );
  return registered as unknown as DBOSWorkflow<AgentRunRequest, AgentResult>;
}
