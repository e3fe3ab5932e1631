// A gateway with tool search as a client spawns it: built dist, real stdin/stdout, in front of
// server-everything (spawned over stdio) with a threshold its tool list is past.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { MCP } from "@junction/mcp-client";
import { gateway } from "../dist/index.js";
import { serveStdio } from "../dist/stdio.js";

const require = createRequire(import.meta.url);
const everythingEntry = join(
  dirname(require.resolve("@modelcontextprotocol/server-everything/package.json")),
  "dist/index.js",
);
const everything = new MCP({
  transport: "stdio",
  command: process.execPath,
  args: [everythingEntry, "stdio"],
});
await everything.connect();
serveStdio(gateway({ mcps: [{ mcp: everything, prefix: "ev" }], toolSearch: { threshold: 5 } }), {
  onError: (error) => process.stderr.write(`${error.message}\n`),
});
