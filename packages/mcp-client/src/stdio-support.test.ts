import { JunctionError } from "@junction/types";
import { describe, expect, it, vi } from "vitest";
import { everythingEntry } from "../test/test-support.js";
import type { MCPStdioConfig } from "./mcp-config.js";
import { describeRuntime } from "./stdio-support.js";

const stdioConfig: MCPStdioConfig = {
  transport: "stdio",
  name: "everything",
  command: process.execPath,
  args: [everythingEntry, "stdio"],
};

/** The package's modules loaded afresh, as a program that imports only `entry` gets them. */
async function freshEntry(entry: "./index.js" | "./node.js"): Promise<typeof import("./index.js")> {
  vi.resetModules();
  return entry === "./index.js" ? import("./index.js") : import("./node.js");
}

describe("the default entry (browsers, Workers)", () => {
  it("rejects a stdio connect with mcp-transport-unsupported, naming the runtime and what to do", async () => {
    const { MCP } = await freshEntry("./index.js");
    const mcp = new MCP(stdioConfig);
    const error = await mcp.connect().then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(JunctionError.isInstance(error)).toBe(true);
    expect((error as JunctionError).code).toBe("mcp-transport-unsupported");
    expect((error as JunctionError).message).toBe(
      `MCP server "everything" uses the stdio transport, which starts a process, and this runtime (Node.js ${process.versions.node}) cannot: ` +
        `this is @junction/mcp-client's default entry (for browsers and Workers), which has no stdio. ` +
        `Connect to the server over Streamable HTTP instead ({ transport: "http", url }), or run this code in ` +
        `Node.js, Bun or Deno, where the package's "node" export condition loads the entry with stdio ` +
        `(a bundler targeting Node.js must keep that condition, as esbuild's platform "node" does).`,
    );
    expect(mcp.connected).toBe(false);
  });

  it("lets connectAll report a stdio entry of a loaded config as failed, and connect the rest", async () => {
    const { connectAll, loadMCPConfig, MCP } = await freshEntry("./index.js");
    const { Server } = await import("@modelcontextprotocol/server");
    const configs = loadMCPConfig(
      { mcpServers: { local: { command: "npx", args: ["-y", "some-server"] } } },
      {},
    );
    const memory = new Server({ name: "memory", version: "1.0.0" }, { capabilities: { tools: {} } });
    const { connected, failed } = await connectAll({
      ...configs,
      inMemory: { transport: "memory", server: memory },
    });
    expect(connected.map((mcp) => mcp.name)).toEqual(["inMemory"]);
    expect(failed.map(({ name, error }) => [name, (error as JunctionError).code])).toEqual([
      ["local", "mcp-transport-unsupported"],
    ]);
    expect(connected[0]).toBeInstanceOf(MCP);
    await Promise.all(connected.map((mcp) => mcp.close()));
  });
});

describe("the node entry (Node.js, Bun, Deno)", () => {
  it("starts a stdio server: the same import, with the stdio transport", async () => {
    const { MCP } = await freshEntry("./node.js");
    const mcp = new MCP(stdioConfig);
    try {
      await mcp.connect();
      const result = await mcp.callTool("echo", { message: "from the node entry" });
      expect(result.content).toEqual([{ type: "text", text: "Echo: from the node entry" }]);
    } finally {
      await mcp.close();
    }
  });
});

describe("describeRuntime", () => {
  it("names each runtime from its globals", () => {
    expect(
      describeRuntime({ Deno: { version: { deno: "2.9.6" } }, process: { versions: { node: "24.0.0" } } }),
    ).toBe("this runtime (Deno 2.9.6)");
    expect(describeRuntime({ Bun: { version: "1.4.4" }, process: { versions: { node: "24.3.0" } } })).toBe(
      "this runtime (Bun 1.4.4)",
    );
    expect(describeRuntime({ navigator: { userAgent: "Cloudflare-Workers" } })).toBe(
      "this runtime (Cloudflare Workers)",
    );
    expect(describeRuntime({ navigator: { userAgent: "Mozilla/5.0" }, document: {} })).toBe(
      "this runtime (a browser page)",
    );
    expect(describeRuntime({ WorkerGlobalScope: class {} })).toBe("this runtime (a web worker)");
    expect(describeRuntime({})).toBe("this runtime");
  });
});
