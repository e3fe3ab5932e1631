// A worker process for the crash tests (run with node, which strips the types): serves the
// two-step durable function as a Restate workflow on PORT. The Restate server drives the run:
// it invokes the workflow on this worker again after a crash.

import { twoSteps } from "@junction/durable-engines/two-step-scenario";
import { restateWorkflow } from "@junction/restate";
import * as restate from "@restatedev/restate-sdk";

const run = restateWorkflow("two-steps", twoSteps(process.env.EVENTS_FILE!));

await restate.serve({ services: [run], port: Number(process.env.PORT) });
