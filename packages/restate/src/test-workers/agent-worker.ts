// A worker process for the Agent crash tests (run with node, which strips the types): serves
// the notes Agent as a Restate workflow on PORT. The Restate server drives the run: it invokes
// the workflow on this worker again after a crash.
import { notesAgentFromEnvironment } from "@junction/durable-engines/agent-worker";
import { restateAgentWorkflow } from "@junction/restate";
import * as restate from "@restatedev/restate-sdk";

const { makeAgent } = notesAgentFromEnvironment();
await restate.serve({ services: [restateAgentWorkflow("notes", makeAgent)], port: Number(process.env.PORT) });
