import { describe, expect, it } from "vitest";
import { mapChatCompletionsFinishReason } from "./map-chatcompletions-finish-reason.js";

describe("mapChatCompletionsFinishReason", () => {
  it.each([
    ["stop", false, "stop"],
    ["length", false, "length"],
    ["tool_calls", true, "tool-calls"],
    ["function_call", true, "tool-calls"],
    ["content_filter", false, "content-filter"],
    ["error", false, "error"],
    ["stop", true, "tool-calls"],
    [null, true, "tool-calls"],
    [null, false, "other"],
    ["something_new", false, "other"],
  ] as const)("%s (tool calls: %s) → %s", (raw, hasToolCalls, expected) => {
    expect(mapChatCompletionsFinishReason(raw, hasToolCalls)).toBe(expected);
  });
});
