import { createRequire } from "node:module";
import { MCP } from "@junction/mcp-client";
import { type BedrockFake, startBedrockFake } from "@junction/wire-fake/bedrock";
import { afterAll, beforeAll } from "vitest";

const require = createRequire(import.meta.url);
const everythingEntry = require.resolve("@modelcontextprotocol/server-everything/dist/index.js");

/**
 * For a test file: the Bedrock runtime fake (HTTP/2, AWS event-stream frames) and
 * @modelcontextprotocol/server-everything connected over stdio, started before the file's tests
 * and closed after them. Read the fields inside a test.
 */
export function useEverythingWithBedrockFake(): { fake: BedrockFake; everything: MCP } {
  const context = {} as { fake: BedrockFake; everything: MCP };
  beforeAll(async () => {
    context.fake = await startBedrockFake();
    context.everything = new MCP({
      transport: "stdio",
      command: process.execPath,
      args: [everythingEntry, "stdio"],
    });
    await context.everything.connect();
  });
  afterAll(async () => {
    await context.everything?.close();
    await context.fake?.close();
  });
  return context;
}
