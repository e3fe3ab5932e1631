// A stdio MCP server for fault tests: it can crash mid-call, hang forever, and tell how many
// cancellations (notifications/cancelled) it received.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "crash-server", version: "1.0.0" });
let cancellations = 0;

server.registerTool("pid", { description: "Returns this process id" }, async () => ({
  content: [{ type: "text", text: String(process.pid) }],
}));

server.registerTool(
  "crash",
  { description: "Dies while the call is in flight", inputSchema: { delayMs: z.number().default(50) } },
  async ({ delayMs }) => {
    setTimeout(() => process.exit(1), delayMs);
    await new Promise(() => {});
  },
);

server.registerTool("hang", { description: "Never answers; counts cancellations" }, async (extra) => {
  await new Promise((resolve) => {
    extra.signal.addEventListener("abort", () => {
      cancellations++;
      resolve(undefined);
    });
  });
  return { content: [{ type: "text", text: "cancelled" }] };
});

server.registerTool("cancellations", { description: "How many calls were cancelled" }, async () => ({
  content: [{ type: "text", text: String(cancellations) }],
}));

await server.connect(new StdioServerTransport());
