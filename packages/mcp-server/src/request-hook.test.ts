// Pins the one private member of the SDK server Junction reaches (request-hook.ts: the
// `_requestHandlers` map, typescript-sdk#2507): this fails on the day an SDK upgrade moves it,
// instead of served tasks and request telemetry quietly doing nothing.
import { tool } from "@junction/core";
import { MCP } from "@junction/mcp-client";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createMCPServer } from "./index.js";
import { serveHTTP } from "./node.js";
import { sdkRequestHandlers } from "./request-hook.js";

const echo = tool({
  name: "echo",
  description: "Echoes its text.",
  schema: z.object({ text: z.string() }),
  execute: async ({ text }) => text,
});

describe("the SDK server's request handlers", () => {
  it("are found where Junction looks, by method", async () => {
    const server = await createMCPServer({
      name: "pinned",
      version: "1.0.0",
      tools: [echo],
    }).createSDKServer();
    const handlers = sdkRequestHandlers(server);
    expect(handlers, "McpServer.server._requestHandlers").toBeInstanceOf(Map);
    expect([...(handlers?.keys() ?? [])]).toEqual(expect.arrayContaining(["tools/list", "tools/call"]));
  });

  it("run inside aroundRequest, over real HTTP in both eras, once per request", async () => {
    for (const protocolVersion of ["2025-11-25", "2026-07-28"] as const) {
      const seen: string[] = [];
      const running = await serveHTTP(
        createMCPServer({
          name: "pinned",
          version: "1.0.0",
          tools: [echo],
          aroundRequest: async (request, handle) => {
            seen.push(request.method);
            return handle();
          },
        }),
      );
      const mcp = new MCP({ transport: "http", url: running.url, protocolVersion, reconnect: false });
      try {
        await mcp.connect();
        expect((await mcp.callTool("echo", { text: "hi" })).content).toEqual([{ type: "text", text: "hi" }]);
        expect(seen.filter((method) => method === "tools/call")).toHaveLength(1);
      } finally {
        await mcp.close();
        await running.close();
      }
    }
  });
});
