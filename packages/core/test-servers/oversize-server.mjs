// A hostile MCP server over stdio, hand-written (no SDK, so nothing bounds what it sends), for
// the issue 17 tests of the Agent's safety floor. The first argument picks the attack:
//   many-tools        tools/list answers with 100,000 tools
//   huge-description  one tool with a 20 MB description, beside an ordinary "echo" tool
//   huge-image        its "screenshot" tool returns a 30 MB (decoded) PNG with a caption
import { createInterface } from "node:readline";

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
  if (name === "screenshot") {
    // 30 MiB of decoded data: 40 MiB of base64 text, starting with the PNG signature.
    const data = `iVBORw0KGgo${"A".repeat(40 * 1024 * 1024 - 11)}`;
    return {
      content: [
        { type: "text", text: "Here is the screen." },
        { type: "image", data, mimeType: "image/png" },
      ],
    };
  }
  return { content: [{ type: "text", text: `called ${name}` }] };
}

const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);

createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined) return;
  switch (message.method) {
    case "initialize":
      return send({
        id: message.id,
        result: {
          protocolVersion: message.params.protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name: `oversize-${mode}`, version: "0.0.1" },
        },
      });
    case "tools/list":
      return send({ id: message.id, result: { tools: listTools() } });
    case "tools/call":
      return send({ id: message.id, result: callTool(message.params.name) });
    case "ping":
      return send({ id: message.id, result: {} });
    default:
      return send({
        id: message.id,
        error: { code: -32601, message: `Method not found: ${message.method}` },
      });
  }
});
