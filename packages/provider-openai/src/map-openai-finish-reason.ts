import type { FinishReason } from "@junction/types";

/**
 * Maps how a Responses API response ended to Junction's neutral finish reason.
 *
 * `status` is the response's own status (`completed`, `incomplete`, …); `incompleteReason`
 * is `incomplete_details.reason` (`max_output_tokens`, `content_filter`). The Responses API has
 * no "tool calls" status: a completed response that holds function calls ends in `tool-calls`.
 */
export function mapOpenAIFinishReason(options: {
  status: string | undefined;
  incompleteReason?: string | null;
  hasToolCalls: boolean;
}): FinishReason {
  switch (options.status) {
    case "completed":
      return options.hasToolCalls ? "tool-calls" : "stop";
    case "incomplete":
      switch (options.incompleteReason) {
        case "max_output_tokens":
          return "length";
        case "content_filter":
          return "content-filter";
        default:
          return "other";
      }
    case "failed":
      return "error";
    default:
      return "other";
  }
}
