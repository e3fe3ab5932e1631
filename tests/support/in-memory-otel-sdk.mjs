// Preloaded (`node --import`) before a README example that says "after your OpenTelemetry SDK is
// set up": registers what an app's setup would, globally (a tracer provider, W3C propagators and
// the AsyncLocalStorage context manager), with an in-memory exporter, and writes every finished
// span as JSON to the file named by JUNCTION_TEST_SPANS_FILE when the process exits.
import { writeFileSync } from "node:fs";
import { context, propagation, SpanKind, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from "@opentelemetry/core";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";

const spansFile = process.env.JUNCTION_TEST_SPANS_FILE;
if (!spansFile)
  throw new Error("in-memory-otel-sdk.mjs: set JUNCTION_TEST_SPANS_FILE to the file to write spans to");

const exporter = new InMemorySpanExporter();
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
trace.setGlobalTracerProvider(
  new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
);
propagation.setGlobalPropagator(
  new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
);

process.on("exit", () => {
  const spans = exporter.getFinishedSpans().map((span) => ({
    name: span.name,
    kind: SpanKind[span.kind],
    scope: span.instrumentationScope.name,
    traceId: span.spanContext().traceId,
    spanId: span.spanContext().spanId,
    parentSpanId: span.parentSpanContext?.spanId,
    attributes: span.attributes,
  }));
  writeFileSync(spansFile, JSON.stringify(spans));
});
