import type { ToolResult, ToolResultPart } from "./tool.js";

const partTypes = new Set(["text", "image", "audio", "resource", "resource_link"]);

/** True for a value shaped like one of the contract's tool result parts. */
export function isToolResultPart(value: unknown): value is ToolResultPart {
  return (
    typeof value === "object" && value !== null && partTypes.has((value as { type?: unknown }).type as string)
  );
}

/** True for a full `ToolResult` (content parts plus `isError`), as opposed to a string or bare parts. */
export function isToolResult(value: unknown): value is ToolResult {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    Array.isArray((value as ToolResult).content) &&
    typeof (value as ToolResult).isError === "boolean"
  );
}
