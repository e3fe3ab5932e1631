import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as types from "./index.js";

describe("@junction/types' public API", () => {
  it("exports exactly these values", () => {
    expect(Object.keys(types).sort()).toEqual([
      "COMMON_TOOL_NAME_RULE",
      "JunctionError",
      "OutputError",
      "ProviderError",
      "createAbortError",
      "createToolNameMapping",
      "errorMessage",
      "isAbortError",
      "isRetryableStatus",
      "isToolResult",
      "isToolResultPart",
      "toolNamesInMessages",
    ]);
  });

  it("names every export on purpose: no wildcard re-export publishes a module's names unreviewed", () => {
    const index = readFileSync(new URL("./index.ts", import.meta.url), "utf8");
    expect(index).not.toMatch(/export\s+(type\s+)?\*/);
  });
});
