import { InMemoryTaskStore } from "@modelcontextprotocol/sdk/experimental/tasks";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { rejection } from "../test/test-support.js";
import { MCP } from "./mcp.js";

const open: MCP[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((mcp) => mcp.close()));
});

/**
 * A server with one task-only tool, `slow-task`. Its createTask stores the task, reports the id to
 * the test, and answers only once the test lets it: the window in which the server has a task
 * whose id the client has not heard yet.
 */
function taskServer() {
  const store = new InMemoryTaskStore();
  const server = new McpServer(
    { name: "tasks", version: "1.0.0" },
    {
      capabilities: { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
      taskStore: store,
    },
  );
  let created!: (taskId: string) => void;
  const taskCreated = new Promise<string>((resolve) => (created = resolve));
  let answer!: () => void;
  const answered = new Promise<void>((resolve) => (answer = resolve));
  server.experimental.tasks.registerToolTask(
    "slow-task",
    { description: "Runs until cancelled.", execution: { taskSupport: "required" } },
    {
      createTask: async (extra) => {
        const task = await extra.taskStore.createTask({ ttl: 60_000, pollInterval: 20 });
        created(task.taskId);
        await answered;
        return { task };
      },
      getTask: async (extra) => extra.taskStore.getTask(extra.taskId),
      getTaskResult: async (extra) => (await extra.taskStore.getTaskResult(extra.taskId)) as CallToolResult,
    },
  );
  return { server, store, taskCreated, answer };
}

async function connect(server: McpServer): Promise<MCP> {
  const mcp = new MCP({ transport: "memory", server, name: "tasks" });
  open.push(mcp);
  await mcp.connect();
  return mcp;
}

describe("a tool that runs as a task", () => {
  it("is cancelled on the server when the call is aborted before the task id arrived", async () => {
    const { server, store, taskCreated, answer } = taskServer();
    const mcp = await connect(server);
    const controller = new AbortController();
    const call = rejection(mcp.callTool("slow-task", {}, { signal: controller.signal }));
    const taskId = await taskCreated; // the server has the task; its answer is held back

    controller.abort();
    const error = await call; // rejects at once, without waiting for the server
    expect(error.code).toBe("aborted");
    expect((await store.getTask(taskId))?.status).toBe("working");

    answer(); // the id arrives after the caller gave up: the task is cancelled all the same
    await vi.waitFor(async () => expect((await store.getTask(taskId))?.status).toBe("cancelled"));
  });

  it("is cancelled on the server when the call times out before the task id arrived", async () => {
    const { server, store, taskCreated, answer } = taskServer();
    const mcp = await connect(server);
    const call = rejection(mcp.callTool("slow-task", {}, { timeoutMs: 100 }));
    const taskId = await taskCreated;

    const error = await call;
    expect(error.code).toBe("mcp-timeout");
    answer();
    await vi.waitFor(async () => expect((await store.getTask(taskId))?.status).toBe("cancelled"));
  });
});
