// The Anthropic SDK traces its own API calls with the global OpenTelemetry tracer provider and
// sends trace context headers to the API, unless its client is told not to. Junction's tracing
// (@junction/otel) already has a `chat` span per model call, so the provider turns the SDK's off:
// an app that registered an OpenTelemetry SDK gets no second inference span and no trace headers
// sent to the vendor.
import { collectStream, readSSEFixture, startWireFake, type WireFake } from "@junction/wire-fake";
import { context, propagation, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from "@opentelemetry/core";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { anthropic } from "./anthropic-provider.js";

let fake: WireFake;
let exporter: InMemorySpanExporter;
let tracerProvider: BasicTracerProvider;

beforeEach(async () => {
  fake = await startWireFake();
  // What an app's OpenTelemetry setup registers: a global tracer provider, W3C trace context and
  // baggage propagators, and a context manager.
  exporter = new InMemorySpanExporter();
  tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(tracerProvider);
  propagation.setGlobalPropagator(
    new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
  );
});

afterEach(async () => {
  await tracerProvider.shutdown();
  trace.disable();
  propagation.disable();
  context.disable();
  await fake.close();
});

describe("anthropic provider with an OpenTelemetry SDK registered globally", () => {
  it("records no span of the vendor SDK and sends no traceparent, tracestate or baggage to the API", async () => {
    fake.enqueue({
      chunks: readSSEFixture(new URL("./__fixtures__/anthropic-text.sse.txt", import.meta.url)),
    });
    const provider = anthropic({ apiKey: "test-key", baseURL: fake.url });
    const appSpan = trace.getTracer("app").startSpan("app request");
    const active = propagation.setBaggage(
      trace.setSpan(context.active(), appSpan),
      propagation.createBaggage({ "user.id": { value: "ada" } }),
    );
    const { error } = await context.with(active, () =>
      collectStream(
        provider.stream({ model: "claude-sonnet-4-6", messages: [{ role: "user", content: "Hello" }] }),
      ),
    );
    appSpan.end();

    expect(error).toBeUndefined();
    expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual(["app request"]);
    expect(fake.requests).toHaveLength(1);
    const headers = Object.keys(fake.requests[0]!.headers);
    expect(headers.filter((name) => ["traceparent", "tracestate", "baggage"].includes(name))).toEqual([]);
  });
});
