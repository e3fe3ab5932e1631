import type { ToolResult, ToolResultPart } from "@junction/types";
import { z } from "zod";

/**
 * The schema handed to the SDK for results we check ourselves (tool results go through
 * {@link convertCallToolResult}): any object.
 */
export const AnyResultSchema = z.looseObject({});

/**
 * Turns a `tools/call` result as a server sent it (untrusted) into a `ToolResult`. Pure and
 * total: every content block a server may send is kept (text, image, audio, embedded resource,
 * resource_link); a block of an unknown type or with a malformed shape becomes a text note that
 * says what was wrong, so nothing is dropped silently and nothing throws.
 *
 * @param raw - the `result` member of the JSON-RPC response
 * @param serverName - named in the notes, so a reader knows where odd output came from
 */
export function convertCallToolResult(raw: unknown, serverName: string): ToolResult {
  if (!isRecord(raw)) {
    return {
      content: [
        { type: "text", text: `[MCP server "${serverName}" sent a tool result that is not an object]` },
      ],
      isError: true,
    };
  }
  const content: ToolResultPart[] = [];
  if (Array.isArray(raw.content)) {
    for (const [index, block] of raw.content.entries()) {
      content.push(convertContentBlock(block, index, serverName));
    }
  } else if (raw.content !== undefined) {
    content.push({
      type: "text",
      text: `[MCP server "${serverName}" sent tool result content that is not an array]`,
    });
  } else if ("toolResult" in raw) {
    // Protocol revision 2024-10-07 answered with `toolResult` instead of `content`.
    content.push({ type: "text", text: stringify(raw.toolResult) });
  }
  const result: ToolResult = { content, isError: raw.isError === true };
  if (raw.structuredContent !== undefined) {
    if (isRecord(raw.structuredContent)) {
      result.structuredContent = raw.structuredContent;
    } else {
      content.push({
        type: "text",
        text: `[MCP server "${serverName}" sent structuredContent that is not an object: ${preview(stringify(raw.structuredContent))}]`,
      });
    }
  }
  return result;
}

/** Converts one MCP content block; anything unrecognised becomes a descriptive text part. */
function convertContentBlock(block: unknown, index: number, serverName: string): ToolResultPart {
  const note = (problem: string): ToolResultPart => ({
    type: "text",
    text: `[MCP server "${serverName}" sent content block ${index} ${problem}]`,
  });
  if (!isRecord(block)) return note("that is not an object");
  const type = block.type;
  if (typeof type !== "string") return note("without a type");
  const blockType = type as KnownBlockType;
  switch (blockType) {
    case "text":
      return typeof block.text === "string"
        ? { type: "text", text: block.text }
        : note('of type "text" without text');
    case "image":
    case "audio": {
      if (typeof block.data !== "string" || typeof block.mimeType !== "string") {
        return note(`of type "${blockType}" without string data and mimeType`);
      }
      return { type: blockType, data: block.data, mimeType: block.mimeType };
    }
    case "resource": {
      const resource = block.resource;
      if (!isRecord(resource) || typeof resource.uri !== "string") {
        return note('of type "resource" without a resource uri');
      }
      const hasText = typeof resource.text === "string";
      const hasBlob = typeof resource.blob === "string";
      if (!hasText && !hasBlob)
        return note(`of type "resource" (${resource.uri}) with neither text nor blob`);
      const part: Extract<ToolResultPart, { type: "resource" }> = {
        type: "resource",
        resource: { uri: resource.uri },
      };
      if (typeof resource.mimeType === "string") part.resource.mimeType = resource.mimeType;
      if (hasText) part.resource.text = resource.text as string;
      if (hasBlob) part.resource.blob = resource.blob as string;
      return part;
    }
    case "resource_link": {
      if (typeof block.uri !== "string") return note('of type "resource_link" without a uri');
      const part: Extract<ToolResultPart, { type: "resource_link" }> = {
        type: "resource_link",
        uri: block.uri,
        name: typeof block.name === "string" ? block.name : block.uri,
      };
      if (typeof block.mimeType === "string") part.mimeType = block.mimeType;
      if (typeof block.description === "string") part.description = block.description;
      return part;
    }
    default: {
      const unknownType: never = blockType;
      return note(`of unsupported type "${preview(String(unknownType))}": ${preview(stringify(block))}`);
    }
  }
}

type KnownBlockType = "text" | "image" | "audio" | "resource" | "resource_link";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function stringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function preview(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
