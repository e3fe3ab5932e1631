import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { MCP } from "@junction/mcp-client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type FixtureProbe, fixtureServer } from "../test/fixture-server.js";
import { gateway } from "./mcp-server.js";
import { type RunningHTTPServer, serveHTTP } from "./node.js";

const require = createRequire(import.meta.url);
const everythingEntry = join(
  dirname(require.resolve("@modelcontextprotocol/server-everything/package.json")),
  "dist/index.js",
);

const probe: FixtureProbe = {};
let everything: MCP;
let local: RunningHTTPServer;
let localClient: MCP;
let front: RunningHTTPServer;
beforeAll(async () => {
  everything = new MCP({ transport: "stdio", command: process.execPath, args: [everythingEntry, "stdio"] });
  await everything.connect();
  local = await serveHTTP(fixtureServer(probe));
  localClient = new MCP({ transport: "http", url: local.url });
  await localClient.connect();
  front = await serveHTTP(
    gateway({
      mcps: [
        { mcp: everything, prefix: "ev" },
        { mcp: localClient, prefix: "fx" },
      ],
    }),
  );
});
afterAll(async () => {
  await front?.close();
  await localClient?.close();
  await local?.close();
  await everything?.close();
});

describe.each(["2026-07-28", "2025-11-25"] as const)(
  "a gateway in front of server-everything, %s",
  (protocolVersion) => {
    let mcp: MCP;
    beforeAll(async () => {
      mcp = new MCP({ transport: "http", url: front.url, protocolVersion });
      await mcp.connect();
    });
    afterAll(async () => {
      await mcp.close();
    });

    it("re-serves every upstream tool under its prefix, annotations and schemas kept", async () => {
      const upstream = await everything.listServerTools();
      const tools = await mcp.listServerTools();
      const served = tools.filter((t) => t.name.startsWith("ev_"));
      expect(served.map((t) => t.name)).toEqual(upstream.map((t) => `ev_${t.name}`));
      const echo = tools.find((t) => t.name === "ev_echo");
      const upstreamEcho = upstream.find((t) => t.name === "echo");
      expect(echo?.annotations).toEqual(upstreamEcho?.annotations);
      expect(echo?.inputSchema).toEqual(upstreamEcho?.inputSchema);
      expect(tools.find((t) => t.name === "ev_get-structured-content")?.outputSchema).toEqual(
        upstream.find((t) => t.name === "get-structured-content")?.outputSchema,
      );
      expect(tools.find((t) => t.name === "fx_add")?.annotations).toEqual({
        title: "Add",
        readOnlyHint: true,
        openWorldHint: false,
      });
    });

    it("passes results through as the upstream server sent them", async () => {
      for (const [name, args] of [
        ["echo", { message: "through the gateway" }],
        ["get-tiny-image", {}],
        ["get-resource-links", { count: 2 }],
        ["get-structured-content", { location: "Chicago" }],
      ] as const) {
        expect(await mcp.callTool(`ev_${name}`, args)).toEqual(await everything.callTool(name, args));
      }
      expect(await mcp.callTool("fx_refuse")).toEqual({
        content: [{ type: "text", text: "not today" }],
        isError: true,
      });
    });

    it("forwards progress from the upstream call", async () => {
      const reports: unknown[] = [];
      await mcp.callTool("fx_count", {}, { onProgress: (report) => reports.push(report) });
      expect(reports).toEqual([
        { progress: 1, total: 3, message: "step 1" },
        { progress: 2, total: 3, message: "step 2" },
        { progress: 3, total: 3, message: "step 3" },
      ]);
    });

    it("cancels the upstream call when the caller cancels", async () => {
      probe.aborted = undefined;
      const controller = new AbortController();
      const call = mcp.callTool("fx_wait", {}, { signal: controller.signal });
      // Cancelled once the upstream tool runs (a loaded machine can take longer than any fixed delay).
      await vi.waitFor(() => expect(probe.aborted).toBeDefined(), { timeout: 10_000 });
      controller.abort();
      await expect(call).rejects.toMatchObject({ code: "aborted" });
      // The upstream server's tool saw its own signal abort.
      await expect(probe.aborted).resolves.toBeDefined();
    });
  },
);
