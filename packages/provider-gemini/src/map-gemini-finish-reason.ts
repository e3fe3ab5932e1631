import type { FinishReason } from "@junction/types";

/**
 * Maps Gemini's `finishReason` (or a prompt's `blockReason`) to Junction's neutral set.
 * Gemini says `STOP` after function calls too, so a `STOP` with calls is `tool-calls`.
 *
 * @param rawReason - The vendor's reason as sent; unknown values map to `other`.
 * @param hasToolCalls - Whether the turn contained function calls.
 */
export function mapGeminiFinishReason(rawReason: string | undefined, hasToolCalls: boolean): FinishReason {
  switch (rawReason) {
    case "STOP":
      return hasToolCalls ? "tool-calls" : "stop";
    case "MAX_TOKENS":
      return "length";
    case "SAFETY":
    case "RECITATION":
    case "BLOCKLIST":
    case "PROHIBITED_CONTENT":
    case "SPII":
    case "IMAGE_SAFETY":
    case "IMAGE_PROHIBITED_CONTENT":
    case "IMAGE_RECITATION":
      return "content-filter";
    case "MALFORMED_FUNCTION_CALL":
    case "UNEXPECTED_TOOL_CALL":
    case "TOO_MANY_TOOL_CALLS":
    case "MALFORMED_RESPONSE":
      return "error";
    default:
      // OTHER, LANGUAGE, NO_IMAGE, IMAGE_OTHER, FINISH_REASON_UNSPECIFIED and values added later.
      return "other";
  }
}

/**
 * Maps a `promptFeedback.blockReason` (the prompt itself was refused, no candidate came back).
 */
export function mapGeminiBlockReason(blockReason: string): FinishReason {
  return blockReason === "BLOCK_REASON_UNSPECIFIED" ? "other" : "content-filter";
}
