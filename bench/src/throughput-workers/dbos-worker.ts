// A DBOS worker of the engine-throughput benchmark (run with node, which strips the types): one
// executor (EXECUTOR_ID, holding its lease) on the system database at DATABASE_URL, running the
// lookup Agent as the workflow `lookup` and taking new runs from the queue QUEUE_NAME, as
// packages/dbos's README spreads work over several machines.
import { DBOS } from "@dbos-inc/dbos-sdk";
import { claimExecutor, dbosAgentWorkflow } from "@junction/dbos";
import { lookupAgent, WORKER_READY } from "../throughput-agent.ts";

dbosAgentWorkflow("lookup", lookupAgent(process.env.MODEL_URL!));

const systemDatabaseUrl = process.env.DATABASE_URL!;
const executorId = process.env.EXECUTOR_ID!;
await claimExecutor({ systemDatabaseUrl, executorId });
DBOS.setConfig({
  name: "junction-bench-throughput",
  systemDatabaseUrl,
  executorID: executorId,
  logLevel: "error",
});
await DBOS.launch();
await DBOS.registerQueue(process.env.QUEUE_NAME!, {
  workerConcurrency: Number(process.env.WORKER_CONCURRENCY),
  minPollingIntervalMs: Number(process.env.POLLING_INTERVAL_MS),
});
process.stdout.write(`${WORKER_READY}${executorId}\n`);
