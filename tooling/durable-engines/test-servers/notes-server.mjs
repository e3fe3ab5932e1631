#!/usr/bin/env node
// A stdio MCP server for the Agent crash tests: its one tool, `save_note`, carries no
// annotations (so annotationPolicy() asks before it runs) and appends a JSON line per call to
// CALLS_FILE, with the text and the idempotency key the call carried in `_meta`.
import { appendFileSync } from "node:fs";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const callsFile = process.env.CALLS_FILE;
if (!callsFile) throw new Error("notes-server: set CALLS_FILE");

const server = new McpServer({ name: "notes-server", version: "1.0.0" });
server.registerTool(
  "save_note",
  { description: "Saves a note", inputSchema: { text: z.string() } },
  async ({ text }, extra) => {
    const key = extra._meta?.["dev.junction/idempotency-key"] ?? null;
    appendFileSync(callsFile, `${JSON.stringify({ text, key })}\n`);
    return { content: [{ type: "text", text: `saved "${text}"` }] };
  },
);
await server.connect(new StdioServerTransport());
