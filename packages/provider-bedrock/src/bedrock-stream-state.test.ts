import { COMMON_TOOL_NAME_RULE, createToolNameMapping, ProviderError } from "@junction/types";
import { describe, expect, it } from "vitest";
import { BedrockStreamState } from "./bedrock-stream-state.js";

function state() {
  return new BedrockStreamState({ toolNames: createToolNameMapping(["get_weather"], COMMON_TOOL_NAME_RULE) });
}

function run(events: unknown[]) {
  const stream = state();
  return [...events.flatMap((event) => stream.push(event)), ...stream.finish()];
}

const start = { messageStart: { role: "assistant" } };
const stop = (stopReason: string) => ({ messageStop: { stopReason } });

describe("BedrockStreamState", () => {
  it("joins redacted reasoning bytes and keeps them base64 in the part's metadata", () => {
    const events = run([
      start,
      {
        contentBlockDelta: {
          contentBlockIndex: 0,
          delta: { reasoningContent: { redactedContent: new Uint8Array([1, 2]) } },
        },
      },
      {
        contentBlockDelta: {
          contentBlockIndex: 0,
          delta: { reasoningContent: { redactedContent: new Uint8Array([3]) } },
        },
      },
      { contentBlockStop: { contentBlockIndex: 0 } },
      stop("end_turn"),
    ]);
    expect(events).toEqual([
      {
        type: "finish",
        reason: "stop",
        rawReason: "end_turn",
        usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
        content: [
          { type: "reasoning", text: "", providerMetadata: { bedrock: { redactedContent: "AQID" } } },
        ],
      },
    ]);
  });

  it("keeps unsigned reasoning (models without signatures) as Bedrock reasoning", () => {
    const events = run([
      start,
      { contentBlockDelta: { contentBlockIndex: 0, delta: { reasoningContent: { text: "Hmm." } } } },
      { contentBlockDelta: { contentBlockIndex: 1, delta: { text: "Yes." } } },
      stop("end_turn"),
      {
        metadata: { usage: { inputTokens: 5, outputTokens: 7, totalTokens: 12 }, metrics: { latencyMs: 1 } },
      },
    ]);
    expect(events).toEqual([
      { type: "reasoning-delta", text: "Hmm." },
      { type: "text-delta", text: "Yes." },
      {
        type: "finish",
        reason: "stop",
        rawReason: "end_turn",
        usage: { inputTokens: 5, outputTokens: 7, totalTokens: 12 },
        content: [
          { type: "reasoning", text: "Hmm.", providerMetadata: { bedrock: {} } },
          { type: "text", text: "Yes." },
        ],
      },
    ]);
  });

  it("completes a tool call left open at messageStop, with {} for no arguments, and warns about bad arguments", () => {
    const events = run([
      start,
      {
        contentBlockStart: {
          contentBlockIndex: 0,
          start: { toolUse: { toolUseId: "t1", name: "get_weather" } },
        },
      },
      {
        contentBlockStart: {
          contentBlockIndex: 1,
          start: { toolUse: { toolUseId: "t2", name: "get_weather" } },
        },
      },
      { contentBlockDelta: { contentBlockIndex: 1, delta: { toolUse: { input: "[1]" } } } },
      stop("tool_use"),
    ]);
    expect(events.slice(0, -1)).toEqual([
      { type: "tool-call-start", id: "t1", name: "get_weather" },
      { type: "tool-call-start", id: "t2", name: "get_weather" },
      { type: "tool-call-delta", id: "t2", argumentsDelta: "[1]" },
      { type: "tool-call", id: "t1", name: "get_weather", input: {} },
      {
        type: "warning",
        warning: {
          code: "tool-call-arguments-invalid",
          message:
            "Bedrock sent arguments for tool call t2 (get_weather) that are not a JSON object: expected a JSON object, got an array",
        },
      },
      { type: "tool-call", id: "t2", name: "get_weather", input: "[1]" },
    ]);
  });

  it("warns once about citations and about blocks it does not carry, keeping the text", () => {
    const events = run([
      start,
      { contentBlockDelta: { contentBlockIndex: 0, delta: { text: "Cited." } } },
      { contentBlockDelta: { contentBlockIndex: 0, delta: { citation: { title: "a" } } } },
      { contentBlockDelta: { contentBlockIndex: 0, delta: { citation: { title: "b" } } } },
      { contentBlockStart: { contentBlockIndex: 1, start: { image: { format: "png" } } } },
      { contentBlockDelta: { contentBlockIndex: 1, delta: { image: { source: {} } } } },
      { $unknown: ["somethingNew", {}] },
      stop("end_turn"),
    ]);
    expect(events.map((event) => (event.type === "warning" ? event.warning.code : event.type))).toEqual([
      "text-delta",
      "response-citations-unsupported",
      "response-block-unsupported",
      "finish",
    ]);
    expect(events.at(-1)).toMatchObject({ content: [{ type: "text", text: "Cited." }] });
  });

  it("throws an in-stream exception event as a stream error, retryable by its type", () => {
    const stream = state();
    stream.push(start);
    let error: unknown;
    try {
      stream.push({ throttlingException: { message: "Slow down." } });
    } catch (caught) {
      error = caught;
    }
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: "provider-stream-error",
      retryable: true,
      message: "Bedrock sent an error inside the stream (ThrottlingException: Slow down.).",
    });
  });

  it.each([
    [
      [{ contentBlockDelta: { contentBlockIndex: 0, delta: { text: "x" } } }],
      "contentBlockDelta arrived before messageStart",
    ],
    [[start, start], "a second messageStart arrived"],
    [
      [start, { contentBlockDelta: { contentBlockIndex: -1, delta: { text: "x" } } }],
      "contentBlockDelta has no valid contentBlockIndex: -1",
    ],
    [
      [start, { contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: "{}" } } } }],
      "toolUse delta for block 0, which is not a tool call",
    ],
    [
      [start, { contentBlockStart: { contentBlockIndex: 0, start: { toolUse: { name: "x" } } } }],
      "toolUse block 0 has no toolUseId",
    ],
    [
      [start, { messageStop: {}, metadata: {} }],
      'a stream event has no single type: {"messageStop":{},"metadata":{}}',
    ],
    [
      [start, stop("end_turn"), { metadata: { usage: { inputTokens: -1 } } }],
      "usage.inputTokens is not a token count: -1",
    ],
  ])("rejects malformed input (%#)", (events, detail) => {
    expect(() => run(events)).toThrow(`Bedrock sent an invalid stream: ${detail}.`);
  });

  it("throws a retryable stream error when the stream ends without messageStop", () => {
    expect(() => run([])).toThrow("The Bedrock stream ended without any message.");
    expect(() => run([start])).toThrow(
      "The Bedrock stream ended before messageStop: the response is incomplete.",
    );
  });
});
