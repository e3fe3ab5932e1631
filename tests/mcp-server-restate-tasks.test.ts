// An agent served over Streamable HTTP whose tasks are Restate runs (`restateAgentRuns` as the
// server's `tasks.runs`), called as a task by Junction's own MCP client, on a Restate server from
// npm that keeps running throughout: the run stops for an approval, the task shows it as its
// input request, the server process (which is also the Restate worker running the run) is
// SIGKILLed while the person thinks and a new one is started on the same ports, task file and
// stateKey; the answer goes to the new process, which the Restate server has handed the run to,
// and the run finishes there. The model is the notes wire fake in this process; the tool is the
// notes MCP server (over stdio, from the server process), which records each call.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { PendingToolCall } from "@junction/core";
import { notesRun, notesRuns, toolResultsPerRequest } from "@junction/durable-engines/agent-scenario";
import { freePort, type NodeProcess, startNode, waitForPort } from "@junction/durable-engines/processes";
import { type RestateServer, startRestateServer } from "@junction/durable-engines/restate-server";
import { MCP, type MCPWireMessage } from "@junction/mcp-client";
import type { AgentTaskRecord, DurableAgentRuns } from "@junction/mcp-server";
import { pendingApprovals, type RestateAgentRuns } from "@junction/restate";
import * as restateClients from "@restatedev/restate-sdk-clients";
import { afterAll, afterEach, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { storedTasks as readStoredTasks } from "./support/task-files.js";

const serverScript = fileURLToPath(new URL("./support/restate-mcp-server.ts", import.meta.url));
const STATE_KEY = "a state key that is 32 bytes long, at least";

let restate: RestateServer;
const runs = notesRuns("junction-mcp-server-restate-");
const clients: MCP[] = [];

beforeAll(async () => {
  restate = await startRestateServer();
}, 60_000);
afterAll(async () => {
  await restate?.stop();
  runs.remove();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((mcp) => mcp.close()));
  await runs.cleanUp();
});

/** The results of the client's tools/call, tasks/get and tasks/update, in the order they came, from its wire messages. */
function taskExchanges(messages: MCPWireMessage[]) {
  const sent = new Map<string | number, { method: string; params?: Record<string, unknown> }>();
  const exchanges: {
    method: string;
    params?: Record<string, unknown>;
    result: Record<string, unknown>;
    at: number;
  }[] = [];
  for (const { direction, message, at } of messages) {
    if (direction === "out" && "method" in message && "id" in message) sent.set(message.id, message);
    if (direction === "in" && "result" in message) {
      const request = sent.get(message.id);
      if (request && /^(tools\/call|tasks\/)/.test(request.method))
        exchanges.push({ method: request.method, params: request.params, result: message.result, at });
    }
  }
  return exchanges;
}

/** `tasks/get` as another client of the server sends it: a plain 2026-07-28 request over HTTP. */
async function getTask(url: string, taskId: string): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tasks/get",
      "mcp-name": taskId,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tasks/get",
      params: {
        taskId,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientInfo": { name: "observer", version: "1.0.0" },
          "io.modelcontextprotocol/clientCapabilities": {
            elicitation: {},
            extensions: { "io.modelcontextprotocol/tasks": {} },
          },
        },
      },
    }),
  });
  const text = await response.text();
  const data = text.startsWith("{")
    ? text
    : (text
        .split("\n")
        .find((line) => line.startsWith("data:"))
        ?.slice(5) ?? "{}");
  return (JSON.parse(data) as { result: Record<string, unknown> }).result;
}

/** The approval question the client's person is asked, as the task's input request. */
function approvalQuestion(argumentsDigest: string | undefined) {
  return {
    mode: "form",
    message: `The agent behind "ask_notes" wants to call the tool "save_note" of MCP source "notes-server" with:\n{\n  "text": "${notesRun.note}"\n}\nAccept to run the call, decline to refuse it.`,
    requestedSchema: {
      type: "object",
      properties: {
        note: {
          type: "string",
          title: "Note",
          description: "Optional: why you refuse the call (the agent is told).",
        },
      },
    },
    _meta: {
      "dev.junction/approval": { callId: "call_0", tool: "save_note", argumentsDigest },
    },
  };
}

/** A served notes agent's run, what the test saw of it, and the checks both transports share. */
async function notesScenario() {
  const run = await runs.next();
  const [port, workerPort] = [await freePort(), await freePort()];
  const tasksFile = join(run.files.eventsFile, "..", "tasks.json");
  const environment = (pollIntervalMs: number, name: string): Record<string, string> => ({
    ...run.environment,
    INGRESS_URL: restate.ingressUrl,
    PORT: String(port),
    WORKER_PORT: String(workerPort),
    STATE_KEY,
    TASKS_FILE: tasksFile,
    POLL_INTERVAL_MS: String(pollIntervalMs),
    SERVER_NAME: name,
    RESTATE_LOGGING: "WARN",
  });
  const storedTasks = () => readStoredTasks(tasksFile);
  /** Registers the worker's URL as the deployment once the first process listens (the same URL in the next one). */
  const register = async (output: () => string) => {
    await waitForPort(workerPort, { timeoutMs: 10_000, what: () => `the worker to listen:\n${output()}` });
    await restate.register(`http://127.0.0.1:${workerPort}`);
  };
  const seen = {
    asked: [] as unknown[],
    wire: [] as MCPWireMessage[],
    restartedAt: 0,
    record: undefined as AgentTaskRecord | undefined,
    pending: [] as PendingToolCall[],
  };
  /** In the client's elicitation handler, before the kill: what the task and the engine hold while the person is asked. */
  const whileAsked = async (request: unknown) => {
    seen.asked.push(request);
    seen.record = storedTasks()[0];
    seen.pending = await pendingApprovals({
      ingress: restateClients.connect({ url: restate.ingressUrl }),
      workflow: "notes",
      runId: seen.record!.taskId,
    });
  };

  /** What both transports check once the call came back with the agent's answer. */
  const expectOutlived = () => {
    // The task was the Restate run (the store keeps only the signed mapping), waiting for the
    // approval of save_note, which the engine listed and the client was asked, once, as the
    // task's input request (built from the engine's pending call, digests included).
    const taskId = seen.record!.taskId;
    expect(seen.record).toMatchObject({ runId: taskId, tool: "ask_notes", owner: "" });
    expect(seen.record).not.toHaveProperty("state");
    expect(seen.pending).toEqual([
      expect.objectContaining({ id: "call_0", name: "save_note", input: { text: notesRun.note }, step: 1 }),
    ]);
    const question = approvalQuestion(seen.pending[0]!.argumentsDigest);
    expect(seen.asked).toEqual([question]);

    // tasks/get, throughout: working, then waiting with the question as the input request (from
    // the first process), then (from the second, after the answer) working until completed with
    // the agent's answer. The call itself came back as the task, at once.
    const exchanges = taskExchanges(seen.wire);
    expect(exchanges[0]).toMatchObject({
      method: "tools/call",
      result: { resultType: "task", taskId, status: "working" },
    });
    const gets = exchanges.filter((exchange) => exchange.method === "tasks/get");
    expect(gets.map((get) => get.result.status).join(" ")).toMatch(
      /^(working )*(input_required )+(working )*completed$/,
    );
    const waiting = gets.filter((get) => get.result.status === "input_required");
    const key = Object.keys(waiting[0]!.result.inputRequests as object)[0]!;
    const updates = exchanges.filter((exchange) => exchange.method === "tasks/update");
    expect(updates).toHaveLength(1);
    expect(updates[0]!.at).toBeGreaterThan(seen.restartedAt);
    // The first process showed the question (the client asked its person from that poll); a poll
    // while the person was still asked may have reached either process, and showed the same.
    expect(waiting[0]!.at).toBeLessThan(seen.restartedAt);
    for (const get of waiting) {
      expect(get.result.inputRequests).toEqual({ [key]: { method: "elicitation/create", params: question } });
    }
    expect(updates[0]!.params).toMatchObject({
      taskId,
      inputResponses: { [key]: { action: "accept", content: {} } },
    });
    expect(gets.at(-1)!.at).toBeGreaterThan(seen.restartedAt);
    expect(gets.at(-1)!.result).toMatchObject({ taskId, status: "completed", statusMessage: "Done" });
    expect(gets.at(-1)!.result.result).toEqual({ content: [{ type: "text", text: notesRun.answer }] });

    // The tool ran once, with the run's idempotency key; the model was asked once per step (the
    // replayed run took step 1 from the journal); the person was notified once, across both processes.
    expect(run.events.calls()).toEqual([{ text: notesRun.note, key: `${taskId}:tool:1:call_0` }]);
    expect(toolResultsPerRequest(run.model)).toEqual([0, 1]);
    expect(run.events.notifications()).toEqual([`${taskId} 1:call_0`]);
    expect(storedTasks()).toEqual([
      expect.objectContaining({ taskId, runId: taskId, status: "completed", statusMessage: "Done" }),
    ]);
    return { taskId, question, key };
  };
  return { run, port, environment, register, seen, whileAsked, expectOutlived };
}

describe("@junction/mcp-server tasks on Restate (restateAgentRuns)", () => {
  // Checked by `tsc` (pnpm type-check): @junction/restate does not import @junction/mcp-server.
  it("is mcp-server's DurableAgentRuns by structure", () => {
    expectTypeOf<RestateAgentRuns>().toExtend<DurableAgentRuns>();
  });

  it("a task waiting for approval outlives a SIGKILL of the server process: the answer reaches the new process, which finishes the run; the tool ran once, the model was asked once per step", async () => {
    const { run, port, environment, register, seen, whileAsked, expectOutlived } = await notesScenario();
    const startServer = (name: string, pollIntervalMs: number) =>
      run.track(startNode(serverScript, environment(pollIntervalMs, name)));

    // The first server suggests the slowest poll the client follows (5 s): the restart below
    // happens while the client's person is asked, mostly between two polls (a poll that meets the
    // dead process is tried again, one that meets the new process shows the same question); the
    // client's answer goes to the new one.
    const first = startServer("first", 5_000);
    await run.events.reachReady("first", first);
    await register(first.output);
    let second: NodeProcess | undefined;
    let fromSecond: Record<string, unknown> | undefined;
    const mcp = new MCP({
      transport: "http",
      url: `http://127.0.0.1:${port}/mcp`,
      onMessage: (message) => seen.wire.push(message),
      handlers: {
        elicitation: async (request) => {
          await whileAsked(request);
          // The server process (and the Restate worker in it) dies; a new one takes over.
          await first.kill();
          second = startServer("second", 20);
          await run.events.reachReady("second", second);
          seen.restartedAt = performance.timeOrigin + performance.now();
          // The new process serves the waiting task before anyone answered: from the engine.
          fromSecond = await getTask(`http://127.0.0.1:${port}/mcp`, seen.record!.taskId);
          return { action: "accept", content: {} };
        },
      },
    });
    clients.push(mcp);
    await mcp.connect();

    expect(await mcp.callTool("ask_notes", { request: notesRun.input })).toEqual({
      content: [{ type: "text", text: notesRun.answer }],
      isError: false,
    });

    // The first process was killed by the signal, not ended by itself.
    expect(first.child.signalCode).toBe("SIGKILL");
    expect(second?.child.exitCode).toBeNull();
    const { taskId, question, key } = expectOutlived();
    expect(fromSecond).toMatchObject({
      taskId,
      status: "input_required",
      statusMessage: 'Waiting for a person to approve the call to "save_note"',
      inputRequests: { [key]: { method: "elicitation/create", params: question } },
    });
  }, 60_000);
});
