// LiveMCPBench's servers served as real MCP servers: one server per LiveMCPBench server, built with
// the official SDK's `McpServer` (@modelcontextprotocol/server), listing its tools with their real
// names, descriptions and input schemas, and its name, title and description as its server info.
// Junction's `MCP` client reaches each over the in-memory transport (`transport: "memory"`): the
// full MCP handshake and `tools/list`, in this process, without 70 child processes.
import type { MCPEntry } from "@junction/core";
import { MCP } from "@junction/mcp-client";
import {
  fromJsonSchema,
  type JsonSchemaType,
  type JsonSchemaValidator,
  type jsonSchemaValidator,
  McpServer,
} from "@modelcontextprotocol/server";
import { type LiveMCPBenchServer, liveMCPBenchPrefix } from "./livemcpbench.ts";

/** The text every served tool answers: the benchmark measures the search, not the tools. */
export const SERVED_TOOL_ANSWER = "ok (LiveMCPBench tool served by the bench: it does nothing)";

/**
 * Accepts every input: the served tools do nothing with it, and some LiveMCPBench schemas are
 * draft-04 (`exclusiveMinimum: true`), which the SDK's default validator refuses to compile. The
 * schemas are still listed exactly as the data has them.
 */
const acceptEveryInput: jsonSchemaValidator = {
  getValidator<T>(): JsonSchemaValidator<T> {
    return (input) => ({ valid: true, data: input as T, errorMessage: undefined });
  },
};

/** One SDK server for one LiveMCPBench server. */
function createServer(server: LiveMCPBenchServer): McpServer {
  const mcpServer = new McpServer({
    name: server.serverName,
    title: server.name,
    version: server.version,
    description: server.description,
  });
  for (const tool of server.tools) {
    mcpServer.registerTool(
      tool.name,
      {
        ...(typeof tool.description === "string" ? { description: tool.description } : {}),
        inputSchema: fromJsonSchema(tool.inputSchema as JsonSchemaType, acceptEveryInput),
      },
      async () => ({ content: [{ type: "text", text: SERVED_TOOL_ANSWER }] }),
    );
  }
  return mcpServer;
}

/**
 * Connects a Junction `MCP` client to a served copy of every server and returns them as an
 * Agent's `mcps` (prefixed `<prefix>_`), with `copy` copies of the whole set (the copies'
 * prefixes end in `-copy<n>`) for a larger pool. Close them with `close()`.
 */
export async function serveLiveMCPBench(
  servers: LiveMCPBenchServer[],
  options: { copies?: number } = {},
): Promise<{ mcps: MCPEntry[]; clients: MCP[]; close: () => Promise<void> }> {
  const copies = options.copies ?? 1;
  const entries: { prefix: string; mcp: MCP }[] = [];
  for (let copy = 0; copy < copies; copy++) {
    for (const server of servers) {
      const prefix = `${liveMCPBenchPrefix(server.serverName)}${copy === 0 ? "" : `-copy${copy}`}`;
      const mcp = new MCP({ transport: "memory", server: createServer(server), name: prefix });
      entries.push({ prefix, mcp });
    }
  }
  await Promise.all(entries.map((entry) => entry.mcp.connect()));
  const clients = entries.map((entry) => entry.mcp);
  return {
    mcps: entries.map((entry) => ({ prefix: entry.prefix, mcp: entry.mcp })),
    clients,
    close: async () => {
      await Promise.all(clients.map((client) => client.close()));
    },
  };
}
