// A stdio MCP server that starts a grandchild process which ignores SIGTERM, as servers that
// wrap other tools do. close() must leave neither of them alive.
import { spawn } from "node:child_process";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

const grandchild = spawn(
  process.execPath,
  ["-e", "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000);"],
  { stdio: "ignore" },
);

const server = new McpServer({ name: "grandchild-server", version: "1.0.0" });
server.registerTool("pids", { description: "This process and its child" }, async () => ({
  content: [{ type: "text", text: JSON.stringify({ server: process.pid, grandchild: grandchild.pid }) }],
}));
await server.connect(new StdioServerTransport());
