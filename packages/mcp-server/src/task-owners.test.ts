import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, tool } from "@junction/core";
import { scriptedModel } from "@junction/core/testing";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { rawRequest } from "../test/raw-request.js";
import { agentTool } from "./agent-tool.js";
import { createMCPServer } from "./mcp-server.js";
import { fileTaskStore, type RunningHTTPServer, serveHTTP } from "./node.js";
import { servedContext } from "./served-context.js";
import { withTaskSupport } from "./task-support.js";

// 2026-07-28 tasks (the tasks extension) belong to the authenticated client that created them,
// over real Streamable HTTP with two bearer tokens: another client that learns a task's id can
// neither read, answer nor cancel it, not even the questions its run asks (`servedContext()`).

const running: RunningHTTPServer[] = [];
const folders: string[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

const KEY = "a test key that is 32 bytes long!!";

/** Two bearer tokens, two clients (`a` and `b`). */
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

/** A task-only tool that asks its client which format, then publishes once per run. */
async function servePublisher(published: string[]) {
  const server = await serveHTTP(
    createMCPServer({
      name: "publisher",
      version: "1.0.0",
      stateKey: KEY,
      tasks: { pollIntervalMs: 20 },
      tools: [
        withTaskSupport(
          tool({
            name: "publish_report",
            description: "Asks the format, then publishes the report",
            schema: z.object({ title: z.string() }),
            execute: async ({ title }, context) => {
              const served = servedContext(context);
              if (!served) throw new Error("publish_report: not called through the server");
              const format = await served.elicit(
                {
                  message: `Which format for "${title}"?`,
                  requestedSchema: {
                    type: "object",
                    properties: { format: { type: "string", enum: ["pdf", "html"] } },
                    required: ["format"],
                  },
                },
                { key: "format" },
              );
              const chosen = String(format.content?.format);
              published.push(`${title}.${chosen}`);
              return `Published ${title} as ${chosen}`;
            },
          }),
          "required",
        ),
      ],
    }),
    { auth: AUTH },
  );
  running.push(server);
  return server;
}

/** Polls `tasks/get` as the client of `token` until the task has `status` (bounded: 500 polls). */
async function ownTask(
  url: string,
  taskId: string,
  { status, token = "token-a" }: { status: string; token?: string },
): Promise<Record<string, unknown>> {
  let seen: unknown;
  for (let polls = 0; polls < 500; polls++) {
    const task = (await rawRequest(url, { method: "tasks/get", params: { taskId } }, { token })).result;
    if (task?.status === status) return task;
    seen = task?.status;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`The task ${taskId} never reached "${status}" (last seen: ${String(seen)}).`);
}

describe("2026-07-28 tasks belong to the authenticated client that created them", () => {
  it("another client that knows the task's id cannot answer its run's question, read or cancel it", async () => {
    const published: string[] = [];
    const { url } = await servePublisher(published);
    const created = await rawRequest(
      url,
      { method: "tools/call", params: { name: "publish_report", arguments: { title: "Q3" } } },
      { token: "token-a" },
    );
    const taskId = created.result?.taskId as string;
    expect(created.result).toMatchObject({ resultType: "task", status: "working" });
    const waiting = await ownTask(url, taskId, { status: "input_required" });
    expect(Object.keys(waiting.inputRequests as object)).toEqual(["format"]);

    const unknown = { code: -32602, message: `Unknown task "${taskId}".` };
    const answer = { format: { action: "accept", content: { format: "html" } } };
    const other = await rawRequest(
      url,
      { method: "tasks/update", params: { taskId, inputResponses: answer } },
      { token: "token-b" },
    );
    expect(other.error).toMatchObject(unknown);
    for (const method of ["tasks/get", "tasks/cancel"]) {
      expect(
        (await rawRequest(url, { method, params: { taskId } }, { token: "token-b" })).error,
      ).toMatchObject(unknown);
    }
    // The question still waits for its own client, who answers it.
    const still = await rawRequest(url, { method: "tasks/get", params: { taskId } }, { token: "token-a" });
    expect(still.result).toMatchObject({
      status: "input_required",
      inputRequests: { format: expect.anything() },
    });
    expect(published).toEqual([]);
    const own = await rawRequest(
      url,
      {
        method: "tasks/update",
        params: { taskId, inputResponses: { format: { action: "accept", content: { format: "pdf" } } } },
      },
      { token: "token-a" },
    );
    expect(own.error).toBeUndefined();
    const done = await ownTask(url, taskId, { status: "completed" });
    expect(done.result).toMatchObject({ content: [{ type: "text", text: "Published Q3 as pdf" }] });
    expect(published).toEqual(["Q3.pdf"]);
  });
});

describe("a task's stored records are its own", () => {
  it("a run's record copied in place of another task's run on disk is refused, not served to that task's client", async () => {
    const folder = await mkdtemp(join(tmpdir(), "junction-tasks-"));
    folders.push(folder);
    const tasks = join(folder, "tasks");
    const opened: string[] = [];
    const first = await serveKeeper(tasks, opened);
    const ids: Record<string, string> = {};
    for (const [client, door] of [
      ["a", "north"],
      ["b", "south"],
    ] as const) {
      const created = await rawRequest(
        first.url,
        { method: "tools/call", params: { name: "ask_keeper", arguments: { request: door } } },
        { token: `token-${client}` },
      );
      ids[client] = created.result?.taskId as string;
      await ownTask(first.url, ids[client] as string, { status: "input_required", token: `token-${client}` });
    }
    await first.close();
    running.splice(running.indexOf(first), 1);
    // On disk, b's run record is replaced by a's (validly signed, for another task).
    const files = await readdir(tasks);
    const newest = (prefix: string) =>
      files
        .filter((name) => name.startsWith(`run-${prefix}.`))
        .sort(byRevision)
        .at(-1) as string;
    const aRun = newest(ids.a as string);
    for (const name of files.filter((file) => file.startsWith(`run-${ids.b}.`))) await rm(join(tasks, name));
    await writeFile(
      join(tasks, aRun.replace(ids.a as string, ids.b as string)),
      await readFile(join(tasks, aRun), "utf8"),
    );

    const second = await serveKeeper(tasks, opened);
    const read = await rawRequest(
      second.url,
      { method: "tasks/get", params: { taskId: ids.b } },
      { token: "token-b" },
    );
    expect(read.result).toBeUndefined();
    expect(read.error).toMatchObject({ code: -32602, message: expect.stringContaining(`run-${ids.b}`) });
    const answer = { action: "accept", content: {} };
    const keys = Object.keys(
      (await ownTask(second.url, ids.a as string, { status: "input_required", token: "token-a" }))
        .inputRequests as object,
    );
    await rawRequest(
      second.url,
      {
        method: "tasks/update",
        params: { taskId: ids.b, inputResponses: Object.fromEntries(keys.map((key) => [key, answer])) },
      },
      { token: "token-b" },
    );
    expect(opened).toEqual([]);
  });
});

function byRevision(left: string, right: string): number {
  return Number(left.split(".")[1]) - Number(right.split(".")[1]);
}

/** An agent tool whose agent wants to open the vault's door it is asked for, asking first. */
async function serveKeeper(store: string, opened: string[]) {
  const vault = tool({
    name: "open_vault",
    description: "Opens a door of the vault",
    schema: z.object({ door: z.string() }),
    execute: async ({ door }) => {
      opened.push(door);
      return `opened ${door}`;
    },
  });
  const server = await serveHTTP(
    createMCPServer({
      name: "keeper",
      version: "1.0.0",
      stateKey: KEY,
      tasks: { pollIntervalMs: 20, store: fileTaskStore(store) },
      tools: [
        agentTool(
          () =>
            new Agent({
              provider: scriptedModel([
                { toolCalls: [{ id: "c1", name: "open_vault", input: { door: "north" } }] },
              ]),
              model: "scripted",
              tools: [vault],
              approval: () => "ask",
            }),
          { name: "ask_keeper", description: "Asks the keeper agent" },
        ),
      ],
    }),
    { auth: AUTH },
  );
  running.push(server);
  return server;
}
