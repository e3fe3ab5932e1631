// The server-everything scenarios, run over each transport by mcp-everything-*.test.ts.
import type { CreateMessageRequestParams, ElicitRequestParams, ToolProgress } from "@junction/types";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { AnyResultSchema } from "../src/convert-tool-result.js";
import { MCP } from "../src/mcp.js";
import type { MCPConfig, MCPLogMessage } from "../src/mcp-config.js";

interface TaskApi {
  listTasks(): Promise<{ tasks: { taskId: string; status: string }[] }>;
  getTask(taskId: string): Promise<{ status: string }>;
}

/** The server's task list, read through the live session's SDK client (which has no task API). */
function taskApi(mcp: MCP): TaskApi {
  const client = () =>
    (mcp as unknown as { session: { client: { request(r: unknown, s: unknown): Promise<unknown> } } }).session
      .client;
  return {
    listTasks: () => client().request({ method: "tasks/list", params: {} }, AnyResultSchema) as never,
    getTask: (taskId) =>
      client().request({ method: "tasks/get", params: { taskId } }, AnyResultSchema) as never,
  };
}

type TransportConfig = Extract<MCPConfig, { transport: "stdio" }> | Extract<MCPConfig, { transport: "http" }>;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export function describeEverything(
  label: string,
  makeConfig: () => Promise<TransportConfig>,
  cleanup?: () => Promise<void>,
) {
  describe(`server-everything over ${label}`, () => {
    let mcp: MCP;
    const logs: MCPLogMessage[] = [];
    const samplingRequests: CreateMessageRequestParams[] = [];
    const elicitations: ElicitRequestParams[] = [];

    beforeAll(async () => {
      const transport = await makeConfig();
      mcp = new MCP({
        ...transport,
        roots: [{ uri: "file:///workspace/project", name: "project" }],
        handlers: {
          log: (message) => logs.push(message),
          sampling: async (request) => {
            samplingRequests.push(request);
            return { model: "scripted-model", role: "assistant", content: { type: "text", text: "Paris." } };
          },
          elicitation: async (request) => {
            elicitations.push(request);
            return { action: "accept", content: { name: "Ada Lovelace", check: true } };
          },
        },
      });
      await mcp.connect();
    });

    afterAll(async () => {
      await mcp?.close();
      await cleanup?.();
    });

    it("connects and reports the server's identity, capabilities and instructions", () => {
      expect(mcp.connected).toBe(true);
      expect(mcp.serverInfo).toMatchObject({ name: "mcp-servers/everything", version: "2.0.0" });
      expect(mcp.name).toBe("mcp-servers/everything");
      expect(mcp.capabilities).toMatchObject({
        tools: { listChanged: true },
        resources: { subscribe: true },
      });
      expect(mcp.instructions).toEqual(expect.stringContaining("Everything"));
      // A legacy (SDK 1.x) server: "auto" probes with server/discover and falls back to initialize.
      expect(mcp.protocolVersion).toBe("2025-11-25");
    });

    it("lists tools as prefixed proxies that call the original name", async () => {
      const tools = await mcp.listTools({ prefix: "ev" });
      const names = tools.map((tool) => tool.name);
      expect(names).toEqual(
        expect.arrayContaining([
          "ev_echo",
          "ev_get-tiny-image",
          "ev_get-structured-content",
          "ev_trigger-sampling-request",
          "ev_trigger-elicitation-request",
          "ev_get-roots-list",
        ]),
      );
      const echo = tools.find((tool) => tool.name === "ev_echo");
      expect(echo).toMatchObject({
        description: "Echoes back the input string",
        inputSchema: { type: "object", properties: { message: { type: "string" } }, required: ["message"] },
        annotations: { title: "Echo Tool", readOnlyHint: true, destructiveHint: false },
      });
      expect(await echo?.execute({ message: "through the proxy" })).toEqual({
        content: [{ type: "text", text: "Echo: through the proxy" }],
        isError: false,
      });
      // Cached: the same list without a second round trip, and definitions carry no execute.
      const definitions = await mcp.listToolDefinitions({ prefix: "ev" });
      expect(definitions.map((definition) => definition.name)).toEqual(names);
      expect(definitions.every((definition) => !("execute" in definition))).toBe(true);
    });

    it("returns the tiny image as an image part with its base64 PNG", async () => {
      const result = await mcp.callTool("get-tiny-image");
      expect(result.isError).toBe(false);
      expect(result.content.map((part) => part.type)).toEqual(["text", "image", "text"]);
      const image = result.content[1];
      if (image?.type !== "image") throw new TypeError("expected an image part");
      expect(image.mimeType).toBe("image/png");
      expect([...Buffer.from(image.data, "base64").subarray(0, 8)]).toEqual(PNG_SIGNATURE);
    });

    it("keeps resource links and embedded resources", async () => {
      const links = await mcp.callTool("get-resource-links", { count: 2 });
      expect(links.content).toEqual([
        { type: "text", text: "Here are 2 resource links to resources available in this server:" },
        {
          type: "resource_link",
          uri: "demo://resource/dynamic/blob/1",
          name: "Blob Resource 1",
          mimeType: "text/plain",
          // The server derives the wording from the mime type, which is text/plain for both kinds.
          description: "Resource 1: plaintext resource",
        },
        {
          type: "resource_link",
          uri: "demo://resource/dynamic/text/2",
          name: "Text Resource 2",
          mimeType: "text/plain",
          description: "Resource 2: plaintext resource",
        },
      ]);
      const reference = await mcp.callTool("get-resource-reference", { resourceType: "Text", resourceId: 3 });
      expect(reference.content[1]).toMatchObject({
        type: "resource",
        resource: { uri: "demo://resource/dynamic/text/3", mimeType: "text/plain" },
      });
      const embedded = reference.content[1];
      expect(embedded?.type === "resource" && embedded.resource.text).toMatch(
        /^Resource 3: This is a plaintext resource/,
      );
    });

    it("returns structured content validated against the output schema", async () => {
      const result = await mcp.callTool("get-structured-content", { location: "Chicago" });
      expect(result).toEqual({
        content: [
          { type: "text", text: '{"temperature":36,"conditions":"Light rain / drizzle","humidity":82}' },
        ],
        isError: false,
        structuredContent: { temperature: 36, conditions: "Light rain / drizzle", humidity: 82 },
      });
    });

    it("answers the server's sampling request with handlers.sampling", async () => {
      const result = await mcp.callTool("trigger-sampling-request", {
        prompt: "Capital of France?",
        maxTokens: 20,
      });
      expect(samplingRequests.at(-1)).toMatchObject({
        maxTokens: 20,
        systemPrompt: "You are a helpful test server.",
        messages: [
          { role: "user", content: { type: "text", text: expect.stringContaining("Capital of France?") } },
        ],
      });
      const text = result.content[0]?.type === "text" ? result.content[0].text : "";
      expect(JSON.parse(text.replace(/^LLM sampling result: \n/, ""))).toEqual({
        model: "scripted-model",
        role: "assistant",
        content: { type: "text", text: "Paris." },
      });
    });

    it("answers elicitation with handlers.elicitation and applies the schema's defaults", async () => {
      const result = await mcp.callTool("trigger-elicitation-request");
      expect(elicitations.at(-1)).toMatchObject({
        message: "Please provide inputs for the following fields:",
        requestedSchema: { type: "object", required: ["name"] },
      });
      const raw = result.content.at(-1);
      const answer = JSON.parse(raw?.type === "text" ? raw.text.replace(/^\nRaw result: /, "") : "{}");
      expect(answer).toEqual({
        action: "accept",
        content: {
          name: "Ada Lovelace",
          check: true,
          // Not given by the handler: filled in from the requested schema's defaults.
          firstLine: "It was a dark and stormy night.",
          integer: 42,
          number: 3.14,
          untitledSingleSelectEnum: "Monica",
          untitledMultipleSelectEnum: ["Guitar"],
          titledSingleSelectEnum: "hero-1",
          titledMultipleSelectEnum: ["fish-1"],
          legacyTitledEnum: "pet-1",
        },
      });
    });

    it("serves roots from the config and announces setRoots() to the server", async () => {
      const before = await mcp.callTool("get-roots-list");
      expect(before.content[0]).toMatchObject({
        type: "text",
        text: expect.stringContaining("1. project\n   URI: file:///workspace/project"),
      });
      await vi.waitFor(() =>
        expect(logs.some((log) => log.data === "Roots updated: 1 root(s) received from client")).toBe(true),
      );
      await mcp.setRoots([
        { uri: "file:///workspace/a", name: "a" },
        { uri: "file:///workspace/b", name: "b" },
      ]);
      // The server re-reads the roots on notifications/roots/list_changed and logs what it got.
      await vi.waitFor(() =>
        expect(logs.some((log) => log.data === "Roots updated: 2 root(s) received from client")).toBe(true),
      );
      const after = await mcp.callTool("get-roots-list");
      expect(after.content[0]).toMatchObject({
        text: expect.stringContaining("Current MCP Roots (2 total)"),
      });
    });

    it("reports progress of a long-running operation", async () => {
      const progress: ToolProgress[] = [];
      const result = await mcp.callTool(
        "trigger-long-running-operation",
        { duration: 0.3, steps: 3 },
        { onProgress: (report) => progress.push(report) },
      );
      expect(progress).toEqual([
        { progress: 1, total: 3 },
        { progress: 2, total: 3 },
        { progress: 3, total: 3 },
      ]);
      expect(result.content).toEqual([
        { type: "text", text: "Long running operation completed. Duration: 0.3 seconds, Steps: 3." },
      ]);
    });

    it("lists, reads and templates resources", async () => {
      const resources = await mcp.listResources();
      expect(resources.length).toBeGreaterThan(0);
      expect(resources.every((resource) => resource.uri.startsWith("demo://resource/static/document/"))).toBe(
        true,
      );
      const templates = await mcp.listResourceTemplates();
      expect(templates.map((template) => template.uriTemplate).sort()).toEqual([
        "demo://resource/dynamic/blob/{resourceId}",
        "demo://resource/dynamic/text/{resourceId}",
      ]);
      const text = await mcp.readResource("demo://resource/dynamic/text/7");
      expect(text.contents).toEqual([
        {
          uri: "demo://resource/dynamic/text/7",
          mimeType: "text/plain",
          text: expect.stringMatching(/^Resource 7: This is a plaintext resource created at /),
        },
      ]);
      const blob = await mcp.readResource("demo://resource/dynamic/blob/8");
      const content = blob.contents[0];
      expect(content && "blob" in content && Buffer.from(content.blob, "base64").toString()).toMatch(
        /^Resource 8: This is a base64 blob created at /,
      );
      const first = resources[0];
      if (!first) throw new TypeError("no static resource");
      const document = await mcp.readResource(first.uri);
      expect(document.contents[0]?.uri).toBe(first.uri);
    });

    it("subscribes to resource updates and unsubscribes", async () => {
      const uri = "demo://resource/dynamic/text/1";
      const updates: string[] = [];
      const unsubscribe = await mcp.subscribe(uri, (updated) => updates.push(updated));
      // The toggle tool makes the server send an update for each subscribed URI right away.
      await mcp.callTool("toggle-subscriber-updates");
      await vi.waitFor(() => expect(updates).toContain(uri));
      expect(new Set(updates)).toEqual(new Set([uri]));
      await mcp.callTool("toggle-subscriber-updates");
      await unsubscribe();
      expect(
        logs.some((log) => String(log.data).startsWith(`Received Unsubscribe Resource request: ${uri}`)),
      ).toBe(true);
    });

    it("lists and gets prompts", async () => {
      const prompts = await mcp.listPrompts();
      expect(prompts.map((prompt) => prompt.name)).toEqual(
        expect.arrayContaining(["simple-prompt", "args-prompt", "completable-prompt"]),
      );
      expect(prompts.find((prompt) => prompt.name === "args-prompt")?.arguments).toEqual([
        { name: "city", description: "Name of the city", required: true },
        { name: "state", required: false },
      ]);
      const prompt = await mcp.getPrompt("args-prompt", { city: "Paris", state: "TX" });
      expect(prompt.messages).toEqual([
        { role: "user", content: { type: "text", text: "What's weather in Paris, TX?" } },
      ]);
    });

    it("completes prompt and resource-template arguments", async () => {
      expect(
        await mcp.complete({
          ref: { type: "ref/prompt", name: "completable-prompt" },
          argument: { name: "department", value: "Ma" },
        }),
      ).toMatchObject({
        values: ["Marketing"],
      });
      const narrowed = await mcp.complete({
        ref: { type: "ref/prompt", name: "completable-prompt" },
        argument: { name: "name", value: "" },
        context: { arguments: { department: "Sales" } },
      });
      expect(narrowed.values).toEqual(["David", "Eve", "Frank"]);
      const template = await mcp.complete({
        ref: { type: "ref/resource", uri: "demo://resource/dynamic/text/{resourceId}" },
        argument: { name: "resourceId", value: "12" },
      });
      expect(template.values).toEqual(["12"]);
    });

    it("sets the log level and delivers server log messages to handlers.log", async () => {
      await mcp.setLogLevel("debug");
      const before = logs.length;
      await mcp.callTool("toggle-simulated-logging");
      await vi.waitFor(() => expect(logs.length).toBeGreaterThan(before));
      await mcp.callTool("toggle-simulated-logging");
      const message = logs[before];
      expect(["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]).toContain(
        message?.level,
      );
      expect(String(message?.data)).toMatch(/message/i);
    });

    it("pings", async () => {
      await expect(mcp.ping()).resolves.toBeUndefined();
    });

    it("runs a task-only tool as a task (poll to completion)", async () => {
      const tools = await mcp.listTools();
      expect(tools.some((tool) => tool.name === "simulate-research-query")).toBe(true);
      const result = await mcp.callTool("simulate-research-query", { topic: "MCP tasks" });
      expect(result.isError).toBe(false);
      expect(result.content[0]).toMatchObject({
        type: "text",
        text: expect.stringContaining("# Research Report: MCP tasks"),
      });
    });

    it("cancels the task (tasks/cancel) when the call is aborted", async () => {
      const tasks = taskApi(mcp);
      const before = new Set((await tasks.listTasks()).tasks.map((task) => task.taskId));
      const controller = new AbortController();
      const call = mcp.callTool(
        "simulate-research-query",
        { topic: "aborted" },
        { signal: controller.signal },
      );
      const settled = call.then(
        () => "resolved",
        (error: { code?: string }) => error.code,
      );
      let taskId = "";
      await vi.waitFor(async () => {
        const fresh = (await tasks.listTasks()).tasks.find((task) => !before.has(task.taskId));
        expect(fresh?.status).toBe("working");
        taskId = fresh?.taskId ?? "";
      });
      controller.abort();
      expect(await settled).toBe("aborted");
      await vi.waitFor(async () => expect((await tasks.getTask(taskId)).status).toBe("cancelled"));
    });
  });
}
