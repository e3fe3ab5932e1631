// Runs per second on the durable engines with one worker and with two: a short Agent run (a
// model step asking for one tool call, the tool running unasked, a model step answering) started
// `runs` times at once, until every run has ended. DBOS: worker processes with their own executor
// ids on one PostgreSQL database, the runs enqueued on a DBOS queue from this process (as
// packages/dbos's README spreads work over machines). Restate: worker endpoints behind one HTTP/2
// balancer, registered as one deployment, the runs submitted at its ingress. The one-worker and
// the two-worker setups run side by side and take turns, round by round, so both see the same
// load on a shared machine. PostgreSQL comes from the OS packages: when it is missing, DBOS is
// skipped with a line saying so.
//
// Only this part: `node --import ./src/resolve-typescript.ts src/bench-engine-throughput.ts [--smoke]` in bench/.
import { cpus } from "node:os";
import { fileURLToPath } from "node:url";
import { DBOSClient } from "@dbos-inc/dbos-sdk";
import { startHttp2Balancer } from "@junction/durable-engines/http2-balancer";
import { type Postgres, startPostgres } from "@junction/durable-engines/postgres";
import {
  freePort,
  type NodeProcess,
  startNode,
  waitFor,
  waitForPort,
} from "@junction/durable-engines/processes";
import { type RestateServer, startRestateServer } from "@junction/durable-engines/restate-server";
import type { WireFake } from "@junction/wire-fake";
import { startChatCompletionsToolLoop } from "@junction/wire-fake/chat-completions-tool-loop";
import * as clients from "@restatedev/restate-sdk-clients";
import { formatRatio, median, table } from "./stats.ts";
import { lookupRun, WORKER_READY } from "./throughput-agent.ts";

/** One engine's runs per second with one worker and with two. */
export interface EngineThroughputFigures {
  engine: "dbos" | "restate";
  /** Runs started at once per round. */
  runs: number;
  rounds: number;
  /** Median over the rounds of runs / (time from the first start to the last run's end). */
  oneWorkerRunsPerSecond: number;
  twoWorkersRunsPerSecond: number;
  /**
   * The median over the rounds of the two setups' ratio within a round (back to back, under about
   * the same load), rather than a ratio of medians.
   */
  twoWorkersVsOne: number;
  /** Each round's runs per second, in order: how much the machine's load moved them. */
  oneWorkerRounds: number[];
  twoWorkersRounds: number[];
  /**
   * How the two-worker setup's measured work was spread, per worker: runs (DBOS, by executor id)
   * or invocation streams (Restate, as the balancer routed them).
   */
  spread: number[];
}

/** Both engines' figures, and why an engine was not measured, one line each. */
export interface ThroughputFigures {
  engines: EngineThroughputFigures[];
  skipped: string[];
}

/** A full run's settings (`pnpm bench`) and a smoke run's (`--smoke`: it shows the section runs). */
export const THROUGHPUT_SETTINGS = {
  full: { runs: 50, rounds: 9, warmUp: 10 },
  smoke: { runs: 4, rounds: 1, warmUp: 1 },
} as const;

/** The DBOS queue's settings in every worker: README's `workerConcurrency`, a 100 ms poll. */
export const DBOS_QUEUE = { name: "agent-runs", workerConcurrency: 10, pollingIntervalMs: 100 } as const;

const dbosWorker = fileURLToPath(new URL("./throughput-workers/dbos-worker.ts", import.meta.url));
const restateWorker = fileURLToPath(new URL("./throughput-workers/restate-worker.ts", import.meta.url));
const BATCH_TIMEOUT_MS = 120_000;

/** One or two workers of an engine, ready to take runs. */
interface Setup {
  readonly workers: number;
  /** Starts a run for each id at once; resolves with the milliseconds until the last one ended. */
  batch(runIds: string[]): Promise<number>;
  /** Work per worker since `startCounting()`. */
  spread(): Promise<number[]>;
  startCounting(): void;
  close(): Promise<void>;
}

/**
 * Measures both engines: `rounds` rounds of `runs` runs started at once, on one worker and on two,
 * after a warm-up batch of `warmUp` runs on each setup.
 */
export async function benchEngineThroughput(options: {
  runs: number;
  rounds: number;
  warmUp: number;
  log: (line: string) => void;
}): Promise<ThroughputFigures> {
  const figures: ThroughputFigures = { engines: [], skipped: [] };
  const model = await startLookupModel();
  try {
    let postgres: Postgres | undefined;
    try {
      postgres = await startPostgres();
    } catch (error) {
      figures.skipped.push(`DBOS runs per second: not measured, ${(error as Error).message}`);
      options.log(`bench: DBOS throughput skipped: ${(error as Error).message}`);
    }
    if (postgres) {
      try {
        options.log("bench: DBOS runs per second, one worker and two…");
        figures.engines.push(
          await measure("dbos", options, (workers) => dbosSetup(postgres, model, workers)),
        );
      } finally {
        postgres.stop();
      }
    }
    options.log("bench: Restate runs per second, one worker and two…");
    const server = await startRestateServer();
    try {
      figures.engines.push(
        await measure("restate", options, (workers) => restateSetup(server, model, workers)),
      );
    } finally {
      await server.stop();
    }
    // Every run asked the model twice (the tool step, the answer): none was run twice or lost.
    const started = figures.engines.length * 2 * (options.warmUp + options.rounds * options.runs);
    if (model.requests.length !== 2 * started)
      throw new Error(
        `bench: ${started} runs made ${model.requests.length} model requests, not ${2 * started}`,
      );
  } finally {
    await model.close();
  }
  return figures;
}

async function measure(
  engine: EngineThroughputFigures["engine"],
  options: { runs: number; rounds: number; warmUp: number },
  makeSetup: (workers: number) => Promise<Setup>,
): Promise<EngineThroughputFigures> {
  const setups: Setup[] = [];
  try {
    for (const workers of [1, 2]) setups.push(await makeSetup(workers));
    const ids = (label: string, count: number) =>
      Array.from({ length: count }, (_, index) => `${label}-${index}`);
    for (const setup of setups) await setup.batch(ids(`warm-up-${setup.workers}`, options.warmUp));
    for (const setup of setups) setup.startCounting();
    const perSecond = new Map<number, number[]>([
      [1, []],
      [2, []],
    ]);
    for (let round = 0; round < options.rounds; round++) {
      // Who goes first alternates, so neither setup always runs on a machine just warmed (or tired).
      const order = round % 2 === 0 ? setups : [...setups].reverse();
      for (const setup of order) {
        const elapsedMs = await setup.batch(ids(`round-${round}-${setup.workers}`, options.runs));
        perSecond.get(setup.workers)!.push(options.runs / (elapsedMs / 1000));
      }
    }
    return {
      engine,
      runs: options.runs,
      rounds: options.rounds,
      oneWorkerRunsPerSecond: median(perSecond.get(1)!),
      twoWorkersRunsPerSecond: median(perSecond.get(2)!),
      twoWorkersVsOne: median(perSecond.get(2)!.map((two, round) => two / perSecond.get(1)![round]!)),
      oneWorkerRounds: perSecond.get(1)!,
      twoWorkersRounds: perSecond.get(2)!,
      spread: await setups[1]!.spread(),
    };
  } finally {
    for (const setup of setups) await setup.close();
  }
}

/** The model: asks for `lookup_order` once, then answers with the tool's result. */
function startLookupModel(): Promise<WireFake> {
  return startChatCompletionsToolLoop({
    toolName: "lookup_order",
    toolSteps: 1,
    toolArguments: () => ({ id: 7 }),
    finalText: (results) => results.join("; "),
  });
}

async function waitUntilReady(worker: NodeProcess, name: string): Promise<void> {
  try {
    await waitFor(() => worker.output().includes(`${WORKER_READY}${name}`), {
      timeoutMs: 30_000,
      what: `the throughput worker ${name}`,
    });
  } catch (error) {
    throw new Error(`${(error as Error).message}; its output:\n${worker.output()}`);
  }
}

async function dbosSetup(postgres: Postgres, model: WireFake, workers: number): Promise<Setup> {
  const databaseUrl = postgres.url(`junction_bench_throughput_${workers}`);
  const processes: NodeProcess[] = [];
  const executorIds = Array.from({ length: workers }, (_, index) => `bench-${workers}-${index + 1}`);
  let client: DBOSClient | undefined;
  let counted: string[] = [];
  const close = async () => {
    await client?.destroy();
    for (const worker of processes) await worker.kill();
  };
  try {
    // One after the other: the first launch creates DBOS's tables (two racing on an empty database can fail).
    for (const executorId of executorIds) {
      const worker = startNode(dbosWorker, {
        DATABASE_URL: databaseUrl,
        EXECUTOR_ID: executorId,
        MODEL_URL: model.url,
        QUEUE_NAME: DBOS_QUEUE.name,
        WORKER_CONCURRENCY: String(DBOS_QUEUE.workerConcurrency),
        POLLING_INTERVAL_MS: String(DBOS_QUEUE.pollingIntervalMs),
      });
      processes.push(worker);
      await waitUntilReady(worker, executorId);
    }
    // A small pool: both setups' workers and clients share the cluster's 50 connections.
    client = await DBOSClient.create({ systemDatabaseUrl: databaseUrl, systemDatabasePoolSize: 2 });
  } catch (error) {
    await close();
    throw error;
  }
  const dbos = client;
  return {
    workers,
    batch: async (runIds) => {
      const started = performance.now();
      await Promise.all(
        runIds.map((workflowID) =>
          dbos.enqueue(
            { queueName: DBOS_QUEUE.name, workflowName: "lookup", workflowID },
            { input: lookupRun.input },
          ),
        ),
      );
      // One query every 20 ms for the whole batch, rather than a result poll per run.
      const deadline = started + BATCH_TIMEOUT_MS;
      for (;;) {
        const statuses = await dbos.listWorkflows({
          workflowIDs: runIds,
          loadInput: false,
          loadOutput: false,
        });
        const failed = statuses.find(
          (s) => s.status !== "SUCCESS" && s.status !== "PENDING" && s.status !== "ENQUEUED",
        );
        if (failed) throw new Error(`bench: DBOS run ${failed.workflowID} ended ${failed.status}`);
        if (statuses.filter((s) => s.status === "SUCCESS").length === runIds.length) break;
        if (performance.now() > deadline)
          throw new Error(`bench: DBOS runs not finished within ${BATCH_TIMEOUT_MS / 1000} s`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const elapsedMs = performance.now() - started;
      for (const status of await dbos.listWorkflows({ workflowIDs: runIds, loadInput: false })) {
        const text = (status.output as { text?: unknown } | undefined)?.text;
        if (text !== lookupRun.answer)
          throw new Error(`bench: DBOS run ${status.workflowID} answered ${JSON.stringify(text)}`);
        counted.push(status.executorId ?? "?");
      }
      return elapsedMs;
    },
    startCounting: () => {
      counted = [];
    },
    spread: async () => executorIds.map((id) => counted.filter((executor) => executor === id).length),
    close,
  };
}

type Lookup = { run: (ctx: unknown, request: { input: string }) => Promise<{ text: string }> };

async function restateSetup(server: RestateServer, model: WireFake, workers: number): Promise<Setup> {
  // One service per setup, so both setups' deployments live side by side on one server.
  const service = workers === 1 ? "lookupOneWorker" : "lookupTwoWorkers";
  const processes: NodeProcess[] = [];
  const upstreams: string[] = [];
  let balancer: Awaited<ReturnType<typeof startHttp2Balancer>> | undefined;
  const close = async () => {
    await balancer?.stop();
    for (const worker of processes) await worker.kill();
  };
  try {
    for (let index = 0; index < workers; index++) {
      const port = await freePort();
      const worker = startNode(restateWorker, {
        PORT: String(port),
        SERVICE_NAME: service,
        MODEL_URL: model.url,
        RESTATE_LOGGING: "WARN",
      });
      processes.push(worker);
      await waitForPort(port, {
        timeoutMs: 30_000,
        what: () => `the worker; its output:\n${worker.output()}`,
      });
      upstreams.push(`http://127.0.0.1:${port}`);
    }
    balancer = await startHttp2Balancer(upstreams);
    await server.register(balancer.url);
  } catch (error) {
    await close();
    throw error;
  }
  const routed = balancer.routed;
  const ingress = clients.connect({ url: server.ingressUrl });
  let baseline = new Map<string, number>();
  return {
    workers,
    batch: async (runIds) => {
      const started = performance.now();
      const client = (runId: string) => ingress.workflowClient<Lookup>({ name: service }, runId);
      await Promise.all(runIds.map((runId) => client(runId).workflowSubmit({ input: lookupRun.input })));
      const results = await Promise.all(runIds.map((runId) => client(runId).workflowAttach()));
      const elapsedMs = performance.now() - started;
      results.forEach((result, index) => {
        if (result.text !== lookupRun.answer)
          throw new Error(`bench: Restate run ${runIds[index]} answered ${JSON.stringify(result.text)}`);
      });
      return elapsedMs;
    },
    startCounting: () => {
      baseline = new Map(routed);
    },
    spread: async () =>
      upstreams.map((upstream) => (routed.get(upstream) ?? 0) - (baseline.get(upstream) ?? 0)),
    close,
  };
}

function range(rounds: number[]): string {
  return `${Math.min(...rounds).toFixed(1)}–${Math.max(...rounds).toFixed(1)}`;
}

function engineName(engine: EngineThroughputFigures["engine"]): string {
  return engine === "dbos" ? "DBOS" : "Restate";
}

/** The section's table and what it measured, for the report. */
export function throughputSection(figures: ThroughputFigures): string {
  const first = figures.engines[0];
  return [
    table(
      ["engine", "runs/s, 1 worker", "runs/s, 2 workers", "2 workers vs 1", "work per worker (2 workers)"],
      figures.engines.map((f) => [
        engineName(f.engine),
        `${f.oneWorkerRunsPerSecond.toFixed(1)} (${range(f.oneWorkerRounds)})`,
        `${f.twoWorkersRunsPerSecond.toFixed(1)} (${range(f.twoWorkersRounds)})`,
        `${formatRatio(f.twoWorkersVsOne)}*`,
        `${f.spread.join(" / ")} ${f.engine === "dbos" ? "runs" : "invocation streams"}`,
      ]),
    ),
    "",
    `Completed Agent runs per second: ${first?.runs ?? 0} runs started at once, the clock stopped when the last one has ended; the median of ${first?.rounds ?? 0} rounds per setup (in brackets: the slowest and the fastest round), the one-worker and the two-worker setups taking turns (who goes first alternates). Each run is a real Agent (provider-chatcompletions against one local Chat Completions fake in the bench's process): a model step asking for one tool call, a local read-only tool that \`annotationPolicy()\` lets run unasked, a model step answering; every run's answer and the model's request count (two per run) are checked. DBOS: worker processes with their own executor ids (and leases) on one PostgreSQL database, the runs enqueued from the bench with \`DBOSClient.enqueue\` on a queue every worker registered (\`workerConcurrency: ${DBOS_QUEUE.workerConcurrency}\`, \`minPollingIntervalMs: ${DBOS_QUEUE.pollingIntervalMs}\`: one worker runs at most ${DBOS_QUEUE.workerConcurrency} at a time, two ${2 * DBOS_QUEUE.workerConcurrency}); the end is read from DBOS's workflow status every 20 ms. Restate: worker endpoints behind one HTTP/2 balancer registered as one deployment (the balancer is in both setups), the runs submitted at the ingress and awaited with \`workflowAttach\`. All on this machine (${cpus().length} cores): the workers, PostgreSQL or restate-server, and the bench's process (the model fake, the balancer, the client) share its cores, so a second worker adds a process, not a machine; on a shared machine the rounds move with its load (the brackets).\n\n\\* The median of the rounds' ratios (the two setups ran back to back in each round), rather than a ratio of medians. Only this part: \`node --import ./src/resolve-typescript.ts src/bench-engine-throughput.ts\` in bench/.`,
    ...(figures.skipped.length ? ["", ...figures.skipped] : []),
  ].join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const smoke = process.argv.includes("--smoke");
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const figures = await benchEngineThroughput({
    ...THROUGHPUT_SETTINGS[smoke ? "smoke" : "full"],
    log,
  });
  process.stdout.write(`${throughputSection(figures)}\n`);
}
