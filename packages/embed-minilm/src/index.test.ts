import { describe, expect, it } from "vitest";
import * as embedMinilm from "./index.js";

describe("@junction/embed-minilm's public API", () => {
  it("exports exactly the values it means to publish, nothing kept only for its own modules", () => {
    expect(Object.keys(embedMinilm).sort()).toEqual([
      "MINILM_DIMENSIONS",
      "MINILM_MODEL_ID",
      "defaultCacheDirectory",
      "miniLM",
    ]);
  });
});
