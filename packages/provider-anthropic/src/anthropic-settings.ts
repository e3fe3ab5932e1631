/** Settings for `anthropic()`. */
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
   * Lets the Anthropic SDK run in a browser, which it refuses by default (its `dangerouslyAllowBrowser`
   * option): an API key given to a web page can be read by everyone who opens the page. Turn it on
   * only where the page holds no real key: a proxy of your own that adds the key on its side (give
   * `apiKey` a placeholder the proxy replaces), or a local server that needs none.
   * Outside browsers (Node.js, Bun, Deno, Workers) it changes nothing.
   * @default false
   */
  dangerouslyAllowBrowser?: boolean;
  /**
   * `max_tokens` for requests that do not set `maxTokens` (the Messages API requires one).
   * With extended thinking on, the thinking budget is added to it.
   * @default 4096
   */
  defaultMaxTokens?: number;
}

/** The provider's name: its key in `providerOptions` and `providerMetadata`. */
export const anthropicProviderName = "anthropic";
