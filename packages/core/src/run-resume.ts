import { JunctionError, type Warning } from "@junction/types";
import { type JSONValue, signalKey } from "./durability.js";
import { argumentsDigest } from "./run-digests.js";
import {
  type ApprovalAnswer,
  approvalSignal,
  entryValue,
  type GateEntry,
  toolKey,
  toolsKey,
} from "./run-journal.js";
import { parseRunState, type ResumeDecision, type RunState } from "./run-state.js";
import { checkSignature, type RunStateKey } from "./run-state-signature.js";

/**
 * What a resumed run checks every unfinished call of the step it resumes against. A stored
 * state is data from outside: its journaled policy answers (`gate:` entries) are not used; each
 * call that has no finished result is decided again, and one that needs a person runs only if it
 * was one of the state's pending calls, with the arguments that were shown.
 */
export interface ResumeGuard {
  /** The step the run stopped in. */
  step: number;
  /** The state's pending calls by id: the tool and the digest of the arguments shown to the person. */
  pending: ReadonlyMap<string, { name: string; argumentsDigest: string }>;
  /** Calls of the step with a finished result in the state: replayed, never run. */
  finished: ReadonlySet<string>;
}

/** How a stored run continues: the journal to replay, where, and what to warn about. */
export interface ResumePlan {
  state: RunState;
  /**
   * The journal the replay starts from: the state's model answer and finished calls, the
   * decisions as signals and the step's tool snapshots. Stored policy answers and signals are
   * left out: the run decides again.
   */
  journal: Record<string, JSONValue>;
  /** What the resumed run checks its calls against. */
  guard: ResumeGuard;
  /** Warnings about the state itself, for the run's `final.warnings` and events. */
  warnings: Warning[];
}

/** How a caller of {@link planResume} names its arguments in errors, and how it is called. */
export interface ResumeArguments {
  /** The method: `resume()`. */
  method: string;
  /** The state argument as a sentence names it before "is …": "the first argument, `state`,". */
  state: string;
  /** The decisions argument. */
  decisions: string;
  /** A call that resumes, as an example for errors. */
  example: string;
}

/** `agent.resume(state, decisions)`'s arguments. */
export const AGENT_RESUME_ARGUMENTS: ResumeArguments = {
  method: "resume()",
  state: "the first argument, `state`,",
  decisions: "the second argument, `decisions`,",
  example: 'agent.resume(result.state, { [result.pending[0].id]: "approve" })',
};

/**
 * Reads a stored run and the decisions for its pending calls into the journal its replay starts
 * from and the guard its calls are checked against. With `keys`, the state's signature must
 * verify with one of them. Throws `run-state-invalid` for a malformed, unsigned (with keys) or
 * changed state, `invalid-argument` for a decision no call waits for.
 */
export async function planResume(
  input: unknown,
  decisions: Record<string, ResumeDecision>,
  options: { keys?: RunStateKey[]; names?: ResumeArguments } = {},
): Promise<ResumePlan> {
  const keys = options.keys ?? [];
  const names = options.names ?? AGENT_RESUME_ARGUMENTS;
  checkStateArgument(input, names);
  const state = parseRunState(input);
  checkDecisionsArgument(decisions, state, names);
  // Checked on the state as stored, not as parsed: the signature covers every field it has.
  const warnings = await checkSignature(rawState(input), keys);
  const signals = decisionSignals(state, decisions);
  const journal: Record<string, JSONValue> = {};
  const finished = new Set<string>();
  const finishedPrefix = toolKey(state.step, "");
  for (const [key, value] of Object.entries(state.journal)) {
    // A stored verdict or answer is never taken as given: the run asks the policy again, and
    // the only answers are the decisions given now.
    if (key.startsWith("gate:") || key.startsWith("signal:")) continue;
    if (key.startsWith(finishedPrefix)) finished.add(key.slice(finishedPrefix.length));
    journal[key] = value;
  }
  Object.assign(journal, signals);
  // What the step offered: the loop refuses calls to tools that changed since.
  journal[toolsKey(state.step)] = entryValue(state.tools);
  const pending = new Map<string, { name: string; argumentsDigest: string }>();
  for (const call of state.pending) {
    pending.set(call.id, { name: call.name, argumentsDigest: await argumentsDigest(call.input) });
  }
  return { state, journal, guard: { step: state.step, pending, finished }, warnings };
}

/**
 * Checks the policy's fresh answer for a call of the resumed step: the reason it must not run
 * (`run-state-mismatch`), or `undefined` when the answer stands. A call the policy lets run
 * unasked, or refuses, is left as decided; one that needs a person must be a pending call of the
 * state, for the same tool and with the arguments the person was shown.
 */
export async function recheckOnResume(
  guard: ResumeGuard,
  call: { id: string; name: string },
  decision: GateEntry,
): Promise<string | undefined> {
  if (decision.kind !== "ask") return undefined;
  const shown = guard.pending.get(call.id);
  if (!shown) {
    return "it needs a person's approval and it was not one of the run's pending calls, so it was not run";
  }
  if (shown.name !== call.name || shown.argumentsDigest !== (await argumentsDigest(decision.input))) {
    return "its arguments in the saved run differ from what the model asked for, so it was not run";
  }
  return undefined;
}

/** The decisions as the signals that answer each pending call; an unknown call id or a malformed decision is an error. */
export function decisionSignals(
  state: RunState,
  decisions: Record<string, ResumeDecision>,
): Record<string, ApprovalAnswer> {
  if (typeof decisions !== "object" || decisions === null)
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
  if (typeof decision === "object" && decision !== null && typeof decision.deny === "string")
    return { approved: false, reason: decision.deny };
  throw new JunctionError(
    "invalid-argument",
    `resume(): the decision for "${id}" must be "approve", "deny" or { deny: "reason" }, got ${JSON.stringify(decision)}.`,
  );
}

/** The stored state as an object (parseRunState has checked that it is one). */
function rawState(input: unknown): Record<string, unknown> {
  return (typeof input === "string" ? JSON.parse(input) : input) as Record<string, unknown>;
}

/** A state argument that cannot be a state at all (nothing, a number, the whole result), named as the caller names it. */
function checkStateArgument(input: unknown, names: ResumeArguments): void {
  if (typeof input === "string" || (isRecord(input) && !Array.isArray(input) && !isRunResult(input))) return;
  const finished = isRunResult(input) ? (input as { finishReason: unknown }).finishReason : undefined;
  const detail = isRunResult(input)
    ? finished === "approval-required"
      ? "is a whole run result, not its state; pass `result.state`."
      : `is the result of a run that ended (finishReason ${JSON.stringify(finished)}): only a run that stopped with "approval-required" has a \`state\` to resume.`
    : `is ${describeValue(input)}; pass the \`state\` of a result whose finishReason is "approval-required" (\`result.state\`), ` +
      `as the object or parsed back from its JSON, for example ${names.example}.`;
  throw new JunctionError("run-state-invalid", `${names.method}: ${names.state} ${detail}`);
}

function isRunResult(value: unknown): boolean {
  return isRecord(value) && value.kind === undefined && "finishReason" in value && "messages" in value;
}

function checkDecisionsArgument(decisions: unknown, state: RunState, names: ResumeArguments): void {
  if (isRecord(decisions) && !Array.isArray(decisions)) return;
  const pending = state.pending.map((call) => JSON.stringify(call.id));
  throw new JunctionError(
    "invalid-argument",
    `${names.method}: ${names.decisions} is ${describeValue(decisions)}; pass an object with a decision per pending call id, ` +
      `for example { ${pending[0]}: "approve" } (a decision is "approve", "deny" or { deny: "reason" }; the pending calls are ${pending.join(", ")}).`,
  );
}

/** A value as an error names it: `undefined`, `null`, `an array`, `a number`. */
function describeValue(value: unknown): string {
  if (value === undefined || value === null) return String(value);
  if (Array.isArray(value)) return "an array";
  const type = typeof value;
  return `${/^[aeiou]/.test(type) ? "an" : "a"} ${type}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}
