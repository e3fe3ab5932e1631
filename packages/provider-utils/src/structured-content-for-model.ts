import type { ToolResult } from "@junction/types";

/**
 * The `structuredContent` of a tool result that the model gets, or `undefined` when it gets none.
 *
 * MCP means `structuredContent` for code and UI and `content` for the model, and asks a server
 * to mirror structured output as a text part. So the model gets `structuredContent` only as a
 * fallback: when the result has no `text` part at all (no content, or only media, resources and
 * links). Every built-in provider decides with this function; how it is sent (JSON text, a JSON
 * block, a JSON object) is the provider's choice.
 *
 * @example
 * ```ts
 * structuredContentForModel({ content: [{ type: "text", text: '{"n":1}' }], isError: false, structuredContent: { n: 1 } });
 * // undefined: the text part carries it
 * structuredContentForModel({ content: [], isError: false, structuredContent: { n: 1 } });
 * // { n: 1 }
 * ```
 */
export function structuredContentForModel(output: ToolResult): unknown {
  if (output.content.some((part) => part.type === "text")) return undefined;
  return output.structuredContent;
}
