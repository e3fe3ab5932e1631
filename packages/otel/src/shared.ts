import type { Attributes, Histogram, Span as OtelSpan, Tracer as OtelTracer } from "@opentelemetry/api";
import type { ContentCapture } from "./content.js";

/** What the agent spans and the MCP hooks of one telemetry share: passed in, never global. */
export interface Shared {
  /** Starts spans on the bridge's one clock ({@link onOneClock}). */
  tracer: Pick<OtelTracer, "startSpan">;
  operationDuration: Histogram;
  tokenUsage: Histogram;
  mcpDuration: Histogram;
  mcpServerDuration: Histogram;
  /** Set when content capture is on. */
  capture: ContentCapture | undefined;
  /** Also set the deprecated `gen_ai.system` (no `gen_ai_latest_experimental` opt-in). */
  legacySystem: boolean;
  agentName: string;
  /** The `execute_tool` spans open now, by their OpenTelemetry span: MCP folds its attributes into them. */
  toolSpans: WeakMap<OtelSpan, MCPFoldTarget>;
}

/** An `execute_tool` span that takes the attributes and outcome of the MCP `tools/call` made inside it. */
export interface MCPFoldTarget {
  readonly otel: OtelSpan;
  foldMCP(attributes: Attributes): void;
  /** The MCP call failed: a JSON-RPC error (its code) or a result with `isError` (`tool_error`). */
  mcpFailed(errorType: string, message: string | undefined): void;
}

/**
 * Epoch milliseconds with fractions, as `Span.end()` takes them: the one clock every span of the
 * bridge starts and ends on (see {@link onOneClock}).
 */
export function nowMs(): number {
  return performance.timeOrigin + performance.now();
}

/**
 * `tracer`, with every span it starts given `nowMs()` as its start time. Left to itself the SDK
 * starts a span at `Date.now()` (whole milliseconds, the wall clock) and ends one at its start plus
 * the monotonic time since; the bridge ends spans at `nowMs()`, whose origin was read once when the
 * process started. The two clocks can differ by milliseconds (more on a busy machine), so a child
 * could seem to end after its parent. On one clock a span lies inside its parent. Each span must
 * then also be ended with a time (`span.end(nowMs())`): without one, a span given its start time
 * ends at `Date.now()`.
 */
export function onOneClock(tracer: OtelTracer): Pick<OtelTracer, "startSpan"> {
  return {
    startSpan: (name, options, parent) =>
      tracer.startSpan(name, { ...options, startTime: options?.startTime ?? nowMs() }, parent),
  };
}

/** A low-cardinality `error.type` for a thrown error: its `code` (Junction's errors have one), else its class name. */
export function errorTypeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && code.length > 0) return code;
  if (typeof code === "number") return String(code);
  const name = (error as { name?: unknown } | null)?.name;
  return typeof name === "string" && name.length > 0 && name !== "Error" ? name : "_OTHER";
}
