// A stdio MCP server that reports which environment variables it sees.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

const server = new McpServer({ name: "env-server", version: "1.0.0" });
server.registerTool("env", { description: "The names of the environment variables" }, async () => ({
  content: [{ type: "text", text: JSON.stringify(Object.keys(process.env).sort()) }],
}));
await server.connect(new StdioServerTransport());
