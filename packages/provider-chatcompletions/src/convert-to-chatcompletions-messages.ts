import { describeResourceLink, structuredContentForModel } from "@junction/provider-utils";
import type {
  AssistantMessage,
  Message,
  ToolMessage,
  ToolNameMapping,
  ToolResultPart,
  UserContentPart,
  Warning,
} from "@junction/types";
import type {
  ChatCompletionContentPart,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
} from "openai/resources/chat/completions";

/** An assistant message as sent, with the reasoning field some servers accept back. */
type WireMessage = ChatCompletionMessageParam & { reasoning_content?: string; reasoning?: string };

/** Options for {@link convertToChatCompletionsMessages}. */
export interface ConvertToChatCompletionsMessagesOptions {
  system?: string;
  messages: Message[];
  /** Real tool names to the names sent on the wire. */
  toolNames: ToolNameMapping;
  /** The provider's name: the key of its entries in `providerMetadata`. */
  providerName: string;
  /** Send earlier reasoning back in the field it arrived in (`reasoning_content` or `reasoning`). */
  echoReasoning?: boolean;
}

/** The metadata a reasoning part carries: the field the server streamed it in. */
export interface ChatCompletionsReasoningMetadata {
  field: "reasoning_content" | "reasoning";
}

const AUDIO_FORMATS: Record<string, "wav" | "mp3"> = {
  "audio/wav": "wav",
  "audio/x-wav": "wav",
  "audio/wave": "wav",
  "audio/vnd.wave": "wav",
  "audio/mpeg": "mp3",
  "audio/mp3": "mp3",
};

/**
 * Converts Junction's neutral messages into Chat Completions messages. Pure: no I/O, the
 * input is never mutated, and what the format cannot carry comes back as warnings.
 *
 * Tool results: a `tool` message can only hold text, so each result's text goes there (a
 * string output stays that exact string), and images and wav/mp3 audio follow in one `user`
 * message after the turn's tool messages (`image_url` data URLs, `input_audio`), with a
 * warning. Other binary content is replaced by a note and a warning.
 */
export function convertToChatCompletionsMessages(options: ConvertToChatCompletionsMessagesOptions): {
  messages: ChatCompletionMessageParam[];
  warnings: Warning[];
} {
  const messages: WireMessage[] = [];
  const warnings: Warning[] = [];
  if (options.system !== undefined && options.system !== "") {
    messages.push({ role: "system", content: options.system });
  }
  for (const message of options.messages)
    messages.push(...convertChatCompletionsMessage(message, options, warnings));
  return { messages, warnings };
}

/**
 * One neutral message as the Chat Completions messages it becomes (a tool message with
 * attachments becomes its tool messages and a user message), its warnings added to `warnings`.
 * Pure, and the same for the same message and options.
 */
export function convertChatCompletionsMessage(
  message: Message,
  options: Pick<ConvertToChatCompletionsMessagesOptions, "toolNames" | "providerName" | "echoReasoning">,
  warnings: Warning[],
): ChatCompletionMessageParam[] {
  switch (message.role) {
    case "user":
      return [convertUserMessage(message.content, warnings)];
    case "assistant":
      return [convertAssistantMessage(message, options, warnings)];
    case "tool":
      return convertToolMessage(message, warnings);
    default: {
      const unknown: never = message;
      warnings.push({
        code: "message-role-unsupported",
        message: `A message with role ${JSON.stringify((unknown as { role?: unknown }).role)} cannot be sent; it was left out.`,
      });
      return [];
    }
  }
}

function convertUserMessage(content: string | UserContentPart[], warnings: Warning[]): WireMessage {
  if (typeof content === "string") return { role: "user", content };
  const parts: ChatCompletionContentPart[] = [];
  for (const part of content) {
    switch (part.type) {
      case "text":
        parts.push({ type: "text", text: part.text });
        break;
      case "image":
        parts.push(imagePart(part.mimeType, part.data));
        break;
      case "audio": {
        const format = AUDIO_FORMATS[part.mimeType.toLowerCase()];
        if (format) parts.push({ type: "input_audio", input_audio: { data: part.data, format } });
        else {
          warnings.push(audioUnsupported(part.mimeType, "user message"));
          parts.push({ type: "text", text: `[audio (${part.mimeType}) left out: unsupported format]` });
        }
        break;
      }
      case "resource": {
        const carried = resourceParts(part.resource, { where: "user message", warnings });
        parts.push(...carried.parts);
        if (carried.text !== undefined) parts.push({ type: "text", text: carried.text });
        break;
      }
      case "resource_link":
        parts.push({ type: "text", text: resourceLinkText(part) });
        break;
      default: {
        const unknown: never = part;
        warnings.push(unknownPart(unknown, "user message"));
      }
    }
  }
  // A lone text part goes as a plain string: older llama.cpp and LM Studio builds accept only strings.
  const [first] = parts;
  if (parts.length === 1 && first?.type === "text") return { role: "user", content: first.text };
  return { role: "user", content: parts };
}

function convertAssistantMessage(
  message: AssistantMessage,
  options: Pick<ConvertToChatCompletionsMessagesOptions, "toolNames" | "providerName" | "echoReasoning">,
  warnings: Warning[],
): WireMessage {
  let text = "";
  let reasoning = "";
  let reasoningField: ChatCompletionsReasoningMetadata["field"] = "reasoning_content";
  const toolCalls: ChatCompletionMessageToolCall[] = [];
  for (const part of message.content) {
    switch (part.type) {
      case "text":
        text += part.text;
        break;
      case "reasoning": {
        reasoning += part.text;
        const field = part.providerMetadata?.[options.providerName]?.field;
        if (field === "reasoning") reasoningField = "reasoning";
        break;
      }
      case "tool-call":
        toolCalls.push({
          id: part.id,
          type: "function",
          function: {
            name: options.toolNames.toVendor(part.name),
            // Arguments the model sent that were not valid JSON are kept as the raw text.
            arguments: typeof part.input === "string" ? part.input : JSON.stringify(part.input ?? {}),
          },
        });
        break;
      default: {
        const unknown: never = part;
        warnings.push(unknownPart(unknown, "assistant message"));
      }
    }
  }
  const wire: WireMessage = {
    role: "assistant",
    content: toolCalls.length > 0 && text === "" ? null : text,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
  };
  if (options.echoReasoning && reasoning !== "") wire[reasoningField] = reasoning;
  return wire;
}

function convertToolMessage(message: ToolMessage, warnings: Warning[]): WireMessage[] {
  const toolMessages: WireMessage[] = [];
  const followUp: ChatCompletionContentPart[] = [];
  for (const result of message.content) {
    if (typeof result.output === "string") {
      toolMessages.push({ role: "tool", tool_call_id: result.toolCallId, content: result.output });
      continue;
    }
    const texts: string[] = [];
    const attachments: ChatCompletionContentPart[] = [];
    for (const part of result.output.content) {
      const carried = toolResultPart(part, result.toolName, warnings);
      if (carried.text !== undefined) texts.push(carried.text);
      attachments.push(...carried.parts);
    }
    const structured = structuredContentForModel(result.output);
    if (structured !== undefined) texts.push(JSON.stringify(structured));
    toolMessages.push({ role: "tool", tool_call_id: result.toolCallId, content: texts.join("\n") });
    if (attachments.length > 0) {
      followUp.push(
        {
          type: "text",
          text: `Attachments from the result of tool call ${result.toolCallId} (${result.toolName}):`,
        },
        ...attachments,
      );
    }
  }
  // Tool messages must directly follow the assistant's tool calls, so the attachments come after all of them.
  if (followUp.length > 0) toolMessages.push({ role: "user", content: followUp });
  return toolMessages;
}

/** One tool result part: the text for the `tool` message and what moves to the follow-up `user` message. */
function toolResultPart(
  part: ToolResultPart,
  toolName: string,
  warnings: Warning[],
): { text?: string; parts: ChatCompletionContentPart[] } {
  switch (part.type) {
    case "text":
      return { text: part.text, parts: [] };
    case "image":
      warnings.push(imageMoved(part.mimeType, toolName));
      return {
        text: `[image (${part.mimeType}) attached in the following user message]`,
        parts: [imagePart(part.mimeType, part.data)],
      };
    case "audio": {
      const format = AUDIO_FORMATS[part.mimeType.toLowerCase()];
      if (!format) {
        warnings.push(audioUnsupported(part.mimeType, `result of tool "${toolName}"`));
        return { text: `[audio (${part.mimeType}) left out: unsupported format]`, parts: [] };
      }
      warnings.push({
        code: "tool-result-audio-unsupported",
        message: `Chat Completions tool messages carry only text: audio (${part.mimeType}) from tool "${toolName}" was sent in a following user message.`,
      });
      return {
        text: `[audio (${part.mimeType}) attached in the following user message]`,
        parts: [{ type: "input_audio", input_audio: { data: part.data, format } }],
      };
    }
    case "resource":
      return resourceParts(part.resource, { where: `result of tool "${toolName}"`, warnings, toolName });
    case "resource_link":
      return { text: resourceLinkText(part), parts: [] };
    default: {
      const unknown: never = part;
      warnings.push(unknownPart(unknown, `result of tool "${toolName}"`));
      return { parts: [] };
    }
  }
}

/**
 * An embedded resource: text contents become text; image and wav/mp3 blobs become parts
 * (moved to a user message when they come from a tool); other blobs become a note.
 */
function resourceParts(
  resource: { uri: string; mimeType?: string; text?: string; blob?: string },
  { where, warnings, toolName }: { where: string; warnings: Warning[]; toolName?: string },
): { text?: string; parts: ChatCompletionContentPart[] } {
  const mimeType = resource.mimeType?.toLowerCase();
  if (resource.text !== undefined) return { text: `[resource ${resource.uri}]\n${resource.text}`, parts: [] };
  if (resource.blob !== undefined && mimeType?.startsWith("image/")) {
    if (toolName !== undefined) warnings.push(imageMoved(mimeType, toolName));
    return {
      text: `[resource ${resource.uri}: image (${mimeType})${toolName !== undefined ? " attached in the following user message" : ""}]`,
      parts: [imagePart(mimeType, resource.blob)],
    };
  }
  const format = mimeType ? AUDIO_FORMATS[mimeType] : undefined;
  if (resource.blob !== undefined && format) {
    if (toolName !== undefined) {
      warnings.push({
        code: "tool-result-audio-unsupported",
        message: `Chat Completions tool messages carry only text: audio resource ${resource.uri} from tool "${toolName}" was sent in a following user message.`,
      });
    }
    return {
      text: `[resource ${resource.uri}: audio (${mimeType})${toolName !== undefined ? " attached in the following user message" : ""}]`,
      parts: [{ type: "input_audio", input_audio: { data: resource.blob, format } }],
    };
  }
  warnings.push({
    code: toolName !== undefined ? "tool-result-resource-unsupported" : "user-resource-unsupported",
    message: `Chat Completions cannot carry the binary resource ${resource.uri} (${resource.mimeType ?? "no MIME type"}) in a ${where}; a note naming it was sent instead.`,
  });
  return {
    text: `[resource ${resource.uri} (${resource.mimeType ?? "binary"}) left out: this model API cannot carry it]`,
    parts: [],
  };
}

function imagePart(mimeType: string, data: string): ChatCompletionContentPart {
  return { type: "image_url", image_url: { url: `data:${mimeType};base64,${data}` } };
}

function resourceLinkText(part: Parameters<typeof describeResourceLink>[0]): string {
  return `[resource link: ${describeResourceLink(part)}]`;
}

function imageMoved(mimeType: string, toolName: string): Warning {
  return {
    code: "tool-result-image-unsupported",
    message: `Chat Completions tool messages carry only text: an image (${mimeType}) from tool "${toolName}" was sent in a following user message.`,
  };
}

function audioUnsupported(mimeType: string, where: string): Warning {
  return {
    code: where === "user message" ? "user-audio-unsupported" : "tool-result-audio-unsupported",
    message: `Chat Completions accepts only wav and mp3 audio; audio (${mimeType}) in a ${where} was left out with a note.`,
  };
}

function unknownPart(part: unknown, where: string): Warning {
  return {
    code: "content-part-unsupported",
    message: `A content part of type ${JSON.stringify((part as { type?: unknown })?.type)} in a ${where} is not supported and was left out.`,
  };
}
