export {
  createAbortError,
  isAbortError,
  isRetryableStatus,
  JunctionError,
  type JunctionErrorCode,
  type JunctionErrorOptions,
  ProviderError,
} from "./errors.js";
export type * from "./mcp-protocol.js";
export type {
  AssistantContentPart,
  AssistantMessage,
  AssistantTextPart,
  Message,
  ProviderMetadata,
  ReasoningPart,
  ToolCallPart,
  ToolMessage,
  ToolResultMessagePart,
  UserContentPart,
  UserMessage,
} from "./messages.js";
export type {
  FinishReason,
  ModelProvider,
  ModelRequest,
  ModelStreamEvent,
  ProviderCapabilities,
  ToolChoice,
  Usage,
  Warning,
} from "./model-provider.js";
export type {
  AudioPart,
  EmbeddedResourcePart,
  ImagePart,
  JSONSchema,
  ResourceLinkPart,
  TextPart,
  Tool,
  ToolAnnotations,
  ToolContext,
  ToolDefinition,
  ToolOutput,
  ToolProgress,
  ToolResult,
  ToolResultPart,
  ToolSource,
} from "./tool.js";
export {
  COMMON_TOOL_NAME_RULE,
  createToolNameMapping,
  type ToolNameMapping,
  type ToolNameRule,
  toolNamesInMessages,
} from "./tool-names.js";
export { isToolResult, isToolResultPart } from "./type-guards.js";
