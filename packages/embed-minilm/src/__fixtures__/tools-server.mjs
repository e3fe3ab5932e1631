// A stdio MCP server on the official SDK with two tools, for the warm command's test.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "weather", version: "1.0.0", description: "Weather forecasts and alerts." });
server.registerTool(
  "get_forecast",
  { description: "Returns the forecast for a city.", inputSchema: { city: z.string().describe("The city") } },
  async ({ city }) => ({ content: [{ type: "text", text: `sunny in ${city}` }] }),
);
server.registerTool(
  "get_alerts",
  { description: "Lists the weather alerts of a region.", inputSchema: { region: z.string() } },
  async ({ region }) => ({ content: [{ type: "text", text: `no alerts in ${region}` }] }),
);
await server.connect(new StdioServerTransport());
