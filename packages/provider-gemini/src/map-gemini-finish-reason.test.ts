import { describe, expect, it } from "vitest";
import { mapGeminiBlockReason, mapGeminiFinishReason } from "./map-gemini-finish-reason.js";

describe("mapGeminiFinishReason", () => {
  it("maps Gemini's reasons to the neutral set", () => {
    expect(mapGeminiFinishReason("STOP", false)).toBe("stop");
    expect(mapGeminiFinishReason("STOP", true)).toBe("tool-calls");
    expect(mapGeminiFinishReason("MAX_TOKENS", true)).toBe("length");
    for (const reason of ["SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY"])
      expect(mapGeminiFinishReason(reason, false)).toBe("content-filter");
    for (const reason of ["MALFORMED_FUNCTION_CALL", "UNEXPECTED_TOOL_CALL", "TOO_MANY_TOOL_CALLS"])
      expect(mapGeminiFinishReason(reason, false)).toBe("error");
    expect(mapGeminiFinishReason("LANGUAGE", false)).toBe("other");
    expect(mapGeminiFinishReason("SOMETHING_NEW", false)).toBe("other");
    expect(mapGeminiBlockReason("SAFETY")).toBe("content-filter");
    expect(mapGeminiBlockReason("BLOCK_REASON_UNSPECIFIED")).toBe("other");
  });
});
