import { COMMON_TOOL_NAME_RULE, createToolNameMapping, ProviderError } from "@junction/types";
import { describe, expect, it } from "vitest";
import { mapOpenAIUsage } from "./map-openai-usage.js";
import { OpenAIStreamState } from "./openai-stream-state.js";

const mapper = () =>
  new OpenAIStreamState({
    toolNames: createToolNameMapping(["lookup"], COMMON_TOOL_NAME_RULE),
    requestId: "req_1",
  });

describe("OpenAIStreamState", () => {
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

  it("keeps a hosted tool search's items whole (the .done one) on empty reasoning parts, a call's namespace in its metadata, and leaves a client-executed search out with a warning", () => {
    const m = mapper();
    const call = {
      id: "tsc_1",
      type: "tool_search_call",
      status: "completed",
      arguments: { paths: ["crm"] },
      call_id: null,
      execution: "server",
    };
    const output = {
      id: "tso_1",
      type: "tool_search_output",
      status: "completed",
      call_id: null,
      execution: "server",
      tools: [],
    };
    const fn = {
      id: "fc_1",
      type: "function_call",
      call_id: "c1",
      name: "lookup",
      namespace: "crm",
      arguments: "{}",
    };
    expect(
      m.push({
        type: "response.output_item.added",
        output_index: 0,
        item: { ...call, status: "in_progress" },
      }),
    ).toEqual([]);
    expect(m.push({ type: "response.output_item.done", output_index: 0, item: call })).toEqual([]);
    expect(m.push({ type: "response.output_item.done", output_index: 1, item: output })).toEqual([]);
    const client = { ...call, id: "tsc_2", execution: "client" };
    expect(m.push({ type: "response.output_item.added", output_index: 2, item: client })).toEqual([
      {
        type: "warning",
        warning: {
          code: "output-item-unsupported",
          message:
            "OpenAI returned a client-executed tool_search_call item, which Junction does not run (it asks only for OpenAI's hosted search); it is left out of the turn.",
        },
      },
    ]);
    expect(m.push({ type: "response.output_item.done", output_index: 2, item: client })).toEqual([]);
    m.push({ type: "response.output_item.done", output_index: 3, item: fn });
    const [finish] = m.push({ type: "response.completed", response: { id: "resp_1", status: "completed" } });
    expect(finish).toMatchObject({
      type: "finish",
      content: [
        { type: "reasoning", text: "", providerMetadata: { openai: { toolSearchItem: call } } },
        { type: "reasoning", text: "", providerMetadata: { openai: { toolSearchItem: output } } },
        {
          type: "tool-call",
          id: "c1",
          name: "lookup",
          input: {},
          providerMetadata: { openai: { itemId: "fc_1", namespace: "crm" } },
        },
      ],
    });
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

  it("reads reasoning_text deltas and done events, and the item's final content, as reasoning", () => {
    const m = mapper();
    // No output_item.added: some compatible servers start with the deltas.
    expect(
      m.push({
        type: "response.reasoning_text.delta",
        output_index: 0,
        item_id: "rs_2",
        content_index: 0,
        delta: "Think",
      }),
    ).toEqual([{ type: "reasoning-delta", text: "Think" }]);
    // The done event carries the whole text: only what the deltas missed is streamed.
    expect(
      m.push({
        type: "response.reasoning_text.done",
        item_id: "rs_2",
        content_index: 0,
        text: "Think hard.",
      }),
    ).toEqual([{ type: "reasoning-delta", text: " hard." }]);
    expect(
      m.push({
        type: "response.reasoning_text.done",
        item_id: "rs_2",
        content_index: 0,
        text: "Think hard.",
      }),
    ).toEqual([]);
    // The item's content is final, even where it differs from what was streamed.
    m.push({
      type: "response.output_item.done",
      output_index: 0,
      item: {
        id: "rs_2",
        type: "reasoning",
        summary: [],
        content: [{ type: "reasoning_text", text: "Think harder." }],
      },
    });
    const [finish] = m.push({ type: "response.completed", response: { status: "completed" } });
    expect(finish).toMatchObject({
      content: [
        {
          type: "reasoning",
          text: "Think harder.",
          providerMetadata: { openai: { itemId: "rs_2", reasoningText: true } },
        },
      ],
    });
  });

  it("rejects reasoning_text events without a string delta or text", () => {
    const m = mapper();
    expect(() => m.push({ type: "response.reasoning_text.delta", output_index: 0, delta: null })).toThrow(
      'OpenAI sent response.reasoning_text.delta without a string "delta" (got null).',
    );
    expect(() => m.push({ type: "response.reasoning_text.done", output_index: 0 })).toThrow(
      'OpenAI sent response.reasoning_text.done without a string "text" (got undefined).',
    );
  });

  it("reports an mcp_approval_request once, keeps it in the turn, and rejects one without a server label", () => {
    const m = mapper();
    const item = {
      id: "mcpr_1",
      type: "mcp_approval_request",
      server_label: "docs",
      name: "search",
      arguments: '{"q":"x"}',
    };
    const added = m.push({ type: "response.output_item.added", output_index: 0, item });
    expect(added).toMatchObject([{ type: "warning", warning: { code: "mcp-approval-requested" } }]);
    expect(m.push({ type: "response.output_item.done", output_index: 0, item })).toEqual([]);
    const [finish] = m.push({ type: "response.completed", response: { status: "completed" } });
    expect(finish).toMatchObject({
      reason: "stop",
      content: [
        {
          type: "text",
          text: "",
          providerMetadata: {
            openai: {
              mcpApprovalRequest: {
                id: "mcpr_1",
                serverLabel: "docs",
                name: "search",
                arguments: '{"q":"x"}',
              },
            },
          },
        },
      ],
    });

    const other = mapper();
    expect(() =>
      other.push({
        type: "response.output_item.added",
        output_index: 0,
        item: { id: "mcpr_2", type: "mcp_approval_request", name: "search" },
      }),
    ).toThrow('OpenAI sent mcp_approval_request item without a string "server_label" (got undefined).');
  });

  it("throws a retryable stream error from finish() when the stream ended before response.completed", () => {
    const m = mapper();
    m.push({ type: "response.output_text.delta", output_index: 0, delta: "Hi" });
    expect(() => m.finish()).toThrow("The OpenAI stream ended before response.completed.");
    m.push({ type: "response.completed", response: { status: "completed" } });
    expect(m.finish()).toEqual([]);
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

describe("mapOpenAIUsage", () => {
  it("keeps absent counts absent and reads cache and reasoning details", () => {
    expect(mapOpenAIUsage({ input_tokens: 10, output_tokens: 5 })).toEqual({
      inputTokens: 10,
      outputTokens: 5,
      totalTokens: 15,
    });
    expect(
      mapOpenAIUsage({
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

describe("OpenAIStreamState and Programmatic Tool Calling", () => {
  const program = {
    id: "prog_1",
    type: "program",
    call_id: "call_prog_1",
    code: "text('hi')",
    fingerprint: "fp_1",
  };
  const call = {
    id: "fc_1",
    type: "function_call",
    call_id: "call_1",
    name: "lookup",
    arguments: "{}",
  };
  const completed = { type: "response.completed", response: { id: "resp_1", status: "completed" } };
  const contentOf = (events: ReturnType<OpenAIStreamState["push"]>) => {
    const finish = events.find((event) => event.type === "finish");
    return finish?.type === "finish" ? finish.content : [];
  };

  it("takes the caller from the final function_call item when its added event had none", () => {
    const m = mapper();
    m.push({ type: "response.output_item.added", output_index: 0, item: program });
    m.push({ type: "response.output_item.added", output_index: 1, item: { ...call, arguments: "" } });
    const caller = { type: "program", caller_id: "call_prog_1" };
    m.push({ type: "response.output_item.done", output_index: 1, item: { ...call, caller } });
    expect(contentOf(m.push(completed))).toEqual([
      { type: "reasoning", text: "", providerMetadata: { openai: { programItem: program } } },
      {
        type: "tool-call",
        id: "call_1",
        name: "lookup",
        input: {},
        program: { id: "call_prog_1", runtime: "programmatic_tool_calling", source: program.code },
        providerMetadata: { openai: { itemId: "fc_1", caller } },
      },
    ]);
  });

  it("keeps a program whose done event never came when its added event had it whole, and refuses one that was not", () => {
    const whole = mapper();
    whole.push({ type: "response.output_item.added", output_index: 0, item: program });
    expect(contentOf(whole.push(completed))).toEqual([
      { type: "reasoning", text: "", providerMetadata: { openai: { programItem: program } } },
    ]);
    const partial = mapper();
    partial.push({
      type: "response.output_item.added",
      output_index: 0,
      item: { id: "prog_1", type: "program", call_id: "call_prog_1", code: "" },
    });
    expect(() => partial.push(completed)).toThrow(
      'OpenAI sent a program item without a non-empty string "fingerprint".',
    );
    expect(() =>
      mapper().push({ type: "response.output_item.added", output_index: 0, item: { type: "program" } }),
    ).toThrow('OpenAI sent program item without a string "call_id" (got undefined).');
  });

  it("takes a caller naming a program of the conversation it was given", () => {
    const m = new OpenAIStreamState({
      toolNames: createToolNameMapping(["lookup"], COMMON_TOOL_NAME_RULE),
      programs: new Map([["call_prog_0", "await tools.lookup({ word: 'a' });"]]),
    });
    const caller = { type: "program", caller_id: "call_prog_0" };
    expect(
      m.push({ type: "response.output_item.done", output_index: 0, item: { ...call, caller } }),
    ).toContainEqual(
      expect.objectContaining({
        type: "tool-call",
        providerMetadata: { openai: { itemId: "fc_1", caller } },
      }),
    );
    expect(() =>
      mapper().push({ type: "response.output_item.done", output_index: 0, item: { ...call, caller } }),
    ).toThrow(ProviderError);
  });
});
