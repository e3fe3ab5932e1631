// A worker process for the Agent crash tests (run with node, which strips the types): serves
// the notes Agent as a Restate workflow, with the notifier that records each approval it is told
// about, and `failing-model`, a run whose model step fails. It listens on PORT, or (without PORT)
// on a port the kernel picks, and prints the port it got (`listening on <port>`). The Restate
// server drives the run: it invokes the workflow on this worker (or another of the deployment)
// again after a crash.
import {
  failedModelRunFromEnvironment,
  notesAgentFromEnvironment,
  notifierFromEnvironment,
} from "@junction/durable-engines/agent-worker";
import { announceListening } from "@junction/durable-engines/processes";
import { restateAgentWorkflow, restateWorkflow } from "@junction/restate";
import * as restate from "@restatedev/restate-sdk";

const { makeAgent } = notesAgentFromEnvironment();
const port = await restate.serve({
  services: [
    restateAgentWorkflow("notes", makeAgent, { onApprovalRequested: notifierFromEnvironment() }),
    restateWorkflow("failing-model", failedModelRunFromEnvironment()),
  ],
  port: Number(process.env.PORT ?? 0),
});
announceListening(port);
