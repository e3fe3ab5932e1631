import { connectAll, MCP, type MCPConfig } from "@junction/mcp-client";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { echoServerPath, startHTTPEchoServer } from "./mcp-clients.ts";
import { median } from "./stats.ts";

export interface ConnectAllFigures {
  /** What is connected: local stdio servers, local HTTP servers, or HTTP servers a network away. */
  setting: string;
  connectAllMs: number;
  oneByOneMs: number;
  slowestSingleMs: number;
  /** The raw SDK connecting the same five at once (Promise.all): what the machine allows. */
  rawSDKParallelMs: number;
}

const SERVERS = 5;
/** The remote case: every HTTP request answered after this long, as from a server in another region. */
export const REMOTE_DELAY_MS = 20;

/**
 * `connectAll` of five servers against connecting the same five one after another: over stdio
 * (each connect spawns a Node process: CPU-bound on a small machine), over Streamable HTTP on
 * loopback (servers already running: each connect is a handshake, CPU work on both sides), and
 * over HTTP to servers that answer after {@link REMOTE_DELAY_MS} (waiting, as for remote servers).
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
  const figures = [await measure("stdio", stdio, rounds)];
  for (const [setting, delayMs] of [
    ["http (loopback)", 0],
    [`http (${REMOTE_DELAY_MS} ms away)`, REMOTE_DELAY_MS],
  ] as const) {
    const servers = await Promise.all(
      Array.from({ length: SERVERS }, () => startHTTPEchoServer({ delayMs })),
    );
    try {
      const http = Object.fromEntries(
        servers.map((server, i) => [
          `echo${i}`,
          { transport: "http", url: server.url, sseFallback: false, reconnect: false } as MCPConfig,
        ]),
      );
      figures.push(await measure(setting, http, rounds));
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
    }
  }
  return figures;
}

async function measure(
  setting: string,
  configs: Record<string, MCPConfig>,
  rounds: number,
): Promise<ConnectAllFigures> {
  const together: number[] = [];
  const rawParallel: number[] = [];
  const oneByOne: number[] = [];
  const slowest: number[] = [];
  // Once untimed: the first connects in a process also pay for loading and compiling the client.
  const warmUp = await connectAll(configs);
  await Promise.all(warmUp.connected.map((mcp) => mcp.close()));
  for (let round = 0; round < rounds; round++) {
    let start = performance.now();
    const { connected, failed } = await connectAll(configs);
    together.push(performance.now() - start);
    if (failed.length > 0)
      throw new Error(`connectAll failed: ${failed.map((f) => f.error.message).join("; ")}`);
    await Promise.all(connected.map((mcp) => mcp.close()));

    start = performance.now();
    const clients = await Promise.all(Object.values(configs).map(connectRawSDK));
    rawParallel.push(performance.now() - start);
    await Promise.all(clients.map((client) => client.close()));

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
    setting,
    connectAllMs: median(together),
    oneByOneMs: median(oneByOne),
    slowestSingleMs: median(slowest),
    rawSDKParallelMs: median(rawParallel),
  };
}

async function connectRawSDK(config: MCPConfig): Promise<Client> {
  const client = new Client({ name: "bench", version: "1.0.0" });
  if (config.transport === "stdio") {
    await client.connect(new StdioClientTransport({ command: config.command, args: config.args ?? [] }));
  } else if (config.transport === "http") {
    await client.connect(new StreamableHTTPClientTransport(new URL(config.url)));
  } else {
    throw new Error(`the benchmark connects stdio and http servers, not ${config.transport}`);
  }
  return client;
}
