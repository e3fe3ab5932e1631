import { fileURLToPath } from "node:url";
import {
  Client,
  type Transport as SDKTransport,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { spawnHTTPServer } from "../test/spawned-server.js";

// End to end: plain tool()s served as tasks (`withTaskSupport`), against the official SDK v2
// client over real stdio and Streamable HTTP, in both protocol eras: the tasks extension on
// 2026-07-28 (the answer a tasks/update), 2025-11-25 tasks (the question asked while the client
// waits on tasks/result). Progress, an elicitation answered through the task, cancellation, the
// result fetched later, forbidden and optional task support, and answers that race count once.

const script = fileURLToPath(new URL("../test-servers/task-tools-server.mjs", import.meta.url));
const TASKS = "io.modelcontextprotocol/tasks";
const RELATED = "io.modelcontextprotocol/related-task";
const ANY = z.object({}).passthrough();
const closing: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

type Transport = "stdio" | "http";
type Era = "2025-11-25" | "2026-07-28";
type Answer = Record<string, unknown>;

/** Spawns the fixture over HTTP; resolves with its URL once it prints it. */
const httpServer = () => spawnHTTPServer(script, closing);

/**
 * The official client, on one era; `tasks: false` leaves the tasks extension out (2026-07-28).
 * Elicitations (2025-11-25: asked during tasks/result) are answered with `format`, and recorded.
 */
async function connect(
  transport: Transport,
  era: Era,
  options: { tasks?: boolean; format?: string; url?: string } = {},
) {
  const capabilities = {
    elicitation: {},
    ...(era === "2026-07-28" && options.tasks !== false ? { extensions: { [TASKS]: {} } } : {}),
  };
  const client = new Client(
    { name: "sdk-v2", version: "1.0.0" },
    {
      capabilities: capabilities as never,
      versionNegotiation: era === "2026-07-28" ? { mode: { pin: era } } : { mode: "legacy" },
    },
  );
  const asked: Answer[] = [];
  client.setRequestHandler("elicitation/create", async (request) => {
    asked.push(request.params as never);
    return { action: "accept", content: { format: options.format ?? "pdf", name: "Ann" } } as never;
  });
  const progress: Answer[] = [];
  client.setNotificationHandler("notifications/progress", (notification) => {
    progress.push(notification.params as never);
  });
  const url = options.url ?? (transport === "http" ? await httpServer() : undefined);
  const wire: SDKTransport =
    url === undefined
      ? new StdioClientTransport({ command: process.execPath, args: [script] })
      : new StreamableHTTPClientTransport(new URL(url));
  await client.connect(wire);
  closing.push(() => client.close());
  return { client, asked, progress, url, send: sender(wire, capabilities) };
}

/**
 * Sends a 2026-07-28 request on the client's own transport, beside the client, and resolves with
 * its raw result: the SDK v2 client does not take a `CreateTaskResult` (`resultType: "task"`),
 * which the tasks extension answers a `tools/call` with. Its answer is taken off the transport
 * before the client sees it (ids the client never uses).
 */
function sender(wire: SDKTransport, capabilities: Answer) {
  const waiting = new Map<string, (message: Answer) => void>();
  const clientHandler = wire.onmessage;
  wire.onmessage = (message, extra) => {
    const id = (message as { id?: unknown }).id;
    const waiter = typeof id === "string" ? waiting.get(id) : undefined;
    if (waiter) waiter(message as never);
    else clientHandler?.(message, extra);
  };
  let sent = 0;
  return (method: string, params: Answer) => {
    sent += 1;
    const id = `raw-${sent}`;
    const answered = new Promise<Answer>((resolve) => waiting.set(id, resolve));
    const meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": { name: "sdk-v2", version: "1.0.0" },
      "io.modelcontextprotocol/clientCapabilities": capabilities,
    };
    void wire.send({ jsonrpc: "2.0", id, method, params: { ...params, _meta: meta } } as never);
    return answered.then((message) => {
      if (message.error)
        throw Object.assign(new Error(String((message.error as Answer).message)), message.error);
      return message.result as Answer;
    });
  };
}

const request = (client: Client, method: string, params: Answer) =>
  client.request({ method, params } as never, ANY) as Promise<Answer>;

const textOf = (result: unknown) => (result as { content?: { text: string }[] }).content?.[0]?.text;

type Connected = Awaited<ReturnType<typeof connect>>;

/** Calls `tool` as a task the era's way; resolves with the task's id. */
async function startTask(connected: Connected, era: Era, call: { name: string; arguments: Answer }) {
  const created =
    era === "2025-11-25"
      ? await request(connected.client, "tools/call", { ...call, task: { ttl: 60_000 } })
      : await connected.send("tools/call", call);
  const task = (era === "2025-11-25" ? created.task : created) as Answer;
  if (era === "2026-07-28") expect(created.resultType).toBe("task");
  expect(task.status).toBe("working");
  return task.taskId as string;
}

/** Polls tasks/get until `done` holds (bounded); resolves with that task. */
async function pollTask(client: Client, taskId: string, done: (task: Answer) => boolean) {
  let task: Answer = {};
  for (let polls = 0; polls < 500; polls++) {
    task = await request(client, "tasks/get", { taskId });
    if (done(task)) return task;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`task ${taskId} never got there; last seen: ${JSON.stringify(task)}`);
}

/** The error a request is refused with. */
async function refusal(
  promise: Promise<unknown>,
): Promise<{ code?: number; message: string; data?: unknown }> {
  try {
    await promise;
  } catch (error) {
    return error as never;
  }
  throw new Error("the request was answered, not refused");
}

describe.each([
  ["stdio", "2025-11-25"],
  ["stdio", "2026-07-28"],
  ["http", "2025-11-25"],
  ["http", "2026-07-28"],
] as const)("a tool() served as a task, %s, %s", (transport, era) => {
  it("required: runs as a task, its question answered through the task, its result fetched later", async () => {
    const connected = await connect(transport, era, { format: "pdf" });
    const { client, asked } = connected;
    const taskId = await startTask(connected, era, { name: "publish_report", arguments: { title: "Q3" } });
    let result: Answer;
    if (era === "2026-07-28") {
      const waiting = await pollTask(client, taskId, (task) => task.status === "input_required");
      expect(waiting.statusMessage).toBe("Waiting for the answer to elicitation/create (format)");
      expect(waiting.inputRequests).toEqual({
        format: {
          method: "elicitation/create",
          params: {
            message: 'Which format for "Q3"?',
            requestedSchema: {
              type: "object",
              properties: { format: { type: "string", enum: ["pdf", "html"] } },
              required: ["format"],
            },
          },
        },
      });
      const ack = await connected.send("tasks/update", {
        taskId,
        inputResponses: { format: { action: "accept", content: { format: "html" } } },
      });
      expect(ack).toMatchObject({ resultType: "complete" });
      const done = await pollTask(client, taskId, (task) => task.status === "completed");
      result = done.result as Answer;
    } else {
      // The question goes to the client waiting on tasks/result, related to the task.
      result = await request(client, "tasks/result", { taskId });
      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatchObject({ message: 'Which format for "Q3"?', _meta: { [RELATED]: { taskId } } });
      const done = await request(client, "tasks/get", { taskId });
      expect(done).toMatchObject({ taskId, status: "completed" });
    }
    const format = era === "2026-07-28" ? "html" : "pdf";
    expect(textOf(result)).toBe(`Published Q3 as ${format}`);
    expect(result.isError).not.toBe(true);
    // Fetched again later: the same result, and the tool ran once.
    const later = await request(client, "tasks/get", { taskId });
    if (era === "2026-07-28") expect(later.result).toEqual(result);
    expect(textOf(await client.callTool({ name: "publications", arguments: {} }))).toBe(
      JSON.stringify([`Q3.${format}`]),
    );
  });

  it("reports progress as the task's status message, and is cancelled: the tool sees its signal abort", async () => {
    const connected = await connect(transport, era);
    const { client } = connected;
    const taskId = await startTask(connected, era, {
      name: "count_down",
      arguments: { from: 3, wait: true },
    });
    const counted = await pollTask(
      client,
      taskId,
      (task) => task.statusMessage === "Counted down; waiting to be cancelled",
    );
    expect(counted.status).toBe("working");
    const cancelled =
      era === "2026-07-28"
        ? await connected.send("tasks/cancel", { taskId })
        : await request(client, "tasks/cancel", { taskId });
    if (era === "2026-07-28") expect(cancelled).toMatchObject({ resultType: "complete" });
    else expect(cancelled).toMatchObject({ taskId, status: "cancelled" });
    expect(await request(client, "tasks/get", { taskId })).toMatchObject({ taskId, status: "cancelled" });
    expect(textOf(await client.callTool({ name: "cancellations", arguments: {} }))).toBe("1");
    if (era === "2025-11-25") {
      const error = await refusal(request(client, "tasks/result", { taskId }));
      expect(error.message).toContain(`The task "${taskId}" was cancelled before it finished`);
    }
  });

  it("optional: a task when asked for, a plain call (with progress notifications) otherwise", async () => {
    const connected = await connect(transport, era);
    const { client, progress, url } = connected;
    const taskId = await startTask(connected, era, {
      name: "count_down",
      arguments: { from: 2, wait: false },
    });
    const done = await pollTask(client, taskId, (task) => task.status === "completed");
    if (era === "2026-07-28") expect(textOf(done.result)).toBe("Counted down from 2");
    else expect(textOf(await request(client, "tasks/result", { taskId }))).toBe("Counted down from 2");
    // Plainly: 2025-11-25 without `task`; 2026-07-28 from a client without the extension.
    const plain =
      era === "2026-07-28" ? (await connect(transport, era, { tasks: false, url })).client : client;
    const plainProgress = era === "2026-07-28" ? undefined : progress;
    const result = await request(plain, "tools/call", {
      name: "count_down",
      arguments: { from: 2, wait: false },
      _meta: { progressToken: "p1" },
    });
    expect(result.resultType === undefined || result.resultType === "complete").toBe(true);
    expect(result.taskId).toBeUndefined();
    expect(textOf(result)).toBe("Counted down from 2");
    if (plainProgress) {
      expect(plainProgress.map((report) => report.message)).toEqual(["2 left", "1 left"]);
    }
  });

  it("forbidden (the default): never a task", async () => {
    const connected = await connect(transport, era);
    const { client, url } = connected;
    if (era === "2025-11-25") {
      expect(
        (await client.listTools()).tools.map((tool) => [
          tool.name,
          tool.execution?.taskSupport ?? "forbidden",
        ]),
      ).toEqual([
        ["publish_report", "required"],
        ["count_down", "optional"],
        ["sign_up", "required"],
        ["sign_ups", "forbidden"],
        ["break_protocol", "optional"],
        ["publications", "forbidden"],
        ["cancellations", "forbidden"],
        ["echo", "forbidden"],
      ]);
      const error = await refusal(
        request(client, "tools/call", { name: "echo", arguments: { text: "hi" }, task: { ttl: 60_000 } }),
      );
      expect(error.code).toBe(-32601);
      expect(error.message).toContain(
        'The tool "echo" cannot be called as a task (its execution.taskSupport is absent, which means "forbidden"): call it without "task".',
      );
      // And a required one is refused without `task`.
      const required = await refusal(
        request(client, "tools/call", { name: "publish_report", arguments: { title: "Q3" } }),
      );
      expect(required.code).toBe(-32601);
      expect(required.message).toContain('The tool "publish_report" runs only as a task');
    } else {
      // The server decides: a forbidden tool answers plainly, a legacy `task` param changes nothing.
      const result = await connected.send("tools/call", {
        name: "echo",
        arguments: { text: "hi" },
        task: { ttl: 1 },
      });
      expect(result).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "hi" }] });
      expect(result.taskId).toBeUndefined();
      // A required one, from a client without the extension: -32021 naming it.
      const plain = (await connect(transport, era, { tasks: false, url })).client;
      const error = await refusal(
        request(plain, "tools/call", { name: "publish_report", arguments: { title: "Q3" } }),
      );
      expect(error.code).toBe(-32021);
      expect(error.message).toContain('The tool "publish_report" runs only as a task');
      expect(error.data).toEqual({ requiredCapabilities: { extensions: { [TASKS]: {} } } });
    }
  });

  it("answers sent at once count once: the question's tool goes on once, with the first answer", async () => {
    const connected = await connect(transport, era, { format: "pdf" });
    const { client } = connected;
    const taskId = await startTask(connected, era, { name: "publish_report", arguments: { title: "Q4" } });
    if (era === "2026-07-28") {
      await pollTask(client, taskId, (task) => task.status === "input_required");
      const formats = ["pdf", "html", "pdf", "html", "pdf", "html", "pdf", "html"];
      const acks = await Promise.all(
        formats.map((format) =>
          connected.send("tasks/update", {
            taskId,
            inputResponses: { format: { action: "accept", content: { format } } },
          }),
        ),
      );
      for (const ack of acks) expect(ack).toMatchObject({ resultType: "complete" });
    } else {
      // Several clients' worth of tasks/result at once on one session: the question is asked once.
      const results = await Promise.all(
        Array.from({ length: 4 }, () => request(client, "tasks/result", { taskId })),
      );
      for (const result of results) expect(textOf(result)).toBe("Published Q4 as pdf");
    }
    const done = await pollTask(client, taskId, (task) => task.status === "completed");
    const published = JSON.parse(
      textOf(await client.callTool({ name: "publications", arguments: {} })) ?? "[]",
    );
    expect(published).toHaveLength(1);
    expect(["Q4.pdf", "Q4.html"]).toContain(published[0]);
    if (era === "2026-07-28")
      expect(textOf(done.result)).toBe(`Published ${published[0].replace(".", " as ")}`);
    // A late answer changes nothing.
    if (era === "2026-07-28") {
      await request(client, "tasks/update", {
        taskId,
        inputResponses: { format: { action: "accept", content: { format: "html" } } },
      });
      expect(await request(client, "tasks/get", { taskId })).toMatchObject({
        status: "completed",
        result: done.result,
      });
    }
  });

  it("a tool that asks before its task: its question an input_required round, then one task, however many retries", async () => {
    const connected = await connect(transport, era);
    const { client, asked } = connected;
    if (era === "2025-11-25") {
      // A 2025-11-25 task starts with the call: the question is the task's, asked through tasks/result.
      const taskId = await startTask(connected, era, { name: "sign_up", arguments: {} });
      expect(textOf(await request(client, "tasks/result", { taskId }))).toBe("Signed up Ann");
      expect(asked).toMatchObject([{ message: "Your name?", _meta: { [RELATED]: { taskId } } }]);
      expect(textOf(await client.callTool({ name: "sign_ups", arguments: {} }))).toBe(
        JSON.stringify(["Ann"]),
      );
      return;
    }
    const round = await connected.send("tools/call", { name: "sign_up", arguments: {} });
    expect(round).toMatchObject({
      resultType: "input_required",
      inputRequests: { name: { method: "elicitation/create", params: { message: "Your name?" } } },
    });
    expect(round.taskId).toBeUndefined();
    const retry = {
      name: "sign_up",
      arguments: {},
      inputResponses: { name: { action: "accept", content: { name: "Ada" } } },
      requestState: round.requestState,
    };
    const created = await Promise.all(Array.from({ length: 4 }, () => connected.send("tools/call", retry)));
    const taskIds = new Set(created.map((result) => result.taskId));
    expect(created.map((result) => result.resultType)).toEqual(["task", "task", "task", "task"]);
    expect(taskIds.size).toBe(1);
    expect(created[0]).not.toHaveProperty("requestState");
    const [taskId] = [...taskIds] as string[];
    const done = await pollTask(client, taskId as string, (task) => task.status === "completed");
    expect(textOf(done.result)).toBe("Signed up Ada");
    expect(textOf(await client.callTool({ name: "sign_ups", arguments: {} }))).toBe(JSON.stringify(["Ada"]));
  });

  it("a ProtocolError thrown by the tool fails the task with that error, and no result", async () => {
    const connected = await connect(transport, era);
    const { client } = connected;
    const taskId = await startTask(connected, era, { name: "break_protocol", arguments: {} });
    const failed = await pollTask(client, taskId, (task) => task.status === "failed");
    expect(failed.statusMessage).toBe("Failed: the backend went away");
    if (era === "2026-07-28") {
      expect(failed.error).toEqual({ code: -32603, message: "the backend went away" });
      expect(failed).not.toHaveProperty("result");
    } else {
      const error = await refusal(request(client, "tasks/result", { taskId }));
      expect(error.code).toBe(-32603);
      expect(error.message).toContain("the backend went away");
    }
  });
});
