import type { ScriptedTurn, VendorAdapter } from "./vendor-adapter.ts";

/**
 * The neutral events (as {@link neutralEvents} shapes them) every provider must produce for a
 * scripted turn: reasoning deltas, text deltas, each tool call as start → argument deltas →
 * complete call, then one `finish` with the whole turn, the reason and the usage.
 */
export function expectedEvents(turn: ScriptedTurn, wire: VendorAdapter["wire"]): unknown[] {
  const events: unknown[] = [];
  const content: unknown[] = [];
  if (turn.reasoning) {
    for (const text of turn.reasoning) events.push({ type: "reasoning-delta", text });
    content.push({ type: "reasoning", text: turn.reasoning.join("") });
  }
  if (turn.text) {
    for (const text of turn.text) events.push({ type: "text-delta", text });
    content.push({ type: "text", text: turn.text.join("") });
  }
  for (const [index, call] of (turn.toolCalls ?? []).entries()) {
    const id = `call#${index + 1}`;
    events.push({ type: "tool-call-start", id, name: call.name });
    const pieces = wire.argumentDeltas === "pieces" ? call.argumentPieces : [JSON.stringify(call.input)];
    for (const argumentsDelta of pieces) events.push({ type: "tool-call-delta", id, argumentsDelta });
    events.push({ type: "tool-call", id, name: call.name, input: call.input });
    content.push({ type: "tool-call", id, name: call.name, input: call.input });
  }
  events.push({ type: "finish", reason: turn.finish, usage: expectedUsage(turn, wire), content });
  return events;
}

/** The core usage a provider reports for a scripted turn. */
export function expectedUsage(turn: ScriptedTurn, wire: VendorAdapter["wire"]) {
  const { inputTokens, outputTokens, reasoningTokens } = turn.usage;
  const reported =
    wire.reasoningTokens === "always"
      ? (reasoningTokens ?? 0)
      : wire.reasoningTokens === "when-reasoning"
        ? reasoningTokens
        : undefined;
  return {
    inputTokens,
    outputTokens,
    totalTokens: inputTokens + outputTokens,
    ...(reported !== undefined ? { reasoningTokens: reported } : {}),
  };
}
