import type { JSONValue, SandboxCallError, SandboxOutcome, ToolCallPart, ToolResult } from "@junction/types";
import { abortError, raceAbort } from "../abort.js";
import type { PendingToolCall } from "../agent-events.js";
import type { ProgramSpec } from "../core-tool.js";
import { InMemoryDurability } from "../durability.js";
import { argumentsDigest } from "../run-digests.js";
import {
  approvalSignal,
  entryValue,
  nestedCallId,
  programKey,
  programSchema,
  readEntry,
  toolCallSchema,
  toolKey,
} from "../run-journal.js";
import { answerCall, decideCall, finishCall, pendingCallOf } from "../run-tool-call.js";
import type { CallOutcome, StepPlan, StepScope, ToolRunner } from "../run-types.js";
import { journaledStep } from "../step-failure.js";
import { toToolResult } from "../tool-output.js";
import { programResult } from "./program-result.js";
import { programSource } from "./sandbox-parent.js";

/**
 * A call of the program tool (code mode): the program runs in the sandbox, and every call it
 * makes is a call of the step like any other (validated, decided by the policy and the
 * exfiltration guard, journaled, reported), under the id `<program call id>.<sequence>`.
 *
 * A call that needs a person pauses the run, not the sandbox: the program is stopped, the calls
 * it already started finish (and are journaled), and once every question is answered the program
 * runs again from its start against the journal: finished calls are served from it (never sent
 * again), the answered one runs once, and the program goes on. The program's clock and seed are
 * journaled, and the sandbox delivers results in issue order, so every run of it makes the same
 * calls; one that asks for another call than the journal holds ends with "replay diverged". A
 * question nobody answers in time ends the run with the call in `pending`, its program with it;
 * `resume()` runs the program again in the same way, in any process.
 */
export async function runProgram(parts: {
  calls: StepScope;
  tools: ToolRunner;
  call: ToolCallPart;
  program: ProgramSpec;
}): Promise<CallOutcome> {
  const { calls, call } = parts;
  const key = toolKey(calls.stepNumber, call.id);
  const source = programSource(call.input);
  if (source === undefined) {
    return finishProgram(parts, {
      output: errorResult(
        'The program tool takes { "code": "<JavaScript>" }: the body of an async function that awaits tool calls and returns its answer.',
      ),
      outcome: "invalid-input",
      durationMs: 0,
    });
  }
  // A program whose result is in a stored run's journal is not run again (an engine's replay, which
  // matches its operations by order, runs it again: every call is served from the journal).
  if (
    calls.run.durability instanceof InMemoryDurability &&
    Object.hasOwn(calls.run.durability.journal, key)
  ) {
    return finishProgram(parts, undefined);
  }
  const fixed = readEntry(
    programSchema,
    await journaledStep({
      durability: calls.run.durability,
      key: programKey(calls.stepNumber, call.id),
      signal: calls.controller.signal,
      run: async () =>
        entryValue({
          clockMs: Date.now(),
          seed: globalThis.crypto.getRandomValues(new Uint32Array(1))[0]! >>> 1,
        }),
    }),
    programKey(calls.stepNumber, call.id),
  );
  const started = performance.now();
  const nested = new NestedCalls({ ...parts, source });
  const { spans } = calls.run;
  spans.note({ type: "tool-execute-start", id: call.id, name: call.name, step: calls.stepNumber });
  try {
    return await runAttempts({ ...parts, source, fixed, nested, started });
  } catch (error) {
    spans.note({ type: "tool-execute-abort", id: call.id, error: error as Error });
    throw error;
  }
}

/** Runs the program until it ends, or until a call of it waits for a person nobody answers in time. */
async function runAttempts(parts: {
  calls: StepScope;
  tools: ToolRunner;
  call: ToolCallPart;
  program: ProgramSpec;
  source: string;
  fixed: { clockMs: number; seed: number };
  nested: NestedCalls;
  started: number;
}): Promise<CallOutcome> {
  const { calls, tools, call, program, source, fixed, nested, started } = parts;
  const { spans } = calls.run;
  // Each run either ends the program or stops at a question; once that is answered, it runs again.
  for (let attempt = 0; ; attempt++) {
    // The sandbox runs with the program's span current, so what its calls start nests under the
    // program for a tracer that reads the active context as well as one that takes core's parent.
    const outcome = await nested.attempt((signal) =>
      spans.within({ kind: "tool-call", id: call.id }, () =>
        program.sandbox.run({
          source,
          functions: [...program.functions.keys()],
          call: (name, args, sequence) => nested.call(name, args, sequence),
          clockMs: fixed.clockMs,
          seed: fixed.seed,
          ...(program.limits ? { limits: program.limits } : {}),
          signal,
        }),
      ),
    );
    if (calls.controller.signal.aborted) throw abortError(calls.controller.signal);
    const waiting = nested.pending();
    if (waiting.length > 0) {
      spans.note({
        type: "tool-execute-end",
        id: call.id,
        outcome: "pending",
        durationMs: performance.now() - started,
      });
      return {
        kind: "pending",
        pending: waiting[0]!,
        ...(waiting.length > 1 ? { more: waiting.slice(1) } : {}),
      };
    }
    if (outcome.kind === "aborted" && !nested.diverged && attempt <= nested.size) continue;
    if (nested.readPrivate) tools.privacy?.record(call.id);
    const result = {
      output: programResult({ outcome, calls: nested.summary(), diverged: nested.diverged }),
      outcome: outcome.kind === "returned" && !nested.diverged ? "success" : "error",
      durationMs: performance.now() - started,
    };
    spans.note({
      type: "tool-execute-end",
      id: call.id,
      outcome: result.outcome === "success" ? "success" : "error",
      durationMs: result.durationMs,
      ...(result.outcome === "error"
        ? { statusMessage: `the program ${outcome.kind === "returned" ? "diverged" : outcome.kind}` }
        : {}),
    });
    return finishProgram({ calls, tools, call }, result);
  }
}

/** The program call's result, journaled (a replay gets it back), reported, and handed to the step. */
async function finishProgram(
  parts: { calls: StepScope; tools: ToolRunner; call: ToolCallPart },
  result: { output: ToolResult; outcome: string; durationMs: number } | undefined,
): Promise<CallOutcome> {
  const { calls, tools, call } = parts;
  const key = toolKey(calls.stepNumber, call.id);
  let live = false;
  const journaled = await journaledStep({
    durability: calls.run.durability,
    key,
    signal: calls.controller.signal,
    run: async () => {
      live = true;
      const entry = result ?? {
        output: errorResult("The program left no result."),
        outcome: "error",
        durationMs: 0,
      };
      return entryValue(entry);
    },
  });
  const entry = readEntry(toolCallSchema, journaled, key);
  tools.settled?.(call, entry.outcome, calls.plan);
  if (live && calls.run.callFinished) await calls.run.callFinished();
  if (live) {
    calls.run.emit({
      type: "tool-result",
      id: call.id,
      name: call.name,
      result: toToolResult(entry.output),
      durationMs: entry.durationMs,
      outcome: entry.outcome === "success" ? "success" : "error",
    });
  }
  return {
    kind: "result",
    part: { type: "tool-result", toolCallId: call.id, toolName: call.name, output: entry.output },
    outcome: entry.outcome,
  };
}

/** How one of the program's calls ended, as the program gets it. */
type NestedResult =
  | { kind: "value"; value: JSONValue }
  | { kind: "error"; error: SandboxCallError }
  | { kind: "pending"; pending: PendingToolCall };

interface NestedCall {
  sequence: number;
  name: string;
  argumentsDigest: Promise<string>;
  result: Promise<NestedResult>;
  /** The result once it settled, for the summary. */
  settled?: NestedResult;
}

/** What a program's calls are, one program call long: each started once, whatever number of runs the program takes. */
class NestedCalls {
  readonly #calls = new Map<number, NestedCall>();
  readonly #parts: {
    calls: StepScope;
    tools: ToolRunner;
    call: ToolCallPart;
    program: ProgramSpec;
    source: string;
  };
  /** Stops the program's current run: a call asks a person. */
  #pause: (() => void) | undefined;
  /** Calls on an ordered port run one after the other, in issue order (the engine matches them by order). */
  #queue: Promise<unknown> = Promise.resolve();
  /**
   * The tools whose result is private data (a closed-world tool's) that the program called, each
   * with the first call's sequence, in that order: what a later call's exfiltration check sees.
   */
  readonly #privateReads = new Map<string, number>();
  /** The last scope `#scopeFor` made, by the private reads it adds: most calls share it. */
  #lastScope: { names: string[]; scope: StepScope } | undefined;
  /** Why a run of the program asked for another call than the journal holds. */
  diverged: string | undefined;
  /** Whether a call of the program read private data (a closed-world tool's result). */
  readPrivate = false;

  constructor(parts: {
    calls: StepScope;
    tools: ToolRunner;
    call: ToolCallPart;
    program: ProgramSpec;
    source: string;
  }) {
    this.#parts = parts;
  }

  get size(): number {
    return this.#calls.size;
  }

  /** One run of the program; it ends (aborted) as soon as one of its calls asks a person. */
  async attempt(run: (signal: AbortSignal) => Promise<SandboxOutcome>): Promise<SandboxOutcome> {
    const controller = new AbortController();
    const stepSignal = this.#parts.calls.controller.signal;
    const stop = () => controller.abort(stepSignal.reason);
    stepSignal.addEventListener("abort", stop, { once: true });
    this.#pause = () => controller.abort();
    try {
      const outcome = await run(controller.signal);
      // Whatever the program left running (a call it never awaited, one that waits for a person)
      // finishes before the program call does: nothing outlives it, and its result is journaled.
      await raceAbort(Promise.allSettled([...this.#calls.values()].map((entry) => entry.result)), stepSignal);
      return outcome;
    } finally {
      this.#pause = undefined;
      stepSignal.removeEventListener("abort", stop);
    }
  }

  /** The calls that wait for a person after a run, in the program's order. */
  pending(): PendingToolCall[] {
    return [...this.#calls.values()]
      .sort((a, b) => a.sequence - b.sequence)
      .flatMap((entry) => (entry.settled?.kind === "pending" ? [entry.settled.pending] : []));
  }

  summary(): { sequence: number; name: string; outcome: string }[] {
    return [...this.#calls.values()]
      .sort((a, b) => a.sequence - b.sequence)
      .map((entry) => ({
        sequence: entry.sequence,
        name: entry.name,
        outcome:
          entry.settled?.kind === "value"
            ? "success"
            : entry.settled?.kind === "error"
              ? entry.settled.error.code
              : "pending",
      }));
  }

  /**
   * The sandbox's host call: the program's `sequence`-th call, started once, its result the same
   * in every run. Registered before its first `await`, so calls start (and are reported, and
   * queue on an ordered port) in the order the program issued them.
   */
  async call(guestName: string, args: JSONValue, sequence: number): Promise<JSONValue> {
    const name = this.#parts.program.functions.get(guestName);
    if (name === undefined)
      throw callError("not-found", `There is no tool "${guestName}" a program can call.`);
    let entry = this.#calls.get(sequence);
    if (entry) {
      const before = entry;
      if (before.name !== name || (await before.argumentsDigest) !== (await argumentsDigest(args))) {
        throw this.#diverge(
          sequence,
          `the program asked for ${name} where its earlier run asked for ${before.name} with other arguments`,
        );
      }
    } else {
      // Its result is set at once, below: the call's run needs the entry.
      const started = { sequence, name, argumentsDigest: argumentsDigest(args) } as NestedCall;
      started.result = this.#run(started, args).then((result) => {
        started.settled = result;
        return result;
      });
      this.#calls.set(sequence, started);
      this.#notePrivateRead(name, sequence);
      entry = started;
    }
    const result = await entry.result;
    if (result.kind === "value") return result.value;
    if (result.kind === "error") throw result.error;
    // Waiting for a person: the program's run is being stopped; this never reaches it.
    return new Promise<never>(() => undefined);
  }

  #diverge(sequence: number, detail: string): SandboxCallError {
    this.diverged ??= `replay diverged at call ${sequence}: ${detail}`;
    this.#pause?.();
    return callError("replay-diverged", this.diverged);
  }

  #run(entry: NestedCall, args: JSONValue): Promise<NestedResult> {
    if (!this.#parts.calls.run.durability.ordered) return this.#runCall(entry, args);
    const turn = this.#queue.then(() => this.#runCall(entry, args));
    this.#queue = turn.catch(() => undefined);
    return turn;
  }

  /** One call of the program, as the step runs any call: decided, asked, run, journaled. */
  async #runCall(entry: NestedCall, args: JSONValue): Promise<NestedResult> {
    const { calls, tools, call: parent, source } = this.#parts;
    const part: ToolCallPart = {
      type: "tool-call",
      id: nestedCallId(parent.id, entry.sequence),
      name: entry.name,
      input: args,
    };
    const scope = this.#scopeFor(entry.sequence);
    const of = { id: parent.id, sequence: entry.sequence };
    const resumed = calls.run.resumedGuard;
    const replayed = resumed?.step === calls.stepNumber && resumed.finished.has(part.id);
    if (!replayed)
      calls.run.emit({
        type: "tool-call",
        id: part.id,
        name: part.name,
        input: args,
        parent: of,
      });
    const digest = await entry.argumentsDigest;
    const decided = await decideCall({ calls: scope, tools, call: part, nested: true });
    let answered: Awaited<ReturnType<typeof answerCall>>;
    if (decided.decision.kind === "ask") {
      const listed: PendingToolCall = {
        ...(await pendingCallOf(scope, decided)),
        parent: { id: parent.id, name: parent.name, sequence: entry.sequence, program: source },
      };
      // Unless the answer is in already (a resumed run's decision, a run again after an answer),
      // the program stops here; it runs again once every question of this run is answered.
      if (calls.run.durability.receivedSignal?.(approvalSignal(calls.stepNumber, part.id)) === undefined)
        this.#pause?.();
      const publish = calls.run.durability.ordered
        ? calls.run.durability.publishPending?.bind(calls.run.durability)
        : undefined;
      if (publish) await raceAbort(publish([listed]), calls.controller.signal);
      answered = await answerCall(scope, decided, listed);
      if (publish) await raceAbort(publish([]), calls.controller.signal);
      if (answered.kind === "pending") return { kind: "pending", pending: listed };
    } else {
      // Nothing to ask: the call goes on as decided.
      answered = { kind: "go" };
    }
    const outcome = await finishCall({
      calls: scope,
      tools,
      decided,
      ...(answered.denial ? { denial: answered.denial } : {}),
      ...(answered.mismatch ? { mismatch: answered.mismatch } : {}),
      nested: { parent: of, program: parent.name, call: { name: entry.name, argumentsDigest: digest } },
    });
    if (outcome.kind !== "result")
      return { kind: "error", error: callError("error", "The call did not finish.") };
    const recorded = outcome.call;
    if (recorded && (recorded.name !== entry.name || recorded.argumentsDigest !== digest)) {
      return {
        kind: "error",
        error: this.#diverge(
          entry.sequence,
          `the journal holds a call to ${recorded.name} with other arguments under this number`,
        ),
      };
    }
    if (outcome.outcome === "success" && tools.privacy?.reads(entry.name, calls.plan))
      this.readPrivate = true;
    return guestResult(outcome.part.output, outcome.outcome ?? "success");
  }

  /**
   * The step as a call of the program sees it: the private data the conversation holds, and what
   * the program's earlier calls read (the model never saw it, but the program did, and may pass it on).
   */
  #scopeFor(sequence: number): StepScope {
    const { calls } = this.#parts;
    const earlier: string[] = [];
    for (const [name, first] of this.#privateReads) if (first < sequence) earlier.push(name);
    if (earlier.length === 0) return calls;
    const last = this.#lastScope;
    if (last?.names.length === earlier.length && last.names.every((name, index) => name === earlier[index]))
      return last.scope;
    const plan: StepPlan = {
      ...calls.plan,
      privateDataFrom: [...new Set([...calls.plan.privateDataFrom, ...earlier])],
    };
    const scope: StepScope = {
      run: calls.run,
      stepNumber: calls.stepNumber,
      controller: calls.controller,
      limit: calls.limit,
      plan,
      warn: (warning) => calls.warn(warning),
      programCallOf: (call) => calls.programCallOf(call),
    };
    this.#lastScope = { names: earlier, scope };
    return scope;
  }

  /**
   * Notes a new call, `sequence` of `name`, when its result is private data (for `#scopeFor`).
   * Calls are registered in the order the program issues them, so a tool's first is its earliest.
   */
  #notePrivateRead(name: string, sequence: number): void {
    const { calls, tools } = this.#parts;
    if (this.#privateReads.has(name)) return;
    if (tools.privacy?.reads(name, calls.plan)) this.#privateReads.set(name, sequence);
  }
}

/** A call's journaled result as the program gets it: structured content, else the text, else the parts; a failure throws. */
function guestResult(output: string | ToolResult, outcome: string): NestedResult {
  if (typeof output === "string") {
    return outcome === "success"
      ? { kind: "value", value: output }
      : { kind: "error", error: callError(outcome, output) };
  }
  const text = output.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
  if (outcome !== "success" || output.isError) {
    return {
      kind: "error",
      error: callError(outcome === "success" ? "error" : outcome, text || "The tool failed."),
    };
  }
  if (output.structuredContent !== undefined)
    return { kind: "value", value: output.structuredContent as JSONValue };
  if (output.content.every((part) => part.type === "text")) return { kind: "value", value: text };
  return { kind: "value", value: output.content as unknown as JSONValue };
}

function callError(code: string, message: string): SandboxCallError {
  return { code, message };
}

function errorResult(text: string): ToolResult {
  return { content: [{ type: "text", text }], isError: true };
}
