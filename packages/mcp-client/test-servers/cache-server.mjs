#!/usr/bin/env node
// A 2026-07-28-only MCP server over Streamable HTTP (the SDK's v2 server, legacy refused) for
// the tool-cache tests: its tools/list carries the hints given on the command line, and one of
// its tools can change another's `x-mcp-header` parameter between a list and a call.
//
//   node cache-server.mjs <ttlMs> <cacheScope>   prints "listening <port>" once it accepts requests
//
// Tools: `route` ({ region }, its header "Region" until switched), `switch-header` (route's
// header becomes "Zone", with no list-changed notice), `stats` (how many tools/list and
// tools/call requests reached the server, as JSON).
import { createServer } from "node:http";
import { Readable } from "node:stream";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";

const [ttlArgument = "0", scopeArgument = "private"] = process.argv.slice(2);
let headerName = "Region";
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
  return server;
}

const handler = createMcpHandler(build, { legacy: "reject" });
const http = createServer(async (req, res) => {
  try {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = Buffer.concat(chunks);
    try {
      const method = JSON.parse(body.toString()).method;
      if (method in seen) seen[method]++;
    } catch {
      // Not a JSON-RPC body: nothing to count.
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === "string") headers.set(name, value);
      else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    }
    const request = new Request(`http://${req.headers.host ?? "localhost"}${req.url ?? "/"}`, {
      method: req.method,
      headers,
      ...(body.length > 0 && req.method !== "GET" && req.method !== "HEAD" ? { body } : {}),
    });
    const response = await handler.fetch(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body) Readable.fromWeb(response.body).pipe(res);
    else res.end();
  } catch (error) {
    if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
    res.end(String(error));
  }
});
http.listen(0, "127.0.0.1", () => {
  process.stdout.write(`listening ${http.address().port}\n`);
});
process.on("SIGTERM", () => {
  http.closeAllConnections();
  http.close(() => process.exit(0));
});
