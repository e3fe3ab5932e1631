// Runs inside the consumer project that the packed-install test creates: only the installed
// tarballs and their registry dependencies are reachable from here, no workspace links.
import { Agent } from "@junction/core";
import { MCP } from "@junction/mcp-client";
import { anthropic } from "@junction/provider-anthropic";
import { chatCompletions } from "@junction/provider-chatcompletions";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";

const server = new McpServer({ name: "calculator", version: "1.0.0" });
server.registerTool(
  "add",
  { description: "Adds two numbers.", inputSchema: { a: z.number(), b: z.number() } },
  async ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }),
);
const calculator = new MCP({ transport: "memory", server });
await calculator.connect();

const agent = new Agent({
  provider: chatCompletions({ baseURL: `${process.env.FAKE_URL}/v1`, apiKey: "test" }),
  model: "fake-model",
  mcps: [calculator],
});
const result = await agent.send("What is 2 + 3?").final;
await calculator.close();

// One Anthropic turn: the provider's bundled SDK, with no @anthropic-ai/sdk installed.
let answer = "";
const claude = anthropic({ apiKey: "test", baseURL: process.env.ANTHROPIC_FAKE_URL, maxRetries: 0 });
for await (const event of claude.stream({
  model: "claude-sonnet-4-6",
  messages: [{ role: "user", content: "What is the image?" }],
}))
  if (event.type === "text-delta") answer += event.text;

process.stdout.write(
  JSON.stringify({ chatCompletions: { text: result.text, steps: result.steps.length }, anthropic: answer }),
);
