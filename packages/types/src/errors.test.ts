import { describe, expect, it } from "vitest";
import {
  createAbortError,
  isAbortError,
  isRetryableStatus,
  JunctionError,
  OutputError,
  ProviderError,
} from "./errors.js";

describe("JunctionError", () => {
  it("is recognised across copies of the package by its symbol marker", () => {
    const foreign = Object.assign(new Error("from another copy"), {
      [Symbol.for("junction.error")]: true,
      code: "mcp-timeout",
    });
    expect(JunctionError.isInstance(foreign)).toBe(true);
    expect(JunctionError.isInstance(new Error("plain"))).toBe(false);
    expect(JunctionError.isInstance(null)).toBe(false);
  });

  it("keeps code, message and cause", () => {
    const cause = new Error("socket hang up");
    const error = new JunctionError("mcp-request-failed", "tools/call failed", { cause });
    expect(error).toMatchObject({ code: "mcp-request-failed", message: "tools/call failed", cause });
  });

  it("ProviderError carries status, retryability and request id", () => {
    const error = new ProviderError({
      provider: "anthropic",
      message: "rate limited",
      status: 429,
      retryable: isRetryableStatus(429),
      requestId: "req_1",
    });
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(ProviderError.isInstance(new JunctionError("aborted", "x"))).toBe(false);
    expect(error).toMatchObject({
      code: "provider-api-error",
      status: 429,
      retryable: true,
      requestId: "req_1",
    });
    expect(isRetryableStatus(400)).toBe(false);
    expect(isRetryableStatus(503)).toBe(true);
  });
});

describe("createAbortError", () => {
  it("makes an aborted JunctionError that keeps the signal's reason as cause", () => {
    const controller = new AbortController();
    controller.abort(new Error("user pressed stop"));
    const error = createAbortError("The call was aborted.", controller.signal.reason);
    expect(error.code).toBe("aborted");
    expect(error.message).toBe("The call was aborted.");
    expect((error.cause as Error).message).toBe("user pressed stop");
    expect(isAbortError(error)).toBe(true);
    expect(isAbortError(new JunctionError("mcp-timeout", "late"))).toBe(false);
    expect(isAbortError(new Error("aborted"))).toBe(false);
  });
});

describe("OutputError", () => {
  it("carries the raw answer and its issues, and is told apart from other Junction errors", () => {
    const error = new OutputError({
      code: "output-invalid",
      message: "The answer did not match the schema.",
      text: '{"city":1}',
      issues: ["city: expected string"],
    });
    expect(OutputError.isInstance(error)).toBe(true);
    expect(JunctionError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: "output-invalid",
      text: '{"city":1}',
      issues: ["city: expected string"],
    });
    expect(OutputError.isInstance(new JunctionError("aborted", "x"))).toBe(false);
    expect(new OutputError({ code: "output-refused", message: "no", text: "I can't." }).issues).toEqual([]);
  });
});
