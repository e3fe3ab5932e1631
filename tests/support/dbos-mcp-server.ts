// A server process for the DBOS task test (run with node, which strips the types): the notes Agent
// (durable-engines' agent-worker: the Chat Completions provider against the test's wire fake, the
// notes MCP server over stdio, annotationPolicy()) as the DBOS workflow "notes", served as the
// agent tool `ask_notes` over Streamable HTTP on PORT, its tasks kept by DBOS (`dbosAgentRuns`)
// with their mapping in TASKS_FILE. This process is the DBOS worker too: its launch recovers the
// unfinished runs of a process that was killed. It records `worker ready <SERVER_NAME>` in
// EVENTS_FILE once it serves.
import { DBOS, DBOSClient } from "@dbos-inc/dbos-sdk";
import { dbosAgentRuns, dbosAgentWorkflow } from "@junction/dbos";
import {
  markReady,
  notesAgentFromEnvironment,
  notifierFromEnvironment,
} from "@junction/durable-engines/agent-worker";
import { agentTool, createMCPServer, type DurableAgentRuns } from "@junction/mcp-server";
import { fileTaskStore, serveHTTP } from "@junction/mcp-server/node";

const { makeAgent } = notesAgentFromEnvironment();
const notes = dbosAgentWorkflow("notes", makeAgent, { onApprovalRequested: notifierFromEnvironment() });

const systemDatabaseUrl = process.env.DATABASE_URL!;
DBOS.setConfig({ name: "junction-mcp-server-dbos-test", systemDatabaseUrl, logLevel: "error" });
await DBOS.launch();
const client = await DBOSClient.create({ systemDatabaseUrl });

// The DBOS adapter is mcp-server's DurableAgentRuns by structure (neither package depends on the other).
const runs: DurableAgentRuns = dbosAgentRuns({ workflows: { ask_notes: notes }, client });
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
