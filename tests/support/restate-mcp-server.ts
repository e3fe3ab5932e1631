// A server process for the Restate task test (run with node, which strips the types): the notes
// Agent (durable-engines' agent-worker: the Chat Completions provider against the test's wire
// fake, the notes MCP server over stdio, annotationPolicy()) as the Restate workflow "notes",
// served as the agent tool `ask_notes` over Streamable HTTP on PORT, its tasks kept by Restate
// (`restateAgentRuns` through the ingress at INGRESS_URL) with their mapping in TASKS_FILE. This
// process is the Restate worker too, on WORKER_PORT (the test registers that deployment once):
// the Restate server invokes the run again here once a process that was killed is back. It
// records `worker ready <SERVER_NAME>` in EVENTS_FILE once it serves.
import {
  markReady,
  notesAgentFromEnvironment,
  notifierFromEnvironment,
} from "@junction/durable-engines/agent-worker";
import { agentTool, createMCPServer, type DurableAgentRuns } from "@junction/mcp-server";
import { fileTaskStore, serveHTTP } from "@junction/mcp-server/node";
import { restateAgentRuns, restateAgentWorkflow } from "@junction/restate";
import * as restate from "@restatedev/restate-sdk";
import * as clients from "@restatedev/restate-sdk-clients";

const { makeAgent } = notesAgentFromEnvironment();
const notes = restateAgentWorkflow("notes", makeAgent, { onApprovalRequested: notifierFromEnvironment() });
await restate.serve({ services: [notes], port: Number(process.env.WORKER_PORT) });

const ingress = clients.connect({ url: process.env.INGRESS_URL! });
// The Restate adapter is mcp-server's DurableAgentRuns by structure (neither package depends on the other).
const runs: DurableAgentRuns = restateAgentRuns({ workflows: { ask_notes: notes }, ingress });
const server = createMCPServer({
  name: "notes-agents",
  version: "1.0.0",
  stateKey: process.env.STATE_KEY!,
  tasks: {
    store: fileTaskStore(process.env.TASKS_FILE!),
    runs,
    pollIntervalMs: Number(process.env.POLL_INTERVAL_MS),
  },
  tools: [agentTool(makeAgent, { name: "ask_notes", description: "Asks the notes agent" })],
});
await serveHTTP(server, { port: Number(process.env.PORT) });
markReady(process.env.SERVER_NAME!);
