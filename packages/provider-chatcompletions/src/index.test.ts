import { describe, expect, it } from "vitest";
import * as providerChatcompletions from "./index.js";

describe("@junction/provider-chatcompletions's public API", () => {
  it("exports exactly the values it means to publish, nothing kept only for its own modules", () => {
    expect(Object.keys(providerChatcompletions).sort()).toEqual([
      "CHAT_COMPLETIONS_PRESETS",
      "chatCompletions",
      "embedder",
    ]);
  });
});
