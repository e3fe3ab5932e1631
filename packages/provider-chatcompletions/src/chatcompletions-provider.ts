import { contextLimitsFor, OPENAI_CONTEXT_LIMITS } from "@junction/provider-utils";
import type { ModelProvider, ProviderCapabilities } from "@junction/types";
import { createChatCompletionsModel } from "./chatcompletions-model.js";
import { type ChatCompletionsSettings, chatCompletionsProviderName } from "./chatcompletions-settings.js";

/**
 * Base URLs of popular OpenAI-compatible servers, to spread into {@link chatCompletions}'s settings.
 *
 * @example
 * const provider = chatCompletions({ ...CHAT_COMPLETIONS_PRESETS.ollama });
 */
export const CHAT_COMPLETIONS_PRESETS = {
  /** Ollama's OpenAI-compatible API (`ollama serve`). No key needed. */
  ollama: { baseURL: "http://localhost:11434/v1", name: "ollama" },
  /** vLLM's server (`vllm serve <model>`). No key unless started with `--api-key`. */
  vllm: { baseURL: "http://localhost:8000/v1", name: "vllm" },
  /** LM Studio's local server. No key needed. */
  lmStudio: { baseURL: "http://localhost:1234/v1", name: "lmstudio" },
  /** llama.cpp's `llama-server`. No key unless started with `--api-key`. */
  llamaCpp: { baseURL: "http://localhost:8080/v1", name: "llamacpp" },
  /** OpenRouter. Needs `apiKey` (an OpenRouter key, e.g. from OPENROUTER_API_KEY). */
  openRouter: { baseURL: "https://openrouter.ai/api/v1", name: "openrouter" },
} as const satisfies Record<string, ChatCompletionsSettings>;

const capabilities: ProviderCapabilities = {
  // Tool messages carry only text: images and audio go in a following user message, with a warning.
  toolResultImages: false,
  toolResultAudio: false,
  toolResultDocuments: false,
  userImages: true,
  userAudio: true,
  parallelToolCalls: true,
  reasoning: true,
  mediaLimits: {
    // OpenAI's limit, "Up to 50 MB total payload size per request"
    // (https://platform.openai.com/docs/guides/images-vision#image-input-requirements), with one image
    // held to 20 MB. Other endpoints document their own (or none); audio and documents keep the
    // Agent's 5 MiB default, as no per-part figure is documented for input_audio.
    maxImageBytes: 20_000_000,
  },
};

/**
 * A model provider for any OpenAI-compatible Chat Completions endpoint (OpenAI, Ollama,
 * vLLM, LM Studio, llama.cpp, OpenRouter, Groq, …), through the official `openai` SDK.
 *
 * @example
 * import { chatCompletions } from "@junction/provider-chatcompletions";
 * const provider = chatCompletions({ baseURL: "http://localhost:11434/v1" });
 * for await (const event of provider.stream({ model: "qwen3", messages: [{ role: "user", content: "Hi" }] })) {
 *   if (event.type === "text-delta") process.stdout.write(event.text);
 * }
 */
export function chatCompletions(settings: ChatCompletionsSettings = {}): ModelProvider {
  const capabilitiesWithOutput = {
    ...capabilities,
    // json_schema and JSON mode both go beside tools; without either, core's answer tool does.
    structuredOutput:
      (settings.structuredOutputs ?? "json-schema") === "none"
        ? ("answer-tool" as const)
        : ("native-with-tools" as const),
  };
  return {
    name: chatCompletionsProviderName(settings),
    capabilities: capabilitiesWithOutput,
    // OpenAI's models have documented limits; another server's model is unknown here, and the
    // Agent assumes its default window for it.
    capabilitiesFor: (model) => ({
      ...capabilitiesWithOutput,
      ...contextLimitsFor(model, OPENAI_CONTEXT_LIMITS),
    }),
    stream: createChatCompletionsModel(settings),
  };
}
