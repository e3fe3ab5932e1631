// A small MCP server for the playground's fault tests: `crash` kills the process mid-call,
// `hello` answers, and `<b>markup</b>` text checks that results are shown as text.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

const server = new McpServer({ name: "crashing-test-server", version: "1.0.0" });
server.registerTool("hello", { description: "Says hello." }, async () => ({
  content: [{ type: "text", text: "hello from the test server" }],
}));
server.registerTool("crash", { description: "Exits the server process in the middle of the call." }, async () => {
  process.stderr.write("crashing on purpose\n");
  process.exit(7);
});
server.registerTool("hostile", { description: "Returns markup and links that must stay inert." }, async () => ({
  content: [
    { type: "text", text: '<img src="x" onerror="window.__pwned = true"><script>window.__pwned = true</script>' },
    { type: "resource_link", uri: "javascript:window.__pwned=true", name: "a javascript link" },
    { type: "resource_link", uri: "https://example.com/doc", name: "an https link" },
    { type: "image", data: "PHN2ZyBvbmxvYWQ9ImFsZXJ0KDEpIi8+", mimeType: "image/svg+xml" },
  ],
}));
await server.connect(new StdioServerTransport());
