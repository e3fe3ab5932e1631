import { type Embedder, ProviderError } from "@junction/types";
import { createChatCompletionsClientLoader } from "./chatcompletions-model.js";
import { type ChatCompletionsSettings, chatCompletionsProviderName } from "./chatcompletions-settings.js";
import { mapChatCompletionsError } from "./map-chatcompletions-error.js";

/** Settings for `embedder()`: the provider's, with the embedding model. */
export interface ChatCompletionsEmbedderSettings extends ChatCompletionsSettings {
  /** The server's embedding model, for example `nomic-embed-text` on Ollama. */
  model: string;
  /** Shortens the vectors (`dimensions`), where the server and model take it. @default the model's */
  dimensions?: number;
  /** Texts sent in one request at most. @default 256 */
  batchSize?: number;
}

/**
 * An {@link Embedder} over a Chat Completions server's `POST /v1/embeddings` (Ollama, vLLM,
 * LM Studio, …; through the `openai` SDK, loaded on the first call): for `toolSearch: { embed }`
 * on an Agent. Base URL and key are read as `chatCompletions()` reads them; vectors are asked
 * for as floats (`encoding_format: "float"`, which every such server speaks); a failure is a
 * `ProviderError`.
 *
 * @example
 * ```ts
 * import { embedder } from "@junction/provider-chatcompletions";
 *
 * const embed = embedder({ baseURL: "http://localhost:11434/v1", model: "nomic-embed-text" });
 * ```
 */
export function embedder(settings: ChatCompletionsEmbedderSettings): Embedder {
  const connect = createChatCompletionsClientLoader(settings);
  const name = chatCompletionsProviderName(settings);
  const batchSize = settings.batchSize ?? 256;
  return async (texts, options) => {
    const { client, sdk } = await connect();
    const signal = options?.signal;
    const vectors: number[][] = [];
    for (let start = 0; start < texts.length; start += batchSize) {
      const input = texts.slice(start, start + batchSize);
      let data: { index: number; embedding: number[] }[];
      try {
        ({ data } = await client.embeddings.create(
          {
            model: settings.model,
            input,
            encoding_format: "float",
            ...(settings.dimensions !== undefined ? { dimensions: settings.dimensions } : {}),
          },
          signal ? { signal } : undefined,
        ));
      } catch (error) {
        throw mapChatCompletionsError(error, { signal, sdk, provider: name, baseURL: client.baseURL });
      }
      if (!Array.isArray(data) || data.length !== input.length)
        throw new ProviderError({
          provider: name,
          code: "provider-response-invalid",
          message: `${client.baseURL}/embeddings answered ${Array.isArray(data) ? data.length : 0} vectors for ${input.length} texts (model "${settings.model}"); does the server embed with this model?`,
        });
      for (const entry of [...data].sort((a, b) => a.index - b.index)) vectors.push(entry.embedding);
    }
    return vectors;
  };
}
