import type { ModelCallInput } from "@junction/core";

/** One part of a message in the conventions' JSON form (`gen-ai-input-messages.json`). */
type ConventionPart = Record<string, unknown> & { type: string };

/** A message in the conventions' form: `{ role, parts }`. */
interface ConventionMessage {
  role: string;
  parts: ConventionPart[];
}

/**
 * A model call's messages in the conventions' form for `gen_ai.input.messages`: text as
 * `text`, the model's calls as `tool_call`, results as `tool_call_response`, reasoning as
 * `reasoning`; media and resources by their type and MIME type only, never their bytes.
 */
export function toInputMessages(input: ModelCallInput): ConventionMessage[] {
  return input.messages.map((message): ConventionMessage => {
    switch (message.role) {
      case "user":
        return {
          role: "user",
          parts:
            typeof message.content === "string"
              ? [{ type: "text", content: message.content }]
              : message.content.map(contentPart),
        };
      case "assistant":
        return {
          role: "assistant",
          parts: message.content.map((part): ConventionPart => {
            switch (part.type) {
              case "text":
                return { type: "text", content: part.text };
              case "reasoning":
                return { type: "reasoning", content: part.text };
              case "tool-call":
                return { type: "tool_call", id: part.id, name: part.name, arguments: part.input };
              default:
                part satisfies never;
                return { type: "unknown" };
            }
          }),
        };
      case "tool":
        return {
          role: "tool",
          parts: message.content.map((part) => ({
            type: "tool_call_response",
            id: part.toolCallId,
            response: typeof part.output === "string" ? part.output : part.output.content.map(contentPart),
          })),
        };
      default:
        message satisfies never;
        return { role: "unknown", parts: [] };
    }
  });
}

/** `gen_ai.system_instructions`: the system prompt as one text part. */
export function toSystemInstructions(system: string): ConventionPart[] {
  return [{ type: "text", content: system }];
}

/** A content part (user message or tool result): text as it is, anything else by its kind. */
function contentPart(part: { type: string; text?: unknown; mimeType?: unknown }): ConventionPart {
  if (part.type === "text" && typeof part.text === "string") return { type: "text", content: part.text };
  return { type: part.type, ...(typeof part.mimeType === "string" ? { mime_type: part.mimeType } : {}) };
}
