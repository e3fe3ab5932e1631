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
 * @example
 * ```ts
 * import { trace } from "@opentelemetry/api";
 * const otel = trace.getTracer("my-app");
 * const tracer: Tracer = {
 *   startSpan: (name, options) => otel.startSpan(name, { attributes: options.attributes }),
 * };
 * ```
 */
export interface Tracer {
  startSpan(name: string, options: { attributes: SpanAttributes; parent?: Span }): Span;
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

/** Starts a span on the tracer, or a no-op span when there is none; a failing tracer never breaks a run. */
export function startSpan(
  tracer: Tracer | undefined,
  name: string,
  attributes: SpanAttributes,
  parent?: Span,
): Span {
  if (!tracer) return noopSpan;
  try {
    return tracer.startSpan(name, { attributes: withoutUndefined(attributes), parent }) ?? noopSpan;
  } catch {
    return noopSpan;
  }
}

/** Ends a span with an outcome, swallowing tracer failures. */
export function endSpan(
  span: Span,
  outcome: { error?: Error; attributes?: SpanAttributes; statusMessage?: string },
): void {
  try {
    for (const [key, value] of Object.entries(outcome.attributes ?? {})) {
      if (value !== undefined) span.setAttribute(key, value);
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
