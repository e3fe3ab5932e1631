#!/usr/bin/env node
// The same `echo` tool served by three MCP server libraries, for the server benchmark
// (bench-mcp-server.ts): `node served-echo.mjs <junction|raw-sdk|fastmcp> [--http PORT]`.
// Over stdio by default; `--http PORT` serves Streamable HTTP on loopback at /mcp and prints
// `{"port":N}`. Each server is written the way its library's documentation shows.
//
// - junction: @junction/mcp-server (`createMCPServer` + core's `tool()`), `serveStdio` / `serveHTTP`
//   (both eras on one endpoint, its Host/Origin checks, rate and body limits on, as shipped).
// - raw-sdk: the official SDK v2 server (`McpServer.registerTool`), the SDK's `serveStdio`; over
//   HTTP the SDK's documented two-era endpoint: `createMcpHandler` (2026-07-28) and a sessionful
//   `WebStandardStreamableHTTPServerTransport` per 2025 session, on the same Node adapter
//   (@hono/node-server) Junction uses.
// - fastmcp: FastMCP (on the SDK v1, 2025 protocol only), `start({ transportType })`.
import { z } from "zod";

const [kind] = process.argv.slice(2);
const httpFlag = process.argv.indexOf("--http");
const port = httpFlag === -1 ? undefined : Number(process.argv[httpFlag + 1] ?? 0);
const description = "Returns its input text.";

const announce = (address) => process.stdout.write(`${JSON.stringify({ port: address.port })}\n`);

if (kind === "junction") {
  const { tool } = await import("@junction/core");
  const { createMCPServer } = await import("@junction/mcp-server");
  const server = createMCPServer({
    name: "bench-echo-junction",
    version: "1.0.0",
    tools: [
      tool({
        name: "echo",
        description,
        schema: z.object({ text: z.string() }),
        execute: async ({ text }) => text,
      }),
    ],
  });
  if (port === undefined) {
    const { serveStdio } = await import("@junction/mcp-server/stdio");
    serveStdio(server);
  } else {
    const { serveHTTP } = await import("@junction/mcp-server/node");
    // The default rate limit (600 a minute per client) would cap a throughput run: off, as a
    // server meant for one busy client would set it.
    const { url } = await serveHTTP(server, { port, rateLimit: false });
    announce({ port: Number(new URL(url).port) });
  }
} else if (kind === "raw-sdk") {
  const { McpServer } = await import("@modelcontextprotocol/server");
  const createEchoServer = () => {
    const server = new McpServer({ name: "bench-echo-raw", version: "1.0.0" });
    server.registerTool(
      "echo",
      { description, inputSchema: z.object({ text: z.string() }) },
      async ({ text }) => ({ content: [{ type: "text", text }] }),
    );
    return server;
  };
  if (port === undefined) {
    const { serveStdio } = await import("@modelcontextprotocol/server/stdio");
    serveStdio(createEchoServer);
  } else {
    const { createMcpHandler, isLegacyRequest, WebStandardStreamableHTTPServerTransport } = await import(
      "@modelcontextprotocol/server"
    );
    const { serve } = await import("@hono/node-server");
    const modern = createMcpHandler(createEchoServer, { legacy: "reject" });
    const sessions = new Map();
    const legacy = async (request) => {
      const sessionId = request.headers.get("mcp-session-id");
      if (sessionId) {
        const transport = sessions.get(sessionId);
        return transport
          ? transport.handleRequest(request)
          : Response.json(
              { jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null },
              { status: 404 },
            );
      }
      const server = createEchoServer();
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => crypto.randomUUID(),
        onsessioninitialized: (id) => sessions.set(id, transport),
        onsessionclosed: (id) => sessions.delete(id),
      });
      await server.connect(transport);
      return transport.handleRequest(request);
    };
    serve(
      {
        fetch: async (request) =>
          (await isLegacyRequest(request)) ? legacy(request) : modern.fetch(request),
        port,
        hostname: "127.0.0.1",
      },
      announce,
    );
  }
} else if (kind === "fastmcp") {
  const { FastMCP } = await import("fastmcp");
  const server = new FastMCP({ name: "bench-echo-fastmcp", version: "1.0.0" });
  server.addTool({
    name: "echo",
    description,
    parameters: z.object({ text: z.string() }),
    execute: async ({ text }) => text,
  });
  if (port === undefined) {
    await server.start({ transportType: "stdio" });
  } else {
    // FastMCP does not report the port it bound: pick a free one first when asked for 0.
    const chosen = port === 0 ? await freePort() : port;
    await server.start({
      transportType: "httpStream",
      httpStream: { port: chosen, host: "127.0.0.1", endpoint: "/mcp" },
    });
    announce({ port: chosen });
  }
} else {
  process.stderr.write(`usage: served-echo.mjs <junction|raw-sdk|fastmcp> [--http PORT]\n`);
  process.exit(2);
}

async function freePort() {
  const { createServer } = await import("node:net");
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port: free } = probe.address();
      probe.close(() => resolve(free));
    });
  });
}
