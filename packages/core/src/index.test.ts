import { describe, expect, it } from "vitest";
import * as core from "./index.js";

describe("@junction/core's public API", () => {
  it("exports exactly the values it means to publish, nothing kept only for its own modules", () => {
    expect(Object.keys(core).sort()).toEqual([
      "ANSWER_TOOL_NAME",
      "Agent",
      "DEFAULT_MAX_MEDIA_PART_BYTES",
      "DEFAULT_TOOL_LIMITS",
      "InMemoryDurability",
      "RUN_STATE_VERSION",
      "annotationPolicy",
      "closeRunState",
      "createSamplingHandler",
      "generate",
      "idempotencyKey",
      "namePatternPolicy",
      "parseRunState",
      "stream",
      "tool",
    ]);
  });
});
