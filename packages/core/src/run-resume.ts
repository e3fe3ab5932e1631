import { JunctionError, type Warning } from "@junction/types";
import { type JSONValue, signalKey } from "./durability.js";
import { argumentsDigest } from "./run-digests.js";
import {
  type ApprovalAnswer,
  approvalSignal,
  deniedMessage,
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
  /**
   * The pending calls the resume's decisions deny, by id, with the person's reason: denied even
   * where the policy, asked again, would now let the call run unasked.
   */
  denied: ReadonlyMap<string, string | undefined>;
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

/** Who resumes, as errors name it: the method and a call that resumes, for the example. */
export interface ResumeCaller {
  /** The method: `resume()`, `stream()`. */
  method: string;
  /** A call that resumes, as an example for errors. */
  example: string;
  /** How a call in the form this API had before `Resume` is told to change, when it has one. */
  formerShape?: string;
}

/** `agent.resume(resume)`. */
export const AGENT_RESUME: ResumeCaller = {
  method: "resume()",
  example: 'agent.resume({ state: result.state, decisions: { [result.pending[0].id]: "approve" } })',
  formerShape: "agent.resume(state, decisions) is now agent.resume({ state, decisions })",
};

/** `stream({ resume })` and `generate({ resume })`. */
export const STREAM_RESUME: ResumeCaller = {
  method: "stream()",
  example: 'stream({ …, resume: { state: result.state, decisions: { [result.pending[0].id]: "approve" } } })',
};

/**
 * Reads a stopped run and the decisions for its pending calls (a {@link Resume}, untrusted input)
 * into the journal its replay starts from and the guard its calls are checked against. With
 * `keys`, the state's signature must verify with one of them. Throws `invalid-argument` for a
 * value that is not a `Resume` (a state itself: the former two-argument form) or a decision no
 * call waits for, `run-state-invalid` for a malformed, unsigned (with keys) or changed state;
 * every error names `resume.state` or `resume.decisions`.
 */
export async function planResume(
  resume: unknown,
  options: { keys?: RunStateKey[]; caller?: ResumeCaller } = {},
): Promise<ResumePlan> {
  const keys = options.keys ?? [];
  const caller = options.caller ?? AGENT_RESUME;
  const { state: input, decisions } = readResume(resume, caller);
  checkStateArgument(input, caller);
  const state = parseRunState(input);
  checkDecisionsArgument(decisions, state, caller);
  // Checked on the state as stored, not as parsed: the signature covers every field it has.
  const warnings = await checkSignature(rawState(input), keys);
  const signals = decisionSignals(state, decisions, caller);
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
  const denied = new Map<string, string | undefined>();
  for (const call of state.pending) {
    pending.set(call.id, { name: call.name, argumentsDigest: await argumentsDigest(call.input) });
    const answer = signals[signalKey(approvalSignal(state.step, call.id))];
    if (answer?.approved === false) denied.set(call.id, answer.reason);
  }
  return { state, journal, guard: { step: state.step, pending, finished, denied }, warnings };
}

/**
 * The `Resume` value's two parts. A run state (or its JSON) given as the whole value is the
 * former two-argument form, or a state put where `{ state, decisions }` belongs: refused with the
 * form to write instead, never read as something else.
 */
function readResume(resume: unknown, caller: ResumeCaller): { state: unknown; decisions: unknown } {
  const isState = typeof resume === "string" || (isRecord(resume) && resume.kind === "junction.run-state");
  if (isState) {
    throw new JunctionError(
      "invalid-argument",
      `${caller.method}: \`resume\` is a run state itself; it takes one value, { state, decisions }` +
        `${caller.formerShape ? ` (${caller.formerShape})` : ""}: for example ${caller.example}.`,
    );
  }
  if (!isRecord(resume) || Array.isArray(resume) || isRunResult(resume)) {
    const detail = isRunResult(resume)
      ? resultDetail(resume)
      : `is ${describeValue(resume)}; pass { state, decisions }, for example ${caller.example}.`;
    throw new JunctionError("run-state-invalid", `${caller.method}: \`resume\` ${detail}`);
  }
  return { state: resume.state, decisions: resume.decisions === undefined ? {} : resume.decisions };
}

/**
 * Checks the policy's fresh answer for a call of the resumed step: the reason it must not run
 * (`run-state-mismatch`), or `undefined` when the answer stands. A call the policy lets run
 * unasked, or refuses, is left as decided (a person's denial of it is applied by
 * {@link deniedOnResume}); one that needs a person must be a pending call of the state, for the
 * same tool and with the arguments the person was shown.
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

/**
 * The refusal of a call of the resumed step that the resume's decisions deny while the policy,
 * asked again, lets it run unasked (it changed since the run stopped, or the resuming run has
 * none): a person said no, so it does not run. `undefined` for any other call or answer.
 */
export function deniedOnResume(
  guard: ResumeGuard,
  call: { id: string; name: string },
  decision: GateEntry,
): Extract<GateEntry, { kind: "refuse" }> | undefined {
  if (decision.kind !== "run" || !guard.denied.has(call.id)) return undefined;
  return { kind: "refuse", outcome: "denied", message: deniedMessage(call.name, guard.denied.get(call.id)) };
}

/** The decisions as the signals that answer each pending call; an unknown call id or a malformed decision is an error. */
export function decisionSignals(
  state: RunState,
  decisions: Record<string, ResumeDecision>,
  caller: ResumeCaller = AGENT_RESUME,
): Record<string, ApprovalAnswer> {
  if (typeof decisions !== "object" || decisions === null)
    throw new JunctionError(
      "invalid-argument",
      `${caller.method}: \`resume.decisions\` must be an object keyed by call id.`,
    );
  const pending = new Set(state.pending.map((call) => call.id));
  const signals: Record<string, ApprovalAnswer> = {};
  for (const [id, decision] of Object.entries(decisions)) {
    if (!pending.has(id)) {
      throw new JunctionError(
        "invalid-argument",
        `${caller.method}: \`resume.decisions\` answers a call that does not wait: there is no pending call "${id}"; the pending calls are ${[...pending].map((p) => `"${p}"`).join(", ")}.`,
      );
    }
    signals[signalKey(approvalSignal(state.step, id))] = toAnswer(decision, id, caller);
  }
  return signals;
}

function toAnswer(decision: ResumeDecision, id: string, caller: ResumeCaller): ApprovalAnswer {
  if (decision === "approve") return { approved: true };
  if (decision === "deny") return { approved: false };
  if (typeof decision === "object" && decision !== null && typeof decision.deny === "string")
    return { approved: false, reason: decision.deny };
  throw new JunctionError(
    "invalid-argument",
    `${caller.method}: \`resume.decisions\`: the decision for "${id}" must be "approve", "deny" or { deny: "reason" }, got ${JSON.stringify(decision)}.`,
  );
}

/** The stored state as an object (parseRunState has checked that it is one). */
function rawState(input: unknown): Record<string, unknown> {
  return (typeof input === "string" ? JSON.parse(input) : input) as Record<string, unknown>;
}

/** A state argument that cannot be a state at all (nothing, a number, the whole result), named as the caller names it. */
function checkStateArgument(input: unknown, caller: ResumeCaller): void {
  if (typeof input === "string" || (isRecord(input) && !Array.isArray(input) && !isRunResult(input))) return;
  const detail = isRunResult(input)
    ? resultDetail(input)
    : `is ${describeValue(input)}; pass the \`state\` of a result whose finishReason is "approval-required" (\`result.state\`), ` +
      `as the object or parsed back from its JSON, for example ${caller.example}.`;
  throw new JunctionError("run-state-invalid", `${caller.method}: \`resume.state\` ${detail}`);
}

/** What is wrong with a run's result given where its state belongs. */
function resultDetail(result: unknown): string {
  const finished = (result as { finishReason: unknown }).finishReason;
  return finished === "approval-required"
    ? "is a whole run result, not its state; pass `result.state`."
    : `is the result of a run that ended (finishReason ${JSON.stringify(finished)}): only a run that stopped with "approval-required" has a \`state\` to resume.`;
}

function isRunResult(value: unknown): boolean {
  return isRecord(value) && value.kind === undefined && "finishReason" in value && "messages" in value;
}

function checkDecisionsArgument(
  decisions: unknown,
  state: RunState,
  caller: ResumeCaller,
): asserts decisions is Record<string, ResumeDecision> {
  if (isPlainObject(decisions)) return;
  const pending = state.pending.map((call) => JSON.stringify(call.id));
  throw new JunctionError(
    "invalid-argument",
    `${caller.method}: \`resume.decisions\` is ${describeValue(decisions)}; pass an object with a decision per pending call id, ` +
      `for example { ${pending[0]}: "approve" } (a decision is "approve", "deny" or { deny: "reason" }; the pending calls are ${pending.join(", ")}).`,
  );
}

/** A value as an error names it: `undefined`, `null`, `an array`, `a Map`, `a number`. */
function describeValue(value: unknown): string {
  if (value === undefined || value === null) return String(value);
  if (Array.isArray(value)) return "an array";
  if (isRecord(value) && !isPlainObject(value)) {
    const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
    if (typeof name === "string" && name !== "") return `${/^[AEIOU]/.test(name) ? "an" : "a"} ${name}`;
  }
  const type = typeof value;
  return `${/^[aeiou]/.test(type) ? "an" : "a"} ${type}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/** An object literal (or one without a prototype): its own keys are all it holds. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!isRecord(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
