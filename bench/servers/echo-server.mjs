#!/usr/bin/env node
// The benchmark's MCP server: one `echo` tool, served over stdio (default) or Streamable HTTP
// (`--http PORT`, stateful sessions). Kept trivial so the numbers measure the clients.
// `--delay-ms N` holds every HTTP request N ms before answering: a server across a network.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

function createEchoServer() {
  const server = new McpServer({ name: "bench-echo", version: "1.0.0" });
  server.registerTool(
    "echo",
    { description: "Returns its input text.", inputSchema: { text: z.string() } },
    async ({ text }) => ({ content: [{ type: "text", text }] }),
  );
  return server;
}

const httpFlag = process.argv.indexOf("--http");
if (httpFlag === -1) {
  await createEchoServer().connect(new StdioServerTransport());
} else {
  const port = Number(process.argv[httpFlag + 1] ?? 0);
  const delayFlag = process.argv.indexOf("--delay-ms");
  const delayMs = delayFlag === -1 ? 0 : Number(process.argv[delayFlag + 1]);
  const sessions = new Map();
  const handle = async (req, res) => {
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : undefined;
    const sessionId = req.headers["mcp-session-id"];
    let transport = sessionId ? sessions.get(sessionId) : undefined;
    if (!transport) {
      if (sessionId) {
        res.writeHead(404).end();
        return;
      }
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => sessions.set(id, transport),
      });
      transport.onclose = () => transport.sessionId && sessions.delete(transport.sessionId);
      await createEchoServer().connect(transport);
    }
    await transport.handleRequest(req, res, body);
  };
  const http = createServer((req, res) => {
    // A client that gave up on a request (a closed SSE stream, a disconnect) is not a server error.
    handle(req, res).catch(() => res.destroy());
  });
  http.listen(port, "127.0.0.1", () => {
    process.stdout.write(`${JSON.stringify({ port: http.address().port })}\n`);
  });
}
