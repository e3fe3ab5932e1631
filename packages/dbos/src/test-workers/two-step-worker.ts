// A worker process for the crash tests (run with node, which strips the types): registers a
// durable function with two steps and a signal wait, launches DBOS (which recovers unfinished
// runs), and starts the run when START_RUN_ID is set. Each step's body appends a line to
// EVENTS_FILE, as does each arrival at the wait, so the test counts what ran.
import { appendFileSync } from "node:fs";
import { DBOS } from "@dbos-inc/dbos-sdk";
import { dbosWorkflow } from "@junction/dbos";

const eventsFile = process.env.EVENTS_FILE!;
const record = (line: string) => appendFileSync(eventsFile, `${line}\n`);

const twoSteps = dbosWorkflow("two-steps", async (durability, input: string) => {
  const first = await durability.step("first", async () => {
    record("step first ran");
    return `${input}+first`;
  });
  record("waiting for approval:1");
  const decision = await durability.waitForSignal<{ approved: boolean; note: string }>("approval:1");
  return durability.step("second", async () => {
    record("step second ran");
    return `${first}+second(${decision?.approved ? "approved" : "denied"}: ${decision?.note})`;
  });
});

DBOS.setConfig({
  name: "junction-dbos-test",
  systemDatabaseUrl: process.env.DATABASE_URL!,
  logLevel: "error",
});
await DBOS.launch();
if (process.env.START_RUN_ID) await twoSteps.start("input", { runId: process.env.START_RUN_ID });
