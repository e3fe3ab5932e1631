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

describe("loading @google/genai", () => {
  it("does not load the SDK on import or gemini(), only on the first stream()", async () => {
    fake.enqueue({ chunks: readSSEFixture(new URL("./__fixtures__/gemini-text.sse.txt", import.meta.url)) });
    const result = await probeSDKLoading({
      distURL: new URL("../dist/index.js", import.meta.url).href,
      cwd: fileURLToPath(new URL("..", import.meta.url)),
      sdk: "@google/genai",
      factory: "gemini",
      settings: { apiKey: "test-key", baseURL: fake.url, apiVersion: "v1beta", maxRetries: 0 },
      model: "gemini-3-pro-preview",
    });

    // The hook saw the package's own imports, and none of them was the SDK.
    expect(result.beforeStream).toEqual({ sawTypes: true, sdk: [] });
    expect(result.afterStream.sdk).toContain("@google/genai");
    expect(result.text).toBe('There are **3** "r"s in strawberry.\n\nst**r**awbe**rr**y');
    expect(fake.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      "POST /v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse",
    ]);
  }, 30_000);
});
