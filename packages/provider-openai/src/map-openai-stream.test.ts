import { COMMON_TOOL_NAME_RULE, createToolNameMapping, ProviderError } from "@junction/types";
import { describe, expect, it } from "vitest";
import { mapUsage, OpenAIStreamMapper } from "./map-openai-stream.js";

const mapper = () =>
  new OpenAIStreamMapper({
    toolNames: createToolNameMapping(["lookup"], COMMON_TOOL_NAME_RULE),
    providerName: "openai",
    requestId: "req_1",
  });

describe("OpenAIStreamMapper", () => {
  it("emits a call whose arguments arrive only in output_item.done, with start, one delta and the call", () => {
    const m = mapper();
    const item = {
      id: "fc_9",
      type: "function_call",
      call_id: "call_9",
      name: "lookup",
      arguments: '{"q":"x"}',
    };
    expect(m.push({ type: "response.output_item.done", output_index: 0, item })).toEqual([
      { type: "tool-call-start", id: "call_9", name: "lookup" },
      { type: "tool-call-delta", id: "call_9", argumentsDelta: '{"q":"x"}' },
      {
        type: "tool-call",
        id: "call_9",
        name: "lookup",
        input: { q: "x" },
        providerMetadata: { openai: { itemId: "fc_9" } },
      },
    ]);
  });

  it("reports output items it does not carry, and keeps them out of the turn", () => {
    const m = mapper();
    expect(
      m.push({
        type: "response.output_item.added",
        output_index: 0,
        item: { id: "ws_1", type: "web_search_call" },
      }),
    ).toEqual([
      {
        type: "warning",
        warning: {
          code: "output-item-unsupported",
          message:
            'OpenAI returned an output item of type "web_search_call", which Junction does not carry; it is left out of the turn.',
        },
      },
    ]);
    const [finish] = m.push({
      type: "response.completed",
      response: {
        id: "resp_1",
        status: "completed",
        usage: { input_tokens: 3, output_tokens: 1, total_tokens: 4 },
      },
    });
    expect(finish).toEqual({
      type: "finish",
      reason: "stop",
      rawReason: "completed",
      usage: { inputTokens: 3, outputTokens: 1, totalTokens: 4 },
      content: [],
      responseId: "resp_1",
    });
    expect(m.push({ type: "response.output_text.delta", output_index: 1, delta: "late" })).toEqual([]);
  });

  it("separates reasoning summary parts and keeps one reasoning part per summary", () => {
    const m = mapper();
    m.push({
      type: "response.output_item.added",
      output_index: 0,
      item: { id: "rs_1", type: "reasoning", summary: [] },
    });
    const deltas = [
      ...m.push({
        type: "response.reasoning_summary_text.delta",
        output_index: 0,
        summary_index: 0,
        delta: "One.",
      }),
      ...m.push({
        type: "response.reasoning_summary_text.delta",
        output_index: 0,
        summary_index: 1,
        delta: "Two.",
      }),
    ];
    expect(deltas).toEqual([
      { type: "reasoning-delta", text: "One." },
      { type: "reasoning-delta", text: "\n\n" },
      { type: "reasoning-delta", text: "Two." },
    ]);
    const [finish] = m.push({ type: "response.completed", response: { status: "completed" } });
    expect(finish).toMatchObject({
      content: [
        { type: "reasoning", text: "One.", providerMetadata: { openai: { itemId: "rs_1" } } },
        { type: "reasoning", text: "Two.", providerMetadata: { openai: { itemId: "rs_1" } } },
      ],
      usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    });
  });

  it("throws clear errors for events it cannot read", () => {
    const m = mapper();
    const attempt = (event: unknown) => {
      try {
        m.push(event);
      } catch (error) {
        return error;
      }
      return undefined;
    };
    const noType = attempt({ delta: "x" });
    expect(ProviderError.isInstance(noType)).toBe(true);
    expect(noType).toMatchObject({
      code: "provider-response-invalid",
      requestId: "req_1",
      message: 'OpenAI sent a stream event without a type: {"delta":"x"}.',
    });
    expect(attempt({ type: "response.output_text.delta", output_index: 0, delta: 42 })).toMatchObject({
      message: 'OpenAI sent response.output_text.delta without a string "delta" (got 42).',
    });
    expect(
      attempt({ type: "response.function_call_arguments.delta", output_index: 3, delta: "{" }),
    ).toMatchObject({
      message:
        "OpenAI sent response.function_call_arguments.delta for output 3, which no function_call item announced.",
    });
  });
});

describe("mapUsage", () => {
  it("keeps absent counts absent and reads cache and reasoning details", () => {
    expect(mapUsage({ input_tokens: 10, output_tokens: 5 })).toEqual({
      inputTokens: 10,
      outputTokens: 5,
      totalTokens: 15,
    });
    expect(
      mapUsage({
        input_tokens: 100,
        output_tokens: 50,
        total_tokens: 150,
        input_tokens_details: { cached_tokens: 80, cache_write_tokens: 20 },
        output_tokens_details: { reasoning_tokens: 30 },
      }),
    ).toEqual({
      inputTokens: 100,
      outputTokens: 50,
      totalTokens: 150,
      cachedInputTokens: 80,
      cacheWriteInputTokens: 20,
      reasoningTokens: 30,
    });
  });
});
