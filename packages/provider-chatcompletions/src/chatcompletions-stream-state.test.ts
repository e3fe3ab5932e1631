import { COMMON_TOOL_NAME_RULE, createToolNameMapping, ProviderError } from "@junction/types";
import { describe, expect, it, vi } from "vitest";
import { ChatCompletionsStreamState } from "./chatcompletions-stream-state.js";

const newState = () => {
  let n = 0;
  return new ChatCompletionsStreamState({
    providerName: "chatcompletions",
    toolNames: createToolNameMapping(["t"], COMMON_TOOL_NAME_RULE),
    generateId: () => `call_made_${++n}`,
  });
};
const chunk = (delta: object, finish: string | null = null) => ({
  choices: [{ index: 0, delta, finish_reason: finish }],
});

describe("ChatCompletionsStreamState", () => {
  it("passes arguments that are not valid JSON on as text, with a warning", () => {
    const state = newState();
    const events = [
      ...state.push(chunk({ tool_calls: [{ index: 0, function: { name: "t", arguments: "{'a': 1}" } }] })),
      ...state.push(chunk({}, "tool_calls")),
    ];
    expect(events).toEqual([
      { type: "tool-call-start", id: "call_made_1", name: "t" },
      { type: "tool-call-delta", id: "call_made_1", argumentsDelta: "{'a': 1}" },
      {
        type: "warning",
        warning: {
          code: "tool-call-arguments-invalid",
          message: expect.stringMatching(
            /^Chat Completions sent arguments for tool call call_made_1 \(t\) that are not a JSON object: not valid JSON \(.+\)$/,
          ),
        },
      },
      { type: "tool-call", id: "call_made_1", name: "t", input: "{'a': 1}" },
    ]);
  });

  it("treats empty arguments as an empty object and warns about arguments after completion", () => {
    const state = newState();
    const first = state.push(
      chunk({ tool_calls: [{ index: 0, id: "c1", function: { name: "t", arguments: "" } }] }),
    );
    const done = state.push(chunk({}, "tool_calls"));
    const late = state.push(chunk({ tool_calls: [{ index: 0, function: { arguments: "{}" } }] }));
    expect(first).toEqual([{ type: "tool-call-start", id: "c1", name: "t" }]);
    expect(done).toEqual([{ type: "tool-call", id: "c1", name: "t", input: {} }]);
    expect(late).toEqual([
      {
        type: "warning",
        warning: {
          code: "tool-call-arguments-after-complete",
          message:
            "More arguments arrived for tool call c1 after its arguments were already complete; they were ignored.",
        },
      },
    ]);
  });

  it("holds argument text that arrives before the name until the call can start", () => {
    const state = newState();
    const early = state.push(
      chunk({ tool_calls: [{ index: 0, id: "c1", function: { arguments: '{"x"' } }] }),
    );
    const named = state.push(
      chunk({ tool_calls: [{ index: 0, function: { name: "t", arguments: ":1}" } }] }),
    );
    expect(early).toEqual([]);
    expect(named).toEqual([
      { type: "tool-call-start", id: "c1", name: "t" },
      { type: "tool-call-delta", id: "c1", argumentsDelta: '{"x"' },
      { type: "tool-call-delta", id: "c1", argumentsDelta: ":1}" },
      { type: "tool-call", id: "c1", name: "t", input: { x: 1 } },
    ]);
  });

  it("parses a call's arguments streamed a character at a time only where they may end, and completes them", () => {
    const state = newState();
    const text = JSON.stringify({ path: "notes/a.md", content: "x".repeat(2_000), lines: [1, 2, 3] });
    state.push(chunk({ tool_calls: [{ index: 0, id: "c1", function: { name: "t", arguments: "" } }] }));
    const parse = vi.spyOn(JSON, "parse");
    const events = [...text].flatMap((character) =>
      state.push(chunk({ tool_calls: [{ index: 0, function: { arguments: character } }] })),
    );
    const attempts = parse.mock.calls.length;
    parse.mockRestore();
    // One attempt per "}" the text holds (only its last closes the object), not one per piece.
    expect(attempts).toBe([...text].filter((character) => character === "}").length);
    expect(events.at(-1)).toEqual({ type: "tool-call", id: "c1", name: "t", input: JSON.parse(text) });
  });

  it("fails clearly on a call that never got a name, and on chunks that are not objects", () => {
    const state = newState();
    state.push(chunk({ tool_calls: [{ index: 0, id: "c1", function: { arguments: "{}" } }] }));
    expect(() => state.finish()).toThrowError(
      "The chatcompletions server sent an invalid stream: tool call c1 ended without a function name.",
    );
    expect(() => newState().push("garbage")).toThrowError(ProviderError);
    expect(() => newState().push(chunk({ content: 42 }))).toThrowError(
      'The chatcompletions server sent an invalid stream: "delta.content" is a number (42).',
    );
  });

  it("ignores choices other than the first", () => {
    const state = newState();
    expect(state.push({ choices: [{ index: 1, delta: { content: "other" } }] })).toEqual([]);
    expect(state.push({ choices: [{ index: 0, delta: { content: "mine" } }] })).toEqual([
      { type: "text-delta", text: "mine" },
    ]);
  });

  it("reads refusals as text and also as the finish's refusal (for a structured answer), the legacy function_call delta, and Groq's x_groq usage", () => {
    const state = newState();
    const events = [
      ...state.push(chunk({ refusal: "I can't help with that." })),
      ...state.push(chunk({ function_call: { name: "t", arguments: '{"q":' } })),
      ...state.push(chunk({ function_call: { arguments: "1}" } }, "function_call")),
      ...state.push({
        choices: [],
        x_groq: { id: "req_g", usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 } },
      }),
      ...state.finish(),
    ];
    expect(events).toEqual([
      { type: "text-delta", text: "I can't help with that." },
      { type: "tool-call-start", id: "call_made_1", name: "t" },
      { type: "tool-call-delta", id: "call_made_1", argumentsDelta: '{"q":' },
      { type: "tool-call-delta", id: "call_made_1", argumentsDelta: "1}" },
      { type: "tool-call", id: "call_made_1", name: "t", input: { q: 1 } },
      {
        type: "finish",
        reason: "tool-calls",
        rawReason: "function_call",
        usage: { inputTokens: 5, outputTokens: 3, totalTokens: 8 },
        content: [
          { type: "text", text: "I can't help with that." },
          { type: "tool-call", id: "call_made_1", name: "t", input: { q: 1 } },
        ],
        refusal: "I can't help with that.",
      },
    ]);
  });
});

describe("ChatCompletionsStreamState usage", () => {
  const usageOf = (usage: object) => {
    const state = newState();
    state.push(chunk({ content: "Hi" }, "stop"));
    state.push({ choices: [], usage });
    return state.finish().at(-1);
  };

  it("counts xAI's reasoning, which it leaves out of completion_tokens, in outputTokens", () => {
    // The usage object of xAI's documented chat completion with a reasoning model (grok-3-mini):
    // total_tokens = prompt + completion + reasoning.
    expect(
      usageOf({
        prompt_tokens: 32,
        completion_tokens: 9,
        total_tokens: 135,
        prompt_tokens_details: { text_tokens: 32, audio_tokens: 0, image_tokens: 0, cached_tokens: 6 },
        completion_tokens_details: {
          reasoning_tokens: 94,
          audio_tokens: 0,
          accepted_prediction_tokens: 0,
          rejected_prediction_tokens: 0,
        },
        num_sources_used: 0,
      }),
    ).toMatchObject({
      usage: {
        inputTokens: 32,
        outputTokens: 103,
        totalTokens: 135,
        cachedInputTokens: 6,
        reasoningTokens: 94,
      },
    });
  });

  it("leaves OpenAI's usage, whose completion_tokens already include reasoning, as it is", () => {
    expect(
      usageOf({
        prompt_tokens: 20,
        completion_tokens: 150,
        total_tokens: 170,
        completion_tokens_details: { reasoning_tokens: 128 },
      }),
    ).toMatchObject({
      usage: { inputTokens: 20, outputTokens: 150, totalTokens: 170, reasoningTokens: 128 },
    });
  });

  it("never reports a total below input + output", () => {
    expect(
      usageOf({
        prompt_tokens: 10,
        completion_tokens: 2,
        total_tokens: 12,
        completion_tokens_details: { reasoning_tokens: 5 },
      }),
    ).toMatchObject({ usage: { inputTokens: 10, outputTokens: 7, totalTokens: 17, reasoningTokens: 5 } });
  });
});
