import type { FinishReason } from "@junction/types";

/**
 * Maps the Converse API's `stopReason` to Junction's neutral finish reason.
 *
 * - `end_turn`, `stop_sequence` → `stop`
 * - `max_tokens`, `model_context_window_exceeded` → `length`
 * - `tool_use` → `tool-calls`
 * - `guardrail_intervened`, `content_filtered` → `content-filter`
 * - `malformed_model_output`, `malformed_tool_use` → `error`
 * - anything newer or missing → `other`
 */
export function mapBedrockFinishReason(stopReason: string | undefined): FinishReason {
  switch (stopReason) {
    case "end_turn":
    case "stop_sequence":
      return "stop";
    case "max_tokens":
    case "model_context_window_exceeded":
      return "length";
    case "tool_use":
      return "tool-calls";
    case "guardrail_intervened":
    case "content_filtered":
      return "content-filter";
    case "malformed_model_output":
    case "malformed_tool_use":
      return "error";
    default:
      return "other";
  }
}
