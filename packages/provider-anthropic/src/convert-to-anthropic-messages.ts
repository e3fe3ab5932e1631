import type {
  ContentBlockParam,
  DocumentBlockParam,
  ImageBlockParam,
  MessageParam,
  TextBlockParam,
  ToolResultBlockParam,
  ToolUseBlockParam,
} from "@anthropic-ai/sdk/resources/messages";
import {
  type AlternatingMessage,
  appendAlternating,
  isRecord,
  objectToolInput,
  structuredContentForModel,
  textInPlaceOf,
} from "@junction/provider-utils";
import {
  type AssistantContentPart,
  JunctionError,
  type Message,
  type ToolNameMapping,
  type ToolResultMessagePart,
  type ToolResultPart,
  type Warning,
} from "@junction/types";

/** The messages for the Messages API, and what could not be carried as given. */
export interface ConvertedAnthropicMessages {
  messages: MessageParam[];
  warnings: Warning[];
}

/** The server tools' blocks a turn keeps and sends back (tool search, code execution). */
const SERVER_BLOCK_TYPES = new Set([
  "server_tool_use",
  "tool_search_tool_result",
  "code_execution_tool_result",
  "bash_code_execution_tool_result",
  "text_editor_code_execution_tool_result",
]);

/** The image types the Messages API accepts as base64 sources. */
const imageMediaTypes = new Set(["image/jpeg", "image/png", "image/gif", "image/webp"]);

type ImageMediaType = "image/jpeg" | "image/png" | "image/gif" | "image/webp";
type MediaBlock = TextBlockParam | ImageBlockParam | DocumentBlockParam;
type Where = "user-content" | "tool-result";

/**
 * Converts Junction's neutral messages to Anthropic Messages API messages. Pure.
 *
 * - User content and tool results: text, base64 images (JPEG, PNG, GIF, WebP), PDFs and
 *   text resources as `document` blocks. Audio, other image types and other binary
 *   resources cannot be carried: each becomes a warning and a short text note in its
 *   place, so the model knows something was there.
 * - A tool result whose output is a string stays a string (`tool_result.content`).
 * - Reasoning is echoed as `thinking` (with its signature), `redacted_thinking` (with its
 *   data) or the `compaction` block it carries, unchanged, from `providerMetadata.anthropic`;
 *   reasoning from another provider cannot be replayed and is left out with a warning.
 * - Tool calls made by code execution keep their `caller`.
 * - Tool results go in a `user` message; consecutive messages of the same role are merged,
 *   with `tool_result` blocks first, as the API requires.
 */
export function convertToAnthropicMessages(
  messages: Message[],
  options: { toolNames: ToolNameMapping },
): ConvertedAnthropicMessages {
  const warnings: Warning[] = [];
  const result: AlternatingMessage<ContentBlockParam>[] = [];
  // A user message given as a plain string goes as that string when nothing joins it.
  const fromString = new WeakSet<ContentBlockParam>();
  const append = (role: "user" | "assistant", content: string | ContentBlockParam[]) => {
    let blocks = content;
    if (typeof blocks === "string") {
      const block: ContentBlockParam = { type: "text", text: blocks };
      fromString.add(block);
      blocks = [block];
    }
    appendAlternating(result, { role, blocks }, (block) => block.type === "tool_result");
  };

  for (const [index, message] of messages.entries()) {
    switch (message.role) {
      case "user":
        append(
          "user",
          typeof message.content === "string"
            ? message.content
            : message.content.flatMap((part) => convertPart(part, "user-content", warnings)),
        );
        break;
      case "assistant":
        append("assistant", convertAssistant(message.content, options.toolNames, warnings));
        break;
      case "tool":
        append(
          "user",
          message.content.map((part) => convertToolResult(part, warnings)),
        );
        break;
      default: {
        const unknown: never = message;
        throw new JunctionError(
          "invalid-argument",
          `Message ${index} has an unknown role ${JSON.stringify((unknown as { role?: unknown }).role)}.`,
        );
      }
    }
  }
  return {
    messages: result.map(({ role, content }): MessageParam => {
      const [only] = content;
      return content.length === 1 && only?.type === "text" && fromString.has(only)
        ? { role, content: only.text }
        : { role, content };
    }),
    warnings,
  };
}

function convertAssistant(
  parts: AssistantContentPart[],
  toolNames: ToolNameMapping,
  warnings: Warning[],
): ContentBlockParam[] {
  const blocks: ContentBlockParam[] = [];
  for (const part of parts) {
    switch (part.type) {
      case "text":
        // The API rejects empty text blocks; an empty one carries nothing.
        if (part.text !== "") blocks.push({ type: "text", text: part.text });
        break;
      case "reasoning": {
        const metadata = part.providerMetadata?.anthropic;
        if (isRecord(metadata?.compaction) && metadata.compaction.type === "compaction") {
          // Sent back exactly as it came: its signature covers the fields as they are.
          blocks.push(metadata.compaction as unknown as ContentBlockParam);
        } else if (
          isRecord(metadata?.serverBlock) &&
          SERVER_BLOCK_TYPES.has(String(metadata.serverBlock.type))
        ) {
          blocks.push(metadata.serverBlock as unknown as ContentBlockParam);
        } else if (typeof metadata?.signature === "string") {
          blocks.push({ type: "thinking", thinking: part.text, signature: metadata.signature });
        } else if (typeof metadata?.redactedData === "string") {
          blocks.push({ type: "redacted_thinking", data: metadata.redactedData });
        } else {
          warnings.push({
            code: "reasoning-not-replayable",
            message:
              "A reasoning part without an Anthropic signature was left out: Anthropic only accepts thinking it signed itself.",
          });
        }
        break;
      }
      case "tool-call": {
        const { input, warning } = objectToolInput(part);
        if (warning) warnings.push(warning);
        const block: ToolUseBlockParam = {
          type: "tool_use",
          id: part.id,
          name: toolNames.toVendor(part.name),
          input,
        };
        // A call made by code execution (programmatic tool calling) goes back with its caller.
        const caller = part.providerMetadata?.anthropic?.caller;
        if (isRecord(caller)) Object.assign(block, { caller });
        blocks.push(block);
        break;
      }
      default: {
        const unknown: never = part;
        warnings.push({
          code: "assistant-part-unsupported",
          message: `An assistant part of type ${JSON.stringify((unknown as { type?: unknown }).type)} cannot be sent to Anthropic and was left out.`,
        });
      }
    }
  }
  return blocks;
}

function convertToolResult(part: ToolResultMessagePart, warnings: Warning[]): ToolResultBlockParam {
  const block: ToolResultBlockParam = { type: "tool_result", tool_use_id: part.toolCallId };
  const output = part.output;
  if (typeof output === "string") {
    block.content = output;
    return block;
  }
  const content = output.content.flatMap((item) => convertPart(item, "tool-result", warnings));
  const structured = structuredContentForModel(output);
  // MCP servers should mirror structured output as text; when one does not, send it as JSON text.
  if (structured !== undefined) content.push({ type: "text", text: JSON.stringify(structured) });
  if (content.length > 0) block.content = content;
  if (output.isError) block.is_error = true;
  return block;
}

function convertPart(part: ToolResultPart, where: Where, warnings: Warning[]): MediaBlock[] {
  switch (part.type) {
    case "text":
      return part.text === "" ? [] : [{ type: "text", text: part.text }];
    case "image":
      return [
        imageMediaTypes.has(part.mimeType)
          ? imageBlock(part.data, part.mimeType)
          : inPlaceOf(part, where, warnings),
      ];
    case "resource":
      return convertResource(part, where, warnings);
    default:
      // Audio, resource links and parts of unknown types: a text line, with a warning where something is lost.
      return [inPlaceOf(part, where, warnings)];
  }
}

function convertResource(
  part: Extract<ToolResultPart, { type: "resource" }>,
  where: Where,
  warnings: Warning[],
): MediaBlock[] {
  const resource = part.resource;
  if (typeof resource.text === "string") return [textDocument(resource.text, resource.uri)];
  if (typeof resource.blob === "string") {
    const mimeType = resource.mimeType ?? "application/octet-stream";
    if (mimeType === "application/pdf") {
      return [
        {
          type: "document",
          source: { type: "base64", media_type: "application/pdf", data: resource.blob },
          title: resource.uri,
        },
      ];
    }
    if (imageMediaTypes.has(mimeType)) return [imageBlock(resource.blob, mimeType)];
    if (mimeType.startsWith("text/")) {
      const text = decodeBase64Text(resource.blob);
      if (text !== undefined) return [textDocument(text, resource.uri)];
    }
  }
  return [inPlaceOf(part, where, warnings)];
}

function imageBlock(data: string, mimeType: string): ImageBlockParam {
  return { type: "image", source: { type: "base64", media_type: mimeType as ImageMediaType, data } };
}

function textDocument(text: string, uri: string): DocumentBlockParam {
  return { type: "document", source: { type: "text", media_type: "text/plain", data: text }, title: uri };
}

function inPlaceOf(part: ToolResultPart, where: Where, warnings: Warning[]): TextBlockParam {
  const note = textInPlaceOf(part, { provider: "Anthropic", where });
  if (note.warning) warnings.push(note.warning);
  return { type: "text", text: note.text };
}

function decodeBase64Text(base64: string): string | undefined {
  try {
    const bytes = Uint8Array.from(atob(base64), (character) => character.charCodeAt(0));
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
