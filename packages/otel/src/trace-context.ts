import {
  type Context,
  context,
  isSpanContextValid,
  propagation,
  type SpanContext,
  TraceFlags,
  trace,
} from "@opentelemetry/api";

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** A span context as W3C trace-context fields. */
export function formatTraceContext(spanContext: SpanContext): { traceparent: string; tracestate?: string } {
  const flags = (spanContext.traceFlags & 0xff).toString(16).padStart(2, "0");
  const tracestate = spanContext.traceState?.serialize();
  return {
    traceparent: `00-${spanContext.traceId}-${spanContext.spanId}-${flags}`,
    ...(tracestate ? { tracestate } : {}),
  };
}

/** A W3C `traceparent` as a remote span context, or `undefined` when it is not one. */
export function parseTraceparent(traceparent: unknown): SpanContext | undefined {
  if (typeof traceparent !== "string") return undefined;
  const match = TRACEPARENT.exec(traceparent.trim());
  if (!match) return undefined;
  const spanContext: SpanContext = {
    traceId: match[1]!,
    spanId: match[2]!,
    traceFlags: Number.parseInt(match[3]!, 16) & TraceFlags.SAMPLED,
    isRemote: true,
  };
  return isSpanContextValid(spanContext) ? spanContext : undefined;
}

/**
 * The fields that carry `ctx` into an MCP request's `params._meta`: what the registered
 * propagators write (W3C trace context and baggage with the usual SDK setup), and W3C trace
 * context written here when no propagator is registered, as the MCP conventions ask.
 */
export function injectTraceContext(ctx: Context): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(ctx, carrier);
  if (carrier.traceparent === undefined) {
    const spanContext = trace.getSpanContext(ctx);
    if (spanContext && isSpanContextValid(spanContext))
      Object.assign(carrier, formatTraceContext(spanContext));
  }
  return carrier;
}

/** The context a peer's `_meta` carries, as a parent: the registered propagators' reading, else W3C. */
export function extractTraceContext(meta: Record<string, unknown>): Context | undefined {
  const carrier: Record<string, string> = {};
  for (const [key, value] of Object.entries(meta)) if (typeof value === "string") carrier[key] = value;
  const extracted = propagation.extract(context.active(), carrier);
  const fromPropagator = trace.getSpanContext(extracted);
  if (fromPropagator?.isRemote) return extracted;
  const spanContext = parseTraceparent(carrier.traceparent);
  return spanContext ? trace.setSpanContext(context.active(), spanContext) : undefined;
}
