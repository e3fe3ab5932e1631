// One measurement of one client, in a process of its own (so no client's heap, timers or
// JIT state bears on another's figures): `node src/measure-client.ts <client> <stdio|http> [--smoke]`.
// Starts its own HTTP echo server when needed, and prints the figures as one JSON line.
import { contenders, type Endpoint, startHTTPEchoServer } from "./mcp-clients.ts";
import { ownCPUMicros } from "./process-cpu.ts";
import { median } from "./stats.ts";

export const CONCURRENCY_LEVELS = [1, 8, 64] as const;
export type ConcurrencyLevel = (typeof CONCURRENCY_LEVELS)[number];

export interface Measurement {
  latencies: number[];
  p50Ms: number;
  throughput: Record<ConcurrencyLevel, number>;
  /**
   * This (the client's) process's CPU µs per call, every thread: ×1 over the sequential calls and
   * the ×1 window, the others over their window. The server is another process (stdio or HTTP), so
   * this is the client's cost per call, a figure load on a shared machine moves far less than wall time.
   */
  cpuPerCall: Record<ConcurrencyLevel, number>;
}

/** How many calls one measurement makes (see `sizesByMode`). */
export interface Sizes {
  warmUp: number;
  latencyCalls: number;
  /** Each concurrency level first runs this long unmeasured (the JIT and both sides' buffers settle)… */
  throughputWarmUpMs: number;
  /** …then calls for at least this long, and at least `throughputMinCalls` times. */
  throughputWindowMs: number;
  throughputMinCalls: number;
}

// Windows of time rather than counts of calls: a few hundred calls at 20,000 calls/s last tens of
// milliseconds, short enough for one GC pause or scheduler hiccup to move the figure by 15%.
const fullSizes: Sizes = {
  warmUp: 200,
  latencyCalls: 300,
  throughputWarmUpMs: 100,
  throughputWindowMs: 300,
  throughputMinCalls: 100,
};
// A process per call costs hundreds of milliseconds: few calls give the same picture.
const spawnSizes: Sizes = {
  warmUp: 1,
  latencyCalls: 5,
  throughputWarmUpMs: 0,
  throughputWindowMs: 0,
  throughputMinCalls: 8,
};

// `--smoke`: a handful of calls, to show every client still connects, calls and closes.
const smokeSizes: Sizes = {
  warmUp: 2,
  latencyCalls: 5,
  throughputWarmUpMs: 0,
  throughputWindowMs: 0,
  throughputMinCalls: 8,
};
export const sizesByMode = {
  full: { client: fullSizes, spawn: spawnSizes },
  smoke: { client: smokeSizes, spawn: { ...spawnSizes, warmUp: 0, latencyCalls: 1, throughputMinCalls: 1 } },
} satisfies Record<string, Record<string, Sizes>>;
/** `full` for figures; `smoke` for a few calls per client that only show the benchmark still runs. */
export type BenchMode = keyof typeof sizesByMode;

async function measure(
  name: string,
  transport: Endpoint["transport"],
  mode: BenchMode,
): Promise<Measurement> {
  const contender = contenders.find((c) => c.name === name);
  if (!contender) throw new Error(`unknown client ${JSON.stringify(name)}`);
  const sizes = sizesByMode[mode][name.startsWith("spawn") ? "spawn" : "client"];
  const server =
    transport === "http" ? await startHTTPEchoServer({ server: contender.server ?? "legacy" }) : undefined;
  try {
    const client = await contender.connect(
      server ? { transport: "http", url: server.url } : { transport: "stdio" },
    );
    try {
      for (let i = 0; i < sizes.warmUp; i++) await client.call(`warm ${i}`); // JIT and connection warm-up
      const sequentialCPU = ownCPUMicros();
      const latencies = await sequentialLatencies(client.call, sizes.latencyCalls);
      const latencyCPU = ownCPUMicros() - sequentialCPU;
      const throughput = {} as Record<ConcurrencyLevel, number>;
      const cpuPerCall = {} as Record<ConcurrencyLevel, number>;
      for (const level of CONCURRENCY_LEVELS) {
        await callsPerSecond(client.call, {
          concurrency: level,
          windowMs: sizes.throughputWarmUpMs,
          minCalls: 0,
        });
        const cpuBefore = ownCPUMicros();
        const { calls, seconds } = await timedCalls(client.call, {
          concurrency: level,
          windowMs: sizes.throughputWindowMs,
          minCalls: sizes.throughputMinCalls,
        });
        const cpu = ownCPUMicros() - cpuBefore;
        throughput[level] = calls / seconds;
        cpuPerCall[level] = level === 1 ? (cpu + latencyCPU) / (calls + latencies.length) : cpu / calls;
      }
      return { latencies, p50Ms: median(latencies), throughput, cpuPerCall };
    } finally {
      await client.close();
    }
  } finally {
    await server?.stop();
  }
}

/** `count` calls one after another, each checked: their latencies in ms. */
export async function sequentialLatencies(
  call: (text: string) => Promise<string>,
  count: number,
): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < count; i++) {
    const text = `call ${i}`;
    const start = performance.now();
    const echoed = await call(text);
    latencies.push(performance.now() - start);
    if (echoed !== text) throw new Error(`echo mismatch: sent ${text}, got ${echoed}`);
  }
  return latencies;
}

/** Calls at the given concurrency until `windowMs` have passed and `minCalls` were made. */
/** How calls are made for a measurement: how many at once, for how long, and at least how many. */
export interface CallLoad {
  concurrency: number;
  windowMs: number;
  minCalls: number;
}

export async function callsPerSecond(
  call: (text: string) => Promise<string>,
  { concurrency, windowMs, minCalls }: CallLoad,
): Promise<number> {
  const { calls, seconds } = await timedCalls(call, { concurrency, windowMs, minCalls });
  return calls / seconds;
}

/** As `callsPerSecond`, but the calls finished and the seconds they took. */
export async function timedCalls(
  call: (text: string) => Promise<string>,
  { concurrency, windowMs, minCalls }: CallLoad,
): Promise<{ calls: number; seconds: number }> {
  let started = 0;
  let finished = 0;
  const start = performance.now();
  const deadline = start + windowMs;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (started < minCalls || performance.now() < deadline) {
        const text = `call ${started++}`;
        const echoed = await call(text);
        if (echoed !== text) throw new Error(`echo mismatch: sent ${text}, got ${echoed}`);
        finished++;
      }
    }),
  );
  return { calls: finished, seconds: (performance.now() - start) / 1000 };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [name, transport, flag] = process.argv.slice(2) as [string, Endpoint["transport"], string?];
  const measured = await measure(name, transport, flag === "--smoke" ? "smoke" : "full");
  process.stdout.write(`${JSON.stringify(measured)}\n`);
  process.exit(0); // some peers leave handles open after close()
}
