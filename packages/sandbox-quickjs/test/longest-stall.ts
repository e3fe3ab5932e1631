// How long a run held the calling thread: shared by the worker-thread tests and the sandbox bench.

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
