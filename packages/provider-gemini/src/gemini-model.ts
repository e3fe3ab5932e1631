import type { GoogleGenAI } from "@google/genai";
import { loadApiKey, toAbortError } from "@junction/provider-utils";
import type { ModelRequest, ModelStreamEvent } from "@junction/types";
import { buildGeminiRequest } from "./build-gemini-request.js";
import { type GeminiSettings, geminiProviderName } from "./gemini-settings.js";
import { GeminiStreamState } from "./gemini-stream-state.js";
import { type GeminiSDK, loadGeminiSDK } from "./load-gemini-sdk.js";
import { mapGeminiError } from "./map-gemini-error.js";

/** Where `@google/genai` sends requests when no `baseURL` is set. */
const defaultGeminiBaseURL = "https://generativelanguage.googleapis.com";

/** A client loader: reads the key, loads the SDK and creates the client once, on first use. */
export type GeminiClientLoader = () => Promise<{ client: GoogleGenAI; sdk: GeminiSDK }>;

/** Makes the SDK client for a provider's settings: reads the key, then loads the SDK. */
export function createGeminiClientLoader(settings: GeminiSettings): GeminiClientLoader {
  let loaded: { client: GoogleGenAI; sdk: GeminiSDK } | undefined;
  return async () => {
    if (loaded) return loaded;
    // The key is checked before the SDK is imported, so a missing key fails fast. An empty
    // GEMINI_API_KEY counts as unset and does not hide GOOGLE_API_KEY.
    const apiKey = loadApiKey({
      apiKey: settings.apiKey,
      environmentVariables: ["GEMINI_API_KEY", "GOOGLE_API_KEY"],
      provider: geminiProviderName(settings),
      label: "Gemini",
    });
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
}

/**
 * Streams one Gemini turn with `models.generateContentStream` and yields neutral events.
 * Failures are thrown as `ProviderError`; an aborted `request.signal` (or leaving the loop
 * early) aborts the HTTP request, and an abort throws the abort error of `@junction/types`.
 */
export async function* streamGemini(
  loadClient: GeminiClientLoader,
  request: ModelRequest,
  settings: GeminiSettings,
): AsyncGenerator<ModelStreamEvent> {
  const providerName = geminiProviderName(settings);
  const { body, warnings, toolNames } = buildGeminiRequest(request, settings);
  for (const warning of warnings) yield { type: "warning", warning };
  if (request.signal?.aborted) throw toAbortError(request.signal, undefined, "Gemini");

  // Our own controller also stops the HTTP stream when the caller leaves the loop early.
  const controller = new AbortController();
  const onAbort = () => controller.abort(request.signal?.reason);
  request.signal?.addEventListener("abort", onAbort, { once: true });

  const state: GeminiStreamState = new GeminiStreamState({
    providerName,
    toolNames,
    generateId: (index) =>
      state.responseId ? `${state.responseId}-${index}` : `gemini-${globalThis.crypto.randomUUID()}`,
  });
  const errorContext = {
    providerName,
    signal: request.signal,
    timeoutMs: settings.timeout,
    baseURL: settings.baseURL ?? defaultGeminiBaseURL,
  };

  try {
    let sdk: GeminiSDK | undefined;
    let stream: AsyncIterable<unknown>;
    try {
      const loaded = await loadClient();
      sdk = loaded.sdk;
      stream = await loaded.client.models.generateContentStream({
        ...body,
        config: { ...body.config, abortSignal: controller.signal },
      });
    } catch (error) {
      throw mapGeminiError(error, { ...errorContext, phase: "request", sdk });
    }
    const iterator = stream[Symbol.asyncIterator]();
    while (true) {
      let next: IteratorResult<unknown>;
      try {
        next = await iterator.next();
      } catch (error) {
        throw mapGeminiError(error, { ...errorContext, phase: "stream", requestId: state.responseId, sdk });
      }
      if (next.done) break;
      yield* state.push(next.value);
    }
    if (request.signal?.aborted) throw toAbortError(request.signal, undefined, "Gemini");
    yield* state.finish();
  } finally {
    request.signal?.removeEventListener("abort", onAbort);
    controller.abort();
  }
}
