import { Agent, tool } from "@junction/core";
import { scriptedModel } from "@junction/core/testing";
import { junctionTelemetry } from "@junction/otel";
import { context } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { AggregationTemporality, MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics";
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
} from "@opentelemetry/sdk-trace-base";
import { z } from "zod";
import { median, shuffled } from "./stats.ts";

export interface TracingOverheadFigures {
  /** Per step, without a tracer: the Agent's own loop with the scripted model and an instant tool. */
  untracedMs: number;
  /** Per step, with `@junction/otel` on a real SDK whose exporter drops every span. */
  tracedMs: number;
  /** `tracedMs - untracedMs`: what turning tracing on costs per step. */
  overheadMs: number;
  spansPerRun: number;
}

const STEPS = 20;

/** An exporter that takes every span and drops it: the SDK's work is measured, not an export's. */
class NoopExporter implements SpanExporter {
  spans = 0;
  export(spans: ReadableSpan[], done: (result: { code: 0 }) => void): void {
    this.spans += spans.length;
    done({ code: 0 });
  }
  async shutdown(): Promise<void> {}
}

/** A reader that is never collected from: the histograms still aggregate every point. */
class IdleReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

/**
 * Tracing overhead per step: the same 20-step Agent loop (19 tool steps, then text, the scripted
 * model and an instant tool), without a tracer and with `junctionTelemetry()` on the OpenTelemetry
 * SDK (AsyncLocalStorage context, the batch span processor with a no-op exporter, the metric SDK),
 * interleaved; the figure is the difference of the medians per step.
 */
export async function benchTracingOverhead(rounds: number): Promise<TracingOverheadFigures> {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const exporter = new NoopExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(exporter)] });
  const meterProvider = new MeterProvider({ readers: [new IdleReader()] });
  const telemetry = junctionTelemetry({ tracerProvider, meterProvider });
  const noop = tool({
    name: "noop",
    description: "Does nothing.",
    schema: z.object({ i: z.number() }),
    execute: async ({ i }) => `ok ${i}`,
  });
  const turns = () => [
    ...Array.from({ length: STEPS - 1 }, (_, index) => ({
      text: `step ${index + 1}`,
      toolCalls: [{ name: "noop", input: { i: index } }],
    })),
    { text: "done" },
  ];
  const run = async (traced: boolean) => {
    const agent = new Agent({
      provider: scriptedModel(turns()),
      model: "bench",
      tools: [noop],
      maxSteps: STEPS,
      ...(traced ? { tracer: telemetry.tracer } : {}),
    });
    const result = await agent.send("Loop.").final;
    if (result.steps.length !== STEPS) throw new Error(`the Agent ran ${result.steps.length} steps`);
  };
  const perStep: Record<"traced" | "untraced", number[]> = { traced: [], untraced: [] };
  for (let warmup = 0; warmup < 5; warmup++) {
    await run(false);
    await run(true);
  }
  await tracerProvider.forceFlush();
  const before = exporter.spans;
  await run(true);
  await tracerProvider.forceFlush();
  const spansPerRun = exporter.spans - before;
  for (let round = 0; round < rounds; round++) {
    for (const name of shuffled(["traced", "untraced"] as const)) {
      const start = performance.now();
      await run(name === "traced");
      perStep[name].push((performance.now() - start) / STEPS);
    }
  }
  await tracerProvider.shutdown();
  await meterProvider.shutdown();
  context.disable();
  const tracedMs = median(perStep.traced);
  const untracedMs = median(perStep.untraced);
  return { untracedMs, tracedMs, overheadMs: tracedMs - untracedMs, spansPerRun };
}

// Only this part: `node src/bench-tracing-overhead.ts [rounds]`.
if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await benchTracingOverhead(Number(process.argv[2] ?? 60));
  process.stdout.write(
    `tracing overhead per step: ${figures.overheadMs.toFixed(3)} ms (untraced ${figures.untracedMs.toFixed(3)} ms, traced ${figures.tracedMs.toFixed(3)} ms per step; ${figures.spansPerRun} spans per 20-step run)\n`,
  );
}
