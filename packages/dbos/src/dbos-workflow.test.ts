import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DBOSClient } from "@dbos-inc/dbos-sdk";
import {
  countLines,
  eventsOf,
  expectedCountsAfterCrashInStep,
  expectedEventsAfterOneCrash,
  expectedResult,
  sendApprovalFrom,
} from "@junction/durable-engines/crash-scenarios";
import { type Postgres, startPostgres } from "@junction/durable-engines/postgres";
import { type NodeProcess, startNode, withTimeout } from "@junction/durable-engines/processes";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

// The crash scenarios, with the worker and the signal sender in processes of their own. The
// durable function is the same one the Restate tests run (tooling/durable-engines).

const worker = fileURLToPath(new URL("./test-workers/worker.ts", import.meta.url));
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

const workers: NodeProcess[] = [];
afterEach(async () => {
  for (const running of workers.splice(0)) await running.kill();
});

/** A database and an events file of the test's own. */
function setUp() {
  testNumber += 1;
  const databaseUrl = postgres.url(`junction_dbos_${testNumber}`);
  const eventsFile = join(directory, `events-${testNumber}.log`);
  const startWorker = (env: Record<string, string> = {}) => {
    const running = startNode(worker, { DATABASE_URL: databaseUrl, EVENTS_FILE: eventsFile, ...env });
    workers.push(running);
    return running;
  };
  const sendApproval = (runId: string) =>
    sendApprovalFrom(sender, { DATABASE_URL: databaseUrl, RUN_ID: runId });
  const result = async (runId: string, running: NodeProcess) => {
    const client = await DBOSClient.create({ systemDatabaseUrl: databaseUrl });
    try {
      return await withTimeout(client.retrieveWorkflow<string>(runId).getResult({ pollingIntervalMs: 50 }), {
        timeoutMs: 15_000,
        what: () => `the run's result; worker output:\n${running.output()}`,
      });
    } finally {
      await client.destroy();
    }
  };
  return { ...eventsOf(eventsFile), startWorker, sendApproval, result };
}

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
    expect(events()).toEqual(expectedEventsAfterOneCrash);
  });

  it("runs a step again when the worker dies while it runs (at-least-once), but not the parallel step already journaled", async () => {
    const { startWorker, events, reachSlowStep, result } = setUp();
    const first = startWorker({
      START_WORKFLOW: "parallel-steps",
      START_RUN_ID: "run-killed-in-step",
      SLOW_MS: "60000",
    });
    await reachSlowStep(first);
    await first.kill();

    const second = startWorker({ SLOW_MS: "10" });
    expect(await result("run-killed-in-step", second)).toBe("input+quick+slow");
    expect(countLines(events())).toEqual(expectedCountsAfterCrashInStep);
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
    expect(events()).toEqual(expectedEventsAfterOneCrash);
  });
});
