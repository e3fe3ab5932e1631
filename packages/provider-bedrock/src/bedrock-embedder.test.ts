import { ProviderError } from "@junction/types";
import { type BedrockFake, bedrockError, startBedrockFake } from "@junction/wire-fake/bedrock";
import { titanEmbeddings } from "@junction/wire-fake/embeddings";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { embedder } from "./bedrock-embedder.js";

let fake: BedrockFake;
beforeEach(async () => {
  fake = await startBedrockFake();
});
afterEach(async () => {
  await fake.close();
});

const settings = () => ({
  region: "us-east-1",
  credentials: { accessKeyId: "AKIDFAKEBEDROCK", secretAccessKey: "fake-secret" },
  baseURL: fake.url,
  maxRetries: 0,
});
const vectorOf = (text: string) => [text.length, 0.5, -0.25];

describe("bedrock embedder: Titan Text Embeddings v2 through InvokeModel", () => {
  it("sends one exact request body per text and answers the vectors in order", async () => {
    fake.enqueue(titanEmbeddings(vectorOf), titanEmbeddings(vectorOf), titanEmbeddings(vectorOf));
    const embed = embedder({ ...settings(), dimensions: 256, concurrency: 1 });
    expect(await embed(["a", "bb", "ccc"])).toEqual([
      [1, 0.5, -0.25],
      [2, 0.5, -0.25],
      [3, 0.5, -0.25],
    ]);
    expect(
      fake.requests.map((request) => [request.method, request.path, request.headers["content-type"]]),
    ).toEqual([
      ["POST", "/model/amazon.titan-embed-text-v2%3A0/invoke", "application/json"],
      ["POST", "/model/amazon.titan-embed-text-v2%3A0/invoke", "application/json"],
      ["POST", "/model/amazon.titan-embed-text-v2%3A0/invoke", "application/json"],
    ]);
    expect(fake.requests.map((request) => request.body)).toEqual([
      { inputText: "a", dimensions: 256, normalize: true },
      { inputText: "bb", dimensions: 256, normalize: true },
      { inputText: "ccc", dimensions: 256, normalize: true },
    ]);
  });

  it("keeps the order when calls run at once", async () => {
    for (let index = 0; index < 5; index++) fake.enqueue(titanEmbeddings(vectorOf));
    const texts = ["a", "bb", "ccc", "dddd", "eeeee"];
    expect(await embedder({ ...settings(), concurrency: 3 })(texts)).toEqual(texts.map(vectorOf));
    expect(fake.requests.map((request) => request.body.inputText).sort()).toEqual(texts);
  });

  it("a Bedrock error is a ProviderError with its status", async () => {
    fake.enqueue(bedrockError(400, "ValidationException", "The provided model identifier is invalid."));
    const error = await embedder({ ...settings(), model: "amazon.titan-embed-text-v9:0" })(["a"]).catch(
      (caught: unknown) => caught,
    );
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 400, provider: "bedrock" });
    expect(fake.requests[0]!.path).toBe("/model/amazon.titan-embed-text-v9%3A0/invoke");
  });
});
