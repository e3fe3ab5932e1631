// OpenAI Responses API streams as the API frames them (see the provider's recorded fixtures in
// packages/provider-openai/src/__fixtures__), for tests that script a response's output items.

/** One Responses API SSE event: `event: <type>` and its data, which repeats the type. */
export function responsesEvent(type: string, data: Record<string, unknown> = {}): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

/** A whole response, given by its final output items (as `response.completed` carries them). */
export interface ResponsesTurn {
  id: string;
  model: string;
  /** The output items, final: `message`, `function_call`, `reasoning`, `program`, … */
  output: Record<string, unknown>[];
  /** @default "completed" */
  status?: "completed" | "incomplete";
  /** @default { input_tokens: 50, output_tokens: 9 } */
  usage?: { input_tokens: number; output_tokens: number };
}

/**
 * The stream of a response: `response.created`, then per output item `response.output_item.added`
 * (a message without its content, a function call without its arguments), the text or arguments
 * as one delta (and their `done` event), `response.output_item.done` with the final item; and
 * `response.completed` (or `response.incomplete`) with the output and the usage. Items of other
 * types arrive whole in `added` and `done`.
 */
export function responsesStream(turn: ResponsesTurn): string[] {
  const status = turn.status ?? "completed";
  const usage = turn.usage ?? { input_tokens: 50, output_tokens: 9 };
  const response = (fields: Record<string, unknown>) => ({
    id: turn.id,
    object: "response",
    created_at: 1_780_000_000,
    model: turn.model,
    ...fields,
  });
  const chunks = [
    responsesEvent("response.created", { response: response({ status: "in_progress", output: [] }) }),
  ];
  for (const [output_index, item] of turn.output.entries()) {
    const id = item.id;
    if (item.type === "message") {
      const text = (item.content as { text?: string }[]).map((part) => part.text ?? "").join("");
      chunks.push(
        responsesEvent("response.output_item.added", {
          output_index,
          item: { ...item, status: "in_progress", content: [] },
        }),
        responsesEvent("response.output_text.delta", {
          item_id: id,
          output_index,
          content_index: 0,
          delta: text,
        }),
        responsesEvent("response.output_text.done", { item_id: id, output_index, content_index: 0, text }),
      );
    } else if (item.type === "function_call") {
      const args = String(item.arguments);
      chunks.push(
        responsesEvent("response.output_item.added", {
          output_index,
          item: { ...item, status: "in_progress", arguments: "" },
        }),
        responsesEvent("response.function_call_arguments.delta", { item_id: id, output_index, delta: args }),
        responsesEvent("response.function_call_arguments.done", {
          item_id: id,
          output_index,
          arguments: args,
        }),
      );
    } else {
      chunks.push(responsesEvent("response.output_item.added", { output_index, item }));
    }
    chunks.push(responsesEvent("response.output_item.done", { output_index, item }));
  }
  chunks.push(
    responsesEvent(status === "completed" ? "response.completed" : "response.incomplete", {
      response: response({
        status,
        output: turn.output,
        usage: {
          ...usage,
          total_tokens: usage.input_tokens + usage.output_tokens,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens_details: { reasoning_tokens: 0 },
        },
      }),
    }),
  );
  return chunks;
}

/** A final assistant `message` item with one `output_text` part. */
export function responsesMessage(id: string, text: string): Record<string, unknown> {
  return {
    id,
    type: "message",
    status: "completed",
    role: "assistant",
    content: [{ type: "output_text", annotations: [], text }],
  };
}
