// The worker half of the Agent crash tests and the resume benchmark: the Agent a worker process
// makes per run, written once and run on every engine. A real provider package (Chat
// Completions) pointed at a wire fake in the test's process, a real MCP server over stdio
// through an MCPPool, and annotationPolicy(), under which the server's unannotated `save_note`
// asks. The worker records each approval question it surfaces, so the test (in its own process)
// knows when the run waits and which signal answers it. The ledger Agents (code mode, in the
// QuickJS sandbox or run by Claude through the Anthropic provider) call the ledger server, which
// records every call it receives. The test half is agent-scenario.ts. Never imported by shipped
// code.
import { appendFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  Agent,
  type AgentConfig,
  type AgentEvent,
  annotationPolicy,
  type Durability,
  type JSONValue,
  type PendingToolCall,
} from "@junction/core";
import { MCPPool } from "@junction/mcp-client";
import { anthropic } from "@junction/provider-anthropic";
import { chatCompletions } from "@junction/provider-chatcompletions";
import { quickjsSandbox } from "@junction/sandbox-quickjs";
import { JunctionError, ProviderError, type ToolContext, type ToolSource } from "@junction/types";

/** What the user asks, the note the model saves, and the answer the run must end with. */
export const notesRun = {
  input: "Note: buy milk",
  note: "buy milk",
  answer: 'Noted: saved "buy milk"',
} as const;

/** The MCP server's script: a stdio server whose `save_note` appends a line per call to CALLS_FILE. */
export const notesServer = fileURLToPath(new URL("../test-servers/notes-server.mjs", import.meta.url));

/** The line a worker appends to the events file when its run asks for an approval. */
export const ASKED = "approval requested ";

/**
 * What a worker process runs per run: a new Agent on the model at `modelURL`, with the notes
 * server from `pool` (connected once per process, shared by every run on it), asking before
 * `save_note` runs, and recording each question's signal in `eventsFile`.
 */
export function notesAgent(options: {
  modelURL: string;
  callsFile: string;
  eventsFile: string;
  pool: MCPPool;
  /** The Agent's `approvalTimeoutMs`: the run stops with `approval-required` once it runs out. */
  approvalTimeoutMs?: number;
}) {
  return async (): Promise<Agent> => {
    const notes = await options.pool.get({
      transport: "stdio",
      command: process.execPath,
      args: [notesServer],
      env: { CALLS_FILE: options.callsFile },
    });
    return new Agent({
      provider: chatCompletions({ baseURL: options.modelURL, apiKey: "test" }),
      model: "fake",
      mcps: [notes],
      approval: annotationPolicy(),
      ...(options.approvalTimeoutMs !== undefined ? { approvalTimeoutMs: options.approvalTimeoutMs } : {}),
      onEvent: (event) => {
        if (event.type === "tool-approval-request")
          appendFileSync(options.eventsFile, `${ASKED}${event.signal}\n`);
      },
    });
  };
}

/** The ledger MCP server's script: two tools, each appending a JSON line per call to CALLS_FILE. */
export const ledgerServer = fileURLToPath(new URL("../test-servers/ledger-server.mjs", import.meta.url));

/** The line a worker appends to the events file when it holds before a program's call: then the entry. */
export const HOLDING = "holding before entry ";

/** What a worker's ledger Agent (sandbox or provider code mode) is made from. */
export interface LedgerAgentOptions {
  modelURL: string;
  callsFile: string;
  eventsFile: string;
  pool: MCPPool;
  /** The worker holds right before the call of this entry would be sent to the ledger server. */
  holdBeforeEntry?: number;
}

/**
 * `source`, whose tools never send the call of `entry`: the worker records in `eventsFile` that
 * it holds there (after the calls before it were sent, and once the engine started that call's
 * step), and waits for the test to kill it.
 */
function holdingBefore(source: ToolSource, hold: { entry: number; eventsFile: string }): ToolSource {
  return {
    ...(source.name !== undefined ? { name: source.name } : {}),
    listTools: async (options) =>
      (await source.listTools(options)).map((tool) => ({
        ...tool,
        execute: (input: unknown, context?: ToolContext) => {
          if ((input as { entry?: unknown } | undefined)?.entry !== hold.entry)
            return tool.execute(input, context);
          appendFileSync(hold.eventsFile, `${HOLDING}${hold.entry}\n`);
          return new Promise<never>(() => undefined);
        },
      })),
  };
}

/**
 * What the ledger Agents share: the ledger server from the pool (held before `holdBeforeEntry`),
 * appending approved and publishing asked, and each question recorded in `eventsFile`.
 */
async function ledgerAgentParts(options: LedgerAgentOptions) {
  const ledger = await options.pool.get({
    transport: "stdio",
    command: process.execPath,
    args: [ledgerServer],
    env: { CALLS_FILE: options.callsFile },
  });
  const { holdBeforeEntry: entry, eventsFile } = options;
  return {
    mcps: [
      { mcp: entry === undefined ? ledger : holdingBefore(ledger, { entry, eventsFile }), prefix: "ledger" },
    ],
    approval: (request: { name: string }) => (request.name.endsWith("publish_entry") ? "ask" : "approve"),
    onEvent: (event: AgentEvent) => {
      if (event.type === "tool-approval-request") appendFileSync(eventsFile, `${ASKED}${event.signal}\n`);
    },
  } satisfies Partial<AgentConfig>;
}

/**
 * The code-mode Agent a worker makes per run: the model writes a program (`run_program`, in the
 * QuickJS sandbox) that calls the ledger server's tools. The policy approves `append_entry` and
 * asks before `publish_entry`. With `holdBeforeEntry`, the worker holds before that call.
 */
export function ledgerAgent(options: LedgerAgentOptions) {
  // On a worker thread, as a durable worker (a server) should run a model's programs: so the
  // SIGKILL cases also recover runs whose program ran off the worker's own thread.
  const sandbox = quickjsSandbox({ thread: "worker" });
  return async (): Promise<Agent> =>
    new Agent({
      provider: chatCompletions({ baseURL: options.modelURL, apiKey: "test" }),
      model: "fake",
      codeMode: { sandbox, minTools: 1 },
      ...(await ledgerAgentParts(options)),
    });
}

/** The model of the provider-mode ledger Agent (what the Anthropic wire fake answers as). */
export const providerLedgerModel = "claude-sonnet-4-6";

/**
 * The provider-mode ledger Agent a worker makes per run: Claude (the real Anthropic SDK, against
 * the wire fake at `modelURL`) runs the program, and each of its calls of the ledger's tools (a
 * program's only) comes back as a tool call of the run, asked and held as `ledgerAgent`'s.
 */
export function providerLedgerAgent(options: LedgerAgentOptions) {
  return async (): Promise<Agent> =>
    new Agent({
      provider: anthropic({ apiKey: "test-key", baseURL: options.modelURL, maxRetries: 0 }),
      model: providerLedgerModel,
      codeMode: { sandbox: "provider", tools: { "ledger_*": "code" }, minTools: 1 },
      ...(await ledgerAgentParts(options)),
    });
}

/**
 * The worker side, from its environment: MODEL_URL, CALLS_FILE, EVENTS_FILE, and
 * APPROVAL_TIMEOUT_MS if set. With AGENT=ledger, the code-mode ledger Agent instead of the notes
 * Agent, with AGENT=provider-ledger its provider-mode twin (and HOLD_BEFORE_ENTRY, if set, for
 * their hold).
 */
export function notesAgentFromEnvironment(): { makeAgent: () => Promise<Agent>; pool: MCPPool } {
  const pool = new MCPPool();
  const files = {
    modelURL: process.env.MODEL_URL!,
    callsFile: process.env.CALLS_FILE!,
    eventsFile: process.env.EVENTS_FILE!,
    pool,
  };
  const ledgerAgents = { ledger: ledgerAgent, "provider-ledger": providerLedgerAgent };
  const agent = process.env.AGENT;
  if (agent === "ledger" || agent === "provider-ledger") {
    const hold = process.env.HOLD_BEFORE_ENTRY;
    const options = { ...files, ...(hold ? { holdBeforeEntry: Number(hold) } : {}) };
    return { makeAgent: ledgerAgents[agent](options), pool };
  }
  const makeAgent = notesAgent({
    ...files,
    ...(process.env.APPROVAL_TIMEOUT_MS
      ? { approvalTimeoutMs: Number(process.env.APPROVAL_TIMEOUT_MS) }
      : {}),
  });
  return { makeAgent, pool };
}

/** The line a worker's approval notifier appends to the events file: then the run's id and the call. */
export const NOTIFIED = "approval notified ";

/**
 * The engines' `onApprovalRequested` of a worker process: records `<runId> <step>:<callId>` in
 * EVENTS_FILE, so the test counts the notifications (one per pending call, across every worker).
 */
export function notifierFromEnvironment(): (item: PendingToolCall, run: { runId: string }) => void {
  const eventsFile = process.env.EVENTS_FILE!;
  return (item, run) => appendFileSync(eventsFile, `${NOTIFIED}${run.runId} ${item.step}:${item.id}\n`);
}

/** The line a worker appends to the events file once it is up: then its name (an executor id). */
export const READY = "worker ready ";

/** Records in EVENTS_FILE that this worker is up, as `name`. */
export function markReady(name: string): void {
  appendFileSync(process.env.EVENTS_FILE!, `${READY}${name}\n`);
}

/** The line a helper script (an approver in a process of its own) prints its result on: then the result as JSON. */
export const RESULT = "result ";

/** The line a worker appends to the events file when its run failed: then the error, described. */
export const FAILED = "run failed ";

/** What an app's error handling reads of a run's error, as plain JSON. */
export function describeRunError(error: unknown): Record<string, JSONValue> {
  const read = error as Partial<ProviderError>;
  return {
    providerError: ProviderError.isInstance(error),
    junctionError: JunctionError.isInstance(error),
    name: read.name ?? null,
    message: read.message ?? null,
    code: read.code ?? null,
    provider: read.provider ?? null,
    status: read.status ?? null,
    retryable: read.retryable ?? null,
    requestId: read.requestId ?? null,
  };
}

/**
 * A durable function whose Agent run fails in its model step (the model at MODEL_URL answers
 * with an HTTP error; the provider does not retry): it records the run's error in EVENTS_FILE,
 * then, in a worker started with HANG_AFTER_FAILURE, waits forever (the test kills that worker
 * after the failed step is journaled, before the function ends); otherwise it returns the
 * error, described, as the function's result.
 */
export function failedModelRunFromEnvironment(): (durability: Durability) => Promise<JSONValue> {
  const modelURL = process.env.MODEL_URL!;
  const eventsFile = process.env.EVENTS_FILE!;
  const hang = process.env.HANG_AFTER_FAILURE === "1";
  return async (durability) => {
    const agent = new Agent({
      provider: chatCompletions({ baseURL: modelURL, apiKey: "test", maxRetries: 0 }),
      model: "fake",
    });
    try {
      await agent.send(notesRun.input, { durability }).final;
      return null;
    } catch (error) {
      const described = describeRunError(error);
      appendFileSync(eventsFile, `${FAILED}${JSON.stringify(described)}\n`);
      if (hang) await new Promise(() => undefined);
      return described;
    }
  };
}
