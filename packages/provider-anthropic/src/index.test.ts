import { describe, expect, it } from "vitest";
import * as providerAnthropic from "./index.js";

describe("@junction/provider-anthropic's public API", () => {
  it("exports exactly the values it means to publish, nothing kept only for its own modules", () => {
    expect(Object.keys(providerAnthropic).sort()).toEqual(["anthropic"]);
  });
});
