// Embeddings endpoints in each vendor's wire format, as handlers for the fakes: each reads the
// texts from the request body the way the vendor does and answers vectors from `vectorOf`.
import type { BedrockHandler } from "./bedrock-event-stream.ts";
import type { WireHandler } from "./index.ts";

/** A deterministic vector per text, for a fake embeddings endpoint. */
export type VectorOf = (text: string) => number[];

/**
 * OpenAI's `POST /v1/embeddings` (also served by Chat Completions servers such as Ollama and
 * vLLM): `{ model, input: string | string[], encoding_format?, dimensions? }` →
 * `{ object: "list", data: [{ object: "embedding", index, embedding }], model, usage }`. With
 * `encoding_format: "base64"` (what the `openai` SDK asks for unless told otherwise) each
 * `embedding` is the little-endian float32 bytes in base64, as OpenAI sends them.
 */
export function openAIEmbeddings(vectorOf: VectorOf): WireHandler {
  return (request) => {
    const body = request.body as { model?: string; input?: unknown; encoding_format?: string };
    const inputs = typeof body.input === "string" ? [body.input] : (body.input as string[]);
    return {
      headers: { "x-request-id": `req_embed_${inputs.length}` },
      json: {
        object: "list",
        data: inputs.map((text, index) => {
          const vector = vectorOf(text);
          return {
            object: "embedding",
            index,
            embedding:
              body.encoding_format === "base64"
                ? Buffer.from(new Float32Array(vector).buffer).toString("base64")
                : vector,
          };
        }),
        model: body.model,
        usage: { prompt_tokens: inputs.length * 3, total_tokens: inputs.length * 3 },
      },
    };
  };
}

/**
 * The Gemini API's `POST /v1beta/models/{model}:batchEmbedContents` (what `@google/genai`'s
 * `models.embedContent` calls): `{ requests: [{ model, content: { parts: [{ text }] }, taskType?,
 * outputDimensionality? }] }` → `{ embeddings: [{ values }] }`.
 */
export function geminiEmbeddings(vectorOf: VectorOf): WireHandler {
  return (request) => {
    const body = request.body as { requests: { content: { parts: { text?: string }[] } }[] };
    return {
      json: {
        embeddings: body.requests.map((entry) => ({
          values: vectorOf(entry.content.parts.map((part) => part.text ?? "").join("")),
        })),
      },
    };
  };
}

/**
 * Amazon Titan Text Embeddings v2 through Bedrock's `POST /model/{modelId}/invoke` (InvokeModel):
 * `{ inputText, dimensions?, normalize?, embeddingTypes? }` →
 * `{ embedding, embeddingsByType: { float }, inputTextTokenCount }`, one text per call.
 */
export function titanEmbeddings(vectorOf: VectorOf): BedrockHandler {
  return (request) => {
    const body = request.body as { inputText: string };
    const vector = vectorOf(body.inputText);
    return {
      json: {
        embedding: vector,
        embeddingsByType: { float: vector },
        inputTextTokenCount: body.inputText.split(/\s+/).length,
      },
    };
  };
}
