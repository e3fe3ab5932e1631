// A worker process for the crash tests (run with node, which strips the types): serves the
// durable functions as Restate workflows on PORT, or (without PORT) on a port the kernel picks,
// and prints the port it got (`listening on <port>`). The Restate server drives the runs: it
// invokes a workflow on this worker again after a crash.

import { parallelSteps, twoSteps } from "@junction/durable-engines/crash-scenarios";
import { announceListening } from "@junction/durable-engines/processes";
import { restateWorkflow } from "@junction/restate";
import * as restate from "@restatedev/restate-sdk";

const eventsFile = process.env.EVENTS_FILE!;
const services = [
  restateWorkflow("two-steps", twoSteps(eventsFile)),
  restateWorkflow("parallel-steps", parallelSteps(eventsFile, Number(process.env.SLOW_MS ?? 10))),
];

announceListening(await restate.serve({ services, port: Number(process.env.PORT ?? 0) }));
