// The tasks behind the stored task-record corpus (`v1-*.json` beside this file): the generator
// (`scripts/make-task-record-fixtures.ts`, against the built packages) drives each task over real
// HTTP to where it is stored and writes its record; `task-record-corpus.test.ts` serves the
// stored records with today's code through the public API only (createMCPServer, a store,
// tasks/get and tasks/update). The APIs are passed in, so both can use this file. Only erasable
// TypeScript here (Node runs the generator with type stripping). Do not change the key, the
// token, the tool or the agent: the stored records bind them.
import type { Agent, tool } from "@junction/core";
import type { scriptedModel } from "@junction/core/testing";
import type { z } from "zod";
import type { agentTool, createMCPServer, InMemoryTaskStore, MCPServer } from "../../index.js";

/** What a scenario is built from: the APIs of the code that runs it. */
export interface ServerAPI {
  Agent: typeof Agent;
  tool: typeof tool;
  scriptedModel: typeof scriptedModel;
  z: typeof z;
  agentTool: typeof agentTool;
  createMCPServer: typeof createMCPServer;
  InMemoryTaskStore: typeof InMemoryTaskStore;
}

/** The fixed test `stateKey` the records are signed with (never a real server's). */
export const FIXTURE_STATE_KEY = "junction task-record corpus state key, 32+ bytes";
/** The bearer token of the client that created the tasks, and its client id. */
export const FIXTURE_TOKEN = "corpus-token";
export const FIXTURE_CLIENT = "corpus-client";
/** The endpoint's resource (the audience of the token). */
export const FIXTURE_RESOURCE = "http://127.0.0.1/mcp";
/** How long the stored tasks are kept: long enough that the corpus never expires. */
export const FIXTURE_TTL_MS = 100 * 365 * 24 * 60 * 60 * 1000;

/** One stored task: the model's answers that put it where it is stored, and what it is then. */
export interface TaskScenario {
  file: string;
  request: string;
  /** The model's answers before the task is stored. */
  before: unknown[];
  /** Cancel the task once it waits. */
  cancel?: boolean;
  status: "completed" | "input_required" | "cancelled";
  /** The text of the task's result, once completed (before, or after the answer). */
  text?: string;
  /** The model's answers after the approval, and the doors opened then (a waiting task). */
  after?: unknown[];
  opensOnAnswer?: string[];
}

export const taskScenarios: TaskScenario[] = [
  {
    file: "v1-completed",
    request: "Anything to open?",
    before: [{ text: "Nothing to open." }],
    status: "completed",
    text: "Nothing to open.",
  },
  {
    file: "v1-input-required",
    request: "Open the north door",
    before: [{ toolCalls: [{ id: "c1", name: "open_vault", input: { door: "north" } }] }],
    status: "input_required",
    after: [{ text: "The north door is open." }],
    text: "The north door is open.",
    opensOnAnswer: ["north"],
  },
  {
    file: "v1-cancelled",
    request: "Open the south door",
    before: [{ toolCalls: [{ id: "c1", name: "open_vault", input: { door: "south" } }] }],
    cancel: true,
    status: "cancelled",
  },
];

/** The served agent tool: an agent answering with `responses`, whose vault notes the doors opened. */
export function corpusServer(
  api: ServerAPI,
  parts: { store: InMemoryTaskStore; responses: unknown[]; opened: string[] },
): MCPServer {
  const vault = api.tool({
    name: "open_vault",
    description: "Opens the vault",
    schema: api.z.object({ door: api.z.string() }),
    execute: async ({ door }) => {
      parts.opened.push(door);
      return `opened ${door}`;
    },
  });
  return api.createMCPServer({
    name: "corpus",
    version: "1.0.0",
    stateKey: FIXTURE_STATE_KEY,
    tasks: { store: parts.store, ttlMs: FIXTURE_TTL_MS, pollIntervalMs: 20 },
    tools: [
      api.agentTool(
        () =>
          new api.Agent({
            provider: api.scriptedModel(parts.responses as never),
            model: "scripted",
            tools: [vault],
            approval: () => "ask",
          }),
        { name: "ask_keeper", description: "Asks the keeper agent" },
      ),
    ],
  });
}

/** The endpoint's auth: one client, `FIXTURE_CLIENT`, with `FIXTURE_TOKEN`. */
export const corpusAuth = {
  resource: FIXTURE_RESOURCE,
  authorizationServers: ["https://auth.example"],
  verifyToken: (token: string) =>
    token === FIXTURE_TOKEN
      ? {
          token,
          clientId: FIXTURE_CLIENT,
          scopes: [],
          expiresAt: Math.floor(Date.now() / 1000) + 3600,
          resource: new URL(FIXTURE_RESOURCE),
        }
      : undefined,
};

/** A 2026-07-28 request with the tasks extension, as the corpus client sends it. */
export async function corpusRequest(
  url: string,
  method: string,
  params: Record<string, unknown>,
): Promise<{ result?: Record<string, unknown>; error?: { code: number; message: string } }> {
  const name = typeof params.taskId === "string" ? params.taskId : params.name;
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      authorization: `Bearer ${FIXTURE_TOKEN}`,
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      ...(typeof name === "string" ? { "mcp-name": name } : {}),
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientInfo": { name: "corpus", version: "1.0.0" },
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
  return JSON.parse(data);
}

/** How many times {@link taskWhen} asks before it answers what it last got. */
const TASK_POLLS = 500;

/** Polls `tasks/get` until the task has `status` (at most {@link TASK_POLLS} times), and answers the last one. */
export async function taskWhen(
  url: string,
  taskId: string,
  status: string,
): Promise<Record<string, unknown> | undefined> {
  let task: Record<string, unknown> | undefined;
  for (let poll = 0; poll < TASK_POLLS; poll++) {
    task = (await corpusRequest(url, "tasks/get", { taskId })).result;
    if (task?.status === status) return task;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return task;
}
