import { ProviderError } from "@junction/types";
import { startWireFake, type WireFake } from "@junction/wire-fake";
import { openAIEmbeddings } from "@junction/wire-fake/embeddings";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { embedder } from "./openai-embedder.js";

let fake: WireFake;
beforeEach(async () => {
  fake = await startWireFake();
});
afterEach(async () => {
  await fake.close();
});

// Values a float32 holds exactly, so the base64 wire format gives them back unchanged.
const vectorOf = (text: string) => [text.length, 0.5, -0.25];

describe("openai embedder against the embeddings wire format", () => {
  it("sends the exact request body and answers the vectors in order, in batches", async () => {
    fake.enqueue(openAIEmbeddings(vectorOf), openAIEmbeddings(vectorOf));
    const embed = embedder({
      apiKey: "sk-test",
      baseURL: `${fake.url}/v1`,
      maxRetries: 0,
      dimensions: 3,
      batchSize: 2,
    });
    expect(await embed(["a", "bb", "ccc"])).toEqual([
      [1, 0.5, -0.25],
      [2, 0.5, -0.25],
      [3, 0.5, -0.25],
    ]);
    expect(
      fake.requests.map((request) => [request.method, request.path, request.headers.authorization]),
    ).toEqual([
      ["POST", "/v1/embeddings", "Bearer sk-test"],
      ["POST", "/v1/embeddings", "Bearer sk-test"],
    ]);
    expect(fake.requests.map((request) => request.body)).toEqual([
      { model: "text-embedding-3-small", input: ["a", "bb"], dimensions: 3, encoding_format: "base64" },
      { model: "text-embedding-3-small", input: ["ccc"], dimensions: 3, encoding_format: "base64" },
    ]);
  });

  it("an HTTP error is a ProviderError with its status", async () => {
    fake.enqueue({
      status: 401,
      json: { error: { message: "Incorrect API key provided", type: "invalid_request_error" } },
    });
    const embed = embedder({
      apiKey: "sk-bad",
      baseURL: `${fake.url}/v1`,
      maxRetries: 0,
      model: "text-embedding-3-large",
    });
    const error = await embed(["a"]).catch((caught: unknown) => caught);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: "provider-api-error", status: 401, provider: "openai" });
    expect(fake.requests[0]!.body).toEqual({
      model: "text-embedding-3-large",
      input: ["a"],
      encoding_format: "base64",
    });
  });

  it("a missing key fails before any request", async () => {
    const embed = embedder({ apiKey: "", baseURL: `${fake.url}/v1` });
    const saved = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      await expect(embed(["a"])).rejects.toMatchObject({ code: "provider-config-invalid" });
    } finally {
      if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
    }
    expect(fake.requests).toEqual([]);
  });
});
