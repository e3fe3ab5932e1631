import { MCP } from "@junction/mcp-client";
import type { ModelRequest } from "@junction/types";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent, type AgentEvent, type RunState, tool } from "./index.js";
import { scriptedModel } from "./testing/index.js";

// Issue 37: a model that calls a deferred tool it already knows by name (from an earlier turn, a
// resumed run, a system prompt) is not refused into another search turn: the call runs through
// the same gate as any other (validation, approval), and the tool is loaded from the next step.

const names = (request: ModelRequest) => (request.tools ?? []).map((tool) => tool.name);

function localTools(runs: string[]) {
  return [
    tool({
      name: "get_weather",
      description: "Gets the weather for a city.",
      schema: z.object({ city: z.string() }).strict(),
      defer: true,
      execute: async ({ city }) => {
        runs.push(`get_weather ${city}`);
        return `Sunny in ${city}.`;
      },
    }),
    tool({
      name: "create_issue",
      description: "Creates an issue in a GitHub repository.",
      schema: z.object({ title: z.string() }),
      defer: true,
      annotations: { destructiveHint: false, readOnlyHint: false },
      execute: async ({ title }) => {
        runs.push(`create_issue ${title}`);
        return `Issue "${title}" created.`;
      },
    }),
  ];
}

function toolResults(request: ModelRequest): unknown[] {
  return request.messages
    .filter((message) => message.role === "tool")
    .flatMap((message) => message.content.map((part) => ("output" in part ? part.output : undefined)));
}

describe("a direct call to a deferred tool by its real name", () => {
  it("a tool() tool runs without a search, is loaded from the next step, and bad arguments get its validation error", async () => {
    const runs: string[] = [];
    const provider = scriptedModel([
      { toolCalls: [{ id: "w1", name: "get_weather", input: { town: "Oslo" } }] },
      { toolCalls: [{ id: "w2", name: "get_weather", input: { city: "Oslo" } }] },
      { text: "Sunny." },
    ]);
    const agent = new Agent({ provider, model: "m", tools: localTools(runs) });
    const result = await agent.send("Weather in Oslo?").final;

    expect(result.text).toBe("Sunny.");
    expect(runs).toEqual(["get_weather Oslo"]);
    expect(names(provider.requests[0]!)).toEqual(["search_tools"]);
    // Loaded by the call: its schema goes to the model with the validation error's next step.
    expect(names(provider.requests[1]!)).toEqual(["get_weather", "search_tools"]);
    expect(toolResults(provider.requests[2]!)).toEqual([
      {
        content: [
          {
            type: "text",
            text:
              'Invalid arguments for tool "get_weather":\n✖ Unrecognized key: "town"\n✖ Invalid input: expected string, received undefined\n  → at city\n' +
              "Call it again with arguments that match its input schema (its definition is sent from your next step).",
          },
        ],
        isError: true,
      },
      "Sunny in Oslo.",
    ]);
    expect(result.state).toBeUndefined();
  });

  it("a name no tool has, while tools are deferred, gets an error that names it and says to search (not every tool's name)", async () => {
    const provider = scriptedModel([
      { toolCalls: [{ id: "x1", name: "get_forecast", input: { city: "Oslo" } }] },
      { text: "ok" },
    ]);
    await new Agent({ provider, model: "m", tools: localTools([]) }).send("x").final;
    expect(toolResults(provider.requests[1]!)).toEqual([
      {
        content: [
          {
            type: "text",
            text: 'There is no tool named "get_forecast", loaded or deferred. Search for the tool you need with search_tools (by what you want to do), then call it by the name the search gives. Tools offered now: search_tools.',
          },
        ],
        isError: true,
      },
    ]);
  });

  it("goes through the approval policy: asked, stopped, resumed in a new Agent (agent.resume) and run; the tool stays loaded", async () => {
    const runs: string[] = [];
    const approval = (call: { name: string }) => (call.name === "create_issue" ? "ask" : true);
    const first = scriptedModel([
      { toolCalls: [{ id: "i1", name: "create_issue", input: { title: "Broken" } }] },
    ]);
    const stopped = await new Agent({ provider: first, model: "m", tools: localTools(runs), approval }).send(
      "File it",
    ).final;
    expect(stopped.finishReason).toBe("approval-required");
    expect(stopped.pending?.map(({ id, name, input }) => ({ id, name, input }))).toEqual([
      { id: "i1", name: "create_issue", input: { title: "Broken" } },
    ]);
    expect(runs).toEqual([]);
    const state = JSON.parse(JSON.stringify(stopped.state)) as RunState;
    expect(state.loadedTools).toEqual(["create_issue"]);

    const later = scriptedModel([
      // After the resume, the model calls the other deferred tool straight away too.
      { toolCalls: [{ id: "w1", name: "get_weather", input: { city: "Oslo" } }] },
      { text: "Filed; sunny." },
    ]);
    const agent = new Agent({ provider: later, model: "m", tools: localTools(runs), approval });
    const handle = agent.resume({ state, decisions: { i1: "approve" } });
    const results: string[] = [];
    for await (const event of handle)
      if (event.type === "tool-result") results.push(`${event.id} ${event.outcome}`);
    const result = await handle.final;

    expect(result.text).toBe("Filed; sunny.");
    expect(runs).toEqual(["create_issue Broken", "get_weather Oslo"]);
    expect(results).toEqual(["i1 success", "w1 success"]);
    expect(names(later.requests[0]!)).toEqual(["create_issue", "search_tools"]);
    expect(names(later.requests[1]!)).toEqual(["get_weather", "create_issue", "search_tools"]);
  });

  it("an approval policy that denies it denies it, as it would a loaded tool's call", async () => {
    const runs: string[] = [];
    const provider = scriptedModel([
      { toolCalls: [{ id: "i1", name: "create_issue", input: { title: "Spam" } }] },
      { text: "ok" },
    ]);
    const agent = new Agent({
      provider,
      model: "m",
      tools: localTools(runs),
      approval: { deny: ["create_issue"], otherwise: "approve" },
    });
    const handle = agent.send("x");
    const outcomes: (string | undefined)[] = [];
    for await (const event of handle) if (event.type === "tool-result") outcomes.push(event.outcome);
    await handle.final;
    expect(outcomes).toEqual(["denied"]);
    expect(runs).toEqual([]);
  });

  it("an MCP source's deferred tool (a real SDK server in memory) runs when called by its prefixed name", async () => {
    const server = new McpServer({ name: "tracker", version: "1.0.0" });
    const calls: string[] = [];
    server.registerTool(
      "create_issue",
      { description: "Creates an issue.", inputSchema: { title: z.string() } },
      async ({ title }) => {
        calls.push(title);
        return { content: [{ type: "text", text: `created ${title}` }] };
      },
    );
    server.registerTool("list_issues", { description: "Lists issues.", inputSchema: {} }, async () => ({
      content: [{ type: "text", text: "none" }],
    }));
    const mcp = new MCP({ transport: "memory", server });
    await mcp.connect();
    try {
      const provider = scriptedModel([
        { toolCalls: [{ id: "m1", name: "github_create_issue", input: { title: "Broken" } }] },
        { toolCalls: [{ id: "m2", name: "github_create_issue", input: { name: "x" } }] },
        { text: "done" },
      ]);
      const agent = new Agent({ provider, model: "m", mcps: [{ mcp, prefix: "github", defer: true }] });
      const result = await agent.send("File it").final;

      expect(calls).toEqual(["Broken"]);
      expect(names(provider.requests[0]!)).toEqual(["search_tools"]);
      expect(names(provider.requests[1]!)).toEqual(["github_create_issue", "search_tools"]);
      expect(result.steps[0]!.toolResults[0]!.output).toEqual({
        content: [{ type: "text", text: "created Broken" }],
        isError: false,
      });
      // Checked against the server's JSON Schema before it is sent, as any MCP call is.
      expect(result.steps[1]!.toolResults[0]!.output).toMatchObject({
        content: [
          { type: "text", text: expect.stringMatching(/^Invalid arguments for tool "github_create_issue":/) },
        ],
        isError: true,
      });
      expect(calls).toEqual(["Broken"]);
    } finally {
      await mcp.close();
    }
  });
});

describe("the events of a direct call", () => {
  it("are those of any call: tool-call, then tool-result, and no tool-search", async () => {
    const provider = scriptedModel([
      { toolCalls: [{ id: "w1", name: "get_weather", input: { city: "Oslo" } }] },
      { text: "ok" },
    ]);
    const handle = new Agent({ provider, model: "m", tools: localTools([]) }).send("x");
    const types: AgentEvent["type"][] = [];
    for await (const event of handle) if (event.type.startsWith("tool-")) types.push(event.type);
    await handle.final;
    expect(types).toEqual(["tool-call", "tool-result"]);
  });
});
