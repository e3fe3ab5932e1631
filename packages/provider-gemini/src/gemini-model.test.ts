import { readFileSync } from "node:fs";
import { type Message, type ModelRequest, type ModelStreamEvent, ProviderError } from "@junction/types";
import { readSSEFixture, startWireFake, type WireFake } from "@junction/wire-fake";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { gemini } from "./gemini-provider.js";
import type { GeminiSettings } from "./gemini-settings.js";

const fixture = (name: string) => readSSEFixture(new URL(`./__fixtures__/${name}`, import.meta.url));
const frame = (value: unknown) => `data: ${JSON.stringify(value)}\r\n\r\n`;
const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const TEXT_SIGNATURE =
  "EqsFCqgFAb4+9vvtAF5n87lB4OGDOoTRMOqp35jW65XsYXh6BySMwl9nvrbAvPcl2U0xITaYUyV4CmREEDB1z0ZPpCg7iEwiZcj40Eh1jXoL8Y/BbPqxdgZKvKxdBsJx92y2ML5ytajQHVFQb9ohEMMnjs9uNadLAhDEsOU1nC5tl3FQkx94uaGfWvg61bJT3Y9OxFdo/kbpm4RBngvYhVkBzHKkHBj72T2bUd8J4HPssi7ORC5iPosPRIOyH/CAVHEtMzFYMwb7OhRu+CW8Z9u7gDieME5iJjXtJtLrNGDxgR7XtWfRRyGjsj6uDS+KvjR3SUSWPdn5eeH6w+LXZm1X///Hvhhcx+NHxsuGjF3fGhyzTVAoIzk0lxyB4+/A9I4Xa0o/T4coVDiewMzGZDwmket//ig8x9UC8cyWr/hy1joZWUO7ooJlLncv8gy4Ng+y1JdievZokSFDNWfMMNAQr3kgUwJDucqDp44C1xMtgR3lhJ75IBBnprHCE/ThgvNXujmqNkwAjp5dS4PjVbrw8fqSylfE80tvU0g9dXqg4pEyG+hGIxbANLhsWjAKLqh69hyqvVLg2Ds3wppphf61IfC4VoeLWj85CjBZMf+k85NsUIJQ6+DQS9IPNbM29ZOzpUbHoWKJB6VzNCSJse7Pi07L+pd6skl77km00y4lJdHIGHfEgi8PaOonakBcxbRqKzGJAA/urlP0tiWya2fTWrvNZOybJHyyofNNSI4s5y76yKEjP1wnPqC7ujrQk6xb7eyCeqH9ekByy3vv0JfgERFptoSUoG2toIr9M3lS/LKpnwfCvZh+z3J0iMb83d4MaPKhGhE49J4660XUsEmjygAZNi9HnjfC3KtaU/07Sx4JCezMtpsLKUxBgy4xaNqwew3FwAG37eeWcow=";
const CALL_SIGNATURE =
  "EqUCCqICAb4+9vsh8Pd5taZVoPzSvjWWwzBrvhEQWBLCGa7IdY8FBMm7Z6dCKFU3Ft0la15gF7RaHe1NlPRygQec0bFwPDfMwGcUOMNiJiNIKxusCs4ejCZRuouNYQ4etEIt7CujEUHiILLfZXSJZYhs4UCrD2bLqPq0sE0lWgYJnzHkkKUOnMsA2hKffAhtF4DWn5INYj8pPssvch/2VpDFW2F9XSE04zLDzkIWF2eztJX50Y0lTehRZC3FW7fOrXCzGx+PwdataD6eXlF5O1zn+86XtmktOs2DEp4o1PMvXFFAXe8GGvPt8Idf3UtHMq7AsapwMW9sjiKj+FJk54m+9LMTSaj7C86smfvoQryYBEHTVazr1bEnpl4bPG5JUtm2yAMkHj4=";

let fake: WireFake;
beforeEach(async () => {
  fake = await startWireFake();
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await fake.close();
});

function provider(settings: GeminiSettings = {}) {
  return gemini({ apiKey: "test-key", baseURL: fake.url, apiVersion: "v1beta", maxRetries: 0, ...settings });
}

async function collect(events: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const seen: ModelStreamEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

/** Collects events until the iterator throws; returns both. */
async function collectUntilError(events: AsyncIterable<ModelStreamEvent>) {
  const seen: ModelStreamEvent[] = [];
  try {
    for await (const event of events) seen.push(event);
  } catch (error) {
    return { seen, error };
  }
  return { seen, error: undefined };
}

const weatherTool = {
  name: "weather",
  description: "Get the weather for a location",
  inputSchema: {
    $schema: "http://json-schema.org/draft-07/schema#",
    type: "object",
    properties: { location: { type: "string", description: "City name" } },
    required: ["location"],
    additionalProperties: false,
  },
};

describe("gemini provider against a local server speaking Gemini's wire format", () => {
  it("streams text and sends the exact request", async () => {
    fake.enqueue({ chunks: fixture("gemini-text.sse.txt") });
    const events = await collect(
      provider().stream({
        model: "gemini-3-pro-preview",
        system: "Answer briefly.",
        messages: [{ role: "user", content: "How many r's are in strawberry?" }],
        maxTokens: 100,
        temperature: 0,
        topP: 0.9,
        stopSequences: ["END"],
      }),
    );

    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe("/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse");
    expect(request?.headers["x-goog-api-key"]).toBe("test-key");
    expect(request?.body).toEqual({
      contents: [{ role: "user", parts: [{ text: "How many r's are in strawberry?" }] }],
      systemInstruction: { parts: [{ text: "Answer briefly." }] },
      generationConfig: { maxOutputTokens: 100, temperature: 0, topP: 0.9, stopSequences: ["END"] },
    });
    expect(events).toEqual([
      { type: "text-delta", text: "There are **3**" },
      { type: "text-delta", text: ' "r"s in strawberry.\n\nst**r**awbe**rr**y' },
      {
        type: "finish",
        reason: "stop",
        rawReason: "STOP",
        usage: { inputTokens: 9, outputTokens: 208, totalTokens: 217, reasoningTokens: 185 },
        content: [
          {
            type: "text",
            text: 'There are **3** "r"s in strawberry.\n\nst**r**awbe**rr**y',
            providerMetadata: { gemini: { thoughtSignature: TEXT_SIGNATURE } },
          },
        ],
        responseId: "bH6LaZW8Fp_3nsEPqtaSwQ4",
      },
    ]);
  });

  it("streams a whole function call, cleans its schema and echoes the signature on the next turn", async () => {
    fake.enqueue({ chunks: fixture("gemini-tool-call.sse.txt") }, { chunks: fixture("gemini-text.sse.txt") });
    const messages: Message[] = [{ role: "user", content: "Weather in San Francisco?" }];
    const first = await collect(
      provider().stream({
        model: "gemini-3-pro-preview",
        messages,
        tools: [weatherTool],
        toolChoice: "auto",
      }),
    );

    expect(fake.requests[0]?.body).toEqual({
      contents: [{ role: "user", parts: [{ text: "Weather in San Francisco?" }] }],
      tools: [
        {
          functionDeclarations: [
            {
              name: "weather",
              description: "Get the weather for a location",
              parametersJsonSchema: {
                type: "object",
                properties: { location: { type: "string", description: "City name" } },
                required: ["location"],
                additionalProperties: false,
              },
            },
          ],
        },
      ],
      toolConfig: { functionCallingConfig: { mode: "AUTO" } },
      // @google/genai always sends a generationConfig object, empty when no setting is given.
      generationConfig: {},
    });
    const id = "b36LacjwM668nsEP2tbsgQQ-0";
    const metadata = { gemini: { thoughtSignature: CALL_SIGNATURE, generatedId: true } };
    expect(first).toEqual([
      { type: "tool-call-start", id, name: "weather" },
      { type: "tool-call-delta", id, argumentsDelta: '{"location":"San Francisco"}' },
      {
        type: "tool-call",
        id,
        name: "weather",
        input: { location: "San Francisco" },
        providerMetadata: metadata,
      },
      {
        type: "finish",
        reason: "tool-calls",
        rawReason: "STOP",
        usage: { inputTokens: 29, outputTokens: 60, totalTokens: 89, reasoningTokens: 45 },
        content: [
          {
            type: "tool-call",
            id,
            name: "weather",
            input: { location: "San Francisco" },
            providerMetadata: metadata,
          },
        ],
        responseId: "b36LacjwM668nsEP2tbsgQQ",
      },
    ]);
    // The caller's schema is untouched by the cleaning.
    expect(weatherTool.inputSchema.$schema).toBe("http://json-schema.org/draft-07/schema#");

    const finish = first.at(-1);
    if (finish?.type !== "finish") throw new Error("no finish event");
    messages.push(
      { role: "assistant", content: finish.content },
      {
        role: "tool",
        content: [{ type: "tool-result", toolCallId: id, toolName: "weather", output: "Foggy, 14°C" }],
      },
    );
    await collect(provider().stream({ model: "gemini-3-pro-preview", messages, tools: [weatherTool] }));
    expect(fake.requests[1]?.body.contents).toEqual([
      { role: "user", parts: [{ text: "Weather in San Francisco?" }] },
      {
        role: "model",
        parts: [
          {
            functionCall: { name: "weather", args: { location: "San Francisco" } },
            thoughtSignature: CALL_SIGNATURE,
          },
        ],
      },
      {
        role: "user",
        parts: [{ functionResponse: { name: "weather", response: { output: "Foggy, 14°C" } } }],
      },
    ]);
  });

  it("streams parallel calls and sends image tool results natively inside functionResponse.parts", async () => {
    fake.enqueue(
      { chunks: fixture("gemini-parallel-tool-calls.sse.txt") },
      { chunks: fixture("gemini-text.sse.txt") },
    );
    const tools = ["power_disco_ball", "start_music", "dim_lights"].map((name) => ({
      name,
      description: name,
      inputSchema: { type: "object", properties: {} },
    }));
    const messages: Message[] = [{ role: "user", content: "Turn this place into a party!" }];
    const first = await collect(provider().stream({ model: "gemini-3-flash-preview", messages, tools }));

    expect(first.map((event) => event.type)).toEqual([
      "tool-call-start",
      "tool-call-delta",
      "tool-call",
      "tool-call-start",
      "tool-call-delta",
      "tool-call",
      "tool-call-start",
      "tool-call-delta",
      "tool-call",
      "finish",
    ]);
    const finish = first.at(-1);
    if (finish?.type !== "finish") throw new Error("no finish event");
    expect(finish.reason).toBe("tool-calls");
    expect(finish.content).toEqual([
      {
        type: "tool-call",
        id: "call-disco",
        name: "power_disco_ball",
        input: { power: true },
        providerMetadata: { gemini: { thoughtSignature: "c2lnLXBhcmFsbGVsLTE=" } },
      },
      { type: "tool-call", id: "call-music", name: "start_music", input: { energetic: true, loud: true } },
      { type: "tool-call", id: "call-lights", name: "dim_lights", input: { brightness: 0.5 } },
    ]);

    messages.push(
      { role: "assistant", content: finish.content },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "call-disco",
            toolName: "power_disco_ball",
            output: {
              content: [
                { type: "text", text: "The disco ball is spinning." },
                { type: "image", data: PNG, mimeType: "image/png" },
              ],
              isError: false,
            },
          },
          { type: "tool-result", toolCallId: "call-music", toolName: "start_music", output: "Playing." },
          {
            type: "tool-result",
            toolCallId: "call-lights",
            toolName: "dim_lights",
            output: { content: [{ type: "text", text: "No dimmer found." }], isError: true },
          },
        ],
      },
    );
    const second = await collect(provider().stream({ model: "gemini-3-flash-preview", messages, tools }));
    expect(second.filter((event) => event.type === "warning")).toEqual([]);
    expect(fake.requests[1]?.body.contents).toEqual([
      { role: "user", parts: [{ text: "Turn this place into a party!" }] },
      {
        role: "model",
        parts: [
          {
            functionCall: { id: "call-disco", name: "power_disco_ball", args: { power: true } },
            thoughtSignature: "c2lnLXBhcmFsbGVsLTE=",
          },
          { functionCall: { id: "call-music", name: "start_music", args: { energetic: true, loud: true } } },
          { functionCall: { id: "call-lights", name: "dim_lights", args: { brightness: 0.5 } } },
        ],
      },
      {
        role: "user",
        parts: [
          {
            functionResponse: {
              id: "call-disco",
              name: "power_disco_ball",
              response: { output: "The disco ball is spinning." },
              parts: [{ inlineData: { mimeType: "image/png", data: PNG } }],
            },
          },
          { functionResponse: { id: "call-music", name: "start_music", response: { output: "Playing." } } },
          {
            functionResponse: {
              id: "call-lights",
              name: "dim_lights",
              response: { error: "No dimmer found." },
            },
          },
        ],
      },
    ]);
  });

  it("streams parallel calls without ids across chunks, in order, and answers them by name and order", async () => {
    fake.enqueue(
      { chunks: fixture("gemini-parallel-tool-calls-without-ids.sse.txt") },
      { chunks: fixture("gemini-text.sse.txt") },
    );
    const tools = ["get_weather", "dim_lights"].map((name) => ({
      name,
      description: name,
      inputSchema: { type: "object", properties: {} },
    }));
    const messages: Message[] = [
      { role: "user", content: "Weather in Paris and Tokyo, and dim the lights." },
    ];
    const first = await collect(provider().stream({ model: "gemini-2.5-flash", messages, tools }));

    const generated = { providerMetadata: { gemini: { generatedId: true } } };
    const calls = [
      { id: "par-noid-resp-1-0", name: "get_weather", input: { location: "Paris" } },
      { id: "par-noid-resp-1-1", name: "get_weather", input: { location: "Tokyo", unit: "celsius" } },
      { id: "par-noid-resp-1-2", name: "dim_lights", input: { brightness: 0.5, rooms: ["hall", "kitchen"] } },
    ];
    expect(first).toEqual([
      { type: "text-delta", text: "Checking both cities and the lights." },
      ...calls.flatMap((call) => [
        { type: "tool-call-start", id: call.id, name: call.name },
        { type: "tool-call-delta", id: call.id, argumentsDelta: JSON.stringify(call.input) },
        { type: "tool-call", ...call, ...generated },
      ]),
      {
        type: "finish",
        reason: "tool-calls",
        rawReason: "STOP",
        usage: { inputTokens: 96, outputTokens: 41, totalTokens: 137 },
        content: [
          { type: "text", text: "Checking both cities and the lights." },
          ...calls.map((call) => ({ type: "tool-call", ...call, ...generated })),
        ],
        responseId: "par-noid-resp-1",
      },
    ]);

    const finish = first.at(-1);
    if (finish?.type !== "finish") throw new Error("no finish event");
    messages.push(
      { role: "assistant", content: finish.content },
      {
        role: "tool",
        content: [
          { type: "tool-result", toolCallId: calls[0]!.id, toolName: "get_weather", output: "Paris: 18 °C" },
          { type: "tool-result", toolCallId: calls[1]!.id, toolName: "get_weather", output: "Tokyo: 24 °C" },
          { type: "tool-result", toolCallId: calls[2]!.id, toolName: "dim_lights", output: "Dimmed." },
        ],
      },
    );
    await collect(provider().stream({ model: "gemini-2.5-flash", messages, tools }));
    // Made-up ids mean nothing to Gemini: calls and responses go back without them, in order.
    expect(fake.requests[1]?.body.contents).toEqual([
      { role: "user", parts: [{ text: "Weather in Paris and Tokyo, and dim the lights." }] },
      {
        role: "model",
        parts: [
          { text: "Checking both cities and the lights." },
          { functionCall: { name: "get_weather", args: { location: "Paris" } } },
          { functionCall: { name: "get_weather", args: { location: "Tokyo", unit: "celsius" } } },
          { functionCall: { name: "dim_lights", args: { brightness: 0.5, rooms: ["hall", "kitchen"] } } },
        ],
      },
      {
        role: "user",
        parts: [
          { functionResponse: { name: "get_weather", response: { output: "Paris: 18 °C" } } },
          { functionResponse: { name: "get_weather", response: { output: "Tokyo: 24 °C" } } },
          { functionResponse: { name: "dim_lights", response: { output: "Dimmed." } } },
        ],
      },
    ]);
  });

  it("puts tool-result images beside the function response for models before Gemini 3, with a warning", async () => {
    fake.enqueue({ chunks: fixture("gemini-text.sse.txt") }, { chunks: fixture("gemini-text.sse.txt") });
    const messages: Message[] = [
      { role: "user", content: "Show me the image." },
      { role: "assistant", content: [{ type: "tool-call", id: "c1", name: "get-image", input: {} }] },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "c1",
            toolName: "get-image",
            output: { content: [{ type: "image", data: PNG, mimeType: "image/png" }], isError: false },
          },
        ],
      },
    ];
    const events = await collect(provider().stream({ model: "gemini-2.5-flash", messages }));
    expect(events[0]).toEqual({
      type: "warning",
      warning: {
        code: "tool-result-media-beside-response",
        message:
          'The result of "get-image" (call c1) has image/png content; this model takes no media inside function responses, so it was sent beside the function response in the same turn.',
      },
    });
    expect(fake.requests[0]?.body.contents[2]).toEqual({
      role: "user",
      parts: [
        { functionResponse: { id: "c1", name: "get-image", response: { output: "" } } },
        { inlineData: { mimeType: "image/png", data: PNG } },
      ],
    });

    // The per-request setting overrides the model-name rule.
    await collect(
      provider().stream({
        model: "gemini-2.5-flash",
        messages,
        providerOptions: { gemini: { multimodalFunctionResponses: true } },
      }),
    );
    expect(fake.requests[1]?.body.contents[2]).toEqual({
      role: "user",
      parts: [
        {
          functionResponse: {
            id: "c1",
            name: "get-image",
            response: { output: "" },
            parts: [{ inlineData: { mimeType: "image/png", data: PNG } }],
          },
        },
      ],
    });
  });

  it("streams thought parts as reasoning and passes vendor options through", async () => {
    fake.enqueue({ chunks: fixture("gemini-reasoning.sse.txt") });
    const events = await collect(
      provider().stream({
        model: "gemini-3-pro-preview",
        messages: [{ role: "user", content: "How many r's are in strawberry?" }],
        providerOptions: {
          gemini: { thinkingConfig: { includeThoughts: true, thinkingBudget: 1024 }, topK: 40 },
          anthropic: { ignored: true },
        },
      }),
    );
    expect(fake.requests[0]?.body.generationConfig).toEqual({
      thinkingConfig: { includeThoughts: true, thinkingBudget: 1024 },
      topK: 40,
    });
    expect(events).toEqual([
      { type: "reasoning-delta", text: "**Counting letters**\n\nI spell out strawberry" },
      { type: "reasoning-delta", text: " and count the r's." },
      { type: "text-delta", text: 'There are **3** "r"s in' },
      { type: "text-delta", text: " strawberry." },
      {
        type: "finish",
        reason: "stop",
        rawReason: "STOP",
        usage: { inputTokens: 9, outputTokens: 285, totalTokens: 294, reasoningTokens: 256 },
        content: [
          { type: "reasoning", text: "**Counting letters**\n\nI spell out strawberry and count the r's." },
          {
            type: "text",
            text: 'There are **3** "r"s in strawberry.',
            providerMetadata: {
              gemini: {
                thoughtSignature:
                  "Eo0HCooHAb4+9vutXdtKMt+r7Z3gLh52ZQ3RKYDzp4A6PHh0dLuvI1KwnLxDS/qm8wn4Gm9NNNQ1nBS",
              },
            },
          },
        ],
        responseId: "dX6LadKVC7SZ28oPr9yJoQs",
      },
    ]);
  });

  it("reports cached, tool-use and thinking tokens, and MAX_TOKENS as length", async () => {
    fake.enqueue({ chunks: fixture("gemini-usage-cached.sse.txt") });
    const events = await collect(
      provider().stream({ model: "gemini-2.5-flash", messages: [{ role: "user", content: "Summarise." }] }),
    );
    expect(events.at(-1)).toEqual({
      type: "finish",
      reason: "length",
      rawReason: "MAX_TOKENS",
      usage: {
        inputTokens: 77,
        outputTokens: 160,
        totalTokens: 237,
        cachedInputTokens: 4,
        reasoningTokens: 89,
      },
      content: [{ type: "text", text: "The cached context says that" }],
      responseId: "usage-resp-1",
    });
  });

  it.each([
    ["SAFETY", "content-filter"],
    ["RECITATION", "content-filter"],
    ["MALFORMED_FUNCTION_CALL", "error"],
    ["OTHER", "other"],
  ] as const)("maps finishReason %s to %s", async (rawReason, reason) => {
    fake.enqueue({
      chunks: [
        frame({
          candidates: [{ content: { parts: [{ text: "x" }], role: "model" }, finishReason: rawReason }],
        }),
      ],
    });
    const events = await collect(
      provider().stream({ model: "gemini-2.5-flash", messages: [{ role: "user", content: "q" }] }),
    );
    expect(events.at(-1)).toMatchObject({ type: "finish", reason, rawReason });
  });

  it("ends with content-filter when the prompt itself is blocked", async () => {
    fake.enqueue({
      chunks: [
        frame({
          promptFeedback: { blockReason: "PROHIBITED_CONTENT" },
          usageMetadata: { promptTokenCount: 7, totalTokenCount: 7 },
        }),
      ],
    });
    const events = await collect(
      provider().stream({ model: "gemini-2.5-flash", messages: [{ role: "user", content: "q" }] }),
    );
    expect(events).toEqual([
      {
        type: "finish",
        reason: "content-filter",
        rawReason: "PROHIBITED_CONTENT",
        usage: { inputTokens: 7, outputTokens: 0, totalTokens: 7 },
        content: [],
      },
    ]);
  });

  it("throws a non-retryable ProviderError for a 400 without retrying", async () => {
    fake.enqueue({
      status: 400,
      json: {
        error: {
          code: 400,
          message: "* GenerateContentRequest.contents: contents is not specified\n",
          status: "INVALID_ARGUMENT",
        },
      },
    });
    const { seen, error } = await collectUntilError(
      provider({ maxRetries: 2 }).stream({
        model: "gemini-2.5-flash",
        messages: [{ role: "user", content: "" }],
      }),
    );
    expect(seen).toEqual([]);
    expect(fake.requests).toHaveLength(1);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: "provider-api-error",
      provider: "gemini",
      status: 400,
      retryable: false,
      message:
        "Gemini API error (HTTP 400 INVALID_ARGUMENT): * GenerateContentRequest.contents: contents is not specified\n",
    });
  });

  it("throws a retryable ProviderError once retries of a 429 run out", async () => {
    const quota = JSON.parse(
      readFileSync(new URL("./__fixtures__/gemini-429.json", import.meta.url), "utf8"),
    );
    fake.enqueue({ status: 429, json: quota }, { status: 429, json: quota });
    const { error } = await collectUntilError(
      provider({ maxRetries: 1, retryOptions: { initialDelay: 0.001, maxDelay: 0.001, jitter: 0 } }).stream({
        model: "gemini-2.5-flash",
        messages: [{ role: "user", content: "hi" }],
      }),
    );
    expect(fake.requests).toHaveLength(2);
    expect(error).toMatchObject({
      code: "provider-api-error",
      status: 429,
      retryable: true,
      message:
        "Gemini API error (HTTP 429 RESOURCE_EXHAUSTED): You exceeded your current quota, please check your plan.",
    });
  });

  it("throws a retryable ProviderError for a 5xx", async () => {
    fake.enqueue({ status: 500, text: "upstream exploded" });
    const { error } = await collectUntilError(
      provider().stream({ model: "gemini-2.5-flash", messages: [{ role: "user", content: "hi" }] }),
    );
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: "provider-api-error",
      status: 500,
      retryable: true,
      message: "Gemini API error (HTTP 500 Internal Server Error): upstream exploded",
    });
  });

  it("throws the error event Gemini sends inside a 200 stream", async () => {
    fake.enqueue({ chunks: fixture("gemini-error-mid-stream.sse.txt") });
    const { seen, error } = await collectUntilError(
      provider().stream({ model: "gemini-2.5-flash", messages: [{ role: "user", content: "hi" }] }),
    );
    expect(seen).toEqual([{ type: "text-delta", text: "Partial answer" }]);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: "provider-stream-error",
      status: 503,
      retryable: true,
      requestId: "err-resp-1",
      message:
        "Gemini API error inside the stream (HTTP 503 UNAVAILABLE): The model is overloaded. Please try again later.",
    });
  });

  it("throws when the connection is cut mid-stream", async () => {
    fake.enqueue({
      chunks: fixture("gemini-error-mid-stream.sse.txt").slice(0, 1),
      chunkDelayMs: 20,
      destroyAfterChunks: true,
    });
    const { seen, error } = await collectUntilError(
      provider().stream({ model: "gemini-2.5-flash", messages: [{ role: "user", content: "hi" }] }),
    );
    expect(seen).toEqual([{ type: "text-delta", text: "Partial answer" }]);
    expect(error).toMatchObject({ code: "provider-stream-error", retryable: true, requestId: "err-resp-1" });
  });

  it("throws when a stream ends cleanly but without a finishReason", async () => {
    fake.enqueue({ chunks: fixture("gemini-error-mid-stream.sse.txt").slice(0, 1) });
    const { error } = await collectUntilError(
      provider().stream({ model: "gemini-2.5-flash", messages: [{ role: "user", content: "hi" }] }),
    );
    expect(error).toMatchObject({
      code: "provider-stream-error",
      message: "The Gemini stream ended without a finishReason: the response is incomplete.",
    });
  });

  it("rejects malformed chunks with a clear error", async () => {
    fake.enqueue({
      chunks: [frame({ candidates: [{ content: { parts: [{ functionCall: { args: {} } }] } }] })],
    });
    const { error } = await collectUntilError(
      provider().stream({ model: "gemini-2.5-flash", messages: [{ role: "user", content: "hi" }] }),
    );
    expect(error).toMatchObject({
      code: "provider-response-invalid",
      retryable: false,
      message: "Gemini sent a `functionCall` without a name.",
    });
  });

  it("reads GEMINI_API_KEY, then GOOGLE_API_KEY, and sends custom headers", async () => {
    fake.enqueue(
      { chunks: fixture("gemini-text.sse.txt") },
      { chunks: fixture("gemini-text.sse.txt") },
      { chunks: fixture("gemini-text.sse.txt") },
    );
    const request: ModelRequest = {
      model: "gemini-3-pro-preview",
      messages: [{ role: "user", content: "hi" }],
    };
    vi.stubEnv("GEMINI_API_KEY", "from-gemini-env");
    vi.stubEnv("GOOGLE_API_KEY", "from-google-env");
    await collect(gemini({ baseURL: fake.url, headers: { "x-team": "junction" } }).stream(request));
    vi.stubEnv("GEMINI_API_KEY", "");
    await collect(gemini({ baseURL: fake.url }).stream(request));
    // Whitespace counts as unset too, in the setting and in the environment; keys are trimmed.
    vi.stubEnv("GEMINI_API_KEY", "   ");
    vi.stubEnv("GOOGLE_API_KEY", " from-google-env-padded \n");
    await collect(gemini({ apiKey: " ", baseURL: fake.url }).stream(request));
    expect(fake.requests.map((recorded) => recorded.headers["x-goog-api-key"])).toEqual([
      "from-gemini-env",
      "from-google-env",
      "from-google-env-padded",
    ]);
    expect(fake.requests[0]?.headers["x-team"]).toBe("junction");
  });

  it("maps adapted tool names back to the real tool in events and content", async () => {
    fake.enqueue({
      chunks: [
        frame({
          candidates: [
            {
              content: {
                parts: [{ functionCall: { id: "c9", name: "_9lives", args: { n: 1 } } }],
                role: "model",
              },
              finishReason: "STOP",
            },
          ],
          responseId: "names-1",
        }),
      ],
    });
    const events = await collect(
      provider().stream({
        model: "gemini-2.5-flash",
        messages: [{ role: "user", content: "go" }],
        tools: [{ name: "9lives", description: "Count lives", inputSchema: { type: "object" } }],
      }),
    );
    expect(fake.requests[0]?.body.tools).toEqual([
      {
        functionDeclarations: [
          { name: "_9lives", description: "Count lives", parametersJsonSchema: { type: "object" } },
        ],
      },
    ]);
    expect(events.filter((event) => event.type === "tool-call")).toEqual([
      { type: "tool-call", id: "c9", name: "9lives", input: { n: 1 } },
    ]);
  });

  it("throws a retryable ProviderError when the per-attempt timeout fires", async () => {
    fake.enqueue({
      chunks: [
        frame({ candidates: [{ content: { parts: [{ text: "slow" }], role: "model" } }] }),
        "data: {}\n\n",
      ],
      // The first chunk must beat the timeout even on a loaded machine; the second never does.
      chunkDelayMs: 5_000,
    });
    const { seen, error } = await collectUntilError(
      provider({ timeout: 1_000 }).stream({
        model: "gemini-2.5-flash",
        messages: [{ role: "user", content: "hi" }],
      }),
    );
    expect(seen).toEqual([{ type: "text-delta", text: "slow" }]);
    expect(fake.requests[0]?.headers["x-server-timeout"]).toBe("1");
    expect(error).toMatchObject({
      code: "provider-stream-error",
      retryable: true,
      message: "The Gemini request timed out after 1000 ms.",
    });
  });

  it("refuses a request without any message content, before any HTTP call", async () => {
    const { error } = await collectUntilError(provider().stream({ model: "gemini-2.5-flash", messages: [] }));
    expect(error).toMatchObject({
      code: "invalid-argument",
      message: "A Gemini request needs at least one message with content.",
    });
    expect(fake.requests).toHaveLength(0);
  });
});
