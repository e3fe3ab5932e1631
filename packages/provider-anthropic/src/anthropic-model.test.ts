import type { Message, ModelRequest, ModelStreamEvent } from "@junction/types";
import { ProviderError } from "@junction/types";
import { collectStream, readSSEFixture, startWireFake, type WireFake } from "@junction/wire-fake";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { anthropic } from "./anthropic-provider.js";

const fixture = (name: string) => readSSEFixture(new URL(`./__fixtures__/${name}`, import.meta.url));

let fake: WireFake;
beforeEach(async () => {
  fake = await startWireFake();
});
afterEach(async () => {
  await fake.close();
});

function provider(settings: Parameters<typeof anthropic>[0] = {}) {
  return anthropic({ apiKey: "test-key", baseURL: fake.url, ...settings });
}

const weatherTool = {
  name: "get_weather",
  description: "Get the current weather for a city.",
  inputSchema: {
    type: "object",
    properties: { city: { type: "string" } },
    required: ["city"],
    additionalProperties: false,
  },
};

const textFinish = {
  type: "finish",
  reason: "stop",
  rawReason: "end_turn",
  usage: {
    inputTokens: 12,
    outputTokens: 30,
    totalTokens: 42,
    cachedInputTokens: 0,
    cacheWriteInputTokens: 0,
  },
  content: [
    {
      type: "text",
      text: "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?",
    },
  ],
  responseId: "msg_01QC4g3HwBThD4BaNtBckFDJ",
};

describe("anthropic provider against the Messages API wire format", () => {
  it("streams text and sends the exact request body", async () => {
    fake.enqueue({ chunks: fixture("anthropic-text.sse.txt") });
    const { events, error } = await collectStream(
      provider({ headers: { "x-team": "junction" } }).stream({
        model: "claude-sonnet-4-6",
        system: "Be brief.",
        messages: [{ role: "user", content: "Hello, how are you?" }],
      }),
    );
    expect(error).toBeUndefined();
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request!.method).toBe("POST");
    expect(request!.path).toBe("/v1/messages");
    // This SDK version sends the API key as a bearer token.
    expect(request!.headers.authorization).toBe("Bearer test-key");
    expect(request!.headers["x-team"]).toBe("junction");
    expect(request!.headers["anthropic-version"]).toEqual(expect.any(String));
    expect(request!.body).toEqual({
      model: "claude-sonnet-4-6",
      max_tokens: 4096,
      system: "Be brief.",
      messages: [{ role: "user", content: "Hello, how are you?" }],
      stream: true,
    });
    expect(events).toEqual([
      { type: "text-delta", text: "Hello" },
      { type: "text-delta", text: "! I" },
      { type: "text-delta", text: "'m doing well, thank you for asking" },
      { type: "text-delta", text: ". How are you doing today?" },
      { type: "text-delta", text: " Is" },
      { type: "text-delta", text: " there anything I can help you with?" },
      textFinish,
    ]);
  });

  it("streams a tool call with incremental arguments and emits it complete before the stream ends", async () => {
    fake.enqueue({ chunks: fixture("anthropic-tool-call.sse.txt") });
    const { events, error } = await collectStream(
      provider().stream({
        model: "claude-sonnet-4-6",
        messages: [{ role: "user", content: "What is the weather in San Francisco?" }],
        tools: [weatherTool],
        toolChoice: "auto",
        maxTokens: 1000,
        temperature: 0,
        stopSequences: ["END"],
      }),
    );
    expect(error).toBeUndefined();
    expect(fake.requests[0]!.body).toEqual({
      model: "claude-sonnet-4-6",
      max_tokens: 1000,
      messages: [{ role: "user", content: "What is the weather in San Francisco?" }],
      tools: [
        {
          name: "get_weather",
          description: "Get the current weather for a city.",
          input_schema: {
            type: "object",
            properties: { city: { type: "string" } },
            required: ["city"],
            additionalProperties: false,
          },
        },
      ],
      tool_choice: { type: "auto" },
      temperature: 0,
      stop_sequences: ["END"],
      stream: true,
    });
    const id = "toolu_01Ni1uw4HXYxUhc4iFMqx7yY";
    expect(events).toEqual([
      { type: "text-delta", text: "Let" },
      { type: "text-delta", text: " me check." },
      { type: "tool-call-start", id, name: "get_weather" },
      { type: "tool-call-delta", id, argumentsDelta: '{"city": "San Francisco' },
      { type: "tool-call-delta", id, argumentsDelta: '"}' },
      { type: "tool-call", id, name: "get_weather", input: { city: "San Francisco" } },
      {
        type: "finish",
        reason: "tool-calls",
        rawReason: "tool_use",
        usage: {
          inputTokens: 624,
          outputTokens: 59,
          totalTokens: 683,
          cachedInputTokens: 0,
          cacheWriteInputTokens: 0,
        },
        content: [
          { type: "text", text: "Let me check." },
          { type: "tool-call", id, name: "get_weather", input: { city: "San Francisco" } },
        ],
        responseId: "msg_011CdHMeT7EYp2un4JDDZLDT",
      },
    ]);
  });

  it("maps tool names that break Anthropic's rule and maps them back on the way in", async () => {
    // The fake answers with whatever name the request gave the tool, as the model would.
    fake.enqueue((request) => {
      const vendorName = request.body.tools[0].name as string;
      return {
        chunks: fixture("anthropic-tool-call.sse.txt").map((chunk) =>
          chunk.replace('"name":"get_weather"', `"name":${JSON.stringify(vendorName)}`),
        ),
      };
    });
    const tool = { ...weatherTool, name: "weather.get current" };
    const { events } = await collectStream(
      provider().stream({
        model: "claude-sonnet-4-6",
        messages: [{ role: "user", content: "Weather?" }],
        tools: [tool],
      }),
    );
    const vendorName = fake.requests[0]!.body.tools[0].name;
    expect(vendorName).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(vendorName).not.toBe(tool.name);
    expect(events.filter((event) => event.type === "tool-call" || event.type === "tool-call-start")).toEqual([
      { type: "tool-call-start", id: "toolu_01Ni1uw4HXYxUhc4iFMqx7yY", name: "weather.get current" },
      {
        type: "tool-call",
        id: "toolu_01Ni1uw4HXYxUhc4iFMqx7yY",
        name: "weather.get current",
        input: { city: "San Francisco" },
      },
    ]);
  });

  it("streams parallel tool calls, each complete as soon as its block ends, and sends their results back", async () => {
    fake.enqueue({ chunks: fixture("anthropic-parallel-tool-calls.sse.txt") });
    const numberSchema = {
      type: "object",
      properties: {
        a: { description: "first number", type: "integer" },
        b: { description: "second number", type: "integer" },
      },
      required: ["a", "b"],
    };
    const tools = [
      { name: "add", description: "Add two numbers", inputSchema: numberSchema },
      { name: "multiply", description: "Multiply two numbers", inputSchema: numberSchema },
    ];
    const user: Message = { role: "user", content: "Add and multiply the number 2 and 3" };
    const first = await collectStream(
      provider().stream({ model: "claude-sonnet-4-20250514", messages: [user], tools }),
    );
    expect(first.error).toBeUndefined();
    const calls = first.events.filter((event) => event.type.startsWith("tool-call"));
    expect(calls.map((event) => event.type)).toEqual([
      "tool-call-start",
      "tool-call-delta",
      "tool-call-delta",
      "tool-call-delta",
      "tool-call",
      "tool-call-start",
      "tool-call-delta",
      "tool-call-delta",
      "tool-call-delta",
      "tool-call",
    ]);
    const finish = first.events.at(-1);
    expect(finish).toMatchObject({
      type: "finish",
      reason: "tool-calls",
      responseId: "msg_01Sp6xSRhhVGg9eCXwHHDK4H",
    });
    if (finish?.type !== "finish") return expect.unreachable("the stream ended without a finish event");
    expect(finish.usage).toEqual({
      inputTokens: 502,
      outputTokens: 137,
      totalTokens: 639,
      cachedInputTokens: 0,
      cacheWriteInputTokens: 0,
    });
    expect(finish.content).toEqual([
      { type: "text", text: "I'll add and multiply the numbers 2 and 3 for you." },
      { type: "tool-call", id: "toolu_01GrN36ErVgy85ECZ6pbzBL4", name: "add", input: { a: 2, b: 3 } },
      { type: "tool-call", id: "toolu_0113xQa4VtccyoXcHaukkzom", name: "multiply", input: { a: 2, b: 3 } },
    ]);

    fake.enqueue({ chunks: fixture("anthropic-text.sse.txt") });
    const second = await collectStream(
      provider().stream({
        model: "claude-sonnet-4-20250514",
        tools,
        messages: [
          user,
          { role: "assistant", content: finish.content },
          {
            role: "tool",
            content: [
              {
                type: "tool-result",
                toolCallId: "toolu_01GrN36ErVgy85ECZ6pbzBL4",
                toolName: "add",
                output: { content: [{ type: "text", text: "5" }], isError: false },
              },
              {
                type: "tool-result",
                toolCallId: "toolu_0113xQa4VtccyoXcHaukkzom",
                toolName: "multiply",
                output: { content: [{ type: "text", text: "6" }], isError: false },
              },
            ],
          },
        ],
      }),
    );
    expect(second.error).toBeUndefined();
    // The same messages the recorded conversation sent on its second turn.
    expect(fake.requests[1]!.body.messages).toEqual([
      { role: "user", content: "Add and multiply the number 2 and 3" },
      {
        role: "assistant",
        content: [
          { type: "text", text: "I'll add and multiply the numbers 2 and 3 for you." },
          { type: "tool_use", id: "toolu_01GrN36ErVgy85ECZ6pbzBL4", name: "add", input: { a: 2, b: 3 } },
          { type: "tool_use", id: "toolu_0113xQa4VtccyoXcHaukkzom", name: "multiply", input: { a: 2, b: 3 } },
        ],
      },
      {
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: "toolu_01GrN36ErVgy85ECZ6pbzBL4",
            content: [{ type: "text", text: "5" }],
          },
          {
            type: "tool_result",
            tool_use_id: "toolu_0113xQa4VtccyoXcHaukkzom",
            content: [{ type: "text", text: "6" }],
          },
        ],
      },
    ]);
  });

  it("sends images in tool results natively, keeps string outputs as strings, and warns about audio", async () => {
    fake.enqueue({ chunks: fixture("anthropic-text.sse.txt") });
    const png =
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
    const { events, error } = await collectStream(
      provider().stream({
        model: "claude-sonnet-4-6",
        tools: [weatherTool],
        messages: [
          { role: "user", content: "Show me the radar and the forecast." },
          {
            role: "assistant",
            content: [
              { type: "tool-call", id: "toolu_1", name: "get_weather", input: { city: "Paris" } },
              { type: "tool-call", id: "toolu_2", name: "get_weather", input: { city: "Oslo" } },
            ],
          },
          {
            role: "tool",
            content: [
              {
                type: "tool-result",
                toolCallId: "toolu_1",
                toolName: "get_weather",
                output: {
                  content: [
                    { type: "text", text: "Radar:" },
                    { type: "image", data: png, mimeType: "image/png" },
                    { type: "audio", data: "UklGRg==", mimeType: "audio/wav" },
                    {
                      type: "resource",
                      resource: {
                        uri: "file:///forecast.pdf",
                        mimeType: "application/pdf",
                        blob: "JVBERi0xLjQ=",
                      },
                    },
                  ],
                  isError: false,
                },
              },
              { type: "tool-result", toolCallId: "toolu_2", toolName: "get_weather", output: "Sunny, 21 °C" },
            ],
          },
        ],
      }),
    );
    expect(error).toBeUndefined();
    expect(fake.requests[0]!.body.messages).toEqual([
      { role: "user", content: "Show me the radar and the forecast." },
      {
        role: "assistant",
        content: [
          { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Paris" } },
          { type: "tool_use", id: "toolu_2", name: "get_weather", input: { city: "Oslo" } },
        ],
      },
      {
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: "toolu_1",
            content: [
              { type: "text", text: "Radar:" },
              { type: "image", source: { type: "base64", media_type: "image/png", data: png } },
              { type: "text", text: "[audio (audio/wav) omitted: not supported by this model provider]" },
              {
                type: "document",
                source: { type: "base64", media_type: "application/pdf", data: "JVBERi0xLjQ=" },
                title: "file:///forecast.pdf",
              },
            ],
          },
          { type: "tool_result", tool_use_id: "toolu_2", content: "Sunny, 21 °C" },
        ],
      },
    ]);
    expect(events[0]).toEqual({
      type: "warning",
      warning: {
        code: "tool-result-audio-unsupported",
        message:
          "Anthropic cannot take audio (audio/wav) in a tool result; a text note was sent in its place.",
      },
    });
    expect(events.filter((event) => event.type === "warning")).toHaveLength(1);
  });

  it("streams thinking, passes the thinking option through, and echoes the signed thinking next turn", async () => {
    fake.enqueue({ chunks: fixture("anthropic-thinking-tool-call.sse.txt") });
    const tool = {
      name: "weather",
      description: "Get weather information for a location",
      inputSchema: {
        type: "object",
        properties: { location: { description: "the city", type: "string" } },
        required: ["location"],
      },
    };
    const request: ModelRequest = {
      model: "claude-sonnet-4-20250514",
      system: "You are a helpful assistant",
      messages: [{ role: "user", content: "What's the weather in Florence, Italy?" }],
      tools: [tool],
      providerOptions: { anthropic: { thinking: { type: "enabled", budget_tokens: 4000 } } },
    };
    const first = await collectStream(provider().stream(request));
    expect(first.error).toBeUndefined();
    expect(fake.requests[0]!.body).toMatchObject({
      max_tokens: 8096,
      thinking: { type: "enabled", budget_tokens: 4000 },
    });
    const thinking =
      'The user is asking for weather information for Florence, Italy. I have access to a weather function that takes a "location" parameter. The user has provided the location as "Florence, Italy" which is clear and specific. I have all the required parameters to make this function call.';
    const reasoning = first.events.filter((event) => event.type === "reasoning-delta");
    expect(reasoning.map((event) => (event.type === "reasoning-delta" ? event.text : "")).join("")).toBe(
      thinking,
    );
    expect(reasoning).toHaveLength(6);
    const finish = first.events.at(-1);
    if (finish?.type !== "finish") return expect.unreachable("the stream ended without a finish event");
    const signature =
      "EsQDCkYICBgCKkBr9+FTcKs+la0OlmRVB4HF/bTERKj+hr9pp9uxwdet2/P99iNZh/vwxm7Cd5wrZD0FnPkUz3DEqXv+ZoIL2fAoEgxOEzQepAptMFJiFJcaDM2L2wJzGec9170N1SIwHhl0DW0hXYbwHTRAR6w9biU0HwUh00oLghjeBusiv40ctsJB4tO/WyOR2f0iH7pZKqsC3UTE2b7nqQUmYP8dEDfnfNdbr24zEaWiZ2QMbwv9ZrwtUy0Wo/ot3n9JMpocHUSwtyKzB4GsMsgr/xtGEl9541AMSFhR1G8y3Ffn22e6pXV7dakwU/vxcBTvdwfBplrBxxJ1zT/ieuQUrdemKCRZS4QVmaVijUpYQMaQF7iCJJPKYI+wBhxT0y0yOoVqORKg2AuRmbkTpMfKZJ5xRBLAeydMhloeKfYswDDisWIChmJlclIro0Jr80OhpohTcQGayY4fjn0A/ir+9PYzLzjGitR3a+/lfHvuTmPC9AnWv3Sp87mddUuJ10jqO9QWXNTnAVdehLiN/heJVjOMkXCstWLVUycEgnfwXEqlNMMFuRAfOwTte0Ls9qHkl3Fzo8ompJiqxF879rSwcSEYAQ==";
    expect(finish.content).toEqual([
      { type: "reasoning", text: thinking, providerMetadata: { anthropic: { signature } } },
      {
        type: "tool-call",
        id: "toolu_0171KFcBwn1Z64XzvQfz3sZS",
        name: "weather",
        input: { location: "Florence, Italy" },
      },
    ]);

    fake.enqueue({ chunks: fixture("anthropic-text.sse.txt") });
    await collectStream(
      provider().stream({
        ...request,
        messages: [
          ...request.messages,
          { role: "assistant", content: finish.content },
          {
            role: "tool",
            content: [
              {
                type: "tool-result",
                toolCallId: "toolu_0171KFcBwn1Z64XzvQfz3sZS",
                toolName: "weather",
                output: { content: [{ type: "text", text: "40 C" }], isError: false },
              },
            ],
          },
        ],
      }),
    );
    // The assistant turn exactly as the recorded conversation echoed it.
    expect(fake.requests[1]!.body.messages[1]).toEqual({
      role: "assistant",
      content: [
        { type: "thinking", thinking, signature },
        {
          type: "tool_use",
          id: "toolu_0171KFcBwn1Z64XzvQfz3sZS",
          name: "weather",
          input: { location: "Florence, Italy" },
        },
      ],
    });
  });

  it("reports cached input tokens inside inputTokens", async () => {
    fake.enqueue({ chunks: fixture("anthropic-cached-usage.sse.txt") });
    const { events } = await collectStream(
      provider().stream({ model: "claude-sonnet-4-6", messages: [{ role: "user", content: "Hi" }] }),
    );
    expect(events.at(-1)).toMatchObject({
      type: "finish",
      usage: {
        inputTokens: 12 + 1800 + 248,
        outputTokens: 30,
        totalTokens: 12 + 1800 + 248 + 30,
        cachedInputTokens: 1800,
        cacheWriteInputTokens: 248,
      },
    });
  });

  it.each([
    ["max_tokens", "length"],
    ["stop_sequence", "stop"],
    ["refusal", "content-filter"],
    ["pause_turn", "other"],
  ])("maps stop_reason %s to %s", async (stopReason, reason) => {
    fake.enqueue({
      chunks: fixture("anthropic-text.sse.txt").map((chunk) =>
        chunk.replace('"stop_reason":"end_turn"', `"stop_reason":"${stopReason}"`),
      ),
    });
    const { events } = await collectStream(
      provider().stream({ model: "claude-sonnet-4-6", messages: [{ role: "user", content: "Hi" }] }),
    );
    expect(events.at(-1)).toMatchObject({ type: "finish", reason, rawReason: stopReason });
  });
});

describe("anthropic provider failures", () => {
  const request: ModelRequest = { model: "claude-sonnet-4-6", messages: [{ role: "user", content: "Hi" }] };

  it("throws a 400 as a non-retryable ProviderError with the request id, without retrying", async () => {
    fake.enqueue({
      status: 400,
      headers: { "request-id": "req_011CSHoEeqs5C35K2UUqR7Fy" },
      json: {
        type: "error",
        error: { type: "invalid_request_error", message: "messages: at least one message is required" },
        request_id: "req_011CSHoEeqs5C35K2UUqR7Fy",
      },
    });
    const { events, error } = await collectStream(provider().stream(request));
    expect(events).toEqual([]);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: "provider-api-error",
      provider: "anthropic",
      status: 400,
      retryable: false,
      requestId: "req_011CSHoEeqs5C35K2UUqR7Fy",
      message: "Anthropic API error 400 (invalid_request_error: messages: at least one message is required).",
    });
    expect(fake.requests).toHaveLength(1);
  });

  it("throws a retryable 429 once the retries are spent", async () => {
    const limited = {
      status: 429,
      headers: { "retry-after-ms": "1", "request-id": "req_rate_2" },
      json: { type: "error", error: { type: "rate_limit_error", message: "Rate limited" } },
    };
    fake.enqueue(limited, limited);
    const { error } = await collectStream(provider({ maxRetries: 1 }).stream(request));
    expect(fake.requests).toHaveLength(2);
    expect(error).toMatchObject({
      code: "provider-api-error",
      status: 429,
      retryable: true,
      requestId: "req_rate_2",
    });
  });

  it("throws a 5xx as a retryable ProviderError", async () => {
    fake.enqueue({
      status: 529,
      headers: { "request-id": "req_overloaded" },
      json: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
    });
    const { error } = await collectStream(provider({ maxRetries: 0 }).stream(request));
    expect(fake.requests).toHaveLength(1);
    expect(error).toMatchObject({
      code: "provider-api-error",
      status: 529,
      retryable: true,
      requestId: "req_overloaded",
      message: "Anthropic API error 529 (overloaded_error: Overloaded).",
    });
  });

  it("throws an error event inside a 200 stream, after the events before it", async () => {
    fake.enqueue({
      chunks: fixture("anthropic-overloaded-mid-stream.sse.txt"),
      headers: { "request-id": "req_mid" },
    });
    const { events, error } = await collectStream(provider().stream(request));
    expect(events).toEqual([{ type: "text-delta", text: "Hello" }]);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: "provider-stream-error",
      provider: "anthropic",
      retryable: true,
      requestId: "req_mid",
      message: "Anthropic sent an error inside the stream (overloaded_error: Overloaded).",
    });
    expect((error as ProviderError).status).toBeUndefined();
  });

  it("throws when the stream ends before message_stop", async () => {
    fake.enqueue({ chunks: fixture("anthropic-text.sse.txt").slice(0, 5) });
    const { events, error } = await collectStream(provider().stream(request));
    expect(events).toEqual([
      { type: "text-delta", text: "Hello" },
      { type: "text-delta", text: "! I" },
    ]);
    expect(error).toMatchObject({
      code: "provider-stream-error",
      retryable: true,
      message: "The Anthropic stream ended before message_stop: the response is incomplete.",
    });
  });

  it("throws when the connection is cut mid-stream", async () => {
    // Paced so the client has read the events before the socket is destroyed.
    fake.enqueue({
      chunks: fixture("anthropic-text.sse.txt").slice(0, 5),
      chunkDelayMs: 20,
      destroyAfterChunks: true,
    });
    const { events, error } = await collectStream(provider({ maxRetries: 0 }).stream(request));
    expect(events).toEqual([
      { type: "text-delta", text: "Hello" },
      { type: "text-delta", text: "! I" },
    ]);
    expect(fake.requests).toHaveLength(1);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: "provider-stream-error", retryable: true });
  });

  it("throws on an event that is not valid JSON, naming it invalid", async () => {
    const chunks = fixture("anthropic-text.sse.txt");
    chunks.splice(3, 0, 'event: content_block_delta\ndata: {"type":"content_block_delta",\n\n');
    fake.enqueue({ chunks });
    const { error } = await collectStream(provider({ maxRetries: 0 }).stream(request));
    expect(error).toMatchObject({ code: "provider-response-invalid", provider: "anthropic" });
  });

  it("reads the API key from ANTHROPIC_API_KEY", async () => {
    vi.stubEnv("ANTHROPIC_API_KEY", "env-key");
    try {
      fake.enqueue({ chunks: fixture("anthropic-text.sse.txt") });
      const { error } = await collectStream(anthropic({ baseURL: fake.url }).stream(request));
      expect(error).toBeUndefined();
      expect(fake.requests[0]!.headers.authorization).toBe("Bearer env-key");
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe("anthropic provider, recorded streams the stream state once missed", () => {
  it("yields the tool call and finish reason a message_start already carries (programmatic tool calling)", async () => {
    fake.enqueue({ chunks: fixture("anthropic-message-start-content.sse.txt") });
    const tools = [
      {
        name: "lookup_customer",
        description: "Look a customer up.",
        inputSchema: { type: "object", properties: { id: { type: "string" } } },
      },
    ];
    const { events, error } = await collectStream(
      provider().stream({
        model: "claude-sonnet-4-6",
        tools,
        messages: [{ role: "user", content: "Find them." }],
      }),
    );
    expect(error).toBeUndefined();
    const caller = { type: "code_execution_20250825", tool_id: "srvtoolu_unrelated_caller" };
    const container = { id: "container_prepopulated", expires_at: "2026-04-24T00:40:16.098987Z" };
    // The code's results are kept whole (sent back next turn), the container beside the code's call.
    const codeResult = (n: number, ordinal: string) => ({
      type: "reasoning",
      text: "",
      providerMetadata: {
        anthropic: {
          serverBlock: {
            type: "code_execution_tool_result",
            tool_use_id: `srvtoolu_result_${n}`,
            content: {
              type: "code_execution_result",
              stdout: `${ordinal} concise code execution output\n`,
              stderr: "",
              return_code: 0,
              content: [],
              abort_reason: null,
            },
          },
        },
      },
    });
    expect(events).toEqual([
      { type: "tool-call-start", id: "toolu_followup", name: "lookup_customer" },
      {
        type: "tool-call",
        id: "toolu_followup",
        name: "lookup_customer",
        input: { id: "customer_123" },
        // A program neither this turn nor the conversation holds: named, without its source.
        program: { id: caller.tool_id, runtime: caller.type },
        providerMetadata: { anthropic: { caller } },
      },
      {
        type: "finish",
        reason: "tool-calls",
        rawReason: "tool_use",
        responseId: "msg_prepopulated_content",
        usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
        content: [
          codeResult(1, "First"),
          codeResult(2, "Second"),
          {
            type: "tool-call",
            id: "toolu_followup",
            name: "lookup_customer",
            input: { id: "customer_123" },
            program: { id: caller.tool_id, runtime: caller.type },
            providerMetadata: { anthropic: { caller, container } },
          },
        ],
      },
    ]);
  });

  it("keeps a compaction block and sends it back unchanged on the next turn", async () => {
    fake.enqueue({ chunks: fixture("anthropic-compaction.sse.txt") });
    const user: Message = { role: "user", content: "Summarise the algorithms section." };
    const first = await collectStream(provider().stream({ model: "claude-opus-4-6", messages: [user] }));
    expect(first.error).toBeUndefined();
    expect(first.events.filter((event) => event.type !== "finish")).toEqual([
      { type: "text-delta", text: "Based" },
      { type: "text-delta", text: " on the conversation" },
      { type: "text-delta", text: " history" },
    ]);
    const finish = first.events.at(-1) as Extract<ModelStreamEvent, { type: "finish" }>;
    const summary = (
      readSSEFixture(new URL("./__fixtures__/anthropic-compaction.sse.txt", import.meta.url))
        .map((chunk) => JSON.parse(chunk.slice(chunk.indexOf("data: ") + 6)))
        .find((event) => event.delta?.type === "compaction_delta") as { delta: { content: string } }
    ).delta.content;
    expect(finish).toMatchObject({ reason: "stop", usage: { inputTokens: 612, outputTokens: 2819 } });
    expect(finish.content).toEqual([
      {
        type: "reasoning",
        text: "",
        providerMetadata: { anthropic: { compaction: { type: "compaction", content: summary } } },
      },
      { type: "text", text: "Based on the conversation history" },
    ]);

    fake.enqueue({ chunks: fixture("anthropic-text.sse.txt") });
    const second = await collectStream(
      provider().stream({
        model: "claude-opus-4-6",
        messages: [
          user,
          { role: "assistant", content: finish.content },
          { role: "user", content: "Thanks." },
        ],
      }),
    );
    expect(second.error).toBeUndefined();
    expect(fake.requests[1]!.body.messages).toEqual([
      { role: "user", content: "Summarise the algorithms section." },
      {
        role: "assistant",
        content: [
          { type: "compaction", content: summary },
          { type: "text", text: "Based on the conversation history" },
        ],
      },
      { role: "user", content: "Thanks." },
    ]);
  });
});
