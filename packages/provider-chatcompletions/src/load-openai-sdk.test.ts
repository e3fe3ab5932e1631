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

describe("loading the bundled openai", () => {
  it("loads the SDK's chunks on the first stream(), not on import or chatCompletions(), and never an installed copy", async () => {
    fake.enqueue({
      chunks: readSSEFixture(new URL("./__fixtures__/chatcompletions-text.sse.txt", import.meta.url)),
    });
    const result = await probeSDKLoading({
      distURL: new URL("../dist/index.js", import.meta.url).href,
      cwd: fileURLToPath(new URL("..", import.meta.url)),
      sdk: "openai",
      bundledDir: "./openai-sdk/",
      factory: "chatCompletions",
      settings: { apiKey: "sk-test", baseURL: `${fake.url}/v1`, maxRetries: 0 },
      model: "gpt-4o",
    });

    // The hook saw the package's own imports; of the bundled SDK's folder only esbuild's module
    // helpers (about 1.5 KB), while the first stream loads the SDK's megabyte.
    expect(result.beforeStream.sawTypes).toBe(true);
    expect(result.bundledBytes.beforeStream).toBeLessThan(4_000);
    expect(result.bundledBytes.afterStream).toBeGreaterThan(500_000);
    // The package runs its bundled copy, even where an installed copy (this workspace's) resolves.
    expect(result.installedSDK).toEqual([]);
    expect(result.text).toBe("POST_TOOL");
    expect(fake.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      "POST /v1/chat/completions",
    ]);
  }, 30_000);
});
