// Anthropic's native tool search through the real `@anthropic-ai/sdk` and the Messages API's wire
// shape (a local wire fake): on a model that declares `nativeToolSearch`, deferred tools go out with
// `defer_loading: true` beside the `tool_search_tool_bm25_20251119` server tool; the turn's
// `server_tool_use` and `tool_search_tool_result` blocks come back on the next request unchanged.
import { Agent } from "@junction/core";
import { anthropic } from "@junction/provider-anthropic";
import type { Tool } from "@junction/types";
import {
  anthropicStream,
  anthropicText,
  anthropicToolUse,
  startWireFake,
  type WireFake,
} from "@junction/wire-fake";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const model = "claude-sonnet-4-5";
const searchResult = {
  type: "tool_search_tool_result",
  tool_use_id: "srvtoolu_01",
  content: {
    type: "tool_search_tool_search_result",
    tool_references: [{ type: "tool_reference", tool_name: "get_forecast" }],
  },
};

const searchAndCall = anthropicStream({
  id: "msg_1",
  model,
  blocks: [
    {
      start: { type: "server_tool_use", id: "srvtoolu_01", name: "tool_search_tool_bm25", input: {} },
      deltas: [
        { type: "input_json_delta", partial_json: '{"query":' },
        { type: "input_json_delta", partial_json: '"weather"}' },
      ],
    },
    { start: searchResult },
    anthropicToolUse({ id: "toolu_01", name: "get_forecast" }, '{"city":"Paris"}'),
  ],
  stopReason: "tool_use",
  outputTokens: 30,
});
const answer = anthropicStream({
  id: "msg_2",
  model,
  blocks: [anthropicText("Sunny in Paris.")],
  stopReason: "end_turn",
  outputTokens: 5,
});

function tools(runs: string[]): Tool[] {
  const make = (name: string, description: string, defer: boolean): Tool => ({
    name,
    description,
    inputSchema: { type: "object", properties: { city: { type: "string" } } },
    ...(defer ? { defer: true } : {}),
    execute: async () => {
      runs.push(name);
      return "sunny";
    },
  });
  return [
    make("clock", "Tells the time.", false),
    make("get_forecast", "Gets the weather forecast for a city.", true),
    make("send_email", "Sends an email.", true),
  ];
}

describe("Anthropic native tool search", () => {
  let fake: WireFake;
  beforeEach(async () => {
    fake = await startWireFake();
  });
  afterEach(() => fake.close());

  it("sends deferred tools with defer_loading and the BM25 search tool, and echoes the search blocks back", async () => {
    fake.enqueue({ chunks: searchAndCall }, { chunks: answer });
    const runs: string[] = [];
    const agent = new Agent({
      provider: anthropic({ apiKey: "k", baseURL: fake.url, maxRetries: 0 }),
      model: "claude-sonnet-4-5",
      tools: tools(runs),
    });
    const result = await agent.send("Weather in Paris?").final;
    expect(result.text).toBe("Sunny in Paris.");
    expect(runs).toEqual(["get_forecast"]);
    expect(result.warnings).toEqual([]);

    const schema = { type: "object", properties: { city: { type: "string" } } };
    const first = fake.requests[0]!;
    expect(first.body.tools).toEqual([
      { name: "clock", description: "Tells the time.", input_schema: schema },
      {
        name: "get_forecast",
        description: "Gets the weather forecast for a city.",
        input_schema: schema,
        defer_loading: true,
      },
      { name: "send_email", description: "Sends an email.", input_schema: schema, defer_loading: true },
      { type: "tool_search_tool_bm25_20251119", name: "tool_search_tool_bm25" },
    ]);
    const second = fake.requests[1]!.body;
    expect(second.tools).toEqual(first.body.tools);
    expect(second.messages[1]).toEqual({
      role: "assistant",
      content: [
        {
          type: "server_tool_use",
          id: "srvtoolu_01",
          name: "tool_search_tool_bm25",
          input: { query: "weather" },
        },
        searchResult,
        { type: "tool_use", id: "toolu_01", name: "get_forecast", input: { city: "Paris" } },
      ],
    });
    expect(second.messages[2]).toEqual({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "toolu_01", content: "sunny" }],
    });
  });

  it("is declared for the models Anthropic's page lists, and no others", () => {
    const provider = anthropic({ apiKey: "k" });
    const native = (model: string) => provider.capabilitiesFor!(model).nativeToolSearch === true;
    for (const model of [
      "claude-sonnet-4-5-20250929",
      "claude-opus-4-5-20251101",
      "claude-sonnet-4-6",
      "claude-opus-4-8",
      "claude-haiku-4-5-20251001",
      "claude-haiku-5-5",
      "claude-sonnet-5-5",
      "claude-fable-5-1",
      "claude-mythos-5",
    ])
      expect([model, native(model)]).toEqual([model, true]);
    for (const model of [
      "claude-sonnet-4-20250514",
      "claude-opus-4-1",
      "claude-3-5-haiku-latest",
      "claude-3-7-sonnet",
    ])
      expect([model, native(model)]).toEqual([model, false]);
  });

  it("toolSearch.native false, or a model without it, uses Junction's search_tools instead", async () => {
    for (const [model, native] of [
      ["claude-sonnet-4-5", false],
      ["claude-3-5-haiku-latest", true],
    ] as const) {
      fake.enqueue({ chunks: answer });
      const before = fake.requests.length;
      await new Agent({
        provider: anthropic({ apiKey: "k", baseURL: fake.url, maxRetries: 0 }),
        model,
        tools: tools([]),
        toolSearch: { native },
      }).send("hi").final;
      const sent = fake.requests[before]!.body.tools as { name: string; defer_loading?: boolean }[];
      expect(sent.map((tool) => tool.name)).toEqual(["clock", "search_tools"]);
      expect(sent.some((tool) => tool.defer_loading)).toBe(false);
    }
  });
});
