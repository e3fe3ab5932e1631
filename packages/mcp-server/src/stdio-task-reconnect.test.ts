import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { MCP } from "@junction/mcp-client";
import { afterEach, describe, expect, it } from "vitest";

// A task-run call over stdio whose server process is SIGKILLed while the task waits for an
// approval: the client restarts the server and follows the same task id there, never sending the
// tools/call again. The server keeps its tasks in a signed file TaskStore, so the restarted process
// still has the task (or, in "memory" mode, has lost it).

const script = join(
  dirname(fileURLToPath(import.meta.url)),
  "../test-servers/durable-agent-stdio-server.mjs",
);
const open: MCP[] = [];
const folders: string[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((mcp) => mcp.close()));
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

const APPROVAL =
  'The agent behind "ask_keeper" wants to call the tool "open_vault" with:\n{\n  "door": "north"\n}\n' +
  "Accept to run the call, decline to refuse it.";

async function pidOf(folder: string): Promise<number> {
  return Number(await readFile(join(folder, "pid"), "utf8"));
}

async function until(check: () => Promise<boolean> | boolean, what: string): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > 15_000) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Kills the server process and waits until the client has started another one. */
async function killServer(folder: string): Promise<void> {
  const killed = await pidOf(folder);
  process.kill(killed, "SIGKILL");
  await until(async () => (await pidOf(folder).catch(() => killed)) !== killed, "a restarted server");
}

async function readRuns(folder: string): Promise<string> {
  return readFile(join(folder, "runs"), "utf8").catch(() => "");
}

function client(
  folder: string,
  protocolVersion: "2026-07-28" | "2025-11-25",
  { mode, asked }: { mode: string[]; asked: string[] },
) {
  const sent: string[] = [];
  const mcp = new MCP({
    transport: "stdio",
    command: process.execPath,
    args: [script, folder, ...mode],
    protocolVersion,
    reconnect: { initialDelayMs: 50, maxAttempts: 3 },
    timeoutMs: 30_000,
    handlers: {
      elicitation: async (request) => {
        asked.push(request.message);
        // The person is still thinking when the server dies; their answer goes to the dead one.
        if (asked.length === 1) await killServer(folder);
        return { action: "accept", content: {} };
      },
    },
    onMessage: ({ direction, message }) => {
      if (direction === "out" && "method" in message) sent.push(message.method);
    },
  });
  open.push(mcp);
  return { mcp, sent };
}

describe.each(["2026-07-28", "2025-11-25"] as const)(
  "a task-run call over stdio across a server restart, %s",
  (protocolVersion) => {
    it("follows the task on the restarted server: the tool runs once, tools/call is sent once", async () => {
      const folder = await mkdtemp(join(tmpdir(), "junction-stdio-task-"));
      folders.push(folder);
      const asked: string[] = [];
      const { mcp, sent } = client(folder, protocolVersion, { mode: [], asked });
      await mcp.connect();
      const first = await pidOf(folder);
      const result = await mcp.callTool("ask_keeper", { request: "Open the north door" }, { task: true });
      expect(result).toEqual({
        content: [{ type: "text", text: "The north door is open." }],
        isError: false,
      });
      expect(await pidOf(folder)).not.toBe(first);
      // Asked again by the restarted server: the first answer went to the dead one.
      expect(asked).toEqual([APPROVAL, APPROVAL]);
      expect(await readRuns(folder)).toBe("north\n");
      expect(sent.filter((method) => method === "tools/call")).toEqual(["tools/call"]);
      // The task's newest record (its run's own record is dropped once the task is kept as ended).
      // (Older revisions are kept emptied, their names taken: only the newest holds the record.)
      const names = await readdir(join(folder, "tasks.json"));
      const files: string[] = [];
      for (const name of names) if ((await stat(join(folder, "tasks.json", name))).size > 0) files.push(name);
      expect(files).toEqual([expect.stringMatching(/^[0-9a-f-]{36}\.[0-9]+\.json$/)]);
      const stored = JSON.parse(await readFile(join(folder, "tasks.json", files[0] as string), "utf8")) as {
        status: string;
      };
      expect(stored.status).toBe("completed");
    }, 30_000);

    it("fails with a clear error when the restarted server does not know the task", async () => {
      const folder = await mkdtemp(join(tmpdir(), "junction-stdio-task-"));
      folders.push(folder);
      const asked: string[] = [];
      const { mcp, sent } = client(folder, protocolVersion, { mode: ["memory"], asked });
      await mcp.connect();
      const call = mcp.callTool("ask_keeper", { request: "Open the north door" }, { task: true });
      await expect(call).rejects.toMatchObject({
        code: "mcp-request-failed",
        message: expect.stringMatching(
          /^after reconnecting, the MCP server no longer knows task "[^"]+" of tool "ask_keeper" \(tasks\/get failed: .*Unknown task .*\); the tool may or may not have run, so check its effects before calling it again$/,
        ),
      });
      expect(asked).toEqual([APPROVAL]);
      expect(await readRuns(folder)).toBe("");
      expect(sent.filter((method) => method === "tools/call")).toEqual(["tools/call"]);
    }, 30_000);

    it("fails with a clear error when the server cannot be restarted", async () => {
      const folder = await mkdtemp(join(tmpdir(), "junction-stdio-task-"));
      folders.push(folder);
      const sent: string[] = [];
      const mcp = new MCP({
        transport: "stdio",
        command: process.execPath,
        args: [script, folder, "once"],
        protocolVersion,
        reconnect: { initialDelayMs: 50, maxAttempts: 3 },
        timeoutMs: 30_000,
        handlers: {
          elicitation: async () => {
            process.kill(await pidOf(folder), "SIGKILL");
            return { action: "accept", content: {} };
          },
        },
        onMessage: ({ direction, message }) => {
          if (direction === "out" && "method" in message) sent.push(message.method);
        },
      });
      open.push(mcp);
      await mcp.connect();
      const call = mcp.callTool("ask_keeper", { request: "Open the north door" }, { task: true });
      await expect(call).rejects.toMatchObject({
        code: "mcp-connection-closed",
        message: expect.stringMatching(
          /^the connection to MCP server "durable-agent-stdio-fixture" closed while task "[^"]+" of tool "ask_keeper" was running, and it could not be restored \(.*stopped and could not be restarted after 3 attempts.*\); the task may still run on the server$/,
        ),
      });
      expect(sent.filter((method) => method === "tools/call")).toEqual(["tools/call"]);
      expect(await readRuns(folder)).toBe("");
    }, 30_000);

    it("still fails a call whose task answer had not come, without sending it again", async () => {
      const folder = await mkdtemp(join(tmpdir(), "junction-stdio-task-"));
      folders.push(folder);
      const asked: string[] = [];
      const { mcp, sent } = client(folder, protocolVersion, { mode: ["stall"], asked });
      await mcp.connect();
      const call = mcp.callTool("ask_keeper", { request: "Open the north door" }, { task: true });
      const failed = expect(call).rejects.toMatchObject({
        code: "mcp-connection-closed",
        message:
          'connection to MCP server "durable-agent-stdio-fixture" closed during tools/call; the request had been sent, so the server may have acted on it, and it was not sent again',
      });
      await until(() => sent.includes("tools/call"), "the tools/call");
      await killServer(folder);
      await failed;
      await until(() => mcp.connected, "the reconnect");
      expect(sent.filter((method) => method === "tools/call")).toEqual(["tools/call"]);
      expect(asked).toEqual([]);
      expect(await readRuns(folder)).toBe("");
    }, 30_000);
  },
);
