import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import {
  contenders,
  type Endpoint,
  JUNCTION,
  JUNCTION_MODERN,
  RAW_SDK,
  RAW_SDK_MODERN,
} from "./mcp-clients.ts";
import {
  type BenchMode,
  CONCURRENCY_LEVELS,
  type ConcurrencyLevel,
  type Measurement,
} from "./measure-client.ts";
import { RESOLVE_TYPESCRIPT_IMPORT } from "./resolve-typescript.ts";
import { median, percentile, shuffled } from "./stats.ts";

export { CONCURRENCY_LEVELS };

/** Client CPU per call, ours ÷ raw, per pair: the medians and the ranges at ×1 and ×8. */
function cpuRatios(list: { ours: Measurement; raw: Measurement }[]) {
  const cpu1 = list.map(({ ours, raw }) => ours.cpuPerCall[1] / raw.cpuPerCall[1]);
  const cpu8 = list.map(({ ours, raw }) => ours.cpuPerCall[8] / raw.cpuPerCall[8]);
  const range = (values: number[]): [number, number] => [Math.min(...values), Math.max(...values)];
  return { cpu1: median(cpu1), cpu8: median(cpu8), cpu1Range: range(cpu1), cpu8Range: range(cpu8) };
}

const run = promisify(execFile);
const measureScript = fileURLToPath(new URL("./measure-client.ts", import.meta.url));

/** Back-to-back Junction/raw SDK pairs per transport and round (one in a smoke run). */
const PAIRS_PER_ROUND = 3;

/** The server a pair's clients both call: the 2025-11-25 echo server, or the 2026-07-28 one. */
export type PairedServer = "2025-11-25" | "2026-07-28";

/**
 * The clients measured in back-to-back pairs, so a target's ratio compares runs made under the
 * same load: Junction and the raw SDK on each transport, and, over Streamable HTTP (where a
 * target asks for that ratio), both against the 2026-07-28 server.
 */
const PAIRINGS: readonly {
  server: PairedServer;
  ours: string;
  raw: string;
  transports: readonly Endpoint["transport"][];
}[] = [
  { server: "2025-11-25", ours: JUNCTION, raw: RAW_SDK, transports: ["stdio", "http"] },
  { server: "2026-07-28", ours: JUNCTION_MODERN, raw: RAW_SDK_MODERN, transports: ["http"] },
];

export interface CallFigures {
  contender: string;
  transport: Endpoint["transport"];
  p50Ms: number;
  p99Ms: number;
  /** Calls per second at each concurrency level. */
  throughput: Record<ConcurrencyLevel, number>;
  /** The client process's CPU µs per call at each concurrency level, median over runs. */
  cpuPerCall: Record<ConcurrencyLevel, number>;
  /** Measurements behind the figures. */
  runs: number;
}

/** Junction against the raw SDK from back-to-back runs: medians of the per-pair ratios. */
export interface PairedRatios {
  transport: Endpoint["transport"];
  server: PairedServer;
  pairs: number;
  /** Wall time: medians of the per-pair ratios. */
  p50: number;
  throughput8: number;
  /** The client process's CPU per call, ours ÷ raw: medians of the per-pair ratios, and their range. */
  cpu1: number;
  cpu8: number;
  cpu1Range: [number, number];
  cpu8Range: [number, number];
}

/**
 * MCP tool-call latency and throughput for every client over stdio and Streamable HTTP. Each
 * measurement runs in a fresh process with its own server. Rounds are interleaved (every client
 * once per round, in a fresh order), so drift in the machine's load spreads over all of them, and
 * figures are medians over rounds. Junction and the raw SDK, whose ratio the targets are about,
 * are also measured in back-to-back pairs, so each ratio compares runs made under the same load.
 */
export async function benchMCPCalls(options: {
  rounds: number;
  mode: BenchMode;
  log: (line: string) => void;
  /** Only these transports (default both). */
  transports?: readonly Endpoint["transport"][];
}): Promise<{ figures: CallFigures[]; paired: PairedRatios[] }> {
  const { rounds, mode, log, transports = ["stdio", "http"] } = options;
  const pairsPerRound = mode === "smoke" ? 1 : PAIRS_PER_ROUND;
  const runs = contenders.flatMap((contender) =>
    contender.transports
      .filter((transport) => transports.includes(transport))
      .map((transport) => ({ name: contender.name, transport })),
  );
  const results = new Map<string, Measurement[]>();
  const key = (name: string, transport: Endpoint["transport"]) => `${name}\u0000${transport}`;
  const measure = async (name: string, transport: Endpoint["transport"]): Promise<Measurement> => {
    const args = ["--import", RESOLVE_TYPESCRIPT_IMPORT, measureScript, name, transport];
    const { stdout } = await run(process.execPath, mode === "smoke" ? [...args, "--smoke"] : args, {
      maxBuffer: 16 * 1024 * 1024,
      timeout: 120_000,
    });
    const measurement = JSON.parse(stdout) as Measurement;
    results.set(key(name, transport), [...(results.get(key(name, transport)) ?? []), measurement]);
    return measurement;
  };
  const pairings = PAIRINGS.flatMap((pairing) =>
    pairing.transports
      .filter((transport) => transports.includes(transport))
      .map((transport) => ({ ...pairing, transport })),
  );
  const inPair = (name: string, transport: Endpoint["transport"]) =>
    pairings.some((p) => p.transport === transport && (p.ours === name || p.raw === name));
  const pairs = new Map<(typeof pairings)[number], { ours: Measurement; raw: Measurement }[]>();
  const measurePair = async (pairing: (typeof pairings)[number], oursFirst: boolean) => {
    const [first, second] = oursFirst ? [pairing.ours, pairing.raw] : [pairing.raw, pairing.ours];
    const a = await measure(first, pairing.transport);
    const b = await measure(second, pairing.transport);
    const pair = oursFirst ? { ours: a, raw: b } : { ours: b, raw: a };
    pairs.set(pairing, [...(pairs.get(pairing) ?? []), pair]);
  };

  for (let round = 1; round <= rounds; round++) {
    for (const { name, transport } of shuffled(runs)) {
      // A process per call is a reference point orders of magnitude off: once is enough.
      if (name.startsWith("spawn") && round > 1) continue;
      if (inPair(name, transport)) continue; // measured in pairs below
      await measure(name, transport);
    }
    for (const pairing of shuffled(pairings)) {
      // Alternating who goes first, so neither always runs on the heels of the other.
      for (let pair = 0; pair < pairsPerRound; pair++) await measurePair(pairing, pair % 2 === round % 2);
    }
    log(`  mcp calls: round ${round}/${rounds} done`);
  }

  const figures = [...results.entries()].map(([entry, measurements]) => {
    const [contender, transport] = entry.split("\u0000") as [string, Endpoint["transport"]];
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
      cpuPerCall: Object.fromEntries(
        CONCURRENCY_LEVELS.map((level) => [level, median(measurements.map((m) => m.cpuPerCall[level]))]),
      ) as CallFigures["cpuPerCall"],
      runs: measurements.length,
    };
  });
  const paired = [...pairs.entries()]
    .sort(([a], [b]) => pairings.indexOf(a) - pairings.indexOf(b))
    .map(([{ transport, server }, list]) => ({
      transport,
      server,
      pairs: list.length,
      p50: median(list.map(({ ours, raw }) => ours.p50Ms / raw.p50Ms)),
      throughput8: median(list.map(({ ours, raw }) => ours.throughput[8] / raw.throughput[8])),
      ...cpuRatios(list),
    }));
  return { figures, paired };
}
