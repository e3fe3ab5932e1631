import type { AssistantContentPart, Message, ToolCallPart } from "./messages.js";
import type { JSONSchema, ToolDefinition } from "./tool.js";

/** Something worth telling the user that did not stop the work: a dropped setting, a degraded result. */
export interface Warning {
  /** Stable, machine-readable, for example `tool-result-image-unsupported`. */
  code: string;
  message: string;
}

/** Token counts. Counts a vendor does not report are absent, never guessed. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  /** Input tokens read from the vendor's prompt cache (included in `inputTokens`). */
  cachedInputTokens?: number;
  /** Input tokens written to the vendor's prompt cache (included in `inputTokens`). */
  cacheWriteInputTokens?: number;
  /** Output tokens spent on reasoning (included in `outputTokens`). */
  reasoningTokens?: number;
}

/** Why the model stopped, mapped from each vendor's own words. */
export type FinishReason = "stop" | "length" | "tool-calls" | "content-filter" | "error" | "other";

/** How the model may use tools on this request. */
export type ToolChoice = "auto" | "none" | "required" | { type: "tool"; name: string };

/** One request to a model. */
export interface ModelRequest {
  model: string;
  system?: string;
  messages: Message[];
  tools?: ToolDefinition[];
  toolChoice?: ToolChoice;
  maxTokens?: number;
  temperature?: number;
  topP?: number;
  stopSequences?: string[];
  /** Cancels the HTTP request and the stream. */
  signal?: AbortSignal;
  /** Vendor-specific settings keyed by provider name, passed through to that vendor only. */
  providerOptions?: Record<string, Record<string, unknown>>;
  /**
   * Asks for the answer as JSON matching `schema`, in the vendor's native structured-output form.
   * Core sets it only on the steps where the provider's {@link StructuredOutputMode} says the
   * format and the offered tools mix; a provider without a native form ignores it with a warning.
   */
  responseFormat?: ResponseFormat;
}

/** A JSON answer the request asks for (see {@link ModelRequest.responseFormat}). */
export interface ResponseFormat {
  type: "json";
  /** The JSON Schema of the answer (an object schema). */
  schema: JSONSchema;
  /** A name for the schema, where the vendor wants one (`^[a-zA-Z0-9_-]{1,64}$`). @default "answer" */
  name?: string;
  description?: string;
}

/**
 * How a vendor's structured output combines with tools, so core knows where the format goes:
 *
 * - `native-with-tools`: the response format is sent on every step beside the tools; the model
 *   still calls tools, and its final text is the JSON answer.
 * - `final-step-only`: the format stops tool calls (or is ignored with them), so steps with tools
 *   go without it; once the model stops calling tools, an answer that is not valid JSON is asked
 *   for once more with the format and without tools.
 * - `answer-tool`: no usable native form: core offers a final-answer tool (its input schema is the
 *   answer's) beside the real tools, and the model ends by calling it.
 */
export type StructuredOutputMode = "native-with-tools" | "final-step-only" | "answer-tool";

/**
 * The neutral stream every provider produces.
 *
 * - `text-delta` / `reasoning-delta`: pieces as they arrive.
 * - `tool-call-start`, `tool-call-delta` (raw argument JSON text), then `tool-call` once the
 *   arguments are complete and parsed: a caller may start the tool right then.
 * - `finish` comes last, once, with the whole assistant turn in `content` (in order, with the
 *   provider metadata the vendor needs echoed back), the mapped reason and the usage.
 * - A failure is thrown by the iterator as a `ProviderError`, never sent as an event.
 */
export type ModelStreamEvent =
  | { type: "text-delta"; text: string }
  | { type: "reasoning-delta"; text: string }
  | { type: "tool-call-start"; id: string; name: string }
  | { type: "tool-call-delta"; id: string; argumentsDelta: string }
  /** The call complete, as the turn's part holds it (its vendor-run `program` too). */
  | ToolCallPart
  | { type: "warning"; warning: Warning }
  | {
      type: "finish";
      reason: FinishReason;
      /** The vendor's own stop reason, for diagnostics. */
      rawReason?: string;
      usage: Usage;
      content: AssistantContentPart[];
      /** The vendor's response id, where it has one. */
      responseId?: string;
      /** The model's refusal, where the vendor reports one apart from the text (OpenAI's `refusal`). */
      refusal?: string;
    };

/** What a provider can carry natively; whatever it cannot becomes a warning, never a silent drop. */
export interface ProviderCapabilities {
  toolResultImages: boolean;
  toolResultAudio: boolean;
  /** Documents (PDF and other embedded resources with binary contents) in tool results. */
  toolResultDocuments: boolean;
  userImages: boolean;
  userAudio: boolean;
  parallelToolCalls: boolean;
  reasoning: boolean;
  /**
   * The largest media part the vendor takes, per kind. A tool result's part over its limit
   * reaches the model as a short note instead (with a warning); the full result stays in the
   * conversation and the `tool-result` event.
   *
   * Omitted (or a kind omitted): 5 MiB per part, the Agent's conservative default.
   */
  mediaLimits?: MediaLimits;
  /**
   * How a requested JSON answer combines with tools on this model (see {@link StructuredOutputMode}).
   *
   * Omitted: `answer-tool`, which works wherever tools do.
   */
  structuredOutput?: StructuredOutputMode;
  /**
   * The model's context window in tokens: what one request (system prompt, tool definitions,
   * messages) and its answer may take together. Core derives its budgets from it (how much of a
   * tool result reaches the model, when tool definitions are deferred behind a search).
   *
   * Omitted: the Agent assumes 128,000 tokens.
   */
  contextWindowTokens?: number;
  /** The most tokens the model writes in one answer, as the vendor documents it. Omitted: unknown. */
  maxOutputTokens?: number;
  /**
   * The vendor defers tools and searches them itself for this model: a request's tool definitions
   * marked `defer: true` go out with the vendor's deferred loading and its search tool, and the
   * vendor's search blocks come back in the turn (kept as opaque provider metadata and sent back).
   * Core then sends every tool with its deferral instead of adding its own `search_tools`.
   * Omitted: no native search; core's client-side search is used.
   */
  nativeToolSearch?: boolean;
  /**
   * The vendor runs programs the model writes, which call the request's tools (Anthropic's
   * programmatic tool calling, OpenAI's Programmatic Tool Calling): a tool definition's `callers`
   * says which tools a program may call, and the calls a program makes come back as tool calls
   * (their caller kept in provider metadata and sent back). Omitted: the model calls tools itself.
   */
  programmaticToolCalling?: boolean;
}

/**
 * Per-part media limits, in bytes of decoded data (what the base64 `data` or `blob` decodes
 * to; base64 text is 4/3 of it). Each is the vendor's documented per-part limit, or a share of
 * its per-request limit, so one part cannot make the request fail.
 */
export interface MediaLimits {
  /** The largest image (`image` part). */
  maxImageBytes?: number;
  /** The largest audio clip (`audio` part). */
  maxAudioBytes?: number;
  /** The largest document (an embedded resource's `blob`, such as a PDF). */
  maxDocumentBytes?: number;
}

/** A model vendor's API, adapted to Junction's neutral messages and events. */
export interface ModelProvider {
  /** The provider's name, also its key in `providerOptions` and `ProviderMetadata`. */
  readonly name: string;
  /**
   * What the provider carries natively, for its models in general. Where a model can carry
   * less (or more), {@link ModelProvider.capabilitiesFor} says so for that model.
   */
  readonly capabilities: ProviderCapabilities;
  /**
   * What the provider can carry natively for one model, where that differs by model (Gemini
   * takes images inside function responses only from Gemini 3 on; older models get them beside
   * it, with a warning). A reader asks `provider.capabilitiesFor?.(model) ?? provider.capabilities`.
   *
   * Omitted: every model carries what {@link ModelProvider.capabilities} says.
   *
   * @param model The model id as it goes in `ModelRequest.model`.
   */
  capabilitiesFor?(model: string): ProviderCapabilities;
  /** Streams one model turn. Non-streaming use reads the stream to its `finish` event. */
  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent>;
}
