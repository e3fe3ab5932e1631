import { describe, expect, it } from "vitest";
import * as otel from "./index.js";

describe("@junction/otel's public API", () => {
  it("exports exactly the values it means to publish, nothing kept only for its own modules", () => {
    expect(Object.keys(otel).sort()).toEqual([
      "DEFAULT_MAX_CONTENT_CHARS",
      "SEMCONV_SCHEMA_URL",
      "SEMCONV_VERSION",
      "junctionTelemetry",
      "withConversation",
    ]);
  });
});
