import type { ModelRequest, Tool } from "@junction/types";
import { describe, expect, it } from "vitest";
import { Agent, type AgentEvent, ToolIndex } from "./index.js";
import { scriptedModel } from "./testing/index.js";

// Issue 37: a new user's handful of deferred tools. The search must load the obvious tool, and
// still say nothing fits (and load nothing) for a request none of them serves.

function deferredTool(
  runs: string[],
  {
    name,
    description,
    properties,
  }: { name: string; description: string; properties: Record<string, unknown> },
): Tool {
  return {
    name,
    description,
    inputSchema: { type: "object", properties },
    defer: true,
    execute: async (input: unknown) => {
      runs.push(name);
      return `${name} ran with ${JSON.stringify(input)}`;
    },
  };
}

function threeTools(runs: string[]): Tool[] {
  return [
    deferredTool(runs, {
      name: "get_weather",
      description: "Gets the current weather and the forecast for a city.",
      properties: {
        city: { type: "string", description: "The city." },
        days: { type: "integer", description: "How many days ahead." },
      },
    }),
    deferredTool(runs, {
      name: "create_issue",
      description: "Creates an issue in a GitHub repository.",
      properties: {
        repo: { type: "string" },
        title: { type: "string" },
        body: { type: "string" },
      },
    }),
    deferredTool(runs, {
      name: "send_email",
      description: "Sends an email message to a recipient.",
      properties: {
        to: { type: "string" },
        subject: { type: "string" },
        body: { type: "string" },
      },
    }),
  ];
}

const names = (request: ModelRequest) => (request.tools ?? []).map((tool) => tool.name);

/** One run: the model searches with `query`, then (when `call` is given) calls that tool. */
async function searchThenCall(query: string, call?: { name: string; input: unknown }) {
  const runs: string[] = [];
  const provider = scriptedModel([
    { toolCalls: [{ id: "s1", name: "search_tools", input: { query } }] },
    ...(call ? [{ toolCalls: [{ id: "c1", ...call }] }] : []),
    { text: "done" },
  ]);
  const agent = new Agent({ provider, model: "m", tools: threeTools(runs) });
  const handle = agent.send(query);
  const searches: Extract<AgentEvent, { type: "tool-search" }>[] = [];
  for await (const event of handle) if (event.type === "tool-search") searches.push(event);
  const result = await handle.final;
  const searchText = (
    provider.requests[1]!.messages.at(-1)!.content[0] as { output: { content: { text: string }[] } }
  ).output.content[0]!.text;
  return { runs, provider, result, search: searches[0]!, searchText };
}

describe("tool search on a handful of deferred tools (issue 37)", () => {
  it('"file a github issue" loads create_issue with a high fit, and the model calls it', async () => {
    const { runs, provider, search, searchText } = await searchThenCall("file a github issue", {
      name: "create_issue",
      input: { repo: "acme/app", title: "Broken" },
    });
    expect(search).toEqual({
      type: "tool-search",
      id: "s1",
      query: "file a github issue",
      results: [{ name: "create_issue", score: 0.54, confidence: "high" }],
      loaded: ["create_issue"],
      nothingFits: false,
    });
    expect(searchText).toBe(
      "Loaded 1 tool(s), best first; call them from your next step:\n- create_issue: Creates an issue in a GitHub repository. [high fit, 0.54]",
    );
    expect(names(provider.requests[0]!)).toEqual(["search_tools"]);
    expect(names(provider.requests[1]!)).toEqual(["create_issue", "search_tools"]);
    expect(runs).toEqual(["create_issue"]);
  });

  it('"what is the weather in Oslo tomorrow" loads get_weather (one word of the request is the tools\'), and the model calls it', async () => {
    const { runs, provider, search, searchText } = await searchThenCall(
      "what is the weather in Oslo tomorrow",
      {
        name: "get_weather",
        input: { city: "Oslo", days: 1 },
      },
    );
    // Most of the request's words are no tool's: the fit is medium, said beside the tool it loads.
    expect(search).toEqual({
      type: "tool-search",
      id: "s1",
      query: "what is the weather in Oslo tomorrow",
      results: [{ name: "get_weather", score: 0.32, confidence: "medium" }],
      loaded: ["get_weather"],
      nothingFits: true,
    });
    expect(searchText).toBe(
      'Nothing fits "what is the weather in Oslo tomorrow" well. The closest tool, loaded in case it does (read what it does before calling it); or try other words, or answer without a tool:\n' +
        "- get_weather: Gets the current weather and the forecast for a city. [medium fit, 0.32]",
    );
    expect(names(provider.requests[1]!)).toEqual(["get_weather", "search_tools"]);
    expect(runs).toEqual(["get_weather"]);
  });

  it('"book a flight to Paris" still says nothing fits and loads nothing', async () => {
    const { runs, provider, result, search, searchText } = await searchThenCall("book a flight to Paris");
    expect(search).toEqual({
      type: "tool-search",
      id: "s1",
      query: "book a flight to Paris",
      results: [],
      loaded: [],
      nothingFits: true,
    });
    expect(searchText).toBe(
      'No tool matches "book a flight to Paris"; nothing was loaded. Try other words, or answer without a tool.',
    );
    expect(names(provider.requests[1]!)).toEqual(["search_tools"]);
    expect(result.text).toBe("done");
    expect(runs).toEqual([]);
  });

  it("a weak match (a word only one tool's description has, once) is still loaded, as the closest tool, beside nothing fits", async () => {
    const { search } = await searchThenCall("forecast for Bergen next week please");
    expect(search.loaded).toEqual(["get_weather"]);
    expect(search.nothingFits).toBe(true);
    expect(search.results).toEqual([{ name: "get_weather", score: 0.19, confidence: "low" }]);
  });
});

describe("a request that names a tool gets it first (openai/codex#21503)", () => {
  // The exact tool's own words are few; its neighbours repeat the request's words.
  const tools = [
    {
      name: "bulk_create_issues",
      description: "Create issues in bulk: create issue after issue from a list.",
    },
    { name: "create_issue_comment", description: "Create a comment on an issue." },
    { name: "create_issue", description: "Opens a new ticket." },
    { name: "github_create_issue", description: "Opens a new ticket on GitHub." },
    { name: "search_issues", description: "Finds issues by words." },
  ].map((tool) => ({ ...tool, inputSchema: { type: "object" } }));

  it("by its whole name first, then by a prefixed name's tail; each at relevance 1", () => {
    const index = new ToolIndex(tools);
    const ranked = (query: string) =>
      index.search(query, 3).map((hit) => `${hit.definition.name} ${hit.relevance.toFixed(2)}`);
    expect(ranked("create_issue")).toEqual([
      "create_issue 1.00",
      "github_create_issue 1.00",
      "create_issue_comment 1.00",
    ]);
    expect(ranked("please call `github_create_issue` for acme/app")[0]).toBe("github_create_issue 1.00");
    expect(ranked("createIssue")).toEqual(ranked("create_issue"));
    // Words are not names: "search" names no tool, and "GitHub" does not name github_create_issue.
    expect(index.namedTools("search for issues on GitHub")).toEqual([]);
  });

  it("through search_tools on a real Agent: the named tool is loaded first", async () => {
    const provider = scriptedModel([
      {
        toolCalls: [
          {
            id: "s1",
            name: "search_tools",
            input: { query: "create_issue for each issue in the bulk list", limit: 2 },
          },
        ],
      },
      { text: "ok" },
    ]);
    const agent = new Agent({
      provider,
      model: "m",
      tools: tools.map((tool) => ({ ...tool, defer: true, execute: async () => tool.name })),
    });
    const handle = agent.send("x");
    const loaded: string[][] = [];
    for await (const event of handle) if (event.type === "tool-search") loaded.push(event.loaded);
    await handle.final;
    expect(loaded).toEqual([["create_issue", "github_create_issue"]]);
    expect(names(provider.requests[1]!)).toEqual(["create_issue", "github_create_issue", "search_tools"]);
  });
});
