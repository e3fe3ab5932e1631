import type { Embedder } from "@junction/types";
import { ProviderError } from "@junction/types";
import { mapOpenAIError } from "./map-openai-error.js";
import { createOpenAIClientLoader } from "./openai-model.js";
import { type OpenAIProviderSettings, openAIProviderName } from "./openai-settings.js";

/** Settings for `embedder()`: the provider's, with the embedding model. */
export interface OpenAIEmbedderSettings extends OpenAIProviderSettings {
  /** The embedding model. @default "text-embedding-3-small" */
  model?: string;
  /** Shortens the vectors (`dimensions`; text-embedding-3 models only). @default the model's */
  dimensions?: number;
  /** Texts sent in one request at most (OpenAI takes 2,048 inputs and 300,000 tokens a request). @default 256 */
  batchSize?: number;
}

/**
 * An {@link Embedder} over OpenAI's embeddings API (`POST /v1/embeddings`, through the `openai`
 * SDK, loaded on the first call): for `toolSearch: { embed }` on an Agent. The key and base URL
 * are read as `openai()` reads them (`OPENAI_API_KEY`, `OPENAI_BASE_URL`); the texts go in
 * batches of `batchSize`, and an HTTP failure is a `ProviderError`.
 *
 * @example
 * ```ts
 * import { embedder } from "@junction/provider-openai";
 *
 * const agent = new Agent({ provider, model, mcps, toolSearch: { embed: embedder() } });
 * ```
 */
export function embedder(settings: OpenAIEmbedderSettings = {}): Embedder {
  const loadClient = createOpenAIClientLoader(settings);
  const model = settings.model ?? "text-embedding-3-small";
  const batchSize = settings.batchSize ?? 256;
  return async (texts, options) => {
    const { client, sdk } = await loadClient();
    const signal = options?.signal;
    const vectors: number[][] = [];
    for (let start = 0; start < texts.length; start += batchSize) {
      const input = texts.slice(start, start + batchSize);
      let response: Awaited<ReturnType<typeof client.embeddings.create>>;
      try {
        response = await client.embeddings.create(
          { model, input, ...(settings.dimensions !== undefined ? { dimensions: settings.dimensions } : {}) },
          { signal },
        );
      } catch (error) {
        throw mapOpenAIError(error, { signal, sdk, baseURL: client.baseURL });
      }
      const ordered = [...response.data].sort((a, b) => a.index - b.index);
      if (ordered.length !== input.length)
        throw new ProviderError({
          provider: openAIProviderName,
          code: "provider-response-invalid",
          message: `OpenAI's embeddings API answered ${ordered.length} vectors for ${input.length} texts (model "${model}").`,
        });
      for (const entry of ordered) vectors.push(entry.embedding);
    }
    return vectors;
  };
}
