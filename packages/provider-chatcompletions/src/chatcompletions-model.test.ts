import {
  type Message,
  type ModelRequest,
  type ModelStreamEvent,
  ProviderError,
  type ToolDefinition,
} from "@junction/types";
import { readSSEFixture, startWireFake, type WireFake } from "@junction/wire-fake";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildChatCompletionsRequest } from "./build-chatcompletions-request.js";
import { chatCompletions } from "./chatcompletions-provider.js";

const fixture = (name: string) => readSSEFixture(new URL(`./__fixtures__/${name}`, import.meta.url));
const sse = (...chunks: unknown[]) => [
  ...chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`),
  "data: [DONE]\n\n",
];

async function collect(stream: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const events: ModelStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

async function collectUntilError(stream: AsyncIterable<ModelStreamEvent>) {
  const events: ModelStreamEvent[] = [];
  try {
    for await (const event of stream) events.push(event);
  } catch (error) {
    return { events, error };
  }
  return expect.fail("the stream was expected to fail");
}

const weatherTool: ToolDefinition = {
  name: "get_weather",
  description: "Current weather for a place",
  inputSchema: {
    $schema: "http://json-schema.org/draft-07/schema#",
    type: "object",
    properties: { location: { type: "string" } },
    required: ["location"],
  },
};

const wireWeatherTool = {
  type: "function",
  function: {
    name: "get_weather",
    description: "Current weather for a place",
    parameters: { type: "object", properties: { location: { type: "string" } }, required: ["location"] },
  },
};

let fake: WireFake;
beforeEach(async () => {
  fake = await startWireFake();
});
afterEach(async () => {
  await fake.close();
});

const provider = (settings: Parameters<typeof chatCompletions>[0] = {}) =>
  chatCompletions({ baseURL: `${fake.url}/v1`, apiKey: "sk-test", maxRetries: 0, ...settings });

describe("chatCompletions stream: the request body as text", () => {
  const deepFreeze = <T>(value: T): T => {
    if (typeof value === "object" && value !== null) {
      for (const inner of Object.values(value)) deepFreeze(inner);
      Object.freeze(value);
    }
    return value;
  };

  it("sends exactly JSON.stringify of the body, as JSON, on every request of a growing conversation", async () => {
    // A frozen conversation (as an Agent's is), sent twice with more after it: the second request
    // reuses the first one's text for the frozen messages.
    const prior: Message[] = deepFreeze([
      { role: "user", content: 'Look up "1" \u2028 \\' },
      {
        role: "assistant",
        content: [{ type: "tool-call", id: "call_0", name: "get_weather", input: { location: "Oslo" } }],
      },
      {
        role: "tool",
        content: [{ type: "tool-result", toolCallId: "call_0", toolName: "get_weather", output: "Cold." }],
      },
      { role: "assistant", content: [{ type: "text", text: "It is cold." }] },
    ]);
    const first: ModelRequest = {
      model: "gpt-4o",
      system: "Be brief.",
      tools: [weatherTool],
      messages: [...prior, { role: "user", content: "And Rome?" }],
    };
    const second: ModelRequest = {
      ...first,
      messages: [
        ...first.messages,
        {
          role: "assistant",
          content: [{ type: "tool-call", id: "call_1", name: "get_weather", input: { location: "Rome" } }],
        },
        {
          role: "tool",
          content: [{ type: "tool-result", toolCallId: "call_1", toolName: "get_weather", output: "Warm." }],
        },
      ],
    };
    fake.enqueue(
      { chunks: fixture("chatcompletions-text.sse.txt") },
      { chunks: fixture("chatcompletions-text.sse.txt") },
    );
    const model = provider();
    await collect(model.stream(first));
    await collect(model.stream(second));

    expect(fake.requests).toHaveLength(2);
    for (const [index, request] of [first, second].entries()) {
      const { body } = buildChatCompletionsRequest(request, {});
      expect(fake.requests[index]!.text).toBe(JSON.stringify(body));
      expect(fake.requests[index]!.headers["content-type"]).toBe("application/json");
    }
    expect(fake.requests[1]!.body.messages).toHaveLength(8);
  });
});

describe("chatCompletions stream: text", () => {
  it("sends the exact request body and streams text, finish reason and usage", async () => {
    fake.enqueue({ chunks: fixture("chatcompletions-text.sse.txt") });
    const events = await collect(
      provider().stream({
        model: "gpt-4o",
        system: "Be brief.",
        messages: [{ role: "user", content: "Say POST_TOOL" }],
        maxTokens: 100,
        temperature: 0.2,
        topP: 0.9,
        stopSequences: ["END"],
      }),
    );

    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.method).toBe("POST");
    expect(fake.requests[0]!.path).toBe("/v1/chat/completions");
    expect(fake.requests[0]!.body).toEqual({
      model: "gpt-4o",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Say POST_TOOL" },
      ],
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 100,
      temperature: 0.2,
      top_p: 0.9,
      stop: ["END"],
    });
    expect(events).toEqual([
      { type: "text-delta", text: "POST" },
      { type: "text-delta", text: "_TOOL" },
      {
        type: "finish",
        reason: "stop",
        rawReason: "stop",
        usage: {
          inputTokens: 86,
          outputTokens: 2,
          totalTokens: 88,
          cachedInputTokens: 0,
          reasoningTokens: 0,
        },
        content: [{ type: "text", text: "POST_TOOL" }],
        responseId: "chatcmpl-E6yvkr7hjcsBF18tAhF6z9yBFDts4",
      },
    ]);
  });

  it("streams reasoning_content as reasoning deltas and keeps the field in providerMetadata", async () => {
    fake.enqueue({ chunks: fixture("chatcompletions-reasoning.sse.txt") });
    const events = await collect(
      provider().stream({ model: "deepseek-reasoner", messages: [{ role: "user", content: "Hello" }] }),
    );
    expect(events).toEqual([
      { type: "reasoning-delta", text: "First" },
      { type: "reasoning-delta", text: ", the" },
      { type: "reasoning-delta", text: " user said hello." },
      { type: "text-delta", text: "Hi" },
      { type: "text-delta", text: " there" },
      { type: "text-delta", text: "!" },
      {
        type: "warning",
        warning: {
          code: "usage-missing",
          message:
            "The server sent no token usage (it may not support stream_options.include_usage); usage is reported as 0.",
        },
      },
      {
        type: "finish",
        reason: "stop",
        rawReason: "stop",
        usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
        content: [
          {
            type: "reasoning",
            text: "First, the user said hello.",
            providerMetadata: { chatcompletions: { field: "reasoning_content" } },
          },
          { type: "text", text: "Hi there!" },
        ],
        responseId: "test-1",
      },
    ]);
  });

  it("reads `reasoning` (OpenRouter, newer vLLM) as well", async () => {
    const chunk = (delta: object, finish: string | null = null) => ({
      id: "gen-1",
      object: "chat.completion.chunk",
      created: 1,
      model: "m",
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    fake.enqueue({ chunks: sse(chunk({ reasoning: "Think." }), chunk({ content: "Done." }, "stop")) });
    const events = await collect(
      provider({ includeUsage: false }).stream({ model: "m", messages: [{ role: "user", content: "x" }] }),
    );
    expect(fake.requests[0]!.body.stream_options).toBeUndefined();
    expect(events.at(-1)).toMatchObject({
      type: "finish",
      content: [
        { type: "reasoning", text: "Think.", providerMetadata: { chatcompletions: { field: "reasoning" } } },
        { type: "text", text: "Done." },
      ],
    });
  });
});

describe("chatCompletions stream: tool calls", () => {
  it("reassembles a streamed call with incremental arguments and announces it as soon as it is complete", async () => {
    fake.enqueue({ chunks: fixture("chatcompletions-tool-call.sse.txt") });
    const events = await collect(
      provider().stream({
        model: "gpt-4o",
        messages: [{ role: "user", content: "Weather in Paris?" }],
        tools: [weatherTool],
        toolChoice: "auto",
      }),
    );
    expect(fake.requests[0]!.body).toEqual({
      model: "gpt-4o",
      messages: [{ role: "user", content: "Weather in Paris?" }],
      stream: true,
      stream_options: { include_usage: true },
      tools: [wireWeatherTool],
      tool_choice: "auto",
    });
    // The caller's schema is untouched.
    expect(weatherTool.inputSchema.$schema).toBe("http://json-schema.org/draft-07/schema#");
    const id = "call_DdmO9pD3xa9XTPNJ32zg2hcA";
    expect(events).toEqual([
      { type: "tool-call-start", id, name: "get_weather" },
      { type: "tool-call-delta", id, argumentsDelta: '{"' },
      { type: "tool-call-delta", id, argumentsDelta: "location" },
      { type: "tool-call-delta", id, argumentsDelta: '":"' },
      { type: "tool-call-delta", id, argumentsDelta: "Paris" },
      { type: "tool-call-delta", id, argumentsDelta: "," },
      { type: "tool-call-delta", id, argumentsDelta: " France" },
      { type: "tool-call-delta", id, argumentsDelta: '"}' },
      { type: "tool-call", id, name: "get_weather", input: { location: "Paris, France" } },
      {
        type: "finish",
        reason: "tool-calls",
        rawReason: "tool_calls",
        usage: {
          inputTokens: 58,
          outputTokens: 17,
          totalTokens: 75,
          cachedInputTokens: 32,
          reasoningTokens: 0,
        },
        content: [{ type: "tool-call", id, name: "get_weather", input: { location: "Paris, France" } }],
        responseId: "chatcmpl-E6yvi7cuDcHZEHTMxcLDyf3CMKIO2",
      },
    ]);
  });

  it("streams parallel calls, completing the first before the second starts", async () => {
    fake.enqueue({ chunks: fixture("chatcompletions-parallel-tool-calls.sse.txt") });
    const events = await collect(
      provider().stream({
        model: "gpt-4o",
        messages: [{ role: "user", content: "Weather in Paris and Tokyo?" }],
        tools: [weatherTool],
      }),
    );
    expect(events.filter((event) => event.type !== "tool-call-delta")).toEqual([
      { type: "tool-call-start", id: "call_paris", name: "get_weather" },
      { type: "tool-call", id: "call_paris", name: "get_weather", input: { location: "Paris" } },
      { type: "tool-call-start", id: "call_tokyo", name: "get_weather" },
      { type: "tool-call", id: "call_tokyo", name: "get_weather", input: { location: "Tokyo" } },
      {
        type: "finish",
        reason: "tool-calls",
        rawReason: "tool_calls",
        usage: {
          inputTokens: 80,
          outputTokens: 40,
          totalTokens: 120,
          cachedInputTokens: 0,
          reasoningTokens: 0,
        },
        content: [
          { type: "tool-call", id: "call_paris", name: "get_weather", input: { location: "Paris" } },
          { type: "tool-call", id: "call_tokyo", name: "get_weather", input: { location: "Tokyo" } },
        ],
        responseId: "chatcmpl-E6yvi7cuDcHZEHTMxcLDyf3CMKIO2",
      },
    ]);
  });

  it("handles Ollama's whole-argument parallel calls and a stream without usage", async () => {
    fake.enqueue({ chunks: fixture("chatcompletions-ollama-parallel.sse.txt") });
    const events = await collect(
      provider().stream({
        model: "qwen2.5-coder",
        messages: [{ role: "user", content: "list files twice" }],
      }),
    );
    expect(events).toEqual([
      { type: "tool-call-start", id: "call_wteop8bt", name: "run_command" },
      { type: "tool-call-delta", id: "call_wteop8bt", argumentsDelta: '{"command":"ls"}' },
      { type: "tool-call", id: "call_wteop8bt", name: "run_command", input: { command: "ls" } },
      { type: "tool-call-start", id: "call_rk2xye1l", name: "run_command" },
      { type: "tool-call-delta", id: "call_rk2xye1l", argumentsDelta: '{"command":"ls -l"}' },
      { type: "tool-call", id: "call_rk2xye1l", name: "run_command", input: { command: "ls -l" } },
      {
        type: "warning",
        warning: {
          code: "usage-missing",
          message:
            "The server sent no token usage (it may not support stream_options.include_usage); usage is reported as 0.",
        },
      },
      {
        type: "finish",
        reason: "tool-calls",
        rawReason: "tool_calls",
        usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
        content: [
          { type: "tool-call", id: "call_wteop8bt", name: "run_command", input: { command: "ls" } },
          { type: "tool-call", id: "call_rk2xye1l", name: "run_command", input: { command: "ls -l" } },
        ],
        responseId: "chatcmpl-18",
      },
    ]);
  });

  it("copes with calls lacking ids and indexes, several calls in one chunk, and finish_reason stop", async () => {
    // Constructed: the shapes llama.cpp builds, some LM Studio builds and Gemini's OpenAI endpoint
    // have sent (no id, no index, two calls in one delta, "stop" after tool calls).
    const chunk = (delta: object, finish: string | null = null) => ({
      id: "chatcmpl-x",
      object: "chat.completion.chunk",
      created: 1,
      model: "local",
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    fake.enqueue({
      chunks: sse(
        chunk({ content: "Checking." }),
        chunk({
          tool_calls: [
            { type: "function", function: { name: "get_weather", arguments: '{"location":"Oslo"}' } },
            { type: "function", function: { name: "get_weather", arguments: '{"location":' } },
          ],
        }),
        chunk({ tool_calls: [{ function: { arguments: '"Rome"}' } }] }),
        chunk({}, "stop"),
      ),
    });
    const events = await collect(
      provider().stream({
        model: "local",
        messages: [{ role: "user", content: "Oslo and Rome" }],
        tools: [weatherTool],
      }),
    );
    const calls = events.filter((event) => event.type === "tool-call");
    expect(calls).toHaveLength(2);
    const [oslo, rome] = calls as Extract<ModelStreamEvent, { type: "tool-call" }>[];
    expect(oslo).toMatchObject({ name: "get_weather", input: { location: "Oslo" } });
    expect(rome).toMatchObject({ name: "get_weather", input: { location: "Rome" } });
    expect(oslo!.id).toMatch(/^call_[a-f0-9]{24}$/);
    expect(rome!.id).toMatch(/^call_[a-f0-9]{24}$/);
    expect(oslo!.id).not.toBe(rome!.id);
    expect(events.at(-1)).toMatchObject({
      type: "finish",
      reason: "tool-calls",
      rawReason: "stop",
      content: [
        { type: "text", text: "Checking." },
        { type: "tool-call", id: oslo!.id, name: "get_weather", input: { location: "Oslo" } },
        { type: "tool-call", id: rome!.id, name: "get_weather", input: { location: "Rome" } },
      ],
    });
  });

  it("maps adapted tool names both ways, including names from earlier turns", async () => {
    const dotted: ToolDefinition = { ...weatherTool, name: "weather.current" };
    const chunk = (delta: object, finish: string | null = null) => ({
      id: "c",
      object: "chat.completion.chunk",
      created: 1,
      model: "m",
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    fake.enqueue((request) => {
      const vendorName = request.body.tools[0].function.name as string;
      return {
        chunks: sse(
          chunk({
            tool_calls: [{ index: 0, id: "call_2", function: { name: vendorName, arguments: "{}" } }],
          }),
          chunk({}, "tool_calls"),
        ),
      };
    });
    const events = await collect(
      provider().stream({
        model: "m",
        tools: [dotted],
        messages: [
          { role: "user", content: "weather" },
          {
            role: "assistant",
            content: [
              { type: "tool-call", id: "call_1", name: "weather.current", input: { location: "Oslo" } },
            ],
          },
          {
            role: "tool",
            content: [
              { type: "tool-result", toolCallId: "call_1", toolName: "weather.current", output: "Sunny" },
            ],
          },
        ],
      }),
    );
    const body = fake.requests[0]!.body;
    const vendorName = body.tools[0].function.name;
    expect(vendorName).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(vendorName).not.toBe("weather.current");
    expect(body.messages).toEqual([
      { role: "user", content: "weather" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id: "call_1",
            type: "function",
            function: { name: vendorName, arguments: '{"location":"Oslo"}' },
          },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: "Sunny" },
    ]);
    expect(events.find((event) => event.type === "tool-call")).toEqual({
      type: "tool-call",
      id: "call_2",
      name: "weather.current",
      input: {},
    });
  });
});

describe("chatCompletions stream: rich tool results", () => {
  it("puts the text in the tool message and the image in a following user message, with a warning", async () => {
    fake.enqueue({ chunks: fixture("chatcompletions-text.sse.txt") });
    const events = await collect(
      provider().stream({
        model: "gpt-4o",
        tools: [weatherTool],
        messages: [
          { role: "user", content: "Show me the image and the weather" },
          {
            role: "assistant",
            content: [
              { type: "text", text: "Fetching." },
              { type: "tool-call", id: "call_img", name: "get_image", input: {} },
              { type: "tool-call", id: "call_w", name: "get_weather", input: { location: "Oslo" } },
            ],
          },
          {
            role: "tool",
            content: [
              {
                type: "tool-result",
                toolCallId: "call_img",
                toolName: "get_image",
                output: {
                  isError: false,
                  content: [
                    { type: "text", text: "Here is the image:" },
                    { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
                  ],
                },
              },
              { type: "tool-result", toolCallId: "call_w", toolName: "get_weather", output: "Sunny, 18°C" },
            ],
          },
        ],
      }),
    );
    expect(fake.requests[0]!.body.messages).toEqual([
      { role: "user", content: "Show me the image and the weather" },
      {
        role: "assistant",
        content: "Fetching.",
        tool_calls: [
          { id: "call_img", type: "function", function: { name: "get_image", arguments: "{}" } },
          {
            id: "call_w",
            type: "function",
            function: { name: "get_weather", arguments: '{"location":"Oslo"}' },
          },
        ],
      },
      {
        role: "tool",
        tool_call_id: "call_img",
        content: "Here is the image:\n[image (image/png) attached in the following user message]",
      },
      { role: "tool", tool_call_id: "call_w", content: "Sunny, 18°C" },
      {
        role: "user",
        content: [
          { type: "text", text: "Attachments from the result of tool call call_img (get_image):" },
          { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
        ],
      },
    ]);
    expect(events[0]).toEqual({
      type: "warning",
      warning: {
        code: "tool-result-image-unsupported",
        message:
          'Chat Completions tool messages carry only text: an image (image/png) from tool "get_image" was sent in a following user message.',
      },
    });
  });
});

describe("chatCompletions settings", () => {
  it("sends no Authorization header when a baseURL is given without a key", async () => {
    const saved = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      fake.enqueue({ chunks: fixture("chatcompletions-text.sse.txt") });
      await collect(
        chatCompletions({ baseURL: `${fake.url}/v1`, headers: { "X-Title": "Junction" } }).stream({
          model: "llama3.2",
          messages: [{ role: "user", content: "hi" }],
          providerOptions: { chatcompletions: { seed: 7, keep_alive: "5m", stream: false } },
        }),
      );
      expect(fake.requests[0]!.headers.authorization).toBeUndefined();
      expect(fake.requests[0]!.headers["x-title"]).toBe("Junction");
      expect(fake.requests[0]!.body).toEqual({
        model: "llama3.2",
        messages: [{ role: "user", content: "hi" }],
        stream: true,
        stream_options: { include_usage: true },
        seed: 7,
        keep_alive: "5m",
      });
    } finally {
      if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
    }
  });

  it("sends the API key as a bearer token and reads OPENAI_API_KEY by default", async () => {
    const saved = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = "sk-from-env";
    try {
      fake.enqueue({ chunks: fixture("chatcompletions-text.sse.txt") });
      fake.enqueue({ chunks: fixture("chatcompletions-text.sse.txt") });
      const request: ModelRequest = { model: "m", messages: [{ role: "user", content: "hi" }] };
      await collect(chatCompletions({ baseURL: `${fake.url}/v1` }).stream(request));
      await collect(chatCompletions({ baseURL: `${fake.url}/v1`, apiKey: "sk-explicit" }).stream(request));
      expect(fake.requests.map((r) => r.headers.authorization)).toEqual([
        "Bearer sk-from-env",
        "Bearer sk-explicit",
      ]);
    } finally {
      if (saved === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = saved;
    }
  });

  it("sends no key when apiKey is an explicit empty string, even with OPENAI_API_KEY set", async () => {
    const saved = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = "sk-openai-secret";
    try {
      fake.enqueue({ chunks: fixture("chatcompletions-text.sse.txt") });
      await collect(
        chatCompletions({ baseURL: `${fake.url}/v1`, apiKey: "" }).stream({
          model: "m",
          messages: [{ role: "user", content: "hi" }],
        }),
      );
      expect(fake.requests[0]!.headers.authorization).toBeUndefined();
      expect(JSON.stringify(fake.requests[0]!.headers)).not.toContain("sk-openai-secret");
    } finally {
      if (saved === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = saved;
    }
  });

  it("fails clearly on the first request, not in the factory, without a key and without a baseURL", async () => {
    const saved = { key: process.env.OPENAI_API_KEY, url: process.env.OPENAI_BASE_URL };
    process.env.OPENAI_API_KEY = "  ";
    delete process.env.OPENAI_BASE_URL;
    try {
      const provider = chatCompletions();
      const { events, error } = await collectUntilError(
        provider.stream({ model: "m", messages: [{ role: "user", content: "hi" }] }),
      );
      expect(events).toEqual([]);
      expect(ProviderError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({
        code: "provider-config-invalid",
        provider: "chatcompletions",
        message:
          "chatCompletions() has no baseURL: pass the endpoint's baseURL (for example http://localhost:11434/v1 for Ollama, or spread one of CHAT_COMPLETIONS_PRESETS) or set OPENAI_BASE_URL. To use api.openai.com itself, pass apiKey or set OPENAI_API_KEY.",
      });
    } finally {
      if (saved.key !== undefined) process.env.OPENAI_API_KEY = saved.key;
      else delete process.env.OPENAI_API_KEY;
      if (saved.url !== undefined) process.env.OPENAI_BASE_URL = saved.url;
    }
  });
});

describe("chatCompletions provider options", () => {
  it("sends max_completion_tokens instead of max_tokens when it is passed as a vendor option", async () => {
    fake.enqueue({ chunks: fixture("chatcompletions-text.sse.txt") });
    await collect(
      provider({ name: "openai-chat" }).stream({
        model: "o4-mini",
        messages: [{ role: "user", content: "hi" }],
        maxTokens: 50,
        providerOptions: {
          "openai-chat": { max_completion_tokens: 500, reasoning_effort: "low", model: "other" },
          chatcompletions: { seed: 1 },
        },
      }),
    );
    expect(fake.requests[0]!.body).toEqual({
      model: "o4-mini",
      messages: [{ role: "user", content: "hi" }],
      stream: true,
      stream_options: { include_usage: true },
      max_completion_tokens: 500,
      reasoning_effort: "low",
    });
  });

  it("warns when vendor options try to replace what the provider owns", async () => {
    fake.enqueue({ chunks: fixture("chatcompletions-text.sse.txt") });
    const events = await collect(
      provider().stream({
        model: "m",
        messages: [{ role: "user", content: "hi" }],
        providerOptions: { chatcompletions: { messages: [] } },
      }),
    );
    expect(events[0]).toEqual({
      type: "warning",
      warning: {
        code: "provider-option-ignored",
        message:
          'providerOptions.chatcompletions.messages was ignored: Junction sets "messages" from the request itself.',
      },
    });
    expect(fake.requests[0]!.body.messages).toEqual([{ role: "user", content: "hi" }]);
  });
});

describe("chatCompletions failures", () => {
  const request: ModelRequest = { model: "gpt-4o", messages: [{ role: "user", content: "hi" }] };

  it("throws a ProviderError for a 400 without retrying", async () => {
    fake.enqueue({
      status: 400,
      headers: { "x-request-id": "req_400" },
      json: {
        error: {
          message: "Invalid 'messages'",
          type: "invalid_request_error",
          param: "messages",
          code: null,
        },
      },
    });
    const { events, error } = await collectUntilError(provider({ maxRetries: 2 }).stream(request));
    expect(events).toEqual([]);
    expect(fake.requests).toHaveLength(1);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: "provider-api-error",
      provider: "chatcompletions",
      status: 400,
      retryable: false,
      requestId: "req_400",
    });
    expect((error as Error).message).toContain("Invalid 'messages'");
  });

  it("gives up on a 5xx after the configured retries with a retryable error", async () => {
    const unavailable = {
      status: 503,
      headers: { "retry-after": "0", "x-request-id": "req_503" },
      json: { error: { message: "Service Unavailable", type: "server_error" } },
    };
    fake.enqueue(unavailable, unavailable);
    const { error } = await collectUntilError(provider({ maxRetries: 1 }).stream(request));
    expect(fake.requests).toHaveLength(2);
    expect(error).toMatchObject({
      code: "provider-api-error",
      status: 503,
      retryable: true,
      requestId: "req_503",
    });
  });

  it("surfaces an error object inside a 200 stream (OpenRouter) after the text that came before it", async () => {
    fake.enqueue({ chunks: fixture("chatcompletions-openrouter-error.sse.txt") });
    const { events, error } = await collectUntilError(provider({ name: "openrouter" }).stream(request));
    expect(events).toEqual([{ type: "text-delta", text: "Hello" }]);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: "provider-stream-error",
      provider: "openrouter",
      retryable: true,
      status: undefined,
    });
    expect((error as Error).message).toContain("Provider disconnected unexpectedly");
  });

  it("rejects a malformed chunk with a clear error", async () => {
    fake.enqueue({ chunks: sse({ id: "x", object: "chat.completion.chunk", choices: { index: 0 } }) });
    const { error } = await collectUntilError(provider().stream(request));
    expect(error).toMatchObject({ code: "provider-response-invalid", retryable: false });
    expect((error as Error).message).toBe(
      'The chatcompletions server sent an invalid stream: "choices" is a object ({"index":0}).',
    );
  });

  it("fails with a retryable stream error when the connection is cut mid-stream", async () => {
    fake.enqueue({
      chunks: fixture("chatcompletions-text.sse.txt").slice(0, 2),
      // Pacing only, so the written chunks leave before the socket is destroyed.
      chunkDelayMs: 20,
      destroyAfterChunks: true,
    });
    const { events, error } = await collectUntilError(provider().stream(request));
    expect(events).toEqual([{ type: "text-delta", text: "POST" }]);
    expect(error).toMatchObject({ code: "provider-stream-error", retryable: true });
    expect((error as Error).message).toBe(
      "The chatcompletions stream failed: the connection closed before the stream ended (terminated)",
    );
  });

  it("turns the SDK's timeout into a retryable ProviderError", async () => {
    // The fake never answers; the provider's own timeout ends the wait.
    fake.enqueue(() => new Promise(() => {}));
    const { events, error } = await collectUntilError(provider({ timeout: 100 }).stream(request));
    expect(events).toEqual([]);
    expect(error).toMatchObject({
      code: "provider-api-error",
      provider: "chatcompletions",
      retryable: true,
      message: "The chatcompletions request timed out.",
    });
  });
});
