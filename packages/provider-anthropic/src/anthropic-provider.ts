import type Anthropic from "@anthropic-ai/sdk";
import { type ModelProvider, type ProviderCapabilities, ProviderError } from "@junction/types";
import { streamAnthropic } from "./anthropic-model.js";
import { type AnthropicSDK, loadAnthropicSDK } from "./load-anthropic-sdk.js";

/** Settings for {@link anthropic}. */
export interface AnthropicProviderSettings {
  /**
   * The API key.
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
export const anthropicCapabilities: ProviderCapabilities = {
  toolResultImages: true,
  toolResultAudio: false,
  toolResultDocuments: true,
  userImages: true,
  userAudio: false,
  parallelToolCalls: true,
  reasoning: true,
};

const providerName = "anthropic";

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
  let loaded: { client: Anthropic; sdk: AnthropicSDK } | undefined;
  // The SDK is imported on the first request, not with this package: importing it costs more
  // than the rest of a provider. A missing key still fails the first request, before the import.
  const getClient = async (): Promise<{ client: Anthropic; sdk: AnthropicSDK }> => {
    if (loaded) return loaded;
    const apiKey = settings.apiKey ?? globalThis.process?.env?.ANTHROPIC_API_KEY;
    if (!apiKey) {
      throw new ProviderError({
        code: "provider-config-invalid",
        provider: providerName,
        message: "No Anthropic API key: pass apiKey to anthropic() or set ANTHROPIC_API_KEY.",
      });
    }
    const sdk = await loadAnthropicSDK();
    const client = new sdk.default({
      apiKey,
      ...(settings.baseURL !== undefined ? { baseURL: settings.baseURL } : {}),
      ...(settings.headers !== undefined ? { defaultHeaders: settings.headers } : {}),
      ...(settings.maxRetries !== undefined ? { maxRetries: settings.maxRetries } : {}),
      ...(settings.timeout !== undefined ? { timeout: settings.timeout } : {}),
      ...(settings.fetch !== undefined ? { fetch: settings.fetch } : {}),
    });
    loaded ??= { client, sdk };
    return loaded;
  };

  return {
    name: providerName,
    capabilities: anthropicCapabilities,
    stream: (request) =>
      (async function* () {
        const { client, sdk } = await getClient();
        yield* streamAnthropic(client, request, {
          providerName,
          defaultMaxTokens: settings.defaultMaxTokens,
          sdk,
        });
      })(),
  };
}
