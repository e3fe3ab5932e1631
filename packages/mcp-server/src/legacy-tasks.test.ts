import { fileURLToPath } from "node:url";
import { Agent, tool } from "@junction/core";
import { scriptedModel } from "@junction/core/testing";
import { MCP, type MCPWireMessage } from "@junction/mcp-client";
import { Client, StreamableHTTPClientTransport, type Transport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { MCPTaskOptions } from "./agent-tasks.js";
import { agentTool } from "./agent-tool.js";
import { createMCPServer } from "./mcp-server.js";
import { type RunningHTTPServer, serveHTTP } from "./node.js";

// Served agents as 2025-11-25 tasks (task-augmented tools/call, tasks/get, tasks/result,
// tasks/list, tasks/cancel) over Streamable HTTP sessions, called by Junction's own client and by
// the official SDK v2 client: an approval inside the run puts the task in input_required and the
// server asks it as an elicitation related to the task while the client waits on tasks/result.

const running: RunningHTTPServer[] = [];
const closing: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((item) => item.close()));
  await Promise.all(running.splice(0).map((server) => server.close()));
});

const KEY = "a test key that is 32 bytes long!!";
const RELATED = "io.modelcontextprotocol/related-task";
const ANY = z.object({}).passthrough();

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

/** A keeper agent that wants to open the north door (asking first), then answers. */
function keeper(runs: string[], answer = "The north door is open.") {
  // One script for the run's legs: each leg (the request, the resume) gets a fresh agent.
  const provider = scriptedModel([
    { toolCalls: [{ id: "c1", name: "open_vault", input: { door: "north" } }] },
    { text: answer },
  ]);
  return () =>
    new Agent({
      provider,
      model: "scripted",
      tools: [vault(runs)],
      approval: () => "ask",
    });
}

/** Two bearer tokens, two clients: a task is its creator's only. */
const AUTH = {
  resource: "http://127.0.0.1/mcp",
  authorizationServers: ["https://auth.example"],
  verifyToken: (token: string) =>
    token === "token-a" || token === "token-b"
      ? {
          token,
          clientId: token.slice(-1),
          scopes: [],
          expiresAt: Math.floor(Date.now() / 1000) + 3600,
          resource: new URL("http://127.0.0.1/mcp"),
        }
      : undefined,
};

/** A plain tool served beside the agent: not task-capable. */
function echo(calls: string[]) {
  return tool({
    name: "echo",
    description: "Echoes its text",
    schema: z.object({ text: z.string() }),
    execute: async ({ text }) => {
      calls.push(text);
      return text;
    },
  });
}

async function serveAgent(
  agent: () => Agent,
  tasks: MCPTaskOptions = { pollIntervalMs: 20 },
  http: { auth?: typeof AUTH; echoCalls?: string[] } = {},
) {
  const { echoCalls, ...options } = http;
  const server = await serveHTTP(
    createMCPServer({
      name: "agents",
      version: "1.0.0",
      stateKey: KEY,
      tasks,
      tools: [
        agentTool(agent, { name: "ask_keeper", description: "Asks the keeper agent" }),
        ...(echoCalls ? [echo(echoCalls)] : []),
      ],
    }),
    options,
  );
  running.push(server);
  return server;
}

/** The official SDK v2 client on a 2025-11-25 session, answering elicitations with `answer`. */
async function sdkClient(
  url: string | Transport,
  answer?: (request: { params: Record<string, unknown> }) => unknown,
  token?: string,
) {
  const client = new Client(
    { name: "sdk-v2", version: "1.0.0" },
    { capabilities: answer ? { elicitation: {} } : {}, versionNegotiation: { mode: "legacy" } },
  );
  if (answer) {
    client.setRequestHandler("elicitation/create", async (request) => answer(request as never) as never);
  }
  const requestInit = token ? { headers: { authorization: `Bearer ${token}` } } : undefined;
  await client.connect(
    typeof url === "string"
      ? new StreamableHTTPClientTransport(new URL(url), requestInit ? { requestInit } : {})
      : url,
  );
  closing.push(client);
  return client;
}

async function waitForStatus(client: Client, taskId: string, status: string) {
  for (let polls = 0; polls < 200; polls++) {
    const task = await client.request({ method: "tasks/get", params: { taskId } } as never, ANY);
    if ((task as { status?: string }).status === status) return task as Record<string, unknown>;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`task ${taskId} never reached ${status}`);
}

describe("a served agent as a 2025-11-25 task, with Junction's client", () => {
  it("is offered as a task, returns one, and the approval comes as a related elicitation during tasks/result", async () => {
    const runs: string[] = [];
    const server = await serveAgent(keeper(runs));
    const messages: MCPWireMessage[] = [];
    const asked: Record<string, unknown>[] = [];
    const mcp = new MCP({
      transport: "http",
      url: server.url,
      protocolVersion: "2025-11-25",
      onMessage: (message) => messages.push(message),
      handlers: {
        elicitation: async (request) => {
          asked.push(request as never);
          return { action: "accept", content: {} };
        },
      },
    });
    closing.push(mcp);
    await mcp.connect();
    expect(mcp.capabilities?.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
    expect((await mcp.listServerTools()).map((t) => [t.name, t.execution])).toEqual([
      ["ask_keeper", { taskSupport: "optional" }],
    ]);
    const result = await mcp.callTool("ask_keeper", { request: "Open the north door" }, { task: true });
    expect(result).toEqual({ content: [{ type: "text", text: "The north door is open." }], isError: false });
    expect(runs).toEqual(["north"]);
    const sent = messages.map(({ direction, message }) =>
      "method" in message
        ? `${direction} ${message.method}`
        : `${direction} ${"result" in message ? "result" : "error"}`,
    );
    const call = messages.find(({ message }) => "method" in message && message.method === "tools/call")
      ?.message as { params: Record<string, unknown> };
    expect(call.params.task).toEqual({});
    const created = messages.find(
      ({ direction, message }) =>
        direction === "in" && "result" in message && "task" in (message.result as object),
    )?.message as unknown as { result: { task: Record<string, unknown> } };
    const taskId = created.result.task.taskId as string;
    expect(created.result.task).toMatchObject({ status: "working", ttl: 604_800_000, pollInterval: 20 });
    expect(sent).toContain("out tasks/result");
    expect(sent.indexOf("in elicitation/create")).toBeGreaterThan(sent.indexOf("out tasks/result"));
    expect(asked).toEqual([
      {
        mode: "form",
        message:
          'The agent behind "ask_keeper" wants to call the tool "open_vault" with:\n{\n  "door": "north"\n}\n' +
          "Accept to run the call, decline to refuse it.",
        requestedSchema: expect.any(Object),
        _meta: {
          "dev.junction/approval": {
            callId: "c1",
            tool: "open_vault",
            argumentsDigest: expect.stringMatching(/^[0-9a-f]{64}$/),
          },
          [RELATED]: { taskId },
        },
      },
    ]);
  });

  it("runs the call plainly when the client does not ask for a task", async () => {
    const runs: string[] = [];
    const server = await serveAgent(keeper(runs));
    const mcp = new MCP({
      transport: "http",
      url: server.url,
      protocolVersion: "2025-11-25",
      handlers: { elicitation: async () => ({ action: "decline" }) },
    });
    closing.push(mcp);
    await mcp.connect();
    expect(await mcp.callTool("ask_keeper", { request: "Open the north door" })).toEqual({
      content: [{ type: "text", text: "The north door is open." }],
      isError: false,
    });
    expect(runs).toEqual([]);
  });
});

describe("a served agent as a 2025-11-25 task, with the SDK v2 client", () => {
  it("creates the task, lists it, and tasks/result blocks through the approval to the CallToolResult", async () => {
    const runs: string[] = [];
    const server = await serveAgent(keeper(runs));
    const asked: Record<string, unknown>[] = [];
    const client = await sdkClient(server.url, (request) => {
      asked.push(request.params);
      return { action: "accept", content: {} };
    });
    const created = (await client.request(
      {
        method: "tools/call",
        params: { name: "ask_keeper", arguments: { request: "Open the north door" }, task: { ttl: 60_000 } },
      } as never,
      ANY,
    )) as { task: Record<string, unknown> };
    expect(created.task).toMatchObject({ status: "working", ttl: 60_000, pollInterval: 20 });
    const taskId = created.task.taskId as string;
    const waiting = await waitForStatus(client, taskId, "input_required");
    expect(waiting).toMatchObject({
      taskId,
      status: "input_required",
      statusMessage: 'Waiting for a person to approve the call to "open_vault"',
    });
    const listed = (await client.request({ method: "tasks/list", params: {} } as never, ANY)) as {
      tasks: { taskId: string; status: string }[];
    };
    expect(listed.tasks.map((task) => [task.taskId, task.status])).toEqual([[taskId, "input_required"]]);
    const result = await client.request({ method: "tasks/result", params: { taskId } } as never, ANY);
    expect(result).toEqual({
      content: [{ type: "text", text: "The north door is open." }],
      _meta: { [RELATED]: { taskId } },
    });
    expect(runs).toEqual(["north"]);
    expect(asked).toHaveLength(1);
    expect(asked[0]?._meta).toMatchObject({ [RELATED]: { taskId } });
    expect(await client.request({ method: "tasks/get", params: { taskId } } as never, ANY)).toMatchObject({
      status: "completed",
    });
    // An ended task cannot be cancelled (-32602).
    await expect(
      client.request({ method: "tasks/cancel", params: { taskId } } as never, ANY),
    ).rejects.toMatchObject({ code: -32602 });
  });

  it("over stdio: the spawned server's task asks through tasks/result and ends with the agent's answer", async () => {
    const script = fileURLToPath(new URL("../test-servers/agent-stdio-server.mjs", import.meta.url));
    const asked: Record<string, unknown>[] = [];
    const client = await sdkClient(
      new StdioClientTransport({ command: process.execPath, args: [script, "tasks"] }),
      (request) => {
        asked.push(request.params);
        return { action: "accept", content: {} };
      },
    );
    const created = (await client.request(
      {
        method: "tools/call",
        params: { name: "ask_keeper", arguments: { request: "Open it" }, task: {} },
      } as never,
      ANY,
    )) as { task: { taskId: string; status: string } };
    expect(created.task.status).toBe("working");
    const { taskId } = created.task;
    expect(await client.request({ method: "tasks/result", params: { taskId } } as never, ANY)).toEqual({
      content: [{ type: "text", text: "The north door is open." }],
      _meta: { [RELATED]: { taskId } },
    });
    expect(asked.map((params) => params._meta)).toEqual([expect.objectContaining({ [RELATED]: { taskId } })]);
  });

  it("a declined approval is a denial the agent is told; the tool never runs", async () => {
    const runs: string[] = [];
    const server = await serveAgent(keeper(runs, "I may not open it."));
    const client = await sdkClient(server.url, () => ({ action: "decline", content: { note: "not today" } }));
    const created = (await client.request(
      {
        method: "tools/call",
        params: { name: "ask_keeper", arguments: { request: "Open it" }, task: {} },
      } as never,
      ANY,
    )) as { task: { taskId: string } };
    const result = await client.request(
      { method: "tasks/result", params: { taskId: created.task.taskId } } as never,
      ANY,
    );
    expect(result).toEqual({
      content: [{ type: "text", text: "I may not open it." }],
      _meta: { [RELATED]: { taskId: created.task.taskId } },
    });
    expect(runs).toEqual([]);
  });

  it("a client that cannot be asked gets an error from tasks/result; the task waits, and cancelling ends it", async () => {
    const runs: string[] = [];
    const server = await serveAgent(keeper(runs));
    const client = await sdkClient(server.url);
    const created = (await client.request(
      {
        method: "tools/call",
        params: { name: "ask_keeper", arguments: { request: "Open it" }, task: {} },
      } as never,
      ANY,
    )) as { task: { taskId: string } };
    const taskId = created.task.taskId;
    await waitForStatus(client, taskId, "input_required");
    await expect(
      client.request({ method: "tasks/result", params: { taskId } } as never, ANY),
    ).rejects.toMatchObject({
      code: -32600,
      message: expect.stringContaining(
        "needs its client's answer to elicitation/create (an approval, or a request of an MCP server the agent uses), and this client declared no elicitation capability at initialize",
      ),
    });
    expect(await client.request({ method: "tasks/get", params: { taskId } } as never, ANY)).toMatchObject({
      status: "input_required",
    });
    expect(await client.request({ method: "tasks/cancel", params: { taskId } } as never, ANY)).toMatchObject({
      taskId,
      status: "cancelled",
    });
    await expect(
      client.request({ method: "tasks/result", params: { taskId } } as never, ANY),
    ).rejects.toMatchObject({ code: -32600 });
    await expect(
      client.request({ method: "tasks/get", params: { taskId: "not-a-task" } } as never, ANY),
    ).rejects.toMatchObject({ code: -32602 });
    expect(runs).toEqual([]);
  });

  // With a poll interval longer than the test may take, the slot given back must wake the kept answer itself.
  it.each([20, 600_000])(
    "an approval answered beyond maxConcurrentRuns is kept, not asked again: the run waits for a slot, then resumes with it (poll interval %i ms)",
    async (pollIntervalMs) => {
      // The approved tool waits until let go: the first resumed run holds the only slot meanwhile.
      let letGo!: () => void;
      const gate = new Promise<void>((resolve) => {
        letGo = resolve;
      });
      const opened: string[] = [];
      let going = 0;
      let most = 0;
      const vaultThatWaits = tool({
        name: "open_vault",
        description: "Opens the vault",
        schema: z.object({ door: z.string() }),
        execute: async ({ door }) => {
          opened.push(door);
          most = Math.max(most, ++going);
          await gate;
          going--;
          return `opened ${door}`;
        },
      });
      const server = await serveAgent(
        () =>
          new Agent({
            provider: scriptedModel([
              { toolCalls: [{ id: "c1", name: "open_vault", input: { door: "north" } }] },
              { text: "The north door is open." },
            ]),
            model: "scripted",
            tools: [vaultThatWaits],
            approval: () => "ask",
          }),
        { maxConcurrentRuns: 1, pollIntervalMs },
      );
      const asked: string[] = [];
      const client = await sdkClient(server.url, (request) => {
        asked.push((request.params._meta as Record<string, { taskId: string }>)[RELATED]?.taskId as string);
        return { action: "accept", content: {} };
      });
      const start = async () => {
        const created = (await client.request(
          {
            method: "tools/call",
            params: { name: "ask_keeper", arguments: { request: "Open the north door" }, task: {} },
          } as never,
          ANY,
        )) as { task: { taskId: string } };
        await waitForStatus(client, created.task.taskId, "input_required");
        return created.task.taskId;
      };
      const first = await start();
      const second = await start();
      const result = (taskId: string) =>
        client.request({ method: "tasks/result", params: { taskId } } as never, ANY);
      const firstResult = result(first);
      while (opened.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      const secondResult = result(second);
      while (asked.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
      // Answered, and refused by the limit while the first run goes: the second task still waits.
      for (let polls = 0; polls < 10; polls++) {
        expect(
          await client.request({ method: "tasks/get", params: { taskId: second } } as never, ANY),
        ).toMatchObject({ status: "input_required" });
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(opened).toEqual(["north"]);
      letGo();
      const done = { content: [{ type: "text", text: "The north door is open." }] };
      expect(await firstResult).toEqual({ ...done, _meta: { [RELATED]: { taskId: first } } });
      expect(await secondResult).toEqual({ ...done, _meta: { [RELATED]: { taskId: second } } });
      // The kept answer resumed the second run: its person was asked once.
      expect(asked).toEqual([first, second]);
      expect(opened).toEqual(["north", "north"]);
      expect(most).toBe(1);
    },
  );
});

describe("2025-11-25 tasks belong to the client that created them", () => {
  it("another authenticated client can neither see, answer nor cancel the task", async () => {
    const runs: string[] = [];
    const server = await serveAgent(keeper(runs), { pollIntervalMs: 20 }, { auth: AUTH });
    const owner = await sdkClient(server.url, undefined, "token-a");
    const created = (await owner.request(
      {
        method: "tools/call",
        params: { name: "ask_keeper", arguments: { request: "Open it" }, task: {} },
      } as never,
      ANY,
    )) as { task: { taskId: string } };
    const { taskId } = created.task;
    await waitForStatus(owner, taskId, "input_required");
    // The other client would say yes to anything: it is never asked.
    const asked: unknown[] = [];
    const other = await sdkClient(
      server.url,
      (request) => {
        asked.push(request);
        return { action: "accept", content: {} };
      },
      "token-b",
    );
    for (const method of ["tasks/get", "tasks/result", "tasks/cancel"]) {
      await expect(other.request({ method, params: { taskId } } as never, ANY)).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining(`Unknown task "${taskId}".`),
      });
    }
    expect(await other.request({ method: "tasks/list", params: {} } as never, ANY)).toEqual({ tasks: [] });
    expect(asked).toEqual([]);
    expect(runs).toEqual([]);
    expect(await owner.request({ method: "tasks/get", params: { taskId } } as never, ANY)).toMatchObject({
      status: "input_required",
    });
    await owner.request({ method: "tasks/cancel", params: { taskId } } as never, ANY);
  });
});

describe("2025-11-25 tasks without authentication belong to their session", () => {
  it("a second unauthenticated session can neither list, read, answer, cancel nor take the result of the first one's task", async () => {
    const runs: string[] = [];
    const server = await serveAgent(keeper(runs), { pollIntervalMs: 20 });
    const owner = await sdkClient(server.url);
    const created = (await owner.request(
      {
        method: "tools/call",
        params: { name: "ask_keeper", arguments: { request: "Open it" }, task: {} },
      } as never,
      ANY,
    )) as { task: { taskId: string } };
    const { taskId } = created.task;
    await waitForStatus(owner, taskId, "input_required");
    // The second session would approve anything: it is never asked, and sees nothing.
    const asked: unknown[] = [];
    const other = await sdkClient(server.url, (request) => {
      asked.push(request);
      return { action: "accept", content: {} };
    });
    expect(await other.request({ method: "tasks/list", params: {} } as never, ANY)).toEqual({ tasks: [] });
    for (const method of ["tasks/get", "tasks/result", "tasks/cancel"]) {
      await expect(other.request({ method, params: { taskId } } as never, ANY)).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining(`Unknown task "${taskId}".`),
      });
    }
    expect(asked).toEqual([]);
    expect(runs).toEqual([]);
    const listed = (await owner.request({ method: "tasks/list", params: {} } as never, ANY)) as {
      tasks: { taskId: string; status: string }[];
    };
    expect(listed.tasks).toEqual([expect.objectContaining({ taskId, status: "input_required" })]);
    await owner.request({ method: "tasks/cancel", params: { taskId } } as never, ANY);
  });
});

describe("2025-11-25 task calls that cannot run", () => {
  it("a task-augmented call to a tool without execution.taskSupport is refused with -32601; the tool never runs", async () => {
    const calls: string[] = [];
    const server = await serveAgent(keeper([]), { pollIntervalMs: 20 }, { echoCalls: calls });
    const client = await sdkClient(server.url);
    const listed = (await client.request({ method: "tools/list", params: {} } as never, ANY)) as {
      tools: { name: string; execution?: unknown }[];
    };
    expect(listed.tools.find((t) => t.name === "echo")?.execution).toBeUndefined();
    await expect(
      client.request(
        { method: "tools/call", params: { name: "echo", arguments: { text: "hi" }, task: {} } } as never,
        ANY,
      ),
    ).rejects.toMatchObject({
      code: -32601,
      message: expect.stringContaining(
        'The tool "echo" cannot be called as a task (its execution.taskSupport is absent, which means "forbidden"): call it without "task".',
      ),
    });
    expect(calls).toEqual([]);
    // Called plainly, it runs.
    expect(
      await client.request(
        { method: "tools/call", params: { name: "echo", arguments: { text: "hi" } } } as never,
        ANY,
      ),
    ).toEqual({ content: [{ type: "text", text: "hi" }] });
    expect(calls).toEqual(["hi"]);
  });

  it("invalid arguments make a failed task whose result is the plain call's field-naming tool error (SDK v2 client)", async () => {
    const runs: string[] = [];
    const server = await serveAgent(keeper(runs));
    const client = await sdkClient(server.url);
    const plain = (await client.request(
      { method: "tools/call", params: { name: "ask_keeper", arguments: { request: 42 } } } as never,
      ANY,
    )) as { content: { text: string }[]; isError?: boolean };
    expect(plain.isError).toBe(true);
    expect(plain.content[0]?.text).toContain("request");
    const created = (await client.request(
      {
        method: "tools/call",
        params: { name: "ask_keeper", arguments: { request: 42 }, task: {} },
      } as never,
      ANY,
    )) as { task: { taskId: string; status: string; statusMessage: string } };
    const { taskId } = created.task;
    expect(created.task.status).toBe("failed");
    expect(created.task.statusMessage).toBe(plain.content[0]?.text);
    expect(await client.request({ method: "tasks/get", params: { taskId } } as never, ANY)).toMatchObject({
      taskId,
      status: "failed",
    });
    expect(await client.request({ method: "tasks/result", params: { taskId } } as never, ANY)).toEqual({
      ...plain,
      _meta: { [RELATED]: { taskId } },
    });
    expect(runs).toEqual([]);
  });

  it("invalid arguments on a task call come back to Junction's client as the plain call's tool error", async () => {
    const server = await serveAgent(keeper([]));
    const mcp = new MCP({ transport: "http", url: server.url, protocolVersion: "2025-11-25" });
    closing.push(mcp);
    await mcp.connect();
    const plain = await mcp.callTool("ask_keeper", { request: 42 });
    expect(plain.isError).toBe(true);
    expect(await mcp.callTool("ask_keeper", { request: 42 }, { task: true })).toEqual(plain);
  });
});

describe("notifications/tasks/status (2025-11-25)", () => {
  it("over stdio: the creating client is told each status change, the full Task each time", async () => {
    const script = fileURLToPath(new URL("../test-servers/agent-stdio-server.mjs", import.meta.url));
    const notified: Record<string, unknown>[] = [];
    const client = await sdkClient(
      new StdioClientTransport({ command: process.execPath, args: [script, "tasks"] }),
      () => ({ action: "accept", content: {} }),
    );
    client.setNotificationHandler("notifications/tasks/status" as never, (notification: never) => {
      notified.push((notification as { params: Record<string, unknown> }).params);
    });
    const created = (await client.request(
      {
        method: "tools/call",
        params: { name: "ask_keeper", arguments: { request: "Open it" }, task: {} },
      } as never,
      ANY,
    )) as { task: { taskId: string; createdAt: string } };
    const { taskId, createdAt } = created.task;
    await client.request({ method: "tasks/result", params: { taskId } } as never, ANY);
    expect(notified.map((params) => [params.taskId, params.status])).toEqual([
      [taskId, "input_required"],
      [taskId, "working"],
      [taskId, "completed"],
    ]);
    expect(notified[2]).toEqual({
      taskId,
      status: "completed",
      statusMessage: "Done",
      createdAt,
      lastUpdatedAt: expect.any(String),
      ttl: 604_800_000,
      pollInterval: 20,
    });
  });

  it("Junction's client wakes its tasks/get polling on them instead of waiting out the poll interval", async () => {
    const script = fileURLToPath(new URL("../test-servers/agent-stdio-server.mjs", import.meta.url));
    const messages: { line: string; at: number }[] = [];
    const mcp = new MCP({
      transport: "stdio",
      command: process.execPath,
      // The server suggests polling every minute: the client waits at most 5 s between polls.
      args: [script, "tasks", "60000"],
      protocolVersion: "2025-11-25",
      onMessage: ({ direction, message }) =>
        messages.push({
          line: "method" in message ? `${direction} ${message.method}` : `${direction} answer`,
          at: performance.now(),
        }),
      handlers: { elicitation: async () => ({ action: "accept", content: {} }) },
    });
    closing.push(mcp);
    await mcp.connect();
    expect(await mcp.callTool("ask_keeper", { request: "Open it" }, { task: true })).toEqual({
      content: [{ type: "text", text: "The north door is open." }],
      isError: false,
    });
    const sent = messages.map(({ line }) => line);
    // The task went input_required at once; told so, the client polled then, not a poll interval later.
    const told = sent.indexOf("in notifications/tasks/status");
    const polled = sent.indexOf("out tasks/get");
    expect(told).toBeGreaterThan(sent.indexOf("out tools/call"));
    expect(polled).toBeGreaterThan(told);
    // Between the two messages this process saw, not the whole call (a busy machine's spawn and
    // connect are not the client's waiting): well under the 5 s a poll interval would have taken.
    expect(messages[polled]!.at - messages[told]!.at).toBeLessThan(2_500);
  });

  it("over HTTP: Junction's client gets them on its session's stream; another session is not told", async () => {
    const server = await serveAgent(keeper([]));
    const messages: MCPWireMessage[] = [];
    const mcp = new MCP({
      transport: "http",
      url: server.url,
      protocolVersion: "2025-11-25",
      onMessage: (message) => messages.push(message),
      handlers: { elicitation: async () => ({ action: "accept", content: {} }) },
    });
    closing.push(mcp);
    await mcp.connect();
    const bystander: unknown[] = [];
    const other = await sdkClient(server.url);
    other.setNotificationHandler("notifications/tasks/status" as never, (notification: never) => {
      bystander.push(notification);
    });
    const notified = () =>
      messages.flatMap(({ direction, message }) =>
        direction === "in" && "method" in message && message.method === "notifications/tasks/status"
          ? [(message as unknown as { params: { taskId: string; status: string } }).params]
          : [],
      );
    expect(await mcp.callTool("ask_keeper", { request: "Open it" }, { task: true })).toEqual({
      content: [{ type: "text", text: "The north door is open." }],
      isError: false,
    });
    const created = messages.find(
      ({ direction, message }) =>
        direction === "in" && "result" in message && "task" in (message.result as object),
    )?.message as unknown as { result: { task: { taskId: string } } };
    const { taskId } = created.result.task;
    await expect
      .poll(() => notified().map((params) => [params.taskId, params.status]))
      .toEqual([
        [taskId, "input_required"],
        [taskId, "working"],
        [taskId, "completed"],
      ]);
    expect(bystander).toEqual([]);
  });
});
