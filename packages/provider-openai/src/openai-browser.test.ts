import { ProviderError } from "@junction/types";
import { collectStream, readSSEFixture, startWireFake, type WireFake } from "@junction/wire-fake";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { openai } from "./openai-provider.js";

let fake: WireFake;
beforeEach(async () => {
  fake = await startWireFake();
  fake.enqueue({ chunks: readSSEFixture(new URL("./__fixtures__/openai-text.sse.txt", import.meta.url)) });
  // What the vendor SDK takes for a browser page: a window with a document, and a navigator.
  vi.stubGlobal("window", { document: {} });
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await fake.close();
});

// The text of the fixture streamed back.
const EXPECTED = "OK";
const request = { model: "gpt-4o-mini", messages: [{ role: "user" as const, content: "Hello" }] };
const textOf = (events: { type: string; text?: string }[]) =>
  events.flatMap((event) => (event.type === "text-delta" ? [event.text] : [])).join("");

describe("in a browser", () => {
  it("is refused by the vendor SDK unless dangerouslyAllowBrowser is set, before any request", async () => {
    const { error } = await collectStream(
      openai({ apiKey: "sk-test", baseURL: `${fake.url}/v1`, maxRetries: 0 }).stream(request),
    );
    expect(ProviderError.isInstance(error)).toBe(true);
    expect((error as ProviderError).code).toBe("provider-config-invalid");
    expect((error as Error).message).toContain("pass openai({ dangerouslyAllowBrowser: true })");
    // The SDK's own refusal is the cause.
    expect(((error as Error).cause as Error).message).toContain("browser-like environment");
    expect(fake.requests).toHaveLength(0);
  });

  it("runs with dangerouslyAllowBrowser: true, which reaches the SDK", async () => {
    const { events, error } = await collectStream(
      openai({
        apiKey: "sk-test",
        baseURL: `${fake.url}/v1`,
        maxRetries: 0,
        dangerouslyAllowBrowser: true,
      }).stream(request),
    );
    expect(error).toBeUndefined();
    expect(fake.requests).toHaveLength(1);
    expect(textOf(events)).toBe(EXPECTED);
  });
});
