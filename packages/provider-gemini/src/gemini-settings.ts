import type { HttpRetryOptions } from "@google/genai";

/** Settings for `gemini()`. */
export interface GeminiSettings {
  /**
   * The Gemini API key (trimmed; an empty one counts as unset).
   * @default process.env.GEMINI_API_KEY, then process.env.GOOGLE_API_KEY
   */
  apiKey?: string;
  /**
   * The API's base URL as `@google/genai` means it (`httpOptions.baseUrl`): the host, without
   * the API version, which goes in `apiVersion`.
   * @default "https://generativelanguage.googleapis.com"
   */
  baseURL?: string;
  /** The API version in the path, for example `v1beta`. @default the SDK's default */
  apiVersion?: string;
  /** Extra HTTP headers on every request. */
  headers?: Record<string, string>;
  /**
   * Retries after a failed attempt with a retryable status (408, 429, 500, 502, 503, 504),
   * made by the SDK with exponential backoff. `0` turns retries off.
   * @default 2
   */
  maxRetries?: number;
  /** Fine-tunes the SDK's backoff (`initialDelay`, `maxDelay` in seconds, `expBase`, `jitter`, `httpStatusCodes`). */
  retryOptions?: Omit<HttpRetryOptions, "attempts">;
  /** Per-attempt timeout in milliseconds (also sent to Gemini as `X-Server-Timeout`). */
  timeout?: number;
  /**
   * Where tool-result images and PDFs go. `true`: inside `functionResponse.parts` (Gemini 3
   * and later take them there). `false`: as `inlineData` parts beside the function response in
   * the same turn, for older models, with a warning. `"auto"`: `true` for model ids
   * `gemini-3…` and later, `false` otherwise. Per request: `providerOptions.gemini.multimodalFunctionResponses`.
   * The provider's `capabilitiesFor(model)` follows this setting: `toolResultImages` and
   * `toolResultDocuments` are `true` exactly where the media go inside.
   * @default "auto"
   */
  multimodalFunctionResponses?: boolean | "auto";
  /** The provider's name: its key in `providerOptions` and `providerMetadata`. @default "gemini" */
  name?: string;
}

/** The provider's name (its key in `providerOptions` and `providerMetadata`) for its settings. */
export function geminiProviderName(settings: Pick<GeminiSettings, "name">): string {
  return settings.name ?? "gemini";
}
