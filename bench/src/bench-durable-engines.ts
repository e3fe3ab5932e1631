// The durable engines: what a step through Junction's durability port costs next to the engine's
// own bare step (the packages' step-overhead scripts, run as they are), and how long a real
// Agent's run takes, after its worker was SIGKILLed and restarted, from the approval being sent
// to its next model request. PostgreSQL (for DBOS) comes from the OS packages; when it is
// missing, DBOS is skipped with a line saying so. The Restate server comes from npm.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { DBOSClient } from "@dbos-inc/dbos-sdk";
import type { PendingToolCall } from "@junction/core";
import { answerApproval as answerDBOS, pendingApprovals as pendingOnDBOS } from "@junction/dbos";
import { notesRun, notesRuns } from "@junction/durable-engines/agent-scenario";
import { type Postgres, startPostgres } from "@junction/durable-engines/postgres";
import { freePort, type NodeProcess, startNode, waitForPort } from "@junction/durable-engines/processes";
import { type RestateServer, startRestateServer } from "@junction/durable-engines/restate-server";
import { FIGURES_LINE, type StepOverheadFigures } from "@junction/durable-engines/step-overhead";
import { answerApproval as answerRestate, pendingApprovals as pendingOnRestate } from "@junction/restate";
import * as clients from "@restatedev/restate-sdk-clients";
import { median } from "./stats.ts";

/** One engine's resume after a worker restart, over `runs` runs. */
export interface ResumeFigures {
  engine: "dbos" | "restate";
  runs: number;
  /** Median and worst time from the approval being sent to the run's next model request. */
  approvalToModelMs: number;
  approvalToModelWorstMs: number;
  /** Median time from the new worker's start to the run asking for the approval again. */
  workerToQuestionMs: number;
}

export interface DurableEngineFigures {
  steps: StepOverheadFigures[];
  resumes: ResumeFigures[];
  /** Why an engine was not measured, one line each. */
  skipped: string[];
}

const root = fileURLToPath(new URL("../..", import.meta.url));
const run = promisify(execFile);

/** Measures both engines: `steps` steps per round over `rounds` rounds, `resumeRuns` crash-and-resume runs each. */
export async function benchDurableEngines(options: {
  steps: number;
  rounds: number;
  resumeRuns: number;
  log: (line: string) => void;
}): Promise<DurableEngineFigures> {
  const figures: DurableEngineFigures = { steps: [], resumes: [], skipped: [] };
  let postgres: Postgres | undefined;
  try {
    postgres = await startPostgres();
  } catch (error) {
    figures.skipped.push(`DBOS: not measured, ${(error as Error).message}`);
    options.log(`bench: DBOS skipped: ${(error as Error).message}`);
  }
  try {
    if (postgres) {
      options.log("bench: DBOS step overhead…");
      figures.steps.push(await stepOverhead("dbos", options));
      options.log("bench: DBOS resume after a worker restart…");
      figures.resumes.push(await resumeOnDBOS(postgres, options.resumeRuns));
    }
  } finally {
    postgres?.stop();
  }
  options.log("bench: Restate step overhead…");
  figures.steps.push(await stepOverhead("restate", options));
  options.log("bench: Restate resume after a worker restart…");
  const server = await startRestateServer();
  try {
    figures.resumes.push(await resumeOnRestate(server, options.resumeRuns));
  } finally {
    await server.stop();
  }
  return figures;
}

/** Runs the package's own step-overhead script (bench/step-overhead.ts) and reads its figures. */
async function stepOverhead(engine: "dbos" | "restate", options: { steps: number; rounds: number }) {
  const { stdout } = await run(
    process.execPath,
    [join(root, "packages", engine, "bench", "step-overhead.ts")],
    {
      cwd: join(root, "packages", engine),
      env: {
        ...process.env,
        STEPS: String(options.steps),
        ROUNDS: String(options.rounds),
        BENCH_FIGURES: "1",
        RESTATE_LOGGING: "WARN",
      },
      timeout: 300_000,
    },
  );
  const line = stdout.split("\n").find((candidate) => candidate.startsWith(FIGURES_LINE));
  if (!line) throw new Error(`packages/${engine}/bench/step-overhead.ts printed no figures:\n${stdout}`);
  return JSON.parse(line.slice(FIGURES_LINE.length)) as StepOverheadFigures;
}

/** One crash-and-resume: the worker killed while the approval waits, restarted, then the approval. */
interface ResumeRound {
  /** Starts the worker; `first` also starts the run. */
  startWorker(first: boolean): Promise<NodeProcess>;
  /** The call waiting under `signal`, as listed (before the clock starts). */
  list(signal: string): Promise<PendingToolCall>;
  /**
   * Sends the approval of the listed call in this process, as stored (`until: "accepted"`: the
   * engine's client is ready before the clock starts).
   */
  approve(item: PendingToolCall): Promise<unknown>;
  /**
   * Waits for the run's own end (its result journaled), where the engine shares state across
   * rounds: a run cut off by the round's cleanup would be retried on the next round's worker.
   */
  finished?(): Promise<unknown>;
}

/** The call of `items` that waits under the signal `signal` (`approval:<step>:<callId>`). */
function listed(signal: string, items: PendingToolCall[]): PendingToolCall {
  const item = items.find((call) => `approval:${call.step}:${call.id}` === signal);
  if (!item) throw new Error(`No call waits under ${signal}: ${JSON.stringify(items)}`);
  return item;
}

/** How long a worker is left after its run asks, so its last step's journal entry is acknowledged. */
const JOURNAL_SETTLE_MS = 300;

function settleJournal(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, JOURNAL_SETTLE_MS));
}

async function measureResumes(
  engine: ResumeFigures["engine"],
  runs: number,
  makeRound: (notes: { runId: string; environment: Record<string, string> }) => ResumeRound & {
    close(): Promise<void>;
  },
): Promise<ResumeFigures> {
  const series = notesRuns(`junction-bench-${engine}-`);
  const toModel: number[] = [];
  const toQuestion: number[] = [];
  try {
    for (let index = 0; index < runs; index++) {
      const { model, environment, events, track } = await series.next();
      const round = makeRound({ runId: `bench-resume-${index}`, environment });
      try {
        const first = track(await round.startWorker(true));
        const signal = await events.reachApproval(1, first);
        // Restate acknowledges a step's result a moment after the workflow's code goes on (the
        // question is asked right after the model step): the kill comes once it has, so the run
        // dies between a journaled step and the approval, not inside the step.
        await settleJournal();
        await first.kill();
        const back = performance.now();
        const second = track(await round.startWorker(false));
        await events.reachApproval(2, second);
        toQuestion.push(performance.now() - back);
        if (model.requests.length !== 1)
          throw new Error(
            `${engine}: the model was asked again on recovery (run ${index}, ${model.requests.length} requests)`,
          );
        const item = await round.list(signal);
        const approved = performance.now();
        await round.approve(item);
        await pollUntil(
          () => model.requests.length === 2,
          15_000,
          `${engine}: the model request after the approval`,
        );
        toModel.push(performance.now() - approved);
        await pollUntil(() => events.calls().length === 1, 15_000, `${engine}: the tool call`);
        await round.finished?.();
      } finally {
        await series.cleanUp();
        await round.close();
      }
    }
  } finally {
    series.remove();
  }
  return {
    engine,
    runs,
    approvalToModelMs: median(toModel),
    approvalToModelWorstMs: Math.max(...toModel),
    workerToQuestionMs: median(toQuestion),
  };
}

/** Polls every millisecond, so the time it reports is within about a millisecond. */
async function pollUntil(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > deadline) throw new Error(`bench: timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

function resumeOnDBOS(postgres: Postgres, runs: number): Promise<ResumeFigures> {
  const worker = join(root, "packages/dbos/test/workers/agent-worker.ts");
  let database = 0;
  return measureResumes("dbos", runs, ({ runId, environment: notes }) => {
    database += 1;
    const databaseUrl = postgres.url(`junction_bench_resume_${database}`);
    const environment = { DATABASE_URL: databaseUrl, ...notes };
    let client: DBOSClient | undefined;
    return {
      startWorker: async (first) => {
        const started = startNode(worker, { ...environment, ...(first ? { START_RUN_ID: runId } : {}) });
        // The system database exists once the first worker launched: the client can connect.
        if (!first) client = await DBOSClient.create({ systemDatabaseUrl: databaseUrl });
        return started;
      },
      list: async (signal) => listed(signal, await pendingOnDBOS({ client: client!, runId })),
      approve: (item) => answerDBOS({ sender: client!, runId, item, decision: "approve", until: "accepted" }),
      close: async () => {
        await client?.destroy();
      },
    };
  });
}

type Notes = { run: (ctx: unknown, request: { input: string }) => Promise<unknown> };

async function resumeOnRestate(server: RestateServer, runs: number): Promise<ResumeFigures> {
  const worker = join(root, "packages/restate/test/workers/agent-worker.ts");
  // One port for every run: a Restate invocation stays with the deployment it started on.
  const port = await freePort();
  const ingress = clients.connect({ url: server.ingressUrl });
  let registered = false;
  return measureResumes("restate", runs, ({ runId, environment }) => ({
    startWorker: async (first) => {
      const started = startNode(worker, {
        PORT: String(port),
        RESTATE_LOGGING: "WARN",
        ...environment,
      });
      await waitForPort(port, {
        timeoutMs: 10_000,
        what: () => `the worker; its output:\n${started.output()}`,
      });
      if (!registered) await server.register(`http://127.0.0.1:${port}`);
      registered = true;
      if (first)
        await ingress
          .workflowClient<Notes>({ name: "notes" }, runId)
          .workflowSubmit({ input: notesRun.input });
      return started;
    },
    list: async (signal) => listed(signal, await pendingOnRestate({ ingress, workflow: "notes", runId })),
    approve: (item) =>
      answerRestate({ ingress, workflow: "notes", runId, item, decision: "approve", until: "accepted" }),
    finished: () => ingress.workflowClient<Notes>({ name: "notes" }, runId).workflowAttach(),
    close: async () => {},
  }));
}
