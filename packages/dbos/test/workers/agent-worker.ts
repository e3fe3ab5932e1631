// A worker process for the Agent crash tests (run with node, which strips the types): registers
// the notes Agent as a DBOS workflow (and `failing-model`, a run whose model step fails), with
// the notifier that records each approval it is told about, launches DBOS (which recovers
// unfinished runs), and starts a run of START_WORKFLOW (`notes` by default) for START_RUN_ID,
// or a notes run for each of START_RUN_IDS (comma-separated). With EXECUTOR_ID, the worker is
// that executor (one per machine) and holds its lease.
import { DBOS } from "@dbos-inc/dbos-sdk";
import { claimExecutor, dbosAgentWorkflow, dbosWorkflow } from "@junction/dbos";
import {
  failedModelRunFromEnvironment,
  markReady,
  notesAgentFromEnvironment,
  notesRun,
  notifierFromEnvironment,
} from "@junction/durable-engines/agent-worker";

const { makeAgent } = notesAgentFromEnvironment();
const notes = dbosAgentWorkflow("notes", makeAgent, { onApprovalRequested: notifierFromEnvironment() });
const failingModel = dbosWorkflow("failing-model", failedModelRunFromEnvironment());

const systemDatabaseUrl = process.env.DATABASE_URL!;
const executorId = process.env.EXECUTOR_ID;
if (executorId) await claimExecutor({ systemDatabaseUrl, executorId });
DBOS.setConfig({
  name: "junction-dbos-agent-test",
  systemDatabaseUrl,
  logLevel: "error",
  ...(executorId ? { executorID: executorId } : {}),
});
await DBOS.launch();
if (executorId) markReady(executorId);
const runId = process.env.START_RUN_ID;
if (runId && process.env.START_WORKFLOW === "failing-model") await failingModel.start(null, { runId });
else if (runId) await notes.start({ input: notesRun.input }, { runId });
for (const id of process.env.START_RUN_IDS?.split(",") ?? []) {
  await notes.start({ input: notesRun.input }, { runId: id });
}
