// The durable functions of the crash tests, written once against the durability port and run
// on every engine: two steps with a signal wait between them, and two steps in parallel. Each
// step's body appends a line to an events file, as does each arrival at the wait, so a test
// counts what ran (in its own process, across the worker's crashes). Never imported by shipped
// code.
import { appendFileSync } from "node:fs";
import type { Durability } from "@junction/core";
import { type NodeProcess, readLines, startNode, waitFor } from "@junction/durable-engines/processes";

/** The signal the function waits for, and the value the tests send. */
export const approval = { name: "approval:1", value: { approved: true, note: "looks right" } } as const;

/** What the events file holds after one crash between the steps and one recovery. */
export const expectedEventsAfterOneCrash = [
  "step first ran",
  `waiting for ${approval.name}`,
  `waiting for ${approval.name}`,
  "step second ran",
];

/** The function's result for the input "input" and the tests' approval. */
export const expectedResult = "input+first+second(approved: looks right)";

/** The function, recording to `eventsFile`. */
export function twoSteps(eventsFile: string) {
  const record = (line: string) => appendFileSync(eventsFile, `${line}\n`);
  return async (durability: Durability, input: string): Promise<string> => {
    const first = await durability.step("first", async () => {
      record("step first ran");
      return `${input}+first`;
    });
    record(`waiting for ${approval.name}`);
    const decision = await durability.waitForSignal<{ approved: boolean; note: string }>(approval.name);
    return durability.step("second", async () => {
      record("step second ran");
      return `${first}+second(${decision?.approved ? "approved" : "denied"}: ${decision?.note})`;
    });
  };
}

/**
 * The crash-in-a-step function: two steps in parallel, as a model step's tool calls run. The
 * slow one takes `slowMilliseconds` (long in the worker that is killed, short in the one that
 * recovers), so the test can kill the worker after the quick step is journaled and while the
 * slow one runs.
 */
export function parallelSteps(eventsFile: string, slowMilliseconds: number) {
  const record = (line: string) => appendFileSync(eventsFile, `${line}\n`);
  return async (durability: Durability, input: string): Promise<string> => {
    const quick = durability.step("tool:1:quick", async () => {
      record("quick ran");
      return `${input}+quick`;
    });
    // Runs once the step's result is journaled (DBOS: written; Restate: acknowledged).
    void quick.then(() => record("quick journaled"));
    const slow = durability.step("tool:1:slow", async () => {
      record("slow started");
      await new Promise((resolve) => setTimeout(resolve, slowMilliseconds));
      record("slow finished");
      return "slow";
    });
    return (await Promise.all([quick, slow])).join("+");
  };
}

/** How often each line is in the events file after a crash while the slow step ran, and a recovery. */
export const expectedCountsAfterCrashInStep = {
  "quick ran": 1,
  "quick journaled": 2,
  "slow started": 2,
  "slow finished": 1,
};

/** How many times each line is in the events file. */
export function countLines(lines: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const line of lines) counts[line] = (counts[line] ?? 0) + 1;
  return counts;
}

/** The events file's lines, and waits until a run reached its signal wait `times` times or its slow step. */
export function eventsOf(eventsFile: string) {
  const events = () => readLines(eventsFile);
  const reachWait = (times: number, worker: Pick<NodeProcess, "output">) =>
    waitFor(() => events().filter((line) => line === `waiting for ${approval.name}`).length === times, {
      timeoutMs: 15_000,
      what: `the run to reach its wait (${times}); worker output:\n${worker.output()}`,
    });
  const reachSlowStep = (worker: Pick<NodeProcess, "output">) =>
    waitFor(() => events().includes("quick journaled") && events().includes("slow started"), {
      timeoutMs: 15_000,
      what: `the quick step journaled and the slow one started; worker output:\n${worker.output()}`,
    });
  return { events, reachWait, reachSlowStep };
}

/** Runs a signal-sending script in a process of its own with the tests' approval, until it exits. */
export async function sendApprovalFrom(script: string, env: Record<string, string>): Promise<void> {
  await startNode(script, {
    ...env,
    SIGNAL_NAME: approval.name,
    SIGNAL_VALUE: JSON.stringify(approval.value),
  }).exited();
}
