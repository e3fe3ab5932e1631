import { ProviderError } from "@junction/types";
import { describe, expect, it } from "vitest";
import { browserRefusalError } from "./browser-refusal-error.js";

const options = { provider: "chatcompletions", factory: "chatCompletions", sdk: "openai" };

describe("browserRefusalError", () => {
  it("turns the SDK's browser refusal into provider-config-invalid naming the provider's setting", () => {
    const refusal = new Error(
      "It looks like you're running in a browser-like environment. ... new OpenAI({ apiKey, dangerouslyAllowBrowser: true });",
    );
    const error = browserRefusalError(refusal, options);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error?.code).toBe("provider-config-invalid");
    expect(error?.provider).toBe("chatcompletions");
    expect(error?.cause).toBe(refusal);
    expect(error?.message).toBe(
      "openai refuses to run in a browser: an API key in a web page can be read by everyone who opens it. " +
        "If this page holds no real key (a keyless local server such as Ollama, or a proxy of your own that adds " +
        "the key), pass chatCompletions({ dangerouslyAllowBrowser: true }); otherwise call the model from a server.",
    );
  });

  it("leaves every other error alone", () => {
    expect(browserRefusalError(new Error("baseURL is invalid"), options)).toBeUndefined();
    expect(browserRefusalError("dangerouslyAllowBrowser", options)).toBeUndefined();
  });
});
