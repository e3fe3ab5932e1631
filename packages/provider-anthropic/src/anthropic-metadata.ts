/**
 * What the Anthropic provider keeps in `providerMetadata.anthropic` of a `reasoning` part, so the
 * block goes back to Anthropic unchanged on the next turn. Exactly one field is set.
 */
export interface AnthropicReasoningMetadata {
  /** A `thinking` block's signature: the part's text is the thinking, echoed as `thinking`. */
  signature?: string;
  /** A `redacted_thinking` block's encrypted data (the part's text is empty). */
  redactedData?: string;
  /**
   * A context-management `compaction` block (`content`, `encrypted_content`, `signature`,
   * `tool_changes`), exactly as Anthropic sent it; the part's text is empty. It is sent back
   * as the same `compaction` block, where Anthropic summarised the conversation before it.
   */
  compaction?: Record<string, unknown>;
  /**
   * A server tool's block of the turn (the tool search's `server_tool_use` or its
   * `tool_search_tool_result`; code execution's `server_tool_use` or its
   * `code_execution_tool_result`), exactly as Anthropic sent it; the part's text is empty. It is
   * sent back as the same block, so the tools the search found stay loaded and the code that
   * called tools stays in the conversation.
   */
  serverBlock?: Record<string, unknown>;
}

/** What the Anthropic provider keeps in `providerMetadata.anthropic` of a `tool-call` part. */
export interface AnthropicToolCallMetadata {
  /**
   * Who called the tool, when not the model itself: with programmatic tool calling, the code
   * execution tool (`{ type: "code_execution_20250825", tool_id }`). Sent back with the call.
   */
  caller?: Record<string, unknown>;
  /**
   * The code execution container the call was made in (`{ id, expires_at }`, as Anthropic sent
   * it), beside `caller`: the request that answers the call sends its id back, so the code goes on.
   */
  container?: Record<string, unknown>;
}
