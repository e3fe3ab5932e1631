// The first `listTools` of a server with many tools (issue 30): Junction's MCP against the raw
// SDK's Client, over stdio, alternating which goes first, each on a fresh connection to a fresh
// server process. `node --import ./src/resolve-typescript.ts src/bench-list-tools.ts [--tools N] [--rounds N]`
import { fileURLToPath } from "node:url";
import { median } from "./stats.ts";

const serverPath = fileURLToPath(new URL("../servers/many-tools-server.mjs", import.meta.url));

export interface ListToolsFigures {
  tools: number;
  rounds: number;
  junctionMs: number;
  rawSDKMs: number;
  /** Median of the per-round ratios. */
  ratio: number;
}

async function junction(tools: number): Promise<number> {
  const { MCP } = await import("@junction/mcp-client");
  const mcp = new MCP({
    transport: "stdio",
    command: process.execPath,
    args: [serverPath, "--tools", String(tools)],
  });
  await mcp.connect();
  try {
    const start = performance.now();
    const listed = await mcp.listTools();
    const ms = performance.now() - start;
    if (listed.length !== tools) throw new Error(`listed ${listed.length} tools, expected ${tools}`);
    return ms;
  } finally {
    await mcp.close();
  }
}

async function rawSDK(tools: number): Promise<number> {
  const { Client } = await import("@modelcontextprotocol/client");
  const { StdioClientTransport } = await import("@modelcontextprotocol/client/stdio");
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [serverPath, "--tools", String(tools)] }),
  );
  try {
    const start = performance.now();
    const { tools: listed } = await client.listTools();
    const ms = performance.now() - start;
    if (listed.length !== tools) throw new Error(`listed ${listed.length} tools, expected ${tools}`);
    return ms;
  } finally {
    await client.close();
  }
}

export async function benchListTools(options: { tools: number; rounds: number }): Promise<ListToolsFigures> {
  const ours: number[] = [];
  const raw: number[] = [];
  const ratios: number[] = [];
  await junction(10); // both libraries loaded and warm before the first measured round
  await rawSDK(10);
  for (let round = 0; round < options.rounds; round++) {
    const [a, b] =
      round % 2 === 0
        ? [await junction(options.tools), await rawSDK(options.tools)]
        : [await rawSDK(options.tools), await junction(options.tools)].reverse();
    ours.push(a as number);
    raw.push(b as number);
    ratios.push((a as number) / (b as number));
  }
  return {
    tools: options.tools,
    rounds: options.rounds,
    junctionMs: median(ours),
    rawSDKMs: median(raw),
    ratio: median(ratios),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const option = (name: string, fallback: number) => {
    const index = process.argv.indexOf(name);
    return index === -1 ? fallback : Number(process.argv[index + 1]);
  };
  const figures = await benchListTools({ tools: option("--tools", 2000), rounds: option("--rounds", 9) });
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}
