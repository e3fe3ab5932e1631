// A stdio MCP server that writes lines that are not JSON-RPC to stdout, before the handshake
// and in the middle of a call, as badly behaved servers (and stray console.log calls) do.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

process.stdout.write("Server starting... (this is not JSON-RPC)\n");
process.stdout.write("{not json at all\n");
process.stdout.write('{"jsonrpc":"2.0","neither":"request nor response"}\n');

const server = new McpServer({ name: "garbage-server", version: "1.0.0" });
server.registerTool("noisy", { description: "Writes garbage to stdout, then answers" }, async () => {
  process.stdout.write("debug: computing the answer\n");
  process.stdout.write("[1, 2, 3]\n");
  return { content: [{ type: "text", text: "still fine" }] };
});

await server.connect(new StdioServerTransport());
