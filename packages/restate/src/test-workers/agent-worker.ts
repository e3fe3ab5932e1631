// A worker process for the Agent crash tests (run with node, which strips the types): serves
// the notes Agent as a Restate workflow on PORT, and `failing-model`, a run whose model step
// fails. The Restate server drives the run: it invokes the workflow on this worker again after a
// crash.
import {
  failedModelRunFromEnvironment,
  notesAgentFromEnvironment,
} from "@junction/durable-engines/agent-worker";
import { restateAgentWorkflow, restateWorkflow } from "@junction/restate";
import * as restate from "@restatedev/restate-sdk";

const { makeAgent } = notesAgentFromEnvironment();
await restate.serve({
  services: [
    restateAgentWorkflow("notes", makeAgent),
    restateWorkflow("failing-model", failedModelRunFromEnvironment()),
  ],
  port: Number(process.env.PORT),
});
