import { connectAll, MCP, type MCPConfig } from "@junction/mcp-client";
import { echoServerPath, startHTTPEchoServer } from "./mcp-clients.ts";
import { median } from "./stats.ts";

export interface ConnectAllFigures {
  transport: "stdio" | "http";
  connectAllMs: number;
  oneByOneMs: number;
  slowestSingleMs: number;
}

const SERVERS = 5;

/**
 * `connectAll` of five servers against connecting the same five one after another, over stdio
 * (each connect spawns a Node process: CPU-bound on a small machine) and over Streamable HTTP
 * (servers already running: each connect is a handshake over loopback).
 */
export async function benchConnectAll(rounds: number): Promise<ConnectAllFigures[]> {
  const stdio = Object.fromEntries(
    Array.from({ length: SERVERS }, (_, i) => [
      `echo${i}`,
      {
        transport: "stdio",
        command: process.execPath,
        args: [echoServerPath],
        reconnect: false,
      } as MCPConfig,
    ]),
  );
  const servers = await Promise.all(Array.from({ length: SERVERS }, () => startHTTPEchoServer()));
  try {
    const http = Object.fromEntries(
      servers.map((server, i) => [
        `echo${i}`,
        { transport: "http", url: server.url, sseFallback: false, reconnect: false } as MCPConfig,
      ]),
    );
    return [await measure("stdio", stdio, rounds), await measure("http", http, rounds)];
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

async function measure(
  transport: ConnectAllFigures["transport"],
  configs: Record<string, MCPConfig>,
  rounds: number,
): Promise<ConnectAllFigures> {
  const together: number[] = [];
  const oneByOne: number[] = [];
  const slowest: number[] = [];
  for (let round = 0; round < rounds; round++) {
    let start = performance.now();
    const { connected, failed } = await connectAll(configs);
    together.push(performance.now() - start);
    if (failed.length > 0)
      throw new Error(`connectAll failed: ${failed.map((f) => f.error.message).join("; ")}`);
    await Promise.all(connected.map((mcp) => mcp.close()));

    const singles: number[] = [];
    const opened: MCP[] = [];
    start = performance.now();
    for (const config of Object.values(configs)) {
      const single = performance.now();
      const mcp = new MCP(config);
      await mcp.connect();
      singles.push(performance.now() - single);
      opened.push(mcp);
    }
    oneByOne.push(performance.now() - start);
    slowest.push(Math.max(...singles));
    await Promise.all(opened.map((mcp) => mcp.close()));
  }
  return {
    transport,
    connectAllMs: median(together),
    oneByOneMs: median(oneByOne),
    slowestSingleMs: median(slowest),
  };
}
