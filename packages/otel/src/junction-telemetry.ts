import type { Tracer } from "@junction/core";
import { type MeterProvider, metrics, type TracerProvider, trace } from "@opentelemetry/api";
import { createAgentTracer } from "./agent-spans.js";
import { type ContentCaptureOptions, contentCaptureOf } from "./content.js";
import { type InstrumentableMCPServerOptions, instrumentMCPServerOptions } from "./mcp-server-spans.js";
import { type InstrumentableMCPConfig, instrumentMCPConfig } from "./mcp-spans.js";
import {
  INSTRUMENTATION_NAME,
  latestExperimentalOnly,
  MCP_DURATION_BUCKETS,
  METRIC,
  OPERATION_DURATION_BUCKETS,
  SEMCONV_SCHEMA_URL,
  TOKEN_USAGE_BUCKETS,
} from "./semconv.js";
import { onOneClock, type Shared } from "./shared.js";

/** How {@link junctionTelemetry} reports. */
export interface JunctionTelemetryOptions {
  /** Where spans go. @default the global TracerProvider (`trace.getTracerProvider()`) */
  tracerProvider?: TracerProvider;
  /** Where metrics go. @default the global MeterProvider (`metrics.getMeterProvider()`) */
  meterProvider?: MeterProvider;
  /** `gen_ai.agent.name`, and the `invoke_agent {name}` span name. @default "junction" */
  agentName?: string;
  /**
   * Put content on spans: the model's output (`gen_ai.output.messages`), tool arguments and
   * results (`gen_ai.tool.call.arguments`/`result`), approval reasons. Off by default: content
   * may hold personal data. On, each attribute is cut to `maxChars` and values under keys that
   * look like secrets are replaced. Headers, environment variables and URLs' paths and queries
   * are never recorded.
   * @default false
   */
  captureContent?: boolean | ContentCaptureOptions;
  /**
   * The value of `OTEL_SEMCONV_STABILITY_OPT_IN` to follow. With `gen_ai_latest_experimental`
   * only the latest conventions are emitted; without it the deprecated `gen_ai.system` is set
   * beside `gen_ai.provider.name`, for backends that still read it.
   * @default process.env.OTEL_SEMCONV_STABILITY_OPT_IN
   */
  semconvStabilityOptIn?: string;
}

/** Tracing and metrics for Junction's agents and MCP connections; see {@link junctionTelemetry}. */
export interface JunctionTelemetry {
  /** Give it to an Agent (`new Agent({ tracer })`), or to `stream()`/`generate()`. */
  readonly tracer: Tracer;
  /**
   * An MCP connection's config with the hooks that trace it and carry trace context to the
   * server: `new MCP(telemetry.instrumentMCP({ transport: "stdio", command: "…" }))`.
   */
  instrumentMCP<T extends InstrumentableMCPConfig>(config: T): T;
  /**
   * An MCP server's options (`@junction/mcp-server`'s `createMCPServer`) with the hook that traces
   * it: a SERVER span per request that continues the caller's trace (`_meta.traceparent`), with
   * the served agents' spans as its children, and `mcp.server.operation.duration`:
   * `createMCPServer(telemetry.instrumentMCPServer({ name, version, tools }))`.
   */
  instrumentMCPServer<T extends InstrumentableMCPServerOptions>(options: T): T;
}

/**
 * Turns on OpenTelemetry for Junction, following the GenAI and MCP semantic conventions
 * (version {@link SEMCONV_VERSION}): `invoke_agent`, `chat`, `execute_tool` and MCP client spans,
 * `gen_ai.client.operation.duration`, `gen_ai.client.token.usage` and
 * `mcp.client.operation.duration`, and W3C trace context in every MCP request's `_meta`.
 * Spans nest under the current span when a context manager is registered (the Node SDK does).
 *
 * @example
 * ```ts
 * const telemetry = junctionTelemetry();
 * const fs = new MCP(telemetry.instrumentMCP({ transport: "stdio", command: "mcp-fs" }));
 * const agent = new Agent({ provider, model, mcps: [fs], tracer: telemetry.tracer });
 * ```
 */
export function junctionTelemetry(options: JunctionTelemetryOptions = {}): JunctionTelemetry {
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(
    INSTRUMENTATION_NAME,
    undefined,
    {
      schemaUrl: SEMCONV_SCHEMA_URL,
    },
  );
  const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(
    INSTRUMENTATION_NAME,
    undefined,
    {
      schemaUrl: SEMCONV_SCHEMA_URL,
    },
  );
  const optIn = options.semconvStabilityOptIn ?? globalThis.process?.env?.OTEL_SEMCONV_STABILITY_OPT_IN;
  const shared: Shared = {
    tracer: onOneClock(tracer),
    operationDuration: meter.createHistogram(METRIC.operationDuration, {
      description: "GenAI operation duration.",
      unit: "s",
      advice: { explicitBucketBoundaries: OPERATION_DURATION_BUCKETS },
    }),
    tokenUsage: meter.createHistogram(METRIC.tokenUsage, {
      description: "Number of input and output tokens used.",
      unit: "{token}",
      advice: { explicitBucketBoundaries: TOKEN_USAGE_BUCKETS },
    }),
    mcpDuration: meter.createHistogram(METRIC.mcpClientOperationDuration, {
      description:
        "The duration of the MCP request or notification as observed on the sender from the time it was sent until the response or ack is received.",
      unit: "s",
      advice: { explicitBucketBoundaries: MCP_DURATION_BUCKETS },
    }),
    mcpServerDuration: meter.createHistogram(METRIC.mcpServerOperationDuration, {
      description:
        "MCP request or notification duration as observed on the receiver from the time it was received until the result or ack is sent.",
      unit: "s",
      advice: { explicitBucketBoundaries: MCP_DURATION_BUCKETS },
    }),
    capture: contentCaptureOf(options.captureContent),
    legacySystem: !latestExperimentalOnly(optIn),
    agentName: options.agentName ?? "junction",
    toolSpans: new WeakMap(),
  };
  return {
    tracer: createAgentTracer(shared),
    instrumentMCP: (config) => instrumentMCPConfig(shared, config),
    instrumentMCPServer: (options) => instrumentMCPServerOptions(shared, options),
  };
}
