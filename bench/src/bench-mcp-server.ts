// Serving MCP: Junction's server (@junction/mcp-server) against the official SDK v2 server and
// FastMCP serving the same echo tool, called by the same client (the SDK v2 Client), over stdio and
// Streamable HTTP, in both protocol eras. Part of `pnpm bench`; alone:
// `pnpm --filter @junction/bench bench:mcp-server [--rounds N] [--smoke]`.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { BenchMode } from "./measure-client.ts";
import {
  type ProtocolEra,
  type RoundMeasurement,
  type SERVER_CONCURRENCY,
  SERVER_SIZES,
  type ServerLibrary,
  type ServerMeasurement,
  type ServerTransport,
} from "./measure-server.ts";
import { SERVER_CPU_READABLE } from "./process-cpu.ts";
import { RESOLVE_TYPESCRIPT_IMPORT } from "./resolve-typescript.ts";
import { formatMs, formatRatio, median, percentile, shuffled, table } from "./stats.ts";

const run = promisify(execFile);
const measureScript = fileURLToPath(new URL("./measure-server.ts", import.meta.url));

export const SERVER_LABELS: Record<ServerLibrary, string> = {
  junction: "@junction/mcp-server",
  "raw-sdk": "raw SDK v2 server (@modelcontextprotocol/server McpServer)",
  fastmcp: "FastMCP",
};

/** Where and how: the transport and the protocol era the client asks for. */
interface Setting {
  transport: ServerTransport;
  era: ProtocolEra;
}

const SETTINGS: Setting[] = [
  { transport: "stdio", era: "2025-11-25" },
  { transport: "stdio", era: "2026-07-28" },
  { transport: "http", era: "2025-11-25" },
  { transport: "http", era: "2026-07-28" },
];

/** FastMCP is on the SDK v1: it speaks the 2025 protocol only (a 2026-07-28 client falls back). */
const librariesFor = (era: ProtocolEra): ServerLibrary[] =>
  era === "2026-07-28" ? ["junction", "raw-sdk"] : ["junction", "raw-sdk", "fastmcp"];

export interface ServedFigures extends Setting {
  library: ServerLibrary;
  /** The protocol version the client and the server agreed on. */
  negotiated: string;
  p50Ms: number;
  p99Ms: number;
  throughput: Record<(typeof SERVER_CONCURRENCY)[number], number>;
  /** The server process's CPU µs per call, median over rounds (NaN where /proc cannot be read). */
  cpuPerCall: Record<(typeof SERVER_CONCURRENCY)[number], number>;
  /** Rounds (one process each, every library in it) behind the figures. */
  runs: number;
}

/** A library against the raw SDK server in one setting. */
export interface ServedRatios extends Setting {
  library: ServerLibrary;
  rounds: number;
  /** Slices behind the wall-time ratios (turns of each server, alternating, in every round). */
  slices: number;
  /** Wall time: medians of the per-slice ratios (each slice's servers measured seconds apart). */
  p50: number;
  throughput1: number;
  throughput8: number;
  /**
   * The server process's CPU per call, ours ÷ raw: the ratio of the means over rounds, and the
   * range of the per-round ratios.
   */
  cpu1: number;
  cpu8: number;
  cpu1Range: [number, number];
  cpu8Range: [number, number];
}

const cpuOf = (m: ServerMeasurement, level: 1 | 8) => m.cpuPerCall[level] ?? Number.NaN;
const range = (values: number[]): [number, number] => [Math.min(...values), Math.max(...values)];
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

/**
 * Measures every server library in every setting. A round runs one fresh process per setting, in
 * a fresh order of settings, and in it every library's server, measured in slices that alternate
 * between the servers in a fresh order (measure-server.ts): a library's figures and the raw SDK's
 * come from the same seconds. Wall-time ratios are medians over all slices of all rounds; CPU per
 * call ratios (the server process's own CPU time, which load moves far less) ratios of the means
 * over rounds.
 */
export async function benchMCPServer(options: {
  rounds: number;
  mode: BenchMode;
  log: (line: string) => void;
}): Promise<{ figures: ServedFigures[]; ratios: ServedRatios[] }> {
  const { rounds, mode, log } = options;
  const measured = new Map<string, RoundMeasurement[]>();
  const key = (setting: Setting) => `${setting.transport} ${setting.era}`;
  for (let round = 1; round <= rounds; round++) {
    for (const setting of shuffled(SETTINGS)) {
      const args = [
        "--import",
        RESOLVE_TYPESCRIPT_IMPORT,
        measureScript,
        setting.transport,
        setting.era,
        shuffled(librariesFor(setting.era)).join(","),
      ];
      const { stdout } = await run(process.execPath, mode === "smoke" ? [...args, "--smoke"] : args, {
        maxBuffer: 16 * 1024 * 1024,
        timeout: 120_000,
      });
      const measurement = JSON.parse(stdout.trim().split("\n").at(-1)!) as RoundMeasurement;
      measured.set(key(setting), [...(measured.get(key(setting)) ?? []), measurement]);
    }
    log(`  mcp server: round ${round}/${rounds} done`);
  }
  const figures: ServedFigures[] = SETTINGS.flatMap((setting) =>
    librariesFor(setting.era).map((library) => {
      const list = (measured.get(key(setting)) ?? []).flatMap((r) => r.libraries[library] ?? []);
      return {
        ...setting,
        library,
        negotiated: [...new Set(list.map((m) => m.negotiated))].join(", "),
        p50Ms: median(list.map((m) => m.p50Ms)),
        p99Ms: percentile(
          list.flatMap((m) => m.latencies),
          0.99,
        ),
        throughput: {
          1: median(list.map((m) => m.throughput[1])),
          8: median(list.map((m) => m.throughput[8])),
        },
        cpuPerCall: { 1: median(list.map((m) => cpuOf(m, 1))), 8: median(list.map((m) => cpuOf(m, 8))) },
        runs: list.length,
      };
    }),
  );
  const ratios = SETTINGS.flatMap((setting) =>
    librariesFor(setting.era)
      .filter((library) => library !== "raw-sdk")
      .map((library) => {
        const roundsMeasured = measured.get(key(setting)) ?? [];
        const slices = roundsMeasured
          .flatMap((r) => r.slices)
          .flatMap((slice) => {
            const ours = slice[library];
            const raw = slice["raw-sdk"];
            return ours && raw ? [{ ours, raw }] : [];
          });
        const pairs = roundsMeasured.flatMap((r) => {
          const ours = r.libraries[library];
          const raw = r.libraries["raw-sdk"];
          return ours && raw ? [{ ours, raw }] : [];
        });
        // CPU time adds up: the ratio of the mean CPU per call over all rounds (about as many calls
        // in each), which uses every round's calls, rather than the median of a few rounds' ratios.
        const pooled = (level: 1 | 8) =>
          mean(pairs.map(({ ours }) => cpuOf(ours, level))) / mean(pairs.map(({ raw }) => cpuOf(raw, level)));
        const perRound = (level: 1 | 8) =>
          pairs.map(({ ours, raw }) => cpuOf(ours, level) / cpuOf(raw, level));
        return {
          ...setting,
          library,
          rounds: pairs.length,
          slices: slices.length,
          p50: median(slices.map(({ ours, raw }) => ours.p50Ms / raw.p50Ms)),
          throughput1: median(slices.map(({ ours, raw }) => ours.throughput[1] / raw.throughput[1])),
          throughput8: median(slices.map(({ ours, raw }) => ours.throughput[8] / raw.throughput[8])),
          cpu1: pooled(1),
          cpu8: pooled(8),
          cpu1Range: range(perRound(1)),
          cpu8Range: range(perRound(8)),
        };
      }),
  );
  return { figures, ratios };
}

const formatMicros = (micros: number) => (Number.isFinite(micros) ? micros.toFixed(0) : "—");

/** The section's table and its notes. */
export function servedTable(
  figures: ServedFigures[],
  ratios: ServedRatios[],
  mode: BenchMode = "full",
): string {
  const sizes = SERVER_SIZES[mode];
  const rows = figures.map((f) => {
    const ratio = ratios.find(
      (r) => r.library === f.library && r.transport === f.transport && r.era === f.era,
    );
    const versus = ratio
      ? [
          formatRatio(ratio.p50),
          formatRatio(ratio.throughput8),
          `**${formatRatio(ratio.cpu1)}**`,
          `**${formatRatio(ratio.cpu8)}**`,
        ]
      : ["—", "—", "—", "—"];
    return [
      f.transport === "http" ? "Streamable HTTP" : "stdio",
      f.negotiated,
      SERVER_LABELS[f.library],
      String(f.runs),
      formatMs(f.p50Ms),
      formatMs(f.p99Ms),
      f.throughput[1].toFixed(0),
      f.throughput[8].toFixed(0),
      formatMicros(f.cpuPerCall[1]),
      formatMicros(f.cpuPerCall[8]),
      ...versus,
    ];
  });
  const junction = ratios.filter((r) => r.library === "junction");
  return [
    table(
      [
        "transport",
        "protocol",
        "server",
        "rounds",
        "p50 ms",
        "p99 ms",
        "calls/s ×1",
        "calls/s ×8",
        "server CPU µs/call ×1",
        "server CPU µs/call ×8",
        "p50 vs raw SDK (wall)",
        "×8 throughput vs raw SDK (wall)",
        "server CPU/call ×1 vs raw SDK",
        "server CPU/call ×8 vs raw SDK",
      ],
      rows,
    ),
    "",
    "The same `echo` tool served by each library (`bench/servers/served-echo.mjs`, each written the way its documentation shows), called by the same client, the official SDK v2 `Client`, asking for 2025-11-25 or (with `versionNegotiation: auto`) 2026-07-28. Junction's HTTP endpoint runs with its Host/Origin checks and body limit on, its rate limit off (as for one busy client); the raw SDK's is the SDK's documented two-era endpoint (`createMcpHandler` plus a sessionful transport per 2025 session) on the same Node adapter. FastMCP is on the SDK v1 and speaks 2025 only.",
    "",
    `Each round runs every library's server side by side in one process per setting and measures them in ${sizes.slices} alternating slices (${sizes.latencyCalls} sequential calls, ${sizes.windowMs[1]} ms one at a time, ${sizes.windowMs[8]} ms eight at a time each, the servers in a fresh order every slice). The wall-time ratios are medians of the per-slice ratios (${junction[0]?.slices ?? 0} slices): under another process's load they still move by tens of percent between runs. The **server CPU/call** ratios are each server process's own CPU time (all threads, from /proc) per call, over all of a round's calls at that concurrency, ours ÷ raw, over all ${junction[0]?.rounds ?? 0} rounds (the ratio of the mean CPU per call): that is what the server library costs per call, and load on the machine moves it far less; it is printed beside the targets, which are judged on the wall-time ratios as they are stated (run the bench on a quiet machine). Spread of the CPU ratios over rounds: ${junction.map((r) => `${r.transport} ${r.era} ×1 ${formatRange(r.cpu1Range)}, ×8 ${formatRange(r.cpu8Range)}`).join("; ")}.`,
  ].join("\n");
}

const formatRange = ([low, high]: [number, number]) => `${formatRatio(low)}–${formatRatio(high)}`;

/**
 * Target rows: within 1.1× of the raw SDK server's p50, at least 0.9× its ×8 throughput, judged on
 * wall time as the targets are stated; the server's CPU per call beside it (steadier on a loaded
 * machine, but blind to what a server waits for), where it can be read (Linux).
 */
export function servedTargets(ratios: ServedRatios[]): string[][] {
  const verdict = (met: boolean) => (met ? "met" : "**short**");
  return ratios
    .filter((r) => r.library === "junction")
    .flatMap((r) => {
      const onCPU = Number.isFinite(r.cpu1) && Number.isFinite(r.cpu8);
      const cpu1 = onCPU ? ` (server CPU per call ${formatRatio(r.cpu1)})` : "";
      const cpu8 = onCPU ? ` (calls per server CPU-second ${formatRatio(1 / r.cpu8)})` : "";
      return [
        [
          `served tool call p50 (${r.transport}, ${r.era}) ≤ 1.1× raw SDK v2 server`,
          `${formatRatio(r.p50)}${cpu1}`,
          verdict(r.p50 <= 1.1),
        ],
        [
          `served tool calls ×8 per second (${r.transport}, ${r.era}) ≥ 0.9× raw SDK v2 server`,
          `${formatRatio(r.throughput8)}${cpu8}`,
          verdict(r.throughput8 >= 0.9),
        ],
      ];
    });
}

/** What is missing or not a positive number, for the run's figure check. */
export function servedProblems(figures: ServedFigures[], ratios: ServedRatios[]): string[] {
  const wrong: string[] = [];
  const positive = (label: string, value: number) => {
    if (!(Number.isFinite(value) && value > 0)) wrong.push(`${label} is ${value}`);
  };
  for (const setting of SETTINGS) {
    for (const library of librariesFor(setting.era)) {
      const f = figures.find(
        (x) => x.library === library && x.transport === setting.transport && x.era === setting.era,
      );
      const label = `${SERVER_LABELS[library]} over ${setting.transport} (${setting.era})`;
      if (!f || f.runs === 0) {
        wrong.push(`${label}: not measured`);
        continue;
      }
      // FastMCP falls back to 2025 by design; the SDK-based servers must reach the era asked for.
      if (f.negotiated !== setting.era) wrong.push(`${label}: negotiated ${f.negotiated}`);
      positive(`${label}: p50`, f.p50Ms);
      positive(`${label}: calls/s ×1`, f.throughput[1]);
      positive(`${label}: calls/s ×8`, f.throughput[8]);
      if (SERVER_CPU_READABLE) {
        positive(`${label}: server CPU per call ×1`, f.cpuPerCall[1]);
        positive(`${label}: server CPU per call ×8`, f.cpuPerCall[8]);
      }
    }
  }
  for (const r of ratios) positive(`served p50 ratio of ${r.library} over ${r.transport} (${r.era})`, r.p50);
  return wrong;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const mode: BenchMode = process.argv.includes("--smoke") ? "smoke" : "full";
  const roundsFlag = process.argv.indexOf("--rounds");
  const rounds = roundsFlag === -1 ? (mode === "smoke" ? 1 : 4) : Number(process.argv[roundsFlag + 1]);
  const log = (line: string) => process.stderr.write(`${line}\n`);
  log(`bench: serving MCP, ${rounds} interleaved round(s)${mode === "smoke" ? " (--smoke)" : ""}…`);
  const { figures, ratios } = await benchMCPServer({ rounds, mode, log });
  const problems = servedProblems(figures, ratios);
  process.stdout.write(`${servedTable(figures, ratios, mode)}\n`);
  if (mode === "full")
    process.stdout.write(`\n${table(["target", "measured", "verdict"], servedTargets(ratios))}\n`);
  if (problems.length > 0) {
    log(`bench: figures missing or wrong:\n  ${problems.join("\n  ")}`);
    process.exit(1);
  }
}
