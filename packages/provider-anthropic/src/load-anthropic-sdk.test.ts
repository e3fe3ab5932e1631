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

describe("loading the bundled @anthropic-ai/sdk", () => {
  it("loads the SDK's chunks on the first stream(), not on import or anthropic(), and never an installed copy", async () => {
    fake.enqueue({
      chunks: readSSEFixture(new URL("./__fixtures__/anthropic-text.sse.txt", import.meta.url)),
    });
    const result = await probeSDKLoading({
      distURL: new URL("../dist/index.js", import.meta.url).href,
      cwd: fileURLToPath(new URL("..", import.meta.url)),
      sdk: "@anthropic-ai/sdk",
      bundledDir: "./anthropic-sdk/",
      factory: "anthropic",
      settings: { apiKey: "test-key", baseURL: fake.url, maxRetries: 0 },
      model: "claude-sonnet-5-5",
    });

    // The hook saw the package's own imports; of the bundled SDK's folder only esbuild's module
    // helpers (about 1.5 KB), while the first stream loads the SDK's megabyte.
    expect(result.beforeStream.sawTypes).toBe(true);
    expect(result.bundledBytes.beforeStream).toBeLessThan(4_000);
    expect(result.bundledBytes.afterStream).toBeGreaterThan(500_000);
    // The package runs its bundled copy, even where an installed copy (this workspace's) resolves.
    expect(result.installedSDK).toEqual([]);
    expect(result.text).toBe(
      "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?",
    );
    expect(fake.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      "POST /v1/messages",
    ]);
  }, 30_000);
});
