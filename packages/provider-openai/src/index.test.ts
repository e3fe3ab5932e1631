import { describe, expect, it } from "vitest";
import * as providerOpenai from "./index.js";

describe("@junction/provider-openai's public API", () => {
  it("exports exactly the values it means to publish, nothing kept only for its own modules", () => {
    expect(Object.keys(providerOpenai).sort()).toEqual(["embedder", "openai"]);
  });
});
