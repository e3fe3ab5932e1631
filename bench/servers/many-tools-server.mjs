#!/usr/bin/env node
// A stdio MCP server with many tools (`--tools N`, default 2000), for the cost of listing them:
// each tool has a description and a small input schema; every tenth has an output schema too.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const flag = process.argv.indexOf("--tools");
const count = flag === -1 ? 2000 : Number(process.argv[flag + 1]);
const server = new McpServer({ name: "bench-many-tools", version: "1.0.0" });
for (let index = 0; index < count; index++) {
  server.registerTool(
    `tool_${index}`,
    {
      description: `Tool number ${index}: looks things up in collection ${index % 37} and returns what it found.`,
      inputSchema: { query: z.string(), limit: z.number().int().optional(), exact: z.boolean().optional() },
      ...(index % 10 === 0 ? { outputSchema: { found: z.array(z.string()), total: z.number() } } : {}),
      annotations: { readOnlyHint: true },
    },
    async ({ query }) => ({
      content: [{ type: "text", text: query }],
      ...(index % 10 === 0 ? { structuredContent: { found: [query], total: 1 } } : {}),
    }),
  );
}
await server.connect(new StdioServerTransport());
