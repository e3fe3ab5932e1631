import { COMMON_TOOL_NAME_RULE, createToolNameMapping, type ModelStreamEvent } from "@junction/types";
import { describe, expect, it } from "vitest";
import { AnthropicStreamState } from "./anthropic-stream-state.js";

const toolNames = createToolNameMapping([], COMMON_TOOL_NAME_RULE);
const start = {
  type: "message_start",
  message: { id: "msg_1", usage: { input_tokens: 10, output_tokens: 1 } },
};
const stop = [
  { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 20 } },
  { type: "message_stop" },
];

function run(events: unknown[]) {
  const state = new AnthropicStreamState({ toolNames, providerName: "anthropic" });
  const out: ModelStreamEvent[] = [];
  for (const event of events) out.push(...state.push(event));
  out.push(state.finish());
  return out;
}

describe("AnthropicStreamState", () => {
  it("keeps redacted thinking as reasoning with its data for the next turn", () => {
    const events = run([
      start,
      {
        type: "content_block_start",
        index: 0,
        content_block: { type: "redacted_thinking", data: "EmwKAhgB" },
      },
      { type: "content_block_stop", index: 0 },
      { type: "content_block_start", index: 1, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index: 1, delta: { type: "text_delta", text: "Done." } },
      { type: "content_block_stop", index: 1 },
      ...stop,
    ]);
    expect(events).toEqual([
      { type: "text-delta", text: "Done." },
      {
        type: "finish",
        reason: "stop",
        rawReason: "end_turn",
        responseId: "msg_1",
        usage: { inputTokens: 10, outputTokens: 20, totalTokens: 30 },
        content: [
          { type: "reasoning", text: "", providerMetadata: { anthropic: { redactedData: "EmwKAhgB" } } },
          { type: "text", text: "Done." },
        ],
      },
    ]);
  });

  it("warns about content blocks Junction does not carry and leaves them out of the turn", () => {
    const events = run([
      start,
      {
        type: "content_block_start",
        index: 0,
        content_block: { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: {} },
      },
      { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: "{}" } },
      { type: "content_block_stop", index: 0 },
      { type: "some_future_event", detail: 1 },
      ...stop,
    ]);
    expect(events[0]).toEqual({
      type: "warning",
      warning: {
        code: "response-block-unsupported",
        message:
          'Anthropic sent a "server_tool_use" content block, which Junction does not carry; it was left out of the turn.',
      },
    });
    expect(events).toHaveLength(2);
    expect(events[1]).toMatchObject({ type: "finish", content: [] });
  });

  it("passes arguments that are not valid JSON on as raw text, with a warning", () => {
    const events = run([
      start,
      {
        type: "content_block_start",
        index: 0,
        content_block: { type: "tool_use", id: "toolu_1", name: "run", input: {} },
      },
      { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"a": ' } },
      { type: "content_block_stop", index: 0 },
      { type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 5 } },
      { type: "message_stop" },
    ]);
    expect(events.slice(0, 4)).toEqual([
      { type: "tool-call-start", id: "toolu_1", name: "run" },
      { type: "tool-call-delta", id: "toolu_1", argumentsDelta: '{"a": ' },
      {
        type: "warning",
        warning: {
          code: "tool-call-arguments-invalid",
          message: expect.stringMatching(
            /^Anthropic sent arguments for tool call toolu_1 \(run\) that are not valid JSON: /,
          ),
        },
      },
      { type: "tool-call", id: "toolu_1", name: "run", input: '{"a": ' },
    ]);
  });

  it("uses the start block's input for a tool call that streams no arguments", () => {
    const events = run([
      start,
      {
        type: "content_block_start",
        index: 0,
        content_block: { type: "tool_use", id: "toolu_1", name: "now", input: {} },
      },
      { type: "content_block_stop", index: 0 },
      ...stop,
    ]);
    expect(events[1]).toEqual({ type: "tool-call", id: "toolu_1", name: "now", input: {} });
  });

  it("reports reasoning tokens and cumulative usage from message_delta", () => {
    const events = run([
      {
        type: "message_start",
        message: {
          id: "msg_2",
          usage: {
            input_tokens: 5,
            cache_read_input_tokens: 100,
            cache_creation_input_tokens: null,
            output_tokens: 1,
          },
        },
      },
      {
        type: "message_delta",
        delta: { stop_reason: "max_tokens" },
        usage: { input_tokens: 7, output_tokens: 50, output_tokens_details: { thinking_tokens: 30 } },
      },
      { type: "message_stop" },
    ]);
    expect(events.at(-1)).toMatchObject({
      reason: "length",
      usage: {
        inputTokens: 107,
        outputTokens: 50,
        totalTokens: 157,
        cachedInputTokens: 100,
        reasoningTokens: 30,
      },
    });
  });

  it.each([
    [
      [{ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "x" } }],
      "content_block_delta arrived before message_start",
    ],
    [
      [start, { type: "content_block_delta", index: 3, delta: { type: "text_delta", text: "x" } }],
      "content_block_delta for block 3, which was never started",
    ],
    [
      [
        start,
        {
          type: "content_block_start",
          index: 0,
          content_block: { type: "tool_use", id: "toolu_1", name: "a", input: {} },
        },
        { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "x" } },
      ],
      "a text_delta arrived for block 0, which is a tool-call block",
    ],
    [
      [start, { type: "content_block_start", index: -1, content_block: { type: "text", text: "" } }],
      "content_block_start has no valid block index: -1",
    ],
    [
      [start, { type: "content_block_start", index: 0, content_block: { type: "tool_use", name: "a" } }],
      "tool_use block 0 has no id",
    ],
    [
      [start, { type: "message_delta", delta: {}, usage: { output_tokens: "many" } }],
      'usage.output_tokens is not a token count: "many"',
    ],
    [["not an event"], 'a stream event is not an object with a "type": "not an event"'],
  ])("rejects a malformed stream (%#) with a clear ProviderError", (events, detail) => {
    const state = new AnthropicStreamState({ toolNames, providerName: "anthropic" });
    expect(() => {
      for (const event of events) state.push(event);
    }).toThrow(
      expect.objectContaining({
        code: "provider-response-invalid",
        provider: "anthropic",
        message: `Invalid Anthropic stream: ${detail}.`,
      }),
    );
  });

  it("refuses to finish a stream that never started", () => {
    const state = new AnthropicStreamState({ toolNames, providerName: "anthropic" });
    expect(() => state.finish()).toThrow(
      expect.objectContaining({
        code: "provider-stream-error",
        message: "The Anthropic stream ended without any message.",
      }),
    );
  });
});
