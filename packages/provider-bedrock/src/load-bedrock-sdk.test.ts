import { fileURLToPath } from "node:url";
import { type BedrockFake, readBedrockFixture, startBedrockFake } from "@junction/wire-fake/bedrock";
import { probeSDKLoading } from "@junction/wire-fake/sdk-loading-probe";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

let fake: BedrockFake;
beforeEach(async () => {
  fake = await startBedrockFake();
});
afterEach(async () => {
  await fake.close();
});

describe("loading @aws-sdk/client-bedrock-runtime", () => {
  it("does not load the SDK on import or bedrock(), only on the first stream()", async () => {
    fake.enqueue({
      frames: readBedrockFixture(new URL("./__fixtures__/bedrock-text.jsonl", import.meta.url)),
    });
    const result = await probeSDKLoading({
      distURL: new URL("../dist/index.js", import.meta.url).href,
      cwd: fileURLToPath(new URL("..", import.meta.url)),
      sdk: "@aws-sdk/client-bedrock-runtime",
      factory: "bedrock",
      settings: {
        region: "us-east-1",
        credentials: { accessKeyId: "AKIDFAKEBEDROCK", secretAccessKey: "fake-secret" },
        baseURL: fake.url,
        maxRetries: 0,
      },
      model: "amazon.nova-lite-v1:0",
    });

    // The hook saw the package's own imports, and none of them was the SDK.
    expect(result.beforeStream).toEqual({ sawTypes: true, sdk: [] });
    expect(result.afterStream.sdk).toContain("@aws-sdk/client-bedrock-runtime");
    expect(result.text).toBe("Hello! How can I help you today?");
    expect(fake.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      "POST /model/amazon.nova-lite-v1%3A0/converse-stream",
    ]);
  }, 30_000);
});
