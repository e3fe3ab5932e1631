import { describe, expect, it } from "vitest";
import { describeEverything } from "../test/everything-suite.js";
import { everythingEntry } from "../test/test-support.js";
import { MCP } from "./mcp.js";

describeEverything("stdio", async () => ({
  transport: "stdio",
  command: process.execPath,
  args: [everythingEntry, "stdio"],
}));

describe("an unsubscribe left pending by close()", () => {
  it("settles quietly: close() resolves it instead of leaving a rejection nobody handles", async () => {
    const mcp = new MCP({ transport: "stdio", command: process.execPath, args: [everythingEntry, "stdio"] });
    await mcp.connect();
    const unsubscribe = await mcp.subscribe("demo://resource/dynamic/text/1", () => undefined);
    // Not awaited, as a caller that forgets the promise does; before, this rejected with
    // mcp-connection-closed and crashed Node as an unhandled rejection.
    const pending = unsubscribe();
    await mcp.close();
    await expect(pending).resolves.toBeUndefined();
    // A second call after close() is a no-op too.
    await expect(unsubscribe()).resolves.toBeUndefined();
  });
});
