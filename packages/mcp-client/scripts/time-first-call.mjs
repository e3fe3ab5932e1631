#!/usr/bin/env node
// Time from `connect()` to the first tool result against server-everything over stdio: spawn,
// initialize handshake, tools/list (done once to learn output schemas) and tools/call "echo".
// Prints each run and the median. Build first: pnpm --filter @junction/mcp-client build
//
//   node scripts/time-first-call.mjs [runs=7]
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
// The "node" entry: the one with stdio, as `@junction/mcp-client` resolves on Node.js.
import { MCP } from "../dist/node.js";

const require = createRequire(import.meta.url);
const manifestPath = require.resolve("@modelcontextprotocol/server-everything/package.json");
const entry = join(dirname(manifestPath), require(manifestPath).bin["mcp-server-everything"]);
const runs = Number(process.argv[2] ?? 7);

const timings = [];
for (let run = 1; run <= runs; run++) {
  const mcp = new MCP({ transport: "stdio", command: process.execPath, args: [entry, "stdio"] });
  const started = performance.now();
  await mcp.connect();
  const result = await mcp.callTool("echo", { message: "ping" });
  const elapsed = performance.now() - started;
  if (result.content[0]?.text !== "Echo: ping")
    throw new Error(`unexpected result: ${JSON.stringify(result)}`);
  timings.push(elapsed);
  console.log(`run ${run}: ${elapsed.toFixed(1)} ms`);
  await mcp.close();
}
const sorted = [...timings].sort((a, b) => a - b);
const middle = Math.floor(sorted.length / 2);
const median = sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
console.log(
  `median connect() → first tool result over stdio (server-everything, ${runs} runs): ${median.toFixed(1)} ms`,
);
