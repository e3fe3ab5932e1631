// A small MCP server for the playground's tests: `crash` kills the process mid-call, `hello`
// answers, `hostile` sends markup and links that must stay inert, `rich` and `fails` check rendering.
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
// A 1-sample WAV file, base64.
const wav = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQIAAAAAAA==";
server.registerTool("rich", { description: "Returns audio, an embedded resource and structured content." }, async () => ({
  content: [
    { type: "audio", data: wav, mimeType: "audio/wav" },
    { type: "resource", resource: { uri: "test://notes/1", mimeType: "text/plain", text: "embedded notes" } },
  ],
  structuredContent: { answer: 42, items: ["a", "b"] },
}));
server.registerTool("fails", { description: "Always reports an error." }, async () => ({
  content: [{ type: "text", text: "the disk is on fire" }],
  isError: true,
}));
await server.connect(new StdioServerTransport());
