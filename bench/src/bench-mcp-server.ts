// Serving MCP: Junction's server (@junction/mcp-server) against the official SDK v2 server and
// FastMCP serving the same echo tool, called by the same client (the SDK v2 Client), over stdio and
// Streamable HTTP, in both protocol eras. Part of `pnpm bench`; alone:
// `pnpm --filter @junction/bench bench:mcp-server [--rounds N] [--smoke]`.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { BenchMode } from "./measure-client.ts";
import type {
  ProtocolEra,
  SERVER_CONCURRENCY,
  ServerLibrary,
  ServerMeasurement,
  ServerTransport,
} from "./measure-server.ts";
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
  runs: number;
}

/** Junction against the raw SDK server: medians of the per-round ratios (each round's two runs close in time). */
export interface ServedRatios extends Setting {
  rounds: number;
  p50: number;
  throughput1: number;
  throughput8: number;
}

/**
 * Measures every server library in every setting, each measurement in a fresh process with its
 * own server; rounds interleave every library and setting in a fresh order, so drift in the
 * machine's load spreads over all of them.
 */
export async function benchMCPServer(options: {
  rounds: number;
  mode: BenchMode;
  log: (line: string) => void;
}): Promise<{ figures: ServedFigures[]; ratios: ServedRatios[] }> {
  const { rounds, mode, log } = options;
  const measured = new Map<string, ServerMeasurement[]>();
  const key = (library: ServerLibrary, setting: Setting) => `${library} ${setting.transport} ${setting.era}`;
  const perRound: { setting: Setting; ours: ServerMeasurement; raw: ServerMeasurement }[] = [];
  for (let round = 1; round <= rounds; round++) {
    for (const setting of shuffled(SETTINGS)) {
      const thisRound = new Map<ServerLibrary, ServerMeasurement>();
      for (const library of shuffled(librariesFor(setting.era))) {
        const args = [
          "--import",
          RESOLVE_TYPESCRIPT_IMPORT,
          measureScript,
          library,
          setting.transport,
          setting.era,
        ];
        const { stdout } = await run(process.execPath, mode === "smoke" ? [...args, "--smoke"] : args, {
          maxBuffer: 16 * 1024 * 1024,
          timeout: 120_000,
        });
        const measurement = JSON.parse(stdout.trim().split("\n").at(-1)!) as ServerMeasurement;
        thisRound.set(library, measurement);
        measured.set(key(library, setting), [...(measured.get(key(library, setting)) ?? []), measurement]);
      }
      perRound.push({ setting, ours: thisRound.get("junction")!, raw: thisRound.get("raw-sdk")! });
    }
    log(`  mcp server: round ${round}/${rounds} done`);
  }
  const figures: ServedFigures[] = SETTINGS.flatMap((setting) =>
    librariesFor(setting.era).map((library) => {
      const list = measured.get(key(library, setting)) ?? [];
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
        runs: list.length,
      };
    }),
  );
  const ratios = SETTINGS.map((setting) => {
    const pairs = perRound.filter(
      (pair) => pair.setting.transport === setting.transport && pair.setting.era === setting.era,
    );
    return {
      ...setting,
      rounds: pairs.length,
      p50: median(pairs.map(({ ours, raw }) => ours.p50Ms / raw.p50Ms)),
      throughput1: median(pairs.map(({ ours, raw }) => ours.throughput[1] / raw.throughput[1])),
      throughput8: median(pairs.map(({ ours, raw }) => ours.throughput[8] / raw.throughput[8])),
    };
  });
  return { figures, ratios };
}

/** The section's table and its notes. */
export function servedTable(figures: ServedFigures[], ratios: ServedRatios[]): string {
  const rows = figures.map((f) => {
    const ratio = ratios.find((r) => r.transport === f.transport && r.era === f.era);
    const raw = figures.find(
      (other) => other.library === "raw-sdk" && other.transport === f.transport && other.era === f.era,
    );
    const versus =
      f.library === "junction" && ratio
        ? [`${formatRatio(ratio.p50)}*`, `${formatRatio(ratio.throughput8)}*`]
        : raw
          ? [formatRatio(f.p50Ms / raw.p50Ms), formatRatio(f.throughput[8] / raw.throughput[8])]
          : ["—", "—"];
    return [
      f.transport === "http" ? "Streamable HTTP" : "stdio",
      f.negotiated,
      SERVER_LABELS[f.library],
      String(f.runs),
      formatMs(f.p50Ms),
      formatMs(f.p99Ms),
      f.throughput[1].toFixed(0),
      f.throughput[8].toFixed(0),
      ...versus,
    ];
  });
  return [
    table(
      [
        "transport",
        "protocol",
        "server",
        "runs",
        "p50 ms",
        "p99 ms",
        "calls/s ×1",
        "calls/s ×8",
        "p50 vs raw SDK",
        "×8 throughput vs raw SDK",
      ],
      rows,
    ),
    "",
    "The same `echo` tool served by each library (`bench/servers/served-echo.mjs`, each written the way its documentation shows), called by the same client, the official SDK v2 `Client`, asking for 2025-11-25 or (with `versionNegotiation: auto`) 2026-07-28. Junction's HTTP endpoint runs with its Host/Origin checks and body limit on, its rate limit off (as for one busy client); the raw SDK's is the SDK's documented two-era endpoint (`createMcpHandler` plus a sessionful transport per 2025 session) on the same Node adapter. FastMCP is on the SDK v1 and speaks 2025 only.",
    "",
    `\\* The median of the per-round ratios of Junction's server to the raw SDK's (${ratios[0]?.rounds ?? 0} rounds, both measured in the same round).`,
  ].join("\n");
}

/** Target rows: within 1.1× of the raw SDK server's p50, at least 0.9× its ×8 throughput. */
export function servedTargets(ratios: ServedRatios[]): string[][] {
  const verdict = (met: boolean) => (met ? "met" : "**short**");
  return ratios.flatMap((r) => [
    [
      `served tool call p50 (${r.transport}, ${r.era}) ≤ 1.1× raw SDK v2 server`,
      formatRatio(r.p50),
      verdict(r.p50 <= 1.1),
    ],
    [
      `served tool calls ×8 per second (${r.transport}, ${r.era}) ≥ 0.9× raw SDK v2 server`,
      formatRatio(r.throughput8),
      verdict(r.throughput8 >= 0.9),
    ],
  ]);
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
    }
  }
  for (const r of ratios) positive(`served p50 ratio over ${r.transport} (${r.era})`, r.p50);
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
  process.stdout.write(`${servedTable(figures, ratios)}\n`);
  if (mode === "full")
    process.stdout.write(`\n${table(["target", "measured", "verdict"], servedTargets(ratios))}\n`);
  if (problems.length > 0) {
    log(`bench: figures missing or wrong:\n  ${problems.join("\n  ")}`);
    process.exit(1);
  }
}
