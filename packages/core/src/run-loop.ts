import {
  type AssistantContentPart,
  createAbortError,
  JunctionError,
  type Message,
  type ModelRequest,
  ProviderError,
  type ToolCallPart,
  type ToolDefinition,
  type ToolResultMessagePart,
  type Usage,
  type Warning,
} from "@junction/types";
import { abortError, raceAbort } from "./abort.js";
import type { AgentFinishReason, PendingToolCall, Step } from "./agent-events.js";
import { READ_TOOL_RESULT } from "./core-tool.js";
import { InMemoryDurability } from "./durability.js";
import { assistantContent, consumeModelStream } from "./model-stream.js";
import { requestSizeOf, stepTools } from "./run-budget.js";
import { withCoreTools } from "./run-core-tools.js";
import {
  entryValue,
  type ModelTurnEntry,
  modelKey,
  modelTurnSchema,
  readEntry,
  toolSnapshotsSchema,
  toolsKey,
} from "./run-journal.js";
import { RunSpans } from "./run-spans.js";
import { toolChanges } from "./run-state.js";
import { toError } from "./run-tool-call.js";
import type {
  CallOutcome,
  Run,
  RunForCalls,
  RunLoopEnd,
  RunLoopOptions,
  RunLoopResult,
  StepPlan,
  StepTools,
} from "./run-types.js";
import { StepCalls, StepWarnings } from "./step-calls.js";
import { journaledStep } from "./step-failure.js";
import { type RequestSize, RequestSizeFold } from "./token-estimate.js";
import { StepToolCalls, ToolCallIds } from "./tool-call-ids.js";
import { ToolInputStream } from "./tool-input-stream.js";
import { DEFAULT_MAX_TOOL_OUTPUT_CHARS } from "./tool-output.js";
import { ModelViewFolds, messagesWithinBudget } from "./tool-result-budget.js";
import type { TraceCarrier } from "./trace-carrier.js";
import { addUsage, emptyUsage, readUsage } from "./usage.js";

/** How one step ended. */
type StepOutcome =
  | { kind: "done"; step: Step; request?: RequestSize }
  | { kind: "interrupted"; pending: PendingToolCall[]; usage: Usage };

/**
 * The tool loop. Streams model turns; starts each tool call as soon as its arguments are
 * complete (eager execution), bounded by `toolConcurrency`; feeds results back in the model's
 * order; stops when the model stops calling tools, at `maxSteps`, or when a call waits for an
 * approval nobody gave (`approval-required`). Every model turn and tool call goes through the
 * durability port, so a replay of the run with the same journal does not repeat them.
 */
export async function runLoop(given: RunLoopOptions): Promise<RunLoopEnd> {
  const warnings: Warning[] = [];
  const run = openRun(given, warnings);
  const { options, controller } = run;
  // What the run committed, after the conversation it started from: how it ended carries it.
  const added = () => run.conversation.slice(options.history.length);
  const onAbort = () => controller.abort(options.signal?.reason);
  if (options.signal?.aborted) onAbort();
  options.signal?.addEventListener("abort", onAbort, { once: true });
  for (const warning of options.resumed?.warnings ?? []) run.warn(warning);
  try {
    const result = await runSteps(run, warnings);
    options.sink.emit({ type: "finish", reason: result.finishReason, usage: result.usage });
    return { result, added: added() };
  } catch (caught) {
    const error =
      controller.signal.aborted && !isFailure(caught) ? abortError(controller.signal) : toError(caught);
    controller.abort(error);
    options.sink.emit({ type: "error", error });
    return { error, added: added() };
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
  }
}

/** The run's steps, one after another, to how the run ended: its result (the `finish` event is the caller's). */
async function runSteps(run: Run, warnings: Warning[]): Promise<RunLoopResult> {
  const { options } = run;
  const steps: Step[] = [];
  let usage = options.resumed?.usageBefore ?? emptyUsage();
  for (let stepNumber = options.resumed?.firstStep ?? 1; ; stepNumber++) {
    throwIfAborted(run.controller.signal);
    const outcome = await runStep(run, { stepNumber, usageBefore: usage });
    const ran = { text: steps.at(-1)?.text ?? "", steps, warnings };
    if (outcome.kind === "interrupted") {
      return {
        ...ran,
        usage: addUsage(usage, outcome.usage),
        finishReason: "approval-required",
        pending: outcome.pending,
        interruption: { step: stepNumber, usageBefore: usage },
        ...traceOfRun(options, run.spans),
      };
    }
    const { step } = outcome;
    steps.push(step);
    usage = addUsage(usage, step.usage);
    options.sink.emit({
      type: "step-end",
      step: stepNumber,
      usage: step.usage,
      ...(outcome.request ? { request: outcome.request } : {}),
    });
    const next = afterStep(run, step, stepNumber);
    if (next.kind === "end") {
      return {
        ...ran,
        text: step.text,
        usage,
        finishReason: next.finishReason,
        ...(next.output ? { output: next.output.value } : {}),
      };
    }
  }
}

/**
 * What follows a finished step: another step (the tools' results, or a request to repair the
 * structured answer, go back to the model), or the end of the run and why it ended.
 */
function afterStep(
  run: Run,
  step: Step,
  stepNumber: number,
): { kind: "next" } | { kind: "end"; finishReason: AgentFinishReason; output?: { value: unknown } } {
  const { options } = run;
  if (options.output) {
    const verdict = options.output.afterStep(step);
    if (verdict.kind === "done")
      return { kind: "end", finishReason: "stop", output: { value: verdict.output } };
    if (verdict.kind === "repair") {
      commit(run, [verdict.message]);
      return { kind: "next" };
    }
  }
  if (step.toolCalls.length === 0 || !options.tools.runner)
    return { kind: "end", finishReason: step.finishReason };
  if (stepNumber < options.limits.maxSteps) return { kind: "next" };
  run.warn({
    code: "max-steps-reached",
    message: `The run stopped after ${options.limits.maxSteps} steps (maxSteps) while the model was still calling tools.`,
  });
  return { kind: "end", finishReason: "max-steps" };
}

/**
 * The state a run shares across its steps: its options with the spans fed from its events and
 * Junction's own tools in front of the runner, its controller, its call ids.
 */
function openRun(given: RunLoopOptions, warnings: Warning[]): Run {
  const spans = new RunSpans(given.sink.tracer, {
    provider: given.model.provider.name,
    model: given.model.model,
    ...(given.resumed?.trace ? { resumedFrom: given.resumed.trace } : {}),
  });
  const { sink, tools } = given;
  const options: RunLoopOptions = {
    ...given,
    // The run's spans come from its events: every event goes to them after the caller.
    sink: sink.tracer
      ? {
          ...sink,
          emit: (event) => {
            sink.emit(event);
            spans.event(event);
          },
        }
      : sink,
    // Junction's own tools (read_tool_result, the tool search) are answered in front of the runner.
    tools: tools.runner ? { ...tools, runner: withCoreTools(tools.runner) } : tools,
  };
  return {
    options,
    durability: options.journal.durability ?? new InMemoryDurability(),
    controller: new AbortController(),
    spans,
    ids: new ToolCallIds(options.history),
    conversation: options.history.slice(),
    folds: { view: new ModelViewFolds(), requestSize: new RequestSizeFold() },
    coreToolWarnings: new Set(),
    warn: (warning) => {
      warnings.push(warning);
      options.sink.emit({ type: "warning", warning });
    },
  };
}

/** A failure that is not just the abort itself surfacing. */
function isFailure(caught: unknown): boolean {
  return JunctionError.isInstance(caught) && caught.code !== "aborted" && !ProviderError.isInstance(caught);
}

/**
 * The step's tools as a value: the caller's `prepareStep` (under the run's span, so an MCP listing
 * nests there), Junction's own tools and the answer tool added, and the offered tools' digests
 * journaled (on a replay, the tools that changed since).
 */
async function planStep(
  run: Run,
  step: { stepNumber: number; conversation: Message[]; warn: (warning: Warning) => void },
): Promise<StepPlan> {
  const { options } = run;
  const { stepNumber, conversation, warn } = step;
  const signal = run.controller.signal;
  const prepared = await raceAbort(
    run.spans.within({ kind: "run" }, () => options.tools.prepareStep(stepNumber, { conversation, warn })),
    signal,
  );
  const offered = stepTools(run, {
    prepared,
    definitions: options.output ? options.output.offer(prepared.definitions) : prepared.definitions,
    conversation,
    warn,
  });
  const snapshots = await raceAbort(changedSinceJournaled(run, stepNumber, prepared), signal);
  return {
    step: stepNumber,
    tools: prepared.tools,
    privateDataFrom: prepared.privateDataFrom,
    offered: offered.definitions,
    coreTools: offered.core,
    toolDigests: snapshots.digests,
    changedTools: snapshots.changes,
  };
}

async function runStep(run: Run, step: { stepNumber: number; usageBefore: Usage }): Promise<StepOutcome> {
  const { options, durability } = run;
  const { stepNumber } = step;
  const signal = run.controller.signal;
  const conversation = run.conversation as Message[];
  const warnings = new StepWarnings(run.warn);
  const plan = await planStep(run, { stepNumber, conversation, warn: warnings.warn });
  const calls = new StepCalls({
    run: forCalls(run, step),
    plan,
    warnings,
    runner: options.tools.runner,
    output: options.output,
    toolConcurrency: options.limits.toolConcurrency,
    conversation: () => conversation,
  });
  const tools = [...plan.offered];
  // Tool calls get their own controller so a failed step can stop them without aborting the caller's signal.
  const stopTools = () => calls.controller.abort(signal.reason);
  signal.addEventListener("abort", stopTools, { once: true });
  let committed = false;
  try {
    let live = false;
    const turnValue = await journaledStep({
      durability,
      key: modelKey(stepNumber),
      signal,
      run: async () => {
        live = true;
        return entryValue(await streamModelTurn(run, { stepNumber, tools, calls, conversation }));
      },
    });
    const turn = readEntry(modelTurnSchema, turnValue, modelKey(stepNumber));
    const stepUsage = readUsage(turn.finish.usage);
    const content = turn.content;
    const toolCalls = content.filter((part): part is ToolCallPart => part.type === "tool-call");
    if (!live) {
      // A replayed turn: its calls were started (and maybe finished) before; the journal has them.
      run.ids.register(toolCalls);
      for (const call of toolCalls) calls.start(call, { live: false });
    }
    if (durability.ordered) calls.startInOrder(toolCalls);
    if (!options.tools.runner) {
      const answers = await answerResults(toolCalls, calls);
      commit(run, stepMessages(content, answers));
      committed = true;
      return {
        kind: "done",
        step: stepOf({
          stepNumber,
          content,
          turn,
          usage: stepUsage,
          results: [],
          warnings: calls.warnings.list,
        }),
        ...(calls.request ? { request: calls.request } : {}),
      };
    }
    let outcomes: CallOutcome[];
    try {
      outcomes = [];
      for (const call of toolCalls) outcomes.push(await calls.started.get(call.id)!.outcome);
    } catch (error) {
      calls.controller.abort(signal.reason ?? error);
      commit(run, await cancelledMessages(content, toolCalls, calls));
      committed = true;
      throw error;
    }
    const pending = outcomes.flatMap((outcome) =>
      outcome.kind === "pending" ? [outcome.pending, ...(outcome.more ?? [])] : [],
    );
    if (pending.length > 0) {
      // Nothing of this step enters the history: the run's state carries it until it resumes.
      committed = true;
      return { kind: "interrupted", pending, usage: stepUsage };
    }
    const results = outcomes.flatMap((outcome) => (outcome.kind === "result" ? [outcome.part] : []));
    commit(run, stepMessages(content, results));
    committed = true;
    return {
      kind: "done",
      step: stepOf({ stepNumber, content, turn, usage: stepUsage, results, warnings: calls.warnings.list }),
      ...(calls.request ? { request: calls.request } : {}),
    };
  } finally {
    if (!committed) {
      // The model turn failed: stop every tool it started and wait for them, so nothing outlives the run.
      calls.controller.abort(signal.reason ?? createAbortError("The model turn failed."));
      await calls.settleAll();
    }
    signal.removeEventListener("abort", stopTools);
  }
}

/**
 * On a replayed step, which of the tools it offered changed since (none on a live step); and the
 * digest of each tool it offered, as the model saw it.
 */
async function changedSinceJournaled(
  run: Run,
  stepNumber: number,
  prepared: StepTools,
): Promise<{ changes: ReadonlyMap<string, string>; digests: ReadonlyMap<string, string> }> {
  const runner = run.options.tools.runner;
  if (!runner?.snapshot) return { changes: new Map(), digests: new Map() };
  let live = false;
  const seenValue = await journaledStep({
    durability: run.durability,
    key: toolsKey(stepNumber),
    signal: run.controller.signal,
    run: async () => {
      live = true;
      return entryValue(await runner.snapshot!(prepared));
    },
  });
  const seen = readEntry(toolSnapshotsSchema, seenValue, toolsKey(stepNumber));
  const digests = new Map(seen.map((snapshot) => [snapshot.name, snapshot.digest]));
  return { changes: live ? new Map() : toolChanges(seen, await runner.snapshot(prepared)), digests };
}

/** A live step's model request: the conversation as the model sees it (within its budgets), the system prompt, the settings, the tools. */
function modelRequest(
  run: Run,
  turn: { tools: ToolDefinition[]; calls: StepCalls; conversation: Message[] },
): ModelRequest {
  const { options } = run;
  const { provider, model, system, settings } = options.model;
  return {
    model,
    messages: messagesWithinBudget({
      history: turn.conversation,
      reportKey: options.sink.reportKey ?? run,
      provider,
      model,
      readable: turn.calls.plan.coreTools.has(READ_TOOL_RESULT),
      warn: turn.calls.warn,
      folds: run.folds.view,
    }),
    ...(system !== undefined ? { system } : {}),
    ...settings,
    ...requestTools(run, turn.tools),
    signal: run.controller.signal,
  };
}

/** Streams one model turn live, starting each call as soon as it is complete; the turn as it is journaled. */
async function streamModelTurn(
  run: Run,
  turn: { stepNumber: number; tools: ToolDefinition[]; calls: StepCalls; conversation: Message[] },
): Promise<ModelTurnEntry> {
  const { options } = run;
  const { calls } = turn;
  const signal = run.controller.signal;
  const streamCalls = new StepToolCalls(
    run.ids,
    (call, rejection) => calls.start(call, { live: true, ...(rejection ? { rejection } : {}) }),
    calls.warn,
  );
  const { provider, system } = options.model;
  const request = modelRequest(run, turn);
  calls.request = requestSizeOf(run, request);
  run.spans.note({
    type: "model-call-start",
    step: turn.stepNumber,
    request: calls.request,
    // A copy: the history goes on growing after the call starts.
    input: () => ({
      messages: structuredClone(request.messages),
      ...(system !== undefined ? { system } : {}),
    }),
  });
  const modelStart = performance.now();
  const streamedText: string[] = [];
  const streamedReasoning: string[] = [];
  options.output?.turnStart();
  const inputs = new ToolInputStream({
    emit: options.sink.emit,
    idFor: (modelId) => run.ids.next(modelId),
    hidden: (name) => options.output?.isAnswerCall({ name }) ?? false,
  });
  let finish: Awaited<ReturnType<typeof consumeModelStream>>;
  try {
    finish = await run.spans.within({ kind: "model-call" }, () =>
      consumeModelStream({ provider, emit: options.sink.emit, signal }, request, {
        onText: (text) => {
          streamedText.push(text);
          options.output?.onText(text);
        },
        onToolCallPiece: (piece) => {
          options.output?.onToolCallPiece(piece);
          inputs.piece(piece);
        },
        onReasoning: (text) => streamedReasoning.push(text),
        onToolCall: (call) => {
          inputs.complete(call.id);
          streamCalls.streamed(call);
        },
        warn: calls.warn,
      }),
    );
  } catch (error) {
    run.spans.note({ type: "model-call-error", error: toError(error) });
    throw error;
  }
  const usage = readUsage(finish.usage);
  run.spans.note({
    type: "model-call-end",
    durationMs: performance.now() - modelStart,
    finishReason: finish.reason,
    ...(finish.responseId !== undefined ? { responseId: finish.responseId } : {}),
    usage,
  });
  const content = streamCalls.finish(
    assistantContent(finish.content, { text: streamedText, reasoning: streamedReasoning }, calls.warn),
  );
  return {
    content,
    finish: {
      reason: finish.reason,
      usage,
      ...(finish.responseId !== undefined ? { responseId: finish.responseId } : {}),
      ...(typeof finish.refusal === "string" ? { refusal: finish.refusal } : {}),
    },
  };
}

function stepOf(parts: {
  stepNumber: number;
  content: AssistantContentPart[];
  turn: ModelTurnEntry;
  usage: Usage;
  results: ToolResultMessagePart[];
  warnings: Warning[];
}): Step {
  const { content, turn } = parts;
  return {
    step: parts.stepNumber,
    text: textOf(content),
    reasoning: content
      .filter((part) => part.type === "reasoning")
      .map((part) => part.text)
      .join(""),
    toolCalls: content.filter((part): part is ToolCallPart => part.type === "tool-call"),
    toolResults: parts.results,
    finishReason: turn.finish.reason,
    usage: parts.usage,
    warnings: parts.warnings,
    ...(turn.finish.responseId !== undefined ? { responseId: turn.finish.responseId } : {}),
    ...(turn.finish.refusal !== undefined ? { refusal: turn.finish.refusal } : {}),
  };
}

/** The tools of a request, with the response format and tool choice a structured answer sets for it. */
function requestTools(run: Run, tools: ToolDefinition[]): Partial<ModelRequest> {
  const fields = run.options.output ? run.options.output.request(tools) : { tools };
  const { tools: offered, ...rest } = fields;
  return { ...(offered.length > 0 ? { tools: offered } : {}), ...rest };
}

/** The results of a step's answer-tool calls, where the loop runs no other tools. */
async function answerResults(toolCalls: ToolCallPart[], calls: StepCalls): Promise<ToolResultMessagePart[]> {
  const results: ToolResultMessagePart[] = [];
  for (const call of toolCalls) {
    const outcome = await calls.started.get(call.id)?.outcome;
    if (outcome?.kind === "result") results.push(outcome.part);
  }
  return results;
}

/** What the calls of step `step` read of `run`. */
function forCalls(run: Run, step: { stepNumber: number; usageBefore: Usage }): RunForCalls {
  const { options } = run;
  const { onCallFinished, approvalTimeoutMs } = options.journal;
  const listed = new Map<string, PendingToolCall>();
  return {
    durability: run.durability,
    spans: run.spans,
    emit: options.sink.emit,
    resumedGuard: options.resumed?.guard,
    maxToolOutputChars: options.limits.maxToolOutputChars ?? DEFAULT_MAX_TOOL_OUTPUT_CHARS,
    approvalTimeoutMs: () => approvalTimeoutMs?.(),
    callFinished: onCallFinished
      ? () =>
          onCallFinished({
            step: step.stepNumber,
            usageBefore: step.usageBefore,
            conversation: run.conversation,
            listed,
            ...traceOfRun(options, run.spans),
          })
      : undefined,
    listed,
  };
}

/** The messages of a finished step: the model's answer, and the results when there are any. */
function stepMessages(content: AssistantContentPart[], results: ToolResultMessagePart[]): Message[] {
  return [
    { role: "assistant", content },
    ...(results.length > 0 ? [{ role: "tool" as const, content: results }] : []),
  ];
}

/** Adds `messages` to the run's conversation: the next step sees them, and the run's end returns them. */
function commit(run: Run, messages: Message[]): void {
  (run.conversation as Message[]).push(...messages);
}

/** What keeps the conversation valid after an abort mid-tools: every call gets a result, cancelled ones say so. */
async function cancelledMessages(
  content: AssistantContentPart[],
  toolCalls: ToolCallPart[],
  calls: StepCalls,
): Promise<Message[]> {
  const settled = await Promise.allSettled(toolCalls.map((call) => calls.started.get(call.id)!.outcome));
  return [
    { role: "assistant", content },
    {
      role: "tool",
      content: toolCalls.map((call, index) => {
        const outcome = settled[index];
        if (outcome?.status === "fulfilled" && outcome.value.kind === "result") return outcome.value.part;
        return {
          type: "tool-result",
          toolCallId: call.id,
          toolName: call.name,
          output: {
            content: [
              { type: "text", text: `The call to "${call.name}" was cancelled: the run was aborted.` },
            ],
            isError: true,
          },
        };
      }),
    },
  ];
}

function textOf(content: AssistantContentPart[]): string {
  return content
    .filter((part) => part.type === "text")
    .map((part) => part.text)
    .join("");
}

/** Where a stopped run's trace lives: its first part's, carried through every resume. */
function traceOfRun(options: RunLoopOptions, spans: RunSpans): { trace?: TraceCarrier } {
  const trace = options.resumed?.trace ?? spans.carrier();
  return trace ? { trace } : {};
}

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw abortError(signal);
}
