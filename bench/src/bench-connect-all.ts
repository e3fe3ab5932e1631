import { connectAll, MCP, type MCPConfig } from "@junction/mcp-client";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { echoServerPath, startHTTPEchoServer } from "./mcp-clients.ts";
import { median } from "./stats.ts";

export interface ConnectAllFigures {
  /** What is connected: local stdio servers, local HTTP servers, or HTTP servers a network away. */
  setting: string;
  connectAllMs: number;
  /** The raw SDK connecting the same five at once (five `connect()`s in `Promise.all`). */
  rawSDKParallelMs: number;
  /** `connectAll` against the raw SDK's parallel connects: the median of back-to-back pairs' ratios. */
  connectAllVsRawSDK: number;
  pairs: number;
  oneByOneMs: number;
}

const SERVERS = 5;
/** The remote case: every HTTP request answered after this long, as from a server in another region. */
export const REMOTE_DELAY_MS = 20;

/**
 * `connectAll` of five servers against the raw SDK connecting the same five with `Promise.all`,
 * in back-to-back pairs (who goes first alternates), and against Junction connecting them one
 * after another: over stdio (each connect spawns a Node process: CPU-bound on a small machine),
 * over Streamable HTTP on loopback (servers already running: each connect is a handshake, CPU
 * work on both sides), and over HTTP to servers that answer after {@link REMOTE_DELAY_MS}
 * (waiting, as for remote servers).
 */
export async function benchConnectAll(options: {
  /** Back-to-back pairs of `connectAll` and the raw SDK's parallel connects, per setting. */
  pairs: number;
  /** Runs of Junction connecting the five one by one, per setting. */
  oneByOneRuns: number;
}): Promise<ConnectAllFigures[]> {
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
  const figures = [await measure("stdio", stdio, options)];
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
      figures.push(await measure(setting, http, options));
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
    }
  }
  return figures;
}

async function measure(
  setting: string,
  configs: Record<string, MCPConfig>,
  options: { pairs: number; oneByOneRuns: number },
): Promise<ConnectAllFigures> {
  const timeConnectAll = async () => {
    const start = performance.now();
    const { connected, failed } = await connectAll(configs);
    const ms = performance.now() - start;
    await Promise.all(connected.map((mcp) => mcp.close()));
    if (failed.length > 0)
      throw new Error(`connectAll failed: ${failed.map((f) => f.error.message).join("; ")}`);
    return ms;
  };
  const timeRawSDKParallel = async () => {
    const start = performance.now();
    const clients = await Promise.all(Object.values(configs).map(connectRawSDK));
    const ms = performance.now() - start;
    await Promise.all(clients.map((client) => client.close()));
    return ms;
  };
  // Once each untimed: the first connects in a process also pay for loading and compiling the client.
  await timeConnectAll();
  await timeRawSDKParallel();

  const together: number[] = [];
  const rawParallel: number[] = [];
  const ratios: number[] = [];
  for (let pair = 0; pair < options.pairs; pair++) {
    // Alternating who goes first, so neither always runs on the heels of the other.
    let ours: number;
    let raw: number;
    if (pair % 2 === 0) {
      ours = await timeConnectAll();
      raw = await timeRawSDKParallel();
    } else {
      raw = await timeRawSDKParallel();
      ours = await timeConnectAll();
    }
    together.push(ours);
    rawParallel.push(raw);
    ratios.push(ours / raw);
  }

  const oneByOne: number[] = [];
  for (let run = 0; run < options.oneByOneRuns; run++) {
    const opened: MCP[] = [];
    const start = performance.now();
    for (const config of Object.values(configs)) {
      const mcp = new MCP(config);
      await mcp.connect();
      opened.push(mcp);
    }
    oneByOne.push(performance.now() - start);
    await Promise.all(opened.map((mcp) => mcp.close()));
  }
  return {
    setting,
    connectAllMs: median(together),
    rawSDKParallelMs: median(rawParallel),
    connectAllVsRawSDK: median(ratios),
    pairs: ratios.length,
    oneByOneMs: median(oneByOne),
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
