// Junction's own tool search (`search_tools`) through every provider's real vendor SDK against
// its local wire fake, as one scenario run per provider: the tools are deferred, so the first
// request offers only search_tools; the model searches in words no tool's description shares and
// is told plainly that nothing fits (nothing loaded), searches again in other words, and the tool
// found is offered on the next request in the vendor's own tool format; the model calls it and
// its result reaches the model. What each step sent is asserted on the wire, as the vendor sees it.

import type { AgentEvent } from "@junction/core";
import { Agent } from "@junction/core";
import { anthropic } from "@junction/provider-anthropic";
import { bedrock } from "@junction/provider-bedrock";
import { chatCompletions } from "@junction/provider-chatcompletions";
import { gemini } from "@junction/provider-gemini";
import { openai } from "@junction/provider-openai";
import type { ModelProvider, Tool } from "@junction/types";
import type { RecordedRequest } from "@junction/wire-fake";
import { startWireFake } from "@junction/wire-fake";
import { bedrockEvent, startBedrockFake } from "@junction/wire-fake/bedrock";
import { describe, expect, it } from "vitest";

/** A tool the scenario can offer, as its definition goes to every vendor. */
interface Definition {
  name: string;
  description: string;
  inputSchema: { type: "object"; properties: Record<string, unknown>; required?: string[] };
}

/** What differs between vendors: how the fake answers, and where a request carries tools and results. */
interface WireScenario {
  vendor: string;
  /** A fake speaking the vendor's wire format, and the provider pointed at it. */
  start(): Promise<{
    requests: RecordedRequest[];
    enqueue(...replies: unknown[]): void;
    close(): Promise<void>;
    provider: ModelProvider;
    model: string;
  }>;
  /** A streamed answer asking for one tool call. */
  toolCall(id: string, name: string, input: Record<string, unknown>): unknown;
  /** A streamed text answer. */
  text(text: string): unknown;
  /** The request's tools, in the vendor's format. */
  tools(body: any): unknown[];
  /** A definition as the vendor's request carries it. */
  definition(definition: Definition): unknown;
  /** The tool result for call `id` (of tool `name`) in the request, as sent. */
  result(body: any, id: string, name: string): unknown;
  /** A tool result of text parts (what search_tools returns) as the vendor's request carries it. */
  textResult(id: string, name: string, text: string): unknown;
  /** A tool's plain string output as the vendor's request carries it, where it differs from `textResult`. */
  stringResult?(id: string, name: string, text: string): unknown;
}

const sseEvent = (data: { type: string }) => `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;
const sseData = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;

const anthropicScenario: WireScenario = {
  vendor: "anthropic",
  async start() {
    const fake = await startWireFake();
    return {
      ...fake,
      provider: anthropic({ apiKey: "test-key", baseURL: fake.url, maxRetries: 0 }),
      model: "claude-sonnet-4-6",
    };
  },
  toolCall: (id, name, input) => ({
    chunks: [
      sseEvent({
        type: "message_start",
        message: {
          id: `msg_${id}`,
          type: "message",
          role: "assistant",
          model: "claude-sonnet-4-6",
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 100, output_tokens: 1 },
        },
      } as { type: string }),
      sseEvent({
        type: "content_block_start",
        index: 0,
        content_block: { type: "tool_use", id, name, input: {} },
      } as { type: string }),
      sseEvent({
        type: "content_block_delta",
        index: 0,
        delta: { type: "input_json_delta", partial_json: JSON.stringify(input) },
      } as { type: string }),
      sseEvent({ type: "content_block_stop", index: 0 } as { type: string }),
      sseEvent({
        type: "message_delta",
        delta: { stop_reason: "tool_use", stop_sequence: null },
        usage: { output_tokens: 20 },
      } as { type: string }),
      sseEvent({ type: "message_stop" }),
    ],
  }),
  text: (text) => ({
    chunks: [
      sseEvent({
        type: "message_start",
        message: {
          id: "msg_text",
          type: "message",
          role: "assistant",
          model: "claude-sonnet-4-6",
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 100, output_tokens: 1 },
        },
      } as { type: string }),
      sseEvent({
        type: "content_block_start",
        index: 0,
        content_block: { type: "text", text: "" },
      } as { type: string }),
      sseEvent({
        type: "content_block_delta",
        index: 0,
        delta: { type: "text_delta", text },
      } as { type: string }),
      sseEvent({ type: "content_block_stop", index: 0 } as { type: string }),
      sseEvent({
        type: "message_delta",
        delta: { stop_reason: "end_turn", stop_sequence: null },
        usage: { output_tokens: 5 },
      } as { type: string }),
      sseEvent({ type: "message_stop" }),
    ],
  }),
  tools: (body) => body.tools ?? [],
  definition: ({ name, description, inputSchema }) => ({ name, description, input_schema: inputSchema }),
  result: (body, id) =>
    body.messages
      .flatMap((message: { content: unknown }) => (Array.isArray(message.content) ? message.content : []))
      .find(
        (block: { type: string; tool_use_id?: string }) =>
          block.type === "tool_result" && block.tool_use_id === id,
      ),
  textResult: (id, _name, text) => ({
    type: "tool_result",
    tool_use_id: id,
    content: [{ type: "text", text }],
  }),
  stringResult: (id, _name, text) => ({ type: "tool_result", tool_use_id: id, content: text }),
};

const openAIResponse = (id: string, status: string, output: unknown[] = []) => ({
  id,
  object: "response",
  model: "gpt-5.1-2025-11-13",
  status,
  output,
  usage: status === "in_progress" ? null : { input_tokens: 100, output_tokens: 20, total_tokens: 120 },
});

const openAIScenario: WireScenario = {
  vendor: "openai",
  async start() {
    const fake = await startWireFake();
    return {
      ...fake,
      provider: openai({ apiKey: "sk-test", baseURL: `${fake.url}/v1`, maxRetries: 0 }),
      model: "gpt-5.1",
    };
  },
  toolCall: (id, name, input) => {
    const item = {
      id: `fc_${id}`,
      type: "function_call",
      status: "completed",
      call_id: id,
      name,
      arguments: JSON.stringify(input),
    };
    return {
      chunks: [
        sseEvent({ type: "response.created", response: openAIResponse(`resp_${id}`, "in_progress") } as {
          type: string;
        }),
        sseEvent({
          type: "response.output_item.added",
          output_index: 0,
          item: { ...item, status: "in_progress", arguments: "" },
        } as { type: string }),
        sseEvent({
          type: "response.function_call_arguments.delta",
          output_index: 0,
          item_id: item.id,
          delta: item.arguments,
        } as { type: string }),
        sseEvent({ type: "response.output_item.done", output_index: 0, item } as { type: string }),
        sseEvent({
          type: "response.completed",
          response: openAIResponse(`resp_${id}`, "completed", [item]),
        } as { type: string }),
      ],
    };
  },
  text: (text) => {
    const message = { id: "msg_text", type: "message", role: "assistant", status: "completed" };
    const done = { ...message, content: [{ type: "output_text", text, annotations: [] }] };
    return {
      chunks: [
        sseEvent({ type: "response.created", response: openAIResponse("resp_text", "in_progress") } as {
          type: string;
        }),
        sseEvent({
          type: "response.output_item.added",
          output_index: 0,
          item: { ...message, content: [] },
        } as { type: string }),
        sseEvent({
          type: "response.output_text.delta",
          output_index: 0,
          content_index: 0,
          delta: text,
        } as { type: string }),
        sseEvent({ type: "response.output_item.done", output_index: 0, item: done } as { type: string }),
        sseEvent({
          type: "response.completed",
          response: openAIResponse("resp_text", "completed", [done]),
        } as { type: string }),
      ],
    };
  },
  tools: (body) => body.tools ?? [],
  definition: ({ name, description, inputSchema }) => ({
    type: "function",
    name,
    description,
    parameters: inputSchema,
    strict: false,
  }),
  result: (body, id) =>
    body.input.find(
      (item: { type?: string; call_id?: string }) =>
        item.type === "function_call_output" && item.call_id === id,
    ),
  textResult: (id, _name, text) => ({
    type: "function_call_output",
    call_id: id,
    output: [{ type: "input_text", text }],
  }),
  stringResult: (id, _name, text) => ({ type: "function_call_output", call_id: id, output: text }),
};

const chunk = (delta: object, finish: string | null = null) => ({
  id: "chatcmpl-1",
  object: "chat.completion.chunk",
  created: 1785332890,
  model: "qwen3",
  choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
});

const usage = { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 };

const chatCompletionsScenario: WireScenario = {
  vendor: "chatcompletions",
  async start() {
    const fake = await startWireFake();
    return {
      ...fake,
      provider: chatCompletions({ baseURL: `${fake.url}/v1`, maxRetries: 0 }),
      model: "qwen3",
    };
  },
  toolCall: (id, name, input) => ({
    chunks: [
      sseData(chunk({ role: "assistant", content: null })),
      sseData(chunk({ tool_calls: [{ index: 0, id, type: "function", function: { name, arguments: "" } }] })),
      sseData(chunk({ tool_calls: [{ index: 0, function: { arguments: JSON.stringify(input) } }] })),
      sseData(chunk({}, "tool_calls")),
      sseData({ ...chunk({}), choices: [], usage }),
      "data: [DONE]\n\n",
    ],
  }),
  text: (text) => ({
    chunks: [
      sseData(chunk({ role: "assistant", content: text })),
      sseData(chunk({}, "stop")),
      sseData({ ...chunk({}), choices: [], usage }),
      "data: [DONE]\n\n",
    ],
  }),
  tools: (body) => body.tools ?? [],
  definition: ({ name, description, inputSchema }) => ({
    type: "function",
    function: { name, description, parameters: inputSchema },
  }),
  result: (body, id) =>
    body.messages.find(
      (message: { role: string; tool_call_id?: string }) =>
        message.role === "tool" && message.tool_call_id === id,
    ),
  textResult: (id, _name, text) => ({ role: "tool", tool_call_id: id, content: text }),
};

const geminiScenario: WireScenario = {
  vendor: "gemini",
  async start() {
    const fake = await startWireFake();
    return {
      ...fake,
      provider: gemini({ apiKey: "test-key", baseURL: fake.url, apiVersion: "v1beta", maxRetries: 0 }),
      model: "gemini-2.5-flash",
    };
  },
  // Gemini's function calls carry an id only on some models; with one, the result names it back.
  toolCall: (id, name, input) => ({
    chunks: [
      sseData({
        candidates: [
          {
            content: { parts: [{ functionCall: { id, name, args: input } }], role: "model" },
            finishReason: "STOP",
            index: 0,
          },
        ],
        usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 10, totalTokenCount: 110 },
        modelVersion: "gemini-2.5-flash",
      }),
    ],
  }),
  text: (text) => ({
    chunks: [
      sseData({
        candidates: [{ content: { parts: [{ text }], role: "model" }, finishReason: "STOP", index: 0 }],
        usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 3, totalTokenCount: 103 },
        modelVersion: "gemini-2.5-flash",
      }),
    ],
  }),
  tools: (body) =>
    body.tools?.flatMap((group: { functionDeclarations?: unknown[] }) => group.functionDeclarations ?? []) ??
    [],
  definition: ({ name, description, inputSchema }) => ({
    name,
    description,
    parametersJsonSchema: inputSchema,
  }),
  result: (body, id) =>
    body.contents
      .flatMap((content: { parts: unknown[] }) => content.parts)
      .find((part: { functionResponse?: { id?: string } }) => part.functionResponse?.id === id),
  textResult: (id, name, text) => ({ functionResponse: { id, name, response: { output: text } } }),
};

const bedrockScenario: WireScenario = {
  vendor: "bedrock",
  async start() {
    const fake = await startBedrockFake();
    return {
      ...fake,
      enqueue: (...replies: unknown[]) => fake.enqueue(...(replies as Parameters<typeof fake.enqueue>)),
      provider: bedrock({
        region: "us-east-1",
        credentials: { accessKeyId: "AKIDFAKEBEDROCK", secretAccessKey: "fake-secret" },
        baseURL: fake.url,
        maxRetries: 0,
      }),
      model: "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
    };
  },
  toolCall: (id, name, input) => ({
    frames: [
      bedrockEvent("messageStart", { role: "assistant" }),
      bedrockEvent("contentBlockStart", {
        contentBlockIndex: 0,
        start: { toolUse: { name, toolUseId: id } },
      }),
      bedrockEvent("contentBlockDelta", {
        contentBlockIndex: 0,
        delta: { toolUse: { input: JSON.stringify(input) } },
      }),
      bedrockEvent("contentBlockStop", { contentBlockIndex: 0 }),
      bedrockEvent("messageStop", { stopReason: "tool_use" }),
      bedrockEvent("metadata", {
        metrics: { latencyMs: 100 },
        usage: { inputTokens: 100, outputTokens: 20, totalTokens: 120 },
      }),
    ],
  }),
  text: (text) => ({
    frames: [
      bedrockEvent("messageStart", { role: "assistant" }),
      bedrockEvent("contentBlockDelta", { contentBlockIndex: 0, delta: { text } }),
      bedrockEvent("contentBlockStop", { contentBlockIndex: 0 }),
      bedrockEvent("messageStop", { stopReason: "end_turn" }),
      bedrockEvent("metadata", {
        metrics: { latencyMs: 100 },
        usage: { inputTokens: 100, outputTokens: 3, totalTokens: 103 },
      }),
    ],
  }),
  tools: (body) => body.toolConfig?.tools ?? [],
  definition: ({ name, description, inputSchema }) => ({
    toolSpec: { name, description, inputSchema: { json: inputSchema } },
  }),
  result: (body, id) =>
    body.messages
      .flatMap((message: { content: unknown[] }) => message.content)
      .find((block: { toolResult?: { toolUseId: string } }) => block.toolResult?.toolUseId === id),
  textResult: (id, _name, text) => ({ toolResult: { toolUseId: id, content: [{ text }] } }),
};

const scenarios = [
  anthropicScenario,
  openAIScenario,
  chatCompletionsScenario,
  geminiScenario,
  bedrockScenario,
];

const definitions: Definition[] = [
  ["get_forecast", "Gets the weather forecast for a city for the next days.", { city: { type: "string" } }],
  [
    "send_email",
    "Sends an email message to a recipient.",
    { to: { type: "string" }, subject: { type: "string" }, body: { type: "string" } },
  ],
  [
    "create_issue",
    "Creates an issue in a GitHub repository.",
    { repo: { type: "string" }, title: { type: "string" } },
  ],
  ["list_files", "Lists the files in a directory.", { path: { type: "string" } }],
  ["delete_file", "Deletes a file at a path.", { path: { type: "string" } }],
  ["query_database", "Runs a SQL query against the database.", { sql: { type: "string" } }],
].map(([name, description, properties]) => ({
  name: name as string,
  description: description as string,
  inputSchema: { type: "object" as const, properties: properties as Record<string, unknown> },
}));

function deferredTools(runs: unknown[]): Tool[] {
  return definitions.map((definition) => ({
    ...definition,
    defer: true,
    execute: async (input: unknown) => {
      runs.push([definition.name, input]);
      return `${definition.name} done: ${JSON.stringify(input)}`;
    },
  }));
}

const vagueQuery = "message my colleague Dana about our lunch plans today";
const betterQuery = "send an email message";
const emailInput = { to: "dana@example.com", subject: "Lunch", body: "Noon at the usual place?" };

describe.each(scenarios)("Junction's tool search through $vendor's SDK and wire format", (scenario) => {
  it("nothing fits the first search (nothing loaded); the second finds send_email, which the next request offers and the model calls", async () => {
    const wire = await scenario.start();
    wire.enqueue(
      scenario.toolCall("call_s1", "search_tools", { query: vagueQuery }),
      scenario.toolCall("call_s2", "search_tools", { query: betterQuery, limit: 2 }),
      scenario.toolCall("call_e1", "send_email", emailInput),
      scenario.text("Sent."),
    );
    const runs: unknown[] = [];
    const agent = new Agent({
      provider: wire.provider,
      model: wire.model,
      tools: deferredTools(runs),
      // A low fit loads its closest tool by default (issue 37); this scenario is the app that keeps
      // the floor (nothing loaded under a medium fit), so the wire carries a nothing-loaded answer.
      toolSearch: { native: false, lowFitTools: 0 },
    });
    const events: AgentEvent[] = [];
    try {
      const handle = agent.send("Tell Dana about lunch");
      for await (const event of handle) events.push(event);
      const result = await handle.final;
      expect(result.text).toBe("Sent.");
      expect(result.warnings).toEqual([]);
    } finally {
      agent.close();
      await wire.close();
    }
    expect(runs).toEqual([["send_email", emailInput]]);
    const bodies = wire.requests.map((request) => request.body);
    expect(bodies).toHaveLength(4);
    const names = (body: unknown) =>
      scenario.tools(body).map((tool) => JSON.stringify(tool).match(/"name":"([^"]+)"/)![1]);

    // Only the search up front; nothing loaded by the first search, so the second request offers the same.
    expect(names(bodies[0])).toEqual(["search_tools"]);
    expect(names(bodies[1])).toEqual(["search_tools"]);
    expect(scenario.tools(bodies[1])).toEqual(scenario.tools(bodies[0]));

    // The first answer: nothing fits; the closest tool by name with its score; nothing loaded.
    const results = events.filter((event) => event.type === "tool-result");
    const nothingFitsText =
      'Nothing fits "message my colleague Dana about our lunch plans today" well (closest: send_email [low fit, 0.19]); ' +
      "no tool was loaded. Try other words, or answer without a tool.";
    expect(results.find((event) => event.id === "call_s1")!.result).toEqual({
      content: [{ type: "text", text: nothingFitsText }],
      isError: false,
      structuredContent: {
        query: vagueQuery,
        results: [{ name: "send_email", score: 0.19, confidence: "low" }],
        loaded: [],
        nothingFits: true,
      },
    });
    // The model gets the text; structuredContent stays with the run (the text carries it).
    expect(scenario.result(bodies[1], "call_s1", "search_tools")).toEqual(
      scenario.textResult("call_s1", "search_tools", nothingFitsText),
    );

    // The second search loads send_email (high fit); the next request offers it in the vendor's format.
    const loadedText =
      "Loaded 1 tool(s), best first; call them from your next step:\n" +
      "- send_email: Sends an email message to a recipient. [high fit, 0.99]";
    expect(results.find((event) => event.id === "call_s2")!.result).toEqual({
      content: [{ type: "text", text: loadedText }],
      isError: false,
      structuredContent: {
        query: betterQuery,
        results: [{ name: "send_email", score: 0.99, confidence: "high" }],
        loaded: ["send_email"],
        nothingFits: false,
      },
    });
    expect(scenario.result(bodies[2], "call_s2", "search_tools")).toEqual(
      scenario.textResult("call_s2", "search_tools", loadedText),
    );
    expect(names(bodies[2])).toEqual(["send_email", "search_tools"]);
    expect(scenario.tools(bodies[2])[0]).toEqual(scenario.definition(definitions[1]!));

    // The call's result reaches the model.
    expect(scenario.result(bodies[3], "call_e1", "send_email")).toEqual(
      (scenario.stringResult ?? scenario.textResult)(
        "call_e1",
        "send_email",
        `send_email done: ${JSON.stringify(emailInput)}`,
      ),
    );
    expect(names(bodies[3])).toEqual(names(bodies[2]));

    // Both searches are in the run's events.
    const searches = events.filter((event) => event.type === "tool-search");
    expect(
      searches.map(({ id, query, loaded, nothingFits }) => ({ id, query, loaded, nothingFits })),
    ).toEqual([
      { id: "call_s1", query: vagueQuery, loaded: [], nothingFits: true },
      { id: "call_s2", query: betterQuery, loaded: ["send_email"], nothingFits: false },
    ]);
  });
});
