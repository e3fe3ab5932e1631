// A destructive MCP server for the playground's run-state tests, on raw JSON-RPC over stdio:
// `delete_note` is annotated destructive (so the playground asks before it runs) and appends one
// line per call to the file named by `--log <path>`, so a test counts how often it really ran,
// across restarts of the playground and of this server.
import { appendFileSync } from "node:fs";
import { serveRawStdio } from "./raw-stdio-server.mjs";

const logIndex = process.argv.indexOf("--log");
const log = logIndex === -1 ? undefined : process.argv[logIndex + 1];
if (!log) throw new Error("counting-server needs --log <path>");

await serveRawStdio({
  serverInfo: { name: "counting-test-server", version: "1.0.0" },
  capabilities: { tools: {} },
  tools: [
    {
      name: "delete_note",
      description: "Deletes a note for good.",
      inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
      annotations: { destructiveHint: true, readOnlyHint: false, openWorldHint: false },
    },
  ],
  call: async (name, args) => {
    if (name !== "delete_note") return { content: [{ type: "text", text: `no tool ${name}` }], isError: true };
    appendFileSync(log, `${JSON.stringify(args)}\n`);
    return { content: [{ type: "text", text: `deleted ${args.name}` }] };
  },
});
