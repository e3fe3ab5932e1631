import { describe, expect, it } from "vitest";
import {
  CLAUDE_CONTEXT_LIMITS,
  CLAUDE_DEFAULT_LIMITS,
  contextLimitsFor,
  OPENAI_CONTEXT_LIMITS,
} from "./model-context-limits.js";

/** [context window, max output] of a model id in a table, or undefined when nothing matches. */
const figures = (model: string, table: typeof CLAUDE_CONTEXT_LIMITS) => {
  const limits = contextLimitsFor(model, table);
  return limits && [limits.contextWindowTokens, limits.maxOutputTokens];
};

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

describe("Claude's figures (Anthropic's model pages, 2026-11-25)", () => {
  it("declares the current models, not the 200K default", () => {
    expect(figures("claude-sonnet-4-6", CLAUDE_CONTEXT_LIMITS)).toEqual([1_000_000, 128_000]);
    expect(figures("claude-opus-4-6", CLAUDE_CONTEXT_LIMITS)).toEqual([1_000_000, 128_000]);
    expect(figures("claude-opus-4-8", CLAUDE_CONTEXT_LIMITS)).toEqual([1_000_000, 128_000]);
    expect(figures("global.anthropic.claude-opus-4-7", CLAUDE_CONTEXT_LIMITS)).toEqual([1_000_000, 128_000]);
    expect(figures("claude-fable-5-1", CLAUDE_CONTEXT_LIMITS)).toEqual([1_000_000, 128_000]);
    expect(figures("claude-opus-5-5", CLAUDE_CONTEXT_LIMITS)).toEqual([1_000_000, 128_000]);
    expect(figures("claude-sonnet-5-5", CLAUDE_CONTEXT_LIMITS)).toEqual([1_000_000, 128_000]);
    expect(figures("claude-haiku-5-5", CLAUDE_CONTEXT_LIMITS)).toEqual([1_000_000, 128_000]);
    expect(figures("claude-mythos-5-1", CLAUDE_CONTEXT_LIMITS)).toEqual([1_000_000, 128_000]);
  });

  it("keeps an older model of a family apart from the newer one whose id contains it", () => {
    // `claude-opus-4` is contained in every later Opus 4.x id; each of those must find its own row.
    expect(figures("claude-opus-4-20250514", CLAUDE_CONTEXT_LIMITS)).toEqual([200_000, 32_000]);
    expect(figures("claude-opus-4-5-20251101", CLAUDE_CONTEXT_LIMITS)).toEqual([200_000, 64_000]);
    expect(figures("claude-sonnet-4-20250514", CLAUDE_CONTEXT_LIMITS)).toEqual([200_000, 64_000]);
    // Sonnet 4.5 reaches 1M only with the context-1m beta header: the default 200K is declared.
    expect(figures("claude-sonnet-4-5-20250929", CLAUDE_CONTEXT_LIMITS)).toEqual([200_000, 64_000]);
    expect(figures("claude-haiku-4-5-20251001", CLAUDE_CONTEXT_LIMITS)).toEqual([200_000, 64_000]);
  });
});

describe("OpenAI's figures (OpenAI's model pages as quoted, 2026-11-25)", () => {
  it("declares the GPT-5.x families", () => {
    expect(figures("gpt-5.4", OPENAI_CONTEXT_LIMITS)).toEqual([1_050_000, 128_000]);
    expect(figures("gpt-5.4-pro-2026-03-05", OPENAI_CONTEXT_LIMITS)).toEqual([1_050_000, 128_000]);
    expect(figures("gpt-5.2-codex", OPENAI_CONTEXT_LIMITS)).toEqual([400_000, 128_000]);
    expect(figures("gpt-5.1-codex-max", OPENAI_CONTEXT_LIMITS)).toEqual([400_000, 128_000]);
    expect(figures("gpt-5.3-codex", OPENAI_CONTEXT_LIMITS)).toEqual([400_000, 128_000]);
    expect(figures("gpt-5.5", OPENAI_CONTEXT_LIMITS)).toEqual([1_050_000, 128_000]);
  });

  it("keeps the small, pro and chat variants apart from the model whose id they contain", () => {
    // `gpt-5.4` (1.05M) is contained in `gpt-5.4-mini` (400K); `gpt-5` in `gpt-5-pro` (272K out).
    expect(figures("gpt-5.4-mini", OPENAI_CONTEXT_LIMITS)).toEqual([400_000, 128_000]);
    expect(figures("gpt-5.4-nano-2026-03-17", OPENAI_CONTEXT_LIMITS)).toEqual([400_000, 128_000]);
    expect(figures("gpt-5-pro", OPENAI_CONTEXT_LIMITS)).toEqual([400_000, 272_000]);
    expect(figures("gpt-5.1-chat-latest", OPENAI_CONTEXT_LIMITS)).toEqual([128_000, 16_384]);
    expect(figures("gpt-5.2-chat-latest", OPENAI_CONTEXT_LIMITS)).toEqual([128_000, 16_384]);
    expect(figures("gpt-4.1-nano", OPENAI_CONTEXT_LIMITS)).toEqual([1_047_576, 32_768]);
    expect(figures("o3-mini", OPENAI_CONTEXT_LIMITS)).toEqual([200_000, 100_000]);
  });
});

describe("every table row", () => {
  it("declares a positive window that holds its own output limit", () => {
    for (const table of [CLAUDE_CONTEXT_LIMITS, OPENAI_CONTEXT_LIMITS]) {
      for (const [key, limits] of Object.entries(table)) {
        expect(limits.maxOutputTokens, key).toBeGreaterThan(0);
        expect(limits.contextWindowTokens, key).toBeGreaterThanOrEqual(limits.maxOutputTokens);
      }
    }
  });
});
