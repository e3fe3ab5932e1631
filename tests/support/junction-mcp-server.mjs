// A server built with @junction/mcp-server's public API, for real MCP clients to talk to: over
// stdio when spawned (`node junction-mcp-server.mjs`), or imported for `serveHTTP`.
import { tool } from "@junction/core";
import { createMCPServer } from "@junction/mcp-server";
import { z } from "zod";

/** Two tools: `add` (a zod schema, read-only hint) and `shout` (structured content with an output schema). */
export function notesServer() {
  return createMCPServer({
    name: "junction-notes",
    version: "1.2.3",
    instructions: "Arithmetic and shouting.",
    tools: [
      tool({
        name: "add",
        description: "Adds two numbers",
        schema: z.object({ a: z.number(), b: z.number() }),
        annotations: { readOnlyHint: true, openWorldHint: false },
        execute: async ({ a, b }) => String(a + b),
      }),
      tool({
        name: "shout",
        description: "Upper-cases a text",
        schema: z.object({ text: z.string() }),
        outputSchema: { type: "object", properties: { loud: { type: "string" } }, required: ["loud"] },
        execute: async ({ text }) => ({
          content: [{ type: "text", text: text.toUpperCase() }],
          structuredContent: { loud: text.toUpperCase() },
        }),
      }),
    ],
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { serveStdio } = await import("@junction/mcp-server/stdio");
  serveStdio(notesServer());
}
