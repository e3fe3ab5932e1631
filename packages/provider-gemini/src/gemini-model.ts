import type { GenerateContentConfig, GoogleGenAI } from "@google/genai";
import { JunctionError, type ModelRequest, type ModelStreamEvent } from "@junction/types";
import { convertToGeminiMessages } from "./convert-to-gemini-messages.js";
import { GeminiStreamState } from "./gemini-stream-state.js";
import type { GeminiErrorClasses } from "./load-gemini-sdk.js";
import { mapGeminiError } from "./map-gemini-error.js";
import { prepareGeminiTools } from "./prepare-gemini-tools.js";

/** What the stream needs from the provider. */
export interface GeminiModelConfig {
  name: string;
  /**
   * Loads the SDK and creates its client on first use (so a missing API key fails the request,
   * not the import, and importing the package does not load the SDK).
   */
  client: () => Promise<{ client: GoogleGenAI; sdk: GeminiErrorClasses }>;
  multimodalFunctionResponses: boolean | "auto";
  timeoutMs?: number;
}

/** Junction's own keys in `providerOptions.gemini`; everything else goes to Gemini's config. */
interface JunctionGeminiOptions {
  multimodalFunctionResponses?: boolean | "auto";
}

/**
 * True for model ids of Gemini 3 and later (`gemini-3-pro-preview`, `models/gemini-3.1-flash`):
 * the models that take media inside function responses and require thought signatures.
 */
export function isGemini3OrLater(model: string): boolean {
  const match = /^(?:models\/)?gemini-(\d+)/.exec(model);
  return match !== null && Number(match[1]) >= 3;
}

/**
 * Streams one Gemini turn with `models.generateContentStream` and yields neutral events.
 * Failures are thrown as `ProviderError`; an aborted `request.signal` (or leaving the loop
 * early) aborts the HTTP request, and an abort throws `JunctionError` with code `aborted`.
 */
export async function* streamGemini(
  config: GeminiModelConfig,
  request: ModelRequest,
): AsyncGenerator<ModelStreamEvent> {
  const { name } = config;
  const { multimodalFunctionResponses: requested, ...vendorOptions } = (request.providerOptions?.[name] ??
    {}) as JunctionGeminiOptions & Record<string, unknown>;
  const multimodalSetting = requested ?? config.multimodalFunctionResponses;
  const gemini3 = isGemini3OrLater(request.model);

  const prepared = prepareGeminiTools({
    tools: request.tools,
    toolChoice: request.toolChoice,
    messages: request.messages,
  });
  const converted = convertToGeminiMessages(request.system, request.messages, {
    toolNames: prepared.toolNames,
    multimodalFunctionResponses: multimodalSetting === "auto" ? gemini3 : multimodalSetting,
    requireThoughtSignatures: gemini3,
    providerName: name,
  });
  for (const warning of [...prepared.warnings, ...converted.warnings]) yield { type: "warning", warning };
  if (converted.contents.length === 0) {
    throw new JunctionError("invalid-argument", "A Gemini request needs at least one message with content.");
  }

  if (request.signal?.aborted) {
    throw new JunctionError("aborted", `The ${name} request was aborted.`, { cause: request.signal.reason });
  }
  // Our own controller also stops the HTTP stream when the caller leaves the loop early.
  const controller = new AbortController();
  const onAbort = () => controller.abort(request.signal?.reason);
  request.signal?.addEventListener("abort", onAbort, { once: true });

  const vendorToolConfig = vendorOptions.toolConfig as GenerateContentConfig["toolConfig"];
  const generationConfig: GenerateContentConfig = {
    ...(request.maxTokens !== undefined ? { maxOutputTokens: request.maxTokens } : {}),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(request.topP !== undefined ? { topP: request.topP } : {}),
    ...(request.stopSequences?.length ? { stopSequences: request.stopSequences } : {}),
    ...vendorOptions,
    ...(converted.systemInstruction ? { systemInstruction: converted.systemInstruction } : {}),
    ...(prepared.tools ? { tools: prepared.tools } : {}),
    ...(prepared.toolConfig || vendorToolConfig
      ? { toolConfig: { ...vendorToolConfig, ...prepared.toolConfig } }
      : {}),
    abortSignal: controller.signal,
  };

  const state: GeminiStreamState = new GeminiStreamState({
    providerName: name,
    toolNames: prepared.toolNames,
    generateId: (index) =>
      state.responseId ? `${state.responseId}-${index}` : `gemini-${globalThis.crypto.randomUUID()}`,
  });
  const errorContext = { providerName: name, signal: request.signal, timeoutMs: config.timeoutMs };

  try {
    let sdk: GeminiErrorClasses | undefined;
    let stream: AsyncIterable<unknown>;
    try {
      const loaded = await config.client();
      sdk = loaded.sdk;
      stream = await loaded.client.models.generateContentStream({
        model: request.model,
        contents: converted.contents,
        config: generationConfig,
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
    if (request.signal?.aborted) {
      throw new JunctionError("aborted", `The ${name} request was aborted.`, {
        cause: request.signal.reason,
      });
    }
    yield state.finish();
  } finally {
    request.signal?.removeEventListener("abort", onAbort);
    controller.abort();
  }
}
