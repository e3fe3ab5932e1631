import { createRequire } from "node:module";
import { MCP } from "@junction/mcp-client";
import { afterAll, beforeAll } from "vitest";

const require = createRequire(import.meta.url);
const everythingEntry = require.resolve("@modelcontextprotocol/server-everything/dist/index.js");

/**
 * For a test file: a vendor wire fake (`startWireFake`, or the Bedrock fake's `startBedrockFake`)
 * and @modelcontextprotocol/server-everything connected over stdio,
 * started before the file's tests and closed after them. Read the fields inside a test.
 */
export function useEverythingWithWireFake<Fake extends { close(): Promise<void> }>(
  startFake: () => Promise<Fake>,
): { fake: Fake; everything: MCP } {
  const context = {} as { fake: Fake; everything: MCP };
  beforeAll(async () => {
    context.fake = await startFake();
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
