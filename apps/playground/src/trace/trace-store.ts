import { type JunctionTelemetry, junctionTelemetry } from "@junction/otel";
import { context, SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  BasicTracerProvider,
  type ReadableSpan,
  SimpleSpanProcessor,
  type SpanExporter,
} from "@opentelemetry/sdk-trace-base";
import type { TraceSpan } from "../shared/trace-waterfall.js";

/** Traces kept; older ones go as new ones come. */
const KEPT_TRACES = 50;
/** Spans kept per trace: a runaway loop does not grow the store without bound. */
const KEPT_SPANS = 2000;

/**
 * Where a run's trace is kept beyond the process (the playground's SQLite store): the page's
 * "Trace of this run" still opens after a restart.
 */
export interface TraceArchive {
  /** Keeps a trace's spans, replacing what was kept for it. */
  saveTrace(traceId: string, spans: readonly TraceSpan[]): void;
  /** A kept trace's spans, or undefined. */
  getTrace(traceId: string): TraceSpan[] | undefined;
}

/**
 * The playground's own OpenTelemetry pipeline: `@junction/otel` on an SDK whose exporter keeps
 * the last traces in memory as `TraceSpan` JSON for the page's waterfall, and each run's trace
 * (an `invoke_agent` span's) in the archive once the run span ends. Content capture stays off,
 * so a trace holds names, timings, tokens and errors, never arguments or results.
 */
export class TraceStore {
  readonly telemetry: JunctionTelemetry;
  readonly #provider: BasicTracerProvider;
  readonly #traces = new Map<string, TraceSpan[]>();
  readonly #archive: TraceArchive | undefined;
  /** The traces in memory that are runs, so a span that ends after its run's is archived too. */
  readonly #runTraces = new Set<string>();

  constructor(options: { archive?: TraceArchive } = {}) {
    this.#archive = options.archive;
    // Without a context manager MCP requests would not nest under their tool calls.
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    const exporter: SpanExporter = {
      export: (spans, done) => {
        for (const span of spans) this.#keep(toTraceSpan(span));
        done({ code: 0 });
      },
      shutdown: async () => undefined,
    };
    this.#provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    this.telemetry = junctionTelemetry({ tracerProvider: this.#provider, agentName: "playground" });
  }

  /**
   * The spans of one trace, in the order they ended, from memory or else the archive; empty when
   * the trace is unknown or gone.
   */
  trace(traceId: string): TraceSpan[] {
    const spans = this.#traces.get(traceId);
    if (spans) return [...spans];
    return this.#archive?.getTrace(traceId) ?? [];
  }

  /** The trace ids of the runs (`invoke_agent` spans) kept, newest last. */
  runs(): string[] {
    return [...this.#traces.entries()]
      .filter(([, spans]) =>
        spans.some((span) => span.attributes["gen_ai.operation.name"] === "invoke_agent"),
      )
      .map(([traceId]) => traceId);
  }

  /** Ends the pipeline: spans still open are dropped. */
  async close(): Promise<void> {
    await this.#provider.shutdown();
  }

  #keep(span: TraceSpan): void {
    let spans = this.#traces.get(span.traceId);
    if (!spans) {
      spans = [];
      this.#traces.set(span.traceId, spans);
      for (const oldest of this.#traces.keys()) {
        if (this.#traces.size <= KEPT_TRACES) break;
        this.#traces.delete(oldest);
        this.#runTraces.delete(oldest);
      }
    }
    if (spans.length >= KEPT_SPANS) return;
    spans.push(span);
    if (span.attributes["gen_ai.operation.name"] === "invoke_agent") this.#runTraces.add(span.traceId);
    if (this.#archive && this.#runTraces.has(span.traceId)) {
      try {
        this.#archive.saveTrace(span.traceId, spans);
      } catch {
        // Not archived, the trace is still served from memory: only a restart would lose it.
      }
    }
  }
}

/** A finished SDK span as the page's plain JSON. */
export function toTraceSpan(span: ReadableSpan): TraceSpan {
  const { traceId, spanId } = span.spanContext();
  const parentSpanId = span.parentSpanContext?.spanId;
  const failed = span.status.code === SpanStatusCode.ERROR;
  const errorType = span.attributes["error.type"];
  return {
    traceId,
    spanId,
    ...(parentSpanId ? { parentSpanId } : {}),
    name: span.name,
    kind: SpanKind[span.kind].toLowerCase(),
    startMs: hrTimeToMs(span.startTime),
    endMs: hrTimeToMs(span.endTime),
    attributes: { ...span.attributes } as TraceSpan["attributes"],
    ...(failed ? { error: span.status.message ?? String(errorType ?? "error") } : {}),
  };
}

function hrTimeToMs([seconds, nanos]: [number, number]): number {
  return seconds * 1000 + nanos / 1e6;
}
