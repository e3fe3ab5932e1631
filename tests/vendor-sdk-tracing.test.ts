// An app that registered an OpenTelemetry SDK (a global tracer provider and W3C propagators) and
// runs a model turn inside its own span, with baggage: each provider, as built (its vendor SDK
// bundled or installed), against its local wire fake. No vendor SDK may add spans of its own (with
// @junction/otel each model call would show up twice, its tokens counted twice) or send the app's
// trace context and baggage to the vendor. The bundled @anthropic-ai/sdk did both by default.
import { anthropic } from "@junction/provider-anthropic";
import { bedrock } from "@junction/provider-bedrock";
import { chatCompletions } from "@junction/provider-chatcompletions";
import { gemini } from "@junction/provider-gemini";
import { openai } from "@junction/provider-openai";
import type { ModelProvider } from "@junction/types";
import { collectStream, type RecordedRequest, readSSEFixture, startWireFake } from "@junction/wire-fake";
import { readBedrockFixture, startBedrockFake } from "@junction/wire-fake/bedrock";
import { context, propagation, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from "@opentelemetry/core";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const fixture = (path: string) => new URL(`./__fixtures__/${path}`, import.meta.url);

const exporter = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(tracerProvider);
  propagation.setGlobalPropagator(
    new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
  );
});

afterAll(async () => {
  await tracerProvider.shutdown();
  trace.disable();
  propagation.disable();
  context.disable();
});

const chatCompletionsAnswer = [
  `data: ${JSON.stringify({
    id: "chatcmpl-1",
    object: "chat.completion.chunk",
    created: 1785332890,
    model: "qwen3",
    choices: [
      { index: 0, delta: { role: "assistant", content: "It is the MCP logo." }, finish_reason: "stop" },
    ],
  })}\n\n`,
  "data: [DONE]\n\n",
];

interface Case {
  name: string;
  model: string;
  /** Starts the vendor's fake with one answer queued, and a provider pointed at it. */
  start(): Promise<{ provider: ModelProvider; requests: RecordedRequest[]; close(): Promise<void> }>;
}

const cases: Case[] = [
  {
    name: "anthropic (bundled @anthropic-ai/sdk)",
    model: "claude-sonnet-4-6",
    async start() {
      const fake = await startWireFake();
      fake.enqueue({ chunks: readSSEFixture(fixture("anthropic/anthropic-logo-answer.sse.txt")) });
      return { ...fake, provider: anthropic({ apiKey: "test-key", baseURL: fake.url, maxRetries: 0 }) };
    },
  },
  {
    name: "openai (bundled openai)",
    model: "gpt-5.1",
    async start() {
      const fake = await startWireFake();
      fake.enqueue({ chunks: readSSEFixture(fixture("openai/openai-logo-answer.sse.txt")) });
      return { ...fake, provider: openai({ apiKey: "sk-test", baseURL: `${fake.url}/v1`, maxRetries: 0 }) };
    },
  },
  {
    name: "chatcompletions (bundled openai)",
    model: "qwen3",
    async start() {
      const fake = await startWireFake();
      fake.enqueue({ chunks: chatCompletionsAnswer });
      return { ...fake, provider: chatCompletions({ baseURL: `${fake.url}/v1`, maxRetries: 0 }) };
    },
  },
  {
    name: "gemini (@google/genai)",
    model: "gemini-3-pro-preview",
    async start() {
      const fake = await startWireFake();
      fake.enqueue({ chunks: readSSEFixture(fixture("gemini/gemini-logo-answer.sse.txt")) });
      return {
        ...fake,
        provider: gemini({ apiKey: "test-key", baseURL: fake.url, apiVersion: "v1beta", maxRetries: 0 }),
      };
    },
  },
  {
    name: "bedrock (@aws-sdk/client-bedrock-runtime)",
    model: "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
    async start() {
      const fake = await startBedrockFake();
      fake.enqueue({ frames: readBedrockFixture(fixture("bedrock/bedrock-logo-answer.jsonl")) });
      return {
        ...fake,
        provider: bedrock({
          region: "us-east-1",
          credentials: { accessKeyId: "AKIDFAKEBEDROCK", secretAccessKey: "fake-secret" },
          baseURL: fake.url,
          maxRetries: 0,
        }),
      };
    },
  },
];

describe("vendor SDKs under an app's global OpenTelemetry SDK", () => {
  it.each(cases)("$name records no span of its own and sends no trace context", async ({ model, start }) => {
    exporter.reset();
    const { provider, requests, close } = await start();
    try {
      const appSpan = trace.getTracer("app").startSpan("app request");
      const active = propagation.setBaggage(
        trace.setSpan(context.active(), appSpan),
        propagation.createBaggage({ "user.id": { value: "ada" } }),
      );
      const { events, error } = await context.with(active, () =>
        collectStream(provider.stream({ model, messages: [{ role: "user", content: "What is it?" }] })),
      );
      appSpan.end();

      expect(error).toBeUndefined();
      expect(events.at(-1)).toMatchObject({ type: "finish", reason: "stop" });
      expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual(["app request"]);
      expect(requests).toHaveLength(1);
      const headers = Object.keys(requests[0]!.headers).map((name) => name.toLowerCase());
      expect(headers.filter((name) => ["traceparent", "tracestate", "baggage"].includes(name))).toEqual([]);
    } finally {
      await close();
    }
  });
});
