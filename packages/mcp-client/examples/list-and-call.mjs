// Connect to a real MCP server from npm, list its tools, call one, and look at the
// image it returns.
//
//   pnpm example        (from the repository root: builds what it needs, then runs this)
//
// The server is @modelcontextprotocol/server-everything, installed as a dependency and
// started over stdio from node_modules: nothing is downloaded at run time.

import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { MCP } from "@junction/mcp-client";

const require = createRequire(import.meta.url);
const serverPackage = require.resolve("@modelcontextprotocol/server-everything/package.json");
const serverEntry = join(dirname(serverPackage), require(serverPackage).bin["mcp-server-everything"]);

const everything = new MCP({
  transport: "stdio",
  command: process.execPath, // the node running this example
  args: [serverEntry, "stdio"],
});

try {
  await everything.connect();
  console.log(`connected to ${everything.serverInfo.name} ${everything.serverInfo.version}`);

  const tools = await everything.listTools();
  console.log(`${tools.length} tools: ${tools.map((tool) => tool.name).join(", ")}`);

  const tinyImage = tools.find((tool) => tool.name === "get-tiny-image");
  if (tinyImage === undefined) throw new Error("server-everything has no get-tiny-image tool");
  const result = await tinyImage.execute({});

  console.log(
    `get-tiny-image returned ${result.content.length} content blocks${result.isError ? " (a tool error)" : ""}:`,
  );
  for (const part of result.content) {
    switch (part.type) {
      case "image":
      case "audio":
        console.log(`- ${part.type}: ${part.mimeType}, ${Buffer.from(part.data, "base64").length} bytes`);
        break;
      case "text":
        console.log(`- text: ${JSON.stringify(part.text)}`);
        break;
      default:
        console.log(`- ${part.type}`);
    }
  }
} finally {
  await everything.close();
}
