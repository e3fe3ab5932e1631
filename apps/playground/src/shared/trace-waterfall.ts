/**
 * A turn's trace as the page draws it: the spans `@junction/otel` emits (run → model calls →
 * tool calls → MCP requests), laid out as a waterfall. Pure: the server sends `TraceSpan`s as
 * JSON, the page turns them into rows.
 */

/** One finished span, as plain JSON (what the trace store keeps and the API sends). */
export interface TraceSpan {
  traceId: string;
  spanId: string;
  /** Absent for the trace's root, or when the parent is outside the trace (a remote caller). */
  parentSpanId?: string;
  name: string;
  /** OpenTelemetry's span kind, lower case: `internal`, `client`, `server`. */
  kind: string;
  /** Epoch milliseconds. */
  startMs: number;
  endMs: number;
  attributes: Record<string, string | number | boolean | string[] | number[] | boolean[]>;
  /** The status description or `error.type`, when the span failed. */
  error?: string;
}

/** What a row is about, for its colour. */
export type WaterfallCategory = "agent" | "model" | "tool" | "mcp" | "approval" | "other";

/** One row of the waterfall. */
export interface WaterfallRow {
  spanId: string;
  name: string;
  category: WaterfallCategory;
  /** Nesting depth: 0 for the run. */
  depth: number;
  /** Where the bar starts and how wide it is, in percent of the trace's duration. */
  offsetPercent: number;
  widthPercent: number;
  durationMs: number;
  /** Tokens of a model call or a run: `in 10 · out 5`. */
  tokens?: string;
  /** What a row adds beside its name: the MCP transport, an approval's decision. */
  detail?: string;
  error?: string;
}

/** The rows of a trace: parents before their children, siblings by start time; a bar is never narrower than 0.5 %. */
export function waterfallRows(spans: TraceSpan[]): WaterfallRow[] {
  if (spans.length === 0) return [];
  const start = Math.min(...spans.map((span) => span.startMs));
  const end = Math.max(...spans.map((span) => span.endMs));
  const total = Math.max(end - start, 1e-6);
  const ids = new Set(spans.map((span) => span.spanId));
  const children = new Map<string | undefined, TraceSpan[]>();
  for (const span of spans) {
    const parent = span.parentSpanId && ids.has(span.parentSpanId) ? span.parentSpanId : undefined;
    children.set(parent, [...(children.get(parent) ?? []), span]);
  }
  for (const list of children.values()) list.sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs);
  const rows: WaterfallRow[] = [];
  const visit = (span: TraceSpan, depth: number) => {
    const offsetPercent = ((span.startMs - start) / total) * 100;
    const widthPercent = Math.max(((span.endMs - span.startMs) / total) * 100, 0.5);
    const tokens = tokensOf(span);
    const detail = detailOf(span);
    rows.push({
      spanId: span.spanId,
      name: span.name,
      category: categoryOf(span),
      depth,
      offsetPercent: round(offsetPercent),
      widthPercent: round(Math.min(widthPercent, 100 - offsetPercent)),
      durationMs: round(span.endMs - span.startMs),
      ...(tokens ? { tokens } : {}),
      ...(detail ? { detail } : {}),
      ...(span.error !== undefined ? { error: span.error } : {}),
    });
    for (const child of children.get(span.spanId) ?? []) visit(child, depth + 1);
  };
  for (const root of children.get(undefined) ?? []) visit(root, 0);
  return rows;
}

/** A duration as a person reads it: `850 µs`, `12.3 ms`, `1.24 s`. */
export function formatDuration(ms: number): string {
  if (ms < 1) return `${Math.round(ms * 1000)} µs`;
  if (ms < 1000) return `${ms < 100 ? ms.toFixed(1) : ms.toFixed(0)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

function categoryOf(span: TraceSpan): WaterfallCategory {
  const operation = span.attributes["gen_ai.operation.name"];
  if (operation === "invoke_agent") return "agent";
  if (operation === "chat") return "model";
  if (span.name.startsWith("execute_tool")) return "tool";
  if (span.name.startsWith("await_approval")) return "approval";
  if (span.attributes["mcp.method.name"] !== undefined) return "mcp";
  return "other";
}

function tokensOf(span: TraceSpan): string | undefined {
  const input = span.attributes["gen_ai.usage.input_tokens"];
  const output = span.attributes["gen_ai.usage.output_tokens"];
  if (typeof input !== "number" && typeof output !== "number") return undefined;
  return `in ${typeof input === "number" ? input : "?"} · out ${typeof output === "number" ? output : "?"}`;
}

function detailOf(span: TraceSpan): string | undefined {
  const decision = span.attributes["junction.approval.decision"];
  if (typeof decision === "string") {
    const by = span.attributes["junction.approval.decided_by"];
    return typeof by === "string" && by !== "none" ? `${decision} by ${by}` : decision;
  }
  const transport = span.attributes["network.transport"];
  if (typeof transport === "string") {
    const address = span.attributes["server.address"];
    return typeof address === "string" ? `MCP over ${transport} · ${address}` : `MCP over ${transport}`;
  }
  return undefined;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
