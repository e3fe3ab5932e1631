// A worker process for the crash tests (run with node, which strips the types): serves a
// Restate workflow with two steps and a signal wait on PORT. Each step's body appends a line to
// EVENTS_FILE, as does each arrival at the wait, so the test counts what ran. The Restate
// server drives the run: it re-invokes the workflow on this worker after a crash.
import { appendFileSync } from "node:fs";
import { restateWorkflow } from "@junction/restate";
import * as restate from "@restatedev/restate-sdk";

const eventsFile = process.env.EVENTS_FILE!;
const record = (line: string) => appendFileSync(eventsFile, `${line}\n`);

const twoSteps = restateWorkflow("two-steps", async (durability, input: string) => {
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

await restate.serve({ services: [twoSteps], port: Number(process.env.PORT) });
