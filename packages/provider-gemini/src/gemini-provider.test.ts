import { describe, expect, it } from "vitest";
import { gemini } from "./gemini-provider.js";

const carried = (provider: ReturnType<typeof gemini>, model: string) => {
  const capabilities = provider.capabilitiesFor?.(model) ?? provider.capabilities;
  return { images: capabilities.toolResultImages, documents: capabilities.toolResultDocuments };
};

describe("gemini() capabilities per model", () => {
  it("by default: tool-result media carried natively from Gemini 3 on, not before", () => {
    const provider = gemini({ apiKey: "k" });
    expect(provider.capabilities.toolResultImages).toBe(true);
    expect(carried(provider, "gemini-3-flash-preview")).toEqual({ images: true, documents: true });
    expect(carried(provider, "models/gemini-3.1-pro")).toEqual({ images: true, documents: true });
    expect(carried(provider, "gemini-2.5-flash")).toEqual({ images: false, documents: false });
    expect(carried(provider, "gemma-3-27b-it")).toEqual({ images: false, documents: false });
  });

  it("multimodalFunctionResponses forced on or off decides for every model", () => {
    const on = gemini({ apiKey: "k", multimodalFunctionResponses: true });
    expect(carried(on, "gemini-2.5-flash")).toEqual({ images: true, documents: true });
    const off = gemini({ apiKey: "k", multimodalFunctionResponses: false });
    expect(carried(off, "gemini-3-flash-preview")).toEqual({ images: false, documents: false });
    expect(off.capabilities.toolResultImages).toBe(false);
    expect(off.capabilities.toolResultDocuments).toBe(false);
  });

  it("the rest does not depend on the model", () => {
    const provider = gemini({ apiKey: "k" });
    const { toolResultImages, toolResultDocuments, structuredOutput, ...rest } =
      provider.capabilitiesFor!("gemini-2.5-flash");
    // Structured output with function calling is documented from Gemini 3 on
    // (https://ai.google.dev/gemini-api/docs/structured-output).
    expect(structuredOutput).toBe("final-step-only");
    expect(rest).toEqual({
      toolResultAudio: false,
      userImages: true,
      userAudio: true,
      parallelToolCalls: true,
      reasoning: true,
      mediaLimits: { maxImageBytes: 20_000_000, maxAudioBytes: 20_000_000, maxDocumentBytes: 20_000_000 },
      contextWindowTokens: 1_048_576,
      maxOutputTokens: 65_536,
    });
    expect(provider.capabilitiesFor!("gemini-3-pro-preview")).toEqual({
      ...rest,
      toolResultImages: true,
      toolResultDocuments: true,
      structuredOutput: "native-with-tools",
    });
  });
});
