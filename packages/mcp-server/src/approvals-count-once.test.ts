import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Agent, tool } from "@junction/core";
import { scriptedModel } from "@junction/core/testing";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { rawRequest, waitForTask } from "../test/raw-request.js";
import type { MCPTaskOptions } from "./agent-tasks.js";
import { agentTool } from "./agent-tool.js";
import { createMCPServer } from "./mcp-server.js";
import { fileTaskStore, type RunningHTTPServer, serveHTTP } from "./node.js";
import { type AgentTaskRecord, InMemoryTaskStore } from "./task-store.js";

// One approval is one action: answers to a served agent's approval that race (in one process, in
// two processes sharing a task store) or are replayed run the approved call once.

const KEY = "a test key that is 32 bytes long!!";
const ACCEPT = { action: "accept", content: {} };
const running: RunningHTTPServer[] = [];
const children: ChildProcess[] = [];
const folders: string[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
  for (const child of children.splice(0)) child.kill("SIGKILL");
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

/** The vault tool: each run is recorded. `payroll` is a read the agent makes first (untouched by approval). */
function tools(runs: string[]) {
  return [
    tool({
      name: "open_vault",
      description: "Opens the vault",
      schema: z.object({ door: z.string() }),
      execute: async ({ door }) => {
        runs.push(door);
        return `opened ${door}`;
      },
    }),
    tool({
      name: "lookup_payroll",
      description: "Reads a salary",
      schema: z.object({ person: z.string() }),
      execute: async ({ person }) => `${person} earns 987654 a year`,
    }),
  ];
}

/** A keeper agent: reads the payroll, then wants to open the north door (asking first), then answers. */
function keeper(runs: string[]) {
  const provider = scriptedModel(
    Array.from({ length: 100 }, () => (request: { messages: { role: string }[] }) => {
      const results = request.messages.filter((message) => message.role === "tool").length;
      if (results === 0)
        return { toolCalls: [{ id: "p1", name: "lookup_payroll", input: { person: "Ada" } }] };
      if (results === 1) return { toolCalls: [{ id: "c1", name: "open_vault", input: { door: "north" } }] };
      return { text: "The north door is open." };
    }),
  );
  return () =>
    new Agent({
      provider,
      model: "scripted",
      tools: tools(runs),
      approval: (call) => (call.name === "open_vault" ? "ask" : "approve"),
    });
}

async function serve(runs: string[], tasks?: MCPTaskOptions) {
  return (await serveWith(runs, tasks)).running;
}

async function serveWith(runs: string[], tasks?: MCPTaskOptions) {
  const mcpServer = createMCPServer({
    name: "agents",
    version: "1.0.0",
    stateKey: KEY,
    ...(tasks ? { tasks } : {}),
    tools: [agentTool(keeper(runs), { name: "ask_keeper", description: "Asks the keeper agent" })],
  });
  const server = await serveHTTP(mcpServer);
  running.push(server);
  return { running: server, mcpServer };
}

async function startTask(url: string): Promise<string> {
  const created = await rawRequest(url, {
    method: "tools/call",
    params: {
      name: "ask_keeper",
      arguments: { request: "Open it" },
    },
  });
  expect(created.result).toMatchObject({ resultType: "task" });
  return created.result?.taskId as string;
}

describe("a served agent's approval answered as a task (2026-07-28)", () => {
  it("eight tasks/update answers sent at once resume the run once: the approved call runs once", async () => {
    const runs: string[] = [];
    const server = await serve(runs, { pollIntervalMs: 20 });
    const taskId = await startTask(server.url);
    const waiting = await waitForTask(server.url, taskId, "input_required");
    expect(Object.keys(waiting.inputRequests as object)).toEqual(["approval:2:c1"]);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        rawRequest(server.url, {
          method: "tasks/update",
          params: { taskId, inputResponses: { "approval:2:c1": ACCEPT } },
        }),
      ),
    );
    for (const answer of answers) expect(answer.error).toBeUndefined();
    const done = await waitForTask(server.url, taskId, "completed");
    expect(done.result).toMatchObject({ content: [{ type: "text", text: "The north door is open." }] });
    expect(runs).toEqual(["north"]);
  });

  it("an older, validly signed record of the task put back in the store is refused", async () => {
    const runs: string[] = [];
    const store = new InMemoryTaskStore();
    const server = await serve(runs, { pollIntervalMs: 20, store });
    const taskId = await startTask(server.url);
    await waitForTask(server.url, taskId, "input_required");
    const waiting = (await store.get(taskId)) as AgentTaskRecord;
    await rawRequest(server.url, {
      method: "tasks/update",
      params: { taskId, inputResponses: { "approval:2:c1": ACCEPT } },
    });
    const done = await waitForTask(server.url, taskId, "completed");
    expect(runs).toEqual(["north"]);
    // The waiting record, signature and all, written back over the finished one (as one with raw
    // access to the store could): the server has seen a newer revision and refuses it.
    const finished = (await store.get(taskId)) as AgentTaskRecord;
    expect(finished.revision).toBeGreaterThan(waiting.revision ?? 0);
    await store.delete(taskId);
    await store.put(waiting, null);
    const replayed = await rawRequest(server.url, {
      method: "tasks/update",
      params: {
        taskId,
        inputResponses: { "approval:2:c1": ACCEPT },
      },
    });
    expect(replayed.error).toMatchObject({
      code: -32602,
      message: expect.stringContaining(`older than revision ${finished.revision} this server has seen`),
    });
    expect(runs).toEqual(["north"]);
    expect(done.status).toBe("completed");
  });
});

/** Starts the agent-http-server fixture on `folder`; resolves with its URL. */
async function spawnServer(folder: string): Promise<string> {
  const script = fileURLToPath(new URL("../test-servers/agent-http-server.mjs", import.meta.url));
  const child = spawn(process.execPath, [script, folder], { stdio: ["ignore", "pipe", "inherit"] });
  children.push(child);
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the fixture server exited (${code}) before it listened`)));
    lines.once("line", resolve);
  });
}

describe('approvals answered by the server\'s operator (tasks.approver: "operator")', () => {
  it("the caller is never asked and its answers count for nothing; the operator's answer, sent eight times at once, runs the call once", async () => {
    const runs: string[] = [];
    const { running: server, mcpServer } = await serveWith(runs, {
      pollIntervalMs: 20,
      approver: "operator",
    });
    const taskId = await startTask(server.url);
    const waiting = await waitForTask(server.url, taskId, "input_required");
    expect(waiting.inputRequests).toBeUndefined();
    expect(waiting.statusMessage).toBe(
      'Waiting for the server\'s operator to approve the call to "open_vault"',
    );
    // A client answering under the key it could guess approves nothing.
    await rawRequest(server.url, {
      method: "tasks/update",
      params: { taskId, inputResponses: { "approval:2:c1": ACCEPT } },
    });
    expect((await rawRequest(server.url, { method: "tasks/get", params: { taskId } })).result).toMatchObject({
      status: "input_required",
    });
    expect(runs).toEqual([]);
    const listed = await mcpServer.pendingApprovals();
    expect(listed).toEqual([
      {
        taskId,
        tool: "ask_keeper",
        item: expect.objectContaining({ id: "c1", name: "open_vault", input: { door: "north" }, step: 2 }),
      },
    ]);
    const item = listed[0]?.item as NonNullable<(typeof listed)[number]>["item"];
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => mcpServer.answerApproval({ taskId, item, decision: "approve" })),
    );
    expect(answers).toContain(true);
    await waitForTask(server.url, taskId, "completed");
    expect(runs).toEqual(["north"]);
    // An answer for other arguments than the call waited with counts for nothing.
    expect(
      await mcpServer.answerApproval({
        taskId,
        item: { ...item, argumentsDigest: "0".repeat(64) },
        decision: "approve",
      }),
    ).toBe(false);
    expect(await mcpServer.pendingApprovals()).toEqual([]);
  });

  it("a plain call (no task) that needs approval ends with an isError result saying to call it as a task", async () => {
    const runs: string[] = [];
    const server = await serve(runs, { approver: "operator" });
    const answer = await rawRequest(
      server.url,
      { method: "tools/call", params: { name: "ask_keeper", arguments: { request: "Open it" } } },
      { tasks: false },
    );
    expect(answer.result).toMatchObject({
      isError: true,
      content: [{ type: "text", text: expect.stringContaining("call the tool as a task") }],
    });
    expect(runs).toEqual([]);
  });
});

describe("two server processes sharing a file task store", () => {
  it("eight answers to one approval, split between the two processes and sent at once, run the call once", async () => {
    const folder = await mkdtemp(join(tmpdir(), "junction-shared-tasks-"));
    folders.push(folder);
    const [first, second] = await Promise.all([spawnServer(folder), spawnServer(folder)]);
    const taskId = await startTask(first);
    // Either process serves the task: the store is shared.
    const waiting = await waitForTask(second, taskId, "input_required");
    expect(Object.keys(waiting.inputRequests as object)).toEqual(["approval:1:c1"]);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        rawRequest(index % 2 === 0 ? first : second, {
          method: "tasks/update",
          params: {
            taskId,
            inputResponses: { "approval:1:c1": ACCEPT },
          },
        }),
      ),
    );
    for (const answer of answers) expect(answer.error).toBeUndefined();
    const done = await waitForTask(first, taskId, "completed");
    expect(done.result).toMatchObject({ content: [{ type: "text", text: "The north door is open." }] });
    const lines = (await readFile(join(folder, "runs"), "utf8")).trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^north [0-9]+$/);
  }, 60_000);
});

describe("a served agent's approval as an input_required round (2026-07-28, no tasks)", () => {
  async function firstRound(url: string) {
    const answer = await rawRequest(
      url,
      { method: "tools/call", params: { name: "ask_keeper", arguments: { request: "Open it" } } },
      { tasks: false },
    );
    expect(answer.result).toMatchObject({ resultType: "input_required" });
    return answer.result as { requestState: string; inputRequests: Record<string, unknown> };
  }

  const retry = (url: string, requestState: string) =>
    rawRequest(
      url,
      {
        method: "tools/call",
        params: {
          name: "ask_keeper",
          arguments: { request: "Open it" },
          requestState,
          inputResponses: { "approval:2:c1": ACCEPT },
        },
      },
      { tasks: false },
    );

  it("three copies of the same retry sent at once run the call once and all get its answer, and so does a later copy", async () => {
    const runs: string[] = [];
    const server = await serve(runs);
    const { requestState, inputRequests } = await firstRound(server.url);
    expect(Object.keys(inputRequests)).toEqual(["approval:2:c1"]);
    const answers = await Promise.all([1, 2, 3].map(() => retry(server.url, requestState)));
    for (const answer of answers) {
      expect(answer.result).toMatchObject({ content: [{ type: "text", text: "The north door is open." }] });
      expect(answer.result?.isError).toBeUndefined();
    }
    expect(runs).toEqual(["north"]);
    // The round is spent: a replay within its lifetime gets the kept outcome, never a second run.
    const later = await retry(server.url, requestState);
    expect(later.result).toMatchObject({ content: [{ type: "text", text: "The north door is open." }] });
    expect(runs).toEqual(["north"]);
  });

  it("a round replayed to another server process with the same stateKey and store is refused, and runs nothing", async () => {
    const runs: string[] = [];
    const store = new InMemoryTaskStore();
    const first = await serve(runs, { store });
    const second = await serve(runs, { store });
    const { requestState } = await firstRound(first.url);
    expect((await retry(first.url, requestState)).result).toMatchObject({
      content: [{ type: "text", text: "The north door is open." }],
    });
    const replayed = await retry(second.url, requestState);
    expect(replayed.result).toMatchObject({
      isError: true,
      content: [
        { type: "text", text: expect.stringContaining("This input_required round was answered already") },
      ],
    });
    expect(runs).toEqual(["north"]);
  });

  it("what the caller holds reveals nothing of the run: the decoded requestState holds no tool result", async () => {
    const runs: string[] = [];
    const server = await serve(runs);
    const { requestState } = await firstRound(server.url);
    const decoded = requestState
      .split(".")
      .map((part) => Buffer.from(part, "base64url").toString("latin1"))
      .join("\n");
    expect(decoded).not.toContain("987654");
    expect(decoded).not.toContain("Ada");
    expect(decoded).not.toContain("lookup_payroll");
    // And it still works: the answer runs the call.
    expect((await retry(server.url, requestState)).result).toMatchObject({
      content: [{ type: "text", text: "The north door is open." }],
    });
    expect(runs).toEqual(["north"]);
  });
});

describe("fileTaskStore", () => {
  const record = (taskId: string, revision: number, status: AgentTaskRecord["status"] = "working") =>
    ({
      kind: "junction.agent-task",
      version: 1,
      revision,
      taskId,
      tool: "ask_keeper",
      owner: "",
      status,
      createdAt: "2026-12-01T00:00:00.000Z",
      lastUpdatedAt: "2026-12-01T00:00:00.000Z",
      ttlMs: 60_000,
    }) satisfies AgentTaskRecord;

  it("takes a write only over the revision it was read at, across two stores on one folder", async () => {
    const folder = await mkdtemp(join(tmpdir(), "junction-file-store-"));
    folders.push(folder);
    const [one, two] = [fileTaskStore(folder), fileTaskStore(folder)];
    expect(await one.put(record("t1", 1), null)).toBe(true);
    expect(await two.put(record("t1", 1), null)).toBe(false);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        (index % 2 ? one : two).put(record("t1", 2, "input_required"), 1),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await two.get("t1")).toMatchObject({ revision: 2, status: "input_required" });
    expect(await one.list()).toHaveLength(1);
  });

  it("never reads or writes outside its folder for a task id a client sent", async () => {
    const folder = await mkdtemp(join(tmpdir(), "junction-file-store-"));
    folders.push(folder);
    const store = fileTaskStore(join(folder, "tasks"));
    expect(await store.get("../../etc/passwd")).toBeUndefined();
    await expect(store.put(record("../escape", 1), null)).rejects.toMatchObject({
      code: "invalid-argument",
      message: expect.stringContaining('the task id "../escape" is not one this store keeps'),
    });
  });

  it("moves a one-file store of an older Junction into the folder, nothing lost", async () => {
    const folder = await mkdtemp(join(tmpdir(), "junction-file-store-"));
    folders.push(folder);
    const file = join(folder, "tasks.json");
    const { writeFile } = await import("node:fs/promises");
    const old = { ...record("t9", 0, "input_required") } as AgentTaskRecord;
    delete old.revision;
    await writeFile(file, JSON.stringify({ tasks: [old] }));
    const store = fileTaskStore(file);
    expect(await store.get("t9")).toEqual(old);
    expect(await store.put(record("t9", 1, "working"), 0)).toBe(true);
    expect(JSON.parse(await readFile(`${file}.v1.json`, "utf8"))).toEqual({ tasks: [old] });
  });
});
