import type { ChildProcess } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import {
  rejection,
  resultText,
  startListeningServer,
  stopProcess,
  testServer,
} from "../test/test-support.js";
import { MCP } from "./mcp.js";
import type { MCPConfig } from "./mcp-config.js";
import type { MCPWireMessage } from "./message-tap.js";

// Tasks as the 2026-07-28 io.modelcontextprotocol/tasks extension, against the v2 SDK server in
// modern-only mode (test-servers/modern-server.mjs runs `slow-task` as a task when a request
// declares the extension, and with `ask` has the task wait for input), over stdio and Streamable
// HTTP.
const serverScript = testServer("modern-server.mjs");

const open: MCP[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((mcp) => mcp.close()));
  await Promise.all(children.splice(0).map(stopProcess));
});

async function startHttp(): Promise<string> {
  const { child, url } = await startListeningServer(serverScript, ["http", "0"]);
  children.push(child);
  return url;
}

/** The task ids the server process got `tasks/cancel` for, once there are `count` of them. */
async function cancelledOnServer(mcp: MCP, count: number): Promise<string[]> {
  const end = Date.now() + 5_000;
  for (;;) {
    const ids = JSON.parse(resultText(await mcp.callTool("task-log"))) as string[];
    if (ids.length >= count || Date.now() > end) return ids;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Every tasks/update the server process received. */
async function updatesOnServer(
  mcp: MCP,
): Promise<{ taskId: string; inputResponses: unknown; requestState?: string }[]> {
  return JSON.parse(resultText(await mcp.callTool("task-log", { of: "update" })));
}

async function waitFor(check: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The answers the server's task result reports, parsed from "<pid>: <taskId> got <json>". */
function answersIn(result: { content: { type: string; text?: string }[] }): unknown {
  const match = /^\d+: task-\d+-\d+ got (.*)$/.exec(resultText(result));
  if (!match) throw new Error(`not a task result with answers: ${resultText(result)}`);
  return JSON.parse(match[1]!);
}

/** What went out and came in, as "out tools/call", "in result task" etc. */
function traffic(messages: MCPWireMessage[]): string[] {
  return messages.map(({ direction, message }) => {
    if ("method" in message) return `${direction} ${message.method}`;
    if ("result" in message) {
      const resultType = (message.result as { resultType?: string }).resultType;
      return `${direction} result ${resultType}`;
    }
    return `${direction} error`;
  });
}

const transports: [string, () => Promise<MCPConfig>][] = [
  ["stdio", async () => ({ transport: "stdio", command: process.execPath, args: [serverScript, "stdio"] })],
  ["Streamable HTTP", async () => ({ transport: "http", url: await startHttp(), sseFallback: false })],
];

describe.each(transports)("the tasks extension on a 2026-07-28 server over %s", (_, config) => {
  it("runs a task to its end through callTool: the result is the task's, progress its status message", async () => {
    const messages: MCPWireMessage[] = [];
    const mcp = new MCP({ ...(await config()), onMessage: (message) => messages.push(message) });
    open.push(mcp);
    await mcp.connect();
    expect(mcp.protocolVersion).toBe("2026-07-28");
    const progress: { progress: number; message?: string }[] = [];
    // Long enough that polls every 20 ms see the halfway status on a loaded machine too.
    const result = await mcp.callTool("slow-task", { ms: 1_500 }, { onProgress: (p) => progress.push(p) });
    expect(result.isError).toBe(false);
    expect(resultText(result)).toMatch(/^\d+: slept 1500 ms as task-\d+-\d+$/);
    // The server's status message, reported once, while the task ran.
    expect(progress.map((p) => p.message)).toEqual(["halfway"]);

    const calls = messages.filter(
      ({ direction, message }) =>
        direction === "out" && "method" in message && message.method === "tools/call",
    );
    // The extension was declared on the call (per request, in its _meta).
    expect(calls.at(-1)?.message).toMatchObject({
      params: {
        name: "slow-task",
        _meta: {
          "io.modelcontextprotocol/clientCapabilities": {
            extensions: { "io.modelcontextprotocol/tasks": {} },
          },
        },
      },
    });
    // The call was answered with a task, then polled with tasks/get until it completed.
    const seen = traffic(messages);
    const created = seen.indexOf("in result task");
    expect(created).toBeGreaterThan(-1);
    expect(seen.slice(created + 1)).toContain("out tasks/get");
    expect(seen).not.toContain("out tasks/cancel");
  });

  it("also through the proxy tool an Agent uses", async () => {
    const mcp = new MCP(await config());
    open.push(mcp);
    await mcp.connect();
    const tool = (await mcp.listTools()).find((candidate) => candidate.name === "slow-task");
    const output = await tool?.execute({ ms: 50 });
    expect(output).toMatchObject({
      content: [{ type: "text", text: expect.stringMatching(/slept 50 ms as task-/) }],
    });
  });

  it("gives a failed task's error", async () => {
    const mcp = new MCP(await config());
    open.push(mcp);
    await mcp.connect();
    const result = await mcp.callTool("slow-task", { ms: 50, fail: true });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain("the task's worker crashed");
  });

  it("cancels the task on the server (tasks/cancel) when the caller aborts", async () => {
    const controller = new AbortController();
    // Aborted once the task exists (its id came back): before that there is no task to cancel.
    const mcp = new MCP({
      ...(await config()),
      onMessage: ({ direction, message }) => {
        const result = "result" in message ? (message.result as { resultType?: string }) : undefined;
        if (direction === "in" && result?.resultType === "task") setTimeout(() => controller.abort(), 50);
      },
    });
    open.push(mcp);
    await mcp.connect();
    const call = rejection(mcp.callTool("slow-task", { ms: 10_000 }, { signal: controller.signal }));
    expect((await call).code).toBe("aborted");
    const cancelled = await cancelledOnServer(mcp, 1);
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0]).toMatch(/^task-\d+-\d+$/);
  });

  it("cancels the task on the server when the call times out", async () => {
    const mcp = new MCP(await config());
    open.push(mcp);
    await mcp.connect();
    // Long enough for the task's id to arrive first on a loaded machine: given up before then,
    // the call is cancelled (notifications/cancelled, or its HTTP stream closed) and the server's
    // SDK sends no answer, so no task id reaches the client to cancel.
    const error = await rejection(mcp.callTool("slow-task", { ms: 10_000 }, { timeoutMs: 1_000 }));
    expect(error.code).toBe("mcp-timeout");
    expect(await cancelledOnServer(mcp, 1)).toHaveLength(1);
  });

  it("answers a task's elicitation through handlers.elicitation, sends it with tasks/update, and returns the result", async () => {
    const asked: unknown[] = [];
    const messages: MCPWireMessage[] = [];
    const mcp = new MCP({
      ...(await config()),
      onMessage: (message) => messages.push(message),
      handlers: {
        elicitation: async (request) => {
          asked.push(request);
          return { action: "accept", content: { confirm: true } };
        },
      },
    });
    open.push(mcp);
    await mcp.connect();
    const progress: (string | undefined)[] = [];
    const result = await mcp.callTool(
      "slow-task",
      { ms: 200, ask: "elicitation" },
      { onProgress: (p) => progress.push(p.message) },
    );

    // The handler saw the server's request exactly, once.
    expect(asked).toEqual([
      {
        mode: "form",
        message: "Go ahead with the slow task?",
        requestedSchema: {
          type: "object",
          properties: { confirm: { type: "boolean" }, note: { type: "string", default: "none" } },
          required: ["confirm"],
        },
      },
    ]);
    // The answer as the server got it, with the schema's default applied as on any elicitation.
    const answer = { "elicitation-1": { action: "accept", content: { confirm: true, note: "none" } } };
    const updates = await updatesOnServer(mcp);
    const taskId = updates[0]?.taskId;
    expect(taskId).toMatch(/^task-\d+-\d+$/);
    // With the requestState of the task's latest answer (the tasks/get that listed the input).
    expect(updates).toEqual([{ taskId, inputResponses: answer, requestState: `${taskId}:input_required` }]);
    // The task went on and its result carries the answer.
    expect(result.isError).toBe(false);
    expect(answersIn(result)).toEqual(answer);
    expect(progress[0]).toBe("waiting for input");

    const seen = traffic(messages);
    const created = seen.indexOf("in result task");
    expect(created).toBeGreaterThan(-1);
    expect(seen.slice(created).filter((entry) => entry === "out tasks/update")).toHaveLength(1);
    expect(seen).not.toContain("out tasks/cancel");
    const update = messages.find(
      ({ direction, message }) =>
        direction === "out" && "method" in message && message.method === "tasks/update",
    );
    expect(update?.message).toMatchObject({ params: { taskId, inputResponses: answer } });
  });

  it("answers sampling through handlers.sampling and roots from the configured roots", async () => {
    const sampled: unknown[] = [];
    const mcp = new MCP({
      ...(await config()),
      roots: [{ uri: "file:///work", name: "work" }],
      handlers: {
        sampling: async (request) => {
          sampled.push(request);
          return {
            role: "assistant",
            content: { type: "text", text: "teal" },
            model: "m",
            stopReason: "endTurn",
          };
        },
      },
    });
    open.push(mcp);
    await mcp.connect();
    const sampling = await mcp.callTool("slow-task", { ms: 100, ask: "sampling" });
    expect(sampled).toEqual([
      { messages: [{ role: "user", content: { type: "text", text: "Name a colour" } }], maxTokens: 10 },
    ]);
    expect(answersIn(sampling)).toEqual({
      "sampling-1": {
        role: "assistant",
        content: { type: "text", text: "teal" },
        model: "m",
        stopReason: "endTurn",
      },
    });
    const roots = await mcp.callTool("slow-task", { ms: 100, ask: "roots" });
    expect(answersIn(roots)).toEqual({ "roots-1": { roots: [{ uri: "file:///work", name: "work" }] } });
  });

  it("without a handler for what the task asks: the task is cancelled and the call rejects naming tool and request", async () => {
    const messages: MCPWireMessage[] = [];
    const mcp = new MCP({ ...(await config()), onMessage: (message) => messages.push(message) });
    open.push(mcp);
    await mcp.connect();
    const error = await rejection(mcp.callTool("slow-task", { ms: 200, ask: "elicitation" }));
    expect(error.code).toBe("mcp-capability-missing");
    expect(error.message).toContain(
      'the task of tool "slow-task" asked for elicitation (elicitation/create, input request "elicitation-1"), and this connection has no handlers.elicitation to answer it; the task was cancelled (tasks/cancel)',
    );
    expect(error.message).toContain("(error -32021)");
    const cancelled = await cancelledOnServer(mcp, 1);
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0]).toMatch(/^task-\d+-\d+$/);
    expect(await updatesOnServer(mcp)).toEqual([]);
    expect(traffic(messages)).not.toContain("out tasks/update");
  });

  it("an abort while the user is still answering cancels the task, and the late answer is not sent", async () => {
    const asked: unknown[] = [];
    let answer: ((result: { action: "accept"; content: { confirm: boolean } }) => void) | undefined;
    const messages: MCPWireMessage[] = [];
    const mcp = new MCP({
      ...(await config()),
      onMessage: (message) => messages.push(message),
      handlers: {
        elicitation: (request) =>
          new Promise((resolve) => {
            asked.push(request);
            answer = resolve;
          }),
      },
    });
    open.push(mcp);
    await mcp.connect();
    const controller = new AbortController();
    const call = rejection(
      mcp.callTool("slow-task", { ms: 200, ask: "elicitation" }, { signal: controller.signal }),
    );
    await waitFor(() => asked.length === 1);
    controller.abort();
    expect((await call).code).toBe("aborted");
    const cancelled = await cancelledOnServer(mcp, 1);
    expect(cancelled).toHaveLength(1);

    answer?.({ action: "accept", content: { confirm: true } });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await updatesOnServer(mcp)).toEqual([]);
    expect(traffic(messages)).not.toContain("out tasks/update");
    expect(asked).toHaveLength(1);
  });

  it("a handler that fails, a request no client may be asked, or garbled inputRequests: the task is cancelled, the call gives an error result", async () => {
    const mcp = new MCP({
      ...(await config()),
      handlers: {
        elicitation: async () => {
          throw new Error("the user closed the dialog");
        },
      },
    });
    open.push(mcp);
    await mcp.connect();
    const failed = await mcp.callTool("slow-task", { ms: 100, ask: "elicitation" });
    expect(failed.isError).toBe(true);
    expect(resultText(failed)).toContain(
      'answering the task of tool "slow-task", which asked for elicitation (elicitation/create, input request "elicitation-1"), failed; the task was cancelled (tasks/cancel): ',
    );
    expect(resultText(failed)).toContain("the user closed the dialog");

    const bogus = await mcp.callTool("slow-task", { ms: 100, ask: "bogus" });
    expect(bogus.isError).toBe(true);
    expect(resultText(bogus)).toContain(
      'the task of tool "slow-task" sent an invalid input request; the task was cancelled (tasks/cancel): ',
    );
    expect(resultText(bogus)).toContain("'tools/call' is not an embedded request");

    const garbled = await mcp.callTool("slow-task", { ms: 100, ask: "garbled" });
    expect(garbled.isError).toBe(true);
    expect(resultText(garbled)).toContain(
      'the task of tool "slow-task" asked for input with inputRequests that are not an object; the task was cancelled (tasks/cancel)',
    );
    expect(await cancelledOnServer(mcp, 3)).toHaveLength(3);
    expect(await updatesOnServer(mcp)).toEqual([]);
  });
});
