/** Settings for `chatCompletions()`. */
export interface ChatCompletionsSettings {
  /**
   * The API key, sent as `Authorization: Bearer …`; trimmed. Checked on the first request: without
   * a `baseURL` (so for api.openai.com) a missing key throws a `ProviderError` with code
   * `provider-config-invalid`; with a `baseURL` and no key, no Authorization header is sent.
   * @default process.env.OPENAI_API_KEY
   */
  apiKey?: string;
  /**
   * The endpoint's base URL as the `openai` SDK means it, including the version path, for
   * example `http://localhost:11434/v1` for Ollama. See {@link CHAT_COMPLETIONS_PRESETS}.
   * @default process.env.OPENAI_BASE_URL, else https://api.openai.com/v1
   */
  baseURL?: string;
  /** Extra HTTP headers on every request (OpenRouter's `HTTP-Referer`, a proxy's auth, …). */
  headers?: Record<string, string>;
  /**
   * How often the SDK retries a request that failed with 408, 409, 429, 5xx or a connection error.
   * @default 2
   */
  maxRetries?: number;
  /**
   * Per-request timeout in milliseconds.
   * @default 600000 (the SDK's default)
   */
  timeout?: number;
  /**
   * The provider's name: its key in `providerOptions` and `providerMetadata`, and the name
   * in errors. Set it to tell several endpoints apart, for example `"ollama"`.
   * @default "chatcompletions"
   */
  name?: string;
  /**
   * Ask for token usage in the stream (`stream_options.include_usage`). Turn it off for old
   * servers that reject the field.
   * @default true
   */
  includeUsage?: boolean;
  /**
   * Send earlier reasoning back on assistant messages, in the field it arrived in
   * (`reasoning_content` or `reasoning`). Some servers want it (DeepSeek with tool calls);
   * OpenAI rejects it.
   * @default false
   */
  echoReasoning?: boolean;
  /**
   * How a requested JSON answer (`ModelRequest.responseFormat`) is sent:
   *
   * - `"json-schema"`: `response_format: { type: "json_schema", json_schema: { name, schema } }`,
   *   OpenAI's Structured Outputs (https://platform.openai.com/docs/guides/structured-outputs), also
   *   taken by vLLM, Ollama, LM Studio, llama.cpp server and OpenRouter.
   * - `"json-object"`: for endpoints that only know JSON mode: `response_format: { type: "json_object" }`,
   *   with the schema given to the model in the system message (JSON mode needs the word JSON there).
   * - `"none"`: nothing is sent; core offers a final-answer tool instead (the capability says `answer-tool`).
   * @default "json-schema"
   */
  structuredOutputs?: "json-schema" | "json-object" | "none";
  /** A `fetch` to use instead of the global one (proxies, tests). */
  fetch?: typeof fetch;
  /**
   * Lets the `openai` SDK run in a browser, which it refuses by default (its `dangerouslyAllowBrowser`
   * option): an API key given to a web page can be read by everyone who opens the page. Turn it on
   * only where the page holds no real key: a keyless local server such as Ollama, LM Studio or llama.cpp
   * (with a `baseURL`, no key is sent), or a proxy of your own that adds the key on its side.
   * Outside browsers (Node.js, Bun, Deno, Workers) it changes nothing.
   * @default false
   */
  dangerouslyAllowBrowser?: boolean;
}

/** The provider's name: `settings.name`, else `"chatcompletions"`. */
export function chatCompletionsProviderName(settings: Pick<ChatCompletionsSettings, "name">): string {
  return settings.name ?? "chatcompletions";
}
