// Helpers for this package's tests (outside src/, never published): a real OpenTelemetry SDK, a local OTLP/HTTP
// receiver, and the traced MCP test server over stdio and Streamable HTTP.
import { type ChildProcess, spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { context, SpanKind } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import {
  AggregationTemporality,
  type DataPoint,
  type Histogram,
  MeterProvider,
  MetricReader,
} from "@opentelemetry/sdk-metrics";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  type SpanProcessor,
} from "@opentelemetry/sdk-trace-base";

export const tracedServer = join(dirname(fileURLToPath(import.meta.url)), "traced-server.mjs");

let contextManager: AsyncLocalStorageContextManager | undefined;

/** Registers the AsyncLocalStorage context manager once, as the Node SDK does. */
export function useAsyncContext(): void {
  if (contextManager) return;
  contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
}

/** A metric reader the test collects from on demand. */
class TestMetricReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

/** One histogram point as the tests compare them. */
export interface HistogramPoint {
  attributes: Record<string, unknown>;
  count: number;
  sum: number;
}

/** A tracer provider with an in-memory exporter (and more processors), and a meter provider to collect from. */
export function otelSdk(extra: SpanProcessor[] = []) {
  useAsyncContext();
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter), ...extra],
  });
  const reader = new TestMetricReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    tracerProvider,
    meterProvider,
    spans: () => exporter.getFinishedSpans(),
    /** The histogram points of `name`, by their attributes. */
    async histogram(name: string): Promise<HistogramPoint[]> {
      const { resourceMetrics } = await reader.collect();
      const metric = resourceMetrics.scopeMetrics
        .flatMap((scope) => scope.metrics)
        .find((candidate) => candidate.descriptor.name === name);
      return (metric?.dataPoints ?? []).map((point) => {
        const value = (point as DataPoint<Histogram>).value;
        return { attributes: { ...point.attributes }, count: value.count, sum: value.sum ?? 0 };
      });
    },
    async shutdown(): Promise<void> {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
    },
  };
}

/** A span as the tests read it: name, kind, parent, attributes, status, events, links. */
export function view(span: ReadableSpan) {
  return {
    name: span.name,
    kind: SpanKind[span.kind],
    traceId: span.spanContext().traceId,
    spanId: span.spanContext().spanId,
    parentSpanId: span.parentSpanContext?.spanId,
    attributes: { ...span.attributes },
    status: span.status,
    events: span.events.map((event) => ({ name: event.name, attributes: { ...event.attributes } })),
    links: span.links.map((link) => link.context),
  };
}

/** A span the local OTLP receiver got. */
export interface ReceivedSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  kind: number;
  attributes: Record<string, unknown>;
  scope: string;
}

/** A local OTLP/HTTP (JSON) receiver for `/v1/traces`. */
export async function startReceiver(): Promise<{
  url: string;
  spans: ReceivedSpan[];
  close(): Promise<void>;
}> {
  const spans: ReceivedSpan[] = [];
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
      resourceSpans: { scopeSpans: { scope: { name: string }; spans: Record<string, unknown>[] }[] }[];
    };
    for (const resource of body.resourceSpans ?? []) {
      for (const scope of resource.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) {
          spans.push({
            name: String(span.name),
            traceId: hex(span.traceId),
            spanId: hex(span.spanId),
            parentSpanId: hex(span.parentSpanId),
            kind: Number(span.kind),
            attributes: Object.fromEntries(
              ((span.attributes ?? []) as { key: string; value: Record<string, unknown> }[]).map(
                (attribute) => [attribute.key, Object.values(attribute.value)[0]],
              ),
            ),
            scope: scope.scope.name,
          });
        }
      }
    }
    response.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}/v1/traces`,
    spans,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** OTLP/JSON ids are hex; a base64 one (older encoders) is turned into hex. */
function hex(value: unknown): string {
  if (typeof value !== "string" || value === "") return "";
  return /^[0-9a-f]+$/.test(value) ? value : Buffer.from(value, "base64").toString("hex");
}

/** An OTLP/HTTP exporter to `url`, as a span processor. */
export function otlpProcessor(url: string): SpanProcessor {
  return new SimpleSpanProcessor(new OTLPTraceExporter({ url }));
}

/** The traced test server over Streamable HTTP, in its own process (`sessions`: stateful, with `Mcp-Session-Id`). */
export async function startHttpTracedServer(
  tracesUrl: string,
  mode: "http" | "sessions" = "http",
): Promise<{ url: string; stop(): Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, [tracedServer, mode], {
    env: { ...process.env, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: tracesUrl },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
      const match = /listening (\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    });
    child.once("exit", (code) => reject(new Error(`traced server exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/mcp?token=secret-query-token`,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill();
      }),
  };
}

/** Waits until `check` passes (the server exports its spans just before it answers; the receiver may lag a tick). */
export async function eventually<T>(check: () => T, timeoutMs = 5000): Promise<T> {
  const start = Date.now();
  for (;;) {
    try {
      return check();
    } catch (error) {
      if (Date.now() - start > timeoutMs) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}
