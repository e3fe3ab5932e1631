import type { Usage } from "@junction/types";

/** Zero usage. */
export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
}

/** Usage as a provider reported it, with anything that is not a count read as absent. */
export function readUsage(value: unknown): Usage {
  const source = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  const count = (key: string) => {
    const n = source[key];
    return typeof n === "number" && Number.isFinite(n) && n >= 0 ? n : undefined;
  };
  const inputTokens = count("inputTokens") ?? 0;
  const outputTokens = count("outputTokens") ?? 0;
  const usage: Usage = {
    inputTokens,
    outputTokens,
    totalTokens: count("totalTokens") ?? inputTokens + outputTokens,
  };
  for (const key of ["cachedInputTokens", "cacheWriteInputTokens", "reasoningTokens"] as const) {
    const n = count(key);
    if (n !== undefined) usage[key] = n;
  }
  return usage;
}

/** The sum of two usages; optional counts are summed where either side has them. */
export function addUsage(a: Usage, b: Usage): Usage {
  const sum: Usage = {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    totalTokens: a.totalTokens + b.totalTokens,
  };
  for (const key of ["cachedInputTokens", "cacheWriteInputTokens", "reasoningTokens"] as const) {
    if (a[key] !== undefined || b[key] !== undefined) sum[key] = (a[key] ?? 0) + (b[key] ?? 0);
  }
  return sum;
}
