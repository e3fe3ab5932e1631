// A small server for the playground's traffic, stderr and health tests, written with the
// official SDK. `whoami` answers with the request headers it got (as servers echoing a
// credential in an error do), `say-on-stderr` writes a line to stderr whenever it is called, and
// the server has no `ping` handler (JSON-RPC -32601), as some servers do not.
// `crash` ends the process mid-call; with `--once <marker>` the server starts only once (later
// starts, such as the client's restarts, exit at once), so a restart never succeeds.
// Over stdio by default; `--http` serves Streamable HTTP on a free loopback port and prints
// `listening on <port>` to stdout.
import { randomUUID } from "node:crypto";
import { existsSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const marker = process.argv.includes("--once") ? process.argv[process.argv.indexOf("--once") + 1] : undefined;
if (marker) {
  if (existsSync(marker)) {
    process.stderr.write("started before: refusing to start again\n");
    process.exit(3);
  }
  writeFileSync(marker, "started\n");
}

const tools = [
  {
    name: "whoami",
    description: "Tells which credentials the request carried.",
    inputSchema: { type: "object", properties: {} },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: "say-on-stderr",
    description: "Writes a line to the server's stderr.",
    inputSchema: { type: "object", properties: { line: { type: "string" } }, required: ["line"] },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: "flood-progress",
    description: "Sends many progress notifications as fast as it can, then answers.",
    inputSchema: { type: "object", properties: { count: { type: "number" } }, required: ["count"] },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: "crash",
    description: "Ends the server process in the middle of the call.",
    inputSchema: { type: "object", properties: {} },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
];

function makeServer() {
  const server = new Server({ name: "wire-fixture", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.removeRequestHandler("ping");
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    if (request.params.name === "whoami") {
      const headers = extra.requestInfo?.headers ?? {};
      const seen = { authorization: headers.authorization ?? null, "x-api-key": headers["x-api-key"] ?? null };
      return { content: [{ type: "text", text: `You are ${JSON.stringify(seen)}` }] };
    }
    if (request.params.name === "say-on-stderr") {
      process.stderr.write(`${String(request.params.arguments?.line ?? "")}\n`);
      return { content: [{ type: "text", text: "written" }] };
    }
    if (request.params.name === "flood-progress") {
      const count = Number(request.params.arguments?.count ?? 0);
      const progressToken = request.params._meta?.progressToken;
      for (let progress = 1; progress <= count && progressToken !== undefined; progress++) {
        await extra.sendNotification({
          method: "notifications/progress",
          params: { progressToken, progress, total: count, message: `step ${progress}` },
        });
      }
      return { content: [{ type: "text", text: `sent ${count}` }] };
    }
    if (request.params.name === "crash") {
      process.stderr.write("crashing on purpose\n");
      process.exit(7);
    }
    return { content: [{ type: "text", text: `unknown tool ${request.params.name}` }], isError: true };
  });
  return server;
}

if (process.argv.includes("--http")) {
  const sessions = new Map();
  const http = createServer(async (request, response) => {
    const id = request.headers["mcp-session-id"];
    let transport = typeof id === "string" ? sessions.get(id) : undefined;
    if (!transport) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => sessions.set(sessionId, transport),
      });
      await makeServer().connect(transport);
    }
    await transport.handleRequest(request, response);
  });
  http.listen(0, "127.0.0.1", () => {
    process.stdout.write(`listening on ${http.address().port}\n`);
  });
} else {
  process.stderr.write("wire fixture ready on stdio\n");
  await makeServer().connect(new StdioServerTransport());
}
