// Shared by this package's tests, outside src/ so it is never built or published: the Bedrock
// event-stream fake, started for each test, and a provider pointed at it with fake static credentials.
import { type BedrockFake, readBedrockFixture, startBedrockFake } from "@junction/wire-fake/bedrock";
import { afterEach, beforeEach } from "vitest";
import { bedrock } from "../src/bedrock-provider.js";
import type { BedrockSettings } from "../src/bedrock-settings.js";

export const credentials = { accessKeyId: "AKIDFAKEBEDROCK", secretAccessKey: "fake-secret" };

export const model = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";

/** A recorded ConverseStream reply from src/__fixtures__/. */
export const fixture = (name: string) =>
  readBedrockFixture(new URL(`../src/__fixtures__/${name}`, import.meta.url));

/** Starts a fresh fake before each test and closes it after; `provider()` talks to the current one. */
export function useBedrockFake(): {
  readonly fake: BedrockFake;
  provider(settings?: BedrockSettings): ReturnType<typeof bedrock>;
} {
  let fake: BedrockFake | undefined;
  beforeEach(async () => {
    fake = await startBedrockFake();
  });
  afterEach(async () => {
    await fake?.close();
  });
  return {
    get fake() {
      if (!fake) throw new TypeError("the Bedrock fake runs only inside a test");
      return fake;
    },
    provider: (settings = {}) =>
      bedrock({ region: "us-east-1", credentials, baseURL: fake?.url, ...settings }),
  };
}
