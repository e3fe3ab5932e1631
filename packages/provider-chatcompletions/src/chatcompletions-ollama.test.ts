import type { Message, ModelStreamEvent, ReasoningPart, ToolCallPart } from "@junction/types";
import { readSSEFixture, startWireFake, type WireFake } from "@junction/wire-fake";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CHAT_COMPLETIONS_PRESETS, chatCompletions } from "./chatcompletions-provider.js";

const fixture = (name: string) => readSSEFixture(new URL(`./__fixtures__/${name}`, import.meta.url));

let fake: WireFake;
beforeEach(async () => {
  fake = await startWireFake();
  // Ollama needs no key: none from the environment either.
  vi.stubEnv("OPENAI_API_KEY", "");
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await fake.close();
});

async function collect(stream: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const events: ModelStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

const weatherTool = {
  name: "get_weather",
  description: "Current weather for a city",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};

describe("the Ollama preset against an Ollama-shaped stream, through the openai SDK", () => {
  it("runs a two-turn tool conversation: whole tool call, reasoning, usage chunk, then the answer", async () => {
    expect(CHAT_COMPLETIONS_PRESETS.ollama).toEqual({ baseURL: "http://localhost:11434/v1", name: "ollama" });
    // The preset as users spread it, pointed at the local fake instead of localhost:11434.
    const ollama = chatCompletions({
      ...CHAT_COMPLETIONS_PRESETS.ollama,
      baseURL: `${fake.url}/v1`,
      maxRetries: 0,
    });
    expect(ollama.name).toBe("ollama");

    fake.enqueue({ chunks: fixture("chatcompletions-ollama-tool-call.sse.txt") });
    const user: Message = { role: "user", content: "What is the weather in Paris?" };
    const first = await collect(ollama.stream({ model: "qwen3:8b", tools: [weatherTool], messages: [user] }));
    const reasoning: ReasoningPart = {
      type: "reasoning",
      text: "The user wants the weather in Paris.",
      providerMetadata: { ollama: { field: "reasoning" } },
    };
    const call: ToolCallPart = {
      type: "tool-call",
      id: "call_abc123",
      name: "get_weather",
      input: { city: "Paris" },
    };
    expect(first).toEqual([
      { type: "reasoning-delta", text: "The user wants the weather in Paris." },
      { type: "tool-call-start", id: "call_abc123", name: "get_weather" },
      { type: "tool-call-delta", id: "call_abc123", argumentsDelta: '{"city":"Paris"}' },
      call,
      {
        type: "finish",
        reason: "tool-calls",
        rawReason: "tool_calls",
        usage: { inputTokens: 88, outputTokens: 24, totalTokens: 112 },
        content: [reasoning, call],
        responseId: "chatcmpl-123",
      },
    ]);
    const [firstRequest] = fake.requests;
    expect(firstRequest!.path).toBe("/v1/chat/completions");
    expect(firstRequest!.headers.authorization).toBeUndefined();
    expect(firstRequest!.body).toEqual({
      model: "qwen3:8b",
      messages: [{ role: "user", content: "What is the weather in Paris?" }],
      stream: true,
      stream_options: { include_usage: true },
      tools: [
        {
          type: "function",
          function: {
            name: "get_weather",
            description: "Current weather for a city",
            parameters: weatherTool.inputSchema,
          },
        },
      ],
    });

    fake.enqueue({ chunks: fixture("chatcompletions-ollama-answer.sse.txt") });
    const second = await collect(
      ollama.stream({
        model: "qwen3:8b",
        tools: [weatherTool],
        messages: [
          user,
          { role: "assistant", content: [reasoning, call] },
          {
            role: "tool",
            content: [
              {
                type: "tool-result",
                toolCallId: "call_abc123",
                toolName: "get_weather",
                output: "Sunny, 21 °C",
              },
            ],
          },
        ],
      }),
    );
    expect(second).toEqual([
      { type: "text-delta", text: "It is sunny" },
      { type: "text-delta", text: " in Paris." },
      {
        type: "finish",
        reason: "stop",
        rawReason: "stop",
        usage: { inputTokens: 120, outputTokens: 6, totalTokens: 126 },
        content: [{ type: "text", text: "It is sunny in Paris." }],
        responseId: "chatcmpl-124",
      },
    ]);
    // The call goes back under Ollama's id; the reasoning stays out (echoReasoning is off by default).
    expect(fake.requests[1]!.body.messages).toEqual([
      { role: "user", content: "What is the weather in Paris?" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id: "call_abc123",
            type: "function",
            function: { name: "get_weather", arguments: '{"city":"Paris"}' },
          },
        ],
      },
      { role: "tool", tool_call_id: "call_abc123", content: "Sunny, 21 °C" },
    ]);
  });
});
