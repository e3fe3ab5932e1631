// One round of the server benchmark in one setting, in a process of its own:
// `node src/measure-server.ts <stdio|http> <2025-11-25|2026-07-28> <library,library,…> [--smoke]`.
// Starts every library's server (servers/served-echo.mjs, each in a process of its own), connects
// the official SDK v2 client to each, then measures them in short slices that alternate between
// the servers in a fresh order each time: the libraries' figures come from the same seconds, so a
// burst of another engineer's load lands on all of them rather than on one. Around every slice it
// reads each server process's own CPU time (process-cpu.ts): CPU per call is the figure that load
// moves least. Prints the figures as one JSON line. The client is the same for every server, so
// the figures differ by the server alone.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import {
  type BenchMode,
  type CallLoad,
  callsPerSecond,
  sequentialLatencies,
  timedCalls,
} from "./measure-client.ts";
import { processCPUMicros } from "./process-cpu.ts";
import { median, shuffled } from "./stats.ts";

export const SERVED_ECHO = fileURLToPath(new URL("../servers/served-echo.mjs", import.meta.url));
export const SERVER_LIBRARIES = ["junction", "raw-sdk", "fastmcp"] as const;
export type ServerLibrary = (typeof SERVER_LIBRARIES)[number];
export type ServerTransport = "stdio" | "http";
export type ProtocolEra = "2025-11-25" | "2026-07-28";
/** The concurrency levels of the server benchmark. */
export const SERVER_CONCURRENCY = [1, 8] as const;
type Level = (typeof SERVER_CONCURRENCY)[number];

/** One library's figures in one slice (one server's turn, between the other servers' turns). */
export interface SliceFigures {
  p50Ms: number;
  throughput: Record<Level, number>;
}

/** One library's figures over a whole round (every slice of it). */
export interface ServerMeasurement {
  /** The protocol version the client and server agreed on. */
  negotiated: string;
  latencies: number[];
  p50Ms: number;
  /** Calls per second over all the slices' windows together. */
  throughput: Record<Level, number>;
  /**
   * The server process's CPU µs per call (every thread): ×1 over the sequential calls and the ×1
   * windows, ×8 over the ×8 windows. `null` where /proc cannot be read (not Linux).
   */
  cpuPerCall: Record<Level, number | null>;
}

/** A round in one setting: each library's figures, and each slice's figures per library. */
export interface RoundMeasurement {
  libraries: Partial<Record<ServerLibrary, ServerMeasurement>>;
  slices: Partial<Record<ServerLibrary, SliceFigures>>[];
}

/** How much one round measures: `slices` turns per server, each this many calls and this long. */
export interface ServerSizes {
  /** Sequential calls, then calls eight at a time per transport, before any figure. */
  warmUp: number;
  /**
   * The optimising compiler runs on threads of the server's own, whose CPU time counts: a server
   * still compiling its hot path in a round's first slices would read more CPU per call.
   */
  warmUpConcurrent: Record<ServerTransport, number>;
  slices: number;
  latencyCalls: number;
  /** Calls at the slice's concurrency before its window, unmeasured (after another server's turn). */
  settleCalls: number;
  windowMs: Record<Level, number>;
  minCalls: number;
}

/** The sizes of a round per mode. */
export const SERVER_SIZES: Record<BenchMode, ServerSizes> = {
  // Per server and round: 300 sequential calls and 1.4 s of windows, in four turns.
  full: {
    warmUp: 200,
    warmUpConcurrent: { stdio: 1000, http: 400 },
    slices: 4,
    latencyCalls: 75,
    settleCalls: 16,
    windowMs: { 1: 150, 8: 200 },
    minCalls: 50,
  },
  // A handful of calls, to show every server still answers.
  smoke: {
    warmUp: 2,
    warmUpConcurrent: { stdio: 0, http: 0 },
    slices: 1,
    latencyCalls: 5,
    settleCalls: 0,
    windowMs: { 1: 0, 8: 0 },
    minCalls: 8,
  },
};

/**
 * Spawns served-echo.mjs over HTTP and waits for its `{"port":N}` line (FastMCP prints a banner
 * first). `nodeFlags` go to the server's node (e.g. `--cpu-prof`).
 */
export async function startServedHTTP(
  library: ServerLibrary,
  nodeFlags: string[] = [],
): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [...nodeFlags, SERVED_ECHO, library, "--http", "0"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  // Read stdout to its end (FastMCP logs every request there): a pipe left unread would fill and
  // stall the server, and a stream destroyed early would fail its next write.
  return new Promise((resolve, reject) => {
    let buffered = "";
    let found = false;
    child.stdout!.setEncoding("utf8");
    child.stdout!.on("data", (chunk: string) => {
      if (found) return;
      buffered += chunk;
      const line = buffered.split("\n").find((candidate) => candidate.startsWith('{"port"'));
      if (!line) return;
      found = true;
      resolve({ url: `http://127.0.0.1:${JSON.parse(line).port}/mcp`, child });
    });
    child.once("exit", () => {
      if (!found) reject(new Error(`${library}: the HTTP server exited before it printed its port`));
    });
  });
}

/** A served library, connected: its echo call and its server's pid. */
interface Connected {
  library: ServerLibrary;
  negotiated: string;
  pid: number | undefined;
  call(text: string): Promise<string>;
  close(): Promise<void>;
}

async function connect(
  library: ServerLibrary,
  transport: ServerTransport,
  era: ProtocolEra,
): Promise<Connected> {
  const http = transport === "http" ? await startServedHTTP(library) : undefined;
  const stdio = http
    ? undefined
    : new StdioClientTransport({ command: process.execPath, args: [SERVED_ECHO, library] });
  // 2026-07-28 is what the client reaches with `auto` (server/discover first); without it, 2025.
  const client = new Client(
    { name: "bench-server-client", version: "1.0.0" },
    era === "2026-07-28" ? { versionNegotiation: { mode: "auto" } } : {},
  );
  await client.connect(http ? new StreamableHTTPClientTransport(new URL(http.url)) : stdio!);
  return {
    library,
    negotiated: client.getNegotiatedProtocolVersion() ?? "?",
    pid: http ? http.child.pid : (stdio!.pid ?? undefined),
    async call(text) {
      const result = await client.callTool({ name: "echo", arguments: { text } });
      const first = (result.content as { type: string; text?: string }[] | undefined)?.[0];
      if (first?.type !== "text") throw new Error(`${library}: unexpected result ${JSON.stringify(result)}`);
      return first.text ?? "";
    },
    async close() {
      await client.close();
      if (http) {
        http.child.kill();
        if (http.child.exitCode === null && http.child.signalCode === null) await once(http.child, "exit");
      }
    },
  };
}

/** Calls at `concurrency` for at least `windowMs` and `minCalls`: the rate and the calls made. */
async function window(
  server: Connected,
  { concurrency, windowMs, minCalls }: CallLoad,
): Promise<{ rate: number; calls: number; seconds: number }> {
  const { calls, seconds } = await timedCalls(server.call, { concurrency, windowMs, minCalls });
  return { rate: calls / seconds, calls, seconds };
}

const orNull = (value: number) => (Number.isFinite(value) ? value : null);

async function measureRound(
  { transport, era }: { transport: ServerTransport; era: ProtocolEra },
  libraries: ServerLibrary[],
  mode: BenchMode,
): Promise<RoundMeasurement> {
  const sizes = SERVER_SIZES[mode];
  const servers: Connected[] = [];
  try {
    for (const library of libraries) servers.push(await connect(library, transport, era));
    for (const server of servers) {
      for (let i = 0; i < sizes.warmUp; i++) await server.call(`warm ${i}`);
      await callsPerSecond(server.call, {
        concurrency: 8,
        windowMs: 0,
        minCalls: sizes.warmUpConcurrent[transport],
      });
    }
    const totals = new Map(
      libraries.map((library) => [
        library,
        {
          latencies: [] as number[],
          calls: { 1: 0, 8: 0 },
          seconds: { 1: 0, 8: 0 },
          cpu: { 1: 0, 8: 0 },
          cpuCalls: { 1: 0, 8: 0 },
        },
      ]),
    );
    const slices: RoundMeasurement["slices"] = [];
    for (let slice = 0; slice < sizes.slices; slice++) {
      const figures: RoundMeasurement["slices"][number] = {};
      for (const server of shuffled(servers)) {
        const total = totals.get(server.library)!;
        // One call at a time: the latencies, then the ×1 window; the server's CPU over both.
        let cpuBefore = processCPUMicros(server.pid);
        const latencies = await sequentialLatencies(server.call, sizes.latencyCalls);
        const sequential = await window(server, {
          concurrency: 1,
          windowMs: sizes.windowMs[1],
          minCalls: sizes.minCalls,
        });
        total.cpu[1] += processCPUMicros(server.pid) - cpuBefore;
        total.cpuCalls[1] += latencies.length + sequential.calls;
        // Eight at a time, after a few unmeasured calls at that level.
        await callsPerSecond(server.call, { concurrency: 8, windowMs: 0, minCalls: sizes.settleCalls });
        cpuBefore = processCPUMicros(server.pid);
        const concurrent = await window(server, {
          concurrency: 8,
          windowMs: sizes.windowMs[8],
          minCalls: sizes.minCalls,
        });
        total.cpu[8] += processCPUMicros(server.pid) - cpuBefore;
        total.cpuCalls[8] += concurrent.calls;
        total.latencies.push(...latencies);
        total.calls[1] += sequential.calls;
        total.seconds[1] += sequential.seconds;
        total.calls[8] += concurrent.calls;
        total.seconds[8] += concurrent.seconds;
        figures[server.library] = {
          p50Ms: median(latencies),
          throughput: { 1: sequential.rate, 8: concurrent.rate },
        };
      }
      slices.push(figures);
    }
    const measured: RoundMeasurement["libraries"] = {};
    for (const server of servers) {
      const total = totals.get(server.library)!;
      measured[server.library] = {
        negotiated: server.negotiated,
        latencies: total.latencies,
        p50Ms: median(total.latencies),
        throughput: { 1: total.calls[1] / total.seconds[1], 8: total.calls[8] / total.seconds[8] },
        cpuPerCall: {
          1: orNull(total.cpu[1] / total.cpuCalls[1]),
          8: orNull(total.cpu[8] / total.cpuCalls[8]),
        },
      };
    }
    return { libraries: measured, slices };
  } finally {
    for (const server of servers) await server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [transport, era, libraries, flag] = process.argv.slice(2) as [
    ServerTransport,
    ProtocolEra,
    string,
    string?,
  ];
  const measured = await measureRound(
    { transport, era },
    libraries.split(",") as ServerLibrary[],
    flag === "--smoke" ? "smoke" : "full",
  );
  process.stdout.write(`${JSON.stringify(measured)}\n`);
  process.exit(0); // a server library may leave handles open after close()
}
