// A served agent over stdio whose tasks outlive the process (built dist): its one tool needs
// approval, and the tasks sit in a signed file TaskStore, so a server killed while a task waits for
// the approval and started again (same folder, same key) resumes it.
//   node durable-agent-stdio-server.mjs <folder> [memory|stall]
// <folder>/pid     this process's id (rewritten at each start), for the test to kill it
// <folder>/runs    one line per run of the agent's tool
// <folder>/tasks.json  the task store ("memory": tasks in memory, lost with the process;
//                  "stall": the store never saves, so a tools/call is never answered;
//                  "once": a restart fails at once, as a server that cannot come back)
import { existsSync } from "node:fs";
import { appendFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Agent, tool } from "@junction/core";
import { scriptedModel } from "@junction/core/testing";
import { z } from "zod";
import { agentTool, createMCPServer } from "../dist/index.js";
import { fileTaskStore } from "../dist/node.js";
import { serveStdio } from "../dist/stdio.js";

const [folder, mode] = process.argv.slice(2);
const tasksFile = join(folder, "tasks.json");
// A restarted server resumes the run after the approval: only the model's last answer is left.
const resumed = existsSync(tasksFile);
if (mode === "once" && existsSync(join(folder, "pid"))) process.exit(1);
await writeFile(join(folder, "pid"), String(process.pid));

const provider = scriptedModel(
  resumed
    ? [{ text: "The north door is open." }]
    : [
        { toolCalls: [{ id: "c1", name: "open_vault", input: { door: "north" } }] },
        { text: "The north door is open." },
      ],
);
const vault = tool({
  name: "open_vault",
  description: "Opens the vault",
  schema: z.object({ door: z.string() }),
  execute: async ({ door }) => {
    await appendFile(join(folder, "runs"), `${door}\n`);
    return `opened ${door}`;
  },
});
const keeper = () => new Agent({ provider, model: "scripted", tools: [vault], approval: () => "ask" });

const store = fileTaskStore(tasksFile);
const stalling = { ...store, put: () => new Promise(() => {}) };

serveStdio(
  createMCPServer({
    name: "durable-agent-stdio-fixture",
    version: "1.0.0",
    stateKey: "a test key that is 32 bytes long!!",
    tasks: {
      pollIntervalMs: 20,
      ...(mode === "memory" ? {} : { store: mode === "stall" ? stalling : store }),
    },
    tools: [agentTool(keeper, { name: "ask_keeper", description: "Asks the keeper agent" })],
  }),
);
