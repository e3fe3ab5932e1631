import {
  type FakeVendorEndpoint,
  type RecordedRequest,
  sse,
  startFakeVendorEndpoint,
} from "./fake-vendor-endpoint.js";

/** What a scripted model says in one step: text, or tool calls (arguments as the model writes them). */
export type ScriptedStep =
  | { text: string }
  | { toolCalls: { id: string; name: string; arguments: Record<string, unknown> | string }[] };

/**
 * An OpenAI-compatible endpoint (Chat Completions, streamed) that plays a model following a
 * script: `next` gets each request (its messages and the tools offered) and says what the model
 * answers. The real `openai` SDK inside provider-chatcompletions is the client.
 */
export function startScriptedChatCompletions(
  next: (request: RecordedRequest) => ScriptedStep,
): Promise<FakeVendorEndpoint> {
  return startFakeVendorEndpoint((request) => scriptedChunks(next(request), request.body.model));
}

/**
 * The server-sent events of a streamed Chat Completions answer saying `step`, in the vendor's
 * framing: for a fake of one's own (`@junction/wire-fake`'s `{ chunks }`) that scripts failures too.
 */
export function scriptedChunks(step: ScriptedStep, model: string): string[] {
  const chunk = (delta: unknown, finish: string | null = null) =>
    sse({
      id: "chatcmpl-scripted",
      object: "chat.completion.chunk",
      created: 1,
      model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
  if ("text" in step) {
    return [chunk({ role: "assistant", content: step.text }), chunk({}, "stop"), "data: [DONE]\n\n"];
  }
  return [
    chunk({
      role: "assistant",
      content: null,
      tool_calls: step.toolCalls.map((call, index) => ({
        index,
        id: call.id,
        type: "function",
        function: {
          name: call.name,
          arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments),
        },
      })),
    }),
    chunk({}, "tool_calls"),
    "data: [DONE]\n\n",
  ];
}

/** How many tool results the conversation in a Chat Completions request already holds. */
export function toolResultsIn(request: RecordedRequest): number {
  return request.body.messages.filter((message: { role: string }) => message.role === "tool").length;
}

/** The text of the last user message of a Chat Completions request. */
export function lastUserText(request: RecordedRequest): string {
  const message = [...request.body.messages].reverse().find((item: { role: string }) => item.role === "user");
  return typeof message?.content === "string" ? message.content : JSON.stringify(message?.content ?? "");
}
