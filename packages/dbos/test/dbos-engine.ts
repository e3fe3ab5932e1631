// DBOS as the engine contract suite (tooling/durable-engines) runs it: this package's API driven
// as an application drives it, a real DBOS on a throwaway PostgreSQL cluster, and the worker
// processes of ./workers. The DBOS-only tests use its workers too. Never shipped (not in `src/`).
import { fileURLToPath } from "node:url";
import { DBOS, DBOSClient } from "@dbos-inc/dbos-sdk";
import { Agent, type AgentResult, type PendingToolCall } from "@junction/core";
import type { AgentRunRequest } from "@junction/core/durable-runs";
import { scriptedModel } from "@junction/core/testing";
import { approveFrom, resultFrom } from "@junction/durable-engines/agent-scenario";
import { sendApprovalFrom } from "@junction/durable-engines/crash-scenarios";
import type {
  ApprovalsClient,
  EngineAdapter,
  EngineForWorkers,
  LaunchedEngine,
  NotesWorkers,
  StepsWorkers,
} from "@junction/durable-engines/engine-contract";
import { type Postgres, startPostgres } from "@junction/durable-engines/postgres";
import { type NodeProcess, startNode, withTimeout } from "@junction/durable-engines/processes";
import {
  answerApproval,
  approvalStatus,
  type DBOSWorkflow,
  dbosAgentRuns,
  dbosAgentWorkflow,
  dbosWorkflow,
  pendingApprovals,
  sendSignal,
  waitForApprovals,
} from "../src/index.js";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const worker = (name: string) => fileURLToPath(new URL(`./workers/${name}.ts`, import.meta.url));

/** The agent workflows registered in this process, by name (before DBOS launches). */
const workflows = new Map<string, DBOSWorkflow<AgentRunRequest, AgentResult>>();
/** The port scenarios' workflows registered in this process, by name (before DBOS launches). */
const portWorkflows = new Map<string, DBOSWorkflow<string, string>>();

/** `use` with a `DBOSClient` of its own on `systemDatabaseUrl`, destroyed after. */
async function withClient<T>(systemDatabaseUrl: string, use: (client: DBOSClient) => Promise<T>): Promise<T> {
  const client = await DBOSClient.create({ systemDatabaseUrl });
  try {
    return await use(client);
  } finally {
    await client.destroy();
  }
}

/** The package's approval API through `client` (DBOS names a run by its id alone). */
function approvalsThrough(client: DBOSClient, close: () => Promise<void>): ApprovalsClient {
  return {
    pendingApprovals: (runId) => pendingApprovals({ client, runId }),
    approvalStatus: (runId) => approvalStatus({ client, runId }),
    waitForApprovals: (runId, { timeoutMs, signal }) =>
      waitForApprovals({ client, runId, timeoutMs, ...(signal ? { signal } : {}) }),
    answerApproval: ({ runId, item, decision, idempotencyKey }) =>
      answerApproval({
        sender: client,
        runId,
        item,
        decision,
        timeoutMs: 30_000,
        ...(idempotencyKey !== undefined ? { idempotencyKey } : {}),
      }),
    sendSignal: (runId, name, value) => sendSignal({ sender: client, runId, name, value }),
    close,
  };
}

/** The run's result through a client of its own, within `timeoutMs`; `worker`'s output names a hang. */
function resultOf<T>(
  systemDatabaseUrl: string,
  runId: string,
  { worker, timeoutMs }: { worker: NodeProcess; timeoutMs: number },
): Promise<T> {
  return withClient(systemDatabaseUrl, (client) =>
    withTimeout(client.retrieveWorkflow<T>(runId).getResult({ pollingIntervalMs: 50 }), {
      timeoutMs,
      what: () => `the result of ${runId}; worker output:\n${worker.output()}`,
    }),
  );
}

/** The notes Agent's workers of one test, with what only DBOS has: executors and their recovery. */
export interface DBOSNotesWorkers extends NotesWorkers {
  /** The approver's process takes over the runs of `executorId` with `recoverRunsOf`. */
  recover(executorId: string): Promise<{ recovered?: string[]; error?: string; code?: string }>;
}

/** DBOS for workers in processes of their own: one PostgreSQL cluster, a database per test. */
export interface DBOSForWorkers extends EngineForWorkers {
  notesWorkers(run: Parameters<EngineForWorkers["notesWorkers"]>[0]): Promise<DBOSNotesWorkers>;
}

/** Starts a PostgreSQL cluster for worker processes; each test's workers get a database of their own. */
export async function startDBOSForWorkers(): Promise<DBOSForWorkers> {
  const postgres: Postgres = await startPostgres();
  let databases = 0;
  const nextDatabase = (kind: string) => {
    databases += 1;
    return postgres.url(`junction_dbos_${kind}_${databases}`);
  };
  return {
    notesWorkers: async (run) => {
      const databaseUrl = nextDatabase("agent");
      const env = { DATABASE_URL: databaseUrl };
      return {
        start: async (options = {}) =>
          run.track(
            startNode(worker("agent-worker"), {
              ...env,
              ...run.environment,
              ...(options.runs ? { START_RUN_IDS: options.runs.join(",") } : {}),
              ...(options.failingModelRun
                ? { START_WORKFLOW: "failing-model", START_RUN_ID: options.failingModelRun }
                : {}),
              ...options.env,
            }),
          ),
        result: (runId, running) => resultOf(databaseUrl, runId, { worker: running, timeoutMs: 20_000 }),
        pendingApprovals: (runId) => withClient(databaseUrl, (client) => pendingApprovals({ client, runId })),
        fromApprover: (action, runIds, edited = {}) =>
          resultFrom(worker("approvals"), {
            ...env,
            ACTION: action,
            RUN_IDS: runIds.join(","),
            EDITED: JSON.stringify(edited),
          }),
        approveFrom: (runId, item: PendingToolCall) =>
          approveFrom(worker("send-signal"), {
            env: { ...env, RUN_ID: runId },
            signal: `approval:${item.step}:${item.id}`,
            item,
          }),
        cancel: (runId) => withClient(databaseUrl, (client) => client.cancelWorkflow(runId)),
        journaledSteps: (runId) =>
          withClient(
            databaseUrl,
            async (client) => (await client.listWorkflowSteps(runId))?.map((step) => step.name) ?? [],
          ),
        recover: (executorId) =>
          resultFrom(worker("approvals"), { ...env, ACTION: "recover", EXECUTOR_ID: executorId }),
        close: async () => {},
      };
    },
    stepsWorkers: async (eventsFile): Promise<StepsWorkers> => {
      const databaseUrl = nextDatabase("steps");
      const env = { DATABASE_URL: databaseUrl, EVENTS_FILE: eventsFile };
      const running: NodeProcess[] = [];
      return {
        start: async (options = {}) => {
          const started = startNode(worker("worker"), {
            ...env,
            ...(options.run ? { START_WORKFLOW: options.run.workflow, START_RUN_ID: options.run.runId } : {}),
            ...options.env,
          });
          running.push(started);
          return started;
        },
        sendApproval: (runId) =>
          sendApprovalFrom(worker("send-signal"), { DATABASE_URL: databaseUrl, RUN_ID: runId }),
        result: (runId, started) =>
          resultOf<string>(databaseUrl, runId, { worker: started, timeoutMs: 15_000 }),
        close: async () => {
          for (const started of running.splice(0)) await started.kill();
        },
      };
    },
    restartEngine: async () => postgres.restart(),
    stop: async () => postgres.stop(),
  };
}

/** DBOS launched in this process for the workflows the suite registered, on a cluster of its own. */
async function launchDBOS(): Promise<LaunchedEngine> {
  const postgres = await startPostgres();
  const systemDatabaseUrl = postgres.url("junction_dbos_contract");
  let client: DBOSClient | undefined;
  try {
    DBOS.setConfig({ name: "junction-dbos-contract", systemDatabaseUrl, logLevel: "error" });
    await DBOS.launch();
    client = await DBOSClient.create({ systemDatabaseUrl });
  } catch (error) {
    await DBOS.shutdown();
    postgres.stop();
    throw error;
  }
  const ours: DBOSClient = client;
  const registered = (name: string) => {
    const workflow = workflows.get(name);
    if (!workflow) throw new Error(`No agent workflow "${name}" was registered before DBOS launched.`);
    return workflow;
  };
  return {
    submit: async (workflow, runId, request) => {
      await registered(workflow).start(request, { runId });
    },
    result: (_workflow, runId) =>
      ours.retrieveWorkflow<AgentResult>(runId).getResult({ pollingIntervalMs: 50 }) as Promise<AgentResult>,
    approvals: () => approvalsThrough(ours, async () => {}),
    separateApprovals: async (_workflow, count) =>
      Promise.all(
        Array.from({ length: count }, async () => {
          const own = await DBOSClient.create({ systemDatabaseUrl });
          return approvalsThrough(own, () => own.destroy());
        }),
      ),
    agentRuns: (tools) =>
      dbosAgentRuns({
        workflows: Object.fromEntries(Object.entries(tools).map(([tool, name]) => [tool, registered(name)])),
        client: ours,
      }),
    port: (name) => {
      const workflow = portWorkflows.get(name);
      if (!workflow) throw new Error(`No port workflow "${name}" was registered before DBOS launched.`);
      return {
        start: async (runId, scenario) => {
          await workflow.start(scenario, { runId });
        },
        result: (runId) => ours.retrieveWorkflow<string>(runId).getResult({ pollingIntervalMs: 50 }),
        signal: (runId, name, value) => sendSignal({ sender: ours, runId, name, value }),
        journaledSteps: async (runId) =>
          (await ours.listWorkflowSteps(runId))?.map((step) => step.name) ?? [],
      };
    },
    snippetEnvironment: { DBOS_SYSTEM_DATABASE_URL: systemDatabaseUrl },
    stop: async () => {
      try {
        await ours.destroy();
        await DBOS.shutdown();
      } finally {
        postgres.stop();
      }
    },
  };
}

/** DBOS, for the engine contract suite. */
export const dbosEngine: EngineAdapter = {
  name: "DBOS",
  names: { runs: "dbosAgentRuns", workflow: "dbosAgentWorkflow" },
  traits: {
    cancelEndsAtOnce: true,
    journalsBeforeGoingOn: true,
    listsWithoutWorker: true,
    signalsBeforeStart: false,
  },
  readme: { packageDir, file: "approve.ts", submitsRun: false, printsAnswer: false },
  missingRunMessage: (runId) => `DBOS has no run "${runId}": it was not started on this system database.`,
  // A model that is down fails the run: DBOS does not run a failed workflow again.
  brokenRun: {
    makeAgent: () =>
      new Agent({ provider: scriptedModel([{ error: new Error("the model is down") }]), model: "scripted" }),
    message: "The scripted stream failed: the model is down",
  },
  agentWorkflow: (name, makeAgent) => {
    workflows.set(name, dbosAgentWorkflow(name, makeAgent));
  },
  portWorkflow: (name, run) => {
    portWorkflows.set(name, dbosWorkflow(name, run));
  },
  // DBOS hands the run the Junction error the step threw.
  failedStepSeenAs: "code tool-execution-failed, metadata.code undefined",
  launch: launchDBOS,
  startForWorkers: startDBOSForWorkers,
};
