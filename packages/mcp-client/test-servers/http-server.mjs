// An in-process HTTP MCP server for fault tests, built on the SDK's server transports.
//
//   mode "streamable": Streamable HTTP with sessions; forgetSessions() makes it answer 404 for
//                      every known session id, as a restarted server does; dropNextToolCall()
//                      makes it close the connection of the next tools/call without an answer.
//   mode "legacy-sse": the old HTTP+SSE transport only; a POST to the endpoint gets 405.
//   mode "broken":     every request gets a 500 whose body echoes the request's headers.
//
// Every request is recorded (method, path, status, headers) so tests can assert on the wire.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

function buildMcpServer(label) {
  const server = new McpServer({ name: `http-test-server-${label}`, version: "1.0.0" });
  server.registerTool(
    "echo",
    { description: "Echoes", inputSchema: { message: z.string() } },
    async ({ message }) => ({ content: [{ type: "text", text: `${label}: ${message}` }] }),
  );
  return server;
}

/**
 * @param {{ mode: "streamable" | "legacy-sse" | "broken", port?: number }} options
 */
export async function startHttpServer({ mode, port = 0 }) {
  const requests = [];
  /** @type {Map<string, StreamableHTTPServerTransport>} */
  const sessions = new Map();
  /** @type {Map<string, SSEServerTransport>} */
  const sseSessions = new Map();
  const forgotten = new Set();
  let sessionsCreated = 0;
  let dropToolCall = false;

  const readBody = async (req) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const text = Buffer.concat(chunks).toString("utf8");
    return text ? JSON.parse(text) : undefined;
  };

  const http = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const record = { method: req.method, path: url.pathname, headers: { ...req.headers }, status: 0 };
    requests.push(record);
    const reply = (status, body) => {
      record.status = status;
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    };
    try {
      if (mode === "broken") {
        return reply(500, { error: "internal failure", echoedHeaders: req.headers });
      }
      if (mode === "legacy-sse") {
        if (req.method === "GET" && url.pathname === "/mcp") {
          record.status = 200;
          const transport = new SSEServerTransport("/messages", res);
          sseSessions.set(transport.sessionId, transport);
          sessionsCreated++;
          await buildMcpServer("legacy").connect(transport);
          return;
        }
        if (req.method === "POST" && url.pathname === "/messages") {
          const transport = sseSessions.get(url.searchParams.get("sessionId") ?? "");
          if (!transport) return reply(404, { error: "unknown session" });
          record.status = 202;
          return transport.handlePostMessage(req, res, await readBody(req));
        }
        return reply(405, { error: "method not allowed" });
      }
      // Streamable HTTP
      const sessionId = req.headers["mcp-session-id"];
      if (typeof sessionId === "string") {
        const transport = sessions.get(sessionId);
        if (!transport || forgotten.has(sessionId)) {
          return reply(404, {
            jsonrpc: "2.0",
            error: { code: -32001, message: "Session not found" },
            id: null,
          });
        }
        const body = req.method === "POST" ? await readBody(req) : undefined;
        if (dropToolCall && body?.method === "tools/call") {
          dropToolCall = false;
          record.status = -1;
          return req.socket.destroy();
        }
        record.status = 200;
        return transport.handleRequest(req, res, body);
      }
      if (req.method !== "POST") return reply(400, { error: "session id required" });
      const body = await readBody(req);
      // As the SDK's stateful transport does: without a session, only initialize opens one (a
      // 2026-07-28 client's server/discover probe gets this 400 and falls back to initialize).
      if (body?.method !== "initialize") {
        return reply(400, {
          jsonrpc: "2.0",
          error: { code: -32000, message: "Bad Request: Server not initialized" },
          id: null,
        });
      }
      const label = `session-${++sessionsCreated}`;
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => sessions.set(id, transport),
      });
      await buildMcpServer(label).connect(transport);
      record.status = 200;
      return transport.handleRequest(req, res, body);
    } catch (error) {
      if (!res.headersSent) reply(500, { error: String(error) });
    }
  });

  await new Promise((resolve) => http.listen(port, "127.0.0.1", resolve));
  const address = http.address();
  return {
    url: `http://127.0.0.1:${address.port}/mcp`,
    port: address.port,
    requests,
    get sessionsCreated() {
      return sessionsCreated;
    },
    /** Every session id known so far now gets 404, as after a restart. */
    forgetSessions() {
      for (const id of sessions.keys()) forgotten.add(id);
    },
    /** The next tools/call on a known session: its connection is closed before any answer. */
    dropNextToolCall() {
      dropToolCall = true;
    },
    async close() {
      for (const transport of sessions.values()) await transport.close().catch(() => {});
      for (const transport of sseSessions.values()) await transport.close().catch(() => {});
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}
