import { ProviderError } from "@junction/types";
import { describe, expect, it } from "vitest";
import { unreachableEndpointError } from "./unreachable-endpoint-error.js";

describe("unreachableEndpointError", () => {
  it("names the URL and the innermost cause, and keeps what the SDK threw as cause", () => {
    const refused = new Error("connect ECONNREFUSED 127.0.0.1:11434");
    const sdkError = new Error("Connection error.", {
      cause: new TypeError("fetch failed", { cause: refused }),
    });
    const error = unreachableEndpointError({
      provider: "ollama",
      label: "the ollama endpoint",
      url: "http://localhost:11434/v1",
      error: sdkError,
    });
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: "provider-api-error",
      provider: "ollama",
      retryable: true,
      status: undefined,
      cause: sdkError,
      message:
        "Could not reach the ollama endpoint at http://localhost:11434/v1 (connect ECONNREFUSED 127.0.0.1:11434). Check that baseURL is right and that the server is running and reachable.",
    });
  });

  it("stops following a cycle of causes", () => {
    const first = new Error("first");
    const second = new Error("second", { cause: first });
    (first as { cause?: unknown }).cause = second;
    const error = unreachableEndpointError({ provider: "p", label: "P", url: "http://x", error: first });
    expect(error.message).toMatch(/^Could not reach P at http:\/\/x \((first|second)\)\./);
  });
});
