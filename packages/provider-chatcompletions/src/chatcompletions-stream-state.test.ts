import { COMMON_TOOL_NAME_RULE, createToolNameMapping, ProviderError } from "@junction/types";
import { describe, expect, it } from "vitest";
import { ChatCompletionsStreamState } from "./chatcompletions-stream-state.js";

const newState = () => {
  let n = 0;
  return new ChatCompletionsStreamState(
    "chatcompletions",
    createToolNameMapping(["t"], COMMON_TOOL_NAME_RULE),
    () => `call_made_${++n}`,
  );
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
          message:
            "The arguments of tool call call_made_1 (t) are not valid JSON; they are passed on as text.",
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

  it("reads refusals as text, the legacy function_call delta, and Groq's x_groq usage", () => {
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
      },
    ]);
  });
});
