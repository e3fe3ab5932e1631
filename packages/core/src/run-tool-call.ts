import { JunctionError, type ToolCallPart, type ToolResult } from "@junction/types";
import { abortError, raceAbort } from "./abort.js";
import type { NestedCallOf, ToolCallOutcome } from "./agent-events.js";
import { providerCallParent } from "./code-mode/provider-program.js";
import { idempotencyKey, type JSONValue, signalKey } from "./durability.js";
import { answerMismatch } from "./pending-approvals.js";
import type { PendingToolCall } from "./pending-tool-call.js";
import { argumentsDigest } from "./run-digests.js";
import {
  type ApprovalAnswer,
  approvalAnswerSchema,
  approvalSignal,
  deniedMessage,
  entryValue,
  type GateEntry,
  gateKey,
  gateSchema,
  readEntry,
  type ToolCallEntry,
  toolCallSchema,
  toolKey,
} from "./run-journal.js";
import { deniedOnResume, recheckOnResume } from "./run-resume.js";
import type {
  CallOutcome,
  RunForCalls,
  StepScope,
  ToolCallExecution,
  ToolExecutorContext,
  ToolRunner,
} from "./run-types.js";
import { journaledStep } from "./step-failure.js";
import {
  limitStructuredContent,
  normalizeToolOutput,
  toToolResult,
  truncateToolOutput,
} from "./tool-output.js";
import { ToolProgressReporter } from "./tool-progress.js";
import type { ToolCallProgramOf } from "./tracing.js";

/**
 * One call: the policy's answer (journaled), a person's answer when it asks (a signal), then the
 * call itself (journaled). A question nobody answers in time leaves the call pending.
 */
/** A call as the policy left it: its answer, and the reason it must not run if its tool changed. */
export interface DecidedCall {
  call: ToolCallPart;
  decision: GateEntry;
  changed?: string;
}

/**
 * What a person's answer left of a call: waiting still, or going on (denied, with the reason;
 * `mismatch` when the answer was given for another tool or other arguments).
 */
export type AnsweredCall =
  | { kind: "pending"; pending: PendingToolCall }
  | { kind: "go"; denial?: string; mismatch?: string };

/**
 * One call, start to end: the policy's answer (journaled), a person's answer when it asks (a
 * signal), then the call itself (journaled). A question nobody answers in time leaves it pending.
 */
export async function runCall(parts: {
  calls: StepScope;
  tools: ToolRunner;
  call: ToolCallPart;
  rejection?: string;
  /** The call's turn to ask a person, so a step's questions come in the model's order. */
  turn?: AskTurn;
}): Promise<CallOutcome> {
  let answering: Promise<AnsweredCall>;
  let decided: DecidedCall;
  try {
    decided = await decideCall(parts);
    if (decided.decision.kind === "ask") {
      const listed = await pendingCallOf(parts.calls, decided);
      await parts.turn?.ready;
      // Given the item, it asks (emits) before its first await: the next call may ask after it.
      answering = answerCall(parts.calls, decided, listed);
    } else {
      answering = answerCall(parts.calls, decided);
    }
  } finally {
    parts.turn?.done();
  }
  const answered = await answering;
  if (answered.kind === "pending") return answered;
  return finishCall({
    calls: parts.calls,
    tools: parts.tools,
    decided,
    ...(answered.denial ? { denial: answered.denial } : {}),
    ...(answered.mismatch ? { mismatch: answered.mismatch } : {}),
  });
}

/**
 * A call's turn to ask a person: `ready` settles once every earlier call of the step asked (or
 * knew it would not), and `done()` ends this call's turn. Calls still decide and run at once;
 * only their questions wait for the ones before.
 */
export interface AskTurn {
  ready: Promise<void>;
  done(): void;
}

/** The policy's answer for a call: journaled where a policy decides, so a replay does not ask it again. */
export async function decideCall(parts: {
  calls: StepScope;
  tools: ToolRunner;
  call: ToolCallPart;
  rejection?: string;
  /**
   * A call a program made (code mode). On resume, one the stored state knows neither as pending
   * nor as finished is a new call of the program's run: decided as any new call (one that needs
   * a person asks), not refused as a call the person was never shown.
   */
  nested?: boolean;
}): Promise<DecidedCall> {
  const { calls, tools, call } = parts;
  const changed = calls.plan.changedTools.get(call.name);
  if (parts.rejection !== undefined) {
    return { call, decision: { kind: "refuse", outcome: "invalid-input", message: parts.rejection } };
  }
  if (changed !== undefined) {
    return {
      call,
      decision: { kind: "refuse", outcome: "denied", message: deniedMessage(call.name, changed) },
      changed,
    };
  }
  const guard = calls.run.resumedGuard;
  const resumed =
    guard !== undefined &&
    guard.step === calls.stepNumber &&
    !(parts.nested && !guard.pending.has(call.id) && !guard.finished.has(call.id));
  // A finished call of a resumed step is replayed from its result; nothing decides it again.
  if (resumed && guard.finished.has(call.id)) return { call, decision: { kind: "run" } };
  const context = toolContext(calls, call);
  const key = gateKey(calls.stepNumber, call.id);
  const decision = tools.journalsDecisions
    ? readEntry(
        gateSchema,
        await journaledStep({
          durability: calls.run.durability,
          key,
          signal: calls.controller.signal,
          run: async () => entryValue(await tools.decide(call, context)),
        }),
        key,
      )
    : await tools.decide(call, context);
  const personDenied = resumed ? deniedOnResume(guard, call, decision) : undefined;
  if (personDenied !== undefined) return { call, decision: personDenied };
  const mismatch = resumed ? await recheckOnResume(guard, call, decision) : undefined;
  if (mismatch !== undefined) {
    return {
      call,
      decision: { kind: "refuse", outcome: "denied", message: deniedMessage(call.name, mismatch) },
      changed: mismatch,
    };
  }
  return { call, decision };
}

/**
 * A person's answer, for a call the policy asked about: a signal, waited for as long as the run
 * allows. `listed` is the call as published for approval (computed here when not given); an
 * answer bound to another tool or other arguments than it shows denies the call.
 */
export async function answerCall(
  calls: StepScope,
  decided: DecidedCall,
  listed?: PendingToolCall,
): Promise<AnsweredCall> {
  const { call, decision } = decided;
  if (decision.kind !== "ask") return { kind: "go" };
  // Given on an ordered port, so the waits start in order without an await before them.
  const pending = listed !== undefined ? listed : await pendingCallOf(calls, decided);
  calls.run.listed.set(call.id, pending);
  const name = approvalSignal(calls.stepNumber, call.id);
  const received = await raceAbort(
    waitForApproval({ run: calls.run, name, call, decision, item: pending }),
    calls.controller.signal,
  );
  const answer =
    received === undefined ? undefined : readEntry(approvalAnswerSchema, received, signalKey(name));
  if (answer === undefined) return { kind: "pending", pending };
  const mismatch = answerMismatch(pending, answer);
  if (mismatch !== undefined) return { kind: "go", denial: deniedMessage(call.name, mismatch), mismatch };
  return answer.approved === true
    ? { kind: "go" }
    : { kind: "go", denial: deniedMessage(call.name, answer.reason) };
}

/** A call the policy asked about, as it waits for a person: the validated arguments and the digests a decision is bound to. */
export async function pendingCallOf(calls: StepScope, decided: DecidedCall): Promise<PendingToolCall> {
  const { call, decision } = decided;
  const asked = decision as Extract<GateEntry, { kind: "ask" }>;
  const digest = calls.plan.toolDigests.get(call.name);
  const parent = providerCallParent(call, calls.programCallOf(call)?.sequence);
  return {
    id: call.id,
    name: call.name,
    input: asked.input,
    step: calls.stepNumber,
    ...(asked.reason ? { reason: asked.reason } : {}),
    ...sourceOf(asked),
    ...(digest !== undefined ? { toolDigest: digest } : {}),
    argumentsDigest: await argumentsDigest(asked.input),
    ...(parent ? { parent } : {}),
  };
}

/** The call itself, journaled: run when allowed, else its refusal as the result the model gets. */
export async function finishCall(parts: {
  calls: StepScope;
  tools: ToolRunner;
  decided: DecidedCall;
  denial?: string;
  /** Why the answer did not count (it was bound to another tool or other arguments). */
  mismatch?: string;
  /**
   * A call a program made in Junction's sandbox: its program (and the program call's tool, such
   * as `run_program`), and what it asked for, journaled with its result.
   */
  nested?: { parent: NestedCallOf; program: string; call: { name: string; argumentsDigest: string } };
}): Promise<CallOutcome> {
  const { calls, tools, denial, mismatch, nested } = parts;
  const { call, decision, changed } = parts.decided;
  const { durability } = calls.run;
  let live = false;
  const key = toolKey(calls.stepNumber, call.id);
  const journaled = await journaledStep({
    durability,
    key,
    signal: calls.controller.signal,
    run: async () => {
      live = true;
      if (changed !== undefined) {
        calls.warn({
          code: "run-state-mismatch",
          message: `The call "${call.id}" was not run on resume: ${changed}.`,
        });
      }
      if (mismatch !== undefined) {
        calls.warn({
          code: "run-state-mismatch",
          message: `The call "${call.id}" was not run: ${mismatch}.`,
        });
      }
      const entry =
        decision.kind === "refuse"
          ? toEntry(
              {
                kind: "error",
                outcome: decision.outcome,
                message: decision.message,
                durationMs: 0,
                ...sourceOf(decision),
              },
              { calls, call },
            )
          : denial !== undefined
            ? toEntry({ kind: "error", outcome: "denied", message: denial, durationMs: 0 }, { calls, call })
            : await executeCall({ calls, tools, call, program: programOfCall({ calls, call, nested }) });
      return entryValue(nested ? { ...entry, call: nested.call } : entry);
    },
  });
  // A call run here gets back the entry it just made (as JSON); one from the journal is checked.
  const entry = live ? (journaled as unknown as ToolCallEntry) : readEntry(toolCallSchema, journaled, key);
  tools.settled?.(call, entry.outcome, calls.plan);
  // Recorded before the step goes on: a failure or crash after this never runs the call again.
  if (live && calls.run.callFinished) await calls.run.callFinished();
  if (live) {
    const parent = nested?.parent ?? calls.programCallOf(call);
    calls.run.emit({
      type: "tool-result",
      id: call.id,
      name: call.name,
      result: toToolResult(entry.output),
      durationMs: entry.durationMs,
      outcome: entry.outcome as ToolCallOutcome,
      ...(parent ? { parent } : {}),
    });
  }
  return {
    kind: "result",
    part: { type: "tool-result", toolCallId: call.id, toolName: call.name, output: entry.output },
    outcome: entry.outcome,
    ...(entry.call ? { call: entry.call } : {}),
  };
}

/** Surfaces the question as an event whose answer is a signal, and waits for that signal. */
function waitForApproval(parts: {
  run: RunForCalls;
  name: string;
  call: ToolCallPart;
  decision: Extract<GateEntry, { kind: "ask" }>;
  item: PendingToolCall;
}): Promise<JSONValue | undefined> {
  const { run, name, call, decision, item } = parts;
  const received = run.durability.receivedSignal?.(name);
  if (received !== undefined) return Promise.resolve(received);
  const deliver = (answer: ApprovalAnswer) => {
    if (!run.durability.deliverSignal) {
      throw new JunctionError(
        "invalid-argument",
        `This run's approvals come from its durable engine, not from the event: send the signal "${name}" to run "${run.durability.runId}" with the engine's client.`,
      );
    }
    run.durability.deliverSignal(name, answer);
  };
  run.emit({
    type: "tool-approval-request",
    id: call.id,
    name: call.name,
    input: decision.input,
    signal: name,
    ...(decision.reason ? { reason: decision.reason } : {}),
    item,
    approve: () => deliver({ approved: true }),
    deny: (reason?: string) => deliver({ approved: false, ...(reason ? { reason } : {}) }),
  });
  const timeoutMs = run.approvalTimeoutMs();
  return run.durability.waitForSignal(name, timeoutMs === undefined ? {} : { timeoutMs });
}

/** What a call's policy and tool get; `onProgress` is executeCall's (a decision reports none). */
function toolContext(
  calls: StepScope,
  call: ToolCallPart,
  onProgress: ToolExecutorContext["onProgress"] = () => undefined,
): ToolExecutorContext {
  return {
    idempotencyKey: idempotencyKey(calls.run.durability, toolKey(calls.stepNumber, call.id)),
    signal: calls.controller.signal,
    step: calls.stepNumber,
    plan: calls.plan,
    warn: calls.warn,
    emit: calls.run.emit,
    limit: (task) => calls.limit.run(task),
    onProgress,
  };
}

/**
 * Runs an allowed call, with progress reports, under its span (reported to the run's spans, so an
 * MCP request made inside carries the call's trace context); an abort throws, anything else is an
 * error result.
 */
async function executeCall(parts: {
  calls: StepScope;
  tools: ToolRunner;
  call: ToolCallPart;
  /** A program's call (code mode): the program, for the call's span. */
  program: ToolCallProgramOf | undefined;
}): Promise<ToolCallEntry> {
  const { calls, tools, call, program } = parts;
  const { run, stepNumber } = calls;
  run.spans.note({
    type: "tool-execute-start",
    id: call.id,
    name: call.name,
    step: stepNumber,
    ...(program ? { program } : {}),
  });
  const progress = new ToolProgressReporter({ call, emit: run.emit, warn: calls.warn });
  const context = toolContext(calls, call, (report) => progress.report(report));
  try {
    const execution = await run.spans.within({ kind: "tool-call", id: call.id }, () =>
      tools.execute({ id: call.id, name: call.name, input: call.input }, context),
    );
    return executed(toEntry(execution, { calls, call }), parts);
  } catch (error) {
    if (calls.controller.signal.aborted) {
      const failure = abortError(calls.controller.signal);
      run.spans.note({ type: "tool-execute-abort", id: call.id, error: failure });
      throw failure;
    }
    const failed: ToolCallExecution = {
      kind: "error",
      message: `Tool "${call.name}" failed: ${toError(error).message}`,
      outcome: "error",
      durationMs: 0,
    };
    return executed(toEntry(failed, { calls, call }), parts);
  } finally {
    // The result (or the abort) supersedes a report still waiting; none is emitted after it.
    progress.close();
  }
}

/**
 * The program that made a call, for its span: the sandbox's program of a nested call, or the
 * vendor's program a call's part names (numbered by the step as it started). Undefined for the
 * model's own call.
 */
function programOfCall(parts: {
  calls: StepScope;
  call: ToolCallPart;
  nested: { parent: NestedCallOf; program: string } | undefined;
}): ToolCallProgramOf | undefined {
  const { calls, call, nested } = parts;
  if (nested) return { ...nested.parent, name: nested.program, runtime: "sandbox" };
  const of = calls.programCallOf(call);
  if (!of || !call.program) return undefined;
  return { id: of.id, sequence: of.sequence, name: call.program.runtime, runtime: "provider" };
}

/** Ends the span `executeCall` opened for the call, with how it went; `entry` passes through. */
function executed(entry: ToolCallEntry, parts: { calls: StepScope; call: ToolCallPart }): ToolCallEntry {
  const { calls, call } = parts;
  calls.run.spans.note({
    type: "tool-execute-end",
    id: call.id,
    outcome: entry.outcome as ToolCallOutcome,
    ...(entry.source !== undefined ? { server: entry.source } : {}),
    durationMs: entry.durationMs,
    ...(entry.outcome === "success"
      ? {}
      : { statusMessage: firstText(toToolResult(entry.output)) || entry.outcome }),
  });
  return entry;
}

/** A finished call as it is journaled: the model-facing output, normalised and within its limits. */
function toEntry(
  execution: ToolCallExecution,
  parts: { calls: StepScope; call: ToolCallPart },
): ToolCallEntry {
  const { calls, call } = parts;
  const maxChars = calls.run.maxToolOutputChars;
  let output: string | ToolResult;
  let outcome: string;
  if (execution.kind === "output") {
    const normalized = normalizeToolOutput(execution.value, call.name);
    for (const warning of normalized.warnings) calls.warn(warning);
    const limited = limitStructuredContent(normalized.output, maxChars, call.name);
    if (limited.warning) calls.warn(limited.warning);
    const truncated = truncateToolOutput(limited.output, maxChars, call.name);
    if (truncated.warning) calls.warn(truncated.warning);
    output = truncated.output;
    outcome = typeof output !== "string" && output.isError ? "error" : "success";
  } else {
    output = { content: [{ type: "text", text: execution.message }], isError: true };
    outcome = execution.outcome;
  }
  return {
    output,
    durationMs: execution.durationMs,
    outcome,
    ...(execution.source !== undefined ? { source: execution.source } : {}),
  };
}

function sourceOf(decision: { source?: string }): { source?: string } {
  return decision.source !== undefined ? { source: decision.source } : {};
}

function firstText(result: ToolResult): string {
  const part = result.content.find((p) => p.type === "text");
  return part?.type === "text" ? part.text : "";
}

/** Any thrown value as an `Error`. */
export function toError(error: unknown): Error {
  return error instanceof Error ? error : new JunctionError("tool-execution-failed", String(error));
}
