import { type Context, context, createContextKey } from "@opentelemetry/api";

const CONVERSATION_ID = createContextKey("@junction/otel gen_ai.conversation.id");

/**
 * Runs `fn` with `conversationId` in the OpenTelemetry context: the `invoke_agent` and `chat`
 * spans of every run started inside it (an Agent's `send()` or `resume()`) carry it as
 * `gen_ai.conversation.id`. Give the id your app keeps the conversation under (a chat thread's
 * id, a session key), the same for every turn of it, so a backend can group the turns. An empty
 * id sets nothing.
 *
 * @example
 * ```ts
 * const { text } = await withConversation(thread.id, () => agent.send(message).final);
 * ```
 */
export function withConversation<T>(conversationId: string, fn: () => T): T {
  if (conversationId === "") return fn();
  return context.with(context.active().setValue(CONVERSATION_ID, conversationId), fn);
}

/** The conversation id {@link withConversation} put in `active`, if any. */
export function conversationIdOf(active: Context): string | undefined {
  const value = active.getValue(CONVERSATION_ID);
  return typeof value === "string" ? value : undefined;
}
