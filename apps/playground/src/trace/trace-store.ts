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
 * The playground's own OpenTelemetry pipeline: `@junction/otel` on an SDK whose exporter keeps
 * the last traces in memory as `TraceSpan` JSON for the page's waterfall. Content capture stays
 * off, so a trace holds names, timings, tokens and errors, never arguments or results.
 */
export class TraceStore {
  readonly telemetry: JunctionTelemetry;
  readonly #provider: BasicTracerProvider;
  readonly #traces = new Map<string, TraceSpan[]>();

  constructor() {
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

  /** The spans of one trace, in the order they ended; empty when the trace is unknown or gone. */
  trace(traceId: string): TraceSpan[] {
    return [...(this.#traces.get(traceId) ?? [])];
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
      }
    }
    if (spans.length < KEPT_SPANS) spans.push(span);
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
