import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { contenders, type Endpoint } from "./mcp-clients.ts";
import { CONCURRENCY_LEVELS, type ConcurrencyLevel, type Measurement } from "./measure-client.ts";
import { median, percentile, shuffled } from "./stats.ts";

export { CONCURRENCY_LEVELS };

const run = promisify(execFile);
const measureScript = fileURLToPath(new URL("./measure-client.ts", import.meta.url));

export interface CallFigures {
  contender: string;
  transport: Endpoint["transport"];
  p50Ms: number;
  p99Ms: number;
  /** Calls per second at each concurrency level. */
  throughput: Record<ConcurrencyLevel, number>;
}

/**
 * MCP tool-call latency and throughput for every client over stdio and Streamable HTTP. Rounds
 * are interleaved (every client once per round, in a fresh order), so drift in the machine's
 * load spreads over all of them; each measurement runs in a fresh process with its own server;
 * figures are medians over rounds.
 */
export async function benchMCPCalls(rounds: number, log: (line: string) => void): Promise<CallFigures[]> {
  const runs = contenders.flatMap((contender) =>
    contender.transports.map((transport) => ({ name: contender.name, transport })),
  );
  const results = new Map<string, Measurement[]>();
  for (let round = 1; round <= rounds; round++) {
    for (const { name, transport } of shuffled(runs)) {
      // A process per call is a reference point orders of magnitude off: once is enough.
      if (name.startsWith("spawn") && round > 1) continue;
      const { stdout } = await run(process.execPath, [measureScript, name, transport], {
        maxBuffer: 16 * 1024 * 1024,
        timeout: 120_000,
      });
      const key = `${name}\u0000${transport}`;
      results.set(key, [...(results.get(key) ?? []), JSON.parse(stdout) as Measurement]);
    }
    log(`  mcp calls: round ${round}/${rounds} done`);
  }
  return [...results.entries()].map(([key, measurements]) => {
    const [contender, transport] = key.split("\u0000") as [string, Endpoint["transport"]];
    return {
      contender,
      transport,
      p50Ms: median(measurements.map((m) => m.p50Ms)),
      p99Ms: percentile(
        measurements.flatMap((m) => m.latencies),
        0.99,
      ),
      throughput: Object.fromEntries(
        CONCURRENCY_LEVELS.map((level) => [level, median(measurements.map((m) => m.throughput[level]))]),
      ) as CallFigures["throughput"],
    };
  });
}
