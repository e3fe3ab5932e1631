// A worker process for the crash tests (run with node, which strips the types): registers the
// durable functions, launches DBOS (which recovers unfinished runs), and starts a run of
// START_WORKFLOW (two-steps by default) when START_RUN_ID is set.
import { DBOS } from "@dbos-inc/dbos-sdk";
import { dbosWorkflow } from "@junction/dbos";
import { parallelSteps, twoSteps } from "@junction/durable-engines/crash-scenarios";

const eventsFile = process.env.EVENTS_FILE!;
const workflows = {
  "two-steps": dbosWorkflow("two-steps", twoSteps(eventsFile)),
  "parallel-steps": dbosWorkflow(
    "parallel-steps",
    parallelSteps(eventsFile, Number(process.env.SLOW_MS ?? 10)),
  ),
};

DBOS.setConfig({
  name: "junction-dbos-test",
  systemDatabaseUrl: process.env.DATABASE_URL!,
  logLevel: "error",
});
await DBOS.launch();
const workflow = workflows[(process.env.START_WORKFLOW ?? "two-steps") as keyof typeof workflows];
if (process.env.START_RUN_ID) await workflow.start("input", { runId: process.env.START_RUN_ID });
