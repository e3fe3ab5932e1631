// A real MCP server over stdio for the code-mode tests: an issue tracker whose tools count every
// call they get, in a file (argv[2]), so a test can tell what reached the server across processes.
import { appendFileSync } from "node:fs";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const log = process.argv[2];
const record = (line) => appendFileSync(log, `${line}\n`);
const server = new McpServer({ name: "tracker", version: "1.0.0" });
const issue = (n) => ({ number: n, title: `Issue ${n}`, body: `A long body of issue ${n}. `.repeat(40), stale: n % 2 === 0 });

server.registerTool(
  "list_issues",
  {
    description: "Lists the tracker's issues",
    inputSchema: { limit: z.number().int().optional() },
    outputSchema: { issues: z.array(z.object({ number: z.number(), title: z.string(), body: z.string(), stale: z.boolean() })) },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  async ({ limit }) => {
    record("list_issues");
    const issues = Array.from({ length: limit ?? 10 }, (_, index) => issue(index + 1));
    return { content: [{ type: "text", text: JSON.stringify({ issues }) }], structuredContent: { issues } };
  },
);
server.registerTool(
  "get_issue",
  {
    description: "Reads one issue",
    inputSchema: { number: z.number().int() },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  async ({ number }) => {
    record(`get_issue ${number}`);
    return { content: [{ type: "text", text: JSON.stringify(issue(number)) }] };
  },
);
server.registerTool(
  "label_issue",
  {
    description: "Adds a label to an issue",
    inputSchema: { number: z.number().int(), label: z.string() },
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  },
  async ({ number, label }) => {
    record(`label_issue ${number} ${label}`);
    return { content: [{ type: "text", text: `labelled ${number} ${label}` }] };
  },
);
server.registerTool(
  "close_issue",
  {
    description: "Closes an issue",
    inputSchema: { number: z.number().int() },
    annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
  },
  async ({ number }) => {
    record(`close_issue ${number}`);
    return { content: [{ type: "text", text: `closed ${number}` }] };
  },
);
await server.connect(new StdioServerTransport());
