import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DBOSClient } from "@dbos-inc/dbos-sdk";
import { type Postgres, startPostgres } from "@junction/durable-engines/postgres";
import { readLines, startNode, waitFor, withTimeout } from "@junction/durable-engines/processes";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

const worker = fileURLToPath(new URL("./test-workers/two-step-worker.ts", import.meta.url));
const sender = fileURLToPath(new URL("./test-workers/send-signal.ts", import.meta.url));

let postgres: Postgres;
let directory: string;
let testNumber = 0;

beforeAll(async () => {
  postgres = await startPostgres();
  directory = mkdtempSync(join(tmpdir(), "junction-dbos-test-"));
});
afterAll(() => {
  postgres?.stop();
  rmSync(directory, { recursive: true, force: true });
});

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A database and an events file of the test's own, and a worker starter that cleans up after itself. */
function setUp() {
  testNumber += 1;
  const databaseUrl = postgres.url(`junction_dbos_${testNumber}`);
  const eventsFile = join(directory, `events-${testNumber}.log`);
  const startWorker = (env: Record<string, string> = {}) => {
    const process = startNode(worker, { DATABASE_URL: databaseUrl, EVENTS_FILE: eventsFile, ...env });
    cleanups.push(process.kill);
    return process;
  };
  const events = () => readLines(eventsFile);
  const reachWait = (times: number, process: { output(): string }) =>
    waitFor(() => events().filter((line) => line === "waiting for approval:1").length === times, {
      timeoutMs: 15_000,
      what: `the run to reach its wait (${times}); worker output:\n${process.output()}`,
    });
  const sendApproval = async (runId: string) => {
    const process = startNode(sender, {
      DATABASE_URL: databaseUrl,
      RUN_ID: runId,
      SIGNAL_NAME: "approval:1",
      SIGNAL_VALUE: JSON.stringify({ approved: true, note: "looks right" }),
    });
    await process.exited();
  };
  const result = async (runId: string, process: { output(): string }) => {
    const client = await DBOSClient.create({ systemDatabaseUrl: databaseUrl });
    try {
      return await withTimeout(client.retrieveWorkflow<string>(runId).getResult({ pollingIntervalMs: 50 }), {
        timeoutMs: 15_000,
        what: () => `the run's result; worker output:\n${process.output()}`,
      });
    } finally {
      await client.destroy();
    }
  };
  return { startWorker, events, reachWait, sendApproval, result };
}

const expectedEvents = [
  "step first ran",
  "waiting for approval:1",
  "waiting for approval:1",
  "step second ran",
];
const expectedResult = "input+first+second(approved: looks right)";

describe("dbosWorkflow on PostgreSQL", () => {
  it("survives a SIGKILL of the worker between the first step and the signal, and takes the signal from another process", async () => {
    const { startWorker, events, reachWait, sendApproval, result } = setUp();
    const first = startWorker({ START_RUN_ID: "run-worker-killed" });
    await reachWait(1, first);
    await first.kill();

    const second = startWorker();
    await reachWait(2, second);
    await sendApproval("run-worker-killed");

    expect(await result("run-worker-killed", second)).toBe(expectedResult);
    expect(events()).toEqual(expectedEvents);
  });

  it("survives a crash of PostgreSQL too, with the signal sent while no worker runs", async () => {
    const { startWorker, events, reachWait, sendApproval, result } = setUp();
    const first = startWorker({ START_RUN_ID: "run-engine-restarted" });
    await reachWait(1, first);
    await first.kill();
    postgres.restart();
    await sendApproval("run-engine-restarted");

    const second = startWorker();
    expect(await result("run-engine-restarted", second)).toBe(expectedResult);
    await reachWait(2, second);
    expect(events()).toEqual(expectedEvents);
  });
});
