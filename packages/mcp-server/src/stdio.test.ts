import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { MCP } from "@junction/mcp-client";
import { afterEach, describe, expect, it } from "vitest";

const serverScript = join(dirname(fileURLToPath(import.meta.url)), "../test-servers/stdio-server.mjs");
const open: MCP[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((mcp) => mcp.close()));
});

describe.each(["2026-07-28", "2025-11-25"] as const)("served over stdio (spawned), %s", (protocolVersion) => {
  it("lists and calls tools, with rich parts, progress and schema errors", async () => {
    const mcp = new MCP({
      transport: "stdio",
      command: process.execPath,
      args: [serverScript],
      protocolVersion,
    });
    open.push(mcp);
    await mcp.connect();
    expect(mcp.protocolVersion).toBe(protocolVersion);
    expect(mcp.serverInfo).toMatchObject({ name: "stdio-fixture", version: "1.0.0" });
    expect((await mcp.listServerTools()).map((t) => t.name)).toEqual(["add", "picture", "count"]);
    expect(await mcp.callTool("add", { a: 20, b: 22 })).toEqual({
      content: [{ type: "text", text: "42" }],
      isError: false,
    });
    expect(await mcp.callTool("picture")).toEqual({
      content: [
        {
          type: "image",
          data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==",
          mimeType: "image/png",
        },
        { type: "resource_link", uri: "notes://2", name: "second note" },
      ],
      isError: false,
    });
    const invalid = await mcp.callTool("add", { a: 1 });
    expect(invalid.isError).toBe(true);
    expect(invalid.content).toEqual([
      {
        type: "text",
        text: 'Invalid input for tool "add":\n✖ Invalid input: expected number, received undefined\n  → at b',
      },
    ]);
    const reports: unknown[] = [];
    await mcp.callTool("count", {}, { onProgress: (report) => reports.push(report) });
    expect(reports).toEqual([
      { progress: 1, total: 2 },
      { progress: 2, total: 2 },
    ]);
  });
});

const agentScript = join(dirname(fileURLToPath(import.meta.url)), "../test-servers/agent-stdio-server.mjs");

describe.each([
  ["2026-07-28", "as a task", ["tasks"]],
  ["2026-07-28", "with input_required", []],
  ["2025-11-25", "as a task (the approval asked during tasks/result)", ["tasks"]],
  ["2025-11-25", "with an elicitation within the call", []],
] as const)("a served agent over stdio (spawned), %s, %s", (protocolVersion, _how, args) => {
  it("asks its approval through the client and answers once accepted", async () => {
    const asked: string[] = [];
    const messages: string[] = [];
    const mcp = new MCP({
      transport: "stdio",
      command: process.execPath,
      args: [agentScript, ...args],
      protocolVersion,
      handlers: {
        elicitation: async (request) => {
          asked.push(request.message);
          return { action: "accept", content: {} };
        },
      },
      onMessage: ({ direction, message }) => {
        if ("result" in message) {
          const result = message.result as { resultType?: string; task?: unknown };
          // A task is `resultType: "task"` on 2026-07-28, `{ task }` on 2025-11-25.
          messages.push(`${direction} ${result.task === undefined ? result.resultType : "task"}`);
        }
      },
    });
    open.push(mcp);
    await mcp.connect();
    const result = await mcp.callTool("ask_keeper", { request: "Open the north door" }, { task: true });
    expect(result).toEqual({ content: [{ type: "text", text: "The north door is open." }], isError: false });
    expect(asked).toEqual([
      'The agent behind "ask_keeper" wants to call the tool "open_vault" with:\n{\n  "door": "north"\n}\n' +
        "Accept to run the call, decline to refuse it.",
    ]);
    expect(messages.includes("in task")).toBe(args.length > 0);
  });
});
