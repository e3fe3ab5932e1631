import { describe, expect, it } from "vitest";
import * as core from "./index.js";

describe("@junction/core's public API", () => {
  it("exports exactly the values it means to publish, nothing kept only for its own modules", () => {
    expect(Object.keys(core).sort()).toEqual([
      "ANSWER_TOOL_NAME",
      "Agent",
      "CLOSEST_TOOLS",
      "DEFAULT_CONTEXT_WINDOW_TOKENS",
      "DEFAULT_MAX_MEDIA_PART_BYTES",
      "DEFAULT_TOOL_LIMITS",
      "DENSE_RRF_K",
      "InMemoryDurability",
      "InMemoryEmbeddingCache",
      "MIN_CLOSEST_RELEVANCE",
      "MIN_RELEVANCE",
      "READ_TOOL_RESULT",
      "RUN_STATE_VERSION",
      "SEARCH_TOOLS",
      "TOKEN_ESTIMATE",
      "TOOL_RESULT_WINDOW_SHARE",
      "agentToolResult",
      "annotationPolicy",
      "approvalSignalFor",
      "argumentsDigest",
      "canonicalJSON",
      "closeRunState",
      "contextWindowOf",
      "createSamplingHandler",
      "estimateJSONTokens",
      "estimateRequestSize",
      "estimateTextTokens",
      "generate",
      "idempotencyKey",
      "namePatternPolicy",
      "parseRunState",
      "signRunState",
      "stream",
      "tool",
      "toolDigest",
      "toolEmbeddingDigest",
      "toolEmbeddingText",
      "verifyRunState",
    ]);
  });
});
