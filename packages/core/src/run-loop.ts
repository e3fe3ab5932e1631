import {
  type AssistantContentPart,
  type FinishReason,
  JunctionError,
  type Message,
  type ModelProvider,
  type ModelRequest,
  ProviderError,
  type ToolCallPart,
  type ToolDefinition,
  type ToolProgress,
  type ToolResult,
  type ToolResultMessagePart,
  type Usage,
  type Warning,
} from "@junction/types";
import { abortError, raceAbort } from "./abort.js";
import type { AgentEvent, AgentFinishReason, AgentResult, PendingToolCall, Step } from "./agent-events.js";
import { ConcurrencyLimit } from "./concurrency-limit.js";
import { type Durability, InMemoryDurability, type JSONValue } from "./durability.js";
import { assistantContent, consumeModelStream } from "./model-stream.js";
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
} from "./run-journal.js";
import { StepToolCalls, ToolCallIds } from "./tool-call-ids.js";
import {
  DEFAULT_MAX_TOOL_OUTPUT_CHARS,
  limitStructuredContent,
  normalizeToolOutput,
  toToolResult,
  truncateToolOutput,
} from "./tool-output.js";
import { ToolProgressReporter } from "./tool-progress.js";
import { endSpan, type Span, startSpan, type Tracer } from "./tracing.js";
import { addUsage, emptyUsage, readUsage } from "./usage.js";

/** Model settings passed through on every request of a run. */
export type ModelSettings = Pick<
  ModelRequest,
  "maxTokens" | "temperature" | "topP" | "stopSequences" | "toolChoice" | "providerOptions"
>;

/** How one tool call ended, before its output is normalised. */
export type ToolCallExecution =
  | { kind: "output"; value: unknown; durationMs: number; source?: string }
  | {
      kind: "error";
      message: string;
      outcome: "error" | "denied" | "invalid-input" | "not-found";
      durationMs: number;
      source?: string;
    };

/** What a tool runner gets besides the call. */
export interface ToolExecutorContext {
  /** Aborted when the run is aborted or fails. */
  signal: AbortSignal;
  step: number;
  emit(event: AgentEvent): void;
  /** Runs `task` within the run's tool concurrency bound. */
  limit<T>(task: () => Promise<T>): Promise<T>;
  /**
   * Takes a tool's progress report: recorded on its span and, checked and rate-limited, emitted
   * as a `tool-progress` event for this call. Never throws.
   */
  onProgress(progress: ToolProgress): void;
}

/** A call the model asked for, under its id in the conversation. */
export interface ToolCallRequestPart {
  id: string;
  name: string;
  input: unknown;
}

/**
 * How the loop runs the calls the model asks for: `decide` (may a call run, must a person be
 * asked) and `execute` (run an allowed call). Neither throws except on abort.
 */
export interface ToolRunner {
  /** Whether `decide` asks a policy whose answers must be journaled (a replay must not ask it again). */
  readonly journalsDecisions: boolean;
  decide(call: ToolCallRequestPart, context: ToolExecutorContext): Promise<GateEntry>;
  execute(call: ToolCallRequestPart, context: ToolExecutorContext): Promise<ToolCallExecution>;
  /** Told how every call of the run ended, replayed ones included (the Agent's exfiltration ledger). */
  settled?(call: ToolCallRequestPart, outcome: string): void;
}

/** Everything one run of the tool loop needs. */
export interface RunLoopOptions {
  provider: ModelProvider;
  model: string;
  system?: string;
  /** The conversation; the run appends to it at consistent points only. */
  history: Message[];
  /** Called before each step: the tool definitions to offer (may resolve MCP sources). */
  prepareStep(step: number, emitWarning: (warning: Warning) => void): Promise<ToolDefinition[]>;
  /** Omitted, the loop stops at the first turn that calls tools and leaves the calls to the caller. */
  tools?: ToolRunner;
  maxSteps: number;
  toolConcurrency: number;
  maxToolOutputChars?: number;
  settings?: ModelSettings;
  signal?: AbortSignal;
  tracer?: Tracer;
  /** Where model and tool calls are journaled and approvals wait. @default an in-memory journal */
  durability?: Durability;
  /** The first step's number: a resumed run starts at the step that stopped. @default 1 */
  firstStep?: number;
  /** Usage of the run's steps before `firstStep`. */
  usageBefore?: Usage;
  /**
   * How long an approval waits for its answer (asked when the wait starts); `undefined` waits
   * as long as the port allows, `0` does not wait: the run ends with `approval-required`.
   */
  approvalTimeoutMs?: () => number | undefined;
  emit(event: AgentEvent): void;
}

/** A run's result, and where it stopped when it stopped for approvals. */
export interface RunLoopResult extends AgentResult {
  /** Set when the run stopped for approvals: the step that stopped and the usage before it. */
  interruption?: { step: number; usageBefore: Usage };
}

/** The state one run shares across its steps: passed around, never captured across files. */
interface Run {
  readonly options: RunLoopOptions;
  readonly durability: Durability;
  readonly controller: AbortController;
  readonly span: Span;
  readonly ids: ToolCallIds;
  warn(warning: Warning): void;
}

/** How one step ended. */
type StepOutcome =
  | { kind: "done"; step: Step }
  | { kind: "interrupted"; pending: PendingToolCall[]; usage: Usage };

/** How one call ended: a result for the model, or a question nobody answered yet. */
type CallOutcome =
  | { kind: "result"; part: ToolResultMessagePart }
  | { kind: "pending"; pending: PendingToolCall };

/**
 * The tool loop. Streams model turns; starts each tool call as soon as its arguments are
 * complete (eager execution), bounded by `toolConcurrency`; feeds results back in the model's
 * order; stops when the model stops calling tools, at `maxSteps`, or when a call waits for an
 * approval nobody gave (`approval-required`). Every model turn and tool call goes through the
 * durability port, so a replay of the run with the same journal does not repeat them.
 */
export async function runLoop(options: RunLoopOptions): Promise<RunLoopResult> {
  const controller = new AbortController();
  const onAbort = () => controller.abort(options.signal?.reason);
  if (options.signal?.aborted) onAbort();
  options.signal?.addEventListener("abort", onAbort, { once: true });
  const span = startSpan(options.tracer, "junction.agent.send", {
    "junction.model": options.model,
    "junction.provider": options.provider.name,
  });
  const steps: Step[] = [];
  const warnings: Warning[] = [];
  let usage = options.usageBefore ?? emptyUsage();
  const run: Run = {
    options,
    durability: options.durability ?? new InMemoryDurability(),
    controller,
    span,
    ids: new ToolCallIds(options.history),
    warn: (warning) => {
      warnings.push(warning);
      options.emit({ type: "warning", warning });
    },
  };
  try {
    let finishReason: AgentFinishReason = "stop";
    let interruption: RunLoopResult["interruption"];
    let pending: PendingToolCall[] | undefined;
    for (let stepNumber = options.firstStep ?? 1; ; stepNumber++) {
      throwIfAborted(controller.signal);
      const outcome = await runStep(run, stepNumber);
      if (outcome.kind === "interrupted") {
        interruption = { step: stepNumber, usageBefore: usage };
        usage = addUsage(usage, outcome.usage);
        pending = outcome.pending;
        finishReason = "approval-required";
        break;
      }
      const { step } = outcome;
      steps.push(step);
      usage = addUsage(usage, step.usage);
      options.emit({ type: "step-end", step: stepNumber, usage: step.usage });
      finishReason = step.finishReason;
      if (step.toolCalls.length === 0 || !options.tools) break;
      if (stepNumber >= options.maxSteps) {
        finishReason = "max-steps";
        run.warn({
          code: "max-steps-reached",
          message: `The run stopped after ${options.maxSteps} steps (maxSteps) while the model was still calling tools.`,
        });
        break;
      }
    }
    options.emit({ type: "finish", reason: finishReason, usage });
    endSpan(span, {
      attributes: {
        "junction.steps": steps.length,
        "junction.finish_reason": finishReason,
        ...usageAttributes(usage),
      },
    });
    return {
      text: steps.at(-1)?.text ?? "",
      messages: structuredClone(options.history),
      steps,
      usage,
      warnings,
      finishReason,
      ...(pending ? { pending } : {}),
      ...(interruption ? { interruption } : {}),
    };
  } catch (caught) {
    const error =
      controller.signal.aborted && !isFailure(caught) ? abortError(controller.signal) : toError(caught);
    controller.abort(error);
    options.emit({ type: "error", error });
    endSpan(span, { error });
    throw error;
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
  }
}

/** A failure that is not just the abort itself surfacing. */
function isFailure(caught: unknown): boolean {
  return JunctionError.isInstance(caught) && caught.code !== "aborted" && !ProviderError.isInstance(caught);
}

/** The calls of one step, each started once, under the step's own tool controller. */
class StepCalls {
  readonly started = new Map<string, { call: ToolCallPart; outcome: Promise<CallOutcome> }>();
  readonly limit: ConcurrencyLimit;
  readonly controller = new AbortController();
  readonly stepWarnings: Warning[] = [];

  constructor(
    readonly run: Run,
    readonly stepNumber: number,
  ) {
    this.limit = new ConcurrencyLimit(run.options.toolConcurrency);
  }

  warn = (warning: Warning): void => {
    this.stepWarnings.push(warning);
    this.run.warn(warning);
  };

  /** Starts `call` (emitting `tool-call` when it comes from the live stream); with `rejection`, it fails with that message. */
  start(call: ToolCallPart, options: { rejection?: string; live: boolean }): void {
    if (options.live)
      this.run.options.emit({ type: "tool-call", id: call.id, name: call.name, input: call.input });
    const tools = this.run.options.tools;
    if (!tools || this.started.has(call.id)) return;
    const outcome = runCall({
      calls: this,
      tools,
      call,
      ...(options.rejection ? { rejection: options.rejection } : {}),
    });
    // Rejections (aborts) are read below; this keeps an early one from counting as unhandled.
    outcome.catch(() => undefined);
    this.started.set(call.id, { call, outcome });
  }

  async settleAll(): Promise<void> {
    await Promise.allSettled([...this.started.values()].map((entry) => entry.outcome));
  }
}

async function runStep(run: Run, stepNumber: number): Promise<StepOutcome> {
  const { options, durability } = run;
  const signal = run.controller.signal;
  const calls = new StepCalls(run, stepNumber);
  const tools = await raceAbort(options.prepareStep(stepNumber, calls.warn), signal);
  // Tool calls get their own controller so a failed step can stop them without aborting the caller's signal.
  const stopTools = () => calls.controller.abort(signal.reason);
  signal.addEventListener("abort", stopTools, { once: true });
  let committed = false;
  try {
    let live = false;
    const turn = (await durability.step(modelKey(stepNumber), async () => {
      live = true;
      return (await streamModelTurn(run, { stepNumber, tools, calls })) as unknown as JSONValue;
    })) as unknown as ModelTurnEntry;
    const stepUsage = readUsage(turn.finish.usage);
    const content = turn.content;
    const toolCalls = content.filter((part): part is ToolCallPart => part.type === "tool-call");
    if (!live) {
      // A replayed turn: its calls were started (and maybe finished) before; the journal has them.
      run.ids.register(toolCalls);
      for (const call of toolCalls) calls.start(call, { live: false });
    }
    if (!options.tools) {
      options.history.push({ role: "assistant", content });
      committed = true;
      return {
        kind: "done",
        step: stepOf({
          stepNumber,
          content,
          turn,
          usage: stepUsage,
          results: [],
          warnings: calls.stepWarnings,
        }),
      };
    }
    let outcomes: CallOutcome[];
    try {
      outcomes = [];
      for (const call of toolCalls) outcomes.push(await calls.started.get(call.id)!.outcome);
    } catch (error) {
      calls.controller.abort(signal.reason ?? error);
      await commitCancelled(options.history, content, toolCalls, calls);
      committed = true;
      throw error;
    }
    const pending = outcomes.flatMap((outcome) => (outcome.kind === "pending" ? [outcome.pending] : []));
    if (pending.length > 0) {
      // Nothing of this step enters the history: the run's state carries it until it resumes.
      committed = true;
      return { kind: "interrupted", pending, usage: stepUsage };
    }
    const results = outcomes.flatMap((outcome) => (outcome.kind === "result" ? [outcome.part] : []));
    options.history.push({ role: "assistant", content });
    if (results.length > 0) options.history.push({ role: "tool", content: results });
    committed = true;
    return {
      kind: "done",
      step: stepOf({ stepNumber, content, turn, usage: stepUsage, results, warnings: calls.stepWarnings }),
    };
  } finally {
    if (!committed) {
      // The model turn failed: stop every tool it started and wait for them, so nothing outlives the run.
      calls.controller.abort(signal.reason ?? new JunctionError("aborted", "The model turn failed."));
      await calls.settleAll();
    }
    signal.removeEventListener("abort", stopTools);
  }
}

/** Streams one model turn live, starting each call as soon as it is complete; the turn as it is journaled. */
async function streamModelTurn(
  run: Run,
  turn: { stepNumber: number; tools: ToolDefinition[]; calls: StepCalls },
): Promise<ModelTurnEntry> {
  const { options } = run;
  const { calls } = turn;
  const signal = run.controller.signal;
  const streamCalls = new StepToolCalls(
    run.ids,
    (call, rejection) => calls.start(call, { live: true, ...(rejection ? { rejection } : {}) }),
    calls.warn,
  );
  const request: ModelRequest = {
    model: options.model,
    messages: options.history,
    ...(options.system !== undefined ? { system: options.system } : {}),
    ...(turn.tools.length > 0 ? { tools: turn.tools } : {}),
    ...options.settings,
    signal,
  };
  const modelSpan = startSpan(
    options.tracer,
    "junction.model.call",
    {
      "junction.model": options.model,
      "junction.provider": options.provider.name,
      "junction.step": turn.stepNumber,
    },
    run.span,
  );
  const modelStart = performance.now();
  const streamedText: string[] = [];
  const streamedReasoning: string[] = [];
  let finish: Awaited<ReturnType<typeof consumeModelStream>>;
  try {
    finish = await consumeModelStream(options, request, signal, {
      onText: (text) => streamedText.push(text),
      onReasoning: (text) => streamedReasoning.push(text),
      onToolCall: (call) => streamCalls.streamed(call),
      warn: calls.warn,
    });
  } catch (error) {
    endSpan(modelSpan, { error: toError(error) });
    throw error;
  }
  const usage = readUsage(finish.usage);
  endSpan(modelSpan, {
    attributes: {
      "junction.duration_ms": Math.round(performance.now() - modelStart),
      "junction.finish_reason": finish.reason,
      ...usageAttributes(usage),
    },
  });
  const content = streamCalls.finish(
    assistantContent(finish.content, streamedText, streamedReasoning, calls.warn),
  );
  return {
    content,
    finish: {
      reason: finish.reason,
      usage,
      ...(finish.responseId !== undefined ? { responseId: finish.responseId } : {}),
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
  };
}

/** Keeps the history valid after an abort mid-tools: every call gets a result, cancelled ones say so. */
async function commitCancelled(
  history: Message[],
  content: AssistantContentPart[],
  toolCalls: ToolCallPart[],
  calls: StepCalls,
): Promise<void> {
  const settled = await Promise.allSettled(toolCalls.map((call) => calls.started.get(call.id)!.outcome));
  history.push({ role: "assistant", content });
  history.push({
    role: "tool",
    content: toolCalls.map((call, index) => {
      const outcome = settled[index];
      if (outcome?.status === "fulfilled" && outcome.value.kind === "result") return outcome.value.part;
      return {
        type: "tool-result",
        toolCallId: call.id,
        toolName: call.name,
        output: {
          content: [{ type: "text", text: `The call to "${call.name}" was cancelled: the run was aborted.` }],
          isError: true,
        },
      };
    }),
  });
}

/**
 * One call: the policy's answer (journaled), a person's answer when it asks (a signal), then the
 * call itself (journaled). A question nobody answers in time leaves the call pending.
 */
async function runCall(parts: {
  calls: StepCalls;
  tools: ToolRunner;
  call: ToolCallPart;
  rejection?: string;
}): Promise<CallOutcome> {
  const { calls, tools, call } = parts;
  const { run, stepNumber } = calls;
  const { durability, options } = run;
  const context = toolContext(calls);
  let decision: GateEntry;
  if (parts.rejection !== undefined) {
    decision = { kind: "refuse", outcome: "invalid-input", message: parts.rejection };
  } else if (tools.journalsDecisions) {
    decision = (await durability.step(gateKey(stepNumber, call.id), async () =>
      toJSONValue(await tools.decide(call, context)),
    )) as GateEntry;
  } else {
    decision = await tools.decide(call, context);
  }
  let denial: string | undefined;
  if (decision.kind === "ask") {
    const name = approvalSignal(stepNumber, call.id);
    const answer = (await raceAbort(
      waitForApproval({ run, name, call, decision }),
      calls.controller.signal,
    )) as ApprovalAnswer | undefined;
    if (answer === undefined) {
      return {
        kind: "pending",
        pending: {
          id: call.id,
          name: call.name,
          input: decision.input,
          step: stepNumber,
          ...(decision.reason ? { reason: decision.reason } : {}),
          ...sourceOf(decision),
        },
      };
    }
    if (answer.approved !== true) denial = deniedMessage(call.name, answer.reason);
  }
  let live = false;
  const entry = (await durability.step(toolKey(stepNumber, call.id), async () => {
    live = true;
    const execution: ToolCallExecution =
      decision.kind === "refuse"
        ? {
            kind: "error",
            outcome: decision.outcome,
            message: decision.message,
            durationMs: 0,
            ...sourceOf(decision),
          }
        : denial !== undefined
          ? { kind: "error", outcome: "denied", message: denial, durationMs: 0 }
          : await executeCall({ calls, tools, call, context });
    return toJSONValue(toEntry(execution, { calls, call }));
  })) as unknown as ToolCallEntry;
  tools.settled?.(call, entry.outcome);
  if (live) {
    options.emit({
      type: "tool-result",
      id: call.id,
      name: call.name,
      result: toToolResult(entry.output),
      durationMs: entry.durationMs,
    });
  }
  return {
    kind: "result",
    part: { type: "tool-result", toolCallId: call.id, toolName: call.name, output: entry.output },
  };
}

/** Surfaces the question as an event whose answer is a signal, and waits for that signal. */
function waitForApproval(parts: {
  run: Run;
  name: string;
  call: ToolCallPart;
  decision: Extract<GateEntry, { kind: "ask" }>;
}): Promise<JSONValue | undefined> {
  const { run, name, call, decision } = parts;
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
  run.options.emit({
    type: "tool-approval-request",
    id: call.id,
    name: call.name,
    input: decision.input,
    ...(decision.reason ? { reason: decision.reason } : {}),
    approve: () => deliver({ approved: true }),
    deny: (reason?: string) => deliver({ approved: false, ...(reason ? { reason } : {}) }),
  });
  const timeoutMs = run.options.approvalTimeoutMs?.();
  return run.durability.waitForSignal(name, timeoutMs === undefined ? {} : { timeoutMs });
}

function toolContext(calls: StepCalls): ToolExecutorContext {
  return {
    signal: calls.controller.signal,
    step: calls.stepNumber,
    emit: calls.run.options.emit,
    limit: (task) => calls.limit.run(task),
    // Progress is taken by executeCall, which has the call's span and reporter.
    onProgress: () => undefined,
  };
}

/** Runs an allowed call under its span, with progress reports; an abort throws, anything else is an error result. */
async function executeCall(parts: {
  calls: StepCalls;
  tools: ToolRunner;
  call: ToolCallPart;
  context: ToolExecutorContext;
}): Promise<ToolCallExecution & { span: Span }> {
  const { calls, tools, call } = parts;
  const { run, stepNumber } = calls;
  const span = startSpan(
    run.options.tracer,
    "junction.tool.call",
    { "junction.tool.name": call.name, "junction.tool.call_id": call.id, "junction.step": stepNumber },
    run.span,
  );
  const progress = new ToolProgressReporter({ call, emit: run.options.emit, warn: calls.warn });
  try {
    const execution = await tools.execute(
      { id: call.id, name: call.name, input: call.input },
      {
        ...parts.context,
        onProgress: (report) => {
          recordProgress(span, report);
          progress.report(report);
        },
      },
    );
    return { ...execution, span };
  } catch (error) {
    if (calls.controller.signal.aborted) {
      const failure = abortError(calls.controller.signal);
      endSpan(span, { error: failure, attributes: { "junction.tool.outcome": "aborted" } });
      throw failure;
    }
    return {
      kind: "error",
      message: `Tool "${call.name}" failed: ${toError(error).message}`,
      outcome: "error",
      durationMs: 0,
      span,
    };
  } finally {
    // The result (or the abort) supersedes a report still waiting; none is emitted after it.
    progress.close();
  }
}

/** A finished call as it is journaled: the model-facing output, normalised and within its limits. */
function toEntry(
  execution: ToolCallExecution & { span?: Span },
  parts: { calls: StepCalls; call: ToolCallPart },
): ToolCallEntry {
  const { calls, call } = parts;
  const maxChars = calls.run.options.maxToolOutputChars ?? DEFAULT_MAX_TOOL_OUTPUT_CHARS;
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
  if (execution.span) {
    endSpan(execution.span, {
      attributes: {
        "junction.tool.server": execution.source,
        "junction.tool.outcome": outcome,
        "junction.duration_ms": Math.round(execution.durationMs),
      },
      ...(outcome === "success" ? {} : { statusMessage: firstText(toToolResult(output)) || outcome }),
    });
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

/** A value as JSON: what the journal keeps, so a live run and a replay see the same thing. */
function toJSONValue(value: unknown): JSONValue {
  return value as JSONValue;
}

function recordProgress(span: Span, progress: ToolProgress): void {
  try {
    span.addEvent?.("junction.tool.progress", {
      "junction.progress": typeof progress?.progress === "number" ? progress.progress : undefined,
      "junction.progress.total": typeof progress?.total === "number" ? progress.total : undefined,
      "junction.progress.message": typeof progress?.message === "string" ? progress.message : undefined,
    });
  } catch {
    // A broken tracer must not break the tool.
  }
}

function firstText(result: ToolResult): string {
  const part = result.content.find((p) => p.type === "text");
  return part?.type === "text" ? part.text : "";
}

function textOf(content: AssistantContentPart[]): string {
  return content
    .filter((part) => part.type === "text")
    .map((part) => part.text)
    .join("");
}

function usageAttributes(usage: Usage): Record<string, number> {
  return {
    "junction.usage.input_tokens": usage.inputTokens,
    "junction.usage.output_tokens": usage.outputTokens,
  };
}

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw abortError(signal);
}

/** Any thrown value as an `Error`. */
export function toError(error: unknown): Error {
  return error instanceof Error ? error : new JunctionError("tool-execution-failed", String(error));
}

export type { FinishReason };
export { abortError, raceAbort };
