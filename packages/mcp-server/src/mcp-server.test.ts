import { MCP } from "@junction/mcp-client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type FixtureProbe, fixtureServer, RICH_PARTS } from "../test/fixture-server.js";
import { type RunningHTTPServer, serveHTTP } from "./node.js";

const probe: FixtureProbe = {};
let running: RunningHTTPServer;
beforeAll(async () => {
  running = await serveHTTP(fixtureServer(probe));
});
afterAll(async () => {
  await running.close();
});

describe.each(["2026-07-28", "2025-11-25"] as const)("served over Streamable HTTP, %s", (protocolVersion) => {
  let mcp: MCP;
  beforeAll(async () => {
    mcp = new MCP({ transport: "http", url: running.url, protocolVersion });
    await mcp.connect();
  });
  afterAll(async () => {
    await mcp.close();
  });

  it("negotiates the era and names the server", () => {
    expect(mcp.protocolVersion).toBe(protocolVersion);
    expect(mcp.serverInfo).toMatchObject({ name: "fixture", version: "1.2.3" });
  });

  it("lists the tools with their JSON Schemas, annotations and output schemas", async () => {
    const tools = await mcp.listServerTools();
    expect(tools.map((t) => t.name)).toEqual([
      "add",
      "picture",
      "weather",
      "bad_weather",
      "refuse",
      "explode",
      "count",
      "wait",
    ]);
    const add = tools.find((t) => t.name === "add");
    expect(add).toMatchObject({
      title: "Add",
      description: "Adds two numbers",
      inputSchema: {
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number" } },
        required: ["a", "b"],
      },
      annotations: { title: "Add", readOnlyHint: true, openWorldHint: false },
    });
    expect(tools.find((t) => t.name === "weather")?.outputSchema).toEqual({
      type: "object",
      properties: { city: { type: "string" }, temperatureC: { type: "number" } },
      required: ["city", "temperatureC"],
    });
  });

  it("calls a zod tool with validated input", async () => {
    expect(await mcp.callTool("add", { a: 2, b: 3 })).toEqual({
      content: [{ type: "text", text: "5" }],
      isError: false,
    });
  });

  it("sends text, image, audio, resource and resource_link parts intact", async () => {
    expect(await mcp.callTool("picture")).toEqual({ content: RICH_PARTS, isError: false });
  });

  it("sends structuredContent checked against the outputSchema", async () => {
    expect(await mcp.callTool("weather", { city: "Lyon" })).toEqual({
      content: [{ type: "text", text: "Lyon: 21°C" }],
      isError: false,
      structuredContent: { city: "Lyon", temperatureC: 21 },
    });
    const bad = await mcp.callTool("bad_weather");
    expect(bad.isError).toBe(true);
    expect(bad.content).toEqual([
      {
        type: "text",
        text: "Output validation error: Invalid structured content for tool bad_weather: data/temperatureC must be number",
      },
    ]);
  });

  it("keeps a tool's own isError result", async () => {
    expect(await mcp.callTool("refuse")).toEqual({
      content: [{ type: "text", text: "not today" }],
      isError: true,
    });
  });

  it("turns a throwing tool into an isError result with its message and no stack", async () => {
    const result = await mcp.callTool("explode");
    expect(result).toEqual({
      content: [{ type: "text", text: 'Tool "explode" failed: the fuse was lit' }],
      isError: true,
    });
  });

  it("answers arguments that do not match the schema with an error naming the field", async () => {
    const result = await mcp.callTool("add", { a: 1, b: "two" });
    expect(result).toEqual({
      content: [
        {
          type: "text",
          text: 'Invalid input for tool "add":\n✖ Invalid input: expected number, received string\n  → at b',
        },
      ],
      isError: true,
    });
  });

  it("sends the tool's progress as notifications/progress", async () => {
    const reports: unknown[] = [];
    const result = await mcp.callTool("count", {}, { onProgress: (report) => reports.push(report) });
    expect(result.content).toEqual([{ type: "text", text: "counted" }]);
    expect(reports).toEqual([
      { progress: 1, total: 3, message: "step 1" },
      { progress: 2, total: 3, message: "step 2" },
      { progress: 3, total: 3, message: "step 3" },
    ]);
  });

  it("reads resources and resource templates, and gets and completes prompts", async () => {
    expect(await mcp.readResource("notes://readme")).toMatchObject({
      contents: [{ uri: "notes://readme", mimeType: "text/plain", text: "read me" }],
    });
    expect(await mcp.readResource("notes://42")).toMatchObject({
      contents: [{ uri: "notes://42", mimeType: "text/plain", text: "note 42" }],
    });
    expect((await mcp.listPrompts()).map((p) => [p.name, p.arguments])).toEqual([
      ["greet", [{ name: "name", description: "Who to greet", required: true }]],
    ]);
    expect(await mcp.getPrompt("greet", { name: "Ada" })).toMatchObject({
      messages: [{ role: "user", content: { type: "text", text: "Say hello to Ada." } }],
    });
    const completion = await mcp.complete({
      ref: { type: "ref/prompt", name: "greet" },
      argument: { name: "name", value: "A" },
    });
    expect(completion.values).toEqual(["Ada", "Alan"]);
  });
});

describe("cancellation", () => {
  it.each(["2026-07-28", "2025-11-25"] as const)(
    "aborts the tool's signal when the client cancels (%s)",
    async (protocolVersion) => {
      probe.aborted = undefined;
      const mcp = new MCP({ transport: "http", url: running.url, protocolVersion });
      await mcp.connect();
      const controller = new AbortController();
      const call = mcp.callTool("wait", {}, { signal: controller.signal });
      // Cancelled once the tool runs (a loaded machine can take longer than any fixed delay to get there).
      await vi.waitFor(() => expect(probe.aborted).toBeDefined(), { timeout: 10_000 });
      controller.abort(new Error("user gave up"));
      await expect(call).rejects.toMatchObject({ code: "aborted" });
      expect(probe.aborted).toBeDefined();
      await expect(probe.aborted).resolves.toBeDefined();
      await mcp.close();
    },
  );
});
