export type { SendOptions } from "./agent.js";
export { Agent, type AgentConfig } from "./agent.js";
export type {
  AgentEvent,
  AgentFinishedResult,
  AgentFinishReason,
  AgentHandle,
  AgentResult,
  AgentResultBase,
  AgentStoppedResult,
  NestedCallOf,
  Step,
  ToolCallOutcome,
  ToolSearchResult,
} from "./agent-events.js";
export { agentToolResult } from "./agent-tool-result.js";
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
export type { CodeModeOptions, ToolCallMode } from "./code-mode/code-mode.js";
export { READ_TOOL_RESULT, RUN_PROGRAM, SEARCH_TOOLS } from "./core-tool.js";
export { type Durability, InMemoryDurability, idempotencyKey, type JSONValue } from "./durability.js";
export type { ExfiltrationGuardOptions } from "./exfiltration-guard.js";
export { runStateOf } from "./failed-run-state.js";
export { DEFAULT_MAX_MEDIA_PART_BYTES } from "./media-limits.js";
export { parsePartialJSON } from "./partial-json.js";
export { approvalKey, approvalSignalFor, boundAnswer } from "./pending-approvals.js";
export type { PendingCallParent } from "./pending-tool-call.js";
export { memoryResumeClaims, type ResumeClaims } from "./resume-claims.js";
export { argumentsDigest, canonicalJSON, toolDigest } from "./run-digests.js";
export type { ApprovalAnswer } from "./run-journal.js";
export {
  closeRunState,
  type PendingToolCall,
  parseRunState,
  type Resume,
  type ResumeDecision,
  RUN_STATE_VERSION,
  type RunState,
  type RunStateSignature,
  type SourceDescriptor,
  type ToolSnapshot,
} from "./run-state.js";
export {
  type RunStateKey,
  type RunStateKeys,
  signRunState,
  verifyRunState,
} from "./run-state-signature.js";
export type { ModelSettings } from "./run-types.js";
export { createSamplingHandler, type SamplingHandlerOptions } from "./sampling.js";
export { generate, type StreamOptions, stream, type ToolCallRequest } from "./stream.js";
export { ANSWER_TOOL_NAME, type InferOutput, type OutputSchema } from "./structured-output.js";
export {
  contextWindowOf,
  DEFAULT_CONTEXT_WINDOW_TOKENS,
  estimateJSONTokens,
  estimateRequestSize,
  estimateTextTokens,
  type RequestSize,
} from "./token-estimate.js";
export { type ToolDefinitionWithSchema, tool, type ZodTool } from "./tool.js";
export { DEFAULT_TOOL_LIMITS, type ToolLimits } from "./tool-list-limits.js";
export type { MCPEntry } from "./tool-registry.js";
export { TOOL_RESULT_WINDOW_SHARE } from "./tool-result-budget.js";
export {
  CLOSEST_TOOLS,
  DEFAULT_MIX_WEIGHT,
  DENSE_RRF_K,
  type EmbeddingCache,
  InMemoryEmbeddingCache,
  LOW_FIT_TOOLS,
  MIN_CLOSEST_RELEVANCE,
  MIN_RELEVANCE,
  MOST_LOADED_TOOLS,
  SMALL_CATALOG_TOOLS,
  type ToolSearchFusion,
  type ToolSearchOptions,
  toolEmbeddingDigest,
  toolEmbeddingText,
} from "./tool-search.js";
export {
  type SearchableTool,
  ToolIndex,
  type ToolSearchHit,
  type ToolSourceInfo,
} from "./tool-search-index.js";
export {
  searchRequestOf,
  searchRequestSchema,
  type ToolSearchOutput,
  toolSearchFit,
  toolSearchResult,
} from "./tool-search-tool.js";
export type { TraceCarrier } from "./trace-carrier.js";
export type {
  ModelCallInput,
  Span,
  SpanAttributes,
  SpanAttributeValue,
  SpanOperation,
  SpanOutcome,
  SpanStartOptions,
  ToolCallProgramOf,
  Tracer,
} from "./tracing.js";
