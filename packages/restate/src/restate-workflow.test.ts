import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  eventsOf,
  expectedEventsAfterOneCrash,
  expectedResult,
} from "@junction/durable-engines/crash-scenarios";
import { waitFor } from "@junction/durable-engines/processes";
import { type RunInvocation, runInvocation } from "@junction/durable-engines/restate-journal";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RestateForWorkers, startRestateForWorkers } from "../test/restate-engine.js";

// What only restateWorkflow does to a run's retries (the crash scenarios themselves are the
// engine contract's, in test/): Restate's default backoff (500 ms, doubling) leaves a run idle
// for up to a minute after its worker comes back; `promptRetryPolicy` retries at most a second
// apart. Read from the Restate server itself (the policy it registered, the retries it
// scheduled), not from the time the test waited.

let engine: RestateForWorkers | undefined;
let directory: string | undefined;
beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), "junction-restate-retries-"));
  engine = await startRestateForWorkers();
});
afterAll(async () => {
  await engine?.stop();
  if (directory) rmSync(directory, { recursive: true, force: true });
});

describe("restateWorkflow's retries", () => {
  it("registers promptRetryPolicy, retries a run whose worker died at most about a second apart, and resumes it on the worker that comes back", async () => {
    const started = engine!;
    const eventsFile = join(directory!, "events.log");
    const { events, reachWait } = eventsOf(eventsFile);
    const workers = await started.stepsWorkers(eventsFile);
    try {
      const first = await workers.start({ run: { workflow: "two-steps", runId: "run-retried" } });
      await reachWait(1, first);

      // What the server will do: the policy as it registered it.
      const service = (await (await fetch(`${started.server.adminUrl}/services/two-steps`)).json()) as {
        retry_policy?: unknown;
      };
      expect(service.retry_policy).toEqual({
        initial_interval: "100ms",
        exponentiation_factor: 2,
        max_attempts: 86_400,
        max_interval: "1s",
        on_max_attempts: "Pause",
      });

      await first.kill();
      // What it does with the worker down: retries, five of them (Restate's default would be
      // 8 s apart by then), the next one scheduled about a second after the last began.
      let backingOff: RunInvocation | undefined;
      await waitFor(
        async () => {
          const now = await runInvocation(started.server, { workflow: "two-steps", runId: "run-retried" });
          if (now?.status === "backing-off" && (now.retry_count ?? 0) >= 5) backingOff = now;
          return backingOff !== undefined;
        },
        { timeoutMs: 30_000, what: "the server to retry the run five times" },
      );
      const gap = Date.parse(backingOff!.next_retry_at!) - Date.parse(backingOff!.last_start_at!);
      // max_interval (1 s), the server's jitter and the failed attempt itself; never 8 s.
      expect(gap).toBeLessThan(4_000);

      const second = await workers.start();
      await reachWait(2, second);
      await workers.sendApproval("run-retried");
      expect(await workers.result("run-retried", second)).toBe(expectedResult);
      expect(events()).toEqual(expectedEventsAfterOneCrash);
    } finally {
      await workers.close();
    }
  });
});
