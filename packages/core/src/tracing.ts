import type { Message, Usage } from "@junction/types";
import type { AgentEvent, AgentFinishReason, ToolCallOutcome } from "./agent-events.js";
import type { RequestSize } from "./token-estimate.js";
import type { TraceCarrier } from "./trace-carrier.js";

/** A span attribute value, as OpenTelemetry accepts it. */
export type SpanAttributeValue = string | number | boolean | string[] | number[] | boolean[];

/** Span attributes: flat keys such as `junction.tool.name`. */
export type SpanAttributes = Record<string, SpanAttributeValue | undefined>;

/**
 * One timed operation: a model call or a tool call. The method names and meanings follow
 * OpenTelemetry's `Span`, so an OpenTelemetry span can be returned as is (or wrapped in a
 * few lines) without Junction depending on OpenTelemetry.
 */
export interface Span {
  setAttribute(key: string, value: SpanAttributeValue): unknown;
  setAttributes?(attributes: SpanAttributes): unknown;
  addEvent?(name: string, attributes?: SpanAttributes): unknown;
  /** `code` 1 is OK and 2 is ERROR, as OpenTelemetry's `SpanStatusCode`. */
  setStatus(status: { code: 0 | 1 | 2; message?: string }): unknown;
  recordException?(exception: Error): unknown;
  end(): void;
  /**
   * Takes how the operation ended, typed (see {@link SpanOutcome}), just before `setStatus` and
   * `end`. A span that has it gets the outcome here instead of as `junction.*` attributes; one
   * without it gets the attributes.
   */
  setOutcome?(outcome: SpanOutcome): unknown;
  /**
   * The span's context as W3C trace-context fields. A run that stops for approvals keeps its
   * run span's in `RunState.trace`, and the resumed part's run span links to it.
   */
  traceCarrier?(): TraceCarrier | undefined;
}

/**
 * Starts spans. Junction opens `junction.agent.send` for a run, `junction.model.call` for each
 * model turn and `junction.tool.call` for each tool call (children of the run span).
 *
 * Attributes: `junction.model`, `junction.provider`, `junction.step`, `junction.tool.name`,
 * `junction.tool.call_id`, `junction.tool.server` (the MCP source's name, absent for local
 * tools), `junction.tool.outcome` (`success` | `error` | `denied` | `invalid-input` |
 * `not-found` | `aborted`), `junction.duration_ms`, and token usage on model calls.
 *
 * `@junction/otel` implements it with the OpenTelemetry GenAI and MCP conventions' spans. By hand,
 * pass the parent on so spans nest:
 *
 * @example
 * ```ts
 * import { context, type Span as OtelSpan, trace } from "@opentelemetry/api";
 * const otel = trace.getTracer("my-app");
 * const tracer: Tracer = {
 *   startSpan: (name, { attributes, parent }) =>
 *     otel.startSpan(name, { attributes }, parent ? trace.setSpan(context.active(), parent as OtelSpan) : undefined),
 * };
 * ```
 */
export interface Tracer {
  /**
   * `links`: the spans this one continues, such as the first part of a resumed run. `input`, on
   * model calls: the system prompt and messages as sent, computed only when called (for a
   * tracer that captures content).
   */
  startSpan(name: string, options: SpanStartOptions): Span;
  /**
   * Runs `fn` with `span` as the current span (OpenTelemetry's `context.with`), so what runs
   * inside it (an MCP request, a provider's HTTP call) nests under it. Junction runs the
   * listing of tools under the run span, the model stream under the model call's span and a
   * tool's execution under its tool call's span. Omitted: `fn` just runs.
   */
  withSpan?<T>(span: Span, fn: () => T): T;
  /**
   * Sees every event of a run, in order, with the run's span: what a tracer derives from events
   * (approvals asked and answered, how each call ended, content when it captures content).
   */
  onEvent?(event: AgentEvent, run: Span): void;
}

/** OpenTelemetry status codes, without depending on it. */
export const SPAN_STATUS_OK = 1;
/** OpenTelemetry status codes, without depending on it. */
export const SPAN_STATUS_ERROR = 2;

const noopSpan: Span = {
  setAttribute: () => undefined,
  setStatus: () => undefined,
  end: () => undefined,
};

/** What a model call was asked: the system prompt and the messages, as sent. */
export interface ModelCallInput {
  system?: string;
  messages: Message[];
}

/**
 * What a span Junction opens stands for, typed: a tracer can tell a run from a model call from a
 * tool call by `kind` instead of by the span's name, and read its fields instead of attributes.
 */
export type SpanOperation =
  | { kind: "run"; provider: string; model: string }
  | { kind: "model-call"; provider: string; model: string; step: number; request: RequestSize }
  | {
      kind: "tool-call";
      id: string;
      name: string;
      step: number;
      /** Set when a program (code mode) made the call, rather than the model itself. */
      program?: ToolCallProgramOf;
    };

/**
 * The program that made a tool call (code mode), as the call's span tells it: the span attributes
 * `junction.tool.parent_call_id`, `junction.tool.parent_sequence`, `junction.tool.parent_name` and
 * `junction.tool.parent_runtime`, the same fields as a pending call's `parent`.
 *
 * - `runtime: "sandbox"`: Junction's sandbox ran it; `id` is the `run_program` call's id, whose
 *   span the call's span is a child of.
 * - `runtime: "provider"`: the model's vendor ran it (its code execution); `id` is the vendor's id
 *   of the program (`ToolCallPart.program.id`). The program ran at the vendor, inside the model
 *   call, so no span of this process stands for it: the call's span is a child of the run's, and
 *   the program's calls are found by this id, in the order of `sequence`.
 */
export interface ToolCallProgramOf {
  /** The program's id: the `run_program` call's id, or the vendor's id of the program. */
  id: string;
  /** 1 for the program's first call, 2 for its second, … (the `sequence` of the call's events' `parent`). */
  sequence: number;
  /** What ran the program: `run_program`, or the vendor's code execution tool (`code_execution_20250825`). */
  name: string;
  /** Where the program ran. */
  runtime: "sandbox" | "provider";
}

/** How an operation ended, typed, for {@link Span.setOutcome}; a failure comes with `recordException` and the status. */
export type SpanOutcome =
  | { kind: "run"; steps: number; finishReason: AgentFinishReason; usage: Usage }
  | {
      kind: "model-call";
      finishReason: string;
      responseId?: string;
      usage: Usage;
      durationMs: number;
    }
  | {
      kind: "tool-call";
      /** `pending`: a program (code mode) stopped because one of its calls waits for a person. */
      outcome: ToolCallOutcome | "aborted" | "pending";
      /** The MCP source's name; absent for local tools. */
      server?: string;
      durationMs?: number;
    };

/** How a span starts: its attributes, its parent, the spans it links to, and (model calls) its input. */
export interface SpanStartOptions {
  /** What the span stands for. Junction sets it on every span it opens. */
  operation?: SpanOperation;
  attributes: SpanAttributes;
  parent?: Span;
  links?: TraceCarrier[];
  input?: () => ModelCallInput;
}

/** Starts a span on the tracer, or a no-op span when there is none; a failing tracer never breaks a run. */
export function startSpan(tracer: Tracer | undefined, name: string, options: SpanStartOptions): Span {
  if (!tracer) return noopSpan;
  try {
    return (
      tracer.startSpan(name, {
        ...(options.operation ? { operation: options.operation } : {}),
        attributes: withoutUndefined(options.attributes),
        ...(options.parent ? { parent: options.parent } : {}),
        ...(options.links ? { links: options.links } : {}),
        ...(options.input ? { input: options.input } : {}),
      }) ?? noopSpan
    );
  } catch {
    return noopSpan;
  }
}

/** Runs `fn` with `span` current when the tracer can make it so; a failing tracer still runs `fn` once. */
export function inSpan<T>(tracer: Tracer | undefined, span: Span, fn: () => T): T {
  if (!tracer?.withSpan || span === noopSpan) return fn();
  let ran = false;
  try {
    return tracer.withSpan(span, () => {
      ran = true;
      return fn();
    });
  } catch (error) {
    if (ran) throw error;
    return fn();
  }
}

/** Hands a run's event to the tracer, swallowing its failures. */
export function traceEvent(tracer: Tracer | undefined, event: AgentEvent, run: Span): void {
  if (!tracer?.onEvent) return;
  try {
    tracer.onEvent(event, run);
  } catch {
    // A broken tracer must not break the agent.
  }
}

/** The span's W3C context, when the tracer gives one. */
export function carrierOf(span: Span): TraceCarrier | undefined {
  try {
    return span.traceCarrier?.();
  } catch {
    return undefined;
  }
}

/**
 * Ends a span with an outcome, swallowing tracer failures: the typed `outcome` to a span that
 * takes it (`setOutcome`), else `attributes`.
 */
export function endSpan(
  span: Span,
  outcome: { error?: Error; outcome?: SpanOutcome; attributes?: SpanAttributes; statusMessage?: string },
): void {
  try {
    if (outcome.outcome && span.setOutcome) span.setOutcome(outcome.outcome);
    else {
      for (const [key, value] of Object.entries(outcome.attributes ?? {})) {
        if (value !== undefined) span.setAttribute(key, value);
      }
    }
    if (outcome.error) {
      span.recordException?.(outcome.error);
      span.setStatus({ code: SPAN_STATUS_ERROR, message: outcome.statusMessage ?? outcome.error.message });
    } else if (outcome.statusMessage) {
      span.setStatus({ code: SPAN_STATUS_ERROR, message: outcome.statusMessage });
    } else {
      span.setStatus({ code: SPAN_STATUS_OK });
    }
    span.end();
  } catch {
    // A broken tracer must not break the agent.
  }
}

function withoutUndefined(attributes: SpanAttributes): SpanAttributes {
  const result: SpanAttributes = {};
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined) result[key] = value;
  return result;
}
