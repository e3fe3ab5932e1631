// An agent served over Streamable HTTP whose tasks are DBOS runs (`dbosAgentRuns` as the server's
// `tasks.runs`), called as a task by Junction's own MCP client, on a throwaway PostgreSQL: the
// run stops for an approval, the task shows it as its input request, the server process (the
// DBOS worker) is SIGKILLed while the person thinks and a new one is started on the same
// database, port, task file and stateKey; the answer goes to the new process, which finishes
// the run. The model is the notes wire fake in this process; the tool is the notes MCP server
// (over stdio, from the server process), which records each call.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DBOSClient } from "@dbos-inc/dbos-sdk";
import type { PendingToolCall } from "@junction/core";
import { type DBOSAgentRuns, pendingApprovals } from "@junction/dbos";
import { notesRun, notesRuns, toolResultsPerRequest } from "@junction/durable-engines/agent-scenario";
import { type Postgres, startPostgres } from "@junction/durable-engines/postgres";
import { freePort, type NodeProcess, startNode } from "@junction/durable-engines/processes";
import { MCP } from "@junction/mcp-client";
import type { AgentTaskRecord, DurableAgentRuns } from "@junction/mcp-server";
import { afterAll, afterEach, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { storedTasks as readStoredTasks } from "./support/task-files.js";

const serverScript = fileURLToPath(new URL("./support/dbos-mcp-server.ts", import.meta.url));
const STATE_KEY = "a state key that is 32 bytes long, at least";

let postgres: Postgres;
const runs = notesRuns("junction-mcp-server-dbos-");
const clients: MCP[] = [];

beforeAll(async () => {
  postgres = await startPostgres();
}, 60_000);
afterAll(() => {
  postgres?.stop();
  runs.remove();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((mcp) => mcp.close()));
  await runs.cleanUp();
});

describe("@junction/mcp-server tasks on DBOS (dbosAgentRuns)", () => {
  // Checked by `tsc` (pnpm type-check): @junction/dbos does not import @junction/mcp-server.
  it("is mcp-server's DurableAgentRuns by structure", () => {
    expectTypeOf<DBOSAgentRuns>().toExtend<DurableAgentRuns>();
  });

  it("a task waiting for approval outlives a SIGKILL of the server process: the answer reaches the new process, which finishes the run; the tool ran once, the model was asked once per step", async () => {
    const databaseUrl = postgres.url("junction_mcp_server_dbos");
    const { model, environment, events, track, files } = await runs.next();
    const port = await freePort();
    const tasksFile = join(files.eventsFile, "..", "tasks.json");
    const startServer = (name: string, pollIntervalMs: number) =>
      track(
        startNode(serverScript, {
          ...environment,
          DATABASE_URL: databaseUrl,
          PORT: String(port),
          STATE_KEY,
          TASKS_FILE: tasksFile,
          POLL_INTERVAL_MS: String(pollIntervalMs),
          SERVER_NAME: name,
        }),
      );
    const storedTasks = () => readStoredTasks(tasksFile);

    // The first server suggests the slowest poll the client follows (5 s): the restart below
    // (about a second here) happens while the client's person is asked, mostly between two polls
    // (a poll that meets the dead process is tried again); the client's answer goes to the new one.
    const first = startServer("first", 5_000);
    await events.reachReady("first", first);
    let second: NodeProcess | undefined;
    const asked: unknown[] = [];
    const whileAsked: { record?: AgentTaskRecord; pending?: unknown } = {};
    const mcp = new MCP({
      transport: "http",
      url: `http://127.0.0.1:${port}/mcp`,
      handlers: {
        elicitation: async (request) => {
          asked.push(request);
          // What the task and the engine hold while the person is asked.
          whileAsked.record = storedTasks()[0];
          const dbos = await DBOSClient.create({ systemDatabaseUrl: databaseUrl });
          try {
            whileAsked.pending = await pendingApprovals({ client: dbos, runId: whileAsked.record!.taskId });
          } finally {
            await dbos.destroy();
          }
          // The server process (and the DBOS worker in it) dies; a new one takes over.
          await first.kill();
          second = startServer("second", 20);
          await events.reachReady("second", second);
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
    // The task was the DBOS run (the store keeps only the signed mapping), waiting for the
    // approval of save_note, which the engine listed and the client was asked, once, as the
    // task's input request (built from the engine's pending call, digests included).
    const taskId = whileAsked.record!.taskId;
    expect(whileAsked.record).toMatchObject({ runId: taskId, tool: "ask_notes", owner: "" });
    expect(whileAsked.record).not.toHaveProperty("state");
    const pending = whileAsked.pending as PendingToolCall[];
    expect(pending).toEqual([
      expect.objectContaining({ id: "call_0", name: "save_note", input: { text: notesRun.note }, step: 1 }),
    ]);
    expect(asked).toEqual([
      {
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
          "dev.junction/approval": {
            callId: "call_0",
            tool: "save_note",
            argumentsDigest: pending[0]!.argumentsDigest,
          },
        },
      },
    ]);

    // The tool ran once, with the run's idempotency key; the model was asked once per step (the
    // recovered run took step 1 from the journal); the person was notified once, across both processes.
    expect(events.calls()).toEqual([{ text: notesRun.note, key: `${taskId}:tool:1:call_0` }]);
    expect(toolResultsPerRequest(model)).toEqual([0, 1]);
    expect(events.notifications()).toEqual([`${taskId} 1:call_0`]);
    expect(storedTasks()).toEqual([
      expect.objectContaining({ taskId, runId: taskId, status: "completed", statusMessage: "Done" }),
    ]);
  }, 60_000);

  it("a 2025-11-25 client's task is the DBOS run too: the approval is asked during tasks/result and answered through the engine", async () => {
    const databaseUrl = postgres.url("junction_mcp_server_dbos_2025");
    const { model, environment, events, track, files } = await runs.next();
    const port = await freePort();
    const server = track(
      startNode(serverScript, {
        ...environment,
        DATABASE_URL: databaseUrl,
        PORT: String(port),
        STATE_KEY,
        TASKS_FILE: join(files.eventsFile, "..", "tasks.json"),
        POLL_INTERVAL_MS: "20",
        SERVER_NAME: "only",
      }),
    );
    await events.reachReady("only", server);
    const asked: { _meta?: Record<string, unknown> }[] = [];
    const sent: string[] = [];
    const mcp = new MCP({
      transport: "http",
      url: `http://127.0.0.1:${port}/mcp`,
      protocolVersion: "2025-11-25",
      onMessage: ({ direction, message }) => {
        if ("method" in message) sent.push(`${direction} ${message.method}`);
      },
      handlers: {
        elicitation: async (request) => {
          asked.push(request as never);
          return { action: "accept", content: {} };
        },
      },
    });
    clients.push(mcp);
    await mcp.connect();
    expect(await mcp.callTool("ask_notes", { request: notesRun.input }, { task: true })).toEqual({
      content: [{ type: "text", text: notesRun.answer }],
      isError: false,
    });
    expect(sent.indexOf("in elicitation/create")).toBeGreaterThan(sent.indexOf("out tasks/result"));
    expect(asked).toHaveLength(1);
    const meta = asked[0]!._meta!;
    const { taskId } = meta["io.modelcontextprotocol/related-task"] as { taskId: string };
    expect(meta["dev.junction/approval"]).toMatchObject({ callId: "call_0", tool: "save_note" });
    expect(events.calls()).toEqual([{ text: notesRun.note, key: `${taskId}:tool:1:call_0` }]);
    expect(toolResultsPerRequest(model)).toEqual([0, 1]);
  }, 60_000);
});
