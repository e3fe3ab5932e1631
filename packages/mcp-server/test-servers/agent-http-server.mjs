// A served agent over Streamable HTTP (built dist) whose tasks sit in a file TaskStore that other
// processes may share: its one tool needs approval and appends a line to <folder>/runs each time
// it runs, so a test counts runs across processes.
//   node agent-http-server.mjs <folder>     prints the endpoint's URL as its first line
import { appendFile } from "node:fs/promises";
import { join } from "node:path";
import { Agent, tool } from "@junction/core";
import { scriptedModel } from "@junction/core/testing";
import { z } from "zod";
import { agentTool, createMCPServer } from "../dist/index.js";
import { fileTaskStore, serveHTTP } from "../dist/node.js";

const [folder] = process.argv.slice(2);
// Answers from the conversation, not from a position in a script, so any process can resume a run.
const provider = scriptedModel(
  Array.from(
    { length: 1000 },
    () => (request) =>
      request.messages.some((message) => message.role === "tool")
        ? { text: "The north door is open." }
        : { toolCalls: [{ id: "c1", name: "open_vault", input: { door: "north" } }] },
  ),
);
const vault = tool({
  name: "open_vault",
  description: "Opens the vault",
  schema: z.object({ door: z.string() }),
  execute: async ({ door }) => {
    await appendFile(join(folder, "runs"), `${door} ${process.pid}\n`);
    return `opened ${door}`;
  },
});
const keeper = () => new Agent({ provider, model: "scripted", tools: [vault], approval: () => "ask" });

const server = await serveHTTP(
  createMCPServer({
    name: "agent-http-fixture",
    version: "1.0.0",
    stateKey: "a test key that is 32 bytes long!!",
    tasks: { store: fileTaskStore(join(folder, "tasks")), pollIntervalMs: 20 },
    tools: [agentTool(keeper, { name: "ask_keeper", description: "Asks the keeper agent" })],
  }),
);
process.stdout.write(`${server.url}\n`);
process.on("SIGTERM", () => {
  void server.close().then(() => process.exit(0));
});
