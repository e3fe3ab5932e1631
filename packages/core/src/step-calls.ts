import type { Message, ToolCallPart, Warning } from "@junction/types";
import { raceAbort } from "./abort.js";
import type { NestedCallOf, PendingToolCall } from "./agent-events.js";
import { ProgramCallSequences } from "./code-mode/provider-program.js";
import { runProgram } from "./code-mode/run-program.js";
import { ConcurrencyLimit } from "./concurrency-limit.js";
import {
  type AskTurn,
  answerCall,
  type DecidedCall,
  decideCall,
  finishCall,
  pendingCallOf,
  runCall,
} from "./run-tool-call.js";
import type { CallOutcome, RunForCalls, StepPlan, StepScope, ToolRunner } from "./run-types.js";
import type { StructuredOutput } from "./structured-output.js";
import type { RequestSize } from "./token-estimate.js";

/** The calls of one step, each started once, under the step's own tool controller. */
export class StepCalls implements StepScope {
  readonly started = new Map<string, { call: ToolCallPart; outcome: Promise<CallOutcome> }>();
  readonly limit: ConcurrencyLimit;
  readonly controller = new AbortController();
  readonly stepNumber: number;
  /** The step's calls a vendor's program made, numbered by program as they start. */
  readonly #programCalls: ProgramCallSequences;
  /** The size of the step's model request, when it was sent live (not replayed). */
  request: RequestSize | undefined;

  readonly run: RunForCalls;
  readonly plan: StepPlan;
  readonly warnings: StepWarnings;
  /** The run's tools (none: the model's calls are only reported). */
  readonly #runner: ToolRunner | undefined;
  /** The run's structured answer, whose answer tool is not a real tool. */
  readonly #output: StructuredOutput | undefined;

  constructor(parts: {
    run: RunForCalls;
    plan: StepPlan;
    warnings: StepWarnings;
    runner: ToolRunner | undefined;
    output: StructuredOutput | undefined;
    toolConcurrency: number;
    /** The conversation before the step: where a vendor's program's earlier calls are counted. */
    conversation: () => readonly Message[];
  }) {
    this.#programCalls = new ProgramCallSequences(parts.conversation);
    this.run = parts.run;
    this.plan = parts.plan;
    this.warnings = parts.warnings;
    this.#runner = parts.runner;
    this.#output = parts.output;
    this.stepNumber = parts.plan.step;
    this.limit = new ConcurrencyLimit(parts.toolConcurrency);
  }

  warn = (warning: Warning): void => this.warnings.warn(warning);

  programCallOf = (call: ToolCallPart): NestedCallOf | undefined => this.#programCalls.of(call.id);

  /** The turn to ask a person of the call started last: the next call asks after it. */
  #lastTurn: Promise<void> = Promise.resolve();

  /** The next call's turn to ask, in the order calls start (the model's). */
  #nextTurn(): AskTurn {
    const ready = this.#lastTurn;
    let done!: () => void;
    const mine = new Promise<void>((resolve) => {
      done = resolve;
    });
    // A turn ends once this call asked and every earlier one did.
    this.#lastTurn = Promise.all([ready, mine]).then(() => undefined);
    return { ready, done };
  }

  /** Calls the stream rejected (arguments too deep to use), by id, with why: for an ordered start. */
  readonly #rejections = new Map<string, string>();

  /**
   * Starts `call` (emitting `tool-call` when it comes from the live stream); with `rejection`, it
   * fails with that message. On an ordered port it only notes the call: `startInOrder` starts the
   * step's calls once the model step is journaled.
   */
  start(call: ToolCallPart, options: { rejection?: string; live: boolean }): void {
    const output = this.#output;
    if (output?.isAnswerCall(call)) {
      // The answer tool is not a real tool: its input is checked, and the result says how it went.
      if (!this.started.has(call.id))
        this.#track(call, Promise.resolve({ kind: "result", part: output.answerResult(call) }));
      return;
    }
    // A vendor's program's call: numbered in the model's order, reported with its program.
    const parent = this.#programCalls.note(call);
    if (options.live)
      this.run.emit({
        type: "tool-call",
        id: call.id,
        name: call.name,
        input: call.input,
        ...(parent ? { parent } : {}),
        ...(call.program ? { program: call.program } : {}),
      });
    const tools = this.#runner;
    if (!tools || this.started.has(call.id)) return;
    const program = options.rejection === undefined ? this.plan.coreTools.get(call.name)?.program : undefined;
    if (program && !this.run.durability.ordered) {
      this.#track(call, runProgram({ calls: this, tools, call, program }));
      return;
    }
    if (this.run.durability.ordered) {
      if (options.rejection !== undefined) this.#rejections.set(call.id, options.rejection);
      return;
    }
    this.#track(
      call,
      runCall({
        calls: this,
        tools,
        call,
        turn: this.#nextTurn(),
        ...(options.rejection ? { rejection: options.rejection } : {}),
      }),
    );
  }

  /**
   * Starts a step's calls on an ordered port, in the model's order and in phases: each policy
   * answer (journaled) one after the other, then every approval wait, then every call.
   */
  startInOrder(toolCalls: ToolCallPart[]): void {
    const tools = this.#runner;
    if (!tools) return;
    // Answer-tool calls were settled in `start`. Programs run once the step's other calls are done,
    // one after the other: their calls are then the engine's next operations, in a fixed order.
    const isProgram = (call: ToolCallPart) =>
      !this.#rejections.has(call.id) && this.plan.coreTools.get(call.name)?.program !== undefined;
    const programs = toolCalls.filter((call) => !this.started.has(call.id) && isProgram(call));
    const realCalls = toolCalls.filter((call) => !this.started.has(call.id) && !isProgram(call));
    const phases = (async () => {
      const decided: DecidedCall[] = [];
      for (const call of realCalls) {
        const rejection = this.#rejections.get(call.id);
        decided.push(
          await decideCall({ calls: this, tools, call, ...(rejection !== undefined ? { rejection } : {}) }),
        );
      }
      // What waits for a person, as data: published before the waits, cleared once they are answered.
      const listed = await Promise.all(
        decided.map((entry) => (entry.decision.kind === "ask" ? pendingCallOf(this, entry) : undefined)),
      );
      const waiting = listed.filter((item): item is PendingToolCall => item !== undefined);
      const publish =
        waiting.length > 0 ? this.run.durability.publishPending?.bind(this.run.durability) : undefined;
      if (publish) await raceAbort(publish(waiting), this.controller.signal);
      // Started in order (each begins its wait before the next), then awaited together.
      const answered = await Promise.all(
        decided.map((entry, index) => answerCall(this, entry, listed[index])),
      );
      if (publish) await raceAbort(publish([]), this.controller.signal);
      return decided.map((entry, index): Promise<CallOutcome> => {
        const answer = answered[index]!;
        if (answer.kind === "pending") return Promise.resolve(answer);
        return finishCall({
          calls: this,
          tools,
          decided: entry,
          ...(answer.denial ? { denial: answer.denial } : {}),
          ...(answer.mismatch ? { mismatch: answer.mismatch } : {}),
        });
      });
    })();
    realCalls.forEach((call, index) => {
      this.#track(
        call,
        phases.then((outcomes) => outcomes[index]!),
      );
    });
    if (programs.length === 0) return;
    // A failed phase (an abort) fails the programs too; each is tracked, so none goes unhandled.
    let previous: Promise<unknown> = phases.then((outcomes) => Promise.allSettled(outcomes));
    for (const call of programs) {
      const program = this.plan.coreTools.get(call.name)!.program!;
      const outcome = previous.then(() => runProgram({ calls: this, tools, call, program }));
      previous = outcome.catch(() => undefined);
      this.#track(call, outcome);
    }
  }

  #track(call: ToolCallPart, outcome: Promise<CallOutcome>): void {
    // Rejections (aborts) are read below; this keeps an early one from counting as unhandled.
    outcome.catch(() => undefined);
    this.started.set(call.id, { call, outcome });
  }

  async settleAll(): Promise<void> {
    await Promise.allSettled([...this.started.values()].map((entry) => entry.outcome));
  }
}

/** A step's warnings: each goes to the run's (`toRun`) as well. */
export class StepWarnings {
  readonly list: Warning[] = [];
  constructor(readonly toRun: (warning: Warning) => void) {}
  warn = (warning: Warning): void => {
    this.list.push(warning);
    this.toRun(warning);
  };
}
