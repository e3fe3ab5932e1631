import { describe, expect, it } from "vitest";
import * as providerBedrock from "./index.js";

describe("@junction/provider-bedrock's public API", () => {
  it("exports exactly the values it means to publish, nothing kept only for its own modules", () => {
    expect(Object.keys(providerBedrock).sort()).toEqual(["bedrock", "embedder"]);
  });
});
