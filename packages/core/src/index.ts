export { Agent, type AgentConfig } from "./agent.js";
export type { AgentEvent, AgentFinishReason, AgentHandle, AgentResult, Step } from "./agent-events.js";
export {
  type ApprovalDecision,
  type ApprovalFunction,
  type ApprovalPolicy,
  type ApprovalRequest,
  annotationPolicy,
  type NamePattern,
  type NamePatternPolicy,
  namePatternPolicy,
} from "./approval.js";
export type { ExfiltrationGuardOptions } from "./exfiltration-guard.js";
export type { ModelSettings } from "./run-loop.js";
export { createSamplingHandler, type SamplingHandlerOptions } from "./sampling.js";
export { generate, type StreamOptions, stream, type ToolCallRequest } from "./stream.js";
export { type ToolDefinitionWithSchema, tool, type ZodTool } from "./tool.js";
export type { MCPEntry } from "./tool-registry.js";
export type { Span, SpanAttributes, SpanAttributeValue, Tracer } from "./tracing.js";
