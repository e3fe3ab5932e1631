import type { AgentResult } from "@junction/core";
import { type AgentRunRequest, agentRun, type MakeAgent } from "@junction/core/durable-runs";
import type { DBOSDurabilityOptions } from "./dbos-durability.js";
import { type DBOSWorkflow, dbosWorkflow } from "./dbos-workflow.js";

// What a run is started with is every engine's: `{ input, messages? }`, plain JSON.
export type { AgentRunRequest };

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
  makeAgent: MakeAgent,
  options: DBOSDurabilityOptions = {},
): DBOSWorkflow<AgentRunRequest, AgentResult> {
  // The run itself is every engine's (`agentRun`); DBOS journals it and recovers it.
  const registered = dbosWorkflow(name, agentRun(makeAgent), options);
  return registered as unknown as DBOSWorkflow<AgentRunRequest, AgentResult>;
}
