import type { Content, GenerateContentConfig } from "@google/genai";
import { providerOptionsFor } from "@junction/provider-utils";
import { JunctionError, type ModelRequest, type ToolNameMapping, type Warning } from "@junction/types";
import { convertToGeminiMessages } from "./convert-to-gemini-messages.js";
import { type GeminiSettings, geminiProviderName } from "./gemini-settings.js";
import { prepareGeminiTools } from "./prepare-gemini-tools.js";

/** What `models.generateContentStream` takes, without the abort signal the I/O adds. */
export interface GeminiRequestBody {
  model: string;
  contents: Content[];
  config: GenerateContentConfig;
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
 * Whether tool-result media go inside `functionResponse.parts` for `model`: the setting when it is
 * a boolean, else (`"auto"`, the default) whether the model is Gemini 3 or later.
 */
export function usesMultimodalFunctionResponses(
  setting: boolean | "auto" | undefined,
  model: string,
): boolean {
  return setting === undefined || setting === "auto" ? isGemini3OrLater(model) : setting;
}

/**
 * Builds the `generateContentStream` parameters for a model request. Pure.
 *
 * Everything in `providerOptions.gemini` besides `multimodalFunctionResponses` goes into
 * Gemini's `GenerateContentConfig` as is (`thinkingConfig`, `safetySettings`, `cachedContent`, …);
 * a `toolConfig` there is merged with the one Junction builds from `toolChoice`.
 *
 * @throws `JunctionError` with code `invalid-argument` when no message has content to send.
 */
export function buildGeminiRequest(
  request: ModelRequest,
  settings: Pick<GeminiSettings, "name" | "multimodalFunctionResponses">,
): { body: GeminiRequestBody; warnings: Warning[]; toolNames: ToolNameMapping } {
  const providerName = geminiProviderName(settings);
  const { multimodalFunctionResponses: requested, ...vendorOptions } = providerOptionsFor(
    request,
    providerName,
  );
  const multimodalSetting =
    typeof requested === "boolean" || requested === "auto"
      ? requested
      : (settings.multimodalFunctionResponses ?? "auto");
  const gemini3 = isGemini3OrLater(request.model);

  const prepared = prepareGeminiTools({
    tools: request.tools,
    toolChoice: request.toolChoice,
    messages: request.messages,
  });
  const converted = convertToGeminiMessages(request.system, request.messages, {
    toolNames: prepared.toolNames,
    multimodalFunctionResponses: usesMultimodalFunctionResponses(multimodalSetting, request.model),
    requireThoughtSignatures: gemini3,
    providerName,
  });
  if (converted.contents.length === 0) {
    throw new JunctionError("invalid-argument", "A Gemini request needs at least one message with content.");
  }

  const vendorToolConfig = vendorOptions.toolConfig as GenerateContentConfig["toolConfig"];
  const config: GenerateContentConfig = {
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
    // Structured output: `responseMimeType` application/json with `responseJsonSchema`, plain JSON
    // Schema (https://ai.google.dev/gemini-api/docs/structured-output).
    ...(request.responseFormat
      ? { responseMimeType: "application/json", responseJsonSchema: request.responseFormat.schema }
      : {}),
  };
  return {
    body: { model: request.model, contents: converted.contents, config },
    warnings: [...prepared.warnings, ...converted.warnings],
    toolNames: prepared.toolNames,
  };
}
