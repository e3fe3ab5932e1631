// A stdio MCP server that starts a grandchild process which ignores SIGTERM and holds the
// server's stdout and stderr open, as servers that wrap other tools do. close() must leave
// neither alive, and when the server dies its grandchild must not keep the connection "open".
import { spawn } from "node:child_process";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

const grandchild = spawn(
  process.execPath,
  ["-e", "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000);"],
  { stdio: ["ignore", "inherit", "inherit"] },
);

const server = new McpServer({ name: "grandchild-server", version: "1.0.0" });
server.registerTool("pids", { description: "This process and its child" }, async () => ({
  content: [{ type: "text", text: JSON.stringify({ server: process.pid, grandchild: grandchild.pid }) }],
}));
server.registerTool("die", { description: "The server exits; its grandchild stays" }, async () => {
  setTimeout(() => process.exit(1), 10);
  await new Promise(() => {});
});
await server.connect(new StdioServerTransport());
