// A stdio MCP server whose one tool answers with the `_meta` of the tools/call request that
// reached it, as JSON (an empty object when there was none).
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

const server = new McpServer({ name: "meta-server", version: "1.0.0" });
server.registerTool("echo_meta", { description: "Answers with the request's _meta" }, async (extra) => ({
  content: [{ type: "text", text: JSON.stringify(extra._meta ?? {}) }],
}));
await server.connect(new StdioServerTransport());
