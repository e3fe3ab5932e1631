import { afterEach, describe, expect, it } from "vitest";
import { testServer } from "../test/test-support.js";
import { MCP } from "./mcp.js";

// A tool call's idempotency key reaches the server in `_meta`, over a real stdio connection.

const open: MCP[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((mcp) => mcp.close()));
});

async function metaServer(): Promise<MCP> {
  const mcp = new MCP({
    transport: "stdio",
    command: process.execPath,
    args: [testServer("meta-server.mjs")],
  });
  open.push(mcp);
  await mcp.connect();
  return mcp;
}

/** The `_meta` the server saw, without the SDK's progress token. */
function metaSeen(result: { content: { type: string }[] }): Record<string, unknown> {
  const { progressToken: _progressToken, ...meta } = JSON.parse(
    (result.content[0] as unknown as { text: string }).text,
  );
  return meta;
}

describe("the idempotency key in _meta", () => {
  it("sends a proxy tool's context.idempotencyKey as _meta['dev.junction/idempotency-key']", async () => {
    const [tool] = await (await metaServer()).listTools();
    const output = await tool!.execute({}, { idempotencyKey: "run-7:tool:2:call_1" });
    expect(metaSeen(output as { content: { type: string }[] })).toEqual({
      "dev.junction/idempotency-key": "run-7:tool:2:call_1",
    });
  });

  it("sends callTool's idempotencyKey option, and no key when none is given", async () => {
    const mcp = await metaServer();
    expect(metaSeen(await mcp.callTool("echo_meta", {}, { idempotencyKey: "k-1" }))).toEqual({
      "dev.junction/idempotency-key": "k-1",
    });
    expect(metaSeen(await mcp.callTool("echo_meta", {}))).toEqual({});
    const [tool] = await mcp.listTools();
    expect(metaSeen((await tool!.execute({}, {})) as { content: { type: string }[] })).toEqual({});
  });
});
