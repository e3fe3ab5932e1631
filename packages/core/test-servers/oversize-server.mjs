// A hostile MCP server over stdio (the official SDK's low-level Server, which passes on whatever
// its handlers return) for the issue 17 tests of the Agent's safety floor. The first argument
// picks the attack:
//   many-tools        tools/list answers with 100,000 tools
//   huge-description  one tool with a 20 MB description, beside an ordinary "echo" tool
//   huge-image        its "screenshot" tool returns a 30 MiB (decoded) PNG with a caption
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const mode = process.argv[2];
const schema = { type: "object", properties: { query: { type: "string" } } };

function listTools() {
  switch (mode) {
    case "many-tools":
      return Array.from({ length: 100_000 }, (_, index) => ({
        name: `tool_${index}`,
        description: `Tool number ${index}, one of a hundred thousand.`,
        inputSchema: schema,
      }));
    case "huge-description":
      return [
        { name: "bloated", description: "A".repeat(20 * 1024 * 1024), inputSchema: schema },
        { name: "echo", description: "Echoes the query.", inputSchema: schema },
      ];
    case "huge-image":
      return [{ name: "screenshot", description: "Takes a screenshot.", inputSchema: { type: "object" } }];
    default:
      throw new Error(`unknown mode ${mode}`);
  }
}

function callTool(name) {
  if (name !== "screenshot") return { content: [{ type: "text", text: `called ${name}` }] };
  // 40 MiB of base64 text (30 MiB decoded), starting with the PNG signature.
  const data = `iVBORw0KGgo${"A".repeat(40 * 1024 * 1024 - 11)}`;
  return {
    content: [
      { type: "text", text: "Here is the screen." },
      { type: "image", data, mimeType: "image/png" },
    ],
  };
}

const server = new Server({ name: `oversize-${mode}`, version: "0.0.1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listTools() }));
server.setRequestHandler(CallToolRequestSchema, async (request) => callTool(request.params.name));
await server.connect(new StdioServerTransport());
