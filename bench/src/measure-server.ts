// One measurement of one MCP *server* library, in a process of its own:
// `node src/measure-server.ts <junction|raw-sdk|fastmcp> <stdio|http> <2025-11-25|2026-07-28> [--smoke]`.
// Starts the server (servers/served-echo.mjs), connects the official SDK v2 client to it, calls
// its echo tool, and prints the figures as one JSON line. The client is the same for every server,
// so the figures differ by the server alone.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { type BenchMode, callsPerSecond, sequentialLatencies, sizesByMode } from "./measure-client.ts";
import { median } from "./stats.ts";

export const SERVED_ECHO = fileURLToPath(new URL("../servers/served-echo.mjs", import.meta.url));
export const SERVER_LIBRARIES = ["junction", "raw-sdk", "fastmcp"] as const;
export type ServerLibrary = (typeof SERVER_LIBRARIES)[number];
export type ServerTransport = "stdio" | "http";
export type ProtocolEra = "2025-11-25" | "2026-07-28";
/** The concurrency levels of the server benchmark. */
export const SERVER_CONCURRENCY = [1, 8] as const;

export interface ServerMeasurement {
  /** The protocol version the client and server agreed on. */
  negotiated: string;
  latencies: number[];
  p50Ms: number;
  throughput: Record<(typeof SERVER_CONCURRENCY)[number], number>;
}

/** Spawns the HTTP server and waits for its `{"port":N}` line (FastMCP prints a banner first). */
async function startHTTP(library: ServerLibrary): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [SERVED_ECHO, library, "--http", "0"], {
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

async function measure(
  library: ServerLibrary,
  transport: ServerTransport,
  era: ProtocolEra,
  mode: BenchMode,
): Promise<ServerMeasurement> {
  const sizes = sizesByMode[mode].client;
  const http = transport === "http" ? await startHTTP(library) : undefined;
  try {
    // 2026-07-28 is what the client reaches with `auto` (server/discover first); without it, 2025.
    const client = new Client(
      { name: "bench-server-client", version: "1.0.0" },
      era === "2026-07-28" ? { versionNegotiation: { mode: "auto" } } : {},
    );
    await client.connect(
      http
        ? new StreamableHTTPClientTransport(new URL(http.url))
        : new StdioClientTransport({ command: process.execPath, args: [SERVED_ECHO, library] }),
    );
    try {
      const negotiated = client.getNegotiatedProtocolVersion() ?? "?";
      const call = async (text: string) => {
        const result = await client.callTool({ name: "echo", arguments: { text } });
        const first = (result.content as { type: string; text?: string }[] | undefined)?.[0];
        if (first?.type !== "text")
          throw new Error(`${library}: unexpected result ${JSON.stringify(result)}`);
        return first.text ?? "";
      };
      for (let i = 0; i < sizes.warmUp; i++) await call(`warm ${i}`);
      const latencies = await sequentialLatencies(call, sizes.latencyCalls);
      const throughput = {} as ServerMeasurement["throughput"];
      for (const level of SERVER_CONCURRENCY) {
        await callsPerSecond(call, level, sizes.throughputWarmUpMs, 0);
        throughput[level] = await callsPerSecond(
          call,
          level,
          sizes.throughputWindowMs,
          sizes.throughputMinCalls,
        );
      }
      return { negotiated, latencies, p50Ms: median(latencies), throughput };
    } finally {
      await client.close();
    }
  } finally {
    if (http) {
      http.child.kill();
      if (http.child.exitCode === null && http.child.signalCode === null) await once(http.child, "exit");
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [library, transport, era, flag] = process.argv.slice(2) as [
    ServerLibrary,
    ServerTransport,
    ProtocolEra,
    string?,
  ];
  const measured = await measure(library, transport, era, flag === "--smoke" ? "smoke" : "full");
  process.stdout.write(`${JSON.stringify(measured)}\n`);
  process.exit(0); // a server library may leave handles open after close()
}
