import type { Message, ModelRequest, ToolDefinition } from "@junction/types";
import type { ScriptedToolCall, ScriptedTurn } from "./vendor-adapter.ts";

/** A 1×1 PNG, base64. */
export const png =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

const objectSchema = (properties: Record<string, unknown>, required: string[]) => ({
  type: "object",
  properties,
  required,
  additionalProperties: false,
});

/** A tool whose name breaks every vendor's name rule (a dot and a space), so it must be mapped and mapped back. */
export const forecastTool: ToolDefinition = {
  name: "weather.get forecast",
  description: "Get the weather forecast for a city.",
  inputSchema: objectSchema({ city: { type: "string" }, days: { type: "integer" } }, ["city", "days"]),
};

export const weatherTool: ToolDefinition = {
  name: "get_weather",
  description: "Get the current weather in a city.",
  inputSchema: objectSchema({ city: { type: "string" } }, ["city"]),
};

export const timeTool: ToolDefinition = {
  name: "get_time",
  description: "Get the local time in a time zone.",
  inputSchema: objectSchema({ zone: { type: "string" } }, ["zone"]),
};

export const radarTool: ToolDefinition = {
  name: "get_radar",
  description: "Get the rain radar image for a city.",
  inputSchema: objectSchema({ city: { type: "string" } }, ["city"]),
};

/** A plain request: one user message, no tools. */
export function userRequest(model: string, text = "Say hello."): ModelRequest {
  return { model, maxTokens: 256, messages: [{ role: "user", content: text }] };
}

const call = (
  { id, name, input }: { id: string; name: string; input: Record<string, unknown> },
  pieces: string[],
): ScriptedToolCall => {
  if (pieces.join("") !== JSON.stringify(input)) {
    throw new TypeError(`scenario: the argument pieces of ${id} do not join to its input`);
  }
  return { id, name, input, argumentPieces: pieces };
};

export const textTurn: ScriptedTurn = {
  responseId: "resp_contract_text",
  text: ["Hello", " from", " the fake."],
  finish: "stop",
  usage: { inputTokens: 12, outputTokens: 6 },
};

export const reasoningTurn: ScriptedTurn = {
  responseId: "resp_contract_reasoning",
  reasoning: ["The user wants", " the answer."],
  text: ["Forty-two."],
  finish: "stop",
  usage: { inputTokens: 20, outputTokens: 30, reasoningTokens: 18 },
};

export const toolCallTurn: ScriptedTurn = {
  responseId: "resp_contract_tool",
  toolCalls: [
    call({ id: "call_forecast_1", name: forecastTool.name, input: { city: "Paris", days: 2 } }, [
      '{"city":',
      '"Paris",',
      '"days":2}',
    ]),
  ],
  finish: "tool-calls",
  usage: { inputTokens: 40, outputTokens: 15 },
};

export const parallelTurn: ScriptedTurn = {
  responseId: "resp_contract_parallel",
  toolCalls: [
    call({ id: "call_paris", name: weatherTool.name, input: { city: "Paris" } }, ['{"city":', '"Paris"}']),
    call({ id: "call_oslo", name: timeTool.name, input: { zone: "Europe/Oslo" } }, [
      '{"zone":"Europe',
      '/Oslo"}',
    ]),
  ],
  finish: "tool-calls",
  usage: { inputTokens: 55, outputTokens: 24 },
};

export const usageTurn: ScriptedTurn = {
  responseId: "resp_contract_usage",
  text: ["Counted."],
  finish: "stop",
  usage: { inputTokens: 31, outputTokens: 57, reasoningTokens: 20 },
};

/**
 * Usage where reasoning is most of the output (45 of 57 tokens): a server that leaves reasoning out
 * of its output count then reports fewer output tokens (12) than reasoning tokens.
 */
export const reasoningHeavyUsageTurn: ScriptedTurn = {
  responseId: "resp_contract_usage_reasoning",
  text: ["Counted."],
  finish: "stop",
  usage: { inputTokens: 31, outputTokens: 57, reasoningTokens: 45 },
};

export const lengthTurn: ScriptedTurn = {
  responseId: "resp_contract_length",
  text: ["Once upon", " a"],
  finish: "length",
  usage: { inputTokens: 9, outputTokens: 3 },
};

/** The turn the held stream starts (and never ends): its first text piece is the marker. */
export const heldTurn: ScriptedTurn = {
  responseId: "resp_contract_held",
  text: ["Hello", " and then nothing"],
  finish: "stop",
  usage: { inputTokens: 5, outputTokens: 5 },
};

/** A conversation whose last message is a tool result carrying text and an image. */
export function toolResultImageRequest(model: string): ModelRequest {
  const messages: Message[] = [
    { role: "user", content: "Show me the rain radar for Paris." },
    {
      role: "assistant",
      content: [{ type: "tool-call", id: "call_radar_1", name: radarTool.name, input: { city: "Paris" } }],
    },
    {
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "call_radar_1",
          toolName: radarTool.name,
          output: {
            content: [
              { type: "text", text: "Radar:" },
              { type: "image", data: png, mimeType: "image/png" },
            ],
            isError: false,
          },
        },
      ],
    },
  ];
  return { model, maxTokens: 256, tools: [radarTool], messages };
}
