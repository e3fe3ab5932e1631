import type { GoogleGenAI, HttpRetryOptions } from "@google/genai";
import { type ModelProvider, ProviderError } from "@junction/types";
import { streamGemini } from "./gemini-model.js";
import { type GeminiSDK, loadGeminiSDK } from "./load-gemini-sdk.js";

/** Settings for {@link gemini}. */
export interface GeminiSettings {
  /**
   * The Gemini API key.
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
   * @default "auto"
   */
  multimodalFunctionResponses?: boolean | "auto";
  /** The provider's name: its key in `providerOptions` and `providerMetadata`. @default "gemini" */
  name?: string;
}

/**
 * A Junction model provider for Google's Gemini API, through the official `@google/genai`
 * SDK (`models.generateContentStream`). Everything in `providerOptions.gemini` besides
 * `multimodalFunctionResponses` is passed to Gemini's `GenerateContentConfig` as is (for
 * example `thinkingConfig: { includeThoughts: true }`, `safetySettings`, `cachedContent`).
 *
 * @example
 * ```ts
 * import { Agent } from "@junction/core";
 * import { gemini } from "@junction/provider-gemini";
 *
 * const agent = new Agent({ provider: gemini(), model: "gemini-3-flash-preview" });
 * const result = await agent.send("Hello!").final;
 * ```
 */
export function gemini(settings: GeminiSettings = {}): ModelProvider {
  const name = settings.name ?? "gemini";
  let loaded: { client: GoogleGenAI; sdk: GeminiSDK } | undefined;
  // The SDK is imported on the first request, not with this package: importing it costs more
  // than the rest of a provider. A missing key still fails the first request, before the import.
  const getClient = async (): Promise<{ client: GoogleGenAI; sdk: GeminiSDK }> => {
    if (loaded) return loaded;
    const apiKey = settings.apiKey ?? readEnvironment("GEMINI_API_KEY") ?? readEnvironment("GOOGLE_API_KEY");
    if (!apiKey) {
      throw new ProviderError({
        code: "provider-config-invalid",
        provider: name,
        message: "No Gemini API key: pass gemini({ apiKey }) or set GEMINI_API_KEY (or GOOGLE_API_KEY).",
      });
    }
    const maxRetries = settings.maxRetries ?? 2;
    const sdk = await loadGeminiSDK();
    const client = new sdk.GoogleGenAI({
      apiKey,
      ...(settings.apiVersion ? { apiVersion: settings.apiVersion } : {}),
      httpOptions: {
        ...(settings.baseURL ? { baseUrl: settings.baseURL } : {}),
        ...(settings.headers ? { headers: settings.headers } : {}),
        ...(settings.timeout !== undefined ? { timeout: settings.timeout } : {}),
        ...(maxRetries > 0 ? { retryOptions: { ...settings.retryOptions, attempts: maxRetries + 1 } } : {}),
      },
    });
    loaded ??= { client, sdk };
    return loaded;
  };

  return {
    name,
    capabilities: {
      toolResultImages: true,
      toolResultAudio: false,
      toolResultDocuments: true,
      userImages: true,
      userAudio: true,
      parallelToolCalls: true,
      reasoning: true,
    },
    stream: (request) =>
      streamGemini(
        {
          name,
          client: getClient,
          multimodalFunctionResponses: settings.multimodalFunctionResponses ?? "auto",
          timeoutMs: settings.timeout,
        },
        request,
      ),
  };
}

function readEnvironment(key: string): string | undefined {
  const value = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[
    key
  ];
  return value === "" ? undefined : value;
}
