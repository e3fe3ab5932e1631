#!/usr/bin/env node
import { createServer } from "node:http";
// The benchmark's echo server in 2026-07-28-only mode, on the SDK's v2 server: the same `echo`
// tool as echo-server.mjs, served over stdio (default) or stateless Streamable HTTP
// (`--http PORT`, prints `{"port":N}`), legacy (2025) traffic refused, so a client reaches it only
// by negotiating the new revision.
import { Readable } from "node:stream";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { z } from "zod";

function createEchoServer() {
  const server = new McpServer({ name: "bench-echo-modern", version: "1.0.0" });
  server.registerTool(
    "echo",
    { description: "Returns its input text.", inputSchema: z.object({ text: z.string() }) },
    async ({ text }) => ({ content: [{ type: "text", text }] }),
  );
  return server;
}

const httpFlag = process.argv.indexOf("--http");
if (httpFlag === -1) {
  serveStdio(createEchoServer, { legacy: "reject" });
} else {
  const handler = createMcpHandler(createEchoServer, { legacy: "reject" });
  const http = createServer(async (req, res) => {
    try {
      const chunks = [];
      for await (const chunk of req) chunks.push(chunk);
      const body = Buffer.concat(chunks);
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
  http.listen(Number(process.argv[httpFlag + 1] ?? 0), "127.0.0.1", () => {
    process.stdout.write(`${JSON.stringify({ port: http.address().port })}\n`);
  });
}
