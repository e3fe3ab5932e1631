import { errorMessage, JunctionError, type ToolOutput, type ToolResultPart } from "@junction/types";
import type { CallToolResult } from "@modelcontextprotocol/server";

/**
 * What a served tool's output becomes on the wire: a string is one text block, parts are the
 * content as they are (image, audio, resource, resource_link blocks keep every field), a
 * `ToolResult` keeps `isError` and `structuredContent`. Pure.
 */
export function toCallToolResult(output: ToolOutput): CallToolResult {
  if (typeof output === "string") return { content: [{ type: "text", text: output }] };
  if (Array.isArray(output)) return { content: output.map(toContentBlock) };
  const result: CallToolResult = { content: output.content.map(toContentBlock) };
  if (output.isError) result.isError = true;
  if (output.structuredContent !== undefined) {
    result.structuredContent = output.structuredContent as CallToolResult["structuredContent"];
  }
  return result;
}

// Junction's parts follow MCP's content blocks, so a part is sent as it is.
function toContentBlock(part: ToolResultPart): CallToolResult["content"][number] {
  return part as CallToolResult["content"][number];
}

/**
 * The `isError` result of a tool that threw: the error's message only, never its stack. Input
 * that does not match the schema keeps core's message, which names the field.
 */
export function toolErrorResult(toolName: string, error: unknown): CallToolResult {
  const text =
    JunctionError.isInstance(error) && error.code === "tool-input-invalid"
      ? error.message
      : `Tool "${toolName}" failed: ${errorMessage(error)}`;
  return { content: [{ type: "text", text }], isError: true };
}
