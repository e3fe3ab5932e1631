import { isAbortError } from "@junction/types";
import { describe, expect, it } from "vitest";
import { toAbortError } from "./to-abort-error.js";

describe("toAbortError", () => {
  it("is the shared abort error, carrying the signal's reason", () => {
    const controller = new AbortController();
    const reason = new Error("user left");
    controller.abort(reason);
    const error = toAbortError(controller.signal, new Error("sdk abort"), "Anthropic");
    expect(isAbortError(error)).toBe(true);
    expect(error.code).toBe("aborted");
    expect(error.message).toBe("The Anthropic request was aborted.");
    expect(error.cause).toBe(reason);
  });

  it("keeps the given cause when the signal is absent or not aborted", () => {
    const cause = new Error("sdk abort");
    expect(toAbortError(undefined, cause, "ollama").cause).toBe(cause);
    expect(toAbortError(new AbortController().signal, cause, "ollama")).toMatchObject({
      code: "aborted",
      message: "The ollama request was aborted.",
      cause,
    });
  });
});
