import {
  type AssistantContentPart,
  createAbortError,
  type FinishReason,
  JunctionError,
  type Message,
  type ModelProvider,
  type ModelRequest,
  type ModelStreamEvent,
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
import type { AgentEvent, AgentFinishReason, AgentResult, Step } from "./agent-events.js";
import { ConcurrencyLimit } from "./concurrency-limit.js";
import { assistantContent, consumeModelStream } from "./model-stream.js";
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

/** What a tool executor gets besides the call. */
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

/** Runs one tool call the model asked for. Must not throw except on abort. */
export type ToolExecutor = (
  call: { id: string; name: string; input: unknown },
  context: ToolExecutorContext,
) => Promise<ToolCallExecution>;

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
  executeTool?: ToolExecutor;
  maxSteps: number;
  toolConcurrency: number;
  maxToolOutputChars?: number;
  settings?: ModelSettings;
  signal?: AbortSignal;
  tracer?: Tracer;
  emit(event: AgentEvent): void;
}

/**
 * The tool loop. Streams model turns; starts each tool call as soon as its arguments are
 * complete (eager execution), bounded by `toolConcurrency`; feeds results back in the model's
 * order; stops when the model stops calling tools or at `maxSteps`.
 */
export async function runLoop(options: RunLoopOptions): Promise<AgentResult> {
  const controller = new AbortController();
  const onAbort = () => controller.abort(options.signal?.reason);
  if (options.signal?.aborted) onAbort();
  options.signal?.addEventListener("abort", onAbort, { once: true });
  const runSpan = startSpan(options.tracer, "junction.agent.send", {
    "junction.model": options.model,
    "junction.provider": options.provider.name,
  });
  const steps: Step[] = [];
  const warnings: Warning[] = [];
  let usage = emptyUsage();
  const emitWarning = (warning: Warning) => {
    warnings.push(warning);
    options.emit({ type: "warning", warning });
  };
  try {
    let finishReason: AgentFinishReason = "stop";
    const ids = new ToolCallIds(options.history);
    for (let stepNumber = 1; ; stepNumber++) {
      throwIfAborted(controller.signal);
      const step = await runStep(options, stepNumber, controller, runSpan, emitWarning, ids);
      steps.push(step);
      usage = addUsage(usage, step.usage);
      options.emit({ type: "step-end", step: stepNumber, usage: step.usage });
      finishReason = step.finishReason;
      if (step.toolCalls.length === 0 || !options.executeTool) break;
      if (stepNumber >= options.maxSteps) {
        finishReason = "max-steps";
        emitWarning({
          code: "max-steps-reached",
          message: `The run stopped after ${options.maxSteps} steps (maxSteps) while the model was still calling tools.`,
        });
        break;
      }
    }
    options.emit({ type: "finish", reason: finishReason, usage });
    endSpan(runSpan, {
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
    };
  } catch (caught) {
    const error =
      controller.signal.aborted && !isFailure(caught) ? abortError(controller.signal) : toError(caught);
    controller.abort(error);
    options.emit({ type: "error", error });
    endSpan(runSpan, { error });
    throw error;
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
  }
}

/** A failure that is not just the abort itself surfacing. */
function isFailure(caught: unknown): boolean {
  return JunctionError.isInstance(caught) && caught.code !== "aborted" && !ProviderError.isInstance(caught);
}

async function runStep(
  options: RunLoopOptions,
  stepNumber: number,
  runController: AbortController,
  runSpan: Span,
  emitWarning: (warning: Warning) => void,
  ids: ToolCallIds,
): Promise<Step> {
  const signal = runController.signal;
  const stepWarnings: Warning[] = [];
  const warn = (warning: Warning) => {
    stepWarnings.push(warning);
    emitWarning(warning);
  };
  const tools = await raceAbort(options.prepareStep(stepNumber, warn), signal);
  const limit = new ConcurrencyLimit(options.toolConcurrency);
  const maxChars = options.maxToolOutputChars ?? DEFAULT_MAX_TOOL_OUTPUT_CHARS;
  // Tool calls get their own controller so a failed step can stop them without aborting the caller's signal.
  const toolController = new AbortController();
  const stopTools = () => toolController.abort(signal.reason);
  signal.addEventListener("abort", stopTools, { once: true });
  // Keyed by the call's id in this conversation, unique (see ToolCallIds).
  const started = new Map<string, { call: ToolCallPart; result: Promise<ToolResultMessagePart> }>();
  const startCall = (call: ToolCallPart, rejection?: string) => {
    options.emit({ type: "tool-call", id: call.id, name: call.name, input: call.input });
    if (!options.executeTool) return;
    const executeTool: ToolExecutor = rejection
      ? async () => ({ kind: "error", outcome: "invalid-input", durationMs: 0, message: rejection })
      : options.executeTool;
    const result = runToolCall(
      options,
      executeTool,
      call,
      stepNumber,
      toolController.signal,
      limit,
      maxChars,
      runSpan,
      warn,
    );
    // Rejections (aborts) are read below; this keeps an early one from counting as unhandled.
    result.catch(() => undefined);
    started.set(call.id, { call, result });
  };
  const calls = new StepToolCalls(ids, startCall, warn);

  const request: ModelRequest = {
    model: options.model,
    messages: options.history,
    ...(options.system !== undefined ? { system: options.system } : {}),
    ...(tools.length > 0 ? { tools } : {}),
    ...options.settings,
    signal,
  };
  const modelSpan = startSpan(
    options.tracer,
    "junction.model.call",
    {
      "junction.model": options.model,
      "junction.provider": options.provider.name,
      "junction.step": stepNumber,
    },
    runSpan,
  );
  const modelStart = performance.now();
  let finish: Extract<ModelStreamEvent, { type: "finish" }> | undefined;
  const streamedText: string[] = [];
  const streamedReasoning: string[] = [];
  let committed = false;
  try {
    try {
      finish = await consumeModelStream(options, request, signal, {
        onText: (text) => streamedText.push(text),
        onReasoning: (text) => streamedReasoning.push(text),
        onToolCall: (call) => calls.streamed(call),
        warn,
      });
    } catch (error) {
      endSpan(modelSpan, { error: toError(error) });
      throw error;
    }
    const stepUsage = readUsage(finish.usage);
    endSpan(modelSpan, {
      attributes: {
        "junction.duration_ms": Math.round(performance.now() - modelStart),
        "junction.finish_reason": finish.reason,
        ...usageAttributes(stepUsage),
      },
    });

    const content = calls.finish(assistantContent(finish.content, streamedText, streamedReasoning, warn));
    const toolCalls = content.filter((part): part is ToolCallPart => part.type === "tool-call");
    const toolResults: ToolResultMessagePart[] = [];
    if (!options.executeTool) {
      options.history.push({ role: "assistant", content });
      committed = true;
      return stepOf(stepNumber, content, toolCalls, toolResults, finish, stepUsage, stepWarnings);
    }
    try {
      for (const call of toolCalls) toolResults.push(await started.get(call.id)!.result);
    } catch (error) {
      toolController.abort(signal.reason ?? error);
      await commitCancelled(options.history, content, toolCalls, started);
      committed = true;
      throw error;
    }
    options.history.push({ role: "assistant", content });
    if (toolResults.length > 0) options.history.push({ role: "tool", content: toolResults });
    committed = true;
    return stepOf(stepNumber, content, toolCalls, toolResults, finish, stepUsage, stepWarnings);
  } finally {
    if (!committed) {
      // The model turn failed: stop every tool it started and wait for them, so nothing outlives the run.
      toolController.abort(signal.reason ?? createAbortError("The model turn failed."));
      await settleAll(started);
    }
    signal.removeEventListener("abort", stopTools);
  }
}

function stepOf(
  stepNumber: number,
  content: AssistantContentPart[],
  toolCalls: ToolCallPart[],
  toolResults: ToolResultMessagePart[],
  finish: Extract<ModelStreamEvent, { type: "finish" }>,
  usage: Usage,
  warnings: Warning[],
): Step {
  return {
    step: stepNumber,
    text: textOf(content),
    reasoning: content
      .filter((part) => part.type === "reasoning")
      .map((part) => part.text)
      .join(""),
    toolCalls,
    toolResults,
    finishReason: finish.reason,
    usage,
    warnings,
    ...(finish.responseId !== undefined ? { responseId: finish.responseId } : {}),
  };
}

async function settleAll(started: Map<string, { result: Promise<unknown> }>): Promise<void> {
  await Promise.allSettled([...started.values()].map((entry) => entry.result));
}

/** Keeps the history valid after an abort mid-tools: every call gets a result, cancelled ones say so. */
async function commitCancelled(
  history: Message[],
  content: AssistantContentPart[],
  toolCalls: ToolCallPart[],
  started: Map<string, { result: Promise<ToolResultMessagePart> }>,
): Promise<void> {
  const settled = await Promise.allSettled(toolCalls.map((call) => started.get(call.id)!.result));
  history.push({ role: "assistant", content });
  history.push({
    role: "tool",
    content: toolCalls.map((call, index) => {
      const outcome = settled[index];
      if (outcome?.status === "fulfilled") return outcome.value;
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

async function runToolCall(
  options: RunLoopOptions,
  executeTool: ToolExecutor,
  call: ToolCallPart,
  step: number,
  signal: AbortSignal,
  limit: ConcurrencyLimit,
  maxChars: number,
  runSpan: Span,
  warn: (warning: Warning) => void,
): Promise<ToolResultMessagePart> {
  const span = startSpan(
    options.tracer,
    "junction.tool.call",
    { "junction.tool.name": call.name, "junction.tool.call_id": call.id, "junction.step": step },
    runSpan,
  );
  const progress = new ToolProgressReporter({ call, emit: options.emit, warn });
  let execution: ToolCallExecution;
  try {
    execution = await executeTool(
      { id: call.id, name: call.name, input: call.input },
      {
        signal,
        step,
        emit: options.emit,
        limit: (task) => limit.run(task),
        onProgress: (report) => {
          recordProgress(span, report);
          progress.report(report);
        },
      },
    );
  } catch (error) {
    if (signal.aborted) {
      const failure = abortError(signal);
      endSpan(span, { error: failure, attributes: { "junction.tool.outcome": "aborted" } });
      throw failure;
    }
    execution = {
      kind: "error",
      message: `Tool "${call.name}" failed: ${toError(error).message}`,
      outcome: "error",
      durationMs: 0,
    };
  } finally {
    // The result (or the abort) supersedes a report still waiting; none is emitted after it.
    progress.close();
  }
  let output: string | ToolResult;
  let outcome: string;
  if (execution.kind === "output") {
    const normalized = normalizeToolOutput(execution.value, call.name);
    for (const warning of normalized.warnings) warn(warning);
    const limited = limitStructuredContent(normalized.output, maxChars, call.name);
    if (limited.warning) warn(limited.warning);
    const truncated = truncateToolOutput(limited.output, maxChars, call.name);
    if (truncated.warning) warn(truncated.warning);
    output = truncated.output;
    outcome = typeof output !== "string" && output.isError ? "error" : "success";
  } else {
    output = { content: [{ type: "text", text: execution.message }], isError: true };
    outcome = execution.outcome;
  }
  const result = toToolResult(output);
  endSpan(span, {
    attributes: {
      "junction.tool.server": execution.source,
      "junction.tool.outcome": outcome,
      "junction.duration_ms": Math.round(execution.durationMs),
    },
    ...(outcome === "success" ? {} : { statusMessage: firstText(result) || outcome }),
  });
  options.emit({
    type: "tool-result",
    id: call.id,
    name: call.name,
    result,
    durationMs: execution.durationMs,
  });
  return { type: "tool-result", toolCallId: call.id, toolName: call.name, output };
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
