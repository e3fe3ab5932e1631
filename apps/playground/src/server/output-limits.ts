import type { ToolResult, ToolResultPart } from "@junction/types";

/** How deep a server's JSON may nest before the rest is cut (the page and JSON.stringify stay safe). */
export const MAXIMUM_DEPTH = 64;
/** How many bytes of one tool result reach the page (text, base64 data and structured content together). */
export const MAXIMUM_RESULT_BYTES = 2 * 1024 * 1024;
/**
 * How many bytes of the result of one call a program made reach the page: a program may make
 * hundreds of calls, whose results the model never sees; the page lists them, shortened.
 */
export const MAXIMUM_PROGRAM_CALL_RESULT_BYTES = 64 * 1024;
/** How many bytes of one log message's data are kept. */
export const MAXIMUM_LOG_BYTES = 8 * 1024;

const cutMarker = (depth: number) => `[cut: nested deeper than ${depth} levels]`;

/**
 * A copy of a JSON value with everything nested deeper than `maxDepth` replaced by a marker
 * string. Recurses at most `maxDepth` levels, so thousands of levels cannot exhaust the stack.
 */
export function capDepth(value: unknown, maxDepth = MAXIMUM_DEPTH): { value: unknown; cut: boolean } {
  let cut = false;
  const visit = (node: unknown, depth: number): unknown => {
    if (typeof node !== "object" || node === null) return node;
    if (depth >= maxDepth) {
      cut = true;
      return cutMarker(maxDepth);
    }
    if (Array.isArray(node)) return node.map((item) => visit(item, depth + 1));
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(node)) copy[key] = visit(item, depth + 1);
    return copy;
  };
  const result = visit(value, 0);
  return { value: result, cut };
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * Bounds a tool result for the page and the transcript: structured content nested deeper than
 * {@link MAXIMUM_DEPTH} is cut, and past {@link MAXIMUM_RESULT_BYTES} text is shortened and
 * images, audio or structured content left out. `truncated` says what was done, for a note.
 */
export function capToolResult(
  result: ToolResult,
  options: { maxBytes?: number; maxDepth?: number } = {},
): { result: ToolResult; truncated?: string } {
  const maxBytes = options.maxBytes ?? MAXIMUM_RESULT_BYTES;
  const maxDepth = options.maxDepth ?? MAXIMUM_DEPTH;
  const notes: string[] = [];
  let budget = maxBytes;
  const content: ToolResultPart[] = [];
  for (const part of Array.isArray(result.content) ? result.content : []) {
    const size = partSize(part);
    if (size <= budget) {
      content.push(part);
      budget -= size;
      continue;
    }
    if (part.type === "text") {
      content.push({ ...part, text: part.text.slice(0, Math.max(0, budget)) });
      notes.push(
        `a text of ${megabytes(part.text.length)} was cut to its first ${megabytes(Math.max(0, budget))}`,
      );
      budget = 0;
    } else {
      notes.push(`a ${part.type} part of ${megabytes(size)} was left out`);
    }
  }
  const capped: ToolResult = { content, isError: result.isError === true };
  if (result.structuredContent !== undefined) {
    const { value, cut } = capDepth(result.structuredContent, maxDepth);
    if (cut) notes.push(`structured content nested deeper than ${maxDepth} levels was cut`);
    const size = JSON.stringify(value)?.length ?? 0;
    if (size <= budget) capped.structuredContent = value;
    else notes.push(`structured content of ${megabytes(size)} was left out`);
  }
  if (notes.length === 0) return { result: capped };
  return {
    result: capped,
    truncated: `This result was too large or too deep to show whole (limits ${megabytes(maxBytes)}, ${maxDepth} levels): ${notes.join("; ")}.`,
  };
}

function partSize(part: ToolResultPart): number {
  switch (part.type) {
    case "text":
      return part.text.length;
    case "image":
    case "audio":
      return part.data.length;
    case "resource":
      return (part.resource.text?.length ?? 0) + (part.resource.blob?.length ?? 0) + part.resource.uri.length;
    case "resource_link":
      return part.uri.length + part.name.length + (part.description?.length ?? 0);
    default: {
      const unknown: never = part;
      return JSON.stringify(capDepth(unknown).value)?.length ?? 0;
    }
  }
}

/** A log message's data, depth-capped and shortened to {@link MAXIMUM_LOG_BYTES} of JSON. */
export function capLogData(data: unknown): unknown {
  const { value } = capDepth(data, 16);
  if (typeof value === "string") {
    return value.length > MAXIMUM_LOG_BYTES
      ? `${value.slice(0, MAXIMUM_LOG_BYTES)}… [${value.length - MAXIMUM_LOG_BYTES} characters cut]`
      : value;
  }
  const json = JSON.stringify(value) ?? "null";
  if (json.length <= MAXIMUM_LOG_BYTES) return value;
  return `${json.slice(0, MAXIMUM_LOG_BYTES)}… [${json.length - MAXIMUM_LOG_BYTES} characters cut]`;
}
