// A worker process for the crash tests (run with node, which strips the types): registers the
// two-step durable function, launches DBOS (which recovers unfinished runs), and starts the
// run when START_RUN_ID is set.
import { DBOS } from "@dbos-inc/dbos-sdk";
import { dbosWorkflow } from "@junction/dbos";
import { twoSteps } from "@junction/durable-engines/two-step-scenario";

const run = dbosWorkflow("two-steps", twoSteps(process.env.EVENTS_FILE!));

DBOS.setConfig({
  name: "junction-dbos-test",
  systemDatabaseUrl: process.env.DATABASE_URL!,
  logLevel: "error",
});
await DBOS.launch();
if (process.env.START_RUN_ID) await run.start("input", { runId: process.env.START_RUN_ID });
