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
 * Claude's limits, from Anthropic's model overview
 * (https://docs.claude.com/en/docs/about-claude/models/overview, "Context window" and "Max
 * output", November 2025). Sonnet 4 and 4.5 take 1M tokens only with the `context-1m` beta
 * header, so the default 200K is declared. Used by the Anthropic and Bedrock providers.
 */
export const CLAUDE_CONTEXT_LIMITS: Readonly<Record<string, ModelContextLimits>> = {
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

/** Every Claude model since Claude 3 has a 200K window; the output limit of an unlisted one is the smallest listed current one. */
export const CLAUDE_DEFAULT_LIMITS: ModelContextLimits = {
  contextWindowTokens: 200_000,
  maxOutputTokens: 32_000,
};

/**
 * OpenAI's limits, from each model's page (https://platform.openai.com/docs/models, "Context
 * window" and "Max output tokens", November 2025). Used by the OpenAI and Chat Completions
 * providers (the latter also serves other vendors' models, which match nothing here).
 */
export const OPENAI_CONTEXT_LIMITS: Readonly<Record<string, ModelContextLimits>> = {
  "gpt-5": { contextWindowTokens: 400_000, maxOutputTokens: 128_000 },
  "gpt-5-chat": { contextWindowTokens: 128_000, maxOutputTokens: 16_384 },
  "gpt-4.1": { contextWindowTokens: 1_047_576, maxOutputTokens: 32_768 },
  "gpt-4o": { contextWindowTokens: 128_000, maxOutputTokens: 16_384 },
  "gpt-4-turbo": { contextWindowTokens: 128_000, maxOutputTokens: 4_096 },
  o1: { contextWindowTokens: 200_000, maxOutputTokens: 100_000 },
  o3: { contextWindowTokens: 200_000, maxOutputTokens: 100_000 },
  "o4-mini": { contextWindowTokens: 200_000, maxOutputTokens: 100_000 },
};
