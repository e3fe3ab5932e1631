import { type Embedder, ProviderError } from "@junction/types";
import { createBedrockClientLoader } from "./bedrock-client.js";
import { type BedrockSettings, bedrockProviderName } from "./bedrock-settings.js";
import { mapBedrockError } from "./map-bedrock-error.js";

/** Settings for `embedder()`: the provider's, with the embedding model. */
export interface BedrockEmbedderSettings extends BedrockSettings {
  /** A Titan Text Embeddings v2 model id (or an inference profile for it). @default "amazon.titan-embed-text-v2:0" */
  model?: string;
  /** The vectors' length: 1024, 512 or 256. @default the model's (1024) */
  dimensions?: number;
  /** Titan's `normalize`: unit-length vectors. @default true */
  normalize?: boolean;
  /** InvokeModel calls at once (Titan takes one text a call). @default 8 */
  concurrency?: number;
}

/**
 * An {@link Embedder} over Amazon Titan Text Embeddings v2 on Bedrock (`InvokeModel` of
 * `@aws-sdk/client-bedrock-runtime`, loaded on the first call; one call per text, `concurrency`
 * at once): for `toolSearch: { embed }` on an Agent. Region, credentials and endpoint are read as
 * `bedrock()` reads them; a failure is a `ProviderError`.
 *
 * @example
 * ```ts
 * import { embedder } from "@junction/provider-bedrock";
 *
 * const agent = new Agent({ provider, model, mcps, toolSearch: { embed: embedder({ region: "us-east-1" }) } });
 * ```
 */
export function embedder(settings: BedrockEmbedderSettings = {}): Embedder {
  const getClient = createBedrockClientLoader(settings);
  const model = settings.model ?? "amazon.titan-embed-text-v2:0";
  const concurrency = Math.max(1, settings.concurrency ?? 8);
  return async (texts, options) => {
    const { client, sdk } = await getClient();
    const signal = options?.signal;
    const vectors: number[][] = new Array(texts.length);
    let next = 0;
    const embedOne = async (text: string): Promise<number[]> => {
      const body = JSON.stringify({
        inputText: text,
        ...(settings.dimensions !== undefined ? { dimensions: settings.dimensions } : {}),
        normalize: settings.normalize ?? true,
      });
      let output: unknown;
      try {
        const response = await client.send(
          new sdk.InvokeModelCommand({
            modelId: model,
            contentType: "application/json",
            accept: "application/json",
            body,
          }),
          signal ? { abortSignal: signal } : {},
        );
        output = JSON.parse(new TextDecoder().decode(response.body));
      } catch (error) {
        throw mapBedrockError(error, {
          sdk,
          ...(signal ? { signal } : {}),
          ...(settings.baseURL ? { endpoint: settings.baseURL } : {}),
        });
      }
      const embedding = (output as { embedding?: unknown } | null)?.embedding;
      if (!Array.isArray(embedding))
        throw new ProviderError({
          provider: bedrockProviderName,
          code: "provider-response-invalid",
          message: `Bedrock's ${model} answered no \`embedding\` array; is it a Titan Text Embeddings model?`,
        });
      return embedding as number[];
    };
    const worker = async () => {
      while (next < texts.length) {
        const index = next++;
        vectors[index] = await embedOne(texts[index]!);
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, texts.length) }, worker));
    return vectors;
  };
}
