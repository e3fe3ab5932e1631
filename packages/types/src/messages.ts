import type { TextPart, ToolResult, ToolResultPart } from "./tool.js";

/**
 * Data a provider attaches to a part and needs back on the next request, keyed by provider
 * name: Anthropic thinking signatures, Gemini `thoughtSignature`, OpenAI reasoning item ids.
 * Opaque to everyone else; kept as is in saved conversations.
 */
export type ProviderMetadata = Record<string, Record<string, unknown>>;

/** What a user sends: MCP content blocks (text, images, audio, resources, links). */
export type UserContentPart = ToolResultPart;

/** Text the model wrote. */
export type AssistantTextPart = TextPart & { providerMetadata?: ProviderMetadata };

/** The model's reasoning, where the vendor exposes it. `text` may be empty when it is redacted. */
export interface ReasoningPart {
  type: "reasoning";
  text: string;
  providerMetadata?: ProviderMetadata;
}

/** A call the model asked for. `name` is the real tool name, never the vendor-adapted one. */
export interface ToolCallPart {
  type: "tool-call";
  id: string;
  name: string;
  input: unknown;
  providerMetadata?: ProviderMetadata;
}

export type AssistantContentPart = AssistantTextPart | ReasoningPart | ToolCallPart;

/**
 * The result of one tool call. `output` is a plain string when the tool returned one (it
 * stays a string all the way to the vendor), otherwise the full `ToolResult`.
 */
export interface ToolResultMessagePart {
  type: "tool-result";
  toolCallId: string;
  toolName: string;
  output: string | ToolResult;
}

export interface UserMessage {
  role: "user";
  content: string | UserContentPart[];
}
export interface AssistantMessage {
  role: "assistant";
  content: AssistantContentPart[];
}
export interface ToolMessage {
  role: "tool";
  content: ToolResultMessagePart[];
}

/**
 * The neutral conversation model every provider converts from. Plain JSON: a conversation
 * can be saved with `JSON.stringify` and restored with `JSON.parse`.
 */
export type Message = UserMessage | AssistantMessage | ToolMessage;
