import { ProviderError } from "@junction/types";
import { startWireFake, type WireFake } from "@junction/wire-fake";
import { geminiEmbeddings } from "@junction/wire-fake/embeddings";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { embedder } from "./gemini-embedder.js";

let fake: WireFake;
beforeEach(async () => {
  fake = await startWireFake();
});
afterEach(async () => {
  await fake.close();
});

const vectorOf = (text: string) => [text.length, 0.5, -0.25];

describe("gemini embedder against the batchEmbedContents wire format", () => {
  it("sends the exact request body and answers the vectors in order, in batches", async () => {
    fake.enqueue(geminiEmbeddings(vectorOf), geminiEmbeddings(vectorOf));
    const embed = embedder({
      apiKey: "test-key",
      baseURL: fake.url,
      apiVersion: "v1beta",
      maxRetries: 0,
      outputDimensionality: 3,
      taskType: "SEMANTIC_SIMILARITY",
      batchSize: 2,
    });
    expect(await embed(["a", "bb", "ccc"])).toEqual([
      [1, 0.5, -0.25],
      [2, 0.5, -0.25],
      [3, 0.5, -0.25],
    ]);
    expect(
      fake.requests.map((request) => [request.method, request.path, request.headers["x-goog-api-key"]]),
    ).toEqual([
      ["POST", "/v1beta/models/gemini-embedding-001:batchEmbedContents", "test-key"],
      ["POST", "/v1beta/models/gemini-embedding-001:batchEmbedContents", "test-key"],
    ]);
    const entry = (text: string) => ({
      content: { parts: [{ text }], role: "user" },
      taskType: "SEMANTIC_SIMILARITY",
      outputDimensionality: 3,
      model: "models/gemini-embedding-001",
    });
    expect(fake.requests.map((request) => request.body)).toEqual([
      { requests: [entry("a"), entry("bb")] },
      { requests: [entry("ccc")] },
    ]);
  });

  it("an HTTP error is a ProviderError with its status", async () => {
    fake.enqueue({
      status: 400,
      json: { error: { code: 400, message: "API key not valid.", status: "INVALID_ARGUMENT" } },
    });
    const embed = embedder({ apiKey: "bad", baseURL: fake.url, apiVersion: "v1beta", maxRetries: 0 });
    const error = await embed(["a"]).catch((caught: unknown) => caught);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: "provider-api-error", status: 400, provider: "gemini" });
  });
});
