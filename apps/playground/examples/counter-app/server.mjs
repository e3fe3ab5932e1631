#!/usr/bin/env node
// An example MCP App server, over stdio with the official SDK: the playground offers it in one
// click ("Add the MCP App example"), so the MCP Apps support has something to show. Call
// `show-counter` in the inspector or ask the chat to "show the counter".
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import {
  APP_MIME_TYPE,
  COUNTER_URI,
  callCounterTool,
  counterDocument,
  counterTools,
} from "./counter-app.mjs";

const server = new Server(
  { name: "counter-app-example", version: "1.0.0" },
  { capabilities: { tools: {}, resources: {} } },
);
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: counterTools }));
server.setRequestHandler(
  CallToolRequestSchema,
  async (request) =>
    callCounterTool(request.params.name, request.params.arguments) ?? {
      content: [{ type: "text", text: `There is no tool ${request.params.name}.` }],
      isError: true,
    },
);
server.setRequestHandler(ListResourcesRequestSchema, async () => ({
  resources: [{ uri: COUNTER_URI, name: "counter.html", mimeType: APP_MIME_TYPE }],
}));
server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
  if (request.params.uri !== COUNTER_URI) throw new Error(`There is no resource ${request.params.uri}.`);
  return {
    contents: [
      {
        uri: COUNTER_URI,
        mimeType: APP_MIME_TYPE,
        text: counterDocument(),
        _meta: { ui: { csp: { connectDomains: [] }, prefersBorder: true } },
      },
    ],
  };
});
await server.connect(new StdioServerTransport());
