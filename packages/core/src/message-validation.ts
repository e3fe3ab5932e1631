import { isToolResult, isToolResultPart, JunctionError, type Message } from "@junction/types";

/**
 * Checks a conversation (for example one restored from JSON) before an agent uses it, and
 * names the first thing that is wrong.
 */
export function validateMessages(messages: unknown): Message[] {
  if (!Array.isArray(messages)) throw invalid("the conversation must be an array of messages");
  messages.forEach((message, index) => {
    const problem = messageProblem(message);
    if (problem) throw invalid(`message ${index}: ${problem}`);
  });
  return messages as Message[];
}

function messageProblem(message: unknown): string | undefined {
  if (typeof message !== "object" || message === null) return "not an object";
  const { role, content } = message as { role?: unknown; content?: unknown };
  switch (role) {
    case "user":
      if (typeof content === "string") return undefined;
      if (!Array.isArray(content)) return "user content must be a string or an array of parts";
      return content.every(isToolResultPart) ? undefined : "user content has a part of an unknown type";
    case "assistant":
      if (!Array.isArray(content)) return "assistant content must be an array";
      for (const part of content as Record<string, unknown>[]) {
        const type = part?.type;
        if ((type === "text" || type === "reasoning") && typeof part.text === "string") continue;
        if (type === "tool-call" && typeof part.id === "string" && typeof part.name === "string") continue;
        return `assistant content has an invalid part (${JSON.stringify(type)})`;
      }
      return undefined;
    case "tool":
      if (!Array.isArray(content)) return "tool content must be an array";
      for (const part of content as Record<string, unknown>[]) {
        if (
          part?.type !== "tool-result" ||
          typeof part.toolCallId !== "string" ||
          typeof part.toolName !== "string"
        ) {
          return "tool content must be tool-result parts with toolCallId and toolName";
        }
        if (typeof part.output !== "string" && !isToolResult(part.output)) {
          return `the result of "${part.toolName}" is neither a string nor a ToolResult`;
        }
      }
      return undefined;
    default:
      return `unknown role ${JSON.stringify(role)}`;
  }
}

function invalid(detail: string): JunctionError {
  return new JunctionError("invalid-argument", `Invalid conversation: ${detail}.`);
}
