import { contextWindowOf } from "@junction/core";
import { anthropic } from "@junction/provider-anthropic";
import { bedrock } from "@junction/provider-bedrock";
import { chatCompletions } from "@junction/provider-chatcompletions";
import { gemini } from "@junction/provider-gemini";
import { openai } from "@junction/provider-openai";
import { describe, expect, it } from "vitest";

/** Each provider declares its models' context window and output limit in `capabilitiesFor(model)`. */
describe("context window and output limit per model", () => {
  const limits = (provider: ReturnType<typeof openai>, model: string) => {
    const { contextWindowTokens, maxOutputTokens } = provider.capabilitiesFor!(model);
    return [contextWindowTokens, maxOutputTokens];
  };

  it("Anthropic: Claude's documented figures, 200K for an unlisted Claude", () => {
    const provider = anthropic({ apiKey: "k" });
    expect(limits(provider, "claude-sonnet-4-5-20250929")).toEqual([200_000, 64_000]);
    expect(limits(provider, "claude-opus-4-1")).toEqual([200_000, 32_000]);
    expect(limits(provider, "claude-3-5-haiku-latest")).toEqual([200_000, 8_192]);
    expect(limits(provider, "claude-something-new")).toEqual([200_000, 32_000]);
  });

  it("OpenAI and Chat Completions: OpenAI's figures; another server's model declares none", () => {
    expect(limits(openai({ apiKey: "k" }), "gpt-4.1-mini")).toEqual([1_047_576, 32_768]);
    expect(limits(openai({ apiKey: "k" }), "gpt-4o")).toEqual([128_000, 16_384]);
    const local = chatCompletions({ baseURL: "http://localhost:11434/v1" });
    expect(limits(local, "gpt-5")).toEqual([400_000, 128_000]);
    expect(limits(local, "qwen3:8b")).toEqual([undefined, undefined]);
    expect(contextWindowOf(local, "qwen3:8b")).toBe(128_000);
  });

  it("Gemini and Bedrock", () => {
    expect(limits(gemini({ apiKey: "k" }), "gemini-2.0-flash")).toEqual([1_048_576, 8_192]);
    expect(limits(gemini({ apiKey: "k" }), "gemini-2.5-pro")).toEqual([1_048_576, 65_536]);
    const aws = bedrock({ region: "us-east-1" });
    expect(limits(aws, "us.anthropic.claude-sonnet-4-20250514-v1:0")).toEqual([200_000, 64_000]);
    expect(limits(aws, "amazon.nova-pro-v1:0")).toEqual([300_000, 10_000]);
    expect(limits(aws, "mistral.mistral-large-2402-v1:0")).toEqual([undefined, undefined]);
  });
});
