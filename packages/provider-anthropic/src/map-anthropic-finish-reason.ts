import type { FinishReason } from "@junction/types";

/**
 * Maps Anthropic's `stop_reason` to Junction's neutral finish reason.
 *
 * - `end_turn`, `stop_sequence` → `stop`
 * - `max_tokens`, `model_context_window_exceeded` → `length`
 * - `tool_use` → `tool-calls`
 * - `refusal` → `content-filter`
 * - `pause_turn` (a server tool paused a long turn), anything newer or missing → `other`
 */
export function mapAnthropicFinishReason(stopReason: string | null | undefined): FinishReason {
  switch (stopReason) {
    case "end_turn":
    case "stop_sequence":
      return "stop";
    case "max_tokens":
    case "model_context_window_exceeded":
      return "length";
    case "tool_use":
      return "tool-calls";
    case "refusal":
      return "content-filter";
    default:
      return "other";
  }
}
