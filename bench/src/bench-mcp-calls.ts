import { type Contender, contenders, type Endpoint, startHTTPEchoServer } from "./mcp-clients.ts";
import { median, percentile, shuffled } from "./stats.ts";

export const CONCURRENCY_LEVELS = [1, 8, 64] as const;

export interface CallFigures {
  contender: string;
  transport: Endpoint["transport"];
  p50Ms: number;
  p99Ms: number;
  /** Calls per second at each concurrency level. */
  throughput: Record<(typeof CONCURRENCY_LEVELS)[number], number>;
}

interface Sizes {
  latencyCalls: number;
  throughputCalls: Record<(typeof CONCURRENCY_LEVELS)[number], number>;
}

const fullSizes: Sizes = { latencyCalls: 400, throughputCalls: { 1: 400, 8: 1200, 64: 3200 } };
// A process per call costs hundreds of milliseconds on two cores: it is measured in the first
// round only, with few calls; it is a reference point, orders of magnitude from the others.
const spawnSizes: Sizes = { latencyCalls: 5, throughputCalls: { 1: 5, 8: 16, 64: 64 } };

/**
 * MCP tool-call latency and throughput for every contender over stdio and Streamable HTTP.
 * Rounds are interleaved (every contender once per round, in a fresh order), so drift in the
 * machine's load spreads over all of them; figures are medians over rounds.
 */
export async function benchMCPCalls(rounds: number, log: (line: string) => void): Promise<CallFigures[]> {
  const http = await startHTTPEchoServer();
  type Samples = { latencies: number[]; p50s: number[]; throughput: Map<number, number[]> };
  const samples = new Map<string, Samples>();
  try {
    for (let round = 1; round <= rounds; round++) {
      const runs: [Contender, Endpoint][] = contenders.flatMap((contender) =>
        contender.transports.map(
          (transport) =>
            [
              contender,
              transport === "stdio" ? { transport: "stdio" } : { transport: "http", url: http.url },
            ] as [Contender, Endpoint],
        ),
      );
      for (const [contender, endpoint] of shuffled(runs)) {
        const spawnsPerCall = contender.name.startsWith("spawn");
        if (spawnsPerCall && round > 1) continue;
        const key = `${contender.name}\u0000${endpoint.transport}`;
        const entry: Samples = samples.get(key) ?? { latencies: [], p50s: [], throughput: new Map() };
        samples.set(key, entry);
        const sizes = spawnsPerCall ? spawnSizes : fullSizes;
        const client = await contender.connect(endpoint);
        try {
          const warmUp = spawnsPerCall ? 1 : 20;
          for (let i = 0; i < warmUp; i++) await client.call(`warm ${i}`); // JIT and connection warm-up
          const latencies = await sequentialLatencies(client.call, sizes.latencyCalls);
          entry.latencies.push(...latencies);
          entry.p50s.push(median(latencies));
          for (const level of CONCURRENCY_LEVELS) {
            const perSecond = await throughput(client.call, level, sizes.throughputCalls[level]);
            entry.throughput.set(level, [...(entry.throughput.get(level) ?? []), perSecond]);
          }
        } finally {
          await client.close();
        }
      }
      log(`  mcp calls: round ${round}/${rounds} done`);
    }
  } finally {
    await http.stop();
  }
  return [...samples.entries()].map(([key, entry]) => {
    const [contender, transport] = key.split("\u0000") as [string, Endpoint["transport"]];
    return {
      contender,
      transport,
      p50Ms: median(entry.p50s),
      p99Ms: percentile(entry.latencies, 0.99),
      throughput: Object.fromEntries(
        CONCURRENCY_LEVELS.map((level) => [level, median(entry.throughput.get(level) ?? [])]),
      ) as CallFigures["throughput"],
    };
  });
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

async function throughput(call: (text: string) => Promise<string>, concurrency: number, total: number) {
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const text = `call ${next++}`;
        const echoed = await call(text);
        if (echoed !== text) throw new Error(`echo mismatch: sent ${text}, got ${echoed}`);
      }
    }),
  );
  return total / ((performance.now() - start) / 1000);
}
