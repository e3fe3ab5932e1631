// The test half of the Agent crash tests and the resume benchmark: the model (a wire fake in
// the test's process), the worker's environment, and what the workers recorded. The worker half
// is agent-worker.ts. Never imported by shipped code.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentResult, PendingToolCall, Resume } from "@junction/core";
import { programResult } from "@junction/core/testing";
import {
  ASKED,
  FAILED,
  HOLDING,
  NOTIFIED,
  notesAgent,
  notesRun,
  providerLedgerModel,
  READY,
  RESULT,
} from "@junction/durable-engines/agent-worker";
import { type NodeProcess, readLines, startNode, waitFor } from "@junction/durable-engines/processes";
import { MCPPool } from "@junction/mcp-client";
import { startWireFake, type WireFake } from "@junction/wire-fake";
import {
  type AnthropicProgramLoop,
  startAnthropicProgramLoop,
} from "@junction/wire-fake/anthropic-program-loop";
import { startChatCompletionsToolLoop } from "@junction/wire-fake/chat-completions-tool-loop";

export { notesRun };

/**
 * The model: one step asking for `save_note`, then (once the conversation holds its result) a
 * text answer built from it. Each request is recorded in `requests`: one per model step.
 */
export function startNotesModel(): Promise<WireFake> {
  return startChatCompletionsToolLoop({
    toolName: "save_note",
    toolSteps: 1,
    toolArguments: () => ({ text: notesRun.note }),
    finalText: (results) => `Noted: ${results.join("; ")}`,
  });
}

/** What the rate-limited model answers: HTTP 429 with this request id and message. */
export const rateLimited = { requestId: "req_rate_limited_1", message: "Rate limit reached for requests." };

/**
 * The run's error as `describeRunError` gives it, in the worker whose model step failed and in
 * the worker that replayed it: a `ProviderError` with the 429's status and request id.
 */
export const rateLimitedRunError = {
  providerError: true,
  junctionError: true,
  name: "ProviderError",
  message: `The chatcompletions API answered 429 ${rateLimited.message}`,
  code: "provider-api-error",
  provider: "chatcompletions",
  status: 429,
  retryable: true,
  requestId: rateLimited.requestId,
};

/** A model that answers every request with HTTP 429 (retryable) and a request id, as a vendor does. */
export function startRateLimitedModel(): Promise<WireFake> {
  return startWireFake({
    fallback: () => ({
      status: 429,
      headers: { "x-request-id": rateLimited.requestId },
      json: { error: { message: rateLimited.message, type: "requests", code: "rate_limit_exceeded" } },
    }),
  });
}

/** The run errors the workers recorded (`failedModelRunFromEnvironment`), described, in order. */
export function runFailures(eventsFile: string): Record<string, unknown>[] {
  return readLines(eventsFile)
    .filter((line) => line.startsWith(FAILED))
    .map((line) => JSON.parse(line.slice(FAILED.length)) as Record<string, unknown>);
}

/** The test side: the questions the workers surfaced, the calls the MCP server saw, and waits on them. */
export function notesEventsOf(files: { eventsFile: string; callsFile: string }) {
  const questions = () =>
    readLines(files.eventsFile)
      .filter((line) => line.startsWith(ASKED))
      .map((line) => line.slice(ASKED.length));
  /** The notifications the workers' `onApprovalRequested` sent: `<runId> <step>:<callId>`, in order. */
  const notifications = () =>
    readLines(files.eventsFile)
      .filter((line) => line.startsWith(NOTIFIED))
      .map((line) => line.slice(NOTIFIED.length));
  const calls = () =>
    readLines(files.callsFile).map((line) => JSON.parse(line) as { text: string; key: string | null });
  /** Waits until the run has asked `times` times (once per worker that reached the wait); the signal's name. */
  const reachApproval = async (times: number, worker: Pick<NodeProcess, "output">): Promise<string> => {
    // A bound on a hang, not a timing claim: a worker's first run (its engine, MCP server and
    // model to reach) takes past 15 s on a loaded 2-core machine.
    await waitFor(() => questions().length >= times, {
      timeoutMs: 30_000,
      what: `the run to ask for approval (${times}); worker output:\n${worker.output()}`,
    });
    return questions()[times - 1]!;
  };
  /** Waits until the worker `name` says it is up. */
  const reachReady = (name: string, worker: Pick<NodeProcess, "output">) =>
    waitFor(() => readLines(files.eventsFile).includes(`${READY}${name}`), {
      timeoutMs: 20_000,
      what: `the worker ${name} to be up; its output:\n${worker.output()}`,
    });
  return { questions, notifications, calls, reachApproval, reachReady };
}

/** The environment of a worker process: the model's URL and the test's files. */
export function notesWorkerEnvironment(options: {
  model: WireFake;
  callsFile: string;
  eventsFile: string;
}): Record<string, string> {
  return { MODEL_URL: options.model.url, CALLS_FILE: options.callsFile, EVENTS_FILE: options.eventsFile };
}

/** How many tool results each model request carried: one request per model step. */
export function toolResultsPerRequest(model: WireFake): number[] {
  return model.requests.map(
    (request) =>
      (request.body.messages as { role: string }[]).filter((message) => message.role === "tool").length,
  );
}

/** What one crash-and-resume run has of its own: a model, files, and the worker's environment. */
export interface NotesRun {
  readonly model: WireFake;
  readonly files: { eventsFile: string; callsFile: string };
  /** MODEL_URL, CALLS_FILE, EVENTS_FILE for the worker processes. */
  readonly environment: Record<string, string>;
  /** The worker's questions, the server's calls, and the wait for a question. */
  readonly events: ReturnType<typeof notesEventsOf>;
  /** Kills `worker` when the run is cleaned up. */
  track(worker: NodeProcess): NodeProcess;
}

/**
 * A scratch directory for a series of runs: `next()` starts a run's model and names its files,
 * `cleanUp()` kills its workers and stops its model (after each test), `remove()` deletes the
 * directory (after all of them).
 */
export function notesRuns(prefix: string) {
  const directory = mkdtempSync(join(tmpdir(), prefix));
  const cleanups: Array<() => Promise<void>> = [];
  let count = 0;
  return {
    /** The next run's model is the notes model unless `startModel` makes another. */
    next: async (startModel: () => Promise<WireFake> = startNotesModel): Promise<NotesRun> => {
      count += 1;
      const files = {
        eventsFile: join(directory, `events-${count}.log`),
        callsFile: join(directory, `calls-${count}.log`),
      };
      const model = await startModel();
      cleanups.push(() => model.close());
      return {
        model,
        files,
        environment: notesWorkerEnvironment({ model, ...files }),
        events: notesEventsOf(files),
        track: (worker) => {
          cleanups.push(() => worker.kill());
          return worker;
        },
      };
    },
    cleanUp: async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    },
    remove: () => rmSync(directory, { recursive: true, force: true }),
  };
}

/** Approves the call: runs the package's signal-sending script in a process of its own, until it exits (with `item`, as answerApproval answers it; without, a bare signal). */
export function approveFrom(
  script: string,
  options: { env: Record<string, string>; signal: string; item?: PendingToolCall },
) {
  return startNode(script, {
    ...options.env,
    SIGNAL_NAME: options.signal,
    SIGNAL_VALUE: JSON.stringify({ approved: true }),
    // The call as listed: the script answers it with answerApproval, bound to its digests.
    ...(options.item ? { ITEM: JSON.stringify(options.item) } : {}),
  }).exited();
}

/** Runs a helper script in a process of its own until it exits; the JSON it printed after {@link RESULT}. */
export async function resultFrom<T>(script: string, env: Record<string, string>): Promise<T> {
  const running = startNode(script, env);
  await running.exited();
  const line = running
    .output()
    .split("\n")
    .findLast((candidate) => candidate.startsWith(RESULT));
  if (line === undefined) throw new Error(`${script} printed no result:\n${running.output()}`);
  return JSON.parse(line.slice(RESULT.length)) as T;
}

/**
 * Resumes a stopped notes run in this process, in memory, with the Agent a worker makes (its own
 * connection to the notes server, closed after): what an app does with a stopped run's `state`.
 */
export async function resumeNotesRun(
  run: Pick<NotesRun, "model" | "files">,
  resume: Resume,
): Promise<AgentResult> {
  const pool = new MCPPool();
  try {
    const agent = await notesAgent({ modelURL: run.model.url, ...run.files, pool })();
    return await agent.resume(resume).final;
  } finally {
    await pool.close();
  }
}

/**
 * A code-mode run's program: it appends entries 1 to `entries` to the ledger, one call after
 * the other, each with the program's clock; the entry `publishAt` goes through `publish_entry`
 * (the workers' policy asks before it). It returns the receipts and its clock.
 */
export interface LedgerProgram {
  readonly entries: number;
  readonly publishAt?: number;
}

/** The program's source, as the model writes it. */
export function ledgerProgramSource(program: LedgerProgram): string {
  return [
    "const receipts = [];",
    `for (let entry = 1; entry <= ${program.entries}; entry++) {`,
    "  const call = { entry, clock: Date.now() };",
    `  receipts.push(entry === ${program.publishAt ?? 0} ? await tools.ledger.publish_entry(call) : await tools.ledger.append_entry(call));`,
    "}",
    "return { receipts, clock: Date.now() };",
  ].join("\n");
}

/** The model of a code-mode run: one step writing `program` (`run_program`), then an answer quoting its result. */
export function startLedgerModel(program: LedgerProgram): Promise<WireFake> {
  return startChatCompletionsToolLoop({
    toolName: "run_program",
    toolSteps: 1,
    toolArguments: () => ({ code: ledgerProgramSource(program) }),
    finalText: (results) => `Ledger: ${results.join("; ")}`,
  });
}

/** The tool the program calls for `entry`. */
function ledgerToolOf(program: { publishAt?: number }, entry: number): "append_entry" | "publish_entry" {
  return entry === program.publishAt ? "publish_entry" : "append_entry";
}

/** The receipt the ledger gives for `entry` (its tool result's text). */
const receiptOf = (program: { publishAt?: number }, entry: number) =>
  `entry ${entry} recorded by ${ledgerToolOf(program, entry)}`;

/**
 * What an uninterrupted run of `program` answers, its clock being `clockMs`: the program's result
 * as core writes it for the model (`programResult`), quoted by the model.
 */
export function ledgerAnswer(program: LedgerProgram, clockMs: number): string {
  const entries = Array.from({ length: program.entries }, (_, index) => index + 1);
  const receipts = entries.map((entry) => receiptOf(program, entry));
  const result = programResult({
    outcome: { kind: "returned", value: { receipts, clock: clockMs }, console: "" },
    calls: entries.map((entry) => ({
      sequence: entry,
      name: `ledger_${ledgerToolOf(program, entry)}`,
      outcome: "success",
    })),
  });
  const [text] = result.content;
  return `Ledger: ${text?.type === "text" ? text.text : ""}`;
}

/** One call the ledger server received (its CALLS_FILE line). */
export interface LedgerCall {
  readonly tool: string;
  readonly entry: number;
  readonly clock: number;
  readonly key: string | null;
}

/** The calls the ledger server received for the run, in order: each is one effect. */
export function ledgerCalls(callsFile: string): LedgerCall[] {
  return readLines(callsFile).map((line) => JSON.parse(line) as LedgerCall);
}

/**
 * The calls the ledger server received for the run `runId` (by their idempotency keys), in
 * order; a call that came without a key is an error (no run could be told from another).
 */
export function runLedgerCalls(callsFile: string, runId: string): LedgerCall[] {
  const calls = ledgerCalls(callsFile);
  const unkeyed = calls.find((call) => call.key === null);
  if (unkeyed)
    throw new Error(`The ledger received a call without an idempotency key: ${JSON.stringify(unkeyed)}`);
  return calls.filter((call) => call.key!.startsWith(`${runId}:`));
}

/**
 * The calls an uninterrupted run of `program` makes, in order: each entry once, through its tool,
 * with the program's clock, under the idempotency key of its nested call (`<call>.<n>`).
 */
export function expectedLedgerCalls(
  program: LedgerProgram,
  run: { runId: string; programCallId: string; clockMs: number },
): LedgerCall[] {
  return Array.from({ length: program.entries }, (_, index) => ({
    tool: ledgerToolOf(program, index + 1),
    entry: index + 1,
    clock: run.clockMs,
    key: `${run.runId}:tool:1:${run.programCallId}.${index + 1}`,
  }));
}

/** Waits until a worker held before the program's call of `entry` (HOLD_BEFORE_ENTRY). */
export function reachHold(eventsFile: string, entry: number, worker: Pick<NodeProcess, "output">) {
  return waitFor(() => readLines(eventsFile).includes(`${HOLDING}${entry}`), {
    timeoutMs: 20_000,
    what: `the worker to hold before entry ${entry}; its output:\n${worker.output()}`,
  });
}

/**
 * A provider-mode run's program (Claude's code, run by the vendor): it appends the entries of
 * each turn to the ledger, the entries of one turn together (`[[1, 2], [3]]`: 1 and 2 at once,
 * then 3), each with the clock {@link providerClock}; the entry `publishAt` goes through
 * `publish_entry` (the workers' policy asks before it).
 */
export interface ProviderLedgerProgram {
  readonly turns: readonly (readonly number[])[];
  readonly publishAt?: number;
}

/** The clock Claude's code passes with every call. */
export const providerClock = 7;

/** The id of the tool call Claude's code makes for `entry`. */
export const providerCallId = (entry: number): string => `toolu_entry_${entry}`;

/**
 * Claude for a provider-mode run: the Anthropic wire fake playing `program`'s code turn by turn,
 * each turn chosen from the tool results the request carries (a worker recovered after a crash
 * that asks again for a turn gets the same one), then an answer quoting every result.
 */
export function startProviderLedgerModel(program: ProviderLedgerProgram): Promise<AnthropicProgramLoop> {
  return startAnthropicProgramLoop({
    model: providerLedgerModel,
    turns: program.turns.map((turn) =>
      turn.map((entry) => ({
        id: providerCallId(entry),
        name: `ledger_${ledgerToolOf(program, entry)}`,
        input: { entry, clock: providerClock },
      })),
    ),
    finalText: (results) => `Ledger: ${results.join("; ")}`,
  });
}

/** What an uninterrupted provider-mode run of `program` answers: every receipt, in the program's order. */
export function providerLedgerAnswer(program: ProviderLedgerProgram): string {
  return `Ledger: ${program.turns
    .flat()
    .map((entry) => receiptOf(program, entry))
    .join("; ")}`;
}

/**
 * The calls an uninterrupted provider-mode run of `program` makes: each entry once, through its
 * tool, under the idempotency key of its tool call (turn `n` is the run's step `n`).
 */
export function expectedProviderLedgerCalls(program: ProviderLedgerProgram, runId: string): LedgerCall[] {
  return program.turns.flatMap((turn, index) =>
    turn.map((entry) => ({
      tool: ledgerToolOf(program, entry),
      entry,
      clock: providerClock,
      key: `${runId}:tool:${index + 1}:${providerCallId(entry)}`,
    })),
  );
}
