// A served agent over stdio as a client spawns it (built dist): its one tool needs approval.
//   node agent-stdio-server.mjs [tasks [pollIntervalMs]]    with "tasks", agent runs are served as tasks
import { Agent, tool } from "@junction/core";
import { scriptedModel } from "@junction/core/testing";
import { z } from "zod";
import { agentTool, createMCPServer } from "../dist/index.js";
import { serveStdio } from "../dist/stdio.js";

const provider = scriptedModel([
  { toolCalls: [{ id: "c1", name: "open_vault", input: { door: "north" } }] },
  { text: "The north door is open." },
]);
const vault = tool({
  name: "open_vault",
  description: "Opens the vault",
  schema: z.object({ door: z.string() }),
  execute: async ({ door }) => `opened ${door}`,
});
const keeper = () => new Agent({ provider, model: "scripted", tools: [vault], approval: () => "ask" });

serveStdio(
  createMCPServer({
    name: "agent-stdio-fixture",
    version: "1.0.0",
    ...(process.argv[2] === "tasks" ? { tasks: { pollIntervalMs: Number(process.argv[3] ?? 20) } } : {}),
    tools: [agentTool(keeper, { name: "ask_keeper", description: "Asks the keeper agent" })],
  }),
);
