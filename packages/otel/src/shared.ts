import type { Attributes, Histogram, Span as OtelSpan, Tracer as OtelTracer } from "@opentelemetry/api";
import type { ContentCapture } from "./content.js";

/** What the agent spans and the MCP hooks of one telemetry share: passed in, never global. */
export interface Shared {
  tracer: OtelTracer;
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

/** Epoch milliseconds with fractions, as `Span.end()` takes them. */
export function nowMs(): number {
  return performance.timeOrigin + performance.now();
}

/** A low-cardinality `error.type` for a thrown error: its `code` (Junction's errors have one), else its class name. */
export function errorTypeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && code.length > 0) return code;
  if (typeof code === "number") return String(code);
  const name = (error as { name?: unknown } | null)?.name;
  return typeof name === "string" && name.length > 0 && name !== "Error" ? name : "_OTHER";
}
