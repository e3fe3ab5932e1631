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
   * Send function tools in strict mode, with each schema rewritten to OpenAI's strict rules
   * (schemas that cannot be strict are sent non-strict, with a warning). A request can override
   * it with `providerOptions.openai.strictTools`.
   * @default false
   */
  strictTools?: boolean;
}

/** The provider's name: its key in `providerOptions` and `providerMetadata`. */
export const openAIProviderName = "openai";
