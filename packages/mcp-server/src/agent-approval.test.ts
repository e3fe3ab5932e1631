import { Agent, tool } from "@junction/core";
import { scriptedModel } from "@junction/core/testing";
import { MCP } from "@junction/mcp-client";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { agentTool } from "./agent-tool.js";
import { createMCPServer } from "./mcp-server.js";
import { type RunningHTTPServer, serveHTTP } from "./node.js";

// Approvals of a served agent on a plain tools/call (no task): an elicitation within the call on
// 2025-11-25 sessions, an input_required round on 2026-07-28, both answered by Junction's own
// client through its elicitation handler.

const running: RunningHTTPServer[] = [];
const clients: MCP[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((mcp) => mcp.close()));
  await Promise.all(running.splice(0).map((server) => server.close()));
});

function vault(runs: string[]) {
  return tool({
    name: "open_vault",
    description: "Opens the vault",
    schema: z.object({ door: z.string() }),
    execute: async ({ door }) => {
      runs.push(door);
      return `opened ${door}`;
    },
  });
}

type Elicit = NonNullable<NonNullable<ConstructorParameters<typeof MCP>[0]["handlers"]>["elicitation"]>;

async function serve(
  agent: Agent | (() => Agent),
  protocolVersion: "2026-07-28" | "2025-11-25",
  { elicitation, tasks }: { elicitation?: Elicit; tasks?: { pollIntervalMs: number } } = {},
) {
  const server = await serveHTTP(
    createMCPServer({
      name: "agents",
      version: "1.0.0",
      ...(tasks ? { tasks } : {}),
      tools: [agentTool(agent, { name: "ask_keeper", description: "Asks the keeper agent" })],
    }),
  );
  running.push(server);
  const mcp = new MCP({
    transport: "http",
    url: server.url,
    protocolVersion,
    ...(elicitation ? { handlers: { elicitation } } : {}),
  });
  clients.push(mcp);
  await mcp.connect();
  return mcp;
}

describe.each(["2026-07-28", "2025-11-25"] as const)("a served agent's approval, %s", (protocolVersion) => {
  it("is asked as an elicitation naming the tool and its arguments; accept runs the call", async () => {
    const runs: string[] = [];
    const provider = scriptedModel([
      { toolCalls: [{ id: "c1", name: "open_vault", input: { door: "north" } }] },
      { text: "The north door is open." },
    ]);
    const agent = new Agent({ provider, model: "scripted", tools: [vault(runs)], approval: () => "ask" });
    const asked: unknown[] = [];
    const mcp = await serve(agent, protocolVersion, {
      elicitation: async (request) => {
        asked.push(request);
        return { action: "accept", content: {} };
      },
    });
    const result = await mcp.callTool("ask_keeper", { request: "Open the north door" });
    expect(result).toEqual({ content: [{ type: "text", text: "The north door is open." }], isError: false });
    expect(runs).toEqual(["north"]);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      mode: "form",
      message:
        'The agent behind "ask_keeper" wants to call the tool "open_vault" with:\n{\n  "door": "north"\n}\n' +
        "Accept to run the call, decline to refuse it.",
    });
  });

  it("keeps a factory's agent across the legs of its call: one approval, one run, one answer", async () => {
    const runs: string[] = [];
    const asked: unknown[] = [];
    let made = 0;
    // A scripted model starts its script over in each new Agent: were every leg to make one, the
    // resumed leg would ask for the call again, and again.
    const mcp = await serve(
      () => {
        made += 1;
        return new Agent({
          provider: scriptedModel([
            { toolCalls: [{ id: "c1", name: "open_vault", input: { door: "north" } }] },
            { text: "The north door is open." },
          ]),
          model: "scripted",
          tools: [vault(runs)],
          approval: () => "ask",
        });
      },
      protocolVersion,
      {
        elicitation: async (request) => {
          asked.push(request);
          return { action: "accept", content: {} };
        },
      },
    );
    const result = await mcp.callTool("ask_keeper", { request: "Open the north door" });
    expect(result).toEqual({ content: [{ type: "text", text: "The north door is open." }], isError: false });
    expect(asked).toHaveLength(1);
    expect(runs).toEqual(["north"]);
    expect(made).toBe(1);

    // The next call is a new run: a new agent, its script from the start.
    const again = await mcp.callTool("ask_keeper", { request: "Open the north door again" });
    expect(again.content).toEqual([{ type: "text", text: "The north door is open." }]);
    expect(asked).toHaveLength(2);
    expect(runs).toEqual(["north", "north"]);
    expect(made).toBe(2);
  });

  it("decline denies the call, and the note reaches the model", async () => {
    const runs: string[] = [];
    const provider = scriptedModel([
      { toolCalls: [{ id: "c1", name: "open_vault", input: { door: "south" } }] },
      { text: "I was not allowed." },
    ]);
    const agent = new Agent({ provider, model: "scripted", tools: [vault(runs)], approval: () => "ask" });
    const mcp = await serve(agent, protocolVersion, {
      elicitation: async () => ({
        action: "decline",
        content: { note: "not today" },
      }),
    });
    const result = await mcp.callTool("ask_keeper", { request: "Open the south door" });
    expect(result.content).toEqual([{ type: "text", text: "I was not allowed." }]);
    expect(runs).toEqual([]);
    expect(JSON.stringify(provider.requests[1]?.messages.at(-1))).toContain("not today");
  });

  it("without elicitation, ends with an isError result naming what the client lacks", async () => {
    const runs: string[] = [];
    const provider = scriptedModel([{ toolCalls: [{ name: "open_vault", input: { door: "east" } }] }]);
    const agent = new Agent({ provider, model: "scripted", tools: [vault(runs)], approval: () => "ask" });
    const mcp = await serve(agent, protocolVersion);
    const result = await mcp.callTool("ask_keeper", { request: "Open the east door" });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([
      {
        type: "text",
        text:
          'The agent behind "ask_keeper" needs a person to approve its call to "open_vault", and this client ' +
          `declared no elicitation capability${protocolVersion === "2026-07-28" ? "" : " at initialize"}, so the server cannot ask it` +
          `${protocolVersion === "2026-07-28" ? " (input_required)" : ""}. Nothing was run for that call. Use a client ` +
          "that supports elicitation (or the tasks extension), ask the server's operator to allow the tool " +
          "without approval, or run the agent directly.",
      },
    ]);
    expect(runs).toEqual([]);
  });
});

describe("a served agent's approval as a task's input request (2026-07-28 tasks)", () => {
  it("keeps a factory's agent across the task's legs: one approval, one run, one answer", async () => {
    const runs: string[] = [];
    const asked: unknown[] = [];
    let made = 0;
    const mcp = await serve(
      () => {
        made += 1;
        return new Agent({
          provider: scriptedModel([
            { toolCalls: [{ id: "c1", name: "open_vault", input: { door: "west" } }] },
            { text: "The west door is open." },
          ]),
          model: "scripted",
          tools: [vault(runs)],
          approval: () => "ask",
        });
      },
      "2026-07-28",
      {
        elicitation: async (request) => {
          asked.push(request);
          return { action: "accept", content: {} };
        },
        tasks: { pollIntervalMs: 20 },
      },
    );
    const result = await mcp.callTool("ask_keeper", { request: "Open the west door" });
    expect(result).toEqual({ content: [{ type: "text", text: "The west door is open." }], isError: false });
    expect(asked).toHaveLength(1);
    expect(runs).toEqual(["west"]);
    expect(made).toBe(1);
  });
});
