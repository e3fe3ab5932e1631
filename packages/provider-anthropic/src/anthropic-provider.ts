import type { ModelProvider, ProviderCapabilities } from "@junction/types";
import { createAnthropicModel } from "./anthropic-model.js";
import { anthropicProviderName } from "./build-anthropic-request.js";

/** Settings for {@link anthropic}. */
export interface AnthropicProviderSettings {
  /**
   * The API key, trimmed. Checked on the first request: without one, `stream()` throws a
   * `ProviderError` with code `provider-config-invalid`.
   * @default process.env.ANTHROPIC_API_KEY
   */
  apiKey?: string;
  /**
   * The API's base URL, as the Anthropic SDK means it: without `/v1`.
   * @default process.env.ANTHROPIC_BASE_URL, else https://api.anthropic.com
   */
  baseURL?: string;
  /** Headers sent with every request, for example `anthropic-beta`. */
  headers?: Record<string, string>;
  /**
   * How often the SDK retries 408, 409, 429 and 5xx responses and connection errors
   * (honouring `retry-after`), before the error is thrown.
   * @default 2
   */
  maxRetries?: number;
  /**
   * Milliseconds before a request times out.
   * @default 600000 (the SDK's default)
   */
  timeout?: number;
  /** A `fetch` to use instead of the global one (proxies, tests). */
  fetch?: typeof fetch;
  /**
   * `max_tokens` for requests that do not set `maxTokens` (the Messages API requires one).
   * With extended thinking on, the thinking budget is added to it.
   * @default 4096
   */
  defaultMaxTokens?: number;
}

/**
 * What the Anthropic provider carries natively: images and PDFs (and text documents) in tool
 * results and user messages, parallel tool calls and extended thinking. Audio is not
 * accepted anywhere; it becomes a warning and a text note.
 */
const anthropicCapabilities: ProviderCapabilities = {
  toolResultImages: true,
  toolResultAudio: false,
  toolResultDocuments: true,
  userImages: true,
  userAudio: false,
  parallelToolCalls: true,
  reasoning: true,
  mediaLimits: {
    // "Images up to 5 MB" (https://docs.anthropic.com/en/docs/build-with-claude/vision); the API
    // checks the base64 text ("image exceeds 5 MB maximum: … bytes > 5242880 bytes"), which is
    // 3.75 MiB of image.
    maxImageBytes: 3_932_160,
    // PDFs: a request is at most 32 MB (https://docs.anthropic.com/en/docs/build-with-claude/pdf-support);
    // one document is held to half of that as base64, so it leaves room for the rest.
    maxDocumentBytes: 12 * 1024 * 1024,
  },
};

/**
 * Creates a model provider for Anthropic's Messages API, through the official
 * `@anthropic-ai/sdk`.
 *
 * Vendor options go in `providerOptions.anthropic` and are added to the request body as the
 * API names them, for example `thinking: { type: "enabled", budget_tokens: 2048 }`, `top_k`,
 * `metadata` or a `tool_choice` with `disable_parallel_tool_use`.
 *
 * @example
 * import { Agent } from "@junction/core";
 * import { anthropic } from "@junction/provider-anthropic";
 *
 * const agent = new Agent({ provider: anthropic(), model: "claude-sonnet-4-6" });
 * const { text } = await agent.send("Hello!").final;
 */
export function anthropic(settings: AnthropicProviderSettings = {}): ModelProvider {
  return {
    name: anthropicProviderName,
    capabilities: anthropicCapabilities,
    stream: createAnthropicModel(settings),
  };
}
