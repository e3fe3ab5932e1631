import { connectAll, MCP, type MCPConfig } from "@junction/mcp-client";
import { echoServerPath } from "./mcp-clients.ts";
import { median } from "./stats.ts";

export interface ConnectAllFigures {
  connectAllMs: number;
  oneByOneMs: number;
  slowestSingleMs: number;
}

const SERVERS = 5;

/** `connectAll` of five stdio servers against connecting the same five one after another. */
export async function benchConnectAll(rounds: number): Promise<ConnectAllFigures> {
  const configs: Record<string, MCPConfig> = Object.fromEntries(
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
  return { connectAllMs: median(together), oneByOneMs: median(oneByOne), slowestSingleMs: median(slowest) };
}
