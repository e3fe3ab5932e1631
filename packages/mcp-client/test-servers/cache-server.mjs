#!/usr/bin/env node
// A 2026-07-28-only MCP server over Streamable HTTP (the SDK's v2 server, legacy refused) for
// the tool-cache tests: its tools/list carries the hints given on the command line, and one of
// its tools can change another's `x-mcp-header` parameter between a list and a call.
//
//   node cache-server.mjs <ttlMs> <cacheScope>   prints "listening <port>" once it accepts requests
//
// Tools: `route` ({ region }, its header "Region" until switched), `switch-header` (route's
// header becomes "Zone", with no list-changed notice), `stats` (how many tools/list and
// tools/call requests reached the server, as JSON), `grow` (adds the tool `grown`, which says
// "grown", to later lists, again with no notice: the server has only its ttlMs to say so).
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { serveFetchHandler } from "./serve-fetch-handler.mjs";

const [ttlArgument = "0", scopeArgument = "private"] = process.argv.slice(2);
let headerName = "Region";
let grown = false;
const seen = { "tools/list": 0, "tools/call": 0 };

function build() {
  const server = new McpServer(
    { name: "cache-test-server", version: "1.0.0" },
    {
      capabilities: { tools: {} },
      cacheHints: { "tools/list": { ttlMs: Number(ttlArgument), cacheScope: scopeArgument } },
    },
  );
  server.registerTool(
    "route",
    {
      description: "Routes by region (a header parameter)",
      inputSchema: z.object({ region: z.string().meta({ "x-mcp-header": headerName }) }),
    },
    async ({ region }) => ({ content: [{ type: "text", text: `routed to ${region} by ${headerName}` }] }),
  );
  server.registerTool(
    "switch-header",
    { description: "Renames route's header", inputSchema: z.object({}) },
    async () => {
      headerName = "Zone";
      return { content: [{ type: "text", text: "route now reads Mcp-Param-Zone" }] };
    },
  );
  server.registerTool("stats", { description: "Request counts", inputSchema: z.object({}) }, async () => ({
    content: [{ type: "text", text: JSON.stringify(seen) }],
  }));
  server.registerTool(
    "grow",
    { description: "Adds the tool `grown`", inputSchema: z.object({}) },
    async () => {
      grown = true;
      return { content: [{ type: "text", text: "grown is listed from now on" }] };
    },
  );
  if (grown) {
    server.registerTool("grown", { description: "Appeared later", inputSchema: z.object({}) }, async () => ({
      content: [{ type: "text", text: "grown" }],
    }));
  }
  return server;
}

const handler = createMcpHandler(build, { legacy: "reject" });
serveFetchHandler((request) => handler.fetch(request), {
  onBody(body) {
    try {
      const method = JSON.parse(body.toString()).method;
      if (method in seen) seen[method]++;
    } catch {
      // Not a JSON-RPC body: nothing to count.
    }
  },
});
