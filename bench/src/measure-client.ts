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
  throughputCalls: Record<ConcurrencyLevel, number>;
}

const fullSizes: Sizes = { warmUp: 200, latencyCalls: 300, throughputCalls: { 1: 300, 8: 800, 64: 2000 } };
// A process per call costs hundreds of milliseconds: few calls give the same picture.
const spawnSizes: Sizes = { warmUp: 1, latencyCalls: 5, throughputCalls: { 1: 5, 8: 16, 64: 64 } };

async function measure(name: string, transport: Endpoint["transport"]): Promise<Measurement> {
  const contender = contenders.find((c) => c.name === name);
  if (!contender) throw new Error(`unknown client ${JSON.stringify(name)}`);
  const sizes = name.startsWith("spawn") ? spawnSizes : fullSizes;
  const server = transport === "http" ? await startHTTPEchoServer() : undefined;
  try {
    const client = await contender.connect(
      server ? { transport: "http", url: server.url } : { transport: "stdio" },
    );
    try {
      for (let i = 0; i < sizes.warmUp; i++) await client.call(`warm ${i}`); // JIT and connection warm-up
      const latencies = await sequentialLatencies(client.call, sizes.latencyCalls);
      const throughput = {} as Record<ConcurrencyLevel, number>;
      for (const level of CONCURRENCY_LEVELS) {
        throughput[level] = await callsPerSecond(client.call, level, sizes.throughputCalls[level]);
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

async function callsPerSecond(call: (text: string) => Promise<string>, concurrency: number, total: number) {
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

if (import.meta.url === `file://${process.argv[1]}`) {
  const [name, transport] = process.argv.slice(2) as [string, Endpoint["transport"]];
  process.stdout.write(`${JSON.stringify(await measure(name, transport))}\n`);
  process.exit(0); // some peers leave handles open after close()
}
