import type {
  Message as BedrockMessage,
  ContentBlock,
  DocumentFormat,
  ImageFormat,
  ToolResultContentBlock,
} from "@aws-sdk/client-bedrock-runtime";
import {
  type AlternatingMessage,
  appendAlternating,
  isRecord,
  objectToolInput,
  omittedPartNote,
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
import { bytesFromBase64 } from "./bedrock-base64.js";

/** The messages for the Converse API, and what could not be carried as given. */
export interface ConvertedBedrockMessages {
  messages: BedrockMessage[];
  warnings: Warning[];
}

const imageFormats: Record<string, ImageFormat> = {
  "image/png": "png",
  "image/jpeg": "jpeg",
  "image/gif": "gif",
  "image/webp": "webp",
};

const documentFormats: Record<string, DocumentFormat> = {
  "application/pdf": "pdf",
  "text/csv": "csv",
  "application/msword": "doc",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
  "application/vnd.ms-excel": "xls",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
  "text/html": "html",
  "text/plain": "txt",
  "text/markdown": "md",
};

/** A block that fits both a message's content and a tool result's content. */
type MediaBlock =
  | { text: string }
  | { image: ContentBlock.ImageMember["image"] }
  | { document: ContentBlock.DocumentMember["document"] };
type Where = "user-content" | "tool-result";

/** Per conversion: the warnings, and the document names used so far (Bedrock wants them distinct). */
interface Context {
  warnings: Warning[];
  documentNames: Set<string>;
  /** Tool calls and results go as text: the request offers no tools, and Bedrock rejects tool blocks then. */
  toolsAsText: boolean;
  warnedToolsAsText?: boolean;
}

/**
 * Converts Junction's neutral messages to Converse API messages. Pure.
 *
 * - User content and tool results: text; PNG, JPEG, GIF and WebP images (also as resource
 *   blobs) as `image` blocks; PDF, CSV, DOC(X), XLS(X), HTML, plain-text and Markdown resource
 *   blobs, and every text resource, as `document` blocks named from the URI to fit Bedrock's
 *   rule. Audio, other image types and other binary resources cannot be carried: each becomes
 *   a warning and a short text note in its place.
 * - A tool result carries its `status: "error"` when the tool failed, and its
 *   `structuredContent` as a `json` block when no text part mirrors it. A string output is one
 *   `text` block.
 * - Reasoning from Bedrock is echoed as `reasoningContent` (text with its signature, or the
 *   redacted bytes) from `providerMetadata.bedrock`; reasoning from another provider cannot be
 *   replayed and is left out with a warning.
 * - Tool results go in a `user` message; consecutive messages of the same role are merged
 *   (Converse wants the roles to alternate), with `toolResult` blocks first.
 */
export function convertToBedrockMessages(
  messages: Message[],
  options: {
    toolNames: ToolNameMapping;
    /**
     * Send tool calls and results as text. Bedrock rejects `toolUse` and `toolResult` blocks in a
     * request without `toolConfig`, so a conversation with tool history and no tools offered goes
     * this way (with a `tool-history-as-text` warning).
     * @default false
     */
    toolsAsText?: boolean;
  },
): ConvertedBedrockMessages {
  const context: Context = {
    warnings: [],
    documentNames: new Set(),
    toolsAsText: options.toolsAsText ?? false,
  };
  const result: AlternatingMessage<ContentBlock>[] = [];
  // Converse wants user and assistant turns to alternate, with tool results first in a user turn.
  const append = (role: "user" | "assistant", content: ContentBlock[]) =>
    appendAlternating(result, { role, blocks: content }, (block) => block.toolResult !== undefined);

  for (const [index, message] of messages.entries()) {
    switch (message.role) {
      case "user":
        append(
          "user",
          typeof message.content === "string"
            ? textBlocks(message.content)
            : message.content.flatMap((part) => convertPart(part, "user-content", context)),
        );
        break;
      case "assistant":
        append("assistant", convertAssistant(message.content, options.toolNames, context));
        break;
      case "tool":
        append(
          "user",
          context.toolsAsText
            ? message.content.flatMap((part) => toolResultAsText(part, context))
            : message.content.map((part) => convertToolResult(part, context)),
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
  return { messages: result, warnings: context.warnings };
}

/** Converse rejects blank text blocks: an empty text carries nothing. */
function textBlocks(text: string): ContentBlock[] {
  return text === "" ? [] : [{ text }];
}

function convertAssistant(
  parts: AssistantContentPart[],
  toolNames: ToolNameMapping,
  context: Context,
): ContentBlock[] {
  const { warnings } = context;
  const blocks: ContentBlock[] = [];
  for (const part of parts) {
    switch (part.type) {
      case "text":
        blocks.push(...textBlocks(part.text));
        break;
      case "reasoning": {
        const metadata = part.providerMetadata?.bedrock;
        if (typeof metadata?.redactedContent === "string") {
          const bytes = bytesFromBase64(metadata.redactedContent);
          if (bytes) {
            blocks.push({ reasoningContent: { redactedContent: bytes } });
            break;
          }
        } else if (isRecord(metadata)) {
          blocks.push({
            reasoningContent: {
              reasoningText: {
                text: part.text,
                ...(typeof metadata.signature === "string" ? { signature: metadata.signature } : {}),
              },
            },
          });
          break;
        }
        warnings.push({
          code: "reasoning-not-replayable",
          message:
            "A reasoning part that did not come from Bedrock was left out: Bedrock only accepts reasoning its model produced.",
        });
        break;
      }
      case "tool-call": {
        if (context.toolsAsText) {
          noteToolsAsText(context);
          blocks.push({
            text: `[Called tool ${part.name} (call ${part.id}) with ${JSON.stringify(part.input) ?? "{}"}]`,
          });
          break;
        }
        const { input, warning } = objectToolInput(part);
        if (warning) warnings.push(warning);
        blocks.push({
          toolUse: { toolUseId: part.id, name: toolNames.toVendor(part.name), input: input as never },
        });
        break;
      }
      default: {
        const unknown: never = part;
        warnings.push({
          code: "assistant-part-unsupported",
          message: `An assistant part of type ${JSON.stringify((unknown as { type?: unknown }).type)} cannot be sent to Bedrock and was left out.`,
        });
      }
    }
  }
  return blocks;
}

function toolResultAsText(part: ToolResultMessagePart, context: Context): ContentBlock[] {
  noteToolsAsText(context);
  const output = part.output;
  const failed = typeof output !== "string" && output.isError;
  const blocks: ContentBlock[] = [
    { text: `[Result of tool ${part.toolName} (call ${part.toolCallId})${failed ? ", an error" : ""}:]` },
  ];
  if (typeof output === "string") return [...blocks, ...textBlocks(output)];
  blocks.push(...output.content.flatMap((item) => convertPart(item, "tool-result", context)));
  const structured = structuredContentForModel(output);
  if (structured !== undefined) blocks.push({ text: JSON.stringify(structured) });
  return blocks;
}

function noteToolsAsText(context: Context): void {
  if (context.warnedToolsAsText) return;
  context.warnedToolsAsText = true;
  context.warnings.push({
    code: "tool-history-as-text",
    message:
      "The conversation has tool calls and results but the request offers no tools; Bedrock rejects tool blocks without tools, so they were sent as text.",
  });
}

function convertToolResult(part: ToolResultMessagePart, context: Context): ContentBlock {
  const output = part.output;
  if (typeof output === "string") {
    return { toolResult: { toolUseId: part.toolCallId, content: [{ text: output }] } };
  }
  const content: ToolResultContentBlock[] = output.content.flatMap((item) =>
    convertPart(item, "tool-result", context),
  );
  const structured = structuredContentForModel(output);
  // MCP servers should mirror structured output as text; when one does not, Bedrock takes it as JSON.
  if (structured !== undefined) content.push({ json: structured as never });
  return {
    toolResult: {
      toolUseId: part.toolCallId,
      content,
      ...(output.isError ? { status: "error" as const } : {}),
    },
  };
}

function convertPart(part: ToolResultPart, where: Where, context: Context): MediaBlock[] {
  switch (part.type) {
    case "text":
      return part.text === "" ? [] : [{ text: part.text }];
    case "image":
      return [
        image({ data: part.data, mimeType: part.mimeType }, where, context) ??
          inPlaceOf(part, where, context),
      ];
    case "resource":
      return [convertResource(part, where, context)];
    default:
      // Audio, resource links and parts of unknown types: a text line, with a warning where something is lost.
      return [inPlaceOf(part, where, context)];
  }
}

function convertResource(
  part: Extract<ToolResultPart, { type: "resource" }>,
  where: Where,
  context: Context,
): MediaBlock {
  const resource = part.resource;
  const mimeType = resource.mimeType?.split(";")[0]?.trim().toLowerCase();
  if (typeof resource.text === "string") {
    // Any text goes as a document; its type picks the format where Bedrock has one.
    const format =
      mimeType && documentFormats[mimeType] && mimeType !== "application/pdf"
        ? documentFormats[mimeType]
        : "txt";
    return document(new TextEncoder().encode(resource.text), { format, uri: resource.uri }, context);
  }
  if (typeof resource.blob === "string") {
    const type = mimeType ?? "application/octet-stream";
    if (imageFormats[type]) {
      return (
        image({ data: resource.blob, mimeType: type }, where, context) ??
        omitted(where, { what: "resource", description: `the resource ${resource.uri} (${type})` }, context)
      );
    }
    const format = documentFormats[type];
    const bytes = format ? bytesFromBase64(resource.blob) : undefined;
    if (format && bytes) return document(bytes, { format, uri: resource.uri }, context);
    return omitted(
      where,
      { what: "resource", description: `the resource ${resource.uri} (${type})` },
      context,
    );
  }
  return inPlaceOf(part, where, context);
}

function image(
  { data, mimeType }: { data: string; mimeType: string },
  where: Where,
  context: Context,
): MediaBlock | undefined {
  const format = imageFormats[mimeType.toLowerCase()];
  if (!format) return undefined;
  const bytes = bytesFromBase64(data);
  if (!bytes) {
    context.warnings.push({
      code: `${where}-image-invalid`,
      message: `An image (${mimeType}) was not valid base64 and could not be sent to Bedrock; a text note was sent in its place.`,
    });
    return { text: "[an image omitted: its data was not valid base64]" };
  }
  return { image: { format, source: { bytes } } };
}

function document(
  bytes: Uint8Array,
  { format, uri }: { format: DocumentFormat; uri: string },
  context: Context,
): MediaBlock {
  return { document: { format, name: documentName(uri, context.documentNames), source: { bytes } } };
}

/**
 * A document name Bedrock accepts: letters, digits, single spaces, hyphens, parentheses and
 * square brackets, at most 200 characters, distinct within the request. Taken from the last
 * segment of the resource's URI (without extension); names are model-visible, so nothing else
 * of the URI goes in.
 */
function documentName(uri: string, used: Set<string>): string {
  const segment = uri.split(/[/\\]/).filter(Boolean).at(-1) ?? "";
  const base =
    safeDecode(segment)
      .replace(/\.[a-z0-9]{1,5}$/i, "")
      .replace(/[^a-zA-Z0-9\s\-()[\]]+/g, "-")
      .replace(/\s+/g, " ")
      .replace(/^[\s-]+|[\s-]+$/g, "")
      .slice(0, 190) || "document";
  let name = base;
  for (let n = 2; used.has(name); n++) name = `${base} (${n})`;
  used.add(name);
  return name;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function inPlaceOf(part: ToolResultPart, where: Where, context: Context): MediaBlock {
  const note = textInPlaceOf(part, { provider: "Bedrock", where });
  if (note.warning) context.warnings.push(note.warning);
  return { text: note.text };
}

function omitted(
  where: Where,
  { what, description }: { what: string; description: string },
  context: Context,
): MediaBlock {
  const note = omittedPartNote({ provider: "Bedrock", where, what, description });
  context.warnings.push(note.warning);
  return { text: note.text };
}
