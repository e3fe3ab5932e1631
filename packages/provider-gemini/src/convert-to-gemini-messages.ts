import type { Content, FunctionResponsePart, Part } from "@google/genai";
import { isRecord, structuredContentForModel } from "@junction/provider-utils";
import type {
  AssistantContentPart,
  Message,
  ProviderMetadata,
  ToolCallPart,
  ToolNameMapping,
  ToolResultMessagePart,
  ToolResultPart,
  UserContentPart,
  Warning,
} from "@junction/types";

/**
 * MIME types Gemini takes inside `functionResponse.parts` (multimodal function responses,
 * Gemini 3 and later). Anything else in a tool result goes beside the function response.
 */
export const GEMINI_FUNCTION_RESPONSE_MIME_TYPES: readonly string[] = [
  "image/png",
  "image/jpeg",
  "image/webp",
  "application/pdf",
  "text/plain",
];

/**
 * The dummy signature Gemini documents for function calls it did not produce itself (a
 * history from another model, or calls added by hand): without one, Gemini 3 rejects the turn.
 */
export const GEMINI_SKIP_THOUGHT_SIGNATURE = "skip_thought_signature_validator";

/** What Gemini keeps per part in `providerMetadata[name]`. */
export interface GeminiPartMetadata {
  /** Gemini's opaque `thoughtSignature`, echoed back on the next turn. */
  thoughtSignature?: string;
  /** True when Gemini sent no call id and Junction made one up: it is not sent back. */
  generatedId?: boolean;
}

export interface ConvertToGeminiMessagesOptions {
  /** Real tool names → names sent to Gemini (from `prepareGeminiTools`). */
  toolNames: ToolNameMapping;
  /**
   * Put tool-result media inside `functionResponse.parts` (Gemini 3 and later). When false,
   * media goes as `inlineData` parts beside the function responses in the same turn.
   */
  multimodalFunctionResponses: boolean;
  /**
   * Add Gemini's documented dummy signature to function calls that have none (Gemini 3
   * requires a signature on the first function call of each model turn).
   */
  requireThoughtSignatures: boolean;
  /** The key of Gemini's data in `providerMetadata`. @default "gemini" */
  providerName?: string;
}

/** A Gemini request's `contents` and `systemInstruction`, plus what could not be carried. */
export interface ConvertedGeminiMessages {
  systemInstruction?: Content;
  contents: Content[];
  warnings: Warning[];
}

/**
 * Converts Junction's neutral messages to Gemini `contents`. Pure. Tool results become
 * `functionResponse` parts (`{ output }` or `{ error }`), with images and documents in
 * `functionResponse.parts` when `multimodalFunctionResponses` is on, or beside it otherwise.
 * The model gets a result's `content`; its `structuredContent` (for code and UI) goes only when
 * the result has no text part to mirror it: then as the JSON object itself (`{ output: {…} }`),
 * or beside the other text as `{ output, structuredContent }`.
 * What Gemini cannot carry becomes a warning and a short text note to the model.
 */
export function convertToGeminiMessages(
  system: string | undefined,
  messages: Message[],
  options: ConvertToGeminiMessagesOptions,
): ConvertedGeminiMessages {
  const providerName = options.providerName ?? "gemini";
  const warnings: Warning[] = [];
  const conversion: Conversion = { providerName, options, warnings };
  const contents: Content[] = [];
  const callsById = new Map<string, ToolCallPart>();

  const push = (role: "user" | "model", parts: Part[]) => {
    if (parts.length === 0) return;
    const last = contents.at(-1);
    // Gemini wants turns to alternate; a user message after tool results joins their turn.
    if (last?.role === role) last.parts = [...(last.parts ?? []), ...parts];
    else contents.push({ role, parts });
  };

  for (const message of messages) {
    switch (message.role) {
      case "user": {
        const parts =
          typeof message.content === "string"
            ? [{ text: message.content }]
            : message.content.flatMap((part) => convertUserPart(part, warnings));
        push("user", parts);
        break;
      }
      case "assistant": {
        for (const part of message.content) if (part.type === "tool-call") callsById.set(part.id, part);
        push("model", convertAssistantParts(message.content, conversion));
        break;
      }
      case "tool": {
        const responses: Part[] = [];
        const beside: Part[] = [];
        for (const result of message.content) {
          const converted = convertToolResult(result, callsById.get(result.toolCallId), conversion);
          responses.push(converted.response);
          beside.push(...converted.beside);
        }
        push("user", [...responses, ...beside]);
        break;
      }
      default: {
        const unknown: never = message;
        warnings.push({
          code: "message-role-unsupported",
          message: `A message with role "${(unknown as { role?: unknown }).role}" was left out: Gemini has no such role.`,
        });
      }
    }
  }

  return {
    systemInstruction: system ? { parts: [{ text: system }] } : undefined,
    contents,
    warnings,
  };
}

function convertUserPart(part: UserContentPart, warnings: Warning[]): Part[] {
  switch (part.type) {
    case "text":
      return [{ text: part.text }];
    case "image":
    case "audio":
      return [{ inlineData: { mimeType: part.mimeType, data: part.data } }];
    case "resource": {
      const { uri, mimeType, text, blob } = part.resource;
      if (text !== undefined) return [{ text: resourceText(uri, text) }];
      if (blob !== undefined && mimeType && isInlineMimeType(mimeType))
        return [{ inlineData: { mimeType, data: blob } }];
      warnings.push({
        code: "user-resource-unsupported",
        message: `The resource ${uri} (${mimeType ?? "no MIME type"}) cannot be sent to Gemini inline; the model is told only its URI.`,
      });
      return [{ text: `[resource ${uri} (${mimeType ?? "unknown type"}) could not be included]` }];
    }
    case "resource_link":
      return [{ text: resourceLinkText(part) }];
    default: {
      const unknown: never = part;
      warnings.push({
        code: "user-part-unsupported",
        message: `A user content part of type "${(unknown as { type?: unknown }).type}" was left out: Gemini has no form for it.`,
      });
      return [];
    }
  }
}

/** What every part's conversion reads: the provider's name, the options, and where warnings go. */
interface Conversion {
  providerName: string;
  options: ConvertToGeminiMessagesOptions;
  warnings: Warning[];
}

function convertAssistantParts(content: AssistantContentPart[], conversion: Conversion): Part[] {
  const { providerName, options, warnings } = conversion;
  const parts: Part[] = [];
  let signedCall = false;
  for (const part of content) {
    const metadata = geminiMetadata(part.providerMetadata, providerName);
    const signature = metadata.thoughtSignature ? { thoughtSignature: metadata.thoughtSignature } : {};
    switch (part.type) {
      case "text":
        if (part.text !== "" || signature.thoughtSignature) parts.push({ text: part.text, ...signature });
        break;
      case "reasoning":
        if (part.text !== "" || signature.thoughtSignature)
          parts.push({ text: part.text, thought: true, ...signature });
        break;
      case "tool-call": {
        let args: Record<string, unknown>;
        if (isRecord(part.input)) args = part.input;
        else if (part.input === undefined || part.input === null) args = {};
        else {
          args = { value: part.input };
          warnings.push({
            code: "tool-call-input-not-object",
            message: `The call ${part.id} to "${part.name}" has input that is not a JSON object; Gemini needs an object, so it was sent as { value: … }.`,
          });
        }
        const call: Part = {
          functionCall: {
            ...(metadata.generatedId ? {} : { id: part.id }),
            name: options.toolNames.toVendor(part.name),
            args,
          },
          ...signature,
        };
        if (signature.thoughtSignature) signedCall = true;
        else if (options.requireThoughtSignatures && !signedCall) {
          call.thoughtSignature = GEMINI_SKIP_THOUGHT_SIGNATURE;
          signedCall = true;
          warnings.push({
            code: "thought-signature-missing",
            message: `The call ${part.id} to "${part.name}" has no Gemini thought signature (it came from another model or was made by hand); Gemini's documented placeholder was sent so the request is accepted.`,
          });
        }
        parts.push(call);
        break;
      }
      default: {
        const unknown: never = part;
        warnings.push({
          code: "assistant-part-unsupported",
          message: `An assistant part of type "${(unknown as { type?: unknown }).type}" was left out: Gemini has no form for it.`,
        });
      }
    }
  }
  return parts;
}

function convertToolResult(
  result: ToolResultMessagePart,
  call: ToolCallPart | undefined,
  conversion: Conversion,
): { response: Part; beside: Part[] } {
  const { providerName, options, warnings } = conversion;
  const name = options.toolNames.toVendor(result.toolName);
  const callMetadata = geminiMetadata(call?.providerMetadata, providerName);
  // An id Gemini never sent means nothing to it; results then match calls by name and order.
  const id = call && !callMetadata.generatedId ? { id: result.toolCallId } : {};

  if (typeof result.output === "string") {
    return {
      response: { functionResponse: { ...id, name, response: { output: result.output } } },
      beside: [],
    };
  }

  const texts: string[] = [];
  const nested: FunctionResponsePart[] = [];
  const beside: Part[] = [];
  for (const part of result.output.content) {
    const media = mediaOf(part);
    if (part.type === "text") texts.push(part.text);
    else if (part.type === "resource_link") texts.push(resourceLinkText(part));
    else if (part.type === "resource" && part.resource.text !== undefined)
      texts.push(resourceText(part.resource.uri, part.resource.text));
    else if (
      media &&
      options.multimodalFunctionResponses &&
      GEMINI_FUNCTION_RESPONSE_MIME_TYPES.includes(media.mimeType)
    )
      nested.push({ inlineData: { mimeType: media.mimeType, data: media.data } });
    else if (media && isInlineMimeType(media.mimeType)) {
      beside.push({ inlineData: { mimeType: media.mimeType, data: media.data } });
      warnings.push({
        code: "tool-result-media-beside-response",
        message: options.multimodalFunctionResponses
          ? `The result of "${result.toolName}" (call ${result.toolCallId}) has ${media.mimeType} content, which Gemini does not take inside a function response; it was sent beside the function response in the same turn.`
          : `The result of "${result.toolName}" (call ${result.toolCallId}) has ${media.mimeType} content; this model takes no media inside function responses, so it was sent beside the function response in the same turn.`,
      });
    } else {
      const label =
        media?.mimeType ??
        (part.type === "resource" ? (part.resource.mimeType ?? "unknown type") : part.type);
      texts.push(`[${label} content could not be included]`);
      warnings.push({
        code: "tool-result-part-unsupported",
        message: `The result of "${result.toolName}" (call ${result.toolCallId}) has ${label} content that Gemini cannot take; the model is told it was left out.`,
      });
    }
  }

  const key = result.output.isError ? "error" : "output";
  const text = texts.join("\n");
  const structured = structuredContentForModel(result.output);
  // Gemini's response is a JSON object: structured content goes in it as JSON, not as JSON text.
  let response: Record<string, unknown>;
  if (structured === undefined) response = { [key]: text };
  else if (texts.length === 0) response = { [key]: structured };
  else response = { [key]: text, structuredContent: structured };
  return {
    response: {
      functionResponse: { ...id, name, response, ...(nested.length > 0 ? { parts: nested } : {}) },
    },
    beside,
  };
}

function mediaOf(part: ToolResultPart): { mimeType: string; data: string } | undefined {
  if (part.type === "image" || part.type === "audio") return { mimeType: part.mimeType, data: part.data };
  if (part.type === "resource" && part.resource.blob !== undefined && part.resource.mimeType)
    return { mimeType: part.resource.mimeType, data: part.resource.blob };
  return undefined;
}

/** Types Gemini takes as `inlineData` in a turn: images, audio, video, PDF and text. */
function isInlineMimeType(mimeType: string): boolean {
  return /^(image|audio|video|text)\//.test(mimeType) || mimeType === "application/pdf";
}

function resourceText(uri: string, text: string): string {
  return `[resource ${uri}]\n${text}`;
}

function resourceLinkText(part: { uri: string; name: string; description?: string }): string {
  return `[resource link: ${part.name} <${part.uri}>${part.description ? ` ${part.description}` : ""}]`;
}

function geminiMetadata(metadata: ProviderMetadata | undefined, providerName: string): GeminiPartMetadata {
  const entry = metadata?.[providerName];
  if (!entry) return {};
  return {
    thoughtSignature: typeof entry.thoughtSignature === "string" ? entry.thoughtSignature : undefined,
    generatedId: entry.generatedId === true,
  };
}
