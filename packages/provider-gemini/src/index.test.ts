import { describe, expect, it } from "vitest";
import * as providerGemini from "./index.js";

describe("@junction/provider-gemini's public API", () => {
  it("exports exactly the values it means to publish, nothing kept only for its own modules", () => {
    expect(Object.keys(providerGemini).sort()).toEqual(["embedder", "gemini"]);
  });
});
