#!/usr/bin/env node
// A stdio MCP server for the code-mode crash tests: a ledger whose two tools each append a JSON
// line per call they receive to CALLS_FILE (the tool, the entry, the clock the program passed,
// and the idempotency key the call carried in `_meta`), so a test in another process counts
// every effect across the worker's crashes. `append_entry` and `publish_entry` do the same; the
// workers' policy asks a person before `publish_entry` only.
import { appendFileSync } from "node:fs";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const callsFile = process.env.CALLS_FILE;
if (!callsFile) throw new Error("ledger-server: set CALLS_FILE");

const server = new McpServer({ name: "ledger-server", version: "1.0.0" });
const entry = { entry: z.number().int().positive(), clock: z.number() };
for (const tool of ["append_entry", "publish_entry"]) {
  server.registerTool(
    tool,
    { description: `The ledger's ${tool.replace("_", " ")}`, inputSchema: entry },
    async (input, extra) => {
      const key = extra._meta?.["dev.junction/idempotency-key"] ?? null;
      appendFileSync(callsFile, `${JSON.stringify({ tool, entry: input.entry, clock: input.clock, key })}\n`);
      return { content: [{ type: "text", text: `entry ${input.entry} recorded by ${tool}` }] };
    },
  );
}
await server.connect(new StdioServerTransport());
