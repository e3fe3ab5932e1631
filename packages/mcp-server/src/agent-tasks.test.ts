import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, tool } from "@junction/core";
import { scriptedModel } from "@junction/core/testing";
import { MCP, type MCPWireMessage } from "@junction/mcp-client";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { rawRequest, waitForTask } from "../test/raw-request.js";
import type { MCPTaskOptions } from "./agent-tasks.js";
import { agentTool } from "./agent-tool.js";
import { createMCPServer } from "./mcp-server.js";
import { fileTaskStore, type RunningHTTPServer, serveHTTP } from "./node.js";

// Served agents as tasks (the 2026-07-28 tasks extension), called by Junction's own client over
// Streamable HTTP: the call returns a task at once, the client polls tasks/get, an approval is the
// task's input request, answered with tasks/update.

const running: RunningHTTPServer[] = [];
const clients: MCP[] = [];
const folders: string[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((mcp) => mcp.close()));
  await Promise.all(running.splice(0).map((server) => server.close()));
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

const KEY = "a test key that is 32 bytes long!!";

function vault(runs: string[]) {
  return tool({
    name: "open_vault",
    description: "Opens the vault",
    schema: z.object({ door: z.string() }),
    execute: async ({ door }) => {
      runs.push(door);
      return `opened ${door}`;
    },
  });
}

async function serveAgent(agent: () => Agent, tasks: MCPTaskOptions, port = 0) {
  const server = await serveHTTP(
    createMCPServer({
      name: "agents",
      version: "1.0.0",
      stateKey: KEY,
      tasks,
      tools: [agentTool(agent, { name: "ask_keeper", description: "Asks the keeper agent" })],
    }),
    { port },
  );
  running.push(server);
  return server;
}

function traffic(messages: MCPWireMessage[]): string[] {
  return messages.map(({ direction, message }) => {
    if ("method" in message) return `${direction} ${message.method}`;
    if ("result" in message)
      return `${direction} result ${(message.result as { resultType?: string }).resultType}`;
    return `${direction} error`;
  });
}

describe("a served agent as a task over Streamable HTTP", () => {
  it("arguments that do not fit make no task: the call's isError result names the field, as a plain call's does", async () => {
    const provider = scriptedModel([{ text: "Never asked." }]);
    const server = await serveAgent(() => new Agent({ provider, model: "scripted" }), { pollIntervalMs: 20 });
    const messages: MCPWireMessage[] = [];
    const mcp = new MCP({
      transport: "http",
      url: server.url,
      onMessage: (message) => messages.push(message),
    });
    clients.push(mcp);
    await mcp.connect();
    const fieldError = {
      content: [
        {
          type: "text",
          text: 'Invalid input for tool "ask_keeper":\n✖ Invalid input: expected string, received number\n  → at request',
        },
      ],
      isError: true,
    };
    expect(await mcp.callTool("ask_keeper", { request: 42 })).toEqual(fieldError);
    expect(traffic(messages)).not.toContain("in result task");
    const raw = await rawRequest(server.url, {
      method: "tools/call",
      params: {
        name: "ask_keeper",
        arguments: { request: 42 },
      },
    });
    expect(raw.error).toBeUndefined();
    expect(raw.result).toMatchObject(fieldError);
    expect(raw.result?.resultType).not.toBe("task");
  });

  it("returns a task at once; the client polls it to the agent's answer", async () => {
    const provider = scriptedModel([{ text: "Nothing to open." }]);
    const server = await serveAgent(() => new Agent({ provider, model: "scripted" }), { pollIntervalMs: 20 });
    const messages: MCPWireMessage[] = [];
    const mcp = new MCP({
      transport: "http",
      url: server.url,
      onMessage: (message) => messages.push(message),
    });
    clients.push(mcp);
    await mcp.connect();
    const result = await mcp.callTool("ask_keeper", { request: "Anything?" });
    expect(result).toEqual({ content: [{ type: "text", text: "Nothing to open." }], isError: false });
    const seen = traffic(messages);
    expect(seen).toContain("in result task");
    expect(seen.slice(seen.indexOf("in result task"))).toContain("out tasks/get");
  });

  it("asks for an approval as the task's input request, answered after the server restarted", async () => {
    const folder = await mkdtemp(join(tmpdir(), "junction-tasks-"));
    folders.push(folder);
    const file = join(folder, "tasks.json");
    const runs: string[] = [];
    const first = await serveAgent(
      () =>
        new Agent({
          provider: scriptedModel([
            { toolCalls: [{ id: "c1", name: "open_vault", input: { door: "north" } }] },
          ]),
          model: "scripted",
          tools: [vault(runs)],
          approval: () => "ask",
        }),
      { store: fileTaskStore(file), pollIntervalMs: 3_000 },
    );
    const port = Number(new URL(first.url).port);
    const resumedProvider = scriptedModel([{ text: "The north door is open." }]);
    const asked: unknown[] = [];
    const mcp = new MCP({
      transport: "http",
      url: first.url,
      handlers: {
        elicitation: async (request) => {
          asked.push(request);
          // The server goes away while the person thinks; another one takes over, with the
          // same task file and key, and gets the answer.
          await first.close();
          running.splice(running.indexOf(first), 1);
          await serveAgent(
            () =>
              new Agent({
                provider: resumedProvider,
                model: "scripted",
                tools: [vault(runs)],
                approval: () => "ask",
              }),
            { store: fileTaskStore(file), pollIntervalMs: 20 },
            port,
          );
          return { action: "accept", content: {} };
        },
      },
    });
    clients.push(mcp);
    await mcp.connect();
    const result = await mcp.callTool("ask_keeper", { request: "Open the north door" });
    expect(result).toEqual({ content: [{ type: "text", text: "The north door is open." }], isError: false });
    expect(runs).toEqual(["north"]);
    expect(asked).toEqual([
      expect.objectContaining({
        mode: "form",
        message: expect.stringContaining(
          'wants to call the tool "open_vault" with:\n{\n  "door": "north"\n}',
        ),
      }),
    ]);
    // One file per revision of the task, the newest the only one not emptied, readable by this user alone.
    const names = await readdir(file);
    for (const name of names) expect(name).toMatch(/^[0-9a-f-]{36}\.[0-9]+\.json$/);
    const files: string[] = [];
    for (const name of names) if ((await stat(join(file, name))).size > 0) files.push(name);
    expect(files).toHaveLength(1);
    const revisionOfName = (name: string) => Number(name.split(".")[1]);
    expect(revisionOfName(files[0] as string)).toBe(Math.max(...names.map(revisionOfName)));
    const stored = JSON.parse(await readFile(join(file, files[0] as string), "utf8")) as {
      status: string;
      signature: string;
    };
    expect(stored.status).toBe("completed");
    expect(stored.signature).toMatch(/^[0-9a-f]{64}$/);
    expect((await stat(join(file, files[0] as string))).mode & 0o777).toBe(0o600);
    expect((await stat(file)).mode & 0o777).toBe(0o700);
  }, 20_000);

  it("refuses a forged answer: an update for another call id does not approve anything", async () => {
    const runs: string[] = [];
    const server = await serveAgent(
      () =>
        new Agent({
          provider: scriptedModel([
            { toolCalls: [{ id: "c1", name: "open_vault", input: { door: "west" } }] },
          ]),
          model: "scripted",
          tools: [vault(runs)],
          approval: () => "ask",
        }),
      { pollIntervalMs: 20 },
    );
    const created = await rawRequest(server.url, {
      method: "tools/call",
      params: {
        name: "ask_keeper",
        arguments: { request: "Open the west door" },
      },
    });
    expect(created.result).toMatchObject({ resultType: "task", status: "working" });
    const taskId = created.result?.taskId as string;
    let task: Record<string, unknown> | undefined;
    for (let polls = 0; polls < 100; polls++) {
      task = (await rawRequest(server.url, { method: "tasks/get", params: { taskId } })).result;
      if (task?.status === "input_required") break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(Object.keys((task?.inputRequests as object) ?? {})).toEqual(["approval:1:c1"]);
    // Answers filed under a call the task was not asked about count for nothing.
    const forged = await rawRequest(server.url, {
      method: "tasks/update",
      params: {
        taskId,
        inputResponses: { "approval:1:c2": { action: "accept", content: {} } },
      },
    });
    expect(forged.result).toMatchObject({ resultType: "complete" });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await rawRequest(server.url, { method: "tasks/get", params: { taskId } })).result).toMatchObject({
      status: "input_required",
    });
    expect(runs).toEqual([]);
    // An unknown task id is refused outright.
    const unknown = await rawRequest(server.url, {
      method: "tasks/update",
      params: {
        taskId: "not-a-task",
        inputResponses: { "approval:1:c1": { action: "accept", content: {} } },
      },
    });
    expect(unknown.error).toMatchObject({ code: -32602, message: 'Unknown task "not-a-task".' });
    // Cancelling ends it; a late answer then changes nothing.
    await rawRequest(server.url, { method: "tasks/cancel", params: { taskId } });
    await rawRequest(server.url, {
      method: "tasks/update",
      params: {
        taskId,
        inputResponses: { "approval:1:c1": { action: "accept", content: {} } },
      },
    });
    expect((await rawRequest(server.url, { method: "tasks/get", params: { taskId } })).result).toMatchObject({
      status: "cancelled",
    });
    expect(runs).toEqual([]);
  });

  it("cancelling the call cancels the task and aborts the run's tool", async () => {
    let aborted!: () => void;
    const toolAborted = new Promise<void>((resolve) => {
      aborted = resolve;
    });
    const hang = tool({
      name: "hang",
      description: "Waits until aborted",
      schema: z.object({}),
      execute: (_input, context) =>
        new Promise((_resolve, reject) => {
          context?.signal?.addEventListener("abort", () => {
            aborted();
            reject(context.signal?.reason);
          });
        }),
    });
    const provider = scriptedModel([{ toolCalls: [{ name: "hang" }] }, { text: "never" }]);
    const server = await serveAgent(() => new Agent({ provider, model: "scripted", tools: [hang] }), {
      pollIntervalMs: 20,
    });
    const mcp = new MCP({ transport: "http", url: server.url });
    clients.push(mcp);
    await mcp.connect();
    const controller = new AbortController();
    const call = mcp.callTool(
      "ask_keeper",
      { request: "Wait" },
      {
        signal: controller.signal,
        onProgress: () => controller.abort(),
      },
    );
    await expect(call).rejects.toMatchObject({ code: "aborted" });
    await expect(toolAborted).resolves.toBeUndefined();
  });

  it("limits concurrent runs per client (default 4; here 1)", async () => {
    const provider = scriptedModel([{ toolCalls: [{ name: "hang" }] }]);
    const hang = tool({
      name: "hang",
      description: "Waits",
      schema: z.object({}),
      execute: () => new Promise(() => undefined),
    });
    const server = await serveAgent(() => new Agent({ provider, model: "scripted", tools: [hang] }), {
      maxConcurrentRuns: 1,
    });
    const first = await rawRequest(server.url, {
      method: "tools/call",
      params: {
        name: "ask_keeper",
        arguments: { request: "one" },
      },
    });
    expect(first).toMatchObject({ result: { resultType: "task" } });
    const second = await rawRequest(server.url, {
      method: "tools/call",
      params: {
        name: "ask_keeper",
        arguments: { request: "two" },
      },
    });
    expect(second.error?.message).toBe(
      "Too many task runs going at once for this client (limit 1); wait for one to end, or cancel one.",
    );
    await rawRequest(server.url, { method: "tasks/cancel", params: { taskId: first.result?.taskId } });
  });

  it.each([
    [
      "runs going at once",
      async (): Promise<MCPTaskOptions> => ({ maxConcurrentRuns: 1 }),
      "Too many task runs going at once for this client (limit 1); wait for one to end, or cancel one.",
    ],
    [
      "open tasks",
      // A store on files: counting the open tasks reads them, while the other calls come in.
      async (): Promise<MCPTaskOptions> => {
        const folder = await mkdtemp(join(tmpdir(), "junction-tasks-"));
        folders.push(folder);
        return { maxOpenTasks: 1, store: fileTaskStore(join(folder, "tasks")) };
      },
      "Too many open tasks for this client (limit 1); answer or cancel some first.",
    ],
  ] as const)(
    "calls sent at once count against the limit of %s too: one task starts, the others are refused",
    async (_limit, limits, refusal) => {
      const hang = tool({
        name: "hang",
        description: "Waits",
        schema: z.object({}),
        execute: () => new Promise(() => undefined),
      });
      const server = await serveAgent(
        () =>
          new Agent({
            provider: scriptedModel([{ toolCalls: [{ name: "hang" }] }]),
            model: "scripted",
            tools: [hang],
          }),
        await limits(),
      );
      const answers = await Promise.all(
        ["one", "two", "three", "four"].map((request) =>
          rawRequest(server.url, {
            method: "tools/call",
            params: { name: "ask_keeper", arguments: { request } },
          }),
        ),
      );
      const tasks = answers.filter((answer) => answer.result?.resultType === "task");
      const refused = answers.filter((answer) => answer.error !== undefined);
      expect(tasks).toHaveLength(1);
      expect(refused.map((answer) => answer.error?.message)).toEqual(Array(3).fill(refusal));
      for (const task of tasks) {
        await rawRequest(server.url, { method: "tasks/cancel", params: { taskId: task.result?.taskId } });
      }
    },
  );

  it("a resumed run takes a run slot too: of two tasks answered at once with a limit of 1, one resumes, the other is refused with its answer not taken, and resumes when sent again", async () => {
    // The approved tool waits until let go: the resumed run holds its slot meanwhile.
    let letGo!: () => void;
    const gate = new Promise<void>((resolve) => {
      letGo = resolve;
    });
    const opened: string[] = [];
    const vaultThatWaits = tool({
      name: "open_vault",
      description: "Opens the vault",
      schema: z.object({ door: z.string() }),
      execute: async ({ door }) => {
        opened.push(door);
        await gate;
        return `opened ${door}`;
      },
    });
    const server = await serveAgent(
      () =>
        new Agent({
          provider: scriptedModel([
            { toolCalls: [{ id: "c1", name: "open_vault", input: { door: "north" } }] },
            { text: "The door is open." },
          ]),
          model: "scripted",
          tools: [vaultThatWaits],
          approval: () => "ask",
        }),
      { maxConcurrentRuns: 1, pollIntervalMs: 20 },
    );
    const taskIds: string[] = [];
    for (const request of ["one", "two"]) {
      const created = await rawRequest(server.url, {
        method: "tools/call",
        params: { name: "ask_keeper", arguments: { request } },
      });
      const taskId = created.result?.taskId as string;
      // Waiting for a person holds no slot: the second task may start.
      await waitForTask(server.url, taskId, "input_required");
      taskIds.push(taskId);
    }
    const approve = (taskId: string) =>
      rawRequest(server.url, {
        method: "tasks/update",
        params: { taskId, inputResponses: { "approval:1:c1": { action: "accept", content: {} } } },
      });
    const answers = await Promise.all(taskIds.map(approve));
    const taken = answers.filter((answer) => answer.error === undefined);
    const refused = answers.filter((answer) => answer.error !== undefined);
    expect(taken).toHaveLength(1);
    expect(refused.map((answer) => answer.error)).toEqual([
      {
        code: -32603,
        message:
          "Too many task runs going at once for this client (limit 1): this answer would resume a run beyond it, so it was not taken and the task still waits for it. Wait for a run to end (or to wait for input), or cancel one, then send the same answer again.",
        data: { limit: "maxConcurrentRuns", maximum: 1 },
      },
    ]);
    const resumedId = taskIds[answers.indexOf(taken[0] as (typeof answers)[number])] as string;
    const refusedId = taskIds[answers.indexOf(refused[0] as (typeof answers)[number])] as string;
    // The refused task still waits for the same answer; only the resumed run opened its door.
    const waiting = await rawRequest(server.url, { method: "tasks/get", params: { taskId: refusedId } });
    expect(waiting.result).toMatchObject({ status: "input_required" });
    expect(Object.keys(waiting.result?.inputRequests as object)).toEqual(["approval:1:c1"]);
    expect(opened).toEqual(["north"]);
    // Still refused while the resumed run goes.
    expect((await approve(refusedId)).error?.data).toEqual({ limit: "maxConcurrentRuns", maximum: 1 });
    letGo();
    expect(await waitForTask(server.url, resumedId, "completed")).toMatchObject({ status: "completed" });
    // The slot is given back when the resumed run ends: the same answer, sent again, resumes the other.
    expect((await approve(refusedId)).error).toBeUndefined();
    const done = await waitForTask(server.url, refusedId, "completed");
    expect(done.result).toEqual({ content: [{ type: "text", text: "The door is open." }] });
    expect(opened).toEqual(["north", "north"]);
  });
});
