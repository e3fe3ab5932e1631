// A small ledger MCP server for the playground's code-mode tests, on raw JSON-RPC over stdio: four
// read-only tools (they run unasked) and `post_entry`, which is not read-only (so the playground
// asks before it runs, also from a program) and appends one line per call to the file named by
// `--log <path>`, so a test counts how often it really ran.
import { appendFileSync } from "node:fs";
import { serveRawStdio } from "./raw-stdio-server.mjs";

const logIndex = process.argv.indexOf("--log");
const log = logIndex === -1 ? undefined : process.argv[logIndex + 1];
if (!log) throw new Error("ledger-server needs --log <path>");

const account = { type: "object", properties: { account: { type: "string" } }, required: ["account"] };
const read = { readOnlyHint: true, openWorldHint: false };
const balances = { a: 10, b: 32 };

await serveRawStdio({
  serverInfo: { name: "ledger-test-server", version: "1.0.0" },
  capabilities: { tools: {} },
  tools: [
    { name: "list_accounts", description: "Lists the accounts.", inputSchema: { type: "object" }, annotations: read },
    { name: "read_balance", description: "An account's balance.", inputSchema: account, annotations: read },
    { name: "read_owner", description: "An account's owner.", inputSchema: account, annotations: read },
    {
      name: "export_ledger",
      description: "The whole ledger, 300 KB of it.",
      inputSchema: { type: "object" },
      annotations: read,
    },
    {
      name: "post_entry",
      description: "Posts an entry to an account.",
      inputSchema: {
        type: "object",
        properties: { account: { type: "string" }, amount: { type: "number" } },
        required: ["account", "amount"],
      },
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
  ],
  call: async (name, args) => {
    const text = (value) => ({ content: [{ type: "text", text: String(value) }] });
    switch (name) {
      case "list_accounts":
        return text(Object.keys(balances).join(","));
      case "read_balance":
        return text(balances[args.account] ?? 0);
      case "read_owner":
        return text(`owner of ${args.account}`);
      case "export_ledger":
        return text("entry;".repeat(50_000));
      case "post_entry":
        appendFileSync(log, `${JSON.stringify(args)}\n`);
        return text(`posted ${args.amount} to ${args.account}`);
      default:
        return { content: [{ type: "text", text: `no tool ${name}` }], isError: true };
    }
  },
});
