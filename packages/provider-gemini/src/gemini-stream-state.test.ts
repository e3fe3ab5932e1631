import type { ModelStreamEvent } from "@junction/types";
import { describe, expect, it } from "vitest";
import { GeminiStreamState } from "./gemini-stream-state.js";
import { createGeminiToolNameMapping } from "./prepare-gemini-tools.js";

// Chunks in the documented `GenerateContentResponse` shape: candidates[0].content.parts[] with
// whole `functionCall { id?, name, args }` parts, `finishReason` on the last chunk.

function newState(options: { uuid?: () => string } = {}) {
  const state: GeminiStreamState = new GeminiStreamState({
    providerName: "gemini",
    toolNames: createGeminiToolNameMapping(["get_weather", "dim_lights", "9lives"]),
    generateId: (index) =>
      state.responseId ? `${state.responseId}-${index}` : `gemini-${options.uuid?.() ?? "x"}`,
  });
  return state;
}

const chunk = (parts: unknown[], extra: Record<string, unknown> = {}) => ({
  candidates: [{ content: { parts, role: "model" }, index: 0, ...extra }],
  responseId: "resp-7",
});

const call = (id: string, name: string, input: unknown) => [
  { type: "tool-call-start", id, name },
  { type: "tool-call-delta", id, argumentsDelta: JSON.stringify(input) },
  {
    type: "tool-call",
    id,
    name,
    input,
    ...(id.startsWith("resp-7-") ? { providerMetadata: { gemini: { generatedId: true } } } : {}),
  },
];

describe("GeminiStreamState with parallel function calls", () => {
  it("gives several calls in one chunk distinct ids, keeps their arguments and order, and ends in tool-calls", () => {
    const state = newState();
    const events = state.push(
      chunk(
        [
          { functionCall: { name: "get_weather", args: { location: "Paris" } } },
          { functionCall: { name: "get_weather", args: { location: "Tokyo", unit: "celsius" } } },
          { functionCall: { name: "_9lives", args: { nested: { list: [1, 2, { deep: null }] } } } },
        ],
        { finishReason: "STOP" },
      ),
    );
    expect(events).toEqual([
      ...call("resp-7-0", "get_weather", { location: "Paris" }),
      ...call("resp-7-1", "get_weather", { location: "Tokyo", unit: "celsius" }),
      ...call("resp-7-2", "9lives", { nested: { list: [1, 2, { deep: null }] } }),
    ]);
    const [finish] = state.finish();
    expect(finish).toMatchObject({ type: "finish", reason: "tool-calls", rawReason: "STOP" });
    // The turn holds the calls exactly as they were streamed.
    expect(finish?.type === "finish" && finish.content).toEqual(
      events.filter((event) => event.type === "tool-call"),
    );
  });

  it("keeps calls spread over chunks, between text, in the order they came", () => {
    const state = newState();
    const events: ModelStreamEvent[] = [
      ...state.push(chunk([{ text: "Checking." }])),
      ...state.push(chunk([{ functionCall: { id: "a", name: "get_weather", args: { location: "Oslo" } } }])),
      ...state.push(chunk([{ text: " Also the lights." }])),
      ...state.push(chunk([{ functionCall: { id: "b", name: "dim_lights", args: {} } }])),
      ...state.push(
        chunk([{ functionCall: { id: "c", name: "get_weather", args: { location: "Rome" } } }], {
          finishReason: "STOP",
        }),
      ),
    ];
    expect(events).toEqual([
      { type: "text-delta", text: "Checking." },
      ...call("a", "get_weather", { location: "Oslo" }),
      { type: "text-delta", text: " Also the lights." },
      ...call("b", "dim_lights", {}),
      ...call("c", "get_weather", { location: "Rome" }),
    ]);
    expect(state.finish()).toEqual([
      {
        type: "finish",
        reason: "tool-calls",
        rawReason: "STOP",
        usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
        content: [
          { type: "text", text: "Checking." },
          { type: "tool-call", id: "a", name: "get_weather", input: { location: "Oslo" } },
          // Text after a call is a part of its own, so the turn echoes in the order it came.
          { type: "text", text: " Also the lights." },
          { type: "tool-call", id: "b", name: "dim_lights", input: {} },
          { type: "tool-call", id: "c", name: "get_weather", input: { location: "Rome" } },
        ],
        responseId: "resp-7",
      },
    ]);
  });

  it("replaces a call id Gemini repeats, with a warning, so each call keeps its own result", () => {
    const state = newState();
    const events = state.push(
      chunk([
        { functionCall: { id: "same", name: "get_weather", args: { location: "Paris" } } },
        { functionCall: { id: "same", name: "get_weather", args: { location: "Lima" } } },
      ]),
    );
    expect(events).toEqual([
      ...call("same", "get_weather", { location: "Paris" }),
      {
        type: "warning",
        warning: {
          code: "tool-call-id-repeated",
          message:
            'Gemini sent the call id "same" for more than one call; the later call to "get_weather" got an id of its own, and its result is matched to it by name and order.',
        },
      },
      ...call("resp-7-1", "get_weather", { location: "Lima" }),
    ]);
  });

  it("never hands out a made-up id twice, even when it matches one Gemini sent", () => {
    const state = newState();
    const ids = [
      ...state.push(
        chunk([
          { functionCall: { id: "resp-7-1", name: "dim_lights", args: {} } },
          { functionCall: { name: "dim_lights", args: {} } },
        ]),
      ),
    ]
      .filter((event) => event.type === "tool-call")
      .map((event) => (event.type === "tool-call" ? event.id : ""));
    expect(ids).toEqual(["resp-7-1", "resp-7-1-2"]);
  });

  it("makes distinct ids when the chunks carry no response id", () => {
    let n = 0;
    const state = newState({ uuid: () => `u${++n}` });
    const events = state.push({
      candidates: [
        {
          content: {
            parts: [
              { functionCall: { name: "dim_lights", args: { brightness: 1 } } },
              { functionCall: { name: "dim_lights", args: { brightness: 0 } } },
            ],
          },
        },
      ],
    });
    expect(events.filter((event) => event.type === "tool-call")).toMatchObject([
      { id: "gemini-u1", input: { brightness: 1 } },
      { id: "gemini-u2", input: { brightness: 0 } },
    ]);
  });
});
