import { CLAUDE_CONTEXT_LIMITS, CLAUDE_DEFAULT_LIMITS, contextLimitsFor } from "@junction/provider-utils";
import type { ModelProvider, ProviderCapabilities } from "@junction/types";
import { createAnthropicModel } from "./anthropic-model.js";
import { type AnthropicProviderSettings, anthropicProviderName } from "./anthropic-settings.js";

/**
 * What the Anthropic provider carries natively: images and PDFs (and text documents) in tool
 * results and user messages, parallel tool calls and extended thinking. Audio is not
 * accepted anywhere; it becomes a warning and a text note.
 */
const anthropicCapabilities: ProviderCapabilities = {
  toolResultImages: true,
  toolResultAudio: false,
  toolResultDocuments: true,
  userImages: true,
  userAudio: false,
  parallelToolCalls: true,
  reasoning: true,
  // JSON outputs (`output_config.format`) and tools "can be used independently or together in the
  // same request" (https://platform.claude.com/docs/en/build-with-claude/structured-outputs).
  structuredOutput: "native-with-tools",
  mediaLimits: {
    // "Images up to 5 MB" (https://docs.anthropic.com/en/docs/build-with-claude/vision); the API
    // checks the base64 text ("image exceeds 5 MB maximum: … bytes > 5242880 bytes"), which is
    // 3.75 MiB of image.
    maxImageBytes: 3_932_160,
    // PDFs: a request is at most 32 MB (https://docs.anthropic.com/en/docs/build-with-claude/pdf-support);
    // one document is held to half of that as base64, so it leaves room for the rest.
    maxDocumentBytes: 12 * 1024 * 1024,
  },
};

/**
 * Creates a model provider for Anthropic's Messages API, through the official
 * `@anthropic-ai/sdk`.
 *
 * Vendor options go in `providerOptions.anthropic` and are added to the request body as the
 * API names them, for example `thinking: { type: "enabled", budget_tokens: 2048 }`, `top_k`,
 * `metadata` or a `tool_choice` with `disable_parallel_tool_use`.
 *
 * @example
 * import { Agent } from "@junction/core";
 * import { anthropic } from "@junction/provider-anthropic";
 *
 * const agent = new Agent({ provider: anthropic(), model: "claude-sonnet-4-6" });
 * const { text } = await agent.send("Hello!").final;
 */
export function anthropic(settings: AnthropicProviderSettings = {}): ModelProvider {
  return {
    name: anthropicProviderName,
    capabilities: anthropicCapabilities,
    capabilitiesFor: (model) => ({
      ...anthropicCapabilities,
      ...contextLimitsFor(model, CLAUDE_CONTEXT_LIMITS, CLAUDE_DEFAULT_LIMITS),
      ...(hasNativeToolSearch(model) ? { nativeToolSearch: true } : {}),
      ...(hasProgrammaticToolCalling(model) ? { programmaticToolCalling: true } : {}),
    }),
    stream: createAnthropicModel(settings),
  };
}

/**
 * Models with Anthropic's tool search (`defer_loading` and the `tool_search_tool_bm25` server
 * tool), as its page lists them ("supportedModels", read 2026-11-25,
 * https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool): Claude Sonnet
 * and Opus 4.5 and later, Haiku 4.5 and later, and the Fable and Mythos models.
 */
function hasNativeToolSearch(model: string): boolean {
  return /claude-((opus|sonnet|haiku)-(4-[5-9]|[5-9])|fable-|mythos-)/.test(model);
}

/**
 * Models whose code execution may call client tools (programmatic tool calling): Claude Opus and
 * Sonnet 4.5 and later. The programmatic-tool-calling page's compatibility table listed Opus 4.5
 * and Sonnet 4.5 with `code_execution_20250825` at its launch (as LiteLLM's copy of it shows,
 * read 2026-12-02); later Opus and Sonnet models keep it. Haiku is not listed.
 */
function hasProgrammaticToolCalling(model: string): boolean {
  return /claude-(opus|sonnet)-(4-[5-9]|[5-9])/.test(model);
}
