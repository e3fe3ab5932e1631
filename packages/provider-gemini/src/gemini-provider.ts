import { contextLimitsFor, type ModelContextLimits } from "@junction/provider-utils";
import type { ModelProvider, ProviderCapabilities, StructuredOutputMode } from "@junction/types";
import { isGemini3OrLater, usesMultimodalFunctionResponses } from "./build-gemini-request.js";
import { createGeminiClientLoader, streamGemini } from "./gemini-model.js";
import { type GeminiSettings, geminiProviderName } from "./gemini-settings.js";

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
  // The SDK is imported and the key read on the first request, not with this package or here:
  // importing the SDK costs more than the rest of a provider, and a missing key is an error of
  // the stream, not of gemini().
  const loadClient = createGeminiClientLoader(settings);
  return {
    name: geminiProviderName(settings),
    // For Gemini models in general: media inside function responses unless turned off outright.
    capabilities: geminiCapabilities({
      multimodalFunctionResponses: settings.multimodalFunctionResponses !== false,
      structuredOutput: "final-step-only",
    }),
    capabilitiesFor: (model) => ({
      ...geminiCapabilities({
        multimodalFunctionResponses: usesMultimodalFunctionResponses(
          settings.multimodalFunctionResponses,
          model,
        ),
        // Structured output combines with function calling from Gemini 3 on; older models answer
        // in JSON only on a step without tools (https://ai.google.dev/gemini-api/docs/structured-output).
        structuredOutput: isGemini3OrLater(model) ? "native-with-tools" : "final-step-only",
      }),
      ...contextLimitsFor(model, GEMINI_CONTEXT_LIMITS, GEMINI_DEFAULT_LIMITS),
    }),
    stream: (request) => streamGemini(loadClient, request, settings),
  };
}

/**
 * Inline data: Google is "increasing the maximum payload size for inline data from 20MB to 100MB
 * (base64 encoded, with varying limits based on data types)"
 * (https://blog.google/innovation-and-ai/technology/developers-tools/gemini-api-new-file-limits,
 * January 2026). One part is held to 20 MB, the earlier whole-request limit, so several fit in one
 * request and endpoints still on the old limit take it too.
 */
const geminiMediaLimits = {
  maxImageBytes: 20_000_000,
  maxAudioBytes: 20_000_000,
  maxDocumentBytes: 20_000_000,
};

/**
 * What Gemini carries natively. Images and PDFs in tool results go inside `functionResponse.parts`
 * only with multimodal function responses (Gemini 3 and later, or the setting forced on); without
 * them they go beside the function response with a warning, so the provider does not count them
 * as carried. A request's `providerOptions.gemini.multimodalFunctionResponses` can still change
 * that one request.
 */
function geminiCapabilities(options: {
  multimodalFunctionResponses: boolean;
  structuredOutput: StructuredOutputMode;
}): ProviderCapabilities {
  const { multimodalFunctionResponses, structuredOutput } = options;
  return {
    structuredOutput,
    toolResultImages: multimodalFunctionResponses,
    toolResultAudio: false,
    toolResultDocuments: multimodalFunctionResponses,
    userImages: true,
    userAudio: true,
    parallelToolCalls: true,
    reasoning: true,
    mediaLimits: geminiMediaLimits,
  };
}

/**
 * Gemini's limits ("Input token limit" and "Output token limit"), checked on 2026-11-25 against
 * Google's model pages, https://ai.google.dev/gemini-api/docs/models/<model> (gemini-3-pro-preview,
 * gemini-3.1-pro-preview, gemini-3.5-flash-lite, gemini-3.1-flash-live-preview, gemini-2.5-flash-lite,
 * gemini-2.0-flash, gemini-2.0-flash-lite), https://ai.google.dev/gemini-api/docs/whats-new-gemini-3.6
 * (3.6 Flash and 3.5 Flash-Lite: 1M window, 64K output) and Google Cloud's model pages
 * (https://docs.cloud.google.com/gemini-enterprise-agent-platform/models/gemini/3-flash,
 * .../3-1-flash-lite, .../guides/gemini-3-8-flash, which also gives 3.7 Flash). Every Gemini 3.x
 * text model read has 1,048,576 and 65,536, so `gemini-3` covers the family; the Live and image
 * models are the exceptions. Third-party only: the image models' 65,536 and 32,768 (Google's
 * gemini-api-dev skill as published at skills.sh, unconfirmed). Not re-checked: Gemini 2.5 Pro and
 * Flash (taken to match 2.5 Flash-Lite's page) and the retired Gemini 1.5 models (unconfirmed).
 */
const GEMINI_CONTEXT_LIMITS: Readonly<Record<string, ModelContextLimits>> = {
  "gemini-3": { contextWindowTokens: 1_048_576, maxOutputTokens: 65_536 },
  "gemini-3.1-flash-live": { contextWindowTokens: 131_072, maxOutputTokens: 65_536 },
  "gemini-3-pro-image": { contextWindowTokens: 65_536, maxOutputTokens: 32_768 },
  "gemini-3.1-flash-image": { contextWindowTokens: 65_536, maxOutputTokens: 32_768 },
  "gemini-2.5-pro": { contextWindowTokens: 1_048_576, maxOutputTokens: 65_536 },
  "gemini-2.5-flash": { contextWindowTokens: 1_048_576, maxOutputTokens: 65_536 },
  "gemini-2.0-flash": { contextWindowTokens: 1_048_576, maxOutputTokens: 8_192 },
  "gemini-1.5-pro": { contextWindowTokens: 2_097_152, maxOutputTokens: 8_192 },
  "gemini-1.5-flash": { contextWindowTokens: 1_048_576, maxOutputTokens: 8_192 },
};

/** An unlisted Gemini model: every listed text model takes at least 1M tokens; the output limit of the oldest listed. */
const GEMINI_DEFAULT_LIMITS: ModelContextLimits = { contextWindowTokens: 1_048_576, maxOutputTokens: 8_192 };
