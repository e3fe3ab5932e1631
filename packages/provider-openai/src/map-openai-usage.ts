import { isRecord } from "@junction/provider-utils";
import type { Usage } from "@junction/types";

/** Maps Responses API usage; counts OpenAI did not report stay absent. */
export function mapOpenAIUsage(usage: unknown): Usage {
  if (!isRecord(usage)) return { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  const inputTokens = numberOr(usage.input_tokens, 0);
  const outputTokens = numberOr(usage.output_tokens, 0);
  const out: Usage = {
    inputTokens,
    outputTokens,
    totalTokens: numberOr(usage.total_tokens, inputTokens + outputTokens),
  };
  const input = isRecord(usage.input_tokens_details) ? usage.input_tokens_details : {};
  const output = isRecord(usage.output_tokens_details) ? usage.output_tokens_details : {};
  if (typeof input.cached_tokens === "number") out.cachedInputTokens = input.cached_tokens;
  if (typeof input.cache_write_tokens === "number") out.cacheWriteInputTokens = input.cache_write_tokens;
  if (typeof output.reasoning_tokens === "number") out.reasoningTokens = output.reasoning_tokens;
  return out;
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}
