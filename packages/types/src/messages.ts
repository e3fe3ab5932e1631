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
  /**
   * Set when a program the vendor ran made the call rather than the model itself (provider-mode
   * code mode: Anthropic's programmatic tool calling, OpenAI's Programmatic Tool Calling). A
   * model-neutral reading of the vendor's `caller`; what goes back to the vendor stays in
   * `providerMetadata`.
   */
  program?: ToolCallProgram;
  providerMetadata?: ProviderMetadata;
}

/** The vendor-run program a tool call was made by (see {@link ToolCallPart.program}). */
export interface ToolCallProgram {
  /**
   * The program's id in the conversation: Anthropic's code execution `server_tool_use` id, OpenAI's
   * `program` item `call_id`. Every call the same program makes names the same id, in later turns too.
   */
  id: string;
  /**
   * The vendor's tool that ran the program: Anthropic's code execution version (the caller's `type`,
   * such as `code_execution_20250825`), OpenAI's `programmatic_tool_calling`.
   */
  runtime: string;
  /**
   * The program's source as the vendor reported it: the code of the `server_tool_use` or `program`
   * item with that id, from this turn or an earlier one of the conversation sent. Absent when
   * neither carries it.
   */
  source?: string;
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
