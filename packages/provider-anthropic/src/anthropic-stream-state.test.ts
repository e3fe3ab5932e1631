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
  out.push(...state.finish());
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
            /^Anthropic sent arguments for tool call toolu_1 \(run\) that are not a JSON object: not valid JSON /,
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

describe("AnthropicStreamState, whole blocks in message_start", () => {
  it("reads text and tool calls a message_start carries, its stop_reason, and blocks streamed after them", () => {
    const events = run([
      {
        type: "message_start",
        message: {
          id: "msg_whole",
          content: [
            { type: "text", text: "Looking it up." },
            { type: "tool_use", id: "toolu_a", name: "lookup", input: { id: "c_1" } },
          ],
          stop_reason: "tool_use",
          usage: { input_tokens: 4, output_tokens: 9 },
        },
      },
      {
        type: "content_block_start",
        index: 2,
        content_block: { type: "tool_use", id: "toolu_b", name: "lookup", input: {} },
      },
      {
        type: "content_block_delta",
        index: 2,
        delta: { type: "input_json_delta", partial_json: '{"id":"c_2"}' },
      },
      { type: "content_block_stop", index: 2 },
      { type: "message_delta", delta: { stop_reason: null }, usage: { output_tokens: 12 } },
      { type: "message_stop" },
    ]);
    expect(events).toEqual([
      { type: "text-delta", text: "Looking it up." },
      { type: "tool-call-start", id: "toolu_a", name: "lookup" },
      { type: "tool-call", id: "toolu_a", name: "lookup", input: { id: "c_1" } },
      { type: "tool-call-start", id: "toolu_b", name: "lookup" },
      { type: "tool-call-delta", id: "toolu_b", argumentsDelta: '{"id":"c_2"}' },
      { type: "tool-call", id: "toolu_b", name: "lookup", input: { id: "c_2" } },
      {
        type: "finish",
        reason: "tool-calls",
        rawReason: "tool_use",
        responseId: "msg_whole",
        usage: { inputTokens: 4, outputTokens: 12, totalTokens: 16 },
        content: [
          { type: "text", text: "Looking it up." },
          { type: "tool-call", id: "toolu_a", name: "lookup", input: { id: "c_1" } },
          { type: "tool-call", id: "toolu_b", name: "lookup", input: { id: "c_2" } },
        ],
      },
    ]);
  });

  it("does not repeat blocks when a proxy sends message_start twice", () => {
    const message = {
      id: "msg_dup",
      content: [{ type: "tool_use", id: "toolu_a", name: "lookup", input: {} }],
      usage: { input_tokens: 17, output_tokens: 1 },
    };
    const events = run([
      { type: "message_start", message },
      { type: "message_start", message },
      { type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 3 } },
      { type: "message_stop" },
    ]);
    expect(events.filter((event) => event.type === "tool-call")).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ content: [{ type: "tool-call", id: "toolu_a", input: {} }] });
  });

  it("rejects a streamed block at an index message_start already filled", () => {
    const state = new AnthropicStreamState({ toolNames, providerName: "anthropic" });
    state.push({ type: "message_start", message: { id: "m", content: [{ type: "text", text: "a" }] } });
    expect(() =>
      state.push({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
    ).toThrow("Invalid Anthropic stream: content_block_start for block 0, which exists.");
  });
});

describe("AnthropicStreamState, compaction", () => {
  it("keeps a compaction block whole, with the value its compaction_delta and signature_delta give", () => {
    const events = run([
      start,
      { type: "content_block_start", index: 0, content_block: { type: "compaction", content: null } },
      {
        type: "content_block_delta",
        index: 0,
        delta: { type: "compaction_delta", content: "Summary.", encrypted_content: "enc_1" },
      },
      { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "sig_1" } },
      { type: "content_block_stop", index: 0 },
      ...stop,
    ]);
    expect(events).toEqual([
      expect.objectContaining({
        type: "finish",
        content: [
          {
            type: "reasoning",
            text: "",
            providerMetadata: {
              anthropic: {
                compaction: {
                  type: "compaction",
                  content: "Summary.",
                  encrypted_content: "enc_1",
                  signature: "sig_1",
                },
              },
            },
          },
        ],
      }),
    ]);
  });
});

describe("AnthropicStreamState, code execution (programmatic tool calling)", () => {
  it("keeps code execution's bash call and result whole, and gives the container only to the code's calls", () => {
    const caller = { type: "code_execution_20250825", tool_id: "srvtoolu_bash" };
    const bash = { type: "server_tool_use", id: "srvtoolu_bash", name: "bash_code_execution", input: {} };
    const bashResult = {
      type: "bash_code_execution_tool_result",
      tool_use_id: "srvtoolu_bash",
      content: { type: "bash_code_execution_result", stdout: "ok", stderr: "", return_code: 0, content: [] },
    };
    const events = run([
      start,
      { type: "content_block_start", index: 0, content_block: bash },
      {
        type: "content_block_delta",
        index: 0,
        delta: { type: "input_json_delta", partial_json: '{"command":"ls"}' },
      },
      { type: "content_block_stop", index: 0 },
      { type: "content_block_start", index: 1, content_block: bashResult },
      { type: "content_block_stop", index: 1 },
      {
        type: "content_block_start",
        index: 2,
        content_block: { type: "tool_use", id: "toolu_direct", name: "lookup", input: { q: "a" } },
      },
      { type: "content_block_stop", index: 2 },
      {
        type: "content_block_start",
        index: 3,
        content_block: { type: "tool_use", id: "toolu_code", name: "lookup", input: { q: "b" }, caller },
      },
      { type: "content_block_stop", index: 3 },
      {
        type: "message_delta",
        delta: {
          stop_reason: "tool_use",
          container: { id: "container_1", expires_at: "2026-12-02T10:00:00Z" },
        },
        usage: { output_tokens: 20 },
      },
      { type: "message_stop" },
    ]);
    expect(events.filter((event) => event.type === "warning")).toEqual([]);
    expect(events.at(-1)).toMatchObject({
      type: "finish",
      content: [
        {
          type: "reasoning",
          text: "",
          providerMetadata: { anthropic: { serverBlock: { ...bash, input: { command: "ls" } } } },
        },
        { type: "reasoning", text: "", providerMetadata: { anthropic: { serverBlock: bashResult } } },
        { type: "tool-call", id: "toolu_direct", name: "lookup", input: { q: "a" } },
        {
          type: "tool-call",
          id: "toolu_code",
          providerMetadata: {
            anthropic: { caller, container: { id: "container_1", expires_at: "2026-12-02T10:00:00Z" } },
          },
        },
      ],
    });
    const finish = events.at(-1) as Extract<ModelStreamEvent, { type: "finish" }>;
    expect(finish.content[2]).not.toHaveProperty("providerMetadata");
  });

  it("rejects a container without an id", () => {
    const state = new AnthropicStreamState({ toolNames, providerName: "anthropic" });
    expect(() =>
      state.push({ type: "message_start", message: { id: "m", container: { expires_at: "x" } } }),
    ).toThrow('Invalid Anthropic stream: container is not an object with an id: {"expires_at":"x"}.');
  });
});
