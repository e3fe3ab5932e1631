import { describe, expect, it } from "vitest";
import {
  CLAUDE_CONTEXT_LIMITS,
  CLAUDE_DEFAULT_LIMITS,
  contextLimitsFor,
  OPENAI_CONTEXT_LIMITS,
} from "./model-context-limits.js";

describe("contextLimitsFor", () => {
  it("matches a model id's family, longest key first, through vendor prefixes and date suffixes", () => {
    expect(contextLimitsFor("gpt-5-chat-latest", OPENAI_CONTEXT_LIMITS)).toEqual({
      contextWindowTokens: 128_000,
      maxOutputTokens: 16_384,
    });
    expect(contextLimitsFor("gpt-5-mini-2025-08-07", OPENAI_CONTEXT_LIMITS)).toEqual({
      contextWindowTokens: 400_000,
      maxOutputTokens: 128_000,
    });
    expect(contextLimitsFor("us.anthropic.claude-opus-4-1-20250805-v1:0", CLAUDE_CONTEXT_LIMITS)).toEqual({
      contextWindowTokens: 200_000,
      maxOutputTokens: 32_000,
    });
    expect(contextLimitsFor("claude-haiku-4-5", CLAUDE_CONTEXT_LIMITS)?.maxOutputTokens).toBe(64_000);
  });

  it("gives the fallback (or nothing) for an unknown model", () => {
    expect(contextLimitsFor("qwen3:8b", OPENAI_CONTEXT_LIMITS)).toBeUndefined();
    expect(contextLimitsFor("claude-next", CLAUDE_CONTEXT_LIMITS, CLAUDE_DEFAULT_LIMITS)).toBe(
      CLAUDE_DEFAULT_LIMITS,
    );
  });
});
