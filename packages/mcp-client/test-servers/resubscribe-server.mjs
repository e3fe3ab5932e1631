// A stdio MCP server (2025 revision) with resource subscriptions and logging that refuses both
// once it was restarted, as a server restarted with another configuration might: the first
// process creates the file named by STATE_FILE; a process that finds it answers
// resources/subscribe and logging/setLevel with an error. It can crash mid-call like
// crash-server.mjs, so the client reconnects.
import { existsSync, writeFileSync } from "node:fs";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";

const stateFile = process.env.STATE_FILE;
if (!stateFile) throw new TypeError("STATE_FILE is not set");
const restarted = existsSync(stateFile);
if (!restarted) writeFileSync(stateFile, String(process.pid));

const server = new Server(
  { name: "resubscribe-server", version: "1.0.0" },
  { capabilities: { tools: {}, resources: { subscribe: true }, logging: {} } },
);

function refuse(what) {
  if (restarted) throw new McpError(ErrorCode.InvalidRequest, `${what} is disabled after a restart`);
}

server.setRequestHandler(SetLevelRequestSchema, async () => {
  refuse("logging");
  return {};
});
server.setRequestHandler(SubscribeRequestSchema, async () => {
  refuse("subscribing");
  return {};
});
server.setRequestHandler(UnsubscribeRequestSchema, async () => ({}));
server.setRequestHandler(ListResourcesRequestSchema, async () => ({
  resources: [{ uri: "test://status", name: "status" }],
}));
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    { name: "pid", description: "Returns this process id", inputSchema: { type: "object" } },
    { name: "crash", description: "Dies while the call is in flight", inputSchema: { type: "object" } },
  ],
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  if (request.params.name === "crash") {
    setTimeout(() => process.exit(1), 20);
    await new Promise(() => {});
  }
  return { content: [{ type: "text", text: String(process.pid) }] };
});

await server.connect(new StdioServerTransport());
