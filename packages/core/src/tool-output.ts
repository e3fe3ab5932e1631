import type { ToolResult, ToolResultPart, Warning } from "@junction/types";
import { jsonLimitProblem, MAX_TOOL_OUTPUT_DEPTH, toPlainJSON } from "./json-limits.js";

/**
 * Default limit on a tool's textual output as the conversation keeps it, in characters: a safety
 * floor against a server flooding memory, not the model's budget (the model sees each result cut
 * to a share of its context window, and pages through the rest with `read_tool_result`).
 */
export const DEFAULT_MAX_TOOL_OUTPUT_CHARS = 10_000_000;

/** A tool's output as it is stored in the conversation, plus what was changed on the way. */
export interface NormalizedToolOutput {
  /** A plain string stays a string; anything else becomes a full `ToolResult`. */
  output: string | ToolResult;
  warnings: Warning[];
}

/**
 * Normalises whatever a tool returned into a string or a `ToolResult`, once. Tools (and MCP
 * servers behind them) are untrusted: unknown shapes are kept as JSON text with a warning,
 * never dropped.
 */
export function normalizeToolOutput(value: unknown, toolName: string): NormalizedToolOutput {
  const warnings: Warning[] = [];
  if (typeof value === "string") return { output: value, warnings };
  if (Array.isArray(value)) {
    return { output: { content: normalizeParts(value, toolName, warnings), isError: false }, warnings };
  }
  if (typeof value === "object" && value !== null && Array.isArray((value as ToolResult).content)) {
    const result = value as ToolResult & Record<string, unknown>;
    const normalized: ToolResult = {
      content: normalizeParts(result.content, toolName, warnings),
      isError: result.isError === true,
    };
    if (result.structuredContent !== undefined) normalized.structuredContent = result.structuredContent;
    return { output: normalized, warnings };
  }
  warnings.push({
    code: "tool-output-invalid",
    message: `Tool "${toolName}" returned ${describe(value)} instead of a string, parts or a ToolResult; it was sent as JSON text.`,
  });
  return { output: safeJSON(value), warnings };
}

function normalizeParts(parts: unknown[], toolName: string, warnings: Warning[]): ToolResultPart[] {
  return parts.map((part, index) => {
    const problem = partProblem(part);
    if (!problem) {
      // Extra fields (MCP's annotations, _meta) pass through, unless they could not be copied or
      // saved; a part of strings only (the usual `{ type, text }`) has none that could not.
      const extrasProblem = onlyStrings(part as Record<string, unknown>)
        ? undefined
        : jsonLimitProblem(part, { maxDepth: MAX_TOOL_OUTPUT_DEPTH, maxChars: Number.POSITIVE_INFINITY });
      if (!extrasProblem) return part as ToolResultPart;
      warnings.push({
        code: "tool-output-part-invalid",
        message: `Tool "${toolName}" returned a content part at index ${index} whose extra fields were left out: ${extrasProblem}.`,
      });
      return knownFields(part as ToolResultPart);
    }
    warnings.push({
      code: "tool-output-part-invalid",
      message: `Tool "${toolName}" returned an invalid content part at index ${index} (${problem}); it was sent as JSON text.`,
    });
    const text = jsonLimitProblem(part, {
      maxDepth: MAX_TOOL_OUTPUT_DEPTH,
      maxChars: Number.POSITIVE_INFINITY,
    })
      ? `[An invalid content part Junction left out: ${problem}.]`
      : safeJSON(part);
    return { type: "text", text };
  });
}

/** Whether every field of `record` is a string. */
function onlyStrings(record: Record<string, unknown>): boolean {
  for (const name of Object.keys(record)) if (typeof record[name] !== "string") return false;
  return true;
}

/** A valid part with only the fields Junction's types name. */
function knownFields(part: ToolResultPart): ToolResultPart {
  switch (part.type) {
    case "text":
      return { type: "text", text: part.text };
    case "image":
    case "audio":
      return { type: part.type, data: part.data, mimeType: part.mimeType };
    case "resource": {
      const { uri, mimeType, text, blob } = part.resource;
      return {
        type: "resource",
        resource: {
          uri,
          ...(typeof mimeType === "string" ? { mimeType } : {}),
          ...(typeof text === "string" ? { text } : {}),
          ...(typeof blob === "string" ? { blob } : {}),
        },
      };
    }
    case "resource_link":
      return {
        type: "resource_link",
        uri: part.uri,
        name: part.name,
        ...(typeof part.mimeType === "string" ? { mimeType: part.mimeType } : {}),
        ...(typeof part.description === "string" ? { description: part.description } : {}),
      };
    default: {
      const unknown: never = part;
      return unknown;
    }
  }
}

/**
 * Keeps `structuredContent` only if it is plain JSON within {@link MAX_TOOL_OUTPUT_DEPTH} levels
 * and `maxChars` characters; otherwise it is left out, with a note in the content (MCP tools
 * also send it as text) and a warning. A hostile server's thousands of nested levels would
 * otherwise break copying, sending and saving the conversation.
 */
export function limitStructuredContent(
  output: string | ToolResult,
  maxChars: number,
  toolName: string,
): { output: string | ToolResult; warning?: Warning } {
  if (typeof output === "string" || output.structuredContent === undefined) return { output };
  let reason = jsonLimitProblem(output.structuredContent, { maxDepth: MAX_TOOL_OUTPUT_DEPTH, maxChars });
  if (!reason) {
    const plain = toPlainJSON(output.structuredContent);
    if (plain.ok) {
      if (plain.value === undefined) {
        const { structuredContent: _dropped, ...rest } = output;
        return { output: rest };
      }
      return { output: { ...output, structuredContent: plain.value } };
    }
    reason = plain.reason;
  }
  const { structuredContent: _dropped, ...rest } = output;
  return {
    output: {
      ...rest,
      content: [
        ...rest.content,
        { type: "text", text: `[Structured content left out by Junction: ${reason}.]` },
      ],
    },
    warning: {
      code: "tool-output-structured-dropped",
      message: `Tool "${toolName}" returned structured content that was left out: ${reason}.`,
    },
  };
}

function partProblem(part: unknown): string | undefined {
  if (typeof part !== "object" || part === null) return `expected an object, got ${describe(part)}`;
  const p = part as Record<string, unknown>;
  switch (p.type) {
    case "text":
      return typeof p.text === "string" ? undefined : "text part without a string `text`";
    case "image":
    case "audio":
      return typeof p.data === "string" && typeof p.mimeType === "string"
        ? undefined
        : `${p.type} part without string \`data\` and \`mimeType\``;
    case "resource": {
      const resource = p.resource as Record<string, unknown> | undefined;
      return typeof resource === "object" && resource !== null && typeof resource.uri === "string"
        ? undefined
        : "resource part without `resource.uri`";
    }
    case "resource_link":
      return typeof p.uri === "string" && typeof p.name === "string"
        ? undefined
        : "resource_link part without string `uri` and `name`";
    default:
      return `unknown part type ${JSON.stringify(p.type)}`;
  }
}

/** The text of a tool result, for events, errors and sampling answers. */
export function toolResultText(output: string | ToolResult): string {
  if (typeof output === "string") return output;
  return output.content
    .map((part) =>
      part.type === "text" ? part.text : part.type === "resource" ? (part.resource.text ?? "") : "",
    )
    .filter((text) => text.length > 0)
    .join("\n");
}

/** The full `ToolResult` form of a stored output (a string becomes one text part). */
export function toToolResult(output: string | ToolResult): ToolResult {
  return typeof output === "string" ? { content: [{ type: "text", text: output }], isError: false } : output;
}

/**
 * Cuts textual output beyond `maxChars` (strings, text parts, embedded text resources; binary
 * parts are left to the provider) and says so in the output itself and in a warning.
 */
export function truncateToolOutput(
  output: string | ToolResult,
  maxChars: number,
  toolName: string,
): { output: string | ToolResult; warning?: Warning } {
  const total = textLength(output);
  if (total <= maxChars) return { output };
  const note = `\n\n[Output truncated by Junction: ${total} characters of text, only the first ${maxChars} are shown.]`;
  const warning: Warning = {
    code: "tool-output-truncated",
    message: `Tool "${toolName}" returned ${total} characters of text; it was truncated to ${maxChars}.`,
  };
  if (typeof output === "string") return { output: output.slice(0, maxChars) + note, warning };
  let budget = maxChars;
  const content: ToolResultPart[] = [];
  for (const part of output.content) {
    if (part.type === "text") {
      if (budget <= 0) continue;
      content.push({ ...part, text: part.text.slice(0, budget) });
      budget -= Math.min(budget, part.text.length);
    } else if (part.type === "resource" && part.resource.text !== undefined) {
      if (budget <= 0) continue;
      content.push({ ...part, resource: { ...part.resource, text: part.resource.text.slice(0, budget) } });
      budget -= Math.min(budget, part.resource.text.length);
    } else {
      content.push(part);
    }
  }
  content.push({ type: "text", text: note.trimStart() });
  return { output: { ...output, content }, warning };
}

function textLength(output: string | ToolResult): number {
  if (typeof output === "string") return output.length;
  let length = 0;
  for (const part of output.content) {
    if (part.type === "text") length += part.text.length;
    else if (part.type === "resource" && part.resource.text !== undefined)
      length += part.resource.text.length;
  }
  return length;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : typeof value;
}

function safeJSON(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
