import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  countLines,
  eventsOf,
  expectedCountsAfterCrashInStep,
  expectedEventsAfterOneCrash,
  expectedResult,
  sendApprovalFrom,
} from "@junction/durable-engines/crash-scenarios";
import {
  freePort,
  type NodeProcess,
  startNode,
  waitForPort,
  withTimeout,
} from "@junction/durable-engines/processes";
import { type RestateServer, startRestateServer } from "@junction/durable-engines/restate-server";
import * as clients from "@restatedev/restate-sdk-clients";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

// The crash scenarios, with the worker and the signal sender in processes of their own. The
// durable function is the same one the DBOS tests run (tooling/durable-engines).

const worker = fileURLToPath(new URL("./test-workers/worker.ts", import.meta.url));
const sender = fileURLToPath(new URL("./test-workers/send-signal.ts", import.meta.url));

let server: RestateServer;
let directory: string;
let testNumber = 0;

beforeAll(async () => {
  server = await startRestateServer();
  directory = mkdtempSync(join(tmpdir(), "junction-restate-test-"));
});
afterAll(async () => {
  await server?.stop();
  rmSync(directory, { recursive: true, force: true });
});

const workers: NodeProcess[] = [];
afterEach(async () => {
  for (const running of workers.splice(0)) await running.kill();
});

type Workflow = { run: (ctx: unknown, input: string) => Promise<string> };

/** A worker port and an events file of the test's own; the worker is registered on its first start. */
async function setUp() {
  testNumber += 1;
  const port = await freePort();
  const eventsFile = join(directory, `events-${testNumber}.log`);
  let registered = false;
  const startWorker = async (env: Record<string, string> = {}) => {
    const running = startNode(worker, {
      PORT: String(port),
      EVENTS_FILE: eventsFile,
      RESTATE_LOGGING: "WARN",
      ...env,
    });
    workers.push(running);
    await waitForPort(port, {
      timeoutMs: 10_000,
      what: () => `the worker to listen; its output:\n${running.output()}`,
    });
    if (!registered) await server.register(`http://127.0.0.1:${port}`);
    registered = true;
    return running;
  };
  const ingress = clients.connect({ url: server.ingressUrl });
  const run = (runId: string, workflow = "two-steps") =>
    ingress.workflowClient<Workflow>({ name: workflow }, runId);
  const sendApproval = (runId: string) =>
    sendApprovalFrom(sender, { INGRESS_URL: server.ingressUrl, RUN_ID: runId });
  const result = (runId: string, running: NodeProcess, workflow?: string) =>
    withTimeout(run(runId, workflow).workflowAttach(), {
      timeoutMs: 15_000,
      what: () => `the run's result; worker output:\n${running.output()}`,
    });
  return { ...eventsOf(eventsFile), startWorker, run, sendApproval, result };
}

describe("restateWorkflow on the Restate server", () => {
  it("survives a SIGKILL of the worker between the first step and the signal, resumes under 2 s after the worker's return, and takes the signal from another process", async () => {
    const { startWorker, events, reachWait, run, sendApproval, result } = await setUp();
    const first = await startWorker();
    await run("run-worker-killed").workflowSubmit("input");
    await reachWait(1, first);
    await first.kill();

    // Down for 4.5 s: with Restate's default backoff (500 ms, doubling) the next retry was then
    // 3.5 to 4.4 s away in our runs; with promptRetryPolicy (at most 1 s apart) 0.45 to 0.6 s.
    await new Promise((resolve) => setTimeout(resolve, 4500));
    const second = await startWorker();
    const back = Date.now();
    await reachWait(2, second);
    expect(Date.now() - back).toBeLessThan(2000);
    await sendApproval("run-worker-killed");

    expect(await result("run-worker-killed", second)).toBe(expectedResult);
    expect(events()).toEqual(expectedEventsAfterOneCrash);
  });

  it("runs a step again when the worker dies while it runs (at-least-once), but not the parallel step already journaled", async () => {
    const { startWorker, events, reachSlowStep, run, result } = await setUp();
    const first = await startWorker({ SLOW_MS: "60000" });
    await run("run-killed-in-step", "parallel-steps").workflowSubmit("input");
    await reachSlowStep(first);
    await first.kill();

    const second = await startWorker({ SLOW_MS: "10" });
    expect(await result("run-killed-in-step", second, "parallel-steps")).toBe("input+quick+slow");
    expect(countLines(events())).toEqual(expectedCountsAfterCrashInStep);
  });

  it("survives a crash of the Restate server too, with the signal sent while no worker runs", async () => {
    const { startWorker, events, reachWait, run, sendApproval, result } = await setUp();
    const first = await startWorker();
    await run("run-server-restarted").workflowSubmit("input");
    await reachWait(1, first);
    await first.kill();
    await server.restart();
    await sendApproval("run-server-restarted");

    const second = await startWorker();
    expect(await result("run-server-restarted", second)).toBe(expectedResult);
    expect(events()).toEqual(expectedEventsAfterOneCrash);
  });
});
