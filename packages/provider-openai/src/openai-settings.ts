/** Settings for `openai()`. */
export interface OpenAIProviderSettings {
  /** API key (trimmed; an empty one counts as unset). @default process.env.OPENAI_API_KEY */
  apiKey?: string;
  /**
   * Base URL, as the `openai` SDK means it: including `/v1`.
   * @default process.env.OPENAI_BASE_URL, else "https://api.openai.com/v1"
   */
  baseURL?: string;
  /** OpenAI organization id, sent as `OpenAI-Organization`. */
  organization?: string;
  /** OpenAI project id, sent as `OpenAI-Project`. */
  project?: string;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
  /** Retries of 408, 409, 429 and 5xx responses and connection errors, by the SDK. @default 2 */
  maxRetries?: number;
  /** Timeout of one request in milliseconds. @default 600000 (the SDK's) */
  timeout?: number;
  /** A fetch implementation, for proxies or tests. @default globalThis.fetch */
  fetch?: typeof fetch;
  /**
   * Lets the `openai` SDK run in a browser, which it refuses by default (its `dangerouslyAllowBrowser`
   * option): an API key given to a web page can be read by everyone who opens the page. Turn it on
   * only where the page holds no real key: a proxy of your own that adds the key on its side (give
   * `apiKey` a placeholder the proxy replaces), or a local server that needs none.
   * Outside browsers (Node.js, Bun, Deno, Workers) it changes nothing.
   * @default false
   */
  dangerouslyAllowBrowser?: boolean;
  /**
   * Send function tools in strict mode, with each schema rewritten to OpenAI's strict rules
   * (schemas that cannot be strict are sent non-strict, with a warning). A request can override
   * it with `providerOptions.openai.strictTools`.
   * @default false
   */
  strictTools?: boolean;
}

/** The provider's name: its key in `providerOptions` and `providerMetadata`. */
export const openAIProviderName = "openai";
