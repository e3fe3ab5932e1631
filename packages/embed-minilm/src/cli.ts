#!/usr/bin/env node
// junction-embed-minilm warm <mcp config json> [--cache-dir=<folder>] [--no-prefix] [--workers=<n>]
// Connects to every server of an `mcpServers` config (Claude Desktop, Cursor, VS Code), lists its
// tools named as an Agent given `{ mcp, prefix: <server's key> }` sees them (or unprefixed with
// --no-prefix), and fills the vector cache with their texts, so the first search embeds only the
// request.
import { miniLM } from "./minilm-embedder.js";

const USAGE =
  "usage: junction-embed-minilm warm <mcp config json> [--cache-dir=<folder>] [--no-prefix] [--workers=<n>]";

async function main(argv: string[]): Promise<number> {
  const [command, file, ...flags] = argv;
  if (command !== "warm" || !file) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const flag = (name: string) =>
    flags.find((given) => given.startsWith(`--${name}=`))?.slice(name.length + 3);
  const unknown = flags.filter((given) => given !== "--no-prefix" && !/^--(cache-dir|workers)=/.test(given));
  if (unknown.length > 0) {
    process.stderr.write(`junction-embed-minilm: unknown option ${unknown.join(", ")}\n${USAGE}\n`);
    return 2;
  }
  let client: typeof import("@junction/mcp-client");
  try {
    client = await import("@junction/mcp-client");
  } catch {
    process.stderr.write("junction-embed-minilm: warm needs @junction/mcp-client installed beside it.\n");
    return 1;
  }
  const configs = client.loadMCPConfig(file);
  const cacheDirectory = flag("cache-dir");
  const workers = flag("workers");
  const embed = miniLM({
    ...(cacheDirectory ? { cacheDirectory } : {}),
    ...(workers ? { workers: Number(workers) } : {}),
  });
  const { connected, failed } = await client.connectAll(configs);
  for (const { name, error } of failed) process.stderr.write(`${name}: not connected: ${error.message}\n`);
  let total = 0;
  let embedded = 0;
  try {
    for (const mcp of connected) {
      const tools = await mcp.listTools(flags.includes("--no-prefix") ? {} : { prefix: mcp.name });
      const started = performance.now();
      const result = await embed.warmTools(tools, {
        source: { name: mcp.name, description: mcp.description },
      });
      total += result.texts;
      embedded += result.embedded;
      process.stdout.write(
        `${mcp.name}: ${result.texts} tools, ${result.embedded} embedded in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
      );
    }
  } finally {
    await Promise.all(connected.map((mcp) => mcp.close()));
    await embed.close();
  }
  process.stdout.write(`${total} tools, ${embedded} embedded; cache: ${embed.cacheDirectory}\n`);
  return failed.length > 0 ? 1 : 0;
}

process.exitCode = await main(process.argv.slice(2));
