import {
  errorMessage,
  JunctionError,
  type Message,
  type ToolResultMessagePart,
  type Usage,
  type Warning,
} from "@junction/types";
import { type InMemoryDurability, type JSONValue, signalKey } from "./durability.js";
import { validateMessages } from "./message-validation.js";
import type { PendingToolCall } from "./pending-tool-call.js";
import { toolDigest } from "./run-digests.js";
import {
  type ApprovalAnswer,
  approvalSignal,
  deniedMessage,
  type GateEntry,
  gateKey,
  type ModelTurnEntry,
  modelKey,
  type ToolCallEntry,
  toolKey,
  toolsKey,
} from "./run-journal.js";
import { isFailedEntry, stepFailureProblem } from "./step-failure.js";
import { sameJSON } from "./tool-call-ids.js";
import type { TraceCarrier } from "./trace-carrier.js";

export type { PendingToolCall } from "./pending-tool-call.js";
export { canonicalJSON, toolDigest } from "./run-digests.js";

/** The version of the `RunState` format this Junction writes and reads. */
export const RUN_STATE_VERSION = 1;

/** A tool as the model saw it when the run stopped: enough to tell, on resume, whether it changed. */
export interface ToolSnapshot {
  name: string;
  source?: string;
  /** SHA-256 of the tool's description, schemas and annotations (canonical JSON), hex. */
  digest: string;
}

/** An MCP source as the run knew it: a descriptor, never a live connection. */
export interface SourceDescriptor {
  label: string;
  name?: string;
  prefix?: string;
}

/**
 * A run that stopped for approvals, as plain, versioned JSON: store it anywhere
 * (`JSON.stringify`), and continue it in any process with `agent.resume(state, decisions)`.
 * Finished calls are not run again and the model is not asked again for the step it answered.
 */
export interface RunState {
  kind: "junction.run-state";
  version: typeof RUN_STATE_VERSION;
  runId: string;
  /** ISO time the run stopped. */
  createdAt: string;
  provider: string;
  model: string;
  /** The conversation before the step that stopped. */
  messages: Message[];
  /** The step that stopped (1-based, counted in the run). */
  step: number;
  /** That step's finished work, by journal key: the model's answer, policy answers, finished calls, answers given. */
  journal: Record<string, JSONValue>;
  pending: PendingToolCall[];
  tools: ToolSnapshot[];
  sources: SourceDescriptor[];
  /** Usage of the run's steps before `step`. */
  usage: Usage;
  /** For the exfiltration guard: calls that never ran, and calls that read private data. */
  ledger: { notRun: string[]; readPrivate: string[] };
  /**
   * The trace context of the run's first part, when a tracer gave one (`Tracer` spans with
   * `traceCarrier()`): the resumed part's run span links to it.
   */
  trace?: TraceCarrier;
  /** Deferred tools the model found with the tool search before it stopped: a resumed run sends them. */
  loadedTools?: string[];
}

/**
 * A decision for a pending call: `"approve"` runs it, `"deny"` or `{ deny: reason }` refuses it
 * with an error result the model sees.
 */
export type ResumeDecision = "approve" | "deny" | { deny: string };

/** Reads a stored state and names the first thing that is wrong with it. */
export function parseRunState(value: unknown): RunState {
  const state = typeof value === "string" ? parseJSON(value) : value;
  if (!isRecord(state)) throw invalid("it is not an object");
  if (state.kind !== "junction.run-state")
    throw invalid(`\`kind\` is ${JSON.stringify(state.kind)}, not "junction.run-state"`);
  if (state.version !== RUN_STATE_VERSION) {
    throw invalid(
      `its version is ${JSON.stringify(state.version)}; this Junction reads version ${RUN_STATE_VERSION} (a state written by a newer Junction needs that version to resume)`,
    );
  }
  for (const field of ["runId", "createdAt", "provider", "model"] as const) {
    if (typeof state[field] !== "string") throw invalid(`\`${field}\` must be a string`);
  }
  if (!Number.isInteger(state.step) || (state.step as number) < 1)
    throw invalid("`step` must be a positive integer");
  try {
    validateMessages(state.messages);
  } catch (error) {
    throw invalid(`\`messages\`: ${errorMessage(error)}`);
  }
  if (!isRecord(state.journal)) throw invalid("`journal` must be an object");
  const step = state.step as number;
  const turn = state.journal[modelKey(step)];
  if (!isRecord(turn) || !Array.isArray(turn.content) || !isRecord(turn.finish)) {
    throw invalid(`\`journal\` has no model answer for step ${step} ("${modelKey(step)}")`);
  }
  for (const [key, entry] of Object.entries(state.journal)) {
    const problem = isFailedEntry(entry) ? stepFailureProblem(entry.failed) : undefined;
    if (problem !== undefined) throw invalid(`\`journal["${key}"]\` records a failed step, but ${problem}`);
  }
  const calls = new Map<string, unknown>();
  for (const part of turn.content as Record<string, unknown>[]) {
    if (part?.type === "tool-call" && typeof part.id === "string") calls.set(part.id, part);
  }
  if (!Array.isArray(state.pending) || state.pending.length === 0)
    throw invalid("`pending` must list at least one call");
  state.pending.forEach((pending: unknown, index: number) => {
    if (!isRecord(pending) || typeof pending.id !== "string" || typeof pending.name !== "string") {
      throw invalid(`\`pending[${index}]\` needs a string \`id\` and \`name\``);
    }
    if (!calls.has(pending.id))
      throw invalid(`\`pending[${index}]\` (${pending.id}) is not a call of step ${step}`);
    if (pending.step !== step) throw invalid(`\`pending[${index}].step\` must be ${step}`);
  });
  if (!Array.isArray(state.tools) || !state.tools.every(isSnapshot)) {
    throw invalid("`tools` must be a list of { name, digest } snapshots");
  }
  if (
    !Array.isArray(state.sources) ||
    !state.sources.every((s) => isRecord(s) && typeof s.label === "string")
  ) {
    throw invalid("`sources` must be a list of { label } descriptors");
  }
  if (!isRecord(state.usage) || typeof state.usage.inputTokens !== "number")
    throw invalid("`usage` is missing");
  if (
    !isRecord(state.ledger) ||
    !isStringList(state.ledger.notRun) ||
    !isStringList(state.ledger.readPrivate)
  ) {
    throw invalid("`ledger` must be { notRun: string[], readPrivate: string[] }");
  }
  if (
    state.trace !== undefined &&
    (!isRecord(state.trace) ||
      typeof state.trace.traceparent !== "string" ||
      (state.trace.tracestate !== undefined && typeof state.trace.tracestate !== "string"))
  ) {
    throw invalid("`trace` must be { traceparent: string, tracestate?: string }");
  }
  if (state.loadedTools !== undefined && !isStringList(state.loadedTools)) {
    throw invalid("`loadedTools` must be a list of tool names");
  }
  return state as unknown as RunState;
}

/** How a stored run continues: the journal to replay, where, and what to warn about. */
export interface ResumePlan {
  state: RunState;
  /** The state's journal with the decisions as signals and the step's tool snapshots. */
  journal: Record<string, JSONValue>;
  /** `run-state-mismatch` warnings for calls refused because the state was edited. */
  warnings: Warning[];
}

/**
 * Reads a stored run and the decisions for its pending calls into the journal its replay starts
 * from. A pending call whose arguments were edited is denied, whatever was decided. Throws
 * `run-state-invalid` for a malformed state, `invalid-argument` for a decision no call waits for.
 */
export function planResume(input: unknown, decisions: Record<string, ResumeDecision>): ResumePlan {
  const state = parseRunState(input);
  const journal: Record<string, JSONValue> = {
    ...state.journal,
    ...(decisionSignals(state, decisions) as Record<string, JSONValue>),
    // What the step offered: the loop refuses calls to tools that changed since.
    [toolsKey(state.step)]: state.tools as unknown as JSONValue,
  };
  const warnings: Warning[] = [];
  for (const [id, reason] of editedCalls(state)) {
    warnings.push({
      code: "run-state-mismatch",
      message: `The call "${id}" was not run on resume: ${reason}.`,
    });
    journal[signalKey(approvalSignal(state.step, id))] = { approved: false, reason };
  }
  return { state, journal, warnings };
}

/** The state of a run that stopped for approvals at `step`, from its in-memory journal. */
export function stoppedRunState(parts: {
  journal: InMemoryDurability;
  step: number;
  pending: PendingToolCall[];
  usageBefore: Usage;
  provider: string;
  model: string;
  messages: Message[];
  sources?: SourceDescriptor[];
  ledger?: RunState["ledger"];
  /** The trace context of the run's first part. */
  trace?: TraceCarrier;
  loadedTools?: string[];
}): RunState {
  const { journal, step } = parts;
  return {
    kind: "junction.run-state",
    version: RUN_STATE_VERSION,
    runId: journal.runId,
    createdAt: new Date().toISOString(),
    provider: parts.provider,
    model: parts.model,
    messages: structuredClone(parts.messages),
    step,
    journal: journalOfStep(journal.journal, step),
    pending: parts.pending,
    tools: (journal.journal[toolsKey(step)] ?? []) as unknown as ToolSnapshot[],
    sources: parts.sources ?? [],
    usage: parts.usageBefore,
    ledger: parts.ledger ?? { notRun: [], readPrivate: [] },
    ...(parts.trace ? { trace: parts.trace } : {}),
    ...(parts.loadedTools && parts.loadedTools.length > 0 ? { loadedTools: parts.loadedTools } : {}),
  };
}

/** The journal entries of step `step` (the ones a state keeps). */
export function journalOfStep(journal: Record<string, JSONValue>, step: number): Record<string, JSONValue> {
  const ofStep = new RegExp(`^(?:signal:)?[a-z]+:${step}(?::|$)`);
  // The step's tool snapshots travel as the state's `tools`.
  return Object.fromEntries(
    Object.entries(journal).filter(([key]) => ofStep.test(key) && key !== toolsKey(step)),
  );
}

/** The decisions as the signals that answer each pending call; an unknown call id or a malformed decision is an error. */
export function decisionSignals(
  state: RunState,
  decisions: Record<string, ResumeDecision>,
): Record<string, ApprovalAnswer> {
  if (!isRecord(decisions))
    throw new JunctionError("invalid-argument", "resume(): `decisions` must be an object keyed by call id.");
  const pending = new Set(state.pending.map((call) => call.id));
  const signals: Record<string, ApprovalAnswer> = {};
  for (const [id, decision] of Object.entries(decisions)) {
    if (!pending.has(id)) {
      throw new JunctionError(
        "invalid-argument",
        `resume(): there is no pending call "${id}"; the pending calls are ${[...pending].map((p) => `"${p}"`).join(", ")}.`,
      );
    }
    signals[signalKey(approvalSignal(state.step, id))] = toAnswer(decision, id);
  }
  return signals;
}

function toAnswer(decision: ResumeDecision, id: string): ApprovalAnswer {
  if (decision === "approve") return { approved: true };
  if (decision === "deny") return { approved: false };
  if (isRecord(decision) && typeof decision.deny === "string")
    return { approved: false, reason: decision.deny };
  throw new JunctionError(
    "invalid-argument",
    `resume(): the decision for "${id}" must be "approve", "deny" or { deny: "reason" }, got ${JSON.stringify(decision)}.`,
  );
}

/**
 * The conversation of a stopped run, closed as if its pending calls were denied with `reason`:
 * the messages before the step, the model's answer, the results of the calls that finished and
 * a denial for each pending one. For a conversation that goes on without resuming the run (a
 * new message instead of an answer); `agent.send()` does this itself for the run it stopped.
 */
export function closeRunState(input: RunState | unknown, reason: string): Message[] {
  const state = parseRunState(input);
  const turn = state.journal[modelKey(state.step)] as unknown as ModelTurnEntry;
  const results: ToolResultMessagePart[] = [];
  for (const part of turn.content) {
    if (part.type !== "tool-call") continue;
    const finished = state.journal[toolKey(state.step, part.id)] as unknown as ToolCallEntry | undefined;
    results.push({
      type: "tool-result",
      toolCallId: part.id,
      toolName: part.name,
      output: finished?.output ?? {
        content: [{ type: "text", text: deniedMessage(part.name, reason) }],
        isError: true,
      },
    });
  }
  const messages: Message[] = [
    ...structuredClone(state.messages),
    { role: "assistant", content: turn.content },
  ];
  if (results.length > 0) messages.push({ role: "tool", content: results });
  return messages;
}

const digests = new WeakMap<object, Promise<string>>();

/** Snapshots of the tools a run offers (each tool's digest computed once per tool object). */
export async function snapshotTools(
  tools: Iterable<{ tool: Parameters<typeof toolDigest>[0] & { name: string }; source?: string }>,
): Promise<ToolSnapshot[]> {
  return Promise.all(
    [...tools].map(async ({ tool, source }) => {
      let digest = digests.get(tool);
      if (!digest) {
        digest = toolDigest(tool);
        digests.set(tool, digest);
      }
      return { name: tool.name, ...(source ? { source } : {}), digest: await digest };
    }),
  );
}

/**
 * Pending calls whose arguments in the state differ from what the model asked for (the state was
 * edited), with the reason the call is refused.
 */
export function editedCalls(state: RunState): Map<string, string> {
  const refusals = new Map<string, string>();
  const turn = state.journal[modelKey(state.step)] as unknown as ModelTurnEntry;
  for (const asked of state.pending) {
    const part = turn.content.find(
      (candidate) => candidate.type === "tool-call" && candidate.id === asked.id,
    );
    const gate = state.journal[gateKey(state.step, asked.id)] as unknown as GateEntry | undefined;
    const edited =
      part?.type !== "tool-call" ||
      gate?.kind !== "ask" ||
      asked.name !== part.name ||
      !sameJSON(asked.input, gate.input) ||
      !sameJSON(gate.callInput, part.input);
    if (edited) {
      refusals.set(
        asked.id,
        "its arguments in the saved run differ from what the model asked for, so it was not run",
      );
    }
  }
  return refusals;
}

/**
 * The tools that changed between two snapshots of a step's tools, with the reason a call to one
 * is refused: gone, from another server now, or a different description, schema or annotations.
 */
export function toolChanges(before: ToolSnapshot[], now: ToolSnapshot[]): Map<string, string> {
  const current = new Map(now.map((snapshot) => [snapshot.name, snapshot]));
  const changes = new Map<string, string>();
  for (const seen of before) {
    const tool = current.get(seen.name);
    if (!tool) {
      changes.set(seen.name, `the tool "${seen.name}" is no longer available, so it was not run`);
    } else if ((seen.source ?? "") !== (tool.source ?? "")) {
      changes.set(
        seen.name,
        `the tool "${seen.name}" now comes from ${tool.source ?? "the local tools"}, not ${seen.source ?? "the local tools"} as when it was asked for, so it was not run`,
      );
    } else if (seen.digest !== tool.digest) {
      changes.set(
        seen.name,
        `the tool "${seen.name}" changed (description, schema or annotations) since the run stopped, so it was not run`,
      );
    }
  }
  return changes;
}

function isSnapshot(value: unknown): value is ToolSnapshot {
  return isRecord(value) && typeof value.name === "string" && typeof value.digest === "string";
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

function isRecord(value: unknown): value is Record<string, any> {
  return typeof value === "object" && value !== null;
}

function parseJSON(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw invalid(`it is not JSON (${errorMessage(error)})`);
  }
}

function invalid(detail: string): JunctionError {
  return new JunctionError("run-state-invalid", `This run state cannot be resumed: ${detail}.`);
}
