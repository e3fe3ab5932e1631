import type { ModelRequest, Tool, ToolSource } from "@junction/types";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent, annotationPolicy, MIN_RELEVANCE, type RunState, SMALL_CATALOG_TOOLS, tool } from "./index.js";
import { scriptedModel } from "./testing/index.js";
import { describeToolGroup } from "./tool-search.js";

function recordingTool(
  runs: string[],
  {
    name,
    description,
    properties = {},
  }: { name: string; description: string; properties?: Record<string, unknown> },
): Tool {
  return {
    name,
    description,
    inputSchema: { type: "object", properties },
    execute: async (input: unknown) => {
      runs.push(name);
      return `${name} ran with ${JSON.stringify(input)}`;
    },
  };
}

/** Thirty tools about different things, each with a long description (about 100 tokens of definition). */
function manyTools(runs: string[]): Tool[] {
  const topics = [
    ["get_forecast", "Gets the weather forecast for a city for the next days.", { city: {} }],
    ["send_email", "Sends an email message to a recipient.", { to: {}, subject: {}, body: {} }],
    ["create_issue", "Creates an issue in a GitHub repository.", { repo: {}, title: {} }],
    ["list_files", "Lists the files in a directory.", { path: {} }],
    ["delete_file", "Deletes a file at a path.", { path: {} }],
    ["query_database", "Runs a SQL query against the database.", { sql: {} }],
  ] as const;
  const tools = topics.map(([name, description, properties]) =>
    recordingTool(runs, {
      name,
      description: `${description} ${"Details of its behaviour. ".repeat(12)}`,
      properties,
    }),
  );
  for (let index = 0; index < 24; index++) {
    tools.push(
      recordingTool(runs, {
        name: `misc_${index}`,
        description: `Miscellaneous helper number ${index}. ${"Filler text. ".repeat(25)}`,
      }),
    );
  }
  return tools;
}

const names = (request: ModelRequest) => (request.tools ?? []).map((tool) => tool.name);

describe("deferred tools and tool search (client side)", () => {
  it("automatic mode: over 10% of the window the tools are deferred with a warning; the model searches, loads and calls one", async () => {
    const runs: string[] = [];
    const provider = scriptedModel({
      capabilities: { contextWindowTokens: 20_000 },
      responses: [
        {
          toolCalls: [
            { id: "s1", name: "search_tools", input: { query: "weather forecast for Paris", limit: 2 } },
          ],
        },
        { toolCalls: [{ id: "f1", name: "get_forecast", input: { city: "Paris" } }] },
        { text: "Sunny." },
      ],
    });
    const tools = manyTools(runs);
    const pinned = {
      ...recordingTool(runs, { name: "now", description: "The current time." }),
      alwaysLoad: true,
    };
    const agent = new Agent({ provider, model: "small", tools: [pinned, ...tools] });
    const result = await agent.send("Weather in Paris?").final;

    expect(result.text).toBe("Sunny.");
    expect(names(provider.requests[0]!)).toEqual(["now", "search_tools"]);
    expect(provider.requests[0]!.tools![1]!.description).toBe(
      "Searches 30 more tools that are available but not loaded yet, by what you want to do (words of their names, descriptions, parameters and servers). The tools found are loaded and can be called from your next step; " +
        "each comes with how well it fits (high, medium or low). When nothing fits well, the answer says so and loads only the closest few, or none: " +
        "read them before calling one, search again in other words, or answer without a tool. " +
        "A tool you already know by its exact name can be called without a search.",
    );
    const searchResult = provider.requests[1]!.messages.at(-1)!;
    expect(searchResult).toMatchObject({
      role: "tool",
      content: [
        {
          toolCallId: "s1",
          output: {
            content: [
              {
                type: "text",
                text: expect.stringMatching(
                  /^Loaded 1 tool\(s\), best first; call them from your next step:\n- get_forecast: Gets the weather forecast .*\[(high|medium) fit, 0\.\d\d\]$/,
                ),
              },
            ],
            isError: false,
            structuredContent: {
              query: "weather forecast for Paris",
              results: [{ name: "get_forecast", score: expect.any(Number), confidence: expect.any(String) }],
              loaded: ["get_forecast"],
              nothingFits: false,
            },
          },
        },
      ],
    });
    expect(names(provider.requests[1]!)).toEqual(["now", "get_forecast", "search_tools"]);
    expect(names(provider.requests[2]!)).toEqual(["now", "get_forecast", "search_tools"]);
    expect(runs).toEqual(["get_forecast"]);
    const deferredWarnings = result.warnings.filter((warning) => warning.code === "tools-deferred");
    expect(deferredWarnings).toHaveLength(1);
    expect(deferredWarnings[0]!.message).toMatch(
      /^30 of 31 tools were deferred: their definitions would take about \d+ tokens, over 2000 \(the share of model "small"'s context window/,
    );
  });

  it("per source and per tool: `defer` and `alwaysLoad` on an MCP entry, a tool's own mark wins; a large window defers nothing else", async () => {
    const runs: string[] = [];
    const source: ToolSource = {
      name: "files",
      listTools: async (options) =>
        [
          recordingTool(runs, { name: "read", description: "Reads a file." }),
          recordingTool(runs, { name: "write", description: "Writes a file." }),
          { ...recordingTool(runs, { name: "stat", description: "File metadata." }), defer: false },
        ].map((tool) => (options?.prefix ? { ...tool, name: `${options.prefix}_${tool.name}` } : tool)),
    };
    const provider = scriptedModel({
      capabilities: { contextWindowTokens: 1_000_000 },
      responses: [{ text: "hi" }],
    });
    const local = [
      recordingTool(runs, { name: "local", description: "A local tool." }),
      { ...recordingTool(runs, { name: "hidden", description: "Rare." }), defer: true },
    ];
    const result = await new Agent({
      provider,
      model: "big",
      tools: local,
      mcps: [{ mcp: source, prefix: "fs", defer: true, alwaysLoad: ["read"] }],
    }).send("x").final;
    expect(names(provider.requests[0]!)).toEqual(["local", "fs_read", "fs_stat", "search_tools"]);
    expect(result.warnings).toEqual([]);
  });

  it("a provider with native search for the model gets every tool, the deferred ones marked, and no search_tools", async () => {
    const provider = scriptedModel({
      capabilities: { contextWindowTokens: 20_000, nativeToolSearch: true },
      responses: [{ text: "hi" }],
    });
    const tools = manyTools([]);
    const pinned = {
      ...recordingTool([], { name: "now", description: "The current time." }),
      alwaysLoad: true,
    };
    const result = await new Agent({ provider, model: "m", tools: [pinned, ...tools] }).send("x").final;
    const sent = provider.requests[0]!.tools!;
    expect(sent.map((tool) => tool.name)).toEqual(["now", ...tools.map((tool) => tool.name)]);
    expect(sent.filter((tool) => tool.defer === true)).toHaveLength(30);
    expect(sent[0]!.defer).toBeUndefined();
    expect(result.warnings.map((warning) => warning.code)).toEqual(["tools-deferred"]);
  });

  it("with native search, a source's deferred tools carry its group (prefix or name, its description, their names); local ones none; step-end counts what the model sees up front", async () => {
    const source: ToolSource = {
      name: "GitHub server",
      description: "  Issues,\n pull requests   and repositories. ",
      listTools: async (options) =>
        [
          recordingTool([], { name: "issue", description: "Opens an issue." }),
          recordingTool([], { name: "pull", description: "Lists pull requests." }),
        ].map((tool) => (options?.prefix ? { ...tool, name: `${options.prefix}_${tool.name}` } : tool)),
    };
    const plain: ToolSource = {
      listTools: async () => [recordingTool([], { name: "ping", description: "Pings." })],
    };
    const provider = scriptedModel({
      capabilities: { contextWindowTokens: 1_000_000, nativeToolSearch: true },
      responses: [{ text: "hi" }],
    });
    const local = { ...recordingTool([], { name: "notes", description: "Local notes." }), defer: true };
    const agent = new Agent({
      provider,
      model: "m",
      tools: [local],
      mcps: [
        { mcp: source, prefix: "gh", defer: true },
        { mcp: plain, defer: true },
      ],
    });
    const events = [];
    for await (const event of agent.send("x")) events.push(event);
    const sent = provider.requests[0]!.tools!;
    const github = {
      name: "gh",
      description:
        'Tools of "gh": Issues, pull requests and repositories. Search to load them: gh_issue, gh_pull.',
    };
    expect(sent.map((tool) => [tool.name, tool.defer, tool.group])).toEqual([
      ["notes", true, undefined],
      ["gh_issue", true, github],
      ["gh_pull", true, github],
      ["ping", true, { name: "source_2", description: 'Tools of "source_2". Search to load them: ping.' }],
    ]);
    const stepEnd = events.find((event) => event.type === "step-end") as { request?: { tools: number } };
    // notes: its name and description; each group: its name and description once, and each member's name.
    const text = (value: string) => Math.ceil(value.length / 4);
    expect(stepEnd.request!.tools).toBe(
      text("notes") +
        text("Local notes.") +
        text("gh_issue") +
        text("gh") +
        text(github.description) +
        text("gh_pull") +
        text("ping") +
        text("source_2") +
        text('Tools of "source_2". Search to load them: ping.'),
    );
  });

  it("a group's description is bounded: the source's words cut at 300 characters, the names at 2,000 with how many more", () => {
    const names = Array.from({ length: 300 }, (_, index) => `tool_number_${index}`);
    const description = describeToolGroup({ name: "big", description: "x".repeat(1_000) }, names);
    expect(
      description.startsWith(`Tools of "big": ${"x".repeat(300)}… Search to load them: tool_number_0, `),
    ).toBe(true);
    const listed = description.split("Search to load them: ")[1]!;
    expect(listed.length).toBeLessThan(2_100);
    expect(listed).toMatch(/tool_number_\d+ and \d+ more\.$/);
    const shown = listed.split(", ").length;
    expect(listed.endsWith(` and ${300 - shown} more.`)).toBe(true);
  });

  it("mode off sends every tool, marks included, and adds no search", async () => {
    const provider = scriptedModel({
      capabilities: { contextWindowTokens: 20_000 },
      responses: [{ text: "hi" }],
    });
    const tools = manyTools([]);
    tools[0] = { ...tools[0]!, defer: true };
    const result = await new Agent({ provider, model: "m", tools, toolSearch: { mode: "off" } }).send("x")
      .final;
    expect(names(provider.requests[0]!)).toEqual(tools.map((tool) => tool.name));
    expect(result.warnings).toEqual([]);
  });

  it("a found tool stays loaded in the run's state: a resumed run (new Agent, state through JSON) sends it", async () => {
    const runs: string[] = [];
    const first = scriptedModel({
      capabilities: { contextWindowTokens: 20_000 },
      responses: [
        { toolCalls: [{ id: "s1", name: "search_tools", input: { query: "delete a file", limit: 1 } }] },
        { toolCalls: [{ id: "d1", name: "delete_file", input: { path: "/tmp/x" } }] },
      ],
    });
    const stopped = await new Agent({
      provider: first,
      model: "m",
      tools: manyTools(runs),
      approval: annotationPolicy(),
    }).send("Delete /tmp/x").final;
    expect(stopped.finishReason).toBe("approval-required");
    const state = JSON.parse(JSON.stringify(stopped.state)) as RunState;
    expect(state.loadedTools).toEqual(["delete_file"]);

    const second = scriptedModel({
      capabilities: { contextWindowTokens: 20_000 },
      responses: [{ text: "Deleted." }],
    });
    const resumed = await new Agent({
      provider: second,
      model: "m",
      tools: manyTools(runs),
      approval: annotationPolicy(),
    }).resume({ state, decisions: { d1: "approve" } }).final;
    expect(resumed.text).toBe("Deleted.");
    expect(runs).toEqual(["delete_file"]);
    expect(names(second.requests[0]!)).toEqual(["delete_file", "search_tools"]);
  });

  it("search_tools answers a bad query with an error result and a miss with a hint", async () => {
    const provider = scriptedModel({
      capabilities: { contextWindowTokens: 20_000 },
      responses: [
        {
          toolCalls: [
            { id: "a", name: "search_tools", input: { query: "" } },
            { id: "b", name: "search_tools", input: { query: "zzzz qqqq" } },
          ],
        },
        { text: "ok" },
      ],
    });
    await new Agent({ provider, model: "m", tools: manyTools([]) }).send("x").final;
    const results = provider.requests[1]!.messages.at(-1)!.content;
    expect(results).toEqual([
      {
        type: "tool-result",
        toolCallId: "a",
        toolName: "search_tools",
        output: {
          content: [{ type: "text", text: 'search_tools needs {"query": a non-empty string}.' }],
          isError: true,
        },
      },
      {
        type: "tool-result",
        toolCallId: "b",
        toolName: "search_tools",
        output: {
          content: [
            {
              type: "text",
              text: 'No tool matches "zzzz qqqq"; nothing was loaded. Try other words, or answer without a tool.',
            },
          ],
          isError: false,
          structuredContent: { query: "zzzz qqqq", results: [], loaded: [], nothingFits: true },
        },
      },
    ]);
  });

  it("set to load nothing whenever nothing fits well (minClosestRelevance at minRelevance, lowFitTools 0), a weak search loads nothing and says so; the model searches again in other words, loads and calls the tool; both searches are events", async () => {
    const runs: string[] = [];
    const provider = scriptedModel({
      capabilities: { contextWindowTokens: 20_000 },
      responses: [
        {
          toolCalls: [
            {
              id: "s1",
              name: "search_tools",
              input: { query: "message my colleague Dana about our lunch plans today" },
            },
          ],
        },
        { toolCalls: [{ id: "s2", name: "search_tools", input: { query: "send an email message" } }] },
        { toolCalls: [{ id: "e1", name: "send_email", input: { to: "dana@example.com" } }] },
        { text: "Sent." },
      ],
    });
    const agent = new Agent({
      provider,
      model: "m",
      tools: manyTools(runs),
      toolSearch: { minClosestRelevance: MIN_RELEVANCE, lowFitTools: 0 },
    });
    const handle = agent.send("Tell Dana about lunch");
    const events = [];
    for await (const event of handle) if (event.type === "tool-search") events.push(event);
    const result = await handle.final;

    expect(result.text).toBe("Sent.");
    expect(runs).toEqual(["send_email"]);
    const first = provider.requests[1]!.messages.at(-1)!.content[0] as {
      output: { content: { text: string }[] };
    };
    expect(first.output.content[0]!.text).toMatch(
      /^Nothing fits "message my colleague Dana about our lunch plans today" well \(closest: .+ \[(low|medium) fit, 0\.\d\d\]\); no tool was loaded\. Try other words, or answer without a tool\.$/,
    );
    // Nothing loaded by the first search; the second one's tool is offered from the next step on.
    expect(names(provider.requests[1]!)).toEqual(["search_tools"]);
    expect(names(provider.requests[2]!)).toEqual(["send_email", "search_tools"]);
    expect(events.map(({ id, query, loaded, nothingFits }) => ({ id, query, loaded, nothingFits }))).toEqual([
      {
        id: "s1",
        query: "message my colleague Dana about our lunch plans today",
        loaded: [],
        nothingFits: true,
      },
      { id: "s2", query: "send an email message", loaded: ["send_email"], nothingFits: false },
    ]);
    expect(events[1]!.results[0]).toEqual({
      name: "send_email",
      score: expect.any(Number),
      confidence: "high",
    });
    expect(events[0]!.results.every((found) => found.score < MIN_RELEVANCE)).toBe(true);
  });

  it("a low fit loads nothing from more than SMALL_CATALOG_TOOLS tools and names the closest; a tool the model knows by name still runs", async () => {
    const runs: string[] = [];
    const query = "text my colleague Dana about lunch";
    const provider = scriptedModel({
      capabilities: { contextWindowTokens: 20_000 },
      responses: [
        { toolCalls: [{ id: "s1", name: "search_tools", input: { query } }] },
        { toolCalls: [{ id: "e1", name: "send_email", input: { to: "dana@example.com" } }] },
        { text: "Sent." },
      ],
    });
    const tools = manyTools(runs);
    expect(tools.length).toBeGreaterThan(SMALL_CATALOG_TOOLS);
    const agent = new Agent({ provider, model: "m", tools });
    const handle = agent.send("Tell Dana about lunch");
    const events = [];
    for await (const event of handle) if (event.type === "tool-search") events.push(event);
    const result = await handle.final;

    expect(events).toHaveLength(1);
    const [search] = events;
    // Only the fillers' "text" matches: a low fit, named, and nothing loaded.
    expect(search!.nothingFits).toBe(true);
    expect(search!.loaded).toEqual([]);
    expect(search!.results.length).toBeGreaterThan(0);
    expect(
      search!.results.every((found) => found.confidence === "low" && found.name.startsWith("misc_")),
    ).toBe(true);
    const answer = provider.requests[1]!.messages.at(-1)!.content[0] as {
      output: { content: { text: string }[] };
    };
    expect(answer.output.content[0]!.text).toMatch(
      /^Nothing fits "text my colleague Dana about lunch" well \(closest: misc_\d+ \[low fit, 0\.03\].*\); no tool was loaded\. Try other words, or answer without a tool\.$/,
    );
    expect(names(provider.requests[1]!)).toEqual(["search_tools"]);
    // A deferred tool called by its real name goes through the gate and runs.
    expect(runs).toEqual(["send_email"]);
    expect(result.text).toBe("Sent.");
  });

  it("a low fit from a handful of tools loads the closest one", async () => {
    const runs: string[] = [];
    const query = "drop Dana a message about lunch";
    const provider = scriptedModel({
      capabilities: { contextWindowTokens: 20_000 },
      responses: [{ toolCalls: [{ id: "s1", name: "search_tools", input: { query } }] }, { text: "ok" }],
    });
    const tools = manyTools(runs).slice(0, 6);
    expect(tools.length).toBeLessThanOrEqual(SMALL_CATALOG_TOOLS);
    const agent = new Agent({
      provider,
      model: "m",
      tools: tools.map((each) => ({ ...each, defer: true })),
    });
    const handle = agent.send("Tell Dana about lunch");
    const events = [];
    for await (const event of handle) if (event.type === "tool-search") events.push(event);
    await handle.final;
    expect(events).toHaveLength(1);
    expect(events[0]!.nothingFits).toBe(true);
    expect(events[0]!.results[0]).toEqual({ name: "send_email", score: 0.19, confidence: "low" });
    expect(events[0]!.loaded).toEqual(["send_email"]);
    expect(names(provider.requests[1]!)).toEqual(["send_email", "search_tools"]);
  });

  it("a medium-fit search says nothing fits well and loads only the closest 3, which the model can call from its next step", async () => {
    const runs: string[] = [];
    const query = "get rid of the file notes.txt";
    const provider = scriptedModel({
      capabilities: { contextWindowTokens: 20_000 },
      responses: [
        { toolCalls: [{ id: "s1", name: "search_tools", input: { query } }] },
        { toolCalls: [{ id: "d1", name: "delete_file", input: { path: "notes.txt" } }] },
        { text: "Deleted." },
      ],
    });
    const agent = new Agent({ provider, model: "m", tools: manyTools(runs) });
    const handle = agent.send("Get rid of notes.txt");
    const events = [];
    for await (const event of handle) if (event.type === "tool-search") events.push(event);
    const result = await handle.final;

    expect(result.text).toBe("Deleted.");
    expect(runs).toEqual(["delete_file"]);
    const loaded = ["get_forecast", "list_files", "delete_file"];
    // A line per tool loaded: its description's first 200 characters (manyTools pads them).
    const line = (name: string, description: string, fit: string) =>
      `- ${name}: ${`${description} ${"Details of its behaviour. ".repeat(12)}`.trim().slice(0, 200)}… [${fit}]`;
    expect(events).toEqual([
      {
        type: "tool-search",
        id: "s1",
        query,
        results: [
          { name: "get_forecast", score: 0.33, confidence: "medium" },
          { name: "list_files", score: 0.27, confidence: "medium" },
          { name: "delete_file", score: 0.27, confidence: "medium" },
        ],
        loaded,
        nothingFits: true,
      },
    ]);
    expect(provider.requests[1]!.messages.at(-1)!.content[0]).toMatchObject({
      output: {
        content: [
          {
            type: "text",
            text:
              `Nothing fits "${query}" well. The closest 3, loaded in case one does (read what each does before calling it); or try other words, or answer without a tool:\n` +
              [
                line(
                  "get_forecast",
                  "Gets the weather forecast for a city for the next days.",
                  "medium fit, 0.33",
                ),
                line("list_files", "Lists the files in a directory.", "medium fit, 0.27"),
                line("delete_file", "Deletes a file at a path.", "medium fit, 0.27"),
              ].join("\n"),
          },
        ],
      },
    });
    expect(names(provider.requests[1]!)).toEqual([...loaded, "search_tools"]);
  });

  it("a long request with names, numbers and several asks loads its tool instead of saying nothing fits", async () => {
    const runs: string[] = [];
    const query =
      "My sister Alice flies from Lyon to Paris on 14 March with 2 suitcases, flight AF1234 at 07:45; what will the weather forecast be there, and should she pack an umbrella?";
    const provider = scriptedModel({
      capabilities: { contextWindowTokens: 20_000 },
      responses: [
        { toolCalls: [{ id: "s1", name: "search_tools", input: { query } }] },
        { toolCalls: [{ id: "f1", name: "get_forecast", input: { city: "Paris" } }] },
        { text: "Rain: yes." },
      ],
    });
    const agent = new Agent({ provider, model: "m", tools: manyTools(runs) });
    const handle = agent.send(query);
    const events = [];
    for await (const event of handle) if (event.type === "tool-search") events.push(event);
    const result = await handle.final;

    expect(result.text).toBe("Rain: yes.");
    expect(runs).toEqual(["get_forecast"]);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ id: "s1", nothingFits: false });
    expect(events[0]!.loaded[0]).toBe("get_forecast");
    expect(events[0]!.results[0]!.score).toBeGreaterThanOrEqual(MIN_RELEVANCE);
    expect(names(provider.requests[1]!)[0]).toBe("get_forecast");
  });

  it("a second search adds to what the first loaded", async () => {
    const provider = scriptedModel({
      capabilities: { contextWindowTokens: 20_000 },
      responses: [
        { toolCalls: [{ id: "s1", name: "search_tools", input: { query: "weather forecast", limit: 1 } }] },
        { toolCalls: [{ id: "s2", name: "search_tools", input: { query: "delete a file", limit: 1 } }] },
        { text: "ok" },
      ],
    });
    await new Agent({ provider, model: "m", tools: manyTools([]) }).send("x").final;
    expect(names(provider.requests[1]!)).toEqual(["get_forecast", "search_tools"]);
    expect(names(provider.requests[2]!)).toEqual(["get_forecast", "delete_file", "search_tools"]);
  });
});

describe("tool() carries the per-tool options an Agent reads (issue 26)", () => {
  // The thirty tools of manyTools(), made with tool(): together over 10% of a 20,000-token window.
  const zodTools = () =>
    manyTools([]).map((plain) =>
      tool({
        name: plain.name,
        description: plain.description,
        schema: z.object({ value: z.string().optional() }),
        execute: async () => `${plain.name} ran`,
      }),
    );

  it("`defer: true` keeps a tool out of the first request and offers search_tools; the model finds and calls it", async () => {
    const provider = scriptedModel({
      capabilities: { contextWindowTokens: 1_000_000 },
      responses: [
        { toolCalls: [{ id: "s", name: "search_tools", input: { query: "archive old invoices" } }] },
        { toolCalls: [{ id: "a", name: "archive_invoices", input: { before: "2020" } }] },
        { text: "Archived." },
      ],
    });
    const archive = tool({
      name: "archive_invoices",
      description: "Archives old invoices.",
      schema: z.object({ before: z.string() }),
      defer: true,
      execute: async ({ before }) => `archived before ${before}`,
    });
    const add = tool({
      name: "add",
      description: "Adds two numbers.",
      schema: z.object({ a: z.number(), b: z.number() }),
      execute: async ({ a, b }) => String(a + b),
    });
    const result = await new Agent({ provider, model: "big", tools: [add, archive] }).send("Archive").final;

    expect(names(provider.requests[0]!)).toEqual(["add", "search_tools"]);
    expect(names(provider.requests[1]!)).toEqual(["add", "archive_invoices", "search_tools"]);
    expect(result.steps[1]!.toolResults[0]!.output).toBe("archived before 2020");
    expect(result.text).toBe("Archived.");
    expect(archive.defer).toBe(true);
  });

  it("`alwaysLoad: true` keeps a tool loaded when the automatic mode defers every other one", async () => {
    const provider = scriptedModel({
      capabilities: { contextWindowTokens: 20_000 },
      responses: [{ text: "Hello." }],
    });
    const clock = tool({
      name: "now",
      description: "The current time.",
      schema: z.object({}),
      alwaysLoad: true,
      execute: async () => "noon",
    });
    const result = await new Agent({ provider, model: "small", tools: [clock, ...zodTools()] }).send("hi")
      .final;
    expect(names(provider.requests[0]!)).toEqual(["now", "search_tools"]);
    expect(result.warnings.map((warning) => warning.code)).toEqual(["tools-deferred"]);
    expect(clock.alwaysLoad).toBe(true);
  });

  it("carries `outputSchema` and `annotations` into the definition the model is sent", async () => {
    const provider = scriptedModel({ responses: [{ text: "ok" }] });
    const weather = tool({
      name: "weather",
      description: "The weather in a city.",
      schema: z.object({ city: z.string() }),
      outputSchema: { type: "object", properties: { celsius: { type: "number" } } },
      annotations: { readOnlyHint: true },
      execute: async () => ({ content: [], isError: false, structuredContent: { celsius: 20 } }),
    });
    await new Agent({ provider, model: "m", tools: [weather] }).send("x").final;
    expect(provider.requests[0]!.tools).toEqual([
      {
        name: "weather",
        description: "The weather in a city.",
        inputSchema: {
          type: "object",
          properties: { city: { type: "string" } },
          required: ["city"],
        },
        outputSchema: { type: "object", properties: { celsius: { type: "number" } } },
        annotations: { readOnlyHint: true },
      },
    ]);
  });
});

describe("tool search with an embedder (toolSearch.embed)", () => {
  /** A deterministic embedder: one dimension per concept, so "rain" meets "forecast". */
  const weatherWords = ["weather", "forecast", "rain", "umbrella"];
  const conceptEmbedder = (calls: string[][]) => async (texts: string[]) => {
    calls.push(texts);
    return texts.map((text) => {
      const words = text.toLowerCase().split(/[^a-z]+/);
      return [words.filter((word) => weatherWords.includes(word)).length, 0.05];
    });
  };

  it("a low fit on words, from more than SMALL_CATALOG_TOOLS tools, still loads the closest when a dense ranking is fused in", async () => {
    const calls: string[][] = [];
    const query = "will it rain, text me";
    const provider = scriptedModel({
      capabilities: { contextWindowTokens: 20_000 },
      responses: [{ toolCalls: [{ id: "s1", name: "search_tools", input: { query } }] }, { text: "ok" }],
    });
    const agent = new Agent({
      provider,
      model: "small",
      tools: manyTools([]),
      toolSearch: { embed: conceptEmbedder(calls), fusion: "mix" },
    });
    const handle = agent.send("Rain?");
    const events = [];
    for await (const event of handle) if (event.type === "tool-search") events.push(event);
    await handle.final;
    // Only the fillers share a word ("text"), a low fit; the meaning ranks get_forecast first.
    expect(events).toHaveLength(1);
    expect(events[0]!.nothingFits).toBe(true);
    expect(events[0]!.results[0]).toEqual({ name: "get_forecast", score: 0, confidence: "low" });
    expect(events[0]!.loaded).toEqual(["get_forecast"]);
  });

  it("a request in other words than the tool's: the dense ranking finds it, it is loaded and called; tools embedded once", async () => {
    const runs: string[] = [];
    const calls: string[][] = [];
    const provider = scriptedModel({
      capabilities: { contextWindowTokens: 20_000 },
      responses: [
        {
          toolCalls: [
            { id: "s1", name: "search_tools", input: { query: "do I need an umbrella", limit: 1 } },
          ],
        },
        { toolCalls: [{ id: "s2", name: "search_tools", input: { query: "rain tomorrow?", limit: 1 } }] },
        { toolCalls: [{ id: "f1", name: "get_forecast", input: { city: "Paris" } }] },
        { text: "Take one." },
      ],
    });
    const agent = new Agent({
      provider,
      model: "small",
      tools: manyTools(runs),
      toolSearch: { embed: conceptEmbedder(calls), minSimilarity: 0.9 },
    });
    const result = await agent.send("Do I need an umbrella in Paris?").final;

    expect(result.text).toBe("Take one.");
    expect(runs).toEqual(["get_forecast"]);
    expect(names(provider.requests[0]!)).toEqual(["search_tools"]);
    expect(names(provider.requests[1]!)).toEqual(["get_forecast", "search_tools"]);
    const searches = result.messages.filter((message) => message.role === "tool").slice(0, 2);
    expect(
      searches.map(
        (message) => (message.content[0]!.output as { structuredContent: unknown }).structuredContent,
      ),
    ).toEqual([
      {
        query: "do I need an umbrella",
        results: [{ name: "get_forecast", score: 0, confidence: "low" }],
        loaded: ["get_forecast"],
        nothingFits: false,
      },
      {
        query: "rain tomorrow?",
        results: [{ name: "get_forecast", score: 0, confidence: "low" }],
        loaded: ["get_forecast"],
        nothingFits: false,
      },
    ]);
    // The 30 tools once (asked for beside the first search's query), then one query per search.
    expect(calls.map((texts) => texts.length)).toEqual([1, 30, 1]);
    expect(result.warnings.filter((warning) => warning.code === "tool-search-embedder-failed")).toEqual([]);
  });

  it("a failing embedder: each search ranks by words, one warning for the run, and the run finishes", async () => {
    const runs: string[] = [];
    let attempts = 0;
    const provider = scriptedModel({
      capabilities: { contextWindowTokens: 20_000 },
      responses: [
        { toolCalls: [{ id: "s1", name: "search_tools", input: { query: "weather forecast", limit: 1 } }] },
        { toolCalls: [{ id: "s2", name: "search_tools", input: { query: "send an email", limit: 1 } }] },
        { toolCalls: [{ id: "f1", name: "get_forecast", input: { city: "Paris" } }] },
        { text: "Sunny." },
      ],
    });
    const agent = new Agent({
      provider,
      model: "small",
      tools: manyTools(runs),
      toolSearch: {
        embed: async () => {
          attempts++;
          throw new TypeError("fetch failed");
        },
      },
    });
    const result = await agent.send("Weather in Paris?").final;

    expect(result.text).toBe("Sunny.");
    expect(runs).toEqual(["get_forecast"]);
    expect(names(provider.requests[2]!)).toEqual(["get_forecast", "send_email", "search_tools"]);
    // Each search asked for its request's vector and, beside it, the tools' (none were kept).
    expect(attempts).toBe(4);
    expect(result.warnings.filter((warning) => warning.code === "tool-search-embedder-failed")).toEqual([
      {
        code: "tool-search-embedder-failed",
        message:
          "The tool search's embedder (toolSearch.embed) failed, so the search ranked tools by their words alone: fetch failed. " +
          "Check the embedder's key and model, or leave toolSearch.embed unset.",
      },
    ]);
  });
});
