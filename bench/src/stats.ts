/** The value below which `fraction` of the sorted samples fall (nearest rank). */
export function percentile(samples: number[], fraction: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[rank]!;
}

export const median = (samples: number[]): number => percentile(samples, 0.5);

/** Fisher–Yates, so each round visits the contenders in a fresh order. */
export function shuffled<T>(items: T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return "—";
  return ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2);
}

export function formatRatio(value: number): string {
  return Number.isFinite(value) ? `${value.toFixed(2)}×` : "—";
}

/** A markdown table from a header and rows. */
export function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

/**
 * Runs `work` while timing the calling thread's event loop: its time, and the longest the thread
 * went without a 10 ms timer tick meanwhile.
 */
export async function withLongestStall<T>(
  work: () => Promise<T>,
): Promise<{ value: T; ms: number; stallMs: number }> {
  const start = performance.now();
  let last = start;
  let stallMs = 0;
  const ticks = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 10);
  try {
    const value = await work();
    const end = performance.now();
    return { value, ms: end - start, stallMs: Math.max(stallMs, end - last) };
  } finally {
    clearInterval(ticks);
  }
}
