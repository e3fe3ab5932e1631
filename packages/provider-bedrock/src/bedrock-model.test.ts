import type { Message, ModelRequest } from "@junction/types";
import { collectStream } from "@junction/wire-fake";
import { bedrockEvent } from "@junction/wire-fake/bedrock";
import { describe, expect, it } from "vitest";
import { fixture, model, useBedrockFake } from "../test/bedrock-fake.js";

const bedrockFake = useBedrockFake();
const provider = bedrockFake.provider;
const path = `/model/${encodeURIComponent(model)}/converse-stream`;

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
const weatherSpec = {
  toolSpec: {
    name: "get_weather",
    description: "Get the current weather for a city.",
    inputSchema: { json: weatherTool.inputSchema },
  },
};

const textFinish = {
  type: "finish",
  reason: "stop",
  rawReason: "end_turn",
  usage: { inputTokens: 14, outputTokens: 11, totalTokens: 25 },
  content: [{ type: "text", text: "Hello! How can I help you today?" }],
};

describe("bedrock provider against the ConverseStream event stream", () => {
  it("streams text, signs the request with the given credentials and sends the exact body", async () => {
    bedrockFake.fake.enqueue({ frames: fixture("bedrock-text.jsonl") });
    const { events, error } = await collectStream(
      provider().stream({
        model,
        system: "Be brief.",
        messages: [{ role: "user", content: "Hello" }],
      }),
    );
    expect(error).toBeUndefined();
    expect(bedrockFake.fake.requests).toHaveLength(1);
    const [request] = bedrockFake.fake.requests;
    expect(request!.method).toBe("POST");
    expect(request!.path).toBe(path);
    expect(request!.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDFAKEBEDROCK\/\d{8}\/us-east-1\/bedrock\/aws4_request, SignedHeaders=/,
    );
    expect(request!.body).toEqual({
      messages: [{ role: "user", content: [{ text: "Hello" }] }],
      system: [{ text: "Be brief." }],
    });
    expect(events).toEqual([
      { type: "text-delta", text: "Hello" },
      { type: "text-delta", text: "! How can I" },
      { type: "text-delta", text: " help you today?" },
      textFinish,
    ]);
  });

  it("streams a tool call with arguments in pieces and sends tools, tool choice and inference settings", async () => {
    bedrockFake.fake.enqueue({ frames: fixture("bedrock-tool-call.jsonl") });
    const { events, error } = await collectStream(
      provider({ defaultMaxTokens: 2048 }).stream({
        model,
        messages: [{ role: "user", content: "What is the weather in San Francisco?" }],
        tools: [weatherTool],
        toolChoice: "auto",
        temperature: 0,
        topP: 0.9,
        stopSequences: ["END"],
      }),
    );
    expect(error).toBeUndefined();
    expect(bedrockFake.fake.requests[0]!.body).toEqual({
      messages: [{ role: "user", content: [{ text: "What is the weather in San Francisco?" }] }],
      toolConfig: { tools: [weatherSpec], toolChoice: { auto: {} } },
      inferenceConfig: { maxTokens: 2048, temperature: 0, topP: 0.9, stopSequences: ["END"] },
    });
    const id = "tooluse_kZJMlvQmRJ6eAyJE5GIl7Q";
    expect(events).toEqual([
      { type: "text-delta", text: "Let me check" },
      { type: "text-delta", text: " the weather." },
      { type: "tool-call-start", id, name: "get_weather" },
      { type: "tool-call-delta", id, argumentsDelta: '{"city": "San' },
      { type: "tool-call-delta", id, argumentsDelta: ' Francisco"}' },
      { type: "tool-call", id, name: "get_weather", input: { city: "San Francisco" } },
      {
        type: "finish",
        reason: "tool-calls",
        rawReason: "tool_use",
        usage: { inputTokens: 408, outputTokens: 71, totalTokens: 479 },
        content: [
          { type: "text", text: "Let me check the weather." },
          { type: "tool-call", id, name: "get_weather", input: { city: "San Francisco" } },
        ],
      },
    ]);
  });

  it("maps tool names that break Bedrock's rule and maps them back on the way in", async () => {
    // The shared mapping: invalid characters become "_", plus a short hash of the real name.
    const vendorName = "fs_read_file_1uwfgkn";
    const frames = fixture("bedrock-tool-call.jsonl").map((frame) =>
      frame.type === "contentBlockStart"
        ? bedrockEvent("contentBlockStart", {
            contentBlockIndex: 1,
            start: { toolUse: { toolUseId: "tooluse_1", name: vendorName } },
          })
        : frame,
    );
    bedrockFake.fake.enqueue({ frames });
    const { events } = await collectStream(
      provider().stream({
        model,
        messages: [{ role: "user", content: "Read it." }],
        tools: [{ ...weatherTool, name: "fs.read_file" }],
        toolChoice: { type: "tool", name: "fs.read_file" },
      }),
    );
    expect(bedrockFake.fake.requests[0]!.body.toolConfig).toEqual({
      tools: [{ toolSpec: { ...weatherSpec.toolSpec, name: vendorName } }],
      toolChoice: { tool: { name: vendorName } },
    });
    expect(events).toContainEqual({ type: "tool-call-start", id: "tooluse_1", name: "fs.read_file" });
    expect(events).toContainEqual({
      type: "tool-call",
      id: "tooluse_1",
      name: "fs.read_file",
      input: { city: "San Francisco" },
    });
  });

  it("streams parallel tool calls, each complete when its block stops", async () => {
    bedrockFake.fake.enqueue({ frames: fixture("bedrock-parallel-tool-calls.jsonl") });
    const { events, error } = await collectStream(
      provider().stream({
        model,
        messages: [{ role: "user", content: "Weather in Paris and Tokyo?" }],
        tools: [weatherTool],
        toolChoice: "required",
      }),
    );
    expect(error).toBeUndefined();
    expect(bedrockFake.fake.requests[0]!.body.toolConfig.toolChoice).toEqual({ any: {} });
    expect(events.slice(0, -1)).toEqual([
      { type: "tool-call-start", id: "tooluse_Paris01", name: "get_weather" },
      { type: "tool-call-delta", id: "tooluse_Paris01", argumentsDelta: '{"city":' },
      { type: "tool-call-delta", id: "tooluse_Paris01", argumentsDelta: ' "Paris"}' },
      { type: "tool-call", id: "tooluse_Paris01", name: "get_weather", input: { city: "Paris" } },
      { type: "tool-call-start", id: "tooluse_Tokyo02", name: "get_weather" },
      { type: "tool-call-delta", id: "tooluse_Tokyo02", argumentsDelta: '{"city": "Tokyo"}' },
      { type: "tool-call", id: "tooluse_Tokyo02", name: "get_weather", input: { city: "Tokyo" } },
    ]);
    expect(events.at(-1)).toEqual({
      type: "finish",
      reason: "tool-calls",
      rawReason: "tool_use",
      usage: { inputTokens: 420, outputTokens: 88, totalTokens: 508 },
      content: [
        { type: "tool-call", id: "tooluse_Paris01", name: "get_weather", input: { city: "Paris" } },
        { type: "tool-call", id: "tooluse_Tokyo02", name: "get_weather", input: { city: "Tokyo" } },
      ],
    });
  });

  it("sends tool results natively: images, documents, JSON, error status; audio becomes a warning and a note", async () => {
    bedrockFake.fake.enqueue({ frames: fixture("bedrock-text.jsonl") });
    const png =
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
    const pdf = btoa("%PDF-1.4 tiny");
    const messages: Message[] = [
      { role: "user", content: "Weather in Paris and Tokyo, and the report?" },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Checking." },
          { type: "tool-call", id: "tooluse_Paris01", name: "get_weather", input: { city: "Paris" } },
          { type: "tool-call", id: "tooluse_Tokyo02", name: "get_weather", input: { city: "Tokyo" } },
          { type: "tool-call", id: "tooluse_Report03", name: "get_report", input: {} },
        ],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "tooluse_Paris01",
            toolName: "get_weather",
            output: "18°C, sunny",
          },
          {
            type: "tool-result",
            toolCallId: "tooluse_Tokyo02",
            toolName: "get_weather",
            output: { content: [{ type: "text", text: "Station offline" }], isError: true },
          },
          {
            type: "tool-result",
            toolCallId: "tooluse_Report03",
            toolName: "get_report",
            output: {
              content: [
                { type: "image", data: png, mimeType: "image/png" },
                {
                  type: "resource",
                  resource: { uri: "file:///reports/q3.report.pdf", mimeType: "application/pdf", blob: pdf },
                },
                {
                  type: "resource",
                  resource: { uri: "file:///notes/read me.md", mimeType: "text/markdown", text: "# Notes" },
                },
                { type: "audio", data: "UklGRg==", mimeType: "audio/wav" },
              ],
              structuredContent: { pages: 1 },
              isError: false,
            },
          },
        ],
      },
    ];
    const { events, error } = await collectStream(
      provider().stream({
        model,
        messages,
        tools: [
          weatherTool,
          { name: "get_report", description: "The report.", inputSchema: { type: "object" } },
        ],
      }),
    );
    expect(error).toBeUndefined();
    expect(bedrockFake.fake.requests[0]!.body.messages).toEqual([
      { role: "user", content: [{ text: "Weather in Paris and Tokyo, and the report?" }] },
      {
        role: "assistant",
        content: [
          { text: "Checking." },
          { toolUse: { toolUseId: "tooluse_Paris01", name: "get_weather", input: { city: "Paris" } } },
          { toolUse: { toolUseId: "tooluse_Tokyo02", name: "get_weather", input: { city: "Tokyo" } } },
          { toolUse: { toolUseId: "tooluse_Report03", name: "get_report", input: {} } },
        ],
      },
      {
        role: "user",
        content: [
          { toolResult: { toolUseId: "tooluse_Paris01", content: [{ text: "18°C, sunny" }] } },
          {
            toolResult: {
              toolUseId: "tooluse_Tokyo02",
              content: [{ text: "Station offline" }],
              status: "error",
            },
          },
          {
            toolResult: {
              toolUseId: "tooluse_Report03",
              content: [
                { image: { format: "png", source: { bytes: png } } },
                { document: { format: "pdf", name: "q3-report", source: { bytes: pdf } } },
                { document: { format: "md", name: "read me", source: { bytes: btoa("# Notes") } } },
                { text: "[audio (audio/wav) omitted: not supported by this model provider]" },
                { json: { pages: 1 } },
              ],
            },
          },
        ],
      },
    ]);
    expect(events.filter((event) => event.type === "warning")).toEqual([
      {
        type: "warning",
        warning: {
          code: "tool-result-audio-unsupported",
          message:
            "Bedrock cannot take audio (audio/wav) in a tool result; a text note was sent in its place.",
        },
      },
    ]);
  });

  it("streams reasoning, passes additionalModelRequestFields through, and echoes signed and redacted reasoning next turn", async () => {
    bedrockFake.fake.enqueue(
      { frames: fixture("bedrock-reasoning-tool-call.jsonl") },
      { frames: fixture("bedrock-text.jsonl") },
    );
    const thinking = { thinking: { type: "enabled", budget_tokens: 1024 } };
    const request: ModelRequest = {
      model,
      messages: [{ role: "user", content: "Weather in Paris?" }],
      tools: [weatherTool],
      maxTokens: 4096,
      providerOptions: { bedrock: { additionalModelRequestFields: thinking, modelId: "other" } },
    };
    const { events, error } = await collectStream(provider().stream(request));
    expect(error).toBeUndefined();
    expect(bedrockFake.fake.requests[0]!.path).toBe(path);
    expect(bedrockFake.fake.requests[0]!.body).toEqual({
      messages: [{ role: "user", content: [{ text: "Weather in Paris?" }] }],
      toolConfig: { tools: [weatherSpec] },
      inferenceConfig: { maxTokens: 4096 },
      additionalModelRequestFields: thinking,
    });
    const signature = "EqoBCkgIARABGAIiQL2Vg0f3Z";
    const redacted = "RW5jcnlwdGVkIHRoaW5raW5n";
    const content = [
      {
        type: "reasoning",
        text: "The user wants the weather. I should call get_weather.",
        providerMetadata: { bedrock: { signature } },
      },
      { type: "reasoning", text: "", providerMetadata: { bedrock: { redactedContent: redacted } } },
      { type: "text", text: "Checking." },
      { type: "tool-call", id: "tooluse_Think03", name: "get_weather", input: { city: "Paris" } },
    ] as const;
    expect(events).toEqual([
      {
        type: "warning",
        warning: {
          code: "provider-option-ignored",
          message:
            'providerOptions.bedrock.modelId was ignored: Junction sets "modelId" from the request itself.',
        },
      },
      { type: "reasoning-delta", text: "The user wants the weather." },
      { type: "reasoning-delta", text: " I should call get_weather." },
      { type: "text-delta", text: "Checking." },
      { type: "tool-call-start", id: "tooluse_Think03", name: "get_weather" },
      { type: "tool-call-delta", id: "tooluse_Think03", argumentsDelta: '{"city": "Paris"}' },
      { type: "tool-call", id: "tooluse_Think03", name: "get_weather", input: { city: "Paris" } },
      {
        type: "finish",
        reason: "tool-calls",
        rawReason: "tool_use",
        // Cache reads and writes count inside inputTokens.
        usage: {
          inputTokens: 310 + 1024,
          outputTokens: 152,
          totalTokens: 1486,
          cachedInputTokens: 1024,
          cacheWriteInputTokens: 0,
        },
        content,
      },
    ]);

    const next = await collectStream(
      provider().stream({
        ...request,
        providerOptions: { bedrock: { additionalModelRequestFields: thinking } },
        messages: [
          ...request.messages,
          { role: "assistant", content: [...content] },
          {
            role: "tool",
            content: [
              { type: "tool-result", toolCallId: "tooluse_Think03", toolName: "get_weather", output: "18°C" },
            ],
          },
        ],
      }),
    );
    expect(next.error).toBeUndefined();
    expect(bedrockFake.fake.requests[1]!.body.messages).toEqual([
      { role: "user", content: [{ text: "Weather in Paris?" }] },
      {
        role: "assistant",
        content: [
          {
            reasoningContent: {
              reasoningText: { text: "The user wants the weather. I should call get_weather.", signature },
            },
          },
          { reasoningContent: { redactedContent: redacted } },
          { text: "Checking." },
          { toolUse: { toolUseId: "tooluse_Think03", name: "get_weather", input: { city: "Paris" } } },
        ],
      },
      {
        role: "user",
        content: [{ toolResult: { toolUseId: "tooluse_Think03", content: [{ text: "18°C" }] } }],
      },
    ]);
  });

  it.each([
    ["end_turn", "stop"],
    ["stop_sequence", "stop"],
    ["max_tokens", "length"],
    ["model_context_window_exceeded", "length"],
    ["tool_use", "tool-calls"],
    ["guardrail_intervened", "content-filter"],
    ["content_filtered", "content-filter"],
    ["malformed_tool_use", "error"],
    ["something_new", "other"],
  ])("maps stopReason %s to %s", async (stopReason, reason) => {
    bedrockFake.fake.enqueue({
      frames: fixture("bedrock-text.jsonl").map((frame) =>
        frame.type === "messageStop" ? bedrockEvent("messageStop", { stopReason }) : frame,
      ),
    });
    const { events } = await collectStream(
      provider().stream({ model, messages: [{ role: "user", content: "Hi" }] }),
    );
    expect(events.at(-1)).toMatchObject({ type: "finish", reason, rawReason: stopReason });
  });
});
