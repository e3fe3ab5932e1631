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

  it("Anthropic: the current models (the README's claude-sonnet-4-6 included) declare their own figures", () => {
    const provider = anthropic({ apiKey: "k" });
    expect(limits(provider, "claude-sonnet-4-6")).toEqual([1_000_000, 128_000]);
    expect(limits(provider, "claude-opus-4-6")).toEqual([1_000_000, 128_000]);
    expect(limits(provider, "claude-opus-5-5")).toEqual([1_000_000, 128_000]);
    expect(limits(provider, "claude-haiku-5-5")).toEqual([1_000_000, 128_000]);
    expect(limits(provider, "claude-haiku-4-5-20251001")).toEqual([200_000, 64_000]);
  });

  it("OpenAI and Chat Completions: OpenAI's figures; another server's model declares none", () => {
    expect(limits(openai({ apiKey: "k" }), "gpt-4.1-mini")).toEqual([1_047_576, 32_768]);
    expect(limits(openai({ apiKey: "k" }), "gpt-4o")).toEqual([128_000, 16_384]);
    const local = chatCompletions({ baseURL: "http://localhost:11434/v1" });
    expect(limits(local, "gpt-5")).toEqual([400_000, 128_000]);
    expect(limits(local, "qwen3:8b")).toEqual([undefined, undefined]);
    expect(contextWindowOf(local, "qwen3:8b")).toBe(128_000);
  });

  it("OpenAI and Chat Completions: GPT-5.x, each variant its own figures", () => {
    expect(limits(openai({ apiKey: "k" }), "gpt-5.4")).toEqual([1_050_000, 128_000]);
    expect(limits(openai({ apiKey: "k" }), "gpt-5.4-mini")).toEqual([400_000, 128_000]);
    expect(limits(openai({ apiKey: "k" }), "gpt-5-pro")).toEqual([400_000, 272_000]);
    const local = chatCompletions({ baseURL: "http://localhost:11434/v1" });
    expect(limits(local, "gpt-5.2-chat-latest")).toEqual([128_000, 16_384]);
  });

  it("Gemini and Bedrock", () => {
    expect(limits(gemini({ apiKey: "k" }), "gemini-2.0-flash")).toEqual([1_048_576, 8_192]);
    expect(limits(gemini({ apiKey: "k" }), "gemini-2.5-pro")).toEqual([1_048_576, 65_536]);
    const aws = bedrock({ region: "us-east-1" });
    expect(limits(aws, "us.anthropic.claude-sonnet-4-20250514-v1:0")).toEqual([200_000, 64_000]);
    expect(limits(aws, "amazon.nova-pro-v1:0")).toEqual([300_000, 5_000]);
    expect(limits(aws, "mistral.mistral-large-2402-v1:0")).toEqual([undefined, undefined]);
  });

  it("Gemini: the 3.x family, its Live and image models apart", () => {
    const provider = gemini({ apiKey: "k" });
    expect(limits(provider, "gemini-3.1-pro-preview")).toEqual([1_048_576, 65_536]);
    expect(limits(provider, "gemini-3.8-flash")).toEqual([1_048_576, 65_536]);
    expect(limits(provider, "gemini-3.5-flash-lite")).toEqual([1_048_576, 65_536]);
    expect(limits(provider, "gemini-3.1-flash-live-preview")).toEqual([131_072, 65_536]);
    expect(limits(provider, "gemini-3-pro-image-preview")).toEqual([65_536, 32_768]);
  });

  it("Bedrock: current Claude, Nova 2 and Llama 4 models", () => {
    const aws = bedrock({ region: "us-east-1" });
    expect(limits(aws, "us.anthropic.claude-sonnet-4-6")).toEqual([1_000_000, 128_000]);
    expect(limits(aws, "global.amazon.nova-2-lite-v1:0")).toEqual([1_000_000, 65_535]);
    expect(limits(aws, "amazon.nova-lite-v1:0")).toEqual([300_000, 5_000]);
    expect(limits(aws, "us.meta.llama4-maverick-17b-instruct-v1:0")).toEqual([1_000_000, 8_000]);
    expect(limits(aws, "meta.llama3-1-405b-instruct-v1:0")).toEqual([128_000, 4_000]);
    expect(limits(aws, "meta.llama3-1-70b-instruct-v1:0")).toEqual([128_000, 8_192]);
  });
});
