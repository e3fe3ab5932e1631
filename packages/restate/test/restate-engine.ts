// Restate as the engine contract suite (tooling/durable-engines) runs it: this package's API
// driven as an application drives it, the Restate server from npm, and the worker processes of
// ./workers behind one deployment URL (an HTTP/2 balancer the test holds, so a worker started
// again on a port of its own is the same deployment). The Restate-only tests use its workers
// too. Never shipped (not in `src/`).
import { createServer, type Http2Server, type ServerHttp2Session } from "node:http2";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import type { AgentResult, PendingToolCall } from "@junction/core";
import type { AgentRunRequest } from "@junction/core/durable-runs";
import { approveFrom, notesRun, resultFrom } from "@junction/durable-engines/agent-scenario";
import { sendApprovalFrom } from "@junction/durable-engines/crash-scenarios";
import type {
  ApprovalsClient,
  EngineAdapter,
  EngineForWorkers,
  LaunchedEngine,
  NotesWorkers,
  StepsWorkers,
} from "@junction/durable-engines/engine-contract";
import { type Http2Balancer, startHttp2Balancer } from "@junction/durable-engines/http2-balancer";
import { listeningPort, type NodeProcess, startNode, withTimeout } from "@junction/durable-engines/processes";
import { journaledSteps } from "@junction/durable-engines/restate-journal";
import { type RestateServer, startRestateServer } from "@junction/durable-engines/restate-server";
import * as restate from "@restatedev/restate-sdk";
import * as clients from "@restatedev/restate-sdk-clients";
import {
  answerApproval,
  approvalStatus,
  pendingApprovals,
  restateAgentRuns,
  restateAgentWorkflow,
  restateWorkflow,
  sendSignal,
  waitForApprovals,
} from "../src/index.js";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const worker = (name: string) => fileURLToPath(new URL(`./workers/${name}.ts`, import.meta.url));

type AnyWorkflow = { run: (ctx: unknown, input: unknown) => Promise<unknown> };
type AgentWorkflow = { run: (ctx: unknown, request: AgentRunRequest) => Promise<AgentResult> };
type PortWorkflow = { run: (ctx: unknown, scenario: string) => Promise<string> };

/** The agent workflows registered in this process, served by the endpoint `launch` starts. */
const services: Parameters<typeof restate.createEndpointHandler>[0]["services"] = [];

/** The package's approval API for the runs of `workflow`, through `ingress`. */
function approvalsThrough(ingress: clients.Ingress, workflow: string): ApprovalsClient {
  return {
    pendingApprovals: (runId) => pendingApprovals({ ingress, workflow, runId }),
    approvalStatus: (runId) => approvalStatus({ ingress, workflow, runId }),
    waitForApprovals: (runId, { timeoutMs, signal }) =>
      waitForApprovals({ ingress, workflow, runId, timeoutMs, ...(signal ? { signal } : {}) }),
    answerApproval: ({ runId, item, decision, idempotencyKey }) =>
      answerApproval({
        ingress,
        workflow,
        runId,
        item,
        decision,
        ...(idempotencyKey !== undefined ? { idempotencyKey } : {}),
      }),
    // Resolved by a worker before it returns: then the run reads it.
    sendSignal: (runId, name, value) =>
      sendSignal({ ingress, workflow, runId, name, value, until: "resolved" }),
    close: async () => {},
  };
}

/**
 * An endpoint in this process serving `services`, on a port the kernel picks and holds for as
 * long as it runs. `down()` makes it a worker that is down without giving its port back (every
 * connection is dropped at once), `up()` serves again; `close` ends the sessions the Restate server
 * keeps open too.
 */
export async function serveEndpoint(
  services: Parameters<typeof restate.createEndpointHandler>[0]["services"],
) {
  const sessions = new Set<ServerHttp2Session>();
  let down = false;
  const server: Http2Server = createServer(restate.createEndpointHandler({ services }));
  server.on("session", (session) => {
    if (down) {
      session.destroy();
      return;
    }
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const dropSessions = () => {
    for (const session of sessions) session.destroy();
    sessions.clear();
  };
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    down: () => {
      down = true;
      dropSessions();
    },
    up: () => {
      down = false;
    },
    close: async () => {
      dropSessions();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Restate launched for the workflows registered in this process, with what the Restate-only tests reach. */
export interface RestateLaunched extends LaunchedEngine {
  readonly server: RestateServer;
  readonly ingress: clients.Ingress;
}

/** Restate running the workflows registered in this process (`restateEngine.agentWorkflow`), served from this process. */
export async function launchRestate(): Promise<RestateLaunched> {
  const server = await startRestateServer();
  let endpoint: Awaited<ReturnType<typeof serveEndpoint>> | undefined;
  try {
    endpoint = await serveEndpoint(services);
    await server.register(endpoint.url);
  } catch (error) {
    await endpoint?.close();
    await server.stop();
    throw error;
  }
  const served = endpoint;
  const ingress = clients.connect({ url: server.ingressUrl });
  const run = (workflow: string, runId: string) =>
    ingress.workflowClient<AgentWorkflow>({ name: workflow }, runId);
  return {
    server,
    ingress,
    submit: async (workflow, runId, request) => {
      await run(workflow, runId).workflowSubmit(request);
    },
    result: (workflow, runId) => run(workflow, runId).workflowAttach(),
    approvals: (workflow) => approvalsThrough(ingress, workflow),
    port: (workflow) => {
      const portRun = (runId: string) => ingress.workflowClient<PortWorkflow>({ name: workflow }, runId);
      return {
        start: async (runId, scenario) => {
          await portRun(runId).workflowSubmit(scenario);
        },
        result: (runId) => portRun(runId).workflowAttach(),
        signal: (runId, name, value) => sendSignal({ ingress, workflow, runId, name, value }),
        journaledSteps: (runId) => journaledSteps(server, { workflow, runId }),
      };
    },
    separateApprovals: async (workflow, count) =>
      Array.from({ length: count }, () =>
        approvalsThrough(clients.connect({ url: server.ingressUrl }), workflow),
      ),
    agentRuns: (tools) =>
      restateAgentRuns({
        workflows: Object.fromEntries(Object.entries(tools).map(([tool, name]) => [tool, { name }])),
        ingress,
      }),
    snippetEnvironment: { RESTATE_INGRESS_URL: server.ingressUrl },
    stop: async () => {
      try {
        await server.stop();
      } finally {
        await served.close();
      }
    },
  };
}

/**
 * Worker processes of `script` behind one balancer, registered as one deployment once the first
 * is up: each listens on a port the kernel gave it, and leaves the balancer when it exits.
 */
function deployment(parts: {
  server: RestateServer;
  script: string;
  balancer: Http2Balancer;
  /** Kills the process when the test is cleaned up (called as soon as it starts). */
  track: (started: NodeProcess) => NodeProcess;
}) {
  const { server, script, balancer, track } = parts;
  const upstreams = new Map<NodeProcess, string>();
  let registered = false;
  return {
    upstreams,
    start: async (env: Record<string, string>): Promise<NodeProcess> => {
      const started = track(startNode(script, { RESTATE_LOGGING: "WARN", ...env }));
      const port = await listeningPort(started, { timeoutMs: 15_000, what: "the worker" });
      upstreams.set(started, `http://127.0.0.1:${port}`);
      balancer.setUpstreams([...upstreams.values()]);
      started.child.once("exit", () => {
        upstreams.delete(started);
        balancer.setUpstreams([...upstreams.values()]);
      });
      if (!registered) await server.register(balancer.url);
      registered = true;
      return started;
    },
  };
}

/** The notes Agent's workers of one test, with what the Restate-only tests read: the balancer and each worker's upstream. */
export interface RestateNotesWorkers extends NotesWorkers {
  readonly balancer: Http2Balancer;
  /** The URL the balancer reaches `worker` at. */
  upstreamOf(worker: NodeProcess): string | undefined;
}

/** Restate for workers in processes of their own, with its server for the Restate-only tests. */
export interface RestateForWorkers extends EngineForWorkers {
  readonly server: RestateServer;
  notesWorkers(run: Parameters<EngineForWorkers["notesWorkers"]>[0]): Promise<RestateNotesWorkers>;
  stepsWorkers(eventsFile: string): Promise<StepsWorkers>;
}

/** Starts a Restate server for worker processes; each test's workers are a deployment of their own. */
export async function startRestateForWorkers(): Promise<RestateForWorkers> {
  const server = await startRestateServer();
  const ingress = clients.connect({ url: server.ingressUrl });
  const run = (workflow: string, runId: string) =>
    ingress.workflowClient<AnyWorkflow>({ name: workflow }, runId);
  const attach = <T>(
    { workflow, runId }: { workflow: string; runId: string },
    worker: NodeProcess,
    timeoutMs: number,
  ) =>
    withTimeout(run(workflow, runId).workflowAttach() as Promise<T>, {
      timeoutMs,
      what: () => `the result of ${runId}; worker output:\n${worker.output()}`,
    });
  return {
    server,
    notesWorkers: async (notes) => {
      const balancer = await startHttp2Balancer();
      const workers = deployment({ server, script: worker("agent-worker"), balancer, track: notes.track });
      // Each submitted run's invocation, for a cancel through the admin API.
      const invocations = new Map<string, string>();
      return {
        balancer,
        upstreamOf: (started) => workers.upstreams.get(started),
        start: async (options = {}) => {
          const started = await workers.start({ ...notes.environment, ...options.env });
          for (const runId of options.runs ?? []) {
            const submitted = await run("notes", runId).workflowSubmit({ input: notesRun.input });
            invocations.set(runId, submitted.invocationId);
          }
          if (options.failingModelRun)
            await run("failing-model", options.failingModelRun).workflowSubmit(null);
          return started;
        },
        result: (runId, started, workflow = "notes") => attach({ workflow, runId }, started, 20_000),
        pendingApprovals: (runId) => pendingApprovals({ ingress, workflow: "notes", runId }),
        fromApprover: (action, runIds, edited = {}) =>
          resultFrom(worker("approvals"), {
            INGRESS_URL: server.ingressUrl,
            ACTION: action,
            RUN_IDS: runIds.join(","),
            EDITED: JSON.stringify(edited),
          }),
        approveFrom: (runId, item: PendingToolCall) =>
          approveFrom(worker("send-signal"), {
            env: { INGRESS_URL: server.ingressUrl, WORKFLOW: "notes", RUN_ID: runId },
            signal: `approval:${item.step}:${item.id}`,
            item,
          }),
        cancel: async (runId) => {
          const invocation = invocations.get(runId);
          if (invocation === undefined) throw new Error(`No run ${runId} was submitted by these workers.`);
          const cancelled = await fetch(`${server.adminUrl}/invocations/${invocation}/cancel`, {
            method: "PATCH",
          });
          if (!cancelled.ok)
            throw new Error(`Cancelling ${runId}: ${cancelled.status} ${await cancelled.text()}`);
        },
        journaledSteps: (runId, workflow = "notes") => journaledSteps(server, { workflow, runId }),
        close: () => balancer.stop(),
      };
    },
    stepsWorkers: async (eventsFile) => {
      const balancer = await startHttp2Balancer();
      const running: NodeProcess[] = [];
      const track = (started: NodeProcess) => {
        running.push(started);
        return started;
      };
      const workers = deployment({ server, script: worker("worker"), balancer, track });
      return {
        start: async (options = {}) => {
          const started = await workers.start({ EVENTS_FILE: eventsFile, ...options.env });
          if (options.run) await run(options.run.workflow, options.run.runId).workflowSubmit("input");
          return started;
        },
        sendApproval: (runId) =>
          sendApprovalFrom(worker("send-signal"), { INGRESS_URL: server.ingressUrl, RUN_ID: runId }),
        result: (runId, started, workflow = "two-steps") =>
          attach<string>({ workflow, runId }, started, 15_000),
        close: async () => {
          for (const started of running.splice(0)) await started.kill();
          await balancer.stop();
        },
      };
    },
    restartEngine: () => server.restart(),
    stop: () => server.stop(),
  };
}

/** Restate, for the engine contract suite. */
export const restateEngine: EngineAdapter = {
  name: "Restate",
  names: { runs: "restateAgentRuns", workflow: "restateAgentWorkflow" },
  traits: {
    cancelEndsAtOnce: false,
    journalsBeforeGoingOn: false,
    listsWithoutWorker: false,
    signalsBeforeStart: true,
  },
  readme: { packageDir, file: "ask.ts", submitsRun: true, printsAnswer: true },
  missingRunMessage: (runId) =>
    `Restate has no run "${runId}": it was not started on this Restate server, or it ended longer ago than the workflow's retention.`,
  // A terminal error: Restate retries a run that fails otherwise (`promptRetryPolicy`).
  brokenRun: {
    makeAgent: () => {
      throw new restate.TerminalError("The keeper is away.");
    },
    message: "The keeper is away.",
  },
  agentWorkflow: (name, makeAgent) => {
    services.push(restateAgentWorkflow(name, makeAgent));
  },
  portWorkflow: (name, run) => {
    services.push(restateWorkflow(name, run));
  },
  // A step's error reaches the run as a terminal error (code 500), the Junction code in its metadata.
  failedStepSeenAs: "code 500, metadata.code tool-execution-failed",
  launch: launchRestate,
  startForWorkers: startRestateForWorkers,
};
