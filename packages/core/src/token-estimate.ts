import type {
  Message,
  ModelProvider,
  ProviderCapabilities,
  ToolDefinition,
  ToolResult,
  ToolResultPart,
} from "@junction/types";
import { base64DecodedBytes } from "./media-limits.js";
import { MessageFold } from "./message-fold.js";

/**
 * Junction's one token estimator. Every budget and every size it reports is counted this way, so
 * figures compare across providers; none is a vendor's exact count (each vendor tokenizes
 * differently, and a request's real count is in `usage` after it ran).
 *
 * The method, per kind of content:
 * - **Prose** (`text` parts, messages): one token per 4 characters, the rule of thumb OpenAI and
 *   Anthropic both give for English; characters of Chinese, Japanese and Korean scripts count one
 *   token each (their tokenizers rarely merge them).
 * - **JSON** (tool definitions, tool calls' arguments, structured values): one token per 3
 *   characters, since quotes, braces and short keys tokenize densely.
 * - **Images**: 1,600 tokens each, Anthropic's figure for an image at its largest unresized size
 *   (width × height / 750 at about 1.15 megapixels); OpenAI (1,105 at 1024×1024, high detail)
 *   and Gemini (258 per 768×768 tile) charge less, so this errs high.
 * - **Audio**: one token per 500 bytes: Gemini's 32 tokens per second at 128 kbit/s.
 * - **Documents** (PDF and other binary resources): one token per 16 bytes, about 3,000 tokens
 *   (Anthropic's upper figure per PDF page) per 50 KB page.
 * - Each message adds 4 tokens of framing.
 *
 * A tokenizer package was not used: the exact ones are per vendor (OpenAI's BPE tables alone are
 * megabytes), and a budget needs the same yardstick for every provider more than exactness.
 */
export const TOKEN_ESTIMATE = {
  charsPerTextToken: 4,
  charsPerJSONToken: 3,
  tokensPerImage: 1_600,
  audioBytesPerToken: 500,
  documentBytesPerToken: 16,
  tokensPerMessage: 4,
} as const;

/**
 * The window the Agent assumes when a provider declares none for a model: 128,000 tokens, the
 * smallest window of the current models of the five built-in providers' vendors.
 */
export const DEFAULT_CONTEXT_WINDOW_TOKENS = 128_000;

// Han, Hiragana, Katakana, Hangul: one token a character.
const WIDE = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/g;

/** Tokens of prose text. */
export function estimateTextTokens(text: string): number {
  const wide = text.match(WIDE)?.length ?? 0;
  return wide + Math.ceil((text.length - wide) / TOKEN_ESTIMATE.charsPerTextToken);
}

/** Tokens of a JSON value (as its `JSON.stringify` text). */
export function estimateJSONTokens(value: unknown): number {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    // A value that cannot be serialised is not sent as is either; count its string form.
    text = String(value);
  }
  return Math.ceil((text ?? "").length / TOKEN_ESTIMATE.charsPerJSONToken);
}

/** Tokens of one content part (of a user message or a tool result). */
export function estimatePartTokens(part: ToolResultPart): number {
  switch (part.type) {
    case "text":
      return estimateTextTokens(part.text);
    case "image":
      return TOKEN_ESTIMATE.tokensPerImage;
    case "audio":
      return Math.ceil(base64DecodedBytes(part.data) / TOKEN_ESTIMATE.audioBytesPerToken);
    case "resource":
      if (typeof part.resource.text === "string") return estimateTextTokens(part.resource.text);
      if (typeof part.resource.blob === "string") {
        return Math.ceil(base64DecodedBytes(part.resource.blob) / TOKEN_ESTIMATE.documentBytesPerToken);
      }
      return estimateTextTokens(part.resource.uri);
    case "resource_link":
      return estimateTextTokens(`${part.name} ${part.uri} ${part.description ?? ""}`);
    default: {
      const unknown: never = part;
      return estimateJSONTokens(unknown);
    }
  }
}

/** Tokens of a tool's output as the model gets it (a string, or a result's parts). */
export function estimateToolOutputTokens(output: string | ToolResult): number {
  if (typeof output === "string") return estimateTextTokens(output);
  let tokens = 0;
  for (const part of output.content) tokens += estimatePartTokens(part);
  // Providers send structuredContent as JSON when no text part mirrors it.
  if (output.structuredContent !== undefined && !output.content.some((part) => part.type === "text")) {
    tokens += estimateJSONTokens(output.structuredContent);
  }
  return tokens;
}

/** Tokens of a tool definition as it is offered (name, description, schemas, as JSON). */
export function estimateToolDefinitionTokens(definition: ToolDefinition): number {
  return estimateJSONTokens(definition);
}

/**
 * Tokens of the tool definitions the model sees up front. A definition marked `defer: true` goes
 * to a vendor's own search, which keeps its schema out of the model's context until found: it
 * counts its name and description, or, in a group (OpenAI's namespaces), its name and the group's
 * description once. That is what OpenAI shows; Anthropic shows less (nothing of a deferred tool),
 * so the figure errs high there.
 */
export function estimateToolDefinitionsTokens(definitions: readonly ToolDefinition[]): number {
  let tokens = 0;
  const groups = new Set<string>();
  for (const definition of definitions) {
    if (definition.defer !== true) {
      tokens += estimateToolDefinitionTokens(definition);
      continue;
    }
    tokens += estimateTextTokens(definition.name);
    if (!definition.group) tokens += estimateTextTokens(definition.description ?? "");
    else if (!groups.has(definition.group.name)) {
      groups.add(definition.group.name);
      tokens += estimateTextTokens(definition.group.name) + estimateTextTokens(definition.group.description);
    }
  }
  return tokens;
}

/**
 * A model request's size by Junction's one token estimator (prose 4 characters a token, JSON 3,
 * an image 1,600 tokens, …; the method is described in `token-estimate.ts`), split the way a
 * budget is spent.
 */
export interface RequestSize {
  /** The tool definitions offered. */
  tools: number;
  /** The system prompt and every message except tool results. */
  history: number;
  /** The tool results in the messages. */
  toolResults: number;
  /** `tools + history + toolResults`. */
  total: number;
  /** The model's context window (declared, or {@link DEFAULT_CONTEXT_WINDOW_TOKENS}). */
  contextWindow: number;
}

/** Estimates one request's size, and the window it must fit. */
export function estimateRequestSize(request: {
  system?: string;
  messages: Message[];
  tools?: ToolDefinition[];
  contextWindow: number;
}): RequestSize {
  const sums = startMessageTokens();
  for (const message of request.messages) addMessageTokens(sums, message);
  return requestSizeOf(request, sums);
}

/** Tokens of messages, split as {@link RequestSize} splits them. */
interface MessageTokens {
  history: number;
  toolResults: number;
}

function startMessageTokens(): MessageTokens {
  return { history: 0, toolResults: 0 };
}

function addMessageTokens(sums: MessageTokens, message: Message): void {
  sums.history += TOKEN_ESTIMATE.tokensPerMessage;
  if (message.role === "tool") {
    for (const result of message.content) sums.toolResults += estimateToolOutputTokens(result.output);
  } else if (typeof message.content === "string") {
    sums.history += estimateTextTokens(message.content);
  } else {
    for (const part of message.content) {
      if (part.type === "tool-call")
        sums.history += estimateJSONTokens(part.input) + estimateTextTokens(part.name);
      else if (part.type === "reasoning") sums.history += estimateTextTokens(part.text);
      else sums.history += estimatePartTokens(part);
    }
  }
}

function requestSizeOf(
  request: { system?: string; tools?: ToolDefinition[]; contextWindow: number },
  messages: MessageTokens,
): RequestSize {
  const tools = estimateToolDefinitionsTokens(request.tools ?? []);
  // Whole numbers throughout, so the sum is the same in any order.
  const history = (request.system !== undefined ? estimateTextTokens(request.system) : 0) + messages.history;
  const { toolResults } = messages;
  return {
    tools,
    history,
    toolResults,
    total: tools + history + toolResults,
    contextWindow: request.contextWindow,
  };
}

/**
 * {@link estimateRequestSize} kept across a run's steps: each step counts only the messages
 * appended since the last (see {@link MessageFold}), to the same figures as counted afresh.
 */
export class RequestSizeFold {
  readonly #fold = new MessageFold<MessageTokens>(startMessageTokens, addMessageTokens);

  /** {@link estimateRequestSize} of `request`. */
  size(request: {
    system?: string;
    messages: Message[];
    tools?: ToolDefinition[];
    contextWindow: number;
  }): RequestSize {
    return requestSizeOf(request, this.#fold.over(request.messages));
  }
}

/** What `provider` declares for `model`. */
export function capabilitiesOf(provider: ModelProvider, model: string): ProviderCapabilities {
  return provider.capabilitiesFor?.(model) ?? provider.capabilities;
}

/** The context window of `provider`'s `model`: declared, or {@link DEFAULT_CONTEXT_WINDOW_TOKENS}. */
export function contextWindowOf(provider: ModelProvider, model: string): number {
  const declared = capabilitiesOf(provider, model)?.contextWindowTokens;
  return typeof declared === "number" && declared > 0 ? declared : DEFAULT_CONTEXT_WINDOW_TOKENS;
}
