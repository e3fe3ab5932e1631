import { startWireFake, type WireFake } from "./index.js";

export interface ToolLoopOptions {
  /** The tool the fake asks for on every tool step. */
  toolName: string;
  /** Tool steps before the final text answer. */
  toolSteps: number;
  /** The arguments asked for on a step (0-based); streamed in two pieces. */
  toolArguments?: (step: number) => Record<string, unknown>;
  /** The final answer, given the tool results the conversation holds. */
  finalText?: (toolResults: string[]) => string;
}

/**
 * A local Chat Completions endpoint that asks for one tool call per step until the conversation
 * holds `toolSteps` tool results, then answers with text. Streams in the vendor's SSE framing.
 */
export async function startChatCompletionsToolLoop(options: ToolLoopOptions): Promise<WireFake> {
  const toolArguments = options.toolArguments ?? ((step: number) => ({ n: step }));
  const finalText = options.finalText ?? (() => "All done.");
  return startWireFake({
    fallback: (request) => {
      const messages = (request.body?.messages ?? []) as { role: string; content?: unknown }[];
      const results = messages
        .filter((message) => message.role === "tool")
        .map((message) => textOf(message.content));
      return {
        chunks:
          results.length < options.toolSteps
            ? toolCallChunks(options.toolName, results.length, JSON.stringify(toolArguments(results.length)))
            : textChunks(finalText(results)),
      };
    },
  });
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((part) => (part as { text?: string }).text ?? "").join("");
  return "";
}

const chunk = (choices: unknown[], extra: object = {}) =>
  `data: ${JSON.stringify({ id: "chatcmpl-fake", object: "chat.completion.chunk", created: 0, model: "fake", choices, ...extra })}\n\n`;

function toolCallChunks(name: string, step: number, args: string): string[] {
  const half = Math.floor(args.length / 2);
  return [
    chunk([
      {
        index: 0,
        delta: {
          role: "assistant",
          content: null,
          tool_calls: [{ index: 0, id: `call_${step}`, type: "function", function: { name, arguments: "" } }],
        },
        finish_reason: null,
      },
    ]),
    chunk([
      {
        index: 0,
        delta: { tool_calls: [{ index: 0, function: { arguments: args.slice(0, half) } }] },
        finish_reason: null,
      },
    ]),
    chunk([
      {
        index: 0,
        delta: { tool_calls: [{ index: 0, function: { arguments: args.slice(half) } }] },
        finish_reason: null,
      },
    ]),
    chunk([{ index: 0, delta: {}, finish_reason: "tool_calls" }]),
    chunk([], { usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } }),
    "data: [DONE]\n\n",
  ];
}

function textChunks(text: string): string[] {
  const half = Math.floor(text.length / 2);
  return [
    chunk([{ index: 0, delta: { role: "assistant", content: text.slice(0, half) }, finish_reason: null }]),
    chunk([{ index: 0, delta: { content: text.slice(half) }, finish_reason: null }]),
    chunk([{ index: 0, delta: {}, finish_reason: "stop" }]),
    chunk([], { usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 } }),
    "data: [DONE]\n\n",
  ];
}
