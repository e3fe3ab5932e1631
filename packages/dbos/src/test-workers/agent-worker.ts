// A worker process for the Agent crash tests (run with node, which strips the types): registers
// the notes Agent as a DBOS workflow (and `failing-model`, a run whose model step fails),
// launches DBOS (which recovers unfinished runs), and starts a run of START_WORKFLOW (`notes` by
// default) when START_RUN_ID is set.
import { DBOS } from "@dbos-inc/dbos-sdk";
import { dbosAgentWorkflow, dbosWorkflow } from "@junction/dbos";
import {
  failedModelRunFromEnvironment,
  notesAgentFromEnvironment,
  notesRun,
} from "@junction/durable-engines/agent-worker";

const { makeAgent } = notesAgentFromEnvironment();
const notes = dbosAgentWorkflow("notes", makeAgent);
const failingModel = dbosWorkflow("failing-model", failedModelRunFromEnvironment());

DBOS.setConfig({
  name: "junction-dbos-agent-test",
  systemDatabaseUrl: process.env.DATABASE_URL!,
  logLevel: "error",
});
await DBOS.launch();
const runId = process.env.START_RUN_ID;
if (runId && process.env.START_WORKFLOW === "failing-model") await failingModel.start(null, { runId });
else if (runId) await notes.start({ input: notesRun.input }, { runId });
