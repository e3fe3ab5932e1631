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

describe("loading @anthropic-ai/sdk", () => {
  it("does not load the SDK on import or anthropic(), only on the first stream()", async () => {
    fake.enqueue({
      chunks: readSSEFixture(new URL("./__fixtures__/anthropic-text.sse.txt", import.meta.url)),
    });
    const result = await probeSDKLoading({
      distURL: new URL("../dist/index.js", import.meta.url).href,
      cwd: fileURLToPath(new URL("..", import.meta.url)),
      sdk: "@anthropic-ai/sdk",
      factory: "anthropic",
      settings: { apiKey: "test-key", baseURL: fake.url, maxRetries: 0 },
      model: "claude-sonnet-5-5",
    });

    // The hook saw the package's own imports, and none of them was the SDK.
    expect(result.beforeStream).toEqual({ sawTypes: true, sdk: [] });
    expect(result.afterStream.sdk).toContain("@anthropic-ai/sdk");
    expect(result.text).toBe(
      "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?",
    );
    expect(fake.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      "POST /v1/messages",
    ]);
  }, 30_000);
});
