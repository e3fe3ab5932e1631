/**
 * The OpenTelemetry semantic conventions this package emits: the GenAI conventions (model,
 * agent and tool spans, client metrics) and the MCP conventions, as published with
 * semantic-conventions v1.41.0, the last release before they moved to
 * open-telemetry/semantic-conventions-genai (status Development there, no release of its own yet).
 * Its unreleased breaking changes (token counters replacing `gen_ai.client.token.usage`) are not
 * followed until they are released.
 */
export const SEMCONV_VERSION = "1.41.0";

/** The schema URL of {@link SEMCONV_VERSION}, set on the tracer and meter this package gets. */
export const SEMCONV_SCHEMA_URL = `https://opentelemetry.io/schemas/${SEMCONV_VERSION}`;

/** The instrumentation scope name of every span and metric. */
export const INSTRUMENTATION_NAME = "@junction/otel";

/** Attribute names, as the conventions' registry spells them. */
export const ATTR = {
  operationName: "gen_ai.operation.name",
  providerName: "gen_ai.provider.name",
  /** Deprecated by `gen_ai.provider.name`; still set unless `OTEL_SEMCONV_STABILITY_OPT_IN` has `gen_ai_latest_experimental`. */
  system: "gen_ai.system",
  agentName: "gen_ai.agent.name",
  conversationId: "gen_ai.conversation.id",
  requestModel: "gen_ai.request.model",
  responseId: "gen_ai.response.id",
  finishReasons: "gen_ai.response.finish_reasons",
  inputTokens: "gen_ai.usage.input_tokens",
  outputTokens: "gen_ai.usage.output_tokens",
  cacheReadInputTokens: "gen_ai.usage.cache_read.input_tokens",
  cacheCreationInputTokens: "gen_ai.usage.cache_creation.input_tokens",
  tokenType: "gen_ai.token.type",
  inputMessages: "gen_ai.input.messages",
  outputMessages: "gen_ai.output.messages",
  systemInstructions: "gen_ai.system_instructions",
  toolName: "gen_ai.tool.name",
  toolCallId: "gen_ai.tool.call.id",
  toolType: "gen_ai.tool.type",
  toolCallArguments: "gen_ai.tool.call.arguments",
  toolCallResult: "gen_ai.tool.call.result",
  promptName: "gen_ai.prompt.name",
  errorType: "error.type",
  mcpMethodName: "mcp.method.name",
  mcpProtocolVersion: "mcp.protocol.version",
  mcpResourceUri: "mcp.resource.uri",
  mcpSessionId: "mcp.session.id",
  jsonrpcRequestId: "jsonrpc.request.id",
  rpcResponseStatusCode: "rpc.response.status_code",
  networkTransport: "network.transport",
  networkProtocolName: "network.protocol.name",
  serverAddress: "server.address",
  serverPort: "server.port",
} as const;

/** Metric names and their advised bucket boundaries. */
export const METRIC = {
  operationDuration: "gen_ai.client.operation.duration",
  tokenUsage: "gen_ai.client.token.usage",
  mcpClientOperationDuration: "mcp.client.operation.duration",
  mcpServerOperationDuration: "mcp.server.operation.duration",
} as const;

/** `gen_ai.client.operation.duration`, in seconds. */
export const OPERATION_DURATION_BUCKETS = [
  0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
];

/** `gen_ai.client.token.usage`, in tokens. */
export const TOKEN_USAGE_BUCKETS = [
  1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864,
];

/** `mcp.client.operation.duration`, in seconds. */
export const MCP_DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/**
 * `gen_ai.provider.name` for a Junction provider's `name`: the conventions' well-known value
 * where there is one, else the name itself.
 */
export function providerName(junctionName: string): string {
  switch (junctionName) {
    case "gemini":
      return "gcp.gemini";
    case "bedrock":
      return "aws.bedrock";
    default:
      return junctionName;
  }
}

/**
 * Whether `OTEL_SEMCONV_STABILITY_OPT_IN` asks for the latest experimental GenAI conventions
 * only (`gen_ai_latest_experimental`): then the deprecated `gen_ai.system` is left out.
 */
export function latestExperimentalOnly(value: string | undefined): boolean {
  return (value ?? "")
    .split(",")
    .map((part) => part.trim())
    .includes("gen_ai_latest_experimental");
}
