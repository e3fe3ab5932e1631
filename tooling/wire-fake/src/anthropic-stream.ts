// Anthropic Messages API streams as the API frames them, for tests that script Claude's turns
// (the provider's own tests, the provider contract suite, the cross-package scenarios).

/** One Messages API SSE event: `event: <type>` and its data, which repeats the type. */
export function anthropicEvent(type: string, data: Record<string, unknown> = {}): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

/** One content block: how it starts, then its deltas (none for a block that arrives whole). */
export interface AnthropicStreamBlock {
  start: Record<string, unknown>;
  deltas?: Record<string, unknown>[];
}

/** A whole turn: `message_start`, each block (start, deltas, stop), `message_delta`, `message_stop`. */
export interface AnthropicTurn {
  id: string;
  model: string;
  blocks: AnthropicStreamBlock[];
  /** `end_turn`, `tool_use`, `max_tokens`, … */
  stopReason: string;
  /** The `message_start` usage (default: 50 input tokens, 1 output token). */
  usage?: Record<string, number>;
  outputTokens?: number;
  /** More of `message_delta`'s delta (a `container`, say). */
  delta?: Record<string, unknown>;
}

export function anthropicStream(turn: AnthropicTurn): string[] {
  const chunks = [
    anthropicEvent("message_start", {
      message: {
        id: turn.id,
        type: "message",
        role: "assistant",
        model: turn.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: turn.usage ?? { input_tokens: 50, output_tokens: 1 },
      },
    }),
  ];
  for (const [index, block] of turn.blocks.entries()) {
    chunks.push(anthropicEvent("content_block_start", { index, content_block: block.start }));
    for (const delta of block.deltas ?? [])
      chunks.push(anthropicEvent("content_block_delta", { index, delta }));
    chunks.push(anthropicEvent("content_block_stop", { index }));
  }
  chunks.push(
    anthropicEvent("message_delta", {
      delta: { stop_reason: turn.stopReason, stop_sequence: null, ...turn.delta },
      usage: { output_tokens: turn.outputTokens ?? 9 },
    }),
    anthropicEvent("message_stop"),
  );
  return chunks;
}

/** A text block streamed in `pieces`. */
export function anthropicText(...pieces: string[]): AnthropicStreamBlock {
  return { start: { type: "text", text: "" }, deltas: pieces.map((text) => ({ type: "text_delta", text })) };
}

/** A `tool_use` block whose input streams as `pieces` of JSON. */
export function anthropicToolUse(
  start: { id: string; name: string } & Record<string, unknown>,
  ...pieces: string[]
): AnthropicStreamBlock {
  return {
    start: { type: "tool_use", input: {}, ...start },
    deltas: pieces.map((partial_json) => ({ type: "input_json_delta", partial_json })),
  };
}
