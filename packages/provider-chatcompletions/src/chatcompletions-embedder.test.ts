import { startWireFake, type WireFake } from "@junction/wire-fake";
import { openAIEmbeddings } from "@junction/wire-fake/embeddings";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { embedder } from "./chatcompletions-embedder.js";

let fake: WireFake;
beforeEach(async () => {
  fake = await startWireFake();
});
afterEach(async () => {
  await fake.close();
});

const vectorOf = (text: string) => [text.length, 0.1, -0.3];

describe("chatCompletions embedder against /v1/embeddings (Ollama, vLLM)", () => {
  it("asks for floats with no key at a keyless server, and answers the vectors in order", async () => {
    fake.enqueue(openAIEmbeddings(vectorOf));
    const embed = embedder({
      baseURL: `${fake.url}/v1`,
      apiKey: "",
      model: "nomic-embed-text",
      maxRetries: 0,
    });
    expect(await embed(["a", "bb"])).toEqual([vectorOf("a"), vectorOf("bb")]);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.path).toBe("/v1/embeddings");
    expect(fake.requests[0]!.headers.authorization).toBeUndefined();
    expect(fake.requests[0]!.body).toEqual({
      model: "nomic-embed-text",
      input: ["a", "bb"],
      encoding_format: "float",
    });
  });

  it("a server that answers too few vectors is a provider-response-invalid error", async () => {
    fake.enqueue({
      json: { object: "list", data: [{ object: "embedding", index: 0, embedding: [1] }], model: "m" },
    });
    const embed = embedder({ baseURL: `${fake.url}/v1`, apiKey: "", model: "m", maxRetries: 0 });
    await expect(embed(["a", "b"])).rejects.toMatchObject({
      code: "provider-response-invalid",
      message: `${fake.url}/v1/embeddings answered 1 vectors for 2 texts (model "m"); does the server embed with this model?`,
    });
  });
});
