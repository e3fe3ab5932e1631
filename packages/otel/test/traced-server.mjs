// An MCP server on the official SDK that joins the client's trace: each tools/call reads
// `_meta.traceparent`, opens a SERVER span under it and exports it over OTLP/HTTP to
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT before answering.
//
//   node traced-server.mjs stdio
//   node traced-server.mjs http     (prints "listening <port>" once it listens on 127.0.0.1)
//   node traced-server.mjs sessions (the same, stateful: each initialize opens a session with an
//                                    Mcp-Session-Id; the tool "session" answers with its id)
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CreateMessageResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { context, ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, trace } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { BasicTracerProvider, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { z } from "zod";

const mode = process.argv[2] ?? "stdio";
const provider = new BasicTracerProvider({
  spanProcessors: [
    new SimpleSpanProcessor(new OTLPTraceExporter({ url: process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT })),
  ],
});
const tracer = provider.getTracer(`traced-server-${mode}`);

/** The parent the request's `_meta` names, read by hand as the MCP conventions describe it. */
function parentOf(meta) {
  const match = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/.exec(meta?.traceparent ?? "");
  if (!match) return undefined;
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId: match[1],
    spanId: match[2],
    traceFlags: Number.parseInt(match[3], 16) & TraceFlags.SAMPLED,
    isRemote: true,
  });
}

async function traced(name, extra, work) {
  const parent = parentOf(extra._meta) ?? context.active();
  const span = tracer.startSpan(
    `tools/call ${name}`,
    {
      kind: SpanKind.SERVER,
      attributes: {
        "mcp.method.name": "tools/call",
        "gen_ai.tool.name": name,
        "test.received_traceparent": String(extra._meta?.traceparent ?? ""),
        "test.transport": mode,
      },
    },
    parent,
  );
  try {
    const result = await work(span);
    if (result.isError) span.setStatus({ code: SpanStatusCode.ERROR, message: "tool_error" });
    return result;
  } finally {
    span.end();
    await provider.forceFlush();
  }
}

function buildServer() {
  const server = new McpServer({ name: `traced-${mode}`, version: "1.0.0" });
  server.registerTool(
    "lookup",
    { description: "Looks a word up", inputSchema: { word: z.string() } },
    async ({ word }, extra) =>
      traced("lookup", extra, async () => ({ content: [{ type: "text", text: `${mode}: ${word} found` }] })),
  );
  server.registerTool("explode", { description: "Always fails", inputSchema: {} }, async (_input, extra) =>
    traced("explode", extra, async () => ({
      content: [{ type: "text", text: "it exploded" }],
      isError: true,
    })),
  );
  server.registerTool(
    "summarize",
    { description: "Asks the client's model, carrying its own span's context", inputSchema: {} },
    async (_input, extra) =>
      traced("summarize", extra, async (span) => {
        const { traceId, spanId } = span.spanContext();
        const answer = await extra.sendRequest(
          {
            method: "sampling/createMessage",
            params: {
              messages: [{ role: "user", content: { type: "text", text: "Summarize." } }],
              maxTokens: 10,
              _meta: { traceparent: `00-${traceId}-${spanId}-01` },
            },
          },
          CreateMessageResultSchema,
        );
        return { content: [{ type: "text", text: `summary: ${answer.content.text}` }] };
      }),
  );
  server.registerTool(
    "session",
    { description: "Answers with its session's id", inputSchema: {} },
    async (_input, extra) =>
      traced("session", extra, async () => ({
        content: [{ type: "text", text: extra.sessionId ?? "none" }],
      })),
  );
  server.registerTool(
    "progress",
    { description: "Reports progress with a message, then answers", inputSchema: {} },
    async (_input, extra) =>
      traced("progress", extra, async () => {
        const progressToken = extra._meta?.progressToken;
        if (progressToken !== undefined) {
          await extra.sendNotification({
            method: "notifications/progress",
            params: { progressToken, progress: 1, total: 2, message: "reading /home/ada/diary.txt" },
          });
        }
        return { content: [{ type: "text", text: "done" }] };
      }),
  );
  server.registerTool("crash", { description: "Exits mid-call", inputSchema: {} }, async () =>
    process.exit(3),
  );
  server.registerTool(
    "wait",
    { description: "Waits until cancelled", inputSchema: {} },
    async (_input, extra) =>
      traced(
        "wait",
        extra,
        () =>
          new Promise((resolve) => {
            extra.signal.addEventListener("abort", () =>
              resolve({ content: [{ type: "text", text: "stopped" }] }),
            );
          }),
      ),
  );
  return server;
}

if (mode === "stdio") {
  await buildServer().connect(new StdioServerTransport());
} else if (mode === "sessions") {
  const sessions = new Map();
  const http = createServer(async (request, response) => {
    const chunks = [];
    for await (const chunk of request) chunks.push(chunk);
    const body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : undefined;
    const known = sessions.get(request.headers["mcp-session-id"]);
    if (known) return known.handleRequest(request, response, body);
    // As the SDK's stateful servers do: without a session only initialize is served.
    if (body?.method !== "initialize") {
      response.writeHead(400, { "content-type": "application/json" });
      return response.end(
        JSON.stringify({
          jsonrpc: "2.0",
          error: { code: -32000, message: "Bad Request: no session" },
          id: null,
        }),
      );
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => sessions.set(id, transport),
    });
    await buildServer().connect(transport);
    await transport.handleRequest(request, response, body);
  });
  http.listen(0, "127.0.0.1", () => {
    process.stdout.write(`listening ${http.address().port}\n`);
  });
} else {
  const http = createServer(async (request, response) => {
    const server = buildServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on("close", () => {
      transport.close();
      server.close();
    });
    await server.connect(transport);
    const chunks = [];
    for await (const chunk of request) chunks.push(chunk);
    const body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : undefined;
    await transport.handleRequest(request, response, body);
  });
  http.listen(0, "127.0.0.1", () => {
    process.stdout.write(`listening ${http.address().port}\n`);
  });
}
