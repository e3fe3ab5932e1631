import type { Embedder } from "@junction/types";
import { ProviderError } from "@junction/types";
import { createGeminiClientLoader } from "./gemini-model.js";
import { type GeminiSettings, geminiProviderName } from "./gemini-settings.js";
import { mapGeminiError } from "./map-gemini-error.js";

/** Settings for `embedder()`: the provider's, with the embedding model. */
export interface GeminiEmbedderSettings extends GeminiSettings {
  /** The embedding model. @default "gemini-embedding-001" */
  model?: string;
  /** Shortens the vectors (`outputDimensionality`). @default the model's */
  outputDimensionality?: number;
  /**
   * What the vectors are for (`taskType`, for example `RETRIEVAL_DOCUMENT`); one value for tools
   * and requests alike, as the search embeds both through one function.
   * @default the model's
   */
  taskType?: string;
  /** Texts sent in one request at most (the Gemini API takes 100 a `batchEmbedContents`). @default 100 */
  batchSize?: number;
}

/**
 * An {@link Embedder} over the Gemini API's embeddings (`models.embedContent` of `@google/genai`,
 * which sends `batchEmbedContents`; the SDK loaded on the first call): for `toolSearch: { embed }`
 * on an Agent. The key and base URL are read as `gemini()` reads them (`GEMINI_API_KEY`, then
 * `GOOGLE_API_KEY`); the texts go in batches of `batchSize`, and an HTTP failure is a `ProviderError`.
 *
 * @example
 * ```ts
 * import { embedder } from "@junction/provider-gemini";
 *
 * const agent = new Agent({ provider, model, mcps, toolSearch: { embed: embedder() } });
 * ```
 */
export function embedder(settings: GeminiEmbedderSettings = {}): Embedder {
  const loadClient = createGeminiClientLoader(settings);
  const model = settings.model ?? "gemini-embedding-001";
  const batchSize = settings.batchSize ?? 100;
  const providerName = geminiProviderName(settings);
  return async (texts, options) => {
    const { client, sdk } = await loadClient();
    const signal = options?.signal;
    const vectors: number[][] = [];
    for (let start = 0; start < texts.length; start += batchSize) {
      const contents = texts.slice(start, start + batchSize);
      let embeddings: { values?: number[] }[] | undefined;
      try {
        const response = await client.models.embedContent({
          model,
          contents,
          config: {
            ...(settings.outputDimensionality !== undefined
              ? { outputDimensionality: settings.outputDimensionality }
              : {}),
            ...(settings.taskType !== undefined ? { taskType: settings.taskType } : {}),
            ...(signal ? { abortSignal: signal } : {}),
          },
        });
        embeddings = response.embeddings;
      } catch (error) {
        throw mapGeminiError(error, {
          sdk,
          providerName,
          ...(signal ? { signal } : {}),
          ...(settings.baseURL ? { baseURL: settings.baseURL } : {}),
        });
      }
      if (embeddings?.length !== contents.length || embeddings.some((entry) => !Array.isArray(entry.values)))
        throw new ProviderError({
          provider: providerName,
          code: "provider-response-invalid",
          message: `The Gemini API answered ${embeddings?.length ?? 0} embeddings for ${contents.length} texts (model "${model}").`,
        });
      for (const entry of embeddings) vectors.push(entry.values!);
    }
    return vectors;
  };
}
