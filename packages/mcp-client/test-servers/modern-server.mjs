#!/usr/bin/env node
// A 2026-07-28-only MCP server on the SDK's v2 server (@modelcontextprotocol/server): legacy
// (2025) traffic is refused, so a client reaches it only by negotiating the new revision.
//
//   node modern-server.mjs stdio           serveStdio(…, { legacy: "reject" })
//   node modern-server.mjs http [port]     createMcpHandler(…, { legacy: "reject" }) on node:http;
//                                          prints "listening <port>" once it accepts requests
//
// Every tool answer names the process (pid), so tests can tell which process served a call.
import { createServer } from "node:http";
import { Readable } from "node:stream";
import { acceptedContent, createMcpHandler, inputRequired, McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { z } from "zod";

const TINY_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

/** Publishes change events to open `subscriptions/listen` streams (HTTP mode only). */
let notify;

function build() {
  const server = new McpServer(
    { name: "modern-test-server", version: "1.0.0" },
    { capabilities: { tools: { listChanged: true }, resources: { subscribe: true }, prompts: {} } },
  );
  server.registerTool(
    "announce",
    {
      description: "Publishes a change to the open listen streams (HTTP mode)",
      inputSchema: z.object({ what: z.enum(["tools", "greeting"]) }),
    },
    async ({ what }) => {
      if (what === "tools") notify?.toolsChanged();
      else notify?.resourceUpdated("memo://greeting");
      return { content: [{ type: "text", text: `announced ${what}` }] };
    },
  );
  server.registerTool(
    "echo",
    { description: "Echoes, naming the process", inputSchema: z.object({ message: z.string() }) },
    async ({ message }) => ({ content: [{ type: "text", text: `${process.pid}: ${message}` }] }),
  );
  server.registerTool("tiny-image", { description: "A 1x1 PNG", inputSchema: z.object({}) }, async () => ({
    content: [{ type: "image", data: TINY_PNG, mimeType: "image/png" }],
  }));
  server.registerTool(
    "deploy",
    { description: "Asks the user to confirm (input_required)", inputSchema: z.object({ env: z.string() }) },
    async ({ env }, ctx) => {
      const confirmation = z.object({ confirm: z.boolean() });
      const answer = acceptedContent(ctx.mcpReq.inputResponses, "confirm", confirmation);
      if (answer === undefined) {
        return inputRequired({
          inputRequests: {
            confirm: inputRequired.elicit({ message: `Deploy to ${env}?`, requestedSchema: confirmation }),
          },
        });
      }
      return { content: [{ type: "text", text: answer.confirm ? `deployed to ${env}` : "not deployed" }] };
    },
  );
  server.registerTool("fail", { description: "Always fails", inputSchema: z.object({}) }, async () => {
    throw new Error("the tool broke");
  });
  server.registerTool(
    "hang",
    { description: "Never answers", inputSchema: z.object({}) },
    () => new Promise(() => {}),
  );
  server.registerResource(
    "greeting",
    "memo://greeting",
    { description: "A greeting", mimeType: "text/plain" },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/plain", text: "hello from 2026" }] }),
  );
  server.registerPrompt(
    "summarize",
    { description: "Summarize a topic", argsSchema: z.object({ topic: z.string() }) },
    async ({ topic }) => ({
      messages: [{ role: "user", content: { type: "text", text: `Summarize ${topic}.` } }],
    }),
  );
  return server;
}

const [mode = "stdio", portArgument = "0"] = process.argv.slice(2);

if (mode === "stdio") {
  serveStdio(build, { legacy: "reject" });
} else if (mode === "http") {
  const handler = createMcpHandler(build, { legacy: "reject" });
  notify = handler.notify;
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
  http.listen(Number(portArgument), "127.0.0.1", () => {
    process.stdout.write(`listening ${http.address().port}\n`);
  });
  process.on("SIGTERM", () => {
    http.closeAllConnections();
    http.close(() => process.exit(0));
  });
} else {
  process.stderr.write(`unknown mode ${mode}; use stdio or http\n`);
  process.exit(2);
}
