import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  freePort,
  readLines,
  startNode,
  waitFor,
  waitForPort,
  withTimeout,
} from "@junction/durable-engines/processes";
import { type RestateServer, startRestateServer } from "@junction/durable-engines/restate-server";
import * as clients from "@restatedev/restate-sdk-clients";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

const worker = fileURLToPath(new URL("./test-workers/two-step-worker.ts", import.meta.url));
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

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type TwoSteps = { run: (ctx: unknown, input: string) => Promise<string> };

/** A worker port and an events file of the test's own, and a worker starter that cleans up after itself. */
async function setUp() {
  testNumber += 1;
  const port = await freePort();
  const eventsFile = join(directory, `events-${testNumber}.log`);
  const startWorker = async () => {
    const process = startNode(worker, {
      PORT: String(port),
      EVENTS_FILE: eventsFile,
      RESTATE_LOGGING: "WARN",
    });
    cleanups.push(process.kill);
    await waitForPort(port, {
      timeoutMs: 10_000,
      what: () => `the worker to listen; its output:\n${process.output()}`,
    });
    return process;
  };
  const events = () => readLines(eventsFile);
  const reachWait = (times: number, process: { output(): string }) =>
    waitFor(() => events().filter((line) => line === "waiting for approval:1").length === times, {
      timeoutMs: 15_000,
      what: `the run to reach its wait (${times}); worker output:\n${process.output()}`,
    });
  const ingress = clients.connect({ url: server.ingressUrl });
  const run = (runId: string) => ingress.workflowClient<TwoSteps>({ name: "two-steps" }, runId);
  const sendApproval = async (runId: string) => {
    const process = startNode(sender, {
      INGRESS_URL: server.ingressUrl,
      RUN_ID: runId,
      SIGNAL_NAME: "approval:1",
      SIGNAL_VALUE: JSON.stringify({ approved: true, note: "looks right" }),
    });
    await process.exited();
  };
  const result = (runId: string, process: { output(): string }) =>
    withTimeout(run(runId).workflowAttach(), {
      timeoutMs: 15_000,
      what: () => `the run's result; worker output:\n${process.output()}`,
    });
  return { port, startWorker, events, reachWait, run, sendApproval, result };
}

const expectedEvents = [
  "step first ran",
  "waiting for approval:1",
  "waiting for approval:1",
  "step second ran",
];
const expectedResult = "input+first+second(approved: looks right)";

describe("restateWorkflow on the Restate server", () => {
  it("survives a SIGKILL of the worker between the first step and the signal, resumes within a second of the worker's return, and takes the signal from another process", async () => {
    const { port, startWorker, events, reachWait, run, sendApproval, result } = await setUp();
    const first = await startWorker();
    await server.register(`http://127.0.0.1:${port}`);
    await run("run-worker-killed").workflowSubmit("input");
    await reachWait(1, first);
    await first.kill();

    // Down long enough for Restate's default backoff (retries 0.5, 1.5, 3.5, 7.5 s after the crash)
    // to put the next retry 3 s away; promptRetryPolicy retries at most a second apart.
    await new Promise((resolve) => setTimeout(resolve, 4200));
    const second = await startWorker();
    const back = Date.now();
    await reachWait(2, second);
    expect(Date.now() - back).toBeLessThan(1500);
    await sendApproval("run-worker-killed");

    expect(await result("run-worker-killed", second)).toBe(expectedResult);
    expect(events()).toEqual(expectedEvents);
  });

  it("survives a crash of the Restate server too", async () => {
    const { port, startWorker, events, reachWait, run, sendApproval, result } = await setUp();
    const first = await startWorker();
    await server.register(`http://127.0.0.1:${port}`);
    await run("run-server-restarted").workflowSubmit("input");
    await reachWait(1, first);
    await first.kill();
    await server.restart();

    const second = await startWorker();
    await sendApproval("run-server-restarted");
    expect(await result("run-server-restarted", second)).toBe(expectedResult);
    expect(events()).toEqual(expectedEvents);
  });
});
