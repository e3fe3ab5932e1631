import type { FinishReason } from "@junction/types";

/**
 * Maps a Chat Completions `finish_reason` to Junction's neutral reason.
 *
 * Servers disagree on how they end a turn with tool calls: OpenAI and vLLM say
 * `tool_calls`, some llama.cpp and Ollama versions say `stop`. A turn that carried tool
 * calls therefore always ends as `tool-calls`, whatever word the server used.
 */
export function mapChatCompletionsFinishReason(
  finishReason: string | null | undefined,
  hasToolCalls: boolean,
): FinishReason {
  if (hasToolCalls && (finishReason === "stop" || finishReason == null)) return "tool-calls";
  switch (finishReason) {
    case "stop":
    case "eos":
      return "stop";
    case "length":
      return "length";
    case "tool_calls":
    case "function_call":
      return "tool-calls";
    case "content_filter":
      return "content-filter";
    case "error":
      return "error";
    default:
      return "other";
  }
}
