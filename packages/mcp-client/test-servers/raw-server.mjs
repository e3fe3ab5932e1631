// A hand-written JSON-RPC server over stdio (no SDK, so nothing validates what it sends): its
// tools/call answers with whatever RAW_TOOL_RESULT holds, however malformed.
import { createInterface } from "node:readline";

const result = JSON.parse(process.env.RAW_TOOL_RESULT ?? '{"content":[]}');
const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);

createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined) return;
  switch (message.method) {
    case "initialize":
      return send({
        id: message.id,
        result: {
          protocolVersion: message.params.protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name: "raw-server", version: "0.0.1" },
        },
      });
    case "tools/list":
      return send({
        id: message.id,
        result: { tools: [{ name: "anything", inputSchema: { type: "object" } }] },
      });
    case "tools/call":
      return send({ id: message.id, result });
    case "ping":
      return send({ id: message.id, result: {} });
    case "resources/read":
      return send({
        id: message.id,
        error: { code: -32602, message: "Resource not found", data: { uri: message.params.uri } },
      });
    default:
      return send({
        id: message.id,
        error: { code: -32601, message: `Method not found: ${message.method}` },
      });
  }
});
