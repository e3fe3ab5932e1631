import { fileURLToPath } from "node:url";
import { readSSEFixture, startWireFake, type WireFake } from "@junction/wire-fake";
import { probeSDKLoading } from "@junction/wire-fake/sdk-loading-probe";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

let fake: WireFake;
beforeEach(async () => {
  fake = await startWireFake();
});
afterEach(async () => {
  await fake.close();
});

describe("loading openai", () => {
  it("does not load the SDK on import or chatCompletions(), only on the first stream()", async () => {
    fake.enqueue({
      chunks: readSSEFixture(new URL("./__fixtures__/chatcompletions-text.sse.txt", import.meta.url)),
    });
    const result = await probeSDKLoading({
      distURL: new URL("../dist/index.js", import.meta.url).href,
      cwd: fileURLToPath(new URL("..", import.meta.url)),
      sdk: "openai",
      factory: "chatCompletions",
      settings: { apiKey: "sk-test", baseURL: `${fake.url}/v1`, maxRetries: 0 },
      model: "gpt-4o",
    });

    // The hook saw the package's own imports, and none of them was the SDK.
    expect(result.beforeStream).toEqual({ sawTypes: true, sdk: [] });
    expect(result.afterStream.sdk).toContain("openai");
    expect(result.text).toBe("POST_TOOL");
    expect(fake.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      "POST /v1/chat/completions",
    ]);
  }, 30_000);
});
