import {
  type ModelProvider,
  type ModelRequest,
  type ModelStreamEvent,
  type ProviderCapabilities,
  ProviderError,
} from "@junction/types";
import type OpenAI from "openai";
import { loadOpenAISDK, type OpenAISDK } from "./load-openai-sdk.js";
import { streamOpenAIResponse } from "./openai-model.js";

/** Settings for {@link openai}. */
export interface OpenAIProviderSettings {
  /** API key. @default process.env.OPENAI_API_KEY */
  apiKey?: string;
  /**
   * Base URL, as the `openai` SDK means it: including `/v1`.
   * @default process.env.OPENAI_BASE_URL, else "https://api.openai.com/v1"
   */
  baseURL?: string;
  /** OpenAI organization id, sent as `OpenAI-Organization`. */
  organization?: string;
  /** OpenAI project id, sent as `OpenAI-Project`. */
  project?: string;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
  /** Retries of 408, 409, 429 and 5xx responses and connection errors, by the SDK. @default 2 */
  maxRetries?: number;
  /** Timeout of one request in milliseconds. @default 600000 (the SDK's) */
  timeout?: number;
  /** A fetch implementation, for proxies or tests. @default globalThis.fetch */
  fetch?: typeof fetch;
  /**
   * Send function tools in strict mode, with each schema rewritten to OpenAI's strict rules
   * (schemas that cannot be strict are sent non-strict, with a warning). A request can override
   * it with `providerOptions.openai.strictTools`.
   * @default false
   */
  strictTools?: boolean;
}

/** What the Responses API carries natively. Audio and non-PDF binary resources become warnings. */
export const openAICapabilities: ProviderCapabilities = {
  toolResultImages: true,
  toolResultAudio: false,
  toolResultDocuments: true,
  userImages: true,
  userAudio: false,
  parallelToolCalls: true,
  reasoning: true,
};

const providerName = "openai";

/**
 * A Junction model provider for the OpenAI Responses API, through the official `openai` SDK.
 *
 * Vendor-specific request fields go in `providerOptions.openai` and are passed through as is
 * (`store`, `reasoning: { effort, summary }`, `parallel_tool_calls`, `include`, `service_tier`, …).
 * Reasoning items come back in the turn's `providerMetadata.openai` and are echoed on the next request.
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
  let loaded: { client: OpenAI; sdk: OpenAISDK } | undefined;
  // The SDK is imported on the first request, not with this package: importing it costs more
  // than the rest of a provider. A missing key still fails the first request, before the import.
  const getClient = async (): Promise<{ client: OpenAI; sdk: OpenAISDK }> => {
    if (loaded) return loaded;
    const apiKey = settings.apiKey ?? environment("OPENAI_API_KEY");
    if (!apiKey)
      throw new ProviderError({
        code: "provider-config-invalid",
        provider: providerName,
        message: "No OpenAI API key: pass apiKey to openai() or set OPENAI_API_KEY.",
      });
    const sdk = await loadOpenAISDK();
    const client = new sdk.default({
      apiKey,
      baseURL: settings.baseURL ?? environment("OPENAI_BASE_URL") ?? "https://api.openai.com/v1",
      organization: settings.organization ?? null,
      project: settings.project ?? null,
      defaultHeaders: settings.headers,
      maxRetries: settings.maxRetries,
      timeout: settings.timeout,
      fetch: settings.fetch,
    });
    loaded ??= { client, sdk };
    return loaded;
  };

  return {
    name: providerName,
    capabilities: openAICapabilities,
    async *stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
      // The client is made on first use, so a missing key is an error of the stream, not of openai().
      const { client, sdk } = await getClient();
      yield* streamOpenAIResponse(client, request, {
        providerName,
        strictTools: settings.strictTools ?? false,
        sdk,
      });
    },
  };
}

function environment(name: string): string | undefined {
  const value = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[
    name
  ];
  return value === "" ? undefined : value;
}
