export { type ContentCaptureOptions, DEFAULT_MAX_CONTENT_CHARS } from "./content.js";
export { withConversation } from "./conversation.js";
export {
  type JunctionTelemetry,
  type JunctionTelemetryOptions,
  junctionTelemetry,
} from "./junction-telemetry.js";
export type { InstrumentableMCPServerOptions, MCPServedRequest } from "./mcp-server-spans.js";
export type { InstrumentableMCPConfig, MCPOutgoingRequest, MCPTapMessage } from "./mcp-spans.js";
export { SEMCONV_SCHEMA_URL, SEMCONV_VERSION } from "./semconv.js";
