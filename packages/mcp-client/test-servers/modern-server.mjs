#!/usr/bin/env node
// A 2026-07-28-only MCP server on the SDK's v2 server (@modelcontextprotocol/server): legacy
// (2025) traffic is refused, so a client reaches it only by negotiating the new revision.
//
//   node modern-server.mjs stdio           serveStdio(…, { legacy: "reject" })
//   node modern-server.mjs http [port]     createMcpHandler(…, { legacy: "reject" }) on node:http;
//                                          prints "listening <port>" once it accepts requests
//
// Every tool answer names the process (pid), so tests can tell which process served a call.
import { existsSync } from "node:fs";
import {
  acceptedContent,
  completable,
  createMcpHandler,
  inputRequired,
  inputResponse,
  McpServer,
  ProtocolError,
  ProtocolErrorCode,
} from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { z } from "zod";
import { serveFetchHandler } from "./serve-fetch-handler.mjs";

const TINY_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

/** Publishes change events to open `subscriptions/listen` streams (HTTP mode only). */
let notify;

// The `io.modelcontextprotocol/tasks` extension (SEP-2663), which the v2 server SDK does not
// implement: a minimal server side on the SDK's own request handlers. `slow-task` is run as a
// task when the request declares the extension in `_meta`; `tasks/get` reports it (with the
// result inlined once complete), `tasks/cancel` ends it. Tasks live in this process.
//
// With `ask` ("elicitation", "sampling", "roots"; "bogus": a tools/call; "garbled": a list for a
// map), the task stops halfway with status
// `input_required` and one input request (key `<ask>-1`) in the `inputRequests` of tasks/get,
// whether or not the client declared that capability (so tests see how a client refuses);
// `tasks/update` answers it, and the task then completes with the answers in its result text.
// Such a task's answers carry a `requestState` ("<taskId>:<status>") for the client to echo.
const TASKS = "io.modelcontextprotocol/tasks";
const tasks = new Map();
/** Every `tasks/cancel` this process received, in order (the `task-log` tool tells them). */
const cancelled = [];
/** Every `tasks/update` this process received, as `{ taskId, inputResponses, requestState }`. */
const updates = [];
let nextTask = 1;

/** The input request `slow-task` makes for each `ask`. */
const INPUT_REQUESTS = {
  elicitation: {
    method: "elicitation/create",
    params: {
      mode: "form",
      message: "Go ahead with the slow task?",
      requestedSchema: {
        type: "object",
        properties: {
          confirm: { type: "boolean" },
          note: { type: "string", default: "none" },
        },
        required: ["confirm"],
      },
    },
  },
  sampling: {
    method: "sampling/createMessage",
    params: {
      messages: [{ role: "user", content: { type: "text", text: "Name a colour" } }],
      maxTokens: 10,
    },
  },
  roots: { method: "roots/list", params: {} },
  // Not something a server may ask a client in a task.
  bogus: { method: "tools/call", params: { name: "echo", arguments: { message: "hi" } } },
};

/** Whether the request declared the extension (its `_meta` envelope, as the SDK hands it over). */
function declaresTasks(ctx) {
  const capabilities = ctx.mcpReq.envelope?.["io.modelcontextprotocol/clientCapabilities"];
  return capabilities?.extensions?.[TASKS] !== undefined;
}

function taskView(task) {
  return {
    taskId: task.taskId,
    status: task.status,
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttlMs: 60_000,
    pollIntervalMs: 20,
    ...(task.statusMessage ? { statusMessage: task.statusMessage } : {}),
    // A task that asks for input hands out a requestState that follows its status; the client
    // must echo the latest one (tasks/update records what came back).
    ...(task.asks ? { requestState: `${task.taskId}:${task.status}` } : {}),
  };
}

function complete(task, text) {
  task.lastUpdatedAt = new Date().toISOString();
  task.status = "completed";
  task.result = { content: [{ type: "text", text }] };
}

function startTask({ ms = 100, fail = false, ask }) {
  const now = new Date().toISOString();
  const task = {
    taskId: `task-${process.pid}-${nextTask++}`,
    status: "working",
    createdAt: now,
    lastUpdatedAt: now,
  };
  tasks.set(task.taskId, task);
  if (ask) {
    task.asks = true;
    task.timer = setTimeout(() => {
      task.status = "input_required";
      task.statusMessage = "waiting for input";
      task.lastUpdatedAt = new Date().toISOString();
      // "garbled": an inputRequests that is not a map at all.
      task.inputRequests = ask === "garbled" ? ["elicitation/create"] : { [`${ask}-1`]: INPUT_REQUESTS[ask] };
      task.answers = {};
      task.resume = () => {
        task.timer = setTimeout(
          () => complete(task, `${process.pid}: ${task.taskId} got ${JSON.stringify(task.answers)}`),
          ms / 2,
        );
      };
    }, ms / 2);
    return { resultType: "task", ...taskView(task) };
  }
  const halfway = setTimeout(() => {
    task.statusMessage = "halfway";
    task.lastUpdatedAt = new Date().toISOString();
  }, ms / 2);
  task.timer = setTimeout(() => {
    clearTimeout(halfway);
    task.lastUpdatedAt = new Date().toISOString();
    if (fail) {
      task.status = "failed";
      task.error = { code: -32603, message: "the task's worker crashed" };
    } else {
      task.status = "completed";
      task.result = { content: [{ type: "text", text: `${process.pid}: slept ${ms} ms as ${task.taskId}` }] };
    }
  }, ms);
  task.halfway = halfway;
  return { resultType: "task", ...taskView(task) };
}

/** Runs `slow-task` as a task, ahead of the SDK's tools/call handling, when the client asked. */
function withTasks(server) {
  // The server's tools/call handler (set in its constructor, since it declares tools) runs every
  // other call; slow-task from a client that declared the extension becomes a task instead.
  const handlers = server.server._requestHandlers;
  const callTool = handlers.get("tools/call");
  handlers.set("tools/call", async (request, ctx) =>
    request.params?.name === "slow-task" && declaresTasks(ctx)
      ? startTask(request.params.arguments ?? {})
      : callTool(request, ctx),
  );
  const taskParams = { params: z.object({ taskId: z.string() }).passthrough() };
  server.server.setRequestHandler("tasks/get", taskParams, async ({ taskId }) => {
    const task = tasks.get(taskId);
    if (!task) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `unknown task ${taskId}`);
    return {
      ...taskView(task),
      ...(task.status === "input_required" ? { inputRequests: task.inputRequests } : {}),
      ...(task.result ? { result: task.result } : {}),
      ...(task.error ? { error: task.error } : {}),
    };
  });
  // The SDK lifts `inputResponses` out of the params into ctx.mcpReq (bare results only).
  server.server.setRequestHandler("tasks/update", taskParams, async ({ taskId }, ctx) => {
    const inputResponses = ctx.mcpReq.inputResponses ?? {};
    updates.push({ taskId, inputResponses, requestState: ctx.mcpReq.requestState() });
    const task = tasks.get(taskId);
    // Acknowledged whatever the task (SEP-2663); only outstanding keys count.
    if (task?.status === "input_required") {
      for (const [key, answer] of Object.entries(inputResponses)) {
        if (!(key in task.inputRequests)) continue;
        task.answers[key] = answer;
        delete task.inputRequests[key];
      }
      if (Object.keys(task.inputRequests).length === 0) {
        task.status = "working";
        task.statusMessage = "answered";
        task.lastUpdatedAt = new Date().toISOString();
        task.resume();
      }
    }
    return {};
  });
  server.server.setRequestHandler("tasks/cancel", taskParams, async ({ taskId }) => {
    const task = tasks.get(taskId);
    if (!task) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `unknown task ${taskId}`);
    cancelled.push(taskId);
    if (task.status === "working" || task.status === "input_required") {
      clearTimeout(task.timer);
      clearTimeout(task.halfway);
      task.status = "cancelled";
      task.lastUpdatedAt = new Date().toISOString();
    }
    return {};
  });
}

/** Whether the file named by NO_SUBSCRIBE_FILE exists (read at each session's start). */
function unsubscribable() {
  return Boolean(process.env.NO_SUBSCRIBE_FILE && existsSync(process.env.NO_SUBSCRIBE_FILE));
}

function build() {
  const server = new McpServer(
    { name: "modern-test-server", version: "1.0.0" },
    {
      capabilities: {
        tools: { listChanged: true },
        // A server restarted without resource subscriptions (a test writes the file, then kills
        // the process): it no longer honours them on subscriptions/listen.
        resources: unsubscribable() ? {} : { subscribe: true },
        prompts: {},
        extensions: { [TASKS]: {} },
      },
    },
  );
  withTasks(server);
  server.registerTool(
    "announce",
    {
      description: "Publishes a change to the open listen streams (HTTP mode)",
      inputSchema: z.object({ what: z.enum(["tools", "greeting"]) }),
    },
    async ({ what }) => {
      if (what === "tools") notify?.toolsChanged();
      else notify?.resourceUpdated("memo://greeting");
      return { content: [{ type: "text", text: `announced ${what}` }] };
    },
  );
  server.registerTool(
    "echo",
    { description: "Echoes, naming the process", inputSchema: z.object({ message: z.string() }) },
    async ({ message }) => ({ content: [{ type: "text", text: `${process.pid}: ${message}` }] }),
  );
  server.registerTool("tiny-image", { description: "A 1x1 PNG", inputSchema: z.object({}) }, async () => ({
    content: [{ type: "image", data: TINY_PNG, mimeType: "image/png" }],
  }));
  server.registerTool(
    "deploy",
    { description: "Asks the user to confirm (input_required)", inputSchema: z.object({ env: z.string() }) },
    async ({ env }, ctx) => {
      const confirmation = z.object({ confirm: z.boolean() });
      const answer = acceptedContent(ctx.mcpReq.inputResponses, "confirm", confirmation);
      if (answer === undefined) {
        return inputRequired({
          inputRequests: {
            confirm: inputRequired.elicit({ message: `Deploy to ${env}?`, requestedSchema: confirmation }),
          },
        });
      }
      return { content: [{ type: "text", text: answer.confirm ? `deployed to ${env}` : "not deployed" }] };
    },
  );
  server.registerTool(
    "brief",
    {
      description: "Asks the client's model for a line and the client's roots in one input_required round",
      inputSchema: z.object({ topic: z.string() }),
    },
    async ({ topic }, ctx) => {
      const line = inputResponse(ctx.mcpReq.inputResponses, "line");
      const roots = inputResponse(ctx.mcpReq.inputResponses, "roots");
      if (line.kind !== "sampling" || roots.kind !== "roots") {
        return inputRequired({
          inputRequests: {
            line: inputRequired.createMessage({
              messages: [{ role: "user", content: { type: "text", text: `One line on ${topic}.` } }],
              maxTokens: 50,
            }),
            roots: inputRequired.listRoots(),
          },
        });
      }
      const said = line.result.content.type === "text" ? line.result.content.text : "(no text)";
      const where = roots.roots.map((root) => root.uri).join(", ");
      return { content: [{ type: "text", text: `${said} [${line.result.model}] in ${where}` }] };
    },
  );
  server.registerTool("fail", { description: "Always fails", inputSchema: z.object({}) }, async () => {
    throw new Error("the tool broke");
  });
  server.registerTool(
    "hang",
    { description: "Never answers", inputSchema: z.object({}) },
    () => new Promise(() => {}),
  );
  server.registerResource(
    "greeting",
    "memo://greeting",
    { description: "A greeting", mimeType: "text/plain" },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/plain", text: "hello from 2026" }] }),
  );
  server.registerPrompt(
    "summarize",
    {
      description: "Summarize a topic",
      argsSchema: z.object({
        topic: completable(z.string(), (value) =>
          ["MCP", "Markdown", "Mars"].filter((topic) => topic.toLowerCase().startsWith(value.toLowerCase())),
        ),
      }),
    },
    async ({ topic }) => ({
      messages: [{ role: "user", content: { type: "text", text: `Summarize ${topic}.` } }],
    }),
  );
  const slowTask = server.registerTool(
    "slow-task",
    {
      description: "Runs as a task (io.modelcontextprotocol/tasks) for `ms` milliseconds",
      inputSchema: z.object({
        ms: z.number().optional(),
        fail: z.boolean().optional(),
        ask: z.enum(["elicitation", "sampling", "roots", "bogus", "garbled"]).optional(),
      }),
    },
    async ({ ms = 100 }) => ({
      content: [{ type: "text", text: `${process.pid}: slept ${ms} ms, not as a task` }],
    }),
  );
  // registerTool takes no `execution`; the listed tool says it runs only as a task.
  slowTask.execution = { taskSupport: "required" };
  server.registerTool(
    "task-log",
    {
      description: "The task ids this process got tasks/cancel for, or (of: update) every tasks/update",
      inputSchema: z.object({ of: z.enum(["cancel", "update"]).optional() }),
    },
    async ({ of = "cancel" }) => ({
      content: [{ type: "text", text: JSON.stringify(of === "update" ? updates : cancelled) }],
    }),
  );
  return server;
}

const [mode = "stdio", portArgument = "0"] = process.argv.slice(2);

if (mode === "stdio") {
  serveStdio(build, { legacy: "reject" });
} else if (mode === "http") {
  const handler = createMcpHandler(build, { legacy: "reject" });
  notify = handler.notify;
  serveFetchHandler((request) => handler.fetch(request), { port: Number(portArgument) });
} else {
  process.stderr.write(`unknown mode ${mode}; use stdio or http\n`);
  process.exit(2);
}
