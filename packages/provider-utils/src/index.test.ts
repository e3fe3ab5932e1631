import { describe, expect, it } from "vitest";
import * as providerUtils from "./index.js";

describe("@junction/provider-utils's public API", () => {
  it("exports exactly the values it means to publish, nothing kept only for its own modules", () => {
    expect(Object.keys(providerUtils).sort()).toEqual([
      "CLAUDE_CONTEXT_LIMITS",
      "CLAUDE_DEFAULT_LIMITS",
      "OPENAI_CONTEXT_LIMITS",
      "STRUCTURED_OUTPUT_FORMATS",
      "appendAlternating",
      "browserRefusalError",
      "closedObjectSchema",
      "contextLimitsFor",
      "createLazyImport",
      "describeResourceLink",
      "isDeeplyFrozen",
      "isRecord",
      "loadApiKey",
      "loadSetting",
      "objectInputSchema",
      "objectToolInput",
      "omittedPartNote",
      "parseToolArguments",
      "passThroughOptions",
      "prepareToolNames",
      "providerOptionsFor",
      "resourceLinkText",
      "structuredContentForModel",
      "structuredOutputSubset",
      "textInPlaceOf",
      "toAbortError",
      "toolCallInput",
      "toolChoiceWithoutTools",
      "unreachableEndpointError",
    ]);
  });
});
