import { mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serverEntry } from "../test/test-support.js";
import { connectAll } from "./connect-all.js";
import { MCP } from "./mcp.js";

const PNG_1x1 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

describe("server-filesystem over stdio (on a temp dir)", () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "junction-fs-")));
  let mcp: MCP;
  beforeAll(async () => {
    writeFileSync(join(root, "notes.txt"), "first line\nsecond line\n");
    writeFileSync(join(root, "dot.png"), Buffer.from(PNG_1x1, "base64"));
    mcp = new MCP({
      transport: "stdio",
      command: process.execPath,
      args: [serverEntry("@modelcontextprotocol/server-filesystem"), root],
    });
    await mcp.connect();
  });
  afterAll(() => mcp.close());

  it("reads, writes and lists files through its tools", async () => {
    const read = await mcp.callTool("read_text_file", { path: join(root, "notes.txt") });
    expect(read).toEqual({
      content: [{ type: "text", text: "first line\nsecond line\n" }],
      isError: false,
      structuredContent: { content: "first line\nsecond line\n" },
    });
    const write = await mcp.callTool("write_file", {
      path: join(root, "out.md"),
      content: "# written by junction",
    });
    expect(write.isError).toBe(false);
    expect(readFileSync(join(root, "out.md"), "utf8")).toBe("# written by junction");
    const listing = await mcp.callTool("list_directory", { path: root });
    expect(listing.content[0]).toEqual({
      type: "text",
      text: "[FILE] dot.png\n[FILE] notes.txt\n[FILE] out.md",
    });
  });

  it("returns an image file as an image part", async () => {
    const media = await mcp.callTool("read_media_file", { path: join(root, "dot.png") });
    expect(media.isError).toBe(false);
    expect(media.content).toEqual([{ type: "image", data: PNG_1x1, mimeType: "image/png" }]);
  });

  it("answers a path outside the allowed directory with an error result", async () => {
    const denied = await mcp.callTool("read_text_file", { path: "/etc/hostname" });
    expect(denied.isError).toBe(true);
    expect(denied.content[0]).toMatchObject({ type: "text", text: expect.stringContaining("Access denied") });
  });
});

describe("server-memory over stdio", () => {
  it("stores and reads back a knowledge graph, with structured content", async () => {
    const dir = mkdtempSync(join(tmpdir(), "junction-memory-"));
    const mcp = new MCP({
      transport: "stdio",
      command: process.execPath,
      args: [serverEntry("@modelcontextprotocol/server-memory")],
      env: { MEMORY_FILE_PATH: join(dir, "memory.jsonl") },
    });
    try {
      await mcp.connect();
      expect(mcp.name).toBe("memory-server");
      const entity = { name: "Ada", entityType: "person", observations: ["wrote the first program"] };
      const created = await mcp.callTool("create_entities", { entities: [entity] });
      expect(created.structuredContent).toEqual({ entities: [entity] });
      const graph = await mcp.callTool("read_graph");
      expect(graph.isError).toBe(false);
      expect(graph.structuredContent).toEqual({ entities: [entity], relations: [] });
    } finally {
      await mcp.close();
    }
  });
});

describe("connectAll", () => {
  it("connects in parallel and never lets a broken server stop the others", async () => {
    const { connected, failed } = await connectAll({
      memory: {
        transport: "stdio",
        command: process.execPath,
        args: [serverEntry("@modelcontextprotocol/server-memory")],
      },
      broken: { transport: "stdio", command: "junction-no-such-server" },
      unreachable: { transport: "http", url: "http://127.0.0.1:9/mcp", connectTimeoutMs: 5000 },
    });
    try {
      expect(connected.map((mcp) => mcp.name)).toEqual(["memory"]);
      expect(connected[0]?.connected).toBe(true);
      expect(failed.map((entry) => entry.name)).toEqual(["broken", "unreachable"]);
      expect(failed[0]?.error.message).toMatch(
        /^MCP server "broken" failed to start \(command: junction-no-such-server\)/,
      );
      expect(failed[1]?.error.message).toMatch(
        /^could not connect to MCP server "unreachable" at http:\/\/127\.0\.0\.1:9\/mcp/,
      );
    } finally {
      await Promise.all(connected.map((mcp) => mcp.close()));
    }
  });
});
