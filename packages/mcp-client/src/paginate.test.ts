import { JunctionError } from "@junction/types";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { MCP } from "./mcp.js";
import { mergeCacheHints } from "./paginate.js";

const open: MCP[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((mcp) => mcp.close()));
});

/** A real SDK server whose resources/list and resources/templates/list pages the test writes. */
function resourceServer(pages: {
  resources: (cursor: string | undefined) => unknown;
  templates: (cursor: string | undefined) => unknown;
}): { server: Server; cursors: (string | undefined)[] } {
  const cursors: (string | undefined)[] = [];
  const server = new Server({ name: "pages", version: "1.0.0" }, { capabilities: { resources: {} } });
  server.setRequestHandler(ListResourcesRequestSchema, async (request) => {
    cursors.push(request.params?.cursor);
    return pages.resources(request.params?.cursor) as never;
  });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async (request) => {
    cursors.push(request.params?.cursor);
    return pages.templates(request.params?.cursor) as never;
  });
  return { server, cursors };
}

async function connect(server: Server): Promise<MCP> {
  const mcp = new MCP({ transport: "memory", server, name: "pages" });
  open.push(mcp);
  await mcp.connect();
  return mcp;
}

describe("every paginated list goes through one listAll", () => {
  it("follows resources/list and resources/templates/list cursors to the end, in order", async () => {
    const { server, cursors } = resourceServer({
      resources: (cursor) =>
        cursor === undefined
          ? { resources: [{ uri: "file:///a", name: "a" }], nextCursor: "r2" }
          : { resources: [{ uri: "file:///b", name: "b" }] },
      templates: (cursor) =>
        cursor === undefined
          ? { resourceTemplates: [{ uriTemplate: "file:///{x}", name: "x" }], nextCursor: "t2" }
          : { resourceTemplates: [{ uriTemplate: "file:///{y}", name: "y" }], nextCursor: "" },
    });
    const mcp = await connect(server);
    expect(await mcp.listResources()).toEqual([
      { uri: "file:///a", name: "a" },
      { uri: "file:///b", name: "b" },
    ]);
    expect(await mcp.listResourceTemplates()).toEqual([
      { uriTemplate: "file:///{x}", name: "x" },
      { uriTemplate: "file:///{y}", name: "y" },
    ]);
    expect(cursors).toEqual([undefined, "r2", undefined, "t2"]);
  });

  it("checks each page against its list's schema and names the list in the error", async () => {
    const { server } = resourceServer({
      resources: (cursor) =>
        cursor === undefined
          ? { resources: [{ uri: "file:///a", name: "a" }], nextCursor: "r2" }
          : { resources: [{ name: "no uri" }] },
      templates: () => ({ resourceTemplates: [] }),
    });
    const mcp = await connect(server);
    let error: unknown;
    try {
      await mcp.listResources();
    } catch (caught) {
      error = caught;
    }
    if (!JunctionError.isInstance(error))
      throw new TypeError(`expected a JunctionError, got ${String(error)}`);
    expect(error.code).toBe("mcp-invalid-response");
    expect(error.message).toMatch(/^MCP server "pages" sent an invalid resources\/list result: /);
    expect(error.message).toContain("uri");
  });
});

describe("a list's caching hints (MCP 2026-07-28)", () => {
  it("take the shortest ttlMs of the pages and private over public", () => {
    const hints = {};
    mergeCacheHints(hints, { ttlMs: 5000, cacheScope: "public" });
    expect(hints).toEqual({ ttlMs: 5000, cacheScope: "public" });
    mergeCacheHints(hints, { ttlMs: 800, cacheScope: "private" });
    mergeCacheHints(hints, { ttlMs: 9000, cacheScope: "public" });
    expect(hints).toEqual({ ttlMs: 800, cacheScope: "private" });
  });

  it("count a negative or non-finite ttlMs as 0 and ignore what is not a hint", () => {
    const negative = {};
    mergeCacheHints(negative, { ttlMs: -5 });
    expect(negative).toEqual({ ttlMs: 0 });
    const infinite = {};
    mergeCacheHints(infinite, { ttlMs: Number.POSITIVE_INFINITY, cacheScope: "shared" });
    expect(infinite).toEqual({ ttlMs: 0 });
    const none = {};
    mergeCacheHints(none, { ttlMs: "60000", tools: [] });
    expect(none).toEqual({});
  });
});
