import { describe, expect, it } from "vitest";
import { errorMessage } from "./error-message.js";

describe("errorMessage", () => {
  it("gives an Error's message, and any other thrown value as a string", () => {
    expect(errorMessage(new TypeError("fetch failed"))).toBe("fetch failed");
    expect(errorMessage("plain text thrown")).toBe("plain text thrown");
    expect(errorMessage(42)).toBe("42");
    expect(errorMessage(undefined)).toBe("undefined");
  });
});
