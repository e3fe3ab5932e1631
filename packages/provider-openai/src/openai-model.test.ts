import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type Message, type ModelStreamEvent, ProviderError } from "@junction/types";
import { collectStream, readSSEFixture, startWireFake, type WireFake } from "@junction/wire-fake";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildOpenAIRequest } from "./build-openai-request.js";
import { openai } from "./openai-provider.js";

const fixture = (name: string) => readSSEFixture(new URL(`./__fixtures__/${name}`, import.meta.url));

/** The parsed data of every event in a fixture, to read expected values from the capture itself. */
const fixtureEvents = (name: string): any[] =>
  fixture(name).map((chunk) =>
    JSON.parse(
      chunk
        .split("\n")
        .find((line) => line.startsWith("data: "))!
        .slice(6),
    ),
  );

let fake: WireFake;
beforeEach(async () => {
  fake = await startWireFake();
});
afterEach(async () => {
  await fake.close();
});

const provider = (settings: Parameters<typeof openai>[0] = {}) =>
  openai({ apiKey: "sk-test", baseURL: `${fake.url}/v1`, maxRetries: 0, ...settings });

const weatherTool = {
  name: "get_weather",
  description: "Get weather",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};

describe("openai provider against the Responses API wire format", () => {
  it("streams text and sends the exact request body", async () => {
    fake.enqueue({ chunks: fixture("openai-text.sse.txt"), headers: { "x-request-id": "req_text_1" } });
    const { events, error } = await collectStream(
      provider({ headers: { "X-Team": "junction" } }).stream({
        model: "gpt-4o-mini",
        system: "Answer with one word.",
        messages: [{ role: "user", content: "Are you there?" }],
        maxTokens: 50,
        temperature: 0.2,
        topP: 0.9,
      }),
    );
    expect(error).toBeUndefined();
    expect(fake.requests).toHaveLength(1);
    const request = fake.requests[0]!;
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/v1/responses");
    expect(request.headers.authorization).toBe("Bearer sk-test");
    expect(request.headers["x-team"]).toBe("junction");
    expect(request.body).toEqual({
      model: "gpt-4o-mini",
      input: [{ role: "user", content: "Are you there?" }],
      instructions: "Answer with one word.",
      max_output_tokens: 50,
      temperature: 0.2,
      top_p: 0.9,
      stream: true,
    });
    expect(events).toEqual([
      { type: "text-delta", text: "OK" },
      {
        type: "finish",
        reason: "stop",
        rawReason: "completed",
        usage: {
          inputTokens: 12,
          outputTokens: 2,
          totalTokens: 14,
          cachedInputTokens: 0,
          cacheWriteInputTokens: 0,
          reasoningTokens: 0,
        },
        content: [
          { type: "text", text: "OK", providerMetadata: { openai: { itemId: "msg_sanitized_streaming" } } },
        ],
        responseId: "resp_sanitized_streaming",
      },
    ]);
  });

  it("sends the body as JSON text, exactly what JSON.stringify gives for the built body", async () => {
    fake.enqueue({ chunks: fixture("openai-tool-call.sse.txt") });
    const request = {
      model: "gpt-5.1",
      system: 'Be "brief" \u2028 \\',
      tools: [weatherTool],
      messages: [
        { role: "user", content: "Weather in Beijing?" },
        {
          role: "assistant",
          content: [{ type: "tool-call", id: "call_0", name: "get_weather", input: { location: "Oslo" } }],
        },
        {
          role: "tool",
          content: [{ type: "tool-result", toolCallId: "call_0", toolName: "get_weather", output: "Cold." }],
        },
      ] satisfies Message[],
    };
    const { error } = await collectStream(provider().stream(request));
    expect(error).toBeUndefined();
    expect(fake.requests[0]!.text).toBe(JSON.stringify(buildOpenAIRequest(request, {}).body));
    expect(fake.requests[0]!.headers["content-type"]).toBe("application/json");
  });

  it("streams one tool call with incremental arguments and emits it before the finish", async () => {
    fake.enqueue({ chunks: fixture("openai-tool-call.sse.txt") });
    const { events, error } = await collectStream(
      provider().stream({
        model: "gpt-5.1",
        messages: [{ role: "user", content: "Weather in Beijing?" }],
        tools: [weatherTool],
        toolChoice: "required",
      }),
    );
    expect(error).toBeUndefined();
    expect(fake.requests[0]!.body).toEqual({
      model: "gpt-5.1",
      input: [{ role: "user", content: "Weather in Beijing?" }],
      tools: [
        {
          type: "function",
          name: "get_weather",
          description: "Get weather",
          parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
          strict: false,
        },
      ],
      tool_choice: "required",
      stream: true,
    });
    const itemId = "fc_0775572d10a16b66006a8d8528e8a887d2a32ef76463d40c98";
    const callId = "call_2FQdm3Br7Qb35YUBSkDR7kue";
    const toolCall = {
      type: "tool-call",
      id: callId,
      name: "get_weather",
      input: { city: "Beijing" },
      providerMetadata: { openai: { itemId } },
    };
    expect(events).toEqual([
      { type: "tool-call-start", id: callId, name: "get_weather" },
      ...['{"', "city", '":"', "Be", "ijing", '"}'].map((argumentsDelta) => ({
        type: "tool-call-delta",
        id: callId,
        argumentsDelta,
      })),
      toolCall,
      {
        type: "finish",
        reason: "tool-calls",
        rawReason: "completed",
        usage: {
          inputTokens: 45,
          outputTokens: 25,
          totalTokens: 70,
          cachedInputTokens: 0,
          cacheWriteInputTokens: 0,
          reasoningTokens: 0,
        },
        content: [toolCall],
        responseId: "resp_0775572d10a16b66006a8d85285ef487d2ae865d3657af7276",
      },
    ]);
  });

  it("maps a tool name OpenAI rejects to a valid one and back", async () => {
    const realName = "weather/get current";
    // The fake answers with whatever name the SDK sent, as the real API would.
    fake.enqueue((request) => {
      const sentName: string = request.body.tools[0].name;
      return {
        chunks: fixture("openai-tool-call.sse.txt").map((chunk) => chunk.replaceAll("get_weather", sentName)),
      };
    });
    const { events } = await collectStream(
      provider().stream({
        model: "gpt-5.1",
        messages: [{ role: "user", content: "Weather?" }],
        tools: [{ ...weatherTool, name: realName }],
        toolChoice: { type: "tool", name: realName },
      }),
    );
    const sentName = fake.requests[0]!.body.tools[0].name;
    expect(sentName).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(sentName).not.toBe(realName);
    expect(fake.requests[0]!.body.tool_choice).toEqual({ type: "function", name: sentName });
    expect(
      events.filter((event) => event.type === "tool-call-start" || event.type === "tool-call"),
    ).toMatchObject([
      { type: "tool-call-start", name: realName },
      { type: "tool-call", name: realName, input: { city: "Beijing" } },
    ]);
    const finish = events.at(-1);
    expect(finish).toMatchObject({ type: "finish", content: [{ type: "tool-call", name: realName }] });

    // The next turn sends the history's call under the same vendor name.
    fake.enqueue({ chunks: fixture("openai-text.sse.txt") });
    const history: Message[] = [
      { role: "user", content: "Weather?" },
      { role: "assistant", content: finish!.type === "finish" ? finish!.content : [] },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "call_2FQdm3Br7Qb35YUBSkDR7kue",
            toolName: realName,
            output: "Sunny",
          },
        ],
      },
    ];
    await collectStream(provider().stream({ model: "gpt-5.1", messages: history }));
    expect(fake.requests[1]!.body.input[1]).toMatchObject({ type: "function_call", name: sentName });
  });

  it("streams parallel tool calls, each emitted as soon as its arguments are complete, with cached token usage", async () => {
    fake.enqueue({ chunks: fixture("openai-parallel-tool-calls.sse.txt") });
    const { events, error } = await collectStream(
      provider().stream({
        model: "gpt-5.1",
        messages: [{ role: "user", content: "Weather in Beijing and Paris?" }],
        tools: [weatherTool],
        providerOptions: { openai: { parallel_tool_calls: true } },
      }),
    );
    expect(error).toBeUndefined();
    expect(fake.requests[0]!.body.parallel_tool_calls).toBe(true);
    expect(events.map((event) => event.type)).toEqual([
      "tool-call-start",
      "tool-call-delta",
      "tool-call-delta",
      "tool-call-delta",
      "tool-call-delta",
      "tool-call-delta",
      "tool-call",
      "tool-call-start",
      "tool-call-delta",
      "tool-call-delta",
      "tool-call-delta",
      "tool-call-delta",
      "tool-call-delta",
      "tool-call",
      "finish",
    ]);
    const calls = events.filter((event) => event.type === "tool-call");
    expect(calls).toEqual([
      {
        type: "tool-call",
        id: "call_Beijing7Yx2KpQ",
        name: "get_weather",
        input: { city: "Beijing" },
        providerMetadata: { openai: { itemId: "fc_parallel_weather_beijing" } },
      },
      {
        type: "tool-call",
        id: "call_ParisM4nV8sLd",
        name: "get_weather",
        input: { city: "Paris" },
        providerMetadata: { openai: { itemId: "fc_parallel_weather_paris" } },
      },
    ]);
    expect(events.at(-1)).toEqual({
      type: "finish",
      reason: "tool-calls",
      rawReason: "completed",
      usage: {
        inputTokens: 1240,
        outputTokens: 51,
        totalTokens: 1291,
        cachedInputTokens: 1152,
        reasoningTokens: 0,
      },
      content: calls,
      responseId: "resp_parallel_weather_0001",
    });
  });

  it("streams reasoning summaries and echoes the reasoning item with its encrypted content on the next turn", async () => {
    const captured = fixtureEvents("openai-reasoning-tool-call.sse.txt");
    const reasoningDone = captured.find(
      (event) => event.type === "response.output_item.done" && event.item.type === "reasoning",
    ).item;
    fake.enqueue({ chunks: fixture("openai-reasoning-tool-call.sse.txt") });
    const calculator = {
      name: "calculator",
      description: "A minimal calculator for basic arithmetic. Call it once per step.",
      inputSchema: {
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number" }, op: { type: "string" } },
        required: ["a", "b", "op"],
      },
    };
    const options = { openai: { store: false, reasoning: { effort: "high", summary: "detailed" } } };
    const first = await collectStream(
      provider().stream({
        model: "gpt-5.1-codex-max",
        messages: [{ role: "user", content: "(12 + 7) * 3 * 10?" }],
        tools: [calculator],
        providerOptions: options,
      }),
    );
    expect(first.error).toBeUndefined();
    expect(fake.requests[0]!.body).toMatchObject({
      store: false,
      reasoning: { effort: "high", summary: "detailed" },
      include: ["reasoning.encrypted_content"],
    });
    const reasoningText = first.events
      .filter((event) => event.type === "reasoning-delta")
      .map((event) => (event as { text: string }).text)
      .join("");
    expect(reasoningText).toBe(reasoningDone.summary[0].text);
    const finish = first.events.at(-1)!;
    if (finish.type !== "finish") throw new Error("expected a finish event");
    expect(finish.reason).toBe("tool-calls");
    expect(finish.content).toEqual([
      {
        type: "reasoning",
        text: reasoningDone.summary[0].text,
        providerMetadata: {
          openai: { itemId: reasoningDone.id, encryptedContent: reasoningDone.encrypted_content },
        },
      },
      {
        type: "tool-call",
        id: "call_AB6AaRZ1FYZB2RwS6A5vbdqn",
        name: "calculator",
        input: { a: 12, b: 7, op: "add" },
        providerMetadata: { openai: { itemId: "fc_01830d662ab3856501693c32151234819091cfca267e98cc5f" } },
      },
    ]);

    fake.enqueue({ chunks: fixture("openai-text.sse.txt") });
    const second = await collectStream(
      provider().stream({
        model: "gpt-5.1-codex-max",
        messages: [
          { role: "user", content: "(12 + 7) * 3 * 10?" },
          { role: "assistant", content: finish.content },
          {
            role: "tool",
            content: [
              {
                type: "tool-result",
                toolCallId: "call_AB6AaRZ1FYZB2RwS6A5vbdqn",
                toolName: "calculator",
                output: "19",
              },
            ],
          },
        ],
        tools: [calculator],
        providerOptions: options,
      }),
    );
    expect(second.error).toBeUndefined();
    expect(fake.requests[1]!.body.input).toEqual([
      { role: "user", content: "(12 + 7) * 3 * 10?" },
      {
        type: "reasoning",
        id: reasoningDone.id,
        summary: [{ type: "summary_text", text: reasoningDone.summary[0].text }],
        encrypted_content: reasoningDone.encrypted_content,
      },
      {
        type: "function_call",
        call_id: "call_AB6AaRZ1FYZB2RwS6A5vbdqn",
        name: "calculator",
        arguments: '{"a":12,"b":7,"op":"add"}',
        id: "fc_01830d662ab3856501693c32151234819091cfca267e98cc5f",
      },
      { type: "function_call_output", call_id: "call_AB6AaRZ1FYZB2RwS6A5vbdqn", output: "19" },
    ]);
  });

  it("sends an image tool result natively, as input_image with a data URL", async () => {
    fake.enqueue({ chunks: fixture("openai-text.sse.txt") });
    const pixel =
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
    const { error } = await collectStream(
      provider().stream({
        model: "gpt-5.1",
        messages: [
          { role: "user", content: "Show me the image." },
          {
            role: "assistant",
            content: [{ type: "tool-call", id: "call_img", name: "get-tiny-image", input: {} }],
          },
          {
            role: "tool",
            content: [
              {
                type: "tool-result",
                toolCallId: "call_img",
                toolName: "get-tiny-image",
                output: {
                  isError: false,
                  content: [
                    { type: "text", text: "Here is a tiny image:" },
                    { type: "image", data: pixel, mimeType: "image/png" },
                  ],
                },
              },
            ],
          },
        ],
      }),
    );
    expect(error).toBeUndefined();
    expect(fake.requests[0]!.body).toEqual({
      model: "gpt-5.1",
      input: [
        { role: "user", content: "Show me the image." },
        { type: "function_call", call_id: "call_img", name: "get-tiny-image", arguments: "{}" },
        {
          type: "function_call_output",
          call_id: "call_img",
          output: [
            { type: "input_text", text: "Here is a tiny image:" },
            { type: "input_image", image_url: `data:image/png;base64,${pixel}` },
          ],
        },
      ],
      stream: true,
    });
  });

  it("maps response.incomplete (max_output_tokens) to a length finish", async () => {
    fake.enqueue({ chunks: fixture("openai-incomplete.sse.txt") });
    const { events, error } = await collectStream(
      provider().stream({
        model: "gpt-4o-mini",
        messages: [{ role: "user", content: "A story" }],
        maxTokens: 4,
      }),
    );
    expect(error).toBeUndefined();
    expect(events).toEqual([
      { type: "text-delta", text: "Once" },
      { type: "text-delta", text: " upon" },
      { type: "text-delta", text: " a" },
      { type: "text-delta", text: " time" },
      {
        type: "finish",
        reason: "length",
        rawReason: "max_output_tokens",
        usage: { inputTokens: 9, outputTokens: 4, totalTokens: 13, cachedInputTokens: 0, reasoningTokens: 0 },
        content: [
          {
            type: "text",
            text: "Once upon a time",
            providerMetadata: { openai: { itemId: "msg_incomplete_max_tokens_0001" } },
          },
        ],
        responseId: "resp_incomplete_max_tokens_0001",
      },
    ]);
  });
});

describe("openai provider failures", () => {
  const request = { model: "gpt-4o-mini", messages: [{ role: "user", content: "Hi" }] as Message[] };

  it("throws a non-retryable ProviderError with status and request id on 400, without retrying", async () => {
    fake.enqueue({
      status: 400,
      headers: { "x-request-id": "req_bad_1" },
      json: {
        error: {
          message: "Invalid value for 'temperature': must be <= 2.",
          type: "invalid_request_error",
          param: "temperature",
          code: "invalid_value",
        },
      },
    });
    const { events, error } = await collectStream(
      provider({ maxRetries: 2 }).stream({ ...request, temperature: 5 }),
    );
    expect(events).toEqual([]);
    expect(fake.requests).toHaveLength(1);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: "provider-api-error",
      provider: "openai",
      status: 400,
      retryable: false,
      requestId: "req_bad_1",
      message: "OpenAI API error 400 Invalid value for 'temperature': must be <= 2.",
    });
  });

  it("throws a retryable 429 ProviderError once the SDK's retries are spent", async () => {
    const limited = {
      status: 429,
      headers: { "retry-after": "0", "x-request-id": "req_limited" },
      json: { error: { message: "Rate limit reached", type: "requests", code: "rate_limit_exceeded" } },
    };
    fake.enqueue(limited, limited);
    const { error } = await collectStream(provider({ maxRetries: 1 }).stream(request));
    expect(fake.requests).toHaveLength(2);
    expect(error).toMatchObject({
      code: "provider-api-error",
      status: 429,
      retryable: true,
      requestId: "req_limited",
    });
  });

  it("throws a retryable ProviderError on 5xx", async () => {
    fake.enqueue({
      status: 503,
      headers: { "x-request-id": "req_down" },
      json: { error: { message: "The server is overloaded", type: "server_error", code: null } },
    });
    const { error } = await collectStream(provider().stream(request));
    expect(error).toMatchObject({
      code: "provider-api-error",
      status: 503,
      retryable: true,
      requestId: "req_down",
      message: "OpenAI API error 503 The server is overloaded",
    });
  });

  it("throws an error event inside a 200 stream as a ProviderError", async () => {
    fake.enqueue({ chunks: fixture("openai-error.sse.txt"), headers: { "x-request-id": "req_quota" } });
    const { events, error } = await collectStream(provider().stream(request));
    expect(events).toEqual([]);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: "provider-stream-error",
      retryable: false,
      requestId: "req_quota",
      message:
        "OpenAI stream error (insufficient_quota): You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.",
    });
    expect((error as ProviderError).status).toBeUndefined();
  });

  it("throws an error that arrives after text has streamed, keeping the deltas already sent", async () => {
    const text = fixture("openai-text.sse.txt");
    const error = {
      type: "error",
      code: "server_error",
      message: "The server had an error while processing your request.",
      param: null,
      sequence_number: 5,
    };
    fake.enqueue({ chunks: [...text.slice(0, 5), `event: error\ndata: ${JSON.stringify(error)}\n\n`] });
    const result = await collectStream(provider().stream(request));
    expect(result.events).toEqual([{ type: "text-delta", text: "OK" }]);
    expect(result.error).toMatchObject({
      code: "provider-stream-error",
      retryable: true,
      message: "OpenAI stream error (server_error): The server had an error while processing your request.",
    });
  });

  it("throws an error event sent without an event line, in the documented top-level shape", async () => {
    const text = fixture("openai-text.sse.txt");
    const error = {
      type: "error",
      code: "rate_limit_exceeded",
      message: "Slow down.",
      param: null,
      sequence_number: 2,
    };
    fake.enqueue({ chunks: [...text.slice(0, 2), `data: ${JSON.stringify(error)}\n\n`] });
    const result = await collectStream(provider().stream(request));
    expect(result.events).toEqual([]);
    expect(result.error).toMatchObject({
      code: "provider-stream-error",
      retryable: true,
      message: "OpenAI stream error (rate_limit_exceeded): Slow down.",
    });
  });

  it("throws response.failed as a ProviderError with the failure's code", async () => {
    fake.enqueue({
      chunks: fixture("openai-response-failed.sse.txt"),
      headers: { "x-request-id": "req_failed" },
    });
    const { error } = await collectStream(provider().stream(request));
    expect(error).toMatchObject({
      code: "provider-stream-error",
      retryable: true,
      requestId: "req_failed",
      message:
        "OpenAI response failed (rate_limit_exceeded): Request too large for gpt-4o-mini in organization on tokens per min (TPM): Limit 30000, Requested 35364.",
    });
  });

  it("throws when the connection drops mid-stream", async () => {
    fake.enqueue({
      chunks: fixture("openai-text.sse.txt").slice(0, 5),
      chunkDelayMs: 10,
      destroyAfterChunks: true,
    });
    const { events, error } = await collectStream(provider().stream(request));
    // How much arrives before the reset depends on the socket; never a finish.
    expect([[], [{ type: "text-delta", text: "OK" }]]).toContainEqual(events);
    expect(error).toMatchObject({ code: "provider-stream-error", retryable: true });
    expect((error as Error).message).toMatch(/^The OpenAI stream broke off: /);
  });

  it("throws when the stream ends without response.completed", async () => {
    fake.enqueue({ chunks: fixture("openai-text.sse.txt").slice(0, 5) });
    const { events, error } = await collectStream(provider().stream(request));
    expect(events).toEqual([{ type: "text-delta", text: "OK" }]);
    expect(error).toMatchObject({
      code: "provider-stream-error",
      message: "The OpenAI stream ended before response.completed.",
    });
  });

  it("throws a clear error for a malformed event instead of crashing", async () => {
    const created = fixture("openai-tool-call.sse.txt")[0]!;
    const badItem = {
      type: "response.output_item.added",
      item: { id: "fc_1", type: "function_call", arguments: "", name: "get_weather" },
      output_index: 0,
      sequence_number: 1,
    };
    fake.enqueue({
      chunks: [created, `event: response.output_item.added\ndata: ${JSON.stringify(badItem)}\n\n`],
    });
    const { error } = await collectStream(provider().stream(request));
    expect(error).toMatchObject({
      code: "provider-response-invalid",
      message: 'OpenAI sent function_call item without a string "call_id" (got undefined).',
    });
  });

  it("throws provider-response-invalid for data that is not JSON", async () => {
    fake.enqueue({ chunks: ["event: response.created\ndata: {not json\n\n"] });
    const { error } = await collectStream(provider().stream(request));
    expect(error).toMatchObject({ code: "provider-response-invalid" });
  });

  it("passes arguments that are not JSON on as raw text, with a warning", async () => {
    const chunks = fixture("openai-tool-call.sse.txt").map((chunk) =>
      chunk.replaceAll('"arguments":"{\\"city\\":\\"Beijing\\"}"', '"arguments":"{\\"city\\":\\"Bei"'),
    );
    fake.enqueue({ chunks });
    const { events, error } = await collectStream(provider().stream({ ...request, tools: [weatherTool] }));
    expect(error).toBeUndefined();
    const warning = events.find((event) => event.type === "warning");
    expect(warning).toMatchObject({ warning: { code: "tool-call-arguments-invalid" } });
    expect(events.find((event) => event.type === "tool-call")).toMatchObject({ input: '{"city":"Bei' });
  });

  it("reads the API key from OPENAI_API_KEY", async () => {
    const saved = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = "sk-from-env";
    try {
      fake.enqueue({ chunks: fixture("openai-text.sse.txt") });
      const { error } = await collectStream(openai({ baseURL: `${fake.url}/v1` }).stream(request));
      expect(error).toBeUndefined();
      expect(fake.requests[0]!.headers.authorization).toBe("Bearer sk-from-env");
    } finally {
      if (saved === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = saved;
    }
  });
});

describe("openai provider, a consumer that stops reading", () => {
  it("stops the HTTP stream when the consumer stops reading", async () => {
    let serverSawClose!: () => void;
    const closed = new Promise<void>((resolve) => {
      serverSawClose = resolve;
    });
    const server = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { "content-type": "text/event-stream" });
      for (const chunk of fixture("openai-text.sse.txt").slice(0, 5)) res.write(chunk);
      res.on("close", () => serverSawClose());
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const events: ModelStreamEvent[] = [];
      for await (const event of openai({ apiKey: "sk-test", baseURL: `http://127.0.0.1:${port}/v1` }).stream({
        model: "gpt-4o-mini",
        messages: [{ role: "user", content: "Hi" }],
      })) {
        events.push(event);
        break;
      }
      await closed;
      expect(events).toEqual([{ type: "text-delta", text: "OK" }]);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe("openai provider options", () => {
  it("passes providerOptions.openai through, refuses reserved fields, and warns about stop sequences", async () => {
    fake.enqueue({ chunks: fixture("openai-text.sse.txt") });
    const { events } = await collectStream(
      provider().stream({
        model: "gpt-4o-mini",
        messages: [{ role: "user", content: "Hi" }],
        stopSequences: ["END"],
        providerOptions: {
          openai: { service_tier: "flex", metadata: { run: "42" }, model: "gpt-other", store: false },
          anthropic: { thinking: { type: "enabled" } },
        },
      }),
    );
    expect(fake.requests[0]!.body).toEqual({
      model: "gpt-4o-mini",
      input: [{ role: "user", content: "Hi" }],
      service_tier: "flex",
      metadata: { run: "42" },
      store: false,
      stream: true,
    });
    expect(events.filter((event) => event.type === "warning")).toEqual([
      {
        type: "warning",
        warning: {
          code: "setting-unsupported",
          message: "The OpenAI Responses API has no stop sequences; stopSequences is ignored.",
        },
      },
      {
        type: "warning",
        warning: {
          code: "provider-option-ignored",
          message: 'providerOptions.openai.model was ignored: Junction sets "model" from the request itself.',
        },
      },
    ]);
  });

  it("sends hosted tools from providerOptions.openai.tools after the function tools, and refuses a non-array", async () => {
    fake.enqueue({ chunks: fixture("openai-text.sse.txt") }, { chunks: fixture("openai-text.sse.txt") });
    await collectStream(
      provider().stream({
        model: "gpt-5.1",
        messages: [{ role: "user", content: "Hi" }],
        tools: [weatherTool],
        providerOptions: { openai: { tools: [{ type: "web_search" }] } },
      }),
    );
    expect(fake.requests[0]!.body.tools).toEqual([
      {
        type: "function",
        name: "get_weather",
        description: "Get weather",
        parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
        strict: false,
      },
      { type: "web_search" },
    ]);

    const { events } = await collectStream(
      provider().stream({
        model: "gpt-5.1",
        messages: [{ role: "user", content: "Hi" }],
        providerOptions: { openai: { tools: { type: "web_search" } } },
      }),
    );
    expect(fake.requests[1]!.body.tools).toBeUndefined();
    expect(events.filter((event) => event.type === "warning")).toEqual([
      {
        type: "warning",
        warning: {
          code: "provider-option-ignored",
          message:
            'providerOptions.openai.tools was ignored: it must be an array of OpenAI tools (hosted tools such as { type: "web_search" }).',
        },
      },
    ]);
  });

  it("sends strict tools with schemas rewritten to OpenAI's strict rules when asked", async () => {
    fake.enqueue({ chunks: fixture("openai-text.sse.txt") });
    const inputSchema = {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: {
        city: { type: "string", minLength: 1 },
        units: { type: "string", enum: ["c", "f"], default: "c" },
      },
      required: ["city"],
    };
    const before = structuredClone(inputSchema);
    const { events } = await collectStream(
      provider({ strictTools: true }).stream({
        model: "gpt-5.1",
        messages: [{ role: "user", content: "Weather?" }],
        tools: [{ name: "get_weather", description: "Get weather", inputSchema }],
      }),
    );
    expect(inputSchema).toEqual(before);
    expect(fake.requests[0]!.body.tools).toEqual([
      {
        type: "function",
        name: "get_weather",
        description: "Get weather",
        strict: true,
        parameters: {
          type: "object",
          properties: {
            city: { type: "string" },
            units: { type: ["string", "null"], enum: ["c", "f", null] },
          },
          required: ["city", "units"],
          additionalProperties: false,
        },
      },
    ]);
    expect(events[0]).toEqual({
      type: "warning",
      warning: {
        code: "tool-schema-keywords-removed",
        message:
          'Tool "get_weather": strict mode does not support #/properties/city/minLength, #/properties/units/default; removed from the schema sent to OpenAI (the tool still validates its input).',
      },
    });
  });

  it("lets a request turn strict tools off again", async () => {
    fake.enqueue({ chunks: fixture("openai-text.sse.txt") });
    await collectStream(
      provider({ strictTools: true }).stream({
        model: "gpt-5.1",
        messages: [{ role: "user", content: "Weather?" }],
        tools: [weatherTool],
        providerOptions: { openai: { strictTools: false } },
      }),
    );
    expect(fake.requests[0]!.body.tools[0]).toEqual({
      type: "function",
      name: "get_weather",
      description: "Get weather",
      parameters: weatherTool.inputSchema,
      strict: false,
    });
    expect(fake.requests[0]!.body.strictTools).toBeUndefined();
  });
});
