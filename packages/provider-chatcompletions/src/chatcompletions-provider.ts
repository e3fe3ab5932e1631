import { type ModelProvider, type ProviderCapabilities, ProviderError } from "@junction/types";
import type OpenAI from "openai";
import { streamChatCompletions } from "./chatcompletions-model.js";
import { loadOpenAISDK, type OpenAISDK } from "./load-openai-sdk.js";

/** Settings for {@link chatCompletions}. */
export interface ChatCompletionsSettings {
  /**
   * The API key, sent as `Authorization: Bearer …`.
   * @default process.env.OPENAI_API_KEY; with a `baseURL` and no key, no Authorization header is sent
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
  const name = settings.name ?? "chatcompletions";
  const apiKey = settings.apiKey ?? readEnvironment("OPENAI_API_KEY");
  const baseURL = settings.baseURL ?? readEnvironment("OPENAI_BASE_URL");
  if (!apiKey && !baseURL) {
    throw new ProviderError({
      code: "provider-config-invalid",
      provider: name,
      message:
        "chatCompletions needs an apiKey (or OPENAI_API_KEY) for api.openai.com, or a baseURL of a server that needs none, such as http://localhost:11434/v1 for Ollama.",
    });
  }
  // The SDK is imported on the first request, not with this package: importing it costs more
  // than the rest of a provider. The settings above are still checked here, at once.
  let loaded: { client: OpenAI; sdk: OpenAISDK } | undefined;
  const client = async (): Promise<{ client: OpenAI; sdk: OpenAISDK }> => {
    if (loaded) return loaded;
    const sdk = await loadOpenAISDK();
    loaded ??= {
      client: new sdk.default({
        // The SDK insists on a key; servers that need none get no Authorization header at all.
        apiKey: apiKey || "unused",
        baseURL,
        // Never send an OpenAI organisation or project from the environment to another vendor.
        organization: null,
        project: null,
        defaultHeaders: { ...(apiKey ? {} : { Authorization: null }), ...settings.headers },
        ...(settings.maxRetries !== undefined ? { maxRetries: settings.maxRetries } : {}),
        ...(settings.timeout !== undefined ? { timeout: settings.timeout } : {}),
        ...(settings.fetch ? { fetch: settings.fetch } : {}),
      }),
      sdk,
    };
    return loaded;
  };
  const config = {
    name,
    client,
    includeUsage: settings.includeUsage ?? true,
    echoReasoning: settings.echoReasoning ?? false,
    generateId: () => `call_${crypto.randomUUID().replace(/-/g, "").slice(0, 24)}`,
  };
  return {
    name,
    capabilities,
    stream: (request) => streamChatCompletions(config, request),
  };
}

function readEnvironment(variable: string): string | undefined {
  const value = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[
    variable
  ];
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}
