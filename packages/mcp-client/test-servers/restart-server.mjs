// A server that tests restart under a connected client, over stdio or Streamable HTTP (2025-11-25
// sessions), told what to do by files in the folder RESTART_STATE (read when the process starts):
//
//   tools          JSON array of the tools to list (default ["echo", "pid"]); each answers
//                  "<name>:<pid>:<message>"; "hold" never answers. An entry is a name, or
//                  { name, outputSchema?, structured? }: a tool with that outputSchema that
//                  answers with `structured` as its structuredContent.
//   empty-lists    N: the first N tools/list of this process answer [] (a server still loading).
//   stale-status   what an unknown Mcp-Session-Id gets: 404 (default), 400 (with the body the SDK's
//                  examples send) or 401.
//   stale-batch    N: answers to unknown session ids are held until N of them have arrived.
//   init-failures  N: the first N initialize requests of this process answer 503 (warming up).
//   down           when present, the process exits at once with code 4 (a server that is down).
//   hang-start     when present, the process starts but never answers (a handshake that hangs).
//   die-on-list    N: the next N tools/list, counted across processes (read at each list and
//                  rewritten), kill the process that gets one before it answers (a server that
//                  dies while answering).
//
// Written by the server: started.log (one line per process start: its pid), calls.log (one line
// per tools/call: "<name> <message> <pid>"), lists.log (one line per tools/list: its pid) and stale.log (one line per request that carried a
// session id this process never issued).
// RESTART_TRANSPORT: "stdio" (default) or "http" on RESTART_PORT, printing "ready" once listening.
import { randomUUID } from "node:crypto";
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const folder = process.env.RESTART_STATE;
if (!folder) throw new Error("RESTART_STATE is not set");
const read = (name, fallback) => {
  const path = join(folder, name);
  return existsSync(path) ? readFileSync(path, "utf8").trim() : fallback;
};
appendFileSync(join(folder, "started.log"), `${process.pid}\n`);
if (existsSync(join(folder, "down"))) process.exit(4);
if (existsSync(join(folder, "hang-start"))) {
  setInterval(() => undefined, 60_000);
  await new Promise(() => undefined);
}

const tools = JSON.parse(read("tools", '["echo", "pid"]')).map((entry) =>
  typeof entry === "string" ? { name: entry } : entry,
);
let emptyLists = Number(read("empty-lists", "0"));
const staleStatus = Number(read("stale-status", "404"));
const staleBatch = Number(read("stale-batch", "1"));
let initFailures = Number(read("init-failures", "0"));

function buildServer() {
  const server = new Server({ name: "restart-server", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => {
    appendFileSync(join(folder, "lists.log"), `${process.pid}\n`);
    const dying = Number(read("die-on-list", "0"));
    if (dying > 0) {
      writeFileSync(join(folder, "die-on-list"), String(dying - 1));
      process.kill(process.pid, "SIGKILL");
    }
    if (emptyLists > 0) {
      emptyLists--;
      return { tools: [] };
    }
    return {
      tools: tools.map(({ name, outputSchema }) => ({
        name,
        description: `The ${name} tool`,
        inputSchema: { type: "object", properties: { message: { type: "string" } } },
        ...(outputSchema ? { outputSchema } : {}),
      })),
    };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name } = request.params;
    const message = String(request.params.arguments?.message ?? "");
    appendFileSync(join(folder, "calls.log"), `${name} ${message} ${process.pid}\n`);
    if (name === "hold") await new Promise(() => undefined);
    const tool = tools.find((candidate) => candidate.name === name);
    if (!tool) return { content: [{ type: "text", text: `no tool ${name}` }], isError: true };
    return {
      content: [{ type: "text", text: `${name}:${process.pid}:${message}` }],
      ...(tool.structured === undefined ? {} : { structuredContent: tool.structured }),
    };
  });
  return server;
}

if ((process.env.RESTART_TRANSPORT ?? "stdio") === "stdio") {
  await buildServer().connect(new StdioServerTransport());
} else {
  const sessions = new Map();
  const heldStale = [];
  const readBody = async (req) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const text = Buffer.concat(chunks).toString("utf8");
    return text ? JSON.parse(text) : undefined;
  };
  const json = (res, status, body) =>
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  const answerStale = (res) => {
    if (staleStatus === 400) {
      return json(res, 400, {
        jsonrpc: "2.0",
        error: { code: -32000, message: "Bad Request: No valid session ID provided" },
        id: null,
      });
    }
    if (staleStatus === 401) return json(res, 401, { error: "invalid_token" });
    return json(res, 404, {
      jsonrpc: "2.0",
      error: { code: -32001, message: "Session not found" },
      id: null,
    });
  };
  const http = createServer(async (req, res) => {
    const sessionId = req.headers["mcp-session-id"];
    if (typeof sessionId === "string") {
      const transport = sessions.get(sessionId);
      if (!transport) {
        const body = req.method === "POST" ? await readBody(req) : undefined;
        appendFileSync(join(folder, "stale.log"), `${req.method} ${body?.method ?? ""} ${sessionId}\n`);
        heldStale.push(res);
        if (heldStale.length >= staleBatch) for (const held of heldStale.splice(0)) answerStale(held);
        return;
      }
      const body = req.method === "POST" ? await readBody(req) : undefined;
      return transport.handleRequest(req, res, body);
    }
    if (req.method !== "POST") return json(res, 400, { error: "session id required" });
    const body = await readBody(req);
    if (body?.method !== "initialize") {
      return json(res, 400, {
        jsonrpc: "2.0",
        error: { code: -32000, message: "Bad Request: Server not initialized" },
        id: null,
      });
    }
    if (initFailures > 0) {
      initFailures--;
      return json(res, 503, { error: "warming up" });
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => sessions.set(id, transport),
    });
    await buildServer().connect(transport);
    return transport.handleRequest(req, res, body);
  });
  http.listen(Number(process.env.RESTART_PORT ?? 0), "127.0.0.1", () => {
    process.stdout.write(`ready ${http.address().port}\n`);
  });
}
