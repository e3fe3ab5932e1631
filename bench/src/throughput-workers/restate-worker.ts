// A Restate worker of the engine-throughput benchmark (run with node, which strips the types):
// serves the lookup Agent as the workflow SERVICE_NAME on PORT. The bench puts one or two of
// them behind one HTTP/2 balancer, registered as one deployment.
import { restateAgentWorkflow } from "@junction/restate";
import * as restate from "@restatedev/restate-sdk";
import { lookupAgent, WORKER_READY } from "../throughput-agent.ts";

await restate.serve({
  services: [restateAgentWorkflow(process.env.SERVICE_NAME!, lookupAgent(process.env.MODEL_URL!))],
  port: Number(process.env.PORT),
});
process.stdout.write(`${WORKER_READY}${process.env.PORT}\n`);
