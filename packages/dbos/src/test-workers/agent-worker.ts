// A worker process for the Agent crash tests (run with node, which strips the types): registers
// the notes Agent as a DBOS workflow, launches DBOS (which recovers unfinished runs), and starts
// a run when START_RUN_ID is set.
import { DBOS } from "@dbos-inc/dbos-sdk";
import { dbosAgentWorkflow } from "@junction/dbos";
import { notesAgentFromEnvironment, notesRun } from "@junction/durable-engines/agent-worker";

const { makeAgent } = notesAgentFromEnvironment();
const notes = dbosAgentWorkflow("notes", makeAgent);

DBOS.setConfig({
  name: "junction-dbos-agent-test",
  systemDatabaseUrl: process.env.DATABASE_URL!,
  logLevel: "error",
});
await DBOS.launch();
if (process.env.START_RUN_ID)
  await notes.start({ input: notesRun.input }, { runId: process.env.START_RUN_ID });
