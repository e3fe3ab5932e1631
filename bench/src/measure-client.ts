// One measurement of one client, in a process of its own (so no client's heap, timers or
// JIT state bears on another's figures): `node src/measure-client.ts <client> <stdio|http>`.
// Starts its own HTTP echo server when needed, and prints the figures as one JSON line.
import { contenders, type Endpoint, startHTTPEchoServer } from "./mcp-clients.ts";
import { median } from "./stats.ts";

export const CONCURRENCY_LEVELS = [1, 8, 64] as const;
export type ConcurrencyLevel = (typeof CONCURRENCY_LEVELS)[number];

export interface Measurement {
  latencies: number[];
  p50Ms: number;
  throughput: Record<ConcurrencyLevel, number>;
}

interface Sizes {
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

async function measure(name: string, transport: Endpoint["transport"]): Promise<Measurement> {
  const contender = contenders.find((c) => c.name === name);
  if (!contender) throw new Error(`unknown client ${JSON.stringify(name)}`);
  const sizes = name.startsWith("spawn") ? spawnSizes : fullSizes;
  const server =
    transport === "http" ? await startHTTPEchoServer({ server: contender.server ?? "legacy" }) : undefined;
  try {
    const client = await contender.connect(
      server ? { transport: "http", url: server.url } : { transport: "stdio" },
    );
    try {
      for (let i = 0; i < sizes.warmUp; i++) await client.call(`warm ${i}`); // JIT and connection warm-up
      const latencies = await sequentialLatencies(client.call, sizes.latencyCalls);
      const throughput = {} as Record<ConcurrencyLevel, number>;
      for (const level of CONCURRENCY_LEVELS) {
        await callsPerSecond(client.call, level, sizes.throughputWarmUpMs, 0);
        throughput[level] = await callsPerSecond(
          client.call,
          level,
          sizes.throughputWindowMs,
          sizes.throughputMinCalls,
        );
      }
      return { latencies, p50Ms: median(latencies), throughput };
    } finally {
      await client.close();
    }
  } finally {
    await server?.stop();
  }
}

async function sequentialLatencies(
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
async function callsPerSecond(
  call: (text: string) => Promise<string>,
  concurrency: number,
  windowMs: number,
  minCalls: number,
): Promise<number> {
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
  return finished / ((performance.now() - start) / 1000);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [name, transport] = process.argv.slice(2) as [string, Endpoint["transport"]];
  process.stdout.write(`${JSON.stringify(await measure(name, transport))}\n`);
  process.exit(0); // some peers leave handles open after close()
}
