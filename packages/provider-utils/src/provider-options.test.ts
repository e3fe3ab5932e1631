import { JunctionError, type ModelRequest } from "@junction/types";
import { describe, expect, it } from "vitest";
import { passThroughOptions, providerOptionsFor } from "./provider-options.js";

const base: ModelRequest = { model: "m", messages: [{ role: "user", content: "hi" }] };

describe("providerOptionsFor", () => {
  it("returns the provider's own entry, or {} without one", () => {
    const request: ModelRequest = {
      ...base,
      providerOptions: { anthropic: { top_k: 5 }, openai: { store: false } },
    };
    expect(providerOptionsFor(request, "anthropic")).toEqual({ top_k: 5 });
    expect(providerOptionsFor(request, "gemini")).toEqual({});
    expect(providerOptionsFor(base, "anthropic")).toEqual({});
  });

  it("rejects an entry that is not an object, naming it", () => {
    const request = { ...base, providerOptions: { anthropic: [1] } } as unknown as ModelRequest;
    let error: unknown;
    try {
      providerOptionsFor(request, "anthropic");
    } catch (caught) {
      error = caught;
    }
    expect(JunctionError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: "invalid-argument",
      message: "providerOptions.anthropic must be an object of request fields, got an array.",
    });
  });
});

describe("passThroughOptions", () => {
  it("keeps free fields and warns once per reserved one", () => {
    expect(
      passThroughOptions(
        { top_k: 5, model: "other", stream: false, metadata: { user_id: "u" } },
        { provider: "anthropic", reserved: ["model", "messages", "stream"] },
      ),
    ).toEqual({
      fields: { top_k: 5, metadata: { user_id: "u" } },
      warnings: [
        {
          code: "provider-option-ignored",
          message:
            'providerOptions.anthropic.model was ignored: Junction sets "model" from the request itself.',
        },
        {
          code: "provider-option-ignored",
          message:
            'providerOptions.anthropic.stream was ignored: Junction sets "stream" from the request itself.',
        },
      ],
    });
  });
});
