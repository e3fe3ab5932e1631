/** A model's documented context window and output limit, in tokens. */
export interface ModelContextLimits {
  contextWindowTokens: number;
  maxOutputTokens: number;
}

/**
 * The limits of the first entry whose key the model id contains, longest key first (so
 * `gpt-5-chat` wins over `gpt-5`), or `fallback`. Model ids with a vendor or region prefix and a
 * date or version suffix (`us.anthropic.claude-sonnet-4-5-20250929-v1:0`) match their family.
 */
export function contextLimitsFor(
  model: string,
  table: Readonly<Record<string, ModelContextLimits>>,
  fallback?: ModelContextLimits,
): ModelContextLimits | undefined {
  const id = model.toLowerCase();
  let best: string | undefined;
  for (const key of Object.keys(table)) {
    if (id.includes(key) && (best === undefined || key.length > best.length)) best = key;
  }
  return best !== undefined ? table[best] : fallback;
}

/**
 * Claude's limits, checked against Anthropic's model pages on 2026-11-25:
 * https://platform.claude.com/docs/en/models (the lineup), and each model's page,
 * https://platform.claude.com/docs/en/models/<model>/overview ("Context window" and "Max output"),
 * e.g. `opus-4-6`, `fable-5-1`, `haiku-5-5`; Opus 4.7 from Amazon's Bedrock model card
 * (https://docs.aws.amazon.com/bedrock/latest/userguide/model-card-anthropic-claude-opus-4-7.md).
 * The window declared is the one a request gets without any beta header: Sonnet 4.5 and Sonnet 4
 * reach 1M only with the `context-1m-2025-08-07` beta header, so 200K is declared for them; the
 * pages give Opus 4.6, Sonnet 4.6 and every later model 1M as their window. Max output is the
 * Messages API figure (the Batch API allows more on some models behind a beta header).
 * Opus 4.1, Opus 4, Sonnet 4, Sonnet 3.7, Haiku 3.5 and Haiku 3 are retired on the Claude API
 * (https://platform.claude.com/docs/en/about-claude/model-deprecations) and may still run on
 * Bedrock; their figures are kept from the overview as read in November 2025 and were not
 * re-checked (unconfirmed). Used by the Anthropic and Bedrock providers.
 */
export const CLAUDE_CONTEXT_LIMITS: Readonly<Record<string, ModelContextLimits>> = {
  "claude-fable-5-1": { contextWindowTokens: 1_000_000, maxOutputTokens: 128_000 },
  "claude-fable-5": { contextWindowTokens: 1_000_000, maxOutputTokens: 128_000 },
  // Mythos 5 and 5.1 share Fable's specifications (Fable 5 page, "Fable vs. Mythos").
  "claude-mythos-5": { contextWindowTokens: 1_000_000, maxOutputTokens: 128_000 },
  "claude-opus-5-5": { contextWindowTokens: 1_000_000, maxOutputTokens: 128_000 },
  "claude-opus-5": { contextWindowTokens: 1_000_000, maxOutputTokens: 128_000 },
  "claude-sonnet-5-5": { contextWindowTokens: 1_000_000, maxOutputTokens: 128_000 },
  "claude-sonnet-5": { contextWindowTokens: 1_000_000, maxOutputTokens: 128_000 },
  "claude-haiku-5-5": { contextWindowTokens: 1_000_000, maxOutputTokens: 128_000 },
  "claude-opus-4-8": { contextWindowTokens: 1_000_000, maxOutputTokens: 128_000 },
  "claude-opus-4-7": { contextWindowTokens: 1_000_000, maxOutputTokens: 128_000 },
  "claude-opus-4-6": { contextWindowTokens: 1_000_000, maxOutputTokens: 128_000 },
  "claude-sonnet-4-6": { contextWindowTokens: 1_000_000, maxOutputTokens: 128_000 },
  "claude-opus-4-5": { contextWindowTokens: 200_000, maxOutputTokens: 64_000 },
  "claude-sonnet-4-5": { contextWindowTokens: 200_000, maxOutputTokens: 64_000 },
  "claude-haiku-4-5": { contextWindowTokens: 200_000, maxOutputTokens: 64_000 },
  "claude-opus-4-1": { contextWindowTokens: 200_000, maxOutputTokens: 32_000 },
  "claude-opus-4": { contextWindowTokens: 200_000, maxOutputTokens: 32_000 },
  "claude-sonnet-4": { contextWindowTokens: 200_000, maxOutputTokens: 64_000 },
  "claude-3-7-sonnet": { contextWindowTokens: 200_000, maxOutputTokens: 64_000 },
  "claude-3-5-haiku": { contextWindowTokens: 200_000, maxOutputTokens: 8_192 },
  "claude-3-haiku": { contextWindowTokens: 200_000, maxOutputTokens: 4_096 },
};

/**
 * An unlisted Claude model: every Claude model since Claude 3 has at least a 200K window, and
 * 32K is the smallest output limit of any model still listed from Claude 4 on. Declaring less
 * than a new model takes only starts budgeting early; declaring more would overrun it.
 */
export const CLAUDE_DEFAULT_LIMITS: ModelContextLimits = {
  contextWindowTokens: 200_000,
  maxOutputTokens: 32_000,
};

/**
 * OpenAI's limits ("context window" and "max output tokens"), checked on 2026-11-25. OpenAI's own
 * model pages (https://developers.openai.com/api/docs/models/<model>) are not in the stored copies
 * read here except gpt-5-codex; the figures for gpt-4o, gpt-4.1, o1, o3, o3-mini, o4-mini, gpt-5,
 * gpt-5-pro, gpt-5-codex, gpt-5.1, gpt-5.1-codex(-max), gpt-5.2, gpt-5.2-pro, gpt-5.2-codex,
 * gpt-5.3-codex, gpt-5.4 and gpt-5.4-pro are those pages' text as quoted, with links, in JetBrains
 * Koog's model list (github.com/JetBrains/koog, `OpenAIModels.kt`). Third-party only:
 * gpt-5.4-mini and gpt-5.4-nano (Vercel AI Gateway and OpenRouter, which link OpenAI's pages);
 * gpt-5-chat, gpt-5.1-chat and gpt-5.2-chat (Oxen and Vercel list 128K and 16,384 for the 5 and
 * 5.2 chat models; the 5.1 chat figure is assumed equal, unconfirmed); gpt-5.5 (Oxen and Venice:
 * 1,050,000 and 128,000; Vercel lists 1,000,000 and 272,000, so the smaller output is declared,
 * unconfirmed). gpt-4-turbo was not re-checked (unconfirmed). Used by the OpenAI and Chat
 * Completions providers (the latter also serves other vendors' models, which match nothing here).
 */
export const OPENAI_CONTEXT_LIMITS: Readonly<Record<string, ModelContextLimits>> = {
  "gpt-5.5": { contextWindowTokens: 1_050_000, maxOutputTokens: 128_000 },
  "gpt-5.4": { contextWindowTokens: 1_050_000, maxOutputTokens: 128_000 },
  "gpt-5.4-mini": { contextWindowTokens: 400_000, maxOutputTokens: 128_000 },
  "gpt-5.4-nano": { contextWindowTokens: 400_000, maxOutputTokens: 128_000 },
  "gpt-5.3-codex": { contextWindowTokens: 400_000, maxOutputTokens: 128_000 },
  "gpt-5.2": { contextWindowTokens: 400_000, maxOutputTokens: 128_000 },
  "gpt-5.2-chat": { contextWindowTokens: 128_000, maxOutputTokens: 16_384 },
  "gpt-5.1": { contextWindowTokens: 400_000, maxOutputTokens: 128_000 },
  "gpt-5.1-chat": { contextWindowTokens: 128_000, maxOutputTokens: 16_384 },
  "gpt-5": { contextWindowTokens: 400_000, maxOutputTokens: 128_000 },
  "gpt-5-pro": { contextWindowTokens: 400_000, maxOutputTokens: 272_000 },
  "gpt-5-chat": { contextWindowTokens: 128_000, maxOutputTokens: 16_384 },
  "gpt-4.1": { contextWindowTokens: 1_047_576, maxOutputTokens: 32_768 },
  "gpt-4o": { contextWindowTokens: 128_000, maxOutputTokens: 16_384 },
  "gpt-4-turbo": { contextWindowTokens: 128_000, maxOutputTokens: 4_096 },
  o1: { contextWindowTokens: 200_000, maxOutputTokens: 100_000 },
  o3: { contextWindowTokens: 200_000, maxOutputTokens: 100_000 },
  "o4-mini": { contextWindowTokens: 200_000, maxOutputTokens: 100_000 },
};
