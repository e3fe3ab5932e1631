import type { AssistantContentPart, ModelStreamEvent, Usage } from "@junction/types";

/** What one `provider.stream()` produced: every event, and the error it threw, if any. */
export interface Collected {
  events: ModelStreamEvent[];
  error: unknown;
}

/** Reads a stream to its end, keeping the events that came before a failure. */
export async function collect(
  stream: AsyncIterable<ModelStreamEvent>,
  onEvent?: (event: ModelStreamEvent) => void,
): Promise<Collected> {
  const events: ModelStreamEvent[] = [];
  try {
    for await (const event of stream) {
      events.push(event);
      onEvent?.(event);
    }
  } catch (error) {
    return { events, error };
  }
  return { events, error: undefined };
}

/** The usage fields the contract pins down; cache counts are each vendor's own business. */
export function coreUsage(
  usage: Usage,
): Pick<Usage, "inputTokens" | "outputTokens" | "totalTokens" | "reasoningTokens"> {
  return {
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    totalTokens: usage.totalTokens,
    ...(usage.reasoningTokens !== undefined ? { reasoningTokens: usage.reasoningTokens } : {}),
  };
}

/**
 * The events in neutral terms the contract compares exactly: vendor-owned fields
 * (`providerMetadata`, `rawReason`, `responseId`, cache counts) dropped, and each tool-call id
 * replaced by `call#1`, `call#2`, … in order of first appearance, so vendors that make ids up
 * compare like vendors that send them. `ids` lists the real ids in that order.
 */
export function neutralEvents(events: ModelStreamEvent[]): { events: unknown[]; ids: string[] } {
  const ids: string[] = [];
  const placeholder = (id: string) => {
    let index = ids.indexOf(id);
    if (index < 0) index = ids.push(id) - 1;
    return `call#${index + 1}`;
  };
  const content = (part: AssistantContentPart) =>
    part.type === "tool-call"
      ? { type: part.type, id: placeholder(part.id), name: part.name, input: part.input }
      : { type: part.type, text: part.text };
  const neutral = events.map((event) => {
    switch (event.type) {
      case "text-delta":
      case "reasoning-delta":
      case "warning":
        return event;
      case "tool-call-start":
        return { type: event.type, id: placeholder(event.id), name: event.name };
      case "tool-call-delta":
        return { type: event.type, id: placeholder(event.id), argumentsDelta: event.argumentsDelta };
      case "tool-call":
        return { type: event.type, id: placeholder(event.id), name: event.name, input: event.input };
      case "finish":
        return {
          type: event.type,
          reason: event.reason,
          usage: coreUsage(event.usage),
          content: event.content.map(content),
        };
      default: {
        const unknown: never = event;
        return unknown;
      }
    }
  });
  return { events: neutral, ids };
}
