import { contextLimitsFor, OPENAI_CONTEXT_LIMITS } from "@junction/provider-utils";
import type { ModelProvider, ModelRequest, ModelStreamEvent, ProviderCapabilities } from "@junction/types";
import { createOpenAIClientLoader, streamOpenAIResponse } from "./openai-model.js";
import { type OpenAIProviderSettings, openAIProviderName } from "./openai-settings.js";

/** What the Responses API carries natively. Audio and non-PDF binary resources become warnings. */
export const openAICapabilities: ProviderCapabilities = {
  toolResultImages: true,
  toolResultAudio: false,
  toolResultDocuments: true,
  userImages: true,
  userAudio: false,
  parallelToolCalls: true,
  reasoning: true,
  // `text.format` json_schema works beside function tools
  // (https://platform.openai.com/docs/guides/structured-outputs?api-mode=responses).
  structuredOutput: "native-with-tools",
  mediaLimits: {
    // Images: "Up to 50 MB total payload size per request"
    // (https://platform.openai.com/docs/guides/images-vision#image-input-requirements); one image is
    // held to 20 MB (27 MB as base64), OpenAI's long-standing per-image figure, to leave room.
    maxImageBytes: 20_000_000,
    // PDFs: "up to 100 pages and 32MB of total content in a single request"
    // (https://platform.openai.com/docs/guides/pdf-files#usage-considerations).
    maxDocumentBytes: 32_000_000,
  },
};

/**
 * A Junction model provider for the OpenAI Responses API, through the official `openai` SDK.
 *
 * Vendor-specific request fields go in `providerOptions.openai` and are passed through as is
 * (`store`, `reasoning: { effort, summary }`, `parallel_tool_calls`, `include`, `service_tier`, …).
 * Reasoning items come back in the turn's `providerMetadata.openai` and are echoed on the next request.
 * A hosted MCP tool's approval request is never approved on its own: it is kept in the turn
 * (`providerMetadata.openai.mcpApprovalRequest`) with a warning saying how to answer it.
 *
 * @example
 * ```ts
 * import { openai } from "@junction/provider-openai";
 *
 * const provider = openai({ apiKey: process.env.OPENAI_API_KEY });
 * for await (const event of provider.stream({
 *   model: "gpt-5-mini",
 *   messages: [{ role: "user", content: "Say hello" }],
 * })) {
 *   if (event.type === "text-delta") process.stdout.write(event.text);
 * }
 * ```
 */
export function openai(settings: OpenAIProviderSettings = {}): ModelProvider {
  // The SDK is imported and the key read on the first request, not with this package or here:
  // importing the SDK costs more than the rest of a provider, and a missing key is an error of
  // the stream, not of openai().
  const loadClient = createOpenAIClientLoader(settings);
  return {
    name: openAIProviderName,
    capabilities: openAICapabilities,
    capabilitiesFor: (model) => ({
      ...openAICapabilities,
      ...contextLimitsFor(model, OPENAI_CONTEXT_LIMITS),
      ...(hasNativeToolSearch(model) ? { nativeToolSearch: true } : {}),
      ...(hasProgrammaticToolCalling(model) ? { programmaticToolCalling: true } : {}),
    }),
    stream: (request: ModelRequest): AsyncIterable<ModelStreamEvent> =>
      streamOpenAIResponse(loadClient, request, settings),
  };
}

/**
 * Models with OpenAI's hosted tool search (`{ type: "tool_search" }` with `defer_loading` on
 * functions and namespaces): "gpt-5.4 and later models support tool_search"
 * (https://developers.openai.com/api/docs/guides/tools-tool-search). Held to GPT-5.4 and the full
 * models after it (and their `-pro`): the page names no mini or nano model, and a model without it
 * would refuse the request, where Junction's own search works everywhere.
 */
function hasNativeToolSearch(model: string): boolean {
  const id = model.toLowerCase();
  if (/-(mini|nano)\b/.test(id)) return false;
  return /(^|[/.:])gpt-(5\.([4-9]|\d{2,})|[6-9]|\d{2,})(\b|$)/.test(id);
}

/**
 * Models with OpenAI's Programmatic Tool Calling (programs the model writes, run by OpenAI, that
 * call the request's tools). The guide says to "check the model page"
 * (https://developers.openai.com/api/docs/guides/tools-programmatic-tool-calling.md); the one that
 * names it is GPT-5.6's, for the family (`gpt-5.6`, routed to `gpt-5.6-sol`, and `gpt-5.6-terra`,
 * `gpt-5.6-luna`): "Programmatic Tool Calling: GPT-5.6 can write JavaScript to call eligible
 * tools" (https://developers.openai.com/api/docs/guides/latest-model/gpt-5.6.md). Held to that
 * family: a model without it would refuse the request, where core's own code mode runs anywhere.
 */
function hasProgrammaticToolCalling(model: string): boolean {
  return /(^|[/.:])gpt-5\.6(-(sol|terra|luna))?(-\d{4}-\d{2}-\d{2})?$/.test(model.toLowerCase());
}
