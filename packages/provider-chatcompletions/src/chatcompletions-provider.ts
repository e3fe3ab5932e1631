import type { ModelProvider, ProviderCapabilities } from "@junction/types";
import { chatCompletionsProviderName } from "./build-chatcompletions-request.js";
import { createChatCompletionsModel } from "./chatcompletions-model.js";

/** Settings for {@link chatCompletions}. */
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
  /** A `fetch` to use instead of the global one (proxies, tests). */
  fetch?: typeof fetch;
}

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
  return {
    name: chatCompletionsProviderName(settings),
    capabilities,
    stream: createChatCompletionsModel(settings),
  };
}
