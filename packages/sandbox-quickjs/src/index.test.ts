import { describe, expect, it } from "vitest";
import * as sandboxQuickjs from "./index.js";

describe("@junction/sandbox-quickjs's public API", () => {
  it("exports exactly the values it means to publish, nothing kept only for its own modules", () => {
    expect(Object.keys(sandboxQuickjs).sort()).toEqual(["DEFAULT_SANDBOX_LIMITS", "quickjsSandbox"]);
  });
});
